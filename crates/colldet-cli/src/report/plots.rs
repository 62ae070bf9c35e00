//! The report's three SVG plots, drawn with `plotters`' SVG backend into strings.

use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use super::top_view::TopView;
use crate::demo::DemoSummary;

/// Plot size in pixels.
const SIZE: (u32, u32) = (900, 420);

/// Side of the square top view in pixels.
const TOP_VIEW_SIDE: u32 = 640;

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

fn text<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

/// A line or bar chart of the report.
type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// Draws the chart's legend: a white box with a black border at the middle right.
fn draw_legend<'a, 'b: 'a>(chart: &mut Chart<'a, 'b>) -> Result<(), String> {
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::MiddleRight)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(text)
}

/// Frame time over frames: the whole check, its broad phase and its narrow phase (ms).
///
/// # Errors
/// The drawing error, as text.
pub fn frame_time_svg(summary: &DemoSummary) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(text)?;
        let frames = summary.frame_ms.len().max(1) as f64;
        let top = summary
            .frame_ms
            .iter()
            .copied()
            .fold(0.0, f64::max)
            .max(1e-3)
            * 1.05;
        let mut chart = ChartBuilder::on(&root)
            .caption("check time per frame", ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..frames, 0.0..top)
            .map_err(text)?;
        chart
            .configure_mesh()
            .x_desc("frame")
            .y_desc("ms")
            .draw()
            .map_err(text)?;
        let series = [
            ("total", &summary.frame_ms, BLACK),
            ("broad phase", &summary.broad_ms, BROAD),
            ("narrow phase", &summary.narrow_ms, NARROW),
        ];
        for (name, values, colour) in series {
            chart
                .draw_series(LineSeries::new(
                    values.iter().enumerate().map(|(i, &v)| (i as f64 + 1.0, v)),
                    colour,
                ))
                .map_err(text)?
                .label(name)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour));
        }
        draw_legend(&mut chart)?;
        root.present().map_err(text)?;
    }
    Ok(svg)
}

/// Iterations of the separated Chung-Wang queries, as the paper's Figure 4(i): the share of
/// queries per iteration count (bars) and the cumulative share (line), in percent.
///
/// # Errors
/// The drawing error, as text.
pub fn iteration_histogram_svg(summary: &DemoSummary) -> Result<String, String> {
    let bins = summary.sv_histogram.len();
    let total: u64 = summary.sv_histogram.iter().sum();
    let share = |n: u64| {
        if total == 0 {
            0.0
        } else {
            100.0 * n as f64 / total as f64
        }
    };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(text)?;
        let caption = format!(
            "Chung-Wang iterations of {total} separated queries (last bin: {} or more)",
            bins - 1
        );
        let mut chart = ChartBuilder::on(&root)
            .caption(caption, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(-0.5..bins as f64 - 0.5, 0.0..100.0)
            .map_err(text)?;
        chart
            .configure_mesh()
            .x_desc("iterations k")
            .y_desc("% of separated queries")
            .x_labels(bins)
            .x_label_formatter(&|x| format!("{x:.0}"))
            .draw()
            .map_err(text)?;
        chart
            .draw_series(summary.sv_histogram.iter().enumerate().map(|(k, &n)| {
                let x = k as f64;
                Rectangle::new([(x - 0.35, 0.0), (x + 0.35, share(n))], NARROW.filled())
            }))
            .map_err(text)?
            .label("share")
            .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 15, y + 5)], NARROW.filled()));
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
            .map_err(text)?
            .label("cumulative")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BROAD));
        draw_legend(&mut chart)?;
        root.present().map_err(text)?;
    }
    Ok(svg)
}

/// The top view: the cage outline, every object's projected hull (movers blue, fixed grey,
/// colliding red) and a red line between the centres of each colliding pair.
///
/// # Errors
/// The drawing error, as text.
pub fn top_view_svg(view: &TopView) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root =
            SVGBackend::with_string(&mut svg, (TOP_VIEW_SIDE, TOP_VIEW_SIDE)).into_drawing_area();
        root.fill(&WHITE).map_err(text)?;
        let h = view.half.max(1e-9) * 1.02;
        let caption = format!(
            "top view of frame {} (x-y), colliding pairs: {}",
            view.frame,
            view.pairs.len()
        );
        let mut chart = ChartBuilder::on(&root)
            .caption(caption, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(48)
            .build_cartesian_2d(-h..h, -h..h)
            .map_err(text)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc("x")
            .y_desc("y")
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
                let colour = match (o.colliding, o.moving) {
                    (true, _) => COLLIDING,
                    (false, true) => MOVING,
                    (false, false) => FIXED,
                };
                Polygon::new(o.hull.clone(), colour.mix(0.55).filled())
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
        root.present().map_err(text)?;
    }
    Ok(svg)
}
