//! Bad input gives a typed error, never a panic (SPEC.md section 8).

use brwhash::{Algorithm, Backend, Error, Hasher, Key, Mac};

#[test]
fn wrong_key_lengths() {
    for alg in Algorithm::all() {
        for len in [0, 1, 15, 17, 31, 33, 64, 65] {
            if len != alg.key_len() {
                assert!(
                    matches!(Key::new(alg, &vec![0; len]), Err(Error::KeyLength { .. })),
                    "{alg} {len}"
                );
                assert!(matches!(
                    brwhash::hash(alg, &vec![0; len], b""),
                    Err(Error::KeyLength { .. })
                ));
            }
            if Some(len) != alg.mac_key_len() && alg != Algorithm::POLY1305 {
                assert!(matches!(
                    Mac::new(alg, &vec![0; len]),
                    Err(Error::KeyLength { .. })
                ));
            }
        }
    }
    let e = Key::new(Algorithm::POLY1305, &[0; 16]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "Poly1305 (digest) needs a 32-byte key, got 16 bytes"
    );
}

#[test]
fn poly1305_has_no_mac_mode() {
    assert!(matches!(
        Mac::new(Algorithm::POLY1305, &[0; 32]),
        Err(Error::NoMacMode(_))
    ));
    assert!(matches!(
        brwhash::mac(Algorithm::POLY1305, &[0; 48], b"x"),
        Err(Error::NoMacMode(_))
    ));
}

#[test]
fn component_counts() {
    let alg = Algorithm::VECHASH2L128;
    let key = [3u8; 16];
    assert_eq!(
        brwhash::hash_vector(alg, &key, &[]),
        Err(Error::ComponentCount(0))
    );
    let comps: Vec<&[u8]> = vec![b"ab"; 256];
    assert_eq!(
        brwhash::hash_vector(alg, &key, &comps),
        Err(Error::ComponentCount(256))
    );
    assert!(brwhash::hash_vector(alg, &key, &comps[..255]).is_ok());
    // Streaming: the 256th component is refused and the state stays usable.
    let k = Key::new(alg, &key).unwrap();
    let mut h = Hasher::new(&k);
    for _ in 0..254 {
        h.update(b"ab").unwrap().next_component().unwrap();
    }
    h.update(b"ab").unwrap();
    assert_eq!(h.next_component().err(), Some(Error::ComponentCount(256)));
    assert_eq!(h.finalize(), k.hash_vector(&comps[..255]).unwrap());
    // Components for a single-message algorithm.
    assert!(matches!(
        brwhash::hash_vector(Algorithm::HASH2L128, &key, &[b"a"]),
        Err(Error::NotVector(_))
    ));
    let k = Key::new(Algorithm::POLYHASH1305, &key).unwrap();
    assert!(matches!(
        Hasher::new(&k).next_component(),
        Err(Error::NotVector(_))
    ));
}

#[test]
fn unknown_and_unavailable_backends() {
    assert!(matches!(
        "sse9".parse::<Backend>(),
        Err(Error::UnknownBackend(_))
    ));
    for b in Backend::ALL {
        assert_eq!(b.name().parse::<Backend>().unwrap(), b);
        let r = Key::with_backend(Algorithm::POLY1305, &[1; 32], b);
        match b.check(Algorithm::POLY1305) {
            Ok(()) => assert_eq!(r.unwrap().backend(), b),
            Err(e) => assert_eq!(r.unwrap_err(), e),
        }
    }
    let k = Key::with_backend(Algorithm::HASH2L256, &[1; 32], Backend::Portable).unwrap();
    assert_eq!(k.backend(), Backend::Portable);
}

#[test]
fn keys_are_not_printed() {
    let k = Key::new(Algorithm::POLYHASH1305, &[0xab; 16]).unwrap();
    let m = Mac::new(Algorithm::POLYHASH1305, &[0xcd; 32]).unwrap();
    let b = k.backend();
    assert_eq!(
        format!("{k:?}"),
        format!("Key {{ algorithm: \"polyHash1305\", backend: {b:?}, .. }}")
    );
    assert_eq!(
        format!("{m:?}"),
        format!("Mac {{ key: Key {{ algorithm: \"polyHash1305\", backend: {b:?}, .. }}, .. }}")
    );
}

