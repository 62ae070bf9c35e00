//! The proximity queries' per-pair warm starts: on coherent sequences (a pair stepping in small
//! moves from apart, through touching, into penetration), every warm query of the world answers
//! as a cold query of the same configuration does, within the accuracy the queries state.
//!
//! The cold answer comes from fresh instances of the same two shapes at the same poses (new ids:
//! no entry in the world's table; removing them drops theirs). Per step, `s = r_a + r_b + |t_ab|`
//! (radii about the local origins, `t_ab` the distance between the origins):
//! - two convex objects, both separated by more than the touching band (`1e-9 (r_a + r_b)`):
//!   distances within twice GJK's stated accuracy `1e-10 d + 1e-12 s`; both penetrating beyond
//!   the band: depths within twice EPA's `1e-9` relative plus that noise; otherwise (one of them in
//!   the band) within twice the band;
//! - other pairs: the tree distance is an exact minimum, so equal up to rounding (`1e-12 s`);
//! - `within_distance` at tolerances away from GJK's accuracy of the distance (0, the distance
//!   `(1 -+ 1e-6)` or `-+ 1e-9 s`, half and twice it): warm answer == cold answer == `distance <=
//!   tolerance`;
//! - `distance_approx` with a 1% bound: inside `[d, 1.01 d]` of the cold exact distance (with
//!   GJK's accuracy);
//! - the reversed query `(b, a)`, its own entry: the same distance.

use colldet_geom::MeshData;
use colldet_geom::math::Pose;
use colldet_testkit::SeededRng;
use colldet_testkit::shapes::{ChungWangShape, chung_wang_polytope, cone, sphere, torus};
use colldet_world::{Config, ObjectId, World};
use nalgebra::{Translation3, UnitQuaternion};

/// Steps of one coherent sequence.
const STEPS: usize = 100;

fn radius(mesh: &MeshData) -> f64 {
    (0..mesh.vertices.len())
        .map(|i| mesh.vertex_f64(i).coords.norm())
        .fold(0.0, f64::max)
}

/// One coherent sequence of b's poses: b starts `1.25 (r_a + r_b)` from a along a random
/// direction and approaches to `0.25 (r_a + r_b)` in equal steps while turning by small random
/// rotations (about `0.01` rad per step).
fn sequence(rng: &mut SeededRng, pose_a: &Pose, size: f64) -> Vec<Pose> {
    let dir = rng.unit_vector().into_inner();
    let spin = rng.unit_vector();
    let mut rot = rng.rotation();
    (0..STEPS)
        .map(|k| {
            let r = size * (1.25 - k as f64 / STEPS as f64);
            rot = UnitQuaternion::from_axis_angle(&spin, rng.range(0.005, 0.015)) * rot;
            *pose_a * Pose::from_parts(Translation3::from(dir * r), rot)
        })
        .collect()
}

/// `query` on fresh instances of `a` and `b` at `pose_a`, `pose_b` (no warm start), removed
/// after.
fn cold<T>(
    world: &mut World<()>,
    (a, b): (ObjectId, ObjectId),
    (pose_a, pose_b): (&Pose, &Pose),
    query: impl FnOnce(&mut World<()>, ObjectId, ObjectId) -> T,
) -> T {
    let ca = world.make_instance(a, ()).unwrap();
    let cb = world.make_instance(b, ()).unwrap();
    world.set_transform(ca, *pose_a).unwrap();
    world.set_transform(cb, *pose_b).unwrap();
    let answer = query(world, ca, cb);
    world.remove(ca).unwrap();
    world.remove(cb).unwrap();
    answer
}

/// What the sequences of one kind of pair saw.
#[derive(Default, Debug)]
struct Tally {
    separated: usize,
    penetrating: usize,
    largest_relative_gap: f64,
}

