//! Python bindings for brwhash: the native module `brwhash._brwhash`, re-exported by the
//! Python package `brwhash` (python/brwhash/__init__.py). Built with maturin
//! (`pip install bindings/python`); tested from Python (tests/).
//!
//! Design notes:
//! - Inputs (data and keys) are any C-contiguous buffer. `bytes` is borrowed without a copy
//!   (it is immutable); every other buffer (bytearray, memoryview, array, numpy ...) is copied
//!   into Rust memory while the GIL is held, so no other thread can change it under the hash.
//!   Copies of key bytes are zeroized when dropped (`Secret`).
//! - Inputs of `RELEASE_GIL_AT` bytes or more are hashed with the GIL released.
//! - Every `brwhash::Error` becomes a `ValueError` with the error's message; a `str` where
//!   bytes are expected, or a non-contiguous buffer, is a `TypeError`.
//! - No `unsafe` code.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError, TryLockError};

use brwhash::{Algorithm, Backend};
use pyo3::buffer::{Element, PyBuffer, PyUntypedBuffer};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyMemoryView, PyString};
use zeroize::Zeroize;

/// Inputs of this many bytes or more are hashed with the GIL released (below it, releasing
/// and re-taking the GIL costs more than it gives other threads).
const RELEASE_GIL_AT: usize = 2048;

/// A `brwhash::Error` as a Python `ValueError` with its message.
fn value_error(e: brwhash::Error) -> PyErr {
    PyValueError::new_err(e.to_string())
}

fn parse_alg(name: &str) -> PyResult<Algorithm> {
    name.parse().map_err(value_error)
}

fn parse_backend(name: Option<&str>) -> PyResult<Option<Backend>> {
    name.map(|n| n.parse().map_err(value_error)).transpose()
}

/// Runs `f` with the GIL released when `len` is at least [`RELEASE_GIL_AT`].
///
/// `f` only sees Rust-owned data or the contents of immutable `bytes` objects (which the
/// caller keeps alive through its `Bound` reference): nothing another Python thread can free
/// or modify while the GIL is released.
fn maybe_detach<T, F>(py: Python<'_>, len: usize, f: F) -> T
where
    F: FnOnce() -> T + Send,
    T: Send,
{
    if len >= RELEASE_GIL_AT {
        py.detach(f)
    } else {
        f()
    }
}

/// Runs `f(parallel)` on `threads` threads: 1 on the calling thread (`parallel` false: the
/// sequential calls), otherwise through `brwhash::with_threads` (0: one thread per core),
/// where `f` calls the library's `*_parallel` functions.
fn with_threads<T: Send>(threads: usize, f: impl FnOnce(bool) -> T + Send) -> PyResult<T> {
    if threads == 1 {
        return Ok(f(false));
    }
    brwhash::with_threads(threads, || f(true))
        .map_err(|e| PyValueError::new_err(format!("threads={threads}: {e}")))
}

/// The bytes of a Python input: borrowed from a `bytes` object, or copied from another buffer.
enum Input<'a> {
    Borrowed(&'a [u8]),
    Owned(Vec<u8>),
}

impl Input<'_> {
    fn bytes(&self) -> &[u8] {
        match self {
            Input::Borrowed(b) => b,
            Input::Owned(v) => v,
        }
    }
}

