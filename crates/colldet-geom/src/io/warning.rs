//! What a reader skipped in a file it accepted: warnings, aggregated by kind.
//!
//! Rationale: real OBJ files carry statements colldet has no use for (`vt`, `vn`, `usemtl`, ...)
//! on most of their lines, and OFF files written by hand or by old tools sometimes carry content
//! after their declared faces. Skipping these is right, doing it silently is not: each skipped
//! kind becomes one [`ReadWarning`] with the number of lines it covers and the first of them, so
//! a million `vt` lines are one warning, not a million. Distinct unknown OBJ keywords are kept
//! apart up to [`MAX_DISTINCT_KEYWORDS`]; beyond that they share one warning, so hostile text
//! cannot make the list grow with the file.

use std::fmt;

use super::excerpt;

/// Distinct unknown OBJ keywords reported one by one; any further ones share a single
/// [`WarningKind::OtherUnknownStatements`] warning.
pub const MAX_DISTINCT_KEYWORDS: usize = 16;

/// What was skipped.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum WarningKind {
    /// OBJ: a statement that carries no polygon geometry (`vt`, `vn`, `vp`, `o`, `g`, `s`, `l`,
    /// `p`, `usemtl`, `mtllib`, ...).
    IgnoredStatement {
        /// The statement's keyword.
        keyword: String,
    },
    /// OBJ: a statement colldet does not know, free-form geometry (`curv`, `surf`, `cstype`)
    /// included: whatever it describes is not in the mesh.
    UnknownStatement {
        /// The keyword (the line's first token), quoted as [`excerpt`] quotes it.
        keyword: String,
    },
    /// OBJ: unknown statements beyond the first [`MAX_DISTINCT_KEYWORDS`] distinct keywords.
    OtherUnknownStatements,
    /// OBJ: a line of non-negative integers before the first statement, such as the vertex count
    /// some exporters write at the top.
    LeadingCount,
    /// OFF: content after the last of the faces the header declares.
    TrailingContent {
        /// The face count the header declares.
        declared_faces: usize,
    },
}

/// One kind of skipped content in a file that was read: where it first occurs and how often.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadWarning {
    /// The 1-based line of the first occurrence (the first line of a continued OBJ statement).
    pub line: usize,
    /// What was skipped.
    pub kind: WarningKind,
    /// How many lines (statements, for OBJ continuation lines) were skipped for this kind.
    pub count: usize,
    /// The first skipped line's content (comment removed, trimmed), quoted as [`excerpt`]
    /// quotes it.
    pub excerpt: String,
}

impl fmt::Display for ReadWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lines = if self.count == 1 { "line" } else { "lines" };
        let (count, line) = (self.count, self.line);
        let first = if count == 1 {
            format!("line {line}")
        } else {
            format!("first at line {line}")
        };
        match &self.kind {
            WarningKind::IgnoredStatement { keyword } => {
                write!(f, "{count} {lines} of `{keyword}` skipped ({first})")
            }
            WarningKind::UnknownStatement { keyword } => write!(
                f,
                "{count} {lines} of unknown statement `{keyword}` skipped ({first})"
            ),
            WarningKind::OtherUnknownStatements => write!(
                f,
                "{count} more {lines} of other unknown statements skipped ({first}: `{}`)",
                self.excerpt
            ),
            WarningKind::LeadingCount => write!(
                f,
                "{count} leading count {lines} skipped ({first}: `{}`)",
                self.excerpt
            ),
            WarningKind::TrailingContent { declared_faces } => write!(
                f,
                "{count} {lines} after the last of the {declared_faces} declared faces skipped \
                 ({first}: `{}`)",
                self.excerpt
            ),
        }
    }
}

/// Collects warnings, one per kind (per keyword for OBJ statements), in order of first
/// occurrence.
#[derive(Debug, Default)]
pub(super) struct Warnings {
    warnings: Vec<ReadWarning>,
    /// The raw keyword of each statement warning with its index in `warnings`.
    keywords: Vec<(String, usize)>,
    /// Distinct unknown keywords with a warning of their own.
    unknown_keywords: usize,
    /// Index of the [`WarningKind::OtherUnknownStatements`] warning, once there is one.
    other: Option<usize>,
}

impl Warnings {
    /// Counts one skipped OBJ statement without polygon geometry, `keyword`, on `line` whose
    /// content is `content`.
    pub(super) fn ignored(&mut self, keyword: &str, line: usize, content: &str) {
        if !self.count_keyword(keyword) {
            let kind = WarningKind::IgnoredStatement {
                keyword: keyword.to_owned(),
            };
            self.push_keyword(keyword, kind, line, content);
        }
    }

