//! Playing an action (RULES.md §9): moves, and the flips of the second identities (a soldier on
//! the enemy back rank, the flip back after a wrong one, the transformations of the last
//! elephant, chariot, horse or cannon, 臣, the double flip); legal actions; and how a position
//! ends the game ([`Position::end`]; repetition needs the history: the match's).

use crate::core::{IllegalAction, Violation};

use super::action::Action;
use super::board::Square;
use super::movegen::Move;
use super::pieces::{Back, Kind, Piece, Side, Slot};
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

fn illegal(reason: Violation, detail: impl Into<String>) -> IllegalAction {
    IllegalAction::new(reason, detail.into())
}

/// The file a soldier's back takes effect on (RULES.md §9): 車 a/i, 馬 b/h, 相 c/g, 仕 d/f,
/// 炮 e.
fn matching_file(back: Kind, file: u8) -> bool {
    match back {
        Kind::Chariot => file == 0 || file == 8,
        Kind::Horse => file == 1 || file == 7,
        Kind::Elephant => file == 2 || file == 6,
        Kind::Advisor => file == 3 || file == 5,
        Kind::Cannon => file == 4,
        _ => false,
    }
}

/// The backs a transformation may reveal for a kind.
fn pair(kind: Kind) -> Option<[Kind; 2]> {
    match kind {
        Kind::Elephant => Some([Kind::Camel, Kind::Mule]),
        Kind::Chariot => Some([Kind::Zhu, Kind::Fu]),
        Kind::Horse => Some([Kind::Fei, Kind::Biao]),
        Kind::Cannon => Some([Kind::Pao, Kind::Shi]),
        _ => None,
    }
}

/// What a side's pieces show, counted once per turn ([`Position::faces`]).
struct Faces {
    originals: [u8; Kind::ALL.len()],
    advisors: u8,
}

impl Position {
    pub(crate) fn enemy_back_rank(side: Side) -> u8 {
        match side {
            Side::Red => 9,
            Side::Black => 0,
        }
    }

    /// The side's piece that must flip back, if one must.
    pub fn pending(&self, side: Side) -> Option<Square> {
        let mut own = self.occupied[side.index()];
        own.find(|s| self.board[s.index()].pending())
    }

    /// What the side's pieces show: per kind, its original (not soldier-born) pieces, and
    /// its advisor-faced pieces (a flip of the last original of a kind, or of the last
    /// advisor, is allowed).
    fn faces(&self, side: Side) -> Faces {
        let mut faces = Faces {
            originals: [0; Kind::ALL.len()],
            advisors: 0,
        };
        for s in self.occupied[side.index()] {
            let p = self.board[s.index()];
            if !p.soldier_born() {
                faces.originals[p.kind() as usize] += 1;
            }
            if p.kind() == Kind::Advisor {
                faces.advisors += 1;
            }
        }
        faces
    }

    /// What a single flip of `piece` on `at` would be, if one is allowed there now (the back
    /// not yet considered): a soldier on the enemy back rank, a flip back, the last original of
    /// its kind, the 臣 advisor.
    fn flip_kind(&self, at: Square, piece: Piece) -> Option<FlipKind> {
        self.flip_kind_with(at, Slot::of(piece), &self.faces(piece.side))
    }

    /// [`Self::flip_kind`] with the side's [`Faces`] counted once for all its pieces.
    fn flip_kind_with(&self, at: Square, piece: Slot, faces: &Faces) -> Option<FlipKind> {
        if piece.pending() {
            return Some(FlipKind::Back);
        }
        if !piece.has_back() {
            return None;
        }
        let kind = piece.kind();
        match kind {
            Kind::Soldier if at.rank() == Position::enemy_back_rank(piece.side()) => {
                Some(FlipKind::Soldier)
            }
            Kind::Elephant | Kind::Chariot | Kind::Horse | Kind::Cannon
                if !piece.soldier_born() && faces.originals[kind as usize] == 1 =>
            {
                Some(FlipKind::Transform)
            }
            Kind::Advisor
                if !piece.soldier_born()
                    && faces.advisors == 1
                    && !piece.back_is(Kind::General) =>
            {
                Some(FlipKind::Minister)
            }
            _ => None,
        }
    }

    /// Whether the side to move may double-flip now: in check (`in_check` says), and not at its
    /// previous turn.
    fn may_double_flip(&self, in_check: bool) -> bool {
        let side = self.turn;
        !self.checked[side.index()]
            && in_check
            && self.general(side).is_some_and(|g| {
                self.board[g.index()].get().is_some_and(|p| {
                    p.back == Back::Known(Kind::Advisor) || p.back == Back::Unknown
                })
            })
    }

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

