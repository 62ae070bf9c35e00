//! Objects: `colMakeCollidable(d)`, `colMakeInstance`, `colRemoveCollidable`, `colSetTransform(d)`,
//! `colGetObjectInfo`.

use std::ffi::c_void;

use crate::boundary::{Access, with_world};
use crate::mesh::{ColMeshDesc, ColMeshDescd};
use crate::status::{COL_ERR_INVALID_ARGUMENT, ColStatus, Failure};
use crate::world::{ClientData, ColObjectId, ColWorld, object_id};

/// `ColObjectInfo::flags`: the object is a convex polyhedron.
pub const COL_SHAPE_CONVEX: u32 = 1;
/// `ColObjectInfo::flags`: every edge has two faces (a closed surface: it has an inside).
pub const COL_SHAPE_CLOSED: u32 = 2;
/// `ColObjectInfo::flags`: edges and vertices are manifold.
pub const COL_SHAPE_MANIFOLD: u32 = 4;
/// `ColObjectInfo::flags`: faces are consistently oriented (after colldet's repair).
pub const COL_SHAPE_ORIENTED: u32 = 8;

/// Facts about an object's mesh, as classified when it was made collidable.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ColObjectInfo {
    /// `COL_SHAPE_*` bits.
    pub flags: u32,
    /// Vertices as given (including unused ones).
    pub vertex_count: u32,
    /// Undirected edges.
    pub edge_count: u32,
    /// Faces kept for collision (degenerate ones dropped).
    pub face_count: u32,
}

/// Copies a mesh into a new object at the identity pose and stores its id in `*out_id` (0 on
/// failure). `client_data` is handed back in its collisions, never dereferenced. Allowed before
/// and after `colStart`. Fails with `COL_ERR_INVALID_MESH` naming the problem (no vertices or
/// faces, index out of range, face with fewer than 3 vertices, non-finite coordinate or one of
/// magnitude above `COL_MAX_COORDINATE`, no face of non-zero area), `COL_ERR_OUT_OF_MEMORY`
/// when the world holds `max_collidables` objects, `COL_ERR_WORLD_LOCKED` inside a callback.
/// Flat and open meshes (a triangle, a quad, a planar soup) are accepted: they are their
/// surface.
///
/// # Safety
/// `world` is NULL or a live world; `desc` is NULL or points to a `ColMeshDesc` whose arrays
/// hold the counts it states (they are only read during the call); `out_id` is NULL or
/// writable. Not concurrently with other calls on the same world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colMakeCollidable(
    world: *mut ColWorld,
    desc: *const ColMeshDesc,
    client_data: *mut c_void,
    out_id: *mut ColObjectId,
) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        make_collidable(world, "colMakeCollidable", client_data, out_id, || {
            desc.as_ref()
                .ok_or_else(|| Failure::null("desc"))?
                .to_mesh_data()
        })
    }
}

/// `colMakeCollidable` for a mesh with `double` coordinates: the object's answers are exact
/// for the doubles given (a mesh given in `float` is exact for its floats). Same rules, errors
/// and `*out_id` (0 on failure) as `colMakeCollidable`.
///
/// # Safety
/// `world` is NULL or a live world; `desc` is NULL or points to a `ColMeshDescd` whose arrays
/// hold the counts it states (they are only read during the call); `out_id` is NULL or
/// writable. Not concurrently with other calls on the same world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colMakeCollidabled(
    world: *mut ColWorld,
    desc: *const ColMeshDescd,
    client_data: *mut c_void,
    out_id: *mut ColObjectId,
) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        make_collidable(world, "colMakeCollidabled", client_data, out_id, || {
            desc.as_ref()
                .ok_or_else(|| Failure::null("desc"))?
                .to_mesh_data()
        })
    }
}

/// The body of both `colMakeCollidable` forms: `mesh` copies the caller's description.
///
/// # Safety
/// `world` is NULL or a live world; `out_id` is NULL or writable; `mesh` only reads memory
/// the caller vouched for.
unsafe fn make_collidable(
    world: *mut ColWorld,
    name: &'static str,
    client_data: *mut c_void,
    out_id: *mut ColObjectId,
    mesh: impl FnOnce() -> Result<colldet_geom::MeshData, Failure>,
) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        // 0 on every failure, also those answered before the body runs (NULL or poisoned
        // world, call from a callback).
        if !out_id.is_null() {
            out_id.write(0);
        }
        with_world(world, name, Access::Structural, |w| {
            if out_id.is_null() {
                return Err(Failure::null("out_id"));
            }
            let mesh = mesh()?;
            let id = w
                .world
                .borrow_mut()
                .make_collidable(mesh, ClientData(client_data))?;
            out_id.write(id.to_raw());
            Ok(())
        })
    }
}

