//! Contact events with known answers: Begin at the first colliding check, Persist while the pair
//! keeps colliding (moved or resting), End at the first check where it no longer does, when an
//! object is removed, or when interest or groups exclude the pair.

use std::sync::{Arc, Mutex};

use colldet_geom::MeshData;
use colldet_geom::math::{Pose, VectorD};
use colldet_testkit::shapes::cuboid;
use colldet_world::{BroadPhaseKind, Config, ContactEvent, ObjectId, PairEvent, World};

use ContactEvent::{Begin, End, Persist};

/// A log shared with a callback.
type Shared<T> = Arc<Mutex<Vec<T>>>;

fn cube() -> MeshData {
    cuboid(VectorD::new(0.5, 0.5, 0.5)).unwrap()
}

fn at(x: f64) -> Pose {
    Pose::translation(x, 0.0, 0.0)
}

fn configs() -> [Config; 3] {
    [
        Config {
            threads: 1,
            broad_phase: BroadPhaseKind::AllPairs,
            ..Config::default()
        },
        Config {
            threads: 1,
            ..Config::default()
        },
        Config {
            threads: 2,
            ..Config::default()
        },
    ]
}

/// The last check's events as (event, a, b).
fn events(world: &World<&'static str>) -> Vec<(ContactEvent, ObjectId, ObjectId)> {
    world
        .last_contact_events()
        .iter()
        .map(|e| (e.event, e.a, e.b))
        .collect()
}

/// Two cubes: `b` slides along x from 3 to -3 by 0.5 a frame (overlapping or touching `a` for
/// |x| <= 1, frames 4 to 8), then stays at -3 for two more frames.
#[test]
fn begin_persist_end_over_a_scripted_motion() {
    for config in configs() {
        let mut world = World::new(config).unwrap();
        let a = world.make_collidable(cube(), "a").unwrap();
        let b = world.make_collidable(cube(), "b").unwrap();
        let log: Shared<(u32, ContactEvent, &str, &str)> = Arc::default();
        let frame = Arc::new(Mutex::new(0u32));
        let (sink, f) = (Arc::clone(&log), Arc::clone(&frame));
        world.set_event_callback(Box::new(move |e, _| {
            sink.lock().unwrap().push((
                *f.lock().unwrap(),
                e.event,
                e.user_a.copied().unwrap_or("-"),
                e.user_b.copied().unwrap_or("-"),
            ));
        }));
        let collisions = Arc::new(Mutex::new(0));
        let c = Arc::clone(&collisions);
        world.set_general_callback(Box::new(move |_, _| *c.lock().unwrap() += 1));
        world.start().unwrap();
        for k in 0..=14u32 {
            *frame.lock().unwrap() = k;
            let x = (3.0 - 0.5 * f64::from(k)).max(-3.0);
            if k <= 12 {
                world.set_transform(b, at(x)).unwrap();
            }
            world.check().unwrap();
            let expected = match k {
                4 => vec![(Begin, a, b)],
                5..=8 => vec![(Persist, a, b)],
                9 => vec![(End, a, b)],
                _ => vec![],
            };
            assert_eq!(events(&world), expected, "frame {k}");
            assert_eq!(world.in_contact(a, b), (4..=8).contains(&k), "frame {k}");
            assert_eq!(world.contact_count(), usize::from((4..=8).contains(&k)));
        }
        let log = log.lock().unwrap();
        let kinds: Vec<(u32, ContactEvent)> = log.iter().map(|e| (e.0, e.1)).collect();
        assert_eq!(
            kinds,
            [
                (4, Begin),
                (5, Persist),
                (6, Persist),
                (7, Persist),
                (8, Persist),
                (9, End)
            ]
        );
        assert!(log.iter().all(|e| (e.2, e.3) == ("a", "b")));
        // The collision callbacks are as without events: frames 4 to 8.
        assert_eq!(*collisions.lock().unwrap(), 5);
    }
}

