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
//! Cross products of nearly parallel edges (`|a_i x b_j| < 1e-6`) have no reliable direction in
//! `f64`. They are never used to separate. For intersection their overlap is bounded instead:
//! if `a_i` is within angle `theta` of `b_j`, shrinking box 2 to its mid-section across `b_j`
//! removes at most `h2_j sin(theta) / cos(theta)` from the overlap along the other axes, and the
//! mid-section's overlap along any direction across `a_i` is at least its smallest overlap over
//! `a_k`, `a_l`, `a_i x b_k`, `a_i x b_l` (2D separating axes of the shadows along `a_i`). So the
//! degenerate axis overlaps by at least the smallest other overlap minus `2 h2_j |a_i x b_j|`,
//! which the intersection certificate subtracts.

use colldet_geom::math::VectorD;
use nalgebra::Matrix3;

use crate::NarrowError;
use crate::RelativePose;
use crate::box_hull::BoxHull;
use crate::cso::NOISE_FACTOR;
use crate::gjk::TOUCHING_TOLERANCE_FACTOR;
use crate::pair_pose::widen_pos12_parts;

/// Cross products of edge directions shorter than this are treated as parallel edges.
const PARALLEL_EDGES: f64 = 1e-6;

/// Outcome of [`box_box_intersect`]; see the [module docs](self) for the certificates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoxBoxStatus {
    /// Distance certified above the touching tolerance (GJK says `Separated`).
    Separated,
    /// Penetration depth certified above the touching tolerance (GJK says `Intersecting`).
    Intersecting,
    /// Within about the touching band: decide with the general exact test.
    Undecided,
}

/// Result of [`box_box_intersect`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoxBoxResult {
    /// Separated, intersecting or undecided.
    pub status: BoxBoxStatus,
    /// For [`BoxBoxStatus::Intersecting`]: the polytopes' vertex indices of the supporting
    /// corners along the axis of least overlap (box 1's towards box 2, box 2's towards box 1),
    /// a pair in the contact region. `[0, 0]` otherwise.
    pub supporting_vertices: [u32; 2],
}

/// The best overlap found so far among the reliable axes, with the axis (box 1's box frame,
/// pointing from box 1 towards box 2) it was found on.
struct LeastOverlap {
    margin: f64,
    axis: VectorD,
}

/// Classifies the pair of boxes `b1`, `b2` with box 2 at `pos12` in box 1's frame.
///
/// # Errors
/// [`NarrowError::NonFinite`] for a NaN or infinite pose (as [`crate::gjk_intersect`]).
pub fn box_box_intersect<P: RelativePose + ?Sized>(
    b1: &BoxHull,
    b2: &BoxHull,
    pos12: &P,
) -> Result<BoxBoxResult, NarrowError> {
    let (rot, t) = widen_pos12_parts(pos12)?;
    let c: Matrix3<f64> = b1.axes.transpose() * (rot * b2.axes);
    let d: VectorD = b1.axes.transpose() * (rot * b2.centre + t - b1.centre);
    let (h1, h2) = (b1.half_extents, b2.half_extents);
    let band = TOUCHING_TOLERANCE_FACTOR * (b1.radius + b2.radius) + b1.deviation + b2.deviation;
    let noise = NOISE_FACTOR * (b1.radius + b2.radius + t.norm());
    let abs_c = c.abs();
    let undecided = BoxBoxResult {
        status: BoxBoxStatus::Undecided,
        supporting_vertices: [0, 0],
    };
    let separated = BoxBoxResult {
        status: BoxBoxStatus::Separated,
        supporting_vertices: [0, 0],
    };

    if !(c.iter().chain(d.iter()).all(|x| x.is_finite())) {
        return Ok(undecided);
    }
    // Each axis `u` (unnormalised, computed length `len`) is checked by `check`: `true` when it
    // certifies separation; otherwise its overlap beyond `band + noise / len` (normalised) may
    // become the least margin. Intersection is certified when the least margin is positive.
    let mut least = LeastOverlap {
        margin: f64::INFINITY,
        axis: VectorD::zeros(),
    };
    let mut check = |axis: VectorD, centre_distance: f64, r1: f64, r2: f64, len: f64| -> bool {
        let overlap = (r1 + r2 - centre_distance.abs()) / len;
        let slack = band + noise / len;
        if overlap < -slack {
            return true;
        }
        let margin = overlap - slack;
        if margin < least.margin {
            least.margin = margin;
            least.axis = if centre_distance < 0.0 { -axis } else { axis };
        }
        false
    };

    // Box 1's face normals.
    for k in 0..3 {
        let r2 = h2.dot(&abs_c.row(k).transpose());
        if check(VectorD::ith(k, 1.0), d[k], h1[k], r2, 1.0) {
            return Ok(separated);
        }
    }
    // Box 2's face normals.
    for m in 0..3 {
        let col = c.column(m);
        let r1 = h1.dot(&abs_c.column(m));
        if check(col.into_owned(), d.dot(&col), r1, h2[m], 1.0) {
            return Ok(separated);
        }
    }
    // Cross products of box 1's axis `i` with box 2's axis `m`.
    let mut degenerate_penalty = 0.0f64;
    for i in 0..3 {
        for m in 0..3 {
            let col = c.column(m);
            let axis = VectorD::ith(i, 1.0).cross(&col);
            let len = axis.norm();
            if len < PARALLEL_EDGES {
                degenerate_penalty = degenerate_penalty.max(2.0 * h2[m] * len + noise);
                continue;
            }
            let r1 = h1.dot(&axis.abs());
            let r2 = (0..3)
                .map(|n| h2[n] * c.column(n).dot(&axis).abs())
                .sum::<f64>();
            if check(axis, d.dot(&axis), r1, r2, len) {
                return Ok(separated);
            }
        }
    }
    if least.margin - degenerate_penalty <= 0.0 {
        return Ok(undecided);
    }
    Ok(BoxBoxResult {
        status: BoxBoxStatus::Intersecting,
        supporting_vertices: supporting_corners(b1, b2, &c, &least.axis),
    })
}

/// The polytope vertices at box 1's corner farthest along `axis` (box 1's box frame) and box 2's
/// corner farthest against it.
fn supporting_corners(b1: &BoxHull, b2: &BoxHull, c: &Matrix3<f64>, axis: &VectorD) -> [u32; 2] {
    let mut bits1 = 0;
    let mut bits2 = 0;
    for k in 0..3 {
        if axis[k] > 0.0 {
            bits1 |= 1 << k;
        }
        if c.column(k).dot(axis) < 0.0 {
            bits2 |= 1 << k;
        }
    }
    [b1.corner_vertices[bits1], b2.corner_vertices[bits2]]
}
