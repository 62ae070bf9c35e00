//! Translational sweeps (seed sections 2.2-2.3): a vertex moving along `d` against a triangle,
//! and an edge moving along `d` against an edge, both bodies' coordinates given in one frame (the
//! hit body's local frame) in `f64`.
//!
//! Every decision is the exact sign of a determinant ([`crate::exact_det`]): the plane crossing
//! (`alpha + tau beta = 0` for `tau` in `[0, 1]`), and the Plücker sidedness of the vertex's path
//! (the line through the vertex along `d`) against each directed edge line of the triangle. Two
//! triangles that share an edge evaluate the same determinant with opposite signs, exactly, so a
//! path through a shared edge or vertex hits both closed triangles and never slips between them.
//! Touching counts: zero signs are inside.
//!
//! The fraction itself, `-alpha / beta`, is a quotient of two rounded determinants: it is
//! returned as a bracket from their forward error bounds (typically a few ulps wide), clamped to
//! `[0, 1]`, which the exact decisions certify.

use colldet_geom::math::VectorD;

use crate::TimeOfImpact;
use crate::exact_det::{Column, Estimate, det_sign, estimate};

/// Which sides of a triangle count: a closed surface is hit only from the front (back faces
/// culled); an open surface from both sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sides {
    /// Only a path entering through the front (the side the counter-clockwise normal points to).
    Front,
    /// Either side.
    Both,
}

/// A triangle prepared for many vertices moving along one `d`: its edge columns and the exact
/// sign of `beta = det(q1 - q0, q2 - q0, d)` (negative when `d` enters its front).
#[derive(Clone, Copy, Debug)]
pub struct SweptTriangle {
    q: [VectorD; 3],
    e1: Column,
    e2: Column,
    dir: Column,
    beta_sign: i8,
    /// Floating-point filter data: the normal `(q1 - q0) x (q2 - q0)`, `n . d`, the edge
    /// planes' normals `d x (q_{k+1} - q_k)`, and the magnitudes their error bounds scale with.
    normal: VectorD,
    beta: f64,
    edge_normals: [VectorD; 3],
    normal_scale: f64,
    beta_error: f64,
    edge_scales: [f64; 3],
}

/// Relative error factor of the filters' bounds: `|computed - exact| <= FILTER_ERROR * scale`
/// where `scale` is the product of the Euclidean (or larger, L1) norms of the factors; the
/// expressions take at most four roundings per term (differences, a cross product, a dot
/// product), so 16 units of roundoff cover them with room.
const FILTER_ERROR: f64 = 16.0 * f64::EPSILON;

#[inline]
fn l1(v: &VectorD) -> f64 {
    v.x.abs() + v.y.abs() + v.z.abs()
}

/// True when `x` is certainly positive or certainly negative (beyond `err`) with the sign `s`.
#[inline]
fn certainly(x: f64, err: f64, s: i8) -> bool {
    (s > 0 && x > err) || (s < 0 && x < -err)
}

impl SweptTriangle {
    /// Prepares triangle `q` (counter-clockwise seen from its front) against motion `d`.
    #[inline]
    pub fn new(q: [VectorD; 3], d: &VectorD) -> Self {
        let e1 = Column::diff(&q[1], &q[0]);
        let e2 = Column::diff(&q[2], &q[0]);
        let dir = Column::of(*d);
        let beta_sign = det_sign(&e1, &e2, &dir);
        let (u, w) = (q[1] - q[0], q[2] - q[0]);
        let normal = u.cross(&w);
        let normal_scale = l1(&u) * l1(&w);
        let edges = [q[1] - q[0], q[2] - q[1], q[0] - q[2]];
        Self {
            q,
            e1,
            e2,
            dir,
            beta_sign,
            normal,
            beta: normal.dot(d),
            edge_normals: edges.map(|e| d.cross(&e)),
            beta_error: FILTER_ERROR * normal_scale * l1(d),
            normal_scale,
            edge_scales: edges.map(|e| FILTER_ERROR * l1(&e) * l1(d)),
        }
    }

