//! The hidden truth of a Luzhanqi game: both sides' setups (open and dark games; in a dark
//! game the referee's secret) or the shuffled layout of a flip game. Setups are checked with a
//! precise reason for each violation (RULES.md §8 "Setup").

use std::fmt;
use std::str::FromStr;

use serde::Serialize;
use serde_json::Value;
use thiserror::Error;

use crate::core::{IllegalAction, Misfit, Violation};

use super::board::{BOARD, CAMPS, FILES, HQS, Point, Points};
use super::notation::Action;
use super::pieces::{Piece, Pool, Role, Side};
use super::position::{Cell, Position};
use crate::core::Turn as _;

/// One side's setup: the role on each of its 30 points (none on camps).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct SideSetup {
    pub side: Side,
    /// Indexed by the point's rank within the half (0 = the side's rank 1 or 7) × 5 + file.
    roles: [Option<Role>; 30],
}

/// Why a setup is not legal: a code, the point concerned and a sentence.
#[derive(Error, Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = LuzhanqiSetupError))]
#[error("{detail}")]
pub struct SetupError {
    /// `malformed_setup`, `wrong_count`, `piece_in_camp`, `flag_not_in_headquarters`,
    /// `mine_off_back_ranks`, `bomb_on_front_rank`.
    pub code: &'static str,
    /// The point concerned, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub point: Option<String>,
    pub detail: String,
}

impl SetupError {
    fn at(code: &'static str, point: Point, detail: String) -> SetupError {
        SetupError {
            code,
            point: Some(point.to_string()),
            detail,
        }
    }
}

impl SideSetup {
    fn base(side: Side) -> u8 {
        match side {
            Side::Red => 0,
            Side::Black => 30,
        }
    }

    fn point(side: Side, i: usize) -> Point {
        Point::new(SideSetup::base(side) + i as u8).expect("on the board")
    }

