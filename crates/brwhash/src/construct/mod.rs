//! The hash constructions of SPEC.md section 5: formatting, padding, streams and the final
//! combination, written once against the field and evaluator traits.
//!
//! Every construction is streaming: full blocks are absorbed as soon as they are complete and
//! only what the definition makes ambiguous until the end is held back (a partial block, a
//! partial super-block, the first 2^d - 1 blocks of d-Hash); see IMPLEMENTATION-NOTES 9.

mod brwhash;
mod decbrw;
mod hash2l;
mod polyhash;
mod scalar;
mod twolevel;

#[cfg(test)]
pub(crate) use decbrw::WEIGHT_ENTRIES;
pub(crate) use decbrw::{
    dec_flat, dec_flat_takes, dec_linear_lanes, lane_ladder, DecLanes, DecPeriods, Halves, Lanes,
    WeightTable,
};
pub(crate) use hash2l::{
    end_weights_needed, gamma_powers_needed, hash2l_one_shot, hash2l_squares_needed,
    hash2l_wide_one_shot, tree_from, vec_hash2l_one_shot, vec_hash2l_wide_one_shot, BinHasher,
    BinLanes, BinWide, WIDE_FROM,
};

pub(crate) use polyhash::{exact_table, poly_exact, PolyStream};
pub(crate) use scalar::{
    brw_key, dec_linear_key, dec_linear_powers, dec_pair_weights, dec_short_squares,
    horner_one_shot, one_shot as scalar_one_shot, poly1305_horner, two_level_key, ScalarHasher,
};

use crate::algorithm::Family;
use crate::backend::{Backend, SimdPrime, SimdState};
use crate::eval::{Brw, Horner, G, SQUARES};
use crate::field::Field;
use crate::Algorithm;
use brwhash::TBrw;
use decbrw::DecBrw;
use polyhash::PolyHash;
use std::sync::OnceLock;
pub(crate) use twolevel::{
    lanes_squares, two_level_groups, two_level_lanes, two_level_lanes_halves, two_level_lanes_key,
    GroupsCall,
};
use twolevel::{DHash, TwoL};
use zeroize::Zeroize;

/// Chunk of the stack BRW algorithm in the portable backend: 2^w blocks with w = 4
/// (implementation parameter; any w = 2..=5 gives the same output).
pub(crate) const CHUNK: usize = 16;

/// Squarings a binary-field key holds: Hash2L reads x^(2^j) for j <= 5 only (the 31-block
/// super-block's x .. x^16 and gamma = x^32), so its `Powers` need not carry the 64 of a
/// prime-field key (a one-shot call zero-filled and wiped 1 KiB of them for Hash2L128).
pub(crate) const BIN_SQUARES: usize = 8;
/// The key powers of Hash2L and vecHash2L (every binary-field backend).
pub(crate) type BinPowers<F> = Powers<F, BIN_SQUARES>;

/// Key powers, computed once per key (or once per one-shot call, only as many as needed).
#[derive(Clone)]
pub(crate) struct Powers<F: Field, const S: usize = SQUARES> {
    /// sq[j] = x^(2^j) (sq[0] is the key x), for j below the count computed.
    pub sq: [F; S],
    /// hx[j - 1] = x^j for j = 1..=n_hx (n_hx <= G): Horner in x; read through `hx()`.
    hx: [F; G],
    /// hg[j - 1] = gamma^j: Horner in gamma (x^(2^d) for d-2LHash, x^32 for Hash2L); read
    /// through `hg()`. A c-decBRWHash key with 4 < c <= 8 takes gamma = x^2: its weights
    /// x^2 .. x^(2c) of a message of at most c blocks (`scalar::dec_single`, `gamma_powers`).
    hg: [F; G],
    /// hl[e] = x^2 gamma^e, e < n_hl: Hash2L's end weights (the final x * (x * acc + L)
    /// folded into the Horner weights, `construct::hash2l`); read through `hl()`.
    hl: [F; G],
    /// Entries of `hl` computed (0 unless [`fill_end_weights`](Self::fill_end_weights)).
    n_hl: usize,
    /// h1[e] = x gamma^e, e < n_h1: vecHash2L's weights relative to a component's end
    /// (acc = x * acc + L folded in); read through `h1()`.
    h1: [F; G],
    /// Entries of `h1` computed.
    n_h1: usize,
    /// Entries of `sq` computed (the rest are zero).
    n_sq: usize,
    /// Entries of `hx` computed: the Horner group size g in x.
    n_hx: usize,
    /// Entries of `hg` computed: the Horner group size in gamma (0 without gamma).
    n_hg: usize,
    // The tables below pay back over messages, not within one: a `Key` fills them (once,
    // through a shared reference) when it hashes its second message (`Key::note_use`), so
    // that a one-time key (Poly1305's, a MAC's) never builds them. Until then every path
    // that reads one has its own way without it.
    /// A SIMD backend's power table for whole polyHash messages (`poly_exact`), as words.
    pub lane_table: OnceLock<zeroize::Zeroizing<Vec<u64>>>,
    /// A SIMD backend's lane weights for c-decBRWHash.
    pub weights: OnceLock<WeightTable>,
    /// A c-decBRWHash key's weights of a message of two blocks per stream (c < blocks <= 2c,
    /// c <= 8): entry i is the power of x that weighs block i (`scalar::dec_pair_weights`),
    /// so that such a message is independent products and one reduction.
    pub dec_pairs: OnceLock<Box<[F; 16]>>,
    /// A SIMD backend's lane weights of c-decBRWHash messages of at most two blocks per
    /// stream (`WeightTable::linear`).
    pub dec_linear: OnceLock<WeightTable>,
}

impl<F: Field, const S: usize> Powers<F, S> {
    /// Powers of `x`: `n_sq` squarings, the Horner powers x^1..x^n_hx, and G powers of
    /// gamma = x^(2^gamma_log). (Always inlined, so a SIMD field's powers compute inside a
    /// `#[target_feature]` caller.)
    #[inline(always)]
    pub fn new(x: F, n_sq: usize, n_hx: usize, gamma_log: Option<usize>) -> Box<Self> {
        let mut p = Box::new(Self::empty());
        p.fill(x, n_sq, n_hx, gamma_log);
        p
    }

