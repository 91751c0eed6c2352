//! What one player may see of a Banqi game.
//!
//! In Banqi every revealed piece is public and so is the multiset of covered pieces (it is
//! what the set minus the revealed and captured pieces leaves). What is hidden from both
//! players is which covered piece lies on which square: the layout. A player's view is
//! therefore the position without the layout, plus what the player needs to act: its colour,
//! whether it is its turn, and its legal actions.

use serde::{Deserialize, Serialize};

use crate::core::Seat;

use super::matches::Match;
use super::position::{Cell, Position};
use super::types::{Color, Square};
use crate::core::{Engine as _, Turn as _};

/// One player's view of a position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlayerView {
    pub player: Seat,
    /// The player's colour; absent before the first flip.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<Color>,
    pub to_move: Seat,
    pub your_turn: bool,
    /// The position string: covered pieces are `X`, never their identity.
    pub position: String,
    /// The board, rank 8 first, each rank files a→d: a piece letter, `X` covered, `-` empty.
    pub board: Vec<String>,
    /// The covered pieces as a multiset (public knowledge), as letters.
    pub covered: String,
    /// The player's legal actions when it is its turn (flips without identity); empty otherwise.
    pub actions: Vec<String>,
}

/// The view of `game`'s current position for `player`.
pub fn player_view(game: &Match, player: Seat) -> PlayerView {
    let pos: &Position = game.position();
    let to_move = pos.to_move();
    let your_turn = to_move == player && game.end().is_none();
    let mut actions = Vec::new();
    if your_turn {
        game.legal_actions(&mut actions);
    }
    let board = Cell::rows(4, 8, |i| pos.cell(Square::new(i).expect("on the board")));
    let covered = pos.pool().letters();
    PlayerView {
        player,
        color: pos.color_of(player),
        to_move,
        your_turn,
        position: pos.to_string(),
        board,
        covered,
        actions: actions.iter().map(|a| a.to_string()).collect(),
    }
}
