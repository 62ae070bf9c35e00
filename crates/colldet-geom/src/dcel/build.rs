//! Linear-time DCEL construction without hashing: half-edges are bucketed by their lower vertex
//! (a counting sort), edges found within each bucket through a per-vertex slot, and numbered in
//! the order of their first half-edge; counting sorts then give the edge and vertex rings. No
//! input can make it slower than `O(half-edges + vertices)` (a hash map keyed by vertex pairs
//! degrades on keys that collide in its low bits, as dense vertex ranges did).

use super::{Dcel, NO_TWIN};
use crate::mesh_data::FaceList;

/// Exclusive prefix sums of `counts` into CSR starts (`counts.len() + 1` entries).
fn prefix_starts(counts: &[u32]) -> Vec<u32> {
    let mut starts = Vec::with_capacity(counts.len() + 1);
    let mut total = 0u32;
    starts.push(0);
    for &c in counts {
        total += c;
        starts.push(total);
    }
    starts
}

impl Dcel {
    /// Builds the half-edge structure of `faces` over `vertex_count` vertices.
    ///
    /// Preconditions (established by [`crate::Polyhedron::build`]): every index is below
    /// `vertex_count`, every face has at least 3 corners and no two consecutive corners (including
    /// last-to-first) are the same vertex.
    pub(crate) fn build(vertex_count: usize, faces: FaceList) -> Self {
        let half_edge_count = faces.index_count();
        let mut half_edge_face = Vec::with_capacity(half_edge_count);
        for (f, face) in faces.iter().enumerate() {
            half_edge_face.extend(std::iter::repeat_n(f as u32, face.len()));
        }

        let (half_edge_edge, edge_vertices, edge_use_counts, vertex_use_counts) =
            number_edges(vertex_count, &faces);

        let edge_starts = prefix_starts(&edge_use_counts);
        let mut edge_fill = edge_starts.clone();
        let mut edge_half_edges = vec![0u32; half_edge_count];
        for (h, &e) in half_edge_edge.iter().enumerate() {
            let slot = &mut edge_fill[e as usize];
            edge_half_edges[*slot as usize] = h as u32;
            *slot += 1;
        }

        let vertex_starts = prefix_starts(&vertex_use_counts);
        let mut vertex_fill = vertex_starts.clone();
        let mut vertex_half_edges = vec![0u32; half_edge_count];
        for (h, &v) in faces.iter().flatten().enumerate() {
            let slot = &mut vertex_fill[v as usize];
            vertex_half_edges[*slot as usize] = h as u32;
            *slot += 1;
        }

        let mut dcel = Self {
            vertex_count,
            faces,
            half_edge_face,
            half_edge_twin: vec![NO_TWIN; half_edge_count],
            half_edge_edge,
            edge_vertices,
            edge_starts,
            edge_half_edges,
            vertex_starts,
            vertex_half_edges,
        };
        dcel.pair_twins();
        dcel
    }

    /// Sets `twin` on every edge with exactly two half-edges running in opposite directions.
    fn pair_twins(&mut self) {
        for e in 0..self.edge_vertices.len() {
            let range = self.edge_starts[e] as usize..self.edge_starts[e + 1] as usize;
            if let [h1, h2] = self.edge_half_edges[range] {
                let (h1id, h2id) = (super::HalfEdgeId(h1), super::HalfEdgeId(h2));
                if self.origin(h1id) == self.destination(h2id) {
                    self.half_edge_twin[h1 as usize] = h2;
                    self.half_edge_twin[h2 as usize] = h1;
                }
            }
        }
    }
}

