//! Distance and closest points between two triangles, in `f64`.
//!
//! Rationale. For two disjoint triangles the minimum distance is attained between two edges or
//! between a vertex and the other triangle (a closest pair that is interior to both faces would
//! make the faces parallel, and then an edge or vertex pair attains the same distance). When the
//! triangles intersect, an edge of one pierces the other (see [`crate::mesh::triangle_triangle`]), so the
//! six edge-plane crossings are added as candidates and the distance comes out as (numerically)
//! zero. All candidates are closest-point computations on segments and triangles (Ericson's
//! region tests, written for this crate), each a true pair of points of the two triangles, so the
//! result is an upper bound that is exact up to rounding. An edge pair whose closest points
//! span a slab with each triangle on its own side is the answer at once (PQP's test), which
//! ends most calls on separated triangles after a few edge pairs.

use colldet_geom::math::{PointD, VectorD};
use colldet_geom::segment::closest_points_between_segments;

/// The distance between two triangles and a closest pair of points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TriangleDistance {
    /// The distance, in the triangles' units (0 up to rounding when they intersect).
    pub distance: f64,
    /// The closest point on the first triangle.
    pub point1: PointD,
    /// The closest point on the second triangle.
    pub point2: PointD,
}

/// Distance and closest points between the closed triangles `t1` and `t2` (same frame, `f64`).
/// Degenerate triangles (segments, points) are handled. No allocation.
pub fn triangle_distance(t1: &[PointD; 3], t2: &[PointD; 3]) -> TriangleDistance {
    let mut best = TriangleDistance {
        distance: f64::INFINITY,
        point1: t1[0],
        point2: t2[0],
    };
    let mut consider = |a: PointD, b: PointD| {
        let d = (a - b).norm_squared();
        if d < best.distance {
            best = TriangleDistance {
                distance: d,
                point1: a,
                point2: b,
            };
        }
    };
    for i in 0..3 {
        let (p1, q1) = (t1[i], t1[(i + 1) % 3]);
        for j in 0..3 {
            let (p2, q2) = (t2[j], t2[(j + 1) % 3]);
            let (a, b) = closest_points_between_segments(&p1, &q1, &p2, &q2);
            // The edges' closest points `a`, `b` already satisfy `(x - a).v <= 0` on edge i and
            // `(y - b).v >= 0` on edge j (`v = b - a`); when the opposite corners do too, the
            // slab between the planes through `a` and `b` normal to `v` separates the
            // triangles, so no pair is closer (PQP's early exit).
            let v = b - a;
            if (t1[(i + 2) % 3] - a).dot(&v) <= 0.0 && (t2[(j + 2) % 3] - b).dot(&v) >= 0.0 {
                return TriangleDistance {
                    distance: v.norm(),
                    point1: a,
                    point2: b,
                };
            }
            consider(a, b);
        }
    }
    for v in t1 {
        consider(*v, closest_point_triangle(v, t2));
    }
    for v in t2 {
        consider(closest_point_triangle(v, t1), *v);
    }
    for i in 0..3 {
        if let Some(x) = plane_crossing(&t1[i], &t1[(i + 1) % 3], t2) {
            consider(x, closest_point_triangle(&x, t2));
        }
        if let Some(x) = plane_crossing(&t2[i], &t2[(i + 1) % 3], t1) {
            consider(closest_point_triangle(&x, t1), x);
        }
    }
    best.distance = best.distance.sqrt();
    best
}

/// Where segment `pq` crosses the plane of `t` when its ends are strictly on opposite sides.
fn plane_crossing(p: &PointD, q: &PointD, t: &[PointD; 3]) -> Option<PointD> {
    let n = (t[1] - t[0]).cross(&(t[2] - t[0]));
    let dp = n.dot(&(p - t[0]));
    let dq = n.dot(&(q - t[0]));
    if (dp > 0.0 && dq < 0.0) || (dp < 0.0 && dq > 0.0) {
        Some(p + (q - p) * (dp / (dp - dq)))
    } else {
        None
    }
}

/// The point of the closed triangle `t` closest to `p` (region tests on the barycentric
/// coordinates; a degenerate triangle falls back to its edges).
pub(super) fn closest_point_triangle(p: &PointD, t: &[PointD; 3]) -> PointD {
    let [a, b, c] = t;
    let ab: VectorD = b - a;
    let ac: VectorD = c - a;
    let ap = p - a;
    let d1 = ab.dot(&ap);
    let d2 = ac.dot(&ap);
    if d1 <= 0.0 && d2 <= 0.0 {
        return *a;
    }
    let bp = p - b;
    let d3 = ab.dot(&bp);
    let d4 = ac.dot(&bp);
    if d3 >= 0.0 && d4 <= d3 {
        return *b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 && d1 - d3 > 0.0 {
        return a + ab * (d1 / (d1 - d3));
    }
    let cp = p - c;
    let d5 = ab.dot(&cp);
    let d6 = ac.dot(&cp);
    if d6 >= 0.0 && d5 <= d6 {
        return *c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 && d2 - d6 > 0.0 {
        return a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0 && (d4 - d3) + (d5 - d6) > 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denom = va + vb + vc;
    if denom > 0.0 && va >= 0.0 && vb >= 0.0 && vc >= 0.0 {
        return a + ab * (vb / denom) + ac * (vc / denom);
    }
    // Degenerate triangle, or rounding put `p` in no region: best of the three edges.
    let mut best = *a;
    for (u, v) in [(a, b), (b, c), (c, a)] {
        let (q, _) = closest_points_between_segments(u, v, p, p);
        if (q - p).norm_squared() < (best - p).norm_squared() {
            best = q;
        }
    }
    best
}
