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
    /// summed unreduced. The scalar fields have at least 2^58; SIMD lanes far fewer.
    const WIDE_SUM_LIMIT: usize = 1 << 20;

    /// Field addition (prime fields: partially reduced; binary fields: XOR).
    fn add(self, rhs: Self) -> Self;
    /// The product, not yet reduced.
    fn mul_wide(self, rhs: Self) -> Self::Wide;
    /// Sum of two unreduced values. Callers keep sums far below the headroom
    /// (at least 2^58 products for every field here).
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
}

/// An unreduced value of a prime field as column sums: column k is a sum of 64-bit words of
/// weight 2^(64k), held in a `u128`. Products are written straight into columns and added
/// column by column, without carry chains; `Cols::limbs` propagates the carries once, when
/// the value is reduced. (A column overflows only after 2^64 words; the fields' products are
/// below 2^262, so the value itself bounds how many can be summed: at least 2^58.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cols<const N: usize>(pub [u128; N]);

impl<const N: usize> Default for Cols<N> {
    fn default() -> Self {
        Cols([0; N])
    }
}

impl<const N: usize> zeroize::Zeroize for Cols<N> {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

#[inline(always)]
fn lo(x: u128) -> u128 {
    x as u64 as u128
}

#[inline(always)]
fn hi(x: u128) -> u128 {
    x >> 64
}

#[inline(always)]
fn mul64(x: u64, y: u64) -> u128 {
    x as u128 * y as u128
}

impl<const N: usize> Cols<N> {
    #[inline(always)]
    pub(crate) fn add(self, rhs: Self) -> Self {
        let mut r = self.0;
        for (a, b) in r.iter_mut().zip(rhs.0) {
            *a += b;
        }
        Cols(r)
    }

    /// The value as five little-endian 64-bit limbs (it must fit).
    #[inline(always)]
    pub(crate) fn limbs(self) -> [u64; 5] {
        let mut out = [0u64; 5];
        let mut carry = 0u128;
        for (limb, col) in out.iter_mut().zip(self.0) {
            let t = col + carry;
            *limb = t as u64;
            carry = t >> 64;
        }
        if N < 5 {
            out[N] = carry as u64;
        }
        debug_assert!(N < 5 || carry == 0, "value exceeds five limbs");
        out
    }
}

impl Cols<5> {
    /// The 3 x 3 limb product, for top limbs below 2^32 (values below 2^160).
    #[inline(always)]
    pub(crate) fn mul3x3([a0, a1, a2]: [u64; 3], [b0, b1, b2]: [u64; 3]) -> Self {
        debug_assert!(a2 >> 32 == 0 && b2 >> 32 == 0);
        let (p00, p01, p02) = (mul64(a0, b0), mul64(a0, b1), mul64(a0, b2));
        let (p10, p11, p12) = (mul64(a1, b0), mul64(a1, b1), mul64(a1, b2));
        let (p20, p21) = (mul64(a2, b0), mul64(a2, b1));
        Cols([
            lo(p00),
            hi(p00) + lo(p01) + lo(p10),
            hi(p01) + hi(p10) + lo(p02) + lo(p11) + lo(p20),
            hi(p02) + hi(p11) + hi(p20) + lo(p12) + lo(p21),
            hi(p12) + hi(p21) + (a2 * b2) as u128,
        ])
    }

    /// `a * (m0 + 2^64 m1 + 2^128 marker)` for a three-limb `a` (top limb below 2^32) and a
    /// block whose top limb `marker` is 0 or 1: six multiplications, the marker's term added.
    #[inline(always)]
    pub(crate) fn mul_block3([a0, a1, a2]: [u64; 3], [m0, m1, marker]: [u64; 3]) -> Self {
        debug_assert!(a2 >> 32 == 0 && marker <= 1);
        let mask = 0u64.wrapping_sub(marker);
        let (q00, q01, q02) = (mul64(m0, a0), mul64(m0, a1), mul64(m0, a2));
        let (q10, q11, q12) = (mul64(m1, a0), mul64(m1, a1), mul64(m1, a2));
        Cols([
            lo(q00),
            hi(q00) + lo(q01) + lo(q10),
            hi(q01) + hi(q10) + lo(q02) + lo(q11) + (a0 & mask) as u128,
            hi(q02) + hi(q11) + lo(q12) + (a1 & mask) as u128,
            hi(q12) + (a2 & mask) as u128,
        ])
    }

    /// A three-limb value.
    #[inline(always)]
    pub(crate) fn from_limbs([a0, a1, a2]: [u64; 3]) -> Self {
        Cols([a0 as u128, a1 as u128, a2 as u128, 0, 0])
    }
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
