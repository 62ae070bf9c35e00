//! Flat and soup meshes in the world (issue 20): a triangle, a floor quad and a planar soup have
//! no convex hull with volume, and are accepted as surfaces. Every case runs under every broad
//! phase, serial and parallel, and under each exact method (the convex ones fall back to the mesh
//! test for flat pairs); a mesh without a face of non-zero area is refused.

use colldet_geom::io::{read_obj, read_off};
use colldet_geom::math::{Point, Pose, VectorD};
use colldet_geom::{FaceList, GeomError, MeshData, WorldAabb};
use colldet_narrow::PreparedShape;
use colldet_testkit::shapes::cuboid;
use colldet_world::{BroadPhaseKind, Config, Method, World, WorldError};

const FLOOR_OBJ: &str = include_str!("data/floor.obj");
const TRIANGLE_OFF: &str = include_str!("data/triangle.off");
const PLANAR_SOUP_OBJ: &str = include_str!("data/planar_soup.obj");
const NO_SURFACE_OFF: &str = include_str!("data/no_surface.off");

/// The closed cube `[-0.5, 0.5]^3`.
fn cube() -> MeshData {
    cuboid(VectorD::repeat(0.5)).unwrap()
}

/// A cube of half side `h`.
fn small_cube(h: f64) -> MeshData {
    cuboid(VectorD::repeat(h)).unwrap()
}

/// The polygon `corners` at `z = 0` as a one-face mesh.
fn polygon(corners: &[(f32, f32)]) -> MeshData {
    let vertices = corners
        .iter()
        .map(|&(x, y)| Point::new(x, y, 0.0))
        .collect();
    let mut faces = FaceList::new();
    faces.push(&(0..corners.len() as u32).collect::<Vec<_>>());
    MeshData::new(vertices, faces)
}

/// The square `[-h, h]^2` at `z = 0`.
fn square(h: f32) -> MeshData {
    polygon(&[(-h, -h), (h, -h), (h, h), (-h, h)])
}

/// The triangle `(0, 0, 0), (1, 0, 0), (0, 1, 0)`.
fn triangle() -> MeshData {
    polygon(&[(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)])
}

/// The same triangle twice, back to back: closed (every edge has two faces), but flat.
fn two_sided_triangle() -> MeshData {
    let mut mesh = triangle();
    mesh.faces.push(&[0, 2, 1]);
    mesh
}

fn at(x: f64, y: f64, z: f64) -> Pose {
    Pose::translation(x, y, z)
}

/// Every broad phase, serial and on two threads, under `method`.
fn configs(method: Method) -> Vec<Config> {
    let universe = WorldAabb::new(
        colldet_geom::math::PointD::new(-8.0, -8.0, -8.0),
        colldet_geom::math::PointD::new(8.0, 8.0, 8.0),
    );
    let kinds = [
        BroadPhaseKind::SweepAndPrune,
        BroadPhaseKind::Grid,
        BroadPhaseKind::Octree,
        BroadPhaseKind::DynamicTree,
        BroadPhaseKind::AllPairs,
    ];
    let mut configs = Vec::new();
    for broad_phase in kinds {
        for threads in [1, 2] {
            configs.push(Config {
                broad_phase,
                method,
                threads,
                resolution: 8,
                universe: Some(universe),
                ..Config::default()
            });
        }
    }
    configs
}

/// The exact methods: `Auto` (the BVH test for these pairs), the thesis's tests, and the convex
/// methods, which fall back to the BVH test for a pair with a flat object.
const METHODS: [Method; 6] = [
    Method::Auto,
    Method::Arbitrary,
    Method::BoxTree,
    Method::Convex,
    Method::SeparatingVector,
    Method::Gjk,
];

/// One pair: two meshes at two poses and whether they collide.
struct Case {
    name: &'static str,
    a: MeshData,
    pose_a: Pose,
    b: MeshData,
    pose_b: Pose,
    collide: bool,
}

