//! GF(2^130 - 5) and GF(2^127 - 1) in radix 2^44 for AVX-512 IFMA (vpmadd52luq/huq), one
//! element per 64-bit lane: 4 lanes (ymm, AVX-512VL) or 8 lanes (zmm). The layout of
//! OpenSSL's IFMA Poly1305 (IMPLEMENTATION-NOTES 1.3), extended to 2^127 - 1.
//!
//! Limbs of 44 bits leave 8 bits below IFMA's 52-bit operand width, so `add` needs no carry.
//! 2^132 = K (mod p), K = 20 for 2^130 - 5 and K = 32 for 2^127 - 1: the product multiplies
//! by K*b_1 and K*b_2, so the 3x3 limb products land in three columns directly. Low halves
//! (madd52lo) stay at their column; a high half (madd52hi) is worth 2^52 = 2^44 * 2^8 there,
//! so it joins the next column shifted by 8 (the top one wraps with K * 2^8) at reduction.
//!
//! Bounds per lane: elements have limbs below 2^44 + 2^20 after a reduction (one parallel
//! round of carries) and below 2^44 when loaded; the constructions add at most two before
//! multiplying (limbs < 2^45.1, and K * limb < 2^50.1 < 2^52 as IFMA needs). One product adds
//! below 3 * 2^52 to a low column and below 3 * 2^43.2 to a high one; with the K * 2^8 wrap,
//! up to 32 products can be summed in 64 bits: `WIDE_SUM_LIMIT` = 24. Then the columns are
//! below 2^63, their carries below 2^19, and the top one wrapped below 2^20.
//!
//! See the module documentation of `backend::x86` for why the `unsafe` blocks are sound.

use crate::construct::Lanes;
use crate::field::{Field, Fp1271, Fp1305, PrimeField};

const MASK44: u64 = (1 << 44) - 1;

/// The three radix-2^44 limbs of a value below 2^131.
#[inline(always)]
fn limbs44(v: [u64; 3]) -> [u64; 3] {
    [
        v[0] & MASK44,
        ((v[0] >> 44) | (v[1] << 20)) & MASK44,
        (v[1] >> 24) | (v[2] << 40),
    ]
}

/// The value of three limbs below 2^60 (reduced limbs, or sums of a few lanes of them), as a
/// 192-bit integer.
#[inline(always)]
fn from_limbs44(l: [u64; 3]) -> [u64; 3] {
    let mut lo = 0u128;
    let mut top = l[2] >> 40;
    for part in [
        l[0] as u128,
        (l[1] as u128) << 44,
        ((l[2] & ((1 << 40) - 1)) as u128) << 88,
    ] {
        let (s, carry) = lo.overflowing_add(part);
        lo = s;
        top += carry as u64;
    }
    [lo as u64, (lo >> 64) as u64, top]
}

/// Byte indices that gather 15-byte blocks into 64-bit lanes: block j's bytes 0..7 (`high`
/// false) or 8..14 (`high` true) into lane j, where blocks 0..half come from the first source
/// and the rest from the second (`permutex2var_epi8` indices: +64 / +32 select it).
const fn gather_index<const N: usize>(high: bool, half: usize, second: usize) -> [u8; N] {
    let mut idx = [0u8; N];
    let mut i = 0;
    while i < N {
        let (lane, t) = (i / 8, i % 8);
        let (src, block) = if lane < half {
            (0, lane)
        } else {
            (second, lane - half)
        };
        let byte = 15 * block + if high { 8 } else { 0 } + t;
        // Byte 7 of a high word is masked to zero; any in-range index will do.
        idx[i] = (src + if high && t == 7 { 0 } else { byte }) as u8;
        i += 1;
    }
    idx
}

/// 4 blocks of 15 bytes at `a` (60 bytes, read with masked loads: nothing beyond) as low and
/// high 64-bit words (the high word has 7 bytes). AVX-512VL/BW/VBMI.
#[inline(always)]
unsafe fn load1271_x4(
    a: *const u8,
    _: *const u8,
) -> (core::arch::x86_64::__m256i, core::arch::x86_64::__m256i) {
    use core::arch::x86_64::*;
    const LO: [u8; 32] = gather_index::<32>(false, 2, 32);
    const HI: [u8; 32] = gather_index::<32>(true, 2, 32);
    let x = _mm256_maskz_loadu_epi8(u32::MAX, a as *const i8);
    let y = _mm256_maskz_loadu_epi8((1 << 30) - 1, a.add(30) as *const i8);
    let lo_idx = _mm256_loadu_si256(LO.as_ptr() as *const __m256i);
    let hi_idx = _mm256_loadu_si256(HI.as_ptr() as *const __m256i);
    // Blocks 2 and 3 start at bytes 30 and 45 = 0 and 15 of `y`.
    let lo = _mm256_permutex2var_epi8(x, lo_idx, y);
    let hi = _mm256_maskz_permutex2var_epi8(0x7f7f_7f7f, x, hi_idx, y);
    (lo, hi)
}

