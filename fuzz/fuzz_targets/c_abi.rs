//! The C ABI of `brwhash-ffi`, called directly through its rlib: fuzzed algorithm and
//! backend names (valid ones in any case, changed ones, raw bytes, NULL), key, message, tag
//! and output buffers of any length (also NULL, with zero and non-zero lengths), vectors, and
//! the streaming handles. Every return code must be `BRWHASH_OK` or one of the documented
//! error codes that applies to the arguments (never `BRWHASH_ERR_PANIC` or `_OTHER`), and
//! every output must equal the Rust API's, written to the first `digest_len` bytes of the
//! output buffer only.
//!
//! Input: operation byte (`% 4`: one-shot hash, MAC and verify, vector, streaming), the
//! algorithm name (`c_name`), the backend name (`backend_name`), the key (`buffer`: digest-
//! or MAC-mode length, any length, NULL), the
//! output buffer byte (`out_buffer`), a flags byte, a split-count byte and split points, a
//! tamper byte, and the message (`Input::message`) or, for the vector operation, the parts
//! (`parts`). The information functions run on every input.

#![no_main]

use std::ffi::{c_char, c_int, CStr, CString};
use std::ptr;

use brwhash::{Algorithm, Backend, Hasher, Key, Mac, MAX_COMPONENTS};
use brwhash_ffi::*;
use brwhash_fuzz::{algorithm, algorithms, as_slices, ffi_code, pieces, Input};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let op = input.u8() % 4;
    let alg_name = c_name(&mut input);
    let backend = backend_name(&mut input);
    let alg = parse_alg(&alg_name);
    // Digest-mode and MAC-mode key lengths, the one of the operation first.
    let (digest_key, mac_key) = match &alg {
        Ok(a) => (a.key_len(), a.mac_key_len().unwrap_or(32)),
        Err(_) => (16, 32),
    };
    let key = if op == 1 {
        buffer(&mut input, mac_key, digest_key)
    } else {
        buffer(&mut input, digest_key, mac_key)
    };
    let out_mode = input.u8();
    let digest_len = alg.as_ref().map_or(16, |a| a.digest_len());
    let out = out_buffer(out_mode, digest_len, input.u8());
    let flags = input.u8();
    let n_splits = input.u8() as usize % 8;
    let raw_splits: Vec<u16> = (0..n_splits).map(|_| input.u16()).collect();
    let tamper = input.u16() as usize;
    let args = Args {
        alg_name,
        alg,
        backend,
        key,
        out,
        flags,
        raw_splits,
        tamper,
    };
    info(&args);
    match op {
        0 => one_shot(&args, &input.message()),
        1 => mac(&args, &input.message()),
        2 => vector(&args, &mut input),
        _ => streaming(&args, &input.message()),
    }
});

/// The decoded choices of one input.
struct Args {
    alg_name: Option<CString>,
    alg: Result<Algorithm, c_int>,
    /// The backend name; `None`: a NULL pointer (the default choice).
    backend: Option<CString>,
    key: Buf,
    out: OutBuf,
    flags: u8,
    raw_splits: Vec<u16>,
    tamper: usize,
}

/// A C string as C would see the bytes: cut at the first NUL.
fn c_string(mut bytes: Vec<u8>) -> CString {
    if let Some(nul) = bytes.iter().position(|&b| b == 0) {
        bytes.truncate(nul);
    }
    CString::new(bytes).expect("no NUL left")
}

/// ASCII case flipped where `mask` has a 1 (bit i for byte i modulo 32).
fn recase(name: &str, mask: u32) -> Vec<u8> {
    name.bytes()
        .enumerate()
        .map(|(i, b)| {
            if mask >> (i % 32) & 1 == 1 && b.is_ascii_alphabetic() {
                b ^ 0x20
            } else {
                b
            }
        })
        .collect()
}

/// An algorithm name: NULL, a canonical name in a random case, a canonical name with one
/// byte changed or inserted, or raw bytes (up to 39).
fn c_name(input: &mut Input<'_>) -> Option<CString> {
    let mode = input.u8();
    match mode % 8 {
        0 => None,
        1..=4 => {
            let name = algorithm(input.u8()).to_string();
            Some(c_string(recase(&name, input.u32())))
        }
        5 => {
            let mut name = algorithm(input.u8()).to_string().into_bytes();
            let (pos, byte) = (input.u8() as usize % (name.len() + 1), input.u8());
            if mode & 0x80 == 0 && pos < name.len() {
                name[pos] = byte;
            } else {
                name.insert(pos, byte);
            }
            Some(c_string(name))
        }
        _ => {
            let n = input.u8() as usize % 40;
            Some(c_string(input.take(n).to_vec()))
        }
    }
}

