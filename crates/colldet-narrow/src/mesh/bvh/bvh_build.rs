//! Top-down construction of a [`MeshBvh`]: fan triangulation, then recursive splitting by binned
//! SAH on triangle centroids (along the coordinate axes for AABB trees, along each node's
//! principal axes for OBB trees) or by RAPID's mean-of-the-longest-axis rule.
//!
//! The build partitions one array of triangle records in place, so every node's triangles stay
//! contiguous: a leaf stores a range, and an internal node's triangles are its left child's
//! followed by its right child's (refit relies on this). The top levels split the array in two
//! and build both halves in parallel (`rayon::join`), each half as an explicit stack of triangle
//! ranges; the halves are then written once, in parallel, into the layout of [`MeshBvh`], so
//! the tree does not depend on the thread count. The volumes are fitted afterwards by [`BvhVolume::fit_tree`], as
//! refit does, so a refit to the same vertices gives the built tree back.

use super::obb_fit::{Moments, split_directions};
use super::{BvhNode, BvhVolume, MeshBvh, SourceFaceId};
use crate::NarrowError;
use colldet_geom::math::{Point, PointD, VectorD, to_f64};
use colldet_geom::{Aabb, MeshData};
use rayon::prelude::*;

/// Number of centroid bins per axis of the binned SAH.
const SAH_BINS: usize = 16;
/// Nodes with at most this many triangles are split at the centroid median instead of by SAH.
const SAH_MIN_TRIANGLES: usize = 12;
/// Larger nodes bin (and, in OBB trees, sum the moments of) an evenly strided sample of about
/// this many triangles: the plane and axes barely change, the top levels cost a partition only.
const SAH_SAMPLE: usize = 4096;
/// OBB trees: nodes of at most this many triangles bin along their parent's principal axes
/// instead of computing their own (a small patch's axes are close to its parent's).
const INHERIT_AXES_TRIANGLES: usize = 48;

/// The stride of the sample of a node of `n` triangles (see [`SAH_SAMPLE`]).
#[inline]
fn sample_stride(n: usize) -> usize {
    (n / SAH_SAMPLE).max(1)
}

/// How a node's triangles are divided between its two children.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SplitRule {
    /// Binned surface-area heuristic: the centroids are put into 16 bins along each of three
    /// axes and the plane minimising `area(left) * n_left + area(right) * n_right` (areas of the
    /// children's boxes along those axes) is chosen. The axes are the coordinate axes for AABB
    /// trees and the node's principal axes (area-weighted covariance, as RAPID) for OBB trees,
    /// so OBB children are compact in their own frame (nodes of at most 48 triangles use their
    /// parent's axes). Nodes of more than 8,191 triangles bin an evenly strided sample of 4,096
    /// to 8,191 of them. Nodes of at most 12 triangles are split at the median centroid along
    /// the axis of largest centroid spread.
    #[default]
    BinnedSah,
    /// RAPID's rule: split at the mean of the centroids along the node volume's longest axis,
    /// falling back to the next axes when one side would be empty.
    MeanOfLongestAxis,
}

/// Options of [`MeshBvh::build`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BvhBuildOptions {
    /// Largest number of triangles in a leaf, 1 to 4 (default 2). Nodes with more triangles are
    /// always split.
    pub max_leaf_triangles: u32,
    /// How nodes are split (default [`SplitRule::BinnedSah`]).
    pub split: SplitRule,
}

impl Default for BvhBuildOptions {
    fn default() -> Self {
        Self {
            max_leaf_triangles: 2,
            split: SplitRule::BinnedSah,
        }
    }
}

/// A triangle during the build: its indices, source face, centroid and box.
#[derive(Clone, Copy)]
struct BuildTriangle {
    indices: [u32; 3],
    /// Position in the unpermuted triangle list (index of its moments).
    id: u32,
    face: u32,
    centroid: Point,
    aabb: Aabb,
}

