//! Oriented bounding boxes: fitting by covariance (as in RAPID) and the 15-axis overlap test.
//!
//! Rationale.
//! - The box is the closed parallelepiped `{center + axes * u : |u_k| <= half_extents_k}` in the
//!   object's local frame. Fitted axes are orthonormal and right-handed up to `f32` rounding
//!   (entries off by ~1e-7). Rather than pretend they are exact, every computation here uses
//!   formulas valid for *any* three axes: coordinates of a point are `u_k = n_k . (p - center) /
//!   det`, with `n_k = a_{k+1} x a_{k+2}` the cofactor (face-normal) vectors, and the overlap test
//!   projects onto the true face normals `n_k` and the true edge crosses `a_i x b_j`. So fitting,
//!   [`Obb::contains_point`] and [`Obb::overlaps`] agree about one well-defined set.
//! - Fitting computes the covariance and its eigenvectors in `f64`, rounds the axes to `f32`,
//!   then sizes the box in a second pass around the already-rounded `f32` center, adding a few
//!   `f64` ulps of each point's distance and rounding the extents up: every input point is inside.
//! - Overlap: for two parallelepipeds the 3 + 3 face normals and the 9 edge crosses are a
//!   complete set of separating-axis candidates, so the test is exact in real arithmetic. It is
//!   evaluated in `f64` in box 1's object frame; rounding errors are bounded by a few ulps of the
//!   scale `S` = sizes of both centers, of the translation of `pos12` and of the extents (an
//!   overlapping pair has every computed quantity of that order). A candidate axis only
//!   separates when its gap exceeds `64 eps_f64 S`; this is the usual epsilon that stops
//!   near-parallel edges (whose cross product and projections are all ~0) from reporting a
//!   spurious separation, made relative to `S`, so 1e-12-sized boxes work as well as 1e6 ones.

use crate::bounding::round_up_f32;
use crate::error::GeomError;
use crate::math::{
    Isometry, Matrix3, MatrixD, Point, Real, Vector, VectorD, any_perpendicular, is_finite_point,
    to_f64,
};
use nalgebra::SymmetricEigen;

/// Overlap-test margin in units of `f64::EPSILON` times the scale of the pair (see the module
/// rationale).
const OVERLAP_SLACK: f64 = 64.0;
/// Extra size added to each fitted extent, in units of `f64::EPSILON` times the point's distance
/// from the center, covering rounding in the second fitting pass.
const FIT_SLACK: f64 = 16.0;

/// An oriented box in an object's local frame: the closed set
/// `{center + axes * u : |u_k| <= half_extents_k}`.
///
/// Boxes built by [`Obb::from_points`] and [`Obb::from_triangles`] have orthonormal,
/// right-handed axes up to `f32` rounding ([`Obb::validate`] checks this); the queries are exact
/// for the parallelepiped spanned by whatever axes are stored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Obb {
    /// Center of the box, local frame.
    pub center: Point,
    /// The box axes as the columns of a rotation matrix (box frame -> local frame).
    pub axes: Matrix3,
    /// Half side lengths along each axis (non-negative), local units.
    pub half_extents: Vector,
}

impl Obb {
    /// The box with the given center, axes (columns) and half extents.
    #[inline]
    pub fn new(center: Point, axes: Matrix3, half_extents: Vector) -> Self {
        Self {
            center,
            axes,
            half_extents,
        }
    }

    /// The box fitted to `points` by their covariance: axes are the eigenvectors of the
    /// covariance matrix (largest variance first), sized to contain every point.
    ///
    /// # Errors
    /// [`GeomError::NoVertices`] for an empty slice, [`GeomError::NonFiniteCoordinate`] naming the
    /// first point with a NaN or infinite coordinate.
    pub fn from_points(points: &[Point]) -> Result<Self, GeomError> {
        let first = points.first().ok_or(GeomError::NoVertices)?;
        if let Some(vertex) = points.iter().position(|p| !is_finite_point(p)) {
            return Err(GeomError::NonFiniteCoordinate { vertex });
        }
        let axes = principal_axes(&point_covariance(to_f64(first).coords, points));
        Ok(fit(points.iter().copied(), &axes))
    }

    /// The box fitted to a triangle mesh by RAPID's area-weighted covariance: the covariance of
    /// the uniform distribution over the triangles' surface, so the axes do not depend on how
    /// finely the surface is tessellated. Sized to contain every vertex the triangles use. When
    /// every triangle has zero area the covariance of those vertices is used instead.
    ///
    /// # Errors
    /// [`GeomError::NoFaces`] for no triangles, [`GeomError::IndexOutOfRange`] for an index
    /// past `vertices`, [`GeomError::NonFiniteCoordinate`] for a used vertex that is not finite.
    pub fn from_triangles(vertices: &[Point], triangles: &[[u32; 3]]) -> Result<Self, GeomError> {
        if triangles.is_empty() {
            return Err(GeomError::NoFaces);
        }
        for (face, t) in triangles.iter().enumerate() {
            for &i in t {
                let Some(p) = vertices.get(i as usize) else {
                    return Err(GeomError::IndexOutOfRange {
                        face,
                        index: i64::from(i),
                        vertex_count: vertices.len(),
                    });
                };
                if !is_finite_point(p) {
                    return Err(GeomError::NonFiniteCoordinate { vertex: i as usize });
                }
            }
        }
        let used = || triangles.iter().flatten().map(|&i| vertices[i as usize]);
        let origin = to_f64(&vertices[triangles[0][0] as usize]).coords;
        let cov = triangle_covariance(origin, vertices, triangles)
            .unwrap_or_else(|| point_covariance_iter(origin, used()));
        Ok(fit(used(), &principal_axes(&cov)))
    }

