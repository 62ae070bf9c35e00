//! A polyhedron with its two box trees, and the exact surface-intersection query built on them.
//!
//! Rationale. The query runs in mesh 1's frame, like every pair query: mesh 2's vertices are
//! mapped into it with `pos12` in `f64` (through [`pose_to_f64`], lazily, each vertex at most once
//! per query, cached in the workspace under a query stamp as in the thesis's time-stamp scheme),
//! and the elementary edge-polygon test decides exactly on those coordinates. The box trees stay
//! in their own frames. Pruning is sound for that test because (a) every point of an element lies
//! in a leaf box that stores it (see [`BoxTree::validate`]), (b) the clipping test never calls
//! touching boxes disjoint and its margin (`1e-11` of the coordinate scale) dwarfs the `f64`
//! rounding of the mapped vertices, and (c) the leaf collect phase compares boxes in frame 1
//! with the same margin. So the answer is the one of the same test run on all edge-face pairs
//! ([`edge_face_intersect_all_pairs`]).
//!
//! Semantics: the surfaces intersect (some edge of one mesh meets some closed polygon of the
//! other; touching and coplanar overlap count). One closed mesh strictly inside the other is not
//! reported: that is a point-in-polyhedron question, asked separately.

use core::ops::ControlFlow;

use colldet_geom::Polyhedron;
use colldet_geom::bounding::Aabb;
use colldet_geom::dcel::{EdgeId, FaceId};
use colldet_geom::math::{Isometry, Point, PointD, to_f64};
use nalgebra::{Matrix3, Vector3};

use crate::error::NarrowError;
use crate::mesh::box_tree::box_clip::{ClipFrame, pose_to_f64};
use crate::mesh::box_tree::box_tree_traverse::traverse_with_frame;
use crate::mesh::box_tree::{BoxTree, BoxTreeOptions};

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

/// Which mesh of a pair an edge belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeOwner {
    /// The edge is mesh 1's, the face mesh 2's.
    Mesh1,
    /// The edge is mesh 2's, the face mesh 1's.
    Mesh2,
}

/// Witness of a surface intersection: an edge of one mesh meeting a face of the other.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EdgeFaceContact {
    /// Whose edge it is (the face belongs to the other mesh).
    pub edge_owner: EdgeOwner,
    /// The edge, in its owner's DCEL.
    pub edge: EdgeId,
    /// The face, in the other mesh's DCEL.
    pub face: FaceId,
    /// An approximate common point (mesh 1's frame, `f64`).
    pub point: PointD,
}

/// Counters of the last query run with a [`BoxTreeWorkspace`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoxTreeStats {
    /// Leaf pairs visited (both phases).
    pub leaf_pairs: u64,
    /// Exact edge-polygon tests run.
    pub edge_face_tests: u64,
    /// Mesh-2 vertices mapped into mesh 1's frame.
    pub vertices_mapped: u64,
}

/// Reusable buffers of the mesh-pair queries: mesh 2's vertices mapped into mesh 1's frame (filled
/// lazily, valid for one query), the collected faces of a leaf and a polygon buffer. Keep one per
/// thread and pass it to every query; buffers only grow, so queries do not allocate once warm.
#[derive(Clone, Debug, Default)]
pub struct BoxTreeWorkspace {
    mapped: Vec<PointD>,
    stamps: Vec<u32>,
    stamp: u32,
    collected: Vec<(u32, Bounds)>,
    polygon: Vec<PointD>,
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
    }
}

/// A closed box in `f64`.
#[derive(Clone, Copy, Debug)]
struct Bounds {
    lo: [f64; 3],
    hi: [f64; 3],
}

impl Bounds {
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
    ws: &mut BoxTreeWorkspace,
    vertices2: &[Point],
    rot: &Matrix3<f64>,
    trans: &Vector3<f64>,
    v: u32,
) -> PointD {
    let i = v as usize;
    if ws.stamps[i] != ws.stamp {
        ws.stamps[i] = ws.stamp;
        ws.mapped[i] = PointD::from(rot * to_f64(&vertices2[i]).coords + trans);
        ws.stats.vertices_mapped += 1;
    }
    ws.mapped[i]
}

/// The exact elementary test: does the closed segment `u v` meet the closed polygon (corners in
/// order, one frame)? Returns an approximate common point when it does.
pub(crate) type EdgePolygonTest<'t> = dyn FnMut(&PointD, &PointD, &[PointD]) -> Option<PointD> + 't;

