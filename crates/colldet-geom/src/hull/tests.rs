//! Convex hull tests against brute force and analytic answers.
//!
//! Oracles: exact `side_of_plane` of every input point against every face (convexity and
//! containment); directed-edge pairing and Euler's formula (closed 2-manifold); for small sets a
//! brute-force extreme-point set (each point tested against every segment, triangle and
//! tetrahedron of the others, exactly) and a brute-force volume (supporting planes by triples,
//! facets by 2D hulls); analytic volumes for cubes; the uniqueness of the extreme-point set under
//! permutation of the input.

use super::*;
use crate::math::VectorD;
use crate::predicates::{collinear, orient2d, orient3d, side_of_plane};
use colldet_testkit::SplitMix64;
use std::collections::{BTreeSet, HashSet};

/// A uniformly distributed unit vector: rejection sampling in the cube, accepting squared norms
/// in `(1e-6, 1]`.
fn direction(rng: &mut SplitMix64) -> [f64; 3] {
    loop {
        let v = [
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
        ];
        let n2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
        if n2 > 1e-6 && n2 <= 1.0 {
            let n = n2.sqrt();
            return [v[0] / n, v[1] / n, v[2] / n];
        }
    }
}

fn point(x: f64, y: f64, z: f64) -> Point {
    Point::new(x as f32, y as f32, z as f32)
}

/// The kinds of random point sets.
#[derive(Clone, Copy, Debug)]
enum Family {
    Cube,
    Sphere,
    Ellipsoid,
    /// |z| <= 1e-6 relative to the plate's size.
    Plate,
    /// Transverse offsets of 1e-6 relative to the rod's length.
    Rod,
    /// Integer grid points on and in a cube, with repeats: massive coplanarity.
    Grid,
    /// The 8 corners of a cube, each repeated.
    CubeCorners,
}

const FAMILIES: [Family; 7] = [
    Family::Cube,
    Family::Sphere,
    Family::Ellipsoid,
    Family::Plate,
    Family::Rod,
    Family::Grid,
    Family::CubeCorners,
];

