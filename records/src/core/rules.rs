//! The [`Rules`] of a kind of game: its types and the operations the game-generic layer
//! (replay, scoring, views, the service, the batch tool) needs. One implementation per game,
//! on a marker type (`games::banqi::Banqi`); generic code is compiled once per game, so
//! nothing is dispatched per ply.

use std::fmt::{Debug, Display};
use std::str::FromStr;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use thiserror::Error;

use super::analysis::Search;
use super::outcome::{End, Outcome, Reason};
use super::record::Record;
use super::scoring::{Credit, Opening, ScoreError, Table};
use super::seat::Seat;
use super::text::TextFormat;
use super::violation::{IllegalAction, Violation};
use super::words::Words;

pub mod visibility;
pub use visibility::{Masked, Told, Unmasked, Visibility};

/// A kind of game and its notation: its name, rulesets as data, and how positions and actions
/// are written.
pub trait Game: Sized + Send + Sync + 'static {
    /// The `game` value of a record (`banqi`).
    const NAME: &'static str;

    /// The game's name for people.
    const TITLE: &'static str;

    /// The game's own end reasons (besides [`Reason::SHARED`]).
    const REASONS: &'static [Reason] = &[];

    /// The game's own violation codes (besides [`Violation::SHARED`]).
    const VIOLATIONS: &'static [Violation];

    /// A complete ruleset: plain data, every option a field.
    type Ruleset: Copy + Debug + PartialEq + Serialize + Send + Sync + 'static + RulesetFields;

    /// A position: read from its string (`FromStr`, whose error says whether the string is
    /// malformed or the position impossible), written with `Display`.
    type Position: Clone
        + Debug
        + Display
        + PartialEq
        + Send
        + Sync
        + Turn
        + FromStr<Err: Into<PositionProblem>>;

    type Action: Clone + Debug + PartialEq + Notation;

    /// What a legal action did (for history, scoring and answers).
    type Effect: Copy + Debug;

    /// The game's match: the position with the history its rules need, which plays.
    type Match: Engine<Self>;

    /// The game's own text formats for records (Banqi: TCGA), besides JSON.
    const TEXT_FORMATS: &'static [TextFormat] = &[];

    /// The named rulesets; the first is the default of a record without `preset`.
    const PRESETS: &'static [Preset<Self::Ruleset>];

    /// What each option means and where it comes from (the ruleset's, from [`ruleset!`]).
    fn options() -> &'static [OptionInfo] {
        <Self::Ruleset as RulesetFields>::OPTIONS
    }

    /// `base` with `overrides` applied and checked.
    fn apply(
        base: Self::Ruleset,
        overrides: &OverridesOf<Self>,
    ) -> Result<Self::Ruleset, RulesetError> {
        base.with(overrides)
    }

    /// The most plies a game from the start can last under `rules`, when they bound it: a
    /// ply cap (`max_plies`, an option of every game), or a no-progress limit where only
    /// finitely many plies make progress (each flips or removes a piece). None: a game may go
    /// on for ever. The referee caps every game it deals at its `--max-plies`
    /// (docs/api.md).
    fn longest(rules: &Self::Ruleset) -> Option<u32>;

    /// How many seats play (2 or 3).
    fn seats(rules: &Self::Ruleset) -> u8 {
        let _ = rules;
        2
    }

    fn parse_position(text: &str) -> Result<Self::Position, PositionProblem> {
        text.parse().map_err(Into::into)
    }

    /// Whether `pos` can be played under `rules`: a position string may say something only
    /// a ruleset also says (Three Kingdoms names its faction split once a faction is claimed).
    fn position_fits(rules: &Self::Ruleset, pos: &Self::Position) -> Result<(), Misfit> {
        let _ = (rules, pos);
        Ok(())
    }

    /// An action in notation; a failure is a [`Violation::MALFORMED_NOTATION`].
    fn parse_action(text: &str) -> Result<Self::Action, IllegalAction> {
        // The parse error stays typed until it is put in words: a `String` in between cost
        // Banqi's corpus replay 6% (criterion, side by side).
        Self::Action::from_notation(text)
            .map_err(|e| IllegalAction::new(Violation::MALFORMED_NOTATION, e.to_string()))
    }

    /// A short code for what an action did (`flip`, `move`, `capture` …).
    fn effect_code(effect: &Self::Effect) -> &'static str;

    /// Whether no position before a ply with `effect` can come back (a flip, a capture): what
    /// repetition rules forget, and the opening explorer's history with them. By default
    /// anything but a plain move.
    fn irreversible(effect: &Self::Effect) -> bool {
        Self::effect_code(effect) != "move"
    }
}

