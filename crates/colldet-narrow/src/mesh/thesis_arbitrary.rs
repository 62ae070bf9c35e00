//! The thesis's test for arbitrary objects (polygon soups): every edge of one object against
//! every polygon of the other, in both directions, with the thesis's bounding-box pre-checks.
//! The slow, exact reference for mesh-mesh queries.
//!
//! Rationale: everything runs in `p`'s frame. `q`'s vertices are mapped once per query by
//! `pos12` in `f64` into a workspace buffer, so each vertex has one position wherever it is used
//! and the answer is exact for the pair of surfaces "`p` as given, `q` at its mapped positions".
//! Two closed polygonal surfaces share a point iff an edge of one meets a face of the other
//! (intersection curves of two faces end on a face boundary; coplanar overlaps contain an edge
//! point), so both directions together are complete. The pre-checks (edge box against the other
//! object's box, faces collected by their box against the other object's box, edge box against
//! face box) are closed comparisons on the same exact coordinates, so they never discard a
//! contact.

use super::edge_polygon::edge_polygon_with;
use super::witness::MeshWitness;
#[cfg(doc)]
use super::witness::WitnessKind;
use crate::NarrowError;
use crate::thesis::PairMember;
use crate::{PoseMatrix, RelativePose};
use colldet_geom::Polyhedron;
use colldet_geom::WorldAabb;
use colldet_geom::dcel::{EdgeId, FaceId};
use colldet_geom::math::PointD;

/// Options of [`thesis_arbitrary`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArbitraryOptions {
    /// Collect every intersecting (edge, face) pair in the workspace instead of stopping at the
    /// first one.
    pub all_contacts: bool,
    /// Run the thesis's bounding-box pre-checks (they never change the answer; off only to
    /// measure them).
    pub prechecks: bool,
}

impl Default for ArbitraryOptions {
    /// First contact only, pre-checks on.
    fn default() -> Self {
        Self {
            all_contacts: false,
            prechecks: true,
        }
    }
}

/// Reusable buffers of [`thesis_arbitrary`] (and of [`crate::mesh::meshes_collide_with`]), so
/// repeated queries do not allocate once the buffers have grown.
#[derive(Clone, Debug, Default)]
pub struct ArbitraryWorkspace {
    pub(crate) p_vertices: Vec<PointD>,
    pub(crate) q_vertices: Vec<PointD>,
    p_face_boxes: Vec<WorldAabb>,
    q_face_boxes: Vec<WorldAabb>,
    kept_p_faces: Vec<FaceId>,
    kept_q_faces: Vec<FaceId>,
    contacts: Vec<MeshWitness>,
    pub(crate) union_find: (Vec<u32>, Vec<bool>),
}

impl ArbitraryWorkspace {
    /// An empty workspace.
    pub fn new() -> Self {
        Self::default()
    }

    /// The contacts found by the last query run with [`ArbitraryOptions::all_contacts`] (in
    /// discovery order: edges of `p` against faces of `q` first); otherwise at most the first.
    pub fn contacts(&self) -> &[MeshWitness] {
        &self.contacts
    }

    /// The vertices of `q` as mapped by the last query into `p`'s frame (`f64`).
    pub fn mapped_vertices(&self) -> &[PointD] {
        &self.q_vertices
    }
}

/// Fills the workspace's vertex buffers: `p`'s vertices widened, `q`'s mapped by `pos12`.
pub(crate) fn map_vertices(
    p: &Polyhedron,
    q: &Polyhedron,
    pos12: &impl RelativePose,
    ws: &mut ArbitraryWorkspace,
) -> Result<(), NarrowError> {
    let pose = PoseMatrix::widen(pos12)?;
    ws.p_vertices.clear();
    ws.p_vertices
        .extend((0..p.vertices().len()).map(|i| p.vertex_f64(i)));
    ws.q_vertices.clear();
    ws.q_vertices
        .extend((0..q.vertices().len()).map(|i| pose.transform_point(&q.vertex_f64(i))));
    Ok(())
}

fn box_of(points: impl Iterator<Item = PointD>) -> WorldAabb {
    let mut b = WorldAabb::new(
        PointD::from([f64::INFINITY; 3]),
        PointD::from([f64::NEG_INFINITY; 3]),
    );
    for p in points {
        b.mins = b.mins.inf(&p);
        b.maxs = b.maxs.sup(&p);
    }
    b
}

