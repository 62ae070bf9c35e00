//! Axis-aligned bounding boxes: [`Aabb`] in an object's local frame (`f32`) and [`WorldAabb`] in
//! world coordinates (`f64`), with Arvo's transform of a box by a rigid motion.
//!
//! Rationale (outward rounding of transformed boxes): the box of a box `[m, M]` rotated by `R`
//! and translated by `t` is, per output axis `i`, `t_i + sum_j min/max(R_ij m_j, R_ij M_j)`
//! (Arvo, Graphics Gems 1990: 18 multiplications, 18 additions, 9 comparisons). Evaluated in
//! floating point, each output can be off by a few ulps of `s_i = |t_i| + sum_j max(|m_j|, |M_j|)`
//! (the size of the inputs, not of the result: terms can cancel, and the rotation matrix entries
//! carry absolute errors of a few ulps of 1 even where `R_ij` is tiny; any other evaluation of the
//! transformed corners, such as `pose * p` through the quaternion, errs by the same order). We
//! therefore widen every face outward by `SLACK * eps * s_i`. The widening is relative, so a 1e-9
//! box 1e5 away from the origin stays as tight as its coordinates allow.

use core::iter::Sum;
use core::ops::{Add, AddAssign, Mul, Sub};

use nalgebra::{Matrix3, Point3, Vector3};

use crate::bounding::round_up_f32;
use crate::error::GeomError;
use crate::math::{Isometry, Point, PointD, Pose, Real, Vector, VectorD, is_finite_point, to_f64};

/// Relative outward widening of transformed boxes, in units of the machine epsilon of the
/// arithmetic used (see the module rationale).
const SLACK: f64 = 16.0;

/// An axis-aligned box in an object's local frame: the closed set `mins <= p <= maxs`
/// (componentwise). Local units, `f32`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    /// Smallest coordinates of the box.
    pub mins: Point,
    /// Largest coordinates of the box.
    pub maxs: Point,
}

/// An axis-aligned box in world coordinates (`f64`), as used by the broad phase: the closed set
/// `mins <= p <= maxs`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldAabb {
    /// Smallest world coordinates of the box.
    pub mins: PointD,
    /// Largest world coordinates of the box.
    pub maxs: PointD,
}

impl Aabb {
    /// The degenerate box containing only `p`.
    #[inline]
    pub fn from_point(p: Point) -> Self {
        Self { mins: p, maxs: p }
    }

    /// The smallest box containing every point (exact: no rounding is involved).
    ///
    /// # Errors
    /// [`GeomError::NoVertices`] for an empty slice, [`GeomError::NonFiniteCoordinate`] naming the
    /// first point with a NaN or infinite coordinate.
    pub fn from_points(points: &[Point]) -> Result<Self, GeomError> {
        let first = points.first().ok_or(GeomError::NoVertices)?;
        let mut aabb = Self::from_point(*first);
        for (vertex, p) in points.iter().enumerate() {
            if !is_finite_point(p) {
                return Err(GeomError::NonFiniteCoordinate { vertex });
            }
            aabb.include_point(p);
        }
        Ok(aabb)
    }

    /// Grows the box to contain `p`.
    #[inline]
    pub fn include_point(&mut self, p: &Point) {
        self.mins = self.mins.inf(p);
        self.maxs = self.maxs.sup(p);
    }

    /// The center `(mins + maxs) / 2`, computed in `f64` and rounded to nearest `f32`.
    #[inline]
    pub fn center(&self) -> Point {
        let c = (to_f64(&self.mins).coords + to_f64(&self.maxs).coords) * 0.5;
        Point::new(c.x as Real, c.y as Real, c.z as Real)
    }

    /// Half the side lengths, rounded up so that `center() ± half_extents()` contains the box
    /// (the center is rounded, so this can exceed `(maxs - mins) / 2` by an ulp).
    #[inline]
    pub fn half_extents(&self) -> Vector {
        let c = self.center();
        let h = |i: usize| {
            let ci = f64::from(c[i]);
            round_up_f32((f64::from(self.maxs[i]) - ci).max(ci - f64::from(self.mins[i])))
        };
        Vector::new(h(0), h(1), h(2))
    }

    /// Checks that `mins <= maxs` componentwise and every coordinate is finite.
    ///
    /// # Errors
    /// [`GeomError::InvalidBoundingVolume`] saying what is wrong.
    pub fn validate(&self) -> Result<(), GeomError> {
        if !is_finite_point(&self.mins) || !is_finite_point(&self.maxs) {
            return Err(GeomError::InvalidBoundingVolume {
                reason: "non-finite box corner",
            });
        }
        if (0..3).any(|i| self.mins[i] > self.maxs[i]) {
            return Err(GeomError::InvalidBoundingVolume {
                reason: "box mins exceed maxs",
            });
        }
        Ok(())
    }

