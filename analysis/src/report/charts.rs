//! The report's charts, drawn with plotters as PNG and SVG, per game: its results by preset
//! (dots and 95% intervals in the seat count's own words), its game length and endings, its
//! own charts (Banqi's: the first-flip squares of every preset, each on its own colour scale). Text uses
//! an embedded font (a Latin subset of DejaVu Sans, in `assets/`), so no system font is
//! needed; every chart has a title, labelled axes and its legend outside the data.

use std::error::Error;
use std::path::{Path, PathBuf};
use std::sync::Once;

use plotters::prelude::*;
use records::core::language::Phrases;
use records::games::GameKind;
use serde_json::Value;

use super::draw;
use super::table::Table;
use crate::games::ChartSpec;

/// The English charts' font family.
pub(crate) const LATIN_FONT: &str = "sans-serif";
/// The Chinese charts' font family: the project's CJK subset, as the report's page names it.
pub(crate) const CJK_FONT: &str = "Anqi Serif";
static REGISTER: Once = Once::new();

pub(crate) fn register_font() {
    REGISTER.call_once(|| {
        let bytes: &'static [u8] = include_bytes!("../../assets/DejaVuSans-subset.ttf");
        plotters::style::register_font(LATIN_FONT, FontStyle::Normal, bytes)
            .unwrap_or_else(|_| panic!("the embedded font loads"));
        plotters::style::register_font(CJK_FONT, FontStyle::Normal, super::html::FONT)
            .unwrap_or_else(|_| panic!("the embedded CJK font loads"));
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

/// A chart of the report: the game whose section shows it, its title, a caption that says
/// how to read it, and its files.
pub struct Chart {
    pub game: &'static str,
    pub title: String,
    pub caption: String,
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

/// The rows of `t` for `game` (every row of a game's own table).
fn rows_of<'a>(t: &'a Table, game: &str) -> Vec<&'a Vec<Value>> {
    match t.columns.iter().position(|c| c == "game") {
        Some(i) => t.rows.iter().filter(|r| r[i] == game).collect(),
        None => t.rows.iter().collect(),
    }
}

fn at<'a>(t: &Table, row: &'a [Value], column: &str) -> &'a Value {
    let i = t
        .columns
        .iter()
        .position(|c| c == column)
        .unwrap_or_else(|| panic!("no column {column} in {}", t.name));
    &row[i]
}

/// The games in the report, in the registry's order.
pub fn games_in(tables: &[Table]) -> Vec<GameKind> {
    let present: Vec<String> = find(tables, "overview")
        .map(|t| t.column("game").iter().map(|v| s(v)).collect())
        .unwrap_or_default();
    GameKind::ALL
        .iter()
        .copied()
        .filter(|k| present.iter().any(|p| p == k.name()))
        .collect()
}

/// A game's title without its parenthesis (`Banqi (暗棋, Chinese Dark Chess)`: `Banqi`).
fn latin(title: &str) -> &str {
    title.split(" (").next().unwrap_or(title)
}

/// A seat column's value (`"1"` or 1).
fn seat(v: &Value) -> Option<u64> {
    v.as_u64()
        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
}

/// Fewer finished games than this on a first-flip square: its score is too uncertain to
/// colour (its 95% interval is wider than ±0.18).
pub const FEW_GAMES: u64 = 30;

/// Every chart, written under `dir`: per game, its results, length, endings and its own.
pub fn draw_all(tables: &[Table], dir: &Path, say: &Phrases) -> Result<Vec<Chart>> {
    register_font();
    std::fs::create_dir_all(dir)?;
    let mut charts = Vec::new();
    for kind in games_in(tables) {
        // The English charts' font is Latin: the game's name without its Chinese.
        let game = kind.name();
        let name = if say.is_chinese() {
            say.get(&format!("game.{game}"))
        } else {
            latin(kind.title()).to_owned()
        };
        let titled = |key: &str| say.fill(key, &[("game", &name)]);
        if let Some(t) = find(tables, "by_seat") {
            let series = results(t, game, say);
            let chart_title = titled("report.chart.results");
            let (png, svg) = render!(dir, format!("results-{game}"), (900, 470), |a| {
                draw::dots(a, &chart_title, &series, say)
            });
            charts.push(Chart {
                game,
                title: chart_title,
                caption: say.get("report.chart.results.caption"),
                png,
                svg,
            });
        }
        if let Some(t) = find(tables, "length") {
            let chart_title = titled("report.chart.lengths");
            let bins = binned(&pooled(t, game, "plies_from"));
            let axis = say.get("report.chart.lengths.axis");
            let (png, svg) = render!(dir, format!("lengths-{game}"), (900, 420), |a| {
                draw::histogram(a, &chart_title, &axis, &bins, say)
            });
            charts.push(Chart {
                game,
                title: chart_title,
                caption: tail_caption(&bins, &say.get("report.chart.lengths.unit"), say),
                png,
                svg,
            });
        }
        if let Some(t) = find(tables, "endings") {
            let chart_title = titled("report.chart.endings");
            let mut by_reason = summed(t, game, "reason", "games");
            by_reason.retain(|(reason, _)| reason != "unfinished" && reason != "none");
            for (reason, _) in &mut by_reason {
                *reason = super::said::ending(game, reason, say);
            }
            let (x, y) = (
                say.get("report.chart.endings.axis"),
                say.get("report.chart.finished_games"),
            );
            let (png, svg) = render!(dir, format!("endings-{game}"), (900, 420), |a| {
                draw::bars(a, &chart_title, &x, &y, &by_reason, say)
            });
            charts.push(Chart {
                game,
                title: chart_title,
                caption: say.get("report.chart.endings.caption"),
                png,
                svg,
            });
        }
        for (owner, spec) in crate::games::charts() {
            if owner == game {
                charts.extend(own_chart(tables, dir, game, spec, say)?);
            }
        }
    }
    Ok(charts)
}

