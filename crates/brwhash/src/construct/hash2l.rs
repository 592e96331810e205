//! Hash2L (SPEC.md 5.9) and vecHash2L (5.10) over GF(2^128) and GF(2^256).
//!
//! Blocks (the last one zero-padded) form super-blocks of eta = 31 blocks; each super-block
//! (the last may be shorter) is BRW-hashed by straight-line code; the super-block values are
//! combined by Horner in x^32. A component ends with acc = x * acc + L_i; the output is x * acc.
//! vecHash2L's component count k enters at finalisation as x * (k * x^(8B-8)), so components
//! can be closed without knowing which one is last (IMPLEMENTATION-NOTES 9).

use super::{BinPowers, Blocks, Tail};
use crate::backend::{end_of, prefetch_ahead, TO_L2};
use crate::eval::brw::{ubrw31_by_level, ubrw7, ubrw_full};
use crate::eval::{brw_short, Horner, G};
use crate::field::{BinaryField, Field};
use zeroize::Zeroize;

/// Super-block size eta.
const ETA: usize = 31;

/// Blocks from which a vecHash2L component or a Hash2L stream takes the VPCLMULQDQ lane
/// Horner (below, the xmm code): two super-blocks. (A one-shot Hash2L message has its own
/// path from `TREE_FROM`.) One super-block and a few blocks is faster in xmm registers, its
/// two BRW values side by side (TSC cycles/byte, Hash2L128 with a key, xmm vs lanes: 512 B
/// 0.316 vs 0.365, 768 B 0.319 vs 0.331, 992 B 0.252 vs 0.151; Hash2L256 1024 B 0.396 vs
/// 0.412, 1536 B 0.443 vs 0.443, 1984 B 0.334 vs 0.192).
pub(crate) const WIDE_FROM: usize = 2 * ETA;

/// Hash2L of `msg` in one call, without a streaming state: whole super-blocks straight from
/// `msg` (31 loads, straight-line BRW), the last one shorter, Horner in x^32 over them, then
/// x * (x * acc + L).
#[inline(always)]
pub(crate) fn hash2l_one_shot<F: BinaryField>(p: &BinPowers<F>, msg: &[u8]) -> F {
    let b = F::BYTES;
    let length = (msg.len() as u64).wrapping_mul(8);
    // One super-block (the empty message is one zero block): acc is its BRW value, with no
    // Horner step; the blocks in an array just large enough.
    let r = msg.len().div_ceil(b).max(1);
    match r {
        1..=3 => return last(p, short_brw::<F, 4>(p, msg, r), length),
        4..=ETA => {
            let sum = F::wide_add(weighted_brw(p, msg, r, p.sq[1]), p.x().mul_wide_u64(length));
            return F::reduce(sum);
        }
        _ => {}
    }
    let mut horner = Horner::default();
    super_blocks(p, &mut horner, msg);
    let acc = horner.value(p.hg());
    horner.zeroize();
    last(p, acc, length)
}

/// The super-blocks of `bytes` (not empty) into `horner`: whole ones straight from `bytes`,
/// then the last one, shorter (r < 31 blocks, the last zero-padded), if any.
#[inline(always)]
fn super_blocks<F: BinaryField>(p: &BinPowers<F>, horner: &mut Horner<F>, bytes: &[u8]) {
    let b = F::BYTES;
    let mut whole = bytes.chunks_exact(ETA * b);
    let end = end_of(bytes);
    for chunk in &mut whole {
        prefetch_ahead::<TO_L2>(chunk, end);
        let mut ms = [F::ZERO; ETA];
        for (m, block) in ms.iter_mut().zip(chunk.chunks_exact(b)) {
            *m = F::from_bytes(block);
        }
        horner.push(p.hg(), F::reduce(ubrw_full(&p.sq, &ms)));
    }
    let rest = whole.remainder();
    let r = rest.len().div_ceil(b);
    if r >= 4 {
        // Three levels of products, not the stack algorithm's five or six (a weight 1).
        horner.push(
            p.hg(),
            F::reduce(weighted_brw(p, rest, r, F::from_bytes(&[1]))),
        );
    } else if r > 0 {
        let mut ms = [F::ZERO; 3];
        let mut r = 0;
        for block in rest.chunks(b) {
            ms[r] = F::from_bytes(block);
            r += 1;
        }
        horner.push(p.hg(), brw_short(&p.sq, &ms[..r]));
    }
}

/// Blocks from which a one-shot Hash2L message on VPCLMULQDQ leaves the xmm code
/// ([`hash2l_one_shot`]) for the lanes ([`hash2l_wide_one_shot`]). Measured, Hash2L128 with
/// a key, TSC cycles per message, xmm vs lanes: 8 blocks 64 vs 74, 12 blocks 85 vs 88, 13
/// blocks 86 vs 89, 14 blocks 91 vs 91, 15 blocks 96 vs 75, 16 blocks 107 vs 76 (Hash2L256:
/// 14 blocks 250 vs 234, 16 blocks 283 vs 207).
pub(crate) const TREE_FROM: usize = 14;

/// [`TREE_FROM`] where the CPU runs zmm in halves (Zen 4: `backend::zmm_in_halves`), whose
/// lanes cost twice as much per instruction, for blocks of 16 / 32 bytes. Measured there
/// with `brwhash bench`, with a key, TSC cycles/byte, the xmm code ([`weighted_brw`]) vs
/// the lanes, minimum of three runs: Hash2L128 19 blocks 0.395 vs 0.499, 23 blocks 0.369 vs
/// 0.388, 24 blocks 0.392 vs 0.379, 26 blocks 0.378 vs 0.367, 31 blocks 0.351 vs 0.234;
/// Hash2L256 19 blocks 0.509 vs 0.576, 21 blocks 0.500 vs 0.523, 22 blocks 0.503 vs 0.496,
/// 23 blocks 0.483 vs 0.457. (The stack algorithm in xmm, before [`weighted_brw`], crossed
/// at 19 blocks for both.) The key powers are those of [`TREE_FROM`] (the xmm code needs no
/// more).
pub(crate) const TREE_FROM_HALVES: [usize; 2] = [24, 22];

/// Blocks from which a one-shot Hash2L message of `block`-byte blocks (16 or 32) on
/// VPCLMULQDQ takes the lanes on this CPU.
#[inline]
pub(crate) fn tree_from(block: usize) -> usize {
    if crate::backend::zmm_in_halves() {
        TREE_FROM_HALVES[usize::from(block > 16)]
    } else {
        TREE_FROM
    }
}

/// Blocks from which the short last super-block after whole ones takes a tree across the
/// lanes ([`sb_tree`]) rather than the xmm code beside them ([`weighted_brw`]): 7, and where
/// the CPU runs zmm in halves (Zen 4) 22 / 19 for blocks of 16 / 32 bytes. Measured there,
/// TSC cycles per message with a key, lanes vs xmm, a whole super-block and r blocks:
/// Hash2L128 r = 7 200 vs 142, 14 207 vs 172, 18 204 vs 193, 21 207 vs 206, 23 199 vs 209,
/// 27 206 vs 223 (two whole super-blocks: r = 7 228 vs 174, 18 233 vs 217, 21 235 vs 236,
/// 23 225 vs 234); Hash2L256 r = 7 532 vs 461, 14 553 vs 483, 18 586 vs 547, 20 541 vs 587,
/// 22 551 vs 601 (two whole: 7 661 vs 530, 18 674 vs 685, 20 652 vs 679). The xmm code
/// runs beside the lanes' trees; one more tree costs the lanes a whole pass.
#[inline]
fn short_tree_from(block: usize) -> usize {
    if crate::backend::zmm_in_halves() {
        [22, 19][usize::from(block > 16)]
    } else {
        7
    }
}

/// The end weights (`Powers::fill_end_weights`) that messages (vecHash2L: components) of
/// at most `max_len` bytes read, blocks of `b` bytes: none for a Hash2L message the xmm
/// code takes, one per super-block up to a group of four (and for vecHash2L one more, a
/// component's factor), all G beyond. (A key for one short message computes only those:
/// Hash2L128 one-shot at 64 B paid 46 TSC cycles for all of them.)
pub(crate) fn end_weights_needed(vector: bool, b: usize, max_len: u64) -> usize {
    if !vector && max_len < (TREE_FROM * b) as u64 {
        return 0;
    }
    let sbs = max_len.div_ceil((ETA * b) as u64).max(1);
    if sbs >= 4 {
        G
    } else {
        sbs as usize + usize::from(vector)
    }
}

/// The squarings x^(2^j) (their count) and whether gamma = x^32 and its powers are needed
/// for Hash2L messages of at most `max_len` bytes, blocks of `b` bytes: one super-block has
/// no Horner in gamma, and needs x^(2^j) up to its block count only (x^2 at least, for the
/// final product; up to x^16 in the lanes, from `TREE_FROM` blocks). (Hash2L128 one-shot at
/// 64 B spent a third of its time on the five squarings and gamma's powers.)
pub(crate) fn hash2l_squares_needed(vector: bool, b: usize, max_len: u64) -> (usize, bool) {
    if vector || max_len > (ETA * b) as u64 {
        return (6, true);
    }
    let r = max_len.div_ceil(b as u64).max(1) as usize;
    if r >= TREE_FROM {
        (5, false)
    } else {
        (((usize::BITS - r.leading_zeros()) as usize).max(2), false)
    }
}

