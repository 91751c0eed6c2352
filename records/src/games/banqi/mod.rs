//! Banqi (暗棋, Chinese Dark Chess): RULES.md §1–6.
//!
//! The vocabulary ([`Square`], [`Color`], [`Role`], [`Piece`]), positions ([`Setup`] as
//! written, [`Position`] as checked), [`Action`]s and their notation, rulesets as data
//! ([`Ruleset`], [`PRESETS`], their [`OPTIONS`] described), legal action generation, and
//! [`Match`], which adds the history the draw and long-chase rules need. Around the engine:
//! the dealt [`Layout`], scoring and the 戲谷 coin settlement, a player's view, the SVG
//! picture, the TCGA record format, and [`Banqi`], the game's [`crate::core::Rules`].

mod action;
mod bitboard;
mod chase;
mod cycle;
pub mod engine;
mod layout;
mod matches;
mod movegen;
mod play;
mod playout;
mod position;
pub mod render;
mod rules;
mod ruleset;
pub mod scoring;
pub mod settlement;
mod setup;
pub mod tcga;
mod types;
pub mod view;
mod violations;
mod words;

pub use action::{Action, Hop, MAX_HOPS, ParseActionError, Path};
pub use bitboard::Bitboard;
pub use chase::LongChase;
pub use layout::{Layout, LayoutMismatch, ParseLayoutError, fill_from_layout, shuffle_covered};
pub use matches::Match;
pub use movegen::{
    SingleHopActions, beats_by_rank, has_legal_action, legal_actions, legal_moves, targets,
};

pub use play::Effect;
pub use playout::{random_playout, reveal_from_layout};
pub use position::{Cell, ParsePositionError, Pool, Position, PositionError};
pub use rules::Banqi;
pub use ruleset::{CannonRule, OPTIONS, Overrides, PRESETS, Preset, Repetition, Ruleset};
pub use setup::{ParseSetupError, Setup};
pub use types::{Color, ParsePieceError, ParseSquareError, Piece, Role, Square};
pub use violations::VIOLATIONS;
