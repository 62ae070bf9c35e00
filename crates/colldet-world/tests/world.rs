//! The world's contract with known answers: which checks report which pairs.

use std::sync::{Arc, Mutex};

use colldet_geom::MeshData;
use colldet_geom::math::{Pose, VectorD};
use colldet_testkit::SeededRng;
use colldet_testkit::shapes::{cuboid, sphere, torus};
use colldet_world::{Config, ObjectId, World, WorldError};

/// A unit cube centred at its origin.
fn cube() -> MeshData {
    cuboid(VectorD::new(0.5, 0.5, 0.5)).unwrap()
}

fn at(x: f64, y: f64, z: f64) -> Pose {
    Pose::translation(x, y, z)
}

fn serial() -> Config {
    Config {
        threads: 1,
        broad_phase: colldet_world::BroadPhaseKind::AllPairs,
        ..Config::default()
    }
}

type Log = Arc<Mutex<Vec<(u32, &'static str, ObjectId, ObjectId)>>>;

fn logging(
    log: &Log,
    frame: &Arc<Mutex<u32>>,
    tag: &'static str,
) -> colldet_world::CollisionCallback<&'static str> {
    let (log, frame) = (Arc::clone(log), Arc::clone(frame));
    Box::new(move |c, _| {
        log.lock()
            .unwrap()
            .push((*frame.lock().unwrap(), tag, c.a, c.b))
    })
}

#[test]
fn two_cubes_collide_exactly_in_the_overlapping_frames() {
    let mut world = World::new(serial()).unwrap();
    let fixed = world.make_collidable(cube(), "fixed").unwrap();
    let mover = world.make_collidable(cube(), "mover").unwrap();
    let (log, frame): (Log, _) = Default::default();
    world.set_general_callback(logging(&log, &frame, "general"));
    world.start().unwrap();
    for f in 0..=12u32 {
        *frame.lock().unwrap() = f;
        // x = 3, 2.5, ..., -3: the cubes overlap (or touch) while |x| <= 1, frames 4 to 8.
        world
            .set_transform(mover, at(3.0 - 0.5 * f64::from(f), 0.0, 0.0))
            .unwrap();
        world.check().unwrap();
    }
    let frames: Vec<u32> = log.lock().unwrap().iter().map(|e| e.0).collect();
    assert_eq!(frames, vec![4, 5, 6, 7, 8]);
    assert!(
        log.lock()
            .unwrap()
            .iter()
            .all(|e| (e.2, e.3) == (fixed.min(mover), fixed.max(mover)))
    );
}

#[test]
fn callbacks_see_user_data_and_witness() {
    let mut world = World::new(serial()).unwrap();
    let a = world.make_collidable(cube(), "a").unwrap();
    let b = world.make_collidable(cube(), "b").unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&seen);
    world.set_general_callback(Box::new(move |c, _| {
        sink.lock()
            .unwrap()
            .push((*c.user_a, *c.user_b, c.witness.point));
    }));
    world.start().unwrap();
    world.set_transform(b, at(0.5, 0.0, 0.0)).unwrap();
    assert_eq!(world.check().unwrap(), 1);
    let seen = seen.lock().unwrap();
    assert_eq!(
        (seen[0].0, seen[0].1),
        if a < b { ("a", "b") } else { ("b", "a") }
    );
    let p = seen[0].2;
    assert!(
        p.x > -0.5 - 1e-6 && p.x < 1.0 + 1e-6 && p.y.abs() <= 0.5 + 1e-6,
        "witness near the contact: {p:?}"
    );
}

#[test]
fn interest_off_and_per_pair_callbacks() {
    let mut world = World::new(serial()).unwrap();
    let a = world.make_collidable(cube(), "a").unwrap();
    let b = world.make_collidable(cube(), "b").unwrap();
    let c = world.make_collidable(cube(), "c").unwrap();
    let (log, frame): (Log, _) = Default::default();
    world.set_general_callback(logging(&log, &frame, "general"));
    world
        .set_callback(a, c, logging(&log, &frame, "a-c"))
        .unwrap();
    world.set_interest(b, c, false).unwrap();
    assert!(!world.interest(c, b).unwrap() && world.interest(a, b).unwrap());
    world.start().unwrap();
    // All three at the origin: pairs a-b (general), a-c (own callback); b-c switched off.
    world.check().unwrap();
    let mut entries: Vec<_> = log
        .lock()
        .unwrap()
        .iter()
        .map(|e| (e.1, e.2, e.3))
        .collect();
    entries.sort();
    let key = |x: ObjectId, y: ObjectId| (x.min(y), x.max(y));
    let mut expected = vec![
        ("a-c", key(a, c).0, key(a, c).1),
        ("general", key(a, b).0, key(a, b).1),
    ];
    expected.sort();
    assert_eq!(entries, expected);
    assert!(matches!(
        world.set_interest(a, a, false),
        Err(WorldError::SameObject)
    ));
}

