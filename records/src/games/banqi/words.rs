//! Banqi's words for people (`core::words`): its endings are the shared ones; its pieces
//! are named by colour and role (`red chariot`).

use crate::core::Reason;
use crate::core::pieces::Piece;
use crate::core::words::{Words, shared_ending};

use super::Banqi;

impl Words for Banqi {
    fn ending(reason: Reason) -> &'static str {
        match reason {
            // A colour with no piece left, revealed or covered.
            Reason::ELIMINATION => "taking every piece",
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
