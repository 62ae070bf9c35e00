//! Exact point-in-polyhedron by ray parity with Simulation of Simplicity: no re-sampling.
//!
//! Rationale: the ray leaves the query point `q` along `+x`, and `q` is displaced by the
//! infinitesimal `(0, eps, eps^2)` (only for the crossing count, after points exactly on the
//! surface have been recognised). The displaced ray meets no vertex and no edge, so each
//! triangle is either crossed or missed, and the decision is made from exact signs:
//! `orient2d` of the triangle's edges in the `(y, z)` projection, where a zero is replaced by the
//! sign of the `eps` term (`-sign(dz)`, else `sign(dy)` of the edge), which is antisymmetric in
//! the edge's direction, so the two triangles sharing an edge agree; triangles parallel to `x`
//! are missed; the crossing is ahead when `orient3d` puts `q` on the side opposite to the
//! triangle's `x`-facing normal. A closed mesh (every edge used an even number of times, fan
//! diagonals of a face included) is thus crossed an odd number of times exactly when `q` is
//! inside. Faces are split into fans from their first corner; for exactly planar faces the parity
//! of the fan equals that of the polygon (fans cover the polygon an odd number of times and the
//! outside an even number), so non-convex faces are handled; whether `q` lies *on* a face is
//! decided on the exact polygon (see [`crate::mesh::edge_polygon`]).

use super::edge_polygon::edge_polygon_with;
use super::exact::{drop_axis, orient2, vol};
use crate::NarrowError;
use colldet_geom::Polyhedron;
use colldet_geom::dcel::{FaceId, VertexId};
use colldet_geom::math::{PointD, to_f64};

/// Where a point lies relative to a closed surface (a polyhedron) or a closed curve (a polygon).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PointLocation {
    /// Strictly outside.
    Outside,
    /// Exactly on the surface (or the polygon's boundary).
    OnBoundary,
    /// Strictly inside.
    Inside,
}

impl PointLocation {
    /// True for points of the closed solid (or closed region): inside or on the boundary.
    #[inline]
    pub fn in_closed_solid(self) -> bool {
        self != PointLocation::Outside
    }
}

/// True when `poly` bounds a solid: every edge is used by an even number of faces (closed, and
/// non-manifold edges used 4, 6, ... times). This is what [`point_in_polyhedron`] requires.
pub fn encloses_solid(poly: &Polyhedron) -> bool {
    odd_edge_count(poly) == 0
}

/// Number of edges used by an odd number of faces.
pub(crate) fn odd_edge_count(poly: &Polyhedron) -> usize {
    let c = poly.classification();
    let dcel = poly.dcel();
    c.boundary_edge_count
        + c.non_manifold_edges
            .iter()
            .filter(|&&e| dcel.edge_faces(e).len() % 2 == 1)
            .count()
}

/// Where `point` (in the polyhedron's local frame, `f64`) lies relative to the closed
/// polyhedron `poly`. Exact for the given coordinates: points on a vertex, an edge or a face are
/// [`PointLocation::OnBoundary`], and rays through vertices or along edges need no re-sampling.
///
/// # Errors
/// [`NarrowError::NotClosed`] when `poly` does not enclose a solid (see [`encloses_solid`]),
/// [`NarrowError::NonFinite`] for a NaN or infinite point.
pub fn point_in_polyhedron(
    poly: &Polyhedron,
    point: &PointD,
) -> Result<PointLocation, NarrowError> {
    point_in_polyhedron_with(poly, |v| to_f64(poly.vertex(v)), point)
}

/// [`point_in_polyhedron`] with the vertex positions supplied by `vertex` (for instance mapped by
/// `pos12` into another object's frame in `f64`); `point` is in the same frame. The answer is
/// exact for the positions `vertex` returns, which must be the same every time for a vertex and
/// finite. No allocation.
///
/// # Errors
/// As [`point_in_polyhedron`].
pub fn point_in_polyhedron_with<F: Fn(VertexId) -> PointD>(
    poly: &Polyhedron,
    vertex: F,
    point: &PointD,
) -> Result<PointLocation, NarrowError> {
    if !point.iter().all(|c| c.is_finite()) {
        return Err(NarrowError::NonFinite {
            what: "query point",
        });
    }
    let odd_edges = odd_edge_count(poly);
    if odd_edges > 0 {
        return Err(NarrowError::NotClosed { odd_edges });
    }
    let q = point;
    let dcel = poly.dcel();
    let mut crossings = 0usize;
    for f in 0..dcel.face_count() {
        let face = dcel.face_vertices(FaceId(f as u32));
        let corner = |i: usize| vertex(VertexId(face[i]));
        let a = corner(0);
        let mut on_plane_candidate = false;
        for i in 1..face.len() - 1 {
            let t = [a, corner(i), corner(i + 1)];
            match fan_triangle_crossing(&t, q) {
                Crossing::Crossed => crossings += 1,
                Crossing::Missed => {}
                Crossing::MaybeOnSurface => on_plane_candidate = true,
            }
        }
        if on_plane_candidate && edge_polygon_with(q, q, face.len(), corner).is_some() {
            return Ok(PointLocation::OnBoundary);
        }
    }
    Ok(if crossings % 2 == 1 {
        PointLocation::Inside
    } else {
        PointLocation::Outside
    })
}

