//! The report's charts, drawn with plotters as PNG and SVG. Text uses an embedded font (a
//! Latin subset of DejaVu Sans, in `assets/`), so no system font is needed.

use std::error::Error;
use std::path::{Path, PathBuf};
use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;
use serde_json::Value;

use super::table::Table;
use crate::games::ChartSpec;

const FONT: &str = "sans-serif";
static REGISTER: Once = Once::new();

fn register_font() {
    REGISTER.call_once(|| {
        let bytes: &'static [u8] = include_bytes!("../../assets/DejaVuSans-subset.ttf");
        plotters::style::register_font(FONT, FontStyle::Normal, bytes)
            .unwrap_or_else(|_| panic!("the embedded font loads"));
    });
}

type Result<T> = std::result::Result<T, Box<dyn Error>>;

/// Draws `draw` twice, into `<dir>/<name>.png` and `<dir>/<name>.svg`; gives both paths.
macro_rules! render {
    ($dir:expr, $name:expr, $size:expr, $draw:expr) => {{
        let png = $dir.join(format!("{}.png", $name));
        let svg = $dir.join(format!("{}.svg", $name));
        {
            let area = BitMapBackend::new(&png, $size).into_drawing_area();
            area.fill(&WHITE)?;
            $draw(&area)?;
            area.present()?;
        }
        {
            let area = SVGBackend::new(&svg, $size).into_drawing_area();
            area.fill(&WHITE)?;
            $draw(&area)?;
            area.present()?;
        }
        (png, svg)
    }};
}

/// A chart of the report: its title and files.
pub struct Chart {
    pub title: String,
    pub png: PathBuf,
    pub svg: PathBuf,
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or(0.0)
}

fn s(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "none".into(),
        other => other.to_string(),
    }
}

fn find<'a>(tables: &'a [Table], name: &str) -> Option<&'a Table> {
    tables.iter().find(|t| t.name == name)
}

/// The histograms of the tables every game's part gives (when its games are in the data).
const COMMON_CHARTS: &[ChartSpec] = &[
    ChartSpec::Histogram {
        table: "margin",
        column: "margin",
        file: "margins",
        title: "Winner's point margin",
        x_label: "winner's points − loser's points",
    },
    ChartSpec::Histogram {
        table: "settlement",
        column: "settlement",
        file: "settlements",
        title: "Coins settled per decided game",
        x_label: "coins",
    },
    ChartSpec::Histogram {
        table: "length",
        column: "plies_from",
        file: "lengths",
        title: "Game length",
        x_label: "plies",
    },
];

