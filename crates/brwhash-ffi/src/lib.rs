//! # brwhash-ffi
//!
//! The C ABI of [`brwhash`]: `libbrwhash_ffi.so` / `libbrwhash_ffi.a` and the header
//! `include/brwhash.h` (generated from this file by cbindgen; `tests/header.rs` checks that
//! the committed header is up to date).
//!
//! Every function returns an `int` error code (`BRWHASH_OK` = 0, the `BRWHASH_ERR_*`
//! constants are negative) or a static value; none aborts or unwinds into C: pointers are
//! checked for NULL and each body runs under [`std::panic::catch_unwind`]. Algorithms are
//! named by NUL-terminated strings, ASCII case-insensitive (`"4-Hash1271"`, `"poly1305"`).
//!
//! The raw-pointer work (C pointers to slices, strings and references; writing outputs) is
//! done by a few small `unsafe fn` helpers at the top of this file; the entry points call
//! them, forwarding their callers' guarantees.

#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]
#![warn(missing_docs)]

use std::ffi::{c_char, c_int, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, OnceLock};

use brwhash::{Algorithm, Backend, Digest, Error, Hasher, Key, Mac, MAX_COMPONENTS};

/// Success.
pub const BRWHASH_OK: c_int = 0;
/// A required pointer argument was NULL (a NULL data pointer is fine with length 0).
pub const BRWHASH_ERR_NULL_POINTER: c_int = -1;
/// The name is not one of the 65 algorithms (`brwhash_algorithm_name` lists them), including
/// a known family with a parameter out of range such as `"6-Hash1271"`.
pub const BRWHASH_ERR_UNKNOWN_ALGORITHM: c_int = -2;
/// The key has the wrong length for the algorithm and mode (`brwhash_key_len`,
/// `brwhash_mac_key_len`).
pub const BRWHASH_ERR_KEY_LENGTH: c_int = -3;
/// MAC mode was requested for Poly1305, which already is a MAC (key r || s).
pub const BRWHASH_ERR_NO_MAC_MODE: c_int = -4;
/// The message (or a vecHash2L component) would reach 2^61 bytes.
pub const BRWHASH_ERR_MESSAGE_TOO_LONG: c_int = -5;
/// vecHash2L takes 1 to 255 components.
pub const BRWHASH_ERR_COMPONENT_COUNT: c_int = -6;
/// Components (a vector, `brwhash_hasher_next_component`) were given to an algorithm that is
/// not vecHash2L.
pub const BRWHASH_ERR_NOT_VECTOR: c_int = -7;
/// The backend name is not one of `brwhash_backend_name`'s.
pub const BRWHASH_ERR_UNKNOWN_BACKEND: c_int = -8;
/// The backend cannot run here: the CPU lacks its instructions, or it has no code for the
/// algorithm.
pub const BRWHASH_ERR_BACKEND_UNAVAILABLE: c_int = -9;
/// The output buffer is shorter than the digest (`brwhash_digest_len`).
pub const BRWHASH_ERR_BUFFER_TOO_SMALL: c_int = -10;
/// Verification failed: the tag (or digest) does not match, or has the wrong length.
pub const BRWHASH_ERR_VERIFY: c_int = -11;
/// A bug: the library panicked. The panic was caught; outputs are unspecified.
pub const BRWHASH_ERR_PANIC: c_int = -12;
/// An error of a newer library version that this interface does not know.
pub const BRWHASH_ERR_OTHER: c_int = -13;

/// A streaming computation (digest or MAC tag) that owns its key: create it with
/// `brwhash_hasher_new` (or `_new_mac`, `_new_with_backend`, `_new_mac_with_backend`), feed
/// it with `brwhash_hasher_update`, read the output with `brwhash_hasher_finalize`, free it
/// with `brwhash_hasher_free`. Key material is wiped when the last hasher sharing it is
/// freed.
///
/// A hasher must not be used by two threads at the same time; different hashers (also
/// clones of one another) are independent.
pub struct BrwhashHasher {
    inner: Hasher<'static>,
    /// The key the hasher holds (also inside `inner`), kept to restart it.
    shared: Shared,
}

#[derive(Clone)]
enum Shared {
    Key(Arc<Key>),
    Mac(Arc<Mac>),
}

impl Shared {
    fn hasher(&self) -> Hasher<'static> {
        match self {
            Shared::Key(k) => Hasher::with_shared_key(Arc::clone(k)),
            Shared::Mac(m) => Hasher::with_shared_mac(Arc::clone(m)),
        }
    }
}

/// What an entry point returns on failure (a `BRWHASH_ERR_*` code).
type Code = c_int;

fn code(e: &Error) -> Code {
    match e {
        Error::KeyLength { .. } => BRWHASH_ERR_KEY_LENGTH,
        Error::UnknownAlgorithm(_) | Error::ParameterOutOfRange { .. } => {
            BRWHASH_ERR_UNKNOWN_ALGORITHM
        }
        Error::NoMacMode(_) => BRWHASH_ERR_NO_MAC_MODE,
        Error::MessageTooLong => BRWHASH_ERR_MESSAGE_TOO_LONG,
        Error::ComponentCount(_) => BRWHASH_ERR_COMPONENT_COUNT,
        Error::NotVector(_) => BRWHASH_ERR_NOT_VECTOR,
        Error::UnknownBackend(_) => BRWHASH_ERR_UNKNOWN_BACKEND,
        Error::BackendUnavailable { .. } => BRWHASH_ERR_BACKEND_UNAVAILABLE,
        _ => BRWHASH_ERR_OTHER,
    }
}

impl From<Error> for Guarded {
    fn from(e: Error) -> Guarded {
        Guarded(code(&e))
    }
}

/// An error code on its way out of an entry point (lets `?` convert `brwhash::Error`).
struct Guarded(Code);

impl From<Code> for Guarded {
    fn from(c: Code) -> Guarded {
        Guarded(c)
    }
}

/// Runs an entry point's body: `BRWHASH_OK`, its error code, or `BRWHASH_ERR_PANIC` when it
/// panicked (the panic does not cross into C).
fn guard(body: impl FnOnce() -> Result<(), Guarded>) -> c_int {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => BRWHASH_OK,
        Ok(Err(Guarded(c))) => c,
        Err(_) => BRWHASH_ERR_PANIC,
    }
}