impl<V: BvhVolume> MeshBvh<V> {
    /// Builds the tree over `mesh`'s triangles: every polygon face `(v0, v1, ..., vk)` is cut into
    /// the fan `(v0, vi, vi+1)`, each triangle remembering its face. Degenerate (zero-area)
    /// triangles are kept: the leaf tests handle them exactly. The vertices are copied.
    ///
    /// # Errors
    /// Everything [`MeshData::validate`] reports (as [`NarrowError::Geom`]),
    /// [`NarrowError::InvalidParameter`] for `max_leaf_triangles` outside `1..=4` or more than
    /// `u32::MAX / 2` triangles.
    pub fn build(mesh: &MeshData, options: &BvhBuildOptions) -> Result<Self, NarrowError> {
        mesh.validate()?;
        if !(1..=4).contains(&options.max_leaf_triangles) {
            return Err(NarrowError::InvalidParameter {
                parameter: "max_leaf_triangles",
                requirement: "must be between 1 and 4",
            });
        }
        let vertices = mesh.vertices.clone();
        let total: usize = mesh.faces.iter().map(|f| f.len() - 2).sum();
        if total > (u32::MAX / 2) as usize {
            return Err(NarrowError::InvalidParameter {
                parameter: "mesh",
                requirement: "at most u32::MAX / 2 triangles",
            });
        }
        let mut fan = Vec::with_capacity(total);
        for (face, idx) in mesh.faces.iter().enumerate() {
            for k in 1..idx.len() - 1 {
                fan.push(([idx[0], idx[k], idx[k + 1]], face as u32));
            }
        }
        let item = |(id, &(indices, face)): (usize, &([u32; 3], u32))| {
            let [a, b, c] = indices.map(|i| vertices[i as usize]);
            let centroid = Point::from(
                ((to_f64(&a).coords + to_f64(&b).coords + to_f64(&c).coords) / 3.0)
                    .map(|x| x as f32),
            );
            let mut aabb = Aabb::from_point(a);
            aabb.include_point(&b);
            aabb.include_point(&c);
            BuildTriangle {
                indices,
                id: id as u32,
                face,
                centroid,
                aabb,
            }
        };
        let parallel = total >= PARALLEL_MIN_TRIANGLES;
        let mut items: Vec<BuildTriangle> = if parallel {
            fan.par_iter()
                .enumerate()
                .with_min_len(PARALLEL_MIN_TRIANGLES)
                .map(item)
                .collect()
        } else {
            fan.iter().enumerate().map(item).collect()
        };

        // RAPID's rule splits along the node volume's axes, so AABBs are also fitted top-down
        // to choose the split, or the axes come from area moments summed per node (OBBs, which
        // also bin the SAH along those axes). Every volume is then fitted bottom-up by
        // `fit_tree` (AABB parents merge their children, which equals the top-down fit).
        let top_down = options.split == SplitRule::MeanOfLongestAxis;
        let moments = V::FITS_FROM_MOMENTS.then(|| triangle_moments(&vertices, &items, parallel));
        let ctx = BuildContext {
            vertices: &vertices,
            moments: moments.as_deref(),
            leaf: options.max_leaf_triangles as usize,
            split: options.split,
            fit_top_down: top_down && moments.is_none(),
            filler: placeholder_node(&vertices, &items)?,
        };
        let tree = build_subtree(&ctx, &mut items, 0, 0, None)?;
        // Filled and written in parallel for large trees (first touches of fresh pages).
        let mut nodes = Vec::new();
        let (triangles, faces);
        if parallel {
            rayon::iter::repeat_n(ctx.filler, tree.len()).collect_into_vec(&mut nodes);
            let (root, rest) = nodes.split_first_mut().expect("a tree has a root");
            (((), triangles), faces) = rayon::join(
                || rayon::join(|| tree.place(root, rest, 1), || triangle_indices(&items)),
                || items.par_iter().map(|t| SourceFaceId(t.face)).collect(),
            );
        } else {
            nodes = vec![ctx.filler; tree.len()];
            let (root, rest) = nodes.split_first_mut().expect("a tree has a root");
            tree.place(root, rest, 1);
            triangles = items.iter().map(|t| t.indices).collect();
            faces = items.iter().map(|t| SourceFaceId(t.face)).collect();
        }
        let precise = mesh.precise_vertices().map(<[PointD]>::to_vec);
        let rounding = mesh.vertex_rounding();
        let mut bvh = Self {
            vertices,
            precise,
            rounding,
            triangles,
            faces,
            nodes,
            axes_error: 0.0,
        };
        bvh.axes_error = V::fit_tree(&mut bvh.nodes, &bvh.vertices, &bvh.triangles)?;
        Ok(bvh)
    }
}

