//! x86-64 SIMD backends.
//!
//! Soundness rule for this module: the vector types here (and their `Field` and `Lanes`
//! methods, which use intrinsics inside `unsafe` blocks) are only ever created and used inside
//! the `#[target_feature]` entry points of this module, which callers reach only after
//! [`Backend::cpu_supports`](super::Backend::cpu_supports) confirmed the features (a key's
//! backend is checked when the key is made). Everything between an entry point and the
//! intrinsics is `#[inline(always)]`, so it is compiled with the entry point's features.
//! (Hence no closures and no `array::map` / `array::from_fn` around intrinsics: a closure
//! cannot be `#[inline(always)]`, and one the inliner leaves out of line calls every
//! intrinsic as a function, several times slower.)

pub(crate) mod gf128c;
pub(crate) mod gf128x4;
pub(crate) mod gf256c;
pub(crate) mod gf256x4;
mod halves;
mod ops;
mod radix26;
mod radix44;

use crate::construct::{
    exact_table, poly_exact, BinHasher, BinPowers, BinWide, DecLanes, DecPeriods, Halves,
    PolyStream, Powers, ScalarHasher, WeightTable,
};
use crate::eval::G;
use crate::field::{BinaryField, Fp1271, Fp1305, PrimeField};
use crate::Algorithm;

pub(crate) use radix26::{Fp1271x4, Fp1271x8, Fp1305x4, Fp1305x8};
pub(crate) use radix44::{Fp1271x4i, Fp1271x8i, Fp1305x4i, Fp1305x8i};

/// A 64-byte-aligned local, for [`align_frame!`].
#[repr(align(64))]
struct FrameAlign {
    _byte: u8,
}

/// Realign the stack frame of the vector entry point it starts to 64 bytes: LLVM then gives
/// its zmm and ymm spill slots their own alignment. The frame is otherwise only 16-byte
/// aligned, and a spill slot lies across two cache lines or not as the caller's stack depth
/// falls (in the streamed 4-Hash1271 kernel every 64-byte spill and reload was split, and the
/// instruction after the spills of the key's squarings held a fifth of its samples). Used
/// where it was measured to pay: the d-2LHash entry points, whose trees spill. Intel Xeon
/// host, min TSC cycles of 3 alternating runs, unaligned -> aligned: 64 KiB with a key
/// 4-Hash1271 7888 -> 7526, 5-Hash1271 8146 -> 7870; streamed in 4 KiB updates 4-Hash1271
/// 10822 -> 10530, 3-2LHash1305 9824 -> 9270; 256 B to 4 KiB within 1%. (On the c-decBRWHash
/// entry points it cost short messages up to 6%: 8-decBRWHash1305 1 KiB 168 -> 178.)
macro_rules! align_frame {
    () => {
        let frame = FrameAlign { _byte: 0 };
        core::hint::black_box(&frame);
    };
}

/// The lane types of each prime.
pub(crate) trait X86Lanes: PrimeField {
    /// AVX2: 4 lanes, radix 2^26.
    type X4: crate::construct::Lanes<Self>;
    /// AVX-512F: 8 lanes, radix 2^26, whose halves are `X4`.
    type X8: Halves<Self, Half = Self::X4>;
    /// AVX-512 IFMA on ymm: 4 lanes, radix 2^44.
    type I4: crate::construct::Lanes<Self>;
    /// AVX-512 IFMA on zmm: 8 lanes, radix 2^44, whose halves are `I4`.
    type I8: Halves<Self, Half = Self::I4>;
}

impl X86Lanes for Fp1305 {
    type X4 = Fp1305x4;
    type X8 = Fp1305x8;
    type I4 = Fp1305x4i;
    type I8 = Fp1305x8i;
}

impl X86Lanes for Fp1271 {
    type X4 = Fp1271x4;
    type X8 = Fp1271x8;
    type I4 = Fp1271x4i;
    type I8 = Fp1271x8i;
}

