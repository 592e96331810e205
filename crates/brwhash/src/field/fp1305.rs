//! GF(2^130 - 5) on three 64-bit limbs.
//!
//! Working representation: any value below 2^131 (partially reduced). Reduction uses
//! 2^130 = 5 (mod p) twice, without multiplication by a variable (\[P1\], IMPLEMENTATION-NOTES 1.1).

use super::{adc, mask128, mul128, ExactWide, Field, PrimeField};

/// An element of GF(2^130 - 5), value below 2^131.
#[derive(Clone, Copy, Default, Debug)]
pub struct Fp1305(pub(crate) [u64; 3]);

impl zeroize::Zeroize for Fp1305 {
    #[inline]
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

impl Fp1305 {
    /// `lo + 5 * hi` where `lo` < 2^130 is limbs (l0, l1, l2 & 3) and `hi` is small enough
    /// that the result fits in three limbs plus a 64-bit fourth.
    #[inline(always)]
    fn fold(l0: u64, l1: u64, l2: u64, h: [u64; 3]) -> [u64; 4] {
        let t = l0 as u128 + 5 * h[0] as u128;
        let s0 = t as u64;
        let t = l1 as u128 + 5 * h[1] as u128 + (t >> 64);
        let s1 = t as u64;
        let t = (l2 & 3) as u128 + 5 * h[2] as u128 + (t >> 64);
        [s0, s1, t as u64, (t >> 64) as u64]
    }
}

/// A Poly1305 key r (RFC 8439's clamp: r < 2^124, and 4 divides the high word), ready for
/// [`Fp1305::mul_clamped`]: the clamp lets the product fold 2^130 = 5 into its columns.
#[derive(Clone, Copy)]
pub(crate) struct Clamped {
    r0: u64,
    r1: u64,
    /// 5 * r1 / 4: 2^128 r1 = 2^130 (r1 / 4) = 5 (r1 / 4) mod p.
    s1: u64,
}

impl Clamped {
    /// `r` must be clamped (`None` otherwise). Callers clamp r first, so the test is true
    /// for every key; it is written without short-circuits all the same (r is secret).
    pub(crate) fn new(r: u128) -> Option<Clamped> {
        let (r0, r1) = (r as u64, (r >> 64) as u64);
        ((r0 >> 60) | (r1 >> 60) | (r1 & 3) == 0).then_some(Clamped {
            r0,
            r1,
            s1: r1 + (r1 >> 2),
        })
    }
}

impl zeroize::Zeroize for Clamped {
    #[inline]
    fn zeroize(&mut self) {
        self.r0.zeroize();
        self.r1.zeroize();
        self.s1.zeroize();
    }
}

impl Fp1305 {
    /// `self * r` for a clamped r and `self` below 2^131 (a value of this function plus a
    /// block; the top limb below 8, so that it times s1 fits a word):
    /// three columns and a carry, as poly1305-donna-64 (\[P1\]'s reduction with the clamp's
    /// help). The result is below 2^130 + 2^66.
    #[inline(always)]
    pub(crate) fn mul_clamped(self, r: &Clamped) -> Fp1305 {
        let [h0, h1, h2] = self.0;
        debug_assert!(h2 < 8);
        let m = |a: u64, b: u64| a as u128 * b as u128;
        // h r = h0 r0 + 2^64 (h0 r1 + h1 r0) + 2^128 (h1 r1 + h2 r0) + 2^192 h2 r1, and
        // 2^128 r1 = s1, 2^192 r1 = 2^64 s1 (mod p).
        let d0 = m(h0, r.r0) + m(h1, r.s1);
        let d1 = m(h0, r.r1) + m(h1, r.r0) + (h2 * r.s1) as u128 + (d0 >> 64);
        let d2 = h2 * r.r0 + (d1 >> 64) as u64;
        // Bits from 2^130 up wrap times 5.
        let c = (d2 >> 2) * 5;
        let t = (d0 as u64) as u128 + c as u128;
        let t1 = (d1 as u64) as u128 + (t >> 64);
        Fp1305([t as u64, t1 as u64, (d2 & 3) + (t1 >> 64) as u64])
    }

