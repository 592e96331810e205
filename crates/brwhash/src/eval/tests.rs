//! The evaluators against the definitions of SPEC.md section 4: the recursive BRW and plain
//! Horner, for every field, every chunk exponent w and every group size.

use super::*;
use crate::field::{Field, Fp1271, Fp1305, Gf128, Gf256};

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

fn check<F: Field>(from: impl Fn(u64, u64) -> F) {
    let mut r = Rng(0xfeed_beef_1234_5678);
    let x = from(r.next(), r.next());
    let sq = squares(x);
    let blocks: Vec<F> = (0..700).map(|_| from(r.next(), r.next())).collect();
    for l in (0..=300).chain([511, 512, 513, 700]) {
        let want = brw_recursive(x, &blocks[..l]).to_canonical_bytes();
        for w in 2..=MAX_W {
            let mut e = Brw::new(w);
            for &m in &blocks[..l] {
                e.push(&sq, m);
            }
            assert_eq!(e.finish(&sq).to_canonical_bytes(), want, "BRW l={l} w={w}");
        }
        if l <= 1 << MAX_W {
            assert_eq!(
                brw_short(&sq, &blocks[..l]).to_canonical_bytes(),
                want,
                "ubrw l={l}"
            );
        }
        // Horner: Poly(x; M) with every group size, continuing from an accumulator.
        let plain = horner::poly_plain(x, &blocks[..l]);
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
    check(|a, b| Fp1271((a as u128) << 64 | b as u128));
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
