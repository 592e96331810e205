//! Names, parameters, key lengths, component counts and digest formatting: never a panic,
//! errors of the right kind, and consistent results (SPEC.md 8).
//!
//! Input: the whole input is first parsed as an algorithm name and as a backend name (as
//! UTF-8, invalid sequences replaced). Then, structured: algorithm index byte, family byte,
//! parameter byte, key-length byte (any length 0..=255), two-byte component count
//! (`% 300`), four-byte Horner group g, backend byte, the key bytes, and the rest as the
//! message (and candidate tag).
//!
//! The library exposes no hex decoder (only `Digest::to_hex`); the CLI's key and digest hex
//! decoding is the `hex` crate inside the `brwhash` binary, which no fuzz target can link.

#![no_main]

use brwhash::{Algorithm, Backend, Digest, Error, Family, Hasher, Key, Mac, Prime};
use brwhash_fuzz::{algorithm, algorithms, Input};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    check_algorithm_name(&text);
    check_backend_name(&text);
    let mut input = Input::new(data);
    let alg = algorithm(input.u8());
    check_family(input.u8(), input.u8());
    let key_len = input.u8() as usize;
    let count = input.u16() as usize % 300;
    let g = input.u32() as usize;
    let backend = Backend::ALL[input.u8() as usize % Backend::ALL.len()];
    let key = input.take(key_len);
    let rest = input.rest();
    check_keys(alg, key, backend, g, rest);
    check_vector_count(alg, count);
});

/// The parameter ranges of SPEC.md 8, by the family name inside `<n>-<family><prime>`.
fn in_range(family: &str, n: u16) -> bool {
    match family {
        "brwhash" | "2lhash" | "hash" => (2..=5).contains(&n),
        "decbrwhash" => (1..=16).contains(&n),
        _ => false,
    }
}

/// Whether `s` is `<n>-<family><prime>` with n decimal (1 to 3 digits, no leading zero), a
/// parameterized family and a prime suffix, whatever n's range: the names for which an
/// out-of-range parameter is reported as such.
fn family_shape(s: &str) -> Option<(String, u16)> {
    let lower = s.to_ascii_lowercase();
    let (num, rest) = lower.split_once('-')?;
    let digits = !num.is_empty() && num.len() <= 3 && num.bytes().all(|b| b.is_ascii_digit());
    if !digits || (num.len() > 1 && num.starts_with('0')) {
        return None;
    }
    let fam = rest
        .strip_suffix("1271")
        .or_else(|| rest.strip_suffix("1305"))?;
    matches!(fam, "brwhash" | "2lhash" | "hash" | "decbrwhash")
        .then(|| (fam.to_string(), num.parse().expect("digits")))
}

fn check_algorithm_name(s: &str) {
    let canonical = algorithms()
        .iter()
        .copied()
        .find(|a| a.to_string().eq_ignore_ascii_case(s));
    match (s.parse::<Algorithm>(), canonical) {
        (Ok(a), Some(c)) => {
            assert_eq!(a, c, "{s:?}");
            let name = a.to_string();
            assert_eq!(name.parse::<Algorithm>().ok(), Some(a), "{name} round trip");
            assert_eq!(algorithms()[a.index()], a, "{name}: index");
            assert!(name.eq_ignore_ascii_case(s));
        }
        (Ok(a), None) => panic!("{s:?} parsed as {a}, which is not its canonical spelling"),
        (Err(e), Some(c)) => panic!("{s:?} is {c} in another case, but parsing failed: {e}"),
        (Err(e), None) => {
            match &e {
                Error::UnknownAlgorithm(name) => {
                    assert_eq!(name, s);
                    if let Some((fam, n)) = family_shape(s) {
                        panic!("{s:?} ({fam}, parameter {n}) is not reported out of range");
                    }
                }
                Error::ParameterOutOfRange { name, range } => {
                    assert_eq!(name, s);
                    assert!(!range.is_empty());
                    match family_shape(s) {
                        Some((fam, n)) => assert!(!in_range(&fam, n), "{s:?} is in range"),
                        None => panic!("{s:?} reported out of range but is no family name"),
                    }
                }
                other => panic!("{s:?}: unexpected error kind {other:?}"),
            }
            assert!(!e.to_string().is_empty());
        }
    }
}

