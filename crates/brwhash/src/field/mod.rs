//! Field arithmetic: one file per field of SPEC.md.
//!
//! Every field offers an *unreduced* product ([`Field::mul_wide`]) whose results can be summed
//! ([`Field::wide_add`]) before a single [`Field::reduce`]. The evaluators in `crate::eval`
//! are written once against this trait and use it to delay reductions, as the papers do.
//!
//! All operations are constant time: no branch and no memory index depends on a value.

pub mod clmul;
pub mod fp1271;
pub mod fp1305;
pub mod gf128;
pub mod gf256;

pub use fp1271::Fp1271;
pub(crate) use fp1305::Clamped;
pub use fp1305::Fp1305;
pub use gf128::Gf128;
pub use gf256::Gf256;

/// A field element in a partially reduced representation, and its unreduced products.
pub trait Field: Copy + Default + zeroize::Zeroize + 'static {
    /// An unreduced product or a sum of unreduced products (wiped with the states that hold
    /// them: BRW stacks).
    type Wide: Copy + Default + zeroize::Zeroize;

    /// Additive identity.
    const ZERO: Self;

    /// How many values of the size of one product (reduced values count as negligible) may be
    /// summed unreduced. The scalar fields have at least 2^56; SIMD lanes far fewer.
    const WIDE_SUM_LIMIT: usize = 1 << 20;

    /// Field addition (prime fields: partially reduced; binary fields: XOR).
    fn add(self, rhs: Self) -> Self;
    /// The product, not yet reduced.
    fn mul_wide(self, rhs: Self) -> Self::Wide;
    /// Sum of two unreduced values. Callers keep sums far below the headroom
    /// (at least 2^56 products for every field here).
    fn wide_add(a: Self::Wide, b: Self::Wide) -> Self::Wide;
    /// An element as an unreduced value (to add it to a sum of products).
    fn widen(self) -> Self::Wide;
    /// Reduce an unreduced value to an element in the working representation.
    fn reduce(w: Self::Wide) -> Self;

    /// `self + m` where `m` is a padded block or a length block and `self` a reduced value or
    /// a key power, and the sum is only multiplied (BRW factors `x^(2^j) + M`, Horner's
    /// `acc + M`): a field whose product accepts the plain sum skips the partial reduction.
    #[inline(always)]
    fn add_block(self, m: Self) -> Self {
        self.add(m)
    }

    /// `self * m` for a padded block `m` (pad1 or pad2, from `PrimeField::load` or
    /// `from_block`), which a field may multiply faster than a general element.
    #[inline(always)]
    fn mul_block_wide(self, m: Self) -> Self::Wide {
        self.mul_wide(m)
    }

    /// `acc` plus the unreduced product: SIMD lanes that multiply-add (IFMA) add the
    /// product's columns into `acc` as they form them.
    #[inline(always)]
    fn mul_acc(self, rhs: Self, acc: Self::Wide) -> Self::Wide {
        Self::wide_add(acc, self.mul_wide(rhs))
    }

    /// The reduced product.
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        Self::reduce(self.mul_wide(rhs))
    }
    /// The reduced square.
    #[inline(always)]
    fn square(self) -> Self {
        self.mul(self)
    }

    /// [`mul`](Self::mul) by the shortest dependency chain, for key powers computed one from
    /// another while little else runs (a message's first powers): SIMD lanes may spend
    /// more instructions on it.
    #[inline(always)]
    fn mul_chain(self, rhs: Self) -> Self {
        self.mul(rhs)
    }

    /// [`square`](Self::square) by the shortest dependency chain, as
    /// [`mul_chain`](Self::mul_chain).
    #[inline(always)]
    fn square_chain(self) -> Self {
        self.square()
    }
}

/// Scalar fields have a unique representative of each element.
pub trait Canonical {
    /// The unique representative as 32 little-endian bytes (prime fields: fully reduced
    /// modulo p). For comparisons in tests.
    fn to_canonical_bytes(self) -> [u8; 32];
}

/// The prime fields GF(2^127-1) and GF(2^130-5) with the block format of SPEC.md sections 2-3.
pub trait PrimeField: Field {
    /// Block bytes B (15 or 16).
    const BLOCK: usize;
    /// Digest bits mu (= key bits k): 126 or 128.
    const MU: u32;
    /// `le(bytes)`, plus `2^(8*len)` when `marker` (pad1), for `bytes.len() <= BLOCK`.
    fn from_block(bytes: &[u8], marker: bool) -> Self;
    /// [`from_block`](Self::from_block) for a full block (`bytes.len() == BLOCK`): word
    /// loads, no copy.
    fn load(bytes: &[u8], marker: bool) -> Self;
    /// A small integer, e.g. the length block L.
    fn from_u64(v: u64) -> Self;
    /// The key tau = le(K) mod 2^k from the 16 key bytes.
    fn from_key(key: &[u8; 16]) -> Self;
    /// The digest: fully reduced modulo p, then truncated to mu bits, as an integer.
    fn to_digest(self) -> u128;
    /// The working representative as a 192-bit integer (below 2^131).
    fn to_u192(self) -> [u64; 3];
    /// An element from a 192-bit integer (three little-endian 64-bit words) below 2^190.
    fn from_u192(v: [u64; 3]) -> Self;
}

