//! Moves (RULES.md §9): every kind with its blocks and bounds (xiangqi's seven and the second
//! identities), attacks counted by reverse lookup from the target for xiangqi's kinds (the
//! flying-general rule as the generals' mutual "attack" along an open file) and piece by piece
//! for the others, legality by king safety after the move. Allocation-free: actions go to the
//! caller's vector.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::board::{
    Bitboard, DIAGONAL, DIAGONALLY_NEXT_TO, ELEPHANT_FROM, HALVES, HORSE, HORSE_FROM, NEXT_TO,
    ORTHOGONAL, PALACES, RAYS, Square, nearest,
};
use super::pieces::{Kind, Piece, Side, forward};
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

const ALL: Bitboard = Bitboard((1 << 90) - 1);
/// The eight leaps (±a, ±b) and (±b, ±a), clockwise from (a, b).
const fn leaps(a: i8, b: i8) -> [(i8, i8); 8] {
    [
        (a, b),
        (b, a),
        (b, -a),
        (a, -b),
        (-a, -b),
        (-b, -a),
        (-b, a),
        (-a, b),
    ]
}
/// 駝's leaps: (2,3) and (3,2) in every direction.
const CAMEL: [(i8, i8); 8] = leaps(2, 3);
/// 騾's leaps: (1,3) and (3,1) in every direction.
const MULE: [(i8, i8); 8] = leaps(1, 3);
/// A chess knight's jumps (妃).
const KNIGHT: [(i8, i8); 8] = leaps(1, 2);

impl Position {
    /// The rule `piece` moves by now (a 骉 borrows the last-moved piece's; none after a flip),
    /// and where it may land.
    #[inline]
    pub(crate) fn rule(&self, from: Square, piece: Piece) -> Option<(Kind, Bitboard)> {
        if piece.pending {
            return None;
        }
        let own = piece.side.index();
        let enemy = piece.side.other().index();
        Some(match piece.kind {
            Kind::Biao => (self.last[enemy]?.1, ALL),
            Kind::General => (Kind::General, PALACES[own]),
            Kind::Advisor if piece.soldier_born => (
                Kind::Advisor,
                if piece.roams {
                    HALVES[enemy]
                } else {
                    PALACES[enemy]
                },
            ),
            Kind::Advisor => (Kind::Advisor, PALACES[own]),
            Kind::Elephant if piece.soldier_born => (Kind::Elephant, HALVES[enemy]),
            Kind::Elephant => (Kind::Elephant, HALVES[own]),
            Kind::Minister => {
                // Once out of its palace it never returns; once across the river, never back.
                let mut region = ALL;
                if !PALACES[own].contains(from) {
                    region = region & !PALACES[own];
                }
                if HALVES[enemy].contains(from) {
                    region = region & HALVES[enemy];
                }
                (Kind::Minister, region)
            }
            kind => (kind, ALL),
        })
    }

