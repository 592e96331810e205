//! The CPU-class choices (`BRWHASH_ZMM_HALVES`): where the CPU runs zmm in halves (Zen 4),
//! one-shot polyHash / Poly1305 on IFMA takes 4 ymm lanes and the scalar crossovers differ,
//! and 4-decBRWHash takes 4 ymm lanes for short messages and streams of small updates.
//! This binary forces the choice this CPU does not make, so that both paths are tested on
//! any CPU with IFMA (the rest of the suite runs the CPU's own); the digests must not change.

mod common;

use brwhash::{Algorithm, Backend, Hasher, Key};
use common::Rng;

#[test]
fn the_other_cpu_class_gives_the_same_digests() {
    if !Backend::Ifma.cpu_supports() {
        println!("skipping: this CPU lacks AVX-512 IFMA");
        return;
    }
    let other = if brwhash::backend::cpu_runs_zmm_in_halves() {
        "0"
    } else {
        "1"
    };
    // The only test of this binary: nothing has read the variable yet.
    std::env::set_var("BRWHASH_ZMM_HALVES", other);
    let mut rng = Rng(0x2e11);
    let algs = [
        Algorithm::POLY1305,
        Algorithm::POLYHASH1305,
        Algorithm::POLYHASH1271,
        "4-decBRWHash1305".parse().unwrap(),
        "4-decBRWHash1271".parse().unwrap(),
        "4-Hash1271".parse().unwrap(),
        "5-2LHash1305".parse().unwrap(),
    ];
    // Every length to 2 KiB (every crossover and ymm group shape), then lengths around the
    // one-shot ymm limits (14 KiB for 2^130 - 5, 18 KiB for 2^127 - 1), Estrin's scheme's
    // (56 and 40 zmm vector blocks: 7 KiB and 4800 B; 112 and 120 ymm vector blocks: 7 KiB
    // and 7200 B), and 4-decBRWHash's 4-lane limit (8 KiB where zmm runs in halves, 1792 B
    // elsewhere); d-2LHash takes 8 zmm lanes from 8 super-blocks only where zmm runs at
    // full width (4-Hash1271 from 1800 B, 5-2LHash1305 from 3968 B).
    let mut lengths: Vec<usize> = (0..=2048).collect();
    lengths.extend([
        3583,
        3584,
        3585,
        3600,
        4000,
        4799,
        4800,
        4801,
        6000,
        7167,
        7168,
        7169,
        7199,
        7200,
        7201,
        7215,
        7216,
        8191,
        8192,
        8193,
        14 * 1024 - 1,
        14 * 1024,
        14 * 1024 + 17,
        18 * 1024 - 1,
        18 * 1024,
        18 * 1024 + 17,
        24 * 1024,
        40000,
    ]);
    let data = rng.bytes(40000);
    let mut checked = 0;
    for alg in algs {
        checked += agree_with_portable(alg, Backend::Ifma, &lengths, &data, &mut rng, other);
    }
    // Streams: where zmm runs in halves, 4-decBRWHash takes 4 ymm lanes for updates below
    // 16 KiB (2^130 - 5) or 32 KiB (2^127 - 1), periods over 8 lanes for larger ones (and
    // everywhere else): pieces on both sides, some that end inside a chunk or a period.
    for alg in &algs[3..5] {
        checked += streams_agree(*alg, &data, &mut rng, other);
    }
    // Hash2L on VPCLMULQDQ: the xmm code keeps more blocks where zmm runs in halves.
    if Backend::Vpclmul.cpu_supports() {
        let lengths: Vec<usize> = (0..=1300).collect();
        for alg in [Algorithm::HASH2L128, Algorithm::HASH2L256] {
            checked += agree_with_portable(alg, Backend::Vpclmul, &lengths, &data, &mut rng, other);
        }
    }
    println!("{checked} messages, BRWHASH_ZMM_HALVES={other}");
}

/// `alg` on `backend` (with a key, and one-shot through `hash_with_backend` and `hash`) gives
/// the portable digest of every prefix of `data` whose length is in `lengths`, for the
/// all-ones key and a random one. Returns the messages checked.
fn agree_with_portable(
    alg: Algorithm,
    backend: Backend,
    lengths: &[usize],
    data: &[u8],
    rng: &mut Rng,
    halves: &str,
) -> usize {
    let mut checked = 0;
    for key in [vec![0xff; alg.key_len()], rng.bytes(alg.key_len())] {
        let slow = Key::with_backend(alg, &key, Backend::Portable).unwrap();
        let fast = Key::with_backend(alg, &key, backend).unwrap();
        for &n in lengths {
            let msg = &data[..n];
            let want = slow.hash(msg);
            assert_eq!(fast.hash(msg), want, "{alg} key n={n} halves={halves}");
            assert_eq!(
                brwhash::hash_with_backend(alg, backend, &key, msg).unwrap(),
                want,
                "{alg} one-shot n={n} halves={halves}"
            );
            assert_eq!(brwhash::hash(alg, &key, msg).unwrap(), want, "{alg} n={n}");
            checked += 1;
        }
    }
    checked
}

/// `alg` on IFMA streamed in pieces of fixed and random sizes (a `Hasher` per message) gives
/// the portable digest of every message. Returns the messages checked.
fn streams_agree(alg: Algorithm, data: &[u8], rng: &mut Rng, halves: &str) -> usize {
    let mut checked = 0;
    for key in [vec![0xff; alg.key_len()], rng.bytes(alg.key_len())] {
        let slow = Key::with_backend(alg, &key, Backend::Portable).unwrap();
        let fast = Key::with_backend(alg, &key, Backend::Ifma).unwrap();
        for n in [3000, 9000, 16_384, 20_000, 40_000] {
            let msg = &data[..n];
            let want = slow.hash(msg);
            for piece in [1000, 3841, 4096, 8192, 16_383, 16_384, 32_767, 32_768] {
                let mut h = Hasher::new(&fast);
                for p in msg.chunks(piece) {
                    h.update(p).unwrap();
                }
                assert_eq!(
                    h.finalize(),
                    want,
                    "{alg} n={n} pieces of {piece} halves={halves}"
                );
                checked += 1;
            }
            for bound in [300, 5000, 20_000] {
                let mut h = Hasher::new(&fast);
                let mut at = 0;
                while at < n {
                    let end = (at + (rng.next() % bound) as usize).min(n);
                    h.update(&msg[at..end]).unwrap();
                    at = end;
                }
                assert_eq!(
                    h.finalize(),
                    want,
                    "{alg} n={n} random pieces halves={halves}"
                );
                checked += 1;
            }
        }
    }
    checked
}
