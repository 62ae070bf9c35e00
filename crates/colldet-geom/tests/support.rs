//! Support mapping against brute force and analytic answers, on ellipsoids, flat plates, thin
//! rods, boxes full of coplanar points, octahedra and prisms, from 6 to about 10,000 vertices.

mod common;

use colldet_geom::math::{Point, Vector, vec_to_f64};
use colldet_geom::support::{ConvexPolytopeOptions, DirectionTable, SUPPORT_RELATIVE_TOLERANCE};
use colldet_geom::{ConvexPolytope, FaceList, GeomError, MeshData};
use common::{
    SplitMix64, SupportDraws, dot, grid_box, max_dot, octahedron, prism, rotate_randomly,
    uv_ellipsoid, uv_ellipsoid_with_about,
};

fn build(mesh: &MeshData) -> ConvexPolytope {
    let polytope = ConvexPolytope::from_convex_mesh(mesh).expect("valid convex mesh");
    polytope.validate().expect("polytope invariants");
    polytope
}

/// Axis, diagonal, edge-diagonal and table-bin-centre directions, the normals of the mesh's
/// faces (exact ties on flat faces), and `random` random directions of random length.
fn directions(mesh: &MeshData, rng: &mut SplitMix64, random: usize) -> Vec<Vector> {
    let mut dirs = Vec::new();
    for x in -1i32..=1 {
        for y in -1i32..=1 {
            for z in -1i32..=1 {
                if (x, y, z) != (0, 0, 0) {
                    dirs.push(Vector::new(x as f32, y as f32, z as f32));
                }
            }
        }
    }
    for bin in 0..128 {
        dirs.push(DirectionTable::bin_direction(bin) * 3.5);
    }
    let stride = (mesh.faces.len() / 300).max(1);
    for f in (0..mesh.faces.len()).step_by(stride) {
        let face = mesh.faces.face(f);
        let [a, b, c] = [face[0], face[1], face[2]].map(|i| mesh.vertices[i as usize]);
        let n = (b - a).cross(&(c - a));
        if n.norm() > 0.0 {
            dirs.push(n);
            dirs.push(-n);
        }
    }
    for _ in 0..random {
        dirs.push(rng.direction());
    }
    dirs
}

/// Checks that every query method returns a vertex within the documented tolerance of the
/// maximum, for every direction. Returns the number of (direction, method) checks.
fn check_all_methods(polytope: &ConvexPolytope, dirs: &[Vector], rng: &mut SplitMix64) -> usize {
    let points = polytope.vertices();
    let n = points.len() as u32;
    let mut checks = 0;
    let mut previous = 0u32;
    for d in dirs {
        let best = max_dot(points, d);
        let tol = SUPPORT_RELATIVE_TOLERANCE * vec_to_f64(d).norm() * f64::from(polytope.radius());
        assert!(tol.is_finite());
        assert!((polytope.support_tolerance(d) - tol).abs() <= 1e-9 * tol);
        let random_start = rng.below(n as usize) as u32;
        let answers = [
            ("brute force", polytope.support_brute_force(d)),
            (
                "hill climb from 0",
                polytope.support_hill_climb(d, 0).vertex,
            ),
            (
                "hill climb from random",
                polytope.support_hill_climb(d, random_start).vertex,
            ),
            (
                "hill climb warm",
                polytope.support_hill_climb(d, previous).vertex,
            ),
            ("table", polytope.support_from_table(d)),
            ("dk", polytope.support_dk(d)),
        ];
        for (method, v) in answers {
            assert!(v < n, "{method}: vertex {v} out of range");
            let got = dot(&points[v as usize], d);
            assert!(
                got >= best - tol,
                "{method}: direction {d:?}: vertex {v} reaches {got}, maximum {best}, tol {tol}"
            );
            checks += 1;
        }
        previous = answers[0].1;
    }
    checks
}

