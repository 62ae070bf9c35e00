//! Where the shared scene files are and which of them the peer comparison plays.

use std::path::{Path, PathBuf};

/// The scenes of the peer comparison (issue 7): the Chung-Wang families, the mesh zoo and the
/// two broad-phase scenes.
pub const PEER_SCENES: [&str; 15] = [
    "cw-ellipsoid-12",
    "cw-ellipsoid-100",
    "cw-ellipsoid-500",
    "cw-ellipsoid-1000",
    "cw-rod-12",
    "cw-rod-100",
    "cw-rod-500",
    "cw-rod-1000",
    "cw-plate-12",
    "cw-plate-100",
    "cw-plate-500",
    "cw-plate-1000",
    "mesh-zoo",
    "broad-10k",
    "broad-100k",
];

/// The default scene directory: `../shared/scenes` beside the workspace root.
pub fn default_scene_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/scenes")
}

/// The scene file for `name_or_path`: the path itself when it names a file, otherwise
/// `dir/NAME.scene`.
pub fn resolve(dir: &Path, name_or_path: &str) -> PathBuf {
    let direct = PathBuf::from(name_or_path);
    if direct.is_file() {
        direct
    } else {
        dir.join(format!("{name_or_path}.scene"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve_inside_the_directory() {
        let dir = Path::new("/nonexistent-scenes");
        assert_eq!(
            resolve(dir, "mesh-zoo"),
            PathBuf::from("/nonexistent-scenes/mesh-zoo.scene")
        );
        assert!(default_scene_dir().ends_with("shared/scenes"));
    }
}
