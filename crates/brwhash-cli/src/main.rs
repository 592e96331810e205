//! `brwhash`: the command-line tool of the brwhash library (digests, one-time MACs,
//! verification, and the list of algorithms and backends).

// `unsafe` only where a file is memory-mapped (input::map_file, with its SAFETY comment).
#![deny(unsafe_code)]

mod bench;
mod check;
mod cli;
mod input;
mod keys;
mod util;

use std::ffi::{OsStr, OsString};
use std::path::Path;
use std::process::ExitCode;

use brwhash::{Algorithm, Backend, Digest, Key, Mac, MAX_COMPONENTS};
use clap::Parser;
use serde_json::{json, Map, Value};
use zeroize::Zeroizing;

use cli::{CheckArgs, Cli, Command, CommonArgs};
use input::{Access, Keyed, Reader};
use util::{error_line, io_message, Report, Stop};

/// Printed (to stderr) whenever `--key` is used: a key in argv is readable by every user of
/// the machine through `ps` and `/proc/PID/cmdline`, and stays in shell history.
const KEY_ON_COMMAND_LINE: &str = "warning: --key puts the key on the command line, where other \
     users can read it (ps, /proc) and shell history keeps it; prefer --key-file";

fn main() -> ExitCode {
    // Usage errors exit with status 2, --help and --version with 0.
    let cli = Cli::parse();
    let mut report = Report::new();
    let result = match cli.command {
        Command::Digest(args) => run_hash(
            Mode::Digest,
            &args.common,
            &args.files,
            &args.check,
            &mut report,
        ),
        Command::Mac(args) => run_hash(
            Mode::Mac,
            &args.common,
            &args.files,
            &args.check,
            &mut report,
        ),
        Command::Verify(args) => run_hash(
            Mode::Verify(&args.tag),
            &args.common,
            &args.files,
            &CheckArgs::default(),
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

/// `digest`, `mac` and `verify`: every argument is checked before any input is read.
fn run_hash(
    mode: Mode<'_>,
    args: &CommonArgs,
    files: &[OsString],
    check: &CheckArgs,
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
    if check.check.is_none() && alg.is_vector() && inputs.len() > MAX_COMPONENTS {
        return Err(brwhash::Error::ComponentCount(inputs.len()).into());
    }
    let keyed = match (mac_mode, backend) {
        (true, Some(b)) => Keyed::Mac(Mac::with_backend(alg, &key, b)?),
        (true, None) => Keyed::Mac(Mac::new(alg, &key)?),
        (false, Some(b)) => Keyed::Digest(Key::with_backend(alg, &key, b)?),
        (false, None) => Keyed::Digest(Key::new(alg, &key)?),
    };
    drop(key);
    // After the arguments are checked, so that an argument error stays a single line.
    if args.key.is_some() {
        error_line(KEY_ON_COMMAND_LINE);
    }
    let mut reader = Reader::new(
        &keyed,
        args.threads.map(|n| n as usize),
        if args.no_mmap {
            Access::Stream
        } else if args.mmap {
            Access::Map
        } else {
            Access::ReadAt
        },
        !args.no_progress && !check.quiet,
    )?;
    let out = Out {
        json: args.json,
        alg,
        backend: keyed.key().backend(),
        value: if matches!(mode, Mode::Digest) {
            "digest"
        } else {
            "tag"
        },
    };
    if let Some(list) = &check.check {
        return run_check(&mut reader, &out, list, check.quiet, report);
    }
    if matches!(mode, Mode::Mac) && !alg.is_vector() && inputs.len() > 1 {
        error_line(
            "warning: a one-time MAC key must not authenticate two different messages; \
             use a fresh key for each file",
        );
    }

    // For vecHash2L the inputs are the components of one vector: one result for all of them.
    let groups: Vec<&[OsString]> = if alg.is_vector() {
        vec![inputs]
    } else {
        inputs.chunks(1).collect()
    };
    for names in groups {
        let shown = joined(names);
        let result = compute(&mut reader, names, report);
        match &tag {
            Some(tag) => {
                let verdict = result.map(|(d, n)| (d.ct_eq_bytes(tag), n));
                out.verdict(report, &shown, names, None, verdict)?;
            }
            None => out.hashed(report, &shown, names, result)?,
        }
    }
    Ok(())
}

/// `--check LIST`: recompute every file named in the list and compare.
fn run_check(
    reader: &mut Reader<'_>,
    out: &Out,
    list: &OsStr,
    quiet: bool,
    report: &mut Report,
) -> Result<(), Stop> {
    let text = check::read_list(list).map_err(|e| format!("{}: {e}", display(list)))?;
    let vector = out.alg.is_vector();
    let entries = check::parse(&text, out.alg.digest_len(), vector, MAX_COMPONENTS);
    let (mut malformed, mut unreadable, mut mismatched) = (0usize, 0usize, 0usize);
    for entry in &entries {
        let entry = match entry {
            Ok(entry) => entry,
            Err(line) => {
                malformed += 1;
                let what = format!(
                    "improperly formatted {} checksum line (expected {} hex digits, two \
                     spaces, the file name)",
                    out.alg,
                    2 * out.alg.digest_len()
                );
                report.fail(format_args!("{}:{line}: {what}", display(list)));
                if out.json {
                    let obj = json!({"check_file": lossy(list.as_encoded_bytes()), "line": line,
                        "error": what});
                    report.line(&[obj.to_string().as_bytes()])?;
                }
                continue;
            }
        };
        let result = if list == "-" && entry.names.iter().any(|n| n == "-") {
            let msg = "standard input is the check list".to_string();
            report.fail(format_args!("-: {msg}"));
            Err(msg)
        } else {
            compute(reader, &entry.names, report)
        };
        let verdict = result.map(|(d, n)| (d.ct_eq_bytes(&entry.expected), n));
        match verdict {
            Err(_) => unreadable += 1,
            Ok((false, _)) => mismatched += 1,
            Ok((true, _)) if quiet => continue,
            Ok((true, _)) => {}
        }
        out.verdict(
            report,
            &entry.shown,
            &entry.names,
            Some(entry.line),
            verdict,
        )?;
    }
    // The summary follows the results.
    report.flush()?;
    if entries.iter().all(Result::is_err) {
        report.fail(format_args!(
            "{}: no properly formatted {} checksum lines found",
            display(list),
            out.alg
        ));
    }
    let warn = |text: String| error_line(format_args!("WARNING: {text}"));
    if malformed > 0 {
        warn(check::count(
            malformed,
            "line is improperly formatted",
            "lines are improperly formatted",
        ));
    }
    if unreadable > 0 {
        warn(check::count(
            unreadable,
            "listed file could not be read",
            "listed files could not be read",
        ));
    }
    if mismatched > 0 {
        warn(check::count(
            mismatched,
            "computed checksum did NOT match",
            "computed checksums did NOT match",
        ));
    }
    Ok(())
}

/// The digest (or tag) of one input, or of the vector whose components are `names`, with its
/// length in bytes. Each failing file is reported on stderr (`<file>: <error>`); the error is
/// the first one's message.
fn compute(
    reader: &mut Reader<'_>,
    names: &[OsString],
    report: &mut Report,
) -> Result<(Digest, u64), String> {
    let mut fail = |name: &OsStr, msg: String| {
        report.fail(format_args!("{}: {msg}", display(name)));
        msg
    };
    if let [name] = names {
        if !reader.is_vector() {
            return reader.digest(name).map_err(|msg| fail(name, msg));
        }
    }
    #[cfg(all(feature = "parallel", unix))]
    if let Some(result) = reader.digest_vector(names) {
        return result.map_err(|failed| {
            let mut first = String::new();
            for (i, msg) in failed {
                let msg = fail(&names[i], msg);
                if first.is_empty() {
                    first = msg;
                }
            }
            first
        });
    }
    let mut stream = reader.stream();
    let mut total = 0u64;
    let mut first_error = None;
    for (i, name) in names.iter().enumerate() {
        let step = if i > 0 {
            stream.next_component().map(drop).map_err(|e| e.to_string())
        } else {
            Ok(())
        };
        match step.and_then(|()| reader.absorb(&mut stream, name)) {
            Ok(n) => total += n,
            Err(msg) => {
                let msg = fail(name, msg);
                first_error.get_or_insert(msg);
            }
        }
    }
    match first_error {
        None => Ok((stream.finalize(), total)),
        Some(msg) => Err(msg),
    }
}

/// How results are printed: text lines or JSON Lines.
struct Out {
    json: bool,
    alg: Algorithm,
    backend: Backend,
    /// "digest" or "tag": the JSON field of the result.
    value: &'static str,
}

impl Out {
    /// `digest` and `mac`: `<hex>  <name>`, nothing for an input that failed (its error is
    /// on stderr already); with --json an object with the digest or the error.
    fn hashed(
        &self,
        report: &mut Report,
        shown: &[u8],
        names: &[OsString],
        result: Result<(Digest, u64), String>,
    ) -> Result<(), Stop> {
        if !self.json {
            return match result {
                Ok((digest, _)) => report.line(&[digest.to_hex().as_bytes(), b"  ", shown]),
                Err(_) => Ok(()),
            };
        }
        let mut obj = self.object(shown, names, None);
        match result {
            Ok((digest, bytes)) => {
                obj.insert(self.value.into(), digest.to_hex().into());
                obj.insert("bytes".into(), bytes.into());
            }
            Err(msg) => {
                obj.insert("error".into(), msg.into());
            }
        }
        report.line(&[Value::Object(obj).to_string().as_bytes()])
    }

    /// `verify` and `--check`: `<name>: OK`, `<name>: FAILED` (a mismatch) or
    /// `<name>: FAILED open or read`; with --json an object with "status" (and "error").
    /// The computed value is never printed: for a MAC it would be a forgery.
    fn verdict(
        &self,
        report: &mut Report,
        shown: &[u8],
        names: &[OsString],
        line: Option<usize>,
        verdict: Result<(bool, u64), String>,
    ) -> Result<(), Stop> {
        let status = match &verdict {
            Ok((true, _)) => "OK",
            Ok((false, _)) => {
                report.mismatch = true;
                "FAILED"
            }
            Err(_) => "FAILED open or read",
        };
        if !self.json {
            return report.line(&[shown, b": ", status.as_bytes()]);
        }
        let mut obj = self.object(shown, names, line);
        obj.insert("status".into(), status.into());
        match verdict {
            Ok((_, bytes)) => obj.insert("bytes".into(), bytes.into()),
            Err(msg) => obj.insert("error".into(), msg.into()),
        };
        report.line(&[Value::Object(obj).to_string().as_bytes()])
    }

    /// The fields every JSON result has.
    fn object(&self, shown: &[u8], names: &[OsString], line: Option<usize>) -> Map<String, Value> {
        let mut obj = Map::new();
        obj.insert("file".into(), lossy(shown).into());
        if self.alg.is_vector() {
            let parts: Vec<Value> = names
                .iter()
                .map(|n| lossy(n.as_encoded_bytes()).into())
                .collect();
            obj.insert("components".into(), parts.into());
        }
        if let Some(line) = line {
            obj.insert("line".into(), line.into());
        }
        obj.insert("algorithm".into(), self.alg.to_string().into());
        obj.insert("backend".into(), self.backend.name().into());
        obj
    }
}

/// The names separated by single spaces (vecHash2L prints its components so).
fn joined(names: &[OsString]) -> Vec<u8> {
    let parts: Vec<&[u8]> = names.iter().map(|n| n.as_encoded_bytes()).collect();
    parts.join(&b' ')
}

/// A file name in JSON: not-UTF-8 bytes become U+FFFD.
fn lossy(name: &[u8]) -> String {
    String::from_utf8_lossy(name).into_owned()
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