    /// True when `p` (local frame) lies in the closed box, deciding in `f64` with the cofactor
    /// formula, so it agrees with how the box was fitted: every fitted point is contained.
    pub fn contains_point(&self, p: &Point) -> bool {
        let cof = Cofactors::new(&self.axes);
        let d = to_f64(p) - to_f64(&self.center);
        (0..3).all(|k| cof.coordinate(k, &d).abs() <= f64::from(self.half_extents[k]))
    }

    /// The eight corners `center + axes * (±h0, ±h1, ±h2)` (bit `k` of the index set means `+`
    /// along axis `k`), rounded to `f32`.
    pub fn corners(&self) -> [Point; 8] {
        let mut out = [self.center; 8];
        for (idx, c) in out.iter_mut().enumerate() {
            for k in 0..3 {
                let s = if idx >> k & 1 == 1 { 1.0 } else { -1.0 };
                *c += self.axes.column(k) * (s * self.half_extents[k]);
            }
        }
        out
    }

    /// True when this box and `other` intersect (closed sets: touching boxes overlap), where
    /// `pos12` is `other`'s local frame expressed in this box's local frame (it maps `other`'s
    /// coordinates into ours). The rotation of `pos12` is renormalised in `f64`.
    ///
    /// Separating-axis test on the 15 candidate axes (3 + 3 face normals, 9 edge crosses),
    /// evaluated in `f64`. Never reports "separated" for boxes that touch or intersect; may
    /// report "overlap" for boxes apart by less than ~1e-14 of the pair's scale (see the module
    /// rationale). No allocation. Non-finite input gives an unspecified answer.
    pub fn overlaps(&self, other: &Obb, pos12: &Isometry) -> bool {
        let q = pos12.rotation.into_inner();
        let q = nalgebra::Quaternion::new(
            f64::from(q.w),
            f64::from(q.i),
            f64::from(q.j),
            f64::from(q.k),
        );
        let r12 = nalgebra::UnitQuaternion::from_quaternion(q)
            .to_rotation_matrix()
            .into_inner();
        let t12 = VectorD::new(
            f64::from(pos12.translation.x),
            f64::from(pos12.translation.y),
            f64::from(pos12.translation.z),
        );
        self.overlaps_with(other, &r12, &t12)
    }

    /// [`Obb::overlaps`] with `pos12` already widened: `r12` its rotation matrix and `t12` its
    /// translation in `f64`, for callers that test many box pairs under one pose (the matrix is
    /// then computed once). Same answers as [`Obb::overlaps`] for the same matrix.
    pub fn overlaps_with(&self, other: &Obb, r12: &MatrixD, t12: &VectorD) -> bool {
        let a: MatrixD = self.axes.cast();
        let b: MatrixD = r12 * other.axes.cast::<f64>();
        let ca = to_f64(&self.center).coords;
        let cb = r12 * to_f64(&other.center).coords + t12;
        let t = cb - ca;
        let ha: VectorD = self.half_extents.cast();
        let hb: VectorD = other.half_extents.cast();

        let scale = ca.abs().sum()
            + to_f64(&other.center).coords.abs().sum()
            + t12.abs().sum()
            + ha.sum()
            + hb.sum();
        let margin = OVERLAP_SLACK * f64::EPSILON * scale;

        // Quantities are computed as late as possible: most separated pairs exit at A's axes.
        let na = cofactor_columns(&a);
        let det_a = a.column(0).dot(&na.column(0)).abs();
        // p[(m, j)] = na_m . b_j: B's axes against A's face normals (= R for orthonormal axes).
        let p = na.transpose() * b;

        // A's face normals.
        for i in 0..3 {
            let dist = na.column(i).dot(&t).abs();
            let r = ha[i] * det_a + hb.dot(&p.row(i).transpose().abs());
            if dist > r + margin {
                return false;
            }
        }
        let nb = cofactor_columns(&b);
        let det_b = b.column(0).dot(&nb.column(0)).abs();
        // q[(i, l)] = a_i . nb_l: A's axes against B's face normals.
        let qm = a.transpose() * nb;
        // B's face normals.
        for j in 0..3 {
            let dist = nb.column(j).dot(&t).abs();
            let r = hb[j] * det_b + ha.dot(&qm.column(j).abs());
            if dist > r + margin {
                return false;
            }
        }
        // Edge crosses a_i x b_j: (a_i x b_j) . a_k = ±p[(m, j)], (a_i x b_j) . b_l = ±q[(i, n)],
        // (a_i x b_j) . t = a_i . (b_j x t); {i, k, m} and {j, l, n} are permutations of {0, 1, 2}.
        for j in 0..3 {
            let bt = b.column(j).cross(&t);
            let (l, n) = ((j + 1) % 3, (j + 2) % 3);
            for i in 0..3 {
                let (k, m) = ((i + 1) % 3, (i + 2) % 3);
                let dist = a.column(i).dot(&bt).abs();
                let ra = ha[k] * p[(m, j)].abs() + ha[m] * p[(k, j)].abs();
                let rb = hb[l] * qm[(i, n)].abs() + hb[n] * qm[(i, l)].abs();
                if dist > ra + rb + margin {
                    return false;
                }
            }
        }
        true
    }

