//! The long-chase rule (長捉禁手, RULES.md §1): each player's consecutive chases of each enemy
//! piece, what a turn does to them, and which moves they forbid. A match keeps them for its
//! game; the engine's search keeps them along the lines it reads.

use crate::core::{IllegalAction, Seat, Turn as _, Violation};

use super::action::{Action, Path};
use super::bitboard::Bitboard;
use super::movegen::capturable;
use super::play::{Effect, Trust};
use super::position::Position;
use super::ruleset::Ruleset;
use super::types::{Piece, Role, Square};

/// Consecutive chases of one player, keyed by the square of the chased enemy piece
/// (followed as that piece moves). Zero means not chased.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
struct Chases {
    counts: [u8; 32],
    keys: Bitboard,
}

impl Chases {
    fn max(&self) -> u8 {
        self.keys.map(|s| self.counts[s.index()]).max().unwrap_or(0)
    }

    fn clear(&mut self) {
        for s in self.keys {
            self.counts[s.index()] = 0;
        }
        self.keys = Bitboard::EMPTY;
    }

    /// The chased piece moved from `from` to `to` (or died, when `to` is None).
    fn follow(&mut self, from: Square, to: Option<Square>) {
        if !self.keys.contains(from) {
            return;
        }
        let n = self.counts[from.index()];
        self.counts[from.index()] = 0;
        self.keys.remove(from);
        if let Some(to) = to {
            self.counts[to.index()] = n;
            self.keys.insert(to);
        }
    }

    /// The player's turn chased exactly `targets`.
    fn chase(&mut self, targets: Bitboard) {
        let old = *self;
        self.clear();
        for t in targets {
            self.counts[t.index()] = old.counts[t.index()].saturating_add(1);
            self.keys.insert(t);
        }
    }
}

/// Both players' consecutive chases: all zero at a bare position (the rule needs the game's
/// history), kept up by [`LongChase::record`] after every action.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct LongChase([Chases; 2]);

impl LongChase {
    /// Whether the rule may forbid a move of the player to move at `pos` under `rules`: one
    /// of its counts is one short of the limit (else nothing needs asking).
    #[inline]
    pub(crate) fn may_bite(&self, rules: &Ruleset, pos: &Position) -> bool {
        let Some(limit) = rules.long_chase else {
            return false;
        };
        self.0[pos.to_move().index()].max() + 1 >= limit
    }

    /// Counts `mover`'s action, whose `effect` made `next`: the pieces it chases now, and the
    /// other player's chased piece followed where it went (nothing under `rules` without the
    /// rule).
    pub(crate) fn record(
        &mut self,
        rules: &Ruleset,
        next: &Position,
        mover: Seat,
        effect: &Effect,
    ) {
        if rules.long_chase.is_none() {
            return;
        }
        let targets = chased_by(rules, next, effect).unwrap_or(Bitboard::EMPTY);
        self.0[mover.index()].chase(targets);
        let other = &mut self.0[mover.other().index()];
        match *effect {
            Effect::Quiet { from, to } | Effect::Capture { from, to } => {
                other.follow(from, Some(to))
            }
            Effect::DarkFailed { from, .. } => other.follow(from, None),
            Effect::OwnReveal { from, at, .. } => other.follow(from, Some(at)),
            Effect::Flip(_) => {}
        }
    }

    /// Why moving along `path` at `pos` would break the rule, if it would. Dark links are
    /// judged as if they succeeded (RULES.md §1): whether an action is legal never depends on
    /// what a covered piece is, so a link that in truth revealed an own piece or failed is
    /// judged the same.
    pub(crate) fn forbids(
        &self,
        rules: &Ruleset,
        pos: &Position,
        path: &Path,
    ) -> Option<IllegalAction> {
        let limit = rules.long_chase?;
        let us = pos.turn()?;
        let mover = pos.piece_at(path.from)?;
        let mut next = *pos;
        let mut path = *path;
        for hop in path.hops_mut() {
            if next.covered().contains(hop.to()) {
                // Any enemy piece the attacker beats by rank will do (the General cannot
                // take a Soldier, so give it an Advisor).
                let role = if mover.role == Role::General {
                    Role::Advisor
                } else {
                    Role::Soldier
                };
                let victim = Piece::new(us.other(), role);
                next.pool.add(victim);
                hop.set_reveal(Some(victim));
            }
        }
        let effect = next
            .apply(rules, &Action::Move(path), Trust::Generated)
            .ok()?;
        let targets = chased_by(rules, &next, &effect)?;
        let counts = &self.0[pos.to_move().index()];
        let t = targets
            .into_iter()
            .find(|t| counts.counts[t.index()] + 1 >= limit)?;
        let piece = pos.piece_at(t).map_or('?', |p| p.chinese());
        Some(IllegalAction::new(
            Violation::LONG_CHASE,
            format!("this would be chase number {limit} in a row of {piece} on {t} (長捉禁手)"),
        ))
    }

    /// Whether `action` (from the generator) is forbidden at `pos`.
    pub(crate) fn forbids_action(&self, rules: &Ruleset, pos: &Position, action: &Action) -> bool {
        match action {
            Action::Move(path) => self.forbids(rules, pos, path).is_some(),
            Action::Flip { .. } => false,
        }
    }
}

/// The enemy pieces the moved piece attacks after the move, or None when the turn resets
/// the counts (a flip, an own-piece reveal, a failed dark capture).
fn chased_by(rules: &Ruleset, next: &Position, effect: &Effect) -> Option<Bitboard> {
    let to = match *effect {
        Effect::Quiet { to, .. } | Effect::Capture { to, .. } => to,
        _ => return None,
    };
    let piece = next
        .piece_at(to)
        .expect("the mover stands on its last square");
    Some(capturable(next, rules, to, piece))
}