/// The engine, as methods on a game's match (the position with the history its rules need):
/// its legal actions and play.
pub trait Engine<G: Game>: Clone + Send + Sized {
    /// A match from a bare position: its history is unknown, so it starts empty.
    fn from_position(rules: G::Ruleset, start: G::Position) -> Self;

    fn position(&self) -> &G::Position;

    /// How the game has ended by the rules, if it has.
    fn end(&self) -> Option<End>;

    /// [`Engine::end`] for a side to move that has a legal action (it is about to play one):
    /// the endings that need no search for one. None when the game cannot tell them apart
    /// more cheaply (replay then asks [`Engine::end`] before every ply). A game that answers
    /// must leave its match unchanged when [`Engine::play`] refuses an action: replay then
    /// asks [`Engine::end`] whether the game had in fact ended.
    fn end_when_movable(&self) -> Option<Option<End>> {
        None
    }

    /// Every legal action, written to `out` (cleared first); revealed identities left out.
    fn legal_actions(&self, out: &mut Vec<G::Action>);

    /// Plays a legal action whose revealed identities are given; it does not check whether
    /// the game has ended (ask [`Engine::end`] first).
    fn play(&mut self, action: &G::Action) -> Result<G::Effect, IllegalAction>;

    /// Whether `seat` is still playing (a three-seat game puts seats out and plays on).
    fn still_playing(&self, seat: Seat) -> bool {
        let _ = seat;
        true
    }

    /// How the game ends when `seat`, still playing, leaves it while it is going on (a
    /// resignation, a flag fall, a claim against its silence): two seats, the other wins.
    fn conceded(&self, seat: Seat) -> Outcome {
        Outcome::win(Seat::all(2).find(|s| *s != seat).unwrap_or(Seat::FIRST), 2)
    }

    /// How the game ends when the seats still playing agree to a draw.
    fn agreed_draw(&self) -> Outcome {
        Outcome::draw(2)
    }
}

/// Whose turn a position is, and how far the game has come.
pub trait Turn {
    /// The seat to move.
    fn to_move(&self) -> Seat;

    /// Plies played to reach the position (every game's position string ends with it).
    fn ply(&self) -> u32;
}

/// The hidden truth (what a dealer or referee knows and the players do not) and what each
/// seat may see.
pub trait Truth: Game {
    /// The position a game starts from: the standard start, or the one the hidden truth sets
    /// up (Luzhanqi's open and dark games start from the two setups); an error when the game
    /// has no start without the hidden truth.
    fn start(
        rules: &Self::Ruleset,
        hidden: Option<&Self::Hidden>,
    ) -> Result<Self::Position, NoStart>;

    /// What positions of a game under `rules` let each seat see (default: a hidden truth, public
    /// position strings).
    fn visibility(rules: &Self::Ruleset) -> Visibility {
        let _ = rules;
        Visibility::Covered
    }

    type Hidden: Clone + Debug + PartialEq + Send + Sync;

    /// What one seat may see ([`Truth::view`]).
    type View: Serialize;

    /// The hidden truth as a record's `layout` holds it.
    fn parse_hidden(value: &Value) -> Result<Self::Hidden, InvalidHidden>;

