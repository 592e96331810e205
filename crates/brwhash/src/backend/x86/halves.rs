//! 8 lanes as two halves of 4 (zmm and ymm): [`Halves`] for 4-decBRWHash on 8 lanes
//! (`construct::DecPeriods`), for the radix-2^26 (AVX-512F) and radix-2^44 (IFMA) lane types.
//!
//! SAFETY (every function here): see the module documentation of `backend::x86`; these run
//! only inside entry points compiled with AVX-512F (and the lane type's other features).
#![allow(clippy::needless_range_loop)] // index loops: no closures around intrinsics

use core::arch::x86_64::*;

use super::radix26::{avx2, avx512};
use super::radix44::{ifma4, ifma8, load1271_x8, load1271_x8_masked};
use crate::construct::{Halves, Lanes};
use crate::field::{Field, Fp1271, Fp1305, PrimeField};

#[inline(always)]
fn join(lo: __m256i, hi: __m256i) -> __m512i {
    unsafe { _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi) }
}
#[inline(always)]
fn low_to_high(a: __m512i) -> __m512i {
    unsafe { _mm512_inserti64x4::<1>(a, _mm512_castsi512_si256(a)) }
}
#[inline(always)]
fn high_to_low(a: __m512i) -> __m512i {
    unsafe { _mm512_shuffle_i64x2::<0b11_10_11_10>(a, a) }
}
#[inline(always)]
fn blend(lo: __m512i, hi: __m512i) -> __m512i {
    unsafe { _mm512_mask_blend_epi64(0xf0, lo, hi) }
}
#[inline(always)]
fn upper(a: __m512i) -> __m256i {
    unsafe { _mm512_extracti64x4_epi64::<1>(a) }
}
#[inline(always)]
fn lower(a: __m512i) -> __m256i {
    unsafe { _mm512_castsi512_si256(a) }
}
/// `a` in both halves.
#[inline(always)]
fn twice(a: __m256i) -> __m512i {
    unsafe { _mm512_broadcast_i64x4(a) }
}

/// The low `n` bits set (n <= 64): a byte mask for a masked load of n bytes.
#[inline(always)]
fn byte_mask(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1 << n) - 1
    }
}

/// Whether 64-byte masked loads from `bytes`, every `step` bytes, each selecting what is
/// left of `bytes` (at most `step` bytes), have their masked-out bytes on the page of a byte
/// they select, so on a mapped page: AMD CPUs take an assist of thousands of cycles for a
/// masked-out byte on an unmapped one. (The branch is on the address and length, not on
/// secret data.)
#[inline(always)]
fn masked_loads_in_pages(bytes: &[u8], step: usize) -> bool {
    let p = bytes.as_ptr() as usize;
    (0..bytes.len()).step_by(step).all(|at| {
        let last = at + (bytes.len() - at).min(step) - 1;
        (p + at + 63) / 4096 == (p + last) / 4096
    })
}

/// `Halves::load_tail` from a zeroed copy of the tail, out of line: where a tail's masked
/// window would cross a page. The copy is a call, and inlined it made the caller keep its
/// vectors on the stack: a short 8-decBRWHash1305 message with a key then took 69 or 101 TSC
/// cycles as the stack's alignment fell, 66 without it.
#[cold]
#[inline(never)]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512ifma,avx512vbmi")]
fn tail_by_blocks<F: PrimeField, V: Lanes<F>>(bytes: &[u8], at: usize) -> V {
    let whole = V::W * F::BLOCK;
    let rest = &bytes[at.min(bytes.len())..];
    let rest = &rest[..rest.len().min(whole)];
    let mut copy = [0u8; 128];
    copy[..rest.len()].copy_from_slice(rest);
    V::load(&copy[..whole], false)
}

