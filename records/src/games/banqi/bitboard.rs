//! A set of squares as a `u32` (bit i = square index i), and the fixed geometry tables.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

use super::types::Square;

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Bitboard(pub u32);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const FULL: Bitboard = Bitboard(u32::MAX);

    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    #[inline]
    pub fn set(&mut self, sq: Square) {
        self.0 |= 1 << sq.index();
    }

    #[inline]
    pub fn clear(&mut self, sq: Square) {
        self.0 &= !(1 << sq.index());
    }

    /// The `k`-th lowest square of the set (0-based).
    #[inline]
    pub fn nth(self, k: usize) -> Option<Square> {
        if k >= self.count() as usize {
            return None;
        }
        // Halve the window five times, keeping the half that holds the k-th bit: a fixed
        // number of popcounts instead of clearing k bits one by one (random playouts pick
        // a uniform k, so that loop's length would be unpredictable).
        let (mut bits, mut k, mut base) = (self.0, k as u32, 0u32);
        for width in [16u32, 8, 4, 2, 1] {
            let low = (bits & ((1 << width) - 1)).count_ones();
            if k >= low {
                k -= low;
                bits >>= width;
                base += width;
            }
        }
        Some(Square::from_index_unchecked(base as u8))
    }

    /// The lowest square of the set.
    #[inline]
    pub fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(self.0.trailing_zeros() as u8))
        }
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}
impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}
impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}
impl BitAndAssign for Bitboard {
    #[inline]
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0
    }
}
impl BitOrAssign for Bitboard {
    #[inline]
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0
    }
}

/// The four orthogonal directions as (file, rank) steps.
pub const DIRECTIONS: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

const fn neighbour_table(steps: &[(i8, i8)]) -> [Bitboard; 32] {
    let mut table = [Bitboard::EMPTY; 32];
    let mut i = 0;
    while i < 32 {
        let sq = Square::from_index_unchecked(i as u8);
        let mut bits = 0u32;
        let mut k = 0;
        while k < steps.len() {
            if let Some(t) = sq.offset(steps[k].0, steps[k].1) {
                bits |= 1 << t.index();
            }
            k += 1;
        }
        table[i] = Bitboard(bits);
        i += 1;
    }
    table
}

/// The orthogonal neighbours of each square.
pub const ORTHOGONAL: [Bitboard; 32] = neighbour_table(&DIRECTIONS);
/// The diagonal neighbours of each square.
pub const DIAGONAL: [Bitboard; 32] = neighbour_table(&[(1, 1), (1, -1), (-1, 1), (-1, -1)]);

/// The squares in each direction (0 up, 1 right, 2 down, 3 left) from each square, as sets.
pub const RAY_BITS: [[Bitboard; 4]; 32] = ray_table();

const fn ray_table() -> [[Bitboard; 4]; 32] {
    let mut table = [[Bitboard::EMPTY; 4]; 32];
    let mut i = 0;
    while i < 32 {
        let mut d = 0;
        while d < 4 {
            let mut sq = Square::from_index_unchecked(i as u8);
            let mut bits = 0u32;
            while let Some(next) = sq.offset(DIRECTIONS[d].0, DIRECTIONS[d].1) {
                bits |= 1 << next.index();
                sq = next;
            }
            table[i][d] = Bitboard(bits);
            d += 1;
        }
        i += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn neighbours() {
        let n: Vec<String> = ORTHOGONAL[sq("a1").index()]
            .map(|s| s.to_string())
            .collect();
        assert_eq!(n, ["b1", "a2"]);
        assert_eq!(ORTHOGONAL[sq("b2").index()].count(), 4);
        assert_eq!(DIAGONAL[sq("b2").index()].count(), 4);
        assert_eq!(
            DIAGONAL[sq("d8").index()]
                .map(|s| s.to_string())
                .collect::<Vec<_>>(),
            ["c7"]
        );
        let up: Vec<String> = RAY_BITS[sq("b5").index()][0]
            .map(|s| s.to_string())
            .collect();
        assert_eq!(up, ["b6", "b7", "b8"]);
        let left: Vec<String> = RAY_BITS[sq("b5").index()][3]
            .map(|s| s.to_string())
            .collect();
        assert_eq!(left, ["a5"]);
        let down: Vec<String> = RAY_BITS[sq("b3").index()][2]
            .map(|s| s.to_string())
            .collect();
        assert_eq!(down, ["b1", "b2"]);
        assert_eq!(Bitboard(0b1011).nth(2), Some(sq("d1")));
        assert_eq!(Bitboard(0b1011).nth(3), None);
    }

    #[test]
    fn nth_agrees_with_iteration() {
        let mut bits = 0x9E37_79B9u32;
        for _ in 0..2000 {
            bits = bits.rotate_left(7) ^ bits.wrapping_mul(0x2545_F491);
            let b = Bitboard(bits);
            for k in 0..=32 {
                assert_eq!(b.nth(k), b.into_iter().nth(k), "{bits:#x} k={k}");
            }
        }
        assert_eq!(Bitboard::FULL.nth(31), Some(sq("d8")));
        assert_eq!(Bitboard::EMPTY.nth(0), None);
    }
}