    /// The side's pieces and their points.
    pub fn pieces(&self) -> impl Iterator<Item = (Point, Piece)> + '_ {
        self.roles.iter().enumerate().filter_map(|(i, r)| {
            r.map(|role| (SideSetup::point(self.side, i), Piece::new(self.side, role)))
        })
    }

    /// Parses and checks `side`'s setup: the side's six ranks as on the board, farthest
    /// from red first (`/`-separated, digits for empty points, camps empty), e.g. red's
    /// `BPCPE/D1E1T/RC1JT/P1G1J/LEBLR/LFMFT`... (see docs/notation.md).
    pub fn parse(side: Side, text: &str) -> Result<SideSetup, SetupError> {
        let malformed = |detail: String| SetupError {
            code: "malformed_setup",
            point: None,
            detail,
        };
        let ranks: Vec<&str> = text.split('/').collect();
        if ranks.len() != 6 {
            return Err(malformed(format!(
                "a setup is the side's 6 ranks separated by '/'; found {}",
                ranks.len()
            )));
        }
        let mut roles = [None; 30];
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 5 - i;
            let mut file = 0usize;
            for c in rank_text.chars() {
                if let Some(n) = c.to_digit(10).filter(|n| (1..=5).contains(n)) {
                    file += n as usize;
                } else {
                    let role = Role::from_letter(c).ok_or_else(|| {
                        malformed(format!("unknown piece letter {c:?} in {rank_text:?}"))
                    })?;
                    if file < 5 {
                        roles[rank * 5 + file] = Some(role);
                    }
                    file += 1;
                }
            }
            if file != FILES as usize {
                return Err(malformed(format!(
                    "{rank_text:?} does not describe 5 points"
                )));
            }
        }
        let setup = SideSetup { side, roles };
        setup.check()?;
        Ok(setup)
    }

    /// A checked setup from its pieces and their points (all on `side`'s half).
    pub fn from_pieces(side: Side, pieces: &[(Point, Piece)]) -> Result<SideSetup, SetupError> {
        let mut roles = [None; 30];
        for (p, piece) in pieces {
            let i = p.index().wrapping_sub(SideSetup::base(side) as usize);
            if i >= 30 || piece.side != side {
                return Err(SetupError::at(
                    "malformed_setup",
                    *p,
                    format!("{piece} on {p} is not a {} piece on its half", side.name()),
                ));
            }
            roles[i] = Some(piece.role);
        }
        let setup = SideSetup { side, roles };
        setup.check()?;
        Ok(setup)
    }

    fn check(&self) -> Result<(), SetupError> {
        let side = self.side;
        for role in Role::ALL {
            let n = self.roles.iter().filter(|r| **r == Some(role)).count();
            if n != role.count() as usize {
                return Err(SetupError {
                    code: "wrong_count",
                    point: None,
                    detail: format!(
                        "{} has {n} {} ({}); a side has {}",
                        side.name(),
                        role.chinese(),
                        Piece::new(side, role),
                        role.count()
                    ),
                });
            }
        }
        for (p, piece) in self.pieces() {
            let rank = p.rank() as usize % 6; // 0 = the side's rank 1 (red) or 7 (black)
            let from_back = if side == Side::Red { rank } else { 5 - rank };
            if CAMPS.contains(p) {
                return Err(SetupError::at(
                    "piece_in_camp",
                    p,
                    format!("{piece} on {p}: no piece starts in a camp"),
                ));
            }
            match piece.role {
                Role::Flag if !HQS.contains(p) => {
                    return Err(SetupError::at(
                        "flag_not_in_headquarters",
                        p,
                        format!("the flag is on {p}; it starts in a headquarters"),
                    ));
                }
                Role::Mine if from_back > 1 => {
                    return Err(SetupError::at(
                        "mine_off_back_ranks",
                        p,
                        format!("a mine on {p}: mines start on the side's last two ranks"),
                    ));
                }
                Role::Bomb if from_back == 5 => {
                    return Err(SetupError::at(
                        "bomb_on_front_rank",
                        p,
                        format!("a bomb on {p}: no bomb starts on the front rank"),
                    ));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// A random legal setup: the flag in a headquarters, three mines on the last two ranks,
    /// the bombs off the front rank, the rest anywhere; each legal setup equally likely.
    pub fn random<R: rand::RngExt + ?Sized>(side: Side, rng: &mut R) -> SideSetup {
        use rand::seq::SliceRandom;
        let mut free: Vec<usize> = (0..30)
            .filter(|&i| !CAMPS.contains(SideSetup::point(side, i)))
            .collect();
        let from_back = |i: usize| {
            let rank = i / 5;
            if side == Side::Red { rank } else { 5 - rank }
        };
        let mut roles = [None; 30];
        let place = |roles: &mut [Option<Role>; 30],
                     free: &mut Vec<usize>,
                     role: Role,
                     allowed: &dyn Fn(usize) -> bool,
                     rng: &mut R| {
            let choices: Vec<usize> = free.iter().copied().filter(|&i| allowed(i)).collect();
            let i = choices[rng.random_range(0..choices.len())];
            roles[i] = Some(role);
            free.retain(|&j| j != i);
        };
        place(
            &mut roles,
            &mut free,
            Role::Flag,
            &|i| HQS.contains(SideSetup::point(side, i)),
            rng,
        );
        for _ in 0..3 {
            place(
                &mut roles,
                &mut free,
                Role::Mine,
                &|i| from_back(i) <= 1,
                rng,
            );
        }
        for _ in 0..2 {
            place(
                &mut roles,
                &mut free,
                Role::Bomb,
                &|i| from_back(i) != 5,
                rng,
            );
        }
        let mut rest: Vec<Role> = Role::ALL
            .into_iter()
            .filter(|r| !matches!(r, Role::Flag | Role::Mine | Role::Bomb))
            .flat_map(|r| std::iter::repeat_n(r, r.count() as usize))
            .collect();
        rest.shuffle(rng);
        for (i, role) in free.into_iter().zip(rest) {
            roles[i] = Some(role);
        }
        SideSetup { side, roles }
    }
}

impl fmt::Display for SideSetup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..6).rev() {
            let mut empty = 0;
            for file in 0..5 {
                match self.roles[rank * 5 + file] {
                    None => empty += 1,
                    Some(role) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", Piece::new(self.side, role))?;
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
        Ok(())
    }
}

/// The points a flip game deals pieces to: every point but the camps, a1 … e12.
pub fn flip_points() -> Points {
    BOARD & !CAMPS
}

/// The hidden truth of a game.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Layout {
    /// Open and dark games: `{"red": "<setup>", "black": "<setup>"}`.
    Setups { red: SideSetup, black: SideSetup },
    /// Flip games: 50 letters, the piece face down on each non-camp point a1 … e12.
    Shuffle([Piece; 50]),
}

#[derive(Error, Debug, Clone, PartialEq, Eq)]
pub enum ParseLayoutError {
    #[error("a flip layout is 50 piece letters, one per non-camp point a1 … e12: {0}")]
    Shuffle(String),
    #[error("{side}'s setup: {error}")]
    Setup {
        side: &'static str,
        error: SetupError,
    },
    #[error(
        "a Luzhanqi layout is {{\"red\": setup, \"black\": setup}} (open and dark) or a string of 50 letters (flip)"
    )]
    Shape,
}

