//! The timing method.
//!
//! - Clock: the time-stamp counter (`rdtsc`) on x86-64; nanoseconds from [`Instant`]
//!   elsewhere. [`calibrate`] measures its rate against [`Instant`] and estimates how many
//!   core cycles one tick is, by timing a long chain of dependent one-cycle integer
//!   operations: the TSC runs at a fixed rate, the core at whatever clock it boosts to.
//! - Per cell (one routine at one message length): a warm-up, during which the number of
//!   calls per batch is set so that a batch takes about [`Settings::batch`]; then, in every
//!   round, [`Settings::batches`] batches, whose median ticks per call is the round's value.
//! - Rounds are interleaved: each round visits every cell once, in order, so that a slow
//!   phase of the machine (another process, a clock change) spreads over all rows instead of
//!   hitting one. The result of a cell is the median of its rounds.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// Where ticks come from: `"rdtsc"` or `"Instant (ns)"`.
#[cfg(target_arch = "x86_64")]
pub const TICK_SOURCE: &str = "rdtsc";
/// Where ticks come from: `"rdtsc"` or `"Instant (ns)"`.
#[cfg(not(target_arch = "x86_64"))]
pub const TICK_SOURCE: &str = "Instant (ns)";

/// The time-stamp counter.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
#[inline(always)]
pub fn ticks() -> u64 {
    // SAFETY: RDTSC is part of every x86-64 CPU; it reads a counter, touches no memory and
    // has no preconditions.
    unsafe { core::arch::x86_64::_rdtsc() }
}

/// Nanoseconds since the first call (no time-stamp counter on this target).
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub fn ticks() -> u64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

/// How long and how often to measure.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Target duration of one batch (calls back to back between two clock reads).
    pub batch: Duration,
    /// Batches per cell and round; the round's value is their median.
    pub batches: usize,
    /// Interleaved rounds; the result is the median of the rounds' values.
    pub rounds: usize,
    /// Warm-up per cell before the first round (also sets the batch size).
    pub warmup: Duration,
    /// Duration of each of the clock-ratio samples of [`calibrate`].
    pub clock_sample: Duration,
}

impl Settings {
    /// The full method: batches of about 0.2 ms, median of 31 batches, 9 rounds.
    pub fn full() -> Settings {
        Settings {
            batch: Duration::from_micros(200),
            batches: 31,
            rounds: 9,
            warmup: Duration::from_millis(4),
            clock_sample: Duration::from_millis(20),
        }
    }

    /// A smoke test: batches of about 0.1 ms, 7 batches, 3 rounds; the numbers are rough.
    pub fn quick() -> Settings {
        Settings {
            batch: Duration::from_micros(100),
            batches: 7,
            rounds: 3,
            warmup: Duration::from_millis(2),
            clock_sample: Duration::from_millis(3),
        }
    }
}

/// The clock: ticks per second, and the estimated core cycles per tick.
#[derive(Clone, Debug, PartialEq)]
pub struct Clock {
    /// [`TICK_SOURCE`].
    pub source: &'static str,
    /// Ticks per second (the TSC frequency), measured against [`Instant`].
    pub tick_hz: f64,
    /// Core cycles per tick while busy (the TSC-to-core-clock ratio), estimated from a chain
    /// of dependent one-cycle integer operations.
    pub core_per_tick: f64,
}

impl Clock {
    /// The estimated core clock while busy, in Hz.
    pub fn core_hz(&self) -> f64 {
        self.tick_hz * self.core_per_tick
    }

    /// `TSC 2.596 GHz; core ~3.97 GHz while busy = 1.529 x TSC (dependent-add chain)`.
    pub fn describe(&self) -> String {
        format!(
            "{} {:.3} GHz; core ~{:.2} GHz while busy = {:.3} x {} (dependent-add chain \
             estimate)",
            if self.source == "rdtsc" {
                "TSC"
            } else {
                "ticks"
            },
            self.tick_hz / 1e9,
            self.core_hz() / 1e9,
            self.core_per_tick,
            if self.source == "rdtsc" {
                "TSC"
            } else {
                "ticks"
            },
        )
    }
}

