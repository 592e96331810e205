//! The scalar 64-bit schedule of every prime-field function (the `scalar` backend).
//!
//! The portable code (`PrimeHasher`'s block-at-a-time kinds) is the definition; this is the
//! same mathematics arranged for speed on a 64-bit core:
//! - whole chunks of blocks are read straight from the caller's bytes with word loads (a
//!   Horner group, a super-block, a BRW chunk, four blocks per decBRWHash stream), with no
//!   per-block dispatch and no copies;
//! - Horner keeps its accumulator as x * Poly(x; blocks so far), so a group of n blocks is
//!   `(acc + m_1) x^n + m_2 x^(n-1) + ... + m_n x` (n products, one reduction) and the final
//!   multiplication by x of polyHash, t-BRWHash and d-2LHash is already done;
//! - one-shot messages run without a streaming buffer ([`one_shot`]).
//!
//! Everything on the hot path is `#[inline(always)]` so that the backend's entry points
//! (`backend::x86::scalar_*`, compiled with BMI2) compile it with their features.

use super::decbrw::combine;
use super::{powers_to_g, GroupsCall, Held, Powers};
use crate::algorithm::Family;
use crate::backend::TwoLevelKernel;
use crate::eval::brw::ubrw_at;
use crate::eval::{brw_short, brw_short_at, Brw, Horner, G};
use crate::field::{Clamped, Field, Fp1305, PrimeField};
use crate::Algorithm;
use zeroize::Zeroize;

/// Largest chunk: 32 blocks of 16 bytes (a 5-BRWHash chunk, four blocks of each of eight
/// decBRWHash streams).
const MAX_CHUNK: usize = 32 * 16;

/// Chunk of the stack BRW algorithm here: 2^w blocks, w = 4, the measured best. Timing
/// example, scalar backend, precomputed key, TSC cycles per message at 256 B / 1000 B /
/// 5000 B / 64 KiB, with each chunk's blocks loaded in place (`BrwChunks::push_chunk_with`):
/// BRWHash1305 w = 3 308 / 867 / 3565 / 45055, w = 4 294 / 878 / 3419 / 42143, w = 5 454 /
/// 1063 / 3540 / 41706; BRWHash1271 207 / 503 / 2066 / 25792, 204 / 478 / 2056 / 23988,
/// 305 / 470 / 1912 / 22952. (With the blocks copied into an array first, w = 3 was best.)
const BRW_CHUNK: usize = 16;

/// Per-function state: absorbs whole chunks, finishes with the bytes after the last one.
#[derive(Clone)]
enum Core<F: Field> {
    /// polyHash and Poly1305: x * Poly(x; blocks so far).
    Poly(F),
    /// BRWHash (t = 0) and t-BRWHash.
    Brw(Brw<F, BRW_CHUNK>, u8),
    /// d-2LHash (and d-Hash once it is known to be long): Horner in gamma = x^(2^d) over
    /// the super-blocks' BRW values.
    TwoL(Horner<F>, u8),
    /// d-2LHash (and long d-Hash) with a SIMD backend's lanes: the BRW values of W
    /// super-blocks at a time from the lanes, Horner in gamma here.
    TwoLLanes(Box<Groups<F>>),
    /// d-Hash while at most 2^d - 1 blocks are known: the branch is not decided yet.
    DHead(u8),
    /// c-decBRWHash: one stack BRW per stream.
    Dec(Vec<Brw<F, 4>>),
}

/// A streamed d-2LHash on a SIMD backend's W lanes (`SimdState::two_level_kernel`): lane j
/// runs Horner in gamma^W over super-blocks j, j + W, ... of the whole groups of W, kept as
/// W values between calls; whole groups go from the caller's bytes straight to the lanes,
/// the bytes short of a group (whole super-blocks and part of one) wait in `bytes`. At the
/// end, Horner in gamma over the lanes (lane W - 1 started from the value of the
/// super-blocks before the switch) is the value of the groups, and the held super-blocks
/// follow it in scalar code.
#[derive(Clone)]
pub(crate) struct Groups<F: Field> {
    /// The lanes' Horner values in the kernel's lane words (`GroupsCall::lanes`), valid once
    /// `start` is taken.
    lanes: [u64; LANE_WORDS],
    /// The value of the super-blocks before the switch, lane W - 1's start, until the
    /// first kernel call.
    start: Option<F>,
    /// gamma^W.
    step: F,
    d: u8,
    kernel: TwoLevelKernel<F>,
    w: usize,
    /// Bytes held (fewer than a group): `bytes[..len]`.
    len: usize,
    /// The held bytes' buffer, allocated at the first byte held with room for a group and
    /// [`SLACK`] (it never grows after: a move would leave a copy unwiped), never
    /// zero-filled: its length is the high-water mark of the bytes written, which a wipe
    /// covers. One buffer for whole super-blocks and the part of one after them: with the
    /// part in the state's `Held` as well, an update copied those bytes twice and could
    /// call the kernel twice (Zen 4, 4-Hash1271, min TSC cycles of a 64 KiB stream in 4 KiB
    /// updates: see [`Groups::absorb`]).
    bytes: Vec<u8>,
}

/// Zero bytes after a completed group in `Groups::bytes`, so that the lanes load 16 bytes
/// at every block (15-byte blocks) by plain loads.
const SLACK: usize = 16;

/// Super-blocks from which a streamed d-2LHash takes the lanes: 8 (as whole messages,
/// `SimdState::two_level_crossover`), 16 for d < 4, whose super-blocks are short beside the
/// switch's cost (the state's buffer, gamma^W, the end in scalar code). Private timing loop,
/// TSC cycles per message streamed, lanes from 8 super-blocks vs scalar: 2-Hash1305 400 B
/// 1179 vs 743, 700 B 879 vs 987; 3-Hash1271 1 KiB 818 vs 751, 2 KiB 993 vs 1119.
fn lanes_from(d: u8) -> u64 {
    if d >= 4 {
        8
    } else {
        16
    }
}

/// Most lanes of a d-2LHash kernel.
const MAX_W: usize = 8;

/// Most 64-bit words of a kernel's lane value: 8 lanes of 5 limbs (radix 2^26); the
/// IFMA kernels take 8 x 3.
const LANE_WORDS: usize = MAX_W * 5;

impl<F: PrimeField> Groups<F> {
    /// Going on from the super-blocks so far (`outer`).
    fn new<const S: usize>(
        p: &Powers<F, S>,
        outer: &mut Horner<F>,
        d: u8,
        (kernel, w): (TwoLevelKernel<F>, usize),
    ) -> Box<Self> {
        debug_assert!(w <= MAX_W);
        let start = Some(outer.value(p.hg()));
        outer.zeroize();
        // gamma^W = x^(2^(d + lg W)) (W a power of two): the key's squaring, or from gamma.
        // (Three dependent squarings per stream of 2^130 - 5, about 40 TSC cycles.)
        let e = usize::from(d) + w.trailing_zeros() as usize;
        let step = match p.squares().get(e) {
            Some(&s) => s,
            None => {
                let mut step = p.hg()[0];
                for _ in 0..w.trailing_zeros() {
                    step = step.square();
                }
                step
            }
        };
        Box::new(Groups {
            lanes: [0; LANE_WORDS],
            start,
            step,
            d,
            kernel,
            w,
            len: 0,
            bytes: Vec::new(),
        })
    }

    /// Bytes of a super-block and of a group.
    #[inline(always)]
    fn sizes(&self) -> (usize, usize) {
        let sb = ((1 << self.d) - 1) * F::BLOCK;
        (sb, self.w * sb)
    }

    /// Hold `data` after the held bytes (they stay fewer than a group and `SLACK`).
    #[inline(always)]
    fn hold(&mut self, data: &[u8]) {
        if data.is_empty() {
            return;
        }
        let room = self.sizes().1 + SLACK;
        if self.bytes.capacity() < room {
            // The first bytes held, or a clone's buffer (allocated to its length only).
            let mut full = Vec::with_capacity(room);
            full.extend_from_slice(&self.bytes);
            crate::backend::wipe_bytes(&mut self.bytes);
            self.bytes = full;
        }
        let at = self.len;
        debug_assert!(at <= self.bytes.len() && at + data.len() <= room);
        // Over bytes written before, then past them (within the capacity).
        let (over, past) = data.split_at((self.bytes.len() - at).min(data.len()));
        self.bytes[at..at + over.len()].copy_from_slice(over);
        self.bytes.extend_from_slice(past);
        self.len += data.len();
    }

