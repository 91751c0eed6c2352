//! Xiangqi pieces (RULES.md §9): sides and kinds, FEN letters as xqbase writes them (WXF's
//! `E` for the elephant and `H` for the horse are read too).

use std::fmt;

/// Red (ranks 0–4, moves first) or black.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Side {
    Red = 0,
    Black = 1,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::Red, Side::Black];

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

    /// +1 for red (forward is up the ranks), −1 for black.
    #[inline]
    pub const fn forward(self) -> i8 {
        match self {
            Side::Red => 1,
            Side::Black => -1,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Side::Red => "red",
            Side::Black => "black",
        }
    }
}

/// How a piece moves.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Kind {
    General,
    Advisor,
    Elephant,
    Chariot,
    Horse,
    Cannon,
    Soldier,
}

impl Kind {
    pub const PLAIN: [Kind; 7] = [
        Kind::General,
        Kind::Advisor,
        Kind::Elephant,
        Kind::Chariot,
        Kind::Horse,
        Kind::Cannon,
        Kind::Soldier,
    ];

    /// The FEN letter (red's, upper case).
    pub const fn letter(self) -> char {
        match self {
            Kind::General => 'K',
            Kind::Advisor => 'A',
            Kind::Elephant => 'B',
            Kind::Chariot => 'R',
            Kind::Horse => 'N',
            Kind::Cannon => 'C',
            Kind::Soldier => 'P',
        }
    }

    /// A FEN or WXF letter, either case.
    pub fn from_letter(c: char) -> Option<Kind> {
        Some(match c.to_ascii_uppercase() {
            'K' => Kind::General,
            'A' => Kind::Advisor,
            'B' | 'E' => Kind::Elephant,
            'R' => Kind::Chariot,
            'N' | 'H' => Kind::Horse,
            'C' => Kind::Cannon,
            'P' => Kind::Soldier,
            _ => return None,
        })
    }

    /// How many of the kind a side starts with.
    pub const fn count(self) -> u8 {
        match self {
            Kind::General => 1,
            Kind::Soldier => 5,
            _ => 2,
        }
    }

    /// Red's and black's names.
    pub const fn chinese(self, side: Side) -> &'static str {
        match (self, side) {
            (Kind::General, Side::Red) => "帥",
            (Kind::General, Side::Black) => "將",
            (Kind::Advisor, Side::Red) => "仕",
            (Kind::Advisor, Side::Black) => "士",
            (Kind::Elephant, Side::Red) => "相",
            (Kind::Elephant, Side::Black) => "象",
            (Kind::Chariot, Side::Red) => "俥",
            (Kind::Chariot, Side::Black) => "車",
            (Kind::Horse, Side::Red) => "傌",
            (Kind::Horse, Side::Black) => "馬",
            (Kind::Cannon, Side::Red) => "炮",
            (Kind::Cannon, Side::Black) => "包",
            (Kind::Soldier, Side::Red) => "兵",
            (Kind::Soldier, Side::Black) => "卒",
        }
    }
}

/// A piece on the board.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    pub side: Side,
    pub kind: Kind,
}

impl Piece {
    pub const fn new(side: Side, kind: Kind) -> Piece {
        Piece { side, kind }
    }

    pub const fn char(self) -> char {
        let c = self.kind.letter();
        match self.side {
            Side::Red => c,
            Side::Black => c.to_ascii_lowercase(),
        }
    }

    pub fn from_char(c: char) -> Option<Piece> {
        let kind = Kind::from_letter(c)?;
        let side = if c.is_ascii_uppercase() {
            Side::Red
        } else {
            Side::Black
        };
        Some(Piece { side, kind })
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}
