//! PNG plots of benchmark rows (plotters, bitmap backend).
//!
//! Text needs a TrueType font, loaded at run time ([`load_font`]) so the build needs no
//! system font library; without one the plots are drawn without text (axes and marks only).
//!
//! - [`time_vs_k`]: one small panel per program, seconds against K, one line per mode;
//! - [`si_vs_unroll`]: every (program, K) as a point (unroll seconds, SI seconds), log-log,
//!   with the diagonal: below it SI is faster;
//! - [`time_vs_size`]: seconds against lines (log-log) for programs of different sizes at one
//!   K, one line per (variant, mode), and a linear-growth reference through the smallest
//!   program at or above 400 lines.

use crate::record::Row;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::collections::BTreeMap;
use std::path::Path;

type Result<T> = std::result::Result<T, String>;

/// Fonts to try when none is given.
pub const FONT_PATHS: &[&str] = &[
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
];

/// Whether plots carry text.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    pub text: bool,
}

const FAMILY: &str = "sans-serif";

/// Registers the font at `path` (or the first of [`FONT_PATHS`] that exists). Returns the
/// style to draw with: text only if a font could be registered.
pub fn load_font(path: Option<&Path>) -> Style {
    let candidates: Vec<&Path> = match path {
        Some(p) => vec![p],
        None => FONT_PATHS.iter().map(Path::new).collect(),
    };
    for candidate in candidates {
        if let Ok(bytes) = std::fs::read(candidate) {
            let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
            if plotters::style::register_font(FAMILY, FontStyle::Normal, bytes).is_ok() {
                return Style { text: true };
            }
        }
    }
    Style { text: false }
}

const SI: RGBColor = RGBColor(31, 119, 180);
const UNROLL: RGBColor = RGBColor(214, 39, 40);
const PALETTE: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
];

const SI_NO_SUMMARIES: RGBColor = RGBColor(44, 160, 44);

fn mode_color(mode: &str) -> RGBColor {
    match mode {
        "si" => SI,
        "unroll" => UNROLL,
        _ => SI_NO_SUMMARIES,
    }
}

fn err(e: impl std::fmt::Display) -> String {
    format!("plot: {e}")
}

/// Seconds against K, one panel per program of `suite`.
pub fn time_vs_k(rows: &[Row], suite: &str, path: &Path, style: Style) -> Result<()> {
    let mut programs: BTreeMap<&str, Vec<&Row>> = BTreeMap::new();
    for row in rows.iter().filter(|r| r.suite == suite) {
        programs.entry(&row.program).or_default().push(row);
    }
    if programs.is_empty() {
        return Ok(());
    }
    let columns = 6usize;
    let grid_rows = programs.len().div_ceil(columns);
    let root = BitMapBackend::new(path, (300 * columns as u32, 210 * grid_rows as u32 + 40))
        .into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let body = if style.text {
        let title =
            format!("{suite}: seconds vs K (blue: si, red: unroll, green: si --no-summaries)");
        root.titled(&title, (FAMILY, 24)).map_err(err)?
    } else {
        root.clone()
    };
    let panels = body.split_evenly((grid_rows, columns));
    for ((name, runs), panel) in programs.iter().zip(panels.iter()) {
        panel_time_vs_k(panel, name, runs, style)?;
    }
    root.present().map_err(err)
}

fn panel_time_vs_k(
    area: &DrawingArea<BitMapBackend, Shift>,
    name: &str,
    runs: &[&Row],
    style: Style,
) -> Result<()> {
    let k_max = runs.iter().map(|r| r.k).max().unwrap_or(1).max(2);
    let t_max = runs.iter().map(|r| r.seconds).fold(0.5, f64::max) * 1.1;
    let mut builder = ChartBuilder::on(area);
    builder.margin(6);
    if style.text {
        builder
            .caption(name, (FAMILY, 15))
            .x_label_area_size(20)
            .y_label_area_size(34);
    }
    let mut chart = builder
        .build_cartesian_2d(1u32..k_max, 0f64..t_max)
        .map_err(err)?;
    let mut mesh = chart.configure_mesh();
    mesh.x_labels(8)
        .y_labels(5)
        .light_line_style(WHITE.mix(0.0));
    if style.text {
        mesh.label_style((FAMILY, 11));
    }
    mesh.draw().map_err(err)?;
    for mode in ["si", "unroll", "si-no-summaries"] {
        let mut points: Vec<(u32, f64)> = runs
            .iter()
            .filter(|r| r.mode == mode)
            .map(|r| (r.k, r.seconds))
            .collect();
        points.sort_by_key(|p| p.0);
        let color = mode_color(mode);
        chart
            .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
            .map_err(err)?;
        chart
            .draw_series(points.iter().map(|&p| Circle::new(p, 2, color.filled())))
            .map_err(err)?;
    }
    Ok(())
}

