//! The evaluators against the definitions of SPEC.md section 4: the recursive BRW and plain
//! Horner, for every field, every chunk exponent w and every group size.

use super::*;
use crate::field::{Canonical, Field, Fp1271, Fp1305, Gf128, Gf256};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// The recursive definition of BRW (SPEC.md section 4), with x^K by repeated multiplication.
fn brw_recursive<F: Field>(x: F, ms: &[F]) -> F {
    match ms.len() {
        0 => F::ZERO,
        1 => ms[0],
        2 => ms[0].mul(x).add(ms[1]),
        3 => x.add(ms[0]).mul(x.mul(x).add(ms[1])).add(ms[2]),
        l => {
            let k = 1 << (usize::BITS - 1 - l.leading_zeros());
            let xk = (1..k).fold(x, |a, _| a.mul(x));
            brw_recursive(x, &ms[..k - 1])
                .mul(xk.add(ms[k - 1]))
                .add(brw_recursive(x, &ms[k..]))
        }
    }
}

fn squares<F: Field>(x: F) -> Vec<F> {
    let mut sq = vec![x];
    for _ in 1..SQUARES {
        let last = *sq.last().unwrap();
        sq.push(last.square());
    }
    sq
}

fn stack_brw<F: Field + Canonical, const C: usize>(sq: &[F], ms: &[F]) -> [u8; 32] {
    let mut e = Brw::<F, C>::default();
    for &m in ms {
        e.push(sq, m);
    }
    e.finish(sq).to_canonical_bytes()
}

/// BRW by whole chunks through `push_chunk_with` (each block read where the tree uses it),
/// then the rest block by block.
fn stack_brw_with<F: Field + Canonical, const C: usize>(sq: &[F], ms: &[F]) -> [u8; 32] {
    let mut e = Brw::<F, C>::default();
    let mut chunks = ms.chunks_exact(C);
    for chunk in &mut chunks {
        e.whole.push_chunk_with(sq, |j| chunk[j]);
    }
    for &m in chunks.remainder() {
        e.push(sq, m);
    }
    e.finish(sq).to_canonical_bytes()
}

/// `brw::ubrw_at` of the first l blocks, for the l it serves (3, 7, 15, 31).
fn brw_at<F: Field + Canonical>(sq: &[F], ms: &[F]) -> Option<[u8; 32]> {
    let m = |j: usize| ms[j];
    let w = match ms.len() {
        3 => brw::ubrw_at::<F, [F], 3>(sq, &m, 0),
        7 => brw::ubrw_at::<F, [F], 7>(sq, &m, 0),
        15 => brw::ubrw_at::<F, [F], 15>(sq, &m, 0),
        31 => brw::ubrw_at::<F, [F], 31>(sq, &m, 0),
        _ => return None,
    };
    Some(F::reduce(w).to_canonical_bytes())
}

/// BRW by chunks of 4 blocks taken singly, in pairs and in quads wherever the chunk count
/// allows them (`push_chunk_pair` from an even count, `push_chunk_quad` from a multiple of 4),
/// in a pattern set by `pattern`, then the rest block by block.
fn grouped_brw<F: Field + Canonical>(sq: &[F], ms: &[F], pattern: u64) -> [u8; 32] {
    let mut e = Brw::<F, 4>::default();
    let chunk = |i: usize| -> [F; 4] { ms[4 * i..4 * i + 4].try_into().unwrap() };
    let (chunks, mut i, mut bits) = (ms.len() / 4, 0, pattern);
    while i < chunks {
        let want = bits % 3;
        bits = (bits / 3) ^ (bits << 7);
        if want == 2 && i % 4 == 0 && i + 4 <= chunks {
            e.whole
                .push_chunk_quad(sq, |d, j| ms[4 * (i + d) + j], || {});
            i += 4;
        } else if want >= 1 && i % 2 == 0 && i + 2 <= chunks {
            e.whole
                .push_chunk_pair(sq, |d, j| ms[4 * (i + d) + j], || {});
            i += 2;
        } else {
            e.whole.push_chunk(sq, &chunk(i));
            i += 1;
        }
        assert_eq!(e.whole.chunks(), i as u64);
    }
    for &m in &ms[4 * chunks..] {
        e.push(sq, m);
    }
    e.finish(sq).to_canonical_bytes()
}

