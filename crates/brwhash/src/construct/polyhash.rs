//! polyHash (SPEC.md 5.3): x * Poly(x; pad1(M)). Poly1305 (5.2) is polyHash1305 keyed with
//! the clamped r, plus s (added in `crate::key`).

use core::marker::PhantomData;

use super::{Held, Lanes, Powers};
use crate::eval::{Horner, G};
use crate::field::{Field, PrimeField};

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

    pub fn finish(self, p: &Powers<F>) -> F {
        p.x().mul(self.horner.finish(p.hx()))
    }
}

/// Largest vector block: 8 lanes of 16-byte blocks.
const MAX_VBLOCK: usize = 8 * 16;

/// polyHash with W = `V::W` lanes (the decimated Horner of [P2], [P0]): vector block g holds
/// blocks W*g+1 .. W*g+W, and lane j runs Horner in x^W over blocks j+1, j+1+W, ...
/// The lanes meet their powers at the end, streaming-friendly (IMPLEMENTATION-NOTES 7,
/// end-aligned): with r blocks T_1..T_r after the last full vector block,
/// x * Poly(x; M) = x * Poly(x; A_0, .., A_(W-1), T_1, .., T_r) for the lane values A_j,
/// which the scalar Horner computes. Needs `Powers::hg` = powers of x^W.
#[derive(Clone)]
pub(crate) struct PolyLanes<F: PrimeField, V: Lanes<F>> {
    /// Bytes of an incomplete vector block.
    held: Held<MAX_VBLOCK>,
    lanes: Horner<V>,
    /// (x^W)^1 .. (x^W)^G in every lane, broadcast at the first update or finish.
    powers: [V; G],
    have_powers: bool,
    _field: PhantomData<F>,
}

impl<F: PrimeField, V: Lanes<F>> Default for PolyLanes<F, V> {
    fn default() -> Self {
        PolyLanes {
            held: Held::default(),
            lanes: Horner::default(),
            powers: [V::ZERO; G],
            have_powers: false,
            _field: PhantomData,
        }
    }
}

impl<F: PrimeField, V: Lanes<F>> PolyLanes<F, V> {
    const VBLOCK: usize = V::W * F::BLOCK;
    /// Group size: blocks per reduction, within the lanes' headroom.
    const G: usize = if G < V::WIDE_SUM_LIMIT {
        G
    } else {
        V::WIDE_SUM_LIMIT - 1
    };

    /// Broadcast (x^W)^1 .. (x^W)^G into `self.powers` the first time (streaming updates
    /// then pay nothing for it).
    #[inline(always)]
    fn broadcast_powers(&mut self, p: &Powers<F>) {
        if !self.have_powers {
            for (v, &h) in self.powers.iter_mut().zip(&p.hg) {
                *v = V::splat(h);
            }
            self.have_powers = true;
        }
    }

    #[inline(always)]
    pub fn update(&mut self, p: &Powers<F>, data: &[u8]) {
        const { assert!(Self::VBLOCK <= MAX_VBLOCK) };
        self.broadcast_powers(p);
        let powers = &self.powers[..Self::G];
        let lanes = &mut self.lanes;
        // An update that starts inside a Horner group first completes it, so that the main
        // loop always starts at a group boundary (measured: 3840-byte updates of Poly1305 on
        // IFMA cost +50% over one-shot when the loop started mid-group, +8% otherwise).
        let pending = lanes.pending();
        let mut data = data;
        if pending > 0 {
            let need = ((Self::G - pending) * Self::VBLOCK).saturating_sub(self.held.held().len());
            let (head, rest) = data.split_at(need.min(data.len()));
            self.held.feed(
                Self::VBLOCK,
                head,
                #[inline(always)]
                |b| lanes.push(powers, V::load(b, true)),
            );
            data = rest;
        }
        self.held.feed(
            Self::VBLOCK,
            data,
            #[inline(always)]
            |b| lanes.push(powers, V::load(b, true)),
        );
    }

    /// x * Poly(x; pad1(M)) (the state is used up).
    #[inline(always)]
    pub fn finish(&mut self, p: &Powers<F>) -> F {
        self.broadcast_powers(p);
        let powers = &self.powers[..Self::G];
        // S = sum_j A_j x^(W-1-j): the lanes weighted in the vector unit, then added up, so
        // that x * Poly(x; A_0, .., A_(W-1), T..) = x * Poly(x; S, T..) needs scalar products
        // only for the tail blocks.
        let mut weights = [F::ZERO; 16];
        weights[V::W - 1] = F::from_u64(1);
        for (w, &power) in weights[..V::W - 1]
            .iter_mut()
            .zip(p.hx()[..V::W - 1].iter().rev())
        {
            *w = power;
        }
        let lanes = self.lanes.value(powers);
        let weighted = V::reduce(lanes.mul_wide(V::from_lanes(&weights[..V::W])));
        let mut values = [F::ZERO; 16];
        weighted.store(&mut values[..V::W]);
        let sum = values[1..V::W].iter().fold(values[0], |acc, &v| acc.add(v));
        let mut h = PolyHash::default();
        h.absorb(p, sum);
        for block in self.held.held().chunks(F::BLOCK) {
            h.absorb(p, F::from_block(block, true));
        }
        h.finish(p)
    }
}
