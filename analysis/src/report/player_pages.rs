//! A page per player (`players/<file>.html`), linked from the report's leaderboards: under
//! each game and preset the player played, the games and score, the rating with its interval
//! and place (rank in its group, or provisional), the results by opponent and by seat, and
//! the rating over time. All from the `meetings_by_period` counts, so a merged report or one
//! drawn from Spark's counts has the same pages.
//!
//! The rating over time is the rating a fit of every game up to the end of each period gives
//! (the period is the month played, or undated, the game's hundred in the input: the
//! `period` column). At most [`CHECKPOINTS`] fits per game and preset: with more periods,
//! evenly spaced ones are fitted (the last always).

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

use records::core::Seat;
use records::core::language::Phrases;
use records::games::GameKind;
use records::rating::{self, Meeting, Model, Rated};

use super::draw::thousands;
use super::headlines::{elo_with_interval, share};
use super::html::{FONT, attribute, escape};
use super::players::{Fit, meeting_rows};
use super::table::Table;

/// The most fits behind one game and preset's ratings over time.
pub const CHECKPOINTS: usize = 24;

/// The file of `name`'s page under `players/`: letters and digits kept, every other
/// character as `_` and its code point in hex, so that two names never share a file.
pub fn file_of(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || c == '-' {
            out.push(c);
        } else {
            let _ = write!(out, "_{:x}", c as u32);
        }
    }
    format!("{out}.html")
}

/// `meetings_by_period` by game and preset.
fn meetings(tables: &[Table]) -> BTreeMap<(String, String), Vec<Row>> {
    let mut out: BTreeMap<(String, String), Vec<Row>> = BTreeMap::new();
    for row in meeting_rows(tables, "meetings_by_period") {
        out.entry((row.game, row.preset)).or_default().push(Row {
            period: row.period,
            meeting: row.meeting,
        });
    }
    out
}

/// One row of `meetings_by_period`.
struct Row {
    period: String,
    meeting: Meeting,
}

/// Periods in time order: months, then undated hundreds by their first game.
fn ordered(periods: impl Iterator<Item = String>) -> Vec<String> {
    let mut all: Vec<String> = periods.collect();
    all.sort_by_key(|p| match p.strip_prefix("games ") {
        Some(range) => (
            1,
            range
                .split('-')
                .next()
                .and_then(|n| n.parse::<u64>().ok())
                .unwrap_or(0),
            String::new(),
        ),
        None => (0, 0, p.clone()),
    });
    all.dedup();
    all
}

/// One player's numbers under one game and preset.
#[derive(Default)]
struct Results {
    games: u64,
    score: f64,
    /// Opponent → games, wins, draws, losses, score (two seats: W/D/L of the player).
    opponents: BTreeMap<String, (u64, u64, u64, u64, f64)>,
    /// Seat (1-based) → games, score.
    seats: BTreeMap<usize, (u64, f64)>,
}

/// Writes a page per rated player into `out/players/`; gives the files written.
pub fn write(
    out: &Path,
    tables: &[Table],
    fits: &[Fit],
    say: &Phrases,
) -> std::io::Result<Vec<PathBuf>> {
    let dir = out.join("players");
    let by_preset = meetings(tables);
    // Player → its sections, in the report's order of games and presets.
    let mut pages: BTreeMap<String, String> = BTreeMap::new();
    for (game, preset, fit) in fits {
        let Some(rows) = by_preset.get(&(game.clone(), preset.clone())) else {
            continue;
        };
        let results = results(rows);
        let history = history(rows);
        for p in &fit.players {
            let Some(r) = results.get(&p.name) else {
                continue;
            };
            let page = pages.entry(p.name.clone()).or_default();
            section(page, (game, preset, fit), p, r, &history, say);
        }
    }
    let mut written = Vec::new();
    if pages.is_empty() {
        return Ok(written);
    }
    std::fs::create_dir_all(&dir)?;
    // The project's glyphs for the Chinese on the pages, once for all of them.
    let font = dir.join(FONT_FILE);
    std::fs::write(&font, FONT)?;
    written.push(font);
    let (code, back) = (
        say.language().code(),
        escape(&say.get("report.player.back")),
    );
    for (name, body) in pages {
        let path = dir.join(file_of(&name));
        let title = attribute(&say.fill("report.player.title", &[("name", &name)]));
        let name = escape(&name);
        std::fs::write(
            &path,
            format!(
                "<!DOCTYPE html>\n<html lang=\"{code}\"><head><meta charset=\"utf-8\"><title>{title}</title>\n<style>@font-face {{ font-family: \"Anqi Serif\"; src: url({FONT_FILE}) format(\"opentype\"); }} {STYLE}</style></head><body>\n<p><a href=\"../index.html\">← {back}</a></p>\n<h1>{name}</h1>\n{body}</body></html>\n"
            ),
        )?;
        written.push(path);
    }
    Ok(written)
}

