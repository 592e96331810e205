//! Multi-core hashing of large messages (cargo feature `parallel`, with rayon).
//!
//! Every function splits (SPEC.md sections 4 and 5):
//! - Horner (polyHash, Poly1305): v(A || B) = v(A) x^(blocks of B) + v(B), for A of whole
//!   blocks, since v = x * Poly(x; pad1(M)).
//! - BRW: BRW(M) = BRW(M_1..M_(K-1)) (x^K + M_K) + BRW(M_(K+1)..M_l) with K = 2^floor(lg l),
//!   and a left part of 2^k - 1 blocks splits the same way into two halves. A piece's
//!   x^2 BRW is its BRWHash value minus x L (v = x (x BRW + L)), so pieces are hashed by
//!   the key's own code and the lengths taken out again.
//! - d-2LHash (and d-Hash past 2^d blocks) at super-blocks, joined by Horner in
//!   gamma = x^(2^d); t-BRWHash is BRW over its prefix, and both end with a few blocks of
//!   Horner in x computed here.
//! - c-decBRWHash: every stream by the BRW split, on the backend's lanes (all streams of a
//!   piece at once), then the streams' Horner in x^D.
//! - Hash2L at super-blocks, joined by Horner in x^32: x^2 acc(piece) = digest(piece) + x L
//!   (a binary digest is the whole field element); vecHash2L of the one-component vector
//!   (M) the same way, the component count's term x * x^(8B-8) taken out and put back.
//!
//! Pieces of about [`PIECE`] bytes go to rayon's current pool and are joined in the field,
//! so the digest is byte-identical to [`Key::hash`] for every length and thread count.
//!
//! The bytes come from memory or from a positioned reader (`hash_parallel_read_at`: a file
//! read by every thread into its own small buffer, which beats a memory map's page faults).

use std::cell::RefCell;
use std::io;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use rayon::prelude::*;

use crate::algorithm::{Family, Prime};
use crate::backend::SimdPrime;
use crate::construct::Powers;
use crate::field::{BinaryField, Field, PrimeField};
use crate::key::{prime_digest, KeyPowers};
use crate::{Algorithm, Digest, Error, Hasher, Key, Mac, Tag, MAX_COMPONENTS, MAX_MESSAGE_BYTES};

/// Messages shorter than this are hashed on the calling thread: below it, handing pieces to
/// other threads costs more than it saves.
///
/// ```
/// use brwhash::{Algorithm, Key, PARALLEL_THRESHOLD};
/// let key = Key::new(Algorithm::POLY1305, &[1u8; 32])?;
/// let small = vec![0u8; PARALLEL_THRESHOLD - 1]; // one thread, exactly `key.hash`
/// assert_eq!(key.hash_parallel(&small), key.hash(&small));
/// # Ok::<(), brwhash::Error>(())
/// ```
pub const PARALLEL_THRESHOLD: usize = 1 << 20;

/// Runs `f` on `threads` threads, for callers that take a thread count rather than a rayon
/// pool (the CLI, the Python and C bindings): 0 on rayon's global pool (one thread per
/// core), n on a pool of n threads that is started on first use and kept for later calls.
/// The `*_parallel` calls inside `f` use that pool. An error only when a new pool's threads
/// cannot be started.
///
/// ```
/// use brwhash::{Algorithm, Key};
/// let key = Key::new(Algorithm::HASH2L128, &[2u8; 16])?;
/// let big = vec![1u8; 3 << 20];
/// let d = brwhash::with_threads(2, || key.hash_parallel(&big)).expect("threads");
/// assert_eq!(d, key.hash(&big));
/// # Ok::<(), brwhash::Error>(())
/// ```
pub fn with_threads<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> io::Result<T> {
    static POOLS: Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>> = Mutex::new(Vec::new());
    if threads == 0 {
        return Ok(f());
    }
    let pool = {
        let mut pools = POOLS.lock().unwrap_or_else(PoisonError::into_inner);
        match pools.iter().find(|(n, _)| *n == threads) {
            Some((_, p)) => Arc::clone(p),
            None => {
                let p = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .thread_name(|i| format!("brwhash-{i}"))
                    .build()
                    .map(Arc::new)
                    .map_err(io::Error::other)?;
                pools.push((threads, Arc::clone(&p)));
                p
            }
        }
    };
    Ok(pool.install(f))
}

/// Bytes of message per task (rounded to the function's unit: a block, a super-block).
const PIECE: usize = 1 << 19;

