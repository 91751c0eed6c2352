//! Replaying a record of any game: the position after every ply and a [`Verdict`] (valid, or
//! the first problem: a bad record, an illegal ply, or a stated result the moves do not
//! support). The same verdict shape for every game.

use serde::Serialize;

use super::outcome::{End, Outcome};
use super::record::{Record, StatedResult};
use super::rules::{Rules, RulesetError, ruleset};
use super::seat::Seat;
use super::violation::{IllegalAction, Violation};
use crate::core::{Engine as _, Turn as _};

/// The derived state at the end of a replay.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
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

impl Status {
    pub fn end(self) -> Option<End> {
        match self {
            Status::Ended { end, .. } => Some(end),
            Status::Ongoing => None,
        }
    }
}

/// What is wrong with a record that cannot be replayed at all.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum RecordProblem {
    /// `game` names no game of the toolkit.
    UnsupportedGame,
    UnknownPreset,
    /// The options are not the game's, or make an impossible ruleset.
    InvalidRuleset,
    InvalidStart,
    /// The hidden truth does not fit the start position.
    LayoutMismatch,
    /// The hidden truth (`layout`) is not written as the game writes it.
    InvalidLayout,
    /// More players than the game has seats.
    InvalidPlayers,
}

impl RecordProblem {
    pub fn code(self) -> &'static str {
        match self {
            RecordProblem::UnsupportedGame => "unsupported_game",
            RecordProblem::UnknownPreset => "unknown_preset",
            RecordProblem::InvalidRuleset => "invalid_ruleset",
            RecordProblem::InvalidStart => "invalid_start",
            RecordProblem::LayoutMismatch => "layout_mismatch",
            RecordProblem::InvalidLayout => "invalid_layout",
            RecordProblem::InvalidPlayers => "invalid_players",
        }
    }
}

/// The first problem a replay found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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
            ReplayError::InvalidRecord { reason, .. } => reason.code(),
            ReplayError::IllegalPly { reason, .. } => reason.code(),
            ReplayError::ResultMismatch { .. } => "result_mismatch",
        }
    }

    pub fn invalid(reason: RecordProblem, detail: impl Into<String>) -> ReplayError {
        ReplayError::InvalidRecord {
            reason,
            detail: detail.into(),
        }
    }
}

impl std::error::Error for ReplayError {}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplayError::InvalidRecord { detail, .. } => write!(f, "{}: {detail}", self.code()),
            ReplayError::IllegalPly {
                ply,
                action,
                detail,
                ..
            } => write!(f, "ply {ply} {action:?}: {}: {detail}", self.code()),
            ReplayError::ResultMismatch { detail, .. } => write!(f, "result_mismatch: {detail}"),
        }
    }
}

/// The verdict on one record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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

/// A record made ready to replay: its ruleset, start and hidden truth checked.
pub struct Prepared<G: Rules> {
    /// The preset's name (the game's default when the record names none).
    pub preset: &'static str,
    pub rules: G::Ruleset,
    pub start: G::Position,
    pub hidden: Option<G::Hidden>,
}

/// Checks the parts of a record that come before the first ply.
pub fn prepare<G: Rules>(record: &Record) -> Result<Prepared<G>, ReplayError> {
    use RecordProblem::*;
    if record.game != G::NAME {
        return Err(ReplayError::invalid(
            UnsupportedGame,
            format!("a {} record cannot be replayed as {}", record.game, G::NAME),
        ));
    }
    let rules = ruleset::<G>(record.preset.as_deref(), &record.options).map_err(|e| match e {
        RulesetError::UnknownPreset { .. } => ReplayError::invalid(UnknownPreset, e.to_string()),
        RulesetError::Malformed(_) | RulesetError::Invalid(_) => {
            ReplayError::invalid(InvalidRuleset, e.to_string())
        }
    })?;
    let preset = match record.preset.as_deref() {
        None => G::PRESETS[0].name,
        Some(name) => {
            G::PRESETS
                .iter()
                .find(|p| p.name == name)
                .expect("the ruleset was found")
                .name
        }
    };
    let seats = G::seats(&rules) as usize;
    if record.players.len() > seats {
        return Err(ReplayError::invalid(
            InvalidPlayers,
            format!(
                "{} names {seats} players; this record lists {}",
                G::TITLE,
                record.players.len()
            ),
        ));
    }
    let hidden = match &record.layout {
        None => None,
        Some(value) => Some(
            G::parse_hidden(value)
                .map_err(|e| ReplayError::invalid(InvalidLayout, format!("layout: {e}")))?,
        ),
    };
    let start = match &record.start {
        None => G::start(&rules, hidden.as_ref())
            .map_err(|e| ReplayError::invalid(InvalidStart, format!("start position: {e}")))?,
        Some(text) => G::parse_position(text)
            .map_err(|e| ReplayError::invalid(InvalidStart, format!("start position: {e}")))?,
    };
    G::position_fits(&rules, &start)
        .map_err(|e| ReplayError::invalid(InvalidStart, format!("start position: {e}")))?;
    if let Some(hidden) = &hidden {
        G::hidden_fits(hidden, &start)
            .map_err(|e| ReplayError::invalid(LayoutMismatch, format!("start position: {e}")))?;
    }
    Ok(Prepared {
        preset,
        rules,
        start,
        hidden,
    })
}

