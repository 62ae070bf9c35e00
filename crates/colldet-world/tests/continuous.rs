//! The world's continuous check and traces on analytic cases: both objects moving (relative
//! motion), a pair that starts in contact, resting pairs not reported again, unmoved objects,
//! the callbacks' order, and traces.

use std::sync::{Arc, Mutex};

use colldet_geom::math::{Pose, VectorD};
use colldet_testkit::shapes::cuboid;
use colldet_world::{Config, ContactKind, ObjectId, World};
use nalgebra::{Translation3, UnitQuaternion};

fn at(x: f64, y: f64, z: f64) -> Pose {
    Pose::from_parts(Translation3::new(x, y, z), UnitQuaternion::identity())
}

fn world_with_cubes(threads: usize, n: usize) -> (World<u32>, Vec<ObjectId>) {
    let mut world = World::new(Config {
        threads,
        ..Config::default()
    })
    .unwrap();
    let ids = (0..n)
        .map(|k| {
            world
                .make_collidable(cuboid(VectorD::repeat(0.5)).unwrap(), k as u32)
                .unwrap()
        })
        .collect();
    (world, ids)
}

#[test]
fn two_cubes_flying_through_each_other_touch_at_the_known_fraction() {
    for threads in [1, 2] {
        let (mut world, ids) = world_with_cubes(threads, 2);
        world.set_transform(ids[0], at(-3.0, 0.0, 0.0)).unwrap();
        world.set_transform(ids[1], at(3.0, 0.2, 0.0)).unwrap();
        world.start().unwrap();
        assert_eq!(world.check_continuous().unwrap(), 0);
        // Each moves 6 units towards the other: the gap of 5 closes after 5/12 of the interval.
        world.set_transform(ids[0], at(3.0, 0.0, 0.0)).unwrap();
        world.set_transform(ids[1], at(-3.0, 0.2, 0.0)).unwrap();
        assert!(
            world.check().is_ok_and(|n| n == 0),
            "the discrete check misses it"
        );
        // The discrete check consumed the move: put them back and sweep again.
        world.set_transform(ids[0], at(-3.0, 0.0, 0.0)).unwrap();
        world.set_transform(ids[1], at(3.0, 0.2, 0.0)).unwrap();
        world.check().unwrap();
        world.set_transform(ids[0], at(3.0, 0.0, 0.0)).unwrap();
        world.set_transform(ids[1], at(-3.0, 0.2, 0.0)).unwrap();
        assert_eq!(world.check_continuous().unwrap(), 1);
        let c = world.last_swept_contacts()[0];
        assert_eq!((c.a, c.b), (ids[0], ids[1]));
        let t = 5.0 / 12.0;
        assert!(
            c.contact.toi.lo <= t && t <= c.contact.toi.hi,
            "{:?}",
            c.contact.toi
        );
        assert!(c.contact.toi.width() < 1e-12);
        assert!(!c.contact.initially_touching && !c.touching_at_end);
        // The normal points from b (coming from +x) towards a.
        assert!(
            (c.contact.normal + VectorD::x()).norm() < 1e-12,
            "{}",
            c.contact.normal
        );
        // Both faces are at x = 0 then.
        assert!(c.contact.point.x.abs() < 1e-9, "{}", c.contact.point);
    }
}

