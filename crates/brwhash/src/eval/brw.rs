//! BRW polynomials (SPEC.md section 4) evaluated with delayed reduction.
//!
//! `sq[j]` is x^(2^j) throughout (so `sq[0]` is the key x).

use super::{SqTable, Stack, MAX_W};
use crate::field::Field;
use zeroize::Zeroize;

/// Unreduced BRW(x; M1, M2, M3) and its shorter cases: the leaves of every BRW tree.
#[inline(always)]
pub fn ubrw_le3<F: Field, P: SqTable<F> + ?Sized>(sq: &P, ms: &[F]) -> F::Wide {
    match ms.len() {
        0 => F::Wide::default(),
        1 => ms[0].widen(),
        2 => F::wide_add(ms[0].mul_wide(sq.sq(0)), ms[1].widen()),
        _ => F::wide_add(
            sq.sq(0)
                .add_block(ms[0])
                .mul_wide(sq.sq(1).add_block(ms[1])),
            ms[2].widen(),
        ),
    }
}

/// Unreduced BRW(x; M_1..M_K) for K = 2^e - 1 blocks (3, 7, 15 or 31: a d-2LHash or Hash2L
/// super-block) as straight-line code: for K = 2L + 1,
/// BRW(M_1..M_K) = reduce(BRW(M_1..M_L)) * (x^(L+1) + M_(L+1)) + BRW(M_(L+2)..M_K).
/// K / 2 products and (K + 1) / 4 - 1 reductions, the two halves independent.
#[inline(always)]
pub fn ubrw_full<F: Field, P: SqTable<F> + ?Sized>(sq: &P, ms: &[F]) -> F::Wide {
    match ms.len() {
        3 => ubrw_le3(sq, ms),
        7 => ubrw7(sq, ms),
        15 => ubrw15(sq, ms),
        31 => {
            let head = F::reduce(ubrw15(sq, &ms[..15])).mul_wide(sq.sq(4).add_block(ms[15]));
            F::wide_add(head, ubrw15(sq, &ms[16..]))
        }
        k => unreachable!("ubrw_full of {k} blocks"),
    }
}

/// [`ubrw_full`] of 31 blocks level by level: the eight 3-block leaves, then the four
/// 7-block trees, the two 15-block ones and the top. The same products and reductions, but
/// the independent ones first, so that the out-of-order window sees them together (SIMD
/// lanes: a group of four 31-block trees in zmm registers, about 350 instructions, is longer
/// than Zen 4's 320-entry reorder buffer). Hash2L128 with a key on Zen 4, TSC cycles per
/// message, `ubrw_full` -> this: 8 KiB 790 -> 774, 64 KiB 5911 -> 5781, 1 MiB 94750 -> 90790
/// (no change in xmm registers, where it is not used).
#[inline(always)]
pub fn ubrw31_by_level<F: Field, P: SqTable<F> + ?Sized>(sq: &P, ms: &[F]) -> F::Wide {
    debug_assert_eq!(ms.len(), 31);
    // Written out, not loops over arrays: SIMD values in arrays went through memory.
    let l0 = ubrw_le3(sq, &ms[0..3]);
    let l1 = ubrw_le3(sq, &ms[4..7]);
    let l2 = ubrw_le3(sq, &ms[8..11]);
    let l3 = ubrw_le3(sq, &ms[12..15]);
    let l4 = ubrw_le3(sq, &ms[16..19]);
    let l5 = ubrw_le3(sq, &ms[20..23]);
    let l6 = ubrw_le3(sq, &ms[24..27]);
    let l7 = ubrw_le3(sq, &ms[28..31]);
    let seps = [ms[3], ms[7], ms[11], ms[15], ms[19], ms[23], ms[27]];
    ubrw31_from_leaves(sq, [l0, l1, l2, l3, l4, l5, l6, l7], seps)
}