/// The bytes of `obj` for the argument `what`: `bytes` (borrowed), or any other object with
/// the buffer protocol whose memory is C-contiguous (copied; any item format, read as raw
/// bytes). `str` and non-buffers are a `TypeError`, as in hashlib.
fn input<'a>(obj: &'a Bound<'_, PyAny>, what: &str) -> PyResult<Input<'a>> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(Input::Borrowed(b.as_bytes()));
    }
    if obj.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{what}: Unicode-objects must be encoded before hashing (got str; pass bytes, \
             e.g. s.encode())"
        )));
    }
    let py = obj.py();
    let type_name = || {
        obj.get_type()
            .name()
            .map_or_else(|_| "?".to_string(), |n| n.to_string())
    };
    let raw = PyUntypedBuffer::get(obj).map_err(|_| {
        PyTypeError::new_err(format!(
            "{what}: a bytes-like object is required, not '{}'",
            type_name()
        ))
    })?;
    if !raw.is_c_contiguous() {
        return Err(PyTypeError::new_err(format!(
            "{what}: the buffer of '{}' is not C-contiguous (copy it first, e.g. bytes(x))",
            type_name()
        )));
    }
    let bytes = if raw.item_size() == 1 && <u8 as Element>::is_compatible_format(raw.format()) {
        raw.into_typed::<u8>()?.to_vec(py)?
    } else {
        // Another item format (array('I'), a float array ...): its raw bytes, through a
        // byte-format view of the same (contiguous) memory.
        drop(raw);
        let view = PyMemoryView::from(obj)?.call_method1("cast", ("B",))?;
        let copied = PyBuffer::<u8>::get(&view)?.to_vec(py);
        view.call_method0("release")?;
        copied?
    };
    Ok(Input::Owned(bytes))
}

/// Key bytes: like [`input`], and a copy is zeroized when dropped. (A `bytes` key is the
/// caller's object, borrowed: this module keeps no copy of it.)
struct Secret<'a>(Input<'a>);

impl Secret<'_> {
    fn bytes(&self) -> &[u8] {
        self.0.bytes()
    }
}

impl Drop for Secret<'_> {
    fn drop(&mut self) {
        if let Input::Owned(v) = &mut self.0 {
            v.zeroize();
        }
    }
}

fn key_input<'a>(obj: &'a Bound<'_, PyAny>) -> PyResult<Secret<'a>> {
    input(obj, "key").map(Secret)
}

/// The components of a vecHash2L vector: an iterable of buffers.
fn components<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(
            "components: expected an iterable of bytes-like objects (a list or tuple), \
             not a single string or bytes",
        ));
    }
    obj.try_iter()
        .map_err(|_| {
            PyTypeError::new_err("components: expected an iterable of bytes-like objects")
        })?
        .collect()
}

fn component_inputs<'a>(objs: &'a [Bound<'_, PyAny>]) -> PyResult<Vec<Input<'a>>> {
    objs.iter()
        .enumerate()
        .map(|(i, o)| input(o, &format!("components[{i}]")))
        .collect()
}

fn key_for(alg: Algorithm, key: &[u8], backend: Option<Backend>) -> PyResult<brwhash::Key> {
    match backend {
        Some(b) => brwhash::Key::with_backend(alg, key, b),
        None => brwhash::Key::new(alg, key),
    }
    .map_err(value_error)
}

fn mac_for(alg: Algorithm, key: &[u8], backend: Option<Backend>) -> PyResult<brwhash::Mac> {
    mac_for_parts(alg, key, backend).map_err(value_error)
}

fn mac_for_parts(
    alg: Algorithm,
    key: &[u8],
    backend: Option<Backend>,
) -> Result<brwhash::Mac, brwhash::Error> {
    match backend {
        Some(b) => brwhash::Mac::with_backend(alg, key, b),
        None => brwhash::Mac::new(alg, key),
    }
}

/// One-shot digest of `data` under the hash key `key`.
///
/// `alg` is an algorithm name (case-insensitive, see `algorithms()`); `key` has
/// `key_size(alg)` bytes (Poly1305: r || s, and its digest is the Poly1305 tag); `data` is
/// any bytes-like object. For vecHash2L, `data` is the one-component vector `(data)` (see
/// `digest_vector`). `backend` forces a backend (see `backends()`); by default the fastest
/// one is used, or the one named by the BRWHASH_BACKEND environment variable.
///
/// `threads`: 1 (the default) hashes on the calling thread; 0 on all cores (`AUTO`); n on n
/// threads. Messages of `PARALLEL_THRESHOLD` bytes or more are then split between threads;
/// the digest is the same for every thread count.
///
/// Raises ValueError for an unknown algorithm or backend, a backend that cannot run here, or
/// a key of the wrong length; TypeError for str or non-buffer arguments.
#[pyfunction]
#[pyo3(signature = (alg, key, data, *, backend = None, threads = 1))]
fn digest<'py>(
    py: Python<'py>,
    alg: &str,
    key: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
    backend: Option<&str>,
    threads: usize,
) -> PyResult<Bound<'py, PyBytes>> {
    let out = digest_bytes(py, alg, key, data, backend, threads)?;
    Ok(PyBytes::new(py, out.as_bytes()))
}

