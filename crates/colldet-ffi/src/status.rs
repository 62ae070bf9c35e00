//! Status codes returned by every C function, their fixed strings, and the mapping from the
//! world's errors.

use std::ffi::c_char;

use colldet_world::WorldError;

use crate::boundary::catch_plain;

/// What a call returned. `COL_OK` (0) is success; every other value is an error whose message
/// `colLastError` gives. The numbers are stable across versions; new codes are only appended.
/// A plain integer type (not a C enum) so that any value a caller passes back is well defined.
pub type ColStatus = i32;

/// Success.
pub const COL_OK: ColStatus = 0;
/// A required pointer argument was NULL.
pub const COL_ERR_NULL_ARGUMENT: ColStatus = 1;
/// An argument is out of range: a NaN, infinite or non-rigid matrix or one translating by more
/// than `COL_MAX_COORDINATE`, a bad configuration value (see `colInit`), a pair of an object
/// with itself, a negative or NaN expel distance or proximity tolerance, a motion or shape a
/// continuous query (`colTrace`, `colCheckContinuous`) refused (the message names it).
pub const COL_ERR_INVALID_ARGUMENT: ColStatus = 2;
/// The mesh was rejected (no vertices or faces, an index out of range, a face with fewer than
/// three vertices, a non-finite coordinate or one of magnitude above `COL_MAX_COORDINATE`, no
/// face of non-zero area); the message names it. Flat and open meshes are accepted.
pub const COL_ERR_INVALID_MESH: ColStatus = 3;
/// The object id is 0, was never issued by this world, or names a removed object.
pub const COL_ERR_INVALID_HANDLE: ColStatus = 4;
/// The call is not allowed in the world's current state (`colCheck` or `colCheckBegin` before
/// `colStart`, `colStart` twice, `colCheckEnd` without a running check).
pub const COL_ERR_WRONG_STATE: ColStatus = 5;
/// A structural call (adding or removing objects, interest, callbacks, `colStart`, `colCheck`,
/// `colExit`) was made from inside a collision callback, or any call but `colSetTransform(d)`,
/// `colCheckEnd` and `colExit` while a concurrent check runs (`colCheckBegin`). Nothing changed;
/// the world is usable.
pub const COL_ERR_WORLD_LOCKED: ColStatus = 6;
/// A resource is exhausted: the world holds `max_collidables` objects already, or worker
/// threads could not be started.
pub const COL_ERR_OUT_OF_MEMORY: ColStatus = 7;
/// colldet failed internally (a caught panic). The world is poisoned: every later call on it
/// returns this status, except `colExit`, `colLastError` and `colStatusString`. The panic's
/// message and location go to `colLastError` only, not to stderr: the first call installs a
/// process-wide panic hook that is silent while a colldet call runs on the panicking thread
/// (not inside your callbacks) or on a world's worker thread, and hands every other panic to
/// the hook set before it.
pub const COL_ERR_INTERNAL: ColStatus = 8;
/// The exact test failed numerically on some pair during `colCheck`, `colCheckContinuous` or a
/// trace (the message names it). A check still completed for every other pair and their
/// callbacks ran; the world is usable.
pub const COL_ERR_NUMERICAL: ColStatus = 9;

/// A failed call: its status and the message `colLastError` will return.
#[derive(Debug)]
pub(crate) struct Failure {
    pub status: ColStatus,
    pub message: String,
}

impl Failure {
    pub fn new(status: ColStatus, message: impl Into<String>) -> Self {
        Self {
            status,
            message: message.into(),
        }
    }

    pub fn null(argument: &str) -> Self {
        Self::new(COL_ERR_NULL_ARGUMENT, format!("`{argument}` is NULL"))
    }
}

impl From<WorldError> for Failure {
    fn from(error: WorldError) -> Self {
        let status = match &error {
            WorldError::InvalidConfig(_)
            | WorldError::InvalidTransform(_)
            | WorldError::InvalidArgument(_)
            | WorldError::SameObject => COL_ERR_INVALID_ARGUMENT,
            WorldError::InvalidMesh(colldet_geom::GeomError::OutOfMemory { .. })
            | WorldError::OutOfMemory { .. } => COL_ERR_OUT_OF_MEMORY,
            WorldError::InvalidMesh(_) => COL_ERR_INVALID_MESH,
            WorldError::InvalidHandle(id) => {
                return Self::new(
                    COL_ERR_INVALID_HANDLE,
                    format!(
                        "unknown or stale object id {}, or one of another world",
                        id.to_raw()
                    ),
                );
            }
            WorldError::WrongState(_) => COL_ERR_WRONG_STATE,
            WorldError::TooManyObjects(_) | WorldError::Threads(_) => COL_ERR_OUT_OF_MEMORY,
            WorldError::Narrow { .. } => COL_ERR_NUMERICAL,
            // A continuous query refused its geometry, or its motion (the message says which).
            WorldError::Ccd(colldet_world::CcdError::Mesh(_)) => COL_ERR_INVALID_MESH,
            WorldError::Ccd(_) => COL_ERR_INVALID_ARGUMENT,
            WorldError::Broad(_) => COL_ERR_INTERNAL,
        };
        Self::new(status, error.to_string())
    }
}

/// The fixed, NUL-terminated name of `status`.
pub(crate) fn status_name(status: ColStatus) -> &'static [u8] {
    match status {
        COL_OK => b"COL_OK\0",
        COL_ERR_NULL_ARGUMENT => b"COL_ERR_NULL_ARGUMENT\0",
        COL_ERR_INVALID_ARGUMENT => b"COL_ERR_INVALID_ARGUMENT\0",
        COL_ERR_INVALID_MESH => b"COL_ERR_INVALID_MESH\0",
        COL_ERR_INVALID_HANDLE => b"COL_ERR_INVALID_HANDLE\0",
        COL_ERR_WRONG_STATE => b"COL_ERR_WRONG_STATE\0",
        COL_ERR_WORLD_LOCKED => b"COL_ERR_WORLD_LOCKED\0",
        COL_ERR_OUT_OF_MEMORY => b"COL_ERR_OUT_OF_MEMORY\0",
        COL_ERR_INTERNAL => b"COL_ERR_INTERNAL\0",
        COL_ERR_NUMERICAL => b"COL_ERR_NUMERICAL\0",
        _ => b"unknown ColStatus\0",
    }
}

/// The name of a status code as a static string (`"COL_OK"`, `"COL_ERR_NULL_ARGUMENT"`, ...;
/// `"unknown ColStatus"` for any other value).
///
/// # Safety
/// Always safe to call, from any thread, with any value. The returned string is static: never
/// free it.
#[unsafe(no_mangle)]
pub extern "C" fn colStatusString(status: ColStatus) -> *const c_char {
    catch_plain(c"".as_ptr(), || status_name(status).as_ptr().cast())
}
