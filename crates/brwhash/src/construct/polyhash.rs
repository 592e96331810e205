//! polyHash (SPEC.md 5.3): x * Poly(x; pad1(M)). Poly1305 (5.2) is polyHash1305 keyed with
//! the clamped r, plus s (added in `crate::key`).

use core::marker::PhantomData;

use super::{Lanes, Powers, Tail};
use crate::backend::{end_of, prefetch_ahead, TO_L1};
use crate::eval::{Horner, G};
use crate::field::{Field, PrimeField};
use zeroize::Zeroize;

#[derive(Clone)]
pub(super) struct PolyHash<F: Field> {
    horner: Horner<F>,
}

impl<F: Field> Default for PolyHash<F> {
    fn default() -> Self {
        PolyHash {
            horner: Horner::default(),
        }
    }
}

impl<F: Field> PolyHash<F> {
    /// Absorb a pad1 block.
    #[inline]
    pub fn absorb(&mut self, p: &Powers<F>, m: F) {
        self.horner.push(p.hx(), m);
    }

    /// x * Poly(x; the blocks): the state is used up (wipe it after).
    pub fn finish(&mut self, p: &Powers<F>) -> F {
        p.x().mul(self.horner.value(p.hx()))
    }
}

impl<F: Field> Zeroize for PolyHash<F> {
    fn zeroize(&mut self) {
        self.horner.zeroize();
    }
}

#[cfg(test)]
impl<F: Field> PolyHash<F> {
    pub fn is_wiped(&self, zero: impl Fn(F) -> bool) -> bool {
        self.horner.is_wiped(zero)
    }
}

/// Vectors per group of [`poly_exact`] (one reduction per group) for a message of `vectors`
/// vector blocks, within the lanes' headroom (g + 1 products are summed). Up to 16 vector
/// blocks, groups of 4: a table of 8 costs more products than the groups save.
const fn exact_group(limit: usize, vectors: usize) -> usize {
    group_of(if vectors <= 16 { 4 } else { G }, limit, vectors)
}

/// Groups of `g` vector blocks within the lanes' headroom `limit`, no more than `vectors`.
const fn group_of(g: usize, limit: usize, vectors: usize) -> usize {
    let g = if g < limit { g } else { limit - 1 };
    if g < vectors {
        g
    } else {
        vectors
    }
}

/// The power table of [`poly_exact`]: `p[k]` lane j = x^(W (k + 1) - j) for k < g <= N,
/// and `step` = x^(W g) in every lane (when the message has more than one group).
#[derive(Clone)]
pub(crate) struct ExactPowers<V: Field, const N: usize = G> {
    p: [V; N],
    step: V,
    /// Entries of `p` computed (only those are wiped).
    g: usize,
}

impl<V: Field> ExactPowers<V> {
    /// The table for `vectors` vector blocks from P_0 and `s0` = x^W in every lane: the rest
    /// by products with x^W, x^2W, x^4W (a dependency chain of three products). Built from
    /// values, not filled into a zeroed table, whose zero fill was 14 zmm stores per message
    /// (one-shot on 4 IFMA lanes, TSC cycles per message, min of 7: Poly1305 4 KiB 874 ->
    /// 853, 8 KiB 1493 -> 1429, 16 KiB 2681 -> 2610; polyHash1271 8 KiB 1614 -> 1510).
    #[inline(always)]
    fn new<F: PrimeField>(p0: V, s0: V, vectors: usize) -> Self
    where
        V: Lanes<F>,
    {
        const { assert!(G == 8) };
        let g = exact_group(V::WIDE_SUM_LIMIT, vectors);
        let more = vectors > g;
        // s_i = x^(2^i W) in every lane: for the table below g, and for x^(W g).
        let needs = |i: u32| (1 << i) < g || (more && (1 << i) <= g);
        let mut s1 = if needs(1) { s0.square_splat() } else { V::ZERO };
        let mut s2 = if needs(2) { s1.square_splat() } else { V::ZERO };
        let mut s3 = if needs(3) { s2.square_splat() } else { V::ZERO };
        // P_k = P_(k - 2^i) x^(2^i W) for 2^i <= k < 2^(i+1).
        let p1 = power_below(g, 1, p0, s0);
        let p2 = power_below(g, 2, p0, s1);
        let p3 = power_below(g, 3, p1, s1);
        let p4 = power_below(g, 4, p0, s2);
        let p5 = power_below(g, 5, p1, s2);
        let p6 = power_below(g, 6, p2, s2);
        let p7 = power_below(g, 7, p3, s2);
        // x^(W g): the product of the s_i for the bits of g.
        let mut step = V::ZERO;
        if more {
            let mut first = true;
            for (i, si) in [s0, s1, s2, s3].into_iter().enumerate() {
                if g >> i & 1 == 1 {
                    step = if first { si } else { step.mul_chain(si) };
                    first = false;
                }
            }
        }
        s1.zeroize();
        s2.zeroize();
        s3.zeroize();
        ExactPowers {
            p: [p0, p1, p2, p3, p4, p5, p6, p7],
            step,
            g,
        }
    }

    /// The table from `xw` = x^1 .. x^W, or from x alone.
    #[inline(always)]
    fn computed<F: PrimeField>(x: F, xw: Option<&[F]>, vectors: usize) -> Self
    where
        V: Lanes<F>,
    {
        let (mut p0, mut s0) = first_powers::<F, V>(x, xw);
        let t = Self::new(p0, s0, vectors);
        p0.zeroize();
        s0.zeroize();
        t
    }
}

