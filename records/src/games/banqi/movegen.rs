//! Legal action generation for a bare position (no history: long-chase counts are zero).
//!
//! Everything is built on [`targets`]: the squares one piece can reach in one hop, as a
//! bitboard. Lists are written into a caller-owned `Vec` that is cleared first, so after the
//! first call has grown it, generation allocates nothing.

use super::action::{Action, Hop, Path};
use super::bitboard::{Bitboard, DIAGONAL, ORTHOGONAL, RAY_BITS};
use super::position::Position;
use super::ruleset::{CannonRule, Ruleset};
use super::types::{Color, Piece, Role, Square};

/// Whether `attacker` may capture `target` by rank: a stronger or equal piece wins, except that
/// the General cannot take a Soldier and a Soldier can take the General.
#[inline]
pub const fn beats_by_rank(attacker: Role, target: Role) -> bool {
    BEATS_BY_RANK[attacker.index()] >> target.index() & 1 != 0
}

/// For each attacking role, the roles it beats by rank as a bit mask (bit = role index):
/// a table, because the generator asks for every adjacent enemy.
const BEATS_BY_RANK: [u8; 7] = {
    let mut table = [0u8; 7];
    let mut a = 0;
    while a < 7 {
        let mut t = 0;
        while t < 7 {
            let beats = match (Role::ALL[a], Role::ALL[t]) {
                (Role::General, Role::Soldier) => false,
                (Role::Soldier, Role::General) => true,
                _ => a <= t,
            };
            if beats {
                table[a] |= 1 << t;
            }
            t += 1;
        }
        a += 1;
    }
    table
};

/// The nearest occupied square from `from` in direction `dir` (0 up, 1 right, 2 down, 3 left).
#[inline]
fn first_on_ray(from: Square, dir: usize, occupied: Bitboard) -> Option<Square> {
    let bits = RAY_BITS[from.index()][dir].0 & occupied.0;
    if bits == 0 {
        return None;
    }
    // Up and right run towards higher indices: the nearest is the lowest bit.
    let index = if dir < 2 {
        bits.trailing_zeros()
    } else {
        31 - bits.leading_zeros()
    };
    Square::new(index as u8)
}

/// The occupied squares `role` on `from` attacks: those where a capture would follow the rank
/// rule, and those where it would ignore rank (a Taiwan cannon's jump, a chariot's capture at
/// distance ≥ 2 with rush or charge, a horse's diagonal). What stands there is not judged.
#[derive(Copy, Clone, Default)]
pub(crate) struct Reach {
    pub by_rank: Bitboard,
    pub rank_free: Bitboard,
}

#[inline]
pub(crate) fn reach(pos: &Position, rules: &Ruleset, from: Square, role: Role) -> Reach {
    let occupied = pos.occupied();
    let mut r = Reach::default();
    if role == Role::Cannon && rules.cannon == CannonRule::Taiwan {
        for dir in 0..4 {
            if let Some(screen) = first_on_ray(from, dir, occupied)
                && let Some(target) = first_on_ray(screen, dir, occupied)
            {
                r.rank_free.insert(target);
            }
        }
        return r;
    }
    r.by_rank = ORTHOGONAL[from.index()] & occupied;
    if role == Role::Chariot && rules.chariot_captures_at_range() {
        for dir in 0..4 {
            if let Some(t) = first_on_ray(from, dir, occupied)
                && !ORTHOGONAL[from.index()].contains(t)
            {
                r.rank_free.insert(t);
            }
        }
    }
    if role == Role::Horse && rules.horse_diagonal {
        r.rank_free |= DIAGONAL[from.index()] & occupied;
    }
    r
}

/// For each attacking role, the enemy revealed pieces it beats by rank. Built once per
/// position and side, so that judging adjacent captures is a mask rather than a look at
/// every target.
#[derive(Copy, Clone)]
pub(crate) struct RankVictims([Bitboard; 7]);

impl RankVictims {
    #[inline]
    pub(crate) fn new(pos: &Position, attacker: Color) -> RankVictims {
        // The enemy roles as three bit planes (bit k of each role index), built in registers:
        // per-role bitboards in an array would chain every update through memory.
        let enemies = pos.revealed(attacker.other());
        let [mut p0, mut p1, mut p2] = [0u32; 3];
        for sq in enemies {
            let role = pos.piece_at(sq).expect("revealed").role.index() as u32;
            p0 |= (role & 1) << sq.index();
            p1 |= (role >> 1 & 1) << sq.index();
            p2 |= (role >> 2) << sq.index();
        }
        // Role index at least r, for r = 0..6, as bit-sliced comparisons (a higher index is
        // weaker, and a role beats every role of its rank or weaker) …
        let at_least = [
            enemies.0,
            p0 | p1 | p2,
            p1 | p2,
            p2 | (p1 & p0),
            p2,
            p2 & (p1 | p0),
            p2 & p1,
        ];
        let soldiers = p2 & p1 & !p0;
        let generals = enemies.0 & !(p0 | p1 | p2);
        let mut victims = at_least.map(Bitboard);
        // … except that the General cannot take a Soldier and a Soldier takes the General.
        victims[Role::General.index()].0 &= !soldiers;
        victims[Role::Soldier.index()].0 |= generals;
        RankVictims(victims)
    }

