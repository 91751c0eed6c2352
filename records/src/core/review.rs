//! A game's review by the engine, ply by ply: for the start and the position after every ply,
//! the score from player 1's side and the engine's choice there; in two-seat games each action
//! played judged against the actions the **same** search scored before it: what the decision
//! gave up (never anything for the engine's own choice), what chance gave or took when the
//! action revealed something (what came less what the search expected of it), and a word for
//! it; a forced result said as one, never as centipawns. `anqi analyze` prints it, the service
//! answers it (`POST /v1/review`), the viewer draws it.

use serde::Serialize;
use thiserror::Error;

use super::analysis::{Analysis, AnalysisError, Limits, Score};
use super::record::Record;
use super::replay::{ReplayError, prepare, validate};
use super::rules::Rules;
use super::seat::Seat;
use super::{Engine as _, Turn as _};

/// Why a record cannot be reviewed.
#[derive(Debug, Error)]
pub enum ReviewError {
    /// The record does not replay (its plies are reviewed only once they are all legal).
    #[error(transparent)]
    Record(ReplayError),
    #[error("ply {ply}: {message}")]
    Ply { ply: usize, message: String },
    #[error(transparent)]
    Engine(AnalysisError),
}

/// One line of a review: the position after `ply` (0: the start).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReviewedPly {
    pub ply: usize,
    /// The action that made the position (none at the start).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    pub to_move: Seat,
    /// The side to move's score.
    pub score: Score,
    /// Two seats: the same score from player 1's side (turned when player 2 is to move).
    /// Three seats have none: a search scores the position for the side to move only, and
    /// turning it for one seat would misread it (a seat whose recall locked first place
    /// showed 40% to win).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player1: Option<Score>,
    /// The engine's choice for the side to move (none once the game is over).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best: Option<String>,
    /// Centipawns the decision gave up: the best action's score less the played one's, both
    /// from the search before it (two seats; 0 for the engine's choice; absent where a forced
    /// result is at stake: `said` says it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lost: Option<i64>,
    /// Centipawns chance gave the mover (taken when negative): the score after a revealing
    /// action less what the search expected of it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub luck: Option<i64>,
    /// The action judged in words: `the engine's choice`, `as good as the engine's choice`,
    /// `good`, `inaccuracy`, `mistake`,
    /// `blunder`, `missed a forced win in 5`, `walks into a forced loss in 3` ….
    #[serde(skip_serializing_if = "Option::is_none")]
    pub said: Option<String>,
    pub depth: u32,
    pub nodes: u64,
}

/// The analysis of the start and of the position after every ply of a valid record.
pub fn review<G: Rules>(record: &Record, limits: &Limits) -> Result<Vec<ReviewedPly>, ReviewError> {
    let mut checked = record.clone();
    // The review goes as far as the record's plies; its stated result is not its business.
    checked.result = None;
    let verdict = validate::<G>(&checked);
    if let Some(e) = verdict.error {
        return Err(ReviewError::Record(e));
    }
    let prepared = prepare::<G>(record).map_err(ReviewError::Record)?;
    let two_seats = G::seats(&prepared.rules) == 2;
    let mut m = G::Match::from_position(prepared.rules, prepared.start);
    let mut lines = Vec::with_capacity(record.actions.len() + 1);
    let mut before: Option<Analysis> = None;
    for ply in 0..=record.actions.len() {
        let mut action = None;
        // The played action among those the search before it scored, and whether it revealed
        // something (its notation then says what: `b8(G)` for the scored `b8`).
        let mut played: Option<(Score, bool)> = None;
        if ply > 0 {
            let text = &record.actions[ply - 1];
            let hidden = prepared.hidden.as_ref();
            let reveal =
                |text: &str| G::parse_action(text).and_then(|a| G::reveal(a, m.position(), hidden));
            let parsed = reveal(text).map_err(|e| ReviewError::Ply {
                ply,
                message: e.to_string(),
            })?;
            // The same action once revealed; or, when the record has no hidden truth to reveal
            // with, written the same but for what it revealed (`b8` for `b8(p)`).
            let same = |scored: &str| {
                reveal(scored).is_ok_and(|a| a == parsed)
                    || text
                        .strip_prefix(scored)
                        .is_some_and(|rest| rest.starts_with('('))
            };
            played = before.as_ref().and_then(|b| {
                b.actions
                    .iter()
                    .find(|s| same(&s.action))
                    .map(|s| (s.score, s.action != *text))
            });
            m.play(&parsed).map_err(|e| ReviewError::Ply {
                ply,
                message: e.to_string(),
            })?;
            action = Some(text.clone());
        }
        let analysis = G::analyze(&m, None, limits).map_err(ReviewError::Engine)?;
        let to_move = m.position().to_move();
        let judged = match (&before, played, two_seats) {
            (Some(b), Some((score, chance)), true) => {
                let best = b.actions.first().map_or(b.score, |a| a.score);
                let chosen = b.best.as_deref().is_some_and(|best| {
                    let text = record.actions[ply - 1].as_str();
                    text == best || text.strip_prefix(best).is_some_and(|r| r.starts_with('('))
                });
                let came = analysis.score.turned();
                Some(judge(best, score, came, chance, chosen))
            }
            _ => None,
        };
        let (lost, luck, said) = judged.unwrap_or_default();
        lines.push(ReviewedPly {
            ply,
            action,
            to_move,
            score: analysis.score,
            player1: two_seats.then(|| {
                if to_move == Seat::FIRST {
                    analysis.score
                } else {
                    analysis.score.turned()
                }
            }),
            best: analysis.best.clone(),
            lost,
            luck,
            said,
            depth: analysis.depth,
            nodes: analysis.nodes,
        });
        before = Some(analysis);
    }
    Ok(lines)
}

