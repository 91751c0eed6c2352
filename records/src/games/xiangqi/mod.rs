//! Third-generation xiangqi (番兵象棋, RULES.md §9, seed 001) on exact xiangqi.
//!
//! The board (90 points as 128-bit bitboards), pieces with their backs, positions (FEN, and
//! the extended position string with the backs), moves and perft, the flips of the second
//! identities, the backs each side sets up ([`Backs`], the hidden truth), and the game's end.

mod action;
pub mod board;
mod end;
mod engine;
mod fen;
mod flips;
mod layout;
mod leaps;
mod legal;
mod movegen;
pub mod pieces;
mod play;
mod position;
#[cfg(test)]
mod reference;
pub mod render;
mod rules;
mod ruleset;
pub mod scoring;
pub mod view;
mod violations;
mod words;
pub use words::flip_words;

pub use action::{Action, ParseActionError};
pub use board::{Bitboard, Square};
pub use fen::ParseFenError;
pub use layout::{Backs, BacksError, SideBacks, unknown_start};
pub use movegen::{Move, ParseMoveError};
pub use pieces::{Back, Kind, Piece, Side};
pub use play::Effect;
pub use position::{Position, START_FEN};
pub use rules::{Match, Xiangqi3g};
pub use ruleset::{OPTIONS, Overrides, PRESETS, Preset, Ruleset};
pub use violations::{REASONS, VIOLATIONS};
