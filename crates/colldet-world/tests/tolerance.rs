//! Tolerances in the world's check (`World::set_pair_tolerance`, `World::set_default_tolerance`,
//! `World::last_near_pairs`): against brute force on seeded random worlds, at the boundary
//! (a gap equal to the tolerance counts, one ulp more does not), per-pair overrides, changes
//! after start, removal, the callback, and bad input.
//!
//! Brute force: for every pair of a world, `World::distance` at the check's poses and the pair's
//! tolerance (`World::pair_tolerance`). A check must report as separated near pairs exactly the
//! pairs with an object moved, not colliding, and `distance <= tolerance` (each with
//! `World::distance`'s answer, bit for bit), as touching near pairs exactly its collisions of
//! pairs with a tolerance above 0, and the same collisions as a world without tolerances.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use colldet_geom::hull::convex_hull;
use colldet_geom::math::{Point, PointD, Pose, VectorD};
use colldet_geom::{FaceList, MeshData};
use colldet_testkit::SeededRng;
use colldet_testkit::shapes::{ChungWangShape, cuboid, sphere, tetra_flake, torus};
use colldet_world::{
    Config, MAX_COORDINATE, Method, NearKind, NearPair, ObjectId, World, WorldError,
};
use nalgebra::{Translation3, UnitQuaternion};

/// The shapes of the random worlds: convex polytopes (Chung-Wang's), boxes, a sphere, and
/// non-convex meshes (tori, a tetra flake), one flat square.
fn zoo(rng: &mut SeededRng) -> Vec<MeshData> {
    let mut meshes = Vec::new();
    for k in 0..3 {
        let points: Vec<Point> = ChungWangShape::ALL[k].points(40 + 30 * k, rng).unwrap();
        meshes.push(convex_hull(&points).unwrap().mesh);
    }
    meshes.push(cuboid(VectorD::new(0.5, 0.3, 0.2)).unwrap());
    meshes.push(sphere(0.4, 12, 6).unwrap());
    meshes.push(torus(0.6, 0.15, 16, 8).unwrap());
    meshes.push(tetra_flake(1, 0.6).unwrap());
    meshes.push(square(0.4));
    meshes
}

/// A flat square of half side `h` in the plane z = 0.
fn square(h: f32) -> MeshData {
    let vertices = vec![
        Point::new(-h, -h, 0.0),
        Point::new(h, -h, 0.0),
        Point::new(h, h, 0.0),
        Point::new(-h, h, 0.0),
    ];
    let mut faces = FaceList::new();
    faces.push(&[0, 1, 2, 3]);
    MeshData::new(vertices, faces)
}

fn random_pose(rng: &mut SeededRng, spread: f64) -> Pose {
    let t = VectorD::new(
        rng.range(-spread, spread),
        rng.range(-spread, spread),
        rng.range(-spread, spread),
    );
    Pose::from_parts(Translation3::from(t), rng.rotation())
}

fn world(threads: usize) -> World<usize> {
    World::new(Config {
        threads,
        ..Config::default()
    })
    .unwrap()
}

/// One random scenario: objects, their poses per frame, the default and the own tolerances.
struct Scenario {
    meshes: Vec<MeshData>,
    /// Per frame, the objects moved and their new poses (frame 0 places every object).
    frames: Vec<Vec<(usize, Pose)>>,
    default: f64,
    own: Vec<(usize, usize, f64)>,
}

fn scenario(seed: u64) -> Scenario {
    let mut rng = SeededRng::new(seed);
    let zoo = zoo(&mut rng);
    let n = 24;
    let spread = 2.2;
    let meshes: Vec<MeshData> = (0..n).map(|_| zoo[rng.index(zoo.len())].clone()).collect();
    let mut frames = vec![(0..n).map(|i| (i, random_pose(&mut rng, spread))).collect()];
    for _ in 0..3 {
        let mut moved = Vec::new();
        for i in 0..n {
            if rng.f64() < 0.3 {
                moved.push((i, random_pose(&mut rng, spread)));
            }
        }
        frames.push(moved);
    }
    let default = if seed.is_multiple_of(3) {
        0.0
    } else {
        rng.range(0.05, 0.5)
    };
    let own = (0..8usize)
        .map(|k| {
            let a = rng.index(n);
            let b = (a + 1 + rng.index(n - 1)) % n;
            // Some pairs switched to touching only, others wider than the default.
            let t = if k.is_multiple_of(3) {
                0.0
            } else {
                rng.range(0.2, 1.5)
            };
            (a, b, t)
        })
        .collect();
    Scenario {
        meshes,
        frames,
        default,
        own,
    }
}

