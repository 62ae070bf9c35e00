//! Rotation about an axis (seed sections 2.4-2.5): vertex-polygon and edge-edge primitives in the
//! axis frame, where the rotation axis is the `z` axis through the origin.
//!
//! # Frame and sign conventions
//! [`AxisFrame`] maps world coordinates to the axis frame (`f64`, one rotation and one
//! subtraction per point: a few ulps of the coordinates). In the frame the moving feature turns
//! right-handed about `+z` by `theta` in `[0, total]`: `x' = x cos - y sin`, `y' = x sin + y cos`.
//! A negative world angle is the positive angle about the negated axis ([`AxisFrame::new`] takes
//! the signed axis), so the primitives only see `total > 0`.
//!
//! # Roots without arc tangents
//! A feature function of the form `v0 cos(theta) + v1 sin(theta) + v2` (the plane value of a
//! rotated vertex, or the Plücker side product of a rotated and a fixed line) becomes, with
//! `r = tan(theta / 2)`, the quadratic `(v2 - v0) r^2 + 2 v1 r + (v2 + v0) = 0`. On `theta` in
//! `[0, pi)`, `r` is increasing, so roots are ordered by `r`. Rotations are split into
//! [`RotationPlan`] pieces of equal angle below `pi` (1 piece below 180 degrees, 2 below 360, 3 for
//! a full turn); a rotation beyond a full turn only covers the first turn (the motion repeats).
//! Roots are ordered by `(piece, r)` ([`RotationRoot`]); the angle is only formed at the end, by
//! [`RotationPlan::fraction_bracket`].
//!
//! # Degenerate cases (seed)
//! `v2 - v0 = 0`: one root `-(v2 + v0) / (2 v1)` and one at `theta = pi`, which is never inside a
//! piece (pieces are shorter than `pi`; the next piece sees it at `r > 0`).
//! `v0 = v1 = v2 = 0`: the axis is orthogonal to the plane and the vertex on it, a vertex on the
//! axis in the plane, or for edges both lines through one axis point, both parallel to the axis
//! or both in one plane orthogonal to it: no contact from this pair (the contact, if any, is
//! found as a vertex-face one).
//!
//! # Accuracy
//! The coefficients and roots are rounded `f64` (not certified); the roots are the exact roots of
//! coefficients within a few ulps of the frame coordinates. The fraction bracket only certifies the
//! conversion from the computed root to a fraction (see [`RotationPlan::fraction_bracket`]).

use colldet_geom::math::{MatrixD, PointD, VectorD};

use crate::error::CcdError;

/// A frame in which the rotation axis is the `z` axis through the origin (right-handed basis
/// `e1, e2, axis`). Points map as `basis * (p - pivot)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AxisFrame {
    pivot: PointD,
    /// Rows: `e1`, `e2`, the unit axis.
    basis: MatrixD,
}

impl AxisFrame {
    /// The frame of the axis through `pivot` (world) along `axis` (world, of unit length within
    /// `1e-6`; it is renormalised in `f64`).
    ///
    /// # Errors
    /// [`CcdError::NonFinite`] for a NaN or infinite input, [`CcdError::InvalidParameter`] for an
    /// axis that is not of unit length.
    pub fn new(pivot: &PointD, axis: &VectorD) -> Result<Self, CcdError> {
        if !pivot.iter().chain(axis.iter()).all(|c| c.is_finite()) {
            return Err(CcdError::NonFinite {
                what: "rotation axis",
            });
        }
        let len = axis.norm();
        if (len - 1.0).abs() > 1e-6 {
            return Err(CcdError::InvalidParameter {
                what: "rotation axis",
                requirement: "must have unit length",
            });
        }
        let z = axis / len;
        // Helper: the coordinate axis least aligned with z.
        let (ax, ay, az) = (z.x.abs(), z.y.abs(), z.z.abs());
        let helper = if ax <= ay && ax <= az {
            VectorD::x()
        } else if ay <= az {
            VectorD::y()
        } else {
            VectorD::z()
        };
        let x = (helper - z * z.dot(&helper)).normalize();
        let y = z.cross(&x);
        Ok(Self {
            pivot: *pivot,
            basis: MatrixD::from_rows(&[x.transpose(), y.transpose(), z.transpose()]),
        })
    }

    /// A world point in the axis frame.
    #[inline]
    pub fn point_to_frame(&self, p: &PointD) -> PointD {
        PointD::from(self.basis * (p - self.pivot))
    }

    /// A world direction in the axis frame.
    #[inline]
    pub fn vector_to_frame(&self, v: &VectorD) -> VectorD {
        self.basis * v
    }

