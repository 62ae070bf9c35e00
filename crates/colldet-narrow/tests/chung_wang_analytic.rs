//! Chung-Wang separating-vector test on analytic configurations: cubes and octahedra at known gaps,
//! overlaps and exact contact (face, edge and vertex contacts), the cache, scale and bad input.

use colldet_geom::ConvexPolytope;
use colldet_geom::math::{Isometry, Point, Pose, Vector};
use colldet_narrow::{
    ChungWangCache, ChungWangStatus, ChungWangWorkspace, Decision, GjkCache, NarrowError,
    RelativePose, TOUCHING_TOLERANCE_FACTOR, chung_wang_intersect, gjk_intersect,
    touching_tolerance,
};
use nalgebra::{Isometry3, Translation3, Unit, UnitQuaternion};

fn cube(h: f32) -> ConvexPolytope {
    let mut pts = Vec::new();
    for sx in [-h, h] {
        for sy in [-h, h] {
            for sz in [-h, h] {
                pts.push(Point::new(sx, sy, sz));
            }
        }
    }
    ConvexPolytope::from_points(&pts).unwrap()
}

/// `|x| + |y| + |z| <= h`.
fn octahedron(h: f32) -> ConvexPolytope {
    let pts = [
        Point::new(h, 0.0, 0.0),
        Point::new(-h, 0.0, 0.0),
        Point::new(0.0, h, 0.0),
        Point::new(0.0, -h, 0.0),
        Point::new(0.0, 0.0, h),
        Point::new(0.0, 0.0, -h),
    ];
    ConvexPolytope::from_points(&pts).unwrap()
}

fn pose(t: [f32; 3], axis: [f32; 3], angle: f32) -> Isometry {
    let rot = if angle == 0.0 {
        UnitQuaternion::identity()
    } else {
        UnitQuaternion::from_axis_angle(&Unit::new_normalize(Vector::from(axis)), angle)
    };
    Isometry::from_parts(Translation3::new(t[0], t[1], t[2]), rot)
}

/// The f64 pose of [`pose`]: resolves gaps far below the touching band.
fn pose64(t: [f64; 3], axis: [f64; 3], angle: f64) -> Pose {
    let rot = if angle == 0.0 {
        UnitQuaternion::identity()
    } else {
        UnitQuaternion::from_axis_angle(&Unit::new_normalize(nalgebra::Vector3::from(axis)), angle)
    };
    Pose::from_parts(Translation3::new(t[0], t[1], t[2]), rot)
}

fn classify<T>(a: &ConvexPolytope, b: &ConvexPolytope, pos12: &Isometry3<T>) -> ChungWangStatus
where
    T: nalgebra::RealField + Copy,
    Isometry3<T>: RelativePose,
{
    let mut ws = ChungWangWorkspace::new();
    let cold = chung_wang_intersect(a, b, pos12, &mut ChungWangCache::new(), &mut ws).unwrap();
    // Swapping the pair (pose inverted) gives the same status.
    let swapped =
        chung_wang_intersect(b, a, &pos12.inverse(), &mut ChungWangCache::new(), &mut ws).unwrap();
    assert_eq!(
        cold.status, swapped.status,
        "swap changes the answer at {pos12:?}"
    );
    ws.validate().unwrap();
    cold.status
}

use ChungWangStatus::{Intersecting, Separated, Touching};

#[test]
fn cubes_face_to_face_at_known_gaps() {
    let c = cube(0.5);
    let tol = touching_tolerance(&c, &c);
    // The radii are f32: sqrt(3) / 2 to f32 precision each.
    assert!((tol / (TOUCHING_TOLERANCE_FACTOR * 3f64.sqrt()) - 1.0).abs() < 1e-6);
    for (gap, expected) in [
        (0.5, Separated),
        (0.1, Separated),
        (1e-4, Separated),
        (1e-7, Separated),
        (2.0 * tol, Separated),
        (0.5 * tol, Touching),
        (0.0, Touching),
        (-0.5 * tol, Touching),
        (-2.0 * tol, Intersecting),
        (-1e-4, Intersecting),
        (-0.3, Intersecting),
        (-1.0, Intersecting),
    ] {
        for axis in 0..3 {
            let mut t = [0.0f64; 3];
            t[axis] = 1.0 + gap;
            assert_eq!(
                classify(&c, &c, &pose64(t, [0.0, 0.0, 1.0], 0.0)),
                expected,
                "gap {gap} axis {axis}"
            );
            t[axis] = -(1.0 + gap);
            assert_eq!(
                classify(&c, &c, &pose64(t, [0.0, 0.0, 1.0], 0.0)),
                expected,
                "gap -{gap} axis {axis}"
            );
        }
    }
}

