//! Every SIMD backend against the portable backend (the executable definition) and the
//! known answers: every length 0..=2048, random lengths to 1 MiB, keys with all bits set and
//! with limb boundaries saturated, every streaming split point up to 300 bytes, unaligned
//! input. Backends this CPU lacks are skipped with a printed reason.

mod common;

use brwhash::{Algorithm, Backend, Hasher, Key};
use common::Rng;

/// The [`simd_pairs`] of d-2LHash and d-Hash, with d and the block size in bytes.
fn two_level_pairs() -> Vec<(Backend, Algorithm, u32, usize)> {
    simd_pairs()
        .into_iter()
        .filter_map(|(b, alg)| {
            let name = alg.to_string();
            let two_level = name.contains("-2LHash") || name.contains("-Hash1");
            let block = if name.ends_with("1271") { 15 } else { 16 };
            two_level.then(|| (b, alg, u32::from(name.as_bytes()[0] - b'0'), block))
        })
        .collect()
}

/// (backend, algorithm) pairs that can run here, other than portable.
fn simd_pairs() -> Vec<(Backend, Algorithm)> {
    let mut pairs = Vec::new();
    for b in Backend::ALL.into_iter().filter(|&b| b != Backend::Portable) {
        let algs: Vec<Algorithm> = Algorithm::all()
            .into_iter()
            .filter(|&a| b.implements(a))
            .collect();
        if algs.is_empty() {
            continue;
        }
        if !b.cpu_supports() {
            println!("skipping backend {b}: this CPU lacks its instructions");
            continue;
        }
        pairs.extend(algs.into_iter().map(|a| (b, a)));
    }
    pairs
}

/// Keys that put every limb of a radix-2^26, 2^44 or 2^52 representation at its maximum,
/// the all-ones key, and random ones.
fn keys(len: usize, rng: &mut Rng) -> Vec<Vec<u8>> {
    let mut keys = vec![vec![0xff; len], vec![0x00; len]];
    for bits in [26u32, 44, 52] {
        // Alternate saturated and zero limbs: 1s in limbs 0, 2, 4, ...
        let mut k = vec![0u8; len];
        for i in 0..8 * len as u32 {
            if (i / bits) % 2 == 0 {
                k[(i / 8) as usize] |= 1 << (i % 8);
            }
        }
        keys.push(k);
    }
    keys.extend((0..3).map(|_| rng.bytes(len)));
    keys
}

/// `msg` streamed as two updates, split at `split`.
/// Every split of `msg` into two updates gives `want`.
fn assert_every_split(key: &Key, msg: &[u8], want: &brwhash::Digest, label: &str) {
    for split in 0..=msg.len() {
        let mut h = Hasher::new(key);
        h.update(&msg[..split])
            .unwrap()
            .update(&msg[split..])
            .unwrap();
        assert_eq!(&h.finalize(), want, "{label} n={} split={split}", msg.len());
    }
}

/// `fast` (a key on a SIMD backend) gives the digest of `slow` (portable) for `msg`, by
/// `Key::hash` and by the one-shot API (its own stack-only paths).
fn assert_both_ways(fast: &Key, slow: &Key, key: &[u8], msg: &[u8]) {
    let (b, alg, n) = (fast.backend(), fast.algorithm(), msg.len());
    let want = slow.hash(msg);
    assert_eq!(fast.hash(msg), want, "{b} {alg} n={n}");
    assert_eq!(
        brwhash::hash_with_backend(alg, b, key, msg).unwrap(),
        want,
        "{b} {alg} one-shot n={n}"
    );
}

fn portable(alg: Algorithm, key: &[u8]) -> Key {
    Key::with_backend(alg, key, Backend::Portable).unwrap()
}

#[test]
fn every_length_to_2048_and_special_keys() {
    let mut rng = Rng(1);
    let pairs = simd_pairs();
    for &(b, alg) in &pairs {
        for key in keys(alg.key_len(), &mut rng) {
            let (fast, slow) = (
                Key::with_backend(alg, &key, b).unwrap(),
                portable(alg, &key),
            );
            assert_eq!(fast.backend(), b);
            let msg = rng.bytes(2048);
            let ones = vec![0xff; 2048];
            for n in 0..=2048 {
                assert_both_ways(&fast, &slow, &key, &msg[..n]);
                assert_eq!(
                    fast.hash(&ones[..n]),
                    slow.hash(&ones[..n]),
                    "{b} {alg} ff n={n}"
                );
            }
        }
    }
    println!("{} (backend, algorithm) pairs checked", pairs.len());
}