/// `n` points of `family`, scaled by `scale` and offset by `offset` (in f64, then rounded).
fn generate(rng: &mut SplitMix64, family: Family, n: usize, scale: f64, offset: f64) -> Vec<Point> {
    let place = |p: [f64; 3]| {
        point(
            p[0] * scale + offset,
            p[1] * scale + offset,
            p[2] * scale + offset,
        )
    };
    let mut points: Vec<Point> = match family {
        Family::Cube => (0..n)
            .map(|_| {
                place([
                    rng.range(-1.0, 1.0),
                    rng.range(-1.0, 1.0),
                    rng.range(-1.0, 1.0),
                ])
            })
            .collect(),
        Family::Sphere => (0..n).map(|_| place(direction(rng))).collect(),
        Family::Ellipsoid => (0..n)
            .map(|_| {
                let d = direction(rng);
                place([3.0 * d[0], 1.0 * d[1], 0.25 * d[2]])
            })
            .collect(),
        Family::Plate => (0..n)
            .map(|_| {
                place([
                    rng.range(-1.0, 1.0),
                    rng.range(-1.0, 1.0),
                    rng.range(-1e-6, 1e-6),
                ])
            })
            .collect(),
        Family::Rod => (0..n)
            .map(|_| {
                place([
                    rng.range(-1.0, 1.0),
                    rng.range(-1e-6, 1e-6),
                    rng.range(-1e-6, 1e-6),
                ])
            })
            .collect(),
        Family::Grid => {
            let k = 1 + rng.below(6) as i32;
            (0..n)
                .map(|_| {
                    // Mostly surface points: clamp one random coordinate to a face.
                    let mut c = [0i32; 3].map(|_| rng.below(k as usize + 1) as i32);
                    if rng.below(4) != 0 {
                        c[rng.below(3)] = if rng.below(2) == 0 { 0 } else { k };
                    }
                    let unit = 1.0 / f64::from(k);
                    place([0, 1, 2].map(|a| f64::from(c[a]) * unit))
                })
                .collect()
        }
        Family::CubeCorners => (0..n)
            .map(|i| place([(i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64]))
            .collect(),
    };
    rng.shuffle(&mut points);
    points
}

/// Signed volume by the divergence theorem, about `reference` (f64).
fn volume(mesh: &MeshData, reference: PointD) -> f64 {
    let mut total = 0.0;
    for face in mesh.faces.iter() {
        let a = to_f64(&mesh.vertices[face[0] as usize]) - reference;
        for k in 1..face.len() - 1 {
            let b = to_f64(&mesh.vertices[face[k] as usize]) - reference;
            let c = to_f64(&mesh.vertices[face[k + 1] as usize]) - reference;
            total += a.dot(&b.cross(&c));
        }
    }
    total / 6.0
}

fn centroid(points: &[Point]) -> PointD {
    let sum = points
        .iter()
        .fold(VectorD::zeros(), |s, p| s + to_f64(p).coords);
    PointD::from(sum / points.len() as f64)
}

/// Closed 2-manifold: every directed edge once, its reverse once, every vertex used, Euler 2.
fn assert_closed_manifold(mesh: &MeshData, context: &str) {
    let mut edges = HashSet::new();
    let mut used = vec![false; mesh.vertices.len()];
    for face in mesh.faces.iter() {
        for k in 0..face.len() {
            let (a, b) = (face[k], face[(k + 1) % face.len()]);
            assert_ne!(a, b, "{context}: repeated vertex in a face");
            assert!(
                edges.insert((a, b)),
                "{context}: directed edge {a}->{b} twice"
            );
            used[a as usize] = true;
        }
    }
    for &(a, b) in &edges {
        assert!(edges.contains(&(b, a)), "{context}: edge {a}->{b} unpaired");
    }
    assert!(used.iter().all(|&u| u), "{context}: unused vertex");
    let (v, e, f) = (
        mesh.vertices.len() as i64,
        edges.len() as i64 / 2,
        mesh.faces.len() as i64,
    );
    assert_eq!(v - e + f, 2, "{context}: Euler characteristic");
}

/// Every input point on or behind every face plane (exact).
fn assert_contains_all(hull: &ConvexHull, points: &[Point], context: &str) {
    let vertices = &hull.mesh.vertices;
    for (f, face) in hull.mesh.faces.iter().enumerate() {
        let [a, b, c] = [0, 1, 2].map(|k| &vertices[face[k] as usize]);
        for (i, q) in points.iter().enumerate() {
            assert!(
                side_of_plane(a, b, c, q) <= 0,
                "{context}: point {i} in front of face {f}"
            );
        }
    }
}

/// Vertices are the indexed input points, in increasing input order, all distinct.
fn assert_vertex_bookkeeping(hull: &ConvexHull, points: &[Point], context: &str) {
    assert_eq!(
        hull.mesh.vertices.len(),
        hull.input_index.len(),
        "{context}"
    );
    for (v, &i) in hull.input_index.iter().enumerate() {
        assert_eq!(
            hull.mesh.vertices[v], points[i as usize],
            "{context}: vertex {v}"
        );
    }
    assert!(
        hull.input_index.windows(2).all(|w| w[0] < w[1]),
        "{context}: order"
    );
    let distinct: HashSet<[u32; 3]> = hull.mesh.vertices.iter().map(bits).collect();
    assert_eq!(
        distinct.len(),
        hull.mesh.vertices.len(),
        "{context}: repeated vertex"
    );
    hull.mesh.validate().expect("a valid mesh");
}

fn bits(p: &Point) -> [u32; 3] {
    // +0.0 and -0.0 are the same point.
    [p.x + 0.0, p.y + 0.0, p.z + 0.0].map(f32::to_bits)
}

/// Each vertex lies in at least three distinct planes of its incident triangles. Given a closed
/// surface of supporting triangles (checked separately), that makes it a corner.
fn assert_corners(hull: &ConvexHull, context: &str) {
    let vs = &hull.mesh.vertices;
    let mut rings: Vec<Vec<[u32; 2]>> = vec![Vec::new(); vs.len()];
    for face in hull.mesh.faces.iter() {
        for k in 0..3 {
            rings[face[k] as usize].push([face[(k + 1) % 3], face[(k + 2) % 3]]);
        }
    }
    for (v, ring) in rings.iter().enumerate() {
        let mut planes: Vec<[u32; 2]> = Vec::new();
        for &t in ring {
            let known = planes.iter().any(|p| {
                t.iter().all(|&q| {
                    side_of_plane(
                        &vs[v],
                        &vs[p[0] as usize],
                        &vs[p[1] as usize],
                        &vs[q as usize],
                    ) == 0
                })
            });
            if !known {
                planes.push(t);
            }
        }
        assert!(
            planes.len() >= 3,
            "{context}: vertex {v} lies in {} planes",
            planes.len()
        );
    }
}

/// True when `v` is in the closed convex hull of `others` (exact; Caratheodory: some segment,
/// triangle or tetrahedron of them contains it).
fn in_hull_brute(v: &Point, others: &[Point]) -> bool {
    let n = others.len();
    let w = |i: usize| &others[i];
    let between = |a: &Point, b: &Point| {
        collinear(a, b, v) && (0..3).all(|k| a[k].min(b[k]) <= v[k] && v[k] <= a[k].max(b[k]))
    };
    let in_triangle = |a: &Point, b: &Point, c: &Point| {
        if collinear(a, b, c) || side_of_plane(a, b, c, v) != 0 {
            return false;
        }
        // Project along an axis in which the triangle does not degenerate.
        let [a, b, c, p] = [a, b, c, v].map(to_f64);
        for (x, y) in [(0, 1), (1, 2), (2, 0)] {
            let proj = |q: &PointD| [q[x], q[y]];
            let o = orient2d(proj(&a), proj(&b), proj(&c));
            if o != 0.0 {
                let s = [
                    orient2d(proj(&a), proj(&b), proj(&p)),
                    orient2d(proj(&b), proj(&c), proj(&p)),
                    orient2d(proj(&c), proj(&a), proj(&p)),
                ];
                return s.iter().all(|&si| si * o >= 0.0);
            }
        }
        false
    };
    let in_tetrahedron = |a: &Point, b: &Point, c: &Point, d: &Point| {
        let [a, b, c, d, p] = [a, b, c, d, v].map(to_f64);
        let o = orient3d(&a, &b, &c, &d);
        o != 0.0
            && [
                orient3d(&p, &b, &c, &d),
                orient3d(&a, &p, &c, &d),
                orient3d(&a, &b, &p, &d),
                orient3d(&a, &b, &c, &p),
            ]
            .iter()
            .all(|&s| s * o >= 0.0)
    };
    for i in 0..n {
        for j in i + 1..n {
            if between(w(i), w(j)) {
                return true;
            }
            for k in j + 1..n {
                if in_triangle(w(i), w(j), w(k)) {
                    return true;
                }
                for l in k + 1..n {
                    if in_tetrahedron(w(i), w(j), w(k), w(l)) {
                        return true;
                    }
                }
            }
        }
    }
    false
}

fn distinct_points(points: &[Point]) -> Vec<Point> {
    let mut seen = HashSet::new();
    points
        .iter()
        .copied()
        .filter(|p| seen.insert(bits(p)))
        .collect()
}

/// The extreme points of a small set by brute force, as coordinate bit patterns.
fn extreme_points_brute(points: &[Point]) -> BTreeSet<[u32; 3]> {
    let distinct = distinct_points(points);
    (0..distinct.len())
        .filter(|&i| {
            let others: Vec<Point> = (0..distinct.len())
                .filter(|&j| j != i)
                .map(|j| distinct[j])
                .collect();
            !in_hull_brute(&distinct[i], &others)
        })
        .map(|i| bits(&distinct[i]))
        .collect()
}

/// The hull volume of a small full-dimensional set by brute force: supporting planes from all
/// triples, each facet's area from a 2D monotone-chain hull, volume as the sum of pyramids from
/// the centroid.
fn volume_brute(points: &[Point]) -> f64 {
    let ps = distinct_points(points);
    let n = ps.len();
    let c = centroid(&ps);
    let mut facets = HashSet::new();
    let mut total = 0.0;
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                if collinear(&ps[i], &ps[j], &ps[k]) {
                    continue;
                }
                let sides: Vec<i8> = ps
                    .iter()
                    .map(|q| side_of_plane(&ps[i], &ps[j], &ps[k], q))
                    .collect();
                if sides.iter().any(|&s| s > 0) && sides.iter().any(|&s| s < 0) {
                    continue;
                }
                let on: Vec<usize> = (0..n).filter(|&q| sides[q] == 0).collect();
                if !facets.insert(on.clone()) {
                    continue;
                }
                let [a, b, cc] = [i, j, k].map(|q| to_f64(&ps[q]));
                let normal = (b - a).cross(&(cc - a));
                let drop = normal.iamax();
                let (x, y) = ((drop + 1) % 3, (drop + 2) % 3);
                let mut flat: Vec<[f64; 2]> = on
                    .iter()
                    .map(|&q| {
                        let p = to_f64(&ps[q]);
                        [p[x], p[y]]
                    })
                    .collect();
                flat.sort_by(|p, q| p.partial_cmp(q).expect("finite"));
                let mut chain: Vec<[f64; 2]> = Vec::new();
                for pass in 0..2 {
                    let start = chain.len();
                    for &p in &flat {
                        while chain.len() >= start + 2
                            && orient2d(chain[chain.len() - 2], chain[chain.len() - 1], p) <= 0.0
                        {
                            chain.pop();
                        }
                        chain.push(p);
                    }
                    chain.pop();
                    if pass == 0 {
                        flat.reverse();
                    }
                }
                // Lift back to 3D on the plane: the dropped coordinate solves normal . (p - a) = 0.
                let lift = |p: [f64; 2]| {
                    let mut q = [0.0; 3];
                    q[x] = p[0];
                    q[y] = p[1];
                    q[drop] = a[drop]
                        - (normal[x] * (p[0] - a[x]) + normal[y] * (p[1] - a[y])) / normal[drop];
                    PointD::new(q[0], q[1], q[2]) - c
                };
                let p0 = lift(chain[0]);
                for m in 1..chain.len().saturating_sub(1) {
                    let (p1, p2) = (lift(chain[m]), lift(chain[m + 1]));
                    total += (p0.dot(&p1.cross(&p2)) / 6.0).abs();
                }
            }
        }
    }
    total
}

