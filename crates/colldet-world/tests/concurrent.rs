//! The concurrent mode (`World::check_begin`, `RunningCheck`): the same answers as `check`, in
//! the same order, with the callbacks on the thread that ends the check; moves made while the
//! check runs count for the next check, before the callbacks' own moves.

use std::sync::{Arc, Mutex};
use std::thread::ThreadId;

use colldet_geom::MeshData;
use colldet_geom::math::{Pose, VectorD};
use colldet_testkit::SeededRng;
use colldet_testkit::shapes::{cuboid, sphere};
use colldet_world::{
    CheckStats, Config, ContactEvent, ObjectId, Proximity, Witness, World, WorldError,
};

fn cube() -> MeshData {
    cuboid(VectorD::new(0.5, 0.5, 0.5)).unwrap()
}

fn at(x: f64, y: f64, z: f64) -> Pose {
    Pose::translation(x, y, z)
}

fn config(threads: usize) -> Config {
    Config {
        threads,
        ..Config::default()
    }
}

/// What a callback saw, with the objects named by their user data (ids differ between worlds).
#[derive(Clone, Debug, PartialEq)]
enum Entry {
    Collision(u32, u32, Witness),
    Near(u32, u32, Proximity),
    Event(ContactEvent, Option<u32>, Option<u32>, Witness),
}

/// Every callback report of a world, and the threads the callbacks ran on.
#[derive(Clone, Default)]
struct Log {
    entries: Arc<Mutex<Vec<Entry>>>,
    threads: Arc<Mutex<Vec<ThreadId>>>,
}

impl Log {
    fn push(&self, entry: Entry) {
        self.entries.lock().unwrap().push(entry);
        self.threads
            .lock()
            .unwrap()
            .push(std::thread::current().id());
    }

    /// Installs the collision, near-pair and event callbacks of `world`, logging here.
    fn install(&self, world: &mut World<u32>) {
        let log = self.clone();
        world.set_general_callback(Box::new(move |c, _| {
            log.push(Entry::Collision(*c.user_a, *c.user_b, c.witness))
        }));
        let log = self.clone();
        world.set_near_callback(Box::new(move |n, _| {
            log.push(Entry::Near(*n.user_a, *n.user_b, n.pair.proximity))
        }));
        let log = self.clone();
        world.set_event_callback(Box::new(move |e, _| {
            log.push(Entry::Event(
                e.event,
                e.user_a.copied(),
                e.user_b.copied(),
                e.witness,
            ))
        }));
    }
}

const OBJECTS: usize = 120;
const FRAMES: usize = 10;
const HALF_SIDE: f64 = 4.0;

/// Each frame's moves: (object index, pose).
type FrameMoves = Vec<Vec<(usize, Pose)>>;

fn random_pose(rng: &mut SeededRng) -> Pose {
    let p = VectorD::new(
        rng.range(-HALF_SIDE, HALF_SIDE),
        rng.range(-HALF_SIDE, HALF_SIDE),
        rng.range(-HALF_SIDE, HALF_SIDE),
    );
    Pose::from_parts(p.into(), rng.rotation())
}

/// A seeded world of cuboids and spheres packed so that many touch (tolerance 0.1, so near
/// pairs too), started, with its logging callbacks; and the moves of each frame (a third of the
/// objects jump), by object index.
fn scene(threads: usize) -> (World<u32>, Vec<ObjectId>, Log, FrameMoves) {
    let mut rng = SeededRng::new(0xC0C0_2026);
    let mut world = World::new(config(threads)).unwrap();
    let mut ids = Vec::new();
    for k in 0..OBJECTS {
        let mesh = if k % 3 == 0 {
            sphere(rng.range(0.3, 0.7), 8, 6).unwrap()
        } else {
            let mut half = || rng.range(0.2, 0.8);
            cuboid(VectorD::new(half(), half(), half())).unwrap()
        };
        let id = world.make_collidable(mesh, k as u32).unwrap();
        world.set_transform(id, random_pose(&mut rng)).unwrap();
        ids.push(id);
    }
    world.set_default_tolerance(0.1).unwrap();
    let log = Log::default();
    log.install(&mut world);
    world.start().unwrap();
    let moves = (0..FRAMES)
        .map(|_| {
            (0..OBJECTS / 3)
                .map(|_| (rng.index(OBJECTS), random_pose(&mut rng)))
                .collect()
        })
        .collect();
    (world, ids, log, moves)
}

/// The counters of a check's figures (its times set to 0).
fn counters(world: &World<u32>) -> CheckStats {
    CheckStats {
        broad_ms: 0.0,
        narrow_ms: 0.0,
        ..world.stats().clone()
    }
}

/// The last check's pairs as user data, its near pairs and its events.
type Answers = (Vec<(u32, u32)>, Vec<(u32, u32, Proximity)>, Vec<Entry>);