/// One of a game's own charts, when its table is in the report.
fn own_chart(
    tables: &[Table],
    dir: &Path,
    game: &'static str,
    spec: ChartSpec,
    say: &Phrases,
) -> Result<Option<Chart>> {
    match spec {
        ChartSpec::Histogram {
            table,
            column,
            file,
        } => {
            let Some(t) = find(tables, table) else {
                return Ok(None);
            };
            let bins = binned(&pooled(t, game, column));
            let title = say.get(&format!("report.chart.{file}"));
            let x_label = say.get(&format!("report.chart.{file}.axis"));
            let (png, svg) = render!(dir, file, (900, 420), |a| {
                draw::histogram(a, &title, &x_label, &bins, say)
            });
            Ok(Some(Chart {
                game,
                caption: tail_caption(&bins, &say.get(&format!("report.chart.{file}.unit")), say),
                title,
                png,
                svg,
            }))
        }
        ChartSpec::Heatmap {
            table,
            square,
            files,
            ranks,
            file,
        } => {
            let Some(t) = find(tables, table) else {
                return Ok(None);
            };
            let panels = heat_panels(t, square, game, say);
            let title = say.get(&format!("report.chart.{file}"));
            let width = 40 + 290 * panels.len().max(1) as u32;
            let height = 150 + 66 * ranks as u32;
            let (png, svg) = render!(dir, file, (width.max(720), height), |a| {
                draw::heatmaps(a, &title, &panels, (files, ranks), FEW_GAMES, say)
            });
            Ok(Some(Chart {
                game,
                caption: say.fill(
                    &format!("report.chart.{file}.caption"),
                    &[("few", &FEW_GAMES.to_string())],
                ),
                title,
                png,
                svg,
            }))
        }
        ChartSpec::Bars {
            table,
            key,
            count,
            file,
        } => {
            let Some(t) = find(tables, table) else {
                return Ok(None);
            };
            let mut by_key = summed(t, game, key, count);
            for (code, _) in &mut by_key {
                *code = super::said::cell(game, key, code, say)
                    .unwrap_or_else(|| code.replace('_', " "));
            }
            let title = say.get(&format!("report.chart.{file}"));
            let (x, y) = (
                super::said::heading(key, say),
                say.get("report.chart.games"),
            );
            let (png, svg) = render!(dir, file, (900, 420), |a| {
                draw::bars(a, &title, &x, &y, &by_key, say)
            });
            Ok(Some(Chart {
                game,
                caption: String::new(),
                title,
                png,
                svg,
            }))
        }
    }
}

/// `count` of `t`'s rows for `game`, summed by `key`, in first-seen order.
fn summed(t: &Table, game: &str, key: &str, count: &str) -> Vec<(String, f64)> {
    let mut out: Vec<(String, f64)> = Vec::new();
    for row in rows_of(t, game) {
        let k = s(at(t, row, key));
        let n = f(at(t, row, count));
        match out.iter_mut().find(|(x, _)| *x == k) {
            Some(e) => e.1 += n,
            None => out.push((k, n)),
        }
    }
    out
}

/// One series of a results chart: its legend and, per preset, (rate, low, high) in percent.
pub struct Series {
    pub legend: String,
    pub colour: RGBColor,
    pub points: Vec<(f64, f64, f64)>,
}

