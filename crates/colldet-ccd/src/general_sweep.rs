//! The certified first-contact search for any pair of motions ([`sweep_general`]).
//!
//! Features: body `a`'s contact vertices against `b`'s triangles (vertex-face), `b`'s contact
//! vertices against `a`'s triangles (face-vertex), and the two bodies' contact edges
//! (edge-edge). Over a fraction interval `T` each body's pose is enclosed
//! ([`crate::trajectory::PoseEnclosure`]) and each feature pair's contact conditions are
//! enclosed ([`crate::feature_functions`]); a pair is dropped on `T` when it is certified not to
//! touch there.
//!
//! The search bisects `[0, 1]` depth first, earliest half first. A node keeps the pairs of its
//! parent that are not excluded on its own interval; a branch ends when none is left. While the
//! number of pairs whose boxes could meet is large (big hulls, big rotations), nodes stay
//! "unexpanded": the overlap of the two bodies' boxes is shrunk to the boxes of the features
//! reaching into it, and the pairs of those features whose boxes meet are listed by sweep and
//! prune, kept once there are at most 16384 of them (or the interval is short). The
//! first node of width `<= time_tolerance` that keeps a pair is the first contact: every earlier
//! interval was excluded, so no contact happens before its `lo`, and the pair may touch in it.
//! For two convex bodies such a node is the answer at once when the discrete test's GJK distance
//! at its `hi` is within the touching band (`TOUCHING_TOLERANCE_FACTOR * (r_a + r_b)`): the bodies
//! touch there. Otherwise (a near miss, or non-convex bodies), as in [`crate::vertex_linear`],
//! the node is refined towards `time_tolerance * 2^-20` within a budget of [`REFINE_BUDGET`] node
//! evaluations per query, which narrows the band in which a near miss counts as a contact; a
//! refined node excluded entirely lets the search go on.
//!
//! Where a node splits does not matter for soundness (both parts are searched, earliest first),
//! only for speed. A node splits at its midpoint unless the conservative advancement below
//! estimated where the bodies meet: its free times `f_1 > f_2` of two consecutive steps shrink
//! by `rho = f_2 / f_1` a step, which sums to the estimate `lo_2 + f_2 / (1 - rho)` (the secant
//! through the free times; not certified). The node then splits at `lo + 1.25 (estimate - lo) +
//! tol / 4` (at least `lo + 3 tol / 4`, so that a good estimate makes a first part within the
//! tolerance whose upper end touches), when that is before the midpoint. A touching pair thus
//! takes about five nodes instead of about thirty halvings from `[lo, 1]` down to `1e-9`; such a
//! node passes its pairs on to both parts unfiltered (each part filters them on its own, shorter
//! interval, where most are excluded at once). The
//! second part of such a split is halved, so the width at least halves every other level: the
//! depth is bounded by `2 (log2(1 / time_tolerance) + 20)`, and the pair set only shrinks down
//! a branch.

//! Object-level exclusion (bodies with at most `SAT_VERTICES` = 64 vertices together): every node
//! first runs conservative advancement from its `lo`. The vertices are enclosed at the single
//! fraction `lo` and projected on candidate axes (the axis that separated last, the centres'
//! direction, up to `MAX_AXES` = 8 distinct face normals of each body and the cross products of up
//! to 8 edge directions of each, at the `f64` pose of `lo`). Any axis `n` is sound: a body lies
//! in the hull of its vertices, the projections are enclosed (outward-rounded sums with an error
//! bound, see `Cloud::project`), so a gap `g > 0` between the two projection hulls separates the
//! bodies at `lo`; the axis choice only decides how large it is. Each vertex projection
//! `n . x(tau)`, hence each hull bound and the gap, changes at most at the rate `r_a(n) + r_b(n)`
//! per unit fraction, so there is no contact in `[lo, lo + g / (r_a + r_b))` (rounded down);
//! the node is excluded when that covers it, else its `lo` advances (up to `CA_STEPS` = 16 times
//! while a step gains at least 1/16 of the rest). The rate bound `r(n)` of a body:
//! - motions (a) and (d): `|n . v| + spin |n x w|` with `v` the linear velocity (`d`, or
//!   `t1 - t0`), `w` the unit rotation axis and `spin = theta * rho`, `rho >= |R0 x|` over the
//!   vertices: the velocity of `R(tau) x` is `theta (cos phi K + sin phi K^2) y` for `y = R0 x`,
//!   whose component along `n` is at most `theta |n x w| |y|` (it only sees `n`'s part across
//!   `w`). `f64` rounding of these terms and of the axis (unit within a few ulps) is covered by
//!   `1e-12 |n| (|v| + spin)` added and the factor `1 + SPEED_MARGIN` (`1e-5`).
//! - motions (b) and (c): `|n|` times [`BodyMotion::speed_bound`]`(rho)` times `1 + 1e-5`: that
//!   margin covers the rounding and the axes, which [`BodyMotion::new`] admits within `1e-6` of
//!   unit length, where Rodrigues' derivative `(cos phi K + sin phi K^2) y` has length at most
//!   `|k|^2 |y|`.
//!
//! Below the root, the node's pose enclosures give a second, signed bound for the best axis:
//! for (a) and (d) the rate of `n . x(tau)` is `n . v + theta ((n x w) . (x(tau) - t(tau)))`
//! (the velocity of `R(tau) x` is `theta w x R(tau) x` for a unit `w`), enclosed with the node's
//! vertex and translation boxes and widened by `1e-9 |n| (|v| + spin)` (rounding, axis length);
//! for (b) and (c) it is `+-|n|` times the speed bound. The gap can shrink at most at the rate
//! (largest rate of the lower body) - (smallest rate of the upper body), over the hull as over
//! its vertices; when that is not positive the node is free on this axis, else the free time
//! is the gap over it (rounded down).
//!
//! Both bounds take the fastest point of a body, so near a contact the free time shrinks by a
//! constant factor per step. For motions (a) and (d) a third, second-order bound on the best axis
//! ([`crate::descent`]) bounds, per vertex, the gap along the axis turning with either body by
//! `c0 + c1 s - c2 s^2 / 2` (value and slope at `lo` from the enclosures, `c2` from the vertices'
//! arc radii about the rotation axes): its first root is a free time that converges like
//! Newton's method when a vertex reaches a face (fixed or turning). The largest of the free
//! times is used. The vertices at the single fraction `lo` are enclosed by
//! [`PoseEnclosure::at`] (`f64` with an error bound).
//!
//! Contact-free fractions only move `lo` up, so the first node of width `<= time_tolerance`
//! that keeps a pair still starts at or before the first contact. The root (before the pair
//! list is built) also tests the axes with the vertex boxes over the whole interval. The feature
//! pairs then use each vertex box enclosed once per node instead of enclosing it per pair, in
//! midpoint-radius form with an `f64` error bound (see `fill_boxes`).

//! Semantics: the bodies are closed solids bounded by their surfaces and a contact is their
//! surfaces touching (touching counts). A body entirely inside the other without its surface
//! meeting the other's is *not* a sweep contact: containment is the world's business.

use colldet_geom::math::{PointD, VectorD, to_f64};

use colldet_narrow::{GjkCache, PoseMatrix, TOUCHING_TOLERANCE_FACTOR, gjk_distance};

use crate::contact::{ContactKind, SweepContact, TimeOfImpact};
use crate::descent::{AxialMotion, BodyAt, attached_free_time};
use crate::error::CcdError;
use crate::feature_functions::{PairTest, edge_edge, vertex_triangle};
use crate::interval::{IVec3, Interval};
use crate::motion::{BodyMotion, Motion};
use crate::sweep_shape::SweepShape;
use crate::trajectory::{PoseEnclosure, point_at};
use crate::vertex_linear::{REFINE_BUDGET, REFINE_FACTOR};