/// A positioned reader: fill the buffer with the bytes at the offset (`FileExt::read_exact_at`).
///
/// ```no_run
/// use std::os::unix::fs::FileExt;
/// use brwhash::{Algorithm, Key};
/// let file = std::fs::File::open("big.bin")?;
/// let len = file.metadata()?.len();
/// let read_at = |offset: u64, buf: &mut [u8]| file.read_exact_at(buf, offset);
/// let key = Key::new(Algorithm::HASH2L128, &[7u8; 16]).expect("a 16-byte key");
/// println!("{}", key.hash_parallel_read_at(len, &read_at)?);
/// # Ok::<(), std::io::Error>(())
/// ```
pub type ReadAt<'a> = &'a (dyn Fn(u64, &mut [u8]) -> io::Result<()> + Sync);

/// Where a message's bytes are: in memory, or behind a positioned reader (from `base`, `len`
/// bytes; the first read error is kept in `failed`).
#[derive(Clone, Copy)]
enum Source<'a> {
    Bytes(&'a [u8]),
    Reader {
        base: u64,
        len: usize,
        read: ReadAt<'a>,
        failed: &'a OnceLock<io::Error>,
    },
}

/// Bytes of a page: the unit in which the kernel copies a file's cached bytes.
const PAGE: usize = 4096;

/// Where in a buffer at address `addr` a read of the bytes at file offset `offset` starts, so
/// that the copy's destination lies at the same place within a page as its source (below
/// `PAGE`). A heap buffer starts 16 bytes past a page, and the kernel's copy of page-aligned
/// pieces into it ran 36% slower (1 GiB in 512 KiB pieces from the page cache, one thread:
/// 0.151 s against 0.111 s with both at the same place in their pages).
fn same_page_offset(addr: usize, offset: u64) -> usize {
    (offset as usize % PAGE + PAGE - addr % PAGE) % PAGE
}

thread_local! {
    /// Each thread's buffer for the pieces it reads (reused: no page faults per piece).
    static BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

impl<'a> Source<'a> {
    fn len(&self) -> usize {
        match self {
            Source::Bytes(m) => m.len(),
            Source::Reader { len, .. } => *len,
        }
    }

    /// Bytes `start..end` of this source.
    fn sub(&self, start: usize, end: usize) -> Source<'a> {
        match *self {
            Source::Bytes(m) => Source::Bytes(&m[start..end]),
            Source::Reader {
                base, read, failed, ..
            } => Source::Reader {
                base: base + start as u64,
                len: end - start,
                read,
                failed,
            },
        }
    }

    /// `f` of the bytes (read into this thread's buffer; zeros after a read error, which
    /// the caller reports instead of the digest).
    fn with<R>(&self, f: impl FnOnce(&[u8]) -> R) -> R {
        match *self {
            Source::Bytes(m) => f(m),
            Source::Reader {
                base,
                len,
                read,
                failed,
            } => BUFFER.with(|b| {
                let mut b = b.borrow_mut();
                if b.len() < len + PAGE {
                    b.resize(len + PAGE, 0);
                }
                let at = same_page_offset(b.as_ptr() as usize, base);
                let buf = &mut b[at..at + len];
                if let Err(e) = read(base, buf) {
                    let _ = failed.set(e);
                    buf.fill(0);
                }
                f(buf)
            }),
        }
    }
}

impl Key {
    /// [`Key::hash`] on all threads of rayon's current pool, byte-identical to it (cargo
    /// feature `parallel`). Choose the thread count with your own pool:
    /// `pool.install(|| key.hash_parallel(msg))`. Messages below [`PARALLEL_THRESHOLD`]
    /// bytes and a pool of one thread hash on the calling thread (as do c-decBRWHash keys on
    /// a backend without SIMD lanes for c, such as `scalar`). For vecHash2L `msg` is the
    /// one-component vector `(msg)`, as in [`Key::hash`].
    ///
    /// ```
    /// use brwhash::{Algorithm, Key};
    /// let key = Key::new(Algorithm::POLY1305, &[7u8; 32])?;
    /// let big = vec![0x5au8; 3 << 20];
    /// assert_eq!(key.hash_parallel(&big), key.hash(&big));
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    pub fn hash_parallel(&self, msg: &[u8]) -> Digest {
        self.hash_source(Source::Bytes(msg))
    }

