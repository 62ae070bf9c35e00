//! Bounding spheres: the minimal enclosing ball of a point set (Welzl), overlap and transform.
//!
//! Rationale.
//! - Construction is Welzl's randomized incremental algorithm written as four nested loops
//!   (boundary sets of 1, 2, 3 and 4 points) over a deterministically shuffled copy of the
//!   points: expected linear time, no recursion, results reproducible run to run. It runs in
//!   `f64` on coordinates relative to the first point (exact differences of `f32` values).
//! - Exact arithmetic guarantees that a ball through the current boundary points exists; with
//!   rounding, nearly cocircular or cospherical input can ask for the circle through three
//!   nearly collinear points or the sphere through four nearly coplanar ones. Points within a
//!   relative `1e-12` of the current ball count as inside, and a singular 3- or 4-point solve
//!   falls back to the smallest ball through a subset of the boundary points that contains all
//!   of them. Minimality is therefore exact up to that tolerance.
//! - Containment is made unconditional by a final pass: the center is rounded to `f32`, then the
//!   radius is set to the largest `f64` distance from that rounded center, rounded up to `f32`
//!   (the `f32` rounding up exceeds the `f64` error of the distance by far, and
//!   [`BoundingSphere::contains_point`] evaluates the distance the same way). (Rounding the center costs up to an `f32` ulp of its coordinates,
//!   which dominates the excess radius of a small ball far from the origin.)

use crate::bounding::round_up_f32;
use crate::error::GeomError;
use crate::math::{Isometry, Point, Real, VectorD, is_finite_point, to_f64};

/// Relative tolerance of the "inside the current ball" test during construction (on squared
/// distances).
const INSIDE_TOL: f64 = 1e-12;
/// Relative singularity threshold for the 3- and 4-point ball solves.
const SINGULAR_TOL: f64 = 1e-14;

/// A closed ball in an object's local frame: the points within `radius` of `center`. Local
/// units, `f32`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoundingSphere {
    /// Center, local frame.
    pub center: Point,
    /// Radius (non-negative), local units.
    pub radius: Real,
}

impl BoundingSphere {
    /// The ball with the given center and radius.
    #[inline]
    pub fn new(center: Point, radius: Real) -> Self {
        Self { center, radius }
    }

    /// The minimal enclosing ball of `points` (Welzl's algorithm, see the module rationale),
    /// rounded outward so that [`BoundingSphere::contains_point`] holds for every point.
    ///
    /// # Errors
    /// [`GeomError::NoVertices`] for an empty slice, [`GeomError::NonFiniteCoordinate`] naming the
    /// first point with a NaN or infinite coordinate.
    pub fn from_points(points: &[Point]) -> Result<Self, GeomError> {
        let first = points.first().ok_or(GeomError::NoVertices)?;
        if let Some(vertex) = points.iter().position(|p| !is_finite_point(p)) {
            return Err(GeomError::NonFiniteCoordinate { vertex });
        }
        let origin = to_f64(first).coords;
        let mut pts: Vec<VectorD> = points.iter().map(|p| to_f64(p).coords - origin).collect();
        shuffle(&mut pts);
        let ball = welzl(&pts);
        let c64 = ball.center + origin;
        let center = Point::new(c64.x as Real, c64.y as Real, c64.z as Real);
        let c = to_f64(&center).coords;
        let far = points
            .iter()
            .map(|p| (to_f64(p).coords - c).norm())
            .fold(0.0, f64::max);
        Ok(Self {
            center,
            radius: round_up_f32(far),
        })
    }

    /// True when `p` (same frame) is within the closed ball, deciding with the `f64` distance,
    /// exactly as [`BoundingSphere::from_points`] sized the radius.
    #[inline]
    pub fn contains_point(&self, p: &Point) -> bool {
        (to_f64(p) - to_f64(&self.center)).norm() <= f64::from(self.radius)
    }

    /// True when the two closed balls (same frame) intersect; touching balls overlap. Decided in
    /// `f64`; may report overlap for balls apart by a few `f64` ulps of their scale, never
    /// "apart" for balls that touch. No allocation.
    #[inline]
    pub fn overlaps(&self, other: &BoundingSphere) -> bool {
        let d = (to_f64(&self.center) - to_f64(&other.center)).norm();
        let r = f64::from(self.radius) + f64::from(other.radius);
        d <= r + 4.0 * f64::EPSILON * (d + r)
    }

