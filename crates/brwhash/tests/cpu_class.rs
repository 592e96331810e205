//! The CPU-class choices (`BRWHASH_ZMM_HALVES`): where the CPU runs zmm in halves (Zen 4),
//! one-shot polyHash / Poly1305 on IFMA takes 4 ymm lanes and the scalar crossovers differ.
//! This binary forces the choice this CPU does not make, so that both paths are tested on
//! any CPU with IFMA (the rest of the suite runs the CPU's own); the digests must not change.

mod common;

use brwhash::{Algorithm, Backend, Key};
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
    ];
    // Every length to 2 KiB (every crossover and ymm group shape), then lengths around the
    // one-shot ymm limits (14 KiB for 2^130 - 5, 18 KiB for 2^127 - 1), the short power
    // table's (56 ymm vector blocks), and 4-decBRWHash's 4-lane limit (8 KiB where zmm runs
    // in halves, 1792 B elsewhere).
    let mut lengths: Vec<usize> = (0..=2048).collect();
    lengths.extend([
        3583,
        3584,
        3585,
        3600,
        4000,
        6000,
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
