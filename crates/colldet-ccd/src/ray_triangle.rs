//! Exact ray-segment against closed triangle: does `o + t d`, `0 <= t <= max_t`, meet the
//! triangle `(a, b, c)` (edges and corners included)? Decided exactly for the `f64` inputs; the
//! first parameter `t` of contact is then computed in `f64`.
//!
//! Rationale. The line meets the closed triangle iff the three Plücker signs
//! `det(a - o, b - o, d)`, `det(b - o, c - o, d)`, `det(c - o, a - o, d)` do not differ
//! ([`det_sign`]: filtered, exact fallback in expansion arithmetic). When they are not all zero,
//! their sum `det(b - a, c - a, d) = n . d` is non-zero with their sign, and the line crosses the
//! plane at `t = n . (a - o) / n . d`: `t >= 0` is a sign comparison of two determinants, and
//! `t <= max_t` the sign of `n . (a - o) - max_t (n . d)`, decided by a floating-point filter and,
//! within its error bound, in exact rationals. When all three signs are zero the line lies in
//! the triangle's plane: the triangle is projected along the axis of a non-zero normal component
//! and the segment clipped by its three edge half-planes in exact rationals (rare: a ray
//! grazing along a face). A triangle without area is never hit (its edges belong to the faces
//! around it).

use colldet_geom::math::{PointD, VectorD};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};

use crate::exact_det::{Column, det_sign, estimate, sign_of};

/// A ray segment in one frame: `origin + t dir`, `0 <= t <= max_t`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RaySegment3 {
    /// Start point.
    pub origin: VectorD,
    /// Direction, finite and non-zero (not necessarily unit).
    pub dir: VectorD,
    /// Largest parameter: finite `>= 0`, or `+inf` for an unbounded ray.
    pub max_t: f64,
}

/// The smallest `t` in `[0, ray.max_t]` at which the ray touches the closed triangle `tri`, or
/// `None` when it misses (see the module docs). The hit/miss answer is exact; `t` is the `f64`
/// quotient `n . (a - o) / n . d` (a few ulps relative, worse only for a ray nearly parallel to
/// the face: the error grows like `1 / |cos|` of the angle to the normal), clamped into
/// `[0, max_t]`, or exact rationals rounded once when the ray lies in the triangle's plane.
pub fn ray_triangle(ray: &RaySegment3, tri: &[PointD; 3]) -> Option<f64> {
    let [a, b, c] = tri.map(|p| p.coords);
    let (o, d) = (&ray.origin, &ray.dir);
    let dir = Column::of(*d);
    let s = [
        det_sign(&Column::diff(&a, o), &Column::diff(&b, o), &dir),
        det_sign(&Column::diff(&b, o), &Column::diff(&c, o), &dir),
        det_sign(&Column::diff(&c, o), &Column::diff(&a, o), &dir),
    ];
    if s.contains(&1) && s.contains(&-1) {
        return None;
    }
    let sigma = s.iter().copied().find(|&x| x != 0);
    let Some(sigma) = sigma else {
        return coplanar(ray, &[a, b, c]);
    };
    let (u, v) = (Column::diff(&b, &a), Column::diff(&c, &a));
    let w = Column::diff(&a, o);
    // t >= 0: n . (a - o) has the sign of n . d (= sigma) or is zero.
    let num = estimate(&u, &v, &w);
    if sign_of(&num, &u, &v, &w) == -sigma {
        return None;
    }
    let den = estimate(&u, &v, &dir);
    let t = num.value / den.value;
    if ray.max_t.is_finite() && !within_max_t(ray, &[a, b, c], sigma, num, den) {
        return None;
    }
    Some(if t.is_nan() || t < 0.0 {
        0.0
    } else {
        t.min(ray.max_t)
    })
}

/// True when `sigma (n . (a - o) - max_t n . d) <= 0`, i.e. the plane crossing is at `t <= max_t`.
fn within_max_t(
    ray: &RaySegment3,
    [a, b, c]: &[VectorD; 3],
    sigma: i8,
    num: crate::exact_det::Estimate,
    den: crate::exact_det::Estimate,
) -> bool {
    let m = ray.max_t;
    let g = num.value - m * den.value;
    let bound = num.error
        + m * den.error
        + 4.0 * f64::EPSILON * (num.value.abs() + m * den.value.abs())
        + f64::MIN_POSITIVE;
    if g.is_finite() && bound.is_finite() && g.abs() > bound {
        return f64::from(sigma) * g < 0.0;
    }
    // Exact: n . (a - o - max_t d) with rationals.
    let q = |x: &VectorD| x.map(rational);
    let (qa, qb, qc, qo, qd) = (q(a), q(b), q(c), q(&ray.origin), q(&ray.dir));
    let qm = rational(m);
    let n = cross(&sub(&qb, &qa), &sub(&qc, &qa));
    let w: [BigRational; 3] = std::array::from_fn(|k| &qa[k] - &qo[k] - &qm * &qd[k]);
    let g = dot(&n, &w);
    let g = if sigma > 0 { g } else { -g };
    !g.is_positive()
}

