//! `brwhash bench`: a quick run prints the table and writes valid JSON, SVG and Markdown;
//! bad options are errors with exit status 2.

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;
use serde_json::Value;
use tempfile::TempDir;

/// The binary, with `BRWHASH_BACKEND` cleared so the caller's environment cannot interfere.
fn brwhash() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_brwhash"));
    cmd.env_remove(brwhash::backend::BACKEND_ENV);
    cmd
}

/// Runs `cmd`, which must succeed, and returns its standard output.
fn success_stdout(cmd: &mut Command) -> String {
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).unwrap()
}

/// `brwhash bench --quick` of polyHash1305 at the given lengths.
fn quick_polyhash(lengths: &str) -> Command {
    let mut cmd = brwhash();
    cmd.args([
        "bench",
        "--quick",
        "--alg",
        "polyHash1305",
        "--lengths",
        lengths,
    ]);
    cmd
}

#[test]
fn quick_run_prints_the_table_and_writes_json_svg_markdown() {
    let dir = TempDir::new().unwrap();
    let json = dir.path().join("bench.json");
    let svg = dir.path().join("bench.svg");
    let md = dir.path().join("bench.md");
    let stdout = success_stdout(
        quick_polyhash("64,1024")
            .arg("--json")
            .arg(&json)
            .arg("--svg")
            .arg(&svg)
            .arg("--markdown")
            .arg(&md),
    );

    // Machine and clock at the top, then the table.
    assert!(stdout.contains("CPU: "), "{stdout}");
    assert!(stdout.contains("Clock: "), "{stdout}");
    assert!(
        stdout.contains("x TSC") || stdout.contains("x ticks"),
        "{stdout}"
    );
    assert!(
        stdout.contains("| implementation | backend / call | mode | 64 | 1 KiB |"),
        "{stdout}"
    );
    assert!(stdout.contains("|---|---|---|---:|---:|"), "{stdout}");
    let rows: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("| brwhash polyHash1305 |"))
        .collect();
    // One-shot on the default backend, and a precomputed key on every backend that runs here.
    assert!(rows.iter().any(|l| l.contains("| one-shot |")), "{stdout}");
    assert!(
        rows.iter().any(|l| l.contains("| portable | key |")),
        "{stdout}"
    );
    for row in &rows {
        let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
        assert_eq!(cells.len(), 5, "{row}");
        for c in &cells[3..] {
            // Cycles per byte, or a ratio to the fastest peer: the median of the rounds'
            // ratios and the lowest-highest round, "1.02 (0.95-1.10)".
            let num = |s: &str| -> f64 { s.parse().unwrap_or_else(|_| panic!("{row}")) };
            match c.split_once(' ') {
                None => {
                    let v = num(c);
                    assert!(v > 0.0 && v.is_finite(), "{row}");
                }
                Some((median, range)) => {
                    let range = range.trim_start_matches('(').trim_end_matches(')');
                    let (lo, hi) = range.split_once('-').unwrap_or_else(|| panic!("{row}"));
                    let (m, lo, hi) = (num(median), num(lo), num(hi));
                    assert!(lo > 0.0 && lo <= m && m <= hi && hi.is_finite(), "{row}");
                }
            }
        }
    }
    if cfg!(feature = "bench-peers") {
        assert!(stdout.contains("| OpenSSL Poly1305 |"), "{stdout}");
        assert!(stdout.contains("| RustCrypto poly1305 |"), "{stdout}");
        if cfg!(target_arch = "x86_64") {
            assert!(stdout.contains("| intel-ipsec-mb Poly1305 |"), "{stdout}");
        }
        // "Ratio to <peer> (...), the fastest Poly1305 peer of this run at every length", or
        // "Ratio to the fastest Poly1305 peer of this run at each length".
        assert!(stdout.contains("fastest Poly1305 peer"), "{stdout}");
        // Binary-field peers only come with binary-field algorithms.
        assert!(!stdout.contains("GHASH"), "{stdout}");
    }

    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert!(doc["clock"]["tick_hz"].as_f64().unwrap() > 0.0);
    assert!(doc["clock"]["core_cycles_per_tick"].as_f64().unwrap() > 0.0);
    assert!(doc["machine"]["cpu"].is_string());
    assert_eq!(doc["lengths"], serde_json::json!([64, 1024]));
    let ms = doc["measurements"].as_array().unwrap();
    assert_eq!(ms.len() % 2, 0);
    assert!(ms.len() >= 4, "{ms:?}");
    for m in ms {
        for field in ["name", "algorithm", "backend", "mode"] {
            assert!(m[field].is_string(), "{field} in {m}");
        }
        let len = m["length"].as_u64().unwrap();
        assert!(len == 64 || len == 1024, "{m}");
        for field in ["tsc_cycles_per_byte", "core_cycles_per_byte", "gb_per_s"] {
            let v = m[field]
                .as_f64()
                .unwrap_or_else(|| panic!("{field} in {m}"));
            assert!(v > 0.0, "{field} in {m}");
        }
        assert!(
            ["one-shot", "key", "stream"].contains(&m["mode"].as_str().unwrap()),
            "{m}"
        );
    }
    // The default mode measures the streaming API too.
    assert!(ms.iter().any(|m| m["mode"] == "stream"), "no stream row");
    assert!(ms
        .iter()
        .any(|m| m["name"] == "brwhash polyHash1305" && m["algorithm"] == "polyHash1305"));

    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("<polyline"));
    assert!(svg.contains("brwhash polyHash1305"));

    let md = std::fs::read_to_string(&md).unwrap();
    assert!(md.starts_with("# brwhash bench"));
    assert!(md.contains("| implementation | backend / call | mode | 64 | 1 KiB |"));
}

