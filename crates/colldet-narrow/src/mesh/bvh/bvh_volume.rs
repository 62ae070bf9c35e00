//! Node volumes of a [`MeshBvh`](super::MeshBvh): local-frame AABBs and covariance OBBs, and the
//! pair frame both use to test a node of tree 1 against a node of tree 2.
//!
//! Rationale (conservative pair tests).
//! - The two trees live in different frames. Tree 2's triangles are mapped into tree 1's frame by
//!   `p -> R p + t` in `f64`, with `R` the rotation matrix of `pos12`'s quaternion renormalised in
//!   `f64` ([`BvhPairFrame`]); the leaf test sees exactly those mapped points. A volume test must
//!   never call two volumes apart when a triangle pair inside them can meet, so every test works
//!   on the same `R` and `t`, and a candidate separating axis only separates when its gap exceeds
//!   `margin = 256 eps_f64 S`, where `S` bounds the size of every quantity involved (coordinates
//!   of both roots plus `|t|`). Rounding errors of the test and of the mapped leaf vertices are a
//!   few ulps of `S`, so the margin covers both; it is relative, so 1e-12-sized meshes work.
//! - AABB pair test: box 1 is axis-aligned in frame 1, box 2 is axis-aligned in frame 2, hence an
//!   oriented box with axes `R` in frame 1. `R` and `|R|` are the same for every node pair of a
//!   query, so the 15-axis separating-axis test (3 + 3 face normals, 9 edge crosses; complete for
//!   two boxes) costs one matrix-vector product plus the comparisons.
//! - OBB pair test: RAPID's test on `C = A^T R B` (`obb_pair.rs`), with the margin widened by a
//!   bound on how far the nodes' `f32` axes are from orthonormal; trees whose axes are too far off
//!   use [`Obb::overlaps_with`], the exact 15-axis test of `colldet_geom`, with the same `R` and
//!   `t`. Both box tests share one 15-axis loop (`crate::box_sat`).
//! - Distance lower bounds project both boxes onto the six face normals (unit vectors): the gap
//!   between the projected intervals minus the margin never exceeds the distance between the
//!   boxes, because projection onto a unit vector shortens every segment.

use super::obb_pair::obb_pair_overlaps;
use super::placed_volume::PlacedVolume;
use super::{BvhNode, MeshBvh};
use crate::NarrowError;
use crate::RelativePose;
use crate::box_sat::PlacedBoxes;
use colldet_geom::math::{Point, PointD, VectorD, to_f64};
use colldet_geom::{Aabb, GeomError, Obb};
use nalgebra::Matrix3;

/// Margin of the pair tests in units of `f64::EPSILON` times the pair's scale (see the module
/// rationale).
const PAIR_SLACK: f64 = 256.0;

/// `pos12` prepared once per query: the `f64` rotation and translation that map tree 2's frame
/// into tree 1's, and the margin of the volume tests.
#[derive(Clone, Copy, Debug)]
pub struct BvhPairFrame {
    /// Rotation of `pos12` as an `f64` matrix ([`RelativePose::widened_parts`]).
    pub rotation: Matrix3<f64>,
    /// Entrywise absolute value of [`Self::rotation`].
    pub abs_rotation: Matrix3<f64>,
    /// Translation of `pos12` in `f64`.
    pub translation: VectorD,
    /// Absolute margin of the separating-axis tests, in shape 1's units: `256 eps_f64` times the
    /// sum of both roots' coordinate bounds and `|t|_1`, plus both trees'
    /// [`MeshBvh::vertex_rounding`] (volumes fit the `f32` copies of `f64` input).
    pub margin: f64,
    /// Bound on how far both trees' node axes (and `R` applied to tree 2's) are from exact
    /// rotations, spectral norm (0 for AABB trees); see `obb_pair`.
    pub axes_error: f64,
}

