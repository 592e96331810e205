//! d-2LHash (SPEC.md 5.6) and d-Hash (5.7).
//!
//! d-2LHash: BRW over super-blocks of delta = 2^d - 1 blocks (straight-line code, no stack),
//! Horner over the super-block values in gamma = x^(2^d), then
//! x * Poly(x; that value, the blocks of the final partial super-block, L).

use super::decbrw::{Halves, Lanes};
use super::polyhash::PolyHash;
use super::scalar::{end_weight, super_block, two_level_shape, two_level_tail};
use super::{extend_wiping, horner_tail, wipe_vec, Powers};
use crate::eval::brw::{ubrw_at, BlockAt};
use crate::eval::{brw_short, Horner};
use crate::field::{Field, PrimeField};
use core::marker::PhantomData;
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

/// d-2LHash of a whole message of at least one super-block on the W lanes of `V` (a SIMD
/// backend's), given `sq[j]` = x^(2^j) for j < `lanes_squares(d, W, msg.len())`.
///
/// The super-blocks go to the lanes in groups of W, the r = (count mod W) left over first:
/// they take a tree in lanes 0..r (the others read zeros), moved up to lanes W - r..W
/// (`Lanes::shift_up`, which zeroes the lanes below), so that lane j holds super-blocks
/// j + r - W, j + r, j + r + W, ... and every lane ends in the last group. W BRW trees side by
/// side, block i of each loaded into one vector (`Lanes::load_strided`), and per lane Horner
/// in gamma^W over its super-blocks; the lanes are then weighted by x^(t+2) gamma^(W-1-j), so
/// that the super-blocks' value V never exists apart; the t blocks after them and L go
/// through Horner in x in scalar code, beside the lanes (`scalar::two_level_end`).
///
/// (The r super-blocks took a last tree after the whole groups, with weights of their own,
/// until the first group was measured cheaper: its tree's latency hides behind the groups
/// after it, and its lanes need no second weighting. 4-Hash1271 with a key on Zen 4, TSC
/// cycles per message, min of 3: 2025 B (9 super-blocks) 631 -> 487, 2250 B (10) 645 -> 500,
/// 4 KiB (18) 953 -> 831, 5000 B (22) 1054 -> 932; 5-2LHash1305 5000 B (10) 1462 -> 1203.)
#[inline(always)]
pub(crate) fn two_level_lanes<F: PrimeField, V: Lanes<F>>(sq: &[F], d: u8, msg: &[u8]) -> F {
    two_level_lanes_with::<F, V, AllLanes>(sq, d, msg)
}

/// [`two_level_lanes`] on the 8 lanes of `V`, folded into its 4-lane half at the end, one
/// or no super-block before the whole groups in scalar code ([`FoldHalves`]); for d >= 3
/// and messages of at least 8 super-blocks.
#[inline(always)]
pub(crate) fn two_level_lanes_halves<F: PrimeField, V: Halves<F>>(
    sq: &[F],
    d: u8,
    msg: &[u8],
) -> F {
    // (d >= 3 only: `SimdState::two_level_eight`; d = 2 would take a 4-lane tree's code.)
    let (_, t) = two_level_shape::<F>(d, msg.len());
    match (d, t >= lane_tail_from::<F>()) {
        (3, false) => lanes_delta::<F, V, FoldHalves, 7, false>(sq, msg),
        (3, true) => lanes_delta::<F, V, FoldHalves, 7, true>(sq, msg),
        (4, false) => lanes_delta::<F, V, FoldHalves, 15, false>(sq, msg),
        (4, true) => lanes_delta::<F, V, FoldHalves, 15, true>(sq, msg),
        (5, false) => lanes_delta::<F, V, FoldHalves, 31, false>(sq, msg),
        (5, true) => lanes_delta::<F, V, FoldHalves, 31, true>(sq, msg),
        _ => two_level_elsewhere(sq[0], d, msg),
    }
}

/// d-2LHash in scalar code, out of line (the 8 lanes' entry point is not for d = 2; no
/// second copy of a tree's code in it).
#[inline(never)]
fn two_level_elsewhere<F: PrimeField>(x: F, d: u8, msg: &[u8]) -> F {
    super::scalar::two_level_key(x, d, msg).unwrap_or(F::ZERO)
}

