//! The convex pair tests of Zachmann's thesis (section 3.4), corrected where the thesis is wrong.
//!
//! * [`cyrus_beck`]: the modified Cyrus-Beck test (clip every edge of each polyhedron by the other's
//!   face half-spaces), exact for both answers.
//! * [`separating_planes`]: the perceptron that searches a separating plane in homogeneous `R^4`.
//!   Biased: "separated" is certain, "no plane found" may be a false collision.
//!
//! Both take two [`Polyhedron`](colldet_geom::Polyhedron)s and `pos12`, the pose of shape 2 in
//! shape 1's frame, like the rest of the crate. They are references for the thesis's claims (and
//! the separating-plane test is a cheap early "no" for a persistent pair); GJK
//! ([`crate::gjk_intersect`]) is the production convex test.

pub mod cyrus_beck;
pub mod separating_planes;

pub use cyrus_beck::{ClipWitness, CyrusBeckStatus, CyrusBeckWorkspace, cyrus_beck_intersect};
pub use separating_planes::{
    PerceptronOptions, PlaneResult, SeparatingPlane, SeparatingPlaneCache, separating_plane,
};

use crate::NarrowError;
use colldet_geom::math::{PointD, VectorD};
use nalgebra::Matrix3;

/// Which member of a pair a witness refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PairMember {
    /// The first shape of the query (`p1`), whose frame `pos12` maps into.
    Shape1,
    /// The second shape of the query (`p2`).
    Shape2,
}

/// `pos12` widened to `f64`: `x1 = rot * x2 + trans` maps shape 2's local coordinates into shape
/// 1's. The quaternion is renormalised in `f64`, so `rot` is orthonormal to about `1e-16`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame12 {
    pub rot: Matrix3<f64>,
    pub rot_t: Matrix3<f64>,
    pub trans: VectorD,
}

impl Frame12 {
    /// Widens and checks `pos12`.
    ///
    /// # Errors
    /// [`NarrowError::NonFinite`] for a NaN or infinite translation or rotation (or a quaternion
    /// too far from unit length to be a rotation).
    pub(crate) fn new<P: crate::RelativePose + ?Sized>(pos12: &P) -> Result<Self, NarrowError> {
        let (rot, trans) = pos12.widened_parts()?;
        Ok(Self {
            rot,
            rot_t: rot.transpose(),
            trans,
        })
    }

    /// A point of shape 2's frame in shape 1's frame.
    #[inline]
    pub(crate) fn in_frame1(&self, x2: &PointD) -> PointD {
        PointD::from(self.rot * x2.coords + self.trans)
    }

    /// A point of shape 1's frame in shape 2's frame.
    #[inline]
    pub(crate) fn in_frame2(&self, x1: &PointD) -> PointD {
        PointD::from(self.rot_t * (x1.coords - self.trans))
    }
}
