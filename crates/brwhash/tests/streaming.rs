//! Streaming equals one-shot (SPEC.md 5.11) for every split point, random multi-way splits,
//! vecHash2L component boundaries, and a finalize in the middle of a message.

mod common;

use brwhash::{Algorithm, Hasher, Key, Mac};
use proptest::prelude::*;

fn message(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i * 131 + 7) as u8).collect()
}

fn key_for(alg: Algorithm, fill: u8) -> Vec<u8> {
    (0..alg.key_len())
        .map(|i| fill ^ (i as u8).wrapping_mul(29))
        .collect()
}

/// Lengths around every boundary the constructions have: blocks of 15/16/32 bytes, chunks of
/// 2^w blocks, 2^t prefixes, super-blocks of 2^d - 1 and 31 blocks, the d-Hash switch.
const LENGTHS: [usize; 6] = [0, 1, 47, 241, 497, 1000];

#[test]
fn every_split_point() {
    for alg in Algorithm::all() {
        let key = Key::new(alg, &key_for(alg, 0x5a)).unwrap();
        for n in LENGTHS {
            let msg = message(n);
            let want = key.hash(&msg);
            assert_eq!(want, brwhash::hash(alg, &key_for(alg, 0x5a), &msg).unwrap());
            for split in 0..=n {
                let mut h = Hasher::new(&key);
                h.update(&msg[..split])
                    .unwrap()
                    .update(&msg[split..])
                    .unwrap();
                assert_eq!(h.finalize(), want, "{alg} n={n} split={split}");
            }
        }
    }
}

/// Hashers that own their key through an `Arc` (`Hasher<'static>`): the same digests and tags
/// as borrowed ones, from another thread, and clones that go their own way.
#[test]
fn shared_key_hashers() {
    fn send<T: Send + Sync + 'static>(t: T) -> T {
        t
    }
    for alg in Algorithm::all() {
        let k = key_for(alg, 0x3c);
        let key = std::sync::Arc::new(Key::new(alg, &k).unwrap());
        let msg = message(9000);
        let mut h = send(Hasher::with_shared_key(std::sync::Arc::clone(&key)));
        h.update(&msg[..4000]).unwrap();
        let fork = h.clone();
        let h = std::thread::spawn(move || {
            h.update(&msg[4000..]).unwrap();
            h
        })
        .join()
        .unwrap();
        let msg = message(9000);
        assert_eq!(h.finalize(), key.hash(&msg), "{alg}");
        assert_eq!(fork.finalize(), key.hash(&msg[..4000]), "{alg} clone");
        // A clone goes on from the bytes it holds (copied: its buffers are its own).
        let mut fork = fork;
        fork.update(&msg[4000..]).unwrap();
        assert_eq!(fork.finalize(), key.hash(&msg), "{alg} clone, updated");
        assert_eq!(h.algorithm(), alg);
        assert_eq!(h.backend(), key.backend());
        if let Some(mac_len) = alg.mac_key_len() {
            let mk: Vec<u8> = (0..mac_len).map(|i| 0x11 ^ i as u8).collect();
            let mac = std::sync::Arc::new(Mac::new(alg, &mk).unwrap());
            let mut mh = Hasher::with_shared_mac(std::sync::Arc::clone(&mac));
            mh.update(&msg).unwrap();
            assert_eq!(mh.finalize(), mac.tag(&msg), "{alg} mac");
            assert!(mh.verify(mac.tag(&msg).as_ref()));
            assert_ne!(
                mh.finalize(),
                key.hash(&msg),
                "{alg}: a tag is not the digest"
            );
            drop(mac);
            assert_eq!(mh.into_digest(), Mac::new(alg, &mk).unwrap().tag(&msg));
        }
    }
}

#[test]
fn byte_at_a_time_and_finalize_midway() {
    for alg in Algorithm::all() {
        let key = Key::new(alg, &key_for(alg, 0xc3)).unwrap();
        let msg = message(1100);
        let mut h = Hasher::new(&key);
        for (i, b) in msg.iter().enumerate() {
            if i % 97 == 0 {
                // finalize does not consume or disturb the state.
                assert_eq!(h.finalize(), key.hash(&msg[..i]), "{alg} prefix {i}");
            }
            h.update(std::slice::from_ref(b)).unwrap();
        }
        assert_eq!(h.finalize(), key.hash(&msg), "{alg}");
    }
}

/// d-2LHash and d-Hash streams past their switch to the SIMD lanes (8 or 16 super-blocks)
/// hold super-blocks and lane values between updates: `finalize` after every update, on
/// every backend here, reads that state without disturbing it (it finishes copies of the
/// lane words and reads the held super-blocks in place), before and after the lanes' first
/// call and with 0 to 7 super-blocks held.
#[test]
fn finalize_midway_on_the_lanes() {
    use brwhash::{Backend, Family};
    let msg = message(60_000);
    let pieces = [
        1000, 3000, 1, 4096, 700, 465, 9000, 15, 5000, 1800, 3600, 31, 496, 7000, 225, 2047,
    ];
    let mut checked = 0;
    for alg in Algorithm::all() {
        if !matches!(alg.family(), Family::TwoLHash(..) | Family::DHash(..)) {
            continue;
        }
        let k = key_for(alg, 0x3c);
        for backend in Backend::ALL.into_iter().filter(|b| b.check(alg).is_ok()) {
            let key = Key::with_backend(alg, &k, backend).unwrap();
            let mut h = Hasher::new(&key);
            let mut at = 0;
            for piece in pieces.iter().cycle().take(40) {
                let end = (at + piece).min(msg.len());
                h.update(&msg[at..end]).unwrap();
                at = end;
                let want = key.hash(&msg[..at]);
                assert_eq!(h.finalize(), want, "{alg} {backend} at {at}");
                // Twice: the first finalize left the state as it was.
                assert_eq!(h.finalize(), want, "{alg} {backend} at {at}, again");
            }
            assert_eq!(h.into_digest(), key.hash(&msg[..at]), "{alg} {backend}");
            checked += 1;
        }
    }
    // 16 functions, on the portable and scalar backends at least.
    assert!(checked >= 32, "{checked} streams checked");
    eprintln!("{checked} streams checked");
}