/// Every (suite, program, K) run in both modes: unroll seconds (x) vs SI seconds (y). A run
/// cut off by its timeout is drawn at the time it was cut off (a lower bound of its time).
pub fn si_vs_unroll(rows: &[Row], path: &Path, style: Style) -> Result<()> {
    // (suite, program, K) -> (unroll seconds, si seconds)
    type Key<'r> = (&'r str, &'r str, u32);
    let mut pairs: BTreeMap<Key, (Option<f64>, Option<f64>)> = BTreeMap::new();
    for row in rows {
        let entry = pairs.entry((&row.suite, &row.program, row.k)).or_default();
        match row.mode.as_str() {
            "si" => entry.1 = Some(row.seconds),
            "unroll" => entry.0 = Some(row.seconds),
            _ => {}
        }
    }
    let mut by_suite: BTreeMap<&str, Vec<(f64, f64)>> = BTreeMap::new();
    for ((suite, _, _), times) in &pairs {
        if let (Some(u), Some(s)) = times {
            by_suite
                .entry(suite)
                .or_default()
                .push((u.max(0.01), s.max(0.01)));
        }
    }
    let all = || by_suite.values().flatten();
    let hi = all().fold(1.0f64, |m, &(u, s)| m.max(u).max(s)) * 1.5;
    let lo = (all().fold(f64::MAX, |m, &(u, s)| m.min(u).min(s)) * 0.7).clamp(0.01, 0.1);
    let root = BitMapBackend::new(path, (900, 800)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut builder = ChartBuilder::on(&root);
    builder.margin(15);
    if style.text {
        builder
            .caption("seconds per (program, K): SI vs unroll", (FAMILY, 24))
            .x_label_area_size(45)
            .y_label_area_size(60);
    }
    let mut chart = builder
        .build_cartesian_2d((lo..hi).log_scale(), (lo..hi).log_scale())
        .map_err(err)?;
    let mut mesh = chart.configure_mesh();
    if style.text {
        mesh.x_desc("unroll (s)")
            .y_desc("si (s)")
            .label_style((FAMILY, 14));
    }
    mesh.draw().map_err(err)?;
    chart
        .draw_series(LineSeries::new(vec![(lo, lo), (hi, hi)], BLACK.mix(0.5)))
        .map_err(err)?;
    for (i, (suite, points)) in by_suite.iter().enumerate() {
        let color = PALETTE[i % PALETTE.len()];
        let series = chart
            .draw_series(
                points
                    .iter()
                    .map(|&p| Circle::new(p, 3, color.mix(0.7).filled())),
            )
            .map_err(err)?;
        if style.text {
            series
                .label(format!("{suite} ({} points)", points.len()))
                .legend(move |(x, y)| Circle::new((x, y), 4, color.filled()));
        }
    }
    if style.text {
        chart
            .configure_series_labels()
            .label_font((FAMILY, 14))
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperLeft)
            .draw()
            .map_err(err)?;
    }
    root.present().map_err(err)
}

