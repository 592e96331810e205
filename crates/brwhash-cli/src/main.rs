//! `brwhash`: the command-line tool of the brwhash library (digests, one-time MACs,
//! verification, and the list of algorithms and backends).

#![forbid(unsafe_code)]

mod bench;
mod cli;
mod keys;
mod util;

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;
use std::process::ExitCode;

use brwhash::{Algorithm, Backend, Hasher, Key, Mac, MAX_COMPONENTS};
use clap::Parser;
use zeroize::Zeroizing;

use cli::{Cli, Command, CommonArgs};
use util::{error_line, io_message, Report, Stop};

/// Read buffer for inputs: files are streamed, never read whole.
const CHUNK: usize = 64 * 1024;

fn main() -> ExitCode {
    // Usage errors exit with status 2, --help and --version with 0.
    let cli = Cli::parse();
    let mut report = Report::new();
    let result = match cli.command {
        Command::Digest(args) => run_hash(Mode::Digest, &args.common, &args.files, &mut report),
        Command::Mac(args) => run_hash(Mode::Mac, &args.common, &args.files, &mut report),
        Command::Verify(args) => run_hash(
            Mode::Verify(&args.tag),
            &args.common,
            &args.files,
            &mut report,
        ),
        Command::List => list(&mut report),
        Command::Bench(args) => bench::run(&args, &mut report),
    };
    match result.and_then(|()| report.flush()) {
        Ok(()) | Err(Stop::BrokenPipe) => report.code(),
        Err(Stop::Usage(msg)) => {
            error_line(msg);
            ExitCode::from(2)
        }
        Err(Stop::Write(e)) => {
            error_line(format_args!("error writing output: {}", io_message(&e)));
            ExitCode::from(2)
        }
    }
}

#[derive(Clone, Copy)]
enum Mode<'a> {
    Digest,
    Mac,
    /// The expected tag, as given (hex).
    Verify(&'a str),
}

/// A hash key or a MAC key.
enum Keyed {
    Digest(Key),
    Mac(Mac),
}

impl Keyed {
    /// A streaming computation that finishes with the digest, or with the tag in MAC mode.
    fn stream(&self) -> Hasher<'_> {
        match self {
            Keyed::Digest(key) => Hasher::new(key),
            Keyed::Mac(mac) => mac.hasher(),
        }
    }
}

