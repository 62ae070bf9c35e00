//! Exact predicates on integer points: orientations, and closed segment/triangle intersection
//! tests that handle every coplanar and degenerate case.
//!
//! Points are [`IntPoint`]s, the exact coordinates scaled by a common power of two, so every
//! predicate is a sign of an integer polynomial and nothing is rounded.
//!
//! Two closed triangles meet iff some edge (a closed segment) of one meets the other closed
//! triangle: if neither triangle is degenerate and their planes differ, the intersection is a
//! segment of the planes' common line whose ends lie on the boundary of one triangle; if they
//! are coplanar, either a boundary meets the other triangle or one triangle lies inside the other
//! and its edges meet it; a degenerate triangle is the union of its edges.

use num_bigint::BigInt;
use num_traits::{Signed, Zero};

/// An exact point: integer coordinates at the oracle's common scale.
pub type IntPoint = [BigInt; 3];

/// `a - b`.
pub fn sub(a: &IntPoint, b: &IntPoint) -> IntPoint {
    [&a[0] - &b[0], &a[1] - &b[1], &a[2] - &b[2]]
}

/// The cross product `a x b`.
pub fn cross(a: &IntPoint, b: &IntPoint) -> IntPoint {
    [
        &a[1] * &b[2] - &a[2] * &b[1],
        &a[2] * &b[0] - &a[0] * &b[2],
        &a[0] * &b[1] - &a[1] * &b[0],
    ]
}

/// The dot product `a . b`.
pub fn dot(a: &IntPoint, b: &IntPoint) -> BigInt {
    &a[0] * &b[0] + &a[1] * &b[1] + &a[2] * &b[2]
}

/// The sign of `x`: -1, 0 or 1.
pub fn sign(x: &BigInt) -> i8 {
    if x.is_zero() {
        0
    } else if x.is_positive() {
        1
    } else {
        -1
    }
}

/// `det(b - a, c - a, d - a)`'s sign: positive when `d` lies on the side of the plane `abc` that
/// `(b - a) x (c - a)` points to.
pub fn orient3d(a: &IntPoint, b: &IntPoint, c: &IntPoint, d: &IntPoint) -> i8 {
    sign(&dot(&cross(&sub(b, a), &sub(c, a)), &sub(d, a)))
}

/// The sign of the 2D orientation of `a, b, c` in the coordinate plane of axes `ax`.
fn orient2d(a: &IntPoint, b: &IntPoint, c: &IntPoint, ax: [usize; 2]) -> i8 {
    let [i, j] = ax;
    let det = (&b[i] - &a[i]) * (&c[j] - &a[j]) - (&b[j] - &a[j]) * (&c[i] - &a[i]);
    sign(&det)
}

/// Whether `p` lies in the closed box of `a` and `b` on the axes `ax`.
fn in_box_2d(a: &IntPoint, b: &IntPoint, p: &IntPoint, ax: [usize; 2]) -> bool {
    ax.iter().all(|&k| {
        let (lo, hi) = if a[k] <= b[k] {
            (&a[k], &b[k])
        } else {
            (&b[k], &a[k])
        };
        lo <= &p[k] && &p[k] <= hi
    })
}

/// Whether the closed segments `pq` and `rs`, projected on the axes `ax`, meet (either may be a
/// single point).
fn segments_meet_2d(
    p: &IntPoint,
    q: &IntPoint,
    r: &IntPoint,
    s: &IntPoint,
    ax: [usize; 2],
) -> bool {
    let o1 = orient2d(p, q, r, ax);
    let o2 = orient2d(p, q, s, ax);
    let o3 = orient2d(r, s, p, ax);
    let o4 = orient2d(r, s, q, ax);
    if o1 * o2 < 0 && o3 * o4 < 0 {
        return true;
    }
    (o1 == 0 && in_box_2d(p, q, r, ax))
        || (o2 == 0 && in_box_2d(p, q, s, ax))
        || (o3 == 0 && in_box_2d(r, s, p, ax))
        || (o4 == 0 && in_box_2d(r, s, q, ax))
}

/// The three coordinate planes, as the axes each keeps.
const PROJECTIONS: [[usize; 2]; 3] = [[1, 2], [2, 0], [0, 1]];

/// Whether the closed segments `pq` and `rs` (either may be a single point) share a point.
///
/// Coplanar segments meet iff their projections on all three coordinate planes meet: meeting in
/// space implies meeting in every projection, and some projection is one-to-one on the plane
/// (or line, or point) holding them.
pub fn segments_meet(p: &IntPoint, q: &IntPoint, r: &IntPoint, s: &IntPoint) -> bool {
    if orient3d(p, q, r, s) != 0 {
        return false;
    }
    PROJECTIONS
        .iter()
        .all(|&ax| segments_meet_2d(p, q, r, s, ax))
}