    /// The position with the general and the advisor trading faces (and backs).
    fn swapped(&self, general: Square, advisor: Square) -> Position {
        let mut next = *self;
        let g = next.take(general).expect("a general");
        let a = next.take(advisor).expect("an advisor");
        next.put(
            general,
            Piece {
                kind: Kind::Advisor,
                back: Back::Known(Kind::General),
                ..g
            },
        );
        next.put(
            advisor,
            Piece {
                kind: Kind::General,
                back: Back::Known(Kind::Advisor),
                ..a
            },
        );
        next
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
            Action::Move(m) => self.try_move(m)?,
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

    fn own_piece(&self, at: Square) -> Result<Piece, IllegalAction> {
        match self.board[at.index()].get() {
            None => Err(illegal(Violation::NO_SUCH_PIECE, format!("{at} is empty"))),
            Some(p) if p.side != self.turn => Err(illegal(
                Violation::NOT_YOUR_PIECE,
                format!("the piece on {at} is {}'s", p.side.name()),
            )),
            Some(p) => Ok(p),
        }
    }

    /// Plays the move `m` here if it is legal (else the position is unchanged).
    fn try_move(&mut self, m: Move) -> Result<Effect, IllegalAction> {
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
        let undo = self.make(m);
        if self.in_check(piece.side) {
            self.unmake(m, undo);
            return Err(illegal(
                Violation::GENERAL_IN_CHECK,
                format!("{m} leaves {}'s general attacked", piece.side.name()),
            ));
        }
        Ok(Effect::Move { captured })
    }

    fn try_flip(
        &self,
        rules: &Ruleset,
        at: Square,
        reveal: Option<Kind>,
    ) -> Result<(Position, Effect), IllegalAction> {
        let piece = self.own_piece(at)?;
        let Some(kind) = self.flip_kind(at, piece) else {
            return Err(illegal(
                Violation::NO_FLIP,
                format!(
                    "{piece} on {at} cannot flip now (a soldier on the enemy back rank, the last original elephant, chariot, horse or cannon, or the last advisor may)"
                ),
            ));
        };
        let mut next = *self;
        next.last[piece.side.index()] = None;
        let effect = match kind {
            FlipKind::Back => {
                if reveal.is_some_and(|k| k != Kind::Soldier) {
                    return Err(illegal(
                        Violation::REVEAL_IMPOSSIBLE,
                        format!("{at} flips back to a soldier: {at}(P)"),
                    ));
                }
                next.set(
                    at,
                    Piece {
                        pending: false,
                        ..piece
                    },
                );
                Effect::FlipBack
            }
            FlipKind::Soldier => {
                let back = self.back_of(at, piece, reveal)?;
                if ![
                    Kind::Chariot,
                    Kind::Horse,
                    Kind::Cannon,
                    Kind::Elephant,
                    Kind::Advisor,
                ]
                .contains(&back)
                {
                    return Err(illegal(
                        Violation::REVEAL_IMPOSSIBLE,
                        format!(
                            "a soldier's back is one of R N C B A, not {}",
                            back.letter()
                        ),
                    ));
                }
                self.soldier_back_unused(piece.side, at, back)?;
                let anywhere = rules.soldier_flip_anywhere;
                let effective = anywhere || matching_file(back, at.file());
                next.set(
                    at,
                    if effective {
                        Piece {
                            kind: back,
                            back: Back::None,
                            soldier_born: true,
                            roams: anywhere && back == Kind::Advisor,
                            ..piece
                        }
                    } else {
                        Piece {
                            back: Back::Known(back),
                            pending: true,
                            back_public: true,
                            ..piece
                        }
                    },
                );
                Effect::SoldierFlip { back, effective }
            }
            FlipKind::Transform => {
                let back = self.back_of(at, piece, reveal)?;
                let pair = pair(piece.kind).expect("a kind with a pair of backs");
                if !pair.contains(&back) {
                    return Err(illegal(
                        Violation::REVEAL_IMPOSSIBLE,
                        format!(
                            "{}'s back is {} or {}, not {}",
                            piece.kind.name(),
                            pair[0].letter(),
                            pair[1].letter(),
                            back.letter()
                        ),
                    ));
                }
                next.set(
                    at,
                    Piece {
                        kind: back,
                        back: Back::None,
                        ..piece
                    },
                );
                Effect::Transform {
                    from: piece.kind,
                    to: back,
                }
            }
            FlipKind::Minister => {
                let back = self.back_of(at, piece, reveal)?;
                if back != Kind::Minister {
                    return Err(illegal(
                        Violation::REVEAL_IMPOSSIBLE,
                        format!(
                            "a single flip of an advisor reveals 臣 (M), not {}",
                            back.letter()
                        ),
                    ));
                }
                next.set(
                    at,
                    Piece {
                        kind: Kind::Minister,
                        back: Back::None,
                        ..piece
                    },
                );
                Effect::Transform {
                    from: Kind::Advisor,
                    to: Kind::Minister,
                }
            }
        };
        if next.in_check(piece.side) {
            return Err(illegal(
                Violation::GENERAL_IN_CHECK,
                format!(
                    "a flip does not answer the check on {}'s general",
                    piece.side.name()
                ),
            ));
        }
        Ok((next, effect))
    }

    /// The back a flip reveals: the position's, checked against the one given; or the one
    /// given where the position does not know it.
    fn back_of(
        &self,
        at: Square,
        piece: Piece,
        reveal: Option<Kind>,
    ) -> Result<Kind, IllegalAction> {
        match (piece.back, reveal) {
            (Back::Known(k), Some(r)) if k != r => Err(illegal(
                Violation::REVEAL_CONTRADICTS_LAYOUT,
                format!(
                    "the piece on {at} has {} on its back, not {}",
                    k.letter(),
                    r.letter()
                ),
            )),
            (Back::Known(k), _) => Ok(k),
            (Back::Unknown, Some(r)) => Ok(r),
            (Back::Unknown, None) => Err(illegal(
                Violation::REVEAL_MISSING,
                format!("the backs are not known here: say what {at}'s back is, like {at}(R)"),
            )),
            (Back::None, _) => Err(illegal(Violation::NO_FLIP, format!("{at} has no back"))),
        }
    }

    /// A soldier's back is one of five, each once: another soldier of the side may not have
    /// shown the same.
    fn soldier_back_unused(&self, side: Side, at: Square, back: Kind) -> Result<(), IllegalAction> {
        let mut own = self.occupied[side.index()];
        let taken = own.any(|s| {
            s != at
                && self.board[s.index()].get().is_some_and(|p| {
                    (p.soldier_born && p.kind == back)
                        || (p.kind == Kind::Soldier && p.back_public && p.back == Back::Known(back))
                })
        });
        if taken {
            return Err(illegal(
                Violation::REVEAL_IMPOSSIBLE,
                format!(
                    "another {} soldier already has {} on its back",
                    side.name(),
                    back.letter()
                ),
            ));
        }
        Ok(())
    }

    fn try_double_flip(
        &self,
        general: Square,
        advisor: Square,
        reveal: Option<Kind>,
    ) -> Result<(Position, Effect), IllegalAction> {
        let side = self.turn;
        let g = self.own_piece(general)?;
        let a = self.own_piece(advisor)?;
        if g.kind != Kind::General
            || a.kind != Kind::Advisor
            || a.soldier_born
            || a.back == Back::None
        {
            return Err(illegal(
                Violation::NO_FLIP,
                format!(
                    "a double flip names the general ({general}) and one of its advisors ({advisor})"
                ),
            ));
        }
        if !self.may_double_flip(self.in_check(self.turn)) {
            return Err(illegal(
                Violation::DOUBLE_FLIP_NOT_ALLOWED,
                "a double flip answers a first check: the general is not in check, or was at the previous turn too",
            ));
        }
        let back = self.back_of(advisor, a, reveal)?;
        if back != Kind::General {
            // 翻錯即為輸棋: the wrong advisor loses at once; its back is shown.
            let mut next = *self;
            next.set(
                advisor,
                Piece {
                    back: Back::Known(back),
                    back_public: true,
                    ..a
                },
            );
            next.lost = Some(side);
            next.last[side.index()] = None;
            return Ok((next, Effect::DoubleFlip { correct: false }));
        }
        let mut next = self.swapped(general, advisor);
        next.last[side.index()] = None;
        if next.in_check(side) {
            return Err(illegal(
                Violation::GENERAL_IN_CHECK,
                format!("after the double flip the new general on {advisor} would be attacked"),
            ));
        }
        Ok((next, Effect::DoubleFlip { correct: true }))
    }
}

/// What a single flip is.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum FlipKind {
    Soldier,
    Back,
    Transform,
    Minister,
}