/// Default bracket width of the time of impact, as a fraction of the motion.
pub const DEFAULT_TIME_TOLERANCE: f64 = 1e-9;

/// Build the pair list once at most this many feature pairs have meeting boxes ...
const MATERIALIZE_PAIRS: usize = 16384;
/// ... or once the interval is this short, whatever the count.
const MATERIALIZE_WIDTH: f64 = 1.0 / 65536.0;

/// Bodies with at most this many vertices together are tested for a separating axis at every
/// node (every vertex is enclosed once per node).
const SAT_VERTICES: usize = 64;
/// Conservative advancement steps per node, and the least progress (fraction of the remaining
/// width) for which another step is taken.
const CA_STEPS: usize = 16;
const CA_MIN_PROGRESS: f64 = 0.0625;
/// Relative margin of the speed bound (module docs).
const SPEED_MARGIN: f64 = 1e-5;
/// A split guided by a contact estimate goes this factor of the way to it past `lo`
/// ([`split_point`]).
const SPLIT_OVERSHOOT: f64 = 1.25;
/// At most this many distinct face normals / edge directions per body are tried as axes.
const MAX_AXES: usize = 8;

/// Options of [`sweep_general`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GeneralSweepOptions {
    /// Largest width of the reported time-of-impact bracket (fraction of the motion, `> 0`);
    /// default [`DEFAULT_TIME_TOLERANCE`].
    pub time_tolerance: f64,
}

impl Default for GeneralSweepOptions {
    fn default() -> Self {
        Self {
            time_tolerance: DEFAULT_TIME_TOLERANCE,
        }
    }
}

/// A feature pair of the search. Indices: vertices and triangles are the shapes' own, edges index
/// into [`SweepShape::contact_edges`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Candidate {
    /// `a`'s vertex against `b`'s triangle.
    VertexFace { vertex: u32, triangle: u32 },
    /// `a`'s triangle against `b`'s vertex.
    FaceVertex { triangle: u32, vertex: u32 },
    /// `a`'s contact edge against `b`'s contact edge.
    EdgeEdge { edge_a: u32, edge_b: u32 },
}

/// Reusable buffers of [`sweep_general_with`]: repeated sweeps with one workspace do not allocate
/// once the buffers have grown to the largest pair seen.
#[derive(Clone, Debug, Default)]
pub struct GeneralSweepWorkspace {
    candidates: Vec<Candidate>,
    boxes_a: Vec<IVec3>,
    boxes_b: Vec<IVec3>,
    selected: [Vec<u32>; 6],
    items_a: Vec<Item>,
    items_b: Vec<Item>,
    active: [Vec<Item>; 2],
    /// Local face normals and edge directions of `a` and `b` (separating-axis candidates).
    normals: [Vec<VectorD>; 2],
    directions: [Vec<VectorD>; 2],
    /// Vertex enclosures at one fraction (conservative advancement).
    points: [Cloud; 2],
    /// Arc radii of `a`'s and `b`'s vertices about their rotation axes (second-order bounds).
    arcs: [Vec<f64>; 2],
    /// Warm start of the touching test at a leaf's upper end.
    gjk: GjkCache,
}

/// A feature and its box for the sweep and prune.
#[derive(Clone, Copy, Debug)]
struct Item {
    bx: IVec3,
    feature: Feature,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Feature {
    Vertex(u32),
    Triangle(u32),
    Edge(u32),
}

impl GeneralSweepWorkspace {
    /// An empty workspace.
    pub fn new() -> Self {
        Self::default()
    }
}

/// The first contact of body `a` moving by `ma` with body `b` moving by `mb` (shapes in their local
/// frames, motions in the world frame), or `None` when the surfaces never touch for `tau` in
/// `[0, 1]`. See the module docs for the semantics and [`SweepContact`] for the report: `a` is the
/// "moving" body; features are input indices (vertex, input face of the triangle, colldet edge);
/// point and normal are world-frame at `toi.hi`, the normal unit length from `b` towards `a`.
///
/// Allocates its buffers; see [`sweep_general_with`] to reuse them.
///
/// # Errors
/// [`CcdError::NonFinite`] / [`CcdError::InvalidParameter`] for a motion that
/// [`BodyMotion::new`] rejects, or a `time_tolerance` that is not positive and finite.
pub fn sweep_general(
    a: &SweepShape,
    ma: &BodyMotion,
    b: &SweepShape,
    mb: &BodyMotion,
    options: &GeneralSweepOptions,
) -> Result<Option<SweepContact>, CcdError> {
    sweep_general_with(a, ma, b, mb, options, &mut GeneralSweepWorkspace::new())
}

/// [`sweep_general`] with caller-owned buffers.
///
/// # Errors
/// As [`sweep_general`].
pub fn sweep_general_with(
    a: &SweepShape,
    ma: &BodyMotion,
    b: &SweepShape,
    mb: &BodyMotion,
    options: &GeneralSweepOptions,
    workspace: &mut GeneralSweepWorkspace,
) -> Result<Option<SweepContact>, CcdError> {
    sweep_scaled(a, ma, b, mb, options, workspace, 1.0)
}

/// [`sweep_general_with`] whose advancement steps are `step_scale` times the certified ones:
/// 1 for the sweep; more only in the test that shows the brute force catching a loosened bound.
fn sweep_scaled(
    a: &SweepShape,
    ma: &BodyMotion,
    b: &SweepShape,
    mb: &BodyMotion,
    options: &GeneralSweepOptions,
    workspace: &mut GeneralSweepWorkspace,
    step_scale: f64,
) -> Result<Option<SweepContact>, CcdError> {
    let tol = options.time_tolerance;
    if !(tol.is_finite() && tol > 0.0) {
        return Err(CcdError::InvalidParameter {
            what: "time tolerance",
            requirement: "must be positive and finite",
        });
    }
    // The fields are public: re-check what `BodyMotion::new` checks.
    BodyMotion::new(ma.start, ma.motion)?;
    BodyMotion::new(mb.start, mb.motion)?;
    let mut search = Search {
        a,
        ma,
        b,
        mb,
        tol,
        budget: REFINE_BUDGET,
        step_scale,
        last_axis: None,
        rate_a: Rate::new(a, ma),
        rate_b: Rate::new(b, mb),
        small: a.vertices().len() + b.vertices().len() <= SAT_VERTICES,
        at_rest: [ma, mb]
            .map(|m| matches!(m.motion, Motion::Translation { d } if d == VectorD::zeros())),
        rest_cloud: [false; 2],
        ws: workspace,
    };
    search.ws.candidates.clear();
    if search.small {
        axis_candidates(a, &mut search.ws.normals[0], &mut search.ws.directions[0]);
        axis_candidates(b, &mut search.ws.normals[1], &mut search.ws.directions[1]);
        for (k, (s, m, rate)) in [(a, ma, search.rate_a), (b, mb, search.rate_b)]
            .into_iter()
            .enumerate()
        {
            let arcs = &mut search.ws.arcs[k];
            arcs.clear();
            if let Rate::Axial(axial) = rate {
                let rot = m.start.rot;
                arcs.extend(
                    s.vertices()
                        .iter()
                        .map(|x| axial.arc_radius(&(rot * x.coords))),
                );
            }
        }
    }
    let Some((t, start)) = search.unexpanded(Interval::new(0.0, 1.0)) else {
        return Ok(None);
    };
    let contact = search.report(t, start);
    search.ws.candidates.clear();
    Ok(Some(contact))
}

struct Search<'a> {
    a: &'a SweepShape,
    ma: &'a BodyMotion,
    b: &'a SweepShape,
    mb: &'a BodyMotion,
    tol: f64,
    /// Node evaluations narrower than `tol` left (refinement of near misses).
    budget: u32,
    /// Factor of the advancement steps: 1 (see [`sweep_scaled`]).
    step_scale: f64,
    /// Bounds of the rates of change of the bodies' projections (module docs).
    rate_a: Rate,
    rate_b: Rate,
    /// The world axis that last separated the bodies (tried first).
    last_axis: Option<VectorD>,
    /// Both bodies have at most `SAT_VERTICES` (64) vertices in all: nodes enclose every vertex once
    /// and try separating axes.
    small: bool,
    /// Per body: it does not move (its vertex enclosures are the same at every fraction).
    at_rest: [bool; 2],
    /// Per body: `ws.points` holds its enclosures at rest (filled once, kept between steps).
    rest_cloud: [bool; 2],
    ws: &'a mut GeneralSweepWorkspace,
}

