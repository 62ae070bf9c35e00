//! Near-contact answers through the C functions (issue 20): the cases of
//! `colldet_testkit::near_contact` (meshes thousands of units in size, thousands of units from the
//! origin, signed gaps of +-1e-2 to +-1e-8 from first contact) given as `ColMeshDescd` (doubles
//! that are not `f32` numbers) or `ColMeshDesc` (floats) and placed by `colSetTransformd`, against
//! the exact oracle evaluated on the very matrices passed (rationals, no rounding).
//!
//! The world re-orthonormalises each matrix (the nearest rotation, in `f64`): the rotation it
//! decides with differs from the matrix given by a few `f64` ulps, about 1e-12 units at this
//! scale, far below the smallest gap.

use std::ffi::c_void;

use colldet_testkit::exact_oracle::{OracleMesh, OraclePose};
use colldet_testkit::near_contact::{NearContactCase, near_contact_cases};

use crate::config::{COL_METHOD_ARBITRARY, COL_METHOD_AUTO, COL_METHOD_BOXTREE, ColConfig};
use crate::lifecycle::{colCheck, colExit, colInit, colStart};
use crate::mesh::{ColMeshDesc, ColMeshDescd};
use crate::objects::{colMakeCollidable, colMakeCollidabled, colSetTransformd};
use crate::pairs::colSetGeneralCallback;
use crate::status::COL_OK;
use crate::{ColCollision, ColMethod, ColObjectId, ColWorld};

/// Counts the collisions reported through the general callback.
unsafe extern "C" fn count(_c: *const ColCollision, user: *mut c_void) {
    // SAFETY: `user` is the `usize` counter registered below, alive during `colCheck`.
    unsafe { *user.cast::<usize>() += 1 };
}

/// The column-major 4x4 matrix of `case`'s pose `pose` (nalgebra's rotation matrix of its
/// quaternion), and the same numbers as an oracle placement.
fn matrix(pose: &colldet_geom::math::Pose) -> ([f64; 16], OraclePose) {
    let r = pose.rotation.to_rotation_matrix().into_inner();
    let t = pose.translation.vector;
    let mut m = [0.0; 16];
    for col in 0..3 {
        for row in 0..3 {
            m[col * 4 + row] = r[(row, col)];
        }
        m[12 + col] = t[col];
    }
    m[15] = 1.0;
    (m, OraclePose::from_matrix(&r, &t))
}

/// Makes `mesh` collidable in `world` as doubles or floats; the object's id.
fn make(world: *mut ColWorld, mesh: &OracleMesh, f32_input: bool) -> ColObjectId {
    let indices: Vec<u32> = mesh.triangles.iter().flatten().copied().collect();
    let mut id = 0;
    let status = if f32_input {
        let xyz: Vec<f32> = mesh.vertices.iter().flatten().map(|&c| c as f32).collect();
        let desc = ColMeshDesc {
            vertices: xyz.as_ptr(),
            vertex_count: mesh.vertices.len(),
            indices: indices.as_ptr(),
            face_sizes: std::ptr::null(),
            face_count: mesh.triangles.len(),
        };
        // SAFETY: the arrays hold the counts stated; `id` is writable.
        unsafe { colMakeCollidable(world, &desc, std::ptr::null_mut(), &mut id) }
    } else {
        let xyz: Vec<f64> = mesh.vertices.iter().flatten().copied().collect();
        let desc = ColMeshDescd {
            vertices: xyz.as_ptr(),
            vertex_count: mesh.vertices.len(),
            indices: indices.as_ptr(),
            face_sizes: std::ptr::null(),
            face_count: mesh.triangles.len(),
        };
        // SAFETY: as above.
        unsafe { colMakeCollidabled(world, &desc, std::ptr::null_mut(), &mut id) }
    };
    assert_eq!(status, COL_OK);
    id
}

/// Runs `case` in a fresh serial world with `method`: (oracle, reported).
fn run(case: &NearContactCase, method: ColMethod) -> (bool, bool) {
    let config = ColConfig {
        flags: 0,
        method,
        ..ColConfig::default()
    };
    let mut world = std::ptr::null_mut();
    // SAFETY: valid pointers throughout; the world is freed at the end.
    unsafe {
        assert_eq!(colInit(&config, &mut world), COL_OK);
        let a = make(world, &case.mesh_a, case.f32_input);
        let b = make(world, &case.mesh_b, case.f32_input);
        let (ma, pa) = matrix(&case.pose_a);
        let (mb, pb) = matrix(&case.pose_b);
        assert_eq!(colSetTransformd(world, a, ma.as_ptr()), COL_OK);
        assert_eq!(colSetTransformd(world, b, mb.as_ptr()), COL_OK);
        let mut reported = 0usize;
        let user = (&raw mut reported).cast::<c_void>();
        assert_eq!(colSetGeneralCallback(world, Some(count), user), COL_OK);
        assert_eq!(colStart(world), COL_OK);
        assert_eq!(colCheck(world), COL_OK);
        colExit(world);
        (case.oracle_with(&pa, &pb).collides(), reported > 0)
    }
}

/// Every case at every gap, `f64` input through `colMakeCollidabled` and `f32` input through
/// `colMakeCollidable`, under the mesh methods: the exact answer for the numbers passed.
#[test]
fn answers_through_the_c_api_are_exact_for_the_numbers_given() {
    let cases = near_contact_cases(21, 12);
    let mut wrong = Vec::new();
    let mut total = 0;
    for case in &cases {
        for method in [COL_METHOD_AUTO, COL_METHOD_ARBITRARY, COL_METHOD_BOXTREE] {
            let (expected, got) = run(case, method);
            total += 1;
            if expected != got {
                wrong.push(format!(
                    "{} method {method}: expected {expected}",
                    case.describe()
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {total} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    assert_eq!(total, 12 * 16 * 3);
}
