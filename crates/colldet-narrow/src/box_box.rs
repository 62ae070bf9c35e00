//! Exact box-box test: the 15-axis separating-axis test in `f64`, with certified answers and an
//! explicit "undecided" near the touching band.
//!
//! # Pair convention
//! `pos12` is box 2's pose in box 1's frame, widened and re-normalised in `f64` as
//! [`crate::gjk_intersect`] does, so both tests decide about the same configuration. The test runs
//! in box 1's *box frame* (its centre and axes): box 2's axes there are the columns of
//! `C = A1^T R12 A2` and its centre is `d = A1^T (R12 c2 + t12 - c1)`.
//!
//! # The axes
//! Two boxes are disjoint iff some axis among the 3 face normals of each and the 9 cross products
//! `a_i x b_j` of their edge directions separates them; their penetration depth is the smallest
//! overlap over the same axes (the faces of the Minkowski difference have those normals). Along a
//! unit axis `u` the *gap* is `|d . u| - r1(u) - r2(u)`, with `r(u) = sum_k h_k |axis_k . u|`;
//! a positive gap is a lower bound of the distance, and minus the gap is the overlap along `u`.
//!
//! # Certification
//! With `tol = TOUCHING_TOLERANCE_FACTOR * (r1 + r2)` (the pair's band, `r` the polytopes' radii,
//! exactly as GJK and Chung-Wang take it), `dev = deviation1 + deviation2` (the distance between
//! each polytope and its ideal box, [`BoxHull::deviation`]; zero for axis-aligned boxes) and
//! `noise = 1e-12 (r1 + r2 + |t12|) / |u|` for an axis of unrounded length `|u|` (the rounding
//! of the `f64` evaluation, divided by the length that normalises a cross product):
//!
//! * [`BoxBoxStatus::Separated`] when some axis has `gap > tol + dev + noise`: the distance
//!   between the polytopes exceeds `tol`, so GJK certifies `Separated` too.
//! * [`BoxBoxStatus::Intersecting`] when every axis overlaps by more than `tol + dev + noise`:
//!   the polytopes' penetration depth exceeds `tol`, so GJK certifies `Intersecting` too.
//! * [`BoxBoxStatus::Undecided`] otherwise (the signed distance lies within about `tol + dev` of
//!   the band): the caller falls back to the general exact test, so answers stay identical.
//!
//! An `Intersecting` answer carries a [`BoxBoxWitness`]: the supporting corners along the axis of
//! least overlap and a point of both polytopes (see [`crate::box_box_witness`]); when no such
//! point is found the answer is `Undecided`.
//!
//! Cross products of nearly parallel edges (`|a_i x b_j| < 1e-6`) have no reliable direction in
//! `f64`. They are never used to separate. For intersection their overlap is bounded instead:
//! if `a_i` is within angle `theta` of `b_j`, shrinking box 2 to its mid-section across `b_j`
//! removes at most `h2_j sin(theta) / cos(theta)` from the overlap along the other axes, and the
//! mid-section's overlap along any direction across `a_i` is at least its smallest overlap over
//! `a_k`, `a_l`, `a_i x b_k`, `a_i x b_l` (2D separating axes of the shadows along `a_i`). So the
//! degenerate axis overlaps by at least the smallest other overlap minus `2 h2_j |a_i x b_j|`,
//! which the intersection certificate subtracts.

use colldet_geom::math::{PointD, VectorD};

use crate::NarrowError;
use crate::RelativePose;
use crate::box_box_witness::BoxPair;
use crate::box_hull::BoxHull;
use crate::cso::NOISE_FACTOR;
use crate::gjk::TOUCHING_TOLERANCE_FACTOR;

/// Cross products of edge directions shorter than this are treated as parallel edges.
const PARALLEL_EDGES: f64 = 1e-6;

/// Outcome of [`box_box_intersect`] (the certificates are described there and in
/// `docs/narrow-phase.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoxBoxStatus {
    /// Distance certified above the touching tolerance (GJK says `Separated`).
    Separated,
    /// Penetration depth certified above the touching tolerance (GJK says `Intersecting`).
    Intersecting,
    /// Within about the touching band: decide with the general exact test.
    Undecided,
}

