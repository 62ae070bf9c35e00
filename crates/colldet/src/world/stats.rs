//! Figures of one check, for runners and benchmarks (cheap counters, always on).

/// What the last [`super::World::check`] did and how long it took.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CheckStats {
    /// Wall time of the broad phase (box updates and pair search), milliseconds.
    pub broad_ms: f64,
    /// Wall time of the exact tests, milliseconds.
    pub narrow_ms: f64,
    /// Pairs whose boxes overlap.
    pub overlapping_pairs: usize,
    /// Pairs given to the exact test (at least one moved, interested).
    pub tested_pairs: usize,
    /// Pairs found colliding.
    pub colliding_pairs: usize,
}
