//! The registry of games: [`GameKind`] names each game of the toolkit, and [`with_game!`]
//! matches a kind once, at an edge (a record, a request, a command), binding the game's
//! [`Rules`] type so that everything after it is compiled for that game: no dynamic dispatch
//! and no per-ply match.
//!
//! Adding a game: docs/architecture.md has the checklist.

use std::fmt;
use std::str::FromStr;

use crate::core::replay::{RecordProblem, ReplayError, Status, Verdict};
use crate::core::text::TextFormat;
use crate::core::{Reason, Record, Summary, Violation};

pub mod banqi;
pub mod luzhanqi;
pub mod three_kingdoms;
pub mod xiangqi;

/// The registry: one line per game, in the order the toolkit lists them (the first is the
/// default game of a record or request that names none): its [`GameKind`] variant, its module
/// under `games`, and its [`Rules`] type. Everything that depends on the set of games is
/// derived from this list ([`GameKind`], [`with_game!`], the OpenAPI unions, the edges' per-game
/// examples and the batch tool's parts): adding a game is its modules and one line here.
///
/// `for_each_game!(callback)` calls `callback! { (…) Kind => module::Type, … }`, passing along
/// whatever follows a `;` in the parentheses.
#[macro_export]
macro_rules! for_each_game {
    ($($callback:ident)::+ $(; $($args:tt)*)?) => {
        $($callback)::+! { ($($($args)*)?)
            Banqi => banqi::Banqi,
            ThreeKingdoms => three_kingdoms::ThreeKingdoms,
            Luzhanqi => luzhanqi::Luzhanqi,
            Xiangqi3g => xiangqi::Xiangqi3g,
        }
    };
}

macro_rules! define_kinds {
    (() $($Kind:ident => $module:ident :: $G:ident,)+) => {
        /// A kind of game (one per line of [`for_each_game!`]).
        #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        pub enum GameKind {
            $($Kind,)+
        }

        impl GameKind {
            /// Every game, in the registry's order.
            pub const ALL: &'static [GameKind] = &[$(GameKind::$Kind,)+];
        }
    };
}

for_each_game!(define_kinds);

/// Binds `$G` to the [`Rules`] type of `$kind` and evaluates `$body`: the one place a game kind
/// is matched.
///
/// ```
/// use records::games::GameKind;
/// use records::core::Rules;
/// let name = records::with_game!(GameKind::Banqi, G => G::NAME);
/// assert_eq!(name, "banqi");
/// ```
#[macro_export]
macro_rules! with_game {
    ($kind:expr, $G:ident => $body:expr) => {
        $crate::for_each_game!($crate::__with_game_arms; $kind, $G, $body)
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __with_game_arms {
    (($kind:expr, $G:ident, $body:expr) $($Kind:ident => $module:ident :: $Ty:ident,)+) => {
        match $kind {
            $($crate::games::GameKind::$Kind => {
                #[allow(unused_imports)]
                use $crate::core::rules::parts::*;
                type $G = $crate::games::$module::$Ty;
                $body
            })+
        }
    };
}

/// Games the toolkit will play (RULES.md §7–9) but does not yet: listed, not playable.
pub const PLANNED: &[(&str, &str)] = &[];

impl GameKind {
    /// The game of a record or request that names none: the registry's first.
    pub const DEFAULT: GameKind = GameKind::ALL[0];

    /// The default game's name: what the OpenAPI document gives as a `game`'s default.
    pub fn default_name() -> &'static str {
        GameKind::DEFAULT.name()
    }

    /// The `game` value of a record.
    pub fn name(self) -> &'static str {
        with_game!(self, G => G::NAME)
    }

    pub fn title(self) -> &'static str {
        with_game!(self, G => G::TITLE)
    }

    /// The kind a record names, or the verdict's reason why there is none.
    pub fn of(record: &Record) -> Result<GameKind, ReplayError> {
        record.game.parse().map_err(|e: UnknownGame| {
            ReplayError::invalid(RecordProblem::UnsupportedGame, e.to_string())
        })
    }
}

/// The text formats of records the games declare ([`Game::TEXT_FORMATS`]: Banqi's TCGA), in
/// the registry's order.
///
/// [`Game::TEXT_FORMATS`]: crate::core::Game::TEXT_FORMATS
pub fn text_formats() -> impl Iterator<Item = &'static TextFormat> {
    GameKind::ALL
        .iter()
        .flat_map(|kind| with_game!(*kind, G => G::TEXT_FORMATS))
}

/// The text format of a text that names no format (a `text/plain` body, a file that is not
/// JSON): the first the games declare (TCGA).
pub fn default_text_format() -> &'static TextFormat {
    text_formats()
        .next()
        .expect("a game declares a text format")
}