    /// The ball moved by `pos` (e.g. `pos12`: this ball's frame -> another object's frame). The
    /// rotation is renormalised in `f64`, the new center rounded to `f32`, and the radius grown
    /// by that rounding plus `16 f32` ulps of `|t| + |center| + radius`, so the result contains
    /// every point of the ball however the motion is evaluated (`f64`, or `pos * p` in `f32`).
    /// No allocation.
    pub fn transformed(&self, pos: &Isometry) -> BoundingSphere {
        let q = pos.rotation.into_inner();
        let q = nalgebra::UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(
            f64::from(q.w),
            f64::from(q.i),
            f64::from(q.j),
            f64::from(q.k),
        ));
        let t = VectorD::new(
            f64::from(pos.translation.x),
            f64::from(pos.translation.y),
            f64::from(pos.translation.z),
        );
        let c0 = to_f64(&self.center).coords;
        let c64 = q * c0 + t;
        let center = Point::new(c64.x as Real, c64.y as Real, c64.z as Real);
        let shift = (to_f64(&center).coords - c64).norm();
        let r = f64::from(self.radius);
        let slack = 16.0 * f64::from(Real::EPSILON) * (t.norm() + c0.norm() + r);
        Self {
            center,
            radius: round_up_f32(r + shift + slack),
        }
    }

    /// Checks that the center and radius are finite and the radius is non-negative.
    ///
    /// # Errors
    /// [`GeomError::InvalidBoundingVolume`] saying what is wrong.
    pub fn validate(&self) -> Result<(), GeomError> {
        if !is_finite_point(&self.center) || !self.radius.is_finite() {
            return Err(GeomError::InvalidBoundingVolume {
                reason: "non-finite sphere",
            });
        }
        if self.radius < 0.0 {
            return Err(GeomError::InvalidBoundingVolume {
                reason: "negative sphere radius",
            });
        }
        Ok(())
    }
}

/// A ball during construction: center and squared radius, `f64`.
#[derive(Clone, Copy, Debug)]
struct Ball {
    center: VectorD,
    radius2: f64,
}

impl Ball {
    #[inline]
    fn point(p: &VectorD) -> Self {
        Self {
            center: *p,
            radius2: 0.0,
        }
    }

    #[inline]
    fn diametral(a: &VectorD, b: &VectorD) -> Self {
        let center = (a + b) * 0.5;
        Self {
            center,
            radius2: (a - center).norm_squared().max((b - center).norm_squared()),
        }
    }

    #[inline]
    fn contains(&self, p: &VectorD) -> bool {
        (p - self.center).norm_squared() <= self.radius2 * (1.0 + INSIDE_TOL)
    }

    /// The ball centered at `center` through the farthest of `pts`.
    fn around(center: VectorD, pts: &[&VectorD]) -> Self {
        let radius2 = pts
            .iter()
            .map(|p| (*p - center).norm_squared())
            .fold(0.0, f64::max);
        Self { center, radius2 }
    }
}

/// The smallest ball with `a`, `b`, `c` on its boundary: their circumcircle's diametral ball.
/// Nearly collinear points fall back to the smallest ball of a pair containing all three.
fn circum3(a: &VectorD, b: &VectorD, c: &VectorD) -> Ball {
    let (u, v) = (b - a, c - a);
    let w = u.cross(&v);
    let w2 = w.norm_squared();
    if w2 > SINGULAR_TOL * u.norm_squared() * v.norm_squared() {
        let center =
            a + (v.cross(&w) * u.norm_squared() + w.cross(&u) * v.norm_squared()) / (2.0 * w2);
        return Ball::around(center, &[a, b, c]);
    }
    smallest_containing(&[a, b, c], &[(0, 1), (0, 2), (1, 2)], &[])
}