/// A triangle with its (unnormalised, exact) normal `(b - a) x (c - a)`; a zero normal marks a
/// degenerate triangle (collinear or coincident corners).
pub struct ExactTriangle<'a> {
    /// The corners.
    pub corners: [&'a IntPoint; 3],
    /// `(b - a) x (c - a)`.
    pub normal: IntPoint,
}

impl<'a> ExactTriangle<'a> {
    /// The triangle `a, b, c` and its normal.
    pub fn new(a: &'a IntPoint, b: &'a IntPoint, c: &'a IntPoint) -> Self {
        let normal = cross(&sub(b, a), &sub(c, a));
        Self {
            corners: [a, b, c],
            normal,
        }
    }

    /// Whether the corners are collinear (or coincide).
    pub fn is_degenerate(&self) -> bool {
        self.normal.iter().all(Zero::is_zero)
    }

    /// The sign of `p`'s side of the plane (0 for a degenerate triangle).
    pub fn side(&self, p: &IntPoint) -> i8 {
        sign(&dot(&self.normal, &sub(p, self.corners[0])))
    }

    /// The three edges as corner pairs.
    pub fn edges(&self) -> [(&'a IntPoint, &'a IntPoint); 3] {
        let [a, b, c] = self.corners;
        [(a, b), (b, c), (c, a)]
    }

    /// The coordinate plane the triangle projects one-to-one onto: the two axes other than the
    /// normal's largest component. Only for non-degenerate triangles.
    fn projection(&self) -> [usize; 2] {
        let n = &self.normal;
        let k = if n[0].abs() >= n[1].abs() && n[0].abs() >= n[2].abs() {
            0
        } else if n[1].abs() >= n[2].abs() {
            1
        } else {
            2
        };
        PROJECTIONS[k]
    }

    /// Whether the closed segment `pq` (possibly a point) meets the closed triangle.
    pub fn meets_segment(&self, p: &IntPoint, q: &IntPoint) -> bool {
        if self.is_degenerate() {
            return self.edges().iter().any(|(a, b)| segments_meet(p, q, a, b));
        }
        let sp = self.side(p);
        let sq = self.side(q);
        if sp * sq > 0 {
            return false;
        }
        let [a, b, c] = self.corners;
        if sp == 0 && sq == 0 {
            let ax = self.projection();
            let inside = |x: &IntPoint| {
                let o = [
                    orient2d(a, b, x, ax),
                    orient2d(b, c, x, ax),
                    orient2d(c, a, x, ax),
                ];
                !(o.contains(&1) && o.contains(&-1))
            };
            return inside(p)
                || inside(q)
                || self
                    .edges()
                    .iter()
                    .any(|(r, s)| segments_meet_2d(p, q, r, s, ax));
        }
        // The line pq crosses the plane at a point of the segment; it lies in the closed
        // triangle iff the line passes on the same side of (or through) all three edges.
        let o = [
            orient3d(p, q, a, b),
            orient3d(p, q, b, c),
            orient3d(p, q, c, a),
        ];
        !(o.contains(&1) && o.contains(&-1))
    }

    /// Whether the closed segment `pq` crosses the triangle's relative interior transversally,
    /// with both ends strictly off the plane and the line strictly inside all three edges.
    pub fn crossed_strictly_by(&self, p: &IntPoint, q: &IntPoint) -> bool {
        if self.is_degenerate() || self.side(p) * self.side(q) >= 0 {
            return false;
        }
        let [a, b, c] = self.corners;
        let o = [
            orient3d(p, q, a, b),
            orient3d(p, q, b, c),
            orient3d(p, q, c, a),
        ];
        o == [1, 1, 1] || o == [-1, -1, -1]
    }
}

/// Whether two closed triangles share a point (touching counts; coplanar and degenerate
/// triangles exact).
pub fn triangles_meet(t1: &ExactTriangle<'_>, t2: &ExactTriangle<'_>) -> bool {
    let strictly_one_side = |plane: &ExactTriangle<'_>, other: &ExactTriangle<'_>| {
        if plane.is_degenerate() {
            return false;
        }
        let s = other.corners.map(|p| plane.side(p));
        s == [1, 1, 1] || s == [-1, -1, -1]
    };
    if strictly_one_side(t1, t2) || strictly_one_side(t2, t1) {
        return false;
    }
    t1.edges().iter().any(|(p, q)| t2.meets_segment(p, q))
        || t2.edges().iter().any(|(p, q)| t1.meets_segment(p, q))
}
