//! Scoring any game from its history: every captured piece is credited to a seat, ply by ply
//! ([`Rules::credits`]), so that three seats capturing from each other are scored right. What
//! a record's start position says was captured before it is credited first.

use serde::{Deserialize, Serialize};

use super::explorer::{Counts, Step, Walk};
use super::outcome::{Outcome, Reason};
use super::record::Record;
use super::replay::{Ply, ReplayError, Replayed, Status, Steps, Verdict, prepare, run};
use super::rules::Rules;
use super::seat::{MAX_SEATS, Seat};
use crate::core::Engine as _;

/// A table's coin settings, for games played for coins (Banqi's 戲谷 rooms, RULES.md §5).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Table {
    /// 開局金幣: the stake S.
    pub stake: u64,
    /// 勝點加碼: coins per point of margin, B.
    pub bonus_per_point: u64,
}

impl Default for Table {
    /// The table of the seed's worked example: S = 100, B = 5.
    fn default() -> Table {
        Table {
            stake: 100,
            bonus_per_point: 5,
        }
    }
}

/// Why a record cannot be scored.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScoreError {
    /// The record does not replay.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// The coin settlement does not fit in 64 bits.
    #[error("{0}")]
    Settlement(String),
}

/// One captured piece, credited to a seat: the capturer, or for a failed attack the
/// defender's seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Credit {
    pub seat: Seat,
    /// The captured piece's letter in the game's notation.
    pub piece: char,
    pub points: u32,
}

/// What each seat has captured, and its points.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub points: [u32; MAX_SEATS],
    /// Letters, in the order of capture.
    pub captured: [String; MAX_SEATS],
}

impl Tally {
    pub fn add(&mut self, credit: Credit) {
        let i = credit.seat.index();
        self.points[i] += credit.points;
        self.captured[i].push(credit.piece);
    }

    pub fn points(&self, seat: Seat) -> u32 {
        self.points[seat.index()]
    }

    pub fn captured(&self, seat: Seat) -> &str {
        &self.captured[seat.index()]
    }
}

/// How a scored game ended: the stated result when the record gives one (a timeout or a
/// resignation is only known that way), else the one the rules derive.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ScoredResult {
    pub outcome: Outcome,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<Reason>,
}

/// A replayed and scored record.
pub struct Scored<G: Rules> {
    pub verdict: Verdict,
    pub preset: &'static str,
    pub seats: u8,
    /// How the game ended (stated, else derived); None while unfinished.
    pub result: Option<ScoredResult>,
    pub tally: Tally,
    /// The position after the last ply.
    pub last: G::Position,
    /// The first two plies (fewer in a shorter game): what [`Rules::opening`] looks at.
    pub first_plies: Vec<(G::Action, G::Effect)>,
}

/// What a game's first plies decide, as the record store files it: the opening moves, and
/// whether they double the stake (Banqi's first two flips and 門棋加倍). Games without such a
/// rule leave both empty.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opening {
    pub moves: Option<String>,
    pub doubles_stake: bool,
}

/// One seat of a scored game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatSummary {
    pub seat: Seat,
    pub name: String,
    /// Whether the record names the player (else `name` is a stand-in, "player 1" …).
    pub named: bool,
    /// The side it played (a colour, a faction), once known.
    pub side: Option<&'static str>,
    pub points: u32,
    /// Its place when the game is finished.
    pub place: Option<u8>,
}

/// A replayed and scored record of any game, as the record store and reports keep it.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub game: &'static str,
    pub preset: &'static str,
    pub verdict: Verdict,
    pub result: Option<ScoredResult>,
    pub seats: Vec<SeatSummary>,
    pub opening: Opening,
    /// The first plies as every seat saw them, to the depth asked ([`summarize_to`]).
    pub steps: Vec<Step>,
    /// Whether the game is played for coins ([`Scoring::COINS`]).
    pub coins: bool,
}

impl Summary {
    /// What the game credits the seat to move at each of its [`Summary::steps`]; nothing for
    /// an unfinished game.
    pub fn credits(&self) -> impl Iterator<Item = (&Step, Counts)> + '_ {
        let points: Vec<i64> = self.seats.iter().map(|s| s.points as i64).collect();
        super::explorer::credits(
            &self.steps,
            self.result.map(|r| r.outcome),
            points,
            self.coins,
            self.opening.doubles_stake,
        )
    }
}

/// Replays, scores and summarises `record`.
pub fn summarize<G: Rules>(record: &Record) -> Result<Summary, ReplayError> {
    summarize_to::<G>(record, 0)
}

/// [`summarize`], with the first `depth` plies as every seat saw them (the opening explorer's
/// [`Summary::steps`]) walked in the same replay.
pub fn summarize_to<G: Rules>(record: &Record, depth: u32) -> Result<Summary, ReplayError> {
    let mut walk = (depth > 0)
        .then(|| Walk::<G>::of_record(record, depth))
        .flatten();
    let scored = score::<G>(record, |ply| {
        if let Some(walk) = walk.as_mut() {
            walk.ply(ply)
        }
    })?;
    let seats = Seat::all(scored.seats)
        .map(|seat| SeatSummary {
            seat,
            name: record.player_name(seat.index()),
            named: record.players.len() > seat.index(),
            side: G::side(&scored.last, seat),
            points: scored.tally.points(seat),
            place: scored.result.map(|r| r.outcome.place(seat)),
        })
        .collect();
    Ok(Summary {
        game: G::NAME,
        preset: scored.preset,
        opening: G::opening(record, &scored.first_plies),
        result: scored.result,
        seats,
        verdict: scored.verdict,
        steps: walk.map(|w| w.steps).unwrap_or_default(),
        coins: G::COINS,
    })
}