/// P_k = `a` x^(2^i W) (`s`) for k < g, else zero (not computed, never read).
#[inline(always)]
fn power_below<V: Field>(g: usize, k: usize, a: V, s: V) -> V {
    if k < g {
        a.mul_chain(s)
    } else {
        V::ZERO
    }
}

/// P_0 (lane j = x^(W - j)) and x^W in every lane, from `xw` = x^1 .. x^W or from x alone
/// (P_0 by [`Lanes::ladder`] where lane permutes are cheap, else from scalar powers).
#[inline(always)]
fn first_powers<F: PrimeField, V: Lanes<F>>(x: F, xw: Option<&[F]>) -> (V, V) {
    let (p0, y) = first_lanes::<F, V>(x, xw);
    let s0 = match y {
        Some(y) => V::splat(y),
        None => p0.lane0_or_one(((1u32 << V::W) - 1) as u8),
    };
    (p0, s0)
}

/// The powers of a one-shot [`poly_exact`] for a message of at most [`Lanes::SHORT_VECTORS`]
/// vector blocks: groups of 4 (or fewer), built from values, not filled into a zeroed table
/// of G, whose zeroing and wipe (about 40 vector stores) cost a 512-byte Poly1305 about 10%.
/// Radix 2^44, 8 lanes (TSC cycles/byte of `brwhash::hash`, table of 8 -> groups of 4):
/// Poly1305 2064 B 0.197 -> 0.157, 4 KiB 0.126 -> 0.113, 6 KiB 0.106 -> 0.102, 7 KiB
/// 0.101 -> 0.098, 8 KiB 0.095 -> 0.094, 16 KiB 0.079 -> 0.084 (hence 56 vector blocks);
/// polyHash1271 3840 B 0.133 -> 0.123, 5760 B even, 6720 B 0.103 -> 0.106 (hence 40).
/// Radix 2^26 keeps the table past 16: AVX2 Poly1305 2 KiB 0.462 -> 0.504, AVX-512F 8 KiB
/// 0.194 -> 0.216. Radix 2^44 lanes now take [`short_estrin`] instead, up to the same
/// limits (`Lanes::SHORT_ESTRIN`).
type ShortPowers<V> = ExactPowers<V, 4>;

impl<V: Field> ShortPowers<V> {
    /// P_0 .. P_(g-1) and, past one group, x^(4W): a dependency chain of two products after
    /// P_0 (P_1 = P_0 x^W, P_3 = P_1 x^2W beside P_2 = P_0 x^2W), and x^4W = (x^2W)^2.
    #[inline(always)]
    fn new<F: PrimeField>(x: F, xw: Option<&[F]>, vectors: usize) -> Self
    where
        V: Lanes<F>,
    {
        debug_assert!((1..=V::SHORT_VECTORS).contains(&vectors));
        let g = group_of(4, V::WIDE_SUM_LIMIT, vectors);
        let (mut p0, mut s0) = first_powers::<F, V>(x, xw);
        let (mut p1, mut p2, mut p3, mut step) = (V::ZERO, V::ZERO, V::ZERO, V::ZERO);
        if g >= 2 {
            p1 = p0.mul_chain(s0);
        }
        if g >= 3 || vectors > g {
            let mut s1 = s0.square_splat();
            if g >= 3 {
                p2 = p0.mul_chain(s1);
            }
            if g >= 4 {
                p3 = p1.mul_chain(s1);
            }
            if vectors > g {
                // x^(W g) for g = 4: groups of 4 once there are more than 4 vector blocks.
                debug_assert_eq!(g, 4);
                step = s1.square_splat();
            }
            s1.zeroize();
        }
        s0.zeroize();
        let t = ExactPowers {
            p: [p0, p1, p2, p3],
            step,
            g,
        };
        p0.zeroize();
        t
    }
}

/// Wipes the computed powers: an empty table.
impl<V: Field, const N: usize> Zeroize for ExactPowers<V, N> {
    #[inline(always)]
    fn zeroize(&mut self) {
        for v in &mut self.p[..self.g] {
            v.zeroize();
        }
        self.step.zeroize();
        self.g = 0;
    }
}

impl<V: Field, const N: usize> Drop for ExactPowers<V, N> {
    #[inline(always)]
    fn drop(&mut self) {
        self.zeroize();
    }
}

/// The powers of [`poly_exact`]'s groups: a table computed in place ([`ExactPowers`]) or a
/// key's cached words ([`KeyTable`], read where they lie: nothing to copy or wipe).
trait GroupPowers<V> {
    /// Vector blocks per group.
    fn g(&self) -> usize;
    /// P_k (k < g): lane j = x^(W (k + 1) - j).
    fn power(&self, k: usize) -> V;
    /// x^(W g) in every lane.
    fn step(&self) -> V;
    /// The table to read one group's powers from: `self`, or for a stream's [`KeyTable`]
    /// `self` behind an opaque reference, so that its loads stay in the group loop.
    #[inline(always)]
    fn per_group(&self) -> &Self {
        self
    }
}

impl<V: Field, const N: usize> GroupPowers<V> for ExactPowers<V, N> {
    #[inline(always)]
    fn g(&self) -> usize {
        self.g
    }
    #[inline(always)]
    fn power(&self, k: usize) -> V {
        self.p[k]
    }
    #[inline(always)]
    fn step(&self) -> V {
        self.step
    }
}

