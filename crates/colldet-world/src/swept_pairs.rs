//! [`SweptPairs`]: the continuous check's broad phase. It finds every pair of objects whose boxes
//! over the interval overlap and of which at least one object's pose changed, without rebuilding
//! a structure over every object each check:
//!
//! * the objects at rest (pose unchanged since the last check) sit in a bounding volume hierarchy
//!   ([`QueryIndex`], built with [`QueryIndex::rebuild_from`]) that is kept across checks: each
//!   changed object's swept box is queried against it;
//! * objects at rest that the tree does not hold (added, or moved, since it was built) are tested
//!   against each changed object's box directly, and the tree is rebuilt once there are more of
//!   them than [`REBUILD_MIN`] plus `1 / REBUILD_SHARE` of the tree;
//! * the changed objects among themselves: one sort and sweep along the axis where their boxes
//!   are sparsest (skipped when the caller knows that none of them may pair: their collision
//!   groups exclude each other).
//!
//! A changed object that comes with its [`BallPath`] (the ball about its origin that holds it,
//! moving along its origin's segment) is paired with an object at rest only when that path may
//! meet the other's box: the box of a fast object's path is long and diagonal, most boxes it
//! overlaps are far from the path itself (tested at the tree's leaves: at its nodes the box test
//! prunes about as well for less). The world tests the path against the other's box in its own
//! frame ([`BallPath::may_meet_oriented`]): a thin wall turned in the world has a world box far
//! larger than itself.
//!
//! Freshness: the continuous state tells the index of every slot whose recorded pose changes
//! (either kind of check records the poses of the moved objects) and of every slot forgotten
//! (added or removed objects): [`SweptPairs::invalidate`]. An object the tree holds was at rest
//! at the build and no other pose has been recorded for it since, so its box there is its box
//! now unless it changed in this check, which the caller says. The boxes are closed (touching
//! boxes overlap) and grown by the expel distance the tree was built with (a new distance
//! rebuilds it).

use colldet_broad::{ProxyPair, RAY_BOX_MARGIN, RaySegment};
use colldet_geom::math::{MatrixD, PointD, VectorD};
use colldet_geom::{Aabb, WorldAabb};

use crate::query_index::QueryIndex;

/// Relative slack of a [`BallPath`]'s radius, times the length of the path (on top of the ball's
/// own radius bound and the probe's margin): covers the rounding with which the pair sweeps see
/// the motion (a few units of roundoff of the coordinates and the motion), with a wide margin.
const BALL_PATH_SLACK: f64 = 1e-12;

/// The path of the ball (world frame) that holds a changed object over the interval: its origin
/// moves along a segment (motion (d): the position is linear in the fraction, the orientation
/// turns about the origin), the ball's radius bounds the object's vertices about its origin.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BallPath {
    segment: RaySegment,
    radius: f64,
}

impl BallPath {
    /// The ball of radius `radius` (a bound on the object's vertices about its origin, world
    /// units, rounding included) whose centre moves from `from` to `to`; `None` when the centre
    /// does not move (the swept box is then as tight).
    pub fn new(from: &VectorD, to: &VectorD, radius: f64) -> Option<Self> {
        let d = to - from;
        (d != VectorD::zeros()).then(|| Self {
            segment: RaySegment::new(PointD::from(*from), d, 1.0),
            radius: radius + BALL_PATH_SLACK * d.amax(),
        })
    }

    /// False when the ball certainly never meets `b` during the interval: the centre's segment
    /// misses `b` grown by the radius (and the probe's margin, [`RaySegment::enter`]). Monotone.
    /// (The world tests the oriented box instead, [`BallPath::may_meet_oriented`].)
    #[cfg(test)]
    pub fn may_meet(&self, b: &WorldAabb) -> bool {
        self.segment
            .may_hit(&crate::continuous::grown(b, self.radius))
    }