impl FromStr for Layout {
    type Err = ParseLayoutError;
    fn from_str(s: &str) -> Result<Layout, ParseLayoutError> {
        let letters: Vec<char> = s.chars().collect();
        if letters.len() != 50 {
            return Err(ParseLayoutError::Shuffle(format!(
                "{} letters",
                letters.len()
            )));
        }
        let mut pieces = [Piece::new(Side::Red, Role::Flag); 50];
        let mut pool = Pool::default();
        for (i, c) in letters.into_iter().enumerate() {
            pieces[i] = Piece::from_char(c)
                .ok_or_else(|| ParseLayoutError::Shuffle(format!("unknown letter {c:?}")))?;
            pool.add(pieces[i]);
        }
        if pool != Pool::full() {
            return Err(ParseLayoutError::Shuffle(
                "not both sides' 25 pieces exactly".into(),
            ));
        }
        Ok(Layout::Shuffle(pieces))
    }
}

impl Layout {
    /// Reads a record's `layout`.
    pub fn from_value(value: &Value) -> Result<Layout, ParseLayoutError> {
        match value {
            Value::String(s) => s.parse(),
            Value::Object(map) if map.len() == 2 => {
                let side = |name: &'static str, side: Side| {
                    let text = map
                        .get(name)
                        .and_then(Value::as_str)
                        .ok_or(ParseLayoutError::Shape)?;
                    SideSetup::parse(side, text)
                        .map_err(|error| ParseLayoutError::Setup { side: name, error })
                };
                Ok(Layout::Setups {
                    red: side("red", Side::Red)?,
                    black: side("black", Side::Black)?,
                })
            }
            _ => Err(ParseLayoutError::Shape),
        }
    }

    pub fn to_value(&self) -> Value {
        match self {
            Layout::Setups { red, black } => {
                serde_json::json!({"red": red.to_string(), "black": black.to_string()})
            }
            Layout::Shuffle(pieces) => Value::String(pieces.iter().map(|p| p.char()).collect()),
        }
    }

    /// Random legal setups for both sides.
    pub fn random_setups<R: rand::RngExt + ?Sized>(rng: &mut R) -> Layout {
        Layout::Setups {
            red: SideSetup::random(Side::Red, rng),
            black: SideSetup::random(Side::Black, rng),
        }
    }

    /// A uniformly shuffled flip layout.
    pub fn shuffled<R: rand::RngExt + ?Sized>(rng: &mut R) -> Layout {
        use rand::seq::SliceRandom;
        let mut pieces: Vec<Piece> = Piece::all()
            .flat_map(|p| std::iter::repeat_n(p, p.role.count() as usize))
            .collect();
        pieces.shuffle(rng);
        Layout::Shuffle(pieces.try_into().expect("50 pieces"))
    }

    /// The piece dealt face down on `p` (flip layouts).
    pub fn piece(&self, p: Point) -> Option<Piece> {
        match self {
            Layout::Shuffle(pieces) => {
                // The layout's index of `p`: the non-camp points before it.
                let i = (flip_points().0 & (p.bit() - 1)).count_ones() as usize;
                flip_points().contains(p).then(|| pieces[i])
            }
            Layout::Setups { .. } => None,
        }
    }

    /// The start this layout sets up (open and dark games).
    pub fn start(&self) -> Option<Position> {
        match self {
            Layout::Setups { red, black } => Some(Position::from_setups(red, black)),
            Layout::Shuffle(_) => None,
        }
    }

    /// Whether this layout can be the truth under `pos`: setups go with an open or dark
    /// position (at its start, exactly the setups); a flip layout with a flip position whose
    /// face-down points hold, as a multiset, its covered pool.
    pub fn fits(&self, pos: &Position) -> Result<(), Misfit> {
        match self {
            Layout::Setups { .. } => {
                if !pos.covered().is_empty() || pos.turn().is_none() {
                    return Err(Misfit(
                        "setups are the layout of an open or dark game; this is a flip position"
                            .into(),
                    ));
                }
                if pos.ply() == 0 && self.start().as_ref() != Some(pos) {
                    return Err(Misfit(
                        "the start position is not the one the setups set up".into(),
                    ));
                }
                Ok(())
            }
            Layout::Shuffle(_) => {
                let mut pool = Pool::default();
                for p in pos.covered() {
                    pool.add(
                        self.piece(p)
                            .ok_or_else(|| Misfit("a face-down piece on a camp".into()))?,
                    );
                }
                if pool != *pos.pool() {
                    return Err(Misfit(format!(
                        "the layout puts {} face down where the position has {}",
                        pool.letters(),
                        pos.pool().letters()
                    )));
                }
                Ok(())
            }
        }
    }

    /// `action` with the identity it reveals filled in from (or checked against) this layout.
    pub fn fill(&self, action: Action, pos: &Position) -> Result<Action, IllegalAction> {
        let (point, given) = match action {
            Action::Flip { point, piece } => (point, piece),
            Action::Move { to, reveal, .. } if pos.cell(to) == Cell::Covered => (to, reveal),
            _ => return Ok(action),
        };
        let Some(truth) = self
            .piece(point)
            .filter(|_| pos.cell(point) == Cell::Covered)
        else {
            return Ok(action);
        };
        if given.is_some_and(|g| g != truth) {
            return Err(IllegalAction::new(
                Violation::REVEAL_CONTRADICTS_LAYOUT,
                format!(
                    "{action} says {} but the layout has {truth} on {point}",
                    given.unwrap()
                ),
            ));
        }
        Ok(match action {
            Action::Flip { point, .. } => Action::Flip {
                point,
                piece: Some(truth),
            },
            Action::Move { from, to, .. } => Action::Move {
                from,
                to,
                reveal: Some(truth),
            },
            Action::Drop => Action::Drop,
        })
    }

    /// Another layout `seat` cannot tell from this one at `pos`: a flip layout with the
    /// face-down pieces shuffled among themselves; setups with the opponent's identities
    /// replaced by another setup consistent with what it saw (see [`super::view`]).
    pub fn shuffle_covered<R: rand::RngExt + ?Sized>(&self, pos: &Position, rng: &mut R) -> Layout {
        use rand::seq::SliceRandom;
        match self {
            Layout::Shuffle(pieces) => {
                let indexes: Vec<usize> = flip_points()
                    .enumerate()
                    .filter(|(_, p)| pos.covered().contains(*p))
                    .map(|(i, _)| i)
                    .collect();
                let mut hidden: Vec<Piece> = indexes.iter().map(|&i| pieces[i]).collect();
                hidden.shuffle(rng);
                let mut out = *pieces;
                for (i, piece) in indexes.into_iter().zip(hidden) {
                    out[i] = piece;
                }
                Layout::Shuffle(out)
            }
            Layout::Setups { .. } => self.clone(),
        }
    }
}

/// In OpenAPI: both setups (open and dark games) or the 50-letter flip layout.
#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for Layout {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Type};
        let setup = |side: &str, example: &str| {
            ObjectBuilder::new()
                .schema_type(Type::String)
                .description(Some(format!(
                    "{side}'s setup: its six ranks, the rank farthest from red first \
                     (docs/notation.md)"
                )))
                .examples([example.to_owned()])
        };
        OneOfBuilder::new()
            .item(
                ObjectBuilder::new()
                    .property("red", setup("Red", "RTETR/C1E1J/DP1PT/E1G1J/LCMBP/LFLDB"))
                    .property(
                        "black",
                        setup("Black", "lfldb/lcmbp/e1g1j/dp1pt/c1e1j/rtetr"),
                    )
                    .required("red")
                    .required("black")
                    .description(Some("Both sides' setups (open and dark games).")),
            )
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .description(Some("A flip game's 50 pieces, one letter per point.")),
            )
            .description(Some("Luzhanqi's hidden truth."))
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for Layout {
    fn name() -> std::borrow::Cow<'static, str> {
        "LuzhanqiLayout".into()
    }
}
