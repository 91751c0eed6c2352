//! Banqi (暗棋, Chinese Dark Chess): RULES.md §1–4.
//!
//! The vocabulary ([`Square`], [`Color`], [`Role`], [`Piece`]), positions ([`Setup`] as
//! written, [`Position`] as checked), [`Action`]s and their notation, rulesets as data
//! ([`Ruleset`], [`PRESETS`]), legal action generation, and [`Game`], which adds the history
//! the draw and long-chase rules need.

mod action;
mod bitboard;
mod cycle;
mod game;
mod movegen;
mod play;
mod playout;
mod position;
mod ruleset;
pub mod tcga;
mod types;

pub use action::{Action, Hop, MAX_HOPS, ParseActionError, Path};
pub use bitboard::Bitboard;
pub use game::{End, Game, Outcome, Reason};
pub use movegen::{
    SingleHopActions, beats_by_rank, has_legal_action, legal_actions, legal_moves, targets,
};
pub use play::{Effect, IllegalAction, Violation};
pub use playout::{random_playout, reveal_from_layout};
pub use position::{
    Cell, Layout, LayoutMismatch, ParseLayoutError, ParsePositionError, ParseSetupError, Pool,
    Position, PositionError, Setup,
};
pub use ruleset::{CannonRule, Overrides, PRESETS, Preset, Repetition, Ruleset, RulesetError};
pub use types::{Color, ParsePieceError, ParseSquareError, Piece, Player, Role, Square};
