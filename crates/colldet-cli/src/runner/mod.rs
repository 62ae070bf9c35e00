//! Plays a scene file through a [`World`] and measures it: what `colldet run` prints.

mod summary;

pub use summary::{CcdSummary, RunSummary, TtcSummary, percentile};

use std::io::Write;
use std::path::Path;

use colldet_geom::math::{Pose, VectorD};
use nalgebra::{Quaternion, Translation3, UnitQuaternion};

use crate::scene::{Scene, SceneError, SceneObject, load_scene, load_scene_mesh, pose_at};
use colldet_world::{Config, ObjectId, VelocityBound, World, WorldError};

/// The collision group of a CCD scene's movers (`--ccd`): their masks exclude it, so pairs of two
/// movers are never tested (the scenes score (mover, static) hits only).
pub const MOVER_GROUP: u32 = 1 << 1;

/// Why a run failed.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The scene file is malformed or unreadable.
    #[error(transparent)]
    Scene(#[from] SceneError),
    /// A mesh could not be read or built.
    #[error("mesh {index} ({path}): {source}")]
    Mesh {
        /// Mesh index in the scene.
        index: usize,
        /// Its path.
        path: String,
        /// What went wrong.
        #[source]
        source: WorldError,
    },
    /// The world refused a call.
    #[error(transparent)]
    World(#[from] WorldError),
    /// Writing the pairs file failed.
    #[error("cannot write the pairs file: {0}")]
    Output(#[from] std::io::Error),
}

/// What to run.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The world configuration (broad phase, method, threads).
    pub config: Config,
    /// Play only the first `frames` frames (all when `None`).
    pub frames: Option<u32>,
    /// Play with the continuous check (`--ccd`): frame 0 is checked discretely, every later frame
    /// `f + 1` continuously, sweeping the interval from frame `f` ([`CcdSummary`]).
    pub ccd: bool,
    /// Schedule pair tests by time to collision (`--ttc`, `--ttc-measured`): every object gets
    /// a motion bound, and the run's summary counts the tests saved ([`TtcSummary`]).
    pub ttc: Option<TtcBounds>,
}

/// Where a scheduled run's motion bounds come from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TtcBounds {
    /// The scene's motion: per frame, `|v|` for the origin and `|w|` radians (the fold keeps a
    /// coordinate's change within `|v_c|`).
    Scene,
    /// Measured by the world from each object's moves ([`VelocityBound::Measured`]).
    Measured,
    /// The same bound for every object, per frame (a test's deliberately wrong bound, say).
    Fixed {
        /// Largest distance travelled by an object's origin per frame.
        max_linear: f64,
        /// Largest rotation angle per frame, radians.
        max_angular: f64,
    },
}

/// The bound [`TtcBounds`] gives a scene object.
fn velocity_bound(bounds: TtcBounds, object: &SceneObject) -> VelocityBound {
    match bounds {
        TtcBounds::Scene => VelocityBound::PerCheck {
            max_linear: VectorD::from(object.velocity).norm(),
            max_angular: VectorD::from(object.angular_velocity).norm(),
        },
        TtcBounds::Measured => VelocityBound::Measured,
        TtcBounds::Fixed {
            max_linear,
            max_angular,
        } => VelocityBound::PerCheck {
            max_linear,
            max_angular,
        },
    }
}

/// The pose of an object from the scene's quaternion and translation.
fn scene_pose(q: [f64; 4], t: [f64; 3]) -> Pose {
    let rotation = UnitQuaternion::new_normalize(Quaternion::new(q[0], q[1], q[2], q[3]));
    Pose::from_parts(Translation3::from(VectorD::new(t[0], t[1], t[2])), rotation)
}