    /// The value modulo p in [0, p), as (bits 0..128, bits 128..130).
    fn canonical(self) -> (u128, u64) {
        // One fold gives v < 2^130 + 5; then subtract p exactly when v + 5 reaches 2^130.
        let s = Self::fold(self.0[0], self.0[1], self.0[2], [self.0[2] >> 2, 0, 0]);
        let v = s[0] as u128 | (s[1] as u128) << 64;
        let v_hi = s[2] as u128; // bits 128.. (at most 3 bits)
        let (t, carry) = v.overflowing_add(5);
        let t_hi = v_hi + carry as u128;
        let ge_p = mask128((t_hi >> 2) & 1);
        // When v >= p, v - p = t - 2^130: t's low 128 bits and t_hi without bit 2.
        (
            (t & ge_p) | (v & !ge_p),
            (((t_hi & 3) & ge_p) | (v_hi & !ge_p)) as u64,
        )
    }
}

/// `(lo, hi) + 2^128 (c0 + 2^64 c1)` plus `2^256 top`: the middle terms of a product
/// (c0, c1 below 2^127) added in one carry chain.
#[inline(always)]
fn add_middle(lo: u128, hi: u128, c0: u128, c1: u128, top: u64) -> ExactWide {
    let (x1, k) = adc((c0 >> 64) as u64, c1 as u64, false);
    let x2 = (c1 >> 64) as u64 + k as u64;
    let (h0, k) = adc(hi as u64, c0 as u64, false);
    let (h1, k) = adc((hi >> 64) as u64, x1, k);
    ExactWide {
        lo,
        hi: h0 as u128 | (h1 as u128) << 64,
        top: top + x2 + k as u64,
    }
}

impl Fp1305 {
    /// The 128-bit low part of the value.
    #[inline(always)]
    fn low(self) -> u128 {
        self.0[0] as u128 | (self.0[1] as u128) << 64
    }
}

impl Field for Fp1305 {
    /// A product of values below 2^132 has `top` below 2^8. (Five 128-bit columns of 64-bit
    /// halves were slower both ways on Zen 4, TSC cycles: a chain of squarings 23.2 per
    /// squaring, now 18.3; scalar polyHash1305 with a key at 5000 B 4358, now 3118;
    /// BRWHash1305 3421, now 2661.)
    type Wide = ExactWide;
    const ZERO: Self = Fp1305([0; 3]);

    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        // Sum < 2^132; fold the bits above 2^130 back once: result < 2^130 + 20.
        let t = self.0[0] as u128 + rhs.0[0] as u128;
        let s0 = t as u64;
        let t = self.0[1] as u128 + rhs.0[1] as u128 + (t >> 64);
        let s1 = t as u64;
        let s2 = self.0[2] + rhs.0[2] + (t >> 64) as u64;
        let r = Self::fold(s0, s1, s2, [s2 >> 2, 0, 0]);
        Fp1305([r[0], r[1], r[2]])
    }

    #[inline(always)]
    fn add_block(self, m: Self) -> Self {
        // Below 2^131 + 2^129 < 2^132: three limbs hold it, and a product of two values
        // below 2^132 fits five limbs.
        let t = self.0[0] as u128 + m.0[0] as u128;
        let t1 = self.0[1] as u128 + m.0[1] as u128 + (t >> 64);
        Fp1305([t as u64, t1 as u64, self.0[2] + m.0[2] + (t1 >> 64) as u64])
    }

    #[inline(always)]
    fn mul_wide(self, rhs: Self) -> ExactWide {
        // (A + 2^128 a2)(B + 2^128 b2) = A B + 2^128 (a2 B + b2 A) + 2^256 a2 b2.
        let (a2, b2) = (self.0[2], rhs.0[2]);
        debug_assert!(a2 >> 32 == 0 && b2 >> 32 == 0);
        let (lo, hi) = mul128(self.low(), rhs.low());
        let m = |x: u64, y: u64| x as u128 * y as u128;
        let c0 = m(a2, rhs.0[0]) + m(b2, self.0[0]);
        let c1 = m(a2, rhs.0[1]) + m(b2, self.0[1]);
        add_middle(lo, hi, c0, c1, a2 * b2)
    }

    #[inline(always)]
    fn mul_block_wide(self, m: Self) -> ExactWide {
        // As `mul_wide` for a block, whose top limb (the marker) is 0 or 1: that limb's
        // terms are masked additions, not products.
        let (a2, marker) = (self.0[2], m.0[2]);
        debug_assert!(a2 >> 32 == 0 && marker <= 1);
        let mask = 0u64.wrapping_sub(marker);
        let (lo, hi) = mul128(self.low(), m.low());
        let c0 = a2 as u128 * m.0[0] as u128 + (self.0[0] & mask) as u128;
        let c1 = a2 as u128 * m.0[1] as u128 + (self.0[1] & mask) as u128;
        add_middle(lo, hi, c0, c1, a2 & mask)
    }

