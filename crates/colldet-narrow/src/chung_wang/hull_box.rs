//! The Chung-Wang test's bounding-box pre-test, on boxes a caller may keep: a polytope's local
//! bounding box and radius ([`HullBox`]), made once per shape, and the 15-axis test of two of
//! them placed by a relative pose ([`HullBox::separated`]).
//!
//! Rationale: a caller holding many pairs (the world) can run the very test the query would run
//! first, with the same arithmetic and the same margin, before it sets up the query at all; a
//! pair it declares separated is one the query would have declared separated by its pre-test.

use super::separating_vector::pair_tolerances;
use crate::RelativePose;
use crate::box_sat::PlacedBoxes;
use colldet_geom::math::{VectorD, to_f64};
use colldet_geom::{Aabb, ConvexPolytope};
use nalgebra::Matrix3;

/// A convex polytope's local axis-aligned bounding box
/// ([`ConvexPolytope::local_aabb`]) as centre and half extents, and its
/// [`radius`](ConvexPolytope::radius), in `f64` (exact from the `f32` corners; the centre and
/// half extents are `f64` roundings), in the polytope's local frame and units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HullBox {
    centre: VectorD,
    half: VectorD,
    radius: f64,
    /// The polytope's [`ConvexPolytope::vertex_rounding`].
    rounding: f64,
    /// The axis of the largest half extent.
    long: usize,
}

impl HullBox {
    /// The box of `polytope`.
    pub fn of(polytope: &ConvexPolytope) -> Self {
        Self::of_box(
            polytope.local_aabb(),
            f64::from(polytope.radius()),
            polytope.vertex_rounding(),
        )
    }

    /// The box `b` of a point set of radius `radius` (largest distance from the local origin)
    /// whose `f32` copies are within `rounding` of the points as given.
    pub fn of_box(b: &Aabb, radius: f64, rounding: f64) -> Self {
        let (lo, hi) = (to_f64(&b.mins), to_f64(&b.maxs));
        let half = (hi - lo) * 0.5;
        Self {
            centre: (lo.coords + hi.coords) * 0.5,
            half,
            radius,
            rounding,
            long: half.imax(),
        }
    }

    /// True when this box and `other`'s, placed by `pos12` (`other`'s pose in this box's frame),
    /// are separated by more than the pair's touching band plus rounding noise along one of the
    /// 15 box axes: exactly the pre-test [`super::chung_wang_intersect`] runs for the two
    /// polytopes (same arithmetic, same margin), so `true` means the query would answer
    /// [`super::ChungWangStatus::Separated`]. False for a non-finite `pos12` (the query reports
    /// that).
    #[inline]
    pub fn separated(&self, other: &Self, pos12: &(impl RelativePose + ?Sized)) -> bool {
        let Ok((rot, trans)) = pos12.widened_parts() else {
            return false;
        };
        let (tol, noise) = pair_tolerances(
            self.radius + other.radius,
            &trans,
            self.rounding + other.rounding,
        );
        self.separated_by(other, &rot, &trans, tol + noise)
    }

    /// The 15-axis test with the margin given: `rot`, `trans` place `other` in this box's frame.
    ///
    /// The cross product of the two boxes' long axes is tried first, with the very function the
    /// 15-axis test uses for it ([`PlacedBoxes::edge_axis_separates`]): long thin hulls (rods)
    /// whose boxes are apart are usually separated along their common perpendicular, the
    /// 15-axis test's last group. The answer is the same (separated when some axis separates,
    /// in any order).
    #[inline]
    pub(super) fn separated_by(
        &self,
        other: &Self,
        rot: &Matrix3<f64>,
        trans: &VectorD,
        margin: f64,
    ) -> bool {
        let t = rot * other.centre + trans - self.centre;
        let abs = rot.abs();
        let boxes = PlacedBoxes {
            t: &t,
            c: rot,
            abs_c: &abs,
            h1: &self.half,
            h2: &other.half,
        };
        boxes.edge_axis_separates(self.long, other.long, margin) || !boxes.overlap_15(margin)
    }
}
