//! Support mappings: the only thing GJK and EPA need to know about a convex shape.
//!
//! The support point of a convex set `K` in direction `d` is a point of `K` maximising `p . d`.
//! A point set and its convex hull have the same support points, so GJK over a [`PointCloud`] is
//! GJK over the hull of its points.

use crate::NarrowError;
use colldet_geom::GeomError;
use colldet_geom::math::{Point, Real, Vector, VectorD, is_finite_point};

/// A convex shape described by its support mapping, in the shape's local frame.
///
/// Frames and units: `dir` and the returned point are in the shape's local frame and units. `dir`
/// is not necessarily normalised but is finite and non-zero when called by this crate.
pub trait SupportMap {
    /// A point of the shape maximising `p . dir` (any one of them when several tie).
    fn local_support(&self, dir: &Vector) -> Point;

    /// Like [`SupportMap::local_support`], warm-started from `hint`, an implementation-defined token
    /// (a vertex id for polytopes) that the call may read as a starting guess and overwrites with the
    /// token of its answer. Any `hint` value, including stale or out-of-range ones, must be accepted.
    /// The default ignores the hint.
    fn local_support_hinted(&self, dir: &Vector, hint: &mut u32) -> Point {
        let _ = hint;
        self.local_support(dir)
    }

    /// Like [`SupportMap::local_support_hinted`] for an `f64` direction. GJK and EPA call this one:
    /// an implementation that ranks its candidates by `f64` dot products with `dir` itself returns a
    /// point extreme to within `f64` rounding, which keeps their bounds exact to that level. The
    /// default rounds `dir` to `f32`, which can cost up to about `1e-7 * |dir| * radius` in support
    /// value (a hundred times the touching band); [`PointCloud`] and
    /// [`colldet_geom::ConvexPolytope`] override it exactly.
    fn local_support_hinted_f64(&self, dir: &VectorD, hint: &mut u32) -> Point {
        let rounded = Vector::new(dir.x as Real, dir.y as Real, dir.z as Real);
        self.local_support_hinted(&rounded, hint)
    }

    /// The point that warm-start token `hint` (as written by
    /// [`SupportMap::local_support_hinted`]) stands for, if the shape can look it up; `None` for an
    /// unknown or out-of-range token. GJK uses it to re-evaluate the previous query's simplex at the
    /// new pose. The default answers `None` (warm start by direction only).
    fn local_point_of_hint(&self, hint: u32) -> Option<Point> {
        let _ = hint;
        None
    }

    /// Radius of a ball centred at the local origin that contains the shape, in local units. It sets
    /// the size scale of the tolerances of GJK and EPA (see [`crate::gjk::touching_tolerance`]).
    fn local_bounding_radius(&self) -> Real;

    /// How far the shape's `f32` points may be from the points the caller gave (`|.|_1`, local
    /// units): GJK widens its touching band by twice the pair's sum, so its separated and
    /// intersecting answers hold for the given points. The default is 0 (`f32` input).
    fn vertex_rounding(&self) -> f64 {
        0.0
    }
}

impl<T: SupportMap + ?Sized> SupportMap for &T {
    #[inline]
    fn local_support(&self, dir: &Vector) -> Point {
        (**self).local_support(dir)
    }
    #[inline]
    fn local_support_hinted(&self, dir: &Vector, hint: &mut u32) -> Point {
        (**self).local_support_hinted(dir, hint)
    }
    #[inline]
    fn local_support_hinted_f64(&self, dir: &VectorD, hint: &mut u32) -> Point {
        (**self).local_support_hinted_f64(dir, hint)
    }
    #[inline]
    fn local_point_of_hint(&self, hint: u32) -> Option<Point> {
        (**self).local_point_of_hint(hint)
    }
    #[inline]
    fn local_bounding_radius(&self) -> Real {
        (**self).local_bounding_radius()
    }
    #[inline]
    fn vertex_rounding(&self) -> f64 {
        (**self).vertex_rounding()
    }
}

/// A finite, non-empty set of points standing for its convex hull; support by brute force.
#[derive(Clone, Debug)]
pub struct PointCloud {
    points: Vec<Point>,
    radius: Real,
}

impl PointCloud {
    /// Wraps `points` (local frame).
    ///
    /// # Errors
    /// [`GeomError::NoVertices`] for an empty set, [`GeomError::NonFiniteCoordinate`] naming the
    /// first point with a NaN or infinite coordinate.
    pub fn new(points: Vec<Point>) -> Result<Self, NarrowError> {
        if points.is_empty() {
            return Err(GeomError::NoVertices.into());
        }
        if let Some(vertex) = points.iter().position(|p| !is_finite_point(p)) {
            return Err(GeomError::NonFiniteCoordinate { vertex }.into());
        }
        let radius = points.iter().map(|p| p.coords.norm()).fold(0.0, Real::max);
        Ok(Self { points, radius })
    }

    /// The points, in the local frame.
    pub fn points(&self) -> &[Point] {
        &self.points
    }

    /// Index of the first point maximising `p . dir`, computed in `f64` so that ties and near-ties
    /// are resolved deterministically.
    pub fn support_index(&self, dir: &Vector) -> usize {
        self.support_index_f64(&colldet_geom::math::vec_to_f64(dir))
    }

    /// As [`PointCloud::support_index`] for an `f64` direction, used unrounded.
    pub fn support_index_f64(&self, dir: &VectorD) -> usize {
        let (dx, dy, dz) = (dir.x, dir.y, dir.z);
        let mut best = 0;
        let mut best_dot = f64::NEG_INFINITY;
        for (i, p) in self.points.iter().enumerate() {
            let dot = f64::from(p.x) * dx + f64::from(p.y) * dy + f64::from(p.z) * dz;
            if dot > best_dot {
                best_dot = dot;
                best = i;
            }
        }
        best
    }
}

impl SupportMap for PointCloud {
    fn local_support(&self, dir: &Vector) -> Point {
        self.points[self.support_index(dir)]
    }

    fn local_support_hinted(&self, dir: &Vector, hint: &mut u32) -> Point {
        let i = self.support_index(dir);
        *hint = u32::try_from(i).unwrap_or(u32::MAX);
        self.points[i]
    }

    fn local_support_hinted_f64(&self, dir: &VectorD, hint: &mut u32) -> Point {
        let i = self.support_index_f64(dir);
        *hint = u32::try_from(i).unwrap_or(u32::MAX);
        self.points[i]
    }

    fn local_point_of_hint(&self, hint: u32) -> Option<Point> {
        self.points.get(hint as usize).copied()
    }

    fn local_bounding_radius(&self) -> Real {
        self.radius
    }
}
