//! Warm ray casts do not allocate: after one pass over the rays (trees built, the query index
//! built, scratch grown), a second pass of `World::ray_cast` and `ray_cast_all` (into a reused
//! vector) on every broad phase, with moved objects pending, counts no allocation on this
//! thread; nor does a third after moving objects again (the index refits), nor, once warm for
//! that layout, passes after moving every object far and back (refits that degrade the index
//! rebuild it in its own buffers).

use colldet_geom::WorldAabb;
use colldet_geom::math::{PointD, Pose, VectorD};
use colldet_testkit::shapes::{sphere, torus};
use colldet_testkit::{CountingAllocator, SeededRng};
use colldet_world::{BroadPhaseKind, Config, World};
use nalgebra::Translation3;

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

#[test]
fn warm_ray_casts_do_not_allocate() {
    let mut rng = SeededRng::new(0x000a_110c);
    let rays: Vec<(PointD, VectorD)> = (0..200)
        .map(|_| {
            let o = PointD::from(rng.unit_vector().into_inner() * 30.0);
            let target = PointD::new(rng.range(-8.0, 8.0), rng.range(-8.0, 8.0), 0.0);
            (o, target - o)
        })
        .collect();
    for broad in [
        BroadPhaseKind::SweepAndPrune,
        BroadPhaseKind::DynamicTree,
        BroadPhaseKind::Grid,
    ] {
        let mut world = World::new(Config {
            threads: 1,
            broad_phase: broad,
            universe: Some(WorldAabb::new(
                PointD::new(-12.0, -12.0, -12.0),
                PointD::new(12.0, 12.0, 12.0),
            )),
            ..Config::default()
        })
        .unwrap();
        let shapes = [torus(1.0, 0.3, 16, 8).unwrap(), sphere(0.7, 12, 6).unwrap()];
        let mut ids = Vec::new();
        for k in 0..60 {
            let id = world.make_collidable(shapes[k % 2].clone(), ()).unwrap();
            ids.push(id);
            let t = VectorD::new(
                rng.range(-8.0, 8.0),
                rng.range(-8.0, 8.0),
                rng.range(-8.0, 8.0),
            );
            world
                .set_transform(id, Pose::from_parts(Translation3::from(t), rng.rotation()))
                .unwrap();
        }
        world.start().unwrap();
        world.check().unwrap();
        // Moves after the check: their boxes are recomputed by every query.
        for &id in &ids[..5] {
            let t = VectorD::new(rng.range(-8.0, 8.0), rng.range(-8.0, 8.0), 0.0);
            world
                .set_transform(id, Pose::from_parts(Translation3::from(t), rng.rotation()))
                .unwrap();
        }
        let mut hits = Vec::new();
        let pass = |world: &mut World<()>, hits: &mut Vec<_>| {
            let mut found = 0;
            for (o, d) in &rays {
                found += usize::from(world.ray_cast(o, d, f64::INFINITY).unwrap().is_some());
                world.ray_cast_all(o, d, f64::INFINITY, hits).unwrap();
            }
            found
        };
        let warm = pass(&mut world, &mut hits);
        let before = CountingAllocator::thread_allocations();
        let again = pass(&mut world, &mut hits);
        let allocations = CountingAllocator::thread_allocations() - before;
        assert_eq!(warm, again);
        assert!(warm > 20, "{broad:?}: {warm} hits");
        assert_eq!(allocations, 0, "{broad:?}");
        // Moves between queries: refits.
        let poses: Vec<Pose> = ids.iter().map(|&id| world.transform(id).unwrap()).collect();
        let before = CountingAllocator::thread_allocations();
        for &id in &ids[5..10] {
            world
                .set_transform(id, world.transform(id).unwrap())
                .unwrap();
        }
        pass(&mut world, &mut hits);
        let allocations = CountingAllocator::thread_allocations() - before;
        assert_eq!(allocations, 0, "{broad:?}: refit");
        // Every object far from its place and back: the index rebuilds from its leaves. The
        // first round grows the scratch to the new layout's needs; the second allocates nothing.
        let far_and_back = |world: &mut World<()>, hits: &mut Vec<_>| {
            let before = CountingAllocator::thread_allocations();
            for far in [true, false] {
                for (&id, pose) in ids.iter().zip(&poses) {
                    let mut pose = *pose;
                    if far {
                        pose.translation.vector *= 3.0;
                    }
                    world.set_transform(id, pose).unwrap();
                }
                pass(world, hits);
            }
            CountingAllocator::thread_allocations() - before
        };
        far_and_back(&mut world, &mut hits);
        assert_eq!(far_and_back(&mut world, &mut hits), 0, "{broad:?}: rebuild");
    }
}
