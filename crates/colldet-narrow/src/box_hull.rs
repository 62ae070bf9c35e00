//! Recognising a convex polytope as a rectangular box, once, when a shape is prepared.
//!
//! Rationale: the exact box-box test ([`crate::box_box_intersect`]) is far cheaper than the
//! general convex tests, so shapes that are boxes are recognised up front. The convex tests see a
//! [`ConvexPolytope`] as the convex hull of its vertices, so a polytope is a box when its 8
//! vertices are the corners `c +- h0 a0 +- h1 a1 +- h2 a2` of a box with orthonormal axes `a_k`
//! and half extents `h_k > 0`. The `f32` vertices of a box that is not axis-aligned in its local
//! frame are only near such corners, so the ideal box is stored together with its
//! [`deviation`](BoxHull::deviation) from the vertices: the box test widens every certificate by
//! it, so its answers are exact for the polytope the other tests see. For axis-aligned boxes (the
//! usual case) the ideal box is computed exactly and the deviation is zero.

use colldet_geom::ConvexPolytope;
use colldet_geom::math::{PointD, VectorD, to_f64};
use nalgebra::Matrix3;

/// A polytope is recognised as a box only when its vertices lie within this fraction of its
/// radius of the ideal box's corners. The box test falls back to the general test within about
/// this distance of touching, so a loose bound would only cost fallbacks, never exactness.
pub const MAX_BOX_DEVIATION: f64 = 1e-6;

/// Relative slack added to the measured deviation for the rounding of the corners and of the
/// measurement itself (a few `f64` ulps of the radius, with a wide margin).
const DEVIATION_ROUNDING: f64 = 1e-14;

/// A [`ConvexPolytope`] recognised as a rectangular box, in the polytope's local frame, `f64`.
///
/// Read-only: [`recognise`](Self::recognise) establishes the invariants the box test relies on
/// (the axes form a proper rotation, the half extents are positive, every vertex lies within the
/// deviation of its corner), so the fields are not public.
///
/// The description does not depend on the order the polytope lists its vertices in (only
/// [`corner_vertices`](Self::corner_vertices) names them): the axes are the rotation closest to
/// the identity (largest trace) among the 24 that describe the same box, so a box whose edges
/// run along the local axes gets exactly the identity, whatever the vertex order.
#[derive(Clone, Debug, PartialEq)]
pub struct BoxHull {
    pub(crate) centre: VectorD,
    pub(crate) axes: Matrix3<f64>,
    pub(crate) axis_aligned: bool,
    pub(crate) half_extents: VectorD,
    pub(crate) deviation: f64,
    pub(crate) corner_vertices: [u32; 8],
    pub(crate) radius: f64,
}

impl BoxHull {
    /// Centre of the box, local frame.
    pub fn centre(&self) -> VectorD {
        self.centre
    }

    /// The box's unit axes as the columns of a proper rotation (determinant `+1`; box frame to
    /// local frame), the one closest to the identity.
    pub fn axes(&self) -> &Matrix3<f64> {
        &self.axes
    }

    /// True when [`axes`](Self::axes) is exactly the identity (the box's edges run along its
    /// local axes), which lets the box test skip the axis changes.
    pub fn is_axis_aligned(&self) -> bool {
        self.axis_aligned
    }

    /// Half extents along the axes (positive), local length units.
    pub fn half_extents(&self) -> VectorD {
        self.half_extents
    }

    /// Upper bound on the distance between each polytope vertex and the ideal corner it stands
    /// for (zero when the ideal box is exact), local length units.
    pub fn deviation(&self) -> f64 {
        self.deviation
    }

    /// The polytope's vertex index at each corner; corner `x + 2 y + 4 z` has bit `k` set on the
    /// positive side of axis `k` (`centre + axes * (+-h0, +-h1, +-h2)`).
    pub fn corner_vertices(&self) -> &[u32; 8] {
        &self.corner_vertices
    }

    /// The polytope's bounding radius ([`ConvexPolytope::radius`]), which sets the pair's
    /// touching band exactly as for the general convex tests.
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// The ideal corner `bits` (see [`corner_vertices`](Self::corner_vertices)), local frame.
    pub fn corner(&self, bits: usize) -> VectorD {
        self.centre + self.axes * corner_signs(bits).component_mul(&self.half_extents)
    }