/// The powers of gamma that a one-shot message of at most `max_len` bytes reads: the Horner
/// value of s super-blocks (PCLMULQDQ) gamma^1 .. gamma^s, the end weights x^2 gamma^e of
/// s < 4 super-blocks (VPCLMULQDQ, [`end_weights_needed`]) gamma^(s-1) at most; from 4
/// super-blocks, or for a vector, all G. (Fewer powers, a shorter chain: gamma^1 .. gamma^3
/// are one squaring and one product, all G three levels of products.)
pub(crate) fn gamma_powers_needed(vector: bool, b: usize, max_len: u64) -> usize {
    let sbs = max_len.div_ceil((ETA * b) as u64).max(1);
    if vector || sbs >= 4 {
        G
    } else {
        sbs as usize
    }
}

/// [`hash2l_one_shot`] in the lanes of `V` (VPCLMULQDQ, W = 4), no streaming state, no
/// buffer: the message's super-blocks by [`weighted_super_blocks`] with the weights
/// x^2 gamma^e (`Powers::hl`), so the final x * (x * acc + L) adds no dependent product.
/// TSC cycles per message, Hash2L128 with a key, before -> after (the Horner value, then
/// the final products): 256 B 107 -> 76, 512 B 157 -> 79, 768 B 241 -> 120, 1 KiB
/// 161 -> 114, 8 KiB 469 -> 415; Hash2L256: 992 B 456 -> 176, 1536 B 676 -> 337.
#[inline(always)]
pub(crate) fn hash2l_wide_one_shot<F: BinaryField, V: BinLanes<F>>(
    p: &BinPowers<F>,
    msg: &[u8],
) -> F {
    if msg.len() < TREE_FROM * F::BYTES
        || p.hl().len() < end_weights_needed(false, F::BYTES, msg.len() as u64)
    {
        return hash2l_one_shot(p, msg);
    }
    let mut sq = splat_squares::<F, V>(p);
    let mut ssum = p.x().mul_wide_u64((msg.len() as u64).wrapping_mul(8));
    let sum = weighted_super_blocks::<F, V>(p, &sq, msg, p.hl(), true, &mut ssum);
    wipe_squares(&mut sq);
    lanes_total_with::<F, V>(sum, ssum)
}

/// vecHash2L of `components` in the lanes of `V` (VPCLMULQDQ), no streaming state: each
/// component's super-blocks by [`weighted_super_blocks`], with the weights x gamma^e
/// (`Powers::h1`) relative to the component's end, so that
/// acc_i = acc_(i-1) x gamma^(s_i) + (its weighted sum) + L_i (s_i super-blocks; the empty
/// component one zero block) is one product per component on the dependency chain; the last
/// one with x^2 gamma^e (`Powers::hl`), which folds in the final x * (acc + k x^(8B-8)).
///
/// One pool of all the components' super-blocks, four to a vector whichever components
/// they come from, each weighted by q_i T[e] (q_i the product of the later components'
/// factors x gamma^(s_j), T the table), measured slower on Zen 5: TSC cycles with a key,
/// pool vs this, 32 B 55 vs 35, 992 B 97 vs 78, 3 x 1 KiB 256 vs 247, 7 x 100 B 633 vs
/// 295 (the weights' products and the arrays cost more than the shared passes save).
/// Built again on an Intel Xeon (components from the last, so q_i is known before their
/// blocks; a component's whole groups by the lane Horner, only the super-blocks after them
/// pooled, the short ones weighted on their own): slower there too, minimum TSC cycles with
/// a key, pool vs this, 3 x 1 KiB 336 vs 274, 3 x 992 B 306 vs 266, 7 x 1 KiB 775 vs 605,
/// 1 x 992 B 133 vs 104, though Hash2L128 takes 200-214 on 2976 B (a group and a pair) and
/// 3 x 992 B here is three pairs. Where it lost: each short super-block's weights f x and
/// f x^2 (two dependent-chain products per component: 3 x 1 KiB cost 64 more than 3 x 992 B
/// pooled, 16 more here), the pair's weights f t (products by 1 for one component: 1 x 992 B
/// 20 more), and the pool's weights built in memory and loaded as vectors (the hottest
/// instruction in `perf annotate`, a store-forwarding stall). (Its closures, compiled
/// without the entry point's target features, first put the carry-less products out of
/// line: 3 x 1 KiB 386.)
#[inline(always)]
pub(crate) fn vec_hash2l_wide_one_shot<F: BinaryField, V: BinLanes<F>>(
    p: &BinPowers<F>,
    components: &[&[u8]],
) -> F {
    let longest = components.iter().map(|c| c.len()).max().unwrap_or(0) as u64;
    let needed = end_weights_needed(true, F::BYTES, longest);
    if p.hl().len() < needed || p.h1().len() < needed {
        return vec_hash2l_lane_horner::<F, V>(p, components);
    }
    let sb = ETA * F::BYTES;
    let mut sq = splat_squares::<F, V>(p);
    let mut acc = F::ZERO;
    for (i, c) in components.iter().enumerate() {
        let length = F::from_bytes(&(c.len() as u64).wrapping_mul(8).to_le_bytes());
        let last = i + 1 == components.len();
        let (table, mut ssum) = if last {
            let k = F::top_byte(components.len() as u8);
            (p.hl(), p.x().mul_wide(length.add(k)))
        } else {
            (p.h1(), length.widen())
        };
        // acc_(i-1) times c gamma^(s_i): c the table's factor (x or x^2).
        if i > 0 {
            let s = c.len().div_ceil(sb).max(1);
            ssum = F::wide_add(ssum, acc.mul_wide(gamma_weight(p, table, s)));
        }
        let value = if c.is_empty() {
            F::reduce(ssum)
        } else if c.len() < TREE_FROM * F::BYTES {
            let r = c.len().div_ceil(F::BYTES);
            let v = if r >= 4 {
                weighted_brw(p, c, r, table[0])
            } else {
                let mut ms = [F::ZERO; 3];
                for (m, block) in ms.iter_mut().zip(c.chunks(F::BYTES)) {
                    *m = F::from_bytes(block);
                }
                brw_short(&p.sq, &ms[..r]).mul_wide(table[0])
            };
            F::reduce(F::wide_add(ssum, v))
        } else {
            let sum = weighted_super_blocks::<F, V>(p, &sq, c, table, last, &mut ssum);
            lanes_total_with::<F, V>(sum, ssum)
        };
        acc = value;
    }
    wipe_squares(&mut sq);
    acc
}

/// c gamma^s from `table` = (c gamma^e, e < G): beyond the table, times gamma^(s - G + 1)
/// by square-and-multiply (a component of more than 7 super-blocks).
#[inline(always)]
fn gamma_weight<F: BinaryField>(p: &BinPowers<F>, table: &[F], s: usize) -> F {
    if s < G {
        return table[s];
    }
    let (mut n, mut base, mut w) = (s - (G - 1), p.hg()[0], table[G - 1]);
    while n > 0 {
        if n & 1 == 1 {
            w = w.mul(base);
        }
        base = base.square();
        n >>= 1;
    }
    w
}

/// x^3 = `hl[0] x` (`hl`) or x^2 = `h1[0] x`: the end-weight table's first entry times x,
/// from the key's powers of x (`Powers::fill_end_weights`), computed if the key lacks them.
#[inline(always)]
fn end_x<F: BinaryField>(p: &BinPowers<F>, hl: bool) -> F {
    match (p.hx(), hl) {
        ([_, _, x3, ..], true) => *x3,
        (_, true) => p.hl()[0].mul(p.x()),
        (_, false) => p.sq[1],
    }
}

/// The sum of the lanes of `sum` and of `ssum` (the xmm side's), reduced.
#[inline(always)]
fn lanes_total_with<F: BinaryField, V: BinLanes<F>>(sum: V::Wide, ssum: F::Wide) -> F {
    match V::join_wide(sum, ssum) {
        Some(joined) => lanes_total::<F, V>(joined),
        None => lanes_total::<F, V>(sum).add(F::reduce(ssum)),
    }
}

/// The sum of the lanes of `sum`, reduced.
#[inline(always)]
fn lanes_total<F: BinaryField, V: BinLanes<F>>(sum: V::Wide) -> F {
    let mut terms = [F::ZERO; 8];
    V::reduce(sum).store(&mut terms[..V::W]);
    let total = (terms[0].add(terms[1])).add(terms[2].add(terms[3]));
    terms.zeroize();
    total
}

