//! OFF (Geomview Object File Format) reader, text form.
//!
//! Accepted layout (`#` starts a comment anywhere; blank lines are skipped; one record per line):
//! ```text
//! [ST][C][N]OFF [nv nf [ne]]     header keyword, counts optionally on the same line
//! nv nf [ne]                     counts line (if not on the header line); ne is ignored
//! x y z [nx ny nz] [r g b [a]] [s t]   nv vertex lines; extras as the prefixes N, C, ST say
//! k i0 .. ik-1 [colour]          nf face lines; k >= 3; colour = 0, 1, 3 or 4 numbers, ignored
//! ```
//! The prefixes must appear in the Geomview order (`STCNOFF`, not `NCOFF`). The 4-D (`4OFF`),
//! n-D (`nOFF`) and binary (`OFF BINARY`) variants are rejected. Decisions beyond the Geomview
//! description, all to catch a header that does not match its data rather than misread it:
//! a vertex line must hold exactly the values its header implies (a plain `OFF` vertex line
//! `x y z w` is an error, not a silently dropped `w`); face indices are 0-based and must be
//! `< nv`. Content after the last declared face (extra lines, extra faces) is the one mismatch
//! read anyway: it is skipped and reported as a [`WarningKind::TrailingContent`] warning naming
//! its first line and how many lines it spans.

use std::path::Path;

use super::warning::Warnings;
use super::{
    Coordinate, LoadedMesh, ReadWarning, WarningKind, content_lines, count_numbers, excerpt,
    last_line, parse_error, parse_position, read_text, strip_bom,
};
use crate::error::GeomError;
use crate::math::PointD;
use crate::mesh_data::{FaceList, MeshData};

/// Which per-vertex attributes follow `x y z` on a vertex line, from the header prefixes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct VertexLayout {
    /// `N`: a normal `nx ny nz`.
    normals: bool,
    /// `C`: a colour `r g b` or `r g b a`.
    colours: bool,
    /// `ST`: texture coordinates `s t`.
    texture: bool,
}

impl VertexLayout {
    /// Parses a header keyword `[ST][C][N][4][n]OFF`, rejecting the 4-D and n-D variants.
    fn from_keyword(keyword: &str, line: usize) -> Result<Self, GeomError> {
        let mut rest = keyword;
        let mut take = |prefix: &str| match rest.strip_prefix(prefix) {
            Some(tail) => {
                rest = tail;
                true
            }
            None => false,
        };
        let texture = take("ST");
        let colours = take("C");
        let normals = take("N");
        let four = take("4");
        let n_dimensional = take("n");
        if rest != "OFF" {
            return Err(parse_error(
                line,
                format!(
                    "`{}` is not an OFF header keyword \
                     (expected [ST][C][N]OFF, prefixes in that order)",
                    excerpt(keyword)
                ),
            ));
        }
        if four || n_dimensional {
            return Err(parse_error(
                line,
                format!(
                    "`{}`: 4-D and n-D OFF variants are not supported (3-D meshes only)",
                    excerpt(keyword)
                ),
            ));
        }
        Ok(Self {
            normals,
            colours,
            texture,
        })
    }

    /// Values after `x y z` other than the colour.
    fn fixed_extras(self) -> usize {
        3 * usize::from(self.normals) + 2 * usize::from(self.texture)
    }

    /// Whether a vertex line with `extras` values after `x y z` fits this layout.
    fn accepts(self, extras: usize) -> bool {
        let fixed = self.fixed_extras();
        if self.colours {
            extras == fixed + 3 || extras == fixed + 4
        } else {
            extras == fixed
        }
    }

    /// The expected vertex line, for error messages.
    fn describe(self) -> String {
        let mut fields = String::from("x y z");
        if self.normals {
            fields.push_str(" nx ny nz");
        }
        if self.colours {
            fields.push_str(" r g b [a]");
        }
        if self.texture {
            fields.push_str(" s t");
        }
        fields
    }
}

