//! The thesis arbitrary test and `meshes_collide`: analytic regressions (touching faces, edges
//! and vertices, containment, open meshes) and a differential test against brute-force all-pairs
//! triangle tests on random and near-touching poses.

use colldet_geom::math::{Isometry, Point, PointD, Vector, to_f64};
use colldet_geom::{BuildOptions, FaceList, MeshData, Polyhedron, WorldAabb};
use colldet_narrow::NarrowError;
use colldet_narrow::mesh::{
    ArbitraryOptions, ArbitraryWorkspace, MeshFeature, WitnessKind, meshes_collide,
    thesis_arbitrary, triangles_intersect_f64,
};
use colldet_testkit::SeededRng;
use colldet_testkit::shapes::{cube_array, cuboid, sphere, tetra_flake, torus};
use nalgebra::{UnitQuaternion, Vector3};

fn build(mesh: MeshData) -> Polyhedron {
    Polyhedron::build(mesh, &BuildOptions::default()).unwrap()
}

fn cube(h: f64) -> Polyhedron {
    build(cuboid(Vector3::new(h, h, h)).unwrap())
}

fn shift(x: f32, y: f32, z: f32) -> Isometry {
    Isometry::translation(x, y, z)
}

/// The cube of half extent `h` without its `+z` face: an open box.
fn open_box(h: f64) -> Polyhedron {
    let full = cuboid(Vector3::new(h, h, h)).unwrap();
    let mut faces = FaceList::new();
    for (i, f) in full.faces.iter().enumerate() {
        if i != 5 {
            faces.push(f);
        }
    }
    build(MeshData::new(full.vertices, faces))
}

#[test]
fn touching_cubes_collide_at_faces_edges_and_vertices() {
    let (a, b) = (cube(1.0), cube(1.0));
    for (t, what) in [
        (shift(2.0, 0.0, 0.0), "coplanar faces, full overlap"),
        (shift(2.0, 0.5, -0.5), "coplanar faces, partial overlap"),
        (shift(2.0, 2.0, 0.0), "shared edge"),
        (shift(2.0, 2.0, 2.0), "shared vertex"),
        (shift(0.5, 0.25, 0.0), "crossing"),
    ] {
        let w = meshes_collide(&a, &b, &t).unwrap();
        let w = w.unwrap_or_else(|| panic!("{what}: no collision"));
        assert!(
            matches!(w.kind, WitnessKind::EdgeFace | WitnessKind::FaceEdge),
            "{what}"
        );
        // The witness point lies on both cubes' surfaces (closed boxes here).
        let local = w.point;
        let other = local - Vector3::new(t.translation.x, t.translation.y, t.translation.z).cast();
        for p in [local, other] {
            assert!(p.coords.amax() <= 1.0 + 1e-12, "{what}: {p:?}");
        }
    }
    let gap = 2.0f32.next_up();
    for t in [
        shift(gap, 0.0, 0.0),
        shift(gap, 2.0, 2.0),
        shift(2.0, 2.0, gap),
    ] {
        assert_eq!(meshes_collide(&a, &b, &t).unwrap(), None, "{t:?}");
    }
    // Rotated by 90 degrees about z: the touching faces stay touching (exact rotation entries
    // are not representable, so only the clear cases are asserted).
    let rot = Isometry::new(Vector::new(1.5, 0.0, 0.0), Vector::new(0.0, 0.0, 0.3));
    assert!(meshes_collide(&a, &b, &rot).unwrap().is_some());
    let far = Isometry::new(Vector::new(3.0, 0.0, 0.0), Vector::new(0.0, 0.0, 0.3));
    assert!(meshes_collide(&a, &b, &far).unwrap().is_none());
}

