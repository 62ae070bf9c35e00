//! Support queries must not allocate: a counting global allocator observes a burst of queries of
//! every kind on this thread and must see zero allocations.

mod common;

use colldet_geom::ConvexPolytope;
use colldet_geom::math::Vector;
use colldet_testkit::CountingAllocator;
use common::{SplitMix64, SupportDraws, grid_box, uv_ellipsoid_with_about};

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
    let before = CountingAllocator::thread_allocations();
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
    let after = CountingAllocator::thread_allocations();
    assert_eq!(after - before, 0, "queries allocated (checksum {checksum})");
    // The counter does see allocations, so zero above is meaningful.
    let v: Vec<u64> = std::hint::black_box(vec![checksum; 4]);
    assert!(CountingAllocator::thread_allocations() > after && v.len() == 4);
}
