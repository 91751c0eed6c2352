//! Positions: the unvalidated [`Setup`] (what a position string says) and the validated
//! [`Position`] (a state the rules can play from), and the position string of RULES.md §4.

use std::fmt::{self, Write as _};
use std::str::FromStr;

use thiserror::Error;

use super::bitboard::Bitboard;
use super::types::{Color, Piece, Player, Role, Square};

/// What stands on a square.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Cell {
    Empty,
    Covered,
    Revealed(Piece),
}

impl Cell {
    #[inline]
    const fn code(self) -> u8 {
        match self {
            Cell::Empty => 0,
            Cell::Covered => 1,
            Cell::Revealed(p) => 2 + p.index() as u8,
        }
    }

    #[inline]
    const fn from_code(code: u8) -> Cell {
        match code {
            0 => Cell::Empty,
            1 => Cell::Covered,
            c => Cell::Revealed(Piece::from_index(c as usize - 2)),
        }
    }
}

/// The multiset of pieces still face down, counted per kind (index order K…P k…p).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Pool(pub [u8; 14]);

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
    pub fn total_of(&self, color: Color) -> u32 {
        let base = color.index() * 7;
        self.0[base..base + 7].iter().map(|&n| n as u32).sum()
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
}

impl fmt::Display for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.total() == 0 {
            return f.write_char('-');
        }
        for p in Piece::all() {
            let n = self.count(p);
            if n > 0 {
                write!(f, "{}{}", p.char(), n)?;
            }
        }
        Ok(())
    }
}

/// A position as written, not yet checked against the rules.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Setup {
    pub board: [Cell; 32],
    /// `None` before the first flip: player 1 to move, colours not assigned.
    pub turn: Option<Color>,
    pub pool: Pool,
    pub no_progress: u32,
    pub ply: u32,
}

impl Setup {
    /// All 32 pieces face down, nothing played.
    pub fn start() -> Setup {
        Setup {
            board: [Cell::Covered; 32],
            turn: None,
            pool: Pool::FULL,
            no_progress: 0,
            ply: 0,
        }
    }
}

/// Why a position string cannot be read (syntax only).
#[derive(Error, Debug, Clone, PartialEq, Eq)]
pub enum ParseSetupError {
    #[error(
        "a position string has 5 fields separated by single spaces (board, to-move, covered, no-progress, ply); found {0}"
    )]
    FieldCount(usize),
    #[error("the board has 8 ranks separated by '/'; found {0}")]
    RankCount(usize),
    #[error("rank {rank} of the board does not describe exactly 4 squares: {text:?}")]
    RankWidth { rank: u8, text: String },
    #[error(
        "unexpected character {0:?} in the board (pieces KGMRNCP/kgmrncp, X for covered, digits 1–4 for empty squares)"
    )]
    BoardChar(char),
    #[error("to-move must be 'r', 'b' or '-'; found {0:?}")]
    ToMove(String),
    #[error(
        "the covered field must be letter+count pairs in the order KGMRNCPkgmrncp, or '-'; found {0:?}"
    )]
    Covered(String),
    #[error("{field} must be a non-negative integer; found {text:?}")]
    Counter { field: &'static str, text: String },
}

impl FromStr for Setup {
    type Err = ParseSetupError;

    fn from_str(s: &str) -> Result<Setup, ParseSetupError> {
        let fields: Vec<&str> = s.split(' ').collect();
        if fields.len() != 5 {
            return Err(ParseSetupError::FieldCount(fields.len()));
        }
        let board = parse_board(fields[0])?;
        let turn = match fields[1] {
            "r" => Some(Color::Red),
            "b" => Some(Color::Black),
            "-" => None,
            other => return Err(ParseSetupError::ToMove(other.to_owned())),
        };
        let pool = parse_pool(fields[2])?;
        let counter = |field: &'static str, text: &str| {
            if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
                return Err(ParseSetupError::Counter {
                    field,
                    text: text.to_owned(),
                });
            }
            text.parse::<u32>().map_err(|_| ParseSetupError::Counter {
                field,
                text: text.to_owned(),
            })
        };
        Ok(Setup {
            board,
            turn,
            pool,
            no_progress: counter("no-progress", fields[3])?,
            ply: counter("ply", fields[4])?,
        })
    }
}

