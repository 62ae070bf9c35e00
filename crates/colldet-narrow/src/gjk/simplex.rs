//! GJK's simplex and its distance sub-algorithm (signed volumes, after Montanari et al. 2017).
//!
//! Rationale: the closest point of a simplex to the origin, and the smallest face of it that holds
//! that point, are decided from the signs of signed volumes (3D), of signed areas in the
//! coordinate plane where the triangle's projection is largest (2D), and of signed lengths on the
//! axis where the segment's projection is longest (1D). A sub-simplex keeps the origin's
//! projection only when every sub-volume has the sign of the whole, strictly; otherwise each face
//! opposite a vertex with an incompatible sign is searched recursively and the closest answer wins.
//! A degenerate simplex (zero length, area or volume) has no compatible sign and so falls through
//! to its faces: no division by a vanishing determinant ever happens. Barycentric weights of kept
//! vertices are strictly positive.

use crate::cso::CsoPoint;
use colldet_geom::math::VectorD;

/// Closest point of a sub-simplex: barycentric weights over the (up to) four vertices.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Projection {
    lambda: [f64; 4],
    dist2: f64,
}

impl Projection {
    /// The squared distance of the closest point from the origin (0 when a tetrahedron encloses
    /// it).
    pub(crate) fn dist2(&self) -> f64 {
        self.dist2
    }
}

impl Projection {
    fn from_weights(w: &[VectorD; 4], lambda: [f64; 4]) -> Self {
        let v = combine(w, &lambda);
        Self {
            lambda,
            dist2: v.norm_squared(),
        }
    }
}

#[inline]
fn combine(w: &[VectorD; 4], lambda: &[f64; 4]) -> VectorD {
    w[0] * lambda[0] + w[1] * lambda[1] + w[2] * lambda[2] + w[3] * lambda[3]
}

/// Strict sign agreement: both positive or both negative.
#[inline]
fn same_sign(a: f64, b: f64) -> bool {
    (a > 0.0 && b > 0.0) || (a < 0.0 && b < 0.0)
}

#[inline]
pub(crate) fn argmax_abs(v: &VectorD) -> usize {
    let a = v.abs();
    if a.x >= a.y && a.x >= a.z {
        0
    } else if a.y >= a.z {
        1
    } else {
        2
    }
}

fn vertex(w: &[VectorD; 4], i: usize) -> Projection {
    let mut lambda = [0.0; 4];
    lambda[i] = 1.0;
    Projection {
        lambda,
        dist2: w[i].norm_squared(),
    }
}

fn s1d(w: &[VectorD; 4], i: usize, j: usize) -> Projection {
    let (a, b) = (w[i], w[j]);
    let t = b - a;
    let tt = t.norm_squared();
    if tt == 0.0 {
        return vertex(w, i);
    }
    let p0 = a - t * (a.dot(&t) / tt);
    let k = argmax_abs(&t);
    let mu = a[k] - b[k];
    let ci = p0[k] - b[k];
    let cj = a[k] - p0[k];
    if same_sign(mu, ci) && same_sign(mu, cj) {
        let mut lambda = [0.0; 4];
        lambda[i] = ci / mu;
        lambda[j] = cj / mu;
        Projection::from_weights(w, lambda)
    } else if same_sign(mu, ci) {
        vertex(w, i)
    } else {
        vertex(w, j)
    }
}

#[inline]
pub(crate) fn area2(p: &VectorD, q: &VectorD, r: &VectorD, x: usize, y: usize) -> f64 {
    (q[x] - p[x]) * (r[y] - p[y]) - (q[y] - p[y]) * (r[x] - p[x])
}

fn closer(best: Option<Projection>, candidate: Projection) -> Option<Projection> {
    match best {
        Some(b) if b.dist2 <= candidate.dist2 => Some(b),
        _ => Some(candidate),
    }
}

fn s2d(w: &[VectorD; 4], i: usize, j: usize, k: usize) -> Projection {
    let (a, b, c) = (w[i], w[j], w[k]);
    let n = (b - a).cross(&(c - a));
    let nn = n.norm_squared();
    let idx = [i, j, k];
    let mut compatible = [false; 3];
    let mut cs = [0.0; 3];
    let mut mu = 0.0;
    if nn > 0.0 && nn.is_finite() {
        let p0 = n * (a.dot(&n) / nn);
        let axis = argmax_abs(&n);
        let (x, y) = ((axis + 1) % 3, (axis + 2) % 3);
        mu = area2(&a, &b, &c, x, y);
        cs = [
            area2(&p0, &b, &c, x, y),
            area2(&a, &p0, &c, x, y),
            area2(&a, &b, &p0, x, y),
        ];
        for m in 0..3 {
            compatible[m] = same_sign(mu, cs[m]);
        }
    }
    if compatible.iter().all(|&c| c) {
        let mut lambda = [0.0; 4];
        for m in 0..3 {
            lambda[idx[m]] = cs[m] / mu;
        }
        return Projection::from_weights(w, lambda);
    }
    let mut best = None;
    for m in 0..3 {
        if !compatible[m] {
            best = closer(best, s1d(w, idx[(m + 1) % 3], idx[(m + 2) % 3]));
        }
    }
    best.unwrap_or_else(|| vertex(w, i))
}