/// True when the points span no volume (exact brute force).
fn is_flat(points: &[Point]) -> bool {
    let ps = distinct_points(points);
    for i in 0..ps.len() {
        for j in i + 1..ps.len() {
            for k in j + 1..ps.len() {
                if !collinear(&ps[i], &ps[j], &ps[k]) {
                    return ps
                        .iter()
                        .all(|q| side_of_plane(&ps[i], &ps[j], &ps[k], q) == 0);
                }
            }
        }
    }
    true
}

/// The volume of the points' axis-aligned bounding box (f64).
fn bounding_box_volume(points: &[Point]) -> f64 {
    (0..3)
        .map(|k| {
            let lo = points
                .iter()
                .map(|p| f64::from(p[k]))
                .fold(f64::INFINITY, f64::min);
            let hi = points
                .iter()
                .map(|p| f64::from(p[k]))
                .fold(f64::NEG_INFINITY, f64::max);
            hi - lo
        })
        .product()
}

/// All structural and exactness checks; returns the volume.
fn check_hull(hull: &ConvexHull, points: &[Point], context: &str) -> f64 {
    assert!(
        hull.mesh.faces.iter().all(|f| f.len() == 3),
        "{context}: triangles"
    );
    assert_vertex_bookkeeping(hull, points, context);
    assert_closed_manifold(&hull.mesh, context);
    assert_contains_all(hull, points, context);
    assert_corners(hull, context);
    let v = volume(&hull.mesh, centroid(&hull.mesh.vertices));
    assert!(v > 0.0, "{context}: volume {v}");
    v
}