/// [`two_level_lanes`] with the start and end `R`.
#[inline(always)]
fn two_level_lanes_with<F: PrimeField, V: Lanes<F>, R: Edges<F, V>>(
    sq: &[F],
    d: u8,
    msg: &[u8],
) -> F {
    // Two instances per d, each with one end: a branch between the two ends in one function
    // cost the scalar end about 10% (4-Hash1271 with a key, 1200 B: 442 -> 516 TSC cycles).
    let (nsb, t) = two_level_shape::<F>(d, msg.len());
    let lane_tail = t >= lane_tail_from::<F>();
    if flat_fits::<F, V>(d, nsb) {
        return match (d, lane_tail) {
            (4, false) => flat_delta::<F, V, 15, false>(sq, msg),
            (4, true) => flat_delta::<F, V, 15, true>(sq, msg),
            (_, false) => flat_delta::<F, V, 31, false>(sq, msg),
            (_, true) => flat_delta::<F, V, 31, true>(sq, msg),
        };
    }
    match (d, lane_tail) {
        (2, false) => lanes_delta::<F, V, R, 3, false>(sq, msg),
        (2, true) => lanes_delta::<F, V, R, 3, true>(sq, msg),
        (3, false) => lanes_delta::<F, V, R, 7, false>(sq, msg),
        (3, true) => lanes_delta::<F, V, R, 7, true>(sq, msg),
        (4, false) => lanes_delta::<F, V, R, 15, false>(sq, msg),
        (4, true) => lanes_delta::<F, V, R, 15, true>(sq, msg),
        (_, false) => lanes_delta::<F, V, R, 31, false>(sq, msg),
        (_, true) => lanes_delta::<F, V, R, 31, true>(sq, msg),
    }
}

/// How [`lanes_delta`] starts and ends: the super-blocks before its whole groups, and the
/// end from the lanes' Horner values.
trait Edges<F: PrimeField, V: Lanes<F>> {
    /// From the lanes' Horner values `acc` (n lanes in use: lane j weighted by
    /// gamma^(n-1-j)) to the digest, with the blocks after the super-blocks (from `sb.1` of
    /// `msg`; `sb.0` = DELTA) and L.
    fn end<const LANE_TAIL: bool>(
        sq: &[F],
        msg: &[u8],
        sb: (usize, usize),
        n: usize,
        acc: V::Wide,
    ) -> F;

    /// Most super-blocks before the whole groups that go to scalar code.
    const SCALAR_FRONT: usize;

    /// Whether a message of at most one group computes its tail on the lanes before the
    /// trees (`end` is then not called).
    const EARLY_TAIL: bool;

    /// The BRW trees of the r (1 .. W - 1) super-blocks of DELTA blocks that start `msg`
    /// (which goes on after them), reduced, in lanes W - r .. W, zero below, or any value
    /// whose weighted lane sum is theirs; `sq[j]` = x^(2^j) and `sqv` their splats, j < d.
    #[inline(always)]
    fn front<const DELTA: usize>(sq: &[F], sqv: &[V], msg: &[u8], r: usize) -> V {
        if r <= Self::SCALAR_FRONT {
            scalar_front::<F, V, DELTA>(sq, msg, r)
        } else {
            lanes_front::<F, V, DELTA>(sqv, msg, r)
        }
    }
}

/// On the lanes of `V`.
struct AllLanes;

impl<F: PrimeField, V: Lanes<F>> Edges<F, V> for AllLanes {
    // One super-block in scalar code (measured at `FoldHalves`' limit: on 4 lanes, min TSC
    // cycles with a key, n super-blocks and 100 bytes more, lanes -> scalar, Zen 5:
    // 4-Hash1271 n = 5 403 -> 347, 9 490 -> 435, 13 578 -> 520; 5-Hash1271 (50 bytes
    // more) n = 9 1043 -> 737, 13 1212 -> 955, 17 1400 -> 1124; with 2 scalar, n = 10
    // 500 -> 601 for 4-Hash1271).
    const SCALAR_FRONT: usize = 1;
    const EARLY_TAIL: bool = true;

    #[inline(always)]
    fn end<const LANE_TAIL: bool>(
        sq: &[F],
        msg: &[u8],
        sb: (usize, usize),
        n: usize,
        acc: V::Wide,
    ) -> F {
        lanes_end::<F, V, LANE_TAIL>(sq, msg, sb, n, acc)
    }
}

/// The 8 lanes of `V` folded into its 4-lane half first (lane k times gamma^4 plus lane
/// k + 4: one product), which then ends as 4 lanes do: half the lane weights and a 4-lane
/// tail. For whole groups only (n = 8).
struct FoldHalves;

impl<F: PrimeField, V: Halves<F>> Edges<F, V> for FoldHalves {
    const SCALAR_FRONT: usize = SCALAR_FRONT;
    const EARLY_TAIL: bool = false;

