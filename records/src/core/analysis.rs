//! What a game's engine answers, for any game: the limits of a search, the best action, its
//! score in the units an app shows (a win/draw/loss estimate, a centipawn-like number, a
//! forced result in plies), the expected line and every action scored (docs/engine.md).
//!
//! A game's engine is its [`Search`] part. It reads only what the side to move may know:
//! the referee asks it with the seat's knowledge, never the hidden truth.

use serde::Serialize;

use super::rules::Truth;
use super::seat::Seat;

/// What stops a search: the first limit reached. With none given a game's engine picks a
/// small default (Banqi: depth 4).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Plies ahead.
    pub depth: Option<u32>,
    /// Positions visited.
    pub nodes: Option<u64>,
    /// Wall time in milliseconds.
    pub millis: Option<u64>,
}

impl Limits {
    /// These limits held within `cap` (each limit the smaller of the two; a cap on what the
    /// request left open applies too), and whether the cap changed anything.
    pub fn capped(&self, cap: &Limits) -> (Limits, bool) {
        fn min(asked: Option<u64>, cap: Option<u64>) -> (Option<u64>, bool) {
            match (asked, cap) {
                (Some(a), Some(c)) if a > c => (Some(c), true),
                (None, Some(c)) => (Some(c), false),
                (a, _) => (a, false),
            }
        }
        let (nodes, cut_nodes) = min(self.nodes, cap.nodes);
        let (millis, cut_millis) = min(self.millis, cap.millis);
        let (depth, cut_depth) = min(self.depth.map(u64::from), cap.depth.map(u64::from));
        (
            Limits {
                depth: depth.map(|d| d as u32),
                nodes,
                millis,
            },
            cut_nodes || cut_millis || cut_depth,
        )
    }
}

/// How good a position or action is for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Score {
    /// A centipawn-like number: 100 is what a soldier is worth at the start of the game;
    /// ±100,000 (less the plies) for a result the search sees forced.
    pub centipawns: i64,
    /// Plies to a forced result: positive when the side to move wins, negative when it
    /// loses; absent when the search sees none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forced_in: Option<i64>,
    /// The estimated chances of the side to move: win, draw, loss (they add up to 1).
    pub win: f64,
    pub draw: f64,
    pub loss: f64,
}

impl Score {
    /// The same score from the other side of a two-seat game: its chances swapped, its
    /// centipawns and forced result negated.
    pub fn turned(self) -> Score {
        Score {
            centipawns: -self.centipawns,
            forced_in: self.forced_in.map(|p| -p),
            win: self.loss,
            draw: self.draw,
            loss: self.win,
        }
    }

    /// The expected score of its chances: a win 1, a draw ½.
    pub fn expected(self) -> f64 {
        self.win + self.draw / 2.0
    }
}

/// The engine accepts a draw offer when its expected score is at most this (it stands
/// worse; docs/engine.md).
pub const DRAW_ACCEPT_EXPECTED: f64 = 0.45;
/// … or when a draw is at least this likely (the position is dead even).
pub const DRAW_ACCEPT_DRAWN: f64 = 0.8;

/// Whether the engine, whose chances are `score`, accepts a draw offer: when it stands worse
/// (an expected score of at most [`DRAW_ACCEPT_EXPECTED`]) or the game is all but drawn (a
/// draw at least [`DRAW_ACCEPT_DRAWN`] likely); it plays on otherwise.
pub fn accepts_draw(score: Score) -> bool {
    score.expected() <= DRAW_ACCEPT_EXPECTED || score.draw >= DRAW_ACCEPT_DRAWN
}

/// The centipawns of a forced result, less the plies it takes.
pub const FORCED: i64 = 100_000;

/// How centipawns become chances (docs/engine.md: fitted to the engine's self-play):
/// the expected score is the logistic of `centipawns / SCALE`; the draw's share of what is
/// left undecided is at most `DRAWISH`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Calibration {
    pub scale: f64,
    pub drawish: f64,
}