#[test]
fn start_contacts_resting_pairs_and_callbacks() {
    let (mut world, ids) = world_with_cubes(1, 3);
    world.set_transform(ids[0], at(0.0, 0.0, 0.0)).unwrap();
    world.set_transform(ids[1], at(1.0, 0.0, 0.0)).unwrap(); // touching face to face
    world.set_transform(ids[2], at(10.0, 0.0, 0.0)).unwrap();
    world.start().unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    world.set_general_swept_callback(Box::new(move |c, _| {
        log.lock()
            .unwrap()
            .push((*c.user_a, *c.user_b, c.contact.contact.toi.lo));
    }));
    // The first check after start: nothing moved since start, every pair counts; the touching
    // pair is reported at fraction 0.
    assert_eq!(world.check_continuous().unwrap(), 1);
    let c = world.last_swept_contacts()[0];
    assert!(c.contact.initially_touching && c.contact.toi.hi == 0.0);
    // Set to the same poses: unchanged objects, nothing reported again.
    for (k, x) in [0.0, 1.0, 10.0].iter().enumerate() {
        world.set_transform(ids[k], at(*x, 0.0, 0.0)).unwrap();
    }
    assert_eq!(world.check_continuous().unwrap(), 0);
    // Object 2 sweeps through object 1 and stops beyond: reported, with the pair of 0 and 1 not
    // reported again (neither moved).
    world.set_transform(ids[2], at(-10.0, 0.0, 0.5)).unwrap();
    assert_eq!(world.check_continuous().unwrap(), 2);
    let pairs: Vec<_> = world
        .last_swept_contacts()
        .iter()
        .map(|c| (c.a, c.b))
        .collect();
    assert_eq!(pairs, vec![(ids[0], ids[2]), (ids[1], ids[2])]);
    let log = seen.lock().unwrap();
    assert_eq!(log.len(), 3);
    assert_eq!((log[1].0, log[1].1), (0, 2));
    assert_eq!((log[2].0, log[2].1), (1, 2));
    // Object 2 (x from 10 to -10) reaches object 1's face x = 1.5 first: 8 / 20.
    assert!((log[2].2 - 0.4).abs() < 1e-12 && (log[1].2 - 0.45).abs() < 1e-12);
}

#[test]
fn traces_stop_at_the_first_object_and_move_nothing() {
    let (mut world, ids) = world_with_cubes(1, 3);
    world.set_transform(ids[1], at(5.0, 0.0, 0.0)).unwrap();
    world.set_transform(ids[2], at(3.0, 0.0, 0.0)).unwrap();
    world.start().unwrap();
    let hit = world.trace(ids[0], &at(10.0, 0.0, 0.0)).unwrap().unwrap();
    assert_eq!(hit.hit, ids[2]);
    // Face x = 0.5 reaches face x = 2.5 after 2 of 10 units.
    assert!(hit.contact.toi.lo <= 0.2 && 0.2 <= hit.contact.toi.hi);
    assert_eq!(hit.contact.kind, ContactKind::VertexFace);
    assert!((hit.pose.translation.vector.x - 2.0).abs() < 1e-9);
    assert_eq!(world.transform(ids[0]).unwrap(), at(0.0, 0.0, 0.0));
    let all = world.trace_contacts(ids[0], &at(10.0, 0.0, 0.0)).unwrap();
    assert_eq!(
        all.iter().map(|h| h.hit).collect::<Vec<_>>(),
        vec![ids[2], ids[1]]
    );
    world.set_interest(ids[0], ids[2], false).unwrap();
    assert_eq!(
        world
            .trace(ids[0], &at(10.0, 0.0, 0.0))
            .unwrap()
            .unwrap()
            .hit,
        ids[1]
    );
    assert!(world.trace(ids[0], &at(-10.0, 0.0, 0.0)).unwrap().is_none());
    // A rotating trace (a half turn about z while moving) still stops before object 1.
    let turn = Pose::from_parts(
        Translation3::new(10.0, 0.0, 0.0),
        UnitQuaternion::from_axis_angle(&VectorD::z_axis(), 3.0),
    );
    let hit = world.trace(ids[0], &turn).unwrap().unwrap();
    assert_eq!(hit.hit, ids[1]);
    assert!(hit.contact.toi.lo < 0.4 && hit.contact.toi.width() <= 1e-9);
}

