//! GF(2^256) = GF(2)\[x\]/(x^256 + x^10 + x^5 + x^2 + 1), plain little-endian convention.

use super::clmul::clmul128;
use super::{BinaryField, Field};

/// An element of GF(2^256) as (low, high) 128-bit halves.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Gf256(pub(crate) [u128; 2]);

impl zeroize::Zeroize for Gf256 {
    #[inline]
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

/// Left shift of a 256-bit value by `k` (1..=127) bits: (shifted value, bits shifted out).
#[inline(always)]
fn shl(v: [u128; 2], k: u32) -> ([u128; 2], u128) {
    (
        [v[0] << k, v[1] << k | v[0] >> (128 - k)],
        v[1] >> (128 - k),
    )
}

/// `v * (x^10 + x^5 + x^2 + 1)` as (low 256 bits, the bits above, < 2^10).
#[inline(always)]
fn times_tail(v: [u128; 2]) -> ([u128; 2], u128) {
    let (a, oa) = shl(v, 2);
    let (b, ob) = shl(v, 5);
    let (c, oc) = shl(v, 10);
    (
        [v[0] ^ a[0] ^ b[0] ^ c[0], v[1] ^ a[1] ^ b[1] ^ c[1]],
        oa ^ ob ^ oc,
    )
}

impl Field for Gf256 {
    /// A 512-bit polynomial as four 128-bit limbs, least significant first.
    type Wide = [u128; 4];
    const ZERO: Self = Gf256([0; 2]);

    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        Gf256([self.0[0] ^ rhs.0[0], self.0[1] ^ rhs.0[1]])
    }

    #[inline(always)]
    fn mul_wide(self, rhs: Self) -> [u128; 4] {
        // Karatsuba over 128-bit halves: three 128x128 products (nine 64x64).
        let [a0, a1] = self.0;
        let [b0, b1] = rhs.0;
        let lo = clmul128(a0, b0);
        let hi = clmul128(a1, b1);
        let m = clmul128(a0 ^ a1, b0 ^ b1);
        let mid = (m.0 ^ lo.0 ^ hi.0, m.1 ^ lo.1 ^ hi.1);
        [lo.0, lo.1 ^ mid.0, hi.0 ^ mid.1, hi.1]
    }

    #[inline(always)]
    fn wide_add(a: [u128; 4], b: [u128; 4]) -> [u128; 4] {
        [a[0] ^ b[0], a[1] ^ b[1], a[2] ^ b[2], a[3] ^ b[3]]
    }

    #[inline(always)]
    fn widen(self) -> [u128; 4] {
        [self.0[0], self.0[1], 0, 0]
    }

    #[inline(always)]
    fn reduce(w: [u128; 4]) -> Self {
        // hi * x^256 = hi * (x^10 + x^5 + x^2 + 1); the overflow (< 2^10) folds once more.
        let (t, over) = times_tail([w[2], w[3]]);
        let (u, _) = times_tail([over, 0]);
        Gf256([w[0] ^ t[0] ^ u[0], w[1] ^ t[1] ^ u[1]])
    }
}

impl BinaryField for Gf256 {
    const BYTES: usize = 32;

    fn from_bytes(bytes: &[u8]) -> Self {
        Gf256(super::le_u256(bytes))
    }

    fn write_bytes(self, out: &mut [u8]) {
        out[..16].copy_from_slice(&self.0[0].to_le_bytes());
        out[16..32].copy_from_slice(&self.0[1].to_le_bytes());
    }

    fn top_byte(v: u8) -> Self {
        Gf256([0, (v as u128) << 120])
    }
}

impl super::Canonical for Gf256 {
    fn to_canonical_bytes(self) -> [u8; 32] {
        let mut out = [0u8; 32];
        self.write_bytes(&mut out);
        out
    }
}
