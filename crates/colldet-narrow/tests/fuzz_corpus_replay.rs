//! Replays the checked-in corpus of colldet-narrow's fuzz target `convex_pair`
//! (`fuzz/corpus/convex_pair`) on the stable toolchain: every file goes through the same body the
//! cargo-fuzz target runs (`fuzz/src/narrow.rs`, included below). Running the fuzzer: README.md,
//! "Fuzzing".

#[path = "../../../fuzz/src/narrow.rs"]
mod narrow;

use std::path::{Path, PathBuf};

#[test]
fn convex_pair_corpus() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/convex_pair");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("corpus entry").path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} is empty", dir.display());
    for path in files {
        let data = std::fs::read(&path).expect("corpus file");
        if std::panic::catch_unwind(|| narrow::convex_pair(&data)).is_err() {
            panic!("fuzz target convex_pair fails on {}", path.display());
        }
    }
}
