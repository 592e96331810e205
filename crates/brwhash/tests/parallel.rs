//! `Key::hash_parallel` equals `Key::hash` (SPEC.md 5.11): every function, lengths at the
//! splitting points (BRW's powers of two, super-blocks, pieces), pools of 2 and 3 threads.

use brwhash::{Algorithm, Backend, Key, Mac, ReadAt, PARALLEL_THRESHOLD};

fn message(n: usize, seed: u8) -> Vec<u8> {
    (0..n)
        .map(|i| (i as u32).wrapping_mul(2654435761).rotate_right(13) as u8 ^ seed)
        .collect()
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
}

/// Lengths past the threshold: block counts 2^k - 1, 2^k, 2^k + 1 for both block sizes, a
/// super-block boundary, odd tails.
fn lengths() -> Vec<usize> {
    let mut v = vec![
        PARALLEL_THRESHOLD,
        PARALLEL_THRESHOLD + 1,
        3 * PARALLEL_THRESHOLD + 77,
    ];
    for block in [15usize, 16, 32] {
        for blocks in [(1 << 17) - 1, 1 << 17, (1 << 17) + 1, (1 << 18) + 5] {
            v.push(blocks * block);
            v.push(blocks * block - 3);
        }
    }
    v.push(496 * 4096 + 1);
    v.sort();
    v.dedup();
    v
}

#[test]
fn every_function_equals_sequential() {
    let two = pool(2);
    let msgs: Vec<Vec<u8>> = lengths().into_iter().map(|n| message(n, n as u8)).collect();
    for alg in Algorithm::all() {
        let k: Vec<u8> = (0..alg.key_len()).map(|i| 0xa5 ^ (i as u8 * 7)).collect();
        let key = Key::new(alg, &k).unwrap();
        for m in &msgs {
            let want = key.hash(m);
            assert_eq!(
                two.install(|| key.hash_parallel(m)),
                want,
                "{alg} n={}",
                m.len()
            );
        }
    }
}

#[test]
fn thread_counts_backends_and_extreme_keys() {
    let msg = message(5 * PARALLEL_THRESHOLD + 4321, 9);
    let algs = [
        "Poly1305",
        "polyHash1271",
        "BRWHash1305",
        "3-BRWHash1271",
        "4-2LHash1305",
        "4-Hash1271",
        "4-decBRWHash1305",
        "8-decBRWHash1271",
        "5-decBRWHash1305",
        "Hash2L128",
        "Hash2L256",
        "vecHash2L128",
        "vecHash2L256",
    ];
    for name in algs {
        let alg: Algorithm = name.parse().unwrap();
        for fill in [0x00u8, 0xff] {
            let k = vec![fill; alg.key_len()];
            for backend in Backend::ALL.into_iter().filter(|b| b.check(alg).is_ok()) {
                let key = Key::with_backend(alg, &k, backend).unwrap();
                let want = key.hash(&msg);
                for threads in [1, 2, 3] {
                    let got = pool(threads).install(|| key.hash_parallel(&msg));
                    assert_eq!(got, want, "{alg} {backend} threads={threads} key={fill:#x}");
                }
            }
        }
        let ones = vec![0xffu8; msg.len()];
        let key = Key::new(alg, &vec![0x3c; alg.key_len()]).unwrap();
        assert_eq!(
            pool(2).install(|| key.hash_parallel(&ones)),
            key.hash(&ones),
            "{alg}"
        );
        if let Some(n) = alg.mac_key_len() {
            let mac = Mac::new(alg, &vec![0x77; n]).unwrap();
            let tag = pool(2).install(|| mac.tag_parallel(&msg));
            assert_eq!(tag, mac.tag(&msg), "{alg} mac");
            assert!(pool(2).install(|| mac.verify_parallel(&msg, tag.as_ref())));
        }
    }
}

#[test]
fn one_shot_parallel() {
    let msg = message(2 * PARALLEL_THRESHOLD + 5, 1);
    for name in ["Poly1305", "4-decBRWHash1305", "Hash2L128", "vecHash2L128"] {
        let alg: Algorithm = name.parse().unwrap();
        let k = vec![0x42; alg.key_len()];
        let got = pool(2)
            .install(|| brwhash::hash_parallel(alg, &k, &msg))
            .unwrap();
        assert_eq!(got, brwhash::hash(alg, &k, &msg).unwrap(), "{alg}");
        assert!(brwhash::hash_parallel(alg, &k[1..], &msg).is_err());
    }
}

