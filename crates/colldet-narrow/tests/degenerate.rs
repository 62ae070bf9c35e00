//! Touching and near-degenerate configurations with known answers: stacked cubes, long thin
//! triangles, vertex-on-face contact, coplanar plates (flat `A - B`), crossing rods, single points.

mod common;

use colldet_geom::math::{Pose, Vector};
use colldet_narrow::{
    EpaWorkspace, GjkCache, GjkStatus, PointCloud, epa_penetration, gjk_distance, gjk_intersect,
};
use common::*;
use nalgebra::{Translation3, UnitQuaternion, Vector3};

fn cloud(pts: &[[f32; 3]]) -> PointCloud {
    PointCloud::new(pts.iter().map(|q| p(q[0], q[1], q[2])).collect()).unwrap()
}

#[test]
fn stacked_boxes_face_to_face_under_rotation_about_the_stacking_axis() {
    let lower = cuboid([1.0, 0.5, 0.25]);
    let upper = cuboid([0.3, 0.3, 0.5]);
    let mut rng = SplitMix64(3);
    let mut ws = EpaWorkspace::new();
    let mut cache = GjkCache::new();
    for _ in 0..500 {
        let angle = rng.range(0.0, std::f64::consts::TAU) as f32;
        let (x, y) = (rng.range(-0.6, 0.6) as f32, rng.range(-0.15, 0.15) as f32);
        // Top face of the lower box at z = 0.25, bottom face of the upper box at 0.75 - 0.5.
        let pos = iso_rot([x, y, 0.75], Vector::z(), angle);
        assert_eq!(
            gjk_intersect(&lower, &upper, &pos, &mut cache).unwrap(),
            GjkStatus::Touching
        );
        let d = gjk_distance(&lower, &upper, &pos, &mut GjkCache::new()).unwrap();
        assert!(d.distance <= 1e-12 && d.status == GjkStatus::Touching);
        let pen = epa_penetration(&lower, &upper, &pos, &mut cache, &mut ws)
            .unwrap()
            .unwrap();
        ws.validate().unwrap();
        assert!(pen.depth.abs() <= 1e-12, "{}", pen.depth);
        assert!(
            (pen.normal - Vector::z().cast()).norm() <= 1e-9,
            "{:?}",
            pen.normal
        );
        assert!((pen.point1.z - 0.25).abs() <= 1e-12 && (pen.point2.z - 0.25).abs() <= 1e-12);
    }
}

#[test]
fn long_thin_triangle_piercing_a_cube() {
    let cube = unit_cube();
    let tri = cloud(&[[-10.0, 0.0, 0.0], [10.0, 0.001, 0.0], [10.0, -0.001, 0.0]]);
    let mut ws = EpaWorkspace::new();
    for (z, depth, nz) in [(0.3_f32, 0.2, 1.0), (-0.35, 0.15, -1.0), (0.0, 0.5, 0.0)] {
        let pos = iso([0.0, 0.0, z]);
        let pen = epa_penetration(&cube, &tri, &pos, &mut GjkCache::new(), &mut ws)
            .unwrap()
            .unwrap();
        ws.validate().unwrap();
        assert!((pen.depth - depth).abs() <= 1e-6, "z {z}: {}", pen.depth);
        if nz != 0.0 {
            assert!(
                (pen.depth - (0.5 - f64::from(z).abs())).abs() <= 1e-12,
                "z {z}: {}",
                pen.depth
            );
            assert!(
                (pen.normal - Vector::new(0.0, 0.0, nz).cast()).norm() <= 1e-12,
                "{:?}",
                pen.normal
            );
        } else {
            // At the centre plane both z directions tie at 0.5; y needs 0.5 + the triangle's half width.
            assert!(pen.normal.z.abs() > 1.0 - 1e-12);
        }
        assert_eq!(
            gjk_intersect(&cube, &tri, &pos, &mut GjkCache::new()).unwrap(),
            GjkStatus::Intersecting
        );
    }
    // Touching the top face exactly, and hovering 1e-3 above it.
    let pos = iso([0.0, 0.0, 0.5]);
    assert_eq!(
        gjk_intersect(&cube, &tri, &pos, &mut GjkCache::new()).unwrap(),
        GjkStatus::Touching
    );
    let pen = epa_penetration(&cube, &tri, &pos, &mut GjkCache::new(), &mut ws)
        .unwrap()
        .unwrap();
    assert!(pen.depth.abs() <= 1e-12 && (pen.normal - Vector::z().cast()).norm() <= 1e-9);
    let d = gjk_distance(&cube, &tri, &iso([0.0, 0.0, 0.501]), &mut GjkCache::new()).unwrap();
    assert!((d.distance - (f64::from(0.501_f32) - 0.5)).abs() <= 1e-12);
}

