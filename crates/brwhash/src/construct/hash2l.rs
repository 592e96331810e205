//! Hash2L (SPEC.md 5.9) and vecHash2L (5.10) over GF(2^128) and GF(2^256).
//!
//! Blocks (the last one zero-padded) form super-blocks of eta = 31 blocks; each super-block
//! (the last may be shorter) is BRW-hashed by straight-line code; the super-block values are
//! combined by Horner in x^32. A component ends with acc = x * acc + L_i; the output is x * acc.
//! vecHash2L's component count k enters at finalisation as x * (k * x^(8B-8)), so components
//! can be closed without knowing which one is last (IMPLEMENTATION-NOTES 9).

use super::{Blocks, Powers};
use crate::eval::{brw_short, Horner};
use crate::field::BinaryField;

/// Super-block size eta.
const ETA: usize = 31;

#[derive(Clone)]
pub(crate) struct BinHasher<F: BinaryField> {
    blocks: Blocks,
    sb: [F; ETA],
    n: usize,
    /// Horner in x^32 over super-block values, continuing across components.
    horner: Horner<F>,
    /// Bytes of the current component.
    component_bytes: u64,
    /// Components closed so far.
    closed: usize,
}

impl<F: BinaryField> Default for BinHasher<F> {
    fn default() -> Self {
        BinHasher {
            blocks: Blocks::default(),
            sb: [F::ZERO; ETA],
            n: 0,
            horner: Horner::default(),
            component_bytes: 0,
            closed: 0,
        }
    }
}

impl<F: BinaryField> BinHasher<F> {
    /// Bytes of the current component so far.
    pub fn component_bytes(&self) -> u64 {
        self.component_bytes
    }

    /// Pretend `n` bytes of the current component were absorbed (limit tests).
    #[cfg(test)]
    pub fn set_bytes_for_test(&mut self, n: u64) {
        self.component_bytes = n;
    }

    /// Number of components, counting the open one.
    pub fn components(&self) -> usize {
        self.closed + 1
    }

    /// (A loop, not `Blocks::feed` with a closure: SIMD backends inline this whole.)
    #[inline(always)]
    pub fn update(&mut self, p: &Powers<F>, mut data: &[u8]) {
        self.component_bytes += data.len() as u64;
        let b = F::BYTES;
        if self.blocks.len > 0 {
            let take = (b - self.blocks.len).min(data.len());
            let at = self.blocks.len;
            self.blocks.buf[at..at + take].copy_from_slice(&data[..take]);
            self.blocks.len += take;
            data = &data[take..];
            if self.blocks.len < b {
                return;
            }
            let m = F::from_bytes(&self.blocks.buf[..b]);
            self.absorb(p, m);
            self.blocks.len = 0;
        }
        let mut full = data.chunks_exact(b);
        for block in &mut full {
            self.absorb(p, F::from_bytes(block));
        }
        let rest = full.remainder();
        self.blocks.buf[..rest.len()].copy_from_slice(rest);
        self.blocks.len = rest.len();
    }

    /// One block into the current super-block; a full super-block goes to the Horner layer.
    #[inline(always)]
    fn absorb(&mut self, p: &Powers<F>, m: F) {
        self.sb[self.n] = m;
        self.n += 1;
        if self.n == ETA {
            self.horner.push(&p.hg, brw_short(&p.sq, &self.sb));
            self.n = 0;
        }
    }

    /// Close the current component: its last blocks, then acc = x * acc + L.
    #[inline(always)]
    fn close(&mut self, p: &Powers<F>) -> F {
        // The empty component is one all-zero block; a short last block is zero-padded.
        if self.blocks.len > 0 || self.component_bytes == 0 {
            let m = F::from_bytes(self.blocks.tail());
            self.absorb(p, m);
        }
        if self.n > 0 {
            self.horner
                .push(&p.hg, brw_short(&p.sq, &self.sb[..self.n]));
            self.n = 0;
        }
        let horner = &mut self.horner;
        let blocks = &mut self.blocks;
        let acc = core::mem::take(horner).finish(&p.hg);
        let length = F::from_bytes(&self.component_bytes.wrapping_mul(8).to_le_bytes());
        let acc = p.x().mul(acc).add(length);
        *horner = Horner::with_acc(acc);
        *blocks = Blocks::default();
        self.component_bytes = 0;
        self.closed += 1;
        acc
    }

    /// vecHash2L: start the next component.
    #[inline(always)]
    pub fn next_component(&mut self, p: &Powers<F>) {
        self.close(p);
    }

    /// Hash2L: x * (x * acc + L).
    #[inline(always)]
    pub fn finish_hash2l(mut self, p: &Powers<F>) -> F {
        p.x().mul(self.close(p))
    }

    /// vecHash2L: x * (acc_k + k * x^(8B-8)), k = number of components (1..=255).
    #[inline(always)]
    pub fn finish_vector(mut self, p: &Powers<F>) -> F {
        let acc = self.close(p);
        p.x().mul(acc.add(F::top_byte(self.closed as u8)))
    }
}
