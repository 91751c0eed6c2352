//! Players as a dimension of the report: from the `meetings` counts (finished games between
//! named players, by seat order and outcome), per game and preset, each player's results,
//! the results of every pair, and the ratings fitted to them with the seats' own advantage
//! beside (`records::rating`). They derive from counts that add up: a merged report, or one
//! drawn from Spark's or DuckDB's counts, fits them again from its own.
//!
//! A game in which a name plays itself (self-play of one bot) counts for the seat terms only:
//! it is left out of the players' results and ratings.

use std::collections::BTreeMap;

use records::core::{Outcome, Seat};
use records::rating::{self, Meeting, Model, Ratings};
use serde_json::{Value, json};

use super::table::{Derived, Table, round};

/// The meetings of one game and preset.
struct Group {
    game: String,
    preset: String,
    meetings: Vec<Meeting>,
}

/// One row of a meetings table (`meetings`, or `meetings_by_period`): its game, preset,
/// period (empty in `meetings`) and the games it counts.
pub struct MeetingRow {
    pub game: String,
    pub preset: String,
    pub period: String,
    pub meeting: Meeting,
}

/// The rows of the meetings table `name` (none when the report has no such table).
pub fn meeting_rows(tables: &[Table], name: &str) -> Vec<MeetingRow> {
    let Some(t) = tables.iter().find(|t| t.name == name) else {
        return Vec::new();
    };
    let col = |name: &str| t.columns.iter().position(|c| c == name);
    let [game, preset, outcome, games] =
        ["game", "preset", "outcome", "games"].map(|c| col(c).expect(c));
    let period = col("period");
    let players = ["player1", "player2", "player3"].map(|c| col(c).expect(c));
    let text = |row: &[Value], i: usize| row[i].as_str().unwrap_or_default().to_owned();
    t.rows
        .iter()
        .filter_map(|row| {
            let names: Vec<String> = players
                .iter()
                .filter_map(|&i| row[i].as_str().map(str::to_owned))
                .collect();
            let mut result = row[outcome].as_str()?.parse::<Outcome>().ok()?;
            // `draw` reads as two seats: a three-seat draw ties all three.
            if names.len() == 3 && result.is_draw() {
                result = Outcome::draw(3);
            }
            Some(MeetingRow {
                game: text(row, game),
                preset: text(row, preset),
                period: period.map_or_else(String::new, |i| text(row, i)),
                meeting: Meeting {
                    players: names,
                    outcome: result,
                    games: row[games].as_u64().unwrap_or(0),
                },
            })
        })
        .collect()
}

/// The `meetings` table read into groups.
fn groups(tables: &[Table]) -> Vec<Group> {
    let mut out: BTreeMap<(String, String), Vec<Meeting>> = BTreeMap::new();
    for row in meeting_rows(tables, "meetings") {
        out.entry((row.game, row.preset))
            .or_default()
            .push(row.meeting);
    }
    out.into_iter()
        .map(|((game, preset), meetings)| Group {
            game,
            preset,
            meetings,
        })
        .collect()
}

/// The ratings fitted to one game and preset.
pub type Fit = (String, String, Ratings);

/// The players' tables (`by_player`, `head_to_head`, `ratings`, `seat_terms`), and the fits
/// behind the last two (the page's sentences read them): each game and preset fitted once.
pub fn tables(tables: &[Table]) -> (Vec<Table>, Vec<Fit>) {
    let groups = groups(tables);
    let fits: Vec<Fit> = groups
        .iter()
        .filter_map(|g| {
            let fit = rating::fit(&g.meetings, &Model::default())?;
            Some((g.game.clone(), g.preset.clone(), fit))
        })
        .collect();
    let tables = vec![
        by_player(&groups),
        head_to_head(&groups),
        ratings_table(&fits),
        seat_terms(&fits),
    ];
    (tables, fits)
}

/// Wins, draws and losses of each player per game and preset (self-play left out).
fn by_player(groups: &[Group]) -> Table {
    let mut counts: BTreeMap<(String, String, String), [f64; 5]> = BTreeMap::new();
    for g in groups {
        for m in g.meetings.iter().filter(|m| !self_play(m)) {
            for (seat, name) in Seat::all(m.players.len() as u8).zip(&m.players) {
                let c = counts
                    .entry((g.game.clone(), g.preset.clone(), name.clone()))
                    .or_default();
                let n = m.games as f64;
                let place = m.outcome.place(seat);
                c[0] += n;
                if m.outcome.winner() == Some(seat) {
                    c[1] += n;
                } else if place == 1 {
                    c[2] += n;
                } else {
                    c[3] += n;
                }
                c[4] += m.outcome.score(seat) * n;
            }
        }
    }
    let rows = counts
        .into_iter()
        .map(|((game, preset, player), c)| {
            (
                vec![json!(game), json!(preset), json!(player)],
                vec![
                    json!(c[0] as u64),
                    json!(c[1] as u64),
                    json!(c[2] as u64),
                    json!(c[3] as u64),
                    round(c[4]),
                ],
            )
        })
        .collect();
    Table::new(
        "by_player",
        "Results by player (finished games against other players; a shared first place is a draw), with 95% Wilson intervals",
        &["game", "preset", "player"],
        &["games", "wins", "draws", "losses", "score_sum"],
        vec![
            rate("win", "wins", "games"),
            rate("draw", "draws", "games"),
            Derived::Mean {
                name: "score".into(),
                sum: "score_sum".into(),
                n: "games".into(),
            },
        ],
        rows,
    )
}