/// Builds the scenario's world (tolerances set when `tolerances`), started.
fn build(s: &Scenario, threads: usize, tolerances: bool) -> (World<usize>, Vec<ObjectId>) {
    let mut w = world(threads);
    let ids: Vec<ObjectId> = s
        .meshes
        .iter()
        .enumerate()
        .map(|(i, m)| w.make_collidable(m.clone(), i).unwrap())
        .collect();
    if tolerances {
        w.set_default_tolerance(s.default).unwrap();
        for &(a, b, t) in &s.own {
            w.set_pair_tolerance(ids[a], ids[b], t).unwrap();
        }
    }
    w.start().unwrap();
    (w, ids)
}

/// The near pairs brute force expects after a check of `w` in which `moved` objects moved.
fn brute_force(w: &mut World<usize>, ids: &[ObjectId], moved: &BTreeSet<usize>) -> Vec<NearPair> {
    let collisions: BTreeSet<(ObjectId, ObjectId)> = w.last_collisions().iter().copied().collect();
    let mut expected = Vec::new();
    for i in 0..ids.len() {
        for j in i + 1..ids.len() {
            if !(moved.contains(&i) || moved.contains(&j)) {
                continue;
            }
            let (a, b) = if ids[i] < ids[j] {
                (ids[i], ids[j])
            } else {
                (ids[j], ids[i])
            };
            let tolerance = w.pair_tolerance(a, b).unwrap();
            if tolerance == 0.0 {
                continue;
            }
            let kind = if collisions.contains(&(a, b)) {
                NearKind::Touching
            } else {
                NearKind::Separated
            };
            let proximity = w.distance(a, b).unwrap();
            if kind == NearKind::Separated {
                if proximity.distance > tolerance {
                    continue;
                }
                assert!(
                    proximity.distance > 0.0,
                    "{a:?} {b:?} apart at {proximity:?}"
                );
            }
            expected.push((a, b, kind, tolerance, proximity));
        }
    }
    expected.sort_by_key(|e| (e.0, e.1));
    expected
        .into_iter()
        .map(|(a, b, kind, tolerance, proximity)| NearPair {
            a,
            b,
            kind,
            tolerance,
            proximity,
        })
        .collect()
}

/// Touching near pairs carry the collision point only; separated ones a cold `World::distance`'s
/// answer: the check keeps no proximity warm start, `World::distance` (the expected list) does,
/// so the distances agree within GJK's accuracy and the closest points,
/// not unique for parallel faces, are checked for their gap.
fn assert_same(got: &[NearPair], expected: &[NearPair], context: &str) {
    let keys = |l: &[NearPair]| l.iter().map(|p| (p.a, p.b, p.kind)).collect::<Vec<_>>();
    assert_eq!(keys(got), keys(expected), "{context}");
    for (g, e) in got.iter().zip(expected) {
        assert_eq!(g.tolerance, e.tolerance, "{context}");
        match g.kind {
            NearKind::Separated => {
                let (g, e) = (&g.proximity, &e.proximity);
                // 20: above r_a + r_b + |t_ab| for the objects and spreads of these scenarios.
                // Warm and cold GJK runs agree to twice its accuracy (1e-10 relative, plus
                // rounding of the pair's scale). (A UV sphere's non-planar f32 quads once let a
                // cold climb stop 2.5e-8 short of the extreme corner: 6e-7 relative here.)
                let slack = 2.0 * (1e-10 * e.distance + 1e-12 * 20.0);
                assert!(
                    (g.distance - e.distance).abs() <= slack,
                    "{context}: {g:?} vs {e:?}"
                );
                assert!(((g.point_b - g.point_a).norm() - g.distance).abs() <= slack);
            }
            NearKind::Touching => {
                assert_eq!(g.proximity.distance, 0.0, "{context}");
                assert_eq!(g.proximity.point_a, g.proximity.point_b, "{context}");
            }
        }
    }
}