/// A backend name: NULL (the default choice), a known name in a random case, or raw bytes.
fn backend_name(input: &mut Input<'_>) -> Option<CString> {
    let mode = input.u8();
    match mode % 4 {
        0 => None,
        1 | 2 => {
            let b = Backend::ALL[input.u8() as usize % Backend::ALL.len()];
            Some(c_string(recase(b.name(), input.u32())))
        }
        _ => {
            let n = input.u8() as usize % 12;
            Some(c_string(input.take(n).to_vec()))
        }
    }
}

/// The algorithm the ABI must see in `name`, or its error code.
fn parse_alg(name: &Option<CString>) -> Result<Algorithm, c_int> {
    let s = name.as_ref().ok_or(BRWHASH_ERR_NULL_POINTER)?;
    let s = s.to_str().map_err(|_| BRWHASH_ERR_UNKNOWN_ALGORITHM)?;
    s.parse().map_err(|e| ffi_code(&e))
}

/// The backend the ABI must see in `name` (`None`: the default choice), or its error code.
fn parse_backend(name: &Option<CString>) -> Result<Option<Backend>, c_int> {
    match name {
        None => Ok(None),
        Some(s) => {
            let s = s.to_str().map_err(|_| BRWHASH_ERR_UNKNOWN_BACKEND)?;
            s.parse().map(Some).map_err(|e| ffi_code(&e))
        }
    }
}

fn c_ptr(s: &Option<CString>) -> *const c_char {
    s.as_ref().map_or(ptr::null(), |c| c.as_ptr())
}

/// An input buffer: `len` bytes at `data`, or a NULL pointer with any `len`.
struct Buf {
    data: Vec<u8>,
    null: bool,
    len: usize,
}

impl Buf {
    fn new(data: Vec<u8>, null: bool, null_len: usize) -> Buf {
        let len = if null { null_len } else { data.len() };
        Buf { data, null, len }
    }

    fn ptr(&self) -> *const u8 {
        if self.null {
            ptr::null()
        } else {
            self.data.as_ptr()
        }
    }

    /// The bytes the ABI must read, or `BRWHASH_ERR_NULL_POINTER` (NULL with a length).
    fn slice(&self) -> Result<&[u8], c_int> {
        match (self.len, self.null) {
            (0, _) => Ok(&[]),
            (_, true) => Err(BRWHASH_ERR_NULL_POINTER),
            (n, false) => Ok(&self.data[..n]),
        }
    }
}

/// A key buffer: `expected` bytes (mode % 4 = 0), `other` bytes (1), a random length
/// (0..70, 2), or empty (3); a NULL pointer when bit 7 is set (with the length too when bit 6
/// is set).
fn buffer(input: &mut Input<'_>, expected: usize, other: usize) -> Buf {
    let mode = input.u8();
    let len = match mode % 4 {
        0 => expected,
        1 => other,
        2 => input.u8() as usize % 70,
        _ => 0,
    };
    let null = mode & 0x80 != 0 && (len == 0 || mode & 0x40 != 0);
    let data = if null { Vec::new() } else { input.bytes(len) };
    Buf::new(data, null, len)
}

const SENTINEL: u8 = 0xa5;

/// An output buffer filled with a sentinel: `digest_len` (mode % 4 < 2), 64 or `extra % 48`
/// bytes; NULL when bit 7 is set.
struct OutBuf {
    data: Vec<u8>,
    null: bool,
}

fn out_buffer(mode: u8, digest_len: usize, extra: u8) -> OutBuf {
    let len = match mode % 4 {
        0 | 1 => digest_len,
        2 => 64,
        _ => extra as usize % 48,
    };
    OutBuf {
        data: vec![SENTINEL; len],
        null: mode & 0x80 != 0,
    }
}

impl OutBuf {
    fn ptr(&mut self) -> *mut u8 {
        if self.null {
            ptr::null_mut()
        } else {
            self.data.as_mut_ptr()
        }
    }

    fn fresh(&self) -> OutBuf {
        OutBuf {
            data: vec![SENTINEL; self.data.len()],
            null: self.null,
        }
    }

    /// The ABI's output-buffer checks for `alg`.
    fn errors(&self, alg: &Result<Algorithm, c_int>, errs: &mut Vec<c_int>) {
        if self.null {
            errs.push(BRWHASH_ERR_NULL_POINTER);
        } else if let Ok(a) = alg {
            if self.data.len() < a.digest_len() {
                errs.push(BRWHASH_ERR_BUFFER_TOO_SMALL);
            }
        }
    }