/// Every pair of players of a two-seat game, whichever moved first: the first named's wins,
/// the draws, the second's wins.
fn head_to_head(groups: &[Group]) -> Table {
    let mut counts: BTreeMap<(String, String, String, String), [u64; 4]> = BTreeMap::new();
    for g in groups {
        for m in g
            .meetings
            .iter()
            .filter(|m| m.players.len() == 2 && !self_play(m))
        {
            let (a, b) = (&m.players[0], &m.players[1]);
            let swapped = a > b;
            let (x, y) = if swapped { (b, a) } else { (a, b) };
            let c = counts
                .entry((g.game.clone(), g.preset.clone(), x.clone(), y.clone()))
                .or_default();
            c[0] += m.games;
            match m.outcome.winner() {
                None => c[2] += m.games,
                Some(Seat::FIRST) if !swapped => c[1] += m.games,
                Some(Seat::FIRST) => c[3] += m.games,
                Some(_) if !swapped => c[3] += m.games,
                Some(_) => c[1] += m.games,
            }
        }
    }
    let rows = counts
        .into_iter()
        .map(|((game, preset, a, b), c)| {
            (
                vec![json!(game), json!(preset), json!(a), json!(b)],
                c.iter().map(|v| json!(v)).collect(),
            )
        })
        .collect();
    Table::new(
        "head_to_head",
        "Head to head (two seats): games between each pair of players, whoever moved first, with the first-named player's win rate and 95% Wilson interval",
        &["game", "preset", "player", "opponent"],
        &["games", "wins", "draws", "losses"],
        vec![rate("win", "wins", "games"), rate("draw", "draws", "games")],
        rows,
    )
}

/// Each player's fitted rating with its 95% interval, by group of players who met (1 the one
/// with most games): Elo about the group's mean, the rank in the group (none for a
/// provisional player, with fewer games than the fit's threshold).
fn ratings_table(fits: &[Fit]) -> Table {
    let rows = fits
        .iter()
        .flat_map(|(game, preset, fit)| {
            fit.players.iter().map(move |p| {
                (
                    vec![
                        json!(game),
                        json!(preset),
                        json!(p.group + 1),
                        json!(p.name),
                    ],
                    vec![
                        p.rank.map_or(Value::Null, |r| json!(r)),
                        json!(p.games),
                        round(p.score),
                        elo(p.rating.value),
                        elo(p.rating.low),
                        elo(p.rating.high),
                        json!(p.provisional),
                    ],
                )
            })
        })
        .collect();
    Table::new(
        "ratings",
        "Ratings fitted from the games, on Elo's scale (a difference d predicts an expected score of 1 / (1 + 10^(−d/400)), a draw half; Bradley–Terry with a first-move term for two seats, Plackett–Luce with seat terms for three): by group of players who met, about the group's mean, with 95% intervals and the rank in the group (none when provisional)",
        &["game", "preset", "group", "player"],
        &[
            "rank",
            "games",
            "score_sum",
            "rating",
            "rating_low",
            "rating_high",
            "provisional",
        ],
        Vec::new(),
        rows,
    )
}

/// The seats' own advantage, fitted beside the ratings: two seats, the first move's term;
/// three seats, seats 2 and 3 against seat 1. With what it means between players of equal
/// strength.
fn seat_terms(fits: &[Fit]) -> Table {
    let rows = fits
        .iter()
        .flat_map(|(game, preset, fit)| {
            let equal = fit.first_seat;
            fit.seat_terms.iter().enumerate().map(move |(i, term)| {
                let (seat, against) = if fit.seats == 2 { (1, 2) } else { (i + 2, 1) };
                let first = |f: fn(&rating::Estimate) -> f64| {
                    equal
                        .filter(|_| i == 0)
                        .map_or(Value::Null, |e| round(f(&e)))
                };
                (
                    vec![json!(game), json!(preset), json!(seat), json!(against)],
                    vec![
                        json!(fit.games),
                        json!(fit.self_play),
                        elo(term.value),
                        elo(term.low),
                        elo(term.high),
                        first(|e| e.value),
                        first(|e| e.low),
                        first(|e| e.high),
                    ],
                )
            })
        })
        .collect();
    Table::new(
        "seat_terms",
        "The seats' own advantage, fitted beside the ratings: the Elo a seat is worth against another (two seats: the first move's), and between players of equal strength the first mover's expected score (two seats) or chance of first place (three), with 95% intervals",
        &["game", "preset", "seat", "against"],
        &[
            "games",
            "self_play",
            "elo",
            "elo_low",
            "elo_high",
            "equal_first",
            "equal_first_low",
            "equal_first_high",
        ],
        Vec::new(),
        rows,
    )
}

fn self_play(m: &Meeting) -> bool {
    m.players.iter().all(|p| *p == m.players[0])
}

fn rate(name: &str, k: &str, n: &str) -> Derived {
    Derived::Rate {
        name: name.into(),
        k: k.into(),
        n: n.into(),
    }
}

/// Elo points to a tenth.
fn elo(x: f64) -> Value {
    json!((x * 10.0).round() / 10.0)
}
