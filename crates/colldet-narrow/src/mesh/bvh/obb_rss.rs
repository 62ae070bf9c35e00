//! PQP's and FCL's OBBRSS node volume: an OBB for overlap tests and ray culls, and the RSS that
//! shares its centre and axes for distance bounds; and the plain [`Rss`] as a node volume.
//!
//! Rationale. The OBB's 15-axis test decides overlap with fewer node visits than an RSS
//! (boxes are tighter around flat patches' corners), while the RSS pair's distance is nearly the
//! exact distance between the volumes where the boxes' bound (six projections) is loose; the
//! RSS costs three `f32` per node on top of the box, as its axes and centre are the box's.
//! Both trees are fitted as OBB trees first (the same boxes as [`ObbBvh`](super::ObbBvh)), then
//! each node's RSS is sized around the node's vertices ([`size_rss`]); a refit does the same,
//! so it equals a build with the same topology. Measured against the other volumes in
//! `benches/mesh_pair.rs` and docs/benchmarks.md.

use super::obb_fit::fit_obb_tree;
use super::placed_volume::PlacedVolume;
use super::rss::{
    Rss, RssParts, rss_distance_lower_bound, rss_place, rss_placed_lower_bound, size_rss,
    thin_axis_last,
};
use super::{BvhNode, BvhPairFrame, BvhVolume};
use crate::NarrowError;
use colldet_geom::math::{Matrix3, Point, VectorD};
use colldet_geom::{GeomError, Obb};
use rayon::prelude::*;

/// An OBB and the RSS sharing its centre and axes (thin axis last); see the module docs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ObbRss {
    /// The box: overlap tests, ray culls, split axes.
    pub obb: Obb,
    /// Half side lengths of the RSS rectangle along the box's first two axes.
    pub rss_half_lengths: [f32; 2],
    /// Radius of the RSS.
    pub rss_radius: f32,
}

impl ObbRss {
    /// The RSS part as an [`Rss`].
    #[inline(always)]
    pub fn rss(&self) -> Rss {
        Rss {
            center: self.obb.center,
            axes: self.obb.axes,
            half_lengths: self.rss_half_lengths,
            radius: self.rss_radius,
        }
    }

    fn of(obb: &Obb, rss: &Rss) -> Self {
        Self {
            obb: *obb,
            rss_half_lengths: rss.half_lengths,
            rss_radius: rss.radius,
        }
    }
}

impl RssParts for ObbRss {
    #[inline(always)]
    fn center(&self) -> &Point {
        &self.obb.center
    }
    #[inline(always)]
    fn axes(&self) -> &Matrix3 {
        &self.obb.axes
    }
    #[inline(always)]
    fn half_lengths(&self) -> [f32; 2] {
        self.rss_half_lengths
    }
    #[inline(always)]
    fn radius(&self) -> f32 {
        self.rss_radius
    }
}

/// Nodes per parallel task of the RSS sizing.
const SIZING_CHUNK: usize = 256;

/// Fits `nodes` as an OBB tree (thin axes last), then sizes every node's RSS around its
/// triangles' vertices and stores both through `store`; returns the OBB fit's axes error.
fn fit_with_rss<V: Send>(
    nodes: &mut [BvhNode<V>],
    vertices: &[Point],
    triangles: &[[u32; 3]],
    obb_of: impl Fn(&V) -> Obb + Sync,
    store: impl Fn(&Obb, &Rss) -> V + Sync,
) -> Result<f64, NarrowError> {
    let mut boxes: Vec<BvhNode<Obb>> = nodes
        .iter()
        .map(|n| BvhNode {
            volume: obb_of(&n.volume),
            first: n.first,
            count: n.count,
        })
        .collect();
    let error = fit_obb_tree(&mut boxes, vertices, triangles)?;
    // Each node's triangle range: a leaf's own, a parent's from its first child's start to its
    // second child's end (children are stored after their parents).
    let mut ranges = vec![(0u32, 0u32); boxes.len()];
    for n in (0..boxes.len()).rev() {
        ranges[n] = match boxes[n].children() {
            None => (boxes[n].first, boxes[n].first + boxes[n].count),
            Some([a, b]) => (ranges[a as usize].0, ranges[b as usize].1),
        };
    }
    nodes
        .par_iter_mut()
        .with_min_len(SIZING_CHUNK)
        .zip(boxes.par_iter())
        .zip(ranges.par_iter())
        .for_each(|((node, fitted), &(start, end))| {
            let obb = thin_axis_last(&fitted.volume);
            let tris = &triangles[start as usize..end as usize];
            let rss = size_rss(&obb, vertices, tris.iter().flatten().copied());
            node.volume = store(&obb, &rss);
        });
    Ok(error)
}

impl BvhVolume for ObbRss {
    const NAME: &'static str = "obbrss";
    const NESTED: bool = false;
    const FITS_FROM_MOMENTS: bool = true;

    fn fit(vertices: &[Point], triangles: &[[u32; 3]]) -> Result<Self, GeomError> {
        let obb = thin_axis_last(&Obb::from_triangles(vertices, triangles)?);
        let rss = size_rss(&obb, vertices, triangles.iter().flatten().copied());
        Ok(Self::of(&obb, &rss))
    }

