//! Playing an action (RULES.md §8): flips, moves, attacks and their combat, the flag rules of
//! flip games; and how the game ends ([`Position::end`]).

use crate::core::{End, IllegalAction, Outcome, Reason, Seat, Violation};

use super::board::{CAMPS, HQS, Point};
use super::notation::Action;
use super::pieces::{Combat, Piece, Role, Side, combat};
use super::position::{Cell, FlagState, Position};
use super::ruleset::{MineRule, Mode, Ruleset};
use crate::core::Turn as _;

/// What a legal action did.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Effect {
    /// A flip turned `piece` up.
    Flip {
        piece: Piece,
    },
    Move,
    /// An attack: the combat's outcome (what a referee announces), and both identities (what
    /// only the referee knows in a dark game). `revealed` when the defender was face down.
    Attack {
        attacker: Piece,
        defender: Piece,
        combat: Combat,
        revealed: bool,
    },
    /// An attack on a face-down piece that turned out to be the attacker's own, or a flag:
    /// it is turned up and the attacker stays.
    Reveal {
        piece: Piece,
    },
    /// The enemy flag was picked up.
    Pickup,
    /// The carried flag was put down.
    Drop,
}

fn illegal(reason: Violation, detail: String) -> IllegalAction {
    IllegalAction::new(reason, detail)
}

impl Position {
    /// Plays `action` for the side to move, whose identities are given (what a flip or an
    /// attack on a face-down piece reveals). It does not check whether the game has ended.
    pub fn play(&mut self, rules: &Ruleset, action: &Action) -> Result<Effect, IllegalAction> {
        let effect = match *action {
            Action::Flip { point, piece } => self.flip(point, piece)?,
            Action::Move { from, to, reveal } => self.step(rules, from, to, reveal)?,
            Action::Drop => {
                let side = self.turn.ok_or_else(|| {
                    illegal(
                        Violation::NOTHING_CARRIED,
                        "no side has a colour yet".into(),
                    )
                })?;
                let p = self.carrier(side).ok_or_else(|| {
                    illegal(
                        Violation::NOTHING_CARRIED,
                        format!("no {} piece carries the enemy flag", side.name()),
                    )
                })?;
                self.flags[side.other().index()] = FlagState::Under(p);
                Effect::Drop
            }
        };
        let progress = matches!(
            effect,
            Effect::Flip { .. } | Effect::Attack { .. } | Effect::Reveal { .. }
        );
        self.no_progress = if progress { 0 } else { self.no_progress + 1 };
        self.ply += 1;
        self.turn = self.turn.map(Side::other);
        Ok(effect)
    }

    fn flip(&mut self, point: Point, piece: Option<Piece>) -> Result<Effect, IllegalAction> {
        if self.cell(point) != Cell::Covered {
            return Err(illegal(
                Violation::NOT_COVERED,
                format!("{point} holds no face-down piece"),
            ));
        }
        let piece = self.revealed(point, piece)?;
        self.uncover(point, piece);
        if self.turn.is_none() {
            // The first flip decides the colours: the flipper plays the colour it turned up.
            self.turn = Some(piece.side);
        }
        Ok(Effect::Flip { piece })
    }

    /// The identity a flip or an attack reveals on the face-down `point`, checked.
    fn revealed(&self, point: Point, piece: Option<Piece>) -> Result<Piece, IllegalAction> {
        let piece = piece.ok_or_else(|| {
            illegal(
                Violation::REVEAL_MISSING,
                format!("the piece on {point} is face down: say what it is, like {point}(M)"),
            )
        })?;
        if self.pool.count(piece) == 0 {
            return Err(illegal(
                Violation::REVEAL_IMPOSSIBLE,
                format!("no {piece} is left face down"),
            ));
        }
        Ok(piece)
    }

