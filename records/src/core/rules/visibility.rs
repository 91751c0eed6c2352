//! What each seat may see: per ruleset, whether a game hides anything and whether its position
//! strings may be told ([`Visibility`]); per position, what one seat is told of it and how that
//! is drawn ([`Told`]).
//!
//! A game whose position strings never hold a secret (Banqi writes a covered piece `X`;
//! xiangqi-3g writes a back the seat may not see `?`, which is still a position) tells a seat a
//! position. Only a game whose hidden truth is part of the position itself (a dark Luzhanqi
//! game: the referee's position names every enemy piece) tells a seat something that is not a
//! position: its [`Truth::Masked`] type, which cannot be played from but can be written, read
//! back and drawn.

use std::fmt::{self, Display};

use super::{Pictures, PositionProblem, Truth};

/// What a game's positions let each seat see, per ruleset.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Visibility {
    /// Nothing is hidden (plain xiangqi): records carry no layout.
    Open,
    /// A hidden truth, but position strings are public (Banqi's covered pieces are written
    /// `X`): anybody may be told a position.
    Covered,
    /// Position strings hold what a seat may not see (a dark Luzhanqi game, third-generation
    /// xiangqi's backs): a seat is told only what [`Truth::told`] gives it.
    Secret,
}

impl Visibility {
    /// Whether games have a hidden truth at all (a record's `layout`).
    pub fn has_hidden(self) -> bool {
        self != Visibility::Open
    }

    /// Whether a position string may hold what a seat may not see.
    pub fn secret(self) -> bool {
        self == Visibility::Secret
    }
}

/// A position as a seat is told it when the game's position cannot be told at all (see the
/// module): written and read in the game's notation, and drawn.
pub trait Masked<A>: Clone + Display + Sized {
    /// Reads a masked position; None when `text` is not written as one (it may be a position).
    fn parse_masked(text: &str) -> Option<Result<Self, PositionProblem>>;

    /// The picture, the last action's points marked.
    fn svg(&self, last: Option<&A>) -> String;
}

/// The masked type of a game that always tells positions: it has no values.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Unmasked {}

impl Display for Unmasked {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {}
    }
}

impl<A> Masked<A> for Unmasked {
    fn parse_masked(_: &str) -> Option<Result<Self, PositionProblem>> {
        None
    }

    fn svg(&self, _: Option<&A>) -> String {
        match *self {}
    }
}

/// What one seat is told of a position: a position (masked by the game where it hides
/// something), or the game's masked position.
pub enum Told<G: Truth> {
    Position(G::Position),
    Masked(G::Masked),
}

impl<G: Truth> Told<G> {
    /// Reads what a seat was told: the game's masked position when `text` is written as one,
    /// else a position.
    pub fn parse(text: &str) -> Result<Self, PositionProblem> {
        match G::Masked::parse_masked(text) {
            Some(masked) => masked.map(Told::Masked),
            None => G::parse_position(text).map(Told::Position),
        }
    }
}

impl<G: Truth + Pictures> Told<G> {
    /// The picture, the last action's points marked.
    pub fn svg(&self, last: Option<&G::Action>) -> String {
        match self {
            Told::Position(pos) => G::svg(pos, last),
            Told::Masked(masked) => masked.svg(last),
        }
    }
}

impl<G: Truth> Display for Told<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Told::Position(pos) => pos.fmt(f),
            Told::Masked(masked) => masked.fmt(f),
        }
    }
}

impl<G: Truth> Clone for Told<G> {
    fn clone(&self) -> Self {
        match self {
            Told::Position(pos) => Told::Position(pos.clone()),
            Told::Masked(masked) => Told::Masked(masked.clone()),
        }
    }
}
