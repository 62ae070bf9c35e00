//! Box-tree construction: penalty-driven cut planes, weighted bisection, thick cut plane.
//!
//! Rationale. For each axis the cut coordinate `c` is searched by a weighted bisection on the
//! monotone balance `|n_l - n_r|` (thesis 3.6.3), and the axis is chosen by the full penalty
//! `|n_l - n_r| + gamma n_c`. Counting uses a cut plane of thickness `2 delta`: an element is left
//! when its AABB ends below `c + delta`, right when it starts above `c - delta`, crossing
//! otherwise. The thesis stores such "nearly left" elements on the left only, which would lose the
//! part poking across the cut; here the thick plane instead *places* the cut: `c` is moved inside
//! `[c - delta, c + delta]` into the gap between the highest "left" and the lowest "right" element
//! when there is one (for a sphere cut at its equator this puts the cut exactly on the equator
//! vertices), and the elements are then distributed exactly: an element goes left when its AABB has
//! a point below the cut (or lies flat in it), right when it has a point above it. Rounding noise
//! on symmetric meshes thus costs no duplicates, and no element is ever cut short.
//!
//! Before any penalty cut, an empty slab of at least `min_empty_fraction` of the box's extent
//! along one side (space the box covers but no element reaches) is cut off as an empty leaf: the
//! thesis's proposed "allow empty boxes" heuristic (3.6.3-3.6.4). Children of a box are halves,
//! never refitted, so without this the leaves of a surface mesh also tile the empty space around
//! it and near-touching pairs keep overlapping down to the leaves. The stop rules (`d_max`,
//! `Min`, an empty child, a child above `lambda n`) apply to penalty cuts.
//!
//! The thesis's bisection update is garbled in the extraction; the reconstruction used: with
//! `n_l < n_r` the bracket becomes `[c, r]` and the next guess assumes the right elements are
//! spread evenly over `(c, r]`, so it moves right by the fraction `(n_r - n_l) / (2 n_r)` of
//! `r - c` (mirrored for `n_l > n_r`); the guess always stays strictly inside the bracket.

use colldet_geom::bounding::Aabb;
use colldet_geom::math::{Real, is_finite_point};

use crate::error::NarrowError;
use crate::mesh::box_tree::BoxTreeOptions;
use crate::mesh::box_tree::box_tree::{BoxTree, BoxTreeNode, split_box};

/// The bisection stops once its bracket is narrower than this fraction of the box extent.
const MIN_BRACKET: f64 = 1e-7;

pub(crate) fn build(
    element_boxes: &[Aabb],
    options: &BoxTreeOptions,
) -> Result<BoxTree, NarrowError> {
    options.validate()?;
    if element_boxes.is_empty() {
        return Err(NarrowError::EmptyBoxTree);
    }
    if u32::try_from(element_boxes.len()).is_err() {
        return Err(NarrowError::BrokenInvariant {
            what: "more than u32::MAX box-tree elements",
            index: element_boxes.len(),
        });
    }
    let mut root = element_boxes[0];
    for (index, b) in element_boxes.iter().enumerate() {
        if !(is_finite_point(&b.mins) && is_finite_point(&b.maxs)) {
            return Err(NarrowError::NonFinite {
                what: "box-tree element box",
            });
        }
        if (0..3).any(|k| b.mins[k] > b.maxs[k]) {
            return Err(NarrowError::BrokenInvariant {
                what: "box-tree element box has mins > maxs",
                index,
            });
        }
        root.merge(b);
    }
    let mut builder = Builder {
        boxes: element_boxes,
        options,
        nodes: Vec::new(),
        elements: Vec::new(),
        depth: 0,
    };
    let all: Vec<u32> = (0..element_boxes.len() as u32).collect();
    builder.node(root, all, 0);
    Ok(BoxTree {
        root_box: root,
        nodes: builder.nodes,
        elements: builder.elements,
        element_count: element_boxes.len(),
        depth: builder.depth,
    })
}

struct Builder<'a> {
    boxes: &'a [Aabb],
    options: &'a BoxTreeOptions,
    nodes: Vec<BoxTreeNode>,
    elements: Vec<u32>,
    depth: u32,
}

/// Counts of one thick-plane classification.
#[derive(Clone, Copy)]
struct Counts {
    left: usize,
    right: usize,
    crossing: usize,
}