#[test]
fn only_pairs_with_a_moved_object_are_reported() {
    let mut world = World::new(serial()).unwrap();
    let a = world.make_collidable(cube(), "a").unwrap();
    let b = world.make_collidable(cube(), "b").unwrap();
    world.start().unwrap();
    assert_eq!(
        world.check().unwrap(),
        1,
        "start counts every object as moved"
    );
    assert_eq!(
        world.check().unwrap(),
        0,
        "nothing moved: the resting contact is not new"
    );
    world.set_transform(b, at(0.25, 0.0, 0.0)).unwrap();
    assert_eq!(world.check().unwrap(), 1);
    assert_eq!(world.last_collisions(), &[(a.min(b), a.max(b))]);
    world.set_transform(a, at(0.0, 5.0, 0.0)).unwrap();
    assert_eq!(world.check().unwrap(), 0);
    assert!(world.last_collisions().is_empty());
}

#[test]
fn a_callback_moving_an_object_takes_effect_at_the_next_check() {
    let mut world = World::new(serial()).unwrap();
    world.make_collidable(cube(), "a").unwrap();
    let b = world.make_collidable(cube(), "b").unwrap();
    world.set_general_callback(Box::new(move |_, ctx| {
        ctx.set_transform(b, at(10.0, 0.0, 0.0)).unwrap()
    }));
    world.start().unwrap();
    assert_eq!(world.check().unwrap(), 1);
    assert_eq!(
        world.transform(b).unwrap(),
        at(10.0, 0.0, 0.0),
        "applied after the callbacks"
    );
    assert_eq!(
        world.check().unwrap(),
        0,
        "b is in the moved set, tested again, and now apart"
    );
    assert_eq!(world.stats().tested_pairs, 0, "the boxes no longer overlap");
}

#[test]
fn removal_makes_handles_stale_and_keeps_the_world_usable() {
    let mut world = World::new(serial()).unwrap();
    let a = world.make_collidable(cube(), "a").unwrap();
    let b = world.make_collidable(cube(), "b").unwrap();
    world.start().unwrap();
    assert_eq!(world.check().unwrap(), 1);
    assert_eq!(world.remove(b).unwrap(), "b");
    assert!(matches!(
        world.set_transform(b, at(0.0, 0.0, 0.0)),
        Err(WorldError::InvalidHandle(_))
    ));
    assert!(matches!(world.remove(b), Err(WorldError::InvalidHandle(_))));
    let c = world.make_collidable(cube(), "c").unwrap();
    assert_ne!(b, c, "a reused slot gets a new generation");
    assert_eq!(
        world.check().unwrap(),
        1,
        "c was added after start and overlaps a"
    );
    assert_eq!(world.last_collisions(), &[(a.min(c), a.max(c))]);
    assert_eq!(world.len(), 2);
    world.validate().unwrap();
}

/// The object table stays consistent through adds, instances, removals (before and after the
/// cache merge frees their slots), moves and checks.
#[test]
fn the_object_table_stays_consistent() {
    let mut world = World::new(serial()).unwrap();
    let mut rng = SeededRng::new(0x7ab1e);
    let mut live: Vec<ObjectId> = Vec::new();
    world.validate().unwrap();
    for step in 0..400 {
        match rng.index(5) {
            0 | 1 => live.push(world.make_collidable(cube(), "c").unwrap()),
            2 if !live.is_empty() => {
                let like = live[rng.index(live.len())];
                live.push(world.make_instance(like, "i").unwrap());
            }
            3 if !live.is_empty() => {
                let gone = live.swap_remove(rng.index(live.len()));
                world.remove(gone).unwrap();
                assert!(matches!(
                    world.remove(gone),
                    Err(WorldError::InvalidHandle(_))
                ));
            }
            _ => {
                for &id in &live {
                    let x = rng.range(-3.0, 3.0);
                    world.set_transform(id, at(x, 0.0, 0.0)).unwrap();
                }
            }
        }
        if step == 50 {
            world.start().unwrap();
        }
        if world.is_started() && step % 3 == 0 {
            world.check().unwrap();
        }
        world
            .validate()
            .unwrap_or_else(|e| panic!("step {step}: {e}"));
        assert_eq!(world.len(), live.len());
    }
}

/// A pair's own callback goes with its objects: removing either drops it (and what it owns).
#[test]
fn removing_an_object_drops_its_pair_callbacks() {
    let mut world = World::new(serial()).unwrap();
    let ids: Vec<ObjectId> = (0..4)
        .map(|_| world.make_collidable(cube(), "x").unwrap())
        .collect();
    let owned = Arc::new(());
    for (a, b) in [(0, 1), (0, 2), (1, 2), (2, 3)] {
        let held = Arc::clone(&owned);
        world
            .set_callback(
                ids[a],
                ids[b],
                Box::new(move |_, _| {
                    let _ = &held;
                }),
            )
            .unwrap();
    }
    assert_eq!(world.pair_callback_count(), 4);
    assert_eq!(Arc::strong_count(&owned), 5);
    world.remove(ids[0]).unwrap();
    assert_eq!(world.pair_callback_count(), 2);
    assert_eq!(Arc::strong_count(&owned), 3, "the closures were dropped");
    world.remove(ids[2]).unwrap();
    assert_eq!(world.pair_callback_count(), 0);
    assert_eq!(Arc::strong_count(&owned), 1);
}

