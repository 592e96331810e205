//! Lane operations that the byte-level tests reach only indirectly: the power ladder and
//! splat squares of one-shot polyHash and the lane sum, on every lane type the CPU can run, against scalar
//! arithmetic.

use super::*;
use crate::construct::{powers_to_g, Lanes, WeightTable, WEIGHT_ENTRIES};

/// Keys with saturated limbs and a random-looking one.
fn keys<F: PrimeField>() -> Vec<F> {
    [[0xffu8; 16], [0x5a; 16], *b"0123456789abcdef", [0; 16]]
        .iter()
        .map(|k| F::from_key(k))
        .collect()
}

macro_rules! lane_test {
    ($name:ident, $check:ident, $feature:literal, $backend:expr, $lanes:ident) => {
        #[target_feature(enable = $feature)]
        fn $check<F: X86Lanes>() {
            type V<F> = <F as X86Lanes>::$lanes;
            for x in keys::<F>() {
                let w = <V<F> as Lanes<F>>::W;
                let xw = powers_to_g(x);
                // Lane j = x^(W - j).
                let mut lanes = [F::ZERO; 8];
                V::<F>::ladder(x).store(&mut lanes[..w]);
                for j in 0..w {
                    assert_eq!(lanes[j].to_digest(), xw[w - 1 - j].to_digest(), "lane {j}");
                }
                // Every lane from lane 0 where the mask says, else 1.
                let mask = 0b1010_0110u8 & ((1u32 << w) - 1) as u8;
                V::<F>::ladder(x).lane0_or_one(mask).store(&mut lanes[..w]);
                for (j, l) in lanes[..w].iter().enumerate() {
                    let want = if mask >> j & 1 == 1 {
                        xw[w - 1]
                    } else {
                        F::from_u64(1)
                    };
                    assert_eq!(l.to_digest(), want.to_digest(), "mask lane {j}");
                }
                // Lanes shifted up, zeros below.
                for z in 0..w {
                    V::<F>::ladder(x).shift_up(z).store(&mut lanes[..w]);
                    for (j, l) in lanes[..w].iter().enumerate() {
                        let want = if j < z { F::ZERO } else { xw[w - 1 - (j - z)] };
                        assert_eq!(l.to_digest(), want.to_digest(), "shift {z} lane {j}");
                    }
                }
                // The square of a splat power, in every lane: x^2, then x^4 from it (an
                // unreduced-limb input, as in the power chain).
                let x2 = V::<F>::splat(x).square_splat();
                for (want, sq) in [(xw[1], x2), (xw[3], x2.square_splat())] {
                    sq.store(&mut lanes[..w]);
                    for (j, l) in lanes[..w].iter().enumerate() {
                        assert_eq!(l.to_digest(), want.to_digest(), "splat square lane {j}");
                    }
                }
                // The lane sum of the powers.
                let sum = xw[..w].iter().fold(F::ZERO, |a, &b| a.add(b));
                assert_eq!(V::<F>::ladder(x).sum_lanes().to_digest(), sum.to_digest());
                // A key's cached lane weights of c-decBRWHash, where the lanes combine.
                let p = Powers::<F>::new(x, crate::eval::SQUARES, G, None);
                match WeightTable::new::<F, V<F>, { crate::eval::SQUARES }>(&p) {
                    Some(t) => assert_eq!(t.check::<F, V<F>, _>(&p), WEIGHT_ENTRIES),
                    None => assert!(!<V<F> as Lanes<F>>::FAST_PERMUTES),
                }
            }
        }

        #[test]
        fn $name() {
            if !$backend.cpu_supports() {
                eprintln!("skipped: this CPU lacks {}", $backend.name());
                return;
            }
            // SAFETY: the CPU has the backend's features (checked above).
            unsafe {
                $check::<Fp1305>();
                $check::<Fp1271>();
            }
        }
    };
}

lane_test!(ladder_avx2, check_avx2, "avx2", crate::Backend::Avx2, X4);
lane_test!(
    ladder_avx512,
    check_avx512,
    "avx512f",
    crate::Backend::Avx512,
    X8
);
lane_test!(
    ladder_ifma4,
    check_ifma4,
    "avx512f,avx512vl,avx512bw,avx512ifma,avx512vbmi",
    crate::Backend::Ifma,
    I4
);
lane_test!(
    ladder_ifma8,
    check_ifma8,
    "avx512f,avx512vl,avx512bw,avx512ifma,avx512vbmi",
    crate::Backend::Ifma,
    I8
);

/// `Halves::load_tail` (masked loads, or block by block where a masked-out byte would lie on
/// another page) against `load_strided`, for tails ending anywhere near a page's end.
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512ifma,avx512vbmi")]
fn check_load_tail<F: X86Lanes>() {
    use crate::construct::Halves;
    type V<F> = <F as X86Lanes>::I8;
    let w = <V<F> as Lanes<F>>::W;
    let mut buf = vec![0u8; 3 * 4096];
    let page = (4096 - buf.as_ptr() as usize % 4096) % 4096;
    for (i, b) in buf.iter_mut().enumerate() {
        *b = (i * 151 + 3) as u8;
    }
    let span = 2 * w * F::BLOCK;
    for end in (4096 - span - 8)..(4096 + 8) {
        for len in [1, 15, 16, 17, 60, 64, 65, 100, 120, 127, 128, 130, span] {
            let Some(start) = (page + end).checked_sub(len) else {
                continue;
            };
            let bytes = &buf[start..page + end];
            for at in [0, w * F::BLOCK].into_iter().filter(|&at| at < len) {
                let (mut got, mut want) = ([F::ZERO; 8], [F::ZERO; 8]);
                V::<F>::load_tail(bytes, at).store(&mut got[..w]);
                V::<F>::load_strided(bytes, at, F::BLOCK).store(&mut want[..w]);
                for j in 0..w {
                    assert_eq!(got[j].to_digest(), want[j].to_digest(), "{len} {at} {j}");
                }
            }
        }
    }
}

#[test]
fn load_tail_ifma8() {
    if !crate::Backend::Ifma.cpu_supports() {
        eprintln!("skipped: this CPU lacks ifma");
        return;
    }
    // SAFETY: the CPU has the backend's features (checked above).
    unsafe {
        check_load_tail::<Fp1305>();
        check_load_tail::<Fp1271>();
    }
}