/// Runs `case` in every configuration: reported (or not) at the first check; moved apart, not
/// reported; moved back, reported (or not) again (the world boxes follow the moves).
fn run(case: &Case) {
    for method in METHODS {
        for config in configs(method) {
            let what = format!("{} ({:?})", case.name, config);
            let mut world = World::new(config).unwrap();
            let a = world.make_collidable(case.a.clone(), 0u32).unwrap();
            let b = world.make_collidable(case.b.clone(), 1u32).unwrap();
            world.set_transform(a, case.pose_a).unwrap();
            world.set_transform(b, case.pose_b).unwrap();
            world.start().unwrap();
            let expected = usize::from(case.collide);
            assert_eq!(world.check().unwrap(), expected, "{what}");
            let far = Pose::translation(6.0, 5.0, -3.0) * case.pose_b;
            world.set_transform(b, far).unwrap();
            assert_eq!(world.check().unwrap(), 0, "{what}: moved apart");
            world.set_transform(b, case.pose_b).unwrap();
            assert_eq!(world.check().unwrap(), expected, "{what}: moved back");
            if case.collide {
                assert_eq!(world.last_collisions(), &[(a, b)], "{what}");
            }
            world.validate().unwrap();
        }
    }
}

#[test]
fn flat_meshes_are_prepared_without_a_hull() {
    for (name, mesh) in [
        ("triangle", triangle()),
        ("square", square(1.0)),
        ("two-sided triangle", two_sided_triangle()),
        ("floor.obj", read_obj(FLOOR_OBJ).unwrap()),
        ("triangle.off", read_off(TRIANGLE_OFF).unwrap()),
        ("planar_soup.obj", read_obj(PLANAR_SOUP_OBJ).unwrap()),
    ] {
        let shape = PreparedShape::build(mesh).unwrap();
        assert!(shape.is_flat() && shape.hull().is_none(), "{name}");
        assert!(!shape.is_convex() && shape.box_hull().is_none(), "{name}");
        assert!(shape.traits().flat && !shape.traits().convex, "{name}");
        assert!(!shape.flat_vertices().is_empty(), "{name}");
    }
    let soup = PreparedShape::build(read_obj(PLANAR_SOUP_OBJ).unwrap()).unwrap();
    // The unused vertex (9, 9, 9) is no part of the surface, the box or the radius.
    assert_eq!(soup.flat_vertices().len(), 10);
    assert!(soup.local_aabb().maxs.z == 0.0 && soup.radius() < 0.36);
    let cube = PreparedShape::build(cube()).unwrap();
    assert!(!cube.is_flat() && cube.flat_vertices().is_empty() && !cube.traits().flat);
}

#[test]
fn a_flat_square_inside_a_closed_cube_collides() {
    run(&Case {
        name: "square in cube",
        a: cube(),
        pose_a: at(0.0, 0.0, 0.0),
        b: square(0.25),
        pose_b: at(0.1, -0.05, 0.2),
        collide: true,
    });
}

#[test]
fn a_floor_quad_touching_a_cube_face_collides() {
    run(&Case {
        name: "floor touching cube",
        a: square(2.0),
        pose_a: at(0.0, 0.0, 0.0),
        b: cube(),
        pose_b: at(0.3, -0.2, 0.5),
        collide: true,
    });
}

#[test]
fn coplanar_triangles_collide_when_they_overlap_or_share_a_vertex() {
    run(&Case {
        name: "overlapping coplanar triangles",
        a: triangle(),
        pose_a: at(0.0, 0.0, 1.0),
        b: triangle(),
        pose_b: at(0.25, 0.25, 1.0),
        collide: true,
    });
    // b's corner (0, 0) on a's corner (1, 0); b lies in x >= 1, y >= 0 beyond the hypotenuse.
    run(&Case {
        name: "coplanar triangles sharing a vertex",
        a: triangle(),
        pose_a: at(0.0, 0.0, 1.0),
        b: polygon(&[(0.0, 0.0), (1.0, 0.0), (0.0, -1.0)]),
        pose_b: at(1.0, 0.0, 1.0),
        collide: true,
    });
    run(&Case {
        name: "two-sided triangle on a triangle",
        a: triangle(),
        pose_a: at(0.0, 0.0, 1.0),
        b: two_sided_triangle(),
        pose_b: at(0.25, 0.25, 1.0),
        collide: true,
    });
    run(&Case {
        name: "disjoint coplanar triangles",
        a: triangle(),
        pose_a: at(0.0, 0.0, 1.0),
        b: triangle(),
        pose_b: at(0.5, 0.5 + 1e-6, 1.0),
        collide: false,
    });
}

