//! The thesis's lazy edge-face test, made exact: a closed segment against a closed polygon of any
//! size and shape, coplanar overlap included.
//!
//! Rationale: the thesis computes `w = v - u`, `a = w.n`, `b = n.(p - u)`, rejects when
//! `t = b / a` (the thesis prints `a / b`) falls outside `[0, 1]` without dividing, and then runs
//! a crossing test on `x = u + t w` projected along the dominant normal axis; `a ~ 0` is skipped,
//! which misses coplanar contacts. Here `t in [0, 1]` is decided exactly as "`u` and `v` are not
//! strictly on the same side of the plane" (exact `orient3d` against three polygon corners).
//! `x` is never rounded for a decision: "x lies in the polygon" is decided as "the polygon
//! winds around the line `uv`", a crossing test in the projection *along `w`* with half-open
//! rules, whose every sign is an exact `orient3d(u, v, a, b)` or an exact `orient2d` of an axis
//! projection. Coplanar segments (`a = 0` exactly) use the thesis's crossing test in the plane
//! with the dominant normal axis dropped, which is exact because the points are exactly coplanar.
//! The polygon surface is the polygon itself when its corners are exactly coplanar, and the fan
//! of triangles from its first corner otherwise (a mapped or rounded polygon is rarely exactly
//! planar); degenerate polygons (all corners on a line) are the union of their edges.

use super::exact::{
    dominant_axis, drop_axis, orient2, point_on_segment_2d, segment_triangle,
    segments_intersect_2d, segments_intersect_3d, triangle_is_degenerate, vol,
};
use super::point_in_polyhedron::PointLocation;
use colldet_geom::math::PointD;

/// Exact closed segment `uv` versus the closed polygon with the given corners (in order, any
/// orientation, all in one frame). Returns an approximate common point (`f64`, same frame) when
/// they meet; touching counts.
///
/// The polygon is the planar region bounded by its corner loop when the corners are exactly
/// coplanar (convex or not; self-overlapping loops count points of odd winding), otherwise the fan
/// of triangles `(c0, ci, ci+1)`. Fewer than three corners: the segment or point they form.
/// Coordinates must be finite (non-finite input gives an unspecified answer, never a panic).
/// No allocation.
pub fn edge_polygon_intersect(u: &PointD, v: &PointD, polygon: &[PointD]) -> Option<PointD> {
    edge_polygon_with(u, v, polygon.len(), |i| polygon[i])
}

/// The thesis's point-in-polygon crossing test, exact, for a point and a polygon already
/// projected to 2D (for instance by dropping the dominant axis of the polygon's normal): a ray
/// along `+x` with half-open vertex rules counts crossings; points on an edge are
/// [`PointLocation::OnBoundary`]. Either orientation; odd winding counts as inside. No allocation.
pub fn point_in_polygon_2d(point: [f64; 2], polygon: &[[f64; 2]]) -> PointLocation {
    point_in_polygon_2d_with(point, polygon.len(), |i| polygon[i])
}

pub(crate) fn point_in_polygon_2d_with<F: Fn(usize) -> [f64; 2]>(
    p: [f64; 2],
    n: usize,
    corner: F,
) -> PointLocation {
    let mut inside = false;
    for i in 0..n {
        let a = corner(i);
        let b = corner((i + 1) % n);
        // Cheap pre-checks: an edge entirely above, below or left of the point decides nothing,
        // unless the point lies on it (only possible when it touches the point's line).
        let above = (a[1] > p[1], b[1] > p[1]);
        if (a[0] < p[0] && b[0] < p[0]) || (a[1] < p[1] && b[1] < p[1]) || (above.0 && above.1) {
            continue;
        }
        if point_on_segment_2d(a, b, p) {
            return PointLocation::OnBoundary;
        }
        if above.0 != above.1 {
            // Upward edges cross to the right of p when p is left of them, downward ones when
            // p is right of them.
            let o = orient2(a, b, p);
            if (above.1 && o > 0) || (above.0 && o < 0) {
                inside = !inside;
            }
        }
    }
    if inside {
        PointLocation::Inside
    } else {
        PointLocation::Outside
    }
}