/// A callback's move of an object that is not live is refused when asked, not dropped later.
#[test]
fn a_deferred_move_of_a_stale_handle_is_refused() {
    let mut world = World::new(serial()).unwrap();
    world.make_collidable(cube(), "a").unwrap();
    let b = world.make_collidable(cube(), "b").unwrap();
    let gone = world.make_collidable(cube(), "gone").unwrap();
    world.set_transform(gone, at(50.0, 0.0, 0.0)).unwrap();
    world.remove(gone).unwrap();
    let answers: Arc<Mutex<Vec<bool>>> = Arc::default();
    let seen = Arc::clone(&answers);
    world.set_general_callback(Box::new(move |_, ctx| {
        let stale = ctx.set_transform(gone, at(0.0, 0.0, 0.0));
        seen.lock()
            .unwrap()
            .push(matches!(stale, Err(WorldError::InvalidHandle(id)) if id == gone));
        let mut bad = at(0.0, 0.0, 0.0);
        bad.translation.vector.x = f64::INFINITY;
        let refused = ctx.set_transform(b, bad);
        seen.lock()
            .unwrap()
            .push(matches!(refused, Err(WorldError::InvalidTransform(_))));
    }));
    world.start().unwrap();
    assert_eq!(world.check().unwrap(), 1);
    assert_eq!(*answers.lock().unwrap(), [true, true]);
    assert_eq!(world.transform(b).unwrap(), at(0.0, 0.0, 0.0));
    world.validate().unwrap();
}

#[test]
fn wrong_order_and_bad_input_are_errors() {
    let mut world = World::new(serial()).unwrap();
    assert!(matches!(world.check(), Err(WorldError::WrongState(_))));
    let a = world.make_collidable(cube(), "a").unwrap();
    let mut nan = at(0.0, 0.0, 0.0);
    nan.translation.vector.y = f64::NAN;
    assert!(matches!(
        world.set_transform(a, nan),
        Err(WorldError::InvalidTransform(_))
    ));
    let scaled: [f64; 16] = [
        2.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
    ];
    assert!(matches!(
        world.set_transform_matrix(a, &scaled),
        Err(WorldError::InvalidTransform(_))
    ));
    assert!(matches!(
        world.make_collidable(MeshData::default(), "empty"),
        Err(WorldError::InvalidMesh(_))
    ));
    world.start().unwrap();
    assert!(matches!(world.start(), Err(WorldError::WrongState(_))));
    assert_eq!(world.check().unwrap(), 0);
    let limited = World::<()>::new(Config {
        max_objects: 1,
        threads: 1,
        ..serial()
    });
    let mut limited = limited.unwrap();
    limited.make_collidable(cube(), ()).unwrap();
    assert!(matches!(
        limited.make_collidable(cube(), ()),
        Err(WorldError::TooManyObjects(1))
    ));
    for threads in [colldet_world::MAX_THREADS + 1, usize::MAX] {
        assert!(matches!(
            World::<()>::new(Config {
                threads,
                ..serial()
            }),
            Err(WorldError::InvalidConfig(_))
        ));
    }
}

#[test]
fn object_info_reports_the_classification() {
    let mut world = World::new(serial()).unwrap();
    let c = world.make_collidable(cube(), ()).unwrap();
    let t = world
        .make_collidable(torus(2.0, 0.5, 16, 8).unwrap(), ())
        .unwrap();
    let ci = world.object_info(c).unwrap();
    assert!(
        ci.classification.convex && (ci.vertex_count, ci.edge_count, ci.face_count) == (8, 12, 6)
    );
    let ti = world.object_info(t).unwrap();
    assert!(
        !ti.classification.convex
            && ti.classification.closed
            && ti.classification.euler_characteristic == 0
    );
}

