//! Field laws and reduction edge cases. Multiplication is checked independently of its own
//! structure by Fermat's little theorem (x^(p-1) = 1) and, for binary fields, by the
//! Frobenius map (x^(2^n) = x): a wrong product breaks these with overwhelming probability.

use super::*;

/// xorshift64*: deterministic test data.
pub(crate) struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn u128(&mut self) -> u128 {
        (self.next() as u128) << 64 | self.next() as u128
    }
}

/// Random elements in the full working representation (not only canonical values).
trait Sample: Field + Canonical {
    fn sample(r: &mut Rng) -> Self;
}
impl Sample for Fp1271 {
    fn sample(r: &mut Rng) -> Self {
        Fp1271(r.u128())
    }
}
impl Sample for Fp1305 {
    fn sample(r: &mut Rng) -> Self {
        Fp1305([r.next(), r.next(), r.next() & 7])
    }
}
impl Sample for Gf128 {
    fn sample(r: &mut Rng) -> Self {
        Gf128(r.u128())
    }
}
impl Sample for Gf256 {
    fn sample(r: &mut Rng) -> Self {
        Gf256([r.u128(), r.u128()])
    }
}

fn eq<F: Field + Canonical>(a: F, b: F) -> bool {
    a.to_canonical_bytes() == b.to_canonical_bytes()
}

fn laws<F: Sample>() {
    let mut r = Rng(0x1234_5678_9abc_def1);
    for _ in 0..2000 {
        let (a, b, c, d) = (
            F::sample(&mut r),
            F::sample(&mut r),
            F::sample(&mut r),
            F::sample(&mut r),
        );
        assert!(eq(a.mul(b), b.mul(a)));
        assert!(eq(a.mul(b).mul(c), a.mul(b.mul(c))));
        assert!(eq(a.add(b).mul(c), a.mul(c).add(b.mul(c))));
        assert!(eq(a.add(b).add(c), a.add(b.add(c))));
        assert!(eq(a.square(), a.mul(a)));
        // Delayed reduction: one reduction of a sum of products equals the sum of reductions.
        let wide = F::wide_add(F::wide_add(a.mul_wide(b), c.mul_wide(d)), a.widen());
        assert!(eq(F::reduce(wide), a.mul(b).add(c.mul(d)).add(a)));
        assert!(eq(a.add(F::ZERO), a));
        assert!(eq(a.mul(F::ZERO), F::ZERO));
    }
}

/// x^e for an exponent given as little-endian 64-bit words.
fn pow<F: Field>(x: F, e: &[u64], one: F) -> F {
    let mut acc = one;
    for w in e.iter().rev() {
        for i in (0..64).rev() {
            acc = acc.square();
            if w >> i & 1 == 1 {
                acc = acc.mul(x);
            }
        }
    }
    acc
}

#[test]
fn fp1271_laws_and_fermat() {
    laws::<Fp1271>();
    let one = Fp1271(1);
    let mut r = Rng(7);
    // p - 1 = 2^127 - 2.
    let e = [u64::MAX - 1, u64::MAX >> 1];
    for _ in 0..50 {
        let x = Fp1271::sample(&mut r);
        if eq(x, Fp1271::ZERO) {
            continue;
        }
        assert!(eq(pow(x, &e, one), one));
    }
}

/// Long unreduced sums of the largest products: 2^128 - 1 = 2p + 1 is 1 mod p, so n products
/// of it (and the carries out of every half of the sum) must reduce to n; and sums of random
/// full-width products must equal the sums of their reductions.
#[test]
fn fp1271_long_wide_sums() {
    let max = Fp1271(u128::MAX);
    let mut w = max.mul_wide(max);
    for n in 2u64..=3000 {
        w = Fp1271::wide_add(w, max.mul_wide(max));
        let got = Fp1271::reduce(w);
        assert!(got.0 < (1 << 127) + (1 << 67));
        assert!(eq(got, Fp1271::from_u64(n)), "{n} products");
    }
    let mut r = Rng(11);
    let (mut wide, mut sum) = (Fp1271::ZERO.widen(), Fp1271::ZERO);
    for _ in 0..500 {
        let (a, b) = (Fp1271(r.u128() | 3 << 126), Fp1271(r.u128()));
        wide = Fp1271::wide_add(wide, a.mul_wide(b));
        sum = sum.add(a.mul(b));
        assert!(eq(Fp1271::reduce(wide), sum));
    }
}

