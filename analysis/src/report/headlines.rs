//! What a reader came for, in sentences made from the numbers: per game and preset, how many
//! games and how long, how the first mover does (with its interval), how games end; then each
//! game's own question, which its [`crate::games::Tool::headlines`] answers with the helpers
//! here (Banqi: the best and worst first flips; Three Kingdoms: which faction wins and how the
//! first claimer does; Luzhanqi: which piece takes the flag; xiangqi-3g: which flips go with
//! winning).

use serde_json::Value;

use super::charts::FEW_GAMES;
use super::draw::thousands;
use super::table::Table;

/// A rate with its 95% interval, for people: `47.9% (46.0–50.0)`.
pub fn percent_with_interval(rate: f64, low: f64, high: f64) -> String {
    format!(
        "{:.1}% ({:.1}–{:.1})",
        rate * 100.0,
        low * 100.0,
        high * 100.0
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

    pub fn text(&self, row: &[Value], column: &str) -> String {
        match self.get(row, column) {
            Value::String(s) => s.replace('_', " "),
            Value::Null => "none".into(),
            other => other.to_string(),
        }
    }

    pub fn rate(&self, row: &[Value], name: &str) -> String {
        percent_with_interval(
            self.num(row, &format!("{name}_rate")),
            self.num(row, &format!("{name}_low")),
            self.num(row, &format!("{name}_high")),
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

/// The sentences for `game`'s `preset`.
pub fn sentences(tables: &[Table], game: &str, preset: &str) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(o) = rows(tables, "overview")
        && let Some(r) = o.matching(&[("game", game), ("preset", preset)]).first()
    {
        let games = o.num(r, "games") as u64;
        let finished = o.num(r, "finished") as u64;
        out.push(format!(
            "{} games, {} of them finished ({:.1}%), {:.0} plies long on average.",
            thousands(games),
            thousands(finished),
            o.num(r, "finished_rate") * 100.0,
            o.num(r, "mean_plies")
        ));
    }
    if let Some(s) = rows(tables, "by_seat") {
        let seats = s.matching(&[("game", game), ("preset", preset)]);
        if seats.len() == 2 {
            let (p1, p2) = (seats[0], seats[1]);
            out.push(format!(
                "Player 1, who moves first, wins {} of the finished games and player 2 {}; {} \
                 are drawn.",
                s.rate(p1, "win"),
                s.rate(p2, "win"),
                s.rate(p1, "draw")
            ));
        } else if seats.len() > 2 {
            let places: Vec<String> = seats
                .iter()
                .map(|r| format!("player {} {}", s.text(r, "seat"), s.rate(r, "win")))
                .collect();
            out.push(format!(
                "Placed first (player 1 moves first): {}.",
                places.join(", ")
            ));
        }
    }
    if let Some(e) = rows(tables, "endings") {
        let mut by_reason: Vec<(String, f64)> = Vec::new();
        for r in e.matching(&[("game", game), ("preset", preset)]) {
            let reason = e.text(r, "reason");
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
                .map(|(reason, n)| format!("{reason} ({})", share(n / total)))
                .collect();
            out.push(format!("Finished games end by {}.", top.join(", ")));
        }
    }
    if let Ok(kind) = game.parse::<records::games::GameKind>() {
        out.extend(crate::games::headlines(kind, tables, preset));
    }
    out
}

/// A share for a sentence: whole percents, and `<1%` for what rounds to none.
pub fn share(x: f64) -> String {
    if x > 0.0 && x < 0.005 {
        "<1%".into()
    } else {
        format!("{:.0}%", 100.0 * x)
    }
}

/// The best and the worst of `rows` by `score` among those with enough finished games.
pub fn extremes<'a>(r: &Rows<'a>, rows: Vec<&'a Vec<Value>>) -> Option<(&'a [Value], &'a [Value])> {
    let mut ranked: Vec<&Vec<Value>> = rows
        .into_iter()
        .filter(|row| r.num(row, "finished") >= FEW_GAMES as f64)
        .collect();
    if ranked.len() < 2 {
        return None;
    }
    ranked.sort_by(|a, b| r.num(b, "score").total_cmp(&r.num(a, "score")));
    Some((ranked[0], ranked[ranked.len() - 1]))
}

/// A row's `key` with its score and count: `c8 (score 51.1% in 660 finished games)`.
pub fn scored(r: &Rows, row: &[Value], key: &str) -> String {
    format!(
        "{} (score {:.1}% in {} finished games)",
        r.text(row, key),
        r.num(row, "score") * 100.0,
        thousands(r.num(row, "finished") as u64)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rate_reads_as_people_write_it() {
        assert_eq!(
            percent_with_interval(0.4791, 0.46, 0.5),
            "47.9% (46.0–50.0)"
        );
    }
}
