//! What the unit tests of the C functions share: a serial world, the last error as a string, a
//! tetrahedron mesh and translation matrices.

use std::ffi::CStr;

use crate::config::ColConfig;
use crate::lifecycle::{colInit, colLastError};
use crate::mesh::ColMeshDesc;
use crate::status::COL_OK;
use crate::world::ColWorld;

/// The message of `world`'s last failed call (NULL: the thread's).
pub fn message(world: *const ColWorld) -> String {
    // SAFETY: a live world or NULL; the string is read before the next call.
    unsafe { CStr::from_ptr(colLastError(world)) }
        .to_string_lossy()
        .into_owned()
}

/// A world with the default configuration, run on the calling thread (no flags).
pub fn new_world() -> *mut ColWorld {
    let mut world = std::ptr::null_mut();
    let config = ColConfig {
        flags: 0,
        ..ColConfig::default()
    };
    // SAFETY: valid pointers.
    assert_eq!(unsafe { colInit(&config, &mut world) }, COL_OK);
    world
}

/// Corners `(0,0,0), (1,0,0), (0,1,0), (0,0,1)` of the tetrahedron of [`TETRAHEDRON_INDICES`].
pub const TETRAHEDRON_VERTICES: [f32; 12] = [0., 0., 0., 1., 0., 0., 0., 1., 0., 0., 0., 1.];
/// The tetrahedron's four outward triangles.
pub const TETRAHEDRON_INDICES: [u32; 12] = [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3];

/// The tetrahedron with corners `vertices` (12 coordinates) as a mesh description.
pub fn tetrahedron_desc(vertices: &[f32; 12]) -> ColMeshDesc {
    ColMeshDesc {
        vertices: vertices.as_ptr(),
        vertex_count: 4,
        indices: TETRAHEDRON_INDICES.as_ptr(),
        face_sizes: std::ptr::null(),
        face_count: 4,
    }
}

/// The column-major 4x4 matrix of the translation by `(x, y, z)` (as `colSetTransformd` takes it).
pub fn translation(x: f64, y: f64, z: f64) -> [f64; 16] {
    let mut m = [0.0; 16];
    m[0] = 1.0;
    m[5] = 1.0;
    m[10] = 1.0;
    m[15] = 1.0;
    m[12] = x;
    m[13] = y;
    m[14] = z;
    m
}