    /// False when the ball certainly never meets the box `local` (an object's frame, grown by
    /// `rounding` on every side) of an object at rest whose pose maps a local point `x` to
    /// `rot x + trans` (world frame): the centre's segment, mapped into that frame, misses the box
    /// grown by the ball's radius and a slack of [`RAY_BOX_MARGIN`] times the coordinates' scale
    /// (the segment's, the radius, the box's). The slack is far above the rounding of the mapping
    /// (a rotation orthonormal to a few units of roundoff) and of the slab quotients: a segment
    /// that meets the grown box reaches depth `slack` in it, so its slab intervals overlap by
    /// `slack / |motion_k|`. Monotone.
    #[inline]
    pub fn may_meet_oriented(
        &self,
        local: &Aabb,
        rounding: f64,
        rot: &MatrixD,
        trans: &VectorD,
    ) -> bool {
        let p = self.segment.origin().coords - trans;
        let d = self.segment.dir();
        let (start, motion) = (rot.tr_mul(&p), rot.tr_mul(d));
        let (mins, maxs) = (
            local.mins.coords.map(f64::from),
            local.maxs.coords.map(f64::from),
        );
        let scale = p.amax() + d.amax() + self.radius + mins.amax().max(maxs.amax());
        let grow = self.radius + rounding + RAY_BOX_MARGIN * scale;
        let (mut enter, mut exit) = (0.0f64, 1.0f64);
        for k in 0..3 {
            let (lo, hi) = (mins[k] - grow, maxs[k] + grow);
            let (s, v) = (start[k], motion[k]);
            if v == 0.0 {
                if s < lo || s > hi {
                    return false;
                }
                continue;
            }
            let (s0, s1) = ((lo - s) / v, (hi - s) / v);
            let (near, far) = if v > 0.0 { (s0, s1) } else { (s1, s0) };
            enter = enter.max(near);
            exit = exit.min(far);
            if enter > exit {
                return false;
            }
        }
        true
    }
}

/// A changed object of [`SweptPairs::find`]: its slot, its box over the interval, and the path of
/// its ball when it moved.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ChangedObject {
    pub slot: u32,
    pub swept: WorldAabb,
    pub path: Option<BallPath>,
}

/// Objects at rest outside the tree tolerated before a rebuild, on top of
/// `1 / REBUILD_SHARE` of the tree's size.
const REBUILD_MIN: usize = 16;
/// See [`REBUILD_MIN`].
const REBUILD_SHARE: usize = 8;

/// The continuous check's pair finder and its index of objects at rest (module docs).
#[derive(Default)]
pub(crate) struct SweptPairs {
    tree: QueryIndex,
    /// Per slot: the tree holds the slot's object with its current box.
    held: Vec<bool>,
    held_count: usize,
    /// Slots the tree does not hold, each once (their objects may have been removed).
    loose: Vec<u32>,
    is_loose: Vec<bool>,
    /// The expel distance of the tree's boxes (`None`: never built).
    built_expel: Option<f64>,
    stack: Vec<(u32, f64)>,
    /// This check's objects at rest that the tree does not hold, with their boxes.
    resting: Vec<(u32, WorldAabb)>,
    /// The changed objects' box minima along the sweep axis, with their index in the input.
    order: Vec<(f64, u32)>,
}

impl SweptPairs {
    /// The tree no longer holds `slot`'s object: a new pose was recorded for it, or the slot was
    /// forgotten (its object added or removed).
    pub fn invalidate(&mut self, slot: u32) {
        let s = slot as usize;
        if self.held.get(s).copied().unwrap_or(false) {
            self.held[s] = false;
            self.held_count -= 1;
        }
        if self.is_loose.len() <= s {
            self.is_loose.resize(s + 1, false);
        }
        if !self.is_loose[s] {
            self.is_loose[s] = true;
            self.loose.push(slot);
        }
    }

