//! Tolerance verification: is the distance between two convex shapes at most `tolerance`?
//!
//! Rationale: GJK brackets the distance at every step: `|v|`, the closest point of the simplex
//! to the origin, is an upper bound, and `v . w / |v|` for the support point `w` in direction
//! `-v` a lower bound (certified up to `f64` rounding, see [`super`]). The question is decided
//! as soon as one bound crosses the tolerance: `|v| <= tolerance` answers yes (or the simplex
//! encloses the origin: the shapes share a point), a lower bound above `tolerance` answers no.
//! Only a distance within GJK's convergence accuracy of `tolerance` needs the full run, where
//! the answer is the converged `|v| <= tolerance`, as [`super::gjk_distance`] would measure it.

use super::GjkCache;
use super::gjk_loop::{EarlyStop, GjkEnd, run_gjk};
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
    if tolerance.is_nan() || tolerance < 0.0 {
        return Err(NarrowError::InvalidParameter {
            parameter: "tolerance",
            requirement: "must be non-negative (not NaN)",
        });
    }
    let frame = PairFrame::new(s1, s2, pos12)?;
    let run = run_gjk(s1, s2, &frame, cache, EarlyStop::tolerance(tolerance))?;
    // Converged: `|v|` is the distance (to GJK's accuracy), checked against the tolerance at the
    // loop's top before the last step, so it lies above it.
    Ok(matches!(run.end, GjkEnd::Enclosed | GjkEnd::Within)
        || (run.end == GjkEnd::Converged && run.v.norm() <= tolerance))
}
