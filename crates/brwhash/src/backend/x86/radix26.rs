//! GF(2^130 - 5) and GF(2^127 - 1) in radix 2^26, one element per 64-bit lane, five registers
//! per W elements (IMPLEMENTATION-NOTES 1.2): AVX2 (W = 4) and AVX-512F (W = 8).
//!
//! Both primes share the code: a product's limbs at positions 2^(26k), k >= 5, wrap around
//! with 2^130 = K (mod p), K = 5 for 2^130 - 5 and K = 8 for 2^127 - 1. Elements are kept
//! with limbs below 2^26 + 2^15 after a reduction; `add` does not carry, and the
//! constructions add at most two such values before multiplying, so every product term is
//! below 2^54.2 and one product's 64-bit limb below 21 * 2^54.2 < 2^58.6 (K = 5) or
//! 33 * 2^54.2 < 2^59.3 (K = 8). `WIDE_SUM_LIMIT` keeps sums below 2^62.
//!
//! See the module documentation of `backend::x86` for why the `unsafe` blocks are sound.

use crate::construct::Lanes;
use crate::field::{Field, Fp1271, Fp1305, PrimeField};

const MASK26: u64 = (1 << 26) - 1;

/// The five radix-2^26 limbs of a value below 2^131 (the top limb takes the extra bits).
#[inline(always)]
fn limbs26(v: [u64; 3]) -> [u64; 5] {
    [
        v[0] & MASK26,
        (v[0] >> 26) & MASK26,
        ((v[0] >> 52) | (v[1] << 12)) & MASK26,
        (v[1] >> 14) & MASK26,
        (v[1] >> 40) | (v[2] << 24),
    ]
}

/// The value of five limbs of at most 27 bits each, as a 192-bit integer (below 2^131).
#[inline(always)]
fn from_limbs26(l: [u64; 5]) -> [u64; 3] {
    let mut lo = 0u128;
    let mut top = l[4] >> 24;
    for (i, part) in [l[0], l[1], l[2], l[3], l[4] & ((1 << 24) - 1)]
        .into_iter()
        .enumerate()
    {
        let (s, carry) = lo.overflowing_add((part as u128) << (26 * i));
        lo = s;
        top += carry as u64;
    }
    [lo as u64, (lo >> 64) as u64, top]
}

