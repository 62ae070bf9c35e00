//! Analytic cases with exact answers: cubes at known gaps, cubes face to face, cube overlap depths,
//! sphere-like point clouds along their poles.

mod common;

use colldet_geom::math::{Isometry, Pose, Vector};
use colldet_narrow::{
    EpaWorkspace, GjkCache, GjkStatus, NarrowError, PointCloud, TOUCHING_TOLERANCE_FACTOR,
    epa_penetration, gjk_distance, gjk_intersect, touching_tolerance,
};
use common::*;

fn distance(s1: &PointCloud, s2: &PointCloud, pos12: &Isometry) -> colldet_narrow::GjkDistance {
    let mut cache = GjkCache::new();
    let d = gjk_distance(s1, s2, pos12, &mut cache).unwrap();
    cache.validate().unwrap();
    d
}

fn penetration(
    s1: &PointCloud,
    s2: &PointCloud,
    pos12: &Isometry,
) -> Option<colldet_narrow::Penetration> {
    let mut cache = GjkCache::new();
    let mut ws = EpaWorkspace::new();
    let p = epa_penetration(s1, s2, pos12, &mut cache, &mut ws).unwrap();
    ws.validate().unwrap();
    p
}

fn status(s1: &PointCloud, s2: &PointCloud, pos12: &Isometry) -> GjkStatus {
    gjk_intersect(s1, s2, pos12, &mut GjkCache::new()).unwrap()
}

#[test]
fn unit_cubes_at_known_gaps_have_exact_distances() {
    let c = unit_cube();
    for gap in [0.25_f32, 0.5, 1e-3, 3.0, 1e-5] {
        let t = 1.0 + gap;
        let g = f64::from(t) - 1.0;
        for (angle, axis) in [(0.0, Vector::x()), (0.7, Vector::x()), (1.3, Vector::x())] {
            // Rotations about x keep the x extent of cube 2 at [-0.5, 0.5]: a face gap along x.
            let d = distance(&c, &c, &iso_rot([t, 0.1, -0.2], axis, angle));
            assert_eq!(d.status, GjkStatus::Separated, "gap {gap}");
            assert!(
                (d.distance - g).abs() <= 1e-12,
                "gap {gap} angle {angle}: {}",
                d.distance
            );
            assert!((d.point1.x - 0.5).abs() <= 1e-12 && (d.point2.x - (0.5 + g)).abs() <= 1e-12);
            assert!(((d.point2 - d.point1).norm() - d.distance).abs() <= 1e-12);
        }
        // Edge-edge and vertex-vertex gaps.
        let d = distance(&c, &c, &iso([t, t, 0.0]));
        assert!(
            (d.distance - g * 2f64.sqrt()).abs() <= 1e-12,
            "edge gap {gap}: {}",
            d.distance
        );
        let d = distance(&c, &c, &iso([t, t, t]));
        assert!(
            (d.distance - g * 3f64.sqrt()).abs() <= 1e-12,
            "vertex gap {gap}: {}",
            d.distance
        );
        assert_eq!(status(&c, &c, &iso([t, t, t])), GjkStatus::Separated);
        assert!(penetration(&c, &c, &iso([t, t, t])).is_none());
    }
}

#[test]
fn touching_cubes_face_to_face_are_touching_with_zero_depth() {
    let c = unit_cube();
    for (off, angle) in [
        ([0.0, 0.0], 0.0_f32),
        ([0.3, -0.2], 0.0),
        ([0.25, 0.25], 0.5),
        ([0.9, 0.0], 1.0),
        ([0.0, 0.0], std::f32::consts::FRAC_PI_4),
    ] {
        for axis in 0..3 {
            let mut t = [off[0], off[1], off[0] * 0.5];
            t[axis] = 1.0;
            let mut rot_axis = Vector::zeros();
            rot_axis[axis] = 1.0;
            let pos = iso_rot(t, rot_axis, angle);
            assert_eq!(
                status(&c, &c, &pos),
                GjkStatus::Touching,
                "t {t:?} angle {angle}"
            );
            let d = distance(&c, &c, &pos);
            assert_eq!(d.status, GjkStatus::Touching);
            assert!(d.distance <= 1e-12, "{}", d.distance);
            let p = penetration(&c, &c, &pos).expect("touching pair has a contact");
            assert!(p.depth.abs() <= 1e-12, "depth {}", p.depth);
            let mut n = Vector::zeros().cast::<f64>();
            n[axis] = 1.0;
            assert!(
                (p.normal - n).norm() <= 1e-9,
                "normal {:?} for t {t:?}",
                p.normal
            );
        }
    }
}

