//! Luzhanqi notation (docs/notation.md): the position string, parsed into a [`Setup`] (as
//! written, unchecked) and checked into a [`Position`]; and the [`Action`]s.
//!
//! Position string, fields separated by single spaces:
//! `<board> <mountains> <to-move> <covered> <flags> <no-progress> <ply>`
//! - board: ranks 12 down to 1 separated by `/`, each rank files a→e: a piece letter (red upper
//!   case), `X` face down, a digit 1–5 for a run of empty points;
//! - mountains: what stands on `bm` and `dm`, a piece letter or `-` each (`--` usually);
//! - to-move: `r`, `b`, or `-` before the first flip of a flip game;
//! - covered: the face-down multiset as letter+count pairs (`M1G1…f1`), `-` when none;
//! - flags: `-`, or where a flag shares a point: `f^c5` (black's flag carried by the piece on
//!   c5), `F@b3` (red's flag lying under the piece on b3), comma-separated;
//! - no-progress: plies since the last attack or flip; ply: plies played.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::board::{FILES, Point, RANKS};
use super::pieces::{Piece, Pool, Role, Side};
use super::position::{Cell, FlagState, Position, PositionError};

/// A position as written: parsed, not yet checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub cells: [Cell; Point::COUNT],
    pub turn: Option<Side>,
    pub pool: Pool,
    pub flags: [FlagState; 2],
    pub no_progress: u16,
    pub ply: u32,
}

#[derive(Error, Debug, Clone, PartialEq, Eq)]
pub enum ParseSetupError {
    #[error(
        "a position string has 7 fields (board, mountains, to-move, covered, flags, no-progress, ply); this one has {0}"
    )]
    Fields(usize),
    #[error("the board has 12 ranks separated by '/'; found {0}")]
    Ranks(usize),
    #[error("rank {rank} does not describe 5 points: {detail}")]
    Rank { rank: u8, detail: String },
    #[error("the mountains field is two characters, a piece letter or '-' for bm and dm: {0:?}")]
    Mountains(String),
    #[error("to-move must be r, b or -: {0:?}")]
    ToMove(String),
    #[error("invalid covered pool {0:?}: letter+count pairs like M1G1, or -")]
    Pool(String),
    #[error(
        "invalid flags {0:?}: -, or entries like f^c5 (carried) and F@b3 (lying under a piece)"
    )]
    Flags(String),
    #[error("invalid counter {0:?}")]
    Counter(String),
}

/// Reading a position string: a syntax error or a position the rules reject.
pub type ParsePositionError = crate::core::ParsePositionError<ParseSetupError, PositionError>;

impl FromStr for Setup {
    type Err = ParseSetupError;
    fn from_str(s: &str) -> Result<Setup, ParseSetupError> {
        let fields: Vec<&str> = s.split(' ').collect();
        let [board, mountains, to_move, covered, flags, no_progress, ply] = fields[..] else {
            return Err(ParseSetupError::Fields(fields.len()));
        };
        let mut cells = [Cell::Empty; Point::COUNT];
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != RANKS as usize {
            return Err(ParseSetupError::Ranks(ranks.len()));
        }
        for (i, text) in ranks.iter().enumerate() {
            let rank = RANKS - 1 - i as u8;
            let row = parse_rank(text).map_err(|detail| ParseSetupError::Rank {
                rank: rank + 1,
                detail,
            })?;
            for (file, cell) in row.into_iter().enumerate() {
                cells[(rank * FILES) as usize + file] = cell;
            }
        }
        let m: Vec<char> = mountains.chars().collect();
        if m.len() != 2 {
            return Err(ParseSetupError::Mountains(mountains.to_owned()));
        }
        for (i, c) in m.into_iter().enumerate() {
            cells[Point::BOARD + i] = match c {
                '-' => Cell::Empty,
                c => Cell::Piece(
                    Piece::from_char(c)
                        .ok_or_else(|| ParseSetupError::Mountains(mountains.to_owned()))?,
                ),
            };
        }
        let turn = match to_move {
            "r" => Some(Side::Red),
            "b" => Some(Side::Black),
            "-" => None,
            _ => return Err(ParseSetupError::ToMove(to_move.to_owned())),
        };
        let pool = parse_pool(covered).ok_or_else(|| ParseSetupError::Pool(covered.to_owned()))?;
        let flags = parse_flags(flags).ok_or_else(|| ParseSetupError::Flags(flags.to_owned()))?;
        let counter = |t: &str| ParseSetupError::Counter(t.to_owned());
        let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
        if !digits(no_progress) || !digits(ply) {
            return Err(counter(if digits(no_progress) {
                ply
            } else {
                no_progress
            }));
        }
        Ok(Setup {
            cells,
            turn,
            pool,
            flags,
            no_progress: no_progress.parse().map_err(|_| counter(no_progress))?,
            ply: ply.parse().map_err(|_| counter(ply))?,
        })
    }
}

