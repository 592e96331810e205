//! Input buffers at every alignment, on every backend that runs here, for the memory-safety
//! runs of `scripts/sanitizers.sh` (AddressSanitizer for the SIMD backends, Miri for the
//! portable code) as much as for the outputs.
//!
//! Every message sits in an allocation of its own that ends exactly where the message ends
//! (`placed`), at offsets 0..64 from the allocation's start: a SIMD load one byte past the
//! end, or before the start, is a heap-buffer-overflow under AddressSanitizer and an
//! out-of-bounds access under Miri (a sub-slice of a larger buffer would hide both). Every
//! length 0..=300 (all tails of 15-, 16- and 32-byte blocks and of the SIMD groups) and
//! longer ones past the scalar/SIMD crossovers, one-shot (`Key::hash` and the stack-only
//! `brwhash::hash_with_backend`), streamed in pieces that are each placed the same way, MAC
//! tags and vecHash2L components; every output against the portable backend.
//!
//! Under Miri the sizes shrink to a few of each kind and the portable backend is only the
//! reference (kat_subset.rs runs it against known answers). Miri sees the CPU features the
//! build enables statically: `scripts/sanitizers.sh` builds with
//! `-C target-feature=+bmi2,+adx,+avx2,+pclmulqdq,+sse4.1`, so the scalar, AVX2 and PCLMULQDQ
//! backends run in the interpreter (it has no AVX-512: those backends skip there, and
//! AddressSanitizer covers them).

mod common;

use brwhash::{Algorithm, Backend, Hasher, Key, Mac};
use common::Rng;

/// `msg` at offset `off` of a new allocation of exactly `off + msg.len()` bytes.
fn placed(msg: &[u8], off: usize) -> Box<[u8]> {
    let mut b = vec![0xa5u8; off + msg.len()].into_boxed_slice();
    b[off..].copy_from_slice(msg);
    b
}

/// (backend, algorithm) pairs that run here, portable included (except under Miri).
fn pairs() -> Vec<(Backend, Algorithm)> {
    let mut out = Vec::new();
    for b in Backend::ALL {
        if cfg!(miri) && b == Backend::Portable {
            continue;
        }
        if !b.cpu_supports() {
            println!("skipping backend {b}: this CPU (or Miri) lacks its instructions");
            continue;
        }
        out.extend(
            Algorithm::all()
                .into_iter()
                .filter(|&a| b.implements(a))
                .map(|a| (b, a)),
        );
    }
    out
}

fn portable(alg: Algorithm, key: &[u8]) -> Key {
    Key::with_backend(alg, key, Backend::Portable).unwrap()
}

/// The key on backend `b` and on the portable backend (the reference).
fn keys(b: Backend, alg: Algorithm, key: &[u8]) -> (Key, Key) {
    (Key::with_backend(alg, key, b).unwrap(), portable(alg, key))
}

/// Offsets into the allocation: all of 0..64 natively.
fn offsets() -> Vec<usize> {
    if cfg!(miri) {
        vec![0, 5]
    } else {
        (0..64).collect()
    }
}

/// Short lengths: every one of 0..=300 natively (every tail of every block and group size).
fn short_lengths() -> Vec<usize> {
    if cfg!(miri) {
        vec![0, 1, 17, 33, 65]
    } else {
        (0..=300).collect()
    }
}

/// Lengths past the crossovers to SIMD code (352..2048 bytes), its groups and chunks.
fn long_lengths() -> Vec<usize> {
    if cfg!(miri) {
        vec![2049]
    } else {
        vec![
            353, 449, 496, 497, 511, 512, 513, 1000, 1023, 1024, 1025, 1985, 2047, 2048, 2049,
            4096, 4111, 8191, 8192, 16_391, 65_537, 262_147,
        ]
    }
}

/// For Miri: the pairs of one algorithm per construction only.
fn selected(pairs: Vec<(Backend, Algorithm)>) -> Vec<(Backend, Algorithm)> {
    if !cfg!(miri) {
        return pairs;
    }
    let keep = [
        "Poly1305",
        "polyHash1271",
        "BRWHash1305",
        "3-BRWHash1271",
        "3-2LHash1305",
        "2-Hash1271",
        "3-decBRWHash1271",
        "4-decBRWHash1305",
        "Hash2L128",
        "Hash2L256",
        "vecHash2L128",
    ];
    pairs
        .into_iter()
        .filter(|(_, a)| keep.contains(&a.to_string().as_str()))
        .collect()
}

#[test]
fn every_offset_and_every_short_length() {
    let mut rng = Rng(0x5eed_0001);
    let (offs, lens) = (offsets(), short_lengths());
    let pairs = selected(pairs());
    for &(b, alg) in &pairs {
        let key = rng.bytes(alg.key_len());
        let (fast, slow) = keys(b, alg, &key);
        let msg = rng.bytes(*lens.last().unwrap());
        for &n in &lens {
            let want = slow.hash(&msg[..n]);
            for &off in &offs {
                let buf = placed(&msg[..n], off);
                let m = &buf[off..];
                assert_eq!(fast.hash(m), want, "{b} {alg} n={n} offset={off}");
                assert_eq!(
                    brwhash::hash_with_backend(alg, b, &key, m).unwrap(),
                    want,
                    "{b} {alg} one-shot n={n} offset={off}"
                );
            }
        }
    }
    println!("{} (backend, algorithm) pairs checked", pairs.len());
}

