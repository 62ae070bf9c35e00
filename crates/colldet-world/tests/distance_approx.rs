//! `World::distance_approx`: on seeded separated pairs of convex hulls and of non-convex meshes,
//! the approximate distance lies within its bound of the exact one (`World::distance`), its
//! points are that far apart and on the objects' side of each other, and bad bounds are refused.

use colldet_geom::MeshData;
use colldet_geom::math::Pose;
use colldet_testkit::SeededRng;
use colldet_testkit::shapes::{ChungWangShape, chung_wang_polytope, cone, sphere, torus};
use colldet_world::{Config, World, WorldError};
use nalgebra::Translation3;

fn random_pose(rng: &mut SeededRng, spread: f64) -> Pose {
    let t = Translation3::new(
        rng.range(-spread, spread),
        rng.range(-spread, spread),
        rng.range(-spread, spread),
    );
    Pose::from_parts(t, rng.rotation())
}

fn meshes(rng: &mut SeededRng) -> Vec<MeshData> {
    let mut out = vec![
        torus(1.0, 0.3, 24, 12).unwrap(),
        sphere(0.7, 12, 6).unwrap(),
        cone(0.6, 1.2, 16).unwrap(),
    ];
    for kind in [
        ChungWangShape::Ellipsoid,
        ChungWangShape::Rod,
        ChungWangShape::Plate,
    ] {
        for n in [12, 100, 500] {
            out.push(chung_wang_polytope(kind, n, rng.next_u64()).unwrap());
        }
    }
    out
}

#[test]
fn approximate_distances_lie_within_their_bound() {
    let mut rng = SeededRng::new(0xA99_0C5);
    let pool = meshes(&mut rng);
    let mut separated = 0;
    // Answers that used their slack: the early stop does happen.
    let mut loose = 0;
    for case in 0..300 {
        let (ia, ib) = (rng.index(pool.len()), rng.index(pool.len()));
        let mut world: World<()> = World::new(Config::default()).unwrap();
        let a = world.make_collidable(pool[ia].clone(), ()).unwrap();
        let b = world.make_collidable(pool[ib].clone(), ()).unwrap();
        let (pose_a, pose_b) = (random_pose(&mut rng, 1.0), random_pose(&mut rng, 4.0));
        world.set_transform(a, pose_a).unwrap();
        world.set_transform(b, pose_b).unwrap();
        let exact = world.distance(a, b).unwrap();
        for rel in [0.0, 1e-6, 1e-3, 0.05, 0.5] {
            // Each bound on a fresh pair of instances: a query of (a, b) would start from the
            // exact query's converged simplex and answer exactly (the world's warm start).
            let ia = world.make_instance(a, ()).unwrap();
            let ib = world.make_instance(b, ()).unwrap();
            world.set_transform(ia, pose_a).unwrap();
            world.set_transform(ib, pose_b).unwrap();
            let approx = world.distance_approx(ia, ib, rel).unwrap();
            world.remove(ia).unwrap();
            world.remove(ib).unwrap();
            if exact.distance <= 0.0 {
                assert_eq!(approx, exact, "case {case}: contacts are answered exactly");
                continue;
            }
            let d = approx.distance;
            // GJK's own accuracy (1e-10 relative) on top of the bound.
            let (lo, hi) = (
                exact.distance * (1.0 - 1e-9),
                exact.distance * (1.0 + rel) * (1.0 + 1e-9),
            );
            assert!(
                lo <= d && d <= hi,
                "case {case} rel {rel}: {d} not in [{lo}, {hi}]"
            );
            loose += usize::from(d > exact.distance * (1.0 + 1e-6));
            let gap = (approx.point_b - approx.point_a).norm();
            assert!(
                (gap - d).abs() <= 1e-9 * d.max(1.0),
                "case {case}: points {gap} apart, distance {d}"
            );
        }
        separated += usize::from(exact.distance > 0.0);
    }
    assert!(separated > 150, "{separated}");
    assert!(loose > 20, "{loose}");
}

#[test]
fn bad_bounds_are_refused() {
    let mut world: World<()> = World::new(Config::default()).unwrap();
    let a = world
        .make_collidable(sphere(0.5, 8, 4).unwrap(), ())
        .unwrap();
    let b = world
        .make_collidable(sphere(0.5, 8, 4).unwrap(), ())
        .unwrap();
    world
        .set_transform(b, Pose::translation(3.0, 0.0, 0.0))
        .unwrap();
    for bad in [-1e-3, f64::NAN, -f64::INFINITY] {
        assert!(matches!(
            world.distance_approx(a, b, bad),
            Err(WorldError::InvalidArgument(_))
        ));
    }
    let far = world.distance_approx(a, b, f64::INFINITY).unwrap();
    assert!(far.distance >= world.distance(a, b).unwrap().distance);
    assert!(matches!(
        world.distance_approx(a, a, 0.1),
        Err(WorldError::SameObject)
    ));
}