    #[inline(always)]
    fn end<const LANE_TAIL: bool>(
        sq: &[F],
        msg: &[u8],
        sb: (usize, usize),
        n: usize,
        acc: V::Wide,
    ) -> F {
        let h = <V::Half as Lanes<F>>::W;
        debug_assert!(n == V::W && V::W == 2 * h);
        let d = (sb.0 + 1).trailing_zeros() as usize;
        let lo = <V::Half as Field>::reduce(V::upper_wide(V::low_to_high(acc)));
        let folded = lo.mul_acc(V::Half::splat(sq[d + 2]), V::upper_wide(acc));
        lanes_end::<F, V::Half, LANE_TAIL>(sq, msg, sb, h, folded)
    }
}

/// [`Edges::front`] on the lanes: r of them loaded, one tree per lane.
#[inline(always)]
fn lanes_front<F: PrimeField, V: Lanes<F>, const DELTA: usize>(
    sqv: &[V],
    msg: &[u8],
    r: usize,
) -> V {
    let u = ubrw_at::<V, [V], DELTA>(sqv, &Strided::<F, V, DELTA, FRONT>(msg, r, PhantomData), 0);
    V::reduce(u).shift_up(V::W - r)
}

/// [`Edges::front`] in scalar code, whose products run beside the lanes' (a tree on the lanes
/// costs as much as a whole group): the r values' Horner in gamma, in the last lane (whose
/// weight is gamma^0).
#[inline(always)]
fn scalar_front<F: PrimeField, V: Lanes<F>, const DELTA: usize>(
    sq: &[F],
    msg: &[u8],
    r: usize,
) -> V {
    let d = (DELTA + 1).trailing_zeros() as usize;
    let sb = DELTA * F::BLOCK;
    let mut v = F::ZERO;
    for k in 0..r {
        let u = super_block::<F, DELTA>(sq, &msg[k * sb..(k + 1) * sb]);
        v = F::reduce(if k == 0 {
            u
        } else {
            F::wide_add(v.mul_wide(sq[d]), u)
        });
    }
    let mut lanes = [F::ZERO; 16];
    lanes[V::W - 1] = v;
    let out = V::from_lanes(&lanes[..V::W]);
    lanes.zeroize();
    v.zeroize();
    out
}

/// Most super-blocks that [`FoldHalves`] hashes before its groups in scalar code. Zen 5,
/// 4-Hash1271 with a key, min TSC cycles of 3 alternating runs at 8 + r super-blocks and
/// 100 bytes more, r = 1 / 2 / 3 / 4, the rest on the lanes: none in scalar code 455 / 468
/// / 474 / 513, up to 2 376 / 438 / 474 / 510, up to 3 367 / 422 / 487 / 510, up to 4 364 /
/// 425 / 484 / 542.
const SCALAR_FRONT: usize = 2;

/// The squarings x^(2^j) that [`two_level_lanes`] reads for a message of `len` bytes on W
/// lanes (j below the count returned): j < d in the trees, up to gamma = x^(2^d) in the
/// weights x^(t+2) gamma^k for the k they need, gamma^W between groups. (A one-shot
/// message computes no more of the chain than that.)
pub(crate) fn lanes_squares<F: PrimeField>(d: u8, w: usize, len: usize) -> usize {
    let d = usize::from(d);
    let (nsb, _) = two_level_shape::<F>(d as u8, len);
    let (whole, r) = (nsb / w, nsb % w);
    let n_wk = if whole > 0 { w } else { r };
    let mut top = d;
    if n_wk >= 2 {
        top = top.max(d + (usize::BITS - 1 - (n_wk - 1).leading_zeros()) as usize);
    }
    if whole >= 2 || (whole == 1 && r > 0) {
        top = top.max(d + w.trailing_zeros() as usize);
    }
    top + 1
}

/// Whether [`two_level_lanes`] lays each tree flat ([`flat_delta`]): fewer super-blocks than
/// lanes, whose trees side by side would leave lanes idle, on 4 lanes with d >= 4 (a tree's
/// 2^(d-2) first-level products fill whole vectors).
#[inline(always)]
fn flat_fits<F: PrimeField, V: Lanes<F>>(d: u8, nsb: usize) -> bool {
    V::W == 4 && d >= 4 && nsb < V::W
}

