//! SPEC.md section 8 limits through the C ABI: a message (or vecHash2L component) length past
//! 2^61 - 1 bytes is `BRWHASH_ERR_MESSAGE_TOO_LONG` before anything is read (a corrupt length
//! must not be hashed modulo anything, nor read), a hasher refusing such an update keeps its
//! state, and component counts outside 1..=255 are `BRWHASH_ERR_COMPONENT_COUNT`.
//!
//! The data pointers below are valid for a few bytes only: the lengths are checked before the
//! pointer is turned into a slice, which is what these tests pin down.

use std::ffi::CStr;
use std::ptr;

use brwhash_ffi::*;

const MAX: u64 = (1 << 61) - 1;

/// Lengths past the limit (as `usize`, 64-bit targets): the first one, one whose bit count
/// 8N wraps to 8, one whose low 32 bits are 17, and the largest.
fn too_long() -> Vec<usize> {
    [MAX + 1, (1 << 61) + 1, (1 << 62) + 17, u64::MAX]
        .into_iter()
        .map(|n| usize::try_from(n).expect("a 64-bit target"))
        .collect()
}

#[test]
fn the_limit_is_the_library_s() {
    assert_eq!(brwhash::MAX_MESSAGE_BYTES, MAX);
    let text = unsafe { CStr::from_ptr(brwhash_strerror(BRWHASH_ERR_MESSAGE_TOO_LONG)) };
    assert!(text.to_str().unwrap().contains("2^61"), "{text:?}");
}

#[test]
fn one_shot_calls_reject_lengths_past_the_limit() {
    let msg = [0x61u8; 8];
    let mut out = [0u8; 32];
    for (alg, key_len) in [
        (c"Poly1305", 32),
        (c"4-Hash1271", 16),
        (c"4-decBRWHash1305", 16),
        (c"Hash2L256", 32),
        (c"vecHash2L128", 16),
    ] {
        let key = vec![7u8; key_len];
        let mac_key = [9u8; 64];
        for n in too_long() {
            let rc = unsafe {
                brwhash_hash(
                    alg.as_ptr(),
                    key.as_ptr(),
                    key.len(),
                    msg.as_ptr(),
                    n,
                    out.as_mut_ptr(),
                    out.len(),
                )
            };
            assert_eq!(
                rc, BRWHASH_ERR_MESSAGE_TOO_LONG,
                "brwhash_hash {alg:?} n={n}"
            );
            let rc = unsafe {
                brwhash_hash_with_backend(
                    alg.as_ptr(),
                    c"portable".as_ptr(),
                    key.as_ptr(),
                    key.len(),
                    msg.as_ptr(),
                    n,
                    out.as_mut_ptr(),
                    out.len(),
                )
            };
            assert_eq!(
                rc, BRWHASH_ERR_MESSAGE_TOO_LONG,
                "with_backend {alg:?} n={n}"
            );
            for threads in [0, 1, 2] {
                let rc = unsafe {
                    brwhash_hash_parallel(
                        alg.as_ptr(),
                        ptr::null(),
                        key.as_ptr(),
                        key.len(),
                        msg.as_ptr(),
                        n,
                        threads,
                        out.as_mut_ptr(),
                        out.len(),
                    )
                };
                assert_eq!(rc, BRWHASH_ERR_MESSAGE_TOO_LONG, "parallel {alg:?} n={n}");
            }
            if alg != c"Poly1305" {
                let mut mac_len = 0usize;
                assert_eq!(
                    unsafe { brwhash_mac_key_len(alg.as_ptr(), &mut mac_len) },
                    BRWHASH_OK
                );
                let rc = unsafe {
                    brwhash_mac(
                        alg.as_ptr(),
                        mac_key.as_ptr(),
                        mac_len,
                        msg.as_ptr(),
                        n,
                        out.as_mut_ptr(),
                        out.len(),
                    )
                };
                assert_eq!(
                    rc, BRWHASH_ERR_MESSAGE_TOO_LONG,
                    "brwhash_mac {alg:?} n={n}"
                );
                let rc = unsafe {
                    brwhash_mac_verify(
                        alg.as_ptr(),
                        mac_key.as_ptr(),
                        mac_len,
                        msg.as_ptr(),
                        n,
                        out.as_ptr(),
                        16,
                    )
                };
                assert_eq!(rc, BRWHASH_ERR_MESSAGE_TOO_LONG, "mac_verify {alg:?} n={n}");
            }
        }
    }
}