/// 4 blocks of 15 bytes at `a` and 4 at `b` (60 bytes each, masked loads: nothing beyond) as
/// low and high 64-bit words, lanes 0-3 from `a`.
#[inline(always)]
pub(crate) unsafe fn load1271_x8(
    a: *const u8,
    b: *const u8,
) -> (core::arch::x86_64::__m512i, core::arch::x86_64::__m512i) {
    load1271_x8_masked(a, (1 << 60) - 1, b, (1 << 60) - 1)
}

/// [`load1271_x8`] reading the bytes of `a` and `b` that the masks select (zero elsewhere).
#[inline(always)]
pub(crate) unsafe fn load1271_x8_masked(
    a: *const u8,
    mask_a: u64,
    b: *const u8,
    mask_b: u64,
) -> (core::arch::x86_64::__m512i, core::arch::x86_64::__m512i) {
    use core::arch::x86_64::*;
    const LO: [u8; 64] = gather_index::<64>(false, 4, 64);
    const HI: [u8; 64] = gather_index::<64>(true, 4, 64);
    let x = _mm512_maskz_loadu_epi8(mask_a, a as *const i8);
    let y = _mm512_maskz_loadu_epi8(mask_b, b as *const i8);
    let lo_idx = _mm512_loadu_si512(LO.as_ptr() as *const __m512i);
    let hi_idx = _mm512_loadu_si512(HI.as_ptr() as *const __m512i);
    let lo = _mm512_permutex2var_epi8(x, lo_idx, y);
    let hi = _mm512_maskz_permutex2var_epi8(0x7f7f_7f7f_7f7f_7f7f, x, hi_idx, y);
    (lo, hi)
}

/// A block of `n <= block` bytes at `pos` of `bytes` (`pos + n <= bytes.len()`): the 16
/// bytes from `pos` by a plain load where the block is whole and they lie in `bytes` (for
/// 15-byte blocks the 16th is the next block's, for the caller to mask), else through a zeroed
/// copy (at the end of a message); zero for n = 0, with no load. (Masked loads measured
/// slower here: a group of 4-Hash1271 with two lanes masked took twice the time of a whole
/// one, and AMD CPUs take an assist of thousands of cycles when a masked-out byte lies on an
/// unmapped page. The branches are on the public length.)
#[inline(always)]
unsafe fn masked_block(
    bytes: &[u8],
    pos: usize,
    n: usize,
    block: usize,
) -> core::arch::x86_64::__m128i {
    use core::arch::x86_64::*;
    if n == 0 {
        return _mm_setzero_si128();
    }
    if n == block && pos + 16 <= bytes.len() {
        _mm_loadu_si128(bytes[pos..pos + 16].as_ptr() as *const __m128i)
    } else if n == 15 && block == 15 && pos >= 1 {
        // A whole 15-byte block that ends `bytes`: the 16 bytes that end with it, shifted
        // down a byte. (The zeroed copy's two stores and 16-byte load cannot forward: in a
        // stream of 4-Hash1271 in updates of whole groups, the hottest instruction.)
        let v = _mm_loadu_si128(bytes[pos - 1..pos + 15].as_ptr() as *const __m128i);
        _mm_srli_si128::<1>(v)
    } else {
        let mut copy = [0u8; 16];
        copy[..n].copy_from_slice(&bytes[pos..pos + n]);
        _mm_loadu_si128(copy.as_ptr() as *const __m128i)
    }
}

/// Lane j's block for [`strided_x4`] / [`strided_x8`]: `block` bytes at `at + j * stride`,
/// fewer where `bytes` ends.
#[inline(always)]
unsafe fn strided_block(
    bytes: &[u8],
    at: usize,
    stride: usize,
    block: usize,
    j: usize,
) -> core::arch::x86_64::__m128i {
    let pos = (at + j * stride).min(bytes.len());
    masked_block(bytes, pos, (bytes.len() - pos).min(block), block)
}

