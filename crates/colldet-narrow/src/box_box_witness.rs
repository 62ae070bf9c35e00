//! A point common to two boxes, the witness of the box-box test.
//!
//! # Frame
//! Everything here is in box 1's *box frame* (its centre and axes, as in [`crate::box_box`]):
//! box 1 is `|x_k| <= h1_k`, box 2 is `|b_m . (x - d)| <= h2_m` with `b_m` the columns of `C`.
//!
//! # Why the search always succeeds
//! The intersection of two boxes is a convex polytope. When it has a vertex, that vertex lies on
//! three facets of the two boxes, so it is either a corner of one box inside the other, or the
//! point where an edge of one box crosses a face of the other. Either way it lies on an edge of
//! one box and inside the other, so clipping the 12 edges of each box against the other box finds
//! a common point whenever the boxes intersect with a non-empty interior (a bounded convex set
//! that is not empty has a vertex). The search starts with the two corners that support the axis
//! of least overlap (most often one of them is inside the other box), then clips edges, and stops
//! at the first clipped piece whose midpoint passes the explicit `f64` containment check.

use colldet_geom::math::{PointD, VectorD};

use crate::NarrowError;
use crate::RelativePose;
use crate::box_box::PairFrame;
use crate::box_hull::{BoxHull, corner_signs};
use crate::cso::NOISE_FACTOR;
use crate::gjk::TOUCHING_TOLERANCE_FACTOR;

/// Two boxes in box 1's box frame: box 2's axes (columns of `c`, stored by rows `c[k][m]` =
/// component `k` of axis `m`), its centre `d`, the half extents the search uses, and the
/// rounding allowance of the containment check (points built on one box's boundary evaluate a
/// few ulps outside it).
pub(crate) struct BoxPair<'a> {
    pub c: &'a [[f64; 3]; 3],
    pub d: &'a [f64; 3],
    pub h1: [f64; 3],
    pub h2: [f64; 3],
    pub rounding: f64,
}

impl BoxPair<'_> {
    /// `x` (box 1's box frame) in box 2's box frame.
    fn box1_to_box2(&self, x: &[f64; 3]) -> [f64; 3] {
        let r = [x[0] - self.d[0], x[1] - self.d[1], x[2] - self.d[2]];
        std::array::from_fn(|m| r[0] * self.c[0][m] + r[1] * self.c[1][m] + r[2] * self.c[2][m])
    }

    /// `y` (box 2's box frame) in box 1's box frame.
    fn box2_to_box1(&self, y: &[f64; 3]) -> [f64; 3] {
        std::array::from_fn(|k| {
            self.d[k] + self.c[k][0] * y[0] + self.c[k][1] * y[1] + self.c[k][2] * y[2]
        })
    }

    /// Is `x` (box 1's box frame) in both boxes, up to the rounding allowance?
    fn contains(&self, x: &[f64; 3]) -> bool {
        let y = self.box1_to_box2(x);
        let e = self.rounding;
        (0..3).all(|k| x[k].abs() <= self.h1[k] + e && y[k].abs() <= self.h2[k] + e)
    }

    /// Box 2's corner `bits` in box 1's box frame.
    fn corner2(&self, bits: usize) -> [f64; 3] {
        let s = corner_signs(bits);
        self.box2_to_box1(&[s.x * self.h2[0], s.y * self.h2[1], s.z * self.h2[2]])
    }

    /// Box 1's corner `bits` (box 1's box frame).
    fn corner1(&self, bits: usize) -> [f64; 3] {
        let s = corner_signs(bits);
        [s.x * self.h1[0], s.y * self.h1[1], s.z * self.h1[2]]
    }

    /// A point of both boxes: first the given corners of box 2 and box 1 (box 2's deepest into
    /// box 1 and box 1's into box 2), then the edges of each clipped against the other. `None`
    /// when every candidate fails the containment check (the boxes do not overlap with an
    /// interior, up to rounding).
    pub(crate) fn common_point(&self, corner2: usize, corner1: usize) -> Option<[f64; 3]> {
        let first = self.corner2(corner2);
        if self.contains(&first) {
            return Some(first);
        }
        let second = self.corner1(corner1);
        if self.contains(&second) {
            return Some(second);
        }
        // Box 2's edges along axis `m` in box 1's frame, clipped against box 1.
        for m in 0..3 {
            let step: [f64; 3] = std::array::from_fn(|k| 2.0 * self.h2[m] * self.c[k][m]);
            for bits in (0..8).filter(|b| b >> m & 1 == 0) {
                let start = self.corner2(bits);
                if let Some(x) = clipped_midpoint(&start, &step, &self.h1)
                    && self.contains(&x)
                {
                    return Some(x);
                }
            }
        }
        // Box 1's edges along axis `k` in box 2's frame, clipped against box 2.
        for k in 0..3 {
            let step: [f64; 3] = std::array::from_fn(|m| 2.0 * self.h1[k] * self.c[k][m]);
            for bits in (0..8).filter(|b| b >> k & 1 == 0) {
                let start = self.box1_to_box2(&self.corner1(bits));
                if let Some(y) = clipped_midpoint(&start, &step, &self.h2) {
                    let x = self.box2_to_box1(&y);
                    if self.contains(&x) {
                        return Some(x);
                    }
                }
            }
        }
        None
    }
}