/// A key's [`exact_table`] for groups of `g` vector blocks: 4 or G (whose steps it holds),
/// or fewer for a message of one group (which takes no step).
/// `OPAQUE`: each power loaded where it is used, never hoisted out of the group loop (for
/// the streaming state, whose updates would each load and spill the whole table: TSC
/// cycles/byte at 1 MiB in 1 KiB / 4 KiB pieces, 0.110 / 0.072 -> 0.075 / 0.065; whole
/// messages load it once, and run 3% faster at 64 KiB with the hoisted loads). The table
/// is hidden from the compiler once per group ([`GroupPowers::per_group`]), not at each
/// power (a store and a reload of the address per power). Zen 4, IFMA Poly1305, 64 KiB
/// streamed, min TSC cycles of 6 alternating runs, at each power -> per group: 1 KiB
/// updates 10088 -> 9880, 2 KiB 9854 -> 9724, 4 KiB 9568 -> 9464, 16 KiB 9464 -> 9464
/// (then [`HOISTED_FROM`]).
struct KeyTable<'a, F, const OPAQUE: bool> {
    words: &'a [u64],
    g: usize,
    _field: PhantomData<F>,
}

impl<'a, F: PrimeField, const OPAQUE: bool> KeyTable<'a, F, OPAQUE> {
    /// `words` from a key, when they are a table for the lanes `V` and groups of `g` can
    /// take them.
    #[inline(always)]
    fn new<V: Lanes<F>>(words: Option<&'a [u64]>, g: usize, vectors: usize) -> Option<Self> {
        let fits = |w: &&[u64]| w.len() == TABLE_VECTORS * V::WORDS;
        words
            .filter(fits)
            .filter(|_| g == 4 || g == G || vectors <= g)
            .map(|words| KeyTable {
                words,
                g,
                _field: PhantomData,
            })
    }
}

impl<'a, F> KeyTable<'a, F, true> {
    /// The same table, its powers free to be loaded once before the group loop.
    #[inline(always)]
    fn hoisted(&self) -> KeyTable<'a, F, false> {
        KeyTable {
            words: self.words,
            g: self.g,
            _field: PhantomData,
        }
    }
}

impl<F: PrimeField, V: Lanes<F>, const OPAQUE: bool> GroupPowers<V> for KeyTable<'_, F, OPAQUE> {
    #[inline(always)]
    fn g(&self) -> usize {
        self.g
    }
    #[inline(always)]
    fn power(&self, k: usize) -> V {
        V::from_words(&self.words[k * V::WORDS..(k + 1) * V::WORDS])
    }
    #[inline(always)]
    fn step(&self) -> V {
        let at = if self.g == G { G + 1 } else { G };
        V::from_words(&self.words[at * V::WORDS..(at + 1) * V::WORDS])
    }
    #[inline(always)]
    fn per_group(&self) -> &Self {
        if OPAQUE {
            core::hint::black_box(self)
        } else {
            self
        }
    }
}

/// Vectors of a key's cached [`poly_exact`] table: P_0 .. P_(G-1), then x^(4W) and x^(8W) in
/// every lane (the steps of groups of 4 and 8).
const TABLE_VECTORS: usize = G + 2;

/// The power table of [`poly_exact`] for a key, as words (`Lanes::to_words`), from
/// `xw` = x^1 .. x^W: a key's hashes then load it instead of computing it.
#[inline(always)]
pub(crate) fn exact_table<F: PrimeField, V: Lanes<F>>(xw: &[F]) -> Vec<u64> {
    let w = V::W;
    let mut lanes = [F::ZERO; 16];
    for (l, &power) in lanes[..w].iter_mut().zip(xw[..w].iter().rev()) {
        *l = power;
    }
    // More than 16 vector blocks: groups of 8 (when the lanes' headroom allows), the whole
    // table, and the step x^(8W).
    let t = ExactPowers::<V>::new(V::from_lanes(&lanes[..w]), V::splat(xw[w - 1]), 4 * G);
    let mut words = vec![0u64; TABLE_VECTORS * V::WORDS];
    if t.g == G {
        for (k, p) in t.p.iter().enumerate() {
            p.to_words(&mut words[k * V::WORDS..(k + 1) * V::WORDS]);
        }
        // x^(4W) is lane 0 of P_3.
        let all = ((1u32 << w) - 1) as u8;
        let mut step4 = t.p[3].lane0_or_one(all);
        step4.to_words(&mut words[G * V::WORDS..(G + 1) * V::WORDS]);
        t.step.to_words(&mut words[(G + 1) * V::WORDS..]);
        step4.zeroize();
    } else {
        // Groups below 8 (radix 2^26 for 2^127 - 1): no cached table.
        words.clear();
    }
    for l in &mut lanes[..w] {
        l.zeroize();
    }
    words
}

/// The head vector block of front-padded full blocks `body`: its first `h` (< W) blocks in
/// the last lanes, zeros below (the first W blocks shifted up where lane permutes are cheap).
#[inline(always)]
fn head_vector<F: PrimeField, V: Lanes<F>>(body: &[u8], h: usize) -> V {
    let (w, b) = (V::W, F::BLOCK);
    if V::FAST_PERMUTES && body.len() >= w * b {
        return V::load(&body[..w * b], true).shift_up(w - h);
    }
    let mut lanes = [F::ZERO; 16];
    for (l, block) in lanes[w - h..w]
        .iter_mut()
        .zip(body[..h * b].chunks_exact(b))
    {
        *l = F::load(block, true);
    }
    V::from_lanes(&lanes[..w])
}