/// How much worse than the best an action may be, in expected score (a win 1, a draw ½),
/// and still be called good, an inaccuracy, a mistake: lichess's steps of winning chances
/// (0.1, 0.2, 0.3 on a scale of −1 to 1) halved to expected score.
pub const INACCURACY: f64 = 0.05;
pub const MISTAKE: f64 = 0.10;
pub const BLUNDER: f64 = 0.15;

/// A played action judged against the best of the same search (both the mover's scores from
/// the position before it), with what came of it (`came`: the search's score after it, the
/// mover's): the centipawns the decision gave up, chance's centipawns when the action revealed
/// something (`chance`), and the word. The engine's own choice (`chosen`) gives up nothing;
/// forced results are said, not counted; a forced result the search after the action found
/// and the one before did not is the action's own when no chance came between.
fn judge(
    best: Score,
    played: Score,
    came: Score,
    chance: bool,
    chosen: bool,
) -> (Option<i64>, Option<i64>, Option<String>) {
    let played = if !chance && came.forced_in.is_some() && played.forced_in.is_none() {
        came
    } else {
        played
    };
    let wins = |s: Score| s.forced_in.filter(|&n| n > 0);
    let loses = |s: Score| s.forced_in.filter(|&n| n < 0).map(|n| -n);
    let luck = (chance && came.forced_in.is_none() && played.forced_in.is_none())
        .then(|| came.centipawns - played.centipawns);
    let forced = match (wins(best), wins(played), loses(played), loses(best)) {
        (Some(_), Some(n), _, _) => Some(format!("wins by force in {n}")),
        (Some(n), None, _, _) if !chosen => Some(format!("missed a forced win in {n}")),
        (_, _, Some(_), Some(_)) => Some("lost whatever is played".to_owned()),
        (_, _, Some(n), None) if !chosen => Some(format!("walks into a forced loss in {n}")),
        _ => None,
    };
    if let Some(said) = forced {
        let said = if chosen {
            format!("the engine's choice: {said}")
        } else {
            said
        };
        return (None, luck, Some(said));
    }
    if best.forced_in.is_some() || played.forced_in.is_some() {
        return (None, luck, chosen.then(|| "the engine's choice".to_owned()));
    }
    let lost = if chosen {
        0
    } else {
        (best.centipawns - played.centipawns).max(0)
    };
    let drop = best.expected() - played.expected();
    let said = if chosen {
        "the engine's choice"
    } else if lost == 0 {
        "as good as the engine's choice"
    } else if drop >= BLUNDER {
        "blunder"
    } else if drop >= MISTAKE {
        "mistake"
    } else if drop >= INACCURACY {
        "inaccuracy"
    } else {
        "good"
    };
    (Some(lost), luck, Some(said.to_owned()))
}
