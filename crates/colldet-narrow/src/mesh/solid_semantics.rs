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
//!
//! [`containment_bvh`] answers the containment half for meshes with a [`MeshBvh`]: the component
//! seeds are found once ([`ComponentSeeds`]), a seed outside the container's box is outside, and
//! the others are located by a ray cast through the container's tree
//! ([`point_in_polyhedron_bvh`]). Same answers and witnesses as [`containment_with`].

use super::bvh::{BvhVolume, MeshBvh, MeshQueryWorkspace};
use super::point_in_polyhedron::{PointLocation, encloses_solid, point_in_polyhedron_with};
use super::point_in_polyhedron_bvh::point_in_polyhedron_bvh;
use super::thesis_arbitrary::{ArbitraryOptions, ArbitraryWorkspace, thesis_arbitrary};
use super::witness::MeshWitness;
#[cfg(doc)]
use super::witness::{MeshFeature, WitnessKind};
use crate::NarrowError;
use crate::thesis::PairMember;
use crate::{PoseMatrix, RelativePose};
use colldet_geom::dcel::VertexId;
use colldet_geom::math::PointD;
use colldet_geom::{Aabb, Polyhedron};

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
    pos12: &impl RelativePose,
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
    pos12: &impl RelativePose,
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
    pos12: &impl RelativePose,
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
    let union_find = &mut ws.union_find;
    if encloses_solid(q)
        && let Some((v, point)) =
            component_inside(p, &ws.p_vertices, q, &ws.q_vertices, union_find)?
    {
        let witness = MeshWitness::vertex_inside(PairMember::Shape1, v, point);
        return Ok(Some(witness));
    }
    if encloses_solid(p)
        && let Some((v, point)) =
            component_inside(q, &ws.q_vertices, p, &ws.p_vertices, union_find)?
    {
        let witness = MeshWitness::vertex_inside(PairMember::Shape2, v, point);
        return Ok(Some(witness));
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

/// One vertex per connected component of a polyhedron (vertices linked by faces), in the order
/// the containment tests try them, and the box of the vertices its faces use: what
/// [`containment_bvh`] needs beyond the polyhedron and its tree. Computed once per mesh.
#[derive(Clone, Debug)]
pub struct ComponentSeeds {
    seeds: Vec<VertexId>,
    /// Box of the used vertices' `f32` copies; widened by `rounding` it holds them as given.
    bounds: Aabb,
    rounding: f64,
    vertex_count: usize,
}

impl ComponentSeeds {
    /// The seeds of `poly`: for each component, the first corner of its first face.
    pub fn new(poly: &Polyhedron) -> Self {
        let n = poly.vertices().len();
        let mut parent: Vec<u32> = (0..n as u32).collect();
        let faces = poly.dcel().faces();
        for face in faces.iter() {
            let r0 = find(&mut parent, face[0]);
            for &v in &face[1..] {
                let r = find(&mut parent, v);
                parent[r as usize] = r0;
            }
        }
        let mut seen = vec![false; n];
        let mut seeds = Vec::new();
        let first = faces.iter().next().map_or(0, |f| f[0]);
        let mut bounds = Aabb::from_point(poly.vertices()[first as usize]);
        for face in faces.iter() {
            for &v in face {
                bounds.include_point(&poly.vertices()[v as usize]);
            }
            let root = find(&mut parent, face[0]) as usize;
            if !seen[root] {
                seen[root] = true;
                seeds.push(VertexId(face[0]));
            }
        }
        Self {
            seeds,
            bounds,
            rounding: poly.vertex_rounding(),
            vertex_count: n,
        }
    }

    /// The seed vertices, one per connected component.
    pub fn seeds(&self) -> &[VertexId] {
        &self.seeds
    }

    /// The box of the vertices the faces use, local frame.
    pub fn bounds(&self) -> &Aabb {
        &self.bounds
    }
}

/// A mesh as [`containment_bvh`] sees it: the polyhedron, a tree built from its vertices and faces
/// (in order) and its [`ComponentSeeds`].
#[derive(Clone, Copy, Debug)]
pub struct SolidMesh<'a, V: BvhVolume> {
    polyhedron: &'a Polyhedron,
    bvh: &'a MeshBvh<V>,
    seeds: &'a ComponentSeeds,
}

