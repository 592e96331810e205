//! One-time-key MAC mode (SPEC.md section 7): tag = digest + s (prime fields, modulo 2^mu)
//! or digest XOR s (binary fields), with key tau || s.

use zeroize::Zeroize;

use crate::algorithm::Prime;
use crate::{Algorithm, Backend, Digest, Error, Hasher, Key, Tag};

/// A one-time MAC key: tau || s. **A key must never authenticate two different messages**;
/// derive a fresh (tau, s) per message, e.g. from a stream cipher and a nonce.
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
    pub fn new(alg: Algorithm, key: &[u8]) -> Result<Mac, Error> {
        Mac::build(alg, key, None)
    }

    /// Like [`Mac::new`] with an explicit backend.
    pub fn with_backend(alg: Algorithm, key: &[u8], backend: Backend) -> Result<Mac, Error> {
        Mac::build(alg, key, Some(backend))
    }

    fn build(alg: Algorithm, key: &[u8], backend: Option<Backend>) -> Result<Mac, Error> {
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
        let key = match backend {
            Some(b) => Key::with_backend(alg, tau, b)?,
            None => Key::new(alg, tau)?,
        };
        let mut s = [0u8; 32];
        s[..s_bytes.len()].copy_from_slice(s_bytes);
        Ok(Mac { key, s })
    }

    /// The hash key (tau) with its powers.
    pub fn key(&self) -> &Key {
        &self.key
    }

    /// The tag of `msg` (for vecHash2L: of the one-component vector `(msg)`).
    pub fn tag(&self, msg: &[u8]) -> Tag {
        self.finish(self.key.hash(msg))
    }

    /// The tag of a vecHash2L vector.
    pub fn tag_vector(&self, components: &[&[u8]]) -> Result<Tag, Error> {
        Ok(self.finish(self.key.hash_vector(components)?))
    }

    /// Whether `tag` is the tag of `msg`: the full tag is recomputed and compared in
    /// constant time. A tag of the wrong length is rejected.
    pub fn verify(&self, msg: &[u8], tag: &[u8]) -> bool {
        self.tag(msg).ct_eq_bytes(tag)
    }

    /// Whether `tag` is the tag of the vecHash2L vector `components` (false on a bad count).
    pub fn verify_vector(&self, components: &[&[u8]], tag: &[u8]) -> bool {
        self.tag_vector(components)
            .is_ok_and(|t| t.ct_eq_bytes(tag))
    }

    /// A streaming MAC computation.
    pub fn hasher(&self) -> MacHasher<'_> {
        MacHasher {
            mac: self,
            inner: Hasher::new(&self.key),
        }
    }

    /// tag = (digest + (s mod 2^mu)) mod 2^mu for the primes, digest XOR s for binary fields.
    fn finish(&self, digest: Digest) -> Tag {
        let d = digest.as_bytes();
        match self.key.algorithm().prime() {
            Some(prime) => {
                let mu_mask = match prime {
                    Prime::P1271 => (1u128 << 126) - 1,
                    Prime::P1305 => u128::MAX,
                };
                let dv = u128::from_le_bytes(d.try_into().expect("16-byte prime digest"));
                let mut s = [0u8; 16];
                s.copy_from_slice(&self.s[..16]);
                let sv = u128::from_le_bytes(s) & mu_mask;
                s.zeroize();
                Digest::new(&(dv.wrapping_add(sv) & mu_mask).to_le_bytes())
            }
            None => {
                let mut t = [0u8; 32];
                for (i, b) in d.iter().enumerate() {
                    t[i] = b ^ self.s[i];
                }
                Digest::new(&t[..d.len()])
            }
        }
    }
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

/// Streaming MAC: the [`Hasher`] API, finishing with a tag.
#[derive(Clone)]
pub struct MacHasher<'m> {
    mac: &'m Mac,
    inner: Hasher<'m>,
}

impl MacHasher<'_> {
    /// See [`Hasher::update`].
    pub fn update(&mut self, data: &[u8]) -> Result<&mut Self, Error> {
        self.inner.update(data)?;
        Ok(self)
    }

    /// See [`Hasher::next_component`].
    pub fn next_component(&mut self) -> Result<&mut Self, Error> {
        self.inner.next_component()?;
        Ok(self)
    }

    /// The tag of everything absorbed.
    pub fn finalize(&self) -> Tag {
        self.mac.finish(self.inner.finalize())
    }

    /// Constant-time check of `tag` against the tag of everything absorbed.
    pub fn verify(&self, tag: &[u8]) -> bool {
        self.finalize().ct_eq_bytes(tag)
    }
}