fn parse_board(text: &str) -> Result<[Cell; 32], ParseSetupError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(ParseSetupError::RankCount(ranks.len()));
    }
    let mut board = [Cell::Empty; 32];
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u8;
        for c in rank_text.chars() {
            let width_error = || ParseSetupError::RankWidth {
                rank: rank + 1,
                text: (*rank_text).to_owned(),
            };
            match c {
                '1'..='4' => {
                    file += c as u8 - b'0';
                    if file > 4 {
                        return Err(width_error());
                    }
                }
                _ => {
                    let cell = if c == 'X' {
                        Cell::Covered
                    } else {
                        Cell::Revealed(Piece::from_char(c).ok_or(ParseSetupError::BoardChar(c))?)
                    };
                    if file >= 4 {
                        return Err(width_error());
                    }
                    board[(rank * 4 + file) as usize] = cell;
                    file += 1;
                }
            }
        }
        if file != 4 {
            return Err(ParseSetupError::RankWidth {
                rank: rank + 1,
                text: (*rank_text).to_owned(),
            });
        }
    }
    Ok(board)
}

fn parse_pool(text: &str) -> Result<Pool, ParseSetupError> {
    let err = || ParseSetupError::Covered(text.to_owned());
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
        pool.0[piece.index()] = n;
    }
    if pool.total() == 0 {
        return Err(err());
    }
    Ok(pool)
}

fn write_board(f: &mut fmt::Formatter<'_>, cell: impl Fn(usize) -> Cell) -> fmt::Result {
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..4 {
            match cell(rank * 4 + file) {
                Cell::Empty => empty += 1,
                c => {
                    if empty > 0 {
                        write!(f, "{empty}")?;
                        empty = 0;
                    }
                    f.write_char(match c {
                        Cell::Covered => 'X',
                        Cell::Revealed(p) => p.char(),
                        Cell::Empty => unreachable!(),
                    })?;
                }
            }
        }
        if empty > 0 {
            write!(f, "{empty}")?;
        }
        if rank > 0 {
            f.write_char('/')?;
        }
    }
    Ok(())
}

fn write_fields(
    f: &mut fmt::Formatter<'_>,
    turn: Option<Color>,
    pool: &Pool,
    np: u32,
    ply: u32,
) -> fmt::Result {
    let turn = turn.map_or('-', Color::char);
    write!(f, " {turn} {pool} {np} {ply}")
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_board(f, |i| self.board[i])?;
        write_fields(f, self.turn, &self.pool, self.no_progress, self.ply)
    }
}

/// Why a well-formed setup is not a position the rules can play from.
#[derive(Error, Debug, Clone, PartialEq, Eq)]
pub enum PositionError {
    #[error("{board} covered squares on the board but {pool} pieces in the covered pool")]
    CoveredMismatch { board: u32, pool: u32 },
    #[error("too many {piece}: {count} on the board and in the pool, at most {max}")]
    TooMany { piece: char, count: u32, max: u8 },
    #[error(
        "to-move is '-' (before the first flip) but the board has revealed pieces or plies were played"
    )]
    UnassignedColours,
    #[error("no-progress ({no_progress}) exceeds the ply count ({ply})")]
    Counters { no_progress: u32, ply: u32 },
}

/// A Banqi position the rules can play from: the board, the covered pool, the side to move,
/// the no-progress counter and the ply count. Copy it freely: it is about 100 bytes.
///
/// What depends on the history (repetition, long chase) lives in [`super::Game`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    pub(crate) cells: [u8; 32],
    pub(crate) covered: Bitboard,
    pub(crate) revealed: [Bitboard; 2],
    pub(crate) pool: Pool,
    pub(crate) turn: Option<Color>,
    pub(crate) no_progress: u32,
    pub(crate) ply: u32,
}

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}

impl Position {
    /// The start: 32 covered pieces, player 1 to move, colours unassigned.
    pub fn start() -> Position {
        Position {
            cells: [1; 32],
            covered: Bitboard::FULL,
            revealed: [Bitboard::EMPTY; 2],
            pool: Pool::FULL,
            turn: None,
            no_progress: 0,
            ply: 0,
        }
    }

