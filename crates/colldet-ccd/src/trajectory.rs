//! Certified enclosures of a body's pose over a fraction interval `T = [t0, t1]`.
//!
//! For every motion of [`crate::motion`] the pose at `tau` is `x -> R(tau) x + t(tau)` (world
//! frame), and [`PoseEnclosure::over`] returns an interval matrix and an interval translation such
//! that for every real `tau` in `T` and every local point `x` the exact real value of
//! `R(tau) x + t(tau)` lies in [`PoseEnclosure::apply`]`(x)`.
//!
//! Definition of the motion (exact reals on the caller's `f64` numbers): rotations are Rodrigues'
//! formula `Rot(k, phi) = I + sin(phi) K + (1 - cos(phi)) K^2` with the `f64` axis `k` as given
//! (for [`Motion::Interpolated`], the axis and angle [`BodyMotion::interpolated_axis_angle`]
//! computed: they *are* the motion), applied to the `f64` start rotation `R0`:
//! - (a) `R0`, `t0 + tau d`;
//! - (b) `Rot(k, tau a) R0`, `Rot(k, tau a) (t0 - p) + p`;
//! - (c) for `tau <= 1/2` as (a) with `2 tau`; above, as (b) with phase `2 tau - 1` about the
//!   pivot `p + d` applied to the translated pose: `Rot (t0 - p) + p + d`;
//! - (d) `Rot(w, tau theta) R0`, `t0 + tau (t1 - t0)`.

use colldet_geom::math::{PointD, VectorD};

use crate::interval::{IVec3, Interval};
use crate::motion::{BodyMotion, Motion};

/// An interval 3x3 matrix, rows first.
pub type IMat3 = [[Interval; 3]; 3];

/// An enclosure of the pose over a fraction interval (module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PoseEnclosure {
    /// Encloses `R(tau)` entrywise.
    pub rot: IMat3,
    /// Encloses `t(tau)`.
    pub trans: IVec3,
}

impl PoseEnclosure {
    /// The enclosure of `motion`'s pose for every `tau` in `t` (`t` within `[0, 1]`).
    pub fn over(motion: &BodyMotion, t: Interval) -> Self {
        let s = &motion.start;
        let r0 = point_matrix(&s.rot);
        let t0 = IVec3::from_vector(&s.trans);
        match motion.motion {
            Motion::Translation { d } => Self {
                rot: r0,
                trans: t0 + IVec3::from_vector(&d) * t,
            },
            Motion::Rotation { pivot, axis, angle } => rotation_pose(
                &r0,
                t0,
                &pivot.coords,
                &VectorD::zeros(),
                &axis,
                t.scale(angle),
            ),
            Motion::TranslateThenRotate {
                d,
                pivot,
                axis,
                angle,
            } => {
                let first = (t.lo <= 0.5).then(|| {
                    let tt = Interval::new(t.lo, t.hi.min(0.5)).scale(2.0);
                    Self {
                        rot: r0,
                        trans: t0 + IVec3::from_vector(&d) * tt,
                    }
                });
                let second = (t.hi >= 0.5).then(|| {
                    let phase = Interval::new(t.lo.max(0.5), t.hi)
                        .scale(2.0)
                        .add_scalar(-1.0);
                    rotation_pose(&r0, t0, &pivot.coords, &d, &axis, phase.scale(angle))
                });
                match (first, second) {
                    (Some(a), Some(b)) => a.hull(&b),
                    (Some(a), None) => a,
                    (None, Some(b)) => b,
                    // Unreachable for t.lo <= t.hi; the whole motion's hull keeps it sound.
                    (None, None) => Self::over(motion, Interval::new(0.0, 1.0)),
                }
            }
            Motion::Interpolated { end } => {
                let (w, theta) = motion.interpolated_axis_angle();
                let rot = mat_mul_point(&axis_angle_enclosure(&w, t.scale(theta)), &s.rot);
                let step = IVec3::from_vector(&end.trans) - t0;
                Self {
                    rot,
                    trans: t0 + step * t,
                }
            }
        }
    }