#[test]
fn near_pairs_match_brute_force_at_one_and_two_threads() {
    let mut separated = 0;
    let mut touching = 0;
    for seed in 0..12u64 {
        let s = scenario(0x701e_0000 + seed);
        let (mut one, ids) = build(&s, 1, true);
        let (mut two, ids2) = build(&s, 2, true);
        let (mut plain, ids0) = build(&s, 1, false);
        for (f, frame) in s.frames.iter().enumerate() {
            for &(i, pose) in frame {
                one.set_transform(ids[i], pose).unwrap();
                two.set_transform(ids2[i], pose).unwrap();
                plain.set_transform(ids0[i], pose).unwrap();
            }
            let n0 = plain.check().unwrap();
            assert_eq!(one.check().unwrap(), n0);
            assert_eq!(two.check().unwrap(), n0);
            let context = format!("seed {seed} frame {f}");
            // Ids carry their world's tag: compare by object number (the user data).
            assert_eq!(collisions(&one), collisions(&plain), "{context}");
            assert_eq!(collisions(&two), collisions(&plain), "{context}");
            assert!(plain.last_near_pairs().is_empty(), "{context}");
            assert_eq!(numbered(&one), numbered(&two), "{context}");
            let moved: BTreeSet<usize> = frame.iter().map(|&(i, _)| i).collect();
            let expected = brute_force(&mut one, &ids, &moved);
            assert_same(one.last_near_pairs(), &expected, &context);
            separated += expected
                .iter()
                .filter(|p| p.kind == NearKind::Separated)
                .count();
            touching += expected
                .iter()
                .filter(|p| p.kind == NearKind::Touching)
                .count();
            one.validate().unwrap();
        }
    }
    // The worlds are dense enough to exercise both kinds often.
    assert!(separated > 100 && touching > 50, "{separated} {touching}");
}

/// The last check's collisions by object number.
fn collisions(w: &World<usize>) -> Vec<(usize, usize)> {
    let number = |id: ObjectId| *w.user_data(id).unwrap();
    w.last_collisions()
        .iter()
        .map(|&(a, b)| (number(a), number(b)))
        .collect()
}

/// The last check's near pairs with object numbers for ids.
fn numbered(w: &World<usize>) -> Vec<(usize, usize, NearKind, f64, String)> {
    let number = |id: ObjectId| *w.user_data(id).unwrap();
    w.last_near_pairs()
        .iter()
        .map(|p| {
            (
                number(p.a),
                number(p.b),
                p.kind,
                p.tolerance,
                format!("{:?}", p.proximity),
            )
        })
        .collect()
}

/// Two unit cubes (vertices at +-0.5, `f32` or `f64` input), b translated by `x` along x.
fn two_cubes(x: f64, precise: bool) -> (World<usize>, ObjectId, ObjectId) {
    let mesh = cuboid(VectorD::repeat(0.5)).unwrap();
    let mesh = if precise {
        let v: Vec<PointD> = (0..mesh.vertices.len())
            .map(|i| mesh.vertex_f64(i))
            .collect();
        MeshData::from_f64(v, mesh.faces.clone())
    } else {
        mesh
    };
    let mut w = world(1);
    let a = w.make_collidable(mesh.clone(), 0).unwrap();
    let b = w.make_collidable(mesh, 1).unwrap();
    w.set_transform(
        b,
        Pose::from_parts(Translation3::new(x, 0.0, 0.0), UnitQuaternion::identity()),
    )
    .unwrap();
    (w, a, b)
}

#[test]
fn a_gap_equal_to_the_tolerance_counts_and_one_ulp_more_does_not() {
    // `f32` vertices: GJK on the hulls; `f64` vertices: the mesh trees.
    for precise in [false, true] {
        for (x, tolerance) in [(1.25, 0.25), (1.0 + 1.0 / 1024.0, 1.0 / 1024.0), (3.5, 2.5)] {
            let gap = x - 1.0;
            assert_eq!(gap, tolerance, "the gap is exact");
            for (x, reported) in [(x, true), (f64::next_up(x), false)] {
                let (mut w, a, b) = two_cubes(x, precise);
                w.set_pair_tolerance(a, b, tolerance).unwrap();
                w.start().unwrap();
                assert_eq!(w.check().unwrap(), 0);
                let near = w.last_near_pairs();
                assert_eq!(near.len(), usize::from(reported), "x {x} precise {precise}");
                if reported {
                    assert_eq!(near[0].kind, NearKind::Separated);
                    assert_eq!(near[0].proximity.distance, tolerance);
                    assert_eq!(near[0].proximity.normal, VectorD::x());
                }
            }
        }
    }
}

