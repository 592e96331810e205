//! GF(2^130 - 5) and GF(2^127 - 1) in radix 2^52 for AVX-512 IFMA (vpmadd52luq/huq), one
//! element per 64-bit lane: 4 lanes (ymm, AVX-512VL) or 8 lanes (zmm).
//!
//! Representation: three limbs, each below 2^52 (IFMA reads only 52 bits of an operand, so
//! every value that is multiplied has strictly normalised limbs; `add` carries).
//! Product: the 3x3 limb products go to six 52-bit columns exactly: the low half of a_i*b_j
//! (madd52lo) to column i+j, the high half (madd52hi) to column i+j+1. 18 multiply-adds, no
//! shifts, no premultiplied operands, and a column gains less than 6 * 2^52 per product, so
//! hundreds of products can be summed before a reduction.
//! Reduction: carry the columns, split the value at bit S = 104 + T (T = 26: 2^130 = 5 mod
//! 2^130 - 5; T = 23: 2^127 = 1 mod 2^127 - 1), fold the high part once with the factor K,
//! fold the few bits left above S again, and carry until every limb is below 2^52.
//!
//! See the module documentation of `backend::x86` for why the `unsafe` blocks are sound.

use crate::construct::Lanes;
use crate::field::{Field, Fp1271, Fp1305, PrimeField};

const MASK52: u64 = (1 << 52) - 1;

/// The three radix-2^52 limbs of a value below 2^131.
#[inline(always)]
fn limbs52(v: [u64; 3]) -> [u64; 3] {
    [
        v[0] & MASK52,
        ((v[0] >> 52) | (v[1] << 12)) & MASK52,
        (v[1] >> 40) | (v[2] << 24),
    ]
}

/// The value of three limbs (the first two below 2^52, the top one below 2^27).
#[inline(always)]
fn from_limbs52(l: [u64; 3]) -> [u64; 3] {
    let lo = l[0] as u128 | (l[1] as u128) << 52 | (l[2] as u128) << 104;
    [lo as u64, (lo >> 64) as u64, l[2] >> 24]
}

