//! Scoring a Three Kingdoms game (RULES.md §7): every captured piece credited to the seat that
//! captured it, with seed 003's points (將帥車 50, 象相士仕 20, 卒兵 22, 馬 30, 包炮 40), and
//! each seat's points in the sense of the points ending (its faction's 320 − lost + captured).

use serde::Serialize;

use crate::core::pieces::Piece;
use crate::core::scoring::{ScoredResult, score};
use crate::core::{Credit, Record, ScoreError, Scoring, Seat, Table};

use super::pieces::points;
use super::play::Effect;
use super::position::Position;
use super::rules::ThreeKingdoms;
use crate::core::Turn as _;

/// One seat's score.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = ThreeKingdomsSeatScore))]
pub struct SeatScore {
    pub seat: Seat,
    /// The faction it claimed (absent while it has none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub faction: Option<&'static str>,
    /// What it captured, as piece letters in the order of capture.
    pub captured: String,
    pub captured_points: u32,
    /// The points of its faction's pieces the others captured.
    pub lost_points: u32,
    /// Its final points: its faction's starting points − lost + captured (seed 003's 計分法,
    /// what the points ending ranks by). Points are the pieces' values (captured, lost,
    /// final); a seat's "score" is its share of the game (1 first … 0 last), as elsewhere.
    pub final_points: i64,
    /// Its place once it is out or the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub place: Option<u8>,
}

/// A scored Three Kingdoms record.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = ThreeKingdomsScoreSheet))]
pub struct ScoreSheet {
    pub preset: &'static str,
    /// The game in a sentence, for people (the other fields hold its codes).
    pub summary: String,

    /// How the game ended (stated, else derived); absent while it goes on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<ScoredResult>,
    pub seats: Vec<SeatScore>,
}

fn seat_score(pos: &Position, seat: Seat, captured: String, place: Option<u8>) -> SeatScore {
    let faction = pos.faction_of(seat);
    SeatScore {
        seat,
        faction: faction.map(|f| pos.split().name(f)),
        captured,
        captured_points: pos.captured_points(seat),
        lost_points: faction.map_or(0, |f| pos.lost_points(f)),
        final_points: pos.points_score(seat),
        place: place.or(pos.place(seat)),
    }
}

/// What a bare position says about each seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = ThreeKingdomsPositionScore))]
pub struct PositionScore {
    pub seats: Vec<SeatScore>,
}

impl Scoring for ThreeKingdoms {
    type Score = ScoreSheet;

    type PositionScore = PositionScore;

    /// The captures a start position says were made before it.
    fn start_credits(start: &Position, mut credit: impl FnMut(Credit)) {
        for seat in Seat::all(3) {
            for piece in Piece::all() {
                for _ in 0..start.captured(seat).count(piece) {
                    credit(Credit {
                        seat,
                        piece: piece.char(),
                        points: points(piece.role),
                    });
                }
            }
        }
    }

    /// The piece a ply captured, credited to the mover.
    fn credits(before: &Position, _: &Position, effect: &Effect, mut credit: impl FnMut(Credit)) {
        if let Effect::Capture { piece } = effect {
            credit(Credit {
                seat: before.to_move(),
                piece: piece.char(),
                points: points(piece.role),
            });
        }
    }

    /// Three Kingdoms is not played for coins: the table is not used.
    fn score(record: &Record, _: &Table, _: u32) -> Result<Self::Score, ScoreError> {
        let scored = score::<ThreeKingdoms>(record, |_| {})?;
        let seats = Seat::all(3)
            .map(|seat| {
                seat_score(
                    &scored.last,
                    seat,
                    scored.tally.captured(seat).to_owned(),
                    scored.result.map(|r| r.outcome.place(seat)),
                )
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

    /// The score of a bare position (captures in the order of the position string's pools).
    fn score_position(pos: &Position) -> Self::PositionScore {
        let seats = Seat::all(3)
            .map(|seat| {
                let captured = pos.captured(seat).letters();
                seat_score(pos, seat, captured, None)
            })
            .collect();
        PositionScore { seats }
    }

    fn side(pos: &Position, seat: Seat) -> Option<&'static str> {
        pos.faction_of(seat).map(|f| pos.split().name(f))
    }
}
