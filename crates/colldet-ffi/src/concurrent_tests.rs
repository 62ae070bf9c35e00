//! `colCheckBegin` / `colCheckEnd` through the C functions: the answers of `colCheck` with the
//! callbacks on the thread that ends the check, moves during the check for the next one, every
//! other call refused while the check runs, wrong call orders answered, `colExit` waiting.

use std::ffi::c_void;
use std::thread::ThreadId;

use colldet_geom::math::Pose;
use colldet_testkit::SeededRng;

use crate::callback::ColCollision;
use crate::concurrent::WorldSlot;
use crate::concurrent::{colCheckBegin, colCheckEnd};
use crate::config::{COL_FLAG_PARALLEL, ColConfig};
use crate::continuous::colCheckContinuous;
use crate::events::{ColContactEvent, colSetEventCallback};
use crate::groups::{colGetGroup, colSetGroup};
use crate::lifecycle::{colCheck, colExit, colInit, colStart};
use crate::objects::{
    ColObjectInfo, colGetObjectInfo, colMakeCollidable, colMakeInstance, colRemoveCollidable,
    colSetTransform, colSetTransformd,
};
use crate::pairs::{colSetGeneralCallback, colSetInterest};
use crate::proximity::{ColProximity, colDistance};
use crate::queries::{ColRayHit, colRayCast};
use crate::status::{
    COL_ERR_INTERNAL, COL_ERR_INVALID_ARGUMENT, COL_ERR_INVALID_HANDLE, COL_ERR_WORLD_LOCKED,
    COL_ERR_WRONG_STATE, COL_OK, ColStatus,
};
use crate::test_support::{TETRAHEDRON_VERTICES, message, tetrahedron_desc, translation};
use crate::tolerance::colSetDefaultTolerance;
use crate::world::{ColObjectId, ColWorld};

/// What the callbacks of a world saw: each collision and event as (kind, client data a, client
/// data b, features, point), and the threads they ran on.
#[derive(Default)]
struct Seen {
    reports: Vec<(u32, usize, usize, u32, u32, [f32; 3])>,
    threads: Vec<ThreadId>,
    /// When set, a callback calls these on its world and keeps the statuses.
    nested: Option<*mut ColWorld>,
    nested_statuses: Vec<ColStatus>,
}

unsafe extern "C" fn on_collision(c: *const ColCollision, user: *mut c_void) {
    // SAFETY: `user` is the test's `Seen`, `c` valid for the call.
    let (seen, c) = unsafe { (&mut *user.cast::<Seen>(), &*c) };
    seen.reports.push((
        u32::MAX,
        c.client_data_a as usize,
        c.client_data_b as usize,
        c.feature_a,
        c.feature_b,
        c.point,
    ));
    seen.threads.push(std::thread::current().id());
    if let Some(world) = seen.nested {
        // SAFETY: the live world being checked.
        unsafe {
            seen.nested_statuses.push(colCheckEnd(world));
            seen.nested_statuses.push(colCheckBegin(world));
        }
    }
}

unsafe extern "C" fn on_event(e: *const ColContactEvent, user: *mut c_void) {
    // SAFETY: `user` is the test's `Seen`, `e` valid for the call.
    let (seen, e) = unsafe { (&mut *user.cast::<Seen>(), &*e) };
    let c = &e.collision;
    seen.reports.push((
        e.event,
        c.client_data_a as usize,
        c.client_data_b as usize,
        c.feature_a,
        c.feature_b,
        c.point,
    ));
    seen.threads.push(std::thread::current().id());
}

fn init(threads: u32) -> *mut ColWorld {
    let config = ColConfig {
        flags: if threads == 1 { 0 } else { COL_FLAG_PARALLEL },
        threads,
        ..ColConfig::default()
    };
    let mut world = std::ptr::null_mut();
    // SAFETY: valid pointers.
    assert_eq!(unsafe { colInit(&config, &mut world) }, COL_OK);
    world
}

/// A pose matrix (column-major) at a random place in a cube of side 3, randomly turned.
fn random_matrix(rng: &mut SeededRng) -> [f64; 16] {
    let t = [0; 3].map(|_| rng.range(-1.5, 1.5));
    let pose = Pose::from_parts(t.into(), rng.rotation());
    let mut m = [0.0; 16];
    m.copy_from_slice(pose.to_homogeneous().as_slice());
    m
}

const OBJECTS: usize = 40;
const FRAMES: usize = 8;

/// Each frame's moves: (object index, column-major matrix).
type FrameMoves = Vec<Vec<(usize, [f64; 16])>>;

