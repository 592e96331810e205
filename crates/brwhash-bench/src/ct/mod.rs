//! A dudect-style statistical timing harness (Reparaz, Balasch, Verbauwhede, "Dude, is my
//! code constant time?", DATE 2017), driven by the `brwhash-ct` binary.
//!
//! - [`clock`]: one time stamp, `rdtsc` between two `lfence`s on x86-64, [`std::time::Instant`]
//!   nanoseconds elsewhere.
//! - [`rng`]: the class choices and the random inputs (xoshiro256**; not for keys that protect
//!   anything).
//! - [`stats`]: Welch's t-test, online (Welford), on the raw measurements, on measurements
//!   cropped at 100 percentiles, and second-order (centred-square) tests, as dudect does
//!   (but centred on a point common to both classes: see [`stats::Dudect`]).
//! - [`run`]: the measurement loop: inputs of both classes are prepared in advance, the
//!   classes are interleaved in random order, one time stamp pair per measurement (of `batch`
//!   back-to-back calls on the same input).
//!
//! The verdict uses |t| > [`LEAK_T`] (10): "definitely not constant time" in dudect's words.
//! dudect's lower threshold [`MAYBE_T`] (4.5) is reported as "maybe" and does not fail a run:
//! a shared, noisy machine running hundreds of tests with about a hundred statistics each
//! reaches 4.5 by chance now and then.

pub mod clock;
pub mod rng;
pub mod stats;

use std::hint::black_box;

use rng::Rng;
use stats::{Dudect, Max};

/// |t| above which a test is a leak (dudect: "definitely not constant time").
pub const LEAK_T: f64 = 10.0;
/// |t| above which dudect says "probably not constant time"; reported, never fatal here.
pub const MAYBE_T: f64 = 4.5;

/// Which of the two classes an input belongs to.
pub type Class = usize;

/// Writes an input of class 0 (the fixed one) or 1 (the random one) into the slice.
pub type Fill = Box<dyn Fn(Class, &mut Rng, &mut [u8])>;

/// The call to time; returns a byte of its result (kept alive against the optimiser).
pub type Call = Box<dyn Fn(&[u8]) -> u8>;

/// What a case is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A test of brwhash: a leak fails the run.
    Test,
    /// A deliberately leaking function: the run fails unless it is detected.
    Control,
    /// A measurement of the machine itself (e.g. whether a multiplication's time depends on
    /// its operands): reported, never fatal.
    Probe,
}

impl Role {
    /// `test`, `control` or `probe`.
    pub fn name(self) -> &'static str {
        match self {
            Role::Test => "test",
            Role::Control => "control",
            Role::Probe => "probe",
        }
    }
}

/// One timing test: how to make an input of either class, and the call to time.
pub struct Case {
    /// What is tested, e.g. `key zero/rand 64B`.
    pub test: String,
    /// The algorithm's name (empty for a control without one).
    pub alg: String,
    /// The backend's name.
    pub backend: String,
    /// A test, a control or a probe.
    pub role: Role,
    /// Bytes of one input.
    pub input_len: usize,
    /// Writes an input of class 0 (the fixed one) or 1 (the random one) into the slice.
    pub fill: Fill,
    /// The call to time; returns a byte of its result (kept alive against the optimiser).
    pub call: Call,
}

/// How many measurements and how.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Measurements counted in the statistics (both classes together).
    pub measurements: usize,
    /// Calls per measurement; `None`: chosen so that one measurement is at least
    /// [`Settings::min_ticks`] ticks.
    pub batch: Option<usize>,
    /// The shortest measurement the automatic batch aims for (ticks).
    pub min_ticks: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            measurements: 200_000,
            batch: None,
            min_ticks: 300,
        }
    }
}

/// The result of one test.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Measurements counted (after the warm-up).
    pub measurements: usize,
    /// Calls per measurement.
    pub batch: usize,
    /// Median ticks of one measurement in the warm-up.
    pub median_ticks: u64,
    /// The largest |t| and where it came from.
    pub max: Max,
    /// |t| of the uncropped first-order test.
    pub t_raw: f64,
}

/// Inputs prepared per round: a few hundred KiB at most, so they stay in L2 or near it.
fn chunk_len(input_len: usize) -> usize {
    (256 * 1024 / input_len.max(1)).clamp(64, 4096)
}

/// One round: `classes.len()` measurements of freshly made inputs in random class order.
fn round(
    case: &Case,
    rng: &mut Rng,
    batch: usize,
    inputs: &mut [u8],
    classes: &mut [Class],
    times: &mut [u64],
) {
    let len = case.input_len;
    for (c, input) in classes.iter_mut().zip(inputs.chunks_exact_mut(len.max(1))) {
        *c = rng.bit();
        (case.fill)(*c, rng, &mut input[..len]);
    }
    let mut sink = 0u8;
    for (i, t) in times.iter_mut().enumerate() {
        let input = &inputs[i * len..(i + 1) * len];
        let t0 = clock::stamp();
        for _ in 0..batch {
            sink ^= (case.call)(black_box(input));
        }
        let t1 = clock::stamp();
        *t = t1.wrapping_sub(t0);
    }
    black_box(sink);
}

/// Runs one test.
pub fn run(case: &Case, settings: &Settings, rng: &mut Rng) -> Outcome {
    let len = case.input_len;
    let chunk = chunk_len(len);
    let mut inputs = vec![0u8; chunk * len.max(1)];
    let mut classes = vec![0; chunk];
    let mut times = vec![0u64; chunk];

    // The batch: time single calls on random-class inputs, and repeat the call enough that a
    // measurement is well above the clock's resolution and the fences' cost.
    let batch = settings.batch.unwrap_or_else(|| {
        let probe = 101.min(chunk);
        round(
            case,
            rng,
            1,
            &mut inputs,
            &mut classes[..probe],
            &mut times[..probe],
        );
        let mut t = times[..probe].to_vec();
        t.sort_unstable();
        let median = t[probe / 2].max(1);
        (settings.min_ticks.div_ceil(median) as usize).clamp(1, 64)
    });

    // Warm-up (caches, branch predictors, clock ramp-up): its measurements set the
    // cropping percentiles, as dudect's first batch does, and are not counted.
    let warm = (settings.measurements / 10).clamp(chunk.min(1000), 10_000);
    let mut warm_times = Vec::with_capacity(warm + chunk);
    while warm_times.len() < warm {
        round(case, rng, batch, &mut inputs, &mut classes, &mut times);
        warm_times.extend_from_slice(&times);
    }
    let mut sorted = warm_times.clone();
    sorted.sort_unstable();
    let median_ticks = sorted[sorted.len() / 2];
    let mut dudect = Dudect::new(&sorted);

    let mut done = 0;
    while done < settings.measurements {
        let n = chunk.min(settings.measurements - done);
        round(
            case,
            rng,
            batch,
            &mut inputs[..n * len.max(1)],
            &mut classes[..n],
            &mut times[..n],
        );
        for (&t, &c) in times[..n].iter().zip(&classes[..n]) {
            dudect.push(t as f64, c);
        }
        done += n;
    }
    Outcome {
        measurements: done,
        batch,
        median_ticks,
        max: dudect.max(),
        t_raw: dudect.raw_t(),
    }
}
