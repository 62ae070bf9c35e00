//! [`PairCache`]: everything the convex algorithms carry from one query of a pair to the next.
//!
//! Rationale: each incremental convex test reuses a witness from the pair's previous query (GJK
//! its last direction and simplex, the perceptron its last plane, Chung-Wang its separating
//! vector and two supporting vertices, the closest-feature walk its feature pair). Those
//! witnesses belong to the *pair*, so they live in one value per pair owned by the caller (later
//! a cell of the world's collision interest matrix, as in the thesis's section 6.7), passed to
//! the queries as `&mut`, never in globals: several worlds and threads stay independent.
//!
//! # Adding a cache
//! The struct is declared through the `pair_cache!` list below, one line per member:
//! `#[doc = "..."] name: Type,`. `reset()` and `validate()` are generated from that list, so adding
//! a member is that one line. The member type must provide `Default`, `Clone`, `Debug`, an
//! inherent `reset(&mut self)` that forgets the witness (keeping allocations), and an inherent
//! `validate(&self) -> Result<(), NarrowError>`. The Chung-Wang cache (branch `chungwang`) and the
//! closest-feature pair (branch `features`) are meant to join as `chung_wang` and `features`.

use crate::NarrowError;
use crate::chung_wang::ChungWangCache;
use crate::closest_features::FeaturePairCache;
use crate::gjk::GjkCache;
use crate::thesis::SeparatingPlaneCache;

/// Declares [`PairCache`] and its generated `reset`/`validate` from a list of members.
macro_rules! pair_cache {
    ($($(#[$attr:meta])* $field:ident : $ty:ty),* $(,)?) => {
        /// The per-pair witnesses of the convex algorithms, owned by the caller (one per pair of
        /// interest) and passed to each query as `&mut` (e.g. `&mut cache.gjk`). Witnesses are
        /// in the frame conventions of their algorithm (shape 1's frame for a pair `(1, 2)`), so a
        /// cache must always be used with the pair in the same order; [`PairCache::reset`] it when
        /// the pair's order or shapes change. A stale witness only slows a query down, it never
        /// changes an answer.
        #[derive(Clone, Debug, Default)]
        pub struct PairCache {
            $($(#[$attr])* pub $field: $ty,)*
        }

        impl PairCache {
            /// Forgets every witness (keeps allocated buffers).
            pub fn reset(&mut self) {
                $(self.$field.reset();)*
            }

            /// Checks every member's invariants.
            ///
            /// # Errors
            /// The first member's [`NarrowError::BrokenInvariant`].
            pub fn validate(&self) -> Result<(), NarrowError> {
                $(self.$field.validate()?;)*
                Ok(())
            }
        }
    };
}

pair_cache! {
    /// GJK warm start: last direction, support hints, simplex (see [`GjkCache`]).
    gjk: GjkCache,
    /// Chung-Wang: separating vector and both supporting vertices (see [`ChungWangCache`]).
    chung_wang: ChungWangCache,
    /// Closest-feature tracking: the last feature pair (see [`FeaturePairCache`]).
    features: FeaturePairCache,
    /// Last plane of the separating-planes perceptron (see [`SeparatingPlaneCache`]).
    plane: SeparatingPlaneCache,
}

impl PairCache {
    /// An empty cache: every algorithm starts cold.
    pub fn new() -> Self {
        Self::default()
    }
}
