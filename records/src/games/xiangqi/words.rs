//! Third-generation xiangqi's words for people (`core::words`): checkmate and stalemate
//! (both lose), the wrong double flip, the minister home, perpetual check; pieces by side
//! and face (`black cannon`).

use crate::core::Reason;
use crate::core::words::{Words, shared_ending};

use super::Xiangqi3g;
use super::pieces::Piece;

impl Words for Xiangqi3g {
    fn ending(reason: Reason) -> &'static str {
        match reason {
            Reason::CHECKMATE => "checkmate",
            Reason::STALEMATE => "stalemate",
            Reason::WRONG_DOUBLE_FLIP => "a wrong double flip",
            Reason::MINISTER_HOME => "the minister reaching the general's home point",
            Reason::PERPETUAL_CHECK => "perpetual check",
            Reason::NO_PROGRESS => "the no-capture rule",
            other => shared_ending(other),
        }
    }

    fn piece(letter: char) -> Option<String> {
        let piece = Piece::from_char(letter)?;
        Some(format!("{} {}", piece.side.name(), piece.kind.name()))
    }

    fn glyph(letter: char) -> Option<&'static str> {
        let piece = Piece::from_char(letter)?;
        Some(piece.kind.chinese(piece.side))
    }

    fn flip(code: &str) -> Option<String> {
        Some(flip_words(code))
    }
}

/// A flip's code (`soldier:R`, `transform:F`, `double_flip` …: the score sheet's `flips`) in
/// words: `a soldier's flip to chariot`, `a transformation to 妃 (fei)`.
pub fn flip_words(code: &str) -> String {
    let kind = |letter: &str| {
        letter
            .chars()
            .next()
            .and_then(super::pieces::Kind::from_letter)
            .map_or_else(|| letter.to_owned(), |k| k.name().to_owned())
    };
    match code.split_once(':') {
        Some(("soldier", l)) => format!("a soldier's flip to {}", kind(l)),
        Some(("wrong_soldier", l)) => format!("a soldier's flip on a wrong point ({})", kind(l)),
        Some(("transform", l)) => format!("a transformation to {}", kind(l)),
        _ => match code {
            "flip_back" => "a flip back".to_owned(),
            "double_flip" => "a double flip".to_owned(),
            "wrong_double_flip" => "a wrong double flip".to_owned(),
            other => other.to_owned(),
        },
    }
}