#[test]
fn touching_band_edges_for_cubes() {
    let c = unit_cube();
    let tol = touching_tolerance(&c, &c);
    // The radii are f32: sqrt(3) / 2 to f32 precision each.
    assert!((tol / (TOUCHING_TOLERANCE_FACTOR * 3f64.sqrt()) - 1.0).abs() < 1e-6);
    // f64 relative poses resolve gaps far below f32 spacing: probe the band edges directly.
    let at = |x: f64| Pose::translation(x, 0.0, 0.0);
    let f64_status = |pos: &Pose| gjk_intersect(&c, &c, pos, &mut GjkCache::new()).unwrap();
    // Inside the band on both sides.
    for gap in [0.5 * tol, -0.5 * tol, 0.0] {
        assert_eq!(f64_status(&at(1.0 + gap)), GjkStatus::Touching, "gap {gap}");
    }
    // Outside the band on both sides.
    assert_eq!(f64_status(&at(1.0 + 2.0 * tol)), GjkStatus::Separated);
    assert_eq!(f64_status(&at(1.0 - 2.0 * tol)), GjkStatus::Intersecting);
    // The smallest f32 gap (one spacing above 1.0) is already a separation.
    let ulp = f32::EPSILON;
    assert_eq!(
        status(&c, &c, &iso([1.0 + ulp, 0.0, 0.0])),
        GjkStatus::Separated
    );
    assert_eq!(
        status(&c, &c, &iso([1.0 - ulp / 2.0, 0.0, 0.0])),
        GjkStatus::Intersecting
    );
    // A gap inside the band comes back as a negative depth.
    let mut cache = GjkCache::new();
    let mut ws = EpaWorkspace::new();
    let gap = 0.5 * tol;
    let p = epa_penetration(&c, &c, &at(1.0 + gap), &mut cache, &mut ws)
        .unwrap()
        .unwrap();
    assert!((p.depth + gap).abs() <= 1e-13, "{}", p.depth);
    assert!((p.normal - Vector::x().cast()).norm() < 1e-6);
}

#[test]
fn overlapping_cubes_offset_along_x_have_exact_depth() {
    let c = unit_cube();
    for delta in [0.25_f32, 0.5, 0.125, 0.9, 0.01] {
        for off in [[0.0, 0.0], [0.05, 0.0], [-0.02, 0.01]] {
            // Overlap along y and z is at least 0.95 > 0.9: the x axis is the unique minimum.
            let t = 1.0 - delta;
            let pos = iso([t, off[0], off[1]]);
            let expected = 1.0 - f64::from(t);
            assert_eq!(status(&c, &c, &pos), GjkStatus::Intersecting);
            let p = penetration(&c, &c, &pos).unwrap();
            assert!(
                (p.depth - expected).abs() <= 1e-12,
                "delta {delta}: {}",
                p.depth
            );
            assert!(
                (p.normal - Vector::x().cast()).norm() <= 1e-12,
                "{:?}",
                p.normal
            );
            assert!((p.point1.x - 0.5).abs() <= 1e-12);
            assert!((p.point2.x - (f64::from(t) - 0.5)).abs() <= 1e-12);
            assert!(((p.point1 - p.point2) - p.normal * p.depth).norm() <= 1e-12);
            let d = distance(&c, &c, &pos);
            assert_eq!((d.status, d.distance), (GjkStatus::Intersecting, 0.0));
        }
    }
    // Coincident cubes: depth 1 along some axis.
    let p = penetration(&c, &c, &iso([0.0, 0.0, 0.0])).unwrap();
    assert!((p.depth - 1.0).abs() <= 1e-12, "{}", p.depth);
    assert!(p.normal.iter().map(|x| x.abs()).fold(0.0, f64::max) > 1.0 - 1e-12);
}