/// GF(2^130 - 5) by a method that shares nothing with `Fp1305`'s: a value is (bits 0..128,
/// bits 128..), reduced by comparing with p and subtracting, and a product is doubling and
/// adding bit by bit.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Ref1305(u128, u128);

impl Ref1305 {
    const P: Ref1305 = Ref1305(u128::MAX - 4, 3);

    fn of(x: Fp1305) -> Ref1305 {
        Ref1305(x.0[0] as u128 | (x.0[1] as u128) << 64, x.0[2] as u128).norm()
    }
    fn norm(mut self) -> Ref1305 {
        while self.1 > 3 || (self.1 == 3 && self.0 >= Self::P.0) {
            let (lo, borrow) = self.0.overflowing_sub(Self::P.0);
            self = Ref1305(lo, self.1 - 3 - borrow as u128);
        }
        self
    }
    fn add(self, b: Ref1305) -> Ref1305 {
        let (lo, carry) = self.0.overflowing_add(b.0);
        Ref1305(lo, self.1 + b.1 + carry as u128).norm()
    }
    fn mul(self, b: Ref1305) -> Ref1305 {
        let (a, b) = (self.norm(), b.norm());
        let mut acc = Ref1305(0, 0);
        for i in (0..130).rev() {
            acc = acc.add(acc);
            let bit = if i < 128 { b.0 >> i } else { b.1 >> (i - 128) };
            if bit & 1 == 1 {
                acc = acc.add(a);
            }
        }
        acc
    }
}

/// Products, squares, block products and long unreduced sums of 2^130 - 5 against
/// [`Ref1305`], over the whole range a product accepts (`add_block` sums: top limb up to
/// 15) and blocks with and without the marker; every reduced value keeps its top limb below
/// 8, as `mul_clamped` and `add_block` need.
#[test]
fn fp1305_against_reference() {
    let mut r = Rng(0x1305_1305);
    let top = |x: Fp1305| x.0[2];
    let mut values = vec![
        Fp1305([u64::MAX, u64::MAX, 15]),
        Fp1305([u64::MAX, u64::MAX, 7]),
        Fp1305([0, 0, 15]),
        Fp1305([u64::MAX - 4, u64::MAX, 3]),
        Fp1305([1, 0, 0]),
        Fp1305([0, 0, 0]),
    ];
    values.extend((0..300).map(|_| Fp1305([r.next(), r.next(), r.next() % 16])));
    let mut blocks = vec![Fp1305([u64::MAX, u64::MAX, 1]), Fp1305([0, 0, 1])];
    for _ in 0..40 {
        let bytes: Vec<u8> = (0..16).map(|_| r.next() as u8).collect();
        let n = (r.next() % 17) as usize;
        blocks.push(Fp1305::load(&bytes, true));
        blocks.push(Fp1305::load(&bytes, false));
        blocks.push(Fp1305::from_block(&bytes[..n], true));
    }
    for (i, &a) in values.iter().enumerate() {
        let b = values[(i * 7 + 3) % values.len()];
        let got = a.mul(b);
        assert_eq!(
            Ref1305::of(got),
            Ref1305::of(a).mul(Ref1305::of(b)),
            "{a:?} {b:?}"
        );
        assert!(top(got) < 8, "{got:?}");
        let sq = a.square();
        assert_eq!(Ref1305::of(sq), Ref1305::of(a).mul(Ref1305::of(a)), "{a:?}");
        assert!(top(sq) < 8, "{sq:?}");
        let m = blocks[i % blocks.len()];
        let got = Fp1305::reduce(a.mul_block_wide(m));
        assert_eq!(
            Ref1305::of(got),
            Ref1305::of(a).mul(Ref1305::of(m)),
            "{a:?} {m:?}"
        );
        assert!(top(got) < 8);
    }
    // Sums of up to 3000 of the largest products, and of random ones with widened values.
    let max = Fp1305([u64::MAX, u64::MAX, 15]);
    let max_sq = Ref1305::of(max).mul(Ref1305::of(max));
    let (mut w, mut want) = (max.mul_wide(max), max_sq);
    for n in 2..=3000 {
        w = Fp1305::wide_add(w, max.mul_wide(max));
        want = want.add(max_sq);
        if n % 97 == 0 || n == 3000 {
            let got = Fp1305::reduce(w);
            assert_eq!(Ref1305::of(got), want, "{n} products");
            assert!(top(got) < 8);
        }
    }
    let (mut w, mut want) = (Fp1305::ZERO.widen(), Ref1305(0, 0));
    for i in 0..600 {
        let (a, b) = (values[i % values.len()], values[(i * 5 + 1) % values.len()]);
        w = Fp1305::wide_add(w, a.mul_wide(b));
        w = Fp1305::wide_add(w, b.widen());
        want = want
            .add(Ref1305::of(a).mul(Ref1305::of(b)))
            .add(Ref1305::of(b));
        assert_eq!(Ref1305::of(Fp1305::reduce(w)), want);
    }
}