/// [`two_level_lanes`] for fewer super-blocks than lanes, each BRW tree laid flat across the
/// lanes instead of one tree per lane (whose levels are a chain of d - 1 products, with
/// lanes idle). A tree is linear in its first-level values P_k = (M_{4k+1} + x)(M_{4k+2} +
/// x^2) + M_{4k+3}: BRW(M_1 .. M_delta) = sum_k P_k W_k, where W_k is the product of the
/// factors x^(2^j) + M_(i 2^j) (j >= 2) on the way from P_k to the root where P_k lies in
/// the multiplied (left) half. The super-block's weight in the digest, G = x^(t+2)
/// gamma^(nsb-1-i), joins the W_k, so the digest is sum P_k (W_k G) + the tail: the products
/// P_k (one vector product per 4 of them) and the weights (two, beside them) are
/// independent, and one product joins them: three products deep, against a tree's d - 1
/// levels, Horner in gamma and the weight after it. For 4 lanes lane k takes P_(4v+k) of
/// vector v: the factors of j = 2 (lanes 0 and 2) and j = 3 (lanes 0 and 1) are in-vector,
/// those of j >= 4 are the same for all lanes of a vector and join G in scalar code.
#[inline(always)]
fn flat_delta<F: PrimeField, V: Lanes<F>, const DELTA: usize, const LANE_TAIL: bool>(
    sq: &[F],
    msg: &[u8],
) -> F {
    let b = F::BLOCK;
    let d = (DELTA + 1).trailing_zeros() as usize;
    let sb = DELTA * b;
    let (nsb, t) = two_level_shape::<F>(d as u8, msg.len());
    debug_assert!(V::W == 4 && d >= 4 && (1..V::W).contains(&nsb));
    // (The loads read `msg`, not just the super-blocks: lanes past them are either not
    // in the tree's values or masked, and plain loads reach further.)
    let sb_bytes = (nsb * sb).min(msg.len());
    let (x, x2) = (V::splat(sq[0]), V::splat(sq[1]));
    let (x4, x8) = (V::splat(sq[2]), V::splat(sq[3]));
    let mut wk = lane_weights(sq, d, t, nsb);
    let mut acc = <V as Field>::Wide::default();
    for i in 0..nsb {
        for v in 0..(1 << (d - 2)) / V::W {
            // Vector v's lanes k take blocks 16 v + 4 k .. of super-block i.
            let base = i * sb + 16 * v * b;
            let a = x.add_block(flat_load::<F, V>(msg, base, 4 * b));
            let bb = x2.add_block(flat_load::<F, V>(msg, base + b, 4 * b));
            let c = flat_load::<F, V>(msg, base + 2 * b, 4 * b);
            let p = V::reduce(a.mul_acc(bb, c.widen()));
            // j = 2: blocks 16 v + 4 and + 12 for lanes 0 and 2 (lane 3 would read past
            // the super-block: not loaded); j = 3: block 16 v + 8 for lanes 0 and 1.
            let f2 = x4
                .add_block(V::load_strided_lanes(msg, base + 3 * b, 4 * b, 3))
                .keep_or_one(0b0101);
            let f3 = x8
                .add_block(flat_load::<F, V>(msg, base + 7 * b, 0))
                .keep_or_one(0b0011);
            // j >= 4: the same factor for the whole vector where its group is a left half.
            let mut g = wk[nsb - 1 - i];
            // (No `skip`: it left a call of `Take::nth` out of line.)
            for (j, &s) in sq.iter().enumerate().take(d) {
                let group = (4 * v) >> j.saturating_sub(2);
                if j >= 4 && group % 2 == 0 {
                    let at = i * sb + (((group + 1) << j) - 1) * b;
                    g = g.mul(s.add_block(F::load(&msg[at..at + b], false)));
                }
            }
            let w = f2.mul_chain(f3.mul_chain(V::splat(g)));
            g.zeroize();
            acc = p.mul_acc(w, acc);
        }
    }
    wk.zeroize();
    if LANE_TAIL {
        let tail = tail_lanes::<F, V>(sq, &msg[sb_bytes..], t, msg.len());
        V::reduce(tail.mul_acc(V::ladder(sq[0]), acc)).sum_lanes()
    } else {
        let mut tail_value = two_level_tail(sq, msg, sb_bytes, t);
        let out = V::reduce(acc).sum_lanes().add(tail_value);
        tail_value.zeroize();
        out
    }
}

/// `Lanes::load_strided` by plain loads where every lane's 16 bytes lie in `bytes`.
#[inline(always)]
fn flat_load<F: PrimeField, V: Lanes<F>>(bytes: &[u8], at: usize, stride: usize) -> V {
    if at + (V::W - 1) * stride + 16 <= bytes.len() {
        V::load_strided_whole(bytes, at, stride)
    } else {
        V::load_strided(bytes, at, stride)
    }
}

/// [`two_level_lanes`] for super-blocks of DELTA = 2^d - 1 blocks.
#[inline(always)]
fn lanes_delta<
    F: PrimeField,
    V: Lanes<F>,
    R: Edges<F, V>,
    const DELTA: usize,
    const LANE_TAIL: bool,