impl BvhPairFrame {
    /// Prepares `pos12` for a query between `bvh1` and `bvh2`.
    ///
    /// # Errors
    /// [`NarrowError::NonFinite`] when the rotation or translation of `pos12` is NaN or infinite,
    /// or the quaternion is zero.
    pub fn new<V: BvhVolume>(
        pos12: &impl RelativePose,
        bvh1: &MeshBvh<V>,
        bvh2: &MeshBvh<V>,
    ) -> Result<Self, NarrowError> {
        let (root1, root2) = (bvh1.root_volume(), bvh2.root_volume());
        let (rotation, translation) = pos12.widened_parts()?;
        let scale = root1.coordinate_bound() + root2.coordinate_bound() + translation.abs().sum();
        // Volumes are fitted to the `f32` copies; the leaves see the positions as given.
        let rounding = bvh1.vertex_rounding() + bvh2.vertex_rounding();
        Ok(Self {
            rotation,
            abs_rotation: rotation.abs(),
            translation,
            margin: PAIR_SLACK * f64::EPSILON * scale + rounding,
            axes_error: if V::NESTED {
                0.0
            } else {
                bvh1.axes_error.max(bvh2.axes_error) + 1e-12
            },
        })
    }

    /// Maps a point of shape 2's frame into shape 1's frame (`R p + t`, in `f64`).
    #[inline]
    pub fn map_point(&self, p: &PointD) -> PointD {
        PointD::from(self.rotation * p.coords + self.translation)
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for colldet_geom::Aabb {}
    impl Sealed for colldet_geom::Obb {}
    impl Sealed for super::super::ObbRss {}
    impl Sealed for super::super::Rss {}
}

/// A bounding volume usable as a node of a [`MeshBvh`](super::MeshBvh), in the mesh's local frame
/// (`f32`). Implemented for [`Aabb`], [`Obb`], [`Rss`](super::Rss) and
/// [`ObbRss`](super::ObbRss); sealed.
pub trait BvhVolume: Copy + std::fmt::Debug + Send + Sync + sealed::Sealed + 'static {
    /// Short name for reports ("aabb", "obb").
    const NAME: &'static str;
    /// True when a parent's volume always contains its children's volumes (AABB trees), so
    /// validation can check nesting; OBB parents are fitted to their triangles (as in RAPID) and
    /// only contain the children's triangles.
    const NESTED: bool;
    /// True when [`BvhVolume::fit_tree`] fits from area moments, so RAPID's split can take
    /// its directions from the moments too (no per-node fit during the build).
    const FITS_FROM_MOMENTS: bool = false;

    /// The volume fitted to `triangles` (vertex-index triples into `vertices`), containing every
    /// vertex they use.
    ///
    /// # Errors
    /// [`GeomError`] for no triangles, an index out of range or a non-finite vertex.
    fn fit(vertices: &[Point], triangles: &[[u32; 3]]) -> Result<Self, GeomError>;

    /// Fits every volume of a tree (children stored after their parents), freshly built or
    /// refitted, from the vertices and the topology only, so a refit equals a build with the same
    /// topology. AABBs: leaves fitted, parents merged; OBBs: area moments summed bottom-up, each
    /// box sized around its vertices (see `obb_fit`). Returns a bound on how far the fitted
    /// volumes' axes are from exact rotations (spectral norm of the difference, see `obb_pair`),
    /// infinite when some node's axes are far from one; 0 for axis-aligned volumes.
    ///
    /// # Errors
    /// As [`BvhVolume::fit`].
    fn fit_tree(
        nodes: &mut [BvhNode<Self>],
        vertices: &[Point],
        triangles: &[[u32; 3]],
    ) -> Result<f64, NarrowError>;

    /// True when the local point `p` lies in the closed volume.
    fn contains_point(&self, p: &Point) -> bool;

    /// True when `child` lies inside this volume (used by validation when [`Self::NESTED`]).
    fn contains_volume(&self, child: &Self) -> bool;

    /// The volume's axes (unit vectors, local frame) sorted from longest extent to shortest:
    /// the candidate split directions of RAPID's rule.
    fn split_axes(&self) -> [VectorD; 3];

    /// An upper bound on `|center|_1 + |half extents|_1`, local units: the coordinate scale used
    /// for relative margins.
    fn coordinate_bound(&self) -> f64;

    /// A size measure (sum of half extents), local units: traversal descends the larger node.
    fn size(&self) -> f64;