/// The levels of [`ubrw31_by_level`] above its leaves: `leaves[k]` is the unreduced BRW of
/// blocks 4k..4k+2 (0-based), `seps[k]` block 4k + 3, the separator between them.
#[inline(always)]
pub fn ubrw31_from_leaves<F: Field, P: SqTable<F> + ?Sized>(
    sq: &P,
    leaves: [F::Wide; 8],
    seps: [F; 7],
) -> F::Wide {
    let [l0, l1, l2, l3, l4, l5, l6, l7] = leaves;
    let s0 = node(sq, l0, 2, seps[0], l1);
    let s1 = node(sq, l2, 2, seps[2], l3);
    let s2 = node(sq, l4, 2, seps[4], l5);
    let s3 = node(sq, l6, 2, seps[6], l7);
    let h0 = node(sq, s0, 3, seps[1], s1);
    let h1 = node(sq, s2, 3, seps[5], s3);
    node(sq, h0, 4, seps[3], h1)
}

/// Where [`ubrw_at`] reads block i: a closure, or a type whose method is always inlined (SIMD
/// lane types must inline whole into their `#[target_feature]` callers, and a closure that
/// the inliner leaves out of line runs without the features: see `backend::x86`).
pub trait BlockAt<F> {
    /// Block i.
    fn at(&self, i: usize) -> F;
}

impl<F, T: Fn(usize) -> F> BlockAt<F> for T {
    #[inline(always)]
    fn at(&self, i: usize) -> F {
        self(i)
    }
}

/// Unreduced BRW(x; m(i) .. m(i + K - 1)) for K = 3, 7, 15 or 31, as [`ubrw_full`], with
/// each block read (`m`) where the tree uses it: for scalar fields, blocks copied into an
/// array first went through the stack (4-Hash1271 with a key, scalar backend, TSC cycles per
/// message, array -> loaded in place: 1500 B 862 -> 658, 5000 B 2666 -> 1867).
#[inline(always)]
pub fn ubrw_at<F: Field, P: SqTable<F> + ?Sized, const K: usize>(
    sq: &P,
    m: &impl BlockAt<F>,
    i: usize,
) -> F::Wide {
    match K {
        3 => {
            let (a, b) = (m.at(i), m.at(i + 1));
            F::wide_add(
                sq.sq(0).add_block(a).mul_wide(sq.sq(1).add_block(b)),
                m.at(i + 2).widen(),
            )
        }
        // The left subtree, the separating block, the right subtree: K = 2L + 1.
        7 => node(
            sq,
            ubrw_at::<F, P, 3>(sq, m, i),
            2,
            m.at(i + 3),
            ubrw_at::<F, P, 3>(sq, m, i + 4),
        ),
        15 => node(
            sq,
            ubrw_at::<F, P, 7>(sq, m, i),
            3,
            m.at(i + 7),
            ubrw_at::<F, P, 7>(sq, m, i + 8),
        ),
        31 => node(
            sq,
            ubrw_at::<F, P, 15>(sq, m, i),
            4,
            m.at(i + 15),
            ubrw_at::<F, P, 15>(sq, m, i + 16),
        ),
        _ => unreachable!("ubrw_at: K = 3, 7, 15 or 31"),
    }
}

/// reduce(a) (x^(2^e) + m) + b: a node of the BRW tree.
#[inline(always)]
fn node<F: Field, P: SqTable<F> + ?Sized>(
    sq: &P,
    a: F::Wide,
    e: usize,
    m: F,
    b: F::Wide,
) -> F::Wide {
    F::wide_add(F::reduce(a).mul_wide(sq.sq(e).add_block(m)), b)
}

// The levels of `ubrw_full` as separate always-inlined functions, not closures: SIMD field
// types must inline whole into their `#[target_feature]` callers (see `backend::x86`).

#[inline(always)]
pub(crate) fn ubrw7<F: Field, P: SqTable<F> + ?Sized>(sq: &P, ms: &[F]) -> F::Wide {
    let head = F::reduce(ubrw_le3(sq, &ms[..3])).mul_wide(sq.sq(2).add_block(ms[3]));
    F::wide_add(head, ubrw_le3(sq, &ms[4..7]))
}

