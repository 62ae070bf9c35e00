//! Pair dispatch: where a pair of objects gets its exact test, its cache and its witness.
//!
//! A caller that keeps many objects (the world) prepares each object's geometry once
//! ([`PreparedShape`]), keeps the three bytes of [`ShapeTraits`] beside it, and for each candidate
//! pair:
//! 1. looks the pair's test up in the pair-kind table ([`PairKind::of`], from the [`Method`] and
//!    both objects' traits), once;
//! 2. runs the Chung-Wang bounding-box pre-test itself when the kind has one
//!    ([`box_pretest`]), before fetching the pair's cache, so a pair it separates costs no cache;
//! 3. runs [`test_pair`] with the pair's [`PairCache`] (one cache type per pair kind) and a
//!    per-thread [`PairScratch`], and reports the [`Witness`] it returns.
//!
//! Like parry's query dispatcher and Jolt's collision dispatch table, the choice is made in one
//! place; unlike them, the table also owns the coherence state of each kind.

mod box_pretest;
mod method;
mod pair_cache;
mod pair_kind;
mod pair_test;
mod prepared_shape;
mod witness;

pub use box_pretest::{PretestBox, PretestMemo, PretestOutcome, box_pretest};
pub use method::Method;
pub use pair_cache::PairCache;
pub use pair_kind::PairKind;
pub use pair_test::{PairOutcome, PairScratch, PlacedShape, test_pair};
pub use prepared_shape::{PreparedShape, ShapeTraits};
pub use witness::{NO_FEATURE, Witness, WitnessKind};