    /// This volume (a node of tree 2) mapped into tree 1's frame by `frame`: the part of its
    /// pair tests that does not depend on the tree-1 node, computed once per node and query by
    /// the traversal (`placed_volume.rs`).
    fn place(&self, frame: &BvhPairFrame) -> PlacedVolume;

    /// [`BvhVolume::overlaps`] for `other` already placed: `placed` must be
    /// `other.place(frame)`.
    fn overlaps_placed(&self, other: &Self, placed: &PlacedVolume, frame: &BvhPairFrame) -> bool;

    /// True unless a separating axis proves this volume (tree 1) and `other` (tree 2, mapped by
    /// `frame`) disjoint. Conservative: never false when triangles inside them can meet.
    #[inline]
    fn overlaps(&self, other: &Self, frame: &BvhPairFrame) -> bool {
        self.overlaps_placed(other, &other.place(frame), frame)
    }

    /// A lower bound (non-negative, shape 1's units) on the distance between this volume and
    /// `other` mapped by `frame`.
    fn distance_lower_bound(&self, other: &Self, frame: &BvhPairFrame) -> f64;

    /// [`BvhVolume::distance_lower_bound`] for a traversal that prunes pairs whose bound reaches
    /// `limit`: the work may stop as soon as a bound of at least `limit` is found, so the result
    /// is the full bound or some lower bound at least `limit` (never above the distance). The
    /// default computes the full bound.
    #[inline]
    fn distance_lower_bound_below(&self, other: &Self, frame: &BvhPairFrame, limit: f64) -> f64 {
        let _ = limit;
        self.distance_lower_bound(other, frame)
    }

    /// True unless the ray `origin + s dir` (`s >= 0`, local frame, `f64`) provably misses the
    /// volume grown by `margin` (local units) on every side. Conservative up to rounding far below
    /// `margin`; `dir` need not be a unit vector but must be finite and non-zero.
    fn ray_may_hit(&self, origin: &VectorD, dir: &VectorD, margin: f64) -> bool;
}

/// Slab test: does `u + s v` (`s >= 0`) stay within `|u_k + s v_k| <= h_k` on every axis for some
/// common `s`? Box coordinates, `f64`.
#[inline]
fn ray_hits_slabs(u: &VectorD, v: &VectorD, h: &VectorD) -> bool {
    let (mut enter, mut exit) = (0.0f64, f64::INFINITY);
    for k in 0..3 {
        if v[k] == 0.0 {
            if u[k].abs() > h[k] {
                return false;
            }
            continue;
        }
        let inv = 1.0 / v[k];
        let (s0, s1) = ((-h[k] - u[k]) * inv, (h[k] - u[k]) * inv);
        let (lo, hi) = if s0 <= s1 { (s0, s1) } else { (s1, s0) };
        enter = enter.max(lo);
        exit = exit.min(hi);
        if enter > exit {
            return false;
        }
    }
    true
}

/// Center and half extents of an AABB in `f64` (exact up to one rounding each).
#[inline]
fn aabb_center_half(a: &Aabb) -> (VectorD, VectorD) {
    let lo = to_f64(&a.mins).coords;
    let hi = to_f64(&a.maxs).coords;
    ((lo + hi) * 0.5, (hi - lo) * 0.5)
}

impl BvhVolume for Aabb {
    const NAME: &'static str = "aabb";
    const NESTED: bool = true;

    fn fit(vertices: &[Point], triangles: &[[u32; 3]]) -> Result<Self, GeomError> {
        let first = triangles.first().ok_or(GeomError::NoFaces)?;
        let start = *checked_vertex(vertices, first[0], 0)?;
        let mut aabb = Aabb::from_point(start);
        for (face, t) in triangles.iter().enumerate() {
            for &i in t {
                aabb.include_point(checked_vertex(vertices, i, face)?);
            }
        }
        Ok(aabb)
    }

    fn fit_tree(
        nodes: &mut [BvhNode<Self>],
        vertices: &[Point],
        triangles: &[[u32; 3]],
    ) -> Result<f64, NarrowError> {
        for n in (0..nodes.len()).rev() {
            let node = nodes[n];
            nodes[n].volume = match node.children() {
                None => {
                    let range = node.first as usize..(node.first + node.count) as usize;
                    Self::fit(vertices, &triangles[range])?
                }
                Some([a, b]) => nodes[a as usize].volume.merged(&nodes[b as usize].volume),
            };
        }
        Ok(0.0)
    }

