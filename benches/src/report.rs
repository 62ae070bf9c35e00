//! The per-scene table of a peer comparison and its one-line Markdown summary.

use std::fmt::Write;

use crate::peer::PeerRun;

fn optional_ms(value: Option<f64>) -> String {
    value.map_or_else(|| "-".to_string(), |v| format!("{v:.3}"))
}

/// The first frame at which `run` counts a different number of colliding pairs than
/// `reference`, with both counts.
pub fn first_difference(reference: &PeerRun, run: &PeerRun) -> Option<(usize, usize, usize)> {
    reference
        .colliding
        .iter()
        .zip(&run.colliding)
        .enumerate()
        .find(|(_, (a, b))| a != b)
        .map(|(f, (&a, &b))| (f, a, b))
}

/// True when every exact run ([`PeerRun::exact`]) has the colliding-pair total of the first one.
pub fn totals_agree(runs: &[PeerRun]) -> bool {
    runs.iter()
        .filter(|r| r.exact)
        .all(|r| r.pairs_total() == runs[0].pairs_total())
}

/// One table for one scene: the first run is colldet, the reference of the ratios
/// (`ratio` = the library's ms per frame / colldet's; above 1 means colldet is faster).
pub fn scene_table(scene: &str, objects: usize, frames: usize, runs: &[PeerRun]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "scene {scene}: {objects} objects, {frames} frames");
    let _ = writeln!(
        out,
        "  {:<12} {:>10} {:>10} {:>10} {:>8} {:>14}",
        "library", "ms/frame", "broad", "narrow", "ratio", "pairs total"
    );
    let reference = runs.first().map_or(0.0, PeerRun::ms_per_frame);
    for run in runs {
        let _ = writeln!(
            out,
            "  {:<12} {:>10.3} {:>10} {:>10} {:>7.2}x {:>14}",
            run.name,
            run.ms_per_frame(),
            optional_ms(run.broad_ms()),
            optional_ms(run.narrow_ms()),
            run.ms_per_frame() / reference,
            run.pairs_total()
        );
    }
    if let Some(first) = runs.first() {
        for run in &runs[1..] {
            if run.pairs_total() != first.pairs_total() && !run.exact {
                let _ = writeln!(
                    out,
                    "  {} {} (tests the scene rounded: not compared)",
                    run.name,
                    run.pairs_total()
                );
            } else if run.pairs_total() != first.pairs_total() {
                let detail = first_difference(first, run).map_or(String::new(), |(f, a, b)| {
                    format!(" (first at frame {f}: {a} vs {b})")
                });
                let _ = writeln!(
                    out,
                    "  DISAGREE: {} {} vs {} {}{detail}",
                    first.name,
                    first.pairs_total(),
                    run.name,
                    run.pairs_total()
                );
            }
        }
        if totals_agree(runs) {
            let _ = writeln!(out, "  totals agree");
        }
    }
    out
}

/// One Markdown row: scene, then ms per frame of each run, the ratio of each other run to the
/// first, and the totals (or DISAGREE).
pub fn markdown_row(scene: &str, runs: &[PeerRun]) -> String {
    let mut row = format!("| {scene} |");
    for run in runs {
        let _ = write!(row, " {:.3} |", run.ms_per_frame());
    }
    let reference = runs.first().map_or(0.0, PeerRun::ms_per_frame);
    for run in runs.iter().skip(1) {
        let _ = write!(row, " {:.2}x |", run.ms_per_frame() / reference);
    }
    let rounded: Vec<String> = runs
        .iter()
        .filter(|r| !r.exact && r.pairs_total() != runs[0].pairs_total())
        .map(|r| format!("; {} {}", r.name, r.pairs_total()))
        .collect();
    if totals_agree(runs) {
        let _ = write!(
            row,
            " {} (exact peers agree{}) |",
            runs[0].pairs_total(),
            rounded.concat()
        );
    } else {
        let totals: Vec<String> = runs.iter().map(|r| r.pairs_total().to_string()).collect();
        let _ = write!(row, " DISAGREE {} |", totals.join(" / "));
    }
    row
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(name: &'static str, ms: f64, colliding: Vec<usize>) -> PeerRun {
        PeerRun {
            name,
            exact: true,
            frame_ms: vec![ms; colliding.len()],
            colliding,
            ..PeerRun::default()
        }
    }

    #[test]
    fn disagreement_is_visible() {
        let runs = [
            run("colldet", 1.0, vec![1, 2, 3]),
            run("other", 2.0, vec![1, 3, 3]),
        ];
        let table = scene_table("s", 4, 3, &runs);
        assert!(table.contains("DISAGREE: colldet 6 vs other 7 (first at frame 1: 2 vs 3)"));
        assert!(table.contains("2.00x"));
        assert!(markdown_row("s", &runs).contains("DISAGREE 6 / 7"));
    }

    #[test]
    fn agreement_is_stated() {
        let runs = [
            run("colldet", 1.0, vec![1, 2]),
            run("other", 0.5, vec![2, 1]),
        ];
        assert!(scene_table("s", 4, 2, &runs).contains("totals agree"));
        assert_eq!(
            markdown_row("s", &runs),
            "| s | 1.000 | 0.500 | 0.50x | 3 (exact peers agree) |"
        );
    }
}