// ---------------------------------------------------------------------------------------
// The unsafe helpers: every raw pointer of the interface goes through one of these.
// ---------------------------------------------------------------------------------------

/// `len` elements at `ptr` as a slice; NULL is accepted for an empty slice.
///
/// # Safety
/// Unless `ptr` is NULL, it must point to `len` initialized, properly aligned `T`s that stay
/// valid and are not written for `'a`.
unsafe fn slice_from_raw<'a, T>(ptr: *const T, len: usize) -> Result<&'a [T], Code> {
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(BRWHASH_ERR_NULL_POINTER);
    }
    if len > isize::MAX as usize / size_of::<T>().max(1) {
        // No object is this large: a corrupt length.
        return Err(BRWHASH_ERR_MESSAGE_TOO_LONG);
    }
    // SAFETY: `ptr` is non-null and, by this function's contract, points to `len` valid,
    // aligned, initialized `T`s that outlive 'a; `len * size_of::<T>()` fits in an isize.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// Message bytes: [`slice_from_raw`] after checking the 2^61-byte limit, so an impossible
/// length is reported as such (not read).
///
/// # Safety
/// As for [`slice_from_raw`].
unsafe fn message<'a>(ptr: *const u8, len: usize) -> Result<&'a [u8], Code> {
    if len as u64 > brwhash::MAX_MESSAGE_BYTES {
        return Err(BRWHASH_ERR_MESSAGE_TOO_LONG);
    }
    // SAFETY: forwarded contract.
    unsafe { slice_from_raw(ptr, len) }
}

/// A NUL-terminated C string as `&str` (invalid UTF-8 gives `bad`).
///
/// # Safety
/// Unless NULL, `ptr` must point to a NUL-terminated string valid for `'a`.
unsafe fn str_from_raw<'a>(ptr: *const c_char, bad: Code) -> Result<&'a str, Code> {
    if ptr.is_null() {
        return Err(BRWHASH_ERR_NULL_POINTER);
    }
    // SAFETY: non-null, and NUL-terminated and valid for 'a by the contract.
    let s = unsafe { CStr::from_ptr(ptr) };
    s.to_str().map_err(|_| bad)
}

/// The algorithm named by a C string.
///
/// # Safety
/// As for [`str_from_raw`].
unsafe fn algorithm(name: *const c_char) -> Result<Algorithm, Guarded> {
    // SAFETY: forwarded contract.
    let s = unsafe { str_from_raw(name, BRWHASH_ERR_UNKNOWN_ALGORITHM) }?;
    Ok(s.parse::<Algorithm>()?)
}

/// The backend named by a C string; NULL means "the default choice".
///
/// # Safety
/// As for [`str_from_raw`].
unsafe fn backend(name: *const c_char) -> Result<Option<Backend>, Guarded> {
    if name.is_null() {
        return Ok(None);
    }
    // SAFETY: forwarded contract.
    let s = unsafe { str_from_raw(name, BRWHASH_ERR_UNKNOWN_BACKEND) }?;
    Ok(Some(s.parse::<Backend>()?))
}

/// The algorithm, backend and key that every keyed entry point takes, decoded in one order
/// (so several bad arguments give the same code in every call): name, backend, key.
struct Keyed<'a> {
    alg: Algorithm,
    /// `None`: the default choice.
    backend: Option<Backend>,
    key: &'a [u8],
}

impl Keyed<'_> {
    fn key(&self) -> Result<Key, Error> {
        match self.backend {
            Some(b) => Key::with_backend(self.alg, self.key, b),
            None => Key::new(self.alg, self.key),
        }
    }

    fn mac(&self) -> Result<Mac, Error> {
        match self.backend {
            Some(b) => Mac::with_backend(self.alg, self.key, b),
            None => Mac::new(self.alg, self.key),
        }
    }
}

/// Decodes the [`Keyed`] arguments.
///
/// # Safety
/// `alg` and `backend` must be NULL or NUL-terminated strings valid for `'a`; `key` NULL or
/// valid for reading `key_len` bytes that are not written during `'a`.
unsafe fn keyed<'a>(
    alg: *const c_char,
    backend: *const c_char,
    key: *const u8,
    key_len: usize,
) -> Result<Keyed<'a>, Guarded> {
    // SAFETY: forwarded contract (`alg`).
    let alg = unsafe { algorithm(alg) }?;
    // SAFETY: forwarded contract (`backend`).
    let backend = unsafe { self::backend(backend) }?;
    // SAFETY: forwarded contract (`key`, `key_len`).
    let key = unsafe { slice_from_raw(key, key_len) }?;
    Ok(Keyed { alg, backend, key })
}

/// Writes `value` to `*out`.
///
/// # Safety
/// Unless NULL, `out` must be valid for writing a `T` and properly aligned.
unsafe fn write_out<T>(out: *mut T, value: T) -> Result<(), Code> {
    if out.is_null() {
        return Err(BRWHASH_ERR_NULL_POINTER);
    }
    // SAFETY: non-null, and valid and aligned for a write of T by the contract.
    unsafe { out.write(value) };
    Ok(())
}

/// Copies a digest into the caller's buffer of `out_len` bytes.
///
/// # Safety
/// Unless NULL, `out` must be valid for writing `out_len` bytes.
unsafe fn write_digest(d: &Digest, out: *mut u8, out_len: usize) -> Result<(), Code> {
    let bytes = d.as_bytes();
    if out.is_null() {
        return Err(BRWHASH_ERR_NULL_POINTER);
    }
    if out_len < bytes.len() {
        return Err(BRWHASH_ERR_BUFFER_TOO_SMALL);
    }
    // SAFETY: `out` is non-null and valid for `out_len >= bytes.len()` bytes by the
    // contract; a Rust-owned digest cannot overlap the caller's buffer.
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), out, bytes.len()) };
    Ok(())
}