    #[inline]
    fn contains_point(&self, p: &Point) -> bool {
        Aabb::contains_point(self, p)
    }

    fn contains_volume(&self, child: &Self) -> bool {
        (0..3).all(|i| self.mins[i] <= child.mins[i] && child.maxs[i] <= self.maxs[i])
    }

    fn split_axes(&self) -> [VectorD; 3] {
        let ext = self.maxs - self.mins;
        let mut order = [0usize, 1, 2];
        order.sort_by(|&a, &b| ext[b].total_cmp(&ext[a]));
        order.map(|k| {
            let mut v = VectorD::zeros();
            v[k] = 1.0;
            v
        })
    }

    fn coordinate_bound(&self) -> f64 {
        (0..3)
            .map(|k| f64::from(self.mins[k].abs().max(self.maxs[k].abs())))
            .sum()
    }

    #[inline]
    fn size(&self) -> f64 {
        f64::from((self.maxs - self.mins).sum())
    }

    #[inline]
    fn place(&self, frame: &BvhPairFrame) -> PlacedVolume {
        let (c2, b) = aabb_center_half(self);
        PlacedVolume {
            axes: frame.rotation,
            center: frame.rotation * c2 + frame.translation,
            half_extents: b,
        }
    }

    #[inline]
    fn overlaps_placed(&self, _: &Self, placed: &PlacedVolume, frame: &BvhPairFrame) -> bool {
        let (c1, a) = aabb_center_half(self);
        // Box 2's center relative to box 1's, in frame 1 (box 1's axes are the coordinate axes).
        let t = placed.center - c1;
        PlacedBoxes {
            t: &t,
            c: &frame.rotation,
            abs_c: &frame.abs_rotation,
            h1: &a,
            h2: &placed.half_extents,
        }
        .overlap_15(frame.margin)
    }

    fn distance_lower_bound(&self, other: &Self, frame: &BvhPairFrame) -> f64 {
        let (c1, a) = aabb_center_half(self);
        let (c2, b) = aabb_center_half(other);
        let r = &frame.rotation;
        let ar = &frame.abs_rotation;
        let t = r * c2 + frame.translation - c1;
        let mut gap = 0.0f64;
        for i in 0..3 {
            let rb = ar[(i, 0)] * b[0] + ar[(i, 1)] * b[1] + ar[(i, 2)] * b[2];
            gap = gap.max(t[i].abs() - a[i] - rb);
        }
        for j in 0..3 {
            let tj = r[(0, j)] * t[0] + r[(1, j)] * t[1] + r[(2, j)] * t[2];
            let ra = ar[(0, j)] * a[0] + ar[(1, j)] * a[1] + ar[(2, j)] * a[2];
            gap = gap.max(tj.abs() - ra - b[j]);
        }
        (gap - frame.margin).max(0.0)
    }

    #[inline]
    fn ray_may_hit(&self, origin: &VectorD, dir: &VectorD, margin: f64) -> bool {
        let (c, h) = aabb_center_half(self);
        ray_hits_slabs(&(origin - c), dir, &h.add_scalar(margin))
    }
}

impl BvhVolume for Obb {
    const NAME: &'static str = "obb";
    const NESTED: bool = false;
    const FITS_FROM_MOMENTS: bool = true;

    fn fit(vertices: &[Point], triangles: &[[u32; 3]]) -> Result<Self, GeomError> {
        Obb::from_triangles(vertices, triangles)
    }

    fn fit_tree(
        nodes: &mut [BvhNode<Self>],
        vertices: &[Point],
        triangles: &[[u32; 3]],
    ) -> Result<f64, NarrowError> {
        super::obb_fit::fit_obb_tree(nodes, vertices, triangles)
    }

    #[inline]
    fn contains_point(&self, p: &Point) -> bool {
        Obb::contains_point(self, p)
    }

    fn contains_volume(&self, child: &Self) -> bool {
        child.corners().iter().all(|c| self.contains_point(c))
    }

