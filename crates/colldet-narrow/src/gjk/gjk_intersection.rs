//! Boolean GJK: separated, touching (within the tolerance band) or intersecting.

use super::gjk_loop::{EarlyStop, GjkEnd, GjkRun, run_gjk};
use super::simplex::{Simplex, volume6};
use super::{GjkCache, GjkStatus};
use crate::RelativePose;
use crate::cso::PairFrame;
use crate::epa::{EpaGoal, EpaOutcome, run_epa};
use crate::{NarrowError, SupportMap};

/// Classifies the pair: [`GjkStatus::Separated`], [`GjkStatus::Touching`] or
/// [`GjkStatus::Intersecting`], with the touching band defined in the [module docs](super).
///
/// `pos12` is shape 2's pose in shape 1's frame. `cache` warm-starts the query from the previous
/// one of the same pair and is updated.
///
/// # Errors
/// [`NarrowError::NonFinite`] for a NaN or infinite pose or support point,
/// [`NarrowError::DidNotConverge`] when GJK (or the EPA that brackets a depth in the touching band)
/// reaches its iteration cap.
pub fn gjk_intersect<S1, S2, P>(
    s1: &S1,
    s2: &S2,
    pos12: &P,
    cache: &mut GjkCache,
) -> Result<GjkStatus, NarrowError>
where
    P: RelativePose + ?Sized,
    S1: SupportMap + ?Sized,
    S2: SupportMap + ?Sized,
{
    let frame = PairFrame::new(s1, s2, pos12)?;
    let mut simplex = Simplex::empty();
    let run = run_gjk(
        s1,
        s2,
        &frame,
        cache,
        EarlyStop::separation(frame.tol),
        &mut simplex,
    )?;
    status_of_run(s1, s2, &frame, &run, &simplex, cache)
}

/// The status of a finished GJK run: decided by the distance bounds when the origin is outside the
/// CSO, and by bracketing the depth against `tol` when it is enclosed.
pub(crate) fn status_of_run<S1, S2>(
    s1: &S1,
    s2: &S2,
    frame: &PairFrame,
    run: &GjkRun,
    simplex: &Simplex,
    cache: &mut GjkCache,
) -> Result<GjkStatus, NarrowError>
where
    S1: SupportMap + ?Sized,
    S2: SupportMap + ?Sized,
{
    match run.end {
        GjkEnd::Separated => Ok(GjkStatus::Separated),
        // `Within` needs an early stop this query does not ask for; `|v|` is an upper bound.
        GjkEnd::Converged | GjkEnd::Within => {
            if run.v.norm() > frame.tol {
                Ok(GjkStatus::Separated)
            } else {
                Ok(GjkStatus::Touching)
            }
        }
        GjkEnd::Enclosed => {
            if tetrahedron_inradius_from_origin(simplex) > frame.tol {
                return Ok(GjkStatus::Intersecting);
            }
            let mut hints = run.hints;
            let goal = EpaGoal::Classify { tol: frame.tol };
            let outcome = run_epa(
                s1,
                s2,
                frame,
                simplex.points(),
                &mut hints,
                cache.band.get_or_insert_with(Box::default),
                goal,
            )?;
            cache.hints = hints;
            Ok(match outcome {
                EpaOutcome::DeeperThanTolerance => GjkStatus::Intersecting,
                EpaOutcome::WithinTolerance => GjkStatus::Touching,
                EpaOutcome::Converged(p) => {
                    if p.depth > frame.tol {
                        GjkStatus::Intersecting
                    } else {
                        GjkStatus::Touching
                    }
                }
            })
        }
    }
}

/// Distance from the origin to the nearest face plane of an enclosing tetrahedron: a lower bound on
/// the penetration depth (the tetrahedron lies inside `A - B`). Zero for a smaller simplex.
fn tetrahedron_inradius_from_origin(simplex: &Simplex) -> f64 {
    let pts = simplex.points();
    if pts.len() != 4 {
        return 0.0;
    }
    let w = [pts[0].w, pts[1].w, pts[2].w, pts[3].w];
    if volume6(&w[0], &w[1], &w[2], &w[3]) == 0.0 {
        return 0.0;
    }
    const FACES: [[usize; 3]; 4] = [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]];
    let mut best = f64::INFINITY;
    for [i, j, k] in FACES {
        let n = (w[j] - w[i]).cross(&(w[k] - w[i]));
        let len = n.norm();
        if len == 0.0 || !len.is_finite() {
            return 0.0;
        }
        best = best.min(n.dot(&w[i]).abs() / len);
    }
    best
}