pub(crate) enum Crossing {
    Crossed,
    Missed,
    /// Missed, and `q` lies in the triangle's plane and closed box: it may be on the face.
    MaybeOnSurface,
}

/// Does the ray from `q + (0, eps, eps^2)` along `+x` cross the triangle?
///
/// When `q` lies in the triangle's plane the answer is "missed": either `q` is on the face (the
/// caller then answers `OnBoundary`), or its projection is strictly outside the projected
/// triangle (so is the displaced one), or the face is exactly planar and `q` is in its plane
/// but off the polygon, where every fan triangle of the face answers "missed" and the true
/// displaced count, the fan coverage parity near `q`, is even as well.
pub(crate) fn fan_triangle_crossing(t: &[PointD; 3], q: &PointD) -> Crossing {
    let (min_x, max_x) = (
        t[0].x.min(t[1].x).min(t[2].x),
        t[0].x.max(t[1].x).max(t[2].x),
    );
    let (min_y, max_y) = (
        t[0].y.min(t[1].y).min(t[2].y),
        t[0].y.max(t[1].y).max(t[2].y),
    );
    let (min_z, max_z) = (
        t[0].z.min(t[1].z).min(t[2].z),
        t[0].z.max(t[1].z).max(t[2].z),
    );
    if max_x < q.x || min_y > q.y || max_y < q.y || min_z > q.z || max_z < q.z {
        return Crossing::Missed;
    }
    let side = vol(&t[0], &t[1], &t[2], q);
    if side == 0 {
        return if min_x <= q.x {
            Crossing::MaybeOnSurface
        } else {
            Crossing::Missed
        };
    }
    let p = t.map(|c| drop_axis(&c, 0));
    let qp = drop_axis(q, 0);
    let area = orient2(p[0], p[1], p[2]);
    if area == 0 {
        return Crossing::Missed;
    }
    for i in 0..3 {
        if perturbed_orient(p[i], p[(i + 1) % 3], qp) != area {
            return Crossing::Missed;
        }
    }
    // The normal's x component has the sign of the projected area; the crossing is ahead
    // (x > q.x) when q lies on the side opposite to it.
    if side == -area {
        Crossing::Crossed
    } else {
        Crossing::Missed
    }
}