#[test]
fn random_lengths_to_one_mebibyte() {
    let mut rng = Rng(2);
    let msg = rng.bytes(1 << 20);
    for (b, alg) in simd_pairs() {
        let key = rng.bytes(alg.key_len());
        let (fast, slow) = (
            Key::with_backend(alg, &key, b).unwrap(),
            portable(alg, &key),
        );
        let mut lens: Vec<usize> = (0..12).map(|_| (rng.next() % (1 << 20)) as usize).collect();
        // Around the one-shot paths' switches: squarings between chunks below 32 KiB, the
        // stack-only one-shot up to 2^14 blocks, Estrin's scheme on IFMA lanes (4800 B and
        // 7 KiB on 8 lanes, 7 KiB and 7200 B on 4).
        lens.extend([
            4800,
            4801,
            7168,
            7169,
            7200,
            7215,
            7216,
            1 << 20,
            (1 << 20) - 1,
            65536,
            65537,
            4095,
            32767,
            32768,
            245_760,
            // Whole 4-decBRWHash periods (multiples of 512 B, of 480 B for 2^127-1), whose
            // last period takes the lane weights, with stack entries left beside it.
            25_088,
            64_512,
            64_800,
            122_880,
        ]);
        for n in lens {
            let want = slow.hash(&msg[..n]);
            assert_eq!(fast.hash(&msg[..n]), want, "{b} {alg} n={n}");
            assert_eq!(
                brwhash::hash_with_backend(alg, b, &key, &msg[..n]).unwrap(),
                want,
                "{b} {alg} one-shot n={n}"
            );
        }
    }
}

/// Long c-decBRWHash messages: more than 511 periods of 4-decBRWHash on 8 lanes (8 KiB each
/// in one-shot and in 64 KiB updates), so the stack of completed periods grows past its
/// inline entries; against the scalar backend (the portable one is slow at this length),
/// one-shot and streamed in pieces that do and do not divide a period. (Streams of small
/// updates take 4 ymm lanes where zmm runs in halves: `tests/cpu_class.rs` runs them on
/// periods there.)
#[test]
fn long_decbrw_messages() {
    let mut rng = Rng(5);
    let msg = rng.bytes((8 << 20) + 1234);
    for (b, alg) in simd_pairs() {
        if !matches!(
            alg.to_string().as_str(),
            "4-decBRWHash1305" | "4-decBRWHash1271"
        ) {
            continue;
        }
        let key = rng.bytes(alg.key_len());
        let want = Key::with_backend(alg, &key, Backend::Scalar)
            .unwrap()
            .hash(&msg);
        let fast = Key::with_backend(alg, &key, b).unwrap();
        assert_eq!(fast.hash(&msg), want, "{b} {alg} one-shot");
        // Whole periods (a multiple of 7680 bytes: of 512 and of 480), the last weighted.
        let whole = &msg[..1092 * 7680];
        let want_whole = Key::with_backend(alg, &key, Backend::Scalar)
            .unwrap()
            .hash(whole);
        assert_eq!(
            fast.hash(whole),
            want_whole,
            "{b} {alg} one-shot, whole periods"
        );
        for size in [4096, 65_000, 65_536] {
            let mut h = Hasher::new(&fast);
            for piece in msg.chunks(size) {
                h.update(piece).unwrap();
            }
            assert_eq!(h.finalize(), want, "{b} {alg} streamed in pieces of {size}");
        }
        // Pieces of random sizes: updates that start and end anywhere in a period, with
        // bytes held or not (a stream holds up to 16 chunks between updates).
        let part = &msg[..300_000];
        let want = Key::with_backend(alg, &key, Backend::Scalar)
            .unwrap()
            .hash(part);
        for round in 0..4 {
            let mut h = Hasher::new(&fast);
            let mut at = 0;
            while at < part.len() {
                let size = (rng.next() % [300, 5000, 9000, 20_000][round]) as usize;
                let end = (at + size).min(part.len());
                h.update(&part[at..end]).unwrap();
                at = end;
            }
            assert_eq!(h.finalize(), want, "{b} {alg} streamed in random pieces");
        }
        println!("{b} {alg}: long message checked");
    }
}

