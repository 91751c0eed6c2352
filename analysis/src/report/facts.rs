//! From a record of any game to the facts the report counts: one row per game, one per seat,
//! and the game's own facts (its part of the report).

use records::core::explorer::{DEFAULT_DEPTH, Walk, credits};
use records::core::scoring::score;
use records::core::{Record, ReplayError, Seat};
use records::games::GameKind;
use records::with_game;

use crate::games::{Part, Tool};

/// One game's row.
#[derive(Clone, Debug, PartialEq)]
pub struct GameFacts {
    pub source: String,
    pub game: &'static str,
    pub preset: &'static str,
    /// The preset, with its option overrides when the record has some (`tcga {"no_progress":180}`).
    pub variant: String,
    pub seats: u32,
    /// The outcome code (`player1`, `draw`, `player2>player1=player3` …); None while unfinished.
    pub outcome: Option<String>,
    pub reason: Option<&'static str>,
    pub plies: u32,
    /// The day it was played (`2022-01-13`), from the record's `date`; None when not known.
    pub date: Option<String>,
    /// When it was played, as the players' ratings over time go: its month (`2022-01`), or
    /// undated, its hundred in the input (`games 101-200`).
    pub period: String,
}

/// Games per period of an undated input (a player's rating over time, by 100 games).
pub const GAMES_PER_PERIOD: usize = 100;

/// The period of a game of the input's `number` (0-based) played on `date`.
pub fn period(date: Option<&str>, number: usize) -> String {
    match date {
        Some(d) => d[..7].to_owned(),
        None => {
            let first = number / GAMES_PER_PERIOD * GAMES_PER_PERIOD + 1;
            format!("games {first}-{}", first + GAMES_PER_PERIOD - 1)
        }
    }
}

/// One seat's row.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatFacts {
    /// 1-based: 1 moves first.
    pub seat: u32,
    pub name: String,
    /// The side it played (a colour, a faction), once known.
    pub side: Option<&'static str>,
    pub points: u32,
    /// Its place (1 first; a shared first place is a draw); None while unfinished.
    pub place: Option<u32>,
    /// Its share of the game: 1 win (alone in first place), ½ draw, 0 loss (three seats:
    /// the places it beat).
    pub score: Option<f64>,
    /// Whether the record names the player (else `name` is `player N`, a stand-in).
    pub named: bool,
}

/// One ply of a finished game's opening as every seat saw it, and what it credits the seat
/// that played it: the opening explorer's counts, one game each (`records::core::explorer`).
#[derive(Clone, Debug, PartialEq)]
pub struct StepFacts {
    /// Plies played before it.
    pub ply: u32,
    /// The seat that played it (1-based).
    pub seat: u32,
    /// The public position it was played from, and the one it led to (16 hex digits, as
    /// `GET /v1/explorer` names them).
    pub node: String,
    pub action: String,
    pub next: String,
    /// For the seat that played it: 1 first place alone, ½ first place shared, 0 lower.
    pub score: f64,
    pub points: i64,
    pub coin_stakes: i64,
    pub coin_margins: i64,
    /// Whether every game of the variant starts from the same public position.
    pub shared_start: bool,
}

/// Everything the report takes from one record.
#[derive(Clone, Debug)]
pub struct Facts {
    pub game: GameFacts,
    pub seats: Vec<SeatFacts>,
    /// The first [`DEFAULT_DEPTH`] plies of a finished game; none of an unfinished one.
    pub steps: Vec<StepFacts>,
    pub part: Part,
}

/// Replays `record` into its facts; an invalid record gives its error.
/// `number` is the record's in the input (0-based: its period when undated).
pub fn facts(record: &Record, source: &str, number: usize) -> Result<Facts, ReplayError> {
    let kind = GameKind::of(record)?;
    with_game!(kind, G => facts_of::<G>(record, source, number))
}

fn facts_of<G: Tool>(record: &Record, source: &str, number: usize) -> Result<Facts, ReplayError> {
    let mut watch = G::Watch::default();
    let mut walk = Walk::<G>::of_record(record, DEFAULT_DEPTH);
    let scored = score::<G>(record, |ply| {
        G::watch(&mut watch, ply);
        if let Some(walk) = walk.as_mut() {
            walk.ply(ply);
        }
    })?;
    let outcome = scored.result.map(|r| r.outcome);
    let seats = Seat::all(scored.seats)
        .map(|seat| SeatFacts {
            seat: seat.index() as u32 + 1,
            name: record.player_name(seat.index()),
            named: record.players.get(seat.index()).is_some(),
            side: G::side(&scored.last, seat),
            points: scored.tally.points(seat),
            place: outcome.map(|o| o.place(seat) as u32),
            score: outcome.map(|o| o.score(seat)),
        })
        .collect();
    let variant = if record.options.is_empty() {
        scored.preset.to_owned()
    } else {
        let options = records::core::rules::overrides::<G>(&record.options)
            .expect("a valid record's options");
        format!(
            "{} {}",
            scored.preset,
            serde_json::to_string(&options).expect("options serialise")
        )
    };
    let date = record
        .metadata
        .get("date")
        .and_then(|d| d.as_str())
        .and_then(records::store::iso_date);
    let game = GameFacts {
        source: source.to_owned(),
        game: G::NAME,
        preset: scored.preset,
        variant,
        seats: scored.seats as u32,
        outcome: outcome.map(|o| o.code()),
        reason: scored.result.and_then(|r| r.reason).map(|r| r.code()),
        plies: scored.verdict.plies as u32,
        period: period(date.as_deref(), number),
        date,
    };
    let steps = walk.map_or_else(Vec::new, |walk| {
        let points = Seat::all(scored.seats)
            .map(|seat| i64::from(scored.tally.points(seat)))
            .collect();
        let doubled = G::opening(record, &scored.first_plies).doubles_stake;
        let shared_start = walk.shared_start();
        credits(&walk.steps, outcome, points, G::COINS, doubled)
            .map(|(step, counts)| StepFacts {
                ply: step.ply,
                seat: step.mover.index() as u32 + 1,
                node: step.node.to_string(),
                action: step.action.clone(),
                next: step.next.to_string(),
                score: counts.wins as f64 + counts.draws as f64 / 2.0,
                points: counts.points,
                coin_stakes: counts.coin_stakes,
                coin_margins: counts.coin_margins,
                shared_start,
            })
            .collect()
    });
    let part = G::part(watch, record, &scored);
    Ok(Facts {
        game,
        seats,
        steps,
        part,
    })
}