impl Search<'_> {
    /// Tests a pair on the interval of the enclosures `pa`, `pb`.
    fn test(&self, c: Candidate, pa: &PoseEnclosure, pb: &PoseEnclosure) -> PairTest {
        let (va, vb) = (self.a.vertices(), self.b.vertices());
        test_pair(
            self.a,
            self.b,
            c,
            |v| pa.apply(&va[v as usize]),
            |v| pb.apply(&vb[v as usize]),
        )
    }

    /// The largest certified gap (a lower bound of the distance of the two bodies' vertex hulls)
    /// found on the candidate axes for the vertex boxes `ba`, `bb`, trying axes at the pose of
    /// fraction `at` until one reaches `need`; negative when none separates.
    fn best_gap(&mut self, points: bool, at: f64, need: f64) -> f64 {
        let (ra, rb) = (self.rate_a, self.rate_b);
        let ws = &*self.ws;
        let [ba, bb] = &ws.points;
        // The gap along `n`, or with `points` the free time: the gap over the bound of its rate
        // of change.
        let along = |n: &VectorD| {
            let g = gap(ba, bb, n);
            if points && g > 0.0 {
                (g / (ra.rate(n) + rb.rate(n))).next_down()
            } else {
                g
            }
        };
        let mut best = f64::NEG_INFINITY;
        let mut best_axis = None;
        let mut try_axis = |n: VectorD| {
            if best >= need || !n.iter().all(|c| c.is_finite()) {
                return;
            }
            let g = along(&n);
            if g > best {
                best = g;
                best_axis = Some(n);
            }
        };
        if let Some(n) = self.last_axis {
            try_axis(n);
        }
        let (pa, pb) = (self.ma.pose_at(at), self.mb.pose_at(at));
        let ca = pa.apply(&to_f64(&self.a.local_box().center()));
        let cb = pb.apply(&to_f64(&self.b.local_box().center()));
        try_axis(cb - ca);
        for n in &ws.normals[0] {
            try_axis(pa.rot * n);
        }
        for n in &ws.normals[1] {
            try_axis(pb.rot * n);
        }
        for da in &ws.directions[0] {
            let da = pa.rot * da;
            for db in &ws.directions[1] {
                try_axis(da.cross(&(pb.rot * db)));
            }
        }
        if best > 0.0 {
            self.last_axis = best_axis;
        }
        best
    }

    /// True when a separating axis is certified over `t`, whose vertex boxes are in `boxes_a`,
    /// `boxes_b` (every vertex of each body).
    fn separated(&mut self, t: Interval) -> bool {
        let ws = &mut *self.ws;
        ws.points[0].fill_from_boxes(&ws.boxes_a);
        ws.points[1].fill_from_boxes(&ws.boxes_b);
        self.rest_cloud = [false; 2];
        self.best_gap(false, t.mid(), 0.0) > 0.0
    }

    /// Conservative advancement: a fraction `lo2 >= t.lo` such that the bodies do not touch in
    /// `[t.lo, lo2)`; `None` when they do not touch anywhere in `t`. With it, when two steps
    /// were taken, an uncertified estimate of where the free time reaches 0 (the secant through
    /// the last two free times): only a hint of where to split (see [`split_point`]).
    fn advance(
        &mut self,
        t: Interval,
        over: Option<(&IVec3, &IVec3)>,
    ) -> Option<(f64, Option<f64>)> {
        let mut lo = t.lo;
        // The free time found at the previous step, and the secant's estimate.
        let mut previous: Option<f64> = None;
        let mut estimate = None;
        for _ in 0..CA_STEPS {
            let ws = &mut *self.ws;
            for (k, (s, m)) in [(self.a, self.ma), (self.b, self.mb)]
                .into_iter()
                .enumerate()
            {
                // A body at rest is enclosed once.
                if !self.rest_cloud[k] {
                    ws.points[k].fill(s, &PoseEnclosure::at(m, lo));
                    self.rest_cloud[k] = self.at_rest[k];
                }
            }
            let need = t.hi - lo;
            let mut dist = self.best_gap(true, lo, need);
            if let (Some((ta, tb)), Some(n)) = (over, self.last_axis)
                && dist > 0.0
                && dist < need
            {
                dist = dist.max(self.signed_time(&n, ta, tb));
            }
            if let Some(n) = self.last_axis
                && dist > 0.0
                && dist < need
            {
                dist = dist.max(self.second_order_time(&n, need));
            }
            if dist.is_nan() || dist <= 0.0 {
                break;
            }
            let dist = dist * self.step_scale;
            // The distance is `speed`-Lipschitz in the fraction: positive before `lo + dist /
            // speed`. Rounded down twice (division, sum): `next` is at most the exact bound.
            let next = (lo + dist).next_down();
            if next > t.hi {
                return None;
            }
            if next <= lo {
                break;
            }
            // Free times shrinking by `rho = dist / before` a step sum to `dist / (1 - rho)`.
            estimate = previous
                .filter(|&before| dist < before)
                .map(|before| lo + dist * (before / (before - dist)));
            previous = Some(dist);
            let step = next - lo;
            lo = next;
            // A second step even with little progress: it gives the estimate.
            if step < (t.hi - lo) * CA_MIN_PROGRESS && estimate.is_some() {
                break;
            }
        }
        Some((lo, estimate))
    }

    /// The free time from the fraction of `points` along `n` from the rates of the vertices'
    /// projections over the node, whose vertex boxes are `boxes_a`, `boxes_b` and translations
    /// `ta`, `tb` (module docs); negative when `n` does not separate.
    fn signed_time(&self, n: &VectorD, ta: &IVec3, tb: &IVec3) -> f64 {
        let ws = &*self.ws;
        let [ca, cb] = &ws.points;
        let (ha, hb) = (ca.project(n), cb.project(n));
        let ra = self.rate_a.range(n, &ws.boxes_a, ta);
        let rb = self.rate_b.range(n, &ws.boxes_b, tb);
        let (g, d) = if hb.lo > ha.hi {
            ((hb.lo - ha.hi).next_down(), (ra.hi - rb.lo).next_up())
        } else if ha.lo > hb.hi {
            ((ha.lo - hb.hi).next_down(), (rb.hi - ra.lo).next_up())
        } else {
            return f64::NEG_INFINITY;
        };
        if d.is_nan() {
            return f64::NEG_INFINITY;
        }
        if d <= 0.0 {
            return f64::INFINITY;
        }
        (g / d).next_down()
    }

    /// The free time from the fraction of `points` along `n` from the second-order bounds of
    /// the gap along `n` turning with either body (`crate::descent`), the larger of the two, for
    /// at most `horizon`; negative when `n` does not separate or a motion has no such bound.
    fn second_order_time(&self, n: &VectorD, horizon: f64) -> f64 {
        let (Rate::Axial(ma), Rate::Axial(mb)) = (self.rate_a, self.rate_b) else {
            return f64::NEG_INFINITY;
        };
        let ws = &*self.ws;
        let [ca, cb] = &ws.points;
        let (ha, hb) = (ca.project(n), cb.project(n));
        // `n` oriented from `a` towards `b`.
        let m = if hb.lo > ha.hi {
            *n
        } else if ha.lo > hb.hi {
            -*n
        } else {
            return f64::NEG_INFINITY;
        };
        let (Some(a), Some(b)) = (ca.at(&ws.arcs[0], ma), cb.at(&ws.arcs[1], mb)) else {
            return f64::NEG_INFINITY;
        };
        let turning_with_a = attached_free_time(&a, &b, &m, horizon);
        let turning_with_b = attached_free_time(&b, &a, &-m, horizon);
        turning_with_a.max(turning_with_b)
    }

    /// A node without a pair list: cull with the bodies' boxes, build the list when small enough,
    /// else split. Returns the first contact interval and where its pairs start in the list.
    fn unexpanded(&mut self, t: Interval) -> Option<(Interval, usize)> {
        let t = if self.small {
            Interval::new(self.advance(t, None)?.0, t.hi)
        } else {
            t
        };
        let pa = PoseEnclosure::over(self.ma, t);
        let pb = PoseEnclosure::over(self.mb, t);
        let ws = &mut *self.ws;
        fill_boxes(&mut ws.boxes_a, self.a, &pa);
        fill_boxes(&mut ws.boxes_b, self.b, &pb);
        if self.small && self.separated(t) {
            return None;
        }
        let ws = &mut *self.ws;
        let mut region =
            body_box(self.a, &ws.boxes_a)?.intersect(&body_box(self.b, &ws.boxes_b)?)?;
        let [va, ta, ea, vb, tb, eb] = &mut ws.selected;
        let mut count = usize::MAX;
        // Shrink the region to the boxes of the features that reach into it, a few rounds.
        for _ in 0..4 {
            select(self.a, &ws.boxes_a, &region, va, ta, ea);
            select(self.b, &ws.boxes_b, &region, vb, tb, eb);
            let now = va.len() * tb.len() + ta.len() * vb.len() + ea.len() * eb.len();
            if now == 0 {
                return None;
            }
            if now == count {
                break;
            }
            count = now;
            let reach_a = triangles_box(self.a, &ws.boxes_a, ta)?;
            let reach_b = triangles_box(self.b, &ws.boxes_b, tb)?;
            region = region.intersect(&reach_a)?.intersect(&reach_b)?;
        }
        let mid = t.mid();
        let splittable = t.width() > self.tol && mid > t.lo && mid < t.hi;
        // Build the list of pairs whose boxes meet, unless there are too many for this width.
        let limit = if t.width() > MATERIALIZE_WIDTH && splittable {
            MATERIALIZE_PAIRS
        } else {
            usize::MAX
        };
        fill_items(&mut ws.items_a, self.a, &ws.boxes_a, va, ta, ea);
        fill_items(&mut ws.items_b, self.b, &ws.boxes_b, vb, tb, eb);
        let start = ws.candidates.len();
        let complete = sweep_and_prune(
            &ws.items_a,
            &ws.items_b,
            &mut ws.active,
            &mut ws.candidates,
            limit,
        );
        if !complete {
            ws.candidates.truncate(start);
            return self
                .unexpanded(Interval::new(t.lo, mid))
                .or_else(|| self.unexpanded(Interval::new(mid, t.hi)));
        }
        let end = ws.candidates.len();
        let found = self.expanded(t, start, end, true);
        if found.is_none() {
            self.ws.candidates.truncate(start);
        }
        found
    }

    /// A node whose parent's pairs are `candidates[from..to]`: keeps those not excluded on `t`
    /// (appended to the list), then splits or reports. `guide`: the split may go to the
    /// contact estimate of the advancement ([`split_point`]); else it is the midpoint.
    fn expanded(
        &mut self,
        t: Interval,
        from: usize,
        to: usize,
        guide: bool,
    ) -> Option<(Interval, usize)> {
        // Enclosures over the whole node: valid on the advanced one too.
        let pa = PoseEnclosure::over(self.ma, t);
        let pb = PoseEnclosure::over(self.mb, t);
        let (t, estimate) = if self.small {
            fill_boxes(&mut self.ws.boxes_a, self.a, &pa);
            fill_boxes(&mut self.ws.boxes_b, self.b, &pb);
            let (lo, estimate) = self.advance(t, Some((&pa.trans, &pb.trans)))?;
            (Interval::new(lo, t.hi), estimate)
        } else {
            (t, None)
        };
        let fine = t.width() <= self.tol;
        if fine {
            self.budget = self.budget.saturating_sub(1);
        }
        // The split at an estimate leaves a wide second part: that one is halved (the width then
        // halves at least every other level, which bounds the depth).
        let estimate = estimate.filter(|_| guide);
        let split = split_point(t, estimate, self.tol);
        let guided = split != t.mid();
        if guided && !fine {
            // The first part is shorter than half the node: its pairs are filtered there, on the
            // short interval, where most are excluded at once (filtering them on the whole node
            // too is sound but costs more than it saves).
            let start = self.ws.candidates.len();
            let found = self
                .expanded(Interval::new(t.lo, split), from, to, true)
                .or_else(|| self.expanded(Interval::new(split, t.hi), from, to, false));
            if found.is_none() {
                self.ws.candidates.truncate(start);
            }
            return found;
        }
        let start = self.ws.candidates.len();
        if self.small {
            let ws = &mut *self.ws;
            let (ba, bb) = (&ws.boxes_a, &ws.boxes_b);
            for k in from..to {
                let c = ws.candidates[k];
                let r = test_pair(self.a, self.b, c, |v| ba[v as usize], |v| bb[v as usize]);
                if !r.excluded {
                    ws.candidates.push(c);
                }
            }
        } else {
            for k in from..to {
                let c = self.ws.candidates[k];
                if !self.test(c, &pa, &pb).excluded {
                    self.ws.candidates.push(c);
                }
            }
        }
        let end = self.ws.candidates.len();
        if end == start {
            return None;
        }
        // A node within the tolerance whose upper end the discrete test finds touching is the
        // contact: nothing earlier than its `lo` touches, and the bodies touch at its `hi`.
        // Only near misses need the refinement below the tolerance.
        let leaf = t.width() <= self.tol * REFINE_FACTOR
            || (fine && (self.budget == 0 || self.touches_at(t.hi)));
        let mid = split;
        if leaf || mid <= t.lo || mid >= t.hi {
            return Some((t, start));
        }
        let found = self
            .expanded(Interval::new(t.lo, mid), start, end, true)
            .or_else(|| self.expanded(Interval::new(mid, t.hi), start, end, !guided));
        if found.is_none() {
            self.ws.candidates.truncate(start);
        }
        found
    }

    /// True when two convex bodies touch at fraction `tau` by the discrete test's standard: a
    /// GJK distance within the touching band `TOUCHING_TOLERANCE_FACTOR * (r_a + r_b)` of the
    /// poses at `tau`. Always false for non-convex bodies (they refine instead).
    fn touches_at(&mut self, tau: f64) -> bool {
        let (Some(ha), Some(hb)) = (self.a.hull(), self.b.hull()) else {
            return false;
        };
        let (pa, pb) = (self.ma.pose_at(tau), self.mb.pose_at(tau));
        let rot_bt = pb.rot.transpose();
        let Ok(pos) = PoseMatrix::from_parts(rot_bt * pa.rot, rot_bt * (pa.trans - pb.trans))
        else {
            return false;
        };
        let band = TOUCHING_TOLERANCE_FACTOR * (self.a.radius() + self.b.radius());
        gjk_distance(hb, ha, &pos, &mut self.ws.gjk).is_ok_and(|r| r.distance <= band)
    }

    /// The contact of the first interval `t`, whose pairs are `candidates[start..]`.
    fn report(&self, t: Interval, start: usize) -> SweepContact {
        let pairs = &self.ws.candidates[start..];
        // Touching at the start: a pair not excluded at exactly tau = 0.
        if t.lo == 0.0 {
            let zero = Interval::point(0.0);
            let (pa, pb) = (
                PoseEnclosure::over(self.ma, zero),
                PoseEnclosure::over(self.mb, zero),
            );
            if let Some(c) = self.best(pairs, &pa, &pb) {
                return self.describe(c, 0.0, TimeOfImpact::exact(0.0), true);
            }
        }
        let (pa, pb) = (
            PoseEnclosure::over(self.ma, t),
            PoseEnclosure::over(self.mb, t),
        );
        // Every pair of the list is not excluded on `t`: `best` finds one.
        let c = self.best(pairs, &pa, &pb).unwrap_or(pairs[0]);
        let toi = TimeOfImpact { lo: t.lo, hi: t.hi };
        self.describe(c, t.hi, toi, false)
    }

    /// The pair not excluded whose plane function encloses 0 most tightly.
    fn best(
        &self,
        pairs: &[Candidate],
        pa: &PoseEnclosure,
        pb: &PoseEnclosure,
    ) -> Option<Candidate> {
        let mut best: Option<(f64, Candidate)> = None;
        for &c in pairs {
            let r = self.test(c, pa, pb);
            if r.excluded {
                continue;
            }
            let w = r.plane.width();
            if best.is_none_or(|(bw, _)| w < bw) {
                best = Some((w, c));
            }
        }
        best.map(|(_, c)| c)
    }

    fn describe(&self, c: Candidate, tau: f64, toi: TimeOfImpact, initially: bool) -> SweepContact {
        let at_a = |v: u32| point_at(self.ma, &self.a.vertices()[v as usize], tau);
        let at_b = |v: u32| point_at(self.mb, &self.b.vertices()[v as usize], tau);
        let centre_a = point_at(self.ma, &to_f64(&self.a.local_box().center()), tau);
        let centre_b = point_at(self.mb, &to_f64(&self.b.local_box().center()), tau);
        let fallback = unit_or(centre_a - centre_b, VectorD::z());
        let (kind, fm, fh, point, normal) = match c {
            Candidate::VertexFace { vertex, triangle } => {
                let tri = self.b.triangles()[triangle as usize];
                let [q0, q1, q2] = tri.corners.map(at_b);
                let n = unit_or((q1 - q0).cross(&(q2 - q0)), fallback);
                (ContactKind::VertexFace, vertex, tri.face, at_a(vertex), n)
            }
            Candidate::FaceVertex { triangle, vertex } => {
                let tri = self.a.triangles()[triangle as usize];
                let [q0, q1, q2] = tri.corners.map(at_a);
                let n = unit_or((q1 - q0).cross(&(q2 - q0)), -fallback);
                (ContactKind::FaceVertex, tri.face, vertex, at_b(vertex), -n)
            }
            Candidate::EdgeEdge { edge_a, edge_b } => {
                let ([i, j], ia) = self.a.contact_edges()[edge_a as usize];
                let ([k, l], ib) = self.b.contact_edges()[edge_b as usize];
                let (p0, p1, q0, q1) = (at_a(i), at_a(j), at_b(k), at_b(l));
                let point = segment_midpoint(&p0, &p1, &q0, &q1);
                let mut n = unit_or((p1 - p0).cross(&(q1 - q0)), fallback);
                // From b towards a: a's centre is on the positive side (exact for convex a).
                if n.dot(&(centre_a - point)) < 0.0 {
                    n = -n;
                }
                (ContactKind::EdgeEdge, ia, ib, point, n)
            }
        };
        SweepContact {
            toi,
            kind,
            feature_moving: fm,
            feature_hit: fh,
            point,
            normal,
            initially_touching: initially,
        }
    }
}

