//! polyHash (SPEC.md 5.3): x * Poly(x; pad1(M)). Poly1305 (5.2) is polyHash1305 keyed with
//! the clamped r, plus s (added in `crate::key`).

use super::Powers;
use crate::eval::Horner;
use crate::field::Field;

#[derive(Clone)]
pub(super) struct PolyHash<F: Field> {
    horner: Horner<F>,
}

impl<F: Field> Default for PolyHash<F> {
    fn default() -> Self {
        PolyHash {
            horner: Horner::default(),
        }
    }
}

impl<F: Field> PolyHash<F> {
    /// Absorb a pad1 block.
    #[inline]
    pub fn absorb(&mut self, p: &Powers<F>, m: F) {
        self.horner.push(&p.hx, m);
    }

    pub fn finish(self, p: &Powers<F>) -> F {
        p.x().mul(self.horner.finish(&p.hx))
    }
}
