//! Replaying a record: the position after every ply and a verdict (valid, or the first
//! problem: a bad record, an illegal ply, or a stated result the moves do not support).

use serde::{Deserialize, Serialize};

use crate::banqi::{
    Action, Effect, End, Game, IllegalAction, Layout, Position, Reason, Ruleset, Violation,
};
use crate::record::{Record, StatedResult};

/// The derived state at the end of a replay.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Status {
    Ongoing,
    Ended {
        #[serde(flatten)]
        end: End,
        /// The ply count when it ended.
        ply: u32,
    },
}

/// What is wrong with a record that cannot be replayed at all.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum RecordProblem {
    UnsupportedGame,
    UnknownPreset,
    InvalidRuleset,
    InvalidStart,
    LayoutMismatch,
}

/// The first problem a replay found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ReplayError {
    /// The record itself is unusable (unknown preset, bad start position …).
    InvalidRecord {
        reason: RecordProblem,
        detail: String,
    },
    /// Ply `ply` (1-based) is illegal; `position` is the position before it.
    IllegalPly {
        ply: usize,
        action: String,
        reason: Violation,
        detail: String,
        position: String,
    },
    /// The moves are legal but do not support the stated result.
    ResultMismatch {
        stated: StatedResult,
        derived: Status,
        detail: String,
    },
}

impl ReplayError {
    /// The machine-readable reason code.
    pub fn code(&self) -> &'static str {
        match self {
            ReplayError::InvalidRecord { reason, .. } => match reason {
                RecordProblem::UnsupportedGame => "unsupported_game",
                RecordProblem::UnknownPreset => "unknown_preset",
                RecordProblem::InvalidRuleset => "invalid_ruleset",
                RecordProblem::InvalidStart => "invalid_start",
                RecordProblem::LayoutMismatch => "layout_mismatch",
            },
            ReplayError::IllegalPly { reason, .. } => reason.code(),
            ReplayError::ResultMismatch { .. } => "result_mismatch",
        }
    }
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplayError::InvalidRecord { detail, .. } => write!(f, "{}: {detail}", self.code()),
            ReplayError::IllegalPly {
                ply,
                action,
                detail,
                ..
            } => {
                write!(f, "ply {ply} {action:?}: {}: {detail}", self.code())
            }
            ReplayError::ResultMismatch { detail, .. } => write!(f, "result_mismatch: {detail}"),
        }
    }
}

/// The verdict on one record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Verdict {
    pub valid: bool,
    /// Plies replayed legally.
    pub plies: usize,
    /// How the game stands after those plies, by the rules.
    pub derived: Status,
    /// The position after those plies.
    pub final_position: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ReplayError>,
}

/// A record made ready to replay: its ruleset, start and layout checked.
pub struct Prepared {
    pub rules: Ruleset,
    pub start: Position,
    pub layout: Option<Layout>,
}

/// Checks the parts of a record that come before the first ply.
pub fn prepare(record: &Record) -> Result<Prepared, ReplayError> {
    let bad = |reason, detail: String| ReplayError::InvalidRecord { reason, detail };
    if record.game != "banqi" {
        return Err(bad(
            RecordProblem::UnsupportedGame,
            format!(
                "game {:?} is not supported yet (only \"banqi\")",
                record.game
            ),
        ));
    }
    let rules = Ruleset::from_preset(&record.preset, &record.options).map_err(|e| match e {
        crate::banqi::RulesetError::UnknownPreset(_) => {
            bad(RecordProblem::UnknownPreset, e.to_string())
        }
        _ => bad(RecordProblem::InvalidRuleset, e.to_string()),
    })?;
    let start = match &record.start {
        None => Position::start(),
        Some(s) => s
            .parse()
            .map_err(|e| bad(RecordProblem::InvalidStart, format!("start position: {e}")))?,
    };
    if let Some(layout) = &record.layout {
        layout.fits(&start).map_err(|e| {
            bad(
                RecordProblem::LayoutMismatch,
                format!("start position: {e}"),
            )
        })?;
    }
    Ok(Prepared {
        rules,
        start,
        layout: record.layout,
    })
}

/// One legal ply of a replay, as [`replay_with`] reports it.
pub struct Ply<'a> {
    /// 1-based.
    pub number: usize,
    /// The action as played, with every revealed identity filled in.
    pub action: &'a Action,
    pub effect: Effect,
    pub before: &'a Position,
    pub after: &'a Position,
}

/// Replays `record`, calling `after_ply` after every legal ply.
pub fn replay_with(record: &Record, after_ply: impl FnMut(&Ply)) -> Verdict {
    run(record, after_ply).0
}

/// Replays a valid `record` to the game after its last ply (with the history the
/// repetition and long-chase rules need); an invalid record gives its error.
pub fn final_game(record: &Record) -> Result<Game, ReplayError> {
    match run(record, |_| {}) {
        (Verdict { error: Some(e), .. }, _) => Err(e),
        (_, game) => Ok(game.expect("a record without error was prepared")),
    }
}

