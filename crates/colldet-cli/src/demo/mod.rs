//! The Chung-Wang experiment with no input files: what `colldet demo` runs.
//!
//! `N` convex polytopes (hulls of `V` random surface points, [`chung_wang_polytope`]) move in a
//! closed cubic box `[-side/2, side/2]^3`. Each object translates 5% of its bounding radius and
//! rotates 10 degrees per frame (random direction and axis, fixed per object), bounces off the
//! walls, and reverses its translational and rotational velocity for the next frame whenever the
//! world reports it colliding (as in the paper).
//!
//! # Invariants
//! - The bounding radius `r` of an object is the largest distance of a hull vertex from its local
//!   origin, so an object whose centre stays in `[-side/2 + r, side/2 - r]^3` stays in the box
//!   whatever its orientation. Wall bounces keep the centre there: a velocity component that would
//!   leave the range is flipped before the move.
//! - Only a few distinct meshes are built ([`MESHES_PER_SHAPE`] per shape, different seeds); every
//!   other object is a [`World::make_instance`] of one of them.
//! - Start without overlap: all objects are placed uniformly, then every object the world reports
//!   colliding (the larger id of each pair) is placed again until a check finds no collision. When
//!   the box is too crowded for that to succeed within [`PLACEMENT_ROUNDS`] rounds, the side grows
//!   by 5% and placement starts over; [`Demo::box_side`] reports the side used.
//! - The box side aims at a 3% AABB-overlap fraction: the shared benchmark scenes' sides for 500
//!   objects (ellipsoid 11.37, rod 7.502, plate 10.02), scaled by `cbrt(N / 500)` at constant
//!   object density.

mod preset;
pub mod setup;
mod setup_step;
mod summary;

pub use preset::{
    ONE_MOVER_CAGE_SIDE, ONE_MOVER_FLAKES, Preset, THESIS_ONE_MOVER, THESIS_ZOO, ThesisFigures,
    ThesisRow, ZOO_CAGE_SIDE,
};
pub use setup::{Motion, Setup, SetupObject};
pub use setup_step::SetupStep;
pub use summary::DemoSummary;

use std::sync::Arc;
use std::time::Instant;

use colldet_geom::MeshData;
use colldet_geom::math::{PointD, Pose, VectorD};
use colldet_testkit::SeededRng;
use colldet_testkit::shapes::{ChungWangShape, chung_wang_polytope};
use nalgebra::{Translation3, UnitQuaternion};

use crate::names::{broad_phase_name, method_name};
use colldet_world::{Config, ObjectId, World, WorldError};
use setup::{ROTATION_DEGREES, SPEED_FRACTION, bounding_radius};

/// Distinct meshes built per shape kind.
pub const MESHES_PER_SHAPE: usize = 8;

/// Placement rounds (check, then re-place the colliding objects) before the box grows.
pub const PLACEMENT_ROUNDS: usize = 60;

/// Times the box may grow by 5% before placement gives up.
const MAX_BOX_GROWTHS: usize = 40;

/// Which Chung-Wang shapes the demo uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DemoShape {
    /// Ellipsoids with semi-axes (1, 0.75, 0.5).
    #[default]
    Ellipsoid,
    /// Rods (capsules of length 2, radius 0.1).
    Rod,
    /// Plates (lenses of radius 1, thickness 0.1).
    Plate,
    /// The three kinds in turn (object `k` gets kind `k mod 3`).
    Mixed,
}

impl DemoShape {
    /// Every choice of `--shape`.
    pub const ALL: [DemoShape; 4] = [Self::Ellipsoid, Self::Rod, Self::Plate, Self::Mixed];

    /// The shape called `name` (`--shape`), if any.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The shape's name as the command line spells it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Ellipsoid => "ellipsoid",
            Self::Rod => "rod",
            Self::Plate => "plate",
            Self::Mixed => "mixed",
        }
    }

    fn kinds(self) -> &'static [ChungWangShape] {
        match self {
            Self::Ellipsoid => &[ChungWangShape::Ellipsoid],
            Self::Rod => &[ChungWangShape::Rod],
            Self::Plate => &[ChungWangShape::Plate],
            Self::Mixed => &ChungWangShape::ALL,
        }
    }
}