    /// Message bytes: a group completed in `bytes`, the whole groups straight from `data`
    /// (one kernel call for both), the rest held. Zen 4, 4-Hash1271 (4 lanes), min TSC
    /// cycles of a 64 KiB stream, 3 alternating runs, with the part of a super-block held in
    /// the state's `Held` (and copied again into `bytes` once whole) -> here: one update
    /// 8632-8684 -> 8528, 4 KiB updates 10920-11102 -> 10036-10192, 1 KiB updates
    /// 17706-17914 -> 15262-15288, updates of 3600 B (whole groups) 10062-10088 -> 9672 (no
    /// zero fill of the buffer); 7800 with a key. (A group completed across the buffer and
    /// `data`, its lanes loaded from the two with only the part of a super-block copied,
    /// measured slower: 4 KiB updates 10036 -> 10504, 1 KiB 15500 -> 16300; the lanes'
    /// loads, each bounds-checked at its own address, cost more than the copy. Branch
    /// `wip/two-source-head`.)
    #[inline(always)]
    fn absorb<const S: usize>(&mut self, p: &Powers<F, S>, mut data: &[u8]) {
        let (_, group) = self.sizes();
        let mut head: &[u8] = &[];
        if self.len > 0 {
            let take = (group - self.len).min(data.len());
            self.hold(&data[..take]);
            data = &data[take..];
            if self.len < group {
                return;
            }
            if self.bytes.len() < group + SLACK {
                // Within the capacity: no move.
                self.bytes.resize(group + SLACK, 0);
            }
            // The whole buffer: the bytes past the group (stale or zero) let the lanes load
            // 16 bytes at each block, and never enter a value.
            head = &self.bytes;
            self.len = 0;
        }
        let groups = data.len() / group;
        // All of `data`: the bytes after the groups let the last one's loads run whole. (One
        // call for the buffered group and the run: a call cost about 80 TSC cycles.)
        if groups > 0 || !head.is_empty() {
            (self.kernel)(GroupsCall {
                sq: &p.sq,
                d: self.d,
                step: self.step,
                head,
                bytes: data,
                groups,
                lanes: &mut self.lanes,
                start: self.start.take(),
                out: None,
                gammas: &[],
            });
        }
        self.hold(&data[groups * group..]);
    }

    /// Horner in gamma over the lanes and the super-blocks still held (scalar code), for the
    /// end of the message. (The held super-blocks as a last, short group in the lanes, their
    /// other lanes masked, measured no faster: Zen 5, 64 KiB of 4-Hash1271 streamed in 4 KiB
    /// updates, 3 held, min TSC cycles 6343-6942 against 6454-6630.)
    /// Also returns the bytes after the held super-blocks (part of one).
    #[inline(always)]
    fn outer<const S: usize>(&mut self, p: &Powers<F, S>) -> (Horner<F>, &[u8]) {
        let (sb, _) = self.sizes();
        let len = core::mem::take(&mut self.len);
        let (held, tail) = self.bytes[..len].split_at(len / sb * sb);
        let (kernel, d, step) = (self.kernel, self.d, self.step);
        let outer = groups_horner(p, kernel, d, step, &mut self.lanes, self.start.take(), held);
        (outer, tail)
    }

    /// [`outer`](Self::outer) without using up the state, for `Hasher::finalize`: the
    /// lanes' words and `start` copied, the held super-blocks read where they lie. (A clone
    /// of the state had copied its 4 KB buffer and two boxes, and wiped and freed them.)
    #[inline(always)]
    fn outer_ref<const S: usize>(&self, p: &Powers<F, S>) -> (Horner<F>, &[u8]) {
        let (sb, _) = self.sizes();
        let (held, tail) = self.bytes[..self.len].split_at(self.len / sb * sb);
        let mut lanes = self.lanes;
        let outer = groups_horner(
            p,
            self.kernel,
            self.d,
            self.step,
            &mut lanes,
            self.start,
            held,
        );
        lanes.zeroize();
        (outer, tail)
    }
}

/// Horner in gamma from the lanes' words `lanes` of `kernel` (or from `start`, before any
/// kernel call), then over the super-blocks `held`.
#[inline(always)]
fn groups_horner<F: PrimeField, const S: usize>(
    p: &Powers<F, S>,
    kernel: TwoLevelKernel<F>,
    d: u8,
    step: F,
    lanes: &mut [u64; LANE_WORDS],
    start: Option<F>,
    held: &[u8],
) -> Horner<F> {
    let sb = ((1 << d) - 1) * F::BLOCK;
    // The lanes' Horner in gamma as one value from the kernel, where W values out of
    // the lanes took W conversions and a scalar Horner. With `bytes` allocated at its
    // first use: Zen 5, 4-Hash1271, min TSC cycles of a stream, one update of 1800 B 669
    // -> 471, of 64800 B 4195 -> 4091, 64 KiB in 4 KiB updates 6552 -> 6344.
    let mut acc = F::ZERO;
    match start {
        Some(v) => acc = v,
        None => kernel(GroupsCall {
            sq: &p.sq,
            d,
            step,
            head: &[],
            bytes: &[],
            groups: 0,
            lanes,
            start: None,
            out: Some(&mut acc),
            gammas: p.hg(),
        }),
    }
    let mut outer = Horner::with_acc(acc);
    acc.zeroize();
    for chunk in held.chunks_exact(sb) {
        let v = F::reduce(super_block_d(&p.sq, d, chunk));
        outer.push(p.hg(), v);
    }
    outer
}

impl<F: Field> Zeroize for Groups<F> {
    fn zeroize(&mut self) {
        self.lanes.zeroize();
        self.start.zeroize();
        self.step.zeroize();
        self.len = 0;
        // Every byte ever written; word stores (`zeroize` on a byte array writes byte by
        // byte).
        crate::backend::wipe_bytes(&mut self.bytes);
    }
}

impl<F: PrimeField> Core<F> {
    /// The state for `alg`; `length` (one-shot) decides d-Hash's branch at once.
    fn new(alg: Algorithm, length: Option<u64>) -> Self {
        match alg.family() {
            Family::BrwHash(_) => Core::Brw(Brw::default(), 0),
            Family::TBrwHash(t, _) => Core::Brw(Brw::default(), t),
            Family::TwoLHash(d, _) => Core::TwoL(Horner::default(), d),
            Family::DHash(d, _) => match length {
                Some(n) if n > Self::head_bytes(d) => Core::TwoL(Horner::default(), d),
                _ => Core::DHead(d),
            },
            Family::DecBrwHash(c, _) => Core::Dec(vec![Brw::default(); c as usize]),
            // Poly1305 and polyHash (binary-field families never reach here).
            _ => Core::Poly(F::ZERO),
        }
    }

    /// d-Hash: the bytes of 2^d - 1 blocks; longer messages take the d-2LHash branch.
    fn head_bytes(d: u8) -> u64 {
        ((1u64 << d) - 1) * F::BLOCK as u64
    }

    /// Bytes of one chunk.
    fn chunk_bytes(&self) -> usize {
        let blocks = match self {
            Core::Poly(_) => G,
            Core::Brw(_, t) => BRW_CHUNK.max(1 << t),
            Core::TwoL(_, d) | Core::DHead(d) => (1 << d) - 1,
            Core::TwoLLanes(g) => (1 << g.d) - 1,
            Core::Dec(streams) if streams.len() <= 8 => 4 * streams.len(),
            Core::Dec(streams) => streams.len(),
        };
        blocks * F::BLOCK
    }

    /// Absorb one whole chunk (`chunk_bytes()` bytes).
    #[inline(always)]
    fn absorb<const S: usize>(&mut self, p: &Powers<F, S>, bytes: &[u8]) {
        let b = F::BLOCK;
        match self {
            Core::Poly(acc) => {
                *acc = match <&[F; G]>::try_from(p.hx()) {
                    Ok(xp) => poly_group(xp, *acc, bytes),
                    // A key with a smaller Horner group (`Key::with_horner_group`).
                    Err(_) => poly_bytes(p.hx(), *acc, bytes),
                }
            }
            Core::Brw(brw, _) => {
                for chunk in bytes.chunks_exact(BRW_CHUNK * b) {
                    // Blocks loaded where the tree reads them (`ubrw_at`).
                    brw.whole
                        .push_chunk_with(&p.sq, |j| F::load(&chunk[j * b..(j + 1) * b], false));
                }
            }
            Core::TwoL(outer, d) => {
                let v = F::reduce(super_block_d(&p.sq, *d, bytes));
                outer.push(p.hg(), v);
            }
            Core::TwoLLanes(g) => g.absorb(p, bytes),
            Core::DHead(_) => unreachable!("d-Hash holds its head until the branch is known"),
            Core::Dec(streams) => {
                let c = streams.len();
                if bytes.len() == 4 * c * b {
                    // Four blocks per stream: stream j takes blocks j, j + c, j + 2c, j + 3c.
                    for (j, s) in streams.iter_mut().enumerate() {
                        let block = |i: usize| F::load(&bytes[(i * c + j) * b..][..b], false);
                        s.whole
                            .push_chunk(&p.sq, &[block(0), block(1), block(2), block(3)]);
                    }
                } else {
                    for (s, block) in streams.iter_mut().zip(bytes.chunks_exact(b)) {
                        s.push(&p.sq, F::load(block, false));
                    }
                }
            }
        }
    }

