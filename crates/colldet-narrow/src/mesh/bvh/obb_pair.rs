//! The OBB-OBB pair test of tree traversal: RAPID's 15-axis separating-axis test on the relative
//! rotation `C = A^T R B`, with a margin that makes it conservative for the stored `f32` axes.
//!
//! Rationale.
//! - `colldet_geom`'s [`Obb::overlaps_with`] is exact for *any* three axes (it projects on the
//!   true face normals of the parallelepipeds, cofactors included); that generality costs about
//!   three times the arithmetic of the textbook test, and tree traversal spends most of its time
//!   there. Fitted node axes are orthonormal up to `f32` rounding, so the textbook test applies
//!   with a slightly larger margin.
//! - Let `A` (node of tree 1) and `B' = R B` (node of tree 2 mapped into frame 1) be the stored
//!   axes, and `Q_A`, `Q_B` the rotations of their polar decompositions. With
//!   `e = max |A^T A - I|` (entrywise, over every node of a tree, computed at build and refit),
//!   `||A - Q_A||_2 <= 3 e =: eps` (singular values `s` obey `|s - 1| <= |s^2 - 1|`), likewise
//!   for `B'` up to the `f64` rounding of `R`. Hence box `a` lies in the box with axes `Q_A`
//!   grown by a ball of radius `eps |h_a|`, and every quantity of the textbook test computed from
//!   `A`, `B'` instead of `Q_A`, `Q_B` (entries of `C`, coordinates of the centre offset `d`) is
//!   off by at most `eps` times its natural size. Summing the bounds of the 15 tests (at most
//!   `10 eps (|d| + sum h_a + sum h_b)`), a candidate axis only separates when its gap exceeds
//!   `16 eps (|d|_1 + sum h_a + sum h_b)` plus the pair frame's floating-point margin; then the
//!   grown true boxes are disjoint along that axis, and so are the stored boxes.
//! - Trees whose axes are not near-orthonormal and right-handed (`eps > 1e-4`, which fitting
//!   never produces) fall back to [`Obb::overlaps_with`].

use super::BvhPairFrame;
use super::placed_volume::PlacedVolume;
use crate::box_sat::PlacedBoxes;
use colldet_geom::Obb;
use colldet_geom::math::{Matrix3, MatrixD, VectorD, to_f64};

/// Largest axes error (`eps` of the module rationale) for which the textbook test is used.
pub(super) const MAX_AXES_ERROR: f64 = 1e-4;

/// Growth of the margin per unit of `eps` times the pair's size (see the module rationale).
const AXES_SLACK: f64 = 16.0;

/// The bound `eps = 3 max |A^T A - I|` of one box's `f32` axes (plus a little for the rounding
/// of that computation); infinite when the axes are not right-handed or not finite.
pub(super) fn axes_error(axes: &Matrix3) -> f64 {
    let a: MatrixD = axes.cast();
    // `A^T A - I` is symmetric: its upper triangle, each entry a column dot product.
    let col = |j: usize| [a[(0, j)], a[(1, j)], a[(2, j)]];
    let c = [col(0), col(1), col(2)];
    let dot = |i: usize, j: usize| c[i][0] * c[j][0] + c[i][1] * c[j][1] + c[i][2] * c[j][2];
    let g = [
        dot(0, 0) - 1.0,
        dot(1, 1) - 1.0,
        dot(2, 2) - 1.0,
        dot(0, 1),
        dot(0, 2),
        dot(1, 2),
    ];
    let e = g
        .iter()
        .fold(0.0f64, |m, x| if x.abs() > m { x.abs() } else { m });
    if !(e.is_finite() && a.determinant() > 0.0) {
        return f64::INFINITY;
    }
    3.0 * e + 1e-15
}

/// Order in which box `a`'s face normals are tried: the thin axis of a fitted node first (tree
/// volumes store it last), the one that most often separates nodes lying on a surface.
const FACE_ORDER: [usize; 3] = [2, 1, 0];

