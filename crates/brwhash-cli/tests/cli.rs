//! End-to-end tests of the `brwhash` binary: output formats, agreement with the library and
//! the known-answer vectors, and every error path.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use assert_cmd::Command;
use brwhash::{Algorithm, Backend, Key, Mac};
use predicates::prelude::*;
use predicates::str::contains;
use serde_json::Value;
use tempfile::TempDir;

const K16: &str = "000102030405060708090a0b0c0d0e0f";
const K32: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const RFC_KEY: &str = "85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b";
const RFC_MSG: &[u8] = b"Cryptographic Forum Research Group";
const RFC_TAG: &str = "a8061dc1305136c6c22b8baf0c0127a9";

/// The binary, with `BRWHASH_BACKEND` cleared so the caller's environment cannot interfere.
fn brwhash() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_brwhash"));
    cmd.env_remove(brwhash::backend::BACKEND_ENV);
    cmd
}

/// `brwhash <sub> --alg <alg> --key <key_hex>`: the caller adds the directory, files, further
/// options and stdin.
fn keyed(sub: &str, alg: &str, key_hex: &str) -> Command {
    let mut cmd = brwhash();
    cmd.args([sub, "--alg", alg, "--key", key_hex]);
    cmd
}

/// What `--key` prints on stderr once the arguments are accepted.
const KEY_WARNING: &str = "brwhash: warning: --key puts the key on the command line, where other \
     users can read it (ps, /proc) and shell history keeps it; prefer --key-file\n";

/// `brwhash <sub> --alg <alg> --key-file <key_file>`, likewise.
fn keyed_by_file(sub: &str, alg: &str, key_file: &str) -> Command {
    let mut cmd = brwhash();
    cmd.args([sub, "--alg", alg, "--key-file", key_file]);
    cmd
}

/// SPEC.md section 10: `bytes(i % 256 for i in range(n))`.
fn msg(n: usize) -> Vec<u8> {
    (0..n).map(|i| i as u8).collect()
}

fn alg_named(name: &str) -> Algorithm {
    name.parse().unwrap()
}

fn unhex(s: &str) -> Vec<u8> {
    hex::decode(s).unwrap()
}

/// A temporary directory with files of the given contents.
fn dir_with(files: &[(&str, &[u8])]) -> TempDir {
    let dir = TempDir::new().unwrap();
    for (name, data) in files {
        std::fs::write(dir.path().join(name), data).unwrap();
    }
    dir
}