/// Random cubes, spheres and tori moving for 30 checks (later only some of them, and some
/// replaced); the reported sequence (pairs and witnesses) and each check's counters must be
/// identical for 1, 2 and 4 threads.
#[test]
fn callback_sequence_is_identical_for_any_thread_count() {
    let run = |threads: usize| {
        let mut world = World::new(Config {
            threads,
            broad_phase: colldet_world::BroadPhaseKind::AllPairs,
            ..Config::default()
        })
        .unwrap();
        let mut rng = SeededRng::new(42);
        let mut ids = Vec::new();
        for i in 0..60 {
            let mesh = match i % 3 {
                0 => torus(0.6, 0.2, 12, 6).unwrap(),
                // Convex, not a box: the separating-vector test and its counters.
                1 => sphere(0.6, 12, 8).unwrap(),
                _ => cube(),
            };
            ids.push(world.make_collidable(mesh, i).unwrap());
        }
        let log = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&log);
        world.set_general_callback(Box::new(move |c, _| {
            let w = &c.witness;
            let point = w.point.coords.map(f64::to_bits);
            sink.lock()
                .unwrap()
                .push((*c.user_a, *c.user_b, w.feature_a, w.feature_b, point))
        }));
        world.start().unwrap();
        let mut counters = Vec::new();
        for frame in 0..30 {
            // From frame 10 on, about half the objects move (carried and stale pair caches),
            // and every third frame one object is replaced (removal drops its caches).
            for &id in &ids {
                if frame >= 10 && rng.index(2) == 0 {
                    continue;
                }
                let p = VectorD::new(
                    rng.range(-3.0, 3.0),
                    rng.range(-3.0, 3.0),
                    rng.range(-3.0, 3.0),
                );
                let r = rng.rotation();
                world
                    .set_transform(id, Pose::from_parts(p.into(), r))
                    .unwrap();
            }
            if frame >= 10 && frame % 3 == 0 {
                let k = rng.index(ids.len());
                let user = world.remove(ids[k]).unwrap();
                ids[k] = world
                    .make_collidable(sphere(0.6, 12, 8).unwrap(), user)
                    .unwrap();
            }
            world.check().unwrap();
            counters.push(colldet_world::CheckStats {
                broad_ms: 0.0,
                narrow_ms: 0.0,
                ..world.stats().clone()
            });
        }
        (std::mem::take(&mut *log.lock().unwrap()), counters)
    };
    let one = run(1);
    assert!(
        one.0.len() > 100,
        "the scene collides often ({} reports)",
        one.0.len()
    );
    assert!(one.1.iter().map(|c| c.sv_queries).sum::<usize>() > 100);
    assert_eq!(run(2), one);
    assert_eq!(run(4), one);
}

/// Tori of 8192 faces, whose trees are built on first use with rayon work of their own: while a
/// build waits, its pool thread may run another key range of the narrow phase, which must not
/// wait for the worker the build holds (it did, before ranges took idle workers). The reports on
/// 2 and 4 threads equal those on one thread.
#[test]
fn trees_built_during_a_check_do_not_block_the_pool() {
    let run = |threads: usize| {
        let mut world = World::new(Config {
            threads,
            ..Config::default()
        })
        .unwrap();
        let first = world
            .make_collidable(torus(1.0, 0.3, 128, 64).unwrap(), 0)
            .unwrap();
        let mut ids = vec![first];
        for i in 1..24 {
            ids.push(world.make_instance(first, i).unwrap());
        }
        world.start().unwrap();
        let mut rng = SeededRng::new(7);
        let mut reports = Vec::new();
        for _ in 0..3 {
            for &id in &ids {
                let p = VectorD::new(
                    rng.range(-1.5, 1.5),
                    rng.range(-1.5, 1.5),
                    rng.range(-1.5, 1.5),
                );
                let pose = Pose::from_parts(p.into(), rng.rotation());
                world.set_transform(id, pose).unwrap();
            }
            world.check().unwrap();
            // By user data: ids are per world, so those of the three runs differ.
            let user = |id| *world.user_data(id).unwrap();
            let pairs: Vec<(i32, i32)> = world
                .last_collisions()
                .iter()
                .map(|&(a, b)| (user(a), user(b)))
                .collect();
            reports.push(pairs);
        }
        reports
    };
    let one = run(1);
    assert!(
        one[0].len() > 20,
        "the tori overlap ({} pairs)",
        one[0].len()
    );
    assert_eq!(run(2), one);
    assert_eq!(run(4), one);
}

/// Six thousand cubes (enough for the parallel box updates and the parallel batch search of
/// sweep and prune) teleporting, then drifting: the reports of sweep and prune on 1, 2 and 4
/// threads equal those of the all-pairs broad phase.
#[test]
fn a_large_scene_reports_the_same_on_any_thread_count() {
    use colldet_world::BroadPhaseKind;
    let run = |broad_phase: BroadPhaseKind, threads: usize| {
        let mut world = World::new(Config {
            threads,
            broad_phase,
            ..Config::default()
        })
        .unwrap();
        let first = world.make_collidable(cube(), 0).unwrap();
        let mut ids = vec![first];
        for i in 1..6000 {
            ids.push(world.make_instance(first, i).unwrap());
        }
        let log = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&log);
        world.set_general_callback(Box::new(move |c, _| {
            sink.lock().unwrap().push((*c.user_a, *c.user_b))
        }));
        world.start().unwrap();
        let mut rng = SeededRng::new(11);
        let mut poses: Vec<Pose> = Vec::new();
        for frame in 0..6 {
            for (k, &id) in ids.iter().enumerate() {
                let pose = if frame < 3 {
                    let p = VectorD::new(
                        rng.range(-20.0, 20.0),
                        rng.range(-20.0, 20.0),
                        rng.range(-20.0, 20.0),
                    );
                    Pose::from_parts(p.into(), rng.rotation())
                } else {
                    let mut pose = poses[k];
                    pose.translation.vector.x += 0.05;
                    pose
                };
                if frame < 3 {
                    poses.resize(ids.len(), pose);
                }
                poses[k] = pose;
                world.set_transform(id, pose).unwrap();
            }
            world.check().unwrap();
            log.lock().unwrap().push((usize::MAX, frame));
        }
        std::mem::take(&mut *log.lock().unwrap())
    };
    let reference = run(BroadPhaseKind::AllPairs, 1);
    assert!(reference.len() > 3000, "{} reports", reference.len());
    for threads in [1, 2, 4] {
        assert_eq!(
            run(BroadPhaseKind::SweepAndPrune, threads),
            reference,
            "{threads} threads"
        );
    }
}

