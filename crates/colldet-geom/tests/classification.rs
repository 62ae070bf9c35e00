//! Classification of hand-made meshes with known answers, and DCEL invariants.

use colldet_geom::dcel::{EdgeId, FaceId, VertexId};
use colldet_geom::math::Point;
use colldet_geom::predicates::side_of_plane;
use colldet_geom::{BuildOptions, FaceList, GeomError, MeshData, Polyhedron};

fn mesh(vertices: &[[f32; 3]], faces: &[&[u32]]) -> MeshData {
    let mut list = FaceList::new();
    faces.iter().for_each(|f| list.push(f));
    MeshData::new(
        vertices
            .iter()
            .map(|v| Point::new(v[0], v[1], v[2]))
            .collect(),
        list,
    )
}

fn build(m: MeshData) -> Polyhedron {
    let p = Polyhedron::build(m, &BuildOptions::default()).expect("mesh builds");
    p.dcel().validate().expect("DCEL invariants hold");
    p
}

const CUBE_VERTICES: [[f32; 3]; 8] = [
    [0.0, 0.0, 0.0],
    [1.0, 0.0, 0.0],
    [1.0, 1.0, 0.0],
    [0.0, 1.0, 0.0],
    [0.0, 0.0, 1.0],
    [1.0, 0.0, 1.0],
    [1.0, 1.0, 1.0],
    [0.0, 1.0, 1.0],
];
/// Outward (counter-clockwise seen from outside) quads of the unit cube.
const CUBE_FACES: [&[u32]; 6] = [
    &[0, 3, 2, 1],
    &[4, 5, 6, 7],
    &[0, 1, 5, 4],
    &[1, 2, 6, 5],
    &[2, 3, 7, 6],
    &[3, 0, 4, 7],
];

fn cube() -> MeshData {
    mesh(&CUBE_VERTICES, &CUBE_FACES)
}

/// Signed volume of a built polyhedron (fan triangulation, f64).
fn volume(p: &Polyhedron) -> f64 {
    let v = |i: u32| p.vertices()[i as usize].cast::<f64>().coords;
    p.dcel()
        .faces()
        .iter()
        .map(|f| {
            f.windows(2)
                .skip(1)
                .map(|w| v(f[0]).dot(&v(w[0]).cross(&v(w[1]))))
                .sum::<f64>()
        })
        .sum::<f64>()
        / 6.0
}

/// Brute-force convexity of a closed triangle mesh: every vertex on or below every face plane.
fn brute_force_convex(p: &Polyhedron) -> bool {
    p.dcel().faces().iter().all(|f| {
        let [a, b, c] = [f[0], f[1], f[2]].map(|i| &p.vertices()[i as usize]);
        p.vertices().iter().all(|d| side_of_plane(a, b, c, d) <= 0)
    })
}

#[test]
fn cube_is_a_closed_convex_manifold() {
    let p = build(cube());
    let c = p.classification();
    assert!(c.manifold && c.closed && c.oriented && c.planar_faces && c.convex_faces && c.convex);
    assert!(c.input_consistently_oriented && c.orientation_conflicts.is_empty());
    assert_eq!(
        (c.flipped_faces, c.components, c.euler_characteristic),
        (0, 1, 2)
    );
    assert_eq!(
        (
            p.dcel().vertex_count(),
            p.dcel().edge_count(),
            p.dcel().face_count()
        ),
        (8, 12, 6)
    );
    assert_eq!(p.dcel().half_edge_count(), 24);
    assert_eq!(c.internal_edge_count, 0);
    assert!((volume(&p) - 1.0).abs() < 1e-12);
    assert_eq!(
        *p.face_normal(FaceId(0)),
        colldet_geom::math::Vector::new(0.0, 0.0, -1.0)
    );
}

