//! The reference structure: tests every pair of boxes (O(n^2)); what `COL_BROADPHASE_NONE` runs.

use std::collections::BTreeMap;

use colldet_geom::WorldAabb;

use crate::broad_phase::{BroadPhase, BroadPhaseError, ProxyId, ProxyPair, check_box};

/// All pairs, tested directly. Deterministic and obviously correct; the oracle of the tests.
#[derive(Clone, Debug, Default)]
pub struct AllPairs {
    boxes: BTreeMap<ProxyId, WorldAabb>,
}

impl AllPairs {
    /// An empty structure.
    pub fn new() -> Self {
        Self::default()
    }
}

impl BroadPhase for AllPairs {
    fn insert(&mut self, id: ProxyId, aabb: &WorldAabb) -> Result<(), BroadPhaseError> {
        check_box(id, aabb)?;
        if self.boxes.contains_key(&id) {
            return Err(BroadPhaseError::AlreadyPresent(id));
        }
        self.boxes.insert(id, *aabb);
        Ok(())
    }

    fn update(&mut self, id: ProxyId, aabb: &WorldAabb) -> Result<(), BroadPhaseError> {
        check_box(id, aabb)?;
        let slot = self
            .boxes
            .get_mut(&id)
            .ok_or(BroadPhaseError::NotPresent(id))?;
        *slot = *aabb;
        Ok(())
    }

    fn remove(&mut self, id: ProxyId) -> Result<(), BroadPhaseError> {
        self.boxes
            .remove(&id)
            .map(|_| ())
            .ok_or(BroadPhaseError::NotPresent(id))
    }

    fn len(&self) -> usize {
        self.boxes.len()
    }

    fn query(
        &self,
        probe: &mut dyn FnMut(&WorldAabb) -> bool,
        out: &mut Vec<(ProxyId, WorldAabb)>,
    ) {
        out.extend(
            self.boxes
                .iter()
                .filter(|&(_, b)| probe(b))
                .map(|(&id, b)| (id, *b)),
        );
    }

    fn overlapping_pairs(&mut self, out: &mut Vec<ProxyPair>) {
        out.clear();
        let entries: Vec<(ProxyId, WorldAabb)> =
            self.boxes.iter().map(|(&id, b)| (id, *b)).collect();
        for (i, (a, box_a)) in entries.iter().enumerate() {
            for (b, box_b) in &entries[i + 1..] {
                if box_a.overlaps(box_b) {
                    out.push(ProxyPair(*a, *b));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::cube;
    use colldet_geom::math::PointD;

    #[test]
    fn touching_boxes_overlap_and_errors_leave_it_unchanged() {
        let mut all = AllPairs::new();
        all.insert(3, &cube(0.0, 1.0)).unwrap();
        all.insert(1, &cube(1.0, 1.0)).unwrap();
        all.insert(7, &cube(2.0, 1.0)).unwrap();
        let mut pairs = Vec::new();
        all.overlapping_pairs(&mut pairs);
        assert_eq!(pairs, vec![ProxyPair(1, 3), ProxyPair(1, 7)]);
        assert_eq!(
            all.insert(3, &cube(9.0, 1.0)),
            Err(BroadPhaseError::AlreadyPresent(3))
        );
        let nan = WorldAabb::new(PointD::new(f64::NAN, 0.0, 0.0), PointD::new(1.0, 1.0, 1.0));
        assert_eq!(all.update(3, &nan), Err(BroadPhaseError::InvalidBox(3)));
        assert_eq!(all.remove(4), Err(BroadPhaseError::NotPresent(4)));
        all.remove(1).unwrap();
        all.overlapping_pairs(&mut pairs);
        assert!(pairs.is_empty());
        assert_eq!(all.len(), 2);
    }
}
