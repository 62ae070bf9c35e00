//! The figures of a demo run and their table form.

use super::preset::ThesisFigures;
use crate::runner::percentile;
use colldet_world::{CheckStats, SV_HISTOGRAM_BINS};

/// What a demo run measured. Times are wall-clock milliseconds per frame's check.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DemoSummary {
    /// First line of the table: what ran.
    pub title: String,
    /// The world configuration as command-line options.
    pub configuration: String,
    /// Shape kind name (the preset's name for a preset).
    pub shape: String,
    /// Objects.
    pub objects: usize,
    /// Random surface points per mesh (0 for a preset).
    pub vertices: usize,
    /// Polygons over all objects (0 for the Chung-Wang demo).
    pub polygons: usize,
    /// The thesis's figures for the same experiment (presets).
    pub thesis: Option<&'static ThesisFigures>,
    /// Side of the box used.
    pub box_side: f64,
    /// Frames played.
    pub frames: u32,
    /// Whole check per frame.
    pub frame_ms: Vec<f64>,
    /// Broad phase per frame.
    pub broad_ms: Vec<f64>,
    /// Narrow phase per frame.
    pub narrow_ms: Vec<f64>,
    /// Pairs whose boxes overlapped, summed over frames.
    pub overlapping_total: u64,
    /// Pairs given to the exact test, summed over frames.
    pub tested_total: u64,
    /// Colliding pairs, summed over frames.
    pub colliding_total: u64,
    /// Chung-Wang queries, summed over frames.
    pub sv_queries: u64,
    /// Chung-Wang queries answered "separated", summed over frames.
    pub sv_separated: u64,
    /// Of those, decided in at most 3 iterations.
    pub sv_separated_within_3: u64,
    /// Separated Chung-Wang queries by iteration count, summed over frames (bins as
    /// [`CheckStats::sv_separated_histogram`]).
    pub sv_histogram: [u64; SV_HISTOGRAM_BINS],
    /// Largest Chung-Wang iteration count seen.
    pub sv_max_iterations: u32,
}

fn quantile(values: &[f64], p: f64) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    percentile(&sorted, p)
}

impl DemoSummary {
    pub(crate) fn record_frame(&mut self, frame_ms: f64, stats: &CheckStats) {
        self.frames += 1;
        self.frame_ms.push(frame_ms);
        self.broad_ms.push(stats.broad_ms);
        self.narrow_ms.push(stats.narrow_ms);
        self.overlapping_total += stats.overlapping_pairs as u64;
        self.tested_total += stats.tested_pairs as u64;
        self.colliding_total += stats.colliding_pairs as u64;
        self.sv_queries += stats.sv_queries as u64;
        self.sv_separated += stats.sv_separated as u64;
        self.sv_separated_within_3 += stats.sv_separated_within_3() as u64;
        for (total, &n) in self
            .sv_histogram
            .iter_mut()
            .zip(&stats.sv_separated_histogram)
        {
            *total += n as u64;
        }
        self.sv_max_iterations = self.sv_max_iterations.max(stats.sv_max_iterations);
    }

    /// Share (0..=1) of separated Chung-Wang queries decided in at most 3 iterations; 0 when
    /// there were none.
    pub fn sv_within_3_share(&self) -> f64 {
        if self.sv_separated == 0 {
            0.0
        } else {
            self.sv_separated_within_3 as f64 / self.sv_separated as f64
        }
    }

    /// The summary as a human-readable table.
    pub fn table(&self) -> String {
        let per_frame = |total: u64| total as f64 / f64::from(self.frames.max(1));
        let row = |name: &str, v: &[f64]| {
            format!(
                "{name:<16}{:>10.3}{:>10.3}\n",
                quantile(v, 0.5),
                quantile(v, 0.95)
            )
        };
        let mut s = format!("{}\n", self.title);
        s += &format!("configuration   {}\n", self.configuration);
        s += &format!("frames          {:>10}\n", self.frames);
        s += &format!("objects         {:>10}\n", self.objects);
        if self.vertices > 0 {
            s += &format!("vertices        {:>10}\n", self.vertices);
        }
        if self.polygons > 0 {
            s += &format!("polygons        {:>10}\n", self.polygons);
        }
        s += &format!("ms per frame    {:>10}{:>10}\n", "median", "p95");
        s += &row("  total", &self.frame_ms);
        s += &row("  broad phase", &self.broad_ms);
        s += &row("  narrow phase", &self.narrow_ms);
        s += &format!(
            "AABB-overlapping pairs per frame {:.1}\n",
            per_frame(self.overlapping_total)
        );
        s += &format!(
            "exact tests per frame            {:.1}\n",
            per_frame(self.tested_total)
        );
        s += &format!(
            "colliding pairs per frame        {:.1}\n",
            per_frame(self.colliding_total)
        );
        s += &format!(
            "Chung-Wang queries               {} ({} separated)\n",
            self.sv_queries, self.sv_separated
        );
        s += &format!(
            "separated in <= 3 iterations     {:.2}%\n",
            100.0 * self.sv_within_3_share()
        );
        s += &format!(
            "max iterations                   {}\n",
            self.sv_max_iterations
        );
        if let Some(thesis) = self.thesis {
            s += &self.thesis_comparison(thesis);
        }
        s
    }

    /// The thesis's rows and this run's, side by side.
    fn thesis_comparison(&self, thesis: &ThesisFigures) -> String {
        let mut s = format!(
            "compared with the thesis, {}:\n  {}, {} frames, {} polygons; ms/frame are means\n",
            thesis.source, thesis.machine, thesis.frames, thesis.polygons
        );
        s += &format!(
            "  {:<34}{:<38}{:>10}{:>13}\n",
            "", "our options", "ms/frame", "tests/frame"
        );
        for row in thesis.rows {
            let pairs = row
                .pairs_per_frame
                .map_or("-".to_string(), |p| format!("{p:.0}"));
            s += &format!(
                "  {:<34}{:<38}{:>10.1}{:>13}\n",
                format!("thesis: {}", row.setup),
                row.ours,
                row.ms_per_frame,
                pairs
            );
        }
        let options: String = self
            .configuration
            .split(" --threads")
            .next()
            .unwrap_or_default()
            .to_string();
        s += &format!(
            "  {:<34}{:<38}{:>10.3}{:>13.1}\n",
            "this run (mean)",
            options,
            self.frame_ms.iter().sum::<f64>() / self.frame_ms.len().max(1) as f64,
            self.tested_total as f64 / f64::from(self.frames.max(1))
        );
        s
    }
}
