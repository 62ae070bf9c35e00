//! Conservative advancement for two convex bodies under translation: a certified lower bound of
//! the first contact fraction and the separating direction there, in a few GJK distance queries
//! (hill-climbing support, warm-started), so the exact feature tests of the translational sweep
//! only need the features near the contact.
//!
//! In `b`'s frame `a` translates by `d`. At fraction `tau` GJK gives a direction `n` (from `b`
//! towards `a`); the certified gap along it is `g = min_a n . x - max_b n . y` from the two
//! supporting vertices, less a bound on its rounding and on the hulls' distance from vertices given
//! in `f64` (`ConvexPolytope::vertex_rounding`). While the bodies translate, the gap along a
//! fixed `n` changes at the rate `n . d`: if `n . d >= 0` it never shrinks and the bodies never
//! meet (convexity: a separating plane that stays separating); otherwise no contact happens before
//! `tau + g / (-n . d)`. The advancement stops when the gap is within a small band: the bodies
//! touch no earlier than that fraction.

use colldet_geom::ConvexPolytope;
use colldet_geom::math::{MatrixD, VectorD, to_f64};
use colldet_narrow::{GjkCache, PoseMatrix, gjk_distance};

/// Advancement steps before giving up (the caller then runs the full feature sweep).
const MAX_STEPS: u32 = 64;

/// Where the advancement ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Advance {
    /// The bodies do not touch for any fraction in `[0, 1]` (certified).
    Separated,
    /// No contact before `lo` (certified); at `lo` the bodies are within the stop band along
    /// `normal` (unit, from `b` towards `a`, `b`'s frame).
    Near {
        /// Certified lower bound of the first contact fraction.
        lo: f64,
        /// The separating direction at `lo`.
        normal: VectorD,
    },
    /// Undecided: touching at the start, no progress, or a failed query.
    Undecided,
}

/// Reusable state of [`advance`].
#[derive(Clone, Debug, Default)]
pub struct AdvanceWorkspace {
    cache: GjkCache,
    hints: [u32; 2],
}

/// Advances `a` (pose `(rel_rot, rel_trans)` in `b`'s frame, translating by `d`) towards `b`
/// (module docs). `scale` bounds the coordinates' magnitudes (radii plus `|rel_trans|` and
/// `|d|`); the stop band is `1e-9 scale`.
pub fn advance(
    a: &ConvexPolytope,
    b: &ConvexPolytope,
    rel_rot: &MatrixD,
    rel_trans: &VectorD,
    d: &VectorD,
    scale: f64,
    ws: &mut AdvanceWorkspace,
) -> Advance {
    ws.cache.reset();
    let band = 1e-9 * scale;
    // Rounding of the mapped support point, the dot products and the subtraction.
    let error = 32.0 * f64::EPSILON * scale;
    let rot_t = rel_rot.transpose();
    let mut tau = 0.0f64;
    let mut last_normal = None;
    for _ in 0..MAX_STEPS {
        let trans = rel_trans + d * tau;
        let Ok(pos) = PoseMatrix::from_parts(*rel_rot, trans) else {
            return Advance::Undecided;
        };
        let Ok(r) = gjk_distance(b, a, &pos, &mut ws.cache) else {
            return Advance::Undecided;
        };
        let v = r.point2 - r.point1;
        let len = v.norm();
        if len.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) || r.distance <= band {
            // Touching (or within the band) here: the steps so far certify [0, tau].
            return match last_normal {
                Some(normal) => Advance::Near { lo: tau, normal },
                None => Advance::Undecided,
            };
        }
        let n = v / len;
        last_normal = Some(n);
        // The certified gap along n: a's lowest vertex minus b's highest.
        let sa = a
            .support_hill_climb_f64_warm(&(rot_t * -n), ws.hints[0])
            .vertex;
        let sb = b.support_hill_climb_f64_warm(&n, ws.hints[1]).vertex;
        ws.hints = [sa, sb];
        let pa = rel_rot * to_f64(&a.vertices()[sa as usize]).coords + trans;
        let pb = to_f64(&b.vertices()[sb as usize]).coords;
        // Hulls fitted to the `f32` copies of vertices given in `f64`: a support value of the
        // bodies as given is within each hull's rounding of the copy's.
        let gap = n.dot(&pa) - n.dot(&pb) - error - (a.vertex_rounding() + b.vertex_rounding());
        let rate = n.dot(d);
        if gap > 0.0 && rate >= 0.0 {
            return Advance::Separated;
        }
        if gap <= band {
            return if gap > -band {
                Advance::Near { lo: tau, normal: n }
            } else {
                Advance::Undecided
            };
        }
        // The gap along n is at least gap - (t - tau) * (-rate) >= 0 up to t = tau + step.
        let step = gap / -rate;
        let next = tau + step;
        if next > 1.0 {
            return Advance::Separated;
        }
        if next.partial_cmp(&tau) != Some(std::cmp::Ordering::Greater) {
            return Advance::Undecided;
        }
        tau = next;
    }
    Advance::Undecided
}
