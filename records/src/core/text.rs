//! A game's own text format for records (Banqi's TCGA): how the toolkit reads and writes it
//! without naming the game. A game declares its formats in [`Game::TEXT_FORMATS`]; the registry
//! finds them by name (`records::games::text_format`).
//!
//! [`Game::TEXT_FORMATS`]: super::Game::TEXT_FORMATS

use thiserror::Error;

use super::record::Record;

/// A text format for records of one game.
#[derive(Copy, Clone, Debug)]
pub struct TextFormat {
    /// Its name (`tcga`): a stored game's `?format=`, a file's format.
    pub name: &'static str,
    /// The line that starts each game of a text (TCGA: `INITIAL`): a text of many games is
    /// cut there, so that one bad game does not hide the others.
    pub game_starts: &'static str,
    /// Every game of a text.
    pub parse: fn(&str) -> Result<Vec<Record>, TextError>,
    /// A record as text, when the format can say what it holds.
    pub export: fn(&Record) -> Result<String, NotExportable>,
}

/// A text that cannot be read: the line (1-based) and what is wrong there.
#[derive(Error, Debug, Clone, PartialEq, Eq)]
#[error("line {line}: {message}")]
pub struct TextError {
    pub line: usize,
    pub message: String,
}

/// Why a record cannot be written in a text format (another game, ruleset or notation).
#[derive(Error, Debug, Clone, PartialEq, Eq)]
#[error("{0}")]
pub struct NotExportable(pub String);
