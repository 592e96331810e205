//! Keys with precomputed powers, and the streaming [`Hasher`].

use zeroize::Zeroize;

use crate::algorithm::{BinaryField as BinField, Family, Prime};
#[cfg(target_arch = "x86_64")]
use crate::backend::{clmul128, clmul256, vclmul128, vclmul256};
use crate::backend::{SimdPrime, SimdState};
use crate::construct::{
    dec_short_squares, horner_powers_needed, squares_needed, BinHasher, BinPowers, Powers,
    PrimeHasher,
};
use crate::eval::G;
use crate::field::{Clamped, Fp1271, Fp1305, Gf128, Gf256, PrimeField};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, OnceLock};

use crate::{Algorithm, Backend, Digest, Error, Mac};

/// Longest message (and vecHash2L component): N < 2^61 bytes, so L = 8N < 2^64.
///
/// ```
/// assert_eq!(brwhash::MAX_MESSAGE_BYTES, (1u64 << 61) - 1);
/// ```
pub const MAX_MESSAGE_BYTES: u64 = (1 << 61) - 1;

/// Largest vecHash2L component count.
///
/// ```
/// use brwhash::{Algorithm, MAX_COMPONENTS};
/// let parts = vec![&b""[..]; MAX_COMPONENTS + 1];
/// assert!(brwhash::hash_vector(Algorithm::VECHASH2L128, &[0u8; 16], &parts).is_err());
/// assert!(brwhash::hash_vector(Algorithm::VECHASH2L128, &[0u8; 16], &parts[1..]).is_ok());
/// ```
pub const MAX_COMPONENTS: usize = 255;

/// Poly1305's clamp of r (RFC 8439).
const POLY1305_CLAMP: u128 = 0x0ffffffc_0ffffffc_0ffffffc_0fffffff;

enum Material {
    P1271(Box<Powers<Fp1271>>),
    P1305(Box<Powers<Fp1305>>),
    G128(Box<BinPowers<Gf128>>),
    /// GF(2^128) and GF(2^256) on PCLMULQDQ (only for a key whose backend is `pclmul`).
    #[cfg(target_arch = "x86_64")]
    G128c(Box<BinPowers<clmul128::Gf128c>>),
    #[cfg(target_arch = "x86_64")]
    G256c(Box<BinPowers<clmul256::Gf256c>>),
    G256(Box<BinPowers<Gf256>>),
}

/// A hash key for one algorithm, with its key powers computed once (SPEC.md section 5).
///
/// Key material (the key, its powers, Poly1305's s) is zeroized on drop and never printed.
///
/// ```
/// use brwhash::{Algorithm, Key};
/// let key = Key::new(Algorithm::POLYHASH1271, &[7u8; 16])?;
/// let d = key.hash(b"hello");
/// assert_eq!(d, brwhash::hash(Algorithm::POLYHASH1271, &[7u8; 16], b"hello")?);
/// # Ok::<(), brwhash::Error>(())
/// ```
pub struct Key {
    alg: Algorithm,
    backend: Backend,
    material: Material,
    /// Poly1305's s (the second key half); zero for every other algorithm.
    poly1305_s: [u8; 16],
    /// A prime-field message of at most this many bytes goes to the scalar backend's code
    /// (`None`: never); with [`crossover`](Self::crossover), fixed at build time so that a
    /// short message pays no dispatch (Poly1305 with a key on IFMA, TSC cycles per message:
    /// 16 B 55 -> 28, 64 B 70 -> 53, 512 B 128 -> 108).
    scalar_up_to: Option<usize>,
    /// `SimdState::one_shot_crossover` of the key's algorithm and backend (keyed).
    crossover: usize,
    /// Messages hashed, counted to 2 ([`note_use`](Self::note_use)).
    uses: AtomicU32,
    /// The longest message (in bytes) whose squarings `material` holds: a prime-field key
    /// computes those of messages up to [`KEY_SQUARES_BYTES`] (or its one length), and
    /// [`long`](Self::long) the rest.
    covers: u64,
    /// `material` with every squaring, for messages longer than [`covers`](Self::covers):
    /// built at the first of them ([`material_for`](Self::material_for)).
    long: OnceLock<Material>,
}

/// A prime-field [`Key`] computes the squarings x^(2^j) of messages of up to this many bytes
/// (25 of them for 2^130 - 5, 24 for 2^127 - 1), and the rest (up to 60, for 2^61 bytes) at
/// its first longer message: a chain of dependent squarings that a key used for short
/// messages only (a MAC's one-time key, a stream of a few KiB) never needs. Zen 5, min TSC
/// cycles of `Key::new` and one message (timing loop), 60 squarings -> 24-25, 64 B / 1 KiB:
/// 4-decBRWHash1305 1319 / 1300 -> 637 / 832, 4-Hash1271 867 / 1124 -> 503 / 763,
/// BRWHash1305 1079 / 1443 -> 591 / 932, 8-decBRWHash1271 812 / 1001 -> 471 / 650; with a
/// key, and at 1 MiB, unchanged. A longer message pays the other 35 once per key (about 500
/// TSC cycles, under 0.001% of 64 MiB).
pub(crate) const KEY_SQUARES_BYTES: u64 = 1 << 26;

impl Key {
    /// A key for `alg` from its key bytes ([`Algorithm::key_len`]); powers for messages of
    /// any length are precomputed. The backend is chosen as [`Backend::select`] says.
    ///
    /// ```
    /// use brwhash::{Algorithm, Key};
    /// let key = Key::new(Algorithm::HASH2L256, &[8u8; 32])?;
    /// assert_eq!(key.hash(b"x").as_bytes().len(), 32);
    /// assert!(Key::new(Algorithm::HASH2L256, &[8u8; 16]).is_err()); // GF(2^256) keys are 32 bytes
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    pub fn new(alg: Algorithm, key: &[u8]) -> Result<Key, Error> {
        Key::build(alg, key, None, MAX_MESSAGE_BYTES, G)
    }

    /// Like [`Key::new`] with an explicit backend: an error when it cannot run here.
    ///
    /// ```
    /// use brwhash::{Algorithm, Backend, Key};
    /// let portable = Key::with_backend(Algorithm::POLY1305, &[4u8; 32], Backend::Portable)?;
    /// assert_eq!(portable.backend(), Backend::Portable);
    /// assert_eq!(portable.hash(b"m"), Key::new(Algorithm::POLY1305, &[4u8; 32])?.hash(b"m"));
    /// // A binary-field backend has no code for a prime-field function: an error, not a fallback.
    /// assert!(Key::with_backend(Algorithm::POLY1305, &[4u8; 32], Backend::Pclmul).is_err());
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    pub fn with_backend(alg: Algorithm, key: &[u8], backend: Backend) -> Result<Key, Error> {
        Key::build(alg, key, Some(backend), MAX_MESSAGE_BYTES, G)
    }

    /// A tuning knob for research (SPEC.md section 6): [`Key::with_backend`] on the
    /// `portable` or `scalar` backend with the delayed-reduction Horner group size g (1..=8;
    /// the default is 8) for polyHash, Poly1305 and the Horner parts of t-BRWHash, d-2LHash
    /// and d-Hash. g changes the speed, never the output. (SIMD backends evaluate Horner in
    /// lanes and have no such knob: they are an error here.)
    ///
    /// ```
    /// use brwhash::{Algorithm, Backend, Key};
    /// let alg = Algorithm::POLYHASH1271;
    /// let g1 = Key::with_horner_group(alg, &[9u8; 16], Backend::Portable, 1)?;
    /// assert_eq!(g1.hash(b"same bytes"), Key::new(alg, &[9u8; 16])?.hash(b"same bytes"));
    /// assert!(Key::with_horner_group(alg, &[9u8; 16], Backend::Portable, 9).is_err());
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    pub fn with_horner_group(
        alg: Algorithm,
        key: &[u8],
        backend: Backend,
        g: usize,
    ) -> Result<Key, Error> {
        if !(1..=G).contains(&g) {
            return Err(Error::ParameterOutOfRange {
                name: format!("Horner group g = {g} for {alg}"),
                range: "g = 1..8",
            });
        }
        if !matches!(backend, Backend::Portable | Backend::Scalar) {
            return Err(Error::BackendUnavailable {
                backend: backend.name(),
                reason: "the Horner group size applies to the portable and scalar backends".into(),
            });
        }
        Key::build(alg, key, Some(backend), MAX_MESSAGE_BYTES, g)
    }

    /// A key whose powers cover messages of up to `max_len` bytes (one-shot hashing).
    pub(crate) fn for_length(alg: Algorithm, key: &[u8], max_len: u64) -> Result<Key, Error> {
        Key::build(alg, key, None, max_len, G)
    }

    /// [`Key::for_length`] with an explicit backend.
    pub(crate) fn for_length_with(
        alg: Algorithm,
        key: &[u8],
        max_len: u64,
        backend: Option<Backend>,
    ) -> Result<Key, Error> {
        Key::build(alg, key, backend, max_len, G)
    }

    fn build(
        alg: Algorithm,
        key: &[u8],
        backend: Option<Backend>,
        max_len: u64,
        group: usize,
    ) -> Result<Key, Error> {
        // A key for one length computes that length's squarings at once.
        let squares_for = if max_len == MAX_MESSAGE_BYTES {
            KEY_SQUARES_BYTES
        } else {
            max_len
        };
        Key::build_covering(alg, key, backend, max_len, group, squares_for)
    }

    /// A key whose squarings serve messages of up to `squares_for` bytes at first (see
    /// [`KEY_SQUARES_BYTES`]), for tests of the longer messages' powers: the digests never
    /// depend on it.
    #[doc(hidden)]
    pub fn with_squares_for(
        alg: Algorithm,
        key: &[u8],
        backend: Backend,
        squares_for: u64,
    ) -> Result<Key, Error> {
        Key::build_covering(alg, key, Some(backend), MAX_MESSAGE_BYTES, G, squares_for)
    }