macro_rules! radix52_width {
    (
        $module:ident, $vec:ident, lanes = $w:literal,
        add = $add:ident, and = $and:ident, or = $or:ident,
        srli = $srli:ident, slli = $slli:ident, set1 = $set1:ident,
        madd52lo = $madd52lo:ident, madd52hi = $madd52hi:ident,
        loadu = $loadu:expr, storeu = $storeu:expr, load1305 = $load1305:expr
    ) => {
        pub(crate) mod $module {
            use super::*;
            use core::arch::x86_64::*;

            type V = $vec;

            /// All-zero bits are a valid vector.
            // SAFETY: the vector type is plain data of the same size as the array.
            const ZV: V = unsafe { core::mem::transmute::<[u64; $w], V>([0; $w]) };

            // SAFETY (every helper below): see the module documentation of `backend::x86`;
            // these run only inside entry points compiled with AVX-512F/VL/IFMA.
            #[inline(always)]
            fn add(a: V, b: V) -> V {
                unsafe { $add(a, b) }
            }
            #[inline(always)]
            fn and(a: V, b: V) -> V {
                unsafe { $and(a, b) }
            }
            #[inline(always)]
            fn or(a: V, b: V) -> V {
                unsafe { $or(a, b) }
            }
            #[inline(always)]
            fn splat64(x: u64) -> V {
                unsafe { $set1(x as i64) }
            }
            #[inline(always)]
            fn shr52(a: V) -> V {
                unsafe { $srli::<52>(a) }
            }
            #[inline(always)]
            fn shr26(a: V) -> V {
                unsafe { $srli::<26>(a) }
            }
            #[inline(always)]
            fn shl26(a: V) -> V {
                unsafe { $slli::<26>(a) }
            }
            #[inline(always)]
            fn shr23(a: V) -> V {
                unsafe { $srli::<23>(a) }
            }
            #[inline(always)]
            fn shl29(a: V) -> V {
                unsafe { $slli::<29>(a) }
            }
            #[inline(always)]
            fn shl2(a: V) -> V {
                unsafe { $slli::<2>(a) }
            }
            #[inline(always)]
            fn shr40(a: V) -> V {
                unsafe { $srli::<40>(a) }
            }
            #[inline(always)]
            fn shl12(a: V) -> V {
                unsafe { $slli::<12>(a) }
            }
            /// acc + low 52 bits of a * b (52-bit operands).
            #[inline(always)]
            fn lo(acc: V, a: V, b: V) -> V {
                unsafe { $madd52lo(acc, a, b) }
            }
            /// acc + high 52 bits of a * b (52-bit operands).
            #[inline(always)]
            fn hi(acc: V, a: V, b: V) -> V {
                unsafe { $madd52hi(acc, a, b) }
            }
            #[inline(always)]
            fn load(words: &[u64; $w]) -> V {
                // SAFETY: reads exactly the array (unaligned load).
                unsafe { ($loadu)(words.as_ptr() as *const V) }
            }
            #[inline(always)]
            fn store(v: V) -> [u64; $w] {
                let mut out = [0u64; $w];
                // SAFETY: writes exactly the array (unaligned store).
                unsafe { ($storeu)(out.as_mut_ptr() as *mut V, v) };
                out
            }

            /// The limbs of W blocks given as low and high words, plus `top` in the top limb.
            #[inline(always)]
            fn split(lo: V, hi: V, top: u64) -> [V; 3] {
                let m = splat64(MASK52);
                [
                    and(lo, m),
                    and(or(shr52(lo), shl12(hi)), m),
                    or(shr40(hi), splat64(top)),
                ]
            }

            /// Unreduced products: six 52-bit columns (with carries) per lane.
            #[derive(Clone, Copy)]
            pub(crate) struct Wide([V; 6]);

            impl Default for Wide {
                fn default() -> Self {
                    Wide([ZV; 6])
                }
            }

            /// W elements in radix 2^52; `T` = 26 for 2^130 - 5, 23 for 2^127 - 1.
            #[derive(Clone, Copy)]
            pub(crate) struct L52<const T: u32>([V; 3]);

            impl<const T: u32> Default for L52<T> {
                fn default() -> Self {
                    L52([ZV; 3])
                }
            }

            impl<const T: u32> zeroize::Zeroize for L52<T> {
                fn zeroize(&mut self) {
                    // SAFETY: `self` is a valid, aligned, exclusive reference.
                    unsafe { core::ptr::write_volatile(self, L52([ZV; 3])) }
                }
            }

            impl<const T: u32> L52<T> {
                /// K * v with 2^(104 + T) = K (mod p): 5 for 2^130 - 5, 1 for 2^127 - 1.
                #[inline(always)]
                fn wrap(v: V) -> V {
                    if T == 26 {
                        add(v, shl2(v))
                    } else {
                        v
                    }
                }
                #[inline(always)]
                fn shr_t(v: V) -> V {
                    if T == 26 {
                        shr26(v)
                    } else {
                        shr23(v)
                    }
                }
                /// Shift left by 52 - T.
                #[inline(always)]
                fn shl_52_t(v: V) -> V {
                    if T == 26 {
                        shl26(v)
                    } else {
                        shl29(v)
                    }
                }

                #[inline(always)]
                fn lanes(self) -> [[u64; 3]; $w] {
                    let l = self.0.map(store);
                    core::array::from_fn(|j| from_limbs52([l[0][j], l[1][j], l[2][j]]))
                }
            }

            impl<const T: u32> Field for L52<T> {
                type Wide = Wide;
                const ZERO: Self = L52([ZV; 3]);
                const WIDE_SUM_LIMIT: usize = 256;

                #[inline(always)]
                fn add(self, rhs: Self) -> Self {
                    // Carry, so that both low limbs stay below 2^52 for IFMA.
                    let m = splat64(MASK52);
                    let (a, b) = (self.0, rhs.0);
                    let r0 = add(a[0], b[0]);
                    let r1 = add(add(a[1], b[1]), shr52(r0));
                    let r2 = add(add(a[2], b[2]), shr52(r1));
                    L52([and(r0, m), and(r1, m), r2])
                }

                #[inline(always)]
                fn mul_wide(self, rhs: Self) -> Wide {
                    let [a0, a1, a2] = self.0;
                    let [b0, b1, b2] = rhs.0;
                    let z = ZV;
                    Wide([
                        lo(z, a0, b0),
                        lo(lo(hi(z, a0, b0), a0, b1), a1, b0),
                        lo(lo(lo(hi(hi(z, a0, b1), a1, b0), a0, b2), a1, b1), a2, b0),
                        lo(lo(hi(hi(hi(z, a0, b2), a1, b1), a2, b0), a1, b2), a2, b1),
                        lo(hi(hi(z, a1, b2), a2, b1), a2, b2),
                        hi(z, a2, b2),
                    ])
                }

                #[inline(always)]
                fn wide_add(a: Wide, b: Wide) -> Wide {
                    let (a, b) = (a.0, b.0);
                    Wide(core::array::from_fn(|i| add(a[i], b[i])))
                }

                #[inline(always)]
                fn widen(self) -> Wide {
                    Wide([self.0[0], self.0[1], self.0[2], ZV, ZV, ZV])
                }

                #[inline(always)]
                fn reduce(w: Wide) -> Self {
                    let m = splat64(MASK52);
                    let mt = splat64((1 << T) - 1);
                    let [mut c0, mut c1, mut c2, mut c3, mut c4, mut c5] = w.0;
                    // Columns to 52 bits; c5 keeps the rest (a few bits).
                    c1 = add(c1, shr52(c0));
                    c0 = and(c0, m);
                    c2 = add(c2, shr52(c1));
                    c1 = and(c1, m);
                    c3 = add(c3, shr52(c2));
                    c2 = and(c2, m);
                    c4 = add(c4, shr52(c3));
                    c3 = and(c3, m);
                    c5 = add(c5, shr52(c4));
                    c4 = and(c4, m);
                    // value = lo + 2^(104+T) * H; H's radix-2^52 limbs:
                    let h0 = and(or(Self::shr_t(c2), Self::shl_52_t(c3)), m);
                    let h1 = and(or(Self::shr_t(c3), Self::shl_52_t(c4)), m);
                    let h2 = or(Self::shr_t(c4), Self::shl_52_t(c5));
                    let mut r0 = add(c0, Self::wrap(h0));
                    let mut r1 = add(c1, Self::wrap(h1));
                    let mut r2 = add(and(c2, mt), Self::wrap(h2));
                    r1 = add(r1, shr52(r0));
                    r0 = and(r0, m);
                    r2 = add(r2, shr52(r1));
                    r1 = and(r1, m);
                    // The bits of r2 at and above T fold once more, then carry.
                    r0 = add(r0, Self::wrap(Self::shr_t(r2)));
                    r2 = and(r2, mt);
                    r1 = add(r1, shr52(r0));
                    r0 = and(r0, m);
                    r2 = add(r2, shr52(r1));
                    r1 = and(r1, m);
                    L52([r0, r1, r2])
                }
            }

            /// GF(2^130 - 5), W lanes.
            pub(crate) type Fp1305xW = L52<26>;
            /// GF(2^127 - 1), W lanes.
            pub(crate) type Fp1271xW = L52<23>;

            impl Lanes<Fp1305> for L52<26> {
                const W: usize = $w;

                #[inline(always)]
                fn splat(x: Fp1305) -> Self {
                    L52(limbs52(x.to_u192()).map(splat64))
                }

                #[inline(always)]
                fn load(bytes: &[u8], marker: bool) -> Self {
                    let bytes = &bytes[..16 * $w];
                    // SAFETY: the slice holds the 16 * W bytes the loads read.
                    let (lo, hi) = unsafe { ($load1305)(bytes.as_ptr()) };
                    // pad1's 2^128 is bit 24 of the top limb (2^104).
                    L52(split(lo, hi, if marker { 1 << 24 } else { 0 }))
                }

                #[inline(always)]
                fn store(self, out: &mut [Fp1305]) {
                    for (o, v) in out.iter_mut().zip(self.lanes()) {
                        *o = Fp1305::from_u192(v);
                    }
                }
            }

            impl Lanes<Fp1271> for L52<23> {
                const W: usize = $w;

                #[inline(always)]
                fn splat(x: Fp1271) -> Self {
                    L52(limbs52(x.to_u192()).map(splat64))
                }

                #[inline(always)]
                fn load(bytes: &[u8], marker: bool) -> Self {
                    // 15-byte blocks straddle lanes: gather each block's two words.
                    let bytes = &bytes[..15 * $w];
                    let word =
                        |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
                    let lo: [u64; $w] = core::array::from_fn(|j| word(15 * j));
                    let hi: [u64; $w] = core::array::from_fn(|j| word(15 * j + 7) >> 8);
                    // pad1's 2^120 is bit 16 of the top limb (2^104).
                    L52(split(
                        load(&lo),
                        load(&hi),
                        if marker { 1 << 16 } else { 0 },
                    ))
                }

                #[inline(always)]
                fn store(self, out: &mut [Fp1271]) {
                    for (o, v) in out.iter_mut().zip(self.lanes()) {
                        *o = Fp1271::from_u192(v);
                    }
                }
            }
        }
    };
}

