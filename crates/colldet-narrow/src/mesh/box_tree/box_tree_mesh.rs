//! A polyhedron with its two box trees, and the exact surface-intersection query built on them.
//!
//! Rationale. The query runs in mesh 1's frame, like every pair query: mesh 2's vertices are
//! mapped into it by `pos12` in `f64` exactly as [`crate::mesh::thesis_arbitrary()`] maps them
//! (same renormalised pose, same formula), but lazily, each vertex at most once per query, cached
//! in the workspace under a query stamp (the thesis's time-stamp scheme), and the exact
//! edge-polygon test of [`crate::mesh::edge_polygon`] decides on those coordinates. The box trees
//! stay in their own frames. Pruning never loses a contact because (a) every point of an element
//! lies in a leaf box that stores it (see [`BoxTree::validate`]), (b) the clipping test never
//! calls touching boxes disjoint and its margin (`1e-11` of the coordinate scale) dwarfs the
//! `f64` rounding of the mapped vertices, and (c) the leaf collect phase compares boxes in frame
//! 1 with the same margin. So the answer (collision or not) is exactly the one of the all-pairs
//! test [`crate::mesh::thesis_arbitrary()`]; the witness may be a different contact.
//!
//! Semantics: the surfaces intersect (some edge of one mesh meets some closed polygon of the
//! other; touching and coplanar overlap count). One closed mesh strictly inside the other is not
//! reported: that is [`crate::mesh::meshes_collide`]'s point-in-polyhedron step.

use crate::{PoseMatrix, RelativePose};
use core::ops::ControlFlow;
use std::collections::HashSet;

use colldet_geom::Polyhedron;
use colldet_geom::bounding::Aabb;
use colldet_geom::dcel::{EdgeId, FaceId};
use colldet_geom::math::{PointD, to_f64};
use nalgebra::{Matrix3, Vector3};

use crate::error::NarrowError;
use crate::mesh::box_tree::box_clip::ClipFrame;
use crate::mesh::box_tree::box_tree::BoxTreeLeaf;
use crate::mesh::box_tree::box_tree_traverse::traverse_with_frame;
use crate::mesh::box_tree::{BoxTree, BoxTreeOptions};
use crate::mesh::edge_polygon::edge_polygon_with;
use crate::mesh::witness::MeshWitness;
#[cfg(doc)]
use crate::mesh::witness::WitnessKind;
use crate::thesis::PairMember;

/// A polyhedron with a box tree over its faces and one over its edges (thesis 3.6: separate
/// trees, so edges of P are traversed against faces of Q and vice versa). Everything is in the
/// polyhedron's local frame.
#[derive(Clone, Debug)]
pub struct BoxTreeMesh {
    polyhedron: Polyhedron,
    face_boxes: Vec<Aabb>,
    edge_boxes: Vec<Aabb>,
    face_tree: BoxTree,
    edge_tree: BoxTree,
    /// Faces / edges stored in more than one leaf: their pairs are remembered per query so that
    /// no edge-face pair is tested twice (per phase: the set restarts for the second).
    face_duplicated: Vec<bool>,
    edge_duplicated: Vec<bool>,
}

impl BoxTreeMesh {
    /// Builds both trees of `polyhedron` (face `f` of the DCEL is face element `f`, edge `e` is
    /// edge element `e`).
    ///
    /// # Errors
    /// [`NarrowError::InvalidBoxTreeOption`] for options out of range, [`NarrowError::EmptyBoxTree`]
    /// for a polyhedron without faces or edges.
    pub fn new(polyhedron: Polyhedron, options: &BoxTreeOptions) -> Result<Self, NarrowError> {
        let vertices = polyhedron.vertices();
        let dcel = polyhedron.dcel();
        let face_boxes: Vec<Aabb> = (0..dcel.face_count())
            .map(|f| {
                let corners = dcel.face_vertices(FaceId(f as u32));
                let mut b = Aabb::from_point(vertices[corners[0] as usize]);
                for &v in &corners[1..] {
                    b.include_point(&vertices[v as usize]);
                }
                b
            })
            .collect();
        let edge_boxes: Vec<Aabb> = (0..dcel.edge_count())
            .map(|e| {
                let [a, b] = dcel.edge_vertices(EdgeId(e as u32));
                let mut bounds = Aabb::from_point(vertices[a.index()]);
                bounds.include_point(&vertices[b.index()]);
                bounds
            })
            .collect();
        let face_tree = BoxTree::build(&face_boxes, options)?;
        let edge_tree = BoxTree::build(&edge_boxes, options)?;
        Ok(Self {
            polyhedron,
            face_boxes,
            edge_boxes,
            face_duplicated: face_tree.duplicated_elements(),
            edge_duplicated: edge_tree.duplicated_elements(),
            face_tree,
            edge_tree,
        })
    }