/// The super-blocks of `msg` (not empty, at least `TREE_FROM` blocks), super-block j of s
/// weighted by `table[s - 1 - j]` (`table[e]` = c gamma^e, c a key-only factor), as lanes
/// whose sum (with what goes into `ssum`) is the Horner value in gamma times c: whole groups
/// of W super-blocks by the lane Horner ([`lane_group`]), then the super-blocks after the
/// last whole group (at most W, the last possibly short): one whole one across the lanes
/// ([`sb_tree`]), two side by side ([`pair_tree`]), three as a partial group, the short one
/// across the lanes from [`short_tree_from`] blocks, in xmm (`ssum`) below.
#[inline(always)]
fn weighted_super_blocks<F: BinaryField, V: BinLanes<F>>(
    p: &BinPowers<F>,
    sq: &[V; 5],
    msg: &[u8],
    table: &[F],
    hl: bool,
    ssum: &mut F::Wide,
) -> V::Wide {
    const { assert!(V::W == 4) };
    let sb = ETA * F::BYTES;
    // The weights read: up to gamma^(W-1+t) after whole groups, gamma^(t-1) without.
    debug_assert!(table.len() >= msg.len().div_ceil(sb).min(G));
    let mut groups = msg.chunks_exact(V::W * sb);
    let rest = groups.remainder();
    // Super-blocks after the whole groups (1..=W when there are no groups: msg is not empty).
    let t = rest.len().div_ceil(sb);
    let mut sum = <V as Field>::Wide::default();
    if let Some(first) = groups.next() {
        let end = end_of(msg);
        let mut sbs: [&[u8]; 8] = [&[]; 8];
        for (j, s) in sbs.iter_mut().enumerate().take(V::W) {
            *s = &first[j * sb..(j + 1) * sb];
        }
        // No value before the first group: no Horner product.
        let mut acc = V::reduce(V::ubrw31(sq, &sbs[..V::W]));
        let mut step = V::splat(p.hg()[V::W - 1]);
        for g in &mut groups {
            prefetch_ahead::<TO_L2>(g, end);
            acc = lane_group::<F, V>(sq, step, acc, g);
        }
        sum = lanes_weighted::<F, V>(acc, table, t);
        acc.zeroize();
        step.zeroize();
    }
    V::wide_add(sum, weighted_rest::<F, V>(p, sq, rest, table, hl, ssum))
}

/// The lanes' Horner value `acc` (lane l weighs gamma^(W-1-l)) before t more super-blocks,
/// times `table`'s factor: lane l times `table[W - 1 - l + t]`.
#[inline(always)]
fn lanes_weighted<F: BinaryField, V: BinLanes<F>>(acc: V, table: &[F], t: usize) -> V::Wide {
    let mut w = [F::ZERO; 8];
    for (l, w) in w.iter_mut().enumerate().take(V::W) {
        *w = table[V::W - 1 - l + t];
    }
    let mut weights = V::from_lanes(&w[..V::W]);
    let sum = acc.mul_wide(weights);
    weights.zeroize();
    w.zeroize();
    sum
}

/// The last t = `rest.len().div_ceil(31 blocks)` (at most W) super-blocks of a message
/// (`rest`, the last possibly short), super-block i weighed by `table[t - 1 - i]`: lanes
/// whose sum is theirs, and the short one's in xmm added to `ssum` below
/// [`short_tree_from`] blocks (1 to 3 blocks in a lane product). `hl`: `table` is
/// `Powers::hl` (else `Powers::h1`).
#[inline(always)]
fn weighted_rest<F: BinaryField, V: BinLanes<F>>(
    p: &BinPowers<F>,
    sq: &[V; 5],
    rest: &[u8],
    table: &[F],
    hl: bool,
    ssum: &mut F::Wide,
) -> V::Wide {
    let sb = ETA * F::BYTES;
    let t = rest.len().div_ceil(sb);
    debug_assert!(t <= V::W && table.len() >= t);
    let mut sum = <V as Field>::Wide::default();
    // Whole super-blocks straight from `msg`, then the short one, if any.
    let whole = rest.len() / sb;
    if whole >= 3 {
        // Three super-blocks: one partial group, lane l >= W - whole the super-block
        // l - (W - whole), the others the first again with a weight 0 (fewer products than
        // three trees: 1488 B 136 -> 128 TSC cycles, though with a longer chain).
        let mut sbs: [&[u8]; 8] = [&[]; 8];
        let mut w = [F::ZERO; 8];
        for l in 0..V::W {
            let i = (l + whole).saturating_sub(V::W);
            sbs[l] = &rest[i * sb..(i + 1) * sb];
            if l + whole >= V::W {
                w[l] = table[t - 1 - i];
            }
        }
        let d = V::reduce(V::ubrw31(sq, &sbs[..V::W]));
        let mut weights = V::from_lanes(&w[..V::W]);
        sum = V::wide_add(sum, d.mul_wide(weights));
        weights.zeroize();
        w.zeroize();
    } else if whole == 2 {
        let (a, b) = rest.split_at(sb);
        let (wa, wb) = (table[t - 1], table[t - 2]);
        sum = V::wide_add(sum, pair_tree::<F, V>(p, sq, a, &b[..sb], wa, wb));
    } else if whole == 1 {
        sum = V::wide_add(sum, sb_tree::<F, V>(p, sq, &rest[..sb], ETA, table[t - 1]));
    }
    let short = &rest[whole * sb..];
    if !short.is_empty() {
        let w = table[0];
        let r = short.len().div_ceil(F::BYTES);
        if r >= short_tree_from(F::BYTES) {
            sum = V::wide_add(sum, sb_tree::<F, V>(p, sq, short, r, w));
        } else if r >= 4 {
            // A few blocks: in xmm, beside the lanes (a tree of one lane cost 1 KiB 30 TSC
            // cycles more), the weight folded in (`weighted_brw`).
            *ssum = F::wide_add(*ssum, weighted_brw(p, short, r, w));
        } else {
            // 1..=3 blocks: w BRW as one lane product beside the trees', in place of an xmm
            // product, its reduction and the weight's product (2 blocks: m_0 (w x) + m_1 w,
            // both linear; 3 blocks: the BRW value reduced, times w).
            let mut ms = [F::ZERO; 3];
            for (m, block) in ms.iter_mut().zip(short.chunks(F::BYTES)) {
                *m = F::from_bytes(block);
            }
            // Built in registers, not in arrays (wiped, they went through memory, and the
            // wide loads of the narrow stores stalled: 1 KiB 81 -> 94 TSC cycles).
            const { assert!(V::W == 4) };
            let z = F::ZERO;
            let (c, k) = match r {
                2 => ([ms[0], ms[1], z, z], [end_x(p, hl), w, z, z]),
                _ => ([brw_short(&p.sq, &ms[..r]), z, z, z], [w, z, z, z]),
            };
            sum = V::wide_add(sum, V::from_lanes(&c).mul_wide(V::from_lanes(&k)));
        }
    }
    sum
}

/// Lanes whose sum is wa * BRW(a) + wb * BRW(b) for two whole super-blocks, two lanes
/// each: BRW on 31 blocks is BRW(blocks 0..15) S_16 + BRW(blocks 16..31), so lanes
/// (A's halves, B's halves) take the 15-block BRW, and the multipliers
/// (S_16 wa, wa, S_16 wb, wb) one product (a 15-block half is four levels with the
/// multiplier, one more than [`sb_tree`], but two of its trees took 52 carry-less
/// products where this takes 37, and this code is bound by their port: Hash2L128 with a key,
/// TSC cycles per message, 992 B 105 -> 84, 1 KiB 120 -> 95; three super-blocks this way
/// and a tree were no faster than a partial group).
#[inline(always)]
fn pair_tree<F: BinaryField, V: BinLanes<F>>(
    p: &BinPowers<F>,
    sq: &[V; 5],
    a: &[u8],
    b: &[u8],
    wa: F,
    wb: F,
) -> V::Wide {
    let bytes = F::BYTES;
    let half = 15 * bytes;
    // S_16 of a super-block. (A function, not a closure: the closure was compiled out of
    // line, four calls per pair; vecHash2L256 with a key, 3 components of 2 KiB, Zen 4,
    // 1439-1477 -> 1368-1371 TSC cycles.)
    #[inline(always)]
    fn sep<F: BinaryField>(p: &BinPowers<F>, sb: &[u8]) -> F {
        let (half, bytes) = (15 * F::BYTES, F::BYTES);
        p.sq[4].add(F::from_bytes(&sb[half..half + bytes]))
    }
    let one = F::from_bytes(&[1]);
    let k = V::reduce(
        V::from_lanes(&[sep(p, a), one, sep(p, b), one]).mul_wide(V::from_lanes(&[wa, wa, wb, wb])),
    );
    let sbs = [
        &a[..half],
        &a[half + bytes..],
        &b[..half],
        &b[half + bytes..],
    ];
    let mut vb = [V::ZERO; 15];
    for i in (0..12).step_by(4) {
        vb[i..i + 4].copy_from_slice(&V::load_blocks4(&sbs, i));
    }
    for (i, v) in vb.iter_mut().enumerate().skip(12) {
        *v = V::load_block(&sbs, i);
    }
    V::reduce(ubrw_full(sq, &vb)).mul_wide(k)
}