/// Parses OFF text into a mesh. See the module documentation for the accepted layout; content
/// after the last face is skipped (see [`read_off_with_warnings`] to learn about it).
///
/// Vertices are the object's local-frame positions as written, in `f64` (rounded once from the
/// text; [`MeshData::from_f64`] keeps them when some coordinate is not an `f32` number); faces are
/// the polygons as written (0-based indices, any size >= 3, order kept). Normals, colours and
/// texture coordinates are checked to be numbers and then dropped.
///
/// # Errors
/// [`GeomError::Parse`] with the 1-based line for: a missing or unknown header keyword, the
/// 4-D/n-D/binary variants, counts that are not non-negative integers (or more than `u32::MAX`
/// vertices), a coordinate that is not a finite `f32` (`nan`, `inf`, `1e999`), a vertex line with
/// the wrong number of values, a face with fewer than 3 vertices, a face index that is negative,
/// not an integer or `>= nv`, a face line with too few indices or a malformed colour, and a
/// truncated file (fewer vertex or face lines than the counts say;
/// reported at the file's last line). [`GeomError::NoVertices`] / [`GeomError::NoFaces`] when a
/// count is zero.
pub fn read_off(text: &str) -> Result<MeshData, GeomError> {
    read_off_with_warnings(text).map(|loaded| loaded.mesh)
}

/// As [`read_off`], returning the mesh and what was skipped: at most one warning, a
/// [`WarningKind::TrailingContent`] for the lines after the last declared face.
///
/// # Errors
/// As [`read_off`].
pub fn read_off_with_warnings(text: &str) -> Result<LoadedMesh, GeomError> {
    let parsed = read_off_as::<f32>(text)?;
    let vertices = parsed
        .positions
        .into_iter()
        .map(|[x, y, z]| PointD::new(x, y, z))
        .collect();
    let mesh = MeshData::from_f64(vertices, parsed.faces);
    mesh.validate()?;
    Ok(LoadedMesh {
        mesh,
        warnings: parsed.warnings,
    })
}

/// Parses OFF text keeping the vertex positions in type `T`, for callers that want them apart
/// from a mesh: the scene motion model takes a mesh's bounding radius from the `f64` vertices.
/// Each coordinate is rounded once from the text to `f64`, then to `T`, so `f32` positions equal
/// the `f32` copy [`read_off`] makes. Accepts and rejects exactly what [`read_off`] does (with
/// finiteness checked in `T`).
///
/// # Errors
/// As [`read_off`], with finiteness checked in `T`.
pub fn read_off_positions<T: Coordinate>(text: &str) -> Result<Vec<[T; 3]>, GeomError> {
    Ok(read_off_as::<T>(text)?
        .positions
        .into_iter()
        .map(|p| p.map(T::from_f64))
        .collect())
}

/// What the OFF parser read: `f64` positions (finite in the requested type), faces, warnings.
struct ParsedOff {
    positions: Vec<[f64; 3]>,
    faces: FaceList,
    warnings: Vec<ReadWarning>,
}