    fn build_covering(
        alg: Algorithm,
        key: &[u8],
        backend: Option<Backend>,
        max_len: u64,
        group: usize,
        squares_for: u64,
    ) -> Result<Key, Error> {
        if key.len() != alg.key_len() {
            return Err(Error::KeyLength {
                algorithm: alg.to_string(),
                mode: "digest",
                expected: alg.key_len(),
                got: key.len(),
            });
        }
        let backend = Backend::select(alg, backend)?;
        let mut k16 = [0u8; 16];
        k16.copy_from_slice(&key[..16]);
        let mut poly1305_s = [0u8; 16];
        // Only the prime fields' squarings grow with the length (Hash2L reads j <= 5).
        let covers = match alg.prime() {
            Some(_) => max_len.min(squares_for),
            None => u64::MAX,
        };
        let material = match alg.family() {
            Family::Poly1305 => {
                poly1305_s.copy_from_slice(&key[16..32]);
                let r = u128::from_le_bytes(k16) & POLY1305_CLAMP;
                let x = Fp1305::from_key(&r.to_le_bytes());
                // The SIMD lanes' powers are x^1 .. x^8 and the key's lane table.
                let gamma_log = None;
                let (n_sq, n_hx) = powers_needed(alg, max_len, 16, gamma_log, group);
                Material::P1305(Powers::new(x, n_sq, n_hx, gamma_log))
            }
            family => {
                let block = if alg.prime() == Some(Prime::P1271) {
                    15
                } else {
                    16
                };
                let gamma_log = match family {
                    Family::DHash(_, _) if horner_only(alg, max_len, block) => None,
                    Family::TwoLHash(d, _) | Family::DHash(d, _) => Some(d as usize),
                    Family::Hash2L(_) | Family::VecHash2L(_) => Some(5),
                    // gamma = x^2: x^2 .. x^16 weigh the blocks of a message of one block per
                    // stream (`scalar::dec_single`; c <= 4 reads the Horner powers x^1 ..
                    // x^(2c)), products a key makes once.
                    Family::DecBrwHash(5..=8, _) => Some(1),
                    _ => None,
                };
                #[cfg(target_arch = "x86_64")]
                let n_end =
                    crate::construct::end_weights_needed(alg.is_vector(), key.len(), max_len);
                // Binary fields: as many squarings (and gamma) as the length needs.
                #[cfg(target_arch = "x86_64")]
                let (n_sq_bin, gamma_bin) = match crate::construct::hash2l_squares_needed(
                    alg.is_vector(),
                    key.len(),
                    max_len,
                ) {
                    (n, false) => (n, None),
                    (n, true) => (n, gamma_log),
                };
                match (alg.prime(), alg.binary_field()) {
                    (Some(Prime::P1271), _) => {
                        let (n_sq, n_hx) = powers_needed(alg, max_len, 15, gamma_log, group);
                        let n_sq = n_sq.min(squares_needed(covers, 15));
                        let x = Fp1271::from_key(&k16);
                        let p = Powers::new(x, n_sq, n_hx, gamma_log);
                        if max_len < MAX_MESSAGE_BYTES {
                            fill_dec_pairs(alg, max_len, 15, &p);
                        }
                        Material::P1271(p)
                    }
                    (Some(Prime::P1305), _) => {
                        let (n_sq, n_hx) = powers_needed(alg, max_len, 16, gamma_log, group);
                        let n_sq = n_sq.min(squares_needed(covers, 16));
                        let x = Fp1305::from_key(&k16);
                        let p = Powers::new(x, n_sq, n_hx, gamma_log);
                        if max_len < MAX_MESSAGE_BYTES {
                            fill_dec_pairs(alg, max_len, 16, &p);
                        }
                        Material::P1305(p)
                    }
                    // Binary fields: Hash2L uses x^(2^j), j < 6 (x^32 for gamma), and no
                    // Horner in x; PCLMULQDQ keys hold the powers in its own field type.
                    (None, Some(BinField::Gf256)) => {
                        let x = <Gf256 as crate::field::BinaryField>::from_bytes(key);
                        match () {
                            #[cfg(target_arch = "x86_64")]
                            () if matches!(backend, Backend::Pclmul | Backend::Vpclmul) => {
                                Material::G256c(clmul256::powers(
                                    key,
                                    n_sq_bin,
                                    gamma_bin,
                                    n_end,
                                    alg.is_vector(),
                                ))
                            }
                            () => Material::G256(Powers::new(x, 6, 1, gamma_log)),
                        }
                    }
                    (None, _) => {
                        let x = <Gf128 as crate::field::BinaryField>::from_bytes(key);
                        match () {
                            #[cfg(target_arch = "x86_64")]
                            () if matches!(backend, Backend::Pclmul | Backend::Vpclmul) => {
                                Material::G128c(clmul128::powers(
                                    key,
                                    n_sq_bin,
                                    gamma_bin,
                                    n_end,
                                    alg.is_vector(),
                                ))
                            }
                            () => Material::G128(Powers::new(x, 6, 1, gamma_log)),
                        }
                    }
                }
            }
        };
        k16.zeroize();
        let crossover = SimdState::<Fp1305>::one_shot_crossover(alg, backend, true);
        let scalar_up_to = match backend {
            #[cfg(target_arch = "x86_64")]
            Backend::Scalar => Some(usize::MAX),
            #[cfg(target_arch = "x86_64")]
            Backend::Portable => None,
            #[cfg(target_arch = "x86_64")]
            _ if crate::backend::scalar_here() => Some(crossover),
            _ => None,
        };
        Ok(Key {
            alg,
            backend,
            material,
            poly1305_s,
            scalar_up_to,
            crossover,
            // A key for one length (one message) never builds the tables.
            uses: AtomicU32::new(if max_len == MAX_MESSAGE_BYTES { 0 } else { 2 }),
            covers,
            long: OnceLock::new(),
        })
    }

    /// Counts a message hashed with the key, and builds the key's tables (SIMD lane powers
    /// and weights, c-decBRWHash's short-message weights) at the second: they save less on
    /// one message than they cost to build, so a one-time key (Poly1305's, a MAC's) never
    /// builds them, and a key used again has them from its second message on. Zen 5, min
    /// TSC cycles of `Key::new` and one message, tables built at once -> at the second
    /// message: Poly1305 64 B 685 -> 295, 4 KiB 910 -> 637; 4-decBRWHash1305 64 B 2366 ->
    /// 1228, 4 KiB 2827 -> 1533; 8-decBRWHash1305 64 B 2720 -> 1274; 4-decBRWHash1271 64 B
    /// 1621 -> 812. (A key computes the squarings x^(2^j) of messages up to 64 MiB at once:
    /// [`KEY_SQUARES_BYTES`].)
    #[inline]
    fn note_use(&self) {
        // Relaxed: the tables are built once (`OnceLock`), and a message hashed while they
        // are being built takes the way without them, with the same output.
        if self.uses.load(Ordering::Relaxed) < 2 && self.uses.fetch_add(1, Ordering::Relaxed) == 1 {
            self.build_tables();
        }
    }

    /// The key material for a message of `len` bytes (or a stream that has reached it): the
    /// key's own, or past [`covers`](Self::covers) a copy with every squaring, made once.
    #[inline(always)]
    fn material_for(&self, len: u64) -> &Material {
        if len <= self.covers {
            &self.material
        } else {
            self.long_material()
        }
    }

    #[cold]
    fn long_material(&self) -> &Material {
        self.long.get_or_init(|| match &self.material {
            Material::P1271(p) => {
                let mut q = p.clone();
                q.extend_squares(squares_needed(MAX_MESSAGE_BYTES, 15));
                Material::P1271(q)
            }
            Material::P1305(p) => {
                let mut q = p.clone();
                q.extend_squares(squares_needed(MAX_MESSAGE_BYTES, 16));
                Material::P1305(q)
            }
            _ => unreachable!("a binary-field key covers every length"),
        })
    }

    #[cold]
    fn build_tables(&self) {
        match &self.material {
            Material::P1271(p) => fill_tables(self.alg, self.backend, 15, p),
            Material::P1305(p) => fill_tables(self.alg, self.backend, 16, p),
            _ => {}
        }
    }

    /// The algorithm this key is for.
    ///
    /// ```
    /// use brwhash::{Algorithm, Key};
    /// let key = Key::new("8-decBRWHash1305".parse()?, &[1u8; 16])?;
    /// assert_eq!(key.algorithm().to_string(), "8-decBRWHash1305");
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    pub fn algorithm(&self) -> Algorithm {
        self.alg
    }

    /// The backend that computes this key's hashes.
    ///
    /// ```
    /// use brwhash::{Algorithm, Key};
    /// let key = Key::new(Algorithm::HASH2L128, &[1u8; 16])?;
    /// println!("Hash2L128 runs on {}", key.backend()); // e.g. vpclmul
    /// assert!(key.backend().check(Algorithm::HASH2L128).is_ok());
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Poly1305's s, added to its digest.
    pub(crate) fn poly1305_s(&self) -> Option<&[u8; 16]> {
        (self.alg == Algorithm::POLY1305).then_some(&self.poly1305_s)
    }

