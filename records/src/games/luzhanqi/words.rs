//! Luzhanqi's words for people (`core::words`): the flag taken or carried home; pieces by
//! side and rank (`black engineer`).

use crate::core::Reason;
use crate::core::words::{Words, shared_ending};

use super::Luzhanqi;
use super::pieces::Piece;

impl Words for Luzhanqi {
    fn ending(reason: Reason) -> &'static str {
        match reason {
            Reason::FLAG_CAPTURED => "capturing the flag",
            Reason::FLAG_CARRIED => "carrying the flag home",
            Reason::ELIMINATION => "taking every piece that can move",
            other => shared_ending(other),
        }
    }

    fn piece(letter: char) -> Option<String> {
        let piece = Piece::from_char(letter)?;
        Some(format!("{} {}", piece.side.name(), piece.role.name()))
    }

    fn glyph(letter: char) -> Option<&'static str> {
        Some(Piece::from_char(letter)?.role.chinese())
    }
}
