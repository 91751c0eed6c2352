//! Xiangqi pieces (RULES.md §9): sides and kinds, FEN letters as xqbase writes them (WXF's
//! `E` for the elephant and `H` for the horse are read too).

use std::fmt;

pub use crate::core::Side;

/// +1 for red (forward is up the ranks), −1 for black.
#[inline]
pub const fn forward(side: Side) -> i8 {
    match side {
        Side::Red => 1,
        Side::Black => -1,
    }
}

/// How a piece moves: xiangqi's seven kinds, and the second identities of RULES.md §9.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Kind {
    General,
    Advisor,
    Elephant,
    Chariot,
    Horse,
    Cannon,
    Soldier,
    /// 臣: one step diagonally; never captures, never checks.
    Minister,
    /// 駝: leaps (2,3), blocked on the diagonal point next to it.
    Camel,
    /// 騾: leaps (1,3), blocked like a horse.
    Mule,
    /// 助: one or two points diagonally, not jumping.
    Zhu,
    /// 輔: a chariot along ranks, a cannon along files.
    Fu,
    /// 妃: a chess knight's move; captures by jumping one knight step over a piece.
    Fei,
    /// 骉: the rule of the piece the opponent moved last.
    Biao,
    /// 抛: moves like a cannon; captures diagonally over an adjacent screen.
    Pao,
    /// 石: moves like a cannon; captures over exactly one empty point.
    Shi,
}

impl Kind {
    pub const ALL: [Kind; 16] = [
        Kind::General,
        Kind::Advisor,
        Kind::Elephant,
        Kind::Chariot,
        Kind::Horse,
        Kind::Cannon,
        Kind::Soldier,
        Kind::Minister,
        Kind::Camel,
        Kind::Mule,
        Kind::Zhu,
        Kind::Fu,
        Kind::Fei,
        Kind::Biao,
        Kind::Pao,
        Kind::Shi,
    ];

    /// The letter (red's, upper case): FEN's for xiangqi's kinds, docs/notation.md's for the
    /// others.
    pub const fn letter(self) -> char {
        match self {
            Kind::General => 'K',
            Kind::Advisor => 'A',
            Kind::Elephant => 'B',
            Kind::Chariot => 'R',
            Kind::Horse => 'N',
            Kind::Cannon => 'C',
            Kind::Soldier => 'P',
            Kind::Minister => 'M',
            Kind::Camel => 'T',
            Kind::Mule => 'L',
            Kind::Zhu => 'Z',
            Kind::Fu => 'F',
            Kind::Fei => 'Q',
            Kind::Biao => 'X',
            Kind::Pao => 'O',
            Kind::Shi => 'S',
        }
    }

    /// A letter, either case (WXF's `E` elephant and `H` horse too).
    pub fn from_letter(c: char) -> Option<Kind> {
        let c = c.to_ascii_uppercase();
        match c {
            'E' => return Some(Kind::Elephant),
            'H' => return Some(Kind::Horse),
            _ => {}
        }
        Kind::ALL.into_iter().find(|k| k.letter() == c)
    }

    /// Whether a soldier whose back is this kind flips to effect on `file` (RULES.md §9): 車
    /// a/i, 馬 b/h, 相 c/g, 仕 d/f, 炮 e.
    pub const fn soldier_flip_takes_effect_on(self, file: u8) -> bool {
        match self {
            Kind::Chariot => file == 0 || file == 8,
            Kind::Horse => file == 1 || file == 7,
            Kind::Elephant => file == 2 || file == 6,
            Kind::Advisor => file == 3 || file == 5,
            Kind::Cannon => file == 4,
            _ => false,
        }
    }

    /// Xiangqi's own kinds (not a second identity).
    pub const fn is_plain(self) -> bool {
        (self as u8) < 7
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
            (Kind::Minister, _) => "臣",
            (Kind::Camel, _) => "駝",
            (Kind::Mule, _) => "騾",
            (Kind::Zhu, _) => "助",
            (Kind::Fu, _) => "輔",
            (Kind::Fei, _) => "妃",
            (Kind::Biao, _) => "骉",
            (Kind::Pao, _) => "抛",
            (Kind::Shi, _) => "石",
        }
    }

    /// The English name, as reports write it.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::General => "general",
            Kind::Advisor => "advisor",
            Kind::Elephant => "elephant",
            Kind::Chariot => "chariot",
            Kind::Horse => "horse",
            Kind::Cannon => "cannon",
            Kind::Soldier => "soldier",
            Kind::Minister => "minister",
            Kind::Camel => "camel",
            Kind::Mule => "mule",
            Kind::Zhu => "zhu",
            Kind::Fu => "fu",
            Kind::Fei => "fei",
            Kind::Biao => "biao",
            Kind::Pao => "pao",
            Kind::Shi => "shi",
        }
    }
}

/// What a piece has on its back.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Back {
    /// No second identity (any more): it was used, or the game has none.
    None,
    /// One, not known to whoever holds this position.
    Unknown,
    Known(Kind),
}

/// A piece on the board: its side, its face, its back, and what §9's flips left on it.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    pub side: Side,
    pub kind: Kind,
    pub back: Back,
    /// Born a soldier (番兵): an effective flip made it what it is (bounds and counts differ).
    pub soldier_born: bool,
    /// A soldier-born advisor flipped under `soldier_flip_anywhere`: it roams the enemy half
    /// (else it keeps to the enemy palace).
    pub roams: bool,
    /// A soldier flipped on a wrong point: its back shows, it may not move, and its owner must
    /// flip it back next.
    pub pending: bool,
    /// Its back is known to both sides (shown by a wrong flip).
    pub back_public: bool,
}