/// Six times the signed volume of the tetrahedron `a, b, c, d`.
#[inline]
pub(crate) fn volume6(a: &VectorD, b: &VectorD, c: &VectorD, d: &VectorD) -> f64 {
    (b - a).dot(&(c - a).cross(&(d - a)))
}

fn s3d(w: &[VectorD; 4]) -> Projection {
    let o = VectorD::zeros();
    let mu = volume6(&w[0], &w[1], &w[2], &w[3]);
    let cs = [
        volume6(&o, &w[1], &w[2], &w[3]),
        volume6(&w[0], &o, &w[2], &w[3]),
        volume6(&w[0], &w[1], &o, &w[3]),
        volume6(&w[0], &w[1], &w[2], &o),
    ];
    let compatible = cs.map(|c| same_sign(mu, c));
    if compatible.iter().all(|&c| c) {
        return Projection {
            lambda: cs.map(|c| c / mu),
            dist2: 0.0,
        };
    }
    const FACES: [[usize; 3]; 4] = [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]];
    let mut best = None;
    for m in 0..4 {
        if !compatible[m] {
            let [i, j, k] = FACES[m];
            best = closer(best, s2d(w, i, j, k));
        }
    }
    best.unwrap_or_else(|| vertex(w, 0))
}

/// Up to four CSO points and the barycentric weights of the origin's closest point on them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Simplex {
    pts: [CsoPoint; 4],
    lambda: [f64; 4],
    len: usize,
}

