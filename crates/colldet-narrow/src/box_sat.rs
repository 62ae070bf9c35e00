//! The 15-axis separating-axis test of two boxes (Gottschalk's OBB test), shared by the AABB and
//! OBB tree volumes and the Chung-Wang test's bounding-box pre-test.

use nalgebra::{Matrix3, Vector3};

/// Two boxes placed in box 1's frame (its axes are the coordinate axes, its centre the origin):
/// `t` is box 2's centre, the columns of `c` are box 2's axes, `abs_c` is `c` entry-wise
/// absolute, `h1`, `h2` are the half extents along each box's own axes (all in the same length
/// units).
pub(crate) struct PlacedBoxes<'a> {
    pub t: &'a Vector3<f64>,
    pub c: &'a Matrix3<f64>,
    pub abs_c: &'a Matrix3<f64>,
    pub h1: &'a Vector3<f64>,
    pub h2: &'a Vector3<f64>,
}

impl PlacedBoxes<'_> {
    /// True unless one of the 15 candidate axes (box 1's face normals, box 2's, and the 9 edge
    /// cross products) separates the boxes by more than `margin` (a length, added to every
    /// axis's sum of projected radii).
    #[inline]
    pub fn overlap_15(&self, margin: f64) -> bool {
        !(0..3).any(|i| self.face1_separates(i, margin)) && self.overlap_12(margin)
    }

    /// True when box 1's face normal `i` (`< 3`) separates the boxes by more than `margin`.
    /// Reads only row `i` of `abs_c`, `t[i]` and the half extents, so a caller may fill `c` row
    /// by row and stop at the first separating row.
    #[inline(always)]
    pub fn face1_separates(&self, i: usize, margin: f64) -> bool {
        let Self {
            t, abs_c, h1, h2, ..
        } = *self;
        let r2 = h2[0] * abs_c[(i, 0)] + h2[1] * abs_c[(i, 1)] + h2[2] * abs_c[(i, 2)];
        t[i].abs() > h1[i] + r2 + margin
    }

    /// True unless one of the 12 axes other than box 1's face normals (box 2's face normals,
    /// then the 9 edge crosses) separates the boxes by more than `margin`: the rest of
    /// [`PlacedBoxes::overlap_15`] once box 1's face normals are known not to separate.
    #[inline(always)]
    pub fn overlap_12(&self, margin: f64) -> bool {
        let Self {
            t,
            c,
            abs_c,
            h1,
            h2,
        } = *self;
        // Box 2's face normals (the columns of c).
        for j in 0..3 {
            let tj = t[0] * c[(0, j)] + t[1] * c[(1, j)] + t[2] * c[(2, j)];
            let r1 = h1[0] * abs_c[(0, j)] + h1[1] * abs_c[(1, j)] + h1[2] * abs_c[(2, j)];
            if tj.abs() > r1 + h2[j] + margin {
                return false;
            }
        }
        // Edge crosses e_i x c_j.
        for i in 0..3 {
            for j in 0..3 {
                if self.edge_axis_separates(i, j, margin) {
                    return false;
                }
            }
        }
        true
    }

    /// True when the edge-cross axis `e_i x c_j` (box 1's axis `i` crossed with box 2's axis
    /// `j`, indices `< 3`) separates the boxes by more than `margin`: the centres' distance along
    /// it exceeds the sum of the projected radii plus `margin`. The axis is left unnormalised
    /// (length `<= 1`), so distances and radii are both scaled by its length.
    #[inline]
    pub fn edge_axis_separates(&self, i: usize, j: usize, margin: f64) -> bool {
        let Self {
            t,
            c,
            abs_c,
            h1,
            h2,
        } = *self;
        // (i1, i2) and (j1, j2) are the other two indices, cyclically.
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
        let dist = (t[i2] * c[(i1, j)] - t[i1] * c[(i2, j)]).abs();
        let r1 = h1[i1] * abs_c[(i2, j)] + h1[i2] * abs_c[(i1, j)];
        let r2 = h2[j1] * abs_c[(i, j2)] + h2[j2] * abs_c[(i, j1)];
        dist > r1 + r2 + margin
    }
}
