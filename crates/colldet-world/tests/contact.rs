//! `World::contact`: contact manifolds of two objects of a world, in world coordinates.
//!
//! Analytic cases (a box sunk into a box under a common rotation, touching faces, a box inside a
//! box, non-convex pairs crossing and one inside another, separated pairs, bad arguments), and seeded random convex pairs whose
//! manifolds must agree with the world's own answers: a manifold exactly when the exact test
//! collides, depth and normal equal to `World::distance`'s penetration, every point pair in both
//! objects.

use colldet_geom::MeshData;
use colldet_geom::math::{Pose, VectorD};
use colldet_testkit::SeededRng;
use colldet_testkit::shapes::{ChungWangShape, chung_wang_polytope, cube_array, cuboid, torus};
use colldet_world::{Config, ManifoldKind, ObjectId, World, WorldError};
use nalgebra::{Translation3, UnitQuaternion, Vector3};

fn cube(h: f64) -> MeshData {
    cuboid(VectorD::repeat(h)).unwrap()
}

fn world_of(meshes: [MeshData; 2], poses: [Pose; 2]) -> (World<()>, ObjectId, ObjectId) {
    let mut world = World::new(Config::default()).unwrap();
    let [ma, mb] = meshes;
    let a = world.make_collidable(ma, ()).unwrap();
    let b = world.make_collidable(mb, ()).unwrap();
    world.set_transform(a, poses[0]).unwrap();
    world.set_transform(b, poses[1]).unwrap();
    (world, a, b)
}

fn close(x: f64, y: f64) -> bool {
    (x - y).abs() <= 1e-9
}

#[test]
fn box_sunk_into_a_box_under_a_common_rotation() {
    let rot = UnitQuaternion::from_axis_angle(&Vector3::y_axis(), 0.7)
        * UnitQuaternion::from_axis_angle(&Vector3::x_axis(), -0.3);
    let origin = Vector3::new(5.0, -2.0, 1.0);
    let place =
        |local: Vector3<f64>| Pose::from_parts(Translation3::from(origin + rot * local), rot);
    let (mut world, a, b) = world_of(
        [cube(0.5), cube(0.5)],
        [place(Vector3::zeros()), place(Vector3::new(0.2, 0.1, 0.9))],
    );
    let m = world.contact(a, b).unwrap().expect("colliding");
    assert_eq!((m.kind, m.count), (ManifoldKind::Face, 4), "{m:?}");
    assert!((m.normal - rot * Vector3::z()).norm() < 1e-9, "{m:?}");
    assert!(close(m.depth, 0.1));
    let mut area_corners = Vec::new();
    for c in m.points() {
        assert!(close(c.depth, 0.1));
        assert!((c.point_a - c.point_b - m.normal * c.depth).norm() < 1e-12);
        // Back in a's frame: b's bottom face at z = 0.4, inside a's top face.
        let local = rot.inverse() * (c.point_b.coords - origin);
        assert!(close(local.z, 0.4), "{local:?}");
        area_corners.push((local.x, local.y));
    }
    let xs = area_corners.iter().map(|c| c.0);
    let ys = area_corners.iter().map(|c| c.1);
    assert!(close(xs.clone().fold(f64::INFINITY, f64::min), -0.3));
    assert!(close(xs.fold(f64::NEG_INFINITY, f64::max), 0.5));
    assert!(close(ys.clone().fold(f64::INFINITY, f64::min), -0.4));
    assert!(close(ys.fold(f64::NEG_INFINITY, f64::max), 0.5));
    // The pair order sets the normal's sign.
    let n = world.contact(b, a).unwrap().unwrap();
    assert!((n.normal + m.normal).norm() < 1e-9);
}

#[test]
fn touching_faces_give_a_contact_of_depth_zero_and_a_gap_of_one_ulp_none() {
    let (mut world, a, b) = world_of(
        [cube(0.5), cube(0.5)],
        [Pose::identity(), Pose::translation(0.25, 0.0, 1.0)],
    );
    let m = world.contact(a, b).unwrap().expect("touching counts");
    assert_eq!(m.count, 4, "{m:?}");
    assert!(m.depth.abs() <= 1e-12, "{m:?}");
    // b one ulp higher: the exact test separates the faces.
    world
        .set_transform(b, Pose::translation(0.25, 0.0, 1.0f64.next_up()))
        .unwrap();
    assert_eq!(world.contact(a, b).unwrap(), None);
}

#[test]
fn a_box_inside_a_box_gets_the_shortest_way_out() {
    let (mut world, a, b) = world_of(
        [cube(1.0), cube(0.25)],
        [Pose::identity(), Pose::translation(0.0, 0.0, 0.625)],
    );
    let m = world.contact(a, b).unwrap().unwrap();
    // b's bottom at z = 0.375 must rise to a's top at z = 1: depth 0.625 along +z.
    assert!(close(m.depth, 0.625), "{m:?}");
    assert_eq!((m.kind, m.count), (ManifoldKind::Face, 4));
    assert!((m.normal - VectorD::z()).norm() < 1e-9);
}