fn answers(world: &World<u32>) -> Answers {
    let user = |id: ObjectId| *world.user_data(id).unwrap();
    (
        world
            .last_collisions()
            .iter()
            .map(|&(a, b)| (user(a), user(b)))
            .collect(),
        world
            .last_near_pairs()
            .iter()
            .map(|p| (user(p.a), user(p.b), p.proximity))
            .collect(),
        world
            .last_contact_events()
            .iter()
            .map(|e| Entry::Event(e.event, Some(user(e.a)), Some(user(e.b)), e.witness))
            .collect(),
    )
}

/// Frame by frame, `check` with the frame's moves made before it, against `check_begin` /
/// `end` with the next frame's moves made while the check runs: the same collisions, near pairs,
/// events and counters, the same callback reports in the same order, all on this thread.
fn concurrent_matches_serial(threads: usize) {
    let (mut serial, serial_ids, serial_log, moves) = scene(threads);
    let (mut world, ids, log, _) = scene(threads);
    let me = std::thread::current().id();
    for &(k, pose) in &moves[0] {
        world.set_transform(ids[k], pose).unwrap();
    }
    let mut reported = 0;
    for f in 0..FRAMES {
        for &(k, pose) in &moves[f] {
            serial.set_transform(serial_ids[k], pose).unwrap();
        }
        let expected = serial.check().unwrap();
        let mut check = world.check_begin().map_err(|(_, e)| e).unwrap();
        for &(k, pose) in moves.get(f + 1).into_iter().flatten() {
            check.set_transform(ids[k], pose).unwrap();
        }
        let (back, result) = check.end();
        world = back;
        assert_eq!(result.unwrap(), expected, "frame {f}");
        assert_eq!(answers(&world), answers(&serial), "frame {f}");
        assert_eq!(counters(&world), counters(&serial), "frame {f}");
        reported += expected;
    }
    assert!(reported > 50, "the scene collides too little: {reported}");
    let entries = log.entries.lock().unwrap();
    assert_eq!(*entries, *serial_log.entries.lock().unwrap());
    assert!(entries.iter().any(|e| matches!(e, Entry::Near(..))));
    assert!(log.threads.lock().unwrap().iter().all(|&t| t == me));
    // The last frame's moves went to the next check, as in the serial world.
    for (a, b) in ids.iter().zip(&serial_ids) {
        assert_eq!(world.transform(*a).unwrap(), serial.transform(*b).unwrap());
    }
    world.validate().unwrap();
}

#[test]
fn concurrent_checks_answer_as_check_on_one_thread() {
    concurrent_matches_serial(1);
}

#[test]
fn concurrent_checks_answer_as_check_on_two_threads() {
    concurrent_matches_serial(2);
}

/// Two unit cubes 3 apart; the second moves onto the first while a check runs.
#[test]
fn moves_made_while_a_check_runs_count_for_the_next_check() {
    for threads in [1, 2] {
        let mut world: World<u32> = World::new(config(threads)).unwrap();
        let a = world.make_collidable(cube(), 0).unwrap();
        let b = world.make_collidable(cube(), 1).unwrap();
        world.set_transform(b, at(3.0, 0.0, 0.0)).unwrap();
        world.start().unwrap();
        let mut check = world.check_begin().map_err(|(_, e)| e).unwrap();
        check.set_transform(b, at(0.5, 0.0, 0.0)).unwrap();
        let (mut world, result) = check.end();
        // The running check kept the pose it started with.
        assert_eq!(result.unwrap(), 0);
        assert_eq!(world.transform(b).unwrap(), at(0.5, 0.0, 0.0));
        assert_eq!(world.check().unwrap(), 1);
        assert_eq!(world.last_collisions(), &[(a, b)]);
    }
}

/// A callback moves `b` while the application moved it (and `c`) during the check: the
/// callback's move is applied after the application's, so it wins.
#[test]
fn a_callback_move_is_applied_after_the_moves_made_while_the_check_ran() {
    let mut world: World<u32> = World::new(config(1)).unwrap();
    let a = world.make_collidable(cube(), 0).unwrap();
    let b = world.make_collidable(cube(), 1).unwrap();
    let c = world.make_collidable(cube(), 2).unwrap();
    world.set_transform(b, at(0.5, 0.0, 0.0)).unwrap();
    world.set_transform(c, at(10.0, 0.0, 0.0)).unwrap();
    world.set_general_callback(Box::new(move |collision, ctx| {
        assert_eq!((collision.a, collision.b), (a, b));
        ctx.set_transform(b, at(0.0, 7.0, 0.0)).unwrap();
    }));
    world.start().unwrap();
    let mut check = world.check_begin().map_err(|(_, e)| e).unwrap();
    check.set_transform(b, at(0.0, -7.0, 0.0)).unwrap();
    check.set_transform(c, at(20.0, 0.0, 0.0)).unwrap();
    // A later move of the same object replaces the earlier one.
    check.set_transform(c, at(30.0, 0.0, 0.0)).unwrap();
    let (world, result) = check.end();
    assert_eq!(result.unwrap(), 1);
    assert_eq!(world.transform(b).unwrap(), at(0.0, 7.0, 0.0));
    assert_eq!(world.transform(c).unwrap(), at(30.0, 0.0, 0.0));
    world.validate().unwrap();
}