/// The expel distance (seed section 3) on translational pairs: traces and the continuous check
/// stop where the zone of thickness `e` is reached; in the zone only moving away is free; the
/// general sweep (a changing orientation) does not apply it.
#[test]
fn expel_distance_stops_translations_at_the_zone() {
    let (mut world, ids) = world_with_cubes(1, 2);
    world.set_transform(ids[1], at(3.0, 0.0, 0.0)).unwrap();
    world.start().unwrap();
    let turn = Pose::from_parts(
        Translation3::new(10.0, 0.0, 0.0),
        UnitQuaternion::from_axis_angle(&VectorD::z_axis(), 3.0),
    );
    let turning = world.trace(ids[0], &turn).unwrap().unwrap();
    assert!(world.set_expel_distance(-1.0).is_err());
    assert!(world.set_expel_distance(f64::NAN).is_err());
    let e = 0.25;
    world.set_expel_distance(e).unwrap();
    assert_eq!(world.expel_distance(), e);
    // Gap 2 closing at 10 per trace: stops at (2 - e) / 10, the pose e short of the other cube.
    let hit = world.trace(ids[0], &at(10.0, 0.0, 0.0)).unwrap().unwrap();
    assert_eq!(hit.hit, ids[1]);
    let want = (2.0 - e) / 10.0;
    assert!((hit.contact.toi.lo - want).abs() < 1e-12, "{hit:?}");
    assert!((hit.pose.translation.vector.x - 1.75).abs() < 1e-9);
    assert!(!hit.contact.initially_touching);
    // Placed in the zone (gap 0.1): deeper stops at 0, away and along are free.
    world.set_transform(ids[0], at(1.9, 0.0, 0.0)).unwrap();
    let hit = world.trace(ids[0], &at(10.0, 0.0, 0.0)).unwrap().unwrap();
    assert_eq!(hit.contact.toi.hi, 0.0);
    assert!((hit.pose.translation.vector.x - 1.9).abs() < 1e-12);
    assert!(world.trace(ids[0], &at(-10.0, 0.0, 0.0)).unwrap().is_none());
    assert!(world.trace(ids[0], &at(1.9, 0.3, 0.0)).unwrap().is_none());
    // The general sweep (rotation) does not apply the zone.
    world.set_transform(ids[0], at(0.0, 0.0, 0.0)).unwrap();
    assert_eq!(
        world.trace(ids[0], &turn).unwrap().unwrap().contact,
        turning.contact
    );
    // Without the zone: the plain contact at 2 / 10; in the former zone moving in: free.
    world.set_expel_distance(0.0).unwrap();
    let hit = world.trace(ids[0], &at(10.0, 0.0, 0.0)).unwrap().unwrap();
    assert!(hit.contact.toi.lo <= 0.2 && 0.2 <= hit.contact.toi.hi);
    world.set_transform(ids[0], at(1.9, 0.0, 0.0)).unwrap();
    assert!(world.trace(ids[0], &at(1.95, 0.0, 0.0)).unwrap().is_none());

    // The continuous check: a move ending 0.2 short of the other cube (boxes apart all along)
    // reaches the zone of 0.25 at (2 - e) / 1.8; without the zone nothing touches.
    for (expel, expect) in [(0.0, None), (e, Some((2.0 - e) / 1.8))] {
        world.set_expel_distance(expel).unwrap();
        world.set_transform(ids[0], at(0.0, 0.0, 0.0)).unwrap();
        world.check_continuous().unwrap();
        world.set_transform(ids[0], at(1.8, 0.0, 0.0)).unwrap();
        let n = world.check_continuous().unwrap();
        let got = world
            .last_swept_contacts()
            .first()
            .map(|c| c.contact.toi.hi);
        assert_eq!(n, usize::from(expect.is_some()), "{expel}: {got:?}");
        if let (Some(got), Some(want)) = (got, expect) {
            assert!((got - want).abs() < 1e-12, "{got} {want}");
        }
    }
}

