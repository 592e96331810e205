//! Every backend that can run here gives the portable backend's bytes (SPEC.md 5.11).
//!
//! Input: algorithm index byte, Horner group byte, the key (`key_len` bytes), then for
//! vecHash2L a byte whose bit 0 chooses a vector (`Input::components`) over one message, and
//! the message (`Input::message`).
//!
//! Checked for every backend of `Backend::ALL`: when `Backend::check` accepts it,
//! `hash_with_backend` (one shot, powers for this length only) and a `Key::with_backend`
//! (powers for any length, SIMD lane tables) give the portable one-shot digest; when it
//! refuses, both are errors, never a fallback. `brwhash::hash`, `Key::new` (the default
//! backend) and `Key::with_horner_group` on the portable and scalar backends agree too.

#![no_main]

use brwhash::{Algorithm, Backend, Key};
use brwhash_fuzz::{algorithm, as_slices, Input};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let alg = algorithm(input.u8());
    let group = 1 + input.u8() as usize % 8;
    let key = input.bytes(alg.key_len());
    if alg.is_vector() && input.u8() & 1 == 1 {
        let parts = input.components();
        check_vector(alg, &key, &as_slices(&parts));
    } else {
        let msg = input.message();
        check_message(alg, &key, &msg, group);
    }
});

fn check_message(alg: Algorithm, key: &[u8], msg: &[u8], group: usize) {
    let n = msg.len();
    let want = brwhash::hash_with_backend(alg, Backend::Portable, key, msg)
        .expect("the portable backend runs every algorithm");
    assert_eq!(
        want.as_bytes().len(),
        alg.digest_len(),
        "{alg}: digest length"
    );
    let portable = Key::with_backend(alg, key, Backend::Portable).expect("portable key");
    assert_eq!(
        portable.hash(msg),
        want,
        "{alg} n={n}: portable Key vs one-shot"
    );
    assert_eq!(
        brwhash::hash(alg, key, msg).expect("default backend"),
        want,
        "{alg} n={n}: brwhash::hash (default backend)"
    );
    let default_key = Key::new(alg, key).expect("default key");
    assert_eq!(
        default_key.hash(msg),
        want,
        "{alg} n={n}: Key::new on {}",
        default_key.backend()
    );
    if alg.is_vector() {
        // Hashing a message is hashing the one-component vector (msg).
        assert_eq!(
            portable.hash_vector(&[msg]).expect("one component"),
            want,
            "{alg} n={n}: message vs one-component vector"
        );
    }
    for b in Backend::ALL {
        let one_shot = brwhash::hash_with_backend(alg, b, key, msg);
        let keyed = Key::with_backend(alg, key, b);
        match b.check(alg) {
            Ok(()) => {
                let got = one_shot.unwrap_or_else(|e| panic!("{alg} on {b}: checked ok, {e}"));
                assert_eq!(got, want, "{alg} on {b} n={n}: hash_with_backend");
                let k = keyed.unwrap_or_else(|e| panic!("{alg} on {b}: checked ok, {e}"));
                assert_eq!(k.backend(), b, "{alg}: Key::with_backend({b}).backend()");
                assert_eq!(k.hash(msg), want, "{alg} on {b} n={n}: Key::hash");
                if matches!(b, Backend::Portable | Backend::Scalar) {
                    let g = Key::with_horner_group(alg, key, b, group)
                        .unwrap_or_else(|e| panic!("{alg} on {b}, g = {group}: {e}"));
                    assert_eq!(
                        g.hash(msg),
                        want,
                        "{alg} on {b} n={n}: Horner group {group}"
                    );
                }
            }
            Err(_) => {
                assert!(
                    one_shot.is_err(),
                    "{alg} on {b}: hash_with_backend ran unchecked"
                );
                assert!(
                    keyed.is_err(),
                    "{alg} on {b}: Key::with_backend made unchecked"
                );
            }
        }
    }
}

fn check_vector(alg: Algorithm, key: &[u8], parts: &[&[u8]]) {
    let k = parts.len();
    let portable = Key::with_backend(alg, key, Backend::Portable).expect("portable key");
    let want = portable.hash_vector(parts).expect("1..=255 components");
    assert_eq!(
        brwhash::hash_vector(alg, key, parts).expect("default backend"),
        want,
        "{alg} k={k}: brwhash::hash_vector"
    );
    let default_key = Key::new(alg, key).expect("default key");
    assert_eq!(
        default_key.hash_vector(parts).expect("vector"),
        want,
        "{alg} k={k}: Key::new on {}",
        default_key.backend()
    );
    for b in Backend::ALL {
        match (b.check(alg), Key::with_backend(alg, key, b)) {
            (Ok(()), Ok(kb)) => {
                let got = kb.hash_vector(parts).expect("vector");
                assert_eq!(got, want, "{alg} on {b} k={k}: hash_vector");
            }
            (Ok(()), Err(e)) => panic!("{alg} on {b}: checked ok, {e}"),
            (Err(_), Ok(_)) => panic!("{alg} on {b}: Key::with_backend made unchecked"),
            (Err(_), Err(_)) => {}
        }
    }
}