    /// After success: the digest in front, the rest untouched.
    fn assert_holds(&self, want: &[u8], what: &str) {
        let n = want.len();
        assert_eq!(&self.data[..n], want, "{what}: output");
        assert!(
            self.data[n..].iter().all(|&b| b == SENTINEL),
            "{what}: wrote past the digest"
        );
    }
}

/// `rc` must be `BRWHASH_OK` when `errs` is empty, else one of `errs`. Returns whether it
/// succeeded.
fn expect(rc: c_int, errs: &[c_int], what: &str) -> bool {
    assert!(
        rc != BRWHASH_ERR_PANIC && rc != BRWHASH_ERR_OTHER,
        "{what}: returned {rc}"
    );
    if errs.is_empty() {
        assert_eq!(rc, BRWHASH_OK, "{what}: expected success");
        true
    } else {
        assert!(
            errs.contains(&rc),
            "{what}: returned {rc}, expected one of {errs:?}"
        );
        false
    }
}

/// Algorithm, backend (`None`: the default choice), key and message of a call.
type Call<'a> = (Algorithm, Option<Backend>, &'a [u8], &'a [u8]);

/// Error codes of the name and buffer arguments, and the parsed values when all are fine.
struct Parsed<'a> {
    errs: Vec<c_int>,
    ok: Option<Call<'a>>,
}

fn parse_args<'a>(args: &'a Args, backend: bool, msg: &'a Buf) -> Parsed<'a> {
    let mut errs = Vec::new();
    let b = if backend {
        parse_backend(&args.backend)
    } else {
        Ok(None)
    };
    let parts = (args.alg, b, args.key.slice(), msg.slice());
    let ok = match parts {
        (Ok(a), Ok(b), Ok(k), Ok(m)) => Some((a, b, k, m)),
        (a, b, k, m) => {
            errs.extend(a.err());
            errs.extend(b.err());
            errs.extend(k.err());
            errs.extend(m.err());
            None
        }
    };
    Parsed { errs, ok }
}

/// The message buffer: NULL for an empty message when flag bit 0 is set, NULL with the
/// message's length when bit 1 is set too.
fn message_buf(flags: u8, msg: &[u8]) -> Buf {
    let null = flags & 1 != 0 && (msg.is_empty() || flags & 2 != 0);
    Buf::new(
        if null { Vec::new() } else { msg.to_vec() },
        null,
        msg.len(),
    )
}

fn one_shot(args: &Args, msg: &[u8]) {
    let m = message_buf(args.flags, msg);
    // Flag bit 2: `brwhash_hash` (no backend argument) instead of `_with_backend`.
    let plain = args.flags & 4 != 0;
    let Parsed { mut errs, ok } = parse_args(args, !plain, &m);
    let mut out = args.out.fresh();
    out.errors(&args.alg, &mut errs);
    let want = ok.map(|(a, b, k, m)| match b {
        Some(b) => brwhash::hash_with_backend(a, b, k, m),
        None => brwhash::hash(a, k, m),
    });
    if let Some(Err(e)) = &want {
        errs.push(ffi_code(e));
    }
    let (out_ptr, out_len) = (out.ptr(), out.data.len());
    let rc = if plain {
        // SAFETY: the name is NULL or a NUL-terminated CString; the key and message pointers
        // are NULL or point to buffers of at least their lengths (NULL with a length is
        // checked before any read); `out` is NULL or `out_len` writable bytes.
        unsafe {
            brwhash_hash(
                c_ptr(&args.alg_name),
                args.key.ptr(),
                args.key.len,
                m.ptr(),
                m.len,
                out_ptr,
                out_len,
            )
        }
    } else {
        // SAFETY: as above; the backend name is NULL or a NUL-terminated CString.
        unsafe {
            brwhash_hash_with_backend(
                c_ptr(&args.alg_name),
                c_ptr(&args.backend),
                args.key.ptr(),
                args.key.len,
                m.ptr(),
                m.len,
                out_ptr,
                out_len,
            )
        }
    };
    if expect(rc, &errs, "brwhash_hash") {
        let d = want.expect("parsed").expect("no error");
        out.assert_holds(d.as_bytes(), "brwhash_hash");
    }
}

