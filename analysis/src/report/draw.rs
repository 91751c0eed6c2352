//! Drawing the report's charts with plotters: dots with intervals, side-by-side heatmaps on
//! one colour scale, histograms with their tail apart, bars. The data is shaped in
//! [`super::charts`].

use std::error::Error;

use plotters::coord::Shift;
use plotters::prelude::*;

use records::core::language::Phrases;

use super::charts::{Bins, Series};

/// The charts' font: the Latin subset of DejaVu Sans for English, the project's CJK subset
/// (which has the Latin letters too) for Chinese; both registered by
/// [`super::charts::register_font`]. An SVG names the family, which the report's page
/// defines with the same font.
pub fn font_of(say: &Phrases) -> &'static str {
    if say.is_chinese() {
        super::charts::CJK_FONT
    } else {
        super::charts::LATIN_FONT
    }
}

type Result<T> = std::result::Result<T, Box<dyn Error>>;

/// plotters writes an SVG text's size as the size asked divided by 1.24 (points to pixels):
/// a size asked is this many times the pixels wanted, so that the SVG on the page has text
/// of at least 12 pixels (docs/analysis.md; measured in Chromium by
/// analysis/tests/report_page.rs). The PNG's text is that much larger.
const SVG_POINTS: f64 = 1.24;

/// A font size of `pixels` in the SVG.
fn px(pixels: f64) -> f64 {
    pixels * SVG_POINTS
}

pub const RED_INK: RGBColor = RGBColor(200, 40, 40);
pub const BLUE_INK: RGBColor = RGBColor(40, 80, 190);
pub const GREEN_INK: RGBColor = RGBColor(40, 140, 70);
pub const GREY_INK: RGBColor = RGBColor(90, 90, 90);
const BAR: RGBColor = RGBColor(70, 110, 170);
const TAIL: RGBColor = RGBColor(170, 170, 170);
const MUTED: RGBColor = RGBColor(232, 232, 232);

/// A number with thousands separators.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The label of a category axis at `x`: the name of category `x` when x is a whole number.
fn category(names: &[String], x: f64) -> String {
    let i = x.round();
    if (x - i).abs() < 0.01 && i >= 0.0 {
        names.get(i as usize).cloned().unwrap_or_default()
    } else {
        String::new()
    }
}

/// Dots with 95% intervals per category (preset), one colour per series; the legend in a
/// strip under the plot.
pub fn dots<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    (presets, series): &(Vec<String>, Vec<Series>),
    say: &Phrases,
) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let font = font_of(say);
    let (plot, legend) = area.split_vertically(area.dim_in_pixel().1 - 40);
    let n = presets.len().max(1) as f64;
    let mut chart = ChartBuilder::on(&plot)
        .caption(title, (font, px(18.0)))
        .margin(15)
        .x_label_area_size(58)
        .y_label_area_size(78)
        .build_cartesian_2d(-0.5f64..n - 0.5, 0f64..100f64)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(presets.len().max(1))
        .x_label_formatter(&|x| category(presets, *x))
        .x_desc(say.get("report.chart.preset"))
        .y_desc(say.get("report.chart.share"))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .label_style((font, px(13.0)))
        .axis_desc_style((font, px(14.0)))
        .draw()?;
    let k = series.len().max(1) as f64;
    for (j, one) in series.iter().enumerate() {
        let offset = (j as f64 - (k - 1.0) / 2.0) * (0.6 / k);
        let colour = one.colour;
        chart.draw_series(one.points.iter().enumerate().map(|(i, &(mid, lo, hi))| {
            ErrorBar::new_vertical(i as f64 + offset, lo, mid, hi, colour.stroke_width(2), 8)
        }))?;
        chart.draw_series(
            one.points
                .iter()
                .enumerate()
                .map(|(i, &(mid, _, _))| Circle::new((i as f64 + offset, mid), 5, colour.filled())),
        )?;
    }
    let mut x = 70;
    for one in series {
        legend.draw(&Circle::new((x, 15), 5, one.colour.filled()))?;
        legend.draw(&Text::new(
            one.legend.clone(),
            (x + 10, 7),
            (font, px(14.0)),
        ))?;
        // A CJK character is about twice a Latin letter's width.
        let width: i32 = one
            .legend
            .chars()
            .map(|c| if c > '\u{2E80}' { 18 } else { 9 })
            .sum();
        x += 50 + width;
    }
    Ok(())
}

