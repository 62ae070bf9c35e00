//! Merging a convex hull's triangles into its facets (convex polygons).
//!
//! Rationale: two hull triangles sharing an edge are in the same facet exactly when the far
//! vertex of one lies on the plane of the other (exact `orient3d`). Coplanarity spreads along
//! shared edges, and a facet's triangles are connected through its interior edges, so a flood
//! fill finds each facet. The facet boundary is the group's edges whose neighbour is outside the
//! group; since every hull vertex is a corner (extreme point), no boundary vertex repeats and the
//! boundary is one simple, strictly convex cycle, counter-clockwise seen from outside.

use crate::error::GeomError;
use crate::math::PointD;
use crate::mesh_data::FaceList;
use crate::predicates::orient3d;

const NONE: u32 = u32::MAX;

/// The facets of the closed convex surface `triangles` (vertices `0..points.len()`, all
/// extreme, counter-clockwise from outside) as polygons, counter-clockwise from outside.
///
/// # Errors
/// [`GeomError::HullInvariant`] (naming a vertex) when the triangles are not such a surface.
pub(super) fn merge_coplanar(
    points: &[PointD],
    triangles: &[[u32; 3]],
) -> Result<FaceList, GeomError> {
    let broken = |vertex: u32| GeomError::HullInvariant {
        point: vertex as usize,
    };
    // Directed edges (from, to, triangle) sorted, to find the triangle across each edge.
    let mut edges: Vec<(u32, u32, u32)> = Vec::with_capacity(triangles.len() * 3);
    for (t, tri) in triangles.iter().enumerate() {
        for k in 0..3 {
            edges.push((tri[k], tri[(k + 1) % 3], t as u32));
        }
    }
    edges.sort_unstable();
    let across = |a: u32, b: u32| -> Result<u32, GeomError> {
        edges
            .binary_search_by(|e| (e.0, e.1).cmp(&(b, a)))
            .map(|i| edges[i].2)
            .map_err(|_| broken(a))
    };

    let mut group = vec![NONE; triangles.len()];
    let mut groups: Vec<Vec<u32>> = Vec::new();
    let mut stack = Vec::new();
    for seed in 0..triangles.len() {
        if group[seed] != NONE {
            continue;
        }
        let id = groups.len() as u32;
        let [a, b, c] = triangles[seed].map(|v| points[v as usize]);
        group[seed] = id;
        let mut members = vec![seed as u32];
        stack.push(seed as u32);
        while let Some(t) = stack.pop() {
            let tri = triangles[t as usize];
            for k in 0..3 {
                let n = across(tri[k], tri[(k + 1) % 3])?;
                if group[n as usize] != NONE {
                    continue;
                }
                let far = triangles[n as usize]
                    .into_iter()
                    .find(|&v| v != tri[k] && v != tri[(k + 1) % 3])
                    .ok_or_else(|| broken(tri[k]))?;
                if orient3d(&a, &b, &c, &points[far as usize]) == 0.0 {
                    group[n as usize] = id;
                    members.push(n);
                    stack.push(n);
                }
            }
        }
        groups.push(members);
    }

    let mut faces = FaceList::with_capacity(groups.len(), triangles.len() + 2 * groups.len());
    let mut next_of = vec![NONE; points.len()];
    let mut polygon = Vec::new();
    for (id, members) in groups.iter().enumerate() {
        let mut boundary = 0usize;
        let mut start = NONE;
        for &t in members {
            let tri = triangles[t as usize];
            for k in 0..3 {
                let (a, b) = (tri[k], tri[(k + 1) % 3]);
                if group[across(a, b)? as usize] != id as u32 {
                    if next_of[a as usize] != NONE {
                        return Err(broken(a));
                    }
                    next_of[a as usize] = b;
                    start = a;
                    boundary += 1;
                }
            }
        }
        polygon.clear();
        let mut v = start;
        while v != NONE && polygon.len() < boundary {
            polygon.push(v);
            v = next_of[v as usize];
        }
        for &u in &polygon {
            next_of[u as usize] = NONE;
        }
        if polygon.len() != boundary || v != start || boundary < 3 {
            return Err(broken(start));
        }
        faces.push(&polygon);
    }
    Ok(faces)
}