impl Builder<'_> {
    /// Builds the subtree for `elements` inside `bounds` and returns its node index.
    fn node(&mut self, bounds: Aabb, elements: Vec<u32>, depth: u32) -> u32 {
        let index = self.nodes.len() as u32;
        self.nodes.push(BoxTreeNode::Leaf { start: 0, len: 0 });
        self.depth = self.depth.max(depth);
        match self.split(&bounds, &elements, depth) {
            Some((axis, cut, left, right)) => {
                drop(elements);
                let (left_box, right_box) = split_box(&bounds, axis, cut);
                let l = self.node(left_box, left, depth + 1);
                let r = self.node(right_box, right, depth + 1);
                self.nodes[index as usize] = BoxTreeNode::Inner {
                    axis: axis as u8,
                    cut,
                    left: l,
                    right: r,
                };
            }
            None => {
                let start = self.elements.len() as u32;
                self.elements.extend_from_slice(&elements);
                self.nodes[index as usize] = BoxTreeNode::Leaf {
                    start,
                    len: elements.len() as u32,
                };
            }
        }
        index
    }

    /// The cut of `bounds` and the two element lists, or `None` when a stop rule holds.
    fn split(
        &self,
        bounds: &Aabb,
        elements: &[u32],
        depth: u32,
    ) -> Option<(usize, Real, Vec<u32>, Vec<u32>)> {
        let n = elements.len();
        if depth >= self.options.max_depth || n == 0 {
            return None;
        }
        if let Some(cut) = self.cut_off_empty_slab(bounds, elements) {
            return Some(cut);
        }
        if n <= self.options.min_elements as usize {
            return None;
        }
        // (penalty, extent, axis, cut) per splittable axis.
        let mut candidates: Vec<(f64, f64, usize, f64)> = (0..3)
            .filter_map(|axis| {
                let lo = f64::from(bounds.mins[axis]);
                let hi = f64::from(bounds.maxs[axis]);
                (hi > lo).then(|| {
                    let (penalty, cut) = self.bisect(elements, axis, lo, hi);
                    (penalty, hi - lo, axis, cut)
                })
            })
            .collect();
        // Lowest penalty first; on a tie the longest box edge (thesis's rule 3).
        candidates.sort_by(|a, b| a.0.total_cmp(&b.0).then(b.1.total_cmp(&a.1)));
        let limit = self.options.max_child_fraction * n as f64;
        for &(_, extent, axis, cut) in &candidates {
            let delta = self.options.cut_thickness * extent;
            let Some(cut) = self.place_cut(bounds, elements, axis, cut, delta) else {
                continue;
            };
            let (left, right) = self.distribute(elements, axis, cut);
            if left.is_empty() || right.is_empty() {
                continue;
            }
            if left.len() as f64 > limit || right.len() as f64 > limit {
                continue;
            }
            return Some((axis, cut, left, right));
        }
        None
    }

    /// The widest empty slab along a side of `bounds` (at least `min_empty_fraction` of the
    /// extent) as a cut with all elements on one side, or `None`. The cut is placed exactly at
    /// the elements' bound on the high side and one `f32` step below it on the low side, so no
    /// element (not even one lying flat in the plane) lands in the empty child.
    fn cut_off_empty_slab(
        &self,
        bounds: &Aabb,
        elements: &[u32],
    ) -> Option<(usize, Real, Vec<u32>, Vec<u32>)> {
        let mut used = self.boxes[elements[0] as usize];
        for &e in &elements[1..] {
            used.merge(&self.boxes[e as usize]);
        }
        let mut best: Option<(f64, usize, Real, bool)> = None;
        for axis in 0..3 {
            let (lo, hi) = (bounds.mins[axis], bounds.maxs[axis]);
            let extent = f64::from(hi) - f64::from(lo);
            if extent <= 0.0 {
                continue;
            }
            let low_gap = (f64::from(used.mins[axis]) - f64::from(lo)) / extent;
            let high_gap = (f64::from(hi) - f64::from(used.maxs[axis])) / extent;
            let low_cut = used.mins[axis].next_down();
            if low_gap >= self.options.min_empty_fraction
                && lo < low_cut
                && best.is_none_or(|b| low_gap > b.0)
            {
                best = Some((low_gap, axis, low_cut, true));
            }
            let high_cut = used.maxs[axis];
            if high_gap >= self.options.min_empty_fraction
                && high_cut < hi
                && lo < high_cut
                && best.is_none_or(|b| high_gap > b.0)
            {
                best = Some((high_gap, axis, high_cut, false));
            }
        }
        let (_, axis, cut, empty_low) = best?;
        let all = elements.to_vec();
        Some(if empty_low {
            (axis, cut, Vec::new(), all)
        } else {
            (axis, cut, all, Vec::new())
        })
    }

    /// Thick-plane classification of `elements` at `cut` along `axis`.
    fn count(&self, elements: &[u32], axis: usize, cut: f64, delta: f64) -> Counts {
        let mut counts = Counts {
            left: 0,
            right: 0,
            crossing: 0,
        };
        for &e in elements {
            match self.side(e, axis, cut, delta) {
                Side::Left => counts.left += 1,
                Side::Right => counts.right += 1,
                Side::Crossing => counts.crossing += 1,
            }
        }
        counts
    }

    fn side(&self, e: u32, axis: usize, cut: f64, delta: f64) -> Side {
        let b = &self.boxes[e as usize];
        let lo = f64::from(b.mins[axis]);
        let hi = f64::from(b.maxs[axis]);
        let left = hi <= cut + delta;
        let right = lo >= cut - delta;
        match (left, right) {
            // Entirely inside the thick plane: the side of its centre.
            (true, true) if lo + hi <= 2.0 * cut => Side::Left,
            (true, true) => Side::Right,
            (true, false) => Side::Left,
            (false, true) => Side::Right,
            (false, false) => Side::Crossing,
        }
    }

    /// Weighted bisection for the balanced cut along `axis` in `[lo, hi]`; returns the best
    /// penalty `|n_l - n_r| + gamma n_c` seen and its cut.
    fn bisect(&self, elements: &[u32], axis: usize, lo: f64, hi: f64) -> (f64, f64) {
        let extent = hi - lo;
        let delta = self.options.cut_thickness * extent;
        let gamma = self.options.crossing_penalty;
        let (mut l, mut r) = (lo, hi);
        let mut cut = 0.5 * (lo + hi);
        let mut best = (f64::INFINITY, cut);
        for _ in 0..self.options.bisection_steps {
            let counts = self.count(elements, axis, cut, delta);
            let (nl, nr) = (counts.left as f64, counts.right as f64);
            let imbalance = (nl - nr).abs();
            let penalty = imbalance + gamma * counts.crossing as f64;
            if penalty < best.0 {
                best = (penalty, cut);
            }
            if imbalance <= self.options.balance_tolerance {
                break;
            }
            if nl < nr {
                l = cut;
                cut += (r - cut) * (nr - nl) / (2.0 * nr);
            } else {
                r = cut;
                cut -= (cut - l) * (nl - nr) / (2.0 * nl);
            }
            if r - l <= MIN_BRACKET * extent {
                break;
            }
        }
        best
    }

    /// Moves `cut` within the thick plane into the gap between the thick-left and thick-right
    /// elements when there is one, rounds it to local precision, and returns it if it lies
    /// strictly inside the box.
    fn place_cut(
        &self,
        bounds: &Aabb,
        elements: &[u32],
        axis: usize,
        cut: f64,
        delta: f64,
    ) -> Option<Real> {
        let mut left_max = Real::NEG_INFINITY;
        let mut right_min = Real::INFINITY;
        for &e in elements {
            let b = &self.boxes[e as usize];
            match self.side(e, axis, cut, delta) {
                Side::Left => left_max = left_max.max(b.maxs[axis]),
                Side::Right => right_min = right_min.min(b.mins[axis]),
                Side::Crossing => {}
            }
        }
        let rounded = cut as Real;
        let placed = if left_max <= right_min && left_max.is_finite() && right_min.is_finite() {
            rounded.clamp(left_max, right_min)
        } else {
            rounded
        };
        (bounds.mins[axis] < placed && placed < bounds.maxs[axis]).then_some(placed)
    }

    /// Exact distribution at `cut`: left when the AABB has a point below the cut or lies flat in
    /// it, right when it has a point above it.
    fn distribute(&self, elements: &[u32], axis: usize, cut: Real) -> (Vec<u32>, Vec<u32>) {
        let mut left = Vec::new();
        let mut right = Vec::new();
        for &e in elements {
            let b = &self.boxes[e as usize];
            if b.mins[axis] < cut || b.maxs[axis] <= cut {
                left.push(e);
            }
            if b.maxs[axis] > cut {
                right.push(e);
            }
        }
        (left, right)
    }
}

#[derive(Clone, Copy)]
enum Side {
    Left,
    Right,
    Crossing,
}
