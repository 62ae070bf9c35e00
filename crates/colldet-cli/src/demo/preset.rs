//! The thesis's experiments with exact collision detection (Zachmann, "Exact and Fast Collision
//! Detection", section 5.5.2) as named demo setups, with the figures the thesis measured.
//!
//! - `thesis-zoo`: 30 moving objects (8 spheres, 8 tori, 7 cube arrays, 7 tetra-flakes) of
//!   50-750 polygons, 4724 polygons in all (4760 with the walls; the thesis: 4758), in a cage of
//!   side 5. Every object fits a ball of radius about 0.5 (the thesis's objects are about `1^3`).
//! - `one-mover`: one moving 20-polygon sphere among 500 fixed level-2 tetra-flakes (64 triangles
//!   each; the thesis's flakes had 52 polygons) on an `8^3` lattice filling a cage of side 8,
//!   the 12 cells nearest the centre left empty for the mover to start in.
//!
//! Objects start without overlap (bounding spheres disjoint), move as the Chung-Wang demo does
//! (5% of the bounding radius and 10 degrees per frame, reversing on any collision, walls
//! included) and are kept in the cage by its walls (see [`super::setup`]).

use std::sync::Arc;

use colldet_geom::math::{PointD, Pose};
use colldet_geom::{GeomError, MeshData};
use colldet_testkit::SeededRng;
use colldet_testkit::shapes::{cube_array, sphere, tetra_flake, torus};
use nalgebra::Translation3;

use super::DemoError;
use super::setup::{
    Motion, Setup, SetupObject, add_cage_walls, bounding_radius, disjoint_centres, random_motion,
};

/// One row of the thesis's timing table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ThesisRow {
    /// The thesis's description of the configuration.
    pub setup: &'static str,
    /// Our closest configuration, as command-line options.
    pub ours: &'static str,
    /// Milliseconds per frame measured in the thesis.
    pub ms_per_frame: f64,
    /// Object pairs handed to the exact test per frame, when the thesis gives it.
    pub pairs_per_frame: Option<f64>,
}

/// The thesis's figures for one experiment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ThesisFigures {
    /// Where in the thesis.
    pub source: &'static str,
    /// The machine it ran on.
    pub machine: &'static str,
    /// Frames averaged over.
    pub frames: u32,
    /// Polygons in the scene.
    pub polygons: usize,
    /// The measured configurations.
    pub rows: &'static [ThesisRow],
}

/// Thesis section 5.5.2, the 30-object zoo (grid `8^3`).
pub const THESIS_ZOO: ThesisFigures = ThesisFigures {
    source: "section 5.5.2, `movem -m +30 -x 7 -s g 8 -a bx -e 5 -t 5000`",
    machine: "SGI VGX, 40 MHz R3000",
    frames: 5000,
    polygons: 4758,
    rows: &[
        ThesisRow {
            setup: "no grid, no box-trees",
            ours: "--broadphase none --method arbitrary",
            ms_per_frame: 260.0,
            pairs_per_frame: Some(615.0),
        },
        ThesisRow {
            setup: "no grid, with box-trees",
            ours: "--broadphase none --method boxtree",
            ms_per_frame: 234.0,
            pairs_per_frame: Some(615.0),
        },
        ThesisRow {
            setup: "8^3 grid, with box-trees",
            ours: "--broadphase grid --method boxtree",
            ms_per_frame: 219.0,
            pairs_per_frame: Some(155.0),
        },
    ],
};

/// Thesis section 5.5.2, one mover among 500 fixed tetra-flakes (arbitrary method).
pub const THESIS_ONE_MOVER: ThesisFigures = ThesisFigures {
    source: "section 5.5.2, `movit -m 500 sh -t 10000 sh -e 20 -x 3 -s n 8 -a ar`",
    machine: "SGI, not stated (the section's other test: VGX, 40 MHz R3000)",
    frames: 10_000,
    polygons: 25_000,
    rows: &[
        ThesisRow {
            setup: "without grid",
            ours: "--broadphase none --method arbitrary",
            ms_per_frame: 1.0,
            pairs_per_frame: None,
        },
        ThesisRow {
            setup: "with 8^3 grid",
            ours: "--broadphase grid --method arbitrary",
            ms_per_frame: 0.2,
            pairs_per_frame: None,
        },
    ],
};