/// One legal ply of a replay, as [`replay_with`] shows it.
pub struct Ply<'a, G: Rules> {
    /// 1-based.
    pub number: usize,
    pub mover: Seat,
    /// The action as played, with every revealed identity filled in.
    pub action: &'a G::Action,
    pub effect: G::Effect,
    pub before: &'a G::Position,
    pub after: &'a G::Position,
}

/// Replays `record`, calling `after_ply` after every legal ply.
pub fn replay_with<G: Rules>(record: &Record, after_ply: impl FnMut(&Ply<G>)) -> Verdict {
    run::<G>(record, after_ply).0
}

/// What a replay ends with besides its verdict: the match after the last legal ply, and the
/// record's preset and seats (so that nobody reads the ruleset twice).
pub struct Replayed<G: Rules> {
    pub m: G::Match,
    pub preset: &'static str,
    pub seats: u8,
}

/// Replays a valid `record` to the match after its last ply (with the history the rules
/// need); an invalid record gives its error.
pub fn final_match<G: Rules>(record: &Record) -> Result<G::Match, ReplayError> {
    match run::<G>(record, |_| {}) {
        (Verdict { error: Some(e), .. }, _) => Err(e),
        (_, replayed) => Ok(replayed.expect("a record without error was prepared").m),
    }
}

/// Replays `record` and keeps the position after every ply.
pub fn replay<G: Rules>(record: &Record) -> (Vec<G::Position>, Verdict) {
    let mut positions = Vec::with_capacity(record.actions.len());
    let verdict = replay_with::<G>(record, |ply| positions.push(ply.after.clone()));
    (positions, verdict)
}

/// A record's replay step by step, for a viewer: every position from the start, the actions
/// as played (each revealed identity written out) and who played them, and the verdict.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Steps {
    /// The start, then the position after each legal ply (one more than `actions`); empty when
    /// the record cannot be prepared (its verdict says why).
    pub positions: Vec<String>,
    /// The legal plies' actions as played.
    pub actions: Vec<String>,
    /// Who played each of them.
    pub movers: Vec<Seat>,
    /// Each of them as every seat saw it (the opening explorer's actions: a dark Luzhanqi
    /// attack with the referee's announcement, `c6-c7:win`; elsewhere the action as played).
    pub public_actions: Vec<String>,
    /// The record's verdict: where its legal plies stop, and why.
    pub verdict: Verdict,
    /// A valid record's game in words, for people (`crate::core::words::said`); absent for an
    /// invalid one (its verdict says why).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// A valid record's pieces taken, seat by seat (empty for an invalid one).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub taken: Vec<crate::core::words::Taken>,
}

/// Validates `record`.
pub fn validate<G: Rules>(record: &Record) -> Verdict {
    replay_with::<G>(record, |_| {})
}

