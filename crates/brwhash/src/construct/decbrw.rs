//! c-decBRWHash (SPEC.md 5.8, [P0] Construction 3): block j goes to stream j mod c; each
//! stream is BRW-hashed; the c stream values are combined by Horner in x^D,
//! D = 2^(floor(lg q) + 1) (D = 1 when L = 0), and the result is x * (x * Q + L).
//!
//! [`DecBrw`] runs the streams one block at a time (portable). [`DecLanes`] runs all c streams
//! at once in the lanes of a SIMD vector type (lane j = stream j, [P0]'s design); SIMD
//! backends instantiate it with their vector fields and call it from `#[target_feature]`
//! entry points, which is why everything on its hot path is `#[inline(always)]`.

use core::marker::PhantomData;

use super::{Held, Powers, CHUNK};
use crate::eval::horner::poly_tree;
use crate::eval::{Brw, SqTable, Stack};
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

    /// `blocks` is l, the number of blocks absorbed.
    pub fn finish(mut self, p: &Powers<F>, blocks: u64, length: F) -> F {
        // Zero blocks (no marker) fill the streams up to q = ceil(l / c) blocks each.
        if self.next != 0 {
            for s in &mut self.streams[self.next..] {
                s.push(&p.sq, F::ZERO);
            }
        }
        let values: Vec<F> = self.streams.iter().map(|s| s.finish(&p.sq)).collect();
        combine(p, &values, blocks, length)
    }
}

/// The final step from the c stream values Q_1..Q_c: x * (x * Poly(x^D; Q) + L).
/// (Always inlined: it runs inside the backends' entry points, with their features.)
#[inline(always)]
pub(super) fn combine<F: Field, const S: usize>(
    p: &Powers<F, S>,
    values: &[F],
    blocks: u64,
    length: F,
) -> F {
    let q = blocks.div_ceil(values.len() as u64);
    // x^D = sq[bit length of q] (for L = 0, q = 0: sq[0] = x^1, as defined); its squares follow.
    let j = (u64::BITS - q.leading_zeros()) as usize;
    let sum = poly_tree(&p.sq[j..], values);
    // x * (x * sum + L) = x^2 * sum + x * L: two independent products, one reduction.
    F::reduce(F::wide_add(p.sq[1].mul_wide(sum), p.x().mul_wide(length)))
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
    /// 64-bit words that hold one value (a vector cached in a key).
    const WORDS: usize;
    /// The value as `WORDS` words.
    fn to_words(self, out: &mut [u64]);
    /// A value from `to_words`' words.
    fn from_words(words: &[u64]) -> Self;

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

    /// Lane j = x^(W - j), computed in the lanes: lg W products, each lane multiplied by
    /// x^(2^i) (lane 0's value after step i) where bit i of W - 1 - j is set.
    #[inline(always)]
    fn ladder(x: F) -> Self {
        let mut cur = Self::splat(x);
        let mut i = 0;
        while 1 << i < Self::W {
            let mut mask = 0u8;
            for j in 0..Self::W {
                mask |= (((Self::W - 1 - j) >> i & 1) as u8) << j;
            }
            cur = cur.mul(cur.lane0_or_one(mask));
            i += 1;
        }
        cur
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

/// Key powers broadcast into lanes as they are needed: x and x^2 once, a stack factor
/// x^(2^j) once per chunk.
struct Splat<'a, F: PrimeField, V: Lanes<F>> {
    x: V,
    x2: V,
    sq: &'a [F],
}

impl<'a, F: PrimeField, V: Lanes<F>> Splat<'a, F, V> {
    #[inline(always)]
    fn new<const S: usize>(p: &'a Powers<F, S>) -> Self {
        Splat {
            x: V::splat(p.sq[0]),
            x2: V::splat(p.sq[1]),
            sq: &p.sq,
        }
    }

    /// As `new`, broadcasting x and x^2 only the first time for a state (`cache`): streaming
    /// updates then pay nothing for it.
    #[inline(always)]
    fn cached<const S: usize>(cache: &mut Option<(V, V)>, p: &'a Powers<F, S>) -> Self {
        let (x, x2) = match *cache {
            Some(xs) => xs,
            None => {
                let xs = (V::splat(p.sq[0]), V::splat(p.sq[1]));
                *cache = Some(xs);
                xs
            }
        };
        Splat { x, x2, sq: &p.sq }
    }
}

impl<F: PrimeField, V: Lanes<F>> SqTable<V> for Splat<'_, F, V> {
    #[inline(always)]
    fn sq(&self, j: usize) -> V {
        match j {
            0 => self.x,
            1 => self.x2,
            _ => V::splat(self.sq[j]),
        }
    }
}

/// Largest chunk of 4 vector blocks: c = 16 lanes of 16-byte blocks.
const MAX_CHUNK_BYTES: usize = 4 * 16 * 16;