#[test]
fn streaming_split_points_and_unaligned_input() {
    let mut rng = Rng(3);
    for (b, alg) in simd_pairs() {
        let key = rng.bytes(alg.key_len());
        let (fast, slow) = (
            Key::with_backend(alg, &key, b).unwrap(),
            portable(alg, &key),
        );
        let msg = rng.bytes(300 + 64);
        for n in 0..=300 {
            let want = slow.hash(&msg[..n]);
            assert_every_split(&fast, &msg[..n], &want, &format!("{b} {alg}"));
            // The same bytes at every alignment.
            for offset in 1..64 {
                let copy: Vec<u8> = [&msg[..offset], &msg[..n]].concat();
                assert_eq!(
                    fast.hash(&copy[offset..]),
                    want,
                    "{b} {alg} offset={offset}"
                );
            }
        }
        // Across the crossovers from scalar to SIMD code (352..2048 bytes) and the scalar
        // chunks (up to 512 bytes): every split point, so the switch happens inside every
        // possible update.
        let msg = rng.bytes(2100);
        for n in [
            353, 449, 496, 497, 513, 641, 897, 1025, 1100, 1281, 1793, 2049,
        ] {
            let want = slow.hash(&msg[..n]);
            assert_every_split(&fast, &msg[..n], &want, &format!("{b} {alg}"));
        }
        // Large updates at every alignment (wide paths that start at block or super-block
        // boundaries must pick up mid-stream).
        let long = rng.bytes(30_000);
        for piece in [1000, 1985, 2500, 3840, 3841, 4096, 7777, 8192, 12_000] {
            let mut h = Hasher::new(&fast);
            for p in long.chunks(piece) {
                h.update(p).unwrap();
            }
            assert_eq!(
                h.finalize(),
                slow.hash(&long),
                "{b} {alg} pieces of {piece}"
            );
        }
        // Many small updates across chunk boundaries.
        let long = rng.bytes(5000);
        let mut h = Hasher::new(&fast);
        for piece in long.chunks(37) {
            h.update(piece).unwrap();
        }
        assert_eq!(h.finalize(), slow.hash(&long), "{b} {alg} pieces");
    }
}

#[test]
fn known_answers_on_every_backend() {
    let mut checked = 0;
    for file in ["kat.json", "extra.json"] {
        for k in common::kats(file) {
            let alg: Algorithm = k.algorithm.parse().unwrap();
            for b in Backend::ALL {
                if b.check(alg).is_err() || k.vector {
                    continue;
                }
                let out = if k.mac {
                    brwhash::Mac::with_backend(alg, &k.key, b)
                        .unwrap()
                        .tag(&k.components[0])
                } else {
                    Key::with_backend(alg, &k.key, b)
                        .unwrap()
                        .hash(&k.components[0])
                };
                assert_eq!(out.as_ref(), k.output.as_slice(), "{b} {alg}");
                checked += 1;
            }
        }
    }
    println!("{checked} known answers checked across backends");
}

#[test]
fn rfc8439_on_every_poly1305_backend() {
    let v = common::load("poly1305_rfc8439.json");
    for b in Backend::ALL
        .into_iter()
        .filter(|b| b.check(Algorithm::POLY1305).is_ok())
    {
        for c in v["vectors"].as_array().unwrap() {
            let key = hex::decode(c["key"].as_str().unwrap()).unwrap();
            let msg = hex::decode(c["message"].as_str().unwrap()).unwrap();
            let tag = Key::with_backend(Algorithm::POLY1305, &key, b)
                .unwrap()
                .hash(&msg);
            assert_eq!(
                tag.to_hex(),
                c["tag"].as_str().unwrap(),
                "{b} {}",
                c["name"]
            );
        }
    }
}