#[test]
fn ellipsoids_plates_and_rods_match_brute_force() {
    let mut rng = SplitMix64(0x5eed_0001);
    let shapes: [(&str, [f32; 3], [f32; 3]); 5] = [
        ("ellipsoid", [1.0, 0.7, 0.4], [0.0, 0.0, 0.0]),
        ("offset ellipsoid", [2.0, 3.0, 1.0], [10.0, -5.0, 3.0]),
        ("plate 1e-3", [1.0, 0.8, 1e-3], [0.0, 0.0, 0.0]),
        ("plate 1e-6", [1.0, 1.0, 1e-6], [0.0, 0.2, 0.0]),
        ("rod", [0.01, 0.01, 1.0], [0.0, 0.0, 0.0]),
    ];
    let mut total = 0;
    for (name, radii, centre) in shapes {
        for (n, random) in [(12, 3000), (100, 3000), (1000, 3000), (10_000, 1000)] {
            let mesh = uv_ellipsoid_with_about(n, radii, centre);
            let polytope = build(&mesh);
            assert_eq!(polytope.vertex_count(), mesh.vertices.len(), "{name} {n}");
            assert_eq!(polytope.dk_hierarchy().is_some(), mesh.vertices.len() > 64);
            let dirs = directions(&mesh, &mut rng, random);
            total += check_all_methods(&polytope, &dirs, &mut rng);
        }
    }
    assert!(total > 100_000);
}

#[test]
fn boxes_with_coplanar_grid_points_match_brute_force_including_ties() {
    let mut rng = SplitMix64(0x5eed_0002);
    for (cells, half, centre) in [
        (1, [1.0, 1.0, 1.0], [0.0, 0.0, 0.0]),
        (2, [1.0, 2.0, 3.0], [0.5, 0.0, 0.0]),
        (4, [1.0, 1.0, 1e-4], [0.0, 0.0, 0.0]),
        (13, [3.0, 1.0, 0.01], [1.0, 1.0, 1.0]),
        (41, [1.0, 1.0, 1.0], [0.0, 0.0, 0.0]),
    ] {
        let mesh = grid_box(cells, half, centre);
        let polytope = build(&mesh);
        let expected = (cells + 1).pow(3) - (cells - 1).pow(3);
        assert_eq!(polytope.vertex_count() as u32, expected);
        let dirs = directions(&mesh, &mut rng, 2000);
        check_all_methods(&polytope, &dirs, &mut rng);
        // Strictly diagonal directions have a unique answer: a corner.
        for sx in [-1.0f32, 1.0] {
            for sy in [-1.0f32, 1.0] {
                for sz in [-1.0f32, 1.0] {
                    let d = Vector::new(sx * 0.3, sy * 1.7, sz * 0.9);
                    let corner = Point::new(
                        centre[0] + sx * half[0],
                        centre[1] + sy * half[1],
                        centre[2] + sz * half[2],
                    );
                    for v in [
                        polytope.support_brute_force(&d),
                        polytope.support_hill_climb(&d, 0).vertex,
                        polytope.support_from_table(&d),
                        polytope.support_dk(&d),
                    ] {
                        assert_eq!(polytope.vertices()[v as usize], corner);
                    }
                }
            }
        }
        // Axis directions: every answer lies on the extreme face (exact tie plateau).
        for axis in 0..3 {
            let mut d = Vector::zeros();
            d[axis] = 1.0;
            let top = centre[axis] + half[axis];
            for v in [
                polytope.support_hill_climb(&d, 0).vertex,
                polytope.support_from_table(&d),
                polytope.support_dk(&d),
            ] {
                assert_eq!(polytope.vertices()[v as usize][axis], top);
            }
        }
    }
}