#[test]
fn resting_contacts_persist_with_their_witness_and_end_carries_the_last_one() {
    let mut world = World::new(configs()[0].clone()).unwrap();
    let a = world.make_collidable(cube(), "a").unwrap();
    let b = world.make_collidable(cube(), "b").unwrap();
    let c = world.make_collidable(cube(), "c").unwrap();
    world.set_transform(b, at(0.75)).unwrap();
    world.set_transform(c, at(10.0)).unwrap();
    world.start().unwrap();
    assert_eq!(world.check().unwrap(), 1);
    let begin: Vec<PairEvent> = world.last_contact_events().to_vec();
    assert_eq!(begin.len(), 1);
    assert_eq!((begin[0].event, begin[0].a, begin[0].b), (Begin, a, b));
    // Nothing moves: no new collision, but the contact persists, with the same witness.
    for _ in 0..3 {
        assert_eq!(world.check().unwrap(), 0);
        let e = world.last_contact_events();
        assert_eq!(e.len(), 1);
        assert_eq!((e[0].event, e[0].witness), (Persist, begin[0].witness));
    }
    // An unrelated object moves: the resting pair still persists.
    world.set_transform(c, at(11.0)).unwrap();
    world.check().unwrap();
    assert_eq!(events(&world), [(Persist, a, b)]);
    world.set_transform(b, at(3.0)).unwrap();
    world.check().unwrap();
    let e = world.last_contact_events();
    assert_eq!((e[0].event, e[0].witness), (End, begin[0].witness));
}

#[test]
fn removal_mid_contact_ends_at_the_next_check_without_the_removed_user_data() {
    for config in configs() {
        let mut world = World::new(config).unwrap();
        let a = world.make_collidable(cube(), "a").unwrap();
        let b = world.make_collidable(cube(), "b").unwrap();
        let c = world.make_collidable(cube(), "c").unwrap();
        world.set_transform(b, at(0.5)).unwrap();
        world.set_transform(c, at(-0.5)).unwrap();
        let seen: Shared<(ContactEvent, Option<&str>, Option<&str>)> = Arc::default();
        let sink = Arc::clone(&seen);
        world.set_event_callback(Box::new(move |e, _| {
            sink.lock()
                .unwrap()
                .push((e.event, e.user_a.copied(), e.user_b.copied()));
        }));
        world.start().unwrap();
        world.check().unwrap();
        // a-b and a-c overlap; b and c touch? b spans [0, 1], c spans [-1, 0]: touching counts.
        assert_eq!(
            events(&world),
            [(Begin, a, b), (Begin, a, c), (Begin, b, c)]
        );
        seen.lock().unwrap().clear();
        assert_eq!(world.remove(b).unwrap(), "b");
        // Removal delivers nothing by itself: the last check's events stand.
        assert_eq!(
            events(&world),
            [(Begin, a, b), (Begin, a, c), (Begin, b, c)]
        );
        // A new object may take b's slot: its id differs, and it is not in contact.
        let d = world.make_collidable(cube(), "d").unwrap();
        world.set_transform(d, at(20.0)).unwrap();
        world.check().unwrap();
        // Sorted by id pair: (a, b) < (a, c) < (b, c).
        assert_eq!(events(&world), [(End, a, b), (Persist, a, c), (End, b, c)]);
        assert_eq!(
            *seen.lock().unwrap(),
            [
                (End, Some("a"), None),
                (Persist, Some("a"), Some("c")),
                (End, None, Some("c")),
            ]
        );
        world.check().unwrap();
        assert_eq!(events(&world), [(Persist, a, c)]);
        assert!(!world.in_contact(a, b) && !world.in_contact(a, d));
    }
}

#[test]
fn interest_switched_off_mid_contact_ends_and_switched_on_begins_without_a_move() {
    for config in configs() {
        let mut world = World::new(config).unwrap();
        let a = world.make_collidable(cube(), "a").unwrap();
        let b = world.make_collidable(cube(), "b").unwrap();
        world.set_transform(b, at(0.5)).unwrap();
        let collisions = Arc::new(Mutex::new(0));
        let c = Arc::clone(&collisions);
        world.set_general_callback(Box::new(move |_, _| *c.lock().unwrap() += 1));
        world.start().unwrap();
        world.check().unwrap();
        assert_eq!(events(&world), [(Begin, a, b)]);
        world.check().unwrap();
        assert_eq!(events(&world), [(Persist, a, b)]);
        // Off, nothing moving: End at the next check, then nothing.
        world.set_interest(a, b, false).unwrap();
        world.check().unwrap();
        assert_eq!(events(&world), [(End, a, b)]);
        world.set_transform(b, at(0.25)).unwrap();
        world.check().unwrap();
        assert_eq!(events(&world), []);
        // On again, nothing moving: the pair is tested again and begins; no new collision is
        // reported to the collision callbacks (no object moved).
        world.set_interest(a, b, true).unwrap();
        world.check().unwrap();
        assert_eq!(events(&world), [(Begin, a, b)]);
        assert_eq!(world.last_collisions(), []);
        assert_eq!(
            *collisions.lock().unwrap(),
            1,
            "only the first check's collision"
        );
        // Off and on again between two checks: the contact persists.
        world.set_interest(a, b, false).unwrap();
        world.set_interest(a, b, true).unwrap();
        world.check().unwrap();
        assert_eq!(events(&world), [(Persist, a, b)]);
    }
}

