//! The incremental box-box test of the box-tree traversal: Cyrus-Beck clipping of the 12 edges of
//! each box against the other box (thesis 3.6.1-3.6.2).
//!
//! Rationale.
//! * Completeness: two convex polytopes intersect iff an edge of one meets the other (a vertex of
//!   their intersection is a vertex of one inside the other or an edge of one crossing a face of
//!   the other, and containment puts whole edges inside). So two boxes intersect iff one of the
//!   24 clipped edge intervals is non-empty; the state of a box pair is those 24 intervals.
//! * Parametrisation: an edge of box X along X's local axis `a` is parametrised by its X-frame
//!   coordinate `s` along `a` (not by an offset from a box corner as in the thesis), so splitting X
//!   along `a` only clamps the interval, with no shifting. Its coordinate `k` in the other frame is
//!   `origin_k + rot[k][a] s + rot[k][b] u + rot[k][c] v` (`u`, `v`: its fixed X-coordinates along
//!   the other two axes `b`, `c`), so the parameter where it crosses the plane `y_k = w` is
//!   `(w - origin_k) / rot[k][a] - u q[a][k][b] - v q[a][k][c]` with the thesis's quotient tables
//!   `q[a][k][j] = rot[k][j] / rot[k][a]` ("t/s tables"), computed once per query. Whether the
//!   low plane of axis `k` is entering (`rot[k][a] > 0`) and which families are parallel to which
//!   planes are fixed for the whole traversal; an edge found outside stays outside in every
//!   descendant pair (children are sub-boxes), so it is flagged and never recomputed, and a pair
//!   is disjoint when no edge of either box is still live (the thesis's counter of 12).
//! * Splitting X at `x_k = c`: X's edges along `k` are clamped; X's edges along the other two
//!   axes at `x_k = hi` (left child) or `x_k = lo` (right child) are replaced by the 4 new edges
//!   in the cut plane, clipped from scratch; the other box's 12 intervals are each clipped by the
//!   one new plane, whose parameter is shared by both children (`'t_xh = ''t_xl`).
//! * Soundness in floating point: every plane is pushed outward by a margin `m = 1e-11 s`, `s` the
//!   sum of the largest coordinate magnitudes of the two root boxes and of the translation. The
//!   coordinate of a point along a plane normal is computed with an error of a few `f64` ulps of
//!   `s` (a parameter near a nearly parallel plane can be off by much more, but only along the
//!   edge: its distance to the plane is still that accurate), so no point of the true
//!   intersection is ever clipped away: the test never calls touching or overlapping boxes
//!   disjoint, and may call boxes overlapping that are apart by less than `m`. An edge family is
//!   treated as parallel to a plane when its coordinate varies by at most `m / 4` over the whole
//!   root box, which avoids huge quotients; the parallel test then compares the edge's
//!   coordinate at `s = 0` with the widened slab, which is still conservative.

use crate::RelativePose;
use colldet_geom::bounding::Aabb;
use colldet_geom::math::Real;
use nalgebra::{Matrix3, Vector3};

use crate::error::NarrowError;

/// Outward margin of every clipping plane, relative to the pair's coordinate scale.
pub(crate) const CLIP_MARGIN: f64 = 1e-11;

/// The edges of a box X (in frame X) seen from frame Y, with the per-query quotient tables.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClipSide {
    /// `rot[k][a]`: Y-frame component `k` of X's axis `a`.
    rot: [[f64; 3]; 3],
    /// X's frame origin in frame Y.
    origin: [f64; 3],
    /// `inv[a][k] = 1 / rot[k][a]` (0 where parallel).
    inv: [[f64; 3]; 3],
    /// `quot[a][k][j] = rot[k][j] / rot[k][a]` (0 where parallel).
    quot: [[[f64; 3]; 3]; 3],
    /// Family `a` runs parallel to Y's planes of axis `k`.
    parallel: [[bool; 3]; 3],
    /// Family `a` enters Y's slab of axis `k` through its low plane (`rot[k][a] > 0`).
    entering_low: [[bool; 3]; 3],
}