/// Low and high 64-bit words of 4 blocks of `block` <= 16 bytes at `at + j * stride` of
/// `bytes` (lane j), zero-padded where `bytes` ends: 4 16-byte loads, two inserts and
/// two unpacks (lanes 0, 2 | 1, 3 in the inserts put the unpacks' lanes in order 0, 1, 2, 3).
#[inline(always)]
unsafe fn strided_x4(
    bytes: &[u8],
    at: usize,
    stride: usize,
    block: usize,
) -> (core::arch::x86_64::__m256i, core::arch::x86_64::__m256i) {
    use core::arch::x86_64::*;
    let b0 = strided_block(bytes, at, stride, block, 0);
    let b1 = strided_block(bytes, at, stride, block, 1);
    let b2 = strided_block(bytes, at, stride, block, 2);
    let b3 = strided_block(bytes, at, stride, block, 3);
    let a = _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(b0), b2);
    let c = _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(b1), b3);
    (_mm256_unpacklo_epi64(a, c), _mm256_unpackhi_epi64(a, c))
}

/// Lane j's block for [`strided_lanes_x4`] / [`strided_lanes_x8`]: `block` bytes at
/// `at + j * stride` for j < `lanes` (checked to lie in `bytes`), nothing (zero) above.
#[inline(always)]
unsafe fn lane_block(
    bytes: &[u8],
    at: usize,
    stride: usize,
    block: usize,
    lanes: usize,
    j: usize,
) -> core::arch::x86_64::__m128i {
    let pos = at + j * stride;
    masked_block(bytes, pos, if j < lanes { block } else { 0 }, block)
}

/// [`strided_x4`] where lanes `0..lanes` hold whole blocks and the others zeros.
#[inline(always)]
unsafe fn strided_lanes_x4(
    bytes: &[u8],
    at: usize,
    stride: usize,
    block: usize,
    lanes: usize,
) -> (core::arch::x86_64::__m256i, core::arch::x86_64::__m256i) {
    use core::arch::x86_64::*;
    assert!(lanes >= 1 && at + (lanes - 1) * stride + block <= bytes.len());
    let b0 = lane_block(bytes, at, stride, block, lanes, 0);
    let b1 = lane_block(bytes, at, stride, block, lanes, 1);
    let b2 = lane_block(bytes, at, stride, block, lanes, 2);
    let b3 = lane_block(bytes, at, stride, block, lanes, 3);
    let a = _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(b0), b2);
    let c = _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(b1), b3);
    (_mm256_unpacklo_epi64(a, c), _mm256_unpackhi_epi64(a, c))
}

/// [`strided_lanes_x4`] for 8 lanes.
#[inline(always)]
unsafe fn strided_lanes_x8(
    bytes: &[u8],
    at: usize,
    stride: usize,
    block: usize,
    lanes: usize,
) -> (core::arch::x86_64::__m512i, core::arch::x86_64::__m512i) {
    use core::arch::x86_64::*;
    assert!(lanes >= 1 && at + (lanes - 1) * stride + block <= bytes.len());
    let a = quarters(
        lane_block(bytes, at, stride, block, lanes, 0),
        lane_block(bytes, at, stride, block, lanes, 2),
        lane_block(bytes, at, stride, block, lanes, 4),
        lane_block(bytes, at, stride, block, lanes, 6),
    );
    let c = quarters(
        lane_block(bytes, at, stride, block, lanes, 1),
        lane_block(bytes, at, stride, block, lanes, 3),
        lane_block(bytes, at, stride, block, lanes, 5),
        lane_block(bytes, at, stride, block, lanes, 7),
    );
    (_mm512_unpacklo_epi64(a, c), _mm512_unpackhi_epi64(a, c))
}

