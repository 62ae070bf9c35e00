//! Collision groups: `colSetGroup` / `colGetGroup` (wrapping `colldet_world::World::set_group`).

use crate::boundary::{Access, with_world};
use crate::status::{ColStatus, Failure};
use crate::world::{ColObjectId, ColWorld, object_id};

/// The default group and mask of every object: all bits (every pair admitted, as without
/// groups).
pub const COL_ALL_GROUPS: u32 = u32::MAX;

/// Sets object `id`'s collision group bits and mask. A pair `{a, b}` is checked only when
/// `(group_a & mask_b) != 0 && (group_b & mask_a) != 0` and the interest matrix does not switch
/// it off (`colSetInterest`); both conditions must hold. Defaults: group and mask
/// `COL_ALL_GROUPS`. A change takes effect at the next `colCheck` (and `colCheckContinuous`,
/// `colTrace`): a contact now excluded gets `COL_EVENT_END`, a pair now admitted and colliding
/// `COL_EVENT_BEGIN`; it is not a move (collision callbacks report pairs with a moved object).
/// `COL_ERR_INVALID_HANDLE` for a bad id, `COL_ERR_WORLD_LOCKED` inside a callback.
///
/// # Safety
/// `world` is NULL or a live world; not concurrently with other calls on the same world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colSetGroup(
    world: *mut ColWorld,
    id: ColObjectId,
    group: u32,
    mask: u32,
) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        with_world(world, "colSetGroup", Access::Structural, |w| {
            let id = object_id(id)?;
            Ok(w.world.borrow_mut().set_group(id, group, mask)?)
        })
    }
}

/// Writes object `id`'s group bits and mask to `*group` and `*mask` (on success only). Allowed
/// inside callbacks. `COL_ERR_NULL_ARGUMENT` for a NULL out pointer, `COL_ERR_INVALID_HANDLE`
/// for a bad id.
///
/// # Safety
/// `world` is NULL or a live world; `group` and `mask` NULL or valid for writes; not
/// concurrently with other calls on the same world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colGetGroup(
    world: *mut ColWorld,
    id: ColObjectId,
    group: *mut u32,
    mask: *mut u32,
) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        with_world(world, "colGetGroup", Access::Any, |w| {
            if group.is_null() {
                return Err(Failure::null("group"));
            }
            if mask.is_null() {
                return Err(Failure::null("mask"));
            }
            let g = w.world.borrow().group(object_id(id)?)?;
            // SAFETY: non-null and valid for writes (caller's contract).
            *group = g.group;
            // SAFETY: as above.
            *mask = g.mask;
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lifecycle::colExit;
    use crate::objects::{colMakeCollidable, colRemoveCollidable};
    use crate::status::{COL_ERR_INVALID_HANDLE, COL_ERR_NULL_ARGUMENT, COL_OK};
    use crate::test_support::{TETRAHEDRON_VERTICES, message, new_world, tetrahedron_desc};

    #[test]
    fn groups_round_trip_and_bad_input_is_typed() {
        let world = new_world();
        let desc = tetrahedron_desc(&TETRAHEDRON_VERTICES);
        let mut id = 0;
        let (mut g, mut m) = (0, 0);
        // SAFETY: a live world, valid pointers.
        unsafe {
            assert_eq!(
                colMakeCollidable(world, &desc, std::ptr::null_mut(), &mut id),
                COL_OK
            );
            assert_eq!(colGetGroup(world, id, &mut g, &mut m), COL_OK);
            assert_eq!((g, m), (COL_ALL_GROUPS, COL_ALL_GROUPS));
            assert_eq!(colSetGroup(world, id, 2, 5), COL_OK);
            assert_eq!(colGetGroup(world, id, &mut g, &mut m), COL_OK);
            assert_eq!((g, m), (2, 5));
            assert_eq!(
                colGetGroup(world, id, std::ptr::null_mut(), &mut m),
                COL_ERR_NULL_ARGUMENT
            );
            assert_eq!(colSetGroup(world, 0, 1, 1), COL_ERR_INVALID_HANDLE);
            assert_eq!(colRemoveCollidable(world, id), COL_OK);
            assert_eq!(colSetGroup(world, id, 1, 1), COL_ERR_INVALID_HANDLE);
            assert!(message(world).contains("id"), "{}", message(world));
            assert_eq!(
                colSetGroup(std::ptr::null_mut(), id, 1, 1),
                COL_ERR_NULL_ARGUMENT
            );
            assert_eq!(colExit(world), COL_OK);
        }
    }
}