/// Side of the zoo's cage.
pub const ZOO_CAGE_SIDE: f64 = 5.0;

/// Side of the one-mover's cage (an `8^3` lattice of unit cells).
pub const ONE_MOVER_CAGE_SIDE: f64 = 8.0;

/// Fixed tetra-flakes of the one-mover preset.
pub const ONE_MOVER_FLAKES: usize = 500;

/// Wall thickness of both cages.
const WALL_THICKNESS: f64 = 1.0;

/// Draws per object when placing the zoo.
const PLACEMENT_ATTEMPTS: usize = 100_000;

/// A named thesis experiment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    /// The 30-object zoo.
    ThesisZoo,
    /// One mover among 500 fixed tetra-flakes.
    OneMover,
}

impl Preset {
    /// Every preset.
    pub const ALL: [Preset; 2] = [Preset::ThesisZoo, Preset::OneMover];

    /// The name `--preset` takes.
    pub fn name(self) -> &'static str {
        match self {
            Self::ThesisZoo => "thesis-zoo",
            Self::OneMover => "one-mover",
        }
    }

    /// The preset called `name`, if any.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The thesis's figures for this experiment.
    pub fn thesis(self) -> &'static ThesisFigures {
        match self {
            Self::ThesisZoo => &THESIS_ZOO,
            Self::OneMover => &THESIS_ONE_MOVER,
        }
    }

    /// Builds the setup; `seed` chooses placement, orientations and motions.
    ///
    /// # Errors
    /// [`DemoError::Mesh`] when a shape cannot be generated; [`DemoError::Placement`] when no
    /// overlap-free placement was found.
    pub fn setup(self, seed: u64) -> Result<Setup, DemoError> {
        match self {
            Self::ThesisZoo => zoo(seed),
            Self::OneMover => one_mover(seed),
        }
    }
}

/// Sphere `(slices, stacks)`: 50 to 288 faces.
const ZOO_SPHERES: [(usize, usize); 8] = [
    (10, 5),
    (12, 6),
    (14, 7),
    (16, 8),
    (18, 9),
    (20, 10),
    (24, 12),
    (10, 6),
];

/// Torus `(segments, sides)`: 50 to 750 faces.
const ZOO_TORI: [(usize, usize); 8] = [
    (10, 5),
    (12, 6),
    (16, 6),
    (16, 8),
    (20, 8),
    (24, 8),
    (24, 10),
    (30, 25),
];

/// Cube array `(nx, ny, nz)`: 54 to 288 faces.
const ZOO_CUBE_ARRAYS: [(usize, usize, usize); 7] = [
    (3, 3, 1),
    (3, 2, 2),
    (3, 3, 2),
    (3, 3, 3),
    (4, 3, 3),
    (4, 4, 3),
    (3, 3, 1),
];

/// Tetra-flake levels: 64 or 256 triangles.
const ZOO_FLAKE_LEVELS: [u32; 7] = [2, 2, 2, 2, 3, 3, 3];

/// The zoo's meshes, each fitting a ball of radius about 0.5 about its local origin.
fn zoo_meshes() -> Result<Vec<MeshData>, GeomError> {
    let mut meshes = Vec::with_capacity(30);
    for (slices, stacks) in ZOO_SPHERES {
        meshes.push(sphere(0.5, slices, stacks)?);
    }
    for (segments, sides) in ZOO_TORI {
        meshes.push(torus(0.35, 0.15, segments, sides)?);
    }
    for (nx, ny, nz) in ZOO_CUBE_ARRAYS {
        // Gap = half the cube edge; the longest side of the array is 0.6.
        let n = nx.max(ny).max(nz) as f64;
        let size = 1.2 / (3.0 * n - 1.0);
        meshes.push(cube_array(nx, ny, nz, size, 0.5 * size)?);
    }
    for level in ZOO_FLAKE_LEVELS {
        meshes.push(tetra_flake(level, 0.3)?);
    }
    Ok(meshes)
}