/// Makes another object that shares the geometry of `source` (instancing: no copy, no rebuild;
/// the mesh stays alive while any object uses it) at the identity pose, and stores its id in
/// `*out_id` (0 on failure). Its witness features index the source's mesh as given. Use it for
/// many objects of one shape: each `colMakeCollidable` copies and classifies its mesh anew.
/// Fails with `COL_ERR_INVALID_HANDLE` for an unknown or stale `source`,
/// `COL_ERR_OUT_OF_MEMORY` when the world holds `max_collidables` objects,
/// `COL_ERR_WORLD_LOCKED` inside a callback.
///
/// # Safety
/// `world` is NULL or a live world; `out_id` is NULL or writable. Not concurrently with other
/// calls on the same world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colMakeInstance(
    world: *mut ColWorld,
    source: ColObjectId,
    client_data: *mut c_void,
    out_id: *mut ColObjectId,
) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        // 0 on every failure, also those answered before the body runs (NULL or poisoned
        // world, call from a callback).
        if !out_id.is_null() {
            out_id.write(0);
        }
        with_world(world, "colMakeInstance", Access::Structural, |w| {
            if out_id.is_null() {
                return Err(Failure::null("out_id"));
            }
            let source = object_id(source)?;
            let id = w
                .world
                .borrow_mut()
                .make_instance(source, ClientData(client_data))?;
            out_id.write(id.to_raw());
            Ok(())
        })
    }
}

/// Removes an object. Its id becomes stale (`COL_ERR_INVALID_HANDLE` from then on), its pair
/// settings and callbacks are dropped; its client data is not touched. Its contacts get
/// `COL_EVENT_END` at the next `colCheck` (with this client data).
///
/// # Safety
/// `world` is NULL or a live world; not concurrently with other calls on the same world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colRemoveCollidable(world: *mut ColWorld, id: ColObjectId) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        with_world(world, "colRemoveCollidable", Access::Structural, |w| {
            let id = object_id(id)?;
            let data = w.world.borrow_mut().remove(id)?;
            // Its contacts end at the next check, with this client data.
            w.events.note_removed(id, data);
            Ok(())
        })
    }
}

fn set_matrix(w: &ColWorld, id: ColObjectId, m: &[f64; 16]) -> Result<(), Failure> {
    let id = object_id(id)?;
    w.world.borrow_mut().set_transform_matrix(id, m)
}

/// Sets an object's pose (local to world) from a column-major 4x4 matrix, `m[col * 4 + row]`
/// as OpenGL stores it (translation in `m[12..15]`), and marks it moved. The matrix must be
/// finite and rigid: bottom row `(0, 0, 0, 1)` and rotation part `R` with `R^T R = I` (entry
/// errors at most 1e-4, relative to 1) and `det R > 0`, with each translation component of
/// magnitude at most `COL_MAX_COORDINATE`; otherwise `COL_ERR_INVALID_ARGUMENT` with a message
/// naming the problem (NaN, scale or shear, mirroring, projective row, translation too large),
/// and the pose is unchanged. Allowed inside callbacks: the move counts for the next `colCheck`.
/// Allowed while a concurrent check runs (`colCheckBegin`): the move counts for the next check
/// (the running one keeps the poses it started with); `id` must name an object live at
/// `colCheckBegin`.
///
/// # Safety
/// `world` is NULL or a live world; `m` is NULL or points to 16 readable floats. Not
/// concurrently with other calls on the same world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colSetTransform(
    world: *mut ColWorld,
    id: ColObjectId,
    m: *const f32,
) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        with_world(world, "colSetTransform", Access::Move, |w| {
            let m = m
                .cast::<[f32; 16]>()
                .as_ref()
                .ok_or_else(|| Failure::null("m"))?;
            set_matrix(w, id, &m.map(f64::from))
        })
    }
}

/// `colSetTransform` for double-precision matrices (poses are kept in double precision).
///
/// # Safety
/// As `colSetTransform`, with `m` pointing to 16 readable doubles.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colSetTransformd(
    world: *mut ColWorld,
    id: ColObjectId,
    m: *const f64,
) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        with_world(world, "colSetTransformd", Access::Move, |w| {
            let m = m
                .cast::<[f64; 16]>()
                .as_ref()
                .ok_or_else(|| Failure::null("m"))?;
            set_matrix(w, id, m)
        })
    }
}

