//! Banqi's own violation codes, besides the shared ones of [`Violation`] (and no end reason
//! of its own).

use crate::core::{Reason, Violation};

impl Violation {
    /// The rank rule forbids this capture.
    pub const RANK_FORBIDS_CAPTURE: Violation = Violation::new("rank_forbids_capture");
    /// Chain capture is off in this ruleset.
    pub const CHAIN_NOT_ALLOWED: Violation = Violation::new("chain_not_allowed");
    /// After a non-capturing move, or within a chain, every hop must capture.
    pub const CHAIN_NEEDS_CAPTURE: Violation = Violation::new("chain_needs_capture");
    /// A dark capture is a turn of its own here (only 暗棋連吃 puts it in a chain).
    pub const DARK_LINK_NOT_ALLOWED: Violation = Violation::new("dark_link_not_allowed");
    /// The turn already ended (a failed dark capture, or an own piece revealed).
    pub const TURN_ENDED: Violation = Violation::new("turn_ended");
    /// The move would be the player's 10th (the limit's) consecutive chase of one piece.
    pub const LONG_CHASE: Violation = Violation::new("long_chase");
}

/// Banqi has no end reason of its own: its games end by the shared ones.
pub const REASONS: &[Reason] = &[];

/// Banqi's own codes, for the registry and the docs.
pub const VIOLATIONS: &[Violation] = &[
    Violation::RANK_FORBIDS_CAPTURE,
    Violation::CHAIN_NOT_ALLOWED,
    Violation::CHAIN_NEEDS_CAPTURE,
    Violation::DARK_LINK_NOT_ALLOWED,
    Violation::TURN_ENDED,
    Violation::LONG_CHASE,
];
