//! What one seat may see of a Three Kingdoms game.
//!
//! Every revealed piece, every seat's faction, captures and place are public, and so is the
//! multiset of covered pieces. Hidden from all three seats alike is which covered piece lies
//! on which point.

use serde::Serialize;

use crate::core::Seat;
use crate::core::pieces::Cell;

use super::points::Point;
use super::rules::Match;
use crate::core::Turn as _;

/// One seat's view of a position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = ThreeKingdomsView))]
pub struct SeatView {
    pub player: Seat,
    /// The seat's faction; absent before it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub faction: Option<&'static str>,
    pub to_move: Seat,
    pub your_turn: bool,
    /// The position string: covered pieces are `X`, never their identity.
    pub position: String,
    /// The board, rank 5 first, each rank files a→i: a piece letter, `X` covered, `-` empty.
    pub board: Vec<String>,
    /// The covered pieces as a multiset (public knowledge), as letters.
    pub covered: String,
    /// The seat's legal actions when it is its turn (flips without identity); empty otherwise.
    pub actions: Vec<String>,
}

/// The view of `m`'s position for `seat`.
pub fn seat_view(m: &Match, seat: Seat) -> SeatView {
    let pos = &m.pos;
    let to_move = pos.to_move();
    let your_turn = to_move == seat && pos.end(&m.rules).is_none();
    let mut actions = Vec::new();
    if your_turn {
        pos.legal_actions(&m.rules, &mut actions);
    }
    let board = Cell::rows(9, 5, |i| pos.cell(Point::new(i).expect("on the board")));
    SeatView {
        player: seat,
        faction: pos.faction_of(seat).map(|f| pos.split().name(f)),
        to_move,
        your_turn,
        position: pos.to_string(),
        board,
        covered: pos.pool().letters(),
        actions: actions.iter().map(|a| a.to_string()).collect(),
    }
}
