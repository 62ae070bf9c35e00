//! Refitting a [`MeshBvh`] after its vertices moved (same topology): the tree structure is kept
//! and every volume is recomputed bottom-up by the same fitting the build uses
//! ([`BvhVolume::fit_tree`]), so a refitted tree equals a tree built with the same
//! topology on the new vertices. Children are stored after their parents, so one pass over the
//! nodes in reverse order sees every child before its parent: AABB parents merge their children
//! (O(n)); OBB parents sum their children's area moments (O(n)) and are then sized around their
//! vertices (O(n log n) multiply-adds, in parallel).

use super::{BvhVolume, MeshBvh};
use crate::NarrowError;
use colldet_geom::GeomError;
use colldet_geom::math::{Point, is_finite_point};

impl<V: BvhVolume> MeshBvh<V> {
    /// Replaces the vertices by `vertices` (same count, same meaning: the mesh deformed; any
    /// precise `f64` positions of the build are dropped) and
    /// recomputes every node volume. The tree's shape stays as built, so queries stay exact but
    /// may slow down when the deformation is large; rebuild then. AABB trees refit without
    /// allocating; OBB trees allocate scratch block vertex lists (about 8 bytes per triangle and
    /// per vertex).
    ///
    /// # Errors
    /// [`NarrowError::InvalidParameter`] when the vertex count differs,
    /// [`NarrowError::Geom`] ([`GeomError::NonFiniteCoordinate`]) for a NaN or infinite vertex;
    /// the tree is unchanged on error.
    pub fn refit(&mut self, vertices: &[Point]) -> Result<(), NarrowError> {
        if vertices.len() != self.vertices.len() {
            return Err(NarrowError::InvalidParameter {
                parameter: "vertices",
                requirement: "refit needs as many vertices as the tree was built with",
            });
        }
        if let Some(vertex) = vertices.iter().position(|p| !is_finite_point(p)) {
            return Err(GeomError::NonFiniteCoordinate { vertex }.into());
        }
        self.vertices.copy_from_slice(vertices);
        // The new positions are the input now, exactly as given in `f32`.
        self.precise = None;
        self.rounding = 0.0;
        self.axes_error = V::fit_tree(&mut self.nodes, &self.vertices, &self.triangles)?;
        Ok(())
    }
}
