//! `colldet demo --report DIR`: one self-contained `DIR/index.html` (XHTML, so it is also
//! well-formed XML) with the summary table and three inline SVG plots:
//!
//! - `frame-time`: check time over frames as a rolling median of [`ROLLING_WINDOW`] frames
//!   (whole check, broad phase, narrow phase), each frame's whole check as a faint dot;
//! - `iterations`: the Chung-Wang iteration histogram of separated queries, as the paper's
//!   Figure 4(i), or [`NO_SEPARATED_QUERIES`] when there were none;
//! - `top-view`: the frame with the most collisions seen from `+z`, colliding objects in red and
//!   each colliding pair joined by a red line, with a legend.
//!
//! Each plot sits in a `<figure id="...">` with the ids above and a caption saying how to read
//! it. All SVG text is at least 12 px.

mod plots;
#[cfg(test)]
mod tests;
mod top_view;

pub use plots::{
    COLLIDING, NO_SEPARATED_QUERIES, ROLLING_WINDOW, frame_time_svg, iteration_histogram_svg,
    rolling_median, top_view_svg,
};
pub use top_view::{Outline, TopView, TopViewRecorder, convex_hull};

use std::path::{Path, PathBuf};

use crate::demo::DemoSummary;

/// Why the report could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// Creating the directory or writing the file failed.
    #[error("cannot write the report {path}: {source}")]
    Io {
        /// The path written.
        path: String,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// A plot could not be drawn.
    #[error("cannot draw the {plot} plot: {message}")]
    Plot {
        /// Which plot.
        plot: &'static str,
        /// The drawing error.
        message: String,
    },
}

/// Escapes text for XML content and attribute values.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The SVG element alone (without an XML declaration, should the backend write one).
fn inline(svg: &str) -> &str {
    svg.find("<svg").map_or(svg, |start| &svg[start..])
}

/// The report page for `summary` and the top view `view`.
///
/// # Errors
/// [`ReportError::Plot`] when a plot cannot be drawn.
pub fn report_html(summary: &DemoSummary, view: &TopView) -> Result<String, ReportError> {
    let plot = |plot: &'static str, svg: Result<String, String>| {
        svg.map_err(|message| ReportError::Plot { plot, message })
    };
    let frame_time = format!(
        "Check time per frame. Lines: the median over the {ROLLING_WINDOW} frames centred on each \
         frame (fewer at the ends) of the whole check, its broad phase and its narrow phase, so \
         single slow frames (the process preempted, or a frame with many exact tests) do not \
         hide the trend. Faint dots: each frame's whole check; frames above the axis are \
         counted in the legend."
    );
    let histogram = if summary.sv_histogram.iter().any(|&n| n > 0) {
        "Iterations of separated Chung-Wang queries, as the paper's Figure 4(i): bars are the \
         share of queries separated after exactly k iterations, the line the share separated \
         within k."
    } else {
        "Iterations of separated Chung-Wang queries: none in this run, so no histogram. \
         Chung-Wang runs on pairs of convex objects under --method auto (boxes mostly get the \
         box-box test) and on convex hulls under convex or sv; other pairs get other tests."
    };
    let figures = [
        (
            "frame-time",
            frame_time.as_str(),
            plot("frame time", frame_time_svg(summary))?,
        ),
        (
            "iterations",
            histogram,
            plot("iteration histogram", iteration_histogram_svg(summary))?,
        ),
        (
            "top-view",
            "Top view of the frame with the most collisions (the first frame when none collide): \
             each object as the convex hull of its vertices projected on x-y; cage walls left out.",
            plot("top view", top_view_svg(view))?,
        ),
    ];
    let title = escape(&summary.title);
    let mut html = format!(
        "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n\
         <meta charset=\"utf-8\"/>\n<title>colldet report: {title}</title>\n\
         <style>body {{ font-family: sans-serif; margin: 2em; }} \
         pre {{ background: #f4f4f4; padding: 1em; }} figure {{ margin: 2em 0; }} \
         figcaption {{ max-width: 900px; margin-bottom: 0.5em; line-height: 1.4; }} \
         svg {{ display: block; }}</style>\n\
         </head>\n<body>\n<h1>{title}</h1>\n<pre id=\"summary\">{}</pre>\n",
        escape(&summary.table())
    );
    for (id, caption, svg) in &figures {
        html += &format!(
            "<figure id=\"{id}\">\n<figcaption>{}</figcaption>\n{}\n</figure>\n",
            escape(caption),
            inline(svg)
        );
    }
    html += "</body>\n</html>\n";
    Ok(html)
}

/// Writes `dir/index.html` (creating `dir`) and returns its path.
///
/// # Errors
/// [`ReportError`].
pub fn write_report(
    dir: &Path,
    summary: &DemoSummary,
    view: &TopView,
) -> Result<PathBuf, ReportError> {
    let html = report_html(summary, view)?;
    let path = dir.join("index.html");
    let io = |source| ReportError::Io {
        path: path.display().to_string(),
        source,
    };
    std::fs::create_dir_all(dir).map_err(io)?;
    std::fs::write(&path, html).map_err(io)?;
    Ok(path)
}