fn digest_bytes(
    py: Python<'_>,
    alg: &str,
    key: &Bound<'_, PyAny>,
    data: &Bound<'_, PyAny>,
    backend: Option<&str>,
    threads: usize,
) -> PyResult<brwhash::Digest> {
    let alg = parse_alg(alg)?;
    let backend = parse_backend(backend)?;
    let key = key_input(key)?;
    let data = input(data, "data")?;
    let (k, d) = (key.bytes(), data.bytes());
    maybe_detach(py, d.len(), || {
        with_threads(threads, |parallel| {
            match (backend, parallel) {
                (Some(b), false) => brwhash::hash_with_backend(alg, b, k, d),
                (None, false) => brwhash::hash(alg, k, d),
                (Some(b), true) => {
                    brwhash::Key::with_backend(alg, k, b).map(|key| key.hash_parallel(d))
                }
                (None, true) => brwhash::hash_parallel(alg, k, d),
            }
            .map_err(value_error)
        })
    })?
}

/// Like `digest`, as a string of lower-case hex digits.
#[pyfunction]
#[pyo3(signature = (alg, key, data, *, backend = None, threads = 1))]
fn hexdigest(
    py: Python<'_>,
    alg: &str,
    key: &Bound<'_, PyAny>,
    data: &Bound<'_, PyAny>,
    backend: Option<&str>,
    threads: usize,
) -> PyResult<String> {
    Ok(digest_bytes(py, alg, key, data, backend, threads)?.to_hex())
}

/// One-shot vecHash2L128 / vecHash2L256 digest of a vector of 1 to 255 byte strings.
///
/// `components` is an iterable (list, tuple ...) of bytes-like objects. `threads` as for
/// `digest` (vectors of `PARALLEL_THRESHOLD` bytes or more in all are split). Raises
/// ValueError for another algorithm, a bad component count, a bad key length or backend.
#[pyfunction]
#[pyo3(signature = (alg, key, components, *, backend = None, threads = 1))]
fn digest_vector<'py>(
    py: Python<'py>,
    alg: &str,
    key: &Bound<'py, PyAny>,
    components: &Bound<'py, PyAny>,
    backend: Option<&str>,
    threads: usize,
) -> PyResult<Bound<'py, PyBytes>> {
    let alg = parse_alg(alg)?;
    let backend = parse_backend(backend)?;
    let objs = self::components(components)?;
    let inputs = component_inputs(&objs)?;
    let parts: Vec<&[u8]> = inputs.iter().map(Input::bytes).collect();
    let total = parts.iter().map(|p| p.len()).sum();
    let key = key_input(key)?;
    let k = key.bytes();
    let out = maybe_detach(py, total, || {
        with_threads(threads, |parallel| {
            let key = match backend {
                None if !parallel => return brwhash::hash_vector(alg, k, &parts),
                None => brwhash::Key::new(alg, k)?,
                Some(b) => brwhash::Key::with_backend(alg, k, b)?,
            };
            if parallel {
                key.hash_vector_parallel(&parts)
            } else {
                key.hash_vector(&parts)
            }
        })
    })?
    .map_err(value_error)?;
    Ok(PyBytes::new(py, out.as_bytes()))
}