/// The hasher behind a handle, for reading.
///
/// # Safety
/// Unless NULL, `h` must come from a `brwhash_hasher_new*` / `brwhash_hasher_clone` of this
/// library, not yet freed, and not used by another thread during `'a`.
unsafe fn hasher_ref<'a>(h: *const BrwhashHasher) -> Result<&'a BrwhashHasher, Code> {
    // SAFETY: a live handle is a valid, aligned pointer to a BrwhashHasher (a Box's) by the
    // contract.
    unsafe { h.as_ref() }.ok_or(BRWHASH_ERR_NULL_POINTER)
}

/// The hasher behind a handle, for updating.
///
/// # Safety
/// As for [`hasher_ref`], and no other reference to it may exist during `'a`.
unsafe fn hasher_mut<'a>(h: *mut BrwhashHasher) -> Result<&'a mut BrwhashHasher, Code> {
    // SAFETY: a live handle is a valid, aligned, unaliased pointer to a BrwhashHasher by the
    // contract.
    unsafe { h.as_mut() }.ok_or(BRWHASH_ERR_NULL_POINTER)
}

/// The vecHash2L components given as two C arrays.
///
/// # Safety
/// Unless NULL, `parts` and `part_lens` must point to `count` elements each, and each
/// non-NULL `parts[i]` to `part_lens[i]` bytes, all valid for `'a`.
unsafe fn components<'a>(
    parts: *const *const u8,
    part_lens: *const usize,
    count: usize,
) -> Result<Vec<&'a [u8]>, Guarded> {
    if count == 0 || count > MAX_COMPONENTS {
        return Err(Error::ComponentCount(count).into());
    }
    // SAFETY: forwarded contract (count elements each).
    let (ptrs, lens) = unsafe {
        (
            slice_from_raw(parts, count)?,
            slice_from_raw(part_lens, count)?,
        )
    };
    ptrs.iter()
        .zip(lens)
        // SAFETY: forwarded contract (parts[i] points to part_lens[i] bytes).
        .map(|(&p, &n)| unsafe { message(p, n) }.map_err(Guarded))
        .collect()
}

// ---------------------------------------------------------------------------------------
// Information
// ---------------------------------------------------------------------------------------

/// The library version, e.g. `"0.1.0"` (a static string).
#[no_mangle]
pub extern "C" fn brwhash_version() -> *const c_char {
    static VERSION: &CStr =
        match CStr::from_bytes_with_nul(concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes()) {
            Ok(v) => v,
            Err(_) => c"unknown",
        };
    VERSION.as_ptr()
}

/// A static English description of an error code (`"unknown error code"` for a code that is
/// not one of `BRWHASH_OK`, `BRWHASH_ERR_*`). Never NULL.
#[no_mangle]
pub extern "C" fn brwhash_strerror(code: c_int) -> *const c_char {
    let s: &'static CStr = match code {
        BRWHASH_OK => c"success",
        BRWHASH_ERR_NULL_POINTER => c"a required pointer argument is NULL",
        BRWHASH_ERR_UNKNOWN_ALGORITHM => c"unknown algorithm name",
        BRWHASH_ERR_KEY_LENGTH => c"wrong key length for the algorithm and mode",
        BRWHASH_ERR_NO_MAC_MODE => c"Poly1305 has no MAC mode: it already is a MAC",
        BRWHASH_ERR_MESSAGE_TOO_LONG => c"message too long: the limit is 2^61 - 1 bytes",
        BRWHASH_ERR_COMPONENT_COUNT => c"vecHash2L takes 1 to 255 components",
        BRWHASH_ERR_NOT_VECTOR => c"only vecHash2L takes a vector of components",
        BRWHASH_ERR_UNKNOWN_BACKEND => c"unknown backend name",
        BRWHASH_ERR_BACKEND_UNAVAILABLE => c"the backend cannot run here for this algorithm",
        BRWHASH_ERR_BUFFER_TOO_SMALL => c"output buffer too small",
        BRWHASH_ERR_VERIFY => c"verification failed",
        BRWHASH_ERR_PANIC => c"internal error (a bug in brwhash)",
        BRWHASH_ERR_OTHER => c"other error",
        _ => c"unknown error code",
    };
    s.as_ptr()
}

fn algorithm_names() -> &'static [CString] {
    static NAMES: OnceLock<Vec<CString>> = OnceLock::new();
    NAMES.get_or_init(|| {
        Algorithm::all()
            .iter()
            .map(|a| CString::new(a.to_string()).expect("algorithm names have no NUL"))
            .collect()
    })
}

/// The number of algorithms (65).
#[no_mangle]
pub extern "C" fn brwhash_algorithm_count() -> usize {
    catch_unwind(|| algorithm_names().len()).unwrap_or(0)
}

/// The canonical name of algorithm `index` (0 <= index < `brwhash_algorithm_count()`), in
/// the order `brwhash list` prints them: a static NUL-terminated string, or NULL for an
/// index out of range.
#[no_mangle]
pub extern "C" fn brwhash_algorithm_name(index: usize) -> *const c_char {
    catch_unwind(|| {
        algorithm_names()
            .get(index)
            .map_or(std::ptr::null(), |s| s.as_ptr())
    })
    .unwrap_or(std::ptr::null())
}

/// Writes to `*out` the key length in bytes of algorithm `alg` (digest mode; Poly1305: 32,
/// its r || s).
///
/// # Safety
/// `alg` must be NULL or a NUL-terminated string; `out` NULL or valid for writing a `size_t`.
#[no_mangle]
pub unsafe extern "C" fn brwhash_key_len(alg: *const c_char, out: *mut usize) -> c_int {
    guard(|| {
        // SAFETY: `alg` is NULL or a NUL-terminated string (caller's contract).
        let a = unsafe { algorithm(alg) }?;
        // SAFETY: `out` is NULL or valid for writing one value (caller's contract).
        Ok(unsafe { write_out(out, a.key_len()) }?)
    })
}

/// Writes to `*out` the digest (and tag) length in bytes of `alg`: 16 or 32.
///
/// # Safety
/// As for `brwhash_key_len`.
#[no_mangle]
pub unsafe extern "C" fn brwhash_digest_len(alg: *const c_char, out: *mut usize) -> c_int {
    guard(|| {
        // SAFETY: `alg` is NULL or a NUL-terminated string (caller's contract).
        let a = unsafe { algorithm(alg) }?;
        // SAFETY: `out` is NULL or valid for writing one value (caller's contract).
        Ok(unsafe { write_out(out, a.digest_len()) }?)
    })
}

