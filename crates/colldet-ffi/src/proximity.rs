//! Proximity queries: `colDistance` (signed distance, closest points, normal, features) and
//! `colWithinDistance` (tolerance verification), on two objects of a world at their current
//! poses. Both wrap `colldet_world::World::distance` / `within_distance`; they change nothing
//! in the world, so they are allowed before and after `colStart` and inside callbacks.

use colldet_world::Proximity;

use crate::boundary::{Access, with_world};
use crate::status::{ColStatus, Failure};
use crate::world::{ColObjectId, ColWorld, object_id};

/// What `colDistance` reports about objects `a` and `b`, in world coordinates.
///
/// `distance` is signed: `> 0` the objects are apart by that Euclidean distance, `0` they touch
/// (or, unless both are convex, they collide: surfaces crossing or one object inside the other,
/// closed one, whose depth is not measured), `< 0` two convex objects penetrate and `-distance`
/// is the penetration depth (the shortest translation of `b`, along `normal`, that separates
/// them).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ColProximity {
    /// Signed distance (see the type): `> 0` separated, `0` touching, `< 0` penetration depth
    /// (negated).
    pub distance: f64,
    /// The closest point on `a`; for a penetrating pair `a`'s deepest point into `b`; for a
    /// colliding non-convex pair a point of both objects.
    pub point_a: [f64; 3],
    /// The closest point on `b` (or `b`'s deepest point into `a`, or the common point).
    pub point_b: [f64; 3],
    /// Unit normal from `a` towards `b`; zero where no direction is defined (distance 0 between
    /// non-convex objects or at an exact touching point).
    pub normal: [f64; 3],
    /// Index of the face of `a` (as given) holding `point_a`, or `COL_NO_FEATURE`.
    pub feature_a: u32,
    /// Index of the face of `b` (as given) holding `point_b`, or `COL_NO_FEATURE` (the
    /// container of a contained object).
    pub feature_b: u32,
}

impl ColProximity {
    pub(crate) fn from_world(p: &Proximity) -> Self {
        Self {
            distance: p.distance,
            point_a: p.point_a.coords.into(),
            point_b: p.point_b.coords.into(),
            normal: p.normal.into(),
            feature_a: p.feature_a,
            feature_b: p.feature_b,
        }
    }
}

/// The signed distance between objects `a` and `b` at their current poses, with closest points,
/// normal and faces (see `ColProximity`), written to `*out` on success (left unchanged on
/// failure). Two convex objects: GJK's distance (accurate to `1e-10` of itself plus about
/// `1e-12` of the objects' size and distance) or EPA's depth. Other pairs: the exact collision
/// test, then the surfaces' distance through the RSS bounds of the objects' OBBRSS trees (exact up to rounding for
/// the vertices as given). Allowed before and after `colStart` and inside callbacks.
///
/// Errors: `COL_ERR_NULL_ARGUMENT` for a NULL `world` or `out`, `COL_ERR_INVALID_HANDLE` for a
/// stale, foreign or 0 id, `COL_ERR_INVALID_ARGUMENT` when `a == b`, `COL_ERR_NUMERICAL` when
/// an algorithm fails numerically.
///
/// # Safety
/// `world` is NULL or a live world; `out` is NULL or writable. Not concurrently with other
/// calls on the same world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colDistance(
    world: *mut ColWorld,
    a: ColObjectId,
    b: ColObjectId,
    out: *mut ColProximity,
) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        with_world(world, "colDistance", Access::Any, |w| {
            if out.is_null() {
                return Err(Failure::null("out"));
            }
            let p = w
                .world
                .borrow_mut()
                .distance(object_id(a)?, object_id(b)?)?;
            out.write(ColProximity::from_world(&p));
            Ok(())
        })
    }
}