    /// The floating-point filter of [`Self::hit_by`]: false only when the path of `a` certainly
    /// misses (every rejection is beyond a rigorous bound of the rounding error).
    #[inline]
    fn may_be_hit_by(&self, a: &VectorD) -> bool {
        let sb = self.beta_sign;
        let r = a - self.q[0];
        let alpha = self.normal.dot(&r);
        let alpha_error = FILTER_ERROR * self.normal_scale * l1(&r);
        if certainly(alpha, alpha_error, sb) {
            return false;
        }
        let gamma = alpha + self.beta;
        let gamma_error = alpha_error + self.beta_error;
        if certainly(alpha, alpha_error, 1) && certainly(gamma, gamma_error, 1)
            || certainly(alpha, alpha_error, -1) && certainly(gamma, gamma_error, -1)
        {
            return false;
        }
        for k in 0..3 {
            let rk = a - self.q[k];
            let side = self.edge_normals[k].dot(&rk);
            if certainly(side, self.edge_scales[k] * l1(&rk), -sb) {
                return false;
            }
        }
        true
    }

    /// The exact sign of `n . d` (`n` the counter-clockwise normal).
    #[inline]
    pub fn facing(&self) -> i8 {
        self.beta_sign
    }

    /// True when a path along `d` can enter the triangle from an allowed side.
    #[inline]
    pub fn can_be_hit(&self, sides: Sides) -> bool {
        self.beta_sign < 0 || (sides == Sides::Both && self.beta_sign > 0)
    }

    /// The first contact fraction of vertex `a` moving along `d` (the triangle's `d`), or `None`.
    /// A path lying in the triangle's plane (`beta = 0`) is never a hit here: its first contact is
    /// found on a neighbouring feature.
    pub fn hit_by(&self, a: &VectorD, d: &VectorD, sides: Sides) -> Option<TimeOfImpact> {
        let sb = self.beta_sign;
        if !self.can_be_hit(sides) || !self.may_be_hit_by(a) {
            return None;
        }
        let q = &self.q;
        let start = Column::diff(a, &q[0]);
        let sa = det_sign(&self.e1, &self.e2, &start);
        if sa * sb > 0 {
            // Behind the plane in the direction of motion: moving away from it.
            return None;
        }
        let sg = det_sign(&self.e1, &self.e2, &Column::diff_plus(a, &q[0], d));
        if sa * sg > 0 {
            return None;
        }
        for k in 0..3 {
            let (qi, qj) = (&q[k], &q[(k + 1) % 3]);
            let side = det_sign(&Column::diff(qj, qi), &Column::diff(a, qi), &self.dir);
            if side * sb < 0 {
                return None;
            }
        }
        Some(fraction(
            estimate(&self.e1, &self.e2, &start),
            estimate(&self.e1, &self.e2, &self.dir),
        ))
    }
}

/// The first contact fraction of vertex `a` moving along `d` with the closed triangle `q`
/// (counter-clockwise seen from its front), or `None` ([`SweptTriangle::hit_by`]).
pub fn vertex_triangle(
    a: &VectorD,
    d: &VectorD,
    q: &[VectorD; 3],
    sides: Sides,
) -> Option<TimeOfImpact> {
    SweptTriangle::new(*q, d).hit_by(a, d, sides)
}

/// An edge prepared for the floating-point filter of [`edge_edge`] against many others, all
/// under one motion `d` (the same preparation serves the moving and the fixed edge).
#[derive(Clone, Copy, Debug)]
pub struct EdgeFilter {
    /// First endpoint.
    pub start: VectorD,
    /// Second endpoint.
    pub end: VectorD,
    direction: VectorD,
    /// `d x (end - start)`: the normal of the plane the edge sweeps.
    swept_normal: VectorD,
    direction_scale: f64,
    swept_scale: f64,
}

impl EdgeFilter {
    /// Prepares the edge `start end` for motion `d`.
    #[inline]
    pub fn new(start: VectorD, end: VectorD, d: &VectorD) -> Self {
        let direction = end - start;
        Self {
            start,
            end,
            direction,
            swept_normal: d.cross(&direction),
            direction_scale: l1(&direction),
            swept_scale: FILTER_ERROR * l1(&direction) * l1(d),
        }
    }

