//! Legal action generation for a bare position (no history: long-chase counts are zero).
//!
//! The generator writes into a caller-owned `Vec` that it clears first: after the first call
//! has grown it, generation allocates nothing.

use super::action::{Action, Hop, Path};
use super::bitboard::{Bitboard, DIAGONAL, ORTHOGONAL, RAYS};
use super::position::Position;
use super::ruleset::{CannonRule, Ruleset};
use super::types::{Color, Piece, Role, Square};

/// Whether `attacker` may capture `target` by rank: a stronger or equal piece wins, except that
/// the General cannot take a Soldier and a Soldier can take the General.
#[inline]
pub const fn beats_by_rank(attacker: Role, target: Role) -> bool {
    match (attacker, target) {
        (Role::General, Role::Soldier) => false,
        (Role::Soldier, Role::General) => true,
        _ => attacker.rank() <= target.rank(),
    }
}

/// Calls `f(target, rank_free)` for every occupied square `piece` on `from` could capture on
/// if it held an enemy revealed piece: adjacent squares (rank rule), and where the ruleset
/// allows, a Taiwan cannon's jump, a chariot's capture at distance ≥ 2 and a horse's diagonal
/// (all rank-free). The square may hold anything; callers judge what stands there.
#[inline]
pub(crate) fn for_each_reach(
    pos: &Position,
    rules: &Ruleset,
    from: Square,
    role: Role,
    mut f: impl FnMut(Square, bool),
) {
    let occupied = pos.occupied();
    if role == Role::Cannon && rules.cannon == CannonRule::Taiwan {
        for ray in &RAYS[from.index()] {
            let mut screen = false;
            for &t in ray.squares() {
                if occupied.contains(t) {
                    if screen {
                        f(t, true);
                        break;
                    }
                    screen = true;
                }
            }
        }
        return;
    }
    for t in ORTHOGONAL[from.index()] & occupied {
        f(t, false);
    }
    if role == Role::Chariot && rules.chariot_captures_at_range() {
        for ray in &RAYS[from.index()] {
            if let Some(i) = ray.squares().iter().position(|&t| occupied.contains(t)) {
                if i >= 1 {
                    f(ray.squares[i], true);
                }
            }
        }
    }
    if role == Role::Horse && rules.horse_diagonal {
        for t in DIAGONAL[from.index()] & occupied {
            f(t, true);
        }
    }
}

/// The enemy revealed pieces that `piece` on `from` could capture now.
pub(crate) fn capturable(pos: &Position, rules: &Ruleset, from: Square, piece: Piece) -> Bitboard {
    let enemies = pos.revealed(piece.color.other());
    let mut targets = Bitboard::EMPTY;
    for_each_reach(pos, rules, from, piece.role, |t, rank_free| {
        if enemies.contains(t) {
            let target = pos.piece_at(t).expect("revealed");
            if rank_free || beats_by_rank(piece.role, target.role) {
                targets.set(t);
            }
        }
    });
    targets
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
    let Some(us) = pos.turn() else { return };
    let empty = !pos.occupied();
    for from in pos.revealed(us) {
        let piece = pos.piece_at(from).expect("revealed");
        // Quiet moves.
        if piece.role == Role::Chariot && rules.chariot_rush {
            for ray in &RAYS[from.index()] {
                for &t in ray.squares() {
                    if !empty.contains(t) {
                        break;
                    }
                    out.push(Action::step(from, t));
                }
            }
        } else {
            for t in ORTHOGONAL[from.index()] & empty {
                out.push(Action::step(from, t));
            }
        }
        if piece.role == Role::Horse && rules.horse_diagonal {
            for t in DIAGONAL[from.index()] & empty {
                out.push(Action::step(from, t));
            }
        }
        // Captures, dark captures and chains.
        push_captures(pos, rules, piece, from, &Path::new(from, from), 0, out);
    }
}

/// Pushes the captures of `piece` standing on `at`, each as `path` (of `depth` hops so far)
/// extended by one hop, and recursively the chains that continue them.
fn push_captures(
    pos: &Position,
    rules: &Ruleset,
    piece: Piece,
    at: Square,
    path: &Path,
    depth: usize,
    out: &mut Vec<Action>,
) {
    let enemies = pos.revealed(piece.color.other());
    let covered = pos.covered();
    // A dark capture opens a turn, or (暗棋連吃) is any link of a chain.
    let dark = rules.allows_dark_capture() && (depth == 0 || rules.dark_chain_capture);
    for_each_reach(pos, rules, at, piece.role, |t, rank_free| {
        if covered.contains(t) {
            if dark {
                out.push(Action::Move(extended(path, depth, t)));
            }
        } else if enemies.contains(t) {
            let target = pos.piece_at(t).expect("revealed");
            if rank_free || beats_by_rank(piece.role, target.role) {
                let chain = extended(path, depth, t);
                out.push(Action::Move(chain));
                if rules.allows_chain() {
                    let mut next = *pos;
                    next.remove(at);
                    next.put_piece(t, piece);
                    push_captures(&next, rules, piece, t, &chain, depth + 1, out);
                }
            }
        }
    });
}

/// `path` cut to `depth` hops plus a hop to `to`.
#[inline]
fn extended(path: &Path, depth: usize, to: Square) -> Path {
    let hop = Hop { to, reveal: None };
    if depth == 0 {
        return Path::with_hop(path.from, hop);
    }
    let mut p = *path;
    p.truncate(depth);
    p.push(hop);
    p
}

/// Whether `color` has any legal action in `pos` (cheaper than listing them).
pub fn has_legal_action(pos: &Position, rules: &Ruleset, color: Option<Color>) -> bool {
    if !pos.covered().is_empty() {
        return true;
    }
    let Some(us) = color else { return false };
    let empty = !pos.occupied();
    for from in pos.revealed(us) {
        let piece = pos.piece_at(from).expect("revealed");
        if !(ORTHOGONAL[from.index()] & empty).is_empty() {
            return true;
        }
        if piece.role == Role::Horse
            && rules.horse_diagonal
            && !(DIAGONAL[from.index()] & empty).is_empty()
        {
            return true;
        }
        if !capturable(pos, rules, from, piece).is_empty() {
            return true;
        }
    }
    false
}
