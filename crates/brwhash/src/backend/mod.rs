//! Backends: which code computes a function, chosen once per [`Key`](crate::Key).
//!
//! The portable backend is the executable definition of every function (the generic code in
//! `field`, `eval` and `construct`); every other backend must produce the same bytes and is
//! tested against it. Selection happens in one place, [`Backend::select`]:
//!
//! 1. an explicit choice (API: [`Key::with_backend`](crate::Key::with_backend)) or the
//!    `BRWHASH_BACKEND` environment variable, which is an error when the backend cannot run
//!    here — never a silent fallback;
//! 2. otherwise the fastest backend that is built for the algorithm and supported by the CPU.

use core::fmt;
use core::str::FromStr;
use std::sync::OnceLock;

use crate::algorithm::Family;
use crate::construct::Powers;
#[cfg(not(target_arch = "x86_64"))]
use crate::field::PrimeField;
use crate::{Algorithm, Error};

mod aligned;
#[cfg(target_arch = "x86_64")]
mod x86;

pub(crate) use aligned::AlignedBox;

/// A 16-byte digest's bytes (`v` little-endian), zero-padded to 32: on x86-64 written as
/// one vector, which a caller's 16-byte copy of the digest can forward from.
#[inline(always)]
pub(crate) fn digest_bytes(v: u128) -> [u8; 32] {
    #[cfg(target_arch = "x86_64")]
    {
        x86::digest_bytes(v)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mut bytes = [0u8; 32];
        bytes[..16].copy_from_slice(&v.to_le_bytes());
        bytes
    }
}

/// The environment variable that forces a backend for every key made without an explicit one.
///
/// ```
/// // `BRWHASH_BACKEND=portable brwhash digest ...` forces the portable code.
/// assert_eq!(brwhash::backend::BACKEND_ENV, "BRWHASH_BACKEND");
/// ```
pub const BACKEND_ENV: &str = "BRWHASH_BACKEND";

/// A code path, from the portable definition to the widest SIMD instructions.
///
/// ```
/// use brwhash::Backend;
/// let here: Vec<&str> = Backend::ALL.iter().filter(|b| b.cpu_supports()).map(|b| b.name()).collect();
/// assert!(here.contains(&"portable"));
/// assert_eq!("AVX2".parse::<Backend>().unwrap(), Backend::Avx2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Backend {
    /// Generic Rust, any target: the executable specification.
    Portable,
    /// x86-64 scalar 64-bit code (mulx).
    Scalar,
    /// AVX2, radix 2^26, 4 lanes.
    Avx2,
    /// AVX-512F, radix 2^26, 8 lanes.
    Avx512,
    /// AVX-512 IFMA (52-bit multiply-add), with AVX-512VL/BW/VBMI.
    Ifma,
    /// PCLMULQDQ (binary fields).
    Pclmul,
    /// VPCLMULQDQ (binary fields, 256/512-bit).
    Vpclmul,
}

impl Backend {
    /// Every backend, in the order `brwhash list` prints them.
    ///
    /// ```
    /// let names: Vec<_> = brwhash::Backend::ALL.iter().map(|b| b.name()).collect();
    /// assert_eq!(names, ["portable", "scalar", "avx2", "avx512", "ifma", "pclmul", "vpclmul"]);
    /// ```
    pub const ALL: [Backend; 7] = [
        Backend::Portable,
        Backend::Scalar,
        Backend::Avx2,
        Backend::Avx512,
        Backend::Ifma,
        Backend::Pclmul,
        Backend::Vpclmul,
    ];