/// `Halves::load_tail` on 8 IFMA lanes: two masked loads of 4 blocks each (64 bytes of
/// 16-byte blocks, 60 of 15-byte ones), where their masked-out bytes lie on pages of bytes
/// they read; else block by block, out of line.
#[inline(always)]
fn ifma8_tail<F: PrimeField, const K: u64>(bytes: &[u8], at: usize) -> ifma8::L44<K>
where
    ifma8::L44<K>: Lanes<F>,
{
    let step = 4 * F::BLOCK;
    let rest = &bytes[at.min(bytes.len())..];
    let rest = &rest[..rest.len().min(2 * step)];
    if rest.is_empty() || !masked_loads_in_pages(rest, step) {
        // SAFETY: lane types of IFMA run only inside its entry points.
        return unsafe { tail_by_blocks::<F, _>(bytes, at) };
    }
    let (n, p) = (rest.len(), rest.as_ptr());
    let second = n > step;
    let (mask_a, mask_b) = (
        byte_mask(n.min(step)),
        if second { byte_mask(n - step) } else { 0 },
    );
    // SAFETY: the masks select the n bytes of `rest` and nothing past them, and the masked-out
    // bytes lie on pages of selected bytes (`masked_loads_in_pages`); the second pointer is
    // formed only where `rest` reaches it (else its load, at `p`, selects nothing).
    let (l, h) = unsafe {
        let b = if second { p.add(step) } else { p };
        if F::BLOCK == 16 {
            let x = _mm512_maskz_loadu_epi8(mask_a, p as *const i8);
            let y = _mm512_maskz_loadu_epi8(mask_b, b as *const i8);
            let even = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0);
            let odd = _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1);
            (
                _mm512_permutex2var_epi64(x, even, y),
                _mm512_permutex2var_epi64(x, odd, y),
            )
        } else {
            load1271_x8_masked(p, mask_a, b, mask_b)
        }
    };
    ifma8::L44(ifma8::split(l, h, 0))
}

/// The 8-lane power ladder and splat squares from 4 lanes where the CPU runs zmm in halves
/// (`backend::zmm_in_halves`). Zen 4 runs a zmm multiply-add as two ymm halves, so a product
/// costs by its width: the 8-lane ladder's three zmm products (lanes multiplied by 1 in half
/// of them) become two 4-lane ladder steps and one 4-lane product, and a square of a splat
/// value squares one ymm and broadcasts it. Elsewhere the products are full width, and the
/// halves' joins and broadcasts only add lane shuffles: on an Intel Xeon (Emerald Rapids)
/// the zmm ladder and squares took 1-3% less, `brwhash::hash`, TSC cycles per message (min of
/// 100 batches, the two interleaved batch by batch), halves vs zmm: Poly1305 256 B 252 vs
/// 248, 512 B 380 vs 367, 1 KiB 485 vs 480, 4 KiB 937 vs 933; polyHash1271 512 B 370 vs
/// 374, 1 KiB 496 vs 483, 2 KiB 679 vs 667. (Not measured on Zen 5.)
impl<const K: u64> ifma8::L44<K> {
    /// Lanes 4-7 = x^4 .. x (the 4-lane ladder), lanes 0-3 = those times x^4.
    #[inline(always)]
    pub(crate) fn ladder_limbs<F: PrimeField>(x: F) -> Self
    where
        ifma4::L44<K>: Lanes<F>,
        Self: Lanes<F>,
    {
        if !crate::backend::zmm_in_halves() {
            return crate::construct::lane_ladder(x);
        }
        let low = <ifma4::L44<K> as Lanes<F>>::ladder(x);
        let high = low.mul_chain(low.lane0_or_one(0xf));
        ifma8::L44([
            join(high.0[0], low.0[0]),
            join(high.0[1], low.0[1]),
            join(high.0[2], low.0[2]),
        ])
    }

    /// The square of lanes 0-3 (all equal), broadcast to the 8 lanes.
    #[inline(always)]
    pub(crate) fn square_splat_limbs(self) -> Self {
        if !crate::backend::zmm_in_halves() {
            return self.square_chain();
        }
        let low = ifma4::L44::<K>([lower(self.0[0]), lower(self.0[1]), lower(self.0[2])]);
        let sq = low.square_chain();
        ifma8::L44([twice(sq.0[0]), twice(sq.0[1]), twice(sq.0[2])])
    }
}

/// The low and high words of 4 16-byte blocks at `lo` and 4 at `hi` (64 bytes each): two
/// loads and two permutations, as for 8 consecutive blocks.
#[inline(always)]
fn words1305_pair(lo: &[u8], hi: &[u8]) -> (__m512i, __m512i) {
    let (lo, hi) = (&lo[..64], &hi[..64]);
    // SAFETY: each slice holds the 64 bytes its load reads.
    unsafe {
        let a = _mm512_loadu_si512(lo.as_ptr() as *const __m512i);
        let b = _mm512_loadu_si512(hi.as_ptr() as *const __m512i);
        let even = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0);
        let odd = _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1);
        (
            _mm512_permutex2var_epi64(a, even, b),
            _mm512_permutex2var_epi64(a, odd, b),
        )
    }
}