#[test]
fn touching_pairs_are_near_pairs_of_distance_zero() {
    let (mut w, a, b) = two_cubes(1.0, false);
    w.set_default_tolerance(0.1).unwrap();
    w.start().unwrap();
    assert_eq!(w.check().unwrap(), 1);
    let near = w.last_near_pairs();
    assert_eq!(near.len(), 1);
    assert_eq!(
        (near[0].a, near[0].b, near[0].kind),
        (a, b, NearKind::Touching)
    );
    assert_eq!(near[0].proximity.distance, 0.0);
    assert_eq!(near[0].tolerance, 0.1);
}

/// Three unit cubes on the x axis with gaps 0.3 (a-b) and 0.6 (b-c).
fn three_cubes() -> (World<usize>, [ObjectId; 3]) {
    let mut w = world(1);
    let mesh = cuboid(VectorD::repeat(0.5)).unwrap();
    let ids = [0.0, 1.3, 2.9].map(|x| {
        let id = w.make_collidable(mesh.clone(), 0).unwrap();
        w.set_transform(
            id,
            Pose::from_parts(Translation3::new(x, 0.0, 0.0), UnitQuaternion::identity()),
        )
        .unwrap();
        id
    });
    (w, ids)
}

fn near_keys(w: &World<usize>) -> Vec<(ObjectId, ObjectId)> {
    w.last_near_pairs().iter().map(|p| (p.a, p.b)).collect()
}

fn move_all(w: &mut World<usize>, ids: &[ObjectId]) {
    for &id in ids {
        let pose = w.transform(id).unwrap();
        w.set_transform(id, pose).unwrap();
    }
}

#[test]
fn an_own_tolerance_overrides_the_default() {
    let (mut w, [a, b, c]) = three_cubes();
    w.set_default_tolerance(0.5).unwrap();
    w.start().unwrap();
    w.check().unwrap();
    assert_eq!(near_keys(&w), [(a, b)]);
    w.set_pair_tolerance(a, b, 0.0).unwrap();
    w.set_pair_tolerance(c, b, 1.0).unwrap();
    assert_eq!(w.pair_tolerance(a, b).unwrap(), 0.0);
    assert_eq!(w.pair_tolerance(b, c).unwrap(), 1.0);
    assert_eq!(w.pair_tolerance(a, c).unwrap(), 0.5);
    move_all(&mut w, &[a, b, c]);
    w.check().unwrap();
    assert_eq!(near_keys(&w), [(b, c)]);
    let d = w.last_near_pairs()[0].proximity.distance;
    assert!((d - 0.6).abs() < 1e-12, "{d}");
    // The default back to 0: only the own tolerance reports.
    w.set_default_tolerance(0.0).unwrap();
    move_all(&mut w, &[a, b, c]);
    w.check().unwrap();
    assert_eq!(near_keys(&w), [(b, c)]);
}

#[test]
fn a_tolerance_set_after_start_widens_the_unmoved_partner() {
    let (mut w, [a, b, _c]) = three_cubes();
    w.start().unwrap();
    w.check().unwrap();
    assert!(w.last_near_pairs().is_empty());
    // Gap 0.3; only `a` moves: `b`'s box must have grown without a move.
    w.set_pair_tolerance(a, b, 0.31).unwrap();
    move_all(&mut w, &[a]);
    w.check().unwrap();
    assert_eq!(near_keys(&w), [(a, b)]);
    // A tolerance change is not a move: nothing moved, nothing reported.
    w.set_pair_tolerance(a, b, 0.4).unwrap();
    w.check().unwrap();
    assert!(w.last_near_pairs().is_empty());
    // After a continuous check the boxes keep their growth.
    move_all(&mut w, &[b]);
    w.check_continuous().unwrap();
    move_all(&mut w, &[a]);
    w.check().unwrap();
    assert_eq!(near_keys(&w), [(a, b)]);
}

