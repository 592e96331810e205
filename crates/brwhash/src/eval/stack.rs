//! The stack of the stack BRW algorithm (\[P1\] Algorithm 1): one unreduced product per
//! complete subtree so far, so after i chunks it holds popcount(i) entries.
//!
//! The newest `N` entries live inline and the older ones spill to the heap. A `Vec` alone
//! allocated on every message, and SIMD products are 32- or 64-byte aligned, which glibc
//! serves through its slow `memalign` path: about 350 TSC cycles per allocation and free,
//! more than hashing 2 KiB on IFMA. With `N = 8` a message spills only after 255 chunks.
//!
//! The entries are products with key powers: [`Zeroize`] wipes every inline slot ever used
//! (popped entries stay in their slots until then) and the spilled ones.

use arrayvec::ArrayVec;
use zeroize::Zeroize;

pub struct Stack<T, const N: usize = 8> {
    /// The newest entries, the top of the stack last.
    top: ArrayVec<T, N>,
    /// The oldest entries, the bottom of the stack first.
    bottom: Vec<T>,
    /// Inline slots ever used (the most entries `top` has held): what a wipe must cover.
    used: usize,
}

impl<T, const N: usize> Default for Stack<T, N> {
    #[inline(always)]
    fn default() -> Self {
        Stack {
            top: ArrayVec::new(),
            bottom: Vec::new(),
            used: 0,
        }
    }
}

/// `Clone` through `clone_from`: `clone` fills a default value in place (a clone returned
/// by value from nested derived clones moved every inline array whole, used or not, once
/// per level: about 10 KiB per `Hasher::finalize` of a 4-decBRWHash stream).
/// - `clone_in_place!([generics] Type<..> { field, .. })`: `clone_from` field by field,
///   the fields listed (the others keep their default), so that each `Stack` in them
///   copies its live entries only.
/// - `clone_in_place!([generics] Type<..>, |this, source| { .. })`: `clone_from` as given.
macro_rules! clone_in_place {
    ([$($generics:tt)*] $ty:ty { $($field:ident),* $(,)? }) => {
        $crate::eval::stack::clone_in_place!([$($generics)*] $ty, |this, source| {
            $(this.$field.clone_from(&source.$field);)*
        });
    };
    ([$($generics:tt)*] $ty:ty, |$this:ident, $source:ident| $body:block) => {
        impl<$($generics)*> Clone for $ty {
            #[inline]
            fn clone(&self) -> Self {
                let mut s = Self::default();
                s.clone_from(self);
                s
            }

            #[inline]
            fn clone_from(&mut self, source: &Self) {
                let ($this, $source) = (self, source);
                $body
            }
        }
    };
}
pub(crate) use clone_in_place;

// The live entries only; the slots past `source`'s entries keep what they held and stay
// covered by a wipe.
clone_in_place!([T: Copy, const N: usize] Stack<T, N>, |this, source| {
    this.top.clear();
    this.top
        .try_extend_from_slice(&source.top)
        .expect("stacks of the same capacity");
    this.bottom.clone_from(&source.bottom);
    this.used = this.used.max(this.top.len());
});

impl<T: Copy, const N: usize> Stack<T, N> {
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.top.len() + self.bottom.len()
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    #[inline(always)]
    pub fn push(&mut self, v: T) {
        if self.top.is_full() {
            // Rare (a chunk count with more than N set bits): the oldest inline entry spills.
            self.bottom.push(self.top.remove(0));
        }
        self.top.push(v);
        self.used = self.used.max(self.top.len());
    }

    /// The top entry. Callers pop only entries they pushed (chunk i pops ntz(i) of its
    /// popcount(i - 1) entries).
    #[inline(always)]
    pub fn pop(&mut self) -> T {
        match self.top.pop() {
            Some(v) => v,
            None => self.bottom.pop().expect("pop of an empty BRW stack"),
        }
    }

    /// Whether the stack is empty and was wiped (no inline slot left to wipe).
    #[cfg(test)]
    pub fn is_wiped(&self) -> bool {
        self.is_empty() && self.used == 0
    }

    /// Every entry, bottom first.
    #[inline(always)]
    pub fn iter(&self) -> impl Iterator<Item = &T> {
        self.bottom.iter().chain(self.top.iter())
    }
}