/// One-shot one-time MAC tag of `data` (SPEC.md section 7) under the MAC key tau || s of
/// `mac_key_size(alg)` bytes: the digest under tau plus s (prime fields, modulo 2^126 or
/// 2^128) or XOR s (binary fields).
///
/// A MAC key must never authenticate two different messages. Poly1305 has no MAC mode (it
/// already is a MAC: use `digest`): a ValueError. `threads` as for `digest`; other errors as
/// for `digest`.
#[pyfunction]
#[pyo3(signature = (alg, key, data, *, backend = None, threads = 1))]
fn mac<'py>(
    py: Python<'py>,
    alg: &str,
    key: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
    backend: Option<&str>,
    threads: usize,
) -> PyResult<Bound<'py, PyBytes>> {
    let alg = parse_alg(alg)?;
    let backend = parse_backend(backend)?;
    let key = key_input(key)?;
    let data = input(data, "data")?;
    let (k, d) = (key.bytes(), data.bytes());
    let tag = maybe_detach(py, d.len(), || {
        with_threads(threads, |parallel| {
            match (backend, parallel) {
                (None, false) => brwhash::mac(alg, k, d),
                (b, parallel) => mac_for_parts(alg, k, b).map(|m| {
                    if parallel {
                        m.tag_parallel(d)
                    } else {
                        m.tag(d)
                    }
                }),
            }
            .map_err(value_error)
        })
    })??;
    Ok(PyBytes::new(py, tag.as_bytes()))
}

/// One-shot one-time MAC tag of a vecHash2L vector of 1 to 255 byte strings (`threads` as
/// for `digest_vector`).
#[pyfunction]
#[pyo3(signature = (alg, key, components, *, backend = None, threads = 1))]
fn mac_vector<'py>(
    py: Python<'py>,
    alg: &str,
    key: &Bound<'py, PyAny>,
    components: &Bound<'py, PyAny>,
    backend: Option<&str>,
    threads: usize,
) -> PyResult<Bound<'py, PyBytes>> {
    let alg = parse_alg(alg)?;
    let backend = parse_backend(backend)?;
    let objs = self::components(components)?;
    let inputs = component_inputs(&objs)?;
    let parts: Vec<&[u8]> = inputs.iter().map(Input::bytes).collect();
    let total = parts.iter().map(|p| p.len()).sum();
    let key = key_input(key)?;
    let m = mac_for(alg, key.bytes(), backend)?;
    let tag = tag_vector_on(py, &m, &parts, total, threads)?;
    Ok(PyBytes::new(py, tag.as_bytes()))
}

/// The MAC tag of a vector on `threads` threads (as `digest_vector`), without the GIL for
/// large vectors.
fn tag_vector_on(
    py: Python<'_>,
    m: &brwhash::Mac,
    parts: &[&[u8]],
    total: usize,
    threads: usize,
) -> PyResult<brwhash::Tag> {
    maybe_detach(py, total, || {
        with_threads(threads, |parallel| {
            if parallel {
                m.tag_vector_parallel(parts)
            } else {
                m.tag_vector(parts)
            }
        })
    })?
    .map_err(value_error)
}

/// The canonical names of all 65 algorithms, in the order of SPEC.md section 5.1.
#[pyfunction]
fn algorithms() -> Vec<String> {
    Algorithm::all().iter().map(ToString::to_string).collect()
}

/// The names of the backends this CPU can run; with `alg`, those that can run `alg` here
/// (built for it and supported by the CPU). Each gives the same output, at its own speed.
#[pyfunction]
#[pyo3(signature = (alg = None))]
fn backends(alg: Option<&str>) -> PyResult<Vec<&'static str>> {
    let alg = alg.map(parse_alg).transpose()?;
    Ok(Backend::ALL
        .iter()
        .filter(|b| match alg {
            Some(a) => b.check(a).is_ok(),
            None => b.cpu_supports(),
        })
        .map(|b| b.name())
        .collect())
}

/// The backend a key for `alg` uses when none is given: the one named by BRWHASH_BACKEND
/// (a ValueError when it cannot run `alg` here), else the fastest available.
#[pyfunction]
fn default_backend(alg: &str) -> PyResult<&'static str> {
    Backend::select(parse_alg(alg)?, None)
        .map(Backend::name)
        .map_err(value_error)
}