/// Evidence for an intersecting box pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoxBoxWitness {
    /// A point of both polytopes, in box 1's local frame (the polytope's, not the box frame):
    /// inside each box shrunk by its [`BoxHull::deviation`] (so inside the polytope), up to the
    /// `f64` rounding of the pair (about `1e-12` of its size, far below the touching band).
    pub point: PointD,
    /// The polytopes' vertex indices of the corners supporting the axis of least overlap (box
    /// 1's towards box 2, box 2's towards box 1), a pair in the contact region, as the other
    /// convex tests report their supporting vertices.
    pub supporting_vertices: [u32; 2],
}

/// Result of [`box_box_intersect`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoxBoxResult {
    /// Separated, intersecting or undecided.
    pub status: BoxBoxStatus,
    /// `Some` exactly when the status is [`BoxBoxStatus::Intersecting`].
    pub witness: Option<BoxBoxWitness>,
}

impl BoxBoxResult {
    const SEPARATED: Self = Self {
        status: BoxBoxStatus::Separated,
        witness: None,
    };
    const UNDECIDED: Self = Self {
        status: BoxBoxStatus::Undecided,
        witness: None,
    };
}

/// Box 2 in box 1's box frame: its axes as the columns of `c` (`c[k][m]` is component `k` of
/// axis `m`) and its centre `d`, with the widened pose's translation.
pub(crate) struct PairFrame {
    pub c: [[f64; 3]; 3],
    pub d: [f64; 3],
    pub t: VectorD,
}

impl PairFrame {
    /// The frame of `b2` at `pos12` seen from `b1`; `None` when it overflows. (Inlined: it is
    /// the first half of the box test, which calls it on every pair.)
    #[inline(always)]
    pub(crate) fn new<P: RelativePose + ?Sized>(
        b1: &BoxHull,
        b2: &BoxHull,
        pos12: &P,
    ) -> Result<Option<Self>, NarrowError> {
        let (rot, t) = pos12.widened_parts()?;
        let rb = if b2.axis_aligned { rot } else { rot * b2.axes };
        let centre = rot * b2.centre + t - b1.centre;
        let (cm, dv) = if b1.axis_aligned {
            (rb, centre)
        } else {
            (b1.axes.transpose() * rb, b1.axes.transpose() * centre)
        };
        if !(cm.sum() + dv.sum()).is_finite() {
            return Ok(None);
        }
        Ok(Some(Self {
            c: std::array::from_fn(|k| std::array::from_fn(|m| cm[(k, m)])),
            d: [dv.x, dv.y, dv.z],
            t,
        }))
    }
}