    /// No powers yet: [`fill_hg`](Self::fill_hg) computes them in place (a returned
    /// `Powers`, hundreds of bytes, was copied by `memcpy`: 4-decBRWHash1305 one-shot on the
    /// scalar backend, TSC cycles/byte, 16 B 10.9 -> 9.8, 64 B 3.32 -> 3.02).
    #[inline(always)]
    pub(crate) fn empty() -> Self {
        Powers {
            sq: [F::ZERO; S],
            hx: [F::ZERO; G],
            hg: [F::ZERO; G],
            hl: [F::ZERO; G],
            n_hl: 0,
            h1: [F::ZERO; G],
            n_h1: 0,
            n_sq: 0,
            n_hx: 0,
            n_hg: 0,
            lane_table: OnceLock::new(),
            weights: OnceLock::new(),
            dec_pairs: OnceLock::new(),
            dec_linear: OnceLock::new(),
        }
    }

    #[inline(always)]
    pub(crate) fn fill(&mut self, x: F, n_sq: usize, n_hx: usize, gamma_log: Option<usize>) {
        self.fill_hg(x, n_sq, n_hx, gamma_log, G)
    }

    /// [`new`](Self::new)'s powers into `self` (from [`empty`](Self::empty)), on the stack
    /// for one-shot hashing with a small `S`, and only gamma^1 .. gamma^n_hg (a message of
    /// fewer than G super-blocks needs no more).
    #[inline(always)]
    pub(crate) fn fill_hg(
        &mut self,
        x: F,
        n_sq: usize,
        n_hx: usize,
        gamma_log: Option<usize>,
        n_hg: usize,
    ) {
        let n_sq = n_sq.clamp(1, S);
        let n_hx = n_hx.clamp(1, G);
        self.n_sq = n_sq;
        self.n_hx = n_hx;
        self.sq[0] = x;
        for j in 1..n_sq {
            self.sq[j] = self.sq[j - 1].square();
        }
        fill_powers(&mut self.hx[..n_hx], x);
        if let Some(e) = gamma_log {
            debug_assert!(e < n_sq);
            let gamma = self.sq[e];
            self.n_hg = n_hg.clamp(1, G);
            fill_powers(&mut self.hg[..self.n_hg], gamma);
        }
    }

    /// The squarings x^(2^j) for j below `n_sq` (at most `S`), continuing the chain past those
    /// computed (a key's powers for longer messages, `Key::material_for`).
    pub(crate) fn extend_squares(&mut self, n_sq: usize) {
        let n_sq = n_sq.min(S);
        for j in self.n_sq.max(1)..n_sq {
            self.sq[j] = self.sq[j - 1].square();
        }
        self.n_sq = self.n_sq.max(n_sq);
    }

    /// Hash2L's end weights hl[e] = x^2 gamma^e for e < n (at most G), and with `vector`
    /// vecHash2L's h1[e] = x gamma^e too: independent products, after `fill_hg` with gamma.
    #[inline(always)]
    pub(crate) fn fill_end_weights(&mut self, n: usize, vector: bool) {
        debug_assert!(self.n_sq >= 2 && self.n_hg + 1 >= n);
        let n = n.min(G);
        let (x, x2) = (self.sq[0], self.sq[1]);
        for e in 0..n {
            self.hl[e] = if e == 0 { x2 } else { self.hg[e - 1].mul(x2) };
        }
        self.n_hl = self.n_hl.max(n);
        if vector {
            for e in 0..n {
                self.h1[e] = if e == 0 { x } else { self.hg[e - 1].mul(x) };
            }
            self.n_h1 = self.n_h1.max(n);
        }
    }

    /// x^2 and x^3 = hl[0] x as the Horner powers x^2, x^3: the weights of a short last
    /// super-block of two blocks after whole ones (`hash2l::weighted_rest`), for a key (a
    /// one-shot call computes x^3 only if its message needs it).
    #[inline(always)]
    pub(crate) fn fill_end_x3(&mut self) {
        if self.n_hx < 3 {
            let (x, x2) = (self.sq[0], self.sq[1]);
            (self.hx[1], self.hx[2]) = (x2, x2.mul(x));
            self.n_hx = 3;
        }
    }

    /// x gamma^0 ..: vecHash2L's weights computed.
    #[inline(always)]
    pub fn h1(&self) -> &[F] {
        &self.h1[..self.n_h1]
    }

    /// x^2 gamma^0 ..: the end weights computed.
    #[inline(always)]
    pub fn hl(&self) -> &[F] {
        &self.hl[..self.n_hl]
    }

    pub fn x(&self) -> F {
        self.sq[0]
    }

    /// The squarings computed: x^(2^j) for j below their count.
    #[inline(always)]
    pub fn squares(&self) -> &[F] {
        &self.sq[..self.n_sq]
    }

    /// x^1 ..= x^g: the Horner powers in x (g = the group size).
    #[inline(always)]
    pub fn hx(&self) -> &[F] {
        &self.hx[..self.n_hx]
    }

    /// gamma^1 ..= gamma^G: the Horner powers in gamma. Always G entries, so that Horner's
    /// groups have a length known at compile time (a slice of computed length cost d-2LHash
    /// a third); a one-shot `Powers` for n super-blocks (`fill_hg`) computes only the
    /// first n, the only ones a Horner over n values reads (its one flush reads powers[..n]).
    #[inline(always)]
    pub fn hg(&self) -> &[F; G] {
        &self.hg
    }

    /// gamma^1 .. gamma^n: the powers of gamma computed (none without gamma).
    #[inline(always)]
    pub fn gamma_powers(&self) -> &[F] {
        &self.hg[..self.n_hg]
    }
}

/// `out[j - 1]` = base^j.
#[inline(always)]
fn fill_powers<F: Field>(out: &mut [F], base: F) {
    if let Ok(all) = <&mut [F; G]>::try_from(&mut *out) {
        *all = powers_to_g(base);
        return;
    }
    out[0] = base;
    for j in 1..out.len() {
        out[j] = out[j - 1].mul(base);
    }
}