fn mac(args: &Args, msg: &[u8]) {
    let m = message_buf(args.flags, msg);
    let Parsed { mut errs, ok } = parse_args(args, false, &m);
    let mut out = args.out.fresh();
    let arg_errs = errs.clone();
    out.errors(&args.alg, &mut errs);
    let want = ok.map(|(a, _, k, m)| brwhash::mac(a, k, m));
    let mac_err = match &want {
        Some(Err(e)) => Some(ffi_code(e)),
        _ => None,
    };
    errs.extend(mac_err);
    let (out_ptr, out_len) = (out.ptr(), out.data.len());
    // SAFETY: the name is NULL or a NUL-terminated CString; key and message are NULL or
    // buffers of at least their lengths; `out` is NULL or `out_len` writable bytes.
    let rc = unsafe {
        brwhash_mac(
            c_ptr(&args.alg_name),
            args.key.ptr(),
            args.key.len,
            m.ptr(),
            m.len,
            out_ptr,
            out_len,
        )
    };
    if expect(rc, &errs, "brwhash_mac") {
        let t = want.as_ref().expect("parsed").as_ref().expect("no error");
        out.assert_holds(t.as_bytes(), "brwhash_mac");
    }
    // Verification of the Rust tag (a guessed one when there is none: then an argument
    // error must come first), and of a tampered one: one bit flipped, or cut short.
    let (tag, good_tag) = match &want {
        Some(Ok(t)) => (t.as_bytes().to_vec(), true),
        _ => (vec![0; 16], false),
    };
    let mut wrong = tag.clone();
    if args.tamper & 1 == 0 {
        let i = (args.tamper >> 1) % tag.len();
        wrong[i] ^= 1 << (args.tamper >> 8 & 7);
    } else {
        wrong.truncate((args.tamper >> 1) % tag.len());
    }
    for (t, genuine) in [(&tag, good_tag), (&wrong, false)] {
        let mut errs = arg_errs.clone();
        errs.extend(mac_err);
        if errs.is_empty() && !genuine {
            errs.push(BRWHASH_ERR_VERIFY);
        }
        // SAFETY: as for brwhash_mac; the tag is a live Vec of `t.len()` bytes.
        let rc = unsafe {
            brwhash_mac_verify(
                c_ptr(&args.alg_name),
                args.key.ptr(),
                args.key.len,
                m.ptr(),
                m.len,
                t.as_ptr(),
                t.len(),
            )
        };
        expect(rc, &errs, "brwhash_mac_verify");
    }
}