/// The binary fields GF(2^128) and GF(2^256) of SPEC.md section 5.9.
pub trait BinaryField: Field {
    /// Element (and block) bytes B: 16 or 32.
    const BYTES: usize;
    /// `le(bytes)` zero-padded to B bytes, for `bytes.len() <= BYTES`.
    fn from_bytes(bytes: &[u8]) -> Self;
    /// The element as B little-endian bytes, written to `out[..BYTES]`.
    fn write_bytes(self, out: &mut [u8]);
    /// The element `v * x^(8B-8)`: a value placed in the top byte (vecHash2L's k).
    fn top_byte(v: u8) -> Self;
    /// The unreduced product of `self` and the element `v` (a 64-bit value: a length L),
    /// which a carry-less type makes with half the products of [`Field::mul_wide`].
    #[inline(always)]
    fn mul_wide_u64(self, v: u64) -> Self::Wide {
        self.mul_wide(Self::from_bytes(&v.to_le_bytes()))
    }
}

/// An unreduced value of a prime field, a product or a sum of products:
/// `lo + 2^128 hi + 2^256 top`, exact (whole 128-bit halves with the carries propagated), so
/// that a sum is one carry chain of five words and a reduction folds once. (Columns of 64-bit
/// halves, summed without carries and carried once at the reduction, took about twice the
/// instructions for 2^127-1 and were slower both in latency and in throughput for 2^130-5.)
#[derive(Clone, Copy, Default, Debug)]
pub struct ExactWide {
    pub(crate) lo: u128,
    pub(crate) hi: u128,
    pub(crate) top: u64,
}

impl zeroize::Zeroize for ExactWide {
    #[inline]
    fn zeroize(&mut self) {
        self.lo.zeroize();
        self.hi.zeroize();
        self.top.zeroize();
    }
}

impl ExactWide {
    /// The exact sum: one carry chain through the five words (add, then add-with-carry).
    #[inline(always)]
    pub(crate) fn add(self, b: ExactWide) -> ExactWide {
        let (l0, c) = adc(self.lo as u64, b.lo as u64, false);
        let (l1, c) = adc((self.lo >> 64) as u64, (b.lo >> 64) as u64, c);
        let (h0, c) = adc(self.hi as u64, b.hi as u64, c);
        let (h1, c) = adc((self.hi >> 64) as u64, (b.hi >> 64) as u64, c);
        ExactWide {
            lo: l0 as u128 | (l1 as u128) << 64,
            hi: h0 as u128 | (h1 as u128) << 64,
            top: self.top + b.top + c as u64,
        }
    }
}

/// `a + b + carry` and the carry out (LLVM makes this one `adc`; carries kept as bools and
/// summed later made it recompute them by comparisons).
#[inline(always)]
pub(crate) fn adc(a: u64, b: u64, carry: bool) -> (u64, bool) {
    let (s, c1) = a.overflowing_add(b);
    let (s, c2) = s.overflowing_add(carry as u64);
    (s, c1 | c2)
}

/// The 256-bit product of two 128-bit values as (low, high) halves: four 64-bit products and
/// four 128-bit additions.
#[inline(always)]
pub(crate) fn mul128(a: u128, b: u128) -> (u128, u128) {
    let (a0, a1) = (a as u64 as u128, a >> 64);
    let (b0, b1) = (b as u64 as u128, b >> 64);
    let (p00, p01, p10, p11) = (a0 * b0, a0 * b1, a1 * b0, a1 * b1);
    // Neither sum overflows: (2^64 - 1)^2 + 2 (2^64 - 1) < 2^128.
    let m = p01 + (p00 >> 64);
    let m2 = p10 + (m as u64 as u128);
    (
        (p00 as u64 as u128) | (m2 << 64),
        p11 + (m >> 64) + (m2 >> 64),
    )
}

/// `bytes` (at most 16 of them) as a little-endian integer, by fixed-size reads that
/// overlap (the bytes read twice are equal, so OR joins them). A copy of a variable length
/// into a zeroed buffer compiles to a call of `memcpy`: two calls per 4-Hash1271 message,
/// and one per block of a partial Hash2L256 super-block.
#[inline(always)]
pub(crate) fn le_u128(bytes: &[u8]) -> u128 {
    let n = bytes.len();
    debug_assert!(n <= 16);
    let word = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap()) as u128;
    let half = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap()) as u128;
    let byte = |i: usize| bytes[i] as u128;
    match n {
        8.. => word(0) | word(n - 8) << (8 * (n - 8)),
        4..=7 => half(0) | half(n - 4) << (8 * (n - 4)),
        1..=3 => byte(0) | byte(n / 2) << (8 * (n / 2)) | byte(n - 1) << (8 * (n - 1)),
        0 => 0,
    }
}

/// [`le_u128`] of up to 32 bytes, as the low and high 16.
#[inline(always)]
pub(crate) fn le_u256(bytes: &[u8]) -> [u128; 2] {
    let (lo, hi) = bytes.split_at(bytes.len().min(16));
    [le_u128(lo), le_u128(hi)]
}

/// All-ones when `bit` is 1, zero when it is 0 (`bit` must be 0 or 1).
#[inline(always)]
pub(crate) fn mask128(bit: u128) -> u128 {
    0u128.wrapping_sub(bit)
}

#[cfg(test)]
mod tests;
