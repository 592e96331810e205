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
    clmul, four_lanes, load_lanes, load_lanes2, load_pairs, shl64, unpack_hi, unpack_lo, xor, xor3,
    ZV,
};

use super::gf128c::{Gf128c, Wide128c};
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
        let (lo, x, s) = reduce_parts(w);
        Gf128x4(xor3(lo, s, shl64(x)))
    }
}

/// reduce(w) + m, m joining w's low part in the last XOR (off the chain: w's low product is
/// ready long before the reduction's products).
#[inline(always)]
fn reduce_add(w: Wide128x4, m: Gf128x4) -> Gf128x4 {
    let (lo, x, s) = reduce_parts(w);
    Gf128x4(xor3(xor(lo, m.0), s, shl64(x)))
}

/// The reduction of w = (lo, kmid, hi) but its last XOR: (lo, x, s) with reduce(w) =
/// lo + s + (x << 64).
#[inline(always)]
fn reduce_parts(w: Wide128x4) -> (__m512i, __m512i, __m512i) {
    // lo + mid x^64 + hi x^128 with mid = m1 x^64 + m0: m0 x^64 joins lo, m1 joins hi's
    // low half h0. The first product takes h1 alone (mid does not touch it), so it need
    // not wait for mid; m1 joins h0 in the second's operand t = h0 + m1 + (r >> 64), and
    // m0 x^64 the result with r << 64. (By shifts, hi (x^7 + x^2 + x + 1) in 14 shifts
    // and XORs, was slower: Hash2L128 with a key, TSC cycles/byte, 1 KiB 0.176 -> 0.199,
    // 64 KiB 0.051 -> 0.061; on Zen 5 too, by 22 shifts, shuffles and XORs with the middle
    // term folded in, TSC cycles per message: 1 KiB 84 -> 90, 8 KiB 386 -> 464.)
    let [lo, kmid, hi] = w.0;
    let mid = xor3(kmid, lo, hi);
    // SAFETY: see the module documentation of `backend::x86`.
    let poly = unsafe { _mm512_set1_epi64(0x87) };
    let r = clmul::<0x01>(hi, poly);
    let x = xor(mid, r);
    let t = xor(hi, unpack_hi(x, x));
    (lo, x, clmul::<0x00>(t, poly))
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

    /// Blocks i..i+3 of the four super-blocks: pairs of blocks of two super-blocks by
    /// 256-bit loads and inserts, then one lane shuffle per block (4 shuffles, where a 4x4
    /// transpose of 64-byte rows takes 8).
    #[inline(always)]
    fn load_blocks4(sbs: &[&[u8]], i: usize) -> [Self; 4] {
        let [b0, b1] = load_lanes2(sbs, 16 * i);
        let [b2, b3] = load_lanes2(sbs, 16 * i + 32);
        [Gf128x4(b0), Gf128x4(b1), Gf128x4(b2), Gf128x4(b3)]
    }

    /// The leaves (x + m_0)(x^2 + m_1) + m_2 take their Karatsuba operands straight from the
    /// loads: pairs of blocks of two super-blocks per register ([`load_pairs`]) and two
    /// two-source qword permutes put per lane [m_0.lo, m_1.lo] and [m_0.hi, m_1.hi] in place
    /// of m_0 and m_1, so a leaf needs no unpacks: the key's x and x^2 go in by XOR, the fold
    /// by one ternary XOR (with 4x4 transposes of 64-byte rows, first a permute, the same
    /// operands took 8 shuffles per four blocks, where pairs take 4 and inserts that need
    /// not run on the products' port). Hash2L128 with a key on Zen 4, TSC cycles/byte, six
    /// alternating runs, minimum, separate blocks -> transposes: 4 KiB 0.113 -> 0.111, 8 KiB
    /// 0.098 -> 0.096, 64 KiB 0.091 -> 0.089, 1 MiB 0.091 -> 0.089; transposes -> pairs,
    /// TSC cycles per message, 12 alternating runs: 8 KiB 861 -> 835, 64 KiB 6437 -> 6182.
    #[inline(always)]
    fn ubrw31(sq: &[Self; 5], sbs: &[&[u8]]) -> Wide128x4 {
        let (x, x2) = (sq[0].0, sq[1].0);
        let (klo, khi) = (unpack_lo(x, x2), unpack_hi(x, x2));
        let k = [klo, khi, xor(klo, khi)];
        // A left leaf's third block m_2 joins it in its reduction (reduction is linear), one
        // XOR where the wide value took two; the right leaves' stay wide (kept apart until
        // a reduction higher up, they held registers that the tree spilled for).
        let (l0, m0, s0) = leaf_row(sbs, 0, k);
        let (l1, m1, s1) = leaf_row(sbs, 4, k);
        let (l2, m2, s2) = leaf_row(sbs, 8, k);
        let (l3, m3, s3) = leaf_row(sbs, 12, k);
        let (l4, m4, s4) = leaf_row(sbs, 16, k);
        let (l5, m5, s5) = leaf_row(sbs, 20, k);
        let (l6, m6, s6) = leaf_row(sbs, 24, k);
        let (l7, m7) = leaf_last(sbs, k);
        let n0 = up(reduce_add(l0, m0), sq[2], s0, plus(l1, m1));
        let n1 = up(reduce_add(l2, m2), sq[2], s2, plus(l3, m3));
        let n2 = up(reduce_add(l4, m4), sq[2], s4, plus(l5, m5));
        let n3 = up(reduce_add(l6, m6), sq[2], s6, plus(l7, m7));
        let h0 = up(Self::reduce(n0), sq[3], s1, n1);
        let h1 = up(Self::reduce(n2), sq[3], s5, n3);
        up(Self::reduce(h0), sq[4], s3, h1)
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
    fn join_wide(sum: Wide128x4, w: Wide128c) -> Option<Wide128x4> {
        // Schoolbook (lo, mid, hi) to Karatsuba's (lo, kmid, hi): mid = kmid + lo + hi.
        // Hash2L128 with a key, TSC cycles per message (with x L by two products, not four):
        // 992 B 71 -> 68, 2 KiB 126 -> 123.
        let [lo, mid, hi] = w.parts();
        let kmid = super::gf128c::xor(super::gf128c::xor(mid, lo), hi);
        // SAFETY: see the module documentation of `backend::x86`.
        let lane0 = |v: __m128i| unsafe { _mm512_zextsi128_si512(v) };
        Some(Gf128x4::wide_add(
            sum,
            Wide128x4([lane0(lo), lane0(kmid), lane0(hi)]),
        ))
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

/// The product (x + m_0)(x^2 + m_1) of a leaf of four super-blocks from `u` = per lane
/// [m_0.lo, m_1.lo] and `h` = [m_0.hi, m_1.hi], with `k` = ([x.lo, x^2.lo], [x.hi,
/// x^2.hi], their sum): Karatsuba's three products of the qword pairs (the caller adds m_2).
#[inline(always)]
fn leaf(u: __m512i, h: __m512i, k: [__m512i; 3]) -> Wide128x4 {
    let (a, b, f) = (xor(u, k[0]), xor(h, k[1]), xor3(u, h, k[2]));
    Wide128x4([
        clmul::<0x10>(a, a),
        clmul::<0x10>(f, f),
        clmul::<0x10>(b, b),
    ])
}

/// l + m for a wide l and an element m.
#[inline(always)]
fn plus(l: Wide128x4, m: Gf128x4) -> Wide128x4 {
    Gf128x4::wide_add(l, m.widen())
}

/// r (x^(2^e) + m) + b for a reduced r: a node of the BRW tree above two leaves.
#[inline(always)]
fn up(r: Gf128x4, xe: Gf128x4, m: Gf128x4, b: Wide128x4) -> Wide128x4 {
    Gf128x4::wide_add(r.mul_wide(xe.add(m)), b)
}

/// Qword i of the result is qword `idx[i]` of `a` (0..7) or `idx[i] - 8` of `b` (8..15).
#[inline(always)]
fn permute2(a: __m512i, idx: [i64; 8], b: __m512i) -> __m512i {
    // SAFETY: see the module documentation of `backend::x86`.
    unsafe {
        let i = _mm512_set_epi64(
            idx[7], idx[6], idx[5], idx[4], idx[3], idx[2], idx[1], idx[0],
        );
        _mm512_permutex2var_epi64(a, i, b)
    }
}

/// The leaf of blocks i..i+2 of each super-block and block i + 3 (its separator). Pairs of
/// blocks come by 256-bit loads and inserts, two super-blocks per register: a = [blocks i,
/// i+1 of super-blocks 0 and 1], c the same of 2 and 3; then [U_j] and [H_j] (U_j = [m_0.lo,
/// m_1.lo] of super-block j, H_j = [m_0.hi, m_1.hi]) by one two-source qword permute each,
/// and m_2, m_3 by one lane shuffle each of the next pairs.
#[inline(always)]
fn leaf_row(sbs: &[&[u8]], i: usize, k: [__m512i; 3]) -> (Wide128x4, Gf128x4, Gf128x4) {
    let (u, h) = leaf_operands(sbs, 16 * i);
    let [m2, m3] = load_lanes2(sbs, 16 * (i + 2));
    (leaf(u, h, k), Gf128x4(m2), Gf128x4(m3))
}

/// Per lane j, U_j and H_j of blocks at `off` and `off + 16` of super-block j.
#[inline(always)]
fn leaf_operands(sbs: &[&[u8]], off: usize) -> (__m512i, __m512i) {
    const U: [i64; 8] = [0, 2, 4, 6, 8, 10, 12, 14];
    const H: [i64; 8] = [1, 3, 5, 7, 9, 11, 13, 15];
    let a = load_pairs(sbs[0], sbs[1], off);
    let c = load_pairs(sbs[2], sbs[3], off);
    (permute2(a, U, c), permute2(a, H, c))
}

/// The last leaf, blocks 28..30 (block 30 by 128-bit loads and inserts: the super-block ends
/// there).
#[inline(always)]
fn leaf_last(sbs: &[&[u8]], k: [__m512i; 3]) -> (Wide128x4, Gf128x4) {
    let (u, h) = leaf_operands(sbs, 16 * 28);
    (leaf(u, h, k), Gf128x4(load_lanes(sbs, 16 * 30)))
}
