//! The configuration-space obstacle (CSO) `A - B` of a pair, seen from shape 1's frame.
//!
//! Rationale: GJK and EPA only ever ask for support points of `A - B`. Shape 2's vertices are never
//! transformed wholesale: the direction is rotated into shape 2's frame, shape 2 answers in its own
//! `f32` coordinates, and only that one answer is mapped back. The direction stays `f64`
//! ([`SupportMap::local_support_hinted_f64`]): shapes that rank their vertices by `f64` dot products
//! with it return truly extreme points, so GJK's bounds are not shifted by an `f32` rounding of the
//! direction (up to about `1e-7` of the size). All arithmetic after the support calls is `f64` (the
//! `f32` inputs widen exactly), so rounding is about `1e-16` of the pair's numeric scale
//! `r1 + r2 + |t12|`.

use crate::RelativePose;
use crate::{NarrowError, SupportMap};
use colldet_geom::math::{Point, VectorD, vec_to_f64};
use nalgebra::Matrix3;

/// Fraction of the pair's numeric scale below which lengths are treated as rounding noise.
pub(crate) const NOISE_FACTOR: f64 = 1e-12;

/// A point of the CSO with the two support points it came from, all in shape 1's frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct CsoPoint {
    /// `p1 - p2`.
    pub w: VectorD,
    /// Support point of shape 1.
    pub p1: VectorD,
    /// Support point of shape 2, mapped into shape 1's frame.
    pub p2: VectorD,
    /// The support maps' warm-start tokens of `p1` and `p2`.
    pub ids: [u32; 2],
}

impl CsoPoint {
    pub(crate) const ZERO: Self = Self {
        w: VectorD::new(0.0, 0.0, 0.0),
        p1: VectorD::new(0.0, 0.0, 0.0),
        p2: VectorD::new(0.0, 0.0, 0.0),
        ids: [0; 2],
    };
}

/// The relative pose in `f64` plus the pair's tolerances.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PairFrame {
    rot: Matrix3<f64>,
    trans: VectorD,
    /// Touching tolerance: `TOUCHING_TOLERANCE_FACTOR * (r1 + r2)`.
    pub tol: f64,
    /// Lengths below this are rounding noise: `NOISE_FACTOR * (r1 + r2 + |t12|)`.
    pub noise: f64,
    /// Shape 2's bounding radius about its local origin.
    radius2: f64,
}

impl PairFrame {
    pub(crate) fn new<S1, S2, P>(s1: &S1, s2: &S2, pos12: &P) -> Result<Self, NarrowError>
    where
        P: RelativePose + ?Sized,
        S1: SupportMap + ?Sized,
        S2: SupportMap + ?Sized,
    {
        let (rot, t) = pos12.widened_parts()?;
        let r1 = f64::from(s1.local_bounding_radius());
        let r2 = f64::from(s2.local_bounding_radius());
        if !r1.is_finite() || !r2.is_finite() {
            return Err(NarrowError::NonFinite {
                what: "bounding radius",
            });
        }
        let size = r1.abs() + r2.abs();
        // Points given in `f64` and kept in `f32` widen the band (see `SupportMap::vertex_rounding`).
        let rounding = s1.vertex_rounding() + s2.vertex_rounding();
        Ok(Self {
            rot,
            trans: t,
            tol: crate::gjk::TOUCHING_TOLERANCE_FACTOR * size + 2.0 * rounding,
            noise: NOISE_FACTOR * (size + t.norm()),
            radius2: r2.abs(),
        })
    }

    /// The rotation and translation of shape 2's pose in shape 1's frame.
    pub(crate) fn parts(&self) -> (Matrix3<f64>, VectorD) {
        (self.rot, self.trans)
    }

    /// An upper bound on how far any point of shape 2 moved, in shape 1's frame, from the pose
    /// `(rot0, trans0)` to this frame's: `||rot - rot0||_F r2 (1 + radius_margin) + |trans -
    /// trans0|` (the Frobenius norm bounds the spectral one, and shape 2's points lie within
    /// `r2` of its origin), inflated by `1e-12` relative and by the rounding noise, well above
    /// the rounding of its own computation.
    pub(crate) fn motion_since(
        &self,
        rot0: &Matrix3<f64>,
        trans0: &VectorD,
        radius_margin: f64,
    ) -> f64 {
        let turn = (self.rot - rot0).norm();
        let shift = (self.trans - trans0).norm();
        (turn * self.radius2 * (1.0 + radius_margin) + shift) * (1.0 + 1e-12) + self.noise
    }

    /// Translation of shape 2's origin in shape 1's frame.
    pub(crate) fn translation(&self) -> VectorD {
        self.trans
    }

    /// Support point of `A - B` maximising `w . dir` (`dir` in shape 1's frame, any finite non-zero
    /// length). `hints` are the warm-start tokens of shape 1 and shape 2.
    pub(crate) fn support<S1, S2>(
        &self,
        s1: &S1,
        s2: &S2,
        dir: &VectorD,
        hints: &mut [u32; 2],
    ) -> Result<CsoPoint, NarrowError>
    where
        S1: SupportMap + ?Sized,
        S2: SupportMap + ?Sized,
    {
        let n = dir.norm();
        if !n.is_finite() || n == 0.0 {
            return Err(NarrowError::NonFinite {
                what: "support direction",
            });
        }
        let d1 = dir / n;
        let d2 = -(self.rot.transpose() * d1);
        let p1 = s1.local_support_hinted_f64(&d1, &mut hints[0]);
        let p2 = s2.local_support_hinted_f64(&d2, &mut hints[1]);
        self.make_point(p1, p2, *hints)
    }

    /// The CSO point of the shapes' points with tokens `ids`, if both shapes can look them up.
    pub(crate) fn point_of_hints<S1, S2>(
        &self,
        s1: &S1,
        s2: &S2,
        ids: [u32; 2],
    ) -> Result<Option<CsoPoint>, NarrowError>
    where
        S1: SupportMap + ?Sized,
        S2: SupportMap + ?Sized,
    {
        match (
            s1.local_point_of_hint(ids[0]),
            s2.local_point_of_hint(ids[1]),
        ) {
            (Some(p1), Some(p2)) => self.make_point(p1, p2, ids).map(Some),
            _ => Ok(None),
        }
    }

    /// Maps local support points into a CSO point in shape 1's frame.
    fn make_point(&self, p1: Point, p2: Point, ids: [u32; 2]) -> Result<CsoPoint, NarrowError> {
        let p1 = vec_to_f64(&p1.coords);
        let p2 = self.rot * vec_to_f64(&p2.coords) + self.trans;
        let w = p1 - p2;
        // A non-finite coordinate of either point makes the difference's non-finite (inf - x is
        // inf or NaN), so one test covers both; the error names the culprit.
        if !w.iter().all(|c| c.is_finite()) {
            let finite = |p: &VectorD| p.iter().all(|c| c.is_finite());
            return Err(NarrowError::NonFinite {
                what: if !finite(&p1) {
                    "support point of shape 1"
                } else if !finite(&p2) {
                    "support point of shape 2"
                } else {
                    "difference of the support points (overflow)"
                },
            });
        }
        Ok(CsoPoint { w, p1, p2, ids })
    }
}
