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

fn odd_edge_count(poly: &Polyhedron) -> usize {
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

enum Crossing {
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
fn fan_triangle_crossing(t: &[PointD; 3], q: &PointD) -> Crossing {
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
