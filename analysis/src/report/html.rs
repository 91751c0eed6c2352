//! The self-contained HTML page, for people: what the data holds in a sentence, a table of
//! contents, then a section per game (the headline sentences per preset, its charts, its
//! tables written for people: percentages with their intervals, thousands separated), the
//! rejected games and where the raw numbers are. The raw keys are only in `stats.json`. The
//! page carries its own glyphs for the CJK it shows (the project's font, embedded).

use std::fmt::Write;
use std::path::Path;

use base64::Engine as _;
use records::core::language::Phrases;
use records::games::GameKind;
use serde_json::Value;

use super::charts::{Chart, games_in};
use super::draw::thousands;
use super::headlines::{self, elo_with_interval, percent_with_interval};
use super::ingest::Rejected;
use super::table::{Derived, Table};

/// The project's glyphs (assets/fonts, a subset of Noto Serif CJK under the OFL).
pub(super) const FONT: &[u8] = include_bytes!("../../../assets/fonts/AnqiSerif-Regular.otf");

/// Tables longer than this are folded (the CSV has every row).
pub(super) const FOLD_ROWS: usize = 40;

/// Text for the page: escaped, and each run of Chinese characters marked as such, so that
/// the browser draws it with the page's own glyphs (a heading's bold Chinese otherwise falls
/// to a font that lacks it, seen in Chromium).
pub(super) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_cjk = false;
    for c in s.chars() {
        let cjk = matches!(c, '\u{2E80}'..='\u{9FFF}' | '\u{F900}'..='\u{FAFF}');
        if cjk != in_cjk {
            out.push_str(if cjk {
                "<span class=\"cjk\">"
            } else {
                "</span>"
            });
            in_cjk = cjk;
        }
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    if in_cjk {
        out.push_str("</span>");
    }
    out
}

