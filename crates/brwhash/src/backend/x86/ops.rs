//! The intrinsics the lane types use, behind small always-inlined functions: one module per
//! vector width (`ymm`: 4 lanes, `zmm`: 8 lanes of 64 bits).
//!
//! SAFETY (every function here): see the module documentation of `backend::x86`; these run
//! only inside entry points compiled with the features the intrinsics need (AVX2 or AVX-512F
//! for the basic operations, AVX-512 IFMA (and VL on ymm) for `madd52lo` / `madd52hi`).

/// The `Lanes` methods every lane type shares once it has `splat_value`, `lanes` and
/// `from_values`: only `load` differs between primes and radices.
macro_rules! lane_conversions {
    ($field:ty, lane0 = $lane0:ident) => {
        crate::backend::x86::ops::lane_conversions!($field);

        const FAST_PERMUTES: bool = true;

        #[inline(always)]
        fn lane0_or_one(self, mask: u8) -> Self {
            self.$lane0(mask)
        }

        #[inline(always)]
        fn keep_or_one(self, mask: u8) -> Self {
            self.keep_or_one_limbs(mask)
        }

        #[inline(always)]
        fn shift_up(self, z: usize) -> Self {
            self.shift_up_limbs(z)
        }

        #[inline(always)]
        fn ladder(x: $field) -> Self {
            Self::ladder_limbs(x)
        }

        #[inline(always)]
        fn square_splat(self) -> Self {
            self.square_splat_limbs()
        }
    };
    ($field:ty) => {
        #[inline(always)]
        fn splat(x: $field) -> Self {
            Self::splat_value(x.to_u192())
        }

        #[inline(always)]
        fn store(self, out: &mut [$field]) {
            for (o, v) in out.iter_mut().zip(self.lanes()) {
                *o = <$field>::from_u192(v);
            }
        }

        #[inline(always)]
        fn from_lanes(values: &[$field]) -> Self {
            Self::from_values(values)
        }

        // The limb vectors, limb-major (the limb count comes from the type).
        const WORDS: usize = core::mem::size_of::<Self>() / 8;

        #[inline(always)]
        fn to_words(self, out: &mut [u64]) {
            store_limbs(&self.0, out)
        }

        #[inline(always)]
        fn from_words(words: &[u64]) -> Self {
            Self(load_limbs(words))
        }

        #[inline(always)]
        fn sum_lanes(self) -> $field {
            // Limb by limb (the sums stay far below 2^64), then one conversion.
            <$field>::from_u192(self.limb_sum())
        }
    };
}
pub(crate) use lane_conversions;

/// `Lanes<Fp1305>` for a lane type `$lanes` (the tuple struct of limb vectors) of `$w` lanes
/// whose `split` turns two 64-bit words per lane into limbs: W 16-byte blocks loaded by
/// `$load`, pad1's 2^128 at bit `$marker_bit` of the top limb.
macro_rules! lanes_fp1305 {
    (
        $lanes:ident < $k:literal >, $w:literal, $load:expr, $marker_bit:literal
        $(, lane0 = $lane0:ident)? $(, short_vectors = $short:literal)?
        $(, short_estrin = $estrin:literal)?
        $(, local_table = $local:literal)?
        $(, strided = $strided:expr, strided_lanes = $strided_lanes:expr,
            strided_whole = $strided_whole:expr)?
    ) => {
        impl Lanes<Fp1305> for $lanes<$k> {
            const W: usize = $w;
            $(const SHORT_VECTORS: usize = $short;)?
            $(const SHORT_ESTRIN: bool = $estrin;)?
            $(const LOCAL_TABLE: bool = $local;)?
            crate::backend::x86::ops::lane_conversions!(Fp1305 $(, lane0 = $lane0)?);

            #[inline(always)]
            fn load(bytes: &[u8], marker: bool) -> Self {
                let bytes = &bytes[..16 * $w];
                // SAFETY: the slice holds the 16 * W bytes the loads read.
                let (lo, hi) = unsafe { ($load)(bytes.as_ptr()) };
                $lanes(split(lo, hi, if marker { 1 << $marker_bit } else { 0 }))
            }
            $(
                #[inline(always)]
                fn load_strided(bytes: &[u8], at: usize, stride: usize) -> Self {
                    // SAFETY: masked loads read only the bytes of `bytes` they are given.
                    let (lo, hi) = unsafe { ($strided)(bytes, at, stride, 16) };
                    $lanes(split(lo, hi, 0))
                }

                #[inline(always)]
                fn load_strided_lanes(bytes: &[u8], at: usize, stride: usize, lanes: usize) -> Self {
                    // SAFETY: the loader checks that the bytes it reads lie in `bytes`.
                    let (lo, hi) = unsafe { ($strided_lanes)(bytes, at, stride, 16, lanes) };
                    $lanes(split(lo, hi, 0))
                }

                #[inline(always)]
                fn load_strided_whole(bytes: &[u8], at: usize, stride: usize) -> Self {
                    // SAFETY: the loader checks that the bytes it reads lie in `bytes`.
                    let (lo, hi) = unsafe { ($strided_whole)(bytes, at, stride) };
                    $lanes(split(lo, hi, 0))
                }
            )?
        }
    };
}
pub(crate) use lanes_fp1305;