#[test]
fn vector_components_past_the_limit_and_counts_outside_1_to_255() {
    let alg = c"vecHash2L128";
    let key = [3u8; 16];
    let data = [0x62u8; 4];
    let mut out = [0u8; 16];
    let hash = |parts: &[*const u8], lens: &[usize], out: &mut [u8; 16]| unsafe {
        brwhash_hash_vector(
            alg.as_ptr(),
            key.as_ptr(),
            key.len(),
            parts.as_ptr(),
            lens.as_ptr(),
            parts.len(),
            out.as_mut_ptr(),
            out.len(),
        )
    };
    for n in too_long() {
        let parts = [data.as_ptr(), data.as_ptr(), data.as_ptr()];
        assert_eq!(
            hash(&parts, &[1, n, 2], &mut out),
            BRWHASH_ERR_MESSAGE_TOO_LONG,
            "n={n}"
        );
    }
    let parts = vec![data.as_ptr(); 256];
    let lens = vec![1usize; 256];
    assert_eq!(
        hash(&parts, &lens, &mut out),
        BRWHASH_ERR_COMPONENT_COUNT,
        "256 components"
    );
    assert_eq!(hash(&[], &[], &mut out), BRWHASH_ERR_COMPONENT_COUNT);
    assert_eq!(hash(&parts[..255], &lens[..255], &mut out), BRWHASH_OK);
    let want = brwhash::hash_vector(
        brwhash::Algorithm::VECHASH2L128,
        &key,
        &vec![&data[..1]; 255],
    )
    .unwrap();
    assert_eq!(&out[..], want.as_bytes());
}

#[test]
fn a_refused_update_leaves_the_hasher_as_it_was() {
    for (alg, key_len, digest_len) in [
        (c"Poly1305", 32usize, 16usize),
        (c"BRWHash1271", 16, 16),
        (c"8-decBRWHash1305", 16, 16),
        (c"Hash2L256", 32, 32),
        (c"vecHash2L128", 16, 16),
    ] {
        let key = vec![5u8; key_len];
        let mut h: *mut BrwhashHasher = ptr::null_mut();
        assert_eq!(
            unsafe { brwhash_hasher_new(alg.as_ptr(), key.as_ptr(), key.len(), &mut h) },
            BRWHASH_OK
        );
        let data = b"hello, limits";
        assert_eq!(
            unsafe { brwhash_hasher_update(h, data.as_ptr(), 6) },
            BRWHASH_OK
        );
        for n in too_long() {
            assert_eq!(
                unsafe { brwhash_hasher_update(h, data.as_ptr(), n) },
                BRWHASH_ERR_MESSAGE_TOO_LONG,
                "{alg:?} n={n}"
            );
        }
        assert_eq!(
            unsafe { brwhash_hasher_update(h, data[6..].as_ptr(), data.len() - 6) },
            BRWHASH_OK
        );
        let mut got = [0u8; 32];
        assert_eq!(
            unsafe { brwhash_hasher_finalize(h, got.as_mut_ptr(), got.len()) },
            BRWHASH_OK
        );
        let mut want = [0u8; 32];
        assert_eq!(
            unsafe {
                brwhash_hash(
                    alg.as_ptr(),
                    key.as_ptr(),
                    key.len(),
                    data.as_ptr(),
                    data.len(),
                    want.as_mut_ptr(),
                    want.len(),
                )
            },
            BRWHASH_OK
        );
        assert_eq!(got[..digest_len], want[..digest_len], "{alg:?}");
        unsafe { brwhash_hasher_free(h) };
    }
}