#[inline(always)]
fn ubrw15<F: Field, P: SqTable<F> + ?Sized>(sq: &P, ms: &[F]) -> F::Wide {
    let head = F::reduce(ubrw7(sq, &ms[..7])).mul_wide(sq.sq(3).add_block(ms[7]));
    F::wide_add(head, ubrw7(sq, &ms[8..15]))
}

/// Unreduced BRW(x; ms) by straight-line recursion on the block count (the papers'
/// "unreducedBRW"): a value is reduced only where it is multiplied again. Used for short
/// sequences (at most 2^MAX_W blocks: a chunk, a super-block); the recursion depth is lg l.
#[inline]
pub fn ubrw<F: Field, P: SqTable<F> + ?Sized>(sq: &P, ms: &[F]) -> F::Wide {
    debug_assert!(ms.len() <= 1 << MAX_W);
    let l = ms.len();
    if l <= 3 {
        return ubrw_le3(sq, ms);
    }
    // K = 2^e <= l < 2K: BRW(M_1..M_(K-1)) * (x^K + M_K) + BRW(M_(K+1)..M_l).
    let e = (usize::BITS - 1 - l.leading_zeros()) as usize;
    let k = 1 << e;
    let head = F::reduce(ubrw(sq, &ms[..k - 1])).mul_wide(sq.sq(e).add_block(ms[k - 1]));
    F::wide_add(head, ubrw(sq, &ms[k..]))
}

/// BRW(x; ms) of a short sequence (at most 2^MAX_W = 32 blocks: a super-block of d-2LHash or
/// Hash2L), reduced: the stack algorithm on chunks of 4 blocks with an array for a stack
/// (depth at most 3), so no recursion and no allocation: SIMD backends inline it whole.
#[inline(always)]
pub fn brw_short<F: Field, P: SqTable<F> + ?Sized>(sq: &P, ms: &[F]) -> F {
    let mut stack = [F::Wide::default(); 4];
    let mut depth = 0;
    let mut chunks = ms.chunks_exact(4);
    let mut i = 0u32;
    for c in &mut chunks {
        i += 1;
        let m = |j: usize| c[j];
        brw_chunk(sq, &mut stack, &mut depth, i, &m);
    }
    brw_short_end(ubrw_le3(sq, chunks.remainder()), &stack[..depth])
}

/// [`brw_short`] of the `l` blocks `m(0)` .. `m(l - 1)`, each read where it is used (no array
/// of them to fill: a one-shot BRWHash message reads its blocks from its bytes).
#[inline(always)]
pub fn brw_short_at<F: Field, P: SqTable<F> + ?Sized>(sq: &P, l: usize, m: &impl BlockAt<F>) -> F {
    let mut stack = [F::Wide::default(); 4];
    let mut depth = 0;
    let whole = l / 4;
    for i in 0..whole {
        let c = |j: usize| m.at(4 * i + j);
        brw_chunk(sq, &mut stack, &mut depth, i as u32 + 1, &c);
    }
    // The last partial chunk: at most 3 blocks.
    let r = l % 4;
    let mut rest = [F::ZERO; 3];
    for (j, v) in rest.iter_mut().enumerate().take(r) {
        *v = m.at(4 * whole + j);
    }
    brw_short_end(ubrw_le3(sq, &rest[..r]), &stack[..depth])
}