/// x * Poly(x; pad1(msg)) of a whole message in W lanes with exact powers ([P2]'s
/// decimation, arranged for a known length): the full blocks are front-padded with zero
/// lanes to whole vector blocks, and the lane holding block i is multiplied by
/// x^(l' + 1 - i) itself (l' the full blocks), from a table of the first g vector blocks'
/// powers; g vector blocks share one reduction and the product of the running sum with
/// x^(W g). The lanes then add up to the value, with no weighting product and no scalar
/// Horner. A short last block takes one scalar step: (S + m_l) x.
/// `xw` = x^1 .. x^W from a key, or `None` to compute P_0 in the lanes ([`Lanes::ladder`]);
/// `table`: a key's [`exact_table`], if it has one.
#[inline(always)]
pub(crate) fn poly_exact<F: PrimeField, V: Lanes<F>>(
    x: F,
    xw: Option<&[F]>,
    table: Option<&[u64]>,
    msg: &[u8],
) -> F {
    let (b, w) = (F::BLOCK, V::W);
    let full = msg.len() / b;
    if full == 0 {
        return super::scalar_last(F::ZERO, x, msg);
    }
    let vectors = full.div_ceil(w);
    let g = exact_group(V::WIDE_SUM_LIMIT, vectors);
    match KeyTable::<F, false>::new::<V>(table, g, vectors) {
        Some(t) if V::LOCAL_TABLE && g == G && vectors >= LOCAL_TABLE_FROM => {
            exact_lanes::<F, V, _>(&local_table::<V, _>(&t), x, msg)
        }
        Some(t) => exact_lanes::<F, V, _>(&t, x, msg),
        None if vectors <= V::SHORT_VECTORS && V::SHORT_ESTRIN => short_estrin::<F, V>(x, xw, msg),
        None if vectors <= V::SHORT_VECTORS => {
            exact_lanes::<F, V, _>(&ShortPowers::<V>::new(x, xw, vectors), x, msg)
        }
        None => exact_lanes::<F, V, _>(&ExactPowers::<V>::computed(x, xw, vectors), x, msg),
    }
}

/// Vector blocks from which a whole message with a key copies the key's power table to
/// an [`ExactPowers`] on the stack (where `Lanes::LOCAL_TABLE`), and runs the loop of a
/// one-shot message: 27 vector loads and stores, after which the groups ran faster than from
/// the key's table (with a key, Poly1305 on IFMA had been 4-6% slower than one-shot from
/// 32 KiB on a Zen 4 host). Zen 4, timing loop, min TSC cycles per message, 3 alternating
/// runs, key's table -> copy: IFMA Poly1305 32 KiB 4550 -> 4342-4368, 64 KiB 9074-9100 ->
/// 8631-8632, 1 MiB 145990-146406 -> 136214-137644; IFMA polyHash1271 32 KiB 5018 ->
/// 4810-4914, 64 KiB 9984-10010 -> 9542-9672, 1 MiB 162526-163592 -> 150878-151164. From 8
/// KiB it measured slower (Poly1305 8 KiB 1196-1248 -> 1300-1429); on AVX2 lanes it gained
/// 1.5% and on AVX-512F lanes it lost 2-10% (64 KiB 17602-17679 -> 18044-19344), so only
/// the IFMA lanes take it.
const LOCAL_TABLE_FROM: usize = 256;

/// Vector blocks from which a stream update reads the key's table as a whole message does
/// (the loads free to leave the group loop: the compiler loads the table once per update),
/// rather than where each group uses it. Zen 4, IFMA Poly1305, 64 KiB streamed, min TSC
/// cycles of 5 alternating runs, each group -> once per update, with this at 32 / 64 / 128
/// vector blocks: 4 KiB updates 9464 -> 9984 / 9464 / 9464, 8 KiB updates 9412 -> 9256 /
/// 9204 / 9411, 16 KiB updates 9464 -> 8944 / 8970 / 8918 (8580 with a key). Only on the
/// lanes that take [`LOCAL_TABLE_FROM`] (IFMA), where it was measured.
const HOISTED_FROM: usize = 64;

/// A key's table of groups of G, `t`, copied into an [`ExactPowers`] on the stack (wiped
/// when it drops): see [`LOCAL_TABLE_FROM`].
#[inline(always)]
fn local_table<V: Field, T: GroupPowers<V>>(t: &T) -> ExactPowers<V> {
    const { assert!(G == 8) };
    debug_assert!(t.g() == G);
    ExactPowers {
        p: [
            t.power(0),
            t.power(1),
            t.power(2),
            t.power(3),
            t.power(4),
            t.power(5),
            t.power(6),
            t.power(7),
        ],
        step: t.step(),
        g: G,
    }
}

/// `a` y + `b`, reduced.
#[inline(always)]
fn linear<V: Field>(a: V, y: V, b: V) -> V {
    V::reduce(V::wide_add(a.mul_wide(y), b.widen()))
}