#[test]
fn rotated_cube_edge_and_vertex_contacts() {
    let c = cube(0.5);
    let quarter = std::f32::consts::FRAC_PI_4;
    // Cube 2 turned 45 degrees about z: its edge reaches x = sqrt(2)/2 from its centre.
    let edge = 0.5 + std::f64::consts::FRAC_1_SQRT_2;
    for (dx, expected) in [
        (1e-3, Separated),
        (1e-5, Separated),
        (-1e-5, Intersecting),
        (-0.2, Intersecting),
    ] {
        let t = (edge + dx) as f32;
        assert_eq!(
            classify(&c, &c, &pose([t, 0.0, 0.0], [0.0, 0.0, 1.0], quarter)),
            expected,
            "edge dx {dx}"
        );
    }
    // Exact edge contact in f64 (the f32 cube corners are exact): inside the band, and just
    // outside it on either side.
    let tol = touching_tolerance(&c, &c);
    let quarter64 = std::f64::consts::FRAC_PI_4;
    for (dx, expected) in [
        (0.0, Touching),
        (3.0 * tol, Separated),
        (-3.0 * tol, Intersecting),
    ] {
        let s = classify(
            &c,
            &c,
            &pose64([edge + dx, 0.0, 0.0], [0.0, 0.0, 1.0], quarter64),
        );
        assert_eq!(s, expected, "edge dx {dx}");
    }
}

#[test]
fn octahedra_vertex_and_face_contacts() {
    let o = octahedron(1.0);
    // Vertex to vertex along x: contact at distance 2.
    for (t, expected) in [
        (2.5f32, Separated),
        (2.0 + 1e-4, Separated),
        (2.0, Touching),
        (1.9999, Intersecting),
        (0.5, Intersecting),
    ] {
        assert_eq!(
            classify(&o, &o, &pose([t, 0.0, 0.0], [0.0, 0.0, 1.0], 0.0)),
            expected,
            "vertex t {t}"
        );
    }
    // Face to face along (1, 1, 1): the faces are 1/sqrt(3) from each centre, contact at distance
    // 2/sqrt(3) of the centres.
    let contact = 2.0 / 3f64.sqrt();
    for (dd, expected) in [
        (1e-3, Separated),
        (1e-5, Separated),
        (-1e-5, Intersecting),
        (-0.5, Intersecting),
    ] {
        let c = ((contact + dd) / 3f64.sqrt()) as f32;
        assert_eq!(
            classify(&o, &o, &pose([c, c, c], [0.0, 0.0, 1.0], 0.0)),
            expected,
            "face dd {dd}"
        );
    }
    // A cube's vertex into an octahedron's face: the cube corner (0.5, 0.5, 0.5) touches the face
    // x + y + z = 1 of an octahedron centred at (1, 1, 1) * (0.5 + 1/3)... computed exactly below.
    let c = cube(0.5);
    // Octahedron 2 centred at k(1,1,1): its face facing the cube is x + y + z = 3k - 1. The cube
    // corner has x + y + z = 1.5, so contact at k = 2.5 / 3.
    for (dk, expected) in [(1e-3, Separated), (-1e-3, Intersecting)] {
        let k = (2.5 / 3.0 + dk) as f32;
        assert_eq!(
            classify(&c, &o, &pose([k, k, k], [0.0, 0.0, 1.0], 0.0)),
            expected,
            "corner dk {dk}"
        );
    }
}

