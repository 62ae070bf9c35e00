//! Support queries must not allocate: a counting global allocator observes a burst of queries of
//! every kind on this thread and must see zero allocations.

mod common;

use colldet_geom::ConvexPolytope;
use colldet_geom::math::Vector;
use common::{SplitMix64, SupportDraws, grid_box, uv_ellipsoid_with_about};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct CountingAllocator;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

// SAFETY: forwards every call to the system allocator unchanged; it only counts allocations.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|c| c.set(c.get() + 1));
        // SAFETY: same contract as our caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as our caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|c| c.set(c.get() + 1));
        // SAFETY: same contract as our caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

#[test]
fn queries_do_not_allocate() {
    let mut rng = SplitMix64(0x5eed_00a1);
    let polytopes = [
        ConvexPolytope::from_convex_mesh(&uv_ellipsoid_with_about(
            10_000,
            [1.0, 0.5, 0.25],
            [0.0, 0.0, 0.0],
        ))
        .expect("ellipsoid"),
        ConvexPolytope::from_convex_mesh(&grid_box(13, [1.0, 2.0, 0.5], [0.0, 0.0, 0.0]))
            .expect("box"),
    ];
    let dirs: Vec<Vector> = (0..2000).map(|_| rng.direction()).collect();
    let mut checksum = 0u64;
    let before = ALLOCATIONS.with(Cell::get);
    for polytope in &polytopes {
        let mut previous = 0;
        for d in &dirs {
            checksum += u64::from(polytope.support_brute_force(d));
            let r = polytope.support_hill_climb(d, previous);
            previous = r.vertex;
            checksum += u64::from(r.vertex) + u64::from(r.visits);
            checksum += u64::from(polytope.support_from_table(d));
            checksum += u64::from(polytope.support_dk_counted(d).visits);
        }
    }
    let after = ALLOCATIONS.with(Cell::get);
    assert_eq!(after - before, 0, "queries allocated (checksum {checksum})");
    // The counter does see allocations, so zero above is meaningful.
    let v: Vec<u64> = std::hint::black_box(vec![checksum; 4]);
    assert!(ALLOCATIONS.with(Cell::get) > after && v.len() == 4);
}