#[test]
fn mac_rejects_changed_tags_and_lengths() {
    let alg: Algorithm = "4-decBRWHash1271".parse().unwrap();
    let mac = Mac::new(alg, &[0x77; 32]).unwrap();
    let tag = mac.tag(b"payload");
    assert!(mac.verify(b"payload", tag.as_ref()));
    assert!(!mac.verify(b"payload", &tag.as_ref()[..15]));
    let mut longer = tag.as_ref().to_vec();
    longer.push(0);
    assert!(!mac.verify(b"payload", &longer));
    for i in 0..16 {
        for bit in 0..8 {
            let mut t = tag.as_ref().to_vec();
            t[i] ^= 1 << bit;
            assert!(!mac.verify(b"payload", &t));
        }
    }
    assert!(!mac.verify(b"paylaod", tag.as_ref()));
}

#[test]
fn keys_1271_ignore_top_bits() {
    // tau = le(K) mod 2^126 and s likewise: the two top bits of byte 15 do not matter.
    for alg in Algorithm::all()
        .into_iter()
        .filter(|a| a.prime() == Some(brwhash::Prime::P1271))
    {
        let mut k = [0x5cu8; 32];
        let a = brwhash::mac(alg, &k, b"some message").unwrap();
        k[15] ^= 0xc0;
        k[31] ^= 0xc0;
        assert_eq!(a, brwhash::mac(alg, &k, b"some message").unwrap(), "{alg}");
        assert_eq!(a.as_ref()[15] & 0xc0, 0);
    }
}

/// The one-shot `brwhash::mac` (key powers for this length only) gives the tag of a `Mac`
/// (powers for any length) and of its streaming hasher, for every algorithm with a MAC mode.
#[test]
fn one_shot_mac_agrees_with_mac_key() {
    let mut r = 0x1234_5678_9abc_def0u64;
    let mut next = || {
        r ^= r << 13;
        r ^= r >> 7;
        r ^= r << 17;
        r
    };
    for alg in Algorithm::all()
        .into_iter()
        .filter(|a| a.mac_key_len().is_some())
    {
        let key: Vec<u8> = (0..alg.mac_key_len().unwrap())
            .map(|_| next() as u8)
            .collect();
        let mac = brwhash::Mac::new(alg, &key).unwrap();
        for n in [0, 1, 15, 16, 17, 200, 500, 1000, 3000] {
            let msg: Vec<u8> = (0..n).map(|_| next() as u8).collect();
            let tag = brwhash::mac(alg, &key, &msg).unwrap();
            assert_eq!(tag, mac.tag(&msg), "{alg} n={n}");
            let mut h = mac.hasher();
            h.update(&msg).unwrap();
            assert_eq!(h.finalize(), tag, "{alg} n={n} streamed");
        }
    }
}

/// Found by the `parse` fuzz target: a name `<n>-<rest>` with a multi-byte character among
/// the last 4 bytes of `rest` made `from_str` cut a `str` inside a character (a panic).
#[test]
fn non_ascii_names_are_errors() {
    for name in [
        "2-é123",
        "4-Hash127é",
        "16-decBRWHash13€",
        "4-hash1€",
        "é",
        "1-€€",
    ] {
        assert!(
            matches!(name.parse::<Algorithm>(), Err(Error::UnknownAlgorithm(_))),
            "{name}"
        );
    }
}

proptest::proptest! {
    /// Any string parses to an error or to an algorithm whose name parses back to it.
    #[test]
    fn any_name_parses_without_panic(
        s in "[0-9]{0,3}-?[a-zA-Z0-9é€\u{1F600}]{0,16}",
        t in "\\PC{0,24}",
    ) {
        for name in [&s, &t] {
            if let Ok(alg) = name.parse::<Algorithm>() {
                proptest::prop_assert_eq!(alg.to_string().parse::<Algorithm>().unwrap(), alg);
            }
        }
    }
}