/// Every chart, written under `dir`.
pub fn draw_all(tables: &[Table], dir: &Path) -> Result<Vec<Chart>> {
    register_font();
    std::fs::create_dir_all(dir)?;
    let mut charts = Vec::new();
    // A heatmap per Banqi preset.
    let squares = find(tables, "first_square");
    let mut presets: Vec<String> = squares
        .map(|t| t.column("preset").iter().map(|v| s(v)).collect())
        .unwrap_or_default();
    presets.dedup();
    for preset in presets {
        let squares = squares.expect("presets come from it");
        let cells: Vec<(String, f64, u64)> = squares
            .rows
            .iter()
            .filter(|r| s(&r[0]) == preset)
            .map(|r| {
                let at = |c: &str| &r[squares.columns.iter().position(|x| x == c).unwrap()];
                (
                    s(at("first_square")),
                    f(at("score")),
                    at("finished").as_u64().unwrap_or(0),
                )
            })
            .collect();
        let title = format!("Player 1's score by first-flip square ({preset})");
        let (png, svg) = render!(dir, format!("heatmap-{preset}"), (420, 760), |a| heatmap(
            a, &title, &cells
        ));
        charts.push(Chart { title, png, svg });
    }
    if let Some(variants) = find(tables, "by_variant") {
        let title = "Results by variant, with 95% intervals".to_owned();
        let (png, svg) = render!(dir, "win-rates", (900, 520), |a| win_rates(
            a, &title, variants
        ));
        charts.push(Chart { title, png, svg });
    }
    for spec in COMMON_CHARTS.iter().copied().chain(crate::games::charts()) {
        match spec {
            ChartSpec::Histogram {
                table,
                column,
                file,
                title,
                x_label,
            } => {
                let Some(t) = find(tables, table) else {
                    continue;
                };
                let bars = pooled(t, column);
                let title = title.to_owned();
                let (png, svg) = render!(dir, file, (900, 480), |a| histogram(
                    a, &title, x_label, &bars
                ));
                charts.push(Chart { title, png, svg });
            }
            ChartSpec::Bars {
                table,
                key,
                count,
                file,
                title,
            } => {
                let Some(t) = find(tables, table) else {
                    continue;
                };
                let mut by_key: Vec<(String, f64)> = Vec::new();
                for (k, n) in t.column(key).iter().zip(t.column(count)) {
                    let k = s(k);
                    match by_key.iter_mut().find(|(x, _)| *x == k) {
                        Some(e) => e.1 += f(n),
                        None => by_key.push((k, f(n))),
                    }
                }
                let title = title.to_owned();
                let (png, svg) = render!(dir, file, (900, 480), |a| bars(a, &title, &by_key));
                charts.push(Chart { title, png, svg });
            }
        }
    }
    let Some(endings) = find(tables, "endings") else {
        return Ok(charts);
    };
    let mut by_reason: Vec<(String, f64)> = Vec::new();
    for (reason, n) in endings.column("reason").iter().zip(endings.column("games")) {
        let reason = s(reason);
        match by_reason.iter_mut().find(|(k, _)| *k == reason) {
            Some(e) => e.1 += f(n),
            None => by_reason.push((reason, f(n))),
        }
    }
    let title = "How games end".to_owned();
    let (png, svg) = render!(dir, "endings", (900, 480), |a| bars(a, &title, &by_reason));
    charts.push(Chart { title, png, svg });
    Ok(charts)
}

/// (x, count) summed over presets, sorted by x.
fn pooled(t: &Table, column: &str) -> Vec<(f64, f64)> {
    let xs = t.column(column);
    let ns = t.column("games");
    let mut out: Vec<(f64, f64)> = Vec::new();
    for (x, n) in xs.iter().zip(ns) {
        let Some(x) = x
            .as_f64()
            .or_else(|| x.as_str().and_then(|s| s.parse().ok()))
        else {
            continue;
        };
        match out.iter_mut().find(|(k, _)| *k == x) {
            Some(e) => e.1 += f(n),
            None => out.push((x, f(n))),
        }
    }
    out.sort_by(|a, b| a.0.total_cmp(&b.0));
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

fn heatmap<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    cells: &[(String, f64, u64)],
) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let (title_area, rest) = area.split_vertically(50);
    title_area.titled(title, (FONT, 16))?;
    // No axes: every cell names its square.
    let mut chart = ChartBuilder::on(&rest)
        .margin(10)
        .build_cartesian_2d(0f64..4f64, 0f64..8f64)?;
    for (square, score, n) in cells {
        let b = square.as_bytes();
        let (file, rank) = ((b[0] - b'a') as f64, (b[1] - b'1') as f64);
        // Blue (player 1 does badly) through white (0.5) to red (player 1 does well).
        let t = (score - 0.5).clamp(-0.5, 0.5) * 2.0;
        let color = if t >= 0.0 {
            RGBColor(255, (255.0 * (1.0 - t)) as u8, (255.0 * (1.0 - t)) as u8)
        } else {
            RGBColor((255.0 * (1.0 + t)) as u8, (255.0 * (1.0 + t)) as u8, 255)
        };
        chart.draw_series(std::iter::once(Rectangle::new(
            [(file, rank), (file + 1.0, rank + 1.0)],
            color.filled(),
        )))?;
        chart.draw_series(std::iter::once(Text::new(
            format!("{square} {score:.3}"),
            (file + 0.1, rank + 0.65),
            (FONT, 13),
        )))?;
        chart.draw_series(std::iter::once(Text::new(
            format!("n={n}"),
            (file + 0.1, rank + 0.35),
            (FONT, 11),
        )))?;
    }
    Ok(())
}