/// The CPU's vendor ("AuthenticAMD", "GenuineIntel", ...) and family (base family plus
/// extended family, as the vendors' manuals define the displayed family), if its vendor
/// string is one of those two.
pub(crate) fn cpu_family() -> Option<(&'static str, u32)> {
    use core::arch::x86_64::__cpuid;
    // (CPUID exists on every x86-64 CPU, and leaves 0 and 1 always answer.)
    let (l0, l1) = (__cpuid(0), __cpuid(1));
    let mut vendor = [0u8; 12];
    vendor[..4].copy_from_slice(&l0.ebx.to_le_bytes());
    vendor[4..8].copy_from_slice(&l0.edx.to_le_bytes());
    vendor[8..].copy_from_slice(&l0.ecx.to_le_bytes());
    let vendor = match &vendor {
        b"AuthenticAMD" => "AuthenticAMD",
        b"GenuineIntel" => "GenuineIntel",
        _ => return None,
    };
    let base = (l1.eax >> 8) & 0xf;
    let family = if base == 0xf {
        base + ((l1.eax >> 20) & 0xff)
    } else {
        base
    };
    Some((vendor, family))
}

/// A 16-byte digest's bytes, zero-padded to 32, from its little-endian integer, built in an
/// xmm register: a `Digest` is moved with 16-byte loads, and bytes stored as two 8-byte
/// halves just before such a load stall its store-to-load forwarding (see `Digest::from_u128`).
#[inline(always)]
pub(crate) fn digest_bytes(v: u128) -> [u8; 32] {
    use core::arch::x86_64::{__m128i, _mm_set_epi64x, _mm_setzero_si128};
    // SAFETY: SSE2 is part of x86-64, so every x86-64 CPU runs these; two `__m128i` are 32
    // bytes of plain data and every bit pattern is a valid `[u8; 32]` (lane 0 holds the low
    // 64 bits, so the memory order is little-endian).
    unsafe {
        let low = _mm_set_epi64x((v >> 64) as i64, v as i64);
        core::mem::transmute::<[__m128i; 2], [u8; 32]>([low, _mm_setzero_si128()])
    }
}

/// The scalar backend's entry points: the 64-bit schedule of `construct::scalar` compiled
/// with BMI2 (`mulx`, `shlx`/`shrx`). (ADX would add nothing: LLVM emits `adc` for the
/// carry chains of `u128` sums either way.)
#[target_feature(enable = "bmi2")]
pub(crate) fn scalar_update<F: PrimeField>(s: &mut ScalarHasher<F>, p: &Powers<F>, data: &[u8]) {
    s.update(p, data)
}

#[target_feature(enable = "bmi2")]
pub(crate) fn scalar_finish<F: PrimeField>(s: &mut ScalarHasher<F>, p: &Powers<F>) -> F {
    s.finish(p)
}

#[target_feature(enable = "bmi2")]
pub(crate) fn scalar_finish_ref<F: PrimeField>(s: &ScalarHasher<F>, p: &Powers<F>) -> F {
    s.finish_ref(p)
}

#[target_feature(enable = "bmi2")]
pub(crate) fn scalar_one_shot<F: PrimeField, const S: usize>(
    alg: Algorithm,
    p: &Powers<F, S>,
    msg: &[u8],
) -> F {
    crate::construct::scalar_one_shot(alg, p, msg)
}

#[target_feature(enable = "bmi2")]
pub(crate) fn scalar_dec_linear<F: PrimeField>(x: F, c: usize, msg: &[u8]) -> Option<F> {
    crate::construct::dec_linear_key(x, c, msg)
}

#[target_feature(enable = "bmi2")]
pub(crate) fn scalar_dec_linear_powers<F: PrimeField>(
    p: &Powers<F>,
    c: usize,
    msg: &[u8],
) -> Option<F> {
    crate::construct::dec_linear_powers(p, c, msg)
}