#[test]
fn warm_cache_decides_an_unchanged_separated_pose_in_one_iteration() {
    let c = cube(0.5);
    let o = octahedron(1.0);
    let mut cache = ChungWangCache::new();
    let mut ws = ChungWangWorkspace::new();
    // The octahedron's face x + y + z = 1.7 faces the cube's corner (x + y + z = 1.5): separated
    // by 0.2 / sqrt(3), while the bounding boxes ([-0.5, 0.5]^3 and [-0.1, 1.9]^3) overlap, so
    // the search decides, not the box pre-test.
    let pos = pose([0.9, 0.9, 0.9], [1.0, 2.0, 3.0], 0.0);
    let first = chung_wang_intersect(&c, &o, &pos, &mut cache, &mut ws).unwrap();
    assert_eq!(first.status, Separated);
    assert_eq!(first.decided_by, Decision::SeparatingVector);
    cache.validate().unwrap();
    let s = cache.separating_vector().unwrap();
    let second = chung_wang_intersect(&c, &o, &pos, &mut cache, &mut ws).unwrap();
    assert_eq!((second.status, second.iterations), (Separated, 1));
    assert_eq!(cache.separating_vector().unwrap(), s);
    // The cached vector really separates: brute force over all vertices.
    let rot = nalgebra::convert::<_, nalgebra::Isometry3<f64>>(pos);
    let max1 = c
        .vertices()
        .iter()
        .map(|p| s.dot(&p.coords.cast::<f64>()))
        .fold(f64::MIN, f64::max);
    let min2 = o
        .vertices()
        .iter()
        .map(|p| s.dot(&(rot * p.cast::<f64>()).coords))
        .fold(f64::MAX, f64::min);
    assert!(min2 - max1 > touching_tolerance(&c, &o), "{min2} {max1}");
    cache.reset();
    assert!(cache.separating_vector().is_none());
    assert_eq!(
        chung_wang_intersect(&c, &o, &pos, &mut cache, &mut ws)
            .unwrap()
            .status,
        Separated
    );
    assert_eq!(ws.stats.queries, 3);
    assert_eq!(ws.stats.separated, 3);
    assert_eq!(ws.stats.separated_by_boxes, 0);
}

#[test]
fn a_lost_certificate_face_separates_a_pair_that_moved_apart() {
    let c = cube(0.5);
    let mut cache = ChungWangCache::new();
    let mut ws = ChungWangWorkspace::new();
    // Overlapping by 0.2 along x (slightly turned, so no face pairs are parallel): the search
    // certifies the collision with a tetrahedron, which the cache keeps.
    let overlap = pose([0.8, 0.05, -0.03], [0.3, 1.0, 0.2], 0.1);
    let r = chung_wang_intersect(&c, &c, &overlap, &mut cache, &mut ws).unwrap();
    assert_eq!(
        (r.status, r.decided_by),
        (Intersecting, Decision::Tetrahedron)
    );
    // Moved apart along x: the origin left the tetrahedron, and the normal of the face it left
    // through separates the cubes (no search, no GJK).
    let apart = pose([1.3, 0.05, -0.03], [0.3, 1.0, 0.2], 0.1);
    let r = chung_wang_intersect(&c, &c, &apart, &mut cache, &mut ws).unwrap();
    assert_eq!(
        (r.status, r.decided_by),
        (Separated, Decision::CertificateFace)
    );
    assert_eq!(ws.stats.separated_by_certificate_face, 1);
    assert_eq!(ws.stats.fallbacks(), 0);
    cache.validate().unwrap();
    // The cached vector really separates by more than the band: brute force over all vertices.
    let s = cache.separating_vector().unwrap();
    let rot = nalgebra::convert::<_, nalgebra::Isometry3<f64>>(apart);
    let max1 = c
        .vertices()
        .iter()
        .map(|p| s.dot(&p.coords.cast::<f64>()))
        .fold(f64::MIN, f64::max);
    let min2 = c
        .vertices()
        .iter()
        .map(|p| s.dot(&(rot * p.cast::<f64>()).coords))
        .fold(f64::MAX, f64::min);
    assert!(min2 - max1 > touching_tolerance(&c, &c), "{min2} {max1}");
    // The next query starts from it: one iteration.
    let r = chung_wang_intersect(&c, &c, &apart, &mut cache, &mut ws).unwrap();
    assert_eq!(
        (r.status, r.decided_by, r.iterations),
        (Separated, Decision::SeparatingVector, 1)
    );
}