/// The results of `game` per preset in the seat count's own words: with two seats, player 1
/// wins, draws, player 2 wins; with three, each seat placing first.
fn results(t: &Table, game: &str, say: &Phrases) -> (Vec<String>, Vec<Series>) {
    let rows = rows_of(t, game);
    let mut presets: Vec<String> = rows.iter().map(|r| s(at(t, r, "preset"))).collect();
    presets.dedup();
    let seats = rows
        .iter()
        .filter_map(|r| self::seat(at(t, r, "seat")))
        .max()
        .unwrap_or(2);
    let triple = |k: u64, what: &str, preset: &str| -> (f64, f64, f64) {
        rows.iter()
            .find(|r| s(at(t, r, "preset")) == preset && self::seat(at(t, r, "seat")) == Some(k))
            .map(|r| {
                (
                    100.0 * f(at(t, r, &format!("{what}_rate"))),
                    100.0 * f(at(t, r, &format!("{what}_low"))),
                    100.0 * f(at(t, r, &format!("{what}_high"))),
                )
            })
            .unwrap_or((0.0, 0.0, 0.0))
    };
    let series = |legend: String, colour: RGBColor, seat: u64, what: &str| Series {
        legend,
        colour,
        points: presets.iter().map(|p| triple(seat, what, p)).collect(),
    };
    let out = if seats <= 2 {
        vec![
            series(say.get("report.chart.first_wins"), draw::RED_INK, 1, "win"),
            series(say.get("report.chart.draw"), draw::GREY_INK, 1, "draw"),
            series(
                say.get("report.chart.second_wins"),
                draw::BLUE_INK,
                2,
                "win",
            ),
        ]
    } else {
        let colours = [
            draw::RED_INK,
            draw::GREEN_INK,
            draw::BLUE_INK,
            draw::GREY_INK,
        ];
        (1..=seats)
            .map(|k| {
                let key = if k == 1 {
                    "report.chart.first_places_first"
                } else {
                    "report.chart.places_first"
                };
                series(
                    say.fill(key, &[("n", &k.to_string())]),
                    colours[(k as usize - 1) % colours.len()],
                    k,
                    "win",
                )
            })
            .collect()
    };
    let names = presets
        .iter()
        .map(|p| super::said::preset(game, p, say))
        .collect();
    (names, out)
}

/// Each preset's squares: (square, score, finished games).
fn heat_panels(
    t: &Table,
    square: &str,
    game: &str,
    say: &Phrases,
) -> Vec<(String, Vec<(String, f64, u64)>)> {
    let mut out: Vec<(String, Vec<(String, f64, u64)>)> = Vec::new();
    for row in &t.rows {
        let preset = super::said::preset(game, &s(at(t, row, "preset")), say);
        let cell = (
            s(at(t, row, square)),
            f(at(t, row, "score")),
            at(t, row, "finished").as_u64().unwrap_or(0),
        );
        match out.iter_mut().find(|(p, _)| *p == preset) {
            Some((_, cells)) => cells.push(cell),
            None => out.push((preset, vec![cell])),
        }
    }
    out
}

/// (x, count) of `game`'s rows summed over presets, sorted by x.
fn pooled(t: &Table, game: &str, column: &str) -> Vec<(f64, f64)> {
    let mut out: Vec<(f64, f64)> = Vec::new();
    for row in rows_of(t, game) {
        let x = at(t, row, column);
        let Some(x) = x
            .as_f64()
            .or_else(|| x.as_str().and_then(|s| s.parse().ok()))
        else {
            continue;
        };
        let n = f(at(t, row, "games"));
        match out.iter_mut().find(|(k, _)| *k == x) {
            Some(e) => e.1 += n,
            None => out.push((x, n)),
        }
    }
    out.sort_by(|a, b| a.0.total_cmp(&b.0));
    out
}

/// A histogram's bars, (x, count), and its tail: the games past the 99th percentile counted
/// as one bar, so that a few long games do not squeeze the rest.
pub struct Bins {
    pub bars: Vec<(f64, f64)>,
    pub tail: Option<(f64, f64)>,
    pub step: f64,
}

fn binned(values: &[(f64, f64)]) -> Bins {
    let step = values
        .windows(2)
        .map(|w| w[1].0 - w[0].0)
        .fold(f64::INFINITY, f64::min);
    let step = if step.is_finite() && step > 0.0 {
        step
    } else {
        1.0
    };
    let total: f64 = values.iter().map(|v| v.1).sum();
    let mut seen = 0.0;
    let mut cut = values.len();
    for (i, (_, n)) in values.iter().enumerate() {
        seen += n;
        if seen >= 0.99 * total {
            cut = i + 1;
            break;
        }
    }
    let (bars, rest) = values.split_at(cut);
    let tail = (!rest.is_empty()).then(|| (rest[0].0, rest.iter().map(|r| r.1).sum()));
    Bins {
        bars: bars.to_vec(),
        tail,
        step,
    }
}

fn tail_caption(bins: &Bins, unit: &str, say: &Phrases) -> String {
    match bins.tail {
        Some((from, n)) => say.fill(
            "report.chart.tail",
            &[
                ("n", &draw::thousands(n as u64)),
                ("from", &from.to_string()),
                ("unit", unit),
            ],
        ),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_percent_is_one_bar() {
        let mut values: Vec<(f64, f64)> = (0..50).map(|i| (i as f64 * 20.0, 10.0)).collect();
        values.push((2000.0, 2.0));
        values.push((4000.0, 1.0));
        let bins = binned(&values);
        assert_eq!(bins.step, 20.0);
        assert_eq!(bins.bars.len(), 50);
        assert_eq!(bins.tail, Some((2000.0, 3.0)));
        let even = binned(&[(1.0, 5.0), (2.0, 5.0)]);
        assert_eq!((even.bars.len(), even.tail), (2, None));
    }
}
