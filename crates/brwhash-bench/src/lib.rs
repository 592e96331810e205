//! # brwhash-bench
//!
//! Benchmarks of the brwhash library against its peers, measured in the same run: cycles per
//! byte and GB/s of every algorithm and backend, one-shot (`brwhash::hash`, key powers
//! computed per message) and with a precomputed [`brwhash::Key`], beside OpenSSL's,
//! intel-ipsec-mb's and RustCrypto's Poly1305 (and RustCrypto's and intel-ipsec-mb's binary
//! field hashes for the Hash2L rows).
//!
//! - [`harness`]: the timing method (rdtsc, warm-up, batches of about 0.2 ms, median of
//!   batches, interleaved rounds, the TSC-to-core-clock ratio).
//! - [`peers`]: the other implementations, each checked against a reference at start-up.
//! - [`suite`]: what to measure (a [`suite::Plan`]) and the measurement ([`suite::run`]).
//! - [`report`]: the Markdown table, JSON and an SVG plot of the results.
//! - [`ct`]: the dudect-style constant-time test of the `brwhash-ct` binary.
//!
//! `brwhash bench` (the CLI) drives this crate; `cargo bench -p brwhash-bench` runs the same
//! rows under criterion. The peers need system libraries (feature `peers`, on by default;
//! `scripts/install-deps.sh` installs them).

#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod ct;
pub mod harness;
pub mod machine;
pub mod peers;
pub mod report;
pub mod suite;

/// Deterministic pseudo-random bytes (splitmix64): message and key material for the
/// benchmark and the peer checks. Not for keys that protect anything.
pub fn pseudo_random_bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut state = seed;
    let mut out = Vec::with_capacity(len + 8);
    while out.len() < len {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        out.extend_from_slice(&z.to_le_bytes());
    }
    out.truncate(len);
    out
}
