//! The report's three SVG plots, drawn with `plotters`' SVG backend into strings.
//!
//! Every plot has its title across the top and its legend in a column to the right of the axes,
//! so the legend never covers data and the last x tick label has room. Text sizes are set so the
//! SVG carries at least 12 px everywhere (see [`px`]).

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::top_view::TopView;
use crate::demo::DemoSummary;

/// Size of the frame-time and histogram plots in pixels.
const SIZE: (u32, u32) = (900, 440);
/// Height of the histogram's stand-in when there is nothing to plot.
const EMPTY_HEIGHT: u32 = 110;
/// Width of the legend column of the frame-time and histogram plots.
const LEGEND_WIDTH: u32 = 210;
/// Side of the square top view in pixels (its legend column comes on top of this).
const TOP_VIEW_SIDE: u32 = 640;
/// Width of the top view's legend column.
const TOP_VIEW_LEGEND_WIDTH: u32 = 200;

/// Font sizes as given to `plotters`: its SVG backend writes `size / 1.24` as the `font-size`,
/// so 16 becomes 12.9 px.
const TICK_FONT: f64 = 16.0;
/// Axis descriptions.
const DESC_FONT: f64 = 17.0;
/// Legend entries and notes.
const LEGEND_FONT: f64 = 16.0;
/// Plot titles.
const TITLE_FONT: f64 = 22.0;
/// The empty histogram's message.
const MESSAGE_FONT: f64 = 21.0;

/// Frames in the frame-time plot's rolling-median window (centred, odd).
pub const ROLLING_WINDOW: usize = 9;

/// Colour of the broad phase series.
const BROAD: RGBColor = RGBColor(230, 140, 30);
/// Colour of the narrow phase series.
const NARROW: RGBColor = RGBColor(40, 110, 200);
/// Colour of colliding objects and pair links.
pub const COLLIDING: RGBColor = RGBColor(220, 40, 40);
/// Colour of movers.
const MOVING: RGBColor = RGBColor(70, 130, 180);
/// Colour of fixed objects.
const FIXED: RGBColor = RGBColor(150, 150, 150);
/// Opacity of object outlines in the top view.
const OUTLINE_ALPHA: f64 = 0.55;

/// The `font-size` in px that the SVG backend writes for a `plotters` font size.
pub fn px(size: f64) -> f64 {
    size / 1.24
}

fn text<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

fn font(size: f64) -> TextStyle<'static> {
    ("sans-serif", size).into_font().color(&BLACK)
}

/// A drawing area in pixels.
type Area<'b> = DrawingArea<SVGBackend<'b>, Shift>;

/// What a legend entry shows next to its label.
#[derive(Clone, Copy)]
enum Swatch {
    /// A line of this colour and width.
    Line(RGBAColor, u32),
    /// A filled square.
    Fill(RGBAColor),
    /// A filled dot.
    Dot(RGBAColor),
}

/// Draws `entries` one below the other in `area` from `top` (pixels), then `notes` as plain
/// lines.
fn draw_legend(
    area: &Area,
    top: i32,
    entries: &[(Swatch, String)],
    notes: &[String],
) -> Result<(), String> {
    let step = (px(LEGEND_FONT) * 1.9).round() as i32;
    let (x, swatch) = (8, 24);
    let style = font(LEGEND_FONT).pos(Pos::new(HPos::Left, VPos::Center));
    let mut y = top;
    for (kind, label) in entries {
        match *kind {
            Swatch::Line(colour, width) => area.draw(&PathElement::new(
                vec![(x, y), (x + swatch, y)],
                colour.stroke_width(width),
            )),
            Swatch::Fill(colour) => area.draw(&Rectangle::new(
                [(x + 2, y - 8), (x + swatch - 2, y + 8)],
                colour.filled(),
            )),
            Swatch::Dot(colour) => area.draw(&Circle::new((x + swatch / 2, y), 4, colour.filled())),
        }
        .map_err(text)?;
        area.draw_text(label, &style, (x + swatch + 8, y))
            .map_err(text)?;
        y += step;
    }
    y += step / 3;
    for note in notes {
        area.draw_text(note, &style, (x, y)).map_err(text)?;
        y += step * 4 / 5;
    }
    Ok(())
}

/// The title across the top of `root`; returns the area below it.
fn titled<'b>(root: &Area<'b>, title: &str) -> Result<Area<'b>, String> {
    root.margin(6, 0, 0, 0)
        .titled(title, font(TITLE_FONT))
        .map_err(text)
}

