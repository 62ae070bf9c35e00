//! Figures of one check, for runners and benchmarks (cheap counters, always on).
//!
//! The separating-vector counters describe the Chung-Wang queries of the check (pairs of convex
//! objects under `Method::Auto`, every pair under `Convex`/`SeparatingVector`): the paper's claim
//! is that a non-colliding pair is usually decided in very few iterations once the cached vector
//! is warm, and these counters measure it. Other methods leave them at zero.

/// Bins of [`CheckStats::sv_separated_histogram`]: bin `i < SV_HISTOGRAM_BINS - 1` counts
/// separated queries that took exactly `i` iterations, the last bin those that took more.
pub const SV_HISTOGRAM_BINS: usize = 8;

/// What the last [`super::World::check`] did and how long it took.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CheckStats {
    /// Wall time of the broad phase (box updates and pair search), milliseconds.
    pub broad_ms: f64,
    /// Wall time of the exact tests, milliseconds.
    pub narrow_ms: f64,
    /// Pairs whose boxes overlap.
    pub overlapping_pairs: usize,
    /// Pairs given to the exact test (at least one moved, interested, not box-filtered).
    pub tested_pairs: usize,
    /// Pairs (at least one moved, interested, given the separating-vector test) that the world's
    /// bounding-box filter found separated, so no exact test ran: the Chung-Wang query's
    /// bounding-box pre-test, run before the exact test (see `World::check`).
    pub box_filtered_pairs: usize,
    /// Pairs found colliding.
    pub colliding_pairs: usize,
    /// Chung-Wang separating-vector queries that returned an answer.
    pub sv_queries: usize,
    /// Of those, the ones answered "separated" (not colliding).
    pub sv_separated: usize,
    /// Separated queries by iteration count (the paper's `k`, see
    /// `colldet_narrow::ChungWangResult::iterations`); sums to [`CheckStats::sv_separated`].
    pub sv_separated_histogram: [usize; SV_HISTOGRAM_BINS],
    /// Largest iteration count of any Chung-Wang query of the check (separated or not).
    pub sv_max_iterations: u32,
    /// Pair tests the time-to-collision schedule saved: pairs with a moved object, admitted by
    /// groups and interest, that a certificate of separation kept from the narrow pass
    /// (`World::set_velocity_bound`; 0 without the schedule).
    pub ttc_skipped_pairs: usize,
    /// Distance lower bounds the schedule took for its certificates.
    pub ttc_distances: usize,
    /// Scheduled objects whose move since the last check broke their velocity bound (counted
    /// only: the schedule's skips are certified by the actual motion).
    pub ttc_bound_violations: usize,
}

impl CheckStats {
    /// Separated queries decided in at most 3 iterations (the first four histogram bins).
    pub fn sv_separated_within_3(&self) -> usize {
        self.sv_separated_histogram[..4].iter().sum()
    }

    /// Adds the Chung-Wang counters of `other` (the `sv_*` fields) to these.
    pub(crate) fn add_sv_counters(&mut self, other: &Self) {
        self.sv_queries += other.sv_queries;
        self.sv_separated += other.sv_separated;
        for (bin, n) in self
            .sv_separated_histogram
            .iter_mut()
            .zip(other.sv_separated_histogram)
        {
            *bin += n;
        }
        self.sv_max_iterations = self.sv_max_iterations.max(other.sv_max_iterations);
    }

    /// Counts one Chung-Wang query that took `iterations` and was (or was not) separated.
    pub(crate) fn record_sv_query(&mut self, iterations: u32, separated: bool) {
        self.sv_queries += 1;
        self.sv_max_iterations = self.sv_max_iterations.max(iterations);
        if separated {
            self.sv_separated += 1;
            let bin = (iterations as usize).min(SV_HISTOGRAM_BINS - 1);
            self.sv_separated_histogram[bin] += 1;
        }
    }
}
