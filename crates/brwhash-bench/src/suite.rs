//! What to measure and the measurement: rows (brwhash algorithm x backend x mode, and the
//! peers) x message lengths.

use std::fmt;
use std::hint::black_box;
use std::time::{Duration, Instant};

use brwhash::{Algorithm, Backend, Key};

use crate::harness::{self, Cell, Clock, Progress, Routine, Settings};
use crate::machine::Machine;
use crate::peers::{self, Peer};

/// The algorithms of a default run.
pub const DEFAULT_ALGORITHMS: [&str; 12] = [
    "Poly1305",
    "polyHash1305",
    "polyHash1271",
    "4-decBRWHash1305",
    "4-decBRWHash1271",
    "8-decBRWHash1305",
    "4-Hash1271",
    "BRWHash1305",
    "Hash2L128",
    "Hash2L256",
    "vecHash2L128",
    "vecHash2L256",
];

/// The message lengths of a default run, in bytes.
pub const DEFAULT_LENGTHS: [usize; 9] = [64, 256, 512, 1024, 4096, 8192, 16384, 65536, 1 << 20];

/// The longest message a run accepts (the message is held in memory).
pub const MAX_LENGTH: usize = 256 << 20;

/// How the key is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mode {
    /// Key set-up (powers, tables) inside every call: `brwhash::hash(alg, key, msg)`.
    OneShot,
    /// Key set up once (`Key::new`), `key.hash(msg)` per call.
    Key,
    /// Key set up once; the message through `Hasher::update` in 4 KiB pieces (the streaming
    /// API's buffering cost).
    Stream,
    /// `Key::new` and `key.hash(msg)` per call: a one-time key through the `Key` API (as a
    /// `Mac` per message, or a stream's key), where [`Mode::OneShot`] computes only the
    /// powers the length needs.
    NewKey,
}