/// The OFF parser proper; coordinates are checked finite in `T`.
fn read_off_as<T: Coordinate>(text: &str) -> Result<ParsedOff, GeomError> {
    let text = strip_bom(text);
    let mut lines = content_lines(text);
    let truncated = |what: String| parse_error(last_line(text), what);

    let (header_line, header) = lines
        .next()
        .ok_or_else(|| truncated("file ends before the OFF header".into()))?;
    let (keyword, rest_of_header) = header
        .split_once(|c: char| c.is_ascii_whitespace())
        .unwrap_or((header, ""));
    let layout = VertexLayout::from_keyword(keyword, header_line)?;
    let rest_of_header = rest_of_header.trim();
    let (counts_line, counts) = if rest_of_header.is_empty() {
        lines
            .next()
            .ok_or_else(|| truncated("file ends before the counts line `nv nf ne`".into()))?
    } else {
        (header_line, rest_of_header)
    };
    if counts.split_ascii_whitespace().next() == Some("BINARY") {
        return Err(parse_error(counts_line, "binary OFF is not supported"));
    }
    let (vertex_count, face_count) = parse_counts(counts, counts_line)?;
    if vertex_count == 0 {
        return Err(GeomError::NoVertices);
    }
    if face_count == 0 {
        return Err(GeomError::NoFaces);
    }

    // Every record takes at least two bytes of text, so this caps what a lying header reserves.
    let cap = text.len() / 2;
    let mut vertices = Vec::with_capacity(vertex_count.min(cap));
    for vertex in 0..vertex_count {
        let (line, content) = lines.next().ok_or_else(|| {
            truncated(format!(
                "file ends after {vertex} of the {vertex_count} vertex lines"
            ))
        })?;
        vertices.push(parse_vertex::<T>(content, line, vertex, layout)?);
    }

    // `parse_counts` checked that `3 * face_count` fits.
    let mut faces = FaceList::with_capacity(face_count.min(cap), (3 * face_count).min(cap));
    let mut face_buffer = Vec::new();
    for face in 0..face_count {
        let (line, content) = lines.next().ok_or_else(|| {
            truncated(format!(
                "file ends after {face} of the {face_count} face lines"
            ))
        })?;
        parse_face(content, line, face, vertex_count, &mut face_buffer)?;
        faces.push(&face_buffer);
    }

    let mut warnings = Warnings::default();
    for (line, content) in lines {
        let kind = WarningKind::TrailingContent {
            declared_faces: face_count,
        };
        warnings.line(kind, line, content);
    }
    Ok(ParsedOff {
        positions: vertices,
        faces,
        warnings: warnings.into_vec(),
    })
}

/// Loads an OFF file; see [`read_off`].
///
/// # Errors
/// [`GeomError::Io`] when the file cannot be read, [`GeomError::Parse`] when it is not UTF-8,
/// and everything [`read_off`] reports.
pub fn load_off(path: &Path) -> Result<MeshData, GeomError> {
    read_off(&read_text(path)?)
}

/// Parses the counts `nv nf [ne]`.
fn parse_counts(counts: &str, line: usize) -> Result<(usize, usize), GeomError> {
    let mut values = [0usize; 3];
    let mut found = 0;
    for token in counts.split_ascii_whitespace() {
        if found == 3 {
            return Err(parse_error(
                line,
                format!(
                    "counts line `{}` has more than 3 values (nv nf ne)",
                    excerpt(counts)
                ),
            ));
        }
        values[found] = token.parse().map_err(|_| {
            parse_error(
                line,
                format!("count `{}` is not a non-negative integer", excerpt(token)),
            )
        })?;
        found += 1;
    }
    if found < 2 {
        return Err(parse_error(
            line,
            format!("counts line `{}` needs at least nv and nf", excerpt(counts)),
        ));
    }
    if values[1].checked_mul(3).is_none() {
        return Err(parse_error(
            line,
            format!(
                "{} faces are too many: their indices (at least 3 a face) overflow the address space",
                values[1]
            ),
        ));
    }
    if values[0] > u32::MAX as usize {
        return Err(parse_error(
            line,
            format!("{} vertices do not fit 32-bit vertex indices", values[0]),
        ));
    }
    Ok((values[0], values[1]))
}

/// Parses vertex line `content` (vertex `vertex`, file line `line`).
fn parse_vertex<T: Coordinate>(
    content: &str,
    line: usize,
    vertex: usize,
    layout: VertexLayout,
) -> Result<[f64; 3], GeomError> {
    let wrong_count = |count: usize| {
        parse_error(
            line,
            format!(
                "vertex {vertex}: line has {count} values; expected `{}`",
                layout.describe()
            ),
        )
    };
    let (xyz, extras) =
        parse_position::<T>(content.split_ascii_whitespace(), line, vertex, wrong_count)?;
    if !layout.accepts(extras) {
        return Err(wrong_count(3 + extras));
    }
    Ok(xyz)
}

