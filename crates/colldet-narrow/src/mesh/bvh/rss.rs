//! Rectangle swept spheres (PQP's RSS): a rectangle swept by a ball, as a node volume of a
//! [`MeshBvh`](super::MeshBvh), and its certified distance lower bound between two trees.
//!
//! Rationale.
//! - An RSS is the set of points within `radius` of the parallelogram `center + s a0 + t a1`,
//!   `|s| <= l0`, `|t| <= l1`, where `a0`, `a1` are the first two stored (`f32`) axes; `a2`, the
//!   third, is the thin direction. Nodes take the axes and centre of their OBB (its thinnest axis
//!   last, see [`thin_axis_last`]), so an RSS costs three `f32` beyond the box it shares them
//!   with ([`ObbRss`](super::ObbRss)).
//! - Fitting ([`size_rss`]): the radius starts as the box's thin half extent, and the rectangle
//!   is the box's mid-section shrunk on every side by the largest `s` for which each vertex
//!   stays within that radius of it (PQP rounds the rectangle's sides the same way; here one
//!   `s` for all four sides, found in closed form per vertex). Then the radius is measured:
//!   the largest distance from a vertex to the stored parallelogram (box coordinates by Cramer's
//!   rule, times `||A||_2 <= 1 + eps` for the `f32` axes, plus a rounding slack), rounded up to
//!   `f32`. Containment therefore never depends on how the rectangle was chosen.
//! - Distance lower bound ([`rss_distance_lower_bound`]): any unit direction `n` gives one, the
//!   gap between the two volumes' projections on `n` (projection shortens every segment); a
//!   parallelogram's projection is `n.c +- (l0 |n.a0| + l1 |n.a1|)`, exact for any axes, and a
//!   swept ball adds its radius. The first direction tried is the one between the centres: a
//!   few dozen operations (tree 2's side projected in its own frame, on `R^T n`), and for volumes
//!   far apart compared to their sizes nearly the best direction, so such a pair takes that bound
//!   alone; so does a pair whose bound already reaches the caller's pruning limit. Closer pairs
//!   also get the direction between the rectangles' approximate closest points, after two
//!   rounds of alternating closest points (clamped coordinates along each one's axes), which
//!   converge to the closest pair: when they have, the gap is the rectangles' distance, and
//!   otherwise it is still a valid, slightly smaller bound; the larger of the two bounds is
//!   returned. The pair frame's margin covers the rounding.
use super::BvhPairFrame;
use super::obb_fit::{FIT_SLACK, box_coordinates, round_up};
use super::obb_pair::axes_error;
use super::placed_volume::PlacedVolume;
use colldet_geom::Obb;
use colldet_geom::math::{Matrix3, MatrixD, Point, Vector, VectorD, to_f64};

/// A rectangle swept sphere in a mesh's local frame (`mesh/bvh/rss.rs` explains the bound).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rss {
    /// Centre of the rectangle, local frame.
    pub center: Point,
    /// Columns 0 and 1: the rectangle's sides; column 2: its normal (unit up to `f32` rounding).
    pub axes: Matrix3,
    /// Half side lengths of the rectangle along columns 0 and 1 (non-negative), local units.
    pub half_lengths: [f32; 2],
    /// Radius of the swept ball (non-negative), local units.
    pub radius: f32,
}

/// Rounds between the rectangles that choose the direction of the lower bound.
const CLOSEST_POINT_ROUNDS: usize = 2;

/// The point `c + s e0 + t e1` of a parallelogram (`|s| <= l0`, `|t| <= l1`) whose coordinates
/// are `x`'s along `e0`, `e1`, clamped.
#[inline(always)]
fn clamp_to(c: &VectorD, e0: &VectorD, e1: &VectorD, l: &[f64; 2], x: &VectorD) -> VectorD {
    let w = x - c;
    let s = w.dot(e0).clamp(-l[0], l[0]);
    let t = w.dot(e1).clamp(-l[1], l[1]);
    c + e0 * s + e1 * t
}

impl Rss {
    /// An OBB containing this RSS up to the `f32` axes' lengths (`l0 + r`, `l1 + r`, `r`):
    /// callers add the radius to their margin instead, see [`Rss::ray_may_hit`].
    pub(super) fn flat_box(&self) -> Obb {
        Obb::new(
            self.center,
            self.axes,
            Vector::new(self.half_lengths[0], self.half_lengths[1], 0.0),
        )
    }