#[target_feature(enable = "bmi2")]
pub(crate) fn scalar_horner<F: PrimeField>(x: F, msg: &[u8]) -> F {
    crate::construct::horner_one_shot(x, msg)
}

#[target_feature(enable = "bmi2")]
pub(crate) fn scalar_brw<F: PrimeField>(x: F, t: u8, msg: &[u8]) -> Option<F> {
    crate::construct::brw_key(x, t, msg)
}

#[target_feature(enable = "bmi2")]
pub(crate) fn scalar_two_level<F: PrimeField>(x: F, d: u8, msg: &[u8]) -> Option<F> {
    crate::construct::two_level_key(x, d, msg)
}

#[target_feature(enable = "bmi2")]
pub(crate) fn scalar_poly1305(r: &crate::field::Clamped, msg: &[u8]) -> Fp1305 {
    crate::construct::poly1305_horner(r, msg)
}

/// d-2LHash of a whole message of at least one super-block on 4 IFMA lanes (ymm), with a
/// key's squarings `sq` (x^(2^j) for j <= d + 2).
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512ifma,avx512vbmi,bmi2")]
pub(crate) fn two_level_ifma4<F: X86Lanes>(sq: &[F], d: u8, msg: &[u8]) -> F {
    align_frame!();
    crate::construct::two_level_lanes::<F, F::I4>(sq, d, msg)
}

/// [`two_level_ifma4`] from the key alone (one-shot).
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512ifma,avx512vbmi,bmi2")]
pub(crate) fn two_level_key_ifma4<F: X86Lanes>(x: F, d: u8, msg: &[u8]) -> F {
    align_frame!();
    crate::construct::two_level_lanes_key::<F, F::I4>(x, d, msg)
}

/// [`two_level_ifma4`] on 8 IFMA lanes (zmm) folded into 4 at the end, with x^(2^j) for
/// j <= d + 3; for d >= 3 and messages of at least 8 super-blocks.
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512ifma,avx512vbmi,bmi2")]
pub(crate) fn two_level_ifma8<F: X86Lanes>(sq: &[F], d: u8, msg: &[u8]) -> F {
    align_frame!();
    crate::construct::two_level_lanes_halves::<F, F::I8>(sq, d, msg)
}

/// Whole groups of 4 super-blocks into 4 IFMA lanes of Horner in gamma^4
/// (`construct::two_level_groups`).
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512ifma,avx512vbmi")]
pub(crate) fn two_level_groups_ifma4<F: X86Lanes>(call: crate::construct::GroupsCall<'_, F>) {
    align_frame!();
    crate::construct::two_level_groups::<F, F::I4>(call)
}

/// [`two_level_groups_ifma4`] on 8 IFMA lanes (zmm): groups of 8 super-blocks.
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512ifma,avx512vbmi")]
pub(crate) fn two_level_groups_ifma8<F: X86Lanes>(call: crate::construct::GroupsCall<'_, F>) {
    align_frame!();
    crate::construct::two_level_groups::<F, F::I8>(call)
}

/// Entry points: each compiles a construction's hot path with the backend's features; the
/// one-shot entry keeps the state on its stack (a boxed state is a 64-byte-aligned heap
/// allocation, which glibc serves slowly: about 300 TSC cycles per message). `$wipe` zeroizes
/// a state (its vectors written with the backend's features).
macro_rules! entry {
    ($feature:literal, $update:ident, $finish:ident, $one_shot:ident, $wipe:ident, $state:ident, $lanes:ident) => {
        #[target_feature(enable = $feature)]
        pub(crate) fn $one_shot<F: X86Lanes>(p: &Powers<F>, msg: &[u8]) -> F {
            $state::<F, F::$lanes>::one_shot(p, msg)
        }

        #[target_feature(enable = $feature)]
        pub(crate) fn $update<F: X86Lanes, const S: usize>(
            s: &mut $state<F, F::$lanes>,
            p: &Powers<F, S>,
            data: &[u8],
        ) {
            s.update(p, data)
        }

        #[target_feature(enable = $feature)]
        pub(crate) fn $finish<F: X86Lanes>(s: &mut $state<F, F::$lanes>, p: &Powers<F>) -> F {
            s.finish(p)
        }

        #[target_feature(enable = $feature)]
        pub(crate) fn $wipe<F: X86Lanes>(s: &mut $state<F, F::$lanes>) {
            zeroize::Zeroize::zeroize(s)
        }
    };
}

