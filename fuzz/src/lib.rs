//! The bodies of colldet's fuzz targets. The same files are compiled into the stable corpus
//! replay tests (`crates/colldet-geom/tests/fuzz_corpus_replay.rs`,
//! `crates/colldet-narrow/tests/fuzz_corpus_replay.rs`,
//! `crates/colldet-ffi/tests/fuzz_corpus_replay.rs`) through `#[path]`, so a checked-in corpus
//! input runs exactly the code the fuzzer ran.

#[path = "geom.rs"]
pub mod geom;
#[path = "narrow.rs"]
pub mod narrow;
#[path = "capi.rs"]
pub mod capi;
