//! `peers`: plays the shared scene files through colldet, parry3d-f64 and parry3d in `f32` (its
//! fastest configuration, on the scene rounded to `f32`) and prints, per scene, ms per frame
//! (median) with the broad/narrow split, the ratio to colldet and the colliding-pair totals (a visible DISAGREE when they differ, with `--explain` the differing
//! pairs of the first such frame), then a Markdown summary. With `--ccd`, the CCD scenes instead:
//! every frame interval through colldet's continuous check and parry3d-f64's shape casts, scored
//! against the certified expected hits (found, missed, false, ms per interval).

use std::path::PathBuf;
use std::process::ExitCode;

use colldet_benches::ccd::{self, CCD_SCENES, CcdExpected};
use colldet_benches::explain::differences_at;
use colldet_benches::report::{first_difference, markdown_row, scene_table, totals_agree};
use colldet_benches::scenes::{PEER_SCENES, default_scene_dir, resolve};
use colldet_benches::{ColldetPeer, ParryF32Peer, ParryPeer, PeerError, PeerScene, play};
use colldet_world::Config;

const USAGE: &str =
    "usage: peers [--scenes DIR] [--frames N] [--threads N] [--explain] [--ccd] [SCENE ...]
  SCENE is a scene file or a name in DIR (default: ../shared/scenes beside the workspace);
  without SCENE, every peer scene present in DIR: cw-*, mesh-zoo, broad-10k, broad-100k.
  --threads N: colldet's narrow-phase threads (default 1, as parry runs on one thread).
  --explain: when the totals differ, list the pairs of the first differing frame with parry's
  distance and colldet's touching band. Exit status 1 only when a scene cannot be played.
  --ccd: continuous collision on the CCD scenes (default ccd-bullets, ccd-spinners), scored
  against DIR/NAME.ccd-expected.txt: hits found, missed (certified hits not found), false
  (found, certified miss; `A` lines accepted either way), ms per frame interval (median).";

struct Options {
    dir: PathBuf,
    frames: Option<u32>,
    threads: usize,
    explain: bool,
    ccd: bool,
    scenes: Vec<String>,
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut options = Options {
        dir: default_scene_dir(),
        frames: None,
        threads: 1,
        explain: false,
        ccd: false,
        scenes: Vec::new(),
    };
    let number = |flag: &str, value: Option<String>| -> Result<u64, String> {
        let value = value.ok_or(format!("{flag} needs a value"))?;
        value
            .parse()
            .map_err(|_| format!("{flag}: `{value}` is not a non-negative integer"))
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--scenes" => options.dir = PathBuf::from(args.next().ok_or("--scenes needs a DIR")?),
            "--frames" => {
                options.frames = Some(
                    u32::try_from(number(&arg, args.next())?).map_err(|_| "--frames too large")?,
                )
            }
            "--threads" => {
                options.threads = usize::try_from(number(&arg, args.next())?)
                    .map_err(|_| "--threads too large")?
            }
            "--explain" => options.explain = true,
            "--ccd" => options.ccd = true,
            "-h" | "--help" => return Err(String::new()),
            flag if flag.starts_with("--") => return Err(format!("unknown option `{flag}`")),
            scene => options.scenes.push(scene.to_string()),
        }
    }
    Ok(options)
}

/// Plays one scene through both libraries; returns whether their totals agree.
fn compare(path: &std::path::Path, options: &Options) -> Result<(bool, String), PeerError> {
    let scene = PeerScene::load(path)?;
    let config = Config {
        threads: options.threads,
        ..Config::default()
    };
    let colldet = play(
        &mut ColldetPeer::new(&scene, config.clone())?,
        &scene,
        options.frames,
    )?;
    let parry = play(&mut ParryPeer::new(&scene)?, &scene, options.frames)?;
    let parry_f32 = play(&mut ParryF32Peer::new(&scene)?, &scene, options.frames)?;
    let runs = [colldet, parry, parry_f32];
    print!(
        "{}",
        scene_table(
            scene.name(),
            scene.object_count(),
            runs[0].frame_ms.len(),
            &runs
        )
    );
    if options.explain
        && let Some((frame, _, _)) = first_difference(&runs[0], &runs[1])
    {
        let frame = u32::try_from(frame).unwrap_or(u32::MAX);
        for d in differences_at(&scene, frame, config)? {
            println!(
                "  frame {frame} pair {}-{}: {} colliding, parry distance {:.3e}, colldet band {:.3e}",
                d.pair.0,
                d.pair.1,
                if d.colldet_colliding {
                    "colldet"
                } else {
                    "parry"
                },
                d.parry_distance,
                d.band
            );
        }
    }
    // The exact totals are colldet's and parry3d-f64's; the f32 peer rounds the scene.
    Ok((totals_agree(&runs[..2]), markdown_row(scene.name(), &runs)))
}