/// Writes to `*out` the MAC-mode key length (tau || s) of `alg`; `BRWHASH_ERR_NO_MAC_MODE`
/// for Poly1305.
///
/// # Safety
/// As for `brwhash_key_len`.
#[no_mangle]
pub unsafe extern "C" fn brwhash_mac_key_len(alg: *const c_char, out: *mut usize) -> c_int {
    guard(|| {
        // SAFETY: `alg` is NULL or a NUL-terminated string (caller's contract).
        let a = unsafe { algorithm(alg) }?;
        let n = a
            .mac_key_len()
            .ok_or_else(|| Error::NoMacMode(a.to_string()))?;
        // SAFETY: `out` is NULL or valid for writing one value (caller's contract).
        Ok(unsafe { write_out(out, n) }?)
    })
}

/// Writes to `*out` 1 when `alg` is a vecHash2L (its input is a vector of components), else 0.
///
/// # Safety
/// `alg` must be NULL or a NUL-terminated string; `out` NULL or valid for writing an `int`.
#[no_mangle]
pub unsafe extern "C" fn brwhash_is_vector(alg: *const c_char, out: *mut c_int) -> c_int {
    guard(|| {
        // SAFETY: `alg` is NULL or a NUL-terminated string (caller's contract).
        let a = unsafe { algorithm(alg) }?;
        // SAFETY: `out` is NULL or valid for writing one value (caller's contract).
        Ok(unsafe { write_out(out, c_int::from(a.is_vector())) }?)
    })
}

/// The number of backends (7).
#[no_mangle]
pub extern "C" fn brwhash_backend_count() -> usize {
    Backend::ALL.len()
}

/// The name of backend `index` (`"portable"`, `"scalar"`, `"avx2"`, `"avx512"`, `"ifma"`,
/// `"pclmul"`, `"vpclmul"`): a static string, or NULL for an index out of range.
#[no_mangle]
pub extern "C" fn brwhash_backend_name(index: usize) -> *const c_char {
    let s: &'static CStr = match Backend::ALL.get(index) {
        Some(Backend::Portable) => c"portable",
        Some(Backend::Scalar) => c"scalar",
        Some(Backend::Avx2) => c"avx2",
        Some(Backend::Avx512) => c"avx512",
        Some(Backend::Ifma) => c"ifma",
        Some(Backend::Pclmul) => c"pclmul",
        Some(Backend::Vpclmul) => c"vpclmul",
        None => return std::ptr::null(),
    };
    s.as_ptr()
}

fn static_backend_name(b: Backend) -> *const c_char {
    Backend::ALL
        .iter()
        .position(|&x| x == b)
        .map_or(std::ptr::null(), |i| brwhash_backend_name(i))
}

/// Whether backend `backend` (a name, case-insensitive) can compute `alg` here:
/// `BRWHASH_OK`, `BRWHASH_ERR_BACKEND_UNAVAILABLE` (CPU lacks the instructions, or no code for
/// `alg`), or another error for bad names.
///
/// # Safety
/// `alg` and `backend` must be NULL or NUL-terminated strings.
#[no_mangle]
pub unsafe extern "C" fn brwhash_backend_check(
    alg: *const c_char,
    backend: *const c_char,
) -> c_int {
    guard(|| {
        // SAFETY: `alg` is NULL or a NUL-terminated string (caller's contract).
        let a = unsafe { algorithm(alg) }?;
        if backend.is_null() {
            return Err(BRWHASH_ERR_NULL_POINTER.into());
        }
        // SAFETY: `backend` is a NUL-terminated string (caller's contract; not NULL here).
        let b = unsafe { self::backend(backend) }?.expect("non-null name");
        Ok(b.check(a)?)
    })
}

// ---------------------------------------------------------------------------------------
// One-shot
// ---------------------------------------------------------------------------------------

/// The digest of `msg` under `key`, written to `out` (`brwhash_digest_len` bytes; `out_len`
/// may be larger). For Poly1305 the digest is its tag (key r || s). For vecHash2L: the digest
/// of the one-component vector (msg).
///
/// # Safety
/// `alg` must be NULL or a NUL-terminated string; `key` NULL or valid for reading `key_len`
/// bytes, `msg` for `msg_len` bytes (NULL is fine with length 0); `out` NULL or valid for
/// writing `out_len` bytes.
#[no_mangle]
pub unsafe extern "C" fn brwhash_hash(
    alg: *const c_char,
    key: *const u8,
    key_len: usize,
    msg: *const u8,
    msg_len: usize,
    out: *mut u8,
    out_len: usize,
) -> c_int {
    // SAFETY: the caller's contract, forwarded.
    unsafe {
        brwhash_hash_with_backend(
            alg,
            std::ptr::null(),
            key,
            key_len,
            msg,
            msg_len,
            out,
            out_len,
        )
    }
}

/// `brwhash_hash` on the backend named `backend` (NULL: the default choice, as
/// `brwhash_hash`), for tests and benchmarks of one backend.
/// `BRWHASH_ERR_BACKEND_UNAVAILABLE` when it cannot run here.
///
/// # Safety
/// As for `brwhash_hash`; `backend` must be NULL or a NUL-terminated string.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn brwhash_hash_with_backend(
    alg: *const c_char,
    backend: *const c_char,
    key: *const u8,
    key_len: usize,
    msg: *const u8,
    msg_len: usize,
    out: *mut u8,
    out_len: usize,
) -> c_int {
    guard(|| {
        // SAFETY: `alg`, `backend` NULL or NUL-terminated strings, `key` NULL or valid for
        // `key_len` bytes (caller's contract).
        let args = unsafe { keyed(alg, backend, key, key_len) }?;
        // SAFETY: `msg` is NULL or valid for reading `msg_len` bytes (caller's contract).
        let m = unsafe { message(msg, msg_len) }?;
        check_out(out, out_len, args.alg)?;
        // One-shot: key powers for this length only (a `Key` would compute them for any).
        let d = match args.backend {
            Some(b) => brwhash::hash_with_backend(args.alg, b, args.key, m)?,
            None => brwhash::hash(args.alg, args.key, m)?,
        };
        // SAFETY: `out` is NULL or valid for writing `out_len` bytes (caller's contract).
        Ok(unsafe { write_digest(&d, out, out_len) }?)
    })
}