    /// The name used by `BRWHASH_BACKEND` and `brwhash list`.
    ///
    /// ```
    /// assert_eq!(brwhash::Backend::Ifma.name(), "ifma");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Backend::Portable => "portable",
            Backend::Scalar => "scalar",
            Backend::Avx2 => "avx2",
            Backend::Avx512 => "avx512",
            Backend::Ifma => "ifma",
            Backend::Pclmul => "pclmul",
            Backend::Vpclmul => "vpclmul",
        }
    }

    /// Whether this CPU has the instructions the backend needs.
    ///
    /// ```
    /// assert!(brwhash::Backend::Portable.cpu_supports());
    /// ```
    #[inline]
    pub fn cpu_supports(self) -> bool {
        match self {
            Backend::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Backend::Scalar => std::is_x86_feature_detected!("bmi2"),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => std::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 => {
                std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512vl")
                    && std::is_x86_feature_detected!("avx512bw")
            }
            #[cfg(target_arch = "x86_64")]
            Backend::Ifma => {
                // VBMI and BW load 15-byte blocks (every IFMA CPU has them).
                std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512vl")
                    && std::is_x86_feature_detected!("avx512bw")
                    && std::is_x86_feature_detected!("avx512ifma")
                    && std::is_x86_feature_detected!("avx512vbmi")
            }
            #[cfg(target_arch = "x86_64")]
            Backend::Pclmul => {
                std::is_x86_feature_detected!("pclmulqdq")
                    && std::is_x86_feature_detected!("sse4.1")
            }
            #[cfg(target_arch = "x86_64")]
            Backend::Vpclmul => {
                std::is_x86_feature_detected!("vpclmulqdq") && std::is_x86_feature_detected!("avx2")
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// Whether this build has code for `alg` on this backend.
    ///
    /// ```
    /// use brwhash::{Algorithm, Backend};
    /// assert!(Backend::Portable.implements(Algorithm::POLY1305));
    /// assert!(!Backend::Pclmul.implements(Algorithm::POLY1305)); // binary fields only
    /// ```
    #[inline]
    pub fn implements(self, alg: Algorithm) -> bool {
        let binary = matches!(alg.family(), Family::Hash2L(_) | Family::VecHash2L(_));
        self == Backend::Portable
            || Plan::of(alg, self).is_some()
            || (cfg!(target_arch = "x86_64")
                && matches!(self, Backend::Pclmul | Backend::Vpclmul)
                && binary)
            || (cfg!(target_arch = "x86_64") && self == Backend::Scalar && !binary)
    }

    /// Whether `alg` can run on this backend here: built for it and supported by the CPU.
    ///
    /// ```
    /// use brwhash::{Algorithm, Backend};
    /// assert!(Backend::Portable.check(Algorithm::HASH2L128).is_ok());
    /// let err = Backend::Vpclmul.check(Algorithm::POLY1305).unwrap_err();
    /// println!("{err}"); // backend vpclmul is not available: ...
    /// ```
    #[inline]
    pub fn check(self, alg: Algorithm) -> Result<(), Error> {
        // The answer for a backend that can run inline: a forced backend asks on every
        // one-shot call (three calls cost a short message about 10 TSC cycles).
        if self.cpu_supports() && self.implements(alg) {
            return Ok(());
        }
        self.unavailable(alg)
    }

    /// The error of [`check`](Self::check) for a backend that cannot run `alg` here.
    #[cold]
    #[inline(never)]
    fn unavailable(self, alg: Algorithm) -> Result<(), Error> {
        if !self.cpu_supports() {
            return Err(Error::BackendUnavailable {
                backend: self.name(),
                reason: "this CPU lacks the instructions it needs".into(),
            });
        }
        if !self.implements(alg) {
            return Err(Error::BackendUnavailable {
                backend: self.name(),
                reason: format!("this build has no {} code for {alg}", self.name()),
            });
        }
        Ok(())
    }

    /// The backend forced by `BRWHASH_BACKEND`, read once per process; `None` when unset
    /// or empty.
    ///
    /// ```
    /// // None unless BRWHASH_BACKEND is set; an unknown name there is an error.
    /// match brwhash::Backend::forced() {
    ///     Ok(Some(b)) => println!("forced: {b}"),
    ///     Ok(None) => println!("dispatched per algorithm"),
    ///     Err(e) => println!("bad BRWHASH_BACKEND: {e}"),
    /// }
    /// ```
    pub fn forced() -> Result<Option<Backend>, Error> {
        Backend::forced_ref().clone()
    }

    /// [`forced`](Self::forced) where it is kept: no clone of an error on every call.
    #[inline]
    fn forced_ref() -> &'static Result<Option<Backend>, Error> {
        static FORCED: OnceLock<Result<Option<Backend>, Error>> = OnceLock::new();
        FORCED.get_or_init(|| match std::env::var(BACKEND_ENV) {
            Ok(v) if !v.is_empty() => v.parse().map(Some),
            Ok(_) | Err(std::env::VarError::NotPresent) => Ok(None),
            Err(std::env::VarError::NotUnicode(v)) => {
                Err(Error::UnknownBackend(v.to_string_lossy().into_owned()))
            }
        })
    }

    /// The fastest backend built for `alg` and supported by this CPU (computed once per
    /// process for all algorithms: a one-shot call should not pay for detection).
    #[inline]
    fn default_for(alg: Algorithm) -> Backend {
        static DEFAULTS: OnceLock<Vec<Backend>> = OnceLock::new();
        DEFAULTS.get_or_init(|| {
            Algorithm::all()
                .into_iter()
                .map(|a| {
                    Backend::ALL
                        .iter()
                        .rev()
                        .copied()
                        .find(|b| b.check(a).is_ok())
                        .unwrap_or(Backend::Portable)
                })
                .collect()
        })[alg.index()]
    }

    /// The backend a key for `alg` uses: `requested`, else `BRWHASH_BACKEND`, else the
    /// fastest available. A requested or forced backend that cannot run is an error.
    ///
    /// ```
    /// use brwhash::{Algorithm, Backend};
    /// let alg = Algorithm::POLY1305;
    /// assert_eq!(Backend::select(alg, Some(Backend::Portable)).unwrap(), Backend::Portable);
    /// if Backend::forced().unwrap().is_none() {
    ///     // The fastest backend here: what Key::new(alg, ..) uses.
    ///     assert!(Backend::select(alg, None).unwrap().check(alg).is_ok());
    /// }
    /// ```
    #[inline(always)]
    pub fn select(alg: Algorithm, requested: Option<Backend>) -> Result<Backend, Error> {
        // The common case (nothing requested or forced) inline: a one-shot call on a short
        // message should not pay for an error's clone or a call.
        let choice = match requested {
            Some(b) => b,
            None => match Backend::forced_ref() {
                Ok(None) => return Ok(Backend::default_for(alg)),
                Ok(Some(b)) => *b,
                Err(e) => return Err(e.clone()),
            },
        };
        choice.check(alg).map(|()| choice)
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Backend {
    type Err = Error;

    fn from_str(s: &str) -> Result<Backend, Error> {
        Backend::ALL
            .iter()
            .copied()
            .find(|b| b.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| Error::UnknownBackend(s.to_string()))
    }
}

/// Which SIMD code runs an algorithm on a backend: the one table of what each backend
/// implements. Each plan accelerates one construction of `crate::construct` with a lane type
/// of `x86` (radix 2^26 for AVX2 / AVX-512F, radix 2^44 for IFMA).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Plan {
    /// c-decBRWHash with c = lanes: `DecLanes`.
    Dec(Lanes),
    /// 4-decBRWHash on 8 lanes, each half of a period in 4 of them: `DecPeriods`.
    DecPeriods(Lanes),
    /// polyHash and Poly1305 in W lanes with exact powers: `PolyStream` (streamed) and
    /// `poly_exact` (whole messages).
    Poly(Lanes),
    /// d-2LHash and d-Hash (past its polyHash branch) of whole messages, W super-blocks side
    /// by side (`construct::two_level_lanes`); no streaming state: streamed messages take
    /// the scalar schedule.
    TwoLevel(Lanes),
}

/// A SIMD lane type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lanes {
    /// AVX2, 4 lanes of radix 2^26.
    Avx2x4,
    /// AVX-512F, 8 lanes of radix 2^26.
    Avx512x8,
    /// AVX-512 IFMA, 4 lanes (ymm) of radix 2^44.
    Ifma4,
    /// AVX-512 IFMA, 8 lanes (zmm) of radix 2^44.
    Ifma8,
}

/// Bytes below which a 4-decBRWHash message of known length takes 4 ymm IFMA lanes rather
/// than periods over 8 zmm lanes (`Plan::for_length`): 1792, and 8192 where the CPU runs zmm
/// in halves ([`zmm_in_halves`]), whose 8 lanes cost as much per block as 4 and only add the
/// periods' joins (two dependent products each) and a cross-lane step. Measured on Zen 4,
/// min TSC cycles per message of 20 interleaved runs, periods vs 4 lanes, with a key /
/// one-shot: 2^130-5 2 KiB 384 / 568 vs 332 / 537, 3 KiB 534 / 724 vs 434 / 662, 4000 B
/// 676 / 858 vs 544 / 788, 4 KiB 576 / 796 vs 550 / 791, 5000 B 711 / 1150 vs 666 / 921,
/// 7936 B 1091 / 1332 vs 960 / 1227, 8 KiB 955 / 1225 vs 962 / 1271, 9000 B 1235 / 1348 vs
/// 1315 / 1378, 16 KiB 1737 / 2077 vs 1832 / 2367; 2^127-1 with a key 2 KiB 394 vs 366,
/// 5000 B 790 vs 701, 7000 B 1018 vs 923, 8 KiB 1251 vs 1309.
#[inline]
fn dec4_below() -> u64 {
    if zmm_in_halves() {
        8192
    } else {
        1792
    }
}

impl Plan {
    /// The plan for a message of known length (one-shot): 4-decBRWHash on IFMA takes 4 ymm
    /// lanes rather than periods over 8 lanes for short messages, which hold only short
    /// periods. Measured (timing example, precomputed key, TSC cycles per message, 4 lanes
    /// vs periods, two runs): 2^130-5: 238-255 vs 284-301 at 512 B, 306-309 vs 306-321 at
    /// 1 KiB, 440-465 vs 399-522 at 2 KiB; 2^127-1: 230 vs 243-252 at 768 B, 264 vs 241-257
    /// at 1 KiB, 385 vs 299-311 at 2 KiB. Since both combine the stream values in the
    /// lanes (`combine_lanes`), TSC cycles/byte with a key / one-shot, 4 lanes vs periods:
    /// 2^130-5 1536 B 0.206 / 0.282 vs 0.208 / 0.282, 2 KiB 0.174 / 0.266 vs 0.162 / 0.255;
    /// 2^127-1 1 KiB 0.363 / 0.323 vs 0.387 / 0.343, 1536 B 0.208 / 0.252 vs 0.210 / 0.269,
    /// 2 KiB 0.178 / 0.247 vs 0.157 / 0.205: below 1792 bytes for both primes. Where the CPU
    /// runs zmm in halves, up to 8 KiB ([`dec4_below`]). Streams: [`for_stream`].
    ///
    /// [`for_stream`]: Self::for_stream
    fn for_length(self, length: Option<u64>) -> Plan {
        match (self, length) {
            (Plan::DecPeriods(Lanes::Ifma8), Some(n)) if n < dec4_below() => {
                Plan::Dec(Lanes::Ifma4)
            }
            _ => self,
        }
    }

    /// The plan for a stream whose updates are about `piece` bytes (the size of the update
    /// that builds its state): where the CPU runs zmm in halves, 4-decBRWHash on IFMA takes
    /// 4 ymm lanes rather than periods over 8 lanes unless the updates are large. An update
    /// runs only the periods it holds whole (4 KiB updates: periods of 16 chunks, half the
    /// longest) and holds the chunks left over, which 15-byte blocks leave in every
    /// update; 4 lanes take any whole chunk where it lies, and on such a CPU cost about
    /// what 8 lanes cost per chunk. Measured on Zen 4 (timing loop, `Hasher` per message,
    /// TSC cycles per message, periods vs 4 lanes):
    /// - 2^130-5, 64 KiB in updates of 1500 B 12267 vs 10892, 4 KiB 8489 vs 8107, 8 KiB
    ///   7686 vs 7700, 16 KiB 7442 vs 7634, 64 KiB 7235 vs 7567; 1 MiB in 8 KiB 118170 vs
    ///   117637, 16 KiB 113932 vs 117234; 16 KiB in 4 KiB 2545 vs 2407: below 16 KiB.
    /// - 2^127-1, 64 KiB in updates of 1500 B 13000 vs 11660, 4 KiB 11487 vs 9798, 16 KiB
    ///   9069 vs 8294, 32 KiB 8355 vs 8222, 64 KiB 7744 vs 8127; 1 MiB in 16 KiB 135811 vs
    ///   128999, 32 KiB 127608 vs 127959, 64 KiB 122381 vs 125541: below 32 KiB.
    ///
    /// Where zmm is whole, 8 lanes do twice the work per instruction and the periods stay.
    fn for_stream(self, alg: Algorithm, piece: usize) -> Plan {
        let lanes_below = match alg.prime() {
            Some(crate::Prime::P1271) => 32 << 10,
            _ => 16 << 10,
        };
        match self {
            Plan::DecPeriods(Lanes::Ifma8) if piece < lanes_below && zmm_in_halves() => {
                Plan::Dec(Lanes::Ifma4)
            }
            _ => self,
        }
    }

    #[inline]
    fn of(alg: Algorithm, backend: Backend) -> Option<Plan> {
        if !cfg!(target_arch = "x86_64") {
            return None;
        }
        let poly = matches!(alg.family(), Family::PolyHash(_) | Family::Poly1305);
        match (backend, alg.family()) {
            (Backend::Avx2, Family::DecBrwHash(4, _)) => Some(Plan::Dec(Lanes::Avx2x4)),
            (Backend::Avx512, Family::DecBrwHash(8, _)) => Some(Plan::Dec(Lanes::Avx512x8)),
            (Backend::Avx512, Family::DecBrwHash(4, _)) => Some(Plan::DecPeriods(Lanes::Avx512x8)),
            (Backend::Ifma, Family::DecBrwHash(4, _)) => Some(Plan::DecPeriods(Lanes::Ifma8)),
            (Backend::Ifma, Family::DecBrwHash(8, _)) => Some(Plan::Dec(Lanes::Ifma8)),
            (Backend::Avx2, _) if poly => Some(Plan::Poly(Lanes::Avx2x4)),
            (Backend::Avx512, _) if poly => Some(Plan::Poly(Lanes::Avx512x8)),
            (Backend::Ifma, _) if poly => Some(Plan::Poly(Lanes::Ifma8)),
            (Backend::Ifma, Family::TwoLHash(..) | Family::DHash(..)) => {
                Some(Plan::TwoLevel(Lanes::Ifma4))
            }
            _ => None,
        }
    }
}

/// The c stream values of c-decBRWHash of a whole message on `backend`'s lanes, or `None`
/// when the backend has no lanes for it (multi-core hashing then computes the streams with
/// the portable code, or not at all).
#[cfg(feature = "parallel")]
pub(crate) fn dec_stream_values<F: SimdPrime>(
    alg: Algorithm,
    backend: Backend,
    p: &Powers<F>,
    msg: &[u8],
) -> Option<[F; 16]> {
    #[cfg(target_arch = "x86_64")]
    {
        let plan = Plan::of(alg, backend)?.for_length(Some(msg.len() as u64));
        // SAFETY (every arm): `backend` is a key's, which passed `Backend::check`: the CPU
        // has the entry point's features.
        match plan {
            Plan::Dec(Lanes::Avx2x4) => Some(unsafe { x86::dec_streams_avx2(p, msg) }),
            Plan::Dec(Lanes::Avx512x8) => Some(unsafe { x86::dec_streams_avx512(p, msg) }),
            Plan::DecPeriods(Lanes::Avx512x8) => {
                Some(unsafe { x86::periods_streams_avx512(p, msg) })
            }
            Plan::Dec(Lanes::Ifma4) => Some(unsafe { x86::dec_streams_ifma4(p, msg) }),
            Plan::Dec(Lanes::Ifma8) => Some(unsafe { x86::dec_streams_ifma8(p, msg) }),
            Plan::DecPeriods(Lanes::Ifma8) => Some(unsafe { x86::periods_streams_ifma8(p, msg) }),
            _ => None,
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (alg, backend, p, msg);
        None
    }
}

/// How far ahead of the bytes they load the bulk loops of the lane kernels prefetch. On
/// Zen 5 the hardware prefetchers keep up with a plain sequential read but not with several
/// of the kernels' load patterns (15-byte blocks, strided super-blocks, two halves of a
/// period): from memory rather than cache, polyHash1271 ran at 4 GB/s and Hash2L128 at
/// 10 GB/s without this, at 26 and 24 GB/s with it (example `memory_speed`, one thread,
/// 128 MiB).
pub(crate) const PREFETCH_AHEAD: usize = 8 << 10;

/// The cache level a kernel prefetches into, as the `TO_L2` parameter of [`prefetch`]:
/// PREFETCHT1 (the L2 cache and below). On Zen 4, prefetches into L1 (PREFETCHT0) capped
/// Hash2L128 at about 10 GB/s from memory (the L1 has few misses in flight, and the L2's
/// own prefetcher no longer saw the stream); into L2 it runs from memory about as fast as
/// from cache. TSC cycles for 64 MiB with a key, T0 -> T1: Hash2L128 17.8 M -> 6.6 M,
/// 4-decBRWHash1305 14.1 M -> 10.0 M, Poly1305 11.3 M either way, polyHash1271 11.1 M ->
/// 12.5 M (so polyHash keeps [`TO_L1`]); from cache (8 KiB to 1 MiB) within 1%.
pub(crate) const TO_L2: bool = true;
/// PREFETCHT0: every cache level (see [`TO_L2`]).
pub(crate) const TO_L1: bool = false;

/// Bytes between prefetches: a cache line.
const STEP: usize = 64;

/// One prefetch of the line at `at` into L2 (`TO_L2`) or L1. A no-op off x86-64 (and under
/// Miri, which models no cache).
#[inline(always)]
fn prefetch_line<const TO_L2: bool>(at: *const u8) {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0, _MM_HINT_T1};
        // SAFETY: PREFETCHT0 / PREFETCHT1 (SSE, in every x86-64 CPU) neither fault nor change
        // memory; the pointer is only an address (built with `wrapping_add`, never
        // dereferenced).
        unsafe {
            if TO_L2 {
                _mm_prefetch::<_MM_HINT_T1>(at.cast());
            } else {
                _mm_prefetch::<_MM_HINT_T0>(at.cast());
            }
        }
    }
    #[cfg(any(not(target_arch = "x86_64"), miri))]
    let _ = at;
}

/// Asks the CPU to bring the cache lines of bytes `offset..offset + len` counted from the
/// start of `bytes` into the cache (bytes a loop will load soon; `TO_L2`: see [`TO_L2`]),
/// but none at or past the address `end`: the end of the caller's data (see [`end_of`]).
/// Lines past the data would cost their instructions for nothing, and on pages that are not
/// mapped, a page walk each: at 1 KiB (all 8 KiB ahead of it) 4-decBRWHash1305 took 10%
/// longer with them. The addresses may lie past the end of `bytes`: a prefetch never faults
/// and reads nothing the program sees.
#[inline(always)]
pub(crate) fn prefetch<const TO_L2: bool>(bytes: &[u8], offset: usize, len: usize, end: usize) {
    let start = bytes.as_ptr().wrapping_add(offset);
    let len = len.min(end.saturating_sub(start.addr()));
    // One address in every line of the range.
    let first = start.addr() % STEP;
    if len > 0 {
        for at in (0..first + len).step_by(STEP) {
            prefetch_line::<TO_L2>(start.wrapping_add(at.wrapping_sub(first)));
        }
    }
}

