//! d-2LHash (SPEC.md 5.6) and d-Hash (5.7).
//!
//! d-2LHash: BRW over super-blocks of delta = 2^d - 1 blocks (straight-line code, no stack),
//! Horner over the super-block values in gamma = x^(2^d), then
//! x * Poly(x; that value, the blocks of the final partial super-block, L).

use super::polyhash::PolyHash;
use super::{horner_tail, Powers};
use crate::eval::{brw_short, Horner};
use crate::field::{Field, PrimeField};

#[derive(Clone)]
pub(super) struct TwoL<F: Field> {
    sb: [F; 31],
    n: usize,
    delta: usize,
    /// Horner in gamma over the complete super-blocks' BRW values.
    outer: Horner<F>,
}

impl<F: Field> TwoL<F> {
    pub fn new(d: u8) -> Self {
        TwoL {
            sb: [F::ZERO; 31],
            n: 0,
            delta: (1 << d) - 1,
            outer: Horner::default(),
        }
    }

    #[inline]
    pub fn absorb(&mut self, p: &Powers<F>, m: F) {
        self.sb[self.n] = m;
        self.n += 1;
        if self.n == self.delta {
            self.outer
                .push(p.hg(), brw_short(&p.sq, &self.sb[..self.n]));
            self.n = 0;
        }
    }

    pub fn finish(self, p: &Powers<F>, length: F) -> F {
        horner_tail(p, self.outer.finish(p.hg()), &self.sb[..self.n], length)
    }
}

/// d-Hash: polyHash for fewer than 2^d blocks, d-2LHash otherwise. The first 2^d - 1 blocks
/// are held as bytes (at most 496) until the 2^d-th block decides the branch; their padding
/// differs between the branches.
#[derive(Clone)]
pub(super) struct DHash<F: Field> {
    d: u8,
    head: Vec<u8>,
    long: Option<TwoL<F>>,
}

impl<F: PrimeField> DHash<F> {
    pub fn new(d: u8) -> Self {
        DHash {
            d,
            head: Vec::new(),
            long: None,
        }
    }

    /// Absorb one block as bytes (full, or the short last one).
    #[inline]
    pub fn absorb(&mut self, p: &Powers<F>, bytes: &[u8]) {
        if let Some(long) = &mut self.long {
            return long.absorb(p, F::from_block(bytes, false));
        }
        let threshold = ((1usize << self.d) - 1) * F::BLOCK;
        if self.head.len() < threshold {
            return self.head.extend_from_slice(bytes);
        }
        // This is block 2^d: the message is long, so replay the head with pad2.
        let mut long = TwoL::new(self.d);
        for b in self.head.chunks(F::BLOCK) {
            long.absorb(p, F::from_block(b, false));
        }
        long.absorb(p, F::from_block(bytes, false));
        zeroize::Zeroize::zeroize(&mut self.head);
        self.long = Some(long);
    }

    pub fn finish(mut self, p: &Powers<F>, length: F) -> F {
        match self.long.take() {
            Some(long) => long.finish(p, length),
            None => {
                let mut short = PolyHash::default();
                for b in self.head.chunks(F::BLOCK) {
                    short.absorb(p, F::from_block(b, true));
                }
                short.finish(p)
            }
        }
    }
}

impl<F: Field> Drop for DHash<F> {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.head);
    }
}
