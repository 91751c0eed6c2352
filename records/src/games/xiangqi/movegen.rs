//! Xiangqi moves (RULES.md §9): every piece with its blocks and bounds, check by reverse
//! lookup from the general (the flying-general rule as the generals' mutual "attack" along an
//! open file), legality by king safety after the move. Allocation-free: moves go to the
//! caller's vector.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::board::{DIAGONAL, HALVES, HORSE, ORTHOGONAL, PALACES, Square};
use super::pieces::{Kind, Piece, Side};
use super::position::Position;

/// A move from one point to another, in ICCS (`h2e2`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

#[derive(Error, Debug, Clone, PartialEq, Eq)]
#[error("invalid move {0:?}: expected ICCS, the two points like h2e2")]
pub struct ParseMoveError(pub String);

impl FromStr for Move {
    type Err = ParseMoveError;
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let err = || ParseMoveError(s.to_owned());
        if s.len() != 4 || !s.is_ascii() {
            return Err(err());
        }
        let from: Square = s[..2].parse().map_err(|_| err())?;
        let to: Square = s[2..].parse().map_err(|_| err())?;
        if from == to {
            return Err(err());
        }
        Ok(Move { from, to })
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

impl Position {
    /// Every move of the piece on `from` as its kind moves, own pieces excluded, king safety
    /// not checked; calls `push` with each destination.
    #[inline]
    fn piece_moves(&self, from: Square, piece: Piece, mut push: impl FnMut(Square)) {
        let own = self.occupied[piece.side.index()];
        let all = self.occupied();
        let mut step = |to: Option<Square>| {
            if let Some(to) = to
                && !own.contains(to)
            {
                push(to);
            }
        };
        match piece.kind {
            Kind::General => {
                for (df, dr) in ORTHOGONAL {
                    step(
                        from.offset(df, dr)
                            .filter(|s| PALACES[piece.side.index()].contains(*s)),
                    );
                }
            }
            Kind::Advisor => {
                for (df, dr) in DIAGONAL {
                    step(
                        from.offset(df, dr)
                            .filter(|s| PALACES[piece.side.index()].contains(*s)),
                    );
                }
            }
            Kind::Elephant => {
                for (df, dr) in DIAGONAL {
                    let Some(eye) = from.offset(df, dr) else {
                        continue;
                    };
                    if all.contains(eye) {
                        continue;
                    }
                    step(
                        from.offset(2 * df, 2 * dr)
                            .filter(|s| HALVES[piece.side.index()].contains(*s)),
                    );
                }
            }
            Kind::Horse => {
                for ((df, dr), (lf, lr)) in HORSE {
                    let Some(leg) = from.offset(lf, lr) else {
                        continue;
                    };
                    if !all.contains(leg) {
                        step(from.offset(df, dr));
                    }
                }
            }
            Kind::Chariot => {
                for (df, dr) in ORTHOGONAL {
                    let mut at = from;
                    while let Some(next) = at.offset(df, dr) {
                        if all.contains(next) {
                            step(Some(next));
                            break;
                        }
                        step(Some(next));
                        at = next;
                    }
                }
            }
            Kind::Cannon => {
                for (df, dr) in ORTHOGONAL {
                    let mut at = from;
                    let mut screen = false;
                    while let Some(next) = at.offset(df, dr) {
                        at = next;
                        if !screen {
                            if all.contains(next) {
                                screen = true;
                            } else {
                                step(Some(next));
                            }
                        } else if all.contains(next) {
                            step(Some(next));
                            break;
                        }
                    }
                }
            }
            Kind::Soldier => {
                let fwd = piece.side.forward();
                step(from.offset(0, fwd));
                if !HALVES[piece.side.index()].contains(from) {
                    step(from.offset(1, 0));
                    step(from.offset(-1, 0));
                }
            }
        }
    }

