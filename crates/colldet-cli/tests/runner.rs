//! The scene runner against brute force: a generated scene played through the world must report
//! exactly the colliding pairs an independent all-pairs GJK finds, frame by frame, both through
//! the library and through the `colldet run` command (its `--pairs-out` file and `--json`
//! summary).

use std::fmt::Write as _;
use std::path::Path;

use colldet_cli::runner::{RunOptions, run_scene_file};
use colldet_cli::scene::{load_scene, load_scene_mesh, pose_at};
use colldet_geom::MeshData;
use colldet_geom::math::{Pose, VectorD};
use colldet_narrow::{GjkCache, PointCloud, gjk_intersect};
use colldet_testkit::shapes::{ChungWangShape, chung_wang_polytope, cuboid};
use colldet_testkit::{SeededRng, brute_force_pairs};
use colldet_world::{BroadPhaseKind, Config};
use nalgebra::{Quaternion, Translation3, UnitQuaternion};

fn off_text(mesh: &MeshData) -> String {
    let mut s = format!("OFF\n{} {} 0\n", mesh.vertices.len(), mesh.faces.len());
    for v in &mesh.vertices {
        writeln!(s, "{:?} {:?} {:?}", v.x, v.y, v.z).unwrap();
    }
    for f in mesh.faces.iter() {
        write!(s, "{}", f.len()).unwrap();
        f.iter().for_each(|i| write!(s, " {i}").unwrap());
        s.push('\n');
    }
    s
}

fn write_scene(dir: &Path) -> std::path::PathBuf {
    let meshes = [
        cuboid(VectorD::new(0.4, 0.3, 0.2)).unwrap(),
        chung_wang_polytope(ChungWangShape::Ellipsoid, 60, 3).unwrap(),
        chung_wang_polytope(ChungWangShape::Rod, 40, 4).unwrap(),
    ];
    let mut scene =
        String::from("colldet-scene 1\nname generated\nbox -3 -3 -3 3 3 3\nframes 40\nmeshes 3\n");
    for (i, m) in meshes.iter().enumerate() {
        std::fs::write(dir.join(format!("m{i}.off")), off_text(m)).unwrap();
        writeln!(scene, "mesh {i} m{i}.off 1").unwrap();
    }
    let mut rng = SeededRng::new(99);
    writeln!(scene, "objects 60").unwrap();
    for k in 0..60 {
        let mut numbers = vec![(k % 3) as f64];
        for range in [3.0, 0.15, 3.0, 0.2] {
            (0..3).for_each(|_| numbers.push(rng.range(-range, range)));
        }
        let line: Vec<String> = numbers
            .iter()
            .enumerate()
            .map(|(i, x)| {
                if i == 0 {
                    format!("{x}")
                } else {
                    format!("{x:?}")
                }
            })
            .collect();
        writeln!(scene, "obj {}", line.join(" ")).unwrap();
    }
    let path = dir.join("generated.scene");
    std::fs::write(&path, scene).unwrap();
    path
}