    /// The polyhedron.
    pub fn polyhedron(&self) -> &Polyhedron {
        &self.polyhedron
    }

    /// The box tree over the faces.
    pub fn face_tree(&self) -> &BoxTree {
        &self.face_tree
    }

    /// The box tree over the edges.
    pub fn edge_tree(&self) -> &BoxTree {
        &self.edge_tree
    }

    /// Local AABB of each face (indexed by [`FaceId`]).
    pub fn face_boxes(&self) -> &[Aabb] {
        &self.face_boxes
    }

    /// Local AABB of each edge (indexed by [`EdgeId`]).
    pub fn edge_boxes(&self) -> &[Aabb] {
        &self.edge_boxes
    }

    /// Validates both trees against the element boxes ([`BoxTree::validate`]).
    ///
    /// # Errors
    /// [`NarrowError::BrokenInvariant`] naming the broken check.
    pub fn validate(&self) -> Result<(), NarrowError> {
        self.face_tree.validate(&self.face_boxes)?;
        self.edge_tree.validate(&self.edge_boxes)
    }
}

/// Counters of the last query run with a [`BoxTreeWorkspace`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoxTreeStats {
    /// Box splits of the traversal (each derives the clipping states of two child pairs).
    pub box_splits: u64,
    /// Leaf pairs visited (both phases).
    pub leaf_pairs: u64,
    /// Exact edge-polygon tests run.
    pub edge_face_tests: u64,
    /// Mesh-2 vertices mapped into mesh 1's frame.
    pub vertices_mapped: u64,
}

/// Reusable buffers of [`box_tree_intersect`]: mesh 2's vertices mapped into mesh 1's frame
/// (filled lazily, valid for one query), the collected faces of a leaf, and the edge-face pairs
/// of duplicated elements already tested. Keep one per thread and pass it to every query; buffers
/// only grow, so queries do not allocate once warm.
#[derive(Clone, Debug, Default)]
pub struct BoxTreeWorkspace {
    mapped: Vec<PointD>,
    stamps: Vec<u32>,
    stamp: u32,
    collected: Vec<(u32, Bounds)>,
    tested: HashSet<(u32, u32)>,
    stats: BoxTreeStats,
}

impl BoxTreeWorkspace {
    /// An empty workspace.
    pub fn new() -> Self {
        Self::default()
    }

    /// Counters of the last query.
    pub fn stats(&self) -> BoxTreeStats {
        self.stats
    }

    /// Starts a query against a mesh 2 with `vertex_count` vertices: invalidates the mapped
    /// vertices in O(1) (a new stamp) and clears the counters.
    fn begin(&mut self, vertex_count: usize) {
        if self.stamps.len() < vertex_count {
            self.stamps.resize(vertex_count, 0);
            self.mapped.resize(vertex_count, PointD::origin());
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.stamps.fill(0);
            self.stamp = 1;
        }
        self.stats = BoxTreeStats::default();
        self.tested.clear();
    }
}

/// A closed box in `f64`.
#[derive(Clone, Copy, Debug)]
struct Bounds {
    lo: [f64; 3],
    hi: [f64; 3],
}

impl Bounds {
    /// The empty box (overlaps nothing until a box is merged in).
    fn empty() -> Self {
        Self {
            lo: [f64::INFINITY; 3],
            hi: [f64::NEG_INFINITY; 3],
        }
    }

