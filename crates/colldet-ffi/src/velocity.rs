//! Scheduling pair tests by time to collision: `colSetVelocityBound` and
//! `colSetVelocityMeasured` (wrapping `colldet_world::World::set_velocity_bound`).

use colldet_world::VelocityBound;

use crate::boundary::{Access, with_world};
use crate::status::{ColStatus, Failure};
use crate::world::{ColObjectId, ColWorld, object_id};

/// Gives object `id` a motion bound, which puts its pairs with other bounded objects on the
/// time-to-collision schedule: the unit of time is one check (`colCheck` or
/// `colCheckContinuous`); between two consecutive checks the object's origin moves at most
/// `max_linear` world units and it turns at most `max_angular` radians (a move spanning `k`
/// checks may be `k` times as large). A pair found separated at a few consecutive checks gets a
/// certified lower bound on its distance and is not tested again until the objects' actual
/// motion since then (measured at every check: origin travel plus `2 sin(angle / 2)` times the
/// object's radius) could have closed it. `colCheck` reports exactly what it reports without the
/// schedule, even when a bound is wrong: bounds only plan when distances are taken, and moves
/// beyond them are counted. `max_linear = max_angular = INFINITY` removes the bound (the
/// default: the object's pairs are tested at every check).
///
/// Errors: `COL_ERR_INVALID_HANDLE` for a bad id, `COL_ERR_INVALID_ARGUMENT` for a negative or
/// NaN value or a single infinite one, `COL_ERR_WORLD_LOCKED` inside a callback.
///
/// # Safety
/// `world` is NULL or a live world; not concurrently with other calls on the same world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colSetVelocityBound(
    world: *mut ColWorld,
    id: ColObjectId,
    max_linear: f64,
    max_angular: f64,
) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        with_world(world, "colSetVelocityBound", Access::Structural, |w| {
            let id = object_id(id)?;
            let bound = if max_linear == f64::INFINITY && max_angular == f64::INFINITY {
                VelocityBound::Unbounded
            } else {
                VelocityBound::PerCheck {
                    max_linear,
                    max_angular,
                }
            };
            Ok(w.world.borrow_mut().set_velocity_bound(id, bound)?)
        })
    }
}

/// Puts object `id` on the time-to-collision schedule without a bound: the schedule plans with
/// the object's measured motion (its largest recent point displacement per check, decaying by
/// 10% per check). As with `colSetVelocityBound`, the skips are certified by the actual motion.
///
/// Errors: `COL_ERR_INVALID_HANDLE` for a bad id, `COL_ERR_WORLD_LOCKED` inside a callback.
///
/// # Safety
/// `world` is NULL or a live world; not concurrently with other calls on the same world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colSetVelocityMeasured(
    world: *mut ColWorld,
    id: ColObjectId,
) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        with_world(world, "colSetVelocityMeasured", Access::Structural, |w| {
            let id = object_id(id)?;
            Ok(w.world
                .borrow_mut()
                .set_velocity_bound(id, VelocityBound::Measured)?)
        })
    }
}

/// Writes the number of pair tests the time-to-collision schedule saved at the last check to
/// `*out_saved` (0 without the schedule; written on success only).
///
/// Errors: `COL_ERR_NULL_ARGUMENT` for a NULL `out_saved`.
///
/// # Safety
/// `world` is NULL or a live world; `out_saved` NULL or writable; not concurrently with other
/// calls on the same world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colGetScheduleSavedTests(
    world: *mut ColWorld,
    out_saved: *mut u64,
) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        with_world(world, "colGetScheduleSavedTests", Access::Any, |w| {
            if out_saved.is_null() {
                return Err(Failure::null("out_saved"));
            }
            let saved = w.world.borrow().stats().ttc_skipped_pairs;
            out_saved.write(saved as u64);
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lifecycle::colExit;
    use crate::objects::{colMakeCollidable, colRemoveCollidable};
    use crate::status::{
        COL_ERR_INVALID_ARGUMENT, COL_ERR_INVALID_HANDLE, COL_ERR_NULL_ARGUMENT, COL_OK,
    };
    use crate::test_support::{TETRAHEDRON_VERTICES, message, new_world, tetrahedron_desc};

    #[test]
    fn bounds_are_checked_and_bad_input_is_typed() {
        let world = new_world();
        let desc = tetrahedron_desc(&TETRAHEDRON_VERTICES);
        let mut a = 0;
        // SAFETY: a live world and valid pointers.
        unsafe {
            assert_eq!(
                colMakeCollidable(world, &desc, std::ptr::null_mut(), &mut a),
                COL_OK
            );
            assert_eq!(colSetVelocityBound(world, a, 0.5, 0.1), COL_OK);
            assert_eq!(
                colSetVelocityBound(world, a, f64::INFINITY, f64::INFINITY),
                COL_OK
            );
            assert_eq!(colSetVelocityMeasured(world, a), COL_OK);
            for (l, r) in [
                (-1.0, 0.0),
                (0.0, -1.0),
                (f64::NAN, 0.0),
                (0.0, f64::NAN),
                (f64::INFINITY, 0.0),
            ] {
                assert_eq!(
                    colSetVelocityBound(world, a, l, r),
                    COL_ERR_INVALID_ARGUMENT
                );
                assert!(message(world).contains("max_"), "{}", message(world));
            }
            let mut saved = 7;
            assert_eq!(colGetScheduleSavedTests(world, &mut saved), COL_OK);
            assert_eq!(saved, 0);
            assert_eq!(
                colGetScheduleSavedTests(world, std::ptr::null_mut()),
                COL_ERR_NULL_ARGUMENT
            );
            assert_eq!(colRemoveCollidable(world, a), COL_OK);
            assert_eq!(
                colSetVelocityBound(world, a, 0.5, 0.1),
                COL_ERR_INVALID_HANDLE
            );
            assert_eq!(colSetVelocityMeasured(world, a), COL_ERR_INVALID_HANDLE);
            assert_eq!(
                colSetVelocityBound(world, 0, 0.5, 0.1),
                COL_ERR_INVALID_HANDLE
            );
            assert_eq!(colExit(world), COL_OK);
        }
    }
}
