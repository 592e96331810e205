//! SPEC.md section 8 limits, tested from outside the crate:
//!
//! - messages whose bit count L = 8N crosses 2^32 (N = 2^29 - 1, 2^29, 2^29 + 1) and whose
//!   byte count crosses 2^32 (N = 2^32 - 1, 2^32, 2^32 + 17) hash exactly: streamed through
//!   `Hasher` on the default backend (SIMD where the CPU has it), one-shot and on all cores,
//!   against digests that `reference/long_messages.py` computes independently (an algebraic
//!   shortcut for periodic messages, itself checked against the executable definition
//!   `brwhash_ref.py`) into `tests/vectors/limits.json`;
//! - the length block itself, x * L, at N up to `MAX_MESSAGE_BYTES` = 2^61 - 1 (L = 2^64 - 8),
//!   where hashing is out of reach: with the crate's (doc-hidden) field types;
//! - lengths past the limit and component counts past 255 are errors, never wrapped.
//!
//! The messages follow the SPEC 10 rule `bytes(i % 256 for i in range(N))` (or a fill byte),
//! so one buffer of a piece plus 256 bytes serves every piece of a 4 GiB stream.
//!
//! The tests that stream every algorithm past 4 GiB take minutes, so they are `#[ignore]`d
//! and `scripts/sanitizers.sh` runs them (`cargo test --release -p brwhash --test limits --
//! --ignored`); the default run covers every construction and every kind of backend with a
//! representative set of algorithms (about 20 s on two cores).

mod common;

use std::time::Instant;

use brwhash::{Algorithm, Error, Hasher, Key, Mac, MAX_COMPONENTS, MAX_MESSAGE_BYTES};
use serde_json::Value;

/// Bytes per `update` call: odd, so the pieces start at every offset of the 15-, 16- and
/// 32-byte blocks (and of the SIMD backends' wider groups).
const PIECE: usize = 1_000_003;

/// The lengths `long_messages.py` gives digests for (`STREAM_LENGTHS` there), in order.
const CHECKPOINTS: [u64; 6] = [
    (1 << 29) - 1,
    1 << 29,
    (1 << 29) + 1,
    (1 << 32) - 1,
    1 << 32,
    (1 << 32) + 17,
];

/// Algorithms streamed past 4 GiB in the default run: every construction, both primes, both
/// binary fields, and every kind of code path here (IFMA / AVX lanes for polyHash, Poly1305
/// and 4-/8-decBRWHash, scalar code for the BRW and two-level functions, VPCLMULQDQ for
/// Hash2L); the `#[ignore]`d tests take all 65.
const PRIME_SET: [&str; 16] = [
    "Poly1305",
    "polyHash1271",
    "polyHash1305",
    "BRWHash1271",
    "BRWHash1305",
    "5-BRWHash1271",
    "3-BRWHash1305",
    "2-2LHash1271",
    "4-2LHash1305",
    "4-Hash1271",
    "5-Hash1305",
    "1-decBRWHash1271",
    "3-decBRWHash1271",
    "8-decBRWHash1271",
    "4-decBRWHash1305",
    "16-decBRWHash1305",
];
const BINARY_SET: [&str; 4] = ["Hash2L128", "Hash2L256", "vecHash2L128", "vecHash2L256"];

/// One expected digest of `tests/vectors/limits.json`.
struct Expected {
    alg: Algorithm,
    key: Vec<u8>,
    fill: Option<u8>,
    /// The message length, or the component lengths of a vecHash2L vector.
    lens: Vec<u64>,
    vector: bool,
    output: Vec<u8>,
}

