//! What a reader came for, in sentences made from the numbers: per game and preset, how many
//! games and how long, what moving first is worth (the seat term fitted beside the players'
//! ratings, so that who played is not credited to where they sat), who is strongest, how
//! games end; then each game's own question, which its [`crate::games::Tool::headlines`]
//! answers with the helpers here (Banqi: first flips that stand out; Three Kingdoms: which
//! faction wins and how the first claimer does; Luzhanqi: which piece takes the flag;
//! xiangqi-3g: which flips go with winning).
//!
//! A sentence says only what its interval supports: a finding stands when its 95% interval
//! excludes the baseline, the interval widened for the number of comparisons made (32 first
//! flips are 32 tries: Bonferroni, [`corrected_z`]); otherwise the sentence says that nothing
//! stands out.

use records::core::language::Phrases;
use serde_json::Value;

use super::draw::thousands;
use super::table::Table;

/// Wilson intervals, corrected for how many were tried: the toolkit's own (the explorer's too).
pub use records::core::stats::{corrected_z, wilson as wilson_at};

/// A rate with its 95% interval, for people: `47.9% (46.0–50.0)`.
pub fn percent_with_interval(rate: f64, low: f64, high: f64, say: &Phrases) -> String {
    say.fill(
        "report.rate_interval",
        &[
            ("rate", &format!("{:.1}%", rate * 100.0)),
            ("low", &format!("{:.1}", low * 100.0)),
            ("high", &format!("{:.1}", high * 100.0)),
        ],
    )
}

/// A whole number of Elo for people: its sign always written (`+56`, `−5`, `0`: a rounded
/// zero has none, never `-0`), the minus sign a real one.
pub fn signed_elo(x: f64) -> String {
    let n = x.round() as i64;
    match n {
        0 => "0".to_owned(),
        n if n < 0 => format!("−{}", -n),
        n => format!("+{n}"),
    }
}

/// An Elo difference with its 95% interval, for people: `+56 (−5 to +117)`.
pub fn elo_with_interval(value: f64, low: f64, high: f64, say: &Phrases) -> String {
    say.fill(
        "report.elo_interval",
        &[
            ("value", &signed_elo(value)),
            ("low", &signed_elo(low)),
            ("high", &signed_elo(high)),
        ],
    )
}

fn find<'a>(tables: &'a [Table], name: &str) -> Option<&'a Table> {
    tables.iter().find(|t| t.name == name)
}

/// A table's rows as column → value lookups.
pub struct Rows<'a> {
    pub t: &'a Table,
}

impl<'a> Rows<'a> {
    pub fn get(&self, row: &'a [Value], column: &str) -> &'a Value {
        let i = self.t.columns.iter().position(|c| c == column);
        i.map_or(&Value::Null, |i| &row[i])
    }

    /// The rows whose `column`s equal the values given.
    pub fn matching(&self, wanted: &[(&str, &str)]) -> Vec<&'a Vec<Value>> {
        self.t
            .rows
            .iter()
            .filter(|r| {
                wanted.iter().all(|(c, v)| match self.get(r, c) {
                    Value::String(s) => s == v,
                    other => other.to_string() == *v,
                })
            })
            .collect()
    }

    pub fn num(&self, row: &[Value], column: &str) -> f64 {
        let i = self.t.columns.iter().position(|c| c == column);
        i.and_then(|i| row[i].as_f64()).unwrap_or(0.0)
    }

    /// A column's code as the table holds it (`no_progress`); "none" for null.
    pub fn code(&self, row: &[Value], column: &str) -> String {
        match self.get(row, column) {
            Value::String(s) => s.clone(),
            Value::Null => "none".into(),
            other => other.to_string(),
        }
    }

    pub fn text(&self, row: &[Value], column: &str) -> String {
        match self.get(row, column) {
            Value::String(s) => s.replace('_', " "),
            Value::Null => "none".into(),
            other => other.to_string(),
        }
    }