macro_rules! halves {
    (
        $field:ty, $eight:ident::$ty8:ident<$k:literal>, $four:ident,
        limbs = $n:literal, wide = $m:literal $(, $method:item)*
    ) => {
        impl Halves<$field> for $eight::$ty8<$k> {
            type Half = $four::$ty8<$k>;

            #[inline(always)]
            fn join(lo: Self::Half, hi: Self::Half) -> Self {
                let mut r = [unsafe { _mm512_setzero_si512() }; $n];
                for i in 0..$n {
                    r[i] = join(lo.0[i], hi.0[i]);
                }
                $eight::$ty8(r)
            }

            #[inline(always)]
            fn low_to_high(w: $eight::Wide) -> $eight::Wide {
                let mut r = w.0;
                for i in 0..$m {
                    r[i] = low_to_high(w.0[i]);
                }
                $eight::Wide(r)
            }

            #[inline(always)]
            fn high_to_low(v: Self) -> Self {
                let mut r = v.0;
                for i in 0..$n {
                    r[i] = high_to_low(v.0[i]);
                }
                $eight::$ty8(r)
            }

            #[inline(always)]
            fn blend(lo: Self, hi: Self) -> Self {
                let mut r = lo.0;
                for i in 0..$n {
                    r[i] = blend(lo.0[i], hi.0[i]);
                }
                $eight::$ty8(r)
            }

            #[inline(always)]
            fn blend_wide(lo: $eight::Wide, hi: $eight::Wide) -> $eight::Wide {
                let mut r = lo.0;
                for i in 0..$m {
                    r[i] = blend(lo.0[i], hi.0[i]);
                }
                $eight::Wide(r)
            }

            #[inline(always)]
            fn upper_wide(w: $eight::Wide) -> $four::Wide {
                let mut r = [unsafe { _mm256_setzero_si256() }; $m];
                for i in 0..$m {
                    r[i] = upper(w.0[i]);
                }
                $four::Wide(r)
            }

            $($method)*
        }
    };
}

halves!(
    Fp1305,
    ifma8::L44<20>,
    ifma4,
    limbs = 3,
    wide = 6,
    #[inline(always)]
    fn load_pair(lo: &[u8], hi: &[u8]) -> Self {
        let (l, h) = words1305_pair(lo, hi);
        ifma8::L44(ifma8::split(l, h, 0))
    },
    /// Two masked loads of the 128 bytes from `at` (no copy per block).
    #[inline(always)]
    fn load_tail(bytes: &[u8], at: usize) -> Self {
        ifma8_tail::<Fp1305, 20>(bytes, at)
    }
);
halves!(
    Fp1271,
    ifma8::L44<32>,
    ifma4,
    limbs = 3,
    wide = 6,
    /// 4 blocks at `lo` and 4 at `hi` with one byte permutation per word.
    #[inline(always)]
    fn load_pair(lo: &[u8], hi: &[u8]) -> Self {
        let (lo, hi) = (&lo[..60], &hi[..60]);
        // SAFETY: each slice holds the 60 bytes its masked load reads.
        let (l, h) = unsafe { load1271_x8(lo.as_ptr(), hi.as_ptr()) };
        ifma8::L44(ifma8::split(l, h, 0))
    },
    /// Two masked loads of the 120 bytes from `at` (no copy per block).
    #[inline(always)]
    fn load_tail(bytes: &[u8], at: usize) -> Self {
        ifma8_tail::<Fp1271, 32>(bytes, at)
    }
);
halves!(
    Fp1305,
    avx512::L26<5>,
    avx2,
    limbs = 5,
    wide = 5,
    #[inline(always)]
    fn load_pair(lo: &[u8], hi: &[u8]) -> Self {
        let (l, h) = words1305_pair(lo, hi);
        avx512::L26(avx512::split(l, h, 0))
    }
);
halves!(Fp1271, avx512::L26<8>, avx2, limbs = 5, wide = 5);