    /// Where the piece on `from` may go by its rule, own pieces excluded, king safety not
    /// checked: `quiet` gets empty points, `capture` enemy-held ones (a 骉 never takes the
    /// piece just moved; a 臣 takes nothing; taking a 臣 needs a second attacker: the caller's).
    #[inline]
    pub(crate) fn destinations(
        &self,
        from: Square,
        piece: Piece,
        mut quiet: impl FnMut(Square),
        mut capture: impl FnMut(Square),
    ) {
        let Some((kind, region)) = self.rule(from, piece) else {
            return;
        };
        let side = piece.side;
        let all = self.occupied();
        let enemy = self.occupied[side.other().index()];
        let spared = match piece.kind {
            Kind::Biao => self.last[side.other().index()].map(|(s, _)| s),
            _ => None,
        };
        let mut land = |to: Option<Square>, takes: bool| {
            let Some(to) = to else {
                return;
            };
            if !region.contains(to) {
                return;
            }
            if !all.contains(to) {
                quiet(to);
            } else if takes && enemy.contains(to) && Some(to) != spared {
                capture(to);
            }
        };
        match kind {
            Kind::General => {
                for (df, dr) in ORTHOGONAL {
                    land(from.offset(df, dr), true);
                }
            }
            Kind::Advisor | Kind::Minister => {
                let takes = kind == Kind::Advisor;
                for (df, dr) in DIAGONAL {
                    land(from.offset(df, dr), takes);
                }
            }
            Kind::Elephant => {
                for (df, dr) in DIAGONAL {
                    if from.offset(df, dr).is_some_and(|eye| !all.contains(eye)) {
                        land(from.offset(2 * df, 2 * dr), true);
                    }
                }
            }
            Kind::Horse => {
                for ((df, dr), (lf, lr)) in HORSE {
                    if from.offset(lf, lr).is_some_and(|leg| !all.contains(leg)) {
                        land(from.offset(df, dr), true);
                    }
                }
            }
            Kind::Soldier => {
                land(from.offset(0, forward(side)), true);
                if !HALVES[side.index()].contains(from) {
                    land(from.offset(1, 0), true);
                    land(from.offset(-1, 0), true);
                }
            }
            Kind::Chariot => {
                for (df, dr) in ORTHOGONAL {
                    slide(from, df, dr, all, &mut land);
                }
            }
            Kind::Cannon => {
                for (df, dr) in ORTHOGONAL {
                    cannon(from, df, dr, all, &mut land);
                }
            }
            Kind::Fu => {
                // 橫車竪炮: a chariot along the rank, a cannon along the file.
                slide(from, 1, 0, all, &mut land);
                slide(from, -1, 0, all, &mut land);
                cannon(from, 0, 1, all, &mut land);
                cannon(from, 0, -1, all, &mut land);
            }
            Kind::Zhu => {
                for (df, dr) in DIAGONAL {
                    let one = from.offset(df, dr);
                    land(one, true);
                    if one.is_some_and(|s| !all.contains(s)) {
                        land(from.offset(2 * df, 2 * dr), true);
                    }
                }
            }
            Kind::Camel => {
                for (df, dr) in CAMEL {
                    if from
                        .offset(df.signum(), dr.signum())
                        .is_some_and(|b| !all.contains(b))
                    {
                        land(from.offset(df, dr), true);
                    }
                }
            }
            Kind::Mule => {
                for (df, dr) in MULE {
                    let leg = if df.abs() > dr.abs() {
                        (df.signum(), 0)
                    } else {
                        (0, dr.signum())
                    };
                    if from.offset(leg.0, leg.1).is_some_and(|b| !all.contains(b)) {
                        land(from.offset(df, dr), true);
                    }
                }
            }
            Kind::Fei => {
                for (df, dr) in KNIGHT {
                    land(from.offset(df, dr), false);
                    if from.offset(df, dr).is_some_and(|s| all.contains(s)) {
                        let far = from.offset(2 * df, 2 * dr);
                        if far.is_some_and(|s| all.contains(s)) {
                            land(far, true);
                        }
                    }
                }
            }
            Kind::Pao => {
                for (df, dr) in ORTHOGONAL {
                    slide_quiet(from, df, dr, all, &mut land);
                }
                for (df, dr) in DIAGONAL {
                    if from.offset(df, dr).is_some_and(|s| all.contains(s)) {
                        let far = from.offset(2 * df, 2 * dr);
                        if far.is_some_and(|s| all.contains(s)) {
                            land(far, true);
                        }
                    }
                }
            }
            Kind::Shi => {
                for (df, dr) in ORTHOGONAL {
                    slide_quiet(from, df, dr, all, &mut land);
                    // Pass the pieces before the first empty point, cross it, then any enemy
                    // before the next empty point may be taken.
                    let mut at = from;
                    let mut crossed = false;
                    while let Some(next) = at.offset(df, dr) {
                        at = next;
                        let full = all.contains(next);
                        if !crossed {
                            crossed = !full;
                        } else if full {
                            land(Some(next), true);
                        } else {
                            break;
                        }
                    }
                }
            }
            Kind::Biao => unreachable!("a 骉 moves by a borrowed rule"),
        }
    }

    /// The points the piece on `from` attacks (could take an enemy on).
    pub(crate) fn capture_set(&self, from: Square, piece: Piece) -> Bitboard {
        let mut set = Bitboard::EMPTY;
        self.destinations(from, piece, |_| {}, |to| set = set.with(to));
        set
    }

