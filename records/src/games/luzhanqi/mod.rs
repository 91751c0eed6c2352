//! Luzhanqi (陸軍棋): RULES.md §8, seed 004.
//!
//! The 60-point board and its two mountains ([`Point`], [`Points`] as u64 bitboards, edge
//! tables pinned to `records/data/luzhanqi-board.txt`), pieces and combat, positions ([`Setup`]
//! as written, [`Position`] as checked), [`Action`]s and their notation, rulesets as data
//! ([`Ruleset`], [`PRESETS`], [`OPTIONS`]) with the three modes (open, dark with the service as
//! referee, flip), legal actions, the endings, setups and the flip layout ([`Layout`]),
//! scoring, a seat's view, the SVG picture, and [`Luzhanqi`], the game's
//! [`crate::core::Rules`].

pub mod board;
mod clues;
mod engine;
mod layout;
mod masked;
mod movegen;
mod notation;
pub mod pieces;
mod play;
mod position;
pub mod render;
mod rules;
mod ruleset;
pub mod scoring;
pub mod view;
mod violations;
mod words;

pub use board::{Point, PointKind, Points};
pub use layout::{Layout, ParseLayoutError, SetupError, SideSetup};
pub use masked::MaskedPosition;
pub use movegen::Reach;
pub use notation::{
    Action, FLIP_START, ParseActionError, ParsePositionError, ParseSetupError, Setup,
};
pub use pieces::{Combat, Piece, Pool, Role, Side, combat};
pub use play::Effect;
pub use position::{Cell, FlagState, Position, PositionError};
pub use rules::{Announcement, Luzhanqi, Match};
pub use ruleset::{
    MineRule, Mode, Mountains, OPTIONS, Overrides, PRESETS, Preset, Railway, Ruleset,
};
pub use violations::{REASONS, VIOLATIONS};