    pub fn rate(&self, row: &[Value], name: &str, say: &Phrases) -> String {
        percent_with_interval(
            self.num(row, &format!("{name}_rate")),
            self.num(row, &format!("{name}_low")),
            self.num(row, &format!("{name}_high")),
            say,
        )
    }
}

/// The table `name` of the report, if it has one.
pub fn rows<'a>(tables: &'a [Table], name: &str) -> Option<Rows<'a>> {
    find(tables, name).map(|t| Rows { t })
}

/// The presets of `game` in the report, in the overview's order.
pub fn presets(tables: &[Table], game: &str) -> Vec<String> {
    let Some(o) = rows(tables, "overview") else {
        return Vec::new();
    };
    o.matching(&[("game", game)])
        .iter()
        .map(|r| o.text(r, "preset"))
        .collect()
}

/// The sentences for `game`'s `preset`; `fits` are the report's ratings
/// ([`super::players::tables`]).
pub fn sentences(
    tables: &[Table],
    fits: &[super::players::Fit],
    game: &str,
    preset: &str,
    say: &Phrases,
) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(o) = rows(tables, "overview")
        && let Some(r) = o.matching(&[("game", game), ("preset", preset)]).first()
    {
        let games = o.num(r, "games") as u64;
        let finished = o.num(r, "finished") as u64;
        out.push(say.fill(
            "report.headline.games",
            &[
                ("games", &thousands(games)),
                ("finished", &thousands(finished)),
                (
                    "rate",
                    &format!("{:.1}%", o.num(r, "finished_rate") * 100.0),
                ),
                ("plies", &format!("{:.0}", o.num(r, "mean_plies"))),
            ],
        ));
    }
    match fits
        .iter()
        .find(|(g, p, _)| g == game && p == preset)
        .map(|(_, _, fit)| fit)
    {
        Some(fit) => out.extend(super::leaderboard::sentences(fit, say)),
        None => out.extend(seat_sentences(tables, game, preset, say)),
    }
    if let Some(e) = rows(tables, "endings") {
        let mut by_reason: Vec<(String, f64)> = Vec::new();
        for r in e.matching(&[("game", game), ("preset", preset)]) {
            let reason = e.code(r, "reason");
            let n = e.num(r, "games");
            match by_reason.iter_mut().find(|(k, _)| *k == reason) {
                Some(x) => x.1 += n,
                None => by_reason.push((reason, n)),
            }
        }
        by_reason.retain(|(reason, _)| reason != "none" && reason != "unfinished");
        let total: f64 = by_reason.iter().map(|r| r.1).sum();
        by_reason.sort_by(|a, b| b.1.total_cmp(&a.1));
        if total > 0.0 {
            let top: Vec<String> = by_reason
                .iter()
                .take(3)
                .map(|(reason, n)| {
                    say.fill(
                        "report.headline.ending",
                        &[
                            ("ending", &super::said::ending(game, reason, say)),
                            ("share", &share(n / total)),
                        ],
                    )
                })
                .collect();
            out.push(say.fill("report.headline.endings", &[("list", &say.list(&top))]));
        }
    }
    if let Ok(kind) = game.parse::<records::games::GameKind>() {
        out.extend(crate::games::headlines(kind, tables, preset, say));
    }
    out
}

/// The seats' results where the players are not named: what they mix (who played and where
/// they sat) is said, and the first seat's rate a finding only when it stands out.
fn seat_sentences(tables: &[Table], game: &str, preset: &str, say: &Phrases) -> Vec<String> {
    let Some(s) = rows(tables, "by_seat") else {
        return Vec::new();
    };
    let seats = s.matching(&[("game", game), ("preset", preset)]);
    let Some(first) = seats.first() else {
        return Vec::new();
    };
    let fair = 1.0 / seats.len() as f64;
    let (finished, score) = (s.num(first, "finished"), s.num(first, "score"));
    let (low, high) = wilson_at(score * finished, finished, corrected_z(1));
    let key = if low > fair || high < fair {
        "report.headline.unnamed_stands_out"
    } else {
        "report.headline.unnamed_even"
    };
    vec![say.fill(
        key,
        &[
            ("score", &percent_with_interval(score, low, high, say)),
            ("fair", &share(fair)),
        ],
    )]
}