    fn fit_tree(
        nodes: &mut [BvhNode<Self>],
        vertices: &[Point],
        triangles: &[[u32; 3]],
    ) -> Result<f64, NarrowError> {
        fit_with_rss(nodes, vertices, triangles, |v| v.obb, Self::of)
    }

    fn contains_point(&self, p: &Point) -> bool {
        self.obb.contains_point(p) && self.rss().contains_point(p)
    }

    fn contains_volume(&self, child: &Self) -> bool {
        self.obb.contains_volume(&child.obb)
    }

    fn split_axes(&self) -> [VectorD; 3] {
        self.obb.split_axes()
    }

    fn coordinate_bound(&self) -> f64 {
        self.obb
            .coordinate_bound()
            .max(self.rss().coordinate_bound())
    }

    #[inline]
    fn size(&self) -> f64 {
        self.obb.size()
    }

    #[inline]
    fn place(&self, frame: &BvhPairFrame) -> PlacedVolume {
        self.obb.place(frame)
    }

    #[inline]
    fn overlaps_placed(&self, other: &Self, placed: &PlacedVolume, frame: &BvhPairFrame) -> bool {
        self.obb.overlaps_placed(&other.obb, placed, frame)
    }

    #[inline]
    fn distance_lower_bound(&self, other: &Self, frame: &BvhPairFrame) -> f64 {
        rss_distance_lower_bound(self, other, frame, f64::INFINITY)
    }

    #[inline]
    fn distance_lower_bound_below(&self, other: &Self, frame: &BvhPairFrame, limit: f64) -> f64 {
        rss_distance_lower_bound(self, other, frame, limit)
    }

    fn ray_may_hit(&self, origin: &VectorD, dir: &VectorD, margin: f64) -> bool {
        self.obb.ray_may_hit(origin, dir, margin)
    }
}

impl BvhVolume for Rss {
    const NAME: &'static str = "rss";
    const NESTED: bool = false;
    const FITS_FROM_MOMENTS: bool = true;

    fn fit(vertices: &[Point], triangles: &[[u32; 3]]) -> Result<Self, GeomError> {
        let obb = thin_axis_last(&Obb::from_triangles(vertices, triangles)?);
        Ok(size_rss(
            &obb,
            vertices,
            triangles.iter().flatten().copied(),
        ))
    }

    fn fit_tree(
        nodes: &mut [BvhNode<Self>],
        vertices: &[Point],
        triangles: &[[u32; 3]],
    ) -> Result<f64, NarrowError> {
        fit_with_rss(nodes, vertices, triangles, Rss::flat_box, |_, rss| *rss)
    }

    fn contains_point(&self, p: &Point) -> bool {
        Rss::contains_point(self, p)
    }

    /// Not nested ([`Self::NESTED`] is false): only the rectangle's corners are checked.
    fn contains_volume(&self, child: &Self) -> bool {
        let ext = child.half_lengths.map(f64::from);
        let (a0, a1) = (child.axes.column(0), child.axes.column(1));
        [(-1.0, -1.0), (-1.0, 1.0), (1.0, -1.0), (1.0, 1.0)]
            .iter()
            .all(|&(s, t)| {
                let p = child.center + a0 * (s * ext[0]) as f32 + a1 * (t * ext[1]) as f32;
                self.rectangle_distance(&p) + f64::from(child.radius) <= f64::from(self.radius)
            })
    }

    fn split_axes(&self) -> [VectorD; 3] {
        let [l0, l1] = self.half_lengths;
        Obb::new(
            self.center,
            self.axes,
            colldet_geom::math::Vector::new(l0, l1, self.radius),
        )
        .split_axes()
    }

    fn coordinate_bound(&self) -> f64 {
        Rss::coordinate_bound(self)
    }

    #[inline]
    fn size(&self) -> f64 {
        Rss::size(self)
    }

    /// The rectangle's centre and first two axes mapped into frame 1; half extents are the
    /// half lengths and the radius.
    #[inline]
    fn place(&self, frame: &BvhPairFrame) -> PlacedVolume {
        rss_place(self, frame)
    }

    /// True unless the distance lower bound is positive.
    #[inline]
    fn overlaps_placed(&self, _: &Self, placed: &PlacedVolume, frame: &BvhPairFrame) -> bool {
        rss_placed_lower_bound(self, placed, frame) <= 0.0
    }

    #[inline]
    fn distance_lower_bound(&self, other: &Self, frame: &BvhPairFrame) -> f64 {
        rss_distance_lower_bound(self, other, frame, f64::INFINITY)
    }

    #[inline]
    fn distance_lower_bound_below(&self, other: &Self, frame: &BvhPairFrame, limit: f64) -> f64 {
        rss_distance_lower_bound(self, other, frame, limit)
    }

    fn ray_may_hit(&self, origin: &VectorD, dir: &VectorD, margin: f64) -> bool {
        Rss::ray_may_hit(self, origin, dir, margin)
    }
}
