//! Third-generation xiangqi's own violation codes and end reasons, besides the shared ones.

use crate::core::{Reason, Violation};

impl Violation {
    /// The move leaves the mover's general attacked (or facing the other general).
    pub const GENERAL_IN_CHECK: Violation = Violation::new("general_in_check");
    /// A soldier flipped on a wrong point must be flipped back first, and may not move.
    pub const MUST_FLIP_BACK: Violation = Violation::new("must_flip_back");
    /// The piece cannot flip now.
    pub const NO_FLIP: Violation = Violation::new("no_flip");
    /// A double flip answers a first check only.
    pub const DOUBLE_FLIP_NOT_ALLOWED: Violation = Violation::new("double_flip_not_allowed");
    /// A 臣 is taken only while a second enemy piece also attacks it.
    pub const MINISTER_NEEDS_TWO: Violation = Violation::new("minister_needs_two");
}

/// The game's own violation codes.
pub const VIOLATIONS: &[Violation] = &[
    Violation::GENERAL_IN_CHECK,
    Violation::MUST_FLIP_BACK,
    Violation::NO_FLIP,
    Violation::DOUBLE_FLIP_NOT_ALLOWED,
    Violation::MINISTER_NEEDS_TWO,
];

impl Reason {
    /// The loser named an advisor whose back was not the general in a double flip.
    pub const WRONG_DOUBLE_FLIP: Reason = Reason::new("wrong_double_flip");
    /// A 臣 reached the enemy general's start point.
    pub const MINISTER_HOME: Reason = Reason::new("minister_home");
    /// The loser gave check with every move of a thrice-repeated position (perpetual check).
    pub const PERPETUAL_CHECK: Reason = Reason::new("perpetual_check");
    /// The side to move is in check and has no legal move: it loses.
    pub const CHECKMATE: Reason = Reason::new("checkmate");
    /// The side to move is not in check and has no legal move: it loses too (xiangqi has
    /// no stalemate draw).
    pub const STALEMATE: Reason = Reason::new("stalemate");
}

/// The game's own end reasons.
pub const REASONS: &[Reason] = &[
    Reason::WRONG_DOUBLE_FLIP,
    Reason::MINISTER_HOME,
    Reason::PERPETUAL_CHECK,
    Reason::CHECKMATE,
    Reason::STALEMATE,
];