    /// The point `x` of the box frame (centre and axes) in the local frame.
    pub(crate) fn box_frame_to_local(&self, x: &[f64; 3]) -> PointD {
        let x = VectorD::new(x[0], x[1], x[2]);
        PointD::from(if self.axis_aligned {
            self.centre + x
        } else {
            self.centre + self.axes * x
        })
    }

    /// Recognises `polytope` as a box: 8 vertices, each within [`MAX_BOX_DEVIATION`] x the
    /// radius of the corresponding corner of an ideal box (orthonormal axes, positive half
    /// extents). `None` for anything else.
    pub fn recognise(polytope: &ConvexPolytope) -> Option<Self> {
        let vertices = polytope.vertices();
        if vertices.len() != 8 {
            return None;
        }
        let v: [VectorD; 8] = std::array::from_fn(|i| to_f64(&vertices[i]).coords);
        let radius = f64::from(polytope.radius());
        if !(radius.is_finite() && radius > 0.0) {
            return None;
        }
        let limit = MAX_BOX_DEVIATION * radius;
        let corners = canonical_corners(&v, corner_assignment(&v, limit)?);
        let p = |bits: usize| v[corners[bits] as usize];
        // The mean edge along each axis, then orthonormalised: exact for axis-aligned boxes.
        let mean_edge = |k: usize| {
            let mut sum = VectorD::zeros();
            for bits in (0..8).filter(|b| b >> k & 1 == 0) {
                sum += p(bits | 1 << k) - p(bits);
            }
            sum * 0.25
        };
        let edges = [mean_edge(0), mean_edge(1), mean_edge(2)];
        // Orthonormalised longest first: a long edge's direction is the least disturbed by the
        // rounding of its ends, and a short axis tilted by the others' errors moves corners least.
        // (Gram-Schmidt keeps the sign of the determinant, positive by the canonical labelling.)
        let mut order = [0, 1, 2];
        order.sort_by(|&i, &j| edges[j].norm_squared().total_cmp(&edges[i].norm_squared()));
        let mut unit = [VectorD::zeros(); 3];
        for (n, &k) in order.iter().enumerate() {
            let mut e = edges[k];
            for &done in &order[..n] {
                e -= unit[done] * e.dot(&unit[done]);
            }
            unit[k] = e.normalize();
        }
        let [a0, a1, a2] = unit;
        let axes = Matrix3::from_columns(&[a0, a1, a2]);
        let half_extents = VectorD::new(
            0.5 * edges[0].dot(&a0),
            0.5 * edges[1].dot(&a1),
            0.5 * edges[2].dot(&a2),
        );
        // Summed in corner order, so the centre does not depend on the vertex order either.
        let centre = (0..8).map(p).sum::<VectorD>() * 0.125;
        if !(half_extents.min() > 0.0
            && axes.determinant() > 0.0
            && centre.iter().chain(axes.iter()).all(|x| x.is_finite()))
        {
            return None;
        }
        let mut deviation = 0.0f64;
        for (bits, &vertex) in corners.iter().enumerate() {
            let ideal = centre + axes * corner_signs(bits).component_mul(&half_extents);
            deviation = deviation.max((v[vertex as usize] - ideal).norm());
        }
        if deviation.is_nan() || deviation > limit {
            return None;
        }
        if deviation > 0.0 {
            deviation += DEVIATION_ROUNDING * radius;
        }
        Some(Self {
            centre,
            axes,
            axis_aligned: axes == Matrix3::identity(),
            half_extents,
            deviation,
            corner_vertices: corners,
            radius,
        })
    }
}