/// What every node of a build needs.
struct BuildContext<'a, V> {
    vertices: &'a [Point],
    /// Area moments of every build triangle (indexed by `id`) when `V` fits from moments.
    moments: Option<&'a [Moments]>,
    leaf: usize,
    split: SplitRule,
    /// Fit every node's volume while splitting, to choose its split axis (RAPID's rule without
    /// moments: AABBs).
    fit_top_down: bool,
    /// A valid volume for nodes fitted later.
    filler: BvhNode<V>,
}

/// Subtrees with fewer triangles than this are built on one thread.
const PARALLEL_MIN_TRIANGLES: usize = 8192;
/// Parallel recursion stops at this depth (2^4 tasks are plenty for the machines we target).
const PARALLEL_MAX_DEPTH: usize = 4;

/// Candidate split directions (unit vectors) of a node.
type Directions = [VectorD; 3];

/// Per-node scratch of the build.
#[derive(Default)]
struct Scratch {
    triangles: Vec<[u32; 3]>,
    /// The sampled triangles' centroids in the split frame.
    centroids: Vec<[f32; 3]>,
}

/// Splits one node: its volume (fitted, or the filler), where its triangles are divided (`None`
/// for a leaf) and the split directions its children inherit. Nodes of at most
/// [`INHERIT_AXES_TRIANGLES`] triangles split by the binned SAH reuse their parent's directions.
fn split_node<V: BvhVolume>(
    ctx: &BuildContext<'_, V>,
    items: &mut [BuildTriangle],
    inherited: Option<&Directions>,
    scratch: &mut Scratch,
) -> Result<(V, Option<usize>, Option<Directions>), NarrowError> {
    let n = items.len();
    let mut directions = None;
    let volume = if let Some(m) = ctx.moments {
        directions = match inherited {
            Some(d) if ctx.split == SplitRule::BinnedSah && n <= INHERIT_AXES_TRIANGLES => Some(*d),
            _ if n <= ctx.leaf => None,
            _ => {
                let mut sum = Moments::default();
                for t in items.iter().step_by(sample_stride(n)) {
                    sum.add(&m[t.id as usize]);
                }
                Some(split_directions(&sum))
            }
        };
        ctx.filler.volume
    } else if ctx.fit_top_down {
        scratch.triangles.clear();
        scratch.triangles.extend(items.iter().map(|t| t.indices));
        V::fit(ctx.vertices, &scratch.triangles)?
    } else {
        ctx.filler.volume
    };
    if n <= ctx.leaf {
        return Ok((volume, None, None));
    }
    let mid = match (ctx.split, &directions) {
        (SplitRule::BinnedSah, Some(d)) => {
            split_binned_sah(items, &OrientedAxes::new(d), &mut scratch.centroids)
        }
        (SplitRule::BinnedSah, None) => split_binned_sah(items, &WorldAxes, &mut scratch.centroids),
        (SplitRule::MeanOfLongestAxis, d) => {
            split_mean(items, &d.unwrap_or_else(|| volume.split_axes()))
        }
    };
    Ok((volume, Some(mid), directions))
}

/// A subtree built by [`build_subtree`]: nodes of one thread's part (root first, in the layout
/// of [`MeshBvh`]), or a node whose two halves were built in parallel. Flattened once at the
/// end ([`Subtree::place`]), so the parallel levels copy no node arrays.
enum Subtree<V> {
    Serial(Vec<BvhNode<V>>),
    Split {
        root: BvhNode<V>,
        halves: Box<[Subtree<V>; 2]>,
    },
}

