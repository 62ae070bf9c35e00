//! The `colldet` command: `colldet run SCENE [options]` plays a scene file and prints its figures;
//! `colldet info [--no-weld] MESH` prints a mesh's classification or the error that rejects it;
//! `colldet demo [options]` runs the Chung-Wang experiment with generated shapes.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use colldet_cli::demo::{Demo, DemoOptions, DemoShape, Preset, PresetOptions};
use colldet_cli::names::{parse_broad_phase, parse_method};
use colldet_cli::progress::Progress;
use colldet_cli::report::{TopViewRecorder, write_report};
use colldet_cli::runner::{RunOptions, run_scene};
use colldet_cli::scene::load_scene;
use colldet_geom::io::{excerpt, load_mesh_with_warnings};
use colldet_geom::{BuildOptions, Polyhedron};
use colldet_world::{Config, MAX_THREADS};

const USAGE: &str = "usage:
  colldet run SCENE [--broadphase sap|grid|octree|tree|none] [--method auto|convex|arbitrary|boxtree|sv|gjk|none]
                    [--threads N] [--frames N] [--resolution N] [--json] [--pairs-out FILE]
                    [--ccd [--hits-out FILE]]
  colldet info [--no-weld] MESH
  colldet demo [--shape ellipsoid|rod|plate|mixed] [--objects N] [--vertices N] [--frames N]
               [--seed S] [--threads N] [--broadphase ...] [--method ...] [--report DIR]
  colldet demo --preset thesis-zoo|one-mover [--frames N] [--seed S] [--threads N]
               [--broadphase ...] [--method ...] [--report DIR]";

fn number<T: std::str::FromStr>(flag: &str, value: Option<String>) -> Result<T, String> {
    let value = value.ok_or(format!("{flag} needs a value"))?;
    value
        .parse()
        .map_err(|_| format!("{flag}: `{}` is not a valid number", excerpt(&value)))
}

/// The value of `--threads`: 0 (all cores) to [`MAX_THREADS`], as the C API accepts.
fn threads(flag: &str, value: Option<String>) -> Result<usize, String> {
    let threads: usize = number(flag, value)?;
    if threads > MAX_THREADS {
        return Err(format!(
            "{flag}: {threads} is more than the {MAX_THREADS} worker threads a world accepts \
             (0 means all cores)"
        ));
    }
    Ok(threads)
}

fn run(mut args: impl Iterator<Item = String>) -> Result<(), String> {
    let scene = PathBuf::from(args.next().ok_or("run needs a scene file")?);
    let mut config = Config::default();
    let (mut frames, mut json, mut pairs_out) = (None, false, None);
    let (mut ccd, mut hits_out) = (false, None);
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--broadphase" => {
                config.broad_phase = parse_broad_phase(&args.next().unwrap_or_default())?
            }
            "--method" => config.method = parse_method(&args.next().unwrap_or_default())?,
            "--threads" => config.threads = threads(&flag, args.next())?,
            "--resolution" => config.resolution = number(&flag, args.next())?,
            "--frames" => frames = Some(number(&flag, args.next())?),
            "--json" => json = true,
            "--ccd" => ccd = true,
            "--hits-out" => {
                hits_out = Some(PathBuf::from(args.next().ok_or("--hits-out needs a file")?))
            }
            "--pairs-out" => {
                pairs_out = Some(PathBuf::from(
                    args.next().ok_or("--pairs-out needs a file")?,
                ))
            }
            other => return Err(format!("unknown option `{}`", excerpt(other))),
        }
    }
    // Read the scene first, so a bad scene leaves no empty pairs file behind.
    let scene = load_scene(&scene).map_err(|e| e.to_string())?;
    let mut file = match &pairs_out {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?,
        )),
        None => None,
    };
    if hits_out.is_some() && !ccd {
        return Err("--hits-out needs --ccd".into());
    }
    let options = RunOptions {
        config,
        frames,
        ccd,
    };
    let total = frames.map_or(scene.frames, |f| f.min(scene.frames));
    let mut progress = Progress::stderr(&scene.name, total);
    let out = file.as_mut().map(|f| f as &mut dyn Write);
    let summary = run_scene(&scene, &options, out, |done, _| progress.update(done))
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

fn demo(mut args: impl Iterator<Item = String>) -> Result<(), String> {
    let mut options = DemoOptions::default();
    let (mut preset, mut frames, mut chung_wang_only, mut report) = (None, None, None, None);
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--preset" => {
                let name = args.next().unwrap_or_default();
                preset = Some(Preset::from_name(&name).ok_or(format!(
                    "unknown preset `{}` (thesis-zoo, one-mover)",
                    excerpt(&name)
                ))?)
            }
            "--shape" => {
                chung_wang_only = Some("--shape");
                options.shape = match args.next().unwrap_or_default().as_str() {
                    "ellipsoid" => DemoShape::Ellipsoid,
                    "rod" => DemoShape::Rod,
                    "plate" => DemoShape::Plate,
                    "mixed" => DemoShape::Mixed,
                    other => return Err(format!("unknown shape `{}`", excerpt(other))),
                }
            }
            "--objects" => {
                chung_wang_only = Some("--objects");
                options.objects = number(&flag, args.next())?
            }
            "--vertices" => {
                chung_wang_only = Some("--vertices");
                options.vertices = number(&flag, args.next())?
            }
            "--frames" => frames = Some(number(&flag, args.next())?),
            "--report" => {
                report = Some(PathBuf::from(
                    args.next().ok_or("--report needs a directory")?,
                ))
            }
            "--seed" => options.seed = number(&flag, args.next())?,
            "--threads" => options.config.threads = threads(&flag, args.next())?,
            "--broadphase" => {
                options.config.broad_phase = parse_broad_phase(&args.next().unwrap_or_default())?
            }
            "--method" => options.config.method = parse_method(&args.next().unwrap_or_default())?,
            other => return Err(format!("unknown option `{}`", excerpt(other))),
        }
    }
    let (mut demo, label, total) = match preset {
        Some(preset) => {
            if let Some(flag) = chung_wang_only {
                return Err(format!("{flag} does not apply to presets"));
            }
            let options = PresetOptions {
                preset,
                frames,
                seed: options.seed,
                config: options.config,
            };
            let demo = Demo::from_preset(&options).map_err(|e| e.to_string())?;
            let total = frames.unwrap_or(preset.thesis().frames);
            (demo, preset.name(), total)
        }
        None => {
            if let Some(frames) = frames {
                options.frames = frames;
            }
            let demo = Demo::new(&options).map_err(|e| e.to_string())?;
            (demo, "demo", options.frames)
        }
    };
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

fn info(args: impl Iterator<Item = String>) -> Result<(), String> {
    let mut options = BuildOptions::default();
    let mut path = None;
    for arg in args {
        match arg.as_str() {
            "--no-weld" => options.weld_coincident_vertices = false,
            other if other.starts_with("--") => {
                return Err(format!("unknown option `{}`", excerpt(other)));
            }
            other if path.is_some() => {
                return Err(format!(
                    "info takes one mesh file, not also `{}`",
                    excerpt(other)
                ));
            }
            _ => path = Some(PathBuf::from(arg)),
        }
    }
    let path = path.ok_or("info needs a mesh file")?;
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
    let mut args = std::env::args().skip(1);
    let result = match args.next().as_deref() {
        Some("run") => run(args),
        Some("info") => info(args),
        Some("demo") => demo(args),
        Some("--help" | "-h" | "help") => {
            println!("{USAGE}");
            Ok(())
        }
        _ => Err(USAGE.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("colldet: {message}");
            ExitCode::FAILURE
        }
    }
}