/// The thesis's arbitrary-object test: does the surface of `p` share a point with the surface of
/// `q` placed at `pos12` (the pose of `q` in `p`'s frame)? Returns the first witness found (an
/// edge of `p` meeting a face of `q`, [`WitnessKind::EdgeFace`], or a face of `p` meeting an
/// edge of `q`, [`WitnessKind::FaceEdge`]); with [`ArbitraryOptions::all_contacts`] every such
/// pair is collected in [`ArbitraryWorkspace::contacts`] and the first is returned. Surfaces
/// only: containment is [`crate::mesh::meshes_collide`]'s business.
///
/// Exact for `q`'s vertices as mapped into `p`'s frame in `f64` (see the module rationale);
/// touching counts. Faces are polygons when exactly planar, fans otherwise. Cost
/// O(edges x faces) in the worst case; allocation only while the workspace grows.
///
/// # Errors
/// [`NarrowError::NonFinite`] for a NaN or infinite `pos12`.
pub fn thesis_arbitrary(
    p: &Polyhedron,
    q: &Polyhedron,
    pos12: &impl RelativePose,
    options: &ArbitraryOptions,
    ws: &mut ArbitraryWorkspace,
) -> Result<Option<MeshWitness>, NarrowError> {
    map_vertices(p, q, pos12, ws)?;
    ws.contacts.clear();
    let ArbitraryWorkspace {
        p_vertices,
        q_vertices,
        p_face_boxes,
        q_face_boxes,
        kept_p_faces,
        kept_q_faces,
        contacts,
        ..
    } = ws;
    let box_p = box_of(p_vertices.iter().copied());
    let box_q = box_of(q_vertices.iter().copied());
    collect_faces(p, p_vertices, &box_q, options, p_face_boxes, kept_p_faces);
    collect_faces(q, q_vertices, &box_p, options, q_face_boxes, kept_q_faces);
    let directions = [
        (
            p,
            &*p_vertices,
            q,
            &*q_vertices,
            &*kept_q_faces,
            &*q_face_boxes,
            &box_q,
            PairMember::Shape1,
        ),
        (
            q,
            &*q_vertices,
            p,
            &*p_vertices,
            &*kept_p_faces,
            &*p_face_boxes,
            &box_p,
            PairMember::Shape2,
        ),
    ];
    for (edges_of, edge_vertices, faces_of, face_vertices, kept, face_boxes, other_box, owner) in
        directions
    {
        let dcel = edges_of.dcel();
        for e in 0..dcel.edge_count() {
            let e = EdgeId(e as u32);
            let [a, b] = dcel.edge_vertices(e);
            let (u, v) = (edge_vertices[a.index()], edge_vertices[b.index()]);
            let edge_box = box_of([u, v].into_iter());
            if options.prechecks && !edge_box.overlaps(other_box) {
                continue;
            }
            for &f in kept {
                if options.prechecks && !edge_box.overlaps(&face_boxes[f.index()]) {
                    continue;
                }
                let face = faces_of.dcel().face_vertices(f);
                let hit =
                    edge_polygon_with(&u, &v, face.len(), |i| face_vertices[face[i] as usize]);
                if let Some(point) = hit {
                    let witness = MeshWitness::edge_meets_face(owner, e, f, point);
                    contacts.push(witness);
                    if !options.all_contacts {
                        return Ok(Some(witness));
                    }
                }
            }
        }
    }
    Ok(contacts.first().copied())
}

/// The thesis's face collect phase: the faces of `poly` (at `vertices`) whose box overlaps
/// `other` (all faces without pre-checks), and every face's box.
fn collect_faces(
    poly: &Polyhedron,
    vertices: &[PointD],
    other: &WorldAabb,
    options: &ArbitraryOptions,
    boxes: &mut Vec<WorldAabb>,
    kept: &mut Vec<FaceId>,
) {
    let dcel = poly.dcel();
    boxes.clear();
    kept.clear();
    for f in 0..dcel.face_count() {
        let f = FaceId(f as u32);
        let b = box_of(dcel.face_vertices(f).iter().map(|&v| vertices[v as usize]));
        if !options.prechecks || b.overlaps(other) {
            kept.push(f);
        }
        boxes.push(b);
    }
}