/// The same moving scene through every broad phase: identical reports (the broad phase only
/// changes which pairs are looked at, never the answer).
#[test]
fn every_broad_phase_reports_the_same_collisions() {
    use colldet_geom::WorldAabb;
    use colldet_geom::math::PointD;
    use colldet_world::BroadPhaseKind;
    let run = |broad_phase: BroadPhaseKind| {
        let universe = Some(WorldAabb::new(
            PointD::new(-4.0, -4.0, -4.0),
            PointD::new(4.0, 4.0, 4.0),
        ));
        let config = Config {
            threads: 1,
            broad_phase,
            universe,
            resolution: 8,
            ..Config::default()
        };
        let mut world = World::new(config).unwrap();
        let mut rng = SeededRng::new(7);
        let ids: Vec<ObjectId> = (0..80)
            .map(|i| world.make_collidable(cube(), i).unwrap())
            .collect();
        let log = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&log);
        world.set_general_callback(Box::new(move |c, _| {
            sink.lock().unwrap().push((*c.user_a, *c.user_b))
        }));
        world.start().unwrap();
        for frame in 0..40 {
            for (k, &id) in ids.iter().enumerate() {
                if (k + frame) % 3 == 0 {
                    // Some objects leave the universe box: they must still be found.
                    let p = VectorD::new(
                        rng.range(-5.0, 5.0),
                        rng.range(-5.0, 5.0),
                        rng.range(-5.0, 5.0),
                    );
                    world
                        .set_transform(id, Pose::from_parts(p.into(), rng.rotation()))
                        .unwrap();
                }
            }
            world.check().unwrap();
            sink_frame(&log, frame);
        }
        std::mem::take(&mut *log.lock().unwrap())
    };
    fn sink_frame(log: &Arc<Mutex<Vec<(i32, i32)>>>, frame: usize) {
        log.lock().unwrap().push((-1, frame as i32));
    }
    let reference = run(BroadPhaseKind::AllPairs);
    assert!(reference.len() > 200);
    for kind in [
        BroadPhaseKind::SweepAndPrune,
        BroadPhaseKind::DynamicTree,
        BroadPhaseKind::Grid,
        BroadPhaseKind::Octree,
    ] {
        assert_eq!(run(kind), reference, "{kind:?}");
    }
}

/// A small cube inside the solid tube of a torus: no surfaces cross, yet the solids intersect.
#[test]
fn an_object_inside_a_closed_one_collides() {
    for method in [
        colldet_world::Method::Auto,
        colldet_world::Method::Arbitrary,
        colldet_world::Method::BoxTree,
    ] {
        let mut world = World::new(Config { method, ..serial() }).unwrap();
        let ring = world
            .make_collidable(torus(3.0, 1.0, 48, 24).unwrap(), "ring")
            .unwrap();
        let small = world
            .make_collidable(cuboid(VectorD::new(0.1, 0.1, 0.1)).unwrap(), "small")
            .unwrap();
        let kinds = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&kinds);
        world.set_general_callback(Box::new(move |c, _| {
            sink.lock().unwrap().push(c.witness.kind)
        }));
        world.start().unwrap();
        world.set_transform(small, at(3.0, 0.0, 0.0)).unwrap();
        assert_eq!(world.check().unwrap(), 1, "{method:?}");
        assert_eq!(
            kinds.lock().unwrap()[0],
            colldet_world::WitnessKind::Containment,
            "{method:?}"
        );
        // In the hole of the ring: apart.
        world.set_transform(small, at(0.0, 0.0, 0.0)).unwrap();
        assert_eq!(world.check().unwrap(), 0, "{method:?}");
        let _ = ring;
    }
}