/// c-decBRWHash with c = `V::W`, all streams in the lanes of `V`: vector block i holds blocks
/// c*i+1 .. c*i+c, and the stack BRW algorithm runs lane-wise on chunks of 4 vector blocks.
#[derive(Clone)]
pub(crate) struct DecLanes<F: PrimeField, V: Lanes<F>> {
    /// Bytes of an incomplete chunk.
    held: Held<MAX_CHUNK_BYTES>,
    /// Message bytes N.
    n: u64,
    brw: Brw<V, 4>,
    /// x and x^2 in every lane, once broadcast.
    xs: Option<(V, V)>,
    _field: PhantomData<F>,
}

impl<F: PrimeField, V: Lanes<F>> Default for DecLanes<F, V> {
    fn default() -> Self {
        DecLanes {
            held: Held::default(),
            n: 0,
            brw: Brw::default(),
            xs: None,
            _field: PhantomData,
        }
    }
}

impl<F: PrimeField, V: Lanes<F>> DecLanes<F, V> {
    /// Bytes of one vector block and of one chunk (4 vector blocks).
    const VBLOCK: usize = V::W * F::BLOCK;
    const CHUNK_BYTES: usize = 4 * Self::VBLOCK;

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
    pub fn update<const S: usize>(&mut self, p: &Powers<F, S>, data: &[u8]) {
        const { assert!(Self::CHUNK_BYTES <= MAX_CHUNK_BYTES) };
        self.n += data.len() as u64;
        let table = Splat::<F, V>::cached(&mut self.xs, p);
        let brw = &mut self.brw;
        self.held.feed(
            Self::CHUNK_BYTES,
            data,
            #[inline(always)]
            |bytes| brw.push_chunk(&table, &Self::chunk(bytes)),
        );
    }

    /// The value v before `out()` (the state is used up).
    #[inline(always)]
    pub fn finish<const S: usize>(&mut self, p: &Powers<F, S>) -> F {
        let table = Splat::<F, V>::cached(&mut self.xs, p);
        // The last vector blocks, zero-padded: zero blocks fill the streams to q blocks each,
        // and a short last block is le() of its bytes.
        for vb in self.held.padded(Self::VBLOCK).chunks(Self::VBLOCK) {
            self.brw.push(&table, V::load(vb, false));
        }
        let mut values = [F::ZERO; 16];
        self.brw.finish(&table).store(&mut values[..V::W]);
        let blocks = self.n.div_ceil(F::BLOCK as u64);
        combine(
            p,
            &values[..V::W],
            blocks,
            F::from_u64(self.n.wrapping_mul(8)),
        )
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
    /// Lanes 0-3 of `a`, lanes 4-7 of `b`.
    fn blend(a: Self, b: Self) -> Self;
    /// Lanes 0-3 of `a`, lanes 4-7 of `b`.
    fn blend_wide(a: Self::Wide, b: Self::Wide) -> Self::Wide;
    /// Lanes 0-3 of `w` in lanes 4-7 (lanes 0-3 of the result are unspecified).
    fn low_to_high(w: Self::Wide) -> Self::Wide;
    /// Lanes 4-7 as a 4-lane value.
    fn upper_wide(w: Self::Wide) -> <Self::Half as Field>::Wide;
}

/// Product D of a chunk, waiting for the next chunk's product C to share a multiplication.
#[derive(Clone)]
struct PendingD<V: Field> {
    /// C + B + m7 + popped entries, in lanes 4-7.
    tmp: V::Wide,
    /// m8 in lanes 4-7.
    m8: V,
    /// ntz of the chunk's number.
    k: usize,
}

/// The 8-lane schedule's state: chunks done, the stack (entries valid in lanes 4-7), and
/// the product D of the last chunk, still to be computed.
#[derive(Clone)]
struct Pipeline<V: Field> {
    /// Chunks of 8 blocks per stream done.
    i: u64,
    stack: Stack<V::Wide>,
    pending: Option<PendingD<V>>,
}

impl<V: Field> Pipeline<V> {
    #[inline(always)]
    fn push(&mut self, product: V::Wide) {
        if self.stack.len() + 2 < V::WIDE_SUM_LIMIT {
            self.stack.push(product);
        } else {
            self.stack.push(V::reduce(product).widen());
        }
    }