#[test]
fn sphere_like_clouds_along_poles() {
    let s = fibonacci_sphere(1000, 1.0);
    let mut rng = SplitMix64(7);
    for _ in 0..50 {
        let angle = rng.range(0.0, std::f64::consts::TAU) as f32;
        // Separated along z: the poles are the unique closest features, distance t - 2 exactly.
        let t = rng.range(2.001, 4.0) as f32;
        let d = distance(&s, &s, &iso_rot([0.0, 0.0, t], Vector::z(), angle));
        assert!(
            (d.distance - (f64::from(t) - 2.0)).abs() <= 1e-12,
            "t {t}: {}",
            d.distance
        );
        assert!((d.point1 - nalgebra::Point3::new(0.0, 0.0, 1.0)).norm() <= 1e-12);
        // Overlapping along z: depth within [2 r_in - t, 2 - t], r_in >= 0.99 for this sampling.
        let t = rng.range(1.0, 1.99) as f32;
        let p = penetration(&s, &s, &iso_rot([0.0, 0.0, t], Vector::z(), angle)).unwrap();
        let upper = 2.0 - f64::from(t);
        assert!(
            p.depth <= upper + 1e-12 && p.depth >= upper - 0.02,
            "t {t}: {}",
            p.depth
        );
        assert!(p.normal.z > 0.95, "{:?}", p.normal);
    }
}

#[test]
fn warm_start_converges_in_few_iterations_under_coherent_motion() {
    let a = fibonacci_sphere(300, 1.0);
    let b = unit_cube();
    let mut cache = GjkCache::new();
    let mut cold = 0u32;
    let mut warm = 0u32;
    let steps = 2000;
    for i in 0..steps {
        let th = i as f32 * 1e-3;
        let pos = iso_rot(
            [2.5 * th.cos(), 2.5 * th.sin(), 0.3 * th.sin()],
            Vector::new(1.0, 2.0, 3.0),
            th,
        );
        let d_warm = gjk_distance(&a, &b, &pos, &mut cache).unwrap();
        let d_cold = gjk_distance(&a, &b, &pos, &mut GjkCache::new()).unwrap();
        assert!((d_warm.distance - d_cold.distance).abs() <= 1e-9 * d_cold.distance.max(1.0));
        warm += d_warm.iterations;
        cold += d_cold.iterations;
    }
    let (warm, cold) = (
        f64::from(warm) / steps as f64,
        f64::from(cold) / steps as f64,
    );
    println!("coherent motion: mean support queries warm {warm:.2}, cold {cold:.2}");
    assert!(warm < cold && warm <= 2.0, "warm {warm} cold {cold}");
}

#[test]
fn non_finite_inputs_are_typed_errors() {
    let c = unit_cube();
    let mut cache = GjkCache::new();
    let mut ws = EpaWorkspace::new();
    let bad_t = iso([f32::NAN, 0.0, 0.0]);
    let inf_t = iso([0.0, f32::INFINITY, 0.0]);
    let mut bad_r = iso([1.0, 0.0, 0.0]);
    bad_r.rotation =
        nalgebra::UnitQuaternion::new_unchecked(nalgebra::Quaternion::new(f32::NAN, 0.0, 0.0, 0.0));
    for pos in [bad_t, inf_t, bad_r] {
        assert!(matches!(
            gjk_intersect(&c, &c, &pos, &mut cache),
            Err(NarrowError::NonFinite { .. })
        ));
        assert!(matches!(
            gjk_distance(&c, &c, &pos, &mut cache),
            Err(NarrowError::NonFinite { .. })
        ));
        assert!(matches!(
            epa_penetration(&c, &c, &pos, &mut cache, &mut ws),
            Err(NarrowError::NonFinite { .. })
        ));
    }
    cache.validate().unwrap();
    assert!(matches!(
        PointCloud::new(vec![p(0.0, 0.0, 0.0), p(f32::NAN, 1.0, 0.0)]),
        Err(NarrowError::Geom(
            colldet_geom::GeomError::NonFiniteCoordinate { vertex: 1 }
        ))
    ));
    assert!(matches!(
        PointCloud::new(vec![]),
        Err(NarrowError::Geom(colldet_geom::GeomError::NoVertices))
    ));
    // A support map that answers NaN is reported, not trusted.
    struct Broken;
    impl colldet_narrow::SupportMap for Broken {
        fn local_support(&self, _: &Vector) -> colldet_geom::math::Point {
            p(f32::NAN, 0.0, 0.0)
        }
        fn local_bounding_radius(&self) -> f32 {
            1.0
        }
    }
    assert!(matches!(
        gjk_intersect(&c, &Broken, &iso([1.0, 0.0, 0.0]), &mut GjkCache::new()),
        Err(NarrowError::NonFinite {
            what: "support point of shape 2"
        })
    ));
}