    /// Checks that the box is well formed: finite, non-negative half extents, and axes
    /// orthonormal and right-handed to within `1e-5` (fitted boxes are within ~1e-7).
    ///
    /// # Errors
    /// [`GeomError::InvalidBoundingVolume`] saying what is wrong.
    pub fn validate(&self) -> Result<(), GeomError> {
        let bad = |reason| Err(GeomError::InvalidBoundingVolume { reason });
        if !is_finite_point(&self.center)
            || !self.axes.iter().all(|x| x.is_finite())
            || !self.half_extents.iter().all(|x| x.is_finite())
        {
            return bad("non-finite box data");
        }
        if self.half_extents.iter().any(|&h| h < 0.0) {
            return bad("negative half extent");
        }
        let a: MatrixD = self.axes.cast();
        if (a.transpose() * a - MatrixD::identity()).amax() > 1e-5 {
            return bad("box axes are not orthonormal");
        }
        if a.determinant() <= 0.0 {
            return bad("box axes are left-handed");
        }
        Ok(())
    }
}

/// Box coordinates of a vector for general (not necessarily orthonormal) axes, in `f64`:
/// `u_k = n_k . d / det(a)` (Cramer's rule).
struct Cofactors {
    normals: MatrixD,
    det: f64,
}

impl Cofactors {
    #[inline]
    fn new(axes: &Matrix3) -> Self {
        let a: MatrixD = axes.cast();
        let normals = cofactor_columns(&a);
        let det = a.column(0).dot(&normals.column(0));
        Self { normals, det }
    }

    /// The `k`-th box coordinate of the local vector `d`.
    #[inline]
    fn coordinate(&self, k: usize, d: &VectorD) -> f64 {
        self.normals.column(k).dot(d) / self.det
    }
}

/// The columns `n_k = a_{k+1} x a_{k+2}`: face normals of the parallelepiped spanned by the
/// columns `a_k` (scaled by its cross-section areas), with `n_k . a_l = det(a) * delta_kl`.
#[inline]
fn cofactor_columns(a: &MatrixD) -> MatrixD {
    let (a0, a1, a2) = (a.column(0), a.column(1), a.column(2));
    MatrixD::from_columns(&[a1.cross(&a2), a2.cross(&a0), a0.cross(&a1)])
}

/// Covariance of points (divided by their count), computed relative to `origin` for precision.
fn point_covariance(origin: VectorD, points: &[Point]) -> MatrixD {
    point_covariance_iter(origin, points.iter().copied())
}

fn point_covariance_iter(origin: VectorD, points: impl Iterator<Item = Point>) -> MatrixD {
    let mut n = 0.0;
    let mut sum = VectorD::zeros();
    let mut sum2 = MatrixD::zeros();
    for p in points {
        let d = to_f64(&p).coords - origin;
        n += 1.0;
        sum += d;
        sum2 += d * d.transpose();
    }
    let mean = sum / n;
    sum2 / n - mean * mean.transpose()
}

/// RAPID's area-weighted covariance: the covariance of the uniform distribution over the
/// triangles, `C = (1/A) sum_i A_i/12 (9 m_i m_i^T + p p^T + q q^T + r r^T) - mu mu^T` with
/// `A_i`, `m_i` the area and centroid of triangle `(p, q, r)`, `A = sum A_i` and
/// `mu = sum A_i m_i / A`; coordinates are taken relative to `origin`. `None` when the total
/// area is zero (or not finite). Indices must be in range.
pub(crate) fn triangle_covariance(
    origin: VectorD,
    vertices: &[Point],
    triangles: &[[u32; 3]],
) -> Option<MatrixD> {
    let mut area = 0.0;
    let mut first = VectorD::zeros();
    let mut second = MatrixD::zeros();
    for t in triangles {
        let [p, q, r] = t.map(|i| to_f64(&vertices[i as usize]).coords - origin);
        let a = 0.5 * (q - p).cross(&(r - p)).norm();
        let m = (p + q + r) / 3.0;
        area += a;
        first += m * a;
        second +=
            (m * m.transpose() * 9.0 + p * p.transpose() + q * q.transpose() + r * r.transpose())
                * (a / 12.0);
    }
    if !(area > 0.0 && area.is_finite()) {
        return None;
    }
    let mu = first / area;
    Some(second / area - mu * mu.transpose())
}

/// Orthonormal right-handed eigenvector axes of a symmetric matrix, largest eigenvalue first.
/// Repeated eigenvalues (any orthonormal basis of the eigenspace will do) and failures fall back
/// to completing whatever direction is available, down to the identity.
fn principal_axes(cov: &MatrixD) -> MatrixD {
    let scale = cov.amax();
    if !(scale > 0.0 && scale.is_finite()) {
        return MatrixD::identity();
    }
    // Normalising the scale keeps 1e-12-sized inputs away from underflow in the iteration.
    let Some(eig) = SymmetricEigen::try_new(cov / scale, f64::EPSILON, 1000) else {
        return MatrixD::identity();
    };
    let mut order = [0usize, 1, 2];
    order.sort_by(|&i, &j| eig.eigenvalues[j].total_cmp(&eig.eigenvalues[i]));
    let v0: VectorD = eig.eigenvectors.column(order[0]).into_owned();
    let v1: VectorD = eig.eigenvectors.column(order[1]).into_owned();
    let Some(e0) = v0.try_normalize(1e-6) else {
        return MatrixD::identity();
    };
    let e1 = (v1 - e0 * e0.dot(&v1))
        .try_normalize(1e-6)
        .unwrap_or_else(|| any_perpendicular(&e0));
    let e2 = e0.cross(&e1).normalize();
    // Re-derive e1 so the triple is orthonormal to rounding.
    let e1 = e2.cross(&e0);
    MatrixD::from_columns(&[e0, e1, e2])
}

