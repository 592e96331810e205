//! `brwhash-ct`: a dudect-style statistical timing test of brwhash (issue 8, "constant
//! time"); the method is in `brwhash_bench::ct` and docs/constant-time.md.
//!
//! ```text
//! cargo run --release -p brwhash-bench --bin brwhash-ct -- \
//!     [--measurements N] [--alg NAME]... [--backend NAME]... [--test KIND]... \
//!     [--key NAME]... [--filter TEXT]... [--batch K] [--seed S] [--list] [--json] \
//!     [--markdown]
//! ```
//!
//! Every test compares two classes of inputs, interleaved in random order:
//!
//! - `key K/rand LB`: one-shot `hash_with_backend` of a fixed L-byte message under the fixed
//!   key K (`pattern`, `zero`, `ones`, `edges`) against uniformly random keys;
//! - `setup K/rand`: `Key::with_backend` (the powers and lane tables for any length);
//! - `msg fixed/rand LB`: `Key::hash` under one key of a fixed message against random ones;
//! - `verify eq/rand`, `verify eq/first`, `verify first/last`: `Mac::verify` (Poly1305:
//!   `Hasher::verify`) of the right tag, a random tag, the right tag with its first byte
//!   changed, with its last byte changed;
//! - controls, which must be detected: an early-exit tag comparison and a key-bit branch.
//!
//! Exit status: 0 when no test reaches |t| > 10 and every control does; 1 otherwise; 2 on a
//! usage error.

#![deny(unsafe_code)]

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

use brwhash::{Algorithm, Backend, Hasher, Key, Mac};
use brwhash_bench::ct::rng::Rng;
use brwhash_bench::ct::{self, Call, Case, Fill, Outcome, Role, Settings, LEAK_T, MAYBE_T};
use brwhash_bench::pseudo_random_bytes;

/// The algorithms tested by default (issue 8's list).
const DEFAULT_ALGS: [&str; 12] = [
    "Poly1305",
    "polyHash1305",
    "polyHash1271",
    "4-decBRWHash1305",
    "4-decBRWHash1271",
    "8-decBRWHash1305",
    "BRWHash1305",
    "BRWHash1271",
    "4-Hash1271",
    "Hash2L128",
    "Hash2L256",
    "vecHash2L128",
];

/// Test kinds, for `--test`.
const KINDS: [&str; 6] = ["key", "setup", "msg", "verify", "control", "probe"];

/// Test kinds of a default run (the probes are opt-in).
const DEFAULT_KINDS: [&str; 5] = ["key", "setup", "msg", "verify", "control"];

/// Message lengths of the key and message tests.
const LENGTHS: [usize; 2] = [64, 1024];

/// The fixed keys of the key tests.
#[derive(Clone, Copy, Debug)]
enum FixedKey {
    /// A fixed pseudo-random key (dudect's usual fixed class).
    Pattern,
    /// All zero bytes.
    Zero,
    /// All 0xff bytes: every limb of every radix (2^26, 2^44, 2^52, 2^64) saturated; after
    /// the masks, 2^126 - 1 for 2^127 - 1 and Poly1305's largest clamped r.
    Ones,
    /// Bits b - 1 and b set at every limb boundary b of radix 2^26, 2^44, 2^52 and 2^64 (and
    /// 2^128 in a 256-bit key), zero elsewhere: carries cross every boundary.
    Edges,
    /// The integer 1 (Poly1305: r = 1, s = 1): the multiplicative identity, a key of Hamming
    /// weight 1 (not in the default set; `--key unit`).
    Unit,
}

impl FixedKey {
    const ALL: [FixedKey; 5] = [
        FixedKey::Pattern,
        FixedKey::Zero,
        FixedKey::Ones,
        FixedKey::Edges,
        FixedKey::Unit,
    ];

