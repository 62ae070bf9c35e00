//! Second-order lower bounds of the gap between two bodies along a separating axis that turns
//! with one of them, for the certified conservative advancement of [`crate::general_sweep`].
//!
//! Motions (a) and (d) move a body's point `x` (local frame) as
//! `x(tau) = Rot(w, tau theta) y + t(tau)`, `t(tau) = t0 + tau v`, with `y = R0 x`, a unit axis
//! `w`, the angle `theta` and the linear velocity `v` (world frame): its velocity is
//! `v + theta w x (x - t)` and its acceleration `-theta^2 (x - t)_perp`, of constant length
//! `|w x y|` (the point's arc radius about the axis).
//!
//! At a fraction `lo` let `m` separate body `X` (below) from body `Y` (above), and let the axis
//! turn with `X`: `n(lo + s) = Rot(w_X, theta_X s) m`. `X`'s points keep their projections
//! relative to its origin, `n . (x_i - t_X) = m . (x_i(lo) - t_X(lo))`, so the gap along `n` is
//! at least `min_j phi_j(s) - C_X` with `C_X = max_i m . (x_i(lo) - t_X(lo))` and
//! `phi_j(s) = n(s) . z_j(s)`, `z_j = y_j - t_X` for `Y`'s vertices `y_j`. With `u = w_X x m`:
//! - `phi_j'(0) = theta_X u . z_j + m . (v_Y - v_X) + theta_Y (m x w_Y) . (y_j - t_Y)`;
//! - `|phi_j''| <= theta_X^2 |u| |z_j| + 2 |theta_X| |u| |z_j'| + a theta_Y^2 arc_j` with
//!   `|z_j'| <= |v_Y - v_X| + |theta_Y| arc_j`, `|z_j(s)| <= |z_j(0)| + s |z_j'|`, and `a` the
//!   part of `n` across `w_Y` (`|m x w_Y|` when `X` does not turn, else `|m|`).
//!
//! By Taylor's theorem with the Lagrange remainder each `phi_j(s) - C_X` is at least the
//! [`Descent`] `c0 + c1 s - c2 s^2 / 2` over `s` in `[0, S]` (`c2` bounds `|phi_j''|` there), and
//! the first root of the smallest is a certified free time. Where the speed bound (the largest
//! rate of any point times the time) shrinks the free time by a constant factor per step, this
//! bound is tight to second order: near a contact of a vertex of `Y` with a face of `X`
//! (turning with it) the advancement converges like Newton's method.
//!
//! Rounding: the vertex enclosures at `lo` (boxes `c_i +- rad` with `rad <= rmax` and
//! `|c_i| + rad <= mag`; the translations in `tc +- trad`) bound the positions; the `f64`
//! products add at most `8 eps` of the magnitudes. The slopes are evaluated at the centres with
//! the radii added and a slack of `1e-9 |m|` times the speeds (`|v_X| + |v_Y| + spin_Y +
//! |theta_X| |z_j|`), which covers the rounding of the products (about `1e-15` of that size), of
//! the velocities (`f64` differences) and of the axes (nalgebra's unit axes, within a few ulps
//! of unit length, where the formulas above hold to that relative precision). `C_X` gets
//! `1e-12 |m| radius_X` for the same reason when `X` turns (Rodrigues' formula with an axis a
//! few ulps off unit length composes rotations to that precision), the curvature the factor
//! `1 + 1e-5`, the arc radii `1e-12 |y|`.

use colldet_geom::math::VectorD;

/// Relative margin of the second-derivative bound.
const CURVATURE_MARGIN: f64 = 1e-5;
/// Relative slack of the first derivative (module docs).
const RATE_SLACK: f64 = 1e-9;
/// Unit roundoff, the relative error of the `f64` products and sums (with room: `8 eps`).
const ROUNDING: f64 = 8.0 * f64::EPSILON;

/// A body's motion (a) or (d) as the bounds need it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AxialMotion {
    /// Linear velocity (per unit fraction), world frame.
    pub v: VectorD,
    /// Unit rotation axis, world frame.
    pub w: VectorD,
    /// Rotation angle over the whole motion, radians (0 for a translation).
    pub theta: f64,
    /// `|theta|` times `radius`: the points' largest rotational speed.
    pub spin: f64,
    /// A bound of `|R0 x|` over the body's points.
    pub radius: f64,
}

impl AxialMotion {
    /// The arc radius `|w x y|` of a point `y = R0 x` about the axis, rounded up (module docs).
    pub fn arc_radius(&self, y: &VectorD) -> f64 {
        (self.w.cross(y).norm() + 1e-12 * y.norm()) * (1.0 + 1e-12)
    }
}