/// Vector parts: a count byte (0..=7 below 0xf0, else 250..=265), a two-byte length per
/// part (`% 512`), a NULL-pattern u32 (bit i: part i's pointer is NULL), and the rest of the
/// input stretched over the parts. Flag bit 3: NULL arrays.
fn vector(args: &Args, input: &mut Input<'_>) {
    let b = input.u8();
    let count = if b < 0xf0 {
        (b % 8) as usize
    } else {
        250 + (b - 0xf0) as usize
    };
    let lens: Vec<usize> = (0..count).map(|_| input.u16() as usize % 512).collect();
    let nulls = input.u32();
    let pool = brwhash_fuzz::expand(input.rest(), lens.iter().sum());
    let mut parts = Vec::new();
    let mut at = 0;
    for &n in &lens {
        parts.push(pool[at..at + n].to_vec());
        at += n;
    }
    let null_arrays = args.flags & 8 != 0;
    let ptrs: Vec<*const u8> = parts
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if nulls >> (i % 32) & 1 == 1 {
                ptr::null()
            } else {
                p.as_ptr()
            }
        })
        .collect();
    // What the ABI must read: the parts, or the NULL error of an array or a part.
    let mut errs: Vec<c_int> = Vec::new();
    errs.extend(args.alg.err());
    errs.extend(args.key.slice().err());
    if count == 0 || count > MAX_COMPONENTS {
        errs.push(BRWHASH_ERR_COMPONENT_COUNT);
    } else if null_arrays || ptrs.iter().zip(&lens).any(|(p, &n)| p.is_null() && n > 0) {
        errs.push(BRWHASH_ERR_NULL_POINTER);
    }
    let slices = as_slices(&parts);
    let (parts_ptr, lens_ptr) = if null_arrays {
        (ptr::null(), ptr::null())
    } else {
        (ptrs.as_ptr(), lens.as_ptr())
    };
    let mut rust_errs = Vec::new();
    let (digest, tag) = match (&args.alg, args.key.slice()) {
        (Ok(a), Ok(k)) if (1..=MAX_COMPONENTS).contains(&count) => {
            let not_vector = (!a.is_vector()).then_some(BRWHASH_ERR_NOT_VECTOR);
            let d = brwhash::hash_vector(*a, k, &slices);
            let t = Mac::new(*a, k).and_then(|m| m.tag_vector(&slices));
            rust_errs.extend(not_vector);
            rust_errs.extend(d.as_ref().err().map(ffi_code));
            (Some(d), Some(t))
        }
        // The ABI must report an argument error before it hashes.
        _ => (None, None),
    };
    let tag_err = tag.as_ref().and_then(|t| t.as_ref().err()).map(ffi_code);
    let want_digest = digest.as_ref().and_then(|d| d.as_ref().ok());
    let want_tag = tag.as_ref().and_then(|t| t.as_ref().ok());
    // One call of an entry point that writes a digest or tag: its code is one of `errs` or
    // the output buffer's, and on success the buffer holds `want` and nothing more.
    let check = |what: &str,
                 mut errs: Vec<c_int>,
                 want: Option<&[u8]>,
                 call: &dyn Fn(*mut u8, usize) -> c_int| {
        let mut out = args.out.fresh();
        out.errors(&args.alg, &mut errs);
        let rc = call(out.ptr(), out.data.len());
        if expect(rc, &errs, what) {
            out.assert_holds(want.expect("no error"), what);
        }
    };
    let mut hash_errs = errs.clone();
    hash_errs.extend(&rust_errs);
    let mut mac_errs = errs.clone();
    mac_errs.extend(rust_errs.iter().filter(|&&e| e == BRWHASH_ERR_NOT_VECTOR));
    mac_errs.extend(tag_err);
    // 0: rayon's pool, 1: the calling thread, 2: a kept pool of two (vectors here are far
    // below the 1 MiB from which they are split: this checks the arguments and the result).
    let threads = args.tamper % 3;
    let (name, key, key_len) = (c_ptr(&args.alg_name), args.key.ptr(), args.key.len);
    // SAFETY (every call below): the name is NULL or a CString; the key is NULL or a buffer
    // of at least its length; `parts_ptr` / `lens_ptr` are NULL or `count`-element arrays
    // whose non-NULL entries point to parts of the given lengths; `out` is NULL or `out_len`
    // bytes (`check` passes a fresh buffer's pointer and length).
    check(
        "brwhash_hash_vector",
        hash_errs.clone(),
        want_digest.map(|d| d.as_bytes()),
        &|o, n| unsafe {
            brwhash_hash_vector(name, key, key_len, parts_ptr, lens_ptr, count, o, n)
        },
    );
    check(
        "brwhash_hash_vector_parallel",
        hash_errs,
        want_digest.map(|d| d.as_bytes()),
        &|o, n| unsafe {
            brwhash_hash_vector_parallel(
                name, key, key_len, parts_ptr, lens_ptr, count, threads, o, n,
            )
        },
    );
    check(
        "brwhash_mac_vector",
        mac_errs.clone(),
        want_tag.map(|t| t.as_bytes()),
        &|o, n| unsafe { brwhash_mac_vector(name, key, key_len, parts_ptr, lens_ptr, count, o, n) },
    );
    check(
        "brwhash_mac_vector_parallel",
        mac_errs,
        want_tag.map(|t| t.as_bytes()),
        &|o, n| unsafe {
            brwhash_mac_vector_parallel(
                name, key, key_len, parts_ptr, lens_ptr, count, threads, o, n,
            )
        },
    );
    let mut verify_errs = errs.clone();
    verify_errs.extend(rust_errs.iter().filter(|&&e| e == BRWHASH_ERR_NOT_VECTOR));
    verify_errs.extend(tag_err);
    let good = verify_errs.is_empty();
    let good_tag = match &tag {
        Some(Ok(t)) => t.as_bytes().to_vec(),
        _ => vec![0; 16],
    };
    let mut wrong = good_tag.clone();
    wrong[args.tamper % good_tag.len()] ^= 0x80;
    for (t, genuine) in [(&good_tag, good), (&wrong, false)] {
        let mut e = verify_errs.clone();
        if e.is_empty() && !genuine {
            e.push(BRWHASH_ERR_VERIFY);
        }
        // SAFETY: as for brwhash_hash_vector; the tag is a live Vec of `t.len()` bytes.
        let rc = unsafe {
            brwhash_mac_verify_vector(
                c_ptr(&args.alg_name),
                args.key.ptr(),
                args.key.len,
                parts_ptr,
                lens_ptr,
                count,
                t.as_ptr(),
                t.len(),
            )
        };
        expect(rc, &e, "brwhash_mac_verify_vector");
    }
}

/// Frees a handle when dropped (also when an assertion fails).
struct Handle(*mut BrwhashHasher);

impl Drop for Handle {
    fn drop(&mut self) {
        // SAFETY: the pointer is NULL or a live hasher of this library, freed only here.
        unsafe { brwhash_hasher_free(self.0) };
    }
}

fn finalize_ok(h: &Handle, len: usize, what: &str) -> Vec<u8> {
    let mut out = vec![SENTINEL; 64];
    // SAFETY: `h` is a live hasher; `out` has 64 writable bytes.
    let rc = unsafe { brwhash_hasher_finalize(h.0, out.as_mut_ptr(), out.len()) };
    assert_eq!(rc, BRWHASH_OK, "{what}: finalize");
    assert!(
        out[len..].iter().all(|&b| b == SENTINEL),
        "{what}: wrote past the digest"
    );
    out.truncate(len);
    out
}