/// Polygon faces: each a strictly convex, planar facet turning counter-clockwise from outside,
/// together forming a closed manifold, and they triangulate to as many triangles as the
/// triangle hull has.
fn check_polygons(polygons: &ConvexHull, triangles: &ConvexHull, context: &str) {
    assert_eq!(polygons.input_index, triangles.input_index, "{context}");
    assert_closed_manifold(&polygons.mesh, context);
    let vs = &polygons.mesh.vertices;
    let fan: usize = polygons.mesh.faces.iter().map(|f| f.len() - 2).sum();
    assert_eq!(fan, triangles.mesh.faces.len(), "{context}: triangle count");
    for (f, face) in polygons.mesh.faces.iter().enumerate() {
        let p = |k: usize| &vs[face[k % face.len()] as usize];
        // A vertex off this facet's plane is strictly behind every corner's turn.
        let inside = vs
            .iter()
            .find(|q| side_of_plane(p(0), p(1), p(2), q) != 0)
            .expect("a full-dimensional hull");
        for k in 0..face.len() {
            assert_eq!(
                side_of_plane(p(0), p(1), p(2), p(k)),
                0,
                "{context}: face {f} not planar"
            );
            assert_eq!(
                side_of_plane(p(k), p(k + 1), p(k + 2), inside),
                -1,
                "{context}: face {f} corner {k} not strictly convex"
            );
        }
    }
    // No two faces share a plane: each facet is one polygon.
    for (f, a) in polygons.mesh.faces.iter().enumerate() {
        for b in polygons.mesh.faces.iter().skip(f + 1) {
            let same = b.iter().all(|&q| {
                side_of_plane(
                    &vs[a[0] as usize],
                    &vs[a[1] as usize],
                    &vs[a[2] as usize],
                    &vs[q as usize],
                ) == 0
            });
            assert!(!same, "{context}: facet {f} split");
        }
    }
}