    fn hidden_value(hidden: &Self::Hidden) -> Value;

    /// Whether `hidden` can be the truth under `pos`.
    fn hidden_fits(hidden: &Self::Hidden, pos: &Self::Position) -> Result<(), Misfit>;

    /// Fills in (or checks against `hidden`, when known) every identity `action` reveals.
    fn reveal(
        action: Self::Action,
        pos: &Self::Position,
        hidden: Option<&Self::Hidden>,
    ) -> Result<Self::Action, IllegalAction>;

    /// A random hidden truth for a new game (a deal, random legal setups).
    fn deal<R: rand::RngExt + ?Sized>(rules: &Self::Ruleset, rng: &mut R) -> Self::Hidden;

    /// Another hidden truth that `seat` cannot tell from `hidden` once `m` is played: the tests
    /// of what a seat may see compare the answers for both.
    fn disguise<R: rand::RngExt + ?Sized>(
        hidden: &Self::Hidden,
        m: &Self::Match,
        seat: Seat,
        rng: &mut R,
    ) -> Self::Hidden;

    /// What `seat` may see of the match.
    fn view(m: &Self::Match, seat: Seat) -> Self::View;

    /// What a position that holds what some seat may not see is told as (see
    /// [`visibility`](super::visibility)); [`Unmasked`] where positions are always told.
    type Masked: Masked<Self::Action>;

    /// What `seat` is told of the match's position (answers to a player, a caller with a sealed
    /// token, give this): the position itself unless the game's positions hold what the seat may
    /// not see ([`Visibility::Secret`]).
    fn told(m: &Self::Match, seat: Seat) -> Told<Self> {
        let _ = seat;
        Told::Position(m.position().clone())
    }

    /// What every seat sees of `pos` under `rules` (the opening explorer's position): the
    /// position itself unless positions hold what some seat may not see.
    fn public(rules: &Self::Ruleset, pos: &Self::Position) -> Told<Self> {
        let _ = rules;
        Told::Position(pos.clone())
    }

    /// The text of [`Truth::public`] (its `Display`), appended to `out`: the opening explorer
    /// hashes it for every ply it walks, and a game writes it without a formatter where that
    /// is cheap (the same bytes: `records/tests/explorer_nodes.rs`).
    fn write_public(rules: &Self::Ruleset, pos: &Self::Position, out: &mut Vec<u8>) {
        use std::io::Write as _;
        let _ = write!(out, "{}", Self::public(rules, pos));
    }

    /// Whether `text` is written as an action as every seat saw it (what the opening explorer
    /// is asked): its notation only, not whether some position allows it. By default the
    /// action's notation.
    fn check_public_action(rules: &Self::Ruleset, text: &str) -> Result<(), String> {
        let _ = rules;
        Self::Action::from_notation(text)
            .map(drop)
            .map_err(|e| e.to_string())
    }

    /// `action`, played with `effect` and leading to `after`, as every seat saw it: by default
    /// its notation with the identities it revealed (a flip's piece, which every seat then
    /// sees). It fixes the public position it leads to: the explorer keeps one next position
    /// per action.
    fn public_action(
        rules: &Self::Ruleset,
        action: &Self::Action,
        effect: &Self::Effect,
        after: &Self::Position,
    ) -> String {
        let _ = (rules, effect, after);
        action.to_string()
    }
}

/// Results: what each ply captured, credited to seats, and the game's scoring.
pub trait Scoring: Game {
    /// The game's scoring of a record, as the service and `anqi score` give it.
    type Score: Serialize;

    /// The game's scoring of a bare position.
    type PositionScore: Serialize;

    /// Whether the game is played for coins (a table's stake and bonus settle it): Banqi is;
    /// the others are not, and their scores say nothing of coins.
    const COINS: bool = false;

    /// Whether a stated rules ending names the derived one (equality, unless the game's
    /// record formats write two endings alike).
    fn reason_matches(stated: Reason, derived: Reason) -> bool {
        stated == derived
    }