#[test]
fn bounding_box_pre_test_decides_far_pairs_and_skips_once_after_an_overlap() {
    let c = cube(0.5);
    let o = octahedron(1.0);
    let mut cache = ChungWangCache::new();
    let mut ws = ChungWangWorkspace::new();
    // Rotated a quarter turn about z the octahedron's box is still [-1, 1]^3 around its centre:
    // at x = 1.5 + gap the boxes are apart by `gap` along x.
    let tol = touching_tolerance(&c, &o);
    let far = pose(
        [1.5 + 1e-3, 0.2, -0.3],
        [0.0, 0.0, 1.0],
        std::f32::consts::FRAC_PI_2,
    );
    let r = chung_wang_intersect(&c, &o, &far, &mut cache, &mut ws).unwrap();
    assert_eq!(
        (r.status, r.decided_by, r.visits),
        (Separated, Decision::BoundingBoxes, 0)
    );
    // Boxes apart by half the band along x only, while the solids are apart by at least
    // (1.2 - 1) / sqrt(3) (the cube's nearest corner is 1.2 from the octahedron's centre in the
    // L1 norm): the search decides.
    let band = pose([1.5 + 0.5 * tol as f32, 0.6, 0.6], [0.0, 0.0, 1.0], 0.0);
    let r = chung_wang_intersect(&c, &o, &band, &mut cache, &mut ws).unwrap();
    assert_eq!(
        (r.status, r.decided_by),
        (Separated, Decision::SeparatingVector)
    );
    // The boxes overlapped, so the next query skips the pre-test even for the far pose (the
    // search or its GJK fallback decides); the one after tests again.
    let r = chung_wang_intersect(&c, &o, &far, &mut cache, &mut ws).unwrap();
    assert_eq!(r.status, Separated);
    assert_ne!(r.decided_by, Decision::BoundingBoxes);
    let r = chung_wang_intersect(&c, &o, &far, &mut cache, &mut ws).unwrap();
    assert_eq!(r.decided_by, Decision::BoundingBoxes);
    // Intersecting octahedron inside the cube's box: never decided by the boxes.
    let inside = pose([0.6, 0.1, 0.0], [1.0, 1.0, 0.0], 0.3);
    let r = chung_wang_intersect(&c, &o, &inside, &mut cache, &mut ws).unwrap();
    assert_eq!(r.status, Intersecting);
    assert_eq!((ws.stats.queries, ws.stats.separated_by_boxes), (5, 2));
}

#[test]
fn tiny_and_huge_scales_give_the_same_answers() {
    for scale in [1e-12f32, 1e-6, 1.0, 1e6, 1e12] {
        let c = cube(0.5 * scale);
        for (gap, expected) in [(1e-3f32, Separated), (0.0, Touching), (-1e-3, Intersecting)] {
            let t = (1.0 + gap) * scale;
            assert_eq!(
                classify(&c, &c, &pose([t, 0.0, 0.0], [0.0, 0.0, 1.0], 0.0)),
                expected,
                "scale {scale} gap {gap}"
            );
            let t = (0.6 + gap) * scale;
            let rotated = pose([t, t * 0.5, 0.0], [1.0, 1.0, 0.0], 0.3);
            let ours = classify(&c, &c, &rotated);
            let gjk = gjk_intersect(&c, &c, &rotated, &mut GjkCache::new()).unwrap();
            assert_eq!(ours, gjk.into(), "scale {scale}");
        }
    }
}

#[test]
fn non_finite_poses_are_errors() {
    let c = cube(0.5);
    let mut ws = ChungWangWorkspace::new();
    let mut cache = ChungWangCache::new();
    let mut bad = pose([1.0, 0.0, 0.0], [0.0, 0.0, 1.0], 0.0);
    bad.translation.vector.x = f32::NAN;
    assert!(matches!(
        chung_wang_intersect(&c, &c, &bad, &mut cache, &mut ws),
        Err(NarrowError::NonFinite { .. })
    ));
    let mut bad = pose([1.0, 0.0, 0.0], [0.0, 0.0, 1.0], 0.0);
    bad.translation.vector.y = f32::INFINITY;
    assert!(chung_wang_intersect(&c, &c, &bad, &mut cache, &mut ws).is_err());
    let bad = Isometry::from_parts(
        Translation3::new(1.0, 0.0, 0.0),
        UnitQuaternion::new_unchecked(nalgebra::Quaternion::new(f32::NAN, 0.0, 0.0, 0.0)),
    );
    assert!(chung_wang_intersect(&c, &c, &bad, &mut cache, &mut ws).is_err());
    let zero = Isometry::from_parts(
        Translation3::new(1.0, 0.0, 0.0),
        UnitQuaternion::new_unchecked(nalgebra::Quaternion::new(0.0, 0.0, 0.0, 0.0)),
    );
    assert!(chung_wang_intersect(&c, &c, &zero, &mut cache, &mut ws).is_err());
    // The cache and workspace are still usable.
    let ok = pose([2.0, 0.0, 0.0], [0.0, 0.0, 1.0], 0.0);
    assert_eq!(
        chung_wang_intersect(&c, &c, &ok, &mut cache, &mut ws)
            .unwrap()
            .status,
        Separated
    );
    cache.validate().unwrap();
    ws.validate().unwrap();
}