/// [`strided_x4`] where each lane's 16 bytes lie in `bytes` (checked): plain loads, the last
/// byte of a shorter block left for the caller to mask.
#[inline(always)]
unsafe fn strided_whole_x4(
    bytes: &[u8],
    at: usize,
    stride: usize,
) -> (core::arch::x86_64::__m256i, core::arch::x86_64::__m256i) {
    use core::arch::x86_64::*;
    let bytes = &bytes[at..at + 3 * stride + 16];
    let p = bytes.as_ptr();
    let b0 = _mm_loadu_si128(p as *const __m128i);
    let b1 = _mm_loadu_si128(p.add(stride) as *const __m128i);
    let b2 = _mm_loadu_si128(p.add(2 * stride) as *const __m128i);
    let b3 = _mm_loadu_si128(p.add(3 * stride) as *const __m128i);
    let a = _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(b0), b2);
    let c = _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(b1), b3);
    (_mm256_unpacklo_epi64(a, c), _mm256_unpackhi_epi64(a, c))
}

/// [`strided_whole_x4`] for 8 lanes.
#[inline(always)]
unsafe fn strided_whole_x8(
    bytes: &[u8],
    at: usize,
    stride: usize,
) -> (core::arch::x86_64::__m512i, core::arch::x86_64::__m512i) {
    use core::arch::x86_64::*;
    let bytes = &bytes[at..at + 7 * stride + 16];
    let p = bytes.as_ptr();
    let l = [
        _mm_loadu_si128(p as *const __m128i),
        _mm_loadu_si128(p.add(stride) as *const __m128i),
        _mm_loadu_si128(p.add(2 * stride) as *const __m128i),
        _mm_loadu_si128(p.add(3 * stride) as *const __m128i),
        _mm_loadu_si128(p.add(4 * stride) as *const __m128i),
        _mm_loadu_si128(p.add(5 * stride) as *const __m128i),
        _mm_loadu_si128(p.add(6 * stride) as *const __m128i),
        _mm_loadu_si128(p.add(7 * stride) as *const __m128i),
    ];
    let a = quarters(l[0], l[2], l[4], l[6]);
    let c = quarters(l[1], l[3], l[5], l[7]);
    (_mm512_unpacklo_epi64(a, c), _mm512_unpackhi_epi64(a, c))
}

/// Four 16-byte parts in the four quarters of a zmm.
#[inline(always)]
unsafe fn quarters(
    p: core::arch::x86_64::__m128i,
    q: core::arch::x86_64::__m128i,
    r: core::arch::x86_64::__m128i,
    s: core::arch::x86_64::__m128i,
) -> core::arch::x86_64::__m512i {
    use core::arch::x86_64::*;
    let v = _mm512_castsi128_si512(p);
    let v = _mm512_inserti32x4::<1>(v, q);
    let v = _mm512_inserti32x4::<2>(v, r);
    _mm512_inserti32x4::<3>(v, s)
}

/// [`strided_x4`] for 8 lanes: lanes 0, 2, 4, 6 | 1, 3, 5, 7 in the quarters of two zmm.
#[inline(always)]
unsafe fn strided_x8(
    bytes: &[u8],
    at: usize,
    stride: usize,
    block: usize,
) -> (core::arch::x86_64::__m512i, core::arch::x86_64::__m512i) {
    use core::arch::x86_64::*;
    let a = quarters(
        strided_block(bytes, at, stride, block, 0),
        strided_block(bytes, at, stride, block, 2),
        strided_block(bytes, at, stride, block, 4),
        strided_block(bytes, at, stride, block, 6),
    );
    let c = quarters(
        strided_block(bytes, at, stride, block, 1),
        strided_block(bytes, at, stride, block, 3),
        strided_block(bytes, at, stride, block, 5),
        strided_block(bytes, at, stride, block, 7),
    );
    (_mm512_unpacklo_epi64(a, c), _mm512_unpackhi_epi64(a, c))
}

/// The six columns of `$a * $b` in radix 2^44 (inside an `L44` impl), each a chain of three
/// multiply-adds started from `$c`: zeros for a product, a sum's columns to add it there. A
/// macro, not a function: `mul_wide` as a call of `mul_acc` on zero columns compiled
/// differently, and one-shot 8-decBRWHash1305 measured 20-35% slower with it.
macro_rules! columns44 {
    ($a:expr, $b:expr, [$c0:expr, $c1:expr, $c2:expr, $c3:expr, $c4:expr, $c5:expr]) => {{
        let [a0, a1, a2] = $a.0;
        let [b0, b1, b2] = $b.0;
        // K * limb < 2^50.1: one multiply-add gives it exactly.
        let (s1, s2) = (Self::add_wrap(ZV, b1), Self::add_wrap(ZV, b2));
        Wide([
            madd52lo(madd52lo(madd52lo($c0, a0, b0), a1, s2), a2, s1),
            madd52lo(madd52lo(madd52lo($c1, a0, b1), a1, b0), a2, s2),
            madd52lo(madd52lo(madd52lo($c2, a0, b2), a1, b1), a2, b0),
            madd52hi(madd52hi(madd52hi($c3, a0, b0), a1, s2), a2, s1),
            madd52hi(madd52hi(madd52hi($c4, a0, b1), a1, b0), a2, s2),
            madd52hi(madd52hi(madd52hi($c5, a0, b2), a1, b1), a2, b0),
        ])
    }};
}