/// The rows of `rows` whose score stands out from `baseline`: their intervals, widened for as
/// many comparisons as there are rows with finished games, exclude it. Best first.
pub fn standing_out<'a>(
    r: &Rows<'a>,
    rows: Vec<&'a Vec<Value>>,
    baseline: f64,
) -> Vec<(&'a [Value], (f64, f64))> {
    let tried: Vec<&Vec<Value>> = rows
        .into_iter()
        .filter(|row| r.num(row, "finished") > 0.0)
        .collect();
    let z = corrected_z(tried.len());
    let mut out: Vec<(&[Value], (f64, f64))> = tried
        .into_iter()
        .map(|row| {
            let n = r.num(row, "finished");
            (row.as_slice(), wilson_at(r.num(row, "score") * n, n, z))
        })
        .filter(|(_, (low, high))| *low > baseline || *high < baseline)
        .collect();
    out.sort_by(|a, b| r.num(b.0, "score").total_cmp(&r.num(a.0, "score")));
    out
}

/// The rows that stand out ([`standing_out`]) said: `c8 (56.4%, 51.2–61.5 corrected, 660
/// games)`, `key` naming each.
pub fn said_standing(
    r: &Rows,
    standing: &[(&[Value], (f64, f64))],
    key: &str,
    say: &Phrases,
) -> String {
    let game = r.t.game.as_deref().unwrap_or("");
    let named: Vec<String> = standing
        .iter()
        .map(|(row, (low, high))| {
            let code = r.code(row, key);
            say.fill(
                "report.headline.standing",
                &[
                    (
                        "name",
                        &super::said::cell(game, key, &code, say)
                            .unwrap_or_else(|| r.text(row, key)),
                    ),
                    ("score", &format!("{:.1}%", r.num(row, "score") * 100.0)),
                    ("low", &format!("{:.1}", low * 100.0)),
                    ("high", &format!("{:.1}", high * 100.0)),
                    ("games", &thousands(r.num(row, "finished") as u64)),
                ],
            )
        })
        .collect();
    say.list(&named)
}

/// A share for a sentence: a percent with one decimal (3 of 600 is `0.5%`), and `<0.1%` for
/// what rounds to none but is not none.
pub fn share(x: f64) -> String {
    if x > 0.0 && x < 0.0005 {
        "<0.1%".into()
    } else {
        format!("{:.1}%", 100.0 * x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrected_intervals_widen_with_the_tries() {
        assert!((corrected_z(1) - 1.959_964).abs() < 1e-5);
        // 32 tries: each at 1 − 0.05 / 32, z = Φ⁻¹(1 − 0.00078125).
        assert!(
            (corrected_z(32) - 3.1628).abs() < 1e-3,
            "{}",
            corrected_z(32)
        );
        let (a, b) = wilson_at(7.0, 10.0, corrected_z(1));
        assert!((a - 0.3968).abs() < 1e-4 && (b - 0.8922).abs() < 1e-4);
    }

    #[test]
    fn a_rate_reads_as_people_write_it() {
        assert_eq!(
            percent_with_interval(
                0.4791,
                0.46,
                0.5,
                Phrases::of(records::core::language::Language::English)
            ),
            "47.9% (46.0–50.0)"
        );
    }
}

/// An ending's words in `game` (its code when the game or code is unknown: a record of a
/// newer version).
pub fn ending_words(game: &str, code: &str) -> String {
    game.parse::<records::games::GameKind>()
        .ok()
        .and_then(|kind| records::games::ending_words(kind, code))
        .map_or_else(|| code.to_owned(), str::to_owned)
}
