//! Benchmark scene files (`colldet-scene 1`, see `docs/scenes.md`) and their closed-form motion.
//!
//! A scene names meshes and objects; each object's pose at integer frame `f` is computed in `f64`
//! with exactly the operation order of the reference `pose.h`, so every library that plays a scene
//! sees bit-identical poses (on the same libm) and colliding-pair totals are comparable.

mod meshes;
mod motion;
mod parse;

pub use meshes::{LoadedMesh, load_scene_mesh};

pub use motion::{ScenePose, bounding_radius, fold, pose_at};
pub use parse::{Scene, SceneError, SceneMesh, SceneObject, load_scene, parse_scene};