    /// What a start position says was captured before it, credited to seats (a game from
    /// the standard start credits nothing).
    fn start_credits(start: &Self::Position, credit: impl FnMut(Credit)) {
        let _ = (start, credit);
    }

    /// The pieces a ply captured, each credited to a seat.
    fn credits(
        before: &Self::Position,
        after: &Self::Position,
        effect: &Self::Effect,
        credit: impl FnMut(Credit),
    );

    /// Whether a ply is a feat a table played for coins tallies for its mover (Banqi's
    /// 小兵立大功: its last soldier took the enemy general); none unless the game has one.
    fn feat(action: &Self::Action, before: &Self::Position, after: &Self::Position) -> bool {
        let _ = (action, before, after);
        false
    }

    /// What the first plies (up to two, as played) decide (see [`Opening`]); nothing unless the
    /// game has such a rule.
    fn opening(record: &Record, first_plies: &[(Self::Action, Self::Effect)]) -> Opening {
        let _ = (record, first_plies);
        Opening::default()
    }

    /// Replays and scores `record`; a game played for coins settles it at `table`, with
    /// `draws_carried` drawn games before it.
    fn score(record: &Record, table: &Table, draws_carried: u32)
    -> Result<Self::Score, ScoreError>;

    /// What a bare position says about the score (material, points won so far).
    fn score_position(pos: &Self::Position) -> Self::PositionScore;

    /// The side a seat plays at `pos` (a colour, a faction), once known.
    fn side(pos: &Self::Position, seat: Seat) -> Option<&'static str>;
}

/// Pictures of positions (what a seat is told is drawn by [`Told::svg`]).
pub trait Pictures: Truth {
    /// The position as an SVG picture, the last action's squares marked.
    fn svg(pos: &Self::Position, last: Option<&Self::Action>) -> String;

    /// Where each point of the board is on [`Pictures::svg`]'s picture, in its own
    /// coordinates: its name (as actions write it), its centre, and how far from the centre a
    /// click still means it (the page `/play/` lays its hit areas over the picture).
    fn points() -> Vec<(String, u32, u32, u32)>;
}

/// A kind of game, all its parts: what the game-generic layer (replay, scoring, views, the
/// service, the batch tool) asks of a game. Implemented for every type that implements the six
/// parts.
pub trait Rules: Game + Truth + Scoring + Pictures + Search + Words {}

/// The five parts in scope at once, for code that names a game's type (`use
/// records::core::rules::parts::*;`): a concrete type's associated items need their trait in
/// scope (generic code bounded by [`Rules`] has them already).
pub mod parts {
    pub use super::{
        Engine as _, Game as _, Pictures as _, Rules, Scoring as _, Truth as _, Turn as _,
    };
    pub use crate::core::analysis::Search as _;
    pub use crate::core::words::Words as _;
}

impl<G: Game + Truth + Scoring + Pictures + Search + Words> Rules for G {}

/// A type written in a game's notation: read with `FromStr` (its error said in words), written
/// with `Display`.
pub trait Notation: Display + Sized {
    type Error: Display;
    fn from_notation(text: &str) -> Result<Self, Self::Error>;
}

impl<T: std::str::FromStr + Display> Notation for T
where
    T::Err: Display,
{
    type Error = T::Err;
    #[inline]
    fn from_notation(text: &str) -> Result<T, T::Err> {
        text.parse()
    }
}

/// A named ruleset.
#[derive(Copy, Clone, Debug, Serialize)]
pub struct Preset<R: 'static> {
    pub name: &'static str,
    pub title: &'static str,
    pub ruleset: R,
}

/// One option of a ruleset, for people: what it means and where it comes from.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OptionInfo {
    /// The field name in a ruleset and in a record's `options`.
    pub name: &'static str,
    /// `boolean`, `limit` (a number, or null for off), or the option's own kind of value
    /// (Banqi: `cannon`, `repetition`).
    pub kind: &'static str,
    pub meaning: &'static str,
    /// Where the rule comes from.
    pub source: &'static str,
}

