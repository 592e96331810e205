//! d-2LHash (SPEC.md 5.6) and d-Hash (5.7).
//!
//! d-2LHash: BRW over super-blocks of delta = 2^d - 1 blocks (straight-line code, no stack),
//! Horner over the super-block values in gamma = x^(2^d), then
//! x * Poly(x; that value, the blocks of the final partial super-block, L).

use super::polyhash::PolyHash;
use super::{extend_wiping, horner_tail, wipe_vec, Powers};
use crate::eval::{brw_short, Horner};
use crate::field::{Field, PrimeField};
use zeroize::Zeroize;

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

    /// The value (the state is used up: wipe it after).
    pub fn finish(&mut self, p: &Powers<F>, length: F) -> F {
        horner_tail(p, self.outer.value(p.hg()), &self.sb[..self.n], length)
    }
}

/// Wipes the super-block's blocks and the Horner layer: the state of `TwoL::new(d)`.
impl<F: Field> Zeroize for TwoL<F> {
    fn zeroize(&mut self) {
        self.sb.zeroize();
        self.n = 0;
        self.outer.zeroize();
    }
}

/// d-Hash: polyHash for fewer than 2^d blocks, d-2LHash otherwise. The first 2^d - 1 blocks
/// are held as bytes (at most 496) until the 2^d-th block decides the branch; their padding
/// differs between the branches.
#[derive(Clone)]
pub(super) struct DHash<F: Field> {
    d: u8,
    /// The head's bytes (room for all of them is reserved at once: no reallocation leaves a
    /// copy behind); wiped once replayed, and with the state.
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
            if self.head.capacity() == 0 {
                self.head.reserve_exact(threshold);
            }
            return extend_wiping(&mut self.head, bytes);
        }
        // This is block 2^d: the message is long, so replay the head with pad2 (into the
        // state in place: a local would leave a copy of the values on the stack).
        let long = self.long.insert(TwoL::new(self.d));
        for b in self.head.chunks(F::BLOCK) {
            long.absorb(p, F::from_block(b, false));
        }
        long.absorb(p, F::from_block(bytes, false));
        wipe_vec(&mut self.head);
    }

    /// The value (the state is used up: wipe it after).
    pub fn finish(&mut self, p: &Powers<F>, length: F) -> F {
        match &mut self.long {
            Some(long) => long.finish(p, length),
            None => {
                let mut short = PolyHash::default();
                for b in self.head.chunks(F::BLOCK) {
                    short.absorb(p, F::from_block(b, true));
                }
                let v = short.finish(p);
                short.zeroize();
                v
            }
        }
    }
}

#[cfg(test)]
impl<F: Field> TwoL<F> {
    pub fn is_wiped(&self, zero: impl Fn(F) -> bool + Copy) -> bool {
        self.sb.iter().all(|&m| zero(m)) && self.n == 0 && self.outer.is_wiped(zero)
    }
}

#[cfg(test)]
impl<F: Field> DHash<F> {
    pub fn is_wiped(&self, _zero: impl Fn(F) -> bool) -> bool {
        self.head.is_empty() && self.long.is_none()
    }
}

/// Wipes the held head and the long branch: the state of `DHash::new(d)`.
impl<F: Field> Zeroize for DHash<F> {
    fn zeroize(&mut self) {
        wipe_vec(&mut self.head);
        if let Some(long) = &mut self.long {
            long.zeroize();
        }
        self.long = None;
    }
}