/// `digest`, `mac` and `verify`: every argument is checked before any input is read.
fn run_hash(
    mode: Mode<'_>,
    args: &CommonArgs,
    files: &[OsString],
    report: &mut Report,
) -> Result<(), Stop> {
    let alg: Algorithm = args.alg.parse()?;
    // The key is a MAC key tau || s, except for Poly1305, whose key r || s is verified as is.
    let mac_mode = match mode {
        Mode::Digest => false,
        Mode::Mac => true,
        Mode::Verify(_) => alg != Algorithm::POLY1305,
    };
    let key_len = if mac_mode {
        alg.mac_key_len().ok_or_else(|| {
            format!(
                "{}; use `brwhash digest --alg {alg}` for its tag (or `brwhash verify --alg \
                 {alg}` to check one)",
                brwhash::Error::NoMacMode(alg.to_string())
            )
        })?
    } else {
        alg.key_len()
    };
    let backend: Option<Backend> = match args.backend.as_deref() {
        Some(name) => Some(name.parse()?),
        None => {
            // The library reads BRWHASH_BACKEND itself (Key::new); checking it here too only
            // adds to its errors where they come from.
            let env = brwhash::backend::BACKEND_ENV;
            match Backend::forced() {
                Ok(Some(b)) => b.check(alg).map_err(|e| format!("{env}={b}: {e}"))?,
                Ok(None) => {}
                Err(e) => return Err(Stop::Usage(format!("{env}: {e}"))),
            }
            None
        }
    };
    let tag = match mode {
        Mode::Verify(hex) => {
            let tag = keys::decode_hex(hex.as_bytes(), "--tag")?;
            if tag.len() != alg.digest_len() {
                return Err(Stop::Usage(format!(
                    "--tag: {alg} tags are {} bytes, got {} bytes",
                    alg.digest_len(),
                    tag.len()
                )));
            }
            Some(tag.to_vec())
        }
        _ => None,
    };
    let key: Zeroizing<Vec<u8>> = match (&args.key, &args.key_file) {
        (Some(hex), None) => keys::decode_hex(hex.as_bytes(), "--key")?,
        (None, Some(path)) => keys::read_key_file(path, key_len)?,
        // clap's argument group makes exactly one of them present.
        _ => return Err(Stop::Usage("give exactly one of --key, --key-file".into())),
    };
    let stdin = [OsString::from("-")];
    let inputs: &[OsString] = if files.is_empty() { &stdin } else { files };
    if alg.is_vector() && inputs.len() > MAX_COMPONENTS {
        return Err(brwhash::Error::ComponentCount(inputs.len()).into());
    }
    let keyed = match (mac_mode, backend) {
        (true, Some(b)) => Keyed::Mac(Mac::with_backend(alg, &key, b)?),
        (true, None) => Keyed::Mac(Mac::new(alg, &key)?),
        (false, Some(b)) => Keyed::Digest(Key::with_backend(alg, &key, b)?),
        (false, None) => Keyed::Digest(Key::new(alg, &key)?),
    };
    drop(key);
    if matches!(mode, Mode::Mac) && !alg.is_vector() && inputs.len() > 1 {
        error_line(
            "warning: a one-time MAC key must not authenticate two different messages; \
             use a fresh key for each file",
        );
    }

    let mut buf = vec![0u8; CHUNK];
    if alg.is_vector() {
        // The inputs are the components of one vector: one result line for all of them.
        let mut names = Vec::new();
        for (i, name) in inputs.iter().enumerate() {
            if i > 0 {
                names.push(b" ".as_slice());
            }
            names.push(name.as_encoded_bytes());
        }
        let names = names.concat();
        let mut stream = keyed.stream();
        let mut ok = true;
        for (i, name) in inputs.iter().enumerate() {
            let step = if i > 0 {
                stream
                    .next_component()
                    .map(drop)
                    .map_err(|e| format!("{}: {e}", display(name)))
            } else {
                Ok(())
            };
            if let Err(msg) = step.and_then(|()| absorb(&mut stream, name, &mut buf)) {
                report.fail(msg);
                ok = false;
            }
        }
        emit(mode, tag.as_deref(), &stream, ok, &names, report)?;
    } else {
        for name in inputs {
            let mut stream = keyed.stream();
            let ok = match absorb(&mut stream, name, &mut buf) {
                Ok(()) => true,
                Err(msg) => {
                    report.fail(msg);
                    false
                }
            };
            emit(
                mode,
                tag.as_deref(),
                &stream,
                ok,
                name.as_encoded_bytes(),
                report,
            )?;
        }
    }
    Ok(())
}

/// The result line of one input (or of one vector): `<hex>  <name>` for digest and mac, which
/// print nothing for an input that failed; `<name>: OK` / `<name>: FAILED` for verify.
fn emit(
    mode: Mode<'_>,
    tag: Option<&[u8]>,
    stream: &Hasher<'_>,
    ok: bool,
    name: &[u8],
    report: &mut Report,
) -> Result<(), Stop> {
    match (mode, tag) {
        (Mode::Verify(_), Some(tag)) => {
            let verdict: &[u8] = if !ok {
                b": FAILED open or read"
            } else if stream.verify(tag) {
                b": OK"
            } else {
                report.mismatch = true;
                b": FAILED"
            };
            report.line(&[name, verdict])
        }
        _ if ok => report.line(&[stream.finalize().to_hex().as_bytes(), b"  ", name]),
        _ => Ok(()),
    }
}

