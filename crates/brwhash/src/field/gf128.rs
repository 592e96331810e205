//! GF(2^128) = GF(2)\[x\]/(x^128 + x^7 + x^2 + x + 1), plain little-endian convention
//! (bit i of the integer is the coefficient of x^i; no bit reflection, no Montgomery factor).

use super::clmul::clmul128;
use super::{BinaryField, Field};

/// An element of GF(2^128).
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Gf128(pub(crate) u128);

impl zeroize::Zeroize for Gf128 {
    #[inline]
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

/// `v * (x^7 + x^2 + x + 1)` as (low 128 bits, the bits above).
#[inline(always)]
fn times_tail(v: u128) -> (u128, u128) {
    (v ^ v << 1 ^ v << 2 ^ v << 7, v >> 127 ^ v >> 126 ^ v >> 121)
}

impl Field for Gf128 {
    /// (low, high) halves of a 256-bit polynomial.
    type Wide = (u128, u128);
    const ZERO: Self = Gf128(0);

    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        Gf128(self.0 ^ rhs.0)
    }

    #[inline(always)]
    fn mul_wide(self, rhs: Self) -> (u128, u128) {
        clmul128(self.0, rhs.0)
    }

    #[inline(always)]
    fn wide_add(a: (u128, u128), b: (u128, u128)) -> (u128, u128) {
        (a.0 ^ b.0, a.1 ^ b.1)
    }

    #[inline(always)]
    fn widen(self) -> (u128, u128) {
        (self.0, 0)
    }

    #[inline(always)]
    fn reduce(w: (u128, u128)) -> Self {
        // hi * x^128 = hi * (x^7 + x^2 + x + 1); its overflow (< 2^7) folds once more.
        let (t, over) = times_tail(w.1);
        let (u, _) = times_tail(over);
        Gf128(w.0 ^ t ^ u)
    }
}

impl BinaryField for Gf128 {
    const BYTES: usize = 16;

    fn from_bytes(bytes: &[u8]) -> Self {
        Gf128(super::le_u128(bytes))
    }

    fn write_bytes(self, out: &mut [u8]) {
        out[..16].copy_from_slice(&self.0.to_le_bytes());
    }

    fn top_byte(v: u8) -> Self {
        Gf128((v as u128) << 120)
    }
}

impl super::Canonical for Gf128 {
    fn to_canonical_bytes(self) -> [u8; 32] {
        let mut out = [0u8; 32];
        self.write_bytes(&mut out);
        out
    }
}
