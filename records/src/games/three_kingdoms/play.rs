//! Playing an action (RULES.md §7): flips that claim factions, moves and captures, recall;
//! then who is out, and whose turn it is. And how the game ends ([`Position::end`]).

use crate::core::pieces::{Cell, Piece, Role};
use crate::core::{End, IllegalAction, Outcome, Reason, Seat, Violation};

use super::notation::Action;
use super::pieces::{Faction, points};
use super::points::{Point, between};
use super::position::{NONE, Position};
use super::ruleset::{Ending, Ruleset};
use crate::core::Turn as _;

/// What a legal action did.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Effect {
    /// A flip revealed `piece`; `claimed` when it gave the flipper its faction.
    Flip {
        piece: Piece,
        claimed: bool,
    },
    Move,
    Capture {
        piece: Piece,
    },
    /// The seat recalled its `pieces` pieces and finished.
    Recall {
        pieces: u8,
    },
}

fn illegal(reason: Violation, detail: String) -> IllegalAction {
    IllegalAction::new(reason, detail)
}

impl Position {
    /// Plays `action` for the seat to move, whose identities are given (a flip's piece).
    /// It does not check whether the game has ended ([`Position::end`]).
    pub fn play(&mut self, rules: &Ruleset, action: &Action) -> Result<Effect, IllegalAction> {
        let seat = self.to_move();
        let effect = match *action {
            Action::Flip { point, piece } => self.flip(seat, point, piece)?,
            Action::Move { from, to } => self.check_move(seat, from, to)?,
            Action::Recall => self.check_recall(rules, seat)?,
        };
        self.apply(rules, seat, action, effect);
        Ok(effect)
    }

    fn flip(
        &mut self,
        seat: Seat,
        point: Point,
        piece: Option<Piece>,
    ) -> Result<Effect, IllegalAction> {
        if self.cell(point) != Cell::Covered {
            return Err(illegal(
                Violation::NOT_COVERED,
                format!("{point} holds no covered piece"),
            ));
        }
        let Some(piece) = piece else {
            return Err(illegal(
                Violation::REVEAL_MISSING,
                format!("the flip of {point} must say the piece it revealed, like {point}(R)"),
            ));
        };
        if self.pool().count(piece) == 0 {
            return Err(illegal(
                Violation::REVEAL_IMPOSSIBLE,
                format!("no {piece} is left face down"),
            ));
        }
        let faction = self.split.faction(piece);
        let claimed = self.faction_of(seat).is_none() && self.owner(faction).is_none();
        Ok(Effect::Flip { piece, claimed })
    }

    fn check_move(&self, seat: Seat, from: Point, to: Point) -> Result<Effect, IllegalAction> {
        let Some(own) = self.faction_of(seat) else {
            return Err(illegal(
                Violation::NO_FACTION,
                format!("{seat} has no faction yet and can only flip"),
            ));
        };
        let piece = match self.cell(from) {
            Cell::Empty => {
                return Err(illegal(
                    Violation::NO_SUCH_PIECE,
                    format!("{from} is empty"),
                ));
            }
            Cell::Covered => {
                return Err(illegal(
                    Violation::PIECE_COVERED,
                    format!("the piece on {from} is face down: flip it instead"),
                ));
            }
            Cell::Revealed(piece) => piece,
        };
        let faction = self.split.faction(piece);
        if faction != own {
            let name = self.split.name(faction);
            return Err(match self.owner(faction) {
                None => illegal(
                    Violation::FACTION_UNCLAIMED,
                    format!(
                        "{piece} on {from} belongs to the {name} faction, which nobody has claimed"
                    ),
                ),
                Some(owner) => illegal(
                    Violation::NOT_YOUR_PIECE,
                    format!("{piece} on {from} belongs to {owner} ({name})"),
                ),
            });
        }
        let target = match self.cell(to) {
            Cell::Covered => {
                return Err(illegal(
                    Violation::COVERED_TARGET,
                    format!("the piece on {to} is face down: covered pieces are never captured"),
                ));
            }
            Cell::Revealed(t) if self.split.faction(t) == own => {
                return Err(illegal(
                    Violation::OWN_PIECE,
                    format!("{to} holds {t}, a piece of your own faction"),
                ));
            }
            Cell::Revealed(t) => Some(t),
            Cell::Empty => None,
        };
        let unreachable = || {
            illegal(
                Violation::UNREACHABLE,
                format!("{} on {from} cannot reach {to}", piece.role.name()),
            )
        };
        let step = |table: &[super::points::Points; Point::COUNT]| {
            if table[from.index()].contains(to) {
                Ok(())
            } else {
                Err(unreachable())
            }
        };
        match piece.role {
            Role::Advisor => step(&super::points::ADVISOR)?,
            Role::Elephant => step(&super::points::ELEPHANT)?,
            Role::Horse => step(&super::points::HORSE)?,
            Role::Soldier => step(&super::points::SOLDIER)?,
            Role::General | Role::Chariot | Role::Cannon => {
                let on_line = from != to && (from.file() == to.file() || from.rank() == to.rank());
                if !on_line {
                    return Err(unreachable());
                }
                let screens = (between(from, to) & self.occupied()).count();
                match (piece.role, target) {
                    (Role::Cannon, Some(_)) if screens != 1 => {
                        return Err(illegal(
                            Violation::CANNON_NEEDS_ONE_SCREEN,
                            format!(
                                "a cannon captures by jumping exactly one piece; {screens} stand between {from} and {to}"
                            ),
                        ));
                    }
                    (Role::Cannon, Some(_)) => {}
                    _ if screens > 0 => {
                        return Err(illegal(
                            Violation::BLOCKED,
                            format!("{screens} piece(s) stand between {from} and {to}"),
                        ));
                    }
                    _ => {}
                }
            }
        }
        Ok(match target {
            Some(piece) => Effect::Capture { piece },
            None => Effect::Move,
        })
    }

