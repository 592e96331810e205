//! c-decBRWHash (SPEC.md 5.8, [P0] Construction 3): block j goes to stream j mod c; each
//! stream is BRW-hashed; the c stream values are combined by Horner in x^D,
//! D = 2^(floor(lg q) + 1) (D = 1 when L = 0), and the result is x * (x * Q + L).
//!
//! [`DecBrw`] runs the streams one block at a time (portable). [`DecLanes`] runs all c streams
//! at once in the lanes of a SIMD vector type (lane j = stream j, [P0]'s design); SIMD
//! backends instantiate it with their vector fields and call it from `#[target_feature]`
//! entry points, which is why everything on its hot path is `#[inline(always)]`.

use crate::eval::stack::clone_in_place;
use core::marker::PhantomData;

use super::{fill_squares, KeySquares, LazySquares, Powers, Tail, CHUNK};
use crate::backend::{end_of, prefetch, prefetch_ahead, prefetch_lines, TO_L2};
use crate::eval::horner::poly_tree;
use crate::eval::{Brw, BrwChunks, SqTable, Stack};
use crate::field::{Field, PrimeField};
use zeroize::Zeroize;

#[derive(Clone)]
pub(super) struct DecBrw<F: Field> {
    streams: Vec<Brw<F, CHUNK>>,
    /// The stream that takes the next block.
    next: usize,
}

