//! Mesh file input: OFF and Wavefront OBJ text into [`MeshData`].
//!
//! Rationale (shared by both readers):
//! - Forgiving where files are untidy, strict where geometry is at stake. What carries no
//!   polygon geometry (OBJ texture coordinates, normals, materials, groups, unknown statements, a
//!   leading count line; OFF content after the declared faces) is skipped and reported as a
//!   [`ReadWarning`], one per kind with its count and first line
//!   ([`MeshFormat::read_with_warnings`], [`load_mesh_with_warnings`]). Vertex and face records themselves are never guessed at.
//! - Strict, located errors. Everything wrong in a vertex or face record, or in an OFF header,
//!   is a [`GeomError::Parse`] carrying the 1-based line number (for a truncated file: the file's
//!   last line). Only "no vertices" and "no faces" use [`GeomError::NoVertices`] /
//!   [`GeomError::NoFaces`], as no single line is at fault. After parsing,
//!   [`MeshData::validate`] runs as well.
//! - Geometry is taken as written: coordinates are the object's local frame, nothing is
//!   re-centred or re-scaled, faces keep their vertex order (counter-clockwise seen from outside
//!   by convention, but not checked) and their size (polygons are not triangulated). Open,
//!   non-manifold, inconsistently oriented and degenerate meshes, duplicate and unused vertices all
//!   load: classification happens when the polyhedron is built.
//! - The text is the definition. Coordinates are parsed to `f64`, rounding the decimal text
//!   correctly once, and meshes are made with [`MeshData::from_f64`]: when some coordinate is not
//!   an `f32` number (`0.1`, `4000.1`) the `f64` values are kept and decide the exact tests
//!   ([`MeshData::precise_vertices`]); the `f32` copy is those values rounded to nearest. A value
//!   must also be finite in that `f32` copy: `nan`, `inf` and overflow such as `1e39` (beyond
//!   `f32::MAX` ≈ 3.4e38) are rejected. Values that underflow to zero or to a subnormal in `f32`
//!   are kept (exactly, in the `f64` values).
//! - Line ends: `\n`, `\r\n` and a lone `\r` (classic Mac OS) each end a line, mixed freely;
//!   line numbers in errors count them alike.
//! - Linear time and memory: one pass over the text, output arrays reserved from the declared
//!   counts (capped by the text length, so a lying header cannot force a huge allocation).

mod obj;
mod off;
mod warning;

pub use obj::{load_obj, read_obj, read_obj_with_warnings};
pub use off::{load_off, read_off, read_off_positions, read_off_with_warnings};
pub use warning::{MAX_DISTINCT_KEYWORDS, ReadWarning, WarningKind};

use std::path::Path;

use crate::error::GeomError;
use crate::mesh_data::MeshData;

/// A mesh read from a file, with what the reader skipped.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadedMesh {
    /// The mesh, validated; its positions in `f64` as written ([`MeshData::from_f64`]).
    pub mesh: MeshData,
    /// What was skipped, one warning per kind, in order of first occurrence; empty for a tidy
    /// file.
    pub warnings: Vec<ReadWarning>,
}

/// The mesh file formats colldet reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeshFormat {
    /// Geomview Object File Format, text form (`.off`); see [`read_off`].
    Off,
    /// Wavefront OBJ, polygonal subset (`.obj`); see [`read_obj`].
    Obj,
}

impl MeshFormat {
    /// The format named by `path`'s extension: `.off` or `.obj`, compared case-insensitively.
    ///
    /// # Errors
    /// [`GeomError::UnsupportedMeshFormat`] for any other extension or none.
    pub fn from_path(path: &Path) -> Result<Self, GeomError> {
        let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if extension.eq_ignore_ascii_case("off") {
            Ok(Self::Off)
        } else if extension.eq_ignore_ascii_case("obj") {
            Ok(Self::Obj)
        } else {
            Err(GeomError::UnsupportedMeshFormat {
                path: path.display().to_string(),
            })
        }
    }

    /// Parses `text` in this format.
    ///
    /// # Errors
    /// See [`read_off`] and [`read_obj`].
    pub fn read(self, text: &str) -> Result<MeshData, GeomError> {
        self.read_with_warnings(text).map(|loaded| loaded.mesh)
    }

    /// Parses `text` in this format, returning the mesh and what was skipped.
    ///
    /// # Errors
    /// See [`read_off`] and [`read_obj`].
    pub fn read_with_warnings(self, text: &str) -> Result<LoadedMesh, GeomError> {
        match self {
            Self::Off => read_off_with_warnings(text),
            Self::Obj => read_obj_with_warnings(text),
        }
    }
}

