//! The move generator as first written, walking offsets point by point: the oracle the
//! table-driven [`Position::destinations`] is tested against, on every piece of positions of
//! random games under every preset (the perft counts cover xiangqi's own kinds only).

use rand::SeedableRng;
use rand::rngs::SmallRng;

use super::board::{Bitboard, DIAGONAL, HALVES, HORSE, ORTHOGONAL, Square};
use super::leaps::{CAMEL, KNIGHT, MULE};
use super::pieces::{Kind, Piece, Slot, forward};
use super::position::Position;
use crate::core::play::random_playout;
use crate::games::xiangqi::{Backs, PRESETS, Xiangqi3g};

/// Where the piece on `from` may go: its empty points and the enemy pieces it may take.
fn walked(pos: &Position, from: Square, piece: Piece) -> (Bitboard, Bitboard) {
    let (mut quiet_set, mut capture_set) = (Bitboard::EMPTY, Bitboard::EMPTY);
    let mut quiet = |s: Square| quiet_set = quiet_set.with(s);
    let mut capture = |s: Square| capture_set = capture_set.with(s);
    walk(pos, from, piece, &mut quiet, &mut capture);
    (quiet_set, capture_set)
}

fn walk(
    pos: &Position,
    from: Square,
    piece: Piece,
    mut quiet: impl FnMut(Square),
    mut capture: impl FnMut(Square),
) {
    let Some((kind, region)) = pos.rule(from, Slot::of(piece)) else {
        return;
    };
    let side = piece.side;
    let all = pos.occupied();
    let enemy = pos.occupied[side.other().index()];
    let spared = match piece.kind {
        Kind::Biao => pos.last[side.other().index()].map(|(s, _)| s),
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

/// Calls `visit` with every position of `games` seeded random games of up to `plies` plies
/// under every preset (with the preset's index and the seed, for messages).
pub(super) fn each_position(games: u64, plies: u32, mut visit: impl FnMut(usize, u64, &Position)) {
    let mut buffer = Vec::new();
    for (i, preset) in PRESETS.iter().enumerate() {
        for seed in 0..games {
            let mut rng = SmallRng::seed_from_u64(seed);
            let backs = Backs::random(&mut rng);
            random_playout::<Xiangqi3g, _>(
                preset.ruleset,
                &backs,
                &mut rng,
                plies,
                &mut buffer,
                |m, _| visit(i, seed, &m.pos),
            );
        }
    }
}

#[test]
fn the_tables_move_every_piece_as_the_walk_does() {
    let mut compared = 0;
    each_position(60, 300, |i, seed, pos| {
        for s in pos.occupied() {
            let piece = pos.piece(s).expect("occupied");
            assert_eq!(
                pos.destinations(s, Slot::of(piece)),
                walked(pos, s, piece),
                "preset {i} seed {seed}: {piece:?} on {s} in {pos}"
            );
            compared += 1;
            // The reverse lookup counts the attackers the walk finds, plus the other general
            // facing a general along an open file.
            let by = piece.side.other();
            let mut walked_attackers = pos
                .side_pieces(by)
                .filter(|&a| {
                    let attacker = pos.piece(a).expect("occupied");
                    walked(pos, a, attacker).1.contains(s)
                })
                .count() as u32;
            if piece.kind == Kind::General
                && let Some(g) = pos.general(by)
                && g.file() == s.file()
                && pos.board_between(g, s).is_empty()
            {
                walked_attackers += 1;
            }
            assert_eq!(
                pos.count_attackers(s, by, u32::MAX),
                walked_attackers,
                "preset {i} seed {seed}: attackers of {s} in {pos}"
            );
        }
    });
    assert!(compared > 100_000, "{compared}");
}

impl Position {
    /// The occupied points strictly between `a` and `b` on one file.
    fn board_between(&self, a: Square, b: Square) -> Vec<Square> {
        let (low, high) = (a.rank().min(b.rank()), a.rank().max(b.rank()));
        self.occupied()
            .filter(|s| s.file() == a.file() && s.rank() > low && s.rank() < high)
            .collect()
    }
}
