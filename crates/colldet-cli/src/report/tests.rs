//! The plots read at a glance: text of at least 12 px inside the picture, the frame time as a
//! rolling median, a message instead of an empty histogram, a legend in the top view.

use roxmltree::{Document, Node, ParsingOptions};

use super::plots::px;
use super::*;
use crate::demo::DemoSummary;

/// A run of 30 frames: a steady 1 ms (0.4 broad, 0.6 narrow) with two preempted frames.
fn spiky_summary() -> DemoSummary {
    let mut s = DemoSummary {
        title: "test run".into(),
        frames: 30,
        sv_queries: 120,
        sv_separated: 100,
        ..DemoSummary::default()
    };
    for i in 0..30 {
        let spike = if i == 4 || i == 16 { 49.0 } else { 0.0 };
        s.frame_ms.push(1.0 + spike);
        s.broad_ms.push(0.4);
        s.narrow_ms.push(0.6 + spike);
    }
    s.sv_histogram = [6, 60, 25, 5, 1, 1, 0, 2];
    s
}

/// A run without a single Chung-Wang query.
fn no_chung_wang() -> DemoSummary {
    DemoSummary {
        title: "no queries".into(),
        frames: 3,
        frame_ms: vec![0.1, 0.2, 0.1],
        broad_ms: vec![0.1, 0.1, 0.1],
        narrow_ms: vec![0.0; 3],
        tested_total: 4,
        ..DemoSummary::default()
    }
}

fn square(x: f64, y: f64) -> Vec<(f64, f64)> {
    vec![(x, y), (x + 1.0, y), (x + 1.0, y + 1.0), (x, y + 1.0)]
}

/// A mover, a fixed object and a colliding pair (a mover against a fixed object).
fn mixed_view() -> TopView {
    let outline = |x: f64, moving, colliding| Outline {
        hull: square(x, 0.0),
        centre: (x + 0.5, 0.5),
        moving,
        colliding,
    };
    TopView {
        frame: 7,
        half: 4.0,
        outlines: vec![
            outline(-3.5, true, false),
            outline(-1.5, false, false),
            outline(0.5, true, true),
            outline(1.2, false, true),
        ],
        pairs: vec![(2, 3)],
    }
}

fn parse(svg: &str) -> Document<'_> {
    let options = ParsingOptions {
        allow_dtd: true,
        ..ParsingOptions::default()
    };
    Document::parse_with_options(svg, options).expect("well-formed XML")
}

fn texts<'a>(doc: &'a Document) -> impl Iterator<Item = Node<'a, 'a>> {
    doc.descendants().filter(|n| n.has_tag_name("text"))
}

fn text_of(n: &Node) -> String {
    n.text().unwrap_or_default().trim().to_string()
}

fn number(n: &Node, attribute: &str) -> f64 {
    n.attribute(attribute)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{attribute} of {n:?}"))
}

/// Asserts every text is at least 12 px and, with a generous estimate of its extent (0.62 em per
/// character, one em high), lies inside the SVG's width and height.
fn assert_readable(svg: &str, name: &str) {
    let doc = parse(svg);
    let root = doc.root_element();
    let (width, height) = (number(&root, "width"), number(&root, "height"));
    let mut seen = 0;
    for t in texts(&doc) {
        let label = text_of(&t);
        let size = number(&t, "font-size");
        assert!(size >= 12.0, "{name}: `{label}` is {size} px");
        let length = 0.62 * size * label.chars().count() as f64;
        let (before, after) = match t.attribute("text-anchor") {
            Some("middle") => (length / 2.0, length / 2.0),
            Some("end") => (length, 0.0),
            _ => (0.0, length),
        };
        // `plotters` anchors text at its top, middle or bottom through `dy`.
        let (above, below) = match t.attribute("dy") {
            Some("0.76em") => (0.0, size),
            Some("0.5ex") => (0.6 * size, 0.6 * size),
            _ => (size, 0.25 * size),
        };
        let (x, y) = (number(&t, "x"), number(&t, "y"));
        let (x0, x1, y0, y1) = match t.attribute("transform") {
            None => (x - before, x + after, y - above, y + below),
            // Read bottom to top: the text runs up, its top faces left.
            Some(r) if r.starts_with("rotate(270,") => {
                (x - above, x + below, y - after, y + before)
            }
            Some(r) => panic!("{name}: `{label}` has an unexpected transform {r}"),
        };
        assert!(
            x0 >= 0.0 && x1 <= width && y0 >= 0.0 && y1 <= height,
            "{name}: `{label}` spans x {x0:.0}..{x1:.0}, y {y0:.0}..{y1:.0} of {width}x{height}"
        );
        seen += 1;
    }
    assert!(seen > 0, "{name} has text");
}

