//! The small vocabulary of Banqi: squares, colours, roles, pieces. Seats are the core's
//! ([`crate::core::Seat`]): player 1 moves first, and its first flip decides its colour.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// One of the 32 squares `a1` … `d8` (files a–d, ranks 1–8, TCGA coordinates).
///
/// The index runs a1 b1 c1 d1 a2 … d8, the order of a layout string.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl Square {
    pub const COUNT: usize = 32;

    /// The square with this index (0 = a1, 31 = d8).
    pub const fn new(index: u8) -> Option<Square> {
        if index < 32 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// `file` 0..4 (a–d), `rank` 0..8 (1–8).
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < 4 && rank < 8 {
            Some(Square(rank * 4 + file))
        } else {
            None
        }
    }

    pub(crate) const fn from_index_unchecked(index: u8) -> Square {
        Square(index)
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0..4 for files a–d.
    pub const fn file(self) -> u8 {
        self.0 & 3
    }

    /// 0..8 for ranks 1–8.
    pub const fn rank(self) -> u8 {
        self.0 >> 2
    }

    /// The square `df` files and `dr` ranks away, if it is on the board.
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f >= 0 && f < 4 && r >= 0 && r < 8 {
            Some(Square((r * 4 + f) as u8))
        } else {
            None
        }
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..32).map(Square)
    }
}

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

#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Color {
    Red = 0,
    Black = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    pub const fn other(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    pub const fn index(self) -> usize {
        self as usize
    }

    /// `r` or `b`, as in a position string.
    pub const fn char(self) -> char {
        match self {
            Color::Red => 'r',
            Color::Black => 'b',
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The seven kinds of piece, in rank order (General is rank 1, the highest).
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Role {
    General = 0,
    Advisor = 1,
    Elephant = 2,
    Chariot = 3,
    Horse = 4,
    Cannon = 5,
    Soldier = 6,
}

impl Role {
    pub const ALL: [Role; 7] = [
        Role::General,
        Role::Advisor,
        Role::Elephant,
        Role::Chariot,
        Role::Horse,
        Role::Cannon,
        Role::Soldier,
    ];

    pub const fn index(self) -> usize {
        self as usize
    }

    /// Rank number: 1 (General) … 7 (Soldier); a smaller number is stronger.
    pub const fn rank(self) -> u8 {
        self as u8 + 1
    }

    /// How many pieces of this role each colour has.
    pub const fn count(self) -> u8 {
        match self {
            Role::General => 1,
            Role::Soldier => 5,
            _ => 2,
        }
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

    /// The TCGA letter in upper case (red): K G M R N C P.
    pub const fn upper_char(self) -> char {
        match self {
            Role::General => 'K',
            Role::Advisor => 'G',
            Role::Elephant => 'M',
            Role::Chariot => 'R',
            Role::Horse => 'N',
            Role::Cannon => 'C',
            Role::Soldier => 'P',
        }
    }

    pub const fn from_upper_char(c: char) -> Option<Role> {
        Some(match c {
            'K' => Role::General,
            'G' => Role::Advisor,
            'M' => Role::Elephant,
            'R' => Role::Chariot,
            'N' => Role::Horse,
            'C' => Role::Cannon,
            'P' => Role::Soldier,
            _ => return None,
        })
    }

    pub const fn name(self) -> &'static str {
        match self {
            Role::General => "general",
            Role::Advisor => "advisor",
            Role::Elephant => "elephant",
            Role::Chariot => "chariot",
            Role::Horse => "horse",
            Role::Cannon => "cannon",
            Role::Soldier => "soldier",
        }
    }
}

/// A piece: a colour and a role.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// 0..14 in the order K G M R N C P k g m r n c p.
    pub const fn index(self) -> usize {
        self.color.index() * 7 + self.role.index()
    }

    /// The 14 pieces in index order: K G M R N C P k g m r n c p.
    pub const ALL: [Piece; 14] = {
        let mut all = [Piece::new(Color::Red, Role::General); 14];
        let mut i = 0;
        while i < 14 {
            let color = if i < 7 { Color::Red } else { Color::Black };
            all[i] = Piece::new(color, Role::ALL[i % 7]);
            i += 1;
        }
        all
    };

    /// The piece of [`Piece::index`] `index` (< 14); a table lookup, as it sits in the
    /// move generator's inner loop.
    #[inline]
    pub const fn from_index(index: usize) -> Piece {
        Piece::ALL[index]
    }

    /// The TCGA letter: upper case red, lower case black.
    pub const fn char(self) -> char {
        let c = self.role.upper_char();
        match self.color {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    pub const fn from_char(c: char) -> Option<Piece> {
        match Role::from_upper_char(c) {
            Some(role) => Some(Piece {
                color: Color::Red,
                role,
            }),
            None => match Role::from_upper_char(c.to_ascii_uppercase()) {
                Some(role) if c.is_ascii_lowercase() => Some(Piece {
                    color: Color::Black,
                    role,
                }),
                _ => None,
            },
        }
    }

    /// The Chinese character of the piece (帥 仕 相 俥 傌 炮 兵 / 將 士 象 車 馬 包 卒).
    pub const fn chinese(self) -> char {
        const RED: [char; 7] = ['帥', '仕', '相', '俥', '傌', '炮', '兵'];
        const BLACK: [char; 7] = ['將', '士', '象', '車', '馬', '包', '卒'];
        match self.color {
            Color::Red => RED[self.role.index()],
            Color::Black => BLACK[self.role.index()],
        }
    }

    /// All 14 kinds of piece in index order.
    pub fn all() -> impl Iterator<Item = Piece> {
        (0..14).map(Piece::from_index)
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

#[derive(Error, Debug, Clone, PartialEq, Eq)]
#[error("invalid piece {0:?}: expected one of K G M R N C P (red) or k g m r n c p (black)")]
pub struct ParsePieceError(pub String);

impl FromStr for Piece {
    type Err = ParsePieceError;
    fn from_str(s: &str) -> Result<Piece, ParsePieceError> {
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Piece::from_char(c).ok_or_else(|| ParsePieceError(s.to_owned())),
            _ => Err(ParsePieceError(s.to_owned())),
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
    fn pieces_round_trip() {
        let letters: String = Piece::all().map(|p| p.char()).collect();
        assert_eq!(letters, "KGMRNCPkgmrncp");
        for p in Piece::all() {
            assert_eq!(p.to_string().parse::<Piece>(), Ok(p));
            assert_eq!(Piece::from_index(p.index()), p);
        }
        assert!("X".parse::<Piece>().is_err());
        assert!("kk".parse::<Piece>().is_err());
        let total: u32 = Role::ALL
            .iter()
            .map(|r| r.points() * r.count() as u32)
            .sum();
        assert_eq!(total, 50);
    }
}