#[test]
fn adjacency_queries_on_the_cube() {
    let p = build(cube());
    let d = p.dcel();
    let ring: Vec<u32> = d
        .vertex_neighbours(VertexId(0))
        .iter()
        .map(|v| v.0)
        .collect();
    assert_eq!(ring, vec![1, 3, 4]);
    for f in (0..6).map(FaceId) {
        let loop_vertices: Vec<u32> = d.face_loop(f).map(|h| d.origin(h).0).collect();
        assert_eq!(loop_vertices, d.face_vertices(f));
    }
    for e in (0..12).map(EdgeId) {
        let faces: Vec<FaceId> = d.edge_faces(e).collect();
        assert_eq!(faces.len(), 2);
        assert_ne!(faces[0], faces[1]);
    }
    let fan: Vec<_> = d
        .vertex_fan(d.vertex_half_edges(VertexId(6)).next().unwrap())
        .collect();
    assert_eq!(
        fan.len(),
        3,
        "a cube corner has a closed fan of three faces"
    );
}

#[test]
fn open_box_is_open_but_manifold_and_oriented() {
    let p = build(mesh(&CUBE_VERTICES, &CUBE_FACES[..5]));
    let c = p.classification();
    assert!(c.manifold && !c.closed && c.oriented && !c.convex);
    assert_eq!(c.boundary_edge_count, 4);
    assert_eq!(c.euler_characteristic, 1);
}

#[test]
fn two_cubes_sharing_an_edge_are_closed_but_not_manifold() {
    let mut vertices = CUBE_VERTICES.to_vec();
    // The second cube spans [1,2] x [1,2] x [0,1]: it shares the edge (1,1,0)-(1,1,1) = 2-6.
    let offset = |v: [f32; 3]| [v[0] + 1.0, v[1] + 1.0, v[2]];
    vertices.extend(CUBE_VERTICES.iter().map(|&v| offset(v)));
    // Reuse vertices 2 and 6 for the shared corners (the second cube's corners 0 and 4).
    let remap = |i: u32| match i {
        0 => 2,
        4 => 6,
        _ => i + 8,
    };
    let second: Vec<Vec<u32>> = CUBE_FACES
        .iter()
        .map(|f| f.iter().map(|&i| remap(i)).collect())
        .collect();
    let mut faces: Vec<&[u32]> = CUBE_FACES.to_vec();
    faces.extend(second.iter().map(|f| f.as_slice()));
    let p = build(mesh(&vertices, &faces));
    let c = p.classification();
    assert!(!c.manifold && c.closed && c.oriented && !c.convex);
    assert_eq!(c.non_manifold_edges.len(), 1);
    assert_eq!(
        p.dcel().edge_vertices(c.non_manifold_edges[0]),
        [VertexId(2), VertexId(6)]
    );
    assert_eq!(
        c.unused_vertices, 2,
        "the second cube's own copies of the shared corners"
    );
    assert_eq!(c.duplicate_vertices, 2);
    assert!((volume(&p) - 2.0).abs() < 1e-12);
}

#[test]
fn one_flipped_face_is_reported_and_repaired() {
    let mut faces: Vec<Vec<u32>> = CUBE_FACES.iter().map(|f| f.to_vec()).collect();
    faces[3].reverse();
    let refs: Vec<&[u32]> = faces.iter().map(|f| f.as_slice()).collect();
    let p = build(mesh(&CUBE_VERTICES, &refs));
    let c = p.classification();
    assert!(!c.input_consistently_oriented);
    assert_eq!(
        c.orientation_conflicts.len(),
        4,
        "face 3 disagrees with its four neighbours"
    );
    assert!(
        c.orientation_conflicts
            .iter()
            .all(|&(a, b)| a == 3 || b == 3)
    );
    assert_eq!(c.flipped_faces, 1);
    assert!(c.oriented && c.convex && !c.inverted_fixed);
    assert!((volume(&p) - 1.0).abs() < 1e-12);
}

#[test]
fn inside_out_cube_is_turned_outward() {
    let faces: Vec<Vec<u32>> = CUBE_FACES
        .iter()
        .map(|f| f.iter().rev().copied().collect())
        .collect();
    let refs: Vec<&[u32]> = faces.iter().map(|f| f.as_slice()).collect();
    let p = build(mesh(&CUBE_VERTICES, &refs));
    let c = p.classification();
    assert!(c.input_consistently_oriented && c.inverted_fixed && c.convex);
    assert_eq!(c.flipped_faces, 6);
    assert!((volume(&p) - 1.0).abs() < 1e-12);
}