// One super-block across the four lanes. BRW on 31 blocks is
// ((B_0 S_8 + B_1) S_16 + B_2 S_24 + B_3), B_j = BRW(blocks 8j..8j+7) (7 blocks, two levels),
// S_k = x^k + M_k (blocks numbered from 1, so M_8 is block 7); times a weight w it is
// sum_j B_j K_j with K = w (S_8 S_16, S_16, S_24, 1). The K_j need only the separators and
// the key, so they are ready (two products) when the B_j are: w BRW is three levels of
// products and reductions, where the tree in one lane is four and w a fifth.
// A super-block of r < 31 blocks has the same form, a missing separator counting as 1: lanes
// j < q = (r + 1) / 8 hold 7 blocks each; lane q the n = r - 8q < 7 left (if any), in the
// 7-block form by its slots ([`slots`]), with K_q = w (the separators after it are missing);
// the lanes after it K_j = 0.

/// Lanes whose sum is w * BRW(x; the super-block `bytes` of r (1..=31) blocks, the last
/// zero-padded).
#[inline(always)]
fn sb_tree<F: BinaryField, V: BinLanes<F>>(
    p: &BinPowers<F>,
    sq: &[V; 5],
    bytes: &[u8],
    r: usize,
    w: F,
) -> V::Wide {
    /// Loads for the lanes whose blocks do not count.
    static ZEROS: [u8; 7 * 32] = [0; 7 * 32];
    let b = F::BYTES;
    debug_assert!((1..=ETA).contains(&r) && bytes.len().div_ceil(b) == r);
    let q = (r + 1) / 8;
    let n = r % 8 % 7;
    let one = F::from_bytes(&[1]);
    // S_k (block k - 1, x^(2^e)), or 1 when the super-block is shorter than k blocks.
    // S_k (block k - 1, x^(2^e)), or 1 when the super-block is shorter than k blocks. (A
    // function, not a closure: a closure is not always inlined, and this one, called, took
    // 9% of Hash2L256 at 1.5 KB.)
    #[inline(always)]
    fn sep<F: BinaryField>(p: &BinPowers<F>, bytes: &[u8], r: usize, k: usize, e: usize) -> F {
        if r >= k {
            let b = F::BYTES;
            p.sq[e].add(F::from_bytes(&bytes[(k - 1) * b..(k * b).min(bytes.len())]))
        } else {
            F::from_bytes(&[1])
        }
    }
    let sep = |k: usize, e: usize| sep(p, bytes, r, k, e);
    let (s8, s16, s24) = (sep(8, 3), sep(16, 4), sep(24, 3));
    // Element by element (a loop over an array went through memory: memset, and a vector
    // load that waited for the stores).
    let live = |j: usize, v: F| {
        if j < q || (j == q && n > 0) {
            v
        } else {
            F::ZERO
        }
    };
    let first = [live(0, s16), live(1, s16), live(2, s24), live(3, one)];
    let y = V::reduce(V::from_lanes(&first).mul_wide(V::splat(w)));
    let k = V::reduce(y.mul_wide(V::from_lanes(&[s8, one, one, one])));
    // The whole lanes in place, the last one copied, zero-padded, when the message ends
    // inside its last block; the others read zeros.
    let mut pad = [0u8; 7 * 32];
    let padded = q > 0 && bytes.len() < (8 * q - 1) * b;
    if padded {
        let last = &bytes[8 * (q - 1) * b..];
        pad[..last.len()].copy_from_slice(last);
    }
    let mut sbs: [&[u8]; 4] = [&ZEROS[..7 * b]; 4];
    for (j, s) in sbs.iter_mut().enumerate().take(q) {
        *s = if j == q - 1 && padded {
            &pad[..7 * b]
        } else {
            &bytes[8 * j * b..(8 * j + 7) * b]
        };
    }
    let mut vb = [V::ZERO; 7];
    vb[..4].copy_from_slice(&V::load_blocks4(&sbs, 0));
    for (i, v) in vb.iter_mut().enumerate().skip(4) {
        *v = V::load_block(&sbs, i);
    }
    if n > 0 {
        let s = slots(p, &bytes[8 * q * b..], n);
        for (v, s) in vb.iter_mut().zip(s) {
            *v = v.put_lane(q, s);
        }
    }
    let u = V::reduce(ubrw7(sq, &vb));
    u.mul_wide(k)
}

/// The slots of a lane of n (1..7) blocks c_0.. (`bytes`, the last possibly short): its BRW
/// in the 7-block form E = (s_0 + x)(s_1 + x^2) + s_2,
/// B = E (x^4 + s_3) + (s_4 + x)(s_5 + x^2) + s_6. E is the BRW of c_0..c_min(n,3) by slots
/// 0..3 ([`leaf_slots`]), slot 3 is c_3, or x^4 + 1 (a factor 1) below 4 blocks, and slots
/// 4..7 the BRW of the blocks from c_4 the same way.
#[inline(always)]
fn slots<F: BinaryField>(p: &BinPowers<F>, bytes: &[u8], n: usize) -> [F; 7] {
    let b = F::BYTES;
    let mut c = [F::ZERO; 7];
    for (c, block) in c.iter_mut().zip(bytes.chunks(b)).take(n) {
        *c = F::from_bytes(block);
    }
    let e = leaf_slots(p, n.min(3), [c[0], c[1], c[2]]);
    let o = leaf_slots(p, n.saturating_sub(4).min(3), [c[4], c[5], c[6]]);
    let s3 = if n >= 4 {
        c[3]
    } else {
        p.sq[2].add(F::from_bytes(&[1]))
    };
    [e[0], e[1], e[2], s3, o[0], o[1], o[2]]
}

/// Slots (s_0, s_1, s_2) with (s_0 + x)(s_1 + x^2) + s_2 = BRW of the first k (0..=3) of
/// `c`: 3 blocks: c; 2: c_0 + x, x^2 + x, c_1 (c_0 x + c_1); 1: x, 0, c_0; none: x, 0, 0.
#[inline(always)]
fn leaf_slots<F: BinaryField>(p: &BinPowers<F>, k: usize, c: [F; 3]) -> [F; 3] {
    let (x, x2) = (p.sq[0], p.sq[1]);
    match k {
        3 => c,
        2 => [c[0].add(x), x2.add(x), c[1]],
        1 => [x, F::ZERO, c[0]],
        _ => [x, F::ZERO, F::ZERO],
    }
}

/// vecHash2L of `components` (1..=255) in one call, without a streaming state: each
/// component's super-blocks by `absorb` (straight from its bytes) into the Horner in x^32
/// that runs across components, then acc = x * acc + L at each component's end (the empty
/// component is one zero block), and x * (acc + k x^(8B-8)) at the end.
#[inline(always)]
fn vector_one_shot<F: BinaryField>(
    p: &BinPowers<F>,
    components: &[&[u8]],
    mut absorb: impl FnMut(&mut Horner<F>, &[u8]),
) -> F {
    let mut horner = Horner::default();
    for c in components {
        if c.is_empty() {
            horner.push(p.hg(), F::ZERO);
        } else {
            absorb(&mut horner, c);
        }
        let length = F::from_bytes(&(c.len() as u64).wrapping_mul(8).to_le_bytes());
        let acc = p.x().mul(horner.value(p.hg())).add(length);
        horner = Horner::with_acc(acc);
    }
    let acc = horner.value(p.hg());
    horner.zeroize();
    p.x().mul(acc.add(F::top_byte(components.len() as u8)))
}

/// [`vector_one_shot`] with the super-blocks one at a time (PCLMULQDQ).
#[inline(always)]
pub(crate) fn vec_hash2l_one_shot<F: BinaryField>(p: &BinPowers<F>, components: &[&[u8]]) -> F {
    vector_one_shot(
        p,
        components,
        #[inline(always)]
        |h, bytes| super_blocks(p, h, bytes),
    )
}

/// [`vector_one_shot`] with W super-blocks at a time in the lanes of `V` (VPCLMULQDQ), a
/// Horner step per component end: for a key without the end weights.
#[inline(always)]
fn vec_hash2l_lane_horner<F: BinaryField, V: BinLanes<F>>(
    p: &BinPowers<F>,
    components: &[&[u8]],
) -> F {
    let mut sq = splat_squares::<F, V>(p);
    let v = vector_one_shot(
        p,
        components,
        #[inline(always)]
        |h, bytes| wide_super_blocks::<F, V>(p, &sq, h, bytes),
    );
    wipe_squares(&mut sq);
    v
}

/// Wipe the broadcast squarings of the key (lane by lane, always inlined: in the entry
/// points' features).
#[inline(always)]
fn wipe_squares<V: Zeroize>(sq: &mut [V; 5]) {
    for v in sq {
        v.zeroize();
    }
}

