//! The face of a convex object that supports a direction, as a convex polygon: the face most
//! aligned with the direction among those around the supporting vertex, merged with its coplanar
//! neighbours (a mesh may split one planar face into triangles).

use colldet_geom::Polyhedron;
use colldet_geom::dcel::{FaceId, VertexId};
use colldet_geom::math::{PointD, VectorD, any_perpendicular};
use colldet_geom::normal::newell_normal_f64;

/// Two faces are one planar face when their unit normals differ by less than this (`1 - cos`;
/// about 1.4e-3 radians) ...
const COPLANAR_NORMAL: f64 = 1e-6;

/// ... and their vertices lie within this fraction of the object's radius of the plane.
const COPLANAR_OFFSET: f64 = 1e-6;

/// A supporting face: its input face index, unit outward normal (local frame) and its vertices'
/// local positions in counter-clockwise order around the normal (convex, no collinear corners).
#[derive(Clone, Debug, Default)]
pub(crate) struct FacePolygon {
    pub face: u32,
    pub normal: VectorD,
    pub corners: Vec<PointD>,
}

/// Scratch of [`supporting_face`].
#[derive(Clone, Debug, Default)]
pub(crate) struct FaceScratch {
    faces: Vec<FaceId>,
    vertices: Vec<u32>,
    points: Vec<(f64, f64, u32)>,
    hull: Vec<(f64, f64, u32)>,
}

/// The unit normal of face `f` from its corners as given (Newell's method on the `f64`
/// vertices), or `None` for a face without area.
pub(crate) fn face_normal(p: &Polyhedron, f: FaceId) -> Option<VectorD> {
    let corners = p.dcel().face_vertices(f);
    let n = newell_normal_f64(corners.iter().map(|&i| p.vertex_f64(i as usize)));
    let len = n.norm();
    (len > 0.0 && len.is_finite()).then(|| n / len)
}

/// The face around vertex `v` whose normal is most aligned with the unit direction `dir` (local
/// frame): `(face, unit normal, normal . dir)`.
pub(crate) fn best_face_around(
    p: &Polyhedron,
    v: VertexId,
    dir: &VectorD,
) -> Option<(FaceId, VectorD, f64)> {
    p.dcel()
        .vertex_faces(v)
        .filter_map(|f| face_normal(p, f).map(|n| (f, n, n.dot(dir))))
        .max_by(|x, y| x.2.total_cmp(&y.2))
}

/// Fills `out` with face `start` (unit normal `normal`) merged with every face reachable through
/// shared vertices that lies in its plane (within the coplanar tolerances), as one convex
/// polygon. `radius` is the object's bounding radius (the scale of the offset tolerance).
pub(crate) fn supporting_face(
    p: &Polyhedron,
    start: FaceId,
    normal: VectorD,
    radius: f64,
    scratch: &mut FaceScratch,
    out: &mut FacePolygon,
) {
    let dcel = p.dcel();
    let origin = p.vertex_f64(dcel.face_vertices(start)[0] as usize);
    let offset_tolerance = COPLANAR_OFFSET * radius;
    let in_plane =
        |i: u32| normal.dot(&(p.vertex_f64(i as usize) - origin)).abs() <= offset_tolerance;
    scratch.faces.clear();
    scratch.vertices.clear();
    scratch.faces.push(start);
    let mut next = 0;
    while next < scratch.faces.len() {
        let f = scratch.faces[next];
        next += 1;
        for &v in dcel.face_vertices(f) {
            if scratch.vertices.contains(&v) {
                continue;
            }
            scratch.vertices.push(v);
            for g in dcel.vertex_faces(VertexId(v)) {
                if scratch.faces.contains(&g) {
                    continue;
                }
                let coplanar = face_normal(p, g)
                    .is_some_and(|m| m.dot(&normal) >= 1.0 - COPLANAR_NORMAL)
                    && dcel.face_vertices(g).iter().all(|&i| in_plane(i));
                if coplanar {
                    scratch.faces.push(g);
                }
            }
        }
    }
    // The convex hull of the merged faces' corners in the plane (u, w, normal right-handed).
    let u = any_perpendicular(&normal);
    let w = normal.cross(&u);
    scratch.points.clear();
    scratch.points.extend(scratch.vertices.iter().map(|&i| {
        let q = p.vertex_f64(i as usize) - origin;
        (q.dot(&u), q.dot(&w), i)
    }));
    convex_hull_2d(&mut scratch.points, &mut scratch.hull);
    out.face = p.face_source(start);
    out.normal = normal;
    out.corners.clear();
    out.corners.extend(
        scratch
            .hull
            .iter()
            .map(|&(_, _, i)| p.vertex_f64(i as usize)),
    );
}

/// The convex hull of `points` (monotone chain), counter-clockwise, collinear points dropped,
/// into `hull`. `points` is sorted in place.
fn convex_hull_2d(points: &mut [(f64, f64, u32)], hull: &mut Vec<(f64, f64, u32)>) {
    hull.clear();
    points.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    if points.len() < 3 {
        hull.extend_from_slice(points);
        return;
    }
    let turn = |o: &(f64, f64, u32), a: &(f64, f64, u32), b: &(f64, f64, u32)| {
        (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
    };
    for pass in 0..2 {
        let floor = hull.len();
        let push = |p: &(f64, f64, u32), hull: &mut Vec<(f64, f64, u32)>| {
            while hull.len() >= floor + 2
                && turn(&hull[hull.len() - 2], &hull[hull.len() - 1], p) <= 0.0
            {
                hull.pop();
            }
            hull.push(*p);
        };
        if pass == 0 {
            points.iter().for_each(|p| push(p, hull));
        } else {
            points.iter().rev().for_each(|p| push(p, hull));
        }
        // The chain's last point is the next chain's first.
        hull.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hull_of_a_square_with_inner_and_edge_points_is_its_corners_counter_clockwise() {
        let mut points = vec![
            (0.0, 0.0, 0),
            (1.0, 0.0, 1),
            (1.0, 1.0, 2),
            (0.0, 1.0, 3),
            (0.5, 0.5, 4),
            (0.5, 0.0, 5),
        ];
        let mut hull = Vec::new();
        convex_hull_2d(&mut points, &mut hull);
        let ids: Vec<u32> = hull.iter().map(|p| p.2).collect();
        assert_eq!(ids, vec![0, 1, 2, 3]);
    }
}
