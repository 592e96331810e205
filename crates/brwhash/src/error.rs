//! The library's error type: every failure is a value, never a panic.

use core::fmt;

/// Why a call could not produce an output.
///
/// ```
/// use brwhash::{Algorithm, Error};
/// match brwhash::hash(Algorithm::POLY1305, b"too short", b"m") {
///     Err(Error::KeyLength { expected, got, .. }) => assert_eq!((expected, got), (32, 9)),
///     other => panic!("unexpected {other:?}"),
/// }
/// let e = "7-Hash1271".parse::<Algorithm>().unwrap_err();
/// assert!(e.to_string().contains("d = 2..5"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The key has the wrong length for the algorithm and mode.
    KeyLength {
        /// Canonical algorithm name.
        algorithm: String,
        /// `"digest"` or `"mac"`.
        mode: &'static str,
        /// Bytes the key must have.
        expected: usize,
        /// Bytes given.
        got: usize,
    },
    /// The name matches no algorithm of SPEC.md.
    UnknownAlgorithm(String),
    /// A family name with a parameter outside its range (e.g. `6-Hash1271`).
    ParameterOutOfRange {
        /// The name as given.
        name: String,
        /// The allowed range, e.g. `"d = 2..5"`.
        range: &'static str,
    },
    /// MAC mode was requested for Poly1305, which already is a MAC.
    NoMacMode(String),
    /// The message (or a vecHash2L component) would reach 2^61 bytes.
    MessageTooLong,
    /// vecHash2L needs 1..=255 components.
    ComponentCount(usize),
    /// Components were given to an algorithm that hashes a single message.
    NotVector(String),
    /// A backend name that is not one of `brwhash list`.
    UnknownBackend(String),
    /// The forced backend cannot run here (CPU lacks the instructions, or the backend is not
    /// built for this algorithm).
    BackendUnavailable {
        /// The backend's name.
        backend: &'static str,
        /// Why it cannot run.
        reason: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::KeyLength { algorithm, mode, expected, got } => write!(
                f,
                "{algorithm} ({mode}) needs a {expected}-byte key, got {got} bytes"
            ),
            Error::UnknownAlgorithm(name) => {
                write!(f, "unknown algorithm {name:?} (`brwhash list` prints the names)")
            }
            Error::ParameterOutOfRange { name, range } => {
                write!(f, "algorithm {name:?}: parameter out of range ({range})")
            }
            Error::NoMacMode(name) => {
                write!(f, "{name} has no MAC mode: it already is a MAC with key r || s")
            }
            Error::MessageTooLong => write!(f, "message too long: the limit is 2^61 - 1 bytes"),
            Error::ComponentCount(n) => {
                write!(f, "vecHash2L takes 1 to 255 components, got {n}")
            }
            Error::NotVector(name) => {
                write!(f, "{name} hashes one message; only vecHash2L takes components")
            }
            Error::UnknownBackend(name) => write!(
                f,
                "unknown backend {name:?} (one of portable, scalar, avx2, avx512, ifma, pclmul, vpclmul)"
            ),
            Error::BackendUnavailable { backend, reason } => {
                write!(f, "backend {backend} is not available: {reason}")
            }
        }
    }
}

impl std::error::Error for Error {}