/// The pages' font file, beside them.
const FONT_FILE: &str = "AnqiSerif-Regular.otf";

const STYLE: &str = "body { font-family: system-ui, \"Anqi Serif\", sans-serif; margin: 2em auto; max-width: 900px; color: #222; line-height: 1.45; padding: 0 1em; } \
     table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 14px; font-variant-numeric: tabular-nums; } \
     th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: right; } th { background: #f3f3f3; } \
     td:first-child, th:first-child { text-align: left; } .muted { color: #555; } \
     .cjk { font-family: \"Anqi Serif\", serif; }";

/// Every player's results in `rows` (self-play left out, as the ratings do).
fn results(rows: &[Row]) -> BTreeMap<String, Results> {
    let mut out: BTreeMap<String, Results> = BTreeMap::new();
    for m in rows.iter().map(|r| &r.meeting) {
        if m.players.iter().all(|p| *p == m.players[0]) {
            continue;
        }
        let n = m.games;
        for (seat, name) in Seat::all(m.players.len() as u8).zip(&m.players) {
            let score = m.outcome.score(seat);
            let r = out.entry(name.clone()).or_default();
            r.games += n;
            r.score += score * n as f64;
            let s = r.seats.entry(seat.index() + 1).or_default();
            s.0 += n;
            s.1 += score * n as f64;
            for (other_seat, other) in Seat::all(m.players.len() as u8).zip(&m.players) {
                if other_seat == seat || other == name {
                    continue;
                }
                let o = r.opponents.entry(other.clone()).or_default();
                o.0 += n;
                // Against this opponent: ahead (a win), level (a draw), behind (a loss).
                let (mine, theirs) = (m.outcome.place(seat), m.outcome.place(other_seat));
                match mine.cmp(&theirs) {
                    std::cmp::Ordering::Less => o.1 += n,
                    std::cmp::Ordering::Equal => o.2 += n,
                    std::cmp::Ordering::Greater => o.3 += n,
                }
                o.4 += match mine.cmp(&theirs) {
                    std::cmp::Ordering::Less => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Greater => 0.0,
                } * n as f64;
            }
        }
    }
    out
}

/// The ratings over time: per checkpoint, its last period, the games up to it and the fit.
type History = Vec<(String, u64, Option<rating::Ratings>)>;

fn history(rows: &[Row]) -> History {
    let periods = ordered(rows.iter().map(|r| r.period.clone()));
    let step = periods.len().div_ceil(CHECKPOINTS).max(1);
    let checkpoints: Vec<usize> = (0..periods.len())
        .filter(|i| (periods.len() - 1 - i) % step == 0)
        .collect();
    let rank: BTreeMap<&str, usize> = periods
        .iter()
        .enumerate()
        .map(|(i, p)| (p.as_str(), i))
        .collect();
    checkpoints
        .into_iter()
        .map(|last| {
            let upto: Vec<Meeting> = rows
                .iter()
                .filter(|r| rank[r.period.as_str()] <= last)
                .map(|r| r.meeting.clone())
                .collect();
            let games = upto.iter().map(|m| m.games).sum();
            (
                periods[last].clone(),
                games,
                rating::fit(&upto, &Model::default()),
            )
        })
        .collect()
}

