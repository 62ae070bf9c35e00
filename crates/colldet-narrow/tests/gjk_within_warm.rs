//! Warm tolerance verification (`gjk_within_distance` with a cache that only tolerance queries
//! update): on coherent sequences of polytope pairs (b circling a while it turns, from well apart
//! down into penetration and back), every warm answer equals `d <= tolerance` with `d` a cold
//! `gjk_distance` of the same pose, for tolerances away from GJK's accuracy of `d`: 0, half and
//! twice `d`, and `d (1 -+ 1e-6)`.
//!
//! The tolerance kinds come in runs of 1 to 20 steps, so the cache's certificates ("no" along the
//! last direction, the last simplex) are used long after the last full GJK run moved them, and
//! alternate between yes-first and no-first orders. The same sequence runs through
//! `gjk_within_distance_coherent` with a `DistanceCertificate` that only its tolerance queries
//! record (the bounds carried from poses up to many steps back), with the same expectation.

use colldet_geom::ConvexPolytope;
use colldet_geom::math::Pose;
use colldet_narrow::{
    DistanceCertificate, GjkCache, gjk_distance, gjk_within_distance, gjk_within_distance_coherent,
    touching_tolerance,
};
use colldet_testkit::SeededRng;
use colldet_testkit::shapes::{ChungWangShape, chung_wang_polytope};
use nalgebra::{Translation3, UnitQuaternion};

const STEPS: usize = 400;

fn polytope(shape: ChungWangShape, n: usize, seed: u64) -> ConvexPolytope {
    ConvexPolytope::from_convex_mesh(&chung_wang_polytope(shape, n, seed).unwrap()).unwrap()
}

/// Counts of the answers checked, to show both kinds were exercised.
#[derive(Default, Debug)]
struct Tally {
    yes: usize,
    no: usize,
}

fn sequence(a: &ConvexPolytope, b: &ConvexPolytope, rng: &mut SeededRng, tally: &mut Tally) {
    let size = f64::from(a.radius() + b.radius());
    let band = touching_tolerance(a, b);
    let (dir, axis, spin) = (rng.unit_vector(), rng.unit_vector(), rng.unit_vector());
    let rot0 = rng.rotation();
    let mut warm = GjkCache::new();
    let (mut coherent, mut certificate) = (GjkCache::new(), DistanceCertificate::new());
    let mut kind = 0;
    let mut run_left = 0;
    for step in 0..STEPS {
        // Centre distance from 1.1 size down to 0.4 size and back, turning slowly.
        let phase = step as f64 / STEPS as f64;
        let r = size * (0.75 + 0.35 * (std::f64::consts::TAU * phase).cos());
        let d = UnitQuaternion::from_axis_angle(&axis, 0.6 * phase) * dir.into_inner();
        let rot = UnitQuaternion::from_axis_angle(&spin, 1.5 * phase) * rot0;
        let pose = Pose::from_parts(Translation3::from(d * r), rot);
        let exact = gjk_distance(a, b, &pose, &mut GjkCache::new()).unwrap();
        if run_left == 0 {
            kind = rng.index(5);
            run_left = 1 + rng.index(20);
        }
        run_left -= 1;
        let dist = exact.distance;
        if dist <= band {
            // In contact: every tolerance answers yes.
            assert!(gjk_within_distance(a, b, &pose, 0.01 * size, &mut warm).unwrap());
            assert!(
                gjk_within_distance_coherent(
                    a,
                    b,
                    &pose,
                    0.01 * size,
                    &mut coherent,
                    &mut certificate
                )
                .unwrap()
            );
            tally.yes += 1;
            continue;
        }
        let margin = 1e-6 * dist;
        let tolerance = [0.0, 0.5 * dist, dist - margin, dist + margin, 2.0 * dist][kind];
        let answer = gjk_within_distance(a, b, &pose, tolerance, &mut warm).unwrap();
        assert_eq!(
            answer,
            dist <= tolerance,
            "step {step}: within {tolerance}, distance {dist}"
        );
        let certified =
            gjk_within_distance_coherent(a, b, &pose, tolerance, &mut coherent, &mut certificate)
                .unwrap();
        assert_eq!(
            certified,
            dist <= tolerance,
            "step {step}: certified within {tolerance}, distance {dist}"
        );
        if answer {
            tally.yes += 1;
        } else {
            tally.no += 1;
        }
    }
}

#[test]
fn warm_tolerance_answers_equal_the_cold_distance_comparison() {
    let mut rng = SeededRng::new(0x70_1E2A);
    let mut tally = Tally::default();
    for (shape, n) in [
        (ChungWangShape::Ellipsoid, 12),
        (ChungWangShape::Ellipsoid, 100),
        (ChungWangShape::Ellipsoid, 500),
        (ChungWangShape::Rod, 60),
        (ChungWangShape::Plate, 200),
    ] {
        for _ in 0..3 {
            let a = polytope(shape, n, rng.next_u64());
            let b = polytope(shape, n, rng.next_u64());
            sequence(&a, &b, &mut rng, &mut tally);
        }
    }
    println!("{tally:?}");
    assert!(tally.yes > 1000 && tally.no > 1000, "{tally:?}");
}