/// Where to split node `t` (any point inside is sound: both halves are searched, earliest
/// first). Its midpoint, unless conservative advancement estimated the first contact at
/// `estimate` (not certified) well before it: then a little after the estimate, so that the
/// first half is short and still likely holds the contact (the search then converges like the
/// secant method instead of halving down to the tolerance `tol`); a half of width at most `tol`
/// when the estimate is within `tol` of `t.lo`.
fn split_point(t: Interval, estimate: Option<f64>, tol: f64) -> f64 {
    let mid = t.mid();
    let Some(e) = estimate.filter(|e| e.is_finite() && *e >= t.lo) else {
        return mid;
    };
    let ahead = (e - t.lo) * SPLIT_OVERSHOOT + tol * 0.25;
    let split = t.lo + ahead.max(tol * 0.75);
    if split < mid { split } else { mid }
}

/// Tests pair `c` with the vertex enclosures `va` (of `a`) and `vb` (of `b`).
#[inline]
fn test_pair(
    a: &SweepShape,
    b: &SweepShape,
    c: Candidate,
    va: impl Fn(u32) -> IVec3,
    vb: impl Fn(u32) -> IVec3,
) -> PairTest {
    match c {
        Candidate::VertexFace { vertex, triangle } => {
            let q = b.triangles()[triangle as usize].corners.map(&vb);
            vertex_triangle(&va(vertex), &q)
        }
        Candidate::FaceVertex { triangle, vertex } => {
            let q = a.triangles()[triangle as usize].corners.map(&va);
            vertex_triangle(&vb(vertex), &q)
        }
        Candidate::EdgeEdge { edge_a, edge_b } => {
            let [i, j] = a.contact_edges()[edge_a as usize].0;
            let [k, l] = b.contact_edges()[edge_b as usize].0;
            edge_edge(&va(i), &va(j), &vb(k), &vb(l))
        }
    }
}