    /// The key's field and powers for a message of `len` bytes, for code that joins values
    /// of pieces of a message (`parallel`).
    #[cfg(feature = "parallel")]
    pub(crate) fn powers(&self, len: u64) -> KeyPowers<'_> {
        match self.material_for(len) {
            Material::P1271(p) => KeyPowers::P1271(p),
            Material::P1305(p) => KeyPowers::P1305(p),
            Material::G128(p) => KeyPowers::G128(p.x()),
            #[cfg(target_arch = "x86_64")]
            Material::G128c(p) => KeyPowers::G128(binary_to_portable(p.x())),
            #[cfg(target_arch = "x86_64")]
            Material::G256c(p) => KeyPowers::G256(binary_to_portable(p.x())),
            Material::G256(p) => KeyPowers::G256(p.x()),
        }
    }

    /// v of SPEC.md section 5 (before `out()`, and before Poly1305's s) of `msg` under this
    /// prime-field key, by the fastest code for it: what [`Key::hash`] computes.
    #[cfg(feature = "parallel")]
    pub(crate) fn value_1305(&self, p: &Powers<Fp1305>, msg: &[u8]) -> Fp1305 {
        poly1305_scalar(self, p, msg)
            .or_else(|| simd_one_shot(self, p, msg))
            .unwrap_or_else(|| self.value_as(self.alg, p, msg))
    }

    /// [`Key::value_1305`] for 2^127 - 1.
    #[cfg(feature = "parallel")]
    pub(crate) fn value_1271(&self, p: &Powers<Fp1271>, msg: &[u8]) -> Fp1271 {
        simd_one_shot(self, p, msg).unwrap_or_else(|| self.value_as(self.alg, p, msg))
    }

    /// v of `msg` for `alg`, a function whose key powers are a subset of this key's (the
    /// same x): BRWHash inside t-BRWHash, d-2LHash inside d-Hash.
    #[cfg(feature = "parallel")]
    pub(crate) fn value_as<F: SimdPrime>(&self, alg: Algorithm, p: &Powers<F>, msg: &[u8]) -> F {
        let mut h = PrimeHasher::new(alg, self.backend, Some(msg.len() as u64));
        h.update(p, msg);
        h.finish(p)
    }

    /// The digest of `msg` (for vecHash2L: of the one-component vector `(msg)`).
    ///
    /// ```
    /// use brwhash::{Algorithm, Key};
    /// let key = Key::new(Algorithm::POLYHASH1271, &[6u8; 16])?;
    /// for msg in [&b"short"[..], &[0u8; 100_000][..]] {
    ///     assert_eq!(key.hash(msg), brwhash::hash(Algorithm::POLYHASH1271, &[6u8; 16], msg)?);
    /// }
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    pub fn hash(&self, msg: &[u8]) -> Digest {
        self.note_use();
        // A SIMD backend's one-shot path keeps its state on the stack.
        let s = self.poly1305_s();
        let simd = match self.material_for(msg.len() as u64) {
            Material::P1271(p) => simd_one_shot(self, p, msg).map(|v| prime_digest(v, None)),
            Material::P1305(p) => poly1305_scalar(self, p, msg)
                .or_else(|| simd_one_shot(self, p, msg))
                .map(|v| prime_digest(v, s)),
            // Hash2L and vecHash2L on PCLMULQDQ / VPCLMULQDQ: no streaming state.
            #[cfg(target_arch = "x86_64")]
            Material::G128c(p) => Some(binary_digest(clmul128_value(
                p,
                self.backend,
                self.alg.is_vector(),
                &[msg],
            ))),
            #[cfg(target_arch = "x86_64")]
            Material::G256c(p) => Some(binary_digest(clmul256_value(
                p,
                self.backend,
                self.alg.is_vector(),
                &[msg],
            ))),
            _ => None,
        };
        if let Some(digest) = simd {
            return digest;
        }
        let mut h = Hasher::with_length(self, Some(msg.len() as u64));
        h.absorb(msg);
        h.into_digest()
    }

    /// The vecHash2L digest of `components` (1..=255 of them).
    ///
    /// ```
    /// use brwhash::{Algorithm, Key};
    /// let key = Key::new(Algorithm::VECHASH2L256, &[2u8; 32])?;
    /// let d = key.hash_vector(&[b"a", b"bc"])?;
    /// assert_eq!(d, brwhash::hash_vector(Algorithm::VECHASH2L256, &[2u8; 32], &[b"a", b"bc"])?);
    /// // Only vecHash2L takes a vector.
    /// assert!(Key::new(Algorithm::HASH2L256, &[2u8; 32])?.hash_vector(&[b"a"]).is_err());
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    pub fn hash_vector(&self, components: &[&[u8]]) -> Result<Digest, Error> {
        if !self.alg.is_vector() {
            return Err(Error::NotVector(self.alg.to_string()));
        }
        if components.is_empty() || components.len() > MAX_COMPONENTS {
            return Err(Error::ComponentCount(components.len()));
        }
        // PCLMULQDQ / VPCLMULQDQ: the whole vector in one call, no streaming state.
        #[cfg(target_arch = "x86_64")]
        {
            let v = match &self.material {
                Material::G128c(p) => Some(binary_digest(clmul128_value(
                    p,
                    self.backend,
                    true,
                    components,
                ))),
                Material::G256c(p) => Some(binary_digest(clmul256_value(
                    p,
                    self.backend,
                    true,
                    components,
                ))),
                _ => None,
            };
            if let Some(d) = v {
                return Ok(d);
            }
        }
        // The longest component stands for the length: the state that suits it.
        let longest = components.iter().map(|c| c.len() as u64).max();
        let mut h = Hasher::with_length(self, longest);
        for (i, c) in components.iter().enumerate() {
            if i > 0 {
                h.next_component()?;
            }
            h.update(c)?;
        }
        Ok(h.finalize())
    }
}

impl Drop for Key {
    fn drop(&mut self) {
        self.poly1305_s.zeroize();
    }
}

impl core::fmt::Debug for Key {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Key")
            .field("algorithm", &self.alg.to_string())
            .field("backend", &self.backend)
            .finish_non_exhaustive()
    }
}

// The variants differ in size; the few-KiB VPCLMULQDQ states are boxed (they serve long or
// streamed messages), the rest stay inline: boxing would cost short messages an allocation.
// A state holds no reference to its key's powers: the hasher looks them up in its key at each
// call, so a hasher can own its key (`Hasher::with_shared_key`).
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
/// The binary-field states are boxed (with their buffers they are 0.7-1.4 KiB): a `Hasher`
/// stays small, and moving it copies a few words.
enum State {
    P1271(PrimeHasher<Fp1271>),
    P1305(PrimeHasher<Fp1305>),
    G128(Box<BinHasher<Gf128>>),
    #[cfg(target_arch = "x86_64")]
    G128c(Box<BinHasher<clmul128::Gf128c>>),
    #[cfg(target_arch = "x86_64")]
    G256c(Box<BinHasher<clmul256::Gf256c>>),
    #[cfg(target_arch = "x86_64")]
    G128w(Box<vclmul128::State>),
    #[cfg(target_arch = "x86_64")]
    G256w(Box<vclmul256::State>),
    G256(Box<BinHasher<Gf256>>),
    /// A Hash2L message's first bytes, held until they pass [`BINARY_HOLD_BYTES`].
    Head(Head),
}

/// Bytes a Hash2L stream (not vecHash2L: its components take the states' own path) holds
/// before it builds its state: a message up to this length is hashed whole (`Key::hash`,
/// whose one-shot code keeps no heap state). Building a state for a short message cost more
/// than hashing it. Measured `brwhash bench --mode stream` (4 KiB updates, TSC cycles/byte,
/// VPCLMULQDQ, Hash2L128 / Hash2L256), building at once vs holding 2 / 4 / 8 KiB:
/// 64 B 12.1 / 15.1 vs 3.4 / 3.4, 3.4 / 3.4, 3.5 / 3.5; 1 KiB 1.01 / 1.31 vs 0.41 / 0.54,
/// 0.41 / 0.54, 0.42 / 0.55; 4 KiB 0.31 / 0.39 vs 0.24 / 0.30, 0.18 / 0.23, 0.19 / 0.23;
/// 8 KiB 0.22 / 0.32 vs 0.18 / 0.24, 0.21 / 0.28, 0.20 / 0.24; 16 KiB 0.17 / 0.25 vs
/// 0.14 / 0.20, 0.15 / 0.22, 0.18 / 0.25; 64 KiB 0.14 / 0.21 vs 0.11 / 0.18, 0.11 / 0.18,
/// 0.12 / 0.19: 2 KiB (4 KiB, better for 4 KiB messages, copies 4 KiB of every longer one).
const BINARY_HOLD_BYTES: usize = 2048;

/// The held first bytes of a message (wiped when dropped or grown: `extend_wiping`).
#[derive(Clone, Default)]
struct Head(Vec<u8>);

impl Drop for Head {
    fn drop(&mut self) {
        crate::construct::wipe_vec(&mut self.0);
        #[cfg(test)]
        crate::construct::wipe_log::note();
    }
}

/// Where a hasher's key (and, in MAC mode, the key half s) lives: borrowed, or shared with
/// the hasher through an `Arc` (for hashers that must own their key: bindings, tasks).
#[derive(Clone)]
enum Holder<'k> {
    Key(&'k Key),
    Mac(&'k Key, &'k [u8; 32]),
    SharedKey(Arc<Key>),
    SharedMac(Arc<Mac>),
}

impl Holder<'_> {
    fn key(&self) -> &Key {
        match self {
            Holder::Key(k) | Holder::Mac(k, _) => k,
            Holder::SharedKey(k) => k,
            Holder::SharedMac(m) => m.key(),
        }
    }

    /// MAC mode: the key half s added to (or XORed into) the digest at the end.
    fn mac_s(&self) -> Option<&[u8; 32]> {
        match self {
            Holder::Key(_) | Holder::SharedKey(_) => None,
            Holder::Mac(_, s) => Some(s),
            Holder::SharedMac(m) => Some(m.s()),
        }
    }

    /// The output for a finished `digest`: in MAC mode the tag under s, else the digest.
    fn output(&self, digest: Digest) -> Digest {
        match self.mac_s() {
            Some(s) => crate::mac::mac_tag(self.key().alg, digest, s),
            None => digest,
        }
    }
}

/// A hasher's state always comes from its own key's material (`Hasher::start`); other pairs
/// cannot be built.
const MISMATCH: &str = "a hasher's state matches its key's material";

/// Incremental hashing: any split of the input into [`update`](Hasher::update) calls gives
/// the one-shot digest.
///
/// ```
/// use brwhash::{Algorithm, Hasher, Key};
/// let alg: Algorithm = "4-decBRWHash1305".parse()?;
/// let key = Key::new(alg, &[1u8; 16])?;
/// let mut h = Hasher::new(&key);
/// h.update(b"hello, ")?.update(b"world")?;
/// assert_eq!(h.finalize(), key.hash(b"hello, world"));
/// # Ok::<(), brwhash::Error>(())
/// ```
///
/// A hasher made by [`Mac::hasher`](crate::Mac::hasher) finishes with the MAC tag instead.
/// [`Hasher::with_shared_key`] and [`Hasher::with_shared_mac`] give a hasher that owns its
/// key (`Hasher<'static>`), to keep in a struct or send to another thread.
///
/// Its state is secret like the key (given the message, a running value such as Horner's
/// accumulator reveals the key), so it is zeroized when it is dropped, with the message bytes
/// it holds; so are the copies that `clone` and `finalize` make.
#[derive(Clone)]
pub struct Hasher<'k> {
    holder: Holder<'k>,
    state: State,
}