    #[inline]
    fn of(&self, role: Role) -> Bitboard {
        self.0[role.index()]
    }
}

/// The enemy revealed pieces that `piece` on `from` could capture now.
#[inline]
pub(crate) fn capturable(pos: &Position, rules: &Ruleset, from: Square, piece: Piece) -> Bitboard {
    capturable_with(pos, rules, &RankVictims::new(pos, piece.side), from, piece)
}

#[inline]
fn capturable_with(
    pos: &Position,
    rules: &Ruleset,
    victims: &RankVictims,
    from: Square,
    piece: Piece,
) -> Bitboard {
    let r = reach(pos, rules, from, piece.role);
    (r.rank_free & pos.revealed(piece.side.other())) | (r.by_rank & victims.of(piece.role))
}

/// The covered pieces `piece` on `from` may attack with a dark capture (none when the
/// ruleset has no dark capture).
#[inline]
fn dark_targets(pos: &Position, rules: &Ruleset, from: Square, role: Role) -> Bitboard {
    if !rules.allows_dark_capture() {
        return Bitboard::EMPTY;
    }
    let r = reach(pos, rules, from, role);
    (r.by_rank | r.rank_free) & pos.covered()
}

/// Every square the revealed `piece` on `from` can go to in one hop: quiet moves, captures
/// and dark captures.
pub fn targets(pos: &Position, rules: &Ruleset, from: Square, piece: Piece) -> Bitboard {
    targets_with(pos, rules, &RankVictims::new(pos, piece.side), from, piece)
}

/// [`targets`] with the rank victims of the piece's side already built.
#[inline]
fn targets_with(
    pos: &Position,
    rules: &Ruleset,
    victims: &RankVictims,
    from: Square,
    piece: Piece,
) -> Bitboard {
    let empty = !pos.occupied();
    if rules.is_plain() {
        // No house rule widens a move: one orthogonal step, captures by rank, and the
        // Taiwan cannon's jump. The common case, kept free of per-option branches.
        let orthogonal = ORTHOGONAL[from.index()];
        return if piece.role == Role::Cannon && rules.cannon == CannonRule::Taiwan {
            (orthogonal & empty)
                | (reach(pos, rules, from, piece.role).rank_free & pos.revealed(piece.side.other()))
        } else {
            orthogonal & (empty | victims.of(piece.role))
        };
    }
    let mut quiet = ORTHOGONAL[from.index()] & empty;
    if piece.role == Role::Chariot && rules.chariot_rush {
        for dir in 0..4 {
            let ray = RAY_BITS[from.index()][dir];
            let stop = first_on_ray(from, dir, pos.occupied());
            // The empty squares of the ray before the first occupied one.
            quiet |= match stop {
                None => ray,
                Some(s) => ray & !RAY_BITS[s.index()][dir] & !Bitboard::single(s),
            };
        }
    }
    if piece.role == Role::Horse && rules.horse_diagonal {
        quiet |= DIAGONAL[from.index()] & empty;
    }
    quiet
        | capturable_with(pos, rules, victims, from, piece)
        | dark_targets(pos, rules, from, piece.role)
}

/// Every legal action of `pos` under `rules` (without long chase, which needs history),
/// written to `out` after clearing it. Flips and dark captures are listed without identity;
/// chains are listed with every prefix and end at their first dark link.
pub fn legal_actions(pos: &Position, rules: &Ruleset, out: &mut Vec<Action>) {
    out.clear();
    for square in pos.covered() {
        out.push(Action::Flip {
            square,
            reveal: None,
        });
    }
    push_moves(pos, rules, out);
}

/// The legal actions other than flips (every covered square can be flipped), written to
/// `out` after clearing it.
pub fn legal_moves(pos: &Position, rules: &Ruleset, out: &mut Vec<Action>) {
    out.clear();
    push_moves(pos, rules, out);
}

fn push_moves(pos: &Position, rules: &Ruleset, out: &mut Vec<Action>) {
    let Some(us) = pos.turn() else { return };
    let victims = RankVictims::new(pos, us);
    for from in pos.revealed(us) {
        let piece = pos.piece_at(from).expect("revealed");
        for to in targets_with(pos, rules, &victims, from, piece) {
            out.push(Action::step(from, to));
        }
        if rules.allows_chain() {
            for t in capturable(pos, rules, from, piece) {
                let mut next = *pos;
                next.remove(from);
                next.put_piece(t, piece);
                push_chains(&next, rules, piece, &Path::new(from, t), out);
            }
        }
    }
}