/// base^1 .. base^G, written out: a dependency chain of three products where a loop makes
/// seven (measured: the loop cost one-shot Poly1305 about 250 TSC cycles for the 7 powers,
/// this about 110).
#[inline(always)]
pub(crate) fn powers_to_g<F: Field>(x: F) -> [F; G] {
    const { assert!(G == 8) };
    let x2 = x.square();
    let (x3, x4) = (x2.mul(x), x2.square());
    [
        x,
        x2,
        x3,
        x4,
        x4.mul(x),
        x4.mul(x2),
        x4.mul(x3),
        x4.square(),
    ]
}

/// The squarings x^(2^j) of a key as the constructions read them: a key's [`Powers`], or
/// [`LazySquares`] that a one-shot call computes while it hashes.
pub(crate) trait KeySquares<F> {
    /// x^(2^j).
    fn square(&self, j: usize) -> F;
    /// A hint between chunks: compute the next squaring still to come, if any.
    #[inline(always)]
    fn step(&self) {}
    /// Whether every squaring is there before the first block, so that key-only values
    /// can be formed then (a lazy table computes its last ones as the chunks go).
    const EAGER: bool = true;
    /// A key's cached lane weights, if it has them.
    #[inline(always)]
    fn weight_table(&self) -> Option<&WeightTable> {
        None
    }
}

impl<F: Field, const S: usize> KeySquares<F> for Powers<F, S> {
    #[inline(always)]
    fn square(&self, j: usize) -> F {
        self.sq[j]
    }
    #[inline(always)]
    fn weight_table(&self) -> Option<&WeightTable> {
        self.weights.get()
    }
}

impl<F: Copy> KeySquares<F> for [F] {
    #[inline(always)]
    fn square(&self, j: usize) -> F {
        self[j]
    }
}

/// `out[..want]` = x^(2^j) from the first squarings `have` (at least x), for a one-shot
/// kernel that computes all of them before its first block; returns the count (`want`,
/// at most 32).
#[inline(always)]
pub(crate) fn fill_squares<F: Field>(out: &mut [F; 32], have: &[F], want: usize) -> usize {
    let want = want.clamp(have.len().min(32), 32);
    let k = have.len().min(want);
    out[..k].copy_from_slice(&have[..k]);
    for j in k..want {
        out[j] = out[j - 1].square();
    }
    want
}

/// Most squarings [`LazySquares`] computes.
const LAZY_SQUARES: usize = 16;

/// Squarings of a one-shot key computed while the message is hashed: the first few are
/// given, the rest come two per chunk ([`KeySquares::step`]) or when read. The squarings form
/// a chain of dependent products (about 30 TSC cycles each, 9 for 4 KiB); computed before
/// the first block, the whole chain delayed it (4-decBRWHash1305 one-shot at 4 KiB spent
/// about 250 TSC cycles there). Between chunks the chain runs on the scalar multiplier while
/// the vector units hash.
pub(crate) struct LazySquares<'a, F: Field> {
    known: &'a [F],
    more: [core::cell::Cell<F>; LAZY_SQUARES],
    /// Squarings available: `known.len()` + those in `more`.
    n: core::cell::Cell<usize>,
    /// Squarings the message needs: `step` stops there.
    want: usize,
}

impl<'a, F: Field> LazySquares<'a, F> {
    /// `known` = x, x^2, .. (at least x); `want` squarings in all (at most
    /// `known.len() + 16`; reading past it computes more as long as there is room).
    #[inline(always)]
    pub fn new(known: &'a [F], want: usize) -> Self {
        LazySquares {
            known,
            more: core::array::from_fn(|_| core::cell::Cell::new(F::ZERO)),
            n: core::cell::Cell::new(known.len()),
            want,
        }
    }

    #[inline(always)]
    fn next(&self) {
        let n = self.n.get();
        let k = self.known.len();
        let last = if n == k {
            self.known[k - 1]
        } else {
            self.more[n - 1 - k].get()
        };
        self.more[n - k].set(last.square());
        self.n.set(n + 1);
    }
}

impl<F: Field> KeySquares<F> for LazySquares<'_, F> {
    const EAGER: bool = false;

    #[inline(always)]
    fn square(&self, j: usize) -> F {
        let k = self.known.len();
        if j < k {
            return self.known[j];
        }
        while self.n.get() <= j {
            self.next();
        }
        self.more[j - k].get()
    }

    /// Two squarings per call (one call before the first chunk, one after each): the chain
    /// is done by the middle of the message, so the end's lane weights do not wait for its
    /// last links. TSC cycles per one-shot message on IFMA, one per chunk -> two and one
    /// first: 8-decBRWHash1305 512 B 378 -> 348, 1 KiB 431 -> 393; 4-decBRWHash1305 on 4
    /// lanes and 4-decBRWHash1271 within 1% at 256 B - 4 KiB.
    #[inline(always)]
    fn step(&self) {
        for _ in 0..2 {
            if self.n.get() < self.want {
                self.next();
            }
        }
    }
}

/// Wipes the squarings computed.
impl<F: Field> Drop for LazySquares<'_, F> {
    fn drop(&mut self) {
        let computed = self.n.get() - self.known.len();
        for c in &mut self.more[..computed] {
            c.get_mut().zeroize();
        }
    }
}

impl<F: Field, const S: usize> Drop for Powers<F, S> {
    fn drop(&mut self) {
        // Only the computed powers hold key material; the rest were never written.
        for e in &mut self.sq[..self.n_sq] {
            e.zeroize();
        }
        for e in &mut self.hx[..self.n_hx] {
            e.zeroize();
        }
        for e in &mut self.hg[..self.n_hg] {
            e.zeroize();
        }
        for e in &mut self.hl[..self.n_hl] {
            e.zeroize();
        }
        for e in &mut self.h1[..self.n_h1] {
            e.zeroize();
        }
        if let Some(t) = self.dec_pairs.get_mut() {
            for e in t.iter_mut() {
                e.zeroize();
            }
        }
    }
}

/// Bytes held back until a chunk is complete: whole chunks go on at once, straight from the
/// caller's data where possible, and the incomplete rest waits. `N` is the largest chunk.
/// [`Zeroize`] wipes the bytes ever held (`buf[..hi]`), a word per store.
#[derive(Clone)]
pub(crate) struct Held<const N: usize> {
    buf: [u8; N],
    len: usize,
    /// High-water mark: `buf[hi..]` was never written (a wipe stops there).
    hi: usize,
}