/// The canonical name of `alg` (names are matched ignoring ASCII case).
#[pyfunction]
fn canonical_name(alg: &str) -> PyResult<String> {
    Ok(parse_alg(alg)?.to_string())
}

/// Bytes of the hash key of `alg` (32 for Poly1305's r || s and the 256-bit functions, else 16).
#[pyfunction]
fn key_size(alg: &str) -> PyResult<usize> {
    Ok(parse_alg(alg)?.key_len())
}

/// Bytes of the digest (and MAC tag) of `alg`: 16, or 32 for Hash2L256 / vecHash2L256.
#[pyfunction]
fn digest_size(alg: &str) -> PyResult<usize> {
    Ok(parse_alg(alg)?.digest_len())
}

/// Bytes of the MAC key tau || s of `alg` (key_size + digest_size), or None for Poly1305,
/// which has no MAC mode.
#[pyfunction]
fn mac_key_size(alg: &str) -> PyResult<Option<usize>> {
    Ok(parse_alg(alg)?.mac_key_len())
}

/// Whether `alg` hashes a vector of components (vecHash2L128, vecHash2L256).
#[pyfunction]
fn is_vector(alg: &str) -> PyResult<bool> {
    Ok(parse_alg(alg)?.is_vector())
}

/// Locks a hasher's state; a poisoned lock (a panic, which brwhash does not raise) still
/// holds a consistent state: `update` changes it only when it succeeds.
fn relock<'a, T>(
    r: Result<MutexGuard<'a, T>, PoisonError<MutexGuard<'a, T>>>,
) -> MutexGuard<'a, T> {
    r.unwrap_or_else(PoisonError::into_inner)
}

/// Streaming hash, like hashlib's objects: `Hasher(alg, key, data=None, *, backend=None)`.
///
/// `update(data)` appends bytes; `digest()` / `hexdigest()` give the digest of everything so
/// far and leave the hasher usable; `copy()` gives an independent copy. For vecHash2L,
/// `next_component()` ends the current component and starts the next one. Any split of the
/// input over `update` calls gives the one-shot `digest()`.
///
/// A hasher made by `Mac.hasher()` is in MAC mode: its `digest()` is the MAC tag and
/// `verify(tag)` checks one in constant time.
///
/// The key is copied into the hasher's precomputed key powers (zeroized when the last hasher
/// or copy using it is freed). Methods are thread-safe: concurrent calls on one hasher are
/// serialized; data of 2 KiB or more is hashed with the GIL released.
#[pyclass(module = "brwhash", name = "Hasher", frozen)]
struct PyHasher {
    inner: Mutex<brwhash::Hasher<'static>>,
    alg: Algorithm,
    backend: Backend,
    mac_mode: bool,
}

impl PyHasher {
    fn from_hasher(h: brwhash::Hasher<'static>, mac_mode: bool) -> PyHasher {
        PyHasher {
            alg: h.algorithm(),
            backend: h.backend(),
            inner: Mutex::new(h),
            mac_mode,
        }
    }