/// An axis label of a count or a length: whole numbers only (a tick between two whole numbers,
/// as on a short axis, is left blank rather than said twice or as `20.0`).
fn whole(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 && v >= 0.0 {
        thousands(v.round() as u64)
    } else {
        String::new()
    }
}

/// Black or white, whichever reads better on `background` (the higher WCAG contrast ratio:
/// black text on the deepest blue was 2.4 to 1, grey on the light grey 2.3).
fn ink_on(background: RGBColor) -> RGBColor {
    let channel = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.039_28 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let RGBColor(r, g, b) = background;
    let luminance = 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    // Against black: (L + 0.05) / 0.05; against white: 1.05 / (L + 0.05).
    if (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05) {
        BLACK
    } else {
        WHITE
    }
}

/// The colour of a score on a scale of ±`spread` around one half.
fn heat(score: f64, spread: f64) -> RGBColor {
    let t = ((score - 0.5) / spread).clamp(-1.0, 1.0);
    let fade = |a: f64| (255.0 * (1.0 - 0.8 * a.abs()) + 0.5) as u8;
    if t >= 0.0 {
        RGBColor(255, fade(t), fade(t))
    } else {
        RGBColor(fade(t), fade(t), 255)
    }
}

/// One board of `files` × `ranks` squares per preset, side by side, each square coloured by
/// player 1's score on the board's own scale (its caption says it: presets differ too much for
/// one, where a lopsided one left the others white), squares with fewer than `few` finished
/// games grey; and the legend.
pub fn heatmaps<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    panels: &[(String, Vec<(String, f64, u64)>)],
    (files, ranks): (u8, u8),
    few: u64,
    say: &Phrases,
) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let font = font_of(say);
    let (title_area, rest) = area.split_vertically(40);
    title_area.titled(title, (font, px(18.0)))?;
    let (boards, legend) = rest.split_vertically(rest.dim_in_pixel().1 - 50);
    let columns = boards.split_evenly((1, panels.len().max(1)));
    for ((preset, cells), panel) in panels.iter().zip(columns) {
        // The board's largest distance from one half among its coloured squares, in steps of
        // 5%: its own scale.
        let coloured: Vec<f64> = cells
            .iter()
            .filter(|c| c.2 >= few)
            .map(|c| (c.1 - 0.5).abs())
            .collect();
        let spread = coloured.iter().copied().fold(0.05f64, f64::max);
        let spread = (spread * 20.0).ceil() / 20.0;
        let caption = if coloured.is_empty() {
            say.fill(
                "report.chart.heat_none",
                &[("preset", preset), ("few", &few.to_string())],
            )
        } else {
            say.fill(
                "report.chart.heat_scale",
                &[
                    ("preset", preset),
                    ("low", &format!("{:.0}%", (0.5 - spread) * 100.0)),
                    ("high", &format!("{:.0}%", (0.5 + spread) * 100.0)),
                ],
            )
        };
        let mut chart = ChartBuilder::on(&panel)
            .caption(caption, (font, px(15.0)))
            .margin(8)
            .build_cartesian_2d(0f64..files as f64, 0f64..ranks as f64)?;
        for (square, score, n) in cells {
            // A square is named by its file's letter and its rank's number (`a1`).
            let Some(file) = square.bytes().next().map(|b| b.wrapping_sub(b'a') as f64) else {
                continue;
            };
            let Some(rank) = square[1..].parse::<u32>().ok().map(|r| r as f64 - 1.0) else {
                continue;
            };
            let muted = *n < few;
            let fill = if muted { MUTED } else { heat(*score, spread) };
            chart.draw_series(std::iter::once(Rectangle::new(
                [(file + 0.02, rank + 0.02), (file + 0.98, rank + 0.98)],
                fill.filled(),
            )))?;
            let ink = ink_on(fill);
            chart.draw_series(std::iter::once(Text::new(
                format!("{square} {:.0}%", score * 100.0),
                (file + 0.08, rank + 0.7),
                (font, px(12.0)).into_font().color(&ink),
            )))?;
            chart.draw_series(std::iter::once(Text::new(
                format!("n={}", thousands(*n)),
                (file + 0.08, rank + 0.35),
                (font, px(12.0)).into_font().color(&ink),
            )))?;
        }
    }
    // The legend's scale runs from a board's lowest to its highest (its caption).
    let steps = 20;
    for i in 0..steps {
        let score = (i as f64 + 0.5) / steps as f64;
        let x = 60 + i * 12;
        legend.draw(&Rectangle::new(
            [(x, 6), (x + 12, 22)],
            heat(score, 0.5).filled(),
        ))?;
    }
    let label = |x: i32, text: String| Text::new(text, (x, 26), (font, px(12.0)));
    legend.draw(&label(44, say.get("report.chart.lowest")))?;
    legend.draw(&label(48 + 6 * steps, "50%".into()))?;
    legend.draw(&label(40 + 12 * steps, say.get("report.chart.highest")))?;
    let right = 60 + 12 * steps + 30;
    legend.draw(&Text::new(
        say.get("report.chart.p1_score"),
        (right, 8),
        (font, px(13.0)),
    ))?;
    let grey = right + 165;
    legend.draw(&Rectangle::new(
        [(grey, 6), (grey + 16, 22)],
        MUTED.filled(),
    ))?;
    legend.draw(&Text::new(
        say.fill("report.chart.fewer", &[("few", &few.to_string())]),
        (grey + 22, 8),
        (font, px(13.0)),
    ))?;
    Ok(())
}

