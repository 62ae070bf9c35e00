//! Ids belong to the world that issued them (issue 21): an id of world A handed to world B is
//! refused with `InvalidHandle` by every call that takes an id, and B is left unchanged, even
//! when A's id has the same slot and generation as an object of B.

use std::sync::{Arc, Mutex};

use colldet_geom::MeshData;
use colldet_geom::math::{Pose, VectorD};
use colldet_testkit::shapes::cuboid;
use colldet_world::{BroadPhaseKind, Config, ObjectId, World, WorldError};

fn cube() -> MeshData {
    cuboid(VectorD::new(0.5, 0.5, 0.5)).unwrap()
}

fn at(x: f64, y: f64, z: f64) -> Pose {
    Pose::translation(x, y, z)
}

/// Column-major translation matrix.
fn matrix_at(x: f64) -> [f64; 16] {
    let mut m = [0.0; 16];
    m[0] = 1.0;
    m[5] = 1.0;
    m[10] = 1.0;
    m[15] = 1.0;
    m[12] = x;
    m
}

/// A started world with three unit cubes at x = 0, 3, 6 (apart), made the same way every time,
/// so two such worlds use the same slots and generations.
fn three_cubes(name: &'static str) -> (World<&'static str>, [ObjectId; 3]) {
    let mut world = World::new(Config {
        threads: 1,
        broad_phase: BroadPhaseKind::AllPairs,
        ..Config::default()
    })
    .unwrap();
    let mut ids = [None; 3];
    for (i, id) in ids.iter_mut().enumerate() {
        let made = world.make_collidable(cube(), name).unwrap();
        world
            .set_transform(made, at(3.0 * i as f64, 0.0, 0.0))
            .unwrap();
        *id = Some(made);
    }
    world.start().unwrap();
    world.check().unwrap();
    (world, ids.map(Option::unwrap))
}

/// What a caller can observe of a world and its objects.
#[derive(Debug, PartialEq)]
struct Snapshot {
    len: usize,
    poses: Vec<Pose>,
    users: Vec<&'static str>,
    interests: Vec<bool>,
    pair_callbacks: usize,
}

fn snapshot(world: &World<&'static str>, ids: &[ObjectId; 3]) -> Snapshot {
    world.validate().unwrap();
    Snapshot {
        len: world.len(),
        poses: ids.iter().map(|&id| world.transform(id).unwrap()).collect(),
        users: ids
            .iter()
            .map(|&id| *world.user_data(id).unwrap())
            .collect(),
        interests: [(0, 1), (0, 2), (1, 2)]
            .iter()
            .map(|&(i, j)| world.interest(ids[i], ids[j]).unwrap())
            .collect(),
        pair_callbacks: world.pair_callback_count(),
    }
}

#[track_caller]
fn refused<T: std::fmt::Debug>(result: Result<T, WorldError>, foreign: ObjectId) {
    match result {
        Err(WorldError::InvalidHandle(id)) => assert_eq!(id, foreign),
        other => panic!("{foreign:?} of another world gave {other:?}"),
    }
}

#[test]
fn an_id_of_another_world_is_refused_by_every_call_and_changes_nothing() {
    let (mut a, ids_a) = three_cubes("a");
    let (mut b, ids_b) = three_cubes("b");
    for (x, y) in ids_a.iter().zip(&ids_b) {
        assert_ne!(x, y, "ids of two worlds differ");
    }
    let before = snapshot(&b, &ids_b);
    let own = ids_b[0];
    for &foreign in &ids_a {
        refused(b.remove(foreign), foreign);
        refused(b.set_transform(foreign, at(0.25, 0.0, 0.0)), foreign);
        refused(b.set_transform_matrix(foreign, &matrix_at(0.25)), foreign);
        refused(b.transform(foreign), foreign);
        refused(b.user_data(foreign), foreign);
        refused(b.object_info(foreign), foreign);
        refused(b.make_instance(foreign, "instance"), foreign);
        refused(b.set_interest(foreign, own, false), foreign);
        refused(b.set_interest(own, foreign, false), foreign);
        refused(b.interest(foreign, own), foreign);
        refused(b.interest(own, foreign), foreign);
        refused(
            b.set_callback(foreign, own, Box::new(|_, _| panic!("never called"))),
            foreign,
        );
        refused(
            b.set_callback(own, foreign, Box::new(|_, _| panic!("never called"))),
            foreign,
        );
        refused(
            b.set_swept_callback(foreign, own, Box::new(|_, _| panic!("never called"))),
            foreign,
        );
        refused(
            b.set_swept_callback(own, foreign, Box::new(|_, _| panic!("never called"))),
            foreign,
        );
        refused(b.trace(foreign, &at(0.0, 0.0, 0.0)), foreign);
        refused(b.trace_matrix(foreign, &matrix_at(0.0)), foreign);
        refused(b.trace_contacts(foreign, &at(0.0, 0.0, 0.0)), foreign);
        // The raw integer (what the C API hands out) names nothing in B either.
        let raw = ObjectId::from_raw(foreign.to_raw()).unwrap();
        refused(b.remove(raw), foreign);
    }
    assert_eq!(snapshot(&b, &ids_b), before, "world B is unchanged");
    assert_eq!(b.check().unwrap(), 0, "nothing moved in B");

    // Inside a callback of B, moving an object of A is refused too, and not made.
    let results: Arc<Mutex<Vec<bool>>> = Arc::default();
    let seen = Arc::clone(&results);
    let foreign = ids_a[0];
    b.set_general_callback(Box::new(move |_, ctx| {
        let moved = ctx.set_transform(foreign, at(9.0, 0.0, 0.0));
        seen.lock()
            .unwrap()
            .push(matches!(moved, Err(WorldError::InvalidHandle(id)) if id == foreign));
    }));
    b.set_transform(ids_b[1], at(0.5, 0.0, 0.0)).unwrap();
    assert_eq!(b.check().unwrap(), 1);
    assert_eq!(b.last_collisions(), &[(ids_b[0], ids_b[1])]);
    assert_eq!(*results.lock().unwrap(), vec![true]);
    assert_eq!(b.transform(ids_b[0]).unwrap(), at(0.0, 0.0, 0.0));
    assert_eq!(b.check().unwrap(), 0, "no move was deferred");
    b.validate().unwrap();

    // A still resolves its own ids, and B's ids are foreign to A.
    for (&mine, &theirs) in ids_a.iter().zip(&ids_b) {
        assert_eq!(*a.user_data(mine).unwrap(), "a");
        refused(a.remove(theirs), theirs);
    }
    assert_eq!(a.remove(ids_a[2]).unwrap(), "a");
    assert_eq!(a.len(), 2);
    a.validate().unwrap();
}

#[test]
fn ids_keep_their_value_and_stale_ids_stay_refused() {
    let (mut w, ids) = three_cubes("w");
    let raw: Vec<u64> = ids.iter().map(|id| id.to_raw()).collect();
    w.set_transform(ids[1], at(0.5, 0.0, 0.0)).unwrap();
    w.check().unwrap();
    assert_eq!(ids.map(ObjectId::to_raw).to_vec(), raw, "ids do not change");
    assert!(raw.iter().all(|&r| r != 0));
    w.remove(ids[2]).unwrap();
    w.check().unwrap();
    let again = w.make_collidable(cube(), "again").unwrap();
    assert_ne!(again, ids[2]);
    assert!(
        ids[2] < again,
        "a reused slot's new id sorts after the stale one"
    );
    refused(w.transform(ids[2]), ids[2]);
    assert_eq!(*w.user_data(again).unwrap(), "again");
}