/// `hash_parallel_read_at` (pieces read by each thread) equals `hash`, on 1 and 2 threads
/// (one thread streams), and a read error is returned, not a digest.
#[test]
fn positioned_reader() {
    let msg = message(3 * PARALLEL_THRESHOLD + 999, 3);
    let read_at = |offset: u64, buf: &mut [u8]| {
        let o = offset as usize;
        buf.copy_from_slice(&msg[o..o + buf.len()]);
        Ok(())
    };
    let failing = |offset: u64, buf: &mut [u8]| {
        if offset as usize + buf.len() > 2 * PARALLEL_THRESHOLD {
            return Err(std::io::Error::other("disk on fire"));
        }
        read_at(offset, buf)
    };
    for name in [
        "Poly1305",
        "4-decBRWHash1305",
        "3-BRWHash1271",
        "5-Hash1305",
        "Hash2L256",
        "vecHash2L128",
    ] {
        let alg: Algorithm = name.parse().unwrap();
        let key = Key::new(alg, &vec![0x24; alg.key_len()]).unwrap();
        let want = key.hash(&msg);
        for threads in [1, 2] {
            let got =
                pool(threads).install(|| key.hash_parallel_read_at(msg.len() as u64, &read_at));
            assert_eq!(got.unwrap(), want, "{alg} threads={threads}");
            let err =
                pool(threads).install(|| key.hash_parallel_read_at(msg.len() as u64, &failing));
            assert_eq!(
                err.unwrap_err().to_string(),
                "disk on fire",
                "{alg} threads={threads}"
            );
        }
        if let Some(n) = alg.mac_key_len() {
            let mac = Mac::new(alg, &vec![0x31; n]).unwrap();
            let tag = pool(2).install(|| mac.tag_parallel_read_at(msg.len() as u64, &read_at));
            assert_eq!(tag.unwrap(), mac.tag(&msg), "{alg} mac");
        }
    }
    let key = Key::new(Algorithm::POLY1305, &[1; 32]).unwrap();
    assert!(key.hash_parallel_read_at(1 << 61, &read_at).is_err());
}

/// `hash_vector_parallel` equals `hash_vector`: vectors of one huge component, many small
/// ones past the threshold in all, empty components (one super-block each), components at
/// super-block boundaries, 255 components; every backend of both functions, 1 to 3 threads;
/// the MAC and the errors of `hash_vector`.
#[test]
fn vectors_equal_sequential() {
    let big = message(PARALLEL_THRESHOLD + 77, 5);
    let small = message(4096 + 13, 6);
    let blocks = message(3 * 31 * 32, 7);
    let shapes: Vec<Vec<&[u8]>> = vec![
        vec![&big],
        vec![b"", &big, b""],
        vec![&small[..100], &big[..PARALLEL_THRESHOLD / 2], &big, &small],
        vec![&small; 255],
        (0..255)
            .map(|i| &big[..(i * 8191) % (PARALLEL_THRESHOLD / 16)])
            .collect(),
        vec![
            &blocks,
            &blocks[..31 * 16],
            &blocks[..31 * 16 + 1],
            &big,
            &blocks[..1],
        ],
    ];
    for name in ["vecHash2L128", "vecHash2L256"] {
        let alg: Algorithm = name.parse().unwrap();
        for backend in Backend::ALL {
            if !backend.cpu_supports() || !backend.implements(alg) {
                println!("skipping {alg} on {backend}: not available here");
                continue;
            }
            let key = Key::with_backend(alg, &vec![0xff; alg.key_len()], backend).unwrap();
            for (i, parts) in shapes.iter().enumerate() {
                let want = key.hash_vector(parts).unwrap();
                for threads in [1, 2, 3] {
                    let got = pool(threads).install(|| key.hash_vector_parallel(parts));
                    assert_eq!(
                        got.unwrap(),
                        want,
                        "{alg} on {backend}, shape {i}, {threads}"
                    );
                }
            }
        }
        let mac = Mac::new(alg, &vec![0x31; alg.mac_key_len().unwrap()]).unwrap();
        for parts in &shapes {
            let tag = pool(2).install(|| mac.tag_vector_parallel(parts)).unwrap();
            assert_eq!(tag, mac.tag_vector(parts).unwrap(), "{alg} mac");
            assert!(pool(2).install(|| mac.verify_vector_parallel(parts, tag.as_ref())));
            let mut forged = tag.as_bytes().to_vec();
            forged[0] ^= 1;
            assert!(!pool(2).install(|| mac.verify_vector_parallel(parts, &forged)));
        }
        let key = Key::new(alg, &vec![1; alg.key_len()]).unwrap();
        let too_many = vec![&big[..]; 256];
        for bad in [&[][..], &too_many[..]] {
            let e = pool(2).install(|| key.hash_vector_parallel(bad));
            assert_eq!(e, key.hash_vector(bad), "{alg}: {} components", bad.len());
            assert!(e.is_err());
            assert!(!pool(2).install(|| mac.verify_vector_parallel(bad, &[0; 32])));
        }
    }
    let key = Key::new(Algorithm::HASH2L128, &[1; 16]).unwrap();
    let e = pool(2).install(|| key.hash_vector_parallel(&[&big, &big]));
    assert_eq!(e, key.hash_vector(&[&big, &big]));
    assert!(e.is_err());
}