/// A certified lower bound of `min_b n . y - max_a n . x` or of `min_a n . x - max_b n . y` over
/// the points `x`, `y` of the boxes of `a` and `b` (in units of `|n|`; positive only when they are
/// separated along `n`).
fn gap(a: &Cloud, b: &Cloud, n: &VectorD) -> f64 {
    let (ha, hb) = (a.project(n), b.project(n));
    (hb.lo - ha.hi).next_down().max((ha.lo - hb.hi).next_down())
}

/// Boxes about points `c` of common radii `rmax` (per coordinate): every box `c_v +- rad_v` of
/// a set with `rad_v <= rmax`, and `mag >= |c_v| + rmax` for every `v` (coordinatewise).
#[derive(Clone, Debug, Default)]
struct Cloud {
    c: Vec<[f64; 3]>,
    rmax: [f64; 3],
    mag: [f64; 3],
    /// The enclosure of the body's translation (centre, radius) when the boxes are its vertices
    /// at one fraction ([`Cloud::fill`]).
    origin: Option<([f64; 3], [f64; 3])>,
}

impl Cloud {
    fn clear(&mut self) {
        self.c.clear();
        self.rmax = [0.0; 3];
        self.mag = [0.0; 3];
        self.origin = None;
    }

    fn push(&mut self, c: [f64; 3], rad: [f64; 3]) {
        self.c.push(c);
        for i in 0..3 {
            if !(c[i].is_finite() && rad[i].is_finite()) {
                // `max` would skip a NaN: an infinite radius makes every projection the line.
                self.rmax[i] = f64::INFINITY;
            }
            self.rmax[i] = self.rmax[i].max(rad[i]);
            // Rounded up well enough: `mag` only scales the error term (documented there).
            self.mag[i] = self.mag[i].max(c[i].abs() + rad[i]);
        }
    }