#[test]
fn analytic_answers_on_octahedron_prism_and_ellipsoid() {
    let octa = build(&octahedron(2.0));
    let expected = [
        (Vector::new(1.0, 0.1, -0.2), 0),
        (Vector::new(-1.0, 0.1, -0.2), 1),
        (Vector::new(0.3, 1.0, 0.2), 2),
        (Vector::new(0.3, -1.0, 0.2), 3),
        (Vector::new(0.3, -0.1, 1.0), 4),
        (Vector::new(0.3, -0.1, -1.0), 5),
    ];
    for (d, v) in expected {
        assert_eq!(octa.support_brute_force(&d), v);
        for start in 0..6 {
            assert_eq!(octa.support_hill_climb(&d, start).vertex, v);
        }
        assert_eq!(octa.support_from_table(&d), v);
        assert_eq!(octa.support_dk(&d), v);
    }

    // Hexagonal prism with polygon caps: direction at angle 2 pi j / 6 tilted up gives top j.
    let hexagon = build(&prism(6, 1.0, 0.5));
    for j in 0..6u32 {
        let phi = std::f32::consts::TAU * j as f32 / 6.0;
        let d = Vector::new(phi.cos(), phi.sin(), 0.25);
        assert_eq!(hexagon.support_brute_force(&d), 6 + j);
        for start in 0..12 {
            assert_eq!(hexagon.support_hill_climb(&d, start).vertex, 6 + j);
        }
        assert_eq!(hexagon.support_from_table(&d), 6 + j);
        assert_eq!(hexagon.support_dk(&d), 6 + j);
    }

    // UV sphere: the poles for +-z (vertex 0 is the north pole, the last one the south pole).
    let mesh = uv_ellipsoid(30, 40, [1.0, 1.0, 1.0], [0.0, 0.0, 0.0]);
    let sphere = build(&mesh);
    let south = (sphere.vertex_count() - 1) as u32;
    for (d, v) in [(Vector::z(), 0), (-Vector::z(), south)] {
        assert_eq!(sphere.support_brute_force(&d), v);
        assert_eq!(sphere.support_hill_climb(&d, 600).vertex, v);
        assert_eq!(sphere.support_from_table(&d), v);
        assert_eq!(sphere.support_dk(&d), v);
    }
}

#[test]
fn hill_climbing_from_every_start_reaches_a_maximum() {
    let mut rng = SplitMix64(0x5eed_0003);
    for mesh in [
        uv_ellipsoid_with_about(100, [1.0, 0.5, 0.25], [0.0, 0.0, 0.0]),
        uv_ellipsoid_with_about(100, [1.0, 1.0, 1e-6], [0.0, 0.0, 0.0]),
        grid_box(4, [1.0, 1.0, 1.0], [0.0, 0.0, 0.0]),
        prism(17, 1.0, 0.01),
    ] {
        let polytope = build(&mesh);
        let dirs = directions(&mesh, &mut rng, 200);
        for d in &dirs {
            let best = max_dot(polytope.vertices(), d);
            let tol = polytope.support_tolerance(d);
            for start in 0..polytope.vertex_count() as u32 {
                let r = polytope.support_hill_climb(d, start);
                assert!(dot(&polytope.vertices()[r.vertex as usize], d) >= best - tol);
                assert!(r.visits >= 1);
            }
        }
    }
}

/// Mean visits of hill climbing along a coherent sequence of directions, each rotated by
/// `step_degrees` from the previous one, starting from the previous answer.
fn mean_warm_visits(polytope: &ConvexPolytope, rng: &mut SplitMix64, step_degrees: f64) -> f64 {
    let mut d = rng.unit_vector();
    let mut previous =
        polytope.support_from_table(&Vector::new(d.x as f32, d.y as f32, d.z as f32));
    let steps = 5000;
    let mut visits = 0u64;
    for _ in 0..steps {
        d = rotate_randomly(rng, &d, step_degrees.to_radians());
        let df = Vector::new(d.x as f32, d.y as f32, d.z as f32);
        let r = polytope.support_hill_climb(&df, previous);
        let best = max_dot(polytope.vertices(), &df);
        assert!(
            dot(&polytope.vertices()[r.vertex as usize], &df)
                >= best - polytope.support_tolerance(&df)
        );
        visits += u64::from(r.visits);
        previous = r.vertex;
    }
    visits as f64 / steps as f64
}

