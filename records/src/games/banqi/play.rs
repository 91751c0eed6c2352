//! Checking and applying one action to a position.

use crate::core::{IllegalAction, Violation};

use super::action::{Action, Hop, Path};
use super::movegen::beats_by_rank;
use super::position::{Cell, Position};
use super::ruleset::{CannonRule, Ruleset};
use super::types::{Piece, Role, Square};

/// What a legal action did, for the history-keeping rules and for scoring.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Effect {
    /// A covered piece was turned up.
    Flip(Piece),
    /// A piece moved without capturing.
    Quiet { from: Square, to: Square },
    /// A piece captured one or more pieces (dark links included) and stands on `to`.
    Capture { from: Square, to: Square },
    /// A dark capture revealed a piece of the attacker's own colour; the attacker stayed on `at`
    /// (after `captures` earlier links of a chain, if any).
    OwnReveal {
        from: Square,
        at: Square,
        captures: u8,
    },
    /// A dark capture failed: the attacker, last on `at`, was removed.
    DarkFailed {
        from: Square,
        at: Square,
        captures: u8,
    },
}

impl Effect {
    /// Whether the ply resets the no-progress counter (a flip, a capture, any dark capture).
    #[inline]
    pub fn is_progress(&self) -> bool {
        !matches!(self, Effect::Quiet { .. })
    }
}

/// Whether to check an action's geometry, or trust that the move generator produced it.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Trust {
    Check,
    Generated,
}

/// How a piece reaches a target it attacks.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Reach {
    ByRank,
    RankFree,
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Link {
    Quiet,
    Capture,
    DarkWon,
    DarkOwn,
    DarkLost,
}

fn illegal(reason: Violation, detail: String) -> IllegalAction {
    IllegalAction { reason, detail }
}

/// Squares strictly between `a` and `b` on one line, or None if they share no rank or file.
fn between(a: Square, b: Square) -> Option<impl Iterator<Item = Square>> {
    let (df, dr) = (
        b.file() as i8 - a.file() as i8,
        b.rank() as i8 - a.rank() as i8,
    );
    if df != 0 && dr != 0 {
        return None;
    }
    let (sf, sr) = (df.signum(), dr.signum());
    let n = df.abs() + dr.abs();
    Some((1..n).map(move |k| a.offset(sf * k, sr * k).expect("on the board")))
}

impl Position {
    /// Plays `action`, checking it against `rules`; on success returns the new position and
    /// what the action did. Flips and dark captures must name the revealed piece.
    /// Long chase and game end are judged by [`super::Game`], which knows the history.
    pub fn play(
        &self,
        rules: &Ruleset,
        action: &Action,
    ) -> Result<(Position, Effect), IllegalAction> {
        let mut next = *self;
        let effect = next.apply(rules, action, Trust::Check)?;
        Ok((next, effect))
    }

    /// Applies a generated single hop onto an empty square or a revealed enemy, or a generated
    /// flip whose piece is still covered: the playouts' fast path, which needs no judgement
    /// and cannot fail. None for anything else (nothing is changed then).
    #[inline]
    pub(crate) fn apply_generated_fast(&mut self, action: &Action) -> Option<Effect> {
        let effect = match *action {
            Action::Move(ref path)
                if path.hops().len() == 1 && !self.covered.contains(path.last().to()) =>
            {
                let (from, to) = (path.from, path.last().to());
                let piece = self.piece_at(from)?;
                let capture = self.cells[to.index()] != 0;
                self.remove(from);
                self.put_piece(to, piece);
                if capture {
                    Effect::Capture { from, to }
                } else {
                    Effect::Quiet { from, to }
                }
            }
            Action::Flip {
                square,
                reveal: Some(piece),
            } if self.covered.contains(square) && self.pool.count(piece) > 0 => {
                self.pool.decrement(piece);
                self.put_piece(square, piece);
                Effect::Flip(piece)
            }
            _ => return None,
        };
        self.advance(effect);
        Some(effect)
    }