/// Classifies the pair of boxes `b1`, `b2` with box 2 at `pos12` in box 1's frame; an
/// intersecting pair comes with a [`BoxBoxWitness`] (when the search for a common point of the
/// shrunk boxes fails, which takes an overlap thinner than about the deviations, the answer is
/// `Undecided` instead).
///
/// # Errors
/// [`NarrowError::NonFinite`] for a NaN or infinite pose (as [`crate::gjk_intersect`]).
pub fn box_box_intersect<P: RelativePose + ?Sized>(
    b1: &BoxHull,
    b2: &BoxHull,
    pos12: &P,
) -> Result<BoxBoxResult, NarrowError> {
    let Some(PairFrame { c, d, t }) = PairFrame::new(b1, b2, pos12)? else {
        return Ok(BoxBoxResult::UNDECIDED);
    };
    let ac: [[f64; 3]; 3] = c.map(|row| row.map(f64::abs));
    let h1 = [b1.half_extents.x, b1.half_extents.y, b1.half_extents.z];
    let h2 = [b2.half_extents.x, b2.half_extents.y, b2.half_extents.z];
    let band = TOUCHING_TOLERANCE_FACTOR * (b1.radius + b2.radius) + b1.deviation + b2.deviation;
    let noise = NOISE_FACTOR * (b1.radius + b2.radius + t.norm());

    // For each axis `u` of computed length `len`: `overlap = r1 + r2 - |d . u|` (unnormalised).
    // It separates when `overlap < -(band len + noise)`; otherwise its margin
    // `(overlap - band len - noise) / len` may become the least one, kept with its axis id
    // (0-2 box 1's faces, 3-5 box 2's, 6 + 3 i + m the cross products) and the sign of `d . u`.
    let mut least = f64::INFINITY;
    let mut least_axis = (0usize, false);
    let face_slack = band + noise;
    for k in 0..3 {
        let r = h1[k] + h2[0] * ac[k][0] + h2[1] * ac[k][1] + h2[2] * ac[k][2];
        let margin = r - d[k].abs() - face_slack;
        if margin < -2.0 * face_slack {
            return Ok(BoxBoxResult::SEPARATED);
        }
        if margin < least {
            least = margin;
            least_axis = (k, d[k] < 0.0);
        }
    }
    for m in 0..3 {
        let r = h1[0] * ac[0][m] + h1[1] * ac[1][m] + h1[2] * ac[2][m] + h2[m];
        let dist = d[0] * c[0][m] + d[1] * c[1][m] + d[2] * c[2][m];
        let margin = r - dist.abs() - face_slack;
        if margin < -2.0 * face_slack {
            return Ok(BoxBoxResult::SEPARATED);
        }
        if margin < least {
            least = margin;
            least_axis = (3 + m, dist < 0.0);
        }
    }
    // The nine edge-edge axes, unrolled (indices are constants, so no `% 3` runs per axis).
    let edges = EdgeAxes {
        c: &c,
        ac: &ac,
        d: &d,
        h1: &h1,
        h2: &h2,
        band,
        noise,
    };
    let mut acc = LeastAxis {
        least,
        axis: least_axis,
        degenerate_penalty: 0.0,
    };
    let separated = edges.test::<0, 0>(&mut acc)
        || edges.test::<0, 1>(&mut acc)
        || edges.test::<0, 2>(&mut acc)
        || edges.test::<1, 0>(&mut acc)
        || edges.test::<1, 1>(&mut acc)
        || edges.test::<1, 2>(&mut acc)
        || edges.test::<2, 0>(&mut acc)
        || edges.test::<2, 1>(&mut acc)
        || edges.test::<2, 2>(&mut acc);
    if separated {
        return Ok(BoxBoxResult::SEPARATED);
    }
    let LeastAxis {
        least,
        axis: least_axis,
        degenerate_penalty,
    } = acc;
    if least - degenerate_penalty <= 0.0 {
        return Ok(BoxBoxResult::UNDECIDED);
    }
    let (id, negative) = least_axis;
    let column = |m: usize| VectorD::new(c[0][m], c[1][m], c[2][m]);
    let axis = match id {
        0..=2 => VectorD::ith(id, 1.0),
        3..=5 => column(id - 3),
        _ => VectorD::ith((id - 6) / 3, 1.0).cross(&column((id - 6) % 3)),
    };
    let axis = if negative { -axis } else { axis };
    // Box 1's corner farthest along `axis` and box 2's farthest against it.
    let mut bits1 = 0;
    let mut bits2 = 0;
    for k in 0..3 {
        if axis[k] > 0.0 {
            bits1 |= 1 << k;
        }
        if column(k).dot(&axis) < 0.0 {
            bits2 |= 1 << k;
        }
    }
    // The witness: a point of both boxes shrunk by their deviations (inside both polytopes).
    let shrink = |b: &BoxHull| b.half_extents.map(|h| h - b.deviation);
    let (s1, s2) = (shrink(b1), shrink(b2));
    if !(s1.min() > 0.0 && s2.min() > 0.0) {
        // A box thinner than its deviation: no point is certainly inside the polytope.
        return Ok(BoxBoxResult::UNDECIDED);
    }
    let pair = BoxPair {
        c: &c,
        d: &d,
        h1: [s1.x, s1.y, s1.z],
        h2: [s2.x, s2.y, s2.z],
        rounding: noise,
    };
    let Some(x) = pair.common_point() else {
        return Ok(BoxBoxResult::UNDECIDED);
    };
    Ok(BoxBoxResult {
        status: BoxBoxStatus::Intersecting,
        witness: Some(BoxBoxWitness {
            point: b1.box_frame_to_local(&x),
            supporting_vertices: [b1.corner_vertices[bits1], b2.corner_vertices[bits2]],
        }),
    })
}

