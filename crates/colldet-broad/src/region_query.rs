//! Region queries on a broad phase: which proxies' boxes may meet a ray segment or a box.
//!
//! [`BroadPhase::query`](crate::BroadPhase::query) takes a *probe*, a monotone test on boxes
//! (true for a box means true for every box containing it), so hierarchical structures can skip
//! a node whose box fails. [`RaySegment`] is the conservative ray probe: it never rejects a box
//! that the exact segment meets, since it tests the box grown by a margin far above the rounding
//! of its slab arithmetic.

use colldet_geom::WorldAabb;
use colldet_geom::math::{PointD, VectorD};

/// Relative growth of a box before the ray's slab test (times the magnitude of the box's and the
/// origin's coordinates): covers the rounding of the slab divisions (a few `f64` ulps) and the
/// rounding of a ray mapped into an object's frame, with a wide margin.
pub const RAY_BOX_MARGIN: f64 = 1e-9;

/// The segment `origin + t dir`, `0 <= t <= max_t` (world frame, `f64`; `max_t` may be
/// infinite), as a conservative box probe, with its reciprocal direction prepared.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RaySegment {
    origin: PointD,
    dir: VectorD,
    max_t: f64,
    /// `1 / dir` per axis (unused where `dir` is 0).
    inv_dir: VectorD,
    /// `|origin|_inf`, for the margin.
    origin_magnitude: f64,
}

impl RaySegment {
    /// The segment from `origin` along `dir` (finite, non-zero, not necessarily unit: `t` is in
    /// units of `|dir|`) up to `max_t` (`>= 0`, possibly `+inf`).
    pub fn new(origin: PointD, dir: VectorD, max_t: f64) -> Self {
        Self {
            origin,
            dir,
            max_t,
            inv_dir: dir.map(|d| 1.0 / d),
            origin_magnitude: origin.coords.amax(),
        }
    }

    /// The start point.
    pub fn origin(&self) -> &PointD {
        &self.origin
    }

    /// The direction.
    pub fn dir(&self) -> &VectorD {
        &self.dir
    }

    /// The largest parameter.
    pub fn max_t(&self) -> f64 {
        self.max_t
    }

    /// A lower bound on the parameter `t` where the segment enters `aabb`, or `None` when it
    /// provably misses it. The box is grown by [`RAY_BOX_MARGIN`] times the largest coordinate
    /// magnitude of the box and the origin (far above the few ulps of relative error of the
    /// slab parameters, which multiply by the rounded reciprocal), so a box the exact segment
    /// touches is never rejected and the bound is at most the exact entry parameter.
    #[inline]
    pub fn enter(&self, aabb: &WorldAabb) -> Option<f64> {
        let box_magnitude = aabb.mins.coords.amax().max(aabb.maxs.coords.amax());
        let margin = RAY_BOX_MARGIN * self.origin_magnitude.max(box_magnitude) + f64::MIN_POSITIVE;
        let (mut enter, mut exit) = (0.0f64, self.max_t);
        for k in 0..3 {
            let lo = aabb.mins[k] - margin - self.origin[k];
            let hi = aabb.maxs[k] + margin - self.origin[k];
            if self.dir[k] == 0.0 {
                if lo > 0.0 || hi < 0.0 {
                    return None;
                }
                continue;
            }
            let (s0, s1) = (lo * self.inv_dir[k], hi * self.inv_dir[k]);
            let (near, far) = if s0 <= s1 { (s0, s1) } else { (s1, s0) };
            enter = enter.max(near);
            exit = exit.min(far);
        }
        (enter <= exit).then_some(enter)
    }

    /// True unless the segment provably misses `aabb` ([`RaySegment::enter`]).
    #[inline]
    pub fn may_hit(&self, aabb: &WorldAabb) -> bool {
        self.enter(aabb).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit_box(x: f64) -> WorldAabb {
        WorldAabb::new(PointD::new(x, -0.5, -0.5), PointD::new(x + 1.0, 0.5, 0.5))
    }

    #[test]
    fn enters_at_the_near_face_and_respects_max_t() {
        let ray = RaySegment::new(PointD::origin(), VectorD::new(2.0, 0.0, 0.0), f64::INFINITY);
        let with_max = |m: f64| RaySegment::new(*ray.origin(), *ray.dir(), m);
        let t = ray.enter(&unit_box(4.0)).unwrap();
        assert!(t <= 2.0 && t > 2.0 - 1e-8, "{t}");
        // Hit exactly at max_t counts; far beyond it misses.
        assert!(with_max(2.0).may_hit(&unit_box(4.0)));
        assert!(!with_max(1.9).may_hit(&unit_box(4.0)));
        // Behind the origin.
        assert!(!ray.may_hit(&unit_box(-3.0)));
        // Starting inside: entry 0.
        assert_eq!(ray.enter(&unit_box(-0.5)), Some(0.0));
    }

    #[test]
    fn grazing_a_face_or_parallel_to_it_counts() {
        let x = VectorD::new(1.0, 0.0, 0.0);
        let ray = RaySegment::new(PointD::new(0.0, 0.5, 0.0), x, 10.0);
        assert!(ray.may_hit(&unit_box(4.0)));
        let above = RaySegment::new(PointD::new(0.0, 0.5 + 1e-6, 0.0), x, 10.0);
        assert!(!above.may_hit(&unit_box(4.0)));
    }
}
