//! Four elements of GF(2^256) in two zmm registers (low 128-bit halves in one, high halves in
//! the other, element j in 128-bit lane j), for VPCLMULQDQ: `gf256c`'s arithmetic lane-wise.
//! Hash2L256 runs four consecutive super-blocks side by side.
//!
//! See the module documentation of `backend::x86` for why the `unsafe` blocks are sound
//! (VPCLMULQDQ, AVX-512F and AVX-512BW).

use core::arch::x86_64::*;

use super::ops::clmul512::{clmul, four_lanes, load_lanes, load_lanes2, shl64, shr64, xor, ZV};

use super::gf256c::{Gf256c, Wide256c};
use crate::construct::BinLanes;
use crate::field::Field;

/// Four elements of GF(2^256): (low halves, high halves).
#[derive(Clone, Copy)]
pub(crate) struct Gf256x4([__m512i; 2]);

/// Unreduced products: the three Karatsuba products, each (lo, kmid, hi) (`mul128`), per
/// lane.
#[derive(Clone, Copy)]
pub(crate) struct Wide256x4([[__m512i; 3]; 3]);

#[inline(always)]
fn xor3(a: [__m512i; 3], b: [__m512i; 3]) -> [__m512i; 3] {
    [xor(a[0], b[0]), xor(a[1], b[1]), xor(a[2], b[2])]
}
/// A 128-bit product per lane by Karatsuba: (lo, kmid, hi), the middle term kmid + lo + hi
/// (a linear correction, made once in `combine`).
#[inline(always)]
fn mul128(a: __m512i, b: __m512i) -> [__m512i; 3] {
    [
        clmul::<0x00>(a, b),
        clmul::<0x00>(fold(a), fold(b)),
        clmul::<0x11>(a, b),
    ]
}
/// a_lo + a_hi in the low 64 bits of each lane.
#[inline(always)]
fn fold(a: __m512i) -> __m512i {
    // SAFETY: see the module documentation of `backend::x86`.
    xor(a, unsafe { _mm512_shuffle_epi32::<0x4e>(a) })
}
#[inline(always)]
fn combine(p: [__m512i; 3]) -> [__m512i; 2] {
    let mid = xor(p[1], xor(p[0], p[2]));
    [xor(p[0], shl64(mid)), xor(p[2], shr64(mid))]
}
#[inline(always)]
fn times_q(v: __m512i, q: __m512i) -> (__m512i, __m512i) {
    let t0 = clmul::<0x00>(v, q);
    let t1 = clmul::<0x01>(v, q);
    (xor(t0, shl64(t1)), shr64(t1))
}

impl Default for Gf256x4 {
    fn default() -> Self {
        Gf256x4([ZV; 2])
    }
}

impl Default for Wide256x4 {
    fn default() -> Self {
        Wide256x4([[ZV; 3]; 3])
    }
}

impl zeroize::Zeroize for Wide256x4 {
    #[inline(always)]
    fn zeroize(&mut self) {
        // SAFETY: `self` is a valid, aligned, exclusive reference.
        unsafe { core::ptr::write_volatile(self, Wide256x4([[ZV; 3]; 3])) }
    }
}

impl zeroize::Zeroize for Gf256x4 {
    #[inline(always)]
    fn zeroize(&mut self) {
        // SAFETY: `self` is a valid, aligned, exclusive reference.
        unsafe { core::ptr::write_volatile(self, Gf256x4([ZV; 2])) }
    }
}

impl Field for Gf256x4 {
    type Wide = Wide256x4;
    const ZERO: Self = Gf256x4([ZV; 2]);
    const WIDE_SUM_LIMIT: usize = usize::MAX;

    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        Gf256x4([xor(self.0[0], rhs.0[0]), xor(self.0[1], rhs.0[1])])
    }

    #[inline(always)]
    fn mul_wide(self, rhs: Self) -> Wide256x4 {
        let ([a0, a1], [b0, b1]) = (self.0, rhs.0);
        Wide256x4([
            mul128(a0, b0),
            mul128(xor(a0, a1), xor(b0, b1)),
            mul128(a1, b1),
        ])
    }

    #[inline(always)]
    fn wide_add(a: Wide256x4, b: Wide256x4) -> Wide256x4 {
        let (a, b) = (a.0, b.0);
        Wide256x4([xor3(a[0], b[0]), xor3(a[1], b[1]), xor3(a[2], b[2])])
    }

    #[inline(always)]
    fn widen(self) -> Wide256x4 {
        // As in `gf256c`: the low Karatsuba product and again the middle one; a0 + a1 X^128
        // as a 128-bit product (lo a0, middle term 0, hi a1) has kmid = a0 + a1.
        let l = [self.0[0], xor(self.0[0], self.0[1]), self.0[1]];
        Wide256x4([l, l, [ZV; 3]])
    }

    #[inline(always)]
    fn reduce(w: Wide256x4) -> Self {
        let [lo, mid, hi] = w.0;
        let (lo, hi) = (combine(lo), combine(hi));
        let m = combine(mid);
        let m = [xor(xor(m[0], lo[0]), hi[0]), xor(xor(m[1], lo[1]), hi[1])];
        let (c0, mut c1, mut c2, c3) = (lo[0], xor(lo[1], m[0]), xor(hi[0], m[1]), hi[1]);
        // SAFETY: see the module documentation of `backend::x86`.
        let q = unsafe { _mm512_set1_epi64(0x425) };
        let (r, spill) = times_q(c3, q);
        c1 = xor(c1, r);
        c2 = xor(c2, spill);
        let (r, spill) = times_q(c2, q);
        Gf256x4([xor(c0, r), xor(c1, spill)])
    }
}

