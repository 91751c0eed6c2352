//! Moves (RULES.md §9): every kind with its blocks and bounds (xiangqi's seven and the second
//! identities), attacks counted by reverse lookup from the target for xiangqi's kinds (the
//! flying-general rule as the generals' mutual "attack" along an open file) and piece by piece
//! for the others, legality by king safety after the move. Allocation-free: actions go to the
//! caller's vector.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::board::{
    Bitboard, DIAGONALLY_NEXT_TO, ELEPHANT_FROM, HALVES, HORSE_FROM, NEXT_TO, ORTHOGONAL, PALACES,
    RAYS, Square, nearest,
};
use super::leaps::{
    CAMEL_LEAPS, DIAGONAL_TWO, END, FEI_LEAPS, HORSE_ATTACKS, HORSE_LEAPS, KNIGHT_TO, MULE_LEAPS,
    REACH, SOLDIER_STEPS, landings,
};
use super::pieces::{Kind, Side, Slot, forward};
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

impl Position {
    /// The rule `piece` moves by now (a 骉 borrows the last-moved piece's; none after a flip),
    /// and where it may land.
    #[inline]
    pub(crate) fn rule(&self, from: Square, piece: Slot) -> Option<(Kind, Bitboard)> {
        if piece.pending() {
            return None;
        }
        let own = piece.side().index();
        let enemy = 1 - own;
        Some(match piece.kind() {
            Kind::Biao => (self.last[enemy]?.1, ALL),
            Kind::General => (Kind::General, PALACES[own]),
            Kind::Advisor if piece.soldier_born() => (
                Kind::Advisor,
                if piece.roams() {
                    HALVES[enemy]
                } else {
                    PALACES[enemy]
                },
            ),
            Kind::Advisor => (Kind::Advisor, PALACES[own]),
            Kind::Elephant if piece.soldier_born() => (Kind::Elephant, HALVES[enemy]),
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
    /// checked: empty points, and enemy-held ones it may take (a 骉 never takes the piece just
    /// moved; a 臣 takes nothing; taking a 臣 needs a second attacker: the caller's). Read
    /// from the step tables and the rays, a set at a time.
    #[inline(always)]
    pub(crate) fn destinations(&self, from: Square, piece: Slot) -> (Bitboard, Bitboard) {
        let Some((kind, region)) = self.rule(from, piece) else {
            return (Bitboard::EMPTY, Bitboard::EMPTY);
        };
        let side = piece.side();
        let all = self.occupied().0;
        let f = from.index();
        // Points reached (empty or not) by rules that move and take alike; and, for the
        // others, the empty points and the occupied points taken apart.
        let (reached, quiet, taken) = match kind {
            Kind::General => (NEXT_TO[f], 0, 0),
            Kind::Advisor => (DIAGONALLY_NEXT_TO[f], 0, 0),
            Kind::Minister => (0, DIAGONALLY_NEXT_TO[f], 0),
            Kind::Elephant => (landings(&DIAGONAL_TWO[f], all, true), 0, 0),
            Kind::Horse => (landings(&HORSE_LEAPS[f], all, true), 0, 0),
            Kind::Camel => (landings(&CAMEL_LEAPS[f], all, true), 0, 0),
            Kind::Mule => (landings(&MULE_LEAPS[f], all, true), 0, 0),
            Kind::Zhu => (
                DIAGONALLY_NEXT_TO[f] | landings(&DIAGONAL_TWO[f], all, true),
                0,
                0,
            ),
            Kind::Soldier => (SOLDIER_STEPS[side.index()][f], 0, 0),
            Kind::Chariot => (rook(f, all, [0, 1, 2, 3]), 0, 0),
            Kind::Cannon => {
                let (quiet, taken) = cannon(f, all, [0, 1, 2, 3]);
                (0, quiet, taken)
            }
            Kind::Fu => {
                // 橫車竪炮: a chariot along the rank, a cannon along the file.
                let (quiet, taken) = cannon(f, all, [0, 2]);
                (rook(f, all, [1, 3]), quiet, taken)
            }
            Kind::Fei => (0, KNIGHT_TO[f], landings(&FEI_LEAPS[f], all, false) & all),
            Kind::Pao => (
                0,
                slides(f, all),
                landings(&DIAGONAL_TWO[f], all, false) & all,
            ),
            Kind::Shi => (0, slides(f, all), shi_captures(from, all)),
            Kind::Biao => unreachable!("a 骉 moves by a borrowed rule"),
        };
        let mut enemy = self.occupied[side.other().index()].0;
        if piece.kind() == Kind::Biao
            && let Some((spared, _)) = self.last[side.other().index()]
        {
            enemy &= !spared.bit();
        }
        let region = region.0;
        (
            Bitboard((reached | quiet) & !all & region),
            Bitboard((reached | taken) & enemy & region),
        )
    }

    /// The points the piece on `from` attacks (could take an enemy on).
    #[inline]
    pub(crate) fn capture_set(&self, from: Square, piece: Slot) -> Bitboard {
        self.destinations(from, piece).1
    }

    /// How many of `by`'s pieces attack `target` (which holds a piece of the other side),
    /// counting up to `enough`. A general on the same open file counts (flying general); a 臣
    /// never attacks; a 骉 attacks with the rule it borrows.
    pub fn count_attackers(&self, target: Square, by: Side, enough: u32) -> u32 {
        let n = self.plain_attackers(target, by, enough);
        if n >= enough {
            return n;
        }
        self.exotic_attackers(target, by, n, enough)
    }

    /// How many of `by`'s pieces of xiangqi's kinds (not [`Self::exotic`]) attack `target`,
    /// counting up to `enough`.
    fn plain_attackers(&self, target: Square, by: Side, enough: u32) -> u32 {
        let all = self.occupied().0;
        let mine = self.occupied[by.index()].0;
        let t = target.index();
        let at = |i: usize| self.board[i];
        let mut n = 0;
        for d in 0..4 {
            n += self.line_attackers_with(target, by, d, all, None);
        }
        if n >= enough {
            return n;
        }
        // The leapers and steppers below stand on a few points around the target: when none
        // of `by`'s pieces does, none of them attacks it.
        if mine & (HORSE_FROM[t] | NEXT_TO[t] | DIAGONALLY_NEXT_TO[t] | ELEPHANT_FROM[t]) == 0 {
            return n;
        }
        if mine & HORSE_FROM[t] != 0 {
            for &(origin, leg) in &HORSE_ATTACKS[t] {
                if origin == END {
                    break;
                }
                if all >> leg & 1 == 0 && at(origin as usize).is_active(by, Kind::Horse) {
                    n += 1;
                }
            }
        }
        let steps = mine & NEXT_TO[t];
        if steps != 0 {
            // A soldier takes forward, and sideways once across the river: it stands behind
            // the target, or beside it outside its own half.
            let bit = |s: Option<Square>| s.map_or(0, Square::bit);
            let behind = bit(target.offset(0, -forward(by)));
            let beside =
                (bit(target.offset(1, 0)) | bit(target.offset(-1, 0))) & !HALVES[by.index()].0;
            let soldiers = steps & (behind | beside);
            for s in Bitboard(steps) {
                let p = at(s.index());
                if p.is_active(by, Kind::Soldier) && soldiers & s.bit() != 0
                    || p.is_active(by, Kind::General) && PALACES[by.index()].contains(target)
                {
                    n += 1;
                }
            }
        }
        if PALACES[by.index()].contains(target) {
            for s in Bitboard(mine & DIAGONALLY_NEXT_TO[t]) {
                let p = at(s.index());
                if p.is_active(by, Kind::Advisor) && !p.soldier_born() {
                    n += 1;
                }
            }
        }
        if HALVES[by.index()].contains(target) && mine & ELEPHANT_FROM[t] != 0 {
            for &(origin, eye) in &DIAGONAL_TWO[t] {
                if origin == END {
                    break;
                }
                let p = at(origin as usize);
                if all >> eye & 1 == 0 && p.is_active(by, Kind::Elephant) && !p.soldier_born() {
                    n += 1;
                }
            }
        }
        n
    }

    /// How many of `by`'s pieces attack `target` along the ray `d` of [`RAYS`], `all` the
    /// occupied points: the board's, or those after a move of the other side to `mover` (its
    /// piece there attacks nothing here, whatever the board still holds). The first piece on
    /// the ray attacks if a chariot (or the other general facing a general), the second if a
    /// cannon.
    #[inline]
    pub(super) fn line_attackers_with(
        &self,
        target: Square,
        by: Side,
        d: usize,
        all: u128,
        mover: Option<Square>,
    ) -> u32 {
        let on_ray = RAYS[d][target.index()] & all;
        if on_ray == 0 {
            return 0;
        }
        let at = |s: Square| {
            if Some(s) == mover {
                Slot::EMPTY
            } else {
                self.board[s.index()]
            }
        };
        let first = nearest(on_ray, d);
        let p = at(first);
        let mut n = 0;
        // A general "attacks" along an open file only the other general (the flying-general
        // rule): it takes nothing there.
        if p.is_active(by, Kind::Chariot)
            || (d % 2 == 0
                && p.is_active(by, Kind::General)
                && (mover == Some(target) || self.board[target.index()].is_kind(Kind::General)))
        {
            n += 1;
        }
        let beyond = on_ray & !first.bit();
        if beyond != 0 && at(nearest(beyond, d)).is_active(by, Kind::Cannon) {
            n += 1;
        }
        n
    }

    /// [`Self::count_attackers`]'s last part: `n` attackers counted so far, the second
    /// identities and soldier-born pieces added.
    pub(super) fn exotic_attackers(
        &self,
        target: Square,
        by: Side,
        mut n: u32,
        enough: u32,
    ) -> u32 {
        // Most exotic pieces are nowhere near: no rule reaches the target from where they
        // stand, or their own rule's geometry turns them away before their captures are
        // generated.
        let near = self.exotic[by.index()].0 & REACH[target.index()];
        for from in Bitboard(near) {
            let slot = self.board[from.index()];
            let kind = match slot.kind() {
                Kind::Biao => match self.last[by.other().index()] {
                    Some((_, borrowed)) => borrowed,
                    None => continue,
                },
                k => k,
            };
            if !may_capture(kind, from, target) {
                continue;
            }
            if self.capture_set(from, slot).contains(target) {
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
        next.make(m);
        next
    }

    /// The empty points and the enemy pieces the piece on `from` may go to by its rule (a 臣
    /// only taken by one of two attackers), king safety not checked.
    #[inline(always)]
    pub(crate) fn move_targets(&self, from: Square) -> (Bitboard, Bitboard) {
        let piece = self.board[from.index()];
        if piece.is_empty() {
            return (Bitboard::EMPTY, Bitboard::EMPTY);
        }
        let (quiet, mut takes) = self.destinations(from, piece);
        for to in takes {
            // A 臣 is taken only by one of two attackers.
            if self.board[to.index()].is_kind(Kind::Minister)
                && self.count_attackers(to, piece.side(), 2) < 2
            {
                takes = takes.without(to);
            }
        }
        (quiet, takes)
    }

    /// The number of leaf positions `depth` plies of moves ahead (perft; xiangqi's moves, no
    /// flips).
    pub fn perft(&self, depth: u32) -> u64 {
        self.clone().perft_here(depth)
    }

    /// [`Self::perft`], each move made and taken back on this position.
    fn perft_here(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let side = self.turn;
        let safety = self.safety();
        let mut nodes = 0;
        let mut scratch = None;
        for from in self.occupied[side.index()] {
            let (quiet, takes) = self.move_targets(from);
            for to in quiet | takes {
                let m = Move { from, to };
                if depth == 1 {
                    nodes += self.leaves_general_safe(m, safety, &mut scratch) as u64;
                } else {
                    let undo = self.make_as::<false>(m);
                    if !self.in_check(side) {
                        nodes += self.perft_here(depth - 1);
                    }
                    self.unmake_as::<false>(m, undo);
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

/// A chariot's reach from index `f` along the rays `dirs` of [`RAYS`]: the empty points, then
/// the first piece.
#[inline]
fn rook(f: usize, all: u128, dirs: impl IntoIterator<Item = usize>) -> u128 {
    let mut set = 0;
    for d in dirs {
        let ray = RAYS[d][f];
        let blockers = ray & all;
        set |= if blockers == 0 {
            ray
        } else {
            ray & !RAYS[d][nearest(blockers, d).index()]
        };
    }
    set
}

/// A cannon's moves from index `f` along the rays `dirs`: the empty points before the first
/// piece (its screen), and the next piece beyond it.
#[inline]
fn cannon(f: usize, all: u128, dirs: impl IntoIterator<Item = usize>) -> (u128, u128) {
    let (mut quiet, mut taken) = (0, 0);
    for d in dirs {
        let ray = RAYS[d][f];
        let blockers = ray & all;
        if blockers == 0 {
            quiet |= ray;
            continue;
        }
        let screen = nearest(blockers, d);
        let beyond = RAYS[d][screen.index()];
        quiet |= ray & !beyond & !screen.bit();
        if beyond & all != 0 {
            taken |= nearest(beyond & all, d).bit();
        }
    }
    (quiet, taken)
}

/// The empty points along the four rays from index `f`, up to the first piece.
#[inline]
fn slides(f: usize, all: u128) -> u128 {
    rook(f, all, [0, 1, 2, 3]) & !all
}

/// A 石's captures from `from`: along each line, past the pieces next to it to the first
/// empty point, over it, and then any piece before the next empty point.
fn shi_captures(from: Square, all: u128) -> u128 {
    let mut set = 0;
    for (df, dr) in ORTHOGONAL {
        let mut at = from;
        let mut crossed = false;
        while let Some(next) = at.offset(df, dr) {
            at = next;
            let full = all & next.bit() != 0;
            if !crossed {
                crossed = !full;
            } else if full {
                set |= next.bit();
            } else {
                break;
            }
        }
    }
    set
}
