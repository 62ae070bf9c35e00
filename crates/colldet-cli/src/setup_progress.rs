//! Setup progress of `colldet demo` on standard error, before the frame progress
//! ([`crate::progress`]) starts its clock.
//!
//! - Bar style (terminal): one status line `demo setup: TEXT  elapsed 1.2 s` redrawn in place
//!   with `\r` at most every [`REDRAW_INTERVAL`]; milestones are always drawn; the last step
//!   ([`SetupStep::Ready`]) ends the line.
//! - Lines style (pipe, file, CI log): one line per milestone ([`SetupStep::is_milestone`]):
//!   meshes built, objects added, each placement attempt, ready.

use std::io::{IsTerminal, Write};
use std::time::Instant;

use crate::demo::SetupStep;
use crate::progress::{ProgressStyle, REDRAW_INTERVAL};

/// Progress of a demo's setup, written to `out`.
pub struct SetupProgress<W: Write> {
    out: W,
    style: ProgressStyle,
    label: String,
    start: Instant,
    last_draw: Option<Instant>,
    /// Width of the last bar-style line, so a shorter one erases its tail.
    last_width: usize,
}

impl SetupProgress<std::io::Stderr> {
    /// Setup progress on standard error: redrawn on a terminal, lines otherwise.
    pub fn stderr(label: &str) -> Self {
        let style = if std::io::stderr().is_terminal() {
            ProgressStyle::Bar
        } else {
            ProgressStyle::Lines
        };
        Self::new(std::io::stderr(), style, label)
    }
}

impl<W: Write> SetupProgress<W> {
    /// Setup progress in `style` on `out`; the clock starts now.
    pub fn new(out: W, style: ProgressStyle, label: &str) -> Self {
        Self {
            out,
            style,
            label: label.to_string(),
            start: Instant::now(),
            last_draw: None,
            last_width: 0,
        }
    }

    /// Reports `step`. Write errors are ignored: progress output must never stop a run.
    pub fn step(&mut self, step: SetupStep) {
        self.step_at(step, Instant::now());
    }

    /// [`SetupProgress::step`] with an explicit clock reading (for tests).
    fn step_at(&mut self, step: SetupStep, now: Instant) {
        let line = format!(
            "{} setup: {}  elapsed {:.1} s",
            self.label,
            step.text(),
            now.duration_since(self.start).as_secs_f64()
        );
        match self.style {
            ProgressStyle::Lines => {
                if step.is_milestone() {
                    let _ = writeln!(self.out, "{line}");
                }
            }
            ProgressStyle::Bar => {
                let due = self
                    .last_draw
                    .is_none_or(|last| now.duration_since(last) >= REDRAW_INTERVAL);
                if due || step.is_milestone() {
                    let width = line.chars().count();
                    let pad = self.last_width.saturating_sub(width);
                    let _ = write!(self.out, "\r{line}{}", " ".repeat(pad));
                    if matches!(step, SetupStep::Ready { .. }) {
                        let _ = writeln!(self.out);
                    }
                    let _ = self.out.flush();
                    self.last_draw = Some(now);
                    self.last_width = width;
                }
            }
        }
    }

    /// The writer (for tests).
    pub fn into_inner(self) -> W {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn steps() -> Vec<SetupStep> {
        let mut steps: Vec<SetupStep> = (1..=2)
            .map(|done| SetupStep::Meshes { done, total: 2 })
            .collect();
        steps.extend((1..=3).map(|done| SetupStep::Objects { done, total: 3 }));
        for (attempt, side) in [(1, 4.0), (2, 4.2)] {
            for round in 1..=3 {
                steps.push(SetupStep::Placing {
                    attempt,
                    side,
                    round,
                    colliding: if attempt == 2 && round == 3 { 0 } else { 2 },
                });
            }
        }
        steps.push(SetupStep::Ready {
            objects: 3,
            side: 4.2,
        });
        steps
    }

    #[test]
    fn lines_show_the_milestones_in_order() {
        let mut p = SetupProgress::new(Vec::new(), ProgressStyle::Lines, "demo");
        for step in steps() {
            p.step(step);
        }
        let text = String::from_utf8(p.into_inner()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let starts = [
            "demo setup: meshes 2/2  elapsed ",
            "demo setup: objects 3/3 added  elapsed ",
            "demo setup: placing without overlap: attempt 1, box side 4.000, check 1, 2 colliding",
            "demo setup: placing without overlap: attempt 2, box side 4.200, check 1, 2 colliding",
            "demo setup: ready: 3 objects without overlap, box side 4.200  elapsed ",
        ];
        assert_eq!(lines.len(), starts.len(), "{text}");
        for (line, start) in lines.iter().zip(starts) {
            assert!(line.starts_with(start), "{line}");
        }
        assert!(!text.contains('\r'));
    }

    #[test]
    fn bar_redraws_in_place_and_ends_with_ready() {
        let mut p = SetupProgress::new(Vec::new(), ProgressStyle::Bar, "demo");
        let t0 = p.start;
        // All steps within one redraw interval: only the first and the milestones are drawn.
        for (k, step) in steps().into_iter().enumerate() {
            p.step_at(step, t0 + Duration::from_millis(k as u64));
        }
        let text = String::from_utf8(p.into_inner()).unwrap();
        assert_eq!(text.matches('\r').count(), 6, "{text:?}");
        assert!(text.starts_with("\rdemo setup: meshes 1/2  elapsed 0.0 s"));
        assert!(!text.contains("objects 1/3"), "{text:?}");
        // The shorter last line is padded over the longer one before it.
        let last = text.rsplit('\r').next().unwrap();
        assert!(last.ends_with('\n'), "{text:?}");
        assert!(
            last.trim_end().ends_with("box side 4.200  elapsed 0.0 s"),
            "{last:?}"
        );
        let previous = text.rsplit('\r').nth(1).unwrap();
        assert_eq!(last.trim_end_matches('\n').len(), previous.len());
        assert_eq!(text.matches('\n').count(), 1);
        // A later step past the interval is drawn even if not a milestone.
        let mut p = SetupProgress::new(Vec::new(), ProgressStyle::Bar, "x");
        let t0 = p.start;
        p.step_at(SetupStep::Objects { done: 1, total: 9 }, t0);
        p.step_at(
            SetupStep::Objects { done: 2, total: 9 },
            t0 + REDRAW_INTERVAL,
        );
        let text = String::from_utf8(p.into_inner()).unwrap();
        assert!(text.contains("\rx setup: objects 2/9 added"), "{text:?}");
    }
}