    /// Checks and applies `action` in place; on error `self` may be partly changed, so call it
    /// on a copy (as [`Position::play`] does).
    pub(crate) fn apply(
        &mut self,
        rules: &Ruleset,
        action: &Action,
        trust: Trust,
    ) -> Result<Effect, IllegalAction> {
        if trust == Trust::Generated
            && let Some(effect) = self.apply_generated_fast(action)
        {
            return Ok(effect);
        }
        let effect = match action {
            Action::Flip { square, reveal } => self.apply_flip(*square, *reveal)?,
            Action::Move(path) => self.apply_path(rules, path, trust)?,
        };
        self.advance(effect);
        Ok(effect)
    }

    /// The counters and the turn after an action.
    #[inline]
    fn advance(&mut self, effect: Effect) {
        self.no_progress = if effect.is_progress() {
            0
        } else {
            self.no_progress + 1
        };
        self.ply += 1;
        self.turn = Some(match (self.turn, effect) {
            (Some(c), _) => c.other(),
            // The first flip gives player 1 its colour; player 2 moves next with the other.
            (None, Effect::Flip(p)) => p.side.other(),
            (None, _) => unreachable!("only flips are legal before colours are assigned"),
        });
    }

    fn apply_flip(
        &mut self,
        square: Square,
        reveal: Option<Piece>,
    ) -> Result<Effect, IllegalAction> {
        match self.cell(square) {
            Cell::Covered => {}
            Cell::Empty => {
                return Err(illegal(
                    Violation::NOT_COVERED,
                    format!("there is no piece on {square} to flip"),
                ));
            }
            Cell::Revealed(p) => {
                return Err(illegal(
                    Violation::NOT_COVERED,
                    format!("{square} holds {p}, already revealed"),
                ));
            }
        }
        let piece = self.take_reveal(square, reveal)?;
        self.put_piece(square, piece);
        Ok(Effect::Flip(piece))
    }

    /// Takes the revealed piece out of the covered pool.
    fn take_reveal(
        &mut self,
        square: Square,
        reveal: Option<Piece>,
    ) -> Result<Piece, IllegalAction> {
        let Some(piece) = reveal else {
            return Err(illegal(
                Violation::REVEAL_MISSING,
                format!(
                    "the piece revealed on {square} is not given (write it like {square}(K)) and no layout is known"
                ),
            ));
        };
        if !self.pool.take(piece) {
            return Err(illegal(
                Violation::REVEAL_IMPOSSIBLE,
                format!("{square} cannot reveal {piece}: no {piece} is still covered"),
            ));
        }
        Ok(piece)
    }

    fn apply_path(
        &mut self,
        rules: &Ruleset,
        path: &Path,
        trust: Trust,
    ) -> Result<Effect, IllegalAction> {
        let from = path.from;
        let piece = match self.cell(from) {
            Cell::Empty => {
                return Err(illegal(
                    Violation::NO_SUCH_PIECE,
                    format!("there is no piece on {from}"),
                ));
            }
            Cell::Covered => {
                return Err(illegal(
                    Violation::PIECE_COVERED,
                    format!("the piece on {from} is covered: flip it to use it"),
                ));
            }
            Cell::Revealed(p) => p,
        };
        if Some(piece.side) != self.turn {
            return Err(illegal(
                Violation::NOT_YOUR_PIECE,
                format!("{piece} on {from} is not the mover's piece"),
            ));
        }
        let mut at = from;
        let mut last = Link::Quiet;
        let mut captures = 0u8;
        for (i, hop) in path.hops().iter().enumerate() {
            if i > 0 {
                self.check_continuation(rules, last, at, hop.to())?;
            }
            last = self.apply_hop(rules, piece, at, *hop, i, trust)?;
            match last {
                Link::Quiet | Link::Capture | Link::DarkWon => at = hop.to(),
                Link::DarkOwn | Link::DarkLost => {}
            }
            if matches!(last, Link::Capture | Link::DarkWon) {
                captures += 1;
            }
        }
        Ok(match last {
            Link::Quiet => Effect::Quiet { from, to: at },
            Link::Capture | Link::DarkWon => Effect::Capture { from, to: at },
            Link::DarkOwn => Effect::OwnReveal { from, at, captures },
            Link::DarkLost => Effect::DarkFailed { from, at, captures },
        })
    }

