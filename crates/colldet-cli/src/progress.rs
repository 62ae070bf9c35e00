//! Frame progress for the `colldet` runs (`demo` and `run`): a redrawn bar on a terminal, plain
//! lines otherwise.
//!
//! - Bar (terminal): one line `label [=====>    ]  frame 150/300  50%  elapsed 1.2 s  ETA 1.2 s`
//!   redrawn in place with `\r`, at most once every [`REDRAW_INTERVAL`] (and always for the last
//!   frame), so a fast run does not spend its time writing to the terminal. The last frame ends
//!   the line.
//! - Lines (pipe, file, CI log): one full line each time another tenth of the frames is done,
//!   and one for the last frame, so logs stay short and readable.
//!
//! The ETA extrapolates the mean time per frame so far; it is omitted until a frame is done.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// Shortest time between two redraws of the bar.
pub const REDRAW_INTERVAL: Duration = Duration::from_millis(100);

/// Characters between the brackets of the bar.
const BAR_WIDTH: usize = 30;

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgressStyle {
    /// A bar redrawn in place (for a terminal).
    Bar,
    /// A line per tenth of the frames (for a pipe or a file).
    Lines,
}

/// Progress of a run of `total` frames, written to `out`.
pub struct Progress<W: Write> {
    out: W,
    style: ProgressStyle,
    label: String,
    total: u32,
    start: Instant,
    last_draw: Option<Instant>,
    /// Characters of the last bar drawn, so a shorter one (the last, without ETA) erases its tail.
    last_width: usize,
    /// Tenths of the frames already reported in [`ProgressStyle::Lines`].
    tenths_shown: u32,
}

impl Progress<std::io::Stderr> {
    /// Progress on standard error: a bar when it is a terminal, lines otherwise.
    pub fn stderr(label: &str, total: u32) -> Self {
        let style = if std::io::stderr().is_terminal() {
            ProgressStyle::Bar
        } else {
            ProgressStyle::Lines
        };
        Self::new(std::io::stderr(), style, label, total)
    }
}

impl<W: Write> Progress<W> {
    /// Progress of `total` frames in `style` on `out`; the clock starts now.
    pub fn new(out: W, style: ProgressStyle, label: &str, total: u32) -> Self {
        Self {
            out,
            style,
            label: label.to_string(),
            total,
            start: Instant::now(),
            last_draw: None,
            last_width: 0,
            tenths_shown: 0,
        }
    }

    /// Restarts the clock (elapsed time and ETA) and forgets what was drawn: for a caller that
    /// creates the progress before a setup whose time is not frame time.
    pub fn restart(&mut self) {
        self.start = Instant::now();
        self.last_draw = None;
        self.last_width = 0;
        self.tenths_shown = 0;
    }

    /// Records that `done` frames are done (of the total given at construction). Write errors
    /// are ignored: progress output must never stop a run.
    pub fn update(&mut self, done: u32) {
        self.update_at(done, Instant::now());
    }

    /// [`Progress::update`] with an explicit clock reading (for tests).
    fn update_at(&mut self, done: u32, now: Instant) {
        let finished = done >= self.total;
        match self.style {
            ProgressStyle::Bar => {
                let due = self
                    .last_draw
                    .is_none_or(|last| now.duration_since(last) >= REDRAW_INTERVAL);
                if due || finished {
                    let line = self.status(done, now);
                    let width = line.chars().count();
                    let pad = " ".repeat(self.last_width.saturating_sub(width));
                    let _ = write!(self.out, "\r{line}{pad}");
                    self.last_width = width;
                    if finished {
                        let _ = writeln!(self.out);
                    }
                    let _ = self.out.flush();
                    self.last_draw = Some(now);
                }
            }
            ProgressStyle::Lines => {
                let tenths = if self.total == 0 {
                    10
                } else {
                    (u64::from(done.min(self.total)) * 10 / u64::from(self.total)) as u32
                };
                if tenths > self.tenths_shown || (finished && self.tenths_shown < 10) {
                    self.tenths_shown = tenths.max(u32::from(finished) * 10);
                    let line = self.status(done, now);
                    let _ = writeln!(self.out, "{line}");
                }
            }
        }
    }

    /// The status text for `done` frames at time `now` (no line break).
    fn status(&self, done: u32, now: Instant) -> String {
        let done = done.min(self.total);
        let fraction = if self.total == 0 {
            1.0
        } else {
            f64::from(done) / f64::from(self.total)
        };
        let elapsed = now.duration_since(self.start).as_secs_f64();
        let mut s = String::new();
        if !self.label.is_empty() {
            s.push_str(&self.label);
            s.push(' ');
        }
        if self.style == ProgressStyle::Bar {
            let filled = ((fraction * BAR_WIDTH as f64) as usize).min(BAR_WIDTH);
            let head = usize::from(filled < BAR_WIDTH);
            s.push('[');
            s.push_str(&"=".repeat(filled));
            s.push_str(&">".repeat(head));
            s.push_str(&" ".repeat(BAR_WIDTH - filled - head));
            s.push_str("] ");
        }
        s.push_str(&format!(
            "frame {done}/{} {:>3.0}%  elapsed {}",
            self.total,
            100.0 * fraction,
            seconds(elapsed)
        ));
        if done > 0 && done < self.total {
            let eta = elapsed / f64::from(done) * f64::from(self.total - done);
            s.push_str(&format!("  ETA {}", seconds(eta)));
        }
        s
    }

