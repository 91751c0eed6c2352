//! A set of squares as a `u32` (bit i = square index i), and the fixed geometry tables.

use super::types::Square;

crate::place_set!(
    /// A set of squares (bit i = square index i): the board kit's vocabulary on a `u32`.
    pub struct Bitboard(u32) of Square, 32
);

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
        assert_eq!(Bitboard(0b1011).nth_place(2), Some(sq("d1")));
        assert_eq!(Bitboard(0b1011).nth_place(3), None);
    }

    #[test]
    fn nth_agrees_with_iteration() {
        let mut bits = 0x9E37_79B9u32;
        for _ in 0..2000 {
            bits = bits.rotate_left(7) ^ bits.wrapping_mul(0x2545_F491);
            let b = Bitboard(bits);
            for k in 0..=32 {
                assert_eq!(b.nth_place(k), b.into_iter().nth(k), "{bits:#x} k={k}");
            }
        }
        assert_eq!(Bitboard::ALL.nth_place(31), Some(sq("d8")));
        assert_eq!(Bitboard::EMPTY.nth_place(0), None);
    }
}