    /// [`Key::hash_parallel`] of the `len` bytes that `read_at(offset, buf)` gives (a file,
    /// with `std::os::unix::fs::FileExt::read_exact_at`): every thread reads its own pieces
    /// into a small buffer of its own, so the message need not fit in memory and is never
    /// mapped. The first read error is returned instead of a digest.
    ///
    /// ```
    /// use brwhash::{Algorithm, Key};
    /// let key = Key::new(Algorithm::HASH2L128, &[7u8; 16])?;
    /// let data = vec![3u8; 3 << 20];
    /// let read_at = |offset: u64, buf: &mut [u8]| {
    ///     let o = offset as usize;
    ///     buf.copy_from_slice(&data[o..o + buf.len()]);
    ///     Ok(())
    /// };
    /// let d = key.hash_parallel_read_at(data.len() as u64, &read_at).expect("no read error");
    /// assert_eq!(d, key.hash(&data));
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    pub fn hash_parallel_read_at(&self, len: u64, read_at: ReadAt<'_>) -> io::Result<Digest> {
        let len = usize::try_from(len)
            .ok()
            .filter(|&n| n as u64 <= MAX_MESSAGE_BYTES)
            .ok_or_else(|| {
                io::Error::new(io::ErrorKind::InvalidInput, crate::Error::MessageTooLong)
            })?;
        let failed = OnceLock::new();
        let source = Source::Reader {
            base: 0,
            len,
            read: read_at,
            failed: &failed,
        };
        let digest = self.hash_source(source);
        match failed.into_inner() {
            Some(e) => Err(e),
            None => Ok(digest),
        }
    }

    fn hash_source(&self, src: Source<'_>) -> Digest {
        if !self.splits(src.len()) {
            return sequential(self, src);
        }
        match self.powers(src.len() as u64) {
            KeyPowers::P1271(p) => {
                let v = prime(self, p, src, &|m: &[u8]| self.value_1271(p, m));
                prime_digest(v, None)
            }
            KeyPowers::P1305(p) => {
                let v = prime(self, p, src, &|m: &[u8]| self.value_1305(p, m));
                prime_digest(v, self.poly1305_s())
            }
            KeyPowers::G128(x) => binary(self, x, src),
            KeyPowers::G256(x) => binary(self, x, src),
        }
    }

    /// [`Key::hash_vector`] on all threads of rayon's current pool, byte-identical to it
    /// (cargo feature `parallel`): the components are hashed side by side, each long one
    /// split further as in [`Key::hash_parallel`], and joined in the field. Vectors shorter
    /// than [`PARALLEL_THRESHOLD`] bytes in all, and a pool of one thread, hash on the
    /// calling thread. The errors of [`Key::hash_vector`].
    ///
    /// ```
    /// use brwhash::{Algorithm, Key};
    /// let key = Key::new(Algorithm::VECHASH2L128, &[7u8; 16])?;
    /// let (header, body) = (vec![1u8; 100], vec![2u8; 3 << 20]);
    /// let parts: [&[u8]; 3] = [&header, &body, b""];
    /// assert_eq!(key.hash_vector_parallel(&parts)?, key.hash_vector(&parts)?);
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    pub fn hash_vector_parallel(&self, components: &[&[u8]]) -> Result<Digest, Error> {
        // Bad arguments and short vectors: exactly `hash_vector` (its checks and errors).
        let total = components
            .iter()
            .fold(0usize, |n, c| n.saturating_add(c.len()));
        let valid =
            self.algorithm().is_vector() && (1..=MAX_COMPONENTS).contains(&components.len());
        if !valid || total < PARALLEL_THRESHOLD || rayon::current_num_threads() < 2 {
            return self.hash_vector(components);
        }
        let sources: Vec<Source<'_>> = components.iter().map(|c| Source::Bytes(c)).collect();
        match self.vector_source(&sources) {
            Some(digest) => Ok(digest),
            // `valid` holds only for vecHash2L, whose powers are binary.
            None => self.hash_vector(components),
        }
    }