/// Numbers the undirected edges of `faces` in the order of their first half-edge. Returns each
/// half-edge's edge, each edge's sorted vertex pair, each edge's half-edge count and each
/// vertex's outgoing half-edge count.
#[allow(clippy::type_complexity)]
fn number_edges(
    vertex_count: usize,
    faces: &FaceList,
) -> (Vec<u32>, Vec<[u32; 2]>, Vec<u32>, Vec<u32>) {
    let half_edge_count = faces.index_count();
    let directed = || {
        faces.iter().flat_map(|face| {
            face.iter().enumerate().map(|(i, &a)| {
                let b = face[(i + 1) % face.len()];
                debug_assert_ne!(a, b, "consecutive corners must differ");
                (a, b)
            })
        })
    };

    // Half-edges bucketed by lower vertex, in half-edge order within a bucket.
    let mut vertex_use_counts = vec![0u32; vertex_count];
    let mut lower_counts = vec![0u32; vertex_count];
    for (a, b) in directed() {
        vertex_use_counts[a as usize] += 1;
        lower_counts[a.min(b) as usize] += 1;
    }
    let lower_starts = prefix_starts(&lower_counts);
    drop(lower_counts);
    let mut lower_fill = lower_starts.clone();
    let mut by_lower = vec![(0u32, 0u32); half_edge_count];
    for (h, (a, b)) in directed().enumerate() {
        let slot = &mut lower_fill[a.min(b) as usize];
        by_lower[*slot as usize] = (h as u32, a.max(b));
        *slot += 1;
    }
    drop(lower_fill);

    // Within the bucket of `lo`, `slot[hi]` is the bucket-local edge of `{lo, hi}` once seen;
    // a slot left by an earlier bucket is recognised by its edge's lower vertex.
    let mut slot = vec![u32::MAX; vertex_count];
    let mut found: Vec<[u32; 2]> = Vec::with_capacity(half_edge_count / 2 + 1);
    let mut half_edge_found = vec![0u32; half_edge_count];
    for (lo, range) in lower_starts.windows(2).enumerate() {
        let lo = lo as u32;
        for &(h, hi) in &by_lower[range[0] as usize..range[1] as usize] {
            let s = &mut slot[hi as usize];
            if *s == u32::MAX || found[*s as usize][0] != lo {
                *s = found.len() as u32;
                found.push([lo, hi]);
            }
            half_edge_found[h as usize] = *s;
        }
    }
    drop((by_lower, slot));

    // Renumber by first half-edge (the order a single pass over the faces would give).
    let mut final_id = vec![u32::MAX; found.len()];
    let mut edge_vertices = Vec::with_capacity(found.len());
    let mut edge_use_counts = Vec::with_capacity(found.len());
    let mut half_edge_edge = half_edge_found;
    for e in &mut half_edge_edge {
        let id = &mut final_id[*e as usize];
        if *id == u32::MAX {
            *id = edge_vertices.len() as u32;
            edge_vertices.push(found[*e as usize]);
            edge_use_counts.push(0);
        }
        *e = *id;
        edge_use_counts[*id as usize] += 1;
    }
    (
        half_edge_edge,
        edge_vertices,
        edge_use_counts,
        vertex_use_counts,
    )
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::number_edges;
    use crate::dcel::{Dcel, EdgeId, HalfEdgeId};
    use crate::mesh_data::FaceList;

    #[test]
    fn edges_are_numbered_in_order_of_first_half_edge() {
        let faces = FaceList::from_triangles(&[[2, 3, 1], [0, 1, 3]]);
        let dcel = Dcel::build(4, faces);
        let pairs: Vec<[u32; 2]> = (0..dcel.edge_count() as u32)
            .map(|e| dcel.edge_vertices(EdgeId(e)).map(|v| v.index() as u32))
            .collect();
        assert_eq!(pairs, [[2, 3], [1, 3], [1, 2], [0, 1], [0, 3]]);
        let edges: Vec<u32> = (0..6)
            .map(|h| dcel.edge(HalfEdgeId(h)).index() as u32)
            .collect();
        assert_eq!(edges, [0, 1, 2, 3, 1, 4]);
    }

    /// The numbering a map from vertex pair to first-seen id gives, on meshes with many repeats.
    #[test]
    fn numbering_matches_a_map_of_vertex_pairs() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for vertex_count in [3u32, 5, 17, 200] {
            let mut faces = FaceList::new();
            let mut corners = Vec::new();
            for _ in 0..500 {
                corners.clear();
                let len = 3 + (state % 4) as usize;
                while corners.len() < len {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    let v = (state % u64::from(vertex_count)) as u32;
                    if corners.last() != Some(&v) && (corners.len() + 1 < len || corners[0] != v) {
                        corners.push(v);
                    }
                }
                faces.push(&corners);
            }
            let (half_edge_edge, edge_vertices, edge_use_counts, vertex_use_counts) =
                number_edges(vertex_count as usize, &faces);
            let mut ids = BTreeMap::new();
            let mut expected_vertices = Vec::new();
            let mut expected_counts = Vec::new();
            let mut expected_uses = vec![0u32; vertex_count as usize];
            let mut h = 0;
            for face in faces.iter() {
                for (i, &a) in face.iter().enumerate() {
                    let b = face[(i + 1) % face.len()];
                    let key = [a.min(b), a.max(b)];
                    let next = ids.len() as u32;
                    let e = *ids.entry(key).or_insert(next);
                    if e == next {
                        expected_vertices.push(key);
                        expected_counts.push(0);
                    }
                    expected_counts[e as usize] += 1;
                    expected_uses[a as usize] += 1;
                    assert_eq!(half_edge_edge[h], e);
                    h += 1;
                }
            }
            assert_eq!(edge_vertices, expected_vertices);
            assert_eq!(edge_use_counts, expected_counts);
            assert_eq!(vertex_use_counts, expected_uses);
        }
    }
}