impl<V: Copy> Subtree<V> {
    /// Number of nodes.
    fn len(&self) -> usize {
        match self {
            Subtree::Serial(nodes) => nodes.len(),
            Subtree::Split { halves, .. } => 1 + halves[0].len() + halves[1].len(),
        }
    }

    /// Writes the subtree's root into `slot` and its other nodes into `out`, the final array's
    /// nodes `rest .. rest + len - 1`: a parallel node's children go to `rest` and `rest + 1`,
    /// then the rest of its left half, then the rest of its right half (both halves in
    /// parallel).
    fn place(&self, slot: &mut BvhNode<V>, out: &mut [BvhNode<V>], rest: usize)
    where
        V: Send + Sync,
    {
        match self {
            Subtree::Serial(nodes) => {
                // Node i >= 1 moves to `rest + i - 1`, the root to `slot`.
                let moved = |n: &BvhNode<V>| match n.children() {
                    Some([c, _]) => BvhNode {
                        first: (rest + c as usize - 1) as u32,
                        ..*n
                    },
                    None => *n,
                };
                *slot = moved(&nodes[0]);
                for (o, n) in out.iter_mut().zip(&nodes[1..]) {
                    *o = moved(n);
                }
            }
            Subtree::Split { root, halves } => {
                *slot = BvhNode {
                    first: rest as u32,
                    ..*root
                };
                let (pair, tail) = out.split_at_mut(2);
                let (left, right) = pair.split_at_mut(1);
                let left_len = halves[0].len() - 1;
                let (left_tail, right_tail) = tail.split_at_mut(left_len);
                rayon::join(
                    || halves[0].place(&mut left[0], left_tail, rest + 2),
                    || halves[1].place(&mut right[0], right_tail, rest + 2 + left_len),
                );
            }
        }
    }
}

/// The subtree over `items` (triangles `offset ..` of the final array). Large subtrees build
/// their two halves in parallel (`rayon::join`); the layout does not depend on the thread count.
fn build_subtree<V: BvhVolume>(
    ctx: &BuildContext<'_, V>,
    items: &mut [BuildTriangle],
    offset: usize,
    depth: usize,
    inherited: Option<&Directions>,
) -> Result<Subtree<V>, NarrowError> {
    if items.len() < PARALLEL_MIN_TRIANGLES || depth >= PARALLEL_MAX_DEPTH {
        return build_serial(ctx, items, offset, inherited).map(Subtree::Serial);
    }
    let (volume, Some(mid), directions) =
        split_node(ctx, items, inherited, &mut Scratch::default())?
    else {
        return build_serial(ctx, items, offset, inherited).map(Subtree::Serial);
    };
    let (left, right) = items.split_at_mut(mid);
    let d = directions.as_ref();
    let (l, r) = rayon::join(
        || build_subtree(ctx, left, offset, depth + 1, d),
        || build_subtree(ctx, right, offset + mid, depth + 1, d),
    );
    Ok(Subtree::Split {
        root: BvhNode {
            volume,
            first: 0,
            count: 0,
        },
        halves: Box::new([l?, r?]),
    })
}

/// [`build_subtree`] on one thread: an explicit stack of triangle ranges.
fn build_serial<V: BvhVolume>(
    ctx: &BuildContext<'_, V>,
    items: &mut [BuildTriangle],
    offset: usize,
    inherited: Option<&Directions>,
) -> Result<Vec<BvhNode<V>>, NarrowError> {
    let mut nodes: Vec<BvhNode<V>> = Vec::with_capacity(2 * items.len().div_ceil(ctx.leaf));
    let mut scratch = Scratch::default();
    let mut stack: Vec<(usize, usize, usize, Option<Directions>)> =
        vec![(0, 0, items.len(), inherited.copied())];
    nodes.push(ctx.filler);
    while let Some((node, start, end, inherited)) = stack.pop() {
        let (volume, mid, directions) = split_node(
            ctx,
            &mut items[start..end],
            inherited.as_ref(),
            &mut scratch,
        )?;
        let Some(mid) = mid else {
            nodes[node] = BvhNode {
                volume,
                first: (offset + start) as u32,
                count: (end - start) as u32,
            };
            continue;
        };
        let first = nodes.len();
        nodes[node] = BvhNode {
            volume,
            first: first as u32,
            count: 0,
        };
        nodes.push(ctx.filler);
        nodes.push(ctx.filler);
        stack.push((first + 1, start + mid, end, directions));
        stack.push((first, start, start + mid, directions));
    }
    Ok(nodes)
}