/// `brwhash_hash_with_backend` on several threads: `threads` 1 hashes on the calling thread,
/// 0 on one thread per core, n on a pool of n threads (started on first use and kept).
/// Messages from 1 MiB on are split between the threads; the digest is the same for every
/// thread count. `BRWHASH_ERR_OTHER` if a pool's threads cannot be started.
///
/// # Safety
/// As for `brwhash_hash_with_backend`; the buffers must stay valid and unchanged until the
/// call returns (other threads read `msg`).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn brwhash_hash_parallel(
    alg: *const c_char,
    backend: *const c_char,
    key: *const u8,
    key_len: usize,
    msg: *const u8,
    msg_len: usize,
    threads: usize,
    out: *mut u8,
    out_len: usize,
) -> c_int {
    guard(|| {
        // SAFETY: `alg`, `backend` NULL or NUL-terminated strings, `key` NULL or valid for
        // `key_len` bytes (caller's contract).
        let args = unsafe { keyed(alg, backend, key, key_len) }?;
        // SAFETY: `msg` is NULL or valid for reading `msg_len` bytes (caller's contract).
        let m = unsafe { message(msg, msg_len) }?;
        check_out(out, out_len, args.alg)?;
        let key = args.key()?;
        let d = on_threads(threads, || key.hash_parallel(m), || key.hash(m))?;
        // SAFETY: `out` is NULL or valid for writing `out_len` bytes (caller's contract).
        Ok(unsafe { write_digest(&d, out, out_len) }?)
    })
}

/// `parallel` on `threads` threads (0: one per core) through `brwhash::with_threads`, or
/// `sequential` on the calling thread for 1.
fn on_threads<T: Send>(
    threads: usize,
    parallel: impl FnOnce() -> T + Send,
    sequential: impl FnOnce() -> T,
) -> Result<T, Code> {
    if threads == 1 {
        return Ok(sequential());
    }
    brwhash::with_threads(threads, parallel).map_err(|_| BRWHASH_ERR_OTHER)
}

/// `BRWHASH_ERR_NOT_VECTOR` for an algorithm other than vecHash2L.
fn not_vector_is_an_error(alg: Algorithm) -> Result<(), Error> {
    if alg.is_vector() {
        Ok(())
    } else {
        Err(Error::NotVector(alg.to_string()))
    }
}

/// Checks an output buffer before the work: NULL, or shorter than `alg`'s digest.
fn check_out(out: *mut u8, out_len: usize, alg: Algorithm) -> Result<(), Code> {
    if out.is_null() {
        Err(BRWHASH_ERR_NULL_POINTER)
    } else if out_len < alg.digest_len() {
        Err(BRWHASH_ERR_BUFFER_TOO_SMALL)
    } else {
        Ok(())
    }
}

/// The vecHash2L digest of the vector of `count` components (1..=255): component i is
/// `part_lens[i]` bytes at `parts[i]`. `BRWHASH_ERR_NOT_VECTOR` for other algorithms.
///
/// # Safety
/// `alg` must be NULL or a NUL-terminated string; `key` NULL or valid for `key_len` bytes;
/// `parts` and `part_lens` NULL or arrays of `count` elements, each `parts[i]` NULL (only
/// with `part_lens[i] == 0`) or valid for `part_lens[i]` bytes; `out` NULL or valid for
/// writing `out_len` bytes.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn brwhash_hash_vector(
    alg: *const c_char,
    key: *const u8,
    key_len: usize,
    parts: *const *const u8,
    part_lens: *const usize,
    count: usize,
    out: *mut u8,
    out_len: usize,
) -> c_int {
    // SAFETY: the caller's contract, forwarded.
    unsafe {
        vector_entry(
            alg, key, key_len, parts, part_lens, count, 1, false, out, out_len,
        )
    }
}

/// `brwhash_hash_vector` on several threads (`threads` as for `brwhash_hash_parallel`):
/// vectors of 1 MiB or more in all are split, components side by side and long ones into
/// pieces; the digest is the same for every thread count.
///
/// # Safety
/// As for `brwhash_hash_vector`; the buffers must stay valid and unchanged until the call
/// returns (other threads read the components).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn brwhash_hash_vector_parallel(
    alg: *const c_char,
    key: *const u8,
    key_len: usize,
    parts: *const *const u8,
    part_lens: *const usize,
    count: usize,
    threads: usize,
    out: *mut u8,
    out_len: usize,
) -> c_int {
    // SAFETY: the caller's contract, forwarded.
    unsafe {
        vector_entry(
            alg, key, key_len, parts, part_lens, count, threads, false, out, out_len,
        )
    }
}

/// The vector entry points: digest (`mac` false) or tag of a vector on `threads` threads.
///
/// # Safety
/// As for `brwhash_hash_vector_parallel`.
#[allow(clippy::too_many_arguments)]
unsafe fn vector_entry(
    alg: *const c_char,
    key: *const u8,
    key_len: usize,
    parts: *const *const u8,
    part_lens: *const usize,
    count: usize,
    threads: usize,
    mac: bool,
    out: *mut u8,
    out_len: usize,
) -> c_int {
    guard(|| {
        // SAFETY: `alg` NULL or a NUL-terminated string, `key` NULL or valid for `key_len`
        // bytes (caller's contract).
        let args = unsafe { keyed(alg, std::ptr::null(), key, key_len) }?;
        // SAFETY: `parts`, `part_lens`: NULL or `count` valid components (caller's contract).
        let parts = unsafe { components(parts, part_lens, count) }?;
        check_out(out, out_len, args.alg)?;
        not_vector_is_an_error(args.alg)?;
        let d = match (mac, threads) {
            // One thread, no MAC: one-shot, key powers for these lengths only.
            (false, 1) => brwhash::hash_vector(args.alg, args.key, &parts)?,
            (false, _) => {
                let k = args.key()?;
                on_threads(
                    threads,
                    || k.hash_vector_parallel(&parts),
                    || k.hash_vector(&parts),
                )??
            }
            (true, _) => {
                let m = args.mac()?;
                on_threads(
                    threads,
                    || m.tag_vector_parallel(&parts),
                    || m.tag_vector(&parts),
                )??
            }
        };
        // SAFETY: `out` is NULL or valid for writing `out_len` bytes (caller's contract).
        Ok(unsafe { write_digest(&d, out, out_len) }?)
    })
}