/// A tick label: the shortest decimal form of `v` (up to 6 decimals) that reads back as `v` to
/// within a millionth of `scale`.
fn tick(v: f64, scale: f64) -> String {
    let tolerance = scale.abs().max(f64::MIN_POSITIVE) * 1e-6;
    for decimals in 0..6 {
        let s = format!("{v:.decimals$}");
        if s.parse::<f64>().is_ok_and(|r| (r - v).abs() <= tolerance) {
            return if s == "-0" { "0".into() } else { s };
        }
    }
    format!("{v:.6}")
}

/// `v` to three significant digits (at least), as plain decimals.
fn significant(v: f64) -> String {
    let decimals = if v > 0.0 {
        (2 - v.log10().floor() as i32).clamp(0, 9) as usize
    } else {
        0
    };
    format!("{v:.decimals$}")
}

/// Median of the values (the mean of the middle two for an even count); 0 for none.
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    match n {
        0 => 0.0,
        _ if n % 2 == 1 => values[n / 2],
        _ => 0.5 * (values[n / 2 - 1] + values[n / 2]),
    }
}

/// The rolling median of `values`: entry `i` is the median of the `window` values centred on `i`
/// (`window / 2` each side), the window cut at both ends of the series.
pub fn rolling_median(values: &[f64], window: usize) -> Vec<f64> {
    let half = window / 2;
    (0..values.len())
        .map(|i| {
            let end = (i + half + 1).min(values.len());
            median(&mut values[i.saturating_sub(half)..end].to_vec())
        })
        .collect()
}

/// Share (0..=1) `p` of the sorted values at or below the result (nearest rank); 0 for none.
fn nearest_rank(values: &[f64], p: f64) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    match sorted.len() {
        0 => 0.0,
        n => sorted[((p * n as f64).ceil() as usize).clamp(1, n) - 1],
    }
}

/// Frame time over frames: the rolling median ([`ROLLING_WINDOW`] frames) of the whole check,
/// its broad phase and its narrow phase (ms), with each frame's whole check as a faint dot.
///
/// The y axis reaches 20% above the larger of the highest median and the 90th percentile of the
/// frames' whole check, so a few preempted frames do not flatten the plot; the dots above it are
/// counted in the legend column with the slowest frame's time.
///
/// # Errors
/// The drawing error, as text.
pub fn frame_time_svg(summary: &DemoSummary) -> Result<String, String> {
    let n = summary.frame_ms.len();
    let series = [
        (
            "total",
            rolling_median(&summary.frame_ms, ROLLING_WINDOW),
            BLACK,
        ),
        (
            "broad phase",
            rolling_median(&summary.broad_ms, ROLLING_WINDOW),
            BROAD,
        ),
        (
            "narrow phase",
            rolling_median(&summary.narrow_ms, ROLLING_WINDOW),
            NARROW,
        ),
    ];
    let highest_median = series
        .iter()
        .flat_map(|(_, v, _)| v.iter().copied())
        .fold(0.0, f64::max);
    let top = (highest_median.max(nearest_rank(&summary.frame_ms, 0.9)) * 1.2).max(1e-3);
    let slowest = summary.frame_ms.iter().copied().fold(0.0, f64::max);
    let off_scale = summary.frame_ms.iter().filter(|&&v| v > top).count();
    let raw = RGBColor(0, 0, 0).mix(0.28);

    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(text)?;
        let body = titled(
            &root,
            &format!("check time per frame (rolling median over {ROLLING_WINDOW} frames)"),
        )?;
        let (plot, side) = body.split_horizontally(SIZE.0 - LEGEND_WIDTH);
        let frames = n.max(1) as f64;
        let mut chart = ChartBuilder::on(&plot)
            .margin(10)
            .margin_right(28)
            .x_label_area_size(52)
            .y_label_area_size(78)
            .build_cartesian_2d(0.5..frames + 0.5, 0.0..top)
            .map_err(text)?;
        let x_tick = |x: &f64| {
            if (x - x.round()).abs() < 1e-9 && *x >= 1.0 {
                format!("{x:.0}")
            } else {
                String::new()
            }
        };
        let y_tick = |y: &f64| tick(*y, top);
        chart
            .configure_mesh()
            .light_line_style(WHITE)
            .bold_line_style(BLACK.mix(0.12))
            .x_desc("frame")
            .y_desc("ms per frame")
            .x_labels(n.clamp(2, 10))
            .y_labels(8)
            .x_label_formatter(&x_tick)
            .y_label_formatter(&y_tick)
            .label_style(font(TICK_FONT))
            .axis_desc_style(font(DESC_FONT))
            .draw()
            .map_err(text)?;
        chart
            .draw_series(
                summary
                    .frame_ms
                    .iter()
                    .enumerate()
                    .filter(|&(_, &v)| v <= top)
                    .map(|(i, &v)| Circle::new((i as f64 + 1.0, v), 2, raw.filled())),
            )
            .map_err(text)?;
        for (_, values, colour) in &series {
            chart
                .draw_series(LineSeries::new(
                    values.iter().enumerate().map(|(i, &v)| (i as f64 + 1.0, v)),
                    colour.stroke_width(2),
                ))
                .map_err(text)?;
        }
        let entries: Vec<(Swatch, String)> = series
            .iter()
            .map(|(name, _, colour)| (Swatch::Line(colour.to_rgba(), 2), (*name).to_string()))
            .chain([(Swatch::Dot(raw), "each frame's total".to_string())])
            .collect();
        let notes = if off_scale > 0 {
            vec![
                format!(
                    "off the axis: {off_scale} frame{}",
                    if off_scale == 1 { "" } else { "s" }
                ),
                format!("slowest: {} ms", significant(slowest)),
            ]
        } else {
            Vec::new()
        };
        draw_legend(&side, 30, &entries, &notes)?;
        root.present().map_err(text)?;
    }
    Ok(svg)
}