    /// The world box containing this local box moved by `pose` (local -> world), by Arvo's
    /// method in `f64`, widened outward by a few ulps relative to the size of the terms, so it
    /// contains every transformed corner however the corners are rounded (see the module
    /// rationale). `pose` must be a proper rigid motion (unit quaternion); non-finite input gives
    /// non-finite output. No allocation.
    pub fn transformed(&self, pose: &Pose) -> WorldAabb {
        let rot = pose.rotation.to_rotation_matrix();
        self.transformed_by(rot.matrix(), &pose.translation.vector)
    }

    /// [`Aabb::transformed`] for the pose `x -> rot * x + trans` given as a matrix (orthonormal up
    /// to `f64` rounding, as a quaternion's matrix is): the same box as `transformed` gives for a
    /// pose whose rotation matrix is `rot`. No allocation.
    pub fn transformed_by(&self, rot: &Matrix3<f64>, trans: &VectorD) -> WorldAabb {
        let [mins, maxs] = arvo_widened(rot, trans, &to_f64(&self.mins), &to_f64(&self.maxs));
        WorldAabb { mins, maxs }
    }

    /// The local box containing this box moved by `pos` (e.g. `pos12`, mapping this box's frame
    /// into another object's frame), by Arvo's method in `f32`, widened outward by a few `f32`
    /// ulps relative to the size of the terms (which also covers a quaternion that is unit only
    /// to `f32` precision). No allocation.
    pub fn transformed_local(&self, pos: &Isometry) -> Aabb {
        let rot = pos.rotation.to_rotation_matrix();
        let [mins, maxs] = arvo_widened(
            rot.matrix(),
            &pos.translation.vector,
            &self.mins,
            &self.maxs,
        );
        Aabb { mins, maxs }
    }
}

/// The methods [`Aabb`] and [`WorldAabb`] share: the same closed-box logic on the local `f32`
/// and the world `f64` points. All exact (comparisons and copies only).
macro_rules! closed_box_methods {
    ($box:ident, $point:ty) => {
        impl $box {
            /// The box with corners `mins` and `maxs`. It is well formed when `mins <= maxs`
            /// componentwise and both are finite (see [`Aabb::validate`]).
            #[inline]
            pub fn new(mins: $point, maxs: $point) -> Self {
                Self { mins, maxs }
            }

            /// Grows the box to contain `other`.
            #[inline]
            pub fn merge(&mut self, other: &Self) {
                self.mins = self.mins.inf(&other.mins);
                self.maxs = self.maxs.sup(&other.maxs);
            }

            /// The smallest box containing both boxes.
            #[inline]
            pub fn merged(&self, other: &Self) -> Self {
                let mut m = *self;
                m.merge(other);
                m
            }

            /// True when `p` lies in the closed box (boundary included). Exact.
            #[inline]
            pub fn contains_point(&self, p: &$point) -> bool {
                (0..3).all(|i| self.mins[i] <= p[i] && p[i] <= self.maxs[i])
            }

            /// True when the two closed boxes (in the same frame) intersect; touching boxes
            /// overlap. Exact (comparisons only).
            #[inline]
            pub fn overlaps(&self, other: &Self) -> bool {
                (0..3).all(|i| self.mins[i] <= other.maxs[i] && other.mins[i] <= self.maxs[i])
            }
        }
    };
}

closed_box_methods!(Aabb, Point);
closed_box_methods!(WorldAabb, PointD);

/// The float types boxes are kept in: `f32` for local boxes, `f64` for world boxes.
trait BoxFloat:
    nalgebra::Scalar
    + Copy
    + Default
    + PartialOrd
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + AddAssign
    + Sum
{
    /// [`SLACK`] machine epsilons of the type (exact: a power of two).
    const SLACK_EPSILON: Self;
    /// The smallest positive normal value.
    const MIN_POSITIVE: Self;
    fn abs(self) -> Self;
    fn max(self, other: Self) -> Self;
}

/// `BoxFloat` for the primitive float types, from their own constants and methods.
macro_rules! box_float {
    ($($t:ty),*) => {$(
        impl BoxFloat for $t {
            const SLACK_EPSILON: $t = SLACK as $t * <$t>::EPSILON;
            const MIN_POSITIVE: $t = <$t>::MIN_POSITIVE;
            #[inline]
            fn abs(self) -> $t {
                <$t>::abs(self)
            }
            #[inline]
            fn max(self, other: $t) -> $t {
                <$t>::max(self, other)
            }
        }
    )*};
}

box_float!(f32, f64);