    /// Every vertex of `s` under `p` (see `enclose`).
    fn fill(&mut self, s: &SweepShape, p: &PoseEnclosure) {
        self.clear();
        enclose(s, p, |c, r| self.push(c, r));
        let t = p.trans.0.map(split);
        self.origin = Some((t.map(|x| x.0), t.map(|x| x.1)));
    }

    /// The boxes `bs`, as midpoints and radii rounded up.
    fn fill_from_boxes(&mut self, bs: &[IVec3]) {
        self.clear();
        for b in bs {
            let cr = b.0.map(split);
            self.push(cr.map(|x| x.0), cr.map(|x| x.1));
        }
        for m in &mut self.mag {
            *m *= 1.0 + 4.0 * f64::EPSILON;
        }
        for i in 0..3 {
            self.rmax[i] = self.rmax[i].next_up();
        }
        if !(self.rmax.iter().chain(&self.mag).all(|x| x.is_finite())) {
            self.rmax = [f64::INFINITY; 3];
        }
    }

    /// Encloses `n . x` for every `x` in every box (`n` exact; empty for no box): the projections
    /// of the points summed in `f64`, `|n| . rmax` on either side, then widened by `16u |n| . mag`
    /// plus `2^-1020`. Each `n . c_v` is off by at most `gamma_3 < 4u` of `|n| . |c_v|`, the radius
    /// term by `4u` of itself, the two final additions by about `2u` of `|n| . mag` (`u = 2^-53`);
    /// underflow by less than the absolute term. Non-finite sums give the whole line.
    fn project(&self, n: &VectorD) -> Interval {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for c in &self.c {
            let d = n.x * c[0] + n.y * c[1] + n.z * c[2];
            lo = lo.min(d);
            hi = hi.max(d);
        }
        let err = self.projection_error(n);
        if !(lo.is_finite() && hi.is_finite() && err.is_finite()) {
            return Interval::new(f64::NEG_INFINITY, f64::INFINITY);
        }
        Interval::new(lo - err, hi + err)
    }

    /// A bound of `|n . x - n . c_v|` for every `x` in box `v`, with the rounding of `n . c_v`
    /// (see [`Cloud::project`]).
    fn projection_error(&self, n: &VectorD) -> f64 {
        let a = [n.x.abs(), n.y.abs(), n.z.abs()];
        let r = a[0] * self.rmax[0] + a[1] * self.rmax[1] + a[2] * self.rmax[2];
        let m = a[0] * self.mag[0] + a[1] * self.mag[1] + a[2] * self.mag[2];
        r + m * (8.0 * f64::EPSILON) + f64::from_bits(0x0030_0000_0000_0000)
    }

    /// The boxes as the second-order bounds read them, with the vertices' arc radii `arcs` and
    /// the motion; `None` unless the boxes are the body's vertices at one fraction, with finite
    /// bounds.
    fn at<'a>(&'a self, arcs: &'a [f64], motion: AxialMotion) -> Option<BodyAt<'a>> {
        let (tc, trad) = self.origin?;
        let finite = self
            .rmax
            .iter()
            .chain(&self.mag)
            .chain(&trad)
            .all(|x| x.is_finite());
        (finite && arcs.len() == self.c.len()).then_some(BodyAt {
            centres: &self.c,
            rmax: self.rmax,
            mag: self.mag,
            trans: (tc, trad),
            arcs,
            motion,
        })
    }
}

/// Midpoint and a radius rounded up of an interval.
fn split(i: Interval) -> (f64, f64) {
    let c = i.mid();
    (c, (i.hi - c).max(c - i.lo).next_up())
}

/// A bound of how fast a body's points move along an axis (module docs).
#[derive(Clone, Copy, Debug)]
enum Rate {
    /// Any direction: `speed |n|`.
    Iso(f64),
    /// Linear velocity `v` and rotation about the unit axis `w` at angular rate times reach
    /// `spin` (motions (a) and (d)).
    Axial(AxialMotion),
}

impl Rate {
    fn new(s: &SweepShape, m: &BodyMotion) -> Self {
        let radius = s
            .vertices()
            .iter()
            .map(|x| (m.start.rot * x.coords).norm())
            .fold(0.0, f64::max)
            * (1.0 + 1e-12);
        match m.motion {
            Motion::Translation { d } => Self::Axial(AxialMotion {
                v: d,
                w: VectorD::x(),
                spin: 0.0,
                theta: 0.0,
                radius,
            }),
            Motion::Interpolated { end } => {
                let (w, theta) = m.interpolated_axis_angle();
                Self::Axial(AxialMotion {
                    v: end.trans - m.start.trans,
                    w,
                    spin: theta.abs() * radius,
                    theta,
                    radius,
                })
            }
            _ => Self::Iso(m.speed_bound(radius) * (1.0 + SPEED_MARGIN)),
        }
    }

    /// Encloses `d/dtau (n . x(tau))` for every point `x` of the body and `tau` in a node whose
    /// vertex boxes are `boxes` and translation `trans` (module docs).
    fn range(&self, n: &VectorD, boxes: &[IVec3], trans: &IVec3) -> Interval {
        match *self {
            Self::Iso(speed) => {
                let s = speed * n.norm() * (1.0 + 1e-12);
                Interval::new(-s, s)
            }
            Self::Axial(AxialMotion {
                v, w, spin, theta, ..
            }) => {
                let ni = IVec3::from_vector(n);
                let lin = ni.dot(&IVec3::from_vector(&v));
                if theta == 0.0 {
                    // A translation: every point's rate is `n . v` exactly.
                    return lin;
                }
                let c = ni.cross(&IVec3::from_vector(&w));
                let Some(h) = boxes
                    .iter()
                    .map(|b| c.dot(&(*b - *trans)))
                    .reduce(Interval::hull)
                else {
                    return Interval::new(f64::NEG_INFINITY, f64::INFINITY);
                };
                let r = lin + h.scale(theta);
                let slack = 1e-9 * n.norm() * (v.norm() + spin) + 1e-300;
                Interval::new(r.lo - slack, r.hi + slack)
            }
        }
    }

    /// An upper bound of `|d/dtau (n . x(tau))|` for every point `x` of the body.
    #[inline]
    fn rate(&self, n: &VectorD) -> f64 {
        let len = n.norm();
        match self {
            Self::Iso(speed) => speed * len * (1.0 + 1e-12),
            Self::Axial(AxialMotion { v, w, spin, .. }) => {
                let lin = n.dot(v).abs() + 1e-12 * len * v.norm();
                let rot = spin * (n.cross(w).norm() + 1e-12 * len);
                (lin + rot) * (1.0 + SPEED_MARGIN)
            }
        }
    }
}