/// Long updates (from 8 KiB, polyHash and Poly1305 on IFMA lanes load the key's table once
/// per update; from 32 KiB they take a copy of it and their own loop) between short ones,
/// with bytes held across them, on every backend here: the stream agrees with the whole
/// message.
#[test]
fn long_updates_between_short_ones() {
    use brwhash::{Backend, Family};
    let msg = message(320_000);
    let pieces = [40_000, 1, 70_000, 4096, 8192, 20_001, 100_003, 17, 65_536];
    for alg in Algorithm::all() {
        if !matches!(
            alg.family(),
            Family::Poly1305 | Family::PolyHash(..) | Family::DHash(..)
        ) {
            continue;
        }
        let k = key_for(alg, 0x5a);
        for backend in Backend::ALL.into_iter().filter(|b| b.check(alg).is_ok()) {
            let key = Key::with_backend(alg, &k, backend).unwrap();
            let mut h = Hasher::new(&key);
            let mut at = 0;
            for piece in pieces {
                h.update(&msg[at..at + piece]).unwrap();
                at += piece;
                assert_eq!(
                    h.finalize(),
                    key.hash(&msg[..at]),
                    "{alg} {backend} at {at}"
                );
            }
            assert_eq!(h.into_digest(), key.hash(&msg[..at]), "{alg} {backend}");
        }
    }
}

#[test]
fn vector_components_stream() {
    for alg in [Algorithm::VECHASH2L128, Algorithm::VECHASH2L256] {
        let key = Key::new(alg, &key_for(alg, 0x11)).unwrap();
        let comps: Vec<Vec<u8>> = [0usize, 5, 31 * 16, 600, 0, 1]
            .iter()
            .map(|&n| message(n))
            .collect();
        let refs: Vec<&[u8]> = comps.iter().map(|c| c.as_slice()).collect();
        let want = key.hash_vector(&refs).unwrap();
        assert_eq!(
            want,
            brwhash::hash_vector(alg, &key_for(alg, 0x11), &refs).unwrap()
        );
        for chunk in [1, 3, 32, 1000] {
            assert_eq!(
                common::stream_vector(&key, &comps, chunk),
                want,
                "{alg} chunk {chunk}"
            );
        }
        // A one-component vector is the same through hash() and hash_vector().
        assert_eq!(key.hash(&comps[3]), key.hash_vector(&[&comps[3]]).unwrap());
    }
}

#[test]
fn all_ones_keys_and_messages() {
    for alg in Algorithm::all() {
        let k = vec![0xff; alg.key_len()];
        let key = Key::new(alg, &k).unwrap();
        for n in [16, 255, 1000, 4096] {
            let msg = vec![0xff; n];
            let mut h = Hasher::new(&key);
            for piece in msg.chunks(100) {
                h.update(piece).unwrap();
            }
            assert_eq!(
                h.finalize(),
                brwhash::hash(alg, &k, &msg).unwrap(),
                "{alg} {n}"
            );
        }
    }
}

fn algorithms() -> impl Strategy<Value = Algorithm> {
    let all = Algorithm::all();
    (0..all.len()).prop_map(move |i| all[i])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, .. ProptestConfig::default() })]

    #[test]
    fn random_splits_equal_one_shot(
        alg in algorithms(),
        key_seed in any::<u8>(),
        msg in proptest::collection::vec(any::<u8>(), 0..3000),
        cuts in proptest::collection::vec(0usize..3000, 0..8),
    ) {
        let k = key_for(alg, key_seed);
        let key = Key::new(alg, &k).unwrap();
        let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c % (msg.len() + 1)).collect();
        cuts.sort();
        let mut h = Hasher::new(&key);
        let mut start = 0;
        for c in cuts.into_iter().chain([msg.len()]) {
            h.update(&msg[start..c]).unwrap();
            start = c;
        }
        prop_assert_eq!(h.finalize(), brwhash::hash(alg, &k, &msg).unwrap());
        if let Some(mac_len) = alg.mac_key_len() {
            let mk: Vec<u8> = (0..mac_len).map(|i| key_seed.wrapping_add(i as u8)).collect();
            let mac = Mac::new(alg, &mk).unwrap();
            let mut mh = mac.hasher();
            for piece in msg.chunks(77) {
                mh.update(piece).unwrap();
            }
            prop_assert_eq!(mh.finalize(), mac.tag(&msg));
            prop_assert!(mh.verify(mac.tag(&msg).as_ref()));
        }
    }
}