macro_rules! radix44_width {
    (
        $module:ident, ops = $ops:ident, lanes = $w:literal,
        load1305 = $load1305:expr, load1271 = $load1271:expr, strided = $strided:expr,
        strided_lanes = $strided_lanes:expr, strided_whole = $strided_whole:expr,
        short1305 = $short1305:literal, short1271 = $short1271:literal
    ) => {
        pub(crate) mod $module {
            use super::*;

            use crate::backend::x86::ops::$ops::*;

            /// The limbs of W blocks given as low and high words, plus `top` in the top limb.
            #[inline(always)]
            pub(crate) fn split(lo: V, hi: V, top: u64) -> [V; 3] {
                let m = splat64(MASK44);
                [
                    and(lo, m),
                    and(or(shr::<44>(lo), shl::<20>(hi)), m),
                    or(shr::<24>(hi), splat64(top)),
                ]
            }

            /// A low-half column of [`Field::mul_chain`]: a chain of two multiply-adds beside
            /// a third product. A function, not a closure: a closure cannot be marked
            /// `inline(always)`, and one left out of line runs its intrinsics as calls
            /// (Poly1305 one-shot at 512 B took 4x the time when a change elsewhere in the
            /// entry point tipped the inliner).
            #[inline(always)]
            fn lo(x: [V; 2], y: [V; 2], z: [V; 2]) -> V {
                add(
                    madd52lo(madd52lo(ZV, x[0], x[1]), y[0], y[1]),
                    madd52lo(ZV, z[0], z[1]),
                )
            }

            /// The high-half column of [`lo`].
            #[inline(always)]
            fn hi(x: [V; 2], y: [V; 2], z: [V; 2]) -> V {
                add(
                    madd52hi(madd52hi(ZV, x[0], x[1]), y[0], y[1]),
                    madd52hi(ZV, z[0], z[1]),
                )
            }

            /// Unreduced products: three low-half columns, then three high-half columns.
            #[derive(Clone, Copy)]
            pub(crate) struct Wide(pub(crate) [V; 6]);

            impl Default for Wide {
                fn default() -> Self {
                    Wide([ZV; 6])
                }
            }

            impl zeroize::Zeroize for Wide {
                #[inline(always)]
                fn zeroize(&mut self) {
                    wipe(&mut self.0)
                }
            }

            /// W elements in radix 2^44; `K` = 20 for 2^130 - 5, 32 for 2^127 - 1.
            #[derive(Clone, Copy)]
            pub(crate) struct L44<const K: u64>(pub(crate) [V; 3]);

            impl<const K: u64> Default for L44<K> {
                fn default() -> Self {
                    L44([ZV; 3])
                }
            }

            impl<const K: u64> zeroize::Zeroize for L44<K> {
                #[inline(always)]
                fn zeroize(&mut self) {
                    wipe(&mut self.0)
                }
            }

            impl<const K: u64> L44<K> {
                /// K * 2^8 * v (2^132 = K mod p) for v < 2^51: the high-half column that wraps
                /// to column 0. The rotation stands for a shift (v's top bits are zero):
                /// LLVM merges two plain shifts and their sum into a multiplication by 5120,
                /// which without AVX-512DQ is five operations, two of them on the multiply
                /// pipes, with a longer latency (a chain of products measured 23.5 TSC
                /// cycles per product with it, 20.5 with the rotation).
                #[inline(always)]
                fn wrap_high(v: V) -> V {
                    if K == 20 {
                        add(rol::<12>(v), shl::<10>(v))
                    } else {
                        shl::<13>(v)
                    }
                }

                /// acc + K * v for v < 2^52 / K, as one multiply-add: IFMA's pipes also run
                /// the shifts, and this takes the place of two shifts and two adds.
                #[inline(always)]
                fn add_wrap(acc: V, v: V) -> V {
                    madd52lo(acc, v, splat64(K))
                }

                /// Lane j = `values[j]` (scalars' working representatives below 2^131).
                #[inline(always)]
                fn from_values<F: PrimeField>(values: &[F]) -> Self {
                    let mut w = [[0u64; $w]; 3];
                    for (j, v) in values.iter().enumerate().take($w) {
                        let l = limbs44(v.to_u192());
                        for (i, limb) in l.iter().enumerate() {
                            w[i][j] = *limb;
                        }
                    }
                    L44([load(&w[0]), load(&w[1]), load(&w[2])])
                }

                #[inline(always)]
                fn splat_value(v: [u64; 3]) -> Self {
                    let l = limbs44(v);
                    L44([splat64(l[0]), splat64(l[1]), splat64(l[2])])
                }

                /// The sum of the lanes as a 192-bit integer.
                #[inline(always)]
                fn limb_sum(self) -> [u64; 3] {
                    from_limbs44([hsum(self.0[0]), hsum(self.0[1]), hsum(self.0[2])])
                }

                #[inline(always)]
                fn lanes(self) -> [[u64; 3]; $w] {
                    // Explicit, not `map`: intrinsics must inline into the caller (see `backend::x86`).
                    let l = [store(self.0[0]), store(self.0[1]), store(self.0[2])];
                    core::array::from_fn(|j| from_limbs44([l[0][j], l[1][j], l[2][j]]))
                }
            }

            impl<const K: u64> L44<K> {
                /// `Lanes::shift_up` in registers.
                #[inline(always)]
                fn shift_up_limbs(self, z: usize) -> Self {
                    L44([
                        shift_up(self.0[0], z),
                        shift_up(self.0[1], z),
                        shift_up(self.0[2], z),
                    ])
                }

                /// `Lanes::lane0_or_one` in registers: 1 is limbs (1, 0, 0).
                #[inline(always)]
                fn lane0_or_one_limbs(self, mask: u8) -> Self {
                    L44([
                        lane0_or(splat64(1), mask, self.0[0]),
                        lane0_or(ZV, mask, self.0[1]),
                        lane0_or(ZV, mask, self.0[2]),
                    ])
                }
            }

            impl<const K: u64> L44<K> {
                /// `Lanes::keep_or_one` in registers: 1 is limbs (1, 0, 0).
                #[inline(always)]
                fn keep_or_one_limbs(self, mask: u8) -> Self {
                    L44([
                        keep_or(splat64(1), mask, self.0[0]),
                        keep_or(ZV, mask, self.0[1]),
                        keep_or(ZV, mask, self.0[2]),
                    ])
                }
            }

            impl<const K: u64> Field for L44<K> {
                type Wide = Wide;
                const ZERO: Self = L44([ZV; 3]);
                const WIDE_SUM_LIMIT: usize = 24;

                #[inline(always)]
                fn add(self, rhs: Self) -> Self {
                    let (a, b) = (self.0, rhs.0);
                    L44([add(a[0], b[0]), add(a[1], b[1]), add(a[2], b[2])])
                }

                #[inline(always)]
                fn mul_wide(self, rhs: Self) -> Wide {
                    let z = ZV;
                    columns44!(self, rhs, [z, z, z, z, z, z])
                }

                /// The columns of `mul_wide` formed on top of `acc`'s: no zeroed registers
                /// and no adds.
                #[inline(always)]
                fn mul_acc(self, rhs: Self, acc: Wide) -> Wide {
                    let [c0, c1, c2, c3, c4, c5] = acc.0;
                    columns44!(self, rhs, [c0, c1, c2, c3, c4, c5])
                }

                #[inline(always)]
                fn wide_add(a: Wide, b: Wide) -> Wide {
                    let (a, b) = (a.0, b.0);
                    Wide([
                        add(a[0], b[0]),
                        add(a[1], b[1]),
                        add(a[2], b[2]),
                        add(a[3], b[3]),
                        add(a[4], b[4]),
                        add(a[5], b[5]),
                    ])
                }

                #[inline(always)]
                fn widen(self) -> Wide {
                    Wide([self.0[0], self.0[1], self.0[2], ZV, ZV, ZV])
                }

                /// Each column as a chain of two multiply-adds beside a third product,
                /// joined by an add, with the wrapped limbs (K a_i) taken from `self` (in a
                /// power ladder the other factor often comes later, from a permute): about
                /// 10 cycles to the columns instead of the chain's 12-16.
                #[inline(always)]
                fn mul_chain(self, rhs: Self) -> Self {
                    let [a0, a1, a2] = self.0;
                    let [b0, b1, b2] = rhs.0;
                    let (s1, s2) = (Self::add_wrap(ZV, a1), Self::add_wrap(ZV, a2));
                    // c0 = a0 b0 + K a1 b2 + K a2 b1, c1 = a0 b1 + a1 b0 + K a2 b2,
                    // c2 = a0 b2 + a1 b1 + a2 b0.
                    let t = [
                        ([a0, b0], [s1, b2], [s2, b1]),
                        ([a0, b1], [a1, b0], [s2, b2]),
                        ([a0, b2], [a1, b1], [a2, b0]),
                    ];
                    Self::reduce(Wide([
                        lo(t[0].0, t[0].1, t[0].2),
                        lo(t[1].0, t[1].1, t[1].2),
                        lo(t[2].0, t[2].1, t[2].2),
                        hi(t[0].0, t[0].1, t[0].2),
                        hi(t[1].0, t[1].1, t[1].2),
                        hi(t[2].0, t[2].1, t[2].2),
                    ]))
                }

                /// Two products per column (the cross terms doubled): c0 = a0^2 +
                /// a1 (2K a2), c1 = (2 a0) a1 + a2 (K a2), c2 = (2 a0) a2 + a1^2; 2 a0 and
                /// 2K a2 stay below 2^52 for limbs below 2^44 + 2^20.
                #[inline(always)]
                fn square_chain(self) -> Self {
                    let [a0, a1, a2] = self.0;
                    let d0 = add(a0, a0);
                    let s2 = Self::add_wrap(ZV, a2);
                    let u2 = madd52lo(ZV, a2, splat64(2 * K));
                    Self::reduce(Wide([
                        madd52lo(madd52lo(ZV, a0, a0), a1, u2),
                        add(madd52lo(ZV, d0, a1), madd52lo(ZV, a2, s2)),
                        madd52lo(madd52lo(ZV, a1, a1), d0, a2),
                        madd52hi(madd52hi(ZV, a0, a0), a1, u2),
                        add(madd52hi(ZV, d0, a1), madd52hi(ZV, a2, s2)),
                        madd52hi(madd52hi(ZV, a1, a1), d0, a2),
                    ]))
                }

                #[inline(always)]
                fn reduce(w: Wide) -> Self {
                    let m = splat64(MASK44);
                    let [d0, d1, d2, e0, e1, e2] = w.0;
                    // High halves join the next column (x 2^8); the top one wraps (x K 2^8).
                    let t0 = add(d0, Self::wrap_high(e2));
                    let t1 = add(d1, shl::<8>(e0));
                    let t2 = add(d2, shl::<8>(e1));
                    // One round of carries, all three at once (the top one wraps): limbs
                    // below 2^44 + 2^20, which a product accepts; a sequential carry chain
                    // would reach 2^44 + 1 but cost a dependency chain of five steps.
                    L44([
                        Self::add_wrap(and(t0, m), shr::<44>(t2)),
                        add(and(t1, m), shr::<44>(t0)),
                        add(and(t2, m), shr::<44>(t1)),
                    ])
                }
            }

            /// GF(2^130 - 5), W lanes.
            pub(crate) type Fp1305xW = L44<20>;
            /// GF(2^127 - 1), W lanes.
            pub(crate) type Fp1271xW = L44<32>;

            // pad1's 2^128 is bit 40 of the top limb (2^88).
            crate::backend::x86::ops::lanes_fp1305!(
                L44<20>,
                $w,
                $load1305,
                40,
                lane0 = lane0_or_one_limbs,
                short_vectors = $short1305,
                short_estrin = true,
                local_table = true,
                strided = $strided,
                strided_lanes = $strided_lanes,
                strided_whole = $strided_whole
            );

            impl Lanes<Fp1271> for L44<32> {
                const W: usize = $w;
                const SHORT_VECTORS: usize = $short1271;
                const SHORT_ESTRIN: bool = true;
                const LOCAL_TABLE: bool = true;
                crate::backend::x86::ops::lane_conversions!(Fp1271, lane0 = lane0_or_one_limbs);

                #[inline(always)]
                fn load(bytes: &[u8], marker: bool) -> Self {
                    let bytes = &bytes[..15 * $w];
                    // SAFETY: the slice holds the 15 * W bytes the masked loads read.
                    let (lo, hi) =
                        unsafe { ($load1271)(bytes.as_ptr(), bytes.as_ptr().add(15 * $w / 2)) };
                    // pad1's 2^120 is bit 32 of the top limb (2^88).
                    L44(split(lo, hi, if marker { 1 << 32 } else { 0 }))
                }

                #[inline(always)]
                fn load_strided(bytes: &[u8], at: usize, stride: usize) -> Self {
                    // SAFETY: masked loads read only the bytes of `bytes` they are given.
                    let (lo, hi) = unsafe { ($strided)(bytes, at, stride, 15) };
                    // Byte 15 of a plain load is the next block's first: not this block's.
                    L44(split(lo, and(hi, splat64((1 << 56) - 1)), 0))
                }

                #[inline(always)]
                fn load_strided_lanes(
                    bytes: &[u8],
                    at: usize,
                    stride: usize,
                    lanes: usize,
                ) -> Self {
                    // SAFETY: the loader checks that the bytes it reads lie in `bytes`.
                    let (lo, hi) = unsafe { ($strided_lanes)(bytes, at, stride, 15, lanes) };
                    L44(split(lo, and(hi, splat64((1 << 56) - 1)), 0))
                }

                #[inline(always)]
                fn load_strided_whole(bytes: &[u8], at: usize, stride: usize) -> Self {
                    // SAFETY: the loader checks that the bytes it reads lie in `bytes`.
                    let (lo, hi) = unsafe { ($strided_whole)(bytes, at, stride) };
                    // Byte 15 of each load is the next block's first: not this block's.
                    L44(split(lo, and(hi, splat64((1 << 56) - 1)), 0))
                }
            }
        }
    };
}