    /// [`Key::hash_vector_parallel`] of components behind positioned readers, each given as
    /// its length in bytes and its reader (as in [`Key::hash_parallel_read_at`]: files, say,
    /// each read by every thread into its own small buffer). Components are hashed side by
    /// side, long ones split further. The errors: `InvalidInput` carrying the [`Error`] of
    /// [`Key::hash_vector`] (not vecHash2L, 0 or more than 255 components) or
    /// [`Error::MessageTooLong`] for a component longer than SPEC.md's limit; else the first
    /// read error.
    ///
    /// ```
    /// use brwhash::{Algorithm, Key, ReadAt};
    /// let key = Key::new(Algorithm::VECHASH2L128, &[7u8; 16])?;
    /// let (head, body) = (vec![1u8; 100], vec![2u8; 3 << 20]);
    /// // A reader of bytes in memory (a file's would call `read_exact_at`).
    /// fn reader(bytes: &[u8]) -> impl Fn(u64, &mut [u8]) -> std::io::Result<()> + Sync + '_ {
    ///     move |offset, buf| {
    ///         let o = offset as usize;
    ///         buf.copy_from_slice(&bytes[o..o + buf.len()]);
    ///         Ok(())
    ///     }
    /// }
    /// let (rh, rb) = (reader(&head), reader(&body));
    /// let parts: [(u64, ReadAt); 2] = [(100, &rh), (3 << 20, &rb)];
    /// let d = key.hash_vector_parallel_read_at(&parts).expect("no read error");
    /// assert_eq!(d, key.hash_vector(&[&head, &body])?);
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    pub fn hash_vector_parallel_read_at(
        &self,
        components: &[(u64, ReadAt<'_>)],
    ) -> io::Result<Digest> {
        let invalid = |e: Error| io::Error::new(io::ErrorKind::InvalidInput, e);
        if !self.algorithm().is_vector() {
            return Err(invalid(Error::NotVector(self.algorithm().to_string())));
        }
        if !(1..=MAX_COMPONENTS).contains(&components.len()) {
            return Err(invalid(Error::ComponentCount(components.len())));
        }
        let failed = OnceLock::new();
        let mut sources = Vec::with_capacity(components.len());
        for &(len, read) in components {
            let len = usize::try_from(len)
                .ok()
                .filter(|&n| n as u64 <= MAX_MESSAGE_BYTES)
                .ok_or_else(|| invalid(Error::MessageTooLong))?;
            sources.push(Source::Reader {
                base: 0,
                len,
                read,
                failed: &failed,
            });
        }
        let digest = self.vector_source(&sources);
        match (failed.into_inner(), digest) {
            (Some(e), _) => Err(e),
            (None, Some(digest)) => Ok(digest),
            // Checked above: vecHash2L keys have binary powers.
            (None, None) => Err(invalid(Error::NotVector(self.algorithm().to_string()))),
        }
    }

    /// vecHash2L of 1..=255 components from their sources; None for a key whose powers are
    /// not binary (not vecHash2L).
    fn vector_source(&self, components: &[Source<'_>]) -> Option<Digest> {
        match self.powers(0) {
            KeyPowers::G128(x) => Some(vector(self, x, components)),
            KeyPowers::G256(x) => Some(vector(self, x, components)),
            KeyPowers::P1271(_) | KeyPowers::P1305(_) => None,
        }
    }

    /// Whether a message of `len` bytes is split into pieces here: long enough, several
    /// threads, and (c-decBRWHash) a backend with stream values for it.
    fn splits(&self, len: usize) -> bool {
        if len < PARALLEL_THRESHOLD || rayon::current_num_threads() < 2 {
            return false;
        }
        match (self.algorithm().family(), self.powers(len as u64)) {
            (Family::DecBrwHash(c, _), KeyPowers::P1271(p)) if c > 1 => {
                dec_streams(self, p).is_some()
            }
            (Family::DecBrwHash(c, _), KeyPowers::P1305(p)) if c > 1 => {
                dec_streams(self, p).is_some()
            }
            _ => true,
        }
    }
}

impl Mac {
    /// [`Mac::tag`] on all threads of rayon's current pool (cargo feature `parallel`;
    /// byte-identical to it).
    ///
    /// ```
    /// use brwhash::{Algorithm, Mac};
    /// let mac = Mac::new(Algorithm::HASH2L128, &[3u8; 32])?;
    /// let big = vec![9u8; 3 << 20];
    /// assert_eq!(mac.tag_parallel(&big), mac.tag(&big));
    /// assert!(mac.verify_parallel(&big, mac.tag(&big).as_ref()));
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    pub fn tag_parallel(&self, msg: &[u8]) -> Tag {
        self.finish_tag(self.key().hash_parallel(msg))
    }

    /// [`Mac::tag_vector`] on all threads of rayon's current pool, as
    /// [`Key::hash_vector_parallel`] (byte-identical to it).
    ///
    /// ```
    /// use brwhash::{Algorithm, Mac};
    /// let mac = Mac::new(Algorithm::VECHASH2L256, &[3u8; 64])?;
    /// let parts: [&[u8]; 2] = [b"header", &[9u8; 3 << 20]];
    /// let tag = mac.tag_vector_parallel(&parts)?;
    /// assert_eq!(tag, mac.tag_vector(&parts)?);
    /// assert!(mac.verify_vector_parallel(&parts, tag.as_ref()));
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    pub fn tag_vector_parallel(&self, components: &[&[u8]]) -> Result<Tag, Error> {
        Ok(self.finish_tag(self.key().hash_vector_parallel(components)?))
    }

    /// [`Mac::verify_vector`] with the tag computed by [`Mac::tag_vector_parallel`]
    /// (constant-time compare; false on a bad count).
    pub fn verify_vector_parallel(&self, components: &[&[u8]], tag: &[u8]) -> bool {
        self.tag_vector_parallel(components)
            .is_ok_and(|t| t.ct_eq_bytes(tag))
    }

    /// [`Mac::verify`] with the tag computed by [`Mac::tag_parallel`] (constant-time compare).
    ///
    /// ```
    /// use brwhash::{Algorithm, Mac};
    /// let mac = Mac::new(Algorithm::POLYHASH1305, &[5u8; 32])?;
    /// let big = vec![1u8; 2 << 20];
    /// let tag = mac.tag(&big);
    /// assert!(mac.verify_parallel(&big, tag.as_ref()));
    /// assert!(!mac.verify_parallel(&big[1..], tag.as_ref()));
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    pub fn verify_parallel(&self, msg: &[u8], tag: &[u8]) -> bool {
        self.tag_parallel(msg).ct_eq_bytes(tag)
    }

    /// [`Mac::tag_vector_parallel`] of components behind positioned readers, as
    /// [`Key::hash_vector_parallel_read_at`] (its errors).
    pub fn tag_vector_parallel_read_at(&self, components: &[(u64, ReadAt<'_>)]) -> io::Result<Tag> {
        Ok(self.finish_tag(self.key().hash_vector_parallel_read_at(components)?))
    }

    /// [`Mac::tag_parallel`] of the `len` bytes `read_at` gives, as
    /// [`Key::hash_parallel_read_at`].
    ///
    /// ```
    /// use brwhash::{Algorithm, Mac};
    /// let mac = Mac::new(Algorithm::HASH2L256, &[5u8; 64])?;
    /// let data = vec![8u8; 3 << 20];
    /// let read_at = |offset: u64, buf: &mut [u8]| {
    ///     let o = offset as usize;
    ///     buf.copy_from_slice(&data[o..o + buf.len()]);
    ///     Ok(())
    /// };
    /// assert_eq!(mac.tag_parallel_read_at(data.len() as u64, &read_at).unwrap(), mac.tag(&data));
    /// # Ok::<(), brwhash::Error>(())
    /// ```
    pub fn tag_parallel_read_at(&self, len: u64, read_at: ReadAt<'_>) -> io::Result<Tag> {
        Ok(self.finish_tag(self.key().hash_parallel_read_at(len, read_at)?))
    }
}

/// The digest on the calling thread: `Key::hash` of bytes in memory; a reader's bytes
/// streamed through a `Hasher` in pieces.
fn sequential(key: &Key, src: Source<'_>) -> Digest {
    if let Source::Bytes(m) = src {
        return key.hash(m);
    }
    let mut h = Hasher::new(key);
    let mut start = 0;
    while start < src.len() {
        let end = src.len().min(start + (4 << 20));
        src.sub(start, end)
            .with(|b| h.update(b).map(|_| ()))
            .expect("a length below the limit");
        start = end;
    }
    h.into_digest()
}

/// The stream-values function of a c-decBRWHash key, if its backend has one.
fn dec_streams<'k, F: SimdPrime + Send + Sync>(
    key: &'k Key,
    p: &'k Powers<F>,
) -> Option<impl Fn(&[u8]) -> [F; 16] + Sync + 'k> {
    let (alg, backend) = (key.algorithm(), key.backend());
    let c = match alg.family() {
        Family::DecBrwHash(c, _) => c,
        _ => return None,
    };
    let lanes = crate::backend::dec_stream_values(alg, backend, p, &[]).is_some();
    let portable = backend == crate::Backend::Portable;
    (lanes || portable).then_some(move |m: &[u8]| {
        crate::backend::dec_stream_values(alg, backend, p, m)
            .unwrap_or_else(|| crate::construct::dec_stream_values_portable(c, p, m))
    })
}

/// A piece's value v under the key's own function, by its fastest code.
type Leaf<'a, F> = &'a (dyn Fn(&[u8]) -> F + Sync);

/// v of a prime-field function (before `out()` and Poly1305's s), from pieces.
fn prime<F: SimdPrime + Send + Sync>(
    key: &Key,
    p: &Powers<F>,
    src: Source<'_>,
    leaf: Leaf<F>,
) -> F {
    let (x, block) = (p.x(), F::BLOCK);
    let prime = key.algorithm().prime().unwrap_or(Prime::P1305);
    let length = |n: usize| F::from_u64((n as u64).wrapping_mul(8));
    let n = src.len();
    // x^2 * (the inner polynomial) of a piece: its value minus x L under `alg`.
    let inner = |alg: Algorithm| {
        move |m: &[u8]| {
            let v = if alg == key.algorithm() {
                leaf(m)
            } else {
                key.value_as(alg, p, m)
            };
            sub(v, x.mul(length(m.len())))
        }
    };
    match key.algorithm().family() {
        Family::Poly1305 | Family::PolyHash(_) => {
            horner_join(src, block, leaf, |bytes| pow(x, bytes.div_ceil(block)))
        }
        Family::BrwHash(_) | Family::DecBrwHash(1, _) => {
            let f = inner(key.algorithm());
            brw_x2(p, src, &f).add(x.mul(length(n)))
        }
        Family::DecBrwHash(c, _) => match dec_streams(key, p) {
            Some(streams) => dec_brw(p, src, c as usize, &streams),
            None => src.with(leaf),
        },
        Family::TBrwHash(t, _) => {
            let l = n.div_ceil(block);
            let prefix = (((l >> t) << t) * block).min(n);
            let f = inner(Algorithm::new(Family::BrwHash(prime)).expect("BRWHash"));
            let x2b = brw_x2(p, src.sub(0, prefix), &f);
            src.sub(prefix, n)
                .with(|tail| horner_tail(x2b, x, tail, length(n)))
        }
        Family::TwoLHash(d, _) | Family::DHash(d, _) => {
            // d-Hash below 2^d blocks is polyHash: far below the threshold.
            let delta = (1usize << d) - 1;
            let l = n.div_ceil(block);
            let whole = (l / delta * delta * block).min(n);
            let f = inner(Algorithm::new(Family::TwoLHash(d, prime)).expect("d-2LHash"));
            let unit = delta * block;
            let gamma = p.sq[d as usize];
            let x2v = horner_join(src.sub(0, whole), unit, &f, |bytes| {
                pow(gamma, bytes.div_ceil(unit))
            });
            src.sub(whole, n)
                .with(|tail| horner_tail(x2v, x, tail, length(n)))
        }
        // Binary fields have no prime-field powers.
        Family::Hash2L(_) | Family::VecHash2L(_) => src.with(leaf),
    }
}

/// x^2 W x^r + x * (T_1 x^(r-1) + ... + T_r) x + x L: the end of t-BRWHash and d-2LHash,
/// x * Poly(x; [W', T_1..T_r, L]) with x^2 W' = `x2w` and T the last r pad2 blocks.
fn horner_tail<F: PrimeField>(x2w: F, x: F, tail: &[u8], length: F) -> F {
    let blocks = tail.chunks(F::BLOCK);
    let h = blocks
        .clone()
        .fold(F::ZERO, |acc, b| acc.mul(x).add(F::from_block(b, false)));
    let h = h.mul(x).add(length);
    x2w.mul(pow(x, blocks.len())).add(x.mul(h))
}

/// sum over pieces P_i of `value(P_i) * weight(bytes after P_i)`, where pieces are whole
/// `unit`s except the last, and `weight(bytes)` is the Horner variable to the power of the
/// units in `bytes` (a partial unit counts as one).
fn horner_join<F: Field + Send + Sync>(
    src: Source<'_>,
    unit: usize,
    value: &(dyn Fn(&[u8]) -> F + Sync),
    weight: impl Fn(usize) -> F,
) -> F {
    let n = src.len();
    let piece = (PIECE / unit).max(1) * unit;
    let values: Vec<F> = (0..n.div_ceil(piece))
        .into_par_iter()
        .map(|i| src.sub(i * piece, n.min((i + 1) * piece)).with(value))
        .collect();
    // Weights from the end: the last piece 1, the one before x^(units of the last piece),
    // then one whole piece more each.
    let last = match n % piece {
        0 => piece,
        r => r,
    };
    let step = weight(piece);
    let mut w = weight(last);
    let mut rev = values.iter().rev();
    let mut acc = *rev.next().expect("a non-empty message");
    for v in rev {
        acc = acc.add(v.mul(w));
        w = w.mul(step);
    }
    acc
}

/// x^2 BRW(x; pad2 blocks of `src`), splitting at BRW's power-of-two boundaries; `x2brw`
/// gives it for a piece.
fn brw_x2<F: SimdPrime + Send + Sync>(
    p: &Powers<F>,
    src: Source<'_>,
    x2brw: &(dyn Fn(&[u8]) -> F + Sync),
) -> F {
    let (block, n) = (F::BLOCK, src.len());
    if n <= PIECE {
        return src.with(x2brw);
    }
    let l = n.div_ceil(block);
    let k = (usize::BITS - 1 - l.leading_zeros()) as usize;
    let left_end = ((1 << k) - 1) * block;
    let right_start = n.min(left_end + block);
    let (a, b) = rayon::join(
        || brw_x2(p, src.sub(0, left_end), x2brw),
        || brw_x2(p, src.sub(right_start, n), x2brw),
    );
    let pivot = src
        .sub(left_end, right_start)
        .with(|b| F::from_block(b, false));
    a.mul(p.sq[k].add(pivot)).add(b)
}

/// c-decBRWHash (c >= 2) from pieces of whole rows of c blocks: each piece's c stream values
/// come from the backend's lanes (or the portable code on the portable backend), and the
/// streams are joined by the BRW split, all c at once; then x^2 Poly(x^D; Q) + x L.
fn dec_brw<F: SimdPrime + Send + Sync>(
    p: &Powers<F>,
    src: Source<'_>,
    c: usize,
    streams: &(dyn Fn(&[u8]) -> [F; 16] + Sync),
) -> F {
    let values = dec_split(p, src, c, streams);
    let x = p.x();
    let q = src.len().div_ceil(F::BLOCK).div_ceil(c);
    // x^D = sq[bit length of q] (D = 1 for the empty message).
    let xd = p.sq[(usize::BITS - q.leading_zeros()) as usize];
    let sum = values[..c]
        .iter()
        .fold(F::ZERO, |acc, &v| acc.mul(xd).add(v));
    let length = F::from_u64((src.len() as u64).wrapping_mul(8));
    p.sq[1].mul(sum).add(x.mul(length))
}

/// The c stream values of `src` (whole rows of c blocks, except at the message's end),
/// splitting every stream at BRW's power-of-two boundaries: stream j of the left part
/// (2^k - 1 rows) times (x^(2^k) + its pivot block) plus stream j of the right part.
fn dec_split<F: SimdPrime + Send + Sync>(
    p: &Powers<F>,
    src: Source<'_>,
    c: usize,
    streams: &(dyn Fn(&[u8]) -> [F; 16] + Sync),
) -> [F; 16] {
    let (block, row, n) = (F::BLOCK, c * F::BLOCK, src.len());
    if n <= PIECE {
        return src.with(streams);
    }
    let q = n.div_ceil(block).div_ceil(c);
    let k = (usize::BITS - 1 - q.leading_zeros()) as usize;
    let left_end = ((1 << k) - 1) * row;
    let right_start = n.min(left_end + row);
    let (a, b) = rayon::join(
        || dec_split(p, src.sub(0, left_end), c, streams),
        || dec_split(p, src.sub(right_start, n), c, streams),
    );
    src.sub(left_end, right_start).with(|pivots| {
        let mut out = [F::ZERO; 16];
        for j in 0..c {
            // Stream j's pivot: block j of the row (zero past the message's end).
            let start = (j * block).min(pivots.len());
            let piv = &pivots[start..((j + 1) * block).min(pivots.len())];
            out[j] = a[j].mul(p.sq[k].add(F::from_block(piv, false))).add(b[j]);
        }
        out
    })
}

/// v of Hash2L from pieces of whole super-blocks: x^2 acc(P) = digest(P) + x L(P), and
/// acc(M) = sum acc(P_i) x^(32 * super-blocks after P_i).
fn binary<F: BinaryField + Send + Sync>(key: &Key, x: F, src: Source<'_>) -> Digest {
    let length = |n: usize| {
        let mut b = [0u8; 32];
        b[..8].copy_from_slice(&(n as u64).wrapping_mul(8).to_le_bytes());
        F::from_bytes(&b[..F::BYTES])
    };
    // vecHash2L of the one-component vector (M) is Hash2L(M) + x * x^(8B-8): the component
    // count k = 1 in the top byte of the length block (SPEC.md 5.10).
    let count = if key.algorithm().is_vector() {
        let mut b = [0u8; 32];
        b[F::BYTES - 1] = 1;
        x.mul(F::from_bytes(&b[..F::BYTES]))
    } else {
        F::from_bytes(&[0u8; 32][..F::BYTES])
    };
    let unit = 31 * F::BYTES;
    let value = |m: &[u8]| {
        F::from_bytes(key.hash(m).as_bytes())
            .add(x.mul(length(m.len())))
            .add(count)
    };
    let x32 = bpow(x, 32);
    let x2acc = horner_join(src, unit, &value, |bytes| bpow(x32, bytes.div_ceil(unit)));
    let mut out = [0u8; 32];
    x2acc
        .add(x.mul(length(src.len())))
        .add(count)
        .write_bytes(&mut out);
    Digest::new(&out[..F::BYTES])
}

/// vecHash2L (SPEC.md 5.10) from the components' Hash2L digests. With W_i = x acc_i,
/// W_i = x^(1 + 32 s_i) W_(i-1) + Hash2L(X_i), where s_i is X_i's super-block count (an
/// empty component is one zero block, so one super-block), and the digest is W_k plus the
/// component count's term x * (k in the top byte). A component's Hash2L digest is its
/// one-component vecHash2L digest with the term for k = 1 taken out again.
fn vector<F: BinaryField + Send + Sync>(key: &Key, x: F, components: &[Source<'_>]) -> Digest {
    let count_term = |k: usize| {
        let mut b = [0u8; 32];
        b[F::BYTES - 1] = k as u8;
        x.mul(F::from_bytes(&b[..F::BYTES]))
    };
    let one = count_term(1);
    let digests: Vec<F> = components
        .par_iter()
        .map(|&c| F::from_bytes(key.hash_source(c).as_bytes()).add(one))
        .collect();
    let super_block = 31 * F::BYTES;
    let mut w = F::from_bytes(&[0u8; 32][..F::BYTES]);
    for (c, d) in components.iter().zip(digests) {
        let s = c.len().div_ceil(super_block).max(1);
        w = w.mul(bpow(x, 1 + 32 * s)).add(d);
    }
    let mut out = [0u8; 32];
    w.add(count_term(components.len())).write_bytes(&mut out);
    Digest::new(&out[..F::BYTES])
}

/// a - b in a prime field: a + b (p - 1).
fn sub<F: PrimeField>(a: F, b: F) -> F {
    // p - 1 as three 64-bit limbs: 2^127 - 2 (mu = 126) or 2^130 - 6 (mu = 128).
    let minus_one = if F::MU == 126 {
        F::from_u192([u64::MAX - 1, u64::MAX >> 1, 0])
    } else {
        F::from_u192([u64::MAX - 5, u64::MAX, 3])
    };
    a.add(b.mul(minus_one))
}

/// b^e by squaring and multiplying (e is a length: public); `one` is the field's 1.
fn pow_one<F: Field>(b: F, e: usize, one: F) -> F {
    let (mut acc, mut sq, mut e) = (one, b, e);
    while e > 0 {
        if e & 1 == 1 {
            acc = acc.mul(sq);
        }
        e >>= 1;
        if e > 0 {
            sq = sq.square();
        }
    }
    acc
}

/// b^e in a prime field.
fn pow<F: PrimeField>(b: F, e: usize) -> F {
    pow_one(b, e, F::from_u64(1))
}

/// b^e in a binary field.
fn bpow<F: BinaryField>(b: F, e: usize) -> F {
    let mut one = [0u8; 32];
    one[0] = 1;
    pow_one(b, e, F::from_bytes(&one[..F::BYTES]))
}

#[cfg(test)]
mod tests {
    use super::{same_page_offset, PAGE};

    /// A piece's bytes land at the place within a page that they come from, inside the
    /// buffer's extra page.
    #[test]
    fn reads_land_at_their_source_place_in_a_page() {
        for addr in [0x10_0000usize, 0x10_0010, 0x10_0fff, 0x7f00_1234] {
            for offset in [0u64, 16, 496, 4095, 4096, 524_272, (5 << 32) + 17] {
                let at = same_page_offset(addr, offset);
                assert!(at < PAGE, "addr {addr:#x} offset {offset}: {at}");
                assert_eq!((addr + at) % PAGE, (offset % PAGE as u64) as usize);
            }
        }
    }
}