>(
    sq: &[F],
    msg: &[u8],
) -> F {
    let b = F::BLOCK;
    let d = (DELTA + 1).trailing_zeros() as usize;
    let lg_w = V::W.trailing_zeros() as usize;
    let sb = DELTA * b;
    let group = V::W * sb;
    let (nsb, _) = two_level_shape::<F>(d as u8, msg.len());
    debug_assert!(nsb >= 1 && sq.len() >= lanes_squares::<F>(d as u8, V::W, msg.len()));
    // Bytes of the complete super-blocks (the last may end with the short last block).
    let sb_bytes = (nsb * sb).min(msg.len());
    let (whole, r) = (nsb / V::W, nsb % V::W);
    // One group at most: the tail's chain before the trees, which are short enough for the
    // reorder buffer to hold the two side by side (after them, it waited for them: Zen 5,
    // min TSC cycles, 4-Hash1271 with a key / one-shot, 1 KiB 243 / 302 -> 227 / 282, 1500 B
    // 331 / 399 -> 318 / 380; 4-Hash1305 1 KiB one-shot 419 -> 383). From two groups on,
    // the trees go first (`lanes_end`).
    let early = if LANE_TAIL && R::EARLY_TAIL && whole <= 1 {
        let (_, t) = two_level_shape::<F>(d as u8, msg.len());
        let tail = tail_lanes::<F, V>(sq, &msg[sb_bytes..], t, msg.len());
        Some(tail.mul_wide(V::ladder(sq[0])))
    } else {
        None
    };
    let mut sqv = [V::ZERO; 5];
    for (v, &s) in sqv.iter_mut().zip(&sq[..d]) {
        *v = V::splat(s);
    }
    // The lanes' values, n of them in the last group (W, or r alone).
    let (acc, n) = if whole == 0 {
        (lane_trees::<F, V, DELTA>(&sqv[..d], &msg[..sb_bytes]), r)
    } else {
        // gamma^W (read only between groups: `lanes_squares`).
        let step = if whole > 1 || r > 0 {
            V::splat(sq[d + lg_w])
        } else {
            V::ZERO
        };
        // The r first super-blocks, whole and followed by at least a group: plain loads.
        // (No closure here: SIMD code must inline whole into its `#[target_feature]` caller.)
        let front = if r > 0 {
            Some(R::front::<DELTA>(sq, &sqv[..d], msg, r))
        } else {
            None
        };
        let body = &msg[r * sb..];
        let mut acc = lane_trees::<F, V, DELTA>(&sqv[..d], body);
        if let Some(f) = front {
            acc = V::wide_add(acc, f.mul_wide(step));
        }
        for g in 1..whole {
            acc = V::wide_add(
                V::reduce(acc).mul_wide(step),
                lane_trees::<F, V, DELTA>(&sqv[..d], &body[g * group..]),
            );
        }
        (acc, V::W)
    };
    if let Some(tail) = early {
        let (_, t) = two_level_shape::<F>(d as u8, msg.len());
        let wv = weight_lanes::<F, V>(sq, d, t, n);
        return V::reduce(V::reduce(acc).mul_acc(wv, tail)).sum_lanes();
    }
    R::end::<LANE_TAIL>(sq, msg, (DELTA, sb_bytes), n, acc)
}

/// [`AllLanes`]' end of [`lanes_delta`]; `sb` = (DELTA, the super-blocks' bytes).
#[inline(always)]
fn lanes_end<F: PrimeField, V: Lanes<F>, const LANE_TAIL: bool>(
    sq: &[F],
    msg: &[u8],
    (delta, sb_bytes): (usize, usize),
    n: usize,
    acc: V::Wide,
) -> F {
    let d = (delta + 1).trailing_zeros() as usize;
    let (_, t) = two_level_shape::<F>(d as u8, msg.len());
    // The end after the trees: before them, its chain of dependent products held the
    // reorder buffer while the trees waited (4-Hash1271 with a key, TSC cycles per message:
    // 4 KiB 942 -> 757, 5000 B 1040 -> 849; computing the lanes' weights first was slower too).
    let sum = if LANE_TAIL {
        // The t blocks and L on the lanes, weighted there.
        let tail = tail_lanes::<F, V>(sq, &msg[sb_bytes..], t, msg.len());
        let wv = weight_lanes::<F, V>(sq, d, t, n);
        V::reduce(acc).mul_acc(wv, tail.mul_wide(V::ladder(sq[0])))
    } else {
        // In scalar code (`scalar::two_level_end`), added after the lanes' sum.
        let mut tail_value = two_level_tail(sq, msg, sb_bytes, t);
        let s = V::reduce(acc).mul_wide(weight_lanes::<F, V>(sq, d, t, n));
        let out = V::reduce(s).sum_lanes().add(tail_value);
        tail_value.zeroize();
        return out;
    };
    V::reduce(sum).sum_lanes()
}