fn zoo(seed: u64) -> Result<Setup, DemoError> {
    let half = 0.5 * ZOO_CAGE_SIDE;
    let mut rng = SeededRng::new(seed ^ 0x5A00_2005);
    let meshes: Vec<Arc<MeshData>> = zoo_meshes()?.into_iter().map(Arc::new).collect();
    let radii: Vec<f64> = meshes.iter().map(|m| bounding_radius(m)).collect();
    let centres = disjoint_centres(&radii, half, PLACEMENT_ATTEMPTS, &mut rng)
        .ok_or(DemoError::Placement { side: 2.0 * half })?;
    let mut objects: Vec<SetupObject> = centres
        .iter()
        .zip(&radii)
        .enumerate()
        .map(|(mesh, (c, &r))| SetupObject {
            mesh,
            pose: Pose::from_parts(Translation3::from(c.coords), rng.rotation()),
            motion: random_motion(r, &mut rng),
            wall: false,
        })
        .collect();
    let mut meshes = meshes;
    let universe = add_cage_walls(half, WALL_THICKNESS, &mut meshes, &mut objects)?;
    Ok(Setup {
        name: Preset::ThesisZoo.name().to_string(),
        meshes,
        objects,
        cage_half: half,
        universe,
        resolution: 8,
        frames: THESIS_ZOO.frames,
        thesis: Some(&THESIS_ZOO),
    })
}

fn one_mover(seed: u64) -> Result<Setup, DemoError> {
    const CELLS: usize = 8;
    let half = 0.5 * ONE_MOVER_CAGE_SIDE;
    let cell = ONE_MOVER_CAGE_SIDE / CELLS as f64;
    let mut rng = SeededRng::new(seed ^ 0x0001_0500);
    let flake = tetra_flake(2, 0.12)?;
    let mover = sphere(0.2, 5, 4)?;
    let flake_radius = bounding_radius(&flake);
    // A flake stays inside its cell: centre jitter + radius < cell / 2.
    let jitter = 0.5 * cell - flake_radius - 0.1 * cell;
    let mover_radius = bounding_radius(&mover);
    let mut cells: Vec<PointD> = (0..CELLS * CELLS * CELLS)
        .map(|i| {
            let at = |k: usize| (k as f64 + 0.5) * cell - half;
            PointD::new(
                at(i % CELLS),
                at(i / CELLS % CELLS),
                at(i / (CELLS * CELLS)),
            )
        })
        .collect();
    // The cells nearest the centre stay empty (stable sort: ties keep lattice order).
    cells.sort_by(|a, b| a.coords.norm().total_cmp(&b.coords.norm()));
    let filled = &cells[cells.len() - ONE_MOVER_FLAKES..];
    let mut objects = vec![SetupObject {
        mesh: 0,
        pose: Pose::from_parts(Translation3::identity(), rng.rotation()),
        motion: random_motion(mover_radius, &mut rng),
        wall: false,
    }];
    for c in filled {
        let t = c.coords + rng.unit_vector().into_inner() * rng.range(0.0, jitter);
        objects.push(SetupObject {
            mesh: 1,
            pose: Pose::from_parts(Translation3::from(t), rng.rotation()),
            motion: Motion::Fixed,
            wall: false,
        });
    }
    let mut meshes = vec![Arc::new(mover), Arc::new(flake)];
    let universe = add_cage_walls(half, WALL_THICKNESS, &mut meshes, &mut objects)?;
    Ok(Setup {
        name: Preset::OneMover.name().to_string(),
        meshes,
        objects,
        cage_half: half,
        universe,
        resolution: 8,
        frames: THESIS_ONE_MOVER.frames,
        thesis: Some(&THESIS_ONE_MOVER),
    })
}
