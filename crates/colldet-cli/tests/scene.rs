//! Scene files: a well-formed file parses to the known values, and each kind of malformed file is
//! rejected with a typed error whose message names the file and the offending line.

use std::path::Path;

use colldet_cli::scene::{SceneError, load_scene, parse_scene};

const GOOD: &str = "\
colldet-scene 1
# comment lines and blank lines are skipped but counted
name two-cubes

box -2 -2 -2 2 2 2
frames 10
meshes 2
mesh 0 cube.off 1
mesh 1 sub/ring.off 0
objects 3
obj 0 0 0 0 0.1 0 0 0 0 0 0 0 0.25
obj 1 1 0.5 -0.5 0 0 0 0.5 0 0 0 0 0
obj 0 -1 -1 -1 0 0.2 0 0 0 0 0.1 0 0
";

fn line_of(text: &str) -> (usize, String) {
    match parse_scene(text, Path::new("/scenes"), "bad.scene") {
        Err(e @ SceneError::Syntax { line, .. }) => (line, e.to_string()),
        other => panic!("expected a syntax error, got {other:?}"),
    }
}

#[test]
fn a_good_scene_parses_to_its_values() {
    let scene = parse_scene(GOOD, Path::new("/scenes"), "good.scene").unwrap();
    assert_eq!(scene.name, "two-cubes");
    assert_eq!(scene.box_min, [-2.0; 3]);
    assert_eq!(scene.box_max, [2.0; 3]);
    assert_eq!(scene.frames, 10);
    assert_eq!(scene.meshes.len(), 2);
    assert_eq!(scene.meshes[1].path, Path::new("/scenes/sub/ring.off"));
    assert!(scene.meshes[0].convex && !scene.meshes[1].convex);
    assert_eq!(scene.objects.len(), 3);
    assert_eq!(scene.objects[1].mesh, 1);
    assert_eq!(scene.objects[1].position, [1.0, 0.5, -0.5]);
    assert_eq!(scene.objects[1].orientation, [0.5, 0.0, 0.0]);
    assert_eq!(scene.objects[2].velocity, [0.0, 0.2, 0.0]);
    assert_eq!(scene.objects[2].angular_velocity, [0.1, 0.0, 0.0]);
}

#[test]
fn every_kind_of_malformed_file_names_its_line() {
    let truncated: String = GOOD.lines().take(12).map(|l| format!("{l}\n")).collect();
    let cases: Vec<(&str, String, usize, &str)> = vec![
        (
            "wrong magic",
            GOOD.replace("colldet-scene 1", "scene 1"),
            1,
            "expected `colldet-scene`",
        ),
        (
            "wrong version",
            GOOD.replace("colldet-scene 1", "colldet-scene 7"),
            1,
            "unsupported scene version",
        ),
        (
            "misspelt keyword",
            GOOD.replace("name two-cubes", "nam two-cubes"),
            3,
            "expected `name`",
        ),
        (
            "box arity",
            GOOD.replace("box -2 -2 -2 2 2 2", "box -2 -2 -2 2 2"),
            5,
            "takes 6 values",
        ),
        (
            "non-numeric value",
            GOOD.replace("box -2 -2 -2 2 2 2", "box -2 -2 -2 2 two 2"),
            5,
            "not a finite number",
        ),
        (
            "NaN",
            GOOD.replace("box -2 -2 -2 2 2 2", "box -2 -2 -2 2 NaN 2"),
            5,
            "not a finite number",
        ),
        (
            "inverted box",
            GOOD.replace("box -2 -2 -2 2 2 2", "box -2 3 -2 2 2 2"),
            5,
            "must exceed",
        ),
        (
            "negative frame count",
            GOOD.replace("frames 10", "frames -1"),
            6,
            "non-negative integer",
        ),
        (
            "frame count overflow",
            GOOD.replace("frames 10", "frames 5000000000"),
            6,
            "too many frames",
        ),
        (
            "mesh index out of order",
            GOOD.replace("mesh 1 sub", "mesh 2 sub"),
            9,
            "expected mesh index 1",
        ),
        (
            "bad convex flag",
            GOOD.replace("cube.off 1", "cube.off yes"),
            8,
            "convex flag",
        ),
        (
            "fewer meshes than announced",
            GOOD.replace("meshes 2", "meshes 3"),
            10,
            "expected `mesh`",
        ),
        (
            "object mesh out of range",
            GOOD.replace("obj 1 1 0.5", "obj 2 1 0.5"),
            12,
            "out of range",
        ),
        (
            "object arity",
            GOOD.replace(" 0.25\n", "\n"),
            11,
            "takes 13 values",
        ),
        (
            "overflowing number",
            GOOD.replace("0 0 0.25", "0 0 1e400"),
            11,
            "not a finite number",
        ),
        (
            "missing object (truncated file)",
            truncated,
            12,
            "file ends before the `obj` line",
        ),
        (
            "text after the last object",
            format!("{GOOD}obj 0 0 0 0 0 0 0 0 0 0 0 0 0\n"),
            14,
            "after the last object",
        ),
        ("empty file", String::new(), 1, "file ends before"),
    ];
    assert!(cases.len() >= 8);
    for (kind, text, line, fragment) in cases {
        let (got, message) = line_of(&text);
        assert_eq!(got, line, "{kind}: {message}");
        assert!(
            message.starts_with(&format!("bad.scene:{line}: ")),
            "{kind}: {message}"
        );
        assert!(message.contains(fragment), "{kind}: {message}");
    }
}

#[test]
fn files_resolve_mesh_paths_and_report_read_errors() {
    let dir = std::env::temp_dir().join(format!("colldet-scene-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.scene");
    std::fs::write(&good, GOOD).unwrap();
    let scene = load_scene(&good).unwrap();
    assert_eq!(scene.meshes[0].path, dir.join("cube.off"));

    let bad = dir.join("bad.scene");
    std::fs::write(&bad, GOOD.replace("frames 10", "frames ten")).unwrap();
    let message = load_scene(&bad).unwrap_err().to_string();
    assert_eq!(
        message,
        format!("{}:6: `ten` is not a non-negative integer", bad.display())
    );

    let missing = dir.join("missing.scene");
    assert!(matches!(
        load_scene(&missing),
        Err(SceneError::Io { ref path, .. }) if path == &missing.display().to_string()
    ));
    std::fs::remove_dir_all(&dir).ok();
}