impl BinLanes<Gf256c> for Gf256x4 {
    const W: usize = 4;

    #[inline(always)]
    fn splat(x: Gf256c) -> Self {
        let [lo, hi] = x.halves();
        // SAFETY: see the module documentation of `backend::x86`.
        unsafe { Gf256x4([_mm512_broadcast_i32x4(lo), _mm512_broadcast_i32x4(hi)]) }
    }

    #[inline(always)]
    fn load_block(sbs: &[&[u8]], i: usize) -> Self {
        Gf256x4([load_lanes(sbs, 32 * i), load_lanes(sbs, 32 * i + 16)])
    }

    /// Blocks i..i+3 of the four super-blocks: per block, its halves of two super-blocks by
    /// a 256-bit load and insert each, then one lane shuffle per half (8 shuffles, where two
    /// 4x4 transposes of 64-byte rows take 16).
    #[inline(always)]
    fn load_blocks4(sbs: &[&[u8]], i: usize) -> [Self; 4] {
        [
            Gf256x4(load_lanes2(sbs, 32 * i)),
            Gf256x4(load_lanes2(sbs, 32 * i + 32)),
            Gf256x4(load_lanes2(sbs, 32 * i + 64)),
            Gf256x4(load_lanes2(sbs, 32 * i + 96)),
        ]
    }

    #[inline(always)]
    fn from_lanes(lanes: &[Gf256c]) -> Self {
        let h = [
            lanes[0].halves(),
            lanes[1].halves(),
            lanes[2].halves(),
            lanes[3].halves(),
        ];
        Gf256x4([
            four_lanes([h[0][0], h[1][0], h[2][0], h[3][0]]),
            four_lanes([h[0][1], h[1][1], h[2][1], h[3][1]]),
        ])
    }

    #[inline(always)]
    fn put_lane(self, j: usize, x: Gf256c) -> Self {
        let [lo, hi] = x.halves();
        let m = 0xf << (4 * j);
        // SAFETY: see the module documentation of `backend::x86`.
        unsafe {
            Gf256x4([
                _mm512_mask_broadcast_i32x4(self.0[0], m, lo),
                _mm512_mask_broadcast_i32x4(self.0[1], m, hi),
            ])
        }
    }

    #[inline(always)]
    fn join_wide(_: Wide256x4, _: Wide256c) -> Option<Wide256x4> {
        // Nine XORs into the lanes' sum before their reduction cost more than the xmm
        // reduction beside them: Hash2L256 with a key, TSC cycles per message, 8 KiB
        // 633 -> 669 (1 KiB 162 -> 165).
        None
    }

    #[inline(always)]
    fn store(self, out: &mut [Gf256c]) {
        let [lo, hi] = self.0;
        // SAFETY: see the module documentation of `backend::x86`.
        unsafe {
            out[0] = Gf256c::from_halves([
                _mm512_extracti32x4_epi32::<0>(lo),
                _mm512_extracti32x4_epi32::<0>(hi),
            ]);
            out[1] = Gf256c::from_halves([
                _mm512_extracti32x4_epi32::<1>(lo),
                _mm512_extracti32x4_epi32::<1>(hi),
            ]);
            out[2] = Gf256c::from_halves([
                _mm512_extracti32x4_epi32::<2>(lo),
                _mm512_extracti32x4_epi32::<2>(hi),
            ]);
            out[3] = Gf256c::from_halves([
                _mm512_extracti32x4_epi32::<3>(lo),
                _mm512_extracti32x4_epi32::<3>(hi),
            ]);
        }
    }
}
