//! A global allocator that counts allocations, for the tests that assert that a query or a
//! check allocates nothing.
//!
//! A test binary installs it and reads the counters around the code it watches:
//!
//! ```
//! use colldet_testkit::CountingAllocator;
//!
//! #[global_allocator]
//! static GLOBAL: CountingAllocator = CountingAllocator;
//!
//! fn main() {
//!     let values = vec![1u64, 2, 3];
//!     let before = CountingAllocator::thread_allocations();
//!     let sum: u64 = values.iter().sum(); // must not allocate
//!     assert_eq!(CountingAllocator::thread_allocations() - before, 0);
//!     assert_eq!(sum, 6);
//!     assert!(CountingAllocator::total_allocations() >= before);
//! }
//! ```
//!
//! Allocations and reallocations are counted (zeroed allocations go through `alloc`);
//! deallocations are not. Every call is forwarded to the system allocator unchanged.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

/// The system allocator, counting allocations per thread and over all threads.
pub struct CountingAllocator;

static ALL_THREADS: AtomicU64 = AtomicU64::new(0);

thread_local! {
    static THIS_THREAD: Cell<u64> = const { Cell::new(0) };
}

impl CountingAllocator {
    /// Allocations and reallocations made so far by the calling thread.
    pub fn thread_allocations() -> u64 {
        THIS_THREAD.with(Cell::get)
    }

    /// Allocations and reallocations made so far by all threads (worker threads included).
    pub fn total_allocations() -> u64 {
        ALL_THREADS.load(Ordering::Relaxed)
    }

    fn count() {
        ALL_THREADS.fetch_add(1, Ordering::Relaxed);
        THIS_THREAD.with(|c| c.set(c.get() + 1));
    }
}

// SAFETY: forwards every call to the system allocator unchanged; it only counts allocations
// (an atomic add and a const-initialised thread-local without destructor, neither allocates).
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        Self::count();
        // SAFETY: same contract as our caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as our caller's.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        Self::count();
        // SAFETY: same contract as our caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}
