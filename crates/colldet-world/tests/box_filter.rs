//! The world's bounding-box filter (the Chung-Wang pre-test run before a pair's exact test) with known
//! answers: two long rods side by side along a diagonal, whose world boxes overlap widely, at
//! gaps above and below the touching band.

use colldet_geom::math::{Pose, VectorD};
use colldet_testkit::shapes::cuboid;
use colldet_world::{Config, Method, World};
use nalgebra::{Translation3, UnitQuaternion};

/// Rod half length and half thickness (the thickness as its `f32` vertices hold it).
const HALF_LENGTH: f64 = 5.0;
const HALF_THICKNESS: f32 = 0.1;

/// A world with two rods along `(1, 1, 0)`, the second offset along `(-1, 1, 0)` so that the
/// faces facing each other are `gap` apart. The boxes are cuboids: `Method::SeparatingVector`
/// gives them the Chung-Wang test (under `Auto` they would get the box-box test).
fn rods(gap: f64) -> (World<()>, [colldet_world::ObjectId; 2]) {
    let mut world = World::new(Config {
        threads: 1,
        broad_phase: colldet_world::BroadPhaseKind::AllPairs,
        method: Method::SeparatingVector,
        ..Config::default()
    })
    .unwrap();
    let half = VectorD::new(HALF_LENGTH, f64::from(HALF_THICKNESS), 0.1);
    let a = world.make_collidable(cuboid(half).unwrap(), ()).unwrap();
    let b = world.make_collidable(cuboid(half).unwrap(), ()).unwrap();
    world.start().unwrap();
    place(&mut world, [a, b], gap, 0.0);
    (world, [a, b])
}

/// Places the rods `gap` apart, both shifted by `shift` along their length.
fn place(world: &mut World<()>, [a, b]: [colldet_world::ObjectId; 2], gap: f64, shift: f64) {
    let turn = UnitQuaternion::from_axis_angle(&VectorD::z_axis(), std::f64::consts::FRAC_PI_4);
    let along = turn * VectorD::x();
    let across = turn * VectorD::y();
    let distance = 2.0 * f64::from(HALF_THICKNESS) + gap;
    let pose = |p: VectorD| Pose::from_parts(Translation3::from(p), turn);
    world.set_transform(a, pose(along * shift)).unwrap();
    world
        .set_transform(b, pose(along * shift + across * distance))
        .unwrap();
}

/// The touching band of the pair: `TOUCHING_TOLERANCE_FACTOR` times the radii's sum (about 1e-8
/// here).
fn band() -> f64 {
    colldet_narrow::gjk::TOUCHING_TOLERANCE_FACTOR * 2.0 * HALF_LENGTH
}

#[test]
fn rods_apart_by_more_than_the_band_are_filtered_without_a_test() {
    for gap in [0.3, 1e-3, 10.0 * band()] {
        let (mut world, _) = rods(gap);
        assert_eq!(world.check().unwrap(), 0, "gap {gap}");
        let stats = world.stats();
        assert_eq!(stats.overlapping_pairs, 1, "the world boxes overlap");
        assert_eq!(stats.box_filtered_pairs, 1, "gap {gap}");
        assert_eq!(stats.tested_pairs, 0);
        assert_eq!(stats.sv_queries, 0);
    }
}

#[test]
fn rods_within_the_band_or_overlapping_go_to_the_exact_test() {
    for (gap, colliding) in [
        (0.1 * band(), false),
        (0.0, true),
        (-1e-3, true),
        (-0.1, true),
    ] {
        let (mut world, ids) = rods(gap);
        // Inside the band the filter cannot decide; the exact test does (1e-9 apart: separated).
        assert_eq!(world.check().unwrap(), usize::from(colliding), "gap {gap}");
        let stats = world.stats();
        assert_eq!(stats.box_filtered_pairs, 0, "gap {gap}");
        assert_eq!(stats.tested_pairs, 1);
        if colliding {
            assert_eq!(world.last_collisions(), [(ids[0], ids[1])]);
        }
    }
}

#[test]
fn overlapping_boxes_skip_the_filter_once_then_it_runs_again() {
    let (mut world, ids) = rods(-1e-3);
    // Check 1: the filter runs and finds the boxes overlapping.
    assert_eq!(world.check().unwrap(), 1);
    assert_eq!(world.stats().tested_pairs, 1);
    // Check 2: moved apart; the filter is skipped this once, the exact test says separated.
    place(&mut world, ids, 1e-3, 0.5);
    assert_eq!(world.check().unwrap(), 0);
    assert_eq!(world.stats().box_filtered_pairs, 0);
    assert_eq!(world.stats().tested_pairs, 1);
    assert_eq!(world.stats().sv_separated, 1);
    // Check 3: the filter runs again and decides.
    place(&mut world, ids, 1e-3, 0.25);
    assert_eq!(world.check().unwrap(), 0);
    assert_eq!(world.stats().box_filtered_pairs, 1);
    assert_eq!(world.stats().tested_pairs, 0);
    // Check 4: still apart, the filter decides again (no skip after a separation).
    place(&mut world, ids, 1e-3, 0.0);
    assert_eq!(world.check().unwrap(), 0);
    assert_eq!(world.stats().box_filtered_pairs, 1);
    // Check 5: back in contact: the filter finds the overlap and the test the collision.
    place(&mut world, ids, 0.0, 0.0);
    assert_eq!(world.check().unwrap(), 1);
    assert_eq!(world.stats().box_filtered_pairs, 0);
}