impl<F: Field> DecBrw<F> {
    pub fn new(c: u8) -> Self {
        DecBrw {
            streams: vec![Brw::default(); c as usize],
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

    /// `blocks` is l, the number of blocks absorbed. The state is used up (wipe it after).
    pub fn finish(&mut self, p: &Powers<F>, blocks: u64, length: F) -> F {
        // Zero blocks (no marker) fill the streams up to q = ceil(l / c) blocks each.
        if self.next != 0 {
            for s in &mut self.streams[self.next..] {
                s.push(&p.sq, F::ZERO);
            }
        }
        let c = self.streams.len();
        let mut values = [F::ZERO; 16];
        for (v, s) in values.iter_mut().zip(&self.streams) {
            *v = s.finish(&p.sq);
        }
        let v = combine(p, &values[..c], blocks, length);
        values[..c].iter_mut().zeroize();
        v
    }

    /// The c stream values Q_1..Q_c of a whole message (BRW of each stream, zero-filled to
    /// q blocks), before they are combined: for multi-core hashing, which joins pieces
    /// stream by stream.
    #[cfg(feature = "parallel")]
    pub fn stream_values(c: u8, p: &Powers<F>, msg: &[u8]) -> [F; 16]
    where
        F: PrimeField,
    {
        let mut h = Self::new(c);
        for b in msg.chunks(F::BLOCK) {
            h.absorb(p, F::from_block(b, false));
        }
        if h.next != 0 {
            for s in &mut h.streams[h.next..] {
                s.push(&p.sq, F::ZERO);
            }
        }
        let mut values = [F::ZERO; 16];
        for (v, s) in values.iter_mut().zip(&h.streams) {
            *v = s.finish(&p.sq);
        }
        h.zeroize();
        values
    }
}

#[cfg(test)]
impl<F: Field> DecBrw<F> {
    pub fn is_wiped(&self, zero: impl Fn(F) -> bool + Copy) -> bool {
        self.streams.iter().all(|s| s.is_wiped(zero)) && self.next == 0
    }
}

/// Wipes every stream: the state of `DecBrw::new(c)`.
impl<F: Field> Zeroize for DecBrw<F> {
    fn zeroize(&mut self) {
        for s in &mut self.streams {
            s.zeroize();
        }
        self.next = 0;
    }
}

/// The final step from the c stream values Q_1..Q_c: x * (x * Poly(x^D; Q) + L).
/// (Always inlined: it runs inside the backends' entry points, with their features.)
#[inline(always)]
pub(super) fn combine<F: Field, T: KeySquares<F> + ?Sized>(
    p: &T,
    values: &[F],
    blocks: u64,
    length: F,
) -> F {
    let q = blocks.div_ceil(values.len() as u64);
    // x^D = sq[bit length of q] (for L = 0, q = 0: sq[0] = x^1, as defined); its squares
    // follow, one per level of Estrin's tree (c <= 16 values: at most 4).
    let j = (u64::BITS - q.leading_zeros()) as usize;
    let levels = values.len().next_power_of_two().trailing_zeros() as usize;
    let mut squares = [F::ZERO; 4];
    for (k, s) in squares[..levels].iter_mut().enumerate() {
        *s = p.square(j + k);
    }
    let sum = poly_tree(&squares, values);
    squares.zeroize();
    // x * (x * sum + L) = x^2 * sum + x * L: two independent products, one reduction.
    F::reduce(F::wide_add(
        p.square(1).mul_wide(sum),
        p.square(0).mul_wide(length),
    ))
}

/// [`combine`] of W stream values in the lanes of `values` (lane j = stream j + 1, W a
/// power of two): Poly(x^D; Q) as one lane product with weights that come from the key
/// alone, and a lane sum.
/// - The weights are formed in the lanes, and include the final x^2 (below). Formed in
///   scalar code and moved into the lanes through memory, they took more than the rest of
///   the end, and x^2 sum was one more product after the lane sum. TSC cycles per message
///   with a key, IFMA, scalar weights -> lane weights: 8-decBRWHash1305 512 B 248 -> 173,
///   4 KiB 452 -> 362, 16 KiB 1027 -> 954; 4-decBRWHash1305 128 B 134 -> 115, 512 B 167 ->
///   151, 4 KiB 360 -> 348.
/// - Before that, Estrin's tree in scalar code took lg W dependent products after the
///   lanes were stored (4-decBRWHash1305 on IFMA, TSC cycles/byte with a key: 128 B 1.52
///   -> 1.23, 1 KiB 0.293 -> 0.244).
#[inline(always)]
fn combine_lanes<F: PrimeField, V: Lanes<F>, T: KeySquares<F> + ?Sized>(
    p: &T,
    values: V,
    blocks: u64,
    length: F,
) -> F {
    if !V::FAST_PERMUTES {
        return combine_scalar_weights(p, values, blocks, length);
    }
    let weights = lane_weights::<F, V, T>(p, blocks);
    combine_weighted(p, values, weights, length)
}

/// The lane weights of [`combine_lanes`] for a message of `blocks` blocks: from the key's
/// [`WeightTable`] when it has them, else computed.
#[inline(always)]
fn lane_weights<F: PrimeField, V: Lanes<F>, T: KeySquares<F> + ?Sized>(p: &T, blocks: u64) -> V {
    let q = blocks.div_ceil(V::W as u64);
    let j = (u64::BITS - q.leading_zeros()) as usize;
    if let Some(w) = p.weight_table().and_then(|t| t.get::<F, V>(j)) {
        return w;
    }
    weights_for::<F, V, T>(p, j)
}

/// The lane weights for streams of at most D = 2^j blocks.
#[inline(always)]
fn weights_for<F: PrimeField, V: Lanes<F>, T: KeySquares<F> + ?Sized>(p: &T, j: usize) -> V {
    let w = V::W;
    // (Lane masks are bytes: at most 8 lanes.)
    debug_assert!(w.is_power_of_two() && w <= 8);
    // Lane k's weight x^2 x^((W - 1 - k) D), formed in the lanes: x^2 times, for each bit
    // i of W - 1 - k, the squaring x^(2^i D) (lane k takes it where the bit is set, else
    // 1). x^2 folds x * (x * sum + L) = x^2 sum + x L into the lane product.
    // The 1 + lg W factors are multiplied as a tree, not a chain: 8-decBRWHash1305 with a
    // key spent 13% of its time at 4 KiB in the chain of three products.
    let x2 = V::splat(p.square(1));
    match w {
        1 => x2,
        2 => x2.mul(lane_factor::<F, V, T>(p, j, 0)),
        4 => x2
            .mul(lane_factor::<F, V, T>(p, j, 0))
            .mul(lane_factor::<F, V, T>(p, j, 1)),
        _ => {
            let low = x2.mul(lane_factor::<F, V, T>(p, j, 0));
            let high = lane_factor::<F, V, T>(p, j, 1).mul(lane_factor::<F, V, T>(p, j, 2));
            low.mul(high)
        }
    }
}

/// Most entries of a [`WeightTable`]: streams of up to 2^12 blocks (8-decBRWHash1305
/// messages up to 512 KiB; past them the three products of the weights cost under 0.1% of
/// the message), 2.4 KiB per key on 8 lanes of radix 2^44. The table's cost in `Key::new`,
/// TSC cycles, without a table / 21 entries of three products / these 13 by squarings (two
/// products each): 8-decBRWHash1305 1687 / 3564 / 2576, 4-decBRWHash1305 1823 / 2590 /
/// 2321, 4-decBRWHash1271 911 / 1659 / 1401.
pub(crate) const WEIGHT_ENTRIES: usize = 13;

/// A key's lane weights of c-decBRWHash for its backend's lanes (`Lanes::to_words`): entry j
/// for messages of D = 2^j blocks per stream, so that a message loads its weights instead
/// of multiplying them (three dependent products on 8 lanes, which the end of a short
/// message waits for). TSC cycles per message with a key, IFMA, computed -> cached:
/// 8-decBRWHash1305 512 B 219 -> 158, 1 KiB 282 -> 215, 4 KiB 592 -> 536; 4-decBRWHash1305
/// 512 B 172 -> 155, 4 KiB 571 -> 557.
#[derive(Clone)]
pub(crate) struct WeightTable {
    /// The lane type's W and WORDS: a table is read only by the lanes it was made for.
    lanes: usize,
    words_per: usize,
    words: zeroize::Zeroizing<Vec<u64>>,
    /// Where the entries start in `words`: on a 64-byte line (a vector load split across two
    /// lines cost a short message about 30 TSC cycles in half the processes).
    start: usize,
}

/// `n` zeroed words from a 64-byte boundary of a vector a little longer, and where they start.
fn line_aligned_words(n: usize) -> (zeroize::Zeroizing<Vec<u64>>, usize) {
    let words = zeroize::Zeroizing::new(vec![0u64; n + 7]);
    let start = (words.as_ptr() as usize / 8).wrapping_neg() % 8;
    (words, start)
}

impl WeightTable {
    /// The weights of `key`'s squarings for the lanes `V`, as many entries as its squarings
    /// allow (`None` for lanes that combine in scalar code, or a key without squarings).
    #[inline(always)]
    pub(crate) fn new<F: PrimeField, V: Lanes<F>, const S: usize>(
        key: &Powers<F, S>,
    ) -> Option<Self> {
        if !V::FAST_PERMUTES {
            return None;
        }
        // Entry j reads squarings up to j + lg W - 1, and x^2.
        let lg_w = V::W.trailing_zeros() as usize;
        let n_sq = key.n_sq;
        if n_sq < 2 {
            return None;
        }
        let entries = WEIGHT_ENTRIES.min((n_sq + 1).saturating_sub(lg_w));
        if entries == 0 {
            return None;
        }
        let mut words = zeroize::Zeroizing::new(vec![0u64; entries * V::WORDS]);
        // Entry j = x^2 u_j with u_j lane k = x^((W - 1 - k) 2^j): u_0 from the squarings as
        // in `weights_for` (at j = 0), then u_(j+1) = u_j^2.
        let mut x2 = V::splat(key.square(1));
        let mut u = match lg_w {
            0 => V::splat(F::from_u64(1)),
            _ => (1..lg_w).fold(lane_factor::<F, V, _>(key, 0, 0), |u, i| {
                u.mul(lane_factor::<F, V, _>(key, 0, i))
            }),
        };
        for (j, out) in words.chunks_exact_mut(V::WORDS).enumerate() {
            if j > 0 {
                u = u.square();
            }
            let mut w = x2.mul(u);
            w.to_words(out);
            w.zeroize();
        }
        u.zeroize();
        x2.zeroize();
        Some(WeightTable {
            lanes: V::W,
            words_per: V::WORDS,
            words,
            start: 0,
        })
    }

    /// Entry j, if the table has it and was made for the lanes `V`.
    #[inline(always)]
    fn get<F: PrimeField, V: Lanes<F>>(&self, j: usize) -> Option<V> {
        if self.lanes != V::W || self.words_per != V::WORDS {
            return None;
        }
        self.words
            .get(self.start + j * V::WORDS..self.start + (j + 1) * V::WORDS)
            .map(V::from_words)
    }
}

/// A key's lane weights of c-decBRWHash messages of at most two blocks per stream (c <= 8,
/// 1 ..= 2c blocks), in `V`'s lanes: such a message is linear in its blocks
/// (`scalar::dec_single`, `scalar::pair_exponent`), so it takes a vector product per W
/// blocks against these weights, one reduction and a lane sum, where the stream lanes would
/// run a BRW level per block and combine (a chain of products on a short message) and
/// scalar code one product per block. The vectors: the weights of at most c blocks
/// (block i: x^(2(c - i))), then those of c + 1 ..= 2c (block i: `pairs[i]`), W blocks per
/// vector, zero past the last block.
impl WeightTable {
    #[inline(always)]
    pub(crate) fn linear<F: PrimeField, V: Lanes<F>>(x: F, c: usize, pairs: &[F; 16]) -> Self {
        debug_assert!((1..=8).contains(&c));
        let w = V::W;
        let (single, double) = (c.div_ceil(w), (2 * c).div_ceil(w));
        let (mut all, start) = line_aligned_words((single + double) * V::WORDS);
        let words = &mut all[start..start + (single + double) * V::WORDS];
        let mut lanes = [F::ZERO; 16];
        // x^(2(c - i)) for i < c: the powers of x^2 from the last block back.
        let mut x2 = x.square();
        let mut e = x2;
        for i in (0..c).rev() {
            lanes[i] = e;
            if i > 0 {
                e = e.mul(x2);
            }
        }
        for (v, out) in words[..single * V::WORDS]
            .chunks_exact_mut(V::WORDS)
            .enumerate()
        {
            V::from_lanes(&lanes[v * w..(v + 1) * w]).to_words(out);
        }
        lanes.zeroize();
        lanes[..2 * c].copy_from_slice(&pairs[..2 * c]);
        for (v, out) in words[single * V::WORDS..]
            .chunks_exact_mut(V::WORDS)
            .enumerate()
        {
            V::from_lanes(&lanes[v * w..(v + 1) * w]).to_words(out);
        }
        lanes.zeroize();
        x2.zeroize();
        e.zeroize();
        WeightTable {
            lanes: w,
            words_per: V::WORDS,
            words: all,
            start,
        }
    }
}

/// Bytes up to which a message with a key stays in scalar code rather than
/// [`dec_linear_lanes`] (one or two blocks: a product or two). Private timing loop, IFMA
/// lanes (8, zmm) vs the path before them (scalar to 112-225 B, then the stream lanes), TSC
/// cycles per message with a key: 8-decBRWHash1305 16 B 67 vs 51, 32 B 67 vs 62, 48 B 67 vs
/// 76, 64 B 68 vs 84, 128 B 69 vs 129, 160 B 83 vs 146, 256 B 86 vs 134; 4-decBRWHash1305
/// 32 B 66 vs 61, 48 B 67 vs 74, 96 B 69 vs 104, 128 B 69 vs 108; 8-decBRWHash1271 16 B 59
/// vs 55, 32 B 59 vs 60, 64 B 61 vs 69, 240 B 76 vs 142; 4-decBRWHash1271 32 B 60 vs 58,
/// 48 B 61 vs 68, 120 B 61 vs 81.
const LINEAR_FROM: usize = 32;

/// c-decBRWHash of `msg` (1 ..= 2c blocks, past [`LINEAR_FROM`] bytes) with a key's
/// [`WeightTable::linear`]: x L plus the sum of the blocks (pad2) times their weights, or
/// `None` for another length or a table of other lanes.
#[inline(always)]
pub(crate) fn dec_linear_lanes<F: PrimeField, V: Halves<F>>(
    t: &WeightTable,
    x: F,
    c: usize,
    msg: &[u8],
) -> Option<F> {
    let (w, b, n) = (V::W, F::BLOCK, msg.len());
    if n <= LINEAR_FROM || n > 2 * c * b || n > 2 * w * b || !(1..=8).contains(&c) {
        return None;
    }
    // Straight-line code for one or two vectors: a loop kept the sums on the stack.
    let first = if n <= c * b { 0 } else { c.div_ceil(w) };
    let two = n > w * b;
    let w0 = t.get::<F, V>(first)?;
    let w1 = if two {
        t.get::<F, V>(first + 1)?
    } else {
        V::ZERO
    };
    let m0 = if two {
        V::load(&msg[..w * b], false)
    } else {
        V::load_tail(msg, 0)
    };
    let mut sum = m0.mul_wide(w0);
    if two {
        sum = V::wide_add(sum, V::load_tail(msg, w * b).mul_wide(w1));
    }
    let length = F::from_u64((n as u64).wrapping_mul(8));
    Some(
        V::reduce(sum)
            .sum_lanes()
            .add(F::reduce(x.mul_block_wide(length))),
    )
}

/// Blocks per stream (q) of the c-decBRWHash messages that [`dec_flat`] takes: 3 ..= 8.
/// q = 3 (P_0 times the weight) was left to the stack algorithm while the flat values were
/// wiped (TSC cycles per message with a key, IFMA, stack vs flat: 4-decBRWHash1305 192 B 72
/// vs 82; 4-decBRWHash1271 150 B 94 vs 96, 180 B 70 vs 73; 8-decBRWHash1271 300 B 101 vs 99,
/// 360 B 74 vs 81); without the wipes, Zen 4, min TSC cycles per message with a key, 20 back
/// to back, 5 alternating runs, stack -> flat: 8-decBRWHash1305 272 B 146 -> 124, 320 B 142
/// -> 108, 384 B 142 -> 100; 8-decBRWHash1271 255 B 148 -> 126, 360 B 139 -> 111;
/// 4-decBRWHash1305 (4 lanes there) 144 B 112 -> 104, 192 B 95 -> 85; 4-decBRWHash1271 150 B
/// 114 -> 103, 180 B 94 -> 87. (Not measured since where zmm runs at full width.)
#[inline(always)]
const fn flat_q(q: usize) -> bool {
    3 <= q && q <= 8
}

/// Whether [`dec_flat`] takes a c-decBRWHash message of `len` bytes (the callers ask first:
/// a call into the entry point for nothing cost the other lengths 4-5 TSC cycles). Not
/// 8-decBRWHash1271 messages of whole chunks (4 or 8 blocks in every stream), which the
/// stack algorithm takes faster (TSC cycles per message with a key, stack vs flat: 480 B
/// 80 vs 85, 960 B 114 vs 118; 720 B 110 vs 101).
#[inline(always)]
pub(crate) const fn dec_flat_takes<F: PrimeField>(c: usize, len: usize) -> bool {
    let whole_chunks = len.is_multiple_of(4 * 8 * F::BLOCK);
    (c == 4 || c == 8)
        && flat_q(len.div_ceil(F::BLOCK).div_ceil(c))
        && !(c == 8 && F::BLOCK == 15 && whole_chunks)
}

/// c-decBRWHash (c = 4 or 8) of a message of q = 3 ..= 8 blocks per stream with a key, flat
/// on the 8 lanes of `V`: a stream's BRW times its lane weight w is linear in its
/// first-level values P_0 = (x + M_1)(x^2 + M_2) + M_3 and P_1 = BRW(M_5 .. M_min(q, 7)),
/// each times the factors x^(2^e) + M_(2^e) above it: Q w = P_0 (x^4 + M_4) w' + P_1 w',
/// with w' = (x^8 + M_8) w when q = 8, else w (and no P_1 when q = 4). The
/// P_i are products of blocks, the weights products beside them, and the weighted sum one
/// product more: two deep (three at q = 8), where the stack algorithm is a chain of two
/// or three products and the weight after them. For c = 4, lanes 0-3 hold P_0 and lanes
/// 4-7 P_1, one 8-lane product each (where zmm runs at full width; in halves, 4 lanes). (At most two blocks per stream are linear in the
/// blocks alone: `dec_linear_lanes`.) `None` for other lengths and c. TSC cycles per
/// message with a key, IFMA, stack -> flat: 4-decBRWHash1305 200 B 119 -> 111, 256 B 94 ->
/// 86, 512 B 123 -> 109; 4-decBRWHash1271 240 B 93 -> 84, 480 B 124 -> 106;
/// 8-decBRWHash1305 400 B 131 -> 113, 768 B 113 -> 100, 1 KiB 121 -> 115;
/// 8-decBRWHash1271 400 B 127 -> 108, 720 B 110 -> 101.
#[inline(always)]
pub(crate) fn dec_flat<F: PrimeField, V: Halves<F>>(
    p: &Powers<F>,
    c: usize,
    msg: &[u8],
) -> Option<F> {
    let n = msg.len();
    let blocks = n.div_ceil(F::BLOCK);
    if V::W != 8 || !dec_flat_takes::<F>(c, n) {
        return None;
    }
    let q = blocks.div_ceil(c);
    // The operands, products and weights here are vector values, not wiped: a wipe of a
    // vector local keeps it in memory (its value stored, then zeros), and the register
    // allocator's spills are beyond any wipe. Zen 4 (a zmm store takes the store port two
    // cycles), min TSC cycles per message with a key, 20 messages back to back, wiped ->
    // not: 8-decBRWHash1305 512 B 169 -> 127, 768 B 203 -> 160, 1 KiB 237 -> 191;
    // 8-decBRWHash1271 512 B 207 -> 170, 768 B 222 -> 183; 4-decBRWHash unchanged.
    let sum = if c == 4 && !crate::backend::zmm_in_halves() {
        let f = flat_parts::<F, V::Half>(p, msg, q);
        let (a, b) = (V::join(f.p0[0], f.p1[0]), V::join(f.p0[1], f.p1[1]));
        let firsts = V::reduce(a.mul_acc(b, V::join(f.p0[2], f.p1[2]).widen()));
        let mut w = lane_weights::<F, V::Half, Powers<F>>(p, blocks as u64);
        if let Some(s8) = f.s8 {
            w = s8.mul(w);
        }
        let one = V::Half::splat(F::from_u64(1));
        let g = V::join(w, w).mul(V::join(f.s4, one));
        firsts.mul(g).sum_lanes()
    } else if c == 4 {
        // Where zmm runs in halves (Zen 4) an 8-lane product costs two 4-lane ones, and
        // the joined products above multiply zeros at q = 4 (and M_5 by nothing at q = 5)
        // and ones in half of g: 4 lanes, as c = 8 runs on 8. Zen 4, min TSC cycles per
        // message with a key, 20 back to back, 5 alternating runs, joined -> 4 lanes:
        // 4-decBRWHash1305 200 B 140 -> 116, 256 B 125 -> 99, 320 B 129 -> 103, 400 B 157
        // -> 140, 512 B 161 -> 146; 4-decBRWHash1271 200 B 137 -> 108, 300 B 127 -> 105,
        // 400 B 150 -> 146, 450 B 170 -> 153.
        flat_weighted::<F, V::Half>(p, msg, q, blocks)
    } else {
        flat_weighted::<F, V>(p, msg, q, blocks)
    };
    Some(sum.add(p.square(0).mul(F::from_u64((n as u64).wrapping_mul(8)))))
}

/// [`dec_flat`] with one stream per lane of `H` (W = c): the lanes' weighted sum.
#[inline(always)]
fn flat_weighted<F: PrimeField, H: Lanes<F>>(
    p: &Powers<F>,
    msg: &[u8],
    q: usize,
    blocks: usize,
) -> F {
    let f = flat_parts::<F, H>(p, msg, q);
    let p0 = H::reduce(f.p0[0].mul_acc(f.p0[1], f.p0[2].widen()));
    let mut w = lane_weights::<F, H, Powers<F>>(p, blocks as u64);
    if let Some(s8) = f.s8 {
        w = s8.mul(w);
    }
    // (At q = 3 the stream is P_0 alone.)
    let g = if q == 3 { w } else { f.s4.mul(w) };
    // (No P_1 at q = 4: two products fewer, which a whole chunk per stream missed, 512
    // B of 8-decBRWHash1305 86 -> 91 TSC cycles against the stack algorithm.)
    // At q = 5, P_1 = M_5 needs no product (TSC cycles per message with a key, 20 back
    // to back, Zen 4, 0 * 0 + M_5 -> M_5: 8-decBRWHash1305 520 B 165 -> 143, 640 B 159
    // -> 133; 8-decBRWHash1271 520 B 183 -> 146, 600 B 165 -> 137).
    let weighted = match q {
        3 | 4 => p0.mul(g),
        5 => H::reduce(p0.mul_acc(g, f.p1[2].mul_wide(w))),
        _ => {
            let p1 = H::reduce(f.p1[0].mul_acc(f.p1[1], f.p1[2].widen()));
            H::reduce(p0.mul_acc(g, p1.mul_wide(w)))
        }
    };
    weighted.sum_lanes()
}

/// The operands of [`dec_flat`] in the lanes of `H` (lane j = stream j): P_i = a b + c from
/// `p0` / `p1` = [a, b, c], and the factors x^4 + M_4 and x^8 + M_8 (only at q = 8).
struct Flat<H> {
    p0: [H; 3],
    p1: [H; 3],
    s4: H,
    s8: Option<H>,
}

/// [`Flat`] of `msg`, q = 3 ..= 8 blocks per stream of W = `H::W` streams.
#[inline(always)]
fn flat_parts<F: PrimeField, H: Lanes<F>>(p: &Powers<F>, msg: &[u8], q: usize) -> Flat<H> {
    const { assert!(H::W <= 8) };
    // Vector block k (lane j = block k of stream j): whole ones straight from `msg`, the last
    // one (partial) from a zero-padded copy, zero blocks after it.
    let vb = H::W * F::BLOCK;
    let whole = msg.len() / vb;
    let mut last = [0u8; 8 * 16];
    let tail = &msg[whole * vb..];
    if !tail.is_empty() {
        last[..tail.len()].copy_from_slice(tail);
    }
    // (An array, not a closure: a closure was not inlined into the entry point, and its
    // loads became calls of the intrinsics.)
    let mut m = [H::ZERO; 8];
    for (k, v) in m.iter_mut().enumerate() {
        *v = flat_block::<F, H>(msg, &last[..vb], whole, k);
    }
    let h = |v: F| H::splat(v);
    let (x, x2) = (p.square(0), p.square(1));
    let zero = H::ZERO;
    // P_1 = a b + c: (x + M_5)(x^2 + M_6) + M_7, M_5 x + M_6, M_5 (c = 8 takes c alone),
    // or nothing.
    let p1 = match q {
        7 | 8 => [h(x).add_block(m[4]), h(x2).add_block(m[5]), m[6]],
        6 => [m[4], h(x), m[5]],
        5 => [zero, zero, m[4]],
        _ => [zero, zero, zero],
    };
    let f = Flat {
        p0: [h(x).add_block(m[0]), h(x2).add_block(m[1]), m[2]],
        p1,
        s4: if q > 3 {
            h(p.square(2)).add_block(m[3])
        } else {
            h(F::from_u64(1))
        },
        s8: if q == 8 {
            Some(h(p.square(3)).add_block(m[7]))
        } else {
            None
        },
    };
    // (The message's own blocks, in `last` and `m`, are not wiped: no key in them.)
    f
}

/// Vector block k of [`flat_parts`]: from `msg` below `whole`, `last` at it, zero after.
#[inline(always)]
fn flat_block<F: PrimeField, H: Lanes<F>>(msg: &[u8], last: &[u8], whole: usize, k: usize) -> H {
    let vb = H::W * F::BLOCK;
    if k < whole {
        H::load(&msg[k * vb..(k + 1) * vb], false)
    } else if k == whole {
        H::load(last, false)
    } else {
        H::ZERO
    }
}

#[cfg(test)]
impl WeightTable {
    /// Checks every entry against the weights formed lane by lane in scalar code from
    /// `key`'s squarings, and that other lanes do not read the table; returns the entries.
    pub(crate) fn check<F: PrimeField, V: Lanes<F>, const S: usize>(
        &self,
        key: &Powers<F, S>,
    ) -> usize {
        let w = V::W;
        let entries = self.words.len() / V::WORDS;
        assert!(entries > 0 && entries <= WEIGHT_ENTRIES);
        for j in 0..entries {
            let mut lanes = [F::ZERO; 16];
            self.get::<F, V>(j)
                .expect("an entry")
                .store(&mut lanes[..w]);
            for (k, lane) in lanes[..w].iter().enumerate() {
                // x^2 x^((W - 1 - k) 2^j), one squaring per bit of W - 1 - k.
                let e = w - 1 - k;
                let want = (0..w.trailing_zeros() as usize)
                    .filter(|i| e >> i & 1 == 1)
                    .fold(key.square(1), |a, i| a.mul(key.square(j + i)));
                assert_eq!(lane.to_digest(), want.to_digest(), "entry {j} lane {k}");
            }
        }
        assert!(self.get::<F, V>(entries).is_none());
        // A table read as lanes of another width or radix is no table.
        let other = WeightTable {
            lanes: w * 2,
            ..self.clone()
        };
        assert!(other.get::<F, V>(0).is_none());
        entries
    }
}

/// The factor of bit i in [`lane_weights`]: x^(2^i D) (`p.square(j + i)`, D = 2^j) in the
/// lanes k where bit i of W - 1 - k is set, 1 in the others.
#[inline(always)]
fn lane_factor<F: PrimeField, V: Lanes<F>, T: KeySquares<F> + ?Sized>(
    p: &T,
    j: usize,
    i: usize,
) -> V {
    let w = V::W;
    let mut mask = 0u8;
    for k in 0..w {
        mask |= (((w - 1 - k) >> i & 1) as u8) << k;
    }
    V::splat(p.square(j + i)).lane0_or_one(mask)
}

/// Whether a one-shot message forms its lane weights before its first block (from a key's
/// squarings, all there): they then run beside the streams' products, not after them.
/// Measured TSC cycles per message with a key, IFMA, weights last vs first:
/// 4-decBRWHash1305 (8 lanes) 2 KiB 258 vs 253, 4 KiB 359 vs 353, 8 KiB 564 vs 551;
/// 4-decBRWHash1271 4 KiB 395 vs 375, 8 KiB 635 vs 614; 8-decBRWHash1305 256 B 156 vs 125,
/// 512 B 171 vs 165. Not on 4 lanes: 4-decBRWHash1305 there 256 B 129 vs 134, 512 B 150 vs
/// 164.
#[inline(always)]
const fn early_weights<F: PrimeField, V: Lanes<F>, T: KeySquares<F> + ?Sized>() -> bool {
    T::EAGER && V::FAST_PERMUTES && V::W >= 8
}

/// [`combine_lanes`] with its lane weights given. (Vector values, not wiped: see
/// [`dec_flat`].)
#[inline(always)]
fn combine_weighted<F: PrimeField, V: Lanes<F>, T: KeySquares<F> + ?Sized>(
    p: &T,
    values: V,
    weights: V,
    length: F,
) -> F {
    let sum = values.mul(weights).sum_lanes();
    sum.add(p.square(0).mul(length))
}

/// [`combine_lanes`] with the weights formed in scalar code: for lane types whose
/// `lane0_or_one` goes through memory (radix 2^26), where that was faster.
#[inline(always)]
fn combine_scalar_weights<F: PrimeField, V: Lanes<F>, T: KeySquares<F> + ?Sized>(
    p: &T,
    values: V,
    blocks: u64,
    length: F,
) -> F {
    let w = V::W;
    debug_assert!(w.is_power_of_two() && w <= 16);
    let q = blocks.div_ceil(w as u64);
    let j = (u64::BITS - q.leading_zeros()) as usize;
    // pw[k] = x^(k D) for k < W: the squarings x^(2^i D) and products between them.
    let mut pw = [F::ZERO; 16];
    pw[0] = F::from_u64(1);
    let (mut k, mut i) = (1, 0);
    while k < w {
        let s = p.square(j + i);
        pw[k] = s;
        for t in 1..k {
            pw[k + t] = pw[t].mul(s);
        }
        k *= 2;
        i += 1;
    }
    pw[..w].reverse();
    let mut weights = V::from_lanes(&pw[..w]);
    let mut weighted = values.mul(weights);
    let sum = weighted.sum_lanes();
    pw[..w].iter_mut().zeroize();
    weights.zeroize();
    weighted.zeroize();
    // x * (x * sum + L) = x^2 * sum + x * L: two independent products, one reduction.
    F::reduce(F::wide_add(
        p.square(1).mul_wide(sum),
        p.square(0).mul_wide(length),
    ))
}

/// [`combine_lanes`] for a message of `n` bytes.
#[inline(always)]
fn combine_message<F: PrimeField, V: Lanes<F>, T: KeySquares<F> + ?Sized>(
    p: &T,
    values: V,
    n: u64,
) -> F {
    combine_lanes(
        p,
        values,
        n.div_ceil(F::BLOCK as u64),
        F::from_u64(n.wrapping_mul(8)),
    )
}

/// Squarings x^(2^j) that c-decBRWHash of `len` bytes reads: the stream BRWs (q blocks each)
/// up to x^(2^(lg q)), and x^D = x^(2^(bit length of q)) with lg c squares of it for the
/// combination; at least x, x^2 and x^4 (every chunk reads x^4).
pub(crate) fn dec_squares<F: PrimeField>(len: u64, c: usize) -> usize {
    let q = len.div_ceil(F::BLOCK as u64).div_ceil(c as u64);
    ((u64::BITS - q.leading_zeros()) as usize + c.trailing_zeros() as usize).max(3)
}

/// W elements of a prime field in the lanes of a SIMD vector.
///
/// Values of an implementing type exist only inside code that runs after the backend's CPU
/// features were detected; see each backend's module documentation.
pub(crate) trait Lanes<F: PrimeField>: Field {
    /// Number of lanes: the c of the c-decBRWHash this type runs.
    const W: usize;
    /// `x` in every lane.
    fn splat(x: F) -> Self;
    /// W consecutive full blocks (exactly `W * F::BLOCK` bytes): lane j = block j, with
    /// pad1's marker 2^(8B) added when `marker` (polyHash), without (pad2) otherwise.
    fn load(bytes: &[u8], marker: bool) -> Self;
    /// The lanes as scalar elements (`out.len() == W`).
    fn store(self, out: &mut [F]);
    /// Lane j = `values[j]` (`values.len() == W`).
    fn from_lanes(values: &[F]) -> Self;
    /// Lane j = the pad2 block (no marker) of `F::BLOCK` bytes at `at + j * stride` of
    /// `bytes`, zero-padded where `bytes` ends and zero past it: block `at / F::BLOCK` of W
    /// super-blocks of `stride` bytes side by side (d-2LHash on lanes). Nothing past the end
    /// of `bytes` is read.
    #[inline(always)]
    fn load_strided(bytes: &[u8], at: usize, stride: usize) -> Self {
        let mut values = [F::ZERO; 16];
        for (j, v) in values[..Self::W].iter_mut().enumerate() {
            let pos = (at + j * stride).min(bytes.len());
            let end = (pos + F::BLOCK).min(bytes.len());
            *v = F::from_block(&bytes[pos..end], false);
        }
        Self::from_lanes(&values[..Self::W])
    }
    /// [`load_strided`](Self::load_strided) where lanes `0..lanes` have whole blocks in `bytes`
    /// (`at + (lanes - 1) * stride + F::BLOCK <= bytes.len()`) and the others are zero.
    #[inline(always)]
    fn load_strided_lanes(bytes: &[u8], at: usize, stride: usize, lanes: usize) -> Self {
        let _ = lanes;
        Self::load_strided(bytes, at, stride)
    }
    /// [`load_strided`](Self::load_strided) where every lane's 16 bytes from its block on lie
    /// in `bytes` (`at + (W - 1) * stride + 16 <= bytes.len()`): plain loads, no bounds.
    #[inline(always)]
    fn load_strided_whole(bytes: &[u8], at: usize, stride: usize) -> Self {
        Self::load_strided(bytes, at, stride)
    }
    /// 64-bit words that hold one value (a vector cached in a key).
    const WORDS: usize;
    /// The value as `WORDS` words.
    fn to_words(self, out: &mut [u64]);
    /// A value from `to_words`' words.
    fn from_words(words: &[u64]) -> Self;

    /// Vector blocks up to which a one-shot `poly_exact` computes only the powers of groups
    /// of 4 (`ShortPowers`, or those of `short_estrin`) rather than the table of 8: where reductions are cheap (radix
    /// 2^44), a longer run of smaller groups costs less than the table's extra products,
    /// stores and wipe (measurements at `ShortPowers`).
    const SHORT_VECTORS: usize = 16;

    /// Whether a one-shot `poly_exact` of at most `SHORT_VECTORS` vector blocks takes the
    /// vector blocks by Estrin's scheme in x^W (`short_estrin`: fewer products, more
    /// reductions) rather than with the lane powers of `ShortPowers`.
    const SHORT_ESTRIN: bool = false;

    /// Whether a whole polyHash / Poly1305 message of at least `polyhash::LOCAL_TABLE_FROM`
    /// vector blocks copies a key's power table to the stack before its groups, rather than
    /// reading the table where the key holds it (measurements there).
    const LOCAL_TABLE: bool = false;

    /// Whether `lane0_or_one` and `shift_up` run in registers (else they go through memory,
    /// and scalar powers and scalar loads are faster).
    const FAST_PERMUTES: bool = false;

    /// Lane j = lane 0 of `self` where bit j of `mask` is set, else 1 (the steps of
    /// [`Lanes::ladder`]).
    #[inline(always)]
    fn lane0_or_one(self, mask: u8) -> Self {
        let mut values = [F::ZERO; 16];
        self.store(&mut values[..Self::W]);
        let first = values[0];
        for (j, v) in values[..Self::W].iter_mut().enumerate() {
            *v = if mask >> j & 1 == 1 {
                first
            } else {
                F::from_u64(1)
            };
        }
        let r = Self::from_lanes(&values[..Self::W]);
        values.zeroize();
        r
    }

    /// Lane j = lane j of `self` where bit j of `mask` is set, else 1 (the in-vector
    /// factors of a flat BRW tree, `construct::twolevel`).
    #[inline(always)]
    fn keep_or_one(self, mask: u8) -> Self {
        let mut values = [F::ZERO; 16];
        self.store(&mut values[..Self::W]);
        for (j, v) in values[..Self::W].iter_mut().enumerate() {
            if mask >> j & 1 == 0 {
                *v = F::from_u64(1);
            }
        }
        let r = Self::from_lanes(&values[..Self::W]);
        values.zeroize();
        r
    }

    /// Lane j = lane j - z for j >= z, zero below (z < W): the head vector block of
    /// `poly_exact` from a whole one.
    #[inline(always)]
    fn shift_up(self, z: usize) -> Self {
        let mut values = [F::ZERO; 16];
        self.store(&mut values[z..Self::W + z]);
        for v in &mut values[..z] {
            *v = F::ZERO;
        }
        Self::from_lanes(&values[..Self::W])
    }

    /// Lane j = x^(W - j), computed in the lanes ([`lane_ladder`] unless a lane type has a
    /// cheaper way).
    #[inline(always)]
    fn ladder(x: F) -> Self {
        lane_ladder(x)
    }

    /// `self`^2 for a value whose lanes are all equal (a splat power of a power chain): every
    /// lane of the result is that square. A lane type may square fewer lanes and broadcast.
    #[inline(always)]
    fn square_splat(self) -> Self {
        self.square_chain()
    }

    /// The sum of the lanes (of a reduced value).
    #[inline(always)]
    fn sum_lanes(self) -> F {
        let mut values = [F::ZERO; 16];
        self.store(&mut values[..Self::W]);
        let mut sum = values[0];
        for &v in &values[1..Self::W] {
            sum = sum.add(v);
        }
        sum
    }
}

/// [`Lanes::ladder`] on all W lanes: lg W products, each lane multiplied by x^(2^i) (lane 0's
/// value after step i) where bit i of W - 1 - j is set.
#[inline(always)]
pub(crate) fn lane_ladder<F: PrimeField, V: Lanes<F>>(x: F) -> V {
    let mut cur = V::splat(x);
    let mut i = 0;
    while 1 << i < V::W {
        let mut mask = 0u8;
        for j in 0..V::W {
            mask |= (((V::W - 1 - j) >> i & 1) as u8) << j;
        }
        cur = cur.mul_chain(cur.lane0_or_one(mask));
        i += 1;
    }
    cur
}

/// Key powers broadcast into lanes as they are needed: x and x^2 once, a stack factor
/// x^(2^j) once per chunk; or (a stream's state, [`cached`](Splat::cached)) x .. x^8
/// broadcast once for the whole stream and read from the state where they are used.
struct Splat<'a, F: PrimeField, V: Lanes<F>, T: KeySquares<F> + ?Sized, X: AsRef<[V]> = [V; 2]> {
    /// x^(2^j) in every lane for j < `xs.len()`.
    xs: X,
    sq: &'a T,
    _field: PhantomData<(F, V)>,
}

/// x^(2^j) broadcast for j < `CACHED_SQUARES`, kept by a stream's state ([`Splat::cached`]).
const CACHED_SQUARES: usize = 4;

impl<'a, F: PrimeField, V: Lanes<F>, T: KeySquares<F> + ?Sized> Splat<'a, F, V, T> {
    #[inline(always)]
    fn new(p: &'a T) -> Self {
        Splat {
            xs: [V::splat(p.square(0)), V::splat(p.square(1))],
            sq: p,
            _field: PhantomData,
        }
    }
}

impl<'a, F: PrimeField, V: Lanes<F>, T: KeySquares<F> + ?Sized>
    Splat<'a, F, V, T, &'a [V; CACHED_SQUARES]>
{
    /// As `new`, broadcasting x .. x^8 only the first time for a state (`cache`), and
    /// reading them from it: a stream's updates then neither broadcast nor copy them.
    /// (x and x^2 copied out of the state, and x^4 and x^8 broadcast, in every update took
    /// 39 of its instructions.)
    #[inline(always)]
    fn cached(cache: &'a mut Option<[V; CACHED_SQUARES]>, p: &'a T) -> Self {
        // (Not `get_or_insert_with`: it was not always inlined into the backends' entry
        // points, and a call of it, outside their target features, in every update cost
        // 8-decBRWHash1305 a third more at 4 KiB.)
        let xs = match cache {
            Some(xs) => xs,
            None => cache.insert([
                V::splat(p.square(0)),
                V::splat(p.square(1)),
                V::splat(p.square(2)),
                V::splat(p.square(3)),
            ]),
        };
        Splat {
            xs,
            sq: p,
            _field: PhantomData,
        }
    }
}

impl<F: PrimeField, V: Lanes<F>, T: KeySquares<F> + ?Sized, X: AsRef<[V]>> Splat<'_, F, V, T, X> {
    /// Between chunks: the next lazy squaring, if any ([`KeySquares::step`]).
    #[inline(always)]
    fn step(&self) {
        self.sq.step();
    }
}