/// Loads a mesh file, choosing the reader by extension (`.off` or `.obj`, case-insensitive).
///
/// # Errors
/// [`GeomError::UnsupportedMeshFormat`] for another extension, [`GeomError::Io`] when the file
/// cannot be read, [`GeomError::Parse`] for text that is not UTF-8 (naming the line) and
/// everything the chosen reader reports.
pub fn load_mesh(path: &Path) -> Result<MeshData, GeomError> {
    load_mesh_with_warnings(path).map(|loaded| loaded.mesh)
}

/// As [`load_mesh`], returning the mesh and what the reader skipped.
///
/// # Errors
/// As [`load_mesh`].
pub fn load_mesh_with_warnings(path: &Path) -> Result<LoadedMesh, GeomError> {
    let format = MeshFormat::from_path(path)?;
    format.read_with_warnings(&read_text(path)?)
}

/// Reads a whole file as UTF-8 text.
fn read_text(path: &Path) -> Result<String, GeomError> {
    let bytes = std::fs::read(path).map_err(|source| GeomError::Io {
        path: path.display().to_string(),
        source,
    })?;
    String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = line_ends(valid) + 1;
        parse_error(line, "text is not valid UTF-8")
    })
}

/// The longest input text, in characters, that an error message quotes in full.
pub const EXCERPT_CHARS: usize = 80;

/// `text` as an error message quotes it: control characters escaped (`\0`, `\t`, `\u{1b}`, so
/// that none is invisible or acts on the terminal) and, beyond [`EXCERPT_CHARS`] characters, cut
/// to them followed by `... (N bytes)` with the whole text's length. A hostile line of a
/// megabyte yields a message of about a hundred bytes.
#[must_use]
pub fn excerpt(text: &str) -> String {
    let mut quoted = String::new();
    let mut chars = text.chars();
    for c in chars.by_ref().take(EXCERPT_CHARS) {
        if c.is_control() {
            quoted.extend(c.escape_debug());
        } else {
            quoted.push(c);
        }
    }
    if chars.next().is_some() {
        quoted.push_str(&format!("... ({} bytes)", text.len()));
    }
    quoted
}

/// A [`GeomError::Parse`] at 1-based `line`.
fn parse_error(line: usize, message: impl Into<String>) -> GeomError {
    GeomError::Parse {
        line,
        message: message.into(),
    }
}

/// `text` without a leading UTF-8 byte-order mark.
fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// `line` up to (not including) its first `#`.
fn strip_comment(line: &str) -> &str {
    match line.find('#') {
        Some(at) => &line[..at],
        None => line,
    }
}

/// The number of line ends in `bytes`: `\n`, `\r\n` and a lone `\r` (classic Mac OS) each
/// count once, as [`text_lines`] splits.
fn line_ends(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .enumerate()
        .filter(|&(at, &b)| b == b'\n' || (b == b'\r' && bytes.get(at + 1) != Some(&b'\n')))
        .count()
}

/// The lines of `text` without their ends. A line ends with `\n`, `\r\n` or a lone `\r`
/// (classic Mac OS); the last line needs no end, and text after the last end, if any, is a line.
/// As [`str::lines`] for text without a lone `\r`.
fn text_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let bytes = rest.as_bytes();
        let (line, next) = match bytes.iter().position(|&b| b == b'\n' || b == b'\r') {
            Some(at) if bytes[at] == b'\r' && bytes.get(at + 1) == Some(&b'\n') => {
                (&rest[..at], &rest[at + 2..])
            }
            Some(at) => (&rest[..at], &rest[at + 1..]),
            None => (rest, ""),
        };
        rest = next;
        Some(line)
    })
}

/// The lines of `text` that have content once `#` comments are removed, with their 1-based line
/// numbers, trimmed.
fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text_lines(text).enumerate().filter_map(|(i, raw)| {
        let content = strip_comment(raw).trim();
        (!content.is_empty()).then_some((i + 1, content))
    })
}

/// The 1-based number of the last line of `text` (1 for empty text); where a truncated file is
/// reported.
fn last_line(text: &str) -> usize {
    text_lines(text).count().max(1)
}

/// A coordinate type a mesh file can be read into: `f32` for collision geometry, `f64` where the
/// decimal text must be kept at double precision (scene motion uses the `f64` bounding radius).
/// Values are parsed to `f64` (rounded once from the text) and then converted, so an `f32` read
/// equals the `f32` copy of a mesh read from the same text.
pub trait Coordinate: Copy + Default + std::str::FromStr {
    /// The type's name in error messages.
    const NAME: &'static str;
    /// True for finite values.
    fn finite(self) -> bool;
    /// `value` rounded to nearest in this type (infinite beyond its range).
    fn from_f64(value: f64) -> Self;
}