#[test]
fn tetrahedron_is_its_own_hull() {
    let points = [
        Point::new(0.0, 0.0, 0.0),
        Point::new(1.0, 0.0, 0.0),
        Point::new(0.0, 1.0, 0.0),
        Point::new(0.0, 0.0, 1.0),
    ];
    let hull = convex_hull(&points).expect("a tetrahedron");
    assert_eq!(hull.input_index, vec![0, 1, 2, 3]);
    assert_eq!(hull.mesh.faces.len(), 4);
    let v = check_hull(&hull, &points, "tetrahedron");
    assert!((v - 1.0 / 6.0).abs() < 1e-15, "{v}");
}

#[test]
fn interior_and_face_points_are_not_vertices() {
    // Cube corners, plus points at the centre, on face centres and edge midpoints, with repeats.
    let mut points = Vec::new();
    for i in 0..8 {
        points.push(point(
            (i & 1) as f64 * 2.0,
            ((i >> 1) & 1) as f64 * 2.0,
            ((i >> 2) & 1) as f64 * 2.0,
        ));
    }
    points.push(point(1.0, 1.0, 1.0));
    points.push(point(1.0, 1.0, 0.0));
    points.push(point(1.0, 0.0, 0.0));
    points.push(point(2.0, 1.0, 2.0));
    points.extend_from_within(0..12);
    let hull = convex_hull(&points).expect("a cube");
    assert_eq!(hull.input_index, (0..8).collect::<Vec<u32>>());
    assert_eq!(hull.mesh.faces.len(), 12);
    let v = check_hull(&hull, &points, "cube with extra points");
    assert_eq!(v, 8.0);
    let polygons = convex_hull_polygons(&points).expect("a cube");
    assert_eq!(polygons.mesh.faces.len(), 6);
    assert!(polygons.mesh.faces.iter().all(|f| f.len() == 4));
    check_polygons(&polygons, &hull, "cube polygons");
}

