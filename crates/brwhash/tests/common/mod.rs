//! Shared helpers for the integration tests: the known-answer files and message rules of
//! SPEC.md section 10.
#![allow(dead_code)]

use std::path::PathBuf;

use serde_json::Value;

/// `tests/vectors/` at the workspace root (a copy of `../shared/vectors/`).
pub fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/vectors")
}

pub fn load(name: &str) -> Value {
    let path = vectors_dir().join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("bad JSON in {}: {e}", path.display()))
}

/// SPEC.md 10: `bytes(i % 256 for i in range(n))`, or `fill` repeated.
pub fn message(n: usize, fill: Option<u8>) -> Vec<u8> {
    match fill {
        Some(b) => vec![b; n],
        None => (0..n).map(|i| i as u8).collect(),
    }
}

/// One known-answer case.
pub struct Kat {
    pub algorithm: String,
    pub mac: bool,
    pub key: Vec<u8>,
    /// One message, or the components of a vecHash2L vector.
    pub components: Vec<Vec<u8>>,
    pub vector: bool,
    pub output: Vec<u8>,
}

pub fn kats(name: &str) -> Vec<Kat> {
    let v = load(name);
    v["vectors"]
        .as_array()
        .expect("vectors array")
        .iter()
        .map(|c| {
            let fill = c.get("msg_fill").map(|f| f.as_u64().unwrap() as u8);
            let (components, vector) = match c.get("component_lens") {
                Some(lens) => (
                    lens.as_array()
                        .unwrap()
                        .iter()
                        .map(|n| message(n.as_u64().unwrap() as usize, fill))
                        .collect(),
                    true,
                ),
                None => (
                    vec![message(c["msg_len"].as_u64().unwrap() as usize, fill)],
                    false,
                ),
            };
            Kat {
                algorithm: c["algorithm"].as_str().unwrap().to_string(),
                mac: c["mode"].as_str().unwrap() == "mac",
                key: hex::decode(c["key"].as_str().unwrap()).unwrap(),
                components,
                vector,
                output: hex::decode(c["output"].as_str().unwrap()).unwrap(),
            }
        })
        .collect()
}

/// splitmix64: deterministic test data.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The digest of the vector `components` streamed through a `Hasher`: each component in
/// `piece`-byte updates, `next_component` between them.
pub fn stream_vector<C: AsRef<[u8]>>(
    key: &brwhash::Key,
    components: &[C],
    piece: usize,
) -> brwhash::Digest {
    let mut h = brwhash::Hasher::new(key);
    for (i, c) in components.iter().enumerate() {
        if i > 0 {
            h.next_component().unwrap();
        }
        for p in c.as_ref().chunks(piece) {
            h.update(p).unwrap();
        }
    }
    h.finalize()
}
