//! Actions and their notation (RULES.md §4): `b6(K)`, `b6`, `a2-a3`, `a2-a3-a4`, `a2-a3(k)`.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::types::{Piece, Square};

/// The longest turn: at most 16 captures (there are 16 enemy pieces) and one final dark link.
pub const MAX_HOPS: usize = 17;

/// One step of a move: where the piece goes and, for a dark capture, what the covered
/// target turned out to be.
///
/// Two bytes, all zero when unused, so that building a [`Path`] costs a couple of stores.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Hop {
    to: Square,
    /// 0 for none, else 1 + the piece index.
    reveal: u8,
}

impl Hop {
    const UNUSED: Hop = Hop {
        to: Square::from_index_unchecked(0),
        reveal: 0,
    };

    #[inline]
    pub const fn new(to: Square, reveal: Option<Piece>) -> Hop {
        Hop {
            to,
            reveal: match reveal {
                Some(p) => 1 + p.index() as u8,
                None => 0,
            },
        }
    }

    #[inline]
    pub const fn to(self) -> Square {
        self.to
    }

    /// The piece a dark capture revealed on `to`, if given.
    #[inline]
    pub const fn reveal(self) -> Option<Piece> {
        match self.reveal {
            0 => None,
            n => Some(Piece::from_index(n as usize - 1)),
        }
    }

    #[inline]
    pub fn set_reveal(&mut self, piece: Option<Piece>) {
        *self = Hop::new(self.to, piece);
    }
}

/// A move of a revealed piece: one step, one capture, or a chain of captures.
/// Fixed size, so lists of actions need no allocation per action.
#[derive(Copy, Clone, Debug)]
pub struct Path {
    pub from: Square,
    len: u8,
    hops: [Hop; MAX_HOPS],
}

impl Path {
    #[inline]
    pub fn new(from: Square, to: Square) -> Path {
        Path::with_hop(from, Hop::new(to, None))
    }

    #[inline]
    pub fn with_hop(from: Square, hop: Hop) -> Path {
        // A constant fill, then one hop: cheaper than repeating `hop`.
        let mut hops = [Hop::UNUSED; MAX_HOPS];
        hops[0] = hop;
        Path { from, len: 1, hops }
    }

    #[inline]
    pub fn hops(&self) -> &[Hop] {
        &self.hops[..self.len as usize]
    }

    #[inline]
    pub fn hops_mut(&mut self) -> &mut [Hop] {
        &mut self.hops[..self.len as usize]
    }

    /// Append a hop; false when the path is already [`MAX_HOPS`] long.
    pub fn push(&mut self, hop: Hop) -> bool {
        if self.len as usize == MAX_HOPS {
            return false;
        }
        self.hops[self.len as usize] = hop;
        self.len += 1;
        true
    }

    #[inline]
    pub fn first(&self) -> Hop {
        self.hops[0]
    }

    /// Where the piece ends if every hop succeeds.
    #[inline]
    pub fn last(&self) -> Hop {
        self.hops[self.len as usize - 1]
    }
}

impl PartialEq for Path {
    fn eq(&self, other: &Path) -> bool {
        self.from == other.from && self.hops() == other.hops()
    }
}
impl Eq for Path {}

impl std::hash::Hash for Path {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.from.hash(state);
        self.hops().hash(state);
    }
}

/// What a player does on a turn.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Action {
    /// Turn a covered piece face up; `reveal` is what it showed (absent when unknown yet).
    Flip {
        square: Square,
        reveal: Option<Piece>,
    },
    /// Move a revealed piece: a step, a capture, a dark capture or a chain.
    Move(Path),
}

impl Action {
    pub fn flip(square: Square, reveal: Option<Piece>) -> Action {
        Action::Flip { square, reveal }
    }

    pub fn step(from: Square, to: Square) -> Action {
        Action::Move(Path::new(from, to))
    }