    /// The value v of the message whose bytes after the last whole chunk are `tail`
    /// (shorter than a chunk; for d-Hash's head, at most 2^d - 1 blocks); `n` is its length.
    /// The state is used up (wipe it after); the values computed here are wiped.
    #[inline(always)]
    fn finish<const S: usize>(&mut self, p: &Powers<F, S>, tail: &[u8], n: u64) -> F {
        let b = F::BLOCK;
        let length = F::from_u64(n.wrapping_mul(8));
        match self {
            Core::Poly(acc) => poly_bytes(p.hx(), *acc, tail),
            Core::DHead(_) => poly_bytes(p.hx(), F::ZERO, tail),
            &mut Core::Brw(ref mut brw, t) => {
                let blocks = tail.len().div_ceil(b);
                // t-BRWHash: BRW covers whole groups of 2^t blocks, Horner the rest:
                // x * Poly(x; BRW value, the other blocks, L).
                let prefix = if t == 0 { blocks } else { blocks >> t << t };
                for block in tail.chunks(b).take(prefix) {
                    brw.push(&p.sq, pad2::<F>(block));
                }
                let mut head = brw.finish(&p.sq);
                let v = if t == 0 {
                    // BRWHash: x * (x * BRW + L) = x^2 BRW + x L.
                    F::reduce(F::wide_add(p.sq[1].mul_wide(head), p.x().mul_wide(length)))
                } else {
                    let rest = &tail[(prefix * b).min(tail.len())..];
                    let k = 1 + blocks - prefix;
                    x_poly(
                        p.hx(),
                        F::ZERO,
                        k + 1,
                        #[inline(always)]
                        |i| match i {
                            0 => head,
                            _ if i < k => tail_block(rest, i - 1),
                            _ => length,
                        },
                    )
                };
                head.zeroize();
                v
            }
            Core::TwoLLanes(g) => {
                // The lanes' state holds its own bytes (`ScalarHasher::update`).
                debug_assert!(tail.is_empty());
                let d = g.d;
                let (mut outer, tail) = g.outer(p);
                let v = two_level_finish(p, &mut outer, d, tail, length);
                outer.zeroize();
                v
            }
            &mut Core::TwoL(ref mut outer, d) => two_level_finish(p, outer, d, tail, length),
            Core::Dec(streams) => {
                // Zero blocks fill the streams to q blocks each; a short last block is
                // zero-padded (pad2).
                let c = streams.len();
                let mut padded = [0u8; MAX_CHUNK];
                padded[..tail.len()].copy_from_slice(tail);
                let used = tail.len().div_ceil(c * b) * c * b;
                for vb in padded[..used].chunks_exact(c * b) {
                    for (s, block) in streams.iter_mut().zip(vb.chunks_exact(b)) {
                        s.push(&p.sq, F::load(block, false));
                    }
                }
                let mut values = [F::ZERO; 16];
                for (v, s) in values.iter_mut().zip(streams.iter()) {
                    *v = s.finish(&p.sq);
                }
                let v = combine(p, &values[..c], n.div_ceil(b as u64), length);
                values[..c].iter_mut().zeroize();
                v
            }
        }
    }
}

impl<F: PrimeField> Core<F> {
    /// [`finish`](Self::finish) without using up the state (`Hasher::finalize`): the lanes'
    /// state finishes from copies of its lane words, its held super-blocks read in place;
    /// the other states are small, and a clone of them finishes (and is wiped).
    #[inline(always)]
    fn finish_ref<const S: usize>(&self, p: &Powers<F, S>, tail: &[u8], n: u64) -> F {
        if let Core::TwoLLanes(g) = self {
            let length = F::from_u64(n.wrapping_mul(8));
            debug_assert!(tail.is_empty());
            let (mut outer, tail) = g.outer_ref(p);
            let v = two_level_finish(p, &mut outer, g.d, tail, length);
            outer.zeroize();
            return v;
        }
        let mut core = self.clone();
        let v = core.finish(p, tail, n);
        core.zeroize();
        v
    }
}

/// The end of d-2LHash's streamed state (also d-Hash's long branch): `tail` holds the bytes
/// after the last whole super-block, `outer` Horner in gamma over the super-blocks.
#[inline(always)]
fn two_level_finish<F: PrimeField, const S: usize>(
    p: &Powers<F, S>,
    outer: &mut Horner<F>,
    d: u8,
    tail: &[u8],
    length: F,
) -> F {
    let b = F::BLOCK;
    let delta = (1 << d) - 1;
    let mut t = tail.len().div_ceil(b);
    if t == delta {
        // A whole super-block whose last block is short: BRW-hashed.
        let mut blocks = [F::ZERO; 31];
        for (m, block) in blocks.iter_mut().zip(tail.chunks(b)) {
            *m = pad2::<F>(block);
        }
        outer.push(p.hg(), brw_short(&p.sq, &blocks[..delta]));
        t = 0;
    }
    // x * Poly(x; V, the blocks of the final partial super-block, L).
    x_poly_end(p.hx(), outer.value(p.hg()), tail, t, length)
}

impl<F: PrimeField> Core<F> {
    /// Wipe what derives from the key (accumulators, BRW stacks), not the message's blocks:
    /// the cheap wipe of a one-shot state.
    #[inline(always)]
    fn wipe_secrets(&mut self) {
        match self {
            Core::Brw(brw, _) => brw.wipe_stack(),
            Core::Dec(streams) => {
                for s in streams {
                    s.wipe_stack();
                }
            }
            other => other.zeroize(),
        }
    }
}

/// Wipes the accumulators: the state of a new message (d-Hash's state is `TwoL` from its
/// 2^d-th block on: `ScalarHasher::zeroize` puts back `DHead`).
impl<F: PrimeField> Zeroize for Core<F> {
    #[inline(always)]
    fn zeroize(&mut self) {
        match self {
            Core::Poly(acc) => acc.zeroize(),
            Core::Brw(brw, _) => brw.zeroize(),
            Core::TwoL(outer, _) => outer.zeroize(),
            Core::TwoLLanes(g) => g.zeroize(),
            Core::DHead(_) => {}
            Core::Dec(streams) => {
                for s in streams {
                    s.zeroize();
                }
            }
        }
    }
}

/// BRW(x; the DELTA pad2 blocks of `bytes`), unreduced: a d-2LHash super-block, straight-line
/// code.
#[inline(always)]
pub(super) fn super_block<F: PrimeField, const DELTA: usize>(sq: &[F], bytes: &[u8]) -> F::Wide {
    let b = F::BLOCK;
    let bytes = &bytes[..DELTA * b];
    // Each block loaded where the tree reads it (`ubrw_at`): an array of the blocks first went
    // through the stack.
    let m = |i: usize| F::load(&bytes[i * b..(i + 1) * b], false);
    match DELTA {
        3 => ubrw_at::<F, [F], 3>(sq, &m, 0),
        7 => ubrw_at::<F, [F], 7>(sq, &m, 0),
        15 => ubrw_at::<F, [F], 15>(sq, &m, 0),
        _ => ubrw_at::<F, [F], 31>(sq, &m, 0),
    }
}

/// c-decBRWHash of a message of at most 32 blocks per stream, without a state or an
/// allocation: each stream's blocks gathered into an array (of the smallest size of 4, 8, 16,
/// 32 that holds them) and BRW-hashed by [`brw_short`]. `None` for longer messages.
#[inline(always)]
fn dec_short<F: PrimeField, const S: usize>(p: &Powers<F, S>, c: usize, msg: &[u8]) -> Option<F> {
    let q = msg.len().div_ceil(F::BLOCK).div_ceil(c);
    match q {
        // (x^16 for c > 4: lg c + 2 squarings, which every caller's powers hold.)
        1 if c <= 8 && p.squares().len() >= c.next_power_of_two().trailing_zeros() as usize + 2 => {
            Some(dec_single(p, c, msg))
        }
        0..=4 => Some(dec_streams::<F, 4, S>(p, c, msg, q)),
        5..=8 => Some(dec_streams::<F, 8, S>(p, c, msg, q)),
        9..=16 => Some(dec_streams::<F, 16, S>(p, c, msg, q)),
        17..=32 => Some(dec_streams::<F, 32, S>(p, c, msg, q)),
        _ => None,
    }
}

