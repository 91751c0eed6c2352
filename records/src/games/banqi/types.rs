//! The small vocabulary of Banqi: squares, colours, roles, pieces. Seats are the core's
//! ([`crate::core::Seat`]): player 1 moves first, and its first flip decides its colour.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// One of the 32 squares `a1` … `d8` (files a–d, ranks 1–8, TCGA coordinates).
///
/// The index runs a1 b1 c1 d1 a2 … d8, the order of a layout string.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

crate::grid_place!(Square, files 4, ranks 8);

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file()) as char,
            (b'1' + self.rank()) as char
        )
    }
}

#[derive(Error, Debug, Clone, PartialEq, Eq)]
#[error("invalid square {0:?}: expected a file a–d and a rank 1–8, like b6")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        match s.as_bytes() {
            [f @ b'a'..=b'd', r @ b'1'..=b'8'] => Ok(Square((r - b'1') * 4 + (f - b'a'))),
            _ => Err(ParseSquareError(s.to_owned())),
        }
    }
}

/// A colour: red or black (the first flip decides which seat plays which). Banqi's word for
/// the board kit's [`Side`](crate::core::Side).
pub use crate::core::Side as Color;

pub use crate::core::pieces::{ParsePieceError, Piece, Role};

/// Banqi's own facts of the shared roles: rank order and piece points.
impl Role {
    /// Rank number: 1 (General) … 7 (Soldier); a smaller number is stronger.
    pub const fn rank(self) -> u8 {
        self as u8 + 1
    }

    /// Piece points (棋點, RULES §5).
    pub const fn points(self) -> u32 {
        match self {
            Role::General => 9,
            Role::Advisor => 8,
            Role::Elephant => 3,
            Role::Chariot => 2,
            Role::Horse => 1,
            Role::Cannon => 4,
            Role::Soldier => 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_round_trip_and_order() {
        let names: Vec<String> = Square::all().map(|s| s.to_string()).collect();
        assert_eq!(names[0], "a1");
        assert_eq!(names[3], "d1");
        assert_eq!(names[4], "a2");
        assert_eq!(names[31], "d8");
        for s in Square::all() {
            assert_eq!(s.to_string().parse::<Square>(), Ok(s));
        }
        assert!("e1".parse::<Square>().is_err());
        assert!("a9".parse::<Square>().is_err());
        assert!("a".parse::<Square>().is_err());
        assert_eq!(
            "b2".parse::<Square>().unwrap().offset(-1, 1),
            Some("a3".parse().unwrap())
        );
        assert_eq!("a1".parse::<Square>().unwrap().offset(-1, 0), None);
    }

    #[test]
    fn a_set_is_worth_fifty_points() {
        let total: u32 = Role::ALL
            .iter()
            .map(|r| r.points() * r.count() as u32)
            .sum();
        assert_eq!(total, 50);
    }
}
