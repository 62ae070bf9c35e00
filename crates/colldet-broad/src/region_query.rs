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
/// infinite), as a conservative box probe.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RaySegment {
    /// Start point.
    pub origin: PointD,
    /// Direction, finite and non-zero, not necessarily unit: `t` is in units of `|dir|`.
    pub dir: VectorD,
    /// Largest parameter, `>= 0`, possibly `+inf`.
    pub max_t: f64,
}

impl RaySegment {
    /// A lower bound on the parameter `t` where the segment enters `aabb`, or `None` when it
    /// provably misses it. The box is grown by [`RAY_BOX_MARGIN`] times the largest coordinate
    /// magnitude of the box and the origin, so a box the exact segment touches is never
    /// rejected and the bound is at most the exact entry parameter.
    #[inline]
    pub fn enter(&self, aabb: &WorldAabb) -> Option<f64> {
        let mut scale = 0.0f64;
        for k in 0..3 {
            scale = scale
                .max(aabb.mins[k].abs())
                .max(aabb.maxs[k].abs())
                .max(self.origin[k].abs());
        }
        let margin = RAY_BOX_MARGIN * scale + f64::MIN_POSITIVE;
        let (mut enter, mut exit) = (0.0f64, self.max_t);
        for k in 0..3 {
            let (lo, hi) = (aabb.mins[k] - margin, aabb.maxs[k] + margin);
            let (o, d) = (self.origin[k], self.dir[k]);
            if d == 0.0 {
                if o < lo || o > hi {
                    return None;
                }
                continue;
            }
            let (s0, s1) = ((lo - o) / d, (hi - o) / d);
            let (near, far) = if s0 <= s1 { (s0, s1) } else { (s1, s0) };
            enter = enter.max(near);
            exit = exit.min(far);
            if enter > exit {
                return None;
            }
        }
        Some(enter)
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
        let ray = RaySegment {
            origin: PointD::origin(),
            dir: VectorD::new(2.0, 0.0, 0.0),
            max_t: f64::INFINITY,
        };
        let t = ray.enter(&unit_box(4.0)).unwrap();
        assert!(t <= 2.0 && t > 2.0 - 1e-8, "{t}");
        // Hit exactly at max_t counts; far beyond it misses.
        assert!(RaySegment { max_t: 2.0, ..ray }.may_hit(&unit_box(4.0)));
        assert!(!RaySegment { max_t: 1.9, ..ray }.may_hit(&unit_box(4.0)));
        // Behind the origin.
        assert!(!ray.may_hit(&unit_box(-3.0)));
        // Starting inside: entry 0.
        assert_eq!(ray.enter(&unit_box(-0.5)), Some(0.0));
    }

    #[test]
    fn grazing_a_face_or_parallel_to_it_counts() {
        let ray = RaySegment {
            origin: PointD::new(0.0, 0.5, 0.0),
            dir: VectorD::new(1.0, 0.0, 0.0),
            max_t: 10.0,
        };
        assert!(ray.may_hit(&unit_box(4.0)));
        let above = RaySegment {
            origin: PointD::new(0.0, 0.5 + 1e-6, 0.0),
            ..ray
        };
        assert!(!above.may_hit(&unit_box(4.0)));
    }
}