    fn check_recall(&self, rules: &Ruleset, seat: Seat) -> Result<Effect, IllegalAction> {
        if rules.ending != Ending::Recall {
            return Err(illegal(
                Violation::RECALL_NOT_ALLOWED,
                "recall (收軍) is played only with the recall ending".to_owned(),
            ));
        }
        let Some(own) = self.faction_of(seat) else {
            return Err(illegal(
                Violation::NO_FACTION,
                format!("{seat} has no faction to recall"),
            ));
        };
        let covered = self.covered_of(own);
        if covered > 0 {
            return Err(illegal(
                Violation::RECALL_COVERED,
                format!("{covered} piece(s) of your faction are still face down"),
            ));
        }
        let (captured, on_board) = (self.captured(seat).total(), self.revealed(own).count());
        if captured < on_board {
            return Err(illegal(
                Violation::RECALL_NOT_EARNED,
                format!(
                    "you captured {captured} piece(s); your faction has {on_board} on the board"
                ),
            ));
        }
        Ok(Effect::Recall {
            pieces: on_board as u8,
        })
    }

    fn apply(&mut self, rules: &Ruleset, seat: Seat, action: &Action, effect: Effect) {
        self.ply += 1;
        self.no_progress = if matches!(effect, Effect::Move) {
            self.no_progress + 1
        } else {
            0
        };
        match (*action, effect) {
            (Action::Flip { point, .. }, Effect::Flip { piece, claimed }) => {
                let faction = self.split.faction(piece);
                self.cells[point.index()] = 2 + piece.index() as u8;
                self.covered.remove(point);
                self.revealed[faction.0 as usize].insert(point);
                self.pool.take(piece);
                if claimed {
                    self.factions[seat.index()] = faction.0;
                    self.give_third_faction();
                }
            }
            (Action::Move { from, to }, _) => {
                let piece_code = self.cells[from.index()];
                let own = self.split.faction(self.piece_at(from)).0 as usize;
                if let Effect::Capture { piece } = effect {
                    let faction = self.split.faction(piece);
                    self.revealed[faction.0 as usize].remove(to);
                    self.captured[seat.index()].add(piece);
                    self.captured_points[seat.index()] += points(piece.role);
                    self.eliminate_if_gone(faction);
                }
                self.cells[to.index()] = piece_code;
                self.cells[from.index()] = 0;
                self.revealed[own].remove(from);
                self.revealed[own].insert(to);
            }
            (Action::Recall, _) => {
                let own = self.factions[seat.index()] as usize;
                for p in self.revealed[own] {
                    self.cells[p.index()] = 0;
                }
                self.revealed[own] = super::points::Points::EMPTY;
                let place = self.free_places().0;
                self.places[seat.index()] = place;
            }
            _ => unreachable!("the effect comes from the action"),
        }
        if self.covered.is_empty() {
            // Nobody can claim a faction any more.
            let mut out = [false; 3];
            for s in Seat::all(3) {
                out[s.index()] = self.place(s).is_none() && self.faction_of(s).is_none();
            }
            self.put_out(out);
        }
        self.pass_turn(rules, seat);
    }

    /// Once two seats have factions, the third gets the last one (and is out at once if
    /// that faction has no piece left).
    fn give_third_faction(&mut self) {
        let claimed = self.factions.iter().filter(|f| **f != NONE).count();
        if claimed != 2 {
            return;
        }
        let last = (0..3u8)
            .find(|f| !self.factions.contains(f))
            .expect("one left");
        let third = self
            .factions
            .iter()
            .position(|f| *f == NONE)
            .expect("one without");
        self.factions[third] = last;
        self.eliminate_if_gone(Faction(last));
    }

    fn eliminate_if_gone(&mut self, faction: Faction) {
        if self.faction_alive(faction) {
            return;
        }
        if let Some(owner) = self.owner(faction).filter(|s| self.place(*s).is_none()) {
            let mut out = [false; 3];
            out[owner.index()] = true;
            self.put_out(out);
        }
    }

