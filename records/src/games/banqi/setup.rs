//! The position string of RULES.md §4 as written: [`Setup`], its syntax errors, and the
//! printing both it and [`Position`] share.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::position::{Cell, Pool};
use super::types::{Color, Piece};

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

pub(crate) fn parse_pool(text: &str) -> Result<Pool, ParseSetupError> {
    text.parse()
        .map_err(|_| ParseSetupError::Covered(text.to_owned()))
}

/// A position's text (the board, the side to move, the covered pool, the plies without
/// progress and the plies played), appended to `out`: one writer for [`Setup`], [`Position`]
/// and the explorer, which writes a position for every ply it walks (a formatter call per
/// character was most of that).
///
/// [`Position`]: super::Position
pub(super) fn write_text(
    out: &mut Vec<u8>,
    codes: &[u8; 32],
    turn: Option<Color>,
    pool: &Pool,
    np: u32,
    ply: u32,
) {
    // Into an array, extended once; a letter per cell code from a table.
    let mut text = [0u8; 8 * 5];
    let mut len = 0;
    for rank in (0..8).rev() {
        let mut empty = 0u8;
        for &code in &codes[rank * 4..rank * 4 + 4] {
            let letter = Cell::CODE_LETTERS[code as usize & 15];
            if letter == 0 {
                empty += 1;
                continue;
            }
            if empty > 0 {
                text[len] = b'0' + empty;
                len += 1;
                empty = 0;
            }
            text[len] = letter;
            len += 1;
        }
        if empty > 0 {
            text[len] = b'0' + empty;
            len += 1;
        }
        if rank > 0 {
            text[len] = b'/';
            len += 1;
        }
    }
    out.extend_from_slice(&text[..len]);
    out.extend_from_slice(&[b' ', turn.map_or(b'-', |c| c.char() as u8), b' ']);
    pool.write_text(out);
    let mut number = itoa::Buffer::new();
    out.push(b' ');
    out.extend_from_slice(number.format(np).as_bytes());
    out.push(b' ');
    out.extend_from_slice(number.format(ply).as_bytes());
}

/// Writes what [`write_text`] gives to `f`.
pub(super) fn display(f: &mut fmt::Formatter<'_>, write: impl FnOnce(&mut Vec<u8>)) -> fmt::Result {
    let mut text = Vec::with_capacity(80);
    write(&mut text);
    f.write_str(std::str::from_utf8(&text).expect("ASCII"))
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        display(f, |out| {
            write_text(
                out,
                &self.board.map(Cell::code),
                self.turn,
                &self.pool,
                self.no_progress,
                self.ply,
            )
        })
    }
}