impl<'k> Hasher<'k> {
    /// A new message (or vector of components) under `key`.
    ///
    /// ```
    /// use brwhash::{Algorithm, Hasher, Key};
    /// let key = Key::new(Algorithm::POLY1305, &[9u8; 32])?;
    /// let mut h = Hasher::new(&key);
    /// h.update(b"chunk 1")?.update(b"chunk 2")?;
    /// assert_eq!(h.finalize(), key.hash(b"chunk 1chunk 2"));
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    #[inline]
    pub fn new(key: &'k Key) -> Hasher<'k> {
        key.note_use();
        Hasher::with_length(key, None)
    }

    /// `length`: the message length when known in advance (one-shot), which lets the state
    /// pick the fastest code for it at once.
    #[inline(always)]
    fn with_length(key: &'k Key, length: Option<u64>) -> Hasher<'k> {
        Hasher {
            state: Hasher::start(key, length),
            holder: Holder::Key(key),
        }
    }

    #[inline(always)]
    fn start(key: &Key, length: Option<u64>) -> State {
        if length.is_none() && key.alg.binary_field().is_some() && !key.alg.is_vector() {
            return State::Head(Head::default());
        }
        Hasher::build(key, length)
    }

    /// The state of a message of `length` bytes (`None`: unknown) that holds nothing.
    /// (Inlined, as `start` and `PrimeHasher::new`: a state returned through memory stalled
    /// store-to-load forwarding when moved into the hasher.)
    #[inline(always)]
    fn build(key: &Key, length: Option<u64>) -> State {
        let (alg, backend) = (key.alg, key.backend);
        match &key.material {
            Material::P1271(_) => State::P1271(PrimeHasher::new(alg, backend, length)),
            Material::P1305(_) => State::P1305(PrimeHasher::new(alg, backend, length)),
            Material::G128(_) => State::G128(Box::default()),
            // VPCLMULQDQ pays off from two super-blocks (`construct::WIDE_FROM`); a message
            // known to be shorter takes the PCLMULQDQ state.
            #[cfg(target_arch = "x86_64")]
            Material::G128c(_)
                if backend == Backend::Vpclmul
                    && length.is_none_or(|n| n >= crate::construct::WIDE_FROM as u64 * 16) =>
            {
                State::G128w(Box::default())
            }
            #[cfg(target_arch = "x86_64")]
            Material::G128c(_) => State::G128c(Box::default()),
            #[cfg(target_arch = "x86_64")]
            Material::G256c(_)
                if backend == Backend::Vpclmul
                    && length.is_none_or(|n| n >= crate::construct::WIDE_FROM as u64 * 32) =>
            {
                State::G256w(Box::default())
            }
            #[cfg(target_arch = "x86_64")]
            Material::G256c(_) => State::G256c(Box::default()),
            Material::G256(_) => State::G256(Box::default()),
        }
    }

    /// MAC mode: finish with the tag under s.
    pub(crate) fn with_mac_key(key: &'k Key, s: &'k [u8; 32]) -> Hasher<'k> {
        key.note_use();
        Hasher {
            state: Hasher::start(key, None),
            holder: Holder::Mac(key, s),
        }
    }

    fn key(&self) -> &Key {
        self.holder.key()
    }

    /// Bytes of the message (for vecHash2L: of the current component) so far.
    fn len(&self) -> u64 {
        match &self.state {
            State::P1271(h) => h.bytes(),
            State::P1305(h) => h.bytes(),
            State::G128(h) => h.component_bytes(),
            #[cfg(target_arch = "x86_64")]
            State::G128c(h) => h.component_bytes(),
            #[cfg(target_arch = "x86_64")]
            State::G256c(h) => h.component_bytes(),
            #[cfg(target_arch = "x86_64")]
            State::G128w(h) => h.component_bytes(),
            #[cfg(target_arch = "x86_64")]
            State::G256w(h) => h.component_bytes(),
            State::G256(h) => h.component_bytes(),
            State::Head(h) => h.0.len() as u64,
        }
    }

    /// Append `data` to the message (for vecHash2L: to the current component). Fails, leaving
    /// the state unchanged, when the message would reach 2^61 bytes.
    ///
    /// ```
    /// use brwhash::{Algorithm, Hasher, Key};
    /// let key = Key::new(Algorithm::BRWHASH1271, &[1u8; 16])?;
    /// let mut h = Hasher::new(&key);
    /// for piece in [&b"any"[..], b"", b" split ", b"works"] {
    ///     h.update(piece)?;
    /// }
    /// assert_eq!(h.finalize(), key.hash(b"any split works"));
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    pub fn update(&mut self, data: &[u8]) -> Result<&mut Self, Error> {
        match self.len().checked_add(data.len() as u64) {
            Some(n) if n <= MAX_MESSAGE_BYTES => {
                self.absorb(data);
                Ok(self)
            }
            _ => Err(Error::MessageTooLong),
        }
    }

    /// `update` for a slice, which cannot reach the limit in one call from a fresh state.
    fn absorb(&mut self, data: &[u8]) {
        // The prime fields' states here, the rest out of line: a long prime-field stream's
        // update is then a few jumps to its SIMD code, without a frame of its own (the
        // binary fields' code, inlined, gave every update one of 0.7 KiB).
        let n = self.len() + data.len() as u64;
        match (self.holder.key().material_for(n), &mut self.state) {
            (Material::P1271(p), State::P1271(h)) => h.update(p, data),
            (Material::P1305(p), State::P1305(h)) => h.update(p, data),
            _ => self.absorb_binary(data),
        }
    }

    /// [`absorb`](Self::absorb) for the binary fields (and their held head).
    #[inline(never)]
    fn absorb_binary(&mut self, data: &[u8]) {
        if let State::Head(head) = &mut self.state {
            if head.0.len() + data.len() <= BINARY_HOLD_BYTES {
                return crate::construct::hold_wiping(&mut head.0, data, BINARY_HOLD_BYTES);
            }
            self.leave_head();
        }
        match (&self.holder.key().material, &mut self.state) {
            (Material::G128(p), State::G128(h)) => h.update(p, data),
            #[cfg(target_arch = "x86_64")]
            (Material::G128c(p), State::G128c(h)) => clmul128::update(h, p, data),
            #[cfg(target_arch = "x86_64")]
            (Material::G256c(p), State::G256c(h)) => clmul256::update(h, p, data),
            #[cfg(target_arch = "x86_64")]
            (Material::G128c(p), State::G128w(h)) => vclmul128::update(h, p, data),
            #[cfg(target_arch = "x86_64")]
            (Material::G256c(p), State::G256w(h)) => vclmul256::update(h, p, data),
            (Material::G256(p), State::G256(h)) => h.update(p, data),
            _ => unreachable!("{MISMATCH}"),
        }
    }

    /// Past the hold of a binary-field stream: the state, given the held bytes first.
    #[cold]
    #[inline(never)]
    fn leave_head(&mut self) {
        let built = Hasher::build(self.key(), None);
        let head = core::mem::replace(&mut self.state, built);
        if let State::Head(held) = &head {
            if !held.0.is_empty() {
                self.absorb(&held.0);
            }
        }
    }

    /// vecHash2L: end the current component and start the next one. An error for other
    /// algorithms and when the vector would exceed 255 components.
    ///
    /// ```
    /// use brwhash::{Algorithm, Hasher, Key};
    /// let key = Key::new(Algorithm::VECHASH2L128, &[7u8; 16])?;
    /// let mut h = Hasher::new(&key);
    /// h.update(b"first")?.next_component()?.update(b"second")?;
    /// assert_eq!(h.finalize(), key.hash_vector(&[b"first", b"second"])?);
    /// // Other algorithms hash one message.
    /// let other = Key::new(Algorithm::HASH2L128, &[7u8; 16])?;
    /// assert!(Hasher::new(&other).next_component().is_err());
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    pub fn next_component(&mut self) -> Result<&mut Self, Error> {
        let alg = self.key().alg;
        if !alg.is_vector() {
            return Err(Error::NotVector(alg.to_string()));
        }
        let count = match &self.state {
            State::G128(h) => h.components(),
            #[cfg(target_arch = "x86_64")]
            State::G128c(h) => h.components(),
            #[cfg(target_arch = "x86_64")]
            State::G256c(h) => h.components(),
            #[cfg(target_arch = "x86_64")]
            State::G128w(h) => h.components(),
            #[cfg(target_arch = "x86_64")]
            State::G256w(h) => h.components(),
            State::G256(h) => h.components(),
            _ => 0,
        };
        if count >= MAX_COMPONENTS {
            return Err(Error::ComponentCount(count + 1));
        }
        match (&self.holder.key().material, &mut self.state) {
            (Material::G128(p), State::G128(h)) => h.next_component(p),
            #[cfg(target_arch = "x86_64")]
            (Material::G128c(p), State::G128c(h)) => clmul128::next_component(h, p),
            #[cfg(target_arch = "x86_64")]
            (Material::G256c(p), State::G256c(h)) => clmul256::next_component(h, p),
            #[cfg(target_arch = "x86_64")]
            (Material::G128c(p), State::G128w(h)) => vclmul128::next_component(h, p),
            #[cfg(target_arch = "x86_64")]
            (Material::G256c(p), State::G256w(h)) => vclmul256::next_component(h, p),
            (Material::G256(p), State::G256(h)) => h.next_component(p),
            _ => {}
        }
        Ok(self)
    }

    /// The digest (in MAC mode: the tag) of everything absorbed; the hasher can go on
    /// absorbing afterwards.
    ///
    /// ```
    /// use brwhash::{Algorithm, Hasher, Key};
    /// let key = Key::new(Algorithm::POLYHASH1305, &[3u8; 16])?;
    /// let mut h = Hasher::new(&key);
    /// h.update(b"prefix")?;
    /// let partial = h.finalize(); // the hasher goes on
    /// h.update(b" and more")?;
    /// assert_eq!(partial, key.hash(b"prefix"));
    /// assert_eq!(h.finalize(), key.hash(b"prefix and more"));
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    pub fn finalize(&self) -> Digest {
        let key = self.key();
        // Prime-field states finish without a copy of the whole hasher (a SIMD state's box).
        let digest = match (key.material_for(self.len()), &self.state) {
            (_, State::Head(head)) => key.hash(&head.0),
            (Material::P1271(p), State::P1271(h)) => match h.whole_message() {
                Some(msg) => key.hash(msg),
                None => prime_digest(h.finish_ref(p), None),
            },
            (Material::P1305(p), State::P1305(h)) => match h.whole_message() {
                Some(msg) => key.hash(msg),
                None => prime_digest(h.finish_ref(p), key.poly1305_s()),
            },
            // VPCLMULQDQ states: a copy of the inner state only, the held bytes read in place.
            #[cfg(target_arch = "x86_64")]
            (Material::G128c(p), State::G128w(h)) => {
                binary_digest(vclmul128::finish_copy(h, p, key.alg.is_vector()))
            }
            #[cfg(target_arch = "x86_64")]
            (Material::G256c(p), State::G256w(h)) => {
                binary_digest(vclmul256::finish_copy(h, p, key.alg.is_vector()))
            }
            _ => return self.clone().into_digest(),
        };
        self.holder.output(digest)
    }

    /// [`finalize`](Hasher::finalize) for a hasher that is done: it consumes the state
    /// instead of copying it (the copy matters for SIMD states of a few KiB).
    ///
    /// ```
    /// use brwhash::{Algorithm, Hasher, Key};
    /// let key = Key::new(Algorithm::HASH2L128, &[3u8; 16])?;
    /// let mut h = Hasher::new(&key);
    /// h.update(&[0u8; 10_000])?;
    /// assert_eq!(h.into_digest(), key.hash(&[0u8; 10_000]));
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    pub fn into_digest(mut self) -> Digest {
        if let Some(digest) = self.finish_prime_in_place() {
            return self.holder.output(digest);
        }
        let Hasher { holder, state } = self;
        let digest = Hasher::digest(holder.key(), state);
        holder.output(digest)
    }

    /// The digest of a prime-field state past its held first bytes, finished where it lies
    /// (the state is used up; its drop wipes it): moving the state out of the hasher first
    /// copied it by 16-byte loads just after the last update's 8-byte stores, a
    /// store-forwarding stall (Zen 5, Poly1305 streamed as one 4 KiB update: with the other
    /// stalls of a stream's set-up, 408 -> 381 TSC cycles per message).
    fn finish_prime_in_place(&mut self) -> Option<Digest> {
        let key = self.holder.key();
        let material = key.material_for(self.len());
        match (material, &mut self.state) {
            (Material::P1271(p), State::P1271(h)) if h.whole_message().is_none() => {
                Some(prime_digest(h.finish(p), None))
            }
            (Material::P1305(p), State::P1305(h)) if h.whole_message().is_none() => {
                Some(prime_digest(h.finish(p), key.poly1305_s()))
            }
            _ => None,
        }
    }

    /// Whether `expected` equals [`finalize`](Hasher::finalize)'s output, compared in
    /// constant time (false for a wrong length). For MAC tags, and for Poly1305's tag.
    ///
    /// ```
    /// use brwhash::{Algorithm, Mac};
    /// let mac = Mac::new(Algorithm::HASH2L128, &[5u8; 32])?;
    /// let tag = mac.tag(b"streamed message");
    /// let mut h = mac.hasher();
    /// h.update(b"streamed ")?.update(b"message")?;
    /// assert!(h.verify(tag.as_ref()));
    /// assert!(!h.verify(&tag.as_bytes()[..15])); // truncated tags are rejected
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    pub fn verify(&self, expected: &[u8]) -> bool {
        self.finalize().ct_eq_bytes(expected)
    }

    /// The algorithm being computed.
    ///
    /// ```
    /// use brwhash::{Algorithm, Hasher, Key};
    /// let key = Key::new(Algorithm::POLY1305, &[1u8; 32])?;
    /// assert_eq!(Hasher::new(&key).algorithm(), Algorithm::POLY1305);
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    pub fn algorithm(&self) -> Algorithm {
        self.key().alg
    }

    /// The backend computing it.
    ///
    /// ```
    /// use brwhash::{Algorithm, Backend, Hasher, Key};
    /// let key = Key::with_backend(Algorithm::POLY1305, &[1u8; 32], Backend::Portable)?;
    /// assert_eq!(Hasher::new(&key).backend(), Backend::Portable);
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    pub fn backend(&self) -> Backend {
        self.key().backend
    }

    #[inline(always)]
    fn digest(key: &Key, state: State) -> Digest {
        let vector = key.alg.is_vector();
        // A message held whole below the SIMD crossover: the one-shot code (Poly1305's
        // clamped-key Horner, the stack states) is the fastest for it.
        let whole = match &state {
            State::P1271(h) => h.whole_message(),
            State::P1305(h) => h.whole_message(),
            State::Head(h) => Some(&h.0[..]),
            _ => None,
        };
        if let Some(msg) = whole {
            return key.hash(msg);
        }
        let n = match &state {
            State::P1271(h) => h.bytes(),
            State::P1305(h) => h.bytes(),
            _ => 0,
        };
        match (key.material_for(n), state) {
            (Material::P1271(p), State::P1271(mut h)) => prime_digest(h.finish(p), None),
            (Material::P1305(p), State::P1305(mut h)) => {
                prime_digest(h.finish(p), key.poly1305_s())
            }
            (Material::G128(p), State::G128(mut h)) => binary_digest(if vector {
                h.finish_vector(p)
            } else {
                h.finish_hash2l(p)
            }),
            #[cfg(target_arch = "x86_64")]
            (Material::G128c(p), State::G128c(h)) => binary_digest(clmul128::finish(*h, p, vector)),
            #[cfg(target_arch = "x86_64")]
            (Material::G256c(p), State::G256c(h)) => binary_digest(clmul256::finish(*h, p, vector)),
            #[cfg(target_arch = "x86_64")]
            (Material::G128c(p), State::G128w(mut h)) => {
                binary_digest(vclmul128::finish(&mut h, p, vector))
            }
            #[cfg(target_arch = "x86_64")]
            (Material::G256c(p), State::G256w(mut h)) => {
                binary_digest(vclmul256::finish(&mut h, p, vector))
            }
            (Material::G256(p), State::G256(mut h)) => binary_digest(if vector {
                h.finish_vector(p)
            } else {
                h.finish_hash2l(p)
            }),
            _ => unreachable!("{MISMATCH}"),
        }
    }
}

impl Hasher<'static> {
    /// A hasher that shares ownership of `key`: it can outlive the caller's reference, be
    /// stored in a struct or sent to another thread (as the C and Python bindings do).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use brwhash::{Algorithm, Hasher, Key};
    /// let key = Arc::new(Key::new(Algorithm::HASH2L128, &[3u8; 16])?);
    /// let mut h = Hasher::with_shared_key(Arc::clone(&key));
    /// std::thread::spawn(move || {
    ///     h.update(b"moved to a thread").map(|h| h.finalize())
    /// })
    /// .join()
    /// .expect("thread")?;
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    pub fn with_shared_key(key: Arc<Key>) -> Hasher<'static> {
        Hasher {
            state: Hasher::start(&key, None),
            holder: Holder::SharedKey(key),
        }
    }

    /// A streaming MAC computation ([`Mac::hasher`]) that shares ownership of `mac`.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use brwhash::{Algorithm, Hasher, Mac};
    /// let mac = Arc::new(Mac::new(Algorithm::POLYHASH1305, &[4u8; 32])?);
    /// let mut h = Hasher::with_shared_mac(Arc::clone(&mac));
    /// h.update(b"tagged")?;
    /// assert_eq!(h.finalize(), mac.tag(b"tagged"));
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    pub fn with_shared_mac(mac: Arc<Mac>) -> Hasher<'static> {
        Hasher {
            state: Hasher::start(mac.key(), None),
            holder: Holder::SharedMac(mac),
        }
    }
}

