//! Polynomial evaluators, written once for every field.
//!
//! - [`horner::Horner`]: Poly(base; M_1..M_l) with delayed reduction, g blocks per reduction.
//! - [`brw::Brw`]: BRW(x; M_1..M_l) with the stack algorithm of \[P1\] (Algorithm 1), block
//!   by block; [`brw::BrwChunks`], its chunk-level engine, which SIMD schedules drive with
//!   whole chunks; and [`brw::ubrw`], the straight-line unreduced BRW of a short block
//!   sequence.

pub mod brw;
pub mod horner;
pub mod stack;

pub use brw::{brw_short, brw_short_at, ubrw_le3, Brw, BrwChunks};
pub use horner::Horner;
pub use stack::Stack;

/// Access to the squarings x^(2^j) of a key: a slice of them, or (in SIMD backends) a view
/// that broadcasts scalar powers into lanes on demand.
pub trait SqTable<F> {
    /// x^(2^j).
    fn sq(&self, j: usize) -> F;
}

impl<F: Copy> SqTable<F> for [F] {
    #[inline(always)]
    fn sq(&self, j: usize) -> F {
        self[j]
    }
}

impl<F: Copy, const N: usize> SqTable<F> for [F; N] {
    #[inline(always)]
    fn sq(&self, j: usize) -> F {
        self[j]
    }
}

/// Horner group size g of the portable backend: blocks consumed per reduction.
pub const G: usize = 8;

/// Largest chunk exponent w (chunk of 2^w blocks) the BRW evaluator supports.
pub const MAX_W: u32 = 5;

/// Number of precomputed squarings x^(2^j), j = 0..SQUARES-1: enough for the longest
/// message (2^61 bytes, fewer than 2^58 blocks, so lg l + 2 < 64).
pub const SQUARES: usize = 64;

#[cfg(test)]
mod tests;
