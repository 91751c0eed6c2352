//! Playing an action (RULES.md §9): the legal actions of a position, and playing one — a move
//! here, a flip of a second identity in `flips`.

use crate::core::{IllegalAction, Violation};

use super::action::Action;
use super::board::Square;
use super::movegen::Move;
use super::pieces::{Back, Kind, Piece};
use super::position::Position;
use super::ruleset::Ruleset;

/// What a legal action did.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Effect {
    Move {
        captured: Option<Kind>,
    },
    /// A soldier on the enemy back rank showed its back: `effective` on its matching point
    /// (it is that piece now), else it must flip back next.
    SoldierFlip {
        back: Kind,
        effective: bool,
    },
    FlipBack,
    /// A piece turned to its back for good (the last elephant, chariot, horse or cannon; 臣).
    Transform {
        from: Kind,
        to: Kind,
    },
    /// The general and an advisor traded faces; `correct` false: the advisor's back was not
    /// the general, and the game is lost.
    DoubleFlip {
        correct: bool,
    },
}

pub(super) fn illegal(reason: Violation, detail: impl Into<String>) -> IllegalAction {
    IllegalAction::new(reason, detail.into())
}

impl Position {
    /// Every legal action of the side to move, written to `out` (cleared first); flips
    /// without the identity they reveal. Nothing when the game is lost by a wrong double flip.
    pub fn legal_actions(&self, out: &mut Vec<Action>) {
        self.legal_actions_given(self.in_check(self.turn), out);
    }

    /// [`Self::legal_actions`] when whether the side to move is in check is known already.
    pub(crate) fn legal_actions_given(&self, in_check: bool, out: &mut Vec<Action>) {
        out.clear();
        if self.lost.is_some() {
            return;
        }
        let side = self.turn;
        // A piece that must flip back: that is the only action, and only out of check.
        if let Some(at) = self.pending(side) {
            if !in_check {
                out.push(Action::Flip { at, reveal: None });
            }
            return;
        }
        let safety = self.safety_given(in_check);
        self.legal_moves_with(safety, |m| out.push(Action::Move(m)));
        let check = safety.in_check;
        let pieces = self.occupied[side.index()];
        let mut faces = None;
        for at in pieces {
            // Only a piece with a back, or one showing it, flips.
            if !self.board[at.index()].has_back() && !self.board[at.index()].pending() {
                continue;
            }
            let piece = self.board[at.index()];
            let faces = faces.get_or_insert_with(|| self.faces(side));
            // A flip changes no point's occupant: out of check it keeps the general safe,
            // in check it does not help (but after it no 骉 borrows a move).
            if self.flip_kind_with(at, piece, faces).is_some() {
                let safe = !check || {
                    let mut after = *self;
                    after.last[side.index()] = None;
                    !after.in_check(side)
                };
                if safe {
                    out.push(Action::Flip { at, reveal: None });
                }
            }
        }
        if self.may_double_flip(check) {
            let general = self.general(side).expect("checked");
            let pieces = self.occupied[side.index()];
            for advisor in pieces {
                let p = self.board[advisor.index()].get().expect("occupied");
                if p.kind != Kind::Advisor || p.soldier_born || p.back == Back::None {
                    continue;
                }
                let named = Action::DoubleFlip {
                    general,
                    advisor,
                    reveal: None,
                };
                match p.back {
                    // The right advisor: legal if the new general is safe.
                    Back::Known(Kind::General) => {
                        let mut swapped = self.swapped(general, advisor);
                        swapped.last[side.index()] = None;
                        if !swapped.in_check(side) {
                            out.push(named);
                        }
                    }
                    // The wrong one (or unknown): legal, and it may lose the game.
                    _ => out.push(named),
                }
            }
        }
    }

    /// Plays `action` for the side to move under `rules`, its revealed identity given where the
    /// position does not know it. It does not check whether the game has ended.
    pub fn play(&mut self, rules: &Ruleset, action: &Action) -> Result<Effect, IllegalAction> {
        self.play_given(rules, action, self.in_check(self.turn))
    }

    /// [`Self::play`] when whether the side to move is in check is known already.
    pub(crate) fn play_given(
        &mut self,
        rules: &Ruleset,
        action: &Action,
        was_in_check: bool,
    ) -> Result<Effect, IllegalAction> {
        let side = self.turn;
        if let Some(at) = self.pending(side)
            && !matches!(*action, Action::Flip { at: a, .. } if a == at)
        {
            return Err(illegal(
                Violation::MUST_FLIP_BACK,
                format!(
                    "{at} was flipped on a wrong point: it must be flipped back first ({at}(P))"
                ),
            ));
        }
        let (ply, no_capture) = (self.ply, self.no_capture);
        let effect = match *action {
            Action::Move(m) => self.try_move(m, was_in_check)?,
            Action::Flip { at, reveal } => {
                let (next, effect) = self.try_flip(rules, at, reveal)?;
                *self = next;
                effect
            }
            Action::DoubleFlip {
                general,
                advisor,
                reveal,
            } => {
                let (next, effect) = self.try_double_flip(general, advisor, reveal)?;
                *self = next;
                effect
            }
        };
        // A side that lost by a wrong double flip is written `!`, in place of its check mark.
        self.checked[side.index()] = was_in_check && self.lost != Some(side);
        self.ply = ply + 1;
        self.turn = side.other();
        self.no_capture = if matches!(effect, Effect::Move { captured: Some(_) }) {
            0
        } else {
            no_capture + 1
        };
        self.forget_what_cannot_matter();
        Ok(effect)
    }

    pub(super) fn own_piece(&self, at: Square) -> Result<Piece, IllegalAction> {
        match self.board[at.index()].get() {
            None => Err(illegal(Violation::NO_SUCH_PIECE, format!("{at} is empty"))),
            Some(p) if p.side != self.turn => Err(illegal(
                Violation::NOT_YOUR_PIECE,
                format!("the piece on {at} is {}'s", p.side.name()),
            )),
            Some(p) => Ok(p),
        }
    }

    /// Plays the move `m` here if it is legal (else the position is unchanged); `in_check`
    /// tells whether the mover's general is attacked before it.
    fn try_move(&mut self, m: Move, in_check: bool) -> Result<Effect, IllegalAction> {
        let piece = self.own_piece(m.from)?;
        if piece.pending {
            return Err(illegal(
                Violation::MUST_FLIP_BACK,
                format!("{} shows its back and may not move", m.from),
            ));
        }
        let (quiet, takes) = self.move_targets(m.from);
        if !(quiet | takes).contains(m.to) {
            let reason = match self.board[m.to.index()].get() {
                Some(t) if t.side == piece.side => Violation::OWN_PIECE,
                Some(t) if t.kind == Kind::Minister => Violation::MINISTER_NEEDS_TWO,
                _ => Violation::UNREACHABLE,
            };
            return Err(illegal(
                reason,
                match reason {
                    Violation::MINISTER_NEEDS_TWO => format!(
                        "the 臣 on {} is taken only while a second piece also attacks it",
                        m.to
                    ),
                    _ => format!("{piece} on {} cannot go to {}", m.from, m.to),
                },
            ));
        }
        let captured = self.board[m.to.index()].get().map(|p| p.kind);
        if !self.safe_to_play(m, in_check) {
            return Err(illegal(
                Violation::GENERAL_IN_CHECK,
                format!("{m} leaves {}'s general attacked", piece.side.name()),
            ));
        }
        self.make(m);
        Ok(Effect::Move { captured })
    }
}
