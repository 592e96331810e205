//! Wiping the hashers' states (`Zeroize`, which their `Drop` calls): every field that held
//! data is cleared, and a wiped state hashes a new message, under another key, as a new state
//! does (so no accumulator, cached key power or buffered byte survives).

use zeroize::Zeroize;

use super::{extend_wiping, wipe_vec, BinHasher, BinPowers, Held, Powers, PrimeHasher};
use crate::algorithm::Family;
use crate::backend::{Backend, SimdPrime};
use crate::eval::{G, SQUARES};
use crate::field::{BinaryField, Fp1271, Fp1305, Gf128, Gf256, PrimeField};
use crate::{Algorithm, Prime};

fn message(n: usize, seed: u8) -> Vec<u8> {
    (0..n)
        .map(|i| (i as u8).wrapping_mul(31) ^ seed ^ (i >> 8) as u8)
        .collect()
}

/// Powers of a key for `alg` (every squaring, Horner group 8, gamma where it has one).
fn prime_powers<F: PrimeField>(alg: Algorithm, key: u8) -> Box<Powers<F>> {
    let x = F::from_key(&[key; 16]);
    let gamma = match alg.family() {
        Family::TwoLHash(d, _) | Family::DHash(d, _) => Some(d as usize),
        _ => None,
    };
    Powers::new(x, SQUARES, G, gamma)
}

/// Every prime-field state kind (portable kinds, scalar, deferred, each SIMD plan here) for
/// `alg` and lengths around the crossovers: after `zeroize`, `is_wiped` holds (and did not
/// before), and hashing another message with another key gives the portable value.
fn prime_states_wipe<F: SimdPrime>(alg: Algorithm) {
    let (p1, p2) = (prime_powers::<F>(alg, 0x5a), prime_powers::<F>(alg, 0xc3));
    let m2 = message(777, 2);
    let mut expected = PrimeHasher::<F>::new(alg, Backend::Portable, None);
    expected.update(&p2, &m2);
    let expected = expected.finish(&p2).to_digest();
    for backend in Backend::ALL {
        if backend.check(alg).is_err() {
            continue;
        }
        for len in [1, 100, 700, 3000, 20_000] {
            for length in [None, Some(len as u64)] {
                let mut h = PrimeHasher::<F>::new(alg, backend, length);
                h.update(&p1, &message(len, 1));
                let at = format!("{alg} on {backend}, {} state, {len} bytes", h.kind_name());
                assert!(
                    !h.is_wiped(),
                    "{at}: a state with data must not pass as wiped"
                );
                h.zeroize();
                assert!(h.is_wiped(), "{at}: not wiped");
                h.update(&p2, &m2);
                assert_eq!(
                    h.finish(&p2).to_digest(),
                    expected,
                    "{at}: hashes differently"
                );
            }
        }
    }
}

#[test]
fn prime_hasher_zeroize_wipes_every_kind() {
    for alg in Algorithm::all() {
        match alg.prime() {
            Some(Prime::P1271) => prime_states_wipe::<Fp1271>(alg),
            Some(Prime::P1305) => prime_states_wipe::<Fp1305>(alg),
            None => {}
        }
    }
}

/// `BinHasher` on the portable fields, mid-super-block and after a component: wiped, and
/// then as new.
fn bin_hasher_wipes<F: BinaryField>(vector: bool) {
    let powers =
        |key: u8| BinPowers::<F>::new(F::from_bytes(&[key; 32][..F::BYTES]), 6, 1, Some(5));
    let (p1, p2) = (powers(0x17), powers(0xe4));
    let m2 = message(1234, 2);
    let finish = |h: &mut BinHasher<F>, p: &BinPowers<F>| {
        let mut out = [0u8; 32];
        let v = if vector {
            h.finish_vector(p)
        } else {
            h.finish_hash2l(p)
        };
        v.write_bytes(&mut out);
        out
    };
    let mut fresh = BinHasher::<F>::default();
    fresh.update(&p2, &m2);
    let expected = finish(&mut fresh, &p2);
    for len in [1, 100, 2000] {
        let mut h = BinHasher::<F>::default();
        h.update(&p1, &message(len, 1));
        if vector {
            h.next_component(&p1);
            h.update(&p1, &message(len / 2 + 1, 3));
        }
        assert!(
            !h.is_wiped(),
            "{len} bytes: a state with data must not pass as wiped"
        );
        h.zeroize();
        assert!(h.is_wiped(), "{len} bytes: not wiped");
        h.update(&p2, &m2);
        assert_eq!(
            finish(&mut h, &p2),
            expected,
            "{len} bytes: hashes differently"
        );
    }
}