#[test]
fn warm_started_hill_climbing_on_1000_vertices_costs_a_few_visits() {
    let mut rng = SplitMix64(0x5eed_0004);
    let polytope = build(&uv_ellipsoid_with_about(
        1000,
        [1.0, 0.8, 0.6],
        [0.0, 0.0, 0.0],
    ));
    assert!(polytope.vertex_count() >= 1000);
    let warm = mean_warm_visits(&polytope, &mut rng, 10.0);
    let mut cold = 0u64;
    let mut table = 0u64;
    let mut dk = 0u64;
    let samples = 2000;
    for _ in 0..samples {
        let d = rng.direction();
        cold += u64::from(polytope.support_hill_climb(&d, 0).visits);
        table += u64::from(polytope.support_from_table_counted(&d).visits);
        dk += u64::from(polytope.support_dk_counted(&d).visits);
    }
    let (cold, table, dk) = (
        cold as f64 / samples as f64,
        table as f64 / samples as f64,
        dk as f64 / samples as f64,
    );
    println!(
        "1001-vertex UV ellipsoid: mean visits warm {warm:.1}, cold {cold:.1}, table {table:.1}, dk {dk:.1}"
    );
    // Quads give every ring vertex 4 neighbours: a 10-degree step is one or two moves.
    assert!(warm < 20.0, "warm {warm}");
    assert!(table < 40.0, "table {table}");
    assert!(cold > 3.0 * warm, "cold {cold} vs warm {warm}");
    assert!(dk < 1001.0 / 3.0, "dk {dk}");
}

#[test]
fn dk_hierarchy_is_logarithmic_and_its_top_is_small() {
    let mut rng = SplitMix64(0x5eed_0005);
    let mut previous_levels = 0;
    for n in [100, 1000, 10_000] {
        let polytope = build(&uv_ellipsoid_with_about(
            n,
            [1.0, 0.9, 0.7],
            [0.0, 0.0, 0.0],
        ));
        let dk = polytope.dk_hierarchy().expect("above the threshold");
        let levels = dk.level_count();
        let top = dk.level_vertex_count(levels - 1).expect("top level");
        assert!(top <= 8, "top level has {top} vertices");
        assert!(dk.level_vertex_count(levels).is_none());
        for l in 1..levels {
            assert!(dk.level_vertex_count(l) < dk.level_vertex_count(l - 1));
        }
        // Each round removes a constant fraction: O(log n) levels.
        let bound = 4.0 * (polytope.vertex_count() as f64).log2();
        assert!((levels as f64) < bound, "{levels} levels for {n}");
        assert!(levels > previous_levels);
        previous_levels = levels;
        let mut visits = 0u64;
        for _ in 0..1000 {
            visits += u64::from(polytope.support_dk_counted(&rng.direction()).visits);
        }
        let mean = visits as f64 / 1000.0;
        println!("{n}: {levels} DK levels, mean visits {mean:.1}");
        assert!(mean < polytope.vertex_count() as f64);
    }
}