/// A node to overwrite: the volume of the first triangle (any valid value will do).
fn placeholder_node<V: BvhVolume>(
    vertices: &[Point],
    items: &[BuildTriangle],
) -> Result<BvhNode<V>, NarrowError> {
    let first = items
        .first()
        .map(|t| t.indices)
        .ok_or(NarrowError::Geom(colldet_geom::GeomError::NoFaces))?;
    Ok(BvhNode {
        volume: V::fit(vertices, &[first])?,
        first: 0,
        count: 1,
    })
}

/// Moves the items satisfying `left` to the front; returns how many there are.
fn partition(items: &mut [BuildTriangle], mut left: impl FnMut(&BuildTriangle) -> bool) -> usize {
    partition_keyed(items, |_, t| left(t))
}

/// [`partition`] where `left` also gets the item's position before the pass: items are tested
/// in order and only swapped with earlier positions, so an item is tested where it started.
#[inline(always)]
fn partition_keyed(
    items: &mut [BuildTriangle],
    mut left: impl FnMut(usize, &BuildTriangle) -> bool,
) -> usize {
    let mut i = 0;
    for j in 0..items.len() {
        if left(j, &items[j]) {
            items.swap(i, j);
            i += 1;
        }
    }
    i
}

/// One SAH bin: the box of its triangles (empty when `lo > hi`) and their count.
#[derive(Clone, Copy)]
struct Bin {
    lo: [f32; 3],
    hi: [f32; 3],
    count: usize,
}

impl Bin {
    const EMPTY: Bin = Bin {
        lo: [f32::INFINITY; 3],
        hi: [f32::NEG_INFINITY; 3],
        count: 0,
    };

    #[inline]
    fn grow(&mut self, lo: &[f32; 3], hi: &[f32; 3]) {
        // Plain comparisons (coordinates are finite), cheaper than `f32::min`'s NaN rules;
        // unconditional stores, so no data-dependent branches.
        for k in 0..3 {
            let (lo, hi) = (lo[k], hi[k]);
            self.lo[k] = if lo < self.lo[k] { lo } else { self.lo[k] };
            self.hi[k] = if hi > self.hi[k] { hi } else { self.hi[k] };
        }
        self.count += 1;
    }

    #[inline]
    fn merge(&mut self, o: &Bin) {
        for k in 0..3 {
            self.lo[k] = if o.lo[k] < self.lo[k] {
                o.lo[k]
            } else {
                self.lo[k]
            };
            self.hi[k] = if o.hi[k] > self.hi[k] {
                o.hi[k]
            } else {
                self.hi[k]
            };
        }
        self.count += o.count;
    }

    /// Half the surface area of the bin's box times its count (0 for an empty bin); `f32`, it
    /// only ranks planes.
    #[inline]
    fn cost(&self) -> f32 {
        if self.count == 0 {
            return 0.0;
        }
        let e: [f32; 3] = std::array::from_fn(|k| self.hi[k] - self.lo[k]);
        (e[0] * e[1] + e[1] * e[2] + e[2] * e[0]) * self.count as f32
    }
}

/// The three directions a node's triangles are binned along: the coordinate axes (AABB trees)
/// or the node's principal axes (OBB trees), with the triangles' centroids and boxes expressed
/// along them.
trait SplitFrame {
    /// Whether axes along which the centroids spread less than a quarter of their largest spread
    /// are left out of the binning: true for principal axes. Splitting across such a thin
    /// direction leaves both children nearly the node's full cross-section, which the SAH all
    /// but never picks.
    const SKIPS_THIN_AXES: bool;
    /// The centroid's coordinate along axis `k`.
    fn coordinate(&self, t: &BuildTriangle, k: usize) -> f32;
    /// The centroid's coordinates along the three axes.
    fn centroid(&self, t: &BuildTriangle) -> [f32; 3];
    /// The interval of the triangle's box along each axis (lower and upper ends; for an
    /// oriented frame the extent of the box's projection, which contains the triangle's).
    fn interval(&self, t: &BuildTriangle) -> ([f32; 3], [f32; 3]);
}

