//! Luzhanqi's own violation codes and end reasons, besides the shared ones.

use crate::core::{Reason, Violation};

impl Violation {
    /// Mines and the flag never move.
    pub const IMMOBILE: Violation = Violation::new("immobile");
    /// A piece that entered a headquarters stays there (open and dark games).
    pub const FROZEN_IN_HEADQUARTERS: Violation = Violation::new("frozen_in_headquarters");
    /// A piece in a camp cannot be attacked, and an occupied camp cannot be entered.
    pub const CAMP_PROTECTED: Violation = Violation::new("camp_protected");
    /// Flip games: only an engineer or a bomb may attack a face-up mine.
    pub const MINE_UNTOUCHABLE: Violation = Violation::new("mine_untouchable");
    /// Flip games: the enemy flag is picked up only by the side's lowest-ranked face-up piece,
    /// once all three enemy mines are gone.
    pub const FLAG_NOT_CARRIABLE: Violation = Violation::new("flag_not_carriable");
    /// `drop` without a piece carrying the enemy flag.
    pub const NOTHING_CARRIED: Violation = Violation::new("nothing_carried");
}

/// Luzhanqi's own violation codes, for the registry and the docs.
pub const VIOLATIONS: &[Violation] = &[
    Violation::IMMOBILE,
    Violation::FROZEN_IN_HEADQUARTERS,
    Violation::CAMP_PROTECTED,
    Violation::MINE_UNTOUCHABLE,
    Violation::FLAG_NOT_CARRIABLE,
    Violation::NOTHING_CARRIED,
];

impl Reason {
    /// The flag was captured (open and dark games).
    pub const FLAG_CAPTURED: Reason = Reason::new("flag_captured");
    /// The enemy flag was carried into the carrier's own headquarters (flip games).
    pub const FLAG_CARRIED: Reason = Reason::new("flag_carried");
}

/// Luzhanqi's own end reasons.
pub const REASONS: &[Reason] = &[Reason::FLAG_CAPTURED, Reason::FLAG_CARRIED];
