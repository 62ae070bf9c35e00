//! [`mesh_contact_manifold`]: the contact manifold of two objects that are not both convex, from
//! their intersecting triangle pairs.

use colldet_geom::math::PointD;

use super::contact_manifold::{
    ContactManifold, ContactPoint, FACE_ALIGNMENT, MAX_CONTACT_POINTS, ManifoldKind,
    ManifoldWorkspace,
};
use super::manifold_reduce::reduce_to_four;
use super::triangle_pair::{PairAxis, PairPenetration, pair_contacts, pair_penetration};
use crate::PoseMatrix;
use crate::mesh::bvh::{BvhVolume, MeshBvh, TrianglePairHit};

/// The manifold of two meshes (shape 2's pose in shape 1's frame `pos12`) whose surfaces cross at
/// the triangle pairs `hits` (from [`crate::mesh::bvh::mesh_surfaces_intersect`] with
/// [`crate::mesh::bvh::ContactReport::All`]), in shape 1's frame.
///
/// Each triangle pair gets its smallest separating translation (separating-axis test over the
/// two normals and nine edge directions: the local depth of the crossing, not the depth of the
/// solids). The deepest pair gives the normal; every pair whose normal is within
/// [`FACE_ALIGNMENT`] of it adds its contacts (the other triangle clipped to the face along the
/// normal, points within `tolerance` of penetrating; for an edge-edge axis the pair's common
/// point), reduced to four keeping the deepest point and the largest area. `None` when `hits` is
/// empty or holds only degenerate triangles.
pub fn mesh_contact_manifold<V: BvhVolume>(
    bvh1: &MeshBvh<V>,
    bvh2: &MeshBvh<V>,
    pos12: &PoseMatrix,
    hits: &[TrianglePairHit],
    tolerance: f64,
    ws: &mut ManifoldWorkspace,
) -> Option<ContactManifold> {
    let triangles = |h: &TrianglePairHit| {
        let t1 = bvh1.triangle_f64(h.triangle1);
        let t2 = bvh2
            .triangle_f64(h.triangle2)
            .map(|p| pos12.transform_point(&p));
        (t1, t2)
    };
    // Every pair's penetration (kept for the second pass), and the deepest pair.
    ws.pair_penetrations.clear();
    let mut deepest: Option<(usize, PairPenetration)> = None;
    for (k, h) in hits.iter().enumerate() {
        let (t1, t2) = triangles(h);
        let pen = pair_penetration(&t1, &t2);
        if let Some(pen) = pen
            && deepest.is_none_or(|(_, d)| pen.depth > d.depth)
        {
            deepest = Some((k, pen));
        }
        ws.pair_penetrations.push(pen);
    }
    let (first, top) = deepest?;
    let normal = top.normal;
    ws.candidates.clear();
    for (h, pen) in hits.iter().zip(&ws.pair_penetrations) {
        match pen {
            Some(pen) if pen.normal.dot(&normal) >= FACE_ALIGNMENT => {
                let (t1, t2) = triangles(h);
                pair_contacts(
                    &t1,
                    &t2,
                    pen,
                    &h.point,
                    tolerance,
                    &mut ws.pair_scratch,
                    &mut ws.candidates,
                );
            }
            _ => {}
        }
    }
    // Triangles sharing corners give the same point more than once.
    ws.candidates.sort_by(|a, b| {
        a.0.coords
            .as_slice()
            .partial_cmp(b.0.coords.as_slice())
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    ws.candidates.dedup_by(|a, b| a.0 == b.0);
    if ws.candidates.is_empty() {
        return None;
    }
    reduce_to_four(&mut ws.candidates, &normal);
    let hit = &hits[first];
    let mut m = ContactManifold {
        normal,
        depth: f64::NEG_INFINITY,
        points: [ContactPoint::default(); MAX_CONTACT_POINTS],
        count: ws.candidates.len(),
        kind: if top.axis == PairAxis::Edges {
            ManifoldKind::Point
        } else {
            ManifoldKind::Face
        },
        face_a: hit.face1.0,
        face_b: hit.face2.0,
    };
    for (slot, &(on_b, depth)) in m.points.iter_mut().zip(ws.candidates.iter()) {
        let point_a: PointD = on_b + normal * depth;
        *slot = ContactPoint {
            point_a,
            point_b: on_b,
            depth,
        };
        m.depth = m.depth.max(depth);
    }
    Some(m)
}
