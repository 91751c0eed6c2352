//! The hidden truth of a dealt Three Kingdoms game: the [`Layout`], the piece under every
//! start point.

use std::fmt::{self, Write as _};
use std::str::FromStr;

use thiserror::Error;

use crate::core::pieces::{Piece, Pool, shuffled_set};
use crate::core::{IllegalAction, Misfit, Violation};

use super::notation::Action;
use super::points::{Point, Points};
use super::position::Position;

/// The piece under each of the 32 start points, in index order (a1 b1 c1 d1 f1 g1 h1 i1 a2 …
/// i5: file e and rank 3 left out), written as 32 piece letters.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Layout(pub [Piece; 32]);

/// The slot of each point in a layout (`u8::MAX` off the start points).
const SLOTS: [u8; Point::COUNT] = {
    let mut slots = [u8::MAX; Point::COUNT];
    let (mut i, mut slot) = (0, 0);
    while i < Point::COUNT {
        if Points::START.0 >> i & 1 != 0 {
            slots[i] = slot;
            slot += 1;
        }
        i += 1;
    }
    slots
};

#[derive(Error, Debug, Clone, PartialEq, Eq)]
pub enum ParseLayoutError {
    #[error(
        "a Three Kingdoms layout is 32 piece letters, one per start point (a1 b1 c1 d1 f1 g1 h1 i1 a2 … i5); found {0} characters"
    )]
    Length(usize),
    #[error("invalid piece letter {0:?} in the layout")]
    Letter(char),
    #[error("the layout does not hold the 32 pieces of a set: the {0} count is wrong")]
    Count(char),
}

impl Layout {
    /// The piece dealt on `p`, a start point.
    pub fn piece(&self, p: Point) -> Option<Piece> {
        let slot = SLOTS[p.index()];
        (slot != u8::MAX).then(|| self.0[slot as usize])
    }

    /// A uniformly shuffled full set.
    pub fn shuffled<R: rand::RngExt + ?Sized>(rng: &mut R) -> Layout {
        Layout(shuffled_set(rng))
    }

    /// Whether the layout can be the truth under `pos`'s covered points: each is a start
    /// point and the pieces it puts there are exactly the covered pool.
    pub fn fits(&self, pos: &Position) -> Result<(), Misfit> {
        let mut pool = *pos.pool();
        for p in pos.covered() {
            let Some(piece) = self.piece(p) else {
                return Err(Misfit(format!(
                    "{p} is covered but is not a start point: no layout can say what lies there"
                )));
            };
            if !pool.take(piece) {
                return Err(Misfit(format!(
                    "the layout puts {piece} on {p}, but the position has no such covered piece left"
                )));
            }
        }
        Ok(())
    }

    /// This layout with the pieces under `pos`'s covered points shuffled among them: what
    /// nobody at the table can tell apart.
    pub fn shuffle_covered<R: rand::RngExt + ?Sized>(&self, pos: &Position, rng: &mut R) -> Layout {
        let slots: Vec<usize> = pos
            .covered()
            .filter_map(|p| self.piece(p).map(|_| SLOTS[p.index()] as usize))
            .collect();
        let mut pieces: Vec<Piece> = slots.iter().map(|s| self.0[*s]).collect();
        for i in (1..pieces.len()).rev() {
            pieces.swap(i, rng.random_range(0..=i));
        }
        let mut out = *self;
        for (slot, piece) in slots.into_iter().zip(pieces) {
            out.0[slot] = piece;
        }
        out
    }

    /// `action` with the identity a flip reveals filled in from the layout, or checked
    /// against it when given.
    pub fn fill(&self, action: Action) -> Result<Action, IllegalAction> {
        let Action::Flip { point, piece } = action else {
            return Ok(action);
        };
        let Some(dealt) = self.piece(point) else {
            return Ok(action);
        };
        match piece {
            None => Ok(Action::Flip {
                point,
                piece: Some(dealt),
            }),
            Some(p) if p == dealt => Ok(action),
            Some(p) => Err(IllegalAction::new(
                Violation::REVEAL_CONTRADICTS_LAYOUT,
                format!("the flip says {p} but the layout has {dealt} on {point}"),
            )),
        }
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|p| f.write_char(p.char()))
    }
}

impl FromStr for Layout {
    type Err = ParseLayoutError;

    fn from_str(s: &str) -> Result<Layout, ParseLayoutError> {
        let n = s.chars().count();
        if n != 32 {
            return Err(ParseLayoutError::Length(n));
        }
        let mut pieces = [Piece::from_index(0); 32];
        let mut pool = Pool::default();
        for (i, c) in s.chars().enumerate() {
            pieces[i] = Piece::from_char(c).ok_or(ParseLayoutError::Letter(c))?;
            pool.add(pieces[i]);
        }
        if let Some(p) = Piece::all().find(|p| pool.count(*p) != Pool::FULL.count(*p)) {
            return Err(ParseLayoutError::Count(p.char()));
        }
        Ok(Layout(pieces))
    }
}

/// In OpenAPI a layout is its 32-letter string.
#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for Layout {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        crate::core::pieces::layout_schema(
            "point, in the order a1 b1 c1 d1 f1 g1 h1 i1 a2 … i5 (file e and rank 3 left out)",
            "RPPCpgPrGMCPpnnpMPKrkgpGNcRmmcNp",
        )
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for Layout {
    fn name() -> std::borrow::Cow<'static, str> {
        "ThreeKingdomsLayout".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::three_kingdoms::Split;
    use rand::SeedableRng;

    #[test]
    fn layouts_fill_flips_and_fit_the_start() {
        let layout: Layout = "KGGMMRRNNCCPPPPPkggmmrrnnccppppp".parse().unwrap();
        assert_eq!(
            layout.piece("a1".parse().unwrap()),
            Some(Piece::from_char('K').unwrap())
        );
        // f1 is the fifth start point (e1 is not one).
        assert_eq!(
            layout.piece("f1".parse().unwrap()),
            Some(Piece::from_char('M').unwrap())
        );
        assert_eq!(layout.piece("e1".parse().unwrap()), None);
        let start = Position::start(Split::Generals);
        layout.fits(&start).unwrap();
        let flip: Action = "a1".parse().unwrap();
        assert_eq!(layout.fill(flip).unwrap().to_string(), "a1(K)");
        let wrong: Action = "a1(k)".parse().unwrap();
        assert_eq!(
            layout.fill(wrong).unwrap_err().reason,
            Violation::REVEAL_CONTRADICTS_LAYOUT
        );
        assert_eq!(layout.to_string().parse::<Layout>(), Ok(layout));
        assert!("KGG".parse::<Layout>().is_err());
        assert!(matches!(
            "KKGMMRRNNCCPPPPPkggmmrrnnccppppp".parse::<Layout>(),
            Err(ParseLayoutError::Count('K'))
        ));
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let shuffled = layout.shuffle_covered(&start, &mut rng);
        shuffled.fits(&start).unwrap();
        assert_ne!(shuffled, layout);
    }
}
