//! MAC mode (SPEC.md 7): a tag verifies; any other tag, and (for a strong key) any other
//! message, is rejected.
//!
//! Input: MAC-algorithm index byte (the 64 functions other than Poly1305), backend choice
//! byte, key-mode byte, the MAC key tau || s (`mac_key_len` bytes: used as they are when
//! bit 0 of the key-mode byte is clear, else the seed of a `pseudo_random_key`), a tamper
//! byte, two position bytes
//! (little-endian u16), then the message (`Input::message`) or, for vecHash2L when bit 0 of
//! the tamper byte is set, the vector (`Input::components`).
//!
//! Checked: the tag is SPEC.md's formula applied to the digest under tau (computed here);
//! `brwhash::mac`, `Mac::tag`, a streaming `Mac::hasher` and the tag on the portable backend
//! agree; `verify` (and the hasher's) accepts the tag and rejects the tag with any one bit
//! flipped, truncated, extended or empty; it rejects the message with one bit flipped,
//! truncated or extended (vectors: a bit flipped in a component, a byte moved across a
//! boundary, a component added or removed). Where a changed message is accepted, the
//! portable digests of the two messages must be equal (else verification is broken), and
//! the key must be one the fuzzer chose: a collision under a pseudo-random key (probability
//! about 2^-100 per pair) is a finding.

#![no_main]

use brwhash::{Algorithm, Backend, Key, Mac, MAX_COMPONENTS};
use brwhash_fuzz::{as_slices, backend_choice, mac_algorithm, pseudo_random_key, spec_tag, Input};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let alg = mac_algorithm(input.u8());
    let backend = backend_choice(input.u8());
    let mac_len = alg.mac_key_len().expect("a MAC algorithm");
    let key_mode = input.u8();
    let raw_key = input.bytes(mac_len);
    let chosen = key_mode & 1 == 0;
    let key = if chosen {
        raw_key
    } else {
        pseudo_random_key(&raw_key, mac_len)
    };
    let tamper = input.u8();
    let pos = input.u16() as usize;
    let mac = match backend {
        Some(b) if b.check(alg).is_ok() => Mac::with_backend(alg, &key, b),
        _ => Mac::new(alg, &key),
    }
    .expect("a MAC key of the right length");
    let (tau, s) = key.split_at(alg.key_len());
    let portable = Key::with_backend(alg, tau, Backend::Portable).expect("portable key");
    let ctx = Ctx {
        alg,
        mac: &mac,
        portable: &portable,
        chosen,
    };
    if alg.is_vector() && tamper & 1 == 1 {
        let parts = input.components();
        check_vector(&ctx, &key, s, &parts, tamper, pos);
    } else {
        let msg = input.message();
        check_message(&ctx, &key, s, &msg, tamper, pos);
    }
});

struct Ctx<'a> {
    alg: Algorithm,
    mac: &'a Mac,
    portable: &'a Key,
    /// The key is the fuzzer's choice (not pseudo-random): collisions can be genuine.
    chosen: bool,
}

/// Tags that must never verify in place of `tag`: one bit flipped, truncated, extended,
/// empty.
fn wrong_tags(tag: &[u8], tamper: u8, pos: usize) -> Vec<Vec<u8>> {
    let mut flipped = tag.to_vec();
    flipped[pos % tag.len()] ^= 1 << (pos / tag.len() % 8);
    let mut extended = tag.to_vec();
    extended.push(tamper);
    vec![
        flipped,
        tag[..pos % tag.len()].to_vec(),
        extended,
        Vec::new(),
    ]
}