/// Sizes a box with the given axes around `points` (at least one, all finite); see the module
/// rationale for why the second pass makes containment hold after rounding.
fn fit(points: impl Iterator<Item = Point> + Clone, axes64: &MatrixD) -> Obb {
    let axes: Matrix3 = axes64.cast();
    let cof = Cofactors::new(&axes);
    let origin = points
        .clone()
        .next()
        .map_or(VectorD::zeros(), |p| to_f64(&p).coords);
    let mut lo = VectorD::zeros();
    let mut hi = VectorD::zeros();
    for p in points.clone() {
        let d = to_f64(&p).coords - origin;
        for k in 0..3 {
            let u = cof.coordinate(k, &d);
            lo[k] = lo[k].min(u);
            hi[k] = hi[k].max(u);
        }
    }
    let axes_d: MatrixD = axes.cast();
    let center64 = origin + axes_d * ((lo + hi) * 0.5);
    let center = Point::new(center64.x as Real, center64.y as Real, center64.z as Real);
    let c = to_f64(&center).coords;
    let mut h = VectorD::zeros();
    for p in points {
        let d = to_f64(&p).coords - c;
        let slack = FIT_SLACK * f64::EPSILON * d.abs().sum();
        for k in 0..3 {
            h[k] = h[k].max(cof.coordinate(k, &d).abs() + slack);
        }
    }
    Obb {
        center,
        axes,
        half_extents: Vector::new(round_up_f32(h.x), round_up_f32(h.y), round_up_f32(h.z)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bounding::test_rng::{Draws, Rng};
    use crate::math::{PointD, Pose, VectorD};
    use nalgebra::{Translation3, UnitQuaternion};

    /// Corners of `obb` mapped by (`rot`, `trans`), in `f64`, bit `k` of the index = `+` on
    /// axis `k`.
    fn corners_f64(obb: &Obb, rot: &MatrixD, trans: &VectorD) -> [VectorD; 8] {
        let mut out = [VectorD::zeros(); 8];
        for (idx, c) in out.iter_mut().enumerate() {
            let mut p = to_f64(&obb.center).coords;
            for k in 0..3 {
                let s = if idx >> k & 1 == 1 { 1.0 } else { -1.0 };
                p += obb.axes.column(k).into_owned().cast::<f64>()
                    * (s * f64::from(obb.half_extents[k]));
            }
            *c = rot * p + trans;
        }
        out
    }

    /// The largest separation of the two corner sets over the 15 axes derived from the corners
    /// themselves (face normals from edge crosses, edge-edge crosses), each normalised: positive
    /// means separated by that distance, non-positive means the convex hulls intersect.
    fn oracle_gap(c1: &[VectorD; 8], c2: &[VectorD; 8]) -> f64 {
        let edges = |c: &[VectorD; 8]| [c[1] - c[0], c[2] - c[0], c[4] - c[0]];
        let (e1, e2) = (edges(c1), edges(c2));
        let mut axes = Vec::with_capacity(15);
        for e in [e1, e2] {
            for k in 0..3 {
                axes.push(e[(k + 1) % 3].cross(&e[(k + 2) % 3]));
            }
        }
        for a in e1 {
            for b in e2 {
                axes.push(a.cross(&b));
            }
        }
        let mut gap = f64::NEG_INFINITY;
        for l in axes {
            let scale = l.norm();
            let edge_scale = e1.iter().chain(&e2).map(|e| e.norm()).fold(0.0, f64::max);
            if scale <= 1e-6 * edge_scale * edge_scale {
                continue;
            }
            let l = l / scale;
            let proj = |c: &[VectorD; 8]| {
                c.iter().fold((f64::MAX, f64::MIN), |(lo, hi), p| {
                    let x = p.dot(&l);
                    (lo.min(x), hi.max(x))
                })
            };
            let ((lo1, hi1), (lo2, hi2)) = (proj(c1), proj(c2));
            gap = gap.max(lo2 - hi1).max(lo1 - hi2);
        }
        gap
    }

    fn r12_of(pos12: &Isometry) -> (MatrixD, VectorD) {
        let mut p: Pose = nalgebra::convert(*pos12);
        p.rotation.renormalize();
        (
            p.rotation.to_rotation_matrix().into_inner(),
            p.translation.vector,
        )
    }

    fn random_obb(rng: &mut Rng, size: f64, spread: f64) -> Obb {
        let rot: Matrix3 = rng.rotation().to_rotation_matrix().into_inner().cast();
        let h = Vector::new(
            (size * rng.range(0.05, 1.0)) as Real,
            (size * rng.range(0.05, 1.0)) as Real,
            (size * rng.range(0.05, 1.0)) as Real,
        );
        let c = Point::new(
            rng.range(-spread, spread) as Real,
            rng.range(-spread, spread) as Real,
            rng.range(-spread, spread) as Real,
        );
        Obb::new(c, rot, h)
    }

    fn scale_of(o1: &Obb, o2: &Obb, pos12: &Isometry) -> f64 {
        to_f64(&o1.center).coords.abs().sum()
            + to_f64(&o2.center).coords.abs().sum()
            + pos12.translation.vector.cast::<f64>().abs().sum()
            + o1.half_extents.cast::<f64>().sum()
            + o2.half_extents.cast::<f64>().sum()
    }

    struct Tally {
        overlapping: usize,
        separated: usize,
        skipped: usize,
    }

    /// Compares `overlaps` with the oracle: must agree outside a band of 1e-9 * scale around
    /// touching, and must never say "separated" when the oracle gap is below 1e-12 * scale.
    fn check(o1: &Obb, o2: &Obb, pos12: &Isometry, tally: &mut Tally, what: &str) {
        let (r, t) = r12_of(pos12);
        let c1 = corners_f64(o1, &MatrixD::identity(), &VectorD::zeros());
        let c2 = corners_f64(o2, &r, &t);
        let gap = oracle_gap(&c1, &c2);
        let scale = scale_of(o1, o2, pos12);
        let got = o1.overlaps(o2, pos12);
        // pos12.inverse() is rounded to f32, which moves box 2 by ~1e-7 of the scale: compare
        // the swapped pair only away from touching.
        let swapped = if gap.abs() > 1e-5 * scale {
            o2.overlaps(o1, &pos12.inverse())
        } else {
            got
        };
        if !got {
            assert!(gap > -1e-12 * scale, "{what}: false separation, gap {gap}");
        }
        if gap > 1e-9 * scale {
            assert!(
                !got,
                "{what}: oracle gap {gap} (scale {scale}) but overlap reported"
            );
            assert!(!swapped, "{what}: swapped pair disagrees");
            tally.separated += 1;
        } else if gap < -1e-9 * scale {
            assert!(
                got,
                "{what}: oracle gap {gap} (scale {scale}) but separation reported"
            );
            assert!(swapped, "{what}: swapped pair disagrees");
            tally.overlapping += 1;
        } else {
            tally.skipped += 1;
        }
    }

    #[test]
    fn random_pairs_match_corner_oracle() {
        let mut rng = Rng(2024);
        let mut tally = Tally {
            overlapping: 0,
            separated: 0,
            skipped: 0,
        };
        for case in 0..20_000 {
            // Everything scaled together, from 1e-12 to 1e6.
            let s = [1e-12, 1e-3, 1.0, 1e6][case % 4];
            let o1 = random_obb(&mut rng, s, s * 3.0);
            let s2 = s * rng.range(0.1, 2.0);
            let o2 = random_obb(&mut rng, s2, s * 3.0);
            let mut pose = rng.pose(s * 6.0);
            // Aim roughly at box 1 so that about half the pairs overlap.
            let reach =
                rng.range(0.0, 1.3) * f64::from(o1.half_extents.sum() + o2.half_extents.sum());
            let dir = pose.translation.vector.normalize();
            let c2 = pose.rotation * to_f64(&o2.center).coords;
            pose.translation.vector = to_f64(&o1.center).coords - c2 + dir * reach;
            let pos12: Isometry = nalgebra::convert(pose);
            check(&o1, &o2, &pos12, &mut tally, &format!("case {case}"));
        }
        println!(
            "random pairs: {} overlapping, {} separated, {} skipped",
            tally.overlapping, tally.separated, tally.skipped
        );
        assert!(tally.overlapping > 5_000 && tally.separated > 5_000);
        // Random pairs essentially never land within 1e-9 of touching.
        assert!(tally.skipped < 20, "skipped {}", tally.skipped);
    }

    /// Pairs pushed apart along a random direction to just before / just after first contact
    /// (found by bisection on the oracle): exercises edge-edge and vertex-face contacts.
    #[test]
    fn near_touching_pairs_match_corner_oracle() {
        let mut rng = Rng(77);
        let mut tally = Tally {
            overlapping: 0,
            separated: 0,
            skipped: 0,
        };
        for case in 0..3_000 {
            let s = [1e-12, 1.0, 1e4][case % 3];
            let o1 = random_obb(&mut rng, s, s);
            let o2 = random_obb(&mut rng, s, s);
            let rot = rng.rotation();
            let dir = rng.rotation() * VectorD::x();
            // Translation putting the centers together, then moved along `dir` by `d`.
            let base = to_f64(&o1.center).coords - rot * to_f64(&o2.center).coords;
            let gap_at = |d: f64| {
                let (r, t) = (rot.to_rotation_matrix().into_inner(), base + dir * d);
                oracle_gap(
                    &corners_f64(&o1, &MatrixD::identity(), &VectorD::zeros()),
                    &corners_f64(&o2, &r, &t),
                )
            };
            // Overlapping at 0 (common center), separated at 20 s (half extents are <= s).
            let (mut lo, mut hi) = (0.0, 20.0 * s);
            assert!(gap_at(lo) < 0.0 && gap_at(hi) > 0.0);
            for _ in 0..80 {
                let mid = 0.5 * (lo + hi);
                if gap_at(mid) > 0.0 {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            for f in [1.0 - 1e-6, 1.0 + 1e-6] {
                let d = f * hi;
                let pose = Pose::from_parts(Translation3::from(base + dir * d), rot);
                let pos12: Isometry = nalgebra::convert(pose);
                check(&o1, &o2, &pos12, &mut tally, &format!("case {case} f {f}"));
            }
        }
        println!(
            "near-touching pairs: {} overlapping, {} separated, {} skipped",
            tally.overlapping, tally.separated, tally.skipped
        );
        assert!(tally.overlapping > 2_000 && tally.separated > 2_000);
        assert!(tally.skipped < 20, "skipped {}", tally.skipped);
    }

    fn cube(h: Real) -> Obb {
        Obb::new(Point::origin(), Matrix3::identity(), Vector::new(h, h, h))
    }

    fn shifted(x: Real, y: Real, z: Real) -> Isometry {
        Isometry::translation(x, y, z)
    }

    #[test]
    fn analytic_cases() {
        let c = cube(1.0);
        assert!(c.overlaps(&c, &Isometry::identity()), "identical boxes");
        assert!(
            c.overlaps(&c, &shifted(2.0, 0.0, 0.0)),
            "touching face to face"
        );
        assert!(
            c.overlaps(&c, &shifted(2.0, 1.5, -1.9)),
            "touching faces, offset"
        );
        assert!(
            c.overlaps(&c, &shifted(2.0, 2.0, 2.0)),
            "touching at a corner"
        );
        assert!(!c.overlaps(&c, &shifted(2.0f32.next_up(), 0.0, 0.0)));
        assert!(!c.overlaps(&c, &shifted(0.0, 0.0, -2.0f32.next_up())));
        // One inside another, rotated arbitrarily.
        let big = cube(10.0);
        let small = cube(0.5);
        let rot = Isometry::rotation(Vector::new(0.3, -1.1, 0.7));
        let inside = Isometry::from_parts(Translation3::new(3.0, -2.0, 4.0), rot.rotation);
        assert!(big.overlaps(&small, &inside) && small.overlaps(&big, &inside.inverse()));

        // Edge to edge at 45 degrees, exactly representable: box A's axes (1,0,0), (0,1,1),
        // (0,-1,1) with half extents (1, 1/2, 1/2) has top edge {(x, 0, 1)}; box B's axes
        // (1,0,1), (0,1,0), (-1,0,1) with (1/2, 1, 1/2) has bottom edge {(0, y, cz - 1)}.
        // They touch at a single point when cz = 2, and only the edge cross (z) separates.
        let a = Obb::new(
            Point::origin(),
            Matrix3::new(1.0, 0.0, 0.0, 0.0, 1.0, -1.0, 0.0, 1.0, 1.0),
            Vector::new(1.0, 0.5, 0.5),
        );
        let b = Obb::new(
            Point::origin(),
            Matrix3::new(1.0, 0.0, -1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0),
            Vector::new(0.5, 1.0, 0.5),
        );
        assert!(
            a.overlaps(&b, &shifted(0.0, 0.0, 2.0)),
            "edge-edge touching"
        );
        assert!(a.overlaps(&b, &shifted(0.0, 0.0, 2.0 - 1.0 / 1024.0)));
        assert!(!a.overlaps(&b, &shifted(0.0, 0.0, 2.0 + 1.0 / 1024.0)));
        // The face axes alone do not separate it: a face-only test would report overlap.
        let (r, t) = r12_of(&shifted(0.0, 0.0, 2.0 + 1.0 / 1024.0));
        let gap = oracle_gap(
            &corners_f64(&a, &MatrixD::identity(), &VectorD::zeros()),
            &corners_f64(&b, &r, &t),
        );
        assert!((gap - 1.0 / 1024.0).abs() < 1e-15);

        // Same configuration with orthonormal f32 boxes rotated 45 degrees.
        let ra = UnitQuaternion::from_axis_angle(&VectorD::x_axis(), std::f64::consts::FRAC_PI_4);
        let rb = UnitQuaternion::from_axis_angle(&VectorD::y_axis(), std::f64::consts::FRAC_PI_4);
        let a = Obb::new(
            Point::origin(),
            ra.to_rotation_matrix().into_inner().cast(),
            Vector::new(1.0, 1.0, 1.0),
        );
        let b = Obb::new(
            Point::origin(),
            rb.to_rotation_matrix().into_inner().cast(),
            Vector::new(1.0, 1.0, 1.0),
        );
        let touch = (2.0 * 2f64.sqrt()) as Real;
        assert!(a.overlaps(&b, &shifted(0.0, 0.0, touch - 1e-5)));
        assert!(!a.overlaps(&b, &shifted(0.0, 0.0, touch + 1e-5)));
    }

    fn check_contains_all(obb: &Obb, points: &[Point]) {
        obb.validate().unwrap();
        let a: MatrixD = obb.axes.cast();
        let inv = a.try_inverse().unwrap();
        for p in points {
            assert!(obb.contains_point(p), "{p:?} not in {obb:?}");
            // Independent check through a general inverse.
            let u = inv * (to_f64(p) - to_f64(&obb.center));
            for k in 0..3 {
                let h = f64::from(obb.half_extents[k]);
                assert!(u[k].abs() <= h + 1e-15 * (to_f64(p) - to_f64(&obb.center)).norm());
            }
        }
    }

    /// Points on the surface and inside of a known rotated box with distinct side lengths.
    fn box_cloud(
        rng: &mut Rng,
        rot: &MatrixD,
        center: &VectorD,
        h: &VectorD,
        n: usize,
    ) -> Vec<Point> {
        let mut pts = Vec::with_capacity(n + 8);
        for idx in 0..8 {
            let u = VectorD::from_fn(|k, _| if idx >> k & 1 == 1 { h[k] } else { -h[k] });
            pts.push(rot * u + center);
        }
        for _ in 0..n {
            let u = VectorD::from_fn(|k, _| rng.range(-h[k], h[k]));
            pts.push(rot * u + center);
        }
        pts.iter()
            .map(|p| Point::new(p.x as Real, p.y as Real, p.z as Real))
            .collect()
    }

    #[test]
    fn from_points_recovers_a_rotated_box_and_contains_everything() {
        let mut rng = Rng(5);
        for case in 0..500 {
            let scale = 10f64.powi(case % 13 - 9);
            let rot = rng.rotation().to_rotation_matrix().into_inner();
            let far = if case % 2 == 0 { 0.0 } else { 1e4 * scale };
            let center = VectorD::new(far, -far, 0.5 * far);
            let h = VectorD::new(3.0, 2.0, 1.0) * scale;
            // A symmetric cloud: the 8 corners plus random points mirrored in all three box
            // planes, so the covariance axes are exactly the box axes in real arithmetic.
            let mut pts = box_cloud(&mut rng, &rot, &center, &h, 0);
            for _ in 0..100 {
                let u = VectorD::from_fn(|k, _| rng.range(-h[k], h[k]));
                for signs in 0..8 {
                    let v = VectorD::from_fn(|k, _| if signs >> k & 1 == 1 { -u[k] } else { u[k] });
                    let p = rot * v + center;
                    pts.push(Point::new(p.x as Real, p.y as Real, p.z as Real));
                }
            }
            let obb = Obb::from_points(&pts).unwrap();
            check_contains_all(&obb, &pts);
            let axes: MatrixD = obb.axes.cast();

            for k in 0..3 {
                let cos = axes.column(k).dot(&rot.column(k)).abs();
                assert!(cos > 1.0 - 1e-5, "case {case} axis {k}: cos {cos}");
                let he = f64::from(obb.half_extents[k]);
                assert!(
                    (he - h[k]).abs() <= 1e-5 * (h[k] + far),
                    "case {case}: {he} vs {}",
                    h[k]
                );
            }
        }
    }

    #[test]
    fn random_clouds_are_contained() {
        let mut rng = Rng(6);
        for case in 0..300 {
            let scale = 10f64.powi(case % 15 - 12);
            let rot = rng.rotation().to_rotation_matrix().into_inner();
            let center =
                VectorD::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), 0.0) * 1e3 * scale;
            let h = VectorD::new(
                rng.range(0.1, 5.0),
                rng.range(0.1, 5.0),
                rng.range(0.0, 5.0),
            ) * scale;
            let pts = box_cloud(&mut rng, &rot, &center, &h, 1 + case as usize % 50);
            let obb = Obb::from_points(&pts).unwrap();
            check_contains_all(&obb, &pts);
        }
    }

    #[test]
    fn degenerate_point_sets() {
        // One point (repeated): zero extents at that point.
        let p = Point::new(1e5, -3.0, 0.25);
        let obb = Obb::from_points(&[p, p, p]).unwrap();
        check_contains_all(&obb, &[p]);
        assert_eq!(obb.half_extents, Vector::zeros());
        assert_eq!(obb.center, p);
        // Collinear: first axis along the line, other extents zero.
        let line: Vec<Point> = (0..10)
            .map(|i| Point::new(i as Real, 2.0 * i as Real, 0.0))
            .collect();
        let obb = Obb::from_points(&line).unwrap();
        check_contains_all(&obb, &line);
        let dir = VectorD::new(1.0, 2.0, 0.0).normalize();
        assert!(
            obb.axes
                .column(0)
                .into_owned()
                .cast::<f64>()
                .dot(&dir)
                .abs()
                > 1.0 - 1e-6
        );
        assert!((f64::from(obb.half_extents[0]) - 4.5 * 5f64.sqrt()).abs() < 1e-5);
        assert!(obb.half_extents[1] < 1e-5 && obb.half_extents[2] < 1e-5);
        // Cube corners: triple eigenvalue, any orthonormal right-handed frame is valid.
        let cube: Vec<Point> = (0..8)
            .map(|i| Point::new((i & 1) as Real, (i >> 1 & 1) as Real, (i >> 2 & 1) as Real))
            .collect();
        let obb = Obb::from_points(&cube).unwrap();
        check_contains_all(&obb, &cube);
        // Square in a plane: double eigenvalue plus a zero one; third axis is the normal.
        let sq = [
            Point::new(0.0, 0.0, 5.0),
            Point::new(1.0, 0.0, 5.0),
            Point::new(1.0, 1.0, 5.0),
            Point::new(0.0, 1.0, 5.0),
        ];
        let obb = Obb::from_points(&sq).unwrap();
        check_contains_all(&obb, &sq);
        assert!(obb.axes.column(2).z.abs() > 1.0 - 1e-6);
        assert!(obb.half_extents[2] < 1e-6);

        assert!(matches!(Obb::from_points(&[]), Err(GeomError::NoVertices)));
        assert!(matches!(
            Obb::from_points(&[p, Point::new(0.0, f32::INFINITY, 0.0)]),
            Err(GeomError::NonFiniteCoordinate { vertex: 1 })
        ));
    }

    /// RAPID's closed form against a direct numerical integration over the triangle.
    #[test]
    fn triangle_covariance_matches_integration() {
        let verts = [
            Point::new(0.3, -1.0, 2.0),
            Point::new(2.5, 0.5, 1.0),
            Point::new(-0.7, 1.5, -0.5),
        ];
        let c = triangle_covariance(VectorD::zeros(), &verts, &[[0, 1, 2]]).unwrap();
        // Midpoint rule on an n x n subdivision of the triangle (all cells have equal area).
        let n = 400;
        let [a, b, d] = verts.map(|p| to_f64(&p).coords);
        let mut samples = Vec::new();
        for i in 0..n {
            for j in 0..n - i {
                let (fi, fj) = (i as f64, j as f64);
                let nf = n as f64;
                samples.push(
                    a + (b - a) * ((fi + 1.0 / 3.0) / nf) + (d - a) * ((fj + 1.0 / 3.0) / nf),
                );
                if j + 1 < n - i {
                    samples.push(
                        a + (b - a) * ((fi + 2.0 / 3.0) / nf) + (d - a) * ((fj + 2.0 / 3.0) / nf),
                    );
                }
            }
        }
        let m = samples.iter().sum::<VectorD>() / samples.len() as f64;
        let cov = samples
            .iter()
            .map(|s| (s - m) * (s - m).transpose())
            .sum::<MatrixD>()
            / samples.len() as f64;
        assert!((cov - c).amax() < 1e-5 * c.amax(), "{cov} vs {c}");
    }

    /// The classic reason for area weighting: densely tessellating part of a surface skews the
    /// vertex covariance but not the area-weighted one.
    #[test]
    fn from_triangles_ignores_tessellation_density() {
        // Box 8 x 4 x 2 (half 4, 2, 1) as 12 triangles, then the x > 0 half of the top face
        // replaced by a fine grid.
        let (hx, hy, hz) = (4.0f32, 2.0f32, 1.0f32);
        let mut v: Vec<Point> = (0..8)
            .map(|i| {
                Point::new(
                    if i & 1 == 1 { hx } else { -hx },
                    if i >> 1 & 1 == 1 { hy } else { -hy },
                    if i >> 2 & 1 == 1 { hz } else { -hz },
                )
            })
            .collect();
        let mut tris: Vec<[u32; 3]> = vec![
            [0, 2, 1],
            [1, 2, 3], // bottom z-
            [0, 1, 5],
            [0, 5, 4], // y-
            [2, 6, 7],
            [2, 7, 3], // y+
            [0, 4, 6],
            [0, 6, 2], // x-
            [1, 3, 7],
            [1, 7, 5], // x+
        ];
        // Top face (z+): x < 0 half as two triangles, x > 0 half as a 6 x 6 grid.
        let m0 = v.len() as u32;
        v.push(Point::new(0.0, -hy, hz));
        v.push(Point::new(0.0, hy, hz));
        tris.push([4, m0, m0 + 1]);
        tris.push([4, m0 + 1, 6]);
        let g = 6u32;
        let base = v.len() as u32;
        for i in 0..=g {
            for j in 0..=g {
                v.push(Point::new(
                    hx * i as f32 / g as f32,
                    -hy + 2.0 * hy * j as f32 / g as f32,
                    hz,
                ));
            }
        }
        for i in 0..g {
            for j in 0..g {
                let a = base + i * (g + 1) + j;
                tris.push([a, a + g + 1, a + g + 2]);
                tris.push([a, a + g + 2, a + 1]);
            }
        }
        let obb = Obb::from_triangles(&v, &tris).unwrap();
        check_contains_all(&obb, &v);
        for k in 0..3 {
            assert!(
                obb.axes.column(k).amax() > 1.0 - 1e-5,
                "axis {k} not aligned: {}",
                obb.axes
            );
        }
        assert!((obb.half_extents - Vector::new(hx, hy, hz)).amax() < 1e-5);
        // The vertex covariance is pulled off the symmetry axes by the dense patch.
        let by_points = Obb::from_points(&v).unwrap();
        check_contains_all(&by_points, &v);
        let skew = (0..3)
            .map(|k| by_points.axes.column(k).amax())
            .fold(1.0, f32::min);
        assert!(
            skew < 1.0 - 1e-3,
            "vertex covariance unexpectedly aligned: {skew}"
        );
    }

    #[test]
    fn from_triangles_errors_and_degenerate_area() {
        let v = [
            Point::new(0.0, 0.0, 0.0),
            Point::new(1.0, 0.0, 0.0),
            Point::new(2.0, 0.0, 0.0),
        ];
        assert!(matches!(
            Obb::from_triangles(&v, &[]),
            Err(GeomError::NoFaces)
        ));
        assert!(matches!(
            Obb::from_triangles(&v, &[[0, 1, 3]]),
            Err(GeomError::IndexOutOfRange {
                face: 0,
                index: 3,
                vertex_count: 3
            })
        ));
        let bad = [v[0], v[1], Point::new(f32::NAN, 0.0, 0.0)];
        assert!(matches!(
            Obb::from_triangles(&bad, &[[0, 1, 2]]),
            Err(GeomError::NonFiniteCoordinate { vertex: 2 })
        ));
        // Zero-area (collinear) triangle: falls back to the vertex covariance, along x.
        let obb = Obb::from_triangles(&v, &[[0, 1, 2]]).unwrap();
        check_contains_all(&obb, &v);
        assert!(obb.axes.column(0).x.abs() > 1.0 - 1e-6);
        assert!((obb.half_extents[0] - 1.0).abs() < 1e-6);
        assert_eq!(obb.center, Point::new(1.0, 0.0, 0.0));
    }

    #[test]
    fn corners_match_the_definition() {
        let o = Obb::new(
            Point::new(1.0, 2.0, 3.0),
            Matrix3::identity(),
            Vector::new(1.0, 2.0, 3.0),
        );
        let c = o.corners();
        assert_eq!(c[0], Point::new(0.0, 0.0, 0.0));
        assert_eq!(c[7], Point::new(2.0, 4.0, 6.0));
        assert_eq!(c[1], Point::new(2.0, 0.0, 0.0));
        assert!(c.iter().all(|p| o.contains_point(p)));
        assert!(!o.contains_point(&Point::new(2.0f32.next_up(), 2.0, 3.0)));
        let _ = PointD::origin();
    }
}
