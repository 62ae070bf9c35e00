//! Welding for classification: exactly coincident vertices are one vertex for the DCEL and the
//! flags, so a triangle soup that encloses a volume is a solid; positions, face sources and vertex
//! ids stay the input's (a vertex id is the lowest input index at its position).

use colldet_geom::dcel::FaceId;
use colldet_geom::math::{Point, PointD, VectorD};
use colldet_geom::{BuildOptions, FaceList, MeshData, Polyhedron};
use colldet_testkit::shapes::{cuboid, triangle_soup};

fn build_with(mesh: MeshData, weld: bool) -> Polyhedron {
    let options = BuildOptions {
        weld_coincident_vertices: weld,
        ..BuildOptions::default()
    };
    let p = Polyhedron::build(mesh, &options).expect("mesh builds");
    p.dcel().validate().expect("DCEL invariants hold");
    p
}

/// The STL-style unit cube: 12 triangles, 36 vertices, every corner repeated.
fn soup_cube() -> MeshData {
    let soup = triangle_soup(&cuboid(VectorD::new(0.5, 0.5, 0.5)).unwrap());
    assert_eq!((soup.vertices.len(), soup.faces.len()), (36, 12));
    soup
}

/// The lowest index at the exact (`f64`, `-0 = 0`) position of every vertex, by brute force.
fn lowest_index_at_position(mesh: &MeshData) -> Vec<u32> {
    let n = mesh.vertices.len();
    (0..n)
        .map(|v| {
            (0..n)
                .find(|&w| mesh.vertex_f64(w) == mesh.vertex_f64(v))
                .unwrap() as u32
        })
        .collect()
}