#[test]
fn thresholds_and_flat_polytopes() {
    let mut rng = SplitMix64(0x5eed_0006);
    // A tiny polytope with the hierarchy forced on, and a large one with it off.
    let forced = ConvexPolytope::from_convex_mesh_with(
        &octahedron(1.0),
        &ConvexPolytopeOptions {
            dk_vertex_threshold: 0,
        },
    )
    .expect("octahedron");
    forced.validate().expect("invariants");
    assert_eq!(forced.dk_hierarchy().map(|dk| dk.level_count()), Some(1));
    let mesh = uv_ellipsoid_with_about(1000, [1.0, 1.0, 1.0], [0.0, 0.0, 0.0]);
    let off = ConvexPolytope::from_convex_mesh_with(
        &mesh,
        &ConvexPolytopeOptions {
            dk_vertex_threshold: usize::MAX,
        },
    )
    .expect("sphere");
    assert!(off.dk_hierarchy().is_none());
    let d = Vector::new(0.1, 0.2, -1.0);
    let r = off.support_dk_counted(&d);
    assert_eq!(r.vertex, off.support_brute_force(&d));
    assert_eq!(r.visits as usize, off.vertex_count());

    // An exactly flat, one-sided disc of 161 vertices (a fan of triangles around the centre and
    // rings of quads): the hierarchy cannot hull a flat level, so it keeps level 0 only.
    let mut vertices = vec![Point::origin()];
    let (rings, segments) = (5u32, 32u32);
    for k in 1..=rings {
        for j in 0..segments {
            let phi = std::f32::consts::TAU * j as f32 / segments as f32;
            vertices.push(Point::new(k as f32 * phi.cos(), k as f32 * phi.sin(), 0.0));
        }
    }
    let ring = |k: u32, j: u32| 1 + (k - 1) * segments + j % segments;
    let mut faces = FaceList::new();
    for j in 0..segments {
        faces.push(&[0, ring(1, j), ring(1, j + 1)]);
        for k in 1..rings {
            faces.push(&[
                ring(k, j),
                ring(k + 1, j),
                ring(k + 1, j + 1),
                ring(k, j + 1),
            ]);
        }
    }
    let disc_mesh = MeshData::new(vertices, faces);
    let disc = build(&disc_mesh);
    assert_eq!(disc.dk_hierarchy().map(|dk| dk.level_count()), Some(1));
    let dirs = directions(&disc_mesh, &mut rng, 3000);
    check_all_methods(&disc, &dirs, &mut rng);
}

#[test]
fn tiny_huge_and_far_objects() {
    let mut rng = SplitMix64(0x5eed_0007);
    for (radii, centre) in [
        ([1e-12, 2e-12, 5e-13], [0.0, 0.0, 0.0]),
        ([1e-12, 1e-12, 1e-18], [3e-12, 0.0, 0.0]),
        ([1e12, 5e11, 2e12], [0.0, 0.0, 0.0]),
        ([1.0, 2.0, 0.5], [1e6, -2e6, 5e5]),
    ] {
        let mesh = uv_ellipsoid_with_about(1000, radii, centre);
        let polytope = build(&mesh);
        let dirs = directions(&mesh, &mut rng, 2000);
        check_all_methods(&polytope, &dirs, &mut rng);
    }
}

#[test]
fn degenerate_directions_and_starts_do_not_panic() {
    let polytope = build(&uv_ellipsoid_with_about(
        1000,
        [1.0, 0.5, 0.2],
        [0.0, 0.0, 0.0],
    ));
    let n = polytope.vertex_count() as u32;
    for d in [
        Vector::zeros(),
        Vector::new(f32::NAN, 0.0, 1.0),
        Vector::new(f32::NAN, f32::NAN, f32::NAN),
        Vector::new(f32::INFINITY, 0.0, 0.0),
        Vector::new(f32::INFINITY, f32::NEG_INFINITY, 1.0),
    ] {
        assert_eq!(polytope.support_brute_force(&d), 0, "{d:?}");
        assert!(polytope.support_hill_climb(&d, 17).vertex < n);
        assert!(polytope.support_from_table(&d) < n);
        assert!(polytope.support_dk(&d) < n);
    }
    // Zero and NaN directions: the start is already "extreme", no move is made.
    assert_eq!(polytope.support_hill_climb(&Vector::zeros(), 17).vertex, 17);
    let nan = Vector::new(f32::NAN, 1.0, 1.0);
    assert_eq!(polytope.support_hill_climb(&nan, 42).vertex, 42);
    // An out-of-range start is replaced by vertex 0.
    let d = Vector::new(0.0, 0.0, 1.0);
    assert_eq!(
        polytope.support_hill_climb(&d, n),
        polytope.support_hill_climb(&d, 0)
    );
    assert_eq!(polytope.support_hill_climb(&d, u32::MAX).vertex, 0);
}