fn win_rates<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    t: &Table,
) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let games: Vec<String> = t.column("game").iter().map(|v| s(v)).collect();
    let several = games.iter().any(|g| *g != games[0]);
    let names: Vec<String> = t
        .column("variant")
        .iter()
        .zip(&games)
        .map(|(v, g)| {
            if several {
                format!("{g} {}", s(v))
            } else {
                s(v)
            }
        })
        .collect();
    let n = names.len().max(1) as f64;
    let mut chart = ChartBuilder::on(area)
        .caption(title, (FONT, 18))
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(-0.5f64..n - 0.5, 0f64..1f64)?;
    chart
        .configure_mesh()
        .x_labels(names.len().max(1))
        .x_label_formatter(&|x| category(&names, *x))
        .y_desc("rate of finished games")
        .label_style((FONT, 13))
        .axis_desc_style((FONT, 14))
        .draw()?;
    for (offset, (rate, low, high), color, legend) in [
        (
            -0.2,
            ("win_rate", "win_low", "win_high"),
            RED,
            "player 1 wins (first)",
        ),
        (0.0, ("draw_rate", "draw_low", "draw_high"), BLACK, "draws"),
        (
            0.2,
            ("loss_rate", "loss_low", "loss_high"),
            BLUE,
            "player 1 loses",
        ),
    ] {
        let (r, l, h) = (t.column(rate), t.column(low), t.column(high));
        let points: Vec<(f64, f64, f64, f64)> = (0..r.len())
            .map(|i| (i as f64 + offset, f(l[i]), f(r[i]), f(h[i])))
            .collect();
        chart
            .draw_series(points.iter().map(|&(x, lo, mid, hi)| {
                ErrorBar::new_vertical(x, lo, mid, hi, color.filled(), 8)
            }))?
            .label(legend)
            .legend(move |(x, y)| Circle::new((x, y), 4, color.filled()));
        chart.draw_series(
            points
                .iter()
                .map(|&(x, _, mid, _)| Circle::new((x, mid), 4, color.filled())),
        )?;
    }
    chart
        .configure_series_labels()
        .label_font((FONT, 13))
        .border_style(BLACK)
        .background_style(WHITE.mix(0.8))
        .draw()?;
    Ok(())
}

fn histogram<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    x_label: &str,
    bars: &[(f64, f64)],
) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let (lo, hi) = match (bars.first(), bars.last()) {
        (Some(a), Some(b)) => (a.0, b.0),
        _ => (0.0, 1.0),
    };
    // Bar width: the smallest step between values (1 for margins, 20 for lengths …).
    let step = bars
        .windows(2)
        .map(|w| w[1].0 - w[0].0)
        .fold(f64::INFINITY, f64::min);
    let step = if step.is_finite() && step > 0.0 {
        step
    } else {
        1.0
    };
    let top = bars.iter().map(|b| b.1).fold(1.0, f64::max) * 1.08;
    let mut chart = ChartBuilder::on(area)
        .caption(title, (FONT, 18))
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(lo - step..hi + step * 2.0, 0f64..top)?;
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc("games")
        .label_style((FONT, 13))
        .axis_desc_style((FONT, 14))
        .draw()?;
    chart.draw_series(bars.iter().map(|&(x, n)| {
        Rectangle::new(
            [(x, 0.0), (x + step * 0.9, n)],
            RGBColor(70, 110, 170).filled(),
        )
    }))?;
    Ok(())
}

fn bars<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    bars: &[(String, f64)],
) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let n = bars.len().max(1) as f64;
    let top = bars.iter().map(|b| b.1).fold(1.0, f64::max) * 1.1;
    let names: Vec<String> = bars.iter().map(|b| b.0.clone()).collect();
    let mut chart = ChartBuilder::on(area)
        .caption(title, (FONT, 18))
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.5f64..n - 0.5, 0f64..top)?;
    chart
        .configure_mesh()
        .x_labels(bars.len().max(1))
        .x_label_formatter(&|x| category(&names, *x))
        .y_desc("games")
        .label_style((FONT, 13))
        .axis_desc_style((FONT, 14))
        .draw()?;
    chart.draw_series(bars.iter().enumerate().map(|(i, b)| {
        Rectangle::new(
            [(i as f64 - 0.35, 0.0), (i as f64 + 0.35, b.1)],
            RGBColor(70, 110, 170).filled(),
        )
    }))?;
    Ok(())
}
