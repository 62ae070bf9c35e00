//! `colldet demo --report DIR`: the page parses as XML and holds the three plots with the data
//! of the run (one line per series, one bar per histogram bin or the message when there is no
//! separated Chung-Wang query, one outline per object, the colliding objects in red); the
//! top-view recorder keeps the frame with the most collisions.

use std::path::PathBuf;
use std::process::Command;

use colldet_cli::demo::{Demo, DemoOptions, DemoShape};
use colldet_cli::report::{COLLIDING, TopViewRecorder};
use colldet_world::Config;
use roxmltree::{Document, Node, ParsingOptions};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("colldet-{name}-{}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    dir
}

fn run_demo(args: &[&str], dir: &PathBuf) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_colldet"))
        .arg("demo")
        .args(args)
        .args(["--threads", "1", "--report"])
        .arg(dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains(&format!(
        "report written to {}",
        dir.join("index.html").display()
    )));
    std::fs::read_to_string(dir.join("index.html")).unwrap()
}

/// Parses the page as XML (the `<!DOCTYPE html>` line is a DTD to roxmltree).
fn parse(html: &str) -> Document<'_> {
    let options = ParsingOptions {
        allow_dtd: true,
        ..ParsingOptions::default()
    };
    Document::parse_with_options(html, options).expect("index.html is well-formed XML")
}

fn figure<'a>(doc: &'a Document, id: &str) -> Node<'a, 'a> {
    let figure = doc
        .descendants()
        .find(|n| n.has_tag_name("figure") && n.attribute("id") == Some(id))
        .unwrap_or_else(|| panic!("no figure `{id}`"));
    let svg: Vec<Node> = figure
        .children()
        .filter(|n| n.tag_name().name() == "svg")
        .collect();
    assert_eq!(svg.len(), 1, "{id} has one inline svg");
    assert_eq!(
        svg[0].tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    svg[0]
}

fn count(node: Node, tag: &str, pred: impl Fn(&Node) -> bool) -> usize {
    node.descendants()
        .filter(|n| n.tag_name().name() == tag && pred(n))
        .count()
}

fn hex(c: plotters::style::RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

fn has_fill(n: &Node, colour: &str) -> bool {
    n.attribute("fill")
        .is_some_and(|f| f.eq_ignore_ascii_case(colour))
}

#[test]
fn chung_wang_report_has_the_three_plots() {
    let dir = temp_dir("report-cw");
    let html = run_demo(
        &[
            "--objects",
            "40",
            "--vertices",
            "40",
            "--frames",
            "12",
            "--seed",
            "3",
        ],
        &dir,
    );
    let doc = parse(&html);
    assert_eq!(doc.root_element().tag_name().name(), "html");
    let summary = doc
        .descendants()
        .find(|n| n.attribute("id") == Some("summary"))
        .unwrap();
    assert!(
        summary
            .text()
            .unwrap()
            .contains("separated in <= 3 iterations")
    );

    // Frame time: three rolling medians (total, broad, narrow), each a polyline through 12 frames.
    let frame_time = figure(&doc, "frame-time");
    let lines: Vec<Node> = frame_time
        .descendants()
        .filter(|n| n.has_tag_name("polyline"))
        .filter(|n| {
            n.attribute("points")
                .is_some_and(|p| p.split_whitespace().count() == 12)
        })
        .collect();
    assert_eq!(lines.len(), 3, "total, broad and narrow series");

    // Histogram: one filled bar per bin, plus the cumulative line reaching 100%.
    let histogram = figure(&doc, "iterations");
    let blue = hex(plotters::style::RGBColor(40, 110, 200));
    assert!(count(histogram, "rect", |n| has_fill(n, &blue)) >= colldet_world::SV_HISTOGRAM_BINS);
    assert!(
        histogram
            .descendants()
            .filter(|n| n.has_tag_name("polyline"))
            .any(|n| n
                .attribute("points")
                .is_some_and(|p| p.split_whitespace().count() == colldet_world::SV_HISTOGRAM_BINS))
    );

    // Top view: one outline per object, the colliding ones in red.
    let top = figure(&doc, "top-view");
    assert_eq!(count(top, "polygon", |_| true), 40);
    let caption = top
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text().map(str::trim))
        .find(|t| t.starts_with("top view of frame"))
        .expect("top view caption");
    let pairs: usize = caption
        .split("colliding pairs: ")
        .nth(1)
        .and_then(|s| s.trim().parse().ok())
        .unwrap();
    let red = count(top, "polygon", |n| has_fill(n, &hex(COLLIDING)));
    assert!(pairs > 0, "the dense demo collides: {caption}");
    assert!(
        red >= 2 && red <= 2 * pairs,
        "{red} red outlines, {pairs} pairs"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn preset_report_leaves_the_walls_out_of_the_top_view() {
    let dir = temp_dir("report-zoo");
    let html = run_demo(&["--preset", "thesis-zoo", "--frames", "20"], &dir);
    let doc = parse(&html);
    let top = figure(&doc, "top-view");
    assert_eq!(count(top, "polygon", |_| true), 30, "30 objects, no walls");
    let frame_time = figure(&doc, "frame-time");
    assert!(count(frame_time, "polyline", |_| true) >= 3);
    figure(&doc, "iterations");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn one_mover_report_says_there_is_no_histogram() {
    let dir = temp_dir("report-one-mover");
    let html = run_demo(&["--preset", "one-mover", "--frames", "3"], &dir);
    let doc = parse(&html);
    let histogram = figure(&doc, "iterations");
    assert!(
        histogram
            .descendants()
            .any(|n| n.text().map(str::trim) == Some(colldet_cli::report::NO_SEPARATED_QUERIES)),
        "the message instead of empty axes"
    );
    assert_eq!(count(histogram, "polyline", |_| true), 0, "no axes");
    let top = figure(&doc, "top-view");
    let labels: Vec<&str> = top
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text().map(str::trim))
        .collect();
    assert!(labels.contains(&"mover") && labels.contains(&"fixed object"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn recorder_keeps_the_frame_with_the_most_collisions() {
    let options = DemoOptions {
        shape: DemoShape::Rod,
        objects: 40,
        vertices: 30,
        frames: 15,
        seed: 7,
        config: Config {
            threads: 1,
            ..Config::default()
        },
    };
    let mut demo = Demo::new(&options).unwrap();
    let mut recorder = TopViewRecorder::default();
    let mut most = (0, 0);
    for frame in 1..=options.frames {
        demo.step().unwrap();
        recorder.observe(&demo);
        let n = demo.world().last_collisions().len();
        if frame == 1 || n > most.1 {
            most = (frame, n);
        }
    }
    let view = recorder.into_view();
    assert_eq!((view.frame, view.pairs.len()), most);
    assert_eq!(view.outlines.len(), 40);
    let colliding = view.outlines.iter().filter(|o| o.colliding).count();
    assert!(colliding <= 2 * most.1 && (most.1 == 0) == (colliding == 0));
    for o in &view.outlines {
        assert!(o.hull.len() >= 3);
        let h = view.half;
        assert!(
            o.hull
                .iter()
                .all(|p| p.0.abs() <= h * 1.000001 && p.1.abs() <= h * 1.000001)
        );
    }
}