impl<const N: usize> Default for Held<N> {
    #[inline(always)]
    fn default() -> Self {
        Held {
            buf: [0; N],
            len: 0,
            hi: 0,
        }
    }
}

impl<const N: usize> Zeroize for Held<N> {
    fn zeroize(&mut self) {
        crate::backend::wipe_bytes(&mut self.buf[..self.hi]);
        self.len = 0;
        self.hi = 0;
    }
}

impl<const N: usize> Held<N> {
    /// Cut `data`, after the held bytes, into chunks of `chunk` bytes (at most `N`): `f` gets
    /// every whole chunk, the rest is held. Always inlined, and SIMD callers pass an
    /// always-inlined closure, so their hot loops compile whole with their target features.
    #[inline(always)]
    pub fn feed(&mut self, chunk: usize, data: &[u8], mut f: impl FnMut(&[u8])) {
        self.feed_runs(
            chunk,
            data,
            #[inline(always)]
            |run| {
                // A `for` loop: `for_each` compiles to a call of `fold`, outside the
                // caller's target features (then every intrinsic in `f` is a call).
                for c in run.chunks_exact(chunk) {
                    f(c)
                }
            },
        )
    }

    /// [`feed`](Self::feed), with `f` given runs of whole chunks (a multiple of `chunk`
    /// bytes, never empty): a caller's loop over the chunks keeps its state in registers.
    #[inline(always)]
    pub fn feed_runs(&mut self, chunk: usize, mut data: &[u8], mut f: impl FnMut(&[u8])) {
        debug_assert!(chunk <= N);
        if self.len > 0 {
            let take = (chunk - self.len).min(data.len());
            self.buf[self.len..self.len + take].copy_from_slice(&data[..take]);
            self.len += take;
            self.hi = self.hi.max(self.len);
            data = &data[take..];
            if self.len < chunk {
                return;
            }
            f(&self.buf[..chunk]);
            self.len = 0;
        }
        let (whole, rest) = data.split_at(data.len() - data.len() % chunk);
        if !whole.is_empty() {
            f(whole);
        }
        self.buf[..rest.len()].copy_from_slice(rest);
        self.len = rest.len();
        self.hi = self.hi.max(self.len);
    }

    /// Hold `data` after the held bytes (they must fit), processing nothing.
    #[inline(always)]
    pub fn append(&mut self, data: &[u8]) {
        self.buf[self.len..self.len + data.len()].copy_from_slice(data);
        self.len += data.len();
        self.hi = self.hi.max(self.len);
    }

    /// The held bytes (less than a chunk).
    #[inline(always)]
    pub fn held(&self) -> &[u8] {
        &self.buf[..self.len]
    }

    /// Whether every byte is zero and nothing is held.
    #[cfg(test)]
    pub fn is_wiped(&self) -> bool {
        self.len == 0 && self.hi == 0 && self.buf.iter().all(|&b| b == 0)
    }
}

/// Cuts a byte stream into field blocks (at most 32 bytes); the held bytes are zeroized on
/// drop (the hashers that hold larger `Held` buffers wipe them in their own `Zeroize`).
#[derive(Clone, Default)]
pub(crate) struct Blocks(Held<32>);

impl Blocks {
    #[inline(always)]
    pub fn feed(&mut self, b: usize, data: &[u8], f: impl FnMut(&[u8])) {
        self.0.feed(b, data, f)
    }

    /// The incomplete last block (0..b-1 bytes).
    #[inline(always)]
    pub fn tail(&self) -> &[u8] {
        self.0.held()
    }
}

impl Zeroize for Blocks {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

impl Drop for Blocks {
    fn drop(&mut self) {
        self.zeroize();
    }
}

/// Append `data` to `bytes`, wiping the old buffer first when it must grow: a reallocation
/// would leave a copy of the bytes in freed memory. (Grows as `Vec` does: at least double.)
pub(crate) fn extend_wiping(bytes: &mut Vec<u8>, data: &[u8]) {
    let need = bytes.len() + data.len();
    if need > bytes.capacity() {
        let mut grown = Vec::with_capacity(need.max(2 * bytes.capacity()).max(64));
        extend_bytes(&mut grown, bytes);
        wipe_vec(bytes);
        *bytes = grown;
    }
    extend_bytes(bytes, data);
}

/// [`extend_wiping`] for a stream's first bytes, held up to `limit` bytes in all: the first
/// piece allocates room for [`HOLD_ROOM`] bytes (for `limit` from a first piece that long),
/// so that short pieces do not copy and wipe the bytes to grow at 64, 128, .. bytes. Zen 4,
/// min TSC cycles of a stream, 64-byte updates, growing from 64 bytes -> here: Poly1305
/// 256 B 364-390 -> 286, 1 KiB 936-988 -> 754-780; 4-Hash1271 1 KiB 1066 -> 884; 16-byte
/// updates of 1 KiB, Poly1305 2054 -> 1924.
#[inline(always)]
pub(crate) fn hold_wiping(bytes: &mut Vec<u8>, data: &[u8], limit: usize) {
    if bytes.capacity() == 0 {
        let room = if data.len() >= HOLD_ROOM {
            limit
        } else {
            HOLD_ROOM
        };
        *bytes = Vec::with_capacity(room.min(limit));
    }
    extend_wiping(bytes, data);
}

/// The room of [`hold_wiping`]'s first allocation. (Up to about 1 KiB, glibc serves an
/// allocation from its per-thread cache, as fast as a small one.)
const HOLD_ROOM: usize = 1024;

/// `bytes.extend_from_slice(data)`, in calls of at most `backend::MEM_PIECE` bytes. The
/// caller has reserved the room first: a piece that grew the vector would leave the bytes
/// before it in freed memory, unwiped.
#[inline(always)]
pub(crate) fn extend_bytes(bytes: &mut Vec<u8>, data: &[u8]) {
    if data.len() <= crate::backend::MEM_PIECE {
        return bytes.extend_from_slice(data);
    }
    for piece in data.chunks(crate::backend::MEM_PIECE) {
        bytes.extend_from_slice(piece);
    }
}

/// Wipe the bytes of `bytes` (its spare capacity was never written: see [`extend_wiping`])
/// and empty it.
pub(crate) fn wipe_vec(bytes: &mut Vec<u8>) {
    crate::backend::wipe_bytes(bytes);
    bytes.clear();
}

/// Bytes a stream state holds between updates (fewer than `CAP`, the zero padding of a
/// last vector block included): on the heap, allocated the first time bytes are held
/// (streams in updates of whole chunks never hold any), never zero-filled first. A state is
/// built per message, and a buffer of a few KiB inside it cost a zero fill and a copy of the
/// whole state when it was built (perf, streamed 4 KiB messages: 4-decBRWHash1305 27% of
/// the time; Hash2L128 on VPCLMULQDQ 19%).
#[derive(Clone, Default)]
pub(crate) struct Tail<const CAP: usize> {
    bytes: Vec<u8>,
    /// Bytes ever held: a wipe covers `bytes[..hi]`.
    hi: usize,
}

impl<const CAP: usize> Tail<CAP> {
    #[inline(always)]
    pub fn held(&self) -> &[u8] {
        &self.bytes
    }

