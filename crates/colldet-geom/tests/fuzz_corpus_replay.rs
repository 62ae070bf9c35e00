//! Replays the checked-in fuzz corpora of colldet-geom's fuzz targets (`fuzz/corpus/off_reader`,
//! `obj_reader`, `mesh_build`) on the stable toolchain: every file goes through the same body the
//! cargo-fuzz target runs (`fuzz/src/geom.rs`, included below), so seeds and the inputs that once
//! found bugs stay checked by `cargo test`. Running the fuzzer: README.md, "Fuzzing".

#[path = "../../../fuzz/src/geom.rs"]
mod geom;

use colldet_testkit::fuzz_corpus::replay;

#[test]
fn off_reader_corpus() {
    replay("off_reader", geom::off_reader);
}

#[test]
fn obj_reader_corpus() {
    replay("obj_reader", geom::obj_reader);
}

#[test]
fn mesh_build_corpus() {
    replay("mesh_build", geom::mesh_build);
}
