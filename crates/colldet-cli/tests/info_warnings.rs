//! `colldet info` on files as real exporters write them: the reader's warnings are printed, one
//! `warning` line per skipped kind, the file is accepted (exit 0), and the precision line says
//! whether the coordinates are `f32` numbers. Malformed vertex lines still fail, naming the line.

use std::path::PathBuf;
use std::process::{Command, Output};

fn temp_file(name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("colldet-info-warnings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

fn info(path: &PathBuf) -> Output {
    Command::new(env!("CARGO_BIN_EXE_colldet"))
        .arg("info")
        .arg(path)
        .output()
        .unwrap()
}

/// `colldet info` on `path`: it must succeed; its standard output.
fn succeeding(path: &PathBuf) -> String {
    let output = info(path);
    assert!(
        output.status.success(),
        "{}: {}",
        path.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// The values of the lines of `stdout` whose field (the text before the padding of at least two
/// spaces) is `field`.
fn field<'a>(stdout: &'a str, field: &str) -> Vec<&'a str> {
    stdout
        .lines()
        .filter_map(|line| line.split_once("  "))
        .filter(|(name, _)| *name == field)
        .map(|(_, value)| value.trim_start())
        .collect()
}

/// A tetrahedron as an exporter writes it: a count line, materials, texture coordinates and
/// normals on many lines, `v/vt/vn` corners and relative indices.
fn exported_tetrahedron() -> String {
    let mut text = String::from("4\n# exported\nmtllib t.mtl\no tetra\n");
    text.push_str("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n");
    for i in 0..42 {
        text.push_str(&format!("vt {} 0\n", i as f64 / 42.0));
    }
    text.push_str("vn 0 0 1\nusemtl stone\ns 1\n");
    text.push_str("f 1/1/1 3/2/1 2/3/1\nf 1//1 2//1 4//1\nf -4/1 -1/1 -2/1\nf -3 -2 -1\n");
    text.push_str("curv 0 1 1 2\n");
    text
}

#[test]
fn info_prints_the_reader_warnings_and_exits_zero() {
    let path = temp_file("exported.obj", &exported_tetrahedron());
    let stdout = succeeding(&path);
    assert_eq!(
        field(&stdout, "warning"),
        [
            "1 leading count line skipped (line 1: `4`)",
            "1 line of `mtllib` skipped (line 3)",
            "1 line of `o` skipped (line 4)",
            "42 lines of `vt` skipped (first at line 9)",
            "1 line of `vn` skipped (line 51)",
            "1 line of `usemtl` skipped (line 52)",
            "1 line of `s` skipped (line 53)",
            "1 line of unknown statement `curv` skipped (line 58)",
        ],
        "{stdout}"
    );
    assert_eq!(
        field(&stdout, "precision"),
        ["f32 (every coordinate is an f32 number)"]
    );
    assert_eq!(field(&stdout, "faces"), ["4 (0 degenerate dropped)"]);
    assert_eq!(field(&stdout, "convex"), ["true"]);
}

#[test]
fn info_says_when_coordinates_are_kept_in_f64() {
    let path = temp_file(
        "f64.obj",
        "v 4000.1 0.1 1e-9\nv 4001 0 0\nv 4000 1 0\nv 4000 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n",
    );
    let stdout = succeeding(&path);
    assert!(field(&stdout, "warning").is_empty(), "{stdout}");
    assert_eq!(
        field(&stdout, "precision"),
        ["f64 (some coordinates are not f32 numbers)"]
    );
}

#[test]
fn info_warns_about_off_trailing_content() {
    let path = temp_file(
        "trailing.off",
        "OFF\n4 4 0\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 2 1\n3 0 1 3\n3 0 3 2\n3 1 2 3\n\n3 0 1 2\n",
    );
    let stdout = succeeding(&path);
    assert_eq!(
        field(&stdout, "warning"),
        ["1 line after the last of the 4 declared faces skipped (line 12: `3 0 1 2`)"],
        "{stdout}"
    );
}

#[test]
fn info_still_fails_on_a_malformed_vertex_line() {
    let path = temp_file("bad.obj", "usemtl x\nv 0 0 0\nv 1 0\nv 0 1 0\nf 1 2 3\n");
    let output = info(&path);
    assert!(!output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("line 3: vertex 1: `v` has 2 values"),
        "{stderr}"
    );
}