    /// Full capacity before any byte is written, so that the buffer never moves (a move
    /// would leave a copy unwiped); a clone has only its length: it moves here, wiped.
    #[inline(always)]
    fn reserve(&mut self) {
        if self.bytes.capacity() < CAP {
            let mut full = Vec::with_capacity(CAP);
            extend_bytes(&mut full, &self.bytes);
            crate::backend::wipe_bytes(&mut self.bytes);
            self.bytes = full;
        }
    }

    /// Hold `data` after the held bytes (they must fit in `CAP`).
    #[inline(always)]
    pub fn append(&mut self, data: &[u8]) {
        if data.is_empty() {
            return;
        }
        self.reserve();
        debug_assert!(self.bytes.len() + data.len() <= CAP);
        extend_bytes(&mut self.bytes, data);
        self.hi = self.hi.max(self.bytes.len());
    }

    #[inline(always)]
    pub fn clear(&mut self) {
        self.bytes.clear();
    }

    /// [`Held::feed_runs`] on the heap: runs of whole chunks of `chunk` bytes (at most `CAP`)
    /// go to `f` straight from `data` where they lie whole, the held bytes completed first;
    /// the rest is held (updates of whole chunks never allocate).
    #[inline(always)]
    pub fn feed_runs(&mut self, chunk: usize, mut data: &[u8], mut f: impl FnMut(&[u8])) {
        debug_assert!(chunk <= CAP);
        if !self.bytes.is_empty() {
            let take = (chunk - self.bytes.len()).min(data.len());
            self.append(&data[..take]);
            data = &data[take..];
            if self.bytes.len() < chunk {
                return;
            }
            f(&self.bytes);
            self.bytes.clear();
        }
        let (whole, rest) = data.split_at(data.len() - data.len() % chunk);
        if !whole.is_empty() {
            f(whole);
        }
        self.append(rest);
    }

    /// The held bytes zero-padded to a multiple of `unit` (within `CAP`).
    #[inline(always)]
    pub fn padded(&mut self, unit: usize) -> &[u8] {
        let used = self.bytes.len().div_ceil(unit) * unit;
        if used > self.bytes.len() {
            self.reserve();
            self.bytes.resize(used, 0);
            self.hi = self.hi.max(used);
        }
        &self.bytes
    }

    #[cfg(test)]
    pub fn is_wiped(&self) -> bool {
        self.bytes.is_empty() && self.hi == 0
    }
}

/// Wipes every byte ever held (the allocation stays).
impl<const CAP: usize> Zeroize for Tail<CAP> {
    #[inline(always)]
    fn zeroize(&mut self) {
        // `bytes[len..hi]` held bytes before a `clear`: zeroed by the resize (in pieces, as
        // `wipe_bytes` clears), then all of `bytes[..hi]` by the wipe. Within the allocation
        // (a clone's is only as long as its bytes, which are all it ever held): a resize
        // past it would move them unwiped.
        let written = self.hi.min(self.bytes.capacity());
        while self.bytes.len() < written {
            let to = written.min(self.bytes.len() + crate::backend::MEM_PIECE);
            self.bytes.resize(to, 0);
        }
        crate::backend::wipe_bytes(&mut self.bytes);
        self.bytes.clear();
        self.hi = 0;
    }
}

/// Test hook: how many times this thread wiped a hasher state (`PrimeHasher`, `BinHasher`,
/// `BinWide`, a Hash2L stream's held head), to check that dropping one does.
#[cfg(test)]
pub(crate) mod wipe_log {
    use std::cell::Cell;

    thread_local! {
        static WIPES: Cell<usize> = const { Cell::new(0) };
    }

    pub(crate) fn note() {
        WIPES.set(WIPES.get() + 1);
    }

