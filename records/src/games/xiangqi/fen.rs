//! The position strings of RULES.md §9: FEN (xqbase: `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`)
//! for plain xiangqi, and the extended string with the backs, marks, last moves and checks.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::board::{FILES, RANKS, Square};
use super::pieces::{Back, Kind, Piece, Side, side_case};
use super::position::Position;

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
    #[error("invalid backs field: {0}")]
    Backs(String),
    #[error("invalid marks field: {0}")]
    Marks(String),
    #[error("invalid last-move field {0:?}: - or a point and a letter, like e5N")]
    Last(String),
    #[error("invalid checks field {0:?}: two of + - ! (red's, then black's)")]
    Checks(String),
}

impl From<ParseFenError> for crate::core::PositionProblem {
    fn from(e: ParseFenError) -> crate::core::PositionProblem {
        match e {
            ParseFenError::Illegal(e) => crate::core::PositionProblem::Impossible(e),
            e => crate::core::PositionProblem::Malformed(e.to_string()),
        }
    }
}

impl Position {
    /// The board field of a FEN.
    pub fn board_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..RANKS).rev() {
            let mut empty = 0;
            for file in 0..FILES {
                match self.board[(rank * FILES + file) as usize].get() {
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

    /// Whether the position has anything of §9 to write (else it is plain FEN).
    fn has_third_generation(&self) -> bool {
        self.last.iter().any(Option::is_some)
            || self.checked.iter().any(|c| *c)
            || self.lost.is_some()
            || self.pieces().any(|p| {
                p.back != Back::None || p.soldier_born || p.roams || p.pending || p.back_public
            })
    }

    /// The backs field.
    pub fn backs_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..RANKS).rev() {
            let mut empty = 0;
            for file in 0..FILES {
                let c = match self.board[(rank * FILES + file) as usize].get() {
                    Some(p) => match p.back {
                        Back::None => None,
                        Back::Unknown => Some('?'),
                        Back::Known(k) => Some(side_case(k.letter(), p.side)),
                    },
                    None => None,
                };
                match c {
                    None => empty += 1,
                    Some(c) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        s.push(c);
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

    /// The position string.
    fn fen(&self) -> String {
        let side = match self.turn {
            Side::Red => 'w',
            Side::Black => 'b',
        };
        let counters = format!("{} {}", self.no_capture, self.ply / 2 + 1);
        if !self.has_third_generation() {
            return format!("{} {side} - - {counters}", self.board_fen());
        }
        let mut marks = Vec::new();
        for s in Square::all() {
            if let Some(p) = self.piece(s) {
                let mut flags = String::new();
                if p.soldier_born {
                    flags.push('s');
                }
                if p.roams {
                    flags.push('r');
                }
                if p.pending {
                    flags.push('w');
                }
                if p.back_public {
                    flags.push('p');
                }
                if !flags.is_empty() {
                    marks.push(format!("{s}{flags}"));
                }
            }
        }
        let marks = if marks.is_empty() {
            "-".to_owned()
        } else {
            marks.join(",")
        };
        let write = |last: Option<(Square, Kind)>| match last {
            Some((s, k)) => format!("{s}{}", k.letter()),
            None => "-".to_owned(),
        };
        let mut last = write(self.last[self.turn.other().index()]);
        if let Some(own) = self.last[self.turn.index()] {
            last = format!("{last}/{}", write(Some(own)));
        }
        let checks: String = Side::ALL
            .iter()
            .map(|s| {
                if self.lost == Some(*s) {
                    '!'
                } else if self.checked[s.index()] {
                    '+'
                } else {
                    '-'
                }
            })
            .collect();
        let backs = if self.pieces().all(|p| p.back == Back::None) {
            "-".to_owned()
        } else {
            self.backs_fen()
        };
        format!(
            "{} {side} {backs} {marks} {last} {checks} {counters}",
            self.board_fen()
        )
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
        // Counted wide and checked at every step: a long run of digits must not wrap round
        // to a rank's width, and nothing may stand past the rank's last point (fuzzing found
        // both: `p3555…5P` and `9p`).
        let mut file = 0u32;
        let too_long = || ParseFenError::Rank {
            rank,
            detail: format!("{text:?} describes more than {FILES} points"),
        };
        for c in text.chars() {
            if let Some(n) = c.to_digit(10).filter(|n| (1..=9).contains(n)) {
                file += n;
                if file > u32::from(FILES) {
                    return Err(too_long());
                }
                continue;
            }
            let piece = Piece::from_char(c).ok_or_else(|| ParseFenError::Rank {
                rank,
                detail: format!("unknown piece letter {c:?}"),
            })?;
            if file >= u32::from(FILES) {
                return Err(too_long());
            }
            let s = Square::from_coords(file as i8, rank as i8).expect("on the board");
            if piece.kind == Kind::General && pos.generals[piece.side.index()].is_some() {
                return Err(ParseFenError::Illegal(format!(
                    "two {} generals",
                    piece.side.name()
                )));
            }
            pos.put(s, piece);
            file += 1;
        }
        if file != u32::from(FILES) {
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
        if !matches!(fields.len(), 2 | 4 | 6 | 8) {
            return Err(ParseFenError::Fields(s.to_owned()));
        }
        let turn = match fields[1] {
            "w" | "r" => Side::Red,
            "b" => Side::Black,
            other => return Err(ParseFenError::Side(other.to_owned())),
        };
        let mut pos = Position::empty(turn);
        parse_board(fields[0], &mut pos)?;
        let counters = match fields.len() {
            8 => {
                parse_backs(fields[2], &mut pos)?;
                parse_marks(fields[3], &mut pos)?;
                parse_last(fields[4], &mut pos)?;
                parse_checks(fields[5], &mut pos)?;
                Some((fields[6], fields[7]))
            }
            6 => Some((fields[4], fields[5])),
            _ => None,
        };
        if let Some((no_capture, moves)) = counters {
            let counter = |t: &str| ParseFenError::Counter(t.to_owned());
            pos.no_capture = no_capture.parse().map_err(|_| counter(no_capture))?;
            let n: u32 = moves.parse().map_err(|_| counter(moves))?;
            if n == 0 {
                return Err(counter(moves));
            }
            pos.ply = (n - 1) * 2 + turn.index() as u32;
        } else {
            pos.ply = turn.index() as u32;
        }
        Ok(pos)
    }
}

/// The backs field: a board of back letters (`?` unknown), one on each piece that has one.
fn parse_backs(field: &str, pos: &mut Position) -> Result<(), ParseFenError> {
    if field == "-" {
        return Ok(());
    }
    let bad = |detail: String| ParseFenError::Backs(detail);
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != RANKS as usize {
        return Err(bad(format!("{} ranks, not 10", ranks.len())));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = RANKS - 1 - i as u8;
        // Counted wide: a run of digits must not wrap round onto the board.
        let mut file = 0u32;
        for c in text.chars() {
            if let Some(n) = c.to_digit(10).filter(|n| (1..=9).contains(n)) {
                file += n;
                if file > u32::from(FILES) {
                    return Err(bad(format!("rank {rank} describes more than 9 points")));
                }
                continue;
            }
            let s = Square::from_coords(file as i8, rank as i8)
                .ok_or_else(|| bad(format!("rank {rank} describes more than 9 points")))?;
            let Some(mut piece) = pos.piece(s) else {
                return Err(bad(format!("a back on the empty point {s}")));
            };
            piece.back = if c == '?' {
                Back::Unknown
            } else {
                let kind =
                    Kind::from_letter(c).ok_or_else(|| bad(format!("unknown letter {c:?}")))?;
                if side_case(kind.letter(), piece.side) != c {
                    return Err(bad(format!(
                        "the back on {s} is written in the other side's case"
                    )));
                }
                Back::Known(kind)
            };
            pos.set(s, piece);
            file += 1;
        }
        if file != u32::from(FILES) {
            return Err(bad(format!("rank {rank} describes {file} points")));
        }
    }
    Ok(())
}

/// The marks field: `-`, or `<point><flags>` entries: `s` born a soldier, `r` a soldier-born
/// advisor that roams the enemy half (flipped under `soldier_flip_anywhere`), `w` flipped on a
/// wrong point (must flip back), `p` its back is public.
fn parse_marks(field: &str, pos: &mut Position) -> Result<(), ParseFenError> {
    if field == "-" {
        return Ok(());
    }
    let bad = |detail: String| ParseFenError::Marks(detail);
    for entry in field.split(',') {
        let (point, flags) = entry.split_at(entry.len().min(2));
        let s: Square = point.parse().map_err(|_| bad(format!("{entry:?}")))?;
        let Some(mut piece) = pos.piece(s) else {
            return Err(bad(format!("a mark on the empty point {s}")));
        };
        if flags.is_empty() {
            return Err(bad(format!("{entry:?} has no flag")));
        }
        for f in flags.chars() {
            match f {
                's' => piece.soldier_born = true,
                'r' => piece.roams = true,
                'w' => piece.pending = true,
                'p' => piece.back_public = true,
                _ => return Err(bad(format!("unknown flag {f:?} in {entry:?}"))),
            }
        }
        if piece.roams && !(piece.soldier_born && piece.kind == Kind::Advisor) {
            return Err(bad(format!("{s}: only a soldier-born advisor roams")));
        }
        if piece.pending && (piece.kind != Kind::Soldier || !matches!(piece.back, Back::Known(_))) {
            return Err(bad(format!(
                "{s} must flip back, so it is a soldier with its back shown"
            )));
        }
        pos.set(s, piece);
    }
    Ok(())
}

/// The last field: the move of the side that just played, then, after `/`, the side to
/// move's own previous move when it made one (`e2C`, `e2C/h7N`, `-/h7N`; `-` for none): each
/// the point the moved piece went to and its rule's letter.
fn parse_last(field: &str, pos: &mut Position) -> Result<(), ParseFenError> {
    let bad = || ParseFenError::Last(field.to_owned());
    let (just, own) = match field.split_once('/') {
        Some((just, own)) => (just, Some(own)),
        None => (field, None),
    };
    let one = |text: &str| -> Result<Option<(Square, Kind)>, ParseFenError> {
        if text == "-" {
            return Ok(None);
        }
        if text.len() != 3 || !text.is_ascii() {
            return Err(bad());
        }
        let s: Square = text[..2].parse().map_err(|_| bad())?;
        let c = text[2..].chars().next().ok_or_else(bad)?;
        let kind = Kind::from_letter(c)
            .filter(|k| *k != Kind::Biao && c.is_ascii_uppercase())
            .ok_or_else(bad)?;
        Ok(Some((s, kind)))
    };
    pos.last[pos.turn.other().index()] = one(just)?;
    if let Some(own) = own {
        // `e2C/-` would say the same as `e2C`: one way to write each position.
        pos.last[pos.turn.index()] = Some(one(own)?.ok_or_else(bad)?);
    }
    Ok(())
}

/// The checks field: for red then black, `+` in check at the start of its last turn, `-` not,
/// `!` lost by a wrong double flip.
fn parse_checks(field: &str, pos: &mut Position) -> Result<(), ParseFenError> {
    let chars: Vec<char> = field.chars().collect();
    if chars.len() != 2 {
        return Err(ParseFenError::Checks(field.to_owned()));
    }
    for (i, c) in chars.into_iter().enumerate() {
        match c {
            '+' => pos.checked[i] = true,
            '-' => {}
            '!' if pos.lost.is_none() => pos.lost = Some(Side::ALL[i]),
            _ => return Err(ParseFenError::Checks(field.to_owned())),
        }
    }
    Ok(())
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen())
    }
}