    /// The enclosure of `motion`'s pose at the single fraction `tau` (in `[0, 1]`): as
    /// [`Self::over`] on the point interval, evaluated in `f64` with an error bound instead of
    /// interval arithmetic for motions (a) and (d) (about a tenth of the cost).
    ///
    /// Motion (d): with `phi = fl(tau theta)` and the library's `sin`/`cos` within 2 ulps, `s`
    /// and `c` are within `delta = 4u + u |phi|` of `sin`, `cos` of the exact `tau theta`
    /// (`u = 2^-53`; both are 1-Lipschitz). For an axis with `|k|^2 <= 1.01` each entry of
    /// Rodrigues' `I + s K + (1 - c) K^2` evaluated in `f64` is then within
    /// `3.1 delta + 38 u` of the exact one (the terms are bounded by 1, 1.01 and 4.04, each
    /// product and sum adds `u` of its size), and `(A R0)_ij` within `sum_l |R0_lj|` times
    /// that plus `3u` of `sum_l |A_il| |R0_lj|` (`|A_il| <= 6.1`): the radius
    /// `sum_l |R0_lj| (4 delta + 64 u)` covers both. The translation `t0 + tau (t1 - t0)` has
    /// three roundings, within `4u (|t0| + 2 |tau d|)`. Other motions, and axes of larger norm,
    /// use [`Self::over`].
    pub fn at(motion: &BodyMotion, tau: f64) -> Self {
        const U: f64 = f64::EPSILON * 0.5;
        let tiny = 1e-300;
        let s = &motion.start;
        let trans = |d: &VectorD| {
            IVec3([0, 1, 2].map(|i| {
                let step = tau * d[i];
                let c = s.trans[i] + step;
                let r = 4.0 * U * (s.trans[i].abs() + 2.0 * step.abs()) + tiny;
                Interval::new((c - r).next_down(), (c + r).next_up())
            }))
        };
        match motion.motion {
            Motion::Translation { d } => Self {
                rot: point_matrix(&s.rot),
                trans: trans(&d),
            },
            Motion::Interpolated { end } => {
                let (k, theta) = motion.interpolated_axis_angle();
                let n2 = k.norm_squared();
                let phi = tau * theta;
                if !(n2 <= 1.01 && phi.is_finite()) {
                    return Self::over(motion, Interval::point(tau));
                }
                let rot = crate::motion::axis_angle_matrix(&k, phi) * s.rot;
                let delta = 4.0 * U + U * phi.abs() + tiny;
                let entry = 4.0 * delta + 64.0 * U;
                let col = [0, 1, 2].map(|j| {
                    let sum = s.rot[(0, j)].abs() + s.rot[(1, j)].abs() + s.rot[(2, j)].abs();
                    (sum * (1.0 + 4.0 * U) * entry).next_up()
                });
                let rot = [0, 1, 2].map(|i| {
                    [0, 1, 2].map(|j| {
                        let (v, r) = (rot[(i, j)], col[j]);
                        Interval::new((v - r).next_down(), (v + r).next_up())
                    })
                });
                if !rot
                    .iter()
                    .flatten()
                    .all(|e| e.lo.is_finite() && e.hi.is_finite())
                {
                    return Self::over(motion, Interval::point(tau));
                }
                Self {
                    rot,
                    trans: trans(&(end.trans - s.trans)),
                }
            }
            _ => Self::over(motion, Interval::point(tau)),
        }
    }

    /// The enclosure of `R(tau) x + t(tau)` over the interval.
    #[inline]
    pub fn apply(&self, x: &PointD) -> IVec3 {
        let r = &self.rot;
        let row = |i: usize| {
            let v = r[i][0].scale(x.x) + r[i][1].scale(x.y) + r[i][2].scale(x.z);
            v + self.trans.0[i]
        };
        IVec3([row(0), row(1), row(2)])
    }

    /// Entrywise hull of two enclosures.
    pub fn hull(&self, o: &Self) -> Self {
        let mut rot = self.rot;
        for (i, row) in rot.iter_mut().enumerate() {
            for (j, e) in row.iter_mut().enumerate() {
                *e = e.hull(o.rot[i][j]);
            }
        }
        Self {
            rot,
            trans: self.trans.hull(&o.trans),
        }
    }
}

/// The point `x` of the body at fraction `tau` in `f64` (not certified): exactly
/// [`BodyMotion::pose_at`]`(tau).apply(x)`.
#[inline]
pub fn point_at(motion: &BodyMotion, x: &PointD, tau: f64) -> PointD {
    motion.pose_at(tau).apply(x)
}

/// `(Rot(k, phi) R0, Rot(k, phi) (t0 - p) + p + shift)` for every `phi` in `phi`.
fn rotation_pose(
    r0: &IMat3,
    t0: IVec3,
    pivot: &VectorD,
    shift: &VectorD,
    axis: &VectorD,
    phi: Interval,
) -> PoseEnclosure {
    let rot_k = axis_angle_enclosure(axis, phi);
    let p = IVec3::from_vector(pivot);
    let arm = mat_vec(&rot_k, &(t0 - p));
    PoseEnclosure {
        rot: mat_mul(&rot_k, r0),
        trans: arm + p + IVec3::from_vector(shift),
    }
}