    /// Runs `f` on the state: at once when the lock is free and the input small, otherwise
    /// with the GIL released (so a thread waiting for another's long `update` does not block
    /// the interpreter).
    fn with_state<T, F>(&self, py: Python<'_>, len: usize, f: F) -> T
    where
        F: FnOnce(&mut brwhash::Hasher<'static>) -> T + Send,
        T: Send,
    {
        if len < RELEASE_GIL_AT {
            match self.inner.try_lock() {
                Ok(mut g) => return f(&mut g),
                Err(TryLockError::Poisoned(p)) => return f(&mut p.into_inner()),
                Err(TryLockError::WouldBlock) => {}
            }
        }
        py.detach(|| f(&mut relock(self.inner.lock())))
    }

    fn update_bytes(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        let data = input(data, "data")?;
        let d = data.bytes();
        self.with_state(py, d.len(), |h| h.update(d).map(|_| ()))
            .map_err(value_error)
    }

    fn finalize(&self, py: Python<'_>) -> brwhash::Digest {
        self.with_state(py, 0, |h| h.finalize())
    }
}

#[pymethods]
impl PyHasher {
    /// A new hasher for `alg` under the hash key `key` (`key_size(alg)` bytes), fed with
    /// `data` if given. `backend` forces a backend (see `backends()`).
    #[new]
    #[pyo3(signature = (alg, key, data = None, *, backend = None))]
    fn new(
        py: Python<'_>,
        alg: &str,
        key: &Bound<'_, PyAny>,
        data: Option<&Bound<'_, PyAny>>,
        backend: Option<&str>,
    ) -> PyResult<PyHasher> {
        let alg = parse_alg(alg)?;
        let backend = parse_backend(backend)?;
        let k = key_input(key)?;
        let key = Arc::new(key_for(alg, k.bytes(), backend)?);
        drop(k);
        let h = PyHasher::from_hasher(brwhash::Hasher::with_shared_key(key), false);
        if let Some(d) = data {
            h.update_bytes(py, d)?;
        }
        Ok(h)
    }

    /// Append the bytes-like `data` to the message (for vecHash2L: to the current
    /// component). Returns None. ValueError when the message would reach 2^61 bytes (the
    /// state is then unchanged).
    fn update(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        self.update_bytes(py, data)
    }

    /// vecHash2L only: end the current component and start the next one (ValueError for
    /// other algorithms, or past 255 components).
    fn next_component(&self, py: Python<'_>) -> PyResult<()> {
        self.with_state(py, 0, |h| h.next_component().map(|_| ()))
            .map_err(value_error)
    }

    /// The digest (in MAC mode: the tag) of everything absorbed so far, as bytes. The hasher
    /// can go on absorbing.
    fn digest<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.finalize(py).as_bytes())
    }

    /// Like `digest()`, as lower-case hex.
    fn hexdigest(&self, py: Python<'_>) -> String {
        self.finalize(py).to_hex()
    }

    /// Whether `expected` (bytes-like) equals `digest()`, compared in constant time; False
    /// for a wrong length. Meant for MAC tags and Poly1305 tags.
    fn verify(&self, py: Python<'_>, expected: &Bound<'_, PyAny>) -> PyResult<bool> {
        let expected = input(expected, "expected")?;
        let e = expected.bytes();
        Ok(self.with_state(py, 0, |h| h.verify(e)))
    }

    /// An independent copy of the hasher (same key, same data so far).
    fn copy(&self, py: Python<'_>) -> PyHasher {
        let h = self.with_state(py, 0, |h| h.clone());
        PyHasher::from_hasher(h, self.mac_mode)
    }

    /// The canonical algorithm name.
    #[getter]
    fn name(&self) -> String {
        self.alg.to_string()
    }

    /// Bytes of `digest()`: 16, or 32 for Hash2L256 / vecHash2L256.
    #[getter]
    fn digest_size(&self) -> usize {
        self.alg.digest_len()
    }

    /// Bytes of the key this hasher was made with: `key_size(alg)`, or in MAC mode
    /// `mac_key_size(alg)`.
    #[getter]
    fn key_size(&self) -> usize {
        match self.mac_mode {
            true => self.alg.mac_key_len().unwrap_or(0),
            false => self.alg.key_len(),
        }
    }

    /// The backend computing the hash (e.g. "avx2", "portable").
    #[getter]
    fn backend(&self) -> &'static str {
        self.backend.name()
    }

    /// "digest", or "mac" for a hasher made by `Mac.hasher()`.
    #[getter]
    fn mode(&self) -> &'static str {
        if self.mac_mode {
            "mac"
        } else {
            "digest"
        }
    }

    fn __repr__(&self) -> String {
        format!(
            "<brwhash.Hasher {} mode={} backend={}>",
            self.alg,
            self.mode(),
            self.backend.name()
        )
    }
}

