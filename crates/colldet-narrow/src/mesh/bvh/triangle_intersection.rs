//! Exact intersection test of two closed triangles given by `f64` corners (the leaf test of the
//! BVH traversal; corners of shape 2 are already mapped into shape 1's frame).
//!
//! Rationale. Two closed triangles meet iff an edge of one meets the other: their intersection
//! is a compact convex set; if the planes differ it is a segment on their common line whose
//! endpoints lie on edges of either triangle, and if they coincide it is a polygon whose corners
//! are corners of either triangle or edge crossings. A zero-area triangle is the union of its
//! edges, so the statement covers degenerate triangles too. Every sign below comes from
//! Shewchuk's adaptive `orient3d`/`orient2d`, exact on the given `f64` inputs; projections to a
//! coordinate plane are only used where an exact `orient2d` proves them injective on the points'
//! common plane (or line).

use super::TrianglePairTest;
use colldet_geom::math::PointD;
use colldet_geom::predicates::{orient2d, orient3d};

/// The default leaf test of [`mesh_surfaces_intersect`](super::mesh_surfaces_intersect):
/// [`triangles_intersect_exact`].
#[derive(Clone, Copy, Debug, Default)]
pub struct ExactTriangleTest;

impl TrianglePairTest for ExactTriangleTest {
    #[inline]
    fn intersects(&mut self, t1: &[PointD; 3], t2: &[PointD; 3]) -> bool {
        triangles_intersect_exact(t1, t2)
    }
}

/// True when the closed triangles `t1` and `t2` (same frame) share at least one point, touching
/// included. Exact for the given `f64` corners, degenerate (collinear or coincident corners)
/// triangles included. No allocation.
pub fn triangles_intersect_exact(t1: &[PointD; 3], t2: &[PointD; 3]) -> bool {
    // Cheap exact rejection: a plane through one triangle with the other strictly on one side.
    if strictly_one_side(t1, t2) || strictly_one_side(t2, t1) {
        return false;
    }
    edges_meet_triangle(t1, t2) || edges_meet_triangle(t2, t1)
}

/// True when `t` is non-degenerate and all of `other`'s corners lie strictly on one side of its
/// plane.
fn strictly_one_side(t: &[PointD; 3], other: &[PointD; 3]) -> bool {
    let s = other.map(|p| orient3d(&t[0], &t[1], &t[2], &p));
    (s[0] > 0.0 && s[1] > 0.0 && s[2] > 0.0) || (s[0] < 0.0 && s[1] < 0.0 && s[2] < 0.0)
}

fn edges_meet_triangle(s: &[PointD; 3], t: &[PointD; 3]) -> bool {
    let degenerate = collinear3(&t[0], &t[1], &t[2]);
    (0..3).any(|k| {
        let (p, q) = (&s[k], &s[(k + 1) % 3]);
        if degenerate {
            (0..3).any(|m| segments_meet(p, q, &t[m], &t[(m + 1) % 3]))
        } else {
            segment_meets_triangle(p, q, t)
        }
    })
}

/// Closed segment `pq` against a non-degenerate closed triangle `t`.
fn segment_meets_triangle(p: &PointD, q: &PointD, t: &[PointD; 3]) -> bool {
    let [a, b, c] = t;
    let sp = orient3d(a, b, c, p);
    let sq = orient3d(a, b, c, q);
    if (sp > 0.0 && sq > 0.0) || (sp < 0.0 && sq < 0.0) {
        return false;
    }
    if sp == 0.0 && sq == 0.0 {
        let k = injective_projection(&[a, b, c]).unwrap_or(2);
        let [p2, q2, a2, b2, c2] = [p, q, a, b, c].map(|x| drop_axis(x, k));
        return point_in_triangle_2d(p2, [a2, b2, c2])
            || point_in_triangle_2d(q2, [a2, b2, c2])
            || segments_meet_2d(p2, q2, a2, b2)
            || segments_meet_2d(p2, q2, b2, c2)
            || segments_meet_2d(p2, q2, c2, a2);
    }
    // The line pq crosses the plane at one point X of the segment; X is in the triangle iff the
    // volumes (p, q, edge) have no two strictly opposite signs (they cannot all vanish, their
    // sum is +-(q - p) . normal != 0).
    let s = [
        orient3d(p, q, a, b),
        orient3d(p, q, b, c),
        orient3d(p, q, c, a),
    ];
    !(s.iter().any(|&x| x > 0.0) && s.iter().any(|&x| x < 0.0))
}

/// Closed segments `pq` and `rs` in 3D.
fn segments_meet(p: &PointD, q: &PointD, r: &PointD, s: &PointD) -> bool {
    if orient3d(p, q, r, s) != 0.0 {
        return false;
    }
    if let Some(k) = injective_projection(&[p, q, r]).or_else(|| {
        injective_projection(&[p, q, s])
            .or_else(|| injective_projection(&[r, s, p]))
            .or_else(|| injective_projection(&[r, s, q]))
    }) {
        let [p2, q2, r2, s2] = [p, q, r, s].map(|x| drop_axis(x, k));
        return segments_meet_2d(p2, q2, r2, s2);
    }
    // All four points on one line (or one point): compare along the axis of largest spread,
    // along which the line's coordinate is injective.
    let pts = [p, q, r, s];
    let spread = |m: usize| {
        let (lo, hi) = pts
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), x| {
                (l.min(x[m]), h.max(x[m]))
            });
        hi - lo
    };
    let m = (0..3)
        .max_by(|&i, &j| spread(i).total_cmp(&spread(j)))
        .unwrap_or(0);
    p[m].min(q[m]) <= r[m].max(s[m]) && r[m].min(s[m]) <= p[m].max(q[m])
}