    fn merge(&mut self, other: &Bounds) {
        for k in 0..3 {
            self.lo[k] = self.lo[k].min(other.lo[k]);
            self.hi[k] = self.hi[k].max(other.hi[k]);
        }
    }

    fn of_point(p: &PointD) -> Self {
        Self {
            lo: [p.x, p.y, p.z],
            hi: [p.x, p.y, p.z],
        }
    }

    fn include(&mut self, p: &PointD) {
        for k in 0..3 {
            self.lo[k] = self.lo[k].min(p[k]);
            self.hi[k] = self.hi[k].max(p[k]);
        }
    }

    fn of_aabb(b: &Aabb, margin: f64) -> Self {
        let mut out = Self::of_point(&to_f64(&b.mins));
        out.include(&to_f64(&b.maxs));
        for k in 0..3 {
            out.lo[k] -= margin;
            out.hi[k] += margin;
        }
        out
    }

    /// The frame-1 box of the frame-2 box `b` (Arvo's method), widened by `margin`.
    fn mapped(b: &Aabb, rot: &Matrix3<f64>, trans: &Vector3<f64>, margin: f64) -> Self {
        let mut out = Self {
            lo: [0.0; 3],
            hi: [0.0; 3],
        };
        for i in 0..3 {
            let (mut lo, mut hi) = (trans[i], trans[i]);
            for j in 0..3 {
                let x = rot[(i, j)] * f64::from(b.mins[j]);
                let y = rot[(i, j)] * f64::from(b.maxs[j]);
                lo += x.min(y);
                hi += x.max(y);
            }
            out.lo[i] = lo - margin;
            out.hi[i] = hi + margin;
        }
        out
    }

    #[inline]
    fn overlaps(&self, other: &Bounds) -> bool {
        (0..3).all(|k| self.lo[k] <= other.hi[k] && other.lo[k] <= self.hi[k])
    }
}

/// Mesh 2's vertex `v` in mesh 1's frame (cached for the current query).
#[inline]
fn mapped_vertex(
    mapped: &mut [PointD],
    stamps: &mut [u32],
    stamp: u32,
    stats: &mut BoxTreeStats,
    mesh2: &Polyhedron,
    pose: &PoseMatrix,
    v: u32,
) -> PointD {
    let i = v as usize;
    if stamps[i] != stamp {
        stamps[i] = stamp;
        mapped[i] = pose.transform_point(&mesh2.vertex_f64(i));
        stats.vertices_mapped += 1;
    }
    mapped[i]
}

/// Traverses the edge tree of `edges` against the face tree of `faces`, the face mesh's frame
/// mapped into the edge mesh's by `rot`, `trans` (`f64`), with the clipping tables of the two
/// root boxes. Each intersecting leaf pair (edge leaf first, boxes in their own meshes' frames)
/// goes to `leaf_pair` with the margin of the clipping test (length, edge mesh's frame); returns
/// the witness `leaf_pair` stopped at, if any, and the number of box splits.
#[inline]
fn traverse_edges_faces(
    edges: &BoxTreeMesh,
    faces: &BoxTreeMesh,
    rot: &Matrix3<f64>,
    trans: &Vector3<f64>,
    mut leaf_pair: impl FnMut(BoxTreeLeaf<'_>, BoxTreeLeaf<'_>, f64) -> ControlFlow<MeshWitness>,
) -> (Option<MeshWitness>, u64) {
    let rounding = edges.polyhedron.vertex_rounding() + faces.polyhedron.vertex_rounding();
    let frame = ClipFrame::from_f64(
        &edges.edge_tree.root_box,
        &faces.face_tree.root_box,
        rot,
        trans,
    )
    .widened(rounding);
    let margin = frame.margin();
    traverse_with_frame(&edges.edge_tree, &faces.face_tree, &frame, |e, f| {
        leaf_pair(e, f, margin)
    })
}