#[test]
fn bad_meshes_are_rejected_and_unused_vertices_dropped() {
    let tetra = FaceList::from_triangles(&[[0, 2, 1], [0, 1, 3], [1, 2, 3], [0, 3, 2]]);
    let corners = vec![
        Point::new(0.0, 0.0, 0.0),
        Point::new(1.0, 0.0, 0.0),
        Point::new(0.0, 1.0, 0.0),
        Point::new(0.0, 0.0, 1.0),
    ];
    let no_faces = MeshData::new(corners.clone(), FaceList::new());
    assert!(matches!(
        ConvexPolytope::from_convex_mesh(&no_faces),
        Err(GeomError::NoFaces)
    ));
    let mut nan = corners.clone();
    nan[2].y = f32::NAN;
    assert!(matches!(
        ConvexPolytope::from_convex_mesh(&MeshData::new(nan, tetra.clone())),
        Err(GeomError::NonFiniteCoordinate { vertex: 2 })
    ));
    let out_of_range = FaceList::from_triangles(&[[0, 1, 9]]);
    assert!(matches!(
        ConvexPolytope::from_convex_mesh(&MeshData::new(corners.clone(), out_of_range)),
        Err(GeomError::IndexOutOfRange {
            face: 0,
            index: 9,
            ..
        })
    ));
    // Two separate tetrahedra: vertices 4..8 are not reachable from vertex 0.
    let mut two = corners.clone();
    two.extend(corners.iter().map(|p| p + Vector::new(5.0, 0.0, 0.0)));
    let mut faces = tetra.clone();
    for f in tetra.iter() {
        faces.push(&f.iter().map(|&v| v + 4).collect::<Vec<_>>());
    }
    assert!(matches!(
        ConvexPolytope::from_convex_mesh(&MeshData::new(two, faces)),
        Err(GeomError::DisconnectedMesh {
            vertex: 4,
            reference: 0
        })
    ));
    // Unused vertices (a far outlier at index 1, one at the end) are dropped and mapped back.
    let mut with_unused = vec![corners[0], Point::new(100.0, 100.0, 100.0)];
    with_unused.extend_from_slice(&corners[1..]);
    with_unused.push(Point::new(-50.0, 0.0, 0.0));
    let shifted = FaceList::from_triangles(&[[0, 3, 2], [0, 2, 4], [2, 3, 4], [0, 4, 3]]);
    let polytope = build(&MeshData::new(with_unused, shifted));
    assert_eq!(polytope.vertices(), corners.as_slice());
    assert_eq!(polytope.source_vertices(), &[0, 2, 3, 4]);
    assert_eq!(polytope.support_brute_force(&Vector::new(1.0, 1.0, 1.0)), 1);
    assert_eq!(
        polytope.support_brute_force(&Vector::new(-1.0, -1.0, -1.0)),
        0
    );
    assert!((polytope.radius() - 1.0).abs() < 1e-7);
}

#[test]
fn regression_hill_climb_does_not_stop_on_the_minimum_face() {
    // Found by the grid-box property test: from the centre of the -x face (vertex 2), direction
    // +x, every face neighbour ties; only the artificial escape edge leaves the face.
    let polytope = build(&grid_box(2, [1.0, 2.0, 3.0], [0.5, 0.0, 0.0]));
    assert_eq!(polytope.vertices()[2], Point::new(-0.5, 0.0, 0.0));
    let d = Vector::new(6.0, -0.0, -0.0);
    for start in 0..polytope.vertex_count() as u32 {
        let r = polytope.support_hill_climb(&d, start);
        assert_eq!(
            polytope.vertices()[r.vertex as usize].x,
            1.5,
            "start {start}"
        );
    }
}