/// The message shown instead of the iteration histogram when no Chung-Wang query came out
/// separated.
pub const NO_SEPARATED_QUERIES: &str = "no separated Chung-Wang queries in this run";

/// Iterations of the separated Chung-Wang queries, as the paper's Figure 4(i): the share of
/// queries per iteration count (bars) and the cumulative share (line), in percent. With no
/// separated query, a short panel with [`NO_SEPARATED_QUERIES`] and the run's counts instead.
///
/// # Errors
/// The drawing error, as text.
pub fn iteration_histogram_svg(summary: &DemoSummary) -> Result<String, String> {
    let bins = summary.sv_histogram.len();
    let total: u64 = summary.sv_histogram.iter().sum();
    if total == 0 {
        return empty_histogram_svg(summary);
    }
    let share = |n: u64| 100.0 * n as f64 / total as f64;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(text)?;
        let body = titled(
            &root,
            &format!("Chung-Wang iterations of {total} separated queries"),
        )?;
        let (plot, side) = body.split_horizontally(SIZE.0 - LEGEND_WIDTH);
        let mut chart = ChartBuilder::on(&plot)
            .margin(10)
            .margin_right(28)
            .x_label_area_size(52)
            .y_label_area_size(78)
            .build_cartesian_2d(-0.5..bins as f64 - 0.5, 0.0..100.0)
            .map_err(text)?;
        let last = bins - 1;
        let x_tick = |x: &f64| {
            let k = x.round();
            match k as usize {
                _ if (x - k).abs() > 1e-9 || k < 0.0 => String::new(),
                k if k == last => format!("{k}+"),
                k => k.to_string(),
            }
        };
        let y_tick = |y: &f64| tick(*y, 100.0);
        chart
            .configure_mesh()
            .light_line_style(WHITE)
            .bold_line_style(BLACK.mix(0.12))
            .x_desc("iterations k")
            .y_desc("% of separated queries")
            .x_labels(bins)
            .y_labels(6)
            .x_label_formatter(&x_tick)
            .y_label_formatter(&y_tick)
            .label_style(font(TICK_FONT))
            .axis_desc_style(font(DESC_FONT))
            .draw()
            .map_err(text)?;
        chart
            .draw_series(summary.sv_histogram.iter().enumerate().map(|(k, &n)| {
                let x = k as f64;
                Rectangle::new([(x - 0.35, 0.0), (x + 0.35, share(n))], NARROW.filled())
            }))
            .map_err(text)?;
        let mut running = 0;
        let cumulative: Vec<(f64, f64)> = summary
            .sv_histogram
            .iter()
            .enumerate()
            .map(|(k, &n)| {
                running += n;
                (k as f64, share(running))
            })
            .collect();
        chart
            .draw_series(LineSeries::new(cumulative, BROAD.stroke_width(2)))
            .map_err(text)?;
        let entries = [
            (Swatch::Fill(NARROW.to_rgba()), "share at k".to_string()),
            (
                Swatch::Line(BROAD.to_rgba(), 2),
                "share at <= k".to_string(),
            ),
        ];
        let notes = [format!("{last}+: {last} or more")];
        draw_legend(&side, 30, &entries, &notes)?;
        root.present().map_err(text)?;
    }
    Ok(svg)
}

