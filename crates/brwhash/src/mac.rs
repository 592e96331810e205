//! One-time-key MAC mode (SPEC.md section 7): tag = digest + s (prime fields, modulo 2^mu)
//! or digest XOR s (binary fields), with key tau || s.

use zeroize::Zeroize;

use crate::algorithm::Prime;
use crate::{Algorithm, Backend, Digest, Error, Hasher, Key, Tag};

/// A one-time MAC key: tau || s. **A key must never authenticate two different messages**;
/// derive a fresh (tau, s) per message, e.g. from a stream cipher and a nonce.
///
/// A `Mac` computes the key powers for messages of any length (and for streaming with
/// [`Mac::hasher`]); for one message in one call, [`crate::mac`] is cheaper: it computes
/// only the powers that message needs.
///
/// ```
/// use brwhash::{Algorithm, Mac};
/// let alg: Algorithm = "4-Hash1271".parse()?;
/// let mac = Mac::new(alg, &[9u8; 32])?;
/// let tag = mac.tag(b"message");
/// assert!(mac.verify(b"message", tag.as_ref()));
/// assert!(!mac.verify(b"massage", tag.as_ref()));
/// # Ok::<(), brwhash::Error>(())
/// ```
pub struct Mac {
    key: Key,
    s: [u8; 32],
}

impl Mac {
    /// A MAC key for `alg` from [`Algorithm::mac_key_len`] bytes (an error for Poly1305,
    /// which has no MAC mode: it already is a MAC).
    ///
    /// ```
    /// use brwhash::{Algorithm, Mac};
    /// let mac = Mac::new(Algorithm::HASH2L256, &[1u8; 64])?; // tau (32) || s (32)
    /// assert_eq!(mac.tag(b"m").as_bytes().len(), 32);
    /// assert!(Mac::new(Algorithm::POLY1305, &[1u8; 32]).is_err()); // Poly1305 already is a MAC
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    pub fn new(alg: Algorithm, key: &[u8]) -> Result<Mac, Error> {
        Mac::build(alg, key, None)
    }

    /// Like [`Mac::new`] with an explicit backend.
    ///
    /// ```
    /// use brwhash::{Algorithm, Backend, Mac};
    /// let alg = Algorithm::POLYHASH1271;
    /// let portable = Mac::with_backend(alg, &[3u8; 32], Backend::Portable)?;
    /// assert_eq!(portable.tag(b"m"), Mac::new(alg, &[3u8; 32])?.tag(b"m"));
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    pub fn with_backend(alg: Algorithm, key: &[u8], backend: Backend) -> Result<Mac, Error> {
        Mac::build(alg, key, Some(backend))
    }

    fn build(alg: Algorithm, key: &[u8], backend: Option<Backend>) -> Result<Mac, Error> {
        let (tau, s) = split_key(alg, key)?;
        let key = match backend {
            Some(b) => Key::with_backend(alg, tau, b)?,
            None => Key::new(alg, tau)?,
        };
        Ok(Mac { key, s })
    }

    /// The hash key (tau) with its powers.
    ///
    /// ```
    /// use brwhash::{Algorithm, Mac};
    /// let mac = Mac::new(Algorithm::POLYHASH1305, &[3u8; 32])?;
    /// // The tag is the digest under tau plus s: different from the digest.
    /// assert_ne!(mac.tag(b"m"), mac.key().hash(b"m"));
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    pub fn key(&self) -> &Key {
        &self.key
    }

    /// The tag of `msg` (for vecHash2L: of the one-component vector `(msg)`).
    ///
    /// ```
    /// use brwhash::{Algorithm, Mac};
    /// let mac = Mac::new("4-Hash1271".parse()?, &[3u8; 32])?;
    /// let tag = mac.tag(b"one message per key");
    /// assert_eq!(tag.to_hex().len(), 32);
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    pub fn tag(&self, msg: &[u8]) -> Tag {
        self.finish(self.key.hash(msg))
    }

    /// The tag of a vecHash2L vector.
    ///
    /// ```
    /// use brwhash::{Algorithm, Mac};
    /// let mac = Mac::new(Algorithm::VECHASH2L128, &[3u8; 32])?;
    /// let tag = mac.tag_vector(&[b"header", b"payload"])?;
    /// assert!(mac.verify_vector(&[b"header", b"payload"], tag.as_ref()));
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    pub fn tag_vector(&self, components: &[&[u8]]) -> Result<Tag, Error> {
        Ok(self.finish(self.key.hash_vector(components)?))
    }