/// The unreduced value of a group of vector blocks `v` (1 to 4, first block highest) in
/// y = x^W: Estrin's scheme, (v0 y + v1) y^2 + (v2 y + v3) for 4.
#[inline(always)]
fn estrin_group<V: Field>(v: &[V], y: V, y2: V) -> V::Wide {
    match v.len() {
        1 => v[0].widen(),
        2 => V::wide_add(v[0].mul_wide(y), v[1].widen()),
        3 => V::wide_add(
            v[0].mul_wide(y2),
            V::wide_add(v[1].mul_wide(y), v[2].widen()),
        ),
        _ => {
            let mut ab = linear(v[0], y, v[1]);
            let w = V::wide_add(ab.mul_wide(y2), V::wide_add(v[2].mul_wide(y), v[3].widen()));
            ab.zeroize();
            w
        }
    }
}

/// One-shot [`poly_exact`] of at most [`Lanes::SHORT_VECTORS`] vector blocks without the
/// lane powers P_1 .. P_3 ([`Lanes::SHORT_ESTRIN`]): the lanes of V_0 P_(n-1) + .. + V_(n-1)
/// P_0 are those of P_0 (V_0 y^(n-1) + .. + V_(n-1)) with y = x^W in every lane, a
/// polynomial in y over the vector blocks, taken in groups of 4 by Estrin's scheme,
/// (V_0 y + V_1) y^2 + (V_2 y + V_3), and from group to group by y^4; then one product by
/// P_0. The dependency chain is as deep as with P_1 .. P_3 (P_3 = P_0 x^W x^2W is two
/// products after P_0, as y^2 and the products by it are), but with 3 products fewer
/// per message and 1 fewer per group, and the one-shot set-up on 8 IFMA lanes is bound by
/// the products' throughput: Intel Xeon (Emerald Rapids), `brwhash::hash`, TSC cycles per
/// message (min of 40 batches, both interleaved batch by batch), P_0 .. P_3 -> Estrin:
/// Poly1305 256 B 186 -> 180, 512 B 261 -> 223, 1 KiB 340 -> 306, 2 KiB 471 -> 428, 4 KiB
/// 732 -> 671; polyHash1271 1 KiB 390 -> 332, 2 KiB 535 -> 465, 4 KiB 867 -> 778 (256 B
/// and 512 B even). On 4 IFMA ymm lanes (`BRWHASH_ZMM_HALVES=1` there): Poly1305 1 KiB
/// 362 -> 344, 2 KiB 576 -> 535; polyHash1271 256 B 237 -> 208, 1 KiB 411 -> 356.
/// Past the short power table's limit the table of 8 stays faster (Poly1305 16 KiB 1949
/// against 2127 by Estrin), and radix 2^26, whose reductions are long carry chains, loses
/// with Estrin's extra reductions (AVX2 Poly1305 4 KiB 2030 against 2554).
#[inline(always)]
fn short_estrin<F: PrimeField, V: Lanes<F>>(x: F, xw: Option<&[F]>, msg: &[u8]) -> F {
    let w = V::W;
    let vectors = (msg.len() / F::BLOCK).div_ceil(w);
    let (mut p0, y) = first_lanes::<F, V>(x, xw);
    let all = ((1u32 << w) - 1) as u8;
    let mut y = match y {
        Some(y) => V::splat(y),
        None if vectors > 1 => p0.lane0_or_one(all),
        None => V::ZERO,
    };
    let mut y2 = if vectors > 2 {
        y.square_splat()
    } else {
        V::ZERO
    };
    let mut y4 = if vectors > 4 {
        y2.square_splat()
    } else {
        V::ZERO
    };
    let v = estrin_lanes::<F, V>(p0, y, y2, y4, x, msg);
    for t in [&mut p0, &mut y, &mut y2, &mut y4] {
        t.zeroize();
    }
    v
}

/// [`short_estrin`] with the powers P_0, y, y^2 and y^4 given.
#[inline(always)]
fn estrin_lanes<F: PrimeField, V: Lanes<F>>(p0: V, y: V, y2: V, y4: V, x: F, msg: &[u8]) -> F {
    const { assert!(V::WIDE_SUM_LIMIT > 3) };
    let (b, w) = (F::BLOCK, V::W);
    let full = msg.len() / b;
    if full == 0 {
        return super::scalar_last(F::ZERO, x, msg);
    }
    let (body, last) = msg.split_at(full * b);
    let h = full % w;
    let vectors = full.div_ceil(w);
    let rest = &body[h * b..];
    let first = vectors - (vectors - 1) / 4 * 4;
    let mut chunks = rest.chunks_exact(w * b);
    let mut v = [V::ZERO; 4];
    for (u, vu) in v[..first].iter_mut().enumerate() {
        *vu = if u == 0 && h > 0 {
            head_vector::<F, V>(body, h)
        } else {
            V::load(chunks.next().expect("a vector block"), true)
        };
    }
    let mut acc = if first == 1 {
        v[0]
    } else {
        V::reduce(estrin_group(&v[..first], y, y2))
    };
    let rest = &rest[(first - usize::from(h > 0)) * w * b..];
    for group in rest.chunks_exact(4 * w * b) {
        for (vu, vb) in v.iter_mut().zip(group.chunks_exact(w * b)) {
            *vu = V::load(vb, true);
        }
        acc = V::reduce(V::wide_add(acc.mul_wide(y4), estrin_group(&v, y, y2)));
    }
    let value = acc.mul(p0).sum_lanes();
    acc.zeroize();
    v.zeroize();
    super::scalar_last(value, x, last)
}

