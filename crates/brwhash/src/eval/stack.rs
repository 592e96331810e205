//! The stack of the stack BRW algorithm (\[P1\] Algorithm 1): one unreduced product per
//! complete subtree so far, so after i chunks it holds popcount(i) entries.
//!
//! The newest `N` entries live inline and the older ones spill to the heap. A `Vec` alone
//! allocated on every message, and SIMD products are 32- or 64-byte aligned, which glibc
//! serves through its slow `memalign` path: about 350 TSC cycles per allocation and free,
//! more than hashing 2 KiB on IFMA. With `N = 8` a message spills only after 255 chunks.

use arrayvec::ArrayVec;

#[derive(Clone)]
pub struct Stack<T, const N: usize = 8> {
    /// The newest entries, the top of the stack last.
    top: ArrayVec<T, N>,
    /// The oldest entries, the bottom of the stack first.
    bottom: Vec<T>,
}

impl<T, const N: usize> Default for Stack<T, N> {
    fn default() -> Self {
        Stack {
            top: ArrayVec::new(),
            bottom: Vec::new(),
        }
    }
}

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

    /// Every entry, bottom first.
    #[inline(always)]
    pub fn iter(&self) -> impl Iterator<Item = &T> {
        self.bottom.iter().chain(self.top.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::Stack;

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
        }
        assert!(v.len() > 3, "the test must reach the spill");
    }
}
