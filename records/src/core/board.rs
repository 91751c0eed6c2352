//! The board kit: what the games' boards share.
//!
//! - [`grid_place!`] declares a board's place type's methods (`new`, `from_coords`, `index`,
//!   `file`, `rank`, `offset`, `all`) for a rectangular grid numbered rank by rank.
//! - [`place_set!`] declares a game's set of places (squares or points) as one machine word
//!   sized to its board (Banqi `u32`, Three Kingdoms and Luzhanqi `u64`, xiangqi `u128`), with
//!   one vocabulary for all of them: `EMPTY`, `ALL`, `single`, `contains`, `with`, `without`,
//!   `insert`, `remove`, `is_empty`, `count`, `first`, `nth`, iteration in index order, and
//!   `&`, `|`, `!` (the complement within the board), `&=`, `|=`. Every method is `const` where
//!   Rust allows, so that the games' geometry tables are built at compile time.
//! - [`PlaceSet`] is that vocabulary as a trait, for code written once for every board.
//! - [`Side`] is red or black, for the games played by two colours.
//!
//! A macro rather than a generic `Set<W>`: `const fn` cannot call trait methods on stable
//! Rust, and the tables are `const`; the macro writes the same code for each word.

use std::fmt;

/// A set of places of one board, as the games' set types share it (see [`place_set!`]).
pub trait PlaceSet: Copy + Eq + Iterator<Item = Self::Place> {
    type Place: Copy;
    const EMPTY: Self;
    /// Every place of the board.
    const ALL: Self;
    fn single(place: Self::Place) -> Self;
    fn contains(self, place: Self::Place) -> bool;
    fn with(self, place: Self::Place) -> Self;
    fn without(self, place: Self::Place) -> Self;
    fn is_empty(self) -> bool;
    fn count(self) -> u32;
    /// The place with the lowest index.
    fn first(self) -> Option<Self::Place>;
    /// The `k`-th place in index order (0-based).
    fn nth_place(self, k: usize) -> Option<Self::Place>;
}

