//! Mesh-mesh collision with solid semantics: surfaces that meet, or one object inside the solid
//! of a closed other.
//!
//! Each object is a point set: a mesh that encloses a solid ([`encloses_solid`]: every edge used
//! an even number of times) stands for that solid, any other mesh for its surface. Two objects
//! collide iff the point sets meet: either the surfaces share a point (the exact
//! [`thesis_arbitrary`] test) or, when they do not, a connected component of one object lies
//! inside the solid of the other. A component that does not meet the other surface is entirely
//! inside or entirely outside, so one vertex per component decides it (exact point in
//! polyhedron). This fixes the thesis's missing containment case.

use super::point_in_polyhedron::{PointLocation, encloses_solid, point_in_polyhedron_with};
use super::thesis_arbitrary::{ArbitraryOptions, ArbitraryWorkspace, thesis_arbitrary};
use super::witness::{MeshFeature, MeshWitness, WitnessKind};
use crate::NarrowError;
use colldet_geom::Polyhedron;
use colldet_geom::dcel::VertexId;
use colldet_geom::math::{Isometry, PointD};

/// Do `p` and `q` (at `pos12`, the pose of `q` in `p`'s frame) collide as point sets (solids for
/// meshes that enclose one, surfaces otherwise)? `None` when they do not; otherwise a witness in
/// `p`'s frame: a surface contact ([`WitnessKind::EdgeFace`] / [`WitnessKind::FaceEdge`]) or
/// [`WitnessKind::Containment`], whose point is a vertex of the contained object strictly inside
/// the container (feature [`MeshFeature::Vertex`] on the contained side,
/// [`MeshFeature::Interior`] on the container's). Exact for `q`'s vertices mapped into `p`'s frame
/// in `f64`. Allocates a workspace; see [`meshes_collide_with`] for repeated queries.
///
/// # Errors
/// [`NarrowError::NonFinite`] for a NaN or infinite `pos12`.
pub fn meshes_collide(
    p: &Polyhedron,
    q: &Polyhedron,
    pos12: &Isometry,
) -> Result<Option<MeshWitness>, NarrowError> {
    meshes_collide_with(p, q, pos12, &mut ArbitraryWorkspace::new())
}

/// [`meshes_collide`] with reusable buffers.
///
/// # Errors
/// As [`meshes_collide`].
pub fn meshes_collide_with(
    p: &Polyhedron,
    q: &Polyhedron,
    pos12: &Isometry,
    ws: &mut ArbitraryWorkspace,
) -> Result<Option<MeshWitness>, NarrowError> {
    if let Some(w) = thesis_arbitrary(p, q, pos12, &ArbitraryOptions::default(), ws)? {
        return Ok(Some(w));
    }
    containment_after_mapping(p, q, ws)
}

/// The containment half of the solid semantics, for callers whose own surface test (a BVH, a
/// box-tree) found no crossing surfaces: is a component of one object inside the other, closed,
/// one? Same witness as [`meshes_collide`]'s containment case.
///
/// # Errors
/// [`NarrowError::NonFinite`] for a NaN or infinite `pos12`.
pub fn containment_with(
    p: &Polyhedron,
    q: &Polyhedron,
    pos12: &Isometry,
    ws: &mut ArbitraryWorkspace,
) -> Result<Option<MeshWitness>, NarrowError> {
    crate::mesh::thesis_arbitrary::map_vertices(p, q, pos12, ws)?;
    containment_after_mapping(p, q, ws)
}

/// Containment with `ws`'s vertex arrays already mapped into `p`'s frame.
fn containment_after_mapping(
    p: &Polyhedron,
    q: &Polyhedron,
    ws: &mut ArbitraryWorkspace,
) -> Result<Option<MeshWitness>, NarrowError> {
    if encloses_solid(q) {
        let mut union_find = std::mem::take(&mut ws.union_find);
        let found = component_inside(p, &ws.p_vertices, q, &ws.q_vertices, &mut union_find)?;
        ws.union_find = union_find;
        if let Some((v, point)) = found {
            return Ok(Some(MeshWitness {
                kind: WitnessKind::Containment,
                feature1: MeshFeature::Vertex(v),
                feature2: MeshFeature::Interior,
                point,
            }));
        }
    }
    if encloses_solid(p) {
        let mut union_find = std::mem::take(&mut ws.union_find);
        let found = component_inside(q, &ws.q_vertices, p, &ws.p_vertices, &mut union_find)?;
        ws.union_find = union_find;
        if let Some((v, point)) = found {
            return Ok(Some(MeshWitness {
                kind: WitnessKind::Containment,
                feature1: MeshFeature::Interior,
                feature2: MeshFeature::Vertex(v),
                point,
            }));
        }
    }
    Ok(None)
}

fn find(parent: &mut [u32], mut v: u32) -> u32 {
    while parent[v as usize] != v {
        let up = parent[parent[v as usize] as usize];
        parent[v as usize] = up;
        v = up;
    }
    v
}

/// A vertex of `inner` (positions `inner_vertices`) inside the closed `outer` (positions
/// `outer_vertices`, same frame), testing one vertex per connected component of `inner`.
fn component_inside(
    inner: &Polyhedron,
    inner_vertices: &[PointD],
    outer: &Polyhedron,
    outer_vertices: &[PointD],
    buffers: &mut (Vec<u32>, Vec<bool>),
) -> Result<Option<(VertexId, PointD)>, NarrowError> {
    let (parent, tested) = buffers;
    let dcel = inner.dcel();
    parent.clear();
    parent.extend(0..inner_vertices.len() as u32);
    for face in dcel.faces().iter() {
        let r0 = find(parent, face[0]);
        for &v in &face[1..] {
            let r = find(parent, v);
            parent[r as usize] = r0;
        }
    }
    tested.clear();
    tested.resize(inner_vertices.len(), false);
    for face in dcel.faces().iter() {
        let v = face[0];
        let root = find(parent, v) as usize;
        if tested[root] {
            continue;
        }
        tested[root] = true;
        let point = inner_vertices[v as usize];
        let location = point_in_polyhedron_with(outer, |w| outer_vertices[w.index()], &point)?;
        if location != PointLocation::Outside {
            return Ok(Some((VertexId(v), point)));
        }
    }
    Ok(None)
}
