//! Construction parameters of a box tree (Zachmann's thesis, section 3.6.3).

use crate::error::NarrowError;

/// How a [`crate::mesh::box_tree::BoxTree`] is built: the cut-plane penalty, the weighted
/// bisection that searches it, and the rules that stop the recursion. All lengths are relative to
/// the extent of the box being split, so the same options serve a 1e-12-sized and a 1e12-sized
/// object.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoxTreeOptions {
    /// `d_max`: a node at this depth (the root has depth 0) becomes a leaf. At most 48.
    pub max_depth: u32,
    /// `Min`: a node holding at most this many elements becomes a leaf. At least 1.
    pub min_elements: u32,
    /// `gamma` in the penalty `|n_l - n_r| + gamma n_c` that chooses among the three axes: how
    /// much worse one element crossing the cut is than one element of imbalance. Finite, `>= 0`.
    pub crossing_penalty: f64,
    /// `lambda`: the split is refused (the node becomes a leaf) when one child would hold more
    /// than `lambda n` of its parent's `n` elements. In `(0, 1]`; 1 only refuses children that
    /// receive every element.
    pub max_child_fraction: f64,
    /// `delta` as a fraction of the box's extent along the cut axis: the cut plane is `2 delta`
    /// thick when elements are counted, so elements that only reach into the plane by rounding
    /// noise (vertices of symmetric meshes lying "on" the plane) are not counted as crossing.
    /// In `[0, 0.25)`.
    pub cut_thickness: f64,
    /// `Max`: iterations of the weighted bisection per axis. At least 1.
    pub bisection_steps: u32,
    /// `p_max`: the bisection stops once `|n_l - n_r| <= p_max`. Finite, `>= 0`.
    pub balance_tolerance: f64,
    /// Empty boxes (the thesis's alternative heuristic, 3.6.3 "Other criteria"): when the
    /// elements of a box leave an empty slab of at least this fraction of the box's extent along
    /// some axis, the slab is cut off first as an empty leaf, which the traversal discards at
    /// once. In `(0, 1]`; 1 never cuts off empty slabs.
    pub min_empty_fraction: f64,
}

impl Default for BoxTreeOptions {
    /// `d_max = 24`, `Min = 8`, `gamma = 1`, `lambda = 0.6`, `delta = 1e-4` of the extent,
    /// `Max = 10`, `p_max = 0.5` (the thesis's typical values where it gives them), empty slabs
    /// of a fifth of the extent cut off. `Min` and `lambda` were chosen by timing close-proximity
    /// pairs of 1000-face spheres, tori and tetra-flakes (a larger `lambda` splits deeper and
    /// duplicates many more faces on spheres, which costs more than it prunes).
    fn default() -> Self {
        Self {
            max_depth: 24,
            min_elements: 8,
            crossing_penalty: 1.0,
            max_child_fraction: 0.6,
            cut_thickness: 1e-4,
            bisection_steps: 10,
            balance_tolerance: 0.5,
            min_empty_fraction: 0.2,
        }
    }
}

impl BoxTreeOptions {
    /// Checks every field against its documented range.
    ///
    /// # Errors
    /// [`NarrowError::InvalidBoxTreeOption`] naming the first field out of range.
    pub fn validate(&self) -> Result<(), NarrowError> {
        let bad = |option, value: f64, requirement| {
            Err(NarrowError::InvalidBoxTreeOption {
                option,
                value,
                requirement,
            })
        };
        if self.max_depth > 48 {
            return bad("max_depth", f64::from(self.max_depth), "must be at most 48");
        }
        if self.min_elements == 0 {
            return bad("min_elements", 0.0, "must be at least 1");
        }
        if !(self.crossing_penalty.is_finite() && self.crossing_penalty >= 0.0) {
            return bad(
                "crossing_penalty",
                self.crossing_penalty,
                "must be finite and >= 0",
            );
        }
        if !(self.max_child_fraction > 0.0 && self.max_child_fraction <= 1.0) {
            return bad(
                "max_child_fraction",
                self.max_child_fraction,
                "must be in (0, 1]",
            );
        }
        if !(self.cut_thickness >= 0.0 && self.cut_thickness < 0.25) {
            return bad("cut_thickness", self.cut_thickness, "must be in [0, 0.25)");
        }
        if self.bisection_steps == 0 {
            return bad("bisection_steps", 0.0, "must be at least 1");
        }
        if !(self.balance_tolerance.is_finite() && self.balance_tolerance >= 0.0) {
            return bad(
                "balance_tolerance",
                self.balance_tolerance,
                "must be finite and >= 0",
            );
        }
        if !(self.min_empty_fraction > 0.0 && self.min_empty_fraction <= 1.0) {
            return bad(
                "min_empty_fraction",
                self.min_empty_fraction,
                "must be in (0, 1]",
            );
        }
        Ok(())
    }
}