    /// The fixed keys of a default run.
    const DEFAULT: [FixedKey; 4] = [
        FixedKey::Pattern,
        FixedKey::Zero,
        FixedKey::Ones,
        FixedKey::Edges,
    ];

    fn name(self) -> &'static str {
        match self {
            FixedKey::Pattern => "pattern",
            FixedKey::Zero => "zero",
            FixedKey::Ones => "ones",
            FixedKey::Edges => "edges",
            FixedKey::Unit => "unit",
        }
    }

    /// The key bytes for `alg` (Poly1305: r || s, both halves the same kind).
    fn bytes(self, alg: Algorithm) -> Vec<u8> {
        let n = alg.key_len();
        match self {
            FixedKey::Pattern => pseudo_random_bytes(0x5eed_0fc0_ffee, n),
            FixedKey::Zero => vec![0; n],
            FixedKey::Ones => vec![0xff; n],
            FixedKey::Edges if alg == Algorithm::POLY1305 => [edges(16), edges(16)].concat(),
            FixedKey::Edges => edges(n),
            FixedKey::Unit if alg == Algorithm::POLY1305 => {
                let mut k = vec![0; n];
                k[0] = 1;
                k[16] = 1;
                k
            }
            FixedKey::Unit => {
                let mut k = vec![0; n];
                k[0] = 1;
                k
            }
        }
    }
}

/// `n` bytes with bits b - 1 and b set for every multiple b of 26, 44, 52 and 64 below 8n.
fn edges(n: usize) -> Vec<u8> {
    let bits = 8 * n;
    let mut out = vec![0u8; n];
    for radix in [26, 44, 52, 64] {
        for b in (radix..bits).step_by(radix) {
            for bit in [b - 1, b] {
                out[bit / 8] |= 1 << (bit % 8);
            }
        }
    }
    out
}

struct Options {
    settings: Settings,
    algs: Vec<Algorithm>,
    backends: Vec<Backend>,
    kinds: Vec<String>,
    keys: Vec<FixedKey>,
    filters: Vec<String>,
    seed: u64,
    list: bool,
    json: bool,
    markdown: bool,
}