#[test]
fn removing_an_object_shrinks_its_partners_boxes() {
    let (mut w, [a, b, c]) = three_cubes();
    w.set_pair_tolerance(a, c, 10.0).unwrap();
    w.start().unwrap();
    w.check().unwrap();
    // Every pair's grown boxes overlap (a and c by 5 each).
    assert_eq!(w.stats().overlapping_pairs, 3);
    assert_eq!(near_keys(&w), [(a, c)]);
    w.remove(c).unwrap();
    move_all(&mut w, &[a, b]);
    w.check().unwrap();
    assert_eq!(w.stats().overlapping_pairs, 0);
    assert!(w.last_near_pairs().is_empty());
    // Lowering the largest own tolerance shrinks the box too.
    w.set_pair_tolerance(a, b, 4.0).unwrap();
    move_all(&mut w, &[a, b]);
    w.check().unwrap();
    assert_eq!(w.stats().overlapping_pairs, 1);
    w.set_pair_tolerance(a, b, 0.1).unwrap();
    move_all(&mut w, &[a, b]);
    w.check().unwrap();
    assert_eq!(w.stats().overlapping_pairs, 0);
}

/// What the near-pair callback saw of one pair: ids, user data, distance.
type Seen = (ObjectId, ObjectId, usize, usize, f64);

#[test]
fn the_callback_sees_the_near_pairs_in_order_and_may_move_objects() {
    let (mut w, [a, b, c]) = three_cubes();
    w.set_default_tolerance(1.0).unwrap();
    let seen: Arc<Mutex<Vec<Seen>>> = Arc::default();
    let log = Arc::clone(&seen);
    w.set_near_callback(Box::new(move |r, ctx| {
        log.lock().unwrap().push((
            r.pair.a,
            r.pair.b,
            *r.user_a,
            *r.user_b,
            r.pair.proximity.distance,
        ));
        let far = Pose::from_parts(
            Translation3::new(50.0, 0.0, 0.0),
            UnitQuaternion::identity(),
        );
        ctx.set_transform(r.pair.b, far).unwrap();
    }));
    w.start().unwrap();
    w.check().unwrap();
    let got: Vec<_> = seen.lock().unwrap().iter().map(|e| (e.0, e.1)).collect();
    assert_eq!(got, [(a, b), (b, c)]);
    assert_eq!(got, near_keys(&w));
    // The deferred moves took effect after the check: c is now far away.
    assert_eq!(w.transform(c).unwrap().translation.x, 50.0);
    w.clear_near_callback();
    w.check().unwrap();
    assert_eq!(seen.lock().unwrap().len(), 2);
}

#[test]
fn bad_tolerances_are_refused_and_change_nothing() {
    let (mut w, [a, b, c]) = three_cubes();
    w.set_pair_tolerance(a, b, 0.5).unwrap();
    for t in [
        -1.0,
        -0.0 - 1e-300,
        f64::NAN,
        f64::INFINITY,
        2.0 * MAX_COORDINATE,
    ] {
        let e = w.set_pair_tolerance(a, b, t).unwrap_err();
        assert!(matches!(e, WorldError::InvalidArgument(_)), "{t}: {e}");
        assert!(e.to_string().contains("tolerance"), "{e}");
        assert!(matches!(
            w.set_default_tolerance(t),
            Err(WorldError::InvalidArgument(_))
        ));
    }
    assert_eq!(w.pair_tolerance(a, b).unwrap(), 0.5);
    assert_eq!(w.default_tolerance(), 0.0);
    assert!(matches!(
        w.set_pair_tolerance(a, a, 1.0),
        Err(WorldError::SameObject)
    ));
    w.remove(c).unwrap();
    assert!(matches!(
        w.set_pair_tolerance(a, c, 1.0),
        Err(WorldError::InvalidHandle(_))
    ));
    assert!(matches!(
        w.pair_tolerance(c, a),
        Err(WorldError::InvalidHandle(_))
    ));
    // -0.0 is a tolerance of 0.
    w.set_default_tolerance(-0.0).unwrap();
    let mut boxes = World::<()>::new(Config {
        method: Method::None,
        ..Config::default()
    })
    .unwrap();
    let x = boxes
        .make_collidable(cuboid(VectorD::repeat(0.5)).unwrap(), ())
        .unwrap();
    let y = boxes
        .make_collidable(cuboid(VectorD::repeat(0.5)).unwrap(), ())
        .unwrap();
    assert!(matches!(
        boxes.set_pair_tolerance(x, y, 0.1),
        Err(WorldError::InvalidArgument(_))
    ));
    assert!(matches!(
        boxes.set_default_tolerance(0.1),
        Err(WorldError::InvalidArgument(_))
    ));
    boxes.set_pair_tolerance(x, y, 0.0).unwrap();
}
