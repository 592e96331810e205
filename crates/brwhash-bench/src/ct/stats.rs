//! Welch's t-test, online, and dudect's set of tests over one stream of measurements.

/// Running mean and variance of the two classes (Welford's algorithm).
#[derive(Clone, Debug, Default)]
pub struct Welch {
    n: [f64; 2],
    mean: [f64; 2],
    m2: [f64; 2],
}

impl Welch {
    /// Adds a measurement `x` of class `class` (0 or 1).
    #[inline]
    pub fn push(&mut self, x: f64, class: usize) {
        self.n[class] += 1.0;
        let delta = x - self.mean[class];
        self.mean[class] += delta / self.n[class];
        self.m2[class] += delta * (x - self.mean[class]);
    }

    /// Measurements of both classes.
    pub fn count(&self) -> u64 {
        (self.n[0] + self.n[1]) as u64
    }

    /// Measurements of the smaller class.
    pub fn min_class(&self) -> u64 {
        self.n[0].min(self.n[1]) as u64
    }

    /// The class's mean.
    pub fn mean(&self, class: usize) -> f64 {
        self.mean[class]
    }

    /// Welch's t: (mean0 - mean1) / sqrt(var0 / n0 + var1 / n1); 0 until both classes have
    /// two measurements, or when both variances are zero.
    pub fn t(&self) -> f64 {
        if self.n[0] < 2.0 || self.n[1] < 2.0 {
            return 0.0;
        }
        let v0 = self.m2[0] / (self.n[0] - 1.0);
        let v1 = self.m2[1] / (self.n[1] - 1.0);
        let den = (v0 / self.n[0] + v1 / self.n[1]).sqrt();
        if den > 0.0 {
            (self.mean[0] - self.mean[1]) / den
        } else {
            0.0
        }
    }
}

/// Cropping percentiles, as dudect: 1 - 0.5^(10 (i + 1) / 100) for i = 0..100, i.e. from
/// the fastest 6.7 % of the measurements up to nearly all of them.
pub const PERCENTILES: usize = 100;

/// A statistic counts only with at least this many measurements (dudect: "enough
/// measurements"); fewer give noisy t values.
pub const MIN_COUNT: u64 = 1000;

/// The largest |t| over dudect's tests, and which test gave it.
#[derive(Clone, Debug, PartialEq)]
pub struct Max {
    /// |t|.
    pub t: f64,
    /// `raw`, `crop<q>` (the fastest fraction q of the measurements) or `2nd-order`.
    pub test: String,
    /// Measurements in that test.
    pub count: u64,
    /// Mean of class 0 minus mean of class 1 in that test (ticks; squared ticks for the
    /// second-order tests): the size and sign of the difference.
    pub diff: f64,
}

/// dudect's tests on one stream of measurements: the raw first-order test, one per cropping
/// threshold (measurements below a percentile of the warm-up's), and second-order tests on
/// the squared distance from the centre.
///
/// One change from dudect: dudect centres each measurement on its own class's running mean.
/// On a noisy machine whose clock ticks in steps (this one's TSC reads move in steps of 26),
/// most measurements sit on one or two values, so any small difference of the class means
/// (a few interrupts that fell into one class) becomes a constant difference of the centred
/// squares with almost no variance: |t| of 15 to 30 with nothing to find, and not
/// reproducible. Here both classes are centred on the same value, the warm-up's median, which
/// makes the statistic a plain comparison of the second moments about a common point; it is
/// computed on all measurements (`2nd-order`) and on the fastest 90 % (`2nd-order crop90%`),
/// where the rare huge outliers (preemption) cannot dominate the squares.
#[derive(Clone, Debug)]
pub struct Dudect {
    thresholds: Vec<f64>,
    fractions: Vec<f64>,
    raw: Welch,
    cropped: Vec<Welch>,
    centre: f64,
    crop90: f64,
    second: Welch,
    second_cropped: Welch,
}