    fn step(
        &mut self,
        rules: &Ruleset,
        from: Point,
        to: Point,
        reveal: Option<Piece>,
    ) -> Result<Effect, IllegalAction> {
        let piece = self.mover(from)?;
        let reach = self.reach(rules, from);
        if !(reach.moves | reach.attacks).contains(to) {
            return Err(self.why_not(rules, piece, from, to));
        }
        let covered = self.cell(to) == Cell::Covered;
        if !covered && reveal.is_some() {
            return Err(illegal(
                Violation::REVEAL_UNEXPECTED,
                format!("{to} is not face down: nothing is revealed"),
            ));
        }
        if reach.moves.contains(to) {
            let carried = self.carrier(piece.side) == Some(from);
            if carried {
                // The carried flag goes along: it is not left behind with the point.
                self.flags[piece.side.other().index()] = FlagState::Alone;
            }
            self.vacate(from);
            self.put(to, piece);
            if carried {
                self.flags[piece.side.other().index()] = FlagState::Carried(to);
            }
            return Ok(Effect::Move);
        }
        let defender = if covered {
            let defender = self.revealed(to, reveal)?;
            self.uncover(to, defender);
            if defender.side == piece.side || defender.role == Role::Flag {
                return Ok(Effect::Reveal { piece: defender });
            }
            defender
        } else {
            self.piece(to).expect("an attacked point holds a piece")
        };
        if defender.role == Role::Flag && rules.mode == Mode::Flip {
            // Face up and attackable: the carrier picks it up.
            self.take(to);
            self.vacate(from);
            self.put(to, piece);
            self.flags[defender.side.index()] = FlagState::Carried(to);
            return Ok(Effect::Pickup);
        }
        let outcome = combat(piece.role, defender.role, rules.mine == MineRule::BothDie);
        self.vacate(from);
        match outcome {
            Combat::Win => {
                self.remove_defender(to);
                self.put(to, piece);
                self.settle_flags(rules, to, piece);
            }
            Combat::Loss => {}
            Combat::Both => {
                self.remove_defender(to);
                self.drop_flags_at(to);
            }
        }
        Ok(Effect::Attack {
            attacker: piece,
            defender,
            combat: outcome,
            revealed: covered,
        })
    }

    /// The face-up piece of the side to move on `from`.
    fn mover(&self, from: Point) -> Result<Piece, IllegalAction> {
        match self.cell(from) {
            Cell::Empty => Err(illegal(
                Violation::NO_SUCH_PIECE,
                format!("{from} is empty"),
            )),
            Cell::Covered => Err(illegal(
                Violation::PIECE_COVERED,
                format!("the piece on {from} is face down: flip it instead"),
            )),
            // The message names the side, never the piece: in a dark game the mover may not
            // know what it is.
            Cell::Piece(piece) if Some(piece.side) != self.turn => Err(illegal(
                Violation::NOT_YOUR_PIECE,
                match self.turn {
                    Some(side) => format!(
                        "the piece on {from} is {}'s, and {} is to move",
                        piece.side.name(),
                        side.name()
                    ),
                    None => "nothing moves before the first flip".to_owned(),
                },
            )),
            Cell::Piece(piece) => Ok(piece),
        }
    }

    /// Why `piece` on `from` cannot go to `to`.
    fn why_not(&self, rules: &Ruleset, piece: Piece, from: Point, to: Point) -> IllegalAction {
        if !piece.role.movable() {
            return illegal(
                Violation::IMMOBILE,
                format!("{piece} on {from} never moves (mines and the flag stay put)"),
            );
        }
        if rules.hq_freeze() && HQS.contains(from) {
            return illegal(
                Violation::FROZEN_IN_HEADQUARTERS,
                format!("{piece} on {from} is in a headquarters and moves no more"),
            );
        }
        let target = self.cell(to);
        if let Cell::Piece(t) = target
            && t.side == piece.side
        {
            return illegal(
                Violation::OWN_PIECE,
                format!("{to} holds {piece}'s own {t}"),
            );
        }
        // Is `to` within reach if it were empty? Then only what stands there forbids it.
        let mut emptied = *self;
        emptied.cells[to.index()] = Cell::Empty;
        for side in &mut emptied.sides {
            *side = side.without(to);
        }
        emptied.covered = emptied.covered.without(to);
        let reachable = {
            let r = emptied.reach(rules, from);
            (r.moves | r.attacks).contains(to)
        };
        if reachable && target != Cell::Empty {
            // A flag in a camp is for its carrier to pick up: said below.
            let flag = matches!(target, Cell::Piece(t) if t.role == Role::Flag);
            if CAMPS.contains(to) && !(flag && rules.mode == super::ruleset::Mode::Flip) {
                return illegal(
                    Violation::CAMP_PROTECTED,
                    format!("the piece in the camp {to} cannot be attacked"),
                );
            }
            if to.is_mountain() {
                return illegal(
                    Violation::CAMP_PROTECTED,
                    format!("the piece on the mountain {to} cannot be attacked"),
                );
            }
            if let Cell::Piece(t) = target {
                if t.role == Role::Mine {
                    return illegal(
                        Violation::MINE_UNTOUCHABLE,
                        format!("only an engineer or a bomb attacks the face-up mine on {to}"),
                    );
                }
                if t.role == Role::Flag {
                    return illegal(
                        Violation::FLAG_NOT_CARRIABLE,
                        format!(
                            "{piece} may not pick up the flag on {to}: the carrier is the side's lowest-ranked face-up piece, once all three enemy mines are gone"
                        ),
                    );
                }
            }
        }
        if reachable {
            return illegal(
                Violation::BLOCKED,
                format!("{piece} on {from} cannot attack {to} from there"),
            );
        }
        illegal(
            Violation::UNREACHABLE,
            format!("{piece} on {from} cannot reach {to}"),
        )
    }

