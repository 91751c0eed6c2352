//! The flips of the second identities (RULES.md §9): which pieces may flip (a soldier on the
//! enemy back rank, the flip back after a wrong one, the transformations of the last original
//! elephant, chariot, horse or cannon, the 臣 advisor, the double flip) and what playing one
//! does.

use crate::core::{IllegalAction, Violation};

use super::board::Square;
use super::pieces::{Back, Kind, Piece, Side, Slot};
use super::play::{Effect, illegal};
use super::position::Position;
use super::ruleset::Ruleset;

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
pub(super) struct Faces {
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
    pub(super) fn faces(&self, side: Side) -> Faces {
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
    pub(super) fn flip_kind(&self, at: Square, piece: Piece) -> Option<FlipKind> {
        self.flip_kind_with(at, Slot::of(piece), &self.faces(piece.side))
    }

    /// [`Self::flip_kind`] with the side's [`Faces`] counted once for all its pieces.
    pub(super) fn flip_kind_with(
        &self,
        at: Square,
        piece: Slot,
        faces: &Faces,
    ) -> Option<FlipKind> {
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
    pub(super) fn may_double_flip(&self, in_check: bool) -> bool {
        let side = self.turn;
        !self.checked[side.index()]
            && in_check
            && self.general(side).is_some_and(|g| {
                self.board[g.index()].get().is_some_and(|p| {
                    p.back == Back::Known(Kind::Advisor) || p.back == Back::Unknown
                })
            })
    }

    /// The position with the general and the advisor trading faces (and backs).
    pub(super) fn swapped(&self, general: Square, advisor: Square) -> Position {
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

    pub(super) fn try_flip(
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
                let effective = anywhere || back.soldier_flip_takes_effect_on(at.file());
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

    pub(super) fn try_double_flip(
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
pub(super) enum FlipKind {
    Soldier,
    Back,
    Transform,
    Minister,
}