/// Declares the methods of a place of a rectangular board (a square or a point, `struct
/// Square(u8)`), numbered rank by rank from the first file of the first rank:
/// `grid_place!(Square, files 4, ranks 8);` gives `COUNT` (files × ranks), `new`,
/// `from_coords`, `from_index_unchecked`, `index`, `file`, `rank`, `offset` and `all`, one
/// vocabulary in every game. A board with places off the grid (Luzhanqi's mountains, numbered
/// after it) says `grid_place!(Point, files 5, ranks 12, count 62, own file_rank);`: `new`
/// then takes any index below `count`, and the game writes `file`, `rank`, `offset` and `all`.
#[macro_export]
macro_rules! grid_place {
    ($Place:ident, files $files:expr, ranks $ranks:expr) => {
        $crate::grid_place!($Place, files $files, ranks $ranks, count ($files as usize * $ranks as usize), own file_rank);

        impl $Place {
            /// 0-based file (a = 0).
            #[inline]
            pub const fn file(self) -> u8 {
                self.0 % ($files as u8)
            }

            /// 0-based rank.
            #[inline]
            pub const fn rank(self) -> u8 {
                self.0 / ($files as u8)
            }

            /// The place `df` files and `dr` ranks away, if it is on the board.
            #[inline]
            pub const fn offset(self, df: i8, dr: i8) -> Option<$Place> {
                $Place::from_coords(self.file() as i8 + df, self.rank() as i8 + dr)
            }

            /// Every place, in index order.
            pub fn all() -> impl Iterator<Item = $Place> {
                (0..$Place::COUNT as u8).map($Place)
            }
        }
    };
    ($Place:ident, files $files:expr, ranks $ranks:expr, count $count:expr, own file_rank) => {
        impl $Place {
            /// How many places the board has.
            pub const COUNT: usize = $count;

            /// The place with this index, if the board has it.
            pub const fn new(index: u8) -> Option<$Place> {
                if (index as usize) < $Place::COUNT {
                    Some($Place(index))
                } else {
                    None
                }
            }

            /// The grid place at `file` and `rank` (0-based), if on the grid.
            #[inline]
            pub const fn from_coords(file: i8, rank: i8) -> Option<$Place> {
                if file >= 0 && file < $files as i8 && rank >= 0 && rank < $ranks as i8 {
                    Some($Place(rank as u8 * ($files as u8) + file as u8))
                } else {
                    None
                }
            }

            pub(crate) const fn from_index_unchecked(index: u8) -> $Place {
                $Place(index)
            }

            #[inline]
            pub const fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

/// Declares a set of places: `place_set!(pub struct Bitboard(u32) of Square, 32);` makes
/// `Bitboard(pub u32)` with the kit's vocabulary, for a place type with `const fn index(self)
/// -> usize` and `const fn from_index_unchecked(index: u8) -> Self`; the number is how many
/// places the board has (the low bits of the word).
#[macro_export]
macro_rules! place_set {
    ($(#[$meta:meta])* $vis:vis struct $Set:ident($W:ty) of $P:ty, $count:expr) => {
        $(#[$meta])*
        #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
        $vis struct $Set(pub $W);

        impl $Set {
            pub const EMPTY: $Set = $Set(0);
            /// Every place of the board.
            pub const ALL: $Set = $Set(<$W>::MAX >> (<$W>::BITS - ($count) as u32));

            #[inline]
            pub const fn single(p: $P) -> $Set {
                $Set(1 << p.index())
            }

            #[inline]
            pub const fn contains(self, p: $P) -> bool {
                self.0 & (1 << p.index()) != 0
            }

            #[inline]
            pub const fn with(self, p: $P) -> $Set {
                $Set(self.0 | (1 << p.index()))
            }

            #[inline]
            pub const fn without(self, p: $P) -> $Set {
                $Set(self.0 & !(1 << p.index()))
            }

            #[inline]
            pub fn insert(&mut self, p: $P) {
                self.0 |= 1 << p.index();
            }

            #[inline]
            pub fn remove(&mut self, p: $P) {
                self.0 &= !(1 << p.index());
            }

            #[inline]
            pub const fn is_empty(self) -> bool {
                self.0 == 0
            }

            #[inline]
            pub const fn count(self) -> u32 {
                self.0.count_ones()
            }

            /// The place with the lowest index.
            #[inline]
            pub const fn first(self) -> Option<$P> {
                if self.0 == 0 {
                    None
                } else {
                    Some(<$P>::from_index_unchecked(self.0.trailing_zeros() as u8))
                }
            }

            /// The `k`-th place in index order (0-based).
            #[inline]
            pub fn nth_place(self, k: usize) -> Option<$P> {
                if k >= self.count() as usize {
                    return None;
                }
                // Halve the window, keeping the half that holds the k-th bit: a fixed number
                // of popcounts instead of clearing k bits one by one (random playouts pick a
                // uniform k, so that loop's length would be unpredictable).
                let (mut bits, mut k, mut base) = (self.0, k as u32, 0u32);
                let mut width = <$W>::BITS / 2;
                while width > 0 {
                    let low = (bits & ((1 << width) - 1)).count_ones();
                    if k >= low {
                        k -= low;
                        bits >>= width;
                        base += width;
                    }
                    width /= 2;
                }
                Some(<$P>::from_index_unchecked(base as u8))
            }
        }

        impl Iterator for $Set {
            type Item = $P;
            #[inline]
            fn next(&mut self) -> Option<$P> {
                let p = self.first()?;
                self.0 &= self.0 - 1;
                Some(p)
            }
            #[inline]
            fn size_hint(&self) -> (usize, Option<usize>) {
                let n = self.count() as usize;
                (n, Some(n))
            }
        }

        impl std::ops::BitAnd for $Set {
            type Output = $Set;
            #[inline]
            fn bitand(self, o: $Set) -> $Set {
                $Set(self.0 & o.0)
            }
        }

        impl std::ops::BitOr for $Set {
            type Output = $Set;
            #[inline]
            fn bitor(self, o: $Set) -> $Set {
                $Set(self.0 | o.0)
            }
        }

        /// The complement within the board.
        impl std::ops::Not for $Set {
            type Output = $Set;
            #[inline]
            fn not(self) -> $Set {
                $Set(!self.0 & $Set::ALL.0)
            }
        }

        impl std::ops::BitAndAssign for $Set {
            #[inline]
            fn bitand_assign(&mut self, o: $Set) {
                self.0 &= o.0
            }
        }

        impl std::ops::BitOrAssign for $Set {
            #[inline]
            fn bitor_assign(&mut self, o: $Set) {
                self.0 |= o.0
            }
        }

        impl $crate::core::board::PlaceSet for $Set {
            type Place = $P;
            const EMPTY: $Set = $Set::EMPTY;
            const ALL: $Set = $Set::ALL;
            #[inline]
            fn single(p: $P) -> $Set {
                $Set::single(p)
            }
            #[inline]
            fn contains(self, p: $P) -> bool {
                $Set::contains(self, p)
            }
            #[inline]
            fn with(self, p: $P) -> $Set {
                $Set::with(self, p)
            }
            #[inline]
            fn without(self, p: $P) -> $Set {
                $Set::without(self, p)
            }
            #[inline]
            fn is_empty(self) -> bool {
                $Set::is_empty(self)
            }
            #[inline]
            fn count(self) -> u32 {
                $Set::count(self)
            }
            #[inline]
            fn first(self) -> Option<$P> {
                $Set::first(self)
            }
            #[inline]
            fn nth_place(self, k: usize) -> Option<$P> {
                $Set::nth_place(self, k)
            }
        }
    };
}

/// Red or black: the two colours of Banqi, Luzhanqi and xiangqi (Red moves first in
/// Luzhanqi and xiangqi; in Banqi the first flip decides who is which).
#[derive(
    Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, serde::Serialize, serde::Deserialize,
)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Red,
    Black,
}

impl Side {
    pub const ALL: [Side; 2] = [Side::Red, Side::Black];

    #[inline]
    pub const fn other(self) -> Side {
        match self {
            Side::Red => Side::Black,
            Side::Black => Side::Red,
        }
    }

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `r` or `b`, as position strings write the side to move.
    pub const fn char(self) -> char {
        match self {
            Side::Red => 'r',
            Side::Black => 'b',
        }
    }

    /// `red` or `black`.
    pub const fn name(self) -> &'static str {
        match self {
            Side::Red => "red",
            Side::Black => "black",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
#[allow(dead_code)]
mod tests {
    use super::PlaceSet;

    #[derive(Copy, Clone, PartialEq, Eq, Debug)]
    struct Cell(u8);

    impl Cell {
        const fn index(self) -> usize {
            self.0 as usize
        }
        const fn from_index_unchecked(i: u8) -> Cell {
            Cell(i)
        }
    }

    place_set!(struct Small(u64) of Cell, 45);
    place_set!(struct Wide(u128) of Cell, 90);

    #[test]
    fn the_vocabulary_on_two_widths() {
        let s = Small::single(Cell(3)).with(Cell(44)).with(Cell(0));
        assert_eq!(s.count(), 3);
        assert!(s.contains(Cell(44)) && !s.contains(Cell(43)));
        assert_eq!(s.first(), Some(Cell(0)));
        assert_eq!(s.collect::<Vec<_>>(), [Cell(0), Cell(3), Cell(44)]);
        assert_eq!((!s).count(), 42, "the complement stays on the board");
        assert_eq!(Small::ALL.count(), 45);
        assert_eq!(Wide::ALL.count(), 90);
        let mut w = Wide::EMPTY;
        w.insert(Cell(89));
        w.insert(Cell(64));
        w.remove(Cell(64));
        assert_eq!(w.collect::<Vec<_>>(), [Cell(89)]);
        assert_eq!(<Wide as PlaceSet>::without(w, Cell(89)), Wide::EMPTY);
    }

    #[test]
    fn nth_agrees_with_iteration() {
        for bits in [
            0u128,
            1,
            0b1011_0110,
            (1 << 89) | (1 << 70) | (1 << 3) | 1,
            Wide::ALL.0,
        ] {
            let set = Wide(bits);
            let listed: Vec<Cell> = set.collect();
            for (k, cell) in listed.iter().enumerate() {
                assert_eq!(set.nth_place(k), Some(*cell));
            }
            assert_eq!(set.nth_place(listed.len()), None);
        }
    }
}