/// The fewest blocks after the super-blocks that [`lanes_delta`] runs on the lanes
/// ([`tail_lanes`]) rather than in scalar code: there, Horner in pairs is a chain of t / 2
/// dependent products that waits for the trees; on the lanes it is a chain of t / W, but
/// the lanes' weights x^(W - j) cost two products more. TSC cycles per message with a key on
/// IFMA (Zen 4), min of 5, scalar -> lanes, at 4 super-blocks: 4-Hash1271 t = 0: 249 -> 290,
/// t = 4: 306 -> 364, t = 6: 318 -> 371, t = 7: 352 -> 327, t = 8: 361 -> 335, t = 9:
/// 379 -> 336, t = 14: 419 -> 366; 4-Hash1305 t = 5: 475 -> 469, t = 6: 446 -> 383, t = 9:
/// 553 -> 436; 5-Hash1271 t = 10: 483 -> 457.
const fn lane_tail_from<F: PrimeField>() -> usize {
    // 2^130 - 5's scalar product is the slower one.
    if F::BLOCK == 16 {
        6
    } else {
        7
    }
}

/// Lane j's weight x^(t+2) gamma^(n-1-j) (`lane_weights`), as one vector.
#[inline(always)]
fn weight_lanes<F: PrimeField, V: Lanes<F>>(sq: &[F], d: usize, t: usize, n: usize) -> V {
    let mut wk = lane_weights(sq, d, t, n);
    let mut w = [F::ZERO; 16];
    for (j, v) in w[..n].iter_mut().enumerate() {
        *v = wk[n - 1 - j];
    }
    let v = V::from_lanes(&w[..V::W]);
    w.zeroize();
    wk.zeroize();
    v
}

/// The t blocks after the super-blocks (`tail`) and L on the W lanes, unweighted: Horner in
/// x^W over rows of W values, the first row padded in front with zeros so that L ends the
/// last one; lane j then wants the weight x^(W - j) (`Lanes::ladder`) for
/// x * Poly(x; M_1 .. M_t, L). (In scalar code beside the lanes, this chain of t / 2
/// dependent products waited for the trees.)
#[inline(always)]
fn tail_lanes<F: PrimeField, V: Lanes<F>>(sq: &[F], tail: &[u8], t: usize, len: usize) -> V {
    let w = V::W;
    let rows = (t + 1).div_ceil(w);
    let pad = rows * w - (t + 1);
    let step = V::splat(sq[w.trailing_zeros() as usize]);
    let mut acc = tail_row::<F, V>(tail, 0, pad);
    for k in 1..rows {
        acc = V::reduce(acc.mul_acc(step, tail_row::<F, V>(tail, k, pad).widen()));
    }
    // L in lane W - 1 of the last row (whose lane reads past the message: zero).
    let l = F::from_u64((len as u64).wrapping_mul(8));
    acc.add(V::splat(l).shift_up(w - 1))
}

/// Row k of [`tail_lanes`]: blocks k W - pad .. (k + 1) W - pad of `tail` (zero outside).
#[inline(always)]
fn tail_row<F: PrimeField, V: Lanes<F>>(tail: &[u8], k: usize, pad: usize) -> V {
    let (b, w) = (F::BLOCK, V::W);
    if k == 0 {
        if tail.is_empty() {
            V::ZERO
        } else {
            V::load_strided(tail, 0, b).shift_up(pad)
        }
    } else {
        let at = (k * w - pad) * b;
        if at + (w - 1) * b + 16 <= tail.len() {
            V::load_strided_whole(tail, at, b)
        } else {
            V::load_strided(tail, at, b)
        }
    }
}

/// The lanes' weights wk[k] = x^(t+2) gamma^k for k < n (k's bits choose gamma^(2^i) =
/// sq[d + i]).
#[inline(always)]
fn lane_weights<F: PrimeField>(sq: &[F], d: usize, t: usize, n: usize) -> [F; 16] {
    let mut wk = [F::ZERO; 16];
    wk[0] = end_weight(sq, d as u8, t);
    for k in 1..n {
        let top = (usize::BITS - 1 - k.leading_zeros()) as usize;
        wk[k] = wk[k - (1 << top)].mul(sq[d + top]);
    }
    wk
}