const USAGE: &str = "\
usage: brwhash-ct [--measurements N] [--alg NAME]... [--backend NAME]... [--test KIND]...
                  [--key NAME]... [--filter TEXT]... [--batch K] [--seed S] [--list]
                  [--json] [--markdown]

  --measurements N  measurements per test, both classes together (default 200000)
  --alg NAME        an algorithm (repeatable; default: the 12 of issue 8)
  --backend NAME    a backend (repeatable; default: every one that can run each algorithm)
  --test KIND       key, setup, msg, verify, control or probe (repeatable; default: all but
                    probe: the probes time the CPU's multipliers, not brwhash)
  --key NAME        a fixed key of the key and setup tests: pattern, zero, ones, edges or unit
                    (repeatable; default: the first four; setup tests skip edges)
  --filter TEXT     only tests whose name contains TEXT, e.g. 'zero/rand 1024B' (repeatable:
                    any of them)
  --batch K         calls per measurement (default: automatic, >= 300 ticks a measurement)
  --seed S          seed of the class order and random inputs (default: from the clock)
  --list            print the tests and exit
  --json            print the results as one JSON document on standard output
  --markdown        print the results as Markdown tables on standard output (the controls,
                    then max |t| per algorithm and backend by test)

A test leaks when max |t| > 10; 4.5 < max |t| <= 10 is reported as 'maybe' (dudect's
'probably not constant time') and does not fail. Exit status 1 when a test leaks or a control
is not detected.";

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        settings: Settings::default(),
        algs: Vec::new(),
        backends: Vec::new(),
        kinds: Vec::new(),
        keys: Vec::new(),
        filters: Vec::new(),
        seed: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1),
        list: false,
        json: false,
        markdown: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--measurements" | "-n" => {
                let v = value(&a)?;
                o.settings.measurements = v
                    .parse()
                    .ok()
                    .filter(|&n| n >= 1000)
                    .ok_or(format!("--measurements {v}: a number >= 1000"))?;
            }
            "--alg" => {
                let v = value(&a)?;
                o.algs
                    .push(v.parse().map_err(|e| format!("--alg {v}: {e}"))?);
            }
            "--backend" => {
                let v = value(&a)?;
                o.backends
                    .push(v.parse().map_err(|e| format!("--backend {v}: {e}"))?);
            }
            "--test" => {
                let v = value(&a)?.to_ascii_lowercase();
                if !KINDS.contains(&v.as_str()) {
                    return Err(format!("--test {v}: one of {}", KINDS.join(", ")));
                }
                o.kinds.push(v);
            }
            "--filter" => o.filters.push(value(&a)?),
            "--key" => {
                let v = value(&a)?.to_ascii_lowercase();
                let k = FixedKey::ALL
                    .into_iter()
                    .find(|k| k.name() == v)
                    .ok_or(format!("--key {v}: pattern, zero, ones, edges or unit"))?;
                o.keys.push(k);
            }
            "--batch" => {
                let v = value(&a)?;
                o.settings.batch = Some(
                    v.parse()
                        .ok()
                        .filter(|&k| k >= 1)
                        .ok_or(format!("--batch {v}: a number >= 1"))?,
                );
            }
            "--seed" => {
                let v = value(&a)?;
                o.seed = v.parse().map_err(|_| format!("--seed {v}: a number"))?;
            }
            "--list" => o.list = true,
            "--json" => o.json = true,
            "--markdown" => o.markdown = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            _ => return Err(format!("unknown argument {a}")),
        }
    }
    if o.algs.is_empty() {
        o.algs = DEFAULT_ALGS.iter().map(|n| n.parse().unwrap()).collect();
    }
    if o.backends.is_empty() {
        o.backends = Backend::ALL.to_vec();
    }
    if o.keys.is_empty() {
        o.keys = FixedKey::DEFAULT.to_vec();
    }
    if o.kinds.is_empty() {
        o.kinds = DEFAULT_KINDS.iter().map(|k| k.to_string()).collect();
    }
    Ok(o)
}

/// Class 0 gets `fixed`, class 1 random bytes.
fn fixed_vs_random(fixed: Vec<u8>) -> Fill {
    Box::new(move |class, rng, out| {
        if class == 0 {
            out.copy_from_slice(&fixed);
        } else {
            rng.fill(out);
        }
    })
}

fn case(
    test: String,
    alg: Algorithm,
    backend: Backend,
    input_len: usize,
    fill: Fill,
    call: Call,
) -> Case {
    Case {
        test,
        alg: alg.to_string(),
        backend: backend.name().to_string(),
        role: Role::Test,
        input_len,
        fill,
        call,
    }
}

/// The message every test hashes (public data).
fn message(len: usize) -> Vec<u8> {
    pseudo_random_bytes(0x006d_6573_7361_6765, len)
}