fn parse_rank(text: &str) -> Result<Vec<Cell>, String> {
    let mut row = Vec::with_capacity(5);
    let mut last_digit = false;
    for c in text.chars() {
        match c {
            '1'..='5' => {
                if last_digit {
                    return Err("two digits in a row".into());
                }
                last_digit = true;
                for _ in 0..c as u8 - b'0' {
                    row.push(Cell::Empty);
                }
            }
            'X' => {
                last_digit = false;
                row.push(Cell::Covered);
            }
            c => {
                last_digit = false;
                row.push(Cell::Piece(
                    Piece::from_char(c).ok_or_else(|| format!("unknown piece letter {c:?}"))?,
                ));
            }
        }
        if row.len() > FILES as usize {
            return Err(format!("{text:?} has more than 5 points"));
        }
    }
    if row.len() != FILES as usize {
        return Err(format!("{text:?} has {} points", row.len()));
    }
    Ok(row)
}

/// A pool as letter+count pairs (`M1G1…`), or `-`.
pub(crate) fn parse_pool(text: &str) -> Option<Pool> {
    let mut pool = Pool::default();
    if text == "-" {
        return Some(pool);
    }
    let mut chars = text.chars().peekable();
    let mut last: Option<usize> = None;
    while let Some(c) = chars.next() {
        let piece = Piece::from_char(c)?;
        // Pairs in the canonical order, each once: one way to write each pool.
        if last.is_some_and(|l| l >= piece.index()) {
            return None;
        }
        last = Some(piece.index());
        let mut n = String::new();
        while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
            n.push(*d);
            chars.next();
        }
        let n: u8 = n.parse().ok()?;
        if n == 0 || n > piece.role.count() {
            return None;
        }
        pool.0[piece.index()] = n;
    }
    Some(pool)
}

fn parse_flags(text: &str) -> Option<[FlagState; 2]> {
    let mut flags = [FlagState::Alone; 2];
    if text == "-" {
        return Some(flags);
    }
    for entry in text.split(',') {
        let mut chars = entry.chars();
        let flag = Piece::from_char(chars.next()?)?;
        if flag.role != Role::Flag || flags[flag.side.index()] != FlagState::Alone {
            return None;
        }
        let mark = chars.next()?;
        let point: Point = chars.as_str().parse().ok()?;
        flags[flag.side.index()] = match mark {
            '^' => FlagState::Carried(point),
            '@' => FlagState::Under(point),
            _ => return None,
        };
    }
    Some(flags)
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..RANKS).rev() {
            let mut empty = 0;
            for file in 0..FILES {
                match self.cells[(rank * FILES + file) as usize] {
                    Cell::Empty => empty += 1,
                    cell => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        match cell {
                            Cell::Covered => f.write_str("X")?,
                            Cell::Piece(p) => write!(f, "{p}")?,
                            Cell::Empty => unreachable!(),
                        }
                    }
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        f.write_str(" ")?;
        for i in Point::BOARD..Point::COUNT {
            match self.cells[i] {
                Cell::Piece(p) => write!(f, "{p}")?,
                _ => f.write_str("-")?,
            }
        }
        let turn = self.turn.map_or('-', |s| s.char());
        write!(f, " {turn} {} ", self.pool.letters())?;
        let mut flags = Vec::new();
        for side in Side::ALL {
            let flag = Piece::new(side, Role::Flag);
            match self.flags[side.index()] {
                FlagState::Alone => {}
                FlagState::Carried(p) => flags.push(format!("{flag}^{p}")),
                FlagState::Under(p) => flags.push(format!("{flag}@{p}")),
            }
        }
        if flags.is_empty() {
            f.write_str("-")?;
        } else {
            f.write_str(&flags.join(","))?;
        }
        write!(f, " {} {}", self.no_progress, self.ply)
    }
}

