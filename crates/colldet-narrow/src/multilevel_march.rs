//! Multi-level marching (Lin's proximity survey, section 4.2; Ehmann and Lin 1999): the distance
//! between two convex polytopes refined progressively over a coarse-to-fine hierarchy of each
//! hull, with a certified bracket of the distance at every level.
//!
//! # Pair convention
//! As [`crate::gjk`]: `pos12` is shape 2's pose in shape 1's frame; points are `f64` in shape 1's
//! frame.
//!
//! # Rationale
//! The hierarchy is the polytope's Dobkin-Kirkpatrick hierarchy
//! ([`colldet_geom::DkHierarchy`]): level 0 is the polytope, each coarser level the hull of a
//! subset of the finer level's vertices, so every level lies *inside* the polytope and its
//! points are points of the object. The march starts on the top levels (at most 8 vertices
//! each) and, level by level, runs GJK on the two levels' polytopes, warm-started from the
//! coarser levels' final simplex with its vertices renamed to the finer level (a coarse vertex is
//! a fine vertex). Within a level the march is GJK's, not Lin-Canny's Voronoi walk: the levels
//! carry vertex graphs, not face structures, and GJK's simplex is the feature pair it tracks.
//! At each level:
//! - **upper bound**: the closest points of the two level polytopes, `|v|` apart, are points of
//!   the objects, so the distance is at most `|v|` (the smallest over the levels so far is kept
//!   with its points);
//! - **lower bound**: one support query of the *full* polytopes' difference along `-v` (hill
//!   climbing from the level's supporting vertices renamed to level 0) gives the plane `v . x =
//!   v . w` that has the whole of `A - B` on its far side, so the distance is at least `v . w /
//!   |v|` (the largest over the levels is kept).
//!
//! Both bounds are GJK's own (certified up to `f64` rounding, see [`crate::gjk`]), so every
//! level's bracket `[lower, upper]` holds the distance. The march stops at the first level whose
//! bracket is within the caller's relative error (`upper <= (1 + relative_error) lower`), or at
//! level 0, where it is GJK with that relative stop. Coarse levels are cheap (their supports
//! scan or climb a handful of vertices), so a loose bound can be met without touching most of
//! the fine polytope.
//!
//! Polytopes without a hierarchy (at most 64 vertices) have level 0 only. A pair whose level
//! polytopes share a point (the objects then share one too, or touch) is not measured here:
//! [`multilevel_distance`] answers `None` and the caller runs GJK and EPA.

use crate::cso::PairFrame;
use crate::gjk::simplex::Simplex;
use crate::gjk::{EarlyStop, GjkCache, GjkEnd, run_gjk};
use crate::{NarrowError, RelativePose, SupportMap};
use colldet_geom::ConvexPolytope;
use colldet_geom::math::{Point, PointD, Real, Vector, VectorD};

/// The bracket of the distance after one level of the march.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LevelBound {
    /// The hierarchy levels of shape 1 and shape 2 (0 = the polytope itself).
    pub levels: [usize; 2],
    /// A lower bound on the distance (the largest found so far).
    pub lower: f64,
    /// An upper bound on the distance (the smallest found so far): the distance between points
    /// of the two objects.
    pub upper: f64,
}

/// The answer of [`multilevel_distance`], in shape 1's frame and units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MarchDistance {
    /// The reported distance, `upper` of the last level: `d_true <= distance <= (1 +
    /// relative_error) d_true` (plus GJK's accuracy at level 0).
    pub distance: f64,
    /// The last level's lower bound.
    pub lower: f64,
    /// A point of shape 1, `distance` from `point2`.
    pub point1: PointD,
    /// A point of shape 2 (shape 1's frame).
    pub point2: PointD,
    /// The levels the march stopped at.
    pub levels: [usize; 2],
}

/// One level of a polytope's hierarchy as a support map; support tokens are that level's vertex
/// indices. Its bounding radius and rounding are the polytope's, so the pair's tolerances are the
/// same at every level.
struct Level<'p> {
    polytope: &'p ConvexPolytope,
    level: usize,
}

impl Level<'_> {
    fn points(&self) -> &[Point] {
        match self.polytope.dk_hierarchy() {
            Some(dk) if self.level > 0 => dk.level_points(self.level).unwrap_or(&[]),
            _ => self.polytope.vertices(),
        }
    }
}