fn stdout_of(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "status {:?}, stderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `cmd` fails with status 2, prints nothing on stdout, and its error line (prefixed
/// `brwhash: `) contains every one of `parts`.
fn assert_usage_error(cmd: &mut Command, parts: &[&str]) {
    let out = cmd.assert().code(2).stdout("").get_output().stderr.clone();
    let err = String::from_utf8(out).unwrap();
    assert!(err.starts_with("brwhash: "), "{err}");
    for part in parts {
        assert!(err.contains(part), "{part:?} not in {err:?}");
    }
}

fn digest_hex(alg: &str, key: &str, data: &[u8]) -> String {
    let alg: Algorithm = alg.parse().unwrap();
    brwhash::hash(alg, &unhex(key), data).unwrap().to_hex()
}

// ---------------------------------------------------------------- output formats

#[test]
fn digest_of_a_file() {
    let dir = dir_with(&[("m16", &msg(16))]);
    keyed("digest", "polyHash1305", K16)
        .current_dir(dir.path())
        .arg("m16")
        .assert()
        .success()
        .stdout("9218082329daf53b6c468af74d4db545  m16\n")
        .stderr(KEY_WARNING);
}

#[test]
fn a_key_file_gives_no_warning() {
    let dir = dir_with(&[("m16", &msg(16)), ("k", &unhex(K16))]);
    keyed_by_file("digest", "polyHash1305", "k")
        .current_dir(dir.path())
        .arg("m16")
        .assert()
        .success()
        .stdout("9218082329daf53b6c468af74d4db545  m16\n")
        .stderr("");
}

#[test]
fn digest_of_stdin_dash_and_no_file() {
    for extra in [&["-"][..], &[][..]] {
        keyed("digest", "polyHash1305", K16)
            .args(extra)
            .write_stdin(msg(16))
            .assert()
            .success()
            .stdout("9218082329daf53b6c468af74d4db545  -\n");
    }
}

#[test]
fn digest_of_two_files_in_order() {
    let dir = dir_with(&[("a", &msg(225)), ("b", &msg(226))]);
    keyed("digest", "4-Hash1271", K16)
        .current_dir(dir.path())
        .args(["b", "a"])
        .assert()
        .success()
        .stdout(
            "0d1fdf7bcff9c6ad458907abf387431c  b\n\
             09931e0adb8ab092e58edbabc878f01a  a\n",
        );
}

#[test]
fn file_and_stdin_mixed() {
    let dir = dir_with(&[("a", b"hello")]);
    let expected = format!(
        "{}  a\n{}  -\n",
        digest_hex("4-decBRWHash1305", K16, b"hello"),
        digest_hex("4-decBRWHash1305", K16, b"from stdin")
    );
    keyed("digest", "4-decbrwhash1305", K16)
        .current_dir(dir.path())
        .args(["a", "-"])
        .write_stdin("from stdin")
        .assert()
        .success()
        .stdout(expected);
}

#[test]
fn vechash2l_files_are_one_vector() {
    let (a, b, c) = (msg(5), Vec::new(), msg(600));
    let dir = dir_with(&[("a", &a), ("b", &b), ("c", &c)]);
    // SPEC.md section 10: vecHash2L128, components (5, 0, 600).
    keyed("digest", "vecHash2L128", K16)
        .current_dir(dir.path())
        .args(["a", "b", "c"])
        .assert()
        .success()
        .stdout("e721df2e1fee861efd2b81b5921626fa  a b c\n");
    for (alg, key) in [("vecHash2L128", K16), ("vecHash2L256", K32)] {
        let algorithm: Algorithm = alg.parse().unwrap();
        let expected =
            brwhash::hash_vector(algorithm, &unhex(key), &[&c[..], &a[..], &b[..]]).unwrap();
        keyed("digest", alg, key)
            .current_dir(dir.path())
            .args(["c", "a", "b"])
            .assert()
            .success()
            .stdout(format!("{}  c a b\n", expected.to_hex()));
    }
}

#[test]
fn vechash2l_single_component_from_stdin() {
    let expected = brwhash::hash_vector(Algorithm::VECHASH2L256, &unhex(K32), &[b"xyz"]).unwrap();
    keyed("digest", "vechash2l256", K32)
        .write_stdin("xyz")
        .assert()
        .success()
        .stdout(format!("{}  -\n", expected.to_hex()));
}

#[test]
fn vechash2l_component_count_limits() {
    let dir = dir_with(&[("e", b"")]);
    let many = |n: usize| vec!["e"; n];
    let empties: Vec<&[u8]> = vec![b""; 255];
    let expected = brwhash::hash_vector(Algorithm::VECHASH2L128, &unhex(K16), &empties).unwrap();
    keyed("digest", "vecHash2L128", K16)
        .current_dir(dir.path())
        .args(many(255))
        .assert()
        .success()
        .stdout(format!("{}  {}\n", expected.to_hex(), many(255).join(" ")));
    assert_usage_error(
        keyed("digest", "vecHash2L128", K16)
            .current_dir(dir.path())
            .args(many(256)),
        &["1 to 255 components, got 256"],
    );
}

#[test]
fn vechash2l_missing_component_prints_no_digest() {
    let dir = dir_with(&[("a", b"1")]);
    keyed("digest", "vecHash2L128", K16)
        .current_dir(dir.path())
        .args(["a", "nope", "a"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains("brwhash: nope: "));
}

// ---------------------------------------------------------------- known answers

#[test]
fn spec_examples() {
    let k00_1f = K32;
    let cases: [(&str, &str, &str, usize, &str); 14] = [
        (
            "polyHash1271",
            "digest",
            K16,
            1,
            "1e000102030405060708090a0b0c0d0e",
        ),
        (
            "polyHash1305",
            "digest",
            K16,
            16,
            "9218082329daf53b6c468af74d4db545",
        ),
        (
            "BRWHash1305",
            "digest",
            K16,
            1000,
            "5e05d0a5c0fbe9932b6202ec7e6794a4",
        ),
        (
            "4-BRWHash1271",
            "digest",
            K16,
            255,
            "2e7ff56d2b96cb1844ed69cb30b2a52e",
        ),
        (
            "4-2LHash1271",
            "digest",
            K16,
            1000,
            "3c613029029d0b45b31d6e1e7e097a18",
        ),
        (
            "4-Hash1271",
            "digest",
            K16,
            225,
            "09931e0adb8ab092e58edbabc878f01a",
        ),
        (
            "4-Hash1271",
            "digest",
            K16,
            226,
            "0d1fdf7bcff9c6ad458907abf387431c",
        ),
        (
            "4-decBRWHash1305",
            "digest",
            K16,
            1000,
            "39e08fa7d0afa860c3b0ea23d5f89a0c",
        ),
        (
            "8-decBRWHash1271",
            "digest",
            K16,
            4096,
            "a8931b3a79fc3cb310b610175266ee01",
        ),
        (
            "Hash2L128",
            "digest",
            K16,
            497,
            "34f5f05fd45bcaf2534adb7156663c47",
        ),
        (
            "Hash2L256",
            "digest",
            k00_1f,
            33,
            "ca2c07e4930a6291b5ca59c0d72e2fb4711e770560fa0171463a3a2024de4c54",
        ),
        (
            "polyHash1305",
            "mac",
            k00_1f,
            1000,
            "ecaa2d79f8e517aadd3b498ccb0d7c62",
        ),
        (
            "4-Hash1271",
            "mac",
            k00_1f,
            256,
            "ff88a3fde9074a618f54c52cc343da0e",
        ),
        (
            "Hash2L128",
            "mac",
            k00_1f,
            17,
            "850a05a7cd8482a0db64516f01e9d668",
        ),
    ];
    for (alg, mode, key, n, output) in cases {
        keyed(mode, alg, key)
            .write_stdin(msg(n))
            .assert()
            .success()
            .stdout(format!("{output}  -\n"));
    }
}

fn kat_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/vectors/kat.json")
}

/// One case of every (algorithm, mode) pair of kat.json (the longest input), through the
/// binary: digest or mac, then verify for the mac cases.
#[test]
fn kat_json_sample() {
    let text = std::fs::read_to_string(kat_file()).unwrap();
    let json: Value = serde_json::from_str(&text).unwrap();
    let mut chosen: BTreeMap<(String, String), &Value> = BTreeMap::new();
    let size = |v: &Value| -> u64 {
        match v.get("component_lens") {
            Some(lens) => lens
                .as_array()
                .unwrap()
                .iter()
                .map(|n| n.as_u64().unwrap())
                .sum(),
            None => v["msg_len"].as_u64().unwrap(),
        }
    };
    for v in json["vectors"].as_array().unwrap() {
        let id = (
            v["algorithm"].as_str().unwrap().to_string(),
            v["mode"].as_str().unwrap().to_string(),
        );
        let entry = chosen.entry(id).or_insert(v);
        let lens = v
            .get("component_lens")
            .map_or(1, |l| l.as_array().unwrap().len());
        if lens <= 8 && size(v) > size(entry) {
            *entry = v;
        }
    }
    assert!(chosen.len() >= 50, "{} pairs", chosen.len());
    for ((alg, mode), v) in &chosen {
        let fill = v.get("msg_fill").map(|f| f.as_u64().unwrap() as u8);
        let make = |n: u64| match fill {
            Some(b) => vec![b; n as usize],
            None => msg(n as usize),
        };
        let components: Vec<Vec<u8>> = match v.get("component_lens") {
            Some(lens) => lens
                .as_array()
                .unwrap()
                .iter()
                .map(|n| make(n.as_u64().unwrap()))
                .collect(),
            None => vec![make(v["msg_len"].as_u64().unwrap())],
        };
        let dir = TempDir::new().unwrap();
        let mut names = Vec::new();
        for (i, c) in components.iter().enumerate() {
            let name = format!("c{i}");
            std::fs::write(dir.path().join(&name), c).unwrap();
            names.push(name);
        }
        let key = v["key"].as_str().unwrap();
        let output = v["output"].as_str().unwrap();
        keyed(mode.as_str(), alg, key)
            .current_dir(dir.path())
            .args(&names)
            .assert()
            .success()
            .stdout(format!("{output}  {}\n", names.join(" ")));
        if mode == "mac" || alg == "Poly1305" {
            keyed("verify", alg, key)
                .current_dir(dir.path())
                .args(["--tag", output])
                .args(&names)
                .assert()
                .success()
                .stdout(format!("{}: OK\n", names.join(" ")));
        }
    }
}

#[test]
fn agrees_with_the_library() {
    let dir = TempDir::new().unwrap();
    let lens = [0usize, 1, 15, 16, 17, 100, 1000, 70_000, 200_003];
    let names: Vec<String> = lens.iter().map(|n| format!("m{n}")).collect();
    for (n, name) in lens.iter().zip(&names) {
        let data: Vec<u8> = (0..*n).map(|i| (i * 7 + 3) as u8).collect();
        std::fs::write(dir.path().join(name), data).unwrap();
    }
    for alg in Algorithm::all() {
        let key: Vec<u8> = (0..alg.key_len() as u8)
            .map(|b| b.wrapping_mul(37) ^ 0x5a)
            .collect();
        let out = stdout_of(
            keyed("digest", &alg.to_string(), &hex::encode(&key))
                .current_dir(dir.path())
                .args(&names),
        );
        let expected: String = if alg.is_vector() {
            let data: Vec<Vec<u8>> = names
                .iter()
                .map(|n| std::fs::read(dir.path().join(n)).unwrap())
                .collect();
            let refs: Vec<&[u8]> = data.iter().map(Vec::as_slice).collect();
            let d = brwhash::hash_vector(alg, &key, &refs).unwrap();
            format!("{}  {}\n", d.to_hex(), names.join(" "))
        } else {
            names
                .iter()
                .map(|n| {
                    let data = std::fs::read(dir.path().join(n)).unwrap();
                    let d = brwhash::hash(alg, &key, &data).unwrap();
                    format!("{}  {n}\n", d.to_hex())
                })
                .collect()
        };
        assert_eq!(out, expected, "{alg}");
    }
}

// ---------------------------------------------------------------- Poly1305

#[test]
fn rfc8439_poly1305_digest_and_verify() {
    keyed("digest", "Poly1305", RFC_KEY)
        .write_stdin(RFC_MSG)
        .assert()
        .success()
        .stdout(format!("{RFC_TAG}  -\n"));
    keyed("verify", "poly1305", RFC_KEY)
        .args(["--tag", RFC_TAG])
        .write_stdin(RFC_MSG)
        .assert()
        .code(0)
        .stdout("-: OK\n");
    // Upper-case hex is accepted for keys and tags.
    keyed("verify", "Poly1305", &RFC_KEY.to_uppercase())
        .args(["--tag", &RFC_TAG.to_uppercase()])
        .write_stdin(RFC_MSG)
        .assert()
        .code(0)
        .stdout("-: OK\n");
    let mut bad = unhex(RFC_TAG);
    bad[15] ^= 0x80;
    keyed("verify", "Poly1305", RFC_KEY)
        .args(["--tag", &hex::encode(bad)])
        .write_stdin(RFC_MSG)
        .assert()
        .code(1)
        .stdout("-: FAILED\n");
}

#[test]
fn poly1305_has_no_mac_mode() {
    keyed("mac", "Poly1305", RFC_KEY)
        .write_stdin(RFC_MSG)
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            contains("brwhash: ")
                .and(contains("no MAC mode"))
                .and(contains("brwhash digest")),
        );
}

