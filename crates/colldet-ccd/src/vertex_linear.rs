//! Motion (e): each point of a vertex-triangle or edge-edge pair moves linearly on its own, from
//! its start to its end point over the fraction `tau` in `[0, 1]` (deforming meshes; a
//! translation is the case of equal displacements). World frame, any length unit.
//!
//! The contact conditions are those of [`crate::feature_functions`]: the plane (coplanarity)
//! function is a cubic in `tau`, the side functions of higher degree. The first contact is
//! isolated by depth-first, earliest-first bisection of `[0, 1]` with interval enclosures of the
//! positions (`p(tau) = start + tau (end - start)` in exact reals on the caller's `f64` numbers):
//! every discarded interval is certified free of contact, so a contact is never missed and the
//! reported `lo` is never after the true first contact. The enclosures overestimate in
//! proportion to the interval width, so an interval of width `tol` that is not excluded may be a
//! near miss: such an interval is refined further, down to `tol * 2^-20` ([`REFINE_FACTOR`]),
//! within a fixed budget of [`REFINE_BUDGET`] evaluations per query (grazing near misses would
//! otherwise cost in proportion to their length over the resolution). A refined interval that
//! is excluded entirely lets the search go on. The reported bracket is the first interval that
//! could not be excluded: at the fine resolution while the budget lasts, else at `tol`. The pair
//! touches at `hi` within the enclosure band of that width (plus the `f64` rounding).

use colldet_geom::math::PointD;

use crate::contact::TimeOfImpact;
use crate::error::CcdError;
use crate::feature_functions::{edge_edge, vertex_triangle};
use crate::interval::{IVec3, Interval};

/// The bisection resolves intervals down to `tol * REFINE_FACTOR` (module docs).
pub const REFINE_FACTOR: f64 = 1.0 / 1_048_576.0;

/// Evaluations of intervals narrower than `tol` allowed per query (module docs).
pub const REFINE_BUDGET: u32 = 4096;

/// A point moving linearly from `start` (`tau = 0`) to `end` (`tau = 1`), world frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MovingPoint {
    /// Position at `tau = 0`.
    pub start: PointD,
    /// Position at `tau = 1`.
    pub end: PointD,
}

impl MovingPoint {
    /// A point moving from `start` to `end`.
    pub fn new(start: PointD, end: PointD) -> Self {
        Self { start, end }
    }

    /// A point that does not move.
    pub fn fixed(p: PointD) -> Self {
        Self { start: p, end: p }
    }

    /// Encloses `start + tau (end - start)` for every `tau` in `t`.
    #[inline]
    pub fn enclosure(&self, t: Interval) -> IVec3 {
        let s = IVec3::from_point(&self.start);
        s + (IVec3::from_point(&self.end) - s) * t
    }

    fn is_finite(&self) -> bool {
        self.start
            .iter()
            .chain(self.end.iter())
            .all(|c| c.is_finite())
    }
}

/// First contact of the moving vertex `p` with the moving triangle `q` (corners
/// counter-clockwise from the front; closed triangle, either side), as a bracket of width
/// `<= tol` (module docs), or `None` when they never touch for `tau` in `[0, 1]`.
///
/// # Errors
/// [`CcdError::NonFinite`] for a NaN or infinite coordinate; [`CcdError::InvalidParameter`] when
/// `tol` is not a positive finite number.
pub fn vertex_triangle_linear(
    p: &MovingPoint,
    q: &[MovingPoint; 3],
    tol: f64,
) -> Result<Option<TimeOfImpact>, CcdError> {
    check(std::iter::once(p).chain(q), tol)?;
    Ok(first_contact(tol, |t| {
        let qs = [q[0].enclosure(t), q[1].enclosure(t), q[2].enclosure(t)];
        vertex_triangle(&p.enclosure(t), &qs).excluded
    }))
}

/// First contact of the moving edge `(a, b)` with the moving edge `(c, d)` (closed segments), as
/// a bracket of width `<= tol` (module docs), or `None` when they never touch.
///
/// # Errors
/// As [`vertex_triangle_linear`].
pub fn edge_edge_linear(
    a: &MovingPoint,
    b: &MovingPoint,
    c: &MovingPoint,
    d: &MovingPoint,
    tol: f64,
) -> Result<Option<TimeOfImpact>, CcdError> {
    check([a, b, c, d], tol)?;
    Ok(first_contact(tol, |t| {
        edge_edge(
            &a.enclosure(t),
            &b.enclosure(t),
            &c.enclosure(t),
            &d.enclosure(t),
        )
        .excluded
    }))
}

fn check<'a>(points: impl IntoIterator<Item = &'a MovingPoint>, tol: f64) -> Result<(), CcdError> {
    if !(tol.is_finite() && tol > 0.0) {
        return Err(CcdError::InvalidParameter {
            what: "time tolerance",
            requirement: "must be positive and finite",
        });
    }
    if !points.into_iter().all(MovingPoint::is_finite) {
        return Err(CcdError::NonFinite { what: "point" });
    }
    Ok(())
}

/// Depth-first, earliest-first bisection of `[0, 1]`: the first interval of width `<= tol` (or
/// not splittable in `f64`) that `excluded` does not exclude, refined while the budget lasts
/// (module docs). No allocation: the pending right
/// halves form a stack of one entry per level, 80 levels deep (below `2^-80` a bracket may stay
/// wider than `tol`; its `lo` is still certified).
fn first_contact(tol: f64, mut excluded: impl FnMut(Interval) -> bool) -> Option<TimeOfImpact> {
    let mut pending = [Interval::point(0.0); 80];
    let mut top = 0usize;
    let mut t = Interval::new(0.0, 1.0);
    let mut budget = REFINE_BUDGET;
    loop {
        let fine = t.width() <= tol;
        if fine {
            budget = budget.saturating_sub(1);
        }
        if !excluded(t) {
            let mid = t.mid();
            let leaf = t.width() <= tol * REFINE_FACTOR || (fine && budget == 0);
            if leaf || mid <= t.lo || mid >= t.hi || top == pending.len() {
                return Some(TimeOfImpact { lo: t.lo, hi: t.hi });
            }
            pending[top] = Interval::new(mid, t.hi);
            top += 1;
            t = Interval::new(t.lo, mid);
            continue;
        }
        if top == 0 {
            return None;
        }
        top -= 1;
        t = pending[top];
    }
}
