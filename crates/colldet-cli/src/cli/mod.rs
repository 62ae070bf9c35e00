//! The `colldet` command line, declared with clap's derive API: subcommands, options, their
//! bounds and help texts. `src/bin/colldet.rs` parses with [`Cli`] and runs the subcommand;
//! [`usage`] turns a parse failure into colldet's message and exit status.
//!
//! Every name here is a contract with scripts (docs/runner.md): subcommands `run`, `demo`,
//! `info`; options and positionals as listed in each `*Args`.

pub mod usage;
pub mod values;

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use colldet_world::{BroadPhaseKind, MAX_RESOLUTION, MAX_THREADS, Method};

use crate::demo::{DemoShape, Preset};
use values::Bound;

/// Most frames `--frames` accepts (a run of that many takes hours even for small scenes).
pub const MAX_FRAMES: u64 = 10_000_000;

/// Most objects `demo --objects` accepts.
pub const MAX_OBJECTS: u64 = 100_000;

/// Most random surface points per mesh `demo --vertices` accepts.
pub const MAX_VERTICES: u64 = 100_000;

/// `--frames` of `run` and `demo`.
pub const FRAMES: Bound = Bound {
    flag: "--frames",
    min: 1,
    max: MAX_FRAMES,
    note: None,
};

/// `--threads` of `run` and `demo`: the worker threads a world accepts.
pub const THREADS: Bound = Bound {
    flag: "--threads",
    min: 0,
    max: MAX_THREADS as u64,
    note: Some("0 means all cores"),
};

/// `run --resolution`: the cells per axis a grid or octree accepts.
pub const RESOLUTION: Bound = Bound {
    flag: "--resolution",
    min: 1,
    max: MAX_RESOLUTION as u64,
    note: None,
};

/// `demo --objects`.
pub const OBJECTS: Bound = Bound {
    flag: "--objects",
    min: 1,
    max: MAX_OBJECTS,
    note: None,
};

/// `demo --vertices` (a hull needs 4 points).
pub const VERTICES: Bound = Bound {
    flag: "--vertices",
    min: 4,
    max: MAX_VERTICES,
    note: None,
};

/// `demo --seed`: any 64-bit value.
pub const SEED: Bound = Bound {
    flag: "--seed",
    min: 0,
    max: u64::MAX,
    note: None,
};

/// Exit statuses, the end of `colldet --help`.
pub const EXIT_STATUS: &str = "\
Exit status:
  0  success, and --help or --version
  1  the command failed: unreadable or malformed scene or mesh file, a world error, an output
     file that cannot be written
  2  usage error: unknown subcommand or option, missing or invalid value, number out of range

Documentation: docs/runner.md (commands), docs/scenes.md (scene files).";

/// `colldet run --help`'s description.
const RUN_ABOUT: &str = "\
Play a scene file through a world and print its figures: a table, or one JSON object with
--json. Progress goes to standard error.";

/// `colldet demo --help`'s description.
const DEMO_ABOUT: &str = "\
Run the Chung-Wang experiment with no input files: --objects convex hulls of --vertices random
surface points move in a closed box and reverse on collision. --preset runs one of the thesis's
experiments instead. Setup progress, then frame progress, go to standard error.";

/// `colldet info --help`'s description.
const INFO_ABOUT: &str = "\
Load an OFF or OBJ file and print what the reader skipped, the coordinate precision and the
classification (vertices, edges, faces, components, manifold, closed, oriented, convex, ...),
or the error that rejects it (exit status 1).";

/// `colldet`: exact, fast collision detection from the command line.
#[derive(Debug, Parser)]
#[command(
    name = "colldet",
    version,
    propagate_version = true,
    arg_required_else_help = true,
    about = "Exact, fast collision detection: play scene files, run the Chung-Wang demo, \
             classify meshes",
    after_long_help = EXIT_STATUS
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands. Each shows the version as `colldet X.Y.Z` (`display_name`), not clap's
/// `colldet-run X.Y.Z`; an option given twice takes its last value (`args_override_self`), as
/// the hand parser before clap did, so wrappers that append options keep working.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play a scene file through a world and print its figures.
    #[command(display_name = "colldet", args_override_self = true, long_about = RUN_ABOUT)]
    Run(RunArgs),
    /// Run the Chung-Wang experiment with generated shapes, or a thesis preset.
    #[command(display_name = "colldet", args_override_self = true, long_about = DEMO_ABOUT)]
    Demo(DemoArgs),
    /// Print a mesh's classification, or the error that rejects it.
    #[command(display_name = "colldet", args_override_self = true, long_about = INFO_ABOUT)]
    Info(InfoArgs),
}

/// Options of the world shared by `run` and `demo`.
#[derive(Debug, Args)]
pub struct WorldArgs {
    /// Broad phase: sweep-and-prune, uniform grid, octree, dynamic AABB tree, all pairs.
    #[arg(
        long = "broadphase",
        value_name = "sap|grid|octree|tree|none",
        default_value = "sap",
        value_parser = values::broad_phase
    )]
    pub broad_phase: BroadPhaseKind,
    /// Exact test (docs/world.md).
    #[arg(
        long,
        value_name = "auto|convex|arbitrary|boxtree|sv|gjk|none",
        default_value = "auto",
        value_parser = values::method
    )]
    pub method: Method,
    /// Narrow-phase worker threads, 0 (all cores) to 1024.
    #[arg(
        long,
        value_name = "N",
        default_value = "0",
        allow_negative_numbers = true,
        value_parser = THREADS.parser::<usize>()
    )]
    pub threads: usize,
}

