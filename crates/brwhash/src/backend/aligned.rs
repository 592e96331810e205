//! A heap box for SIMD states whose vectors want 32- or 64-byte alignment.
//!
//! `Box` asks the allocator for the type's alignment, and glibc serves alignments above 16
//! through `posix_memalign`: it splits a larger chunk, frees the leftover pieces and, on the
//! next large request, consolidates them again. That cost about 350 TSC cycles per message
//! for a streamed 4-decBRWHash1305 state (perf: `_int_memalign`, `malloc_consolidate`).
//! [`AlignedBox`] asks for an ordinary 16-byte-aligned allocation, padded, and places the
//! value at its alignment inside it.

use core::marker::PhantomData;
use core::ops::{Deref, DerefMut};
use core::ptr::NonNull;
use std::alloc::{alloc, dealloc, handle_alloc_error, Layout};

/// The alignment asked of the allocator: what `malloc` gives without its aligned path.
const PLAIN_ALIGN: usize = 16;

/// An owned `T` on the heap at `T`'s alignment, from an allocation of at most 16-byte
/// alignment (see the module documentation).
pub(crate) struct AlignedBox<T> {
    /// The value, inside the allocation.
    value: NonNull<T>,
    /// Bytes from the allocation's start to the value.
    offset: usize,
    _owns: PhantomData<T>,
}

// SAFETY: an `AlignedBox<T>` owns its `T` as a `Box<T>` does, so it may cross or be shared
// between threads exactly when `T` may.
unsafe impl<T: Send> Send for AlignedBox<T> {}
// SAFETY: as above; `&AlignedBox<T>` gives only `&T`.
unsafe impl<T: Sync> Sync for AlignedBox<T> {}

impl<T> AlignedBox<T> {
    /// The allocation: `T`'s size plus room to reach its alignment from 16 bytes.
    fn layout() -> Layout {
        let align = align_of::<T>().min(PLAIN_ALIGN);
        let pad = align_of::<T>() - align;
        Layout::from_size_align(size_of::<T>() + pad, align).expect("a SIMD state's size")
    }

    /// `make()`'s value in a new box.
    #[inline]
    pub fn new_with(make: impl FnOnce() -> T) -> Self {
        let (value, offset) = Self::allocate();
        // SAFETY: `value` is aligned for T and has room for one (`allocate`); nothing is
        // there to drop.
        unsafe { value.as_ptr().write(make()) };
        AlignedBox {
            value,
            offset,
            _owns: PhantomData,
        }
    }

    /// Room for a T at its alignment, uninitialized, and its offset in the allocation.
    #[inline]
    fn allocate() -> (NonNull<T>, usize) {
        const { assert!(size_of::<T>() > 0) };
        let layout = Self::layout();
        // SAFETY: the layout's size is non-zero (T is not zero-sized, asserted above).
        let start = unsafe { alloc(layout) };
        if start.is_null() {
            handle_alloc_error(layout);
        }
        // `start` is aligned to the layout's alignment, so the first address aligned for T is
        // at most `align_of::<T>() - layout.align()` bytes on: within the padding.
        let offset = start.align_offset(align_of::<T>());
        assert!(offset + size_of::<T>() <= layout.size());
        // SAFETY: `offset` is within the allocation (asserted), which is non-null.
        let value = unsafe { NonNull::new_unchecked(start.add(offset).cast::<T>()) };
        (value, offset)
    }
}

impl<T: Default> Default for AlignedBox<T> {
    #[inline]
    fn default() -> Self {
        // Built where it lives: a value returned (even by a call that is not inlined) was
        // built on the stack and copied into the box, a `memcpy` of 1.4-4.7 KiB per
        // streamed message (6% of a 4-decBRWHash1305 stream of 8000 bytes in 4 KiB
        // updates, perf).
        #[inline(never)]
        fn build<T: Default>(slot: NonNull<T>) {
            // SAFETY: `slot` is aligned for T, has room for one and holds nothing to drop
            // (`allocate`).
            unsafe { slot.as_ptr().write(T::default()) }
        }
        let (value, offset) = Self::allocate();
        build(value);
        AlignedBox {
            value,
            offset,
            _owns: PhantomData,
        }
    }
}

impl<T: Clone> Clone for AlignedBox<T> {
    fn clone(&self) -> Self {
        Self::new_with(|| T::clone(self))
    }
}

impl<T> Deref for AlignedBox<T> {
    type Target = T;
    #[inline(always)]
    fn deref(&self) -> &T {
        // SAFETY: `value` holds an initialized T, owned by `self` until drop.
        unsafe { self.value.as_ref() }
    }
}

impl<T> DerefMut for AlignedBox<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: as in `deref`; `&mut self` makes the borrow unique.
        unsafe { self.value.as_mut() }
    }
}

impl<T> Drop for AlignedBox<T> {
    fn drop(&mut self) {
        // SAFETY: `value` holds an initialized T that nothing else drops; the allocation
        // starts `offset` bytes before it and was made with `Self::layout()`.
        unsafe {
            self.value.as_ptr().drop_in_place();
            dealloc(
                self.value.as_ptr().cast::<u8>().sub(self.offset),
                Self::layout(),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::AlignedBox;

    #[repr(align(64))]
    #[derive(Clone, Default, PartialEq, Debug)]
    struct Wide([u64; 24]);

    #[test]
    fn values_sit_at_their_alignment() {
        let boxes: Vec<AlignedBox<Wide>> = (0..64)
            .map(|i| AlignedBox::new_with(|| Wide([i; 24])))
            .collect();
        for (i, b) in boxes.iter().enumerate() {
            assert_eq!((&**b as *const Wide).addr() % 64, 0);
            assert_eq!(b.0, [i as u64; 24]);
        }
        let mut copy = boxes[5].clone();
        copy.0[0] = 99;
        assert_eq!(boxes[5].0[0], 5);
        assert_eq!(copy.0[..2], [99, 5]);
        let small: AlignedBox<u8> = AlignedBox::default();
        assert_eq!(*small, 0);
    }

    #[test]
    fn drops_its_value() {
        use std::rc::Rc;
        let rc = Rc::new(());
        let b = AlignedBox::new_with(|| Rc::clone(&rc));
        assert_eq!(Rc::strong_count(&rc), 2);
        drop(b);
        assert_eq!(Rc::strong_count(&rc), 1);
    }
}
