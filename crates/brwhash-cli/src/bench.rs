//! `brwhash bench`: the options turned into a [`Plan`], the machine and clock printed first,
//! the measurement (progress on stderr), then the tables on stdout and the requested files.

use std::fs::File;
use std::io::Write;
use std::path::Path;

use brwhash::{Algorithm, Backend};
use brwhash_bench::harness::{self, Settings};
use brwhash_bench::machine::Machine;
use brwhash_bench::report;
use brwhash_bench::suite::{self, Mode, Plan};

use crate::cli::{BenchArgs, BenchMode};
use crate::util::{error_line, io_message, Report, Stop};

/// The items of a comma-separated list; an empty item is an error.
fn items<'a>(list: &'a str, option: &str) -> Result<Vec<&'a str>, Stop> {
    let v: Vec<&str> = list.split(',').map(str::trim).collect();
    if v.iter().any(|s| s.is_empty()) {
        return Err(Stop::Usage(format!(
            "{option}: empty item in {list:?} (expected a comma-separated list)"
        )));
    }
    Ok(v)
}

/// `4096`, `4K`, `1M`, `1MiB`: bytes.
fn parse_length(s: &str) -> Option<usize> {
    let lower = s.to_ascii_lowercase();
    let (digits, unit) = if let Some(d) = lower.strip_suffix("mib").or(lower.strip_suffix('m')) {
        (d, 1usize << 20)
    } else if let Some(d) = lower.strip_suffix("kib").or(lower.strip_suffix('k')) {
        (d, 1 << 10)
    } else {
        (lower.as_str(), 1)
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse::<usize>().ok()?.checked_mul(unit)
}

fn plan(args: &BenchArgs) -> Result<Plan, Stop> {
    let mut algorithms: Vec<Algorithm> = Vec::new();
    let default_algs = suite::DEFAULT_ALGORITHMS.join(",");
    let algs = args.alg.as_deref().unwrap_or(&default_algs);
    for name in items(algs, "--alg")? {
        let alg: Algorithm = name.parse().map_err(|e| format!("--alg: {e}"))?;
        if !algorithms.contains(&alg) {
            algorithms.push(alg);
        }
    }
    let mut lengths: Vec<usize> = Vec::new();
    for item in items(&args.lengths, "--lengths")? {
        let n = parse_length(item)
            .filter(|&n| (1..=suite::MAX_LENGTH).contains(&n))
            .ok_or_else(|| {
                format!(
                    "--lengths: {item:?} is not a length in 1..={} bytes",
                    suite::MAX_LENGTH
                )
            })?;
        if !lengths.contains(&n) {
            lengths.push(n);
        }
    }
    lengths.sort_unstable();
    let piece = parse_length(args.piece.trim())
        .filter(|&n| (1..=suite::MAX_LENGTH).contains(&n))
        .ok_or_else(|| {
            format!(
                "--piece: {:?} is not a length in 1..={} bytes",
                args.piece,
                suite::MAX_LENGTH
            )
        })?;
    let mut default_row = false;
    let backends = if args.backends.trim().eq_ignore_ascii_case("all") {
        None
    } else {
        let mut v: Vec<Backend> = Vec::new();
        for name in items(&args.backends, "--backends")? {
            if name.eq_ignore_ascii_case("default") {
                default_row = true;
                continue;
            }
            let b: Backend = name.parse().map_err(|e| format!("--backends: {e}"))?;
            if !v.contains(&b) {
                v.push(b);
            }
        }
        Some(v)
    };
    let modes = match args.mode {
        BenchMode::OneShot => vec![Mode::OneShot],
        BenchMode::Key => vec![Mode::Key],
        BenchMode::Stream => vec![Mode::Stream],
        BenchMode::NewKey => vec![Mode::NewKey],
        BenchMode::Both => vec![Mode::OneShot, Mode::Key],
        BenchMode::All => vec![Mode::OneShot, Mode::Key, Mode::Stream],
    };
    Ok(Plan {
        algorithms,
        lengths,
        backends,
        modes,
        peers: !args.no_peers,
        settings: if args.quick {
            Settings::quick()
        } else {
            Settings::full()
        },
        default_row,
        piece,
        components: args.components,
    })
}

/// An output file, created before the measurement so that a bad path fails at once.
fn create(path: &Path, option: &str) -> Result<File, Stop> {
    File::create(path)
        .map_err(|e| Stop::Usage(format!("{option} {}: {}", path.display(), io_message(&e))))
}

fn write_file(mut file: File, path: &Path, text: &str) -> Result<(), Stop> {
    file.write_all(text.as_bytes())
        .and_then(|()| file.flush())
        .map_err(|e| Stop::Usage(format!("writing {}: {}", path.display(), io_message(&e))))
}

/// Turns the results into the text of one output file.
type Render = fn(&suite::Results) -> String;

fn progress(msg: &str) {
    error_line(format_args!("bench: {msg}"));
}

/// `brwhash bench`.
pub fn run(args: &BenchArgs, report: &mut Report) -> Result<(), Stop> {
    let plan = plan(args)?;
    // Check the rows (and the peers against their references) before anything is created.
    let prepared = suite::prepare(&plan).map_err(Stop::Usage)?;
    let outputs: Vec<(&Path, File, Render)> = [
        (&args.json, "--json", report::json as Render),
        (&args.svg, "--svg", report::svg),
        (&args.markdown, "--markdown", report::markdown),
    ]
    .into_iter()
    .filter_map(|(path, option, render)| {
        path.as_deref()
            .map(|p| create(p, option).map(|f| (p, f, render)))
    })
    .collect::<Result<_, _>>()?;

    let machine = Machine::detect();
    let names = |v: &[Backend]| v.iter().map(|b| b.name()).collect::<Vec<_>>().join(", ");
    report.line(&[b"# brwhash bench"])?;
    report.line(&[])?;
    report.line(&[format!(
        "CPU: {} ({} logical CPUs)",
        machine.cpu, machine.logical_cpus
    )
    .as_bytes()])?;
    report.line(&[format!(
        "brwhash backends: CPU supports {}; built and runnable here: {}",
        names(&machine.cpu_backends),
        names(&machine.available_backends)
    )
    .as_bytes()])?;
    if plan.peers && !machine.peer_versions.is_empty() {
        report.line(&[format!("Peers: {}", machine.peer_versions.join("; ")).as_bytes()])?;
    }
    report.flush()?;
    progress("calibrating the clock");
    let clock = harness::calibrate(&plan.settings);
    report.line(&[format!("Clock: {}", clock.describe()).as_bytes()])?;
    report.flush()?;

    let results = suite::run_prepared(&plan, prepared, Some(clock), &mut |m| progress(m));
    report.line(&[report::method(&results).as_bytes()])?;
    report.line(&[])?;
    for line in report::tables(&results).lines() {
        report.line(&[line.as_bytes()])?;
    }
    for (path, file, render) in outputs {
        write_file(file, path, &render(&results))?;
        progress(&format!("wrote {}", path.display()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::parse_length;

    #[test]
    fn lengths_parse_with_suffixes() {
        assert_eq!(parse_length("64"), Some(64));
        assert_eq!(parse_length("4K"), Some(4096));
        assert_eq!(parse_length("1m"), Some(1 << 20));
        assert_eq!(parse_length("2KiB"), Some(2048));
        assert_eq!(parse_length("k"), None);
        assert_eq!(parse_length("-1"), None);
        assert_eq!(parse_length("1.5K"), None);
        assert_eq!(parse_length("99999999999999999999"), None);
    }
}
