//! Tolerance verification: is the distance between two convex shapes at most `tolerance`?
//!
//! Rationale: GJK brackets the distance at every step: `|v|`, the closest point of the simplex
//! to the origin, is an upper bound, and `v . w / |v|` for the support point `w` in direction
//! `-v` a lower bound (certified up to `f64` rounding, see [`super`]). The question is decided
//! as soon as one bound crosses the tolerance: `|v| <= tolerance` answers yes (or the simplex
//! encloses the origin: the shapes share a point), a lower bound above `tolerance` answers no.
//! Only a distance within GJK's convergence accuracy of `tolerance` needs the full run, where
//! the answer is the converged `|v| <= tolerance`, as [`super::gjk_distance`] would measure it.
//!
//! A warm query under coherent motion first tries one certificate of the last query before any
//! simplex reduction: when the pair's last distance bound was beyond the tolerance, one support
//! query along the last direction `u` (unit) bounds the distance below by `u . w` (the plane
//! through `w` orthogonal to `u` has `A - B` on one side); above the tolerance by the margin the
//! loop would stop at (below), the answer is no. Otherwise the loop starts from the last simplex
//! re-evaluated at the new pose (its closest point is a point of `A - B`, an upper bound at
//! once). Both are the loop's own bounds, so the answer does not depend on which decides.
//!
//! [`gjk_within_distance_coherent`] goes one step further with a [`DistanceCertificate`]: the
//! bounds the pair's last queries certified, carried to the new pose by a bound on the motion
//! since (see [`super::distance_certificate`]), answer without any support query when they
//! clear the tolerance; every query records the bounds it certified, and when the last bounds
//! answered at least one query, the loop stops only once a bound clears the tolerance by the
//! motion that used them up (at most half the tolerance), so that the new bounds last about as
//! long.
//!
use super::GjkCache;
use super::distance_certificate::DistanceCertificate;
use super::gjk_loop::{EarlyStop, GjkEnd, run_gjk};
use super::simplex::Simplex;
use crate::RelativePose;
use crate::cso::PairFrame;
use crate::{NarrowError, SupportMap};

/// True when the distance between the convex shapes is at most `tolerance` (shapes sharing a
/// point answer true for every tolerance). `pos12` is shape 2's pose in shape 1's frame;
/// `tolerance` is in shape 1's units. The answer equals `gjk_distance(..).distance <=
/// tolerance` except for distances within GJK's accuracy
/// ([`GJK_RELATIVE_TOLERANCE`](super::GJK_RELATIVE_TOLERANCE) of the distance plus rounding
/// noise `1e-12 (r1 + r2 + |t12|)`) of `tolerance`. `cache` warm-starts the search (the GJK
/// loop the other queries run, with early exits at the tolerance) and is updated.
///
/// # Errors
/// [`NarrowError::InvalidParameter`] for a negative or NaN `tolerance`; otherwise as
/// [`super::gjk_intersect`].
pub fn gjk_within_distance<S1, S2, P>(
    s1: &S1,
    s2: &S2,
    pos12: &P,
    tolerance: f64,
    cache: &mut GjkCache,
) -> Result<bool, NarrowError>
where
    P: RelativePose + ?Sized,
    S1: SupportMap + ?Sized,
    S2: SupportMap + ?Sized,
{
    gjk_within_distance_coherent(
        s1,
        s2,
        pos12,
        tolerance,
        cache,
        &mut DistanceCertificate::new(),
    )
}

/// [`gjk_within_distance`] that first asks the pair's `certificate` (the bounds its last queries
/// certified, carried to this pose by the motion since; see [`DistanceCertificate`]) and
/// records the bounds it certifies there. A pair that moved less than its margin from the
/// tolerance since the certificate's pose is answered without a support query. The answer is
/// [`gjk_within_distance`]'s (outside GJK's accuracy of `tolerance`), whatever the certificate
/// holds, provided it was recorded for this pair of shapes.
///
/// # Errors
/// As [`gjk_within_distance`].
pub fn gjk_within_distance_coherent<S1, S2, P>(
    s1: &S1,
    s2: &S2,
    pos12: &P,
    tolerance: f64,
    cache: &mut GjkCache,
    certificate: &mut DistanceCertificate,
) -> Result<bool, NarrowError>
where
    P: RelativePose + ?Sized,
    S1: SupportMap + ?Sized,
    S2: SupportMap + ?Sized,
{
    if tolerance.is_nan() || tolerance < 0.0 {
        return Err(NarrowError::InvalidParameter {
            parameter: "tolerance",
            requirement: "must be non-negative (not NaN)",
        });
    }
    let frame = PairFrame::new(s1, s2, pos12)?;
    let (lower, upper, motion, carries) = certificate.carry(&frame);
    if lower > tolerance {
        return Ok(false);
    }
    if upper <= tolerance {
        return Ok(true);
    }
    let mut simplex = Simplex::empty();
    // Under coherent motion (the last bounds answered at least one query since they were
    // recorded) the loop stops only once a bound clears the tolerance by the motion that used
    // them up, at most half the tolerance, so that the bounds it records last about as long; a
    // pair whose last bounds did not survive one move stops as soon as a bound crosses (a
    // margin would only add iterations). The answer is the same, since both stops lie on their
    // side of the tolerance.
    let coherent = carries > 0;
    let margin = if coherent {
        motion.min(0.5 * tolerance)
    } else {
        0.0
    };
    // The one support query along the last direction, under coherent motion only (after a jump
    // the last direction seldom certifies, and the warm loop starts better), and only when its
    // bound clears the tolerance by the loop's margin: a bound that only just clears it along a
    // stale direction would be used up by the next move, and the loop's fresh direction
    // certifies bounds that last (callgrind, 100-vertex "no" sequence: 57% of the queries
    // missed the carried bounds with any clearing bound accepted, 39% with the margin).
    if coherent
        && cache.last_distance > tolerance
        && let Some(bound) = certified_beyond(s1, s2, &frame, tolerance + margin, cache)?
    {
        certificate.record(&frame, bound, upper);
        return Ok(false);
    }
    let run = run_gjk(
        s1,
        s2,
        &frame,
        cache,
        EarlyStop::tolerance_with_margin(tolerance, margin),
        &mut simplex,
    )?;
    let run_upper = if run.end == GjkEnd::Enclosed {
        0.0
    } else {
        run.v.norm()
    };
    certificate.record(&frame, run.lower_bound.max(lower), run_upper.min(upper));
    // Converged: `|v|` is the distance (to GJK's accuracy), checked against the tolerance at the
    // loop's top before the last step, so it lies above it.
    Ok(matches!(run.end, GjkEnd::Enclosed | GjkEnd::Within)
        || (run.end == GjkEnd::Converged && run.v.norm() <= tolerance))
}

/// The lower bound `u . w` on the distance from one support query along the cache's last
/// direction `u`, when it exceeds `bound_above` (the cache's hints then move to that query's
/// vertices); `None` without a direction or when the bound does not clear it.
fn certified_beyond<S1, S2>(
    s1: &S1,
    s2: &S2,
    frame: &PairFrame,
    bound_above: f64,
    cache: &mut GjkCache,
) -> Result<Option<f64>, NarrowError>
where
    S1: SupportMap + ?Sized,
    S2: SupportMap + ?Sized,
{
    let Some(u) = cache.dir else {
        return Ok(None);
    };
    let mut hints = cache.hints;
    let w = frame.support(s1, s2, &-u, &mut hints)?;
    let bound = u.dot(&w.w);
    if bound > bound_above {
        cache.hints = hints;
        return Ok(Some(bound));
    }
    Ok(None)
}