impl<'a, V: BvhVolume> SolidMesh<'a, V> {
    /// Bundles the parts, checking they describe the same vertices.
    ///
    /// # Errors
    /// [`NarrowError::InvalidParameter`] when `bvh` or `seeds` has another vertex count than
    /// `polyhedron`.
    pub fn new(
        polyhedron: &'a Polyhedron,
        bvh: &'a MeshBvh<V>,
        seeds: &'a ComponentSeeds,
    ) -> Result<Self, NarrowError> {
        let n = polyhedron.vertices().len();
        if bvh.vertices().len() != n || seeds.vertex_count != n {
            return Err(NarrowError::InvalidParameter {
                parameter: "SolidMesh",
                requirement: "tree and seeds must be built from the polyhedron",
            });
        }
        Ok(Self {
            polyhedron,
            bvh,
            seeds,
        })
    }
}

/// Relative margin of the box pre-check of a seed mapped back into the container's frame: far
/// above the rounding of the mappings.
const SEED_BOX_MARGIN: f64 = 1e-9;

/// [`containment_with`] for meshes with trees: is a component of one object inside the other,
/// closed, one (`pos12`: `q`'s pose in `p`'s frame)? Same answers and witnesses as
/// [`containment_with`] (`q`'s vertices mapped into `p`'s frame in `f64`), at the cost of a ray
/// cast through the container's tree per component seed that lies in the container's box. No
/// allocation once `ws` has grown.
///
/// # Errors
/// [`NarrowError::NonFinite`] for a NaN or infinite `pos12`.
pub fn containment_bvh<V: BvhVolume>(
    p: &SolidMesh<'_, V>,
    q: &SolidMesh<'_, V>,
    pos12: &impl RelativePose,
    ws: &mut MeshQueryWorkspace,
) -> Result<Option<MeshWitness>, NarrowError> {
    let pose = PoseMatrix::widen(pos12)?;
    if encloses_solid(q.polyhedron) {
        // p's seeds (p's frame) against q's triangles mapped into p's frame.
        let bounds = &q.seeds.bounds;
        let scale = f64::from(bounds.mins.coords.abs().sum() + bounds.maxs.coords.abs().sum())
            + pose.translation().abs().sum();
        for &v in &p.seeds.seeds {
            let point = p.polyhedron.vertex_f64(v.index());
            let local = pose.inverse_transform_point(&point);
            let margin = SEED_BOX_MARGIN * (scale + point.coords.abs().sum()) + q.seeds.rounding;
            if !in_box(bounds, &local, margin) {
                continue;
            }
            let at = point_in_polyhedron_bvh(
                q.polyhedron,
                q.bvh,
                Some(&pose),
                &point,
                &mut ws.ray_stack,
            )?;
            if at != PointLocation::Outside {
                let witness = MeshWitness::vertex_inside(PairMember::Shape1, v, point);
                return Ok(Some(witness));
            }
        }
    }
    if encloses_solid(p.polyhedron) {
        // q's seeds mapped into p's frame against p's own triangles.
        for &v in &q.seeds.seeds {
            let point = pose.transform_point(&q.polyhedron.vertex_f64(v.index()));
            if !in_box(&p.seeds.bounds, &point, p.seeds.rounding) {
                continue;
            }
            let at = point_in_polyhedron_bvh(p.polyhedron, p.bvh, None, &point, &mut ws.ray_stack)?;
            if at != PointLocation::Outside {
                let witness = MeshWitness::vertex_inside(PairMember::Shape2, v, point);
                return Ok(Some(witness));
            }
        }
    }
    Ok(None)
}

/// True when `p` lies in the closed box grown by `margin` (exact when `margin` is the box's
/// vertex rounding: a point outside the box of a solid's vertices is outside the solid).
#[inline]
fn in_box(b: &Aabb, p: &PointD, margin: f64) -> bool {
    (0..3).all(|k| f64::from(b.mins[k]) - margin <= p[k] && p[k] <= f64::from(b.maxs[k]) + margin)
}
