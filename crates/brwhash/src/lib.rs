//! # brwhash
//!
//! Fast almost-XOR-universal (AXU) hash functions built on Bernstein–Rabin–Winograd (BRW)
//! polynomials, with the classic Horner-based ones beside them: every function of the
//! project's SPEC.md, exact to the bit.
//!
//! | family | names | key / digest bytes |
//! |---|---|---|
//! | Poly1305 (RFC 8439) | `Poly1305` | 32 / 16 |
//! | Horner | `polyHash1271`, `polyHash1305` | 16 / 16 |
//! | BRW | `BRWHash1271`, `BRWHash1305`, `<t>-BRWHash<p>` (t = 2..5) | 16 / 16 |
//! | two-level | `<d>-2LHash<p>`, `<d>-Hash<p>` (d = 2..5) | 16 / 16 |
//! | decimated BRW | `<c>-decBRWHash<p>` (c = 1..16) | 16 / 16 |
//! | binary fields | `Hash2L128`, `Hash2L256`, `vecHash2L128`, `vecHash2L256` | 16 or 32 |
//!
//! `<p>` is `1271` (the prime 2^127 - 1) or `1305` (2^130 - 5). `4-Hash1271` is the sequential
//! hash the papers recommend; `4-decBRWHash1305` is the SIMD-friendly one.
//!
//! ```
//! use brwhash::{Algorithm, Hasher, Key, Mac};
//!
//! let alg: Algorithm = "4-Hash1271".parse()?;
//! // One shot (key powers computed for this message only):
//! let d = brwhash::hash(alg, &[0x42; 16], b"some data")?;
//! // A key reused for many messages (powers computed once), and streaming:
//! let key = Key::new(alg, &[0x42; 16])?;
//! let mut h = Hasher::new(&key);
//! h.update(b"some ")?.update(b"data")?;
//! assert_eq!(h.finalize(), d);
//! // One-time MAC: key tau || s, constant-time verification.
//! let mac = Mac::new(alg, &[0x42; 32])?;
//! let tag = mac.tag(b"some data");
//! assert!(mac.verify(b"some data", tag.as_ref()));
//! # Ok::<(), brwhash::Error>(())
//! ```
//!
//! ## Layers
//! - `field`: GF(2^127-1), GF(2^130-5), GF(2^128), GF(2^256) with unreduced products.
//! - `eval`: Horner with delayed reduction, and the stack BRW algorithm, generic over fields.
//! - `construct`: the functions of SPEC.md section 5, streaming.
//! - [`backend`]: which code runs ([`Backend`]), chosen once per [`Key`].

#![doc = include_str!("guide.md")]
#![doc = include_str!("../docs/speed.svg")]
// `unsafe` is allowed only in the SIMD backend modules (`backend`).
#![deny(unsafe_code)]
#![warn(missing_docs)]

mod algorithm;
#[allow(unsafe_code)]
pub mod backend;
mod construct;
mod digest;
mod error;
#[doc(hidden)]
pub mod eval;
#[doc(hidden)]
pub mod field;
mod key;
mod mac;
#[cfg(feature = "parallel")]
mod parallel;

pub use algorithm::{Algorithm, BinaryField, Family, Prime};
pub use backend::Backend;
pub use digest::{Digest, Tag};
pub use error::Error;
pub use key::{Hasher, Key, MAX_COMPONENTS, MAX_MESSAGE_BYTES};
pub use mac::Mac;
#[cfg(feature = "parallel")]
pub use parallel::{with_threads, ReadAt, PARALLEL_THRESHOLD};

/// One-shot digest of `msg` under `key` (for vecHash2L: of the one-component vector `(msg)`).
/// Key powers are computed for this message's length only.
///
/// ```
/// use brwhash::Algorithm;
/// let tag = brwhash::hash(Algorithm::POLY1305, &[1u8; 32], b"packet")?;
/// assert_eq!(tag.as_bytes().len(), 16);
/// // A wrong key length is an error, never a panic.
/// assert!(brwhash::hash(Algorithm::POLY1305, &[1u8; 16], b"packet").is_err());
/// # Ok::<(), brwhash::Error>(())
/// ```
pub fn hash(alg: Algorithm, key: &[u8], msg: &[u8]) -> Result<Digest, Error> {
    let len = msg.len() as u64;
    if len > MAX_MESSAGE_BYTES {
        return Err(Error::MessageTooLong);
    }
    if let Some(t) = key::one_shot_scalar(alg, key, msg, None)? {
        return Ok(Digest::from_u128(t));
    }
    if let Some(d) = key::one_shot_clmul(alg, key, &[msg], None)? {
        return Ok(d);
    }
    Ok(Key::for_length(alg, key, len)?.hash(msg))
}