/// Plays one CCD scene through colldet and parry and prints its table; returns the Markdown row.
fn compare_ccd(path: &std::path::Path, options: &Options) -> Result<String, PeerError> {
    let scene = PeerScene::load(path)?;
    let expected = CcdExpected::load(&ccd::expected_path(path))?;
    let config = Config {
        threads: options.threads,
        ..Config::default()
    };
    let runs = [
        ccd::play_colldet(&scene, options.frames, config)?,
        ccd::play_parry(&scene, options.frames)?,
    ];
    print!("{}", ccd::ccd_table(scene.name(), &expected, &runs));
    let mut row = format!("| {} |", scene.name());
    for run in &runs {
        let s = run.score(&expected);
        row.push_str(&format!(
            " {} / {} / {} / {:.3} |",
            s.found,
            s.missed,
            s.false_hits,
            run.ms_per_frame()
        ));
    }
    Ok(row)
}

fn main_ccd(options: &Options) -> ExitCode {
    let names: Vec<String> = if options.scenes.is_empty() {
        CCD_SCENES.iter().map(|s| s.to_string()).collect()
    } else {
        options.scenes.clone()
    };
    let paths: Vec<PathBuf> = names.iter().map(|s| resolve(&options.dir, s)).collect();
    if !paths.iter().any(|p| p.is_file()) {
        println!(
            "peers: no CCD scene files in {} (pass --scenes DIR); nothing to compare",
            options.dir.display()
        );
        return ExitCode::SUCCESS;
    }
    println!(
        "CCD: colldet threads: {}; parry3d-f64: 1 thread; times are medians over frame intervals\n",
        options.threads
    );
    let (mut rows, mut failed) = (Vec::new(), false);
    for path in paths
        .iter()
        .filter(|p| p.is_file() || !options.scenes.is_empty())
    {
        match compare_ccd(path, options) {
            Ok(row) => rows.push(row),
            Err(e) => {
                eprintln!("peers: {}: {e}", path.display());
                failed = true;
            }
        }
        println!();
    }
    println!(
        "| scene | colldet found / missed / false / ms | parry3d-f64 found / missed / false / ms |"
    );
    println!("|---|---|---|");
    for row in rows {
        println!("{row}");
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn main() -> ExitCode {
    let options = match parse(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("peers: {message}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    if options.ccd {
        return main_ccd(&options);
    }
    let explicit = !options.scenes.is_empty();
    let paths: Vec<PathBuf> = if explicit {
        options
            .scenes
            .iter()
            .map(|s| resolve(&options.dir, s))
            .collect()
    } else {
        let present: Vec<PathBuf> = PEER_SCENES
            .iter()
            .map(|s| resolve(&options.dir, s))
            .filter(|p| p.is_file())
            .collect();
        if present.is_empty() {
            println!(
                "peers: no scene files in {} (pass --scenes DIR); nothing to compare",
                options.dir.display()
            );
            return ExitCode::SUCCESS;
        }
        present
    };
    println!(
        "colldet threads: {}; parry3d-f64: 1 thread; times are medians over frames\n",
        options.threads
    );
    let (mut rows, mut failed, mut disagreements) = (Vec::new(), false, 0);
    for path in &paths {
        match compare(path, &options) {
            Ok((agree, row)) => {
                disagreements += usize::from(!agree);
                rows.push(row);
            }
            Err(e) => {
                eprintln!("peers: {}: {e}", path.display());
                failed = true;
            }
        }
        println!();
    }
    println!(
        "| scene | colldet ms/frame | parry3d-f64 ms/frame | parry3d-f32 ms/frame | f64 / colldet | f32 / colldet | pairs total |"
    );
    println!("|---|---|---|---|---|---|---|");
    for row in rows {
        println!("{row}");
    }
    if disagreements > 0 {
        println!("\nDISAGREE on {disagreements} scene(s)");
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