impl Coordinate for f32 {
    const NAME: &'static str = "f32 (NaN, infinity, or magnitude above 3.4e38)";
    fn finite(self) -> bool {
        self.is_finite()
    }
    fn from_f64(value: f64) -> Self {
        value as f32
    }
}

impl Coordinate for f64 {
    const NAME: &'static str = "f64 (NaN, infinity, or magnitude above 1.8e308)";
    fn finite(self) -> bool {
        self.is_finite()
    }
    fn from_f64(value: f64) -> Self {
        value
    }
}

/// Parses coordinate `axis` (0, 1, 2 = x, y, z) of vertex `vertex` (0-based) on `line`: a decimal
/// number, rounded once to `f64`, that is finite in `f64` and after rounding to `T`. Returns the
/// `f64` value.
fn parse_coordinate<T: Coordinate>(
    token: &str,
    line: usize,
    vertex: usize,
    axis: usize,
) -> Result<f64, GeomError> {
    let name = ["x", "y", "z"][axis];
    match token.parse::<f64>() {
        Ok(value) if value.is_finite() && T::from_f64(value).finite() => Ok(value),
        Ok(_) => Err(parse_error(
            line,
            format!(
                "vertex {vertex}: {name} = `{}` is not a finite {}",
                excerpt(token),
                T::NAME
            ),
        )),
        Err(_) => Err(parse_error(
            line,
            format!(
                "vertex {vertex}: {name} = `{}` is not a number",
                excerpt(token)
            ),
        )),
    }
}

/// Parses the position `x y z` that starts vertex record `vertex` (0-based) on `line`, in the
/// object's local frame, each coordinate rounded once to `f64` and checked finite in `T`; then
/// checks that every value after
/// it (normal, colour, texture coordinate, homogeneous weight: read and dropped) is a number.
/// Returns the position and the number of values after it. `missing(n)` is the error for a
/// record that ends after `n < 3` values.
fn parse_position<'a, T: Coordinate>(
    mut tokens: impl Iterator<Item = &'a str>,
    line: usize,
    vertex: usize,
    missing: impl Fn(usize) -> GeomError,
) -> Result<([f64; 3], usize), GeomError> {
    let mut xyz = [0.0; 3];
    for (axis, coordinate) in xyz.iter_mut().enumerate() {
        let token = tokens.next().ok_or_else(|| missing(axis))?;
        *coordinate = parse_coordinate::<T>(token, line, vertex, axis)?;
    }
    let extras = count_numbers(tokens, line, format_args!("vertex {vertex}"))?;
    Ok((xyz, extras))
}