macro_rules! radix26_lanes {
    (
        $module:ident, $feature:literal, ops = $ops:ident, lanes = $w:literal,
        load1305 = $load1305:expr
    ) => {
        pub(crate) mod $module {
            use super::*;

            use crate::backend::x86::ops::$ops::*;

            /// Move limb `from`'s bits above 2^26 into limb `to`.
            #[inline(always)]
            fn carry(h: &mut [V; 5], from: usize, to: usize, m: V) {
                let c = shr::<26>(h[from]);
                h[from] = and(h[from], m);
                h[to] = add(h[to], c);
            }

            /// Limb-wise sum of two five-limb values (no carry).
            #[inline(always)]
            fn add5(a: [V; 5], b: [V; 5]) -> [V; 5] {
                [
                    add(a[0], b[0]),
                    add(a[1], b[1]),
                    add(a[2], b[2]),
                    add(a[3], b[3]),
                    add(a[4], b[4]),
                ]
            }

            /// The sum of five vectors.
            #[inline(always)]
            fn sum(t: [V; 5]) -> V {
                add(add(add(t[0], t[1]), add(t[2], t[3])), t[4])
            }

            /// K * c: 2^130 = K (mod p).
            #[inline(always)]
            fn wrap<const K: u64>(c: V) -> V {
                if K == 5 {
                    add(c, shl::<2>(c))
                } else {
                    shl::<3>(c)
                }
            }

            /// The five limbs of W blocks given as their low and high 64-bit words, plus
            /// `top` (a marker bit) in the top limb.
            #[inline(always)]
            pub(crate) fn split(lo: V, hi: V, top: u64) -> [V; 5] {
                let m = splat64(MASK26);
                [
                    and(lo, m),
                    and(shr::<26>(lo), m),
                    and(or(shr::<52>(lo), shl::<12>(hi)), m),
                    and(shr::<14>(hi), m),
                    or(shr::<40>(hi), splat64(top)),
                ]
            }

            #[doc = concat!("W = ", $w, " elements of GF(p), radix 2^26, ", $feature, ".")]
            #[derive(Clone, Copy)]
            pub(crate) struct L26<const K: u64>(pub(crate) [V; 5]);

            /// Unreduced products: five 64-bit limb sums per lane.
            #[derive(Clone, Copy)]
            pub(crate) struct Wide(pub(crate) [V; 5]);

            impl Default for Wide {
                fn default() -> Self {
                    Wide([ZV; 5])
                }
            }

            impl zeroize::Zeroize for Wide {
                #[inline(always)]
                fn zeroize(&mut self) {
                    wipe(&mut self.0)
                }
            }

            impl<const K: u64> Default for L26<K> {
                fn default() -> Self {
                    L26([ZV; 5])
                }
            }

            impl<const K: u64> zeroize::Zeroize for L26<K> {
                #[inline(always)]
                fn zeroize(&mut self) {
                    wipe(&mut self.0)
                }
            }

            impl<const K: u64> Field for L26<K> {
                type Wide = Wide;
                const ZERO: Self = L26([ZV; 5]);
                const WIDE_SUM_LIMIT: usize = if K == 5 { 10 } else { 6 };

                #[inline(always)]
                fn add(self, rhs: Self) -> Self {
                    L26(add5(self.0, rhs.0))
                }

                #[inline(always)]
                fn mul_wide(self, rhs: Self) -> Wide {
                    let [a0, a1, a2, a3, a4] = self.0;
                    let [b0, b1, b2, b3, b4] = rhs.0;
                    let (s1, s2, s3, s4) =
                        (wrap::<K>(b1), wrap::<K>(b2), wrap::<K>(b3), wrap::<K>(b4));

                    Wide([
                        sum([
                            mul32(a0, b0),
                            mul32(a1, s4),
                            mul32(a2, s3),
                            mul32(a3, s2),
                            mul32(a4, s1),
                        ]),
                        sum([
                            mul32(a0, b1),
                            mul32(a1, b0),
                            mul32(a2, s4),
                            mul32(a3, s3),
                            mul32(a4, s2),
                        ]),
                        sum([
                            mul32(a0, b2),
                            mul32(a1, b1),
                            mul32(a2, b0),
                            mul32(a3, s4),
                            mul32(a4, s3),
                        ]),
                        sum([
                            mul32(a0, b3),
                            mul32(a1, b2),
                            mul32(a2, b1),
                            mul32(a3, b0),
                            mul32(a4, s4),
                        ]),
                        sum([
                            mul32(a0, b4),
                            mul32(a1, b3),
                            mul32(a2, b2),
                            mul32(a3, b1),
                            mul32(a4, b0),
                        ]),
                    ])
                }

                #[inline(always)]
                fn wide_add(a: Wide, b: Wide) -> Wide {
                    Wide(add5(a.0, b.0))
                }

                #[inline(always)]
                fn widen(self) -> Wide {
                    Wide(self.0)
                }

                #[inline(always)]
                fn reduce(w: Wide) -> Self {
                    // Two interleaved carry chains (h0 -> h1 -> h2 -> h3, h3 -> h4 -> h0).
                    let m = splat64(MASK26);
                    let mut h = w.0;
                    carry(&mut h, 0, 1, m);
                    carry(&mut h, 3, 4, m);
                    carry(&mut h, 1, 2, m);
                    // h4's carry wraps into h0 with 2^130 = K.
                    let c = shr::<26>(h[4]);
                    h[4] = and(h[4], m);
                    h[0] = add(h[0], wrap::<K>(c));
                    carry(&mut h, 2, 3, m);
                    carry(&mut h, 0, 1, m);
                    carry(&mut h, 3, 4, m);
                    L26(h)
                }
            }

            impl<const K: u64> L26<K> {
                #[inline(always)]
                fn splat_value(v: [u64; 3]) -> Self {
                    let l = limbs26(v);
                    L26([
                        splat64(l[0]),
                        splat64(l[1]),
                        splat64(l[2]),
                        splat64(l[3]),
                        splat64(l[4]),
                    ])
                }

                /// Lane j as a 192-bit integer below 2^131.
                /// Lane j = `values[j]` (scalars' working representatives below 2^131).
                #[inline(always)]
                fn from_values<F: PrimeField>(values: &[F]) -> Self {
                    let mut w = [[0u64; $w]; 5];
                    for (j, v) in values.iter().enumerate().take($w) {
                        let l = limbs26(v.to_u192());
                        for (i, limb) in l.iter().enumerate() {
                            w[i][j] = *limb;
                        }
                    }
                    L26([
                        load(&w[0]),
                        load(&w[1]),
                        load(&w[2]),
                        load(&w[3]),
                        load(&w[4]),
                    ])
                }

                /// The sum of the lanes as a 192-bit integer.
                #[inline(always)]
                fn limb_sum(self) -> [u64; 3] {
                    from_limbs26([
                        hsum(self.0[0]),
                        hsum(self.0[1]),
                        hsum(self.0[2]),
                        hsum(self.0[3]),
                        hsum(self.0[4]),
                    ])
                }

                #[inline(always)]
                fn lanes(self) -> [[u64; 3]; $w] {
                    // Explicit, not `map`: intrinsics must inline into the caller (see `backend::x86`).
                    let l = [
                        store(self.0[0]),
                        store(self.0[1]),
                        store(self.0[2]),
                        store(self.0[3]),
                        store(self.0[4]),
                    ];
                    core::array::from_fn(|j| {
                        from_limbs26([l[0][j], l[1][j], l[2][j], l[3][j], l[4][j]])
                    })
                }
            }

            /// GF(2^130 - 5), W lanes.
            pub(crate) type Fp1305xW = L26<5>;
            /// GF(2^127 - 1), W lanes.
            pub(crate) type Fp1271xW = L26<8>;

            // pad1's 2^128 is bit 24 of the top limb (2^104).
            crate::backend::x86::ops::lanes_fp1305!(L26<5>, $w, $load1305, 24);

            impl Lanes<Fp1271> for L26<8> {
                const W: usize = $w;
                crate::backend::x86::ops::lane_conversions!(Fp1271);

                #[inline(always)]
                fn load(bytes: &[u8], marker: bool) -> Self {
                    // 15-byte blocks straddle lanes: gather each block's two words.
                    let bytes = &bytes[..15 * $w];
                    let word =
                        |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
                    let lo: [u64; $w] = core::array::from_fn(|j| word(15 * j));
                    let hi: [u64; $w] = core::array::from_fn(|j| word(15 * j + 7) >> 8);
                    // pad1's 2^120 is bit 16 of the top limb (2^104).
                    L26(split(
                        load(&lo),
                        load(&hi),
                        if marker { 1 << 16 } else { 0 },
                    ))
                }
            }
        }
    };
}