/// True unless a separating axis proves `a` (tree 1) and `b` (tree 2, `placed` by `frame`, see
/// [`BvhVolume::place`](super::BvhVolume::place)) disjoint; `frame.axes_error` must bound both
/// trees' axes errors (see the module rationale).
///
/// `C = A^T (R B)` is formed a row at a time: row `i` and `t_i` are all that `a`'s face normal
/// `i` needs, so a pair separated there never forms the other rows.
#[inline]
pub(super) fn obb_pair_overlaps(
    a: &Obb,
    b: &Obb,
    placed: &PlacedVolume,
    frame: &BvhPairFrame,
) -> bool {
    if frame.axes_error > MAX_AXES_ERROR {
        return a.overlaps_with(b, &frame.rotation, &frame.translation);
    }
    let am: MatrixD = a.axes.cast();
    let ha: VectorD = a.half_extents.cast();
    let hb = &placed.half_extents;
    // Box b's centre relative to a's, frame 1.
    let d = placed.center - to_f64(&a.center).coords;
    let m = frame.margin + AXES_SLACK * frame.axes_error * (d.abs().sum() + ha.sum() + hb.sum());
    let mut c = MatrixD::zeros();
    let mut ac = MatrixD::zeros();
    let mut t = VectorD::zeros();
    for i in FACE_ORDER {
        let axis = am.column(i);
        let row = axis.tr_mul(&placed.axes);
        t[i] = axis.dot(&d);
        c.set_row(i, &row);
        ac.set_row(i, &row.abs());
        let boxes = PlacedBoxes {
            t: &t,
            c: &c,
            abs_c: &ac,
            h1: &ha,
            h2: hb,
        };
        if boxes.face1_separates(i, m) {
            return false;
        }
    }
    PlacedBoxes {
        t: &t,
        c: &c,
        abs_c: &ac,
        h1: &ha,
        h2: hb,
    }
    .overlap_12(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::bvh::BvhVolume;
    use crate::mesh::test_support::{MeshDraws, SplitMix};
    use colldet_geom::math::{Isometry, Point, Vector};
    use nalgebra::{Quaternion, Translation3, UnitQuaternion};

    fn rotation(rng: &mut SplitMix) -> UnitQuaternion<f64> {
        let mut c = || rng.f64() * 2.0 - 1.0;
        UnitQuaternion::from_quaternion(Quaternion::new(c(), c(), c(), c()))
    }

    /// The pair frame of the traversal for one box pair (margin from their own scale).
    fn frame_for(a: &Obb, b: &Obb, pos12: &Isometry) -> BvhPairFrame {
        let q = pos12.rotation.into_inner().cast::<f64>();
        let rotation = UnitQuaternion::from_quaternion(q)
            .to_rotation_matrix()
            .into_inner();
        let translation: VectorD = pos12.translation.vector.cast();
        let bound =
            |o: &Obb| to_f64(&o.center).coords.abs().sum() + 3.0 * f64::from(o.half_extents.sum());
        BvhPairFrame {
            rotation,
            abs_rotation: rotation.abs(),
            translation,
            margin: 256.0 * f64::EPSILON * (bound(a) + bound(b) + translation.abs().sum()),
            axes_error: axes_error(&a.axes).max(axes_error(&b.axes)) + 1e-12,
        }
    }

    fn random_box(rng: &mut SplitMix, spread: f64) -> Obb {
        let axes: Matrix3 = rotation(rng).to_rotation_matrix().into_inner().cast();
        let mut c = || ((rng.f64() * 2.0 - 1.0) * spread) as f32;
        let center = Point::new(c(), c(), c());
        let h = Vector::new(
            (rng.f64() + 1e-3) as f32,
            (rng.f64() * 0.5 + 1e-4) as f32,
            (rng.f64() * 0.1 + 1e-6) as f32,
        );
        Obb::new(center, axes, h)
    }

    /// Boxes sharing a point on both boundaries (corners, edges, faces) are never separated.
    #[test]
    fn touching_boxes_overlap() {
        let mut rng = SplitMix(41);
        for case in 0..20_000 {
            let b = random_box(&mut rng, 2.0);
            let r = rotation(&mut rng);
            let t = VectorD::new(rng.f64() * 4.0, rng.f64() - 0.5, rng.f64() * 2.0 - 1.0);
            let pos12 = Isometry::from_parts(
                Translation3::new(t.x as f32, t.y as f32, t.z as f32),
                UnitQuaternion::from_quaternion(r.into_inner().cast::<f32>()),
            );
            let frame0 = frame_for(&b, &b, &pos12);
            // A point of b's boundary, mapped into frame 1: each coordinate at a face or inside.
            let pick = |rng: &mut SplitMix, h: f64| match rng.index(3) {
                0 => h,
                1 => -h,
                _ => (rng.f64() * 2.0 - 1.0) * h,
            };
            let bm: MatrixD = b.axes.cast();
            let ub = VectorD::from_fn(|k, _| pick(&mut rng, f64::from(b.half_extents[k])));
            let p = frame0.rotation * (to_f64(&b.center).coords + bm * ub) + frame0.translation;
            // Box a: random axes, centre near p, extents making p lie on its boundary.
            let mut a = random_box(&mut rng, 0.0);
            let am: MatrixD = a.axes.cast();
            let ua = VectorD::from_fn(|k, _| pick(&mut rng, f64::from(a.half_extents[k])));
            let ca = p - am * ua;
            a.center = Point::new(ca.x as f32, ca.y as f32, ca.z as f32);
            let exact = am.try_inverse().expect("axes") * (p - to_f64(&a.center).coords);
            a.half_extents = Vector::from_fn(|k, _| {
                let x = exact[k].abs();
                let y = x as f32;
                if f64::from(y) < x { y.next_up() } else { y }
            });
            let frame = frame_for(&a, &b, &pos12);
            assert!(
                BvhVolume::overlaps(&a, &b, &frame),
                "case {case}: {a:?} {b:?}"
            );
        }
    }

    /// On random pairs the test never separates what the exact general test keeps, and agrees
    /// with it almost always (it is conservative by about 1e-6 of the pair's size).
    #[test]
    fn agrees_with_the_general_test() {
        let mut rng = SplitMix(7);
        let mut differ = 0;
        let n = 50_000;
        for _ in 0..n {
            let a = random_box(&mut rng, 1.0);
            let b = random_box(&mut rng, 1.0);
            let r = rotation(&mut rng).cast::<f32>();
            let mut c = || (rng.f64() * 3.0 - 1.5) as f32;
            let pos12 = Isometry::from_parts(Translation3::new(c(), c(), c()), r);
            let frame = frame_for(&a, &b, &pos12);
            let general = a.overlaps_with(&b, &frame.rotation, &frame.translation);
            let fast = BvhVolume::overlaps(&a, &b, &frame);
            assert!(fast || !general, "{a:?} {b:?} {pos12:?}");
            differ += usize::from(fast != general);
        }
        assert!(differ * 1000 < n, "{differ} of {n} differ");
    }

    /// The upper-triangle evaluation equals the full `A^T A - I` one bit for bit.
    #[test]
    fn axes_error_equals_the_full_gram_matrix() {
        let mut rng = SplitMix(11);
        for k in 0..2000 {
            let mut axes: Matrix3 = rotation(&mut rng).to_rotation_matrix().into_inner().cast();
            if k % 2 == 1 {
                axes[(k % 3, (k / 3) % 3)] += 1e-3 * (rng.f64() as f32 - 0.5);
            }
            let a: MatrixD = axes.cast();
            let full = (a.transpose() * a - MatrixD::identity()).amax();
            assert_eq!(axes_error(&axes), 3.0 * full + 1e-15, "{axes:?}");
        }
    }

    #[test]
    fn axes_error_flags_skewed_and_mirrored_axes() {
        let skew = Matrix3::new(1.0, 0.1, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0);
        assert!(axes_error(&skew) > MAX_AXES_ERROR);
        let mirror = Matrix3::from_diagonal(&Vector::new(1.0, 1.0, -1.0));
        assert_eq!(axes_error(&mirror), f64::INFINITY);
        assert!(axes_error(&Matrix3::identity()) < 1e-14);
    }
}