/// W BRW trees of DELTA blocks side by side: lane j's super-block starts at byte
/// `j * DELTA * F::BLOCK` of `bytes` (zeros where `bytes` ends).
#[inline(always)]
fn lane_trees<F: PrimeField, V: Lanes<F>, const DELTA: usize>(sqv: &[V], bytes: &[u8]) -> V::Wide {
    let sb = DELTA * F::BLOCK;
    if bytes.len() >= V::W * sb + 16 - F::BLOCK {
        // Every lane's 16 bytes from each block lie in `bytes`: plain loads.
        ubrw_at::<V, [V], DELTA>(
            sqv,
            &Strided::<F, V, DELTA, WHOLE>(bytes, 0, PhantomData),
            0,
        )
    } else if bytes.len() >= V::W * sb {
        // W whole super-blocks that end `bytes` (a stream's run; 15-byte blocks): plain
        // loads but for the last block, whose 16th byte in the last lane lies past the end.
        ubrw_at::<V, [V], DELTA>(
            sqv,
            &Strided::<F, V, DELTA, LANES>(bytes, 0, PhantomData),
            0,
        )
    } else {
        // The message ends in these super-blocks: lanes past its end read zeros, and only
        // the last block (which may be short) needs bounds per lane.
        let lanes = bytes.len().div_ceil(sb);
        ubrw_at::<V, [V], DELTA>(
            sqv,
            &Strided::<F, V, DELTA, END>(bytes, lanes, PhantomData),
            0,
        )
    }
}

/// [`Strided`] loads: every block by plain loads.
const WHOLE: u8 = 2;
/// [`Strided`] loads: all W super-blocks whole, but the 16 bytes from the last block of the
/// last one may run past the bytes.
const LANES: u8 = 1;
/// [`Strided`] loads: the first `.1` lanes hold super-blocks whose blocks but the last are
/// whole, the others zeros.
const END: u8 = 0;
/// [`Strided`] loads: the first `.1` lanes hold whole super-blocks followed by more bytes
/// (16 from every block lie in the bytes), the others zeros.
const FRONT: u8 = 3;

/// Block i of W super-blocks of DELTA blocks side by side (`Lanes::load_strided`), by the
/// loads `MODE` allows ([`WHOLE`], [`LANES`], [`END`]).
struct Strided<'a, F, V, const DELTA: usize, const MODE: u8>(&'a [u8], usize, PhantomData<(F, V)>);

impl<F: PrimeField, V: Lanes<F>, const DELTA: usize, const MODE: u8> BlockAt<V>
    for Strided<'_, F, V, DELTA, MODE>
{
    #[inline(always)]
    fn at(&self, i: usize) -> V {
        let (b, sb) = (F::BLOCK, DELTA * F::BLOCK);
        if MODE == WHOLE || (MODE == LANES && i + 1 < DELTA) {
            V::load_strided_whole(self.0, i * b, sb)
        } else if MODE == FRONT || (MODE == END && i + 1 < DELTA) {
            V::load_strided_lanes(self.0, i * b, sb, self.1)
        } else {
            V::load_strided(self.0, i * b, sb)
        }
    }
}

/// [`two_level_lanes`] from the key `x` alone: its squarings x^(2^j), j <= d + lg W, in
/// registers (a one-shot message's).
#[inline(always)]
pub(crate) fn two_level_lanes_key<F: PrimeField, V: Lanes<F>>(x: F, d: u8, msg: &[u8]) -> F {
    let n = lanes_squares::<F>(d, V::W, msg.len());
    let mut sq = [F::ZERO; 10];
    sq[0] = x;
    for j in 1..n {
        sq[j] = sq[j - 1].square();
    }
    let v = two_level_lanes::<F, V>(&sq[..n], d, msg);
    sq.zeroize();
    v
}

/// One call of a streamed d-2LHash's lanes (`scalar::Groups`, through a backend's
/// `TwoLevelKernel`): lane j of the lane value runs Horner in gamma^W = `step` over
/// super-blocks j, j + W, ... of whole groups of W super-blocks (2^d - 1 blocks each): the
/// one at the start of `head` when `head` is not empty (a group completed in a buffer), then
/// `groups` from the start of `bytes`; from `sq[j]` = x^(2^j), j < d. Bytes after the groups
/// are not read into the values (they let the loads run whole).
///
/// The lane value stays in the lane type's own words (`Lanes::to_words`) between calls:
/// converting W values to lanes and back cost about 500 instructions with long carry chains
/// per call, as much as a group's trees.
pub(crate) struct GroupsCall<'a, F> {
    pub sq: &'a [F],
    pub d: u8,
    pub step: F,
    pub head: &'a [u8],
    pub bytes: &'a [u8],
    pub groups: usize,
    /// The lane value's words (at least `Lanes::WORDS`).
    pub lanes: &'a mut [u64],
    /// `Some(v)`: the lanes start from (0, ..., 0, v), not from `lanes` (the first call).
    pub start: Option<F>,
    /// `Some(out)`: the end of the message: the lanes after the call as one value, their
    /// Horner in gamma (lane j times gamma^(W-1-j)), from `gammas`.
    pub out: Option<&'a mut F>,
    /// gamma^1 .. gamma^(W-1) (at least), read with `out`.
    pub gammas: &'a [F],
}

