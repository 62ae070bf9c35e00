//! What the exact tests of one check found, gathered by each worker thread as it tests its pairs.
//!
//! Rationale: most pairs do not collide, so each worker keeps only the collisions, the sums of the
//! counters and its earliest failure, each tagged with the pair's index in the check's
//! broad-phase list; nothing per pair is written back for a serial pass. The merge does not
//! depend on the thread count: collisions are merged by pair index and then sorted by id pair,
//! counters are sums, and the failure reported is the one of the earliest pair.

use colldet_narrow::{NarrowError, PairOutcome, PairScratch, Witness};

use crate::interest::PairKey;
use crate::near_pairs::NearPair;
use crate::object_table::PlacedObjects;
use crate::proximity::ProximityScratch;
use crate::stats::CheckStats;

/// A collision found by a check, waiting for its callback.
#[derive(Clone, Copy)]
pub(crate) struct Found {
    /// The ids in order (their slots name the objects).
    pub key: PairKey,
    /// The pair has its own callback (else the general one is called).
    pub own_callback: bool,
    /// In id order.
    pub witness: Witness,
    /// The pair's index in the check's broad-phase pair list.
    pub pair_index: usize,
}

/// A failed pair test: the pair's index in the check's broad-phase pair list, the pair and the
/// error.
pub(crate) struct Failure {
    pub pair_index: usize,
    pub key: PairKey,
    pub source: NarrowError,
}

/// Scratch memory and results of the exact tests, used by one thread at a time (kept across
/// checks: warm vectors do not reallocate). Aligned so that two workers never share a cache line
/// (each writes its own counters and list per pair).
#[derive(Default)]
#[repr(align(128))]
pub(crate) struct Worker {
    pub narrow: PairScratch,
    /// The collisions among this worker's pairs, in test order: ascending pair index within each
    /// key range, the ranges in the order the worker ran them.
    pub found: Vec<Found>,
    /// The Chung-Wang counters of this worker's pairs (only the `sv_*` fields are used).
    pub stats: CheckStats,
    /// The failure of the earliest failed pair (lowest pair index) among this worker's.
    pub failure: Option<Failure>,
    /// Pairs this worker gave the exact test.
    pub tested: usize,
    /// Pairs this worker's bounding-box filter separated.
    pub box_filtered: usize,
    /// The key ranges this worker ran that found collisions: each one's part of `found`.
    pub segments: Vec<FoundSegment>,
    /// The separated pairs within their tolerance among this worker's (`near_pairs.rs`).
    pub near: Vec<NearPair>,
    /// Scratch memory of the tolerance queries.
    pub proximity: ProximityScratch,
}

/// The collisions one key range found: `found[start..end]` of the worker that ran it, the range
/// starting at pair index `first_pair` of the broad-phase list.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FoundSegment {
    pub first_pair: usize,
    pub start: usize,
    pub end: usize,
}

/// Workers, boxed on purpose: a key range of the narrow phase takes one and puts it back, moving
/// a pointer rather than the worker's scratch memory (several kilobytes).
#[allow(clippy::vec_box)]
pub(crate) type Workers = Vec<Box<Worker>>;

impl Worker {
    /// Forgets the last check's results and makes room for `room` collisions: the world passes
    /// the most any check found so far, so a warm world does not allocate however the pool
    /// spreads its pairs over the workers.
    pub fn clear(&mut self, room: usize) {
        self.found.clear();
        self.found.reserve(room);
        self.near.clear();
        self.segments.clear();
        self.tested = 0;
        self.box_filtered = 0;
        self.stats = CheckStats::default();
        self.failure = None;
    }

    /// Records the outcome of the test of pair number `pair_index` of the broad-phase list, the
    /// slots `(sa, sb)` in that order, `own_callback` whether the pair has its own callback.
    pub fn record(
        &mut self,
        pair_index: usize,
        (sa, sb): (u32, u32),
        outcome: Result<PairOutcome, NarrowError>,
        own_callback: bool,
        objects: &PlacedObjects,
    ) {
        let witness = match outcome {
            Ok(PairOutcome {
                witness,
                sv_iterations,
                ..
            }) => {
                if let Some(iterations) = sv_iterations {
                    self.stats.record_sv_query(iterations, witness.is_none());
                }
                match witness {
                    Some(witness) => Ok(witness),
                    None => return,
                }
            }
            Err(source) => Err(source),
        };
        let (Some(a), Some(b)) = (objects.id(sa), objects.id(sb)) else {
            return;
        };
        // The test ran in slot order; results are reported in id order.
        let in_id_order = a < b;
        let key = PairKey::new(a, b);
        match witness {
            Ok(witness) => {
                self.found.push(Found {
                    key,
                    own_callback,
                    witness: if in_id_order {
                        witness
                    } else {
                        witness.swapped()
                    },
                    pair_index,
                });
            }
            Err(source) => self.note_failure(pair_index, key, source),
        }
    }

    /// Keeps the failure of pair number `pair_index` if it is the earliest so far.
    pub fn note_failure(&mut self, pair_index: usize, key: PairKey, source: NarrowError) {
        if self
            .failure
            .as_ref()
            .is_none_or(|f| pair_index < f.pair_index)
        {
            self.failure = Some(Failure {
                pair_index,
                key,
                source,
            });
        }
    }
}

/// Appends the workers' collisions to `out` in pair order, as a serial check finds them: the key
/// ranges' segments ([`FoundSegment`], each in pair order, the ranges disjoint) are put in the
/// order of their first pairs (`segments` is scratch) and copied. Pair order is slot-pair order,
/// which is id order until slots are reused, so the report sort that follows finds the list
/// sorted whatever the thread count and however the pool spread the ranges.
pub(crate) fn merge_found(
    workers: &Workers,
    segments: &mut Vec<(FoundSegment, usize)>,
    out: &mut Vec<Found>,
) {
    if let [worker] = workers.as_slice() {
        out.extend_from_slice(&worker.found);
        return;
    }
    segments.clear();
    for (w, worker) in workers.iter().enumerate() {
        segments.extend(worker.segments.iter().map(|&s| (s, w)));
    }
    segments.sort_unstable_by_key(|(s, _)| s.first_pair);
    for &(s, w) in segments.iter() {
        out.extend_from_slice(&workers[w].found[s.start..s.end]);
    }
}