/// The text format named `name` (`tcga`), if a game declares it.
pub fn text_format(name: &str) -> Option<&'static TextFormat> {
    text_formats().find(|format| format.name == name)
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A `game` value that names no playable game.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
pub enum UnknownGame {
    #[error("game {0:?} is planned but not supported yet; GET /v1/game-types lists the games")]
    Planned(String),
    #[error("unknown game {0:?}; the games are: {known}", known = known_names())]
    Unknown(String),
}

fn known_names() -> String {
    GameKind::ALL
        .iter()
        .map(|k| k.name())
        .collect::<Vec<_>>()
        .join(", ")
}

impl FromStr for GameKind {
    type Err = UnknownGame;
    fn from_str(s: &str) -> Result<GameKind, UnknownGame> {
        if let Some(kind) = GameKind::ALL.iter().find(|k| k.name() == s) {
            return Ok(*kind);
        }
        if PLANNED.iter().any(|(name, _)| *name == s) {
            return Err(UnknownGame::Planned(s.to_owned()));
        }
        Err(UnknownGame::Unknown(s.to_owned()))
    }
}

impl serde::Serialize for GameKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for GameKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<GameKind, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

// The record's default game is the registry's: given here, so that the core names no game.
impl Record {
    pub(crate) fn default_game() -> String {
        GameKind::DEFAULT.name().to_owned()
    }
}

/// The OpenAPI shapes that depend on the game: each is one of the games' own types (a
/// request or an answer holds the game's type itself).
#[cfg(feature = "openapi")]
macro_rules! define_unions {
    (() $($Kind:ident => $module:ident :: $G:ident,)+) => {
        /// Each game's types under the same names (what the unions below are made of).
        mod game_types {
            $(pub mod $module {
                use crate::core::rules::{Game, Scoring, Truth};
                type G = crate::games::$module::$G;
                pub type Overrides = crate::core::rules::OverridesOf<G>;
                pub type Hidden = <G as Truth>::Hidden;
                pub type View = <G as Truth>::View;
                pub type Score = <G as Scoring>::Score;
                pub type PositionScore = <G as Scoring>::PositionScore;
                pub type Ruleset = <G as Game>::Ruleset;
            })+
        }

        /// Options overriding the preset's: the game's own.
        #[derive(utoipa::ToSchema)]
        #[serde(untagged)]
        #[allow(dead_code)]
        pub enum AnyOverrides {
            $($Kind(game_types::$module::Overrides),)+
        }
        /// The hidden truth of a record (`layout`): the game's own.
        #[derive(utoipa::ToSchema)]
        #[serde(untagged)]
        #[allow(dead_code)]
        pub enum AnyLayout {
            $($Kind(game_types::$module::Hidden),)+
        }
        /// What one seat may see: the game's own view.
        #[derive(utoipa::ToSchema)]
        #[serde(untagged)]
        #[allow(dead_code)]
        pub enum AnyView {
            $($Kind(game_types::$module::View),)+
        }
        /// A scored record: the game's own score sheet.
        #[derive(utoipa::ToSchema)]
        #[serde(untagged)]
        #[allow(dead_code)]
        pub enum AnyScore {
            $($Kind(game_types::$module::Score),)+
        }
        /// What a bare position says about the score, per game.
        #[derive(utoipa::ToSchema)]
        #[serde(untagged)]
        #[allow(dead_code)]
        pub enum AnyPositionScore {
            $($Kind(game_types::$module::PositionScore),)+
        }
        /// A complete ruleset: the game's own fields.
        #[derive(utoipa::ToSchema)]
        #[serde(untagged)]
        #[allow(dead_code)]
        pub enum AnyRuleset {
            $($Kind(game_types::$module::Ruleset),)+
        }
    };
}

#[cfg(feature = "openapi")]
for_each_game!(define_unions);

/// Every end reason of every game: the shared ones, then each game's own.
pub fn all_reasons() -> Vec<Reason> {
    let mut all = Reason::SHARED.to_vec();
    for kind in GameKind::ALL {
        all.extend_from_slice(with_game!(*kind, G => G::REASONS));
    }
    all
}

/// An ending of `kind` in words, from its code (`no_progress` → `the no-progress rule`, a
/// xiangqi `checkmate` → `checkmate`); None for a code no game has.
pub fn ending_words(kind: GameKind, code: &str) -> Option<&'static str> {
    let reason = all_reasons().into_iter().find(|r| r.code() == code)?;
    Some(with_game!(kind, G => G::ending(reason)))
}

/// An ending of `kind` in words (`player 2 won by checkmate`).
pub fn end_words(kind: GameKind, end: crate::core::End) -> String {
    with_game!(kind, G => crate::core::words::end::<G>(end))
}

