//! GF(2^128) with PCLMULQDQ: the portable `Gf128` (bit i of the little-endian value is the
//! coefficient of x^i; no bit reflection, no Montgomery factor) in an xmm register.
//!
//! Product: schoolbook, four carry-less 64x64 products, kept unreduced as (lo, mid, hi) with
//! the middle term not yet folded (sums of products are XORs: no headroom limit).
//! Reduction modulo x^128 + x^7 + x^2 + x + 1 by two multiplications with 0x87
//! (IMPLEMENTATION-NOTES 1.4): for hi = h1 x^64 + h0, r = h1 * 0x87, t = h0 + (r >> 64),
//! result = lo + (r << 64) + t * 0x87.
//!
//! See the module documentation of `backend::x86` for why the `unsafe` blocks are sound.

use core::arch::x86_64::*;

use crate::field::{BinaryField, Field};

/// An element of GF(2^128) in an xmm register.
#[derive(Clone, Copy)]
pub(crate) struct Gf128c(__m128i);

/// An unreduced product: low, middle (weight x^64) and high (weight x^128) 128-bit parts.
#[derive(Clone, Copy)]
pub(crate) struct Wide128c([__m128i; 3]);

// SAFETY (every helper below): see the module documentation of `backend::x86`; these run
// inside entry points compiled with PCLMULQDQ, or after the key's backend was checked.
#[inline(always)]
pub(super) fn xor(a: __m128i, b: __m128i) -> __m128i {
    unsafe { _mm_xor_si128(a, b) }
}
#[inline(always)]
pub(super) fn clmul<const IMM: i32>(a: __m128i, b: __m128i) -> __m128i {
    unsafe { _mm_clmulepi64_si128::<IMM>(a, b) }
}
#[inline(always)]
pub(super) fn shl64(a: __m128i) -> __m128i {
    unsafe { _mm_slli_si128::<8>(a) }
}
#[inline(always)]
pub(super) fn shr64(a: __m128i) -> __m128i {
    unsafe { _mm_srli_si128::<8>(a) }
}
#[inline(always)]
fn from_u128(v: u128) -> __m128i {
    unsafe { _mm_set_epi64x((v >> 64) as i64, v as i64) }
}
#[inline(always)]
fn to_u128(v: __m128i) -> u128 {
    let mut out = [0u8; 16];
    // SAFETY: writes exactly the 16 bytes.
    unsafe { _mm_storeu_si128(out.as_mut_ptr() as *mut __m128i, v) };
    u128::from_le_bytes(out)
}

/// All-zero bits are a valid vector.
// SAFETY: plain data of the same size.
pub(super) const ZV: __m128i = unsafe { core::mem::transmute::<u128, __m128i>(0) };

impl Gf128c {
    #[inline(always)]
    pub(crate) fn xmm(self) -> __m128i {
        self.0
    }

    #[inline(always)]
    pub(crate) fn from_xmm(v: __m128i) -> Self {
        Gf128c(v)
    }
}

impl Wide128c {
    /// (lo, mid, hi): the low, middle (weight x^64) and high products.
    #[inline(always)]
    pub(crate) fn parts(self) -> [__m128i; 3] {
        self.0
    }
}

impl Default for Gf128c {
    fn default() -> Self {
        Gf128c(ZV)
    }
}

impl Default for Wide128c {
    fn default() -> Self {
        Wide128c([ZV; 3])
    }
}

impl zeroize::Zeroize for Wide128c {
    #[inline(always)]
    fn zeroize(&mut self) {
        // SAFETY: `self` is a valid, aligned, exclusive reference.
        unsafe { core::ptr::write_volatile(self, Wide128c([ZV; 3])) }
    }
}

impl zeroize::Zeroize for Gf128c {
    #[inline(always)]
    fn zeroize(&mut self) {
        // SAFETY: `self` is a valid, aligned, exclusive reference.
        unsafe { core::ptr::write_volatile(self, Gf128c(ZV)) }
    }
}

impl Field for Gf128c {
    type Wide = Wide128c;
    const ZERO: Self = Gf128c(ZV);
    const WIDE_SUM_LIMIT: usize = usize::MAX;

    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        Gf128c(xor(self.0, rhs.0))
    }

    #[inline(always)]
    fn mul_wide(self, rhs: Self) -> Wide128c {
        // Schoolbook: Karatsuba (as in `gf128x4`) puts a shuffle and an XOR on the dependency
        // chain, and the xmm code runs short, latency-bound messages: Hash2L128 with a key,
        // TSC cycles/byte, 256 B 0.45 -> 0.53, 64 B 0.79 -> 0.88 (1 KiB 0.264 -> 0.247).
        let (a, b) = (self.0, rhs.0);
        Wide128c([
            clmul::<0x00>(a, b),
            xor(clmul::<0x01>(a, b), clmul::<0x10>(a, b)),
            clmul::<0x11>(a, b),
        ])
    }

    #[inline(always)]
    fn wide_add(a: Wide128c, b: Wide128c) -> Wide128c {
        Wide128c([
            xor(a.0[0], b.0[0]),
            xor(a.0[1], b.0[1]),
            xor(a.0[2], b.0[2]),
        ])
    }

    #[inline(always)]
    fn widen(self) -> Wide128c {
        Wide128c([self.0, ZV, ZV])
    }

    #[inline(always)]
    fn reduce(w: Wide128c) -> Self {
        // lo + mid x^64 + hi x^128 with mid = m1 x^64 + m0 and hi = h1 x^64 + h0:
        // r = h1 * 0x87 (at most 71 bits; mid does not touch h1, so r need not wait for it);
        // t = h0 + m1 + (r >> 64); s = t * 0x87; the value lo + s + (m0 + r) x^64.
        let [lo, mid, hi] = w.0;
        let poly = from_u128(0x87);
        let r = clmul::<0x01>(hi, poly);
        let t = xor(xor(hi, shr64(mid)), shr64(r));
        let s = clmul::<0x00>(t, poly);
        Gf128c(xor(xor(lo, s), shl64(xor(mid, r))))
    }
}

impl BinaryField for Gf128c {
    const BYTES: usize = 16;

    #[inline(always)]
    fn from_bytes(bytes: &[u8]) -> Self {
        if bytes.len() == 16 {
            // SAFETY: the slice holds the 16 bytes the load reads.
            Gf128c(unsafe { _mm_loadu_si128(bytes.as_ptr() as *const __m128i) })
        } else {
            Gf128c(from_u128(crate::field::le_u128(bytes)))
        }
    }

    #[inline(always)]
    fn write_bytes(self, out: &mut [u8]) {
        out[..16].copy_from_slice(&to_u128(self.0).to_le_bytes());
    }

    #[inline(always)]
    fn top_byte(v: u8) -> Self {
        Gf128c(from_u128((v as u128) << 120))
    }

    #[inline(always)]
    fn mul_wide_u64(self, v: u64) -> Wide128c {
        // v has no high qword: two of the four products (Hash2L's x L on every message).
        let v = from_u128(v as u128);
        Wide128c([clmul::<0x00>(self.0, v), clmul::<0x01>(self.0, v), ZV])
    }
}