/// The ball with `a`, `b`, `c`, `d` on its boundary (their circumsphere). Nearly coplanar points
/// fall back to the smallest ball through a pair or triple of them that contains all four.
fn circum4(a: &VectorD, b: &VectorD, c: &VectorD, d: &VectorD) -> Ball {
    let (u, v, w) = (b - a, c - a, d - a);
    let vw = v.cross(&w);
    let det = u.dot(&vw);
    let (u2, v2, w2) = (u.norm_squared(), v.norm_squared(), w.norm_squared());
    if det * det > SINGULAR_TOL * u2 * v2 * w2 {
        let center = a + (vw * u2 + w.cross(&u) * v2 + u.cross(&v) * w2) / (2.0 * det);
        return Ball::around(center, &[a, b, c, d]);
    }
    smallest_containing(
        &[a, b, c, d],
        &[(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)],
        &[(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)],
    )
}

/// Among the diametral balls of `pairs` and the circumballs of `triples` of `pts`, the smallest
/// that contains all of `pts`; if rounding leaves none, the one needing the least enlargement,
/// enlarged to contain them.
fn smallest_containing(
    pts: &[&VectorD],
    pairs: &[(usize, usize)],
    triples: &[(usize, usize, usize)],
) -> Ball {
    let candidates = pairs
        .iter()
        .map(|&(i, j)| Ball::diametral(pts[i], pts[j]))
        .chain(
            triples
                .iter()
                .map(|&(i, j, k)| circum3(pts[i], pts[j], pts[k])),
        );
    let mut best_fit: Option<Ball> = None;
    let mut best_enlarged: Option<Ball> = None;
    for cand in candidates {
        if pts.iter().all(|p| cand.contains(p)) {
            if best_fit.is_none_or(|b| cand.radius2 < b.radius2) {
                best_fit = Some(cand);
            }
        } else {
            let enlarged = Ball::around(cand.center, pts);
            if best_enlarged.is_none_or(|b| enlarged.radius2 < b.radius2) {
                best_enlarged = Some(enlarged);
            }
        }
    }
    best_fit
        .or(best_enlarged)
        .expect("pairs is never empty, so there is a candidate")
}

/// Welzl's algorithm as nested loops: `pts` should be in random order for expected linear time.
fn welzl(pts: &[VectorD]) -> Ball {
    let mut ball = Ball::point(&pts[0]);
    for i in 1..pts.len() {
        if ball.contains(&pts[i]) {
            continue;
        }
        ball = Ball::point(&pts[i]);
        for j in 0..i {
            if ball.contains(&pts[j]) {
                continue;
            }
            ball = Ball::diametral(&pts[i], &pts[j]);
            for k in 0..j {
                if ball.contains(&pts[k]) {
                    continue;
                }
                ball = circum3(&pts[i], &pts[j], &pts[k]);
                for l in 0..k {
                    if !ball.contains(&pts[l]) {
                        ball = circum4(&pts[i], &pts[j], &pts[k], &pts[l]);
                    }
                }
            }
        }
    }
    ball
}