fn update_ok(h: &Handle, data: &[u8], what: &str) {
    // SAFETY: `h` is a live hasher; `data` is a live slice.
    let rc = unsafe { brwhash_hasher_update(h.0, data.as_ptr(), data.len()) };
    assert_eq!(rc, BRWHASH_OK, "{what}: update of {} bytes", data.len());
}

fn streaming(args: &Args, msg: &[u8]) {
    // Flag bits 4, 5: MAC mode, explicit backend; bit 6: a NULL handle pointer.
    let mac_mode = args.flags & 0x10 != 0;
    let with_backend = args.flags & 0x20 != 0;
    let null_out = args.flags & 0x40 != 0;
    let mut errs: Vec<c_int> = Vec::new();
    let b = if with_backend {
        parse_backend(&args.backend)
    } else {
        Ok(None)
    };
    errs.extend(args.alg.err());
    errs.extend(b.err());
    errs.extend(args.key.slice().err());
    if null_out {
        errs.push(BRWHASH_ERR_NULL_POINTER);
    }
    // The Rust twin: a key or MAC on the same backend.
    enum Twin {
        Key(Key),
        Mac(Mac),
    }
    let twin = match (&args.alg, b, args.key.slice()) {
        (Ok(a), Ok(b), Ok(k)) => {
            let made = match (mac_mode, b) {
                (false, Some(b)) => Key::with_backend(*a, k, b).map(Twin::Key),
                (false, None) => Key::new(*a, k).map(Twin::Key),
                (true, Some(b)) => Mac::with_backend(*a, k, b).map(Twin::Mac),
                (true, None) => Mac::new(*a, k).map(Twin::Mac),
            };
            match made {
                Ok(t) => Some(t),
                Err(e) => {
                    errs.push(ffi_code(&e));
                    None
                }
            }
        }
        _ => None,
    };
    let mut raw: *mut BrwhashHasher = ptr::null_mut();
    let out_ptr: *mut *mut BrwhashHasher = if null_out { ptr::null_mut() } else { &mut raw };
    let (name, be) = (c_ptr(&args.alg_name), c_ptr(&args.backend));
    let (key, key_len) = (args.key.ptr(), args.key.len);
    // SAFETY: names are NULL or CStrings; the key is NULL or a buffer of at least `key_len`
    // bytes; `out_ptr` is NULL or points to a local pointer.
    let rc = unsafe {
        match (mac_mode, with_backend) {
            (false, false) => brwhash_hasher_new(name, key, key_len, out_ptr),
            (true, false) => brwhash_hasher_new_mac(name, key, key_len, out_ptr),
            (false, true) => brwhash_hasher_new_with_backend(name, be, key, key_len, out_ptr),
            (true, true) => brwhash_hasher_new_mac_with_backend(name, be, key, key_len, out_ptr),
        }
    };
    let h = Handle(raw);
    if !expect(rc, &errs, "brwhash_hasher_new") {
        assert!(h.0.is_null(), "a failed brwhash_hasher_new left a handle");
        return;
    }
    assert!(!h.0.is_null(), "brwhash_hasher_new: no handle");
    let twin = twin.expect("made");
    let key_ref = match &twin {
        Twin::Key(k) => k,
        Twin::Mac(m) => m.key(),
    };
    let alg = key_ref.algorithm();
    let what = format!("{alg} mac={mac_mode} on {}", key_ref.backend());
    let rust_hasher = || match &twin {
        Twin::Key(k) => Hasher::new(k),
        Twin::Mac(m) => m.hasher(),
    };
    // Names of the handle.
    // SAFETY: `h` is a live hasher; the returned pointers are static C strings or NULL.
    let (alg_ptr, be_ptr) = unsafe { (brwhash_hasher_algorithm(h.0), brwhash_hasher_backend(h.0)) };
    assert!(
        !alg_ptr.is_null() && !be_ptr.is_null(),
        "{what}: handle names"
    );
    // SAFETY: non-NULL, static NUL-terminated strings of the library.
    let (an, bn) = unsafe { (CStr::from_ptr(alg_ptr), CStr::from_ptr(be_ptr)) };
    assert_eq!(
        an.to_str().ok(),
        Some(alg.to_string().as_str()),
        "{what}: algorithm name"
    );
    assert_eq!(
        bn.to_str().ok(),
        Some(key_ref.backend().name()),
        "{what}: backend name"
    );
    // The steps: pieces of the message, with component breaks (vecHash2L) at flag bit 7.
    let mut points: Vec<usize> = args
        .raw_splits
        .iter()
        .map(|&r| r as usize % (msg.len() + 1))
        .collect();
    points.sort_unstable();
    let steps = pieces(msg, &points);
    let breaks = alg.is_vector() && args.flags & 0x80 != 0;
    let clone_at = args.tamper % (steps.len() + 1);
    let mut rust = rust_hasher();
    let mut fork: Option<(Handle, usize)> = None;
    let mut consumed = 0;
    for (i, piece) in steps.iter().enumerate() {
        if i == clone_at {
            let mut c: *mut BrwhashHasher = ptr::null_mut();
            // SAFETY: `h` is a live hasher; `c` is a local pointer.
            let rc = unsafe { brwhash_hasher_clone(h.0, &mut c) };
            assert_eq!(rc, BRWHASH_OK, "{what}: clone");
            fork = Some((Handle(c), i));
            let d = finalize_ok(&h, alg.digest_len(), &what);
            assert_eq!(
                d,
                rust.finalize().as_bytes(),
                "{what}: finalize after {consumed} bytes"
            );
        }
        if i > 0 && breaks {
            // SAFETY: `h` is a live hasher.
            let rc = unsafe { brwhash_hasher_next_component(h.0) };
            assert_eq!(rc, BRWHASH_OK, "{what}: next_component");
            rust.next_component().expect("a few components");
        }
        update_ok(&h, piece, &what);
        rust.update(piece).expect("short");
        consumed += piece.len();
    }
    // A NULL update of length 0 is fine; of a non-zero length, an error that changes nothing.
    // SAFETY: `h` is a live hasher; NULL data is checked before any read.
    let rc = unsafe { brwhash_hasher_update(h.0, ptr::null(), 0) };
    assert_eq!(rc, BRWHASH_OK, "{what}: NULL update of 0 bytes");
    // SAFETY: as above.
    let rc = unsafe { brwhash_hasher_update(h.0, ptr::null(), 1 + args.tamper % 100) };
    assert_eq!(
        rc, BRWHASH_ERR_NULL_POINTER,
        "{what}: NULL update of some bytes"
    );
    let want = rust.finalize();
    let got = finalize_ok(&h, alg.digest_len(), &what);
    assert_eq!(
        got,
        want.as_bytes(),
        "{what}: streamed over {} pieces",
        steps.len()
    );
    if !alg.is_vector() {
        let one_shot = match &twin {
            Twin::Key(k) => k.hash(msg),
            Twin::Mac(m) => m.tag(msg),
        };
        assert_eq!(got, one_shot.as_bytes(), "{what}: streamed vs one shot");
        // SAFETY: `h` is a live hasher.
        let rc = unsafe { brwhash_hasher_next_component(h.0) };
        assert_eq!(rc, BRWHASH_ERR_NOT_VECTOR, "{what}: next_component");
    }
    // Output buffer checks, verification.
    let mut small = vec![SENTINEL; alg.digest_len() - 1];
    // SAFETY: `h` is a live hasher; `small` has `small.len()` writable bytes.
    let rc = unsafe { brwhash_hasher_finalize(h.0, small.as_mut_ptr(), small.len()) };
    assert_eq!(
        rc, BRWHASH_ERR_BUFFER_TOO_SMALL,
        "{what}: short output buffer"
    );
    // SAFETY: `h` is a live hasher; a NULL output is checked.
    let rc = unsafe { brwhash_hasher_finalize(h.0, ptr::null_mut(), 64) };
    assert_eq!(rc, BRWHASH_ERR_NULL_POINTER, "{what}: NULL output buffer");
    let mut wrong = got.clone();
    let at = args.tamper % wrong.len();
    wrong[at] ^= 1 << (args.flags & 7);
    for (t, code) in [
        (&got[..], BRWHASH_OK),
        (&wrong[..], BRWHASH_ERR_VERIFY),
        (&got[..got.len() - 1], BRWHASH_ERR_VERIFY),
    ] {
        // SAFETY: `h` is a live hasher; `t` is a live slice.
        let rc = unsafe { brwhash_hasher_verify(h.0, t.as_ptr(), t.len()) };
        assert_eq!(rc, code, "{what}: verify");
    }
    // The clone goes its own way: the rest of the input, then the same digest.
    if let Some((c, from)) = fork {
        for (i, piece) in steps.iter().enumerate().skip(from) {
            if i > 0 && breaks {
                // SAFETY: `c` is a live hasher.
                let rc = unsafe { brwhash_hasher_next_component(c.0) };
                assert_eq!(rc, BRWHASH_OK, "{what}: clone next_component");
            }
            update_ok(&c, piece, &what);
        }
        assert_eq!(
            finalize_ok(&c, alg.digest_len(), &what),
            got,
            "{what}: clone at {from}"
        );
    }
    // Reset: a new message under the same key.
    // SAFETY: `h` is a live hasher.
    let rc = unsafe { brwhash_hasher_reset(h.0) };
    assert_eq!(rc, BRWHASH_OK, "{what}: reset");
    let fresh = rust_hasher().finalize();
    assert_eq!(
        finalize_ok(&h, alg.digest_len(), &what),
        fresh.as_bytes(),
        "{what}: reset"
    );
    if !breaks {
        update_ok(&h, msg, &what);
        assert_eq!(
            finalize_ok(&h, alg.digest_len(), &what),
            got,
            "{what}: after reset"
        );
    }
}