// ---------------------------------------------------------------- MAC mode and verify

#[test]
fn mac_mode_matches_the_library() {
    for (alg, key_len) in [("4-Hash1271", 32), ("Hash2L256", 64), ("3-BRWHash1305", 32)] {
        let algorithm: Algorithm = alg.parse().unwrap();
        let key: Vec<u8> = (0..key_len as u8).map(|b| b ^ 0xa5).collect();
        let expected = brwhash::mac(algorithm, &key, b"attack at dawn").unwrap();
        keyed("mac", alg, &hex::encode(&key))
            .write_stdin("attack at dawn")
            .assert()
            .success()
            .stdout(format!("{}  -\n", expected.to_hex()))
            .stderr(KEY_WARNING);
    }
}

#[test]
fn mac_of_several_files_warns_about_key_reuse() {
    let dir = dir_with(&[("a", b"1"), ("b", b"2")]);
    let mac = Mac::new(Algorithm::POLYHASH1271, &unhex(K32)).unwrap();
    keyed("mac", "polyHash1271", K32)
        .current_dir(dir.path())
        .args(["a", "b"])
        .assert()
        .success()
        .stdout(format!(
            "{}  a\n{}  b\n",
            mac.tag(b"1").to_hex(),
            mac.tag(b"2").to_hex()
        ))
        .stderr(contains("warning").and(contains("one-time")));
}

#[test]
fn vechash2l_mac_and_verify() {
    let dir = dir_with(&[("a", b"first"), ("b", b"second")]);
    let key: Vec<u8> = (0..64u8).collect();
    let mac = Mac::new(Algorithm::VECHASH2L256, &key).unwrap();
    let tag = mac.tag_vector(&[b"first", b"second"]).unwrap().to_hex();
    keyed("mac", "vecHash2L256", &hex::encode(&key))
        .current_dir(dir.path())
        .args(["a", "b"])
        .assert()
        .success()
        .stdout(format!("{tag}  a b\n"))
        .stderr(KEY_WARNING);
    keyed("verify", "vecHash2L256", &hex::encode(&key))
        .current_dir(dir.path())
        .args(["--tag", &tag, "a", "b"])
        .assert()
        .code(0)
        .stdout("a b: OK\n");
    keyed("verify", "vecHash2L256", &hex::encode(&key))
        .current_dir(dir.path())
        .args(["--tag", &tag, "b", "a"])
        .assert()
        .code(1)
        .stdout("b a: FAILED\n");
}

#[test]
fn verify_ok_failed_and_unreadable() {
    let dir = dir_with(&[("good", b"message"), ("bad", b"massage")]);
    let tag = brwhash::mac(alg_named("4-Hash1271"), &unhex(K32), b"message")
        .unwrap()
        .to_hex();
    let verify = |files: &[&str]| {
        let mut cmd = keyed("verify", "4-Hash1271", K32);
        cmd.current_dir(dir.path())
            .args(["--tag", &tag])
            .args(files);
        cmd
    };
    verify(&["good"])
        .assert()
        .code(0)
        .stdout("good: OK\n")
        .stderr(KEY_WARNING);
    verify(&["bad"])
        .assert()
        .code(1)
        .stdout("bad: FAILED\n")
        .stderr(KEY_WARNING);
    verify(&["good", "bad"])
        .assert()
        .code(1)
        .stdout("good: OK\nbad: FAILED\n");
    verify(&["missing", "bad", "good"])
        .assert()
        .code(2)
        .stdout("missing: FAILED open or read\nbad: FAILED\ngood: OK\n")
        .stderr(contains("brwhash: missing: "));
}

#[test]
fn verify_rejects_bad_tags_before_reading() {
    for (tag, message) in [
        ("00", "tags are 16 bytes, got 1 bytes"),
        (&"00".repeat(32)[..], "tags are 16 bytes, got 32 bytes"),
        ("0g", "--tag: not valid hex"),
        ("000", "--tag: not valid hex"),
    ] {
        assert_usage_error(
            keyed("verify", "4-Hash1271", K32)
                .args(["--tag", tag])
                .write_stdin("x"),
            &[message],
        );
    }
}

// ---------------------------------------------------------------- key files

#[test]
fn key_file_raw_and_hex() {
    let raw = unhex(K16);
    let expected = "0d1fdf7bcff9c6ad458907abf387431c  -\n";
    let cases: [(&str, Vec<u8>); 5] = [
        ("raw", raw.clone()),
        ("hex-newline", format!("{K16}\n").into_bytes()),
        ("hex-plain", K16.as_bytes().to_vec()),
        (
            "hex-upper-spaced",
            format!("  {}\r\n\n", K16.to_uppercase()).into_bytes(),
        ),
        ("hex-tab", format!("\t{K16}\t").into_bytes()),
    ];
    let dir = TempDir::new().unwrap();
    for (name, contents) in &cases {
        std::fs::write(dir.path().join(name), contents).unwrap();
        keyed_by_file("digest", "4-Hash1271", name)
            .current_dir(dir.path())
            .write_stdin(msg(226))
            .assert()
            .success()
            .stdout(expected);
    }
    // A raw MAC key (32 bytes) that happens to contain a newline byte and spaces.
    let mac_key: Vec<u8> = (0..32u8)
        .map(|i| if i % 3 == 0 { b'\n' } else { b' ' + i })
        .collect();
    std::fs::write(dir.path().join("mac-raw"), &mac_key).unwrap();
    let tag = brwhash::mac(alg_named("4-Hash1271"), &mac_key, b"m").unwrap();
    keyed_by_file("mac", "4-Hash1271", "mac-raw")
        .current_dir(dir.path())
        .write_stdin("m")
        .assert()
        .success()
        .stdout(format!("{}  -\n", tag.to_hex()));
}