/// Every violation code of every game: the shared ones, then each game's own.
pub fn all_violations() -> Vec<Violation> {
    let mut all = Violation::SHARED.to_vec();
    for kind in GameKind::ALL {
        all.extend_from_slice(with_game!(*kind, G => G::VIOLATIONS));
    }
    all
}

// Reading a reason from JSON needs every game's list: it is here, in the registry, rather than
// in the core next to the type.
impl<'de> serde::Deserialize<'de> for Reason {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Reason, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        let all = all_reasons();
        all.iter().find(|r| r.code() == s).copied().ok_or_else(|| {
            let known: Vec<&str> = all.iter().map(|r| r.code()).collect();
            serde::de::Error::custom(format!(
                "unknown reason {s:?}; expected one of {}",
                known.join(", ")
            ))
        })
    }
}

#[cfg(feature = "openapi")]
fn code_schema(
    codes: Vec<&'static str>,
    description: &str,
) -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    use utoipa::openapi::schema::{ObjectBuilder, SchemaType, Type};
    ObjectBuilder::new()
        .schema_type(SchemaType::new(Type::String))
        .enum_values(Some(codes))
        .description(Some(description))
        .into()
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for Reason {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        code_schema(
            all_reasons().iter().map(|r| r.code()).collect(),
            "Why a game ended: the shared reasons, then each game's own (docs/records.md).",
        )
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for Reason {}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for Violation {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        code_schema(
            all_violations().iter().map(|v| v.code()).collect(),
            "Why an action is illegal: the shared codes, then each game's own (docs/records.md).",
        )
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for Violation {}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for GameKind {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        code_schema(
            GameKind::ALL.iter().map(|k| k.name()).collect(),
            "A kind of game (GET /v1/game-types lists them).",
        )
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for GameKind {}

/// Validates a record of any game: the verdict (an unknown game is an invalid record).
pub fn validate(record: &Record) -> Verdict {
    match GameKind::of(record) {
        Ok(kind) => with_game!(kind, G => crate::core::replay::validate::<G>(record)),
        Err(error) => Verdict {
            valid: false,
            plies: 0,
            derived: Status::Ongoing,
            final_position: String::new(),
            error: Some(error),
        },
    }
}

/// Replays a record of any game: the position strings after every ply, and the verdict.
pub fn replay(record: &Record) -> (Vec<String>, Verdict) {
    match GameKind::of(record) {
        Ok(kind) => with_game!(kind, G => {
            let (positions, verdict) = crate::core::replay::replay::<G>(record);
            (positions.iter().map(|p| p.to_string()).collect(), verdict)
        }),
        Err(_) => (Vec::new(), validate(record)),
    }
}

/// Replays, scores and summarises a record of any game (the record store keeps this).
pub fn summarize(record: &Record) -> Result<Summary, ReplayError> {
    summarize_to(record, 0)
}

/// [`summarize`], with the first `depth` plies as every seat saw them (the opening explorer's).
pub fn summarize_to(record: &Record, depth: u32) -> Result<Summary, ReplayError> {
    let kind = GameKind::of(record)?;
    with_game!(kind, G => crate::core::scoring::summarize_to::<G>(record, depth))
}

/// The record in canonical form, as JSON (see [`crate::core::canonical_json`]); an error
/// when its game or options cannot be read.
pub fn canonical_json(record: &Record) -> Result<String, ReplayError> {
    let kind = GameKind::of(record)?;
    with_game!(kind, G => crate::core::canonical_json::<G>(record))
        .map_err(|e| ReplayError::invalid(RecordProblem::InvalidRuleset, e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_round_trip_and_planned_games_are_named() {
        for kind in GameKind::ALL {
            assert_eq!(kind.name().parse::<GameKind>(), Ok(*kind));
        }
        assert!(matches!(
            "chess".parse::<GameKind>(),
            Err(UnknownGame::Unknown(_))
        ));
    }

    #[test]
    fn every_code_is_unique() {
        let mut reasons: Vec<&str> = all_reasons().iter().map(|r| r.code()).collect();
        let n = reasons.len();
        reasons.sort();
        reasons.dedup();
        assert_eq!(reasons.len(), n, "a reason code means one thing");
        let mut violations: Vec<&str> = all_violations().iter().map(|v| v.code()).collect();
        let n = violations.len();
        violations.sort();
        violations.dedup();
        assert_eq!(violations.len(), n, "a violation code means one thing");
    }

    #[test]
    fn reasons_read_from_json() {
        let r: Reason = serde_json::from_str("\"no_move\"").unwrap();
        assert_eq!(r, Reason::NO_MOVE);
        let e = serde_json::from_str::<Reason>("\"no_mov\"").unwrap_err();
        assert!(e.to_string().contains("unknown reason"), "{e}");
    }
}
