//! Fixed-size outputs: digests and MAC tags.

use core::fmt;
use subtle::ConstantTimeEq;

/// The output of a hash: 16 or 32 bytes (the algorithm's digest length).
///
/// Equality is constant time, so comparing a computed digest with an expected one does not
/// leak where they first differ.
#[derive(Clone, Copy)]
pub struct Digest {
    bytes: [u8; 32],
    len: u8,
}

/// The output of MAC mode (SPEC.md section 7); same representation as [`Digest`].
pub type Tag = Digest;

impl Digest {
    pub(crate) fn new(src: &[u8]) -> Digest {
        let mut bytes = [0u8; 32];
        bytes[..src.len()].copy_from_slice(src);
        Digest {
            bytes,
            len: src.len() as u8,
        }
    }

    /// The bytes (16 or 32).
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }

    /// Lower-case hex of the bytes in memory order.
    pub fn to_hex(&self) -> String {
        use fmt::Write;
        self.as_bytes()
            .iter()
            .fold(String::with_capacity(64), |mut s, b| {
                let _ = write!(s, "{b:02x}");
                s
            })
    }

    /// Constant-time comparison with a byte string (false if the lengths differ).
    pub fn ct_eq_bytes(&self, other: &[u8]) -> bool {
        self.as_bytes().ct_eq(other).into()
    }
}

impl AsRef<[u8]> for Digest {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl PartialEq for Digest {
    fn eq(&self, other: &Digest) -> bool {
        self.ct_eq_bytes(other.as_bytes())
    }
}

impl Eq for Digest {}

impl fmt::Debug for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Digest({})", self.to_hex())
    }
}

impl fmt::Display for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}