#[test]
fn key_file_errors() {
    let dir = dir_with(&[
        ("short-raw", &[1u8; 15]),
        ("inner-space", b"00010203 0405060708090a0b0c0d0e0f\n"),
        ("hex-15", b"000102030405060708090a0b0c0d0e\n"),
    ]);
    std::fs::create_dir(dir.path().join("adir")).unwrap();
    for (file, message) in [
        ("short-raw", "not a raw 16-byte key"),
        ("inner-space", "not hex text"),
        ("hex-15", "needs a 16-byte key, got 15 bytes"),
        ("absent", "key file absent"),
        ("adir", "key file adir"),
    ] {
        assert_usage_error(
            keyed_by_file("digest", "4-Hash1271", file)
                .current_dir(dir.path())
                .write_stdin("x"),
            &[message],
        );
    }
}

#[test]
fn key_file_of_hex_digits_at_the_raw_size_is_raw_with_a_warning() {
    // 32 hex digits and no newline for a 32-byte MAC key: raw by the rule, but suspicious.
    let dir = dir_with(&[("k", K16.as_bytes())]);
    let tag = brwhash::mac(alg_named("polyHash1271"), K16.as_bytes(), b"m").unwrap();
    keyed_by_file("mac", "polyHash1271", "k")
        .current_dir(dir.path())
        .write_stdin("m")
        .assert()
        .success()
        .stdout(format!("{}  -\n", tag.to_hex()))
        .stderr(
            contains("brwhash: warning: key file k").and(contains("hex text of a 16-byte key")),
        );
}

#[test]
fn exactly_one_key_source() {
    brwhash()
        .args(["digest", "--alg", "4-Hash1271"])
        .write_stdin("x")
        .assert()
        .code(2)
        .stdout("");
    keyed("digest", "4-Hash1271", K16)
        .args(["--key-file", "k"])
        .write_stdin("x")
        .assert()
        .code(2)
        .stdout("");
}

// ---------------------------------------------------------------- argument errors

#[test]
fn argument_errors_exit_2_before_reading() {
    let dir = dir_with(&[("m", b"data")]);
    let cases: [(&[&str], &str); 10] = [
        (
            &["--alg", "4-Hash1271", "--key", "00"],
            "(digest) needs a 16-byte key, got 1 bytes",
        ),
        (
            &["--alg", "Hash2L256", "--key", K16],
            "needs a 32-byte key, got 16 bytes",
        ),
        (
            &[
                "--alg",
                "4-Hash1271",
                "--key",
                "0g0102030405060708090a0b0c0d0e0f",
            ],
            "invalid character 'g'",
        ),
        (
            &["--alg", "4-Hash1271", "--key", "000"],
            "odd number of hex digits",
        ),
        (
            &[
                "--alg",
                "4-Hash1271",
                "--key",
                "00010203 0405060708090a0b0c0d0e0f",
            ],
            "not valid hex",
        ),
        (
            &[
                "--alg",
                "4-Hash1271",
                "--key",
                "0x000102030405060708090a0b0c0d0e0f",
            ],
            "not valid hex",
        ),
        (
            &["--alg", "SHA-256", "--key", K16],
            "unknown algorithm \"SHA-256\"",
        ),
        (
            &["--alg", "6-Hash1271", "--key", K16],
            "parameter out of range (d = 2..5)",
        ),
        (
            &["--alg", "17-decBRWHash1305", "--key", K16],
            "parameter out of range (c = 1..16)",
        ),
        (
            &["--alg", "4-Hash1271", "--key", K16, "--backend", "sse9"],
            "unknown backend \"sse9\"",
        ),
    ];
    for (args, message) in cases {
        brwhash()
            .current_dir(dir.path())
            .arg("digest")
            .args(args)
            .arg("m")
            .assert()
            .code(2)
            .stdout("")
            .stderr(
                predicate::str::starts_with("brwhash: ")
                    .and(contains(message))
                    .and(predicate::str::is_match("^[^\n]*\n$").unwrap())
                    .and(contains("panicked").not()),
            );
    }
    // The library's own text for an unknown name.
    let err = "nope".parse::<Algorithm>().unwrap_err();
    keyed("mac", "nope", K32)
        .assert()
        .code(2)
        .stderr(format!("brwhash: {err}\n"));
    // MAC mode wants tau || s.
    keyed("mac", "polyHash1305", K16)
        .write_stdin("x")
        .assert()
        .code(2)
        .stderr(contains(
            "polyHash1305 (mac) needs a 32-byte key, got 16 bytes",
        ));
}

#[test]
fn missing_file_and_directory_do_not_stop_the_others() {
    let dir = dir_with(&[("a", b"A"), ("b", b"B")]);
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    let expected = format!(
        "{}  a\n{}  b\n",
        digest_hex("4-Hash1305", K16, b"A"),
        digest_hex("4-Hash1305", K16, b"B")
    );
    keyed("digest", "4-Hash1305", K16)
        .current_dir(dir.path())
        .args(["a", "missing", "sub", "b"])
        .assert()
        .code(2)
        .stdout(expected)
        .stderr(
            predicate::str::is_match("^brwhash: warning: --key [^\n]+\nbrwhash: missing: [^\n]+\nbrwhash: sub: [^\n]+\n$").unwrap(),
        );
}

// ---------------------------------------------------------------- backends

#[test]
fn unknown_backend_is_an_error() {
    assert_usage_error(
        keyed("digest", "4-Hash1271", K16)
            .args(["--backend", "bogus"])
            .write_stdin("x"),
        &["unknown backend \"bogus\""],
    );
}

#[test]
fn forced_backends_succeed_or_fail_cleanly() {
    let alg = alg_named("4-Hash1271");
    let expected = format!("{}  -\n", digest_hex("4-Hash1271", K16, &msg(1000)));
    let mac_key = unhex(K32);
    let expected_tag = format!(
        "{}  -\n",
        brwhash::mac(alg, &mac_key, &msg(1000)).unwrap().to_hex()
    );
    for backend in Backend::ALL {
        let runs_here = backend.check(alg).is_ok();
        assert_eq!(
            runs_here,
            Key::with_backend(alg, &unhex(K16), backend).is_ok()
        );
        for (mode, key, out) in [("digest", K16, &expected), ("mac", K32, &expected_tag)] {
            let assert = keyed(mode, "4-Hash1271", key)
                .args(["--backend", backend.name()])
                .write_stdin(msg(1000))
                .assert();
            if runs_here {
                assert.success().stdout(out.clone());
            } else {
                assert.code(2).stdout("").stderr(contains(format!(
                    "backend {} is not available",
                    backend.name()
                )));
            }
        }
    }
    // avx2 in particular (only the portable backend is built so far).
    let assert = keyed("digest", "4-Hash1271", K16)
        .args(["--backend", "avx2"])
        .write_stdin(msg(1000))
        .assert();
    if Backend::Avx2.check(alg).is_ok() {
        assert.success().stdout(expected);
    } else {
        assert
            .code(2)
            .stderr(contains("brwhash: backend avx2 is not available"));
    }
}