/// A started world of unit tetrahedra (client data = index + 1) with the logging callbacks on
/// `seen`, and the moves of each frame (a third of the objects jump), by index.
fn scene(threads: u32, seen: &mut Seen) -> (*mut ColWorld, Vec<ColObjectId>, FrameMoves) {
    let mut rng = SeededRng::new(0xC0C0_C0DE);
    let world = init(threads);
    let desc = tetrahedron_desc(&TETRAHEDRON_VERTICES);
    let mut ids = Vec::new();
    // SAFETY: a live world, valid pointers; `seen` outlives the world's checks.
    unsafe {
        for k in 0..OBJECTS {
            let mut id = 0;
            assert_eq!(
                colMakeCollidable(
                    world,
                    &desc,
                    std::ptr::without_provenance_mut(k + 1),
                    &mut id
                ),
                COL_OK
            );
            assert_eq!(
                colSetTransformd(world, id, random_matrix(&mut rng).as_ptr()),
                COL_OK
            );
            ids.push(id);
        }
        let user = (seen as *mut Seen).cast();
        assert_eq!(
            colSetGeneralCallback(world, Some(on_collision), user),
            COL_OK
        );
        assert_eq!(colSetEventCallback(world, Some(on_event), user), COL_OK);
        assert_eq!(colStart(world), COL_OK);
    }
    let moves = (0..FRAMES)
        .map(|_| {
            (0..OBJECTS / 3)
                .map(|_| (rng.index(OBJECTS), random_matrix(&mut rng)))
                .collect()
        })
        .collect();
    (world, ids, moves)
}

/// `colCheck` after each frame's moves against `colCheckBegin` / `colCheckEnd` with the next
/// frame's moves made while the check runs: the same reports in the same order, on this thread.
fn begin_end_answers_as_colcheck(threads: u32) {
    let mut serial_seen = Seen::default();
    let mut seen = Seen::default();
    let (serial, serial_ids, moves) = scene(threads, &mut serial_seen);
    let (world, ids, _) = scene(threads, &mut seen);
    // SAFETY: live worlds, valid pointers; the `Seen`s outlive the worlds.
    unsafe {
        for &(k, m) in &moves[0] {
            assert_eq!(colSetTransformd(world, ids[k], m.as_ptr()), COL_OK);
        }
        for f in 0..FRAMES {
            for &(k, m) in &moves[f] {
                assert_eq!(colSetTransformd(serial, serial_ids[k], m.as_ptr()), COL_OK);
            }
            assert_eq!(colCheck(serial), COL_OK);
            assert_eq!(colCheckBegin(world), COL_OK);
            for &(k, m) in moves.get(f + 1).into_iter().flatten() {
                assert_eq!(colSetTransformd(world, ids[k], m.as_ptr()), COL_OK);
            }
            assert_eq!(colCheckEnd(world), COL_OK, "{}", message(world));
        }
        assert_eq!(colExit(serial), COL_OK);
        assert_eq!(colExit(world), COL_OK);
    }
    let collisions = seen.reports.iter().filter(|r| r.0 == u32::MAX).count();
    assert!(
        collisions > 20,
        "the scene collides too little: {collisions}"
    );
    assert_eq!(seen.reports, serial_seen.reports);
    let me = std::thread::current().id();
    assert!(seen.threads.iter().all(|&t| t == me));
}

#[test]
fn begin_end_answers_as_colcheck_on_one_thread() {
    begin_end_answers_as_colcheck(1);
}

#[test]
fn begin_end_answers_as_colcheck_on_two_threads() {
    begin_end_answers_as_colcheck(2);
}

/// Two tetrahedra far apart, `b` moved onto `a` while a check runs: that check keeps the old
/// pose, the next one reports the pair.
#[test]
fn a_move_during_the_check_counts_for_the_next_check() {
    let mut seen = Seen::default();
    let world = init(2);
    let desc = tetrahedron_desc(&TETRAHEDRON_VERTICES);
    let (mut a, mut b) = (0, 0);
    // SAFETY: a live world, valid pointers; `seen` outlives the world.
    unsafe {
        let user = (&raw mut seen).cast();
        assert_eq!(
            colMakeCollidable(world, &desc, std::ptr::without_provenance_mut(1), &mut a),
            COL_OK
        );
        assert_eq!(
            colMakeCollidable(world, &desc, std::ptr::without_provenance_mut(2), &mut b),
            COL_OK
        );
        assert_eq!(
            colSetTransformd(world, b, translation(5.0, 0.0, 0.0).as_ptr()),
            COL_OK
        );
        assert_eq!(
            colSetGeneralCallback(world, Some(on_collision), user),
            COL_OK
        );
        assert_eq!(colStart(world), COL_OK);
        assert_eq!(colCheckBegin(world), COL_OK);
        let m = translation(0.25, 0.25, 0.25).map(|x| x as f32);
        assert_eq!(colSetTransform(world, b, m.as_ptr()), COL_OK);
        assert_eq!(colCheckEnd(world), COL_OK);
        assert!(seen.reports.is_empty());
        assert_eq!(colCheck(world), COL_OK);
        assert_eq!(seen.reports.len(), 1);
        assert_eq!((seen.reports[0].1, seen.reports[0].2), (1, 2));
        assert_eq!(colExit(world), COL_OK);
    }
}