entry!(
    "avx2",
    dec_update_avx2,
    dec_finish_avx2,
    dec_one_shot_avx2,
    dec_wipe_avx2,
    DecLanes,
    X4
);
entry!(
    "avx512f",
    dec_update_avx512,
    dec_finish_avx512,
    dec_one_shot_avx512,
    dec_wipe_avx512,
    DecLanes,
    X8
);
entry!(
    "avx2",
    poly_update_avx2,
    poly_finish_avx2,
    poly_one_shot_avx2,
    poly_wipe_avx2,
    PolyStream,
    X4
);
entry!(
    "avx512f",
    poly_update_avx512,
    poly_finish_avx512,
    poly_one_shot_avx512,
    poly_wipe_avx512,
    PolyStream,
    X8
);
entry!(
    "avx512f,avx512vl,avx512bw,avx512ifma,avx512vbmi",
    dec_update_ifma4,
    dec_finish_ifma4,
    dec_one_shot_ifma4,
    dec_wipe_ifma4,
    DecLanes,
    I4
);
entry!(
    "avx512f,avx512vl,avx512bw,avx512ifma,avx512vbmi",
    dec_update_ifma8,
    dec_finish_ifma8,
    dec_one_shot_ifma8,
    dec_wipe_ifma8,
    DecLanes,
    I8
);
entry!(
    "avx512f,avx512vl,avx512bw,avx512ifma,avx512vbmi",
    poly_update_ifma8,
    poly_finish_ifma8,
    poly_one_shot_ifma8,
    poly_wipe_ifma8,
    PolyStream,
    I8
);
entry!(
    "avx512f,avx512vl,avx512bw,avx512ifma,avx512vbmi",
    periods_update_ifma8,
    periods_finish_ifma8,
    periods_one_shot_ifma8,
    periods_wipe_ifma8,
    DecPeriods,
    I8
);
entry!(
    "avx512f",
    periods_update_avx512,
    periods_finish_avx512,
    periods_one_shot_avx512,
    periods_wipe_avx512,
    DecPeriods,
    X8
);

/// c-decBRWHash of a whole message from a raw key's first squarings (`one_shot_raw`), the
/// state on the stack: one entry point per c-decBRWHash state.
macro_rules! raw_entry {
    ($($feature:literal, $name:ident, $state:ident, $lanes:ident;)*) => {$(
        #[target_feature(enable = $feature)]
        pub(crate) fn $name<F: X86Lanes>(known: &[F], msg: &[u8]) -> F {
            $state::<F, F::$lanes>::one_shot_raw(known, msg)
        }
    )*};
}

raw_entry! {
    "avx2", dec_raw_avx2, DecLanes, X4;
    "avx512f", dec_raw_avx512, DecLanes, X8;
    "avx512f", periods_raw_avx512, DecPeriods, X8;
    "avx512f,avx512vl,avx512bw,avx512ifma,avx512vbmi", dec_raw_ifma4, DecLanes, I4;
    "avx512f,avx512vl,avx512bw,avx512ifma,avx512vbmi", dec_raw_ifma8, DecLanes, I8;
    "avx512f,avx512vl,avx512bw,avx512ifma,avx512vbmi", periods_raw_ifma8, DecPeriods, I8;
}