/// [`edge_polygon_intersect`] with the corners given by an accessor (for meshes whose vertices
/// are mapped on the fly).
pub(crate) fn edge_polygon_with<F: Fn(usize) -> PointD>(
    u: &PointD,
    v: &PointD,
    n: usize,
    corner: F,
) -> Option<PointD> {
    match n {
        0 => return None,
        1 => return segment_triangle(u, v, &[corner(0); 3]),
        2 => return segment_triangle(u, v, &[corner(0), corner(1), corner(1)]),
        3 => return segment_triangle(u, v, &[corner(0), corner(1), corner(2)]),
        _ => {}
    }
    let c0 = corner(0);
    let Some(r) = (1..n - 1).find_map(|i| {
        let t = [c0, corner(i), corner(i + 1)];
        (!triangle_is_degenerate(&t)).then_some(t)
    }) else {
        // All corners on one line: the polygon is the union of its edges.
        return (0..n).find_map(|i| {
            let (a, b) = (corner(i), corner((i + 1) % n));
            segments_intersect_3d(u, v, &a, &b)
                .then(|| super::exact::closest_on_segment(u, v, &a, &b))
        });
    };
    if (0..n).any(|i| vol(&r[0], &r[1], &r[2], &corner(i)) != 0) {
        return (1..n - 1).find_map(|i| segment_triangle(u, v, &[c0, corner(i), corner(i + 1)]));
    }
    let su = vol(&r[0], &r[1], &r[2], u);
    let sv = vol(&r[0], &r[1], &r[2], v);
    if su * sv > 0 {
        // t = b / a outside [0, 1]: both ends strictly on one side.
        return None;
    }
    if su == 0 && sv == 0 {
        return coplanar_segment_polygon(u, v, n, &corner, &r);
    }
    if line_pierces_polygon(u, v, n, &corner) {
        Some(super::exact::segment_plane_point(u, v, &r))
    } else {
        None
    }
}

/// Segment and planar polygon in one plane (`r` is a non-degenerate corner triple of it).
fn coplanar_segment_polygon<F: Fn(usize) -> PointD>(
    u: &PointD,
    v: &PointD,
    n: usize,
    corner: &F,
    r: &[PointD; 3],
) -> Option<PointD> {
    let (k, _) = dominant_axis(r);
    let c2 = |i: usize| drop_axis(&corner(i), k);
    let (u2, v2) = (drop_axis(u, k), drop_axis(v, k));
    if point_in_polygon_2d_with(u2, n, c2) != PointLocation::Outside {
        return Some(*u);
    }
    if point_in_polygon_2d_with(v2, n, c2) != PointLocation::Outside {
        return Some(*v);
    }
    (0..n).find_map(|i| {
        let j = (i + 1) % n;
        segments_intersect_2d(u2, v2, c2(i), c2(j))
            .then(|| super::exact::closest_on_segment(u, v, &corner(i), &corner(j)))
    })
}

/// Side of `p` with respect to the plane through the line `uv` and the axis direction `e_k`:
/// the sign of `det(v - u, e_k, p - u)`. Exact.
#[inline]
fn side_of_axis_plane(u: &PointD, v: &PointD, k: usize, p: &PointD) -> i8 {
    -orient2(drop_axis(u, k), drop_axis(v, k), drop_axis(p, k))
}

/// Whether the line `uv`, which crosses the plane of the exactly planar polygon in one point
/// `x`, passes through the closed polygon: boundary hits first, then the parity of crossings of
/// a ray from `x` inside the polygon's plane (the half-plane spanned by the line and `e_k`),
/// with the half-open rule "side >= 0 is above".
fn line_pierces_polygon<F: Fn(usize) -> PointD>(
    u: &PointD,
    v: &PointD,
    n: usize,
    corner: &F,
) -> bool {
    let w = v - u;
    let mut axes = [0usize, 1, 2];
    axes.sort_by(|&i, &j| w[i].abs().total_cmp(&w[j].abs()));
    let (k, k2) = (axes[0], axes[1]);
    let mut inside = false;
    for i in 0..n {
        let a = corner(i);
        let b = corner((i + 1) % n);
        let s = vol(u, v, &a, &b);
        let (sa, sb) = (
            side_of_axis_plane(u, v, k, &a),
            side_of_axis_plane(u, v, k, &b),
        );
        if s == 0 {
            // x lies on the line of edge ab: on the edge iff it is between a and b.
            let between = if sa != 0 || sb != 0 {
                sa * sb <= 0
            } else {
                let (ta, tb) = (
                    side_of_axis_plane(u, v, k2, &a),
                    side_of_axis_plane(u, v, k2, &b),
                );
                ta * tb <= 0
            };
            if between {
                return true;
            }
            continue;
        }
        let (up_a, up_b) = (sa >= 0, sb >= 0);
        if up_a != up_b && ((up_b && s > 0) || (up_a && s < 0)) {
            inside = !inside;
        }
    }
    inside
}