#[test]
fn long_messages_at_odd_offsets() {
    let mut rng = Rng(0x5eed_0002);
    let lens = long_lengths();
    let offs: Vec<usize> = offsets()
        .into_iter()
        .filter(|o| o % 8 != 2)
        .take(9)
        .collect();
    let msg = rng.bytes(*lens.last().unwrap());
    for (b, alg) in selected(pairs()) {
        let key = rng.bytes(alg.key_len());
        let (fast, slow) = keys(b, alg, &key);
        for &n in &lens {
            let want = slow.hash(&msg[..n]);
            for &off in &offs {
                let buf = placed(&msg[..n], off);
                assert_eq!(fast.hash(&buf[off..]), want, "{b} {alg} n={n} offset={off}");
            }
        }
    }
}

/// Piece sizes for streaming: every tail class, in a cycle that does not divide any block.
const PIECES: [usize; 18] = [
    1, 2, 3, 7, 15, 16, 17, 31, 32, 33, 63, 64, 65, 255, 256, 257, 1000, 4099,
];

/// `msg` streamed into `h` in pieces of the `PIECES` cycle (from `start`), each piece in an
/// exact allocation of its own at an offset that changes from piece to piece.
fn stream_placed(h: &mut Hasher, msg: &[u8], start: usize) {
    let mut pos = 0;
    let mut i = start;
    while pos < msg.len() {
        let n = PIECES[i % PIECES.len()].min(msg.len() - pos);
        let off = (i * 13) % 64;
        let buf = placed(&msg[pos..pos + n], off);
        h.update(&buf[off..]).unwrap();
        pos += n;
        i += 1;
    }
}

#[test]
fn streamed_pieces_in_their_own_allocations() {
    let mut rng = Rng(0x5eed_0003);
    let lens: &[usize] = if cfg!(miri) {
        &[40, 300]
    } else {
        &[300, 5000, 100_003]
    };
    let msg = rng.bytes(*lens.last().unwrap());
    for (b, alg) in selected(pairs()) {
        let key = rng.bytes(alg.key_len());
        let (fast, slow) = keys(b, alg, &key);
        for (j, &n) in lens.iter().enumerate() {
            let mut h = Hasher::new(&fast);
            stream_placed(&mut h, &msg[..n], j);
            assert_eq!(h.finalize(), slow.hash(&msg[..n]), "{b} {alg} n={n}");
        }
        if let Some(k) = alg.mac_key_len() {
            let mac_key = rng.bytes(k);
            let mac = Mac::with_backend(alg, &mac_key, b).unwrap();
            let want = Mac::with_backend(alg, &mac_key, Backend::Portable)
                .unwrap()
                .tag(&msg[..lens[0]]);
            let mut h = mac.hasher();
            stream_placed(&mut h, &msg[..lens[0]], 5);
            assert_eq!(h.finalize(), want, "{b} {alg} MAC streamed");
            let buf = placed(&msg[..lens[0]], 3);
            assert_eq!(mac.tag(&buf[3..]), want, "{b} {alg} MAC one-shot");
        }
    }
}

#[test]
fn vector_components_in_their_own_allocations() {
    let mut rng = Rng(0x5eed_0004);
    let shapes: Vec<Vec<usize>> = if cfg!(miri) {
        vec![vec![0], vec![5, 0, 33], vec![1; 9]]
    } else {
        vec![
            vec![0],
            vec![5, 0, 600],
            vec![1; 40],
            (0..64).map(|i| i * 7 % 97).collect(),
            vec![2000, 1, 4096 + 17, 0, 31 * 16 + 1],
            vec![3; 255],
        ]
    };
    for (b, alg) in selected(pairs()).into_iter().filter(|(_, a)| a.is_vector()) {
        let key = rng.bytes(alg.key_len());
        let (fast, slow) = keys(b, alg, &key);
        for (s, lens) in shapes.iter().enumerate() {
            let parts: Vec<Vec<u8>> = lens.iter().map(|&n| rng.bytes(n)).collect();
            let refs: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
            let want = slow.hash_vector(&refs).unwrap();
            let boxes: Vec<(Box<[u8]>, usize)> = parts
                .iter()
                .enumerate()
                .map(|(i, p)| (placed(p, (i * 11 + s) % 64), (i * 11 + s) % 64))
                .collect();
            let placed_refs: Vec<&[u8]> = boxes.iter().map(|(buf, o)| &buf[*o..]).collect();
            assert_eq!(
                fast.hash_vector(&placed_refs).unwrap(),
                want,
                "{b} {alg} {lens:?}"
            );
            let mut h = Hasher::new(&fast);
            for (i, p) in parts.iter().enumerate() {
                if i > 0 {
                    h.next_component().unwrap();
                }
                stream_placed(&mut h, p, i + s);
            }
            assert_eq!(h.finalize(), want, "{b} {alg} {lens:?} streamed");
        }
    }
}
