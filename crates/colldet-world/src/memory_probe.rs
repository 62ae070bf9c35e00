//! The memory check before an object is built: a mesh that could not be prepared in the memory
//! the process can get is refused with [`WorldError::OutOfMemory`] instead of aborting the host
//! (Rust aborts the process when an allocation fails).
//!
//! Rationale: preparing a mesh (polyhedron and classification, hull, and on its first test the
//! OBB tree, or the box-trees under `Method::BoxTree`) takes memory linear in its size, measured
//! at about 310 bytes per face index at the peak (a 2-million-vertex sphere, box-trees included).
//! Before building, the world asks the allocator for that much (rounded up: 320 bytes per index,
//! 64 per vertex) and gives it back at once. Under a memory limit (`ulimit -v`, a container
//! quota, a 32-bit address space) a mesh too large to prepare is refused up front. The check is
//! a forecast, not a reservation: memory taken by other threads in between can still run out.

use colldet_geom::MeshData;

use crate::WorldError;

/// Peak bytes per face index while a mesh is prepared (see the module rationale).
pub(crate) const BYTES_PER_INDEX: usize = 320;
/// Peak bytes per vertex while a mesh is prepared.
pub(crate) const BYTES_PER_VERTEX: usize = 64;

/// The memory preparing `mesh` may need at its peak.
pub(crate) fn preparation_bytes(mesh: &MeshData) -> usize {
    let indices = mesh.faces.index_count();
    indices
        .saturating_mul(BYTES_PER_INDEX)
        .saturating_add(mesh.vertices.len().saturating_mul(BYTES_PER_VERTEX))
}

/// Asks the allocator for `bytes` and gives them back.
///
/// # Errors
/// [`WorldError::OutOfMemory`] when the allocation fails.
pub(crate) fn probe(bytes: usize) -> Result<(), WorldError> {
    let mut probe: Vec<u8> = Vec::new();
    probe
        .try_reserve_exact(bytes)
        .map_err(|_| WorldError::OutOfMemory { bytes })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An allocation no machine can give is refused with the size named; a small one passes.
    #[test]
    fn impossible_sizes_are_refused() {
        assert!(probe(1 << 20).is_ok());
        match probe(usize::MAX / 2) {
            Err(WorldError::OutOfMemory { bytes }) => assert_eq!(bytes, usize::MAX / 2),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_forecast_is_linear_in_the_mesh() {
        let cube =
            colldet_testkit::shapes::cuboid(colldet_geom::math::VectorD::repeat(1.0)).unwrap();
        let indices = cube.faces.index_count();
        assert_eq!(
            preparation_bytes(&cube),
            indices * BYTES_PER_INDEX + cube.vertices.len() * BYTES_PER_VERTEX
        );
    }
}