/// The Horner group size g (a tuning knob) changes no output: every prime-field function on
/// the portable and scalar backends, g = 1..8, lengths across several groups, one-shot and
/// streamed in uneven pieces; out-of-range g and SIMD backends are errors.
#[test]
fn horner_group_knob_keeps_every_output() {
    let mut rng = Rng(11);
    let backends: Vec<Backend> = [Backend::Portable, Backend::Scalar]
        .into_iter()
        .filter(|b| b.cpu_supports())
        .collect();
    for alg in Algorithm::all().into_iter().filter(|a| a.prime().is_some()) {
        let key = rng.bytes(alg.key_len());
        let want_key = portable(alg, &key);
        for &b in &backends {
            for g in 1..=8 {
                let k = Key::with_horner_group(alg, &key, b, g).unwrap();
                for n in [0, 1, 15, 16, 17, 100, 250, 496, 497, 1000, 3001] {
                    let msg = rng.bytes(n);
                    let want = want_key.hash(&msg);
                    assert_eq!(k.hash(&msg), want, "{alg} {b} g={g} n={n}");
                    let mut h = Hasher::new(&k);
                    for piece in msg.chunks(37) {
                        h.update(piece).unwrap();
                    }
                    assert_eq!(h.finalize(), want, "{alg} {b} g={g} n={n} streamed");
                }
            }
        }
        assert!(Key::with_horner_group(alg, &key, Backend::Portable, 0).is_err());
        assert!(Key::with_horner_group(alg, &key, Backend::Portable, 9).is_err());
        assert!(Key::with_horner_group(alg, &key, Backend::Avx2, 4).is_err());
    }
}

/// The (backend, vecHash2L) pairs of [`simd_pairs`].
fn vector_pairs() -> Vec<(Backend, Algorithm)> {
    let pairs: Vec<_> = simd_pairs()
        .into_iter()
        .filter(|(_, a)| a.is_vector())
        .collect();
    println!("{} (backend, vecHash2L) pairs", pairs.len());
    pairs
}

/// vecHash2L: vectors of 1..=255 components, empty ones among them, whose lengths reach every
/// way a component ends in the lanes (whole groups of 4 super-blocks, then 0..3 super-blocks,
/// then a shorter one), one-shot and streamed in pieces that cross components.
#[test]
fn vectors_of_components_on_every_backend() {
    let mut rng = Rng(6);
    for (b, alg) in vector_pairs() {
        let key = rng.bytes(alg.key_len());
        let (fast, slow) = (
            Key::with_backend(alg, &key, b).unwrap(),
            portable(alg, &key),
        );
        // Super-block bytes: 31 blocks of 16 or 32 bytes.
        let sb = 31 * alg.key_len();
        let mut sizes = vec![0, 1, sb - 1, sb, sb + 1, 2 * sb, 2 * sb + 17];
        for k in 0..=9 {
            sizes.extend([k * sb, k * sb + 5, k * sb + sb - 3]);
        }
        for count in [1, 2, 3, 7, 30, 255] {
            for _ in 0..3 {
                let comps: Vec<Vec<u8>> = (0..count)
                    .map(|_| {
                        let n = if count > 30 {
                            rng.below(300) as usize
                        } else {
                            sizes[rng.below(sizes.len() as u64) as usize]
                        };
                        rng.bytes(n)
                    })
                    .collect();
                let refs: Vec<&[u8]> = comps.iter().map(|c| c.as_slice()).collect();
                let want = slow.hash_vector(&refs).unwrap();
                assert_eq!(fast.hash_vector(&refs).unwrap(), want, "{b} {alg} {count}");
                for piece in [7, 500, 4096] {
                    assert_eq!(
                        common::stream_vector(&fast, &comps, piece),
                        want,
                        "{b} {alg} {count} pieces of {piece}"
                    );
                }
            }
        }
    }
}