/// The tests of `alg` on `backend`.
fn cases(alg: Algorithm, backend: Backend, kinds: &[String], keys: &[FixedKey]) -> Vec<Case> {
    let mut out = Vec::new();
    let want = |k: &str| kinds.iter().any(|x| x == k);
    let klen = alg.key_len();
    if want("key") {
        for len in LENGTHS {
            for &fk in keys {
                let msg = message(len);
                out.push(case(
                    format!("key {}/rand {len}B", fk.name()),
                    alg,
                    backend,
                    klen,
                    fixed_vs_random(fk.bytes(alg)),
                    Box::new(move |key| {
                        brwhash::hash_with_backend(alg, backend, key, &msg)
                            .map(|d| d.as_bytes()[0])
                            .unwrap_or(0)
                    }),
                ));
            }
        }
    }
    if want("setup") {
        for &fk in keys.iter().filter(|k| !matches!(k, FixedKey::Edges)) {
            out.push(case(
                format!("setup {}/rand", fk.name()),
                alg,
                backend,
                klen,
                fixed_vs_random(fk.bytes(alg)),
                Box::new(move |key| {
                    Key::with_backend(alg, key, backend)
                        .map(|k| black_box(&k).algorithm().index() as u8)
                        .unwrap_or(0)
                }),
            ));
        }
    }
    if want("msg") {
        for len in LENGTHS {
            let key = Key::with_backend(alg, &FixedKey::Pattern.bytes(alg), backend)
                .expect("the backend was checked");
            out.push(case(
                format!("msg fixed/rand {len}B"),
                alg,
                backend,
                len,
                fixed_vs_random(message(len)),
                Box::new(move |msg| key.hash(msg).as_bytes()[0]),
            ));
        }
    }
    if want("verify") {
        let msg = message(64);
        // The right tag, and a way to check a candidate.
        let (tag, verify): (Vec<u8>, Call) = if alg == Algorithm::POLY1305 {
            let key = Key::with_backend(alg, &FixedKey::Pattern.bytes(alg), backend)
                .expect("the backend was checked");
            let tag = key.hash(&msg).as_bytes().to_vec();
            (
                tag,
                Box::new(move |t| {
                    let mut h = Hasher::new(&key);
                    h.update(&msg).expect("a short message");
                    h.verify(t) as u8
                }),
            )
        } else {
            let mac_key = pseudo_random_bytes(0x006d_6163, alg.mac_key_len().unwrap());
            let mac = Mac::with_backend(alg, &mac_key, backend).expect("the backend was checked");
            let tag = mac.tag(&msg).as_bytes().to_vec();
            (tag, Box::new(move |t| mac.verify(&msg, t) as u8))
        };
        let verify = std::rc::Rc::new(verify);
        let dlen = tag.len();
        let last = dlen - 1;
        let flip = |tag: Vec<u8>, a: Option<usize>, b: Option<usize>| -> Fill {
            Box::new(move |class, rng, out| {
                out.copy_from_slice(&tag);
                match [a, b][class] {
                    Some(i) => out[i] ^= rng.nonzero_byte(),
                    None if class == 1 => rng.fill(out),
                    None => {}
                }
            })
        };
        let tests: [(&str, Fill); 3] = [
            ("verify eq/rand", flip(tag.clone(), None, None)),
            ("verify eq/first", flip(tag.clone(), None, Some(0))),
            ("verify first/last", flip(tag.clone(), Some(0), Some(last))),
        ];
        for (name, fill) in tests {
            let v = verify.clone();
            out.push(case(
                name.to_string(),
                alg,
                backend,
                dlen,
                fill,
                Box::new(move |t| v(t)),
            ));
        }
    }
    out
}

/// An early-exit byte comparison, the kind `subtle` replaces: the control.
#[inline(never)]
fn leaky_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    for i in 0..a.len() {
        if black_box(a[i]) != black_box(b[i]) {
            return false;
        }
    }
    true
}