impl Piece {
    /// A piece of xiangqi: no back, no marks.
    pub const fn new(side: Side, kind: Kind) -> Piece {
        Piece {
            side,
            kind,
            back: Back::None,
            soldier_born: false,
            roams: false,
            pending: false,
            back_public: false,
        }
    }

    /// The face's letter in the side's case.
    pub const fn char(self) -> char {
        side_case(self.kind.letter(), self.side)
    }

    pub fn from_char(c: char) -> Option<Piece> {
        let kind = Kind::from_letter(c)?;
        let side = if c.is_ascii_uppercase() {
            Side::Red
        } else {
            Side::Black
        };
        Some(Piece::new(side, kind))
    }
}

/// `c` (upper case) in `side`'s case.
pub const fn side_case(c: char, side: Side) -> char {
    match side {
        Side::Red => c,
        Side::Black => c.to_ascii_lowercase(),
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A point of the board: a [`Piece`] packed into 16 bits, or nothing. The board is copied
/// whenever a position is (search, legality tests): packed it is 180 bytes, not 630.
///
/// Bits 0–3 the kind, 4 the side, 5–9 the back (0 none, 1 unknown, 2 + kind known), 10–13 the
/// marks (soldier-born, roams, pending, back public), 15 set when a piece stands there.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub(crate) struct Slot(u16);

impl Slot {
    pub(crate) const EMPTY: Slot = Slot(0);
    const PRESENT: u16 = 1 << 15;

    #[inline]
    pub(crate) const fn of(piece: Piece) -> Slot {
        let back = match piece.back {
            Back::None => 0,
            Back::Unknown => 1,
            Back::Known(k) => 2 + k as u16,
        };
        Slot(
            Slot::PRESENT
                | piece.kind as u16
                | (piece.side as u16) << 4
                | back << 5
                | (piece.soldier_born as u16) << 10
                | (piece.roams as u16) << 11
                | (piece.pending as u16) << 12
                | (piece.back_public as u16) << 13,
        )
    }

    /// The packed bits (what the repetition key mixes).
    #[inline]
    pub(crate) const fn bits(self) -> u16 {
        self.0
    }

    /// Whether the piece was born a soldier.
    #[inline]
    pub(crate) const fn soldier_born(self) -> bool {
        self.0 & 1 << 10 != 0
    }

    /// Whether a soldier-born advisor roams the enemy half.
    #[inline]
    pub(crate) const fn roams(self) -> bool {
        self.0 & 1 << 11 != 0
    }

    /// Whether the piece shows its back after a wrong flip (it must flip back).
    #[inline]
    pub(crate) const fn pending(self) -> bool {
        self.0 & 1 << 12 != 0
    }

    /// Whether the piece has a back (known or not): whether it may ever flip.
    #[inline]
    pub(crate) const fn has_back(self) -> bool {
        self.0 & 31 << 5 != 0
    }

    /// Whether the piece's back is known to be `kind`.
    #[inline]
    pub(crate) const fn back_is(self, kind: Kind) -> bool {
        (self.0 >> 5) & 31 == 2 + kind as u16
    }

    /// Whether the reverse lookup of xiangqi's kinds misses this piece's attacks: a second
    /// identity, or a soldier-born advisor or elephant (other bounds).
    #[inline]
    pub(crate) const fn is_exotic(self) -> bool {
        !self.kind().is_plain()
            || (self.soldier_born() && matches!(self.kind(), Kind::Advisor | Kind::Elephant))
    }

    #[inline]
    pub(crate) const fn is_empty(self) -> bool {
        self.0 & Slot::PRESENT == 0
    }

    /// The piece's kind (meaningless on an empty point).
    #[inline]
    pub(crate) const fn kind(self) -> Kind {
        Kind::ALL[(self.0 & 15) as usize]
    }

    /// The piece's side (meaningless on an empty point).
    #[inline]
    pub(crate) const fn side(self) -> Side {
        if self.0 & 1 << 4 == 0 {
            Side::Red
        } else {
            Side::Black
        }
    }

    /// Whether a piece of `kind` stands here.
    #[inline]
    pub(crate) const fn is_kind(self, kind: Kind) -> bool {
        self.0 & (Slot::PRESENT | 15) == Slot::PRESENT | kind as u16
    }

    /// Whether a piece of `side` and `kind` stands here, free to act (not shown pending).
    #[inline]
    pub(crate) const fn is_active(self, side: Side, kind: Kind) -> bool {
        const MASK: u16 = Slot::PRESENT | 0x1f | 1 << 12;
        self.0 & MASK == Slot::PRESENT | kind as u16 | (side as u16) << 4
    }

    #[inline]
    pub(crate) const fn get(self) -> Option<Piece> {
        if self.is_empty() {
            return None;
        }
        let back = match (self.0 >> 5) & 31 {
            0 => Back::None,
            1 => Back::Unknown,
            k => Back::Known(Kind::ALL[(k - 2) as usize & 15]),
        };
        Some(Piece {
            side: self.side(),
            kind: self.kind(),
            back,
            soldier_born: self.0 & 1 << 10 != 0,
            roams: self.0 & 1 << 11 != 0,
            pending: self.0 & 1 << 12 != 0,
            back_public: self.0 & 1 << 13 != 0,
        })
    }
}