    /// How many of `by`'s pieces attack `target` (which holds a piece of the other side),
    /// counting up to `enough`. A general on the same open file counts (flying general); a 臣
    /// never attacks; a 骉 attacks with the rule it borrows.
    pub fn count_attackers(&self, target: Square, by: Side, enough: u32) -> u32 {
        let all = self.occupied();
        let mut n = 0;
        let is = |s: Option<Square>, kind: Kind| {
            s.and_then(|s| self.board[s.index()])
                .is_some_and(|p| p.side == by && p.kind == kind && !p.pending)
        };
        let target_is_general = self.board[target.index()].is_some_and(|t| t.kind == Kind::General);
        for d in 0..4 {
            // The first piece on the ray (a chariot's), then the second (a cannon's).
            let on_ray = RAYS[d][target.index()] & all.0;
            if on_ray == 0 {
                continue;
            }
            let first = nearest(on_ray, d);
            let p = self.board[first.index()].expect("occupied");
            // A general "attacks" along an open file only the other general (the
            // flying-general rule): it takes nothing there.
            let facing = p.kind == Kind::General && d % 2 == 0 && target_is_general;
            if p.side == by && !p.pending && (p.kind == Kind::Chariot || facing) {
                n += 1;
            }
            let beyond = on_ray & !first.bit();
            if beyond != 0 {
                let p = self.board[nearest(beyond, d).index()].expect("occupied");
                if p.side == by && p.kind == Kind::Cannon && !p.pending {
                    n += 1;
                }
            }
        }
        if n >= enough {
            return n;
        }
        // The leapers and steppers below stand on a few points around the target: when none
        // of `by`'s pieces does, none of them attacks it.
        let mine = self.occupied[by.index()].0;
        let t = target.index();
        let near = HORSE_FROM[t] | NEXT_TO[t] | DIAGONALLY_NEXT_TO[t] | ELEPHANT_FROM[t];
        if mine & near == 0 {
            return self.exotic_attackers(target, by, n, enough);
        }
        for ((df, dr), (lf, lr)) in HORSE {
            let origin = target.offset(-df, -dr);
            if is(origin, Kind::Horse) {
                let leg = origin.and_then(|o| o.offset(lf, lr)).expect("on the board");
                if !all.contains(leg) {
                    n += 1;
                }
            }
        }
        let fwd = forward(by);
        if is(target.offset(0, -fwd), Kind::Soldier) {
            n += 1;
        }
        for df in [1, -1] {
            let s = target.offset(df, 0);
            if is(s, Kind::Soldier) && !HALVES[by.index()].contains(s.expect("checked")) {
                n += 1;
            }
        }
        if PALACES[by.index()].contains(target) {
            for (df, dr) in ORTHOGONAL {
                if is(target.offset(df, dr), Kind::General) {
                    n += 1;
                }
            }
            for (df, dr) in DIAGONAL {
                let s = target.offset(df, dr);
                if is(s, Kind::Advisor)
                    && !self.board[s.expect("checked").index()].is_some_and(|p| p.soldier_born)
                {
                    n += 1;
                }
            }
        }
        if HALVES[by.index()].contains(target) {
            for (df, dr) in DIAGONAL {
                let s = target.offset(2 * df, 2 * dr);
                if is(s, Kind::Elephant)
                    && !self.board[s.expect("checked").index()].is_some_and(|p| p.soldier_born)
                    && !all.contains(target.offset(df, dr).expect("between two points"))
                {
                    n += 1;
                }
            }
        }
        if n >= enough {
            return n;
        }
        self.exotic_attackers(target, by, n, enough)
    }

    /// [`Self::count_attackers`]'s last part: `n` attackers counted so far, the second
    /// identities and soldier-born pieces added.
    fn exotic_attackers(&self, target: Square, by: Side, mut n: u32, enough: u32) -> u32 {
        let exotic = self.exotic[by.index()];
        for from in exotic {
            let piece = self.board[from.index()].expect("occupied");
            // Most exotic pieces are nowhere near: the rule's geometry turns them away
            // before their captures are generated.
            let kind = match piece.kind {
                Kind::Biao => match self.last[by.other().index()] {
                    Some((_, borrowed)) => borrowed,
                    None => continue,
                },
                k => k,
            };
            if !may_capture(kind, from, target) {
                continue;
            }
            if self.capture_set(from, piece).contains(target) {
                n += 1;
                if n >= enough {
                    break;
                }
            }
        }
        n
    }

    /// Whether `by`'s pieces attack `target`.
    #[inline]
    pub fn attacked(&self, target: Square, by: Side) -> bool {
        self.count_attackers(target, by, 1) > 0
    }

    /// Whether `side`'s general is attacked (or faces the other general).
    #[inline]
    pub fn in_check(&self, side: Side) -> bool {
        match self.generals[side.index()] {
            Some(g) => self.attacked(g, side.other()),
            None => true,
        }
    }

    /// The position after the move `m`, unchecked: the piece moves, takes what stands there,
    /// and is remembered as the last moved (with the rule it used).
    #[inline]
    pub fn after(&self, m: Move) -> Position {
        let mut next = *self;
        let piece = next.take(m.from).expect("a piece on the from point");
        let rule = match piece.kind {
            Kind::Biao => self.last[piece.side.other().index()].map_or(Kind::Biao, |(_, k)| k),
            k => k,
        };
        let captured = next.take(m.to).is_some();
        next.put(m.to, piece);
        next.no_capture = if captured { 0 } else { self.no_capture + 1 };
        next.ply = self.ply + 1;
        next.turn = self.turn.other();
        next.last[piece.side.index()] = Some((m.to, rule));
        next
    }