/// Runs one sequence of `a` and `b` (placed in `world`), checking every warm answer against the
/// cold one.
fn check_sequence(
    world: &mut World<()>,
    (a, b): (ObjectId, ObjectId),
    (ra, rb): (f64, f64),
    convex: bool,
    rng: &mut SeededRng,
    tally: &mut Tally,
    label: &str,
) {
    let pose_a = Pose::from_parts(
        Translation3::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0), 0.0),
        rng.rotation(),
    );
    world.set_transform(a, pose_a).unwrap();
    let band = 1e-9 * (ra + rb);
    for (step, pose_b) in sequence(rng, &pose_a, ra + rb).iter().enumerate() {
        let label = format!("{label} step {step}");
        world.set_transform(b, *pose_b).unwrap();
        let s = ra + rb + (pose_b.translation.vector - pose_a.translation.vector).norm();
        let warm = world.distance(a, b).unwrap();
        let cold_d = cold(world, (a, b), (&pose_a, pose_b), |w, x, y| {
            w.distance(x, y).unwrap()
        });
        let (dw, dc) = (warm.distance, cold_d.distance);
        let allowed = if !convex {
            1e-12 * s
        } else if dw > band && dc > band {
            tally.separated += 1;
            2.0 * (1e-10 * dc + 1e-12 * s)
        } else if dw < -band && dc < -band {
            tally.penetrating += 1;
            2.0 * (1e-9 * -dc + 1e-12 * s)
        } else {
            2.0 * band + 2e-12 * s
        };
        assert!(
            (dw - dc).abs() <= allowed,
            "{label}: warm {dw} cold {dc} (allowed {allowed})"
        );
        if dc.abs() > band {
            tally.largest_relative_gap = tally.largest_relative_gap.max((dw - dc).abs() / dc.abs());
        }
        if !convex && dc > 0.0 {
            tally.separated += 1;
        }
        // Tolerance answers: every other step, so that distance and tolerance queries alternate
        // on the pair's warm start.
        if step % 2 == 0 && dc > band {
            let margin = (1e-6 * dc).max(1e-9 * s);
            for t in [0.0, dc - margin, dc + margin, 0.5 * dc, 2.0 * dc] {
                let t = t.max(0.0);
                let warm_within = world.within_distance(a, b, t).unwrap();
                let cold_within = cold(world, (a, b), (&pose_a, pose_b), |w, x, y| {
                    w.within_distance(x, y, t).unwrap()
                });
                assert_eq!(warm_within, cold_within, "{label}: within {t} (d {dc})");
                assert_eq!(warm_within, dc <= t, "{label}: within {t} (d {dc})");
            }
        }
        if step % 3 == 0 && dc > band {
            let approx = world.distance_approx(a, b, 0.01).unwrap().distance;
            let slack = 1e-10 * dc + 1e-12 * s;
            assert!(
                dc - 2.0 * slack <= approx && approx <= 1.01 * dc + 2.0 * slack,
                "{label}: approx {approx}, exact {dc}"
            );
        }
        if step % 10 == 5 {
            let reversed = world.distance(b, a).unwrap().distance;
            assert!(
                (reversed - dc).abs() <= allowed.max(2.0 * band + 2e-12 * s),
                "{label}: reversed {reversed}, cold {dc}"
            );
        }
    }
}

#[test]
fn warm_convex_queries_answer_as_cold_ones() {
    let mut rng = SeededRng::new(0x9CAC4E);
    let mut tally = Tally::default();
    for case in 0..24 {
        let mut world: World<()> = World::new(Config::default()).unwrap();
        let hull = |rng: &mut SeededRng| {
            let kind = ChungWangShape::ALL[rng.index(3)];
            let n = [12, 40, 100, 300][rng.index(4)];
            chung_wang_polytope(kind, n, rng.next_u64()).unwrap()
        };
        let (ma, mb) = (hull(&mut rng), hull(&mut rng));
        let radii = (radius(&ma), radius(&mb));
        let a = world.make_collidable(ma, ()).unwrap();
        let b = world.make_collidable(mb, ()).unwrap();
        check_sequence(
            &mut world,
            (a, b),
            radii,
            true,
            &mut rng,
            &mut tally,
            &format!("convex case {case}"),
        );
    }
    // The sequences cover both sides of the touching band.
    assert!(tally.separated > 1000, "{tally:?}");
    assert!(tally.penetrating > 300, "{tally:?}");
}

#[test]
fn warm_mesh_queries_answer_as_cold_ones() {
    let mut rng = SeededRng::new(0x9CAC4F);
    let meshes = [
        torus(1.0, 0.3, 24, 12).unwrap(),
        sphere(0.7, 12, 6).unwrap(),
        cone(0.6, 1.2, 16).unwrap(),
    ];
    let mut tally = Tally::default();
    for case in 0..6 {
        let mut world: World<()> = World::new(Config::default()).unwrap();
        // At least one object of each pair is not convex (the torus), so the trees answer.
        let (ma, mb) = (meshes[0].clone(), meshes[case % 3].clone());
        let radii = (radius(&ma), radius(&mb));
        let a = world.make_collidable(ma, ()).unwrap();
        let b = world.make_collidable(mb, ()).unwrap();
        check_sequence(
            &mut world,
            (a, b),
            radii,
            false,
            &mut rng,
            &mut tally,
            &format!("mesh case {case}"),
        );
    }
    assert!(tally.separated > 200, "{tally:?}");
}

#[test]
fn a_removed_objects_pairs_start_cold_for_its_successor() {
    // The slot of a removed object is reused by the next one: its queries must not start from
    // the old object's simplex (its vertex numbers name other points). The answer is checked
    // against a cold query of the same shapes.
    let mut rng = SeededRng::new(0x9CAC50);
    let mut world: World<()> = World::new(Config::default()).unwrap();
    let a = world
        .make_collidable(
            chung_wang_polytope(ChungWangShape::Ellipsoid, 100, 1).unwrap(),
            (),
        )
        .unwrap();
    let b = world
        .make_collidable(
            chung_wang_polytope(ChungWangShape::Rod, 300, 2).unwrap(),
            (),
        )
        .unwrap();
    let pose_b = Pose::from_parts(Translation3::new(2.5, 0.3, 0.1), rng.rotation());
    world.set_transform(b, pose_b).unwrap();
    world.distance(a, b).unwrap();
    world.remove(b).unwrap();
    let c = world
        .make_collidable(
            chung_wang_polytope(ChungWangShape::Plate, 40, 3).unwrap(),
            (),
        )
        .unwrap();
    world.set_transform(c, pose_b).unwrap();
    let warm = world.distance(a, c).unwrap().distance;
    let cold_d = cold(
        &mut world,
        (a, c),
        (&Pose::identity(), &pose_b),
        |w, x, y| w.distance(x, y).unwrap().distance,
    );
    assert!(warm > 0.0);
    assert!((warm - cold_d).abs() <= 2.0 * (1e-10 * cold_d + 1e-12 * 10.0));
}