/// Arvo's box of the box `[mins, maxs]` rotated by `r` and translated by `t` (one frame into
/// another, same units), evaluated in `T` and widened outward on each axis `i` by
/// `SLACK * eps * (|t_i| + sum_j max(|mins_j|, |maxs_j|)) + MIN_POSITIVE` (see the module
/// rationale; `MIN_POSITIVE` keeps the widening nonzero if everything underflowed). Returns
/// `[mins, maxs]` of the result.
#[inline]
fn arvo_widened<T: BoxFloat>(
    r: &Matrix3<T>,
    t: &Vector3<T>,
    mins: &Point3<T>,
    maxs: &Point3<T>,
) -> [Point3<T>; 2] {
    let size: T = (0..3).map(|j| mins[j].abs().max(maxs[j].abs())).sum();
    let mut lo = Point3::from([T::default(); 3]);
    let mut hi = Point3::from([T::default(); 3]);
    for i in 0..3 {
        let (mut l, mut h) = (t[i], t[i]);
        for j in 0..3 {
            let a = r[(i, j)] * mins[j];
            let b = r[(i, j)] * maxs[j];
            if a < b {
                l += a;
                h += b;
            } else {
                l += b;
                h += a;
            }
        }
        let s = t[i].abs() + size;
        let w = T::SLACK_EPSILON * s + T::MIN_POSITIVE;
        lo[i] = l - w;
        hi[i] = h + w;
    }
    [lo, hi]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bounding::test_rng::{Draws, Rng};
    use crate::math::VectorD;

    fn corners(a: &Aabb) -> [Point; 8] {
        let mut c = [Point::origin(); 8];
        for (k, p) in c.iter_mut().enumerate() {
            for i in 0..3 {
                p[i] = if k >> i & 1 == 0 {
                    a.mins[i]
                } else {
                    a.maxs[i]
                };
            }
        }
        c
    }

    /// A random box: center magnitude up to `10^c`, half extents log-uniform in [1e-9, 1e3],
    /// sometimes exactly flat along an axis.
    fn random_box(rng: &mut Rng, c: f64) -> Aabb {
        let mut mins = Point::origin();
        let mut maxs = Point::origin();
        let scale = 10f64.powf(c);
        for i in 0..3 {
            let center = rng.range(-scale, scale);
            let h = if rng.below(10) == 0 {
                0.0
            } else {
                rng.log_uniform(-9.0, 3.0)
            };
            mins[i] = (center - h) as f32;
            maxs[i] = (center + h) as f32;
        }
        Aabb::new(mins, maxs)
    }

    #[test]
    fn from_points_merge_contains_and_overlaps() {
        let pts = [
            Point::new(1.0, -2.0, 3.0),
            Point::new(-1.0, 5.0, 0.5),
            Point::new(0.0, 0.0, 4.0),
        ];
        let a = Aabb::from_points(&pts).unwrap();
        assert_eq!(a.mins, Point::new(-1.0, -2.0, 0.5));
        assert_eq!(a.maxs, Point::new(1.0, 5.0, 4.0));
        a.validate().unwrap();
        assert!(pts.iter().all(|p| a.contains_point(p)));
        assert!(!a.contains_point(&Point::new(1.0, 5.0, 4.0001)));
        assert_eq!(a.center(), Point::new(0.0, 1.5, 2.25));
        assert_eq!(a.half_extents(), Vector::new(1.0, 3.5, 1.75));

        let b = Aabb::new(Point::new(1.0, 5.0, 4.0), Point::new(2.0, 6.0, 7.0));
        assert!(
            a.overlaps(&b) && b.overlaps(&a),
            "touching at a corner overlaps"
        );
        let c = Aabb::new(
            Point::new(1.0f32.next_up(), 0.0, 0.0),
            Point::new(2.0, 1.0, 1.0),
        );
        assert!(!a.overlaps(&c) && !c.overlaps(&a));
        let m = a.merged(&b);
        assert_eq!(m.mins, a.mins);
        assert_eq!(m.maxs, Point::new(2.0, 6.0, 7.0));

        assert!(matches!(Aabb::from_points(&[]), Err(GeomError::NoVertices)));
        let bad = [Point::new(0.0, 0.0, 0.0), Point::new(0.0, f32::NAN, 0.0)];
        assert!(matches!(
            Aabb::from_points(&bad),
            Err(GeomError::NonFiniteCoordinate { vertex: 1 })
        ));
        assert!(
            Aabb::new(Point::new(1.0, 0.0, 0.0), Point::origin())
                .validate()
                .is_err()
        );
    }

    #[test]
    fn half_extents_cover_the_box_after_center_rounding() {
        let mut rng = Rng(7);
        for _ in 0..5000 {
            let c = rng.range(-3.0, 6.0);
            let a = random_box(&mut rng, c);
            let c = a.center();
            let h = a.half_extents();
            for i in 0..3 {
                assert!(f64::from(c[i]) - f64::from(h[i]) <= f64::from(a.mins[i]));
                assert!(f64::from(c[i]) + f64::from(h[i]) >= f64::from(a.maxs[i]));
            }
        }
    }

    #[test]
    fn world_aabb_overlap_is_closed() {
        let a = WorldAabb::new(PointD::new(0.0, 0.0, 0.0), PointD::new(1.0, 1.0, 1.0));
        let b = WorldAabb::new(PointD::new(1.0, 0.5, 0.5), PointD::new(2.0, 2.0, 2.0));
        let c = WorldAabb::new(
            PointD::new(0.2, 1.0 + 1e-15, 0.0),
            PointD::new(0.3, 2.0, 1.0),
        );
        assert!(a.overlaps(&b) && b.overlaps(&a));
        assert!(!a.overlaps(&c) && !c.overlaps(&a));
        assert!(a.contains_point(&PointD::new(1.0, 0.0, 0.5)));
        assert!(!a.contains_point(&PointD::new(1.0, -1e-300, 0.5)));
        let m = a.merged(&c);
        assert_eq!(m.maxs, PointD::new(1.0, 2.0, 1.0));
    }

    #[test]
    fn arvo_identity_and_axis_rotation_are_exact() {
        let a = Aabb::new(Point::new(-1.0, -2.0, -3.0), Point::new(1.0, 2.0, 3.0));
        let w = a.transformed(&Pose::identity());
        assert!((w.mins - PointD::new(-1.0, -2.0, -3.0)).norm() < 1e-13);
        assert!((w.maxs - PointD::new(1.0, 2.0, 3.0)).norm() < 1e-13);
        // 90 degrees about z swaps x and y extents; 45 degrees grows them to (1+2)/sqrt(2).
        let q = Pose::rotation(VectorD::new(0.0, 0.0, std::f64::consts::FRAC_PI_2));
        let w = a.transformed(&q);
        assert!((w.maxs - PointD::new(2.0, 1.0, 3.0)).norm() < 1e-13);
        let q = Pose::rotation(VectorD::new(0.0, 0.0, std::f64::consts::FRAC_PI_4));
        let w = a.transformed(&q);
        let e = 3.0 / 2f64.sqrt();
        assert!((w.maxs - PointD::new(e, e, 3.0)).norm() < 1e-13);
        assert!((w.mins + PointD::new(e, e, 3.0).coords).coords.norm() < 1e-13);
    }

    /// Brute force: every corner, transformed by `pose * p` in f64, lies in Arvo's box, for
    /// boxes from 1e-9 to 1e3 in size, centers up to 1e6 and translations up to 1e5; and the
    /// box is tight (within the widening) around the corners.
    #[test]
    fn arvo_f64_contains_all_transformed_corners() {
        let mut rng = Rng(42);
        let mut checked = 0usize;
        for case in 0..20_000 {
            let c = rng.range(-6.0, 6.0);
            let a = random_box(&mut rng, c);
            let t = [0.0, 1.0, 1e5][case % 3];
            let pose = rng.pose(t);
            let w = a.transformed(&pose);
            let mut lo = PointD::new(f64::MAX, f64::MAX, f64::MAX);
            let mut hi = -lo;
            for c in corners(&a) {
                let p = pose * to_f64(&c);
                assert!(
                    w.contains_point(&p),
                    "case {case}: {p:?} not in {w:?} box {a:?} pose {pose:?}"
                );
                lo = lo.inf(&p);
                hi = hi.sup(&p);
                checked += 1;
            }
            let scale = pose.translation.vector.abs().max()
                + to_f64(&a.mins)
                    .coords
                    .abs()
                    .max()
                    .max(to_f64(&a.maxs).coords.abs().max());
            let tol = 1e-13 * scale;
            assert!((0..3).all(|i| lo[i] - w.mins[i] <= tol && w.maxs[i] - hi[i] <= tol));
        }
        assert_eq!(checked, 160_000);
    }

    /// Same for the `f32` transform, compared with corners transformed in `f64` by the
    /// normalised quaternion and with corners transformed by `iso * p` in `f32`.
    #[test]
    fn arvo_f32_contains_all_transformed_corners() {
        let mut rng = Rng(43);
        for case in 0..20_000 {
            let c = rng.range(-6.0, 5.0);
            let a = random_box(&mut rng, c);
            let t = [0.0, 1.0, 1e5][case % 3];
            let iso = rng.isometry(t);
            let w = a.transformed_local(&iso);
            let mut iso64: Pose = nalgebra::convert(iso);
            iso64.rotation.renormalize();
            let wd = WorldAabb::new(to_f64(&w.mins), to_f64(&w.maxs));
            for c in corners(&a) {
                let p = iso64 * to_f64(&c);
                assert!(wd.contains_point(&p), "case {case}: {p:?} not in {w:?}");
                assert!(w.contains_point(&(iso * c)), "case {case}");
            }
        }
    }
}