impl<F: PrimeField, V: Lanes<F>, T: KeySquares<F> + ?Sized, X: AsRef<[V]>> SqTable<V>
    for Splat<'_, F, V, T, X>
{
    #[inline(always)]
    fn sq(&self, j: usize) -> V {
        match self.xs.as_ref().get(j) {
            Some(&v) => v,
            None => V::splat(self.sq.square(j)),
        }
    }
}

/// The one-shot dispatch of [`DecLanes`] and [`DecPeriods`] (c streams): `p` holds the
/// squarings `known` (x, x^2, ..). A key's powers (`complete`) hold every squaring its
/// messages need, so that instantiation is the plain path alone, the code of the keyed entry
/// point; a raw key's first few squarings are completed between chunks ([`LazySquares`],
/// where `lazy`) or first. A macro, not a generic function or trait: the same code in both
/// states, and a trait version measured 40% slower (one-shot 8-decBRWHash1305 at 1-4 KiB,
/// code placement).
macro_rules! one_shot_on_squares {
    ($p:expr, $known:expr, complete = $complete:expr, $msg:expr, $c:expr, lazy = $lazy:expr) => {{
        let (p, known, msg) = ($p, $known, $msg);
        let want = dec_squares::<F>(msg.len() as u64, $c);
        if $complete || known.len() >= want {
            debug_assert!(known.len() >= want);
            return Self::one_shot_with(p, msg);
        }
        if $lazy {
            return Self::one_shot_with(&LazySquares::new(known, want), msg);
        }
        let mut sq = [F::ZERO; 32];
        let n = fill_squares(&mut sq, known, want);
        let v = Self::one_shot_with(&sq[..n], msg);
        sq[..n].iter_mut().zeroize();
        v
    }};
}