/// (squarings, Horner powers of x) a key for messages of up to `max_len` bytes needs:
/// Horner-only functions (polyHash, Poly1305) need no squarings beyond x^W for SIMD lanes;
/// a one-shot key needs Horner powers only up to its block count, and none beyond the
/// Horner group size `group`.
fn powers_needed(
    alg: Algorithm,
    max_len: u64,
    block: usize,
    gamma_log: Option<usize>,
    group: usize,
) -> (usize, usize) {
    let blocks = max_len.div_ceil(block as u64).clamp(1, G as u64) as usize;
    if horner_only(alg, max_len, block) {
        // x^1 .. x^l at most: Horner's accumulator already carries the final factor x.
        (gamma_log.map_or(1, |e| e + 1), blocks.min(group))
    } else if let Family::DecBrwHash(c @ 1..=4, _) = alg.family() {
        // Up to c blocks, x^2 .. x^(2c) weigh them (`dec_single`): a key's cached ones take
        // its products off the chain.
        (squares_needed(max_len, block), 2 * c as usize)
    } else if matches!(alg.family(), Family::BrwHash(_) | Family::DecBrwHash(_, _)) {
        // BRW and the final x * (x * v + L) use the squarings only.
        (squares_needed(max_len, block), 1)
    } else {
        (
            squares_needed(max_len, block),
            horner_powers_needed(max_len, block).min(group),
        )
    }
}

/// A c-decBRWHash key's weights of messages of two blocks per stream (c <= 8), when it
/// serves messages that long (`scalar::dec_pair_weights`).
fn dec_pairs<F: PrimeField>(
    alg: Algorithm,
    max_len: u64,
    block: usize,
    x: F,
) -> Option<Box<[F; 16]>> {
    match alg.family() {
        Family::DecBrwHash(c @ 1..=8, _) if max_len > u64::from(c) * block as u64 => {
            Some(crate::construct::dec_pair_weights(x, c as usize))
        }
        _ => None,
    }
}