#[test]
fn corners_inside_a_larger_coplanar_base_are_dropped() {
    // Corners of a small square base: (2, 0, 0) and (0, 2, 0) lie on edges of the larger coplanar
    // base, (2, 2, 0) inside it. Whatever the insertion order, they must not remain vertices.
    let points = [
        Point::new(0.0, 0.0, 0.0),
        Point::new(2.0, 0.0, 0.0),
        Point::new(2.0, 2.0, 0.0),
        Point::new(0.0, 2.0, 0.0),
        Point::new(1.0, 1.0, 5.0),
        Point::new(3.0, 3.0, 0.0),
        Point::new(3.0, 0.0, 0.0),
        Point::new(0.0, 3.0, 0.0),
    ];
    let hull = convex_hull(&points).expect("a pyramid");
    assert_eq!(hull.input_index, vec![0, 4, 5, 6, 7]);
    let v = check_hull(&hull, &points, "pyramid");
    assert!((v - 9.0 * 5.0 / 3.0).abs() < 1e-12, "{v}");
    assert_eq!(extreme_points_brute(&points).len(), 5);
}

#[test]
fn random_sets_match_brute_force() {
    let mut rng = SplitMix64(0x5EED_0001);
    let placements = [
        (1.0, 0.0),
        (1e-12, 0.0),
        (1e6, 0.0),
        (1.0, 1e4),
        (3.0, -7.5),
    ];
    let mut cases = 0;
    let mut brute_cases = 0;
    for case in 0..630 {
        let family = FAMILIES[case % FAMILIES.len()];
        let (scale, offset) = placements[(case / FAMILIES.len()) % placements.len()];
        // Log-uniform sizes in 4..=2000, with a third of the cases small enough for brute force.
        let n = if case % 3 == 0 {
            4 + rng.below(9)
        } else {
            (4.0 * 500f64.powf(rng.next_f64())) as usize
        };
        let points = generate(&mut rng, family, n, scale, offset);
        let context = format!("case {case} {family:?} n={n} scale={scale} offset={offset}");
        let hull = match convex_hull(&points) {
            Ok(hull) => hull,
            Err(GeomError::DegenerateHull {
                points: count,
                shape,
            }) => {
                // Tiny grids and corner sets may be flat; confirm exactly.
                assert_eq!(count, n, "{context}");
                assert!(
                    is_flat(&points),
                    "{context}: called {shape} but spans a volume"
                );
                let distinct = distinct_points(&points);
                let expected = if distinct.len() == 1 {
                    "coincident"
                } else if distinct
                    .iter()
                    .all(|q| collinear(&distinct[0], &distinct[1], q))
                {
                    "collinear"
                } else {
                    "coplanar"
                };
                assert_eq!(shape, expected, "{context}");
                continue;
            }
            Err(e) => panic!("{context}: {e}"),
        };
        let v = check_hull(&hull, &points, &context);
        cases += 1;

        // The extreme-point set does not depend on the input order.
        let mut shuffled = points.clone();
        rng.shuffle(&mut shuffled);
        let again = convex_hull(&shuffled).expect("same set");
        let set = |h: &ConvexHull| h.mesh.vertices.iter().map(bits).collect::<BTreeSet<_>>();
        assert_eq!(set(&hull), set(&again), "{context}: order dependence");

        if n <= 14 {
            brute_cases += 1;
            assert_eq!(
                set(&hull),
                extreme_points_brute(&points),
                "{context}: extreme points"
            );
            let vb = volume_brute(&points);
            assert!(
                (v - vb).abs() <= 1e-6 * vb,
                "{context}: volume {v} vs brute force {vb}"
            );
        }

        let boxed = bounding_box_volume(&points);
        assert!(
            v <= boxed * (1.0 + 1e-12),
            "{context}: volume {v} exceeds the box {boxed}"
        );
        match family {
            Family::CubeCorners if n >= 8 => {
                assert_eq!(hull.mesh.vertices.len(), 8, "{context}");
                // The corners are the box's: the f32-rounded cube.
                assert!(
                    (v - boxed).abs() <= 1e-12 * boxed,
                    "{context}: volume {v} vs {boxed}"
                );
            }
            Family::Sphere | Family::Ellipsoid if n >= 1000 && offset == 0.0 => {
                let axes = if matches!(family, Family::Sphere) {
                    1.0
                } else {
                    0.75
                };
                let exact = 4.0 / 3.0 * std::f64::consts::PI * scale * scale * scale * axes;
                let ratio = v / exact;
                assert!(
                    (0.95..=1.0 + 1e-6).contains(&ratio),
                    "{context}: volume ratio {ratio}"
                );
                if matches!(family, Family::Sphere) {
                    // Points on a sphere are all extreme.
                    assert_eq!(
                        hull.mesh.vertices.len(),
                        distinct_points(&points).len(),
                        "{context}"
                    );
                }
            }
            _ => {}
        }

        let polygons = convex_hull_polygons(&points).expect("same set");
        check_polygons(&polygons, &hull, &context);
    }
    assert!(cases >= 500, "only {cases} full-dimensional cases");
    assert!(brute_cases >= 150, "only {brute_cases} brute-force cases");
}