    pub(crate) fn count() -> usize {
        WIPES.get()
    }
}

/// The c stream values of c-decBRWHash of a whole message by the portable code (multi-core
/// hashing on the portable backend).
#[cfg(feature = "parallel")]
pub(crate) fn dec_stream_values_portable<F: crate::field::PrimeField>(
    c: u8,
    p: &Powers<F>,
    msg: &[u8],
) -> [F; 16] {
    DecBrw::stream_values(c, p, msg)
}

/// Which prime-field function, with its per-message state.
#[derive(Clone)]
enum Kind<F: SimdPrime> {
    // Boxed: their stacks and buffers are 0.2-1.9 KiB, and an unboxed one made every
    // `Hasher` that size (copied whenever it moves, whatever its algorithm).
    Poly(Box<PolyHash<F>>),
    Brw(Box<Brw<F, CHUNK>>),
    TBrw(Box<TBrw<F>>),
    TwoL(Box<TwoL<F>>),
    DHash(Box<DHash<F>>),
    Dec(DecBrw<F>),
    /// A SIMD backend's code for the whole function (each state boxed: its buffers are large).
    Simd(SimdState<F>),
    /// A SIMD backend's code waiting for the message to pass its crossover length and its
    /// hold length (`SimdState::hold_bytes`): until then the message is held and finished as
    /// a whole message (its state is built only then: short streamed messages never pay
    /// for it).
    Deferred(Deferred),
    /// The scalar backend's schedule of the whole function (boxed: its chunk buffer is
    /// large; one-shot messages take `scalar::one_shot` without it).
    #[cfg(target_arch = "x86_64")]
    Scalar(Box<ScalarHasher<F>>),
}

#[derive(Clone)]
struct Deferred {
    alg: Algorithm,
    backend: Backend,
    /// The message so far (at most `limit` bytes), grown by `extend_wiping` and wiped with the
    /// state.
    head: Vec<u8>,
    /// The larger of the SIMD crossover and the plan's `SimdState::hold_bytes` (d-2LHash and
    /// d-Hash on the lanes: [`TWO_LEVEL_HOLD`]).
    limit: usize,
}

/// Bytes a d-2LHash or d-Hash stream on the lanes holds before it builds its scalar state
/// (`Deferred`): a message up to this length is hashed whole. Below the lanes' start in the
/// state (`scalar::lanes_from`: 8 super-blocks, 1800 B for 4-Hash1271) the state runs scalar
/// code where `Key::hash` runs the lanes from 4. Zen 4, timing loop, min TSC cycles of a stream
/// in one update, holding 1 KiB -> 2 KiB (with a key): 4-Hash1271 1100 B 785 -> 603-608 (380),
/// 1536 B 920-930 -> 796 (515), 2 KiB 967 -> 853-858 (484), 3 KiB, 4 KiB and 64 KiB within
/// the noise; in 1 KiB updates 2 KiB 1331-1373 -> 868-894, 3 KiB 1674-1737 -> 1529, 4 KiB
/// 1945-1997 -> 1794-1799; 4-Hash1305 1100 B 1409 -> 707 (463), 2 KiB 1352 -> 848;
/// 4-2LHash1271 1100 B 764 -> 593; 3-Hash1271 1536 B 920 -> 790. Holding 4 or 6 KiB gained
/// nothing more at 3-4 KiB (the copy and wipe of the held bytes cost what the whole
/// message's code saves). (On Zen 5, before the lanes took whole messages from 4
/// super-blocks, 2 KiB had lost to 1 KiB from 1280 B.)
const TWO_LEVEL_HOLD: usize = 2048;

/// Streaming state of a prime-field function: Poly1305 (with the clamped key), polyHash,
/// BRWHash, t-BRWHash, d-2LHash, d-Hash and c-decBRWHash.
///
/// Its accumulators reveal the key (with the message: a root of a known polynomial), so the
/// state is wiped on drop, whatever its kind ([`Zeroize`]; copies made by `Clone` too).
#[derive(Clone)]
pub(crate) struct PrimeHasher<F: SimdPrime> {
    blocks: Blocks,
    /// Message bytes N so far.
    n: u64,
    kind: Kind<F>,
}

impl<F: SimdPrime> PrimeHasher<F> {
    /// The state for `alg` on `backend`. A SIMD backend's code runs for messages longer
    /// than its crossover length; shorter ones take scalar code, which is faster there.
    /// With the length known (one-shot) the choice is made now; otherwise the first bytes
    /// are held until the message passes the crossover.
    /// (Inlined into the hasher's set-up: a state returned through memory was copied by
    /// 16-byte loads just after its 8-byte stores, a store-forwarding stall per stream.)
    #[inline(always)]
    pub fn new(alg: Algorithm, backend: Backend, length: Option<u64>) -> Self {
        #[cfg(target_arch = "x86_64")]
        if backend == Backend::Scalar {
            return Self::with(Kind::Scalar(Box::new(ScalarHasher::new(alg))));
        }
        // Below the crossover the SIMD state is not even built (it is a few KiB to zero).
        let crossover = SimdState::<F>::crossover(alg, backend);
        let short = length.is_some_and(|n| n <= crossover as u64);
        if !short && SimdState::<F>::has_plan(alg, backend) {
            if length.is_none() && crossover > 0 {
                return Self::with(Kind::Deferred(Deferred {
                    alg,
                    backend,
                    head: Vec::new(),
                    limit: crossover.max(SimdState::<F>::hold_bytes(alg, backend)),
                }));
            }
            if let Some(state) = SimdState::new(alg, backend, length) {
                return Self::with(Kind::Simd(state));
            }
        }
        // What a SIMD backend leaves to scalar code: the scalar backend's where it can run
        // (streamed d-2LHash with the backend's lanes for its super-blocks).
        #[cfg(target_arch = "x86_64")]
        if backend != Backend::Portable && crate::backend::scalar_here() {
            let lanes = SimdState::<F>::two_level_kernel(alg, backend);
            if lanes.is_some() && length.is_none() {
                // d-2LHash and d-Hash with the lanes: the first bytes are held, as for the
                // SIMD states, so that a short message is hashed whole (`Key::hash`), where
                // the lanes take it from 4 super-blocks; the scalar state from there.
                return Self::with(Kind::Deferred(Deferred {
                    alg,
                    backend,
                    head: Vec::new(),
                    limit: TWO_LEVEL_HOLD,
                }));
            }
            return Self::with(Kind::Scalar(Box::new(ScalarHasher::with_lanes(alg, lanes))));
        }
        match alg.family() {
            Family::BrwHash(_) => Self::brw(),
            Family::TBrwHash(t, _) => Self::t_brw(t),
            Family::TwoLHash(d, _) => Self::two_level(d),
            Family::DHash(d, _) => Self::d_hash(d),
            Family::DecBrwHash(c, _) => Self::dec_brw(c),
            // Poly1305 and polyHash (binary-field families never reach here).
            _ => Self::poly(),
        }
    }

    fn poly() -> Self {
        Self::with(Kind::Poly(Box::default()))
    }
    fn brw() -> Self {
        Self::with(Kind::Brw(Box::default()))
    }
    fn t_brw(t: u8) -> Self {
        Self::with(Kind::TBrw(Box::new(TBrw::new(t))))
    }
    fn two_level(d: u8) -> Self {
        Self::with(Kind::TwoL(Box::new(TwoL::new(d))))
    }
    fn d_hash(d: u8) -> Self {
        Self::with(Kind::DHash(Box::new(DHash::new(d))))
    }
    fn dec_brw(c: u8) -> Self {
        Self::with(Kind::Dec(DecBrw::new(c)))
    }

    fn with(kind: Kind<F>) -> Self {
        PrimeHasher {
            blocks: Blocks::default(),
            n: 0,
            kind,
        }
    }

    /// Message bytes so far.
    pub fn bytes(&self) -> u64 {
        self.n
    }