/// Controls: deliberately leaking functions the harness must flag.
fn controls() -> Vec<Case> {
    let alg = Algorithm::POLYHASH1305;
    let backend = Backend::select(alg, None).unwrap_or(Backend::Portable);
    let msg = message(64);
    let mac_key = pseudo_random_bytes(0x006d_6163, alg.mac_key_len().unwrap());
    let mac = Mac::with_backend(alg, &mac_key, backend).expect("a selected backend");
    let tag = mac.tag(&msg).as_bytes().to_vec();
    let m2 = msg.clone();
    let mut fixed_key = FixedKey::Pattern.bytes(alg);
    fixed_key[0] &= !1;
    vec![
        Case {
            test: "CONTROL early-exit tag == (eq/rand)".into(),
            alg: alg.to_string(),
            backend: backend.name().into(),
            role: Role::Control,
            input_len: tag.len(),
            fill: fixed_vs_random(tag.clone()),
            call: Box::new(move |t| leaky_eq(mac.tag(&msg).as_bytes(), t) as u8),
        },
        Case {
            test: "CONTROL key-bit branch (key/rand)".into(),
            alg: alg.to_string(),
            backend: backend.name().into(),
            role: Role::Control,
            input_len: alg.key_len(),
            fill: fixed_vs_random(fixed_key),
            call: Box::new(move |key| {
                let d = brwhash::hash_with_backend(alg, backend, key, &m2)
                    .map(|d| d.as_bytes()[0])
                    .unwrap_or(0);
                // The leak: extra work when the key's lowest bit is set.
                if key[0] & 1 == 1 {
                    let mut x = d as u64;
                    for _ in 0..16 {
                        x = black_box(x.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 1);
                    }
                    return x as u8;
                }
                d
            }),
        },
    ]
}

/// Probes: 512 64 x 64 -> 128-bit multiplications (`mul`/`mulx`, as in the scalar backend's
/// Horner) in eight independent chains, of message words by a key word, the key word fixed
/// (zero, one, or a fixed pattern) or random. Nothing in this code depends on the values: a difference is the
/// CPU's.
fn probes() -> Vec<Case> {
    let words: Vec<u64> = message(1024)
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect();
    let probe = |name: &str, fixed: Vec<u8>| {
        let words = words.clone();
        Case {
            test: format!("PROBE 512 mul {name}/rand"),
            alg: "-".into(),
            backend: "-".into(),
            role: Role::Probe,
            input_len: 8,
            fill: fixed_vs_random(fixed),
            call: Box::new(move |k| {
                let x = u64::from_le_bytes(k.try_into().expect("8 bytes")) as u128;
                // Eight independent chains, so that the multipliers run at full throughput
                // (as in the hashes), four rounds over the 128 words.
                let mut acc = [0u128; 8];
                for _ in 0..4 {
                    for group in words.chunks_exact(8) {
                        for (a, &m) in acc.iter_mut().zip(group) {
                            *a = ((*a as u64 ^ m) as u128) * x + (*a >> 64);
                        }
                    }
                }
                acc.iter().fold(0u8, |r, &a| r ^ a as u8 ^ (a >> 64) as u8)
            }),
        }
    };
    vec![
        probe("zero", vec![0; 8]),
        probe("unit", 1u64.to_le_bytes().to_vec()),
        probe("pattern", pseudo_random_bytes(0x5eed_0fc0_ffee, 8)),
    ]
}

fn verdict(case: &Case, o: &Outcome) -> &'static str {
    match (case.role, o.max.t) {
        (Role::Control, t) if t > LEAK_T => "detected (control)",
        (Role::Control, _) => "NOT DETECTED (control)",
        (Role::Probe, t) if t > LEAK_T => "difference (probe)",
        (Role::Probe, t) if t > MAYBE_T => "maybe (probe)",
        (Role::Probe, _) => "none (probe)",
        (Role::Test, t) if t > LEAK_T => "LEAK",
        (Role::Test, t) if t > MAYBE_T => "maybe",
        (Role::Test, _) => "ok",
    }
}

fn failed(case: &Case, o: &Outcome) -> bool {
    match case.role {
        Role::Test => o.max.t > LEAK_T,
        Role::Control => o.max.t <= LEAK_T,
        Role::Probe => false,
    }
}

const HEADER: &str = "test                                  algorithm         backend   measurements  batch  ticks   max |t|  (statistic)               diff  raw |t|  verdict";

fn row(case: &Case, o: &Outcome) -> String {
    format!(
        "{:<37} {:<17} {:<9} {:>12} {:>6} {:>6} {:>9.2}  {:<20} {:>9} {:>8.2}  {}",
        case.test,
        case.alg,
        case.backend,
        o.measurements,
        o.batch,
        o.median_ticks,
        o.max.t,
        format!("({})", o.max.test),
        diff(o.max.diff),
        o.t_raw,
        verdict(case, o)
    )
}