/// A check records each moved object's pose as the start of the next continuous check; in a
/// large world on two threads the records are made on the pool. 2,450 pairs of cubes start
/// overlapping, are placed 6 apart and checked (the recorded poses), then swap sides: every
/// pair is swept from the recorded poses and first touches after 5/12 of the interval (a sweep
/// from the start poses would touch at 0), the same at one and two threads.
#[test]
fn large_worlds_sweep_from_the_poses_recorded_at_the_last_check() {
    const PAIRS: usize = 2450;
    let place = |k: usize, x: f64| {
        let j = k / 2;
        at(x, 3.0 * (j % 50) as f64, 3.0 * (j / 50) as f64)
    };
    let mut answers = Vec::new();
    for threads in [1, 2] {
        let (mut world, ids) = world_with_cubes(threads, 2 * PAIRS);
        for (k, &id) in ids.iter().enumerate() {
            world.set_transform(id, place(k, 0.0)).unwrap();
        }
        world.start().unwrap();
        for (k, &id) in ids.iter().enumerate() {
            let x = if k % 2 == 0 { -3.0 } else { 3.0 };
            world.set_transform(id, place(k, x)).unwrap();
        }
        assert_eq!(world.check().unwrap(), 0);
        for (k, &id) in ids.iter().enumerate() {
            let x = if k % 2 == 0 { 3.0 } else { -3.0 };
            world.set_transform(id, place(k, x)).unwrap();
        }
        assert_eq!(world.check_continuous().unwrap(), PAIRS);
        let t = 5.0 / 12.0;
        let mut found: Vec<(u32, u32, u64, u64)> = Vec::new();
        for c in world.last_swept_contacts() {
            let (ua, ub) = (
                *world.user_data(c.a).unwrap(),
                *world.user_data(c.b).unwrap(),
            );
            assert_eq!(ua / 2, ub / 2, "only partners meet");
            assert!(
                c.contact.toi.lo <= t && t <= c.contact.toi.hi && !c.contact.initially_touching,
                "{:?}",
                c.contact.toi
            );
            found.push((
                ua,
                ub,
                c.contact.toi.lo.to_bits(),
                c.contact.toi.hi.to_bits(),
            ));
        }
        answers.push(found);
    }
    assert_eq!(answers[0], answers[1]);
}

/// The continuous check's index of objects at rest learns of poses recorded by a discrete check
/// on the pool: a continuous check puts 2,450 targets at rest into the index, a large discrete
/// check moves and records everything (on the pool with two threads), then only the bullets fly
/// through the targets' new places. Every bullet hits its target, as on one thread.
#[test]
fn poses_recorded_on_the_pool_reach_the_index_of_objects_at_rest() {
    const PAIRS: usize = 2450;
    // Bullet (even k) and target (odd k) of pair k / 2, on a lattice of pairs.
    let place = |k: usize, x: f64, y: f64| {
        let j = k / 2;
        at(x, y + 4.0 * (j % 50) as f64, 4.0 * (j / 50) as f64)
    };
    let bullets = |ids: &[ObjectId]| -> Vec<(usize, ObjectId)> {
        ids.iter()
            .copied()
            .enumerate()
            .filter(|(k, _)| k % 2 == 0)
            .collect()
    };
    let mut answers = Vec::new();
    for threads in [1, 2] {
        let (mut world, ids) = world_with_cubes(threads, 2 * PAIRS);
        for (k, &id) in ids.iter().enumerate() {
            let x = if k % 2 == 0 { -3.0 } else { 3.0 };
            world.set_transform(id, place(k, x, 0.0)).unwrap();
        }
        world.start().unwrap();
        // The first check after start counts every object as moved.
        assert_eq!(world.check_continuous().unwrap(), 0);
        // The bullets back off: the targets, at rest, go into the index.
        for (k, id) in bullets(&ids) {
            world.set_transform(id, place(k, -3.5, 0.0)).unwrap();
        }
        assert_eq!(world.check_continuous().unwrap(), 0);
        // Everything moves 2 along y: recorded by a discrete check (on the pool with two
        // threads), the targets' index entries now stale.
        for (k, &id) in ids.iter().enumerate() {
            let x = if k % 2 == 0 { -3.0 } else { 3.0 };
            world.set_transform(id, place(k, x, 2.0)).unwrap();
        }
        assert_eq!(world.check().unwrap(), 0);
        // Only the bullets fly to x = 9, through their targets (at rest at their new places).
        for (k, id) in bullets(&ids) {
            world.set_transform(id, place(k, 9.0, 2.0)).unwrap();
        }
        assert_eq!(world.check_continuous().unwrap(), PAIRS);
        let mut found: Vec<(u32, u32)> = world
            .last_swept_contacts()
            .iter()
            .map(|c| {
                (
                    *world.user_data(c.a).unwrap(),
                    *world.user_data(c.b).unwrap(),
                )
            })
            .collect();
        found.sort_unstable();
        answers.push(found);
    }
    assert_eq!(answers[0], answers[1]);
}
