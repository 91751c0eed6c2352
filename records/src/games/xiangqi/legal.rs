//! Legal moves of xiangqi-3g: the pseudo-legal moves of `movegen` that leave the mover's
//! general unattacked. Most moves are told legal without playing them (see [`Safety`]): a move
//! neither touching the general's lines, the legs of horses that would take it, nor the points
//! the enemy's second identities would need cannot expose it, when it is not in check.

use super::board::{Bitboard, DIAGONAL, DIAGONALLY_NEXT_TO, RAYS, Square, nearest};
use super::leaps::{HORSE_ATTACKS, REACH, rectangle};
use super::movegen::Move;
use super::pieces::{Kind, Slot};
use super::position::Position;

/// Whether a move may leave the mover's general attacked, as far as cheap facts tell.
#[derive(Copy, Clone)]
pub(super) struct Safety {
    /// Whether the side to move is in check (or has no general).
    pub(super) in_check: bool,
    /// The general's point and the risky points around it, when the general is not in check
    /// and no enemy 骉 is within reach of it (it borrows the rule of the move about to be
    /// made): a move that is not the general's and neither leaves nor enters a risky point
    /// cannot expose it. xiangqi's kinds attack a point along its rank and file, over the four
    /// points diagonally next to it (a horse's leg), or from next to it; the second identities
    /// as [`between`] says. None: play every move and look.
    shortcut: Option<(Square, Bitboard)>,
}

/// The points whose occupant may decide whether the enemy piece of a second identity (or a
/// soldier-born advisor or elephant) on `e` attacks `g`: every rule of theirs (RULES.md §9)
/// takes along `g`'s rank or file (輔, 石: in `risky` already) or within four points of it,
/// over points inside the rectangle `e` and `g` span (a 妃's piece leapt, a 抛's screen, a 助's
/// or an elephant's middle point, a 駝's or a 騾's blocking point).
fn between(e: Square, g: Square) -> Bitboard {
    if on_a_line(e, g) || !within_reach(e, g) {
        return Bitboard::EMPTY;
    }
    Bitboard(rectangle(e, g))
}

/// Whether `e` and `g` share a rank or a file.
fn on_a_line(e: Square, g: Square) -> bool {
    e.file() == g.file() || e.rank() == g.rank()
}

/// Whether any rule of RULES.md §9 may take `g` from `e`: along a line, or from at most four
/// points away each way (a 妃's two knight steps are the farthest).
fn within_reach(e: Square, g: Square) -> bool {
    REACH[g.index()] & e.bit() != 0
}

/// The points where a piece arriving or leaving may change the attacks of xiangqi's kinds on
/// `g`: its four diagonal neighbours (the legs of horses that would take it), and along each
/// ray from it (its rank and file, each way) the points up to its second piece, when one of
/// its first three pieces is an enemy piece that may take along a line — a chariot, a cannon,
/// the general (facing) — or the ray holds any second identity (輔, 石 and the 骉's borrowed
/// rules among them). Along a line only the first piece (a chariot's) and the second (a
/// cannon's) attack; a move can make the first three pieces the first two, or put its own
/// piece among them, only by leaving or entering a point up to the second.
fn risky(pos: &Position, g: Square) -> Bitboard {
    let enemy = pos.turn.other();
    let exotic = pos.exotic[enemy.index()].0;
    let all = pos.occupied().0;
    let mut set = 0u128;
    for (d, rays) in RAYS.iter().enumerate() {
        let ray = rays[g.index()];
        if ray & pos.occupied[enemy.index()].0 & exotic != 0 {
            set |= ray;
            continue;
        }
        // The first three pieces on the ray, nearest first.
        let mut pieces = ray & all;
        let mut line = false;
        let mut second = None;
        for k in 0..3 {
            if pieces == 0 {
                break;
            }
            let s = nearest(pieces, d);
            pieces &= !s.bit();
            let p = pos.board[s.index()];
            line |= p.side() == enemy
                && matches!(p.kind(), Kind::Chariot | Kind::Cannon | Kind::General);
            if k == 1 {
                second = Some(s);
            }
        }
        if line {
            set |= match second {
                Some(s) => ray & !RAYS[d][s.index()],
                None => ray,
            };
        }
    }
    let mut set = Bitboard(set);
    for (df, dr) in DIAGONAL {
        if let Some(s) = g.offset(df, dr) {
            set = set.with(s);
        }
    }
    set
}

impl Position {
    /// What decides cheaply whether a move of the side to move leaves its general safe.
    #[inline]
    pub(super) fn safety(&self) -> Safety {
        self.safety_given(self.in_check(self.turn))
    }