/// The coordinate axes.
struct WorldAxes;

impl SplitFrame for WorldAxes {
    const SKIPS_THIN_AXES: bool = false;

    #[inline]
    fn coordinate(&self, t: &BuildTriangle, k: usize) -> f32 {
        t.centroid[k]
    }
    #[inline]
    fn centroid(&self, t: &BuildTriangle) -> [f32; 3] {
        t.centroid.coords.into()
    }
    #[inline]
    fn interval(&self, t: &BuildTriangle) -> ([f32; 3], [f32; 3]) {
        (t.aabb.mins.coords.into(), t.aabb.maxs.coords.into())
    }
}

/// Three unit vectors (rows), `f32`.
struct OrientedAxes([[f32; 3]; 3]);

impl OrientedAxes {
    fn new(d: &Directions) -> Self {
        Self(d.map(|a| [a.x as f32, a.y as f32, a.z as f32]))
    }
}

impl SplitFrame for OrientedAxes {
    const SKIPS_THIN_AXES: bool = true;

    #[inline]
    fn coordinate(&self, t: &BuildTriangle, k: usize) -> f32 {
        let (a, c) = (&self.0[k], &t.centroid);
        a[0] * c.x + a[1] * c.y + a[2] * c.z
    }
    #[inline]
    fn centroid(&self, t: &BuildTriangle) -> [f32; 3] {
        std::array::from_fn(|k| self.coordinate(t, k))
    }
    #[inline]
    fn interval(&self, t: &BuildTriangle) -> ([f32; 3], [f32; 3]) {
        let bc = (t.aabb.mins.coords + t.aabb.maxs.coords) * 0.5;
        let bh = (t.aabb.maxs.coords - t.aabb.mins.coords) * 0.5;
        let mut lo = [0.0; 3];
        let mut hi = [0.0; 3];
        for (k, a) in self.0.iter().enumerate() {
            let m = a[0] * bc.x + a[1] * bc.y + a[2] * bc.z;
            let r = a[0].abs() * bh.x + a[1].abs() * bh.y + a[2].abs() * bh.z;
            lo[k] = m - r;
            hi[k] = m + r;
        }
        (lo, hi)
    }
}

