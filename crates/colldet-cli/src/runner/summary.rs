//! The figures of a scene run and their table and JSON forms.

use crate::scene::Scene;
use colldet_world::{CheckStats, World};

/// The value at fraction `p` (0..=1) of `sorted` (nearest rank); 0 for an empty slice.
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

/// What a run measured.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunSummary {
    /// Scene name.
    pub scene: String,
    /// Objects in the scene.
    pub objects: usize,
    /// Frames played.
    pub frames: u32,
    /// Wall time of each frame's check, milliseconds.
    pub frame_ms: Vec<f64>,
    /// Broad-phase time of each frame, milliseconds.
    pub broad_ms: Vec<f64>,
    /// Narrow-phase time of each frame, milliseconds.
    pub narrow_ms: Vec<f64>,
    /// Colliding pairs summed over all frames (the scene's checksum).
    pub pairs_colliding_total: u64,
    /// Pairs whose boxes overlapped, summed over frames.
    pub pairs_overlapping_total: u64,
    /// Pairs given to the exact test, summed over frames.
    pub pairs_tested_total: u64,
    /// Pairs the world's bounding-box filter found separated before any exact test, summed over
    /// frames ([`CheckStats::box_filtered_pairs`]).
    pub pairs_box_filtered_total: u64,
    /// The continuous check's figures when the run used it (`--ccd`).
    pub ccd: Option<CcdSummary>,
    /// The time-to-collision schedule's figures when the run used it (`--ttc`).
    pub ttc: Option<TtcSummary>,
}

/// What the time-to-collision schedule did over a run (`colldet run --ttc`), summed over frames.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TtcSummary {
    /// Pair tests saved ([`CheckStats::ttc_skipped_pairs`]).
    pub skipped: u64,
    /// Distances taken for certificates ([`CheckStats::ttc_distances`]).
    pub distances: u64,
    /// Moves beyond their bound ([`CheckStats::ttc_bound_violations`]).
    pub violations: u64,
}

/// What a continuous run (`colldet run --ccd`) found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CcdSummary {
    /// Every hit: `(f, mover, static)` in scene object ids, the pair touching during the interval
    /// from frame `f` to `f + 1`, sorted. "Mover" is the object with a velocity or angular
    /// velocity (the smaller id when both or neither have one).
    pub hits: Vec<(u32, u32, u32)>,
    /// Hits where the pair overlaps at neither frame end (what the discrete check misses).
    pub tunnels: u64,
    /// Wall time of each continuous check, milliseconds.
    pub frame_ms: Vec<f64>,
}

fn median_or_zero(values: &[f64]) -> f64 {
    if values.is_empty() {
        0.0
    } else {
        median(values)
    }
}

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    percentile(&sorted, 0.5)
}

impl RunSummary {
    pub(crate) fn new<U>(scene: &Scene, world: &World<U>, frames: u32) -> Self {
        Self {
            scene: scene.name.clone(),
            objects: world.len(),
            frames,
            ..Self::default()
        }
    }

    pub(crate) fn record_frame(&mut self, frame_ms: f64, stats: &CheckStats) {
        self.frame_ms.push(frame_ms);
        self.broad_ms.push(stats.broad_ms);
        self.narrow_ms.push(stats.narrow_ms);
        self.pairs_colliding_total += stats.colliding_pairs as u64;
        self.pairs_overlapping_total += stats.overlapping_pairs as u64;
        self.pairs_tested_total += stats.tested_pairs as u64;
        self.pairs_box_filtered_total += stats.box_filtered_pairs as u64;
        if let Some(ttc) = self.ttc.as_mut() {
            ttc.skipped += stats.ttc_skipped_pairs as u64;
            ttc.distances += stats.ttc_distances as u64;
            ttc.violations += stats.ttc_bound_violations as u64;
        }
    }

    /// Median frame time, milliseconds.
    pub fn ms_per_frame_median(&self) -> f64 {
        median(&self.frame_ms)
    }

    /// 95th-percentile frame time, milliseconds.
    pub fn ms_per_frame_p95(&self) -> f64 {
        let mut sorted = self.frame_ms.clone();
        sorted.sort_by(f64::total_cmp);
        percentile(&sorted, 0.95)
    }

    /// The median frame, broad-phase and narrow-phase times and the 95th-percentile frame time,
    /// milliseconds.
    fn times(&self) -> (f64, f64, f64, f64) {
        (
            self.ms_per_frame_median(),
            self.ms_per_frame_p95(),
            median(&self.broad_ms),
            median(&self.narrow_ms),
        )
    }

    /// The summary as a human-readable table.
    pub fn table(&self) -> String {
        let Self {
            scene,
            objects,
            frames,
            pairs_colliding_total: colliding,
            pairs_overlapping_total: overlapping,
            ..
        } = self;
        let (median, p95, broad, narrow) = self.times();
        let per_frame = |total: u64| total as f64 / f64::from((*frames).max(1));
        let (overlapping_per_frame, colliding_per_frame) =
            (per_frame(*overlapping), per_frame(*colliding));
        let ccd = match &self.ccd {
            Some(c) => format!(
                "ccd hits total              {}\nccd tunnels total           {}\nccd ms/frame median         {:.3}\n",
                c.hits.len(),
                c.tunnels,
                median_or_zero(&c.frame_ms)
            ),
            None => String::new(),
        };
        let ccd = match &self.ttc {
            Some(t) => format!(
                "{ccd}ttc tests saved total       {}\nttc distances total         {}\nttc bound violations total  {}\n",
                t.skipped, t.distances, t.violations
            ),
            None => ccd,
        };
        format!(
            "scene            {scene}\nobjects          {objects}\nframes           {frames}\nms/frame median  {median:.3}\nms/frame p95     {p95:.3}\n  broad median   {broad:.3}\n  narrow median  {narrow:.3}\npairs overlapping per frame {overlapping_per_frame:.1}\npairs colliding per frame   {colliding_per_frame:.1}\npairs colliding total       {colliding}\n{ccd}"
        )
    }

    /// The summary as one JSON object (keys are a contract for scripts).
    pub fn json(&self) -> String {
        let Self {
            objects,
            frames,
            pairs_overlapping_total: overlapping,
            pairs_tested_total: tested,
            pairs_box_filtered_total: box_filtered,
            pairs_colliding_total: colliding,
            ..
        } = self;
        let scene = self.scene.replace('\\', "\\\\").replace('"', "\\\"");
        let (median, p95, broad, narrow) = self.times();
        let ccd = match &self.ccd {
            Some(c) => format!(
                ",\"ccd_hits_total\":{},\"ccd_tunnels_total\":{},\"ccd_ms_per_frame_median\":{}",
                c.hits.len(),
                c.tunnels,
                median_or_zero(&c.frame_ms)
            ),
            None => String::new(),
        };
        let ttc = match &self.ttc {
            Some(t) => format!(
                ",\"pairs_ttc_skipped_total\":{},\"ttc_distances_total\":{},\"ttc_bound_violations_total\":{}",
                t.skipped, t.distances, t.violations
            ),
            None => String::new(),
        };
        format!(
            "{{\"scene\":\"{scene}\",\"objects\":{objects},\"frames\":{frames},\"ms_per_frame_median\":{median},\"ms_per_frame_p95\":{p95},\"broad_ms_median\":{broad},\"narrow_ms_median\":{narrow},\"pairs_overlapping_total\":{overlapping},\"pairs_tested_total\":{tested},\"pairs_box_filtered_total\":{box_filtered},\"pairs_colliding_total\":{colliding}{ccd}{ttc}}}"
        )
    }
}