/// Box-tree surface intersection of `mesh1` and `mesh2` (`pos12` maps mesh 2's frame into mesh
/// 1's) with the elementary test `test`: traverses mesh 1's edge tree against mesh 2's face tree,
/// then mesh 2's edge tree against mesh 1's face tree, and runs the leaf collect phase and the
/// elementary test on each visited leaf pair. Returns the first contact found.
pub(crate) fn box_tree_intersect_with(
    mesh1: &BoxTreeMesh,
    mesh2: &BoxTreeMesh,
    pos12: &Isometry,
    ws: &mut BoxTreeWorkspace,
    test: &mut EdgePolygonTest<'_>,
) -> Result<Option<EdgeFaceContact>, NarrowError> {
    let (rot, trans) = pose_to_f64(pos12)?;
    let p1 = &mesh1.polyhedron;
    let p2 = &mesh2.polyhedron;
    let (v1, v2) = (p1.vertices(), p2.vertices());
    let (dcel1, dcel2) = (p1.dcel(), p2.dcel());
    ws.begin(v2.len());

    // Phase 1: edges of mesh 1 (frame 1) against faces of mesh 2 (frame 2).
    let frame = ClipFrame::from_f64(&mesh1.edge_tree.root_box, &mesh2.face_tree.root_box, &rot, &trans);
    let margin = frame.margin();
    let found = traverse_with_frame(&mesh1.edge_tree, &mesh2.face_tree, &frame, |edges, faces| {
        ws.stats.leaf_pairs += 1;
        let leaf_box = Bounds::of_aabb(&edges.bounds, margin);
        ws.collected.clear();
        for &f in faces.elements {
            let corners = dcel2.face_vertices(FaceId(f));
            let mut b = Bounds::of_point(&mapped_vertex(ws, v2, &rot, &trans, corners[0]));
            for &c in &corners[1..] {
                b.include(&mapped_vertex(ws, v2, &rot, &trans, c));
            }
            if b.overlaps(&leaf_box) {
                ws.collected.push((f, b));
            }
        }
        if ws.collected.is_empty() {
            return ControlFlow::Continue(());
        }
        for &e in edges.elements {
            let edge_box = Bounds::of_aabb(&mesh1.edge_boxes[e as usize], 0.0);
            let [a, b] = dcel1.edge_vertices(EdgeId(e));
            let (u, v) = (to_f64(&v1[a.index()]), to_f64(&v1[b.index()]));
            for k in 0..ws.collected.len() {
                let (f, face_box) = ws.collected[k];
                if !edge_box.overlaps(&face_box) {
                    continue;
                }
                ws.polygon.clear();
                for &c in dcel2.face_vertices(FaceId(f)) {
                    ws.polygon.push(ws.mapped[c as usize]);
                }
                ws.stats.edge_face_tests += 1;
                if let Some(point) = test(&u, &v, &ws.polygon) {
                    return ControlFlow::Break(EdgeFaceContact {
                        edge_owner: EdgeOwner::Mesh1,
                        edge: EdgeId(e),
                        face: FaceId(f),
                        point,
                    });
                }
            }
        }
        ControlFlow::Continue(())
    });
    if found.is_some() {
        return Ok(found);
    }

    // Phase 2: edges of mesh 2 (frame 2) against faces of mesh 1 (frame 1), decided in frame 1.
    let rot21 = rot.transpose();
    let trans21 = -(rot21 * trans);
    let frame = ClipFrame::from_f64(
        &mesh2.edge_tree.root_box,
        &mesh1.face_tree.root_box,
        &rot21,
        &trans21,
    );
    let margin = frame.margin();
    let found = traverse_with_frame(&mesh2.edge_tree, &mesh1.face_tree, &frame, |edges, faces| {
        ws.stats.leaf_pairs += 1;
        let leaf_box = Bounds::mapped(&edges.bounds, &rot, &trans, margin);
        ws.collected.clear();
        for &f in faces.elements {
            let b = Bounds::of_aabb(&mesh1.face_boxes[f as usize], 0.0);
            if b.overlaps(&leaf_box) {
                ws.collected.push((f, b));
            }
        }
        if ws.collected.is_empty() {
            return ControlFlow::Continue(());
        }
        for &e in edges.elements {
            let [a, b] = dcel2.edge_vertices(EdgeId(e));
            let u = mapped_vertex(ws, v2, &rot, &trans, a.0);
            let v = mapped_vertex(ws, v2, &rot, &trans, b.0);
            let mut edge_box = Bounds::of_point(&u);
            edge_box.include(&v);
            for k in 0..ws.collected.len() {
                let (f, face_box) = ws.collected[k];
                if !edge_box.overlaps(&face_box) {
                    continue;
                }
                ws.polygon.clear();
                for &c in dcel1.face_vertices(FaceId(f)) {
                    ws.polygon.push(to_f64(&v1[c as usize]));
                }
                ws.stats.edge_face_tests += 1;
                if let Some(point) = test(&u, &v, &ws.polygon) {
                    return ControlFlow::Break(EdgeFaceContact {
                        edge_owner: EdgeOwner::Mesh2,
                        edge: EdgeId(e),
                        face: FaceId(f),
                        point,
                    });
                }
            }
        }
        ControlFlow::Continue(())
    });
    Ok(found)
}