impl Simplex {
    /// The one-point simplex `{p}`.
    pub(crate) fn new(p: CsoPoint) -> Self {
        let mut pts = [CsoPoint::ZERO; 4];
        pts[0] = p;
        Self {
            pts,
            lambda: [1.0, 0.0, 0.0, 0.0],
            len: 1,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    pub(crate) fn points(&self) -> &[CsoPoint] {
        &self.pts[..self.len]
    }

    /// Whether `w` is already a vertex (exact comparison: support maps return the same point for the
    /// same feature).
    pub(crate) fn contains(&self, p: &CsoPoint) -> bool {
        self.points().iter().any(|q| q.w == p.w)
    }

    /// Appends a vertex; the caller keeps `len < 4` before calling (GJK reduces after every push).
    pub(crate) fn push(&mut self, p: CsoPoint) {
        debug_assert!(self.len < 4);
        self.pts[self.len] = p;
        self.len += 1;
    }

    /// The empty simplex (GJK fills it before reducing).
    pub(crate) fn empty() -> Self {
        Self {
            pts: [CsoPoint::ZERO; 4],
            lambda: [0.0; 4],
            len: 0,
        }
    }

    /// Empties the simplex (its storage is overwritten by the next pushes).
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// Drops the last pushed vertex, keeping the weights of the others (GJK undoing a step that
    /// did not bring the simplex closer).
    pub(crate) fn pop(&mut self) {
        self.len -= 1;
    }

    /// The weights of the closest point, one per vertex.
    pub(crate) fn weights(&self) -> &[f64] {
        &self.lambda[..self.len]
    }

    /// Sets the weights of the closest point (a warm start's last weights; any non-negative
    /// weights summing to 1 name a point of the simplex).
    pub(crate) fn set_weights(&mut self, lambda: &[f64; 4]) {
        self.lambda = *lambda;
    }

    /// The closest point of the simplex to the origin, as weights over its vertices, without
    /// changing the simplex ([`Simplex::apply`] keeps it).
    pub(crate) fn project(&self) -> Projection {
        let mut w = [VectorD::zeros(); 4];
        for (wi, p) in w.iter_mut().zip(self.points()) {
            *wi = p.w;
        }
        match self.len {
            1 => vertex(&w, 0),
            2 => s1d(&w, 0, 1),
            3 => s2d(&w, 0, 1, 2),
            _ => s3d(&w),
        }
    }

    /// Replaces the simplex by the smallest face holding its closest point to the origin and
    /// returns that point. A four-point simplex survives only when it strictly encloses the origin
    /// (then the result is exactly zero).
    pub(crate) fn reduce(&mut self) -> VectorD {
        let proj = self.project();
        self.apply(&proj)
    }

    /// [`Simplex::reduce`] with the projection computed by [`Simplex::project`] on this simplex.
    pub(crate) fn apply(&mut self, proj: &Projection) -> VectorD {
        let mut kept = 0;
        for i in 0..self.len {
            if proj.lambda[i] > 0.0 {
                self.pts[kept] = self.pts[i];
                self.lambda[kept] = proj.lambda[i];
                kept += 1;
            }
        }
        self.len = kept;
        if kept == 4 {
            return VectorD::zeros();
        }
        self.closest_cso_point()
    }

    /// The support tokens of the vertex with the largest weight (the first vertex's of an empty
    /// simplex: zeros).
    pub(crate) fn heaviest_tokens(&self) -> [u32; 2] {
        let mut best = (f64::NEG_INFINITY, [0; 2]);
        for (p, &l) in self.points().iter().zip(&self.lambda) {
            if l > best.0 {
                best = (l, p.ids);
            }
        }
        best.1
    }

    /// `sum lambda_i w_i`.
    pub(crate) fn closest_cso_point(&self) -> VectorD {
        self.points()
            .iter()
            .zip(&self.lambda)
            .fold(VectorD::zeros(), |acc, (p, l)| acc + p.w * *l)
    }

    /// The closest points on shape 1 and shape 2 (shape 1's frame): `sum lambda_i p1_i`, `sum
    /// lambda_i p2_i`.
    pub(crate) fn witness_points(&self) -> (VectorD, VectorD) {
        self.points()
            .iter()
            .zip(&self.lambda)
            .fold((VectorD::zeros(), VectorD::zeros()), |(a, b), (p, l)| {
                (a + p.p1 * *l, b + p.p2 * *l)
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn simplex_of(ws: &[VectorD]) -> Simplex {
        let mk = |w: VectorD| CsoPoint {
            w,
            p1: w,
            p2: VectorD::zeros(),
            ids: [0; 2],
        };
        let mut s = Simplex::new(mk(ws[0]));
        for &w in &ws[1..] {
            s.push(mk(w));
        }
        s
    }

    #[test]
    fn segment_interior_and_vertex_regions() {
        let mut s = simplex_of(&[VectorD::new(-1.0, 2.0, 0.0), VectorD::new(3.0, 2.0, 0.0)]);
        let v = s.reduce();
        assert_eq!(s.len(), 2);
        assert!((v - VectorD::new(0.0, 2.0, 0.0)).norm() < 1e-15);
        let mut s = simplex_of(&[VectorD::new(1.0, 2.0, 0.0), VectorD::new(3.0, 2.0, 0.0)]);
        let v = s.reduce();
        assert_eq!(s.len(), 1);
        assert_eq!(v, VectorD::new(1.0, 2.0, 0.0));
    }

    #[test]
    fn triangle_face_edge_and_degenerate() {
        let a = VectorD::new(-1.0, -1.0, 2.0);
        let b = VectorD::new(3.0, -1.0, 2.0);
        let c = VectorD::new(-1.0, 3.0, 2.0);
        let mut s = simplex_of(&[a, b, c]);
        let v = s.reduce();
        assert_eq!(s.len(), 3);
        assert!((v - VectorD::new(0.0, 0.0, 2.0)).norm() < 1e-15);
        // Shifted so that the origin projects beyond edge a-b: closest point on that edge.
        let d = VectorD::new(0.0, 2.0, 0.0);
        let mut s = simplex_of(&[a + d, b + d, c + d]);
        let v = s.reduce();
        assert_eq!(s.len(), 2);
        assert!((v - VectorD::new(0.0, 1.0, 2.0)).norm() < 1e-15);
        // Collinear triangle: falls back to its edges.
        let mut s = simplex_of(&[
            VectorD::new(-1.0, 1.0, 0.0),
            VectorD::new(1.0, 1.0, 0.0),
            VectorD::new(3.0, 1.0, 0.0),
        ]);
        let v = s.reduce();
        assert!((v - VectorD::new(0.0, 1.0, 0.0)).norm() < 1e-15);
    }

    #[test]
    fn tetrahedron_enclosing_and_outside() {
        let t = [
            VectorD::new(1.0, 1.0, 1.0),
            VectorD::new(-1.0, -1.0, 1.0),
            VectorD::new(-1.0, 1.0, -1.0),
            VectorD::new(1.0, -1.0, -1.0),
        ];
        let mut s = simplex_of(&t);
        assert_eq!(s.reduce(), VectorD::zeros());
        assert_eq!(s.len(), 4);
        let shift = VectorD::new(0.0, 0.0, 5.0);
        let mut s = simplex_of(&t.map(|p| p + shift));
        let v = s.reduce();
        // Lowest points of the shifted tetrahedron are the edge at z = 4.
        assert_eq!(s.len(), 2);
        assert!((v - VectorD::new(0.0, 0.0, 4.0)).norm() < 1e-14);
        // Flat tetrahedron: never "encloses", falls back to a face containing the origin.
        let mut s = simplex_of(&[
            VectorD::new(-1.0, -1.0, 0.0),
            VectorD::new(2.0, -1.0, 0.0),
            VectorD::new(-1.0, 2.0, 0.0),
            VectorD::new(1.0, 1.0, 0.0),
        ]);
        let v = s.reduce();
        assert!(s.len() < 4);
        assert!(v.norm() < 1e-15);
    }
}