/// The thesis's collect phase for a leaf pair: the faces among `faces` whose box (`face_box(f)`,
/// mesh 1's frame) meets `leaf_box`, the other leaf's box in mesh 1's frame, go into `collected`
/// with their boxes. Returns the box of the collected faces, `None` when there is none.
#[inline]
fn collect_faces(
    collected: &mut Vec<(u32, Bounds)>,
    faces: &[u32],
    leaf_box: &Bounds,
    mut face_box: impl FnMut(u32) -> Bounds,
) -> Option<Bounds> {
    collected.clear();
    let mut reach = Bounds::empty();
    for &f in faces {
        let b = face_box(f);
        if b.overlaps(leaf_box) {
            reach.merge(&b);
            collected.push((f, b));
        }
    }
    (!collected.is_empty()).then_some(reach)
}

/// An edge of a leaf, in mesh 1's frame: the mesh it belongs to, its id there, whether its tree
/// stores it in more than one leaf, its end points and its box.
struct LeafEdge {
    of: PairMember,
    id: u32,
    duplicated: bool,
    u: PointD,
    v: PointD,
    bounds: Bounds,
}

/// The first contact of `edge` with the `collected` faces of `faces` (the other mesh; face boxes
/// in mesh 1's frame), by the exact edge-polygon test, with an approximate point in mesh 1's
/// frame. `corner(c)` is vertex `c` of `faces` in mesh 1's frame. Faces whose box misses the
/// edge's are skipped, and so is an edge-face pair of duplicated elements already in `tested`
/// (it is recorded there otherwise). Each exact test is counted in `stats`.
#[inline]
fn first_contact(
    edge: &LeafEdge,
    faces: &BoxTreeMesh,
    collected: &[(u32, Bounds)],
    tested: &mut HashSet<(u32, u32)>,
    stats: &mut BoxTreeStats,
    corner: impl Fn(u32) -> PointD,
) -> Option<MeshWitness> {
    let dcel = faces.polyhedron.dcel();
    for &(f, face_box) in collected {
        if !edge.bounds.overlaps(&face_box) {
            continue;
        }
        if (edge.duplicated || faces.face_duplicated[f as usize]) && !tested.insert((edge.id, f)) {
            continue;
        }
        stats.edge_face_tests += 1;
        let corners = dcel.face_vertices(FaceId(f));
        let hit = edge_polygon_with(&edge.u, &edge.v, corners.len(), |i| corner(corners[i]));
        if let Some(point) = hit {
            return Some(MeshWitness::edge_meets_face(
                edge.of,
                EdgeId(edge.id),
                FaceId(f),
                point,
            ));
        }
    }
    None
}

