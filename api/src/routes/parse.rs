//! The parsing every route shares (game, ruleset, position, action, hidden truth), each
//! failure mapped to its problem.

use records::core::{PositionProblem, Rules, RulesetError};
use records::games::GameKind;
use serde_json::{Map, Value};

use crate::problem::{Problem, ProblemKind};

/// The kind of game a request names (`game`; the registry's default when absent).
pub(crate) fn game_kind(name: &str) -> Result<GameKind, Problem> {
    name.parse().map_err(|e: records::games::UnknownGame| {
        Problem::new(ProblemKind::UnknownGame, e.to_string()).field("game")
    })
}

pub(crate) fn default_game() -> String {
    GameKind::DEFAULT.name().to_owned()
}

/// The ruleset a request names: a preset of the game (its first when absent) and options.
pub(crate) fn ruleset<G: Rules>(
    preset: Option<&str>,
    options: &Map<String, Value>,
) -> Result<G::Ruleset, Problem> {
    records::core::rules::ruleset::<G>(preset, options).map_err(ruleset_problem)
}

/// The problem of a preset and options that make no ruleset.
pub(crate) fn ruleset_problem(e: RulesetError) -> Problem {
    match e {
        RulesetError::UnknownPreset { .. } => {
            Problem::new(ProblemKind::UnknownPreset, e.to_string()).field("preset")
        }
        // The document's options are any game's: being this game's is semantic (422).
        RulesetError::Malformed(_) | RulesetError::Invalid(_) => {
            Problem::new(ProblemKind::InvalidRuleset, e.to_string()).field("options")
        }
    }
}

/// The position a request gives; when absent, the game's start (which in Luzhanqi's open and
/// dark games the hidden truth, the two setups, sets up).
pub(crate) fn position<G: Rules>(
    text: Option<&str>,
    rules: &G::Ruleset,
    hidden: Option<&G::Hidden>,
) -> Result<G::Position, Problem> {
    let Some(text) = text else {
        // No start without the hidden truth it needs (a dark Luzhanqi game's setups).
        return G::start(rules, hidden).map_err(|e| {
            Problem::new(ProblemKind::InvalidPosition, e.to_string()).field("layout")
        });
    };
    let pos = parsed_position::<G>(text)?;
    G::position_fits(rules, &pos)
        .map_err(|e| Problem::new(ProblemKind::InvalidPosition, e.to_string()).field("position"))?;
    Ok(pos)
}

/// A position string, parsed and checked as a position (not against a ruleset).
pub(crate) fn parsed_position<G: Rules>(text: &str) -> Result<G::Position, Problem> {
    G::parse_position(text).map_err(position_problem)
}

/// The problem of a `position` field that cannot be read.
pub(crate) fn position_problem(e: PositionProblem) -> Problem {
    match e {
        PositionProblem::Malformed(e) => {
            Problem::new(ProblemKind::MalformedPosition, e).field("position")
        }
        PositionProblem::Impossible(e) => {
            Problem::new(ProblemKind::InvalidPosition, e).field("position")
        }
    }
}

/// An action in notation.
pub(crate) fn action<G: Rules>(text: &str, field: &str) -> Result<G::Action, Problem> {
    G::parse_action(text).map_err(|e| {
        Problem::new(ProblemKind::MalformedAction, e.detail)
            .field(field)
            .action(text)
    })
}

/// The hidden truth a trusted caller gives in clear (`layout`), not yet checked against a
/// position. A player's client has none: it holds a token, and the referee answers it
/// ([`referee`]).
pub(crate) fn clear_hidden<G: Rules>(layout: Option<&Value>) -> Result<Option<G::Hidden>, Problem> {
    layout
        .map(|value| {
            G::parse_hidden(value).map_err(|e| {
                Problem::new(ProblemKind::MalformedLayout, e.to_string()).field("layout")
            })
        })
        .transpose()
}

/// The position a request is about (its `position`, or the start) and the hidden truth from
/// its clear layout, checked against each other.
pub(crate) fn hidden_truth<G: Rules>(
    layout: Option<&Value>,
    at: Option<&str>,
    rules: &G::Ruleset,
) -> Result<(G::Position, Option<G::Hidden>), Problem> {
    let hidden = clear_hidden::<G>(layout)?;
    let pos = position::<G>(at, rules, hidden.as_ref())?;
    if let Some(hidden) = &hidden {
        G::hidden_fits(hidden, &pos).map_err(|e| {
            Problem::new(ProblemKind::InvalidPosition, e.to_string()).field("layout")
        })?;
    }
    Ok((pos, hidden))
}