/// Chunk `i` (from 1) of [`brw_short`]'s stack algorithm, blocks `c(0)` .. `c(3)`: its
/// unreduced BRW plus the entries it completes, times x^(2^(2 + ntz i)) + M_4, pushed.
#[inline(always)]
fn brw_chunk<F: Field, P: SqTable<F> + ?Sized>(
    sq: &P,
    stack: &mut [F::Wide; 4],
    depth: &mut usize,
    i: u32,
    c: &impl BlockAt<F>,
) {
    debug_assert!(i <= 1 << (MAX_W - 2));
    let k = i.trailing_zeros() as usize;
    let mut tmp = F::wide_add(
        sq.sq(0)
            .add_block(c.at(0))
            .mul_wide(sq.sq(1).add_block(c.at(1))),
        c.at(2).widen(),
    );
    for _ in 0..k {
        *depth -= 1;
        tmp = F::wide_add(tmp, stack[*depth]);
    }
    stack[*depth] = F::reduce(tmp).mul_wide(sq.sq(2 + k).add_block(c.at(3)));
    *depth += 1;
}

/// The end of [`brw_short`]: the last partial chunk's unreduced BRW `tmp` plus the stack.
#[inline(always)]
fn brw_short_end<F: Field>(mut tmp: F::Wide, stack: &[F::Wide]) -> F {
    for e in stack {
        tmp = F::wide_add(tmp, *e);
    }
    F::reduce(tmp)
}

/// Streaming BRW(x; M_1, M_2, ...) by the stack algorithm (\[P1\] Algorithm 1) with chunks of
/// C = 2^w blocks: floor(l/2) multiplications, 1 + floor(l/4) reductions, and a stack of at
/// most lg l - w + 1 unreduced products. w sets only the unrolling; the value is the same for
/// every w >= 2. C = 4 (w = 2) is straight-line code, which SIMD backends inline whole.
///
/// [`Brw`] takes blocks one at a time; its whole chunks go to [`BrwChunks`], the chunk-level
/// engine, which SIMD schedules drive directly: they load whole chunks and keep a message's
/// last few blocks themselves, so they hold no pending blocks (zero-filling an unused chunk
/// of 4 zmm vectors in every one-shot message measured 7% of 4-decBRWHash1305 at 4 KiB on
/// IFMA with a key: TSC cycles per message 583 -> 542).
#[derive(Clone)]
pub struct Brw<F: Field, const C: usize> {
    chunk: [F; C],
    n: usize,
    /// The whole chunks so far.
    pub whole: BrwChunks<F, C>,
}

impl<F: Field, const C: usize> Default for Brw<F, C> {
    #[inline(always)]
    fn default() -> Self {
        Brw {
            chunk: [F::ZERO; C],
            n: 0,
            whole: BrwChunks::default(),
        }
    }
}

/// Wipes the pending blocks and the stack (products with key powers): the state of
/// `Brw::default()`.
impl<F: Field, const C: usize> Zeroize for Brw<F, C> {
    #[inline(always)]
    fn zeroize(&mut self) {
        for m in &mut self.chunk {
            m.zeroize();
        }
        self.n = 0;
        self.whole.zeroize();
    }
}

impl<F: Field, const C: usize> Brw<F, C> {
    /// Whether the state is as wiped: no blocks (the pending ones all `zero`), no chunks, an
    /// empty stack.
    #[cfg(test)]
    pub fn is_wiped(&self, zero: impl Fn(F) -> bool) -> bool {
        self.chunk.iter().all(|&m| zero(m)) && self.n == 0 && self.whole.is_wiped()
    }

    /// Wipe the stack only, not the pending blocks (message blocks): the cheap wipe of a
    /// one-shot state.
    #[inline(always)]
    pub fn wipe_stack(&mut self) {
        self.whole.wipe_stack();
    }

    /// Absorb the next block. `sq` must hold x^(2^j) for j up to lg of the final block count.
    #[inline(always)]
    pub fn push<P: SqTable<F> + ?Sized>(&mut self, sq: &P, m: F) {
        self.chunk[self.n] = m;
        self.n += 1;
        if self.n == C {
            let chunk = self.chunk;
            self.n = 0;
            self.whole.push_chunk(sq, &chunk);
        }
    }