/// One-cycle operations per iteration of [`dependent_chain`].
const CHAIN_OPS: u64 = 16;

/// `iters` x 16 dependent integer operations (xor and add with register operands, one core
/// cycle each on every x86-64 and AArch64 core): a chain no core can shorten.
#[inline(never)]
fn dependent_chain(iters: u64, a: u64, b: u64) -> u64 {
    let mut x = a;
    for _ in 0..iters {
        x = (x ^ a).wrapping_add(b);
        x = (x ^ a).wrapping_add(b);
        x = (x ^ a).wrapping_add(b);
        x = (x ^ a).wrapping_add(b);
        x = (x ^ a).wrapping_add(b);
        x = (x ^ a).wrapping_add(b);
        x = (x ^ a).wrapping_add(b);
        x = (x ^ a).wrapping_add(b);
    }
    x
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n == 0 {
        f64::NAN
    } else if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

/// Measures the tick rate and the TSC-to-core-clock ratio: after a warm-up that lets the
/// core reach its busy clock, 7 samples (3 in quick settings) of the dependent chain, each
/// about `settings.clock_sample` long; medians of both.
pub fn calibrate(settings: &Settings) -> Clock {
    let a = black_box(0x9e37_79b9_7f4a_7c15u64);
    let b = black_box(0x2545_f491_4f6c_dd1du64);
    // Size the chain to the sample duration.
    let mut iters = 1u64 << 12;
    loop {
        let t = Instant::now();
        black_box(dependent_chain(black_box(iters), a, b));
        let e = t.elapsed();
        if e >= settings.clock_sample / 4 || iters >= 1 << 40 {
            let scale = settings.clock_sample.as_secs_f64() / e.as_secs_f64().max(1e-9);
            iters = ((iters as f64 * scale) as u64).max(1 << 12);
            break;
        }
        iters *= 4;
    }
    // Warm-up: a few samples' worth of busy work.
    black_box(dependent_chain(black_box(iters * 4), a, b));
    let samples = if settings.rounds >= 5 { 7 } else { 3 };
    let mut hz = Vec::with_capacity(samples);
    let mut ratio = Vec::with_capacity(samples);
    for _ in 0..samples {
        let t0 = Instant::now();
        let k0 = ticks();
        black_box(dependent_chain(black_box(iters), a, b));
        let k1 = ticks();
        let secs = t0.elapsed().as_secs_f64();
        let dk = k1.saturating_sub(k0).max(1) as f64;
        hz.push(dk / secs.max(1e-9));
        ratio.push((iters * CHAIN_OPS) as f64 / dk);
    }
    Clock {
        source: TICK_SOURCE,
        tick_hz: median(&mut hz),
        core_per_tick: median(&mut ratio),
    }
}

/// A routine to time: hashes the message it is given and discards the result (through
/// [`black_box`], so that the work is not optimised away).
pub type Routine<'a> = Box<dyn FnMut(&[u8]) + 'a>;

/// One measurement: routine `row` on the first `len` bytes of the message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    /// Index into the routines.
    pub row: usize,
    /// Message length in bytes.
    pub len: usize,
}

/// Ticks spent by `calls` back-to-back calls of `f` on `msg`.
#[inline(never)]
fn batch(f: &mut dyn FnMut(&[u8]), msg: &[u8], calls: u64) -> u64 {
    let start = ticks();
    for _ in 0..calls {
        f(black_box(msg));
    }
    ticks().wrapping_sub(start)
}

/// What [`measure`] reports while it runs.
#[derive(Clone, Copy, Debug)]
pub enum Progress {
    /// Warm-up and batch sizing of all cells is done.
    WarmedUp,
    /// Round `done` of `rounds` is done.
    Round {
        /// Rounds done so far.
        done: usize,
        /// Rounds in all.
        rounds: usize,
    },
}

