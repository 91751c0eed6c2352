//! How a position ends the game (RULES.md §9): a wrong double flip, a 臣 on the enemy
//! general's start point, no legal action, the no-capture limit (repetition needs the history:
//! the match's); and the bookkeeping after each ply.

use crate::core::{End, Outcome, Reason, Seat};

use super::board::Square;
use super::pieces::{Back, Kind, Side};
use super::position::Position;

impl Position {
    /// The seat playing `side` (red moves first: player 1).
    pub fn seat_of(side: Side) -> Seat {
        Seat::new(side.index()).expect("two seats")
    }

    /// How the position ends the game, if it does: a wrong double flip, a 臣 on the enemy
    /// general's start point, the side to move without a legal action, the no-capture limit.
    /// (Repetition needs the history: the match's.)
    pub fn end(&self, no_capture_limit: Option<u16>) -> Option<End> {
        self.end_given(no_capture_limit, self.in_check(self.turn))
    }

    /// [`Self::end`] when whether the side to move is in check is known already.
    pub(crate) fn end_given(&self, no_capture_limit: Option<u16>, in_check: bool) -> Option<End> {
        self.end_with(no_capture_limit, || self.has_action_given(in_check))
    }

    /// [`Self::end`] with `has_action` telling whether the side to move has a legal action
    /// (asked only when no ending before it in RULES.md's order applies).
    pub(crate) fn end_with(
        &self,
        no_capture_limit: Option<u16>,
        has_action: impl FnOnce() -> bool,
    ) -> Option<End> {
        let win = |side: Side, reason: Reason| {
            Some(End::new(Outcome::win(Position::seat_of(side), 2), reason))
        };
        if let Some(side) = self.lost {
            return win(side.other(), Reason::WRONG_DOUBLE_FLIP);
        }
        for side in Side::ALL {
            let home =
                Square::from_coords(4, Position::enemy_back_rank(side) as i8).expect("e0 or e9");
            if self.board[home.index()]
                .get()
                .is_some_and(|p| p.side == side && p.kind == Kind::Minister)
            {
                return win(side, Reason::MINISTER_HOME);
            }
        }
        if !has_action() {
            // A player with no legal move loses, in check or not (RULES.md §9); the record
            // says which (the rare end is the only time this is asked).
            let reason = if self.in_check(self.turn) {
                Reason::CHECKMATE
            } else {
                Reason::STALEMATE
            };
            return win(self.turn.other(), reason);
        }
        if no_capture_limit.is_some_and(|n| self.no_capture >= n) {
            return Some(End::new(Outcome::draw(2), Reason::NO_PROGRESS));
        }
        None
    }

    /// Drops the state no rule can read any more, so that equal games write equal strings
    /// (and plain xiangqi writes plain FEN): the last move when no 骉 can ever borrow it, a
    /// side's check mark when its general has no back to double-flip with. Judged on public
    /// facts only (a horse that still has a back, whichever it is), or the string would tell
    /// which horse is the 骉.
    pub(crate) fn forget_what_cannot_matter(&mut self) {
        // A side's last move matters only while the other side may have a 骉.
        for side in Side::ALL {
            if self.last[side.index()].is_none() {
                continue;
            }
            // The other side's pieces (a copy of the set: iterating it takes its points off).
            let mut theirs = self.occupied[side.other().index()];
            let biao = theirs.any(|s| {
                let p = self.board[s.index()];
                p.kind() == Kind::Biao
                    || (p.kind() == Kind::Horse && !p.soldier_born() && p.has_back())
            });
            if !biao {
                self.last[side.index()] = None;
            }
        }
        for side in Side::ALL {
            let can_double = self
                .general(side)
                .and_then(|g| self.piece(g))
                .is_some_and(|p| p.back != Back::None);
            if !can_double {
                self.checked[side.index()] = false;
            }
        }
    }

    /// Whether the side to move has a legal action (moves first: they are the common case).
    pub fn has_action(&self) -> bool {
        self.has_action_given(self.in_check(self.turn))
    }

    pub(crate) fn has_action_given(&self, in_check: bool) -> bool {
        if self.lost.is_some() {
            return false;
        }
        if self.pending(self.turn).is_none()
            && self.any_legal_move_given(self.safety_given(in_check))
        {
            return true;
        }
        let mut buffer = Vec::new();
        self.legal_actions_given(in_check, &mut buffer);
        !buffer.is_empty()
    }
}