impl FromStr for Position {
    type Err = ParsePositionError;
    fn from_str(s: &str) -> Result<Position, ParsePositionError> {
        ParsePositionError::parse(s, Position::from_setup)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.to_setup().fmt(f)
    }
}

/// One ply.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Action {
    /// `c5(M)`: turn a face-down piece up (flip mode); `c5` when a known layout fills it in.
    Flip { point: Point, piece: Option<Piece> },
    /// `a2-a3`: a move, or an attack; `a2-a3(g)` when the target is face down and revealed as
    /// `g`.
    Move {
        from: Point,
        to: Point,
        reveal: Option<Piece>,
    },
    /// `drop`: the piece carrying the enemy flag puts it down where it stands (flip mode).
    Drop,
}

#[derive(Error, Debug, Clone, PartialEq, Eq)]
#[error(
    "invalid action {0:?}: expected a flip like c5(M), a move like a2-a3 (a2-a3(g) when the target is revealed), or drop"
)]
pub struct ParseActionError(pub String);

fn point_and_piece(text: &str) -> Option<(Point, Option<Piece>)> {
    match text.split_once('(') {
        None => Some((text.parse().ok()?, None)),
        Some((point, rest)) => {
            let letter = rest.strip_suffix(')')?;
            let mut chars = letter.chars();
            let piece = Piece::from_char(chars.next()?)?;
            if chars.next().is_some() {
                return None;
            }
            Some((point.parse().ok()?, Some(piece)))
        }
    }
}

impl FromStr for Action {
    type Err = ParseActionError;
    fn from_str(s: &str) -> Result<Action, ParseActionError> {
        let err = || ParseActionError(s.to_owned());
        if s == "drop" {
            return Ok(Action::Drop);
        }
        match s.split_once('-') {
            None => {
                let (point, piece) = point_and_piece(s).ok_or_else(err)?;
                Ok(Action::Flip { point, piece })
            }
            Some((from, to)) => {
                let from: Point = from.parse().map_err(|_| err())?;
                let (to, reveal) = point_and_piece(to).ok_or_else(err)?;
                if from == to {
                    return Err(err());
                }
                Ok(Action::Move { from, to, reveal })
            }
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Action::Flip { point, piece } => {
                write!(f, "{point}")?;
                if let Some(p) = piece {
                    write!(f, "({p})")?;
                }
                Ok(())
            }
            Action::Move { from, to, reveal } => {
                write!(f, "{from}-{to}")?;
                if let Some(p) = reveal {
                    write!(f, "({p})")?;
                }
                Ok(())
            }
            Action::Drop => f.write_str("drop"),
        }
    }
}

/// The start of a flip game as a position string.
pub const FLIP_START: &str = "XXXXX/XXXXX/X1X1X/XX1XX/X1X1X/XXXXX/XXXXX/X1X1X/XX1XX/X1X1X/XXXXX/XXXXX -- - M1G1D2R2C2J2P3T3E3L3B2F1m1g1d2r2c2j2p3t3e3l3b2f1 - 0 0";