#[test]
fn containment_is_a_collision_with_a_vertex_witness() {
    let (big, small) = (cube(2.0), cube(0.5));
    let t = shift(0.3, -0.2, 0.1);
    let w = meshes_collide(&big, &small, &t).unwrap().unwrap();
    assert_eq!(w.kind, WitnessKind::Containment);
    assert_eq!(w.feature1, MeshFeature::Interior);
    let MeshFeature::Vertex(v) = w.feature2 else {
        panic!("{w:?}")
    };
    let expected = t * small.vertex(v);
    assert!((w.point - to_f64(&expected)).norm() < 1e-6);
    // Swapped: the small cube is p, inside q.
    let w = meshes_collide(&small, &big, &t.inverse()).unwrap().unwrap();
    assert_eq!(w.kind, WitnessKind::Containment);
    assert!(matches!(w.feature1, MeshFeature::Vertex(_)));
    assert_eq!(w.feature2, MeshFeature::Interior);
    // The thesis's surface test alone misses it.
    let mut ws = ArbitraryWorkspace::new();
    let options = ArbitraryOptions::default();
    assert!(
        thesis_arbitrary(&big, &small, &t, &options, &mut ws)
            .unwrap()
            .is_none()
    );
    // A touching inner cube is a surface contact.
    let w = meshes_collide(&big, &small, &shift(1.5, 0.0, 0.0))
        .unwrap()
        .unwrap();
    assert_ne!(w.kind, WitnessKind::Containment);
}

#[test]
fn open_meshes_are_surfaces() {
    // An open triangle inside a closed cube collides (containment)...
    let tri = build(MeshData::new(
        vec![
            Point::new(0.0, 0.0, 0.0),
            Point::new(0.2, 0.0, 0.0),
            Point::new(0.0, 0.2, 0.0),
        ],
        FaceList::from_triangles(&[[0, 1, 2]]),
    ));
    let c = cube(1.0);
    let w = meshes_collide(&c, &tri, &shift(0.1, 0.1, 0.1))
        .unwrap()
        .unwrap();
    assert_eq!(w.kind, WitnessKind::Containment);
    let w = meshes_collide(&tri, &c, &shift(-0.1, -0.1, -0.1))
        .unwrap()
        .unwrap();
    assert_eq!(w.kind, WitnessKind::Containment);
    // ...an open box around a closed cube does not: the box is only its surface.
    let open = open_box(2.0);
    assert_eq!(
        meshes_collide(&open, &c, &shift(0.0, 0.0, 0.0)).unwrap(),
        None
    );
    assert_eq!(
        meshes_collide(&c, &open, &shift(0.0, 0.0, 0.0)).unwrap(),
        None
    );
    // An open box inside an open box does not collide either; poking through a wall does.
    let inner = open_box(1.0);
    assert_eq!(
        meshes_collide(&open, &inner, &shift(0.0, 0.0, 0.0)).unwrap(),
        None
    );
    assert!(
        meshes_collide(&open, &inner, &shift(1.5, 0.0, 1.5))
            .unwrap()
            .is_some()
    );
    assert_eq!(
        meshes_collide(&open, &inner, &shift(0.0, 0.0, 1.5)).unwrap(),
        None
    );
    // Multi-component: one cube of an array inside a big cube, the rest outside.
    let array = build(cube_array(3, 1, 1, 1.0, 2.0).unwrap());
    let w = meshes_collide(&cube(1.0), &array, &shift(-3.0, 0.0, 0.0))
        .unwrap()
        .unwrap();
    assert_eq!(w.kind, WitnessKind::Containment);
    // Bad pose.
    let nan = Isometry::translation(f32::NAN, 0.0, 0.0);
    assert!(matches!(
        meshes_collide(&c, &c, &nan),
        Err(NarrowError::NonFinite { .. })
    ));
}

/// Fan triangles of `poly` at `vertices` (a face is its fan from the first corner).
fn triangles(poly: &Polyhedron, vertices: &[PointD]) -> Vec<[PointD; 3]> {
    let mut out = Vec::new();
    for face in poly.dcel().faces().iter() {
        for i in 1..face.len() - 1 {
            out.push([face[0], face[i], face[i + 1]].map(|v| vertices[v as usize]));
        }
    }
    out
}

fn tri_box(t: &[PointD; 3]) -> WorldAabb {
    WorldAabb::new(t[0].inf(&t[1]).inf(&t[2]), t[0].sup(&t[1]).sup(&t[2]))
}

/// Brute force: does any fan triangle of `p` meet any fan triangle of `q` (mapped positions)?
fn brute_force(p: &Polyhedron, q: &Polyhedron, q_mapped: &[PointD]) -> bool {
    let pv: Vec<PointD> = p.vertices().iter().map(to_f64).collect();
    let tp = triangles(p, &pv);
    let tq = triangles(q, q_mapped);
    let bq: Vec<WorldAabb> = tq.iter().map(tri_box).collect();
    tp.iter().any(|a| {
        let ba = tri_box(a);
        tq.iter()
            .zip(&bq)
            .any(|(b, bb)| ba.overlaps(bb) && triangles_intersect_f64(a, b).is_some())
    })
}

