//! GF(2^256) = GF(2)[x]/(x^256 + x^10 + x^5 + x^2 + 1) with PCLMULQDQ: the portable `Gf256`
//! (little-endian, no bit reflection) as two xmm halves.
//!
//! Product: Karatsuba over the 128-bit halves, each 128x128 product the schoolbook one of
//! `gf128c` (12 carry-less 64x64 products), kept unreduced. Reduction by
//! Q = x^10 + x^5 + x^2 + 1 (0x425): the top 128-bit limb c3 (weight x^384 = Q x^128) folds
//! into c1, c2 with two multiplications; then c2 (weight x^256 = Q, its spill included) into
//! c0, c1 with two more (IMPLEMENTATION-NOTES 1.4).
//!
//! See the module documentation of `backend::x86` for why the `unsafe` blocks are sound.

use core::arch::x86_64::*;

use super::gf128c::{clmul, shl64, shr64, xor, ZV};
use crate::field::{BinaryField, Field};

/// An element of GF(2^256): (low, high) 128-bit halves.
#[derive(Clone, Copy)]
pub(crate) struct Gf256c([__m128i; 2]);

/// An unreduced product: the three Karatsuba products (low, middle, high), each as the
/// (lo, mid, hi) parts of a 128x128 carry-less product.
#[derive(Clone, Copy)]
pub(crate) struct Wide256c([[__m128i; 3]; 3]);

/// The 256-bit carry-less product of two 128-bit values, unreduced: (lo, mid, hi).
#[inline(always)]
fn mul128(a: __m128i, b: __m128i) -> [__m128i; 3] {
    [
        clmul::<0x00>(a, b),
        xor(clmul::<0x01>(a, b), clmul::<0x10>(a, b)),
        clmul::<0x11>(a, b),
    ]
}

#[inline(always)]
fn xor3(a: [__m128i; 3], b: [__m128i; 3]) -> [__m128i; 3] {
    [xor(a[0], b[0]), xor(a[1], b[1]), xor(a[2], b[2])]
}

/// (lo, mid, hi) as two 128-bit limbs.
#[inline(always)]
fn combine(p: [__m128i; 3]) -> [__m128i; 2] {
    [xor(p[0], shl64(p[1])), xor(p[2], shr64(p[1]))]
}

/// v * Q for a 128-bit v: (low 128 bits, the bits above: at most 11).
#[inline(always)]
fn times_q(v: __m128i, q: __m128i) -> (__m128i, __m128i) {
    let t0 = clmul::<0x00>(v, q);
    let t1 = clmul::<0x01>(v, q);
    (xor(t0, shl64(t1)), shr64(t1))
}

#[inline(always)]
fn from_u128(v: u128) -> __m128i {
    // SAFETY: see the module documentation of `backend::x86`.
    unsafe { _mm_set_epi64x((v >> 64) as i64, v as i64) }
}

impl Gf256c {
    #[inline(always)]
    pub(crate) fn halves(self) -> [__m128i; 2] {
        self.0
    }

    #[inline(always)]
    pub(crate) fn from_halves(h: [__m128i; 2]) -> Self {
        Gf256c(h)
    }
}

impl Default for Gf256c {
    fn default() -> Self {
        Gf256c([ZV; 2])
    }
}

impl Default for Wide256c {
    fn default() -> Self {
        Wide256c([[ZV; 3]; 3])
    }
}

impl zeroize::Zeroize for Wide256c {
    #[inline(always)]
    fn zeroize(&mut self) {
        // SAFETY: `self` is a valid, aligned, exclusive reference.
        unsafe { core::ptr::write_volatile(self, Wide256c([[ZV; 3]; 3])) }
    }
}

impl zeroize::Zeroize for Gf256c {
    #[inline(always)]
    fn zeroize(&mut self) {
        // SAFETY: `self` is a valid, aligned, exclusive reference.
        unsafe { core::ptr::write_volatile(self, Gf256c([ZV; 2])) }
    }
}

