//! The pieces of the xiangqi family as the hidden-piece games with the 32-piece set write them
//! (Banqi, Three Kingdoms Banqi): the seven [`Role`]s, a [`Piece`] (a side and a role) with its
//! TCGA letter, what stands on a square or point ([`Cell`]), and the face-down pieces counted
//! per kind ([`Pool`]). A game adds its own facts about them where it needs them (Banqi: rank
//! order and piece points); xiangqi's pieces carry more (backs, marks) and are its own.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::board::Side;

/// The seven kinds of piece of the xiangqi family, in rank order (General first).
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

    /// How many pieces of this role each colour has.
    pub const fn count(self) -> u8 {
        match self {
            Role::General => 1,
            Role::Soldier => 5,
            _ => 2,
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

/// A piece: a side (Banqi: a colour) and a role.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Piece {
    pub side: Side,
    pub role: Role,
}

impl Piece {
    pub const fn new(side: Side, role: Role) -> Piece {
        Piece { side, role }
    }

    /// 0..14 in the order K G M R N C P k g m r n c p.
    pub const fn index(self) -> usize {
        self.side.index() * 7 + self.role.index()
    }

    /// The 14 pieces in index order: K G M R N C P k g m r n c p.
    pub const ALL: [Piece; 14] = {
        let mut all = [Piece::new(Side::Red, Role::General); 14];
        let mut i = 0;
        while i < 14 {
            let color = if i < 7 { Side::Red } else { Side::Black };
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
        match self.side {
            Side::Red => c,
            Side::Black => c.to_ascii_lowercase(),
        }
    }

    pub const fn from_char(c: char) -> Option<Piece> {
        match Role::from_upper_char(c) {
            Some(role) => Some(Piece {
                side: Side::Red,
                role,
            }),
            None => match Role::from_upper_char(c.to_ascii_uppercase()) {
                Some(role) if c.is_ascii_lowercase() => Some(Piece {
                    side: Side::Black,
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
        match self.side {
            Side::Red => RED[self.role.index()],
            Side::Black => BLACK[self.role.index()],
        }
    }

    /// [`Piece::chinese`] as text.
    pub const fn glyph(self) -> &'static str {
        const RED: [&str; 7] = ["帥", "仕", "相", "俥", "傌", "炮", "兵"];
        const BLACK: [&str; 7] = ["將", "士", "象", "車", "馬", "包", "卒"];
        match self.side {
            Side::Red => RED[self.role.index()],
            Side::Black => BLACK[self.role.index()],
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

/// What stands on a square or point.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Cell {
    Empty,
    Covered,
    Revealed(Piece),
}

impl Cell {
    /// The cell as a seat's view draws it: a piece letter, `X` covered, `-` empty.
    pub fn letter(self) -> char {
        match self {
            Cell::Empty => '-',
            Cell::Covered => 'X',
            Cell::Revealed(p) => p.char(),
        }
    }

    /// A board of `files` × `ranks` as a seat's view draws it: the last rank first, each rank
    /// from the first file, a [`Cell::letter`] per place (`cell(index)`, indices rank by rank).
    pub fn rows(files: u8, ranks: u8, cell: impl Fn(u8) -> Cell) -> Vec<String> {
        (0..ranks)
            .rev()
            .map(|rank| {
                (0..files)
                    .map(|file| cell(rank * files + file).letter())
                    .collect()
            })
            .collect()
    }

    /// The letter of each [`Cell::code`] (0 for an empty place, which a board text counts).
    pub(crate) const CODE_LETTERS: [u8; 16] = {
        let mut letters = [0u8; 16];
        letters[1] = b'X';
        let mut i = 0;
        while i < 14 {
            letters[2 + i] = Piece::from_index(i).char() as u8;
            i += 1;
        }
        letters
    };

    #[inline]
    pub(crate) const fn code(self) -> u8 {
        match self {
            Cell::Empty => 0,
            Cell::Covered => 1,
            Cell::Revealed(p) => 2 + p.index() as u8,
        }
    }

    #[inline]
    pub(crate) const fn from_code(code: u8) -> Cell {
        match code {
            0 => Cell::Empty,
            1 => Cell::Covered,
            c => Cell::Revealed(Piece::from_index(c as usize - 2)),
        }
    }
}

/// The multiset of pieces still face down, counted per kind (index order K…P k…p).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Pool([u8; 14]);

impl Pool {
    /// All 32 pieces.
    pub const FULL: Pool = Pool([1, 2, 2, 2, 2, 2, 5, 1, 2, 2, 2, 2, 2, 5]);

    /// The pieces as TCGA letters in index order (K G M R N C P k g m r n c p), each
    /// repeated by its count: `"GGRRP"`.
    pub fn letters(&self) -> String {
        Piece::all()
            .flat_map(|p| std::iter::repeat_n(p.char(), self.count(p) as usize))
            .collect()
    }

    #[inline]
    pub fn count(&self, piece: Piece) -> u8 {
        self.0[piece.index()]
    }

    pub fn total(&self) -> u32 {
        self.0.iter().map(|&n| n as u32).sum()
    }

    #[inline]
    pub fn total_of(&self, color: Side) -> u32 {
        let base = color.index() * 7;
        self.0[base..base + 7].iter().map(|&n| n as u32).sum()
    }

    /// A pool of these counts per kind (index order K…P k…p).
    pub const fn from_counts(counts: [u8; 14]) -> Pool {
        Pool(counts)
    }

    /// Take out one piece known to be there: the playouts' fast path.
    #[inline]
    pub(crate) fn decrement(&mut self, piece: Piece) {
        self.0[piece.index()] -= 1;
    }

    /// Put one piece in.
    #[inline]
    pub fn add(&mut self, piece: Piece) {
        self.0[piece.index()] += 1;
    }

    /// Set the count of one kind.
    #[inline]
    pub(crate) fn set(&mut self, piece: Piece, count: u8) {
        self.0[piece.index()] = count;
    }

    /// The counts in index order (K…P k…p).
    #[inline]
    pub fn counts(&self) -> &[u8; 14] {
        &self.0
    }

    /// Take one piece out; false (and nothing changes) when none is left.
    #[inline]
    pub fn take(&mut self, piece: Piece) -> bool {
        let n = &mut self.0[piece.index()];
        if *n == 0 {
            return false;
        }
        *n -= 1;
        true
    }

    /// The `k`-th covered piece (0-based) in index order: uniform sampling from the pool.
    pub fn nth(&self, mut k: u32) -> Option<Piece> {
        for (i, &n) in self.0.iter().enumerate() {
            if k < n as u32 {
                return Some(Piece::from_index(i));
            }
            k -= n as u32;
        }
        None
    }

    /// The pool's text (as [`Display`](fmt::Display) writes it), appended to `out`: the
    /// explorer writes a pool for every ply it walks, without a formatter.
    pub fn write_text(&self, out: &mut Vec<u8>) {
        // Into an array, extended once (a push per byte was most of it).
        let mut text = [0u8; 14 * 4];
        let mut len = 0;
        for (index, &n) in self.0.iter().enumerate() {
            if n == 0 {
                continue;
            }
            text[len] = Cell::CODE_LETTERS[2 + index];
            len += 1;
            if n < 10 {
                // Nearly every count: one digit.
                text[len] = b'0' + n;
                len += 1;
            } else {
                for digit in itoa::Buffer::new().format(n).bytes() {
                    text[len] = digit;
                    len += 1;
                }
            }
        }
        if len == 0 {
            out.push(b'-');
        } else {
            out.extend_from_slice(&text[..len]);
        }
    }
}

impl fmt::Display for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = Vec::with_capacity(14 * 3);
        self.write_text(&mut text);
        f.write_str(std::str::from_utf8(&text).expect("ASCII"))
    }
}

/// The OpenAPI schema of a layout written as 32 TCGA letters, one per start square or point.
#[cfg(feature = "openapi")]
pub fn layout_schema(
    order: &str,
    example: &str,
) -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some("^[KGMRNCPkgmrncp]{32}$"))
        .description(Some(format!(
            "The piece under every start {order} (TCGA letters: upper case red, lower case black)."
        )))
        .examples([example.to_owned()])
        .into()
}

/// The 32 pieces of a set (both sides), uniformly shuffled: a deal.
pub fn shuffled_set<R: rand::RngExt + ?Sized>(rng: &mut R) -> [Piece; 32] {
    let mut pieces = [Piece::new(Side::Red, Role::General); 32];
    let mut i = 0;
    for p in Piece::all() {
        for _ in 0..p.role.count() {
            pieces[i] = p;
            i += 1;
        }
    }
    // Fisher–Yates.
    for i in (1..32).rev() {
        let j = rng.random_range(0..=i);
        pieces.swap(i, j);
    }
    pieces
}

#[derive(Error, Debug, Clone, PartialEq, Eq)]
#[error(
    "invalid covered pieces {0:?}: expected TCGA letters with counts in the order K G M R N C P k g m r n c p (K1G2…), or -"
)]
pub struct ParsePoolError(pub String);

impl FromStr for Pool {
    type Err = ParsePoolError;
    /// Reads a pool as position strings write it: `K1G2…p5`, kinds in index order with
    /// non-zero counts, or `-` for none.
    fn from_str(text: &str) -> Result<Pool, ParsePoolError> {
        let err = || ParsePoolError(text.to_owned());
        let mut pool = Pool::default();
        if text == "-" {
            return Ok(pool);
        }
        let bytes = text.as_bytes();
        let mut i = 0;
        let mut last_index: Option<usize> = None;
        while i < bytes.len() {
            let piece = Piece::from_char(bytes[i] as char).ok_or_else(err)?;
            i += 1;
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let n: u8 = text[start..i].parse().map_err(|_| err())?;
            // Kinds appear once each, in index order, with non-zero counts.
            if n == 0 || last_index.is_some_and(|l| l >= piece.index()) {
                return Err(err());
            }
            last_index = Some(piece.index());
            pool.set(piece, n);
        }
        if pool.total() == 0 {
            return Err(err());
        }
        Ok(pool)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let set: u8 = Role::ALL.iter().map(|r| r.count()).sum();
        assert_eq!(set, 16);
    }

    #[test]
    fn pools_round_trip() {
        assert_eq!(Pool::FULL.to_string(), "K1G2M2R2N2C2P5k1g2m2r2n2c2p5");
        assert_eq!("K1G2M2R2N2C2P5k1g2m2r2n2c2p5".parse(), Ok(Pool::FULL));
        assert_eq!("-".parse(), Ok(Pool::default()));
        for bad in ["G2K1", "K0", "K", "X1", ""] {
            assert!(bad.parse::<Pool>().is_err(), "{bad}");
        }
    }
}