macro_rules! width_ops {
    (
        $module:ident, $vec:ident, $imm:ty, lanes = $w:literal,
        add = $add:ident, mul32 = $mul:ident, and = $and:ident, or = $or:ident,
        srli = $srli:ident, slli = $slli:ident, rol = $rol:ident, set1 = $set1:ident,
        loadu = $loadu:ident, storeu = $storeu:ident,
        madd52lo = $madd52lo:ident, madd52hi = $madd52hi:ident,
        mask_permutexvar = $mask_permutexvar:ident, maskz_permutexvar = $maskz_permutexvar:ident,
        mask_blend = $mask_blend:ident, hsum = $hsum:ident
    ) => {
        pub(crate) mod $module {
            use core::arch::x86_64::*;

            /// The vector type.
            pub(crate) type V = $vec;

            /// All-zero bits are a valid vector.
            // SAFETY: the vector type is plain data of the same size as the array.
            pub(crate) const ZV: V = unsafe { core::mem::transmute::<[u64; $w], V>([0; $w]) };

            /// Zeroes each vector with its own volatile store: one aligned vector store each
            /// (a volatile write of a whole limb array went through a zeroed stack copy, a
            /// store and a load per vector more).
            #[inline(always)]
            pub(crate) fn wipe(vectors: &mut [V]) {
                for v in vectors {
                    // SAFETY: `v` is a valid, aligned, exclusive reference.
                    unsafe { core::ptr::write_volatile(v, ZV) }
                }
            }

            #[inline(always)]
            pub(crate) fn add(a: V, b: V) -> V {
                unsafe { $add(a, b) }
            }
            /// Low 32 bits of each lane times low 32 bits: 64-bit products.
            #[inline(always)]
            pub(crate) fn mul32(a: V, b: V) -> V {
                unsafe { $mul(a, b) }
            }
            #[inline(always)]
            pub(crate) fn and(a: V, b: V) -> V {
                unsafe { $and(a, b) }
            }
            #[inline(always)]
            pub(crate) fn or(a: V, b: V) -> V {
                unsafe { $or(a, b) }
            }
            #[inline(always)]
            pub(crate) fn splat64(x: u64) -> V {
                unsafe { $set1(x as i64) }
            }
            #[inline(always)]
            pub(crate) fn shr<const N: $imm>(a: V) -> V {
                unsafe { $srli::<N>(a) }
            }
            #[inline(always)]
            pub(crate) fn shl<const N: $imm>(a: V) -> V {
                unsafe { $slli::<N>(a) }
            }
            /// Rotation left (AVX-512F/VL): a shift left where the top N bits are zero, which
            /// the compiler does not merge with other shifts into a multiplication.
            #[inline(always)]
            pub(crate) fn rol<const N: i32>(a: V) -> V {
                unsafe { $rol::<N>(a) }
            }
            /// acc + low 52 bits of a * b (52-bit operands).
            #[inline(always)]
            pub(crate) fn madd52lo(acc: V, a: V, b: V) -> V {
                unsafe { $madd52lo(acc, a, b) }
            }
            /// acc + high 52 bits of a * b (52-bit operands).
            #[inline(always)]
            pub(crate) fn madd52hi(acc: V, a: V, b: V) -> V {
                unsafe { $madd52hi(acc, a, b) }
            }
            #[inline(always)]
            pub(crate) fn load(words: &[u64; $w]) -> V {
                // SAFETY: reads exactly the array (unaligned load).
                unsafe { $loadu(words.as_ptr() as *const V) }
            }
            /// Lane j = lane 0 of `v` where bit j of `mask` is set, else lane j of `src`
            /// (AVX-512F, and VL for ymm: IFMA code only).
            #[inline(always)]
            pub(crate) fn lane0_or(src: V, mask: u8, v: V) -> V {
                unsafe { $mask_permutexvar(src, mask, ZV, v) }
            }
            /// Lane j = lane j of `v` where bit j of `mask` is set, else lane j of `src`
            /// (AVX-512F, and VL for ymm: IFMA code only).
            #[inline(always)]
            pub(crate) fn keep_or(src: V, mask: u8, v: V) -> V {
                unsafe { $mask_blend(mask, src, v) }
            }
            /// Lane j = lane j - z of `v` for j >= z, zero below (AVX-512F, and VL for ymm:
            /// IFMA code only).
            #[inline(always)]
            pub(crate) fn shift_up(v: V, z: usize) -> V {
                // Lane j reads lane (j - z) mod W: the indices formed in a register from a
                // constant, not stored word by word and loaded whole, which stalled the load
                // (Poly1305 with a key on IFMA, TSC cycles/byte, 144 B 0.88 -> 0.75-0.83,
                // 192 B 0.66 -> 0.57-0.62).
                let iota: [u64; $w] = core::array::from_fn(|j| j as u64);
                let idx = and(add(load(&iota), splat64(($w - z) as u64)), splat64($w - 1));
                let keep = (((1u32 << $w) - 1) & !((1u32 << z) - 1)) as u8;
                unsafe { $maskz_permutexvar(keep, idx, v) }
            }
            /// Limb vectors as words, limb-major.
            #[inline(always)]
            pub(crate) fn store_limbs(limbs: &[V], out: &mut [u64]) {
                for (i, limb) in limbs.iter().enumerate() {
                    out[i * $w..(i + 1) * $w].copy_from_slice(&store(*limb));
                }
            }
            /// [`store_limbs`]' words back as L limb vectors.
            #[inline(always)]
            pub(crate) fn load_limbs<const L: usize>(words: &[u64]) -> [V; L] {
                let mut out = [ZV; L];
                for (i, limb) in out.iter_mut().enumerate() {
                    *limb = load(words[i * $w..(i + 1) * $w].try_into().expect("a limb"));
                }
                out
            }
            /// The sum of the lanes (wrapping).
            #[inline(always)]
            pub(crate) fn hsum(v: V) -> u64 {
                super::$hsum(v)
            }
            #[inline(always)]
            pub(crate) fn store(v: V) -> [u64; $w] {
                let mut out = [0u64; $w];
                // SAFETY: writes exactly the array (unaligned store).
                unsafe { $storeu(out.as_mut_ptr() as *mut V, v) };
                out
            }
        }
    };
}