/// Box side of the shared scenes (500 objects, about 3% AABB-overlap fraction).
fn reference_side(kind: ChungWangShape) -> f64 {
    match kind {
        ChungWangShape::Ellipsoid => 11.37,
        ChungWangShape::Rod => 7.502,
        ChungWangShape::Plate => 10.02,
    }
}

/// What to run.
#[derive(Clone, Debug, PartialEq)]
pub struct DemoOptions {
    /// Shape kind(s).
    pub shape: DemoShape,
    /// Number of objects, at least 1.
    pub objects: usize,
    /// Random surface points per mesh (the hull may keep fewer), at least 4.
    pub vertices: usize,
    /// Frames to play.
    pub frames: u32,
    /// Seed of meshes, placement and motion.
    pub seed: u64,
    /// The world configuration (broad phase, method, threads).
    pub config: Config,
}

impl Default for DemoOptions {
    fn default() -> Self {
        Self {
            shape: DemoShape::Ellipsoid,
            objects: 500,
            vertices: 500,
            frames: 300,
            seed: 1,
            config: Config::default(),
        }
    }
}

/// Why the demo failed.
#[derive(Debug, thiserror::Error)]
pub enum DemoError {
    /// An option is out of range.
    #[error("invalid demo option: {0}")]
    InvalidOption(&'static str),
    /// A mesh could not be generated.
    #[error("mesh generation failed: {0}")]
    Mesh(#[from] colldet_geom::GeomError),
    /// The world refused a call.
    #[error(transparent)]
    World(#[from] WorldError),
    /// No overlap-free placement was found even after growing the box.
    #[error("no overlap-free placement found (box side up to {side:.3})")]
    Placement {
        /// The last side tried.
        side: f64,
    },
    /// A setup's objects overlap at the start.
    #[error("the setup starts with {0} colliding pairs")]
    InitialOverlap(usize),
}

/// What to run for a preset: `--broadphase`, `--method`, `--threads` and `--frames` apply.
#[derive(Clone, Debug, PartialEq)]
pub struct PresetOptions {
    /// The experiment.
    pub preset: Preset,
    /// Frames to play; `None` for the thesis's count.
    pub frames: Option<u32>,
    /// Seed of placement and motion.
    pub seed: u64,
    /// The world configuration. A grid or octree gets the preset's resolution and universe
    /// unless `universe` is already set.
    pub config: Config,
}

/// One object of the demo.
#[derive(Clone, Debug)]
struct Body {
    id: ObjectId,
    radius: f64,
    mesh: usize,
    pose: Pose,
    motion: Motion,
    wall: bool,
}

/// A running demo: the world, its objects and their motion. [`Demo::step`] plays one frame.
pub struct Demo {
    world: World<u32>,
    meshes: Vec<Arc<MeshData>>,
    bodies: Vec<Body>,
    side: f64,
    /// True when movers bounce off the box `[-side/2, side/2]^3` by themselves (the Chung-Wang
    /// demo); false when cage walls keep them in (the presets).
    bounce: bool,
    frame: u32,
    summary: DemoSummary,
}

impl Demo {
    /// Builds the meshes and the world and places the objects without overlap.
    ///
    /// # Errors
    /// [`DemoError::InvalidOption`] for zero objects, fewer than 4 vertices or zero frames;
    /// [`DemoError::Mesh`], [`DemoError::World`], [`DemoError::Placement`].
    pub fn new(options: &DemoOptions) -> Result<Self, DemoError> {
        Self::with_progress(options, &mut |_| {})
    }

    /// [`Demo::new`], calling `progress` with each [`SetupStep`]: every mesh built, every
    /// object added, every placement check, and [`SetupStep::Ready`] last.
    ///
    /// # Errors
    /// As [`Demo::new`].
    pub fn with_progress(
        options: &DemoOptions,
        progress: &mut dyn FnMut(SetupStep),
    ) -> Result<Self, DemoError> {
        if options.objects == 0 {
            return Err(DemoError::InvalidOption("--objects must be at least 1"));
        }
        if options.vertices < 4 {
            return Err(DemoError::InvalidOption("--vertices must be at least 4"));
        }
        if options.frames == 0 {
            return Err(DemoError::InvalidOption("--frames must be at least 1"));
        }
        let kinds = options.shape.kinds();
        let mesh_count = kinds.len() * MESHES_PER_SHAPE;
        let mut meshes = Vec::with_capacity(mesh_count);
        let mut radii = Vec::with_capacity(meshes.capacity());
        for &kind in kinds {
            for m in 0..MESHES_PER_SHAPE {
                let seed = options
                    .seed
                    .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                    .wrapping_add((meshes.len() * 7919 + m) as u64);
                let mesh = chung_wang_polytope(kind, options.vertices, seed)?;
                let radius = mesh
                    .vertices
                    .iter()
                    .map(|p| f64::from(p.coords.norm()))
                    .fold(0.0, f64::max);
                radii.push(radius);
                meshes.push(Arc::new(mesh));
                progress(SetupStep::Meshes {
                    done: meshes.len(),
                    total: mesh_count,
                });
            }
        }
        // Constant density: side^3 proportional to N, the kinds' reference volumes averaged.
        let reference_volume = kinds
            .iter()
            .map(|&k| reference_side(k).powi(3))
            .sum::<f64>()
            / kinds.len() as f64;
        let side = (reference_volume * options.objects as f64 / 500.0).cbrt();

        let mut config = options.config.clone();
        if config.universe.is_none() {
            let h = side / 2.0;
            config.universe = Some(colldet_geom::WorldAabb::new(
                PointD::new(-h, -h, -h),
                PointD::new(h, h, h),
            ));
        }
        let mut world: World<u32> = World::new(config)?;
        let mut first: Vec<Option<ObjectId>> = vec![None; meshes.len()];
        let mut rng = SeededRng::new(options.seed ^ 0xD1B5_4A32_D192_ED03);
        let mut bodies = Vec::with_capacity(options.objects);
        for k in 0..options.objects {
            let mesh = (k % kinds.len()) * MESHES_PER_SHAPE + (k / kinds.len()) % MESHES_PER_SHAPE;
            let id = match first[mesh] {
                Some(like) => world.make_instance(like, k as u32)?,
                None => {
                    let id = world.make_collidable((*meshes[mesh]).clone(), k as u32)?;
                    first[mesh] = Some(id);
                    id
                }
            };
            let radius = radii[mesh];
            let velocity = rng.unit_vector().into_inner() * (SPEED_FRACTION * radius);
            let spin =
                UnitQuaternion::from_axis_angle(&rng.unit_vector(), ROTATION_DEGREES.to_radians());
            bodies.push(Body {
                id,
                radius,
                mesh,
                pose: Pose::identity(),
                motion: Motion::Moving { velocity, spin },
                wall: false,
            });
            progress(SetupStep::Objects {
                done: k + 1,
                total: options.objects,
            });
        }
        let mut demo = Self {
            world,
            meshes,
            bodies,
            side,
            bounce: true,
            frame: 0,
            summary: DemoSummary::default(),
        };
        demo.place(&mut rng, progress)?;
        progress(SetupStep::Ready {
            objects: options.objects,
            side: demo.side,
        });
        demo.summary = DemoSummary {
            title: format!(
                "Chung-Wang demo: {} x {} {} ({} vertices each), box side {:.3}",
                options.objects,
                options.frames,
                options.shape.name(),
                options.vertices,
                demo.side
            ),
            shape: options.shape.name().to_string(),
            objects: options.objects,
            vertices: options.vertices,
            box_side: demo.side,
            configuration: configuration(&options.config),
            ..DemoSummary::default()
        };
        Ok(demo)
    }

    /// Builds the world for `setup` (wall-wall interest off) and checks once without recording,
    /// so the first recorded frame tests only pairs with a mover, as every later frame does.
    ///
    /// # Errors
    /// [`DemoError::World`]; [`DemoError::InitialOverlap`] when that first check finds a
    /// collision.
    pub fn from_setup(setup: Setup, config: Config) -> Result<Self, DemoError> {
        Self::from_setup_with_progress(setup, config, &mut |_| {})
    }

    /// [`Demo::from_setup`], calling `progress` with each object added and
    /// [`SetupStep::Ready`] after the first check.
    ///
    /// # Errors
    /// As [`Demo::from_setup`].
    pub fn from_setup_with_progress(
        setup: Setup,
        config: Config,
        progress: &mut dyn FnMut(SetupStep),
    ) -> Result<Self, DemoError> {
        let mut config = config;
        if config.universe.is_none() {
            config.universe = Some(setup.universe);
            config.resolution = setup.resolution;
        }
        let configuration = configuration(&config);
        let mut world: World<u32> = World::new(config)?;
        let mut first: Vec<Option<ObjectId>> = vec![None; setup.meshes.len()];
        let radii: Vec<f64> = setup.meshes.iter().map(|m| bounding_radius(m)).collect();
        let mut bodies = Vec::with_capacity(setup.objects.len());
        for (k, object) in setup.objects.iter().enumerate() {
            let id = match first[object.mesh] {
                Some(like) => world.make_instance(like, k as u32)?,
                None => {
                    let id =
                        world.make_collidable((*setup.meshes[object.mesh]).clone(), k as u32)?;
                    first[object.mesh] = Some(id);
                    id
                }
            };
            world.set_transform(id, object.pose)?;
            bodies.push(Body {
                id,
                radius: radii[object.mesh],
                mesh: object.mesh,
                pose: object.pose,
                motion: object.motion,
                wall: object.wall,
            });
            progress(SetupStep::Objects {
                done: k + 1,
                total: setup.objects.len(),
            });
        }
        let walls: Vec<ObjectId> = setup
            .objects
            .iter()
            .zip(&bodies)
            .filter(|(o, _)| o.wall)
            .map(|(_, b)| b.id)
            .collect();
        for (i, &a) in walls.iter().enumerate() {
            for &b in &walls[i + 1..] {
                world.set_interest(a, b, false)?;
            }
        }
        world.start()?;
        let overlapping = world.check()?;
        if overlapping > 0 {
            return Err(DemoError::InitialOverlap(overlapping));
        }
        progress(SetupStep::Ready {
            objects: bodies.len(),
            side: 2.0 * setup.cage_half,
        });
        let polygons: usize = setup
            .objects
            .iter()
            .map(|o| setup.meshes[o.mesh].faces.len())
            .sum();
        let movers = bodies
            .iter()
            .filter(|b| matches!(b.motion, Motion::Moving { .. }))
            .count();
        let summary = DemoSummary {
            title: format!(
                "preset {}: {} objects ({} moving), {} polygons, cage side {}",
                setup.name,
                bodies.len(),
                movers,
                polygons,
                2.0 * setup.cage_half
            ),
            shape: setup.name.clone(),
            objects: bodies.len(),
            box_side: 2.0 * setup.cage_half,
            polygons,
            configuration,
            thesis: setup.thesis,
            ..DemoSummary::default()
        };
        Ok(Self {
            world,
            meshes: setup.meshes,
            bodies,
            side: 2.0 * setup.cage_half,
            bounce: false,
            frame: 0,
            summary,
        })
    }

    /// The preset's setup in a world configured by `options`.
    ///
    /// # Errors
    /// As [`Preset::setup`] and [`Demo::from_setup`].
    pub fn from_preset(options: &PresetOptions) -> Result<Self, DemoError> {
        Self::from_preset_with_progress(options, &mut |_| {})
    }

    /// [`Demo::from_preset`], calling `progress` once the preset's meshes and start poses are
    /// built ([`SetupStep::Meshes`] with `done == total`), then as
    /// [`Demo::from_setup_with_progress`].
    ///
    /// # Errors
    /// As [`Demo::from_preset`].
    pub fn from_preset_with_progress(
        options: &PresetOptions,
        progress: &mut dyn FnMut(SetupStep),
    ) -> Result<Self, DemoError> {
        if options.frames == Some(0) {
            return Err(DemoError::InvalidOption("--frames must be at least 1"));
        }
        let setup = options.preset.setup(options.seed)?;
        let meshes = setup.meshes.len();
        progress(SetupStep::Meshes {
            done: meshes,
            total: meshes,
        });
        Self::from_setup_with_progress(setup, options.config.clone(), progress)
    }

    /// A uniform pose keeping the body's bounding sphere inside the box.
    fn random_pose(side: f64, radius: f64, rng: &mut SeededRng) -> Pose {
        let half = (side / 2.0 - radius).max(0.0);
        let t = VectorD::new(
            rng.range(-half, half),
            rng.range(-half, half),
            rng.range(-half, half),
        );
        Pose::from_parts(Translation3::from(t), rng.rotation())
    }

    /// Places every object without overlap (see the module docs), starting the world.
    fn place(
        &mut self,
        rng: &mut SeededRng,
        progress: &mut dyn FnMut(SetupStep),
    ) -> Result<(), DemoError> {
        for attempt in 1..=MAX_BOX_GROWTHS {
            for body in &mut self.bodies {
                body.pose = Self::random_pose(self.side, body.radius, rng);
                self.world.set_transform(body.id, body.pose)?;
            }
            if !self.world.is_started() {
                self.world.start()?;
            }
            for round in 1..=PLACEMENT_ROUNDS {
                let colliding = self.world.check()?;
                progress(SetupStep::Placing {
                    attempt,
                    side: self.side,
                    round,
                    colliding,
                });
                if colliding == 0 {
                    return Ok(());
                }
                let mut again: Vec<u32> = self
                    .world
                    .last_collisions()
                    .iter()
                    .map(|&(a, b)| *self.world.user_data(a.max(b)).expect("live object"))
                    .collect();
                again.sort_unstable();
                again.dedup();
                for k in again {
                    let body = &mut self.bodies[k as usize];
                    body.pose = Self::random_pose(self.side, body.radius, rng);
                    self.world.set_transform(body.id, body.pose)?;
                }
            }
            self.side *= 1.05;
        }
        Err(DemoError::Placement { side: self.side })
    }

    /// Plays one frame: reverses the objects that collided in the previous frame, bounces off
    /// the walls, moves every object, and checks.
    ///
    /// # Errors
    /// [`DemoError::World`] when the check fails.
    pub fn step(&mut self) -> Result<(), DemoError> {
        if self.frame > 0 {
            let mut hit = vec![false; self.bodies.len()];
            for &(a, b) in self.world.last_collisions() {
                for id in [a, b] {
                    hit[*self.world.user_data(id).expect("live object") as usize] = true;
                }
            }
            for (body, hit) in self.bodies.iter_mut().zip(hit) {
                if let (true, Motion::Moving { velocity, spin }) = (hit, &mut body.motion) {
                    *velocity = -*velocity;
                    *spin = spin.inverse();
                }
            }
        }
        let half = self.side / 2.0;
        for body in &mut self.bodies {
            let Motion::Moving { velocity, spin } = &mut body.motion else {
                continue;
            };
            let mut t = body.pose.translation.vector;
            if self.bounce {
                let limit = half - body.radius;
                for c in 0..3 {
                    let next = t[c] + velocity[c];
                    if next > limit || next < -limit {
                        velocity[c] = -velocity[c];
                    }
                    t[c] = (t[c] + velocity[c]).clamp(-limit.max(0.0), limit.max(0.0));
                }
            } else {
                t += *velocity;
            }
            body.pose = Pose::from_parts(Translation3::from(t), *spin * body.pose.rotation);
            self.world.set_transform(body.id, body.pose)?;
        }
        let start = Instant::now();
        self.world.check()?;
        let ms = start.elapsed().as_secs_f64() * 1e3;
        self.summary.record_frame(ms, self.world.stats());
        self.frame += 1;
        Ok(())
    }

    /// The world (its last check's collisions and figures).
    pub fn world(&self) -> &World<u32> {
        &self.world
    }

    /// Side of the box (or cage interior) `[-side/2, side/2]^3` actually used.
    pub fn box_side(&self) -> f64 {
        self.side
    }

    /// Frames played.
    pub fn frames_played(&self) -> u32 {
        self.frame
    }

    /// Number of objects.
    pub fn object_count(&self) -> usize {
        self.bodies.len()
    }

    /// Object `k`'s id, mesh (local frame), bounding radius about its local origin, and current
    /// pose (local to world). The world's user data of the object is `k`.
    ///
    /// For a preset, objects are in the order of [`Setup::objects`]: movers and fixed objects
    /// first, the six cage walls last.
    ///
    /// # Panics
    /// When `k >= object_count()`.
    pub fn object(&self, k: usize) -> (ObjectId, &MeshData, f64, Pose) {
        let body = &self.bodies[k];
        (body.id, &self.meshes[body.mesh], body.radius, body.pose)
    }

    /// The centre of object `k` in world coordinates.
    ///
    /// # Panics
    /// When `k >= object_count()`.
    pub fn centre(&self, k: usize) -> PointD {
        PointD::from(self.bodies[k].pose.translation.vector)
    }

    /// True when object `k` moves (false for fixed objects and walls).
    ///
    /// # Panics
    /// When `k >= object_count()`.
    pub fn is_moving(&self, k: usize) -> bool {
        matches!(self.bodies[k].motion, Motion::Moving { .. })
    }

    /// True when object `k` is a cage wall.
    ///
    /// # Panics
    /// When `k >= object_count()`.
    pub fn is_wall(&self, k: usize) -> bool {
        self.bodies[k].wall
    }

    /// The figures so far.
    pub fn summary(&self) -> &DemoSummary {
        &self.summary
    }
}

/// The configuration as command-line options, for the summary.
fn configuration(config: &Config) -> String {
    format!(
        "--broadphase {} --method {} --threads {}",
        broad_phase_name(config.broad_phase),
        method_name(config.method),
        if config.threads == 0 {
            "0 (all cores)".to_string()
        } else {
            config.threads.to_string()
        }
    )
}

/// Runs the whole demo, calling `progress(done, total)` after each frame.
///
/// # Errors
/// As [`Demo::new`] and [`Demo::step`].
pub fn run_demo(
    options: &DemoOptions,
    mut progress: impl FnMut(u32, u32),
) -> Result<DemoSummary, DemoError> {
    let mut demo = Demo::new(options)?;
    for frame in 0..options.frames {
        demo.step()?;
        progress(frame + 1, options.frames);
    }
    Ok(demo.summary.clone())
}

/// Runs a preset for `options.frames` frames (the thesis's count when `None`), calling
/// `progress(done, total)` after each frame; returns the demo in its final state.
///
/// # Errors
/// As [`Demo::from_preset`] and [`Demo::step`].
pub fn run_preset(
    options: &PresetOptions,
    mut progress: impl FnMut(u32, u32),
) -> Result<Demo, DemoError> {
    let mut demo = Demo::from_preset(options)?;
    let frames = options.frames.unwrap_or(options.preset.thesis().frames);
    for frame in 0..frames {
        demo.step()?;
        progress(frame + 1, frames);
    }
    Ok(demo)
}
