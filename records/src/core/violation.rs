//! Why an action is illegal: a [`Violation`] code and a sentence, the [`IllegalAction`] every
//! game's `play` returns.

use std::fmt;

use thiserror::Error;

/// The machine-readable reason an action is illegal: a code from the shared set below or
/// from a game's own list (`Rules::VIOLATIONS`). Games add their codes in their own
/// `impl Violation` block, so that every code is written `Violation::NAME` wherever it is
/// used, and one code never means two things.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Violation(&'static str);

impl Violation {
    /// The text is not action notation.
    pub const MALFORMED_NOTATION: Violation = Violation("malformed_notation");
    /// The game had already ended before this action.
    pub const GAME_OVER: Violation = Violation("game_over");
    /// No piece stands on the square (or point) the move starts from.
    pub const NO_SUCH_PIECE: Violation = Violation("no_such_piece");
    /// The piece to move is still face down (flip it instead).
    pub const PIECE_COVERED: Violation = Violation("piece_covered");
    /// The piece belongs to another side.
    pub const NOT_YOUR_PIECE: Violation = Violation("not_your_piece");
    /// A flip of a square that holds no covered piece.
    pub const NOT_COVERED: Violation = Violation("not_covered");
    /// The piece cannot go there (wrong direction or distance).
    pub const UNREACHABLE: Violation = Violation("unreachable");
    /// Something stands between the piece and its target.
    pub const BLOCKED: Violation = Violation("blocked");
    /// The target holds a piece of the mover's own side.
    pub const OWN_PIECE: Violation = Violation("own_piece");
    /// A cannon captures only by jumping exactly one screen (Banqi's Taiwan cannon, Three
    /// Kingdoms).
    pub const CANNON_NEEDS_ONE_SCREEN: Violation = Violation("cannon_needs_one_screen");
    /// Covered pieces cannot be captured (Banqi without dark capture, Three Kingdoms).
    pub const COVERED_TARGET: Violation = Violation("covered_target");
    /// A flip or attack on a hidden piece without the piece revealed, and no hidden truth
    /// (layout, setup) to fill it from.
    pub const REVEAL_MISSING: Violation = Violation("reveal_missing");
    /// A revealed piece is named where nothing hidden is uncovered.
    pub const REVEAL_UNEXPECTED: Violation = Violation("reveal_unexpected");
    /// The revealed piece cannot be there: none of it is still hidden.
    pub const REVEAL_IMPOSSIBLE: Violation = Violation("reveal_impossible");
    /// The revealed piece differs from the known hidden truth (the record's layout).
    pub const REVEAL_CONTRADICTS_LAYOUT: Violation = Violation("reveal_contradicts_layout");
    /// A player's action, sent to the referee with a seat token, names what it would reveal:
    /// the referee writes that in (whether a guess is right is never an answer).
    pub const IDENTITY_STATED: Violation = Violation("identity_stated");

    /// The codes every game shares.
    pub const SHARED: &'static [Violation] = &[
        Violation::MALFORMED_NOTATION,
        Violation::GAME_OVER,
        Violation::NO_SUCH_PIECE,
        Violation::PIECE_COVERED,
        Violation::NOT_YOUR_PIECE,
        Violation::NOT_COVERED,
        Violation::UNREACHABLE,
        Violation::BLOCKED,
        Violation::OWN_PIECE,
        Violation::CANNON_NEEDS_ONE_SCREEN,
        Violation::COVERED_TARGET,
        Violation::REVEAL_MISSING,
        Violation::REVEAL_UNEXPECTED,
        Violation::REVEAL_IMPOSSIBLE,
        Violation::REVEAL_CONTRADICTS_LAYOUT,
        Violation::IDENTITY_STATED,
    ];

    /// A violation with this code: for a game's own codes.
    pub const fn new(code: &'static str) -> Violation {
        Violation(code)
    }

    /// The stable name used in JSON and in CLI output.
    pub const fn code(self) -> &'static str {
        self.0
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl serde::Serialize for Violation {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0)
    }
}

/// An illegal action: the reason code and a sentence a person can act on.
#[derive(Error, Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[error("{detail}")]
pub struct IllegalAction {
    pub reason: Violation,
    pub detail: String,
}

impl IllegalAction {
    pub fn new(reason: Violation, detail: impl Into<String>) -> IllegalAction {
        IllegalAction {
            reason,
            detail: detail.into(),
        }
    }
}