#[test]
fn fp1305_laws_and_fermat() {
    laws::<Fp1305>();
    let one = Fp1305([1, 0, 0]);
    let mut r = Rng(8);
    // p - 1 = 2^130 - 6.
    let e = [u64::MAX - 5, u64::MAX, 3];
    for _ in 0..50 {
        let x = Fp1305::sample(&mut r);
        assert!(eq(pow(x, &e, one), one));
    }
}

#[test]
fn binary_laws_and_frobenius() {
    laws::<Gf128>();
    laws::<Gf256>();
    let mut r = Rng(9);
    for _ in 0..50 {
        let x = Gf128::sample(&mut r);
        assert_eq!((0..128).fold(x, |a, _| a.square()), x);
        let y = Gf256::sample(&mut r);
        assert_eq!((0..256).fold(y, |a, _| a.square()), y);
    }
    // x^127 * x = x^128 = x^7 + x^2 + x + 1; x^255 * x = x^10 + x^5 + x^2 + 1.
    assert_eq!(Gf128(1 << 127).mul(Gf128(2)), Gf128(0x87));
    assert_eq!(Gf256([0, 1 << 127]).mul(Gf256([2, 0])), Gf256([0x425, 0]));
    assert_eq!(Gf256([0, 1 << 127]).mul(Gf256([0, 1 << 127])).0, {
        // x^510 = x^254 * x^256 = x^254 (x^10 + x^5 + x^2 + 1), reduced by hand below.
        let x254 = Gf256([0, 1 << 126]);
        let t = Gf256([0x425, 0]);
        x254.mul(t).0
    });
}