/// Squarings x^(2^j) that [`dec_short`] reads for c-decBRWHash of `len` bytes in blocks of
/// `block` bytes, or `None` past its 32 blocks per stream (the stack algorithm's chunks of 16
/// then read `squares_needed`'s). A one-shot call computes them as a chain of dependent
/// squarings before the first block: each one it does not need costs about 20 TSC cycles
/// (4-decBRWHash1305 one-shot took 6 for the 4 it reads at 64 B; TSC cycles/byte with the
/// count from `squares_needed` vs this: 16 B 13.6 vs 10.4, 64 B 4.07 vs 3.23, 256 B 2.15 vs
/// 1.98).
pub(crate) fn dec_short_squares(len: u64, block: usize, c: usize) -> Option<usize> {
    let q = len.div_ceil(block as u64).div_ceil(c as u64);
    // Estrin's tree over the c stream values: one squaring of x^D per level.
    let levels = c.next_power_of_two().trailing_zeros() as usize;
    match q {
        // `dec_single`: x^2 .. x^(2c), the largest x^(2^(levels + 1)).
        1 if c <= 8 => Some(levels + 2),
        // The streams' BRWs read up to x^(2^(lg q)); `combine` x^D = x^(2^(bit length of q))
        // and its squares, and x^2 for the final step.
        0..=32 => Some(((u64::BITS - q.leading_zeros()) as usize + levels).max(2)),
        _ => None,
    }
}

/// c-decBRWHash of 1..=c blocks (q = 1, D = 2), c <= 8: each stream's BRW is its one block
/// (or zero), so x * (x * Poly(x^2; M_1..M_c) + L) = sum of M_k x^(2(c-k)+2), plus L x:
/// independent products with x^2 .. x^16 and one reduction, where Estrin's tree and the
/// final step were lg c + 1 dependent products.
#[inline(always)]
fn dec_single<F: PrimeField, const S: usize>(p: &Powers<F, S>, c: usize, msg: &[u8]) -> F {
    debug_assert!(c <= 8 && !msg.is_empty() && msg.len() <= c * F::BLOCK);
    let hx = p.hx();
    if hx.len() >= 2 * c {
        // A key's x^1 .. x^(2c) (c <= 4): no product before the blocks' (4-decBRWHash1305
        // with a key, TSC cycles/byte: 16 B 4.51 -> 3.28, 32 B 2.73 -> 2.05, 64 B 1.77 ->
        // 1.41).
        return weighted_blocks(hx[0], msg, |i| hx[2 * (c - i) - 1]);
    }
    let x2j = p.gamma_powers();
    if x2j.len() >= c {
        // A key's x^2 .. x^(2c) as powers of gamma = x^2 (4 < c <= 8): no product before the
        // blocks' either.
        return weighted_blocks(p.sq[0], msg, |i| x2j[c - 1 - i]);
    }
    let (x2, x4) = (p.sq[1], p.sq[2]);
    let x8 = if c > 2 { p.sq[3] } else { F::ZERO };
    let x16 = if c > 4 { p.sq[4] } else { F::ZERO };
    single_sum(p.sq[0], [x2, x4, x8, x16], c, msg)
}

/// c-decBRWHash of a message of at most two blocks per stream with a key's powers (`None`
/// for a longer one): [`dec_single`] up to c blocks (c <= 8), [`pair_sum`] up to 2c (c <= 4,
/// the key's x^1 .. x^8 and four products). Its own entry, past [`one_shot`]'s dispatch
/// (4-decBRWHash1305 with a key at 16 B took 55 TSC cycles there, against Poly1305's 30).
/// The empty message is 0 (q = 0: every stream value is 0, and L = 0); the general code took
/// 212 TSC cycles for it with a key, 298 one-shot.
#[inline(always)]
pub(crate) fn dec_linear_powers<F: PrimeField, const S: usize>(
    p: &Powers<F, S>,
    c: usize,
    msg: &[u8],
) -> Option<F> {
    if msg.is_empty() {
        return Some(F::ZERO);
    }
    let squares = c.next_power_of_two().trailing_zeros() as usize + 2;
    if (1..=8).contains(&c)
        && !msg.is_empty()
        && msg.len() <= c * F::BLOCK
        && p.squares().len() >= squares
    {
        return Some(dec_single(p, c, msg));
    }
    if let Some(t) = p.dec_pairs.get() {
        if (1..=8).contains(&c) && msg.len() > c * F::BLOCK && msg.len() <= 2 * c * F::BLOCK {
            // The key's weights: no product before the blocks'.
            return Some(weighted_blocks(p.sq[0], msg, |i| t[i]));
        }
    }
    let hx = p.hx();
    if !two_per_stream::<F>(c, msg) || hx.len() < G {
        return None;
    }
    let mut pw = [F::ZERO; 16];
    for e in [2, 3, 6, 7] {
        pw[e] = hx[e - 1];
    }
    let x8 = hx[7];
    pw[10] = x8.mul(pw[2]);
    pw[11] = x8.mul(pw[3]);
    pw[14] = x8.mul(pw[6]);
    pw[15] = x8.mul(pw[7]);
    let v = pair_sum(hx[0], &pw, c, msg);
    pw.iter_mut().zeroize();
    Some(v)
}

/// [`dec_linear_powers`] from the key `x` alone: the squarings and powers in registers, no
/// `Powers` (whose 1.2 KB zero fill and wipe, and squarings stored and reloaded, made
/// 4-decBRWHash1305 one-shot at 16 B cost 3.5 times Poly1305's). The empty message is 0.
#[inline(always)]
pub(crate) fn dec_linear_key<F: PrimeField>(x: F, c: usize, msg: &[u8]) -> Option<F> {
    if msg.is_empty() {
        return Some(F::ZERO);
    }
    if (1..=8).contains(&c) && !msg.is_empty() && msg.len() <= c * F::BLOCK {
        let x2 = x.square();
        let x4 = x2.square();
        let x8 = if c >= 4 { x4.square() } else { F::ZERO };
        let x16 = if c == 8 { x8.square() } else { F::ZERO };
        return Some(single_sum(x, [x2, x4, x8, x16], c, msg));
    }
    if !two_per_stream::<F>(c, msg) {
        return None;
    }
    // x^2, x^3, then x^6, x^7 (c >= 2), then x^10, x^11 (c >= 3), x^14, x^15 (c = 4).
    let mut pw = [F::ZERO; 16];
    let x2 = x.square();
    pw[2] = x2;
    pw[3] = x2.mul(x);
    if c >= 2 {
        let x4 = x2.square();
        pw[6] = x4.mul(x2);
        pw[7] = x4.mul(pw[3]);
        if c >= 3 {
            let x8 = x4.square();
            pw[10] = x8.mul(x2);
            pw[11] = x8.mul(pw[3]);
            if c == 4 {
                pw[14] = x8.mul(pw[6]);
                pw[15] = x8.mul(pw[7]);
            }
        }
    }
    let v = pair_sum(x, &pw, c, msg);
    pw.iter_mut().zeroize();
    Some(v)
}

/// x * L + sum of M_k x^(2(c-k)+2) over the blocks of `msg` (1..=c of them), with `sq` =
/// x^2, x^4, x^8 (read for c >= 4), x^16 (for c = 8): one reduction, and only the products
/// for the weights the blocks read (8-decBRWHash1305 one-shot at 16 B computed four it
/// did not read).
#[inline(always)]
fn single_sum<F: PrimeField>(x: F, sq: [F; 4], c: usize, msg: &[u8]) -> F {
    // e[j] = x^(2j) for the j that blocks read: c - n < j <= c, n blocks.
    let n = msg.len().div_ceil(F::BLOCK);
    let read = |j: usize| j <= c && j + n > c;
    let [x2, x4, x8, x16] = sq;
    let mut e = [F::ZERO; 9];
    e[1] = x2;
    e[2] = x4;
    if read(3) || read(7) {
        e[3] = x2.mul(x4);
    }
    e[4] = x8;
    if read(5) {
        e[5] = x2.mul(x8);
    }
    if read(6) {
        e[6] = x4.mul(x8);
    }
    if read(7) {
        e[7] = e[3].mul(x8);
    }
    e[8] = x16;
    let v = weighted_blocks(x, msg, |i| e[c - i]);
    e.iter_mut().zeroize();
    v
}

/// x * L + sum of M_i w(i) over the pad2 blocks M_0, M_1, .. of `msg`: one reduction.
#[inline(always)]
fn weighted_blocks<F: PrimeField>(x: F, msg: &[u8], w: impl Fn(usize) -> F) -> F {
    // The blocks and L (below 2^64) are block-shaped: products by `mul_block_wide`, which a
    // field may run with fewer word products (2^130-5: six, not eight).
    let length = F::from_u64((msg.len() as u64).wrapping_mul(8));
    let mut sum = x.mul_block_wide(length);
    // Whole blocks by word loads (no test per block), then a short last block, le() of its
    // bytes (pad2).
    let mut blocks = msg.chunks_exact(F::BLOCK);
    for (i, block) in (&mut blocks).enumerate() {
        sum = F::wide_add(sum, w(i).mul_block_wide(F::load(block, false)));
    }
    let rest = blocks.remainder();
    if !rest.is_empty() {
        let m = F::from_block(rest, false);
        sum = F::wide_add(sum, w(msg.len() / F::BLOCK).mul_block_wide(m));
    }
    F::reduce(sum)
}