/// Why a record's preset and options do not make a ruleset.
#[derive(Error, Debug, Clone, PartialEq, Eq)]
pub enum RulesetError {
    #[error("unknown preset {name:?}; known presets: {known}")]
    UnknownPreset { name: String, known: String },
    /// The options are not the game's (an unknown option, a value of the wrong type).
    #[error("invalid options: {0}")]
    Malformed(String),
    /// Well-formed options that make an impossible ruleset.
    #[error("invalid ruleset: {0}")]
    Invalid(String),
}

/// Why a hidden truth (a record's `layout`) is not written as the game writes it.
#[derive(Error, Debug, Clone, PartialEq, Eq)]
#[error("{0}")]
pub struct InvalidHidden(pub String);

/// Why a game has no start here: under its ruleset it starts from what the hidden truth sets
/// up (a dark Luzhanqi game's two setups), and none, or another kind, was given.
#[derive(Error, Debug, Clone, PartialEq, Eq)]
#[error("{0}")]
pub struct NoStart(pub String);

/// Why a well-formed position or hidden truth cannot be played as given: the position says
/// what the ruleset does not ([`Rules::position_fits`]), or the hidden truth cannot be the
/// truth under it ([`Rules::hidden_fits`]).
#[derive(Error, Debug, Clone, PartialEq, Eq)]
#[error("{0}")]
pub struct Misfit(pub String);

/// Why a position string is not a position: it does not parse, or it describes a state the
/// rules cannot reach.
#[derive(Error, Debug, Clone, PartialEq, Eq)]
pub enum PositionProblem {
    #[error("{0}")]
    Malformed(String),
    #[error("{0}")]
    Impossible(String),
}

/// Reading a position string: a syntax error (what `S` says, the game's setup) or a position
/// its rules reject (`I`). Each game names its own (`banqi::ParsePositionError`).
#[derive(Error, Debug, Clone, PartialEq, Eq)]
pub enum ParsePositionError<S, I> {
    #[error(transparent)]
    Syntax(S),
    #[error(transparent)]
    Invalid(I),
}

impl<S, I> ParsePositionError<S, I> {
    /// A position read as its game reads it: the text as a setup (`Setup: FromStr`), then
    /// the setup checked into a position (`check`).
    pub fn parse<Setup: FromStr<Err = S>, P>(
        text: &str,
        check: impl FnOnce(&Setup) -> Result<P, I>,
    ) -> Result<P, ParsePositionError<S, I>> {
        let setup: Setup = text.parse().map_err(ParsePositionError::Syntax)?;
        check(&setup).map_err(ParsePositionError::Invalid)
    }
}

impl<S: Display, I: Display> From<ParsePositionError<S, I>> for PositionProblem {
    fn from(e: ParsePositionError<S, I>) -> PositionProblem {
        match e {
            ParsePositionError::Syntax(e) => PositionProblem::Malformed(e.to_string()),
            ParsePositionError::Invalid(e) => PositionProblem::Impossible(e.to_string()),
        }
    }
}

