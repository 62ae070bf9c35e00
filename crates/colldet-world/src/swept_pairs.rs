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
//!   are sparsest.
//!
//! Freshness: the continuous state tells the index of every slot whose recorded pose changes
//! (either kind of check records the poses of the moved objects) and of every slot forgotten
//! (added or removed objects): [`SweptPairs::invalidate`]. An object the tree holds was at rest
//! at the build and no other pose has been recorded for it since, so its box there is its box
//! now unless it changed in this check, which the caller says. The boxes are closed (touching
//! boxes overlap) and grown by the expel distance the tree was built with (a new distance
//! rebuilds it).

use colldet_broad::ProxyPair;
use colldet_geom::WorldAabb;

use crate::query_index::QueryIndex;

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
    /// another object whose boxes overlap. `changed` lists the changed objects (each once) with
    /// their swept boxes grown by `expel`; `is_changed` tells them by slot; `resting_box` gives
    /// the box (grown by `expel`) of a live object at rest, `None` for an empty slot or a changed
    /// object. `slot_count` bounds the slots.
    pub fn find(
        &mut self,
        changed: &[(u32, WorldAabb)],
        is_changed: impl Fn(u32) -> bool,
        mut resting_box: impl FnMut(u32) -> Option<WorldAabb>,
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
        for &(m, swept) in changed {
            tree.visit(
                |node| node.overlaps(&swept),
                stack,
                |s, _| {
                    if held[s as usize] && !is_changed(s) {
                        out.push(ProxyPair::new(m, s));
                    }
                },
            );
            for &(r, rest) in &self.resting {
                if rest.overlaps(&swept) {
                    out.push(ProxyPair::new(m, r));
                }
            }
        }
        sweep_among(changed, &mut self.order, out);
    }

    /// Builds the tree over every live object at rest; the changed objects become the loose
    /// ones.
    fn rebuild(
        &mut self,
        changed: &[(u32, WorldAabb)],
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
        for &(slot, _) in changed {
            self.is_loose[slot as usize] = true;
            self.loose.push(slot);
        }
        self.resting.clear();
        self.built_expel = Some(expel);
    }
}

/// Appends to `out` every pair of `boxes` that overlap: sorted by their minima along the axis
/// where the boxes are sparsest (least total extent per spread of their centres), each box is
/// tested against the following ones that start before it ends. `order` is scratch.
fn sweep_among(boxes: &[(u32, WorldAabb)], order: &mut Vec<(f64, u32)>, out: &mut Vec<ProxyPair>) {
    let mut extent = [0.0f64; 3];
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for (_, b) in boxes {
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
            .map(|(i, (_, b))| (b.mins[axis], i as u32)),
    );
    order.sort_unstable_by(|x, y| x.0.total_cmp(&y.0));
    for (i, &(_, a)) in order.iter().enumerate() {
        let (sa, ba) = &boxes[a as usize];
        let end = ba.maxs[axis];
        for &(start, b) in &order[i + 1..] {
            if start > end {
                break;
            }
            let (sb, bb) = &boxes[b as usize];
            if ba.overlaps(bb) {
                out.push(ProxyPair::new(*sa, *sb));
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
            let list: Vec<(u32, WorldAabb)> = (0..n)
                .filter(|&s| changed[s])
                .map(|s| (s as u32, boxes[s].expect("live")))
                .collect();
            let before = index.built_expel;
            let held_before = index.held_count;
            index.find(
                &list,
                |s| changed[s as usize],
                |s| boxes[s as usize].filter(|_| !changed[s as usize]),
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
            for &(s, _) in &list {
                index.invalidate(s);
            }
        }
        assert!(rebuilds > 1, "the tree was rebuilt {rebuilds} times");
    }
}
