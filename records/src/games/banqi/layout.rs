//! The hidden truth of a dealt game: the [`Layout`], the piece under every square.

use std::fmt::{self, Write as _};
use std::str::FromStr;

use thiserror::Error;

use crate::core::{IllegalAction, Violation};

use super::action::Action;
use super::position::{Pool, Position};
use super::types::{Color, Piece, Role, Square};

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
        Layout(crate::core::pieces::shuffled_set(rng))
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

/// A layout as a record's `layout` holds it: its 32-letter string.
impl From<Layout> for serde_json::Value {
    fn from(layout: Layout) -> serde_json::Value {
        serde_json::Value::String(layout.to_string())
    }
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
            counts.add(p);
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
        crate::core::pieces::layout_schema(
            "square, in the order a1 b1 c1 d1 a2 … d8",
            "PppcPmGrpRpCrmGpgMPRNPKnCcgnPNkM",
        )
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for Layout {}

/// Fills in (or checks) every identity `action` reveals from the layout, when one is known.
pub fn fill_from_layout(
    mut action: Action,
    pos: &Position,
    layout: Option<&Layout>,
) -> Result<Action, IllegalAction> {
    let Some(layout) = layout else {
        return Ok(action);
    };
    let fill = |sq, reveal: &mut Option<Piece>| {
        let truth = layout.piece(sq);
        match *reveal {
            Some(p) if p != truth => Err(IllegalAction::new(
                Violation::REVEAL_CONTRADICTS_LAYOUT,
                format!("{sq} is said to reveal {p}, but the layout has {truth} there"),
            )),
            _ => {
                *reveal = Some(truth);
                Ok(())
            }
        }
    };
    match &mut action {
        Action::Flip { square, reveal } => fill(*square, reveal)?,
        Action::Move(path) => {
            for hop in path.hops_mut() {
                if pos.covered().contains(hop.to()) {
                    let mut reveal = hop.reveal();
                    fill(hop.to(), &mut reveal)?;
                    hop.set_reveal(reveal);
                }
            }
        }
    }
    Ok(action)
}

/// A layout that agrees with `layout` everywhere except under `pos`'s covered squares, where
/// the same pieces lie shuffled: nobody can tell the two apart at `pos`.
pub fn shuffle_covered<R: rand::RngExt + ?Sized>(
    layout: &Layout,
    pos: &Position,
    rng: &mut R,
) -> Layout {
    let squares: Vec<Square> = pos.covered().collect();
    let mut pieces: Vec<Piece> = squares.iter().map(|&s| layout.piece(s)).collect();
    for i in (1..pieces.len()).rev() {
        let j = rng.random_range(0..=i);
        pieces.swap(i, j);
    }
    let mut out = *layout;
    for (s, p) in squares.into_iter().zip(pieces) {
        out.0[s.index()] = p;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
