//! A small selection of the SPEC.md section 10 known answers, for runs where `kat.rs` (every
//! vector, every entry point) is too slow: Miri in `scripts/sanitizers.sh`, with
//! `BRWHASH_BACKEND=portable`. Every one of the 45 names that kat.json covers, at lengths
//! that give the empty message, a short last block after a full one and a few blocks
//! (0, 17, 65), plus MAC mode at 16 bytes and short vecHash2L vectors; one-shot, a `Key`, and
//! streamed in 7-byte pieces with a `finalize` midway.
//!
//! kat.json holds one vector per line; parsing all of it with serde_json takes Miri about two
//! minutes, so the lines are read with a small field scanner (`field`) and only the selected
//! ones are decoded. Natively the scanner is checked against serde_json on every line.

mod common;

use brwhash::{Algorithm, Hasher, Key, Mac};

/// One selected vector.
struct Case {
    alg: Algorithm,
    mac: bool,
    key: Vec<u8>,
    /// One message, or the lengths of a vecHash2L vector's components.
    lens: Vec<usize>,
    vector: bool,
    output: Vec<u8>,
}

/// The value of `"name": ...` in a one-line JSON object of kat.json: a string's contents, an
/// array's contents (without brackets), or a number.
fn field<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let pat = format!("\"{name}\": ");
    let rest = &line[line.find(&pat)? + pat.len()..];
    if let Some(s) = rest.strip_prefix('"') {
        Some(&s[..s.find('"')?])
    } else if let Some(a) = rest.strip_prefix('[') {
        Some(&a[..a.find(']')?])
    } else {
        Some(rest[..rest.find([',', '}'])?].trim())
    }
}

fn numbers(list: &str) -> Vec<usize> {
    list.split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| s.trim().parse().unwrap())
        .collect()
}

fn kat_lines() -> String {
    let path = common::vectors_dir().join("kat.json");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Whether a vector is in the selection (see the file's comment).
fn wanted(mac: bool, lens: &[usize], vector: bool, fill: bool) -> bool {
    if fill {
        return false;
    }
    match (mac, vector) {
        (false, false) => [0, 17, 65].contains(&lens[0]),
        (true, false) => lens[0] == 16,
        (_, true) => lens.len() <= 3 && lens.iter().all(|&n| n <= 33) && lens.len() > 1,
    }
}

fn selected() -> Vec<Case> {
    let text = kat_lines();
    let mut out = Vec::new();
    for line in text
        .lines()
        .filter(|l| l.trim_start().starts_with("{\"algorithm\""))
    {
        let mac = field(line, "mode").unwrap() == "mac";
        let (lens, vector) = match field(line, "component_lens") {
            Some(l) => (numbers(l), true),
            None => (
                vec![field(line, "msg_len").unwrap().parse().unwrap()],
                false,
            ),
        };
        if !wanted(mac, &lens, vector, field(line, "msg_fill").is_some()) {
            continue;
        }
        out.push(Case {
            alg: field(line, "algorithm").unwrap().parse().unwrap(),
            mac,
            key: hex::decode(field(line, "key").unwrap()).unwrap(),
            lens,
            vector,
            output: hex::decode(field(line, "output").unwrap()).unwrap(),
        });
    }
    out
}

/// The scanner reads what serde_json reads, on every line of kat.json (native runs only:
/// this is the slow part under Miri).
#[test]
#[cfg_attr(miri, ignore = "serde_json on all of kat.json takes Miri minutes")]
fn field_scanner_agrees_with_serde_json() {
    let text = kat_lines();
    let mut n = 0;
    for line in text
        .lines()
        .filter(|l| l.trim_start().starts_with("{\"algorithm\""))
    {
        let v: serde_json::Value = serde_json::from_str(line.trim().trim_end_matches(',')).unwrap();
        for name in ["algorithm", "mode", "key", "output"] {
            assert_eq!(field(line, name), v[name].as_str(), "{line}");
        }
        match v.get("component_lens") {
            Some(l) => {
                let want: Vec<usize> = l
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_u64().unwrap() as usize)
                    .collect();
                assert_eq!(numbers(field(line, "component_lens").unwrap()), want);
            }
            None => assert_eq!(
                field(line, "msg_len").unwrap().parse::<u64>().ok(),
                v["msg_len"].as_u64()
            ),
        }
        assert_eq!(
            field(line, "msg_fill").is_some(),
            v.get("msg_fill").is_some()
        );
        n += 1;
    }
    assert_eq!(
        n,
        common::load("kat.json")["vectors"]
            .as_array()
            .unwrap()
            .len()
    );
}

/// The keys of the selection, made once per (algorithm, key bytes): a `Key` for any length
/// computes all its key powers, a noticeable cost under Miri.
type Keys = Vec<((Algorithm, Vec<u8>), Key, Option<Mac>)>;

fn digests(c: &Case, keys: &mut Keys) -> Vec<(&'static str, Vec<u8>)> {
    let parts: Vec<Vec<u8>> = c.lens.iter().map(|&n| common::message(n, None)).collect();
    let parts: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    let alg = c.alg;
    let one_shot = match (c.mac, c.vector) {
        (false, false) => brwhash::hash(alg, &c.key, parts[0]),
        (false, true) => brwhash::hash_vector(alg, &c.key, &parts),
        (true, false) => brwhash::mac(alg, &c.key, parts[0]),
        (true, true) => Mac::new(alg, &c.key).and_then(|m| m.tag_vector(&parts)),
    }
    .unwrap();
    let id = (alg, c.key.clone());
    let i = match keys.iter().position(|(k, _, _)| *k == id) {
        Some(i) => i,
        None => {
            let key = Key::new(alg, &c.key[..alg.key_len()]).unwrap();
            let mac = c.mac.then(|| Mac::new(alg, &c.key).unwrap());
            keys.push((id, key, mac));
            keys.len() - 1
        }
    };
    let (_, key, mac) = &keys[i];
    let (keyed, mut h) = match (mac, c.vector) {
        (None, false) => (key.hash(parts[0]), Hasher::new(key)),
        (None, true) => (key.hash_vector(&parts).unwrap(), Hasher::new(key)),
        (Some(m), false) => (m.tag(parts[0]), m.hasher()),
        (Some(m), true) => (m.tag_vector(&parts).unwrap(), m.hasher()),
    };
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            h.next_component().unwrap();
        }
        for (j, piece) in p.chunks(7).enumerate() {
            h.update(piece).unwrap();
            if j == 1 {
                let _ = h.finalize(); // a hasher goes on after finalize
            }
        }
    }
    vec![
        ("one-shot", one_shot.as_ref().to_vec()),
        ("key", keyed.as_ref().to_vec()),
        ("streamed", h.finalize().as_ref().to_vec()),
    ]
}

#[test]
fn selected_known_answers() {
    let cases = selected();
    let mut names: Vec<String> = cases.iter().map(|c| c.alg.to_string()).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), 45, "every name kat.json covers");
    assert!(cases.iter().any(|c| c.mac) && cases.iter().any(|c| c.vector));
    let mut failed = Vec::new();
    let mut keys = Keys::new();
    for c in &cases {
        for (how, got) in digests(c, &mut keys) {
            if got != c.output {
                failed.push(format!("{} {how} mac={} lens={:?}", c.alg, c.mac, c.lens));
            }
        }
    }
    println!("{} known answers checked", cases.len());
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