/// Tori and cubes tumbling: the BVH (auto), the thesis's arbitrary test and the box-trees must
/// report exactly the same collisions.
#[test]
fn mesh_methods_agree() {
    let run = |method: colldet_world::Method| {
        let mut world = World::new(Config { method, ..serial() }).unwrap();
        let mut rng = SeededRng::new(5);
        let ids: Vec<ObjectId> = (0..30)
            .map(|i| {
                let mesh = if i % 2 == 0 {
                    torus(0.8, 0.25, 16, 8).unwrap()
                } else {
                    cube()
                };
                world.make_collidable(mesh, i).unwrap()
            })
            .collect();
        let log = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&log);
        world.set_general_callback(Box::new(move |c, _| {
            sink.lock().unwrap().push((*c.user_a, *c.user_b))
        }));
        world.start().unwrap();
        for _ in 0..25 {
            for &id in &ids {
                let p = VectorD::new(
                    rng.range(-2.5, 2.5),
                    rng.range(-2.5, 2.5),
                    rng.range(-2.5, 2.5),
                );
                world
                    .set_transform(id, Pose::from_parts(p.into(), rng.rotation()))
                    .unwrap();
            }
            world.check().unwrap();
        }
        std::mem::take(&mut *log.lock().unwrap())
    };
    let auto = run(colldet_world::Method::Auto);
    assert!(auto.len() > 100, "{} reports", auto.len());
    assert_eq!(run(colldet_world::Method::Arbitrary), auto);
    assert_eq!(run(colldet_world::Method::BoxTree), auto);
}

/// Boxes of many shapes, at random poses and (every other frame) on a half-unit grid without
/// rotation, so faces touch exactly: the box-box test under `Auto` and `Convex` reports exactly
/// the pairs Chung-Wang and GJK report, touching ones included, and its witness point lies in
/// both boxes (within the touching band of each); the general tests' witness lies between them.
#[test]
fn box_pairs_agree_with_the_general_convex_tests() {
    let extents = |rng: &mut SeededRng| {
        VectorD::new(
            0.25 * rng.range(1.0, 4.0).round(),
            0.25 * rng.range(1.0, 4.0).round(),
            0.25 * rng.range(1.0, 4.0).round(),
        )
    };
    let run = |method: colldet_world::Method| {
        let box_path = matches!(
            method,
            colldet_world::Method::Auto | colldet_world::Method::Convex
        );
        let mut world = World::new(Config { method, ..serial() }).unwrap();
        let mut rng = SeededRng::new(11);
        let mut ids = Vec::new();
        let mut radii = Vec::new();
        let mut half_extents = Vec::new();
        for i in 0..40 {
            let h = extents(&mut rng);
            radii.push(h.norm());
            half_extents.push(h);
            ids.push(world.make_collidable(cuboid(h).unwrap(), i).unwrap());
        }
        let log = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&log);
        world.set_general_callback(Box::new(move |c, _| {
            sink.lock()
                .unwrap()
                .push((*c.user_a, *c.user_b, c.witness.point))
        }));
        world.start().unwrap();
        let mut poses = vec![Pose::identity(); ids.len()];
        let mut checked = 0;
        let mut sv_queries = 0;
        for frame in 0..30 {
            for (k, &id) in ids.iter().enumerate() {
                poses[k] = if frame % 2 == 0 {
                    let p = VectorD::new(
                        rng.range(-3.0, 3.0),
                        rng.range(-3.0, 3.0),
                        rng.range(-3.0, 3.0),
                    );
                    Pose::from_parts(p.into(), rng.rotation())
                } else {
                    let mut grid = || 0.25 * rng.range(-12.0, 12.0).round();
                    at(grid(), grid(), grid())
                };
                world.set_transform(id, poses[k]).unwrap();
            }
            let before = log.lock().unwrap().len();
            world.check().unwrap();
            sv_queries += world.stats().sv_queries;
            for &(a, b, point) in &log.lock().unwrap()[before..] {
                let (a, b) = (a as usize, b as usize);
                let reach = radii[a] + radii[b];
                let centre = |k: usize| poses[k].translation.vector;
                assert!((point.coords - centre(a)).norm() <= reach);
                assert!((point.coords - centre(b)).norm() <= reach);
                if box_path {
                    // The touching band (`colldet_narrow::TOUCHING_TOLERANCE_FACTOR` x the radii)
                    // plus the rounding of the world transforms.
                    let band = colldet_narrow::TOUCHING_TOLERANCE_FACTOR * reach
                        + 1e-12 * (reach + centre(a).norm() + centre(b).norm());
                    for k in [a, b] {
                        let local = poses[k].inverse_transform_point(&point);
                        let outside = (local.coords.abs() - half_extents[k]).max();
                        assert!(
                            outside <= band,
                            "frame {frame}: witness of ({a}, {b}) outside box {k} by {outside:e}"
                        );
                    }
                }
                checked += 1;
            }
        }
        assert!(checked > 0);
        let pairs = std::mem::take(&mut *log.lock().unwrap())
            .into_iter()
            .map(|(a, b, _)| (a, b))
            .collect::<Vec<_>>();
        (pairs, sv_queries)
    };
    let (auto, auto_sv) = run(colldet_world::Method::Auto);
    assert!(auto.len() > 200, "{} reports", auto.len());
    // Auto and Convex send box pairs to the box test: only its undecided (near-touching) pairs
    // reach Chung-Wang, while SeparatingVector runs it on every pair.
    let (sv, sv_all) = run(colldet_world::Method::SeparatingVector);
    assert_eq!(sv, auto);
    assert!(
        auto_sv * 4 < sv_all,
        "Chung-Wang queries: auto {auto_sv}, separating vector {sv_all}"
    );
    assert_eq!(run(colldet_world::Method::Convex).0, auto);
    assert_eq!(run(colldet_world::Method::Gjk).0, auto);
}