#[test]
fn grid_on_a_cube_surface_has_the_eight_corners() {
    for k in 1..=8i32 {
        let mut points = Vec::new();
        for x in 0..=k {
            for y in 0..=k {
                for z in 0..=k {
                    if [x, y, z].iter().any(|&c| c == 0 || c == k) {
                        points.push(Point::new(x as f32, y as f32, z as f32));
                    }
                }
            }
        }
        let extra = points.clone();
        points.extend(extra);
        SplitMix64(k as u64).shuffle(&mut points);
        let context = format!("grid {k}");
        let hull = convex_hull(&points).expect("a cube");
        assert_eq!(hull.mesh.vertices.len(), 8, "{context}");
        let v = check_hull(&hull, &points, &context);
        assert_eq!(v, f64::from(k * k * k), "{context}");
        let polygons = convex_hull_polygons(&points).expect("a cube");
        assert_eq!(polygons.mesh.faces.len(), 6, "{context}");
        check_polygons(&polygons, &hull, &context);
    }
}

#[test]
fn degenerate_sets_are_named() {
    let shape = |points: &[Point]| match convex_hull(points) {
        Err(GeomError::DegenerateHull { points: n, shape }) => {
            assert_eq!(n, points.len());
            shape
        }
        other => panic!("expected a degenerate hull, got {other:?}"),
    };
    let p = Point::new(0.5, -2.0, 1e-12);
    assert_eq!(shape(&[]), "coincident");
    assert_eq!(shape(&[p]), "coincident");
    assert_eq!(shape(&vec![p; 1000]), "coincident");
    assert_eq!(shape(&[p, Point::new(1.0, 1.0, 1.0)]), "collinear");
    assert_eq!(shape(&[p, Point::new(1.0, 1.0, 1.0), p]), "collinear");
    assert_eq!(
        shape(&[
            Point::origin(),
            Point::new(1.0, 0.0, 0.0),
            Point::new(0.0, 1.0, 0.0)
        ]),
        "coplanar"
    );

    // Exactly collinear integer points along (1, 2, -3) through (5, 7, 11), with repeats.
    let line: Vec<Point> = (0..500)
        .map(|i| {
            let t = (i * 37 % 101 - 50) as f32;
            Point::new(5.0 + t, 7.0 + 2.0 * t, 11.0 - 3.0 * t)
        })
        .collect();
    assert_eq!(shape(&line), "collinear");
    // Exactly coplanar integer points on z = x + 2y - 3, and on z = 0 at tiny scale.
    let mut rng = SplitMix64(3);
    let plane: Vec<Point> = (0..500)
        .map(|_| {
            let (x, y) = (rng.below(200) as f32 - 100.0, rng.below(200) as f32 - 100.0);
            Point::new(x, y, x + 2.0 * y - 3.0)
        })
        .collect();
    assert_eq!(shape(&plane), "coplanar");
    let flat: Vec<Point> = (0..500)
        .map(|_| point(rng.range(-1e-12, 1e-12), rng.range(-1e-12, 1e-12), 0.0))
        .collect();
    assert_eq!(shape(&flat), "coplanar");
    // One point a single ulp off that plane makes it a volume.
    let mut lifted = flat.clone();
    lifted.push(Point::new(0.0, 0.0, f32::from_bits(1)));
    let hull = convex_hull(&lifted).expect("a sliver");
    check_hull(&hull, &lifted, "sliver");
}

