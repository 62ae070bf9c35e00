//! Motions of a rigid body over the fraction `tau` in `[0, 1]`, all in the world frame.
//!
//! A body is at its start pose `(R0, t0)` at `tau = 0` (a point `x` of its local frame is at
//! `R0 x + t0`). The motions:
//! - (a) [`Motion::Translation`]: `R0 x + t0 + tau d`.
//! - (b) [`Motion::Rotation`]: rotation by `tau * angle` (radians, right-handed about `axis`)
//!   about the line through `pivot` along the unit `axis`.
//! - (c) [`Motion::TranslateThenRotate`]: the DOOM III composition. The first half of the
//!   fraction translates by `d` (`tau` in `[0, 1/2]` covers the whole translation), the second
//!   half rotates by `angle` about the axis placed at the translated pivot `pivot + d`.
//! - (d) [`Motion::Interpolated`]: an engine's frame-to-frame motion to the end pose `(R1, t1)`:
//!   position `(1 - tau) t0 + tau t1`, rotation `Rot(w, tau theta) R0` where `Rot(w, theta) =
//!   R1 R0^T` is the shortest arc (`theta` in `[0, pi]`), the slerp of the two orientations about
//!   the body's origin (as `FORMAT.md` of the benchmark scenes defines CCD motion).

use colldet_geom::math::{MatrixD, PointD, VectorD};

use crate::error::CcdError;

/// A rigid pose in `f64`: `x -> rot * x + trans`. `rot` is a rotation matrix (the caller's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RigidPose {
    /// Rotation (local to world).
    pub rot: MatrixD,
    /// Translation (world position of the local origin).
    pub trans: VectorD,
}

impl RigidPose {
    /// The identity pose.
    pub fn identity() -> Self {
        Self {
            rot: MatrixD::identity(),
            trans: VectorD::zeros(),
        }
    }

    /// A pose from a rotation matrix and a translation.
    pub fn new(rot: MatrixD, trans: VectorD) -> Self {
        Self { rot, trans }
    }

    /// A pure translation.
    pub fn from_translation(trans: VectorD) -> Self {
        Self {
            rot: MatrixD::identity(),
            trans,
        }
    }

    /// `rot * x + trans`, in `f64` (one rounding per operation).
    #[inline]
    pub fn apply(&self, x: &PointD) -> PointD {
        PointD::from(self.rot * x.coords + self.trans)
    }

    /// True when every entry is finite.
    pub fn is_finite(&self) -> bool {
        self.rot
            .iter()
            .chain(self.trans.iter())
            .all(|c| c.is_finite())
    }
}

/// The rotation by `angle` radians about the unit `axis` (Rodrigues' formula in `f64`).
pub fn axis_angle_matrix(axis: &VectorD, angle: f64) -> MatrixD {
    let (s, c) = angle.sin_cos();
    let k = MatrixD::new(
        0.0, -axis.z, axis.y, //
        axis.z, 0.0, -axis.x, //
        -axis.y, axis.x, 0.0,
    );
    MatrixD::identity() + k * s + k * k * (1.0 - c)
}

/// The shortest-arc rotation `Rot(axis, angle) = r1 * r0^T` between two rotation matrices, as a
/// unit axis and an angle in `[0, pi]` (axis `+x` and angle 0 when they are equal).
pub fn relative_axis_angle(r0: &MatrixD, r1: &MatrixD) -> (VectorD, f64) {
    let m = r1 * r0.transpose();
    let rot = nalgebra::Rotation3::from_matrix_unchecked(m);
    match rot.axis_angle() {
        Some((axis, angle)) => (axis.into_inner(), angle),
        None => (VectorD::x(), 0.0),
    }
}

/// How a body moves over the fraction `tau` in `[0, 1]` from its start pose (module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Motion {
    /// (a) Translation by `d` (world frame).
    Translation {
        /// The displacement over the whole motion.
        d: VectorD,
    },
    /// (b) Rotation by `angle` radians about the line through `pivot` along the unit `axis`.
    Rotation {
        /// A point of the rotation axis, world frame.
        pivot: PointD,
        /// Unit direction of the axis (right-handed rotation).
        axis: VectorD,
        /// Total rotation angle, radians (any sign, any magnitude).
        angle: f64,
    },
    /// (c) Translation by `d` over the first half of the fraction, then rotation by `angle` about
    /// the axis through `pivot + d` over the second half.
    TranslateThenRotate {
        /// The displacement of the first half.
        d: VectorD,
        /// A point of the rotation axis before the translation.
        pivot: PointD,
        /// Unit axis direction.
        axis: VectorD,
        /// Rotation angle of the second half, radians.
        angle: f64,
    },
    /// (d) Linear position and shortest-arc slerp of the orientation to `end`.
    Interpolated {
        /// The pose at `tau = 1`.
        end: RigidPose,
    },
}

/// A body's motion resolved into the form the sweeps evaluate: for every `tau`, the pose
/// `x -> Rot(axis, phase_angle) * (R x + s) + ...`. Built once per query by [`BodyMotion::new`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyMotion {
    /// The pose at `tau = 0`.
    pub start: RigidPose,
    /// The motion.
    pub motion: Motion,
    /// Shortest-arc axis and angle of [`Motion::Interpolated`] (unused otherwise).
    interp_axis: VectorD,
    interp_angle: f64,
}