/// Bars of counts over x; the tail (past the 99th percentile) one grey bar, labelled.
pub fn histogram<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    x_label: &str,
    bins: &Bins,
    say: &Phrases,
) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let font = font_of(say);
    let step = bins.step;
    let lo = bins.bars.first().map_or(0.0, |b| b.0);
    let hi = bins
        .tail
        .map_or(bins.bars.last().map_or(1.0, |b| b.0), |t| t.0);
    let top = bins
        .bars
        .iter()
        .chain(bins.tail.iter())
        .map(|b| b.1)
        .fold(1.0, f64::max)
        * 1.12;
    let mut chart = ChartBuilder::on(area)
        .caption(title, (font, px(18.0)))
        .margin(15)
        .x_label_area_size(58)
        .y_label_area_size(78)
        .build_cartesian_2d(lo - step..hi + step * 2.0, 0f64..top)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc(x_label)
        .y_desc(say.get("report.chart.games"))
        .x_label_formatter(&|x| whole(*x))
        .y_label_formatter(&|y| whole(*y))
        .label_style((font, px(13.0)))
        .axis_desc_style((font, px(14.0)))
        .draw()?;
    chart.draw_series(
        bins.bars
            .iter()
            .map(|&(x, n)| Rectangle::new([(x, 0.0), (x + step * 0.9, n)], BAR.filled())),
    )?;
    if let Some((x, n)) = bins.tail {
        chart.draw_series(std::iter::once(Rectangle::new(
            [(x, 0.0), (x + step * 0.9, n)],
            TAIL.filled(),
        )))?;
        chart.draw_series(std::iter::once(Text::new(
            format!("{x}+"),
            (x, n + top * 0.06),
            (font, px(12.0)),
        )))?;
    }
    Ok(())
}

/// Bars of counts per category.
pub fn bars<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    x_label: &str,
    y_label: &str,
    bars: &[(String, f64)],
    say: &Phrases,
) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let font = font_of(say);
    let n = bars.len().max(1) as f64;
    let top = bars.iter().map(|b| b.1).fold(1.0, f64::max) * 1.1;
    let names: Vec<String> = bars.iter().map(|b| b.0.clone()).collect();
    let mut chart = ChartBuilder::on(area)
        .caption(title, (font, px(18.0)))
        .margin(15)
        .x_label_area_size(58)
        .y_label_area_size(78)
        .build_cartesian_2d(-0.5f64..n - 0.5, 0f64..top)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(bars.len().max(1))
        .x_label_formatter(&|x| category(&names, *x))
        .x_desc(x_label)
        .y_desc(y_label)
        .y_label_formatter(&|y| whole(*y))
        .label_style((font, px(13.0)))
        .axis_desc_style((font, px(14.0)))
        .draw()?;
    chart.draw_series(bars.iter().enumerate().map(|(i, b)| {
        Rectangle::new(
            [(i as f64 - 0.35, 0.0), (i as f64 + 0.35, b.1)],
            BAR.filled(),
        )
    }))?;
    Ok(())
}