/// The information functions, with this input's names and numbers.
fn info(args: &Args) {
    let name = c_ptr(&args.alg_name);
    let mut n: usize = usize::MAX;
    let mut flag: c_int = -100;
    // SAFETY: `name` is NULL or a CString; `n` and `flag` are live locals.
    let (rk, rm, rv) = unsafe {
        (
            brwhash_key_len(name, &mut n),
            brwhash_mac_key_len(name, &mut n),
            brwhash_is_vector(name, &mut flag),
        )
    };
    match &args.alg {
        Ok(a) => {
            assert_eq!(rk, BRWHASH_OK, "{a}: key_len");
            assert_eq!(rv, BRWHASH_OK, "{a}: is_vector");
            assert_eq!(flag, c_int::from(a.is_vector()), "{a}: is_vector");
            match a.mac_key_len() {
                Some(m) => assert_eq!((rm, n), (BRWHASH_OK, m), "{a}: mac_key_len"),
                None => assert_eq!(rm, BRWHASH_ERR_NO_MAC_MODE, "{a}: mac_key_len"),
            }
            // SAFETY: `name` is a CString; a NULL output is checked.
            let rc = unsafe { brwhash_key_len(name, ptr::null_mut()) };
            assert_eq!(rc, BRWHASH_ERR_NULL_POINTER, "{a}: key_len into NULL");
            let mut k = 0;
            // SAFETY: as above, with a live output.
            let rc = unsafe { brwhash_key_len(name, &mut k) };
            assert_eq!((rc, k), (BRWHASH_OK, a.key_len()), "{a}: key_len");
        }
        Err(e) => assert_eq!((rk, rm, rv), (*e, *e, *e), "errors of a bad name"),
    }
    // Backend check against the Rust answer.
    // SAFETY: both names are NULL or CStrings.
    let rc = unsafe { brwhash_backend_check(name, c_ptr(&args.backend)) };
    let mut errs = Vec::new();
    errs.extend(args.alg.err());
    match parse_backend(&args.backend) {
        Ok(None) => errs.push(BRWHASH_ERR_NULL_POINTER),
        Ok(Some(b)) => {
            if let Ok(a) = args.alg {
                errs.extend(b.check(a).err().map(|e| ffi_code(&e)));
            }
        }
        Err(e) => errs.push(e),
    }
    expect(rc, &errs, "brwhash_backend_check");
    // Static strings for any index or code.
    let idx = args.tamper;
    let p = brwhash_algorithm_name(idx);
    assert_eq!(brwhash_algorithm_count(), algorithms().len());
    if idx < algorithms().len() {
        // SAFETY: a non-NULL result is a static NUL-terminated string.
        let s = unsafe { CStr::from_ptr(p) };
        assert_eq!(
            s.to_str().ok(),
            Some(algorithms()[idx].to_string().as_str())
        );
    } else {
        assert!(p.is_null(), "algorithm_name({idx})");
    }
    let bi = idx % 10;
    let bp = brwhash_backend_name(bi);
    assert_eq!(brwhash_backend_count(), Backend::ALL.len());
    if bi < Backend::ALL.len() {
        // SAFETY: a non-NULL result is a static NUL-terminated string.
        let s = unsafe { CStr::from_ptr(bp) };
        assert_eq!(s.to_str().ok(), Some(Backend::ALL[bi].name()));
    } else {
        assert!(bp.is_null(), "backend_name({bi})");
    }
    let code = if args.flags & 1 == 0 {
        -((args.tamper % 15) as c_int)
    } else {
        (args.tamper as u32).wrapping_mul(0x9e37_79b9) as c_int >> (args.flags % 32)
    };
    let e = brwhash_strerror(code);
    assert!(!e.is_null(), "strerror({code})");
    // SAFETY: never NULL: a static NUL-terminated string.
    assert!(!unsafe { CStr::from_ptr(e) }.to_bytes().is_empty());
    // SAFETY: the version is a static NUL-terminated string.
    assert!(!unsafe { CStr::from_ptr(brwhash_version()) }
        .to_bytes()
        .is_empty());
}