/// AVX2: the low and high words of 4 consecutive 16-byte blocks.
#[inline(always)]
pub(crate) unsafe fn load1305_avx2(
    p: *const u8,
) -> (core::arch::x86_64::__m256i, core::arch::x86_64::__m256i) {
    use core::arch::x86_64::*;
    // a = [b0.lo, b0.hi | b1.lo, b1.hi], b = [b2.lo, b2.hi | b3.lo, b3.hi]
    let a = _mm256_loadu_si256(p as *const __m256i);
    let b = _mm256_loadu_si256(p.add(32) as *const __m256i);
    // unpack gives [b0, b2 | b1, b3]; the permutation restores block order.
    let lo = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_unpacklo_epi64(a, b));
    let hi = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_unpackhi_epi64(a, b));
    (lo, hi)
}

/// AVX-512F: the low and high words of 8 consecutive 16-byte blocks.
#[inline(always)]
pub(crate) unsafe fn load1305_avx512(
    p: *const u8,
) -> (core::arch::x86_64::__m512i, core::arch::x86_64::__m512i) {
    use core::arch::x86_64::*;
    let a = _mm512_loadu_si512(p as *const __m512i);
    let b = _mm512_loadu_si512(p.add(64) as *const __m512i);
    let even = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0);
    let odd = _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1);
    (
        _mm512_permutex2var_epi64(a, even, b),
        _mm512_permutex2var_epi64(a, odd, b),
    )
}

radix26_lanes!(avx2, "AVX2", ops = ymm, lanes = 4, load1305 = load1305_avx2);

radix26_lanes!(
    avx512,
    "AVX-512F",
    ops = zmm,
    lanes = 8,
    load1305 = load1305_avx512
);

pub(crate) use avx2::{Fp1271xW as Fp1271x4, Fp1305xW as Fp1305x4};
pub(crate) use avx512::{Fp1271xW as Fp1271x8, Fp1305xW as Fp1305x8};
