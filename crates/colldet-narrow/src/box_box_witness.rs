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
//! that is not empty has a vertex). The search first tries one step of alternating projections
//! from each box's centre (clamped into the other box, then back into its own: in both boxes for
//! most overlapping pairs of similar boxes), then any corner of either box inside the other, then
//! clips edges. Each candidate lies in one box by construction (up to the rounding of one frame
//! change) and is checked in `f64` against the other, with a rounding allowance of
//! `1e-12 (r1 + r2 + |t12|)`, far below the touching band.

use colldet_geom::math::{PointD, VectorD};

use crate::NarrowError;
use crate::RelativePose;
use crate::box_box::PairFrame;
use crate::box_hull::BoxHull;
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

    /// Is `x` (box 1's box frame) in box 1, up to the rounding allowance?
    fn in_box1(&self, x: &[f64; 3]) -> bool {
        (0..3).all(|k| x[k].abs() <= self.h1[k] + self.rounding)
    }

    /// Is `y` (box 2's box frame) in box 2, up to the rounding allowance?
    fn in_box2(&self, y: &[f64; 3]) -> bool {
        (0..3).all(|m| y[m].abs() <= self.h2[m] + self.rounding)
    }

    /// A point of both boxes. Each candidate lies in one box by construction (up to the
    /// rounding of one frame change, far below the allowance) and is checked against the other:
    /// first box 2's centre clamped into box 1 and the result clamped into box 2 (one step of
    /// alternating projections, which lands in both boxes for most overlaps), then the same from
    /// box 1's centre, then a corner of box 2 inside box 1, then a corner of box 1 inside box 2,
    /// then the edges of each box clipped against the other. `None` when every candidate fails
    /// (the boxes do not overlap with an interior, up to rounding).
    pub(crate) fn common_point(&self) -> Option<[f64; 3]> {
        let near_centre2: [f64; 3] =
            std::array::from_fn(|k| self.d[k].clamp(-self.h1[k], self.h1[k]));
        let y = self.box1_to_box2(&near_centre2);
        let x = self.box2_to_box1(&std::array::from_fn(|m| {
            y[m].clamp(-self.h2[m], self.h2[m])
        }));
        if self.in_box1(&x) {
            return Some(x);
        }
        // The same from box 1's centre.
        let centre1 = self.box1_to_box2(&[0.0; 3]);
        let near_centre1 = self.box2_to_box1(&std::array::from_fn(|m| {
            centre1[m].clamp(-self.h2[m], self.h2[m])
        }));
        let x = std::array::from_fn(|k| near_centre1[k].clamp(-self.h1[k], self.h1[k]));
        if self.in_box2(&self.box1_to_box2(&x)) {
            return Some(x);
        }
        // Box 2's corners in box 1's frame: `d + sum_m +-h2_m b_m`.
        let half2: [[f64; 3]; 3] =
            std::array::from_fn(|m| std::array::from_fn(|k| self.h2[m] * self.c[k][m]));
        if let Some(bits) = corner_inside(self.d, &half2, &self.h1, self.rounding) {
            return Some(corner(self.d, &half2, bits));
        }
        // Box 1's corners in box 2's frame: `C^T (sum_k +-h1_k a_k - d)`.
        let half1: [[f64; 3]; 3] =
            std::array::from_fn(|k| std::array::from_fn(|m| self.h1[k] * self.c[k][m]));
        if let Some(bits) = corner_inside(&centre1, &half1, &self.h2, self.rounding) {
            let s = SIGNS[bits];
            return Some([s[0] * self.h1[0], s[1] * self.h1[1], s[2] * self.h1[2]]);
        }
        // Box 2's edges along axis `m` in box 1's frame, clipped against box 1.
        for (m, half) in half2.iter().enumerate() {
            let step = half.map(|h| 2.0 * h);
            for bits in (0..8).filter(|b| b >> m & 1 == 0) {
                let start = corner(self.d, &half2, bits);
                if let Some(x) = clipped_midpoint(&start, &step, &self.h1)
                    && self.in_box1(&x)
                {
                    return Some(x);
                }
            }
        }
        // Box 1's edges along axis `k` in box 2's frame, clipped against box 2.
        for (k, half) in half1.iter().enumerate() {
            let step = half.map(|h| 2.0 * h);
            for bits in (0..8).filter(|b| b >> k & 1 == 0) {
                let start = corner(&centre1, &half1, bits);
                if let Some(y) = clipped_midpoint(&start, &step, &self.h2)
                    && self.in_box2(&y)
                {
                    return Some(self.box2_to_box1(&y));
                }
            }
        }
        None
    }
}

/// `SIGNS[bits][m]` is `+1` when bit `m` of `bits` is set, else `-1`.
const SIGNS: [[f64; 3]; 8] = {
    let mut signs = [[-1.0; 3]; 8];
    let mut bits = 0;
    while bits < 8 {
        let mut m = 0;
        while m < 3 {
            if bits >> m & 1 == 1 {
                signs[bits][m] = 1.0;
            }
            m += 1;
        }
        bits += 1;
    }
    signs
};

/// Corner `bits` of the box `origin + sum_m +-half[m]`.
fn corner(origin: &[f64; 3], half: &[[f64; 3]; 3], bits: usize) -> [f64; 3] {
    let s = SIGNS[bits];
    std::array::from_fn(|k| origin[k] + s[0] * half[0][k] + s[1] * half[1][k] + s[2] * half[2][k])
}

/// A corner of the box `origin + sum_m +-half[m]` inside `|x_k| <= h_k + rounding`, if any
/// (all 8 corners tested coordinate by coordinate, stopping when none is left).
fn corner_inside(
    origin: &[f64; 3],
    half: &[[f64; 3]; 3],
    h: &[f64; 3],
    rounding: f64,
) -> Option<usize> {
    let mut candidates = 0xffu32;
    for k in 0..3 {
        let limit = h[k] + rounding;
        for (bits, s) in SIGNS.iter().enumerate() {
            let x = origin[k] + s[0] * half[0][k] + s[1] * half[1][k] + s[2] * half[2][k];
            if x.abs() > limit {
                candidates &= !(1 << bits);
            }
        }
        if candidates == 0 {
            return None;
        }
    }
    Some(candidates.trailing_zeros() as usize)
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

/// A point of both ideal boxes widened by `slack` along their axes (negative or NaN taken as
/// zero), with box 2 at `pos12` in box 1's frame; the point is in box 1's local frame (the
/// polytope's). `None` when the widened boxes do not overlap (up to rounding). With the pair's
/// band as `slack` ([`touching_slack`]) the widened boxes overlap whenever the polytopes are
/// within the touching tolerance, so a caller that resolved an undecided box pair with the
/// general tests can still report a point in both boxes (up to the band).
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
    // A negative or NaN slack counts as zero (the clamps need non-negative extents).
    let slack = if slack > 0.0 { slack } else { 0.0 };
    let widen = |h: &VectorD| [h.x + slack, h.y + slack, h.z + slack];
    let pair = BoxPair {
        c: &frame.c,
        d: &frame.d,
        h1: widen(&b1.half_extents),
        h2: widen(&b2.half_extents),
        rounding,
    };
    Ok(pair.common_point().map(|x| b1.box_frame_to_local(&x)))
}

/// The slack for [`box_box_common_point`] that covers touching pairs: the pair's touching band
/// plus both boxes' deviations.
pub fn touching_slack(b1: &BoxHull, b2: &BoxHull) -> f64 {
    TOUCHING_TOLERANCE_FACTOR * (b1.radius + b2.radius) + b1.deviation + b2.deviation
}
