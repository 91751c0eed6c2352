//! A xiangqi position (RULES.md §9): the pieces, the side to move and the counters, read from
//! and written as FEN (xqbase: `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`).

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::board::{Bitboard, FILES, RANKS, Square};
use super::pieces::{Kind, Piece, Side};

/// The start position's FEN.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// A position: copy it freely (about 240 bytes).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    pub(crate) board: [Option<Piece>; Square::COUNT],
    pub(crate) occupied: [Bitboard; 2],
    pub(crate) generals: [Option<Square>; 2],
    pub(crate) turn: Side,
    /// Plies since the last capture.
    pub(crate) no_capture: u16,
    pub(crate) ply: u32,
}

#[derive(Error, Debug, Clone, PartialEq, Eq)]
pub enum ParseFenError {
    #[error(
        "a FEN has the board and the side to move, then optionally `- -`, the no-capture count and the move number: {0:?}"
    )]
    Fields(String),
    #[error("the board has 10 ranks separated by '/'; found {0}")]
    Ranks(usize),
    #[error("rank {rank} does not describe 9 points: {detail}")]
    Rank { rank: u8, detail: String },
    #[error("the side to move is w (or r) for red, b for black: {0:?}")]
    Side(String),
    #[error("invalid counter {0:?}")]
    Counter(String),
    #[error("{0}")]
    Illegal(String),
}

impl Position {
    pub fn start() -> Position {
        START_FEN.parse().expect("the start FEN parses")
    }

    pub(crate) fn empty(turn: Side) -> Position {
        Position {
            board: [None; Square::COUNT],
            occupied: [Bitboard::EMPTY; 2],
            generals: [None; 2],
            turn,
            no_capture: 0,
            ply: 0,
        }
    }

    #[inline]
    pub fn piece(&self, s: Square) -> Option<Piece> {
        self.board[s.index()]
    }

    #[inline]
    pub fn turn(&self) -> Side {
        self.turn
    }

    #[inline]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    #[inline]
    pub fn no_capture(&self) -> u16 {
        self.no_capture
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.occupied[0] | self.occupied[1]
    }

    #[inline]
    pub fn side_pieces(&self, side: Side) -> Bitboard {
        self.occupied[side.index()]
    }

    #[inline]
    pub fn general(&self, side: Side) -> Option<Square> {
        self.generals[side.index()]
    }

    #[inline]
    pub(crate) fn put(&mut self, s: Square, piece: Piece) {
        self.board[s.index()] = Some(piece);
        self.occupied[piece.side.index()] = self.occupied[piece.side.index()].with(s);
        if piece.kind == Kind::General {
            self.generals[piece.side.index()] = Some(s);
        }
    }

    #[inline]
    pub(crate) fn take(&mut self, s: Square) -> Option<Piece> {
        let piece = self.board[s.index()].take()?;
        self.occupied[piece.side.index()] = self.occupied[piece.side.index()].without(s);
        if piece.kind == Kind::General && self.generals[piece.side.index()] == Some(s) {
            self.generals[piece.side.index()] = None;
        }
        Some(piece)
    }

    /// The board field of a FEN.
    pub fn board_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..RANKS).rev() {
            let mut empty = 0;
            for file in 0..FILES {
                match self.board[(rank * FILES + file) as usize] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        s.push(p.char());
                    }
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s
    }
}

/// Reads a FEN's board field onto an empty position.
pub(crate) fn parse_board(board: &str, pos: &mut Position) -> Result<(), ParseFenError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != RANKS as usize {
        return Err(ParseFenError::Ranks(ranks.len()));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = RANKS - 1 - i as u8;
        let mut file = 0u8;
        for c in text.chars() {
            if let Some(n) = c.to_digit(10).filter(|n| (1..=9).contains(n)) {
                file += n as u8;
                continue;
            }
            let piece = Piece::from_char(c).ok_or_else(|| ParseFenError::Rank {
                rank,
                detail: format!("unknown piece letter {c:?}"),
            })?;
            if file >= FILES {
                break;
            }
            let s = Square::at(file as i8, rank as i8).expect("on the board");
            if piece.kind == Kind::General && pos.generals[piece.side.index()].is_some() {
                return Err(ParseFenError::Illegal(format!(
                    "two {} generals",
                    piece.side.name()
                )));
            }
            pos.put(s, piece);
            file += 1;
        }
        if file != FILES {
            return Err(ParseFenError::Rank {
                rank,
                detail: format!("{text:?} describes {file} points"),
            });
        }
    }
    Ok(())
}

impl FromStr for Position {
    type Err = ParseFenError;
    fn from_str(s: &str) -> Result<Position, ParseFenError> {
        let fields: Vec<&str> = s.split_whitespace().collect();
        if !(fields.len() == 2 || fields.len() == 4 || fields.len() == 6) {
            return Err(ParseFenError::Fields(s.to_owned()));
        }
        let turn = match fields[1] {
            "w" | "r" => Side::Red,
            "b" => Side::Black,
            other => return Err(ParseFenError::Side(other.to_owned())),
        };
        let mut pos = Position::empty(turn);
        parse_board(fields[0], &mut pos)?;
        if fields.len() == 6 {
            let counter = |t: &str| ParseFenError::Counter(t.to_owned());
            pos.no_capture = fields[4].parse().map_err(|_| counter(fields[4]))?;
            let moves: u32 = fields[5].parse().map_err(|_| counter(fields[5]))?;
            if moves == 0 {
                return Err(counter(fields[5]));
            }
            pos.ply = (moves - 1) * 2 + turn.index() as u32;
        } else {
            pos.ply = turn.index() as u32;
        }
        Ok(pos)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = match self.turn {
            Side::Red => 'w',
            Side::Black => 'b',
        };
        write!(
            f,
            "{} {side} - - {} {}",
            self.board_fen(),
            self.no_capture,
            self.ply / 2 + 1
        )
    }
}