    /// Replaces `out` with the pairs (in no particular order, each once) of a changed object and
    /// another object whose boxes overlap (and, for an object at rest, which the changed object's
    /// ball path may meet). `changed` lists the changed objects (each once) with their swept boxes
    /// and ball paths grown by `expel`; `is_changed` tells them by slot; `resting_box` gives
    /// the box (grown by `expel`) of a live object at rest, `None` for an empty slot or a changed
    /// object; `path_meets(path, slot, world_box)` is false when a changed object's ball path
    /// certainly misses the object at rest in `slot` (whose world box is `world_box`): the
    /// world tests the path against the object's box in its own frame
    /// ([`BallPath::may_meet_oriented`]), which a turned thin object's world box holds loosely;
    /// [`BallPath::may_meet`] is the test on the world box. Asked once the swept box overlaps the
    /// world box. `among` false says that no two changed objects may pair (their pairs are not
    /// looked for). `slot_count` bounds the slots.
    #[allow(clippy::too_many_arguments)]
    pub fn find(
        &mut self,
        changed: &[ChangedObject],
        among: bool,
        is_changed: impl Fn(u32) -> bool,
        mut resting_box: impl FnMut(u32) -> Option<WorldAabb>,
        path_meets: impl Fn(&BallPath, u32, &WorldAabb) -> bool,
        expel: f64,
        slot_count: u32,
        out: &mut Vec<ProxyPair>,
    ) {
        out.clear();
        if changed.is_empty() {
            return;
        }
        self.resting.clear();
        for &slot in &self.loose {
            if let Some(b) = resting_box(slot) {
                self.resting.push((slot, b));
            }
        }
        if self.built_expel != Some(expel)
            || self.resting.len() > REBUILD_MIN + self.held_count / REBUILD_SHARE
        {
            self.rebuild(changed, &mut resting_box, expel, slot_count);
        }
        let (held, tree, stack) = (&self.held, &self.tree, &mut self.stack);
        for c in changed {
            let m = c.slot;
            // The ball path is tested at the leaves only: at the nodes the box test prunes as
            // well for less.
            tree.visit(
                |node| node.overlaps(&c.swept),
                stack,
                |s, leaf| {
                    if held[s as usize]
                        && !is_changed(s)
                        && c.path.is_none_or(|p| path_meets(&p, s, leaf))
                    {
                        out.push(ProxyPair::new(m, s));
                    }
                },
            );
            for &(r, rest) in &self.resting {
                if rest.overlaps(&c.swept) && c.path.is_none_or(|p| path_meets(&p, r, &rest)) {
                    out.push(ProxyPair::new(m, r));
                }
            }
        }
        if among {
            sweep_among(changed, &mut self.order, out);
        }
    }

    /// Builds the tree over every live object at rest; the changed objects become the loose
    /// ones.
    fn rebuild(
        &mut self,
        changed: &[ChangedObject],
        resting_box: &mut impl FnMut(u32) -> Option<WorldAabb>,
        expel: f64,
        slot_count: u32,
    ) {
        let n = slot_count as usize;
        self.held.clear();
        self.held.resize(n, false);
        self.is_loose.clear();
        self.is_loose.resize(n, false);
        self.loose.clear();
        let held = &mut self.held;
        let mut count = 0;
        self.tree.rebuild_from(
            (0..slot_count).filter_map(|slot| {
                let b = resting_box(slot)?;
                held[slot as usize] = true;
                count += 1;
                Some((slot, b))
            }),
            slot_count,
        );
        self.held_count = count;
        for c in changed {
            self.is_loose[c.slot as usize] = true;
            self.loose.push(c.slot);
        }
        self.resting.clear();
        self.built_expel = Some(expel);
    }
}