/// Brute force: every pair, every frame, GJK on the raw vertex clouds. Returns one line per
/// frame (sorted `a-b` pairs) and the total.
fn all_pairs_gjk(path: &Path) -> (Vec<String>, u64) {
    let scene = load_scene(path).unwrap();
    let loaded: Vec<_> = scene
        .meshes
        .iter()
        .map(|m| load_scene_mesh(m).unwrap())
        .collect();
    let clouds: Vec<PointCloud> = loaded
        .iter()
        .map(|m| PointCloud::new(m.data.vertices.clone()).unwrap())
        .collect();
    let mut expected_lines = Vec::new();
    let mut expected_total = 0u64;
    for frame in 0..scene.frames {
        let poses: Vec<Pose> = scene
            .objects
            .iter()
            .map(|o| {
                let p = pose_at(
                    o,
                    loaded[o.mesh].radius,
                    scene.box_min,
                    scene.box_max,
                    frame,
                );
                let q =
                    UnitQuaternion::new_normalize(Quaternion::new(p.q[0], p.q[1], p.q[2], p.q[3]));
                Pose::from_parts(Translation3::new(p.t[0], p.t[1], p.t[2]), q)
            })
            .collect();
        let line: Vec<String> = brute_force_pairs(scene.objects.len(), |a, b| {
            let pos12 = colldet_geom::math::relative_pose(&poses[a], &poses[b]);
            let (ca, cb) = (
                &clouds[scene.objects[a].mesh],
                &clouds[scene.objects[b].mesh],
            );
            gjk_intersect(ca, cb, &pos12, &mut GjkCache::new())
                .unwrap()
                .is_colliding()
        })
        .into_iter()
        .map(|(a, b)| format!("{a}-{b}"))
        .collect();
        expected_total += line.len() as u64;
        expected_lines.push(line.join(" "));
    }
    (expected_lines, expected_total)
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("colldet-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn runner_totals_match_all_pairs_gjk() {
    let dir = temp_dir("runner-test");
    let path = write_scene(&dir);
    let (expected_lines, expected_total) = all_pairs_gjk(&path);
    assert!(expected_total > 50, "the scene collides ({expected_total})");

    for broad_phase in [
        BroadPhaseKind::SweepAndPrune,
        BroadPhaseKind::Grid,
        BroadPhaseKind::AllPairs,
    ] {
        for threads in [1, 2] {
            let options = RunOptions {
                config: Config {
                    broad_phase,
                    threads,
                    ..Config::default()
                },
                frames: None,
                ccd: false,
                ttc: None,
            };
            let mut pairs = Vec::new();
            let summary = run_scene_file(&path, &options, Some(&mut pairs), |_, _| {}).unwrap();
            assert_eq!(
                summary.pairs_colliding_total, expected_total,
                "{broad_phase:?} x {threads}"
            );
            let lines: Vec<String> = String::from_utf8(pairs)
                .unwrap()
                .lines()
                .map(str::to_string)
                .collect();
            assert_eq!(lines, expected_lines, "{broad_phase:?} x {threads}");
            let json = summary.json();
            for key in [
                "\"pairs_colliding_total\":",
                "\"ms_per_frame_median\":",
                "\"frames\":40",
            ] {
                assert!(json.contains(key), "{json}");
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn run_command_writes_the_brute_force_pairs_and_a_json_summary() {
    let dir = temp_dir("run-command-test");
    let path = write_scene(&dir);
    let (expected_lines, expected_total) = all_pairs_gjk(&path);
    let pairs_file = dir.join("pairs.txt");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_colldet"))
        .arg("run")
        .arg(&path)
        .args([
            "--broadphase",
            "grid",
            "--threads",
            "2",
            "--json",
            "--pairs-out",
        ])
        .arg(&pairs_file)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    // Not a terminal: plain progress lines, the last one complete.
    assert!(!stderr.contains('\r'));
    assert!(
        stderr
            .lines()
            .last()
            .unwrap()
            .starts_with("generated frame 40/40 100%"),
        "{stderr}"
    );

    let written = std::fs::read_to_string(&pairs_file).unwrap();
    let lines: Vec<&str> = written.lines().collect();
    assert_eq!(lines, expected_lines);
    let counted: usize = lines.iter().map(|l| l.split_whitespace().count()).sum();
    assert_eq!(counted as u64, expected_total);

    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let object = json.as_object().expect("one JSON object");
    let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "broad_ms_median",
            "frames",
            "ms_per_frame_median",
            "ms_per_frame_p95",
            "narrow_ms_median",
            "objects",
            "pairs_box_filtered_total",
            "pairs_colliding_total",
            "pairs_overlapping_total",
            "pairs_tested_total",
            "scene",
        ]
    );
    assert_eq!(json["scene"], "generated");
    assert_eq!(json["objects"].as_u64(), Some(60));
    assert_eq!(json["frames"].as_u64(), Some(40));
    assert_eq!(json["pairs_colliding_total"].as_u64(), Some(expected_total));
    let tested = json["pairs_tested_total"].as_u64().unwrap();
    let overlapping = json["pairs_overlapping_total"].as_u64().unwrap();
    let filtered = json["pairs_box_filtered_total"].as_u64().unwrap();
    assert!(expected_total <= tested && tested + filtered <= overlapping);
    let median = json["ms_per_frame_median"].as_f64().unwrap();
    let p95 = json["ms_per_frame_p95"].as_f64().unwrap();
    assert!(median > 0.0 && median <= p95);
    for key in ["broad_ms_median", "narrow_ms_median"] {
        assert!(json[key].as_f64().unwrap() >= 0.0, "{key}");
    }

    // --frames plays a prefix.
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_colldet"))
        .arg("run")
        .arg(&path)
        .args(["--frames", "7", "--json"])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["frames"].as_u64(), Some(7));
    let prefix: usize = expected_lines[..7]
        .iter()
        .map(|l| l.split_whitespace().count())
        .sum();
    assert_eq!(json["pairs_colliding_total"].as_u64(), Some(prefix as u64));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn run_command_reports_bad_input_without_panicking() {
    let dir = temp_dir("run-errors-test");
    let bad = dir.join("bad.scene");
    std::fs::write(&bad, "colldet-scene 1\nname x\nbox 0 0 0 1 1\n").unwrap();
    // A failed command exits 1, a usage error 2; both say why on standard error.
    let failing = |status: i32, args: &[&str]| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_colldet"))
            .args(args)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(status), "{args:?}");
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let run = |args: &[&str]| failing(1, args);
    let usage = |args: &[&str]| failing(2, args);
    let bad_path = bad.display().to_string();
    let pairs = dir.join("pairs.txt").display().to_string();
    let message = run(&["run", &bad_path, "--pairs-out", &pairs]);
    assert!(
        !dir.join("pairs.txt").exists(),
        "no pairs file for a bad scene"
    );
    assert!(
        message.contains(&format!("{bad_path}:3: `box` takes 6 values, found 5")),
        "{message}"
    );
    assert!(run(&["run", "/nonexistent.scene"]).contains("cannot read /nonexistent.scene"));
    assert!(usage(&["run", &bad_path, "--method", "fast"]).contains("unknown method `fast`"));
    assert!(usage(&["demo", "--preset", "zoo"]).contains("unknown preset `zoo`"));
    let conflict = usage(&["demo", "--preset", "one-mover", "--objects", "3"]);
    assert!(
        conflict.contains("'--objects <N>'") && conflict.contains("'--preset "),
        "{conflict}"
    );
    // More threads than a world accepts: refused before any thread starts.
    for command in [
        vec!["run", bad_path.as_str(), "--threads", "99999999999"],
        vec!["demo", "--threads", "1025"],
    ] {
        let message = usage(&command);
        assert!(
            message.contains("--threads: ") && message.contains("1024"),
            "{message}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