/// The exponent of x that weighs block i (0-based) of a c-decBRWHash message of c + 1 ..= 2c
/// blocks (q = 2, D = 4): stream j's BRW is M_j x + M_(j+c), so the value
/// x^2 Poly(x^4; Q) + x L weighs M_j by x^(3 + 4(c - j)) and M_(j+c) by x^(2 + 4(c - j))
/// (j = 1..c): linear in the blocks, as for q = 1.
#[inline(always)]
fn pair_exponent(c: usize, i: usize) -> usize {
    if i < c {
        3 + 4 * (c - 1 - i)
    } else {
        2 + 4 * (2 * c - 1 - i)
    }
}

/// A key's weights of c-decBRWHash messages of c + 1 ..= 2c blocks (c <= 8): entry i =
/// x^[`pair_exponent`]`(c, i)`, from x^2, x^3 and the chain of x^(4j), j < c.
pub(crate) fn dec_pair_weights<F: PrimeField>(x: F, c: usize) -> Box<[F; 16]> {
    debug_assert!((1..=8).contains(&c));
    let mut x2 = x.square();
    let mut x3 = x2.mul(x);
    let mut x4 = x2.square();
    // pw[j] = (x^(4j + 2), x^(4j + 3)).
    let mut pw = [(F::ZERO, F::ZERO); 8];
    pw[0] = (x2, x3);
    let mut x4j = x4;
    for (j, w) in pw.iter_mut().enumerate().take(c).skip(1) {
        *w = (x4j.mul(x2), x4j.mul(x3));
        if j + 1 < c {
            x4j = x4j.mul(x4);
        }
    }
    let mut out = Box::new([F::ZERO; 16]);
    for (i, w) in out.iter_mut().enumerate().take(2 * c) {
        let e = pair_exponent(c, i);
        *w = if e % 4 == 2 { pw[e / 4].0 } else { pw[e / 4].1 };
    }
    for (a, b) in &mut pw {
        a.zeroize();
        b.zeroize();
    }
    for v in [&mut x2, &mut x3, &mut x4, &mut x4j] {
        v.zeroize();
    }
    out
}

/// c-decBRWHash of c + 1 ..= 2c blocks (c <= 4) by [`pair_exponent`]: independent products
/// with x^2, x^3, x^6, x^7, x^10, x^11, x^14, x^15 (`pw[e]` = x^e) and one reduction,
/// where the stream BRWs, Estrin's tree and the final step were five dependent products.
#[inline(always)]
fn pair_sum<F: PrimeField>(x: F, pw: &[F; 16], c: usize, msg: &[u8]) -> F {
    weighted_blocks(x, msg, |i| pw[pair_exponent(c, i)])
}

/// Whether c-decBRWHash of `msg` has two blocks per stream, with c <= 4.
#[inline(always)]
fn two_per_stream<F: PrimeField>(c: usize, msg: &[u8]) -> bool {
    (1..=4).contains(&c) && msg.len() > c * F::BLOCK && msg.len() <= 2 * c * F::BLOCK
}

#[inline(always)]
fn dec_streams<F: PrimeField, const Q: usize, const S: usize>(
    p: &Powers<F, S>,
    c: usize,
    msg: &[u8],
    q: usize,
) -> F {
    let b = F::BLOCK;
    let mut values = [F::ZERO; 16];
    let mut ms = [F::ZERO; Q];
    for (j, v) in values[..c].iter_mut().enumerate() {
        for (i, m) in ms[..q].iter_mut().enumerate() {
            // Block i*c + j of the message, or a zero block past its end.
            let start = (i * c + j) * b;
            *m = if start + b <= msg.len() {
                F::load(&msg[start..start + b], false)
            } else if start < msg.len() {
                F::from_block(&msg[start..], false)
            } else {
                F::ZERO
            };
        }
        *v = brw_short(&p.sq, &ms[..q]);
    }
    let length = F::from_u64((msg.len() as u64).wrapping_mul(8));
    let v = combine(p, &values[..c], msg.len().div_ceil(b) as u64, length);
    values[..c].iter_mut().zeroize();
    v
}

/// One Horner group of G full pad1 blocks straight from bytes: `acc` = x * Poly(x; blocks
/// before) becomes x * Poly(x; blocks before, these blocks) as
/// `(acc + m_1) x^G + m_2 x^(G-1) + ... + m_G x` with one reduction; `xp[j - 1]` = x^j.
#[inline(always)]
fn poly_group<F: PrimeField>(xp: &[F; G], acc: F, bytes: &[u8]) -> F {
    let b = F::BLOCK;
    // The blocks after the first do not depend on `acc`: their sum first, so the chain from
    // one group's value to the next is one product, one addition and one reduction.
    let mut s = xp[G - 2].mul_block_wide(F::load(&bytes[b..], true));
    for (i, block) in bytes[2 * b..].chunks_exact(b).enumerate() {
        s = F::wide_add(s, xp[G - 3 - i].mul_block_wide(F::load(block, true)));
    }
    let first = F::load(&bytes[..b], true);
    F::reduce(F::wide_add(s, acc.add_block(first).mul_wide(xp[G - 1])))
}

/// x * Poly(x; blocks before, the pad1 blocks of `bytes`), from `acc` = x * Poly(x; blocks
/// before): groups of at most `xp.len()` blocks, the last block perhaps short.
#[inline(always)]
fn poly_bytes<F: PrimeField>(xp: &[F], mut acc: F, bytes: &[u8]) -> F {
    let b = F::BLOCK;
    let block = |bytes: &[u8]| {
        if bytes.len() == b {
            F::load(bytes, true)
        } else {
            F::from_block(bytes, true)
        }
    };
    for group in bytes.chunks(xp.len() * b) {
        let n = group.len().div_ceil(b);
        let mut blocks = group.chunks(b);
        let first = blocks.next().map_or(F::ZERO, block);
        let mut s = acc.add_block(first).mul_wide(xp[n - 1]);
        for (i, m) in blocks.enumerate() {
            s = F::wide_add(s, xp[n - 2 - i].mul_block_wide(block(m)));
        }
        acc = F::reduce(s);
    }
    acc
}

/// x * Poly(x; values before, the `count` values `value(0)`, `value(1)`, ..), from `acc` =
/// x * Poly(x; values before), by Horner in groups of `xp.len()` with `xp[j - 1]` = x^j. Each
/// value is formed where it is multiplied: no array of them to zero-fill and wipe (a
/// `memset` of 528 bytes per 4-Hash1271 message; one-shot 512 B took 402 TSC cycles with it,
/// 364 without).
#[inline(always)]
fn x_poly<F: Field>(xp: &[F], mut acc: F, count: usize, value: impl Fn(usize) -> F) -> F {
    let mut i = 0;
    while i < count {
        let n = xp.len().min(count - i);
        let mut s = acc.add(value(i)).mul_wide(xp[n - 1]);
        for j in 1..n {
            s = F::wide_add(s, value(i + j).mul_wide(xp[n - 1 - j]));
        }
        acc = F::reduce(s);
        i += n;
    }
    acc
}

/// x * Poly(x; `head`, the `t` blocks of `tail`, `length`) by [`x_poly`] with `xp` = x^1 ..
/// x^g; `head` (a value of the key) is wiped.
#[inline(always)]
fn x_poly_end<F: PrimeField>(xp: &[F], mut head: F, tail: &[u8], t: usize, length: F) -> F {
    let v = x_poly(
        xp,
        F::ZERO,
        t + 2,
        #[inline(always)]
        |i| match i {
            0 => head,
            _ if i <= t => tail_block(tail, i - 1),
            _ => length,
        },
    );
    head.zeroize();
    v
}

/// Block `i` of the blocks `tail` holds (the last may be short, and is then zero-padded), as
/// an element: pad2.
#[inline(always)]
fn tail_block<F: PrimeField>(tail: &[u8], i: usize) -> F {
    let b = F::BLOCK;
    pad2(&tail[i * b..tail.len().min((i + 1) * b)])
}

/// The streaming state of a prime-field function on the scalar backend (wiped by its owner,
/// `PrimeHasher`, on drop).
#[derive(Clone)]
pub(crate) struct ScalarHasher<F: PrimeField> {
    held: Held<MAX_CHUNK>,
    /// Message bytes N so far.
    n: u64,
    core: Core<F>,
    /// d-Hash's d, to go back to `Core::DHead` when wiped.
    d_hash: Option<u8>,
    /// d-2LHash's lanes (`Core::TwoLLanes`), if any.
    lanes: Option<(TwoLevelKernel<F>, usize)>,
    /// The lanes take the message from its first super-block rather than from
    /// [`lanes_from`] (`lanes_at_once`).
    lanes_early: bool,
}

impl<F: PrimeField> ScalarHasher<F> {
    pub fn new(alg: Algorithm) -> Self {
        Self::with_lanes(alg, None)
    }