/// The MAC tag (SPEC.md section 7) of `msg` under the one-time key tau || s
/// (`brwhash_mac_key_len` bytes), written to `out`. `BRWHASH_ERR_NO_MAC_MODE` for Poly1305
/// (use `brwhash_hash`: Poly1305's digest is its tag). A MAC key must never authenticate two
/// different messages.
///
/// # Safety
/// As for `brwhash_hash`.
#[no_mangle]
pub unsafe extern "C" fn brwhash_mac(
    alg: *const c_char,
    key: *const u8,
    key_len: usize,
    msg: *const u8,
    msg_len: usize,
    out: *mut u8,
    out_len: usize,
) -> c_int {
    guard(|| {
        // SAFETY: `alg` NULL or a NUL-terminated string, `key` NULL or valid for `key_len`
        // bytes (caller's contract).
        let args = unsafe { keyed(alg, std::ptr::null(), key, key_len) }?;
        // SAFETY: `msg` is NULL or valid for reading `msg_len` bytes (caller's contract).
        let m = unsafe { message(msg, msg_len) }?;
        check_out(out, out_len, args.alg)?;
        let t = brwhash::mac(args.alg, args.key, m)?;
        // SAFETY: `out` is NULL or valid for writing `out_len` bytes (caller's contract).
        Ok(unsafe { write_digest(&t, out, out_len) }?)
    })
}

/// `brwhash_mac` on several threads (`threads` as for `brwhash_hash_parallel`).
///
/// # Safety
/// As for `brwhash_hash_parallel`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn brwhash_mac_parallel(
    alg: *const c_char,
    key: *const u8,
    key_len: usize,
    msg: *const u8,
    msg_len: usize,
    threads: usize,
    out: *mut u8,
    out_len: usize,
) -> c_int {
    guard(|| {
        // SAFETY: `alg` NULL or a NUL-terminated string, `key` NULL or valid for `key_len`
        // bytes (caller's contract).
        let args = unsafe { keyed(alg, std::ptr::null(), key, key_len) }?;
        // SAFETY: `msg` is NULL or valid for reading `msg_len` bytes (caller's contract).
        let m = unsafe { message(msg, msg_len) }?;
        check_out(out, out_len, args.alg)?;
        let mac = args.mac()?;
        let t = on_threads(threads, || mac.tag_parallel(m), || mac.tag(m))?;
        // SAFETY: `out` is NULL or valid for writing `out_len` bytes (caller's contract).
        Ok(unsafe { write_digest(&t, out, out_len) }?)
    })
}

/// Checks the MAC tag of `msg` in constant time: `BRWHASH_OK` when `tag` (`tag_len` bytes) is
/// its tag, `BRWHASH_ERR_VERIFY` when not (also for a wrong `tag_len`), another code on bad
/// arguments.
///
/// # Safety
/// As for `brwhash_hash`, with `tag` NULL or valid for reading `tag_len` bytes.
#[no_mangle]
pub unsafe extern "C" fn brwhash_mac_verify(
    alg: *const c_char,
    key: *const u8,
    key_len: usize,
    msg: *const u8,
    msg_len: usize,
    tag: *const u8,
    tag_len: usize,
) -> c_int {
    guard(|| {
        // SAFETY: `alg` NULL or a NUL-terminated string, `key` NULL or valid for `key_len`
        // bytes (caller's contract).
        let args = unsafe { keyed(alg, std::ptr::null(), key, key_len) }?;
        // SAFETY: `msg` is NULL or valid for reading `msg_len` bytes (caller's contract).
        let m = unsafe { message(msg, msg_len) }?;
        // SAFETY: `tag` is NULL or valid for reading `tag_len` bytes (caller's contract).
        let t = unsafe { slice_from_raw(tag, tag_len) }?;
        if brwhash::mac(args.alg, args.key, m)?.ct_eq_bytes(t) {
            Ok(())
        } else {
            Err(BRWHASH_ERR_VERIFY.into())
        }
    })
}

/// The MAC tag of a vecHash2L vector (arguments as `brwhash_hash_vector`, key tau || s).
///
/// # Safety
/// As for `brwhash_hash_vector`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn brwhash_mac_vector(
    alg: *const c_char,
    key: *const u8,
    key_len: usize,
    parts: *const *const u8,
    part_lens: *const usize,
    count: usize,
    out: *mut u8,
    out_len: usize,
) -> c_int {
    // SAFETY: the caller's contract, forwarded.
    unsafe {
        vector_entry(
            alg, key, key_len, parts, part_lens, count, 1, true, out, out_len,
        )
    }
}

/// `brwhash_mac_vector` on several threads (`threads` as for `brwhash_hash_parallel`).
///
/// # Safety
/// As for `brwhash_hash_vector_parallel`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn brwhash_mac_vector_parallel(
    alg: *const c_char,
    key: *const u8,
    key_len: usize,
    parts: *const *const u8,
    part_lens: *const usize,
    count: usize,
    threads: usize,
    out: *mut u8,
    out_len: usize,
) -> c_int {
    // SAFETY: the caller's contract, forwarded.
    unsafe {
        vector_entry(
            alg, key, key_len, parts, part_lens, count, threads, true, out, out_len,
        )
    }
}

