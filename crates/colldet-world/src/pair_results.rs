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
    /// How many of `found` [`merge_found`] has taken.
    merged: usize,
    /// The separated pairs within their tolerance among this worker's (`near_pairs.rs`).
    pub near: Vec<NearPair>,
    /// Scratch memory of the tolerance queries.
    pub proximity: ProximityScratch,
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
        self.merged = 0;
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

/// Appends the workers' collisions to `out`, a `k`-way merge by pair index (`k` the number of
/// workers). Where each worker's list is in pair order (one thread, or a pool that did not need
/// to steal work out of order) the result is in pair order, as a serial check finds it; pair
/// order is slot-pair order, which is id order until slots are reused, so the report sort that
/// follows finds the list sorted (a plain concatenation of the workers' lists would cost a
/// full sort). Otherwise the order is merely close to
/// it: the report order comes from that sort, not from this merge.
pub(crate) fn merge_found(workers: &mut Workers, out: &mut Vec<Found>) {
    if let [worker] = workers.as_mut_slice() {
        out.extend_from_slice(&worker.found);
        return;
    }
    loop {
        let mut earliest: Option<(usize, usize)> = None;
        for (w, worker) in workers.iter().enumerate() {
            if let Some(found) = worker.found.get(worker.merged)
                && earliest.is_none_or(|(_, pair)| found.pair_index < pair)
            {
                earliest = Some((w, found.pair_index));
            }
        }
        let Some((w, _)) = earliest else {
            return;
        };
        let worker = &mut workers[w];
        out.push(worker.found[worker.merged]);
        worker.merged += 1;
    }
}