/// Sign of `orient2d(a, b, q + (eps, eps^2))` for an infinitesimal `eps > 0` (in `(y, z)`
/// coordinates): the exact sign, or the sign of the leading `eps` term when it is zero.
#[inline]
fn perturbed_orient(a: [f64; 2], b: [f64; 2], q: [f64; 2]) -> i8 {
    let o = orient2(a, b, q);
    if o != 0 {
        return o;
    }
    // orient(a, b, q + d) = orient(a, b, q) + (b - a) x d, d = (eps, eps^2):
    // (b.y - a.y) eps^2 - (b.z - a.z) eps.
    if b[1] != a[1] {
        if b[1] > a[1] { -1 } else { 1 }
    } else if b[0] > a[0] {
        1
    } else if b[0] < a[0] {
        -1
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::test_support::{MeshDraws, SplitMix, point_triangle_distance};
    use colldet_geom::{BuildOptions, FaceList, MeshData, Polyhedron};
    use colldet_testkit::shapes::{cube_array, sphere, tetra_flake, torus};

    fn build(mesh: MeshData) -> Polyhedron {
        Polyhedron::build(mesh, &BuildOptions::default()).unwrap()
    }

    fn fan_triangles(poly: &Polyhedron) -> Vec<[PointD; 3]> {
        let mut out = Vec::new();
        for face in poly.dcel().faces().iter() {
            let c = |i: usize| to_f64(&poly.vertices()[face[i] as usize]);
            for i in 1..face.len() - 1 {
                out.push([c(0), c(i), c(i + 1)]);
            }
        }
        out
    }

    /// Generalised winding number in f64 (sum of signed solid angles over 4 pi).
    fn winding(tris: &[[PointD; 3]], q: &PointD) -> f64 {
        let mut sum = 0.0;
        for t in tris {
            let [a, b, c] = t.map(|p| p - q);
            let (la, lb, lc) = (a.norm(), b.norm(), c.norm());
            let num = a.dot(&b.cross(&c));
            let den = la * lb * lc + a.dot(&b) * lc + a.dot(&c) * lb + b.dot(&c) * la;
            sum += 2.0 * num.atan2(den);
        }
        sum / (4.0 * std::f64::consts::PI)
    }

    fn distance(tris: &[[PointD; 3]], q: &PointD) -> f64 {
        tris.iter()
            .map(|t| point_triangle_distance(q, t))
            .fold(f64::INFINITY, f64::min)
    }

    /// True when `a + b` is exact in f64 (the TwoSum error term is zero).
    fn exact_sum(a: f64, b: f64) -> bool {
        let s = a + b;
        let bb = s - a;
        (a - (s - bb)) + (b - bb) == 0.0
    }

    /// Cube array 3x3x3, edge 2, gap 1: cubes span [-4, -2], [-1, 1], [2, 4] per axis. Every
    /// point of the half-integer grid in [-5, 5]^3 (9261 points; rays along x through vertices,
    /// along edges and in face planes everywhere) against the analytic answer.
    #[test]
    fn cube_array_grid_is_exact() {
        let poly = build(cube_array(3, 3, 3, 2.0, 1.0).unwrap());
        let classify = |c: f64| {
            let inside = [(-4.0, -2.0), (-1.0, 1.0), (2.0, 4.0)]
                .iter()
                .any(|&(lo, hi)| lo < c && c < hi);
            let on = [-4.0, -2.0, -1.0, 1.0, 2.0, 4.0].contains(&c);
            (inside, on)
        };
        let mut counts = [0usize; 3];
        for i in -10..=10 {
            for j in -10..=10 {
                for k in -10..=10 {
                    let q = PointD::new(f64::from(i) / 2.0, f64::from(j) / 2.0, f64::from(k) / 2.0);
                    let c = [q.x, q.y, q.z].map(classify);
                    let expected = if c.iter().all(|&(inside, _)| inside) {
                        PointLocation::Inside
                    } else if c.iter().all(|&(inside, on)| inside || on) {
                        PointLocation::OnBoundary
                    } else {
                        PointLocation::Outside
                    };
                    assert_eq!(point_in_polyhedron(&poly, &q).unwrap(), expected, "{q:?}");
                    counts[expected as usize] += 1;
                }
            }
        }
        assert!(counts.iter().all(|&n| n > 500), "{counts:?}");
    }

    /// Torus, sphere and tetra-flake: random points well away from the surface against the
    /// winding number; points with the y and z of a vertex (rays grazing vertices and edges)
    /// likewise; vertices, edge midpoints and exact face points on the boundary.
    #[test]
    fn curved_and_fractal_meshes_match_the_winding_number() {
        let meshes = [
            build(torus(2.0, 0.7, 24, 12).unwrap()),
            build(sphere(1.5, 16, 9).unwrap()),
            build(tetra_flake(2, 2.0).unwrap()),
        ];
        let mut rng = SplitMix(0x9109);
        for poly in &meshes {
            let tris = fan_triangles(poly);
            let mut inside = 0;
            let mut checked = 0;
            let verts: Vec<PointD> = poly.vertices().iter().map(to_f64).collect();
            for n in 0..6000 {
                let q = if n % 2 == 0 {
                    PointD::new(
                        rng.f64() * 6.0 - 3.0,
                        rng.f64() * 6.0 - 3.0,
                        rng.f64() * 6.0 - 3.0,
                    )
                } else {
                    let v = verts[rng.index(verts.len())];
                    PointD::new(rng.f64() * 6.0 - 3.0, v.y, v.z)
                };
                if distance(&tris, &q) < 1e-6 {
                    continue;
                }
                let w = winding(&tris, &q);
                assert!((w.abs() - w.abs().round()).abs() < 1e-6, "winding {w}");
                let expected = if w.abs() > 0.5 {
                    PointLocation::Inside
                } else {
                    PointLocation::Outside
                };
                assert_eq!(point_in_polyhedron(poly, &q).unwrap(), expected, "{q:?}");
                inside += usize::from(expected == PointLocation::Inside);
                checked += 1;
            }
            assert!(
                inside > 50 && checked - inside > 1000,
                "{inside} of {checked}"
            );
            // Boundary points: vertices, edge midpoints and points (a + b + 2c) / 4 of
            // triangular faces, where they are exact in f64 (checked).
            for (v, p) in verts.iter().enumerate() {
                if poly.dcel().vertex_half_edges(VertexId(v as u32)).len() > 0 {
                    assert_eq!(
                        point_in_polyhedron(poly, p).unwrap(),
                        PointLocation::OnBoundary
                    );
                }
            }
            let mut exact_points = 0;
            for e in 0..poly.dcel().edge_count() {
                let [a, b] = poly
                    .dcel()
                    .edge_vertices(colldet_geom::dcel::EdgeId(e as u32));
                let (a, b) = (verts[a.index()].coords, verts[b.index()].coords);
                if !(0..3).all(|i| exact_sum(a[i], b[i])) {
                    continue;
                }
                exact_points += 1;
                let m = PointD::from((a + b) / 2.0);
                assert_eq!(
                    point_in_polyhedron(poly, &m).unwrap(),
                    PointLocation::OnBoundary,
                    "{m:?}"
                );
            }
            for face in poly.dcel().faces().iter().filter(|f| f.len() == 3) {
                let [a, b, c] = [0, 1, 2].map(|i| verts[face[i] as usize].coords);
                let ab = a + b;
                if !(0..3).all(|i| exact_sum(a[i], b[i]) && exact_sum(ab[i], 2.0 * c[i])) {
                    continue;
                }
                exact_points += 1;
                let q = PointD::from((ab + c * 2.0) / 4.0);
                assert_eq!(
                    point_in_polyhedron(poly, &q).unwrap(),
                    PointLocation::OnBoundary
                );
            }
            assert!(exact_points > 50, "{exact_points}");
        }
    }

    /// An open mesh and a NaN point are typed errors; a non-convex planar face is handled.
    #[test]
    fn errors_and_non_convex_faces() {
        let open = MeshData::new(
            vec![
                Point3::new(0.0, 0.0, 0.0),
                Point3::new(1.0, 0.0, 0.0),
                Point3::new(0.0, 1.0, 0.0),
            ],
            FaceList::from_triangles(&[[0, 1, 2]]),
        );
        let open = build(open);
        assert!(!encloses_solid(&open));
        assert!(matches!(
            point_in_polyhedron(&open, &PointD::origin()),
            Err(NarrowError::NotClosed { odd_edges: 3 })
        ));
        let cube = build(cube_array(1, 1, 1, 2.0, 0.0).unwrap());
        assert!(matches!(
            point_in_polyhedron(&cube, &PointD::new(f64::NAN, 0.0, 0.0)),
            Err(NarrowError::NonFinite { .. })
        ));
        // An L-prism: the L-shaped caps are non-convex planar faces whose fans overlap.
        let l = [
            (0.0, 0.0),
            (4.0, 0.0),
            (4.0, 2.0),
            (2.0, 2.0),
            (2.0, 4.0),
            (0.0, 4.0),
        ];
        let mut vertices = Vec::new();
        for z in [0.0f32, 1.0] {
            vertices.extend(l.iter().map(|&(x, y)| Point3::new(x as f32, y as f32, z)));
        }
        let mut faces = FaceList::new();
        faces.push(&[5, 4, 3, 2, 1, 0]);
        faces.push(&[6, 7, 8, 9, 10, 11]);
        for i in 0..6u32 {
            let j = (i + 1) % 6;
            faces.push(&[i, j, j + 6, i + 6]);
        }
        let prism = build(MeshData::new(vertices, faces));
        let at =
            |x: f64, y: f64, z: f64| point_in_polyhedron(&prism, &PointD::new(x, y, z)).unwrap();
        assert_eq!(at(1.0, 1.0, 0.5), PointLocation::Inside);
        assert_eq!(at(3.0, 3.0, 0.5), PointLocation::Outside);
        assert_eq!(
            at(3.0, 3.0, 0.0),
            PointLocation::Outside,
            "in a cap's plane, in the notch"
        );
        assert_eq!(at(3.0, 3.0, 1.0), PointLocation::Outside);
        assert_eq!(at(1.0, 3.0, 1.0), PointLocation::OnBoundary);
        assert_eq!(at(2.0, 2.0, 0.5), PointLocation::OnBoundary);
        assert_eq!(
            at(-1.0, 2.0, 0.5),
            PointLocation::Outside,
            "ray through the reflex edge"
        );
        assert_eq!(
            at(-1.0, 2.0, 0.0),
            PointLocation::Outside,
            "ray along a cap"
        );
    }

    use colldet_geom::math::nalgebra::Point3;
}
