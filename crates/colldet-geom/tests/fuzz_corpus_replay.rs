//! Replays the checked-in fuzz corpora of colldet-geom's fuzz targets (`fuzz/corpus/off_reader`,
//! `obj_reader`, `mesh_build`) on the stable toolchain: every file goes through the same body the
//! cargo-fuzz target runs (`fuzz/src/geom.rs`, included below), so seeds and the inputs that once
//! found bugs stay checked by `cargo test`. Running the fuzzer: README.md, "Fuzzing".

#[path = "../../../fuzz/src/geom.rs"]
mod geom;

use std::path::{Path, PathBuf};

/// The files of `fuzz/corpus/<target>`, sorted; panics when there are none.
fn corpus(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("corpus entry").path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} is empty", dir.display());
    files
}

/// Runs `body` on every corpus file of `target`, naming the file when it panics.
fn replay(target: &str, body: fn(&[u8])) {
    for path in corpus(target) {
        let data = std::fs::read(&path).expect("corpus file");
        if std::panic::catch_unwind(|| body(&data)).is_err() {
            panic!("fuzz target {target} fails on {}", path.display());
        }
    }
}

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