    /// Whether `side`'s pieces attack `target` (a general on the same open file counts: the
    /// flying-general rule).
    pub fn attacked(&self, target: Square, by: Side) -> bool {
        let all = self.occupied();
        let is = |s: Option<Square>, kind: Kind| {
            s.and_then(|s| self.board[s.index()])
                .is_some_and(|p| p.side == by && p.kind == kind)
        };
        // Lines: the first piece (a chariot, or a general on the file), then the second (a
        // cannon over its screen).
        for (df, dr) in ORTHOGONAL {
            let mut at = target;
            let mut seen = 0;
            while let Some(next) = at.offset(df, dr) {
                at = next;
                if !all.contains(next) {
                    continue;
                }
                let p = self.board[next.index()].expect("occupied");
                seen += 1;
                if seen == 1 {
                    if p.side == by
                        && (p.kind == Kind::Chariot || (p.kind == Kind::General && df == 0))
                    {
                        return true;
                    }
                } else {
                    if p.side == by && p.kind == Kind::Cannon {
                        return true;
                    }
                    break;
                }
            }
        }
        // Horses: the one that jumps onto the target, its leg free.
        for ((df, dr), (lf, lr)) in HORSE {
            let origin = target.offset(-df, -dr);
            if is(origin, Kind::Horse) {
                let leg = origin.and_then(|o| o.offset(lf, lr)).expect("on the board");
                if !all.contains(leg) {
                    return true;
                }
            }
        }
        // Soldiers: from behind, or beside once across the river.
        let fwd = by.forward();
        if is(target.offset(0, -fwd), Kind::Soldier) {
            return true;
        }
        for df in [1, -1] {
            let s = target.offset(df, 0);
            if is(s, Kind::Soldier) && !HALVES[by.index()].contains(s.expect("checked")) {
                return true;
            }
        }
        // The general next to it (in its palace), advisors and elephants (bound to their own
        // palace and half: only a piece there is reachable).
        if PALACES[by.index()].contains(target) {
            for (df, dr) in ORTHOGONAL {
                if is(target.offset(df, dr), Kind::General) {
                    return true;
                }
            }
            for (df, dr) in DIAGONAL {
                if is(target.offset(df, dr), Kind::Advisor) {
                    return true;
                }
            }
        }
        if HALVES[by.index()].contains(target) {
            for (df, dr) in DIAGONAL {
                if is(target.offset(2 * df, 2 * dr), Kind::Elephant)
                    && !all.contains(target.offset(df, dr).expect("between two points"))
                {
                    return true;
                }
            }
        }
        false
    }

    /// Whether `side`'s general is attacked (or faces the other general).
    #[inline]
    pub fn in_check(&self, side: Side) -> bool {
        match self.generals[side.index()] {
            Some(g) => self.attacked(g, side.other()),
            None => true,
        }
    }

    /// The position after `m`, unchecked (the mover's own pieces are never captured).
    #[inline]
    pub fn after(&self, m: Move) -> Position {
        let mut next = *self;
        let piece = next.take(m.from).expect("a piece on the from point");
        let captured = next.take(m.to).is_some();
        next.put(m.to, piece);
        next.no_capture = if captured { 0 } else { self.no_capture + 1 };
        next.ply = self.ply + 1;
        next.turn = self.turn.other();
        next
    }

    /// Every legal move of the side to move, written to `out` (cleared first).
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        let side = self.turn;
        let mut pieces = self.occupied[side.index()];
        while let Some(from) = pieces.next() {
            let piece = self.board[from.index()].expect("occupied");
            self.piece_moves(from, piece, |to| {
                let m = Move { from, to };
                if !self.after(m).in_check(side) {
                    out.push(m);
                }
            });
        }
    }

    /// The number of leaf positions `depth` plies ahead (perft).
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let side = self.turn;
        let mut nodes = 0;
        let mut pieces = self.occupied[side.index()];
        while let Some(from) = pieces.next() {
            let piece = self.board[from.index()].expect("occupied");
            self.piece_moves(from, piece, |to| {
                let next = self.after(Move { from, to });
                if !next.in_check(side) {
                    nodes += if depth == 1 { 1 } else { next.perft(depth - 1) };
                }
            });
        }
        nodes
    }

    /// Perft per legal move (`--divide`), in move order.
    pub fn divide(&self, depth: u32) -> Vec<(Move, u64)> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves
            .into_iter()
            .map(|m| (m, self.after(m).perft(depth.saturating_sub(1))))
            .collect()
    }
}