/// `colDistance` with a bound on the relative error of a separated pair's distance: the
/// reported `distance` `d` satisfies `d_true <= d <= (1 + rel_error) d_true`, and `point_a`,
/// `point_b` are points of the objects `d` apart (the refinement stops early: convex pairs end GJK
/// when its upper bound is within the factor of its lower bound, other pairs prune tree node
/// pairs that cannot improve the answer by more than the factor). Touching, colliding and
/// penetrating pairs are answered as by `colDistance`; `rel_error` 0 is `colDistance`, `+inf`
/// accepts any upper bound. Allowed before and after `colStart` and inside callbacks.
///
/// Errors: as `colDistance`, and `COL_ERR_INVALID_ARGUMENT` for a negative or NaN `rel_error`.
///
/// # Safety
/// `world` is NULL or a live world; `out` is NULL or writable. Not concurrently with other
/// calls on the same world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colDistanceApprox(
    world: *mut ColWorld,
    a: ColObjectId,
    b: ColObjectId,
    rel_error: f64,
    out: *mut ColProximity,
) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        with_world(world, "colDistanceApprox", Access::Any, |w| {
            if out.is_null() {
                return Err(Failure::null("out"));
            }
            let p =
                w.world
                    .borrow_mut()
                    .distance_approx(object_id(a)?, object_id(b)?, rel_error)?;
            out.write(ColProximity::from_world(&p));
            Ok(())
        })
    }
}