    /// The writer (for tests).
    pub fn into_inner(self) -> W {
        self.out
    }
}

/// `12.3 s`, or `2 min 05 s` from a minute on.
fn seconds(s: f64) -> String {
    if s < 60.0 {
        format!("{s:.1} s")
    } else {
        let whole = s.round() as u64;
        format!("{} min {:02} s", whole / 60, whole % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(p: Progress<Vec<u8>>) -> String {
        String::from_utf8(p.into_inner()).unwrap()
    }

    #[test]
    fn bar_redraws_at_most_every_interval_and_ends_the_line() {
        let mut p = Progress::new(Vec::new(), ProgressStyle::Bar, "demo", 4);
        let t0 = p.start;
        p.update_at(1, t0 + Duration::from_millis(10));
        p.update_at(2, t0 + Duration::from_millis(50)); // too soon: skipped
        p.update_at(3, t0 + Duration::from_millis(120));
        p.update_at(4, t0 + Duration::from_millis(130)); // last frame: always drawn
        let s = text(p);
        assert_eq!(s.matches('\r').count(), 3, "{s:?}");
        assert!(!s.contains("frame 2/4"));
        assert!(s.contains("\rdemo [=======>"), "{s:?}");
        assert!(
            s.contains("frame 1/4  25%  elapsed 0.0 s  ETA 0.0 s"),
            "{s:?}"
        );
        assert!(s.contains("frame 3/4  75%"));
        // The last bar has no ETA: spaces erase the previous bar's longer tail.
        let last = s.rsplit('\r').next().unwrap();
        let previous = s.rsplit('\r').nth(1).unwrap();
        assert!(last.starts_with(&format!(
            "demo [{}] frame 4/4 100%  elapsed 0.1 s ",
            "=".repeat(30)
        )));
        assert!(last.ends_with(" \n"), "{last:?}");
        assert_eq!(last.len() - 1, previous.len());
        assert_eq!(s.matches('\n').count(), 1);
    }

    #[test]
    fn bar_eta_extrapolates_the_mean_frame_time() {
        let p = Progress::new(Vec::new(), ProgressStyle::Bar, "", 10);
        let status = p.status(4, p.start + Duration::from_secs(2));
        assert!(status.starts_with("[============>"), "{status}");
        assert!(
            status.ends_with("frame 4/10  40%  elapsed 2.0 s  ETA 3.0 s"),
            "{status}"
        );
        let long = p.status(1, p.start + Duration::from_secs(65));
        assert!(
            long.ends_with("elapsed 1 min 05 s  ETA 9 min 45 s"),
            "{long}"
        );
    }

    #[test]
    fn lines_report_each_tenth_once() {
        let mut p = Progress::new(Vec::new(), ProgressStyle::Lines, "run", 25);
        for done in 1..=25 {
            p.update(done);
        }
        let s = text(p);
        let lines: Vec<&str> = s.lines().collect();
        // Tenths reached at frames 3, 5, 8, 10, 13, 15, 18, 20, 23, 25.
        assert_eq!(lines.len(), 10, "{s}");
        assert!(lines[0].starts_with("run frame 3/25  12%"), "{}", lines[0]);
        assert!(lines[9].starts_with("run frame 25/25 100%"), "{}", lines[9]);
        assert!(!s.contains('\r') && !s.contains('['));
    }

    #[test]
    fn restart_moves_the_clock_to_now() {
        let mut p = Progress::new(Vec::new(), ProgressStyle::Lines, "run", 2);
        let created = p.start;
        std::thread::sleep(Duration::from_millis(20));
        p.restart();
        assert!(p.start >= created + Duration::from_millis(20));
        let status = p.status(1, p.start + Duration::from_secs(1));
        assert!(status.ends_with("elapsed 1.0 s  ETA 1.0 s"), "{status}");
    }

    #[test]
    fn lines_with_few_frames_and_zero_frames() {
        let mut p = Progress::new(Vec::new(), ProgressStyle::Lines, "x", 2);
        p.update(1);
        p.update(2);
        assert_eq!(text(p).lines().count(), 2);
        let mut p = Progress::new(Vec::new(), ProgressStyle::Lines, "x", 0);
        p.update(0);
        assert!(text(p).starts_with("x frame 0/0 100%"));
    }
}