/// A positioned reader of `bytes`; with `fail_from`, reads that reach that offset fail.
fn reader(
    bytes: &[u8],
    fail_from: Option<usize>,
) -> impl Fn(u64, &mut [u8]) -> std::io::Result<()> + Sync + '_ {
    move |offset, buf| {
        let o = offset as usize;
        if fail_from.is_some_and(|f| o + buf.len() > f) {
            return Err(std::io::Error::other("disk on fire"));
        }
        buf.copy_from_slice(&bytes[o..o + buf.len()]);
        Ok(())
    }
}

/// `hash_vector_parallel_read_at` (components behind readers) equals `hash_vector`: empty,
/// small and split components, 255 components, 1 and 2 threads, the MAC; a read error in
/// any component is returned, not a digest; bad counts and non-vector keys are errors.
#[test]
fn vectors_behind_readers() {
    let big = message(2 * PARALLEL_THRESHOLD + 333, 8);
    let small = message(5000, 9);
    let shapes: Vec<Vec<&[u8]>> = vec![
        vec![&big],
        vec![b"", &small, &big, b""],
        (0..255).map(|i| &small[..(i * 97) % 5000]).collect(),
    ];
    for name in ["vecHash2L128", "vecHash2L256"] {
        let alg: Algorithm = name.parse().unwrap();
        let key = Key::new(alg, &vec![0xff; alg.key_len()]).unwrap();
        let mac = Mac::new(alg, &vec![0x31; alg.mac_key_len().unwrap()]).unwrap();
        for (i, parts) in shapes.iter().enumerate() {
            let readers: Vec<_> = parts.iter().map(|p| reader(p, None)).collect();
            let components: Vec<(u64, ReadAt)> = parts
                .iter()
                .zip(&readers)
                .map(|(p, r)| (p.len() as u64, r as ReadAt))
                .collect();
            let want = key.hash_vector(parts).unwrap();
            for threads in [1, 2] {
                let got = pool(threads).install(|| key.hash_vector_parallel_read_at(&components));
                assert_eq!(got.unwrap(), want, "{alg} shape {i}, {threads} threads");
            }
            let tag = pool(2).install(|| mac.tag_vector_parallel_read_at(&components));
            assert_eq!(tag.unwrap(), mac.tag_vector(parts).unwrap(), "{alg} mac");
        }
        // A failing read in the last component, deep inside it (a piece of another thread).
        let (ok, bad) = (
            reader(&small, None),
            reader(&big, Some(PARALLEL_THRESHOLD + 5)),
        );
        let components: [(u64, ReadAt); 2] = [(5000, &ok), (big.len() as u64, &bad)];
        for threads in [1, 2] {
            let e = pool(threads).install(|| key.hash_vector_parallel_read_at(&components));
            assert_eq!(
                e.unwrap_err().to_string(),
                "disk on fire",
                "{alg} {threads}"
            );
        }
        let too_many = vec![(1u64, &ok as ReadAt); 256];
        for bad in [&[][..], &too_many[..]] {
            let e = key.hash_vector_parallel_read_at(bad).unwrap_err();
            assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput);
            let want = key.hash_vector(&vec![&b"x"[..]; bad.len()]).unwrap_err();
            assert_eq!(e.to_string(), want.to_string());
        }
        let e = key
            .hash_vector_parallel_read_at(&[(1 << 62, &ok as ReadAt)])
            .unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput);
    }
    let key = Key::new(Algorithm::HASH2L128, &[1; 16]).unwrap();
    let ok = reader(&small, None);
    let e = key.hash_vector_parallel_read_at(&[(10, &ok as ReadAt)]);
    assert_eq!(
        e.unwrap_err().to_string(),
        key.hash_vector(&[&small[..10]]).unwrap_err().to_string()
    );
}
