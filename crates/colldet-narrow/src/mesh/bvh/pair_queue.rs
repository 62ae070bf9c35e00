//! The pending node pairs of a best-first mesh distance traversal, smallest lower bound first.
//!
//! Rationale. A binary heap of single `u64` keys: the bound's upper 32 bits (its sign, exponent
//! and 20 bits of mantissa, rounded down, so a key never exceeds its bound and non-negative
//! bounds order as their bits do) above the pair's slot in an append-only list holding the pair
//! and its exact bound. One integer comparison per heap step instead of a tuple's three, and
//! 8-byte moves; pairs whose bounds agree to 6 digits leave in the order they came. The list
//! grows by one entry per push during a query (16 bytes) and is cleared with the heap.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Node pairs `(node of tree 1, node of tree 2, lower bound)` waiting in a best-first traversal.
#[derive(Clone, Debug, Default)]
pub(super) struct PairQueue {
    /// Keys: [`key`] of the bound above the slot in `pairs`.
    heap: BinaryHeap<Reverse<u64>>,
    /// Every pair pushed since the last [`PairQueue::clear`], by slot.
    pairs: Vec<(u32, u32, f64)>,
}

/// The heap key of a non-negative bound: its upper 32 bits (rounded down).
#[inline]
pub(super) fn key(bound: f64) -> u64 {
    (bound + 0.0).to_bits() >> 32
}

impl PairQueue {
    /// Forgets every pair (keeps the memory).
    pub(super) fn clear(&mut self) {
        self.heap.clear();
        self.pairs.clear();
    }

    /// Queues the pair `(a, b)` with its non-negative lower bound `bound`.
    #[inline]
    pub(super) fn push(&mut self, a: u32, b: u32, bound: f64) {
        // A query would need 2^32 pushes (64 GiB of pairs) to overflow the slot.
        let slot = self.pairs.len() as u64;
        self.pairs.push((a, b, bound));
        self.heap.push(Reverse(key(bound) << 32 | slot));
    }

    /// Takes the pair with the smallest key.
    #[inline]
    pub(super) fn pop(&mut self) -> Option<(u32, u32, f64)> {
        self.heap
            .pop()
            .map(|Reverse(k)| self.pairs[(k & u64::from(u32::MAX)) as usize])
    }

    /// The smallest pending key, if any pair is pending.
    #[inline]
    pub(super) fn smallest_key(&self) -> Option<u64> {
        self.heap.peek().map(|Reverse(k)| k >> 32)
    }
}
