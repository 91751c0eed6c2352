//! The Three Kingdoms position string and action notation (docs/notation.md), in the style of
//! Banqi's (RULES.md §4):
//!
//! `<board> <factions> <to-move> <covered> <captured> <places> <no-progress> <ply>`
//!
//! - board: ranks 5 down to 1 separated by `/`, each rank files a→i; a piece letter, `X` for
//!   covered, a digit 1–9 for a run of empty points;
//! - factions: one letter per seat (player 1, 2, 3): `g` generals, `r` red, `b` black in the
//!   first split; `s` soldiers, `c` commanders, `a` armies in the second; `-` none yet;
//! - to-move: `1`, `2` or `3`;
//! - covered: the covered pool as in Banqi (`K1G2…p5`, `-` when none);
//! - captured: what each seat captured, three pools separated by `/` (`-` for none);
//! - places: one character per seat, its place once it is out (`1`–`3`), `-` while it plays;
//! - no-progress and ply as in Banqi.
//!
//! Actions: a flip `b2(R)` (or `b2` where a layout fills it in), a move or capture `a1-a4`,
//! and `recall` (收軍).

use std::fmt::{self, Write as _};
use std::str::FromStr;

use thiserror::Error;

use crate::core::Seat;
use crate::core::pieces::{Cell, Piece, Pool};

use super::pieces::{Faction, Split};
use super::points::{ParsePointError, Point};
use super::position::{Position, PositionError};
use crate::core::Turn as _;

/// The position string of the start (first split).
pub const START: &str =
    "XXXX1XXXX/XXXX1XXXX/9/XXXX1XXXX/XXXX1XXXX --- 1 K1G2M2R2N2C2P5k1g2m2r2n2c2p5 -/-/- --- 0 0";

/// A position as written, not yet checked against the rules.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Setup {
    pub board: [Cell; Point::COUNT],
    /// The split the faction letters name; None when no seat has a faction yet.
    pub split: Option<Split>,
    pub factions: [Option<Faction>; 3],
    pub turn: Seat,
    pub pool: Pool,
    pub captured: [Pool; 3],
    pub places: [Option<u8>; 3],
    pub no_progress: u32,
    pub ply: u32,
}

/// Why a position string cannot be read (syntax only).
#[derive(Error, Debug, Clone, PartialEq, Eq)]
pub enum ParseSetupError {
    #[error(
        "a Three Kingdoms position string has 8 fields separated by single spaces (board, factions, to-move, covered, captured, places, no-progress, ply); found {0}"
    )]
    FieldCount(usize),
    #[error("the board has 5 ranks separated by '/'; found {0}")]
    RankCount(usize),
    #[error("rank {rank} of the board does not describe exactly 9 points: {text:?}")]
    RankWidth { rank: u8, text: String },
    #[error(
        "unexpected character {0:?} in the board (pieces KGMRNCP/kgmrncp, X for covered, digits 1–9 for empty points)"
    )]
    BoardChar(char),
    #[error(
        "factions are three letters, one per seat: g r b (first split) or s c a (second split), '-' for none; found {0:?}"
    )]
    Factions(String),
    #[error("to-move must be 1, 2 or 3; found {0:?}")]
    ToMove(String),
    #[error(
        "the covered field must be letter+count pairs in the order KGMRNCPkgmrncp, or '-'; found {0:?}"
    )]
    Covered(String),
    #[error(
        "captured is three pools separated by '/' (letter+count pairs, or '-'), one per seat; found {0:?}"
    )]
    Captured(String),
    #[error(
        "places are three characters, one per seat: 1–3 once out, '-' while playing; found {0:?}"
    )]
    Places(String),
    #[error("{field} must be a non-negative integer; found {text:?}")]
    Counter { field: &'static str, text: String },
}

/// Reading a position string: a syntax error or a position the rules reject.
pub type ParsePositionError = crate::core::ParsePositionError<ParseSetupError, PositionError>;

impl FromStr for Setup {
    type Err = ParseSetupError;

    fn from_str(s: &str) -> Result<Setup, ParseSetupError> {
        let fields: Vec<&str> = s.split(' ').collect();
        let [
            board,
            factions,
            turn,
            covered,
            captured,
            places,
            no_progress,
            ply,
        ] = fields[..]
        else {
            return Err(ParseSetupError::FieldCount(fields.len()));
        };
        let (split, factions) = parse_factions(factions)?;
        let turn = match turn {
            "1" | "2" | "3" => Seat::new((turn.as_bytes()[0] - b'1') as usize).expect("1–3"),
            _ => return Err(ParseSetupError::ToMove(turn.to_owned())),
        };
        let counter = |field: &'static str, text: &str| {
            text.parse::<u32>().map_err(|_| ParseSetupError::Counter {
                field,
                text: text.to_owned(),
            })
        };
        Ok(Setup {
            board: parse_board(board)?,
            split,
            factions,
            turn,
            pool: covered
                .parse::<Pool>()
                .map_err(|_| ParseSetupError::Covered(covered.to_owned()))?,
            captured: parse_captured(captured)?,
            places: parse_places(places)?,
            no_progress: counter("no-progress", no_progress)?,
            ply: counter("ply", ply)?,
        })
    }
}