/// The super-blocks of `bytes` (not empty) into `horner`: whole groups of W by the lanes of
/// `V` ([`lane_group`]), the remaining whole super-blocks as one partial group, then the last,
/// shorter one.
#[inline(always)]
fn wide_super_blocks<F: BinaryField, V: BinLanes<F>>(
    p: &BinPowers<F>,
    sq: &[V; 5],
    horner: &mut Horner<F>,
    bytes: &[u8],
) {
    if bytes.len() < WIDE_FROM * F::BYTES {
        super_blocks(p, horner, bytes);
        return;
    }
    let mut groups = bytes.chunks_exact(V::W * ETA * F::BYTES);
    let mut acc = lanes_start::<F, V>(horner.value(p.hg()));
    if groups.len() > 0 {
        let end = end_of(bytes);
        let mut step = V::splat(p.hg()[V::W - 1]);
        for g in &mut groups {
            prefetch_ahead::<TO_L2>(g, end);
            acc = lane_group::<F, V>(sq, step, acc, g);
        }
        step.zeroize();
    }
    lanes_end(p, sq, acc, groups.remainder(), horner);
}

// Horner in gamma = x^32 over whole groups of W super-blocks, one stream per lane: lane j
// holds super-blocks j, j + W, j + 2W, ..., so a group is one lane step
// A = A * gamma^W + BRW (each super-block's BRW value left unreduced: one reduction per step
// for both), and the value is sum_j A_j gamma^(W-1-j). A scalar Horner over the digests cost
// a sixth of the group's carry-less products, all on the dependency chain.

/// The lanes of a Horner value `h0` so far: `h0` in lane W - 1 (weight 1), zeros elsewhere.
#[inline(always)]
fn lanes_start<F: BinaryField, V: BinLanes<F>>(h0: F) -> V {
    let mut l = [F::ZERO; 8];
    l[V::W - 1] = h0;
    V::from_lanes(&l[..V::W])
}

/// One group of W super-blocks (`W * 31` blocks) into the lanes `acc`; `step` = gamma^W in
/// every lane.
#[inline(always)]
fn lane_group<F: BinaryField, V: BinLanes<F>>(sq: &[V; 5], step: V, acc: V, bytes: &[u8]) -> V {
    let sb = ETA * F::BYTES;
    let mut sbs: [&[u8]; 8] = [&[]; 8];
    for (j, s) in sbs.iter_mut().enumerate().take(V::W) {
        *s = &bytes[j * sb..(j + 1) * sb];
    }
    lane_step::<F, V>(sq, step, acc, &sbs[..V::W])
}

/// [`lane_group`] of the W super-blocks `sbs`, wherever they are.
#[inline(always)]
fn lane_step<F: BinaryField, V: BinLanes<F>>(sq: &[V; 5], step: V, acc: V, sbs: &[&[u8]]) -> V {
    V::reduce(V::wide_add(acc.mul_wide(step), V::ubrw31(sq, sbs)))
}

/// The lanes `acc`, then the rest of a component (less than a group) into `horner`: the k
/// (0..W) whole super-blocks of `rest` as a group whose first W - k super-blocks are missing,
/// then the last, shorter super-block.
///
/// The value after the partial group is value * gamma^k + sum_(j<k) D_j gamma^(k-1-j); with
/// value = sum_l A_l gamma^(W-1-l) and D_j computed in lane W - k + j, that is
/// sum_l A_l gamma^(W-1-l+k) + D_l gamma^(W-1-l) (l >= W - k): lane products by key-only
/// weights, and a weight 0 for the lanes without a super-block (they compute the first one
/// again). (Masking those lanes' values instead cost 30-44 TSC cycles more at 496 B.)
#[inline(always)]
fn lanes_end<F: BinaryField, V: BinLanes<F>>(
    p: &BinPowers<F>,
    sq: &[V; 5],
    mut acc: V,
    rest: &[u8],
    horner: &mut Horner<F>,
) {
    const { assert!(V::W <= 8) };
    let sb = ETA * F::BYTES;
    let k = rest.len() / sb;
    debug_assert!(k < V::W && p.hg().len() >= V::W + k - 1);
    let mut w = [F::ZERO; 8];
    for (l, w) in w.iter_mut().enumerate().take(V::W) {
        *w = gamma_pow(p, V::W - 1 - l + k);
    }
    let mut weights = V::from_lanes(&w[..V::W]);
    let mut s = acc.mul_wide(weights);
    if k > 0 {
        let mut sbs: [&[u8]; 8] = [&[]; 8];
        for (l, s) in sbs.iter_mut().enumerate().take(V::W) {
            let at = (l + k).saturating_sub(V::W) * sb;
            *s = &rest[at..at + sb];
        }
        let d = V::reduce(V::ubrw31(sq, &sbs[..V::W]));
        for (l, w) in w.iter_mut().enumerate().take(V::W) {
            *w = if l + k >= V::W {
                gamma_pow(p, V::W - 1 - l)
            } else {
                F::ZERO
            };
        }
        weights = V::from_lanes(&w[..V::W]);
        s = V::wide_add(s, d.mul_wide(weights));
    }
    let mut terms = [F::ZERO; 8];
    V::reduce(s).store(&mut terms[..V::W]);
    let value = terms[..V::W].iter().fold(F::ZERO, |s, &t| s.add(t));
    *horner = Horner::with_acc(value);
    acc.zeroize();
    weights.zeroize();
    w.zeroize();
    terms.zeroize();
    let tail = &rest[k * sb..];
    if !tail.is_empty() {
        super_blocks(p, horner, tail);
    }
}

/// gamma^e, e = 0..=G.
#[inline(always)]
fn gamma_pow<F: BinaryField>(p: &BinPowers<F>, e: usize) -> F {
    if e == 0 {
        F::from_bytes(&[1])
    } else {
        p.hg()[e - 1]
    }
}

/// x^(2^j), j = 0..=4, in every lane: all that BRW on 31 blocks needs.
#[inline(always)]
fn splat_squares<F: BinaryField, V: BinLanes<F>>(p: &BinPowers<F>) -> [V; 5] {
    [
        V::splat(p.sq[0]),
        V::splat(p.sq[1]),
        V::splat(p.sq[2]),
        V::splat(p.sq[3]),
        V::splat(p.sq[4]),
    ]
}

/// The blocks of the super-blocks `sbs` (W of them, 31 blocks each): vector i = block i of
/// each.
#[inline(always)]
fn load_group<F: BinaryField, V: BinLanes<F>>(sbs: &[&[u8]]) -> [V; ETA] {
    let mut vb = [V::ZERO; ETA];
    for i in (0..ETA - 3).step_by(4) {
        let four = V::load_blocks4(sbs, i);
        vb[i..i + 4].copy_from_slice(&four);
    }
    for (i, v) in vb.iter_mut().enumerate().skip(ETA - 3) {
        *v = V::load_block(sbs, i);
    }
    vb
}

/// x * (x * acc + L) = x^2 acc + x L (L = `length`, in bits): two independent products, one
/// reduction. (A function, not a closure: it must inline into the `#[target_feature]` entry,
/// see `backend::x86`.)
#[inline(always)]
fn last<F: BinaryField>(p: &BinPowers<F>, acc: F, length: u64) -> F {
    F::reduce(F::wide_add(
        p.sq[1].mul_wide(acc),
        p.x().mul_wide_u64(length),
    ))
}

/// Block `i` of `msg` (the last one possibly short, zero-padded).
#[inline(always)]
fn block_at<F: BinaryField>(msg: &[u8], i: usize) -> F {
    let b = F::BYTES;
    F::from_bytes(&msg[i * b..((i + 1) * b).min(msg.len())])
}

/// Unreduced BRW(x; the c (0..=3) blocks of `msg` from block `at`).
#[inline(always)]
fn le3<F: BinaryField>(p: &BinPowers<F>, msg: &[u8], at: usize, c: usize) -> F::Wide {
    // A match per count, so that every block index is a constant.
    match c {
        0 => F::Wide::default(),
        1 => block_at::<F>(msg, at).widen(),
        2 => F::wide_add(
            block_at::<F>(msg, at).mul_wide(p.sq[0]),
            block_at::<F>(msg, at + 1).widen(),
        ),
        _ => F::wide_add(
            p.sq[0]
                .add_block(block_at(msg, at))
                .mul_wide(p.sq[1].add_block(block_at(msg, at + 1))),
            block_at::<F>(msg, at + 2).widen(),
        ),
    }
}

/// Unreduced BRW(x; the n (0..=7) blocks of `msg` from block `at`): E = BRW of the first
/// three (one product), then E (x^4 + M_4) + BRW of the rest (two levels of products).
#[inline(always)]
fn leaf7<F: BinaryField>(p: &BinPowers<F>, msg: &[u8], at: usize, n: usize) -> F::Wide {
    if n <= 3 {
        return le3(p, msg, at, n);
    }
    let e = F::reduce(le3(p, msg, at, 3)).mul_wide(p.sq[2].add_block(block_at(msg, at + 3)));
    F::wide_add(e, le3(p, msg, at + 4, n - 4))
}

/// The separator S_k = x^(2^e) + M_k of `msg` (blocks numbered from 1).
#[inline(always)]
fn separator<F: BinaryField>(p: &BinPowers<F>, msg: &[u8], k: usize, e: usize) -> F {
    p.sq[e].add_block(block_at(msg, k - 1))
}

/// Unreduced k BRW(x; the n (0..=7) blocks of `msg` from block `at`).
#[inline(always)]
fn weighted_leaf<F: BinaryField>(
    p: &BinPowers<F>,
    msg: &[u8],
    at: usize,
    n: usize,
    k: F,
) -> F::Wide {
    F::reduce(leaf7(p, msg, at, n)).mul_wide(k)
}

