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
pub use fp1305::Fp1305;
pub use gf128::Gf128;
pub use gf256::Gf256;

/// A field element in a partially reduced representation, and its unreduced products.
pub trait Field: Copy + Default + zeroize::Zeroize + 'static {
    /// An unreduced product or a sum of unreduced products.
    type Wide: Copy + Default;

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

/// Five 64-bit limbs: the unreduced products of both prime fields
/// (products are below 2^262, so at least 2^58 of them can be summed).
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Wide5(pub [u64; 5]);

impl Wide5 {
    #[inline(always)]
    pub(crate) fn add(self, rhs: Self) -> Self {
        let mut r = [0u64; 5];
        let mut carry = 0u128;
        for (i, limb) in r.iter_mut().enumerate() {
            let t = self.0[i] as u128 + rhs.0[i] as u128 + carry;
            *limb = t as u64;
            carry = t >> 64;
        }
        Wide5(r)
    }

    /// Schoolbook product of little-endian limb slices (total length at most 5 limbs out).
    #[inline(always)]
    pub(crate) fn mul<const A: usize, const B: usize>(a: &[u64; A], b: &[u64; B]) -> Self {
        let mut r = [0u64; 6];
        for i in 0..A {
            let mut carry = 0u128;
            for j in 0..B {
                let t = a[i] as u128 * b[j] as u128 + r[i + j] as u128 + carry;
                r[i + j] = t as u64;
                carry = t >> 64;
            }
            r[i + B] = carry as u64;
        }
        debug_assert_eq!(r[5], 0, "product exceeds five limbs");
        Wide5([r[0], r[1], r[2], r[3], r[4]])
    }
}

/// All-ones when `bit` is 1, zero when it is 0 (`bit` must be 0 or 1).
#[inline(always)]
pub(crate) fn mask128(bit: u128) -> u128 {
    0u128.wrapping_sub(bit)
}

#[cfg(test)]
mod tests;