impl ClipSide {
    fn new(rot: &Matrix3<f64>, origin: &Vector3<f64>, param_scale: f64, margin: f64) -> Self {
        let mut side = Self {
            rot: [[0.0; 3]; 3],
            origin: [origin.x, origin.y, origin.z],
            inv: [[0.0; 3]; 3],
            quot: [[[0.0; 3]; 3]; 3],
            parallel: [[false; 3]; 3],
            entering_low: [[false; 3]; 3],
        };
        for k in 0..3 {
            for a in 0..3 {
                side.rot[k][a] = rot[(k, a)];
            }
        }
        for a in 0..3 {
            for k in 0..3 {
                let d = side.rot[k][a];
                if d.abs() * param_scale <= 0.25 * margin {
                    side.parallel[a][k] = true;
                    continue;
                }
                side.entering_low[a][k] = d > 0.0;
                side.inv[a][k] = 1.0 / d;
                for j in 0..3 {
                    side.quot[a][k][j] = side.rot[k][j] / d;
                }
            }
        }
        side
    }

    /// Frame-Y coordinate `k` of the point `s = 0` of the family-`a` edge at `(u, v)`.
    #[inline]
    fn coordinate_at_zero(&self, a: usize, k: usize, u: f64, v: f64) -> f64 {
        let (b, c) = others(a);
        self.origin[k] + self.rot[k][b] * u + self.rot[k][c] * v
    }

    /// Parameter where the family-`a` edge at `(u, v)` crosses the plane `y_k = w` (not parallel).
    #[inline]
    fn crossing(&self, a: usize, k: usize, u: f64, v: f64, w: f64) -> f64 {
        let (b, c) = others(a);
        let q = &self.quot[a][k];
        (w - self.origin[k]) * self.inv[a][k] - u * q[b] - v * q[c]
    }

    /// The family-`a` edge at `(u, v)` with parameters `[s_lo, s_hi]`, clipped by the box
    /// `other` (frame Y) widened by `margin`; `None` when nothing is left.
    fn clip(
        &self,
        a: usize,
        (u, v): (f64, f64),
        (s_lo, s_hi): (f64, f64),
        other: &BoxD,
        margin: f64,
    ) -> Option<(f64, f64)> {
        let (mut lo, mut hi) = (s_lo, s_hi);
        for k in 0..3 {
            let (y_lo, y_hi) = (other.lo[k] - margin, other.hi[k] + margin);
            if self.parallel[a][k] {
                let y = self.coordinate_at_zero(a, k, u, v);
                if y < y_lo || y > y_hi {
                    return None;
                }
                continue;
            }
            let enter_low = self.crossing(a, k, u, v, y_lo);
            let enter_high = self.crossing(a, k, u, v, y_hi);
            if self.entering_low[a][k] {
                lo = lo.max(enter_low);
                hi = hi.min(enter_high);
            } else {
                lo = lo.max(enter_high);
                hi = hi.min(enter_low);
            }
            if lo > hi {
                return None;
            }
        }
        Some((lo, hi))
    }
}

/// The two axes other than `a`, in cyclic order.
#[inline]
fn others(a: usize) -> (usize, usize) {
    ((a + 1) % 3, (a + 2) % 3)
}

/// A box in `f64` (exact widening of an [`Aabb`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct BoxD {
    lo: [f64; 3],
    hi: [f64; 3],
}

impl BoxD {
    #[inline]
    pub(crate) fn new(b: &Aabb) -> Self {
        Self {
            lo: [b.mins.x.into(), b.mins.y.into(), b.mins.z.into()],
            hi: [b.maxs.x.into(), b.maxs.y.into(), b.maxs.z.into()],
        }
    }

    /// Coordinates `(u, v)` of edge `j` of family `a`: bit 1 of `j` picks low/high along the
    /// first other axis, bit 0 along the second.
    #[inline]
    fn edge_position(&self, a: usize, j: usize) -> (f64, f64) {
        let (b, c) = others(a);
        let u = if j & 2 == 0 { self.lo[b] } else { self.hi[b] };
        let v = if j & 1 == 0 { self.lo[c] } else { self.hi[c] };
        (u, v)
    }
}

/// The clipped parameter intervals of the 12 edges of one box (edge `4 a + j`: family `a`, see
/// [`BoxD::edge_position`]); `live` has bit `i` set iff edge `i`'s interval is non-empty.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EdgeIntervals {
    lo: [f64; 12],
    hi: [f64; 12],
    live: u16,
}

impl EdgeIntervals {
    const DEAD: Self = Self {
        lo: [0.0; 12],
        hi: [0.0; 12],
        live: 0,
    };

