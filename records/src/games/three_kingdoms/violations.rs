//! Three Kingdoms' own violation codes and end reasons, besides the shared ones.

use crate::core::{Reason, Violation};

impl Violation {
    /// A seat without a faction can only flip.
    pub const NO_FACTION: Violation = Violation::new("no_faction");
    /// The piece belongs to a faction nobody has claimed yet.
    pub const FACTION_UNCLAIMED: Violation = Violation::new("faction_unclaimed");
    /// Recall (收軍) is played only with the recall ending.
    pub const RECALL_NOT_ALLOWED: Violation = Violation::new("recall_not_allowed");
    /// The seat has captured fewer pieces than its faction has on the board.
    pub const RECALL_NOT_EARNED: Violation = Violation::new("recall_not_earned");
    /// Some of the faction's pieces are still face down: nobody can tell them yours.
    pub const RECALL_COVERED: Violation = Violation::new("recall_covered");
}

/// Three Kingdoms' own violation codes, for the registry and the docs.
pub const VIOLATIONS: &[Violation] = &[
    Violation::NO_FACTION,
    Violation::FACTION_UNCLAIMED,
    Violation::RECALL_NOT_ALLOWED,
    Violation::RECALL_NOT_EARNED,
    Violation::RECALL_COVERED,
];

impl Reason {
    /// Recall: the game ended when recalls and eliminations left one seat playing.
    pub const RECALL: Reason = Reason::new("recall");
    /// Points: a points-ending game ended (one faction left) and was ranked by points.
    pub const POINTS: Reason = Reason::new("points");
    /// Race: a seat captured the race target.
    pub const RACE: Reason = Reason::new("race");
}

/// Three Kingdoms' own end reasons.
pub const REASONS: &[Reason] = &[Reason::RECALL, Reason::POINTS, Reason::RACE];