/// The reference for [`box_tree_intersect_with`]: every edge of each polyhedron against every
/// face of the other, in mesh 1's frame on the same mapped coordinates, with only the exact
/// AABB pre-checks of the thesis's conventional algorithm (edge box against face box; faces and
/// edges outside the other mesh's box are skipped). Same answer, no tree.
pub(crate) fn edge_face_intersect_all_pairs_with(
    mesh1: &Polyhedron,
    mesh2: &Polyhedron,
    pos12: &Isometry,
    ws: &mut BoxTreeWorkspace,
    test: &mut EdgePolygonTest<'_>,
) -> Result<Option<EdgeFaceContact>, NarrowError> {
    let (rot, trans) = pose_to_f64(pos12)?;
    let (v1, v2) = (mesh1.vertices(), mesh2.vertices());
    let (dcel1, dcel2) = (mesh1.dcel(), mesh2.dcel());
    ws.begin(v2.len());
    for v in 0..v2.len() as u32 {
        mapped_vertex(ws, v2, &rot, &trans, v);
    }
    let face_bounds = |corners: &[u32], points: &dyn Fn(u32) -> PointD| {
        let mut b = Bounds::of_point(&points(corners[0]));
        for &c in &corners[1..] {
            b.include(&points(c));
        }
        b
    };
    let mapped = &ws.mapped;
    let point1 = |i: u32| to_f64(&v1[i as usize]);
    let point2 = |i: u32| mapped[i as usize];
    let mut all1 = Bounds::of_point(&point1(0));
    for i in 0..v1.len() as u32 {
        all1.include(&point1(i));
    }
    let mut all2 = Bounds::of_point(&point2(0));
    for i in 0..v2.len() as u32 {
        all2.include(&point2(i));
    }
    // (mesh whose edges, its points, other mesh's dcel, other's points, other's box, owner)
    for owner in [EdgeOwner::Mesh1, EdgeOwner::Mesh2] {
        let (edge_dcel, face_dcel, edge_points, face_points, other_box): (
            _,
            _,
            &dyn Fn(u32) -> PointD,
            &dyn Fn(u32) -> PointD,
            _,
        ) = match owner {
            EdgeOwner::Mesh1 => (dcel1, dcel2, &point1, &point2, all1),
            EdgeOwner::Mesh2 => (dcel2, dcel1, &point2, &point1, all2),
        };
        // Face collect: faces overlapping the edge mesh's box.
        ws.collected.clear();
        for f in 0..face_dcel.face_count() as u32 {
            let b = face_bounds(face_dcel.face_vertices(FaceId(f)), face_points);
            if b.overlaps(&other_box) {
                ws.collected.push((f, b));
            }
        }
        for e in 0..edge_dcel.edge_count() as u32 {
            let [a, b] = edge_dcel.edge_vertices(EdgeId(e));
            let (u, v) = (edge_points(a.0), edge_points(b.0));
            let mut edge_box = Bounds::of_point(&u);
            edge_box.include(&v);
            for &(f, face_box) in &ws.collected {
                if !edge_box.overlaps(&face_box) {
                    continue;
                }
                ws.polygon.clear();
                for &c in face_dcel.face_vertices(FaceId(f)) {
                    ws.polygon.push(face_points(c));
                }
                ws.stats.edge_face_tests += 1;
                if let Some(point) = test(&u, &v, &ws.polygon) {
                    return Ok(Some(EdgeFaceContact {
                        edge_owner: owner,
                        edge: EdgeId(e),
                        face: FaceId(f),
                        point,
                    }));
                }
            }
        }
    }
    Ok(None)
}