fn parse_board(text: &str) -> Result<[Cell; Point::COUNT], ParseSetupError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 5 {
        return Err(ParseSetupError::RankCount(ranks.len()));
    }
    let mut board = [Cell::Empty; Point::COUNT];
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 4 - i;
        let width_error = || ParseSetupError::RankWidth {
            rank: rank as u8 + 1,
            text: (*rank_text).to_owned(),
        };
        let mut file = 0usize;
        for c in rank_text.chars() {
            let cell = match c {
                '1'..='9' => {
                    file += c as usize - '0' as usize;
                    continue;
                }
                'X' => Cell::Covered,
                _ => Cell::Revealed(Piece::from_char(c).ok_or(ParseSetupError::BoardChar(c))?),
            };
            if file >= 9 {
                return Err(width_error());
            }
            board[rank * 9 + file] = cell;
            file += 1;
        }
        if file != 9 {
            return Err(width_error());
        }
    }
    Ok(board)
}

fn parse_factions(text: &str) -> Result<(Option<Split>, [Option<Faction>; 3]), ParseSetupError> {
    let err = || ParseSetupError::Factions(text.to_owned());
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != 3 {
        return Err(err());
    }
    let (mut split, mut factions) = (None, [None; 3]);
    for (i, c) in chars.into_iter().enumerate() {
        if c == '-' {
            continue;
        }
        let (s, f) = Split::from_letter(c).ok_or_else(err)?;
        if split.is_some_and(|known| known != s) {
            return Err(err());
        }
        split = Some(s);
        factions[i] = Some(f);
    }
    Ok((split, factions))
}

fn parse_captured(text: &str) -> Result<[Pool; 3], ParseSetupError> {
    let err = || ParseSetupError::Captured(text.to_owned());
    let parts: Vec<&str> = text.split('/').collect();
    let [a, b, c] = parts[..] else {
        return Err(err());
    };
    let one = |t: &str| t.parse::<Pool>().map_err(|_| err());
    Ok([one(a)?, one(b)?, one(c)?])
}

fn parse_places(text: &str) -> Result<[Option<u8>; 3], ParseSetupError> {
    let err = || ParseSetupError::Places(text.to_owned());
    let bytes = text.as_bytes();
    if bytes.len() != 3 {
        return Err(err());
    }
    let mut places = [None; 3];
    for (i, b) in bytes.iter().enumerate() {
        places[i] = match b {
            b'-' => None,
            b'1'..=b'3' => Some(b - b'0'),
            _ => return Err(err()),
        };
    }
    Ok(places)
}

impl FromStr for Position {
    type Err = ParsePositionError;

    fn from_str(s: &str) -> Result<Position, ParsePositionError> {
        ParsePositionError::parse(s, Position::from_setup)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..5u8).rev() {
            let mut empty = 0;
            for file in 0..9u8 {
                let p = Point::new(rank * 9 + file).expect("on the board");
                let c = match self.cell(p) {
                    Cell::Empty => {
                        empty += 1;
                        continue;
                    }
                    Cell::Covered => 'X',
                    Cell::Revealed(piece) => piece.char(),
                };
                if empty > 0 {
                    write!(f, "{empty}")?;
                    empty = 0;
                }
                f.write_char(c)?;
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                f.write_char('/')?;
            }
        }
        f.write_char(' ')?;
        for seat in Seat::all(3) {
            let letter = match self.faction_of(seat) {
                Some(faction) => self.split().letters()[faction.0 as usize],
                None => '-',
            };
            f.write_char(letter)?;
        }
        write!(f, " {} {} ", self.to_move().index() + 1, self.pool())?;
        for seat in Seat::all(3) {
            if seat.index() > 0 {
                f.write_char('/')?;
            }
            write!(f, "{}", self.captured(seat))?;
        }
        f.write_char(' ')?;
        for seat in Seat::all(3) {
            match self.place(seat) {
                Some(p) => write!(f, "{p}")?,
                None => f.write_char('-')?,
            }
        }
        write!(f, " {} {}", self.no_progress(), self.ply())
    }
}

/// A Three Kingdoms action.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Action {
    /// Turns over the covered piece on `point`; `piece` is what it revealed (None where a
    /// layout fills it in).
    Flip { point: Point, piece: Option<Piece> },
    /// Moves a revealed piece, capturing whatever revealed enemy stands on `to`.
    Move { from: Point, to: Point },
    /// 收軍: the seat finishes, its pieces leave the board.
    Recall,
}