    /// True unless the ray `origin + s dir` (`s >= 0`) provably misses the RSS grown by `margin`:
    /// the flat box of its rectangle grown by `margin + radius` contains it.
    pub(super) fn ray_may_hit(&self, origin: &VectorD, dir: &VectorD, margin: f64) -> bool {
        use super::BvhVolume;
        self.flat_box()
            .ray_may_hit(origin, dir, margin + f64::from(self.radius))
    }

    /// The distance from local point `p` to the rectangle, measured in box coordinates (the
    /// Euclidean distance up to the axes' `f32` rounding).
    pub(super) fn rectangle_distance(&self, p: &Point) -> f64 {
        let a: MatrixD = self.axes.cast();
        let u = box_coordinates(&a) * (to_f64(p) - to_f64(&self.center));
        let l = self.lengths();
        let ex = (u.x.abs() - l[0]).max(0.0);
        let ey = (u.y.abs() - l[1]).max(0.0);
        (ex * ex + ey * ey + u.z * u.z).sqrt()
    }

    /// True when local point `p` is within the radius of the rectangle (as fitted: every
    /// vertex the RSS was sized around is).
    pub fn contains_point(&self, p: &Point) -> bool {
        self.rectangle_distance(p) <= f64::from(self.radius)
    }

    /// An upper bound on `|center|_1 + |half extents|_1`, local units.
    pub(super) fn coordinate_bound(&self) -> f64 {
        let r = f64::from(self.radius);
        to_f64(&self.center).coords.abs().sum()
            + 3.0 * (f64::from(self.half_lengths[0]) + f64::from(self.half_lengths[1]) + r)
    }
}

/// The OBB `b` with its axes permuted (and one negated, keeping them right-handed) so that the
/// shortest half extent is last: the same box, its thin direction last, as RSS axes want.
pub(super) fn thin_axis_last(b: &Obb) -> Obb {
    let h = b.half_extents;
    let k = (0..3).fold(2, |m, k| if h[k] < h[m] { k } else { m });
    if k == 2 {
        return *b;
    }
    let mut axes = b.axes;
    axes.swap_columns(k, 2);
    // A swap flips the orientation; negating an axis restores it (the box is symmetric).
    let flipped = -axes.column(k);
    axes.set_column(k, &flipped);
    let mut half = h;
    half.swap_rows(k, 2);
    Obb::new(b.center, axes, half)
}

/// The RSS sharing `obb`'s centre and axes (thin axis last, see [`thin_axis_last`]) around the
/// vertices `points` yields (all inside `obb`, as fitted); see the module rationale. Two passes
/// over the points: the shrink of the rectangle, then the measured radius.
pub(super) fn size_rss<I>(obb: &Obb, vertices: &[Point], points: I) -> Rss
where
    I: Iterator<Item = u32> + Clone,
{
    let a: MatrixD = obb.axes.cast();
    let to_box = box_coordinates(&a);
    let c = to_f64(&obb.center).coords;
    let h: VectorD = obb.half_extents.cast();
    let coordinates = |i: u32| to_box * (to_f64(&vertices[i as usize]).coords - c);
    // Largest shrink `s` of every side keeping each point within the thin half extent `h2` of
    // the shrunk rectangle: with the point's margins `m1 <= m2` to the sides and `R^2 = h2^2 -
    // z^2`, `s` solves `(s - m1)^2 = R^2` (one side) or `(s - m1)^2 + (s - m2)^2 = R^2` (corner).
    let mut s = h.x.min(h.y);
    for i in points.clone() {
        let u = coordinates(i);
        let r2 = (h.z * h.z - u.z * u.z).max(0.0);
        let mx = (h.x - u.x.abs()).max(0.0);
        let my = (h.y - u.y.abs()).max(0.0);
        let (m1, m2) = if mx <= my { (mx, my) } else { (my, mx) };
        let r = r2.sqrt();
        let sp = if m1 + r <= m2 {
            m1 + r
        } else {
            0.5 * (m1 + m2 + (2.0 * r2 - (m2 - m1) * (m2 - m1)).max(0.0).sqrt())
        };
        s = s.min(sp);
    }
    let half_lengths = [(h.x - s).max(0.0) as f32, (h.y - s).max(0.0) as f32];
    let l = half_lengths.map(f64::from);
    // The measured radius, in box coordinates, then as a length.
    let mut reach = 0.0f64;
    let mut radius2 = 0.0f64;
    for i in points {
        let u = coordinates(i);
        let ex = (u.x.abs() - l[0]).max(0.0);
        let ey = (u.y.abs() - l[1]).max(0.0);
        radius2 = radius2.max(ex * ex + ey * ey + u.z * u.z);
        reach = reach.max(u.abs().sum());
    }
    // `||A||_2 <= 1 + eps` (see `obb_pair`), or the Frobenius norm for axes far from a rotation.
    let eps = axes_error(&obb.axes);
    let stretch = if eps.is_finite() {
        1.0 + eps
    } else {
        a.norm() * (1.0 + 1e-15)
    };
    // Rounding of the box coordinates: a few ulps of the points' reach (times the axes'
    // lengths) and of the centre's coordinates.
    let slack = 2.0 * FIT_SLACK * f64::EPSILON * (2.0 * reach + c.abs().sum());
    Rss {
        center: obb.center,
        axes: obb.axes,
        half_lengths,
        radius: round_up(stretch * radius2.sqrt() + slack),
    }
}

