//! Interval enclosures of the contact conditions of a feature pair over a fraction interval `T`,
//! from boxes enclosing each point's positions over `T` (world frame).
//!
//! * Vertex `p` against the triangle `(q0, q1, q2)` (counter-clockwise seen from the front): they
//!   touch at `tau` iff the plane function `det(q1 - q0, q2 - q0, p - q0)` is 0 and `p` is in the
//!   closed triangle, i.e. with `n = (q1 - q0) x (q2 - q0)` the three edge-side functions
//!   `((q[i+1] - q[i]) x (p - q[i])) . n` are all `>= 0` (and the vectors `(q[i+1] - q[i]) x
//!   (p - q[i])` are non-negative multiples of `n`, which also covers degenerate triangles).
//! * Edge `(a, b)` against edge `(c, d)`: they touch at `tau` iff the coplanarity function
//!   `det(b - a, d - c, c - a)` is 0 and the closed segments meet; with `m = (b - a) x (d - c)`,
//!   `c` and `d` lie on closed opposite sides of line `ab` (`((b - a) x (c - a)) . m` and
//!   `((b - a) x (d - a)) . m` not both of one strict sign), and `a`, `b` of line `cd`. For
//!   parallel edges (`m = 0`) these side functions vanish; the vector forms
//!   `(b - a) x (c - a)`, `(b - a) x (d - a)` (which must have 0 between them) still separate.
//!
//! A pair is *excluded* on `T` when some condition is certified violated over all of `T`: then it
//! does not touch anywhere in `T`. Not excluded means "may touch" (the test is conservative).
//! Touching counts as contact (closed sets).

use crate::interval::{IVec3, Interval};

/// The outcome of testing a feature pair on an interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairTest {
    /// True when the pair certainly does not touch anywhere in `T`.
    pub excluded: bool,
    /// Enclosure of the plane (vertex-face) or coplanarity (edge-edge) function over `T`.
    pub plane: Interval,
}

#[inline]
fn det3(u: &IVec3, v: &IVec3, w: &IVec3) -> Interval {
    u.cross(v).dot(w)
}

#[inline]
fn box_of(points: &[IVec3]) -> IVec3 {
    points[1..].iter().fold(points[0], |acc, p| acc.hull(p))
}

/// True when one of the intervals is strictly positive and another strictly negative.
#[inline]
fn strictly_opposite(x: &[Interval]) -> bool {
    x.iter().any(|a| a.is_positive()) && x.iter().any(|a| a.is_negative())
}

/// Tests vertex `p` against the triangle `q` (module docs).
#[inline]
pub fn vertex_triangle(p: &IVec3, q: &[IVec3; 3]) -> PairTest {
    let not_plane = |plane| PairTest {
        excluded: true,
        plane,
    };
    if !p.overlaps(&box_of(q)) {
        return not_plane(Interval::new(f64::NEG_INFINITY, f64::INFINITY));
    }
    let e1 = q[1] - q[0];
    let e2 = q[2] - q[0];
    let n = e1.cross(&e2);
    let plane = n.dot(&(*p - q[0]));
    if !plane.contains_zero() {
        return not_plane(plane);
    }
    let mut w = [n; 3];
    for i in 0..3 {
        let j = (i + 1) % 3;
        w[i] = (q[j] - q[i]).cross(&(*p - q[i]));
        if w[i].dot(&n).is_negative() {
            return not_plane(plane);
        }
    }
    // In the closed triangle every `w[i]` is a non-negative multiple of `n` (also for a
    // degenerate triangle, where `n = 0` and `p` must be on its line): no two of `w[0..3], n`
    // may have strictly opposite signs in one coordinate.
    for k in 0..3 {
        let comps = [w[0].0[k], w[1].0[k], w[2].0[k], n.0[k]];
        if strictly_opposite(&comps) {
            return not_plane(plane);
        }
    }
    PairTest {
        excluded: false,
        plane,
    }
}