/// The lower bound `c0 + c1 s - c2 s^2 / 2` (`c2 >= 0`) of a function of `s >= 0`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Descent {
    /// Value at `s = 0`.
    pub c0: f64,
    /// Slope at `s = 0`.
    pub c1: f64,
    /// Bound of the curvature.
    pub c2: f64,
}

impl Descent {
    /// A fraction `s >= 0` such that the bound is positive on `[0, s)`: its first root rounded
    /// down (infinite when it never reaches 0, 0 when it starts at or below 0 or for NaN).
    ///
    /// The positive root of `c0 + c1 s - c2 s^2 / 2` is `(c1 + sqrt(D)) / c2` with
    /// `D = c1^2 + 2 c2 c0`, for `c1 < 0` evaluated as `2 c0 / (sqrt(D) - c1)` (no cancellation;
    /// also for `c2 = 0`: `c0 / -c1`); every operation is rounded towards the smaller root.
    #[inline]
    pub fn free_time(self) -> f64 {
        let Self { c0, c1, c2 } = self;
        if c0.is_nan() || c0 <= 0.0 || c1.is_nan() || c2.is_nan() {
            return 0.0;
        }
        if c2 == 0.0 && c1 >= 0.0 {
            return f64::INFINITY;
        }
        let s = if c1 < 0.0 {
            let disc = ((c1 * c1).next_up() + 2.0 * (c2 * c0).next_up()).next_up();
            let den = (disc.sqrt().next_up() - c1).next_up();
            (2.0 * c0 / den).next_down()
        } else {
            let disc = ((c1 * c1).next_down() + 2.0 * (c2 * c0).next_down()).next_down();
            let num = (c1 + disc.sqrt().next_down()).next_down();
            (num / c2).next_down()
        };
        if s >= 0.0 { s } else { 0.0 }
    }
}

/// A body's vertices enclosed at one fraction `lo`, with its motion.
pub struct BodyAt<'a> {
    /// Box centres.
    pub centres: &'a [[f64; 3]],
    /// A bound of every box's radius, per coordinate.
    pub rmax: [f64; 3],
    /// A bound of `|c_i| + rad_i` over the boxes, per coordinate.
    pub mag: [f64; 3],
    /// Centre and radius of the enclosure of the translation `t(lo)`.
    pub trans: ([f64; 3], [f64; 3]),
    /// Arc radii of the vertices ([`AxialMotion::arc_radius`]), in the order of `centres`.
    pub arcs: &'a [f64],
    /// The motion.
    pub motion: AxialMotion,
}

/// `sum_k |m_k| a_k`.
#[inline]
fn weigh(m: &VectorD, a: [f64; 3]) -> f64 {
    m.x.abs() * a[0] + m.y.abs() * a[1] + m.z.abs() * a[2]
}