#[test]
fn moebius_band_is_not_orientable() {
    // A triangulated Moebius strip of 6 quads (12 triangles) on a ring of radius 3, half twist.
    let n = 6;
    let mut vertices = Vec::new();
    for i in 0..n {
        let t = i as f32 / n as f32 * std::f32::consts::TAU;
        let (half_c, half_s) = ((t / 2.0).cos(), (t / 2.0).sin());
        for w in [-0.5f32, 0.5] {
            let r = 3.0 + w * half_c;
            vertices.push([r * t.cos(), r * t.sin(), w * half_s]);
        }
    }
    let mut faces: Vec<Vec<u32>> = Vec::new();
    for i in 0..n as u32 {
        let (a, b) = (2 * i, 2 * i + 1);
        // After the last quad the strip reconnects with its sides swapped.
        let (c, d) = if i + 1 == n as u32 {
            (1, 0)
        } else {
            (2 * i + 2, 2 * i + 3)
        };
        faces.push(vec![a, c, d]);
        faces.push(vec![a, d, b]);
    }
    let refs: Vec<&[u32]> = faces.iter().map(|f| f.as_slice()).collect();
    let p = build(mesh(&vertices, &refs));
    let c = p.classification();
    assert!(!c.oriented && !c.closed && c.manifold && !c.convex);
    assert_eq!(c.euler_characteristic, 0);
}

#[test]
fn l_shaped_face_is_planar_but_not_convex() {
    // An L-shaped hexagon in the xy plane; the two-extrema test of the thesis accepts it.
    let vertices = [
        [0.0, 0.0, 0.0],
        [2.0, 0.0, 0.0],
        [2.0, 1.0, 0.0],
        [1.0, 1.0, 0.0],
        [1.0, 2.0, 0.0],
        [0.0, 2.0, 0.0],
    ];
    let p = build(mesh(&vertices, &[&[0, 1, 2, 3, 4, 5]]));
    let c = p.classification();
    assert!(c.planar_faces && !c.convex_faces);
    assert_eq!(c.non_convex_faces, vec![FaceId(0)]);
    let area = p.dcel().face_vertices(FaceId(0)).len();
    assert_eq!(area, 6);
}

#[test]
fn pentagram_winds_twice_and_is_not_convex() {
    let vertices: Vec<[f32; 3]> = (0..5)
        .map(|i| {
            let t = i as f32 * 2.0 * std::f32::consts::TAU / 5.0;
            [t.cos(), t.sin(), 0.0]
        })
        .collect();
    let p = build(mesh(&vertices, &[&[0, 1, 2, 3, 4]]));
    assert!(!p.classification().convex_faces);
    let regular: Vec<[f32; 3]> = (0..5)
        .map(|i| {
            let t = i as f32 * std::f32::consts::TAU / 5.0;
            [t.cos(), t.sin(), 0.0]
        })
        .collect();
    let p = build(mesh(&regular, &[&[0, 1, 2, 3, 4]]));
    assert!(p.classification().convex_faces);
}

#[test]
fn non_planar_quad_is_flagged() {
    let vertices = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [1.0, 1.0, 0.1],
        [0.0, 1.0, 0.0],
    ];
    let p = build(mesh(&vertices, &[&[0, 1, 2, 3]]));
    assert_eq!(p.classification().non_planar_faces, vec![FaceId(0)]);
    let flat = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [1.0, 1.0, 0.0],
        [0.0, 1.0, 0.0],
    ];
    assert!(
        build(mesh(&flat, &[&[0, 1, 2, 3]]))
            .classification()
            .planar_faces
    );
}

