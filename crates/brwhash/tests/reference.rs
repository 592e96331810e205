//! Differential test against the independent big-integer Python model of SPEC.md
//! (`reference/brwhash_ref.py`): random algorithms, keys, modes and lengths 0..2000, plus
//! vecHash2L vectors. Needs `python3` (3.11, standard library only) on PATH.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::Mutex;

use brwhash::{Algorithm, Mac};
use common::Rng;
use proptest::prelude::*;
use serde_json::{json, Value};

#[derive(Debug)]
enum Input {
    Msg(Vec<u8>),
    Vector(Vec<Vec<u8>>),
}

#[derive(Debug)]
struct Case {
    alg: Algorithm,
    mac: bool,
    key: Vec<u8>,
    input: Input,
}

fn rust_output(c: &Case) -> Vec<u8> {
    let out = match (&c.input, c.mac) {
        (Input::Msg(m), false) => brwhash::hash(c.alg, &c.key, m),
        (Input::Msg(m), true) => brwhash::mac(c.alg, &c.key, m),
        (Input::Vector(v), mac) => {
            let refs: Vec<&[u8]> = v.iter().map(|c| c.as_slice()).collect();
            if mac {
                Mac::new(c.alg, &c.key).and_then(|m| m.tag_vector(&refs))
            } else {
                brwhash::hash_vector(c.alg, &c.key, &refs)
            }
        }
    };
    out.unwrap_or_else(|e| panic!("{}: {e}", c.alg))
        .as_ref()
        .to_vec()
}

fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../reference/brwhash_ref.py")
}

fn request(c: &Case) -> String {
    let mut req = json!({
        "alg": c.alg.to_string(),
        "mode": if c.mac { "mac" } else { "digest" },
        "key": hex::encode(&c.key),
    });
    match &c.input {
        // The reference takes vecHash2L input only as components; hash() of one message
        // is the one-component vector.
        Input::Msg(m) if c.alg.is_vector() => req["components"] = json!([hex::encode(m)]),
        Input::Msg(m) => req["msg"] = json!(hex::encode(m)),
        Input::Vector(v) => {
            req["components"] = json!(v.iter().map(hex::encode).collect::<Vec<_>>())
        }
    }
    req.to_string()
}

/// All cases in one batch: write every request, close stdin, read every answer.
fn reference(cases: &[Case]) -> Vec<Value> {
    let mut child = Command::new("python3")
        .arg(script())
        .arg("batch")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 must be installed to run the reference differential test");
    let input: String = cases.iter().map(|c| request(c) + "\n").collect();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "reference exited with {}", out.status);
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), cases.len());
    lines
}

#[test]
fn random_inputs_match_the_reference() {
    let mut rng = Rng(0x00b2_0a5b_0000_0002);
    let all = Algorithm::all();
    let mut cases = Vec::new();
    // Every algorithm at 40 random lengths 0..2000 with random keys; MAC mode for a third.
    for &alg in &all {
        for i in 0..40 {
            let mac = i % 3 == 0 && alg.mac_key_len().is_some();
            let key_len = if mac {
                alg.mac_key_len().unwrap()
            } else {
                alg.key_len()
            };
            let key = if i == 1 {
                vec![0xff; key_len]
            } else {
                rng.bytes(key_len)
            };
            let input = if alg.is_vector() && i % 2 == 0 {
                let k = 1 + rng.below(if i == 2 { 255 } else { 6 }) as usize;
                Input::Vector(
                    (0..k)
                        .map(|_| {
                            let n = rng.below(700) as usize;
                            rng.bytes(n)
                        })
                        .collect(),
                )
            } else {
                let n = rng.below(2000) as usize;
                Input::Msg(if i == 1 { vec![0xff; n] } else { rng.bytes(n) })
            };
            cases.push(Case {
                alg,
                mac,
                key,
                input,
            });
        }
    }
    let want = reference(&cases);
    let mut failures = Vec::new();
    for (c, w) in cases.iter().zip(&want) {
        let expected = w["output"]
            .as_str()
            .unwrap_or_else(|| panic!("reference error: {w}"));
        let got = hex::encode(rust_output(c));
        if got != expected {
            failures.push(format!(
                "{} mac={} -> {got}, reference {expected}",
                c.alg, c.mac
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(cases.len(), 65 * 40);
}

/// One long-running reference process in request/response mode, for proptest's many cases.
struct Oracle {
    child: Child,
    out: BufReader<ChildStdout>,
}

static ORACLE: Mutex<Option<Oracle>> = Mutex::new(None);

fn ask_reference(c: &Case) -> Value {
    let mut guard = ORACLE.lock().unwrap_or_else(|e| e.into_inner());
    let oracle = guard.get_or_insert_with(|| {
        let mut child = Command::new("python3")
            .arg(script())
            .args(["batch", "--stream"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 must be installed to run the reference differential test");
        let out = BufReader::new(child.stdout.take().unwrap());
        Oracle { child, out }
    });
    let stdin = oracle.child.stdin.as_mut().unwrap();
    writeln!(stdin, "{}", request(c)).unwrap();
    stdin.flush().unwrap();
    let mut line = String::new();
    oracle.out.read_line(&mut line).unwrap();
    serde_json::from_str(&line).unwrap_or_else(|e| panic!("bad reference answer {line:?}: {e}"))
}

fn cases() -> impl Strategy<Value = Case> {
    let all = Algorithm::all();
    let msg = proptest::collection::vec(any::<u8>(), 0..2000);
    let comps = proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..300), 1..8);
    (
        0..all.len(),
        any::<bool>(),
        proptest::collection::vec(any::<u8>(), 64),
        msg,
        comps,
    )
        .prop_map(move |(i, mac, key, msg, comps)| {
            let alg = all[i];
            let mac = mac && alg.mac_key_len().is_some();
            let key_len = if mac {
                alg.mac_key_len().unwrap()
            } else {
                alg.key_len()
            };
            let input = if alg.is_vector() {
                Input::Vector(comps)
            } else {
                Input::Msg(msg)
            };
            Case {
                alg,
                mac,
                key: key[..key_len].to_vec(),
                input,
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, .. ProptestConfig::default() })]

    /// Random algorithm, mode, key and message (0..2000 bytes) or vector: the crate agrees
    /// with the reference, and proptest shrinks any disagreement to a small case.
    #[test]
    fn proptest_against_reference(c in cases()) {
        let want = ask_reference(&c);
        let expected = want["output"].as_str().unwrap_or_else(|| panic!("reference error: {want}"));
        prop_assert_eq!(hex::encode(rust_output(&c)), expected, "{} mac={}", c.alg, c.mac);
    }
}