#[test]
fn backend_environment_variable() {
    let expected = format!("{}  -\n", digest_hex("4-Hash1271", K16, b"env"));
    keyed("digest", "4-Hash1271", K16)
        .env("BRWHASH_BACKEND", "portable")
        .write_stdin("env")
        .assert()
        .success()
        .stdout(expected.clone());
    keyed("digest", "4-Hash1271", K16)
        .env("BRWHASH_BACKEND", "bogus")
        .write_stdin("env")
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains("brwhash: BRWHASH_BACKEND").and(contains("unknown backend \"bogus\"")));
    // --backend wins over the environment.
    keyed("digest", "4-Hash1271", K16)
        .env("BRWHASH_BACKEND", "bogus")
        .args(["--backend", "portable"])
        .write_stdin("env")
        .assert()
        .success()
        .stdout(expected);
}

// ---------------------------------------------------------------- list

#[test]
fn list_prints_every_algorithm_and_backend() {
    let out = stdout_of(brwhash().arg("list"));
    let first_words: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let algs = Algorithm::all();
    assert_eq!(algs.len(), 65);
    for alg in &algs {
        let name = alg.to_string();
        let line = out
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name.as_str()))
            .unwrap_or_else(|| panic!("{name} missing from:\n{out}"));
        let cols: Vec<&str> = line.split_whitespace().collect();
        let mac = alg.mac_key_len().map_or("-".to_string(), |n| n.to_string());
        assert_eq!(
            cols,
            [
                name.as_str(),
                &alg.key_len().to_string(),
                &alg.digest_len().to_string(),
                &mac
            ],
            "{line}"
        );
    }
    for b in Backend::ALL {
        assert!(first_words.contains(&b.name()), "{} missing", b.name());
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("{} ", b.name())))
            .unwrap();
        let cpu = if b.cpu_supports() { "yes" } else { "no" };
        assert_eq!(line.split_whitespace().nth(1), Some(cpu), "{line}");
    }
    // The default backend (for Poly1305, say) is marked as such.
    let default = Backend::select(Algorithm::POLY1305, None).unwrap();
    let line = out
        .lines()
        .find(|l| l.starts_with(&format!("{} ", default.name())))
        .unwrap();
    assert!(!line.trim_end().ends_with(" no"), "{line}");
    // Aligned: every algorithm row has the same length.
    let widths: Vec<usize> = algs
        .iter()
        .map(|a| {
            out.lines()
                .find(|l| l.split_whitespace().next() == Some(a.to_string().as_str()))
                .unwrap()
                .len()
        })
        .collect();
    assert!(widths.iter().all(|&w| w == widths[0]), "{widths:?}");
}

#[test]
fn list_reports_a_bad_environment_variable() {
    brwhash()
        .env("BRWHASH_BACKEND", "bogus")
        .arg("list")
        .assert()
        .code(2)
        .stdout(contains("Poly1305"))
        .stderr(contains("brwhash: BRWHASH_BACKEND"));
}

// ---------------------------------------------------------------- streaming, pipes, help

#[test]
fn large_stdin_is_streamed() {
    let data: Vec<u8> = (0..5_000_003u32).map(|i| (i ^ (i >> 9)) as u8).collect();
    for alg in ["4-Hash1271", "4-decBRWHash1305", "Hash2L256", "Poly1305"] {
        let algorithm: Algorithm = alg.parse().unwrap();
        let key: Vec<u8> = (0..algorithm.key_len() as u8)
            .map(|b| b.wrapping_mul(11))
            .collect();
        let expected = brwhash::hash(algorithm, &key, &data).unwrap();
        keyed("digest", alg, &hex::encode(&key))
            .write_stdin(data.clone())
            .assert()
            .success()
            .stdout(format!("{}  -\n", expected.to_hex()));
    }
}