#[inline]
fn add3(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// A certified free time of the gap along `m` turning with `x` (module docs), where `m` points
/// from `x` towards `y` at `lo`, for the next `horizon` of the fraction at most: the bodies do
/// not touch in `[lo, lo + result)`. Zero when `m` does not separate them at `lo`.
pub fn attached_free_time(x: &BodyAt<'_>, y: &BodyAt<'_>, m: &VectorD, horizon: f64) -> f64 {
    let (mx, my) = (&x.motion, &y.motion);
    let (tx, tx_rad) = x.trans;
    let (ty, ty_rad) = y.trans;
    let tiny = f64::from_bits(0x0030_0000_0000_0000);
    let m_len = m.norm();
    // C_X: X's highest vertex relative to its origin.
    let mut top = f64::NEG_INFINITY;
    for c in x.centres {
        top = top.max(m.x * (c[0] - tx[0]) + m.y * (c[1] - tx[1]) + m.z * (c[2] - tx[2]));
    }
    let turns = mx.theta != 0.0;
    let rigid = if turns {
        1e-12 * m_len * (mx.radius + x.rmax.iter().sum::<f64>())
    } else {
        0.0
    };
    let top = top
        + weigh(m, add3(x.rmax, tx_rad))
        + ROUNDING * weigh(m, add3(add3(x.mag, tx.map(f64::abs)), tx_rad))
        + rigid
        + tiny;
    // Y's vertices relative to X's origin: value errors.
    let box_x = add3(y.rmax, tx_rad);
    let err0 =
        weigh(m, box_x) + ROUNDING * weigh(m, add3(add3(y.mag, tx.map(f64::abs)), tx_rad)) + tiny;
    let u_x = mx.w.cross(m);
    let u_y = m.cross(&my.w);
    let (ux_len, uy_len) = (u_x.norm(), u_y.norm());
    let dv = my.v - mx.v;
    let lin = m.dot(&dv);
    let dv_len = dv.norm() * (1.0 + 1e-12);
    let slope_spread =
        mx.theta.abs() * weigh(&u_x, box_x) + my.theta.abs() * weigh(&u_y, add3(y.rmax, ty_rad));
    let speeds = mx.v.norm() + my.v.norm() + my.spin;
    let box_len: f64 = box_x.iter().sum();
    let across_y = if turns { m_len } else { uy_len };
    let (tx2, ty2) = (mx.theta * mx.theta, my.theta * my.theta);
    let horizon = (horizon * (1.0 + 1e-9)).next_up();
    let mut best = f64::INFINITY;
    for (c, arc) in y.centres.iter().zip(y.arcs) {
        let z = [c[0] - tx[0], c[1] - tx[1], c[2] - tx[2]];
        let q = [c[0] - ty[0], c[1] - ty[1], c[2] - ty[2]];
        let z_len = (z[0] * z[0] + z[1] * z[1] + z[2] * z[2]).sqrt() + box_len;
        let value = m.x * z[0] + m.y * z[1] + m.z * z[2];
        let slope = mx.theta * (u_x.x * z[0] + u_x.y * z[1] + u_x.z * z[2])
            + lin
            + my.theta * (u_y.x * q[0] + u_y.y * q[1] + u_y.z * q[2]);
        let slack = RATE_SLACK * m_len * (speeds + mx.theta.abs() * z_len) + 1e-300;
        let rate = dv_len + my.theta.abs() * arc;
        let reach = z_len + horizon * rate;
        let curvature =
            (tx2 * ux_len * reach + 2.0 * mx.theta.abs() * ux_len * rate + across_y * ty2 * arc)
                * (1.0 + CURVATURE_MARGIN);
        let d = Descent {
            c0: ((value - err0) - top).next_down(),
            c1: (slope - (slope_spread + slack)).next_down(),
            c2: curvature.next_up(),
        };
        best = best.min(d.free_time());
    }
    if best.is_nan() {
        0.0
    } else {
        best.min(horizon)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_time_is_the_first_root_rounded_down() {
        // 1 - s: root 1.
        let d = Descent {
            c0: 1.0,
            c1: -1.0,
            c2: 0.0,
        };
        let s = d.free_time();
        assert!(s <= 1.0 && s > 1.0 - 1e-15, "{s}");
        // 2 + s - s^2 (c2 = 2): roots -1 and 2.
        let d = Descent {
            c0: 2.0,
            c1: 1.0,
            c2: 2.0,
        };
        let s = d.free_time();
        assert!(s <= 2.0 && s > 2.0 - 1e-14, "{s}");
        // Never falls: infinite; starts at 0: none.
        let up = Descent {
            c0: 1.0,
            c1: 0.5,
            c2: 0.0,
        };
        assert_eq!(up.free_time(), f64::INFINITY);
        assert_eq!(Descent { c0: 0.0, ..up }.free_time(), 0.0);
        assert_eq!(Descent { c1: f64::NAN, ..up }.free_time(), 0.0);
    }

    #[test]
    fn free_times_are_certified_on_random_quadratics() {
        // The bound must stay positive on [0, s) (checked at s rounded down a little, where
        // an exact evaluation in f64 has room) and s must be near the real root.
        let mut rng = colldet_testkit::rng::SeededRng::new(7);
        for _ in 0..10_000 {
            let d = Descent {
                c0: rng.range(1e-12, 2.0),
                c1: rng.range(-3.0, 1.0),
                c2: rng.range(0.0, 5.0),
            };
            let s = d.free_time();
            let f = |s: f64| d.c0 + d.c1 * s - 0.5 * d.c2 * s * s;
            // The stable form of the root, rounded to nearest (a few ulps off).
            let sq = (d.c1 * d.c1 + 2.0 * d.c2 * d.c0).sqrt();
            let root = if d.c1 < 0.0 {
                2.0 * d.c0 / (sq - d.c1)
            } else if d.c2 > 0.0 {
                (d.c1 + sq) / d.c2
            } else {
                f64::INFINITY
            };
            assert!(s <= root * (1.0 + 1e-14), "{d:?} {s} {root}");
            assert!(s >= root * (1.0 - 1e-12), "{d:?} {s} {root}");
            if s.is_finite() {
                assert!(f(s * (1.0 - 1e-9)) > 0.0, "{d:?} {s}");
            }
        }
    }
}
