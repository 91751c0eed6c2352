//! A dark game's position as one seat is told it (RULES.md §8 "Modes"): the referee's position
//! names every enemy piece, so a seat is told this instead, every enemy piece it may not
//! identify written `?`. It is not a position to play from; it is written, read back (a view
//! sent to `/v1/render.svg`) and drawn.
//!
//! The **public** position (what every seat sees: the opening explorer's) has unknown pieces
//! of both sides, so it says whose each is: `U` a red piece, `u` a black one (the case of the
//! sides' letters; `U` is no role's). A seat's `?` needs no side: they are all its enemy's.
//! Writing `?` for both sides in public merged positions that differ (issue 59).

use std::fmt;

use crate::core::{Masked, PositionProblem};

use super::board::{FILES, Point, RANKS};
use super::notation::Action;
use super::pieces::{Piece, Side};
use super::render::{Shown, picture};

/// What each point shows a seat, and the position string's other fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MaskedPosition {
    shown: [Shown; Point::COUNT],
    /// What every seat sees (unknown pieces written by side), not one seat's view.
    public: bool,
    /// The fields after the board and the mountains (side to move, counters), as the position
    /// writes them.
    rest: String,
}

impl MaskedPosition {
    pub(super) fn new(
        shown: impl Fn(Point) -> Shown,
        rest: String,
        public: bool,
    ) -> MaskedPosition {
        MaskedPosition {
            shown: std::array::from_fn(|i| shown(Point::new(i as u8).expect("a point"))),
            public,
            rest,
        }
    }

    /// How a point is written: [`Shown::letter`], but an unknown piece of the public position
    /// by its side (`U` red, `u` black).
    fn letter(&self, p: Point) -> char {
        match self.shown(p) {
            Shown::Unknown(Side::Red) if self.public => 'U',
            Shown::Unknown(Side::Black) if self.public => 'u',
            shown => shown.letter(),
        }
    }

    pub fn shown(&self, p: Point) -> Shown {
        self.shown[p.index()]
    }

    /// The board, rank 12 first, each rank files a→e, as [`Shown::letter`] writes a point.
    pub fn rows(&self) -> Vec<String> {
        (0..RANKS)
            .rev()
            .map(|rank| {
                (0..FILES)
                    .map(|file| {
                        self.letter(Point::new((rank * FILES + file) as u8).expect("a point"))
                    })
                    .collect()
            })
            .collect()
    }

    /// What stands on the mountains `bm` and `dm`.
    pub fn mountains(&self) -> String {
        [Point::MOUNTAIN_B, Point::MOUNTAIN_D]
            .iter()
            .map(|p| self.letter(*p))
            .collect()
    }
}

impl fmt::Display for MaskedPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, rank) in self.rows().iter().enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            let mut empty = 0;
            for c in rank.chars() {
                if c == '-' {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    write!(f, "{empty}")?;
                    empty = 0;
                }
                write!(f, "{c}")?;
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
        }
        write!(f, " {}", self.mountains())?;
        if !self.rest.is_empty() {
            write!(f, " {}", self.rest)?;
        }
        Ok(())
    }
}

impl Masked<Action> for MaskedPosition {
    /// A masked position is told by its `?`s (a seat's view) or its `U`s and `u`s (the public
    /// position) on the board: a position string has none.
    fn parse_masked(text: &str) -> Option<Result<Self, PositionProblem>> {
        let board = text.split(' ').next().unwrap_or_default();
        board.contains(['?', 'U', 'u']).then(|| parse(text))
    }

    fn svg(&self, last: Option<&Action>) -> String {
        picture(&|p| self.shown(p), &[], last, &self.to_string())
    }
}

fn parse(text: &str) -> Result<MaskedPosition, PositionProblem> {
    let malformed = |why: String| PositionProblem::Malformed(why);
    let mut fields = text.split(' ');
    let board = fields.next().unwrap_or_default();
    let mountains: Vec<char> = fields.next().unwrap_or("--").chars().collect();
    let rest = fields.collect::<Vec<_>>().join(" ");
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != RANKS as usize || mountains.len() != 2 {
        return Err(malformed(
            "a view's position has 12 ranks and two mountain characters".into(),
        ));
    }
    let mut cells = ['-'; Point::COUNT];
    for (row, text) in ranks.iter().enumerate() {
        let rank = RANKS as usize - 1 - row;
        let mut file = 0;
        for c in text.chars() {
            match c.to_digit(10).filter(|n| (1..=5).contains(n)) {
                Some(n) => file += n as usize,
                None => {
                    if file < FILES as usize {
                        cells[rank * FILES as usize + file] = c;
                    }
                    file += 1;
                }
            }
        }
        if file != FILES as usize {
            return Err(malformed(format!(
                "rank {} does not describe 5 points",
                rank + 1
            )));
        }
    }
    cells[Point::BOARD] = mountains[0];
    cells[Point::BOARD + 1] = mountains[1];
    if let Some(c) = cells
        .iter()
        .find(|c| !matches!(c, '-' | 'X' | '?' | 'U' | 'u') && Piece::from_char(**c).is_none())
    {
        return Err(malformed(format!("unknown piece letter {c:?}")));
    }
    let public = cells.iter().any(|c| matches!(c, 'U' | 'u'));
    if public && cells.contains(&'?') {
        return Err(malformed(
            "a position has `?` (a seat's view: its enemy's unknown pieces) or `U` and `u` (the \
             public position: unknown red and black pieces), not both"
                .into(),
        ));
    }
    // Every `?` is the viewer's enemy. The viewer identifies all its own pieces and at most
    // one enemy piece (a shown flag), so its side is the one with more letters.
    let mut sides = [0u32; 2];
    for p in cells.iter().filter_map(|c| Piece::from_char(*c)) {
        sides[p.side.index()] += 1;
    }
    let unknown = if sides[0] >= sides[1] {
        Side::Black
    } else {
        Side::Red
    };
    let shown = |p: Point| match cells[p.index()] {
        'X' => Shown::Covered,
        '?' => Shown::Unknown(unknown),
        'U' => Shown::Unknown(Side::Red),
        'u' => Shown::Unknown(Side::Black),
        c => Piece::from_char(c).map_or(Shown::Empty, Shown::Piece),
    };
    Ok(MaskedPosition::new(shown, rest, public))
}
