//! The xiangqi board (RULES.md §9): 9 files `a`–`i` × 10 ranks `0`–`9` (ICCS coordinates, red
//! on ranks 0–4), the palaces `d0–f2` and `d7–f9`, the river between ranks 4 and 5. Sets of
//! points are 128-bit bitboards; the step tables (king, advisor, elephant with its eye, horse
//! with its leg) are built at compile time.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

pub const FILES: u8 = 9;
pub const RANKS: u8 = 10;

/// One of the 90 points `a0` … `i9`; the index runs a0 b0 … i0 a1 … i9.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

crate::grid_place!(Square, files FILES, ranks RANKS);

impl Square {
    #[inline]
    pub const fn bit(self) -> u128 {
        1 << self.0
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

#[derive(Error, Debug, Clone, PartialEq, Eq)]
#[error("invalid point {0:?}: expected a file a–i and a rank 0–9, like e0")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        match s.as_bytes() {
            [f @ b'a'..=b'i', r @ b'0'..=b'9'] => Ok(Square((r - b'0') * FILES + (f - b'a'))),
            _ => Err(ParseSquareError(s.to_owned())),
        }
    }
}

crate::place_set!(
    /// A set of points, one bit per index: the board kit's vocabulary on a `u128`.
    pub struct Bitboard(u128) of Square, Square::COUNT
);

const fn palace(red: bool) -> u128 {
    let base = if red { 0 } else { 7 };
    let mut set = 0;
    let mut r = 0;
    while r < 3 {
        let mut f = 3;
        while f < 6 {
            set |= 1 << ((base + r) * 9 + f);
            f += 1;
        }
        r += 1;
    }
    set
}

/// Red's palace (d0–f2) and black's (d7–f9), by side index.
pub const PALACES: [Bitboard; 2] = [Bitboard(palace(true)), Bitboard(palace(false))];
/// Red's half (ranks 0–4) and black's (5–9), by side index.
pub const HALVES: [Bitboard; 2] = [
    Bitboard((1 << 45) - 1),
    Bitboard(((1 << 90) - 1) & !((1 << 45) - 1)),
];

/// The four orthogonal directions.
pub const ORTHOGONAL: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
/// The four diagonal directions.
pub const DIAGONAL: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
/// A horse's eight jumps, each with its leg (the orthogonal point next to the horse in the
/// long direction).
pub const HORSE: [((i8, i8), (i8, i8)); 8] = [
    ((1, 2), (0, 1)),
    ((-1, 2), (0, 1)),
    ((2, 1), (1, 0)),
    ((2, -1), (1, 0)),
    ((1, -2), (0, -1)),
    ((-1, -2), (0, -1)),
    ((-2, 1), (-1, 0)),
    ((-2, -1), (-1, 0)),
];

/// Per orthogonal direction (as [`ORTHOGONAL`]: up, right, down, left) and point, the points
/// beyond it in that direction to the board's edge: the first piece on a ray is its nearest
/// bit (the lowest going up or right, the highest going down or left).
pub const RAYS: [[u128; Square::COUNT]; 4] = {
    let mut rays = [[0u128; Square::COUNT]; 4];
    let mut d = 0;
    while d < 4 {
        let (df, dr) = ORTHOGONAL[d];
        let mut i = 0;
        while i < Square::COUNT {
            let (mut f, mut r) = ((i % 9) as i8 + df, (i / 9) as i8 + dr);
            while f >= 0 && f < 9 && r >= 0 && r < 10 {
                rays[d][i] |= 1 << (r as usize * 9 + f as usize);
                f += df;
                r += dr;
            }
            i += 1;
        }
        d += 1;
    }
    rays
};

/// Per point, the points at the given offsets from it (on the board): where a piece that
/// moves by those offsets would stand to reach it (the offsets are symmetric).
const fn around(offsets: &[(i8, i8)]) -> [u128; Square::COUNT] {
    let mut table = [0u128; Square::COUNT];
    let mut i = 0;
    while i < Square::COUNT {
        let mut k = 0;
        while k < offsets.len() {
            let (f, r) = ((i % 9) as i8 + offsets[k].0, (i / 9) as i8 + offsets[k].1);
            if f >= 0 && f < 9 && r >= 0 && r < 10 {
                table[i] |= 1 << (r as usize * 9 + f as usize);
            }
            k += 1;
        }
        i += 1;
    }
    table
}

/// Per point, the points a horse may take it from (legs aside).
pub const HORSE_FROM: [u128; Square::COUNT] = around(&[
    (1, 2),
    (-1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, 1),
    (-2, -1),
]);
/// Per point, its orthogonal neighbours (generals, soldiers).
pub const NEXT_TO: [u128; Square::COUNT] = around(&ORTHOGONAL);
/// Per point, its diagonal neighbours (advisors).
pub const DIAGONALLY_NEXT_TO: [u128; Square::COUNT] = around(&DIAGONAL);
/// Per point, the points two steps away diagonally (elephants).
pub const ELEPHANT_FROM: [u128; Square::COUNT] = around(&[(2, 2), (2, -2), (-2, -2), (-2, 2)]);

/// The nearest point of `set` (non-empty, on one ray) going in direction `d` of [`RAYS`].
#[inline]
pub fn nearest(set: u128, d: usize) -> Square {
    let index = if d < 2 {
        set.trailing_zeros()
    } else {
        127 - set.leading_zeros()
    };
    Square::new(index as u8).expect("a point of the board")
}
