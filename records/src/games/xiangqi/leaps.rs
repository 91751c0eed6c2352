//! Step tables built at compile time: per point, where each leaping kind lands and the point
//! that decides whether it may (a horse's leg, an elephant's eye, the point a 駝 or a 騾 is
//! blocked on, the piece a 妃 or a 抛 jumps over), and a soldier's steps. Move generation
//! reads them instead of walking offsets from point to point.

use super::board::{HALVES, HORSE, Square};

/// Up to eight (landing, deciding point) pairs per point, as indices; [`END`] ends a list.
pub(crate) type Leaps = [[(u8, u8); 8]; Square::COUNT];
/// The end of a list of [`Leaps`].
pub(crate) const END: u8 = u8::MAX;
/// An offset to land on and the offset of the point that decides it.
type Jump = ((i8, i8), (i8, i8));

/// The eight jumps (a, b), (b, a) … in every direction.
pub(crate) const fn jumps(a: i8, b: i8) -> [(i8, i8); 8] {
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

/// A 駝's leaps: (2,3) and (3,2) in every direction.
pub(crate) const CAMEL: [(i8, i8); 8] = jumps(2, 3);
/// A 騾's leaps: (1,3) and (3,1) in every direction.
pub(crate) const MULE: [(i8, i8); 8] = jumps(1, 3);
/// A chess knight's jumps (a 妃's moves).
pub(crate) const KNIGHT: [(i8, i8); 8] = jumps(1, 2);

const fn on_board(i: usize, (df, dr): (i8, i8)) -> Option<u8> {
    let (f, r) = ((i % 9) as i8 + df, (i / 9) as i8 + dr);
    if f >= 0 && f < 9 && r >= 0 && r < 10 {
        Some((r * 9 + f) as u8)
    } else {
        None
    }
}

/// The table of `moves` (offset to land on, offset of the deciding point), those landing on
/// the board.
const fn table(moves: &[Jump]) -> Leaps {
    let mut out = [[(END, END); 8]; Square::COUNT];
    let mut i = 0;
    while i < Square::COUNT {
        let (mut k, mut n) = (0, 0);
        while k < moves.len() {
            if let (Some(to), Some(at)) = (on_board(i, moves[k].0), on_board(i, moves[k].1)) {
                out[i][n] = (to, at);
                n += 1;
            }
            k += 1;
        }
        i += 1;
    }
    out
}

/// `jumps` with the point a straight line would pass first: toward the longer leg for a 騾
/// (`along_long`), diagonally for a 駝, halfway for a two-step diagonal or a double knight.
const fn with_blocks(jumps: [(i8, i8); 8], block: u8) -> [Jump; 8] {
    let mut out = [((0, 0), (0, 0)); 8];
    let mut k = 0;
    while k < 8 {
        let (df, dr) = jumps[k];
        let at = match block {
            // 駝: the diagonal point next to it.
            0 => (df.signum(), dr.signum()),
            // 騾: the orthogonal point next to it in the long direction.
            1 => {
                if df.abs() > dr.abs() {
                    (df.signum(), 0)
                } else {
                    (0, dr.signum())
                }
            }
            // Half of a doubled jump: the landing is twice it.
            _ => (df, dr),
        };
        out[k] = if block == 2 {
            ((2 * df, 2 * dr), (df, dr))
        } else {
            ((df, dr), at)
        };
        k += 1;
    }
    out
}

/// A horse's jumps and legs.
pub(crate) const HORSE_LEAPS: Leaps = table(&HORSE);
/// Per target point, the points a horse may take it from, each with the leg that horse needs
/// empty (the reverse of [`HORSE_LEAPS`]).
pub(crate) const HORSE_ATTACKS: Leaps = table(&{
    let mut out = [((0, 0), (0, 0)); 8];
    let mut k = 0;
    while k < 8 {
        let ((df, dr), (lf, lr)) = HORSE[k];
        out[k] = ((-df, -dr), (lf - df, lr - dr));
        k += 1;
    }
    out
});
/// Two points diagonally over the point between (an elephant's step and its eye; a 助's
/// second step; a 抛's capture over its screen).
pub(crate) const DIAGONAL_TWO: Leaps = table(&[
    ((2, 2), (1, 1)),
    ((2, -2), (1, -1)),
    ((-2, -2), (-1, -1)),
    ((-2, 2), (-1, 1)),
]);
/// A 駝's leaps and the diagonal points that block them.
pub(crate) const CAMEL_LEAPS: Leaps = table(&with_blocks(CAMEL, 0));
/// A 騾's leaps and the points that block them.
pub(crate) const MULE_LEAPS: Leaps = table(&with_blocks(MULE, 1));
/// A 妃's captures: two knight's jumps in one direction, over the piece one jump away.
pub(crate) const FEI_LEAPS: Leaps = table(&with_blocks(KNIGHT, 2));

/// The landings of `leaps` whose deciding point is empty (`open`) or occupied (not `open`)
/// in `all`.
#[inline]
pub(crate) fn landings(leaps: &[(u8, u8); 8], all: u128, open: bool) -> u128 {
    let mut set = 0;
    for &(to, at) in leaps {
        if to == END {
            break;
        }
        if (all >> at & 1 == 0) == open {
            set |= 1 << to;
        }
    }
    set
}

/// Per side and point, a soldier's steps: forward, and sideways once across the river.
pub(crate) const SOLDIER_STEPS: [[u128; Square::COUNT]; 2] = {
    let mut out = [[0u128; Square::COUNT]; 2];
    let mut side = 0;
    while side < 2 {
        let forward = if side == 0 { 1 } else { -1 };
        let mut i = 0;
        while i < Square::COUNT {
            let mut set = 0u128;
            if let Some(to) = on_board(i, (0, forward)) {
                set |= 1 << to;
            }
            if HALVES[side].0 >> i & 1 == 0 {
                if let Some(to) = on_board(i, (1, 0)) {
                    set |= 1 << to;
                }
                if let Some(to) = on_board(i, (-1, 0)) {
                    set |= 1 << to;
                }
            }
            out[side][i] = set;
            i += 1;
        }
        side += 1;
    }
    out
};

/// Per point, a chess knight's landings (a 妃's quiet moves).
pub(crate) const KNIGHT_TO: [u128; Square::COUNT] = {
    let mut out = [0u128; Square::COUNT];
    let mut i = 0;
    while i < Square::COUNT {
        let mut k = 0;
        while k < 8 {
            if let Some(to) = on_board(i, KNIGHT[k]) {
                out[i] |= 1 << to;
            }
            k += 1;
        }
        i += 1;
    }
    out
};

/// Per point, the points from which some rule of RULES.md §9 may take it: along its rank or
/// file, or at most four points away each way (a 妃's two knight's jumps are the farthest).
pub(crate) const REACH: [u128; Square::COUNT] = {
    let mut out = [0u128; Square::COUNT];
    let mut i = 0;
    while i < Square::COUNT {
        let mut j = 0;
        while j < Square::COUNT {
            let (df, dr) = ((i % 9).abs_diff(j % 9), (i / 9).abs_diff(j / 9));
            if i != j && (df == 0 || dr == 0 || (df <= 4 && dr <= 4)) {
                out[i] |= 1 << j;
            }
            j += 1;
        }
        i += 1;
    }
    out
};

/// Per pair of files (lower first), the points on the files between them, both included.
const FILE_SPANS: [[u128; 9]; 9] = {
    let mut out = [[0u128; 9]; 9];
    let mut a = 0;
    while a < 9 {
        let mut b = a;
        while b < 9 {
            let mut i = 0;
            while i < Square::COUNT {
                if i % 9 >= a && i % 9 <= b {
                    out[a][b] |= 1 << i;
                }
                i += 1;
            }
            b += 1;
        }
        a += 1;
    }
    out
};

/// Per pair of ranks (lower first), the points on the ranks between them, both included.
const RANK_SPANS: [[u128; 10]; 10] = {
    let mut out = [[0u128; 10]; 10];
    let mut a = 0;
    while a < 10 {
        let mut b = a;
        while b < 10 {
            out[a][b] = ((1u128 << ((b + 1) * 9)) - 1) & !((1u128 << (a * 9)) - 1);
            b += 1;
        }
        a += 1;
    }
    out
};

/// The points of the rectangle `a` and `b` span, corners included.
#[inline]
pub(crate) fn rectangle(a: Square, b: Square) -> u128 {
    let (fa, fb) = (a.file() as usize, b.file() as usize);
    let (ra, rb) = (a.rank() as usize, b.rank() as usize);
    FILE_SPANS[fa.min(fb)][fa.max(fb)] & RANK_SPANS[ra.min(rb)][ra.max(rb)]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pair of points: the rectangle is the points whose file and rank lie between
    /// theirs; REACH holds the points sharing a line or within four each way.
    #[test]
    fn rectangles_and_reach_read_the_board() {
        for a in (0..Square::COUNT as u8).filter_map(Square::new) {
            for b in (0..Square::COUNT as u8).filter_map(Square::new) {
                let (fs, rs) = (
                    a.file().min(b.file())..=a.file().max(b.file()),
                    a.rank().min(b.rank())..=a.rank().max(b.rank()),
                );
                let expected = (0..Square::COUNT as u8)
                    .filter_map(Square::new)
                    .filter(|s| fs.contains(&s.file()) && rs.contains(&s.rank()))
                    .fold(0u128, |set, s| set | s.bit());
                assert_eq!(rectangle(a, b), expected, "{a} {b}");
                let (df, dr) = (a.file().abs_diff(b.file()), a.rank().abs_diff(b.rank()));
                let reach = a != b && (df == 0 || dr == 0 || (df <= 4 && dr <= 4));
                assert_eq!(REACH[a.index()] & b.bit() != 0, reach, "{a} {b}");
            }
        }
    }
}