#[test]
fn a_triangle_just_above_a_cube_does_not_collide() {
    run(&Case {
        name: "triangle 1e-7 above cube",
        a: cube(),
        pose_a: at(0.0, 0.0, 0.0),
        b: triangle(),
        pose_b: at(-0.4, -0.4, 0.5 + 1e-7),
        collide: false,
    });
    run(&Case {
        name: "triangle on cube",
        a: cube(),
        pose_a: at(0.0, 0.0, 0.0),
        b: triangle(),
        pose_b: at(-0.4, -0.4, 0.5),
        collide: true,
    });
}

#[test]
fn soups_read_from_obj_and_off_collide_as_surfaces() {
    let floor = || read_obj(FLOOR_OBJ).unwrap();
    let tri = || read_off(TRIANGLE_OFF).unwrap();
    let soup = || read_obj(PLANAR_SOUP_OBJ).unwrap();
    let cases = [
        Case {
            name: "soup in cube",
            a: cube(),
            pose_a: at(0.0, 0.0, 0.0),
            b: soup(),
            pose_b: at(0.1, 0.05, -0.3),
            collide: true,
        },
        Case {
            name: "floor.obj touching cube",
            a: floor(),
            pose_a: at(0.0, 0.0, -1.0),
            b: cube(),
            pose_b: at(1.0, 1.0, -0.5),
            collide: true,
        },
        Case {
            name: "soup on floor.obj",
            a: floor(),
            pose_a: at(0.0, 0.0, 0.0),
            b: soup(),
            pose_b: at(1.5, -1.0, 0.0),
            collide: true,
        },
        Case {
            name: "overlapping triangle.off",
            a: tri(),
            pose_a: at(0.0, 0.0, 0.0),
            b: tri(),
            pose_b: at(0.25, 0.25, 0.0),
            collide: true,
        },
        Case {
            name: "triangle.off sharing a vertex",
            a: tri(),
            pose_a: at(0.0, 0.0, 0.0),
            b: tri(),
            pose_b: at(1.0, -1.0, 0.0),
            collide: true,
        },
        Case {
            name: "disjoint triangle.off",
            a: tri(),
            pose_a: at(0.0, 0.0, 0.0),
            b: tri(),
            pose_b: at(1.0 + 1e-6, 0.0, 0.0),
            collide: false,
        },
        Case {
            name: "triangle.off 1e-7 above cube",
            a: cube(),
            pose_a: at(0.0, 0.0, 0.0),
            b: tri(),
            pose_b: at(-0.3, -0.3, 0.5 + 1e-7),
            collide: false,
        },
        Case {
            name: "soup 1e-7 above cube",
            a: cube(),
            pose_a: at(0.0, 0.0, 0.0),
            b: soup(),
            pose_b: at(0.0, 0.0, 0.5 + 1e-7),
            collide: false,
        },
    ];
    for case in &cases {
        run(case);
    }
}

#[test]
fn a_mesh_without_a_face_of_area_is_refused() {
    let mut world = World::<()>::new(Config::default()).unwrap();
    let no_surface = read_off(NO_SURFACE_OFF).unwrap();
    let collinear = polygon(&[(0.0, 0.0), (1.0, 0.0), (2.0, 0.0)]);
    for mesh in [no_surface, collinear] {
        let err = world.make_collidable(mesh, ()).unwrap_err();
        assert!(
            matches!(
                err,
                WorldError::InvalidMesh(GeomError::AllFacesDegenerate { .. })
            ),
            "{err:?}"
        );
        let message = err.to_string();
        assert!(message.contains("no face has non-zero area"), "{message}");
    }
    assert!(world.is_empty());
    world.validate().unwrap();
}