width_ops!(
    ymm,
    __m256i,
    i32,
    lanes = 4,
    add = _mm256_add_epi64,
    mul32 = _mm256_mul_epu32,
    and = _mm256_and_si256,
    or = _mm256_or_si256,
    srli = _mm256_srli_epi64,
    slli = _mm256_slli_epi64,
    rol = _mm256_rol_epi64,
    set1 = _mm256_set1_epi64x,
    loadu = _mm256_loadu_si256,
    storeu = _mm256_storeu_si256,
    madd52lo = _mm256_madd52lo_epu64,
    madd52hi = _mm256_madd52hi_epu64,
    mask_permutexvar = _mm256_mask_permutexvar_epi64,
    maskz_permutexvar = _mm256_maskz_permutexvar_epi64,
    mask_blend = _mm256_mask_blend_epi64,
    hsum = hsum256
);

width_ops!(
    zmm,
    __m512i,
    u32,
    lanes = 8,
    add = _mm512_add_epi64,
    mul32 = _mm512_mul_epu32,
    and = _mm512_and_si512,
    or = _mm512_or_si512,
    srli = _mm512_srli_epi64,
    slli = _mm512_slli_epi64,
    rol = _mm512_rol_epi64,
    set1 = _mm512_set1_epi64,
    loadu = _mm512_loadu_si512,
    storeu = _mm512_storeu_si512,
    madd52lo = _mm512_madd52lo_epu64,
    madd52hi = _mm512_madd52hi_epu64,
    mask_permutexvar = _mm512_mask_permutexvar_epi64,
    maskz_permutexvar = _mm512_maskz_permutexvar_epi64,
    mask_blend = _mm512_mask_blend_epi64,
    hsum = hsum512
);

/// The wrapping sum of 4 lanes in registers (AVX2): lanes stored to the stack and read back
/// one by one waited on the store in some processes and not in others (whether the store
/// split a cache line): 8-decBRWHash1305 with a key at 64 B took 69 or 101 TSC cycles.
#[inline(always)]
fn hsum256(v: core::arch::x86_64::__m256i) -> u64 {
    use core::arch::x86_64::*;
    unsafe {
        let s = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        let t = _mm_add_epi64(s, _mm_unpackhi_epi64(s, s));
        _mm_cvtsi128_si64(t) as u64
    }
}

/// [`hsum256`] of 8 lanes (AVX-512F).
#[inline(always)]
fn hsum512(v: core::arch::x86_64::__m512i) -> u64 {
    use core::arch::x86_64::*;
    unsafe {
        hsum256(_mm256_add_epi64(
            _mm512_castsi512_si256(v),
            _mm512_extracti64x4_epi64::<1>(v),
        ))
    }
}

