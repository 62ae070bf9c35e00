//! Simultaneous traversal of two [`MeshBvh`]s: which triangles of the two surfaces intersect.
//!
//! Tree 2 is never transformed wholesale: each node pair is tested with the volumes' pair test
//! under the prepared `pos12` ([`BvhPairFrame`]), and only the triangles of leaf pairs that
//! survive are mapped into shape 1's frame (in `f64`) and handed to the leaf test. A tree-2
//! node's mapped volume is kept while the traversal tests it against tree 1's nodes
//! (`placed_volume.rs`). The traversal
//! stack and the hit list live in a [`MeshQueryWorkspace`] owned by the caller, so a query
//! allocates nothing once the workspace has grown to the deepest stack and the largest hit list.

use super::pair_queue::PairQueue;
use super::placed_volume::PlacementCache;
use super::{BvhNode, BvhPairFrame, BvhVolume, MeshBvh, SourceFaceId, TriangleId};
use crate::NarrowError;
use crate::RelativePose;
use crate::mesh::triangles_intersect_f64;
use colldet_geom::math::PointD;

/// A triangle-triangle leaf test. Both triangles are in shape 1's frame: `t1` is shape 1's
/// triangle widened to `f64`, `t2` is shape 2's triangle mapped by `pos12` in `f64`. Must return
/// a common point (shape 1's frame) exactly when the closed triangles meet. Closures of that
/// signature implement it.
pub trait TrianglePairTest {
    /// A point shared by the closed triangles `t1` and `t2`, `None` when they are disjoint.
    fn intersect(&mut self, t1: &[PointD; 3], t2: &[PointD; 3]) -> Option<PointD>;
}

impl<F: FnMut(&[PointD; 3], &[PointD; 3]) -> Option<PointD>> TrianglePairTest for F {
    #[inline]
    fn intersect(&mut self, t1: &[PointD; 3], t2: &[PointD; 3]) -> Option<PointD> {
        self(t1, t2)
    }
}

/// The default leaf test: [`triangles_intersect_f64`], exact for the given `f64` corners
/// (degenerate triangles included), with an approximate common point.
#[derive(Clone, Copy, Debug, Default)]
pub struct ExactTriangleTest;

impl TrianglePairTest for ExactTriangleTest {
    #[inline]
    fn intersect(&mut self, t1: &[PointD; 3], t2: &[PointD; 3]) -> Option<PointD> {
        triangles_intersect_f64(t1, t2)
    }
}

/// Which contacts a surface-intersection query reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ContactReport {
    /// Stop at the first intersecting triangle pair (a boolean query with one witness).
    #[default]
    First,
    /// Find every intersecting triangle pair.
    All,
}

/// Options of [`mesh_surfaces_intersect`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct MeshIntersectionOptions {
    /// First contact only, or all of them (default [`ContactReport::First`]).
    pub report: ContactReport,
}

/// One intersecting pair of triangles: where the surfaces meet.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrianglePairHit {
    /// The triangle of shape 1.
    pub triangle1: TriangleId,
    /// The triangle of shape 2.
    pub triangle2: TriangleId,
    /// The source face of `triangle1`.
    pub face1: SourceFaceId,
    /// The source face of `triangle2`.
    pub face2: SourceFaceId,
    /// A point shared by both triangles, shape 1's frame (approximate: the decision is exact,
    /// the point is off by rounding).
    pub point: PointD,
}

/// Reusable state of mesh-mesh queries: traversal stacks and the hit list of the last
/// intersection query, plus counters of the last query's work. Keep one per thread (or per pair)
/// and pass it `&mut`; it grows to the largest query seen and then stops allocating.
#[derive(Clone, Debug, Default)]
pub struct MeshQueryWorkspace {
    pub(super) stack: Vec<(u32, u32)>,
    pub(super) distance_stack: Vec<(u32, u32, f64)>,
    /// Node pairs of a best-first distance traversal, smallest lower bound first.
    pub(super) distance_queue: PairQueue,
    pub(super) hits: Vec<TrianglePairHit>,
    /// Node stack of ray casts (containment tests).
    pub(crate) ray_stack: Vec<u32>,
    /// Tree-2 node volumes placed in tree 1's frame during the current intersection query.
    pub(super) placements: PlacementCache,
    pub(super) volume_tests: u64,
    pub(super) triangle_tests: u64,
}

impl MeshQueryWorkspace {
    /// An empty workspace.
    pub fn new() -> Self {
        Self::default()
    }

