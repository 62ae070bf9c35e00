//! Refitting a [`MeshBvh`] after its vertices moved (same topology): the tree structure is kept
//! and every volume is recomputed bottom-up by the same fitting the build uses
//! ([`BvhVolume::fit_built_tree`]), so a refitted tree equals a tree built with the same
//! topology on the new vertices. Children are stored after their parents, so one pass over the
//! nodes in reverse order sees every child before its parent: AABB parents merge their children
//! (O(n)); OBB parents sum their children's area moments (O(n)) and are then sized around their
//! vertices (O(n log n) multiply-adds, in parallel).

use super::{BvhVolume, MeshBvh};
use crate::NarrowError;
use colldet_geom::GeomError;
use colldet_geom::math::{Point, is_finite_point};

impl<V: BvhVolume> MeshBvh<V> {
    /// Replaces the vertices by `vertices` (same count, same meaning: the mesh deformed) and
    /// recomputes every node volume. The tree's shape stays as built, so queries stay exact but
    /// may slow down when the deformation is large; rebuild then. AABB trees refit without
    /// allocating; OBB trees allocate scratch moments (about 100 bytes per node).
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
        if !V::fit_built_tree(&mut self.nodes, &self.vertices, &self.triangles)? {
            self.fit_volumes()?;
        }
        self.axes_error = V::axes_error(&self.nodes);
        Ok(())
    }

    /// Recomputes every node volume from the current vertices, children before parents, node by
    /// node (for volumes without a faster [`BvhVolume::fit_built_tree`]).
    pub(super) fn fit_volumes(&mut self) -> Result<(), NarrowError> {
        for node in (0..self.nodes.len()).rev() {
            let n = self.nodes[node];
            let volume = match n.children() {
                None => {
                    let r = n.first as usize..(n.first + n.count) as usize;
                    V::fit(&self.vertices, &self.triangles[r])?
                }
                Some([a, b]) => {
                    let range = self.subtree_triangles(node);
                    V::fit_parent(
                        [
                            &self.nodes[a as usize].volume,
                            &self.nodes[b as usize].volume,
                        ],
                        &self.vertices,
                        &self.triangles[range],
                    )?
                }
            };
            self.nodes[node].volume = volume;
        }
        Ok(())
    }

    /// The triangles under `node` as an index range (they are contiguous: the left child's, then
    /// the right child's).
    pub(super) fn subtree_triangles(&self, node: usize) -> std::ops::Range<usize> {
        let mut lo = node;
        while let Some([a, _]) = self.nodes[lo].children() {
            lo = a as usize;
        }
        let mut hi = node;
        while let Some([_, b]) = self.nodes[hi].children() {
            hi = b as usize;
        }
        let (l, h) = (&self.nodes[lo], &self.nodes[hi]);
        l.first as usize..(h.first + h.count) as usize
    }
}