    pub fn from_setup(setup: &Setup) -> Result<Position, PositionError> {
        let mut pos = Position {
            cells: [0; 32],
            covered: Bitboard::EMPTY,
            revealed: [Bitboard::EMPTY; 2],
            pool: setup.pool,
            turn: setup.turn,
            no_progress: setup.no_progress,
            ply: setup.ply,
        };
        for sq in Square::all() {
            pos.put(sq, setup.board[sq.index()]);
        }
        let (board, pool) = (pos.covered.count(), pos.pool.total());
        if board != pool {
            return Err(PositionError::CoveredMismatch { board, pool });
        }
        for piece in Piece::all() {
            let count = pos.in_game(piece);
            if count > piece.role.count() as u32 {
                return Err(PositionError::TooMany {
                    piece: piece.char(),
                    count,
                    max: piece.role.count(),
                });
            }
        }
        if pos.turn.is_none() && (pos.revealed_all().count() > 0 || pos.ply > 0) {
            return Err(PositionError::UnassignedColours);
        }
        if pos.no_progress > pos.ply {
            return Err(PositionError::Counters {
                no_progress: pos.no_progress,
                ply: pos.ply,
            });
        }
        Ok(pos)
    }

    pub fn to_setup(&self) -> Setup {
        let mut board = [Cell::Empty; 32];
        for sq in Square::all() {
            board[sq.index()] = self.cell(sq);
        }
        Setup {
            board,
            turn: self.turn,
            pool: self.pool,
            no_progress: self.no_progress,
            ply: self.ply,
        }
    }

    #[inline]
    pub fn cell(&self, sq: Square) -> Cell {
        Cell::from_code(self.cells[sq.index()])
    }

    /// The revealed piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        match self.cells[sq.index()] {
            c @ 2.. => Some(Piece::from_index(c as usize - 2)),
            _ => None,
        }
    }

    #[inline]
    pub fn covered(&self) -> Bitboard {
        self.covered
    }

    /// The revealed pieces of one colour.
    #[inline]
    pub fn revealed(&self, color: Color) -> Bitboard {
        self.revealed[color.index()]
    }

    #[inline]
    pub fn revealed_all(&self) -> Bitboard {
        self.revealed[0] | self.revealed[1]
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.covered | self.revealed[0] | self.revealed[1]
    }

    #[inline]
    pub fn pool(&self) -> &Pool {
        &self.pool
    }

    /// The colour to move; `None` before the first flip.
    #[inline]
    pub fn turn(&self) -> Option<Color> {
        self.turn
    }

    #[inline]
    pub fn player_to_move(&self) -> Player {
        Player::at_ply(self.ply)
    }

    /// The colour a player plays, once colours are assigned.
    pub fn color_of(&self, player: Player) -> Option<Color> {
        let turn = self.turn?;
        Some(if player == self.player_to_move() {
            turn
        } else {
            turn.other()
        })
    }

    /// The player who plays `color`, once colours are assigned.
    pub fn player_of(&self, color: Color) -> Option<Player> {
        let turn = self.turn?;
        let mover = self.player_to_move();
        Some(if color == turn { mover } else { mover.other() })
    }

    /// Plies since the last flip or capture.
    #[inline]
    pub fn no_progress(&self) -> u32 {
        self.no_progress
    }

    /// Plies played so far.
    #[inline]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// How many of `piece` are still in the game, revealed or covered.
    pub fn in_game(&self, piece: Piece) -> u32 {
        let revealed = self
            .revealed(piece.color)
            .filter(|&s| self.piece_at(s) == Some(piece))
            .count() as u32;
        revealed + self.pool.count(piece) as u32
    }

    /// Pieces of `color` still in the game, revealed or covered.
    #[inline]
    pub fn alive(&self, color: Color) -> u32 {
        self.revealed[color.index()].count() + self.pool.total_of(color)
    }

    /// A 64-bit hash of what the position-repetition rule compares: board, covered pool and
    /// side to move (not the counters).
    pub fn repetition_key(&self) -> u64 {
        let mut h = ZOBRIST_TURN[self.turn.map_or(2, Color::index)];
        for (i, &c) in self.cells.iter().enumerate() {
            h ^= zobrist(i * 16 + c as usize);
        }
        for (i, &n) in self.pool.0.iter().enumerate() {
            h ^= zobrist(512 + i * 8 + n as usize);
        }
        h
    }

    #[inline]
    pub(crate) fn put(&mut self, sq: Square, cell: Cell) {
        self.remove(sq);
        self.cells[sq.index()] = cell.code();
        match cell {
            Cell::Empty => {}
            Cell::Covered => self.covered.set(sq),
            Cell::Revealed(p) => self.revealed[p.color.index()].set(sq),
        }
    }

    #[inline]
    pub(crate) fn put_piece(&mut self, sq: Square, piece: Piece) {
        self.cells[sq.index()] = 2 + piece.index() as u8;
        self.covered.clear(sq);
        self.revealed[piece.color.other().index()].clear(sq);
        self.revealed[piece.color.index()].set(sq);
    }

    #[inline]
    pub(crate) fn remove(&mut self, sq: Square) {
        self.cells[sq.index()] = 0;
        self.covered.clear(sq);
        self.revealed[0].clear(sq);
        self.revealed[1].clear(sq);
    }
}

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

