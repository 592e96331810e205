//! Fixed-size outputs: digests and MAC tags.

use core::fmt;
use subtle::ConstantTimeEq;

/// The output of a hash: 16 or 32 bytes (the algorithm's digest length).
///
/// Equality is constant time, so comparing a computed digest with an expected one does not
/// leak where they first differ.
///
/// ```
/// use brwhash::Algorithm;
/// let d = brwhash::hash(Algorithm::POLYHASH1305, &[0u8; 16], b"")?;
/// assert_eq!(d.to_string(), d.to_hex());
/// assert_eq!(d.as_ref(), d.as_bytes());
/// # Ok::<(), brwhash::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct Digest {
    bytes: [u8; 32],
    len: u8,
}

/// The output of MAC mode (SPEC.md section 7); same representation as [`Digest`].
///
/// ```
/// use brwhash::{Algorithm, Mac, Tag};
/// let tag: Tag = Mac::new(Algorithm::POLYHASH1305, &[1u8; 32])?.tag(b"m");
/// assert_eq!(tag.as_bytes().len(), 16);
/// # Ok::<(), brwhash::Error>(())
/// ```
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

    /// A 16-byte digest from its little-endian integer, its bytes written as one vector
    /// (`backend::digest_bytes`): a caller that moves the digest with 16-byte loads just
    /// after two 8-byte stores of them would stall on store-to-load forwarding.
    #[inline(always)]
    pub(crate) fn from_u128(v: u128) -> Digest {
        Digest {
            bytes: crate::backend::digest_bytes(v),
            len: 16,
        }
    }

    /// Overwrites the bytes with zeros (for an intermediate value that must not linger, such
    /// as the MAC's digest before s is added).
    pub(crate) fn wipe(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.bytes);
    }

    /// The bytes (16 or 32).
    ///
    /// ```
    /// let d = brwhash::hash(brwhash::Algorithm::HASH2L256, &[1u8; 32], b"m")?;
    /// let bytes: [u8; 32] = d.as_bytes().try_into().unwrap();
    /// assert_eq!(&bytes[..], d.as_bytes());
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }

    /// Lower-case hex of the bytes in memory order.
    ///
    /// ```
    /// // RFC 8439, section 2.5.2.
    /// let key = hex_key("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b");
    /// let tag = brwhash::hash(brwhash::Algorithm::POLY1305, &key, b"Cryptographic Forum Research Group")?;
    /// assert_eq!(tag.to_hex(), "a8061dc1305136c6c22b8baf0c0127a9");
    /// # fn hex_key(s: &str) -> Vec<u8> {
    /// #     (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
    /// # }
    /// # Ok::<(), brwhash::Error>(())
    /// ```
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
    ///
    /// ```
    /// let d = brwhash::hash(brwhash::Algorithm::POLYHASH1305, &[1u8; 16], b"m")?;
    /// assert!(d.ct_eq_bytes(d.as_bytes()));
    /// assert!(!d.ct_eq_bytes(&d.as_bytes()[..15]));
    /// # Ok::<(), brwhash::Error>(())
    /// ```
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