    /// [`Self::safety`] when whether the side to move is in check is known already (the
    /// match remembers it from the last ply).
    #[inline]
    pub(super) fn safety_given(&self, in_check: bool) -> Safety {
        let side = self.turn;
        let shortcut = self.generals[side.index()]
            .filter(|_| !in_check)
            .and_then(|g| {
                let mut risky = risky(self, g);
                for e in self.exotic[side.other().index()] {
                    match self.board[e.index()].get().map(|p| p.kind) {
                        // A 骉 borrows the rule of the move about to be made: whichever piece
                        // moves may give it a rule that takes the general, if any rule
                        // reaches it from there.
                        Some(Kind::Biao) if within_reach(e, g) => return None,
                        Some(Kind::Biao) | None => {}
                        Some(_) => risky = risky | between(e, g),
                    }
                }
                Some((g, risky))
            });
        Safety { in_check, shortcut }
    }

    /// Whether the move `m` of the side to move leaves its general unattacked: at once when
    /// `safety` shows it cannot matter, else by playing it on `scratch` (a copy of this
    /// position made at the first such move, and restored after each).
    #[inline]
    pub(super) fn leaves_general_safe(
        &self,
        m: Move,
        safety: Safety,
        scratch: &mut Option<Position>,
    ) -> bool {
        if let Some((g, risky)) = safety.shortcut
            && m.from != g
        {
            if !risky.contains(m.from) && !risky.contains(m.to) {
                return true;
            }
            // Told without playing it (no copy of the position needed).
            if self.plain_near(g) {
                return self.safe_after_plain(m, g);
            }
        }
        // Else the cheapest complete test of the move alone.
        scratch
            .get_or_insert(*self)
            .safe_to_play(m, safety.in_check)
    }

    /// Whether no second identity of the enemy is within reach of the general on `g`: then
    /// only the lines and legs a move changes can expose it.
    #[inline]
    fn plain_near(&self, g: Square) -> bool {
        self.exotic[self.turn.other().index()].0 & REACH[g.index()] == 0
    }

    /// Every legal move (not flip) of the side to move, to `push`, given its [`Safety`].
    pub(super) fn legal_moves_with(&self, safety: Safety, mut push: impl FnMut(Move)) {
        let pieces = self.occupied[self.turn.index()];
        let mut scratch = None;
        for from in pieces {
            let (quiet, takes) = self.move_targets(from);
            let targets = quiet | takes;
            // Out of check, a piece off the risky points going to one is told safe at once
            // (in the order of the targets, as the moves one by one would be).
            let sure = match safety.shortcut {
                Some((g, risky)) if from != g && !risky.contains(from) => targets & !risky,
                _ => Bitboard::EMPTY,
            };
            if sure == targets {
                // Most pieces, far from their general: every move of theirs is legal.
                targets.for_each(|to| push(Move { from, to }));
                continue;
            }
            for to in targets {
                let m = Move { from, to };
                if sure.contains(to) || self.leaves_general_safe(m, safety, &mut scratch) {
                    push(m);
                }
            }
        }
    }

    /// Whether the side to move has a legal move (it stops at the first), given its
    /// [`Safety`].
    pub(super) fn any_legal_move_given(&self, safety: Safety) -> bool {
        let pieces = self.occupied[self.turn.index()];
        let mut scratch = None;
        for from in pieces {
            let (quiet, takes) = self.move_targets(from);
            for to in quiet | takes {
                if self.leaves_general_safe(Move { from, to }, safety, &mut scratch) {
                    return true;
                }
            }
        }
        false
    }

    /// Every legal move of the side to move, written to `out` (cleared first).
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        self.legal_moves_with(self.safety(), |m| out.push(m));
    }
}

/// What [`Position::make_as`] changed that [`Position::unmake_as`] cannot read back from the
/// board.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Undo {
    piece: Slot,
    captured: Slot,
    last: Option<(Square, Kind)>,
    no_capture: u16,
}

impl Position {
    /// Plays the move `m` here, unchecked, as [`Self::after`] does, the repetition key kept up.
    #[inline]
    pub(crate) fn make(&mut self, m: Move) {
        self.make_as::<true>(m);
    }

    /// [`Self::make`], the repetition key kept up only when `KEYED` (not for a move tried
    /// and taken back with `unmake_as::<false>`); what it returns lets [`Self::unmake_as`]
    /// restore the position exactly. Testing a move in place costs a few writes where a copy
    /// of the position costs hundreds of bytes.
    #[inline]
    pub(crate) fn make_as<const KEYED: bool>(&mut self, m: Move) -> Undo {
        let piece = self.take_slot_as::<KEYED>(m.from);
        let side = piece.side().index();
        let rule = match piece.kind() {
            Kind::Biao => self.last[1 - side].map_or(Kind::Biao, |(_, k)| k),
            k => k,
        };
        let captured = self.take_slot_as::<KEYED>(m.to);
        self.put_slot_as::<KEYED>(m.to, piece);
        let undo = Undo {
            piece,
            captured,
            last: self.last[side],
            no_capture: self.no_capture,
        };
        self.no_capture = if captured.is_empty() {
            self.no_capture + 1
        } else {
            0
        };
        self.ply += 1;
        self.turn = self.turn.other();
        self.last[side] = Some((m.to, rule));
        undo
    }