    /// The state for `alg` whose d-2LHash super-blocks go W at a time to `lanes` (a SIMD
    /// backend's kernel: `SimdState::two_level_kernel`) once the message has
    /// [`lanes_from`] super-blocks. The lanes keep their Horner in gamma^W across updates,
    /// and whole groups go to them straight from the caller's bytes. Private timing loop,
    /// TSC cycles per 64 KiB message streamed in 4 KiB pieces, lanes vs scalar: 4-Hash1271
    /// 11170 (8300 as one message with a key), 2-Hash1305 14600 vs 62900, 3-Hash1271 11000
    /// vs 27300, 2-2LHash1271 12200 vs 35300, 3-2LHash1305 10300 vs 48700. (Before, the lanes
    /// returned each group's values to a Horner here, a call per group: 4-Hash1271 17500,
    /// and slower than scalar code for d < 4.)
    pub fn with_lanes(alg: Algorithm, lanes: Option<(TwoLevelKernel<F>, usize)>) -> Self {
        let lanes = match alg.family() {
            Family::TwoLHash(..) | Family::DHash(..) => lanes,
            _ => None,
        };
        ScalarHasher {
            held: Held::default(),
            n: 0,
            core: Core::new(alg, None),
            d_hash: match alg.family() {
                Family::DHash(d, _) => Some(d),
                _ => None,
            },
            lanes,
            lanes_early: false,
        }
    }

    /// The state of a message known to be long (past a hold that hashes shorter ones
    /// whole, `construct::TWO_LEVEL_HOLD`): the lanes from its first super-block, where
    /// [`lanes_from`] keeps them for streams past 8 or 16 super-blocks. Only d = 5 has
    /// super-blocks long enough for 8 of them to pass the hold (3720 / 3968 bytes): Zen 4,
    /// timing loop, min TSC cycles of a stream in one update, before -> after (with a key):
    /// 5-2LHash1305 2100 B 1421-1456 -> 1057-1083 (589), 3 KiB 1837-1907 -> 1551-1577 (737);
    /// 4 KiB and longer, and d < 5, within the noise.
    pub fn lanes_at_once(mut self) -> Self {
        self.lanes_early = true;
        self
    }

    #[inline(always)]
    pub fn update(&mut self, p: &Powers<F>, data: &[u8]) {
        self.n += data.len() as u64;
        if let Core::DHead(d) = self.core {
            if self.n <= Core::<F>::head_bytes(d) {
                // Still at most 2^d - 1 blocks: hold them.
                return self.held.append(data);
            }
            // Block 2^d exists: the message is long.
            self.core = Core::TwoL(Horner::default(), d);
        }
        if let (Some(lanes), Core::TwoL(outer, d)) = (self.lanes, &mut self.core) {
            // The lanes go on from the super-blocks so far.
            if self.lanes_early || self.n >= lanes_from(*d) * (((1u64 << *d) - 1) * F::BLOCK as u64)
            {
                let d = *d;
                let mut g = Groups::new(p, outer, d, lanes);
                // The part of a super-block held so far: the lanes' state holds its bytes.
                g.hold(self.held.held());
                self.held.zeroize();
                self.core = Core::TwoLLanes(g);
            }
        }
        if let Core::TwoLLanes(g) = &mut self.core {
            // Whole groups go to the lanes uncopied.
            return g.absorb(p, data);
        }
        let chunk = self.core.chunk_bytes();
        let core = &mut self.core;
        self.held.feed(
            chunk,
            data,
            #[inline(always)]
            |bytes| core.absorb(p, bytes),
        );
    }

    /// The value v of SPEC.md section 5 (before `out()`). The state is used up (its owner
    /// wipes it).
    #[inline(always)]
    pub fn finish(&mut self, p: &Powers<F>) -> F {
        self.core.finish(p, self.held.held(), self.n)
    }

    /// [`finish`](Self::finish) without using up the state (`Core::finish_ref`).
    #[inline(always)]
    pub fn finish_ref(&self, p: &Powers<F>) -> F {
        self.core.finish_ref(p, self.held.held(), self.n)
    }
}

#[cfg(test)]
impl<F: PrimeField> ScalarHasher<F> {
    pub fn is_wiped(&self) -> bool {
        let zero = |x: F| x.to_u192() == [0; 3];
        let core = match &self.core {
            Core::Poly(acc) => zero(*acc),
            Core::Brw(brw, _) => brw.is_wiped(zero),
            Core::TwoL(outer, _) => self.d_hash.is_none() && outer.is_wiped(zero),
            Core::TwoLLanes(g) => {
                self.d_hash.is_none()
                    && g.lanes.iter().all(|&v| v == 0)
                    && g.start.is_none()
                    && zero(g.step)
                    && g.bytes.iter().all(|&b| b == 0)
            }
            Core::DHead(_) => true,
            Core::Dec(streams) => streams.iter().all(|s| s.is_wiped(zero)),
        };
        core && self.held.is_wiped() && self.n == 0
    }
}

/// Wipes the accumulators and the bytes held: the state of `ScalarHasher::new(alg)`.
impl<F: PrimeField> Zeroize for ScalarHasher<F> {
    fn zeroize(&mut self) {
        self.held.zeroize();
        self.n = 0;
        self.lanes_early = false;
        self.core.zeroize();
        if let Core::TwoLLanes(g) = &self.core {
            // (Wiped above.) A new message starts in scalar code.
            self.core = Core::TwoL(Horner::default(), g.d);
        }
        if let Some(d) = self.d_hash {
            self.core = Core::DHead(d);
        }
    }
}

/// d-2LHash of `msg` in one call with a key's powers, without a `Core`: the super-blocks
/// straight from `msg` into Horner in gamma (groups of G with gamma's powers, one reduction
/// each), then x * Poly(x; that value, the blocks after them, L). (A key's 4-Hash1271 of
/// 1 KiB took 8% longer by [`two_level_with`].)
#[inline(always)]
fn two_level<F: PrimeField, const S: usize>(p: &Powers<F, S>, d: u8, msg: &[u8]) -> F {
    let b = F::BLOCK;
    let delta = (1usize << d) - 1;
    let (nsb, _) = two_level_shape::<F>(d, msg.len());
    // Bytes of the complete super-blocks (the last may end with the short last block).
    let sb_bytes = (nsb * delta * b).min(msg.len());
    let mut outer = Horner::default();
    for chunk in msg[..sb_bytes].chunks(delta * b) {
        let v = if chunk.len() == delta * b {
            F::reduce(super_block_d(&p.sq, d, chunk))
        } else {
            last_super_block(&p.sq, delta, chunk)
        };
        outer.push(p.hg(), v);
    }
    // x * Poly(x; V, the t blocks after the super-blocks, L).
    let head = outer.value(p.hg());
    outer.zeroize();
    let tail = &msg[sb_bytes..];
    let t = tail.len().div_ceil(b);
    let length = F::from_u64((msg.len() as u64).wrapping_mul(8));
    x_poly_end(p.hx(), head, tail, t, length)
}

/// [`super_block`] for d = 2..5.
#[inline(always)]
fn super_block_d<F: PrimeField>(sq: &[F], d: u8, chunk: &[u8]) -> F::Wide {
    match d {
        2 => super_block::<F, 3>(sq, chunk),
        3 => super_block::<F, 7>(sq, chunk),
        4 => super_block::<F, 15>(sq, chunk),
        _ => super_block::<F, 31>(sq, chunk),
    }
}

/// BRW of the last super-block of `delta` blocks when it ends with the short last block.
#[inline(always)]
fn last_super_block<F: PrimeField>(sq: &[F], delta: usize, chunk: &[u8]) -> F {
    let mut ms = [F::ZERO; 31];
    for (m, block) in ms.iter_mut().zip(chunk.chunks(F::BLOCK)) {
        *m = F::from_block(block, false);
    }
    brw_short(sq, &ms[..delta])
}

/// d-2LHash (d-Hash past its polyHash branch) of `msg` in one call from the key `x` alone,
/// with no `Powers` (its zero fill, wipe and Horner powers cost a 256-byte 4-Hash1271 message
/// about 150 TSC cycles): the squarings x^(2^j), j <= d, in registers, only as many as the
/// message reads. `None` for d outside 2..=5.
#[inline(always)]
pub(crate) fn two_level_key<F: PrimeField>(x: F, d: u8, msg: &[u8]) -> Option<F> {
    if !(2..=5).contains(&d) {
        return None;
    }
    let (nsb, t) = two_level_shape::<F>(d, msg.len());
    // The super-blocks read x^(2^j) for j < d; gamma = x^(2^d) only with two super-blocks or
    // as V's weight x^(t+2).
    let top = usize::from(if nsb >= 2 || t + 2 == 1 << d {
        d
    } else {
        d - 1
    });
    let mut sq = [F::ZERO; 6];
    sq[0] = x;
    for j in 1..=top {
        sq[j] = sq[j - 1].square();
    }
    let v = two_level_with(&sq[..=top], d, msg);
    sq.iter_mut().zeroize();
    Some(v)
}