/// A mean difference: ticks, or squared ticks (second-order tests), which can be large.
fn diff(d: f64) -> String {
    if d.abs() < 1e4 {
        format!("{d:+.2}")
    } else {
        format!("{d:+.1e}")
    }
}

/// A column heading for a test name: `key zero/rand 1024B` -> `key zero 1K`.
fn short(test: &str) -> String {
    if let Some(rest) = test.strip_prefix("verify ") {
        return format!("vfy {rest}");
    }
    test.replace("/rand", "")
        .replace("fixed", "")
        .replace("pattern", "pat")
        .replace("1024B", "1K")
        .replace("64B", "64")
        .replace("  ", " ")
}

/// The controls' table, then one table of max |t| with algorithms and backends as rows and
/// tests as columns (bold: a leak; italic: dudect's "maybe").
fn markdown(rows: &[serde_json::Value], o: &Options, seconds: f64, worst: f64) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} measurements per test, clock {}, seed {}, {:.0} s; largest max |t| outside the \
         controls: {worst:.2}.\n",
        o.settings.measurements,
        ct::clock::SOURCE,
        o.seed,
        seconds
    );
    let controls: Vec<_> = rows.iter().filter(|r| r["role"] != "test").collect();
    if !controls.is_empty() {
        out.push_str("| control or probe | algorithm | backend | measurements | max \\|t\\| | statistic | raw \\|t\\| | verdict |\n");
        out.push_str("|---|---|---|--:|--:|---|--:|---|\n");
        for r in controls {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {:.2} | {} | {:.2} | {} |",
                r["test"].as_str().unwrap_or(""),
                r["algorithm"].as_str().unwrap_or(""),
                r["backend"].as_str().unwrap_or(""),
                r["measurements"],
                r["max_t"].as_f64().unwrap_or(0.0),
                r["max_statistic"].as_str().unwrap_or(""),
                r["raw_t"].as_f64().unwrap_or(0.0),
                r["verdict"].as_str().unwrap_or(""),
            );
        }
        out.push('\n');
    }
    let tested: Vec<_> = rows.iter().filter(|r| r["role"] == "test").collect();
    let mut tests: Vec<&str> = Vec::new();
    let mut pairs: Vec<(&str, &str)> = Vec::new();
    for r in &tested {
        let t = r["test"].as_str().unwrap_or("");
        if !tests.contains(&t) {
            tests.push(t);
        }
        let p = (
            r["algorithm"].as_str().unwrap_or(""),
            r["backend"].as_str().unwrap_or(""),
        );
        if !pairs.contains(&p) {
            pairs.push(p);
        }
    }
    if pairs.is_empty() {
        return out;
    }
    out.push_str("| algorithm | backend |");
    for t in &tests {
        let _ = write!(out, " {} |", short(t));
    }
    out.push_str("\n|---|---|");
    for _ in &tests {
        out.push_str("--:|");
    }
    out.push('\n');
    for (alg, backend) in pairs {
        let _ = write!(out, "| {alg} | {backend} |");
        for t in &tests {
            let cell = tested
                .iter()
                .find(|r| r["algorithm"] == alg && r["backend"] == backend && r["test"] == *t);
            match cell.and_then(|r| r["max_t"].as_f64()) {
                Some(v) if v > LEAK_T => {
                    let _ = write!(out, " **{v:.1}** |");
                }
                Some(v) if v > MAYBE_T => {
                    let _ = write!(out, " *{v:.1}* |");
                }
                Some(v) => {
                    let _ = write!(out, " {v:.1} |");
                }
                None => out.push_str(" - |"),
            }
        }
        out.push('\n');
    }
    out
}