#[test]
fn bin_hasher_zeroize_wipes_everything() {
    for vector in [false, true] {
        bin_hasher_wipes::<Gf128>(vector);
        bin_hasher_wipes::<Gf256>(vector);
    }
}

/// A wipe reaches every byte the buffer ever held, not only the ones it holds now.
#[test]
fn held_wipe_clears_every_byte_ever_held() {
    let mut h = Held::<64>::default();
    let mut chunks = 0;
    h.feed(48, &[0xa5; 100], |_| chunks += 1); // two chunks go on, 4 bytes held
    h.feed(48, &[0x5a; 40], |_| chunks += 1); // 44 held
    h.feed(48, &[0x33; 4], |_| chunks += 1); // a chunk from the buffer: none held
    assert_eq!((chunks, h.held().len()), (3, 0));
    assert!(!h.is_wiped(), "48 bytes were held");
    h.zeroize();
    assert!(h.is_wiped());
    h.append(&[7; 5]);
    assert_eq!(h.held(), &[7; 5]);
}

/// `extend_wiping` grows like `extend_from_slice` (contents and amortized growth); `wipe_vec`
/// empties.
#[test]
fn extend_wiping_keeps_the_bytes() {
    let mut v = Vec::new();
    let mut expected = Vec::new();
    let mut grows = 0;
    for i in 0..200u32 {
        let piece = message((i % 37) as usize, i as u8);
        let cap = v.capacity();
        extend_wiping(&mut v, &piece);
        grows += usize::from(v.capacity() != cap);
        expected.extend_from_slice(&piece);
        assert_eq!(v, expected);
    }
    assert!(grows <= 10, "{grows} reallocations");
    wipe_vec(&mut v);
    assert!(v.is_empty());
}

/// `hold_wiping` keeps the bytes; its first piece reserves `HOLD_ROOM` bytes (up to the
/// limit), or the whole limit from a piece that long, so that short pieces do not regrow.
#[test]
fn hold_wiping_reserves_once() {
    use super::{hold_wiping, HOLD_ROOM};
    for (limit, first) in [(2048, 16), (2048, HOLD_ROOM), (512, 1), (8192, 5000)] {
        let mut v = Vec::new();
        let mut expected = message(first, 3);
        hold_wiping(&mut v, &expected, limit);
        let room = if first >= HOLD_ROOM {
            limit
        } else {
            HOLD_ROOM.min(limit)
        };
        assert_eq!(v.capacity(), room, "limit {limit}, first piece {first}");
        // Short pieces up to the room: no reallocation.
        while expected.len() + 16 <= room {
            let piece = message(16, expected.len() as u8);
            hold_wiping(&mut v, &piece, limit);
            expected.extend_from_slice(&piece);
            assert_eq!(v.capacity(), room);
        }
        // Up to the limit: the bytes kept across growth.
        while expected.len() + 100 <= limit {
            let piece = message(100, expected.len() as u8);
            hold_wiping(&mut v, &piece, limit);
            expected.extend_from_slice(&piece);
        }
        assert_eq!(v, expected);
        wipe_vec(&mut v);
    }
}

/// Squarings computed between chunks or when read are the key's: in any order of `step`
/// and reads, from x alone or from x, x^2, x^4, and for every `fill_squares` count.
#[test]
fn lazy_and_filled_squares_are_the_keys() {
    use super::{fill_squares, KeySquares, LazySquares};
    use crate::field::{Canonical, Field};
    let p = prime_powers::<Fp1305>(Algorithm::POLYHASH1305, 0xa7);
    let eq = |a: Fp1305, b: Fp1305| a.to_canonical_bytes() == b.to_canonical_bytes();
    for known in [1, 3] {
        for steps in [0, 5, 20] {
            let lazy = LazySquares::new(&p.sq[..known], 12);
            for _ in 0..steps {
                lazy.step();
            }
            for j in (0..known + 16).rev() {
                assert!(
                    eq(lazy.square(j), p.sq[j]),
                    "known {known} steps {steps} j {j}"
                );
            }
        }
    }
    for want in 1..=32 {
        let mut out = [Fp1305::ZERO; 32];
        let n = fill_squares(&mut out, &p.sq[..3], want);
        assert_eq!(n, want.max(3));
        assert!((0..n).all(|j| eq(out[j], p.sq[j])), "want {want}");
    }
}