fn check_backend_name(s: &str) {
    let canonical = Backend::ALL
        .iter()
        .copied()
        .find(|b| b.name().eq_ignore_ascii_case(s));
    match (s.parse::<Backend>(), canonical) {
        (Ok(b), Some(c)) => {
            assert_eq!(b, c);
            assert_eq!(b.to_string().parse::<Backend>().ok(), Some(b));
            assert_eq!(b.to_string(), b.name());
        }
        (Ok(b), None) => panic!("{s:?} parsed as backend {b}"),
        (Err(e), Some(c)) => panic!("{s:?} is backend {c}, but parsing failed: {e}"),
        (Err(e), None) => {
            assert_eq!(e, Error::UnknownBackend(s.to_string()));
            assert!(!e.to_string().is_empty());
        }
    }
}

fn check_family(kind: u8, n: u8) {
    let p = if kind & 0x80 == 0 {
        Prime::P1271
    } else {
        Prime::P1305
    };
    let (family, ok) = match kind % 4 {
        0 => (Family::TBrwHash(n, p), (2..=5).contains(&n)),
        1 => (Family::TwoLHash(n, p), (2..=5).contains(&n)),
        2 => (Family::DHash(n, p), (2..=5).contains(&n)),
        _ => (Family::DecBrwHash(n, p), (1..=16).contains(&n)),
    };
    match Algorithm::new(family) {
        Ok(a) => {
            assert!(ok, "{family:?} accepted");
            assert_eq!(a.family(), family);
            assert_eq!(a.to_string().parse::<Algorithm>().ok(), Some(a));
            assert_eq!(algorithms()[a.index()], a, "{a}: index");
        }
        Err(e) => {
            assert!(!ok, "{family:?} refused: {e}");
            assert!(matches!(e, Error::ParameterOutOfRange { .. }), "{e:?}");
        }
    }
}

/// A key-length error for `alg` in `mode` with `got` bytes.
fn is_key_length(e: &Error, alg: Algorithm, mode: &str, expected: usize, got: usize) -> bool {
    let want = Error::KeyLength {
        algorithm: alg.to_string(),
        mode: if mode == "mac" { "mac" } else { "digest" },
        expected,
        got,
    };
    *e == want && !e.to_string().is_empty()
}