/// Whether messages of up to `max_len` bytes are pure Horner: polyHash, Poly1305, and
/// d-Hash below 2^d blocks (its polyHash branch, which needs no gamma and no squarings).
fn horner_only(alg: Algorithm, max_len: u64, block: usize) -> bool {
    match alg.family() {
        Family::Poly1305 | Family::PolyHash(_) => true,
        Family::DHash(d, _) => max_len <= ((1u64 << d) - 1) * block as u64,
        _ => false,
    }
}

/// c-decBRWHash's weights of messages of two blocks per stream into the key (`Powers::
/// dec_pairs`), when such messages fit in `max_len`.
fn fill_dec_pairs<F: PrimeField>(alg: Algorithm, max_len: u64, block: usize, p: &Powers<F>) {
    if let Some(t) = dec_pairs(alg, max_len, block, p.x()) {
        if let Err(mut t) = p.dec_pairs.set(t) {
            t.iter_mut().for_each(Zeroize::zeroize);
        }
    }
}

/// The tables of a key for messages of any length (see `Key::note_use`): the SIMD
/// backend's lane powers for whole polyHash / Poly1305 messages and its c-decBRWHash lane
/// weights (only where messages past the one-shot crossover take that backend), and
/// c-decBRWHash's short-message weights.
fn fill_tables<F: SimdPrime>(alg: Algorithm, backend: Backend, block: usize, p: &Powers<F>) {
    fill_dec_pairs(alg, MAX_MESSAGE_BYTES, block, p);
    let crossover = SimdState::<F>::one_shot_crossover(alg, backend, true) as u64;
    if MAX_MESSAGE_BYTES > crossover {
        if let Ok(xw) = <&[F; G]>::try_from(p.hx()) {
            if let Some(t) = SimdState::<F>::poly_table(alg, backend, xw) {
                // (Built once: `note_use` calls this once per key.)
                let _ = p.lane_table.set(zeroize::Zeroizing::new(t));
            }
        }
        if let Some(t) = SimdState::<F>::weight_table(alg, backend, p) {
            let _ = p.weights.set(t);
        }
        if let Some(t) = SimdState::<F>::linear_table(alg, backend, p) {
            let _ = p.dec_linear.set(t);
        }
    }
}

/// v of `msg` in one call without a streaming state: by the key's SIMD backend when it has
/// code for the algorithm and the message is past the backend's crossover length, else by
/// the scalar backend's code when the key's backend is not portable and it can run here.
fn simd_one_shot<F: SimdPrime>(key: &Key, p: &Powers<F>, msg: &[u8]) -> Option<F> {
    if let (Family::DecBrwHash(c, _), Some(t)) = (key.alg.family(), p.dec_linear.get()) {
        if let Some(v) = SimdState::<F>::dec_linear(key.backend, t, p.x(), c as usize, msg) {
            return Some(v);
        }
    }
    if let Family::DecBrwHash(c, _) = key.alg.family() {
        if let Some(v) = SimdState::<F>::dec_flat(key.backend, p, c as usize, msg) {
            return Some(v);
        }
    }
    #[cfg(target_arch = "x86_64")]
    if key.scalar_up_to.is_some_and(|n| msg.len() <= n) {
        if let Family::DecBrwHash(c, _) = key.alg.family() {
            if let Some(v) = crate::backend::scalar::dec_linear_powers(p, c as usize, msg) {
                return Some(v);
            }
        }
        return Some(crate::backend::scalar::one_shot(key.alg, p, msg));
    }
    if msg.len() <= key.crossover {
        return None;
    }
    if let Some(v) = SimdState::<F>::two_level_one_shot(key.alg, key.backend, p.squares(), msg) {
        return Some(v);
    }
    let xw = <&[F; G]>::try_from(p.hx()).ok();
    let table = p.lane_table.get().map(|t| &t[..]);
    if let Some(v) = SimdState::<F>::poly_one_shot(key.alg, key.backend, p.x(), xw, table, msg) {
        return Some(v);
    }
    SimdState::<F>::one_shot(key.alg, key.backend, p, msg)
}

/// Poly1305's value of a message that goes to scalar code (the scalar backend, or a SIMD
/// backend below its one-shot crossover): plain Horner with the clamped key, faster there than
/// groups with the key's powers (TSC cycles, 256 B: 190 vs 203; 1 KiB: 695 vs 760).
fn poly1305_scalar(key: &Key, p: &Powers<Fp1305>, msg: &[u8]) -> Option<Fp1305> {
    #[cfg(target_arch = "x86_64")]
    if key.alg == Algorithm::POLY1305 && key.scalar_up_to.is_some_and(|n| msg.len() <= n) {
        let [r0, r1, _] = p.x().to_u192();
        let mut r = Clamped::new(r0 as u128 | (r1 as u128) << 64)?;
        let v = crate::backend::scalar::poly1305(&r, msg);
        r.zeroize();
        return Some(v);
    }
    let _ = (key, p, msg);
    None
}

/// Squarings the one-shot scalar path keeps on the stack: messages below 2^14 blocks.
const ONE_SHOT_SQUARES: usize = 16;

/// Squarings a one-shot c-decBRWHash computes before its first block: x, x^2, x^4.
const EAGER_SQUARES: usize = 3;

/// c-decBRWHash of a whole message on a SIMD backend, its squarings of the key on the stack
/// (a `Key` would allocate and fill 64 of them: about 150 TSC cycles more per message).
/// Only x, x^2 and x^4 are computed here: the lanes compute the rest between chunks
/// (`construct::LazySquares`). `None` for other functions and for messages too long for
/// `ONE_SHOT_SQUARES`.
#[cfg(target_arch = "x86_64")]
fn dec_one_shot(
    alg: Algorithm,
    backend: Backend,
    prime: Prime,
    key: &[u8],
    msg: &[u8],
) -> Option<u128> {
    if !matches!(alg.family(), Family::DecBrwHash(_, _))
        || !SimdState::<Fp1305>::has_plan(alg, backend)
    {
        return None;
    }
    let block = if prime == Prime::P1271 { 15 } else { 16 };
    let n_sq = squares_needed(msg.len() as u64, block);
    if n_sq > ONE_SHOT_SQUARES {
        return None;
    }
    let mut k = u128::from_le_bytes(key[..16].try_into().expect("16 key bytes"));
    let v = if prime == Prime::P1271 {
        dec_raw(alg, backend, Fp1271::from_key(&k.to_le_bytes()), msg)
    } else {
        dec_raw(alg, backend, Fp1305::from_key(&k.to_le_bytes()), msg)
    };
    k.zeroize();
    v
}

/// [`dec_one_shot`] on the key x: its first squarings, then the backend's entry point.
#[inline(always)]
fn dec_raw<F: SimdPrime>(alg: Algorithm, backend: Backend, x: F, msg: &[u8]) -> Option<u128> {
    let mut sq = [x; EAGER_SQUARES];
    for j in 1..EAGER_SQUARES {
        sq[j] = sq[j - 1].square();
    }
    let v = SimdState::dec_one_shot_raw(alg, backend, &sq, msg).map(|v| prime_tag(v, None));
    sq.zeroize();
    v
}