/// The stream values of c-decBRWHash of a whole message on a backend's lanes (multi-core
/// hashing joins pieces stream by stream).
#[cfg(feature = "parallel")]
macro_rules! streams_entry {
    ($feature:literal, $name:ident, $state:ident, $lanes:ident) => {
        #[target_feature(enable = $feature)]
        pub(crate) fn $name<F: X86Lanes>(p: &Powers<F>, msg: &[u8]) -> [F; 16] {
            $state::<F, F::$lanes>::stream_values(p, msg)
        }
    };
}

#[cfg(feature = "parallel")]
streams_entry!("avx2", dec_streams_avx2, DecLanes, X4);
#[cfg(feature = "parallel")]
streams_entry!("avx512f", dec_streams_avx512, DecLanes, X8);
#[cfg(feature = "parallel")]
streams_entry!("avx512f", periods_streams_avx512, DecPeriods, X8);
#[cfg(feature = "parallel")]
streams_entry!(
    "avx512f,avx512vl,avx512bw,avx512ifma,avx512vbmi",
    dec_streams_ifma4,
    DecLanes,
    I4
);
#[cfg(feature = "parallel")]
streams_entry!(
    "avx512f,avx512vl,avx512bw,avx512ifma,avx512vbmi",
    dec_streams_ifma8,
    DecLanes,
    I8
);
#[cfg(feature = "parallel")]
streams_entry!(
    "avx512f,avx512vl,avx512bw,avx512ifma,avx512vbmi",
    periods_streams_ifma8,
    DecPeriods,
    I8
);

/// A key's lane weights of c-decBRWHash (`construct::WeightTable`) on a backend's lanes.
macro_rules! weights_entry {
    ($feature:literal, $name:ident, $lanes:ident) => {
        #[target_feature(enable = $feature)]
        pub(crate) fn $name<F: X86Lanes>(p: &Powers<F>) -> Option<WeightTable> {
            WeightTable::new::<F, F::$lanes, { crate::eval::SQUARES }>(p)
        }
    };
}

/// A c-decBRWHash key's weights of messages of at most 2c blocks on 8 IFMA lanes
/// (`construct::WeightTable::linear`).
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512ifma,avx512vbmi")]
pub(crate) fn linear_weights_ifma8<F: X86Lanes>(x: F, c: usize, pairs: &[F; 16]) -> WeightTable {
    WeightTable::linear::<F, F::I8>(x, c, pairs)
}

/// c-decBRWHash of a message of at most 2c blocks from those weights
/// (`construct::dec_linear_lanes`).
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512ifma,avx512vbmi")]
pub(crate) fn dec_linear_ifma8<F: X86Lanes>(
    t: &WeightTable,
    x: F,
    c: usize,
    msg: &[u8],
) -> Option<F> {
    crate::construct::dec_linear_lanes::<F, F::I8>(t, x, c, msg)
}

/// c-decBRWHash of 3 ..= 8 blocks per stream with a key's powers, flat on 8 IFMA lanes
/// (`construct::dec_flat`).
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512ifma,avx512vbmi")]
pub(crate) fn dec_flat_ifma8<F: X86Lanes>(p: &Powers<F>, c: usize, msg: &[u8]) -> Option<F> {
    crate::construct::dec_flat::<F, F::I8>(p, c, msg)
}

weights_entry!("avx2", weights_avx2, X4);
weights_entry!("avx512f", weights_avx512, X8);
weights_entry!(
    "avx512f,avx512vl,avx512bw,avx512ifma,avx512vbmi",
    weights_ifma4,
    I4
);
weights_entry!(
    "avx512f,avx512vl,avx512bw,avx512ifma,avx512vbmi",
    weights_ifma8,
    I8
);