#[test]
fn a_small_cube_moving_fast_through_a_floor_quad_is_a_continuous_hit() {
    for config in configs(Method::Auto) {
        let what = format!("{config:?}");
        let mut world = World::new(config).unwrap();
        let floor = world.make_collidable(square(2.0), 0u32).unwrap();
        let bullet = world.make_collidable(small_cube(0.05), 1u32).unwrap();
        world.set_transform(bullet, at(0.2, 0.3, 3.0)).unwrap();
        world.start().unwrap();
        assert_eq!(world.check_continuous().unwrap(), 0, "{what}");
        // From z = 3 to z = -3 in one step: both ends are clear of the floor.
        world.set_transform(bullet, at(0.2, 0.3, -3.0)).unwrap();
        assert_eq!(world.check_continuous().unwrap(), 1, "{what}");
        let c = world.last_swept_contacts()[0];
        assert_eq!((c.a, c.b), (floor, bullet), "{what}");
        // The bullet's bottom face (at its `f32` half side) reaches z = 0 after (3 - h) / 6 of
        // the step.
        let t = (3.0 - f64::from(0.05f32)) / 6.0;
        assert!(
            c.contact.toi.lo <= t + 1e-12 && t - 1e-12 <= c.contact.toi.hi,
            "{what}: {:?}",
            c.contact.toi
        );
        assert!(
            !c.contact.initially_touching && !c.touching_at_end,
            "{what}"
        );
        // The discrete check misses the same step.
        world.set_transform(bullet, at(0.2, 0.3, 3.0)).unwrap();
        world.check().unwrap();
        world.set_transform(bullet, at(0.2, 0.3, -3.0)).unwrap();
        assert_eq!(world.check().unwrap(), 0, "{what}");
        // A trace back up stops at the floor.
        let hit = world.trace(bullet, &at(0.2, 0.3, 3.0)).unwrap();
        let hit = hit.expect("the trace hits the floor");
        assert_eq!(hit.hit, floor, "{what}");
        assert!(
            hit.contact.toi.lo <= t + 1e-12 && t - 1e-12 <= hit.contact.toi.hi,
            "{what}: {:?}",
            hit.contact.toi
        );
    }
}

#[test]
fn a_flat_mover_sweeping_through_a_cube_is_a_continuous_hit() {
    for config in configs(Method::Auto) {
        let what = format!("{config:?}");
        let mut world = World::new(config).unwrap();
        let cube = world.make_collidable(cube(), 0u32).unwrap();
        let blade = world.make_collidable(triangle(), 1u32).unwrap();
        world.set_transform(blade, at(-4.0, -0.2, 0.1)).unwrap();
        world.start().unwrap();
        assert_eq!(world.check_continuous().unwrap(), 0, "{what}");
        world.set_transform(blade, at(4.0, -0.2, 0.1)).unwrap();
        assert_eq!(world.check_continuous().unwrap(), 1, "{what}");
        let c = world.last_swept_contacts()[0];
        assert_eq!((c.a, c.b), (cube, blade), "{what}");
        // The triangle's corner x = 1 reaches the face x = -0.5 after 2.5 / 8 of the step.
        let t = 2.5 / 8.0;
        assert!(
            c.contact.toi.lo <= t + 1e-12 && t - 1e-12 <= c.contact.toi.hi,
            "{what}: {:?}",
            c.contact.toi
        );
        // Turning about its origin while it passes: the general sweep finds it too.
        world.set_transform(blade, at(-4.0, -0.2, 0.1)).unwrap();
        world.check().unwrap();
        let turned = Pose::from_parts(
            nalgebra::Translation3::new(4.0, -0.2, 0.1),
            nalgebra::UnitQuaternion::from_scaled_axis(VectorD::new(0.0, 0.0, 0.5)),
        );
        world.set_transform(blade, turned).unwrap();
        assert_eq!(world.check_continuous().unwrap(), 1, "{what}: turning");
    }
}