/// Measures every cell: warm-up and batch sizing, then `settings.rounds` interleaved rounds.
/// Returns, per cell, the median over rounds of the median ticks per call of its batches,
/// and every round's value (for the spread). `msg` must be at least as long as every cell's
/// `len`.
pub fn measure(
    routines: &mut [Routine<'_>],
    cells: &[Cell],
    msg: &[u8],
    settings: &Settings,
    clock: &Clock,
    progress: &mut dyn FnMut(Progress),
) -> Vec<(f64, Vec<f64>)> {
    let target = (settings.batch.as_secs_f64() * clock.tick_hz).max(1.0) as u64;
    let warmup = (settings.warmup.as_secs_f64() * clock.tick_hz) as u64;
    // Warm-up and batch sizing.
    let calls: Vec<u64> = cells
        .iter()
        .map(|c| {
            let f = &mut routines[c.row];
            let m = &msg[..c.len];
            let mut n = 1u64;
            let mut spent = 0u64;
            loop {
                let t = batch(f, m, n).max(1);
                spent += t;
                if t >= target {
                    break;
                }
                // Aim a little past the target; at most 16 times more calls per step.
                let want = (n as f64 * 1.1 * target as f64 / t as f64).ceil() as u64;
                n = want.clamp(n + 1, n * 16);
            }
            while spent < warmup {
                spent += batch(f, m, n).max(1);
            }
            n
        })
        .collect();
    progress(Progress::WarmedUp);
    let mut per_round: Vec<Vec<f64>> = vec![Vec::with_capacity(settings.rounds); cells.len()];
    let mut samples = vec![0f64; settings.batches.max(1)];
    for round in 0..settings.rounds.max(1) {
        for (i, c) in cells.iter().enumerate() {
            let f = &mut routines[c.row];
            let m = &msg[..c.len];
            for s in samples.iter_mut() {
                *s = batch(f, m, calls[i]) as f64 / calls[i] as f64;
            }
            per_round[i].push(median(&mut samples));
        }
        progress(Progress::Round {
            done: round + 1,
            rounds: settings.rounds.max(1),
        });
    }
    per_round
        .into_iter()
        .map(|rounds| {
            let mut sorted = rounds.clone();
            (median(&mut sorted), rounds)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), 2.5);
        assert!(median(&mut []).is_nan());
    }

    #[test]
    fn the_chain_depends_on_its_inputs() {
        let (a, b) = (0x9e37_79b9_7f4a_7c15, 0x2545_f491_4f6c_dd1d);
        assert_ne!(dependent_chain(3, a, b), dependent_chain(3, a, b + 1));
        assert_ne!(dependent_chain(3, a, b), dependent_chain(4, a, b));
    }

    #[test]
    fn clock_is_plausible() {
        let clock = calibrate(&Settings::quick());
        assert!(clock.tick_hz > 1e7 && clock.tick_hz < 1e11, "{clock:?}");
        assert!(clock.core_per_tick > 0.0, "{clock:?}");
    }

    #[test]
    fn measure_returns_one_value_per_cell() {
        let settings = Settings::quick();
        let clock = calibrate(&settings);
        let mut routines: Vec<Routine<'_>> = vec![
            Box::new(|m: &[u8]| {
                black_box(m.iter().map(|&b| b as u64).sum::<u64>());
            }),
            Box::new(|m: &[u8]| {
                black_box(m.len());
            }),
        ];
        let cells = [
            Cell { row: 0, len: 64 },
            Cell { row: 1, len: 64 },
            Cell { row: 0, len: 1024 },
        ];
        let msg = vec![1u8; 1024];
        let mut rounds_seen = 0;
        let out = measure(&mut routines, &cells, &msg, &settings, &clock, &mut |p| {
            if let Progress::Round { .. } = p {
                rounds_seen += 1;
            }
        });
        assert_eq!(out.len(), 3);
        assert_eq!(rounds_seen, settings.rounds);
        for (median, rounds) in &out {
            assert!(median.is_finite() && *median > 0.0);
            assert_eq!(rounds.len(), settings.rounds);
        }
    }
}
