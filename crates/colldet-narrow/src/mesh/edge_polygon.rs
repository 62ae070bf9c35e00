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
                .then(|| super::exact::segments_meeting_point(u, v, &a, &b))
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
            .then(|| super::exact::segments_meeting_point(u, v, &corner(i), &corner(j)))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::test_support::{MeshDraws, SplitMix};
    use colldet_geom::math::VectorD;

    fn p(x: f64, y: f64, z: f64) -> PointD {
        PointD::new(x, y, z)
    }

    #[test]
    fn analytic_cases() {
        // An L-shaped (non-convex) hexagon in z = 0.
        let l = [
            p(0.0, 0.0, 0.0),
            p(4.0, 0.0, 0.0),
            p(4.0, 2.0, 0.0),
            p(2.0, 2.0, 0.0),
            p(2.0, 4.0, 0.0),
            p(0.0, 4.0, 0.0),
        ];
        let hit = |u: PointD, v: PointD| edge_polygon_intersect(&u, &v, &l).is_some();
        assert!(hit(p(1.0, 1.0, -1.0), p(1.0, 1.0, 1.0)));
        assert!(
            !hit(p(3.0, 3.0, -1.0), p(3.0, 3.0, 1.0)),
            "through the notch"
        );
        assert!(hit(p(2.0, 3.0, -1.0), p(2.0, 3.0, 1.0)), "through an edge");
        assert!(
            hit(p(2.0, 2.0, -1.0), p(2.0, 2.0, 1.0)),
            "through the reflex vertex"
        );
        assert!(
            !hit(p(3.0, 3.0, 0.0), p(1.0, 1.0, 5.0)),
            "end on the plane, in the notch"
        );
        assert!(!hit(p(1.0, 1.0, 1.0), p(1.0, 1.0, 2.0)), "t outside [0, 1]");
        assert!(
            hit(p(1.0, 1.0, 0.0), p(1.0, 1.0, 2.0)),
            "end point on the face"
        );
        // Coplanar: inside, crossing the boundary, across the notch, touching the reflex vertex.
        assert!(hit(p(0.5, 0.5, 0.0), p(1.0, 3.0, 0.0)), "coplanar inside");
        assert!(
            hit(p(-1.0, 1.0, 0.0), p(5.0, 1.0, 0.0)),
            "coplanar crossing"
        );
        assert!(
            !hit(p(3.0, 2.5, 0.0), p(2.5, 3.0, 0.0)),
            "coplanar in the notch"
        );
        assert!(
            hit(p(3.0, 3.0, 0.0), p(1.0, 1.0, 0.0)),
            "coplanar through the reflex vertex"
        );
        assert!(!hit(p(5.0, 5.0, 0.0), p(3.0, 3.0, 0.0)));
        // The 2D crossing test directly.
        let l2: Vec<[f64; 2]> = l.iter().map(|q| [q.x, q.y]).collect();
        assert_eq!(point_in_polygon_2d([1.0, 1.0], &l2), PointLocation::Inside);
        assert_eq!(point_in_polygon_2d([3.0, 3.0], &l2), PointLocation::Outside);
        assert_eq!(
            point_in_polygon_2d([2.0, 3.0], &l2),
            PointLocation::OnBoundary
        );
        assert_eq!(
            point_in_polygon_2d([0.0, 4.0], &l2),
            PointLocation::OnBoundary
        );
        assert_eq!(
            point_in_polygon_2d([-1.0, 2.0], &l2),
            PointLocation::Outside
        );
        assert_eq!(point_in_polygon_2d([1.0, 2.0], &l2), PointLocation::Inside);
    }

    fn int_vec(rng: &mut SplitMix, r: i64) -> VectorD {
        VectorD::new(rng.int(r) as f64, rng.int(r) as f64, rng.int(r) as f64)
    }

    /// Star-shaped (often non-convex) polygons with 4 to 9 corners on tilted integer planes,
    /// against segments with integer ends near them (many coplanar, many touching), compared
    /// with the union of the closed triangles (centre, c_i, c_i+1) as oracle: 100,000 cases.
    /// Then the same polygons with one corner lifted off the plane, against their fans.
    #[test]
    fn star_polygons_match_their_triangle_union() {
        let mut rng = SplitMix(0xed9e);
        let (mut hits, mut coplanar_hits, mut cases) = (0, 0, 0);
        while cases < 100_000 {
            let o = PointD::from(int_vec(&mut rng, 3));
            let e1 = int_vec(&mut rng, 2);
            let e2 = int_vec(&mut rng, 2);
            let normal = e1.cross(&e2);
            if normal == VectorD::zeros() {
                continue;
            }
            let map = |s: f64, t: f64, h: f64| o + e1 * s + e2 * t + normal * h;
            // Corners around the centre (0, 0) in (s, t), sorted by angle, star-shaped.
            let n = 4 + rng.index(6);
            let mut corners: Vec<[f64; 2]> = (0..n)
                .map(|_| [rng.int(4) as f64, rng.int(4) as f64])
                .filter(|c| *c != [0.0, 0.0])
                .collect();
            corners.sort_by(|a, b| a[1].atan2(a[0]).total_cmp(&b[1].atan2(b[0])));
            let m = corners.len();
            if m < 3 || (0..m).any(|i| orient2([0.0, 0.0], corners[i], corners[(i + 1) % m]) <= 0) {
                continue;
            }
            let polygon: Vec<PointD> = corners.iter().map(|c| map(c[0], c[1], 0.0)).collect();
            let centre = map(0.0, 0.0, 0.0);
            for _ in 0..20 {
                let coplanar = rng.index(3) == 0;
                let mut end = || {
                    let h = if coplanar { 0.0 } else { rng.int(1) as f64 };
                    map(rng.int(5) as f64, rng.int(5) as f64, h)
                };
                let (u, v) = (end(), end());
                let expected = (0..m).any(|i| {
                    segment_triangle(&u, &v, &[centre, polygon[i], polygon[(i + 1) % m]]).is_some()
                });
                let got = edge_polygon_intersect(&u, &v, &polygon);
                assert_eq!(
                    got.is_some(),
                    expected,
                    "case {cases}: {u:?} {v:?} {polygon:?}"
                );
                let back = edge_polygon_intersect(&v, &u, &polygon);
                assert_eq!(back.is_some(), expected, "case {cases} reversed");
                hits += usize::from(expected);
                coplanar_hits += usize::from(expected && coplanar);
                cases += 1;
            }
            // Lifted corner: the polygon is its fan.
            let mut lifted = polygon.clone();
            lifted[1] += normal;
            let (u, v) = (map(0.5, 0.5, -1.0), map(1.0, -0.5, 1.0));
            let fan = (1..m - 1).any(|i| {
                segment_triangle(&u, &v, &[lifted[0], lifted[i], lifted[i + 1]]).is_some()
            });
            assert_eq!(edge_polygon_intersect(&u, &v, &lifted).is_some(), fan);
        }
        assert!(hits > 20_000 && hits < 80_000, "{hits}");
        assert!(coplanar_hits > 5_000, "{coplanar_hits}");
    }
}
