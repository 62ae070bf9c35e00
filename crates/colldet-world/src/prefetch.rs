//! Software prefetch of memory a later iteration will read.
//!
//! Rationale: the narrow phase visits candidate pairs in broad-phase order, so each pair reads two
//! objects at unrelated slots; in a large world every such read misses the cache. Asking for them
//! a few pairs ahead overlaps those misses with the tests of the pairs in between.

/// Asks the processor to bring the cache lines of `value` into the cache (a hint: no effect on
/// results, nothing on targets without a prefetch instruction).
#[inline(always)]
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let start = std::ptr::from_ref(value).cast::<i8>();
        let mut offset = 0;
        while offset < size_of::<T>() {
            // SAFETY: a prefetch is only a hint: it never faults and reads nothing the program
            // sees, whatever the address; SSE, which provides it, is part of every x86_64 target.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(start.wrapping_add(offset)) };
            offset += 64;
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