#[inline]
const fn zobrist(i: usize) -> u64 {
    splitmix(i as u64 + 1)
}

const ZOBRIST_TURN: [u64; 3] = [splitmix(10_001), splitmix(10_002), 0];

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_board(f, |i| Cell::from_code(self.cells[i]))?;
        write_fields(f, self.turn, &self.pool, self.no_progress, self.ply)
    }
}

/// Reading a position string: a syntax error or a position the rules reject.
#[derive(Error, Debug, Clone, PartialEq, Eq)]
pub enum ParsePositionError {
    #[error(transparent)]
    Syntax(#[from] ParseSetupError),
    #[error(transparent)]
    Invalid(#[from] PositionError),
}

impl FromStr for Position {
    type Err = ParsePositionError;
    fn from_str(s: &str) -> Result<Position, ParsePositionError> {
        Ok(Position::from_setup(&s.parse::<Setup>()?)?)
    }
}

/// The hidden truth of a dealt game: the piece under each square (a1 b1 … d8).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Layout(pub [Piece; 32]);

#[derive(Error, Debug, Clone, PartialEq, Eq)]
pub enum ParseLayoutError {
    #[error("a layout is 32 piece letters (a1 b1 … d8); found {0} characters")]
    Length(usize),
    #[error("invalid piece letter {0:?} in the layout")]
    Letter(char),
    #[error("the layout does not hold the 32 pieces of a set: {0} count is wrong")]
    Count(char),
}

impl Layout {
    #[inline]
    pub fn piece(&self, sq: Square) -> Piece {
        self.0[sq.index()]
    }

    /// A uniformly shuffled full set.
    pub fn shuffled<R: rand::RngExt + ?Sized>(rng: &mut R) -> Layout {
        let mut pieces = [Piece::new(Color::Red, Role::General); 32];
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
        Layout(pieces)
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|p| f.write_char(p.char()))
    }
}

impl Layout {
    /// Whether the layout can be the truth under `pos`'s covered squares: the pieces it puts
    /// there are exactly the covered pool. Otherwise, the first square where it cannot.
    pub fn fits(&self, pos: &Position) -> Result<(), LayoutMismatch> {
        let mut pool = *pos.pool();
        for square in pos.covered() {
            let piece = self.piece(square);
            if !pool.take(piece) {
                return Err(LayoutMismatch { square, piece });
            }
        }
        Ok(())
    }
}

/// Where a layout contradicts a position.
#[derive(Error, Debug, Clone, Copy, PartialEq, Eq)]
#[error("the layout puts {piece} on {square}, but the position has no such covered piece left")]
pub struct LayoutMismatch {
    pub square: Square,
    pub piece: Piece,
}

impl FromStr for Layout {
    type Err = ParseLayoutError;
    fn from_str(s: &str) -> Result<Layout, ParseLayoutError> {
        let chars: Vec<char> = s.chars().collect();
        if chars.len() != 32 {
            return Err(ParseLayoutError::Length(chars.len()));
        }
        let mut pieces = [Piece::new(Color::Red, Role::General); 32];
        let mut counts = Pool::default();
        for (i, &c) in chars.iter().enumerate() {
            let p = Piece::from_char(c).ok_or(ParseLayoutError::Letter(c))?;
            pieces[i] = p;
            counts.0[p.index()] += 1;
        }
        if let Some(p) = Piece::all().find(|p| counts.count(*p) != p.role.count()) {
            return Err(ParseLayoutError::Count(p.char()));
        }
        Ok(Layout(pieces))
    }
}

impl serde::Serialize for Layout {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Layout {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Layout, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// In OpenAPI a layout is its 32-letter string.
#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for Layout {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        ObjectBuilder::new()
            .schema_type(Type::String)
            .pattern(Some("^[KGMRNCPkgmrncp]{32}$"))
            .description(Some(
                "The piece under every square in the order a1 b1 c1 d1 a2 … d8 (TCGA letters: \
                 upper case red, lower case black).",
            ))
            .examples(["PppcPmGrpRpCrmGpgMPRNPKnCcgnPNkM"])
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for Layout {}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str =
        "XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - K1G2M2R2N2C2P5k1g2m2r2n2c2p5 0 0";