/// A coordinate axis whose removal keeps the triangle `t` non-degenerate (so the projection is
/// injective on its plane), preferring the largest projected area; `None` when `t` is collinear.
fn injective_projection(t: &[&PointD; 3]) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for k in 0..3 {
        let [a, b, c] = t.map(|x| drop_axis(x, k));
        let area = orient2d(a, b, c).abs();
        if area > 0.0 && best.is_none_or(|(_, b)| area > b) {
            best = Some((k, area));
        }
    }
    best.map(|(k, _)| k)
}

/// Exactly collinear (or coincident) points.
fn collinear3(a: &PointD, b: &PointD, c: &PointD) -> bool {
    injective_projection(&[a, b, c]).is_none()
}

#[inline]
fn drop_axis(p: &PointD, k: usize) -> [f64; 2] {
    match k {
        0 => [p.y, p.z],
        1 => [p.z, p.x],
        _ => [p.x, p.y],
    }
}

/// Closed non-degenerate triangle `t` contains `p` (2D, exact).
fn point_in_triangle_2d(p: [f64; 2], t: [[f64; 2]; 3]) -> bool {
    let d = [
        orient2d(t[0], t[1], p),
        orient2d(t[1], t[2], p),
        orient2d(t[2], t[0], p),
    ];
    !(d.iter().any(|&x| x > 0.0) && d.iter().any(|&x| x < 0.0))
}

/// Closed segments `pq` and `rs` in 2D (exact, collinear overlaps included).
fn segments_meet_2d(p: [f64; 2], q: [f64; 2], r: [f64; 2], s: [f64; 2]) -> bool {
    let d1 = orient2d(r, s, p);
    let d2 = orient2d(r, s, q);
    let d3 = orient2d(p, q, r);
    let d4 = orient2d(p, q, s);
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
    {
        return true;
    }
    let within = |a: [f64; 2], b: [f64; 2], x: [f64; 2]| {
        a[0].min(b[0]) <= x[0]
            && x[0] <= a[0].max(b[0])
            && a[1].min(b[1]) <= x[1]
            && x[1] <= a[1].max(b[1])
    };
    (d1 == 0.0 && within(r, s, p))
        || (d2 == 0.0 && within(r, s, q))
        || (d3 == 0.0 && within(p, q, r))
        || (d4 == 0.0 && within(p, q, s))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64, z: f64) -> PointD {
        PointD::new(x, y, z)
    }

    #[test]
    fn analytic_cases() {
        let base = [p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(0.0, 1.0, 0.0)];
        // Piercing, touching at a vertex, an edge lying on the face, parallel apart, coplanar.
        let pierce = [p(0.2, 0.2, -1.0), p(0.2, 0.2, 1.0), p(3.0, 3.0, 0.5)];
        let touch = [p(0.25, 0.25, 0.0), p(1.0, 1.0, 1.0), p(-1.0, 1.0, 1.0)];
        let above = [p(0.25, 0.25, 1e-300), p(1.0, 1.0, 1.0), p(-1.0, 1.0, 1.0)];
        let coplanar_in = [p(0.1, 0.1, 0.0), p(0.2, 0.1, 0.0), p(0.1, 0.2, 0.0)];
        let coplanar_out = [p(0.6, 0.6, 0.0), p(2.0, 0.6, 0.0), p(0.6, 2.0, 0.0)];
        let coplanar_touch = [p(0.5, 0.5, 0.0), p(2.0, 0.6, 0.0), p(0.6, 2.0, 0.0)];
        for (t, want) in [
            (pierce, true),
            (touch, true),
            (above, false),
            (coplanar_in, true),
            (coplanar_out, false),
            (coplanar_touch, true),
        ] {
            assert_eq!(triangles_intersect_exact(&base, &t), want, "{t:?}");
            assert_eq!(triangles_intersect_exact(&t, &base), want, "{t:?} swapped");
        }
    }

    #[test]
    fn degenerate_triangles() {
        let base = [p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(0.0, 1.0, 0.0)];
        // A "triangle" that is a vertical segment through the face, and one that misses it.
        let needle = [p(0.3, 0.3, -1.0), p(0.3, 0.3, 1.0), p(0.3, 0.3, 0.0)];
        let miss = [p(0.6, 0.6, -1.0), p(0.6, 0.6, 1.0), p(0.6, 0.6, 0.5)];
        assert!(triangles_intersect_exact(&base, &needle));
        assert!(!triangles_intersect_exact(&base, &miss));
        // Two collinear segments along x: overlapping, and disjoint by a hair.
        let s1 = [p(0.0, 0.0, 5.0), p(1.0, 0.0, 5.0), p(0.5, 0.0, 5.0)];
        let s2 = [p(1.0, 0.0, 5.0), p(2.0, 0.0, 5.0), p(1.5, 0.0, 5.0)];
        let s3 = [
            p(1.0 + f64::EPSILON * 2.0, 0.0, 5.0),
            p(2.0, 0.0, 5.0),
            p(1.5, 0.0, 5.0),
        ];
        assert!(triangles_intersect_exact(&s1, &s2));
        assert!(!triangles_intersect_exact(&s1, &s3));
        // Single points.
        let pt = [p(0.25, 0.25, 0.0); 3];
        assert!(triangles_intersect_exact(&base, &pt));
        assert!(triangles_intersect_exact(&pt, &pt));
        assert!(!triangles_intersect_exact(&[p(0.25, 0.25, 1.0); 3], &pt));
    }
}