/// Unreduced w BRW(x; the r (4..=31) blocks of `msg`, the last zero-padded), in three
/// levels of products where the stack algorithm takes five or six: BRW on r blocks is
/// ((B_0 S_8 + B_1) S_16 + B_2 S_24 + B_3) with B_j the BRW of blocks 8j+1..8j+7 (two
/// levels, [`leaf7`]) and S_k = x^(2^e) + M_k the separators (the missing ones 1, the
/// missing B_j 0), so it is the sum of B_j K_j with K = w (S_8 S_16, S_16, S_24, 1), which
/// need only the separators and the key, and are ready (two products) when the B_j are.
/// Below 8 blocks, w (E S_4 + F) = E (w S_4) + F w. (`sb_tree` is the same form across
/// four lanes.)
#[inline(always)]
fn weighted_brw<F: BinaryField>(p: &BinPowers<F>, msg: &[u8], r: usize, w: F) -> F::Wide {
    debug_assert!((4..=ETA).contains(&r) && msg.len().div_ceil(F::BYTES) == r);
    if r < 8 {
        let e = F::reduce(le3(p, msg, 0, 3)).mul_wide(w.mul(separator(p, msg, 4, 2)));
        let f = match r {
            4 => F::Wide::default(),
            5 => block_at::<F>(msg, 4).mul_wide(w),
            6 => F::reduce(le3(p, msg, 4, 2)).mul_wide(w),
            _ => F::reduce(le3(p, msg, 4, 3)).mul_wide(w),
        };
        return F::wide_add(e, f);
    }
    if r < 16 {
        let k0 = w.mul(separator(p, msg, 8, 3));
        return F::wide_add(
            weighted_leaf(p, msg, 0, 7, k0),
            weighted_leaf(p, msg, 8, r - 8, w),
        );
    }
    let k1 = w.mul(separator(p, msg, 16, 4));
    let k0 = k1.mul(separator(p, msg, 8, 3));
    let head = F::wide_add(
        weighted_leaf(p, msg, 0, 7, k0),
        weighted_leaf(p, msg, 8, 7, k1),
    );
    if r < 24 {
        return F::wide_add(head, weighted_leaf(p, msg, 16, r - 16, w));
    }
    let k2 = w.mul(separator(p, msg, 24, 3));
    F::wide_add(
        head,
        F::wide_add(
            weighted_leaf(p, msg, 16, 7, k2),
            weighted_leaf(p, msg, 24, r - 24, w),
        ),
    )
}

/// BRW(x; the r <= N blocks of `msg`, the last zero-padded).
#[inline(always)]
fn short_brw<F: BinaryField, const N: usize>(p: &BinPowers<F>, msg: &[u8], r: usize) -> F {
    let mut ms = [F::ZERO; N];
    for (m, block) in ms.iter_mut().zip(msg.chunks(F::BYTES)) {
        *m = F::from_bytes(block);
    }
    if r == ETA {
        F::reduce(ubrw_full(&p.sq, &ms[..ETA]))
    } else {
        brw_short(&p.sq, &ms[..r])
    }
}

/// The Horner layer of Hash2L / vecHash2L over super-block values, with the component
/// counts: all that the lanes' state ([`BinWide`]) keeps beside its lanes (its held bytes
/// go to the Horner layer as whole super-blocks), and [`BinHasher`]'s part past its current
/// super-block. (In `BinWide` a whole `BinHasher`, whose super-block array of 31 elements
/// the lanes never use, was zero-filled, copied into its box and wiped per stream.) Its
/// accumulator reveals the key (with the message): wiped on drop.
#[derive(Clone, Default)]
pub(crate) struct BinOuter<F: BinaryField> {
    /// Horner in x^32 over super-block values, continuing across components.
    horner: Horner<F>,
    /// Bytes of the current component.
    component_bytes: u64,
    /// Components closed so far.
    closed: usize,
}

impl<F: BinaryField> BinOuter<F> {
    /// Pretend `n` bytes of the current component were absorbed (limit tests).
    #[cfg(test)]
    pub fn set_bytes_for_test(&mut self, n: u64) {
        self.component_bytes = n;
    }

    /// Number of components, counting the open one.
    pub fn components(&self) -> usize {
        self.closed + 1
    }

    /// Close the current component, its super-blocks all in the Horner layer:
    /// acc = x * acc + L.
    #[inline(always)]
    fn close(&mut self, p: &BinPowers<F>) -> F {
        // In place (a moved-out copy would stay on the stack); the assignments below
        // overwrite the live state, which later calls read.
        let acc = self.horner.value(p.hg());
        let length = F::from_bytes(&self.component_bytes.wrapping_mul(8).to_le_bytes());
        let acc = p.x().mul(acc).add(length);
        self.horner = Horner::with_acc(acc);
        self.component_bytes = 0;
        self.closed += 1;
        acc
    }

    /// [`close`](Self::close) where every byte of the component went to the Horner layer
    /// as super-blocks: the empty component is one zero block (BRW value 0).
    #[inline(always)]
    fn close_drained(&mut self, p: &BinPowers<F>) -> F {
        if self.component_bytes == 0 {
            self.horner.push(p.hg(), F::ZERO);
        }
        self.close(p)
    }

    /// vecHash2L: start the next component (the current one drained).
    #[inline(always)]
    pub fn next_component(&mut self, p: &BinPowers<F>) {
        self.close_drained(p);
    }

    /// Hash2L of a drained state: x * (x * acc + L).
    #[inline(always)]
    pub fn finish_hash2l(&mut self, p: &BinPowers<F>) -> F {
        p.x().mul(self.close_drained(p))
    }

    /// vecHash2L of a drained state: x * (acc_k + k * x^(8B-8)), k = number of components
    /// (1..=255).
    #[inline(always)]
    pub fn finish_vector(&mut self, p: &BinPowers<F>) -> F {
        let acc = self.close_drained(p);
        p.x().mul(acc.add(F::top_byte(self.closed as u8)))
    }
}

/// Wipes the Horner layer and the counts: the state of `BinOuter::default()`.
impl<F: BinaryField> Zeroize for BinOuter<F> {
    fn zeroize(&mut self) {
        #[cfg(test)]
        super::wipe_log::note();
        self.horner.zeroize();
        self.component_bytes = 0;
        self.closed = 0;
    }
}

/// Whether `x` is zero (the wipe checks of the tests).
#[cfg(test)]
fn is_zero<F: BinaryField>(x: F) -> bool {
    let mut b = [0u8; 32];
    x.write_bytes(&mut b);
    b == [0; 32]
}

#[cfg(test)]
impl<F: BinaryField> BinOuter<F> {
    pub fn is_wiped(&self) -> bool {
        self.horner.is_wiped(is_zero) && self.component_bytes == 0 && self.closed == 0
    }
}

impl<F: BinaryField> Drop for BinOuter<F> {
    fn drop(&mut self) {
        self.zeroize();
    }
}

/// Streaming Hash2L / vecHash2L. Its Horner accumulator and super-block reveal the key (with
/// the message), so the state is wiped on drop ([`Zeroize`]; copies made by `Clone` too).
#[derive(Clone)]
pub(crate) struct BinHasher<F: BinaryField> {
    blocks: Blocks,
    sb: [F; ETA],
    n: usize,
    /// The Horner layer over whole super-blocks and the counts.
    outer: BinOuter<F>,
}

impl<F: BinaryField> Default for BinHasher<F> {
    fn default() -> Self {
        BinHasher {
            blocks: Blocks::default(),
            sb: [F::ZERO; ETA],
            n: 0,
            outer: BinOuter::default(),
        }
    }
}

impl<F: BinaryField> BinHasher<F> {
    /// Bytes of the current component so far.
    pub fn component_bytes(&self) -> u64 {
        self.outer.component_bytes
    }

    /// Pretend `n` bytes of the current component were absorbed (limit tests).
    #[cfg(test)]
    pub fn set_bytes_for_test(&mut self, n: u64) {
        self.outer.set_bytes_for_test(n);
    }

    /// Number of components, counting the open one.
    pub fn components(&self) -> usize {
        self.outer.components()
    }

    #[inline(always)]
    pub fn update(&mut self, p: &BinPowers<F>, data: &[u8]) {
        self.outer.component_bytes += data.len() as u64;
        let Self {
            blocks,
            sb,
            n,
            outer,
        } = self;
        blocks.feed(
            F::BYTES,
            data,
            #[inline(always)]
            |b| absorb(p, sb, n, &mut outer.horner, F::from_bytes(b)),
        );
    }

    /// One block into the current super-block.
    #[inline(always)]
    fn absorb(&mut self, p: &BinPowers<F>, m: F) {
        absorb(p, &mut self.sb, &mut self.n, &mut self.outer.horner, m)
    }