/// P_0 (lane j = x^(W - j)) from `xw` = x^1 .. x^W or from x alone ([`Lanes::ladder`] where
/// lane permutes are cheap, else from scalar powers), and x^W when it is known as a scalar.
#[inline(always)]
fn first_lanes<F: PrimeField, V: Lanes<F>>(x: F, xw: Option<&[F]>) -> (V, Option<F>) {
    let w = V::W;
    let mut scalar_powers = [F::ZERO; G];
    let xw = match xw {
        None if !V::FAST_PERMUTES => {
            scalar_powers = super::powers_to_g(x);
            Some(&scalar_powers[..])
        }
        xw => xw,
    };
    let p0 = match xw {
        Some(xw) => {
            let mut lanes = [F::ZERO; 16];
            for (l, &power) in lanes[..w].iter_mut().zip(xw[..w].iter().rev()) {
                *l = power;
            }
            let p0 = V::from_lanes(&lanes[..w]);
            lanes.zeroize();
            (p0, Some(xw[w - 1]))
        }
        None => (V::ladder(x), None),
    };
    scalar_powers.zeroize();
    p0
}
/// [`poly_exact`] of a message of at least one full block, with the powers `t`.
#[inline(always)]
fn exact_lanes<F: PrimeField, V: Lanes<F>, P: GroupPowers<V>>(t: &P, x: F, msg: &[u8]) -> F {
    let (b, w) = (F::BLOCK, V::W);
    let full = msg.len() / b;
    let (body, last) = msg.split_at(full * b);
    // Vector block 0 is the head (the first `h` blocks in its last lanes) when the full
    // blocks are not a multiple of W.
    let h = full % w;
    let vectors = full.div_ceil(w);
    let g = t.g();
    let rest = &body[h * b..];
    let mut u = 0;
    // The first group holds the vector blocks beyond whole groups, so that the last group
    // is whole and ends with P_0.
    let first = vectors - (vectors - 1) / g * g;
    let mut sum = V::Wide::default();
    let mut chunks = rest.chunks_exact(w * b);
    if h > 0 {
        sum = head_vector::<F, V>(body, h).mul_wide(t.power(first - 1));
        u = 1;
    }
    while u < first {
        let m = V::load(chunks.next().expect("a vector block"), true);
        sum = V::wide_add(sum, m.mul_wide(t.power(first - 1 - u)));
        u += 1;
    }
    let acc = V::reduce(sum);
    // The whole groups after the first (`first` vector blocks, the head among them).
    let rest = &rest[(first - usize::from(h > 0)) * w * b..];
    debug_assert_eq!(rest.len() % (g * w * b), 0);
    let acc = exact_groups::<F, V, P>(acc, t, rest, end_of(msg));
    super::scalar_last(acc.sum_lanes(), x, last)
}

/// The running value `acc` after the whole groups of `t.g` vector blocks in `bytes`:
/// `acc x^(W g) + sum_t V_t P_(g-1-t)` per group. `end`: where prefetching stops.
#[inline(always)]
fn exact_groups<F: PrimeField, V: Lanes<F>, P: GroupPowers<V>>(
    mut acc: V,
    t: &P,
    bytes: &[u8],
    end: usize,
) -> V {
    let (g, vb) = (t.g(), V::W * F::BLOCK);
    for bytes in bytes.chunks_exact(g * vb) {
        prefetch_ahead::<TO_L1>(bytes, end);
        let t = t.per_group();
        let sum = if g == G {
            exact_group_sum::<F, V, P, G>(t, bytes)
        } else {
            let mut sum = V::Wide::default();
            for (k, vb) in (0..g).rev().zip(bytes.chunks_exact(vb)) {
                // Independent products: short groups gain nothing from multiply-add chains.
                sum = V::wide_add(sum, V::load(vb, true).mul_wide(t.power(k)));
            }
            sum
        };
        // The running value's product joins last, formed beside the group's: the chain from
        // group to group is one product, an addition and a reduction.
        acc = V::reduce(V::wide_add(sum, acc.mul_wide(t.step())));
    }
    acc
}

/// [`exact_groups`] for groups of G, each group's loop unrolled by hand.
#[inline(always)]
fn exact_groups_unrolled<F: PrimeField, V: Lanes<F>, P: GroupPowers<V>>(
    mut acc: V,
    t: &P,
    bytes: &[u8],
    end: usize,
) -> V {
    let vb = V::W * F::BLOCK;
    for bytes in bytes.chunks_exact(G * vb) {
        prefetch_ahead::<TO_L1>(bytes, end);
        let mut sums = (V::Wide::default(), V::Wide::default());
        sums = group_pair::<F, V, P, G>(t, bytes, 0, sums);
        sums = group_pair::<F, V, P, G>(t, bytes, 2, sums);
        sums = group_pair::<F, V, P, G>(t, bytes, 4, sums);
        sums = group_pair::<F, V, P, G>(t, bytes, 6, sums);
        let sum = V::wide_add(sums.0, sums.1);
        acc = V::reduce(V::wide_add(sum, acc.mul_wide(t.step())));
    }
    acc
}

/// Vector blocks k and k + 1 of a group into its two sums.
#[inline(always)]
fn group_pair<F: PrimeField, V: Lanes<F>, P: GroupPowers<V>, const N: usize>(
    t: &P,
    bytes: &[u8],
    k: usize,
    (even, odd): (V::Wide, V::Wide),
) -> (V::Wide, V::Wide) {
    let vb = V::W * F::BLOCK;
    let m = V::load(&bytes[k * vb..(k + 1) * vb], true);
    let even = m.mul_acc(t.power(N - 1 - k), even);
    let m = V::load(&bytes[(k + 1) * vb..(k + 2) * vb], true);
    (even, m.mul_acc(t.power(N - 2 - k), odd))
}