/// Pushes every continuation of `chain` (whose piece now stands on its last square in `pos`)
/// by one more capture, and recursively theirs. A dark link ends a listed chain.
fn push_chains(pos: &Position, rules: &Ruleset, piece: Piece, chain: &Path, out: &mut Vec<Action>) {
    let at = chain.last().to();
    let extended = |to| {
        let mut p = *chain;
        p.push(Hop::new(to, None));
        p
    };
    if rules.dark_chain_capture {
        for t in dark_targets(pos, rules, at, piece.role) {
            out.push(Action::Move(extended(t)));
        }
    }
    for t in capturable(pos, rules, at, piece) {
        let path = extended(t);
        out.push(Action::Move(path));
        let mut next = *pos;
        next.remove(at);
        next.put_piece(t, piece);
        push_chains(&next, rules, piece, &path, out);
    }
}

/// The number of legal actions of `pos` that are a single hop or a flip, and a way to pick
/// the `k`-th of them without listing them: the fast path of random playouts for rulesets
/// without chain capture (where every action is a single hop or a flip).
pub struct SingleHopActions {
    froms: [Square; SLOTS],
    targets: [Bitboard; SLOTS],
    pieces: usize,
    flips: Bitboard,
    pub count: u32,
}

/// One slot per piece (at most 16 of a colour), plus the jumps of two Taiwan cannons under
/// plain rules.
const SLOTS: usize = 18;

impl SingleHopActions {
    #[inline]
    pub fn new(pos: &Position, rules: &Ruleset) -> SingleHopActions {
        let flips = pos.covered();
        let mut s = SingleHopActions {
            froms: [Square::from_index_unchecked(0); SLOTS],
            targets: [Bitboard::EMPTY; SLOTS],
            pieces: 0,
            flips,
            count: flips.count(),
        };
        let Some(us) = pos.turn() else { return s };
        let victims = RankVictims::new(pos, us);
        if rules.is_plain() {
            // Every piece steps onto an empty square or an enemy it beats by rank; a Taiwan
            // cannon beats nothing adjacent, and its jumps get slots of their own below.
            // No branch depends on the piece, which keeps this loop fast.
            let taiwan = rules.cannon == CannonRule::Taiwan;
            let mut steps = victims;
            if taiwan {
                steps.0[Role::Cannon.index()] = Bitboard::EMPTY;
            }
            let empty = !pos.occupied();
            let mut cannons = Bitboard::EMPTY;
            for from in pos.revealed(us) {
                let role = pos.piece_at(from).expect("revealed").role;
                cannons.0 |= ((role == Role::Cannon) as u32) << from.index();
                s.keep(from, ORTHOGONAL[from.index()] & (empty | steps.of(role)));
            }
            if taiwan {
                let enemies = pos.revealed(us.other());
                for from in cannons {
                    s.keep(
                        from,
                        reach(pos, rules, from, Role::Cannon).rank_free & enemies,
                    );
                }
            }
        } else {
            for from in pos.revealed(us) {
                let piece = pos.piece_at(from).expect("revealed");
                s.keep(from, targets_with(pos, rules, &victims, from, piece));
            }
        }
        s
    }

    /// Writes a slot and keeps it only when it has targets: branch-free, as whether a piece
    /// can move is unpredictable. At most [`SLOTS`] are ever written.
    #[inline]
    fn keep(&mut self, from: Square, targets: Bitboard) {
        self.froms[self.pieces] = from;
        self.targets[self.pieces] = targets;
        self.pieces += !targets.is_empty() as usize;
        self.count += targets.count();
    }

    /// The `k`-th action (k < count): flips first, then each piece's hops.
    #[inline]
    pub fn nth(&self, k: u32) -> Action {
        let flips = self.flips.count();
        if k < flips {
            return Action::Flip {
                square: self.flips.nth_place(k as usize).expect("k < count"),
                reveal: None,
            };
        }
        let mut k = k - flips;
        for i in 0..self.pieces {
            let n = self.targets[i].count();
            if k < n {
                return Action::step(
                    self.froms[i],
                    self.targets[i].nth_place(k as usize).expect("k < n"),
                );
            }
            k -= n;
        }
        panic!("action index out of range")
    }
}

/// Whether `color` has any legal action in `pos` (cheaper than listing them).
pub fn has_legal_action(pos: &Position, rules: &Ruleset, color: Option<Color>) -> bool {
    if !pos.covered().is_empty() {
        return true;
    }
    let Some(us) = color else { return false };
    let victims = RankVictims::new(pos, us);
    pos.revealed(us).any(|from| {
        let piece = pos.piece_at(from).expect("revealed");
        !targets_with(pos, rules, &victims, from, piece).is_empty()
    })
}