/// Messages from this length on compute their squarings before the first block, not
/// between chunks ([`LazySquares`]): the chain is then short against the message, and the
/// lazy table's checks in every chunk cost more (measured one-shot 8-decBRWHash1305, TSC
/// cycles/byte, lazy vs first: 0.555 vs 0.689 at 1 KiB, 0.199 vs 0.240 at 4 KiB, 0.107 vs
/// 0.113 at 16 KiB, 0.082-0.085 vs 0.078-0.079 at 64 KiB).
const LAZY_MAX_BYTES: usize = 32 << 10;

/// Largest chunk of 4 vector blocks: c = 16 lanes of 16-byte blocks.
const MAX_CHUNK_BYTES: usize = 4 * MAX_VBLOCK_BYTES;
/// Bytes of the largest vector block (16 lanes of 16-byte blocks).
const MAX_VBLOCK_BYTES: usize = 16 * 16;

/// c-decBRWHash with c = `V::W`, all streams in the lanes of `V`: vector block i holds blocks
/// c*i+1 .. c*i+c, and the stack BRW algorithm runs lane-wise on chunks of 4 vector blocks.
pub(crate) struct DecLanes<F: PrimeField, V: Lanes<F>> {
    /// Bytes of an incomplete chunk (on the heap: a buffer inside the state cost a zero
    /// fill and a copy of the state whenever a stream built one).
    held: Tail<MAX_CHUNK_BYTES>,
    /// Message bytes N.
    n: u64,
    brw: BrwChunks<V, 4>,
    /// x .. x^8 in every lane, once broadcast ([`Splat::cached`]).
    xs: Option<[V; CACHED_SQUARES]>,
    _field: PhantomData<F>,
}