/// [`prefetch`] of `len` bytes at `offset` that the caller knows lie in its data: no bound
/// check, one prefetch per 64 bytes (the lines of an aligned range; a range that is not
/// aligned has its last line fetched with the next range).
#[inline(always)]
pub(crate) fn prefetch_lines<const TO_L2: bool>(bytes: &[u8], offset: usize, len: usize) {
    let start = bytes.as_ptr().wrapping_add(offset);
    for at in (0..len).step_by(STEP) {
        prefetch_line::<TO_L2>(start.wrapping_add(at));
    }
}

/// [`prefetch`] of the bytes [`PREFETCH_AHEAD`] past `unit`, as many as it has, below `end`:
/// the unit a loop over consecutive units will load that far ahead.
#[inline(always)]
pub(crate) fn prefetch_ahead<const TO_L2: bool>(unit: &[u8], end: usize) {
    prefetch::<TO_L2>(unit, PREFETCH_AHEAD, unit.len(), end);
}

/// The address just past `data`: the bound of [`prefetch`] for a loop over `data`.
#[inline(always)]
pub(crate) fn end_of(data: &[u8]) -> usize {
    data.as_ptr_range().end.addr()
}

/// Prime fields with SIMD lane types on this target.
#[cfg(target_arch = "x86_64")]
pub(crate) trait SimdPrime: x86::X86Lanes {}
#[cfg(target_arch = "x86_64")]
impl<F: x86::X86Lanes> SimdPrime for F {}

/// Prime fields with SIMD lane types on this target (none here).
#[cfg(not(target_arch = "x86_64"))]
pub(crate) trait SimdPrime: PrimeField {}
#[cfg(not(target_arch = "x86_64"))]
impl<F: PrimeField> SimdPrime for F {}

