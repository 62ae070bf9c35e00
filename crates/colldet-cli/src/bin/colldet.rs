//! The `colldet` command: `colldet run SCENE [options]` plays a scene file and prints its figures;
//! `colldet info [--no-weld] MESH` prints a mesh's classification or the error that rejects it;
//! `colldet demo [options]` runs the Chung-Wang experiment with generated shapes. The command
//! line itself is [`colldet_cli::cli`].

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use colldet_cli::cli::{Cli, Command, DemoArgs, InfoArgs, RunArgs, usage};
use colldet_cli::demo::{Demo, DemoOptions, PresetOptions};
use colldet_cli::progress::Progress;
use colldet_cli::report::{TopViewRecorder, write_report};
use colldet_cli::runner::{RunOptions, TtcBounds, run_scene};
use colldet_cli::scene::load_scene;
use colldet_cli::setup_progress::SetupProgress;
use colldet_geom::io::load_mesh_with_warnings;
use colldet_geom::{BuildOptions, Polyhedron};
use colldet_world::Config;

fn run(args: RunArgs) -> Result<(), String> {
    let config = Config {
        broad_phase: args.world.broad_phase,
        method: args.world.method,
        threads: args.world.threads,
        resolution: args.resolution,
        ..Config::default()
    };
    let RunArgs {
        scene,
        frames,
        json,
        pairs_out,
        ccd,
        hits_out,
        ttc,
        ttc_measured,
        ..
    } = args;
    // Read the scene first, so a bad scene leaves no empty pairs file behind.
    let scene = load_scene(&scene).map_err(|e| e.to_string())?;
    let mut file = match &pairs_out {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?,
        )),
        None => None,
    };
    let options = RunOptions {
        config,
        frames,
        ccd,
        ttc: match (ttc, ttc_measured) {
            (true, _) => Some(TtcBounds::Scene),
            (_, true) => Some(TtcBounds::Measured),
            _ => None,
        },
    };
    let total = frames.map_or(scene.frames, |f| f.min(scene.frames));
    let mut progress = Progress::stderr(&scene.name, total);
    let out = file.as_mut().map(|f| f as &mut dyn Write);
    // The runner reports 0 frames done once the world is built: the ETA starts there.
    let summary = run_scene(&scene, &options, out, |done, _| match done {
        0 => progress.restart(),
        _ => progress.update(done),
    })
    .map_err(|e| e.to_string())?;
    if let Some(mut f) = file {
        f.flush().map_err(|e| e.to_string())?;
    }
    if let (Some(path), Some(ccd)) = (&hits_out, &summary.ccd) {
        let mut text = String::with_capacity(ccd.hits.len() * 16);
        for (f, mover, other) in &ccd.hits {
            text.push_str(&format!("{f} {mover} {other}\n"));
        }
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if json {
        println!("{}", summary.json());
    } else {
        print!("{}", summary.table());
    }
    Ok(())
}

fn demo(args: DemoArgs) -> Result<(), String> {
    let config = Config {
        broad_phase: args.world.broad_phase,
        method: args.world.method,
        threads: args.world.threads,
        ..Config::default()
    };
    let (preset, frames, report) = (args.preset, args.frames, args.report);
    let options = DemoOptions {
        shape: args.shape,
        objects: args.objects,
        vertices: args.vertices,
        frames: frames.unwrap_or(DemoOptions::default().frames),
        seed: args.seed,
        config,
    };
    let label = preset.map_or("demo", |p| p.name());
    let mut setup = SetupProgress::stderr(label);
    let mut report_step = |step| setup.step(step);
    let (mut demo, total) = match preset {
        Some(preset) => {
            let options = PresetOptions {
                preset,
                frames,
                seed: options.seed,
                config: options.config,
            };
            let demo = Demo::from_preset_with_progress(&options, &mut report_step)
                .map_err(|e| e.to_string())?;
            (demo, frames.unwrap_or(preset.thesis().frames))
        }
        None => {
            let demo =
                Demo::with_progress(&options, &mut report_step).map_err(|e| e.to_string())?;
            (demo, options.frames)
        }
    };
    // The frame clock (and so the ETA) starts after the setup.
    let mut progress = Progress::stderr(label, total);
    let mut top_view = TopViewRecorder::default();
    for done in 1..=total {
        demo.step().map_err(|e| e.to_string())?;
        if report.is_some() {
            top_view.observe(&demo);
        }
        progress.update(done);
    }
    print!("{}", demo.summary().table());
    if let Some(dir) = report {
        let path =
            write_report(&dir, demo.summary(), &top_view.into_view()).map_err(|e| e.to_string())?;
        println!("report written to {}", path.display());
    }
    Ok(())
}

fn info(args: InfoArgs) -> Result<(), String> {
    let options = BuildOptions {
        weld_coincident_vertices: !args.no_weld,
        ..BuildOptions::default()
    };
    let path = args.mesh;
    let loaded = load_mesh_with_warnings(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let precision = if loaded.mesh.precise_vertices().is_some() {
        "f64 (some coordinates are not f32 numbers)"
    } else {
        "f32 (every coordinate is an f32 number)"
    };
    let p =
        Polyhedron::build(loaded.mesh, &options).map_err(|e| format!("{}: {e}", path.display()))?;
    let c = p.classification();
    let d = p.dcel();
    println!("mesh            {}", path.display());
    for warning in &loaded.warnings {
        println!("warning         {warning}");
    }
    println!("precision       {precision}");
    println!(
        "vertices        {} ({} distinct positions: {}; {} unused)",
        d.vertex_count(),
        d.vertex_count() - c.duplicate_vertices,
        if c.welded { "welded" } else { "not welded" },
        c.unused_vertices
    );
    println!("edges           {}", d.edge_count());
    println!(
        "faces           {} ({} degenerate dropped)",
        d.face_count(),
        c.degenerate_faces_dropped
    );
    println!("components      {}", c.components);
    println!("euler           {}", c.euler_characteristic);
    println!(
        "manifold        {} ({} non-manifold edges, {} vertices)",
        c.manifold,
        c.non_manifold_edges.len(),
        c.non_manifold_vertices.len()
    );
    println!(
        "closed          {} ({} boundary edges)",
        c.closed, c.boundary_edge_count
    );
    println!(
        "oriented        {} (input consistent: {}, {} faces flipped, inverted fixed: {})",
        c.oriented, c.input_consistently_oriented, c.flipped_faces, c.inverted_fixed
    );
    println!(
        "planar faces    {} ({} not)",
        c.planar_faces,
        c.non_planar_faces.len()
    );
    println!(
        "convex faces    {} ({} not)",
        c.convex_faces,
        c.non_convex_faces.len()
    );
    println!("convex          {}", c.convex);
    println!(
        "internal edges  {} ({} internal vertices)",
        c.internal_edge_count, c.internal_vertex_count
    );
    Ok(())
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let outcome = usage::outcome(&error);
            print!("{}", outcome.stdout);
            eprint!("{}", outcome.stderr);
            return ExitCode::from(outcome.status);
        }
    };
    let result = match cli.command {
        Command::Run(args) => run(args),
        Command::Info(args) => info(args),
        Command::Demo(args) => demo(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("colldet: {message}");
            ExitCode::FAILURE
        }
    }
}