/// `brwhash bench --quick --no-peers` in one mode: its standard output and the brwhash rows
/// of its table.
fn quick_one_mode(mode: &str, backends: &str, algs: &str, lengths: &str) -> (String, Vec<String>) {
    let stdout = success_stdout(brwhash().args([
        "bench",
        "--quick",
        "--no-peers",
        "--mode",
        mode,
        "--backends",
        backends,
        "--alg",
        algs,
        "--lengths",
        lengths,
    ]));
    let rows = stdout
        .lines()
        .filter(|l| l.starts_with("| brwhash "))
        .map(String::from)
        .collect();
    (stdout, rows)
}

#[test]
fn no_peers_and_one_mode() {
    let (stdout, rows) = quick_one_mode("key", "portable", "4-Hash1271,polyHash1271", "100");
    assert_eq!(rows.len(), 2, "{stdout}");
    assert!(
        rows.iter().all(|l| l.contains("| portable | key |")),
        "{stdout}"
    );
    assert!(!stdout.contains("OpenSSL"), "{stdout}");
    assert!(!stdout.contains("Ratio to"), "{stdout}");
}

/// `--mode new-key`: a new key per message (checked against `brwhash::hash` first), one row
/// per algorithm and backend, with the mode named in the table.
#[test]
fn new_key_rows() {
    let (stdout, rows) = quick_one_mode(
        "new-key",
        "portable,default",
        "4-decBRWHash1305,Hash2L128",
        "64",
    );
    assert_eq!(rows.len(), 4, "{stdout}");
    assert!(rows.iter().all(|l| l.contains(" | new-key |")), "{stdout}");
    assert!(stdout.contains("new-key rows: Key::new"), "{stdout}");
}

/// `--components N`: vecHash2L rows hash each message as N components (checked against
/// `brwhash::hash_vector` before they are measured, in every mode); other rows are unchanged.
#[test]
fn vector_rows_with_components() {
    let stdout = success_stdout(brwhash().args([
        "bench",
        "--quick",
        "--no-peers",
        "--components",
        "3",
        "--backends",
        "portable,default",
        "--alg",
        "vecHash2L128,Hash2L128",
        "--lengths",
        "100,3K",
    ]));
    let rows = stdout
        .lines()
        .filter(|l| l.starts_with("| brwhash "))
        .count();
    // 2 algorithms x 2 backends x 3 modes.
    assert_eq!(rows, 12, "{stdout}");
    assert!(
        stdout.contains("as 3 components of equal length"),
        "{stdout}"
    );
}

#[test]
fn bad_options_exit_2_with_one_clear_line() {
    let cases: &[(&[&str], &str)] = &[
        (&["--alg", "nosuchhash"], "--alg"),
        (&["--alg", "polyHash1305,,Poly1305"], "empty item"),
        (&["--lengths", "0"], "--lengths"),
        (&["--lengths", "64,abc"], "--lengths"),
        (&["--lengths", "1G"], "--lengths"),
        (&["--backends", "nosuchbackend"], "--backends"),
        (&["--mode", "sometimes"], "--mode"),
        (&["--components", "0"], "components"),
        (&["--components", "256"], "components"),
        (&["--components", "x"], "--components"),
    ];
    for (args, needle) in cases {
        brwhash()
            .arg("bench")
            .arg("--quick")
            .args(*args)
            .assert()
            .code(2)
            .stdout(predicate::str::is_empty())
            .stderr(contains(*needle));
    }
}

#[test]
fn an_unwritable_output_fails_before_measuring() {
    let dir = TempDir::new().unwrap();
    let bad = dir.path().join("no-such-dir").join("x.json");
    quick_polyhash("64")
        .arg("--json")
        .arg(&bad)
        .assert()
        .code(2)
        .stdout(predicate::str::is_empty())
        .stderr(contains("--json"));
}

/// `--backends default,...` adds the dispatched default's row; the peers include libsodium and
/// OpenSSL with its SIMD code hidden.
#[test]
fn default_row_and_the_scalar_peers() {
    let stdout = success_stdout(quick_polyhash("64").args([
        "--backends",
        "default,portable",
        "--mode",
        "key",
    ]));
    let default = brwhash::Backend::select(brwhash::Algorithm::POLYHASH1305, None).unwrap();
    assert!(
        stdout.contains(&format!(
            "| brwhash polyHash1305 | default ({default}) | key |"
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains("| brwhash polyHash1305 | portable | key |"),
        "{stdout}"
    );
    if !cfg!(feature = "bench-peers") {
        return; // built without the peers (--no-default-features)
    }
    assert!(stdout.contains("| libsodium Poly1305 |"), "{stdout}");
    let scalar_openssl = stdout
        .lines()
        .find(|l| l.starts_with("| OpenSSL Poly1305 (scalar) |"))
        .unwrap_or_else(|| panic!("{stdout}"));
    let cell = scalar_openssl.trim_matches('|').split('|').nth(3).unwrap();
    assert!(
        cell.trim().parse::<f64>().unwrap() > 0.0,
        "{scalar_openssl}"
    );
}