    /// An axis-frame point in world coordinates.
    #[inline]
    pub fn point_to_world(&self, p: &PointD) -> PointD {
        PointD::from(self.basis.tr_mul(&p.coords)) + self.pivot.coords
    }

    /// An axis-frame direction in world coordinates.
    #[inline]
    pub fn vector_to_world(&self, v: &VectorD) -> VectorD {
        self.basis.tr_mul(v)
    }
}

/// Which way the feature whose position is rotated turns in the axis frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sense {
    /// The point turns by `+theta` about `+z` (the moving body's vertex against a fixed face).
    Forward,
    /// The point turns by `-theta` (a fixed body's vertex seen from the moving body's frame).
    Backward,
}

impl Sense {
    fn sign(self) -> f64 {
        match self {
            Self::Forward => 1.0,
            Self::Backward => -1.0,
        }
    }
}

/// When a root lies in a rotation: piece index and `r = tan(beta / 2)` of the angle `beta` into
/// the piece. Ordered lexicographically (`piece`, then `r`): the order of the rotation angles.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct RotationRoot {
    /// The piece of the [`RotationPlan`].
    pub piece: u32,
    /// `tan(beta / 2)`, in `[0, plan.r_max()]`.
    pub r: f64,
}

/// A rotation of `total > 0` radians split into pieces of equal angle below `pi` (module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RotationPlan {
    total: f64,
    pieces: u32,
    piece_angle: f64,
    r_max: f64,
    /// `cos, sin` of each piece's start angle.
    starts: [(f64, f64); 3],
}

impl RotationPlan {
    /// The plan of a rotation by `total` radians (`total > 0`, finite; beyond `2 pi` only the first
    /// turn is searched).
    ///
    /// # Errors
    /// [`CcdError::NonFinite`] or [`CcdError::InvalidParameter`] for `total` not finite and
    /// positive.
    pub fn new(total: f64) -> Result<Self, CcdError> {
        if !total.is_finite() {
            return Err(CcdError::NonFinite {
                what: "rotation angle",
            });
        }
        if total <= 0.0 {
            return Err(CcdError::InvalidParameter {
                what: "rotation angle",
                requirement: "must be positive in the axis frame",
            });
        }
        let covered = total.min(std::f64::consts::TAU);
        let pieces = ((covered / std::f64::consts::PI).floor() as u32 + 1).min(3);
        let piece_angle = covered / f64::from(pieces);
        let mut starts = [(1.0, 0.0); 3];
        for (j, s) in starts.iter_mut().enumerate().take(pieces as usize) {
            let (sin, cos) = (piece_angle * j as f64).sin_cos();
            *s = (cos, sin);
        }
        Ok(Self {
            total,
            pieces,
            piece_angle,
            r_max: (piece_angle * 0.5).tan(),
            starts,
        })
    }

    /// The total angle (radians, positive).
    pub fn total(&self) -> f64 {
        self.total
    }

    /// Number of pieces (1 to 3).
    pub fn pieces(&self) -> u32 {
        self.pieces
    }

    /// `tan(piece_angle / 2)`: the largest `r` of a piece.
    pub fn r_max(&self) -> f64 {
        self.r_max
    }

    /// `cos` and `sin` of the rotation angle at `root`.
    pub fn cos_sin(&self, root: RotationRoot) -> (f64, f64) {
        let (cj, sj) = self.starts[root.piece.min(2) as usize];
        let r = root.r;
        let den = 1.0 + r * r;
        let (cb, sb) = ((1.0 - r * r) / den, 2.0 * r / den);
        (cj * cb - sj * sb, sj * cb + cj * sb)
    }

    /// The fraction of the rotation at `root`, as a bracket `[lo, hi]` in `[0, 1]` that contains
    /// `(piece * piece_angle + 2 atan(r)) / total` evaluated exactly on the computed `r` and the
    /// plan's `f64` piece angle: the `f64` evaluation widened by 8 ulps relative (the `atan`, one
    /// product, one sum and one quotient each round by at most about one ulp). A root at `r = 0`
    /// of the first piece gives `[0, 0]`.
    pub fn fraction_bracket(&self, root: RotationRoot) -> [f64; 2] {
        let theta = self.piece_angle * f64::from(root.piece) + 2.0 * root.r.atan();
        let f = theta / self.total;
        let w = 8.0 * f64::EPSILON * f;
        [(f - w).clamp(0.0, 1.0), (f + w).clamp(0.0, 1.0)]
    }