/// The polylines stroked in `colour` with `points` points, as pixel coordinates.
fn polylines(doc: &Document, colour: &str, points: usize) -> Vec<Vec<(f64, f64)>> {
    doc.descendants()
        .filter(|n| n.has_tag_name("polyline") && n.attribute("stroke") == Some(colour))
        .map(|n| {
            n.attribute("points")
                .unwrap()
                .split_whitespace()
                .map(|p| {
                    let (x, y) = p.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect::<Vec<_>>()
        })
        .filter(|p| p.len() == points)
        .collect()
}

#[test]
fn rolling_median_of_a_known_series() {
    let values = [1.0, 2.0, 100.0, 3.0, 4.0, 5.0, 200.0, 6.0, 7.0];
    assert_eq!(
        rolling_median(&values, 3),
        [1.5, 2.0, 3.0, 4.0, 4.0, 5.0, 6.0, 7.0, 6.5]
    );
    // A window wider than the series: cut at both ends.
    assert_eq!(
        rolling_median(&[5.0, 1.0, 3.0], 9),
        [3.0, 3.0, 3.0],
        "every window is the whole series"
    );
    assert_eq!(
        rolling_median(&values, 5)[..3],
        [2.0, 2.5, 3.0],
        "windows of 3, 4 and 5 values at the start"
    );
    assert!(rolling_median(&[], ROLLING_WINDOW).is_empty());
    assert_eq!(rolling_median(&values, 1), values);
}

#[test]
fn frame_time_draws_the_rolling_median_not_the_spikes() {
    let summary = spiky_summary();
    let svg = frame_time_svg(&summary).unwrap();
    let doc = parse(&svg);
    // One flat line per series: the two 49 ms spikes are outvoted in every 9-frame window.
    let line = |colour: &str| {
        let lines = polylines(&doc, colour, 30);
        assert_eq!(lines.len(), 1, "one {colour} line through the 30 frames");
        let ys: Vec<f64> = lines[0].iter().map(|p| p.1).collect();
        assert!(ys.iter().all(|&y| y == ys[0]), "{colour} is flat: {ys:?}");
        ys[0]
    };
    let (total, broad, narrow) = (line("#000000"), line("#E68C1E"), line("#286EC8"));
    assert!(
        total < narrow && narrow < broad,
        "1 ms above 0.6 ms above 0.4 ms"
    );
    // The axis stops well below the spikes, which are dots counted in the legend.
    let labels: Vec<String> = texts(&doc).map(|t| text_of(&t)).collect();
    assert!(
        labels.iter().any(|l| l == "off the axis: 2 frames"),
        "{labels:?}"
    );
    assert!(labels.iter().any(|l| l == "slowest: 50.0 ms"), "{labels:?}");
    let dots = doc
        .descendants()
        .filter(|n| n.has_tag_name("circle"))
        .count();
    assert_eq!(dots, 28 + 1, "28 frames on the scale and the legend's dot");
    for name in ["total", "broad phase", "narrow phase", "each frame's total"] {
        assert!(labels.iter().any(|l| l == name), "legend entry {name}");
    }
    assert!(
        labels
            .iter()
            .any(|l| l.contains("rolling median over 9 frames"))
    );
}

#[test]
fn every_plot_has_text_of_12_px_inside_the_picture() {
    let summary = spiky_summary();
    assert_readable(&frame_time_svg(&summary).unwrap(), "frame time");
    assert_readable(&iteration_histogram_svg(&summary).unwrap(), "histogram");
    assert_readable(
        &iteration_histogram_svg(&no_chung_wang()).unwrap(),
        "empty histogram",
    );
    assert_readable(&frame_time_svg(&no_chung_wang()).unwrap(), "short run");
    assert_readable(&top_view_svg(&mixed_view()).unwrap(), "top view");
    // Long tick labels: a 5000-frame run, a large cage.
    let mut long = spiky_summary();
    long.frame_ms = (0..5000).map(|i| 100.0 + f64::from(i % 7)).collect();
    long.broad_ms = vec![12.5; 5000];
    long.narrow_ms = vec![87.5; 5000];
    assert_readable(&frame_time_svg(&long).unwrap(), "long run");
    let mut wide = mixed_view();
    wide.half = 1234.5;
    assert_readable(&top_view_svg(&wide).unwrap(), "wide cage");
    // The axes' last labels are there: frame 30 and the open-ended bin.
    let frame = frame_time_svg(&summary).unwrap();
    assert!(texts(&parse(&frame)).any(|t| text_of(&t) == "30"));
    let histogram = iteration_histogram_svg(&summary).unwrap();
    assert!(texts(&parse(&histogram)).any(|t| text_of(&t) == "7+"));
}

#[test]
fn no_separated_query_shows_a_message_instead_of_empty_axes() {
    let summary = no_chung_wang();
    let svg = iteration_histogram_svg(&summary).unwrap();
    let doc = parse(&svg);
    let labels: Vec<String> = texts(&doc).map(|t| text_of(&t)).collect();
    assert_eq!(labels[0], NO_SEPARATED_QUERIES);
    assert!(labels[1].starts_with("0 Chung-Wang queries and 4 exact tests in 3 frames"));
    assert!(
        !doc.descendants().any(|n| n.has_tag_name("polyline")),
        "no axes"
    );
    let html = report_html(&summary, &mixed_view()).unwrap();
    assert!(html.contains(NO_SEPARATED_QUERIES));
    assert!(html.contains("none in this run"));
    // With queries, the histogram: one bar per bin.
    let bars = iteration_histogram_svg(&spiky_summary()).unwrap();
    assert!(!bars.contains(NO_SEPARATED_QUERIES));
    let doc = parse(&bars);
    let blue = doc
        .descendants()
        .filter(|n| n.has_tag_name("rect") && n.attribute("fill") == Some("#286EC8"))
        .count();
    assert_eq!(
        blue,
        colldet_world::SV_HISTOGRAM_BINS + 1,
        "bars and the legend's"
    );
}

#[test]
fn top_view_legend_names_the_colours() {
    let legend = |view: &TopView| {
        let svg = top_view_svg(view).unwrap();
        let doc = parse(&svg);
        let labels: Vec<String> = texts(&doc).map(|t| text_of(&t)).collect();
        let fills: Vec<String> = doc
            .descendants()
            .filter(|n| n.has_tag_name("rect"))
            .filter_map(|n| n.attribute("fill").map(str::to_string))
            .collect();
        (labels, fills)
    };
    let (labels, fills) = legend(&mixed_view());
    for name in [
        "mover",
        "fixed object",
        "colliding object",
        "colliding pair link",
    ] {
        assert!(
            labels.iter().any(|l| l == name),
            "legend entry {name}: {labels:?}"
        );
    }
    for colour in ["#4682B4", "#969696", "#DC2828"] {
        assert!(
            fills.iter().any(|f| f == colour),
            "swatch {colour}: {fills:?}"
        );
    }
    // Only the kinds present: movers alone, none colliding.
    let mut calm = mixed_view();
    calm.outlines.truncate(1);
    calm.pairs.clear();
    let (labels, _) = legend(&calm);
    assert!(labels.iter().any(|l| l == "mover"));
    assert!(
        !labels
            .iter()
            .any(|l| l.starts_with("colliding object") || l.starts_with("fixed"))
    );
}

#[test]
fn report_page_has_no_text_below_12_px() {
    let html = report_html(&spiky_summary(), &mixed_view()).unwrap();
    let doc = parse(&html);
    let sizes: Vec<f64> = doc
        .descendants()
        .filter_map(|n| n.attribute("font-size"))
        .map(|s| s.parse().unwrap())
        .collect();
    assert!(sizes.len() > 40);
    let small: Vec<&f64> = sizes.iter().filter(|&&s| s < 12.0).collect();
    assert!(small.is_empty(), "font sizes below 12 px: {small:?}");
    assert!(px(16.0) >= 12.0);
}