/// Relabels the corners of a box (`corners[bits]` the vertex at corner `bits`, for some labelling
/// of its edge directions as axes 0-2 with signs) canonically: of the 48 labellings (3! axis
/// orders x 2^3 signs), the one whose edge directions `e_k` (from corner 0 to corner `1 << k`)
/// have the largest `sum_k e_k[k] / |e_k|` among those with `det [e_0 e_1 e_2] > 0`. That is the
/// rotation closest to the identity (largest trace), so a box with edges along the local axes
/// gets axes exactly `+x, +y, +z`. The labelling only depends on the vertex order through exact
/// ties (boxes turned half-way between two canonical rotations).
fn canonical_corners(v: &[VectorD; 8], corners: [u32; 8]) -> [u32; 8] {
    let direction = |k: usize| {
        let e = v[corners[1 << k] as usize] - v[corners[0] as usize];
        e / e.norm()
    };
    let e = [direction(0), direction(1), direction(2)];
    let handed = e[0].dot(&e[1].cross(&e[2])) > 0.0;
    const PERMUTATIONS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [1, 2, 0],
        [2, 0, 1],
        [0, 2, 1],
        [2, 1, 0],
        [1, 0, 2],
    ];
    let mut best = (f64::NEG_INFINITY, [0, 1, 2], 0usize);
    for (n, perm) in PERMUTATIONS.iter().enumerate() {
        // New axis `j` is old axis `perm[j]`, flipped when bit `j` of `flips` is set. An odd
        // permutation or an odd number of flips reverses the handedness.
        let odd_perm = n >= 3;
        for flips in 0..8usize {
            let odd = odd_perm ^ (flips.count_ones() % 2 == 1);
            if odd == handed {
                continue;
            }
            let trace: f64 = (0..3)
                .map(|j| {
                    let s = if flips >> j & 1 == 1 { -1.0 } else { 1.0 };
                    s * e[perm[j]][j]
                })
                .sum();
            if trace > best.0 {
                best = (trace, *perm, flips);
            }
        }
    }
    let (_, perm, flips) = best;
    std::array::from_fn(|bits| {
        // New corner `bits` is the old corner with bit `perm[j]` = bit `j` of `bits` XOR flip `j`.
        let mut old = 0;
        for (j, &k) in perm.iter().enumerate() {
            if (bits >> j & 1) ^ (flips >> j & 1) == 1 {
                old |= 1 << k;
            }
        }
        corners[old]
    })
}

/// The sign vector of corner `bits`: component `k` is `+1` when bit `k` is set, else `-1`.
pub(crate) fn corner_signs(bits: usize) -> VectorD {
    VectorD::from_fn(|k, _| if bits >> k & 1 == 1 { 1.0 } else { -1.0 })
}

/// The vertex at each corner `x + 2 y + 4 z` of the box spanned from vertex 0 by three edges to
/// other vertices, orthogonal up to moving their ends by `limit`, when every predicted corner is
/// within `2 limit` of a distinct vertex.
fn corner_assignment(v: &[VectorD; 8], limit: f64) -> Option<[u32; 8]> {
    let edge = |i: usize| v[i] - v[0];
    let orthogonal = |i: usize, j: usize| {
        let (ei, ej) = (edge(i), edge(j));
        ei.dot(&ej).abs() <= 4.0 * limit * (ei.norm() + ej.norm())
    };
    for i in 1..8 {
        for j in i + 1..8 {
            if !orthogonal(i, j) {
                continue;
            }
            for k in j + 1..8 {
                if !orthogonal(i, k) || !orthogonal(j, k) {
                    continue;
                }
                if let Some(corners) = match_corners(v, [i, j, k], limit) {
                    return Some(corners);
                }
            }
        }
    }
    None
}

/// Matches the corners `v0 + sum of a subset of the edges to v[e]` to distinct vertices within
/// `limit`.
fn match_corners(v: &[VectorD; 8], e: [usize; 3], limit: f64) -> Option<[u32; 8]> {
    let mut corners = [u32::MAX; 8];
    let mut used = [false; 8];
    for (bits, corner) in corners.iter_mut().enumerate() {
        let mut predicted = v[0];
        for (k, &ek) in e.iter().enumerate() {
            if bits >> k & 1 == 1 {
                predicted += v[ek] - v[0];
            }
        }
        let found = (0..8).find(|&w| !used[w] && (v[w] - predicted).norm() <= 2.0 * limit)?;
        used[found] = true;
        *corner = found as u32;
    }
    Some(corners)
}