/// Exact surface intersection of `mesh1` and `mesh2` placed at `pos12` (the pose of mesh 2 in
/// mesh 1's frame) by box-tree traversal (thesis 3.6): mesh 1's edge tree against mesh 2's face
/// tree, then mesh 2's edge tree against mesh 1's face tree; on each pair of intersecting leaves,
/// the thesis's collect phase (faces whose box misses the other leaf's box are dropped), an edge
/// box against face box check, and the exact edge-polygon test. Returns the first contact found:
/// [`WitnessKind::EdgeFace`] (edge of mesh 1, face of mesh 2) or [`WitnessKind::FaceEdge`], with
/// an approximate point in mesh 1's frame.
///
/// The answer equals [`crate::mesh::thesis_arbitrary()`]'s for the same pose (exact for mesh 2's
/// vertices mapped into mesh 1's frame in `f64`; touching and coplanar contacts count).
/// Containment without surface contact is not reported. No allocation once `workspace` has grown
/// to mesh 2's vertex count and the largest leaf.
///
/// # Errors
/// [`NarrowError::NonFinite`] for a NaN or infinite `pos12`.
pub fn box_tree_intersect(
    mesh1: &BoxTreeMesh,
    mesh2: &BoxTreeMesh,
    pos12: &impl RelativePose,
    workspace: &mut BoxTreeWorkspace,
) -> Result<Option<MeshWitness>, NarrowError> {
    let pose = PoseMatrix::widen(pos12)?;
    let (rot, trans): (Matrix3<f64>, Vector3<f64>) = (*pose.rotation(), *pose.translation());
    let p1 = &mesh1.polyhedron;
    let p2 = &mesh2.polyhedron;
    let (dcel1, dcel2) = (p1.dcel(), p2.dcel());
    // Mesh 1's element boxes fit the `f32` copies of its vertices; widened by the rounding they
    // hold the vertices as given.
    let r1 = p1.vertex_rounding();
    workspace.begin(p2.vertices().len());
    let BoxTreeWorkspace {
        mapped,
        stamps,
        stamp,
        collected,
        tested,
        stats,
    } = workspace;
    let stamp = *stamp;

    // Phase 1: edges of mesh 1 (frame 1) against faces of mesh 2 (frame 2), decided in frame 1.
    let (found, splits) =
        traverse_edges_faces(mesh1, mesh2, &rot, &trans, |edges, faces, margin| {
            stats.leaf_pairs += 1;
            let leaf_box = Bounds::of_aabb(&edges.bounds, margin);
            let face_box = |f: u32| {
                let corners = dcel2.face_vertices(FaceId(f));
                let mut b = Bounds::of_point(&mapped_vertex(
                    mapped, stamps, stamp, stats, p2, &pose, corners[0],
                ));
                for &c in &corners[1..] {
                    b.include(&mapped_vertex(mapped, stamps, stamp, stats, p2, &pose, c));
                }
                b
            };
            let Some(reach) = collect_faces(collected, faces.elements, &leaf_box, face_box) else {
                return ControlFlow::Continue(());
            };
            for &e in edges.elements {
                let bounds = Bounds::of_aabb(&mesh1.edge_boxes[e as usize], r1);
                if !bounds.overlaps(&reach) {
                    continue;
                }
                let [a, b] = dcel1.edge_vertices(EdgeId(e));
                let edge = LeafEdge {
                    of: PairMember::Shape1,
                    id: e,
                    duplicated: mesh1.edge_duplicated[e as usize],
                    u: p1.vertex_f64(a.index()),
                    v: p1.vertex_f64(b.index()),
                    bounds,
                };
                let corner = |c: u32| mapped[c as usize];
                let hit = first_contact(&edge, mesh2, collected, tested, stats, corner);
                if let Some(witness) = hit {
                    return ControlFlow::Break(witness);
                }
            }
            ControlFlow::Continue(())
        });
    stats.box_splits += splits;
    if found.is_some() {
        return Ok(found);
    }

    // Phase 2: edges of mesh 2 (frame 2) against faces of mesh 1 (frame 1), decided in frame 1.
    // Its pairs are (mesh-2 edge, mesh-1 face): the numbers of phase 1's pairs mean other
    // elements, so the set of tested pairs starts again.
    tested.clear();
    let rot21 = rot.transpose();
    let trans21 = -(rot21 * trans);
    let (found, splits) =
        traverse_edges_faces(mesh2, mesh1, &rot21, &trans21, |edges, faces, margin| {
            stats.leaf_pairs += 1;
            let leaf_box = Bounds::mapped(&edges.bounds, &rot, &trans, margin);
            let face_box = |f: u32| Bounds::of_aabb(&mesh1.face_boxes[f as usize], r1);
            let Some(reach) = collect_faces(collected, faces.elements, &leaf_box, face_box) else {
                return ControlFlow::Continue(());
            };
            for &e in edges.elements {
                let [a, b] = dcel2.edge_vertices(EdgeId(e));
                let u = mapped_vertex(mapped, stamps, stamp, stats, p2, &pose, a.0);
                let v = mapped_vertex(mapped, stamps, stamp, stats, p2, &pose, b.0);
                let mut bounds = Bounds::of_point(&u);
                bounds.include(&v);
                if !bounds.overlaps(&reach) {
                    continue;
                }
                let edge = LeafEdge {
                    of: PairMember::Shape2,
                    id: e,
                    duplicated: mesh2.edge_duplicated[e as usize],
                    u,
                    v,
                    bounds,
                };
                let corner = |c: u32| p1.vertex_f64(c as usize);
                let hit = first_contact(&edge, mesh1, collected, tested, stats, corner);
                if let Some(witness) = hit {
                    return ControlFlow::Break(witness);
                }
            }
            ControlFlow::Continue(())
        });
    stats.box_splits += splits;
    Ok(found)
}