/// Hash2L and vecHash2L on PCLMULQDQ: the generic `BinHasher` over `Gf128c` / `Gf256c`.
/// polyHash / Poly1305 of a whole message with exact lane powers (`construct::poly_exact`):
/// `xw` = x^1 .. x^8 from a key, or `None` to compute them here; `table` a key's cached
/// power table; and the entry point that builds that table.
macro_rules! exact_entry {
    ($feature:literal, $name:ident, $table:ident, $lanes:ident) => {
        #[target_feature(enable = $feature)]
        pub(crate) fn $name<F: X86Lanes>(
            x: F,
            xw: Option<&[F; G]>,
            table: Option<&[u64]>,
            msg: &[u8],
        ) -> F {
            poly_exact::<F, F::$lanes>(x, xw.map(|xw| &xw[..]), table, msg)
        }

        #[target_feature(enable = $feature)]
        pub(crate) fn $table<F: X86Lanes>(xw: &[F; G]) -> Vec<u64> {
            exact_table::<F, F::$lanes>(xw)
        }
    };
}

exact_entry!("avx2", exact_avx2, table_avx2, X4);
exact_entry!("avx512f", exact_avx512, table_avx512, X8);
exact_entry!(
    "avx512f,avx512vl,avx512bw,avx512ifma,avx512vbmi",
    exact_ifma8,
    table_ifma8,
    I8
);

/// [`exact_ifma8`] on 4 ymm lanes, for one-shot calls on CPUs that run zmm in halves
/// (`super::zmm_in_halves`).
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512ifma,avx512vbmi")]
pub(crate) fn exact_ifma4<F: X86Lanes>(x: F, xw: Option<&[F; G]>, msg: &[u8]) -> F {
    poly_exact::<F, F::I4>(x, xw.map(|xw| &xw[..]), None, msg)
}

macro_rules! clmul_entries {
    ($field:ty, $update:ident, $next:ident, $finish:ident, $powers:ident, $one_shot:ident, $vector:ident) => {
        /// Hash2L of a whole message (`construct::hash2l_one_shot`), and vecHash2L of a
        /// whole vector.
        #[target_feature(enable = "pclmulqdq,sse4.1")]
        pub(crate) fn $one_shot(p: &BinPowers<$field>, msg: &[u8]) -> $field {
            crate::construct::hash2l_one_shot(p, msg)
        }

        #[target_feature(enable = "pclmulqdq,sse4.1")]
        pub(crate) fn $vector(p: &BinPowers<$field>, components: &[&[u8]]) -> $field {
            crate::construct::vec_hash2l_one_shot(p, components)
        }

        #[target_feature(enable = "pclmulqdq,sse4.1")]
        pub(crate) fn $update(h: &mut BinHasher<$field>, p: &BinPowers<$field>, data: &[u8]) {
            h.update(p, data)
        }

        #[target_feature(enable = "pclmulqdq,sse4.1")]
        pub(crate) fn $next(h: &mut BinHasher<$field>, p: &BinPowers<$field>) {
            h.next_component(p)
        }

        #[target_feature(enable = "pclmulqdq,sse4.1")]
        pub(crate) fn $finish(
            mut h: BinHasher<$field>,
            p: &BinPowers<$field>,
            vector: bool,
        ) -> $field {
            if vector {
                h.finish_vector(p)
            } else {
                h.finish_hash2l(p)
            }
        }

        /// The key powers into `p` (from `Powers::empty`), computed with PCLMULQDQ.
        #[target_feature(enable = "pclmulqdq,sse4.1")]
        #[allow(clippy::too_many_arguments)]
        pub(crate) fn $powers(
            p: &mut BinPowers<$field>,
            key: &[u8],
            n_sq: usize,
            gamma_log: Option<usize>,
            n_hg: usize,
            n_end: usize,
            vector: bool,
            x3: bool,
        ) {
            // x loaded here, from the key's bytes: built by the caller and passed through
            // memory, its halves' 8-byte stores stalled this function's 16-byte load of it
            // (store-to-load forwarding), a fifth of a one-shot Hash2L128 call at 64 B.
            debug_assert_eq!(key.len(), <$field as BinaryField>::BYTES);
            let x = <$field as BinaryField>::from_bytes(key);
            // Binary fields use no Horner powers of x (only of gamma = x^32); the end
            // weights (x^2 and, for vecHash2L, x times gamma^e) of the VPCLMULQDQ one-shot
            // paths.
            p.fill_hg(x, n_sq, 1, gamma_log, n_hg);
            if gamma_log.is_some() && n_end > 0 {
                p.fill_end_weights(n_end, vector);
                if x3 {
                    p.fill_end_x3();
                }
            }
        }
    };
}