    #[inline(always)]
    fn square(self) -> Self {
        // A^2 + 2^129 a2 A + 2^256 a2^2, A^2 from three products.
        let [a0, a1, a2] = self.0;
        debug_assert!(a2 >> 32 == 0);
        let m = |x: u64, y: u64| x as u128 * y as u128;
        let (p00, p01, p11) = (m(a0, a0), m(a0, a1), m(a1, a1));
        // A^2 = p00 + 2^65 p01 + 2^128 p11.
        let (lo, k) = p00.overflowing_add(p01 << 65);
        let hi = p11 + (p01 >> 63) + k as u128;
        let c0 = 2 * m(a2, a0);
        let c1 = 2 * m(a2, a1);
        Self::reduce(add_middle(lo, hi, c0, c1, a2 * a2))
    }

    #[inline(always)]
    fn wide_add(a: ExactWide, b: ExactWide) -> ExactWide {
        a.add(b)
    }

    #[inline(always)]
    fn widen(self) -> ExactWide {
        ExactWide {
            lo: self.low(),
            hi: self.0[2] as u128,
            top: 0,
        }
    }

    #[inline(always)]
    fn reduce(w: ExactWide) -> Self {
        // V = L + 2^130 H with L = lo + 2^128 (hi mod 4), H = (hi >> 2) + 2^126 top, and
        // 2^130 = 5: V = L + 4H + H. The terms at 2^128 and up, t = (hi mod 4) + top +
        // (top >> 2), are folded again at once (2^128 t = 2^128 (t mod 4) + 5 (t >> 2)),
        // before the carries of the low additions join them: the carries add at most 3 to
        // a top limb of at most 3, so the result is below 2^131 after one pass.
        debug_assert!(w.top < 1 << 60);
        let (lo, hi, top) = (w.lo, w.hi, w.top);
        let h4 = hi & !3;
        let h1 = (hi >> 2) | (top as u128) << 126;
        let t = (hi as u64 & 3) + top + (top >> 2);
        // t < 2^61: 5 (t >> 2) is a word (an lea, not a 128-bit product).
        let c5 = 5 * (t >> 2);
        // (lo + h4) + (h1 + c5), two carry chains, then one.
        let (s0, k) = adc(lo as u64, h4 as u64, false);
        let (s1, k) = adc((lo >> 64) as u64, (h4 >> 64) as u64, k);
        let s2 = (t & 3) + k as u64;
        let (u0, k) = adc(h1 as u64, c5, false);
        let (u1, k) = adc((h1 >> 64) as u64, 0, k);
        let (r0, k2) = adc(s0, u0, false);
        let (r1, k2) = adc(s1, u1, k2);
        Fp1305([r0, r1, s2 + k as u64 + k2 as u64])
    }
}

impl PrimeField for Fp1305 {
    const BLOCK: usize = 16;
    const MU: u32 = 128;

    fn from_block(bytes: &[u8], marker: bool) -> Self {
        debug_assert!(bytes.len() <= 16);
        let v = super::le_u128(bytes);
        // The marker byte follows the block: in the top limb for a full one.
        let (v, top) = match bytes.len() {
            16 => (v, marker as u64),
            n => (v | (marker as u128) << (8 * n), 0),
        };
        Fp1305([v as u64, (v >> 64) as u64, top])
    }

    #[inline(always)]
    fn load(bytes: &[u8], marker: bool) -> Self {
        let (lo, hi) = bytes[..16].split_at(8);
        Fp1305([
            u64::from_le_bytes(lo.try_into().unwrap()),
            u64::from_le_bytes(hi.try_into().unwrap()),
            marker as u64,
        ])
    }

    fn from_u64(v: u64) -> Self {
        Fp1305([v, 0, 0])
    }

    fn from_key(key: &[u8; 16]) -> Self {
        Self::from_block(key, false)
    }

    #[inline]
    fn to_digest(self) -> u128 {
        self.canonical().0
    }

    fn to_u192(self) -> [u64; 3] {
        self.0
    }

    fn from_u192(v: [u64; 3]) -> Self {
        // Fold the bits above 2^130 once: lo + 5 * (v >> 130) < 2^130 + 2^65.
        let r = Self::fold(v[0], v[1], v[2], [v[2] >> 2, 0, 0]);
        Fp1305([r[0], r[1], r[2]])
    }
}

impl super::Canonical for Fp1305 {
    fn to_canonical_bytes(self) -> [u8; 32] {
        let (lo, hi) = self.canonical();
        let mut out = [0u8; 32];
        out[..16].copy_from_slice(&lo.to_le_bytes());
        out[16..24].copy_from_slice(&hi.to_le_bytes());
        out
    }
}