impl<F: PrimeField, V: Lanes<F>> Default for DecLanes<F, V> {
    #[inline(always)]
    fn default() -> Self {
        DecLanes {
            held: Tail::default(),
            n: 0,
            brw: BrwChunks::default(),
            xs: None,
            _field: PhantomData,
        }
    }
}

// Copies in place, the stack's live entries only (`Stack`'s `Clone`): a stream's
// `Hasher::finalize` finishes a copy. The copy broadcasts x .. x^8 again (`xs` is not
// copied).
clone_in_place!([F: PrimeField, V: Lanes<F>] DecLanes<F, V> { held, n, brw });

/// Chunks left in an update from which [`DecLanes`] takes four at a time
/// (`BrwChunks::push_chunk_quad`). Measured with a timing loop (TSC cycles/byte, IFMA, against
/// single chunks): 8-decBRWHash1305 with a key 4 KiB 0.141 -> 0.136, 64 KiB 0.067 -> 0.057.
/// From 4 chunks, 8-decBRWHash1305 with a key measured 0.20-0.29 at 2 KiB (0.21-0.22 in
/// single chunks) depending on the build, and one-shot 4-decBRWHash1305 on 4 ymm lanes at
/// 1 KiB lost 8-13%.
const QUAD_RUN: usize = 8;

impl<F: PrimeField, V: Lanes<F>> DecLanes<F, V> {
    /// Bytes of one vector block and of one chunk (4 vector blocks).
    const VBLOCK: usize = V::W * F::BLOCK;
    const CHUNK_BYTES: usize = 4 * Self::VBLOCK;

    /// Whether a stream's updates take pairs of chunks ([`run`](Self::run)): for 2^127-1
    /// (15-byte blocks), whose chunks never end on an update of a power-of-two size. TSC
    /// cycles per streamed message, 4 IFMA lanes, singles vs pairs: 4-decBRWHash1271 64 KiB
    /// in 4 KiB updates 8812 vs 8686, in 1500-byte updates 10924 vs 10519, 6000 B 1388 vs
    /// 1333; 4-decBRWHash1305 in 1500-byte updates 64 KiB 10148 vs 10054 but 3000 B 870 vs
    /// 911 and 4500 B 1094 vs 1118, so not for 2^130-5.
    const STREAM_PAIRS: bool = F::BLOCK == 15;

    #[inline(always)]
    fn chunk(bytes: &[u8]) -> [V; 4] {
        let vb = Self::VBLOCK;
        [
            V::load(&bytes[..vb], false),
            V::load(&bytes[vb..2 * vb], false),
            V::load(&bytes[2 * vb..3 * vb], false),
            V::load(&bytes[3 * vb..4 * vb], false),
        ]
    }

    #[inline(always)]
    pub fn update<T: KeySquares<F> + ?Sized>(&mut self, p: &T, data: &[u8]) {
        const { assert!(Self::CHUNK_BYTES <= MAX_CHUNK_BYTES) };
        self.n += data.len() as u64;
        let table = Splat::<F, V, T, _>::cached(&mut self.xs, p);
        let brw = &mut self.brw;
        let end = end_of(data);
        self.held.feed_runs(
            Self::CHUNK_BYTES,
            data,
            #[inline(always)]
            // A stream is past its hold length (it is long) and more updates may follow:
            // quads to the end of every run. (With `more` = 0 the last 4 chunks of every
            // update went singly: 4-decBRWHash1305 on 4 IFMA lanes, 64 KiB in 4 KiB updates,
            // 7924 -> 7557 TSC cycles per message.)
            |run| Self::run(brw, &table, run, end, QUAD_RUN, Self::STREAM_PAIRS),
        );
    }

    /// Whole chunks (`run`, a multiple of a chunk): four at a time from a chunk count that
    /// is a multiple of 4 (`BrwChunks::push_chunk_quad`, each vector block loaded where it is
    /// used), single chunks up to it and after, or where `pairs` (a stream's updates), two at
    /// a time from an even count (`BrwChunks::push_chunk_pair`: 2^127-1's 240-byte chunks
    /// never end on a 4 KiB update). `end`: the end of the caller's data, which bounds the
    /// prefetches; `more`: chunks that follow `run` (which count towards [`QUAD_RUN`]).
    #[inline(always)]
    fn run<T: KeySquares<F> + ?Sized, X: AsRef<[V]>>(
        brw: &mut BrwChunks<V, 4>,
        table: &Splat<'_, F, V, T, X>,
        mut run: &[u8],
        end: usize,
        more: usize,
        pairs: bool,
    ) {
        let (cb, vb) = (Self::CHUNK_BYTES, Self::VBLOCK);
        while !run.is_empty() {
            if brw.chunks().is_multiple_of(4)
                && run.len() >= 4 * cb
                && run.len() + more * cb >= QUAD_RUN * cb
            {
                let (quad, rest) = run.split_at(4 * cb);
                prefetch_ahead::<TO_L2>(quad, end);
                brw.push_chunk_quad(
                    table,
                    #[inline(always)]
                    |d, j| V::load(&quad[d * cb + j * vb..][..vb], false),
                    #[inline(always)]
                    || table.step(),
                );
                run = rest;
            } else if pairs && brw.chunks().is_multiple_of(2) && run.len() >= 2 * cb {
                let (pair, rest) = run.split_at(2 * cb);
                prefetch_ahead::<TO_L2>(pair, end);
                brw.push_chunk_pair(
                    table,
                    #[inline(always)]
                    |d, j| V::load(&pair[d * cb + j * vb..][..vb], false),
                    #[inline(always)]
                    || table.step(),
                );
                run = rest;
            } else {
                let (chunk, rest) = run.split_at(cb);
                prefetch_ahead::<TO_L2>(chunk, end);
                brw.push_chunk(table, &Self::chunk(chunk));
                table.step();
                run = rest;
            }
        }
    }

    /// The value v before `out()` (the state is used up).
    #[inline(always)]
    pub fn finish<T: KeySquares<F> + ?Sized>(&mut self, p: &T) -> F {
        let values = self.value_lanes(p);
        combine_message(p, values, self.n)
    }

    /// Wipe what derives from the key (the BRW stack, the broadcast x and x^2), not the
    /// message's blocks and bytes: the cheap wipe of a one-shot state.
    #[inline(always)]
    fn wipe_secrets(&mut self) {
        self.brw.wipe_stack();
        if let Some(xs) = &mut self.xs {
            xs.zeroize();
        }
        self.xs = None;
    }

    /// The stream values Q_1..Q_c in the lanes.
    #[inline(always)]
    fn value_lanes<T: KeySquares<F> + ?Sized>(&mut self, p: &T) -> V {
        let table = Splat::<F, V, T, _>::cached(&mut self.xs, p);
        // The last vector blocks (at most a chunk), zero-padded: zero blocks fill the streams
        // to q blocks each, and a short last block is le() of its bytes.
        let vb = Self::VBLOCK;
        let held = self.held.padded(vb);
        self.brw.finish_with(
            &table,
            held.len() / vb,
            #[inline(always)]
            |j| V::load(&held[j * vb..(j + 1) * vb], false),
        )
    }

    /// The value v of a whole message with a key's powers, the state on the caller's stack
    /// (its key-derived parts wiped after).
    #[inline(always)]
    pub fn one_shot(p: &Powers<F>, msg: &[u8]) -> F {
        one_shot_on_squares!(p, p.squares(), complete = true, msg, V::W, lazy = false)
    }

    /// [`one_shot`](Self::one_shot) from a raw key's first squarings `known` (x, x^2, ..):
    /// the others are computed between chunks ([`LazySquares`]) below [`LAZY_MAX_BYTES`],
    /// else first. (No `Powers` on the stack: its Horner arrays, zeroed for nothing, cost a
    /// `memset` of 768 bytes per message.)
    #[inline(always)]
    pub fn one_shot_raw(known: &[F], msg: &[u8]) -> F {
        one_shot_on_squares!(
            known,
            known,
            complete = false,
            msg,
            V::W,
            lazy = msg.len() < LAZY_MAX_BYTES
        )
    }

    /// [`one_shot`](Self::one_shot) with the squarings at hand: chunks, then vector blocks
    /// straight from `msg`, the last partial vector block zero-padded, and no streaming
    /// state (measured when the state held a zeroed kilobyte of bytes, copied into and moved
    /// whole). TSC cycles/byte with a key, state vs none: 4-decBRWHash1305 on 4 IFMA
    /// lanes 128 B 1.29 vs 1.03, 512 B 0.374 vs 0.326, 1 KiB 0.242 vs 0.220; 8-decBRWHash1305
    /// 256 B 1.07 vs 0.94, 1 KiB 0.302 vs 0.282 (and from 8 chunks, where a state was still
    /// built, 4 KiB 461 vs 454 TSC cycles per message).
    #[inline(always)]
    fn one_shot_with<T: KeySquares<F> + ?Sized>(p: &T, msg: &[u8]) -> F {
        let n = msg.len() as u64;
        let mut brw = BrwChunks::<V, 4>::default();
        let cb = Self::CHUNK_BYTES;
        let v = if early_weights::<F, V, T>() && !msg.is_empty() && msg.len().is_multiple_of(cb) {
            // Whole chunks: the weights ride on the last chunk's product.
            let mut weights = lane_weights::<F, V, T>(p, n.div_ceil(F::BLOCK as u64));
            let mut table = Splat::<F, V, T>::new(p);
            let (head, last) = msg.split_at(msg.len() - cb);
            Self::run(&mut brw, &table, head, end_of(msg), 1, false);
            let mut weighted = brw.finish_chunk_weighted(&table, &Self::chunk(last), weights);
            let v = weighted
                .sum_lanes()
                .add(p.square(0).mul(F::from_u64(n.wrapping_mul(8))));
            weighted.zeroize();
            weights.zeroize();
            table.xs.zeroize();
            v
        } else if early_weights::<F, V, T>() {
            let weights = lane_weights::<F, V, T>(p, n.div_ceil(F::BLOCK as u64));
            let values = Self::whole_values(&mut brw, p, msg);
            combine_weighted(p, values, weights, F::from_u64(n.wrapping_mul(8)))
        } else {
            combine_message(p, Self::whole_values(&mut brw, p, msg), n)
        };
        brw.wipe_stack();
        v
    }