fn expected() -> Vec<Expected> {
    let v = common::load("limits.json");
    v["vectors"]
        .as_array()
        .expect("vectors array")
        .iter()
        .map(|c| {
            assert_eq!(c["mode"], "digest");
            let (lens, vector) = match c.get("component_lens") {
                Some(l) => (
                    l.as_array()
                        .unwrap()
                        .iter()
                        .map(|n| n.as_u64().unwrap())
                        .collect(),
                    true,
                ),
                None => (vec![c["msg_len"].as_u64().unwrap()], false),
            };
            Expected {
                alg: c["algorithm"].as_str().unwrap().parse().unwrap(),
                key: hex::decode(c["key"].as_str().unwrap()).unwrap(),
                fill: c.get("msg_fill").map(|f| f.as_u64().unwrap() as u8),
                lens,
                vector,
                output: hex::decode(c["output"].as_str().unwrap()).unwrap(),
            }
        })
        .collect()
}

/// The expected digest of `alg` for the one message of `len` bytes (`fill` or the SPEC 10 rule).
fn want(all: &[Expected], alg: Algorithm, fill: Option<u8>, len: u64) -> &Expected {
    all.iter()
        .find(|e| e.alg == alg && e.fill == fill && !e.vector && e.lens == [len])
        .unwrap_or_else(|| panic!("limits.json has no {alg} fill={fill:?} N={len}"))
}

/// The SPEC 10 message (or `fill` repeated) cut into pieces from one buffer: bytes
/// `pos..pos + n` of the message are `at(pos, n)`.
struct Pattern {
    buf: Vec<u8>,
}

impl Pattern {
    fn new(fill: Option<u8>, longest: usize) -> Pattern {
        Pattern {
            buf: common::message(longest + 256, fill),
        }
    }

    fn at(&self, pos: u64, n: usize) -> &[u8] {
        let o = (pos % 256) as usize;
        &self.buf[o..o + n]
    }

    /// Fill `out` with the message bytes from `pos` on (a positioned reader).
    #[cfg_attr(not(feature = "parallel"), allow(dead_code))]
    fn read(&self, pos: u64, out: &mut [u8]) {
        let step = self.buf.len() - 256;
        for (i, chunk) in out.chunks_mut(step).enumerate() {
            let n = chunk.len();
            chunk.copy_from_slice(self.at(pos + (i * step) as u64, n));
        }
    }
}

/// Streams message bytes `from..to` into `h` in pieces of `PIECE` bytes.
fn stream(h: &mut Hasher, pat: &Pattern, from: u64, to: u64) {
    let mut pos = from;
    while pos < to {
        let n = PIECE.min((to - pos) as usize);
        h.update(pat.at(pos, n)).expect("below the limit");
        pos += n as u64;
    }
}

/// Streams one message of `CHECKPOINTS.last()` bytes through a hasher for `alg` on the default
/// backend, finalizing at every checkpoint (a hasher goes on after `finalize`). Returns the
/// failures instead of panicking at the first one, so one run reports every algorithm.
fn stream_checkpoints(all: &[Expected], alg: Algorithm, fill: Option<u8>) -> Vec<String> {
    let key_bytes = &want(all, alg, fill, CHECKPOINTS[0]).key;
    let key = Key::new(alg, key_bytes).unwrap();
    let pat = Pattern::new(fill, PIECE);
    let start = Instant::now();
    let mut h = Hasher::new(&key);
    let mut pos = 0;
    let mut failures = Vec::new();
    for n in CHECKPOINTS {
        stream(&mut h, &pat, pos, n);
        pos = n;
        let got = h.finalize();
        let e = want(all, alg, fill, n);
        if got.as_bytes() != e.output.as_slice() {
            failures.push(format!(
                "{alg} on {} fill={fill:?} N={n}: got {} want {}",
                key.backend(),
                got.to_hex(),
                hex::encode(&e.output)
            ));
        }
    }
    println!(
        "{alg:>18} on {:>8}: streamed {} bytes, {} checkpoints in {:.1} s",
        key.backend(),
        pos,
        CHECKPOINTS.len(),
        start.elapsed().as_secs_f64()
    );
    failures
}