/// While a check runs: every call but moves and `colCheckEnd` is `COL_ERR_WORLD_LOCKED` with a
/// message, bad moves get their usual statuses; afterwards the world answers again.
#[test]
fn calls_during_a_check_are_refused() {
    let world = init(1);
    let desc = tetrahedron_desc(&TETRAHEDRON_VERTICES);
    let (mut a, mut removed) = (0, 0);
    // SAFETY: a live world, valid pointers for every call.
    unsafe {
        let null = std::ptr::null_mut();
        assert_eq!(colMakeCollidable(world, &desc, null, &mut a), COL_OK);
        assert_eq!(colMakeCollidable(world, &desc, null, &mut removed), COL_OK);
        assert_eq!(colRemoveCollidable(world, removed), COL_OK);
        assert_eq!(colStart(world), COL_OK);
        assert_eq!(colCheckBegin(world), COL_OK);
        let mut id = 0;
        let mut info = ColObjectInfo::default();
        let (mut group, mut mask) = (0, 0);
        // Written only on success.
        let mut proximity = std::mem::MaybeUninit::<ColProximity>::uninit();
        let mut hit = std::mem::MaybeUninit::<ColRayHit>::uninit();
        let (origin, dir) = ([0.0; 3], [1.0, 0.0, 0.0]);
        let statuses = [
            ("colCheck", colCheck(world)),
            ("colCheckBegin", colCheckBegin(world)),
            ("colCheckContinuous", colCheckContinuous(world)),
            ("colStart", colStart(world)),
            (
                "colMakeCollidable",
                colMakeCollidable(world, &desc, null, &mut id),
            ),
            ("colMakeInstance", colMakeInstance(world, a, null, &mut id)),
            ("colRemoveCollidable", colRemoveCollidable(world, a)),
            ("colSetInterest", colSetInterest(world, a, a, 0)),
            (
                "colSetGeneralCallback",
                colSetGeneralCallback(world, None, null),
            ),
            ("colSetDefaultTolerance", colSetDefaultTolerance(world, 0.1)),
            ("colSetGroup", colSetGroup(world, a, 1, 1)),
            ("colGetGroup", colGetGroup(world, a, &mut group, &mut mask)),
            ("colGetObjectInfo", colGetObjectInfo(world, a, &mut info)),
            (
                "colDistance",
                colDistance(world, a, a, proximity.as_mut_ptr()),
            ),
            (
                "colRayCast",
                colRayCast(world, origin.as_ptr(), dir.as_ptr(), 1.0, hit.as_mut_ptr()),
            ),
        ];
        for (name, status) in statuses {
            assert_eq!(status, COL_ERR_WORLD_LOCKED, "{name}");
        }
        assert!(
            message(world).contains("concurrent check"),
            "{}",
            message(world)
        );
        assert_eq!(id, 0);
        let nan = [f64::NAN; 16];
        assert_eq!(
            colSetTransformd(world, a, nan.as_ptr()),
            COL_ERR_INVALID_ARGUMENT
        );
        let m = translation(1.0, 0.0, 0.0);
        assert_eq!(
            colSetTransformd(world, removed, m.as_ptr()),
            COL_ERR_INVALID_HANDLE
        );
        assert_eq!(
            colSetTransformd(world, 0, m.as_ptr()),
            COL_ERR_INVALID_HANDLE
        );
        assert_eq!(colCheckEnd(world), COL_OK);
        assert_eq!(colGetObjectInfo(world, a, &mut info), COL_OK);
        assert_eq!(info.vertex_count, 4);
        assert_eq!(colExit(world), COL_OK);
    }
}