/// The axis of least margin found so far, with its id and sign (see [`box_box_intersect`]),
/// and the overlap bound lost to nearly parallel edges.
struct LeastAxis {
    least: f64,
    axis: (usize, bool),
    degenerate_penalty: f64,
}

/// The data the nine edge-edge axes `a_i x b_m` read, in box 1's box frame.
struct EdgeAxes<'a> {
    c: &'a [[f64; 3]; 3],
    ac: &'a [[f64; 3]; 3],
    d: &'a [f64; 3],
    h1: &'a [f64; 3],
    h2: &'a [f64; 3],
    band: f64,
    noise: f64,
}

impl EdgeAxes<'_> {
    /// Tests the axis `a_I x b_M`; true when it separates the boxes (certified), otherwise
    /// folds its margin into `acc`. `a_i x b_m` has components `-c[i2][m]` at `i1` and
    /// `c[i1][m]` at `i2`; box 2's other axes project on it as `|c[i][m2]|` and `|c[i][m1]|`
    /// (`b_m x b_m1 = b_m2` up to sign).
    #[inline(always)]
    fn test<const I: usize, const M: usize>(&self, acc: &mut LeastAxis) -> bool {
        let (c, ac, d, h1, h2) = (self.c, self.ac, self.d, self.h1, self.h2);
        let (i1, i2) = ((I + 1) % 3, (I + 2) % 3);
        let (m1, m2) = ((M + 1) % 3, (M + 2) % 3);
        let len = (c[i1][M] * c[i1][M] + c[i2][M] * c[i2][M]).sqrt();
        if len < PARALLEL_EDGES {
            acc.degenerate_penalty = acc.degenerate_penalty.max(2.0 * h2[M] * len + self.noise);
            return false;
        }
        let r = h1[i1] * ac[i2][M] + h1[i2] * ac[i1][M] + h2[m1] * ac[I][m2] + h2[m2] * ac[I][m1];
        let dist = d[i2] * c[i1][M] - d[i1] * c[i2][M];
        let slack = self.band * len + self.noise;
        let margin = r - dist.abs() - slack;
        if margin < -2.0 * slack {
            return true;
        }
        if margin < acc.least * len {
            acc.least = margin / len;
            acc.axis = (6 + 3 * I + M, dist < 0.0);
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Isometry3, Matrix3};

    fn hull(h: [f64; 3], deviation: f64) -> BoxHull {
        BoxHull {
            centre: VectorD::zeros(),
            axes: Matrix3::identity(),
            axis_aligned: true,
            half_extents: VectorD::from(h),
            deviation,
            corner_vertices: [0, 1, 2, 3, 4, 5, 6, 7],
            radius: VectorD::from(h).norm(),
        }
    }

    /// A box thinner than its deviation cannot certify a point inside its polytope: the deep
    /// overlap is left to the general test (no panic on the negative shrunk extent).
    #[test]
    fn box_thinner_than_its_deviation_is_undecided() {
        let thin = hull([1.0, 1.0, 1e-7], 2e-7);
        let cube = hull([0.5, 0.5, 0.5], 0.0);
        let pos12 = Isometry3::translation(0.1, 0.0, 0.0);
        let r = box_box_intersect(&thin, &cube, &pos12).unwrap();
        assert_eq!(r.status, BoxBoxStatus::Undecided);
        assert_eq!(r.witness, None);
        let r = box_box_intersect(&cube, &hull([1.0, 1.0, 1e-3], 0.0), &pos12).unwrap();
        assert_eq!(r.status, BoxBoxStatus::Intersecting);
    }
}