    /// The stream values of a whole message in the lanes, `brw` (fresh) left to wipe.
    #[inline(always)]
    fn whole_values<T: KeySquares<F> + ?Sized>(brw: &mut BrwChunks<V, 4>, p: &T, msg: &[u8]) -> V {
        let (vb, cb) = (Self::VBLOCK, Self::CHUNK_BYTES);
        let mut table = Splat::<F, V, T>::new(p);
        // A raw key's next squarings start before the first chunk (`LazySquares::step`).
        table.step();
        let whole = msg.len() / cb * cb;
        Self::run(brw, &table, &msg[..whole], end_of(msg), 0, false);
        // Then at most 3 whole vector blocks and a partial one: zero blocks fill the streams
        // to q blocks each, and a short last block is le() of its bytes.
        let rest = &msg[whole..];
        let full = rest.len() / vb;
        let mut last = [0u8; MAX_VBLOCK_BYTES];
        let partial = &rest[full * vb..];
        // (A call of `memcpy`, even for no bytes.)
        if !partial.is_empty() {
            last[..partial.len()].copy_from_slice(partial);
        }
        let values = brw.finish_with(
            &table,
            rest.len().div_ceil(vb),
            #[inline(always)]
            |j| {
                if j < full {
                    V::load(&rest[j * vb..(j + 1) * vb], false)
                } else {
                    V::load(&last[..vb], false)
                }
            },
        );
        table.xs.zeroize();
        values
    }

    /// The stream values of a whole message (multi-core hashing joins them per stream).
    #[cfg(feature = "parallel")]
    #[inline(always)]
    pub fn stream_values<const S: usize>(p: &Powers<F, S>, msg: &[u8]) -> [F; 16] {
        let mut brw = BrwChunks::<V, 4>::default();
        let mut lanes = Self::whole_values(&mut brw, p, msg);
        brw.wipe_stack();
        let mut values = [F::ZERO; 16];
        lanes.store(&mut values[..V::W]);
        lanes.zeroize();
        values
    }
}

#[cfg(test)]
impl<F: PrimeField, V: Lanes<F>> DecLanes<F, V> {
    /// Whether the state is as wiped, but for the vectors (only entry points read them).
    pub fn is_wiped(&self) -> bool {
        self.held.is_wiped() && self.n == 0 && self.xs.is_none() && self.brw.is_wiped()
    }
}

/// Wipes the BRW state, the broadcast key powers and the bytes held: the state of
/// `DecLanes::default()`. (Only inside the backend's entry points: it holds vectors.)
impl<F: PrimeField, V: Lanes<F>> Zeroize for DecLanes<F, V> {
    #[inline(always)]
    fn zeroize(&mut self) {
        self.wipe_secrets();
        self.held.zeroize();
        self.n = 0;
        self.brw.zeroize();
    }
}

/// An 8-lane type whose halves are a 4-lane type: for 4-decBRWHash on 8 lanes.
pub(crate) trait Halves<F: PrimeField>: Lanes<F> {
    /// The 4-lane type.
    type Half: Lanes<F>;
    /// Lanes 0-3 from `lo`, lanes 4-7 from `hi`.
    fn join(lo: Self::Half, hi: Self::Half) -> Self;
    /// Two 4-lane vector blocks of pad2 blocks (`4 * F::BLOCK` bytes each) as one:
    /// `join(Half::load(lo), Half::load(hi))`, which a type may do faster.
    #[inline(always)]
    fn load_pair(lo: &[u8], hi: &[u8]) -> Self {
        Self::join(Self::Half::load(lo, false), Self::Half::load(hi, false))
    }
    /// Lanes 0-3 of `w` in lanes 4-7 (lanes 0-3 of the result are unspecified).
    fn low_to_high(w: Self::Wide) -> Self::Wide;
    /// Lanes 4-7 of `v` in lanes 0-3 (lanes 4-7 of the result are unspecified).
    fn high_to_low(v: Self) -> Self;
    /// Lanes 0-3 of `lo`, lanes 4-7 of `hi`.
    fn blend(lo: Self, hi: Self) -> Self;
    /// [`blend`](Self::blend) of unreduced values.
    fn blend_wide(lo: Self::Wide, hi: Self::Wide) -> Self::Wide;
    /// Lanes 4-7 as a 4-lane value.
    fn upper_wide(w: Self::Wide) -> <Self::Half as Field>::Wide;
    /// The W blocks (pad2, no marker) of `F::BLOCK` bytes from `at` of `bytes`, zero-padded
    /// where `bytes` ends and zero past it: `load_strided` with stride `F::BLOCK`, which a
    /// type may do faster.
    #[inline(always)]
    fn load_tail(bytes: &[u8], at: usize) -> Self {
        Self::load_strided(bytes, at, F::BLOCK)
    }
}

/// Most chunks (4 blocks of each stream) in each half of a [`DecPeriods`] period: one extra
/// product per 8 KiB (measured at 1 MiB, precomputed key, TSC cycles/byte: 0.071 with 16,
/// 0.079 with 8, 0.082 with 4 chunks per half).
const MAX_HALF_CHUNKS: usize = 16;
/// Fewest chunks in each half of a streamed period: an update runs periods of at least 2 x 8
/// chunks and holds what is left (fewer than 16 chunks) for the next one, which starts its
/// first period with the held chunks and goes on in its own bytes. Greedy shorter periods at
/// the end of every update left the chunk count unaligned, so the next update began with
/// periods of 1, 2, 4 .. chunks, each with its extra product (measured 4-decBRWHash1271 at
/// 64 KiB, TSC cycles/byte, greedy vs this: 4 KiB updates 0.111-0.113 vs 0.102-0.107, 1000-
/// byte updates 0.175 vs 0.149). Holding costs a copy: 4-decBRWHash1305 in 3840-byte updates
/// (15 chunks) copies most bytes, 0.092-0.100 at 1 MiB against 0.077 in 4 KiB updates.
const MIN_STREAM_HALF_CHUNKS: usize = 8;
/// Bytes held between updates: fewer than 2 x [`MIN_STREAM_HALF_CHUNKS`] chunks of 4 blocks of
/// 4 streams of 16 bytes.
const STREAM_HELD_BYTES: usize = 2 * MIN_STREAM_HALF_CHUNKS * 4 * 4 * 16;

/// Inline stack entries of a whole message's [`Periods`]: after c chunks of each stream the
/// stack holds one entry per 1 bit of c / 2 (the shorter periods at the end of a message add
/// theirs), so 12 serve every message below 2^13 chunks (2 MiB of 16-byte blocks) without a
/// heap entry. A spill allocates 64-byte-aligned memory, glibc's slow path: with 4 inline
/// entries a 62-chunk message (16000 B) took 353 TSC cycles more than one of 60 chunks, with
/// a key (4-decBRWHash1305 16000 B 2156 against 1769 at 16384 B).
const WHOLE_STACK: usize = 12;

/// Inline stack entries of a streamed [`DecPeriods`] state, which is built per message (an
/// entry is up to 384 bytes): its updates run periods of at least 16 chunks, one entry per 1
/// bit of their count, and the held chunks at most 3 shorter periods at the end, so 8 spill
/// only from 63 periods (about 250 KiB). With 6, messages from 15 periods (56 KiB of 15-byte
/// blocks) spilled: a 64-byte-aligned allocation and its wipe, more than the 1% it had been
/// thought to cost. Zen 4, timing loop, one `Hasher` per message in one update, min TSC
/// cycles over 5 alternating runs, 6 -> 8: 4-decBRWHash1305 65280 B 8008 -> 7280 (with a key
/// 6656), 4-decBRWHash1271 65280 B 7306 -> 7123; 61440 B (15 whole periods, nothing held)
/// unchanged.
const STREAM_STACK: usize = 8;

/// The chunk count and the stack of a [`DecPeriods`] evaluation (entries valid in lanes 4-7),
/// with `N` inline stack entries.
struct Periods<V: Field, const N: usize> {
    /// Chunks of each stream done: a multiple of the period just done.
    chunks: u64,
    /// One entry per 1 bit of the period count ([`WHOLE_STACK`], [`STREAM_STACK`]).
    stack: Stack<V::Wide, N>,
    /// The stack BRW within a period, reused by every period (each ends with it empty) so
    /// that its slots (products with key powers) are wiped once per message, not once per
    /// period (a wipe per period cost 5-7%: 4-decBRWHash1305 with a key, 4 KiB and 1 MiB).
    /// The wipe per message costs 20-40 TSC cycles on IFMA (4 KiB with a key: 540 -> 566
    /// for 4-decBRWHash1305, 578 -> 616 for 4-decBRWHash1271). A period of 2s chunks per
    /// stream holds at most lg s = 4 entries.
    brw: BrwChunks<V, 4, 4>,
}

impl<V: Field, const N: usize> Default for Periods<V, N> {
    #[inline(always)]
    fn default() -> Self {
        Periods {
            chunks: 0,
            stack: Stack::default(),
            brw: BrwChunks::default(),
        }
    }
}

// Copies in place (see `Stack`'s `Clone`).
clone_in_place!([V: Field, const N: usize] Periods<V, N> { chunks, stack, brw });

/// Wipes both stacks: no chunks done.
impl<V: Field, const N: usize> Zeroize for Periods<V, N> {
    #[inline(always)]
    fn zeroize(&mut self) {
        self.chunks = 0;
        self.stack.zeroize();
        self.brw.zeroize();
    }
}