    /// Whether `tag` is the tag of `msg`: the full tag is recomputed and compared in
    /// constant time. A tag of the wrong length is rejected.
    ///
    /// ```
    /// use brwhash::{Algorithm, Mac};
    /// let mac = Mac::new(Algorithm::BRWHASH1305, &[3u8; 32])?;
    /// let tag = mac.tag(b"payload");
    /// assert!(mac.verify(b"payload", tag.as_ref()));
    /// assert!(!mac.verify(b"Payload", tag.as_ref()));
    /// assert!(!mac.verify(b"payload", &tag.as_bytes()[..8]));
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    pub fn verify(&self, msg: &[u8], tag: &[u8]) -> bool {
        self.tag(msg).ct_eq_bytes(tag)
    }

    /// Whether `tag` is the tag of the vecHash2L vector `components` (false on a bad count).
    ///
    /// ```
    /// use brwhash::{Algorithm, Mac};
    /// let mac = Mac::new(Algorithm::VECHASH2L256, &[3u8; 64])?;
    /// let tag = mac.tag_vector(&[b"a", b"b"])?;
    /// assert!(!mac.verify_vector(&[b"ab"], tag.as_ref()));
    /// assert!(!mac.verify_vector(&[], tag.as_ref())); // a bad count is a rejection
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    pub fn verify_vector(&self, components: &[&[u8]], tag: &[u8]) -> bool {
        self.tag_vector(components)
            .is_ok_and(|t| t.ct_eq_bytes(tag))
    }

    /// A streaming MAC computation: a [`Hasher`] whose `finalize` gives the tag and whose
    /// `verify` checks one.
    ///
    /// ```
    /// use brwhash::{Algorithm, Mac};
    /// let mac = Mac::new(Algorithm::HASH2L128, &[3u8; 32])?;
    /// let mut h = mac.hasher();
    /// h.update(b"big ")?.update(b"file")?;
    /// assert_eq!(h.finalize(), mac.tag(b"big file"));
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    pub fn hasher(&self) -> Hasher<'_> {
        Hasher::with_mac_key(&self.key, &self.s)
    }

    /// The key half s.
    pub(crate) fn s(&self) -> &[u8; 32] {
        &self.s
    }

    /// The tag of a digest under this key's s.
    #[cfg(feature = "parallel")]
    pub(crate) fn finish_tag(&self, digest: Digest) -> Tag {
        self.finish(digest)
    }

    fn finish(&self, digest: Digest) -> Tag {
        mac_tag(self.key.algorithm(), digest, &self.s)
    }
}

/// A MAC key tau || s split into tau and s (zero-padded to 32 bytes; the caller wipes it),
/// after checking that `alg` has a MAC mode and the key's length.
pub(crate) fn split_key(alg: Algorithm, key: &[u8]) -> Result<(&[u8], [u8; 32]), Error> {
    let expected = alg
        .mac_key_len()
        .ok_or_else(|| Error::NoMacMode(alg.to_string()))?;
    if key.len() != expected {
        return Err(Error::KeyLength {
            algorithm: alg.to_string(),
            mode: "mac",
            expected,
            got: key.len(),
        });
    }
    let (tau, s_bytes) = key.split_at(alg.key_len());
    let mut s = [0u8; 32];
    s[..s_bytes.len()].copy_from_slice(s_bytes);
    Ok((tau, s))
}

/// tag = (digest + (s mod 2^mu)) mod 2^mu for the primes, digest XOR s for binary fields.
/// The digest and the copies made here are wiped: with the tag, the digest gives s.
pub(crate) fn mac_tag(alg: Algorithm, mut digest: Digest, s: &[u8; 32]) -> Tag {
    let d = digest.as_bytes();
    let tag = match alg.prime() {
        Some(prime) => {
            let mu_mask = match prime {
                Prime::P1271 => (1u128 << 126) - 1,
                Prime::P1305 => u128::MAX,
            };
            let mut dv = [0u8; 16];
            dv.copy_from_slice(&d[..16]);
            let mut sv = [0u8; 16];
            sv.copy_from_slice(&s[..16]);
            let tag = u128::from_le_bytes(dv).wrapping_add(u128::from_le_bytes(sv) & mu_mask);
            dv.zeroize();
            sv.zeroize();
            Digest::new(&(tag & mu_mask).to_le_bytes())
        }
        None => {
            let mut t = [0u8; 32];
            for (i, b) in d.iter().enumerate() {
                t[i] = b ^ s[i];
            }
            let tag = Digest::new(&t[..d.len()]);
            t.zeroize();
            tag
        }
    };
    digest.wipe();
    tag
}

impl Drop for Mac {
    fn drop(&mut self) {
        self.s.zeroize();
    }
}

impl core::fmt::Debug for Mac {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Mac")
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}
