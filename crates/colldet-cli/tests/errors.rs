//! Error messages quote hostile input bounded and visibly: a megabyte line is cut to its first
//! characters and its length, a NUL byte or an escape sequence is shown escaped.

use std::path::PathBuf;
use std::process::Command;

fn temp_file(name: &str, contents: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("colldet-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

/// `colldet ARGS`: it must fail; its stderr.
fn failing(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_colldet"))
        .args(args)
        .output()
        .unwrap();
    assert!(!output.status.success(), "{args:?} succeeded");
    String::from_utf8(output.stderr).unwrap()
}

#[test]
fn a_megabyte_line_is_quoted_by_its_start_and_length() {
    let counts = "1 ".repeat(1 << 19);
    let path = temp_file("long.off", format!("OFF\n{counts}\n").as_bytes());
    let stderr = failing(&["info", path.to_str().unwrap()]);
    assert!(stderr.len() < 400, "{} bytes of stderr", stderr.len());
    assert!(
        stderr.contains(&format!("... ({} bytes)", counts.trim_end().len())),
        "{stderr}"
    );
    assert!(
        stderr.contains(":2:") || stderr.contains("line 2"),
        "{stderr}"
    );
}

#[test]
fn control_characters_in_quoted_input_are_escaped() {
    let path = temp_file("nul.obj", b"v 0 0 0\nv 1 0 0\nv 0 1\x000 0\nf 1 2 3\n");
    let stderr = failing(&["info", path.to_str().unwrap()]);
    assert!(stderr.contains("`1\\00`"), "{stderr}");
    assert!(!stderr.contains('\0'), "{stderr:?}");
    let stderr = failing(&["demo", "--shape", "cube\u{1b}[2J"]);
    assert!(stderr.contains("`cube\\u{1b}[2J`"), "{stderr:?}");
    assert!(!stderr.contains('\u{1b}'), "{stderr:?}");
}