/// [`crate::hash`] of a prime-field function whose message goes to scalar code (the scalar
/// backend, or a SIMD backend below its crossover): only the key powers the length needs,
/// on the stack, and no `Key` or other allocation. `None` when the message takes another
/// path (a SIMD backend past its crossover, the portable backend, a binary field, a wrong key
/// length, 2^14 blocks or more).
#[inline(always)]
pub(crate) fn one_shot_scalar(
    alg: Algorithm,
    key: &[u8],
    msg: &[u8],
    requested: Option<Backend>,
) -> Result<Option<u128>, Error> {
    #[cfg(target_arch = "x86_64")]
    {
        let Some(prime) = alg.prime() else {
            return Ok(None);
        };
        if key.len() != alg.key_len() {
            return Ok(None);
        }
        let backend = Backend::select(alg, requested)?;
        let len = msg.len();
        let scalar = backend == Backend::Scalar
            || (backend != Backend::Portable
                && len <= SimdState::<Fp1305>::one_shot_crossover(alg, backend, false)
                && crate::backend::scalar_here());
        let block = if prime == Prime::P1271 { 15 } else { 16 };
        if !scalar && matches!(alg.family(), Family::TwoLHash(..) | Family::DHash(..)) {
            // d-2LHash on SIMD lanes from the key alone (a message shorter than a
            // super-block goes on to scalar code).
            let mut k = u128::from_le_bytes(key[..16].try_into().expect("16 key bytes"));
            let v = if prime == Prime::P1271 {
                let x = [Fp1271::from_key(&k.to_le_bytes())];
                SimdState::two_level_one_shot(alg, backend, &x, msg).map(|v| prime_tag(v, None))
            } else {
                let x = [Fp1305::from_key(&k.to_le_bytes())];
                SimdState::two_level_one_shot(alg, backend, &x, msg).map(|v| prime_tag(v, None))
            };
            k.zeroize();
            if v.is_some() {
                return Ok(v);
            }
        } else if !scalar {
            // polyHash / Poly1305 on SIMD lanes: x^1 .. x^8 are all the powers they need.
            let poly = matches!(alg.family(), Family::Poly1305 | Family::PolyHash(_));
            if backend == Backend::Portable {
                return Ok(None);
            }
            if !poly {
                return Ok(dec_one_shot(alg, backend, prime, key, msg));
            }
            let mut k = u128::from_le_bytes(key[..16].try_into().expect("16 key bytes"));
            if alg == Algorithm::POLY1305 {
                k &= POLY1305_CLAMP;
            }
            let v = if prime == Prime::P1271 {
                let x = Fp1271::from_key(&k.to_le_bytes());
                SimdState::poly_one_shot(alg, backend, x, None, None, msg)
                    .map(|v| prime_tag(v, None))
            } else {
                let x = Fp1305::from_key(&k.to_le_bytes());
                let mut s = [0u8; 16];
                if alg == Algorithm::POLY1305 {
                    s.copy_from_slice(&key[16..32]);
                }
                let s_opt = (alg == Algorithm::POLY1305).then_some(&s);
                let d = SimdState::poly_one_shot(alg, backend, x, None, None, msg)
                    .map(|v| prime_tag(v, s_opt));
                s.zeroize();
                d
            };
            k.zeroize();
            return Ok(v);
        }
        let gamma_log = match alg.family() {
            Family::DHash(_, _) if horner_only(alg, len as u64, block) => None,
            Family::TwoLHash(d, _) | Family::DHash(d, _) => Some(d as usize),
            _ => None,
        };
        // The key halves as integers: one wipe each (a byte array is wiped byte by byte).
        let mut k = u128::from_le_bytes(key[..16].try_into().expect("16 key bytes"));
        let digest = if horner_only(alg, len as u64, block) {
            // Only x^1 .. x^l: no `Powers` at all.
            if prime == Prime::P1271 {
                let x = Fp1271::from_key(&k.to_le_bytes());
                prime_tag(crate::backend::scalar::horner(x, msg), None)
            } else if alg == Algorithm::POLY1305 {
                let mut r = Clamped::new(k & POLY1305_CLAMP).expect("a clamped key");
                let v = crate::backend::scalar::poly1305(&r, msg);
                r.zeroize();
                let mut s = u128::from_le_bytes(key[16..32].try_into().expect("32 key bytes"));
                let d = prime_tag(v, Some(&s.to_le_bytes()));
                s.zeroize();
                d
            } else {
                let x = Fp1305::from_key(&k.to_le_bytes());
                prime_tag(crate::backend::scalar::horner(x, msg), None)
            }
        } else if let Some(v) = key_only(alg, prime, k, msg) {
            v
        } else {
            let (mut n_sq, mut n_hx) = powers_needed(alg, len as u64, block, gamma_log, G);
            if let Family::DecBrwHash(c, _) = alg.family() {
                // A short message reads fewer squarings than a key's chunks of 16 blocks,
                // and no Horner powers (computed for one message, they cost more products
                // than they save).
                n_sq = dec_short_squares(len as u64, block, c as usize).unwrap_or(n_sq);
                n_hx = 1;
            }
            // (BRWHash / t-BRWHash of at most 32 blocks went to `key_only`.)
            if let Some(d) = gamma_log {
                // Two levels in one call (`construct::scalar::two_level`): super-blocks read
                // x^(2^j) for j < d and gamma = x^(2^d), no more (a key's six or more
                // squarings are a dependent chain before the first block); the outer Horner
                // in x takes the super-blocks' value, the blocks after them and L.
                let l = len.div_ceil(block);
                n_sq = d + 1;
                n_hx = (l % ((1 << d) - 1) + 2).min(G);
            }
            if n_sq > ONE_SHOT_SQUARES {
                k.zeroize();
                return Ok(None);
            }
            // Horner in gamma runs over the super-blocks: no more powers of gamma than them.
            let n_hg = match alg.family() {
                Family::TwoLHash(d, _) | Family::DHash(d, _) => {
                    len.div_ceil(block) / ((1 << d) - 1)
                }
                _ => G,
            };
            if prime == Prime::P1271 {
                let x = Fp1271::from_key(&k.to_le_bytes());
                let mut p = Powers::<_, ONE_SHOT_SQUARES>::empty();
                p.fill_hg(x, n_sq, n_hx, gamma_log, n_hg);
                prime_tag(crate::backend::scalar::one_shot(alg, &p, msg), None)
            } else {
                let x = Fp1305::from_key(&k.to_le_bytes());
                let mut p = Powers::<_, ONE_SHOT_SQUARES>::empty();
                p.fill_hg(x, n_sq, n_hx, gamma_log, n_hg);
                prime_tag(crate::backend::scalar::one_shot(alg, &p, msg), None)
            }
        };
        k.zeroize();
        Ok(Some(digest))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (alg, key, msg, requested);
        Ok(None)
    }
}

/// The scalar backend's one-shot paths from the key `k` alone, with no `Powers` (whose zero
/// fill, wipe and powers cost a 256-byte 4-Hash1271 message about 150 TSC cycles):
/// c-decBRWHash of at most two blocks per stream, d-2LHash (or d-Hash of 2^d blocks or
/// more), and BRWHash / t-BRWHash of at most 32 blocks. `None` for another function or
/// length.
#[cfg(target_arch = "x86_64")]
fn key_only(alg: Algorithm, prime: Prime, k: u128, msg: &[u8]) -> Option<u128> {
    if !matches!(
        alg.family(),
        Family::DecBrwHash(..)
            | Family::TwoLHash(..)
            | Family::DHash(..)
            | Family::BrwHash(_)
            | Family::TBrwHash(..)
    ) {
        return None;
    }
    if prime == Prime::P1271 {
        key_only_value(alg, Fp1271::from_key(&k.to_le_bytes()), msg).map(|v| prime_tag(v, None))
    } else {
        key_only_value(alg, Fp1305::from_key(&k.to_le_bytes()), msg).map(|v| prime_tag(v, None))
    }
}

/// [`key_only`]'s value v in the field of `x`.
#[cfg(target_arch = "x86_64")]
#[inline]
fn key_only_value<F: PrimeField>(alg: Algorithm, x: F, msg: &[u8]) -> Option<F> {
    match alg.family() {
        Family::DecBrwHash(c, _) => crate::backend::scalar::dec_linear(x, c as usize, msg),
        Family::TwoLHash(d, _) | Family::DHash(d, _) => {
            crate::backend::scalar::two_level(x, d, msg)
        }
        Family::BrwHash(_) => crate::backend::scalar::brw(x, 0, msg),
        Family::TBrwHash(t, _) => crate::backend::scalar::brw(x, t, msg),
        _ => None,
    }
}