/// Appends to `out` every pair of `boxes` that overlap: sorted by their minima along the axis
/// where the boxes are sparsest (least total extent per spread of their centres), each box is
/// tested against the following ones that start before it ends. `order` is scratch.
fn sweep_among(boxes: &[ChangedObject], order: &mut Vec<(f64, u32)>, out: &mut Vec<ProxyPair>) {
    let mut extent = [0.0f64; 3];
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for ChangedObject { swept: b, .. } in boxes {
        for k in 0..3 {
            extent[k] += b.maxs[k] - b.mins[k];
            let c = b.mins[k] + b.maxs[k];
            lo[k] = lo[k].min(c);
            hi[k] = hi[k].max(c);
        }
    }
    // Density along an axis: total extent over the spread of the (doubled) centres.
    let density = |k: usize| extent[k] / (hi[k] - lo[k]).max(f64::MIN_POSITIVE);
    let axis = (1..3).fold(0, |a, k| if density(k) < density(a) { k } else { a });
    order.clear();
    order.extend(
        boxes
            .iter()
            .enumerate()
            .map(|(i, c)| (c.swept.mins[axis], i as u32)),
    );
    order.sort_unstable_by(|x, y| x.0.total_cmp(&y.0));
    for (i, &(_, a)) in order.iter().enumerate() {
        let ca = &boxes[a as usize];
        let end = ca.swept.maxs[axis];
        for &(start, b) in &order[i + 1..] {
            if start > end {
                break;
            }
            let cb = &boxes[b as usize];
            if ca.swept.overlaps(&cb.swept) {
                out.push(ProxyPair::new(ca.slot, cb.slot));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use colldet_geom::math::PointD;

    use super::*;

    /// A seeded linear congruential generator of numbers in `[0, 1)`.
    struct Lcg(u64);

    impl Lcg {
        fn next(&mut self) -> f64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (self.0 >> 11) as f64 / (1u64 << 53) as f64
        }

        /// A box in `[0, 10]^3` with sides up to 3.
        fn aabb(&mut self) -> WorldAabb {
            let lo = PointD::new(self.next() * 10.0, self.next() * 10.0, self.next() * 10.0);
            let size = [self.next() * 3.0, self.next() * 3.0, self.next() * 3.0];
            WorldAabb::new(
                lo,
                PointD::new(lo.x + size[0], lo.y + size[1], lo.z + size[2]),
            )
        }
    }

    /// Brute force: every overlapping pair with a changed object.
    fn brute(boxes: &[Option<WorldAabb>], changed: &[bool]) -> Vec<ProxyPair> {
        let mut pairs = Vec::new();
        for a in 0..boxes.len() {
            for b in a + 1..boxes.len() {
                if let (Some(x), Some(y)) = (boxes[a], boxes[b])
                    && (changed[a] || changed[b])
                    && x.overlaps(&y)
                {
                    pairs.push(ProxyPair::new(a as u32, b as u32));
                }
            }
        }
        pairs
    }

    /// Over many checks in which objects move, stop, start, appear and disappear (with the
    /// invalidations the continuous state would make), the pairs equal brute force.
    #[test]
    fn matches_brute_force_over_changing_checks() {
        let mut rng = Lcg(7);
        let n = 300usize;
        let mut boxes: Vec<Option<WorldAabb>> = (0..n).map(|_| Some(rng.aabb())).collect();
        let mut index = SweptPairs::default();
        for s in 0..n as u32 {
            index.invalidate(s);
        }
        let mut out = Vec::new();
        let mut rebuilds = 0;
        for check in 0..40u64 {
            // Per check: a varying share of the objects moves, a few vanish or appear.
            let share = [0.002, 0.01, 0.05, 0.5][(check % 4) as usize];
            let mut changed = vec![false; n];
            for s in 0..n {
                let r = rng.next();
                if r < 0.003 {
                    boxes[s] = if boxes[s].is_some() {
                        None
                    } else {
                        Some(rng.aabb())
                    };
                    index.invalidate(s as u32);
                    changed[s] = boxes[s].is_some();
                } else if boxes[s].is_some() && r < 0.003 + share {
                    boxes[s] = Some(rng.aabb());
                    changed[s] = true;
                }
            }
            let list: Vec<ChangedObject> = (0..n)
                .filter(|&s| changed[s])
                .map(|s| ChangedObject {
                    slot: s as u32,
                    swept: boxes[s].expect("live"),
                    path: None,
                })
                .collect();
            let before = index.built_expel;
            let held_before = index.held_count;
            index.find(
                &list,
                true,
                |s| changed[s as usize],
                |s| boxes[s as usize].filter(|_| !changed[s as usize]),
                |p, _, b| p.may_meet(b),
                0.0,
                n as u32,
                &mut out,
            );
            if before.is_none() || index.held_count != held_before {
                rebuilds += 1;
            }
            out.sort_unstable();
            assert_eq!(out, brute(&boxes, &changed), "check {check}");
            // The continuous state records the changed objects' new poses after the check.
            for c in &list {
                index.invalidate(c.slot);
            }
        }
        assert!(rebuilds > 1, "the tree was rebuilt {rebuilds} times");
    }

    /// Distance from the segment `p + t d` (`t` in `[0, 1]`) to the box `b`, Euclidean or in the
    /// max norm (`max_norm`): the distance from a point to a box is convex along a line, so a
    /// ternary search finds its minimum.
    fn segment_box_distance(p: &VectorD, d: &VectorD, b: &WorldAabb, max_norm: bool) -> f64 {
        let at = |t: f64| {
            let x = p + d * t;
            let gap = (0..3).map(|k| (b.mins[k] - x[k]).max(x[k] - b.maxs[k]).max(0.0));
            if max_norm {
                gap.fold(0.0, f64::max)
            } else {
                gap.map(|g| g * g).sum::<f64>().sqrt()
            }
        };
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        for _ in 0..200 {
            let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
            if at(m1) <= at(m2) {
                hi = m2;
            } else {
                lo = m1;
            }
        }
        at(lo).min(at(0.0)).min(at(1.0))
    }

    /// A ball moving along a segment is paired with a box at rest when the segment comes within
    /// the ball's radius of the box (grazing ones included), and not when it stays further than
    /// that in the max norm (the segment misses the box grown by the radius on every side, the
    /// probe's test) by more than a millionth of the radius, though their boxes overlap.
    #[test]
    fn ball_paths_pair_exactly_the_boxes_they_reach() {
        let mut rng = Lcg(11);
        let resting: Vec<WorldAabb> = (0..200).map(|_| rng.aabb()).collect();
        let mut index = SweptPairs::default();
        let mut out = Vec::new();
        let (mut reached, mut skipped) = (0, 0);
        for check in 0..30 {
            let movers = 20usize;
            let slot_count = (resting.len() + movers) as u32;
            let (mut list, mut radii) = (Vec::new(), Vec::new());
            for m in 0..movers {
                let mut p = VectorD::new(rng.next() * 10.0, rng.next() * 10.0, rng.next() * 10.0);
                let mut d =
                    VectorD::new(rng.next() - 0.5, rng.next() - 0.5, rng.next() - 0.5) * 12.0;
                let mut r = 0.05 + rng.next() * 0.3;
                // Every fourth path grazes a box: it slides along the face `x = max x` at exactly
                // its radius from it.
                if m % 4 == 0 {
                    let b = &resting[(check * movers + m) % resting.len()];
                    let height = b.maxs.y - b.mins.y;
                    p = VectorD::new(b.maxs.x + 0.25, b.mins.y + 0.5 * height, b.maxs.z);
                    d = VectorD::new(0.0, 0.4 * height, 0.0);
                    r = p.x - b.maxs.x;
                }
                let q = p + d;
                let swept = WorldAabb::new(
                    PointD::from(p.inf(&q).add_scalar(-r)),
                    PointD::from(p.sup(&q).add_scalar(r)),
                );
                list.push(ChangedObject {
                    slot: (resting.len() + m) as u32,
                    swept,
                    path: BallPath::new(&p, &q, r),
                });
                radii.push(r);
            }
            let is_changed = |s: u32| s as usize >= resting.len();
            index.find(
                &list,
                true,
                is_changed,
                |s| resting.get(s as usize).copied(),
                |p, _, b| p.may_meet(b),
                0.0,
                slot_count,
                &mut out,
            );
            for (c, &r) in list.iter().zip(&radii) {
                let path = c.path.expect("moving");
                let (p, d) = (path.segment.origin().coords, *path.segment.dir());
                // The path's radius holds a slack on top of the ball's (`BALL_PATH_SLACK`).
                assert!(path.radius >= r && path.radius <= r * (1.0 + 1e-9));
                for (s, b) in resting.iter().enumerate() {
                    let paired = out.contains(&ProxyPair::new(c.slot, s as u32));
                    let distance = segment_box_distance(&p, &d, b, false);
                    let reach = segment_box_distance(&p, &d, b, true);
                    if distance <= r {
                        assert!(paired, "check {check}: {} at {distance} of {s}", c.slot);
                        reached += 1;
                    } else if reach > r * (1.0 + 1e-6) {
                        assert!(!paired, "check {check}: {} at {reach} of {s}", c.slot);
                        skipped += usize::from(b.overlaps(&c.swept));
                    }
                }
            }
            for c in &list {
                index.invalidate(c.slot);
            }
        }
        assert!(reached > 100 && skipped > 100, "{reached} {skipped}");
    }

    /// A ball moving along a segment against a box turned in the world: the path counts as
    /// meeting the box when the segment comes within the ball's radius of it (grazing included,
    /// Euclidean distance in the box's frame), and not when it stays further than that in the
    /// max norm by more than a millionth of the radius.
    #[test]
    fn oriented_ball_paths_meet_exactly_the_turned_boxes_they_reach() {
        let mut rng = Lcg(23);
        let (mut reached, mut skipped) = (0, 0);
        for case in 0..4000 {
            // A random rotation (unit quaternion) and translation; a thin or chunky local box.
            let q = nalgebra::UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(
                rng.next() - 0.5,
                rng.next() - 0.5,
                rng.next() - 0.5,
                rng.next() - 0.5,
            ));
            let rot = *q.to_rotation_matrix().matrix();
            let trans = VectorD::new(rng.next() * 10.0, rng.next() * 10.0, rng.next() * 10.0);
            let half = [rng.next() * 1.5, rng.next() * 1.5, 0.01 + rng.next() * 0.3];
            let local = Aabb::new(
                colldet_geom::math::Point::new(-half[0] as f32, -half[1] as f32, -half[2] as f32),
                colldet_geom::math::Point::new(half[0] as f32, half[1] as f32, half[2] as f32),
            );
            let r = 0.02 + rng.next() * 0.2;
            // The segment in the box's frame: random, or grazing the face z = max at distance r.
            let (ls, ld) = if case % 4 == 0 {
                let z = f64::from(local.maxs.z) + r;
                (
                    VectorD::new(-3.0, 0.5 * f64::from(local.maxs.y), z),
                    VectorD::new(6.0, 0.0, 0.0),
                )
            } else {
                (
                    VectorD::new(rng.next() - 0.5, rng.next() - 0.5, rng.next() - 0.5) * 6.0,
                    VectorD::new(rng.next() - 0.5, rng.next() - 0.5, rng.next() - 0.5) * 8.0,
                )
            };
            let (p, d) = (rot * ls + trans, rot * ld);
            let path = BallPath::new(&p, &(p + d), r).expect("moving");
            let met = path.may_meet_oriented(&local, 0.0, &rot, &trans);
            let b = WorldAabb::new(
                PointD::from(local.mins.coords.map(f64::from)),
                PointD::from(local.maxs.coords.map(f64::from)),
            );
            let distance = segment_box_distance(&ls, &ld, &b, false);
            let reach = segment_box_distance(&ls, &ld, &b, true);
            if distance <= r * (1.0 + 1e-12) {
                assert!(met, "case {case}: at {distance} of radius {r}");
                reached += 1;
            } else if reach > r * (1.0 + 1e-6) {
                assert!(!met, "case {case}: at {reach} of radius {r}");
                skipped += 1;
            }
        }
        assert!(reached > 100 && skipped > 1000, "{reached} {skipped}");
    }
}
