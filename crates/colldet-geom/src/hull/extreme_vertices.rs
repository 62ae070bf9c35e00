//! Which vertices of a convex triangle surface are extreme points (corners of the polytope).
//!
//! Rationale: when a point is inserted exactly in the plane of a kept face, old vertices can end
//! up inside a facet or on an edge of the new polytope while staying in the triangulation. They
//! are recognised here exactly. If every triangle lies in a supporting plane of a convex
//! polytope (quickhull guarantees it), each triangle's plane is a facet plane, and the triangles
//! around vertex `v` lie in the facets containing `v`: one plane when `v` is inside a facet, two
//! when it is inside an edge, at least three when it is a corner. Planes are told apart by exact
//! `orient3d`: two triangles sharing `v` are coplanar exactly when the other two vertices of one
//! lie on the plane of the other.

use crate::math::PointD;
use crate::predicates::orient3d;

/// For each vertex `0..points.len()` of the closed convex triangle surface `triangles`
/// (counter-clockwise, every triangle in a supporting plane), whether it is a corner of the
/// polytope. Vertices used by no triangle are reported as not extreme.
pub(super) fn extreme_flags(points: &[PointD], triangles: &[[u32; 3]]) -> Vec<bool> {
    let n = points.len();
    // Incidence in compressed rows: for each vertex, the (other, other) vertex pairs of its
    // triangles.
    let mut starts = vec![0u32; n + 1];
    for t in triangles {
        for &v in t {
            starts[v as usize + 1] += 1;
        }
    }
    for v in 0..n {
        starts[v + 1] += starts[v];
    }
    let mut fill = starts.clone();
    let mut opposite = vec![[0u32; 2]; triangles.len() * 3];
    for t in triangles {
        for k in 0..3 {
            let v = t[k] as usize;
            opposite[fill[v] as usize] = [t[(k + 1) % 3], t[(k + 2) % 3]];
            fill[v] += 1;
        }
    }
    (0..n)
        .map(|v| {
            let ring = &opposite[starts[v] as usize..starts[v + 1] as usize];
            spans_three_planes(points, v, ring)
        })
        .collect()
}

/// True when the triangles `(v, a, b)` for `[a, b]` in `ring` lie in at least three planes.
fn spans_three_planes(points: &[PointD], v: usize, ring: &[[u32; 2]]) -> bool {
    let p = |i: u32| &points[i as usize];
    let pv = &points[v];
    // A vertex of the plane's own triangle is on it without asking (and asking would take the
    // slow exact path, since the determinant is exactly zero).
    let on_plane = |plane: [u32; 2], q: u32| {
        q == plane[0] || q == plane[1] || orient3d(pv, p(plane[0]), p(plane[1]), p(q)) == 0.0
    };
    let coplanar = |plane: [u32; 2], t: [u32; 2]| on_plane(plane, t[0]) && on_plane(plane, t[1]);
    let Some((&first, rest)) = ring.split_first() else {
        return false;
    };
    let mut second: Option<[u32; 2]> = None;
    for &t in rest {
        if coplanar(first, t) {
            continue;
        }
        match second {
            None => second = Some(t),
            Some(s) if coplanar(s, t) => {}
            Some(_) => return true,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tells_corners_from_edge_and_facet_points() {
        // A unit square pyramid whose base is split through its centre (4) and whose base edge
        // 0-1 carries a midpoint (5).
        let points = [
            PointD::new(0.0, 0.0, 0.0),
            PointD::new(2.0, 0.0, 0.0),
            PointD::new(2.0, 2.0, 0.0),
            PointD::new(0.0, 2.0, 0.0),
            PointD::new(1.0, 1.0, 0.0),
            PointD::new(1.0, 0.0, 0.0),
            PointD::new(1.0, 1.0, 1.0),
        ];
        // Base seen from below (outside): clockwise from above.
        let triangles = [
            [0, 4, 5],
            [5, 4, 1],
            [1, 4, 2],
            [2, 4, 3],
            [3, 4, 0],
            [0, 5, 6],
            [5, 1, 6],
            [1, 2, 6],
            [2, 3, 6],
            [3, 0, 6],
        ];
        let flags = extreme_flags(&points, &triangles);
        assert_eq!(flags, vec![true, true, true, true, false, false, true]);
    }
}