/// Why a text is not Three Kingdoms action notation.
#[derive(Error, Debug, Clone, PartialEq, Eq)]
pub enum ParseActionError {
    #[error("{0}")]
    Point(#[from] ParsePointError),
    #[error(
        "invalid revealed piece in {0:?}: expected one letter of KGMRNCP or kgmrncp in parentheses"
    )]
    Piece(String),
    #[error("invalid action {0:?}: expected a flip like b2(R), a move like a1-a4, or recall")]
    Shape(String),
}

impl FromStr for Action {
    type Err = ParseActionError;

    fn from_str(s: &str) -> Result<Action, ParseActionError> {
        if s == "recall" {
            return Ok(Action::Recall);
        }
        if let Some((from, to)) = s.split_once('-') {
            return Ok(Action::Move {
                from: from.parse()?,
                to: to.parse()?,
            });
        }
        match s.split_once('(') {
            None if s.len() == 2 => Ok(Action::Flip {
                point: s.parse()?,
                piece: None,
            }),
            None => Err(ParseActionError::Shape(s.to_owned())),
            Some((point, rest)) => {
                let piece = rest
                    .strip_suffix(')')
                    .and_then(|p| p.parse::<Piece>().ok())
                    .ok_or_else(|| ParseActionError::Piece(s.to_owned()))?;
                Ok(Action::Flip {
                    point: point.parse()?,
                    piece: Some(piece),
                })
            }
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Flip { point, piece: None } => write!(f, "{point}"),
            Action::Flip {
                point,
                piece: Some(piece),
            } => write!(f, "{point}({piece})"),
            Action::Move { from, to } => write!(f, "{from}-{to}"),
            Action::Recall => f.write_str("recall"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_round_trips() {
        let pos: Position = START.parse().unwrap();
        assert_eq!(pos, Position::start(Split::Generals));
        assert_eq!(pos.to_string(), START);
    }

    #[test]
    fn actions_round_trip() {
        for text in ["b2(R)", "b2", "a1-a4", "i5-h3", "recall"] {
            assert_eq!(text.parse::<Action>().unwrap().to_string(), text);
        }
        for bad in ["", "e6", "b2(X)", "b2(R", "a1-", "a1-j1", "recal", "b2R"] {
            assert!(bad.parse::<Action>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn syntax_errors_name_the_field() {
        let cases = [
            (
                "XXXX1XXXX/XXXX1XXXX/9/XXXX1XXXX --- 1 - -/-/- --- 0 0",
                "5 ranks",
            ),
            ("9/9/9/9/9 -x- 1 - -/-/- --- 0 0", "factions"),
            ("9/9/9/9/9 gsb 1 - -/-/- --- 0 0", "factions"),
            ("9/9/9/9/9 --- 4 - -/-/- --- 0 0", "to-move"),
            ("9/9/9/9/9 --- 1 - -/- --- 0 0", "captured"),
            ("9/9/9/9/9 --- 1 - -/-/- -4- 0 0", "places"),
            ("9/9/9/9/8 --- 1 - -/-/- --- 0 0", "exactly 9"),
            ("9/9/9/9/9 --- 1 - -/-/- --- x 0", "no-progress"),
            ("9/9/9/9/9 --- 1 -", "8 fields"),
        ];
        for (text, needle) in cases {
            let e = text.parse::<Setup>().unwrap_err().to_string();
            assert!(e.contains(needle), "{text:?}: {e}");
        }
    }

    #[test]
    fn impossible_positions_are_refused() {
        let cases = [
            // A covered point more than the pool holds.
            (
                "XXXX1XXXX/XXXX1XXXX/9/XXXX1XXXX/XXXX1XXXX --- 1 K1G2M2R2N2C2P5k1g2m2r2n2c2p4 -/-/- --- 0 0",
                "covered",
            ),
            // Two seats with factions and the third without.
            ("K8/9/9/9/9 gr- 1 - -/-/- --- 0 0", "third"),
            ("K8/9/9/9/9 ggb 1 - -/-/- --- 0 0", "same faction"),
            // Revealed pieces before any claim.
            ("K8/9/9/9/9 --- 1 - -/-/- --- 0 0", "no faction"),
            // Player 1 (generals) captured its own soldier.
            ("K8/9/9/9/9 grb 1 - P1/-/- --- 0 0", "own faction"),
            // Player 3 plays on, but the black faction has no piece.
            ("K8/9/9/9/4R4 grb 1 - -/-/- --- 0 0", "plays on"),
            // Player 2 is placed, but the red faction still has a chariot.
            ("K8/9/9/9/4R3m grb 1 - -/-/- -3- 0 0", "has a place"),
        ];
        for (text, needle) in cases {
            let e = text.parse::<Position>().unwrap_err().to_string();
            assert!(e.contains(needle), "{text:?}: {e}");
        }
    }
}
