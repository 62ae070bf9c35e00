//! The example program in `docs/c-api.md` is exactly `ffi-tests/example.c` (which `make test`
//! compiles and runs), so the guide's code cannot rot.

use std::path::Path;

const MARKER: &str = "<!-- example: ffi-tests/example.c -->\n```c\n";

#[test]
fn c_api_guide_shows_the_tested_example() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let guide = std::fs::read_to_string(root.join("docs/c-api.md")).expect("docs/c-api.md");
    let example = std::fs::read_to_string(root.join("ffi-tests/example.c")).expect("example.c");
    let start = guide.find(MARKER).expect("the guide marks its example") + MARKER.len();
    let end = start
        + guide[start..]
            .find("```\n")
            .expect("the example block is closed");
    assert!(
        guide[start..end] == example,
        "docs/c-api.md's example differs from ffi-tests/example.c: copy the file into the guide"
    );
}
