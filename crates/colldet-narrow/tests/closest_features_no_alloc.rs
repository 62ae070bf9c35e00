//! Closest-feature queries must not allocate after warm-up: a counting global allocator observes a
//! burst of queries (disjoint, touching, penetrating; warm-started and cold) on this thread.

mod common;

use colldet_geom::math::{Isometry, VectorD};
use colldet_geom::{BuildOptions, Polyhedron};
use colldet_narrow::{ClosestFeatures, FeaturePairCache, closest_features};
use colldet_testkit::CountingAllocator;
use colldet_testkit::shapes::{ChungWangShape, chung_wang_polytope, cuboid};
use common::{NarrowDraws, SplitMix64, to_iso};
use nalgebra::Translation3;

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// Runs every query once, resetting its pair's cache before every fourth query (cold starts), and
/// counts the outcomes `[disjoint, touching, penetrating]`.
fn burst(
    queries: &[(&Polyhedron, &Polyhedron, Isometry, usize)],
    caches: &mut [FeaturePairCache],
) -> [u32; 3] {
    let mut counts = [0; 3];
    for (k, (a, b, pos12, pair)) in queries.iter().enumerate() {
        let cache = &mut caches[*pair];
        if k % 4 == 0 {
            cache.reset();
        }
        match closest_features(a, b, pos12, cache).expect("query") {
            ClosestFeatures::Disjoint { .. } => counts[0] += 1,
            ClosestFeatures::Touching { .. } => counts[1] += 1,
            ClosestFeatures::Penetrating { .. } => counts[2] += 1,
        }
    }
    counts
}

#[test]
fn queries_do_not_allocate_after_warm_up() {
    let options = BuildOptions::default();
    let ellipsoid = Polyhedron::build(
        chung_wang_polytope(ChungWangShape::Ellipsoid, 400, 3).unwrap(),
        &options,
    )
    .unwrap();
    let cube = Polyhedron::build(cuboid(VectorD::new(0.5, 0.5, 0.5)).unwrap(), &options).unwrap();
    let mut rng = SplitMix64(0xa110c);
    let mut queries: Vec<(&Polyhedron, &Polyhedron, Isometry, usize)> = (0..400)
        .map(|_| {
            let rot = rng.rotation();
            let dir = rng.unit_vector();
            let pos12 = to_iso(&rot, &(dir * (2.0 * rng.next_f64().cbrt())));
            (&ellipsoid, &cube, pos12, 0)
        })
        .collect();
    // Two cubes in face contact (gap 0: inside the touching band).
    for k in 0..20 {
        let pos12 = Isometry::from_parts(
            Translation3::new(1.0, 0.01 * k as f32, -0.2),
            nalgebra::UnitQuaternion::identity(),
        );
        queries.push((&cube, &cube, pos12, 1));
    }
    let mut caches = [FeaturePairCache::new(), FeaturePairCache::new()];
    let warm_up = burst(&queries, &mut caches);
    let before = CountingAllocator::thread_allocations();
    let measured = burst(&queries, &mut caches);
    let after = CountingAllocator::thread_allocations();
    assert_eq!(
        after - before,
        0,
        "queries allocated (outcomes {measured:?})"
    );
    assert_eq!(warm_up, measured);
    assert!(
        measured.iter().all(|&c| c > 0),
        "every outcome exercised: {measured:?}"
    );
    // The counter does see allocations, so zero above is meaningful.
    let v: Vec<u32> = std::hint::black_box(measured.to_vec());
    assert!(CountingAllocator::thread_allocations() > after && v.len() == 3);
}