    #[inline]
    fn set(&mut self, i: usize, interval: Option<(f64, f64)>) {
        match interval {
            Some((lo, hi)) if lo <= hi => {
                self.lo[i] = lo;
                self.hi[i] = hi;
                self.live |= 1 << i;
            }
            _ => self.live &= !(1 << i),
        }
    }

    #[inline]
    fn is_live(&self, i: usize) -> bool {
        self.live & (1 << i) != 0
    }
}

/// The intersection state of a box pair: `edges[0]` are box 1's edges clipped by box 2,
/// `edges[1]` box 2's edges clipped by box 1.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PairClip {
    edges: [EdgeIntervals; 2],
}

impl PairClip {
    /// True when some edge of either box meets the other box (widened by the margin).
    #[inline]
    pub(crate) fn overlapping(&self) -> bool {
        (self.edges[0].live | self.edges[1].live) != 0
    }

    /// Number of live edges of box 1 (`side = 0`) or box 2 (`side = 1`).
    #[cfg(test)]
    pub(crate) fn live_edges(&self, side: usize) -> u32 {
        self.edges[side].live.count_ones()
    }
}

/// The per-query tables of a box-tree pair: `sides[0]` maps tree 1's frame into tree 2's,
/// `sides[1]` tree 2's into tree 1's.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClipFrame {
    sides: [ClipSide; 2],
    margin: f64,
}

impl ClipFrame {
    /// Tables for boxes inside `root1` (frame 1) and `root2` (frame 2), `pos12` mapping frame 2
    /// into frame 1. The rotation is renormalised in `f64` as by the mesh queries' vertex mapping
    /// (`crate::mesh::thesis_arbitrary`), so boxes and mapped vertices agree to `f64` rounding.
    ///
    /// # Errors
    /// [`NarrowError::NonFinite`] for a NaN or infinite pose.
    pub(crate) fn new(
        root1: &Aabb,
        root2: &Aabb,
        pos12: &impl RelativePose,
    ) -> Result<Self, NarrowError> {
        let (r12, t12) = pos12.widened_parts()?;
        Ok(Self::from_f64(root1, root2, &r12, &t12))
    }

    /// [`ClipFrame::new`] from a rotation matrix and translation already in `f64` (mapping
    /// frame 2 into frame 1; `r12` orthonormal to `f64` precision).
    pub(crate) fn from_f64(
        root1: &Aabb,
        root2: &Aabb,
        r12: &Matrix3<f64>,
        t12: &Vector3<f64>,
    ) -> Self {
        let r21 = r12.transpose();
        let t21 = -(r21 * t12);
        let extent = |b: &Aabb| -> f64 {
            (0..3)
                .map(|k| f64::from(b.mins[k].abs().max(b.maxs[k].abs())))
                .fold(0.0, f64::max)
        };
        let scale1 = extent(root1);
        let scale2 = extent(root2);
        let scale = scale1 + scale2 + t12.amax();
        let margin = CLIP_MARGIN * scale;
        Self {
            sides: [
                ClipSide::new(&r21, &t21, scale1, margin),
                ClipSide::new(r12, t12, scale2, margin),
            ],
            margin,
        }
    }

    /// The frame with every clipping plane pushed outward by `extra` more (local units): the
    /// boxes of meshes given in `f64` are fitted to their `f32` copies, `extra` covers the
    /// rounding of both.
    pub(crate) fn widened(mut self, extra: f64) -> Self {
        self.margin += extra;
        self
    }

    /// The outward margin added to every clipping plane (local units).
    pub(crate) fn margin(&self) -> f64 {
        self.margin
    }

    /// The state of `box1` (frame 1) against `box2` (frame 2), every edge clipped from scratch.
    pub(crate) fn initial(&self, box1: &Aabb, box2: &Aabb) -> PairClip {
        let boxes = [BoxD::new(box1), BoxD::new(box2)];
        let mut state = PairClip {
            edges: [EdgeIntervals::DEAD; 2],
        };
        for (own, edges) in state.edges.iter_mut().enumerate() {
            let (mine, theirs) = (&boxes[own], &boxes[1 - own]);
            let side = &self.sides[own];
            for a in 0..3 {
                for j in 0..4 {
                    let (u, v) = mine.edge_position(a, j);
                    let clipped =
                        side.clip(a, (u, v), (mine.lo[a], mine.hi[a]), theirs, self.margin);
                    edges.set(4 * a + j, clipped);
                }
            }
        }
        state
    }