clmul_entries!(
    gf128c::Gf128c,
    bin128_update,
    bin128_next,
    bin128_finish,
    bin128_powers,
    bin128_one_shot,
    bin128_vector
);
clmul_entries!(
    gf256c::Gf256c,
    bin256_update,
    bin256_next,
    bin256_finish,
    bin256_powers,
    bin256_one_shot,
    bin256_vector
);

/// Hash2L and vecHash2L on VPCLMULQDQ: four super-blocks per step (`BinWide`).
macro_rules! wide_entries {
    ($scalar:ty, $lanes:ty, $update:ident, $next:ident, $finish:ident, $finish_copy:ident, $one_shot:ident, $vector:ident) => {
        /// Hash2L of a whole message, without a state (a boxed state is a 64-byte-aligned
        /// heap allocation, slow in glibc, and holds its bytes in a buffer).
        #[target_feature(enable = "vpclmulqdq,avx512f,avx512bw,pclmulqdq,sse4.1")]
        pub(crate) fn $one_shot(p: &BinPowers<$scalar>, msg: &[u8]) -> $scalar {
            crate::construct::hash2l_wide_one_shot::<$scalar, $lanes>(p, msg)
        }

        #[target_feature(enable = "vpclmulqdq,avx512f,avx512bw,pclmulqdq,sse4.1")]
        pub(crate) fn $vector(p: &BinPowers<$scalar>, components: &[&[u8]]) -> $scalar {
            crate::construct::vec_hash2l_wide_one_shot::<$scalar, $lanes>(p, components)
        }

        #[target_feature(enable = "vpclmulqdq,avx512f,avx512bw,pclmulqdq,sse4.1")]
        pub(crate) fn $update(
            h: &mut BinWide<$scalar, $lanes>,
            p: &BinPowers<$scalar>,
            data: &[u8],
        ) {
            h.update(p, data)
        }

        #[target_feature(enable = "vpclmulqdq,avx512f,avx512bw,pclmulqdq,sse4.1")]
        pub(crate) fn $next(h: &mut BinWide<$scalar, $lanes>, p: &BinPowers<$scalar>) {
            h.next_component(p)
        }

        #[target_feature(enable = "vpclmulqdq,avx512f,avx512bw,pclmulqdq,sse4.1")]
        pub(crate) fn $finish(
            h: &mut BinWide<$scalar, $lanes>,
            p: &BinPowers<$scalar>,
            vector: bool,
        ) -> $scalar {
            h.finish(p, vector)
        }

        #[target_feature(enable = "vpclmulqdq,avx512f,avx512bw,pclmulqdq,sse4.1")]
        pub(crate) fn $finish_copy(
            h: &BinWide<$scalar, $lanes>,
            p: &BinPowers<$scalar>,
            vector: bool,
        ) -> $scalar {
            h.finish_copy(p, vector)
        }
    };
}

wide_entries!(
    gf128c::Gf128c,
    gf128x4::Gf128x4,
    wide128_update,
    wide128_next,
    wide128_finish,
    wide128_finish_copy,
    wide128_one_shot,
    wide128_vector
);
wide_entries!(
    gf256c::Gf256c,
    gf256x4::Gf256x4,
    wide256_update,
    wide256_next,
    wide256_finish,
    wide256_finish_copy,
    wide256_one_shot,
    wide256_vector
);

#[cfg(test)]
mod tests;
