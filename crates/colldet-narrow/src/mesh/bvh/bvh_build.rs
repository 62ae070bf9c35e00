//! Top-down construction of a [`MeshBvh`]: fan triangulation, then recursive splitting by binned
//! SAH on triangle centroids or by RAPID's mean-of-the-longest-axis rule.
//!
//! The build is iterative (an explicit stack of triangle ranges) and partitions one array of
//! triangle records in place, so every node's triangles stay contiguous: a leaf stores a range,
//! and an internal node's triangles are its left child's followed by its right child's (refit
//! relies on this).

use super::obb_fit::{Moments, split_directions};
use super::{BvhNode, BvhVolume, MeshBvh, SourceFaceId};
use crate::NarrowError;
use colldet_geom::math::{Point, to_f64};
use colldet_geom::{Aabb, MeshData};

/// Number of centroid bins per axis of the binned SAH.
const SAH_BINS: usize = 16;
/// Nodes with at most this many triangles are split at the centroid median instead of by SAH.
const SAH_MIN_TRIANGLES: usize = 12;

/// How a node's triangles are divided between its two children.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SplitRule {
    /// Binned surface-area heuristic: the centroids are put into 16 bins along each coordinate
    /// axis and the plane minimising `area(left) * n_left + area(right) * n_right` (areas of the
    /// children's axis-aligned boxes) is chosen. Nodes of at most 12 triangles are split at the
    /// median centroid along the axis of largest centroid spread.
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
        let mut items = Vec::with_capacity(total);
        for (face, idx) in mesh.faces.iter().enumerate() {
            for k in 1..idx.len() - 1 {
                let indices = [idx[0], idx[k], idx[k + 1]];
                let [a, b, c] = indices.map(|i| vertices[i as usize]);
                let centroid = Point::from(
                    ((to_f64(&a).coords + to_f64(&b).coords + to_f64(&c).coords) / 3.0)
                        .map(|x| x as f32),
                );
                let mut aabb = Aabb::from_point(a);
                aabb.include_point(&b);
                aabb.include_point(&c);
                items.push(BuildTriangle {
                    indices,
                    id: items.len() as u32,
                    face: face as u32,
                    centroid,
                    aabb,
                });
            }
        }

        let leaf = options.max_leaf_triangles as usize;
        // RAPID's rule splits along the node volume's axes, so volumes are fitted top-down;
        // the SAH only needs centroids and triangle boxes, so the volumes are fitted bottom-up
        // afterwards (AABB parents are then just merged children: O(n) instead of O(n log n)).
        let top_down = options.split == SplitRule::MeanOfLongestAxis;
        let mut nodes: Vec<BvhNode<V>> = Vec::with_capacity(2 * total.div_ceil(leaf));
        let mut scratch: Vec<[u32; 3]> = Vec::with_capacity(if top_down { total } else { 0 });
        let mut stack: Vec<(usize, usize, usize)> = vec![(0, 0, total)];
        let filler = placeholder_node(&vertices, &items)?;
        nodes.push(filler);
        // Volumes that fit a whole tree bottom-up from area moments (OBBs) take RAPID's split
        // directions from the same moments, summed per node, instead of fitting every node.
        let moments =
            (top_down && V::FITS_FROM_MOMENTS).then(|| triangle_moments(&vertices, &items));
        while let Some((node, start, end)) = stack.pop() {
            let mut directions = None;
            let volume = match (&moments, top_down) {
                (Some(m), _) => {
                    let mut sum = Moments::default();
                    for t in &items[start..end] {
                        sum.add(&m[t.id as usize]);
                    }
                    directions = Some(split_directions(&sum));
                    filler.volume
                }
                (None, true) => {
                    scratch.clear();
                    scratch.extend(items[start..end].iter().map(|t| t.indices));
                    V::fit(&vertices, &scratch)?
                }
                (None, false) => filler.volume,
            };
            let count = end - start;
            if count <= leaf {
                nodes[node] = BvhNode {
                    volume,
                    first: start as u32,
                    count: count as u32,
                };
                continue;
            }
            let slice = &mut items[start..end];
            let mid = match options.split {
                SplitRule::BinnedSah => split_binned_sah(slice),
                SplitRule::MeanOfLongestAxis => {
                    split_mean(slice, &directions.unwrap_or_else(|| volume.split_axes()))
                }
            };
            let first = nodes.len();
            nodes[node] = BvhNode {
                volume,
                first: first as u32,
                count: 0,
            };
            nodes.push(filler);
            nodes.push(filler);
            stack.push((first + 1, start + mid, end));
            stack.push((first, start, start + mid));
        }
        let mut bvh = Self {
            vertices,
            triangles: items.iter().map(|t| t.indices).collect(),
            faces: items.iter().map(|t| SourceFaceId(t.face)).collect(),
            nodes,
            axes_error: 0.0,
        };
        let fitted_in_loop = top_down && moments.is_none();
        if !fitted_in_loop && !V::fit_built_tree(&mut bvh.nodes, &bvh.vertices, &bvh.triangles)? {
            bvh.fit_volumes()?;
        }
        bvh.axes_error = V::axes_error(&bvh.nodes);
        Ok(bvh)
    }
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
    let mut i = 0;
    for j in 0..items.len() {
        if left(&items[j]) {
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
    fn grow(&mut self, b: &Aabb) {
        for k in 0..3 {
            self.lo[k] = self.lo[k].min(b.mins[k]);
            self.hi[k] = self.hi[k].max(b.maxs[k]);
        }
        self.count += 1;
    }

    #[inline]
    fn merge(&mut self, o: &Bin) {
        for k in 0..3 {
            self.lo[k] = self.lo[k].min(o.lo[k]);
            self.hi[k] = self.hi[k].max(o.hi[k]);
        }
        self.count += o.count;
    }

    /// Half the surface area of the bin's box times its count (0 for an empty bin).
    #[inline]
    fn cost(&self) -> f64 {
        if self.count == 0 {
            return 0.0;
        }
        let e: [f64; 3] = std::array::from_fn(|k| f64::from(self.hi[k]) - f64::from(self.lo[k]));
        (e[0] * e[1] + e[1] * e[2] + e[2] * e[0]) * self.count as f64
    }
}

/// Binned SAH split (see [`SplitRule::BinnedSah`]); returns the size of the left part, always in
/// `1..items.len()` (an even split by position when the centroids cannot be separated). One
/// pass over the triangles fills the bins of all three axes.
fn split_binned_sah(items: &mut [BuildTriangle]) -> usize {
    let n = items.len();
    let mut lo = items[0].centroid;
    let mut hi = lo;
    for t in items.iter() {
        lo = lo.inf(&t.centroid);
        hi = hi.sup(&t.centroid);
    }
    if n <= SAH_MIN_TRIANGLES {
        // Few triangles: the bins' fixed cost dominates; split at the median of the axis of
        // largest centroid spread instead.
        let ext = hi - lo;
        let axis = ext.imax();
        let mid = n / 2;
        items.select_nth_unstable_by(mid, |a, b| a.centroid[axis].total_cmp(&b.centroid[axis]));
        return mid;
    }
    let l: [f64; 3] = std::array::from_fn(|k| f64::from(lo[k]));
    let inv: [f64; 3] = std::array::from_fn(|k| {
        let ext = f64::from(hi[k]) - l[k];
        if ext > 0.0 {
            SAH_BINS as f64 / ext
        } else {
            0.0
        }
    });
    let mut bins = [[Bin::EMPTY; SAH_BINS]; 3];
    for t in items.iter() {
        for axis in 0..3 {
            let b = bin_of(f64::from(t.centroid[axis]), l[axis], inv[axis]);
            bins[axis][b].grow(&t.aabb);
        }
    }
    // (cost, axis, last bin of the left side)
    let mut best: Option<(f64, usize, usize)> = None;
    for (axis, bins) in bins.iter().enumerate() {
        if inv[axis] == 0.0 {
            continue;
        }
        // Right-to-left sweep: cost of the right side starting at each bin.
        let mut right_cost = [0.0f64; SAH_BINS];
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
    let Some((_, axis, bin)) = best else {
        return n / 2;
    };
    let mid = partition(items, |t| {
        bin_of(f64::from(t.centroid[axis]), l[axis], inv[axis]) <= bin
    });
    if mid == 0 || mid == n { n / 2 } else { mid }
}

#[inline]
fn bin_of(x: f64, lo: f64, inv: f64) -> usize {
    (((x - lo) * inv) as usize).min(SAH_BINS - 1)
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

/// The area moments of every build triangle (indexed by `id`), relative to the first vertex.
fn triangle_moments(vertices: &[Point], items: &[BuildTriangle]) -> Vec<Moments> {
    let origin = items
        .first()
        .map_or_else(colldet_geom::math::VectorD::zeros, |t| {
            to_f64(&vertices[t.indices[0] as usize]).coords
        });
    let local = |i: u32| to_f64(&vertices[i as usize]).coords - origin;
    let mut out = vec![Moments::default(); items.len()];
    for t in items {
        let [a, b, c] = t.indices.map(local);
        out[t.id as usize].add_triangle(&a, &b, &c);
    }
    out
}