impl Field for Gf256c {
    type Wide = Wide256c;
    const ZERO: Self = Gf256c([ZV; 2]);
    const WIDE_SUM_LIMIT: usize = usize::MAX;

    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        Gf256c([xor(self.0[0], rhs.0[0]), xor(self.0[1], rhs.0[1])])
    }

    #[inline(always)]
    fn mul_wide(self, rhs: Self) -> Wide256c {
        let ([a0, a1], [b0, b1]) = (self.0, rhs.0);
        let lo = mul128(a0, b0);
        let hi = mul128(a1, b1);
        let mid = mul128(xor(a0, a1), xor(b0, b1));
        Wide256c([lo, mid, hi])
    }

    #[inline(always)]
    fn wide_add(a: Wide256c, b: Wide256c) -> Wide256c {
        // Written out: iterator loops here measured 1.6x slower (0.64 vs 0.40 c/B).
        let (a, b) = (a.0, b.0);
        Wide256c([xor3(a[0], b[0]), xor3(a[1], b[1]), xor3(a[2], b[2])])
    }

    #[inline(always)]
    fn widen(self) -> Wide256c {
        // The element as the low Karatsuba product (its limbs as lo and hi of a 256-bit
        // value), and again as the middle one, which `reduce` adds the low product to.
        let l = [self.0[0], ZV, self.0[1]];
        Wide256c([l, l, [ZV; 3]])
    }

    #[inline(always)]
    fn reduce(w: Wide256c) -> Self {
        let [lo, mid, hi] = w.0;
        let (lo, hi) = (combine(lo), combine(hi));
        // Karatsuba middle: mid - lo - hi, at weight x^128.
        let m = combine(mid);
        let m = [xor(xor(m[0], lo[0]), hi[0]), xor(xor(m[1], lo[1]), hi[1])];
        let (c0, mut c1, mut c2, c3) = (lo[0], xor(lo[1], m[0]), xor(hi[0], m[1]), hi[1]);
        let q = from_u128(0x425);
        // c3 x^384 = c3 Q x^128.
        let (r, spill) = times_q(c3, q);
        c1 = xor(c1, r);
        c2 = xor(c2, spill);
        // c2 x^256 = c2 Q.
        let (r, spill) = times_q(c2, q);
        Gf256c([xor(c0, r), xor(c1, spill)])
    }
}

impl BinaryField for Gf256c {
    const BYTES: usize = 32;

    #[inline(always)]
    fn from_bytes(bytes: &[u8]) -> Self {
        if bytes.len() == 32 {
            // SAFETY: the slice holds the 32 bytes the loads read.
            unsafe {
                Gf256c([
                    _mm_loadu_si128(bytes.as_ptr() as *const __m128i),
                    _mm_loadu_si128(bytes.as_ptr().add(16) as *const __m128i),
                ])
            }
        } else {
            // A partial block: word reads, not a copy into a buffer (a `memcpy` call).
            let [lo, hi] = crate::field::le_u256(bytes);
            Gf256c([from_u128(lo), from_u128(hi)])
        }
    }

    #[inline(always)]
    fn write_bytes(self, out: &mut [u8]) {
        let out = &mut out[..32];
        // SAFETY: the slice holds the 32 bytes the stores write.
        unsafe {
            _mm_storeu_si128(out.as_mut_ptr() as *mut __m128i, self.0[0]);
            _mm_storeu_si128(out.as_mut_ptr().add(16) as *mut __m128i, self.0[1]);
        }
    }

    #[inline(always)]
    fn top_byte(v: u8) -> Self {
        Gf256c([ZV, from_u128((v as u128) << 120)])
    }

    #[inline(always)]
    fn mul_wide_u64(self, v: u64) -> Wide256c {
        // Karatsuba with b = (v, 0), v one qword: lo = a_0 v and mid = (a_0 + a_1) v, two
        // products each, and no high product (4 carry-less products, not 12).
        let [a0, a1] = self.0;
        let v = from_u128(v as u128);
        let m = xor(a0, a1);
        Wide256c([
            [clmul::<0x00>(a0, v), clmul::<0x01>(a0, v), ZV],
            [clmul::<0x00>(m, v), clmul::<0x01>(m, v), ZV],
            [ZV; 3],
        ])
    }
}
