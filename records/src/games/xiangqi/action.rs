//! Actions in ICCS extended with the flips of RULES.md §9 (docs/notation.md):
//! - a move: `h2e2`;
//! - a flip of one piece: `a9(R)`, the point and what its back revealed (a soldier on the enemy
//!   back rank, the last elephant, chariot, horse or cannon, the 臣 advisor; `a9(P)` a flip back
//!   to a soldier); `a9` alone where the backs are known;
//! - a double flip: `e0=d0(K)`, the general's point `=` the advisor's, and what the advisor's
//!   back revealed (`K`, or `M`: the wrong advisor, and the game lost); `e0=d0` alone where the
//!   backs are known.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::board::Square;
use super::movegen::Move;
use super::pieces::Kind;

/// One ply.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Action {
    Move(Move),
    /// A single flip of the piece on `at`.
    Flip {
        at: Square,
        reveal: Option<Kind>,
    },
    /// 雙翻: the general and an advisor trade faces.
    DoubleFlip {
        general: Square,
        advisor: Square,
        reveal: Option<Kind>,
    },
}

#[derive(Error, Debug, Clone, PartialEq, Eq)]
#[error(
    "invalid action {0:?}: expected a move like h2e2, a flip like a9(R) or a9, or a double flip like e0=d0(K)"
)]
pub struct ParseActionError(pub String);

fn reveal(text: &str) -> Option<(&str, Option<Kind>)> {
    match text.split_once('(') {
        None => Some((text, None)),
        Some((head, rest)) => {
            let letter = rest.strip_suffix(')')?;
            let mut chars = letter.chars();
            let c = chars.next()?;
            if chars.next().is_some() || !c.is_ascii_uppercase() {
                return None;
            }
            Some((head, Some(Kind::from_letter(c)?)))
        }
    }
}

impl FromStr for Action {
    type Err = ParseActionError;
    fn from_str(s: &str) -> Result<Action, ParseActionError> {
        let err = || ParseActionError(s.to_owned());
        let (head, revealed) = reveal(s).ok_or_else(err)?;
        if let Some((general, advisor)) = head.split_once('=') {
            let general: Square = general.parse().map_err(|_| err())?;
            let advisor: Square = advisor.parse().map_err(|_| err())?;
            if general == advisor {
                return Err(err());
            }
            return Ok(Action::DoubleFlip {
                general,
                advisor,
                reveal: revealed,
            });
        }
        match head.len() {
            2 => Ok(Action::Flip {
                at: head.parse().map_err(|_| err())?,
                reveal: revealed,
            }),
            4 if revealed.is_none() => Ok(Action::Move(head.parse().map_err(|_| err())?)),
            _ => Err(err()),
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (head, revealed) = match *self {
            Action::Move(m) => return write!(f, "{m}"),
            Action::Flip { at, reveal } => (at.to_string(), reveal),
            Action::DoubleFlip {
                general,
                advisor,
                reveal,
            } => (format!("{general}={advisor}"), reveal),
        };
        f.write_str(&head)?;
        if let Some(k) = revealed {
            write!(f, "({})", k.letter())?;
        }
        Ok(())
    }
}