/// [`hash`] on an explicit backend (an error when it cannot run here), for benchmarks and
/// tests of one backend.
///
/// ```
/// use brwhash::{Algorithm, Backend};
/// let alg = Algorithm::POLYHASH1305;
/// let want = brwhash::hash(alg, &[5u8; 16], b"abc")?;
/// // Every backend that can run here gives the same bytes.
/// for b in Backend::ALL.into_iter().filter(|b| b.check(alg).is_ok()) {
///     assert_eq!(brwhash::hash_with_backend(alg, b, &[5u8; 16], b"abc")?, want);
/// }
/// # Ok::<(), brwhash::Error>(())
/// ```
pub fn hash_with_backend(
    alg: Algorithm,
    backend: Backend,
    key: &[u8],
    msg: &[u8],
) -> Result<Digest, Error> {
    let len = msg.len() as u64;
    if len > MAX_MESSAGE_BYTES {
        return Err(Error::MessageTooLong);
    }
    if let Some(t) = key::one_shot_scalar(alg, key, msg, Some(backend))? {
        return Ok(Digest::from_u128(t));
    }
    if let Some(d) = key::one_shot_clmul(alg, key, &[msg], Some(backend))? {
        return Ok(d);
    }
    Ok(Key::for_length_with(alg, key, len, Some(backend))?.hash(msg))
}

/// One-shot vecHash2L digest of a vector of 1..=255 components.
///
/// ```
/// use brwhash::Algorithm;
/// let alg = Algorithm::VECHASH2L128;
/// let d = brwhash::hash_vector(alg, &[3u8; 16], &[b"header", b"", b"body"])?;
/// // The components are not concatenated: a different split is a different input.
/// assert_ne!(d, brwhash::hash_vector(alg, &[3u8; 16], &[b"head", b"er", b"body"])?);
/// assert!(brwhash::hash_vector(alg, &[3u8; 16], &[]).is_err()); // 1..=255 components
/// # Ok::<(), brwhash::Error>(())
/// ```
pub fn hash_vector(alg: Algorithm, key: &[u8], components: &[&[u8]]) -> Result<Digest, Error> {
    // The longest component sizes the key's powers (vecHash2L's end weights).
    if alg.is_vector() {
        if let Some(d) = key::one_shot_clmul(alg, key, components, None)? {
            return Ok(d);
        }
    }
    let longest = components.iter().map(|c| c.len() as u64).max().unwrap_or(0);
    Key::for_length(alg, key, longest)?.hash_vector(components)
}

/// One-shot MAC tag (SPEC.md section 7) of `msg` with the one-time key tau || s. Like
/// [`hash`], it computes only the key powers this message's length needs (a [`Mac`] is
/// ready for any length and for streaming, which costs more to set up).
///
/// ```
/// use brwhash::{Algorithm, Mac};
/// let alg = Algorithm::BRWHASH1305;
/// let key = [0x2au8; 32]; // tau || s: use a fresh random key for every message
/// let tag = brwhash::mac(alg, &key, b"record")?;
/// assert!(Mac::new(alg, &key)?.verify(b"record", tag.as_ref()));
/// # Ok::<(), brwhash::Error>(())
/// ```
pub fn mac(alg: Algorithm, key: &[u8], msg: &[u8]) -> Result<Tag, Error> {
    let (tau, mut s) = mac::split_key(alg, key)?;
    let tag = hash(alg, tau, msg).map(|digest| mac::mac_tag(alg, digest, &s));
    zeroize::Zeroize::zeroize(&mut s);
    tag
}

/// [`hash`] of a large message on all threads of rayon's current pool (cargo feature
/// `parallel`); byte-identical to [`hash`]. Messages below [`PARALLEL_THRESHOLD`] bytes are
/// hashed on the calling thread.
///
/// ```
/// use brwhash::Algorithm;
/// let big = vec![1u8; 5 << 20];
/// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let d = pool.install(|| brwhash::hash_parallel(Algorithm::HASH2L128, &[3u8; 16], &big))?;
/// assert_eq!(d, brwhash::hash(Algorithm::HASH2L128, &[3u8; 16], &big)?);
/// # Ok::<(), brwhash::Error>(())
/// ```
#[cfg(feature = "parallel")]
pub fn hash_parallel(alg: Algorithm, key: &[u8], msg: &[u8]) -> Result<Digest, Error> {
    if msg.len() < PARALLEL_THRESHOLD {
        return hash(alg, key, msg);
    }
    if msg.len() as u64 > MAX_MESSAGE_BYTES {
        return Err(Error::MessageTooLong);
    }
    Ok(Key::new(alg, key)?.hash_parallel(msg))
}
