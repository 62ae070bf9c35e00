//! The `colldet` command line as scripts and people meet it: `--help` and `--version` on the
//! command and each subcommand (status 0, on standard output), usage errors (status 2, one
//! `colldet:` line naming the option first), runtime errors (status 1), and the invocations that
//! worked before the clap parser still giving the same figures.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const VERSION: &str = env!("CARGO_PKG_VERSION");

fn colldet(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_colldet"))
        .args(args)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// `colldet ARGS` must end with `status`; its standard output and standard error.
fn expect(status: i32, args: &[&str]) -> (String, String) {
    let output = colldet(args);
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert_eq!(
        output.status.code(),
        Some(status),
        "{args:?}\nstdout: {stdout}\nstderr: {stderr}"
    );
    (stdout, stderr)
}

/// A usage error: status 2, nothing on standard output, the first line of standard error.
fn usage_error(args: &[&str]) -> String {
    let (stdout, stderr) = expect(2, args);
    assert!(stdout.is_empty(), "{args:?}: {stdout}");
    let first = stderr.lines().next().unwrap_or_default().to_string();
    assert!(first.starts_with("colldet: "), "{args:?}: {stderr}");
    first
}

/// A scene of three unit cubes at rest (0 and 1 overlap, 2 apart) and one cube moving 4 units
/// per frame along y through cube 2: it overlaps 2 at frame 1 only.
fn write_scene(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let cube = "OFF\n8 12 0\n\
        -0.5 -0.5 -0.5\n0.5 -0.5 -0.5\n0.5 0.5 -0.5\n-0.5 0.5 -0.5\n\
        -0.5 -0.5 0.5\n0.5 -0.5 0.5\n0.5 0.5 0.5\n-0.5 0.5 0.5\n\
        3 0 2 1\n3 0 3 2\n3 4 5 6\n3 4 6 7\n3 0 1 5\n3 0 5 4\n\
        3 2 3 7\n3 2 7 6\n3 1 2 6\n3 1 6 5\n3 0 4 7\n3 0 7 3\n";
    std::fs::write(dir.join("cube.off"), cube).unwrap();
    let scene = "colldet-scene 1\nname cubes\nbox -10 -10 -10 10 10 10\nframes 3\nmeshes 1\n\
        mesh 0 cube.off 1\nobjects 4\n\
        obj 0 0 0 0 0 0 0 0 0 0 0 0 0\n\
        obj 0 0.8 0 0 0 0 0 0 0 0 0 0 0\n\
        obj 0 5 0 0 0 0 0 0 0 0 0 0 0\n\
        obj 0 5 -4 0 0 4 0 0 0 0 0 0 0\n";
    let path = dir.join("cubes.scene");
    std::fs::write(&path, scene).unwrap();
    path
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("colldet-cli-{name}-{}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    dir
}

#[test]
fn help_lists_every_subcommand_and_the_exit_statuses() {
    for args in [&["--help"][..], &["help"], &["-h"]] {
        let (stdout, stderr) = expect(0, args);
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
        assert!(stdout.contains("Usage: colldet <COMMAND>"), "{stdout}");
        for command in ["run", "demo", "info"] {
            assert!(
                stdout.lines().any(|l| l.trim_start().starts_with(command)),
                "{command} missing: {stdout}"
            );
        }
    }
    let (long, _) = expect(0, &["--help"]);
    assert!(long.contains("Exit status:"), "{long}");
    assert!(long.contains("  2  usage error"), "{long}");
    assert!(long.contains("  1  the command failed"), "{long}");
}

#[test]
fn every_subcommand_has_help_with_its_options() {
    let cases: [(&str, &[&str]); 3] = [
        (
            "run",
            &[
                "Usage: colldet run [OPTIONS] <SCENE>",
                "--broadphase <sap|grid|octree|tree|none>",
                "--method <auto|convex|arbitrary|boxtree|sv|gjk|none>",
                "--threads <N>",
                "--resolution <N>",
                "--frames <N>",
                "--json",
                "--pairs-out <FILE>",
                "--ccd",
                "--hits-out <FILE>",
                "--ttc",
                "--ttc-measured",
            ],
        ),
        (
            "demo",
            &[
                "Usage: colldet demo [OPTIONS]",
                "--preset <thesis-zoo|one-mover>",
                "--shape <ellipsoid|rod|plate|mixed>",
                "--objects <N>",
                "--vertices <N>",
                "--frames <N>",
                "--seed <S>",
                "--broadphase <sap|grid|octree|tree|none>",
                "--method <auto|convex|arbitrary|boxtree|sv|gjk|none>",
                "--threads <N>",
                "--report <DIR>",
            ],
        ),
        (
            "info",
            &["Usage: colldet info [OPTIONS] <MESH>", "--no-weld"],
        ),
    ];
    for (command, expected) in cases {
        let help_forms = [
            vec![command, "--help"],
            vec![command, "-h"],
            vec!["help", command],
        ];
        for args in help_forms {
            let (stdout, stderr) = expect(0, &args);
            assert!(stderr.is_empty(), "{args:?}: {stderr}");
            for line in expected {
                assert!(stdout.contains(line), "{args:?} lacks {line}:\n{stdout}");
            }
        }
    }
    // Ranges and defaults are in the help.
    let (demo, _) = expect(0, &["demo", "--help"]);
    for fact in [
        "1 to 100000",
        "4 to 100000",
        "1 to 10000000",
        "0 (all cores) to 1024",
        "[default: 500]",
        "[default: ellipsoid]",
    ] {
        assert!(demo.contains(fact), "{fact}: {demo}");
    }
}

#[test]
fn version_on_the_command_and_every_subcommand() {
    for args in [
        &["--version"][..],
        &["-V"],
        &["run", "--version"],
        &["demo", "--version"],
        &["info", "--version"],
    ] {
        let (stdout, stderr) = expect(0, args);
        assert_eq!(stdout, format!("colldet {VERSION}\n"), "{args:?}");
        assert!(stderr.is_empty());
    }
}

#[test]
fn unknown_options_and_subcommands_are_usage_errors() {
    assert_eq!(
        usage_error(&["run", "x.scene", "--fast"]),
        "colldet: unknown option `--fast`"
    );
    assert_eq!(
        usage_error(&["demo", "--object", "3"]),
        "colldet: unknown option `--object`"
    );
    assert_eq!(
        usage_error(&["info", "--weld", "m.off"]),
        "colldet: unknown option `--weld`"
    );
    assert_eq!(
        usage_error(&["--verbose"]),
        "colldet: unknown option `--verbose`"
    );
    assert_eq!(
        usage_error(&["play"]),
        "colldet: unknown subcommand `play` (run, demo, info)"
    );
    // A close misspelling gets clap's suggestion.
    let (_, stderr) = expect(2, &["demo", "--frame", "3"]);
    assert!(stderr.contains("'--frames'"), "{stderr}");
    // No subcommand at all: the short help, as a usage error.
    let (stdout, stderr) = expect(2, &[]);
    assert!(stdout.is_empty());
    assert!(stderr.contains("Usage: colldet <COMMAND>"), "{stderr}");
}

#[test]
fn missing_values_and_arguments_are_usage_errors() {
    for (args, names) in [
        (&["run"][..], "<SCENE>"),
        (&["info"], "<MESH>"),
        (&["info", "--no-weld"], "<MESH>"),
        (&["run", "x.scene", "--frames"], "--frames"),
        (&["run", "x.scene", "--pairs-out"], "--pairs-out"),
        (&["demo", "--report"], "--report"),
        (&["demo", "--preset"], "--preset"),
    ] {
        let (_, stderr) = expect(2, args);
        assert!(
            stderr.starts_with("colldet: ") && stderr.contains(names),
            "{args:?}: {stderr}"
        );
    }
    assert_eq!(
        usage_error(&["info", "a.off", "b.off"]),
        "colldet: unexpected argument `b.off`"
    );
    // --hits-out needs --ccd; --preset excludes the Chung-Wang options.
    let (_, stderr) = expect(2, &["run", "x.scene", "--hits-out", "h.txt"]);
    assert!(stderr.contains("--ccd"), "{stderr}");
    for option in ["--shape", "--objects", "--vertices"] {
        let value = if option == "--shape" { "rod" } else { "10" };
        let first = usage_error(&["demo", "--preset", "one-mover", option, value]);
        assert!(
            first.contains(&format!("'{option} ")) && first.contains("'--preset "),
            "{first}"
        );
    }
}

#[test]
fn numbers_out_of_range_or_malformed_name_the_option_and_its_range() {
    for (args, message) in [
        (
            &["demo", "--frames", "0"][..],
            "--frames: 0 is out of range: 1 to 10000000",
        ),
        (
            &["run", "x.scene", "--frames", "10000001"],
            "--frames: 10000001 is out of range: 1 to 10000000",
        ),
        (
            &["run", "x.scene", "--frames", "-5"],
            "--frames: -5 is out of range: 1 to 10000000",
        ),
        (
            &["demo", "--objects", "0"],
            "--objects: 0 is out of range: 1 to 100000",
        ),
        (
            &["demo", "--objects", "5000000"],
            "--objects: 5000000 is out of range: 1 to 100000",
        ),
        (
            &["demo", "--vertices", "3"],
            "--vertices: 3 is out of range: 4 to 100000",
        ),
        (
            &["demo", "--threads", "1025"],
            "--threads: 1025 is out of range: 0 to 1024 (0 means all cores)",
        ),
        (
            &["run", "x.scene", "--threads", "99999999999"],
            "--threads: 99999999999 is out of range: 0 to 1024 (0 means all cores)",
        ),
        (
            &["run", "x.scene", "--resolution", "0"],
            "--resolution: 0 is out of range: 1 to 128",
        ),
        (
            &["run", "x.scene", "--resolution", "129"],
            "--resolution: 129 is out of range: 1 to 128",
        ),
        (
            &["demo", "--frames", "ten"],
            "--frames: `ten` is not a valid number: 1 to 10000000",
        ),
        (
            &["demo", "--seed", "-1"],
            "--seed: -1 is out of range: 0 to 18446744073709551615",
        ),
        (
            &["demo", "--seed", "1.5"],
            "--seed: `1.5` is not a valid number: 0 to 18446744073709551615",
        ),
        (
            &["run", "x.scene", "--broadphase", "kd"],
            "unknown broad phase `kd` (sap, grid, octree, tree, none)",
        ),
        (
            &["demo", "--shape", "cube"],
            "unknown shape `cube` (ellipsoid, rod, plate, mixed)",
        ),
    ] {
        assert_eq!(usage_error(args), format!("colldet: {message}"), "{args:?}");
    }
    // Checked before the scene is read: a usage error even when the file is missing.
    let first = usage_error(&["run", "/nonexistent.scene", "--frames", "0"]);
    assert!(first.contains("--frames"), "{first}");
}

#[test]
fn failed_commands_keep_status_1() {
    let (stdout, stderr) = expect(1, &["run", "/nonexistent.scene"]);
    assert!(stdout.is_empty());
    assert!(
        stderr.starts_with("colldet: cannot read /nonexistent.scene"),
        "{stderr}"
    );
    let (_, stderr) = expect(1, &["info", "/nonexistent.off"]);
    assert!(
        stderr.starts_with("colldet: /nonexistent.off: "),
        "{stderr}"
    );
}

#[test]
fn existing_invocations_still_work() {
    let dir = temp_dir("invocations");
    let scene = write_scene(&dir);
    let scene = scene.to_str().unwrap();

    // Discrete: cubes 0-1 collide in every frame, 2-3 at frame 1.
    let pairs = dir.join("pairs.txt");
    let (stdout, _) = expect(
        0,
        &[
            "run",
            scene,
            "--threads",
            "1",
            "--frames",
            "100",
            "--json",
            "--pairs-out",
            pairs.to_str().unwrap(),
        ],
    );
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(json["scene"], "cubes");
    assert_eq!(json["objects"], 4);
    assert_eq!(json["frames"], 3);
    assert_eq!(json["pairs_colliding_total"], 4);
    assert_eq!(
        std::fs::read_to_string(&pairs).unwrap(),
        "0-1\n0-1 2-3\n0-1\n"
    );
    // Options before the scene, `=` values, a prefix of the frames; an option given twice takes
    // its last value (as before clap).
    let (stdout, _) = expect(
        0,
        &[
            "run",
            "--frames",
            "1",
            "--broadphase=grid",
            "--method",
            "gjk",
            "--resolution",
            "8",
            "--frames=2",
            scene,
            "--json",
            "--json",
        ],
    );
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        (
            json["frames"].clone(),
            json["pairs_colliding_total"].clone()
        ),
        (2.into(), 3.into())
    );
    // The table.
    let (stdout, _) = expect(0, &["run", scene, "--threads", "1"]);
    assert!(stdout.contains("cubes"), "{stdout}");

    // Continuous: the mover touches cube 2 during [0, 1] and [1, 2].
    let hits = dir.join("hits.txt");
    let (stdout, _) = expect(
        0,
        &[
            "run",
            scene,
            "--ccd",
            "--hits-out",
            hits.to_str().unwrap(),
            "--json",
        ],
    );
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(json["ccd_hits_total"], 2);
    assert_eq!(json["ccd_tunnels_total"], 0);
    assert_eq!(std::fs::read_to_string(&hits).unwrap(), "0 3 2\n1 3 2\n");

    // Scheduled by time to collision: the same pairs, and the schedule's counters.
    for flag in ["--ttc", "--ttc-measured"] {
        let (stdout, _) = expect(0, &["run", scene, flag, "--json"]);
        let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(json["pairs_colliding_total"], 4, "{flag}");
        assert!(json["pairs_ttc_skipped_total"].is_u64(), "{stdout}");
        assert!(json["ttc_distances_total"].is_u64(), "{stdout}");
        assert_eq!(json["ttc_bound_violations_total"], 0, "{stdout}");
    }
    let (_, stderr) = expect(2, &["run", scene, "--ttc", "--ttc-measured"]);
    assert!(stderr.contains("--ttc"), "{stderr}");

    // info, with and without welding.
    let mesh = dir.join("cube.off");
    let mesh = mesh.to_str().unwrap();
    for args in [
        &["info", mesh][..],
        &["info", "--no-weld", mesh],
        &["info", mesh, "--no-weld"],
    ] {
        let (stdout, _) = expect(0, args);
        assert!(
            stdout.contains("convex          true"),
            "{args:?}: {stdout}"
        );
        assert!(stdout.contains("faces           12"), "{stdout}");
    }

    // demo, small, and a preset for two frames.
    let (stdout, stderr) = expect(
        0,
        &[
            "demo",
            "--shape",
            "rod",
            "--objects",
            "12",
            "--vertices",
            "20",
            "--frames",
            "3",
            "--seed",
            "7",
            "--threads",
            "1",
            "--broadphase",
            "tree",
            "--method",
            "sv",
        ],
    );
    assert!(
        stdout.contains("Chung-Wang demo: 12 x 3 rod (20 vertices each)"),
        "{stdout}"
    );
    assert!(stderr.contains("demo frame 3/3 100%"), "{stderr}");
    let (stdout, _) = expect(
        0,
        &[
            "demo",
            "--preset",
            "one-mover",
            "--frames",
            "2",
            "--threads",
            "1",
        ],
    );
    assert!(stdout.contains("preset one-mover"), "{stdout}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn demo_reports_its_setup_before_the_frames() {
    let (_, stderr) = expect(
        0,
        &[
            "demo",
            "--objects",
            "30",
            "--vertices",
            "30",
            "--frames",
            "4",
            "--threads",
            "1",
        ],
    );
    let lines: Vec<&str> = stderr.lines().collect();
    // Not a terminal: one line per milestone, then the frame lines.
    assert!(
        lines[0].starts_with("demo setup: meshes 8/8  elapsed "),
        "{stderr}"
    );
    assert!(
        lines[1].starts_with("demo setup: objects 30/30 added  elapsed "),
        "{stderr}"
    );
    assert!(
        lines[2].starts_with("demo setup: placing without overlap: attempt 1, box side "),
        "{stderr}"
    );
    let ready = lines
        .iter()
        .position(|l| l.starts_with("demo setup: ready: 30 objects without overlap, box side "))
        .expect("a ready line");
    let first_frame = lines
        .iter()
        .position(|l| l.starts_with("demo frame "))
        .expect("frame lines");
    assert_eq!(first_frame, ready + 1, "{stderr}");
    assert!(
        lines[first_frame..]
            .iter()
            .all(|l| l.starts_with("demo frame "))
    );
    assert!(lines.last().unwrap().starts_with("demo frame 4/4 100%"));

    // A preset: its setup, then its frames.
    let (_, stderr) = expect(
        0,
        &[
            "demo",
            "--preset",
            "thesis-zoo",
            "--frames",
            "2",
            "--threads",
            "1",
        ],
    );
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(
        lines[0].starts_with("thesis-zoo setup: meshes 31/31  elapsed "),
        "{stderr}"
    );
    assert!(
        lines[1].starts_with("thesis-zoo setup: objects 36/36 added"),
        "{stderr}"
    );
    assert!(
        lines[2].starts_with("thesis-zoo setup: ready: 36 objects without overlap, box side 5.000"),
        "{stderr}"
    );
    assert!(lines[3].starts_with("thesis-zoo frame 1/2"), "{stderr}");
}
