//! [`DistanceCertificate`]: bounds on a pair's distance certified at one relative pose, carried
//! to later poses by a bound on how far shape 2 moved (in shape 1's frame) since.
//!
//! Rationale. GJK's bounds are statements about the points of `A - B`: every point `x` satisfies
//! `u . x >= lower` for a unit `u` (so the distance is at least `lower`), and some point lies
//! within `upper` of the origin (so the distance is at most `upper`). When shape 2's pose in
//! shape 1's frame changes from `(R0, t0)` to `(R, t)`, each point `p` of shape 2 (local
//! coordinates, `|p| <= r2`, its bounding radius) moves by `(R - R0) p + (t - t0)`, at most `m =
//! ||R - R0||_F r2 + |t - t0|` (the Frobenius norm bounds the spectral one). So every point of
//! `A - B` moves by at most `m`, and the distance at the new pose lies in `[lower - m, upper +
//! m]`. A coherent sequence of tolerance queries whose pair stays clear of the tolerance by more
//! than its motion is answered from the last certificate without a support query; when the
//! carried bounds do not decide, the query runs as before and records new bounds at the current
//! pose.
//!
//! Exactness: `m` is computed with `r2` raised by [`RADIUS_MARGIN`] (the `f32` radius may be
//! rounded below the largest vertex norm), inflated by `1e-12` relative and by the pair's
//! rounding noise ([`PairFrame::noise`](crate::cso::PairFrame)), far above the rounding of its own
//! computation; the recorded bounds are GJK's own, so an answer decided from carried bounds is
//! one GJK would certify at the new pose.

use crate::cso::PairFrame;
use colldet_geom::math::VectorD;
use nalgebra::Matrix3;

/// Relative margin on shape 2's bounding radius: an `f32` rounded to nearest from the largest
/// vertex norm may fall short of it by half an `f32` ulp (`6e-8` relative).
const RADIUS_MARGIN: f64 = 1e-6;

/// The relative pose and the bounds certified there.
#[derive(Clone, Copy, Debug, PartialEq)]
struct CertifiedPose {
    rot: Matrix3<f64>,
    trans: VectorD,
    lower: f64,
    upper: f64,
}

/// Distance bounds of one ordered pair of convex shapes, certified at the relative pose of the
/// query that recorded them (see the [module docs](self)). Owned by the caller, one per pair
/// (with the pair's [`GjkCache`](super::GjkCache)); an empty certificate (the default) decides
/// nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DistanceCertificate {
    at: Option<CertifiedPose>,
}

impl DistanceCertificate {
    /// An empty certificate.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets the bounds (a cache moved to another pair of shapes must not keep them).
    pub fn reset(&mut self) {
        self.at = None;
    }

    /// The recorded bounds carried to `frame`'s pose and the motion bound they were carried
    /// by: `(lower, upper, motion)` with the distance there in `[lower, upper]`; `(-inf, +inf,
    /// 0)` when nothing is recorded.
    pub(crate) fn carried(&self, frame: &PairFrame) -> (f64, f64, f64) {
        match &self.at {
            Some(c) => {
                let m = frame.motion_since(&c.rot, &c.trans, RADIUS_MARGIN);
                (c.lower - m, c.upper + m, m)
            }
            None => (f64::NEG_INFINITY, f64::INFINITY, 0.0),
        }
    }

    /// Records `lower <= distance <= upper` at `frame`'s pose (replacing what was recorded).
    pub(crate) fn record(&mut self, frame: &PairFrame, lower: f64, upper: f64) {
        let (rot, trans) = frame.parts();
        self.at = Some(CertifiedPose {
            rot,
            trans,
            lower,
            upper,
        });
    }
}