    /// The intersecting triangle pairs found by the last [`mesh_surfaces_intersect`] call, in
    /// traversal order (at most one with [`ContactReport::First`]).
    pub fn hits(&self) -> &[TrianglePairHit] {
        &self.hits
    }

    /// Node-pair volume tests (overlap tests or distance bounds) done by the last query.
    pub fn volume_tests(&self) -> u64 {
        self.volume_tests
    }

    /// Triangle-pair leaf tests done by the last query.
    pub fn triangle_tests(&self) -> u64 {
        self.triangle_tests
    }
}

/// Do the two surfaces intersect, and where: the triangle pairs of shape 1 and shape 2 that meet,
/// with a common point each, decided by the exact leaf test [`ExactTriangleTest`] on shape 2's triangles mapped into shape
/// 1's frame in `f64`. `pos12` is shape 2's pose in shape 1's frame. The pairs are left in
/// `workspace.hits()`. Surface semantics: nested closed meshes do not intersect.
///
/// # Errors
/// [`NarrowError::NonFinite`] for a NaN or infinite `pos12`.
pub fn mesh_surfaces_intersect<V: BvhVolume>(
    bvh1: &MeshBvh<V>,
    bvh2: &MeshBvh<V>,
    pos12: &impl RelativePose,
    options: &MeshIntersectionOptions,
    workspace: &mut MeshQueryWorkspace,
) -> Result<bool, NarrowError> {
    mesh_surfaces_intersect_with(
        bvh1,
        bvh2,
        pos12,
        options,
        &mut ExactTriangleTest,
        workspace,
    )
}

/// [`mesh_surfaces_intersect`] with a caller-supplied leaf test.
///
/// # Errors
/// [`NarrowError::NonFinite`] for a NaN or infinite `pos12`.
pub fn mesh_surfaces_intersect_with<V, L>(
    bvh1: &MeshBvh<V>,
    bvh2: &MeshBvh<V>,
    pos12: &impl RelativePose,
    options: &MeshIntersectionOptions,
    leaf: &mut L,
    workspace: &mut MeshQueryWorkspace,
) -> Result<bool, NarrowError>
where
    V: BvhVolume,
    L: TrianglePairTest + ?Sized,
{
    let frame = BvhPairFrame::new(pos12, bvh1, bvh2)?;
    let ws = workspace;
    ws.hits.clear();
    ws.stack.clear();
    ws.volume_tests = 0;
    ws.triangle_tests = 0;
    let (n1, n2) = (bvh1.nodes(), bvh2.nodes());
    ws.placements.start_query();
    ws.stack.push((0, 0));
    while let Some((a, b)) = ws.stack.pop() {
        let (na, nb) = (&n1[a as usize], &n2[b as usize]);
        ws.volume_tests += 1;
        let placed = ws.placements.get(b, &nb.volume, &frame);
        if !na.volume.overlaps_placed(&nb.volume, placed, &frame) {
            continue;
        }
        match descend(na, nb) {
            Descend::Leaves => {
                let trees = Trees {
                    bvh1,
                    bvh2,
                    frame: &frame,
                };
                if leaf_pair(&trees, na, nb, leaf, options.report, ws)
                    && options.report == ContactReport::First
                {
                    return Ok(true);
                }
            }
            Descend::First([c0, c1]) => {
                ws.stack.push((c1, b));
                ws.stack.push((c0, b));
            }
            Descend::Second([c0, c1]) => {
                ws.stack.push((a, c1));
                ws.stack.push((a, c0));
            }
        }
    }
    Ok(!ws.hits.is_empty())
}

/// Which node of a pair to open: both leaves, or the children of the first or second node.
pub(super) enum Descend {
    Leaves,
    First([u32; 2]),
    Second([u32; 2]),
}

/// Opens the internal node of a pair, or the larger one when both are internal.
#[inline]
pub(super) fn descend<V: BvhVolume>(na: &BvhNode<V>, nb: &BvhNode<V>) -> Descend {
    match (na.children(), nb.children()) {
        (None, None) => Descend::Leaves,
        (Some(ca), None) => Descend::First(ca),
        (None, Some(cb)) => Descend::Second(cb),
        (Some(ca), Some(cb)) => {
            if na.volume.size() >= nb.volume.size() {
                Descend::First(ca)
            } else {
                Descend::Second(cb)
            }
        }
    }
}