#[test]
fn wrong_call_orders_get_a_status() {
    let world = init(1);
    let desc = tetrahedron_desc(&TETRAHEDRON_VERTICES);
    let mut id = 0;
    // SAFETY: a live world, valid pointers.
    unsafe {
        assert_eq!(
            colMakeCollidable(world, &desc, std::ptr::null_mut(), &mut id),
            COL_OK
        );
        assert_eq!(colCheckBegin(world), COL_ERR_WRONG_STATE);
        assert_eq!(colCheckEnd(world), COL_ERR_WRONG_STATE);
        assert!(
            message(world).contains("colCheckBegin"),
            "{}",
            message(world)
        );
        assert_eq!(colStart(world), COL_OK);
        assert_eq!(colCheckBegin(world), COL_OK);
        assert_eq!(colCheckEnd(world), COL_OK);
        assert_eq!(colCheckEnd(world), COL_ERR_WRONG_STATE);
        assert_eq!(
            colCheckBegin(std::ptr::null_mut()),
            crate::status::COL_ERR_NULL_ARGUMENT
        );
        assert_eq!(
            colCheckEnd(std::ptr::null_mut()),
            crate::status::COL_ERR_NULL_ARGUMENT
        );
        assert_eq!(colCheck(world), COL_OK);
        assert_eq!(colExit(world), COL_OK);
    }
}

/// Inside a callback of `colCheckEnd`, `colCheckEnd` and `colCheckBegin` are refused.
#[test]
fn begin_and_end_are_refused_in_callbacks() {
    let mut seen = Seen::default();
    let world = init(1);
    let desc = tetrahedron_desc(&TETRAHEDRON_VERTICES);
    let mut id = 0;
    seen.nested = Some(world);
    // SAFETY: a live world, valid pointers; `seen` outlives the world.
    unsafe {
        for _ in 0..2 {
            assert_eq!(
                colMakeCollidable(world, &desc, std::ptr::null_mut(), &mut id),
                COL_OK
            );
        }
        let user = (&raw mut seen).cast();
        assert_eq!(
            colSetGeneralCallback(world, Some(on_collision), user),
            COL_OK
        );
        assert_eq!(colStart(world), COL_OK);
        assert_eq!(colCheckBegin(world), COL_OK);
        assert_eq!(colCheckEnd(world), COL_OK);
        assert_eq!(seen.nested_statuses, [COL_ERR_WORLD_LOCKED; 2]);
        assert_eq!(colExit(world), COL_OK);
    }
}

/// `colExit` while a check runs waits for it and frees the world; no callback is called.
#[test]
fn colexit_during_a_check_waits_and_frees() {
    for threads in [1, 2] {
        let mut seen = Seen::default();
        let (world, _, _) = scene(threads, &mut seen);
        // SAFETY: a live world; `seen` outlives it.
        unsafe {
            assert_eq!(colCheckBegin(world), COL_OK);
            assert_eq!(colExit(world), COL_OK);
        }
        assert!(seen.reports.is_empty());
    }
}

/// A panic in the check's first stage (a bug, injected here through colldet-world's test hook)
/// reaches `colCheckEnd` as `COL_ERR_INTERNAL` with a message, calls no callback, poisons the
/// world (every later call gets `COL_ERR_INTERNAL`), and `colExit` still frees it.
#[test]
fn a_panic_in_the_running_check_poisons_the_world() {
    for threads in [1, 2] {
        let mut seen = Seen::default();
        let (world, ids, _) = scene(threads, &mut seen);
        // SAFETY: a live, idle world; nothing else uses it.
        unsafe {
            match &mut *(*world).world.borrow_mut() {
                WorldSlot::Idle(w) => w.inject_panic_in_next_concurrent_check(),
                _ => panic!("the world is idle before colCheckBegin"),
            }
        }
        // SAFETY: a live world; `seen` outlives it.
        unsafe {
            assert_eq!(colCheckBegin(world), COL_OK);
            assert_eq!(colCheckEnd(world), COL_ERR_INTERNAL);
            let text = message(world);
            assert!(text.contains("panic injected"), "{text}");
            assert!(seen.reports.is_empty(), "no callback after the panic");
            assert_eq!(colCheck(world), COL_ERR_INTERNAL);
            let m = translation(0.0, 0.0, 0.0);
            assert_eq!(
                colSetTransformd(world, ids[0], m.as_ptr()),
                COL_ERR_INTERNAL
            );
            assert_eq!(colCheckEnd(world), COL_ERR_INTERNAL);
            assert_eq!(colExit(world), COL_OK);
        }
    }
}