/// Runs a [`GroupsCall`] on the W lanes of `V`.
#[inline(always)]
pub(crate) fn two_level_groups<F: PrimeField, V: Lanes<F>>(call: GroupsCall<'_, F>) {
    match call.d {
        2 => groups_delta::<F, V, 3>(call),
        3 => groups_delta::<F, V, 7>(call),
        4 => groups_delta::<F, V, 15>(call),
        _ => groups_delta::<F, V, 31>(call),
    }
}

/// [`two_level_groups`] for super-blocks of DELTA = 2^d - 1 blocks.
#[inline(always)]
fn groups_delta<F: PrimeField, V: Lanes<F>, const DELTA: usize>(call: GroupsCall<'_, F>) {
    let GroupsCall {
        sq,
        step,
        head,
        bytes,
        groups,
        lanes: words,
        start,
        out,
        gammas,
        ..
    } = call;
    let d = (DELTA + 1).trailing_zeros() as usize;
    let group = V::W * DELTA * F::BLOCK;
    debug_assert!(groups * group <= bytes.len() && words.len() >= V::WORDS);
    let lanes = match start {
        // One value's conversion, not W.
        Some(v) => V::splat(v).shift_up(V::W - 1),
        None => V::from_words(words),
    };
    if groups == 0 && head.is_empty() {
        // The end (or nothing to do): no key powers needed.
        match out {
            Some(out) => *out = lanes_horner::<F, V>(lanes, gammas),
            None => lanes.to_words(words),
        }
        return;
    }
    let mut sqv = [V::ZERO; 5];
    for (v, &s) in sqv.iter_mut().zip(&sq[..d]) {
        *v = V::splat(s);
    }
    let stepv = V::splat(step);
    // The Horner value stays unreduced until the next group's product, as in `lanes_delta`.
    // On 8 lanes the head and the groups share one site of the trees' code (they are large);
    // on 4 lanes two sites were faster. Zen 5, min TSC cycles, 64 KiB streamed in 4 KiB
    // updates / in one: 4-Hash1271 on 8 lanes, two sites 7975-8024 / 4819-4829, one site
    // 7426-7852 / 4563-4732; on 4 lanes (BRWHASH_ZMM_HALVES=1) one site 8797-9041 / 6753-6851,
    // two sites 8368-8706 / 6564-6691 (reduced at each group); 2-Hash1305 one site 10377 /
    // 8823, two sites 8979-9197 / 7718-8011.
    let mut wide = lanes.widen();
    if V::W >= 8 {
        let first = usize::from(!head.is_empty());
        for g in 0..first + groups {
            let src = if g < first {
                head
            } else {
                &bytes[(g - first) * group..]
            };
            wide = V::wide_add(
                V::reduce(wide).mul_wide(stepv),
                lane_trees::<F, V, DELTA>(&sqv[..d], src),
            );
        }
    } else {
        if !head.is_empty() {
            wide = V::wide_add(
                V::reduce(wide).mul_wide(stepv),
                lane_trees::<F, V, DELTA>(&sqv[..d], head),
            );
        }
        for g in 0..groups {
            wide = V::wide_add(
                V::reduce(wide).mul_wide(stepv),
                lane_trees::<F, V, DELTA>(&sqv[..d], &bytes[g * group..]),
            );
        }
    }
    let lanes = V::reduce(wide);
    match out {
        Some(out) => *out = lanes_horner::<F, V>(lanes, gammas),
        None => lanes.to_words(words),
    }
}

/// The lanes' Horner value in gamma, lane j times gamma^(W-1-j) (`gammas[k - 1]` =
/// gamma^k): one vector product and one conversion, where W values out of the lanes took W
/// conversions and a scalar Horner (`scalar::Groups::outer`).
#[inline(always)]
fn lanes_horner<F: PrimeField, V: Lanes<F>>(lanes: V, gammas: &[F]) -> F {
    let mut w = [F::ZERO; 16];
    w[V::W - 1] = F::from_u64(1);
    for j in 0..V::W - 1 {
        w[j] = gammas[V::W - 2 - j];
    }
    let wv = V::from_lanes(&w[..V::W]);
    w.zeroize();
    V::reduce(lanes.mul_wide(wv)).sum_lanes()
}
