//! Horner's rule with delayed reduction (\[P1\] section 5.1, IMPLEMENTATION-NOTES section 2).
//!
//! With powers base^1..base^g, a group of n <= g blocks is absorbed as
//! `acc * base^n + M_1 * base^(n-1) + ... + M_(n-1) * base + M_n`:
//! n unreduced products summed, then one reduction.

use super::G;
use crate::field::Field;
use zeroize::Zeroize;

/// Streaming evaluation of Poly(base; M_1, ..., M_l), optionally continuing from an
/// accumulator (Poly of the blocks seen before).
#[derive(Clone)]
pub struct Horner<F: Field> {
    acc: F,
    buf: [F; G],
    n: usize,
}

impl<F: Field> Default for Horner<F> {
    fn default() -> Self {
        Self::with_acc(F::ZERO)
    }
}

/// Wipes the accumulator and the pending blocks: the state of `Horner::default()`.
impl<F: Field> Zeroize for Horner<F> {
    #[inline(always)]
    fn zeroize(&mut self) {
        self.acc.zeroize();
        for m in &mut self.buf {
            m.zeroize();
        }
        self.n = 0;
    }
}

impl<F: Field> Horner<F> {
    /// Whether the accumulator and the pending blocks are all `zero`, none pending.
    #[cfg(test)]
    pub fn is_wiped(&self, zero: impl Fn(F) -> bool) -> bool {
        zero(self.acc) && self.buf.iter().all(|&m| zero(m)) && self.n == 0
    }

    /// Continue a Horner evaluation whose value so far is `acc`.
    pub fn with_acc(acc: F) -> Self {
        Horner {
            acc,
            buf: [F::ZERO; G],
            n: 0,
        }
    }

    /// Absorb one block. `powers[j - 1]` = base^j for j = 1..=g (g = `powers.len()` <= G).
    /// (Always inlined, like everything SIMD backends call: see `backend::x86`.)
    #[inline(always)]
    pub fn push(&mut self, powers: &[F], m: F) {
        self.buf[self.n] = m;
        self.n += 1;
        if self.n == powers.len() {
            self.flush(powers);
        }
    }

    #[inline(always)]
    fn flush(&mut self, powers: &[F]) {
        let n = self.n;
        if n == 0 {
            return;
        }
        let mut s = self.acc.mul_wide(powers[n - 1]);
        for j in 0..n - 1 {
            s = F::wide_add(s, self.buf[j].mul_wide(powers[n - 2 - j]));
        }
        s = F::wide_add(s, self.buf[n - 1].widen());
        self.acc = F::reduce(s);
        self.n = 0;
    }

    /// Blocks pushed since the last reduction (0 at a group boundary).
    #[inline(always)]
    pub fn pending(&self) -> usize {
        self.n
    }

    /// Poly(base; all blocks pushed), continuing from the initial accumulator.
    #[inline(always)]
    pub fn finish(mut self, powers: &[F]) -> F {
        self.value(powers)
    }

    /// [`finish`](Self::finish) in place: absorbs the pending blocks and returns the value.
    #[inline(always)]
    pub fn value(&mut self, powers: &[F]) -> F {
        self.flush(powers);
        self.acc
    }
}

/// Poly(base; ms) with one reduction per block; the definition, for tests.
pub fn poly_plain<F: Field>(base: F, ms: &[F]) -> F {
    ms.iter().fold(F::ZERO, |acc, &m| acc.mul(base).add(m))
}

/// Poly(base; ms) for at most 16 values (decBRWHash's stream values) by Estrin's scheme:
/// Poly(y; v_0, .., v_(n-1)) = Poly(y^2; v_0 y + v_1, v_2 y + v_3, ..) (a zero in front when
/// n is odd). The same n - 1 products as Horner plus lg n squarings, but independent
/// products at each level: the dependency chain is lg n products long instead of n.
/// `squares[k]` = base^(2^k) for k up to lg n (precomputed, e.g. a slice of a key's
/// squarings), so the levels need no squaring.
#[inline(always)]
pub fn poly_tree<F: Field>(squares: &[F], ms: &[F]) -> F {
    // The widths of c-decBRWHash as fixed-size arrays: a 16-entry array filled at run time
    // was zeroed by a `memset` call and read back through memory (store-forwarding stalls
    // after the wide stores): about a third of a short message's time.
    match ms.len() {
        4 => return poly_tree_pow2::<F, 4>(squares, ms),
        8 => return poly_tree_pow2::<F, 8>(squares, ms),
        _ => {}
    }
    let mut v = [F::ZERO; 16];
    let mut n = ms.len();
    debug_assert!(n <= 16);
    v[..n].copy_from_slice(ms);
    let mut level = 0;
    while n > 1 {
        let y = squares[level];
        let odd = n % 2;
        let pairs = n.div_ceil(2);
        for k in 0..pairs {
            // Pair k is (v[2k - odd], v[2k + 1 - odd]), with v[-1] = 0.
            let hi = if k == 0 && odd == 1 {
                F::ZERO
            } else {
                v[2 * k - odd]
            };
            v[k] = F::reduce(F::wide_add(hi.mul_wide(y), v[2 * k + 1 - odd].widen()));
        }
        n = pairs;
        level += 1;
    }
    if ms.is_empty() {
        F::ZERO
    } else {
        v[0]
    }
}

/// The tree of 4 values (a function, not a closure: closures are not always inlined, and
/// SIMD backends need this inside their `#[target_feature]` entry points).
#[inline(always)]
fn four<F: Field>(v: [F; 4], y0: F, y1: F) -> F {
    node(node(v[0], v[1], y0), node(v[2], v[3], y0), y1)
}

/// One node of Estrin's tree: hi * y + lo, reduced.
#[inline(always)]
fn node<F: Field>(hi: F, lo: F, y: F) -> F {
    F::reduce(F::wide_add(hi.mul_wide(y), lo.widen()))
}

/// [`poly_tree`] of exactly N = 4 or 8 values: straight-line code in registers, written
/// out (a loop over the levels stayed a loop, its values on the stack).
#[inline(always)]
fn poly_tree_pow2<F: Field, const N: usize>(squares: &[F], v: &[F]) -> F {
    let (y0, y1) = (squares[0], squares[1]);
    match N {
        4 => four([v[0], v[1], v[2], v[3]], y0, y1),
        _ => four(
            [
                node(v[0], v[1], y0),
                node(v[2], v[3], y0),
                node(v[4], v[5], y0),
                node(v[6], v[7], y0),
            ],
            y1,
            squares[2],
        ),
    }
}
