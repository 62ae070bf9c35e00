//! The documented limits through the C functions: `COL_MAX_RESOLUTION`, `COL_MAX_COORDINATE`
//! and universes too small for their cells. The largest accepted value works, the next is refused
//! with the documented status, and the world keeps answering (it is never poisoned).

use std::ffi::c_void;

use crate::callback::ColCollision;
use crate::config::{
    COL_BROADPHASE_GRID, COL_BROADPHASE_NONE, COL_BROADPHASE_OCTREE, COL_BROADPHASE_SAP,
    COL_BROADPHASE_TREE, COL_MAX_COORDINATE, COL_MAX_RESOLUTION, ColConfig,
};
use crate::lifecycle::{colCheck, colExit, colInit, colStart};
use crate::objects::{colMakeCollidable, colSetTransform, colSetTransformd};
use crate::pairs::colSetGeneralCallback;
use crate::status::{COL_ERR_INVALID_ARGUMENT, COL_ERR_INVALID_MESH, COL_OK, ColStatus};
use crate::test_support::{TETRAHEDRON_VERTICES, message, tetrahedron_desc};
use crate::world::{ColObjectId, ColWorld};

fn config(broadphase: u32, resolution: u32, lo: f64, hi: f64) -> ColConfig {
    ColConfig {
        broadphase,
        resolution,
        flags: 0,
        universe_min: [lo; 3],
        universe_max: [hi; 3],
        ..ColConfig::default()
    }
}

fn init(config: &ColConfig) -> (ColStatus, *mut ColWorld) {
    let mut world = std::ptr::null_mut();
    // SAFETY: valid pointers.
    let status = unsafe { colInit(config, &mut world) };
    (status, world)
}

/// A tetrahedron with corners `s * (0,0,0), (1,0,0), (0,1,0), (0,0,1)`, as an object of `world`.
fn add_tetrahedron(world: *mut ColWorld, s: f32) -> (ColStatus, ColObjectId) {
    let vertices = TETRAHEDRON_VERTICES.map(|c| c * s);
    let desc = tetrahedron_desc(&vertices);
    let mut id = 0;
    // SAFETY: valid pointers, a live world.
    let status = unsafe { colMakeCollidable(world, &desc, std::ptr::null_mut(), &mut id) };
    (status, id)
}

unsafe extern "C" fn count(_: *const ColCollision, user: *mut c_void) {
    // SAFETY: `user` is the test's counter.
    unsafe { *user.cast::<u32>() += 1 };
}

/// A started world of two overlapping tetrahedra counting the collisions into the returned
/// counter (freed by [`check_and_exit`]).
fn started_pair(config: &ColConfig) -> (*mut ColWorld, *mut u32) {
    let (status, world) = init(config);
    assert_eq!(status, COL_OK, "{config:?}: {}", message(std::ptr::null()));
    assert_eq!(add_tetrahedron(world, 1.0).0, COL_OK);
    assert_eq!(add_tetrahedron(world, 1.0).0, COL_OK);
    let counter = Box::into_raw(Box::new(0u32));
    // SAFETY: a live world; the counter lives until `check_and_exit` frees it after the world.
    unsafe {
        assert_eq!(
            colSetGeneralCallback(world, Some(count), counter.cast()),
            COL_OK
        );
        assert_eq!(colStart(world), COL_OK);
    }
    (world, counter)
}

/// `colCheck` succeeds and reports `expected` collisions; then the world and counter are freed.
fn check_and_exit(world: *mut ColWorld, counter: *mut u32, expected: u32) {
    // SAFETY: a live world, not poisoned; `counter` from `started_pair`, only accessed through
    // this pointer.
    unsafe {
        *counter = 0;
        assert_eq!(colCheck(world), COL_OK, "{}", message(world));
        assert_eq!(*counter, expected);
        assert_eq!(colExit(world), COL_OK);
        drop(Box::from_raw(counter));
    }
}