/// Carry-less arithmetic on the 128-bit lanes of a zmm register (VPCLMULQDQ, AVX-512F/BW),
/// shared by the GF(2^128) and GF(2^256) lane types.
pub(crate) mod clmul512 {
    use core::arch::x86_64::*;

    /// All-zero bits are a valid vector.
    // SAFETY: plain data of the same size.
    pub(crate) const ZV: __m512i = unsafe { core::mem::transmute::<[u64; 8], __m512i>([0; 8]) };

    #[inline(always)]
    pub(crate) fn xor(a: __m512i, b: __m512i) -> __m512i {
        unsafe { _mm512_xor_si512(a, b) }
    }
    /// a + b + c (one instruction).
    #[inline(always)]
    pub(crate) fn xor3(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
        unsafe { _mm512_ternarylogic_epi64::<0x96>(a, b, c) }
    }
    /// Per 128-bit lane: the 64x64 carry-less product of the qwords IMM selects.
    #[inline(always)]
    pub(crate) fn clmul<const IMM: i32>(a: __m512i, b: __m512i) -> __m512i {
        unsafe { _mm512_clmulepi64_epi128::<IMM>(a, b) }
    }
    /// Per 128-bit lane: shift left by 64 bits.
    #[inline(always)]
    pub(crate) fn shl64(a: __m512i) -> __m512i {
        unsafe { _mm512_bslli_epi128::<8>(a) }
    }
    /// The 32 bytes at `off` of `a` in the low half, of `b` in the high half: a 256-bit load
    /// and a 256-bit insert from memory. On Intel that insert issues on either vector port,
    /// where a lane shuffle of two registers takes the port of the carry-less products.
    #[inline(always)]
    pub(crate) fn load_pairs(a: &[u8], b: &[u8], off: usize) -> __m512i {
        let (a, b) = (&a[off..off + 32], &b[off..off + 32]);
        // SAFETY: each slice holds the 32 bytes its load reads.
        unsafe {
            let lo = _mm256_loadu_si256(a.as_ptr() as *const __m256i);
            let hi = _mm256_loadu_si256(b.as_ptr() as *const __m256i);
            _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi)
        }
    }

    /// Per lane j, the 16 bytes at `off` of `sbs[j]` (first) and the 16 at `off + 16`
    /// (second): two [`load_pairs`] and two lane shuffles, where a 4x4 transpose takes eight
    /// shuffles for four blocks.
    #[inline(always)]
    pub(crate) fn load_lanes2(sbs: &[&[u8]], off: usize) -> [__m512i; 2] {
        let a = load_pairs(sbs[0], sbs[1], off);
        let c = load_pairs(sbs[2], sbs[3], off);
        // SAFETY: AVX-512F, which every caller of this module has.
        unsafe {
            [
                _mm512_shuffle_i64x2::<0x88>(a, c),
                _mm512_shuffle_i64x2::<0xdd>(a, c),
            ]
        }
    }

    /// The first 16 bytes of `bytes`.
    #[inline(always)]
    fn load16(bytes: &[u8]) -> __m128i {
        let bytes = &bytes[..16];
        // SAFETY: the slice holds the 16 bytes the load reads.
        unsafe { _mm_loadu_si128(bytes.as_ptr() as *const __m128i) }
    }

    /// The 16 bytes at `off` of each of four slices, in 128-bit lanes 0..3.
    #[inline(always)]
    pub(crate) fn load_lanes(rows: &[&[u8]], off: usize) -> __m512i {
        four_lanes([
            load16(&rows[0][off..]),
            load16(&rows[1][off..]),
            load16(&rows[2][off..]),
            load16(&rows[3][off..]),
        ])
    }

    /// `x[j]` in 128-bit lane j.
    #[inline(always)]
    pub(crate) fn four_lanes(x: [__m128i; 4]) -> __m512i {
        unsafe {
            let v = _mm512_castsi128_si512(x[0]);
            let v = _mm512_inserti32x4::<1>(v, x[1]);
            let v = _mm512_inserti32x4::<2>(v, x[2]);
            _mm512_inserti32x4::<3>(v, x[3])
        }
    }

    /// Per 128-bit lane: [a.q0, b.q0].
    #[inline(always)]
    pub(crate) fn unpack_lo(a: __m512i, b: __m512i) -> __m512i {
        unsafe { _mm512_unpacklo_epi64(a, b) }
    }
    /// Per 128-bit lane: [a.q1, b.q1].
    #[inline(always)]
    pub(crate) fn unpack_hi(a: __m512i, b: __m512i) -> __m512i {
        unsafe { _mm512_unpackhi_epi64(a, b) }
    }

    /// Per 128-bit lane: shift right by 64 bits.
    #[inline(always)]
    pub(crate) fn shr64(a: __m512i) -> __m512i {
        unsafe { _mm512_bsrli_epi128::<8>(a) }
    }
}
