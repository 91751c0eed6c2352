//! Three Kingdoms' words for people (`core::words`): recall, points and the race; pieces
//! named by colour and role, as the set's pieces are (a faction holds pieces of a colour).

use crate::core::Reason;
use crate::core::pieces::Piece;
use crate::core::words::{Words, shared_ending};

use super::ThreeKingdoms;

impl Words for ThreeKingdoms {
    fn ending(reason: Reason) -> &'static str {
        match reason {
            Reason::ELIMINATION => "elimination (the last faction standing)",
            Reason::RECALL => "recall (收軍)",
            Reason::POINTS => "points",
            Reason::RACE => "the race to 200 points",
            other => shared_ending(other),
        }
    }

    fn piece(letter: char) -> Option<String> {
        let piece = Piece::from_char(letter)?;
        Some(format!("{} {}", piece.side.name(), piece.role.name()))
    }

    fn glyph(letter: char) -> Option<&'static str> {
        Some(Piece::from_char(letter)?.glyph())
    }
}