    #[test]
    fn start_round_trips() {
        assert_eq!(Position::start().to_string(), START);
        assert_eq!(START.parse::<Position>().unwrap(), Position::start());
        assert_eq!(Setup::start().to_string(), START);
    }

    #[test]
    fn a_midgame_position_round_trips() {
        let s = "4/1k2/X1X1/4/2P1/3X/4/K3 b M1p2 7 40";
        let pos: Position = s.parse().unwrap();
        assert_eq!(pos.to_string(), s);
        assert_eq!(
            pos.piece_at("b7".parse().unwrap()),
            Some(Piece::from_char('k').unwrap())
        );
        assert_eq!(pos.turn(), Some(Color::Black));
        assert_eq!(pos.player_to_move(), Player::One);
        assert_eq!(pos.color_of(Player::Two), Some(Color::Red));
        assert_eq!(pos.alive(Color::Red), 3);
        assert_eq!(pos.alive(Color::Black), 3);
    }

    #[test]
    fn syntax_errors_are_typed() {
        use ParseSetupError::*;
        let e = |s: &str| s.parse::<Setup>().unwrap_err();
        assert_eq!(e("XXXX"), FieldCount(1));
        assert_eq!(e("XXXX/XXXX - - 0 0"), RankCount(2));
        assert!(matches!(
            e("XXXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - - 0 0"),
            RankWidth { rank: 8, .. }
        ));
        assert!(matches!(
            e("XX1/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - - 0 0"),
            RankWidth { rank: 8, .. }
        ));
        assert_eq!(
            e("XXXQ/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - - 0 0"),
            BoardChar('Q')
        );
        assert!(matches!(e("4/4/4/4/4/4/4/K3 x - 0 0"), ToMove(_)));
        assert!(matches!(e("4/4/4/4/4/4/4/K3 r k1K1 0 0"), Covered(_)));
        assert!(matches!(e("4/4/4/4/4/4/4/K3 r K0 0 0"), Covered(_)));
        assert!(matches!(e("4/4/4/4/4/4/4/K3 r - -1 0"), Counter { .. }));
    }

    #[test]
    fn legality_errors_are_typed() {
        let e = |s: &str| match s.parse::<Position>() {
            Err(ParsePositionError::Invalid(e)) => e,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            e("X3/4/4/4/4/4/4/4 r - 0 0"),
            PositionError::CoveredMismatch { board: 1, pool: 0 }
        );
        assert!(matches!(
            e("KK2/4/4/4/4/4/4/4 r - 0 0"),
            PositionError::TooMany { piece: 'K', .. }
        ));
        assert!(matches!(
            e("XK2/4/4/4/4/4/4/4 r K1 0 0"),
            PositionError::TooMany { piece: 'K', .. }
        ));
        assert_eq!(
            e("K3/4/4/4/4/4/4/4 - - 0 0"),
            PositionError::UnassignedColours
        );
        assert!(matches!(
            e("K3/4/4/4/4/4/4/4 r - 5 4"),
            PositionError::Counters { .. }
        ));
    }

    #[test]
    fn layouts() {
        let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(7);
        let layout = Layout::shuffled(&mut rng);
        assert_eq!(layout.to_string().parse::<Layout>().unwrap(), layout);
        assert_eq!("K".parse::<Layout>(), Err(ParseLayoutError::Length(1)));
        let bad = "GGGMMRRNNCCPPPPPkggmmrrnnccppppp";
        assert_eq!(bad.parse::<Layout>(), Err(ParseLayoutError::Count('K')));
    }
}