radix52_width!(
    ifma4,
    __m256i,
    lanes = 4,
    add = _mm256_add_epi64,
    and = _mm256_and_si256,
    or = _mm256_or_si256,
    srli = _mm256_srli_epi64,
    slli = _mm256_slli_epi64,
    set1 = _mm256_set1_epi64x,
    madd52lo = _mm256_madd52lo_epu64,
    madd52hi = _mm256_madd52hi_epu64,
    loadu = _mm256_loadu_si256,
    storeu = _mm256_storeu_si256,
    load1305 = crate::backend::x86::radix26::load1305_avx2
);

radix52_width!(
    ifma8,
    __m512i,
    lanes = 8,
    add = _mm512_add_epi64,
    and = _mm512_and_si512,
    or = _mm512_or_si512,
    srli = _mm512_srli_epi64,
    slli = _mm512_slli_epi64,
    set1 = _mm512_set1_epi64,
    madd52lo = _mm512_madd52lo_epu64,
    madd52hi = _mm512_madd52hi_epu64,
    loadu = _mm512_loadu_si512,
    storeu = _mm512_storeu_si512,
    load1305 = crate::backend::x86::radix26::load1305_avx512
);

pub(crate) use ifma4::{Fp1271xW as Fp1271x4i, Fp1305xW as Fp1305x4i};
pub(crate) use ifma8::{Fp1271xW as Fp1271x8i, Fp1305xW as Fp1305x8i};