    /// BRW of every block pushed so far.
    #[inline(always)]
    pub fn finish<P: SqTable<F> + ?Sized>(&self, sq: &P) -> F {
        let tail = if C == 4 {
            ubrw_le3(sq, &self.chunk[..self.n])
        } else {
            ubrw(sq, &self.chunk[..self.n])
        };
        self.whole.finish_after(tail)
    }
}

/// The chunk-level state of [`Brw`]: the chunks completed and the stack.
///
/// `N` entries of the stack live inline (see [`Stack`]).
pub struct BrwChunks<F: Field, const C: usize, const N: usize = 8> {
    /// Chunks completed so far (i in Algorithm 1).
    i: u64,
    stack: Stack<F::Wide, N>,
}

impl<F: Field, const C: usize, const N: usize> Default for BrwChunks<F, C, N> {
    #[inline(always)]
    fn default() -> Self {
        const { assert!(C.is_power_of_two() && C >= 4 && C <= 1 << MAX_W) };
        BrwChunks {
            i: 0,
            stack: Stack::default(),
        }
    }
}

// Copies in place (see `Stack`'s `Clone`).
super::stack::clone_in_place!([F: Field, const C: usize, const N: usize] BrwChunks<F, C, N> { i, stack });

/// Wipes the stack (products with key powers): the state of `BrwChunks::default()`.
impl<F: Field, const C: usize, const N: usize> Zeroize for BrwChunks<F, C, N> {
    #[inline(always)]
    fn zeroize(&mut self) {
        self.i = 0;
        self.stack.zeroize();
    }
}

impl<F: Field, const C: usize, const N: usize> BrwChunks<F, C, N> {
    /// Whether the state is as wiped: no chunks, an empty stack.
    #[cfg(test)]
    pub fn is_wiped(&self) -> bool {
        self.i == 0 && self.stack.is_wiped()
    }

    /// Wipe the stack, the only key-derived part: the chunk count stays (the state is then
    /// used up, or must be zeroized before it is used again).
    #[inline(always)]
    pub fn wipe_stack(&mut self) {
        self.stack.zeroize();
    }

    /// Start a new evaluation in a state whose last one ended with its stack empty
    /// ([`close`](Self::close)): the stack's slots are kept, to be wiped once at the end.
    #[inline(always)]
    pub fn restart(&mut self) {
        debug_assert!(self.stack.is_empty());
        self.i = 0;
    }

    /// w = lg C.
    const W: usize = C.trailing_zeros() as usize;

    /// Absorb C blocks at once.
    #[inline(always)]
    pub fn push_chunk<P: SqTable<F> + ?Sized>(&mut self, sq: &P, chunk: &[F; C]) {
        // C - 1 = 2^w - 1 blocks: the straight-line evaluator.
        let tmp = ubrw_full(sq, &chunk[..C - 1]);
        self.chunk_step(sq, tmp, 0, chunk[C - 1]);
    }

    /// [`push_chunk`](Self::push_chunk) of the chunk whose block j is `m(j)`, each block
    /// read where it is used ([`ubrw_at`]).
    #[inline(always)]
    pub fn push_chunk_with<P: SqTable<F> + ?Sized>(&mut self, sq: &P, m: impl Fn(usize) -> F) {
        let tmp = match C {
            4 => ubrw_at::<F, P, 3>(sq, &m, 0),
            8 => ubrw_at::<F, P, 7>(sq, &m, 0),
            16 => ubrw_at::<F, P, 15>(sq, &m, 0),
            _ => ubrw_at::<F, P, 31>(sq, &m, 0),
        };
        self.chunk_step(sq, tmp, 0, m(C - 1));
    }

    /// The unreduced BRW of the first C - 1 blocks of chunk `d`, block j being `m(d, j)`.
    #[inline(always)]
    fn head<P: SqTable<F> + ?Sized>(sq: &P, d: usize, m: &impl Fn(usize, usize) -> F) -> F::Wide {
        let mut ms = [F::ZERO; C];
        for (j, b) in ms[..C - 1].iter_mut().enumerate() {
            *b = m(d, j);
        }
        ubrw_full(sq, &ms[..C - 1])
    }