fn check_message(ctx: &Ctx<'_>, key: &[u8], s: &[u8], msg: &[u8], tamper: u8, pos: usize) {
    let Ctx { alg, mac, .. } = *ctx;
    let b = mac.key().backend();
    let n = msg.len();
    let tag = mac.tag(msg);
    let digest = ctx.portable.hash(msg);
    assert_eq!(
        tag.as_bytes(),
        spec_tag(alg, &digest, s),
        "{alg} on {b} n={n}: tag is not digest (+) s"
    );
    assert_eq!(
        brwhash::mac(alg, key, msg).expect("one shot"),
        tag,
        "{alg} n={n}: brwhash::mac"
    );
    assert!(
        mac.verify(msg, tag.as_ref()),
        "{alg} on {b} n={n}: own tag rejected"
    );
    let split = pos % (n + 1);
    let mut h = mac.hasher();
    h.update(&msg[..split])
        .expect("short")
        .update(&msg[split..])
        .expect("short");
    assert_eq!(
        h.finalize(),
        tag,
        "{alg} on {b} n={n}: streamed tag, split {split}"
    );
    assert!(
        h.verify(tag.as_ref()),
        "{alg} on {b}: hasher rejects its tag"
    );
    for wrong in wrong_tags(tag.as_ref(), tamper, pos) {
        assert!(
            !mac.verify(msg, &wrong),
            "{alg} on {b} n={n}: accepted tag {wrong:02x?}"
        );
        assert!(
            !h.verify(&wrong),
            "{alg} on {b} n={n}: hasher accepted tag {wrong:02x?}"
        );
    }
    // Other messages.
    let mut others = Vec::new();
    if n > 0 {
        let mut flipped = msg.to_vec();
        flipped[pos % n] ^= 1 << (tamper >> 5);
        others.push(flipped);
        others.push(msg[..n - 1 - (pos % n)].to_vec());
    }
    let mut extended = msg.to_vec();
    extended.extend(std::iter::repeat_n(tamper, 1 + (pos >> 12)));
    others.push(extended);
    for other in &others {
        if mac.verify(other, tag.as_ref()) {
            explained(
                ctx,
                &digest,
                &ctx.portable.hash(other),
                "message",
                n,
                other.len(),
            );
        }
    }
}

fn check_vector(ctx: &Ctx<'_>, key: &[u8], s: &[u8], parts: &[Vec<u8>], tamper: u8, pos: usize) {
    let Ctx { alg, mac, .. } = *ctx;
    let b = mac.key().backend();
    let k = parts.len();
    let slices = as_slices(parts);
    let tag = mac.tag_vector(&slices).expect("1..=255 components");
    let digest = ctx.portable.hash_vector(&slices).expect("vector");
    assert_eq!(
        tag.as_bytes(),
        spec_tag(alg, &digest, s),
        "{alg} on {b} k={k}: tag is not digest XOR s"
    );
    assert!(
        mac.verify_vector(&slices, tag.as_ref()),
        "{alg} on {b} k={k}: own tag rejected"
    );
    let with_key = Mac::new(alg, key).expect("MAC key");
    assert_eq!(
        with_key.tag_vector(&slices).expect("vector"),
        tag,
        "{alg} k={k}: default backend"
    );
    let mut h = mac.hasher();
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            h.next_component().expect("at most 255");
        }
        h.update(part).expect("short");
    }
    assert_eq!(h.finalize(), tag, "{alg} on {b} k={k}: streamed vector tag");
    for wrong in wrong_tags(tag.as_ref(), tamper, pos) {
        assert!(
            !mac.verify_vector(&slices, &wrong),
            "{alg} on {b} k={k}: accepted tag {wrong:02x?}"
        );
    }
    assert!(
        !mac.verify_vector(&[], tag.as_ref()),
        "{alg}: empty vector accepted"
    );
    // Other vectors.
    let c = pos % k;
    let mut others: Vec<Vec<Vec<u8>>> = Vec::new();
    if !parts[c].is_empty() {
        let mut flipped = parts.to_vec();
        let at = (pos >> 8) % parts[c].len();
        flipped[c][at] ^= 1 << (tamper >> 5);
        others.push(flipped);
    }
    if c + 1 < k {
        // One byte moved across the boundary of components c and c + 1.
        let mut moved = parts.to_vec();
        if let Some(last) = moved[c].pop() {
            moved[c + 1].insert(0, last);
        } else if !moved[c + 1].is_empty() {
            let first = moved[c + 1].remove(0);
            moved[c].push(first);
        }
        if moved != parts {
            others.push(moved);
        }
    }
    if k < MAX_COMPONENTS {
        let mut added = parts.to_vec();
        added.insert(c, Vec::new());
        others.push(added);
    }
    if k > 1 {
        let mut removed = parts.to_vec();
        removed.remove(c);
        others.push(removed);
    }
    for other in &others {
        let o = as_slices(other);
        if mac.verify_vector(&o, tag.as_ref()) {
            let d = ctx.portable.hash_vector(&o).expect("vector");
            explained(ctx, &digest, &d, "vector", k, other.len());
        }
    }
}

/// A changed input was accepted: only a genuine digest collision (the portable backend gives
/// both inputs the same digest) under a key the fuzzer chose explains that.
fn explained(
    ctx: &Ctx<'_>,
    d: &brwhash::Digest,
    other: &brwhash::Digest,
    what: &str,
    n: usize,
    m: usize,
) {
    let alg = ctx.alg;
    assert!(
        d == other,
        "{alg}: verify accepted a changed {what} ({n} -> {m}) whose digest differs: {d} vs {other}"
    );
    assert!(
        ctx.chosen,
        "{alg}: digest collision of a changed {what} ({n} -> {m}) under a pseudo-random key: {d}"
    );
}