#[test]
fn closed_stdout_does_not_panic() {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_brwhash"))
        .env_remove("BRWHASH_BACKEND")
        .args(["digest", "--alg", "4-Hash1271", "--key", K16, "-", "-", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close the reading end before the tool writes anything.
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(&msg(100_000));
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(stderr, KEY_WARNING);
}

#[test]
fn help_texts() {
    brwhash().arg("--help").assert().success().stdout(
        contains("brwhash list")
            .and(contains("--key-file"))
            .and(contains("visible"))
            .and(contains("4-Hash1271"))
            .and(contains("vecHash2L"))
            .and(contains("raw bytes")),
    );
    brwhash()
        .args(["digest", "--help"])
        .assert()
        .success()
        .stdout(
            contains("<hex digest>  <file>")
                .and(contains("<file1> <file2> ..."))
                .and(contains("prefer --key-file")),
        );
    brwhash()
        .args(["mac", "--help"])
        .assert()
        .success()
        .stdout(contains("tau || s").and(contains("Poly1305 has no MAC mode")));
    brwhash()
        .args(["verify", "--help"])
        .assert()
        .success()
        .stdout(contains("<file>: OK").and(contains("constant time")));
    brwhash().assert().code(2);
    brwhash().arg("frobnicate").assert().code(2);
}

// ---------------------------------------------------------------- mmap, threads, check, json

/// A key of the algorithm's size (or its MAC key size) that is not all zeros.
fn key_for(alg: Algorithm, mac: bool) -> Vec<u8> {
    let len = if mac {
        alg.mac_key_len().unwrap()
    } else {
        alg.key_len()
    };
    (0..len as u8).map(|b| b.wrapping_mul(37) ^ 0x5c).collect()
}

/// Bytes that are not periodic in any small period.
fn noise(n: usize) -> Vec<u8> {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

const MMAP_ALGS: [&str; 8] = [
    "Poly1305",
    "polyHash1271",
    "BRWHash1305",
    "4-Hash1271",
    "4-decBRWHash1305",
    "3-2LHash1305",
    "Hash2L128",
    "Hash2L256",
];

/// vecHash2L of big files: components hashed side by side on the thread pool (positioned
/// reads), on one thread, mapped and streamed all give the library's digest and tag.
#[test]
fn vechash2l_big_components_on_every_path() {
    let (big, mid) = (noise((3 << 20) + 5), noise(700_001));
    let dir = dir_with(&[("big", &big), ("mid", &mid), ("empty", b"")]);
    let names = ["mid", "big", "empty", "big"];
    let parts: [&[u8]; 4] = [&mid, &big, b"", &big];
    let runs: [&[&str]; 6] = [
        &[],
        &["--threads", "1"],
        &["--threads", "2"],
        &["--threads", "3"],
        &["--mmap", "--threads", "2"],
        &["--no-mmap"],
    ];
    for alg in ["vecHash2L128", "vecHash2L256"] {
        let algorithm = alg_named(alg);
        let key = key_for(algorithm, false);
        let digest = Key::new(algorithm, &key)
            .unwrap()
            .hash_vector(&parts)
            .unwrap();
        let mac_key = key_for(algorithm, true);
        let tag = Mac::new(algorithm, &mac_key)
            .unwrap()
            .tag_vector(&parts)
            .unwrap()
            .to_hex();
        for extra in runs {
            keyed("digest", alg, &hex::encode(&key))
                .current_dir(dir.path())
                .args(extra)
                .args(names)
                .assert()
                .success()
                .stdout(format!("{}  mid big empty big\n", digest.to_hex()));
            keyed("mac", alg, &hex::encode(&mac_key))
                .current_dir(dir.path())
                .args(extra)
                .args(names)
                .assert()
                .success()
                .stdout(format!("{tag}  mid big empty big\n"));
            keyed("verify", alg, &hex::encode(&mac_key))
                .current_dir(dir.path())
                .args(extra)
                .args(["--tag", &tag])
                .args(names)
                .assert()
                .success();
        }
        // A missing component: reported, no digest, on every path.
        for extra in runs {
            keyed("digest", alg, &hex::encode(&key))
                .current_dir(dir.path())
                .args(extra)
                .args(["big", "nope"])
                .assert()
                .code(2)
                .stdout("")
                .stderr(contains("brwhash: nope: "));
        }
    }
}

#[test]
fn mmap_stream_stdin_and_thread_counts_agree() {
    let data = noise((5 << 20) + 1);
    let dir = dir_with(&[("big", &data)]);
    for alg in MMAP_ALGS {
        let algorithm = alg_named(alg);
        let key = key_for(algorithm, false);
        let expected = format!(
            "{}  big\n",
            Key::new(algorithm, &key).unwrap().hash(&data).to_hex()
        );
        let runs: [&[&str]; 6] = [
            &[],
            &["--threads", "1"],
            &["--threads", "2"],
            &["--threads", "3"],
            &["--no-mmap"],
            &["--no-mmap", "--threads", "2"],
        ];
        for extra in runs {
            keyed("digest", alg, &hex::encode(&key))
                .current_dir(dir.path())
                .args(extra)
                .arg("big")
                .assert()
                .success()
                .stdout(expected.clone())
                .stderr(KEY_WARNING);
        }
        keyed("digest", alg, &hex::encode(&key))
            .write_stdin(data.clone())
            .assert()
            .success()
            .stdout(expected.replace("big", "-"));
    }
    // MAC mode takes the same paths.
    for alg in ["4-decBRWHash1305", "Hash2L128", "polyHash1305"] {
        let algorithm = alg_named(alg);
        let key = key_for(algorithm, true);
        let tag = Mac::new(algorithm, &key).unwrap().tag(&data).to_hex();
        for extra in [&["--threads", "2"][..], &["--threads", "1"], &["--no-mmap"]] {
            keyed("mac", alg, &hex::encode(&key))
                .current_dir(dir.path())
                .args(extra)
                .arg("big")
                .assert()
                .success()
                .stdout(format!("{tag}  big\n"));
            keyed("verify", alg, &hex::encode(&key))
                .current_dir(dir.path())
                .args(extra)
                .args(["--tag", &tag, "big"])
                .assert()
                .success()
                .stdout("big: OK\n");
        }
    }
}

#[test]
fn mmap_matches_stream_at_odd_lengths() {
    // Around the library's parallel threshold (1 MiB) and block and super-block edges.
    let lengths = [
        1usize,
        15,
        16,
        17,
        4095,
        (1 << 20) - 1,
        1 << 20,
        (1 << 20) + 17,
    ];
    let big = noise((1 << 20) + 17);
    let files: Vec<(String, &[u8])> = lengths
        .iter()
        .map(|&n| (format!("f{n}"), &big[..n]))
        .collect();
    let refs: Vec<(&str, &[u8])> = files.iter().map(|(n, d)| (n.as_str(), *d)).collect();
    let dir = dir_with(&refs);
    let names: Vec<&str> = refs.iter().map(|(n, _)| *n).collect();
    for alg in ["4-decBRWHash1271", "Hash2L256", "5-BRWHash1305"] {
        let algorithm = alg_named(alg);
        let key = key_for(algorithm, false);
        let k = Key::new(algorithm, &key).unwrap();
        let expected: String = refs
            .iter()
            .map(|(n, d)| format!("{}  {n}\n", k.hash(d).to_hex()))
            .collect();
        for extra in [&["--threads", "2"][..], &["--no-mmap"]] {
            keyed("digest", alg, &hex::encode(&key))
                .current_dir(dir.path())
                .args(extra)
                .args(&names)
                .assert()
                .success()
                .stdout(expected.clone());
        }
    }
}

#[cfg(unix)]
#[test]
fn empty_files_devices_and_fifos_are_streamed() {
    let dir = dir_with(&[("empty", b"")]);
    let empty = digest_hex("4-Hash1271", K16, b"");
    keyed("digest", "4-Hash1271", K16)
        .current_dir(dir.path())
        .args(["empty", "/dev/null"])
        .assert()
        .success()
        .stdout(format!("{empty}  empty\n{empty}  /dev/null\n"));
    // A FIFO: mapping it is impossible; it is read like a pipe.
    let fifo = dir.path().join("fifo");
    if std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        let writer = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::write(fifo, msg(100_000)).unwrap())
        };
        keyed("digest", "4-Hash1271", K16)
            .current_dir(dir.path())
            .arg("fifo")
            .timeout(std::time::Duration::from_secs(60))
            .assert()
            .success()
            .stdout(format!(
                "{}  fifo\n",
                digest_hex("4-Hash1271", K16, &msg(100_000))
            ));
        writer.join().unwrap();
    }
}

#[test]
fn vechash2l_components_mapped_or_read() {
    let (a, b) = (noise(3 << 20), msg(1000));
    let dir = dir_with(&[("a", &a), ("b", &b), ("e", b"")]);
    let expected = brwhash::hash_vector(Algorithm::VECHASH2L128, &unhex(K16), &[&a, &b, b""])
        .unwrap()
        .to_hex();
    for extra in [&[][..], &["--no-mmap"], &["--threads", "1"]] {
        keyed("digest", "vecHash2L128", K16)
            .current_dir(dir.path())
            .args(extra)
            .args(["a", "b", "e"])
            .assert()
            .success()
            .stdout(format!("{expected}  a b e\n"));
    }
}

#[test]
fn threads_must_be_positive() {
    assert_usage_error_any(keyed("digest", "4-Hash1271", K16).args(["--threads", "0"]));
    assert_usage_error_any(keyed("digest", "4-Hash1271", K16).args(["--threads", "x"]));
}

/// Status 2, nothing on stdout (clap's own usage errors are not prefixed `brwhash: `).
fn assert_usage_error_any(cmd: &mut Command) {
    cmd.assert().code(2).stdout("");
}

/// `digest` lines for `files` in `dir`, made by the tool itself.
fn sums(dir: &Path, alg: &str, key: &str, files: &[&str]) -> String {
    stdout_of(keyed("digest", alg, key).current_dir(dir).args(files))
}

#[test]
fn check_all_ok() {
    let dir = dir_with(&[
        ("a", b"alpha"),
        ("with  two spaces", b"beta"),
        ("c", &msg(70_000)),
    ]);
    let files = ["a", "with  two spaces", "c"];
    let list = sums(dir.path(), "4-Hash1271", K16, &files);
    std::fs::write(dir.path().join("SUMS"), &list).unwrap();
    keyed("digest", "4-Hash1271", K16)
        .current_dir(dir.path())
        .args(["--check", "SUMS"])
        .assert()
        .success()
        .stdout("a: OK\nwith  two spaces: OK\nc: OK\n")
        .stderr(KEY_WARNING);
    // -c -, --quiet, the `*` marker, comments, blank lines and CRLF.
    let altered = format!(
        "# made by brwhash\n\n{}",
        list.replacen("  a\n", " *a\r\n", 1)
    );
    keyed("digest", "4-Hash1271", K16)
        .current_dir(dir.path())
        .args(["-c", "-", "--quiet"])
        .write_stdin(altered)
        .assert()
        .success()
        .stdout("")
        .stderr(KEY_WARNING);
}