/// The witness features follow the callback's id order, also when a reused slot makes the id
/// order differ from the slot order (the order the exact test runs in).
#[test]
fn witness_features_follow_id_order_after_slot_reuse() {
    use colldet_testkit::shapes::{cone, sphere};
    let small = || cone(0.5, 1.0, 3).unwrap();
    let big = || sphere(1.0, 16, 8).unwrap();
    for reuse in [false, true] {
        let mut world = World::new(serial()).unwrap();
        let (cone_id, sphere_id) = if reuse {
            // The sphere takes slot 0 again with a newer generation: its id is larger although
            // its slot is smaller.
            let first = world.make_collidable(cube(), "gone").unwrap();
            let c = world.make_collidable(small(), "cone").unwrap();
            world.remove(first).unwrap();
            let s = world.make_collidable(big(), "sphere").unwrap();
            assert!(c < s);
            (c, s)
        } else {
            let c = world.make_collidable(small(), "cone").unwrap();
            (c, world.make_collidable(big(), "sphere").unwrap())
        };
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&seen);
        world.set_general_callback(Box::new(move |c, _| {
            sink.lock()
                .unwrap()
                .push((c.a, *c.user_a, c.witness.feature_a, c.witness.feature_b))
        }));
        world.start().unwrap();
        let cone_pose = at(0.3, 1.2, 0.1);
        world.set_transform(cone_id, cone_pose).unwrap();
        world.set_transform(sphere_id, at(0.0, 0.0, 0.0)).unwrap();
        assert_eq!(world.check().unwrap(), 1);
        let (a, user_a, feature_a, feature_b) = seen.lock().unwrap()[0];
        assert_eq!((a, user_a), (cone_id, "cone"), "reuse {reuse}");
        // Vertex features of each object's own mesh: the cone has 4 vertices, the sphere more;
        // a sphere vertex beyond the cone's range makes the check decisive.
        assert!(feature_a < 4, "reuse {reuse}: cone feature {feature_a}");
        assert!(
            (4..big().vertices.len() as u32).contains(&feature_b),
            "reuse {reuse}: sphere feature {feature_b}"
        );
    }
}

/// Every broad phase, with a universe where one is needed.
fn every_broad_phase() -> Vec<Config> {
    use colldet_geom::WorldAabb;
    use colldet_geom::math::PointD;
    use colldet_world::BroadPhaseKind;
    let universe = Some(WorldAabb::new(
        PointD::new(-4.0, -4.0, -4.0),
        PointD::new(4.0, 4.0, 4.0),
    ));
    [
        BroadPhaseKind::SweepAndPrune,
        BroadPhaseKind::DynamicTree,
        BroadPhaseKind::Grid,
        BroadPhaseKind::Octree,
        BroadPhaseKind::AllPairs,
    ]
    .map(|broad_phase| Config {
        threads: 1,
        broad_phase,
        universe,
        resolution: 8,
        ..Config::default()
    })
    .to_vec()
}

/// Two overlapping cubes, started: `check` must report their one pair.
fn started_pair(config: Config) -> (World<&'static str>, ObjectId, ObjectId) {
    let mut world = World::new(config).unwrap();
    let a = world.make_collidable(cube(), "a").unwrap();
    let b = world.make_collidable(cube(), "b").unwrap();
    world.set_transform(b, at(0.5, 0.0, 0.0)).unwrap();
    world.start().unwrap();
    (world, a, b)
}

