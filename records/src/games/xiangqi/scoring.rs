//! Scoring a third-generation xiangqi game: it has no points; a game's score is what each
//! side captured and which flips it made.

use serde::Serialize;

use crate::core::scoring::{ScoredResult, score};
use crate::core::{Credit, Reason, Record, ScoreError, Scoring, Seat, Table};

use super::pieces::{Kind, Side, side_case};
use super::play::Effect;
use super::position::Position;
use super::rules::Xiangqi3g;

/// One seat's score.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = XiangqiSeatScore))]
pub struct SeatScore {
    pub seat: Seat,
    pub side: &'static str,
    /// What it captured, as letters in order.
    pub captured: String,
    /// Its flips, in order: `soldier:R`, `wrong_soldier:N`, `flip_back`, `transform:Z`,
    /// `double_flip`, `wrong_double_flip`.
    pub flips: Vec<String>,
}

/// A scored record.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = XiangqiScoreSheet))]
pub struct ScoreSheet {
    pub preset: &'static str,
    /// The game in a sentence, for people (the other fields hold its codes).
    pub summary: String,

    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<ScoredResult>,
    pub seats: Vec<SeatScore>,
}

/// The code of a flip, as the score sheet and reports write it.
pub fn flip_code(effect: &Effect) -> Option<String> {
    Some(match *effect {
        Effect::Move { .. } => return None,
        Effect::SoldierFlip { back, effective } => format!(
            "{}:{}",
            if effective {
                "soldier"
            } else {
                "wrong_soldier"
            },
            back.letter()
        ),
        Effect::FlipBack => "flip_back".to_owned(),
        Effect::Transform { to, .. } => format!("transform:{}", to.letter()),
        Effect::DoubleFlip { correct: true } => "double_flip".to_owned(),
        Effect::DoubleFlip { correct: false } => "wrong_double_flip".to_owned(),
    })
}

/// What a bare position says: each side's pieces on the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = XiangqiPositionScore))]
pub struct PositionScore {
    /// Red's and black's pieces on the board, as letters.
    pub red: String,
    pub black: String,
}

impl Scoring for Xiangqi3g {
    type Score = ScoreSheet;

    type PositionScore = PositionScore;

    /// A game with no legal move ends in checkmate or stalemate (both lose); records written
    /// before the two were told apart, and other tools, say `no_move`: it names either.
    fn reason_matches(stated: Reason, derived: Reason) -> bool {
        stated == derived
            || (stated == Reason::NO_MOVE
                && (derived == Reason::CHECKMATE || derived == Reason::STALEMATE))
    }

    /// The piece a capture took, credited to the mover.
    fn credits(before: &Position, _: &Position, effect: &Effect, mut credit: impl FnMut(Credit)) {
        if let Effect::Move {
            captured: Some(kind),
        } = *effect
        {
            let mover = before.turn();
            credit(Credit {
                seat: Position::seat_of(mover),
                piece: side_case(kind.letter(), mover.other()),
                points: 0,
            });
        }
    }

    fn score(record: &Record, _: &Table, _: u32) -> Result<Self::Score, ScoreError> {
        let mut flips: [Vec<String>; 2] = [Vec::new(), Vec::new()];
        let scored = score::<Xiangqi3g>(record, |ply| {
            if let Some(code) = flip_code(&ply.effect) {
                flips[ply.mover.index()].push(code);
            }
        })?;
        let seats = Seat::all(2)
            .map(|seat| SeatScore {
                seat,
                side: Side::ALL[seat.index()].name(),
                captured: scored.tally.captured(seat).to_owned(),
                flips: std::mem::take(&mut flips[seat.index()]),
            })
            .collect();
        let summary = crate::core::words::said(record, &scored);
        Ok(ScoreSheet {
            preset: scored.preset,
            summary,
            result: scored.result,
            seats,
        })
    }

    fn score_position(pos: &Position) -> Self::PositionScore {
        let letters = |side: Side| -> String {
            let mut kinds: Vec<Kind> = pos
                .side_pieces(side)
                .filter_map(|s| pos.piece(s).map(|p| p.kind))
                .collect();
            kinds.sort();
            kinds.iter().map(|k| side_case(k.letter(), side)).collect()
        };
        PositionScore {
            red: letters(Side::Red),
            black: letters(Side::Black),
        }
    }

    fn side(_: &Position, seat: Seat) -> Option<&'static str> {
        Some(if seat == Seat::FIRST { "red" } else { "black" })
    }
}