    /// The current component's last blocks (a short last block zero-padded, the last
    /// partial super-block BRW-hashed) into the Horner layer, which is then drained as
    /// [`BinOuter`] takes it. (The empty component's one zero block is `BinOuter`'s: its
    /// BRW value is 0.)
    #[inline(always)]
    fn flush(&mut self, p: &BinPowers<F>) {
        if !self.blocks.tail().is_empty() {
            let m = F::from_bytes(self.blocks.tail());
            self.absorb(p, m);
        }
        if self.n > 0 {
            self.outer
                .horner
                .push(p.hg(), brw_short(&p.sq, &self.sb[..self.n]));
            self.n = 0;
        }
        self.blocks.zeroize();
    }

    /// vecHash2L: start the next component.
    #[inline(always)]
    pub fn next_component(&mut self, p: &BinPowers<F>) {
        self.flush(p);
        self.outer.next_component(p);
    }

    /// Hash2L: x * (x * acc + L). The state is used up (and wiped when it drops).
    #[inline(always)]
    pub fn finish_hash2l(&mut self, p: &BinPowers<F>) -> F {
        self.flush(p);
        self.outer.finish_hash2l(p)
    }

    /// vecHash2L: x * (acc_k + k * x^(8B-8)), k = number of components (1..=255). The state
    /// is used up (and wiped when it drops).
    #[inline(always)]
    pub fn finish_vector(&mut self, p: &BinPowers<F>) -> F {
        self.flush(p);
        self.outer.finish_vector(p)
    }
}

/// Wipes the blocks held, the super-block and the Horner layer: the state of
/// `BinHasher::default()`.
impl<F: BinaryField> Zeroize for BinHasher<F> {
    fn zeroize(&mut self) {
        self.wipe_blocks();
        self.outer.zeroize();
    }
}

impl<F: BinaryField> BinHasher<F> {
    /// Wipes what `outer` does not hold: the blocks held and the current super-block.
    fn wipe_blocks(&mut self) {
        self.blocks.zeroize();
        self.sb.zeroize();
        self.n = 0;
    }
}

#[cfg(test)]
impl<F: BinaryField> BinHasher<F> {
    pub fn is_wiped(&self) -> bool {
        self.blocks.0.is_wiped()
            && self.sb.iter().all(|&m| is_zero(m))
            && self.n == 0
            && self.outer.is_wiped()
    }
}

impl<F: BinaryField> Drop for BinHasher<F> {
    fn drop(&mut self) {
        // `outer` wipes itself when it drops.
        self.wipe_blocks();
    }
}

/// One block into the current super-block `sb` (n blocks so far); a full super-block goes to
/// the Horner layer.
#[inline(always)]
fn absorb<F: BinaryField>(
    p: &BinPowers<F>,
    sb: &mut [F; ETA],
    n: &mut usize,
    h: &mut Horner<F>,
    m: F,
) {
    sb[*n] = m;
    *n += 1;
    if *n == ETA {
        h.push(p.hg(), brw_short(&p.sq, sb));
        *n = 0;
    }
}

/// W elements of a binary field in the lanes of a SIMD vector: W super-blocks side by side.
pub(crate) trait BinLanes<F: BinaryField>: Field {
    /// Lanes: super-blocks per step.
    const W: usize;
    /// `x` in every lane.
    fn splat(x: F) -> Self;
    /// Lane j = block i of super-block `sbs[j]` (`sbs.len() == W`, each 31 blocks).
    fn load_block(sbs: &[&[u8]], i: usize) -> Self;
    /// Blocks i..i+3 of each super-block (`load_block` four times, which a type may do
    /// faster).
    #[inline(always)]
    fn load_blocks4(sbs: &[&[u8]], i: usize) -> [Self; 4] {
        [
            Self::load_block(sbs, i),
            Self::load_block(sbs, i + 1),
            Self::load_block(sbs, i + 2),
            Self::load_block(sbs, i + 3),
        ]
    }
    /// Unreduced BRW of the W whole super-blocks `sbs` (31 blocks each), lane j = `sbs[j]`:
    /// [`ubrw31_by_level`] of their blocks, which a type may load and multiply faster.
    #[inline(always)]
    fn ubrw31(sq: &[Self; 5], sbs: &[&[u8]]) -> Self::Wide {
        ubrw31_by_level(sq, &load_group::<F, Self>(sbs))
    }
    /// The lanes as scalar elements (`out.len() == W`).
    fn store(self, out: &mut [F]);
    /// Lane j = `lanes[j]` (`lanes.len() == W`).
    fn from_lanes(lanes: &[F]) -> Self;
    /// Lane j (< W) replaced by `x`, the others kept.
    fn put_lane(self, j: usize, x: F) -> Self;
    /// `sum` plus the unreduced scalar value `w` in lane 0, so that the xmm side's sum joins
    /// the lanes' one reduction (two carry-less products fewer for GF(2^128)); `None` where
    /// reducing `w` on its own measured faster.
    fn join_wide(sum: Self::Wide, w: F::Wide) -> Option<Self::Wide>;
}

/// Largest group of super-blocks held back: 4 super-blocks of 32-byte blocks.
const MAX_GROUP: usize = 4 * ETA * 32;

/// Hash2L / vecHash2L with W super-blocks at a time in the lanes of `V`: bytes are held until
/// a group of W super-blocks is complete; whole groups go to the lane Horner ([`lane_group`]),
/// a component's last bytes (less than a group) and the Horner layer between components to
/// `inner`. Wiped on drop (`inner` on its own drop). It holds no vectors between calls (the
/// lanes are stored as elements), so it can be wiped anywhere.
#[derive(Clone)]
pub(crate) struct BinWide<F: BinaryField, V: BinLanes<F>> {
    inner: BinOuter<F>,
    /// Bytes of an incomplete group, not yet given to `inner`.
    held: Tail<MAX_GROUP>,
    /// The lane Horner's accumulators (the first W), when `in_lanes`.
    lanes: [F; 8],
    /// Whether the value so far is in `lanes` (since the component's first whole group)
    /// rather than in `inner`'s Horner layer.
    in_lanes: bool,
    _lanes: core::marker::PhantomData<V>,
}

impl<F: BinaryField, V: BinLanes<F>> Default for BinWide<F, V> {
    fn default() -> Self {
        BinWide {
            inner: BinOuter::default(),
            held: Tail::default(),
            lanes: [F::ZERO; 8],
            in_lanes: false,
            _lanes: core::marker::PhantomData,
        }
    }
}

impl<F: BinaryField, V: BinLanes<F>> BinWide<F, V> {
    const GROUP: usize = V::W * ETA * F::BYTES;

    /// Bytes of the current component, held ones included.
    pub fn component_bytes(&self) -> u64 {
        self.inner.component_bytes + self.held.held().len() as u64
    }

    pub fn components(&self) -> usize {
        self.inner.components()
    }

    #[cfg(test)]
    pub fn set_bytes_for_test(&mut self, n: u64) {
        self.inner
            .set_bytes_for_test(n - self.held.held().len() as u64);
    }

    /// `data` into the lanes, a group at a time. A group may start in the held bytes: their
    /// whole super-blocks are read where they are, beside the first super-blocks of `data`
    /// (the lanes load each super-block from its own address), so only the held partial
    /// super-block is completed by a copy, not the whole group (4 KiB updates at 64 KiB:
    /// 14% of the time in `memmove` before).
    #[inline(always)]
    pub fn update(&mut self, p: &BinPowers<F>, mut data: &[u8]) {
        const { assert!(Self::GROUP <= MAX_GROUP && V::W <= 8) };
        let sb = ETA * F::BYTES;
        let held = self.held.held().len();
        // Too little to complete a group with the held bytes: hold it all.
        if held + data.len() < Self::GROUP {
            self.held.append(data);
            return;
        }
        // The key's powers broadcast, not wiped here (the running value `acc` and `step` are):
        // the key holds them as long as the stream, and a wipe reaches only the slots it
        // makes for them, not the compiler's spills of them in the loop (seen in the
        // code). The wipe cost a fixed 23-35 TSC cycles per update (Zen 4, 64 KiB in
        // updates of 1984 / 4096 bytes, min TSC cycles per message, with -> without it:
        // Hash2L128 7640 / 8297 -> 6496 / 7832, Hash2L256 12207 / 11407 -> 11345 / 10871;
        // one update 5768 -> 5824, 9590 -> 9464). (One-shot hashing wipes them once per
        // message, at no measurable cost.)
        let sq = splat_squares::<F, V>(p);
        let mut step = V::splat(p.hg()[V::W - 1]);
        let mut acc = if self.in_lanes {
            V::from_lanes(&self.lanes[..V::W])
        } else {
            // The component's first group: the value so far moves to the lanes.
            let a = lanes_start::<F, V>(self.inner.horner.value(p.hg()));
            self.inner.horner.zeroize();
            a
        };
        if held > 0 {
            // Complete the held partial super-block, then the group with data's first
            // super-blocks.
            let (part, rest) = data.split_at((sb - held % sb) % sb);
            self.held.append(part);
            let h = self.held.held().len() / sb;
            let (first, rest) = rest.split_at((V::W - h) * sb);
            let mut sbs: [&[u8]; 8] = [&[]; 8];
            for (j, s) in sbs.iter_mut().enumerate().take(V::W) {
                *s = if j < h {
                    &self.held.held()[j * sb..(j + 1) * sb]
                } else {
                    &first[(j - h) * sb..(j - h + 1) * sb]
                };
            }
            acc = lane_step::<F, V>(&sq, step, acc, &sbs[..V::W]);
            self.held.clear();
            data = rest;
            self.inner.component_bytes += Self::GROUP as u64;
        }
        let mut groups = data.chunks_exact(Self::GROUP);
        let end = end_of(data);
        for g in &mut groups {
            prefetch_ahead::<TO_L2>(g, end);
            acc = lane_group::<F, V>(&sq, step, acc, g);
            self.inner.component_bytes += Self::GROUP as u64;
        }
        self.held.append(groups.remainder());
        acc.store(&mut self.lanes[..V::W]);
        self.in_lanes = true;
        acc.zeroize();
        step.zeroize();
    }

