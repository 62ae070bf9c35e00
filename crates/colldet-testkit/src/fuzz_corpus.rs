//! Replays a checked-in fuzz corpus (`fuzz/corpus/<target>`) through the body its cargo-fuzz
//! target runs, on the stable toolchain: the corpus replay tests of colldet-geom, colldet-narrow
//! and colldet-ffi.

use std::path::{Path, PathBuf};

/// The files of `fuzz/corpus/<target>`, sorted.
///
/// # Panics
/// When the directory cannot be read or holds no file.
pub fn corpus_files(target: &str) -> Vec<PathBuf> {
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

/// Runs `body` on every corpus file of `target`.
///
/// # Panics
/// Naming the file, when `body` panics on it (and as [`corpus_files`]).
pub fn replay(target: &str, body: fn(&[u8])) {
    for path in corpus_files(target) {
        let data = std::fs::read(&path).expect("corpus file");
        if std::panic::catch_unwind(|| body(&data)).is_err() {
            panic!("fuzz target {target} fails on {}", path.display());
        }
    }
}