/// Distinct directions (up to sign) of `s`'s face normals and contact edges, local frame; none
/// of a kind when there are more than [`MAX_AXES`] (the candidates only steer the search).
fn axis_candidates(s: &SweepShape, normals: &mut Vec<VectorD>, directions: &mut Vec<VectorD>) {
    fn add(out: &mut Vec<VectorD>, v: VectorD) -> bool {
        let n = v.norm();
        if !(n > 0.0 && n.is_finite()) {
            return true;
        }
        let u = v / n;
        if out.iter().all(|w| w.dot(&u).abs() < 1.0 - 1e-9) {
            if out.len() == MAX_AXES {
                return false;
            }
            out.push(u);
        }
        true
    }
    normals.clear();
    directions.clear();
    for k in 0..s.triangles().len() {
        if !add(normals, s.triangle_normal(k).0) {
            normals.clear();
            break;
        }
    }
    let v = s.vertices();
    for ([i, j], _) in s.contact_edges() {
        if !add(directions, v[*j as usize] - v[*i as usize]) {
            directions.clear();
            break;
        }
    }
}

/// Encloses every vertex of `s` under the pose enclosure `p`, in midpoint-radius form: with
/// `R = C +- E` and `t = c +- e` (entrywise; `C`, `c` the `f64` midpoints, `E`, `e` radii rounded
/// up so that the intervals are covered), `R x + t` lies in `C x + c +- (E |x| + e)`. Both sums
/// are evaluated in `f64`; each is a sum of four terms bounded by `m = (|C| + E) |x| + |c| + e`,
/// so each is off by at most `gamma_4 m < 5u m` (`u = 2^-53`), and the final additions by about
/// `u m` more: the radius is widened by `16u m` plus `2^-1020` (underflow).
fn fill_boxes(out: &mut Vec<IVec3>, s: &SweepShape, p: &PoseEnclosure) {
    out.clear();
    enclose(s, p, |c, rad| {
        out.push(IVec3(
            [0, 1, 2].map(|i| Interval::new(c[i] - rad[i], c[i] + rad[i])),
        ));
    });
}

/// Calls `sink(c, rad)` for every vertex of `s` under `p` with a box `c +- rad` enclosing it (the
/// radii include the rounding; see `fill_boxes`; non-finite values give infinite radii).
#[inline]
fn enclose(s: &SweepShape, p: &PoseEnclosure, mut sink: impl FnMut([f64; 3], [f64; 3])) {
    let mut rc = [[0.0; 3]; 3];
    let mut re = [[0.0; 3]; 3];
    let (mut tc, mut te) = ([0.0; 3], [0.0; 3]);
    for i in 0..3 {
        for j in 0..3 {
            (rc[i][j], re[i][j]) = split(p.rot[i][j]);
        }
        (tc[i], te[i]) = split(p.trans.0[i]);
    }
    let tiny = f64::from_bits(0x0030_0000_0000_0000);
    for v in s.vertices() {
        let x = [v.x, v.y, v.z];
        let ax = x.map(f64::abs);
        let mut cs = [0.0; 3];
        let mut rs = [0.0; 3];
        for i in 0..3 {
            let c = rc[i][0] * x[0] + rc[i][1] * x[1] + rc[i][2] * x[2] + tc[i];
            let r = re[i][0] * ax[0] + re[i][1] * ax[1] + re[i][2] * ax[2] + te[i];
            let m = (rc[i][0].abs() * ax[0] + rc[i][1].abs() * ax[1] + rc[i][2].abs() * ax[2])
                + tc[i].abs()
                + r;
            let rad = r + m * (8.0 * f64::EPSILON) + tiny;
            if c.is_finite() && rad.is_finite() {
                (cs[i], rs[i]) = (c, rad);
            } else {
                (cs[i], rs[i]) = (0.0, f64::INFINITY);
            }
        }
        sink(cs, rs);
    }
}

/// The box of the triangles' corners (the surface), or `None` without triangles.
fn body_box(s: &SweepShape, boxes: &[IVec3]) -> Option<IVec3> {
    let mut it = s.triangles().iter().flat_map(|t| t.corners);
    let first = boxes[it.next()? as usize];
    Some(it.fold(first, |acc, v| acc.hull(&boxes[v as usize])))
}

/// The selected features of `s` with their boxes, sorted by the lower `x` bound.
fn fill_items(
    out: &mut Vec<Item>,
    s: &SweepShape,
    boxes: &[IVec3],
    verts: &[u32],
    tris: &[u32],
    edges: &[u32],
) {
    out.clear();
    out.extend(verts.iter().map(|&v| Item {
        bx: boxes[v as usize],
        feature: Feature::Vertex(v),
    }));
    out.extend(tris.iter().map(|&t| {
        let q = s.triangles()[t as usize].corners.map(|k| boxes[k as usize]);
        Item {
            bx: q[0].hull(&q[1]).hull(&q[2]),
            feature: Feature::Triangle(t),
        }
    }));
    out.extend(edges.iter().map(|&e| {
        let [i, j] = s.contact_edges()[e as usize].0;
        Item {
            bx: boxes[i as usize].hull(&boxes[j as usize]),
            feature: Feature::Edge(e),
        }
    }));
    out.sort_unstable_by(|x, y| x.bx.0[0].lo.total_cmp(&y.bx.0[0].lo));
}

/// The pair of an `a` feature and a `b` feature, when it is one the search tests.
fn pair(fa: Feature, fb: Feature) -> Option<Candidate> {
    match (fa, fb) {
        (Feature::Vertex(vertex), Feature::Triangle(triangle)) => {
            Some(Candidate::VertexFace { vertex, triangle })
        }
        (Feature::Triangle(triangle), Feature::Vertex(vertex)) => {
            Some(Candidate::FaceVertex { triangle, vertex })
        }
        (Feature::Edge(edge_a), Feature::Edge(edge_b)) => {
            Some(Candidate::EdgeEdge { edge_a, edge_b })
        }
        _ => None,
    }
}

/// Appends the pairs of `a` and `b` items whose boxes meet (both lists sorted by lower `x`),
/// by sweeping along `x`. Returns false (with a partial list) once more than `limit` were added.
fn sweep_and_prune(
    a: &[Item],
    b: &[Item],
    active: &mut [Vec<Item>; 2],
    out: &mut Vec<Candidate>,
    limit: usize,
) -> bool {
    let [act_a, act_b] = active;
    act_a.clear();
    act_b.clear();
    let (mut i, mut j, mut added) = (0, 0, 0usize);
    while i < a.len() || j < b.len() {
        let take_a = j == b.len() || (i < a.len() && a[i].bx.0[0].lo <= b[j].bx.0[0].lo);
        let (item, mine, others) = if take_a {
            i += 1;
            (a[i - 1], &mut *act_a, &mut *act_b)
        } else {
            j += 1;
            (b[j - 1], &mut *act_b, &mut *act_a)
        };
        let x = item.bx.0[0].lo;
        others.retain(|o| o.bx.0[0].hi >= x);
        for o in others.iter() {
            if !o.bx.overlaps(&item.bx) {
                continue;
            }
            let c = if take_a {
                pair(item.feature, o.feature)
            } else {
                pair(o.feature, item.feature)
            };
            if let Some(c) = c {
                out.push(c);
                added += 1;
                if added > limit {
                    return false;
                }
            }
        }
        mine.push(item);
    }
    true
}

/// The box of the triangles `tris` of `s`, or `None` for none.
fn triangles_box(s: &SweepShape, boxes: &[IVec3], tris: &[u32]) -> Option<IVec3> {
    let mut it = tris.iter().flat_map(|&t| s.triangles()[t as usize].corners);
    let first = boxes[it.next()? as usize];
    Some(it.fold(first, |acc, v| acc.hull(&boxes[v as usize])))
}