    #[inline(always)]
    fn chunk<F: PrimeField>(&mut self, t: &Splat<'_, F, V>, [z0, z1, z2, z3]: [V; 4])
    where
        V: Halves<F>,
    {
        let (x, x2, x4) = (t.sq(0), t.sq(1), t.sq(2));
        // [A + m3 | B + m7]
        let ab = V::wide_add(x.add(z0).mul_wide(x2.add(z1)), z2.widen());
        self.i += 1;
        let k = self.i.trailing_zeros() as usize;
        let cd = match self.pending.take() {
            Some(prev) => {
                let l = V::reduce(V::blend_wide(ab, prev.tmp));
                let r = V::blend(z3, prev.m8).add(V::blend(x4, t.sq(3 + prev.k)));
                let cd = l.mul_wide(r);
                self.push(cd); // D of the previous chunk, lanes 4-7
                cd
            }
            None => V::reduce(ab).mul_wide(z3.add(x4)),
        };
        // C + B + m7 in lanes 4-7, plus the entries this chunk closes.
        let mut tmp = V::wide_add(V::low_to_high(cd), ab);
        for _ in 0..k {
            tmp = V::wide_add(tmp, self.stack.pop());
        }
        self.pending = Some(PendingD { tmp, m8: z3, k });
    }
}

/// 4-decBRWHash on 8 lanes. Each stream (a 4-lane vector block holds one block of each) runs
/// the stack BRW algorithm with chunks of 8 blocks (w = 3); chunk n costs four products:
/// A = (x+m1)(x^2+m2), B = (x+m5)(x^2+m6), C = red(A+m3)(x^4+m4) and
/// D = red(C+B+m7+popped)(m8+x^(8*2^k)). One 8-lane product computes [A | B]; another
/// computes [C of chunk n | D of chunk n-1], independent once the pipeline is one chunk deep.
/// Stack entries are valid in lanes 4-7. At the end the stack moves to 4 lanes and the
/// generic evaluator finishes the tail.
#[derive(Clone)]
pub(crate) struct DecPairs<F: PrimeField, V: Halves<F>> {
    /// Bytes of an incomplete chunk.
    held: Held<MAX_CHUNK_BYTES>,
    n: u64,
    pipe: Pipeline<V>,
    /// x and x^2 in every lane, once broadcast.
    xs: Option<(V, V)>,
    _field: PhantomData<F>,
}

impl<F: PrimeField, V: Halves<F>> Default for DecPairs<F, V> {
    fn default() -> Self {
        DecPairs {
            held: Held::default(),
            n: 0,
            pipe: Pipeline {
                i: 0,
                stack: Stack::default(),
                pending: None,
            },
            xs: None,
            _field: PhantomData,
        }
    }
}

impl<F: PrimeField, V: Halves<F>> DecPairs<F, V> {
    /// A 4-lane vector block, and a chunk of 8 of them.
    const VBLOCK: usize = 4 * F::BLOCK;
    const CHUNK_BYTES: usize = 8 * Self::VBLOCK;

    /// The bytes of 4-lane vector block `i` of a chunk (a function, not a closure: closures
    /// are not always inlined, see `backend::x86`).
    #[inline(always)]
    fn half(bytes: &[u8], i: usize) -> &[u8] {
        &bytes[i * Self::VBLOCK..(i + 1) * Self::VBLOCK]
    }

    /// A chunk's bytes as [vector blocks 1|5, 2|6, 3|7, 4|8].
    #[inline(always)]
    fn load_chunk(bytes: &[u8]) -> [V; 4] {
        [
            V::load_pair(Self::half(bytes, 0), Self::half(bytes, 4)),
            V::load_pair(Self::half(bytes, 1), Self::half(bytes, 5)),
            V::load_pair(Self::half(bytes, 2), Self::half(bytes, 6)),
            V::load_pair(Self::half(bytes, 3), Self::half(bytes, 7)),
        ]
    }

    #[inline(always)]
    pub fn update<const S: usize>(&mut self, p: &Powers<F, S>, data: &[u8]) {
        const { assert!(Self::CHUNK_BYTES <= MAX_CHUNK_BYTES) };
        self.n += data.len() as u64;
        let table = Splat::<F, V>::cached(&mut self.xs, p);
        let pipe = &mut self.pipe;
        self.held.feed(
            Self::CHUNK_BYTES,
            data,
            #[inline(always)]
            |bytes| pipe.chunk(&table, Self::load_chunk(bytes)),
        );
    }

    /// The value v before `out()` (the state is used up).
    #[inline(always)]
    pub fn finish<const S: usize>(&mut self, p: &Powers<F, S>) -> F {
        let table = Splat::<F, V>::cached(&mut self.xs, p);
        let pipe = &mut self.pipe;
        if let Some(prev) = pipe.pending.take() {
            let d = V::reduce(prev.tmp).mul_wide(prev.m8.add(table.sq(3 + prev.k)));
            pipe.push(d);
        }
        // The stack after i chunks of 8 blocks is the stack after 2i chunks of 4 (the same
        // complete subtrees), so the straight-line 4-block evaluator finishes the tail.
        let mut stack = Stack::default();
        for &e in pipe.stack.iter() {
            stack.push(V::upper_wide(e));
        }
        let mut brw = Brw::<V::Half, 4>::resume(2 * pipe.i, stack);
        let table4 = Splat::<F, V::Half>::new(p);
        for vb in self.held.padded(Self::VBLOCK).chunks(Self::VBLOCK) {
            brw.push(&table4, V::Half::load(vb, false));
        }
        let mut values = [F::ZERO; 4];
        brw.finish(&table4).store(&mut values);
        let blocks = self.n.div_ceil(F::BLOCK as u64);
        combine(p, &values, blocks, F::from_u64(self.n.wrapping_mul(8)))
    }
}
