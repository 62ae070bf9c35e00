//! Replays the checked-in corpus of colldet-narrow's fuzz target `convex_pair`
//! (`fuzz/corpus/convex_pair`) on the stable toolchain: every file goes through the same body the
//! cargo-fuzz target runs (`fuzz/src/narrow.rs`, included below). Running the fuzzer: README.md,
//! "Fuzzing".

#[path = "../../../fuzz/src/narrow.rs"]
mod narrow;

use colldet_testkit::fuzz_corpus::replay;

#[test]
fn convex_pair_corpus() {
    replay("convex_pair", narrow::convex_pair);
}