    fn split_axes(&self) -> [VectorD; 3] {
        let mut order = [0usize, 1, 2];
        let h = self.half_extents;
        order.sort_by(|&a, &b| h[b].total_cmp(&h[a]));
        order.map(|k| {
            let v: VectorD = self.axes.column(k).into_owned().cast();
            v.try_normalize(0.0).unwrap_or_else(|| {
                let mut e = VectorD::zeros();
                e[k] = 1.0;
                e
            })
        })
    }

    fn coordinate_bound(&self) -> f64 {
        to_f64(&self.center).coords.abs().sum() + 3.0 * f64::from(self.half_extents.sum())
    }

    #[inline]
    fn size(&self) -> f64 {
        f64::from(self.half_extents.sum())
    }

    #[inline]
    fn place(&self, frame: &BvhPairFrame) -> PlacedVolume {
        PlacedVolume {
            axes: frame.rotation * self.axes.cast::<f64>(),
            center: frame.rotation * to_f64(&self.center).coords + frame.translation,
            half_extents: self.half_extents.cast(),
        }
    }

    #[inline]
    fn overlaps_placed(&self, other: &Self, placed: &PlacedVolume, frame: &BvhPairFrame) -> bool {
        obb_pair_overlaps(self, other, placed, frame)
    }

    fn distance_lower_bound(&self, other: &Self, frame: &BvhPairFrame) -> f64 {
        let a: Matrix3<f64> = self.axes.cast();
        let b: Matrix3<f64> = frame.rotation * other.axes.cast::<f64>();
        let ha: VectorD = self.half_extents.cast();
        let hb: VectorD = other.half_extents.cast();
        let t = frame.rotation * to_f64(&other.center).coords + frame.translation
            - to_f64(&self.center).coords;
        let mut gap = 0.0f64;
        for k in 0..6 {
            let axis = if k < 3 { a.column(k) } else { b.column(k - 3) };
            let Some(u) = axis.into_owned().try_normalize(0.0) else {
                continue;
            };
            let ra: f64 = (0..3).map(|i| ha[i] * u.dot(&a.column(i)).abs()).sum();
            let rb: f64 = (0..3).map(|j| hb[j] * u.dot(&b.column(j)).abs()).sum();
            gap = gap.max(u.dot(&t).abs() - ra - rb);
        }
        (gap - frame.margin).max(0.0)
    }

    fn ray_may_hit(&self, origin: &VectorD, dir: &VectorD, margin: f64) -> bool {
        // Box coordinates for the (not exactly orthonormal) f32 axes by Cramer's rule, so the
        // test is about the same parallelepiped the fitting sized; the margin, a length, becomes
        // a coordinate by the axes' lengths (1 up to f32 rounding, hence the factor 2).
        let a: Matrix3<f64> = self.axes.cast();
        let (a0, a1, a2) = (a.column(0), a.column(1), a.column(2));
        let normals = Matrix3::from_columns(&[a1.cross(&a2), a2.cross(&a0), a0.cross(&a1)]);
        let det = a0.dot(&normals.column(0));
        // Fitted axes are orthonormal up to f32 rounding; anything else (or NaN) is not culled.
        if det.is_nan() || det.abs() <= 0.5 {
            return true;
        }
        let d = origin - to_f64(&self.center).coords;
        let u = normals.tr_mul(&d) / det;
        let v = normals.tr_mul(dir) / det;
        let h: VectorD = self.half_extents.cast();
        ray_hits_slabs(&u, &v, &h.add_scalar(2.0 * margin))
    }
}

/// The vertex `i` of `vertices`, checked for range and finiteness.
#[inline]
fn checked_vertex(vertices: &[Point], i: u32, face: usize) -> Result<&Point, GeomError> {
    let p = vertices
        .get(i as usize)
        .ok_or_else(|| GeomError::IndexOutOfRange {
            face,
            index: i64::from(i),
            vertex_count: vertices.len(),
        })?;
    if colldet_geom::math::is_finite_point(p) {
        Ok(p)
    } else {
        Err(GeomError::NonFiniteCoordinate { vertex: i as usize })
    }
}
