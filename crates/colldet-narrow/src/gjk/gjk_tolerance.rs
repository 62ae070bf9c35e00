//! Tolerance verification: is the distance between two convex shapes at most `tolerance`?
//!
//! Rationale: GJK brackets the distance at every step: `|v|`, the closest point of the simplex
//! to the origin, is an upper bound, and `v . w / |v|` for the support point `w` in direction
//! `-v` a lower bound (certified up to `f64` rounding, see [`super`]). The question is decided
//! as soon as one bound crosses the tolerance: `|v| <= tolerance` answers yes (or the simplex
//! encloses the origin: the shapes share a point), a lower bound above `tolerance` answers no.
//! Only a distance within GJK's convergence accuracy of `tolerance` needs the full run, where
//! the answer is the converged `|v| <= tolerance`, as [`super::gjk_distance`] would measure it.

use super::simplex::Simplex;
use super::{GJK_MAX_ITERATIONS, GJK_RELATIVE_TOLERANCE, GjkCache};
use crate::RelativePose;
use crate::cso::PairFrame;
use crate::{NarrowError, SupportMap};
use colldet_geom::math::VectorD;

/// True when the distance between the convex shapes is at most `tolerance` (shapes sharing a
/// point answer true for every tolerance). `pos12` is shape 2's pose in shape 1's frame;
/// `tolerance` is in shape 1's units. The answer equals `gjk_distance(..).distance <=
/// tolerance` except for distances within GJK's accuracy
/// ([`GJK_RELATIVE_TOLERANCE`](super::GJK_RELATIVE_TOLERANCE) of the distance plus rounding
/// noise `1e-12 (r1 + r2 + |t12|)`) of `tolerance`. `cache` warm-starts the search from its
/// last direction and support hints and is updated (its simplex is forgotten).
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
    let mut hints = cache.hints;
    let start = match cache.dir {
        Some(d) => d,
        None => {
            let t = frame.translation();
            if t.norm_squared() > 0.0 {
                -t
            } else {
                VectorD::x()
            }
        }
    };
    let first = frame.support(s1, s2, &-start, &mut hints)?;
    let mut simplex = Simplex::new(first);
    let mut v = first.w;
    let mut iterations = 1;
    let mut lower_bound = 0.0_f64;
    let noise2 = frame.noise * frame.noise;
    let within = loop {
        let vv = v.norm_squared();
        if vv <= noise2 || simplex.len() == 4 {
            break true;
        }
        let vn = vv.sqrt();
        if vn <= tolerance {
            break true;
        }
        if iterations >= GJK_MAX_ITERATIONS {
            return Err(NarrowError::DidNotConverge {
                algorithm: "GJK",
                iterations,
            });
        }
        let w = frame.support(s1, s2, &-v, &mut hints)?;
        iterations += 1;
        lower_bound = lower_bound.max(v.dot(&w.w) / vn);
        if lower_bound > tolerance {
            break false;
        }
        if vn - lower_bound <= GJK_RELATIVE_TOLERANCE * vn + frame.noise || simplex.contains(&w) {
            // Converged with |v| above the tolerance.
            break false;
        }
        simplex.push(w);
        let v_new = simplex.reduce();
        if simplex.len() == 4 {
            break true;
        }
        if v_new.norm_squared() >= vv {
            break false;
        }
        v = v_new;
    };
    let vn = v.norm();
    if vn > 0.0 && vn.is_finite() {
        cache.dir = Some(v / vn);
    }
    cache.hints = hints;
    cache.simplex_len = 0;
    Ok(within)
}