/// Writes the classification and counts of an object's mesh to `*out`. Allowed inside
/// callbacks.
///
/// # Safety
/// `world` is NULL or a live world; `out` is NULL or writable. Not concurrently with other
/// calls on the same world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn colGetObjectInfo(
    world: *const ColWorld,
    id: ColObjectId,
    out: *mut ColObjectInfo,
) -> ColStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        with_world(world, "colGetObjectInfo", Access::Any, |w| {
            if out.is_null() {
                return Err(Failure::null("out"));
            }
            let info = w.world.borrow().object_info(object_id(id)?)?;
            let c = &info.classification;
            let flags = [
                (c.convex, COL_SHAPE_CONVEX),
                (c.closed, COL_SHAPE_CLOSED),
                (c.manifold, COL_SHAPE_MANIFOLD),
                (c.oriented, COL_SHAPE_ORIENTED),
            ]
            .iter()
            .filter(|(set, _)| *set)
            .fold(0, |bits, (_, bit)| bits | bit);
            let count = |n: usize| {
                u32::try_from(n).map_err(|_| {
                    Failure::new(
                        COL_ERR_INVALID_ARGUMENT,
                        "object too large for ColObjectInfo",
                    )
                })
            };
            out.write(ColObjectInfo {
                flags,
                vertex_count: count(info.vertex_count)?,
                edge_count: count(info.edge_count)?,
                face_count: count(info.face_count)?,
            });
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use std::ffi::c_void;

    use super::*;
    use crate::boundary::{Access, with_world};
    use crate::callback::ColCollision;
    use crate::lifecycle::{colCheck, colExit, colStart};
    use crate::pairs::colSetGeneralCallback;
    use crate::status::{COL_ERR_INTERNAL, COL_ERR_NULL_ARGUMENT, COL_ERR_WORLD_LOCKED, COL_OK};
    use crate::test_support::{TETRAHEDRON_VERTICES, new_world, tetrahedron_desc};

    fn tetrahedron() -> ColMeshDesc {
        tetrahedron_desc(&TETRAHEDRON_VERTICES)
    }

    /// Both constructors on `world` with `*out_id` first set to `source` (a valid id): the
    /// status each returns and the id it left in `*out_id`.
    ///
    /// # Safety
    /// `world` is NULL or a live world.
    unsafe fn make_both(
        world: *mut ColWorld,
        source: ColObjectId,
    ) -> [(ColStatus, ColObjectId); 2] {
        let desc = tetrahedron();
        let null = std::ptr::null_mut();
        let mut made = source;
        let mut instanced = source;
        // SAFETY: forwarded.
        unsafe {
            [
                (colMakeCollidable(world, &desc, null, &mut made), made),
                (
                    colMakeInstance(world, source, null, &mut instanced),
                    instanced,
                ),
            ]
        }
    }

    #[test]
    fn out_id_is_zero_after_a_null_world() {
        let world = new_world();
        let mut source = 0;
        // SAFETY: live world, valid pointers.
        unsafe {
            assert_eq!(
                colMakeCollidable(world, &tetrahedron(), std::ptr::null_mut(), &mut source),
                COL_OK
            );
            assert_ne!(source, 0);
            assert_eq!(
                make_both(std::ptr::null_mut(), source),
                [(COL_ERR_NULL_ARGUMENT, 0); 2]
            );
            assert_eq!(colExit(world), COL_OK);
        }
    }

    #[test]
    fn out_id_is_zero_after_a_poisoned_world() {
        let world = new_world();
        let mut source = 0;
        // SAFETY: live world, valid pointers.
        unsafe {
            assert_eq!(
                colMakeCollidable(world, &tetrahedron(), std::ptr::null_mut(), &mut source),
                COL_OK
            );
            assert_eq!(
                with_world(world, "test", Access::Any, |_| Err(
                    crate::status::Failure::new(COL_ERR_INTERNAL, "poison")
                )),
                COL_ERR_INTERNAL
            );
            assert_eq!(make_both(world, source), [(COL_ERR_INTERNAL, 0); 2]);
            assert_eq!(colExit(world), COL_OK);
        }
    }

    /// Both constructors from inside a callback, with the statuses kept in `user`.
    unsafe extern "C" fn make_in_callback(collision: *const ColCollision, user: *mut c_void) {
        // SAFETY: `user` is the test's `(world, source, statuses)` for the whole check.
        let (world, source, statuses) = unsafe {
            &mut *user.cast::<(*mut ColWorld, ColObjectId, [(ColStatus, ColObjectId); 2])>()
        };
        let _ = collision;
        // SAFETY: the live world being checked.
        *statuses = unsafe { make_both(*world, *source) };
    }

    #[test]
    fn out_id_is_zero_after_a_locked_world() {
        let world = new_world();
        let mut source = 0;
        let mut other = 0;
        // SAFETY: live world, valid pointers; `state` outlives the check.
        unsafe {
            let null = std::ptr::null_mut();
            assert_eq!(
                colMakeCollidable(world, &tetrahedron(), null, &mut source),
                COL_OK
            );
            assert_eq!(
                colMakeCollidable(world, &tetrahedron(), null, &mut other),
                COL_OK
            );
            let mut state = (world, source, [(COL_OK, source); 2]);
            assert_eq!(
                colSetGeneralCallback(world, Some(make_in_callback), (&raw mut state).cast()),
                COL_OK
            );
            assert_eq!(colStart(world), COL_OK);
            assert_eq!(colCheck(world), COL_OK);
            assert_eq!(state.2, [(COL_ERR_WORLD_LOCKED, 0); 2]);
            assert_eq!(colExit(world), COL_OK);
        }
    }
}