/// Binned SAH split (see [`SplitRule::BinnedSah`]) in `frame`; returns the size of the left
/// part, always in `1..items.len()` (an even split by position when the centroids cannot be
/// separated). One pass over the triangles fills the bins of all three axes; nodes of at most
/// [`SAH_MIN_TRIANGLES`] are split at the median centroid of the axis of largest spread.
fn split_binned_sah<F: SplitFrame>(
    items: &mut [BuildTriangle],
    frame: &F,
    centroids: &mut Vec<[f32; 3]>,
) -> usize {
    let n = items.len();
    let stride = sample_stride(n);
    // The even and odd samples in separate accumulators and bins: two independent dependency
    // chains (consecutive triangles often share a bin). Minima, maxima and counts do not depend
    // on the order, so the split does not either.
    let (mut lo, mut hi) = ([f32::INFINITY; 3], [f32::NEG_INFINITY; 3]);
    let (mut lo1, mut hi1) = (lo, hi);
    // The sampled centroids in the frame, kept for the binning and the partition.
    centroids.clear();
    centroids.extend(items.iter().step_by(stride).map(|t| frame.centroid(t)));
    let mut samples = centroids.iter();
    while let Some(c) = samples.next() {
        include_centroid(&mut lo, &mut hi, c);
        if let Some(c) = samples.next() {
            include_centroid(&mut lo1, &mut hi1, c);
        }
    }
    for k in 0..3 {
        lo[k] = if lo1[k] < lo[k] { lo1[k] } else { lo[k] };
        hi[k] = if hi1[k] > hi[k] { hi1[k] } else { hi[k] };
    }
    if n <= SAH_MIN_TRIANGLES {
        // Few triangles: the bins' fixed cost dominates; split at the median of the axis of
        // largest centroid spread instead.
        let ext: [f32; 3] = std::array::from_fn(|k| hi[k] - lo[k]);
        let axis = (0..3).fold(0, |b, k| if ext[k] > ext[b] { k } else { b });
        let mut keyed = [(0.0f32, 0u32); SAH_MIN_TRIANGLES];
        for (k, c) in centroids.iter().enumerate() {
            keyed[k] = (c[axis], k as u32);
        }
        let keyed = &mut keyed[..n];
        keyed.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut copy = [items[0]; SAH_MIN_TRIANGLES];
        copy[..n].copy_from_slice(items);
        for (slot, &(_, k)) in items.iter_mut().zip(keyed.iter()) {
            *slot = copy[k as usize];
        }
        return n / 2;
    }
    let ext: [f32; 3] = std::array::from_fn(|k| hi[k] - lo[k]);
    let widest = ext[0].max(ext[1]).max(ext[2]);
    // Binned axes first, `binned` of them; an axis with `inv == 0` has no plane.
    let mut axes = [0, 1, 2];
    let mut binned = 0;
    let mut inv = [0.0f32; 3];
    for k in 0..3 {
        if ext[k] > 0.0 && !(F::SKIPS_THIN_AXES && ext[k] < 0.25 * widest) {
            inv[k] = SAH_BINS as f32 / ext[k];
            axes[binned] = k;
            binned += 1;
        }
    }
    let axes = &axes[..binned];
    let mut bins = [[Bin::EMPTY; SAH_BINS]; 3];
    let mut samples = items.iter().step_by(stride).zip(centroids.iter());
    if centroids.len() < TWO_BIN_SETS_SAMPLES {
        for (t, c) in samples {
            fill_bins(&mut bins, frame, t, c, axes, &lo, &inv);
        }
    } else {
        let mut bins1 = [[Bin::EMPTY; SAH_BINS]; 3];
        while let Some((t, c)) = samples.next() {
            fill_bins(&mut bins, frame, t, c, axes, &lo, &inv);
            if let Some((t, c)) = samples.next() {
                fill_bins(&mut bins1, frame, t, c, axes, &lo, &inv);
            }
        }
        for &axis in axes {
            for (b, o) in bins[axis].iter_mut().zip(&bins1[axis]) {
                b.merge(o);
            }
        }
    }
    let Some((axis, bin)) = best_sah_plane(&bins, &inv, n.div_ceil(stride)) else {
        return n / 2;
    };
    let mid = if stride == 1 {
        // Every triangle was sampled; the partition only moves triangles already passed, so
        // `centroids[j]` stays the centroid of the triangle at `j` when it is reached.
        partition_keyed(items, |j, _| {
            bin_of(centroids[j][axis], lo[axis], inv[axis]) <= bin
        })
    } else {
        partition_keyed(items, |_, t| {
            bin_of(frame.coordinate(t, axis), lo[axis], inv[axis]) <= bin
        })
    };
    if mid == 0 || mid == n { n / 2 } else { mid }
}

/// Nodes with fewer samples fill one set of bins (a second set costs more to clear and merge
/// than it saves).
const TWO_BIN_SETS_SAMPLES: usize = 64;

/// Widens `lo..hi` to the centroid coordinates `c`.
#[inline(always)]
fn include_centroid(lo: &mut [f32; 3], hi: &mut [f32; 3], c: &[f32; 3]) {
    for k in 0..3 {
        lo[k] = if c[k] < lo[k] { c[k] } else { lo[k] };
        hi[k] = if c[k] > hi[k] { c[k] } else { hi[k] };
    }
}

