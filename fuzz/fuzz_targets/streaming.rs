//! Streaming equals one shot for every split (SPEC.md 5.11), also across clones and
//! intermediate `finalize` calls.
//!
//! Input: algorithm index byte, backend choice byte (`backend_choice`; a backend that cannot
//! run here falls back to `Key::new`), the key (`key_len` bytes), a split-count byte
//! (`% 16`), a clone-point byte, the split points (two bytes each), then the message
//! (`Input::message`) or, for vecHash2L, the vector (`Input::components`).
//!
//! Checked: `Hasher::update` over the pieces (and `next_component` between vecHash2L
//! components, whose pieces are cut by the same split points modulo their length) gives
//! `Key::hash` / `Key::hash_vector`, which give `brwhash::hash` / `brwhash::hash_vector`; a
//! `finalize` at the clone point gives the one-shot digest of the input so far and does not
//! disturb the hasher; a clone taken there and fed the rest in one update gives the same
//! digest; `verify` accepts the digest; `into_digest` equals `finalize`; for vecHash2L, a
//! 256th component is refused without changing the state.

#![no_main]

use brwhash::{Algorithm, Hasher, Key, MAX_COMPONENTS};
use brwhash_fuzz::{algorithm, as_slices, backend_choice, pieces, Input};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let alg = algorithm(input.u8());
    let backend = backend_choice(input.u8());
    let key_bytes = input.bytes(alg.key_len());
    let key = match backend {
        Some(b) if b.check(alg).is_ok() => Key::with_backend(alg, &key_bytes, b),
        _ => Key::new(alg, &key_bytes),
    }
    .expect("a key of the right length on a backend that runs here");
    let n_splits = input.u8() as usize % 16;
    let clone_at = input.u8() as usize;
    let raw_splits: Vec<u16> = (0..n_splits).map(|_| input.u16()).collect();
    if alg.is_vector() {
        let parts = input.components();
        check_vector(alg, &key, &key_bytes, &parts, &raw_splits, clone_at);
    } else {
        let msg = input.message();
        check_message(alg, &key, &key_bytes, &msg, &raw_splits, clone_at);
    }
});

/// `raw` split points taken modulo `len + 1`, sorted.
fn points(raw: &[u16], len: usize) -> Vec<usize> {
    let mut p: Vec<usize> = raw.iter().map(|&r| r as usize % (len + 1)).collect();
    p.sort_unstable();
    p
}

fn check_message(
    alg: Algorithm,
    key: &Key,
    key_bytes: &[u8],
    msg: &[u8],
    raw: &[u16],
    clone_at: usize,
) {
    let b = key.backend();
    let n = msg.len();
    let want = key.hash(msg);
    assert_eq!(
        brwhash::hash(alg, key_bytes, msg).expect("one shot"),
        want,
        "{alg} on {b} n={n}: Key::hash vs brwhash::hash"
    );
    let cut = points(raw, n);
    let parts = pieces(msg, &cut);
    let clone_at = clone_at % (parts.len() + 1);
    let mut h = Hasher::new(key);
    assert_eq!(h.algorithm(), alg);
    assert_eq!(h.backend(), b);
    let mut offset = 0;
    let mut fork = None;
    for (i, piece) in parts.iter().enumerate() {
        if i == clone_at {
            fork = Some((h.clone(), offset));
            assert_eq!(
                h.finalize(),
                key.hash(&msg[..offset]),
                "{alg} on {b}: finalize after {offset} of {n} bytes, splits {cut:?}"
            );
        }
        h.update(piece).expect("short message");
        offset += piece.len();
    }
    assert_eq!(h.finalize(), want, "{alg} on {b} n={n}: splits {cut:?}");
    assert!(
        h.verify(want.as_ref()),
        "{alg} on {b}: verify of the digest"
    );
    let (mut fork, at) = fork.unwrap_or_else(|| (h.clone(), n));
    fork.update(&msg[at..]).expect("short message");
    assert_eq!(
        fork.finalize(),
        want,
        "{alg} on {b} n={n}: clone at {at}, splits {cut:?}"
    );
    assert_eq!(h.into_digest(), want, "{alg} on {b}: into_digest");
    assert!(
        Hasher::new(key).next_component().is_err(),
        "{alg}: next_component on a one-message algorithm"
    );
}

fn check_vector(
    alg: Algorithm,
    key: &Key,
    key_bytes: &[u8],
    parts: &[Vec<u8>],
    raw: &[u16],
    clone_at: usize,
) {
    let b = key.backend();
    let k = parts.len();
    let slices = as_slices(parts);
    let want = key.hash_vector(&slices).expect("1..=255 components");
    assert_eq!(
        brwhash::hash_vector(alg, key_bytes, &slices).expect("one shot"),
        want,
        "{alg} on {b} k={k}: Key::hash_vector vs brwhash::hash_vector"
    );
    // The updates: (component, piece) in order; the clone point is one of them.
    let mut steps = Vec::new();
    for (c, part) in parts.iter().enumerate() {
        for piece in pieces(part, &points(raw, part.len())) {
            steps.push((c, piece));
        }
    }
    let clone_at = clone_at % (steps.len() + 1);
    let mut h = Hasher::new(key);
    let mut current = 0;
    let mut offset = 0;
    let mut fork = None;
    for (i, &(c, piece)) in steps.iter().enumerate() {
        if c != current {
            h.next_component().expect("at most 255 components");
            current = c;
            offset = 0;
        }
        if i == clone_at {
            fork = Some((h.clone(), c, offset));
            // Everything absorbed so far: the components before c and c's prefix.
            let mut so_far: Vec<&[u8]> = slices[..c].to_vec();
            so_far.push(&parts[c][..offset]);
            assert_eq!(
                h.finalize(),
                key.hash_vector(&so_far).expect("vector"),
                "{alg} on {b}: finalize in component {c} at {offset}"
            );
        }
        h.update(piece).expect("short component");
        offset += piece.len();
    }
    assert_eq!(h.finalize(), want, "{alg} on {b} k={k}: streamed vector");
    assert!(
        h.verify(want.as_ref()),
        "{alg} on {b}: verify of the digest"
    );
    if let Some((mut fork, c, at)) = fork {
        fork.update(&parts[c][at..]).expect("short component");
        for part in &parts[c + 1..] {
            fork.next_component().expect("at most 255 components");
            fork.update(part).expect("short component");
        }
        assert_eq!(
            fork.finalize(),
            want,
            "{alg} on {b} k={k}: clone in component {c} at {at}"
        );
    }
    if k == MAX_COMPONENTS {
        assert!(
            h.next_component().is_err(),
            "{alg}: a 256th component was accepted"
        );
        assert_eq!(
            h.finalize(),
            want,
            "{alg}: a refused component changed the state"
        );
    }
    assert_eq!(h.into_digest(), want, "{alg} on {b}: into_digest");
}
