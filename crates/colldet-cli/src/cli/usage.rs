//! What `colldet` prints and returns when clap stops parsing: help and version on standard
//! output with status 0; a usage error on standard error with status 2, its first line
//! `colldet: MESSAGE` (the option parsers' own message where there is one), then clap's tip and
//! usage lines. Every quoted argument is bounded and shows control characters escaped, like the
//! runtime errors' quotes ([`excerpt`]).

use clap::error::{ContextKind, ContextValue, ErrorKind};
use colldet_geom::io::excerpt;

/// Exit status of a usage error (status 1 is a failed command).
pub const USAGE_ERROR: u8 = 2;

/// Longest line of a usage error, in characters, before it is cut.
const MAX_LINE_CHARS: usize = 240;

/// How a parse failure ends the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Exit status: 0 for help and version, [`USAGE_ERROR`] otherwise.
    pub status: u8,
    /// Text for standard output (help, version), else empty.
    pub stdout: String,
    /// Text for standard error (the usage error), else empty.
    pub stderr: String,
}

/// The outcome of clap's `error`.
pub fn outcome(error: &clap::Error) -> Outcome {
    let rendered = error.render().to_string();
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
    ) {
        return Outcome {
            status: 0,
            stdout: rendered,
            stderr: String::new(),
        };
    }
    if error.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        // `colldet` alone: the help, as a usage error.
        return Outcome {
            status: USAGE_ERROR,
            stdout: String::new(),
            stderr: rendered,
        };
    }
    let mut lines = rendered.lines();
    let clap_first = lines.next().unwrap_or_default();
    let first = first_line(error)
        .unwrap_or_else(|| visible(clap_first.strip_prefix("error: ").unwrap_or(clap_first)));
    let mut stderr = format!("colldet: {first}\n");
    for line in lines {
        stderr.push_str(&visible(line));
        stderr.push('\n');
    }
    Outcome {
        status: USAGE_ERROR,
        stdout: String::new(),
        stderr,
    }
}

/// colldet's own first line for the errors whose clap wording quotes the argument unbounded or
/// repeats what the option parser already says.
fn first_line(error: &clap::Error) -> Option<String> {
    match error.kind() {
        // The option parsers' messages name the option, quote the value and give the range.
        ErrorKind::ValueValidation => {
            std::error::Error::source(error).map(|source| source.to_string())
        }
        ErrorKind::UnknownArgument => match error.get(ContextKind::InvalidArg) {
            Some(ContextValue::String(arg)) if arg.starts_with('-') => {
                Some(format!("unknown option `{}`", excerpt(arg)))
            }
            Some(ContextValue::String(arg)) => {
                Some(format!("unexpected argument `{}`", excerpt(arg)))
            }
            _ => None,
        },
        ErrorKind::InvalidSubcommand => match error.get(ContextKind::InvalidSubcommand) {
            Some(ContextValue::String(name)) => Some(format!(
                "unknown subcommand `{}` (run, demo, info)",
                excerpt(name)
            )),
            _ => None,
        },
        _ => None,
    }
}

/// `line` with control characters escaped and cut after [`MAX_LINE_CHARS`] characters.
fn visible(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars();
    for c in chars.by_ref().take(MAX_LINE_CHARS) {
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    if chars.next().is_some() {
        out.push_str(&format!("... ({} bytes)", line.len()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::Cli;
    use clap::Parser;

    fn parse(args: &[&str]) -> Outcome {
        let error = Cli::try_parse_from(std::iter::once("colldet").chain(args.iter().copied()))
            .expect_err("parse should stop");
        outcome(&error)
    }

    #[test]
    fn help_and_version_go_to_stdout_with_status_0() {
        let help = parse(&["--help"]);
        assert_eq!(help.status, 0);
        assert!(
            help.stdout.contains("Usage: colldet <COMMAND>"),
            "{}",
            help.stdout
        );
        assert!(help.stdout.contains("Exit status:"));
        let version = parse(&["demo", "--version"]);
        assert_eq!(version.status, 0);
        assert!(version.stdout.contains(env!("CARGO_PKG_VERSION")));
        assert!(version.stderr.is_empty());
    }

    #[test]
    fn usage_errors_have_one_colldet_line_first_and_status_2() {
        let unknown = parse(&["run", "a.scene", "--fast"]);
        assert_eq!(unknown.status, USAGE_ERROR);
        assert!(unknown.stdout.is_empty());
        assert!(
            unknown
                .stderr
                .starts_with("colldet: unknown option `--fast`\n"),
            "{}",
            unknown.stderr
        );
        assert!(unknown.stderr.contains("Usage: colldet run"));
        let range = parse(&["demo", "--frames", "0"]);
        assert!(
            range
                .stderr
                .starts_with("colldet: --frames: 0 is out of range: 1 to 10000000\n"),
            "{}",
            range.stderr
        );
        let subcommand = parse(&["play"]);
        assert!(
            subcommand
                .stderr
                .starts_with("colldet: unknown subcommand `play` (run, demo, info)\n"),
            "{}",
            subcommand.stderr
        );
    }

    #[test]
    fn hostile_arguments_are_quoted_bounded_and_escaped() {
        let long = format!("--{}", "x".repeat(1 << 20));
        let error = parse(&["info", &long, "m.off"]);
        assert!(error.stderr.len() < 2000, "{} bytes", error.stderr.len());
        assert!(
            error.stderr.contains("... (1048578 bytes)`"),
            "{}",
            error.stderr
        );
        let error = parse(&["info", "a.off", "b\u{1b}[2J.off"]);
        assert!(!error.stderr.contains('\u{1b}'), "{:?}", error.stderr);
        assert!(error.stderr.contains("b\\u{1b}[2J.off"), "{}", error.stderr);
    }
}