/// Adds triangle `t` to its bin along each of `axes`.
#[inline(always)]
fn fill_bins<F: SplitFrame>(
    bins: &mut [[Bin; SAH_BINS]; 3],
    frame: &F,
    t: &BuildTriangle,
    c: &[f32; 3],
    axes: &[usize],
    lo: &[f32; 3],
    inv: &[f32; 3],
) {
    let (blo, bhi) = frame.interval(t);
    for &axis in axes {
        let k = bin_of(c[axis], lo[axis], inv[axis]);
        bins[axis][k].grow(&blo, &bhi);
    }
}

/// The cheapest SAH plane over the bins of the three axes (axes with `inv == 0` have no
/// spread): `(axis, last bin of the left side)`, `None` when no plane leaves both sides
/// non-empty.
fn best_sah_plane(bins: &[[Bin; SAH_BINS]; 3], inv: &[f32; 3], n: usize) -> Option<(usize, usize)> {
    // (cost, axis, last bin of the left side)
    let mut best: Option<(f32, usize, usize)> = None;
    for (axis, bins) in bins.iter().enumerate() {
        if inv[axis] == 0.0 {
            continue;
        }
        // Right-to-left sweep: cost of the right side starting at each bin.
        let mut right_cost = [0.0f32; SAH_BINS];
        let mut acc = Bin::EMPTY;
        for b in (1..SAH_BINS).rev() {
            acc.merge(&bins[b]);
            right_cost[b] = acc.cost();
        }
        let mut acc = Bin::EMPTY;
        for b in 0..SAH_BINS - 1 {
            acc.merge(&bins[b]);
            if acc.count == 0 || acc.count == n {
                continue;
            }
            let cost = acc.cost() + right_cost[b + 1];
            if best.is_none_or(|(c, _, _)| cost < c) {
                best = Some((cost, axis, b));
            }
        }
    }
    best.map(|(_, axis, bin)| (axis, bin))
}

/// The bin of coordinate `x` (the cast saturates: rounding below `lo` gives bin 0).
#[inline]
fn bin_of(x: f32, lo: f32, inv: f32) -> usize {
    // Clamped by plain comparisons first (a NaN gives bin 0), so the cast is in range.
    let t = (x - lo) * inv;
    let t = if t > 0.0 { t } else { 0.0 };
    let t = if t < (SAH_BINS - 1) as f32 {
        t
    } else {
        (SAH_BINS - 1) as f32
    };
    t as u32 as usize
}

/// RAPID's split (see [`SplitRule::MeanOfLongestAxis`]); returns the size of the left part,
/// always in `1..items.len()`.
fn split_mean(items: &mut [BuildTriangle], axes: &[colldet_geom::math::VectorD; 3]) -> usize {
    let n = items.len();
    for axis in axes {
        let proj = |t: &BuildTriangle| to_f64(&t.centroid).coords.dot(axis);
        let mean = items.iter().map(proj).sum::<f64>() / n as f64;
        let mid = partition(items, |t| proj(t) < mean);
        if mid > 0 && mid < n {
            return mid;
        }
    }
    n / 2
}

/// The triangles' vertex indices in build order, in parallel.
fn triangle_indices(items: &[BuildTriangle]) -> Vec<[u32; 3]> {
    items.par_iter().map(|t| t.indices).collect()
}

/// The area moments of every build triangle (indexed by `id`), relative to the first vertex.
fn triangle_moments(vertices: &[Point], items: &[BuildTriangle], parallel: bool) -> Vec<Moments> {
    let origin = items
        .first()
        .map_or_else(colldet_geom::math::VectorD::zeros, |t| {
            to_f64(&vertices[t.indices[0] as usize]).coords
        });
    let local = |i: u32| to_f64(&vertices[i as usize]).coords - origin;
    // `items` are still in `id` order.
    let moments = |t: &BuildTriangle| {
        let [a, b, c] = t.indices.map(local);
        let mut m = Moments::default();
        m.add_triangle(&a, &b, &c);
        m
    };
    if parallel {
        items
            .par_iter()
            .with_min_len(PARALLEL_MIN_TRIANGLES)
            .map(moments)
            .collect()
    } else {
        items.iter().map(moments).collect()
    }
}