/// Replays `record` step by step ([`Steps`]), scored as it is stepped (one replay), and says
/// a valid game in words.
pub fn steps<G: Rules>(record: &Record) -> Steps {
    let prepared = prepare::<G>(record).ok();
    let mut positions = match &prepared {
        Some(prepared) => vec![prepared.start.to_string()],
        None => Vec::new(),
    };
    let rules = prepared.map(|p| p.rules);
    let (mut actions, mut movers, mut public_actions) = (Vec::new(), Vec::new(), Vec::new());
    let scored = scored_or_verdict::<G>(record, |ply| {
        positions.push(ply.after.to_string());
        actions.push(ply.action.to_string());
        movers.push(ply.mover);
        if let Some(rules) = &rules {
            public_actions.push(G::public_action(rules, ply.action, &ply.effect, ply.after));
        }
    });
    let (verdict, summary, taken) = match scored {
        Ok(scored) => {
            let summary = crate::core::words::said(record, &scored);
            let taken = crate::core::words::taken(&scored);
            (scored.verdict, Some(summary), taken)
        }
        Err(verdict) => (*verdict, None, Vec::new()),
    };
    Steps {
        positions,
        actions,
        movers,
        public_actions,
        verdict,
        summary,
        taken,
    }
}

/// The scored result: the stated one when the record states one, else the derived one.
pub fn scored_result(record: &Record, derived: Status, seats: u8) -> Option<ScoredResult> {
    match (record.result, derived) {
        (Some(stated), _) => stated.outcome.outcome().map(|outcome| ScoredResult {
            outcome: outcome.with_seats(seats).unwrap_or(outcome),
            reason: stated.reason,
        }),
        (None, Status::Ended { end, .. }) => Some(ScoredResult {
            outcome: end.outcome,
            reason: Some(end.reason),
        }),
        (None, Status::Ongoing) => None,
    }
}

/// Replays and scores `record`, showing every ply to `watch`. An invalid record is not
/// scored: its replay error says why.
pub fn score<G: Rules>(
    record: &Record,
    watch: impl FnMut(&Ply<G>),
) -> Result<Scored<G>, ReplayError> {
    scored_or_verdict(record, watch)
        .map_err(|verdict| verdict.error.expect("a verdict with an error"))
}

/// [`score`], or, for an invalid record, its whole verdict (where its legal plies stop).
fn scored_or_verdict<G: Rules>(
    record: &Record,
    mut watch: impl FnMut(&Ply<G>),
) -> Result<Scored<G>, Box<Verdict>> {
    let mut tally = Tally::default();
    let mut started = false;
    let mut first_plies = Vec::with_capacity(2);
    let (verdict, replayed) = run::<G>(record, |ply| {
        if ply.number <= 2 {
            first_plies.push((ply.action.clone(), ply.effect));
        }
        if !started {
            G::start_credits(ply.before, |c| tally.add(c));
            started = true;
        }
        G::credits(ply.before, ply.after, &ply.effect, |c| tally.add(c));
        watch(ply);
    });
    if verdict.error.is_some() {
        return Err(Box::new(verdict));
    }
    let Replayed { m, preset, seats } = replayed.expect("a valid record was prepared");
    let last = m.position().clone();
    if !started {
        G::start_credits(&last, |c| tally.add(c));
    }
    Ok(Scored {
        result: scored_result(record, verdict.derived, seats),
        verdict,
        preset,
        seats,
        tally,
        last,
        first_plies,
    })
}

/// A series of games between the same players at one table: keeps the drawn games to carry
/// into the next one's settlement (Banqi's 和棋續盤) and counts the games.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Series {
    pub table: Table,
    /// Consecutive drawn games since the last decided one.
    pub draws: u32,
    /// Games of the series so far, unfinished ones included.
    pub games: u32,
}

impl Series {
    pub fn new(table: Table) -> Series {
        Series {
            table,
            draws: 0,
            games: 0,
        }
    }

    /// Counts the next game, which ended with `outcome` (None: unfinished, the carry stays).
    pub fn carry(&mut self, outcome: Option<Outcome>) {
        self.games += 1;
        match outcome {
            Some(o) if o.is_draw() => self.draws += 1,
            Some(_) => self.draws = 0,
            None => {}
        }
    }
}

/// The series of a set of games at one table, one per pair of players (whoever sits first):
/// what carries draws between the same two players across a file or a report.
#[derive(Clone, Debug, Default)]
pub struct SeriesBook {
    table: Table,
    series: std::collections::BTreeMap<(String, String), Series>,
}

impl SeriesBook {
    pub fn new(table: Table) -> SeriesBook {
        SeriesBook {
            table,
            series: Default::default(),
        }
    }

    /// The series between the two players, started if new.
    pub fn series(&mut self, player1: &str, player2: &str) -> &mut Series {
        let pair = if player1 <= player2 {
            (player1.to_owned(), player2.to_owned())
        } else {
            (player2.to_owned(), player1.to_owned())
        };
        let table = self.table;
        self.series
            .entry(pair)
            .or_insert_with(|| Series::new(table))
    }

    /// Every series, by pair of player names in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&(String, String), &Series)> {
        self.series.iter()
    }
}