/// vecHash2L of several components shorter than a group of four super-blocks, each with
/// 1..=3 whole super-blocks (one tree, a pair, a partial group) and a tail of every kind
/// (none, under 4 blocks, in xmm, across the lanes), mixed with empty, short and
/// group-sized components anywhere in the vector; keys all-ones and random.
#[test]
fn vectors_of_short_components() {
    let mut rng = Rng(11);
    for (b, alg) in vector_pairs() {
        let bytes = alg.key_len();
        let sb = 31 * bytes;
        for key in [vec![0xff; bytes], rng.bytes(bytes)] {
            let (fast, slow) = (
                Key::with_backend(alg, &key, b).unwrap(),
                portable(alg, &key),
            );
            let tails = [0, 1, 3, 4, 13, 14, 18, 19, 21, 22, 30];
            for round in 0..48 {
                let count = 2 + round % 6;
                let mut comps: Vec<Vec<u8>> = (0..count)
                    .map(|_| {
                        let whole = 1 + rng.below(3) as usize;
                        let tail = tails[rng.below(tails.len() as u64) as usize] * bytes;
                        let short = usize::from(tail > 0 && rng.below(2) == 0);
                        rng.bytes(whole * sb + tail - short)
                    })
                    .collect();
                // Another kind of component somewhere: empty, short, a group and more.
                let other = match round % 4 {
                    0 => 0,
                    1 => 3 * bytes + 5,
                    2 => 4 * sb + 5 * bytes,
                    _ => 9 * sb + sb - 3,
                };
                let at = rng.below(count as u64 + 1) as usize;
                if round % 8 < 6 {
                    comps.insert(at, rng.bytes(other));
                }
                let refs: Vec<&[u8]> = comps.iter().map(|c| c.as_slice()).collect();
                let lens: Vec<usize> = comps.iter().map(|c| c.len()).collect();
                assert_eq!(
                    fast.hash_vector(&refs).unwrap(),
                    slow.hash_vector(&refs).unwrap(),
                    "{b} {alg} {lens:?}"
                );
            }
        }
    }
}

/// Hash2L message lengths of every way a message ends after `groups` whole groups of 4
/// super-blocks (31 blocks of `bytes`): 0..=3 whole super-blocks, then a shorter one of every
/// block count 0..=30, its last block whole or one byte short.
fn super_block_shapes(groups: std::ops::RangeInclusive<usize>, bytes: usize) -> Vec<usize> {
    let sb = 31 * bytes;
    let mut lengths = Vec::new();
    for g in groups {
        for whole in 0..=3 {
            for r in 0..=30 {
                for short_by in [0, 1] {
                    lengths.push(((4 * g + whole) * sb + r * bytes).saturating_sub(short_by));
                }
            }
        }
    }
    lengths
}

/// Hash2L one-shot: every way a message ends after its whole groups of 4 super-blocks (none,
/// one, two): 0..=3 whole super-blocks, then a shorter one of every block count 0..=30, its
/// last block whole or one byte short; keys all-ones and random.
#[test]
fn hash2l_every_super_block_shape() {
    let mut rng = Rng(7);
    let pairs: Vec<_> = simd_pairs()
        .into_iter()
        .filter(|(_, a)| a.binary_field().is_some() && !a.is_vector())
        .collect();
    println!("{} (backend, Hash2L) pairs", pairs.len());
    for (b, alg) in pairs {
        let bytes = alg.key_len();
        let sb = 31 * bytes;
        let msg = rng.bytes(2 * 4 * sb + 4 * sb);
        for key in [vec![0xff; bytes], rng.bytes(bytes)] {
            let (fast, slow) = (
                Key::with_backend(alg, &key, b).unwrap(),
                portable(alg, &key),
            );
            for n in super_block_shapes(0..=2, bytes) {
                assert_both_ways(&fast, &slow, &key, &msg[..n]);
            }
        }
    }
}