impl<V: Field, const N: usize> Periods<V, N> {
    /// One period of 2s chunks per stream (s a power of two, the chunk count a multiple of
    /// 2s): lanes 0-3 take chunks 1..s of it from the first half of `bytes`, lanes 4-7 chunks
    /// s+1..2s from the second, as one 8-lane stack BRW whose chunk numbers have the same
    /// trailing zeros in both halves until chunk s. Chunk s (lanes 0-3) closes its half;
    /// chunk 2s (lanes 4-7) closes its half, chunk s's product and the stack entries of
    /// earlier periods it completes: two products, the second taking the first.
    /// `end`: the end of the caller's data, which bounds the prefetches of the next period.
    /// `weight`: see [`period_with`](Self::period_with).
    #[inline(always)]
    fn period<F: PrimeField, T: KeySquares<F> + ?Sized, X: AsRef<[V]>>(
        &mut self,
        t: &Splat<'_, F, V, T, X>,
        bytes: &[u8],
        s: usize,
        end: usize,
        weight: Option<V>,
    ) -> Option<V::Wide>
    where
        V: Halves<F>,
    {
        let chunk_bytes = 16 * F::BLOCK;
        let (lo, hi) = bytes.split_at(s * chunk_bytes);
        // Whether the next period (of this length) lies wholly in the data: then its lines
        // are prefetched without a bound check per line (1-3% at 64 KiB). The prefetches
        // matter for input from memory: 4-decBRWHash1305 over 64 MiB with a key took 0.081
        // TSC cycles/byte with them, 0.149 without.
        let whole = end_of(bytes) + 2 * s * chunk_bytes <= end;
        self.period_with(
            t,
            s,
            weight,
            #[inline(always)]
            |c, j| load_half_vector::<F, V>(&lo[c * chunk_bytes..], &hi[c * chunk_bytes..], j),
            // Chunk c of both halves of the next period (of the same length), as chunk c of
            // this one is loaded: the halves are two streams the hardware prefetchers miss.
            #[inline(always)]
            |c| {
                if whole {
                    prefetch_lines::<TO_L2>(lo, 2 * s * chunk_bytes + c * chunk_bytes, chunk_bytes);
                    prefetch_lines::<TO_L2>(hi, 2 * s * chunk_bytes + c * chunk_bytes, chunk_bytes);
                } else {
                    prefetch::<TO_L2>(lo, 2 * s * chunk_bytes + c * chunk_bytes, chunk_bytes, end);
                    prefetch::<TO_L2>(hi, 2 * s * chunk_bytes + c * chunk_bytes, chunk_bytes, end);
                }
            },
        )
    }

    /// [`period`](Self::period) on chunks from anywhere: `load(c, q)` is vector block q of
    /// chunk c of both halves (c < s), and `next(c)` prefetches what the next period will
    /// load with it.
    ///
    /// With a `weight` the period is the message's last: the result is then, in lanes 4-7,
    /// the sum of the period's product and the stack entries it does not close, each times
    /// the weight (lanes 0-3 and 4-7 of the weight alike), unreduced; nothing is pushed. The
    /// weight rides on the period's right factor, ready once its last blocks are loaded, so
    /// it costs no product after the message's last one (see `BrwChunks::
    /// finish_chunk_weighted`).
    #[inline(always)]
    fn period_with<F: PrimeField, T: KeySquares<F> + ?Sized, X: AsRef<[V]>>(
        &mut self,
        t: &Splat<'_, F, V, T, X>,
        s: usize,
        weight: Option<V>,
        load: impl Fn(usize, usize) -> V,
        next: impl Fn(usize),
    ) -> Option<V::Wide>
    where
        V: Halves<F>,
    {
        let brw = &mut self.brw;
        brw.restart();
        let mut c = 0;
        // Pairs of chunks (`BrwChunks::push_chunk_pair`), loaded whole before their products
        // (joining the halves takes permutes, whose latency the early loads hide: measured
        // faster than loading each vector block where it is used, unlike `DecLanes`).
        // Timing loop, TSC cycles/byte with a key, against single chunks: 64 KiB 0.068 ->
        // 0.061, 4 KiB 0.122 -> 0.118. Quads (as `DecLanes`) measured 0.061 at 64 KiB too,
        // but made one-shot 4 KiB 8% slower.
        while c + 2 < s {
            next(c);
            next(c + 1);
            let chunks = [chunk4(&load, c), chunk4(&load, c + 1)];
            brw.push_chunk_pair(
                t,
                #[inline(always)]
                |d, j| chunks[d][j],
                #[inline(always)]
                || t.step(),
            );
            c += 2;
        }
        while c + 1 < s {
            next(c);
            brw.push_chunk(t, &chunk4(&load, c));
            t.step();
            c += 1;
        }
        next(s - 1);
        let last = chunk4(&load, s - 1);
        let e = s.trailing_zeros() as usize;
        let tmp = brw.close(t, &last);
        // Lanes 0-3: chunk s of the period, k = lg s: first = tmp g, g = x^(2^(2+e)) + m.
        // Lanes 4-7: chunk 2s, k = lg s + 1 + ntz(period number + 1): (tmp + first + the
        // entries popped) f, f = x^(2^(3+e+j)) + m'. As (tmp + popped) f + tmp (g f), with
        // g f ready once the last blocks are loaded: one 8-lane product whose lanes 0-3
        // take tmp (g f) and lanes 4-7 (tmp + popped) f, then a lane move and a sum, where
        // first and the join's product were two products in turn, each on 4 lanes
        // (IFMA, TSC cycles per message with a key: 4-decBRWHash1305 64 KiB 3333 -> 3268,
        // 1 MiB 52735 -> 51909; 4-decBRWHash1271 1 MiB 57973 -> 57352; AVX-512F even).
        let j = (self.chunks / (2 * s as u64) + 1).trailing_zeros() as usize;
        let f = last[3].add(t.sq(3 + e + j));
        let gf = V::reduce(last[3].add(t.sq(2 + e)).mul_wide(V::high_to_low(f)));
        let mut sum = tmp;
        for _ in 0..j {
            sum = V::wide_add(sum, self.stack.pop());
        }
        if let Some(w) = weight {
            // The entries the period does not close are weighted beside its product.
            let both = V::reduce(V::blend_wide(tmp, sum)).mul_wide(V::blend(gf, f).mul(w));
            let mut total = V::wide_add(both, V::low_to_high(both));
            for (i, &e) in self.stack.iter().enumerate() {
                total = V::wide_add(total, V::reduce(e).mul_wide(w));
                // Within the field's headroom for sums of products, however long the stack.
                if i % 8 == 7 {
                    total = V::reduce(total).widen();
                }
            }
            self.chunks += 2 * s as u64;
            return Some(total);
        }
        let both = V::reduce(V::blend_wide(tmp, sum)).mul_wide(V::blend(gf, f));
        let product = V::wide_add(both, V::low_to_high(both));
        // An entry is up to two products, and a sum above adds up to lg s + 2 products and
        // the entries popped: deep entries are stored reduced, within the field's headroom.
        if 2 * self.stack.len() + e + 6 < V::WIDE_SUM_LIMIT {
            self.stack.push(product);
        } else {
            self.stack.push(V::reduce(product).widen());
        }
        self.chunks += 2 * s as u64;
        None
    }

    /// The longest period (2s chunks, s a power of two from `min_half` to
    /// [`MAX_HALF_CHUNKS`]) that `chunks` chunks hold and the chunk count allows (a period of
    /// 2s chunks starts at a multiple of 2s), if any.
    #[inline(always)]
    fn longest(&self, chunks: usize, min_half: usize) -> Option<usize> {
        let mut s = MAX_HALF_CHUNKS;
        while s > min_half && (chunks < 2 * s || !self.chunks.is_multiple_of(2 * s as u64)) {
            s /= 2;
        }
        (chunks >= 2 * s && self.chunks.is_multiple_of(2 * s as u64)).then_some(s)
    }

    /// Periods as long as `bytes` holds them, each the longest (see [`longest`]) with at least
    /// `min_half` chunks in each half: what is left is shorter than 2 * `min_half` chunks
    /// (when the chunk count is a multiple of that).
    ///
    /// [`longest`]: Self::longest
    #[inline(always)]
    fn run<'b, F: PrimeField, T: KeySquares<F> + ?Sized, X: AsRef<[V]>>(
        &mut self,
        t: &Splat<'_, F, V, T, X>,
        mut bytes: &'b [u8],
        min_half: usize,
    ) -> &'b [u8]
    where
        V: Halves<F>,
    {
        let chunk_bytes = 16 * F::BLOCK;
        let end = end_of(bytes);
        while let Some(s) = self.longest(bytes.len() / chunk_bytes, min_half) {
            let period = 2 * s * chunk_bytes;
            self.period(t, &bytes[..period], s, end, None);
            bytes = &bytes[period..];
        }
        bytes
    }

    /// Periods over all of `bytes` (a whole message of a nonzero, even number of chunks:
    /// periods of 2 chunks and more cover it), the last weighted by `w` (see
    /// [`period_with`](Self::period_with)): the weighted sum of the stream values, unreduced,
    /// in lanes 4-7.
    #[inline(always)]
    fn run_weighted<F: PrimeField, T: KeySquares<F> + ?Sized, X: AsRef<[V]>>(
        &mut self,
        t: &Splat<'_, F, V, T, X>,
        mut bytes: &[u8],
        w: V,
    ) -> V::Wide
    where
        V: Halves<F>,
    {
        let chunk_bytes = 16 * F::BLOCK;
        debug_assert!(!bytes.is_empty() && bytes.len().is_multiple_of(2 * chunk_bytes));
        let end = end_of(bytes);
        loop {
            let s = self
                .longest(bytes.len() / chunk_bytes, 1)
                .expect("an even number of chunks is a sequence of periods");
            let period = 2 * s * chunk_bytes;
            if bytes.len() == period {
                return self
                    .period(t, bytes, s, end, Some(w))
                    .expect("a weighted period returns its sum");
            }
            self.period(t, &bytes[..period], s, end, None);
            bytes = &bytes[period..];
        }
    }

    /// The value v of the message of `n` bytes whose bytes after the periods are `rest`
    /// (fewer than 2 chunks) and `last` (the final partial vector block, zero-padded): the
    /// stack moves to 4 lanes and the 4-lane stack BRW finishes it.
    #[inline(always)]
    fn finish<F: PrimeField, T: KeySquares<F> + ?Sized>(
        &self,
        p: &T,
        rest: &[u8],
        last: &[u8],
        n: u64,
    ) -> F
    where
        V: Halves<F>,
    {
        combine_message(p, self.value_lanes(p, rest, last), n)
    }

    /// [`finish`](Self::finish) before `combine_lanes`: the four stream values in 4 lanes.
    #[inline(always)]
    fn value_lanes<F: PrimeField, T: KeySquares<F> + ?Sized>(
        &self,
        p: &T,
        rest: &[u8],
        last: &[u8],
    ) -> V::Half
    where
        V: Halves<F>,
    {
        let mut brw = BrwChunks::<V::Half, 4>::default();
        brw.resume(self.chunks, self.stack.iter().map(|&e| V::upper_wide(e)));
        let table4 = Splat::<F, V::Half, T>::new(p);
        // Vector block j of `rest` and then `last`: at most 8 of them.
        let vb = 4 * F::BLOCK;
        let full = rest.len() / vb;
        let block = |j: usize| rest_or_last::<F, V::Half>(rest, last, full, j);
        let k = full + last.len() / vb;
        let done = if k > 4 {
            brw.push_chunk(&table4, &[block(0), block(1), block(2), block(3)]);
            4
        } else {
            0
        };
        let values = brw.finish_with(
            &table4,
            k - done,
            #[inline(always)]
            |j| block(done + j),
        );
        brw.wipe_stack();
        values
    }
}

/// 4-lane vector block j of `full` whole ones in `rest` followed by `last`.
#[inline(always)]
fn rest_or_last<F: PrimeField, V: Lanes<F>>(rest: &[u8], last: &[u8], full: usize, j: usize) -> V {
    let vb = V::W * F::BLOCK;
    let b = if j < full { &rest[j * vb..] } else { last };
    V::load(&b[..vb], false)
}