impl Dudect {
    /// The tests with thresholds taken from the sorted warm-up measurements `sorted`.
    pub fn new(sorted: &[u64]) -> Dudect {
        let fractions: Vec<f64> = (0..PERCENTILES)
            .map(|i| 1.0 - 0.5f64.powf(10.0 * (i + 1) as f64 / PERCENTILES as f64))
            .collect();
        let thresholds = fractions
            .iter()
            .map(|&q| {
                let k = ((q * sorted.len() as f64) as usize).min(sorted.len().saturating_sub(1));
                sorted.get(k).copied().unwrap_or(u64::MAX) as f64
            })
            .collect();
        let quantile = |q: f64| {
            let k = ((q * sorted.len() as f64) as usize).min(sorted.len().saturating_sub(1));
            sorted.get(k).copied().unwrap_or(0) as f64
        };
        Dudect {
            thresholds,
            fractions,
            raw: Welch::default(),
            cropped: vec![Welch::default(); PERCENTILES],
            centre: quantile(0.5),
            crop90: quantile(0.9),
            second: Welch::default(),
            second_cropped: Welch::default(),
        }
    }

    /// Adds one measurement.
    #[inline]
    pub fn push(&mut self, x: f64, class: usize) {
        let centred = x - self.centre;
        self.second.push(centred * centred, class);
        if x < self.crop90 {
            self.second_cropped.push(centred * centred, class);
        }
        self.raw.push(x, class);
        for (w, &th) in self.cropped.iter_mut().zip(&self.thresholds) {
            if x < th {
                w.push(x, class);
            }
        }
    }

    /// |t| of the raw first-order test.
    pub fn raw_t(&self) -> f64 {
        self.raw.t().abs()
    }

    /// The largest |t| among the tests with at least [`MIN_COUNT`] measurements and 100 of
    /// each class.
    pub fn max(&self) -> Max {
        let mut best = Max {
            t: self.raw.t().abs(),
            test: "raw".into(),
            count: self.raw.count(),
            diff: self.raw.mean(0) - self.raw.mean(1),
        };
        let tests = self
            .cropped
            .iter()
            .zip(&self.fractions)
            .map(|(w, q)| (w, format!("crop{:.0}%", q * 100.0)))
            .chain([
                (&self.second, "2nd-order".to_string()),
                (&self.second_cropped, "2nd-order crop90%".to_string()),
            ]);
        for (w, name) in tests {
            if w.count() < MIN_COUNT || w.min_class() < 100 {
                continue;
            }
            let t = w.t().abs();
            if t > best.t {
                best = Max {
                    t,
                    test: name,
                    count: w.count(),
                    diff: w.mean(0) - w.mean(1),
                };
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ct::rng::Rng;

    #[test]
    fn welch_matches_the_closed_form() {
        let mut w = Welch::default();
        let a = [1.0, 2.0, 3.0, 4.0];
        let b = [2.0, 4.0, 6.0];
        for &x in &a {
            w.push(x, 0);
        }
        for &x in &b {
            w.push(x, 1);
        }
        // mean 2.5, var 5/3; mean 4, var 4.
        let want = (2.5 - 4.0) / (5.0f64 / 3.0 / 4.0 + 4.0 / 3.0).sqrt();
        assert!((w.t() - want).abs() < 1e-12);
    }

    #[test]
    fn same_distribution_is_quiet_and_a_shift_is_not() {
        let mut rng = Rng::new(1);
        let noise = |rng: &mut Rng| 300 + (rng.next_u64() % 50) + (rng.next_u64() % 7) * 100;
        let warm: Vec<u64> = {
            let mut v: Vec<u64> = (0..5000).map(|_| noise(&mut rng)).collect();
            v.sort_unstable();
            v
        };
        let mut same = Dudect::new(&warm);
        let mut shifted = Dudect::new(&warm);
        for _ in 0..50_000 {
            let c = rng.bit();
            let x = noise(&mut rng) as f64;
            same.push(x, c);
            shifted.push(x + 5.0 * c as f64, c);
        }
        assert!(same.max().t < 6.0, "{:?}", same.max());
        assert!(shifted.max().t > 10.0, "{:?}", shifted.max());
    }
}