/// Encloses Rodrigues' `I + sin(phi) K + (1 - cos(phi)) K^2` with `K` the cross-product matrix of
/// the `f64` axis `k` (not renormalised), for every `phi` in `phi`.
pub fn axis_angle_enclosure(k: &VectorD, phi: Interval) -> IMat3 {
    let s = phi.sin();
    let c1 = Interval::point(1.0) - phi.cos();
    let kx = [k.x, k.y, k.z];
    let zero = Interval::point(0.0);
    // K's entries are exact `f64`: products with them are scalings.
    let km = [
        [0.0, -kx[2], kx[1]],
        [kx[2], 0.0, -kx[0]],
        [-kx[1], kx[0], 0.0],
    ];
    // K^2 = k k^T - |k|^2 I.
    let sq = |a: f64, b: f64| Interval::point(a).scale(b);
    let n2 = sq(kx[0], kx[0]) + sq(kx[1], kx[1]) + sq(kx[2], kx[2]);
    let mut out = [[zero; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            let mut k2 = sq(kx[i], kx[j]);
            if i == j {
                k2 = k2 - n2;
            }
            let id = Interval::point(if i == j { 1.0 } else { 0.0 });
            out[i][j] = id + s.scale(km[i][j]) + c1 * k2;
        }
    }
    out
}

fn point_matrix(m: &colldet_geom::math::MatrixD) -> IMat3 {
    [0, 1, 2].map(|i| [0, 1, 2].map(|j| Interval::point(m[(i, j)])))
}

fn mat_mul(a: &IMat3, b: &IMat3) -> IMat3 {
    [0, 1, 2].map(|i| [0, 1, 2].map(|j| a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j]))
}

/// `a * b` for an exact `f64` matrix `b`.
fn mat_mul_point(a: &IMat3, b: &colldet_geom::math::MatrixD) -> IMat3 {
    [0, 1, 2].map(|i| {
        [0, 1, 2]
            .map(|j| a[i][0].scale(b[(0, j)]) + a[i][1].scale(b[(1, j)]) + a[i][2].scale(b[(2, j)]))
    })
}

fn mat_vec(a: &IMat3, v: &IVec3) -> IVec3 {
    IVec3([0, 1, 2].map(|i| a[i][0] * v.0[0] + a[i][1] * v.0[1] + a[i][2] * v.0[2]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::motion::{RigidPose, axis_angle_matrix};

    fn contains(b: &IVec3, p: &PointD) -> bool {
        (0..3).all(|i| b.0[i].lo <= p[i] && p[i] <= b.0[i].hi)
    }

    #[test]
    fn enclosures_contain_sampled_poses() {
        let axis = VectorD::new(1.0, 2.0, -2.0) / 3.0;
        let start = RigidPose::new(
            axis_angle_matrix(&VectorD::new(0.0, 0.6, 0.8), 0.7),
            VectorD::new(1.0, -2.0, 0.5),
        );
        let end = RigidPose::new(axis_angle_matrix(&axis, 2.5), VectorD::new(-3.0, 1.0, 4.0));
        let motions = [
            Motion::Translation {
                d: VectorD::new(1.0, 2.0, 3.0),
            },
            Motion::Rotation {
                pivot: PointD::new(0.5, 0.0, 1.0),
                axis,
                angle: 4.0,
            },
            Motion::TranslateThenRotate {
                d: VectorD::new(0.0, 1.0, -1.0),
                pivot: PointD::new(0.5, 0.0, 1.0),
                axis,
                angle: -2.0,
            },
            Motion::Interpolated { end },
        ];
        let x = PointD::new(0.3, -1.2, 2.0);
        for m in motions {
            let bm = BodyMotion::new(start, m).unwrap();
            for (a, b) in [(0.0, 1.0), (0.2, 0.3), (0.45, 0.55), (0.7, 0.7 + 1e-9)] {
                let enc = PoseEnclosure::over(&bm, Interval::new(a, b)).apply(&x);
                for k in 0..=100 {
                    let tau = a + (b - a) * f64::from(k) / 100.0;
                    // The single-fraction enclosure contains the f64 evaluation (within about
                    // 1e-16 of the exact pose) without slack, and is tight.
                    let at = PoseEnclosure::at(&bm, tau).apply(&x);
                    assert!(contains(&at, &point_at(&bm, &x, tau)), "{m:?} {tau} {at:?}");
                    assert!(at.0.iter().all(|i| i.width() < 1e-12), "{at:?}");
                    let p = point_at(&bm, &x, tau);
                    // f64 evaluation differs from the exact one by rounding: a tiny slack.
                    let grown = IVec3(enc.0.map(|i| Interval::new(i.lo - 1e-12, i.hi + 1e-12)));
                    assert!(contains(&grown, &p), "{m:?} {tau} {p:?} {enc:?}");
                }
            }
        }
    }
}
