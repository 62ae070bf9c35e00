//! Vertex adjacency in compressed form: for each vertex, its distinct neighbours along face edges.
//!
//! Hill climbing and the Dobkin-Kirkpatrick hierarchy walk this graph; it is cheaper to scan than
//! the DCEL's half-edge rings because each vertex's neighbours are contiguous in memory.

use crate::mesh_data::FaceList;

/// For each vertex `v`, `neighbours(v)` lists the vertices joined to `v` by a face edge, sorted
/// ascending and without repeats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VertexAdjacency {
    starts: Vec<u32>,
    neighbours: Vec<u32>,
}

impl VertexAdjacency {
    /// Builds the adjacency of `vertex_count` vertices from face loops (edges between consecutive
    /// face vertices, including last-to-first). Indices must be `< vertex_count`.
    pub fn from_faces(vertex_count: usize, faces: &FaceList) -> Self {
        let mut pairs: Vec<(u32, u32)> = Vec::with_capacity(faces.index_count() * 2);
        for face in faces.iter() {
            for (i, &a) in face.iter().enumerate() {
                let b = face[(i + 1) % face.len()];
                if a != b {
                    pairs.push((a, b));
                    pairs.push((b, a));
                }
            }
        }
        Self::from_directed_pairs(vertex_count, pairs)
    }

    /// Builds the adjacency from directed `(from, to)` pairs; repeats are removed.
    pub fn from_directed_pairs(vertex_count: usize, mut pairs: Vec<(u32, u32)>) -> Self {
        pairs.sort_unstable();
        pairs.dedup();
        let mut starts = vec![0u32; vertex_count + 1];
        for &(a, _) in &pairs {
            starts[a as usize + 1] += 1;
        }
        for v in 0..vertex_count {
            starts[v + 1] += starts[v];
        }
        let neighbours = pairs.into_iter().map(|(_, b)| b).collect();
        Self { starts, neighbours }
    }

    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.starts.len() - 1
    }

    /// The neighbours of vertex `v`, ascending. Panics if `v >= vertex_count()`.
    #[inline]
    pub fn neighbours(&self, v: u32) -> &[u32] {
        &self.neighbours[self.starts[v as usize] as usize..self.starts[v as usize + 1] as usize]
    }

    /// Number of undirected edges.
    pub fn edge_count(&self) -> usize {
        self.neighbours.len() / 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tetrahedron_has_three_neighbours_per_vertex() {
        let faces = FaceList::from_triangles(&[[0, 2, 1], [0, 1, 3], [1, 2, 3], [0, 3, 2]]);
        let adjacency = VertexAdjacency::from_faces(4, &faces);
        assert_eq!(adjacency.edge_count(), 6);
        assert_eq!(adjacency.neighbours(0), &[1, 2, 3]);
        assert_eq!(adjacency.neighbours(3), &[0, 1, 2]);
    }
}
