//! Scoring a Luzhanqi game: Luzhanqi has no piece points, so a game's score is what each side
//! removed and lost, and which piece took (or carried home) the flag.

use serde::Serialize;

use crate::core::scoring::{ScoredResult, score};
use crate::core::{Credit, Reason, Record, ScoreError, Scoring, Seat, Table};

use super::pieces::{Combat, Piece, Role, Side};
use super::play::Effect;
use super::position::{FlagState, Position};
use super::rules::Luzhanqi;
use crate::core::Turn as _;

/// One seat's score.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = LuzhanqiSeatScore))]
pub struct SeatScore {
    pub seat: Seat,
    /// `red` or `black`, once known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub side: Option<&'static str>,
    /// The enemy pieces it removed, as letters in order.
    pub removed: String,
    /// How many of its own pieces are still in the game (face up or down).
    pub remaining: u32,
}

/// A scored Luzhanqi record.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = LuzhanqiScoreSheet))]
pub struct ScoreSheet {
    pub preset: &'static str,
    /// The game in a sentence, for people (the other fields hold its codes).
    pub summary: String,

    /// `open`, `dark` or `flip`.
    pub mode: &'static str,
    /// How the game ended (stated, else derived); absent while it goes on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<ScoredResult>,
    /// The piece that captured the flag or carried it home, as a letter (`E`, `b` …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flag_taken_by: Option<char>,
    pub seats: Vec<SeatScore>,
}

fn seat_score(pos: &Position, seat: Seat, removed: String) -> SeatScore {
    let side = pos.side_of(seat);
    SeatScore {
        seat,
        side: side.map(Side::name),
        removed,
        remaining: side.map_or(0, |s| {
            Role::ALL
                .iter()
                .map(|r| pos.remaining(Piece::new(s, *r)) as u32)
                .sum::<u32>()
                + u32::from(pos.flag_state(s) != FlagState::Alone)
        }),
    }
}

/// What a bare position says about each seat: its side and pieces left.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = LuzhanqiPositionScore))]
pub struct PositionScore {
    pub seats: Vec<SeatScore>,
}

impl Scoring for Luzhanqi {
    type Score = ScoreSheet;

    type PositionScore = PositionScore;

    /// The pieces a ply removed, each credited to the seat whose piece removed it (a failed
    /// attack credits the defender).
    fn credits(before: &Position, _: &Position, effect: &Effect, mut credit: impl FnMut(Credit)) {
        let Effect::Attack {
            attacker,
            defender,
            combat,
            ..
        } = *effect
        else {
            return;
        };
        let mover = before.to_move();
        let mut give = |seat: Seat, piece: Piece| {
            credit(Credit {
                seat,
                piece: piece.char(),
                points: 0,
            })
        };
        match combat {
            Combat::Win => give(mover, defender),
            Combat::Loss => give(mover.other(), attacker),
            Combat::Both => {
                give(mover, defender);
                give(mover.other(), attacker);
            }
        }
    }

    /// Luzhanqi is not played for coins: the table is not used.
    fn score(record: &Record, _: &Table, _: u32) -> Result<Self::Score, ScoreError> {
        let mut flag_taken_by = None;
        let scored = score::<Luzhanqi>(record, |ply| {
            if let Effect::Attack {
                attacker, defender, ..
            } = ply.effect
                && defender.role == Role::Flag
            {
                flag_taken_by = Some(attacker.char());
            }
        })?;
        let last = &scored.last;
        if scored.verdict.derived.end().map(|e| e.reason) == Some(Reason::FLAG_CARRIED) {
            flag_taken_by = Side::ALL.iter().find_map(|s| match last.flag_state(*s) {
                FlagState::Carried(p) => last.piece(p).map(|q| q.char()),
                _ => None,
            });
        }
        let rules =
            crate::core::rules::ruleset::<Luzhanqi>(record.preset.as_deref(), &record.options)
                .map_err(|e| {
                    ScoreError::Replay(crate::core::ReplayError::invalid(
                        crate::core::RecordProblem::InvalidRuleset,
                        e.to_string(),
                    ))
                })?;
        let seats = Seat::all(2)
            .map(|seat| seat_score(last, seat, scored.tally.captured(seat).to_owned()))
            .collect();
        let summary = crate::core::words::said(record, &scored);
        Ok(ScoreSheet {
            preset: scored.preset,
            summary,
            mode: rules.mode.code(),
            result: scored.result,
            flag_taken_by,
            seats,
        })
    }

    fn score_position(pos: &Position) -> Self::PositionScore {
        PositionScore {
            seats: Seat::all(2)
                .map(|seat| seat_score(pos, seat, String::new()))
                .collect(),
        }
    }

    fn side(pos: &Position, seat: Seat) -> Option<&'static str> {
        pos.side_of(seat).map(Side::name)
    }
}