    /// False only when moving edge `self` (along `d`) certainly misses fixed edge `fixed`.
    #[inline]
    pub fn may_hit(&self, fixed: &EdgeFilter, d: &VectorD) -> bool {
        // The fixed edge's endpoints on one side of the plane swept by the moving line...
        let (rp, rq) = (fixed.start - self.start, fixed.end - self.start);
        let err = self.swept_scale * l1(&rp).max(l1(&rq));
        let (sp, sq) = (self.swept_normal.dot(&rp), self.swept_normal.dot(&rq));
        if sp > err && sq > err || sp < -err && sq < -err {
            return false;
        }
        // ...or the moving edge's endpoints on one side of the fixed line's swept plane...
        let (ra, rb) = (self.start - fixed.start, self.end - fixed.start);
        let err = fixed.swept_scale * l1(&ra).max(l1(&rb));
        let (sa, sb) = (fixed.swept_normal.dot(&ra), fixed.swept_normal.dot(&rb));
        if sa > err && sb > err || sa < -err && sb < -err {
            return false;
        }
        // ...or the lines not crossing for a fraction in [0, 1].
        let c = self.direction.cross(&fixed.direction);
        let scale = FILTER_ERROR * self.direction_scale * fixed.direction_scale;
        let alpha = c.dot(&ra);
        let alpha_error = scale * l1(&ra);
        let gamma = alpha + c.dot(d);
        let gamma_error = alpha_error + scale * l1(d);
        !(alpha > alpha_error && gamma > gamma_error
            || alpha < -alpha_error && gamma < -gamma_error)
    }
}

/// The first contact fraction of edge `a b` moving along `d` with the fixed edge `p q` (closed
/// segments), or `None`. Parallel configurations (`det(b - a, q - p, d) = 0`) are never a hit
/// here: their first contact is a vertex of one edge on a face of the other's body.
pub fn edge_edge(
    a: &VectorD,
    b: &VectorD,
    d: &VectorD,
    p: &VectorD,
    q: &VectorD,
) -> Option<TimeOfImpact> {
    let ab = Column::diff(b, a);
    let pq = Column::diff(q, p);
    let dir = Column::of(*d);
    let sb = det_sign(&ab, &pq, &dir);
    if sb == 0 {
        return None;
    }
    let start = Column::diff(a, p);
    let sa = det_sign(&ab, &pq, &start);
    let sg = det_sign(&ab, &pq, &Column::diff_plus(a, p, d));
    if sa * sg > 0 {
        return None;
    }
    // The static line must pass between the paths of a and b...
    let side_a = det_sign(&dir, &pq, &Column::diff(a, p));
    let side_b = det_sign(&dir, &pq, &Column::diff(b, p));
    if side_a * side_b > 0 {
        return None;
    }
    // ...and the moving line between the (reverse) paths of p and q.
    let side_p = det_sign(&dir, &ab, &Column::diff(p, a));
    let side_q = det_sign(&dir, &ab, &Column::diff(q, a));
    if side_p * side_q > 0 {
        return None;
    }
    Some(fraction(
        estimate(&ab, &pq, &start),
        estimate(&ab, &pq, &dir),
    ))
}