    /// The rotation angle (radians) at `root`, rounded: for display and for the callers' poses.
    pub fn angle(&self, root: RotationRoot) -> f64 {
        self.piece_angle * f64::from(root.piece) + 2.0 * root.r.atan()
    }

    /// Roots of `v0 cos(theta) + v1 sin(theta) + v2 = 0` over the plan, in increasing order.
    pub fn roots(&self, v: [f64; 3]) -> Vec<RotationRoot> {
        let mut out = Vec::new();
        if !v.iter().all(|c| c.is_finite()) || v.iter().all(|&c| c == 0.0) {
            return out;
        }
        for piece in 0..self.pieces {
            let (cj, sj) = self.starts[piece as usize];
            // The function of the angle beta into the piece.
            let w0 = v[0] * cj + v[1] * sj;
            let w1 = v[1] * cj - v[0] * sj;
            let (rs, n) = half_tangent_roots(w0, w1, v[2], self.r_max);
            out.extend(rs[..n].iter().map(|&r| RotationRoot { piece, r }));
        }
        out
    }
}

/// Roots in `[0, r_max]` of `(v2 - v0) r^2 + 2 v1 r + (v2 + v0) = 0`, ascending.
fn half_tangent_roots(v0: f64, v1: f64, v2: f64, r_max: f64) -> ([f64; 2], usize) {
    let (a, b, c) = (v2 - v0, v1, v2 + v0);
    let mut roots = [0.0; 2];
    let mut n = 0;
    let mut push = |r: f64| {
        if (0.0..=r_max).contains(&r) {
            roots[n] = r;
            n += 1;
        }
    };
    if a == 0.0 {
        if b != 0.0 {
            // The other root is theta = pi, outside every piece.
            push(-c / (2.0 * b));
        }
    } else {
        let disc = b * b - a * c;
        if disc >= 0.0 {
            let q = -(b + disc.sqrt().copysign(b));
            if q == 0.0 {
                push(0.0);
            } else {
                let (r1, r2) = (q / a, c / q);
                let (lo, hi) = if r1 <= r2 { (r1, r2) } else { (r2, r1) };
                push(lo);
                if hi != lo {
                    push(hi);
                }
            }
        }
    }
    (roots, n)
}

/// `p` turned by the angle with cosine `c` and sine `s` about `z`.
#[inline]
pub fn rotate_z(p: &PointD, c: f64, s: f64) -> PointD {
    PointD::new(p.x * c - p.y * s, p.x * s + p.y * c, p.z)
}

/// A vertex-face contact of a rotation: when, and where (axis frame, the vertex at the contact).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RotationHit {
    /// When.
    pub root: RotationRoot,
    /// The contact point, axis frame.
    pub point: PointD,
}

/// The coefficients `(v0, v1, v2)` of the plane value `n . p(theta) + d` of the vertex `p` turned
/// by `sense * theta` against the plane `n . x + d = 0`: `v0 cos + v1 sin + v2` (units: `|n|`
/// times length).
pub fn vertex_plane_coefficients(p: &PointD, n: &VectorD, d: f64, sense: Sense) -> [f64; 3] {
    [
        n.x * p.x + n.y * p.y,
        sense.sign() * (n.y * p.x - n.x * p.y),
        n.z * p.z + d,
    ]
}

/// First contact of the vertex `p` (axis frame), turned by `sense * theta`, with the closed
/// triangle `tri` (axis frame, counter-clockwise seen from its front), entering through the front.
///
/// At each plane root in order: the rotated vertex and its instantaneous direction of motion
/// `sense * (-y, x, 0)` form the seed's Plücker line; the root is a contact when the direction
/// enters the front (`dir . n < 0`) and the line's side products with the three edges are all
/// `<= 0` (touching the boundary counts). A direction tangent to the plane (`dir . n == 0`, a
/// grazing double root) is tested with the line along `-n` instead. With `front_only` (faces of
/// closed surfaces) a root crossing from the back (`dir . n > 0`) is not a contact; otherwise it
/// is tested with the line reversed. Degenerate triangles never report.
pub fn vertex_face_rotation(
    plan: &RotationPlan,
    p: &PointD,
    tri: &[PointD; 3],
    sense: Sense,
    front_only: bool,
) -> Option<RotationHit> {
    let n = (tri[1] - tri[0]).cross(&(tri[2] - tri[0]));
    if n == VectorD::zeros() {
        return None;
    }
    let d = -n.dot(&tri[0].coords);
    let coeffs = vertex_plane_coefficients(p, &n, d, sense);
    let sg = sense.sign();
    for root in plan.roots(coeffs) {
        let (c, s) = plan.cos_sin(root);
        let pos = rotate_z(p, c, sg * s);
        let vel = VectorD::new(-pos.y, pos.x, 0.0) * sg;
        let rate = vel.dot(&n);
        if rate.is_nan() || (front_only && rate > 0.0) {
            continue;
        }
        let dir = if rate < 0.0 {
            vel
        } else if rate > 0.0 {
            -vel
        } else {
            -n
        };
        if point_line_inside(&pos, &dir, tri) {
            return Some(RotationHit { root, point: pos });
        }
    }
    None
}

