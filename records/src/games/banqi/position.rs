//! Positions: the validated [`Position`] (a state the rules can play from), the covered
//! [`Pool`] and what stands on a square ([`Cell`]). The position string is read as a
//! [`Setup`] first (syntax), then checked.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::core::{Seat, Turn};

use super::bitboard::Bitboard;
use super::setup::{ParseSetupError, Setup, display, write_text};
use super::types::{Color, Piece, Square};

pub use crate::core::pieces::{Cell, Pool};

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
/// What depends on the history (repetition, long chase) lives in [`super::Match`].
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
            covered: Bitboard::ALL,
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

    /// The colour a player plays, once colours are assigned.
    pub fn color_of(&self, player: Seat) -> Option<Color> {
        let turn = self.turn?;
        Some(if player == self.to_move() {
            turn
        } else {
            turn.other()
        })
    }

    /// The player who plays `color`, once colours are assigned.
    pub fn player_of(&self, color: Color) -> Option<Seat> {
        let turn = self.turn?;
        let mover = self.to_move();
        Some(if color == turn { mover } else { mover.other() })
    }

    /// Plies since the last flip or capture.
    #[inline]
    pub fn no_progress(&self) -> u32 {
        self.no_progress
    }

    /// How many of `piece` are still in the game, revealed or covered.
    pub fn in_game(&self, piece: Piece) -> u32 {
        let revealed = self
            .revealed(piece.side)
            .filter(|&s| self.piece_at(s) == Some(piece))
            .count() as u32;
        revealed + self.pool.count(piece) as u32
    }

    /// How many of each piece are still in the game, revealed or covered (index order).
    pub fn census(&self) -> [u8; 14] {
        let mut counts = *self.pool.counts();
        for sq in self.revealed_all() {
            counts[self.cells[sq.index()] as usize - 2] += 1;
        }
        counts
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
        for (i, &n) in self.pool.counts().iter().enumerate() {
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
            Cell::Covered => self.covered.insert(sq),
            Cell::Revealed(p) => self.revealed[p.side.index()].insert(sq),
        }
    }

    #[inline]
    pub(crate) fn put_piece(&mut self, sq: Square, piece: Piece) {
        self.cells[sq.index()] = 2 + piece.index() as u8;
        self.covered.remove(sq);
        self.revealed[piece.side.other().index()].remove(sq);
        self.revealed[piece.side.index()].insert(sq);
    }

    #[inline]
    pub(crate) fn remove(&mut self, sq: Square) {
        self.cells[sq.index()] = 0;
        self.covered.remove(sq);
        self.revealed[0].remove(sq);
        self.revealed[1].remove(sq);
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

impl Position {
    /// The position's text (as [`Display`](fmt::Display) writes it), appended to `out`.
    pub fn write_text(&self, out: &mut Vec<u8>) {
        write_text(
            out,
            &self.cells,
            self.turn,
            &self.pool,
            self.no_progress,
            self.ply,
        );
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        display(f, |out| self.write_text(out))
    }
}

/// Reading a position string: a syntax error or a position the rules reject.
pub type ParsePositionError = crate::core::ParsePositionError<ParseSetupError, PositionError>;

impl FromStr for Position {
    type Err = ParsePositionError;
    fn from_str(s: &str) -> Result<Position, ParsePositionError> {
        ParsePositionError::parse(s, Position::from_setup)
    }
}

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
        assert_eq!(pos.to_move(), Seat::FIRST);
        assert_eq!(pos.color_of(Seat::SECOND), Some(Color::Red));
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
}

impl Turn for Position {
    #[inline]
    fn to_move(&self) -> Seat {
        Seat::at_ply(self.ply, 2)
    }

    /// Plies played so far.
    #[inline]
    fn ply(&self) -> u32 {
        self.ply
    }
}