/// Signed volume (fan triangulation of the built faces, `f64`).
fn volume(p: &Polyhedron) -> f64 {
    let v = |i: u32| p.vertex_f64(i as usize).coords;
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

#[test]
fn stl_cube_soup_is_a_closed_oriented_convex_solid_when_welded() {
    let p = build_with(soup_cube(), true);
    let c = p.classification();
    assert!(c.welded);
    assert!(c.manifold && c.closed && c.oriented && c.convex, "{c:?}");
    assert_eq!(c.components, 1);
    assert_eq!(c.euler_characteristic, 2);
    assert_eq!(c.boundary_edge_count, 0);
    assert_eq!(c.duplicate_vertices, 28, "36 vertices at 8 positions");
    assert_eq!(
        c.unused_vertices, 0,
        "every input vertex is a corner of a face"
    );
    assert_eq!(p.dcel().edge_count(), 18);
    assert!((volume(&p) - 1.0).abs() < 1e-12);
}

#[test]
fn stl_cube_soup_without_welding_is_twelve_open_triangles() {
    let p = build_with(soup_cube(), false);
    let c = p.classification();
    assert!(!c.welded);
    assert!(!c.closed && !c.convex, "{c:?}");
    assert!(c.manifold && c.oriented);
    assert_eq!(c.components, 12);
    assert_eq!(c.boundary_edge_count, 36);
    assert_eq!(c.duplicate_vertices, 28, "counted either way");
}

#[test]
fn welding_keeps_positions_face_sources_and_input_vertex_ids() {
    let soup = soup_cube();
    let lowest = lowest_index_at_position(&soup);
    let given = soup.vertices.clone();
    let p = build_with(soup, true);
    assert_eq!(p.vertices(), given.as_slice(), "positions as given, all 36");
    assert_eq!(p.dcel().vertex_count(), 36);
    let sources: Vec<u32> = (0..p.dcel().face_count() as u32)
        .map(|f| p.face_source(FaceId(f)))
        .collect();
    assert_eq!(sources, (0..12).collect::<Vec<u32>>());
    for face in p.dcel().faces().iter() {
        for &v in face {
            assert_eq!(
                v, lowest[v as usize],
                "vertex {v} is the lowest index there"
            );
        }
    }
    // The convex polytope made from it maps its vertices back to the same input indices.
    let hull = colldet_geom::ConvexPolytope::from_polyhedron(&p).unwrap();
    assert_eq!(hull.vertex_count(), 8);
    assert!(
        hull.source_vertices()
            .iter()
            .all(|&v| v == lowest[v as usize])
    );
}

#[test]
fn welded_soup_with_flipped_triangles_is_repaired() {
    let soup = soup_cube();
    let mut faces = FaceList::new();
    for (t, face) in soup.faces.iter().enumerate() {
        if t % 3 == 1 {
            faces.push(&[face[0], face[2], face[1]]);
        } else {
            faces.push(face);
        }
    }
    let p = build_with(MeshData::new(soup.vertices, faces), true);
    let c = p.classification();
    assert!(c.closed && c.oriented && c.convex, "{c:?}");
    assert!(!c.input_consistently_oriented);
    assert_eq!(c.flipped_faces, 4);
    assert!(
        c.orientation_conflicts
            .iter()
            .all(|&(a, b)| a < 12 && b < 12 && a != b)
    );
    assert!((volume(&p) - 1.0).abs() < 1e-12);
}

#[test]
fn signed_zeros_are_one_position() {
    // The cube [0, 1]^3 as a soup, every other copy of a zero coordinate written -0.0.
    let mut soup = triangle_soup(&cuboid(VectorD::new(0.5, 0.5, 0.5)).unwrap());
    for (i, p) in soup.vertices.iter_mut().enumerate() {
        *p = Point::from(p.coords.add_scalar(0.5));
        if i % 2 == 1 {
            p.iter_mut().filter(|c| **c == 0.0).for_each(|c| *c = -0.0);
        }
    }
    assert!(soup.vertices.iter().any(|p| p.x.is_sign_negative()));
    let c = build_with(soup, true).classification().clone();
    assert!(c.closed && c.oriented && c.convex, "{c:?}");
    assert_eq!(c.duplicate_vertices, 28);
}

/// The unit cube scaled by 0.1 (coordinates not `f32` numbers) as an `f64` soup; `nudge` moves
/// the x coordinate of vertex 0 up by one `f64` ulp.
fn f64_soup_cube(nudge: bool) -> MeshData {
    let cube = cuboid(VectorD::new(0.5, 0.5, 0.5)).unwrap();
    let scaled: Vec<PointD> = cube
        .vertices
        .iter()
        .map(|p| PointD::from(p.cast::<f64>().coords * 0.1))
        .collect();
    let soup = triangle_soup(&MeshData::from_f64(scaled, cube.faces.clone()));
    let mut positions: Vec<PointD> = (0..soup.vertices.len())
        .map(|v| soup.vertex_f64(v))
        .collect();
    if nudge {
        positions[0].x = f64::from_bits(positions[0].x.to_bits() + 1);
    }
    MeshData::from_f64(positions, soup.faces)
}

#[test]
fn f64_positions_that_differ_below_f32_resolution_are_not_welded() {
    let exact = f64_soup_cube(false);
    let nudged = f64_soup_cube(true);
    assert!(nudged.precise_vertices().is_some());
    assert_eq!(exact.vertices, nudged.vertices, "the same f32 copies");
    assert_ne!(nudged.vertex_f64(0), exact.vertex_f64(0));

    let c = build_with(exact, true).classification().clone();
    assert!(c.closed && c.oriented && c.convex, "{c:?}");
    assert_eq!(c.duplicate_vertices, 28);

    let p = build_with(nudged, true);
    let c = p.classification();
    assert!(!c.closed && !c.convex, "{c:?}");
    assert_eq!(
        c.duplicate_vertices, 27,
        "vertex 0 is a position of its own"
    );
    // Its two edges in triangle 0, and the two neighbours' edges at the corner it left.
    assert_eq!(c.boundary_edge_count, 4);
    assert_eq!(c.components, 1);
}

/// A closed soup of `12 n^2` triangles: the surface of `[0, n]^3` on the unit grid.
fn grid_cube_soup(n: u32) -> MeshData {
    let mut vertices = Vec::with_capacity(36 * (n * n) as usize);
    for axis in 0..3 {
        let (b, c) = ((axis + 1) % 3, (axis + 2) % 3);
        for side in [0, n] {
            for u in 0..n {
                for v in 0..n {
                    let corner = |du: u32, dv: u32| {
                        let mut p = [0.0f32; 3];
                        p[axis] = side as f32;
                        p[b] = (u + du) as f32;
                        p[c] = (v + dv) as f32;
                        Point::from(p)
                    };
                    // Counter-clockwise about +axis; reversed on the low side (outward).
                    let mut quad = [corner(0, 0), corner(1, 0), corner(1, 1), corner(0, 1)];
                    if side == 0 {
                        quad.reverse();
                    }
                    vertices.extend_from_slice(&[quad[0], quad[1], quad[2]]);
                    vertices.extend_from_slice(&[quad[0], quad[2], quad[3]]);
                }
            }
        }
    }
    let triangles: Vec<[u32; 3]> = (0..vertices.len() as u32 / 3)
        .map(|t| [3 * t, 3 * t + 1, 3 * t + 2])
        .collect();
    MeshData::new(vertices, FaceList::from_triangles(&triangles))
}

/// Two million indices: the weld is one sort, the rest is linear (no timing asserted).
#[test]
fn two_million_index_soup_welds_into_one_closed_surface() {
    let n = 236;
    let soup = grid_cube_soup(n);
    assert!(soup.faces.index_count() >= 2_000_000);
    let vertex_count = soup.vertices.len();
    let p = build_with(soup, true);
    let c = p.classification();
    let positions = 6 * (n * n) as usize + 2;
    assert_eq!(c.duplicate_vertices, vertex_count - positions);
    assert!(c.manifold && c.closed && c.oriented && c.convex, "{c:?}");
    assert_eq!((c.components, c.euler_characteristic), (1, 2));
    assert!(c.input_consistently_oriented && c.flipped_faces == 0);
}