/// A vecHash2L vector whose components follow the SPEC 10 rule (the counter restarts in each
/// one), streamed with `next_component`.
fn stream_vector(e: &Expected) -> Option<String> {
    let key = Key::new(e.alg, &e.key).unwrap();
    let pat = Pattern::new(e.fill, PIECE);
    let mut h = Hasher::new(&key);
    for (i, &n) in e.lens.iter().enumerate() {
        if i > 0 {
            h.next_component().unwrap();
        }
        stream(&mut h, &pat, 0, n);
    }
    let got = h.finalize();
    (got.as_bytes() != e.output.as_slice()).then(|| {
        format!(
            "{} on {} components {:?}: got {} want {}",
            e.alg,
            key.backend(),
            e.lens,
            got.to_hex(),
            hex::encode(&e.output)
        )
    })
}

fn run_stream_set(names: &[&str], fill: Option<u8>) {
    let all = expected();
    let mut failures = Vec::new();
    for name in names {
        let alg: Algorithm = name.parse().unwrap();
        failures.extend(stream_checkpoints(&all, alg, fill));
        if alg.is_vector() && fill.is_none() {
            for e in all.iter().filter(|e| e.alg == alg && e.vector) {
                failures.extend(stream_vector(e));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Bit count crossing 2^32 and byte count crossing 2^32, streamed: prime fields.
#[test]
#[cfg_attr(miri, ignore = "streams 4 GiB per algorithm")]
fn stream_past_4_gib_prime_fields() {
    run_stream_set(&PRIME_SET, None);
}

/// The same for GF(2^128) and GF(2^256), and vecHash2L vectors with a 4 GiB + 17 component
/// between short ones (the length block of each component, k in the last one's top byte).
#[test]
#[cfg_attr(miri, ignore = "streams 4 GiB per algorithm")]
fn stream_past_4_gib_binary_fields() {
    run_stream_set(&BINARY_SET, None);
}

/// Every other algorithm of the 65, streamed past 4 GiB (about 80 s on one core).
#[test]
#[ignore = "minutes: scripts/sanitizers.sh runs it in release mode"]
fn stream_past_4_gib_every_other_algorithm() {
    let names: Vec<String> = Algorithm::all()
        .into_iter()
        .map(|a| a.to_string())
        .filter(|n| !PRIME_SET.contains(&n.as_str()) && !BINARY_SET.contains(&n.as_str()))
        .collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    run_stream_set(&names, None);
}

/// All 65 algorithms on the all-zero message of 4 GiB + 17 bytes: the digest then depends on
/// the message only through the block count and L.
#[test]
#[ignore = "minutes: scripts/sanitizers.sh runs it in release mode"]
fn stream_past_4_gib_zero_message_every_algorithm() {
    let all = expected();
    let mut failures = Vec::new();
    for alg in Algorithm::all() {
        let e = want(&all, alg, Some(0), CHECKPOINTS[5]);
        let key = Key::new(alg, &e.key).unwrap();
        let pat = Pattern::new(Some(0), PIECE);
        let mut h = Hasher::new(&key);
        stream(&mut h, &pat, 0, CHECKPOINTS[5]);
        let got = h.finalize();
        if got.as_bytes() != e.output.as_slice() {
            failures.push(format!(
                "{alg} on {} zeros: got {}",
                key.backend(),
                got.to_hex()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// One-shot (`brwhash::hash`, whose key powers are sized for the length, and `Key::hash`)
/// across L = 2^32: N = 2^29 - 1, 2^29, 2^29 + 1 in one 512 MiB buffer.
#[test]
#[cfg_attr(miri, ignore = "512 MiB")]
fn one_shot_across_bit_count_2_pow_32() {
    let all = expected();
    let buf = common::message(CHECKPOINTS[2] as usize, None);
    let mut failures = Vec::new();
    for name in PRIME_SET.iter().chain(&BINARY_SET) {
        let alg: Algorithm = name.parse().unwrap();
        for &n in &CHECKPOINTS[..3] {
            let e = want(&all, alg, None, n);
            let msg = &buf[..n as usize];
            let one_shot = brwhash::hash(alg, &e.key, msg).unwrap();
            let keyed = Key::new(alg, &e.key).unwrap().hash(msg);
            for (how, got) in [("brwhash::hash", one_shot), ("Key::hash", keyed)] {
                if got.as_bytes() != e.output.as_slice() {
                    failures.push(format!("{alg} {how} N={n}: got {}", got.to_hex()));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// One-shot of a message of 4 GiB + 17 bytes held in memory (4 GiB of RAM).
#[test]
#[ignore = "4 GiB of RAM: scripts/sanitizers.sh runs it in release mode"]
fn one_shot_past_4_gib() {
    let all = expected();
    let n = CHECKPOINTS[5];
    let buf = common::message(n as usize, None);
    let mut failures = Vec::new();
    for name in PRIME_SET.iter().chain(&BINARY_SET) {
        let alg: Algorithm = name.parse().unwrap();
        let e = want(&all, alg, None, n);
        let got = brwhash::hash(alg, &e.key, &buf).unwrap();
        if got.as_bytes() != e.output.as_slice() {
            failures.push(format!("{alg} one-shot N={n}: got {}", got.to_hex()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[cfg(feature = "parallel")]
fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

/// `Key::hash_parallel_read_at` past 4 GiB on two threads (pieces joined at offsets past
/// 2^32) and `Key::hash_parallel` across L = 2^32, against the same digests.
#[cfg(feature = "parallel")]
#[test]
#[cfg_attr(miri, ignore = "streams 4 GiB per algorithm")]
fn parallel_past_4_gib() {
    let all = expected();
    let pat = Pattern::new(None, 4 << 20);
    let read_at = |offset: u64, buf: &mut [u8]| {
        pat.read(offset, buf);
        Ok(())
    };
    let n = CHECKPOINTS[5];
    let mut failures = Vec::new();
    let names = [
        "Poly1305",
        "polyHash1271",
        "BRWHash1305",
        "5-BRWHash1271",
        "4-2LHash1305",
        "4-Hash1271",
        "4-decBRWHash1305",
        "8-decBRWHash1271",
        "Hash2L128",
        "Hash2L256",
        "vecHash2L128",
    ];
    for name in names {
        let alg: Algorithm = name.parse().unwrap();
        let e = want(&all, alg, None, n);
        let key = Key::new(alg, &e.key).unwrap();
        let got = pool(2)
            .install(|| key.hash_parallel_read_at(n, &read_at))
            .unwrap();
        if got.as_bytes() != e.output.as_slice() {
            failures.push(format!(
                "{alg} hash_parallel_read_at N={n}: got {}",
                got.to_hex()
            ));
        }
    }
    let buf = common::message(CHECKPOINTS[2] as usize, None);
    for name in names {
        let alg: Algorithm = name.parse().unwrap();
        let key = Key::new(alg, &want(&all, alg, None, 1 << 29).key).unwrap();
        for &n in &CHECKPOINTS[..3] {
            let got = pool(2).install(|| key.hash_parallel(&buf[..n as usize]));
            if got.as_bytes() != want(&all, alg, None, n).output.as_slice() {
                failures.push(format!("{alg} hash_parallel N={n}: got {}", got.to_hex()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---------------------------------------------------------------------------------------
// The length block at lengths that cannot be hashed here.
// ---------------------------------------------------------------------------------------

/// x * L for L = 8N up to N = MAX_MESSAGE_BYTES (L = 2^64 - 8), by the field types and the
/// conversion the constructions use for the length block (`from_u64(8N)` for the primes,
/// eight little-endian bytes for the binary fields), against `long_messages.py`.
#[test]
#[cfg_attr(miri, ignore = "parsing limits.json takes Miri about a minute")]
fn length_block_products_up_to_the_limit() {
    use brwhash::field::{BinaryField, Fp1271, Fp1305, Gf128, Gf256, PrimeField};

    fn prime<F: PrimeField>(key: &[u8], l: u64) -> Vec<u8> {
        let x = F::from_key(key.try_into().unwrap());
        x.mul(F::from_u64(l)).to_digest().to_le_bytes().to_vec()
    }
    fn binary<F: BinaryField>(key: &[u8], l: u64) -> Vec<u8> {
        let mut out = vec![0u8; F::BYTES];
        F::from_bytes(key)
            .mul(F::from_bytes(&l.to_le_bytes()))
            .write_bytes(&mut out);
        out
    }

    let v = common::load("limits.json");
    let rows = v["length_blocks"].as_array().expect("length_blocks");
    let mut seen_max = 0;
    for r in rows {
        let n = r["msg_len"].as_u64().unwrap();
        assert!(n <= MAX_MESSAGE_BYTES);
        // Every accepted length has its bit count in a u64: no wrap below the limit.
        let l = n
            .checked_mul(8)
            .expect("8N fits in 64 bits for N <= MAX_MESSAGE_BYTES");
        assert_eq!(
            hex::encode(l.to_le_bytes()),
            r["length_block"].as_str().unwrap()
        );
        let key = hex::decode(r["key"].as_str().unwrap()).unwrap();
        let got = match r["field"].as_str().unwrap() {
            "1271" => prime::<Fp1271>(&key, l),
            "1305" => prime::<Fp1305>(&key, l),
            "128" => binary::<Gf128>(&key, l),
            "256" => binary::<Gf256>(&key, l),
            f => panic!("unknown field {f}"),
        };
        assert_eq!(
            hex::encode(got),
            r["x_times_length"].as_str().unwrap(),
            "field {} N={n}",
            r["field"]
        );
        seen_max += usize::from(n == MAX_MESSAGE_BYTES);
    }
    assert_eq!(seen_max, 4, "every field at N = MAX_MESSAGE_BYTES");
}

/// The limit is exactly where L = 8N stops fitting in 64 bits (SPEC 8: N < 2^61).
#[test]
fn limit_is_the_last_length_whose_bit_count_fits() {
    assert_eq!(MAX_MESSAGE_BYTES, (1 << 61) - 1);
    assert_eq!(MAX_MESSAGE_BYTES.checked_mul(8), Some(u64::MAX - 7));
    assert_eq!((MAX_MESSAGE_BYTES + 1).checked_mul(8), None);
    assert_eq!(MAX_COMPONENTS, 255);
    // The first length that would wrap gives L = 0 mod 2^64, the empty message's.
    assert_eq!((MAX_MESSAGE_BYTES + 1).wrapping_mul(8), 0);
}

// ---------------------------------------------------------------------------------------
// Past the limits: errors, never a wrapped length.
// ---------------------------------------------------------------------------------------

/// Lengths past 2^61 - 1 given to the positioned-reader APIs (the only public ones that take
/// a length rather than a slice) are errors, and nothing is read. Lengths whose 8N wraps to a
/// small number (2^61 + 1 gives L = 8) must not hash as that.
#[cfg(feature = "parallel")]
#[test]
fn parallel_read_at_rejects_lengths_past_the_limit() {
    use std::sync::atomic::{AtomicUsize, Ordering};

    let reads = AtomicUsize::new(0);
    let read_at = |_offset: u64, buf: &mut [u8]| {
        reads.fetch_add(1, Ordering::Relaxed);
        buf.fill(0);
        Ok(())
    };
    let too_long = [
        MAX_MESSAGE_BYTES + 1,
        MAX_MESSAGE_BYTES + 2,
        (1 << 61) + (1 << 32),
        1 << 62,
        u64::MAX - 7,
        u64::MAX,
    ];
    for alg in Algorithm::all() {
        let key = Key::new(alg, &vec![0x11; alg.key_len()]).unwrap();
        for n in too_long {
            for threads in [1, 2] {
                let err = pool(threads)
                    .install(|| key.hash_parallel_read_at(n, &read_at))
                    .expect_err("past the limit");
                assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput, "{alg} N={n}");
                let inner = err.into_inner().expect("a brwhash::Error inside");
                assert_eq!(
                    inner.downcast_ref::<Error>(),
                    Some(&Error::MessageTooLong),
                    "{alg} N={n}"
                );
            }
        }
        if let Some(k) = alg.mac_key_len() {
            let mac = Mac::new(alg, &vec![0x22; k]).unwrap();
            for n in too_long {
                assert!(
                    mac.tag_parallel_read_at(n, &read_at).is_err(),
                    "{alg} N={n}"
                );
            }
        }
    }
    assert_eq!(
        reads.load(Ordering::Relaxed),
        0,
        "nothing is read past the limit"
    );
}

/// vecHash2L: 1..=255 components; 0 and 256 are errors for every API, and a hasher refuses
/// the 256th component while keeping its 255.
#[test]
fn component_count_limits() {
    for alg in [Algorithm::VECHASH2L128, Algorithm::VECHASH2L256] {
        let key_bytes = vec![0x5c; alg.key_len()];
        let key = Key::new(alg, &key_bytes).unwrap();
        let mac_key = vec![0x6d; alg.mac_key_len().unwrap()];
        let mac = Mac::new(alg, &mac_key).unwrap();
        let parts: Vec<Vec<u8>> = (0..=MAX_COMPONENTS)
            .map(|i| vec![i as u8; i % 40])
            .collect();
        let refs: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
        let max = &refs[..MAX_COMPONENTS];
        let over = &refs[..MAX_COMPONENTS + 1];
        assert_eq!(
            brwhash::hash_vector(alg, &key_bytes, over),
            Err(Error::ComponentCount(256))
        );
        assert_eq!(key.hash_vector(over), Err(Error::ComponentCount(256)));
        assert_eq!(key.hash_vector(&[]), Err(Error::ComponentCount(0)));
        assert_eq!(
            brwhash::hash_vector(alg, &key_bytes, &[]),
            Err(Error::ComponentCount(0))
        );
        assert!(mac.tag_vector(over).is_err());
        assert!(!mac.verify_vector(over, &[0; 32][..alg.digest_len()]));
        let want = key.hash_vector(max).unwrap();
        assert_eq!(brwhash::hash_vector(alg, &key_bytes, max).unwrap(), want);
        // 255 components differ from their first 254 (the count is in the last length block).
        assert_ne!(key.hash_vector(&max[..254]).unwrap(), want);
        let mut h = Hasher::new(&key);
        for (i, p) in max.iter().enumerate() {
            if i > 0 {
                h.next_component().unwrap();
            }
            h.update(p).unwrap();
        }
        assert_eq!(
            h.next_component().err(),
            Some(Error::ComponentCount(256)),
            "{alg}"
        );
        assert_eq!(
            h.finalize(),
            want,
            "{alg}: the refused component left no trace"
        );
        let mut m = mac.hasher();
        for (i, p) in max.iter().enumerate() {
            if i > 0 {
                m.next_component().unwrap();
            }
            m.update(p).unwrap();
        }
        assert!(m.next_component().is_err());
        assert_eq!(m.finalize(), mac.tag_vector(max).unwrap());
    }
}

/// The stored vectors are what this file expects: every algorithm at every checkpoint, the
/// zero message, and the vecHash2L vectors (a truncated or stale limits.json fails here).
#[test]
#[cfg_attr(miri, ignore = "parsing limits.json takes Miri about a minute")]
fn limits_json_is_complete() {
    let all = expected();
    for alg in Algorithm::all() {
        for n in CHECKPOINTS {
            let e = want(&all, alg, None, n);
            assert_eq!(e.key.len(), alg.key_len());
            assert_eq!(e.output.len(), alg.digest_len());
        }
        want(&all, alg, Some(0), CHECKPOINTS[5]);
    }
    let vectors = all.iter().filter(|e| e.vector).count();
    assert_eq!(vectors, 4);
    let v: Value = common::load("limits.json");
    assert_eq!(v["length_blocks"].as_array().unwrap().len(), 40);
}