#[test]
fn two_cubes_in_one_mesh_sunk_into_a_floor_give_the_outer_corners() {
    // A non-convex object: two unit cubes 3 apart (centres x = -1.5 and 1.5), sunk 0.1 into the
    // floor's top face at z = 0.
    let twins = cube_array(2, 1, 1, 1.0, 2.0).unwrap();
    let floor = cuboid(VectorD::new(5.0, 5.0, 0.5)).unwrap();
    let (mut world, a, b) = world_of(
        [floor, twins],
        [
            Pose::translation(0.0, 0.0, -0.5),
            Pose::translation(0.0, 0.0, 0.4),
        ],
    );
    let m = world.contact(a, b).unwrap().unwrap();
    assert_eq!((m.kind, m.count), (ManifoldKind::Face, 4), "{m:?}");
    assert!((m.normal - VectorD::z()).norm() < 1e-12, "{m:?}");
    assert!(close(m.depth, 0.1));
    let mut corners: Vec<(f64, f64)> = Vec::new();
    for c in m.points() {
        assert!(close(c.depth, 0.1) && close(c.point_b.z, -0.1) && close(c.point_a.z, 0.0));
        corners.push((c.point_b.x, c.point_b.y));
    }
    corners.sort_by(|p, q| p.partial_cmp(q).unwrap());
    let expected = [(-2.0, -0.5), (-2.0, 0.5), (2.0, -0.5), (2.0, 0.5)];
    for (got, want) in corners.iter().zip(expected) {
        assert!(close(got.0, want.0) && close(got.1, want.1), "{corners:?}");
    }
}

#[test]
fn a_torus_and_a_cube_crossing_get_a_mesh_manifold_and_the_hole_none() {
    let (mut world, a, b) = world_of(
        [torus(2.0, 0.5, 24, 12).unwrap(), cube(0.3)],
        [Pose::identity(), Pose::translation(2.0, 0.0, 0.5)],
    );
    let m = world.contact(a, b).unwrap().unwrap();
    assert!(
        matches!(m.kind, ManifoldKind::Face | ManifoldKind::Point),
        "{m:?}"
    );
    assert!(
        (m.normal.norm() - 1.0).abs() < 1e-12 && m.depth > 0.0 && m.depth < 0.6,
        "{m:?}"
    );
    for c in m.points() {
        assert!((c.point_a - c.point_b - m.normal * c.depth).norm() < 1e-12);
    }
    world
        .set_transform(b, Pose::translation(0.0, 0.0, 0.0))
        .unwrap();
    assert_eq!(
        world.contact(a, b).unwrap(),
        None,
        "the cube sits in the torus's hole"
    );
}

#[test]
fn a_mesh_inside_a_closed_mesh_reports_the_witness_only() {
    // A small cube inside the tube of a torus: no surfaces cross, the solids collide.
    let (mut world, a, b) = world_of(
        [torus(2.0, 0.5, 24, 12).unwrap(), cube(0.1)],
        [Pose::identity(), Pose::translation(2.0, 0.0, 0.0)],
    );
    let m = world.contact(a, b).unwrap().unwrap();
    assert_eq!(
        (m.kind, m.count, m.depth),
        (ManifoldKind::Witness, 1, 0.0),
        "{m:?}"
    );
    assert_eq!(m.normal, VectorD::zeros());
    assert_eq!(m.points[0].point_a, m.points[0].point_b);
}

#[test]
fn bad_arguments_are_refused_and_the_world_stays_usable() {
    let (mut world, a, b) = world_of([cube(0.5), cube(0.5)], [Pose::identity(), Pose::identity()]);
    assert!(matches!(world.contact(a, a), Err(WorldError::SameObject)));
    world.remove(b).unwrap();
    assert!(matches!(
        world.contact(a, b),
        Err(WorldError::InvalidHandle(_))
    ));
    let c = world.make_collidable(cube(0.5), ()).unwrap();
    assert!(world.contact(a, c).unwrap().is_some());
}

#[test]
fn random_convex_pairs_agree_with_the_check_and_the_distance() {
    let mut rng = SeededRng::new(0x6D61_6E69);
    let kinds = [
        ChungWangShape::Ellipsoid,
        ChungWangShape::Rod,
        ChungWangShape::Plate,
    ];
    let mut contacts = 0;
    for case in 0..600 {
        let mesh = |rng: &mut SeededRng| {
            let kind = kinds[rng.index(3)];
            chung_wang_polytope(kind, 12 + rng.index(60), rng.next_u64()).unwrap()
        };
        let (ma, mb) = (mesh(&mut rng), mesh(&mut rng));
        let pose = |rng: &mut SeededRng, spread: f64| {
            let axis = nalgebra::Unit::new_normalize(Vector3::new(
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0) + 1e-3,
            ));
            let t = Vector3::new(
                rng.range(-spread, spread),
                rng.range(-spread, spread),
                rng.range(-spread, spread),
            );
            Pose::from_parts(
                Translation3::from(t),
                UnitQuaternion::from_axis_angle(&axis, rng.range(0.0, 3.0)),
            )
        };
        let (pa, pb) = (pose(&mut rng, 0.5), pose(&mut rng, 1.5));
        let (mut world, a, b) = world_of([ma, mb], [pa, pb]);
        world.start().unwrap();
        let colliding = world.check().unwrap() == 1;
        let manifold = world.contact(a, b).unwrap();
        assert_eq!(manifold.is_some(), colliding, "case {case}");
        let Some(m) = manifold else { continue };
        let d = world.distance(a, b).unwrap();
        if m.kind == ManifoldKind::Witness {
            continue;
        }
        contacts += 1;
        assert!(
            (m.depth + d.distance).abs() <= 1e-9,
            "case {case}: {m:?} {d:?}"
        );
        assert!((m.normal - d.normal).norm() <= 1e-9, "case {case}");
        for c in m.points() {
            assert!((c.point_a - c.point_b - m.normal * c.depth).norm() < 1e-12);
            assert!(c.depth <= m.depth + 1e-12);
        }
    }
    assert!(contacts > 100, "{contacts}");
}