fn json_row(case: &Case, o: &Outcome) -> serde_json::Value {
    serde_json::json!({
        "test": case.test,
        "algorithm": case.alg,
        "backend": case.backend,
        "role": case.role.name(),
        "measurements": o.measurements,
        "batch": o.batch,
        "median_ticks": o.median_ticks,
        "max_t": o.max.t,
        "max_statistic": o.max.test,
        "max_statistic_count": o.max.count,
        "max_statistic_diff": o.max.diff,
        "raw_t": o.t_raw,
        "verdict": verdict(case, o),
    })
}

fn main() -> ExitCode {
    let o = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("brwhash-ct: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let mut all: Vec<Case> = Vec::new();
    if o.kinds.iter().any(|k| k == "control") {
        all.extend(controls());
    }
    if o.kinds.iter().any(|k| k == "probe") {
        all.extend(probes());
    }
    for &alg in &o.algs {
        for &b in &o.backends {
            if b.check(alg).is_ok() {
                all.extend(cases(alg, b, &o.kinds, &o.keys));
            }
        }
    }
    if !o.filters.is_empty() {
        all.retain(|c| o.filters.iter().any(|f| c.test.contains(f.as_str())));
    }
    if o.list {
        for c in &all {
            println!("{:<37} {:<17} {}", c.test, c.alg, c.backend);
        }
        println!("{} tests", all.len());
        return ExitCode::SUCCESS;
    }
    // The table goes to standard output, or to standard error under --json and --markdown
    // (as progress).
    let say = |line: &str| {
        if o.json || o.markdown {
            eprintln!("{line}");
        } else {
            println!("{line}");
        }
    };
    say(&format!(
        "brwhash-ct: {} tests, {} measurements each, clock {}, seed {}; leak: max |t| > {LEAK_T} \
         (maybe: > {MAYBE_T})",
        all.len(),
        o.settings.measurements,
        ct::clock::SOURCE,
        o.seed
    ));
    let start = Instant::now();
    let mut rng = Rng::new(o.seed);
    let mut rows = Vec::new();
    let mut failures = 0;
    let mut in_controls = None;
    for c in &all {
        if in_controls != Some(c.role) {
            in_controls = Some(c.role);
            say("");
            say(match c.role {
                Role::Control => "== CONTROLS (deliberately leaking: must be detected) ==",
                Role::Probe => "== PROBES (the CPU itself, not brwhash: never fail the run) ==",
                Role::Test => "== brwhash ==",
            });
            say(HEADER);
        }
        let outcome = ct::run(c, &o.settings, &mut rng);
        say(&row(c, &outcome));
        if failed(c, &outcome) {
            failures += 1;
        }
        rows.push(json_row(c, &outcome));
    }
    let worst = rows
        .iter()
        .filter(|r| r["role"] == "test")
        .map(|r| r["max_t"].as_f64().unwrap_or(0.0))
        .fold(0.0, f64::max);
    say("");
    say(&format!(
        "{} tests in {:.0} s; largest max |t| outside the controls: {worst:.2}; {}",
        all.len(),
        start.elapsed().as_secs_f64(),
        if failures == 0 {
            "PASS (no leak found, every control detected)".to_string()
        } else {
            format!("FAIL ({failures} tests leak or controls undetected)")
        }
    ));
    if o.json {
        let doc = serde_json::json!({
            "clock": ct::clock::SOURCE,
            "seed": o.seed,
            "measurements": o.settings.measurements,
            "leak_t": LEAK_T,
            "maybe_t": MAYBE_T,
            "seconds": start.elapsed().as_secs_f64(),
            "largest_t": worst,
            "pass": failures == 0,
            "results": rows,
        });
        println!("{}", serde_json::to_string_pretty(&doc).unwrap());
    }
    if o.markdown {
        print!(
            "{}",
            markdown(&rows, &o, start.elapsed().as_secs_f64(), worst)
        );
    }
    if failures == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
