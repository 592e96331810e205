//! BRW polynomials (SPEC.md section 4) evaluated with delayed reduction.
//!
//! `sq[j]` is x^(2^j) throughout (so `sq[0]` is the key x).

use super::MAX_W;
use crate::field::Field;

/// Unreduced BRW(x; ms) by straight-line recursion on the block count (the papers'
/// "unreducedBRW"): a value is reduced only where it is multiplied again. Used for short
/// sequences (at most 2^MAX_W blocks: a chunk, a super-block); the recursion depth is lg l.
#[inline]
pub fn ubrw<F: Field>(sq: &[F], ms: &[F]) -> F::Wide {
    debug_assert!(ms.len() <= 1 << MAX_W);
    match ms.len() {
        0 => F::Wide::default(),
        1 => ms[0].widen(),
        2 => F::wide_add(ms[0].mul_wide(sq[0]), ms[1].widen()),
        3 => F::wide_add(sq[0].add(ms[0]).mul_wide(sq[1].add(ms[1])), ms[2].widen()),
        l => {
            // K = 2^e <= l < 2K: BRW(M_1..M_(K-1)) * (x^K + M_K) + BRW(M_(K+1)..M_l).
            let e = (usize::BITS - 1 - l.leading_zeros()) as usize;
            let k = 1 << e;
            let head = F::reduce(ubrw(sq, &ms[..k - 1])).mul_wide(ms[k - 1].add(sq[e]));
            F::wide_add(head, ubrw(sq, &ms[k..]))
        }
    }
}

/// BRW(x; ms) of a short sequence (at most 2^MAX_W blocks), reduced.
#[inline]
pub fn brw_short<F: Field>(sq: &[F], ms: &[F]) -> F {
    F::reduce(ubrw(sq, ms))
}

/// Streaming BRW(x; M_1, M_2, ...) by the stack algorithm ([P1] Algorithm 1) with chunks of
/// 2^w blocks: floor(l/2) multiplications, 1 + floor(l/4) reductions, and a stack of at most
/// lg l - w + 1 unreduced products. w sets only the unrolling; the value is the same for
/// every w >= 2.
#[derive(Clone)]
pub struct Brw<F: Field> {
    w: u32,
    chunk: [F; 1 << MAX_W],
    n: usize,
    /// Chunks completed so far (i in Algorithm 1).
    i: u64,
    stack: Vec<F::Wide>,
}

impl<F: Field> Brw<F> {
    /// A new evaluation with chunk exponent `w` (2..=MAX_W).
    pub fn new(w: u32) -> Self {
        assert!(
            (2..=MAX_W).contains(&w),
            "chunk exponent w must be 2..={MAX_W}"
        );
        Brw {
            w,
            chunk: [F::ZERO; 1 << MAX_W],
            n: 0,
            i: 0,
            stack: Vec::new(),
        }
    }

    /// Absorb the next block. `sq` must hold x^(2^j) for j up to lg of the final block count.
    #[inline]
    pub fn push(&mut self, sq: &[F], m: F) {
        self.chunk[self.n] = m;
        self.n += 1;
        if self.n == 1 << self.w {
            self.end_chunk(sq);
        }
    }

    fn end_chunk(&mut self, sq: &[F]) {
        let c = 1usize << self.w;
        self.i += 1;
        let k = self.i.trailing_zeros() as usize;
        // Chunk i closes the 2^k sibling subtrees that end here: add their products first.
        let mut tmp = ubrw(sq, &self.chunk[..c - 1]);
        for e in self.stack.drain(self.stack.len() - k..) {
            tmp = F::wide_add(tmp, e);
        }
        let factor = self.chunk[c - 1].add(sq[self.w as usize + k]);
        self.stack.push(F::reduce(tmp).mul_wide(factor));
        self.n = 0;
    }

    /// BRW of every block pushed so far.
    pub fn finish(&self, sq: &[F]) -> F {
        let tail = ubrw(sq, &self.chunk[..self.n]);
        F::reduce(self.stack.iter().fold(tail, |acc, &e| F::wide_add(acc, e)))
    }
}