#[test]
fn group_changes_end_and_begin_contacts_at_the_next_check() {
    for config in configs() {
        let mut world = World::new(config).unwrap();
        let a = world.make_collidable(cube(), "a").unwrap();
        let b = world.make_collidable(cube(), "b").unwrap();
        world.set_transform(b, at(0.5)).unwrap();
        world.start().unwrap();
        world.check().unwrap();
        assert_eq!(events(&world), [(Begin, a, b)]);
        // b in group 2, a admits only group 1: excluded, ends.
        world.set_group(a, 1, 1).unwrap();
        world.set_group(b, 2, u32::MAX).unwrap();
        world.check().unwrap();
        assert_eq!(events(&world), [(End, a, b)]);
        world.set_transform(b, at(0.4)).unwrap();
        assert_eq!(world.check().unwrap(), 0, "excluded pairs are not tested");
        assert_eq!(events(&world), []);
        // a admits group 2 again: begins without a move.
        world.set_group(a, 1, 3).unwrap();
        world.check().unwrap();
        assert_eq!(events(&world), [(Begin, a, b)]);
        assert_eq!(world.group(a).unwrap().mask, 3);
        // Setting the same group again changes nothing.
        world.set_group(a, 1, 3).unwrap();
        world.check().unwrap();
        assert_eq!(events(&world), [(Persist, a, b)]);
    }
}

#[test]
fn continuous_checks_leave_the_events_right() {
    let mut world = World::new(configs()[0].clone()).unwrap();
    let a = world.make_collidable(cube(), "a").unwrap();
    let b = world.make_collidable(cube(), "b").unwrap();
    world.set_transform(b, at(0.5)).unwrap();
    world.start().unwrap();
    world.check().unwrap();
    assert_eq!(events(&world), [(Begin, a, b)]);
    // b leaves; a continuous check consumes the move; the next check still sees it.
    world.set_transform(b, at(5.0)).unwrap();
    assert_eq!(world.check_continuous().unwrap(), 1);
    assert_eq!(
        events(&world),
        [(Begin, a, b)],
        "continuous checks make no events"
    );
    assert_eq!(world.check().unwrap(), 0);
    assert_eq!(events(&world), [(End, a, b)]);
    // b comes back under a continuous check: the next check begins the contact but reports no
    // new collision (the move was the continuous check's).
    world.set_transform(b, at(0.5)).unwrap();
    world.check_continuous().unwrap();
    assert_eq!(world.check().unwrap(), 0);
    assert_eq!(events(&world), [(Begin, a, b)]);
}

#[test]
fn moves_from_event_callbacks_count_for_the_next_check() {
    let mut world = World::new(configs()[0].clone()).unwrap();
    let a = world.make_collidable(cube(), "a").unwrap();
    let b = world.make_collidable(cube(), "b").unwrap();
    world.set_transform(b, at(0.5)).unwrap();
    world.set_event_callback(Box::new(move |e, ctx| {
        if e.event == Begin {
            ctx.set_transform(e.b, at(4.0)).unwrap();
        }
    }));
    world.start().unwrap();
    world.check().unwrap();
    assert_eq!(events(&world), [(Begin, a, b)]);
    assert_eq!(world.transform(b).unwrap().translation.vector.x, 4.0);
    world.check().unwrap();
    assert_eq!(events(&world), [(End, a, b)]);
    world.clear_event_callback();
    world.set_transform(b, at(0.5)).unwrap();
    world.check().unwrap();
    assert_eq!(events(&world), [(Begin, a, b)], "listed without a callback");
}