/// One-time MAC key (SPEC.md section 7): `Mac(alg, key, *, backend=None)` with key tau || s
/// of `mac_key_size(alg)` bytes. **A MAC key must never authenticate two different
/// messages.**
///
/// `tag(data)` gives the tag, `verify(data, tag)` checks one in constant time (False for a
/// tag of the wrong length); `tag_vector` / `verify_vector` do the same for vecHash2L vectors.
/// For streaming, `hasher()` returns a `Hasher` in MAC mode (its `digest()` is the tag, its
/// `verify(tag)` checks one). The key's powers are computed once; the key material is
/// zeroized when the Mac and all its hashers are freed.
#[pyclass(module = "brwhash", name = "Mac", frozen)]
struct PyMac {
    inner: Arc<brwhash::Mac>,
    alg: Algorithm,
}

impl PyMac {
    fn tag_of(
        &self,
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        threads: usize,
    ) -> PyResult<brwhash::Tag> {
        let data = input(data, "data")?;
        let d = data.bytes();
        let m = &*self.inner;
        maybe_detach(py, d.len(), || {
            with_threads(threads, |parallel| {
                if parallel {
                    m.tag_parallel(d)
                } else {
                    m.tag(d)
                }
            })
        })
    }
}

#[pymethods]
impl PyMac {
    /// A MAC key for `alg` from `mac_key_size(alg)` bytes tau || s (ValueError for Poly1305,
    /// a wrong length, or a bad backend).
    #[new]
    #[pyo3(signature = (alg, key, *, backend = None))]
    fn new(alg: &str, key: &Bound<'_, PyAny>, backend: Option<&str>) -> PyResult<PyMac> {
        let alg = parse_alg(alg)?;
        let backend = parse_backend(backend)?;
        let k = key_input(key)?;
        let mac = mac_for(alg, k.bytes(), backend)?;
        Ok(PyMac {
            inner: Arc::new(mac),
            alg,
        })
    }

