//! Warm proximity queries do not allocate: after one pass of `World::distance`,
//! `distance_approx` and `within_distance` over a sequence of poses (b approaching a, from apart into
//! penetration) for convex pairs and a mesh pair (trees built, scratch grown, the pairs' warm
//! starts made), a second pass over the same poses counts no allocation on this thread.

use colldet_geom::math::Pose;
use colldet_testkit::shapes::{ChungWangShape, chung_wang_polytope, sphere, torus};
use colldet_testkit::{CountingAllocator, SeededRng};
use colldet_world::{Config, ObjectId, World};
use nalgebra::Translation3;

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// One pass of the three queries over `poses` of `b`.
fn pass(world: &mut World<()>, (a, b): (ObjectId, ObjectId), poses: &[Pose]) -> f64 {
    let mut sum = 0.0;
    for pose in poses {
        world.set_transform(b, *pose).unwrap();
        sum += world.distance(a, b).unwrap().distance;
        sum += world.distance_approx(a, b, 0.01).unwrap().distance;
        sum += f64::from(u8::from(world.within_distance(a, b, 0.05).unwrap()));
    }
    sum
}

#[test]
fn warm_proximity_queries_do_not_allocate() {
    let mut rng = SeededRng::new(0x009A_110C);
    let mut world: World<()> = World::new(Config {
        threads: 1,
        ..Config::default()
    })
    .unwrap();
    let pairs = [
        (
            chung_wang_polytope(ChungWangShape::Ellipsoid, 12, 1).unwrap(),
            chung_wang_polytope(ChungWangShape::Rod, 300, 2).unwrap(),
        ),
        (
            chung_wang_polytope(ChungWangShape::Plate, 500, 3).unwrap(),
            chung_wang_polytope(ChungWangShape::Ellipsoid, 100, 4).unwrap(),
        ),
        (
            torus(1.0, 0.3, 24, 12).unwrap(),
            sphere(0.7, 12, 6).unwrap(),
        ),
    ];
    let mut cases = Vec::new();
    for (ma, mb) in pairs {
        let a = world.make_collidable(ma, ()).unwrap();
        let b = world.make_collidable(mb, ()).unwrap();
        let dir = rng.unit_vector().into_inner();
        let poses: Vec<Pose> = (0..60)
            .map(|k| {
                let r = 3.0 - 0.05 * f64::from(k);
                Pose::from_parts(Translation3::from(dir * r), rng.rotation())
            })
            .collect();
        cases.push(((a, b), poses));
    }
    let mut first = 0.0;
    for (pair, poses) in &cases {
        first += pass(&mut world, *pair, poses);
    }
    let before = CountingAllocator::thread_allocations();
    let mut second = 0.0;
    for (pair, poses) in &cases {
        second += pass(&mut world, *pair, poses);
    }
    let allocations = CountingAllocator::thread_allocations() - before;
    assert_eq!(allocations, 0);
    assert!(first > 0.0 && second > 0.0);
}
