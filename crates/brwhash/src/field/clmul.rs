//! Portable constant-time carry-less multiplication.
//!
//! Integer multiplication computes carry-less products if the carries cannot reach a bit that
//! matters. Split each operand into five interleaved bit classes (bits i, i+5, i+10, ...):
//! one class product has at most 13 terms at any position, a count that fits in the four
//! "hole" bits before the next bit of the same class. XOR the class products that land on a
//! class and keep only that class's bits. 25 integer multiplications, no branches, no tables.

const fn class_mask64(i: u32) -> u64 {
    let mut m = 0u64;
    let mut b = i;
    while b < 64 {
        m |= 1 << b;
        b += 5;
    }
    m
}

const fn class_mask128(i: u32) -> u128 {
    let mut m = 0u128;
    let mut b = i;
    while b < 128 {
        m |= 1 << b;
        b += 5;
    }
    m
}

const IN: [u64; 5] = [
    class_mask64(0),
    class_mask64(1),
    class_mask64(2),
    class_mask64(3),
    class_mask64(4),
];
const OUT: [u128; 5] = [
    class_mask128(0),
    class_mask128(1),
    class_mask128(2),
    class_mask128(3),
    class_mask128(4),
];

/// The 128-bit carry-less product of two 64-bit polynomials over GF(2).
#[inline]
pub fn clmul64(a: u64, b: u64) -> u128 {
    let x = IN.map(|m| (a & m) as u128);
    let y = IN.map(|m| (b & m) as u128);
    let mut r = 0u128;
    for k in 0..5 {
        let mut z = 0u128;
        for i in 0..5 {
            z ^= x[i].wrapping_mul(y[(k + 5 - i) % 5]);
        }
        r |= z & OUT[k];
    }
    r
}

/// The 256-bit carry-less product of two 128-bit polynomials, as (low, high) halves:
/// Karatsuba, three 64-bit products.
#[inline]
pub fn clmul128(a: u128, b: u128) -> (u128, u128) {
    let (a0, a1) = (a as u64, (a >> 64) as u64);
    let (b0, b1) = (b as u64, (b >> 64) as u64);
    let lo = clmul64(a0, b0);
    let hi = clmul64(a1, b1);
    let mid = clmul64(a0 ^ a1, b0 ^ b1) ^ lo ^ hi;
    (lo ^ (mid << 64), hi ^ (mid >> 64))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slow(a: u64, b: u64) -> u128 {
        (0..64).fold(0u128, |r, i| {
            if b >> i & 1 == 1 {
                r ^ (a as u128) << i
            } else {
                r
            }
        })
    }

    #[test]
    fn clmul64_matches_shift_and_xor() {
        let mut s = 0x9e3779b97f4a7c15u64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for v in [0, 1, u64::MAX, 1 << 63, 0x8000_0000_0000_0001] {
            for w in [0, 1, u64::MAX, 1 << 63, 0x5555_5555_5555_5555] {
                assert_eq!(clmul64(v, w), slow(v, w));
            }
        }
        for _ in 0..10_000 {
            let (a, b) = (next(), next());
            assert_eq!(clmul64(a, b), slow(a, b));
        }
    }
}