    fn check_continuation(
        &self,
        rules: &Ruleset,
        last: Link,
        at: Square,
        to: Square,
    ) -> Result<(), IllegalAction> {
        let (reason, detail) = match last {
            Link::Quiet => (
                Violation::CHAIN_NEEDS_CAPTURE,
                "a turn that begins with a non-capturing move is a single step",
            ),
            Link::DarkOwn | Link::DarkLost => {
                (Violation::TURN_ENDED, "the dark capture ended the turn")
            }
            _ if !rules.allows_chain() => (
                Violation::CHAIN_NOT_ALLOWED,
                "chain capture is not allowed in this ruleset",
            ),
            Link::DarkWon if !rules.dark_chain_capture => (
                Violation::DARK_LINK_NOT_ALLOWED,
                "a dark capture is a turn of its own in this ruleset",
            ),
            Link::Capture | Link::DarkWon => return Ok(()),
        };
        Err(illegal(reason, format!("{at}-{to}: {detail}")))
    }

    /// Checks and applies one hop of `piece` from `at`; `index` is its place in the path.
    fn apply_hop(
        &mut self,
        rules: &Ruleset,
        piece: Piece,
        at: Square,
        hop: Hop,
        index: usize,
        trust: Trust,
    ) -> Result<Link, IllegalAction> {
        let to = hop.to();
        let name = piece.role.name();
        if to == at {
            return Err(illegal(
                Violation::UNREACHABLE,
                format!("{at}-{to}: a move must change square"),
            ));
        }
        let target = self.cell(to);
        if let Cell::Revealed(p) = target
            && p.side == piece.side
        {
            return Err(illegal(
                Violation::OWN_PIECE,
                format!("{at}-{to}: {to} holds {p}, a piece of the same colour"),
            ));
        }
        if target == Cell::Empty {
            if index > 0 {
                return Err(illegal(
                    Violation::CHAIN_NEEDS_CAPTURE,
                    format!("{at}-{to}: every hop after the first must capture"),
                ));
            }
            if hop.reveal().is_some() {
                return Err(illegal(
                    Violation::REVEAL_UNEXPECTED,
                    format!("{at}-{to}: {to} is empty, nothing is revealed"),
                ));
            }
            if trust == Trust::Check {
                self.check_quiet(rules, piece.role, at, to)?;
            }
            self.remove(at);
            self.put_piece(to, piece);
            return Ok(Link::Quiet);
        }
        let reach = match trust {
            Trust::Check => self.reach(rules, piece.role, at, to)?,
            // A generated hop reaches its target: by rank when adjacent orthogonally.
            Trust::Generated
                if at.file().abs_diff(to.file()) + at.rank().abs_diff(to.rank()) == 1
                    && !(piece.role == Role::Cannon && rules.cannon == CannonRule::Taiwan) =>
            {
                Reach::ByRank
            }
            Trust::Generated => Reach::RankFree,
        };
        if let Cell::Revealed(victim) = target {
            if hop.reveal().is_some() {
                return Err(illegal(
                    Violation::REVEAL_UNEXPECTED,
                    format!("{at}-{to}: {victim} on {to} is already revealed"),
                ));
            }
            if reach == Reach::ByRank && !beats_by_rank(piece.role, victim.role) {
                return Err(illegal(
                    Violation::RANK_FORBIDS_CAPTURE,
                    format!(
                        "{at}-{to}: a {name} cannot capture a {}",
                        victim.role.name()
                    ),
                ));
            }
            self.remove(at);
            self.put_piece(to, piece);
            return Ok(Link::Capture);
        }
        // A dark capture.
        if !rules.allows_dark_capture() {
            return Err(illegal(
                Violation::COVERED_TARGET,
                format!("{at}-{to}: covered pieces cannot be captured in this ruleset"),
            ));
        }
        if index > 0 && !rules.dark_chain_capture {
            return Err(illegal(
                Violation::DARK_LINK_NOT_ALLOWED,
                format!("{at}-{to}: a dark capture cannot be part of a chain in this ruleset"),
            ));
        }
        let revealed = self.take_reveal(to, hop.reveal())?;
        if revealed.side == piece.side {
            self.put_piece(to, revealed);
            return Ok(Link::DarkOwn);
        }
        if reach == Reach::RankFree || beats_by_rank(piece.role, revealed.role) {
            self.remove(at);
            self.put_piece(to, piece);
            Ok(Link::DarkWon)
        } else {
            self.remove(at);
            self.put_piece(to, revealed);
            Ok(Link::DarkLost)
        }
    }

