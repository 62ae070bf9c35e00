//! Manifoldness, closedness, components and Euler characteristic of a built DCEL.

use crate::dcel::{Dcel, EdgeId, FaceId, VertexId};

/// Topological facts about a DCEL; see [`super::Classification`] for their meaning.
pub(crate) struct Topology {
    pub non_manifold_edges: Vec<EdgeId>,
    pub non_manifold_vertices: Vec<VertexId>,
    pub boundary_edge_count: usize,
    pub closed: bool,
    pub components: usize,
    pub euler_characteristic: i64,
}

#[cfg(test)]
thread_local! {
    /// Face-list entries the component walk has read on this thread (tests bound it).
    static COMPONENT_WALK_STEPS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Scratch buffers for [`fan_count`], reused across vertices.
#[derive(Default)]
struct FanScratch {
    /// (edge at the vertex, corner index) for both edges of every corner, sorted by edge.
    edge_corners: Vec<(EdgeId, usize)>,
    parent: Vec<usize>,
}

fn root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// Number of fans around vertex `v`: its corners (one per outgoing half-edge) linked when they
/// share an edge at `v` that has exactly two faces. Orientation plays no part, so a Moebius band's
/// seam is still one fan. `O(d log d)` for a vertex of degree `d`.
fn fan_count(dcel: &Dcel, v: VertexId, scratch: &mut FanScratch) -> usize {
    scratch.edge_corners.clear();
    for (i, h) in dcel.vertex_half_edges(v).enumerate() {
        scratch.edge_corners.push((dcel.edge(h), i));
        scratch.edge_corners.push((dcel.edge(dcel.prev(h)), i));
    }
    let corner_count = scratch.edge_corners.len() / 2;
    scratch.edge_corners.sort_unstable();
    scratch.parent.clear();
    scratch.parent.extend(0..corner_count);
    let mut fans = corner_count;
    for pair in scratch.edge_corners.windows(2) {
        let ((e1, i), (e2, j)) = (pair[0], pair[1]);
        if e1 == e2 && dcel.edge_half_edges(e1).len() == 2 {
            let (a, b) = (root(&mut scratch.parent, i), root(&mut scratch.parent, j));
            if a != b {
                scratch.parent[a] = b;
                fans -= 1;
            }
        }
    }
    fans
}

/// Computes the topology of `dcel`.
pub(crate) fn classify_topology(dcel: &Dcel) -> Topology {
    let mut non_manifold_edges = Vec::new();
    let mut boundary_edge_count = 0;
    let mut closed = true;
    for e in (0..dcel.edge_count() as u32).map(EdgeId) {
        let uses = dcel.edge_half_edges(e).len();
        if uses > 2 {
            non_manifold_edges.push(e);
        }
        if uses == 1 {
            boundary_edge_count += 1;
        }
        closed &= uses.is_multiple_of(2);
    }

    let mut non_manifold_vertices = Vec::new();
    let mut used_vertices = 0i64;
    let mut scratch = FanScratch::default();
    for v in (0..dcel.vertex_count() as u32).map(VertexId) {
        if dcel.vertex_half_edges(v).len() == 0 {
            continue;
        }
        used_vertices += 1;
        if fan_count(dcel, v, &mut scratch) != 1 {
            non_manifold_vertices.push(v);
        }
    }

    // Each edge's face list is walked once, when the walk first reaches the edge: walking it
    // again from each of its half-edges would cost the square of its use count (n copies of one
    // triangle would take n^2 steps).
    let mut component_of = vec![u32::MAX; dcel.face_count()];
    let mut edge_walked = vec![false; dcel.edge_count()];
    let mut components = 0;
    let mut stack = Vec::new();
    for seed in 0..dcel.face_count() {
        if component_of[seed] != u32::MAX {
            continue;
        }
        component_of[seed] = components;
        stack.push(FaceId(seed as u32));
        while let Some(f) = stack.pop() {
            for h in dcel.face_loop(f) {
                let e = dcel.edge(h);
                if std::mem::replace(&mut edge_walked[e.index()], true) {
                    continue;
                }
                for other in dcel.edge_half_edges(e) {
                    #[cfg(test)]
                    COMPONENT_WALK_STEPS.with(|s| s.set(s.get() + 1));
                    let g = dcel.face(other);
                    if component_of[g.index()] == u32::MAX {
                        component_of[g.index()] = components;
                        stack.push(g);
                    }
                }
            }
        }
        components += 1;
    }

    Topology {
        non_manifold_edges,
        non_manifold_vertices,
        boundary_edge_count,
        closed,
        components: components as usize,
        euler_characteristic: used_vertices - dcel.edge_count() as i64 + dcel.face_count() as i64,
    }
}

#[cfg(test)]
mod tests {
    use super::COMPONENT_WALK_STEPS;
    use crate::math::Point;
    use crate::{BuildOptions, FaceList, MeshData, Polyhedron};

    /// Builds `mesh` and returns (half-edge count, face-list entries the component walk read).
    fn walk_steps(mesh: MeshData) -> (usize, usize) {
        COMPONENT_WALK_STEPS.with(|s| s.set(0));
        let p = Polyhedron::build(mesh, &BuildOptions::default()).unwrap();
        (
            p.dcel().half_edge_count(),
            COMPONENT_WALK_STEPS.with(std::cell::Cell::get),
        )
    }

    fn square() -> Vec<Point> {
        vec![
            Point::new(0.0, 0.0, 0.0),
            Point::new(1.0, 0.0, 0.0),
            Point::new(1.0, 1.0, 0.0),
            Point::new(0.0, 1.0, 0.0),
        ]
    }

    #[test]
    fn repeated_triangles_are_walked_in_linear_steps() {
        for copies in [16_000, 64_000] {
            let faces = FaceList::from_triangles(&vec![[0, 1, 2]; copies]);
            let (half_edges, steps) = walk_steps(MeshData::new(square(), faces));
            assert_eq!(half_edges, 3 * copies);
            // Every edge's face list is read once: one step per half-edge, not per pair.
            assert_eq!(steps, half_edges, "{copies} copies");
        }
    }

    #[test]
    fn welded_copies_of_one_triangle_are_walked_in_linear_steps() {
        // Every copy has its own three vertices (a soup): welding makes them the repeated
        // triangle above, whose three edges each have all the faces.
        for copies in [16_000u32, 64_000] {
            let vertices: Vec<Point> = (0..copies).flat_map(|_| square()[..3].to_vec()).collect();
            let triangles: Vec<[u32; 3]> =
                (0..copies).map(|t| [3 * t, 3 * t + 1, 3 * t + 2]).collect();
            let mesh = MeshData::new(vertices, FaceList::from_triangles(&triangles));
            let (half_edges, steps) = walk_steps(mesh);
            assert_eq!(half_edges, 3 * copies as usize);
            assert_eq!(steps, half_edges, "{copies} copies");
        }
    }

    #[test]
    fn a_polygon_cycling_over_four_vertices_is_walked_in_linear_steps() {
        let corners: Vec<u32> = (0..64_000).map(|i| i % 4).collect();
        let mut faces = FaceList::new();
        faces.push(&corners);
        let (half_edges, steps) = walk_steps(MeshData::new(square(), faces));
        assert_eq!(half_edges, 64_000);
        assert_eq!(steps, half_edges);
    }
}