    /// Splits box `own` (0: box 1, 1: box 2) of a pair at `x[axis] = cut` (its own frame):
    /// returns the states of (left child, other box) and (right child, other box). `own_box` is
    /// the box being split, `other_box` the other one; `state` is their pair's state.
    pub(crate) fn split(
        &self,
        state: &PairClip,
        own: usize,
        own_box: &Aabb,
        axis: usize,
        cut: Real,
        other_box: &Aabb,
    ) -> (PairClip, PairClip) {
        let mine = BoxD::new(own_box);
        let theirs = BoxD::new(other_box);
        let cut = f64::from(cut);
        let mut left = *state;
        let mut right = *state;
        let own_side = &self.sides[own];
        let other = 1 - own;
        let other_side = &self.sides[other];

        // Own edges along the cut axis: clamp the interval at the cut.
        for j in 0..4 {
            let i = 4 * axis + j;
            if state.edges[own].is_live(i) {
                let (lo, hi) = (state.edges[own].lo[i], state.edges[own].hi[i]);
                left.edges[own].set(i, Some((lo, hi.min(cut))));
                right.edges[own].set(i, Some((lo.max(cut), hi)));
            }
        }
        // Own edges of the two other families: those in the cut plane are new.
        for a in [(axis + 1) % 3, (axis + 2) % 3] {
            // Bit of the edge index that selects low/high along `axis`.
            let bit = if (a + 1) % 3 == axis { 2 } else { 1 };
            for rest in [0, 3 - bit] {
                // `rest` sets the bit of the remaining axis; it is either 0 or the other bit.
                let j_low = rest;
                let j_high = rest | bit;
                let (mut u, mut v) = mine.edge_position(a, j_low);
                if bit == 2 {
                    u = cut;
                } else {
                    v = cut;
                }
                let fresh =
                    own_side.clip(a, (u, v), (mine.lo[a], mine.hi[a]), &theirs, self.margin);
                left.edges[own].set(4 * a + j_high, fresh);
                right.edges[own].set(4 * a + j_low, fresh);
            }
        }
        // The other box's edges: clip each live one by the new plane (frame `own`).
        let (high_plane, low_plane) = (cut + self.margin, cut - self.margin);
        for a in 0..3 {
            for j in 0..4 {
                let i = 4 * a + j;
                if !state.edges[other].is_live(i) {
                    continue;
                }
                let (lo, hi) = (state.edges[other].lo[i], state.edges[other].hi[i]);
                let (u, v) = theirs.edge_position(a, j);
                if other_side.parallel[a][axis] {
                    let y = other_side.coordinate_at_zero(a, axis, u, v);
                    if y > high_plane {
                        left.edges[other].set(i, None);
                    }
                    if y < low_plane {
                        right.edges[other].set(i, None);
                    }
                    continue;
                }
                let s_high = other_side.crossing(a, axis, u, v, high_plane);
                let s_low = other_side.crossing(a, axis, u, v, low_plane);
                if other_side.entering_low[a][axis] {
                    left.edges[other].set(i, Some((lo, hi.min(s_high))));
                    right.edges[other].set(i, Some((lo.max(s_low), hi)));
                } else {
                    left.edges[other].set(i, Some((lo.max(s_high), hi)));
                    right.edges[other].set(i, Some((lo, hi.min(s_low))));
                }
            }
        }
        (left, right)
    }
}

/// True when the closed boxes `box1` (frame 1) and `box2` (frame 2) intersect, `pos12` mapping
/// frame 2 into frame 1: the thesis's Cyrus-Beck clipping of the 12 edges of each box against the
/// other. Never reports touching or overlapping boxes as disjoint; may report boxes apart by less
/// than `1e-11` of the pair's coordinate scale (largest coordinate magnitudes plus translation) as
/// intersecting. No allocation.
///
/// # Errors
/// [`NarrowError::NonFinite`] for a NaN or infinite pose.
pub fn boxes_intersect_by_clipping(
    box1: &Aabb,
    box2: &Aabb,
    pos12: &impl RelativePose,
) -> Result<bool, NarrowError> {
    let frame = ClipFrame::new(box1, box2, pos12)?;
    Ok(frame.initial(box1, box2).overlapping())
}
