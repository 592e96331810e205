//! c-decBRWHash (SPEC.md 5.8, [P0] Construction 3): block j goes to stream j mod c; each
//! stream is BRW-hashed; the c stream values are combined by Horner in x^D,
//! D = 2^(floor(lg q) + 1) (D = 1 when L = 0), and the result is x * (x * Q + L).

use super::{Powers, W};
use crate::eval::horner::poly_plain;
use crate::eval::Brw;
use crate::field::Field;

#[derive(Clone)]
pub(super) struct DecBrw<F: Field> {
    streams: Vec<Brw<F>>,
    /// The stream that takes the next block.
    next: usize,
}

impl<F: Field> DecBrw<F> {
    pub fn new(c: u8) -> Self {
        DecBrw {
            streams: vec![Brw::new(W); c as usize],
            next: 0,
        }
    }

    #[inline]
    pub fn absorb(&mut self, p: &Powers<F>, m: F) {
        self.streams[self.next].push(&p.sq, m);
        self.next += 1;
        if self.next == self.streams.len() {
            self.next = 0;
        }
    }

    /// `blocks` is l, the number of blocks absorbed.
    pub fn finish(mut self, p: &Powers<F>, blocks: u64, length: F) -> F {
        // Zero blocks (no marker) fill the streams up to q = ceil(l / c) blocks each.
        if self.next != 0 {
            for s in &mut self.streams[self.next..] {
                s.push(&p.sq, F::ZERO);
            }
        }
        let q = blocks.div_ceil(self.streams.len() as u64);
        // x^D = sq[bit length of q]; for L = 0 (q = 0) that is sq[0] = x^1, as defined.
        let x_d = p.sq[(u64::BITS - q.leading_zeros()) as usize];
        let values: Vec<F> = self.streams.iter().map(|s| s.finish(&p.sq)).collect();
        let x = p.x();
        x.mul(x.mul(poly_plain(x_d, &values)).add(length))
    }
}