#[test]
fn check_mismatch_missing_and_malformed() {
    let dir = dir_with(&[("a", b"alpha"), ("b", b"beta")]);
    let list = sums(dir.path(), "4-decBRWHash1305", K16, &["a", "b"]);
    std::fs::write(dir.path().join("b"), b"BETA").unwrap();
    std::fs::write(dir.path().join("SUMS"), &list).unwrap();
    // A mismatch alone: status 1.
    keyed("digest", "4-decBRWHash1305", K16)
        .current_dir(dir.path())
        .args(["--check", "SUMS"])
        .assert()
        .code(1)
        .stdout("a: OK\nb: FAILED\n")
        .stderr(KEY_WARNING.to_string() + "brwhash: WARNING: 1 computed checksum did NOT match\n");
    // A missing file: status 2, FAILED open or read.
    let missing = format!("{list}{}  gone\n", digest_hex("4-decBRWHash1305", K16, b""));
    keyed("digest", "4-decBRWHash1305", K16)
        .current_dir(dir.path())
        .args(["--check", "-"])
        .write_stdin(missing)
        .assert()
        .code(2)
        .stdout("a: OK\nb: FAILED\ngone: FAILED open or read\n")
        .stderr(
            KEY_WARNING.to_string()
                + "brwhash: gone: No such file or directory\n\
             brwhash: WARNING: 1 listed file could not be read\n\
             brwhash: WARNING: 1 computed checksum did NOT match\n",
        );
    // Malformed lines (short hex, not hex, one space, no name) are counted; status 2.
    let good = list.lines().next().unwrap();
    let bad = format!(
        "{good}\n0011  a\nzz{}  a\n{} a\n{}  \n",
        &good[2..32],
        &good[..32],
        &good[..32]
    );
    let out = keyed("digest", "4-decBRWHash1305", K16)
        .current_dir(dir.path())
        .args(["--check", "-"])
        .write_stdin(bad)
        .assert()
        .code(2)
        .stdout("a: OK\n")
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8(out).unwrap();
    for line in 2..=5 {
        assert!(
            err.contains(&format!("brwhash: -:{line}: improperly formatted")),
            "{err}"
        );
    }
    assert!(
        err.ends_with("brwhash: WARNING: 4 lines are improperly formatted\n"),
        "{err}"
    );
    // Nothing usable at all; an unreadable list.
    keyed("digest", "4-decBRWHash1305", K16)
        .args(["--check", "-"])
        .write_stdin("not a checksum\n")
        .assert()
        .code(2)
        .stderr(contains(
            "no properly formatted 4-decBRWHash1305 checksum lines found",
        ));
    assert_usage_error(
        keyed("digest", "4-decBRWHash1305", K16)
            .current_dir(dir.path())
            .args(["--check", "no-such-list"]),
        &["no-such-list: No such file or directory"],
    );
    // A key that does not match every line: all FAILED, status 1.
    keyed("digest", "4-decBRWHash1305", &K16.replace('0', "1"))
        .current_dir(dir.path())
        .args(["--check", "SUMS"])
        .assert()
        .code(1)
        .stdout("a: FAILED\nb: FAILED\n")
        .stderr(contains("2 computed checksums did NOT match"));
    // --check takes no FILE arguments.
    assert_usage_error_any(
        keyed("digest", "4-decBRWHash1305", K16)
            .current_dir(dir.path())
            .args(["--check", "SUMS", "a"]),
    );
}

#[test]
fn check_mac_tags_and_vectors() {
    let dir = dir_with(&[("m", b"message"), ("x", &msg(300)), ("y", b"")]);
    let mac_key = hex::encode(key_for(Algorithm::HASH2L128, true));
    let list = stdout_of(
        keyed("mac", "Hash2L128", &mac_key)
            .current_dir(dir.path())
            .arg("m"),
    );
    keyed("mac", "Hash2L128", &mac_key)
        .current_dir(dir.path())
        .args(["--check", "-"])
        .write_stdin(list.clone())
        .assert()
        .success()
        .stdout("m: OK\n");
    // The same list under `digest` fails: the tag is not the digest.
    keyed("digest", "Hash2L128", &mac_key[..32])
        .current_dir(dir.path())
        .args(["--check", "-"])
        .write_stdin(list)
        .assert()
        .code(1)
        .stdout("m: FAILED\n");
    // vecHash2L: the components are the name split at spaces.
    let vlist = sums(dir.path(), "vecHash2L256", K32, &["x", "y", "m"]);
    assert!(vlist.ends_with("  x y m\n"), "{vlist}");
    keyed("digest", "vecHash2L256", K32)
        .current_dir(dir.path())
        .args(["--check", "-"])
        .write_stdin(vlist)
        .assert()
        .success()
        .stdout("x y m: OK\n");
    // Poly1305 has no MAC mode, but its digest is its tag.
    let poly = stdout_of(
        keyed("digest", "Poly1305", RFC_KEY)
            .current_dir(dir.path())
            .arg("m"),
    );
    keyed("digest", "Poly1305", RFC_KEY)
        .current_dir(dir.path())
        .args(["-c", "-"])
        .write_stdin(poly)
        .assert()
        .success()
        .stdout("m: OK\n");
}

fn json_lines(cmd: &mut Command, code: i32) -> Vec<Value> {
    let out = cmd.assert().code(code).get_output().stdout.clone();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l:?}: {e}")))
        .collect()
}