/// Fisher-Yates shuffle driven by a fixed-seed SplitMix64, so results are reproducible.
fn shuffle(pts: &mut [VectorD]) {
    let mut state = 0x853C_49E6_748F_EA9B_u64;
    for i in (1..pts.len()).rev() {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        pts.swap(i, (z % (i as u64 + 1)) as usize);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bounding::test_rng::{Draws, Rng};
    use crate::math::Pose;

    fn pt(v: VectorD) -> Point {
        Point::new(v.x as Real, v.y as Real, v.z as Real)
    }

    /// The minimal enclosing ball by brute force over all 2-, 3- and 4-point subsets: the
    /// smallest candidate ball that contains every point (to 1e-9 relative).
    fn brute_force_radius(points: &[Point]) -> f64 {
        let p: Vec<VectorD> = points.iter().map(|q| to_f64(q).coords).collect();
        let n = p.len();
        let mut best = f64::INFINITY;
        let mut consider = |center: VectorD| {
            let r = p.iter().map(|q| (q - center).norm()).fold(0.0, f64::max);
            best = best.min(r);
        };
        consider(p[0]);
        for i in 0..n {
            for j in i + 1..n {
                consider((p[i] + p[j]) * 0.5);
                for k in j + 1..n {
                    // Circumcenter in the plane of the triangle, solved independently of
                    // `circum3` by least squares on the 2x2 Gram system.
                    let (u, v) = (p[j] - p[i], p[k] - p[i]);
                    let (uu, uv, vv) = (u.dot(&u), u.dot(&v), v.dot(&v));
                    let det = uu * vv - uv * uv;
                    if det > 1e-12 * uu * vv {
                        let s = (vv * uu - uv * vv) / (2.0 * det);
                        let t = (uu * vv - uv * uu) / (2.0 * det);
                        consider(p[i] + u * s + v * t);
                    }
                    for l in k + 1..n {
                        let w = p[l] - p[i];
                        let m = crate::math::MatrixD::from_rows(&[
                            u.transpose(),
                            v.transpose(),
                            w.transpose(),
                        ]);
                        let rhs = VectorD::new(uu, vv, w.dot(&w)) * 0.5;
                        if let Some(x) = m.lu().solve(&rhs) {
                            consider(p[i] + x);
                        }
                    }
                }
            }
        }
        best
    }

    fn assert_contains_all(s: &BoundingSphere, points: &[Point]) {
        s.validate().unwrap();
        for p in points {
            assert!(s.contains_point(p), "{p:?} not in {s:?}");
            let d = (to_f64(p) - to_f64(&s.center)).norm();
            assert!(d <= f64::from(s.radius) * (1.0 + 1e-6));
        }
    }

    #[test]
    fn small_random_sets_match_brute_force() {
        let mut rng = Rng(11);
        for case in 0..3000 {
            let n = 1 + case % 12;
            let scale = [1e-12, 1e-3, 1.0, 1e3][case % 4];
            let flat = case % 5 == 0;
            let pts: Vec<Point> = (0..n)
                .map(|_| {
                    let z = if flat { 0.0 } else { rng.range(-1.0, 1.0) };
                    pt(VectorD::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), z) * scale)
                })
                .collect();
            let s = BoundingSphere::from_points(&pts).unwrap();
            assert_contains_all(&s, &pts);
            let brute = brute_force_radius(&pts);
            let r = f64::from(s.radius);
            assert!(
                (r - brute).abs() <= 1e-6 * brute + 1e-300,
                "case {case}: {r} vs brute force {brute}"
            );
        }
    }

    #[test]
    fn sphere_surface_samples_give_the_sphere() {
        let mut rng = Rng(12);
        for case in 0..40 {
            let scale = 10f64.powi(case % 8 - 5);
            let c = VectorD::new(
                rng.range(-3.0, 3.0),
                rng.range(-3.0, 3.0),
                rng.range(-3.0, 3.0),
            ) * scale;
            // The six octahedron points pin the minimal ball to the sphere itself.
            let mut pts: Vec<Point> = crate::math::SIGNED_AXES
                .iter()
                .map(|d| pt(c + d * scale))
                .collect();
            for _ in 0..2000 {
                let d = rng.rotation() * VectorD::x();
                let r = if rng.below(2) == 0 { 1.0 } else { rng.unit() };
                pts.push(pt(c + d * (r * scale)));
            }
            let s = BoundingSphere::from_points(&pts).unwrap();
            assert_contains_all(&s, &pts);
            assert!(
                (f64::from(s.radius) - scale).abs() <= 1e-6 * scale,
                "case {case}: {s:?}"
            );
            assert!((to_f64(&s.center).coords - c).norm() <= 1e-6 * scale);
        }
    }

    #[test]
    fn degenerate_inputs() {
        // All the same point.
        let p = Point::new(3.0, -1.0, 1e5);
        let s = BoundingSphere::from_points(&[p; 7]).unwrap();
        assert_eq!((s.center, s.radius), (p, 0.0));
        // Collinear: half the extent.
        let line: Vec<Point> = (0..50).map(|i| Point::new(i as Real, 0.0, 0.0)).collect();
        let s = BoundingSphere::from_points(&line).unwrap();
        assert_contains_all(&s, &line);
        assert_eq!((s.center, s.radius), (Point::new(24.5, 0.0, 0.0), 24.5));
        // Cocircular: a regular 360-gon, with every vertex repeated.
        let mut ring: Vec<Point> = (0..360)
            .map(|i| {
                let a = (i as f64).to_radians();
                Point::new(a.cos() as Real, a.sin() as Real, 0.5)
            })
            .collect();
        ring.extend(ring.clone());
        let s = BoundingSphere::from_points(&ring).unwrap();
        assert_contains_all(&s, &ring);
        assert!(
            (s.radius - 1.0).abs() < 1e-6 && (s.center - Point::new(0.0, 0.0, 0.5)).norm() < 1e-6
        );
        // Cospherical: cube corners (8 points on one sphere, every 4-subset of a face coplanar).
        let cube: Vec<Point> = (0..8)
            .map(|i| Point::new((i & 1) as Real, (i >> 1 & 1) as Real, (i >> 2 & 1) as Real))
            .collect();
        let s = BoundingSphere::from_points(&cube).unwrap();
        assert_contains_all(&s, &cube);
        assert!((f64::from(s.radius) - 3f64.sqrt() / 2.0).abs() < 1e-6);
        assert_eq!(s.center, Point::new(0.5, 0.5, 0.5));
        // Coplanar grid: the minimal ball is the circumcircle of the square's corners.
        let grid: Vec<Point> = (0..100)
            .map(|i| Point::new((i % 10) as Real, (i / 10) as Real, 2.0))
            .collect();
        let s = BoundingSphere::from_points(&grid).unwrap();
        assert_contains_all(&s, &grid);
        assert!((f64::from(s.radius) - 4.5 * 2f64.sqrt()).abs() < 1e-5);

        assert!(matches!(
            BoundingSphere::from_points(&[]),
            Err(GeomError::NoVertices)
        ));
        assert!(matches!(
            BoundingSphere::from_points(&[p, Point::new(f32::NAN, 0.0, 0.0)]),
            Err(GeomError::NonFiniteCoordinate { vertex: 1 })
        ));
        assert!(BoundingSphere::new(p, -1.0).validate().is_err());
    }

    #[test]
    fn overlaps_is_closed() {
        let a = BoundingSphere::new(Point::origin(), 1.0);
        assert!(a.overlaps(&BoundingSphere::new(Point::new(2.0, 0.0, 0.0), 1.0)));
        assert!(
            a.overlaps(&BoundingSphere::new(Point::new(0.0, 3.0, 4.0), 4.0)),
            "touching"
        );
        assert!(!a.overlaps(&BoundingSphere::new(Point::new(0.0, 3.0, 4.0), 3.99)));
        assert!(
            a.overlaps(&BoundingSphere::new(Point::new(0.1, 0.0, 0.0), 0.2)),
            "inside"
        );
        let b = BoundingSphere::new(Point::new(1.0, 1.0, 1.0), 5.0);
        assert!(
            b.contains_point(&Point::new(1.0, 4.0, 5.0)),
            "boundary point"
        );
        assert!(!b.contains_point(&Point::new(1.0, 4.0, 5.0f32.next_up())));
    }

    #[test]
    fn transformed_contains_every_moved_point() {
        let mut rng = Rng(13);
        for case in 0..5000 {
            let scale = [1e-9, 1.0, 1e3][case % 3];
            let t = [0.0, 1.0, 1e5][case / 3 % 3];
            let s = BoundingSphere::new(
                pt(VectorD::new(
                    rng.range(-2.0, 2.0),
                    rng.range(-2.0, 2.0),
                    rng.range(-2.0, 2.0),
                ) * scale),
                (rng.range(0.0, 1.0) * scale) as Real,
            );
            let iso = rng.isometry(t);
            let moved = s.transformed(&iso);
            let mut iso64: Pose = nalgebra::convert(iso);
            iso64.rotation.renormalize();
            for _ in 0..8 {
                let d = rng.rotation() * VectorD::x();
                let p = to_f64(&s.center).coords + d * f64::from(s.radius);
                let q = iso64 * nalgebra::Point3::from(p);
                let dist = (q - to_f64(&moved.center)).norm();
                assert!(dist <= f64::from(moved.radius), "case {case}");
                assert!(moved.contains_point(&(iso * pt(p))), "case {case}");
            }
            // Not grossly enlarged.
            let excess = f64::from(moved.radius) - f64::from(s.radius);
            assert!(
                excess <= 1e-5 * (t + 3.0 * scale),
                "case {case}: excess {excess}"
            );
        }
    }
}