/// Chunk c as its four vector blocks, `load(c, q)` being block q.
#[inline(always)]
fn chunk4<V>(load: &impl Fn(usize, usize) -> V, c: usize) -> [V; 4] {
    [load(c, 0), load(c, 1), load(c, 2), load(c, 3)]
}

/// Vector block q of a chunk of each half of a period (`lo` and `hi` start at them): lane j
/// = block q of stream j of the chunk in the first half (lanes 0-3) or in the second (lanes
/// 4-7).
#[inline(always)]
fn load_half_vector<F: PrimeField, V: Halves<F>>(lo: &[u8], hi: &[u8], q: usize) -> V {
    let vb = 4 * F::BLOCK;
    V::load_pair(&lo[q * vb..(q + 1) * vb], &hi[q * vb..(q + 1) * vb])
}

/// 4-decBRWHash on 8 lanes by periods: each stream runs the stack BRW algorithm on chunks of
/// 4 blocks, and a period of 2s chunks gives its first half to lanes 0-3 and its second half
/// to lanes 4-7 ([`Periods::period`]). Only a period's last step needs the halves in turn
/// (one product more per period); everything else is the 8-lane code of 8-decBRWHash.
/// Periods come straight from the caller's bytes ([`Periods::run`]). A stream holds fewer
/// than 2 x [`MIN_STREAM_HALF_CHUNKS`] chunks between updates, which begin the next period
/// (the rest of it from the update's bytes); at the end, what is held takes shorter periods
/// and the last 2 chunks at most take 4 lanes.
pub(crate) struct DecPeriods<F: PrimeField, V: Halves<F>> {
    held: Tail<{ STREAM_HELD_BYTES + 4 * 16 }>,
    n: u64,
    periods: Periods<V, STREAM_STACK>,
    /// x .. x^8 in every lane, once broadcast ([`Splat::cached`]).
    xs: Option<[V; CACHED_SQUARES]>,
    _field: PhantomData<F>,
}

impl<F: PrimeField, V: Halves<F>> Default for DecPeriods<F, V> {
    #[inline(always)]
    fn default() -> Self {
        DecPeriods {
            held: Tail::default(),
            n: 0,
            periods: Periods::default(),
            xs: None,
            _field: PhantomData,
        }
    }
}

// Copies in place, as `DecLanes` does.
clone_in_place!([F: PrimeField, V: Halves<F>] DecPeriods<F, V> { held, n, periods });

impl<F: PrimeField, V: Halves<F>> DecPeriods<F, V> {
    /// A 4-lane vector block, and a chunk (4 of them in each of the 4 streams).
    const VBLOCK: usize = 4 * F::BLOCK;
    const CHUNK: usize = 4 * Self::VBLOCK;

    #[inline(always)]
    pub fn update<T: KeySquares<F> + ?Sized>(&mut self, p: &T, mut data: &[u8]) {
        const { assert!(2 * MIN_STREAM_HALF_CHUNKS * Self::CHUNK <= STREAM_HELD_BYTES) };
        self.n += data.len() as u64;
        let table = Splat::<F, V, T, _>::cached(&mut self.xs, p);
        let cb = Self::CHUNK;
        if !self.held.held().is_empty() {
            // Whole chunks held: the partial one completed from `data`.
            let partial = self.held.held().len() % cb;
            if partial > 0 {
                let take = (cb - partial).min(data.len());
                self.held.append(&data[..take]);
                data = &data[take..];
                if !self.held.held().len().is_multiple_of(cb) {
                    return;
                }
            }
            let held = self.held.held();
            let k = held.len() / cb;
            let Some(s) = self
                .periods
                .longest(k + data.len() / cb, MIN_STREAM_HALF_CHUNKS)
            else {
                // Still short of a period: all of it waits.
                return self.held.append(data);
            };
            // The chunk count is a multiple of 2 x MIN_STREAM_HALF_CHUNKS (only such
            // periods ran), so fewer bytes than that many chunks were held, and at most that
            // many chunks are now: one period takes them all.
            debug_assert!(k <= 2 * s);
            // Chunk i of the period, held or from `data`, as a slice of exactly `cb` bytes (the
            // loads from it need no bounds checks of their own), chosen without a branch: the
            // split moves with every update, and a branch per load, with its own bounds
            // checks, cost 4-9% of streams whose updates end inside a period (TSC cycles per
            // message, before -> after: 4-decBRWHash1305 64 KiB in updates of 4100 / 4000 /
            // 1500 bytes 4628 / 5930 / 6166 -> 4198 / 5634 / 5827; 4-decBRWHash1271 65280 B
            // in updates of 4096 / 1500 bytes 5981 / 7030 -> 5764 / 6537).
            let chunk = |i: usize| -> &[u8] {
                let from_held = i < k;
                let (bytes, at) = if from_held {
                    (held, i * cb)
                } else {
                    (data, (i - k) * cb)
                };
                &bytes[at..at + cb]
            };
            let end = end_of(data);
            self.periods.period_with(
                &table,
                s,
                None,
                #[inline(always)]
                |c, j| load_half_vector::<F, V>(chunk(c), chunk(s + c), j),
                // The next period's chunks, in `data` (see `Periods::period`).
                #[inline(always)]
                |c| {
                    prefetch::<TO_L2>(data, (2 * s - k + c) * cb, cb, end);
                    prefetch::<TO_L2>(data, (3 * s - k + c) * cb, cb, end);
                },
            );
            data = &data[(2 * s - k) * cb..];
            self.held.clear();
        }
        let rest = self.periods.run(&table, data, MIN_STREAM_HALF_CHUNKS);
        self.held.append(rest);
    }

    /// The value v before `out()` (the state is used up).
    #[inline(always)]
    pub fn finish<T: KeySquares<F> + ?Sized>(&mut self, p: &T) -> F {
        let table = Splat::<F, V, T, _>::cached(&mut self.xs, p);
        // The held chunks in shorter periods, then the rest (fewer than 2 chunks) on 4 lanes,
        // zero blocks filling the streams to q blocks each (a short last block is le() of its
        // bytes): whole 4-lane vector blocks.
        let done = {
            let held = self.held.held();
            held.len() - self.periods.run(&table, held, 1).len()
        };
        let rest = &self.held.padded(Self::VBLOCK)[done..];
        self.periods.finish(p, rest, &[], self.n)
    }

    /// The value v of a whole message with a key's powers: no buffer but the last partial
    /// vector block's.
    #[inline(always)]
    pub fn one_shot(p: &Powers<F>, msg: &[u8]) -> F {
        one_shot_on_squares!(p, p.squares(), complete = true, msg, 4, lazy = false)
    }

    /// [`one_shot`](Self::one_shot) from a raw key's first squarings `known` (x, x^2, ..).
    /// The others are computed first: unlike [`DecLanes`], the periods did not hide the
    /// chain of squarings when it ran between their chunks (measured one-shot at 2-16 KiB:
    /// as slow or slower).
    #[inline(always)]
    pub fn one_shot_raw(known: &[F], msg: &[u8]) -> F {
        one_shot_on_squares!(known, known, complete = false, msg, 4, lazy = false)
    }

    #[inline(always)]
    fn one_shot_with<T: KeySquares<F> + ?Sized>(p: &T, msg: &[u8]) -> F {
        let n = msg.len() as u64;
        // (The 4-lane combination of 8-lane periods: weights first, see `early_weights`.)
        if T::EAGER && V::Half::FAST_PERMUTES {
            let mut weights = lane_weights::<F, V::Half, T>(p, n.div_ceil(F::BLOCK as u64));
            let length = F::from_u64(n.wrapping_mul(8));
            if !msg.is_empty() && msg.len().is_multiple_of(32 * F::BLOCK) {
                // Whole periods (an even number of chunks: a multiple of 512 bytes, of 480
                // for 2^127 - 1): the last one takes the weights on its right factor, one
                // dependent product less at the end. Intel Xeon (Sapphire Rapids class),
                // timing loop, min TSC cycles per message with a key, 3 runs each:
                // 4-decBRWHash1305 4 KiB 467 -> 446, 4-decBRWHash1271 3840 B 534 -> 515.
                let table = Splat::<F, V, T>::new(p);
                let mut periods = Periods::<V, WHOLE_STACK>::default();
                let mut w8 = V::join(weights, weights);
                let mut total = periods.run_weighted(&table, msg, w8);
                let mut weighted = V::Half::reduce(V::upper_wide(total));
                let sum = weighted.sum_lanes();
                total.zeroize();
                periods.zeroize();
                weights.zeroize();
                w8.zeroize();
                weighted.zeroize();
                return sum.add(p.square(0).mul(length));
            }
            let values = Self::whole_values(p, msg);
            return combine_weighted(p, values, weights, length);
        }
        combine_message(p, Self::whole_values(p, msg), n)
    }

    /// The four stream values of a whole message in 4 lanes, before `combine_lanes`.
    #[inline(always)]
    fn whole_values<T: KeySquares<F> + ?Sized>(p: &T, msg: &[u8]) -> V::Half {
        let table = Splat::<F, V, T>::new(p);
        let mut periods = Periods::<V, WHOLE_STACK>::default();
        let rest = periods.run(&table, msg, 1);
        let whole = rest.len() / Self::VBLOCK * Self::VBLOCK;
        let mut last = [0u8; 4 * 16];
        let tail = &rest[whole..];
        // (A call of `memcpy`, even for no bytes.)
        if !tail.is_empty() {
            last[..tail.len()].copy_from_slice(tail);
        }
        let last = &last[..tail.len().div_ceil(Self::VBLOCK) * Self::VBLOCK];
        let values = periods.value_lanes(p, &rest[..whole], last);
        periods.zeroize();
        values
    }

    /// The four stream values of a whole message (multi-core hashing joins them per stream).
    #[cfg(feature = "parallel")]
    #[inline(always)]
    pub fn stream_values<const S: usize>(p: &Powers<F, S>, msg: &[u8]) -> [F; 16] {
        let mut lanes = Self::whole_values(p, msg);
        let mut values = [F::ZERO; 16];
        lanes.store(&mut values[..4]);
        lanes.zeroize();
        values
    }
}

#[cfg(test)]
impl<F: PrimeField, V: Halves<F>> DecPeriods<F, V> {
    /// Whether the state is as wiped, but for the vectors (only entry points read them).
    pub fn is_wiped(&self) -> bool {
        self.held.is_wiped()
            && self.n == 0
            && self.xs.is_none()
            && self.periods.chunks == 0
            && self.periods.stack.is_wiped()
            && self.periods.brw.is_wiped()
    }
}

/// Wipes the periods' stacks, the broadcast key powers and the bytes held: the state of
/// `DecPeriods::default()`. (Only inside the backend's entry points: it holds vectors.)
impl<F: PrimeField, V: Halves<F>> Zeroize for DecPeriods<F, V> {
    #[inline(always)]
    fn zeroize(&mut self) {
        self.held.zeroize();
        self.n = 0;
        self.periods.zeroize();
        if let Some(xs) = &mut self.xs {
            xs.zeroize();
        }
        self.xs = None;
    }
}