/// Tolerance answers carried on both objects' world poses (`carried_bounds.rs`): both objects
/// move by small steps (turns of up to 0.02 rad, shifts of up to 1% of the pair's size, now one
/// object, now the other, now both), from apart into contact and back, with long runs of
/// tolerance queries of one kind between the distance queries that record fresh bounds; every
/// answer equals `d <= tolerance` for the cold distance `d` of the same poses, at tolerances away
/// from GJK's accuracy of `d` (0, half and twice `d`, `d (1 -+ 1e-6)`).
#[test]
fn tolerance_answers_carried_on_both_moving_objects_equal_the_cold_comparison() {
    let mut rng = SeededRng::new(0x9CAC51);
    let (mut yes, mut no) = (0, 0);
    for case in 0..6 {
        let mut world: World<()> = World::new(Config::default()).unwrap();
        let n = [12, 40, 200][case % 3];
        let (ma, mb) = (
            chung_wang_polytope(ChungWangShape::Ellipsoid, n, rng.next_u64()).unwrap(),
            chung_wang_polytope(ChungWangShape::ALL[case % 3], n, rng.next_u64()).unwrap(),
        );
        let size = radius(&ma) + radius(&mb);
        let a = world.make_collidable(ma, ()).unwrap();
        let b = world.make_collidable(mb, ()).unwrap();
        let dir = rng.unit_vector().into_inner();
        let mut pose_a = Pose::from_parts(Translation3::new(5.0, -3.0, 1.0), rng.rotation());
        let mut rot_b = rng.rotation();
        let (mut kind, mut run_left) = (0, 0);
        for step in 0..300 {
            // b's centre from 1.2 size down to 0.5 size (contact) and back, around a's.
            let phase = step as f64 / 300.0;
            let r = size * (0.85 + 0.35 * (std::f64::consts::TAU * phase).cos());
            let nudge = |rng: &mut SeededRng, rot: UnitQuaternion<f64>| {
                UnitQuaternion::from_scaled_axis(
                    rng.unit_vector().into_inner() * rng.range(0.0, 0.02),
                ) * rot
            };
            match step % 3 {
                0 => rot_b = nudge(&mut rng, rot_b),
                1 => {
                    let shift = rng.unit_vector().into_inner() * rng.range(0.0, 0.01 * size);
                    pose_a = Pose::from_parts(
                        Translation3::from(pose_a.translation.vector + shift),
                        nudge(&mut rng, pose_a.rotation),
                    );
                }
                _ => {
                    rot_b = nudge(&mut rng, rot_b);
                    pose_a.rotation = nudge(&mut rng, pose_a.rotation);
                }
            }
            let pose_b = Pose::from_parts(
                Translation3::from(pose_a.translation.vector + dir * r),
                rot_b,
            );
            world.set_transform(a, pose_a).unwrap();
            world.set_transform(b, pose_b).unwrap();
            let d = cold(&mut world, (a, b), (&pose_a, &pose_b), |w, x, y| {
                w.distance(x, y).unwrap().distance
            });
            let label = format!("case {case} step {step}");
            if step % 25 == 0 {
                // A distance now and then: fresh bounds recorded at these poses.
                let warm = world.distance(a, b).unwrap().distance;
                let s = size + pose_a.translation.vector.norm() + pose_b.translation.vector.norm();
                assert!((warm - d).abs() <= 2e-9 * size + 2e-12 * s, "{label}");
            }
            if run_left == 0 {
                kind = rng.index(5);
                run_left = 1 + rng.index(20);
            }
            run_left -= 1;
            if d <= 1e-9 * size {
                // In contact: every tolerance answers yes.
                assert!(world.within_distance(a, b, 0.01 * size).unwrap(), "{label}");
                yes += 1;
                continue;
            }
            let margin = 1e-6 * d;
            let tolerance = [0.0, 0.5 * d, d - margin, d + margin, 2.0 * d][kind];
            let answer = world.within_distance(a, b, tolerance).unwrap();
            assert_eq!(answer, d <= tolerance, "{label}: within {tolerance}, d {d}");
            if answer {
                yes += 1;
            } else {
                no += 1;
            }
        }
    }
    assert!(yes > 300 && no > 300, "yes {yes}, no {no}");
}