/// A key's field and powers (`Key::powers`); binary fields give x as a portable element.
#[cfg(feature = "parallel")]
pub(crate) enum KeyPowers<'a> {
    P1271(&'a Powers<Fp1271>),
    P1305(&'a Powers<Fp1305>),
    G128(Gf128),
    G256(Gf256),
}

#[cfg(all(feature = "parallel", target_arch = "x86_64"))]
fn binary_to_portable<F: crate::field::BinaryField, P: crate::field::BinaryField>(x: F) -> P {
    let mut bytes = [0u8; 32];
    x.write_bytes(&mut bytes);
    let y = P::from_bytes(&bytes[..F::BYTES]);
    bytes.zeroize();
    y
}

/// `out(v)`; with Poly1305's s, the tag (v + s) mod 2^128.
pub(crate) fn prime_digest<F: PrimeField>(v: F, poly1305_s: Option<&[u8; 16]>) -> Digest {
    Digest::from_u128(prime_tag(v, poly1305_s))
}

/// [`prime_digest`] as an integer (its little-endian bytes), for the one-shot path of
/// `brwhash::hash`, which makes the `Digest` last ([`Digest::from_u128`]): a digest made deep
/// in the calls was written in 8-byte halves and then moved up whole by 16-byte loads, and
/// each such move stalled store-to-load forwarding (Zen 5, TSC cycles per message of
/// `brwhash::hash`, Poly1305: 64 B 61 -> 54, 256 B 138 -> 126, 512 B 189 -> 177, 1 KiB 235
/// -> 224, with `one_shot_scalar` inlined into its two callers).
#[inline(always)]
pub(crate) fn prime_tag<F: PrimeField>(v: F, poly1305_s: Option<&[u8; 16]>) -> u128 {
    let d = v.to_digest();
    match poly1305_s {
        Some(s) => d.wrapping_add(u128::from_le_bytes(*s)),
        None => d,
    }
}

/// The Hash2L value of `components[0]` (`vector` false) or the vecHash2L value of
/// `components`, with the powers `p` of a PCLMULQDQ or VPCLMULQDQ key: no streaming state.
/// Hash2L below `tree_from` blocks runs in xmm on either backend.
macro_rules! clmul_value {
    ($name:ident, $narrow:ident, $wide:ident, $field:ident, $block:expr) => {
        #[cfg(target_arch = "x86_64")]
        #[inline]
        fn $name(
            p: &BinPowers<$narrow::$field>,
            backend: Backend,
            vector: bool,
            components: &[&[u8]],
        ) -> $narrow::$field {
            let wide = backend == Backend::Vpclmul;
            match components {
                [msg] if !vector => {
                    if wide && msg.len() >= crate::construct::tree_from($block) * $block {
                        $wide::one_shot(p, msg)
                    } else {
                        $narrow::one_shot(p, msg)
                    }
                }
                _ if wide => $wide::vector(p, components),
                _ => $narrow::vector(p, components),
            }
        }
    };
}

clmul_value!(clmul128_value, clmul128, vclmul128, Gf128c, 16);
clmul_value!(clmul256_value, clmul256, vclmul256, Gf256c, 32);

/// `brwhash::hash` (`components` = the message) and `hash_vector` of Hash2L / vecHash2L on
/// PCLMULQDQ or VPCLMULQDQ, the key powers on the stack: a `Key` boxes them, and the box
/// cost a malloc, a zero fill and a copy of the powers per call. Only the powers of gamma
/// the length reads are computed, and x is loaded from the key's bytes inside the entry
/// point. Zen 5, TSC cycles per `brwhash::hash` of Hash2L128, before -> after (with
/// `BinPowers`' 8 squarings where `Powers` had 64, gamma^1 .. gamma^s for s < 4 super-blocks,
/// and no store-forwarding stall on x): 64 B 130 -> 74, 256 B 185 -> 136, 1 KiB 289 -> 188,
/// 4 KiB 468 -> 406. `None`: another backend, or an input the `Key` path reports an error
/// for.
pub(crate) fn one_shot_clmul(
    alg: Algorithm,
    key: &[u8],
    components: &[&[u8]],
    requested: Option<Backend>,
) -> Result<Option<Digest>, Error> {
    #[cfg(target_arch = "x86_64")]
    {
        let vector = alg.is_vector();
        let Some(field) = alg.binary_field() else {
            return Ok(None);
        };
        let count_ok = if vector {
            (1..=MAX_COMPONENTS).contains(&components.len())
        } else {
            components.len() == 1
        };
        if key.len() != alg.key_len() || !count_ok {
            return Ok(None);
        }
        let backend = Backend::select(alg, requested)?;
        if !matches!(backend, Backend::Pclmul | Backend::Vpclmul) {
            return Ok(None);
        }
        let longest = components.iter().map(|c| c.len() as u64).max().unwrap_or(0);
        let n_end = crate::construct::end_weights_needed(vector, key.len(), longest);
        let (n_sq, gamma) =
            match crate::construct::hash2l_squares_needed(vector, key.len(), longest) {
                (n, false) => (n, None),
                (n, true) => (n, Some(5)),
            };
        let n_hg = crate::construct::gamma_powers_needed(vector, key.len(), longest);
        let digest = if field == BinField::Gf256 {
            let mut p = Powers::empty();
            clmul256::fill_powers(&mut p, key, n_sq, gamma, n_hg, n_end, vector, false);
            binary_digest(clmul256_value(&p, backend, vector, components))
        } else {
            let mut p = Powers::empty();
            clmul128::fill_powers(&mut p, key, n_sq, gamma, n_hg, n_end, vector, false);
            binary_digest(clmul128_value(&p, backend, vector, components))
        };
        Ok(Some(digest))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (alg, key, components, requested);
        Ok(None)
    }
}

fn binary_digest<F: crate::field::BinaryField>(v: F) -> Digest {
    let mut out = [0u8; 32];
    v.write_bytes(&mut out);
    Digest::new(&out[..F::BYTES])
}

/// Wipes the state in place (each state's own `Zeroize`, which its `Drop` calls): a test hook.
#[cfg(test)]
impl Zeroize for State {
    fn zeroize(&mut self) {
        match self {
            State::P1271(h) => h.zeroize(),
            State::P1305(h) => h.zeroize(),
            State::G128(h) => h.zeroize(),
            #[cfg(target_arch = "x86_64")]
            State::G128c(h) => h.zeroize(),
            #[cfg(target_arch = "x86_64")]
            State::G256c(h) => h.zeroize(),
            #[cfg(target_arch = "x86_64")]
            State::G128w(h) => h.zeroize(),
            #[cfg(target_arch = "x86_64")]
            State::G256w(h) => h.zeroize(),
            State::G256(h) => h.zeroize(),
            State::Head(h) => crate::construct::wipe_vec(&mut h.0),
        }
    }
}

#[cfg(test)]
impl State {
    /// Whether the state is as wiped (SIMD states: but for their vectors).
    fn is_wiped(&self) -> bool {
        match self {
            State::P1271(h) => h.is_wiped(),
            State::P1305(h) => h.is_wiped(),
            State::G128(h) => h.is_wiped(),
            #[cfg(target_arch = "x86_64")]
            State::G128c(h) => h.is_wiped(),
            #[cfg(target_arch = "x86_64")]
            State::G256c(h) => h.is_wiped(),
            #[cfg(target_arch = "x86_64")]
            State::G128w(h) => h.is_wiped(),
            #[cfg(target_arch = "x86_64")]
            State::G256w(h) => h.is_wiped(),
            State::G256(h) => h.is_wiped(),
            State::Head(h) => h.0.is_empty(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::construct::wipe_log;

    fn message(n: usize, seed: u8) -> Vec<u8> {
        (0..n)
            .map(|i| (i as u8).wrapping_mul(29) ^ seed ^ (i >> 8) as u8)
            .collect()
    }

    /// Keys for every algorithm on every backend that runs it here.
    fn keys(seed: u8) -> Vec<Key> {
        let mut keys = Vec::new();
        for alg in Algorithm::all() {
            let bytes: Vec<u8> = (0..alg.key_len() as u8).map(|i| i ^ seed).collect();
            for backend in Backend::ALL {
                if backend.check(alg).is_ok() {
                    keys.push(Key::with_backend(alg, &bytes, backend).unwrap());
                }
            }
        }
        keys
    }

    /// Every `Hasher` state (every algorithm, backend, and state kind: deferred, SIMD,
    /// scalar, PCLMULQDQ, VPCLMULQDQ...) is wiped by its `Zeroize`, and then hashes a new
    /// message under another key of the same algorithm as a new hasher does.
    #[test]
    fn hasher_states_zeroize_to_new() {
        for (k1, k2) in keys(0x3c).iter().zip(&keys(0xa7)) {
            let at = |len| format!("{} on {}, {len} bytes", k1.alg, k1.backend);
            for len in [1, 300, 5000, 20_000] {
                let mut h = Hasher::new(k1);
                h.update(&message(len, 1)).unwrap();
                if k1.alg.is_vector() {
                    h.next_component().unwrap();
                    h.update(&message(len / 3, 2)).unwrap();
                }
                assert!(!h.state.is_wiped(), "{}: not wiped yet", at(len));
                h.state.zeroize();
                assert!(h.state.is_wiped(), "{}", at(len));
                // The wiped state under the other key.
                let mut h = Hasher {
                    holder: Holder::Key(k2),
                    state: h.state,
                };
                let m2 = message(2500, 3);
                h.update(&m2).unwrap();
                assert_eq!(h.finalize(), k2.hash(&m2), "{}", at(len));
                assert_eq!(h.into_digest(), k2.hash(&m2), "{}", at(len));
            }
        }
    }

    /// Whether a prime-field key holds any of its tables.
    fn has_tables(key: &Key) -> bool {
        fn any<F: PrimeField>(p: &Powers<F>) -> bool {
            p.lane_table.get().is_some()
                || p.weights.get().is_some()
                || p.dec_pairs.get().is_some()
                || p.dec_linear.get().is_some()
        }
        match &key.material {
            Material::P1271(p) => any(p),
            Material::P1305(p) => any(p),
            _ => false,
        }
    }

    /// A key builds its tables at its second message (a hash or a stream), not before, and
    /// a key for one length never: Poly1305 and the c-decBRWHash functions have tables on
    /// every backend with SIMD lanes for them, and on the scalar one for c-decBRWHash.
    #[test]
    fn tables_come_with_the_second_message() {
        let mut checked = 0;
        for key in keys(0x6d) {
            let tabled = matches!(
                key.alg.family(),
                Family::Poly1305 | Family::DecBrwHash(2..=8, _)
            ) && key.backend != Backend::Portable;
            let at = format!("{} on {}", key.alg, key.backend);
            assert!(!has_tables(&key), "{at}: tables before any message");
            let first = key.hash(&message(100, 7));
            assert!(!has_tables(&key), "{at}: tables after one message");
            let mut h = Hasher::new(&key);
            h.update(&message(100, 7)).unwrap();
            assert_eq!(h.into_digest(), first, "{at}");
            if tabled && (key.alg.family() != Family::Poly1305 || key.backend == Backend::Ifma) {
                assert!(has_tables(&key), "{at}: no tables after two messages");
                checked += 1;
            }
            assert_eq!(key.hash(&message(100, 7)), first, "{at}");
        }
        assert!(checked > 0 || !Backend::Scalar.cpu_supports());
        let once = Key::for_length(Algorithm::POLY1305, &[3; 32], 1 << 20).unwrap();
        once.hash(&message(5000, 1));
        once.hash(&message(5000, 2));
        assert!(!has_tables(&once), "a key for one length built tables");
    }

    /// Dropping a hasher (and the copies `finalize` makes) wipes its state: the states count
    /// their wipes on the test thread.
    #[test]
    fn dropping_a_hasher_wipes_its_state() {
        for key in keys(0x51) {
            for len in [0, 300, 20_000] {
                let at = format!("{} on {}, {len} bytes", key.alg, key.backend);
                let before = wipe_log::count();
                {
                    let mut h = Hasher::new(&key);
                    h.update(&message(len, 4)).unwrap();
                }
                assert!(wipe_log::count() > before, "{at}: drop did not wipe");
                let mut h = Hasher::new(&key);
                h.update(&message(len, 4)).unwrap();
                let before = wipe_log::count();
                let digest = h.into_digest();
                assert!(wipe_log::count() > before, "{at}: into_digest did not wipe");
                assert_eq!(digest, key.hash(&message(len, 4)));
            }
        }
    }

    /// SPEC.md 8: N < 2^61. Updates that would reach the limit fail and leave the state as it
    /// was; updates up to it succeed.
    #[test]
    fn message_length_limit() {
        for alg in Algorithm::all() {
            let key = Key::new(alg, &vec![1; alg.key_len()]).unwrap();
            let mut h = Hasher::new(&key);
            // (A held head cannot pretend to hold 2^61 bytes: the state it leads to can.)
            if let State::Head(_) = h.state {
                h.state = Hasher::build(&key, None);
            }
            let near = MAX_MESSAGE_BYTES - 5;
            match &mut h.state {
                State::P1271(s) => s.set_bytes_for_test(near),
                State::P1305(s) => s.set_bytes_for_test(near),
                State::G128(s) => s.set_bytes_for_test(near),
                #[cfg(target_arch = "x86_64")]
                State::G128c(s) => s.set_bytes_for_test(near),
                #[cfg(target_arch = "x86_64")]
                State::G256c(s) => s.set_bytes_for_test(near),
                #[cfg(target_arch = "x86_64")]
                State::G128w(s) => s.set_bytes_for_test(near),
                #[cfg(target_arch = "x86_64")]
                State::G256w(s) => s.set_bytes_for_test(near),
                State::G256(s) => s.set_bytes_for_test(near),
                State::Head(_) => unreachable!("built above"),
            }
            assert_eq!(
                h.update(&[0; 6]).err(),
                Some(Error::MessageTooLong),
                "{alg}"
            );
            assert_eq!(h.len(), near);
            assert!(h.update(&[0; 5]).is_ok());
            assert_eq!(h.len(), MAX_MESSAGE_BYTES);
            assert_eq!(h.update(&[0]).err(), Some(Error::MessageTooLong));
            assert!(h.update(&[]).is_ok());
            if alg.is_vector() {
                // The limit is per component.
                h.next_component().unwrap();
                assert!(h.update(&[0; 100]).is_ok());
            }
        }
    }
}