    /// Give the lanes' value and the held bytes (less than a group; they end the component)
    /// to `inner`: the held whole super-blocks as a partial group in the lanes, then the last,
    /// shorter one. (`inner` holds no partial super-block: it takes only whole groups before
    /// this.)
    #[inline(always)]
    fn drain(&mut self, p: &BinPowers<F>) {
        Self::drain_into(
            &mut self.inner,
            self.held.held(),
            &self.lanes,
            self.in_lanes,
            p,
        );
        self.lanes.zeroize();
        self.in_lanes = false;
        self.held.clear();
    }

    /// [`drain`](Self::drain) from the parts of a state into `inner` (the state's own, or a
    /// copy of it).
    #[inline(always)]
    fn drain_into(
        inner: &mut BinOuter<F>,
        held: &[u8],
        lanes: &[F; 8],
        in_lanes: bool,
        p: &BinPowers<F>,
    ) {
        inner.component_bytes += held.len() as u64;
        if in_lanes || held.len() >= WIDE_FROM * F::BYTES {
            let acc = if in_lanes {
                V::from_lanes(&lanes[..V::W])
            } else {
                lanes_start::<F, V>(inner.horner.value(p.hg()))
            };
            let mut sq = splat_squares::<F, V>(p);
            lanes_end(p, &sq, acc, held, &mut inner.horner);
            wipe_squares(&mut sq);
        } else if !held.is_empty() {
            super_blocks(p, &mut inner.horner, held);
        }
    }

    #[inline(always)]
    pub fn next_component(&mut self, p: &BinPowers<F>) {
        self.drain(p);
        self.inner.next_component(p)
    }

    /// The value of a message whose bytes are all held (its only component so far, shorter
    /// than a group: nothing in the lanes or the Horner layer), as a whole message's: the
    /// held super-blocks weighted across the lanes ([`weighted_super_blocks`]), not a group
    /// in the lanes with the lanes past them idle. Hash2L256 streams of 2049 to 3967 bytes
    /// (past `Hasher`'s hold, short of a group of 3968); `None` otherwise.
    #[inline(always)]
    fn finish_whole(&self, p: &BinPowers<F>, vector: bool) -> Option<F> {
        if self.in_lanes || self.inner.closed > 0 {
            return None;
        }
        let held = self.held.held();
        Some(if vector {
            vec_hash2l_wide_one_shot::<F, V>(p, &[held])
        } else {
            hash2l_wide_one_shot::<F, V>(p, held)
        })
    }

    /// The value of a message (vecHash2L: of its last component) whose value is in the
    /// lanes, from the lanes and the held bytes at once, as a whole message's is
    /// ([`weighted_super_blocks`]): the lanes and the held super-blocks weighed by
    /// x^2 gamma^e (`Powers::hl`), so that neither the Horner step of the held super-blocks
    /// nor the final x * (x * acc + L) waits for the lanes' value. `None` where the key has
    /// not the weights (a one-shot key for a shorter message) or the value is not in the
    /// lanes. (The lanes' value then went to `inner`'s Horner layer, the held bytes after
    /// it, and x * (x * acc + L) after them: Zen 4, `Hasher` per message in one update, min
    /// TSC cycles per message, before -> after: Hash2L128 2500 B 721 -> 566, 4 KiB
    /// 739 -> 660, 8 KiB 1092 -> 1012, 16 KiB 1863 -> 1700.)
    #[inline(always)]
    fn finish_weighted(&self, p: &BinPowers<F>, vector: bool) -> Option<F> {
        let held = self.held.held();
        let t = held.len().div_ceil(ETA * F::BYTES);
        if !self.in_lanes || p.hl().len() < V::W + t {
            return None;
        }
        let n = self.inner.component_bytes + held.len() as u64;
        let bits = n.wrapping_mul(8);
        let mut ssum = if vector {
            let k = F::top_byte((self.inner.closed + 1) as u8);
            p.x().mul_wide(F::from_bytes(&bits.to_le_bytes()).add(k))
        } else {
            p.x().mul_wide_u64(bits)
        };
        let mut acc = V::from_lanes(&self.lanes[..V::W]);
        let mut sq = splat_squares::<F, V>(p);
        let mut sum = lanes_weighted::<F, V>(acc, p.hl(), t);
        sum = V::wide_add(
            sum,
            weighted_rest::<F, V>(p, &sq, held, p.hl(), true, &mut ssum),
        );
        let value = lanes_total_with::<F, V>(sum, ssum);
        acc.zeroize();
        wipe_squares(&mut sq);
        ssum.zeroize();
        Some(value)
    }

    /// The value, computed in place: the state is used up (and wiped when it drops). (In
    /// place, not by value: a move of the state copies its 4 KiB buffer.)
    #[inline(always)]
    pub fn finish(&mut self, p: &BinPowers<F>, vector: bool) -> F {
        if let Some(v) = self.finish_whole(p, vector) {
            return v;
        }
        if let Some(v) = self.finish_weighted(p, vector) {
            return v;
        }
        self.drain(p);
        if vector {
            self.inner.finish_vector(p)
        } else {
            self.inner.finish_hash2l(p)
        }
    }

    /// The value, the state left as it is: only `inner` is copied (wiped when the copy
    /// drops), the held bytes are read where they are. A copy of the whole state cost a
    /// 4 KiB copy per `Hasher::finalize`.
    #[inline(always)]
    pub fn finish_copy(&self, p: &BinPowers<F>, vector: bool) -> F {
        if let Some(v) = self.finish_whole(p, vector) {
            return v;
        }
        if let Some(v) = self.finish_weighted(p, vector) {
            return v;
        }
        let mut inner = self.inner.clone();
        Self::drain_into(&mut inner, self.held.held(), &self.lanes, self.in_lanes, p);
        if vector {
            inner.finish_vector(p)
        } else {
            inner.finish_hash2l(p)
        }
    }
}

/// Wipes the bytes held, the lanes and the inner state: the state of `BinWide::default()`.
impl<F: BinaryField, V: BinLanes<F>> Zeroize for BinWide<F, V> {
    fn zeroize(&mut self) {
        self.held.zeroize();
        self.lanes.zeroize();
        self.in_lanes = false;
        self.inner.zeroize();
    }
}

#[cfg(test)]
impl<F: BinaryField, V: BinLanes<F>> BinWide<F, V> {
    pub fn is_wiped(&self) -> bool {
        self.held.is_wiped()
            && self.lanes.iter().all(|&x| is_zero(x))
            && !self.in_lanes
            && self.inner.is_wiped()
    }
}

impl<F: BinaryField, V: BinLanes<F>> Drop for BinWide<F, V> {
    fn drop(&mut self) {
        // `inner` wipes itself when it drops.
        self.held.zeroize();
        self.lanes.zeroize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `weighted_brw` against w times the stack algorithm, for every block count it takes,
    /// every length of the last block, keys and messages with every bit set and not.
    fn weighted_brw_is_w_brw<F: BinaryField>() {
        let b = F::BYTES;
        for key in [[0xffu8; 32], [0x5a; 32]] {
            let p = BinPowers::<F>::new(F::from_bytes(&key[..b]), 6, 1, Some(5));
            let w = F::from_bytes(&[0xc3; 32][..b]);
            let random: Vec<u8> = (0..ETA * b).map(|i| (i * 151 + 7) as u8).collect();
            for msg in [random, vec![0xff; ETA * b]] {
                for n in 3 * b + 1..=ETA * b {
                    let r = n.div_ceil(b);
                    let mut ms = [F::ZERO; ETA];
                    for (m, block) in ms.iter_mut().zip(msg[..n].chunks(b)) {
                        *m = F::from_bytes(block);
                    }
                    let (mut want, mut got) = ([0u8; 32], [0u8; 32]);
                    brw_short(&p.sq, &ms[..r]).mul(w).write_bytes(&mut want);
                    F::reduce(weighted_brw(&p, &msg[..n], r, w)).write_bytes(&mut got);
                    assert_eq!(got, want, "{n} bytes");
                }
            }
        }
    }

    #[test]
    fn weighted_brw_matches_the_stack_algorithm() {
        weighted_brw_is_w_brw::<crate::field::Gf128>();
        weighted_brw_is_w_brw::<crate::field::Gf256>();
    }
}