impl Mode {
    /// `one-shot`, `key`, `stream` or `new-key`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::OneShot => "one-shot",
            Mode::Key => "key",
            Mode::Stream => "stream",
            Mode::NewKey => "new-key",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Prime-field or binary-field hashing: brwhash rows are compared with peers of the same kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FieldKind {
    /// Poly1305, polyHash, BRW hashes over 2^130 - 5 and 2^127 - 1.
    Prime,
    /// GHASH, POLYVAL, Hash2L over GF(2^128) and GF(2^256).
    Binary,
}

impl FieldKind {
    /// The kind of `alg`.
    pub fn of(alg: Algorithm) -> FieldKind {
        if alg.prime().is_some() {
            FieldKind::Prime
        } else {
            FieldKind::Binary
        }
    }
}

/// A run to do.
#[derive(Clone, Debug)]
pub struct Plan {
    /// brwhash algorithms.
    pub algorithms: Vec<Algorithm>,
    /// Message lengths (1..=[`MAX_LENGTH`]).
    pub lengths: Vec<usize>,
    /// Backends to measure; `None`: every backend that can run each algorithm here.
    pub backends: Option<Vec<Backend>>,
    /// Modes of the brwhash rows.
    pub modes: Vec<Mode>,
    /// Whether to measure the peers (those of the field kinds of `algorithms`).
    pub peers: bool,
    /// The timing settings.
    pub settings: Settings,
    /// Whether to add a row for the dispatched default backend (`Key::new`, no backend
    /// forced) of each algorithm, beside the forced ones.
    pub default_row: bool,
    /// Bytes per `Hasher::update` of the stream rows ([`DEFAULT_PIECE`]).
    pub piece: usize,
    /// vecHash2L rows: each message as this many components (1..=255) of equal length, the
    /// last one taking the rest ([`split`]); 1 for other algorithms.
    pub components: usize,
}

/// `m` as `n` components of equal length, the last one taking the rest, in `out` (at least
/// `n` entries); returns them.
pub fn split<'m, 'o>(m: &'m [u8], n: usize, out: &'o mut [&'m [u8]]) -> &'o [&'m [u8]] {
    let each = m.len() / n;
    for (i, c) in out[..n].iter_mut().enumerate() {
        let end = if i + 1 == n { m.len() } else { (i + 1) * each };
        *c = &m[i * each..end];
    }
    &out[..n]
}

/// A message's components for [`split`]: on the stack up to 16 of them (no allocation in the
/// measured call), on the heap beyond.
fn with_components<R>(m: &[u8], n: usize, f: impl FnOnce(&[&[u8]]) -> R) -> R {
    if n <= 16 {
        let mut parts: [&[u8]; 16] = [&[]; 16];
        f(split(m, n, &mut parts))
    } else {
        let mut parts: Vec<&[u8]> = vec![&[]; n];
        f(split(m, n, &mut parts))
    }
}

/// Bytes per `Hasher::update` of the stream rows unless a plan says otherwise: a common
/// read-buffer size, small enough that every update is cut into chunks mid-stream.
pub const DEFAULT_PIECE: usize = 4096;

impl Plan {
    /// The default run: [`DEFAULT_ALGORITHMS`] x [`DEFAULT_LENGTHS`], every backend, both
    /// modes, peers, full settings.
    pub fn default_run() -> Plan {
        Plan {
            algorithms: DEFAULT_ALGORITHMS
                .iter()
                .map(|s| s.parse().expect("default algorithm names parse"))
                .collect(),
            lengths: DEFAULT_LENGTHS.to_vec(),
            backends: None,
            modes: vec![Mode::OneShot, Mode::Key],
            peers: true,
            settings: Settings::full(),
            default_row: false,
            piece: DEFAULT_PIECE,
            components: 1,
        }
    }
}

/// One row of the results: who, which algorithm, which backend, which mode.
#[derive(Clone, Debug, PartialEq)]
pub struct RowInfo {
    /// `brwhash` or the peer's name (e.g. `OpenSSL Poly1305`).
    pub implementation: String,
    /// The brwhash algorithm, or the peer's function (`Poly1305`, `GHASH`, `POLYVAL`).
    pub algorithm: String,
    /// The brwhash backend, or what one call of the peer does.
    pub backend: String,
    /// One-shot or precomputed key.
    pub mode: Mode,
    /// Whether this is a peer row.
    pub peer: bool,
    /// Prime or binary field.
    pub field: FieldKind,
}

impl RowInfo {
    /// `brwhash 4-Hash1271` or `OpenSSL Poly1305`: the name column of the table.
    pub fn name(&self) -> String {
        if self.peer {
            self.implementation.clone()
        } else {
            format!("{} {}", self.implementation, self.algorithm)
        }
    }

    /// The name, backend and mode in one string (plot legends, criterion ids).
    pub fn label(&self) -> String {
        format!("{} [{}, {}]", self.name(), self.backend, self.mode)
    }
}

/// The measurement of one row.
#[derive(Clone, Debug, PartialEq)]
pub struct RowResult {
    /// The row.
    pub info: RowInfo,
    /// Per length (in the order of [`Results::lengths`]): the median ticks per call.
    pub ticks: Vec<f64>,
    /// Per length: every round's median ticks per call.
    pub rounds: Vec<Vec<f64>>,
}

/// A row's time over another's, per round ([`Results::round_ratio`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RoundRatio {
    /// The median of the rounds' ratios.
    pub median: f64,
    /// The smallest round's ratio.
    pub min: f64,
    /// The largest round's ratio.
    pub max: f64,
}

/// A whole run.
#[derive(Clone, Debug)]
pub struct Results {
    /// Where it ran.
    pub machine: Machine,
    /// The clock and its TSC-to-core ratio.
    pub clock: Clock,
    /// The timing settings.
    pub settings: Settings,
    /// Whether these were the quick settings.
    pub quick: bool,
    /// The message lengths (columns).
    pub lengths: Vec<usize>,
    /// The rows, in measurement order.
    pub rows: Vec<RowResult>,
    /// Remarks (skipped combinations and the like).
    pub notes: Vec<String>,
    /// Wall time of the measurement (after the checks).
    pub elapsed: Duration,
}

impl Results {
    /// TSC cycles (ticks) per byte of row `r` at length index `l`.
    pub fn tsc_cpb(&self, r: usize, l: usize) -> f64 {
        self.rows[r].ticks[l] / self.lengths[l] as f64
    }

    /// Estimated core cycles per byte.
    pub fn core_cpb(&self, r: usize, l: usize) -> f64 {
        self.tsc_cpb(r, l) * self.clock.core_per_tick
    }

    /// Throughput in GB/s (10^9 bytes per second).
    pub fn gb_per_s(&self, r: usize, l: usize) -> f64 {
        let secs = self.rows[r].ticks[l] / self.clock.tick_hz;
        self.lengths[l] as f64 / secs / 1e9
    }

    /// Spread of the rounds: (max - min) / median.
    pub fn spread(&self, r: usize, l: usize) -> f64 {
        let rounds = &self.rows[r].rounds[l];
        let max = rounds.iter().copied().fold(f64::MIN, f64::max);
        let min = rounds.iter().copied().fold(f64::MAX, f64::min);
        (max - min) / self.rows[r].ticks[l]
    }

    /// Row `r` against row `b` at length index `l`, round by round: the rows of a round are
    /// measured within milliseconds of each other, so a slow phase of the machine (another
    /// process, a clock change) that spans rounds cancels out of each round's ratio, where a
    /// ratio of the two medians would keep the part of it that fell on one row's median.
    pub fn round_ratio(&self, r: usize, b: usize, l: usize) -> RoundRatio {
        let mut ratios: Vec<f64> = self.rows[r].rounds[l]
            .iter()
            .zip(&self.rows[b].rounds[l])
            .map(|(x, y)| x / y)
            .collect();
        if ratios.is_empty() {
            let q = self.rows[r].ticks[l] / self.rows[b].ticks[l];
            return RoundRatio {
                median: q,
                min: q,
                max: q,
            };
        }
        ratios.sort_by(f64::total_cmp);
        let n = ratios.len();
        let median = if n % 2 == 1 {
            ratios[n / 2]
        } else {
            (ratios[n / 2 - 1] + ratios[n / 2]) / 2.0
        };
        RoundRatio {
            median,
            min: ratios[0],
            max: ratios[n - 1],
        }
    }

    /// The fastest peer row of field kind `field` at length index `l`.
    pub fn fastest_peer(&self, field: FieldKind, l: usize) -> Option<usize> {
        (0..self.rows.len())
            .filter(|&r| self.rows[r].info.peer && self.rows[r].info.field == field)
            .min_by(|&a, &b| self.rows[a].ticks[l].total_cmp(&self.rows[b].ticks[l]))
    }
}

/// Rows ready to run: their descriptions and routines.
pub struct Prepared {
    /// The rows.
    pub rows: Vec<RowInfo>,
    /// One routine per row.
    pub routines: Vec<Routine<'static>>,
    /// Remarks for the report.
    pub notes: Vec<String>,
}

/// Key bytes of the benchmark (pseudo-random, fixed).
fn bench_key(len: usize, salt: u64) -> Vec<u8> {
    crate::pseudo_random_bytes(0x6b65_795f_6265_6e63 ^ salt, len)
}

/// Checks the plan, builds the rows and checks every implementation: each brwhash backend
/// against the portable one-shot result, each peer against its reference
/// ([`peers::check`]). A disagreement is an error.
pub fn prepare(plan: &Plan) -> Result<Prepared, String> {
    if plan.algorithms.is_empty() {
        return Err("no algorithm to measure".into());
    }
    if plan.lengths.is_empty() {
        return Err("no message length to measure".into());
    }
    if let Some(&bad) = plan.lengths.iter().find(|&&n| n == 0 || n > MAX_LENGTH) {
        return Err(format!(
            "message length {bad} out of range (1..={MAX_LENGTH} bytes)"
        ));
    }
    if plan.modes.is_empty() {
        return Err("no mode to measure".into());
    }
    if let Some(list) = &plan.backends {
        if list.is_empty() && !plan.default_row {
            return Err("no backend to measure".into());
        }
        for &b in list {
            if let Some(err) = plan.algorithms.iter().find_map(|&a| b.check(a).err()) {
                if plan.algorithms.iter().all(|&a| b.check(a).is_err()) {
                    return Err(format!(
                        "backend {b} cannot run any of the selected algorithms here: {err}"
                    ));
                }
            }
        }
    }
    if plan.piece == 0 {
        return Err("the stream rows' piece size must be at least 1 byte".into());
    }
    if !(1..=255).contains(&plan.components) {
        return Err(format!(
            "{} components: a vecHash2L vector has 1..=255",
            plan.components
        ));
    }
    let mut notes = Vec::new();
    if plan.modes.contains(&Mode::Stream) {
        notes.push(format!(
            "stream rows: Key::new once, then Hasher::new, Hasher::update in pieces of {} bytes \
             and Hasher::into_digest per message",
            plan.piece
        ));
    }
    if plan.modes.contains(&Mode::NewKey) {
        notes.push("new-key rows: Key::new (or Key::with_backend) and key.hash per message".into());
    }
    if plan.components > 1 && plan.algorithms.iter().any(|a| a.is_vector()) {
        notes.push(format!(
            "vecHash2L rows: each message as {} components of equal length (the last one \
             takes the rest)",
            plan.components
        ));
    }
    let mut rows = Vec::new();
    let mut routines: Vec<Routine<'static>> = Vec::new();
    let mut check_lens: Vec<usize> = vec![0, 1, 15, 16, 17, 100, 1000];
    check_lens.extend(plan.lengths.iter().copied().filter(|&n| n <= 1 << 20));
    check_lens.sort_unstable();
    check_lens.dedup();

    for (ai, &alg) in plan.algorithms.iter().enumerate() {
        let key = bench_key(alg.key_len(), ai as u64);
        let default = Backend::select(alg, None).map_err(|e| format!("{alg}: {e}"))?;
        // Components per message: `plan.components` for vecHash2L, else 1 (and then
        // `hash_vector` of one component is `hash`, and the rows call `hash`).
        let parts = if alg.is_vector() { plan.components } else { 1 };
        // `None`: the dispatched default (no backend forced).
        let mut candidates: Vec<Option<Backend>> = match &plan.backends {
            Some(list) => list.iter().copied().map(Some).collect(),
            None => Backend::ALL.iter().copied().map(Some).collect(),
        };
        if plan.default_row {
            candidates.insert(0, None);
        }
        let expected: Vec<_> = check_lens
            .iter()
            .map(|&n| {
                let msg = crate::pseudo_random_bytes(n as u64, n);
                if parts > 1 {
                    with_components(&msg, parts, |c| brwhash::hash_vector(alg, &key, c))
                } else {
                    brwhash::hash(alg, &key, &msg)
                }
                .map_err(|e| format!("{alg}: {e}"))
            })
            .collect::<Result<_, _>>()?;
        let mut any = false;
        for choice in candidates {
            let b = choice.unwrap_or(default);
            if let Err(e) = b.check(alg) {
                if plan.backends.is_some() {
                    notes.push(format!("{alg} on {b} skipped: {e}"));
                }
                continue;
            }
            let keyed = |key: &[u8]| match choice {
                Some(b) => Key::with_backend(alg, key, b),
                None => Key::new(alg, key),
            };
            for &mode in &plan.modes {
                let info = RowInfo {
                    implementation: "brwhash".into(),
                    algorithm: alg.to_string(),
                    backend: match choice {
                        Some(b) => b.name().into(),
                        None => format!("default ({b})"),
                    },
                    mode,
                    peer: false,
                    field: FieldKind::of(alg),
                };
                match mode {
                    Mode::OneShot if parts > 1 => {
                        let key = key.clone();
                        routines.push(Box::new(move |m: &[u8]| {
                            with_components(m, parts, |c| match choice {
                                Some(b) => black_box(
                                    Key::with_backend(alg, black_box(&key), b)
                                        .and_then(|k| k.hash_vector(c))
                                        .ok(),
                                ),
                                None => {
                                    black_box(brwhash::hash_vector(alg, black_box(&key), c).ok())
                                }
                            });
                        }));
                    }
                    Mode::OneShot => {
                        let key = key.clone();
                        routines.push(match choice {
                            Some(b) => Box::new(move |m: &[u8]| {
                                black_box(
                                    brwhash::hash_with_backend(alg, b, black_box(&key), m).ok(),
                                );
                            }),
                            None => Box::new(move |m: &[u8]| {
                                black_box(brwhash::hash(alg, black_box(&key), m).ok());
                            }),
                        });
                    }
                    Mode::Stream => {
                        let k = keyed(&key).map_err(|e| format!("{alg} on {b}: {e}"))?;
                        let size = plan.piece;
                        let stream = move |k: &Key, m: &[u8]| {
                            let mut h = brwhash::Hasher::new(k);
                            with_components(m, parts, |c| {
                                for (i, c) in c.iter().enumerate() {
                                    if i > 0 {
                                        // A vecHash2L key: next_component cannot fail.
                                        let _ = h.next_component();
                                    }
                                    for piece in c.chunks(size) {
                                        // A benchmark's message is far below the limit.
                                        let _ = h.update(piece);
                                    }
                                }
                            });
                            h.into_digest()
                        };
                        for (&n, want) in check_lens.iter().zip(&expected) {
                            let msg = crate::pseudo_random_bytes(n as u64, n);
                            if stream(&k, &msg) != *want {
                                return Err(format!(
                                    "{alg} on backend {b}: streaming disagrees with \
                                     brwhash::hash on a {n}-byte message"
                                ));
                            }
                        }
                        routines.push(Box::new(move |m: &[u8]| {
                            black_box(stream(&k, m));
                        }));
                    }
                    Mode::NewKey => {
                        let key = key.clone();
                        let fresh = move |m: &[u8]| {
                            let k = match choice {
                                Some(b) => Key::with_backend(alg, black_box(&key), b),
                                None => Key::new(alg, black_box(&key)),
                            }
                            .ok()?;
                            if parts > 1 {
                                with_components(m, parts, |c| k.hash_vector(c)).ok()
                            } else {
                                Some(k.hash(m))
                            }
                        };
                        for (&n, want) in check_lens.iter().zip(&expected) {
                            let msg = crate::pseudo_random_bytes(n as u64, n);
                            if fresh(&msg).as_ref() != Some(want) {
                                return Err(format!(
                                    "{alg} on backend {b}: a new key disagrees with \
                                     brwhash::hash on a {n}-byte message"
                                ));
                            }
                        }
                        routines.push(Box::new(move |m: &[u8]| {
                            black_box(fresh(m));
                        }));
                    }
                    Mode::Key => {
                        let k = keyed(&key).map_err(|e| format!("{alg} on {b}: {e}"))?;
                        let keyed_hash = move |k: &Key, m: &[u8]| {
                            if parts > 1 {
                                with_components(m, parts, |c| k.hash_vector(c))
                                    .expect("a vecHash2L key takes 2..=255 components")
                            } else {
                                k.hash(m)
                            }
                        };
                        for (&n, want) in check_lens.iter().zip(&expected) {
                            let msg = crate::pseudo_random_bytes(n as u64, n);
                            if keyed_hash(&k, &msg) != *want {
                                return Err(format!(
                                    "{alg} on backend {b} disagrees with brwhash::hash on a \
                                     {n}-byte message"
                                ));
                            }
                        }
                        routines.push(Box::new(move |m: &[u8]| {
                            black_box(keyed_hash(&k, m));
                        }));
                    }
                }
                rows.push(info);
                any = true;
            }
        }
        if !any {
            return Err(format!(
                "{alg}: none of the selected backends can run it here (default: {default})"
            ));
        }
    }

    if plan.peers {
        let kinds: Vec<FieldKind> = plan.algorithms.iter().map(|&a| FieldKind::of(a)).collect();
        let all: Vec<Peer> = peers::all();
        if all.is_empty() {
            notes.push(
                "no peers in this build (brwhash-bench was built without its `peers` feature)"
                    .into(),
            );
        }
        for (pi, peer) in all.into_iter().enumerate() {
            if !kinds.contains(&peer.function.field()) {
                continue;
            }
            let info = RowInfo {
                implementation: peer.name.into(),
                algorithm: peer.function.name().into(),
                backend: peer.call.into(),
                mode: peer.mode,
                peer: true,
                field: peer.function.field(),
            };
            peers::check(&peer, &plan.lengths)?;
            let key = bench_key(peer.function.key_len(), 0x100 + pi as u64);
            let mut f = (peer.setup)(&key).map_err(|e| format!("{}: {e}", peer.name))?;
            routines.push(Box::new(move |m: &[u8]| {
                black_box(f(m));
            }));
            rows.push(info);
        }
    }
    Ok(Prepared {
        rows,
        routines,
        notes,
    })
}

/// Runs `plan`: checks, clock calibration, measurement. `log` receives progress lines (for
/// stderr) and is called with the clock before the measurement starts.
pub fn run(
    plan: &Plan,
    clock: Option<Clock>,
    log: &mut dyn FnMut(&str),
) -> Result<Results, String> {
    let prepared = prepare(plan)?;
    Ok(run_prepared(plan, prepared, clock, log))
}

/// [`run`] with the rows already prepared (and so checked) by [`prepare`] for `plan`.
pub fn run_prepared(
    plan: &Plan,
    prepared: Prepared,
    clock: Option<Clock>,
    log: &mut dyn FnMut(&str),
) -> Results {
    let Prepared {
        rows,
        mut routines,
        notes,
    } = prepared;
    let clock = clock.unwrap_or_else(|| harness::calibrate(&plan.settings));
    let max_len = plan.lengths.iter().copied().max().unwrap_or(0);
    let msg = crate::pseudo_random_bytes(0x006d_6573_7361_6765, max_len);
    // Row-major cells: each round visits every row at every length, in table order.
    let cells: Vec<Cell> = (0..rows.len())
        .flat_map(|row| plan.lengths.iter().map(move |&len| Cell { row, len }))
        .collect();
    log(&format!(
        "measuring {} rows x {} lengths: {} rounds of {} batches of ~{} us each",
        rows.len(),
        plan.lengths.len(),
        plan.settings.rounds,
        plan.settings.batches,
        plan.settings.batch.as_micros()
    ));
    let start = Instant::now();
    let measured = harness::measure(
        &mut routines,
        &cells,
        &msg,
        &plan.settings,
        &clock,
        &mut |p| match p {
            Progress::WarmedUp => log(&format!(
                "warm-up done ({:.1} s)",
                start.elapsed().as_secs_f64()
            )),
            Progress::Round { done, rounds } => log(&format!(
                "round {done}/{rounds} done ({:.1} s)",
                start.elapsed().as_secs_f64()
            )),
        },
    );
    let elapsed = start.elapsed();
    let nl = plan.lengths.len();
    let mut results: Vec<RowResult> = rows
        .into_iter()
        .map(|info| RowResult {
            info,
            ticks: Vec::with_capacity(nl),
            rounds: Vec::with_capacity(nl),
        })
        .collect();
    for (cell, (median, rounds)) in cells.iter().zip(measured) {
        results[cell.row].ticks.push(median);
        results[cell.row].rounds.push(rounds);
    }
    Results {
        machine: Machine::detect(),
        clock,
        settings: plan.settings.clone(),
        quick: plan.settings == Settings::quick(),
        lengths: plan.lengths.clone(),
        rows: results,
        notes,
        elapsed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small_plan() -> Plan {
        Plan {
            algorithms: vec![Algorithm::POLYHASH1305, Algorithm::HASH2L128],
            lengths: vec![64, 1000],
            backends: None,
            modes: vec![Mode::OneShot, Mode::Key],
            peers: true,
            settings: Settings::quick(),
            default_row: false,
            piece: DEFAULT_PIECE,
            components: 1,
        }
    }

    #[test]
    fn prepare_builds_brwhash_and_peer_rows() {
        let p = prepare(&small_plan()).unwrap();
        assert_eq!(p.rows.len(), p.routines.len());
        assert!(p
            .rows
            .iter()
            .any(|r| !r.peer && r.algorithm == "polyHash1305" && r.mode == Mode::OneShot));
        assert!(p
            .rows
            .iter()
            .any(|r| !r.peer && r.algorithm == "Hash2L128" && r.mode == Mode::Key));
        #[cfg(feature = "peers")]
        {
            assert!(p.rows.iter().any(|r| r.peer && r.algorithm == "Poly1305"));
            assert!(p.rows.iter().any(|r| r.peer && r.algorithm == "GHASH"));
        }
    }

    #[test]
    fn bad_plans_are_errors() {
        let mut plan = small_plan();
        plan.lengths = vec![0];
        assert!(prepare(&plan).err().unwrap().contains("out of range"));
        let mut plan = small_plan();
        plan.algorithms.clear();
        assert!(prepare(&plan).is_err());
        let mut plan = small_plan();
        plan.modes.clear();
        assert!(prepare(&plan).is_err());
    }

    #[test]
    fn a_small_run_has_every_cell() {
        let mut plan = small_plan();
        plan.peers = false;
        plan.algorithms = vec![Algorithm::POLYHASH1271, Algorithm::BRWHASH1305];
        plan.backends = Some(vec![Backend::Portable]);
        plan.modes = vec![Mode::Key];
        let r = run(&plan, None, &mut |_| {}).unwrap();
        assert_eq!(r.rows.len(), 2);
        assert!(r.rows.iter().all(|row| row.info.backend == "portable"));
        for (i, row) in r.rows.iter().enumerate() {
            assert_eq!(row.ticks.len(), 2);
            for l in 0..2 {
                assert!(r.tsc_cpb(i, l) > 0.0 && r.gb_per_s(i, l) > 0.0);
            }
        }
    }
}