/// Checks that every one of `tokens`, attribute values on `line` that are read and then ignored
/// (normal, colour, texture coordinate, homogeneous weight), is a number, and counts them; `what`
/// names the record in the error (formatted only then: this runs once per vertex or face).
fn count_numbers<'a>(
    tokens: impl Iterator<Item = &'a str>,
    line: usize,
    what: std::fmt::Arguments<'_>,
) -> Result<usize, GeomError> {
    let mut count = 0;
    for token in tokens {
        if token.parse::<f32>().is_err() {
            return Err(parse_error(
                line,
                format!("{what}: `{}` is not a number", excerpt(token)),
            ));
        }
        count += 1;
    }
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asserts that `read` rejects `text` with a parse error at `line` whose message contains
    /// `fragment`.
    #[track_caller]
    pub(super) fn assert_parse_error(
        read: fn(&str) -> Result<MeshData, GeomError>,
        text: &str,
        line: usize,
        fragment: &str,
    ) {
        match read(text) {
            Err(GeomError::Parse {
                line: found,
                message,
            }) => {
                assert_eq!(found, line, "line of `{message}` for\n{text}");
                assert!(
                    message.contains(fragment),
                    "message `{message}` lacks `{fragment}`"
                );
            }
            other => panic!("expected a parse error on line {line}, got {other:?} for\n{text}"),
        }
    }

    #[test]
    fn format_from_extension_is_case_insensitive() {
        for (name, format) in [
            ("a.off", MeshFormat::Off),
            ("dir.x/b.OFF", MeshFormat::Off),
            ("c.Off", MeshFormat::Off),
            ("d.obj", MeshFormat::Obj),
            ("e.OBJ", MeshFormat::Obj),
        ] {
            assert_eq!(
                MeshFormat::from_path(Path::new(name)).unwrap(),
                format,
                "{name}"
            );
        }
        for name in ["a.stl", "b", "c.off.gz", "off", ".obj.bak"] {
            match MeshFormat::from_path(Path::new(name)) {
                Err(GeomError::UnsupportedMeshFormat { path }) => assert_eq!(path, name),
                other => panic!("{name}: expected UnsupportedMeshFormat, got {other:?}"),
            }
        }
    }

    #[test]
    fn content_lines_strip_comments_and_blanks() {
        let text = "# head\n\n  a b # c\r\n\t\n#\nd#e\n   ";
        let lines: Vec<_> = content_lines(text).collect();
        assert_eq!(lines, vec![(3, "a b"), (6, "d")]);
        assert_eq!(last_line(text), 7);
        assert_eq!(last_line(""), 1);
        assert_eq!(last_line("x\n"), 1);
        assert_eq!(last_line("x\n\n"), 2);
    }

    #[test]
    fn excerpts_are_bounded_and_show_control_characters() {
        assert_eq!(excerpt("1.5e3"), "1.5e3");
        assert_eq!(
            excerpt("a\0b\tc\u{1b}[2J\u{7f}é"),
            "a\\0b\\tc\\u{1b}[2J\\u{7f}é"
        );
        let exact = "x".repeat(EXCERPT_CHARS);
        assert_eq!(excerpt(&exact), exact);
        let long = "é".repeat(1 << 20);
        let quoted = excerpt(&long);
        assert_eq!(
            quoted,
            format!("{}... ({} bytes)", "é".repeat(EXCERPT_CHARS), 2 << 20)
        );
    }

    #[test]
    fn quoted_tokens_in_errors_are_excerpts() {
        let huge = "9".repeat(1 << 20);
        let text = format!("OFF\n3 1 0\n0 0 0\n1 0 {huge}x\n");
        match off::read_off(&text) {
            Err(GeomError::Parse { line: 4, message }) => {
                assert!(message.len() < 200, "{} bytes", message.len());
                assert!(
                    message.contains(&format!("({} bytes)", huge.len() + 1)),
                    "{message}"
                );
            }
            other => panic!("{other:?}"),
        }
        match obj::read_obj("v 0 0 0\nv 1 0 0\nv 0 1\x000 0\nf 1 2 3\n") {
            Err(GeomError::Parse { line: 3, message }) => {
                assert!(message.contains("`1\\00`"), "{message}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn cr_lf_and_crlf_all_end_lines() {
        for text in [
            "a\nb\n\nc",
            "a\r\nb\r\n\r\nc",
            "a\rb\r\rc",
            "a\rb\n\r\nc",
            "a\nb\r\rc\r\n",
            "a\rb\r\rc\r",
        ] {
            let lines: Vec<_> = text_lines(text).collect();
            assert_eq!(lines, ["a", "b", "", "c"], "{text:?}");
            assert_eq!(last_line(text), 4, "{text:?}");
            assert_eq!(
                line_ends(text.as_bytes()),
                3 + usize::from(text.ends_with(['\r', '\n']))
            );
        }
        for text in ["", "x", "x\n", "x\r\n", "\n", "a\n\nb\r\n", " \r\n\t"] {
            let mine: Vec<_> = text_lines(text).collect();
            let std: Vec<_> = text.lines().collect();
            assert_eq!(mine, std, "{text:?}");
        }
        assert_eq!(last_line("x\r"), 1);
        assert_eq!(last_line("x\r\r"), 2);
    }

    #[test]
    fn coordinates_are_f64_and_must_be_finite_in_f32() {
        assert_eq!(parse_coordinate::<f32>("0.1", 1, 0, 0).unwrap(), 0.1f64);
        assert_eq!(parse_coordinate::<f64>("0.1", 1, 0, 0).unwrap(), 0.1f64);
        assert_eq!(parse_coordinate::<f64>("1e39", 1, 0, 0).unwrap(), 1e39);
        assert_eq!(
            parse_coordinate::<f32>("-3.4e38", 1, 0, 0).unwrap(),
            -3.4e38f64
        );
        assert_eq!(
            f32::from_f64(parse_coordinate::<f32>("1e-45", 1, 0, 0).unwrap()),
            1e-45f32
        );
        assert_eq!(parse_coordinate::<f32>("1e-50", 1, 0, 0).unwrap(), 1e-50);
        assert_eq!(f32::from_f64(1e-50), 0.0);
        for token in [
            "nan", "NaN", "inf", "-inf", "infinity", "1e999", "3.5e38", "x", "1,5", "",
        ] {
            match parse_coordinate::<f32>(token, 7, 2, 1) {
                Err(GeomError::Parse { line: 7, message }) => {
                    assert!(message.starts_with("vertex 2: y = "), "{message}");
                }
                other => panic!("{token}: expected a parse error on line 7, got {other:?}"),
            }
        }
    }
}