/// Pairs whose centre-direction bound is at least this many times the sum of their sizes
/// (`l0 + l1 + radius` each) take that bound alone: the closest-point direction would barely raise it
/// (measured on the zoo pairs of `benches/mesh_volumes.rs`).
const FAR_RATIO: f64 = 2.0;

impl Rss {
    /// `l0 + l1 + radius`: at least the distance from the centre to any point of the RSS (up to
    /// the axes' `f32` lengths), local units.
    #[inline(always)]
    pub(super) fn size(&self) -> f64 {
        f64::from(self.half_lengths[0]) + f64::from(self.half_lengths[1]) + f64::from(self.radius)
    }
}

/// A lower bound (non-negative, shape 1's units) on the distance between `a` (tree 1) and `b`
/// (tree 2, mapped by `frame`): the gap between their projections on the direction between
/// their centres or, for pairs close compared to their sizes, the larger of that and the gap on
/// the direction between the rectangles' approximate closest points, minus both radii and the
/// frame's margin (see the module rationale). Once the first gap reaches `limit` it is returned
/// as it is (a caller pruning at `limit` needs no better bound): the result is the full bound or
/// a bound at least `limit`, never more than the distance either way.
#[inline]
pub(super) fn rss_distance_lower_bound<A: RssParts>(
    a: &A,
    b: &A,
    frame: &BvhPairFrame,
    limit: f64,
) -> f64 {
    let r = &frame.rotation;
    let centres = r * to_f64(b.center()).coords + frame.translation - to_f64(a.center()).coords;
    let (la, lb) = (a.lengths(), b.lengths());
    let (ra, rb) = (f64::from(a.radius()), f64::from(b.radius()));
    let slack = ra + rb + frame.margin;
    let len = centres.norm();
    let far = FAR_RATIO * (la[0] + la[1] + ra + lb[0] + lb[1] + rb);
    let mut bound = 0.0f64;
    // The centre direction's gap is at most `len - slack`: it is tried when that could reach the
    // limit or make the pair far (coincident centres, or a NaN from overflow, give no direction).
    if len > 0.0 && len - slack >= if limit < far { limit } else { far } {
        let n = centres * (1.0 / len);
        // `R^T n`, the direction in tree 2's frame, projects its axes without mapping them.
        let n2 = r.tr_mul(&n);
        let (a_axes, b_axes) = (a.axes(), b.axes());
        let ha = la[0] * n.dot(&axis(a_axes, 0)).abs() + la[1] * n.dot(&axis(a_axes, 1)).abs();
        let hb = lb[0] * n2.dot(&axis(b_axes, 0)).abs() + lb[1] * n2.dot(&axis(b_axes, 1)).abs();
        bound = n.dot(&centres) - ha - hb - slack;
        if bound >= limit || bound >= far {
            return bound.max(0.0);
        }
    }
    bound.max(closest_points_bound(a, b, frame)).max(0.0)
}

/// Column `k` of `axes` in `f64`.
#[inline(always)]
fn axis(axes: &Matrix3, k: usize) -> VectorD {
    VectorD::new(
        f64::from(axes[(0, k)]),
        f64::from(axes[(1, k)]),
        f64::from(axes[(2, k)]),
    )
}

/// `b` (tree 2) mapped into frame 1: centre `R c + t`, axes `R B` (the first two columns are
/// the rectangle's sides), half extents `(l0, l1, radius)`.
#[inline]
pub(super) fn rss_place(b: &Rss, frame: &BvhPairFrame) -> PlacedVolume {
    let [l0, l1] = b.lengths();
    PlacedVolume {
        axes: frame.rotation * b.axes.cast::<f64>(),
        center: frame.rotation * to_f64(&b.center).coords + frame.translation,
        half_extents: VectorD::new(l0, l1, f64::from(b.radius)),
    }
}