/// Streams the file `name` (`-`: standard input) into `stream` in [`CHUNK`]-byte reads.
/// The error is the whole message line, naming the file.
fn absorb(stream: &mut Hasher<'_>, name: &OsStr, buf: &mut [u8]) -> Result<(), String> {
    let result = if name == "-" {
        feed(stream, &mut io::stdin().lock(), buf)
    } else {
        match File::open(name) {
            Ok(mut file) => feed(stream, &mut file, buf),
            Err(e) => Err(io_message(&e)),
        }
    };
    result.map_err(|msg| format!("{}: {msg}", display(name)))
}

fn feed(stream: &mut Hasher<'_>, reader: &mut impl Read, buf: &mut [u8]) -> Result<(), String> {
    loop {
        match reader.read(buf) {
            Ok(0) => return Ok(()),
            Ok(n) => {
                stream.update(&buf[..n]).map_err(|e| e.to_string())?;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(io_message(&e)),
        }
    }
}

fn display(name: &OsStr) -> std::path::Display<'_> {
    Path::new(name).display()
}

/// `brwhash list`: the algorithms, then the backends.
fn list(report: &mut Report) -> Result<(), Stop> {
    let algs = Algorithm::all();
    let mut rows = vec![[
        "algorithm".to_string(),
        "key".to_string(),
        "digest".to_string(),
        "mac-key".to_string(),
    ]];
    for alg in &algs {
        rows.push([
            alg.to_string(),
            alg.key_len().to_string(),
            alg.digest_len().to_string(),
            alg.mac_key_len()
                .map_or_else(|| "-".to_string(), |n| n.to_string()),
        ]);
    }
    print_table(&rows, &[false, true, true, true], report)?;
    report.line(&[])?;

    // The default choice per algorithm (it honours BRWHASH_BACKEND, as keys do).
    let mut select_error = None;
    let defaults: Vec<Backend> = algs
        .iter()
        .filter_map(|&alg| match Backend::select(alg, None) {
            Ok(b) => Some(b),
            Err(e) => {
                select_error.get_or_insert(e);
                None
            }
        })
        .collect();
    let share = |n: usize| match n {
        0 => "no".to_string(),
        n if n == algs.len() => "yes".to_string(),
        n => format!("{n} of {}", algs.len()),
    };
    let mut rows = vec![[
        "backend".to_string(),
        "cpu".to_string(),
        "built".to_string(),
        "default".to_string(),
    ]];
    for b in Backend::ALL {
        let built = algs.iter().filter(|&&alg| b.implements(alg)).count();
        let default = defaults.iter().filter(|&&d| d == b).count();
        rows.push([
            b.name().to_string(),
            if b.cpu_supports() { "yes" } else { "no" }.to_string(),
            share(built),
            share(default),
        ]);
    }
    print_table(&rows, &[false, false, false, false], report)?;
    let note = match Backend::forced() {
        Ok(Some(b)) => format!(
            "The default is forced by {}={b}.",
            brwhash::backend::BACKEND_ENV
        ),
        _ => format!(
            "Force a backend with --backend NAME or {}=NAME.",
            brwhash::backend::BACKEND_ENV
        ),
    };
    report.line(&[note.as_bytes()])?;
    if let Some(e) = select_error {
        let env = brwhash::backend::BACKEND_ENV;
        match Backend::forced() {
            Ok(Some(b)) => report.fail(format_args!("{env}={b}: {e}")),
            _ => report.fail(format_args!("{env}: {e}")),
        }
    }
    Ok(())
}

/// Columns separated by two spaces; `right[i]` right-aligns column i.
fn print_table<const N: usize>(
    rows: &[[String; N]],
    right: &[bool; N],
    report: &mut Report,
) -> Result<(), Stop> {
    let mut widths = [0usize; N];
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.len());
        }
    }
    for row in rows {
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate() {
            if i > 0 {
                line.push_str("  ");
            }
            let pad = " ".repeat(widths[i] - cell.len());
            if right[i] {
                line.push_str(&pad);
                line.push_str(cell);
            } else {
                line.push_str(cell);
                if i + 1 < N {
                    line.push_str(&pad);
                }
            }
        }
        report.line(&[line.as_bytes()])?;
    }
    Ok(())
}