fn check_keys(alg: Algorithm, key: &[u8], backend: Backend, g: usize, msg: &[u8]) {
    let len_ok = key.len() == alg.key_len();
    let (kl, n) = (alg.key_len(), key.len());
    match Key::new(alg, key) {
        Ok(k) => {
            assert!(len_ok, "{alg}: Key::new took {n} bytes");
            let d = k.hash(msg);
            assert_eq!(
                brwhash::hash(alg, key, msg).ok(),
                Some(d),
                "{alg}: hash vs Key"
            );
            check_digest(alg, &d, msg);
        }
        Err(e) => assert!(
            !len_ok && is_key_length(&e, alg, "digest", kl, n),
            "{alg}: {e:?}"
        ),
    }
    if let Err(e) = brwhash::hash(alg, key, msg) {
        assert!(is_key_length(&e, alg, "digest", kl, n), "{alg}: {e:?}");
    }
    let runs = backend.check(alg).is_ok();
    let with = Key::with_backend(alg, key, backend);
    assert_eq!(
        with.is_ok(),
        len_ok && runs,
        "{alg} on {backend}, {n}-byte key"
    );
    if let Err(e) = with {
        assert!(
            is_key_length(&e, alg, "digest", kl, n)
                || matches!(e, Error::BackendUnavailable { .. }),
            "{alg} on {backend}: {e:?}"
        );
    }
    let one_shot = brwhash::hash_with_backend(alg, backend, key, msg);
    assert_eq!(
        one_shot.is_ok(),
        len_ok && runs,
        "{alg} on {backend}: one shot"
    );
    let grouped = Key::with_horner_group(alg, key, backend, g);
    let g_ok = (1..=8).contains(&g) && matches!(backend, Backend::Portable | Backend::Scalar);
    assert_eq!(
        grouped.is_ok(),
        len_ok && runs && g_ok,
        "{alg} on {backend}, g = {g}"
    );
    if let Ok(k) = grouped {
        assert_eq!(
            Some(k.hash(msg)),
            one_shot.ok(),
            "{alg} on {backend}, g = {g}"
        );
    }
    // MAC mode.
    let mac_ok = alg.mac_key_len() == Some(n);
    match Mac::new(alg, key) {
        Ok(mac) => {
            assert!(mac_ok, "{alg}: Mac::new took {n} bytes");
            let tag = mac.tag(msg);
            assert_eq!(brwhash::mac(alg, key, msg).ok(), Some(tag));
            // Any candidate tag: accepted exactly when it is the tag.
            for cand in [msg, &msg[..msg.len().min(alg.digest_len())], tag.as_bytes()] {
                assert_eq!(
                    mac.verify(msg, cand),
                    cand == tag.as_bytes(),
                    "{alg}: verify"
                );
            }
        }
        Err(e) => {
            assert!(!mac_ok, "{alg}: Mac::new refused {n} bytes: {e}");
            match alg.mac_key_len() {
                None => assert_eq!(e, Error::NoMacMode(alg.to_string())),
                Some(m) => assert!(is_key_length(&e, alg, "mac", m, n), "{alg}: {e:?}"),
            }
        }
    }
    assert_eq!(
        brwhash::mac(alg, key, msg).is_ok(),
        mac_ok,
        "{alg}: brwhash::mac"
    );
}

fn check_digest(alg: Algorithm, d: &Digest, other: &[u8]) {
    let bytes = d.as_bytes();
    assert_eq!(bytes.len(), alg.digest_len());
    let hex = d.to_hex();
    assert_eq!(hex.len(), 2 * bytes.len());
    assert!(hex
        .bytes()
        .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c)));
    let back: Vec<u8> = (0..bytes.len())
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex"))
        .collect();
    assert_eq!(back, bytes, "to_hex round trip");
    assert_eq!(d.to_string(), hex);
    assert!(format!("{d:?}").contains(&hex));
    assert!(d.ct_eq_bytes(bytes));
    assert_eq!(d.ct_eq_bytes(other), other == bytes);
    if alg.prime() == Some(Prime::P1271) {
        assert_eq!(bytes[15] & 0xc0, 0, "{alg}: top two digest bits must be 0");
    }
}

fn check_vector_count(alg: Algorithm, count: usize) {
    let key = vec![0x5a; alg.key_len()];
    let parts = vec![&b""[..]; count];
    let got = brwhash::hash_vector(alg, &key, &parts);
    let ok = alg.is_vector() && (1..=brwhash::MAX_COMPONENTS).contains(&count);
    assert_eq!(got.is_ok(), ok, "{alg}: {count} components");
    if let Err(e) = &got {
        let e = e.clone();
        if alg.is_vector() {
            assert_eq!(e, Error::ComponentCount(count));
        } else {
            assert_eq!(e, Error::NotVector(alg.to_string()));
        }
    }
    let k = Key::new(alg, &key).expect("key");
    let mut h = Hasher::new(&k);
    let mut accepted = 1;
    for _ in 1..count {
        if h.next_component().is_ok() {
            accepted += 1;
        }
    }
    if alg.is_vector() {
        assert_eq!(
            accepted,
            count.clamp(1, brwhash::MAX_COMPONENTS),
            "{alg}: components"
        );
        if (1..=brwhash::MAX_COMPONENTS).contains(&count) {
            assert_eq!(
                Some(h.finalize()),
                got.ok(),
                "{alg}: streamed empty components"
            );
        }
    } else {
        assert_eq!(
            accepted, 1,
            "{alg}: next_component on a one-message algorithm"
        );
    }
}