/// `colldet run SCENE [options]`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The scene file (docs/scenes.md); its mesh paths are relative to it.
    #[arg(value_name = "SCENE")]
    pub scene: PathBuf,
    /// The world.
    #[command(flatten)]
    pub world: WorldArgs,
    /// Grid cells per axis (finest octree level), 1 to 128.
    #[arg(
        long,
        value_name = "N",
        default_value = "16",
        allow_negative_numbers = true,
        value_parser = RESOLUTION.parser::<u32>()
    )]
    pub resolution: u32,
    /// Play only the first N frames (1 to 10000000) [default: all].
    #[arg(
        long,
        value_name = "N",
        allow_negative_numbers = true,
        value_parser = FRAMES.parser::<u32>()
    )]
    pub frames: Option<u32>,
    /// Print the summary as one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Write one line per frame: the colliding pairs as `a-b`, sorted.
    #[arg(long, value_name = "FILE")]
    pub pairs_out: Option<PathBuf>,
    /// Continuous check: frame 0 discretely, every later frame over the interval from the last.
    #[arg(long)]
    pub ccd: bool,
    /// With --ccd: write one line per hit, `f mover static`, sorted.
    #[arg(long, value_name = "FILE", requires = "ccd")]
    pub hits_out: Option<PathBuf>,
    /// Schedule pair tests by time to collision, each object bounded by its scene velocity
    /// (docs/world.md); the summary counts the tests saved.
    #[arg(long, conflicts_with = "ttc_measured")]
    pub ttc: bool,
    /// As --ttc, with each object's motion measured by the world instead.
    #[arg(long)]
    pub ttc_measured: bool,
}

/// `colldet demo [options]`.
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Run a thesis experiment instead of the Chung-Wang demo.
    #[arg(
        long,
        value_name = "thesis-zoo|one-mover",
        value_parser = values::preset,
        conflicts_with_all = ["shape", "objects", "vertices"]
    )]
    pub preset: Option<Preset>,
    /// Shape of the objects (mixed: the three in turn).
    #[arg(
        long,
        value_name = "ellipsoid|rod|plate|mixed",
        default_value = "ellipsoid",
        value_parser = values::shape
    )]
    pub shape: DemoShape,
    /// Number of objects, 1 to 100000.
    #[arg(
        long,
        value_name = "N",
        default_value = "500",
        allow_negative_numbers = true,
        value_parser = OBJECTS.parser::<usize>()
    )]
    pub objects: usize,
    /// Random surface points per mesh (the hull may keep fewer), 4 to 100000.
    #[arg(
        long,
        value_name = "N",
        default_value = "500",
        allow_negative_numbers = true,
        value_parser = VERTICES.parser::<usize>()
    )]
    pub vertices: usize,
    /// Frames to play, 1 to 10000000 [default: 300; a preset's: the thesis's count].
    #[arg(
        long,
        value_name = "N",
        allow_negative_numbers = true,
        value_parser = FRAMES.parser::<u32>()
    )]
    pub frames: Option<u32>,
    /// Seed of meshes, placement and motion.
    #[arg(
        long,
        value_name = "S",
        default_value = "1",
        allow_negative_numbers = true,
        value_parser = SEED.parser::<u64>()
    )]
    pub seed: u64,
    /// The world.
    #[command(flatten)]
    pub world: WorldArgs,
    /// Write DIR/index.html: the summary and three plots.
    #[arg(long, value_name = "DIR")]
    pub report: Option<PathBuf>,
}

/// `colldet info [--no-weld] MESH`.
#[derive(Debug, Args)]
pub struct InfoArgs {
    /// Classify the faces as numbered, without welding coincident vertices.
    #[arg(long)]
    pub no_weld: bool,
    /// The mesh file (OFF or OBJ).
    #[arg(value_name = "MESH")]
    pub mesh: PathBuf,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::demo::DemoOptions;
    use clap::CommandFactory;
    use colldet_world::Config;

    #[test]
    fn the_command_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn defaults_are_the_library_defaults() {
        let Command::Run(run) = Cli::try_parse_from(["colldet", "run", "x.scene"])
            .unwrap()
            .command
        else {
            panic!("not run");
        };
        let config = Config::default();
        assert_eq!(run.world.broad_phase, config.broad_phase);
        assert_eq!(run.world.method, config.method);
        assert_eq!(run.world.threads, config.threads);
        assert_eq!(run.resolution, config.resolution);
        assert_eq!(run.frames, None);
        let Command::Demo(demo) = Cli::try_parse_from(["colldet", "demo"]).unwrap().command else {
            panic!("not demo");
        };
        let options = DemoOptions::default();
        assert_eq!(demo.shape, options.shape);
        assert_eq!(demo.objects, options.objects);
        assert_eq!(demo.vertices, options.vertices);
        assert_eq!(demo.seed, options.seed);
        assert_eq!(demo.world.threads, options.config.threads);
    }

    #[test]
    fn bounds_match_the_world_limits() {
        assert_eq!(THREADS.max, MAX_THREADS as u64);
        assert_eq!(RESOLUTION.max, u64::from(MAX_RESOLUTION));
        // The help texts state the ranges.
        let help = Cli::command()
            .find_subcommand_mut("demo")
            .unwrap()
            .render_help()
            .to_string();
        for range in ["0 (all cores) to 1024", "1 to 100000", "4 to 100000"] {
            assert!(help.contains(range), "{range}: {help}");
        }
    }
}
