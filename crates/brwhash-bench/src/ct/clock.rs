//! One time stamp per call: the time-stamp counter between two `lfence`s on x86-64 (the
//! first fence keeps the read from starting before earlier instructions finish, the second
//! keeps later ones from starting before it), nanoseconds from [`std::time::Instant`]
//! elsewhere.

/// Where the stamps come from.
#[cfg(target_arch = "x86_64")]
pub const SOURCE: &str = "rdtsc (lfence-serialised)";
/// Where the stamps come from.
#[cfg(not(target_arch = "x86_64"))]
pub const SOURCE: &str = "Instant (ns)";

/// The time-stamp counter, serialised by `lfence` on both sides.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
#[inline(always)]
pub fn stamp() -> u64 {
    use core::arch::x86_64::{_mm_lfence, _rdtsc};
    // SAFETY: LFENCE (SSE2) and RDTSC are part of every x86-64 CPU; neither touches memory
    // nor has any precondition.
    unsafe {
        _mm_lfence();
        let t = _rdtsc();
        _mm_lfence();
        t
    }
}

/// Nanoseconds since the first call (no time-stamp counter on this target).
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub fn stamp() -> u64 {
    use std::time::Instant;
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_nanos() as u64
}