    /// [`push_chunk`](Self::push_chunk) of two chunks from an even chunk count. Block j of
    /// chunk d is `m(d, j)`, read where it is used (a caller may load it there, so that not
    /// every block is held in registers at once); `step()` runs once per chunk, as a caller's
    /// `push_chunk` loop runs it between chunks (lazy key squarings).
    /// The second chunk's independent products come before the product that joins the two,
    /// in program order too (the out-of-order window did not reach a chunk ahead on its own),
    /// and the first chunk's product goes straight into the second's sum, not through the
    /// stack (a store and a load on the dependency chain).
    #[inline(always)]
    pub fn push_chunk_pair<P: SqTable<F> + ?Sized>(
        &mut self,
        sq: &P,
        m: impl Fn(usize, usize) -> F,
        step: impl Fn(),
    ) {
        debug_assert!(self.i.is_multiple_of(2));
        let t0 = Self::head(sq, 0, &m);
        step();
        let t1 = Self::head(sq, 1, &m);
        // The odd chunk closes nothing.
        let p0 = F::reduce(t0).mul_wide(sq.sq(Self::W).add_block(m(0, C - 1)));
        self.i += 1;
        self.chunk_step(sq, F::wide_add(t1, p0), 1, m(1, C - 1));
        step();
    }

    /// [`push_chunk_pair`](Self::push_chunk_pair) of four chunks from a chunk count that is
    /// a multiple of 4: three of the four products stay out of the stack, and each chunk's
    /// independent products come before the previous chunk's dependent one.
    #[inline(always)]
    pub fn push_chunk_quad<P: SqTable<F> + ?Sized>(
        &mut self,
        sq: &P,
        m: impl Fn(usize, usize) -> F,
        step: impl Fn(),
    ) {
        debug_assert!(self.i.is_multiple_of(4));
        let t0 = Self::head(sq, 0, &m);
        let t1 = Self::head(sq, 1, &m);
        let p0 = F::reduce(t0).mul_wide(sq.sq(Self::W).add_block(m(0, C - 1)));
        step();
        let t2 = Self::head(sq, 2, &m);
        let s1 = F::wide_add(t1, p0);
        let p1 = F::reduce(s1).mul_wide(sq.sq(Self::W + 1).add_block(m(1, C - 1)));
        step();
        let t3 = Self::head(sq, 3, &m);
        let p2 = F::reduce(t2).mul_wide(sq.sq(Self::W).add_block(m(2, C - 1)));
        step();
        self.i += 3;
        self.chunk_step(sq, F::wide_add(F::wide_add(t3, p2), p1), 2, m(3, C - 1));
        step();
    }

    /// The stack step of the next chunk, `tmp` being the unreduced BRW of its first C - 1
    /// blocks plus the `added` newest subtrees it closes, and `last` its last block.
    #[inline(always)]
    fn chunk_step<P: SqTable<F> + ?Sized>(
        &mut self,
        sq: &P,
        mut tmp: F::Wide,
        added: usize,
        last: F,
    ) {
        self.i += 1;
        let k = self.i.trailing_zeros() as usize;
        // Chunk i closes the k sibling subtrees that end here: add their products first
        // (but for the `added` newest, which the caller added).
        for _ in added..k {
            tmp = F::wide_add(tmp, self.stack.pop());
        }
        let product = F::reduce(tmp).mul_wide(sq.sq(Self::W + k).add_block(last));
        // Keep every sum of stack entries within the field's headroom for unreduced values:
        // entries deep in the stack are stored reduced (same value, small limbs).
        if self.stack.len() + 2 < F::WIDE_SUM_LIMIT {
            self.stack.push(product);
        } else {
            self.stack.push(F::reduce(product).widen());
        }
    }