    /// A small number identifying a plain move (from, to) for the repetition rules.
    #[inline]
    pub(crate) fn code(&self) -> u16 {
        match self {
            Action::Flip { square, .. } => 0x8000 | square.index() as u16,
            Action::Move(p) => ((p.from.index() as u16) << 5) | p.last().to().index() as u16,
        }
    }
}

impl fmt::Display for Hop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to)?;
        if let Some(p) = self.reveal() {
            write!(f, "({p})")?;
        }
        Ok(())
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Flip { square, reveal } => {
                write!(f, "{square}")?;
                if let Some(p) = reveal {
                    write!(f, "({p})")?;
                }
                Ok(())
            }
            Action::Move(path) => {
                write!(f, "{}", path.from)?;
                path.hops().iter().try_for_each(|h| write!(f, "-{h}"))
            }
        }
    }
}

/// Why an action's text is not valid notation.
#[derive(Error, Debug, Clone, PartialEq, Eq)]
#[error("malformed action {text:?}: {problem}")]
pub struct ParseActionError {
    pub text: String,
    pub problem: &'static str,
}

impl FromStr for Action {
    type Err = ParseActionError;

    fn from_str(text: &str) -> Result<Action, ParseActionError> {
        // Replay reads an action per ply: the well-formed ones take a byte-level path; the
        // rest (and every error message) the one below.
        match parse_well_formed(text.as_bytes()) {
            Some(action) => Ok(action),
            None => parse_with_reasons(text),
        }
    }
}

/// Reads any action text, or says what is wrong with it.
fn parse_with_reasons(text: &str) -> Result<Action, ParseActionError> {
    let err = |problem| ParseActionError {
        text: text.to_owned(),
        problem,
    };
    let mut parts = text.split('-');
    let (from, from_reveal) = parse_hop(parts.next().unwrap_or_default()).map_err(err)?;
    let Some(first) = parts.next() else {
        return Ok(Action::Flip {
            square: from,
            reveal: from_reveal,
        });
    };
    if from_reveal.is_some() {
        return Err(err(
            "only a flip or a move's target may name a revealed piece",
        ));
    }
    let (to, reveal) = parse_hop(first).map_err(err)?;
    let mut path = Path::with_hop(from, Hop::new(to, reveal));
    for part in parts {
        let (to, reveal) = parse_hop(part).map_err(err)?;
        if !path.push(Hop::new(to, reveal)) {
            return Err(err("a chain has at most 17 hops"));
        }
    }
    Ok(Action::Move(path))
}

/// `a1`, `a1(K)`, `a1-a2`, `a1-a2(K)`, `a1-a3-a5` …, exactly as [`Action::from_str`] reads
/// them; None for anything else (which that then reads, or refuses with the reason).
fn parse_well_formed(text: &[u8]) -> Option<Action> {
    fn square(f: u8, r: u8) -> Option<Square> {
        match (f, r) {
            (b'a'..=b'd', b'1'..=b'8') => Square::from_coords((f - b'a') as i8, (r - b'1') as i8),
            _ => None,
        }
    }
    // The shapes nearly every ply has, matched whole: a flip, a step, each with or without
    // the piece shown.
    match *text {
        [f, r] => return Some(Action::flip(square(f, r)?, None)),
        [f, r, b'(', p, b')'] => {
            return Some(Action::flip(
                square(f, r)?,
                Some(Piece::from_char(p as char)?),
            ));
        }
        [f, r, b'-', g, s] => {
            return Some(Action::Move(Path::new(square(f, r)?, square(g, s)?)));
        }
        [f, r, b'-', g, s, b'(', p, b')'] => {
            let hop = Hop::new(square(g, s)?, Some(Piece::from_char(p as char)?));
            return Some(Action::Move(Path::with_hop(square(f, r)?, hop)));
        }
        _ => {}
    }
    fn hop(s: &[u8]) -> Option<(Square, Option<Piece>)> {
        let square = match *s {
            [f, r, ..] => square(f, r)?,
            _ => return None,
        };
        match &s[2..] {
            [] => Some((square, None)),
            [b'(', p, b')'] => Some((square, Some(Piece::from_char(*p as char)?))),
            _ => None,
        }
    }
    let mut parts = text.split(|&b| b == b'-');
    let (from, from_reveal) = hop(parts.next()?)?;
    let Some(first) = parts.next() else {
        return Some(Action::Flip {
            square: from,
            reveal: from_reveal,
        });
    };
    if from_reveal.is_some() {
        return None;
    }
    let (to, reveal) = hop(first)?;
    let mut path = Path::with_hop(from, Hop::new(to, reveal));
    for part in parts {
        let (to, reveal) = hop(part)?;
        if !path.push(Hop::new(to, reveal)) {
            return None;
        }
    }
    Some(Action::Move(path))
}

