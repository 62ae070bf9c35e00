//! Mesh BVH queries must not allocate once their workspace has grown: a counting global
//! allocator observes a burst of intersection (first and all contacts) and distance queries on
//! this thread after a warm-up pass over the same poses, and must see zero allocations.

mod common;

use colldet_geom::math::Isometry;
use colldet_geom::{Aabb, Obb};
use colldet_narrow::mesh::bvh::{
    BvhBuildOptions, BvhVolume, ContactReport, MeshBvh, MeshDistanceCache, MeshIntersectionOptions,
    MeshQueryWorkspace, mesh_distance, mesh_surfaces_intersect,
};
use colldet_testkit::CountingAllocator;
use colldet_testkit::shapes::{sphere, torus};
use common::{NarrowDraws, SplitMix64, to_iso};

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// Runs every query kind on every pose; returns a checksum of the answers.
fn burst<V: BvhVolume>(
    b1: &MeshBvh<V>,
    b2: &MeshBvh<V>,
    poses: &[Isometry],
    ws: &mut MeshQueryWorkspace,
    cache: &mut MeshDistanceCache,
) -> (u64, f64) {
    let all = MeshIntersectionOptions {
        report: ContactReport::All,
    };
    let (mut hits, mut dist) = (0u64, 0.0);
    for pose in poses {
        if mesh_surfaces_intersect(b1, b2, pose, &Default::default(), ws).unwrap() {
            hits += 1;
        }
        mesh_surfaces_intersect(b1, b2, pose, &all, ws).unwrap();
        hits += ws.hits().len() as u64;
        dist += mesh_distance(b1, b2, pose, &Default::default(), cache, ws)
            .unwrap()
            .distance;
    }
    (hits, dist)
}

fn check<V: BvhVolume>() {
    let b1 = MeshBvh::<V>::build(
        &torus(1.0, 0.3, 40, 20).unwrap(),
        &BvhBuildOptions::default(),
    )
    .unwrap();
    let b2 =
        MeshBvh::<V>::build(&sphere(0.8, 30, 20).unwrap(), &BvhBuildOptions::default()).unwrap();
    let mut rng = SplitMix64(0xa110c);
    let poses: Vec<Isometry> = (0..300)
        .map(|_| to_iso(&rng.rotation(), &(rng.unit_vector() * rng.range(0.0, 2.5))))
        .collect();
    let mut ws = MeshQueryWorkspace::new();
    let mut cache = MeshDistanceCache::new();
    let warm = burst(&b1, &b2, &poses, &mut ws, &mut cache);
    let before = CountingAllocator::thread_allocations();
    let again = burst(&b1, &b2, &poses, &mut ws, &mut cache);
    let after = CountingAllocator::thread_allocations();
    assert_eq!(after - before, 0, "{} queries allocated", V::NAME);
    // Same answers both times, and both answers occur.
    assert_eq!(warm, again);
    assert!(warm.0 > 0 && warm.1 > 0.0);
    // The counter does see allocations, so zero above is meaningful.
    let v: Vec<u64> = std::hint::black_box(vec![warm.0; 4]);
    assert!(CountingAllocator::thread_allocations() > after && v.len() == 4);
}

#[test]
fn queries_do_not_allocate() {
    check::<Aabb>();
    check::<Obb>();
}
