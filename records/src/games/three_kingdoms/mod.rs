//! Three Kingdoms Banqi (三國暗棋): RULES.md §7, seed 003.
//!
//! Three seats on the 45 points of half a xiangqi board ([`Point`], [`Points`] as u64
//! bitboards), factions claimed by flips ([`Split`]), positions ([`Setup`] as written,
//! [`Position`] as checked), [`Action`]s and their notation, rulesets as data ([`Ruleset`],
//! [`PRESETS`], [`OPTIONS`]), legal actions, the four endings, the dealt [`Layout`], scoring,
//! a seat's view, the SVG picture, and [`ThreeKingdoms`], the game's [`crate::core::Rules`].

mod engine;
mod layout;
mod movegen;
mod notation;
pub mod pieces;
mod play;
pub mod points;
mod position;
pub mod render;
mod rules;
mod ruleset;
pub mod scoring;
pub mod view;
mod violations;
mod words;

pub use layout::{Layout, ParseLayoutError};
pub use movegen::targets;
pub use notation::{Action, ParseActionError, ParsePositionError, ParseSetupError, START, Setup};
pub use pieces::{Faction, Split, points as piece_points};
pub use play::Effect;
pub use points::{Point, Points};
pub use position::{Position, PositionError};
pub use rules::{Match, ThreeKingdoms};
pub use ruleset::{Ending, OPTIONS, Overrides, PRESETS, Preset, Ruleset};
pub use violations::{REASONS, VIOLATIONS};