#[test]
fn non_finite_points_are_named() {
    let mut points = vec![
        Point::new(0.0, 0.0, 0.0),
        Point::new(1.0, 0.0, 0.0),
        Point::new(0.0, 1.0, 0.0),
        Point::new(0.0, 0.0, 1.0),
        Point::new(1.0, 1.0, 1.0),
    ];
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        points[3].y = bad;
        match convex_hull(&points) {
            Err(GeomError::NonFiniteCoordinate { vertex: 3 }) => {}
            other => panic!("expected vertex 3 to be rejected, got {other:?}"),
        }
    }
}

#[test]
fn extreme_coordinates_stay_exact() {
    // Corners of a box spanning nearly the whole f32 range, and of one near the smallest
    // subnormals, with interior points.
    for (lo, hi) in [
        (-3.0e38f32, 3.0e38f32),
        (f32::from_bits(1), f32::from_bits(9)),
    ] {
        let mut points = Vec::new();
        for i in 0..8 {
            let pick = |bit: usize| if i >> bit & 1 == 1 { hi } else { lo };
            points.push(Point::new(pick(0), pick(1), pick(2)));
        }
        let mid = lo / 2.0 + hi / 2.0;
        points.push(Point::new(mid, mid, mid));
        points.push(Point::new(mid, lo, mid));
        let hull = convex_hull(&points).expect("a box");
        assert_eq!(
            hull.input_index,
            (0..8).collect::<Vec<u32>>(),
            "box {lo}..{hi}"
        );
        assert_vertex_bookkeeping(&hull, &points, "box");
        assert_closed_manifold(&hull.mesh, "box");
        assert_contains_all(&hull, &points, "box");
        assert_corners(&hull, "box");
    }
}

/// One-off timing for the report (not an assertion): `cargo test -p colldet-geom --release
/// hull::tests::timing -- --ignored --nocapture`.
#[test]
#[ignore]
fn timing_points_on_a_sphere() {
    for n in [1_000usize, 10_000, 100_000] {
        let mut rng = SplitMix64(n as u64);
        let points = generate(&mut rng, Family::Sphere, n, 1.0, 0.0);
        let runs = if n >= 100_000 { 3 } else { 20 };
        let mut best = f64::INFINITY;
        let mut hull = None;
        for _ in 0..runs {
            let start = std::time::Instant::now();
            hull = Some(convex_hull(&points).expect("a sphere"));
            best = best.min(start.elapsed().as_secs_f64());
        }
        let hull = hull.expect("ran");
        assert_eq!(hull.mesh.vertices.len(), distinct_points(&points).len());
        println!(
            "{n} points on a sphere: {:.3} ms (best of {runs}), {} vertices, {} triangles",
            best * 1e3,
            hull.mesh.vertices.len(),
            hull.mesh.faces.len()
        );
    }
}
