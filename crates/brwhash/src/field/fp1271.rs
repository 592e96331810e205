//! GF(2^127 - 1) on a `u128` (two 64-bit limbs).
//!
//! Working representation: any `u128` (value below 2^128, partially reduced). Reduction uses
//! 2^127 = 1 (mod p): fold the bits above 2^127 back onto the low ones.

use super::{Cols, Field, PrimeField};

const M127: u128 = (1 << 127) - 1;

/// An element of GF(2^127 - 1): any value below 2^128 as an operand of a product; every
/// value the operations here return is below 2^127 + 2^67.
#[derive(Clone, Copy, Default, Debug)]
pub struct Fp1271(pub(crate) u128);

impl zeroize::Zeroize for Fp1271 {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

#[inline(always)]
fn limbs(v: u128) -> [u64; 2] {
    [v as u64, (v >> 64) as u64]
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
    type Wide = Cols<4>;
    const ZERO: Self = Fp1271(0);

    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        let (s, c) = self.0.overflowing_add(rhs.0);
        // s + 2^128 c = (s mod 2^127) + (s >> 127) + 2c < 2^127 + 3.
        Fp1271((s & M127) + (s >> 127) + 2 * c as u128)
    }

    #[inline(always)]
    fn add_block(self, m: Self) -> Self {
        // Every value here is below 2^127 + 2^67 (the bound `reduce` and `add` give) and a
        // padded block below 2^121, so the plain sum stays below 2^128.
        Fp1271(self.0 + m.0)
    }

    #[inline(always)]
    fn mul_wide(self, rhs: Self) -> Cols<4> {
        Cols::mul2x2(limbs(self.0), limbs(rhs.0))
    }

    #[inline(always)]
    fn wide_add(a: Cols<4>, b: Cols<4>) -> Cols<4> {
        a.add(b)
    }

    #[inline(always)]
    fn widen(self) -> Cols<4> {
        Cols::from_u128(self.0)
    }

    #[inline(always)]
    fn reduce(w: Cols<4>) -> Self {
        // Straight from the columns: 2^128 = 2 and 2^192 = 2^65 (mod p), so
        // V = A + 2^64 B with A = c0 + 2 c2 and B = c1 + 2 c3 (each below 2^128: the columns
        // of fewer than 2^60 products), and 2^64 B = 2^64 (B mod 2^64) + 2 (B >> 64).
        let [c0, c1, c2, c3] = w.0;
        let (a, b) = (c0 + 2 * c2, c1 + 2 * c3);
        let (s, carry) = a.overflowing_add((b as u64 as u128) << 64);
        // s + 2^128 carry = s + 2 carry; then fold bit 127: below 2^127 + 2^66.
        Fp1271((s & M127) + (s >> 127) + 2 * (b >> 64) + 2 * carry as u128)
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