    /// The tag of the bytes-like `data` (for vecHash2L: of the one-component vector);
    /// `threads` as for `digest`.
    #[pyo3(signature = (data, *, threads = 1))]
    fn tag<'py>(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
        threads: usize,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let tag = self.tag_of(py, data, threads)?;
        Ok(PyBytes::new(py, tag.as_bytes()))
    }

    /// Like `tag`, as lower-case hex.
    #[pyo3(signature = (data, *, threads = 1))]
    fn hextag(&self, py: Python<'_>, data: &Bound<'_, PyAny>, threads: usize) -> PyResult<String> {
        Ok(self.tag_of(py, data, threads)?.to_hex())
    }

    /// Whether `tag` is the tag of `data`: recomputed and compared in constant time. False
    /// for a tag of the wrong length; TypeError for a str. `threads` as for `digest`.
    #[pyo3(signature = (data, tag, *, threads = 1))]
    fn verify(
        &self,
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        tag: &Bound<'_, PyAny>,
        threads: usize,
    ) -> PyResult<bool> {
        let data = input(data, "data")?;
        let tag = input(tag, "tag")?;
        let (d, t) = (data.bytes(), tag.bytes());
        let m = &*self.inner;
        maybe_detach(py, d.len(), || {
            with_threads(threads, |parallel| {
                if parallel {
                    m.verify_parallel(d, t)
                } else {
                    m.verify(d, t)
                }
            })
        })
    }

    /// The tag of a vecHash2L vector (an iterable of 1 to 255 bytes-like objects); `threads`
    /// as for `digest_vector`.
    #[pyo3(signature = (components, *, threads = 1))]
    fn tag_vector<'py>(
        &self,
        py: Python<'py>,
        components: &Bound<'py, PyAny>,
        threads: usize,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let objs = self::components(components)?;
        let inputs = component_inputs(&objs)?;
        let parts: Vec<&[u8]> = inputs.iter().map(Input::bytes).collect();
        let total = parts.iter().map(|p| p.len()).sum();
        let tag = tag_vector_on(py, &self.inner, &parts, total, threads)?;
        Ok(PyBytes::new(py, tag.as_bytes()))
    }

    /// Whether `tag` is the tag of the vecHash2L vector `components` (constant-time
    /// comparison; False for a bad component count or tag length). `threads` as for
    /// `digest_vector`.
    #[pyo3(signature = (components, tag, *, threads = 1))]
    fn verify_vector(
        &self,
        py: Python<'_>,
        components: &Bound<'_, PyAny>,
        tag: &Bound<'_, PyAny>,
        threads: usize,
    ) -> PyResult<bool> {
        let objs = self::components(components)?;
        let inputs = component_inputs(&objs)?;
        let parts: Vec<&[u8]> = inputs.iter().map(Input::bytes).collect();
        let total = parts.iter().map(|p| p.len()).sum();
        let tag = input(tag, "tag")?;
        let t = tag.bytes();
        let m = &*self.inner;
        maybe_detach(py, total, || {
            with_threads(threads, |parallel| {
                if parallel {
                    m.verify_vector_parallel(&parts, t)
                } else {
                    m.verify_vector(&parts, t)
                }
            })
        })
    }

    /// A streaming MAC computation: a `Hasher` in MAC mode (sharing this key), fed with
    /// `data` if given. Its `digest()` is the tag and `verify(tag)` checks one.
    #[pyo3(signature = (data = None))]
    fn hasher(&self, py: Python<'_>, data: Option<&Bound<'_, PyAny>>) -> PyResult<PyHasher> {
        let h = PyHasher::from_hasher(
            brwhash::Hasher::with_shared_mac(Arc::clone(&self.inner)),
            true,
        );
        if let Some(d) = data {
            h.update_bytes(py, d)?;
        }
        Ok(h)
    }

    /// The canonical algorithm name.
    #[getter]
    fn name(&self) -> String {
        self.alg.to_string()
    }

    /// Bytes of a tag (the digest size).
    #[getter]
    fn digest_size(&self) -> usize {
        self.alg.digest_len()
    }

    /// Bytes of the MAC key tau || s.
    #[getter]
    fn key_size(&self) -> usize {
        self.alg.mac_key_len().unwrap_or(0)
    }

    /// The backend computing the hash.
    #[getter]
    fn backend(&self) -> &'static str {
        self.inner.key().backend().name()
    }

    fn __repr__(&self) -> String {
        format!(
            "<brwhash.Mac {} backend={}>",
            self.alg,
            self.inner.key().backend().name()
        )
    }
}

/// Native part of the `brwhash` package (import `brwhash`, not this module).
#[pymodule]
fn _brwhash(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("RELEASE_GIL_AT", RELEASE_GIL_AT)?;
    m.add("PARALLEL_THRESHOLD", brwhash::PARALLEL_THRESHOLD)?;
    m.add("AUTO", 0usize)?;
    m.add_class::<PyHasher>()?;
    m.add_class::<PyMac>()?;
    m.add_function(wrap_pyfunction!(digest, m)?)?;
    m.add_function(wrap_pyfunction!(hexdigest, m)?)?;
    m.add_function(wrap_pyfunction!(digest_vector, m)?)?;
    m.add_function(wrap_pyfunction!(mac, m)?)?;
    m.add_function(wrap_pyfunction!(mac_vector, m)?)?;
    m.add_function(wrap_pyfunction!(algorithms, m)?)?;
    m.add_function(wrap_pyfunction!(backends, m)?)?;
    m.add_function(wrap_pyfunction!(default_backend, m)?)?;
    m.add_function(wrap_pyfunction!(canonical_name, m)?)?;
    m.add_function(wrap_pyfunction!(key_size, m)?)?;
    m.add_function(wrap_pyfunction!(digest_size, m)?)?;
    m.add_function(wrap_pyfunction!(mac_key_size, m)?)?;
    m.add_function(wrap_pyfunction!(is_vector, m)?)?;
    Ok(())
}
