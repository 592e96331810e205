//! Four elements of GF(2^128) in the 128-bit lanes of a zmm register, for VPCLMULQDQ: the
//! arithmetic of `gf128c` lane-wise (vpclmulqdq multiplies within each 128-bit lane, and the
//! byte shifts are per lane too), but with Karatsuba products. Hash2L runs four consecutive
//! super-blocks side by side (IMPLEMENTATION-NOTES 8, option a): lane j holds super-block j,
//! and Horner's rule in x^128 per lane (`construct::hash2l`). The carry-less products' port
//! bounds this code (about one vpclmulqdq per 2 core cycles here, zmm as fast as xmm), so
//! every product saved counts: Karatsuba's 3 instead of 4 gave 15% at 64 KiB.
//!
//! See the module documentation of `backend::x86` for why the `unsafe` blocks are sound
//! (VPCLMULQDQ, AVX-512F and AVX-512BW).

use core::arch::x86_64::*;

use super::ops::clmul512::{
    clmul, four_lanes, load_lanes, load_rows, shl64, transpose4, unpack_hi, unpack_lo, xor, xor3,
    ZV,
};

use super::gf128c::Gf128c;
use crate::construct::BinLanes;
use crate::field::Field;

/// Four elements of GF(2^128), one per 128-bit lane.
#[derive(Clone, Copy)]
pub(crate) struct Gf128x4(__m512i);

/// Unreduced products per lane: (lo, kmid, hi), Karatsuba's middle product before its
/// correction: the middle term is kmid + lo + hi.
#[derive(Clone, Copy)]
pub(crate) struct Wide128x4([__m512i; 3]);

impl Default for Gf128x4 {
    fn default() -> Self {
        Gf128x4(ZV)
    }
}

impl Default for Wide128x4 {
    fn default() -> Self {
        Wide128x4([ZV; 3])
    }
}

impl zeroize::Zeroize for Wide128x4 {
    #[inline(always)]
    fn zeroize(&mut self) {
        // SAFETY: `self` is a valid, aligned, exclusive reference.
        unsafe { core::ptr::write_volatile(self, Wide128x4([ZV; 3])) }
    }
}

impl zeroize::Zeroize for Gf128x4 {
    #[inline(always)]
    fn zeroize(&mut self) {
        // SAFETY: `self` is a valid, aligned, exclusive reference.
        unsafe { core::ptr::write_volatile(self, Gf128x4(ZV)) }
    }
}

impl Field for Gf128x4 {
    type Wide = Wide128x4;
    const ZERO: Self = Gf128x4(ZV);
    const WIDE_SUM_LIMIT: usize = usize::MAX;

    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        Gf128x4(xor(self.0, rhs.0))
    }

    #[inline(always)]
    fn mul_wide(self, rhs: Self) -> Wide128x4 {
        // Karatsuba: (a_lo + a_hi)(b_lo + b_hi) in place of the two cross products; the
        // middle term's correction (+ lo + hi) is linear, so it waits for `reduce`.
        // Both operands' folds in one register, [a_lo + a_hi, b_lo + b_hi], by two unpacks
        // and one XOR (two pshufd and two XORs apart). On Zen 4 every zmm instruction
        // besides the carry-less products adds about 0.45 core cycles to a loop that is
        // bound by issue, not latency: with one instruction less in `reduce` too, Hash2L128
        // with a key, TSC cycles per message, 8 KiB 825 -> 790, 64 KiB 6054 -> 5911.
        let (a, b) = (self.0, rhs.0);
        let f = xor(unpack_lo(a, b), unpack_hi(a, b));
        Wide128x4([
            clmul::<0x00>(a, b),
            clmul::<0x10>(f, f),
            clmul::<0x11>(a, b),
        ])
    }

    #[inline(always)]
    fn wide_add(a: Wide128x4, b: Wide128x4) -> Wide128x4 {
        Wide128x4([
            xor(a.0[0], b.0[0]),
            xor(a.0[1], b.0[1]),
            xor(a.0[2], b.0[2]),
        ])
    }

    #[inline(always)]
    fn widen(self) -> Wide128x4 {
        // lo = self, a zero middle term: kmid = lo.
        Wide128x4([self.0, self.0, ZV])
    }

    #[inline(always)]
    fn reduce(w: Wide128x4) -> Self {
        // lo + mid x^64 + hi x^128 with mid = m1 x^64 + m0: m0 x^64 joins lo, m1 joins hi's
        // low half h0. The first product takes h1 alone (mid does not touch it), so it need
        // not wait for mid; m1 joins h0 in the second's operand t = h0 + m1 + (r >> 64), and
        // m0 x^64 the result with r << 64. (By shifts, hi (x^7 + x^2 + x + 1) in 14 shifts
        // and XORs, was slower: Hash2L128 with a key, TSC cycles/byte, 1 KiB 0.176 -> 0.199,
        // 64 KiB 0.051 -> 0.061.)
        let [lo, kmid, hi] = w.0;
        let mid = xor3(kmid, lo, hi);
        // SAFETY: see the module documentation of `backend::x86`.
        let poly = unsafe { _mm512_set1_epi64(0x87) };
        let r = clmul::<0x01>(hi, poly);
        let x = xor(mid, r);
        let t = xor(hi, unpack_hi(x, x));
        let s = clmul::<0x00>(t, poly);
        Gf128x4(xor3(lo, s, shl64(x)))
    }
}

impl BinLanes<Gf128c> for Gf128x4 {
    const W: usize = 4;

    #[inline(always)]
    fn splat(x: Gf128c) -> Self {
        // SAFETY: see the module documentation of `backend::x86`.
        Gf128x4(unsafe { _mm512_broadcast_i32x4(x.xmm()) })
    }

    #[inline(always)]
    fn load_block(sbs: &[&[u8]], i: usize) -> Self {
        Gf128x4(load_lanes(sbs, 16 * i))
    }

    /// Blocks i..i+3 of the four super-blocks: one 64-byte load per super-block, then a 4x4
    /// transpose of 128-bit lanes (8 shuffles) instead of 16 loads and 12 inserts.
    #[inline(always)]
    fn load_blocks4(sbs: &[&[u8]], i: usize) -> [Self; 4] {
        let c = transpose4(load_rows(sbs, 16 * i));
        [Gf128x4(c[0]), Gf128x4(c[1]), Gf128x4(c[2]), Gf128x4(c[3])]
    }

    #[inline(always)]
    fn from_lanes(lanes: &[Gf128c]) -> Self {
        Gf128x4(four_lanes([
            lanes[0].xmm(),
            lanes[1].xmm(),
            lanes[2].xmm(),
            lanes[3].xmm(),
        ]))
    }

    #[inline(always)]
    fn put_lane(self, j: usize, x: Gf128c) -> Self {
        // SAFETY: see the module documentation of `backend::x86`.
        Gf128x4(unsafe { _mm512_mask_broadcast_i32x4(self.0, 0xf << (4 * j), x.xmm()) })
    }

    #[inline(always)]
    fn store(self, out: &mut [Gf128c]) {
        // SAFETY: see the module documentation of `backend::x86`.
        unsafe {
            out[0] = Gf128c::from_xmm(_mm512_extracti32x4_epi32::<0>(self.0));
            out[1] = Gf128c::from_xmm(_mm512_extracti32x4_epi32::<1>(self.0));
            out[2] = Gf128c::from_xmm(_mm512_extracti32x4_epi32::<2>(self.0));
            out[3] = Gf128c::from_xmm(_mm512_extracti32x4_epi32::<3>(self.0));
        }
    }
}