    /// A non-capturing move's geometry.
    fn check_quiet(
        &self,
        rules: &Ruleset,
        role: Role,
        at: Square,
        to: Square,
    ) -> Result<(), IllegalAction> {
        let (df, dr) = (
            (to.file() as i8 - at.file() as i8).abs(),
            (to.rank() as i8 - at.rank() as i8).abs(),
        );
        if df + dr == 1 {
            return Ok(());
        }
        if df == 1 && dr == 1 && role == Role::Horse && rules.horse_diagonal {
            return Ok(());
        }
        if role == Role::Chariot
            && rules.chariot_rush
            && let Some(mut squares) = between(at, to)
        {
            return match squares.find(|&s| self.cell(s) != Cell::Empty) {
                None => Ok(()),
                Some(s) => Err(illegal(
                    Violation::BLOCKED,
                    format!("{at}-{to}: {s} is in the way"),
                )),
            };
        }
        Err(illegal(
            Violation::UNREACHABLE,
            format!(
                "{at}-{to}: a {} moves one square {}",
                role.name(),
                movement_hint(rules, role)
            ),
        ))
    }

    /// How `role` on `at` reaches the occupied square `to` to capture, or why it cannot.
    fn reach(
        &self,
        rules: &Ruleset,
        role: Role,
        at: Square,
        to: Square,
    ) -> Result<Reach, IllegalAction> {
        let (df, dr) = (
            (to.file() as i8 - at.file() as i8).abs(),
            (to.rank() as i8 - at.rank() as i8).abs(),
        );
        if role == Role::Cannon && rules.cannon == CannonRule::Taiwan {
            let Some(squares) = between(at, to) else {
                return Err(illegal(
                    Violation::UNREACHABLE,
                    format!("{at}-{to}: a cannon captures along a rank or file"),
                ));
            };
            let screens = squares.filter(|&s| self.cell(s) != Cell::Empty).count();
            if screens != 1 {
                return Err(illegal(
                    Violation::CANNON_NEEDS_ONE_SCREEN,
                    format!(
                        "{at}-{to}: a cannon captures by jumping exactly one piece; there are {screens} between"
                    ),
                ));
            }
            return Ok(Reach::RankFree);
        }
        if df + dr == 1 {
            return Ok(Reach::ByRank);
        }
        if df == 1 && dr == 1 && role == Role::Horse && rules.horse_diagonal {
            return Ok(Reach::RankFree);
        }
        if role == Role::Chariot
            && rules.chariot_captures_at_range()
            && let Some(mut squares) = between(at, to)
        {
            return match squares.find(|&s| self.cell(s) != Cell::Empty) {
                None => Ok(Reach::RankFree),
                Some(s) => Err(illegal(
                    Violation::BLOCKED,
                    format!("{at}-{to}: {s} is in the way"),
                )),
            };
        }
        Err(illegal(
            Violation::UNREACHABLE,
            format!(
                "{at}-{to}: a {} captures one square {}",
                role.name(),
                movement_hint(rules, role)
            ),
        ))
    }
}

fn movement_hint(rules: &Ruleset, role: Role) -> &'static str {
    match role {
        Role::Horse if rules.horse_diagonal => "orthogonally or diagonally",
        Role::Chariot if rules.chariot_rush => "or slides along an empty rank or file",
        Role::Chariot if rules.chariot_charge => {
            "orthogonally, or captures along an empty rank or file"
        }
        _ => "orthogonally",
    }
}