#[test]
fn prime_reduction_edges() {
    let p1271 = (1u128 << 127) - 1;
    let canon1271 = |v: u128| Fp1271(v).to_canonical_bytes();
    let small = |v: u128| {
        let mut b = [0u8; 32];
        b[..16].copy_from_slice(&v.to_le_bytes());
        b
    };
    assert_eq!(canon1271(p1271), small(0));
    assert_eq!(canon1271(p1271 + 1), small(1));
    assert_eq!(canon1271(2 * p1271), small(0));
    assert_eq!(canon1271(u128::MAX), small(1)); // 2^128 - 1 = 2p + 1
    assert_eq!(Fp1271(u128::MAX).square().to_canonical_bytes(), small(1));
    assert_eq!(Fp1271(p1271 - 1).square().to_canonical_bytes(), small(1)); // (-1)^2

    // 2^130 - 5 in limbs, and values in [p, 2^131).
    let p = Fp1305([u64::MAX - 4, u64::MAX, 3]);
    assert_eq!(p.to_canonical_bytes(), small(0));
    assert_eq!(
        Fp1305([u64::MAX - 3, u64::MAX, 3]).to_canonical_bytes(),
        small(1)
    );
    assert_eq!(
        Fp1305([u64::MAX, u64::MAX, 3]).to_canonical_bytes(),
        small(4)
    ); // 2^130 - 1
    assert_eq!(Fp1305([0, 0, 4]).to_canonical_bytes(), small(5)); // 2^130
    assert_eq!(
        Fp1305([u64::MAX, u64::MAX, 7]).to_canonical_bytes(),
        small(9)
    ); // 2^131 - 1
    assert_eq!(
        Fp1305([u64::MAX, u64::MAX, 7])
            .square()
            .to_canonical_bytes(),
        small(81)
    );
    let minus_one = Fp1305([u64::MAX - 5, u64::MAX, 3]);
    assert_eq!(minus_one.square().to_canonical_bytes(), small(1));
    // p - 1 + 1 wraps to 0 through add's fold.
    assert_eq!(
        minus_one.add(Fp1305([1, 0, 0])).to_canonical_bytes(),
        small(0)
    );
    // The digest is the canonical value truncated to 128 bits: p - 1 has bits above 2^128.
    assert_eq!(minus_one.to_digest(), u128::MAX - 5);
}

/// Poly1305's clamped product equals the general one for values up to the bound it accepts
/// (top limb 7), with the largest clamped key and random ones, and chains stay in bounds.
#[test]
fn clamped_product_matches_general() {
    const CLAMP: u128 = 0x0ffffffc_0ffffffc_0ffffffc_0fffffff;
    let mut rng = Rng(0x1305);
    let mut keys = vec![CLAMP, 0];
    keys.extend((0..50).map(|_| rng.u128() & CLAMP));
    for r in keys {
        let c = fp1305::Clamped::new(r).expect("clamped");
        let x = Fp1305([r as u64, (r >> 64) as u64, 0]);
        let mut values = vec![
            Fp1305([u64::MAX, u64::MAX, 7]),
            Fp1305([0, 0, 0]),
            Fp1305([u64::MAX, u64::MAX, 3]),
        ];
        values.extend((0..50).map(|_| Fp1305::sample(&mut rng)));
        for h in values {
            let got = h.mul_clamped(&c);
            assert_eq!(got.to_canonical_bytes(), h.mul(x).to_canonical_bytes());
            assert!(got.0[2] <= 4, "top limb {}", got.0[2]);
        }
    }
    assert!(
        fp1305::Clamped::new(1 << 64 | 1).is_none(),
        "4 must divide the high word"
    );
    assert!(fp1305::Clamped::new(1 << 124).is_none());
}

/// The word reads of `le_u128` / `le_u256` against a zero-padded buffer, at every length
/// and with every byte nonzero (an overlap or a shift off by one byte shows).
#[test]
fn little_endian_reads_of_partial_blocks() {
    let mut rng = Rng(7);
    for _ in 0..20 {
        let bytes: Vec<u8> = (0..32).map(|_| rng.next() as u8 | 1).collect();
        for n in 0..=32 {
            let mut buf = [0u8; 32];
            buf[..n].copy_from_slice(&bytes[..n]);
            let want = [
                u128::from_le_bytes(buf[..16].try_into().unwrap()),
                u128::from_le_bytes(buf[16..].try_into().unwrap()),
            ];
            assert_eq!(le_u256(&bytes[..n]), want, "{n} bytes");
            if n <= 16 {
                assert_eq!(le_u128(&bytes[..n]), want[0], "{n} bytes");
            }
        }
    }
}