/// The replay: the verdict, and the game as far as it went (None when the record could not
/// be prepared).
fn run(record: &Record, mut after_ply: impl FnMut(&Ply)) -> (Verdict, Option<Game>) {
    let prepared = match prepare(record) {
        Ok(p) => p,
        Err(error) => {
            let verdict = Verdict {
                valid: false,
                plies: 0,
                derived: Status::Ongoing,
                final_position: Position::start().to_string(),
                error: Some(error),
            };
            return (verdict, None);
        }
    };
    let mut game = Game::from_position(prepared.rules, prepared.start);
    let mut error = None;
    let mut ended: Option<End> = None;
    let mut plies = 0;
    for (i, text) in record.actions.iter().enumerate() {
        ended = game.end();
        let before = *game.position();
        let illegal = |e: IllegalAction| ReplayError::IllegalPly {
            ply: i + 1,
            action: text.clone(),
            reason: e.reason,
            detail: e.detail,
            position: before.to_string(),
        };
        if let Some(end) = ended {
            let detail = format!(
                "the game already ended after ply {i} ({} by {})",
                end.outcome.describe(),
                end.reason.code()
            );
            error = Some(illegal(IllegalAction::new(Violation::GameOver, detail)));
            break;
        }
        let step = text
            .parse::<Action>()
            .map_err(|e| IllegalAction::new(Violation::MalformedNotation, e.to_string()))
            .and_then(|a| fill_from_layout(a, game.position(), prepared.layout.as_ref()))
            .and_then(|a| game.play(&a).map(|effect| (a, effect)));
        let (action, effect) = match step {
            Ok(played) => played,
            Err(e) => {
                error = Some(illegal(e));
                break;
            }
        };
        plies = i + 1;
        after_ply(&Ply {
            number: plies,
            action: &action,
            effect,
            before: &before,
            after: game.position(),
        });
    }
    if error.is_none() {
        ended = game.end();
    }
    let derived = match ended {
        Some(end) => Status::Ended {
            end,
            ply: game.position().ply(),
        },
        None => Status::Ongoing,
    };
    if error.is_none()
        && let Some(stated) = record.result
    {
        error = check_result(stated, derived).err();
    }
    let verdict = Verdict {
        valid: error.is_none(),
        plies,
        derived,
        final_position: game.position().to_string(),
        error,
    };
    (verdict, Some(game))
}

/// Replays `record` and keeps the position after every ply.
pub fn replay(record: &Record) -> (Vec<Position>, Verdict) {
    let mut positions = Vec::with_capacity(record.actions.len());
    let verdict = replay_with(record, |ply| positions.push(*ply.after));
    (positions, verdict)
}

/// Validates `record`.
pub fn validate(record: &Record) -> Verdict {
    replay_with(record, |_| {})
}

/// Fills in (or checks) every revealed identity from the layout, when one is known.
pub fn fill_from_layout(
    mut action: Action,
    pos: &Position,
    layout: Option<&Layout>,
) -> Result<Action, IllegalAction> {
    let Some(layout) = layout else {
        return Ok(action);
    };
    let fill = |sq, reveal: &mut Option<crate::banqi::Piece>| {
        let truth = layout.piece(sq);
        match *reveal {
            Some(p) if p != truth => Err(IllegalAction::new(
                Violation::RevealContradictsLayout,
                format!("{sq} is said to reveal {p}, but the layout has {truth} there"),
            )),
            _ => {
                *reveal = Some(truth);
                Ok(())
            }
        }
    };
    match &mut action {
        Action::Flip { square, reveal } => fill(*square, reveal)?,
        Action::Move(path) => {
            for hop in path.hops_mut() {
                if pos.covered().contains(hop.to()) {
                    let mut reveal = hop.reveal();
                    fill(hop.to(), &mut reveal)?;
                    hop.set_reveal(reveal);
                }
            }
        }
    }
    Ok(action)
}

fn describe(status: Status) -> String {
    match status {
        Status::Ongoing => "the game is still going on".to_owned(),
        Status::Ended { end, ply } => format!(
            "{} by {} at ply {ply}",
            end.outcome.describe(),
            end.reason.code()
        ),
    }
}

/// Whether a stated rules ending names the derived one. A player whose colour is eliminated
/// has no legal action either, and TCGA writes both as `NoMove`: a stated `no_move` accepts
/// an elimination.
fn same_reason(stated: Reason, derived: Reason) -> bool {
    stated == derived || (stated == Reason::NoMove && derived == Reason::Elimination)
}

/// Whether the derived status supports the stated result.
pub fn check_result(stated: StatedResult, derived: Status) -> Result<(), ReplayError> {
    let mismatch = |why: String| {
        Err(ReplayError::ResultMismatch {
            stated,
            derived,
            detail: format!("{why}; the replay says {}", describe(derived)),
        })
    };
    let ended = match derived {
        Status::Ended { end, .. } => Some(end),
        Status::Ongoing => None,
    };
    let Some(outcome) = stated.outcome.outcome() else {
        return match ended {
            None => Ok(()),
            Some(_) => mismatch("the record says the game is ongoing".to_owned()),
        };
    };
    let said = format!(
        "the record says {}{}",
        outcome.describe(),
        stated
            .reason
            .map(|r| format!(" by {}", r.code()))
            .unwrap_or_default()
    );
    match (stated.reason, ended) {
        // An ending the rules decide must be the ending the rules reached.
        (Some(reason), _) if reason.is_derived() => match ended {
            Some(end)
                if same_reason(reason, end.reason)
                    && end.outcome == outcome
                    && stated.period.is_none_or(|p| Some(p) == end.period) =>
            {
                Ok(())
            }
            _ => mismatch(said),
        },
        // A timeout, resignation, agreement or forfeit happens in a game still going on.
        (Some(_), Some(_)) => mismatch(format!(
            "{said}, but the game had already ended by the rules"
        )),
        (Some(_), None) => Ok(()),
        (None, Some(end)) if end.outcome != outcome => mismatch(said),
        (None, _) => Ok(()),
    }
}