#[test]
fn json_output() {
    let data = noise(2 << 20);
    let dir = dir_with(&[("a", b"hello"), ("big", &data)]);
    let key = Key::new(alg_named("4-decBRWHash1305"), &unhex(K16)).unwrap();
    let got = json_lines(
        keyed("digest", "4-decBRWHash1305", K16)
            .current_dir(dir.path())
            .args(["--json", "a", "big", "missing"]),
        2,
    );
    assert_eq!(got.len(), 3);
    assert_eq!(got[0]["file"], "a");
    assert_eq!(got[0]["algorithm"], "4-decBRWHash1305");
    assert_eq!(got[0]["backend"], key.backend().name());
    assert_eq!(got[0]["digest"], key.hash(b"hello").to_hex());
    assert_eq!(got[0]["bytes"], 5);
    assert_eq!(got[1]["digest"], key.hash(&data).to_hex());
    assert_eq!(got[1]["bytes"], data.len());
    assert_eq!(got[2]["file"], "missing");
    assert_eq!(got[2]["error"], "No such file or directory");
    assert!(got[2].get("digest").is_none());

    // mac: "tag"; verify and --check: "status", never the computed value.
    let mac_key = key_for(Algorithm::POLYHASH1271, true);
    let mac = Mac::new(Algorithm::POLYHASH1271, &mac_key).unwrap();
    let tag = mac.tag(b"hello").to_hex();
    let got = json_lines(
        keyed("mac", "polyHash1271", &hex::encode(&mac_key))
            .current_dir(dir.path())
            .args(["--json", "a"]),
        0,
    );
    assert_eq!(got[0]["tag"], tag);
    assert!(got[0].get("digest").is_none());
    let got = json_lines(
        keyed("verify", "polyHash1271", &hex::encode(&mac_key))
            .current_dir(dir.path())
            .args(["--json", "--tag", &tag, "a", "big", "missing"]),
        2,
    );
    let status: Vec<&str> = got.iter().map(|v| v["status"].as_str().unwrap()).collect();
    assert_eq!(status, ["OK", "FAILED", "FAILED open or read"]);
    assert_eq!(got[1]["bytes"], data.len());
    assert!(got.iter().all(|v| v.get("tag").is_none()));
    let list = format!("{tag}  a\n{tag}  big\nbad line\n");
    let got = json_lines(
        keyed("mac", "polyHash1271", &hex::encode(&mac_key))
            .current_dir(dir.path())
            .args(["--json", "--check", "-"])
            .write_stdin(list),
        2,
    );
    assert_eq!(got.len(), 3);
    assert_eq!(
        (got[0]["status"].as_str(), got[0]["line"].as_u64()),
        (Some("OK"), Some(1))
    );
    assert_eq!(got[1]["status"], "FAILED");
    assert_eq!(got[2]["line"], 3);
    assert_eq!(got[2]["check_file"], "-");
    assert!(got[2]["error"]
        .as_str()
        .unwrap()
        .contains("improperly formatted"));
    // vecHash2L: one object with the components.
    let got = json_lines(
        keyed("digest", "vecHash2L128", K16)
            .current_dir(dir.path())
            .args(["--json", "a", "big"]),
        0,
    );
    assert_eq!(got.len(), 1);
    assert_eq!(got[0]["file"], "a big");
    assert_eq!(got[0]["components"], serde_json::json!(["a", "big"]));
    assert_eq!(got[0]["bytes"], data.len() + 5);
}

/// A sparse file of `len` bytes with a few bytes set (at `patches`); almost no disk space.
fn sparse_file(path: &Path, len: u64, patches: &[(u64, &[u8])]) {
    use std::io::{Seek, SeekFrom};
    let mut f = std::fs::File::create(path).unwrap();
    f.set_len(len).unwrap();
    for &(at, bytes) in patches {
        f.seek(SeekFrom::Start(at)).unwrap();
        f.write_all(bytes).unwrap();
    }
}

/// The streamed digest of the sparse file's contents, in 1 MiB pieces built in memory.
fn sparse_digest(key: &Key, len: u64, patches: &[(u64, &[u8])]) -> String {
    let mut h = brwhash::Hasher::new(key);
    let mut piece = vec![0u8; 1 << 20];
    let mut at = 0u64;
    while at < len {
        let n = (len - at).min(piece.len() as u64) as usize;
        piece[..n].fill(0);
        for &(p, bytes) in patches {
            for (i, &b) in bytes.iter().enumerate() {
                let q = p + i as u64;
                if q >= at && q < at + n as u64 {
                    piece[(q - at) as usize] = b;
                }
            }
        }
        h.update(&piece[..n]).unwrap();
        at += n as u64;
    }
    h.finalize().to_hex()
}

#[test]
fn progress_bar_never_on_a_pipe() {
    // Above the bar's threshold (256 MiB), sparse: stderr is a pipe here, so it stays silent.
    let dir = TempDir::new().unwrap();
    let len = (300u64 << 20) + 3;
    let patches: [(u64, &[u8]); 2] = [(5, b"start"), (len - 3, b"end")];
    sparse_file(&dir.path().join("sparse"), len, &patches);
    let key = Key::new(Algorithm::HASH2L128, &unhex(K16)).unwrap();
    let expected = format!(
        "{}  sparse
",
        sparse_digest(&key, len, &patches)
    );
    for extra in [&[][..], &["--threads", "1"], &["--no-mmap"]] {
        keyed("digest", "Hash2L128", K16)
            .current_dir(dir.path())
            .args(extra)
            .arg("sparse")
            .assert()
            .success()
            .stdout(expected.clone())
            .stderr(KEY_WARNING);
    }
}

/// On a terminal (a pty from `script`, when it is installed) the bar shows up on stderr.
#[cfg(target_os = "linux")]
#[test]
fn progress_bar_on_a_terminal() {
    let script = std::process::Command::new("script")
        .arg("--version")
        .output();
    if !script.is_ok_and(|o| o.status.success()) {
        eprintln!("skipped: no `script` to make a terminal");
        return;
    }
    let dir = TempDir::new().unwrap();
    sparse_file(&dir.path().join("sparse"), 300 << 20, &[]);
    let bin = env!("CARGO_BIN_EXE_brwhash");
    for (extra, shown) in [
        ("--threads 1", true),
        ("--no-mmap", true),
        ("", true),
        ("--no-progress", false),
    ] {
        let cmd = format!("{bin} digest --alg Hash2L128 --key {K16} {extra} sparse");
        let out = std::process::Command::new("script")
            .args(["-qec", &cmd, "/dev/null"])
            .current_dir(dir.path())
            .env_remove("BRWHASH_BACKEND")
            .env("TERM", "xterm")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("  sparse"), "{text}");
        // A bar with the bytes done (`n/300.00 MiB`), on every path that reads the file.
        assert_eq!(text.contains("/300.00 MiB"), shown, "{extra}: {text:?}");
    }
}

/// Beyond 4 GiB (offsets that do not fit in 32 bits): mapped, parallel, and read, all equal
/// to the library's streamed digest. A sparse file: almost no disk space; about 10 s with the
/// test profile's opt-level 2 on 2 cores.
#[test]
fn sparse_file_beyond_4_gib() {
    let dir = TempDir::new().unwrap();
    let len = (4u64 << 30) + 4097;
    let patches: [(u64, &[u8]); 4] = [
        (0, b"head"),
        ((1u64 << 32) - 2, b"across 2^32"),
        ((1u64 << 32) + 4000, b"beyond"),
        (len - 5, b"tail!"),
    ];
    sparse_file(&dir.path().join("huge"), len, &patches);
    for alg in ["Hash2L128", "Poly1305"] {
        let algorithm = alg_named(alg);
        let key = key_for(algorithm, false);
        let k = Key::new(algorithm, &key).unwrap();
        let expected = format!(
            "{}  huge
",
            sparse_digest(&k, len, &patches)
        );
        for extra in [&[][..], &["--threads", "1"], &["--no-mmap"]] {
            keyed("digest", alg, &hex::encode(&key))
                .current_dir(dir.path())
                .args(extra)
                .arg("huge")
                .assert()
                .success()
                .stdout(expected.clone());
        }
    }
}

#[test]
fn help_texts_of_the_new_options() {
    brwhash().arg("--help").assert().success().stdout(
        contains("SIGBUS")
            .and(contains("--no-mmap"))
            .and(contains("WARNING: 1 computed checksum did NOT match"))
            .and(contains("JSON Lines")),
    );
    brwhash()
        .args(["digest", "--help"])
        .assert()
        .success()
        .stdout(
            contains("--threads <N>")
                .and(contains("--check <LIST>"))
                .and(contains("--json"))
                .and(contains("--no-progress"))
                .and(contains("--quiet")),
        );
}
