//! GJK distance and closest points.

use super::distance_certificate::DistanceCertificate;
use super::gjk_intersection::status_of_run;
use super::gjk_loop::{EarlyStop, GjkEnd, run_gjk};
use super::simplex::Simplex;
use super::{GjkCache, GjkStatus};
use crate::RelativePose;
use crate::cso::PairFrame;
use crate::{NarrowError, SupportMap};
use colldet_geom::math::PointD;

/// Distance and closest points of a pair, in shape 1's frame and units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GjkDistance {
    /// Same classification as [`super::gjk_intersect`].
    pub status: GjkStatus,
    /// Euclidean distance between the shapes; `0` when GJK found a common point.
    pub distance: f64,
    /// Closest point on shape 1 (a common point when `distance == 0`).
    pub point1: PointD,
    /// Closest point on shape 2, in shape 1's frame; `point1 - point2` has length `distance` and
    /// points from shape 2 towards shape 1.
    pub point2: PointD,
    /// Number of support queries of the GJK run (the warm start shows up here).
    pub iterations: u32,
    /// The support tokens (for polytopes: vertex indices) of shape 1's and shape 2's points of
    /// the final simplex vertex with the largest weight: points of the closest features (of the
    /// faces of the shapes that hold `point1` and `point2`, up to GJK's accuracy).
    pub witness_tokens: [u32; 2],
}

/// The distance between two convex shapes and a pair of closest points.
///
/// `pos12` is shape 2's pose in shape 1's frame. The distance is accurate to
/// [`GJK_RELATIVE_TOLERANCE`](super::GJK_RELATIVE_TOLERANCE) of itself plus rounding noise of about
/// `1e-12 * (r1 + r2 + |t12|)`. `cache` warm-starts the query and is updated.
///
/// # Errors
/// As [`super::gjk_intersect`].
pub fn gjk_distance<S1, S2, P>(
    s1: &S1,
    s2: &S2,
    pos12: &P,
    cache: &mut GjkCache,
) -> Result<GjkDistance, NarrowError>
where
    P: RelativePose + ?Sized,
    S1: SupportMap + ?Sized,
    S2: SupportMap + ?Sized,
{
    distance_with(
        s1,
        s2,
        pos12,
        cache,
        EarlyStop::NONE,
        &mut DistanceCertificate::new(),
    )
}

/// [`gjk_distance`] stopped as soon as the distance is known to the relative error
/// `relative_error`: the returned `distance` `d` (with its closest points, `|point1 - point2| =
/// d`) satisfies `d_true <= d <= (1 + relative_error) d_true` (plus GJK's own accuracy), in fewer
/// iterations when the bound is loose. `relative_error` 0 is [`gjk_distance`].
///
/// # Errors
/// As [`gjk_distance`], and [`NarrowError::InvalidParameter`] for a negative or NaN
/// `relative_error`.
pub fn gjk_distance_approx<S1, S2, P>(
    s1: &S1,
    s2: &S2,
    pos12: &P,
    relative_error: f64,
    cache: &mut GjkCache,
) -> Result<GjkDistance, NarrowError>
where
    P: RelativePose + ?Sized,
    S1: SupportMap + ?Sized,
    S2: SupportMap + ?Sized,
{
    gjk_distance_approx_coherent(
        s1,
        s2,
        pos12,
        relative_error,
        cache,
        &mut DistanceCertificate::new(),
    )
}

/// [`gjk_distance_approx`] that also records the bounds on the distance its run certified in
/// the pair's `certificate`, for the pair's later tolerance queries
/// ([`super::gjk_within_distance_coherent`]).
///
/// # Errors
/// As [`gjk_distance_approx`].
pub fn gjk_distance_approx_coherent<S1, S2, P>(
    s1: &S1,
    s2: &S2,
    pos12: &P,
    relative_error: f64,
    cache: &mut GjkCache,
    certificate: &mut DistanceCertificate,
) -> Result<GjkDistance, NarrowError>
where
    P: RelativePose + ?Sized,
    S1: SupportMap + ?Sized,
    S2: SupportMap + ?Sized,
{
    if relative_error.is_nan() || relative_error < 0.0 {
        return Err(NarrowError::InvalidParameter {
            parameter: "relative_error",
            requirement: "must be non-negative (not NaN)",
        });
    }
    distance_with(
        s1,
        s2,
        pos12,
        cache,
        EarlyStop::relative(relative_error),
        certificate,
    )
}

fn distance_with<S1, S2, P>(
    s1: &S1,
    s2: &S2,
    pos12: &P,
    cache: &mut GjkCache,
    stop: EarlyStop,
    certificate: &mut DistanceCertificate,
) -> Result<GjkDistance, NarrowError>
where
    P: RelativePose + ?Sized,
    S1: SupportMap + ?Sized,
    S2: SupportMap + ?Sized,
{
    let frame = PairFrame::new(s1, s2, pos12)?;
    let mut simplex = Simplex::empty();
    let run = run_gjk(s1, s2, &frame, cache, stop, &mut simplex)?;
    let status = status_of_run(s1, s2, &frame, &run, &simplex, cache)?;
    let (p1, p2) = simplex.witness_points();
    let distance = if run.end == GjkEnd::Enclosed {
        0.0
    } else {
        run.v.norm()
    };
    certificate.record(&frame, run.lower_bound, distance);
    Ok(GjkDistance {
        status,
        distance,
        point1: PointD::from(p1),
        point2: PointD::from(p2),
        iterations: run.iterations,
        witness_tokens: simplex.heaviest_tokens(),
    })
}