impl<T: Copy + Zeroize, const N: usize> Zeroize for Stack<T, N> {
    /// Every inline slot ever used, popped ones included, and the spilled entries with their
    /// `Vec`'s spare capacity; the stack is then empty. (Always inlined: SIMD entries inline
    /// it whole, see `backend::x86`.)
    #[inline(always)]
    fn zeroize(&mut self) {
        crate::backend::zeroize_slots(&mut self.top, self.used);
        self.used = 0;
        if self.bottom.capacity() > 0 {
            self.bottom.zeroize();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Stack;
    use std::cell::Cell;
    use zeroize::Zeroize;

    thread_local! {
        /// Values wiped by `Probe::zeroize` on this thread.
        static WIPED: Cell<Vec<u32>> = const { Cell::new(Vec::new()) };
    }

    /// An entry that records the value it held when it was wiped.
    #[derive(Clone, Copy)]
    struct Probe(u32);

    impl Zeroize for Probe {
        fn zeroize(&mut self) {
            let mut log = WIPED.take();
            log.push(self.0);
            WIPED.set(log);
            self.0 = 0;
        }
    }

    /// A wipe reaches every inline slot ever used, those of popped entries too, and the
    /// spilled entries; the stack is then empty and works as new.
    #[test]
    fn zeroize_wipes_popped_slots_and_spills() {
        let mut s = Stack::<Probe, 4>::default();
        for v in 1..=6 {
            s.push(Probe(v)); // 1 and 2 spill to the heap
        }
        for _ in 0..3 {
            s.pop(); // 6, 5, 4: their slots keep the values
        }
        WIPED.set(Vec::new());
        s.zeroize();
        let mut wiped = WIPED.take();
        wiped.sort_unstable();
        // Inline slots: 3 (live) and the stale 4, 5, 6, wiped in place; then the spilled 1
        // and 2.
        assert_eq!(wiped, [1, 2, 3, 4, 5, 6]);
        assert!(s.is_empty());
        assert_eq!(s.used, 0);
        s.push(Probe(9));
        assert_eq!(s.pop().0, 9);
    }

    /// `clone_from` copies the entries, spilled ones too, and keeps the slots it overwrote
    /// or left behind covered by a wipe.
    #[test]
    fn clone_from_copies_entries_and_keeps_slots_wiped() {
        let mut src = Stack::<Probe, 2>::default();
        for v in 1..=3 {
            src.push(Probe(v)); // 1 spills
        }
        let mut dst = Stack::<Probe, 2>::default();
        dst.push(Probe(7));
        dst.push(Probe(8));
        dst.pop(); // slot 1 keeps 8
        dst.clone_from(&src);
        assert_eq!(dst.iter().map(|p| p.0).collect::<Vec<_>>(), [1, 2, 3]);
        let mut short = Stack::<Probe, 2>::default();
        short.push(Probe(5));
        dst.clone_from(&short); // slot 1 keeps 3
        assert_eq!(dst.iter().map(|p| p.0).collect::<Vec<_>>(), [5]);
        WIPED.set(Vec::new());
        dst.zeroize();
        let mut wiped = WIPED.take();
        wiped.sort_unstable();
        assert_eq!(wiped, [3, 5]);
        assert!(dst.is_empty());
    }

    /// Against a `Vec` through pushes and pops that cross the inline capacity both ways.
    #[test]
    fn behaves_as_a_vec() {
        let mut s = Stack::<u32, 3>::default();
        let mut v = Vec::new();
        let mut next = 0;
        for round in 0..40u32 {
            let pushes = round % 7;
            for _ in 0..pushes {
                s.push(next);
                v.push(next);
                next += 1;
            }
            let pops = (round * 5 % 6).min(v.len() as u32);
            for _ in 0..pops {
                assert_eq!(s.pop(), v.pop().unwrap());
            }
            assert_eq!(s.len(), v.len());
            assert_eq!(s.is_empty(), v.is_empty());
            assert!(s.iter().copied().eq(v.iter().copied()));
            assert!(s.clone().iter().copied().eq(v.iter().copied()));
        }
        assert!(v.len() > 3, "the test must reach the spill");
    }
}