fn check<F: Field + Canonical>(from: impl Fn(u64, u64) -> F) {
    let mut r = Rng(0xfeed_beef_1234_5678);
    let x = from(r.next(), r.next());
    let sq = squares(x);
    let blocks: Vec<F> = (0..700).map(|_| from(r.next(), r.next())).collect();
    for l in (0..=300).chain([511, 512, 513, 700]) {
        let want = brw_recursive(x, &blocks[..l]).to_canonical_bytes();
        assert_eq!(
            stack_brw::<F, 4>(sq.as_slice(), &blocks[..l]),
            want,
            "BRW l={l} w=2"
        );
        assert_eq!(
            stack_brw::<F, 8>(sq.as_slice(), &blocks[..l]),
            want,
            "BRW l={l} w=3"
        );
        assert_eq!(
            stack_brw::<F, 16>(sq.as_slice(), &blocks[..l]),
            want,
            "BRW l={l} w=4"
        );
        assert_eq!(
            stack_brw::<F, 32>(sq.as_slice(), &blocks[..l]),
            want,
            "BRW l={l} w=5"
        );
        for (w, got) in [
            (2, stack_brw_with::<F, 4>(sq.as_slice(), &blocks[..l])),
            (3, stack_brw_with::<F, 8>(sq.as_slice(), &blocks[..l])),
            (4, stack_brw_with::<F, 16>(sq.as_slice(), &blocks[..l])),
            (5, stack_brw_with::<F, 32>(sq.as_slice(), &blocks[..l])),
        ] {
            assert_eq!(got, want, "BRW l={l} w={w}, chunks read in place");
        }
        if let Some(got) = brw_at(sq.as_slice(), &blocks[..l]) {
            assert_eq!(got, want, "ubrw_at l={l}");
        }
        for pattern in [0x5555, 0xaaaa_aaaa, 0x1234_5678_9abc, u64::MAX] {
            assert_eq!(
                grouped_brw(sq.as_slice(), &blocks[..l], pattern),
                want,
                "BRW l={l} in pairs and quads ({pattern:#x})"
            );
        }
        if l <= 1 << MAX_W {
            assert_eq!(
                brw_short(sq.as_slice(), &blocks[..l]).to_canonical_bytes(),
                want,
                "ubrw l={l}"
            );
        }
        // Horner: Poly(x; M) with every group size, continuing from an accumulator.
        let plain = horner::poly_plain(x, &blocks[..l]);
        if l <= 16 {
            let tree = horner::poly_tree(&sq, &blocks[..l]);
            assert_eq!(
                tree.to_canonical_bytes(),
                plain.to_canonical_bytes(),
                "Estrin l={l}"
            );
        }
        for g in 1..=G {
            let powers: Vec<F> = (1..=g).map(|j| (1..j).fold(x, |a, _| a.mul(x))).collect();
            let mut h = Horner::default();
            for &m in &blocks[..l] {
                h.push(&powers, m);
            }
            assert_eq!(
                h.finish(&powers).to_canonical_bytes(),
                plain.to_canonical_bytes()
            );
            let mut h = Horner::with_acc(blocks[0]);
            for &m in &blocks[1..l.max(1)] {
                h.push(&powers, m);
            }
            let want = horner::poly_plain(x, &blocks[..l.max(1)]);
            assert_eq!(
                h.finish(&powers).to_canonical_bytes(),
                want.to_canonical_bytes()
            );
        }
    }
}

#[test]
fn fp1271_brw_and_horner() {
    // Blocks (and here the key) below 2^121, the bound of padded blocks that
    // `Field::add_block` relies on.
    check(|a, b| Fp1271((a as u128 >> 7) << 64 | b as u128));
}

#[test]
fn fp1305_brw_and_horner() {
    // Values up to 2^131 - 1, the whole working range.
    check(|a, b| Fp1305([a, b, a >> 61]));
}

#[test]
fn gf128_brw_and_horner() {
    check(|a, b| Gf128((a as u128) << 64 | b as u128));
}

#[test]
fn gf256_brw_and_horner() {
    check(|a, b| Gf256([(a as u128) << 64 | b as u128, (b as u128) << 64 | a as u128]));
}

/// Fp1305 with a tiny headroom, so that the stack stores reduced entries early.
#[derive(Clone, Copy, Default, Debug)]
struct Tight(Fp1305);

impl zeroize::Zeroize for Tight {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

impl Field for Tight {
    type Wide = <Fp1305 as Field>::Wide;
    const ZERO: Self = Tight(Fp1305::ZERO);
    const WIDE_SUM_LIMIT: usize = 3;
    fn add(self, rhs: Self) -> Self {
        Tight(self.0.add(rhs.0))
    }
    fn mul_wide(self, rhs: Self) -> Self::Wide {
        self.0.mul_wide(rhs.0)
    }
    fn wide_add(a: Self::Wide, b: Self::Wide) -> Self::Wide {
        Fp1305::wide_add(a, b)
    }
    fn widen(self) -> Self::Wide {
        self.0.widen()
    }
    fn reduce(w: Self::Wide) -> Self {
        Tight(Fp1305::reduce(w))
    }
}

impl Canonical for Tight {
    fn to_canonical_bytes(self) -> [u8; 32] {
        self.0.to_canonical_bytes()
    }
}

#[test]
fn headroom_limit_keeps_the_value() {
    // Stack depth reaches lg(700 / 4) = 7 > 3: deep entries are stored reduced.
    check(|a, b| Tight(Fp1305([a, b, a >> 61])));
}