impl BodyMotion {
    /// Checks the motion and precomputes what its evaluation needs.
    ///
    /// # Errors
    /// [`CcdError::NonFinite`] for a NaN or infinite entry; [`CcdError::InvalidParameter`] for an
    /// axis that is not of unit length (within `1e-6`).
    pub fn new(start: RigidPose, motion: Motion) -> Result<Self, CcdError> {
        if !start.is_finite() {
            return Err(CcdError::NonFinite { what: "start pose" });
        }
        let check_axis = |axis: &VectorD| -> Result<(), CcdError> {
            if !axis.iter().all(|c| c.is_finite()) {
                return Err(CcdError::NonFinite {
                    what: "rotation axis",
                });
            }
            if (axis.norm() - 1.0).abs() > 1e-6 {
                return Err(CcdError::InvalidParameter {
                    what: "rotation axis",
                    requirement: "must have unit length",
                });
            }
            Ok(())
        };
        let (mut interp_axis, mut interp_angle) = (VectorD::x(), 0.0);
        match &motion {
            Motion::Translation { d } => {
                if !d.iter().all(|c| c.is_finite()) {
                    return Err(CcdError::NonFinite {
                        what: "translation",
                    });
                }
            }
            Motion::Rotation { pivot, axis, angle } => {
                check_axis(axis)?;
                if !(pivot.iter().all(|c| c.is_finite()) && angle.is_finite()) {
                    return Err(CcdError::NonFinite { what: "rotation" });
                }
            }
            Motion::TranslateThenRotate {
                d,
                pivot,
                axis,
                angle,
            } => {
                check_axis(axis)?;
                if !(d.iter().chain(pivot.iter()).all(|c| c.is_finite()) && angle.is_finite()) {
                    return Err(CcdError::NonFinite { what: "motion" });
                }
            }
            Motion::Interpolated { end } => {
                if !end.is_finite() {
                    return Err(CcdError::NonFinite { what: "end pose" });
                }
                (interp_axis, interp_angle) = relative_axis_angle(&start.rot, &end.rot);
            }
        }
        Ok(Self {
            start,
            motion,
            interp_axis,
            interp_angle,
        })
    }

    /// A body that does not move.
    pub fn stationary(start: RigidPose) -> Self {
        Self {
            start,
            motion: Motion::Translation {
                d: VectorD::zeros(),
            },
            interp_axis: VectorD::x(),
            interp_angle: 0.0,
        }
    }

    /// Shortest-arc axis and angle of an interpolated motion (`(+x, 0)` for the other motions).
    pub fn interpolated_axis_angle(&self) -> (VectorD, f64) {
        (self.interp_axis, self.interp_angle)
    }

    /// True when the body's orientation never changes (a translation, or a rotation by zero).
    pub fn is_translation(&self) -> bool {
        match self.motion {
            Motion::Translation { .. } => true,
            Motion::Rotation { angle, .. } | Motion::TranslateThenRotate { angle, .. } => {
                angle == 0.0
            }
            Motion::Interpolated { end } => end.rot == self.start.rot,
        }
    }

    /// The displacement of a translation-only motion (see [`Self::is_translation`]).
    pub fn translation(&self) -> VectorD {
        match self.motion {
            Motion::Translation { d } | Motion::TranslateThenRotate { d, .. } => d,
            Motion::Rotation { .. } => VectorD::zeros(),
            Motion::Interpolated { end } => end.trans - self.start.trans,
        }
    }

    /// The pose at fraction `tau` (evaluated in `f64`, not certified: the sweeps bound it).
    pub fn pose_at(&self, tau: f64) -> RigidPose {
        let s = &self.start;
        match self.motion {
            Motion::Translation { d } => RigidPose::new(s.rot, s.trans + d * tau),
            Motion::Rotation { pivot, axis, angle } => rotate_about(s, &pivot, &axis, angle * tau),
            Motion::TranslateThenRotate {
                d,
                pivot,
                axis,
                angle,
            } => {
                if tau <= 0.5 {
                    RigidPose::new(s.rot, s.trans + d * (2.0 * tau))
                } else {
                    let moved = RigidPose::new(s.rot, s.trans + d);
                    rotate_about(&moved, &(pivot + d), &axis, angle * (2.0 * tau - 1.0))
                }
            }
            Motion::Interpolated { end } => {
                let r = axis_angle_matrix(&self.interp_axis, self.interp_angle * tau) * s.rot;
                RigidPose::new(r, s.trans * (1.0 - tau) + end.trans * tau)
            }
        }
    }

    /// The pose at `tau = 1`.
    pub fn end_pose(&self) -> RigidPose {
        match self.motion {
            Motion::Interpolated { end } => end,
            _ => self.pose_at(1.0),
        }
    }

    /// An upper bound of the speed (length per unit `tau`) of any point within distance `radius`
    /// of the body's origin... and of the rotation pivot: `|d| + |angle| * reach` per phase.
    /// `radius` bounds `|R0 x|` over the body's points.
    pub fn speed_bound(&self, radius: f64) -> f64 {
        let s = &self.start;
        let bound = match self.motion {
            Motion::Translation { d } => d.norm(),
            Motion::Rotation { pivot, angle, .. } => {
                angle.abs() * ((s.trans - pivot.coords).norm() + radius)
            }
            Motion::TranslateThenRotate {
                d, pivot, angle, ..
            } => {
                let reach = (s.trans - pivot.coords).norm() + radius;
                // Each phase takes half the fraction: speeds double.
                2.0 * d.norm().max(angle.abs() * reach)
            }
            Motion::Interpolated { end } => {
                (end.trans - s.trans).norm() + self.interp_angle.abs() * radius
            }
        };
        // Rounding of the evaluation: a relative margin.
        bound * (1.0 + 1e-12)
    }
}

/// `pose` rotated by `angle` about the line through `pivot` along `axis`.
fn rotate_about(pose: &RigidPose, pivot: &PointD, axis: &VectorD, angle: f64) -> RigidPose {
    let r = axis_angle_matrix(axis, angle);
    RigidPose::new(r * pose.rot, r * (pose.trans - pivot.coords) + pivot.coords)
}
