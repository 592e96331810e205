//! GF(2^127 - 1) on a `u128` (two 64-bit limbs).
//!
//! Working representation: any `u128` (value below 2^128, partially reduced). Reduction uses
//! 2^127 = 1 (mod p): fold the bits above 2^127 back onto the low ones.

use super::{mul128, ExactWide, Field, PrimeField};

const M127: u128 = (1 << 127) - 1;

/// An element of GF(2^127 - 1): any value below 2^128 as an operand of a product; every
/// value the operations here return is below 2^127 + 2^67.
#[derive(Clone, Copy, Default, Debug)]
pub struct Fp1271(pub(crate) u128);

impl zeroize::Zeroize for Fp1271 {
    #[inline]
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

impl Fp1271 {
    /// The value modulo p in [0, p).
    fn canonical(self) -> u128 {
        // v <= 2^127 after one fold; v + 1 reaches 2^127 exactly when v >= p, and then
        // (v + 1) mod 2^127 = v - p.
        let v = (self.0 & M127) + (self.0 >> 127);
        (v + ((v + 1) >> 127)) & M127
    }
}

impl Field for Fp1271 {
    /// A sum of n products has `top` < n; a product is [`mul128`], and the reduction folds
    /// `2^128 = 2 (mod p)` once.
    type Wide = ExactWide;
    const ZERO: Self = Fp1271(0);

    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        let (s, c) = self.0.overflowing_add(rhs.0);
        // s + 2^128 c = (s mod 2^127) + (s >> 127) + 2c < 2^127 + 3 (the small terms summed
        // in one word first: one 128-bit addition, not three).
        Fp1271((s & M127) + ((s >> 127) as u64 + 2 * c as u64) as u128)
    }

    #[inline(always)]
    fn add_block(self, m: Self) -> Self {
        // Every value here is below 2^127 + 2^67 (the bound `reduce` and `add` give) and a
        // padded block below 2^121, so the plain sum stays below 2^128.
        Fp1271(self.0 + m.0)
    }

    #[inline(always)]
    fn mul_wide(self, rhs: Self) -> ExactWide {
        let (lo, hi) = mul128(self.0, rhs.0);
        ExactWide { lo, hi, top: 0 }
    }

    #[inline(always)]
    fn wide_add(a: ExactWide, b: ExactWide) -> ExactWide {
        a.add(b)
    }

    #[inline(always)]
    fn widen(self) -> ExactWide {
        ExactWide {
            lo: self.0,
            hi: 0,
            top: 0,
        }
    }

    #[inline(always)]
    fn reduce(w: ExactWide) -> Self {
        // 2^128 = 2 and 2^256 = 4 (mod p): V = lo + 2 hi + 4 top, with
        // lo = (lo mod 2^127) + (lo >> 127) and 2 hi = (hi << 1 mod 2^128) + 2 (hi >> 127).
        // The small terms in one word (top < 2^60: a sum of fewer than 2^60 products), added
        // to the 128-bit part once.
        debug_assert!(w.top < 1 << 60);
        let small = (w.lo >> 127) as u64 + 2 * (w.hi >> 127) as u64 + 4 * w.top;
        let (s, c) = (w.lo & M127).overflowing_add(w.hi << 1);
        // s + 2^128 c = s + 2c; then fold bit 127: below 2^127 + 2^63.
        Fp1271((s & M127) + ((s >> 127) as u64 + 2 * c as u64 + small) as u128)
    }
}

impl PrimeField for Fp1271 {
    const BLOCK: usize = 15;
    const MU: u32 = 126;

    fn from_block(bytes: &[u8], marker: bool) -> Self {
        debug_assert!(bytes.len() <= 15);
        Fp1271(super::le_u128(bytes) | (marker as u128) << (8 * bytes.len()))
    }

    #[inline(always)]
    fn load(bytes: &[u8], marker: bool) -> Self {
        // Bytes 0..8 and 7..15 (two overlapping word loads): bits 0..64 and 56..120.
        let lo = u64::from_le_bytes(bytes[..8].try_into().unwrap());
        let hi = u64::from_le_bytes(bytes[7..15].try_into().unwrap()) >> 8;
        Fp1271(lo as u128 | ((hi | (marker as u64) << 56) as u128) << 64)
    }

    fn from_u64(v: u64) -> Self {
        Fp1271(v as u128)
    }

    fn from_key(key: &[u8; 16]) -> Self {
        Fp1271(u128::from_le_bytes(*key) & ((1 << 126) - 1))
    }

    #[inline]
    fn to_digest(self) -> u128 {
        self.canonical() & ((1 << 126) - 1)
    }

    fn to_u192(self) -> [u64; 3] {
        [self.0 as u64, (self.0 >> 64) as u64, 0]
    }

    fn from_u192(v: [u64; 3]) -> Self {
        // Fold the bits above 2^127 (2^127 = 1 mod p): for v < 2^190 the sum is below 2^128.
        let lo = v[0] as u128 | ((v[1] as u128) << 64) & M127;
        let hi = (v[1] >> 63) as u128 | (v[2] as u128) << 1;
        Fp1271(lo + hi)
    }
}

impl super::Canonical for Fp1271 {
    fn to_canonical_bytes(self) -> [u8; 32] {
        let mut out = [0u8; 32];
        out[..16].copy_from_slice(&self.canonical().to_le_bytes());
        out
    }
}