/// Issue 21, findings 1 and 3: grid and octree resolutions above `COL_MAX_RESOLUTION` (129, and
/// `2^22` whose cell count wrapped to 0 and crashed the first `colStart`), universes beyond
/// `COL_MAX_COORDINATE` (`+-DBL_MAX`, `[1e15, 1e15 + 1]`) and universes whose cells collapse in
/// double precision are `COL_ERR_INVALID_ARGUMENT` (they were `COL_ERR_INTERNAL` or a poisoned
/// world); the largest accepted values give working worlds.
#[test]
fn colinit_refuses_out_of_range_grids_as_invalid_arguments() {
    assert_eq!(COL_MAX_RESOLUTION, 128);
    let max = COL_MAX_COORDINATE;
    for kind in [COL_BROADPHASE_GRID, COL_BROADPHASE_OCTREE] {
        for bad in [
            config(kind, COL_MAX_RESOLUTION + 1, -4.0, 4.0),
            config(kind, 1 << 22, -4.0, 4.0),
            config(kind, 3 << 22, -4.0, 4.0),
            config(kind, u32::MAX, -4.0, 4.0),
            config(kind, 16, -f64::MAX, f64::MAX),
            config(kind, 16, -max.next_up(), 0.0),
            config(kind, 16, 0.0, max.next_up()),
            config(kind, 16, 1e15, 1e15 + 1.0),
            // Inside the limit, but 16 cells of 1/128 are narrower than the spacing (1/64).
            config(kind, 16, 1e14, 1e14 + 0.125),
        ] {
            let (status, world) = init(&bad);
            assert_eq!(status, COL_ERR_INVALID_ARGUMENT, "{bad:?}");
            assert!(world.is_null());
            assert!(
                message(std::ptr::null()).contains("invalid configuration"),
                "{}",
                message(std::ptr::null())
            );
        }
        for good in [
            config(kind, COL_MAX_RESOLUTION, -4.0, 4.0),
            config(kind, COL_MAX_RESOLUTION, -max, max),
            config(kind, 16, 1e14, 1e14 + 1.0),
        ] {
            let (world, counter) = started_pair(&good);
            check_and_exit(world, counter, 1);
        }
    }
}

fn translation(t: [f64; 3]) -> [f64; 16] {
    let mut m = [0.0; 16];
    (0..4).for_each(|i| m[5 * i] = 1.0);
    m[12..15].copy_from_slice(&t);
    m
}

/// Issue 21, finding 2: a translation near `DBL_MAX` (whose world box overflowed) and mesh
/// vertices of magnitude 2e38 (finite floats whose corner distance is not), given after
/// `colStart` to a world of valid objects, are refused with `COL_ERR_INVALID_ARGUMENT` and
/// `COL_ERR_INVALID_MESH`; `COL_MAX_COORDINATE` itself is accepted, the next value is not; the
/// world keeps answering, on every broad phase.
#[test]
fn coordinates_beyond_the_limit_are_refused_and_the_world_stays_usable() {
    let max = COL_MAX_COORDINATE;
    for kind in [
        COL_BROADPHASE_SAP,
        COL_BROADPHASE_GRID,
        COL_BROADPHASE_OCTREE,
        COL_BROADPHASE_TREE,
        COL_BROADPHASE_NONE,
    ] {
        let (world, counter) = started_pair(&config(kind, 8, -4.0, 4.0));
        let (status, far) = add_tetrahedron(world, 1.0);
        assert_eq!(status, COL_OK);
        // SAFETY: a live world and valid matrices throughout.
        unsafe {
            for t in [
                f64::MAX,
                f64::MAX.next_down(),
                max.next_up(),
                -max.next_up(),
            ] {
                for c in 0..3 {
                    let mut v = [0.0; 3];
                    v[c] = t;
                    let m = translation(v);
                    assert_eq!(
                        colSetTransformd(world, far, m.as_ptr()),
                        COL_ERR_INVALID_ARGUMENT
                    );
                    assert!(message(world).contains("1e15"), "{}", message(world));
                    let m32 = m.map(|x| x as f32);
                    if f64::from(m32[12 + c]).abs() > max {
                        assert_eq!(
                            colSetTransform(world, far, m32.as_ptr()),
                            COL_ERR_INVALID_ARGUMENT
                        );
                    }
                }
            }
            let m = translation([max, -max, max]);
            assert_eq!(colSetTransformd(world, far, m.as_ptr()), COL_OK);
        }
        let largest = max as f32;
        assert!(f64::from(largest) <= max && f64::from(largest.next_up()) > max);
        for s in [2e38, f32::MAX, largest.next_up()] {
            let (status, id) = add_tetrahedron(world, s);
            assert_eq!(status, COL_ERR_INVALID_MESH, "{s}");
            assert_eq!(id, 0);
            assert!(message(world).contains("1e15"), "{}", message(world));
        }
        // The largest accepted tetrahedron holds the other two (at the origin): two new pairs
        // besides the first check's.
        assert_eq!(add_tetrahedron(world, largest).0, COL_OK);
        check_and_exit(world, counter, 3);
    }
}
