//! The time-stamped table of supporting-vertex pairs visited during one query (Lemmas 3 and 4).
//!
//! Rationale: the paper keeps an `n x m` array of counters and a time stamp bumped per query, so
//! "visited in this query" is `counter == stamp` and nothing is cleared between queries. An `n x m`
//! array is a megabyte per pair of 1000-vertex polytopes; a query visits at most its iteration cap
//! of pairs, so a small open-addressing hash table keyed by the pair, with the same per-slot stamp,
//! does the job in constant memory. A slot is empty for the current query when its stamp differs
//! from the current stamp; when the stamp would wrap, all slots are cleared once. The table holds
//! at least twice the largest iteration cap, so it is never more than half full and every probe
//! sequence ends at an empty slot.

use super::MAX_ITERATION_CAP;
use crate::NarrowError;

/// Number of slots: a power of two at least `2 * MAX_ITERATION_CAP`.
const SLOTS: usize = (2 * MAX_ITERATION_CAP as usize).next_power_of_two();

/// Pairs `(vertex of shape 1, vertex of shape 2)` seen in the current query.
#[derive(Clone, Debug)]
pub(crate) struct VisitedPairs {
    keys: Vec<u64>,
    stamps: Vec<u32>,
    stamp: u32,
    len: usize,
}

impl Default for VisitedPairs {
    fn default() -> Self {
        Self {
            keys: vec![0; SLOTS],
            stamps: vec![0; SLOTS],
            stamp: 0,
            len: 0,
        }
    }
}

impl VisitedPairs {
    /// Starts a new query: every pair becomes unvisited in `O(1)` (amortised).
    pub(crate) fn begin_query(&mut self) {
        if self.stamp == u32::MAX {
            self.stamps.fill(0);
            self.stamp = 0;
        }
        self.stamp += 1;
        self.len = 0;
    }

    /// Marks the pair visited; true when it already was in this query.
    #[inline]
    pub(crate) fn visit(&mut self, a: u32, b: u32) -> bool {
        let key = (u64::from(a) << 32) | u64::from(b);
        let mask = SLOTS - 1;
        let mut slot = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize & mask;
        loop {
            if self.stamps[slot] != self.stamp {
                if self.len >= SLOTS / 2 {
                    // Unreachable with the iteration cap; refusing to fill keeps probes finite.
                    return false;
                }
                self.stamps[slot] = self.stamp;
                self.keys[slot] = key;
                self.len += 1;
                return false;
            }
            if self.keys[slot] == key {
                return true;
            }
            slot = (slot + 1) & mask;
        }
    }

    /// Number of pairs visited in the current query.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Checks the table: slot arrays of the fixed power-of-two size, no slot stamped in the future,
    /// and as many slots stamped now as pairs recorded.
    pub(crate) fn validate(&self) -> Result<(), NarrowError> {
        let broken = |what| Err(NarrowError::BrokenInvariant { what, index: 0 });
        if self.keys.len() != SLOTS || self.stamps.len() != SLOTS {
            return broken("visited-pair table has the wrong size");
        }
        if let Some(i) = self.stamps.iter().position(|&s| s > self.stamp) {
            return Err(NarrowError::BrokenInvariant {
                what: "visited-pair slot stamped after the current query",
                index: i,
            });
        }
        let current = self.stamps.iter().filter(|&&s| s == self.stamp).count();
        if self.stamp > 0 && current != self.len {
            return broken("visited-pair count differs from the stamped slots");
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_are_remembered_within_a_query_and_forgotten_after() {
        let mut t = VisitedPairs::default();
        t.begin_query();
        assert!(!t.visit(3, 7));
        assert!(!t.visit(7, 3));
        assert!(t.visit(3, 7));
        assert!(t.visit(7, 3));
        assert_eq!(t.len(), 2);
        t.validate().unwrap();
        t.begin_query();
        assert!(!t.visit(3, 7));
        assert_eq!(t.len(), 1);
        t.validate().unwrap();
    }

    #[test]
    fn many_pairs_and_stamp_wrap_around() {
        let mut t = VisitedPairs::default();
        t.begin_query();
        let n = MAX_ITERATION_CAP;
        for i in 0..n {
            assert!(!t.visit(i, i.wrapping_mul(31)));
        }
        for i in 0..n {
            assert!(t.visit(i, i.wrapping_mul(31)));
        }
        assert_eq!(t.len(), n as usize);
        t.validate().unwrap();
        t.stamp = u32::MAX - 1;
        t.begin_query();
        assert!(!t.visit(1, 2));
        t.begin_query();
        assert_eq!(t.stamp, 1);
        assert!(!t.visit(1, 2));
        assert!(t.visit(1, 2));
        t.validate().unwrap();
    }
}