#[test]
fn the_handle_refuses_bad_moves_and_records_none_of_them() {
    let mut world: World<u32> = World::new(config(1)).unwrap();
    let a = world.make_collidable(cube(), 0).unwrap();
    let removed = world.make_collidable(cube(), 1).unwrap();
    world.remove(removed).unwrap();
    let mut other: World<u32> = World::new(config(1)).unwrap();
    let foreign = other.make_collidable(cube(), 0).unwrap();
    world.start().unwrap();
    let mut check = world.check_begin().map_err(|(_, e)| e).unwrap();
    let nan = Pose::translation(f64::NAN, 0.0, 0.0);
    assert!(matches!(
        check.set_transform(a, nan),
        Err(WorldError::InvalidTransform(_))
    ));
    let mut scaled = [0.0; 16];
    for i in 0..4 {
        scaled[i * 5] = 2.0;
    }
    scaled[15] = 1.0;
    assert!(matches!(
        check.set_transform_matrix(a, &scaled),
        Err(WorldError::InvalidTransform(_))
    ));
    for id in [removed, foreign] {
        assert!(matches!(
            check.set_transform(id, at(1.0, 0.0, 0.0)),
            Err(WorldError::InvalidHandle(bad)) if bad == id
        ));
    }
    let (mut world, result) = check.end();
    assert_eq!(result.unwrap(), 0);
    assert_eq!(world.transform(a).unwrap(), Pose::identity());
    // Nothing moved: the next check tests nothing.
    assert_eq!(world.check().unwrap(), 0);
    assert_eq!(world.stats().tested_pairs, 0);
}

#[test]
fn a_check_before_start_hands_the_world_back() {
    let mut world: World<u32> = World::new(config(1)).unwrap();
    let a = world.make_collidable(cube(), 0).unwrap();
    let b = world.make_collidable(cube(), 1).unwrap();
    let Err((mut world, e)) = world.check_begin() else {
        panic!("check_begin before start was accepted");
    };
    assert!(matches!(e, WorldError::WrongState(_)));
    world.start().unwrap();
    let (world, result) = world.check_begin().map_err(|(_, e)| e).unwrap().end();
    assert_eq!(result.unwrap(), 1);
    assert_eq!(world.last_collisions(), &[(a, b)]);
}

/// The collision callbacks run on the thread that calls `end`, here not the one that began.
#[test]
fn callbacks_run_on_the_thread_that_ends_the_check() {
    let mut world: World<u32> = World::new(config(2)).unwrap();
    world.make_collidable(cube(), 0).unwrap();
    world.make_collidable(cube(), 1).unwrap();
    let log = Log::default();
    log.install(&mut world);
    world.start().unwrap();
    let check = world.check_begin().map_err(|(_, e)| e).unwrap();
    let (ender, count) = std::thread::spawn(move || {
        let (_, result) = check.end();
        (std::thread::current().id(), result.unwrap())
    })
    .join()
    .unwrap();
    assert_eq!(count, 1);
    let threads = log.threads.lock().unwrap();
    // The collision and its Begin event.
    assert_eq!(threads.len(), 2);
    assert!(threads.iter().all(|&t| t == ender));
}

/// Dropping a running check waits for it and drops the world, callbacks included, on the
/// dropping thread, without calling them.
#[test]
fn dropping_a_running_check_drops_the_world_on_the_dropping_thread() {
    struct DropWitness(Arc<Mutex<Option<ThreadId>>>);
    impl Drop for DropWitness {
        fn drop(&mut self) {
            *self.0.lock().unwrap() = Some(std::thread::current().id());
        }
    }
    for threads in [1, 2] {
        let dropped_on = Arc::new(Mutex::new(None));
        let calls = Arc::new(Mutex::new(0));
        let mut world: World<u32> = World::new(config(threads)).unwrap();
        world.make_collidable(cube(), 0).unwrap();
        world.make_collidable(cube(), 1).unwrap();
        let witness = DropWitness(Arc::clone(&dropped_on));
        let counter = Arc::clone(&calls);
        world.set_general_callback(Box::new(move |_, _| {
            let _ = &witness;
            *counter.lock().unwrap() += 1;
        }));
        world.start().unwrap();
        let check = world.check_begin().map_err(|(_, e)| e).unwrap();
        drop(check);
        assert_eq!(
            *dropped_on.lock().unwrap(),
            Some(std::thread::current().id())
        );
        assert_eq!(*calls.lock().unwrap(), 0);
    }
}