/// An attribute's value: escaped, nothing marked.
pub(super) fn attribute(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// `key`'s words as HTML: the text escaped, each `{slot}` then filled with the HTML given.
pub(super) fn fill_html(say: &Phrases, key: &str, slots: &[(&str, &str)]) -> String {
    let mut text = escape(&say.get(key));
    for (slot, html) in slots {
        text = text.replace(&format!("{{{slot}}}"), html);
    }
    text
}

/// A game's name on the page: records' title in English (`Banqi (暗棋, Chinese Dark Chess)`),
/// the language's own name otherwise.
pub(super) fn game_title(kind: GameKind, say: &Phrases) -> String {
    if say.is_chinese() {
        say.get(&format!("game.{}", kind.name()))
    } else {
        kind.title().to_owned()
    }
}

pub fn page(
    summary: &Value,
    tables: &[Table],
    fits: &[super::players::Fit],
    charts: &[Chart],
    rejected: &[Rejected],
    out: &Path,
    say: &Phrases,
) -> std::io::Result<String> {
    let games = games_in(tables);
    let mut h = String::with_capacity(1 << 20);
    let font = base64::engine::general_purpose::STANDARD.encode(FONT);
    let (code, title, heading) = (
        say.language().code(),
        attribute(&say.get("report.title")),
        escape(&say.get("report.heading")),
    );
    let _ = write!(
        h,
        r#"<!DOCTYPE html>
<html lang="{code}"><head><meta charset="utf-8"><title>{title}</title>
<style>
@font-face {{ font-family: "Anqi Serif"; src: url(data:font/otf;base64,{font}) format("opentype"); font-weight: 100 900; }}
body {{ font-family: system-ui, "Anqi Serif", sans-serif; margin: 2em auto; max-width: 1100px; color: #222; line-height: 1.45; padding: 0 1em; }}
h2 {{ border-bottom: 1px solid #ddd; padding-bottom: .2em; margin-top: 2em; }}
nav ol {{ columns: 2; }}
.lede {{ font-size: 1.1em; }}
ul.headlines li {{ margin: .25em 0; }}
table {{ border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 13px; font-variant-numeric: tabular-nums; }}
th, td {{ border: 1px solid #ccc; padding: 2px 6px; text-align: right; }}
th {{ background: #f3f3f3; }} td:first-child, th:first-child {{ text-align: left; }}
.leaderboard .name {{ text-align: left; }}
figure {{ margin: 1em 0 2em; overflow-x: auto; }} figure svg {{ max-width: none; }}
figcaption {{ color: #555; font-size: .95em; }}
.muted {{ color: #666; }}
.cjk {{ font-family: "Anqi Serif", serif; }}
</style></head><body>
<h1>{heading}</h1>
"#
    );
    lede(&mut h, summary, &games, say);
    let _ = writeln!(
        h,
        "<nav><h2>{}</h2><ol>",
        escape(&say.get("report.contents"))
    );
    for kind in &games {
        let _ = writeln!(
            h,
            "<li><a href=\"#{}\">{}</a></li>",
            kind.name(),
            escape(&game_title(*kind, say))
        );
    }
    let _ = writeln!(
        h,
        "<li><a href=\"#rejected\">{}</a></li><li><a href=\"#files\">{}</a></li></ol></nav>",
        escape(&say.get("report.rejected")),
        escape(&say.get("report.files"))
    );
    for kind in &games {
        section(&mut h, *kind, tables, fits, charts, out, say)?;
    }
    rejected_games(&mut h, rejected, say);
    let code = |c: &str| format!("<code>{c}</code>");
    let _ = writeln!(
        h,
        "<h2 id=\"files\">{}</h2><p>{}</p>",
        escape(&say.get("report.files")),
        fill_html(
            say,
            "report.files_said",
            &[
                ("stats", &code("stats.json")),
                ("tables", &code("tables/*.csv")),
                ("data", &code("data/")),
                ("merge", &code("anqi report --merge")),
            ]
        )
    );
    let _ = writeln!(h, "</body></html>");
    Ok(h)
}

/// What the report holds, in a sentence or two; the settings only where they apply.
fn lede(h: &mut String, summary: &Value, games: &[GameKind], say: &Phrases) {
    let n = |k: &str| summary[k].as_u64().unwrap_or(0);
    let mut per_game: Vec<String> = Vec::new();
    for kind in games {
        let presets: Vec<&str> = summary["presets"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| p.as_str())
            .filter_map(|p| p.strip_prefix(&format!("{}/", kind.name())))
            .collect();
        let presets: Vec<String> = presets
            .iter()
            .map(|p| super::said::preset(kind.name(), p, say))
            .collect();
        per_game.push(escape(&say.fill(
            "report.lede_game",
            &[
                ("game", &game_title(*kind, say)),
                ("presets", &say.list(&presets)),
            ],
        )));
    }
    let below = format!(
        "<a href=\"#rejected\">{}</a>",
        escape(&say.get("report.below"))
    );
    let _ = writeln!(
        h,
        "<p class=\"lede\">{}</p>",
        fill_html(
            say,
            "report.lede",
            &[
                ("games", &thousands(n("games"))),
                (
                    "kinds",
                    &escape(&say.get(&format!("report.kinds.{}", games.len().min(4))))
                ),
                (
                    "list",
                    &per_game.join(&escape(&say.get("report.list_separator_major")))
                ),
                ("rejected", &thousands(n("rejected"))),
                ("below", &below),
            ]
        )
    );
    // The settings that apply to the games in the report, and only those.
    for kind in games {
        if let Some(sentence) = crate::games::settings(*kind, summary, say) {
            let _ = writeln!(h, "<p class=\"muted\">{}</p>", escape(&sentence));
        }
    }
}

fn section(
    h: &mut String,
    kind: GameKind,
    tables: &[Table],
    fits: &[super::players::Fit],
    charts: &[Chart],
    out: &Path,
    say: &Phrases,
) -> std::io::Result<()> {
    let game = kind.name();
    let _ = writeln!(
        h,
        "<section id=\"{game}\"><h2>{}</h2><h3>{}</h3>",
        escape(&game_title(kind, say)),
        escape(&say.get("report.in_short"))
    );
    for preset in headlines::presets(tables, game) {
        let _ = writeln!(
            h,
            "<p><b>{}</b></p><ul class=\"headlines\">",
            escape(&super::said::preset(game, &preset, say))
        );
        for sentence in headlines::sentences(tables, fits, game, &preset, say) {
            let _ = writeln!(h, "<li>{}</li>", escape(&sentence));
        }
        let _ = writeln!(h, "</ul>");
    }
    if let Some(sentence) = crate::games::headline(kind, tables, say) {
        let _ = writeln!(h, "<p>{}</p>", escape(&sentence));
    }
    let _ = writeln!(h, "<h3>{}</h3>", escape(&say.get("report.charts")));
    for c in charts.iter().filter(|c| c.game == game) {
        let svg = std::fs::read_to_string(&c.svg)?;
        let png = c
            .png
            .strip_prefix(out)
            .unwrap_or(&c.png)
            .display()
            .to_string();
        let png = format!("<a href=\"{}\">PNG</a>", attribute(&png));
        let caption = if c.caption.is_empty() {
            png
        } else {
            fill_html(
                say,
                "report.caption",
                &[("caption", &escape(&c.caption)), ("png", &png)],
            )
        };
        let _ = writeln!(
            h,
            "<figure aria-label=\"{}\">{svg}<figcaption>{caption}</figcaption></figure>",
            attribute(&c.title),
        );
    }
    let _ = writeln!(h, "<h3>{}</h3>", escape(&say.get("report.tables")));
    for t in tables {
        let mine = match &t.game {
            Some(g) => g == game,
            None => t.columns.iter().any(|c| c == "game"),
        };
        if t.name == "ratings" {
            // The leaderboards, by group, for people (the table is in the CSV as it is).
            super::leaderboard::html(h, fits, game, say);
        } else if mine {
            people_table(h, t, game, say);
        }
    }
    let _ = writeln!(h, "</section>");
    Ok(())
}

/// One cell of a table for people.
enum Cell {
    Text(String),
    Count(u64),
    Number(f64),
    Percent(f64),
    Rate(f64, f64, f64),
    /// A fitted Elo difference with its interval.
    Elo(f64, f64, f64),
    /// Nothing to say (a value the fit could not give): a dash, never 0.
    Missing,
}

impl Cell {
    fn html(&self, say: &Phrases) -> String {
        match self {
            Cell::Text(s) => escape(s),
            Cell::Count(n) => thousands(*n),
            Cell::Number(x) => format!("{x:.1}"),
            Cell::Percent(x) => format!("{:.1}%", x * 100.0),
            Cell::Rate(r, lo, hi) => percent_with_interval(*r, *lo, *hi, say),
            Cell::Elo(v, lo, hi) => elo_with_interval(*v, *lo, *hi, say),
            Cell::Missing => "—".to_owned(),
        }
    }
}

/// What a column `{name}` with `{name}_low` and `{name}_high` beside it estimates, by its
/// name: an Elo difference (`elo`, `rating`), or a probability (the rest: a share of points
/// or a chance of a placing).
fn estimate(name: &str, value: f64, low: f64, high: f64) -> Cell {
    if name.contains("elo") || name.contains("rating") {
        Cell::Elo(value, low, high)
    } else {
        Cell::Rate(value, low, high)
    }
}

/// `t`'s rows for `game`, for people: one column per rate with its interval, counts with
/// thousands separated, the sums behind the means left out (they are in the CSV).
fn people_table(h: &mut String, t: &Table, game: &str, say: &Phrases) {
    let index = |c: &str| t.columns.iter().position(|x| x == c);
    let game_column = index("game");
    let rows: Vec<&Vec<Value>> = t
        .rows
        .iter()
        .filter(|r| game_column.is_none_or(|i| r[i] == game))
        .collect();
    if rows.is_empty() {
        return;
    }
    // (heading, how to read the cell from a row)
    let mut columns: Vec<(String, Box<dyn Fn(&[Value]) -> Cell>)> = Vec::new();
    for key in t.keys.iter().filter(|k| *k != "game") {
        let i = index(key).expect("a key column");
        let (game, key) = (game.to_owned(), key.clone());
        columns.push((
            super::said::heading(&key, say),
            Box::new(move |r| match &r[i] {
                // Codes in the game's words (the CSV keeps the codes).
                Value::String(s) => {
                    Cell::Text(super::said::cell(&game, &key, s, say).unwrap_or_else(|| s.clone()))
                }
                Value::Null => Cell::Text("—".into()),
                other => Cell::Text(other.to_string()),
            }),
        ));
    }
    let means: Vec<&str> = t
        .derived
        .iter()
        .filter_map(|d| match d {
            Derived::Mean { sum, .. } => Some(sum.as_str()),
            _ => None,
        })
        .collect();
    // A fitted value with its interval beside it (`x`, `x_low`, `x_high`) is one column.
    let bounds = |c: &str| [format!("{c}_low"), format!("{c}_high")];
    let estimated: Vec<&String> = (t.counts.iter())
        .filter(|c| bounds(c).iter().all(|b| t.counts.contains(b)))
        .collect();
    let is_bound = |c: &String| estimated.iter().any(|e| bounds(e).contains(c));
    for count in t.counts.iter().filter(|c| !means.contains(&c.as_str())) {
        let i = index(count).expect("a count column");
        if estimated.contains(&count) {
            let [lo, hi] = bounds(count).map(|b| index(&b).expect("a bound"));
            let name = count.clone();
            columns.push((
                say.fill(
                    "report.column.with_interval",
                    &[("column", &super::said::heading(count, say))],
                ),
                Box::new(
                    move |r| match (r[i].as_f64(), r[lo].as_f64(), r[hi].as_f64()) {
                        (Some(v), Some(l), Some(h)) => estimate(&name, v, l, h),
                        _ => Cell::Missing,
                    },
                ),
            ));
            continue;
        }
        if is_bound(count) {
            continue;
        }
        if count == "score_sum"
            && let Some(games) = index("games")
        {
            // A share of the points (1 a win, ½ a draw), not their sum.
            columns.push((
                super::said::heading("score", say),
                Box::new(move |r| match (r[i].as_f64(), r[games].as_f64()) {
                    (Some(sum), Some(n)) if n > 0.0 => Cell::Percent(sum / n),
                    _ => Cell::Missing,
                }),
            ));
            continue;
        }
        columns.push((
            super::said::heading(count, say),
            Box::new(move |r| match (r[i].as_u64(), r[i].as_f64()) {
                (Some(n), _) => Cell::Count(n),
                (None, Some(x)) => Cell::Number(x),
                (None, None) => Cell::Missing,
            }),
        ));
    }
    for d in &t.derived {
        match d {
            Derived::Rate { name, .. } => {
                let (r, lo, hi) = (
                    index(&format!("{name}_rate")).expect("a rate"),
                    index(&format!("{name}_low")).expect("a rate"),
                    index(&format!("{name}_high")).expect("a rate"),
                );
                columns.push((
                    say.fill(
                        "report.column.with_interval",
                        &[(
                            "column",
                            &super::said::heading(&format!("{name}_rate"), say),
                        )],
                    ),
                    Box::new(move |row| {
                        match (row[r].as_f64(), row[lo].as_f64(), row[hi].as_f64()) {
                            (Some(v), Some(l), Some(h)) => Cell::Rate(v, l, h),
                            _ => Cell::Missing,
                        }
                    }),
                ));
            }
            Derived::Mean { name, .. } => {
                let i = index(name).expect("a mean");
                // A score is a share of the points (1 a win, ½ a draw): a percentage.
                let share = name == "score";
                columns.push((
                    super::said::heading(name, say),
                    Box::new(move |r| match r[i].as_f64() {
                        None => Cell::Missing,
                        Some(x) if share => Cell::Percent(x),
                        Some(x) => Cell::Number(x),
                    }),
                ));
            }
        }
    }
    let _ = writeln!(
        h,
        "<h4 id=\"{}-{}\">{}</h4>",
        game,
        t.name,
        escape(&super::said::title(&t.name, say))
    );
    let folded = rows.len() > FOLD_ROWS;
    if folded {
        let _ = writeln!(
            h,
            "<details><summary>{}</summary>",
            fill_html(
                say,
                "report.rows",
                &[
                    ("n", &thousands(rows.len() as u64)),
                    ("file", &format!("<code>tables/{}.csv</code>", t.name)),
                ]
            )
        );
    }
    let _ = write!(h, "<table><tr>");
    for (heading, _) in &columns {
        let _ = write!(h, "<th>{}</th>", escape(heading));
    }
    let _ = writeln!(h, "</tr>");
    for row in rows {
        let _ = write!(h, "<tr>");
        for (_, read) in &columns {
            let _ = write!(h, "<td>{}</td>", read(row).html(say));
        }
        let _ = writeln!(h, "</tr>");
    }
    let _ = writeln!(h, "</table>");
    if folded {
        let _ = writeln!(h, "</details>");
    }
}

fn rejected_games(h: &mut String, rejected: &[Rejected], say: &Phrases) {
    let _ = writeln!(
        h,
        "<h2 id=\"rejected\">{}</h2>",
        escape(&say.get("report.rejected"))
    );
    if rejected.is_empty() {
        let _ = writeln!(h, "<p>{}</p>", escape(&say.get("report.rejected_none")));
        return;
    }
    let _ = writeln!(
        h,
        "<p>{}</p><table><tr><th>{}</th><th>{}</th><th>{}</th></tr>",
        fill_html(
            say,
            "report.rejected_file",
            &[("file", "<code>invalid.csv</code>")]
        ),
        escape(&say.get("report.column.source")),
        escape(&say.get("report.column.code")),
        escape(&say.get("report.column.error"))
    );
    for r in rejected {
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&r.source),
            escape(&r.code),
            escape(&r.error)
        );
    }
    let _ = writeln!(h, "</table>");
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The cells of `t`'s table on the page, row by row (headings first).
    fn cells(t: &Table) -> Vec<Vec<String>> {
        let mut h = String::new();
        people_table(
            &mut h,
            t,
            "banqi",
            Phrases::of(records::core::language::Language::English),
        );
        h.split("<tr>")
            .skip(1)
            .map(|row| {
                (row.split("<t").skip(1))
                    .filter_map(|cell| cell.split_once('>'))
                    .filter(|(tag, _)| *tag == "d" || *tag == "h")
                    .map(|(_, rest)| rest.split("</").next().unwrap_or("").to_owned())
                    .collect()
            })
            .collect()
    }

    #[test]
    fn an_estimate_is_one_cell_in_its_own_units_and_a_missing_one_a_dash() {
        let t = Table::new(
            "seat_terms",
            "The seats",
            &["game", "seat"],
            &[
                "games",
                "elo",
                "elo_low",
                "elo_high",
                "equal_first",
                "equal_first_low",
                "equal_first_high",
            ],
            Vec::new(),
            vec![
                (
                    vec![json!("banqi"), json!(1)],
                    vec![
                        json!(300),
                        json!(-0.4),
                        json!(-76.1),
                        json!(57.2),
                        json!(0.5157),
                        json!(0.4896),
                        json!(0.5419),
                    ],
                ),
                (
                    vec![json!("banqi"), json!(3)],
                    vec![
                        json!(200),
                        json!(16.6),
                        json!(-28.3),
                        json!(61.6),
                        Value::Null,
                        Value::Null,
                        Value::Null,
                    ],
                ),
            ],
        );
        let cells = cells(&t);
        assert_eq!(
            cells[0],
            [
                "seat",
                "games",
                "Elo (95%)",
                "first mover, players equal (95%)"
            ]
        );
        assert_eq!(
            cells[1],
            ["1", "300", "0 (−76 to +57)", "51.6% (49.0–54.2)"]
        );
        assert_eq!(cells[2], ["3", "200", "+17 (−28 to +62)", "—"]);
    }
}