/// Checks the MAC tag of a vecHash2L vector in constant time (`BRWHASH_OK` or
/// `BRWHASH_ERR_VERIFY`).
///
/// # Safety
/// As for `brwhash_hash_vector`, with `tag` NULL or valid for reading `tag_len` bytes.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn brwhash_mac_verify_vector(
    alg: *const c_char,
    key: *const u8,
    key_len: usize,
    parts: *const *const u8,
    part_lens: *const usize,
    count: usize,
    tag: *const u8,
    tag_len: usize,
) -> c_int {
    guard(|| {
        // SAFETY: `alg` NULL or a NUL-terminated string, `key` NULL or valid for `key_len`
        // bytes (caller's contract).
        let args = unsafe { keyed(alg, std::ptr::null(), key, key_len) }?;
        // SAFETY: `parts`, `part_lens`: NULL or `count` valid components (caller's contract).
        let parts = unsafe { components(parts, part_lens, count) }?;
        // SAFETY: `tag` is NULL or valid for reading `tag_len` bytes (caller's contract).
        let t = unsafe { slice_from_raw(tag, tag_len) }?;
        not_vector_is_an_error(args.alg)?;
        if args.mac()?.tag_vector(&parts)?.ct_eq_bytes(t) {
            Ok(())
        } else {
            Err(BRWHASH_ERR_VERIFY.into())
        }
    })
}

// ---------------------------------------------------------------------------------------
// Streaming
// ---------------------------------------------------------------------------------------

/// Builds a hasher and hands it to C through `*out` (set to NULL on failure).
///
/// # Safety
/// `out` NULL or valid for writing a pointer; `alg`, `backend`, `key` as for
/// `brwhash_hash_with_backend`.
unsafe fn new_hasher(
    alg: *const c_char,
    backend: *const c_char,
    key: *const u8,
    key_len: usize,
    mac: bool,
    out: *mut *mut BrwhashHasher,
) -> c_int {
    let mut made = None;
    let rc = guard(|| {
        if out.is_null() {
            return Err(BRWHASH_ERR_NULL_POINTER.into());
        }
        // SAFETY: `alg`, `backend` NULL or NUL-terminated strings, `key` NULL or valid for
        // `key_len` bytes (caller's contract).
        let args = unsafe { keyed(alg, backend, key, key_len) }?;
        let shared = if mac {
            Shared::Mac(Arc::new(args.mac()?))
        } else {
            Shared::Key(Arc::new(args.key()?))
        };
        made = Some(Box::new(BrwhashHasher {
            inner: shared.hasher(),
            shared,
        }));
        Ok(())
    });
    if !out.is_null() {
        let ptr = made.map_or(std::ptr::null_mut(), Box::into_raw);
        // SAFETY: `out` is non-null and valid for writing a pointer by the contract.
        let _ = unsafe { write_out(out, ptr) };
    }
    rc
}

/// A new streaming digest computation under `key` (`brwhash_key_len` bytes), stored in
/// `*out` (NULL on failure). The key's powers are computed once: to hash many messages under
/// one key, keep a fresh hasher and `brwhash_hasher_clone` it per message, or
/// `brwhash_hasher_reset` it.
///
/// # Safety
/// `alg` must be NULL or a NUL-terminated string; `key` NULL or valid for reading `key_len`
/// bytes; `out` NULL or valid for writing a pointer.
#[no_mangle]
pub unsafe extern "C" fn brwhash_hasher_new(
    alg: *const c_char,
    key: *const u8,
    key_len: usize,
    out: *mut *mut BrwhashHasher,
) -> c_int {
    // SAFETY: the caller's contract, forwarded.
    unsafe { new_hasher(alg, std::ptr::null(), key, key_len, false, out) }
}

/// A new streaming MAC computation under the one-time key tau || s (`brwhash_mac_key_len`
/// bytes): `brwhash_hasher_finalize` gives the tag, `brwhash_hasher_verify` checks one.
/// `BRWHASH_ERR_NO_MAC_MODE` for Poly1305 (whose plain hasher already gives its tag).
///
/// # Safety
/// As for `brwhash_hasher_new`.
#[no_mangle]
pub unsafe extern "C" fn brwhash_hasher_new_mac(
    alg: *const c_char,
    key: *const u8,
    key_len: usize,
    out: *mut *mut BrwhashHasher,
) -> c_int {
    // SAFETY: the caller's contract, forwarded.
    unsafe { new_hasher(alg, std::ptr::null(), key, key_len, true, out) }
}

/// `brwhash_hasher_new` on the backend named `backend` (NULL: the default choice, which the
/// environment variable `BRWHASH_BACKEND` can force). `BRWHASH_ERR_UNKNOWN_BACKEND` or
/// `BRWHASH_ERR_BACKEND_UNAVAILABLE` when it cannot be used.
///
/// # Safety
/// As for `brwhash_hasher_new`; `backend` must be NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn brwhash_hasher_new_with_backend(
    alg: *const c_char,
    backend: *const c_char,
    key: *const u8,
    key_len: usize,
    out: *mut *mut BrwhashHasher,
) -> c_int {
    // SAFETY: the caller's contract, forwarded.
    unsafe { new_hasher(alg, backend, key, key_len, false, out) }
}

/// `brwhash_hasher_new_mac` on the backend named `backend` (NULL: the default choice).
///
/// # Safety
/// As for `brwhash_hasher_new_with_backend`.
#[no_mangle]
pub unsafe extern "C" fn brwhash_hasher_new_mac_with_backend(
    alg: *const c_char,
    backend: *const c_char,
    key: *const u8,
    key_len: usize,
    out: *mut *mut BrwhashHasher,
) -> c_int {
    // SAFETY: the caller's contract, forwarded.
    unsafe { new_hasher(alg, backend, key, key_len, true, out) }
}

/// Appends `len` bytes at `data` to the message (for vecHash2L: to the current component).
/// On `BRWHASH_ERR_MESSAGE_TOO_LONG` the state is unchanged.
///
/// # Safety
/// `h` must be NULL or a live hasher not used concurrently; `data` NULL (only with
/// `len == 0`) or valid for reading `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn brwhash_hasher_update(
    h: *mut BrwhashHasher,
    data: *const u8,
    len: usize,
) -> c_int {
    guard(|| {
        // SAFETY: `h` is NULL or a live hasher not used concurrently (caller's contract).
        let h = unsafe { hasher_mut(h) }?;
        // SAFETY: `data` is NULL or valid for reading `len` bytes (caller's contract).
        let d = unsafe { message(data, len) }?;
        h.inner.update(d)?;
        Ok(())
    })
}