/// Hash2L and vecHash2L streamed past the first group of 4 super-blocks: every way the bytes
/// held at the end follow the lanes (0..=3 whole super-blocks, then a shorter one of every
/// block count 0..=30, its last block whole or one byte short), the message in one update
/// and split at a random point; for vecHash2L the same as the last of two components (the
/// first one also in the lanes, or short). The end weighs the lanes and the held bytes at
/// once, as a whole message's does.
#[test]
fn hash2l_streams_end_after_the_lanes() {
    let mut rng = Rng(12);
    let pairs: Vec<_> = simd_pairs()
        .into_iter()
        .filter(|(_, a)| a.binary_field().is_some())
        .collect();
    for (b, alg) in pairs {
        let bytes = alg.key_len();
        let sb = 31 * bytes;
        let msg = rng.bytes(3 * 4 * sb + 4 * sb);
        let first = rng.bytes(5 * sb + 7);
        for key in [vec![0xff; bytes], rng.bytes(bytes)] {
            let (fast, slow) = (
                Key::with_backend(alg, &key, b).unwrap(),
                portable(alg, &key),
            );
            for n in super_block_shapes(1..=3, bytes) {
                let m = &msg[..n];
                let cut = rng.below(n as u64 + 1) as usize;
                if alg.is_vector() {
                    for lead in [&first[..], &first[..40]] {
                        let want = slow.hash_vector(&[lead, m]).unwrap();
                        let mut h = Hasher::new(&fast);
                        h.update(lead).unwrap().next_component().unwrap();
                        h.update(&m[..cut]).unwrap().update(&m[cut..]).unwrap();
                        assert_eq!(h.finalize(), want, "{b} {alg} n={n} cut={cut}");
                    }
                } else {
                    let want = slow.hash(m);
                    let mut h = Hasher::new(&fast);
                    h.update(m).unwrap();
                    assert_eq!(h.finalize(), want, "{b} {alg} n={n}");
                    let mut h = Hasher::new(&fast);
                    h.update(&m[..cut]).unwrap().update(&m[cut..]).unwrap();
                    assert_eq!(h.into_digest(), want, "{b} {alg} n={n} cut={cut}");
                }
            }
        }
        println!("{b} {alg}: stream ends after the lanes checked");
    }
}

/// Streamed d-2LHash and d-Hash on SIMD lanes: a stream switches to the lanes after 8 (d >= 4)
/// or 16 super-blocks, then holds super-blocks short of a group of 4 between updates and
/// sends whole groups straight from the caller's bytes. Every split point of a message past
/// the switch and a group, three-way splits, and pieces of a super-block, a group and one
/// byte either side, against the portable backend.
#[test]
fn two_level_streams_across_the_lanes() {
    let mut rng = Rng(11);
    for (b, alg, d, block) in two_level_pairs() {
        let sb = ((1 << d) - 1) * block;
        let switch = if d >= 4 { 8 } else { 16 };
        let key = rng.bytes(alg.key_len());
        let (fast, slow) = (
            Key::with_backend(alg, &key, b).unwrap(),
            portable(alg, &key),
        );
        let msg = rng.bytes((switch + 9) * sb + 40);
        // Whole messages of every count of super-blocks mod 4 and 8 (the lanes' groups, the
        // r left over going first), with and without blocks after them.
        for k in 0..9 {
            for extra in [0, 1, block, 3 * block + 2] {
                assert_both_ways(&fast, &slow, &key, &msg[..(switch + k) * sb + extra]);
            }
        }
        let n = (switch + 5) * sb + 7;
        let want = slow.hash(&msg[..n]);
        assert_every_split(&fast, &msg[..n], &want, &format!("{b} {alg}"));
        for _ in 0..300 {
            let mut cuts = [rng.next() as usize % (n + 1), rng.next() as usize % (n + 1)];
            cuts.sort_unstable();
            let mut h = Hasher::new(&fast);
            h.update(&msg[..cuts[0]]).unwrap();
            h.update(&msg[cuts[0]..cuts[1]]).unwrap();
            h.update(&msg[cuts[1]..n]).unwrap();
            assert_eq!(h.finalize(), want, "{b} {alg} n={n} cuts={cuts:?}");
        }
        for len in [
            msg.len(),
            msg.len() - 1,
            (switch + 4) * sb,
            (switch + 8) * sb,
        ] {
            let want = slow.hash(&msg[..len]);
            for piece in [
                1,
                7,
                sb - 1,
                sb,
                sb + 1,
                4 * sb - 1,
                4 * sb,
                4 * sb + 1,
                9 * sb,
            ] {
                let mut h = Hasher::new(&fast);
                for p in msg[..len].chunks(piece) {
                    h.update(p).unwrap();
                }
                assert_eq!(h.finalize(), want, "{b} {alg} len={len} pieces of {piece}");
            }
        }
        println!("{b} {alg}: streams across the lanes checked");
    }
}