/// Seconds against lines at depth `k` for the programs of `suite`: one line per variant
/// (`-e` = buggy) and mode.
pub fn time_vs_size(rows: &[Row], suite: &str, k: u32, path: &Path, style: Style) -> Result<()> {
    let mut series: BTreeMap<(bool, &str), Vec<(f64, f64)>> = BTreeMap::new();
    for row in rows.iter().filter(|r| r.suite == suite && r.k == k) {
        let buggy = row.program.ends_with("-e");
        series
            .entry((buggy, &row.mode))
            .or_default()
            .push((row.lines as f64, row.seconds.max(0.01)));
    }
    if series.is_empty() {
        return Ok(());
    }
    for points in series.values_mut() {
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    let (x_hi, y_hi) = series
        .values()
        .flatten()
        .fold((100.0f64, 1.0f64), |(x, y), p| (x.max(p.0), y.max(p.1)));
    let x_lo = series.values().flatten().fold(f64::MAX, |x, p| x.min(p.0)) * 0.8;
    let y_lo = series.values().flatten().fold(f64::MAX, |y, p| y.min(p.1)) * 0.5;
    let root = BitMapBackend::new(path, (900, 650)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut builder = ChartBuilder::on(&root);
    builder.margin(15);
    if style.text {
        let title = format!("{suite}: seconds vs lines at K = {k}");
        builder
            .caption(title, (FAMILY, 24))
            .x_label_area_size(45)
            .y_label_area_size(60);
    }
    let mut chart = builder
        .build_cartesian_2d(
            (x_lo..x_hi * 1.25).log_scale(),
            (y_lo..y_hi * 2.0).log_scale(),
        )
        .map_err(err)?;
    let mut mesh = chart.configure_mesh();
    if style.text {
        mesh.x_desc("lines")
            .y_desc("seconds")
            .x_label_formatter(&size_label)
            .label_style((FAMILY, 14));
    }
    mesh.draw().map_err(err)?;
    for ((buggy, mode), points) in &series {
        let color = mode_color(mode);
        let stroke = if *buggy {
            color.stroke_width(3)
        } else {
            color.mix(0.45).stroke_width(2)
        };
        let drawn = chart
            .draw_series(LineSeries::new(points.clone(), stroke))
            .map_err(err)?;
        if style.text {
            let what = if *buggy {
                "with a shallow bug"
            } else {
                "all safe"
            };
            drawn
                .label(format!("{mode}, {what}"))
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], stroke));
        }
        chart
            .draw_series(points.iter().map(|&p| Circle::new(p, 4, color.filled())))
            .map_err(err)?;
    }
    draw_linear_reference(&mut chart, &series, x_hi, style)?;
    if style.text {
        chart
            .configure_series_labels()
            .label_font((FAMILY, 14))
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperLeft)
            .draw()
            .map_err(err)?;
    }
    root.present().map_err(err)
}

/// A line count on the logarithmic size axis, labelled only at 1, 2 and 4 times a power of
/// ten (the log scale's other grid lines would crowd their labels together).
fn size_label(lines: &f64) -> String {
    let magnitude = 10f64.powf(lines.log10().floor());
    let leading = (lines / magnitude).round();
    if [1.0, 2.0, 4.0].contains(&leading) && (lines / magnitude - leading).abs() < 1e-6 {
        format!("{lines:.0}")
    } else {
        String::new()
    }
}

type LogChart<'a> = ChartContext<
    'a,
    BitMapBackend<'a>,
    Cartesian2d<
        plotters::coord::combinators::LogCoord<f64>,
        plotters::coord::combinators::LogCoord<f64>,
    >,
>;

/// A dashed line of slope 1 (linear growth) through the SI buggy series at >= 400 lines.
fn draw_linear_reference(
    chart: &mut LogChart,
    series: &BTreeMap<(bool, &str), Vec<(f64, f64)>>,
    x_hi: f64,
    style: Style,
) -> Result<()> {
    let Some(points) = series.get(&(true, "si")) else {
        return Ok(());
    };
    let Some(&(x0, y0)) = points.iter().find(|p| p.0 >= 400.0) else {
        return Ok(());
    };
    let line = vec![(x0, y0), (x_hi, y0 * x_hi / x0)];
    let drawn = chart
        .draw_series(DashedLineSeries::new(line, 6, 4, BLACK.stroke_width(1)))
        .map_err(err)?;
    if style.text {
        drawn
            .label("linear growth from the si bug point >= 400 lines")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK));
    }
    Ok(())
}