    /// Pretend `n` bytes were absorbed (limit tests: 2^61 bytes cannot be hashed in a test).
    #[cfg(test)]
    pub fn set_bytes_for_test(&mut self, n: u64) {
        self.n = n;
    }

    /// Append `data`. The SIMD state's updates (every update of a long stream) are a
    /// jump to the backend's code, inlined into the caller; the others are out of line.
    /// (With them in here, and the binary fields' code in `Hasher::absorb`, each update
    /// went through two more frames, 112 instructions before the backend's code where
    /// there are 57 now. TSC cycles per streamed message of 64 KiB, before -> after:
    /// 8-decBRWHash1305 in 4 KiB updates 7167 -> 6673, in 1 KiB updates 9948 -> 8081;
    /// 4-decBRWHash1305 in 4 KiB updates 7415 -> 7331, in 1 KiB updates 8913 -> 8408;
    /// 4-decBRWHash1271 8699 -> 8580; Poly1305 9694 -> 9570.)
    #[inline]
    pub fn update(&mut self, p: &Powers<F>, data: &[u8]) {
        self.n += data.len() as u64;
        if let Kind::Simd(s) = &mut self.kind {
            return s.update(p, data);
        }
        self.update_other(p, data);
    }

    #[inline(never)]
    fn update_other(&mut self, p: &Powers<F>, data: &[u8]) {
        let Self { blocks, kind, .. } = self;
        if let Kind::Deferred(d) = kind {
            let (alg, backend) = (d.alg, d.backend);
            if let Some(mut head) = Self::leave_deferred(d, data) {
                // d-2LHash and d-Hash: the scalar state, its super-blocks on the lanes.
                #[cfg(target_arch = "x86_64")]
                if !SimdState::<F>::has_plan(alg, backend) {
                    let lanes = SimdState::<F>::two_level_kernel(alg, backend);
                    *kind = Kind::Scalar(Box::new(
                        ScalarHasher::with_lanes(alg, lanes).lanes_at_once(),
                    ));
                    if let Kind::Scalar(s) = kind {
                        if !head.is_empty() {
                            crate::backend::scalar::update(s, p, &head);
                            wipe_vec(&mut head);
                        }
                        return crate::backend::scalar::update(s, p, data);
                    }
                }
                // Past the crossover: the SIMD state, its plan chosen for updates of this
                // one's size, takes the bytes held so far and then `data`. (Built straight
                // into `kind`: a state built, then moved in, was read back by 16-byte loads
                // just after its 8-byte stores, a store-forwarding stall.)
                *kind = Kind::Simd(
                    SimdState::for_stream(alg, backend, data.len()).expect("a planned state"),
                );
                if let Kind::Simd(s) = kind {
                    // (A first update past the hold holds nothing: no empty update, 30-47
                    // TSC cycles of dispatch and set-up per streamed message.)
                    if !head.is_empty() {
                        s.update(p, &head);
                        wipe_vec(&mut head);
                    }
                    return s.update(p, data);
                }
            }
            return;
        }
        #[cfg(target_arch = "x86_64")]
        if let Kind::Scalar(s) = kind {
            return crate::backend::scalar::update(s, p, data);
        }
        blocks.feed(F::BLOCK, data, |b| kind.absorb(p, b));
    }

    /// An update of a deferred state: `data` held (`None`) while the message stays within
    /// the hold, else the bytes held so far (taken out of `d`), for the SIMD state to take
    /// before `data`.
    #[inline(always)]
    fn leave_deferred(d: &mut Deferred, data: &[u8]) -> Option<Vec<u8>> {
        if d.head.len() + data.len() <= d.limit {
            hold_wiping(&mut d.head, data, d.limit);
            return None;
        }
        Some(core::mem::take(&mut d.head))
    }

    /// The whole message while it is held below the SIMD crossover (a deferred state): its
    /// value is then best computed as a one-shot message (`Key::hash`).
    pub fn whole_message(&self) -> Option<&[u8]> {
        match &self.kind {
            Kind::Deferred(d) => Some(&d.head),
            _ => None,
        }
    }

    /// [`finish`](Self::finish) without using up the state. A SIMD state finishes a copy on
    /// the stack; the others (small, ordinary allocations) are cloned.
    pub fn finish_ref(&self, p: &Powers<F>) -> F {
        match &self.kind {
            Kind::Simd(s) => s.finish_copy(p),
            // (A scalar state takes every byte itself: `blocks` stays empty.) A clone of a
            // d-2LHash state on the lanes, its buffer of held super-blocks with it, cost
            // `Hasher::finalize` about 600 TSC cycles (Intel Xeon, 4-Hash1271, 64 KiB in
            // one update: 9228 against 7896 with a key).
            #[cfg(target_arch = "x86_64")]
            Kind::Scalar(s) => {
                debug_assert!(self.blocks.tail().is_empty());
                crate::backend::scalar::finish_ref(s, p)
            }
            _ => self.clone().finish(p),
        }
    }