    /// Takes the piece off `from`; a flag it carried or stood on stays there, alone.
    fn vacate(&mut self, from: Point) {
        self.take(from);
        self.drop_flags_at(from);
    }

    /// Any flag sharing `p` (now empty) lies there alone.
    fn drop_flags_at(&mut self, p: Point) {
        for side in Side::ALL {
            if let FlagState::Carried(q) | FlagState::Under(q) = self.flags[side.index()]
                && q == p
            {
                self.flags[side.index()] = FlagState::Alone;
                self.put(p, Piece::new(side, Role::Flag));
            }
        }
    }

    /// Removes a beaten defender; a flag it carried or stood on stays on its point, under
    /// whoever comes there.
    fn remove_defender(&mut self, p: Point) {
        self.take(p);
        for side in Side::ALL {
            if let FlagState::Carried(q) = self.flags[side.index()]
                && q == p
            {
                self.flags[side.index()] = FlagState::Under(p);
            }
        }
    }

    /// After `piece` took `p`: an enemy flag lying there is picked up if it may carry it.
    fn settle_flags(&mut self, rules: &Ruleset, p: Point, piece: Piece) {
        let enemy = piece.side.other().index();
        if self.flags[enemy] == FlagState::Under(p) && self.may_carry(rules, piece) {
            self.flags[enemy] = FlagState::Carried(p);
        }
    }

    /// The seat that plays `side` at this position.
    pub fn seat_of(&self, side: Side) -> Option<Seat> {
        let turn = self.turn?;
        Some(if side == turn {
            self.to_move()
        } else {
            self.to_move().other()
        })
    }

    /// How the game has ended by the rules, if it has: a flag captured (open, dark) or
    /// carried home (flip), the side to move without an action, then the draw limits.
    pub fn end(&self, rules: &Ruleset) -> Option<End> {
        self.end_given(rules, || self.has_action(rules))
    }

    /// [`Position::end`] with `has_action` saying whether the side to move has a legal action,
    /// asked only when no other ending comes first (the search is the costly part).
    pub fn end_given(&self, rules: &Ruleset, has_action: impl FnOnce() -> bool) -> Option<End> {
        let win = |side: Side, reason: Reason| {
            let seat = self.seat_of(side)?;
            Some(End::new(Outcome::win(seat, 2), reason))
        };
        for side in Side::ALL {
            let flag = Piece::new(side, Role::Flag);
            match self.flags[side.index()] {
                FlagState::Alone if self.remaining(flag) == 0 && rules.mode != Mode::Flip => {
                    return win(side.other(), Reason::FLAG_CAPTURED);
                }
                // Carried by the other side into its own headquarters.
                FlagState::Carried(p) if Position::headquarters(side.other()).contains(p) => {
                    return win(side.other(), Reason::FLAG_CARRIED);
                }
                _ => {}
            }
        }
        if let Some(side) = self.turn
            && !has_action()
        {
            return win(side.other(), Reason::NO_MOVE);
        }
        if rules.no_progress.is_some_and(|n| self.no_progress >= n) {
            return Some(End::new(Outcome::draw(2), Reason::NO_PROGRESS));
        }
        if rules.max_plies.is_some_and(|n| self.ply >= n as u32) {
            return Some(End::new(Outcome::draw(2), Reason::PLY_LIMIT));
        }
        None
    }
}