/// The closest-points bound of [`rss_distance_lower_bound`] (non-negative) with `b` already
/// placed by [`rss_place`] (the collision traversal's overlap test).
#[inline]
pub(super) fn rss_placed_lower_bound(a: &Rss, b: &PlacedVolume, frame: &BvhPairFrame) -> f64 {
    let placed = MappedRectangle {
        center: b.center,
        sides: [b.axes.column(0).into(), b.axes.column(1).into()],
        lengths: [b.half_extents[0], b.half_extents[1]],
        radius: b.half_extents[2],
    };
    closest_points_gap(a, &placed, frame).max(0.0)
}

/// An RSS of tree 2 mapped into frame 1 (`f64`): centre, the two side directions, half lengths
/// along them, radius.
struct MappedRectangle {
    center: VectorD,
    sides: [VectorD; 2],
    lengths: [f64; 2],
    radius: f64,
}

/// [`closest_points_gap`] for `b` mapped by `frame`. Out of line: most pairs of a distance
/// query never get here.
#[inline(never)]
fn closest_points_bound<A: RssParts>(a: &A, b: &A, frame: &BvhPairFrame) -> f64 {
    let r = &frame.rotation;
    let placed = MappedRectangle {
        center: r * to_f64(b.center()).coords + frame.translation,
        sides: [r * axis(b.axes(), 0), r * axis(b.axes(), 1)],
        lengths: b.lengths(),
        radius: f64::from(b.radius()),
    };
    closest_points_gap(a, &placed, frame)
}

/// The gap (possibly negative) between the projections of `a` and the mapped `b` on the
/// direction between the rectangles' approximate closest points, minus both radii and the
/// frame's margin; 0 when the points meet.
#[inline(always)]
fn closest_points_gap<A: RssParts>(a: &A, b: &MappedRectangle, frame: &BvhPairFrame) -> f64 {
    let ca = to_f64(a.center()).coords;
    let (a0, a1) = (axis(a.axes(), 0), axis(a.axes(), 1));
    let (cb, [b0, b1], lb) = (b.center, b.sides, b.lengths);
    let la = a.lengths();
    let mut p = ca;
    let mut q = clamp_to(&cb, &b0, &b1, &lb, &p);
    for _ in 0..CLOSEST_POINT_ROUNDS {
        p = clamp_to(&ca, &a0, &a1, &la, &q);
        q = clamp_to(&cb, &b0, &b1, &lb, &p);
    }
    let v = q - p;
    let len = v.norm();
    // Touching or crossing rectangles (or a NaN from overflow): no separation to certify.
    if len.is_nan() || len <= 0.0 {
        return 0.0;
    }
    let n = v * (1.0 / len);
    let ha = la[0] * n.dot(&a0).abs() + la[1] * n.dot(&a1).abs();
    let hb = lb[0] * n.dot(&b0).abs() + lb[1] * n.dot(&b1).abs();
    let radii = f64::from(a.radius()) + b.radius;
    n.dot(&(cb - ca)) - ha - hb - radii - frame.margin
}

/// The parts of an RSS the distance bound reads, so an [`ObbRss`](super::ObbRss) node is
/// bounded in place (no [`Rss`] copied out of it).
pub(super) trait RssParts {
    /// Centre of the rectangle, local frame.
    fn center(&self) -> &Point;
    /// Columns 0 and 1: the rectangle's sides (column 2 unused here).
    fn axes(&self) -> &Matrix3;
    /// Half side lengths along columns 0 and 1.
    fn half_lengths(&self) -> [f32; 2];
    /// Radius of the swept ball.
    fn radius(&self) -> f32;
    /// The half lengths in `f64`.
    #[inline(always)]
    fn lengths(&self) -> [f64; 2] {
        self.half_lengths().map(f64::from)
    }
}

impl RssParts for Rss {
    #[inline(always)]
    fn center(&self) -> &Point {
        &self.center
    }
    #[inline(always)]
    fn axes(&self) -> &Matrix3 {
        &self.axes
    }
    #[inline(always)]
    fn half_lengths(&self) -> [f32; 2] {
        self.half_lengths
    }
    #[inline(always)]
    fn radius(&self) -> f32 {
        self.radius
    }
}