fn shapes() -> Vec<Polyhedron> {
    vec![
        build(sphere(1.0, 6, 4).unwrap()),
        build(sphere(0.8, 14, 8).unwrap()),
        build(torus(1.0, 0.35, 10, 6).unwrap()),
        build(torus(0.9, 0.3, 16, 8).unwrap()),
        build(cube_array(2, 2, 1, 0.6, 0.3).unwrap()),
        build(cube_array(3, 2, 2, 0.4, 0.2).unwrap()),
        build(tetra_flake(2, 0.8).unwrap()),
    ]
}

fn random_pose(rng: &mut SeededRng, distance: f64) -> Isometry {
    let dir = rng.unit_vector().into_inner() * distance;
    let rot: UnitQuaternion<f64> = rng.rotation();
    nalgebra::convert(nalgebra::Isometry3::from_parts(dir.into(), rot))
}

/// 5,000 random poses of pairs of shapes with 10 to 200 faces, at distances where about half
/// collide, plus 300 near-touching poses found by bisection on the brute force: the thesis test
/// (with and without pre-checks) agrees with brute force, and all-contacts mode reports only
/// real contacts, the first one equal to the first-contact answer.
#[test]
fn thesis_arbitrary_matches_brute_force_triangles() {
    let shapes = shapes();
    let mut rng = SeededRng::new(2024);
    let mut ws = ArbitraryWorkspace::new();
    let first = ArbitraryOptions::default();
    let all = ArbitraryOptions {
        all_contacts: true,
        prechecks: true,
    };
    let none = ArbitraryOptions {
        all_contacts: false,
        prechecks: false,
    };
    let mut collisions = 0;
    for case in 0..5000 {
        let p = &shapes[rng.index(shapes.len())];
        let q = &shapes[rng.index(shapes.len())];
        let distance = rng.range(0.0, 2.4);
        let pose = random_pose(&mut rng, distance);
        let got = thesis_arbitrary(p, q, &pose, &first, &mut ws).unwrap();
        let expected = brute_force(p, q, ws.mapped_vertices());
        assert_eq!(got.is_some(), expected, "case {case}: {pose:?}");
        collisions += usize::from(expected);
        if case % 10 == 0 {
            let got_all = thesis_arbitrary(p, q, &pose, &all, &mut ws).unwrap();
            assert_eq!(got_all, got, "case {case}");
            assert_eq!(ws.contacts().is_empty(), !expected);
            let got_none = thesis_arbitrary(p, q, &pose, &none, &mut ws).unwrap();
            assert_eq!(
                got_none.is_some(),
                expected,
                "case {case} without pre-checks"
            );
        }
    }
    assert!(collisions > 1000 && collisions < 4000, "{collisions}");

    // Near touching: bisect the translation along a direction between a colliding and a free
    // pose (brute force as the judge), then test both ends of the final bracket.
    let small = [&shapes[0], &shapes[2], &shapes[4], &shapes[6]];
    let mut bracketed = 0;
    for case in 0..300 {
        let p = small[rng.index(small.len())];
        let q = small[rng.index(small.len())];
        let dir = rng.unit_vector().into_inner();
        let rot: UnitQuaternion<f64> = rng.rotation();
        let pose_at = |d: f64| -> Isometry {
            nalgebra::convert(nalgebra::Isometry3::from_parts((dir * d).into(), rot))
        };
        let collides = |d: f64, ws: &mut ArbitraryWorkspace| {
            let got = thesis_arbitrary(p, q, &pose_at(d), &first, ws).unwrap();
            let expected = brute_force(p, q, ws.mapped_vertices());
            assert_eq!(got.is_some(), expected, "near-touching case {case} at {d}");
            expected
        };
        let (mut lo, mut hi) = (0.0, 3.0);
        if !collides(lo, &mut ws) || collides(hi, &mut ws) {
            continue;
        }
        for _ in 0..24 {
            let mid = 0.5 * (lo + hi);
            if collides(mid, &mut ws) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        bracketed += 1;
    }
    assert!(bracketed > 200, "{bracketed}");
}