/// The sum of the products of a whole group of N vector blocks (`bytes`) with the powers
/// P_(N-1) .. P_0: a loop of constant length, which the compiler unrolls, over two sums in
/// registers (a multiply-add chain per sum and column).
#[inline(always)]
fn exact_group_sum<F: PrimeField, V: Lanes<F>, P: GroupPowers<V>, const N: usize>(
    t: &P,
    bytes: &[u8],
) -> V::Wide {
    let vb = V::W * F::BLOCK;
    let (mut even, mut odd) = (V::Wide::default(), V::Wide::default());
    for k in (0..N).step_by(2) {
        let m = V::load(&bytes[k * vb..(k + 1) * vb], true);
        even = m.mul_acc(t.power(N - 1 - k), even);
        let m = V::load(&bytes[(k + 1) * vb..(k + 2) * vb], true);
        odd = m.mul_acc(t.power(N - 2 - k), odd);
    }
    V::wide_add(even, odd)
}

/// Largest group of [`PolyStream`]: 8 vector blocks of 8 lanes of 16-byte blocks.
const MAX_GROUP_BYTES: usize = G * 8 * 16;

/// Most words of a lane vector ([`Lanes::WORDS`]): 5 limbs of 8 lanes.
const MAX_WORDS: usize = 40;

/// polyHash / Poly1305 streamed in W lanes with exact powers: [`poly_exact`]'s groups taken
/// from the start of the message. Each whole group of g vector blocks is
/// `acc = acc x^(W g) + sum_t V_t P_(g-1-t)`, so that the lanes of `acc` add up to
/// x * Poly(x; the blocks so far); the bytes of an incomplete group wait (a group must be
/// whole to take P_(g-1) .. P_0). At the end, the m full blocks held take their own powers
/// as in `poly_exact` and `acc` is multiplied by x^m; a short last block takes the scalar
/// step. The power table comes from the key when it caches one.
///
/// No field needs vector alignment (`acc` is kept as words, the table is boxed), so the
/// state's own box is an ordinary allocation: a 64-byte-aligned one goes through glibc's
/// slow `memalign` on every message.
#[derive(Clone)]
pub(crate) struct PolyStream<F: PrimeField, V: Lanes<F>> {
    /// Bytes of an incomplete group (on the heap: a buffer inside the state cost a zero fill
    /// and a copy of the state whenever a stream built one).
    held: Tail<MAX_GROUP_BYTES>,
    /// The running value, `V`'s words ([`Lanes::to_words`]).
    acc: [u64; MAX_WORDS],
    /// Whether a group has been absorbed (`acc` is meaningful).
    started: bool,
    /// The power table, computed the first time, when the key caches none.
    table: Option<Box<ExactPowers<V>>>,
    _field: PhantomData<F>,
}

impl<F: PrimeField, V: Lanes<F>> Default for PolyStream<F, V> {
    #[inline(always)]
    fn default() -> Self {
        PolyStream {
            held: Tail::default(),
            acc: [0; MAX_WORDS],
            started: false,
            table: None,
            _field: PhantomData,
        }
    }
}

impl<F: PrimeField, V: Lanes<F>> PolyStream<F, V> {
    /// Vector blocks per group: the most the lanes' headroom allows, up to G.
    const GROUP: usize = exact_group(V::WIDE_SUM_LIMIT, usize::MAX);
    const GROUP_BYTES: usize = Self::GROUP * V::W * F::BLOCK;