/// The two trees of a query and the prepared `pos12`.
struct Trees<'a, V: BvhVolume> {
    bvh1: &'a MeshBvh<V>,
    bvh2: &'a MeshBvh<V>,
    frame: &'a BvhPairFrame,
}

/// Tests every triangle pair of two leaves; records hits; true when one was found.
fn leaf_pair<V, L>(
    trees: &Trees<'_, V>,
    na: &BvhNode<V>,
    nb: &BvhNode<V>,
    leaf: &mut L,
    report: ContactReport,
    ws: &mut MeshQueryWorkspace,
) -> bool
where
    V: BvhVolume,
    L: TrianglePairTest + ?Sized,
{
    let Trees { bvh1, bvh2, frame } = *trees;
    let (Some(ra), Some(rb)) = (na.triangles(), nb.triangles()) else {
        return false;
    };
    let mut mapped = [[PointD::origin(); 3]; 4];
    for (slot, t2) in mapped.iter_mut().zip(rb.clone()) {
        *slot = bvh2
            .triangle_f64(TriangleId(t2))
            .map(|p| frame.map_point(&p));
    }
    let mut found = false;
    for t1 in ra {
        let tri1 = bvh1.triangle_f64(TriangleId(t1));
        for (k, t2) in rb.clone().enumerate() {
            let tri2 = &mapped[k];
            if !boxes_meet(&tri1, tri2) {
                continue;
            }
            ws.triangle_tests += 1;
            if let Some(point) = leaf.intersect(&tri1, tri2) {
                let (i1, i2) = (TriangleId(t1), TriangleId(t2));
                ws.hits.push(TrianglePairHit {
                    triangle1: i1,
                    triangle2: i2,
                    face1: bvh1.source_face(i1),
                    face2: bvh2.source_face(i2),
                    point,
                });
                found = true;
                if report == ContactReport::First {
                    return true;
                }
            }
        }
    }
    found
}

/// Exact rejection: the axis-aligned boxes of the two (`f64`) triangles are disjoint.
#[inline]
fn boxes_meet(t1: &[PointD; 3], t2: &[PointD; 3]) -> bool {
    (0..3).all(|k| {
        let lo1 = t1[0][k].min(t1[1][k]).min(t1[2][k]);
        let hi1 = t1[0][k].max(t1[1][k]).max(t1[2][k]);
        let lo2 = t2[0][k].min(t2[1][k]).min(t2[2][k]);
        let hi2 = t2[0][k].max(t2[1][k]).max(t2[2][k]);
        lo1 <= hi2 && lo2 <= hi1
    })
}

/// Reference answer by brute force: every triangle of shape 1 against every triangle of shape 2
/// with the same mapping and leaf test as [`mesh_surfaces_intersect_with`]; the pairs are
/// appended to `hits` ordered by `(triangle1, triangle2)`. `O(n1 n2)`: for tests and validation only.
///
/// # Errors
/// [`NarrowError::NonFinite`] for a NaN or infinite `pos12`.
pub fn surfaces_intersect_brute_force<V, L>(
    bvh1: &MeshBvh<V>,
    bvh2: &MeshBvh<V>,
    pos12: &impl RelativePose,
    leaf: &mut L,
    hits: &mut Vec<TrianglePairHit>,
) -> Result<bool, NarrowError>
where
    V: BvhVolume,
    L: TrianglePairTest + ?Sized,
{
    let frame = BvhPairFrame::new(pos12, bvh1, bvh2)?;
    let before = hits.len();
    let mapped: Vec<[PointD; 3]> = (0..bvh2.triangle_count() as u32)
        .map(|t| {
            bvh2.triangle_f64(TriangleId(t))
                .map(|p| frame.map_point(&p))
        })
        .collect();
    for t1 in 0..bvh1.triangle_count() as u32 {
        let tri1 = bvh1.triangle_f64(TriangleId(t1));
        for (t2, tri2) in mapped.iter().enumerate() {
            if !boxes_meet(&tri1, tri2) {
                continue;
            }
            if let Some(point) = leaf.intersect(&tri1, tri2) {
                let (i1, i2) = (TriangleId(t1), TriangleId(t2 as u32));
                hits.push(TrianglePairHit {
                    triangle1: i1,
                    triangle2: i2,
                    face1: bvh1.source_face(i1),
                    face2: bvh2.source_face(i2),
                    point,
                });
            }
        }
    }
    Ok(hits.len() > before)
}