/// True when the line through `p` along `dir` (entering the triangle's front) passes through the
/// closed triangle: the side products `dir . ((A - p) x (B - p))` of all three edges `A -> B` are
/// `<= 0` (the seed's Plücker sidedness, translated to `p`).
pub fn point_line_inside(p: &PointD, dir: &VectorD, tri: &[PointD; 3]) -> bool {
    (0..3).all(|k| {
        let a = tri[k] - p;
        let b = tri[(k + 1) % 3] - p;
        dir.dot(&a.cross(&b)) <= 0.0
    })
}

/// The coefficients `(v0, v1, v2)` of the Plücker side product of the segment `a0 -> a1` turned
/// by `theta` about `z` with the fixed segment `b0 -> b1` (lines as direction `u = end - start`
/// and moment `m = start x end`; side `u1 . m2 + u2 . m1`).
pub fn edge_edge_coefficients(a0: &PointD, a1: &PointD, b0: &PointD, b1: &PointD) -> [f64; 3] {
    let (u1, m1) = (a1 - a0, a0.coords.cross(&a1.coords));
    let (u2, m2) = (b1 - b0, b0.coords.cross(&b1.coords));
    [
        u1.x * m2.x + u1.y * m2.y + m1.x * u2.x + m1.y * u2.y,
        u1.x * m2.y - u1.y * m2.x + m1.x * u2.y - m1.y * u2.x,
        u1.z * m2.z + m1.z * u2.z,
    ]
}

/// First contact of the segment `a0 a1` (axis frame) turned by `+theta` with the fixed segment
/// `b0 b1`: a root of the side product at which the two closed segments meet. The bounds are
/// checked in the common plane of the lines at the root: `a0'`, `a1'` on opposite sides of (or on)
/// the line `b0 b1` and `b0`, `b1` on opposite sides of (or on) the line `a0' a1'`, sides taken
/// along the plane normal `u1' x u2`. Parallel lines at the root never report (found as
/// vertex-face). Both crossing directions count (the seed culls none for edges). The point is
/// the intersection of the supporting lines (seed 2.6).
pub fn edge_edge_rotation(
    plan: &RotationPlan,
    a0: &PointD,
    a1: &PointD,
    b0: &PointD,
    b1: &PointD,
) -> Option<RotationHit> {
    let coeffs = edge_edge_coefficients(a0, a1, b0, b1);
    for root in plan.roots(coeffs) {
        let (c, s) = plan.cos_sin(root);
        let (p0, p1) = (rotate_z(a0, c, s), rotate_z(a1, c, s));
        if let Some(point) = segments_meet(&p0, &p1, b0, b1) {
            return Some(RotationHit { root, point });
        }
    }
    None
}

/// The meeting point of two (nearly) coplanar closed segments, or `None` when they miss or are
/// parallel (module docs of [`edge_edge_rotation`]).
pub fn segments_meet(p0: &PointD, p1: &PointD, b0: &PointD, b1: &PointD) -> Option<PointD> {
    let u1 = p1 - p0;
    let u2 = b1 - b0;
    let n = u1.cross(&u2);
    if n == VectorD::zeros() || !n.iter().all(|c| c.is_finite()) {
        return None;
    }
    let side = |p: &PointD, q0: &PointD, q1: &PointD| n.dot(&(q0 - p).cross(&(q1 - p)));
    let (sa0, sa1) = (side(p0, b0, b1), side(p1, b0, b1));
    let (sb0, sb1) = (side(b0, p0, p1), side(b1, p0, p1));
    let straddle = |x: f64, y: f64| (x <= 0.0 && y >= 0.0) || (x >= 0.0 && y <= 0.0);
    if !(straddle(sa0, sa1) && straddle(sb0, sb1)) {
        return None;
    }
    // Plane through the first line containing n, intersected with the second line.
    let k = u1.cross(&n);
    let den = k.dot(&u2);
    let point = if den != 0.0 {
        let t = (k.dot(&(p0 - b0)) / den).clamp(0.0, 1.0);
        b0 + u2 * t
    } else {
        PointD::from((b0.coords + b1.coords) * 0.5)
    };
    Some(point)
}