impl Score {
    /// A result the search sees forced in `plies` (0: the game is over), won or lost for
    /// the side to move.
    pub fn forced(won: bool, plies: u32) -> Score {
        let plies = i64::from(plies);
        Score {
            centipawns: if won { FORCED - plies } else { plies - FORCED },
            forced_in: Some(if won { plies } else { -plies }),
            win: if won { 1.0 } else { 0.0 },
            draw: 0.0,
            loss: if won { 0.0 } else { 1.0 },
        }
    }

    /// A score from centipawns, the chances by `calibration`.
    pub fn new(centipawns: i64, calibration: &Calibration) -> Score {
        let expected = 1.0 / (1.0 + (-(centipawns as f64) / calibration.scale).exp());
        let draw = calibration.drawish * 2.0 * expected.min(1.0 - expected);
        Score {
            centipawns,
            forced_in: None,
            win: round(expected - draw / 2.0),
            draw: round(draw),
            loss: round(1.0 - expected - draw / 2.0),
        }
    }

    /// A forced draw (by the rules: no progress, repetition).
    pub fn drawn() -> Score {
        Score {
            centipawns: 0,
            forced_in: None,
            win: 0.0,
            draw: 1.0,
            loss: 0.0,
        }
    }
}

/// Chances to three decimals (what an evaluation bar shows, and stable in tests).
fn round(p: f64) -> f64 {
    (p.clamp(0.0, 1.0) * 1000.0).round() / 1000.0
}

/// An action and its score.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ScoredAction {
    /// In the game's notation; a flip or any action that reveals is written without what
    /// it reveals (the search averages over what it may be).
    pub action: String,
    pub score: Score,
}

/// A search's answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Analysis {
    /// The action to play; absent when the game is over at the position.
    pub best: Option<String>,
    /// The position's score for the side to move (the best action's).
    pub score: Score,
    /// The expected line from the best action, as far as no chance (a flip) interrupts it.
    pub line: Vec<String>,
    /// The legal actions with their scores, best first (the first `top` of them when asked).
    pub actions: Vec<ScoredAction>,
    /// The deepest search completed, in plies.
    pub depth: u32,
    /// Positions searched.
    pub nodes: u64,
    /// Time the search took.
    pub millis: u64,
    /// Whether a limit stopped the search midway (the answer is then the best so far).
    pub stopped: bool,
}

impl Analysis {
    /// The analysis of a finished game: no action, the result as `to_move` has it.
    pub fn finished(outcome: super::Outcome, to_move: Seat) -> Analysis {
        let score = if outcome.is_draw() {
            Score::drawn()
        } else {
            Score::forced(outcome.winner() == Some(to_move), 0)
        };
        Analysis {
            best: None,
            score,
            line: Vec::new(),
            actions: Vec::new(),
            depth: 0,
            nodes: 0,
            millis: 0,
            stopped: false,
        }
    }
}

/// Why a game cannot be analysed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnalysisError {
    /// The game has no engine yet.
    #[error("{0} has no engine yet (docs/engine.md says which games have one)")]
    NoEngine(&'static str),
}

/// A game's engine (docs/engine.md). A game without one implements it empty and answers
/// [`AnalysisError::NoEngine`].
pub trait Search: Truth {
    /// Searches the position of `m` for the side to move within `limits`, reading only what
    /// `seat` may know (None: the side to move). `m` may hold the hidden truth (the
    /// referee's): the engine must read only that seat's part of it.
    fn analyze(
        m: &Self::Match,
        seat: Option<Seat>,
        limits: &Limits,
    ) -> Result<Analysis, AnalysisError> {
        let _ = (m, seat, limits);
        Err(AnalysisError::NoEngine(Self::TITLE))
    }

    /// The action a player in `seat` chooses at `m` within `limits`: the analysis's best. An
    /// engine whose analysis does more than a move needs (reading every action's score)
    /// leaves that out here.
    fn decide(
        m: &Self::Match,
        seat: Option<Seat>,
        limits: &Limits,
    ) -> Result<Option<String>, AnalysisError> {
        Ok(Self::analyze(m, seat, limits)?.best)
    }
}