/// Whole d-2LHash and d-Hash messages of 8 to 41 super-blocks: every count mod 8 (the
/// super-blocks that go before the whole groups of 8 IFMA lanes, in scalar code or on the
/// lanes), below and above 32 (where every count takes the 8 lanes on a CPU that runs zmm
/// at full width), with 0, 1, a block, 3 blocks and a byte, and all but one block after
/// them; keys all-ones and random; with a key and one-shot, against the portable backend.
#[test]
fn two_level_eight_lanes_every_remainder() {
    let mut rng = Rng(23);
    for (b, alg, d, block) in two_level_pairs() {
        let delta = (1 << d) - 1;
        let sb = delta * block;
        let msg = rng.bytes(43 * sb);
        for key in [vec![0xff; alg.key_len()], rng.bytes(alg.key_len())] {
            let (fast, slow) = (
                Key::with_backend(alg, &key, b).unwrap(),
                portable(alg, &key),
            );
            for nsb in 8..=41 {
                for extra in [0, 1, block, 3 * block + 1, (delta - 1) * block] {
                    assert_both_ways(&fast, &slow, &key, &msg[..nsb * sb + extra]);
                }
            }
        }
    }
}

/// A key builds its tables (SIMD lane powers and weights, c-decBRWHash's short-message
/// weights) at its second message, so a key's first message takes the ways without them:
/// for a new key per message, the first message, the same message again (with the tables)
/// and the portable digest agree, at the lengths where those ways part (1..=2 blocks per
/// stream for c <= 8, the one-shot crossovers, Estrin's limits, whole periods).
#[test]
fn first_message_without_tables_agrees() {
    let mut rng = Rng(43);
    let msg = rng.bytes(20_000);
    let lens: Vec<usize> = (0..=300)
        .step_by(7)
        .chain((0..=16).map(|c| c * 15))
        .chain((0..=32).map(|c| c * 16))
        .chain([
            480, 512, 1024, 1792, 2048, 3840, 4096, 4800, 7168, 7200, 8192, 16384, 20_000,
        ])
        .collect();
    let mut checked = 0;
    for (b, alg) in simd_pairs() {
        if alg.prime().is_none() {
            continue;
        }
        let key = rng.bytes(alg.key_len());
        let slow = portable(alg, &key);
        for &n in &lens {
            let m = &msg[..n];
            let fast = Key::with_backend(alg, &key, b).unwrap();
            let first = fast.hash(m);
            assert_eq!(first, slow.hash(m), "{b} {alg} n={n}: first message");
            assert_eq!(fast.hash(m), first, "{b} {alg} n={n}: second message");
            let mut h = Hasher::new(&fast);
            h.update(m).unwrap();
            assert_eq!(h.finalize(), first, "{b} {alg} n={n}: streamed third");
            checked += 1;
        }
    }
    println!("{checked} (backend, algorithm, length) cases checked");
}

/// A prime-field key computes the squarings of messages up to `KEY_SQUARES_BYTES` and the
/// rest at its first longer message: a key whose squarings serve only 100 bytes
/// (`Key::with_squares_for`) gives the portable digest of a full key on every backend,
/// for messages on both sides of that bound, hashed whole and streamed across it, in either
/// order.
#[test]
fn keys_extend_their_squarings_for_longer_messages() {
    let mut rng = Rng(47);
    let msg = rng.bytes(40_000);
    let mut pairs = simd_pairs();
    pairs.extend(Algorithm::all().into_iter().map(|a| (Backend::Portable, a)));
    let mut checked = 0;
    for (b, alg) in pairs {
        if alg.prime().is_none() {
            continue;
        }
        let key = rng.bytes(alg.key_len());
        let full = portable(alg, &key);
        let short = Key::with_squares_for(alg, &key, b, 100).unwrap();
        let streamed = Key::with_squares_for(alg, &key, b, 100).unwrap();
        for n in [0, 100, 101, 3000, 40_000, 7] {
            let m = &msg[..n];
            let want = full.hash(m);
            assert_eq!(short.hash(m), want, "{b} {alg} n={n}");
            let mut h = Hasher::new(&streamed);
            for piece in m.chunks(61) {
                h.update(piece).unwrap();
            }
            assert_eq!(h.finalize(), want, "{b} {alg} n={n} streamed");
            assert_eq!(
                h.into_digest(),
                want,
                "{b} {alg} n={n} streamed, into_digest"
            );
            checked += 1;
        }
    }
    println!("{checked} (backend, algorithm, length) cases checked");
}