/// The replay: the verdict, and the match as far as it went (None when the record could not
/// be prepared).
pub fn run<G: Rules>(
    record: &Record,
    mut after_ply: impl FnMut(&Ply<G>),
) -> (Verdict, Option<Replayed<G>>) {
    let prepared = match prepare::<G>(record) {
        Ok(p) => p,
        Err(error) => {
            let verdict = Verdict {
                valid: false,
                plies: 0,
                derived: Status::Ongoing,
                final_position: G::start(&G::PRESETS[0].ruleset, None)
                    .map(|p| p.to_string())
                    .unwrap_or_default(),
                error: Some(error),
            };
            return (verdict, None);
        }
    };
    let seats = G::seats(&prepared.rules);
    let mut m = G::Match::from_position(prepared.rules, prepared.start);
    let mut error = None;
    let mut ended: Option<End> = None;
    let mut plies = 0;
    for (i, text) in record.actions.iter().enumerate() {
        // Whether the side to move has a legal action is a search; the ply played shows
        // it has one, so a game that can tells the other endings apart first, and searches
        // only when the ply is refused.
        let movable = m.end_when_movable();
        ended = match movable {
            Some(None) => None,
            _ => m.end(),
        };
        let before = m.position().clone();
        let illegal = |e: IllegalAction| ReplayError::IllegalPly {
            ply: i + 1,
            action: text.clone(),
            reason: e.reason,
            detail: e.detail,
            position: before.to_string(),
        };
        let game_over = |end: End| {
            let detail = format!(
                "the game already ended after ply {i} ({})",
                crate::core::words::end::<G>(end)
            );
            illegal(IllegalAction::new(Violation::GAME_OVER, detail))
        };
        if let Some(end) = ended {
            error = Some(game_over(end));
            break;
        }
        let mover = before.to_move();
        let step = G::parse_action(text)
            .and_then(|a| G::reveal(a, &before, prepared.hidden.as_ref()))
            .and_then(|a| m.play(&a).map(|effect| (a, effect)));
        let (action, effect) = match step {
            Ok(played) => played,
            Err(e) => {
                ended = movable.and_then(|_| m.end());
                error = Some(match ended {
                    Some(end) => game_over(end),
                    None => illegal(e),
                });
                break;
            }
        };
        plies = i + 1;
        after_ply(&Ply {
            number: plies,
            mover,
            action: &action,
            effect,
            before: &before,
            after: m.position(),
        });
    }
    if error.is_none() {
        ended = m.end();
    }
    let derived = match ended {
        Some(end) => Status::Ended {
            end,
            ply: m.position().ply(),
        },
        None => Status::Ongoing,
    };
    if error.is_none()
        && let Some(stated) = record.result
    {
        error = check_result::<G>(stated, derived, seats).err();
    }
    let verdict = Verdict {
        valid: error.is_none(),
        plies,
        derived,
        final_position: m.position().to_string(),
        error,
    };
    let replayed = Replayed {
        m,
        preset: prepared.preset,
        seats,
    };
    (verdict, Some(replayed))
}

fn describe<G: Rules>(status: Status) -> String {
    match status {
        Status::Ongoing => "the game is still going on".to_owned(),
        Status::Ended { end, ply } => {
            format!("{} at ply {ply}", crate::core::words::end::<G>(end))
        }
    }
}

/// Whether the derived status supports the stated result of a game of `seats`.
pub fn check_result<G: Rules>(
    stated: StatedResult,
    derived: Status,
    seats: u8,
) -> Result<(), ReplayError> {
    let mismatch = |why: String| {
        Err(ReplayError::ResultMismatch {
            stated,
            derived,
            detail: format!("{why}; the replay says {}", describe::<G>(derived)),
        })
    };
    let ended = derived.end();
    let Some(outcome) = stated.outcome.outcome() else {
        return match ended {
            None => Ok(()),
            Some(_) => mismatch("the record says the game is ongoing".to_owned()),
        };
    };
    let Some(outcome) = outcome.with_seats(seats) else {
        return mismatch(format!(
            "the record ranks {} seats; this game has {seats}",
            outcome.seats()
        ));
    };
    let said = format!(
        "the record says {}",
        match stated.reason {
            Some(reason) => crate::core::words::result::<G>(
                crate::core::ScoredResult {
                    outcome,
                    reason: Some(reason),
                },
                |s| s.to_string()
            ),
            None => crate::core::words::outcome(outcome, |s| s.to_string()),
        }
    );
    let same = |end: &End, outcome: Outcome| end.outcome == outcome;
    match (stated.reason, ended) {
        // An ending the rules decide must be the ending the rules reached.
        (Some(reason), _) if reason.is_derived() => match ended {
            Some(end)
                if G::reason_matches(reason, end.reason)
                    && same(&end, outcome)
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
        (None, Some(end)) if !same(&end, outcome) => mismatch(said),
        (None, _) => Ok(()),
    }
}