/// Whether objects `a` and `b` are within `tolerance` of each other at their current poses
/// (colliding pairs included): `*out_within` is set to 1 when `colDistance` would report
/// `distance <= tolerance`, else 0 (written on success only). Decided as soon as it is known,
/// without the exact distance: two convex objects stop GJK when a bound crosses `tolerance`;
/// other pairs stop the tree traversal at the first triangle pair within `tolerance` (node
/// pairs farther apart are pruned), and only when there is none run the exact collision test.
/// For two convex objects the answer may differ from the distance's only when `tolerance` is
/// within GJK's accuracy of the distance. Allowed before and after `colStart` and inside
/// callbacks.
///
/// Errors: as `colDistance` (`out_within` NULL is `COL_ERR_NULL_ARGUMENT`), and
/// `COL_ERR_INVALID_ARGUMENT` for a negative or NaN `tolerance` (`+inf` answers 1).
///
/// # Safety
/// `world` is NULL or a live world; `out_within` is NULL or writable. Not concurrently with
/// other calls on the same world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colWithinDistance(
    world: *mut ColWorld,
    a: ColObjectId,
    b: ColObjectId,
    tolerance: f64,
    out_within: *mut i32,
) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        with_world(world, "colWithinDistance", Access::Any, |w| {
            if out_within.is_null() {
                return Err(Failure::null("out_within"));
            }
            let within =
                w.world
                    .borrow_mut()
                    .within_distance(object_id(a)?, object_id(b)?, tolerance)?;
            out_within.write(i32::from(within));
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use std::ffi::c_void;

    use super::*;
    use crate::callback::{COL_NO_FEATURE, ColCollision};
    use crate::lifecycle::{colCheck, colExit, colStart};
    use crate::objects::{colMakeCollidable, colRemoveCollidable, colSetTransformd};
    use crate::pairs::colSetGeneralCallback;
    use crate::status::{
        COL_ERR_INVALID_ARGUMENT, COL_ERR_INVALID_HANDLE, COL_ERR_NULL_ARGUMENT, COL_OK,
    };
    use crate::test_support::{
        TETRAHEDRON_VERTICES, message, new_world, tetrahedron_desc, translation,
    };

    /// A world with two unit tetrahedra, b translated by `(x, 0, 0)`.
    fn two_tetrahedra(x: f64) -> (*mut ColWorld, ColObjectId, ColObjectId) {
        let world = new_world();
        let desc = tetrahedron_desc(&TETRAHEDRON_VERTICES);
        let (mut a, mut b) = (0, 0);
        // SAFETY: a live world and valid pointers.
        unsafe {
            assert_eq!(
                colMakeCollidable(world, &desc, std::ptr::null_mut(), &mut a),
                COL_OK
            );
            assert_eq!(
                colMakeCollidable(world, &desc, std::ptr::null_mut(), &mut b),
                COL_OK
            );
            assert_eq!(
                colSetTransformd(world, b, translation(x, 0.0, 0.0).as_ptr()),
                COL_OK
            );
        }
        (world, a, b)
    }

    #[test]
    fn distance_and_tolerance_of_two_tetrahedra() {
        // b's face x = 1.5 + 0 ... its vertex (1.5, 0, 0) is 0.5 from a's vertex (1, 0, 0).
        let (world, a, b) = two_tetrahedra(1.5);
        let mut p = ColProximity {
            distance: f64::NAN,
            point_a: [0.0; 3],
            point_b: [0.0; 3],
            normal: [0.0; 3],
            feature_a: COL_NO_FEATURE,
            feature_b: COL_NO_FEATURE,
        };
        let mut within = -1;
        // SAFETY: a live world and valid pointers.
        unsafe {
            assert_eq!(colDistance(world, a, b, &mut p), COL_OK);
            assert!((p.distance - 0.5).abs() < 1e-12, "{p:?}");
            assert!((p.normal[0] - 1.0).abs() < 1e-12);
            assert_ne!(p.feature_a, COL_NO_FEATURE);
            assert_eq!(
                colWithinDistance(world, a, b, 0.5 + 1e-9, &mut within),
                COL_OK
            );
            assert_eq!(within, 1);
            assert_eq!(
                colWithinDistance(world, a, b, 0.5 - 1e-9, &mut within),
                COL_OK
            );
            assert_eq!(within, 0);
            assert_eq!(colExit(world), COL_OK);
        }
    }

    #[test]
    fn bad_arguments_leave_the_outputs_alone() {
        let (world, a, b) = two_tetrahedra(3.0);
        let mut within = 7;
        // SAFETY: a live world; NULL and dangling-free pointers only.
        unsafe {
            for t in [-1.0, f64::NAN] {
                assert_eq!(
                    colWithinDistance(world, a, b, t, &mut within),
                    COL_ERR_INVALID_ARGUMENT
                );
                assert!(message(world).contains("tolerance"), "{}", message(world));
            }
            assert_eq!(within, 7);
            assert_eq!(
                colWithinDistance(world, a, a, 1.0, &mut within),
                COL_ERR_INVALID_ARGUMENT
            );
            assert_eq!(
                colWithinDistance(world, a, b, 1.0, std::ptr::null_mut()),
                COL_ERR_NULL_ARGUMENT
            );
            assert_eq!(
                colDistance(world, a, b, std::ptr::null_mut()),
                COL_ERR_NULL_ARGUMENT
            );
            let mut p = std::mem::zeroed::<ColProximity>();
            assert_eq!(colDistance(world, a, 0, &mut p), COL_ERR_INVALID_HANDLE);
            assert_eq!(colRemoveCollidable(world, b), COL_OK);
            assert_eq!(colDistance(world, a, b, &mut p), COL_ERR_INVALID_HANDLE);
            assert_eq!(p, std::mem::zeroed::<ColProximity>());
            assert_eq!(
                colDistance(std::ptr::null_mut(), a, b, &mut p),
                COL_ERR_NULL_ARGUMENT
            );
            assert_eq!(colExit(world), COL_OK);
        }
    }

    /// What the callback below saw.
    struct Seen {
        world: *mut ColWorld,
        status: ColStatus,
        distance: f64,
    }

    unsafe extern "C" fn measure(c: *const ColCollision, user: *mut c_void) {
        // SAFETY: the test passes a `Seen` and the collision is valid during the call.
        unsafe {
            let seen = &mut *user.cast::<Seen>();
            let c = &*c;
            let mut p = std::mem::zeroed::<ColProximity>();
            seen.status = colDistance(seen.world, c.a, c.b, &mut p);
            seen.distance = p.distance;
        }
    }

    #[test]
    fn queries_are_allowed_inside_callbacks() {
        let (world, _a, _b) = two_tetrahedra(0.25);
        let mut seen = Seen {
            world,
            status: -1,
            distance: f64::NAN,
        };
        // SAFETY: a live world; `seen` outlives the check.
        unsafe {
            assert_eq!(
                colSetGeneralCallback(world, Some(measure), (&raw mut seen).cast()),
                COL_OK
            );
            assert_eq!(colStart(world), COL_OK);
            assert_eq!(colCheck(world), COL_OK);
            assert_eq!(seen.status, COL_OK);
            assert!(seen.distance < 0.0, "{}", seen.distance);
            assert_eq!(colExit(world), COL_OK);
        }
    }
}
