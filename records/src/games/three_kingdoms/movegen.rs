//! Legal actions (RULES.md §7), allocation-free: the caller's vector is reused.
//!
//! Legality never depends on a covered identity: flips take any covered point, covered
//! pieces block and screen like any piece, and recall counts a faction's covered pieces from
//! the public pool.

use crate::core::Seat;
use crate::core::pieces::{Piece, Role};

use super::notation::Action;
use super::pieces::Faction;
use super::points::{ADVISOR, ELEPHANT, HORSE, Point, Points, SOLDIER, cannon_targets, slides};
use super::position::Position;
use super::ruleset::{Ending, Ruleset};
use crate::core::Turn as _;

/// Where the revealed `piece` on `from` may go: empty points, and points of `enemies` it
/// captures on.
#[inline]
pub fn targets(piece: Piece, from: Point, occupied: Points, enemies: Points) -> Points {
    let i = from.index();
    let steps = |table: &[Points; Point::COUNT]| table[i] & (!occupied | enemies);
    match piece.role {
        Role::General | Role::Chariot => {
            let (empty, first) = slides(from, occupied);
            empty | (first & enemies)
        }
        Role::Cannon => slides(from, occupied).0 | (cannon_targets(from, occupied) & enemies),
        Role::Advisor => steps(&ADVISOR),
        Role::Elephant => steps(&ELEPHANT),
        Role::Horse => steps(&HORSE),
        Role::Soldier => steps(&SOLDIER),
    }
}

impl Position {
    /// The revealed pieces of every faction but `own`: what `own`'s pieces may capture.
    #[inline]
    pub fn enemies_of(&self, own: Faction) -> Points {
        self.revealed_all() & !self.revealed(own)
    }

    /// Whether `seat` may recall now (the recall ending only): it has a faction, none of the
    /// faction's pieces is covered, and it has captured at least as many pieces as the
    /// faction has on the board.
    pub fn may_recall(&self, rules: &Ruleset, seat: Seat) -> bool {
        rules.ending == Ending::Recall
            && self.faction_of(seat).is_some_and(|f| {
                self.covered_of(f) == 0 && self.captured(seat).total() >= self.revealed(f).count()
            })
    }

    /// Every legal action of the seat to move, written to `out` (cleared first); flips
    /// without identity. Empty when the seat is out of the game.
    pub fn legal_actions(&self, rules: &Ruleset, out: &mut Vec<Action>) {
        out.clear();
        let seat = self.to_move();
        if self.place(seat).is_some() {
            return;
        }
        for point in self.covered() {
            out.push(Action::Flip { point, piece: None });
        }
        let Some(own) = self.faction_of(seat) else {
            return;
        };
        let (occupied, enemies) = (self.occupied(), self.enemies_of(own));
        for from in self.revealed(own) {
            let piece = self.piece_at(from);
            for to in targets(piece, from, occupied, enemies) {
                out.push(Action::Move { from, to });
            }
        }
        if self.may_recall(rules, seat) {
            out.push(Action::Recall);
        }
    }

    /// Whether `seat` has a legal action (a seat with none passes).
    pub fn has_action(&self, rules: &Ruleset, seat: Seat) -> bool {
        if self.place(seat).is_some() {
            return false;
        }
        if !self.covered().is_empty() {
            return true;
        }
        let Some(own) = self.faction_of(seat) else {
            return false;
        };
        let (occupied, enemies) = (self.occupied(), self.enemies_of(own));
        self.revealed(own)
            .any(|from| !targets(self.piece_at(from), from, occupied, enemies).is_empty())
            || self.may_recall(rules, seat)
    }

    /// The revealed piece on `p` (the caller knows there is one).
    #[inline]
    pub(crate) fn piece_at(&self, p: Point) -> Piece {
        Piece::from_index(self.cells[p.index()] as usize - 2)
    }
}