    /// The best and the worst place nobody holds yet (seats tied on a place hold the places
    /// below it too).
    fn free_places(&self) -> (u8, u8) {
        let mut taken = [false; 4];
        for p in self.places.iter().filter(|p| **p != 0) {
            let tied = self.places.iter().filter(|q| *q == p).count() as u8;
            for r in *p..*p + tied {
                taken[r as usize] = true;
            }
        }
        let best = (1..=3).find(|r| !taken[*r as usize]).unwrap_or(3);
        let worst = (1..=3).rev().find(|r| !taken[*r as usize]).unwrap_or(3);
        (best, worst)
    }

    /// The seats marked in `out` leave the game together, tied below every seat still in it.
    fn put_out(&mut self, out: [bool; 3]) {
        let n = out.iter().filter(|o| **o).count() as u8;
        if n == 0 {
            return;
        }
        let place = self.free_places().1 + 1 - n;
        for (i, o) in out.iter().enumerate() {
            if *o {
                self.places[i] = place;
            }
        }
    }

    /// The turn passes to the next seat in rotation that is in the game and has a legal
    /// action: the others pass. When nobody can act, it stays with the next seat in the game
    /// (and the game is over: [`Position::end`]).
    pub(crate) fn pass_turn(&mut self, rules: &Ruleset, mover: Seat) {
        let mut first_in_play = None;
        let mut seat = mover;
        for _ in 0..3 {
            seat = seat.next(3);
            if self.place(seat).is_some() {
                continue;
            }
            first_in_play.get_or_insert(seat);
            if self.has_action(rules, seat) {
                self.turn = seat.index() as u8;
                return;
            }
        }
        if let Some(seat) = first_in_play {
            self.turn = seat.index() as u8;
        }
    }

    /// How the game has ended by the rules, if it has.
    pub fn end(&self, rules: &Ruleset) -> Option<End> {
        if rules.ending == Ending::Race
            && self.captured_points.iter().any(|p| *p >= rules.race_target)
        {
            return Some(End::new(self.ranking(rules), Reason::RACE));
        }
        if self.seats_in_play() <= 1 {
            let reason = if rules.ending == Ending::Points {
                Reason::POINTS
            } else if self.places.contains(&1) {
                // Only a recall puts a seat first while others play on.
                Reason::RECALL
            } else {
                Reason::ELIMINATION
            };
            return Some(End::new(self.ranking(rules), reason));
        }
        if rules
            .no_progress
            .is_some_and(|limit| self.no_progress >= limit as u32)
        {
            return Some(End::new(self.ranking(rules), Reason::NO_PROGRESS));
        }
        if rules
            .max_plies
            .is_some_and(|limit| self.ply >= limit as u32)
        {
            return Some(End::new(self.ranking(rules), Reason::PLY_LIMIT));
        }
        if !self.has_action(rules, self.to_move()) {
            return Some(End::new(self.ranking(rules), Reason::NO_MOVE));
        }
        None
    }

    /// The ranking when `seat`, still playing, leaves the game (docs/rules.md, "A game's life
    /// with three seats"): out now, below every seat still in it and above the seats already
    /// out; the seats still in it ranked as the no-progress limit ranks them. The points
    /// ending ranks the others by points, the leaving seat last.
    pub fn conceded(&self, rules: &Ruleset, seat: Seat) -> Outcome {
        if rules.ending == Ending::Points {
            let all = [Seat::FIRST, Seat::SECOND, Seat::THIRD];
            let points = all.map(|s| {
                if s == seat {
                    i64::MIN / 2
                } else {
                    self.points_score(s)
                }
            });
            return Outcome::by_score(&points);
        }
        let mut after = *self;
        let mut out = [false; 3];
        out[seat.index()] = true;
        after.put_out(out);
        after.ranking(rules)
    }

    /// The ranking of a draw the seats still playing agree: they tie at the best place
    /// nobody holds yet; the seats already out keep their places.
    pub fn agreed_draw(&self) -> Outcome {
        let best = self.free_places().0;
        let all = [Seat::FIRST, Seat::SECOND, Seat::THIRD];
        Outcome::by_score(&all.map(|s| -(self.place(s).unwrap_or(best) as i64)))
    }

    /// The final ranking (RULES.md §7). Points: every seat by its points. Otherwise seats
    /// already out keep their places; the seats still playing take the places between, by
    /// points captured in a race (its winner, who reached the target, first; equal points
    /// tie), else by score (320 − points lost + points captured).
    fn ranking(&self, rules: &Ruleset) -> Outcome {
        let all = [Seat::FIRST, Seat::SECOND, Seat::THIRD];
        if rules.ending == Ending::Points {
            return Outcome::by_score(&all.map(|s| self.points_score(s)));
        }
        let key = |s: Seat| {
            if rules.ending == Ending::Race {
                self.captured_points(s) as i64
            } else {
                self.points_score(s)
            }
        };
        let best = self.free_places().0;
        let places = all.map(|s| match self.place(s) {
            Some(p) => p,
            None => {
                let above = all
                    .iter()
                    .filter(|t| self.place(**t).is_none() && key(**t) > key(s))
                    .count() as u8;
                best + above
            }
        });
        Outcome::by_score(&places.map(|p| -(p as i64)))
    }
}
