//! The GJK iteration shared by the intersection and distance queries.
//!
//! Rationale: `v` is the closest point of the current simplex to the origin, so `|v|` is an upper
//! bound on the distance between the shapes; for the new support point `w` of `A - B` in direction
//! `-v`, `v . w / |v|` is a lower bound (the plane through `w` orthogonal to `v` has the whole CSO on
//! the far side). A warm start re-evaluates the previous simplex from its support tokens at the new
//! pose (any CSO points form a valid starting simplex), so coherent motion needs one or two support
//! queries; without tokens it starts from the previous direction. The loop stops when the bounds meet, when the support point is already a vertex,
//! when `|v|` fails to decrease (rounding), or when the simplex encloses the origin. A run that
//! hits the iteration cap is an error, never a guess.

use super::simplex::Simplex;
use super::{GJK_MAX_ITERATIONS, GJK_RELATIVE_TOLERANCE, GjkCache};
use crate::cso::PairFrame;
use crate::{NarrowError, SupportMap};
use colldet_geom::math::VectorD;

/// Why the loop stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GjkEnd {
    /// The lower distance bound exceeded the touching tolerance (only with early exit enabled).
    Separated,
    /// Bounds met: the distance is `|v|` (to the GJK tolerance).
    Converged,
    /// The origin lies in the simplex (up to rounding noise): the shapes share a point.
    Enclosed,
    /// `|v|`, an upper bound on the distance, reached [`EarlyStop::within`].
    Within,
}

/// Early exits of a run: it ends as soon as the distance is certified above `separated_above`
/// ([`GjkEnd::Separated`]) or at most `within` ([`GjkEnd::Within`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct EarlyStop {
    pub separated_above: f64,
    pub within: f64,
    /// Converged once `|v| <= (1 + relative) * lower bound` (0: GJK's own tolerance only).
    pub relative: f64,
}

impl EarlyStop {
    /// Run to convergence.
    pub const NONE: Self = Self {
        separated_above: f64::INFINITY,
        within: -1.0,
        relative: 0.0,
    };

    /// Stop once the distance is certified above `tol`.
    pub fn separation(tol: f64) -> Self {
        Self {
            separated_above: tol,
            ..Self::NONE
        }
    }

    /// Stop once the distance is decided against `tolerance` with `margin` to spare: certified
    /// above `tolerance + margin` or at most `tolerance - margin` (never, for a margin above the
    /// tolerance); otherwise run to convergence.
    pub fn tolerance_with_margin(tolerance: f64, margin: f64) -> Self {
        Self {
            separated_above: tolerance + margin,
            within: tolerance - margin,
            ..Self::NONE
        }
    }

    /// Run until `|v|`, an upper bound on the distance, is within `relative` of the lower bound:
    /// the distance is then known to a relative error `relative`.
    pub fn relative(relative: f64) -> Self {
        Self {
            relative,
            ..Self::NONE
        }
    }
}

/// Result of one GJK run (its final simplex is written to the caller's).
#[derive(Clone, Copy, Debug)]
pub(crate) struct GjkRun {
    pub end: GjkEnd,
    /// Closest point of the final simplex to the origin (zero when enclosed); `|v|` is an upper
    /// bound on the distance.
    pub v: VectorD,
    /// The run's best lower bound on the distance, `max v . w / |v|` over its support queries
    /// (0 without any: the distance is never negative).
    pub lower_bound: f64,
    /// Number of support queries.
    pub iterations: u32,
    pub hints: [u32; 2],
}

/// Runs GJK on `A - B`, warm-started from and updating `cache`, with the early exits of `stop`;
/// `simplex` receives the final simplex (its closest point to the origin is the run's `v`). A
/// non-empty `simplex` on entry is the cache's warm simplex already loaded by [`warm_simplex`]
/// (the run starts from it without loading it again).
pub(crate) fn run_gjk<S1, S2>(
    s1: &S1,
    s2: &S2,
    frame: &PairFrame,
    cache: &mut GjkCache,
    stop: EarlyStop,
    simplex: &mut Simplex,
) -> Result<GjkRun, NarrowError>
where
    S1: SupportMap + ?Sized,
    S2: SupportMap + ?Sized,
{
    let mut hints = cache.hints;
    let mut iterations = 0;
    let mut v = if simplex.len() > 0 || warm_simplex(s1, s2, frame, cache, simplex)? {
        simplex.reduce()
    } else {
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
        iterations = 1;
        *simplex = Simplex::new(first);
        first.w
    };
    let mut lower_bound = 0.0_f64;
    let noise2 = frame.noise * frame.noise;
    let end = loop {
        let vv = v.norm_squared();
        if vv <= noise2 || simplex.len() == 4 {
            break GjkEnd::Enclosed;
        }
        let vn = vv.sqrt();
        if vn <= stop.within {
            break GjkEnd::Within;
        }
        if iterations >= GJK_MAX_ITERATIONS {
            cache.hints = hints;
            return Err(NarrowError::DidNotConverge {
                algorithm: "GJK",
                iterations,
            });
        }
        let w = frame.support(s1, s2, &-v, &mut hints)?;
        iterations += 1;
        lower_bound = lower_bound.max(v.dot(&w.w) / vn);
        if lower_bound > stop.separated_above {
            break GjkEnd::Separated;
        }
        if vn - lower_bound <= GJK_RELATIVE_TOLERANCE * vn + frame.noise
            || vn <= (1.0 + stop.relative) * lower_bound
            || simplex.contains(&w)
        {
            break GjkEnd::Converged;
        }
        simplex.push(w);
        let projection = simplex.project();
        if projection.dist2() >= vv {
            // No closer: the step is undone (the weights are still the previous simplex's).
            simplex.pop();
            break GjkEnd::Converged;
        }
        v = simplex.apply(&projection);
        if simplex.len() == 4 {
            break GjkEnd::Enclosed;
        }
    };
    let vn = v.norm();
    if vn > 0.0 && vn.is_finite() {
        cache.dir = Some(v / vn);
    }
    cache.last_distance = vn;
    cache.hints = hints;
    cache.simplex_len = simplex.len() as u8;
    for (slot, p) in cache.simplex_ids.iter_mut().zip(simplex.points()) {
        *slot = p.ids;
    }
    cache.simplex_weights[..simplex.len()].copy_from_slice(simplex.weights());
    Ok(GjkRun {
        end,
        v,
        lower_bound,
        iterations,
        hints,
    })
}

/// Loads into `simplex` the previous query's simplex re-evaluated at the current pose from its
/// support tokens, with its last weights; false (and `simplex` empty) when there is none or a
/// shape cannot look the tokens up.
pub(crate) fn warm_simplex<S1, S2>(
    s1: &S1,
    s2: &S2,
    frame: &PairFrame,
    cache: &GjkCache,
    simplex: &mut Simplex,
) -> Result<bool, NarrowError>
where
    S1: SupportMap + ?Sized,
    S2: SupportMap + ?Sized,
{
    simplex.clear();
    let len = usize::from(cache.simplex_len).min(4);
    for ids in &cache.simplex_ids[..len] {
        let Some(p) = frame.point_of_hints(s1, s2, *ids)? else {
            simplex.clear();
            return Ok(false);
        };
        simplex.push(p);
    }
    simplex.set_weights(&cache.simplex_weights);
    Ok(len > 0)
}
