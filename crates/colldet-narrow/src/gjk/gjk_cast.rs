//! GJK ray cast for a translating pair (van den Bergen's ray cast on the CSO): the first fraction
//! at which two convex polytopes meet while one translates, as a certified lower bound and the
//! separating direction there, in one run of support queries.
//!
//! In shape 1's frame shape 2 starts at `pos12` and translates by `d` over the fraction `tau` in
//! `[0, 1]`. With `C = A - B(0)` (shape 1 minus shape 2 at its start), the shapes touch at `tau`
//! exactly when `tau d` lies in `C`: the first contact is where the ray `x(tau) = tau d` enters
//! `C`. Each iteration takes the support point `p` of `C` in the direction `v` from the closest
//! point of the current simplex towards the ray point `x`. The plane through `p` orthogonal to `v`
//! has `C` on its far side, so the gap `n . (x - p)` along `n = v / |v|` (less the caller's rounding
//! bound) is a certified lower bound of the distance from `x` to `C`; while the ray point moves at
//! the rate `n . d` against it, nothing touches before `tau + gap / (-n . d)`, and when it does not
//! approach (`n . d >= 0`) nothing touches at all. The simplex (the support points kept, re-centred
//! on the moved ray point) sharpens `v` from one support query to the next, so a cast costs about
//! as many support queries as one GJK distance, where conservative advancement runs a distance
//! query per step.
//!
//! Certification needs supports ranked by `f64` dot products with the unrounded direction, which
//! [`ConvexPolytope`]'s support map gives (`SupportMap::local_support_hinted_f64`); hence the
//! concrete shape type.

use colldet_geom::ConvexPolytope;
use colldet_geom::math::VectorD;

use super::simplex::Simplex;
use crate::cso::{CsoPoint, PairFrame};
use crate::{NarrowError, PoseMatrix};

/// Support queries of one cast before it gives up ([`TranslationCast::Undecided`]).
const MAX_CAST_ITERATIONS: u32 = 64;

/// Outcome of [`gjk_translation_cast`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TranslationCast {
    /// The shapes do not touch for any fraction in `[0, 1]` (certified).
    Miss,
    /// No contact before `lo` (certified); at `lo` the ray point is within `band` of the CSO, the
    /// shapes within `band` of each other.
    Near {
        /// Certified lower bound of the first contact fraction.
        lo: f64,
        /// The separating direction of the last step (unit, shape 1's frame, pointing from shape 1
        /// towards shape 2, the direction in which `x - p` was certified positive).
        normal: VectorD,
    },
    /// Undecided: within `band` at the start, no progress, or the iteration cap.
    Undecided,
}

/// Casts shape 2 (pose `pos12` in shape 1's frame) along `d` (shape 1's frame) against shape 1
/// (module docs). `band` is the stop distance (length units of shape 1's frame); `error` bounds the
/// rounding of a gap `n . (x - p)` for unit `n` (the mapped support point, the ray point and the
/// dot products) plus how far the polytopes' `f32` vertices may be from the caller's: every
/// advance subtracts it, so `lo` holds for the configuration the caller gave.
///
/// # Errors
/// [`NarrowError::NonFinite`] for a non-finite pose, `d` or support point.
pub fn gjk_translation_cast(
    s1: &ConvexPolytope,
    s2: &ConvexPolytope,
    pos12: &PoseMatrix,
    d: &VectorD,
    band: f64,
    error: f64,
    hints: &mut [u32; 2],
) -> Result<TranslationCast, NarrowError> {
    if !d.iter().all(|c| c.is_finite()) {
        return Err(NarrowError::NonFinite {
            what: "translation of the cast",
        });
    }
    let frame = PairFrame::new(s1, s2, pos12)?;
    // Shape 2's origin relative to shape 1's: `C`'s points are about `-t`, so `x - (-t)` at `x = 0`.
    let t = frame.translation();
    let mut v = if t.norm_squared() > 0.0 { t } else { *d };
    if v.norm_squared() == 0.0 {
        v = VectorD::x();
    }
    let mut lambda = 0.0_f64;
    let mut x = VectorD::zeros();
    let mut normal: Option<VectorD> = None;
    // The support points kept, as found (their `w` is `p1 - p2`, not re-centred).
    let mut kept = [CsoPoint::ZERO; 4];
    let mut kept_len = 0usize;
    for _ in 0..MAX_CAST_ITERATIONS {
        let vn = v.norm();
        if vn <= band {
            return Ok(match normal {
                Some(normal) => TranslationCast::Near { lo: lambda, normal },
                None => TranslationCast::Undecided,
            });
        }
        let n = v / vn;
        let p = frame.support(s1, s2, &n, hints)?;
        let gap = n.dot(&x) - n.dot(&p.w) - error;
        if gap > 0.0 {
            let rate = n.dot(d);
            if rate >= 0.0 {
                return Ok(TranslationCast::Miss);
            }
            let next = lambda + gap / -rate;
            if next > 1.0 {
                return Ok(TranslationCast::Miss);
            }
            if next.partial_cmp(&lambda) != Some(std::cmp::Ordering::Greater) {
                return Ok(TranslationCast::Undecided);
            }
            lambda = next;
            x = d * lambda;
            normal = Some(n);
        }
        let known = kept[..kept_len].iter().any(|q| q.w == p.w);
        if !known {
            kept[kept_len] = p;
            kept_len += 1;
        } else if gap <= 0.0 {
            // No new support point and no advance: the run cannot improve.
            return Ok(match normal {
                Some(normal) if vn <= band + error => TranslationCast::Near { lo: lambda, normal },
                _ => TranslationCast::Undecided,
            });
        }
        // The closest point of the kept points' hull to `x`: re-centre them on `x` and reduce.
        let mut simplex = Simplex::new(recentred(&kept[0], &x));
        for q in &kept[1..kept_len] {
            simplex.push(recentred(q, &x));
        }
        let closest = simplex.reduce();
        if simplex.len() == 4 {
            // `x` inside the hull of four points of `C`: touching (to rounding) at `lambda`.
            return Ok(match normal {
                Some(normal) => TranslationCast::Near { lo: lambda, normal },
                None => TranslationCast::Undecided,
            });
        }
        kept_len = 0;
        for q in simplex.points() {
            kept[kept_len] = CsoPoint {
                w: q.p1 - q.p2,
                ..*q
            };
            kept_len += 1;
        }
        // `closest` is the hull's closest point to `x`, minus `x`: `v` points from it to `x`.
        v = -closest;
    }
    Ok(TranslationCast::Undecided)
}

/// `p` seen from the ray point `x`: its `w` is `p1 - p2 - x`.
fn recentred(p: &CsoPoint, x: &VectorD) -> CsoPoint {
    CsoPoint {
        w: p.p1 - p.p2 - x,
        ..*p
    }
}