trait Intersect: Sized {
    fn intersect(&self, o: &Self) -> Option<Self>;
}

impl Intersect for IVec3 {
    fn intersect(&self, o: &Self) -> Option<Self> {
        if !self.overlaps(o) {
            return None;
        }
        Some(IVec3([0, 1, 2].map(|i| {
            Interval::new(self.0[i].lo.max(o.0[i].lo), self.0[i].hi.min(o.0[i].hi))
        })))
    }
}

/// The contact vertices, triangles and contact edges (indices as in [`Candidate`]) whose boxes
/// reach into `region`.
fn select(
    s: &SweepShape,
    boxes: &[IVec3],
    region: &IVec3,
    verts: &mut Vec<u32>,
    tris: &mut Vec<u32>,
    edges: &mut Vec<u32>,
) {
    verts.clear();
    tris.clear();
    edges.clear();
    verts.extend(
        s.contact_vertices()
            .iter()
            .copied()
            .filter(|&v| boxes[v as usize].overlaps(region)),
    );
    for (k, t) in s.triangles().iter().enumerate() {
        let q = t.corners.map(|v| boxes[v as usize]);
        if q[0].hull(&q[1]).hull(&q[2]).overlaps(region) {
            tris.push(k as u32);
        }
    }
    for (k, (e, _)) in s.contact_edges().iter().enumerate() {
        if boxes[e[0] as usize]
            .hull(&boxes[e[1] as usize])
            .overlaps(region)
        {
            edges.push(k as u32);
        }
    }
}

fn unit_or(v: VectorD, fallback: VectorD) -> VectorD {
    let n = v.norm();
    if n > 0.0 && n.is_finite() {
        v / n
    } else {
        fallback
    }
}

/// Midpoint of the closest points of segments `p0 p1` and `q0 q1` (`f64`, clamped parameters).
fn segment_midpoint(p0: &PointD, p1: &PointD, q0: &PointD, q1: &PointD) -> PointD {
    let (u, v, w) = (p1 - p0, q1 - q0, p0 - q0);
    let (a, b, c, d, e) = (u.dot(&u), u.dot(&v), v.dot(&v), u.dot(&w), v.dot(&w));
    let den = a * c - b * b;
    let clamp = |x: f64| {
        if x.is_finite() {
            x.clamp(0.0, 1.0)
        } else {
            0.0
        }
    };
    let mut s = if den > 0.0 {
        clamp((b * e - c * d) / den)
    } else {
        0.0
    };
    let t = if c > 0.0 { clamp((b * s + e) / c) } else { 0.0 };
    if a > 0.0 {
        s = clamp((b * t - d) / a);
    }
    let ps = p0 + u * s;
    let qt = q0 + v * t;
    PointD::from((ps.coords + qt.coords) * 0.5)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force with teeth: bars and small boxes of the `ccd-spinners` kind, turning fast
    /// (and half of them flying) into a static wall, sampled at 2,000 fractions with GJK. With
    /// the certified steps no sampled overlap comes before `lo`; with steps 10% longer than
    /// certified the same cases pass some contacts, so the check would catch a loosened bound.
    #[test]
    fn brute_force_catches_steps_ten_percent_too_long() {
        use crate::motion::{RigidPose, axis_angle_matrix};
        use colldet_geom::Polyhedron;
        use colldet_geom::math::Pose;
        use colldet_narrow::{GjkStatus, PointCloud};
        use colldet_testkit::rng::SeededRng;
        use colldet_testkit::shapes::cuboid;
        use nalgebra::{Rotation3, Translation3, UnitQuaternion};

        let solid = |h: VectorD| {
            let mesh = cuboid(h).unwrap();
            let cloud = PointCloud::new(mesh.vertices.clone()).unwrap();
            let poly = Polyhedron::build(mesh, &Default::default()).unwrap();
            (SweepShape::new(&poly).unwrap(), cloud)
        };
        let iso = |p: &RigidPose| {
            let rot = Rotation3::from_matrix(&p.rot);
            Pose::from_parts(
                Translation3::from(p.trans),
                UnitQuaternion::from_rotation_matrix(&rot),
            )
        };
        let wall = solid(VectorD::new(0.75, 0.75, 0.01));
        let movers = [
            solid(VectorD::new(1.0, 0.025, 0.025)),
            solid(VectorD::new(0.06, 0.03, 0.02)),
        ];
        let mut rng = SeededRng::new(0x5e1f_0010);
        let mut ws = GeneralSweepWorkspace::new();
        let options = GeneralSweepOptions::default();
        let (mut contacts, mut missed) = (0, [0; 2]);
        for case in 0..120 {
            let (shape, cloud) = &movers[case % 2];
            let wall_pose = RigidPose::new(
                rng.rotation().to_rotation_matrix().into_inner(),
                VectorD::zeros(),
            );
            let dir = rng.unit_vector().into_inner();
            let start = RigidPose::new(
                rng.rotation().to_rotation_matrix().into_inner(),
                dir * rng.range(0.4, 1.2),
            );
            let flight = if case % 4 < 2 {
                0.0
            } else {
                rng.range(1.0, 3.0)
            };
            let spin = axis_angle_matrix(&rng.unit_vector().into_inner(), rng.range(1.0, 3.0));
            let end = RigidPose::new(spin * start.rot, start.trans - dir * flight);
            let ma = BodyMotion::new(start, Motion::Interpolated { end }).unwrap();
            let mb = BodyMotion::stationary(wall_pose);
            let status = |tau: f64| {
                let pos = iso(&ma.pose_at(tau)).inverse() * iso(&mb.pose_at(tau));
                gjk_distance(cloud, &wall.1, &pos, &mut GjkCache::new())
                    .unwrap()
                    .status
            };
            if status(0.0) != GjkStatus::Separated {
                continue;
            }
            let Some(first) = (0..=2000)
                .map(|k| f64::from(k) / 2000.0)
                .find(|&tau| status(tau) == GjkStatus::Intersecting)
            else {
                continue;
            };
            contacts += 1;
            for (k, scale) in [1.0, 1.1].into_iter().enumerate() {
                let found =
                    sweep_scaled(shape, &ma, &wall.0, &mb, &options, &mut ws, scale).unwrap();
                if found.is_none_or(|c| c.toi.lo > first) {
                    missed[k] += 1;
                }
            }
        }
        assert!(contacts >= 30, "too few contacts: {contacts}");
        assert_eq!(missed[0], 0, "certified steps passed a contact");
        assert!(
            missed[1] > 0,
            "steps 10% too long passed no contact: the check has no teeth"
        );
    }

    #[test]
    fn split_point_follows_the_estimate_within_the_node() {
        let t = Interval::new(0.25, 0.75);
        let tol = 1e-9;
        // No estimate, or a useless one: the midpoint.
        assert_eq!(split_point(t, None, tol), 0.5);
        assert_eq!(split_point(t, Some(f64::NAN), tol), 0.5);
        assert_eq!(split_point(t, Some(0.1), tol), 0.5);
        assert_eq!(split_point(t, Some(0.6), tol), 0.5);
        // A little past a useful estimate.
        let s = split_point(t, Some(0.25 + 1e-3), tol);
        assert!(s > 0.25 + 1e-3 && s < 0.25 + 2e-3, "{s}");
        // Within the tolerance of `lo`: a first part of width within it, not below 3/4 of it.
        let s = split_point(t, Some(0.25 + 1e-12), tol);
        assert!(s - 0.25 <= tol && s - 0.25 >= 0.7 * tol, "{s}");
    }
}