fn section(
    h: &mut String,
    (game, preset, fit): (&str, &str, &rating::Ratings),
    p: &Rated,
    r: &Results,
    history: &History,
    say: &Phrases,
) {
    let title = game
        .parse::<GameKind>()
        .map_or(game.to_owned(), |k| super::html::game_title(k, say));
    let _ = writeln!(
        h,
        "<h2>{}</h2>",
        escape(&say.fill(
            "report.player.section",
            &[
                ("game", &title),
                ("preset", &super::said::preset(game, preset, say))
            ]
        ))
    );
    let place = match p.rank {
        Some(rank) => {
            let ranked = fit
                .players
                .iter()
                .filter(|q| q.group == p.group && !q.provisional)
                .count();
            let (rank, ranked, group) = (
                rank.to_string(),
                ranked.to_string(),
                (p.group + 1).to_string(),
            );
            let slots = [
                ("rank", rank.as_str()),
                ("ranked", ranked.as_str()),
                ("group", group.as_str()),
            ];
            if fit.groups.len() > 1 {
                say.fill("report.player.rank_in_group", &slots)
            } else {
                say.fill("report.player.rank", &slots)
            }
        }
        None => say.fill(
            "report.player.provisional",
            &[("games", &fit.provisional_games.to_string())],
        ),
    };
    let _ = writeln!(
        h,
        "<p>{}</p>",
        escape(&say.fill(
            "report.player.rating",
            &[
                (
                    "elo",
                    &elo_with_interval(p.rating.value, p.rating.low, p.rating.high, say)
                ),
                ("place", &place),
                ("games", &thousands(r.games)),
                ("score", &share(r.score / r.games.max(1) as f64)),
            ]
        ))
    );
    let two = fit.seats == 2;
    let th = |key: &str| escape(&say.get(key));
    let _ = writeln!(
        h,
        "<h3>{}</h3><table><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr>",
        th("report.player.by_opponent"),
        th("report.column.opponent"),
        th("report.column.games"),
        th(if two {
            "report.column.wins"
        } else {
            "report.column.ahead"
        }),
        th(if two {
            "report.column.draws"
        } else {
            "report.column.level"
        }),
        th(if two {
            "report.column.losses"
        } else {
            "report.column.behind"
        }),
        th("report.column.score"),
    );
    let mut opponents: Vec<_> = r.opponents.iter().collect();
    opponents.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(a.0.cmp(b.0)));
    for (name, (games, w, d, l, score)) in opponents {
        let _ = writeln!(
            h,
            "<tr><td><a href=\"{}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            attribute(&file_of(name)),
            escape(name),
            thousands(*games),
            thousands(*w),
            thousands(*d),
            thousands(*l),
            share(score / (*games).max(1) as f64)
        );
    }
    let _ = writeln!(
        h,
        "</table><h3>{}</h3><table><tr><th>{}</th><th>{}</th><th>{}</th></tr>",
        th("report.player.by_seat"),
        th("report.column.seat"),
        th("report.column.games"),
        th("report.column.score"),
    );
    for (seat, (games, score)) in &r.seats {
        let said = Seat::new(seat - 1).map_or(seat.to_string(), |s| super::said::seat(s, say));
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&said),
            thousands(*games),
            share(score / (*games).max(1) as f64)
        );
    }
    let _ = writeln!(
        h,
        "</table><h3>{}</h3><p class=\"muted\">{}</p><table><tr><th>{}</th><th>{}</th><th>{}</th></tr>",
        th("report.player.over_time"),
        th("report.player.over_time_said"),
        th("report.player.up_to"),
        th("report.player.games_of_all"),
        th("report.column.rating_95"),
    );
    for (period, games, fit) in history {
        let rated = fit
            .as_ref()
            .and_then(|f| f.players.iter().find(|q| q.name == p.name));
        let cell = rated.map_or("—".to_owned(), |q| {
            let e = q.rating;
            let interval = elo_with_interval(e.value, e.low, e.high, say);
            if q.provisional {
                say.fill("report.player.provisional_cell", &[("elo", &interval)])
            } else {
                interval
            }
        });
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&super::said::period(period, say)),
            thousands(*games),
            cell
        );
    }
    let _ = writeln!(h, "</table>");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_one_per_name() {
        assert_eq!(file_of("R09946011"), "R09946011.html");
        assert_eq!(file_of("east wind"), "east_20wind.html");
        assert_ne!(file_of("a_b"), file_of("a b"));
        assert_eq!(file_of("暗"), "_6697.html");
    }

    #[test]
    fn periods_are_in_time_order() {
        let p = ordered(
            [
                "games 101-200",
                "2022-02",
                "games 1-100",
                "2021-12",
                "games 1001-1100",
            ]
            .into_iter()
            .map(String::from),
        );
        assert_eq!(
            p,
            [
                "2021-12",
                "2022-02",
                "games 1-100",
                "games 101-200",
                "games 1001-1100"
            ]
        );
    }
}