    /// Counts one skipped unknown OBJ statement `keyword` on `line` whose content is `content`.
    pub(super) fn unknown(&mut self, keyword: &str, line: usize, content: &str) {
        if self.count_keyword(keyword) {
            return;
        }
        if self.unknown_keywords < MAX_DISTINCT_KEYWORDS {
            self.unknown_keywords += 1;
            let kind = WarningKind::UnknownStatement {
                keyword: excerpt(keyword),
            };
            self.push_keyword(keyword, kind, line, content);
            return;
        }
        match self.other {
            Some(at) => self.warnings[at].count += 1,
            None => {
                self.other = Some(self.warnings.len());
                self.push(WarningKind::OtherUnknownStatements, line, content);
            }
        }
    }

    /// Counts one more `keyword` statement if it has a warning already; whether it had.
    fn count_keyword(&mut self, keyword: &str) -> bool {
        match self.keywords.iter().find(|(k, _)| k == keyword) {
            Some(&(_, at)) => {
                self.warnings[at].count += 1;
                true
            }
            None => false,
        }
    }

    fn push_keyword(&mut self, keyword: &str, kind: WarningKind, line: usize, content: &str) {
        self.keywords
            .push((keyword.to_owned(), self.warnings.len()));
        self.push(kind, line, content);
    }

    /// Counts one skipped line of `kind` (other than an OBJ statement) on `line`.
    pub(super) fn line(&mut self, kind: WarningKind, line: usize, content: &str) {
        match self.warnings.iter_mut().find(|w| w.kind == kind) {
            Some(warning) => warning.count += 1,
            None => self.push(kind, line, content),
        }
    }

    fn push(&mut self, kind: WarningKind, line: usize, content: &str) {
        self.warnings.push(ReadWarning {
            line,
            kind,
            count: 1,
            excerpt: excerpt(content),
        });
    }

    /// The warnings, in order of first occurrence.
    pub(super) fn into_vec(self) -> Vec<ReadWarning> {
        self.warnings
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_aggregate_by_keyword_in_order_of_first_occurrence() {
        let mut warnings = Warnings::default();
        warnings.ignored("vt", 7, "vt 0 0");
        warnings.ignored("vn", 8, "vn 0 0 1");
        for line in 9..50 {
            warnings.ignored("vt", line, "vt 1 1");
        }
        warnings.unknown("curv", 60, "curv 0 1 1 2");
        let warnings = warnings.into_vec();
        assert_eq!(warnings.len(), 3);
        assert_eq!(
            warnings[0].to_string(),
            "42 lines of `vt` skipped (first at line 7)"
        );
        assert_eq!(warnings[0].excerpt, "vt 0 0");
        assert_eq!(warnings[1].to_string(), "1 line of `vn` skipped (line 8)");
        assert_eq!(
            warnings[2].to_string(),
            "1 line of unknown statement `curv` skipped (line 60)"
        );
    }

    #[test]
    fn distinct_unknown_keywords_are_bounded() {
        let mut warnings = Warnings::default();
        for i in 0..1000 {
            let keyword = format!("k{i}");
            warnings.unknown(&keyword, i + 1, &keyword);
        }
        let warnings = warnings.into_vec();
        assert_eq!(warnings.len(), MAX_DISTINCT_KEYWORDS + 1);
        let other = &warnings[MAX_DISTINCT_KEYWORDS];
        assert_eq!(other.kind, WarningKind::OtherUnknownStatements);
        assert_eq!(other.count, 1000 - MAX_DISTINCT_KEYWORDS);
        assert_eq!(other.line, MAX_DISTINCT_KEYWORDS + 1);
    }

    #[test]
    fn hostile_keywords_and_lines_are_quoted_bounded() {
        let mut warnings = Warnings::default();
        let long = "\u{1b}".repeat(1 << 16);
        warnings.unknown(&long, 3, &long);
        let warnings = warnings.into_vec();
        let text = warnings[0].to_string();
        assert!(text.len() < 1000, "{} bytes", text.len());
        assert!(text.contains("\\u{1b}"), "{text}");
    }

    #[test]
    fn lines_aggregate_by_kind() {
        let mut warnings = Warnings::default();
        let kind = WarningKind::TrailingContent { declared_faces: 2 };
        warnings.line(kind.clone(), 9, "3 0 2 1");
        warnings.line(kind.clone(), 10, "junk");
        let warnings = warnings.into_vec();
        assert_eq!(
            warnings,
            [ReadWarning {
                line: 9,
                kind,
                count: 2,
                excerpt: "3 0 2 1".into(),
            }]
        );
        assert_eq!(
            warnings[0].to_string(),
            "2 lines after the last of the 2 declared faces skipped (first at line 9: `3 0 2 1`)"
        );
    }
}