/// The Schoenhardt prism: a triangular prism with the top twisted by 30 degrees. Splitting each
/// side quad along one diagonal gives the convex hull; along the other, the famous non-convex
/// polyhedron with three reflex (internal) edges.
fn twisted_prism(reflex: bool) -> MeshData {
    let mut vertices = Vec::new();
    for (z, twist) in [(0.0f32, 0.0f32), (1.0, 30.0)] {
        for i in 0..3 {
            let t = (120.0 * i as f32 + twist).to_radians();
            vertices.push([t.cos(), t.sin(), z]);
        }
    }
    let mut faces: Vec<Vec<u32>> = vec![vec![0, 2, 1], vec![3, 4, 5]];
    for i in 0..3u32 {
        let (a, b, c, d) = (i, (i + 1) % 3, (i + 1) % 3 + 3, i + 3);
        if reflex {
            faces.push(vec![a, b, c]);
            faces.push(vec![a, c, d]);
        } else {
            faces.push(vec![a, b, d]);
            faces.push(vec![b, c, d]);
        }
    }
    let refs: Vec<&[u32]> = faces.iter().map(|f| f.as_slice()).collect();
    mesh(&vertices, &refs)
}

#[test]
fn schoenhardt_prism_has_three_internal_edges() {
    let convex = build(twisted_prism(false));
    let schoenhardt = build(twisted_prism(true));
    assert!(brute_force_convex(&convex) && !brute_force_convex(&schoenhardt));
    assert!(convex.classification().convex);
    assert_eq!(convex.classification().internal_edge_count, 0);
    let c = schoenhardt.classification();
    assert!(c.manifold && c.closed && c.oriented && !c.convex);
    assert_eq!(c.internal_edge_count, 3);
    assert_eq!(c.internal_vertex_count, 0);
    assert!(volume(&schoenhardt) > 0.0 && volume(&schoenhardt) < volume(&convex));
}

#[test]
fn tiny_tetrahedron_is_valid_and_convex() {
    let s = 1e-12f32;
    let vertices = [[0.0, 0.0, 0.0], [s, 0.0, 0.0], [0.0, s, 0.0], [0.0, 0.0, s]];
    let p = build(mesh(
        &vertices,
        &[&[0, 2, 1], &[0, 1, 3], &[1, 2, 3], &[0, 3, 2]],
    ));
    let c = p.classification();
    assert!(c.convex && c.closed && c.manifold && c.degenerate_faces_dropped == 0);
}

#[test]
fn degenerate_faces_are_dropped_and_counted() {
    let mut faces: Vec<&[u32]> = CUBE_FACES.to_vec();
    faces.push(&[0, 1, 1]); // repeated corner
    faces.push(&[0, 1, 0, 1]); // zero area after merging
    let mut vertices = CUBE_VERTICES.to_vec();
    vertices.push([0.5, 0.0, 0.0]); // on the edge 0-1: the sliver 0, 8, 1 is collinear
    faces.push(&[0, 8, 1]);
    let p = build(mesh(&vertices, &faces));
    let c = p.classification();
    assert_eq!(c.degenerate_faces_dropped, 3);
    assert_eq!(p.dcel().face_count(), 6);
    assert_eq!(c.unused_vertices, 1);
    assert!(c.convex);
    assert_eq!(p.face_source(FaceId(5)), 5);
}

