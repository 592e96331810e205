//! t-BRWHash (SPEC.md 5.5): BRW over the longest prefix of a multiple of 2^t blocks, then
//! x * Poly(x; BRW value, the l mod 2^t remaining blocks, L). (BRWHash, 5.4, is the stack
//! BRW evaluator plus two multiplications, in `construct::PrimeHasher::finish`.)

use super::{horner_tail, Powers, CHUNK};
use crate::eval::Brw;
use crate::field::Field;
use zeroize::Zeroize;

#[derive(Clone)]
pub(super) struct TBrw<F: Field> {
    /// Blocks held back: they go to BRW only once 2^t of them are known to be in the prefix.
    pending: [F; 32],
    n: usize,
    t: u8,
    brw: Brw<F, CHUNK>,
}

impl<F: Field> TBrw<F> {
    pub fn new(t: u8) -> Self {
        TBrw {
            pending: [F::ZERO; 32],
            n: 0,
            t,
            brw: Brw::default(),
        }
    }

    #[inline]
    pub fn absorb(&mut self, p: &Powers<F>, m: F) {
        self.pending[self.n] = m;
        self.n += 1;
        if self.n == 1 << self.t {
            for &b in &self.pending[..self.n] {
                self.brw.push(&p.sq, b);
            }
            self.n = 0;
        }
    }

    pub fn finish(&self, p: &Powers<F>, length: F) -> F {
        horner_tail(p, self.brw.finish(&p.sq), &self.pending[..self.n], length)
    }
}

#[cfg(test)]
impl<F: Field> TBrw<F> {
    pub fn is_wiped(&self, zero: impl Fn(F) -> bool + Copy) -> bool {
        self.pending.iter().all(|&m| zero(m)) && self.n == 0 && self.brw.is_wiped(zero)
    }
}

/// Wipes the held blocks and the BRW state: the state of `TBrw::new(t)`.
impl<F: Field> Zeroize for TBrw<F> {
    fn zeroize(&mut self) {
        self.pending.zeroize();
        self.n = 0;
        self.brw.zeroize();
    }
}