    /// The empty points and the enemy pieces the piece on `from` may go to by its rule (a 臣
    /// only taken by one of two attackers), king safety not checked.
    pub(crate) fn move_targets(&self, from: Square) -> (Bitboard, Bitboard) {
        let Some(piece) = self.board[from.index()] else {
            return (Bitboard::EMPTY, Bitboard::EMPTY);
        };
        let (mut quiet, mut takes) = (Bitboard::EMPTY, Bitboard::EMPTY);
        self.destinations(
            from,
            piece,
            |to| quiet = quiet.with(to),
            |to| {
                // A 臣 is taken only by one of two attackers.
                let minister = self.board[to.index()].is_some_and(|p| p.kind == Kind::Minister);
                if !minister || self.count_attackers(to, piece.side, 2) >= 2 {
                    takes = takes.with(to);
                }
            },
        );
        (quiet, takes)
    }

    /// The number of leaf positions `depth` plies of moves ahead (perft; xiangqi's moves, no
    /// flips).
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let side = self.turn;
        let safety = self.safety();
        let mut nodes = 0;
        let pieces = self.occupied[side.index()];
        for from in pieces {
            let piece = self.board[from.index()].expect("occupied");
            let mut visit = |to: Square| {
                let m = Move { from, to };
                if depth == 1 {
                    nodes += self.leaves_general_safe(m, safety) as u64;
                } else {
                    let next = self.after(m);
                    if !next.in_check(side) {
                        nodes += next.perft(depth - 1);
                    }
                }
            };
            let mut takes = Bitboard::EMPTY;
            self.destinations(from, piece, &mut visit, |to| takes = takes.with(to));
            for to in takes {
                let minister = self.board[to.index()].is_some_and(|p| p.kind == Kind::Minister);
                if !minister || self.count_attackers(to, side, 2) >= 2 {
                    visit(to);
                }
            }
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

/// Whether a piece moving by `kind`'s rule on `from` could take on `target` on some board:
/// the offsets its captures can have (a superset: blocking, regions and screens are the
/// generator's).
#[inline]
pub(crate) fn may_capture(kind: Kind, from: Square, target: Square) -> bool {
    let df = from.file().abs_diff(target.file());
    let dr = from.rank().abs_diff(target.rank());
    let (near, far) = (df.min(dr), df.max(dr));
    match kind {
        Kind::General | Kind::Soldier => near == 0 && far == 1,
        Kind::Advisor => near == 1 && far == 1,
        Kind::Elephant | Kind::Pao => near == 2 && far == 2,
        Kind::Zhu => near == far && (1..=2).contains(&far),
        Kind::Horse => near == 1 && far == 2,
        Kind::Camel => near == 2 && far == 3,
        Kind::Mule => near == 1 && far == 3,
        Kind::Fei => near == 2 && far == 4,
        Kind::Chariot | Kind::Cannon | Kind::Fu | Kind::Shi => near == 0,
        Kind::Minister => false,
        // A 骉 borrows a rule: the caller asks with that rule.
        Kind::Biao => true,
    }
}

/// A chariot's slide: empty points, then the first piece.
#[inline]
fn slide(from: Square, df: i8, dr: i8, all: Bitboard, land: &mut impl FnMut(Option<Square>, bool)) {
    let mut at = from;
    while let Some(next) = at.offset(df, dr) {
        land(Some(next), true);
        if all.contains(next) {
            break;
        }
        at = next;
    }
}

/// A slide to empty points only.
#[inline]
fn slide_quiet(
    from: Square,
    df: i8,
    dr: i8,
    all: Bitboard,
    land: &mut impl FnMut(Option<Square>, bool),
) {
    let mut at = from;
    while let Some(next) = at.offset(df, dr) {
        if all.contains(next) {
            break;
        }
        land(Some(next), false);
        at = next;
    }
}

/// A cannon: empty points, then over exactly one screen onto the next piece.
#[inline]
fn cannon(
    from: Square,
    df: i8,
    dr: i8,
    all: Bitboard,
    land: &mut impl FnMut(Option<Square>, bool),
) {
    let mut at = from;
    let mut screen = false;
    while let Some(next) = at.offset(df, dr) {
        at = next;
        if !screen {
            if all.contains(next) {
                screen = true;
            } else {
                land(Some(next), false);
            }
        } else if all.contains(next) {
            land(Some(next), true);
            break;
        }
    }
}