#[test]
fn all_degenerate_mesh_is_rejected() {
    let vertices = [[0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [2.0, 2.0, 2.0]];
    let err = Polyhedron::build(
        mesh(&vertices, &[&[0, 1, 2], &[2, 1, 0]]),
        &BuildOptions::default(),
    );
    assert!(matches!(
        err,
        Err(GeomError::AllFacesDegenerate { faces: 2 })
    ));
}

#[test]
fn invalid_input_is_rejected_with_the_place() {
    let build_err = |m: MeshData| Polyhedron::build(m, &BuildOptions::default()).unwrap_err();
    assert!(matches!(
        build_err(mesh(&[], &[&[0, 1, 2]])),
        GeomError::NoVertices
    ));
    assert!(matches!(
        build_err(mesh(&CUBE_VERTICES, &[])),
        GeomError::NoFaces
    ));
    assert!(matches!(
        build_err(mesh(&CUBE_VERTICES, &[&[0, 1, 9]])),
        GeomError::IndexOutOfRange {
            face: 0,
            index: 9,
            vertex_count: 8
        }
    ));
    assert!(matches!(
        build_err(mesh(&CUBE_VERTICES, &[&[0, 1, 2], &[0, 1]])),
        GeomError::FaceTooSmall { face: 1, len: 2 }
    ));
    let mut nan = CUBE_VERTICES;
    nan[5][1] = f32::NAN;
    assert!(matches!(
        build_err(mesh(&nan, &CUBE_FACES)),
        GeomError::NonFiniteCoordinate { vertex: 5 }
    ));
    let mut inf = CUBE_VERTICES;
    inf[7][2] = f32::NEG_INFINITY;
    assert!(matches!(
        build_err(mesh(&inf, &CUBE_FACES)),
        GeomError::NonFiniteCoordinate { vertex: 7 }
    ));
}

#[test]
fn from_arrays_matches_the_c_layout() {
    let xyz: Vec<f32> = CUBE_VERTICES.iter().flatten().copied().collect();
    let indices: Vec<u32> = CUBE_FACES.iter().flat_map(|f| f.iter().copied()).collect();
    let m = MeshData::from_arrays(&xyz, &indices, Some(&[4; 6])).unwrap();
    assert_eq!(m, cube());
    assert!(matches!(
        MeshData::from_arrays(&xyz, &indices, Some(&[4; 5])),
        Err(GeomError::IndexCountMismatch {
            expected: 20,
            actual: 24
        })
    ));
    assert!(matches!(
        MeshData::from_arrays(&xyz[..5], &[0, 1, 2], None),
        Err(GeomError::CoordinateCountNotMultipleOfThree { len: 5 })
    ));
    assert!(matches!(
        MeshData::from_arrays(&xyz, &[0, 1], None),
        Err(GeomError::IndexCountMismatch { .. })
    ));
}

#[test]
fn shuffled_triangulated_cube_with_random_flips_is_repaired() {
    // Every face of a triangulated cube flipped by a fixed pattern: orientation must come back
    // consistent and outward whatever the pattern.
    let mut triangles = Vec::new();
    for f in CUBE_FACES {
        triangles.push([f[0], f[1], f[2]]);
        triangles.push([f[0], f[2], f[3]]);
    }
    for pattern in 0u32..4096 {
        let faces: Vec<Vec<u32>> = triangles
            .iter()
            .enumerate()
            .map(|(i, t)| {
                if pattern >> i & 1 == 1 {
                    vec![t[0], t[2], t[1]]
                } else {
                    t.to_vec()
                }
            })
            .collect();
        let refs: Vec<&[u32]> = faces.iter().map(|f| f.as_slice()).collect();
        let p = build(mesh(&CUBE_VERTICES, &refs));
        let c = p.classification();
        assert!(c.oriented && c.closed && c.convex, "pattern {pattern}");
        assert!((volume(&p) - 1.0).abs() < 1e-12, "pattern {pattern}");
        assert_eq!(
            c.input_consistently_oriented,
            pattern == 0 || pattern == 0xFFF
        );
    }
}

#[test]
fn convex_polytope_from_polyhedron_and_points() {
    use colldet_geom::ConvexPolytope;
    use colldet_geom::math::Vector;
    let cube_polytope = ConvexPolytope::from_polyhedron(&build(cube())).unwrap();
    assert_eq!(cube_polytope.vertex_count(), 8);
    let v = cube_polytope.support_brute_force(&Vector::new(1.0, 1.0, 1.0));
    assert_eq!(cube_polytope.source_vertices()[v as usize], 6);
    let schoenhardt = build(twisted_prism(true));
    assert!(matches!(
        ConvexPolytope::from_polyhedron(&schoenhardt),
        Err(GeomError::NotConvex)
    ));
    // The hull of the cube's corners plus its centre: the centre is not a vertex.
    let mut points: Vec<Point> = CUBE_VERTICES
        .iter()
        .map(|v| Point::new(v[0], v[1], v[2]))
        .collect();
    points.insert(0, Point::new(0.5, 0.5, 0.5));
    let hull_polytope = ConvexPolytope::from_points(&points).unwrap();
    assert_eq!(hull_polytope.vertex_count(), 8);
    let v = hull_polytope.support_brute_force(&Vector::new(-1.0, -1.0, -1.0));
    assert_eq!(
        hull_polytope.source_vertices()[v as usize],
        1,
        "input index of (0,0,0)"
    );
}