    /// The key's cached table, when it has one for these lanes (read where it lies).
    #[inline(always)]
    fn key_table<const S: usize>(p: &Powers<F, S>) -> Option<KeyTable<'_, F, true>> {
        let words = p.lane_table.get().map(|t| &t[..]);
        KeyTable::new::<V>(words.filter(|_| Self::GROUP == G), G, usize::MAX)
    }

    /// The table for whole groups when the key caches none: computed the first time, then
    /// kept (put it back after use).
    #[inline(always)]
    fn take_table<const S: usize>(&mut self, p: &Powers<F, S>) -> Box<ExactPowers<V>> {
        // (A `match`, not `unwrap_or_else`: a closure the compiler may leave uninlined, and
        // so without the entry point's target features.)
        match self.table.take() {
            Some(t) => t,
            None => {
                let xw = if p.hx().len() >= V::W {
                    Some(p.hx())
                } else {
                    None
                };
                Box::new(ExactPowers::computed(p.x(), xw, usize::MAX))
            }
        }
    }

    #[inline(always)]
    fn acc(&self) -> V {
        V::from_words(&self.acc[..V::WORDS])
    }

    #[inline(always)]
    pub fn update<const S: usize>(&mut self, p: &Powers<F, S>, data: &[u8]) {
        const { assert!(Self::GROUP_BYTES <= MAX_GROUP_BYTES && V::WORDS <= MAX_WORDS) };
        match Self::key_table(p) {
            // A long update as a whole message with a key (`LOCAL_TABLE_FROM`).
            Some(k) if V::LOCAL_TABLE && data.len() >= LOCAL_TABLE_FROM * V::W * F::BLOCK => {
                self.absorb::<_, true>(&local_table::<V, _>(&k), data)
            }
            // Long enough to repay loading the whole table once (`HOISTED_FROM`).
            Some(k) if V::LOCAL_TABLE && data.len() >= HOISTED_FROM * V::W * F::BLOCK => {
                self.absorb::<_, false>(&k.hoisted(), data)
            }
            Some(k) => self.absorb::<_, false>(&k, data),
            None => {
                let t = self.take_table(p);
                self.absorb::<_, false>(&*t, data);
                self.table = Some(t);
            }
        }
    }

    /// Whole groups from `data` (after completing the held ones), the rest held; with
    /// `UNROLLED`, each group's loop unrolled by hand (for long updates from a copy of the
    /// key's table, as a whole message's: `LOCAL_TABLE_FROM`). Zen 4, IFMA, min TSC cycles
    /// per message, 3 alternating runs, before -> after: Poly1305 64 KiB in one update
    /// 9386-9438 -> 8710-9230 (8554-8580 with a key), 1 MiB in 64 KiB updates
    /// 148824-150696 -> 140894-141284, in 32 KiB updates 149812-151060 -> 143650-143936;
    /// polyHash1271 1 MiB in one update 161902 -> 150332; 4 KiB updates unchanged. (Either
    /// alone lost: the copy with the rolled loop, Poly1305 64 KiB 9386-9412 -> 9542-9568;
    /// the unrolled loop on the key's table, whose powers are loaded at each use,
    /// 10608-10816 -> 12454-12766.)
    #[inline(always)]
    fn absorb<P: GroupPowers<V>, const UNROLLED: bool>(&mut self, t: &P, data: &[u8]) {
        let end = end_of(data);
        let mut acc = self.acc();
        let started = &mut self.started;
        self.held.feed_runs(
            Self::GROUP_BYTES,
            data,
            #[inline(always)]
            |groups| {
                // `acc` is zero before the first group: its product adds nothing.
                acc = if UNROLLED {
                    exact_groups_unrolled::<F, V, P>(acc, t, groups, end)
                } else {
                    exact_groups::<F, V, P>(acc, t, groups, end)
                };
                *started = true;
            },
        );
        acc.to_words(&mut self.acc[..V::WORDS]);
    }

    /// x * Poly(x; pad1(M)) (the state is used up).
    #[inline(always)]
    pub fn finish<const S: usize>(&mut self, p: &Powers<F, S>) -> F {
        match Self::key_table(p) {
            Some(k) => self.finish_with(&k, p.x()),
            None => {
                let t = self.take_table(p);
                let v = self.finish_with(&*t, p.x());
                self.table = Some(t);
                v
            }
        }
    }

    #[inline(always)]
    fn finish_with<P: GroupPowers<V>>(&self, t: &P, x: F) -> F {
        let (w, b) = (V::W, F::BLOCK);
        let rest = self.held.held();
        let full = rest.len() / b;
        let (body, last) = rest.split_at(full * b);
        let mut sum = V::Wide::default();
        if self.started {
            sum = if full == 0 {
                self.acc().widen()
            } else {
                // x^full is lane W (k + 1) - full of P_k, k = (full - 1) / W.
                let k = (full - 1) / w;
                let mut lanes = [F::ZERO; 16];
                t.power(k).store(&mut lanes[..w]);
                let xm = lanes[w * (k + 1) - full];
                for l in &mut lanes[..w] {
                    l.zeroize();
                }
                self.acc().mul_wide(V::splat(xm))
            };
        }
        if full > 0 {
            // The held full blocks as in `poly_exact`: front-padded, each with its power.
            let h = full % w;
            let vectors = full.div_ceil(w);
            let whole = &body[h * b..];
            let mut u = 0;
            if h > 0 {
                let head = head_vector::<F, V>(body, h);
                sum = V::wide_add(sum, head.mul_wide(t.power(vectors - 1)));
                u = 1;
            }
            for chunk in whole.chunks_exact(w * b) {
                let m = V::load(chunk, true);
                sum = V::wide_add(sum, m.mul_wide(t.power(vectors - 1 - u)));
                u += 1;
            }
        }
        let value = if self.started || full > 0 {
            V::reduce(sum).sum_lanes()
        } else {
            F::ZERO
        };
        super::scalar_last(value, x, last)
    }

    /// The value v of a whole message, the state on the caller's stack (wiped after).
    #[inline(always)]
    pub fn one_shot<const S: usize>(p: &Powers<F, S>, msg: &[u8]) -> F {
        let mut s = Self::default();
        s.update(p, msg);
        let v = s.finish(p);
        s.zeroize();
        v
    }
}

#[cfg(test)]
impl<F: PrimeField, V: Lanes<F>> PolyStream<F, V> {
    /// Whether the state is as wiped.
    pub fn is_wiped(&self) -> bool {
        self.held.is_wiped() && !self.started && self.table.is_none() && self.acc == [0; MAX_WORDS]
    }
}

/// Wipes the accumulator, the power table and the bytes held: the state of
/// `PolyStream::default()`. (Only inside the backend's entry points: the table holds vectors.)
impl<F: PrimeField, V: Lanes<F>> Zeroize for PolyStream<F, V> {
    #[inline(always)]
    fn zeroize(&mut self) {
        self.held.zeroize();
        self.acc.zeroize();
        self.started = false;
        // The table wipes itself on drop (`ExactPowers`' `Drop`).
        self.table = None;
    }
}