/// Tests edge `(a, b)` against edge `(c, d)` (module docs).
#[inline]
pub fn edge_edge(a: &IVec3, b: &IVec3, c: &IVec3, d: &IVec3) -> PairTest {
    let exclude = |plane| PairTest {
        excluded: true,
        plane,
    };
    if !box_of(&[*a, *b]).overlaps(&box_of(&[*c, *d])) {
        return exclude(Interval::new(f64::NEG_INFINITY, f64::INFINITY));
    }
    let u = *b - *a;
    let v = *d - *c;
    let ca = *c - *a;
    let plane = det3(&u, &v, &ca);
    if !plane.contains_zero() {
        return exclude(plane);
    }
    let m = u.cross(&v);
    let same_strict_sign = |x: Interval, y: Interval| {
        (x.is_positive() && y.is_positive()) || (x.is_negative() && y.is_negative())
    };
    let sc = u.cross(&ca).dot(&m);
    let sd = u.cross(&(*d - *a)).dot(&m);
    if same_strict_sign(sc, sd) {
        return exclude(plane);
    }
    let ta = v.cross(&(*a - *c)).dot(&m);
    let tb = v.cross(&(*b - *c)).dot(&m);
    if same_strict_sign(ta, tb) {
        return exclude(plane);
    }
    // A common point `x = c + s (d - c)` has `u x (x - a) = 0`, a convex combination of
    // `u x (c - a)` and `u x (d - a)`: no coordinate of both may have one strict sign (this
    // also separates parallel edges, for which `m = 0`). Likewise for line `cd`.
    let (uc, ud) = (u.cross(&ca), u.cross(&(*d - *a)));
    let (va, vb) = (v.cross(&(*a - *c)), v.cross(&(*b - *c)));
    for k in 0..3 {
        if same_strict_sign(uc.0[k], ud.0[k]) || same_strict_sign(va.0[k], vb.0[k]) {
            return exclude(plane);
        }
    }
    PairTest {
        excluded: false,
        plane,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use colldet_geom::math::PointD;

    fn pt(x: f64, y: f64, z: f64) -> IVec3 {
        IVec3::from_point(&PointD::new(x, y, z))
    }

    #[test]
    fn vertex_triangle_touching_and_excluded() {
        let q = [pt(0.0, 0.0, 0.0), pt(1.0, 0.0, 0.0), pt(0.0, 1.0, 0.0)];
        assert!(!vertex_triangle(&pt(0.2, 0.2, 0.0), &q).excluded);
        // On an edge and at a corner: closed triangle.
        assert!(!vertex_triangle(&pt(0.5, 0.5, 0.0), &q).excluded);
        assert!(!vertex_triangle(&pt(1.0, 0.0, 0.0), &q).excluded);
        assert!(vertex_triangle(&pt(0.6, 0.6, 0.0), &q).excluded);
        assert!(vertex_triangle(&pt(0.2, 0.2, 1e-9), &q).excluded);
    }

    #[test]
    fn edge_edge_touching_and_excluded() {
        let (a, b) = (pt(-1.0, 0.0, 0.0), pt(1.0, 0.0, 0.0));
        assert!(!edge_edge(&a, &b, &pt(0.0, -1.0, 0.0), &pt(0.0, 1.0, 0.0)).excluded);
        // Endpoint on the other edge.
        assert!(!edge_edge(&a, &b, &pt(1.0, 0.0, 0.0), &pt(1.0, 1.0, 0.0)).excluded);
        assert!(edge_edge(&a, &b, &pt(1.5, -1.0, 0.0), &pt(1.5, 1.0, 0.0)).excluded);
        assert!(edge_edge(&a, &b, &pt(0.0, -1.0, 0.1), &pt(0.0, 1.0, 0.1)).excluded);
        // Parallel diagonal edges with overlapping boxes, apart.
        let (c, d) = (pt(0.0, 0.0, 0.0), pt(1.0, 1.0, 0.0));
        assert!(edge_edge(&c, &d, &pt(0.2, 0.0, 0.0), &pt(1.2, 1.0, 0.0)).excluded);
        assert!(!edge_edge(&c, &d, &pt(0.5, 0.5, 0.0), &pt(1.5, 1.5, 0.0)).excluded);
    }
}