#[test]
fn vertex_touching_a_face_and_edge_touching_an_edge() {
    let cube = unit_cube();
    // Tetrahedron with its apex at the local origin, pointing down.
    let tet = cloud(&[
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 1.0],
        [-0.5, 0.8, 1.0],
        [-0.5, -0.8, 1.0],
    ]);
    let pos = iso([0.1, -0.2, 0.5]);
    assert_eq!(
        gjk_intersect(&cube, &tet, &pos, &mut GjkCache::new()).unwrap(),
        GjkStatus::Touching
    );
    let pen = epa_penetration(
        &cube,
        &tet,
        &pos,
        &mut GjkCache::new(),
        &mut EpaWorkspace::new(),
    )
    .unwrap()
    .unwrap();
    assert!(
        pen.depth.abs() <= 1e-12 && (pen.normal - Vector::z().cast()).norm() <= 1e-9,
        "{pen:?}"
    );
    // Pushed 0.01 into the face: depth 0.01 along z.
    let pos = iso([0.1, -0.2, 0.49]);
    let pen = epa_penetration(
        &cube,
        &tet,
        &pos,
        &mut GjkCache::new(),
        &mut EpaWorkspace::new(),
    )
    .unwrap()
    .unwrap();
    assert!(
        (pen.depth - (0.5 - f64::from(0.49_f32))).abs() <= 1e-12,
        "{}",
        pen.depth
    );
    // Cube edge against a rotated cube's edge: cube 2 turned 45 degrees about z and placed so its
    // vertical edge touches cube 1's vertical edge at x = y = 0.5. The pose is f64: rounding it to
    // f32 moves the edge by about 1e-7, far outside the touching band (1e-9 of the size).
    let h = std::f64::consts::FRAC_1_SQRT_2; // centre-to-edge distance of the turned cube
    let pos = Pose::from_parts(
        Translation3::new(0.5 + h, 0.5, 0.0),
        UnitQuaternion::from_axis_angle(&Vector3::z_axis(), std::f64::consts::FRAC_PI_4),
    );
    let d = gjk_distance(&cube, &cube, &pos, &mut GjkCache::new()).unwrap();
    assert!(d.distance <= 1e-15, "{}", d.distance);
    assert_eq!(d.status, GjkStatus::Touching);
    // Just outside and just inside the band: separated by 2e-9 of the size, overlapping by as much.
    let size = 3f64.sqrt(); // r1 + r2 of two unit cubes
    for (shift, expected) in [
        (2e-9, GjkStatus::Separated),
        (-2e-9, GjkStatus::Intersecting),
    ] {
        let mut moved = pos;
        moved.translation.vector.x += shift * size;
        assert_eq!(
            gjk_intersect(&cube, &cube, &moved, &mut GjkCache::new()).unwrap(),
            expected,
            "shift {shift}"
        );
    }
}

#[test]
fn coplanar_plates_make_a_flat_difference() {
    // Zero-thickness squares in the plane z = 0: A - B is flat, every common point is a boundary
    // point, so the depth is zero and the normal is the plate normal.
    let sq = cloud(&[
        [-1.0, -1.0, 0.0],
        [1.0, -1.0, 0.0],
        [1.0, 1.0, 0.0],
        [-1.0, 1.0, 0.0],
    ]);
    for t in [[0.5_f32, 0.3, 0.0], [0.0, 0.0, 0.0], [1.9, -1.5, 0.0]] {
        let pos = iso_rot(t, Vector::z(), 0.4);
        assert_eq!(
            gjk_intersect(&sq, &sq, &pos, &mut GjkCache::new()).unwrap(),
            GjkStatus::Touching
        );
        let pen = epa_penetration(
            &sq,
            &sq,
            &pos,
            &mut GjkCache::new(),
            &mut EpaWorkspace::new(),
        )
        .unwrap()
        .unwrap();
        assert!(
            pen.depth.abs() <= 1e-12 && pen.normal.z.abs() > 1.0 - 1e-12,
            "{pen:?}"
        );
    }
    // Parallel plates 0.25 apart.
    let d = gjk_distance(&sq, &sq, &iso([0.3, 0.2, 0.25]), &mut GjkCache::new()).unwrap();
    assert!((d.distance - 0.25).abs() <= 1e-12 && d.status == GjkStatus::Separated);
}

#[test]
fn crossing_rods_and_single_points() {
    let rod = cloud(&[[-1.0, 0.0, 0.0], [1.0, 0.0, 0.0]]);
    let rod_y = iso_rot([0.0, 0.0, 0.0], Vector::z(), std::f32::consts::FRAC_PI_2);
    // Crossing at the origin: touching (A - B is a flat parallelogram).
    assert_eq!(
        gjk_intersect(&rod, &rod, &rod_y, &mut GjkCache::new()).unwrap(),
        GjkStatus::Touching
    );
    let pen = epa_penetration(
        &rod,
        &rod,
        &rod_y,
        &mut GjkCache::new(),
        &mut EpaWorkspace::new(),
    )
    .unwrap()
    .unwrap();
    assert!(
        pen.depth.abs() <= 1e-12 && pen.normal.z.abs() > 1.0 - 1e-9,
        "{pen:?}"
    );
    // Skew rods 0.125 apart along z.
    let mut pos = rod_y;
    pos.translation.vector.z = 0.125;
    let d = gjk_distance(&rod, &rod, &pos, &mut GjkCache::new()).unwrap();
    assert!((d.distance - 0.125).abs() <= 1e-12);
    // Single points: distance is the point distance; coincident points touch.
    let dot = cloud(&[[0.25, 0.0, 0.0]]);
    let d = gjk_distance(&dot, &dot, &iso([3.0, 4.0, 0.0]), &mut GjkCache::new()).unwrap();
    assert!((d.distance - 5.0).abs() <= 1e-12);
    assert_eq!(
        gjk_intersect(&dot, &dot, &iso([0.0, 0.0, 0.0]), &mut GjkCache::new()).unwrap(),
        GjkStatus::Touching
    );
    // A point inside a cube: depth is its distance to the nearest face.
    let cube = unit_cube();
    let pen = epa_penetration(
        &cube,
        &dot,
        &iso([0.0, 0.1, 0.0]),
        &mut GjkCache::new(),
        &mut EpaWorkspace::new(),
    )
    .unwrap()
    .unwrap();
    assert!(
        (pen.depth - 0.25).abs() <= 1e-12 && (pen.normal - Vector::x().cast()).norm() <= 1e-12,
        "{pen:?}"
    );
}