/// Grid and octree resolutions: 1 to MAX_RESOLUTION (128) are accepted, 129 and the cell counts
/// that overflowed (2^22 per axis is 2^66 cells, which wrapped to 0) are refused as
/// configuration errors, as are universes whose coordinates pass MAX_COORDINATE (1e15) or whose
/// cells collapse in f64; the largest accepted values give working worlds.
#[test]
fn grid_and_octree_limits_are_configuration_errors() {
    use colldet_geom::WorldAabb;
    use colldet_geom::math::PointD;
    use colldet_world::{BroadPhaseKind, MAX_COORDINATE, MAX_RESOLUTION};
    assert_eq!(MAX_RESOLUTION, 128);
    assert_eq!(MAX_COORDINATE, 1e15);
    let cubic = |lo: f64, hi: f64| {
        Some(WorldAabb::new(
            PointD::new(lo, lo, lo),
            PointD::new(hi, hi, hi),
        ))
    };
    for broad_phase in [BroadPhaseKind::Grid, BroadPhaseKind::Octree] {
        let config = |resolution: u32, universe: Option<WorldAabb>| Config {
            threads: 1,
            broad_phase,
            resolution,
            universe,
            ..Config::default()
        };
        let small = cubic(-4.0, 4.0);
        let refused = [
            config(MAX_RESOLUTION + 1, small),
            config(1 << 22, small),
            config(3 << 22, small),
            config(u32::MAX, small),
            config(0, small),
            config(16, cubic(-f64::MAX, f64::MAX)),
            config(16, cubic(-MAX_COORDINATE.next_up(), 0.0)),
            config(16, cubic(0.0, MAX_COORDINATE.next_up())),
            // The issue's [1e15, 1e15 + 1] (above the limit), and a universe inside the
            // limit whose 16 cells are narrower than the f64 spacing there (2^-6).
            config(16, cubic(1e15, 1e15 + 1.0)),
            config(16, cubic(1e14, 1e14 + 0.125)),
        ];
        for c in refused {
            let why = format!("{:?} {:?}", c.resolution, c.universe);
            assert!(
                matches!(c.validate(), Err(WorldError::InvalidConfig(_))),
                "{why}"
            );
            assert!(
                matches!(World::<()>::new(c), Err(WorldError::InvalidConfig(_))),
                "{why}"
            );
        }
        for c in [
            config(MAX_RESOLUTION, small),
            config(1, small),
            config(MAX_RESOLUTION, cubic(-MAX_COORDINATE, MAX_COORDINATE)),
            config(16, cubic(1e14, 1e14 + 1.0)),
        ] {
            let (mut world, a, b) = started_pair(c);
            assert_eq!(world.check().unwrap(), 1);
            assert_eq!(world.last_collisions(), [(a, b)]);
            world.validate().unwrap();
        }
    }
}

/// Translations up to MAX_COORDINATE per component are accepted and the next f64 is refused as
/// an invalid transform (one near f64::MAX overflowed the world box and failed the next check);
/// after a refusal the world answers as before, on every broad phase.
#[test]
fn translations_beyond_the_limit_are_refused_and_the_world_stays_usable() {
    use colldet_world::MAX_COORDINATE;
    for config in every_broad_phase() {
        let (mut world, a, b) = started_pair(config);
        let far = world.make_collidable(cube(), "far").unwrap();
        for t in [
            MAX_COORDINATE.next_up(),
            -MAX_COORDINATE.next_up(),
            f64::MAX,
            f64::MAX.next_down(),
        ] {
            for c in 0..3 {
                let mut pose = at(0.0, 0.0, 0.0);
                pose.translation.vector[c] = t;
                assert!(matches!(
                    world.set_transform(far, pose),
                    Err(WorldError::InvalidTransform(_))
                ));
                let mut m = [0.0; 16];
                (0..4).for_each(|i| m[5 * i] = 1.0);
                m[12 + c] = t;
                assert!(matches!(
                    world.set_transform_matrix(far, &m),
                    Err(WorldError::InvalidTransform(_))
                ));
            }
        }
        world
            .set_transform(far, at(MAX_COORDINATE, -MAX_COORDINATE, MAX_COORDINATE))
            .unwrap();
        assert_eq!(world.check().unwrap(), 1);
        assert_eq!(world.last_collisions(), [(a, b)]);
        world.validate().unwrap();
    }
}

/// Mesh vertices up to MAX_COORDINATE are accepted and the next f32 is refused as an invalid
/// mesh (2e38 is a finite f32, but the hull's corner distance is not), also after `start` in a
/// world full of valid objects, which keeps answering as before, on every broad phase.
#[test]
fn vertices_beyond_the_limit_are_refused_and_the_world_stays_usable() {
    use colldet_geom::GeomError;
    use colldet_world::MAX_COORDINATE;
    let largest = MAX_COORDINATE as f32;
    assert!(f64::from(largest) <= MAX_COORDINATE);
    assert!(f64::from(largest.next_up()) > MAX_COORDINATE);
    for config in every_broad_phase() {
        let (mut world, a, b) = started_pair(config);
        for h in [largest.next_up(), 2e38, f32::MAX] {
            let mesh = cuboid(VectorD::repeat(f64::from(h))).unwrap();
            assert!(matches!(
                world.make_collidable(mesh, "huge"),
                Err(WorldError::InvalidMesh(
                    GeomError::CoordinateTooLarge { .. }
                ))
            ));
        }
        assert_eq!(world.len(), 2);
        assert_eq!(world.check().unwrap(), 1);
        assert_eq!(world.last_collisions(), [(a, b)]);
        // The largest accepted cube takes part: it contains both.
        let big = cuboid(VectorD::repeat(f64::from(largest))).unwrap();
        let big = world.make_collidable(big, "big").unwrap();
        assert_eq!(world.check().unwrap(), 2);
        assert_eq!(world.last_collisions(), [(a, big), (b, big)]);
        world.validate().unwrap();
    }
}