/// Plays `scene`: every object moves every frame, so every colliding pair is reported each frame.
/// `pairs_out`, when given, receives one line per frame with the sorted colliding id pairs
/// (`a-b` with scene object ids, space separated). `progress(done, frames)` is called with
/// `done = 0` once the meshes are loaded and the world is built, then after each frame.
///
/// # Errors
/// [`RunError`] naming what failed.
pub fn run_scene(
    scene: &Scene,
    options: &RunOptions,
    mut pairs_out: Option<&mut dyn Write>,
    mut progress: impl FnMut(u32, u32),
) -> Result<RunSummary, RunError> {
    let mut config = options.config.clone();
    if config.universe.is_none() {
        config.universe = Some(colldet_geom::WorldAabb::new(
            scene.box_min.into(),
            scene.box_max.into(),
        ));
    }
    let mut world: World<u32> = World::new(config)?;
    let mut meshes = Vec::with_capacity(scene.meshes.len());
    for (index, mesh) in scene.meshes.iter().enumerate() {
        let path = mesh.path.display().to_string();
        let loaded = load_scene_mesh(mesh).map_err(|e| RunError::Mesh {
            index,
            path: path.clone(),
            source: WorldError::InvalidMesh(e),
        })?;
        meshes.push((loaded, None::<ObjectId>));
    }
    let mut ids = Vec::with_capacity(scene.objects.len());
    for (k, object) in scene.objects.iter().enumerate() {
        let (loaded, first) = &mut meshes[object.mesh];
        let id = match first {
            Some(like) => world.make_instance(*like, k as u32)?,
            None => {
                let id = world
                    .make_collidable(loaded.data.clone(), k as u32)
                    .map_err(|source| RunError::Mesh {
                        index: object.mesh,
                        path: scene.meshes[object.mesh].path.display().to_string(),
                        source,
                    })?;
                *first = Some(id);
                id
            }
        };
        ids.push(id);
    }
    let radii: Vec<f64> = scene
        .objects
        .iter()
        .map(|o| meshes[o.mesh].0.radius)
        .collect();
    let frames = options.frames.map_or(scene.frames, |f| f.min(scene.frames));
    let mut summary = RunSummary::new(scene, &world, frames);
    let moving: Vec<bool> = scene
        .objects
        .iter()
        .map(|o| o.velocity != [0.0; 3] || o.angular_velocity != [0.0; 3])
        .collect();
    if let Some(bounds) = options.ttc {
        for (k, object) in scene.objects.iter().enumerate() {
            world.set_velocity_bound(ids[k], velocity_bound(bounds, object))?;
        }
        summary.ttc = Some(TtcSummary::default());
    }
    let mut ccd = options.ccd.then(CcdSummary::default);
    if options.ccd {
        // A CCD scene's hits are (mover, static) pairs: pairs of two movers are of no interest.
        // The movers get a collision group of their own that their masks exclude.
        for k in (0..ids.len()).filter(|&k| moving[k]) {
            world.set_group(ids[k], MOVER_GROUP, !MOVER_GROUP)?;
        }
    }
    let mut line = String::new();
    progress(0, frames);
    for frame in 0..frames {
        for (k, object) in scene.objects.iter().enumerate() {
            let pose = pose_at(object, radii[k], scene.box_min, scene.box_max, frame);
            world.set_transform(ids[k], scene_pose(pose.q, pose.t))?;
        }
        if frame == 0 {
            // The first poses are the start of the first swept interval.
            world.start()?;
        }
        let start = std::time::Instant::now();
        match ccd.as_mut() {
            Some(ccd) if frame > 0 => {
                world.check_continuous()?;
                let ms = start.elapsed().as_secs_f64() * 1e3;
                ccd.frame_ms.push(ms);
                summary.record_frame(ms, world.stats());
                for hit in world.last_swept_contacts() {
                    let ua = *world.user_data(hit.a)?;
                    let ub = *world.user_data(hit.b)?;
                    // A CCD scene's hits are (mover, static) pairs (FORMAT.md).
                    let (mover, other) = match (moving[ua as usize], moving[ub as usize]) {
                        (false, true) => (ub, ua),
                        (true, false) => (ua, ub),
                        _ => continue,
                    };
                    ccd.hits.push((frame - 1, mover, other));
                    if !hit.contact.initially_touching && !hit.touching_at_end {
                        ccd.tunnels += 1;
                    }
                }
            }
            _ => {
                world.check()?;
                summary.record_frame(start.elapsed().as_secs_f64() * 1e3, world.stats());
            }
        }
        if let Some(out) = pairs_out.as_deref_mut() {
            line.clear();
            let mut pairs: Vec<(u32, u32)> = world
                .last_collisions()
                .iter()
                .map(|&(a, b)| {
                    let (ua, ub) = (
                        *world.user_data(a).expect("live"),
                        *world.user_data(b).expect("live"),
                    );
                    (ua.min(ub), ua.max(ub))
                })
                .collect();
            pairs.sort_unstable();
            for (i, (a, b)) in pairs.iter().enumerate() {
                if i > 0 {
                    line.push(' ');
                }
                line.push_str(&format!("{a}-{b}"));
            }
            writeln!(out, "{line}")?;
        }
        progress(frame + 1, frames);
    }
    if let Some(mut ccd) = ccd {
        ccd.hits.sort_unstable();
        summary.ccd = Some(ccd);
    }
    Ok(summary)
}

/// Loads and plays the scene file at `path`.
///
/// # Errors
/// As [`run_scene`], plus reading the scene.
pub fn run_scene_file(
    path: &Path,
    options: &RunOptions,
    pairs_out: Option<&mut dyn Write>,
    progress: impl FnMut(u32, u32),
) -> Result<RunSummary, RunError> {
    let scene = load_scene(path)?;
    run_scene(&scene, options, pairs_out, progress)
}