fn parse_hop(s: &str) -> Result<(Square, Option<Piece>), &'static str> {
    if s.is_empty() {
        return Err("empty square (a stray '-'?)");
    }
    let (sq_text, reveal) = match s.find('(') {
        None => (s, None),
        Some(i) => {
            let inner = s[i + 1..]
                .strip_suffix(')')
                .ok_or("a revealed piece is written in parentheses, like b6(K)")?;
            let piece = inner
                .parse::<Piece>()
                .map_err(|_| "the revealed piece must be one of KGMRNCP / kgmrncp")?;
            (&s[..i], Some(piece))
        }
    };
    let sq = sq_text
        .parse::<Square>()
        .map_err(|_| "squares are a1 … d8")?;
    Ok((sq, reveal))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_byte_level_path_reads_what_the_full_one_does() {
        // Every square, piece letter and shape, with the near misses around them.
        let hops = [
            "a1", "d8", "b5", "e1", "a0", "a9", "A1", "a", "", "a1(K)", "c3(p)", "a1(X)", "a1(KK)",
            "a1(", "a1()", "a1K", "d8(g)", "a1(k", "a1 ", "é1", "a1(é)",
        ];
        let mut texts: Vec<String> = hops.iter().map(|h| h.to_string()).collect();
        for a in hops {
            for b in hops {
                texts.push(format!("{a}-{b}"));
                texts.push(format!("{a}-{b}-c5"));
            }
        }
        texts.push(vec!["a1"; 18].join("-"));
        texts.push(vec!["a1"; 19].join("-"));
        for text in &texts {
            if let Some(fast) = parse_well_formed(text.as_bytes()) {
                assert_eq!(Ok(fast), parse_with_reasons(text), "{text}");
            }
        }
        // The usual shapes do take the fast path.
        for text in ["a1", "a1(K)", "a1-a2", "a1-a2(k)", "a1-a3-a5"] {
            assert!(parse_well_formed(text.as_bytes()).is_some(), "{text}");
        }
    }

    #[test]
    fn notation_round_trips() {
        for s in [
            "b6(K)",
            "b6",
            "a2-a3",
            "a2-a3-a4",
            "a2-a3(k)",
            "a2-a3(k)-a4(p)",
            "d8-d1",
            "c3-c5-a5-a7",
        ] {
            let a: Action = s.parse().unwrap();
            assert_eq!(a.to_string(), s);
        }
        assert_eq!(
            "b6(K)".parse::<Action>().unwrap(),
            Action::flip("b6".parse().unwrap(), Piece::from_char('K'))
        );
    }

    #[test]
    fn malformed_notation_is_rejected() {
        for s in [
            "",
            "b9",
            "e1",
            "b6(",
            "b6(Q)",
            "b6(K",
            "a2-",
            "-a3",
            "a2--a3",
            "a2(K)-a3",
            "a2-a3(kk)",
            "a2 a3",
            "A2",
        ] {
            assert!(s.parse::<Action>().is_err(), "{s:?} should not parse");
        }
        let long = format!("a1{}", "-a2-a1".repeat(9));
        assert!(long.parse::<Action>().is_err());
    }
}