/// The exact rational value of a finite `f64`.
fn rational(x: f64) -> BigRational {
    BigRational::from_float(x).unwrap_or_else(|| BigRational::from_integer(BigInt::zero()))
}

type Q3 = nalgebra::Vector3<BigRational>;

fn sub(x: &Q3, y: &Q3) -> [BigRational; 3] {
    std::array::from_fn(|k| &x[k] - &y[k])
}

fn cross(x: &[BigRational; 3], y: &[BigRational; 3]) -> [BigRational; 3] {
    [
        &x[1] * &y[2] - &x[2] * &y[1],
        &x[2] * &y[0] - &x[0] * &y[2],
        &x[0] * &y[1] - &x[1] * &y[0],
    ]
}

fn dot(x: &[BigRational; 3], y: &[BigRational; 3]) -> BigRational {
    &x[0] * &y[0] + &x[1] * &y[1] + &x[2] * &y[2]
}

/// The ray in the triangle's plane: the parameter interval `[0, max_t]` clipped by the three
/// edge half-planes of the triangle projected along a non-zero normal component, in exact
/// rationals; the hit is the interval's start.
fn coplanar(ray: &RaySegment3, [a, b, c]: &[VectorD; 3]) -> Option<f64> {
    let q = |x: &VectorD| x.map(rational);
    let (qa, qb, qc, qo, qd) = (q(a), q(b), q(c), q(&ray.origin), q(&ray.dir));
    let n = cross(&sub(&qb, &qa), &sub(&qc, &qa));
    // The axis of the largest normal component (any non-zero one projects injectively).
    let k = (0..3).max_by(|&i, &j| n[i].abs().cmp(&n[j].abs()))?;
    if n[k].is_zero() {
        return None;
    }
    let (i, j) = ((k + 1) % 3, (k + 2) % 3);
    // cross2(x, y) over axes (i, j): the projected triangle (a, b, c) has orientation n_k.
    let cross2 = |x: &[BigRational; 3], y: &[BigRational; 3]| &x[i] * &y[j] - &x[j] * &y[i];
    let flip = n[k].is_negative();
    let mut lo = BigRational::zero();
    let mut hi = ray.max_t.is_finite().then(|| rational(ray.max_t));
    let corners = [&qa, &qb, &qc];
    for e in 0..3 {
        let (p, r) = (corners[e], corners[(e + 1) % 3]);
        let edge = sub(r, p);
        // Inside: h0 + t h1 >= 0 (orientation-corrected).
        let mut h0 = cross2(&edge, &sub(&qo, p));
        let mut h1 = cross2(&edge, &[qd[0].clone(), qd[1].clone(), qd[2].clone()]);
        if flip {
            h0 = -h0;
            h1 = -h1;
        }
        if h1.is_zero() {
            if h0.is_negative() {
                return None;
            }
            continue;
        }
        let bound = -h0 / &h1;
        if h1.is_positive() {
            if bound > lo {
                lo = bound;
            }
        } else if hi.as_ref().is_none_or(|h| bound < *h) {
            hi = Some(bound);
        }
    }
    if hi.as_ref().is_some_and(|h| lo > *h) {
        return None;
    }
    lo.to_f64()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ray(o: [f64; 3], d: [f64; 3], max_t: f64) -> RaySegment3 {
        RaySegment3 {
            origin: VectorD::from(o),
            dir: VectorD::from(d),
            max_t,
        }
    }

    /// The triangle of the plane x = 2 covering (y, z) in the corner (0,0)-(1,0)-(0,1).
    fn tri() -> [PointD; 3] {
        [
            PointD::new(2.0, 0.0, 0.0),
            PointD::new(2.0, 1.0, 0.0),
            PointD::new(2.0, 0.0, 1.0),
        ]
    }

    #[test]
    fn crossing_edges_corners_and_max_t() {
        let inf = f64::INFINITY;
        assert_eq!(
            ray_triangle(&ray([0.0, 0.25, 0.25], [1.0, 0.0, 0.0], inf), &tri()),
            Some(2.0)
        );
        // t in units of dir.
        assert_eq!(
            ray_triangle(&ray([0.0, 0.25, 0.25], [4.0, 0.0, 0.0], inf), &tri()),
            Some(0.5)
        );
        // Through an edge, a corner: hits. Just outside: misses.
        assert_eq!(
            ray_triangle(&ray([0.0, 0.5, 0.5], [1.0, 0.0, 0.0], inf), &tri()),
            Some(2.0)
        );
        assert_eq!(
            ray_triangle(&ray([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], inf), &tri()),
            Some(2.0)
        );
        let off = 0.5f64.next_up();
        assert_eq!(
            ray_triangle(&ray([0.0, off, 0.5], [1.0, 0.0, 0.0], inf), &tri()),
            None
        );
        // Backwards, and max_t: exactly at the plane counts, one ulp less misses.
        assert_eq!(
            ray_triangle(&ray([0.0, 0.2, 0.2], [-1.0, 0.0, 0.0], inf), &tri()),
            None
        );
        assert_eq!(
            ray_triangle(&ray([0.0, 0.2, 0.2], [1.0, 0.0, 0.0], 2.0), &tri()),
            Some(2.0)
        );
        let short = 2.0f64.next_down();
        assert_eq!(
            ray_triangle(&ray([0.0, 0.2, 0.2], [1.0, 0.0, 0.0], short), &tri()),
            None
        );
        // Starting on the triangle: t = 0.
        assert_eq!(
            ray_triangle(&ray([2.0, 0.2, 0.2], [1.0, 0.0, 0.0], 0.0), &tri()),
            Some(0.0)
        );
    }

    #[test]
    fn max_t_is_exact_where_the_product_rounds() {
        // Origin 0.1 (not a binary fraction), dir 0.3: max_t d and the crossing are inexact.
        let o = [0.1, 0.25, 0.25];
        let d = [0.3, 0.0, 0.0];
        let t = ray_triangle(&ray(o, d, f64::INFINITY), &tri()).unwrap();
        assert!((t - 19.0 / 3.0).abs() < 1e-14, "{t}");
        // The exact crossing (2 - 0.1) / 0.3 (of the doubles 0.1, 0.3) is no double: the largest
        // max_t that stops short misses, the next double hits.
        let exact_hit = |m: f64| {
            let (qo, qd, qm) = (rational(0.1), rational(0.3), rational(m));
            qo + qd * qm >= rational(2.0)
        };
        let mut lo = (2.0 - 0.1) / 0.3;
        while exact_hit(lo) {
            lo = lo.next_down();
        }
        while !exact_hit(lo.next_up()) {
            lo = lo.next_up();
        }
        let hi = lo.next_up();
        assert!(!exact_hit(lo) && exact_hit(hi));
        assert_eq!(ray_triangle(&ray(o, d, lo), &tri()), None);
        assert!(ray_triangle(&ray(o, d, hi), &tri()).is_some());
    }

    #[test]
    fn rays_in_the_plane_are_clipped_exactly() {
        let inf = f64::INFINITY;
        // Along the plane x = 2, entering the triangle through its edge y = 0 at t = 1.
        assert_eq!(
            ray_triangle(&ray([2.0, -1.0, 0.25], [0.0, 1.0, 0.0], inf), &tri()),
            Some(1.0)
        );
        // Starting inside the triangle: 0. Along the edge line z = 0: enters at the corner.
        assert_eq!(
            ray_triangle(&ray([2.0, 0.1, 0.1], [0.0, 1.0, 0.0], inf), &tri()),
            Some(0.0)
        );
        assert_eq!(
            ray_triangle(&ray([2.0, -3.0, 0.0], [0.0, 1.0, 0.0], inf), &tri()),
            Some(3.0)
        );
        // Missing in the plane, and stopped short of it.
        assert_eq!(
            ray_triangle(&ray([2.0, -1.0, 1.5], [0.0, 1.0, 0.0], inf), &tri()),
            None
        );
        assert_eq!(
            ray_triangle(&ray([2.0, -1.0, 0.25], [0.0, 1.0, 0.0], 0.5), &tri()),
            None
        );
        // A degenerate triangle is never hit.
        let flat = [
            PointD::new(2.0, 0.0, 0.0),
            PointD::new(2.0, 1.0, 0.0),
            PointD::new(2.0, 2.0, 0.0),
        ];
        assert_eq!(
            ray_triangle(&ray([2.0, -1.0, 0.0], [0.0, 1.0, 0.0], inf), &flat),
            None
        );
    }
}