/// BRWHash (`t` = 0) or t-BRWHash of a message of at most 32 blocks in one call from the key
/// `x` alone: the squarings x^(2^j), 2^j <= l, in registers (x^4 at least), the blocks read
/// from `msg` where the tree uses them, and the end by Horner in pairs with x^2. A `Powers`
/// and a streaming state cost such a message two zero fills and their wipes. `None` for a
/// longer message.
#[inline(always)]
pub(crate) fn brw_key<F: PrimeField>(x: F, t: u8, msg: &[u8]) -> Option<F> {
    let l = msg.len().div_ceil(F::BLOCK);
    if l > 32 {
        return None;
    }
    // Chunk i of 4 blocks reads x^(2^(2 + ntz i)): x^32 for 32 blocks.
    let n = ((usize::BITS - l.leading_zeros()) as usize).max(3);
    let mut sq = [F::ZERO; 6];
    sq[0] = x;
    for j in 1..n {
        sq[j] = sq[j - 1].square();
    }
    let v = brw_with(&sq[..n], t, msg);
    sq.zeroize();
    Some(v)
}

/// BRWHash (`t` = 0) or t-BRWHash of a message of at most 32 blocks from the squarings
/// `sq[j]` = x^(2^j), 2^j <= its block count (x^4 at least): a key's, or [`brw_key`]'s.
#[inline(always)]
fn brw_with<F: PrimeField>(sq: &[F], t: u8, msg: &[u8]) -> F {
    let b = F::BLOCK;
    let l = msg.len().div_ceil(b);
    // BRW covers whole groups of 2^t blocks (all of them for BRWHash), Horner the rest.
    let prefix = if t == 0 { l } else { l >> t << t };
    let block = |i| tail_block(msg, i);
    let mut head = brw_short_at(sq, prefix, &block);
    let length = F::from_u64((msg.len() as u64).wrapping_mul(8));
    let v = if t == 0 {
        // x * (x * BRW + L) = x^2 BRW + x L.
        F::reduce(F::wide_add(sq[1].mul_wide(head), sq[0].mul_wide(length)))
    } else {
        // x * Poly(x; BRW value, the other blocks, L).
        let rest = &msg[(prefix * b).min(msg.len())..];
        let k = l - prefix;
        x_poly_pairs(
            sq[0],
            sq[1],
            k + 2,
            #[inline(always)]
            |i| match i {
                0 => head,
                _ if i <= k => tail_block(rest, i - 1),
                _ => length,
            },
        )
    };
    head.zeroize();
    v
}

/// A d-2LHash message's complete super-blocks and the blocks after them.
#[inline(always)]
pub(super) fn two_level_shape<F: PrimeField>(d: u8, len: usize) -> (usize, usize) {
    let delta = (1usize << d) - 1;
    let l = len.div_ceil(F::BLOCK);
    (l / delta, l % delta)
}

/// d-2LHash of `msg` with `sq[j]` = x^(2^j) (j < d, and j = d when [`two_level_key`] says it
/// is read) and no other power. The super-blocks' BRW values go into Horner in
/// gamma = x^(2^d), one product and one reduction each; the outer x * Poly(x; V, M_1 .. M_t, L)
/// is split as V x^(t+2) + x * Poly(x; M_1 .. M_t, L), so the tail's Horner (in pairs with
/// x^2) runs beside the super-blocks and V waits for one product.
#[inline(always)]
fn two_level_with<F: PrimeField>(sq: &[F], d: u8, msg: &[u8]) -> F {
    let b = F::BLOCK;
    let delta = (1usize << d) - 1;
    let (nsb, t) = two_level_shape::<F>(d, msg.len());
    // Bytes of the complete super-blocks (the last may end with the short last block).
    let sb_bytes = (nsb * delta * b).min(msg.len());
    let (mut tail_value, mut weight) = two_level_end(sq, d, msg, sb_bytes, t);
    // V = U_1 gamma^(n-1) + ... + U_n.
    let mut v = F::ZERO;
    for (k, chunk) in msg[..sb_bytes].chunks(delta * b).enumerate() {
        let u = if chunk.len() == delta * b {
            super_block_d(sq, d, chunk)
        } else {
            last_super_block(sq, delta, chunk).widen()
        };
        v = F::reduce(if k == 0 {
            u
        } else {
            F::wide_add(v.mul_wide(sq[usize::from(d)]), u)
        });
    }
    let out = F::reduce(F::wide_add(v.mul_wide(weight), tail_value.widen()));
    v.zeroize();
    weight.zeroize();
    tail_value.zeroize();
    out
}

/// The end of d-2LHash past its `sb_bytes` bytes of super-blocks, followed by `t` blocks:
/// x * Poly(x; M_1 .. M_t, L) (Horner in pairs with x^2) and the super-blocks' weight
/// x^(t+2) in the whole, both from `sq[j]` = x^(2^j), j < d (and j = d for t + 2 = 2^d).
#[inline(always)]
pub(super) fn two_level_end<F: PrimeField>(
    sq: &[F],
    d: u8,
    msg: &[u8],
    sb_bytes: usize,
    t: usize,
) -> (F, F) {
    (two_level_tail(sq, msg, sb_bytes, t), end_weight(sq, d, t))
}

/// x * Poly(x; M_1 .. M_t, L) for the `t` blocks of `msg` after its `sb_bytes` bytes of
/// super-blocks (Horner in pairs with `sq[0]` = x and `sq[1]` = x^2).
#[inline(always)]
pub(super) fn two_level_tail<F: PrimeField>(sq: &[F], msg: &[u8], sb_bytes: usize, t: usize) -> F {
    let tail = &msg[sb_bytes..];
    let length = F::from_u64((msg.len() as u64).wrapping_mul(8));
    x_poly_pairs(
        sq[0],
        sq[1],
        t + 1,
        #[inline(always)]
        |i| {
            if i < t {
                tail_block(tail, i)
            } else {
                length
            }
        },
    )
}

/// V's weight x^(t+2) in d-2LHash (t + 2 <= 2^d): a product of the squarings `sq[j]` =
/// x^(2^j), j < d (and j = d for t + 2 = 2^d).
#[inline(always)]
pub(super) fn end_weight<F: PrimeField>(sq: &[F], d: u8, t: usize) -> F {
    let e = t + 2;
    if e.is_power_of_two() {
        sq[e.trailing_zeros() as usize]
    } else {
        // (The bits of the public length choose the factors. No closure: the SIMD entry
        // points inline this, and a closure left out of line ran without their features.)
        let low = e.trailing_zeros() as usize;
        let mut w = sq[low];
        // (No `skip`: it left a call of `Take::nth` out of line.)
        for (j, &s) in sq.iter().enumerate().take(usize::from(d)) {
            if j > low && e >> j & 1 == 1 {
                w = w.mul(s);
            }
        }
        w
    }
}

/// x * Poly(x; the `count` values `value(0)`, `value(1)`, ..) (at least one) by Horner in
/// pairs: `acc = (acc + v_1) x^2 + v_2 x`, an odd count starting with its first value alone.
/// As [`x_poly`], no array of the values.
#[inline(always)]
fn x_poly_pairs<F: Field>(x: F, x2: F, count: usize, value: impl Fn(usize) -> F) -> F {
    let (mut acc, mut i) = if count % 2 == 1 {
        (F::reduce(value(0).mul_wide(x)), 1)
    } else {
        (F::ZERO, 0)
    };
    while i < count {
        acc = F::reduce(F::wide_add(
            x2.mul_wide(acc.add(value(i))),
            x.mul_wide(value(i + 1)),
        ));
        i += 2;
    }
    acc
}

/// x * Poly(x; pad1(msg)) with `xp[j - 1]` = x^j (groups of `xp.len()` blocks).
#[inline(always)]
fn horner<F: PrimeField>(xp: &[F], msg: &[u8]) -> F {
    if msg.len() <= xp.len() * F::BLOCK {
        return first_group(xp, msg);
    }
    let mut acc = F::ZERO;
    let mut rest = msg;
    if let Ok(xp) = <&[F; G]>::try_from(xp) {
        let whole = msg.len() / (G * F::BLOCK) * (G * F::BLOCK);
        for group in msg[..whole].chunks_exact(G * F::BLOCK) {
            acc = poly_group(xp, acc, group);
        }
        rest = &msg[whole..];
    }
    poly_bytes(xp, acc, rest)
}

