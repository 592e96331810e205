//! Every known-answer vector of SPEC.md section 10, through every entry point: one-shot,
//! a precomputed `Key`, streaming, and MAC mode.

mod common;

use brwhash::{Algorithm, Hasher, Key, Mac};
use common::{kats, load, Kat};

fn compute_one_shot(k: &Kat) -> Vec<u8> {
    let alg: Algorithm = k.algorithm.parse().unwrap();
    let parts: Vec<&[u8]> = k.components.iter().map(|c| c.as_slice()).collect();
    let out = match (k.mac, k.vector) {
        (false, false) => brwhash::hash(alg, &k.key, &parts[0]),
        (false, true) => brwhash::hash_vector(alg, &k.key, &parts),
        (true, false) => brwhash::mac(alg, &k.key, &parts[0]),
        (true, true) => Mac::new(alg, &k.key).and_then(|m| m.tag_vector(&parts)),
    };
    out.unwrap_or_else(|e| panic!("{}: {e}", k.algorithm))
        .as_ref()
        .to_vec()
}

fn compute_streaming(k: &Kat, chunk: usize) -> Vec<u8> {
    let alg: Algorithm = k.algorithm.parse().unwrap();
    if k.mac {
        let mac = Mac::new(alg, &k.key).unwrap();
        let mut h = mac.hasher();
        for (i, c) in k.components.iter().enumerate() {
            if i > 0 {
                h.next_component().unwrap();
            }
            for piece in c.chunks(chunk) {
                h.update(piece).unwrap();
            }
        }
        h.finalize().as_ref().to_vec()
    } else {
        let key = Key::new(alg, &k.key).unwrap();
        let mut h = Hasher::new(&key);
        for (i, c) in k.components.iter().enumerate() {
            if i > 0 {
                h.next_component().unwrap();
            }
            for piece in c.chunks(chunk) {
                h.update(piece).unwrap();
            }
        }
        h.finalize().as_ref().to_vec()
    }
}

#[test]
fn kat_json_one_shot() {
    let cases = kats("kat.json");
    assert!(cases.len() >= 1221, "kat.json has {} cases", cases.len());
    let mut failed = Vec::new();
    for k in &cases {
        if compute_one_shot(k) != k.output {
            failed.push(format!(
                "{} mac={} lens={:?}",
                k.algorithm,
                k.mac,
                k.components.iter().map(|c| c.len()).collect::<Vec<_>>()
            ));
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} failed:\n{}",
        failed.len(),
        cases.len(),
        failed.join("\n")
    );
}

#[test]
fn kat_json_streaming() {
    for k in kats("kat.json") {
        for chunk in [1, 7, 64] {
            assert_eq!(
                compute_streaming(&k, chunk),
                k.output,
                "{} chunk {chunk}",
                k.algorithm
            );
        }
    }
}

#[test]
fn every_spec_name_is_covered_or_extra() {
    // kat.json covers 45 of 65 names; the rest are covered by extra.json (reference-generated).
    let mut names: Vec<String> = kats("kat.json").into_iter().map(|k| k.algorithm).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), 45);
}

#[test]
fn rfc8439_vectors() {
    let v = load("poly1305_rfc8439.json");
    let cases = v["vectors"].as_array().unwrap();
    assert_eq!(cases.len(), 12);
    for c in cases {
        let key = hex::decode(c["key"].as_str().unwrap()).unwrap();
        let msg = hex::decode(c["message"].as_str().unwrap()).unwrap();
        let tag = brwhash::hash(Algorithm::POLY1305, &key, &msg).unwrap();
        assert_eq!(tag.to_hex(), c["tag"].as_str().unwrap(), "{}", c["name"]);
    }
}