/// The bracket of `-alpha / beta` from the two estimates, clamped to `[0, 1]` (the caller has
/// decided exactly that the root lies there).
fn fraction(alpha: Estimate, beta: Estimate) -> TimeOfImpact {
    // Work with tau = |alpha| / |beta|: the exact signs make the root non-negative.
    let (na, ea) = (alpha.value.abs(), alpha.error);
    let (nb, eb) = (beta.value.abs(), beta.error);
    let lo_num = (na - ea).max(0.0);
    let hi_num = na + ea;
    let lo = lo_num / (nb + eb);
    let hi = if nb > eb { hi_num / (nb - eb) } else { 1.0 };
    // One more rounding of each quotient: widen by an ulp.
    TimeOfImpact {
        lo: lo.next_down().clamp(0.0, 1.0),
        hi: hi.next_up().clamp(0.0, 1.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f64, y: f64, z: f64) -> VectorD {
        VectorD::new(x, y, z)
    }

    const FLOOR: [VectorD; 3] = [
        VectorD::new(0.0, 0.0, 0.0),
        VectorD::new(1.0, 0.0, 0.0),
        VectorD::new(0.0, 1.0, 0.0),
    ];

    #[test]
    fn vertex_falls_onto_triangle_at_d_over_speed() {
        let t = vertex_triangle(
            &v(0.25, 0.25, 0.75),
            &v(0.0, 0.0, -1.0),
            &FLOOR,
            Sides::Front,
        )
        .unwrap();
        assert!(t.lo <= 0.75 && 0.75 <= t.hi && t.width() < 1e-13, "{t:?}");
        // From below: back face culled, but found two-sided.
        assert!(
            vertex_triangle(
                &v(0.25, 0.25, -0.75),
                &v(0.0, 0.0, 1.0),
                &FLOOR,
                Sides::Front
            )
            .is_none()
        );
        assert!(
            vertex_triangle(
                &v(0.25, 0.25, -0.75),
                &v(0.0, 0.0, 1.0),
                &FLOOR,
                Sides::Both
            )
            .is_some()
        );
        // Stops one ulp short, reaches exactly, misses sideways.
        let z = 0.75f64;
        assert!(
            vertex_triangle(
                &v(0.25, 0.25, z),
                &v(0.0, 0.0, -z.next_down()),
                &FLOOR,
                Sides::Front
            )
            .is_none()
        );
        let t = vertex_triangle(&v(0.25, 0.25, z), &v(0.0, 0.0, -z), &FLOOR, Sides::Front).unwrap();
        assert_eq!(t.hi, 1.0);
        assert!(
            vertex_triangle(
                &v(0.75, 0.75, 0.5),
                &v(0.0, 0.0, -1.0),
                &FLOOR,
                Sides::Front
            )
            .is_none()
        );
    }

    #[test]
    fn path_through_a_shared_edge_hits_both_triangles() {
        // The unit square split along its diagonal; a path exactly through the diagonal.
        let t1 = [v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(1.0, 1.0, 0.0)];
        let t2 = [v(0.0, 0.0, 0.0), v(1.0, 1.0, 0.0), v(0.0, 1.0, 0.0)];
        let a = v(0.3, 0.3, 1.0);
        let d = v(0.0, 0.0, -2.0);
        assert!(vertex_triangle(&a, &d, &t1, Sides::Front).is_some());
        assert!(vertex_triangle(&a, &d, &t2, Sides::Front).is_some());
        // One ulp beside the diagonal: exactly one of them.
        let a = v(0.3f64.next_up(), 0.3, 1.0);
        let hits = [&t1, &t2]
            .iter()
            .filter(|t| vertex_triangle(&a, &d, t, Sides::Front).is_some())
            .count();
        assert_eq!(hits, 1);
        // Through the shared vertex (0, 0): both again.
        let a = v(0.0, 0.0, 1.0);
        assert!(vertex_triangle(&a, &d, &t1, Sides::Front).is_some());
        assert!(vertex_triangle(&a, &d, &t2, Sides::Front).is_some());
    }

    #[test]
    fn skew_edges_cross_at_the_known_fraction() {
        // Edge along x at height 1 moving down by 4 onto an edge along y at height 0: t = 1/4.
        let t = edge_edge(
            &v(-1.0, 0.5, 1.0),
            &v(1.0, 0.5, 1.0),
            &v(0.0, 0.0, -4.0),
            &v(0.2, -1.0, 0.0),
            &v(0.2, 1.0, 0.0),
        )
        .unwrap();
        assert!(t.lo <= 0.25 && 0.25 <= t.hi && t.width() < 1e-13);
        // Misses when the fixed edge ends before the crossing point (y = 0.5).
        assert!(
            edge_edge(
                &v(-1.0, 0.5, 1.0),
                &v(1.0, 0.5, 1.0),
                &v(0.0, 0.0, -4.0),
                &v(0.2, -1.0, 0.0),
                &v(0.2, 0.5f64.next_down(), 0.0),
            )
            .is_none()
        );
        // Touches when it ends exactly there.
        assert!(
            edge_edge(
                &v(-1.0, 0.5, 1.0),
                &v(1.0, 0.5, 1.0),
                &v(0.0, 0.0, -4.0),
                &v(0.2, -1.0, 0.0),
                &v(0.2, 0.5, 0.0),
            )
            .is_some()
        );
        // Parallel motion: never.
        assert!(
            edge_edge(
                &v(-1.0, 0.5, 1.0),
                &v(1.0, 0.5, 1.0),
                &v(1.0, 0.0, 0.0),
                &v(0.2, -1.0, 1.0),
                &v(0.2, 1.0, 1.0),
            )
            .is_none()
        );
    }
}