/// The preset named `name` among `presets`, the first when no name is given.
pub fn find_preset<R>(
    presets: &'static [Preset<R>],
    name: Option<&str>,
) -> Result<&'static Preset<R>, RulesetError> {
    let Some(name) = name else {
        return Ok(&presets[0]);
    };
    presets
        .iter()
        .find(|p| p.name == name)
        .ok_or_else(|| RulesetError::UnknownPreset {
            name: name.to_owned(),
            known: presets
                .iter()
                .map(|p| p.name)
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// The ruleset of `preset` (the game's first preset when absent) with `options` parsed as the
/// game's overrides, strictly (an unknown option is an error).
pub fn ruleset<G: Rules>(
    preset: Option<&str>,
    options: &Map<String, Value>,
) -> Result<G::Ruleset, RulesetError> {
    let base = find_preset(G::PRESETS, preset)?;
    let overrides = overrides::<G>(options)?;
    G::apply(base.ruleset, &overrides)
}

/// A record's `options` as the game's overrides.
pub fn overrides<G: Rules>(options: &Map<String, Value>) -> Result<OverridesOf<G>, RulesetError> {
    if options.is_empty() {
        return Ok(OverridesOf::<G>::default());
    }
    serde_json::from_value(Value::Object(options.clone()))
        .map_err(|e| RulesetError::Malformed(e.to_string()))
}

/// [`Game::longest`] for a game in which at most `progress` plies make progress (flip or
/// remove a piece) and a `quiet_limit` of consecutive plies without progress ends the game:
/// at most `quiet_limit` plies before the first progress ply, between two, and after the
/// last. A cap (`max_plies`) bounds it too; with neither, None.
pub fn longest(progress: u32, quiet_limit: Option<u16>, cap: Option<u16>) -> Option<u32> {
    let quiet = quiet_limit.map(|n| progress + (progress + 1) * n as u32);
    match (quiet, cap.map(u32::from)) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The items of [`Game`] that every game module names the same way: its `Ruleset`, `Position`,
/// `Match`, `Action` and `Effect` types, its `PRESETS`, and its `violations::REASONS` and
/// `violations::VIOLATIONS`. A game's `impl Game` writes `records::game_items!();` and then
/// only what is its own (its name, its title, its text formats, how a position fits a
/// ruleset, what an effect is called).
#[macro_export]
macro_rules! game_items {
    () => {
        const REASONS: &'static [$crate::core::Reason] = super::violations::REASONS;
        const VIOLATIONS: &'static [$crate::core::Violation] = super::violations::VIOLATIONS;
        const PRESETS: &'static [$crate::core::Preset<Ruleset>] = PRESETS;
        type Ruleset = Ruleset;
        type Position = Position;
        type Match = Match;
        type Action = Action;
        type Effect = Effect;
    };
}

/// Declares a game's ruleset once: each option's field (its doc is its meaning), its override,
/// its part of the merge and its description for people (`GET /v1/options`) come from one
/// entry.
///
/// ```text
/// ruleset! {
///     /// A complete ruleset.                     (attributes of the ruleset, besides the derives)
///     pub struct Ruleset;
///     /// Overrides of a preset's options.        (attributes of the overrides)
///     pub struct Overrides;
///     pub const OPTIONS;
///     chariot_rush: bool, "boolean", "seed 000", "車衝: a chariot moves any distance …";
///     no_progress: Option<u16>, "limit", "RULES.md §1", "A draw after …";
/// }
/// ```
///
/// The macro derives what every ruleset and its overrides need (`Copy`, `Eq`, `Hash`, serde,
/// the OpenAPI schema; the overrides refuse unknown fields); the attributes given add to them
/// (docs, a schema name). An option of type `Option<T>` is a limit: `null` in a record's
/// options turns it off. For
/// any other option `null` means the same as leaving it out. The macro writes
/// `Ruleset::overridden` (the merge, unchecked), `Ruleset::with` (merged and checked) and
/// [`RulesetFields`], from which [`Game::options`] and [`Game::apply`] follow; the game writes
/// `Ruleset::check`, what makes a merged ruleset impossible.
#[macro_export]
macro_rules! ruleset {
    (
        $(#[$rmeta:meta])*
        pub struct $Ruleset:ident;
        $(#[$ometa:meta])*
        pub struct $Overrides:ident;
        pub const $OPTIONS:ident;
        $(
            $(#[$fmeta:meta])*
            $field:ident : $ty:ty, $kind:literal, $source:literal, $meaning:literal;
        )+
    ) => {
        #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
        #[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
        $(#[$rmeta])*
        pub struct $Ruleset {
            $(
                $(#[$fmeta])*
                #[doc = $meaning]
                pub $field: $ty,
            )+
        }

        #[derive(Clone, PartialEq, Eq, Debug, Default, serde::Serialize, serde::Deserialize)]
        #[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
        #[serde(deny_unknown_fields)]
        $(#[$ometa])*
        pub struct $Overrides {
            $(
                #[serde(
                    default,
                    skip_serializing_if = "Option::is_none",
                    with = "crate::core::rules::override_field"
                )]
                pub $field: Option<$ty>,
            )+
        }

        impl $Ruleset {
            /// This ruleset with every option `overrides` gives replaced (not checked).
            pub fn overridden(mut self, overrides: &$Overrides) -> $Ruleset {
                $(
                    if let Some(v) = overrides.$field {
                        self.$field = v;
                    }
                )+
                self
            }

            /// This ruleset with `overrides` applied and checked (by the game's `check`).
            pub fn with(self, overrides: &$Overrides) -> Result<$Ruleset, $crate::core::RulesetError> {
                let rules = self.overridden(overrides);
                rules.check()?;
                Ok(rules)
            }
        }

        impl $crate::core::rules::RulesetFields for $Ruleset {
            type Overrides = $Overrides;
            const OPTIONS: &'static [$crate::core::OptionInfo] = $OPTIONS;
            fn with(self, overrides: &$Overrides) -> Result<$Ruleset, $crate::core::RulesetError> {
                $Ruleset::with(self, overrides)
            }
        }

        /// Every option of the ruleset, in the order of its fields: what it means and where it
        /// comes from (`GET /v1/options`).
        pub const $OPTIONS: &[$crate::core::OptionInfo] = &[$(
            $crate::core::OptionInfo {
                name: stringify!($field),
                kind: $kind,
                meaning: $meaning,
                source: $source,
            },
        )+];
    };
}

/// A ruleset declared with [`ruleset!`]: its overrides, their checked merge and the options'
/// texts. The game writes only `Ruleset::check`, what makes a merged ruleset impossible.
pub trait RulesetFields: Sized {
    /// A record's `options`: the fields that override a preset's.
    type Overrides: Serialize + DeserializeOwned + Default + PartialEq + Debug;
    const OPTIONS: &'static [OptionInfo];
    /// This ruleset with `overrides` applied and checked.
    fn with(self, overrides: &Self::Overrides) -> Result<Self, RulesetError>;
}

/// A game's overrides: its ruleset's.
pub type OverridesOf<G> = <<G as Game>::Ruleset as RulesetFields>::Overrides;

/// How an option's value reads when a record's options give `null`: a limit (`Option<T>`) is
/// turned off; any other option is left as the preset has it.
pub trait OptionValue: Sized {
    fn from_json<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Self>, D::Error>;
}

impl<T: serde::de::DeserializeOwned> OptionValue for Option<T> {
    fn from_json<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Self>, D::Error> {
        use serde::Deserialize;
        Option::<T>::deserialize(d).map(Some)
    }
}

/// Marks the types of options that are not limits (see [`OptionValue`]).
#[macro_export]
macro_rules! option_values {
    ($($ty:ty),+ $(,)?) => {
        $(impl $crate::core::rules::OptionValue for $ty {
            fn from_json<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Self>, D::Error> {
                <Option<$ty> as serde::Deserialize>::deserialize(d)
            }
        })+
    };
}

option_values!(bool);

/// Serde for a ruleset's overrides (see [`ruleset!`]): absent → None; `null` → a limit
/// turned off, or None for other options; a value → Some.
pub mod override_field {
    use serde::{Deserializer, Serialize, Serializer};

    pub fn serialize<T: Serialize, S: Serializer>(v: &Option<T>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(inner) => inner.serialize(s),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, T: super::OptionValue, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<T>, D::Error> {
        T::from_json(d)
    }
}