/// The midpoint of the part of the segment `start + t step`, `t` in `[0, 1]`, inside the box
/// `|x_k| <= h_k` (Liang-Barsky slab clipping), if that part is not empty.
fn clipped_midpoint(start: &[f64; 3], step: &[f64; 3], h: &[f64; 3]) -> Option<[f64; 3]> {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for k in 0..3 {
        if step[k] == 0.0 {
            if start[k].abs() > h[k] {
                return None;
            }
            continue;
        }
        let a = (-h[k] - start[k]) / step[k];
        let b = (h[k] - start[k]) / step[k];
        let (enter, leave) = if a < b { (a, b) } else { (b, a) };
        lo = lo.max(enter);
        hi = hi.min(leave);
        if lo > hi {
            return None;
        }
    }
    let t = 0.5 * (lo + hi);
    Some(std::array::from_fn(|k| start[k] + t * step[k]))
}

/// A point within `slack` (along each box's axes) of both ideal boxes, with box 2 at `pos12` in
/// box 1's frame; in box 1's local frame (the polytope's). `None` when the boxes widened by
/// `slack` do not overlap (up to rounding). With `slack` the pair's band
/// ([`touching_slack`]) it finds a point for every pair that the general tests report touching,
/// so callers that resolved an undecided box pair with them can still give a witness in both
/// boxes.
///
/// # Errors
/// [`NarrowError::NonFinite`] for a NaN or infinite pose (as [`crate::box_box_intersect`]).
pub fn box_box_common_point<P: RelativePose + ?Sized>(
    b1: &BoxHull,
    b2: &BoxHull,
    pos12: &P,
    slack: f64,
) -> Result<Option<PointD>, NarrowError> {
    let Some(frame) = PairFrame::new(b1, b2, pos12)? else {
        return Ok(None);
    };
    let rounding = NOISE_FACTOR * (b1.radius + b2.radius + frame.t.norm());
    let widen = |h: &VectorD| [h.x + slack, h.y + slack, h.z + slack];
    let pair = BoxPair {
        c: &frame.c,
        d: &frame.d,
        h1: widen(&b1.half_extents),
        h2: widen(&b2.half_extents),
        rounding,
    };
    Ok(pair.common_point(0, 0).map(|x| b1.box_frame_to_local(&x)))
}

/// The slack for [`box_box_common_point`] that covers touching pairs: the pair's touching band
/// plus both boxes' deviations.
pub fn touching_slack(b1: &BoxHull, b2: &BoxHull) -> f64 {
    TOUCHING_TOLERANCE_FACTOR * (b1.radius + b2.radius) + b1.deviation + b2.deviation
}
