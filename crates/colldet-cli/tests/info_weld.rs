//! `colldet info` on an STL-style cube (12 triangles, every corner its own vertex): welded by
//! default it is one closed convex solid, `--no-weld` shows the 12 loose triangles; the vertices
//! line gives the count as given and the distinct positions. Positions that differ only in `f64`
//! are not welded.

use std::process::{Command, Output};

/// Writes `contents` to a fresh temporary file; its path as a string.
fn temp_file(name: &str, contents: &str) -> String {
    let dir = std::env::temp_dir().join(format!("colldet-info-weld-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path.to_str().unwrap().to_string()
}

/// `colldet info` with `args` (the file among them).
fn info(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_colldet"))
        .arg("info")
        .args(args)
        .output()
        .unwrap()
}

/// `colldet info ARGS`: it must succeed; its standard output.
fn succeeding(args: &[&str]) -> String {
    let output = info(args);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// The value of the line of `stdout` whose field (the text before at least two spaces) is
/// `field`.
fn field<'a>(stdout: &'a str, field: &str) -> &'a str {
    stdout
        .lines()
        .filter_map(|line| line.split_once("  "))
        .find(|(name, _)| *name == field)
        .map(|(_, value)| value.trim_start())
        .unwrap_or_else(|| panic!("no `{field}` line in\n{stdout}"))
}

/// The cube `[0, s]^3` as an OBJ triangle soup: 36 `v` lines (coordinates written as `zero` and
/// `one`), 12 outward triangles.
fn soup_cube_obj(zero: &str, one: &str) -> String {
    // Outward quads of the unit cube, corners numbered x + 2y + 4z.
    const QUADS: [[usize; 4]; 6] = [
        [0, 4, 6, 2],
        [1, 3, 7, 5],
        [0, 1, 5, 4],
        [2, 6, 7, 3],
        [0, 2, 3, 1],
        [4, 5, 7, 6],
    ];
    let coordinate = |corner: usize, axis: usize| {
        if corner >> axis & 1 == 1 { one } else { zero }
    };
    let mut text = String::new();
    let mut faces = String::new();
    let mut next = 1;
    for q in QUADS {
        for triangle in [[q[0], q[1], q[2]], [q[0], q[2], q[3]]] {
            for corner in triangle {
                let [x, y, z] = [0, 1, 2].map(|axis| coordinate(corner, axis));
                text.push_str(&format!("v {x} {y} {z}\n"));
            }
            faces.push_str(&format!("f {} {} {}\n", next, next + 1, next + 2));
            next += 3;
        }
    }
    text + &faces
}

#[test]
fn info_welds_a_soup_cube_into_a_closed_convex_solid() {
    let path = temp_file("soup.obj", &soup_cube_obj("0", "1"));
    let stdout = succeeding(&[&path]);
    assert_eq!(
        field(&stdout, "vertices"),
        "36 (8 distinct positions: welded; 0 unused)"
    );
    assert_eq!(field(&stdout, "edges"), "18");
    assert_eq!(field(&stdout, "faces"), "12 (0 degenerate dropped)");
    assert_eq!(field(&stdout, "components"), "1");
    assert_eq!(field(&stdout, "euler"), "2");
    assert_eq!(field(&stdout, "closed"), "true (0 boundary edges)");
    assert!(field(&stdout, "oriented").starts_with("true"), "{stdout}");
    assert_eq!(field(&stdout, "convex"), "true");
}

#[test]
fn info_no_weld_shows_twelve_loose_triangles() {
    let path = temp_file("soup-no-weld.obj", &soup_cube_obj("0", "1"));
    // The flag before the file and after it.
    for args in [["--no-weld", &path], [&path, "--no-weld"]] {
        let stdout = succeeding(&args);
        assert_eq!(
            field(&stdout, "vertices"),
            "36 (8 distinct positions: not welded; 0 unused)"
        );
        assert_eq!(field(&stdout, "edges"), "36");
        assert_eq!(field(&stdout, "components"), "12");
        assert_eq!(field(&stdout, "closed"), "false (36 boundary edges)");
        assert_eq!(field(&stdout, "convex"), "false");
    }
}

#[test]
fn info_does_not_weld_doubles_that_round_to_one_float() {
    // 0.1 and the next double up (0.10000000000000002) are the same f32.
    let mut text = soup_cube_obj("0", "0.1");
    let first_one = text.find("0.1").unwrap();
    text.replace_range(first_one..first_one + 3, "0.10000000000000002");
    let path = temp_file("soup-f64.obj", &text);
    let stdout = succeeding(&[&path]);
    assert!(field(&stdout, "precision").starts_with("f64"), "{stdout}");
    assert_eq!(
        field(&stdout, "vertices"),
        "36 (9 distinct positions: welded; 0 unused)"
    );
    assert_eq!(field(&stdout, "closed"), "false (4 boundary edges)");

    let exact = temp_file("soup-f64-exact.obj", &soup_cube_obj("0", "0.1"));
    let stdout = succeeding(&[&exact]);
    assert_eq!(field(&stdout, "closed"), "true (0 boundary edges)");
}

#[test]
fn info_refuses_unknown_options_and_a_second_file() {
    let path = temp_file("soup-args.obj", &soup_cube_obj("0", "1"));
    for (args, message) in [
        (["--weld", &path], "unknown option `--weld`"),
        ([&path, "other.obj"], "unexpected argument `other.obj`"),
    ] {
        let output = info(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}: a usage error");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}