// `short1305` / `short1271`: the vector blocks up to which a one-shot polyHash / Poly1305
// takes Estrin's scheme (`Lanes::SHORT_VECTORS`), 7 KiB of 2^130 - 5 blocks and 4800 B of
// 2^127 - 1 blocks on 8 lanes (measured at `ShortPowers`), and about 7 KiB of either on 4
// ymm lanes, which one-shot messages take to 14 KiB on Zen 4 (`halves_one_shot`): there
// the table of 8 cost more from 3.5 KiB, its limit when it was the zmm one in vector
// blocks. Zen 4, `brwhash::hash`, TSC cycles per message (min of 5 alternating runs),
// table of 8 -> Estrin: Poly1305 4096 B 832 -> 790, 5120 B 968 -> 941, 6144 B 1116 ->
// 1105, 7168 B 1263 -> 1268 (8192 B 1389 -> 1430); polyHash1271 3000 B 679 -> 613, 3840 B
// 815 -> 757, 4800 B 956 -> 921, 5760 B 1099 -> 1084, 7200 B 1324 -> 1311.
radix44_width!(
    ifma4,
    ops = ymm,
    lanes = 4,
    load1305 = crate::backend::x86::radix26::load1305_avx2,
    load1271 = load1271_x4,
    strided = strided_x4,
    strided_lanes = strided_lanes_x4,
    strided_whole = strided_whole_x4,
    short1305 = 112,
    short1271 = 120
);

radix44_width!(
    ifma8,
    ops = zmm,
    lanes = 8,
    load1305 = crate::backend::x86::radix26::load1305_avx512,
    load1271 = load1271_x8,
    strided = strided_x8,
    strided_lanes = strided_lanes_x8,
    strided_whole = strided_whole_x8,
    short1305 = 56,
    short1271 = 40
);

/// The 4-lane power ladder and splat squares: all lanes, as `Lanes`' defaults do.
impl<const K: u64> ifma4::L44<K> {
    #[inline(always)]
    fn ladder_limbs<F: PrimeField>(x: F) -> Self
    where
        Self: Lanes<F>,
    {
        crate::construct::lane_ladder(x)
    }

    #[inline(always)]
    fn square_splat_limbs(self) -> Self {
        self.square_chain()
    }
}

pub(crate) use ifma4::{Fp1271xW as Fp1271x4i, Fp1305xW as Fp1305x4i};
pub(crate) use ifma8::{Fp1271xW as Fp1271x8i, Fp1305xW as Fp1305x8i};