    /// The value v of SPEC.md section 5 (before `out()`). The state is used up in place
    /// (not moved: a move is a copy) and wiped when the caller drops it.
    pub fn finish(&mut self, p: &Powers<F>) -> F {
        let PrimeHasher { blocks, kind, n } = self;
        let n = *n;
        if !blocks.tail().is_empty() {
            kind.absorb(p, blocks.tail());
        }
        let x = p.x();
        let length = F::from_u64(n.wrapping_mul(8));
        match kind {
            Kind::Poly(h) => h.finish(p),
            Kind::Brw(b) => x.mul(x.mul(b.finish(&p.sq)).add(length)),
            Kind::TBrw(h) => h.finish(p, length),
            Kind::TwoL(h) => h.finish(p, length),
            Kind::DHash(h) => h.finish(p, length),
            Kind::Dec(h) => h.finish(p, n.div_ceil(F::BLOCK as u64), length),
            Kind::Simd(s) => s.finish(p),
            Kind::Deferred(d) => {
                // A whole message (`Hasher` takes `Key::hash` for it; this serves any other
                // caller): scalar code below the crossover, where it can run, else SIMD.
                #[cfg(target_arch = "x86_64")]
                if d.head.len() <= SimdState::<F>::crossover(d.alg, d.backend)
                    && crate::backend::scalar_here()
                {
                    return crate::backend::scalar::one_shot(d.alg, p, &d.head);
                }
                if let Some(v) = SimdState::one_shot(d.alg, d.backend, p, &d.head) {
                    return v;
                }
                if let Some(v) =
                    SimdState::two_level_one_shot(d.alg, d.backend, p.squares(), &d.head)
                {
                    return v;
                }
                let mut h = PrimeHasher::new(d.alg, Backend::Portable, None);
                h.update(p, &d.head);
                h.finish(p)
            }
            #[cfg(target_arch = "x86_64")]
            Kind::Scalar(s) => crate::backend::scalar::finish(s, p),
        }
    }
}

/// Wipes the accumulators (and the message bytes held) of every kind, in place: the kind
/// stays (a SIMD state keeps its box, emptied), and hashes again as a new message would.
impl<F: SimdPrime> Zeroize for PrimeHasher<F> {
    fn zeroize(&mut self) {
        #[cfg(test)]
        wipe_log::note();
        self.blocks.zeroize();
        self.n = 0;
        self.kind.zeroize();
    }
}

impl<F: SimdPrime> Drop for PrimeHasher<F> {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl<F: SimdPrime> Zeroize for Kind<F> {
    fn zeroize(&mut self) {
        match self {
            Kind::Poly(h) => h.zeroize(),
            Kind::Brw(b) => b.zeroize(),
            Kind::TBrw(h) => h.zeroize(),
            Kind::TwoL(h) => h.zeroize(),
            Kind::DHash(h) => h.zeroize(),
            Kind::Dec(h) => h.zeroize(),
            Kind::Simd(s) => s.zeroize(),
            Kind::Deferred(d) => wipe_vec(&mut d.head),
            #[cfg(target_arch = "x86_64")]
            Kind::Scalar(s) => s.zeroize(),
        }
    }
}

#[cfg(test)]
impl<F: SimdPrime> PrimeHasher<F> {
    /// Whether the state is as wiped (a SIMD state: its fields other than vectors, which
    /// only the backend's entry points may read; the tests hash with it after a wipe).
    pub(crate) fn is_wiped(&self) -> bool {
        let zero = |x: F| x.to_u192() == [0; 3];
        let kind = match &self.kind {
            Kind::Poly(h) => h.is_wiped(zero),
            Kind::Brw(b) => b.is_wiped(zero),
            Kind::TBrw(h) => h.is_wiped(zero),
            Kind::TwoL(h) => h.is_wiped(zero),
            Kind::DHash(h) => h.is_wiped(zero),
            Kind::Dec(h) => h.is_wiped(zero),
            Kind::Simd(s) => s.is_wiped(),
            Kind::Deferred(d) => d.head.is_empty(),
            #[cfg(target_arch = "x86_64")]
            Kind::Scalar(s) => s.is_wiped(),
        };
        kind && self.blocks.0.is_wiped() && self.n == 0
    }

    /// The name of the state's kind.
    pub(crate) fn kind_name(&self) -> &'static str {
        match &self.kind {
            Kind::Poly(_) => "poly",
            Kind::Brw(_) => "brw",
            Kind::TBrw(_) => "t-brw",
            Kind::TwoL(_) => "2l",
            Kind::DHash(_) => "d-hash",
            Kind::Dec(_) => "dec",
            Kind::Simd(_) => "simd",
            Kind::Deferred(_) => "deferred",
            #[cfg(target_arch = "x86_64")]
            Kind::Scalar(_) => "scalar",
        }
    }
}

impl<F: SimdPrime> Kind<F> {
    /// Absorb one block given as bytes: a full block, or the short last one at the end.
    #[inline]
    fn absorb(&mut self, p: &Powers<F>, bytes: &[u8]) {
        // pad1 (polyHash) adds the marker 2^(8 len); pad2 (all others) adds nothing.
        let pad2 = || F::from_block(bytes, false);
        match self {
            Kind::Poly(h) => h.absorb(p, F::from_block(bytes, true)),
            Kind::Brw(b) => b.push(&p.sq, pad2()),
            Kind::TBrw(h) => h.absorb(p, pad2()),
            Kind::TwoL(h) => h.absorb(p, pad2()),
            Kind::DHash(h) => h.absorb(p, bytes),
            Kind::Dec(h) => h.absorb(p, pad2()),
            // SIMD states take bytes directly (see `update`); they never hold a block here.
            Kind::Simd(s) => s.update(p, bytes),
            Kind::Deferred(d) => extend_wiping(&mut d.head, bytes),
            #[cfg(target_arch = "x86_64")]
            Kind::Scalar(s) => crate::backend::scalar::update(s, p, bytes),
        }
    }
}

/// x * Poly(x; first, rest..., length): the Horner tail of t-BRWHash and d-2LHash.
fn horner_tail<F: Field>(p: &Powers<F>, first: F, rest: &[F], length: F) -> F {
    let mut h = Horner::default();
    for &m in [first].iter().chain(rest).chain([&length]) {
        h.push(p.hx(), m);
    }
    let v = h.value(p.hx());
    h.zeroize();
    p.x().mul(v)
}

/// Horner powers of x a message of `max_len` bytes needs: a group of at most its blocks plus
/// two (the BRW value and L of t-BRWHash and d-2LHash), at most G.
pub(crate) fn horner_powers_needed(max_len: u64, block: usize) -> usize {
    (max_len.div_ceil(block as u64).saturating_add(2)).min(G as u64) as usize
}

/// Number of squarings x^(2^j) a message of `max_len` bytes in `block`-byte blocks needs:
/// lg l + 1 for the BRW stack and decBRWHash's x^D, at least 6 for chunks, super-blocks and
/// gamma = x^(2^d) or x^32.
pub(crate) fn squares_needed(max_len: u64, block: usize) -> usize {
    let l = max_len.div_ceil(block as u64);
    ((u64::BITS - l.leading_zeros()) as usize + 2).clamp(6, SQUARES)
}

/// Horner's last step for a short last block (if any): (acc + pad1(last)) x, where `acc` is
/// x * Poly(x; the blocks before).
#[inline(always)]
pub(crate) fn scalar_last<F: crate::field::PrimeField>(acc: F, x: F, last: &[u8]) -> F {
    if last.is_empty() {
        return acc;
    }
    F::reduce(acc.add_block(F::from_block(last, true)).mul_block_wide(x))
}

#[cfg(test)]
mod tests;