impl SupportMap for Level<'_> {
    fn local_support(&self, dir: &Vector) -> Point {
        let mut hint = u32::MAX;
        let d = VectorD::new(dir.x.into(), dir.y.into(), dir.z.into());
        self.local_support_hinted_f64(&d, &mut hint)
    }

    fn local_support_hinted_f64(&self, dir: &VectorD, hint: &mut u32) -> Point {
        match self.polytope.dk_hierarchy() {
            Some(dk) if self.level > 0 => {
                *hint = dk.level_support_f64(self.level, dir, *hint);
                self.points()[*hint as usize]
            }
            _ => self.polytope.local_support_hinted_f64(dir, hint),
        }
    }

    fn local_point_of_hint(&self, hint: u32) -> Option<Point> {
        self.points().get(hint as usize).copied()
    }

    fn local_bounding_radius(&self) -> Real {
        self.polytope.radius()
    }

    fn vertex_rounding(&self) -> f64 {
        SupportMap::vertex_rounding(self.polytope)
    }
}

/// Number of hierarchy levels of `p` (1 without a hierarchy).
fn level_count(p: &ConvexPolytope) -> usize {
    p.dk_hierarchy().map_or(1, |dk| dk.level_count())
}

/// Vertex `v` of level `from` of `p` renamed to level `to <= from`.
fn rename(p: &ConvexPolytope, from: usize, to: usize, mut v: u32) -> u32 {
    if let Some(dk) = p.dk_hierarchy() {
        for level in (to + 1..=from).rev() {
            v = dk.to_finer(level, v);
        }
    }
    v
}

/// The distance between two convex polytopes to the relative error `relative_error`, by
/// multi-level marching (see the [module docs](self)); `on_level` sees every level's bracket.
/// `None` when the level polytopes share a point (the shapes are touching or intersecting: use
/// GJK and EPA). No allocation.
///
/// # Errors
/// [`NarrowError::InvalidParameter`] for a negative or NaN `relative_error`; otherwise as
/// [`crate::gjk_distance`].
pub fn multilevel_distance<P>(
    s1: &ConvexPolytope,
    s2: &ConvexPolytope,
    pos12: &P,
    relative_error: f64,
    mut on_level: impl FnMut(LevelBound),
) -> Result<Option<MarchDistance>, NarrowError>
where
    P: RelativePose + ?Sized,
{
    if relative_error.is_nan() || relative_error < 0.0 {
        return Err(NarrowError::InvalidParameter {
            parameter: "relative_error",
            requirement: "must be non-negative (not NaN)",
        });
    }
    let frame = PairFrame::new(s1, s2, pos12)?;
    let tops = [level_count(s1) - 1, level_count(s2) - 1];
    let mut cache = GjkCache::new();
    let mut lower = 0.0_f64;
    let mut best = (f64::INFINITY, PointD::origin(), PointD::origin());
    let mut k = tops[0].max(tops[1]);
    loop {
        let levels = [k.min(tops[0]), k.min(tops[1])];
        let (l1, l2) = (
            Level {
                polytope: s1,
                level: levels[0],
            },
            Level {
                polytope: s2,
                level: levels[1],
            },
        );
        let mut simplex = Simplex::empty();
        let run = run_gjk(
            &l1,
            &l2,
            &frame,
            &mut cache,
            EarlyStop::relative(relative_error),
            &mut simplex,
        )?;
        if run.end == GjkEnd::Enclosed {
            return Ok(None);
        }
        let vn = run.v.norm();
        if vn < best.0 {
            let (p1, p2) = simplex.witness_points();
            best = (vn, PointD::from(p1), PointD::from(p2));
        }
        // The full polytopes' support along -v, climbing from the level's supporting vertices.
        let mut full_hints = [
            rename(s1, levels[0], 0, run.hints[0]),
            rename(s2, levels[1], 0, run.hints[1]),
        ];
        let w = frame.support(s1, s2, &-run.v, &mut full_hints)?;
        lower = lower.max(run.v.dot(&w.w) / vn);
        on_level(LevelBound {
            levels,
            lower,
            upper: best.0,
        });
        if k == 0 || best.0 <= (1.0 + relative_error) * lower {
            return Ok(Some(MarchDistance {
                distance: best.0,
                lower,
                point1: best.1,
                point2: best.2,
                levels,
            }));
        }
        k -= 1;
        let finer = [k.min(tops[0]), k.min(tops[1])];
        cache.rename_tokens(|shape, v| {
            let p = if shape == 0 { s1 } else { s2 };
            rename(p, levels[shape], finer[shape], v)
        });
    }
}