/// A streamed d-2LHash's lane kernel (`SimdState::two_level_kernel`): one
/// `construct::GroupsCall`.
pub(crate) type TwoLevelKernel<F> = fn(crate::construct::GroupsCall<'_, F>);

/// [`TwoLevelKernel`] on 4 IFMA lanes.
#[cfg(target_arch = "x86_64")]
fn two_level_groups_ifma4<F: SimdPrime>(call: crate::construct::GroupsCall<'_, F>) {
    // SAFETY: `SimdState::two_level_kernel` hands this out only where the CPU has the IFMA
    // backend (`Backend::cpu_supports`), so it has the entry point's features.
    unsafe { x86::two_level_groups_ifma4(call) }
}

/// [`TwoLevelKernel`] on 8 IFMA lanes (zmm).
#[cfg(target_arch = "x86_64")]
fn two_level_groups_ifma8<F: SimdPrime>(call: crate::construct::GroupsCall<'_, F>) {
    // SAFETY: as for `two_level_groups_ifma4`: the same backend's features.
    unsafe { x86::two_level_groups_ifma8(call) }
}

/// Declares the SIMD states and their dispatch to the `#[target_feature]` entry points.
macro_rules! simd_states {
    ($( $variant:ident: $plan:pat => $state:ident<$lanes:ident>, $update:ident, $finish:ident, $one_shot:ident, $wipe:ident; )*) => {
        /// The state of a prime-field function that a SIMD backend computes as a whole.
        #[derive(Clone)]
        pub(crate) enum SimdState<F: SimdPrime> {
            $(
                // Each state boxed on its own: a stream zeroes and moves only its own state,
                // not the largest one (the enum was 4.3 KiB). An `AlignedBox`: the vectors
                // are 32- or 64-byte aligned, which `Box` gets from glibc's slow path.
                #[cfg(target_arch = "x86_64")]
                $variant(AlignedBox<crate::construct::$state<F, F::$lanes>>),
            )*
            #[doc(hidden)]
            _Unused(core::marker::PhantomData<F>, core::convert::Infallible),
        }

        impl<F: SimdPrime> SimdState<F> {
            /// The state for `alg` on `backend`, or `None` when the backend has no code for
            /// it (only the portable backend reaches that case: [`Backend::check`] refuses a
            /// backend that does not implement an algorithm).
            pub fn new(alg: Algorithm, backend: Backend, length: Option<u64>) -> Option<Self> {
                Self::with_plan(Plan::of(alg, backend)?.for_length(length))
            }

            /// The state of a stream whose updates are about `piece` bytes (the update that
            /// builds it): see [`Plan::for_stream`].
            #[inline]
            pub fn for_stream(alg: Algorithm, backend: Backend, piece: usize) -> Option<Self> {
                Self::with_plan(Plan::of(alg, backend)?.for_stream(alg, piece))
            }

            #[inline]
            fn with_plan(plan: Plan) -> Option<Self> {
                match plan {
                    $(
                        #[cfg(target_arch = "x86_64")]
                        $plan => Some(SimdState::$variant(AlignedBox::default())),
                    )*
                    #[allow(unreachable_patterns)]
                    _ => None,
                }
            }

            /// The value v of a whole message, the state on the stack (no allocation);
            /// `None` as for [`new`](Self::new).
            pub fn one_shot(
                alg: Algorithm,
                backend: Backend,
                p: &Powers<F>,
                msg: &[u8],
            ) -> Option<F> {
                match Plan::of(alg, backend)?.for_length(Some(msg.len() as u64)) {
                    $(
                        // SAFETY: callers pass a key's backend, which passed `Backend::check`:
                        // the CPU has the entry point's features.
                        #[cfg(target_arch = "x86_64")]
                        $plan => Some(unsafe { x86::$one_shot(p, msg) }),
                    )*
                    #[allow(unreachable_patterns)]
                    _ => None,
                }
            }

            #[inline]
            pub fn update(&mut self, p: &Powers<F>, data: &[u8]) {
                match self {
                    $(
                        // SAFETY: this state exists only for a key whose backend passed
                        // `Backend::check`, so the CPU has the entry point's features.
                        #[cfg(target_arch = "x86_64")]
                        SimdState::$variant(s) => unsafe { x86::$update(s, p, data) },
                    )*
                    SimdState::_Unused(_, never) => match *never {},
                }
            }

            /// [`finish`](Self::finish) of a copy, the state left as it was: the copy lives on
            /// the stack (no allocation).
            pub fn finish_copy(&self, p: &Powers<F>) -> F {
                match self {
                    $(
                        #[cfg(target_arch = "x86_64")]
                        SimdState::$variant(s) => {
                            // Built empty, then filled in place: a clone returned by value
                            // moved the state's arrays whole (`Stack`'s `Clone`).
                            let mut copy = Default::default();
                            Clone::clone_from(&mut copy, &**s);
                            // SAFETY: as in `update`.
                            unsafe {
                                let v = x86::$finish(&mut copy, p);
                                x86::$wipe(&mut copy);
                                v
                            }
                        }
                    )*
                    SimdState::_Unused(_, never) => match *never {},
                }
            }

            /// The value v before `out()` (the state is used up).
            pub fn finish(&mut self, p: &Powers<F>) -> F {
                match self {
                    $(
                        // SAFETY: as in `update`.
                        #[cfg(target_arch = "x86_64")]
                        SimdState::$variant(s) => unsafe { x86::$finish(s, p) },
                    )*
                    SimdState::_Unused(_, never) => match *never {},
                }
            }
        }

        #[cfg(test)]
        impl<F: SimdPrime> SimdState<F> {
            /// Whether the state is as wiped, but for its vectors.
            pub fn is_wiped(&self) -> bool {
                match self {
                    $(
                        #[cfg(target_arch = "x86_64")]
                        SimdState::$variant(s) => s.is_wiped(),
                    )*
                    SimdState::_Unused(_, never) => match *never {},
                }
            }
        }

        /// Wipes the state in place (its box stays, as a new state): the vectors are written
        /// by the backend's entry point, with its features.
        impl<F: SimdPrime> zeroize::Zeroize for SimdState<F> {
            fn zeroize(&mut self) {
                match self {
                    $(
                        // SAFETY: as in `update`.
                        #[cfg(target_arch = "x86_64")]
                        SimdState::$variant(s) => unsafe { x86::$wipe(s) },
                    )*
                    SimdState::_Unused(_, never) => match *never {},
                }
            }
        }
    };
}

simd_states! {
    Avx2Dec: Plan::Dec(Lanes::Avx2x4) => DecLanes<X4>, dec_update_avx2, dec_finish_avx2, dec_one_shot_avx2, dec_wipe_avx2;
    Avx512Dec: Plan::Dec(Lanes::Avx512x8) => DecLanes<X8>, dec_update_avx512, dec_finish_avx512, dec_one_shot_avx512, dec_wipe_avx512;
    Avx512Dec4: Plan::DecPeriods(Lanes::Avx512x8) => DecPeriods<X8>, periods_update_avx512, periods_finish_avx512, periods_one_shot_avx512, periods_wipe_avx512;
    IfmaDec4Short: Plan::Dec(Lanes::Ifma4) => DecLanes<I4>, dec_update_ifma4, dec_finish_ifma4, dec_one_shot_ifma4, dec_wipe_ifma4;
    IfmaDec4: Plan::DecPeriods(Lanes::Ifma8) => DecPeriods<I8>, periods_update_ifma8, periods_finish_ifma8, periods_one_shot_ifma8, periods_wipe_ifma8;
    IfmaDec8: Plan::Dec(Lanes::Ifma8) => DecLanes<I8>, dec_update_ifma8, dec_finish_ifma8, dec_one_shot_ifma8, dec_wipe_ifma8;
    Avx2Poly: Plan::Poly(Lanes::Avx2x4) => PolyStream<X4>, poly_update_avx2, poly_finish_avx2, poly_one_shot_avx2, poly_wipe_avx2;
    Avx512Poly: Plan::Poly(Lanes::Avx512x8) => PolyStream<X8>, poly_update_avx512, poly_finish_avx512, poly_one_shot_avx512, poly_wipe_avx512;
    IfmaPoly: Plan::Poly(Lanes::Ifma8) => PolyStream<I8>, poly_update_ifma8, poly_finish_ifma8, poly_one_shot_ifma8, poly_wipe_ifma8;
}

impl<F: SimdPrime> SimdState<F> {
    /// Message length (bytes) up to which scalar code (the scalar backend's, where the CPU
    /// has BMI2, as every AVX2 CPU does) is faster than this backend's. Measured with
    /// `cargo run --release -p brwhash --example timing` (precomputed key, TSC cycles/byte,
    /// Zen 5 build machine), scalar vs SIMD forced, at 256..2048 bytes:
    /// - Poly1305 / polyHash1305: IFMA (streamed, `PolyStream`, TSC cycles per message:
    ///   scalar vs IFMA) 640 B 728 vs 801, 768 B 818 vs 826, 1 KiB 974 vs 802: 768;
    ///   AVX2 0.79 vs 0.75 at 768 B, AVX-512F 0.78 vs 0.91 at 768 B and 0.77 vs 0.68 at
    ///   1 KiB: 896 (measured with the earlier lane Horner).
    /// - polyHash1271: IFMA (streamed) 1 KiB 784 vs 927, 1536 B 1005 vs 969: 1536; AVX2
    ///   0.44 vs 0.44 at 2 KiB: 2048.
    /// - 4-decBRWHash1305: IFMA 1.52 vs 1.61 at 512 B, 1.24 vs 1.15 at 768 B: 640; AVX2 1.69
    ///   vs 1.73 at 320 B, 1.57 vs 1.50 at 384 B: 352; AVX-512F 1.16 vs 1.27 at 768 B, 1.11
    ///   vs 0.85 at 1 KiB: 896.
    /// - 4-decBRWHash1271: IFMA 0.74 vs 0.80 at 1 KiB, 0.64 vs 0.61 at 1500 B: 1280; AVX2
    ///   0.74 vs 0.72 at 1 KiB: 1024; AVX-512F 0.65 vs 0.85 at 1536 B, 0.60 vs 0.68 at
    ///   2 KiB: 2048.
    /// - 8-decBRWHash: IFMA and AVX-512F win from 384-640 B on (2^130-5: scalar 1.40 vs
    ///   1.64 at 384 B, 2.31 vs 1.64 at 512 B; 2^127-1: 1.52 vs 1.33 at 512 B): 448.
    pub fn crossover(alg: Algorithm, backend: Backend) -> usize {
        let p1271 = alg.prime() == Some(crate::Prime::P1271);
        let c8 = matches!(alg.family(), Family::DecBrwHash(8, _));
        match (Plan::of(alg, backend), p1271) {
            (Some(Plan::Poly(Lanes::Ifma8)), false) => 768,
            (Some(Plan::Poly(Lanes::Ifma8)), true) => 1536,
            (Some(Plan::Poly(_)), false) => 896,
            (Some(Plan::Poly(_)), true) => 2048,
            (Some(Plan::TwoLevel(_)), _) => Self::two_level_crossover(alg),
            (Some(_), _) if c8 => 448,
            (Some(Plan::Dec(Lanes::Avx2x4)), false) => 352,
            (Some(Plan::Dec(Lanes::Avx2x4)), true) => 1024,
            (Some(Plan::DecPeriods(Lanes::Avx512x8)), false) => 896,
            (Some(Plan::DecPeriods(Lanes::Avx512x8)), true) => 2048,
            (Some(_), false) => 640,
            (Some(_), true) => 1280,
            (None, _) => 0,
        }
    }

    /// c-decBRWHash of a whole message from a raw key's first squarings `known` (x, x^2,
    /// ..; the others are computed on the way), the state on the stack; `None` when `alg`'s
    /// plan on `backend` is not c-decBRWHash's.
    pub fn dec_one_shot_raw(
        alg: Algorithm,
        backend: Backend,
        known: &[F],
        msg: &[u8],
    ) -> Option<F> {
        let plan = Plan::of(alg, backend)?.for_length(Some(msg.len() as u64));
        // SAFETY (every arm): callers pass a backend that passed `Backend::check` (or
        // `Backend::select`), so the CPU has the entry point's features.
        match plan {
            #[cfg(target_arch = "x86_64")]
            Plan::Dec(Lanes::Avx2x4) => Some(unsafe { x86::dec_raw_avx2(known, msg) }),
            #[cfg(target_arch = "x86_64")]
            Plan::Dec(Lanes::Avx512x8) => Some(unsafe { x86::dec_raw_avx512(known, msg) }),
            #[cfg(target_arch = "x86_64")]
            Plan::DecPeriods(Lanes::Avx512x8) => {
                Some(unsafe { x86::periods_raw_avx512(known, msg) })
            }
            #[cfg(target_arch = "x86_64")]
            Plan::Dec(Lanes::Ifma4) => Some(unsafe { x86::dec_raw_ifma4(known, msg) }),
            #[cfg(target_arch = "x86_64")]
            Plan::Dec(Lanes::Ifma8) => Some(unsafe { x86::dec_raw_ifma8(known, msg) }),
            #[cfg(target_arch = "x86_64")]
            Plan::DecPeriods(Lanes::Ifma8) => Some(unsafe { x86::periods_raw_ifma8(known, msg) }),
            _ => {
                let _ = (known, msg);
                None
            }
        }
    }

    /// polyHash / Poly1305 of a whole message (v before `out()`) on the lanes of `alg`'s
    /// plan on `backend` with exact powers (`construct::poly_exact`), or `None` when the plan
    /// is not polyHash's. `xw` = x^1 .. x^8 when a key has them.
    #[inline(always)]
    pub fn poly_one_shot(
        alg: Algorithm,
        backend: Backend,
        x: F,
        xw: Option<&[F; crate::eval::G]>,
        table: Option<&[u64]>,
        msg: &[u8],
    ) -> Option<F> {
        match Plan::of(alg, backend)? {
            // SAFETY: `backend` passed `Backend::check` (the caller's key or selection), so
            // the CPU has the entry point's features.
            #[cfg(target_arch = "x86_64")]
            Plan::Poly(Lanes::Avx2x4) => Some(unsafe { x86::exact_avx2(x, xw, table, msg) }),
            #[cfg(target_arch = "x86_64")]
            Plan::Poly(Lanes::Avx512x8) => Some(unsafe { x86::exact_avx512(x, xw, table, msg) }),
            #[cfg(target_arch = "x86_64")]
            Plan::Poly(Lanes::Ifma8) if table.is_none() && halves_one_shot::<F>(msg.len()) => {
                Some(unsafe { x86::exact_ifma4(x, xw, msg) })
            }
            Plan::Poly(Lanes::Ifma8) => Some(unsafe { x86::exact_ifma8(x, xw, table, msg) }),
            _ => {
                let _ = (x, xw, table, msg);
                None
            }
        }
    }

    /// The power table a key caches for [`poly_one_shot`](Self::poly_one_shot) (`None` when
    /// `alg`'s plan on `backend` is not polyHash's, or the lanes take no table).
    pub fn poly_table(
        alg: Algorithm,
        backend: Backend,
        xw: &[F; crate::eval::G],
    ) -> Option<Vec<u64>> {
        let words = match Plan::of(alg, backend)? {
            // SAFETY: as in `poly_one_shot`.
            #[cfg(target_arch = "x86_64")]
            Plan::Poly(Lanes::Avx2x4) => unsafe { x86::table_avx2(xw) },
            #[cfg(target_arch = "x86_64")]
            Plan::Poly(Lanes::Avx512x8) => unsafe { x86::table_avx512(xw) },
            #[cfg(target_arch = "x86_64")]
            Plan::Poly(Lanes::Ifma8) => unsafe { x86::table_ifma8(xw) },
            _ => {
                let _ = xw;
                return None;
            }
        };
        (!words.is_empty()).then_some(words)
    }

    /// The lane weights a key caches for c-decBRWHash on the lanes of `alg`'s plan on
    /// `backend` (`construct::WeightTable`), or `None` when the plan is not c-decBRWHash's.
    /// 4-decBRWHash on IFMA combines on 4 ymm lanes both ways (`Plan::for_length`).
    pub fn weight_table(
        alg: Algorithm,
        backend: Backend,
        p: &Powers<F>,
    ) -> Option<crate::construct::WeightTable> {
        match Plan::of(alg, backend)? {
            // SAFETY: as in `poly_one_shot`.
            #[cfg(target_arch = "x86_64")]
            Plan::Dec(Lanes::Avx2x4) | Plan::DecPeriods(Lanes::Avx512x8) => unsafe {
                x86::weights_avx2(p)
            },
            #[cfg(target_arch = "x86_64")]
            Plan::Dec(Lanes::Avx512x8) => unsafe { x86::weights_avx512(p) },
            #[cfg(target_arch = "x86_64")]
            Plan::Dec(Lanes::Ifma4) | Plan::DecPeriods(Lanes::Ifma8) => unsafe {
                x86::weights_ifma4(p)
            },
            #[cfg(target_arch = "x86_64")]
            Plan::Dec(Lanes::Ifma8) => unsafe { x86::weights_ifma8(p) },
            _ => {
                let _ = p;
                None
            }
        }
    }

    /// The lane weights a c-decBRWHash key (c <= 8) caches for messages of at most 2c
    /// blocks (`construct::WeightTable::linear`) on `backend`, from its pair weights: on
    /// IFMA, whose 8 lanes take such a message in one or two vector products.
    pub fn linear_table(
        alg: Algorithm,
        backend: Backend,
        p: &Powers<F>,
    ) -> Option<crate::construct::WeightTable> {
        let c = match alg.family() {
            Family::DecBrwHash(c @ 1..=8, _) => c as usize,
            _ => return None,
        };
        let pairs = &**p.dec_pairs.get()?;
        match Plan::of(alg, backend)? {
            // SAFETY: as in `poly_one_shot`.
            #[cfg(target_arch = "x86_64")]
            Plan::Dec(Lanes::Ifma4 | Lanes::Ifma8) | Plan::DecPeriods(Lanes::Ifma8) => {
                Some(unsafe { x86::linear_weights_ifma8(p.x(), c, pairs) })
            }
            _ => {
                let _ = (c, pairs);
                None
            }
        }
    }

    /// c-decBRWHash of a message of 1 ..= 2c blocks with a key's
    /// [`linear_table`](Self::linear_table) (`None` for other lengths or tables).
    #[inline]
    pub fn dec_linear(
        backend: Backend,
        t: &crate::construct::WeightTable,
        x: F,
        c: usize,
        msg: &[u8],
    ) -> Option<F> {
        match backend {
            // SAFETY: a key holds a linear table only for an IFMA plan, and its backend
            // passed `Backend::check`, so the CPU has the entry point's features.
            #[cfg(target_arch = "x86_64")]
            Backend::Ifma => unsafe { x86::dec_linear_ifma8(t, x, c, msg) },
            _ => {
                let _ = (t, x, c, msg);
                None
            }
        }
    }

    /// c-decBRWHash (c = 4 or 8) of a message of 3 ..= 8 blocks per stream with a key's
    /// powers, flat on 8 lanes (`construct::dec_flat`), on `backend` (`None` for other
    /// lengths, or a backend without that code).
    #[inline]
    pub fn dec_flat(
        backend: Backend,
        p: &crate::construct::Powers<F>,
        c: usize,
        msg: &[u8],
    ) -> Option<F> {
        if !crate::construct::dec_flat_takes::<F>(c, msg.len()) {
            return None;
        }
        match backend {
            // SAFETY: the key's backend passed `Backend::check`, so the CPU has the entry
            // point's features.
            #[cfg(target_arch = "x86_64")]
            Backend::Ifma => unsafe { x86::dec_flat_ifma8(p, c, msg) },
            _ => {
                let _ = (p, c, msg);
                None
            }
        }
    }

    /// Bytes a stream holds before it builds its SIMD state: a message up to this length is
    /// finished by the whole-message code, whose set-up costs less than a streaming state's
    /// plus the copy. Measured with `brwhash bench --mode stream` (4 KiB updates, TSC
    /// cycles/byte, IFMA):
    /// - Poly1305 (`PolyStream`, holding 8 KiB vs nothing): 1 KiB 0.31 vs 0.36-0.41, 2 KiB
    ///   0.20 vs 0.21-0.23, 4 KiB 0.144 vs 0.13-0.15, 8 KiB 0.118 vs 0.098-0.105, 16 KiB
    ///   0.100 vs 0.080-0.083, 64 KiB 0.072 vs 0.066: 2 KiB.
    /// - 4-decBRWHash1305 (`DecPeriods`, holding 8 KiB / 4 KiB / 2 KiB / nothing beyond the
    ///   crossover; measured when the state, 7.7 KiB then, cost a copy to build): 1 KiB 0.51
    ///   / 0.51-0.53 / 0.51-0.52 / 0.62-0.69, 4 KiB 0.197-0.201 / 0.197-0.199 / 0.197-0.202 /
    ///   0.195-0.214, 8 KiB 0.145-0.148 / 0.154 / 0.132-0.134 / 0.132-0.143, 16 KiB
    ///   0.119-0.120 / 0.113 / 0.101-0.103 / 0.100-0.106, 64 KiB 0.083 / 0.081 / 0.078-0.079 /
    ///   0.077-0.079: 2 KiB, and for 8-decBRWHash (the same ordering). The smaller state
    ///   (2.2 KiB: `Tail`) then made 4 KiB 0.171-0.174 and 8 KiB 0.124-0.127 (holding 8 KiB
    ///   as before `AlignedBox`: 0.183, 0.140).
    /// - 4-decBRWHash1271 (`DecPeriods` on 15-byte blocks, whose 4 KiB updates never end on
    ///   a period: each update costs more), holding 8 KiB vs 2 KiB: 4 KiB 0.178 vs 0.206,
    ///   8 KiB 0.143 vs 0.158-0.161: 8 KiB. On Zen 5 (timing loop, TSC cycles per message
    ///   in 4 KiB updates, holding 8 KiB vs 2 KiB; 4 KiB was worse than both from 6000 B to
    ///   8 KiB): 3000 B 447-466 vs 526-550, 4 KiB 518-543 vs 499-508, 6000 B 702-705 vs
    ///   750-772, 8 KiB 851-881 vs 953-995, 12 KiB 1489-1537 vs 1247-1302, 16 KiB 1781-1834
    ///   vs 1539-1603, 64 KiB 5580-5614 vs 5182-5231: the copy and wipe of 8 KiB held cost
    ///   longer streams about 240 cycles; kept at 8 KiB, as streams of a few KiB lose as much.
    /// - Where zmm runs in halves, streams of small updates take 4 ymm lanes
    ///   (`Plan::for_stream`), which start anywhere: 4-decBRWHash1271 holding 8 KiB vs 2 KiB
    ///   (Zen 4, timing loop, TSC cycles per message) in 4 KiB updates 3000 B 783 vs 730,
    ///   6000 B 1289 vs 1153, 8 KiB 1651 vs 1429, 16 KiB 2913 vs 2512, 64 KiB 9556 vs 8998;
    ///   in 1500-byte updates 3000 B 806 vs 984, 6000 B 1337 vs 1444, 12000 B 2475 vs 2413:
    ///   2 KiB, as for 2^130-5.
    pub fn hold_bytes(alg: Algorithm, backend: Backend) -> usize {
        let p1271 = alg.prime() == Some(crate::Prime::P1271);
        match Plan::of(alg, backend) {
            // Streams of small updates take 4 lanes there (`Plan::for_stream`).
            Some(Plan::DecPeriods(Lanes::Ifma8)) if zmm_in_halves() => 2048,
            Some(Plan::DecPeriods(_)) if p1271 => 8192,
            _ => 2048,
        }
    }

    /// Whether `alg` has a SIMD state on `backend` ([`new`](Self::new) gives one).
    pub fn has_plan(alg: Algorithm, backend: Backend) -> bool {
        Plan::of(alg, backend).is_some_and(|p| !matches!(p, Plan::TwoLevel(_)))
    }

    /// d-2LHash and d-Hash on 4 IFMA lanes (`construct::two_level_lanes`) win from one whole
    /// group of 4 super-blocks for d >= 4, from 8 for d = 3 and 12 for d = 2 (whose
    /// super-blocks are short beside the lanes' end: the weights, the lanes' sum, a tree's
    /// levels); the bytes of n * (2^d - 1) - 1 blocks are the last to take scalar code
    /// (4-Hash1271: 885 bytes). Measured on Zen 4 with the count of super-blocks overridden,
    /// TSC cycles per message, min of 3, lanes vs scalar, at n super-blocks and 0 / 3 / 7
    /// blocks more: 4-Hash1271 with a key n = 3: 325 / 391 / 447 vs 292 / 315 / 355, n = 4:
    /// 241 / 317 / 354 vs 368 / 394 / 430, n = 5: 371 / 428 / 476 vs 450 / 465 / 510;
    /// one-shot n = 3 454 / 542 / 595 vs 367 / 470 / 509, n = 4 367 / 426 / 467 vs 442 / 536
    /// / 575, n = 5 503 / 560 / 605 vs 515 / 612 / 658; 4-Hash1305 one-shot n = 3 560 / 670 /
    /// 737 vs 571 / 658 / 740, n = 4 527 / 627 / 703 vs 689 / 775 / 858; 5-2LHash1271 one-shot
    /// n = 3 778 / 869 / 913 vs 587 / 697 / 739, n = 4 468 / 527 / 578 vs 731 / 846 / 893,
    /// n = 5 847 / 967 / 1023 vs 884 / 997 / 1044; 5-Hash1305 one-shot n = 4 720 / 814 / 885
    /// vs 1192 / 1274 / 1368; 3-Hash1271 with a key n = 6 256 / 315 / 264 vs 282 / 302 / 320,
    /// n = 8 243 / 311 / 308 vs 350 / 373 / 397; 2-Hash1305 one-shot n = 8 458 / 490 / 524 vs
    /// 399 / 434 / 502, n = 12 487 / 511 / 549 vs 514 / 542 / 606. (Before the short group
    /// went first, `construct::two_level_lanes`, the lanes won from 8 for every d.) With a
    /// key at 4 KiB / 64 KiB (TSC cycles per message, scalar vs lanes):
    /// 2-Hash1271 3034 / 32076 vs 953 / 10486, 3-Hash1271 1695 / 26051 vs 830 / 8110,
    /// 5-Hash1271 1691 / 23249 vs 1059 / 7952, 2-Hash1305 3729 / 58363 vs 958 / 12028,
    /// 4-Hash1305 2777 / 58568 vs 1250 / 11080, 5-2LHash1305 2931 / 41182 vs 1031 / 7254.
    ///
    /// Fewer than 4 super-blocks lie flat across the lanes (`construct::twolevel`: one tree
    /// per vector, three products deep). For 2^130-5 that wins from 2 super-blocks; for
    /// 2^127-1, whose scalar products are cheaper, scalar code stays ahead below 4. TSC
    /// cycles per message, min of 5, scalar vs flat, with a key / one-shot: 4-Hash1305
    /// 256 B (1 super-block) 252 / 357 vs 238 / 384, 500 B (2) 478 / 496 vs 423 / 457, 800 B
    /// (3) 659 / 702 vs 527 / 654; 5-Hash1305 520 B (1) 384 / 503 vs 292 / 460, 1100 B (2)
    /// 695 / 873 vs 433 / 617; 4-Hash1271 240 B 156 / 245 vs 185 / 278, 450 B 217 / 400 vs
    /// 257 / 358, 700 B 310 / 410 vs 325 / 437; 5-Hash1271 500 B 321 / 456 vs 335 / 473,
    /// 1000 B 502 / 556 vs 529 / 507. Re-measured on Zen 5, whose zmm run full width
    /// (4-Hash1271, timing loop, min TSC cycles with a key / one-shot, the lanes from 4 vs
    /// from 1 super-block, the count read from an environment variable in both builds):
    /// 240 B 104 / 224 vs 133 / 247, 450 B 152 / 269 vs 195 / 312, 512 B 185 / 328 vs
    /// 237 / 351, 700 B 220 / 334 vs 260 / 377, 885 B 292 / 432 vs 302 / 442: 4 there too.
    fn two_level_crossover(alg: Algorithm) -> usize {
        let d = match alg.family() {
            Family::TwoLHash(d, _) | Family::DHash(d, _) => d,
            _ => return 0,
        };
        let block = if alg.prime() == Some(crate::Prime::P1271) {
            15
        } else {
            16
        };
        let n = match d {
            2 => 12,
            3 => 8,
            // 2^130 - 5 lays 1 .. 3 super-blocks flat across the lanes
            // (`construct::twolevel::flat_delta`).
            _ if block == 16 => 2,
            _ => 4,
        };
        (n * ((1 << d) - 1) - 1) * block
    }

    /// Whether a whole d-2LHash (or long d-Hash) message of `len` bytes takes 8 IFMA lanes
    /// (zmm, `construct::two_level_lanes_halves`) rather than 4: for d >= 3 (the measured
    /// ones) where the CPU runs zmm at full width, from 8 super-blocks, but for r = 2 .. 4
    /// super-blocks past whole groups of
    /// 8 below 32 (r = nsb mod 8: on 8 lanes they take a tree as costly as a group, before
    /// the groups; 1 or 2 go to scalar code, `construct::twolevel::SCALAR_FRONT`). Measured
    /// on Zen 5, timing loop, min TSC cycles with a key, 4 lanes vs 8 (at n super-blocks
    /// and 100 more bytes; 50 for d = 5): 4-Hash1271 n = 8 344 / 282, 9 448 / 376, 10 461 /
    /// 438, 11 481 / 474, 12 432 / 510, 16 520 / 399, 17 620 / 477, 19 630 / 682, 20 588 /
    /// 682, 21 692 / 685, 24 689 / 500, 27 799 / 776, 28 757 / 783, 36 919 / 887, 52 1251 /
    /// 1085; 4-Hash1305 n = 8 360 / 321, 10 481 / 520, 12 442 / 526, 13 552 / 539, 16 519 /
    /// 435, 20 598 / 640, 24 682 / 539, 36 923 / 854; 5-Hash1271 n = 8 487 / 367, 12 656 /
    /// 991, 13 1212 / 1007, 16 835 / 578, 24 1163 / 793, 32 1498 / 1007; 3-Hash1305 n = 16
    /// 370 / 344, 20 409 / 442, 24 448 / 416, 32 526 / 461, 64 845 / 669, 100 1199 / 981.
    #[inline]
    fn two_level_eight(d: u8, len: usize) -> bool {
        let nsb = len.div_ceil(F::BLOCK) / ((1 << d) - 1);
        let r = nsb % 8;
        d >= 3 && nsb >= 8 && (r <= 1 || r >= 5 || nsb >= 32) && !zmm_in_halves()
    }

    /// The lanes' kernel of a streamed d-2LHash (or long d-Hash) on `backend`, with its lane
    /// count W: `kernel(call)` runs W lanes of Horner in
    /// gamma^W = `step` over whole groups of W super-blocks (`construct::two_level_groups`). `None` when
    /// `alg`'s plan on `backend` is not d-2LHash's or the CPU lacks the backend.
    pub fn two_level_kernel(
        alg: Algorithm,
        backend: Backend,
    ) -> Option<(TwoLevelKernel<F>, usize)> {
        if !backend.cpu_supports() {
            return None;
        }
        match Plan::of(alg, backend)? {
            // 8 lanes where whole messages take them (`two_level_eight`: d >= 3, zmm at
            // full width).
            #[cfg(target_arch = "x86_64")]
            Plan::TwoLevel(Lanes::Ifma4)
                if matches!(
                    alg.family(),
                    Family::TwoLHash(3.., _) | Family::DHash(3.., _)
                ) && !zmm_in_halves() =>
            {
                Some((two_level_groups_ifma8::<F>, 8))
            }
            #[cfg(target_arch = "x86_64")]
            Plan::TwoLevel(Lanes::Ifma4) => Some((two_level_groups_ifma4::<F>, 4)),
            _ => None,
        }
    }

    /// d-2LHash (or a long d-Hash) of a whole message of at least one super-block on the
    /// lanes of `alg`'s plan on `backend`, from the key's squarings `sq` (as many as
    /// `construct::lanes_squares` says), or from the key `x` = `sq[0]` alone when `sq` holds
    /// fewer; `None` when the plan is not d-2LHash's or the message is shorter.
    #[inline]
    pub fn two_level_one_shot(alg: Algorithm, backend: Backend, sq: &[F], msg: &[u8]) -> Option<F> {
        // At least one super-block; d-Hash below 2^d blocks is polyHash.
        let (d, fewest) = match alg.family() {
            Family::TwoLHash(d, _) => (d, (1 << d) - 1),
            Family::DHash(d, _) => (d, 1 << d),
            _ => return None,
        };
        if msg.len().div_ceil(F::BLOCK) < fewest {
            return None;
        }
        match Plan::of(alg, backend)? {
            // SAFETY: `backend` passed `Backend::check` (the caller's key or selection), so
            // the CPU has the entry point's features.
            #[cfg(target_arch = "x86_64")]
            Plan::TwoLevel(Lanes::Ifma4) if Self::two_level_eight(d, msg.len()) => {
                let n = crate::construct::lanes_squares::<F>(d, 8, msg.len());
                if sq.len() >= n {
                    Some(unsafe { x86::two_level_ifma8(sq, d, msg) })
                } else {
                    // From the key alone: its squarings first (one entry point for both: the
                    // 8 lanes' code is large, and from 8 super-blocks the loads of the
                    // squarings cost nothing measurable).
                    let mut all = [F::ZERO; 10];
                    all[0] = sq[0];
                    for j in 1..n {
                        all[j] = all[j - 1].square();
                    }
                    let v = unsafe { x86::two_level_ifma8(&all[..n], d, msg) };
                    zeroize::Zeroize::zeroize(&mut all);
                    Some(v)
                }
            }
            #[cfg(target_arch = "x86_64")]
            Plan::TwoLevel(Lanes::Ifma4)
                if sq.len() >= crate::construct::lanes_squares::<F>(d, 4, msg.len()) =>
            {
                Some(unsafe { x86::two_level_ifma4(sq, d, msg) })
            }
            #[cfg(target_arch = "x86_64")]
            Plan::TwoLevel(Lanes::Ifma4) => {
                Some(unsafe { x86::two_level_key_ifma4(sq[0], d, msg) })
            }
            _ => None,
        }
    }

    /// [`crossover`](Self::crossover) for a whole message (`brwhash::hash`, `Key::hash`):
    /// polyHash and Poly1305 then run `construct::poly_exact`, whose fixed cost is lower than
    /// the streaming state's. Measured like `crossover` (one-shot / precomputed key, TSC
    /// cycles per message, SIMD vs scalar):
    /// - Poly1305 on IFMA (one-shot; scalar code is plain Horner with the clamped key):
    ///   since the short power table (`ShortPowers`, no zeroed table of 8): 192 B 145-148
    ///   vs 157-164, 224 B 162-165 vs 155-164, 256 B 182-186 vs 153-163, 320 B 218-219 vs
    ///   183-185, 384 B 326 vs 274 (two runs of the noisy machine disagreed at 256 B:
    ///   240 vs 256 in the other): 240;
    ///   AVX-512F 1 KiB 660 vs 673, 1280 B 717 vs 838: 1024; AVX2 1280 B 829 vs 838, 1536 B
    ///   897 vs 978: 1280.
    /// - polyHash1271 on IFMA: 512 B 390 / 266 vs 327 / 253, 768 B 416 / 285 vs 422 / 349:
    ///   768; AVX-512F and AVX2: 1 KiB 702 and 698 vs 529, 2 KiB 940 and 1061 vs about 900:
    ///   2048.
    /// - Since one-shot polyHash on IFMA runs Estrin's scheme (`construct::short_estrin`),
    ///   Intel Xeon (Emerald Rapids), one-shot, TSC cycles per message, min of 100-150
    ///   batches of 100 calls, the two paths interleaved batch by batch in one binary,
    ///   IFMA / scalar: Poly1305 208 B 1.08, 224 B 1.05, 240 B 0.99, 256 B 0.91, 320 B 0.88:
    ///   240 stays; polyHash1305 (no clamp: slower scalar code) 192 B 1.07, 208 B 1.00,
    ///   224 B 0.95, 240 B 0.89: 208; polyHash1271 over three runs 256 B 1.06-1.17, 320 B
    ///   0.92-0.99, 384 B 0.81-1.01, 448 B 0.73-0.80, 512 B 0.79-0.97, 768 B 0.64-0.84: 320.
    ///   (Not re-measured on Zen 5, where the 768 above was measured before Estrin.)
    ///
    /// - c-decBRWHash runs its SIMD state on the stack (no allocation), so it wins from
    ///   short lengths on (TSC cycles per message, SIMD vs scalar): 4-decBRWHash on IFMA
    ///   (4 ymm lanes) 64 B 193 vs 197 and 128 B 203 vs 257 (2^130-5), 64 B 158 vs 165
    ///   (2^127-1): 64; 8-decBRWHash on IFMA (`brwhash bench --backends default,scalar`
    ///   with the crossover lowered, two runs, TSC cycles/byte, one-shot / with a key)
    ///   2^130-5 48 B 7.9 / 5.5 vs 7.7-7.8 / 3.7, 64 B 5.6-5.7 / 3.5 vs 5.9-6.0 / 2.9, 96 B
    ///   3.9 / 2.7 vs 4.2 / 2.2, 128 B 3.1-3.3 / 1.7-2.1 vs 3.3 / 1.8, 160 B 2.6 / 1.7 vs 4.5 /
    ///   3.4: one-shot 48 (now 128, below), with a key 128; 2^127-1 96 B 3.3-4.0 / 2.7 vs 2.5 / 1.5, 128 B 2.6
    ///   / 2.1 vs 3.3 / 2.5: 120 (eight blocks; the timing example had put all at 128); on AVX-512F 4-decBRWHash 192 B 281 vs 271, 256 B
    ///   310 vs 421 (2^130-5), 253 vs 267 at 256 B (2^127-1): 192; 8-decBRWHash1305 192 B
    ///   424 vs 466: 128; 8-decBRWHash1271 320 B 324 vs 302, 384 B 362 vs 448: 320; on AVX2
    ///   4-decBRWHash 128 B 254 vs 257, 192 B 226 vs 254 (2^127-1): 128.
    ///
    ///   Since the lanes combine the stream values (`combine_lanes`) and a key's x^2 .. x^8
    ///   weigh messages of up to 4 blocks in scalar code (`dec_single`), 4-decBRWHash on
    ///   IFMA vs scalar (`brwhash bench --backends default,scalar` with the crossovers
    ///   lowered, two runs, TSC cycles/byte, one-shot / with a key): 2^130-5 24 B 9.2 / 6.3
    ///   vs 10.9 / 3.1, 32 B 6.8 / 4.6 vs 8.1 / 2.2, 48 B 4.5 / 3.2 vs 5.6 / 1.8, 64 B 3.6-4.2
    ///   / 2.8 vs 4.4 / 1.4-1.7, 80 B 3.6-3.8 / 2.0 vs 5.9 / 4.0-4.4; 2^127-1 48 B 4.2 / 2.9
    ///   vs 3.8 / 1.7, 64 B 3.5-4.3 / 2.3 vs 4.5 / 3.1: one-shot 16 for 2^130-5, 64 with a
    ///   key (four blocks); 60 for 2^127-1 (four blocks). (The timing example had put the
    ///   one-shot 2^130-5 crossover at 40.)
    ///
    ///   Since a one-shot message of up to c blocks takes its squarings in registers
    ///   (`construct::dec_linear_key`, no `Powers`), TSC cycles/byte, one-shot, IFMA vs
    ///   scalar: 4-decBRWHash1305 32 B 6.83 vs 6.13, 48 B 4.45 vs 4.38, 64 B 4.23 vs 3.41,
    ///   80 B 3.60 vs 6.28; 8-decBRWHash1305 64 B 5.56 vs 4.62, 96 B 3.88 vs 3.31, 128 B 3.13
    ///   vs 2.65, 144 B 2.88 vs 5.27: one-shot 64 and 128 for 2^130-5 (c blocks).
    ///   And since two blocks per stream are linear in the blocks too (`pair_exponent`), two
    ///   runs, one-shot / with a key: 4-decBRWHash1271 64 B 3.54-3.61 / 2.35-2.48 vs
    ///   3.23-3.25 / 1.96, 80 B 2.80-2.98 / 1.87-1.98 vs 2.68-2.72 / 1.68, 96 B 2.34-2.41 /
    ///   1.55-1.65 vs 2.30-2.33 / 1.49, 112 B 2.02-2.06 / 1.33-1.42 vs 2.05 / 1.36, 128 B
    ///   (three per stream) 1.79-1.82 / 1.18-1.28 vs 2.44-2.63 / 1.68; at the edge, two more
    ///   runs: 106 B 2.18 / 1.39-1.40 vs 2.20-2.22 / 1.47, 120 B 2.28-2.36 / 1.15 vs 1.89 /
    ///   1.24: for 2^127-1 one-shot 120, with a key 105 (eight and seven blocks);
    ///   4-decBRWHash1305 stays: 80 B 3.60 / 1.97-2.17 vs 4.36 / 2.53.
    /// - With a key, since keys cache the lane weights (`construct::WeightTable`), SIMD wins
    ///   earlier (private timing loop, TSC cycles per message, min of 3, IFMA vs scalar):
    ///   8-decBRWHash1305 32 B 141 vs 121, 36 B 145 vs 160, 48 B 144 vs 150, 64 B 125 vs
    ///   180, 128 B 121 vs 227: 32; 4-decBRWHash1271 48 B 112 vs 71, 60 B 95 vs 64, 61 B 110
    ///   vs 120, 75 B 114 vs 119, 105 B 115 vs 137: 60. Unchanged: 8-decBRWHash1271 112 B
    ///   142 vs 137, 120 B 112 vs 134, 128 B 143 vs 319: 120; 4-decBRWHash1305 48 B 124 vs
    ///   77, 64 B 91 vs 88, 80 B 123 vs 201: 64. Since a key caches 8-decBRWHash's x^2 ..
    ///   x^16 (one block per stream: `scalar::dec_single`), 8-decBRWHash1305 IFMA vs scalar,
    ///   three runs: 64 B 131 vs 85, 96 B 148 vs 108, 112 B 147-162 vs 119-120, 128 B 125
    ///   vs 131: 112 (at 64 B the scalar code took 181 before the cache).
    ///   Since a key caches the weights of two blocks per stream too (`dec_pairs`), min of
    ///   3, IFMA vs scalar: 4-decBRWHash1305 80 B 128 vs 98, 96 B 108 vs 109, 112 B 126 vs
    ///   120, 128 B 103 vs 131: 112; 4-decBRWHash1271 105 B 114 vs 84, 120 B 103 vs 91: 120
    ///   (two blocks per stream end there); 8-decBRWHash1305 128 B 133 vs 134, 144 B 148 vs
    ///   142, 160 B 147 vs 154: 144; 8-decBRWHash1271 180 B 147 vs 120, 210 B 149 vs 135,
    ///   225 B 151 vs 143, 240 B 136 vs 151: 225.
    /// - One-shot, since the SIMD entry points take the raw key's squarings and run the lazy
    ///   chain two squarings per chunk (Zen 4 host, private timing loop, TSC cycles per
    ///   message, min of 3, scalar vs IFMA): 4-decBRWHash1305 stays (49 B 162 vs 174, 56 B
    ///   160 vs 172, 64 B 159 vs 165, 80 B 286 vs 194); 4-decBRWHash1271 48 B 132 vs 162,
    ///   60 B 180 vs 208, 61 B 194 vs 178, 80 B 199 vs 178, 96 B 205 vs 176, 120 B 205 vs 175:
    ///   60 (it was 120); 8-decBRWHash1305 96 B 248 vs 257, 112 B 257 vs 258, 113 B 261 vs
    ///   258, 120 B 267 vs 259, 128 B 257 vs 250: 112; 8-decBRWHash1271 stays (120 B 174 vs
    ///   224, 128 B 399 vs 250).
    ///
    /// On Zen 4 (`zmm_in_halves`), polyHash / Poly1305 one-shot on IFMA run 4 ymm lanes
    /// (`halves_one_shot`). Poly1305 (whose scalar code is plain Horner with the clamped key)
    /// measured with `brwhash bench` against intel-ipsec-mb in the same run (median of the
    /// rounds' ratios, two runs, scalar vs IFMA): 272 B 1.02-1.04 vs 1.14-1.19, 288 B 1.03-1.04
    /// vs 1.09-1.11, 312 B 1.01-1.02 vs 1.06-1.11, 320 B 1.11 vs 1.04-1.07, 336 B 1.03-1.04
    /// vs 0.99-1.01, 352 B 1.09-1.10 vs 1.01, 384 B 1.20-1.22 vs 1.03-1.04: 312. (The timing
    /// example had put it at 384, 384 B 287 vs 294 TSC cycles; its loop reads the digest back
    /// at once, which measured the scalar path's end differently.) polyHash1305 128 B 199 vs
    /// 206, 192 B 230 vs 282: 128; polyHash1271 (`brwhash bench --backends default,scalar`
    /// with the crossover lowered, TSC cycles/byte, IFMA vs scalar, two runs) 128 B 1.32 /
    /// 1.48 vs 1.34 / 1.53, 176 B 1.18 / 1.30 vs 1.19 / 1.31, 192 B 1.08 / 1.12 vs 1.11 /
    /// 1.23, 240 B 0.91 / 0.94 vs 1.00 / 1.08: 160 (the timing example had put it at 288).
    /// (On 8 zmm lanes there, Poly1305 crossed at 480 B: 448 B 363 vs 338, 512 B 363 vs
    /// 383.)
    ///
    /// `keyed`: a `Key` caches the lanes' power table, so they win much earlier on IFMA, from
    /// a whole vector block of 8 blocks on (below it, the head vector is put together lane
    /// by lane: Poly1305 at 120 B took 1.59 TSC cycles/byte against 0.71 at 128 B). `brwhash
    /// bench --backends default,scalar` with the crossover lowered, TSC cycles/byte, IFMA
    /// vs scalar, over three runs: Poly1305 (whose scalar code has the clamped key) 128 B
    /// 0.71-0.75 vs 0.75-0.76, 136 B 0.91-1.40 vs 0.79-1.04 (a short last block is a scalar
    /// step after the lanes), 152 B 0.93-1.38 vs 0.77-1.18, 160 B 0.69-0.98 vs 0.75-0.92,
    /// 168 B 1.06-1.26 vs 0.93-0.97, 176 B 0.68-0.82 vs 0.89-0.90, 192 B 0.56-0.75 vs
    /// 0.73-0.97: 168; polyHash1305 (no clamped key: slower scalar code) 128
    /// B 0.72 vs 1.21, 136 B 0.89 vs 1.23: 127; polyHash1271 120 B 0.75-0.84 vs 0.80, 127 B
    /// 0.73 vs 0.91, 192 B 0.57 vs 0.79-1.05: 120 (the timing example had put it at 192).
    #[inline(always)]
    pub fn one_shot_crossover(alg: Algorithm, backend: Backend, keyed: bool) -> usize {
        let p1271 = alg.prime() == Some(crate::Prime::P1271);
        match (Plan::of(alg, backend), p1271) {
            (Some(Plan::Poly(Lanes::Ifma8)), false) if keyed => {
                if alg == Algorithm::POLY1305 {
                    168
                } else {
                    127
                }
            }
            (Some(Plan::Poly(Lanes::Ifma8)), true) if keyed => 120,
            // Zen 4 (one-shot on 4 ymm lanes there: `halves_one_shot`).
            (Some(Plan::Poly(Lanes::Ifma8)), false) if zmm_in_halves() => {
                if alg == Algorithm::POLY1305 {
                    312
                } else {
                    128
                }
            }
            (Some(Plan::Poly(Lanes::Ifma8)), true) if zmm_in_halves() => 160,
            (Some(Plan::Poly(Lanes::Ifma8)), false) if alg == Algorithm::POLY1305 => 240,
            (Some(Plan::Poly(Lanes::Ifma8)), false) => 208,
            (Some(Plan::Poly(Lanes::Ifma8)), true) => 320,
            (Some(Plan::Poly(Lanes::Avx512x8)), false) => 1024,
            (Some(Plan::Poly(_)), false) => 1280,
            (Some(Plan::Poly(_)), true) => 2048,
            (Some(Plan::DecPeriods(Lanes::Ifma8)), false) if !keyed => 64,
            (Some(Plan::DecPeriods(Lanes::Ifma8)), false) => 112,
            (Some(Plan::DecPeriods(Lanes::Ifma8)), true) if !keyed => 60,
            (Some(Plan::DecPeriods(Lanes::Ifma8)), true) => 120,
            (Some(Plan::Dec(Lanes::Ifma8)), false) if !keyed => 112,
            (Some(Plan::Dec(Lanes::Ifma8)), false) => 144,
            (Some(Plan::Dec(Lanes::Ifma8)), true) if keyed => 225,
            (Some(Plan::Dec(Lanes::Ifma8)), true) => 120,
            (Some(Plan::DecPeriods(Lanes::Avx512x8)), _) => 192,
            (Some(Plan::Dec(Lanes::Avx512x8)), false) => 128,
            (Some(Plan::Dec(Lanes::Avx512x8)), true) => 320,
            (Some(Plan::Dec(Lanes::Avx2x4)), _) => 128,
            (Some(Plan::TwoLevel(_)), _) => Self::two_level_crossover(alg),
            _ => Self::crossover(alg, backend),
        }
    }
}

/// Largest piece of held bytes that one `memcpy` or `memset` call moves or clears
/// ([`wipe_bytes`], `construct::extend_bytes`). Above 2 KiB glibc's x86-64 versions switch to
/// `rep movsb` / `rep stosb`, which ran slower than their vector loops on the Zen 5 host these
/// were measured on (TSC cycles per call, whole vs in pieces of 2 KiB: copy 3840 B 95 vs 73,
/// 8 KiB 175 vs 150; clear 3840 B 87 vs 57, 8 KiB 180 vs 88). Elsewhere a piece costs one
/// call more per 2 KiB.
pub(crate) const MEM_PIECE: usize = 2048;

/// Zeroes `buf` so that the compiler cannot drop the stores, as `zeroize` does, but at
/// `memset` speed: `zeroize` on bytes makes one volatile store per byte, and wiping a
/// hasher's buffered kilobytes that way cost more than hashing them. Here a plain fill is
/// followed by an empty `asm!` block that takes the buffer's address and may read memory, so
/// the fill is not a dead store (glibc's `explicit_bzero` works the same way).
pub(crate) fn wipe_bytes(buf: &mut [u8]) {
    // Nothing to wipe (and an empty `Vec`'s dangling pointer: glibc's `memset` makes a masked
    // store even of 0 bytes, which costs AMD CPUs a fault-suppression assist, hundreds of
    // cycles, at an unmapped address).
    if buf.is_empty() {
        return;
    }
    // (Miri runs no `asm!`: it takes the volatile stores.)
    #[cfg(all(any(target_arch = "x86_64", target_arch = "aarch64"), not(miri)))]
    {
        if buf.len() <= MEM_PIECE {
            buf.fill(0);
        } else {
            for piece in buf.chunks_mut(MEM_PIECE) {
                piece.fill(0);
            }
        }
        // SAFETY: the block is empty: it executes nothing, reads and writes no register but
        // its (unused) input, and touches no stack. Without `nomem` or `readonly`, the
        // compiler must assume it reads the memory behind the pointer, which keeps the fill.
        unsafe {
            core::arch::asm!("/* {0} */", in(reg) buf.as_ptr(), options(nostack, preserves_flags));
        }
    }
    #[cfg(any(not(any(target_arch = "x86_64", target_arch = "aarch64")), miri))]
    {
        use zeroize::Zeroize;
        // SAFETY: every bit pattern is a valid `u64`, and `align_to_mut` splits `buf` at
        // aligned boundaries (the middle part is whole, aligned words of the same memory).
        let (head, words, tail) = unsafe { buf.align_to_mut::<u64>() };
        head.zeroize();
        words.zeroize();
        tail.zeroize();
    }
}

/// Zeroizes the first `used` slots of `v`'s buffer, entries and popped slots alike, and
/// empties it: one wipe per slot (refilling popped slots through the `ArrayVec` API first
/// would store each twice). `used` must not exceed the most entries `v` has held.
#[inline(always)]
pub(crate) fn zeroize_slots<T: Copy + zeroize::Zeroize, const N: usize>(
    v: &mut arrayvec::ArrayVec<T, N>,
    used: usize,
) {
    assert!(used >= v.len() && used <= N);
    let slots = v.as_mut_ptr();
    v.clear();
    for i in 0..used {
        // SAFETY: `i < used <= N`, so the slot lies in the buffer `as_mut_ptr` points to, and
        // the `&mut` is exclusive (`v` is borrowed mutably, and empty). The slot holds the
        // bytes of a `T` pushed earlier (a pop copies the entry out and leaves them), and `T`
        // is `Copy`, so they are a valid `T`.
        unsafe { (*slots.add(i)).zeroize() }
    }
}

/// Whether the scalar backend's code can run here (then it serves the messages a SIMD
/// backend leaves to scalar code, below its crossover).
#[inline]
pub(crate) fn scalar_here() -> bool {
    static HERE: OnceLock<bool> = OnceLock::new();
    *HERE.get_or_init(|| Backend::Scalar.cpu_supports())
}

/// Whether this CPU runs a 512-bit vector instruction as two 256-bit halves: AMD's Zen 4
/// (family 0x19; Zen 3, the same family, has no AVX-512, so no zmm code runs there). Its
/// zmm multiply-adds retire at half the rate of Zen 5's, and the one-shot set-up of the
/// IFMA lanes (a chain of dependent zmm products) costs about twice as much, so one-shot
/// polyHash takes 4 ymm lanes and scalar code keeps other lengths there
/// (`halves_one_shot`, `SimdState::one_shot_crossover`), and the 8 lanes' power ladder is
/// built from 4 (`ifma8::L44::ladder_limbs`). The environment variable
/// `BRWHASH_ZMM_HALVES` (`1` or `0`, read once) overrides the answer, so that tests reach
/// both choices on any CPU with IFMA; the output never depends on it.
pub(crate) fn zmm_in_halves() -> bool {
    static HALVES: OnceLock<bool> = OnceLock::new();
    *HALVES.get_or_init(|| match std::env::var("BRWHASH_ZMM_HALVES").as_deref() {
        Ok("1") => true,
        Ok("0") => false,
        _ => cpu_runs_zmm_in_halves(),
    })
}

/// What [`zmm_in_halves`] detects on this CPU, without the environment's override.
#[doc(hidden)]
pub fn cpu_runs_zmm_in_halves() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        x86::cpu_family() == Some(("AuthenticAMD", 0x19))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether a one-shot polyHash / Poly1305 of `len` bytes on IFMA runs on 4 ymm lanes rather
/// than 8 zmm lanes: on a CPU that runs zmm in halves, the ymm lanes' power table is a
/// shorter chain of cheaper products, and the message's products cost the same per block.
/// Since the zmm lanes build their ladder and splat squares in ymm (`ifma8::L44::
/// ladder_limbs`), their set-up costs about 40 TSC cycles less and they win from shorter
/// messages. `brwhash::hash` on Zen 4, TSC cycles per message (min of 21 rounds), zmm vs
/// ymm: Poly1305 10 KiB 1786 vs 1722, 12 KiB 2044 vs 2018, 13 KiB 2175 vs 2173, 14 KiB 2330
/// vs 2327 and 2314 vs 2316, 15 KiB 2471 vs 2476, 16 KiB 2597 vs 2620, 20 KiB 3118 vs 3210,
/// 24 KiB 3658 vs 3822; polyHash1305 12 KiB 2069 vs 2018, 14 KiB 2302 vs 2326, 16 KiB 2584
/// vs 2604; polyHash1271 16 KiB 2826 vs 2785, 20 KiB 3400 vs 3448, 24 KiB 4013 vs 4087: up to
/// 14 KiB for 2^130 - 5 and 18 KiB for 2^127 - 1. (Before the ymm ladder: up to 24 KiB,
/// Poly1305 8 KiB 1608 vs 1469, 24 KiB 3934 vs 3905.)
#[inline]
fn halves_one_shot<F: crate::field::PrimeField>(len: usize) -> bool {
    let limit = if F::BLOCK == 16 { 14 } else { 18 } * 1024;
    len <= limit && zmm_in_halves()
}

/// The prime-field functions on the scalar backend (`construct::ScalarHasher` compiled with
/// BMI2). SAFETY (every function): a `ScalarHasher` exists, and `one_shot` is
/// called, only where [`scalar_here`] is true (a key whose backend is `scalar` passed
/// `Backend::check`; SIMD keys take scalar code only after asking `scalar_here`).
#[cfg(target_arch = "x86_64")]
pub(crate) mod scalar {
    use super::x86;
    use crate::construct::{Powers, ScalarHasher};
    use crate::field::PrimeField;
    use crate::Algorithm;

    pub(crate) fn update<F: PrimeField>(h: &mut ScalarHasher<F>, p: &Powers<F>, data: &[u8]) {
        debug_assert!(super::scalar_here());
        unsafe { x86::scalar_update(h, p, data) }
    }

    pub(crate) fn finish<F: PrimeField>(h: &mut ScalarHasher<F>, p: &Powers<F>) -> F {
        unsafe { x86::scalar_finish(h, p) }
    }

    /// [`finish`] without using up the state (`Hasher::finalize`).
    pub(crate) fn finish_ref<F: PrimeField>(h: &ScalarHasher<F>, p: &Powers<F>) -> F {
        unsafe { x86::scalar_finish_ref(h, p) }
    }

    /// polyHash / Poly1305 of `msg` from the key alone (`construct::horner_one_shot`).
    pub(crate) fn horner<F: PrimeField>(x: F, msg: &[u8]) -> F {
        debug_assert!(super::scalar_here());
        unsafe { x86::scalar_horner(x, msg) }
    }

    /// d-2LHash (a long d-Hash) of `msg` from the key alone (`construct::two_level_key`).
    pub(crate) fn two_level<F: PrimeField>(x: F, d: u8, msg: &[u8]) -> Option<F> {
        debug_assert!(super::scalar_here());
        unsafe { x86::scalar_two_level(x, d, msg) }
    }

    /// BRWHash / t-BRWHash of at most 32 blocks from the key alone (`construct::brw_key`).
    pub(crate) fn brw<F: PrimeField>(x: F, t: u8, msg: &[u8]) -> Option<F> {
        debug_assert!(super::scalar_here());
        unsafe { x86::scalar_brw(x, t, msg) }
    }

    /// c-decBRWHash of at most two blocks per stream from the key alone
    /// (`construct::dec_linear_key`).
    pub(crate) fn dec_linear<F: PrimeField>(x: F, c: usize, msg: &[u8]) -> Option<F> {
        debug_assert!(super::scalar_here());
        unsafe { x86::scalar_dec_linear(x, c, msg) }
    }

    /// c-decBRWHash of at most two blocks per stream with a key's powers
    /// (`construct::dec_linear_powers`).
    pub(crate) fn dec_linear_powers<F: PrimeField>(
        p: &Powers<F>,
        c: usize,
        msg: &[u8],
    ) -> Option<F> {
        debug_assert!(super::scalar_here());
        unsafe { x86::scalar_dec_linear_powers(p, c, msg) }
    }

    /// Poly1305's value of `msg` by plain Horner with the clamped key
    /// (`construct::poly1305_horner`).
    pub(crate) fn poly1305(r: &crate::field::Clamped, msg: &[u8]) -> crate::field::Fp1305 {
        debug_assert!(super::scalar_here());
        unsafe { x86::scalar_poly1305(r, msg) }
    }

    pub(crate) fn one_shot<F: PrimeField, const S: usize>(
        alg: Algorithm,
        p: &Powers<F, S>,
        msg: &[u8],
    ) -> F {
        debug_assert!(super::scalar_here());
        unsafe { x86::scalar_one_shot(alg, p, msg) }
    }
}

/// Hash2L / vecHash2L on PCLMULQDQ (`x86::gf128c`, `x86::gf256c`): field types and entry
/// points. SAFETY (every function): a `Gf128c` / `Gf256c` key or state exists only for a key
/// whose backend passed `Backend::check` for `pclmul`, so the CPU has PCLMULQDQ and SSE4.1.
macro_rules! clmul_module {
    ($module:ident, $field:ident, $path:ident, $update:ident, $next:ident, $finish:ident, $powers:ident, $one_shot:ident, $vector:ident) => {
        #[cfg(target_arch = "x86_64")]
        pub(crate) mod $module {
            use super::x86;
            use crate::construct::{BinHasher, BinPowers};
            pub(crate) use x86::$path::$field;

            pub(crate) fn update(h: &mut BinHasher<$field>, p: &BinPowers<$field>, data: &[u8]) {
                unsafe { x86::$update(h, p, data) }
            }

            pub(crate) fn next_component(h: &mut BinHasher<$field>, p: &BinPowers<$field>) {
                unsafe { x86::$next(h, p) }
            }

            pub(crate) fn finish(
                h: BinHasher<$field>,
                p: &BinPowers<$field>,
                vector: bool,
            ) -> $field {
                unsafe { x86::$finish(h, p, vector) }
            }

            /// The powers of a key (on the heap: a `Key` is moved around).
            pub(crate) fn powers(
                key: &[u8],
                n_sq: usize,
                gamma_log: Option<usize>,
                n_end: usize,
                vector: bool,
            ) -> Box<BinPowers<$field>> {
                let mut p = Box::new(BinPowers::empty());
                let g = crate::eval::G;
                fill_powers(&mut p, key, n_sq, gamma_log, g, n_end, vector, true);
                p
            }

            /// The powers of the key x (`key`, its bytes) into `p` (from `Powers::empty`):
            /// `n_sq` squarings, gamma = x^(2^gamma_log) and `n_hg` of its powers, `n_end`
            /// end weights, and with them x^3 if `x3` (`Powers::fill_end_x3`). A one-shot call
            /// keeps them on its stack.
            #[allow(clippy::too_many_arguments)]
            pub(crate) fn fill_powers(
                p: &mut BinPowers<$field>,
                key: &[u8],
                n_sq: usize,
                gamma_log: Option<usize>,
                n_hg: usize,
                n_end: usize,
                vector: bool,
                x3: bool,
            ) {
                unsafe { x86::$powers(p, key, n_sq, gamma_log, n_hg, n_end, vector, x3) }
            }

            pub(crate) fn one_shot(p: &BinPowers<$field>, msg: &[u8]) -> $field {
                unsafe { x86::$one_shot(p, msg) }
            }

            /// vecHash2L of a whole vector, without a streaming state.
            pub(crate) fn vector(p: &BinPowers<$field>, components: &[&[u8]]) -> $field {
                unsafe { x86::$vector(p, components) }
            }
        }
    };
}

clmul_module!(
    clmul128,
    Gf128c,
    gf128c,
    bin128_update,
    bin128_next,
    bin128_finish,
    bin128_powers,
    bin128_one_shot,
    bin128_vector
);
clmul_module!(
    clmul256,
    Gf256c,
    gf256c,
    bin256_update,
    bin256_next,
    bin256_finish,
    bin256_powers,
    bin256_one_shot,
    bin256_vector
);

/// Hash2L / vecHash2L on VPCLMULQDQ (`x86::gf128x4`, `x86::gf256x4`). SAFETY (every
/// function): such a state exists, and `one_shot` is called, only for a key whose backend
/// passed `Backend::check` for `vpclmul`, so the CPU has VPCLMULQDQ, PCLMULQDQ, SSE4.1 and
/// AVX-512F/BW.
macro_rules! vclmul_module {
    ($module:ident, $scalar:ident, $spath:ident, $lanes:ident, $lpath:ident, $update:ident, $next:ident, $finish:ident, $finish_copy:ident, $one_shot:ident, $vector:ident) => {
        #[cfg(target_arch = "x86_64")]
        pub(crate) mod $module {
            use super::x86;
            use crate::construct::{BinPowers, BinWide};
            use x86::$lpath::$lanes;
            use x86::$spath::$scalar;

            pub(crate) type State = BinWide<$scalar, $lanes>;

            pub(crate) fn update(h: &mut State, p: &BinPowers<$scalar>, data: &[u8]) {
                unsafe { x86::$update(h, p, data) }
            }

            pub(crate) fn next_component(h: &mut State, p: &BinPowers<$scalar>) {
                unsafe { x86::$next(h, p) }
            }

            /// The value in place: the state is used up.
            pub(crate) fn finish(h: &mut State, p: &BinPowers<$scalar>, vector: bool) -> $scalar {
                unsafe { x86::$finish(h, p, vector) }
            }

            /// The value, the state left as it is.
            pub(crate) fn finish_copy(h: &State, p: &BinPowers<$scalar>, vector: bool) -> $scalar {
                unsafe { x86::$finish_copy(h, p, vector) }
            }

            /// Hash2L of a whole message, no state on the heap.
            pub(crate) fn one_shot(p: &BinPowers<$scalar>, msg: &[u8]) -> $scalar {
                unsafe { x86::$one_shot(p, msg) }
            }

            /// vecHash2L of a whole vector, no state on the heap.
            pub(crate) fn vector(p: &BinPowers<$scalar>, components: &[&[u8]]) -> $scalar {
                unsafe { x86::$vector(p, components) }
            }
        }
    };
}

vclmul_module!(
    vclmul128,
    Gf128c,
    gf128c,
    Gf128x4,
    gf128x4,
    wide128_update,
    wide128_next,
    wide128_finish,
    wide128_finish_copy,
    wide128_one_shot,
    wide128_vector
);
vclmul_module!(
    vclmul256,
    Gf256c,
    gf256c,
    Gf256x4,
    gf256x4,
    wide256_update,
    wide256_next,
    wide256_finish,
    wide256_finish_copy,
    wide256_one_shot,
    wide256_vector
);