/// x * Poly(x; pad1(msg)) for a message of one group (at most `xp.len()` blocks, at least
/// one byte): as `poly_bytes` from a zero accumulator, so the first product is a block
/// product too.
#[inline(always)]
fn first_group<F: PrimeField>(xp: &[F], msg: &[u8]) -> F {
    let b = F::BLOCK;
    if msg.is_empty() {
        return F::ZERO;
    }
    let n = msg.len().div_ceil(b);
    let mut s = F::Wide::default();
    for (i, block) in msg.chunks(b).enumerate() {
        let m = if block.len() == b {
            F::load(block, true)
        } else {
            F::from_block(block, true)
        };
        s = F::wide_add(s, xp[n - 1 - i].mul_block_wide(m));
    }
    F::reduce(s)
}

/// polyHash / Poly1305 (and d-Hash's polyHash branch) of `msg` in one call from the key `x`
/// alone. A short message runs plain Horner (one product and one reduction per block, no key
/// powers at all), three blocks a tree with x^2, a longer one pairs of blocks with x^2, a
/// long one groups of G blocks with x^1 .. x^G on the stack, wiped after.
#[inline(always)]
pub(crate) fn horner_one_shot<F: PrimeField>(x: F, msg: &[u8]) -> F {
    let n = msg.len().div_ceil(F::BLOCK);
    if n <= HORNER_G1_BLOCKS {
        return horner_g1(x, F::ZERO, msg);
    }
    if n == 3 {
        return horner_three(x, msg);
    }
    if n <= HORNER_G2_BLOCKS {
        let mut x2 = x.square();
        let v = horner_g2(x, x2, msg);
        zeroize::Zeroize::zeroize(&mut x2);
        return v;
    }
    let mut xp = powers_to_g(x);
    let v = horner(&xp, msg);
    for e in &mut xp {
        zeroize::Zeroize::zeroize(e);
    }
    v
}

/// Poly1305's x * Poly(x; pad1(msg)) by plain Horner with the clamped key: one
/// [`Fp1305::mul_clamped`] per block, no key powers (RFC 8439's own algorithm, the shortest
/// dependency chain per block).
#[inline(always)]
pub(crate) fn poly1305_horner(r: &Clamped, msg: &[u8]) -> Fp1305 {
    let mut acc = Fp1305::ZERO;
    let mut blocks = msg.chunks_exact(16);
    for block in &mut blocks {
        acc = acc.add_block(Fp1305::load(block, true)).mul_clamped(r);
    }
    let rest = blocks.remainder();
    if !rest.is_empty() {
        acc = acc.add_block(Fp1305::from_block(rest, true)).mul_clamped(r);
    }
    acc
}

/// Block counts up to which one-shot Horner runs without key powers (`horner_g1`), then with
/// x^2 only (`horner_g2`), then with x^1 .. x^8. Measured (timing example, one-shot on the
/// scalar backend, TSC cycles per message, g = 1 / 2 / 8): Poly1305 at 48 B 97 / 97 / -,
/// 128 B 189 / 165 / -, 384 B 504 / 401 / 409, 512 B - / 506 / 490; polyHash1271 at 128 B
/// 140 / 141 / -, 384 B 338 / 296 / 267.
const HORNER_G1_BLOCKS: usize = 2;
const HORNER_G2_BLOCKS: usize = 24;

/// x * Poly(x; acc-carrying Horner over pad1(msg)): `acc` = x * Poly(x; blocks before), then
/// each block is `acc = (acc + m) x`, one block product and one reduction.
#[inline(always)]
fn horner_g1<F: PrimeField>(x: F, mut acc: F, msg: &[u8]) -> F {
    let b = F::BLOCK;
    let mut blocks = msg.chunks_exact(b);
    for block in &mut blocks {
        // x is a key (below 2^128: block-shaped), acc + m a small-topped sum.
        acc = F::reduce(acc.add_block(F::load(block, true)).mul_block_wide(x));
    }
    let rest = blocks.remainder();
    if !rest.is_empty() {
        acc = F::reduce(acc.add_block(F::from_block(rest, true)).mul_block_wide(x));
    }
    acc
}

/// x * Poly(x; pad1(msg)) for three blocks by a tree of depth two: (m_1 x) x^2 + m_2 x^2 +
/// m_3 x, one sum reduced once, where Horner in pairs took three dependent products. (The
/// same split for 4..7 blocks, V(n - 4) x^4 + V(2) x^2 + ..., took more products than it
/// saved: `brwhash bench`, scalar one-shot, TSC cycles/byte, tree vs pairs, two runs:
/// 4-Hash1271 32 B 3.36-3.39 vs 3.49-3.54, 64 B 2.19-2.21 vs 2.02-2.07, 96 B 1.75-1.77 vs
/// 1.59-1.60; polyHash1305 48 B 3.18-3.19 vs 3.60-3.62, 96 B 2.28-2.30 vs 2.01-2.17, 112 B
/// 2.22 vs 1.93-1.94.)
#[inline(always)]
fn horner_three<F: PrimeField>(x: F, msg: &[u8]) -> F {
    let b = F::BLOCK;
    debug_assert!(msg.len().div_ceil(b) == 3);
    let (m1, m2) = (F::load(msg, true), F::load(&msg[b..], true));
    let rest = &msg[2 * b..];
    let m3 = if rest.len() == b {
        F::load(rest, true)
    } else {
        F::from_block(rest, true)
    };
    let mut x2 = x.square();
    let v1 = F::reduce(x.mul_block_wide(m1));
    let s = F::wide_add(x2.mul_wide(v1), x2.mul_block_wide(m2));
    let v = F::reduce(F::wide_add(s, x.mul_block_wide(m3)));
    x2.zeroize();
    v
}

/// [`horner_g1`] two blocks at a time: `acc = (acc + m_1) x^2 + m_2 x`, two products and one
/// reduction per pair, and half the dependency chain. An odd block count starts with its
/// first block alone, m_1 x, which runs beside the squaring that gives x^2 (the pairs after
/// it then end with the message); the last pair may end with the short last block.
#[inline(always)]
fn horner_g2<F: PrimeField>(x: F, x2: F, msg: &[u8]) -> F {
    let b = F::BLOCK;
    let n = msg.len().div_ceil(b);
    let (mut acc, rest) = if n % 2 == 1 {
        let (first, rest) = msg.split_at(msg.len().min(b));
        let m = if first.len() == b {
            F::load(first, true)
        } else {
            F::from_block(first, true)
        };
        (F::reduce(m.mul_block_wide(x)), rest)
    } else {
        (F::ZERO, msg)
    };
    // An even number of blocks is left: each chunk holds one whole block and a second,
    // whole or short.
    for pair in rest.chunks(2 * b) {
        let m1 = F::load(pair, true);
        let m2 = if pair.len() == 2 * b {
            F::load(&pair[b..], true)
        } else {
            F::from_block(&pair[b..], true)
        };
        let s = F::wide_add(x2.mul_wide(acc.add_block(m1)), x.mul_block_wide(m2));
        acc = F::reduce(s);
    }
    acc
}

/// The value v of `msg` in one call: whole chunks straight from `msg`, then the rest.
#[inline(always)]
pub(crate) fn one_shot<F: PrimeField, const S: usize>(
    alg: Algorithm,
    p: &Powers<F, S>,
    msg: &[u8],
) -> F {
    // Horner-only messages (polyHash, Poly1305, a short d-Hash) need no state at all.
    let horner_only = match alg.family() {
        Family::Poly1305 | Family::PolyHash(_) => true,
        Family::DHash(d, _) => msg.len() as u64 <= Core::<F>::head_bytes(d),
        _ => false,
    };
    if horner_only {
        return horner(p.hx(), msg);
    }
    match alg.family() {
        Family::DecBrwHash(c, _) => {
            if let Some(v) = dec_short(p, c as usize, msg) {
                return v;
            }
        }
        Family::TwoLHash(d, _) | Family::DHash(d, _) => return two_level(p, d, msg),
        // A key holds every squaring a message of 32 blocks reads (x^32).
        Family::BrwHash(_) | Family::TBrwHash(..) if msg.len().div_ceil(F::BLOCK) <= 32 => {
            let t = match alg.family() {
                Family::TBrwHash(t, _) => t,
                _ => 0,
            };
            return brw_with(p.squares(), t, msg);
        }
        _ => {}
    }
    let mut core = Core::new(alg, Some(msg.len() as u64));
    let whole = match core {
        Core::DHead(_) => 0,
        _ => msg.len() / core.chunk_bytes() * core.chunk_bytes(),
    };
    if whole > 0 {
        for chunk in msg[..whole].chunks_exact(core.chunk_bytes()) {
            core.absorb(p, chunk);
        }
    }
    let v = core.finish(p, &msg[whole..], msg.len() as u64);
    core.wipe_secrets();
    v
}

/// A block of pad2 (no marker): a word load when whole, zero-padded when short.
#[inline(always)]
fn pad2<F: PrimeField>(block: &[u8]) -> F {
    if block.len() == F::BLOCK {
        F::load(block, false)
    } else {
        F::from_block(block, false)
    }
}