    /// The left factor of the product of the next chunk when its number is a power of two
    /// (it closes every subtree on the stack): the unreduced BRW of its first C - 1 blocks
    /// plus every stack entry. For schedules that multiply it themselves (4-decBRWHash on
    /// 8 lanes, whose two halves then need different factors); the evaluation ends here.
    #[inline(always)]
    pub fn close<P: SqTable<F> + ?Sized>(&mut self, sq: &P, chunk: &[F; C]) -> F::Wide {
        debug_assert!((self.i + 1).is_power_of_two());
        let mut tmp = ubrw_full(sq, &chunk[..C - 1]);
        while !self.stack.is_empty() {
            tmp = F::wide_add(tmp, self.stack.pop());
        }
        tmp
    }

    /// w * BRW of every chunk so far and `chunk`, the last: the
    /// weight rides on the last chunk's right factor, w (x^(2^k) + M), which is ready as
    /// soon as the chunk is loaded, so w costs no product after the message's last one; the
    /// stack entries the chunk does not close are weighted beside it. A caller that would
    /// multiply the value by a key-only weight saves a dependent product.
    #[inline(always)]
    pub fn finish_chunk_weighted<P: SqTable<F> + ?Sized>(
        &mut self,
        sq: &P,
        chunk: &[F; C],
        w: F,
    ) -> F {
        let mut tmp = ubrw_full(sq, &chunk[..C - 1]);
        self.i += 1;
        let k = self.i.trailing_zeros() as usize;
        let factor = sq.sq(Self::W + k).add_block(chunk[C - 1]).mul(w);
        for _ in 0..k {
            tmp = F::wide_add(tmp, self.stack.pop());
        }
        let mut sum = F::reduce(tmp).mul_wide(factor);
        for &e in self.stack.iter() {
            sum = F::wide_add(sum, F::reduce(e).mul_wide(w));
        }
        F::reduce(sum)
    }

    /// Continue, from a fresh state, an evaluation whose first `i` chunks were computed
    /// elsewhere (by a SIMD schedule of the same algorithm) and left the stack `entries`
    /// (bottom first). In place, not a constructor: a returned or passed `BrwChunks` or `Stack`
    /// is moved whole, inline slots and all (2 KiB for 4-lane IFMA products), and that
    /// `memcpy` took 5% of a 4 KiB 4-decBRWHash1305 message.
    #[inline(always)]
    pub fn resume(&mut self, i: u64, entries: impl IntoIterator<Item = F::Wide>) {
        debug_assert!(self.i == 0 && self.stack.is_empty());
        self.i = i;
        for e in entries {
            self.stack.push(e);
        }
    }

    /// Chunks completed so far.
    #[inline(always)]
    pub fn chunks(&self) -> u64 {
        self.i
    }

    /// BRW of every chunk so far followed by blocks whose unreduced BRW is `tail` (fewer
    /// than C blocks: they close no subtree).
    #[inline(always)]
    pub fn finish_after(&self, tail: F::Wide) -> F {
        // A loop, not a fold with a closure: SIMD lane types must inline whole.
        let mut sum = tail;
        for &e in self.stack.iter() {
            sum = F::wide_add(sum, e);
        }
        F::reduce(sum)
    }

    /// BRW of every chunk so far followed by `k` <= C blocks, block j being `m(j)` (read
    /// where it is used, so that a caller keeps no array of them): for C = 4.
    #[inline(always)]
    pub fn finish_with<P: SqTable<F> + ?Sized>(
        &mut self,
        sq: &P,
        k: usize,
        m: impl Fn(usize) -> F,
    ) -> F {
        debug_assert!(C == 4 && k <= C);
        let tail = match k {
            0 => F::Wide::default(),
            1 => m(0).widen(),
            2 => F::wide_add(m(0).mul_wide(sq.sq(0)), m(1).widen()),
            3 => ubrw_at::<F, P, 3>(sq, &m, 0),
            _ => {
                self.push_chunk_with(sq, m);
                F::Wide::default()
            }
        };
        self.finish_after(tail)
    }
}