/// Parses face line `content` (face `face`, file line `line`) into `indices`.
fn parse_face(
    content: &str,
    line: usize,
    face: usize,
    vertex_count: usize,
    indices: &mut Vec<u32>,
) -> Result<(), GeomError> {
    indices.clear();
    let mut tokens = content.split_ascii_whitespace();
    let size_token = tokens.next().unwrap_or_default();
    let size: usize = size_token.parse().map_err(|_| {
        parse_error(
            line,
            format!(
                "face {face}: vertex count `{}` is not a non-negative integer",
                excerpt(size_token)
            ),
        )
    })?;
    if size < 3 {
        return Err(parse_error(
            line,
            format!("face {face} has {size} vertices; a face needs at least 3"),
        ));
    }
    for found in 0..size {
        let token = tokens.next().ok_or_else(|| {
            parse_error(
                line,
                format!("face {face}: line has {found} of its {size} vertex indices"),
            )
        })?;
        let index: i64 = token.parse().map_err(|_| {
            parse_error(
                line,
                format!(
                    "face {face}: vertex index `{}` is not an integer",
                    excerpt(token)
                ),
            )
        })?;
        if index < 0 || index >= vertex_count as i64 {
            return Err(parse_error(
                line,
                format!(
                    "face {face}: vertex index {index} is out of range \
                     (the file has {vertex_count} vertices, numbered from 0)"
                ),
            ));
        }
        indices.push(index as u32);
    }
    let colour_values = count_numbers(tokens, line, format_args!("face {face} colour"))?;
    if !matches!(colour_values, 0 | 1 | 3 | 4) {
        return Err(parse_error(
            line,
            format!(
                "face {face}: {colour_values} values after the {size} indices; \
                 a face colour has 1, 3 or 4"
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Point;

    /// The expected error: a parse error at `line` whose message contains `fragment`.
    #[track_caller]
    fn assert_parse_error(text: &str, line: usize, fragment: &str) {
        crate::io::tests::assert_parse_error(read_off, text, line, fragment);
    }

    fn triangle(vertices: [[f32; 3]; 3]) -> MeshData {
        MeshData::new(
            vertices
                .iter()
                .map(|v| Point::new(v[0], v[1], v[2]))
                .collect(),
            FaceList::from_triangles(&[[0, 1, 2]]),
        )
    }

    const TRIANGLE: [[f32; 3]; 3] = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];

    #[test]
    fn header_variants_read_positions_only() {
        let cases = [
            ("OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n", "plain"),
            (
                "OFF 3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n",
                "counts on header line",
            ),
            ("OFF\n3 1\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n", "no edge count"),
            (
                "NOFF\n3 1 0\n0 0 0 0 0 1\n1 0 0 0 0 1\n0 1 0 0 0 1\n3 0 1 2\n",
                "normals",
            ),
            (
                "COFF\n3 1 0\n0 0 0 255 0 0\n1 0 0 0 255 0 255\n0 1 0 .5 .5 .5 1\n3 0 1 2\n",
                "rgb and rgba",
            ),
            (
                "CNOFF\n3 1 0\n0 0 0 0 0 1 1 0 0\n1 0 0 0 0 1 1 0 0 1\n0 1 0 0 0 1 1 1 1\n\
                 3 0 1 2\n",
                "normals then colours",
            ),
            (
                "STOFF\n3 1 0\n0 0 0 0 0\n1 0 0 1 0\n0 1 0 0 1\n3 0 1 2\n",
                "texture",
            ),
            (
                "STCNOFF\n3 1 0\n0 0 0 0 0 1 1 1 1 0 0\n1 0 0 0 0 1 1 1 1 1 1 0\n\
                 0 1 0 0 0 1 1 1 1 0 1\n3 0 1 2\n",
                "all prefixes",
            ),
            (
                "\u{feff}# made by hand\n\nOFF # header\n# counts next\n3 1 0 # counts\n\n\
                 0 0 0\n# between vertices\n1 0 0   \n\t0 1 0\n\n3 0 1 2 # the face\n# end\n\n",
                "bom, comments and blanks everywhere",
            ),
            (
                "OFF\r\n3 1 0\r\n0 0 0\r\n1 0 0\r\n0 1 0\r\n3 0 1 2\r\n",
                "crlf",
            ),
            (
                "OFF\r3 1 0\r# Mac\r\r0 0 0\r1 0 0\r0 1 0\r3 0 1 2\r",
                "cr (classic Mac OS)",
            ),
            (
                "OFF\r\n3 1 0\r0 0 0\n1 0 0\r\n0 1 0\r3 0 1 2",
                "mixed line ends",
            ),
            (
                "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2 1\n",
                "colour index",
            ),
            (
                "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2 1 0 0\n",
                "face rgb",
            ),
            (
                "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2 1 0 0 .5\n",
                "face rgba",
            ),
            (
                "OFF\n3 1 0\n0e0 +0 -0.0e-3\n1. 0 0\n.0 10e-1 0\n3 0 1 2",
                "number forms, no final newline",
            ),
        ];
        for (text, what) in cases {
            let mesh = read_off(text).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(mesh, triangle(TRIANGLE), "{what}");
        }
    }

    #[test]
    fn polygons_are_kept_and_oddities_load() {
        // A pentagon, a duplicate vertex (4 == 0), an unused vertex (5), a degenerate face with a
        // repeated index, and two triangles of inconsistent orientation: all load unchanged.
        let text = "OFF\n6 4 0\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n0 0 0\n9 9 9\n\
                    5 0 1 2 3 4\n3 0 0 1\n3 0 1 2\n3 0 1 2\n";
        let mesh = read_off(text).unwrap();
        assert_eq!(mesh.vertices.len(), 6);
        assert_eq!(mesh.vertices[5], Point::new(9.0, 9.0, 9.0));
        let faces: Vec<&[u32]> = mesh.faces.iter().collect();
        assert_eq!(
            faces,
            vec![&[0, 1, 2, 3, 4][..], &[0, 0, 1], &[0, 1, 2], &[0, 1, 2]]
        );
    }

    #[test]
    fn header_errors() {
        assert_parse_error("", 1, "before the OFF header");
        assert_parse_error("# only a comment\n\n", 2, "before the OFF header");
        assert_parse_error("PLY\n3 1 0\n", 1, "not an OFF header");
        assert_parse_error("3 1 0\n0 0 0\n", 1, "not an OFF header");
        assert_parse_error("\n\nNCOFF\n3 1 0\n", 3, "prefixes in that order");
        assert_parse_error("off\n3 1 0\n", 1, "not an OFF header");
        assert_parse_error("4OFF\n3 1 0\n", 1, "4-D and n-D");
        assert_parse_error("nOFF\n3\n3 1 0\n", 1, "4-D and n-D");
        assert_parse_error("CN4OFF\n3 1 0\n", 1, "4-D and n-D");
        assert_parse_error("OFF BINARY\n", 1, "binary");
        assert_parse_error("OFF\n# no counts\n", 2, "before the counts line");
    }

    #[test]
    fn count_errors() {
        assert_parse_error("OFF\n8.0 6 0\n", 2, "`8.0` is not a non-negative integer");
        assert_parse_error("OFF\n8 six 0\n", 2, "`six` is not");
        assert_parse_error("OFF\n-1 6 0\n", 2, "`-1` is not");
        assert_parse_error("OFF 3 1 0.5\n", 1, "`0.5` is not");
        assert_parse_error("OFF\n8\n", 2, "needs at least nv and nf");
        assert_parse_error("OFF\n8 6 0 1\n", 2, "more than 3 values");
        assert_parse_error("OFF\n4294967296 1 0\n", 2, "32-bit");
        let too_many = (usize::MAX / 3 + 1).to_string();
        assert_parse_error(
            &format!("OFF\n3 {too_many} 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n"),
            2,
            &format!("{too_many} faces are too many"),
        );
        assert_parse_error(
            &format!("OFF 3 {} 0\n", usize::MAX),
            1,
            "faces are too many",
        );
        assert_parse_error(
            "OFF\n99999999999999999999999 1 0\n",
            2,
            "not a non-negative",
        );
        assert!(matches!(
            read_off("OFF\n0 1 0\n3 0 1 2\n"),
            Err(GeomError::NoVertices)
        ));
        assert!(matches!(
            read_off("OFF\n0 0 0\n"),
            Err(GeomError::NoVertices)
        ));
        assert!(matches!(
            read_off("OFF\n3 0 0\n0 0 0\n1 0 0\n0 1 0\n"),
            Err(GeomError::NoFaces)
        ));
    }

    #[test]
    fn vertex_errors() {
        let head = "OFF\n3 1 0\n0 0 0\n";
        for (vertex_line, fragment) in [
            ("nan 0 0", "x = `nan` is not a finite f32"),
            ("0 NaN 0", "y = `NaN` is not a finite f32"),
            ("0 0 inf", "z = `inf` is not a finite f32"),
            ("-inf 0 0", "x = `-inf` is not a finite f32"),
            ("0 1e999 0", "y = `1e999` is not a finite f32"),
            ("0 0 -3.5e38", "z = `-3.5e38` is not a finite f32"),
            ("0 0 1,5", "`1,5` is not a number"),
            ("0 0", "line has 2 values; expected `x y z`"),
            ("0 0 0 1", "line has 4 values; expected `x y z`"),
            ("0 0 0 junk", "vertex 1: `junk` is not a number"),
        ] {
            let text = format!("{head}{vertex_line}\n0 1 0\n3 0 1 2\n");
            assert_parse_error(&text, 4, fragment);
        }
        assert_parse_error("NOFF\n3 1 0\n0 0 0 0 0 1\n1 0 0\n", 4, "`x y z nx ny nz`");
        assert_parse_error("COFF\n3 1 0\n0 0 0 1 1\n", 3, "`x y z r g b [a]`");
        assert_parse_error("COFF\n3 1 0\n0 0 0 1 1 1 1 1\n", 3, "line has 8 values");
        assert_parse_error("STOFF\n3 1 0\n0 0 0 1\n", 3, "`x y z s t`");
    }

    #[test]
    fn face_errors() {
        let head = "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n";
        for (face_line, fragment) in [
            ("2 0 1", "face 0 has 2 vertices; a face needs at least 3"),
            ("0", "face 0 has 0 vertices"),
            ("-3 0 1 2", "vertex count `-3` is not"),
            ("3.0 0 1 2", "vertex count `3.0` is not"),
            (
                "3 0 1 3",
                "vertex index 3 is out of range (the file has 3 vertices",
            ),
            ("3 0 -1 2", "vertex index -1 is out of range"),
            (
                "3 0 1 99999999999",
                "vertex index 99999999999 is out of range",
            ),
            ("3 0 1.5 2", "vertex index `1.5` is not an integer"),
            ("4 0 1 2", "line has 3 of its 4 vertex indices"),
            ("3 0 1 2 1 1", "2 values after the 3 indices"),
            ("3 0 1 2 1 1 1 1 1", "5 values after the 3 indices"),
            ("3 0 1 2 red", "face 0 colour: `red` is not a number"),
        ] {
            let text = format!("{head}{face_line}\n");
            assert_parse_error(&text, 6, fragment);
        }
    }

    #[test]
    fn truncation_is_reported_at_the_last_line() {
        assert_parse_error(
            "OFF\n3 1 0\n0 0 0\n1 0 0\n",
            4,
            "after 2 of the 3 vertex lines",
        );
        assert_parse_error(
            "OFF\n3 1 0\n0 0 0\n1 0 0\n# trailing\n\n",
            6,
            "after 2 of the 3 vertex lines",
        );
        assert_parse_error(
            "OFF\n3 2 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2",
            6,
            "after 1 of the 2 face lines",
        );
        assert_parse_error(
            "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n",
            5,
            "after 0 of the 1 face",
        );
    }

    #[test]
    fn errors_in_cr_files_name_the_right_line() {
        assert_parse_error("OFF\r3 1 0\r\r0 0 0\r1 0 x\r", 5, "z = `x` is not a number");
        assert_parse_error(
            "OFF\r3 1 0\r0 0 0\r1 0 0\r\r",
            5,
            "after 2 of the 3 vertex lines",
        );
    }

    #[test]
    fn content_after_the_last_face_is_skipped_with_a_warning() {
        let text = "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n# fine\n\n3 0 2 1 # more\njunk x\n";
        let loaded = read_off_with_warnings(text).unwrap();
        assert_eq!(loaded.mesh, triangle(TRIANGLE));
        assert_eq!(read_off(text).unwrap(), loaded.mesh);
        assert_eq!(
            loaded.warnings,
            [ReadWarning {
                line: 9,
                kind: WarningKind::TrailingContent { declared_faces: 1 },
                count: 2,
                excerpt: "3 0 2 1".into(),
            }]
        );
        assert_eq!(
            loaded.warnings[0].to_string(),
            "2 lines after the last of the 1 declared faces skipped (first at line 9: `3 0 2 1`)"
        );
        assert_eq!(read_off_positions::<f64>(text).unwrap().len(), 3);
        let tidy = read_off_with_warnings("OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n# end\n");
        assert!(tidy.unwrap().warnings.is_empty());
    }

    #[test]
    fn other_count_mismatches_still_fail() {
        // One vertex more than declared: the extra vertex line is read as a face.
        assert_parse_error(
            "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 1 2\n",
            6,
            "face 0 has 0 vertices",
        );
        // Fewer face lines than declared.
        assert_parse_error(
            "OFF\n3 2 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n",
            6,
            "after 1 of the 2 face lines",
        );
    }

    #[test]
    fn coordinates_are_kept_in_f64() {
        let text = "OFF\n3 1 0\n4000.1 0.1 1e-9\n1 0 0\n0 1 0\n3 0 1 2\n";
        let mesh = read_off(text).unwrap();
        let precise = mesh.precise_vertices().expect("0.1 is not an f32 number");
        assert_eq!(
            [precise[0].x, precise[0].y, precise[0].z].map(f64::to_bits),
            [4000.1f64, 0.1, 1e-9].map(f64::to_bits)
        );
        assert_eq!(mesh.vertices[0], Point::new(4000.1, 0.1, 1e-9));
        let wide = read_off_positions::<f64>(text).unwrap();
        assert_eq!(
            wide[0].map(f64::to_bits),
            [4000.1f64, 0.1, 1e-9].map(f64::to_bits)
        );
        let narrow = read_off_positions::<f32>(text).unwrap();
        assert_eq!(narrow[0], [4000.1f32, 0.1, 1e-9]);
        // 1e39 is a finite f64 but not a finite f32: rejected by the mesh reader, kept in f64.
        let huge = "OFF\n3 1 0\n0 0 1e39\n1 0 0\n0 1 0\n3 0 1 2\n";
        assert_parse_error(huge, 3, "z = `1e39` is not a finite f32");
        assert_eq!(read_off_positions::<f64>(huge).unwrap()[0][2], 1e39);
    }

    #[test]
    fn lying_counts_do_not_reserve_huge_memory() {
        // 4e9 vertices announced in a 30-byte file: reservation is capped, truncation reported.
        assert_parse_error(
            "OFF\n4000000000 1 0\n0 0 0\n",
            3,
            "after 1 of the 4000000000",
        );
        assert_parse_error(
            "OFF\n3 4000000000 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n",
            6,
            "after 1 of the 4000000000 face lines",
        );
    }
}