/// vecHash2L: ends the current component and starts the next one (a new hasher holds one
/// empty component). `BRWHASH_ERR_NOT_VECTOR` for other algorithms,
/// `BRWHASH_ERR_COMPONENT_COUNT` past 255 components.
///
/// # Safety
/// `h` must be NULL or a live hasher not used concurrently.
#[no_mangle]
pub unsafe extern "C" fn brwhash_hasher_next_component(h: *mut BrwhashHasher) -> c_int {
    guard(|| {
        // SAFETY: `h` is NULL or a live hasher not used concurrently (caller's contract).
        let h = unsafe { hasher_mut(h) }?;
        h.inner.next_component()?;
        Ok(())
    })
}

/// Writes the digest (for a MAC hasher: the tag) of everything absorbed so far to `out`
/// (`brwhash_digest_len` bytes; `out_len` may be larger). The hasher is not consumed: it can
/// go on absorbing.
///
/// # Safety
/// `h` must be NULL or a live hasher not being updated concurrently; `out` NULL or valid for
/// writing `out_len` bytes.
#[no_mangle]
pub unsafe extern "C" fn brwhash_hasher_finalize(
    h: *const BrwhashHasher,
    out: *mut u8,
    out_len: usize,
) -> c_int {
    guard(|| {
        // SAFETY: `h` is NULL or a live hasher not used concurrently (caller's contract).
        let h = unsafe { hasher_ref(h) }?;
        check_out(out, out_len, h.inner.algorithm())?;
        let d = h.inner.finalize();
        // SAFETY: `out` is NULL or valid for writing `out_len` bytes (caller's contract).
        Ok(unsafe { write_digest(&d, out, out_len) }?)
    })
}

/// Compares `expected` (`expected_len` bytes) with what `brwhash_hasher_finalize` would give,
/// in constant time: `BRWHASH_OK` or `BRWHASH_ERR_VERIFY` (also for a wrong length). For MAC
/// tags and Poly1305 tags.
///
/// # Safety
/// `h` as for `brwhash_hasher_finalize`; `expected` NULL or valid for reading `expected_len`
/// bytes.
#[no_mangle]
pub unsafe extern "C" fn brwhash_hasher_verify(
    h: *const BrwhashHasher,
    expected: *const u8,
    expected_len: usize,
) -> c_int {
    guard(|| {
        // SAFETY: `h` is NULL or a live hasher not used concurrently (caller's contract).
        let h = unsafe { hasher_ref(h) }?;
        // SAFETY: `expected` is NULL or valid for `expected_len` bytes (caller's contract).
        let e = unsafe { slice_from_raw(expected, expected_len) }?;
        if h.inner.verify(e) {
            Ok(())
        } else {
            Err(BRWHASH_ERR_VERIFY.into())
        }
    })
}

/// Starts a new message (or vector) under the same key and mode, forgetting the input
/// absorbed so far.
///
/// # Safety
/// `h` must be NULL or a live hasher not used concurrently.
#[no_mangle]
pub unsafe extern "C" fn brwhash_hasher_reset(h: *mut BrwhashHasher) -> c_int {
    guard(|| {
        // SAFETY: `h` is NULL or a live hasher not used concurrently (caller's contract).
        let h = unsafe { hasher_mut(h) }?;
        h.inner = h.shared.hasher();
        Ok(())
    })
}

/// An independent copy of `h` with the same state, stored in `*out` (NULL on failure); the
/// key is shared, not copied. Free both.
///
/// # Safety
/// `h` must be NULL or a live hasher not being updated concurrently; `out` NULL or valid for
/// writing a pointer.
#[no_mangle]
pub unsafe extern "C" fn brwhash_hasher_clone(
    h: *const BrwhashHasher,
    out: *mut *mut BrwhashHasher,
) -> c_int {
    let mut made = None;
    let rc = guard(|| {
        if out.is_null() {
            return Err(BRWHASH_ERR_NULL_POINTER.into());
        }
        // SAFETY: `h` is NULL or a live hasher not used concurrently (caller's contract).
        let h = unsafe { hasher_ref(h) }?;
        made = Some(Box::new(BrwhashHasher {
            inner: h.inner.clone(),
            shared: h.shared.clone(),
        }));
        Ok(())
    });
    if !out.is_null() {
        let ptr = made.map_or(std::ptr::null_mut(), Box::into_raw);
        // SAFETY: `out` is non-null and valid for writing a pointer by the contract.
        let _ = unsafe { write_out(out, ptr) };
    }
    rc
}

/// The canonical name of the hasher's algorithm (a static string), or NULL for a NULL `h`.
///
/// # Safety
/// `h` must be NULL or a live hasher.
#[no_mangle]
pub unsafe extern "C" fn brwhash_hasher_algorithm(h: *const BrwhashHasher) -> *const c_char {
    // SAFETY: `h` is NULL or a live hasher not used concurrently (caller's contract).
    match unsafe { hasher_ref(h) } {
        Ok(h) => brwhash_algorithm_name(h.inner.algorithm().index()),
        Err(_) => std::ptr::null(),
    }
}

/// The name of the backend computing the hasher (a static string), or NULL for a NULL `h`.
///
/// # Safety
/// `h` must be NULL or a live hasher.
#[no_mangle]
pub unsafe extern "C" fn brwhash_hasher_backend(h: *const BrwhashHasher) -> *const c_char {
    // SAFETY: `h` is NULL or a live hasher not used concurrently (caller's contract).
    match unsafe { hasher_ref(h) } {
        Ok(h) => static_backend_name(h.inner.backend()),
        Err(_) => std::ptr::null(),
    }
}

/// Frees a hasher (NULL is ignored). Its key material is wiped when no clone shares it.
///
/// # Safety
/// `h` must be NULL or a live hasher, not used afterwards (nor freed twice).
#[no_mangle]
pub unsafe extern "C" fn brwhash_hasher_free(h: *mut BrwhashHasher) {
    if h.is_null() {
        return;
    }
    // SAFETY: a live handle is the pointer of a `Box::into_raw` (new_hasher or
    // brwhash_hasher_clone) that the caller gives back once.
    let b = unsafe { Box::from_raw(h) };
    // Dropping zeroizes key material; a panic there must not unwind into C.
    let _ = catch_unwind(AssertUnwindSafe(move || drop(b)));
}
