//! `brwhash_hash_parallel` / `brwhash_mac_parallel` give the sequential result for every
//! thread count, and report errors like the other entry points.

use brwhash::{Algorithm, Key, Mac, PARALLEL_THRESHOLD};
use brwhash_ffi::*;

fn message(n: usize) -> Vec<u8> {
    (0..n)
        .map(|i| (i.wrapping_mul(0x9e37) >> 5) as u8)
        .collect()
}

#[test]
fn parallel_entry_points_match_the_library() {
    let msg = message(3 * PARALLEL_THRESHOLD + 99);
    for name in [
        c"Poly1305",
        c"4-decBRWHash1305",
        c"Hash2L256",
        c"vecHash2L128",
    ] {
        let alg: Algorithm = name.to_str().unwrap().parse().unwrap();
        let key: Vec<u8> = (0..alg.key_len() as u8).map(|b| b ^ 0x5c).collect();
        let want = Key::new(alg, &key).unwrap().hash(&msg);
        for threads in [0, 1, 2, 3] {
            let mut out = [0u8; 32];
            // SAFETY: valid C strings and buffers of the given lengths.
            let rc = unsafe {
                brwhash_hash_parallel(
                    name.as_ptr(),
                    std::ptr::null(),
                    key.as_ptr(),
                    key.len(),
                    msg.as_ptr(),
                    msg.len(),
                    threads,
                    out.as_mut_ptr(),
                    out.len(),
                )
            };
            assert_eq!(rc, BRWHASH_OK, "{alg} threads={threads}");
            assert_eq!(&out[..alg.digest_len()], want.as_bytes(), "{alg} {threads}");
        }
        let Some(n) = alg.mac_key_len() else { continue };
        let mkey: Vec<u8> = (0..n as u8).collect();
        let tag = Mac::new(alg, &mkey).unwrap().tag(&msg);
        for threads in [0, 1, 2] {
            let mut out = [0u8; 32];
            // SAFETY: as above.
            let rc = unsafe {
                brwhash_mac_parallel(
                    name.as_ptr(),
                    mkey.as_ptr(),
                    mkey.len(),
                    msg.as_ptr(),
                    msg.len(),
                    threads,
                    out.as_mut_ptr(),
                    out.len(),
                )
            };
            assert_eq!(rc, BRWHASH_OK, "{alg} mac threads={threads}");
            assert_eq!(
                &out[..alg.digest_len()],
                tag.as_bytes(),
                "{alg} mac {threads}"
            );
        }
    }
}

#[test]
fn parallel_entry_points_report_errors() {
    let key = [1u8; 16];
    let mut out = [0u8; 16];
    // SAFETY: valid C strings and buffers; NULL only where the contract allows it.
    unsafe {
        let bad_key = brwhash_hash_parallel(
            c"Poly1305".as_ptr(),
            std::ptr::null(),
            key.as_ptr(),
            16,
            std::ptr::null(),
            0,
            2,
            out.as_mut_ptr(),
            16,
        );
        assert_eq!(bad_key, BRWHASH_ERR_KEY_LENGTH);
        let bogus = brwhash_hash_parallel(
            c"polyHash1305".as_ptr(),
            c"bogus".as_ptr(),
            key.as_ptr(),
            16,
            std::ptr::null(),
            0,
            2,
            out.as_mut_ptr(),
            16,
        );
        assert_eq!(bogus, BRWHASH_ERR_UNKNOWN_BACKEND);
        let small = brwhash_mac_parallel(
            c"polyHash1305".as_ptr(),
            [0u8; 32].as_ptr(),
            32,
            std::ptr::null(),
            0,
            2,
            out.as_mut_ptr(),
            15,
        );
        assert_eq!(small, BRWHASH_ERR_BUFFER_TOO_SMALL);
        let no_mac = brwhash_mac_parallel(
            c"Poly1305".as_ptr(),
            [0u8; 32].as_ptr(),
            32,
            std::ptr::null(),
            0,
            0,
            out.as_mut_ptr(),
            16,
        );
        assert_eq!(no_mac, BRWHASH_ERR_NO_MAC_MODE);
    }
}

/// `brwhash_hash_vector_parallel` / `brwhash_mac_vector_parallel`: the library's sequential
/// vector digest and tag for every thread count, and the vector errors.
#[test]
fn vector_entry_points_match_the_library() {
    let big = message(PARALLEL_THRESHOLD + 4099);
    let parts: [&[u8]; 4] = [b"head", &big, b"", &big[..77]];
    let ptrs: Vec<*const u8> = parts.iter().map(|p| p.as_ptr()).collect();
    let lens: Vec<usize> = parts.iter().map(|p| p.len()).collect();
    for name in [c"vecHash2L128", c"vecHash2L256"] {
        let alg: Algorithm = name.to_str().unwrap().parse().unwrap();
        let key: Vec<u8> = (0..alg.key_len() as u8).map(|b| b ^ 0x3a).collect();
        let want = Key::new(alg, &key).unwrap().hash_vector(&parts).unwrap();
        let mkey: Vec<u8> = (0..alg.mac_key_len().unwrap() as u8).collect();
        let tag = Mac::new(alg, &mkey).unwrap().tag_vector(&parts).unwrap();
        for threads in [0, 1, 2, 3] {
            let (mut out, mut tout) = ([0u8; 32], [0u8; 32]);
            // SAFETY: valid C strings, arrays of `parts.len()` components and buffers.
            let (rc, trc) = unsafe {
                (
                    brwhash_hash_vector_parallel(
                        name.as_ptr(),
                        key.as_ptr(),
                        key.len(),
                        ptrs.as_ptr(),
                        lens.as_ptr(),
                        parts.len(),
                        threads,
                        out.as_mut_ptr(),
                        out.len(),
                    ),
                    brwhash_mac_vector_parallel(
                        name.as_ptr(),
                        mkey.as_ptr(),
                        mkey.len(),
                        ptrs.as_ptr(),
                        lens.as_ptr(),
                        parts.len(),
                        threads,
                        tout.as_mut_ptr(),
                        tout.len(),
                    ),
                )
            };
            assert_eq!(
                (rc, trc),
                (BRWHASH_OK, BRWHASH_OK),
                "{alg} threads={threads}"
            );
            assert_eq!(&out[..alg.digest_len()], want.as_bytes(), "{alg} {threads}");
            assert_eq!(
                &tout[..alg.digest_len()],
                tag.as_bytes(),
                "{alg} mac {threads}"
            );
        }
    }
    let mut out = [0u8; 32];
    // SAFETY: as above; zero components with NULL arrays are allowed by the contract.
    unsafe {
        let not_vector = brwhash_hash_vector_parallel(
            c"Hash2L128".as_ptr(),
            [0u8; 16].as_ptr(),
            16,
            ptrs.as_ptr(),
            lens.as_ptr(),
            parts.len(),
            2,
            out.as_mut_ptr(),
            32,
        );
        assert_eq!(not_vector, BRWHASH_ERR_NOT_VECTOR);
        let none = brwhash_mac_vector_parallel(
            c"vecHash2L128".as_ptr(),
            [0u8; 32].as_ptr(),
            32,
            std::ptr::null(),
            std::ptr::null(),
            0,
            2,
            out.as_mut_ptr(),
            32,
        );
        assert_eq!(none, BRWHASH_ERR_COMPONENT_COUNT);
    }
}