/// The histogram's stand-in: [`NO_SEPARATED_QUERIES`] and the counts behind it.
fn empty_histogram_svg(summary: &DemoSummary) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (SIZE.0, EMPTY_HEIGHT)).into_drawing_area();
        root.fill(&RGBColor(246, 246, 246)).map_err(text)?;
        let centre = Pos::new(HPos::Center, VPos::Center);
        let x = SIZE.0 as i32 / 2;
        root.draw_text(
            NO_SEPARATED_QUERIES,
            &font(MESSAGE_FONT).pos(centre),
            (x, 36),
        )
        .map_err(text)?;
        let detail = format!(
            "{} Chung-Wang queries and {} exact tests in {} frames",
            summary.sv_queries, summary.tested_total, summary.frames
        );
        root.draw_text(&detail, &font(LEGEND_FONT).pos(centre), (x, 74))
            .map_err(text)?;
        root.present().map_err(text)?;
    }
    Ok(svg)
}

/// The top view: the cage outline, every object's projected hull (movers blue, fixed grey,
/// colliding red) and a red line between the centres of each colliding pair, with a legend of
/// the kinds present to the right.
///
/// # Errors
/// The drawing error, as text.
pub fn top_view_svg(view: &TopView) -> Result<String, String> {
    let colour_of = |colliding: bool, moving: bool| match (colliding, moving) {
        (true, _) => COLLIDING,
        (false, true) => MOVING,
        (false, false) => FIXED,
    };
    let mut svg = String::new();
    {
        let size = (TOP_VIEW_SIDE + TOP_VIEW_LEGEND_WIDTH, TOP_VIEW_SIDE);
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE).map_err(text)?;
        let body = titled(
            &root,
            &format!(
                "top view of frame {} (x-y), colliding pairs: {}",
                view.frame,
                view.pairs.len()
            ),
        )?;
        let (plot, side) = body.split_horizontally(TOP_VIEW_SIDE);
        let h = view.half.max(1e-9) * 1.02;
        let mut chart = ChartBuilder::on(&plot)
            .margin(10)
            .margin_right(24)
            .x_label_area_size(52)
            .y_label_area_size(70)
            .build_cartesian_2d(-h..h, -h..h)
            .map_err(text)?;
        let x_tick = |x: &f64| tick(*x, h);
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc("x")
            .y_desc("y")
            .x_labels(9)
            .y_labels(9)
            .x_label_formatter(&x_tick)
            .y_label_formatter(&x_tick)
            .label_style(font(TICK_FONT))
            .axis_desc_style(font(DESC_FONT))
            .draw()
            .map_err(text)?;
        let half = view.half;
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![
                    (-half, -half),
                    (half, -half),
                    (half, half),
                    (-half, half),
                    (-half, -half),
                ],
                BLACK,
            )))
            .map_err(text)?;
        // Colliding objects last, so they are drawn on top.
        let mut order: Vec<usize> = (0..view.outlines.len()).collect();
        order.sort_by_key(|&i| view.outlines[i].colliding);
        chart
            .draw_series(order.iter().map(|&i| {
                let o = &view.outlines[i];
                let colour = colour_of(o.colliding, o.moving);
                Polygon::new(o.hull.clone(), colour.mix(OUTLINE_ALPHA).filled())
            }))
            .map_err(text)?;
        chart
            .draw_series(view.pairs.iter().map(|&(a, b)| {
                PathElement::new(
                    vec![view.outlines[a].centre, view.outlines[b].centre],
                    COLLIDING.stroke_width(2),
                )
            }))
            .map_err(text)?;
        draw_legend(&side, 30, &top_view_legend(view), &[])?;
        root.present().map_err(text)?;
    }
    Ok(svg)
}

/// The top view's legend: the kinds of outline present (a colliding mover and a colliding fixed
/// object are both "colliding") and the pair links when some pair collides.
fn top_view_legend(view: &TopView) -> Vec<(Swatch, String)> {
    let has = |colliding: bool, moving: Option<bool>| {
        view.outlines
            .iter()
            .any(|o| o.colliding == colliding && moving.is_none_or(|m| o.moving == m))
    };
    let fill = |c: RGBColor| Swatch::Fill(c.mix(OUTLINE_ALPHA));
    let mut entries = Vec::new();
    if has(false, Some(true)) {
        entries.push((fill(MOVING), "mover".to_string()));
    }
    if has(false, Some(false)) {
        entries.push((fill(FIXED), "fixed object".to_string()));
    }
    if has(true, None) {
        entries.push((fill(COLLIDING), "colliding object".to_string()));
    }
    if !view.pairs.is_empty() {
        entries.push((
            Swatch::Line(COLLIDING.to_rgba(), 2),
            "colliding pair link".to_string(),
        ));
    }
    entries
}