    /// Takes back the move `m` that [`Self::make_as`] played.
    #[inline]
    pub(crate) fn unmake_as<const KEYED: bool>(&mut self, m: Move, undo: Undo) {
        self.take_slot_as::<KEYED>(m.to);
        self.put_slot_as::<KEYED>(m.from, undo.piece);
        if !undo.captured.is_empty() {
            self.put_slot_as::<KEYED>(m.to, undo.captured);
        }
        self.last[undo.piece.side().index()] = undo.last;
        self.no_capture = undo.no_capture;
        self.ply -= 1;
        self.turn = self.turn.other();
    }

    /// Whether the move `m` of the side to move leaves its general unattacked, tried here and
    /// taken back.
    #[inline]
    pub(crate) fn safe_after(&mut self, m: Move) -> bool {
        let side = self.turn;
        let undo = self.make_as::<false>(m);
        let safe = !self.in_check(side);
        self.unmake_as::<false>(m, undo);
        safe
    }

    /// Whether the move `m` of the side to move leaves its general unattacked, `in_check`
    /// telling whether it is attacked now: the cheapest complete test ([`Self::play`] asks it
    /// of the one move played; the generator has cheaper ones for moves by the set).
    #[inline]
    pub(crate) fn safe_to_play(&mut self, m: Move, in_check: bool) -> bool {
        match self.generals[self.turn.index()] {
            Some(g) if !in_check && m.from != g => {
                if self.plain_near(g) {
                    self.safe_after_plain(m, g)
                } else {
                    self.safe_after_quiet(m, g)
                }
            }
            _ => self.safe_after(m),
        }
    }

    /// [`Self::safe_after`] for a move that is not the general's, from a position where the
    /// general on `g` is not in check: only what the move changed can attack it now — a line
    /// through either point, a horse whose leg it vacated, a second identity (whose rules
    /// are too many to sort: all are asked).
    #[inline]
    pub(crate) fn safe_after_quiet(&mut self, m: Move, g: Square) -> bool {
        let safe = !self.plain_attack_after(m, g) && {
            let by = self.turn.other();
            let undo = self.make_as::<false>(m);
            let none = self.exotic_attackers(g, by, 0, 1) == 0;
            self.unmake_as::<false>(m, undo);
            none
        };
        debug_assert_eq!(safe, self.safe_after(m), "{m} in {self}");
        safe
    }

    /// [`Self::safe_after_quiet`] when no second identity of the enemy is within reach of the
    /// general: told without playing the move.
    #[inline]
    pub(crate) fn safe_after_plain(&self, m: Move, g: Square) -> bool {
        let safe = !self.plain_attack_after(m, g);
        debug_assert_eq!(safe, { *self }.safe_after(m), "{m} in {self}");
        safe
    }

    /// Whether, after the move `m` (not the general's, from a position where the general on
    /// `g` is not in check), an enemy piece of xiangqi's kinds attacks `g`: only a line through
    /// either point or a horse whose leg it frees can, read from the occupied points the move
    /// leaves (its own piece on `m.to`, none on `m.from`) without playing it.
    #[inline]
    fn plain_attack_after(&self, m: Move, g: Square) -> bool {
        let by = self.turn.other();
        let all = (self.occupied().0 & !m.from.bit()) | m.to.bit();
        let t = g.index();
        let touched = m.from.bit() | m.to.bit();
        let line = (0..4).any(|d| {
            RAYS[d][t] & touched != 0 && self.line_attackers_with(g, by, d, all, Some(m.to)) > 0
        });
        // A horse's leg is diagonally next to the point it attacks.
        line || (DIAGONALLY_NEXT_TO[t] & m.from.bit() != 0
            && HORSE_ATTACKS[t].iter().any(|&(origin, leg)| {
                leg == m.from.index() as u8
                    && origin != m.to.index() as u8
                    && self.board[origin as usize].is_active(by, Kind::Horse)
            }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::xiangqi::reference::each_position;

    /// Every position of random games under every preset: the moves found legal are exactly
    /// those that, played, leave the general unattacked.
    #[test]
    fn the_shortcut_finds_exactly_the_legal_moves() {
        each_position(120, 400, |i, seed, pos| {
            let mut fast = Vec::new();
            pos.legal_moves(&mut fast);
            let mut slow = Vec::new();
            for from in pos.occupied[pos.turn.index()] {
                let (quiet, takes) = pos.move_targets(from);
                for to in quiet | takes {
                    let m = Move { from, to };
                    if !pos.after(m).in_check(pos.turn) {
                        slow.push(m);
                    }
                }
            }
            assert_eq!(fast, slow, "preset {i} seed {seed}: {pos}");
            assert_eq!(pos.any_legal_move_given(pos.safety()), !slow.is_empty());
            // The attack test's geometric shortcut turns no capture away.
            for side in crate::core::Side::ALL {
                for from in pos.occupied[side.index()] {
                    let piece = pos.board[from.index()];
                    let Some((kind, _)) = pos.rule(from, piece) else {
                        continue;
                    };
                    for to in pos.capture_set(from, piece) {
                        assert!(
                            super::super::movegen::may_capture(kind, from, to),
                            "{kind:?} {from}→{to} in {pos}"
                        );
                    }
                }
            }
        });
    }
}
