//! The opening explorer over HTTP: what the stored games played next from a public position,
//! and how it scored for the side to move ([`records::store::Store::explore`]).

use actix_web::{HttpRequest, web};
use records::core::Table;
use records::core::explorer::NoPosition;
use records::games::GameKind;
use records::store::{ExploreError, Explored, Lookup};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use utoipa::IntoParams;

use super::games::store;
use crate::Settings;
use crate::problem::{Problem, ProblemKind};
use crate::slots::Peer;

#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct ExplorerQuery {
    /// The kind of game (default the registry's first).
    #[param(value_type = Option<GameKind>, example = records::games::GameKind::default_name)]
    #[serde(default)]
    pub game: Option<String>,
    /// A preset of the game (default its first).
    #[param(example = "tcga")]
    #[serde(default)]
    pub preset: Option<String>,
    /// Options over the preset's, as a JSON object (a record's `options`): the variant.
    #[param(example = "{\"chain_capture\": true}")]
    #[serde(default)]
    pub options: Option<String>,
    /// The position as every seat sees it (a position string; a dark Luzhanqi game's masked
    /// one); default the start, when every game starts from the same public position.
    #[param(example = start_example)]
    #[serde(default)]
    pub position: Option<String>,
    /// A node the explorer gave (`node`, or a move's `next`: 16 hex digits), instead of a
    /// position: any position the explorer answered for, whatever way it was reached.
    #[param(example = "ff92efbc4d07c093")]
    #[serde(default)]
    pub node: Option<String>,
    /// Actions from the position as every seat saw them, comma-separated: flips with the piece
    /// they revealed (`b6(K)`), moves, dark Luzhanqi's attacks with the referee's announcement
    /// (`c6-c7:win`).
    #[param(example = "a1(K),b1(k)")]
    #[serde(default)]
    pub actions: Option<String>,
    /// Games played for coins: the table's stake S for the average coins (default 100).
    #[param(minimum = 0, example = 100)]
    #[serde(default)]
    pub stake: Option<u64>,
    /// Games played for coins: the table's coins per point of margin B (default 5).
    #[param(minimum = 0, example = 5)]
    #[serde(default)]
    pub bonus_per_point: Option<u64>,
    /// Only games these players played (comma-separated names, any seat).
    #[param(example = "chan")]
    #[serde(default)]
    pub players: Option<String>,
    /// Only games played on or after this date (YYYY-MM-DD).
    #[param(example = "2022-01-01", pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    #[serde(default)]
    pub date_from: Option<String>,
    /// Only games played on or before this date (YYYY-MM-DD).
    #[param(example = "2022-12-31", pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    #[serde(default)]
    pub date_to: Option<String>,
    /// Only games whose players' average rating (this game and preset's, as
    /// `/v1/leaderboard` shows them now) is at least this; games with a seat unnamed or
    /// unrated are left out when a rating bound is given.
    #[param(example = -100.0)]
    #[serde(default)]
    pub rating_min: Option<f64>,
    /// Only games whose players' average rating is at most this.
    #[param(example = 200.0)]
    #[serde(default)]
    pub rating_max: Option<f64>,
}

/// The default game's start, as a position example.
fn start_example() -> String {
    records::with_game!(GameKind::DEFAULT, G => G::start(&G::PRESETS[0].ruleset, None)
        .map(|pos| pos.to_string())
        .unwrap_or_default())
}

/// The start of a store holding two finished games (the first doubled by 門棋加倍: both first
/// flips a general).
fn explored_example() -> Value {
    json!({
        "game": GameKind::DEFAULT.name(), "preset": "tcga", "node": "44bd7a619cb3dc53",
        "followed": 0, "games": 2, "wins": 1, "draws": 0, "losses": 1,
        "moves": [{"action": "a1(K)", "games": 2, "wins": 1, "draws": 0, "losses": 1,
            "score": 0.5, "interval": [0.0945312057342308, 0.9054687942657692],
            "average_points": 0.0, "average_coins": 50.0, "examples": [2, 3],
            "next": "ff92efbc4d07c093"}],
        "depth": 16
    })
}

/// A list of comma-separated values, empty ones left out.
fn list(text: Option<&str>) -> Vec<String> {
    text.unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

/// A date parameter: YYYY-MM-DD, a day the calendar has (not 2026-02-31).
fn date(text: Option<String>, field: &str) -> Result<Option<String>, Problem> {
    let Some(t) = text else { return Ok(None) };
    if records::store::iso_date(&t).as_deref() == Some(t.as_str()) {
        Ok(Some(t))
    } else {
        Err(Problem::new(
            ProblemKind::BadParameter,
            format!("{field} is a date, YYYY-MM-DD, that the calendar has; {t:?} is not"),
        )
        .field(field))
    }
}

/// A rating bound: a finite number.
fn rating(value: Option<f64>, field: &str) -> Result<Option<f64>, Problem> {
    match value {
        Some(v) if !v.is_finite() => Err(Problem::new(
            ProblemKind::BadParameter,
            format!("{field} is a rating (a finite number); {v} is not"),
        )
        .field(field)),
        _ => Ok(value),
    }
}

/// The opening explorer: for a game, a preset (or options) and a public position — the start,
/// a position string, a node the explorer gave, and the actions every seat saw from there —
/// the actions the stored games played next, each with its games, wins, draws and losses for
/// the side that played it, its score with a 95% interval corrected for the number of actions
/// listed, the average points (and coins, for games played for coins), and example game ids.
/// Positions are what every seat sees, with the history the rules read: every way to a
/// position (two orders of flips that reach the same board, a position string, its node)
/// gets the same counts. Kept as games are stored (imports and refereed games), to the
/// store's depth (16 plies by default). Filtered by players, dates or a rating range, the
/// games that pass the filters and went on from the position are walked, all of them, on
/// slots of their own (`--explorer-slots`) and within 100 ms (`--explorer-filter-ms`): one
/// that cannot is refused
/// (503 `explorer-busy`, with Retry-After), never cut short. In a store that keeps the
/// explorer's counts by month (`anqi explore --months on`), dates alone at a position many
/// games went on from are answered from those counts for the months they cover whole
/// (`filtered.counted`), and only the games of the days at the ends are walked.
#[utoipa::path(get, path = "/v1/explorer", tag = "games",
    params(ExplorerQuery),
    responses(
        (status = 200, description = "What the stored games played from the position.", body = Explored, example = explored_example),
        (status = 400, description = "A malformed position, node, options, date, or action of the line (`malformed-action`, its place in `actions` as `ply`); a node and a position both.", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "No such game or preset, an impossible position, a start that must be given, or an action of the line that cannot be played at its place (`illegal-action`: its place in `actions` as `ply`, the rules' reason as `code`).", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "No record store; or a filtered request that found every explorer slot in use, or walked longer than it may (`explorer-busy`, with Retry-After).", body = Problem, content_type = "application/problem+json")))]
pub async fn explorer(
    req: HttpRequest,
    query: web::Query<ExplorerQuery>,
    settings: web::Data<Settings>,
) -> Result<web::Json<Explored>, Problem> {
    let store = store(&settings)?;
    let query = query.into_inner();
    let options: Map<String, Value> = match query.options.as_deref() {
        None => Map::new(),
        Some(text) => serde_json::from_str(text).map_err(|e| {
            Problem::new(
                ProblemKind::BadParameter,
                format!("options is a JSON object: {e}"),
            )
            .field("options")
        })?,
    };
    let default = Table::default();
    let lookup = Lookup {
        game: query.game.unwrap_or_else(super::parse::default_game),
        preset: query.preset,
        options,
        position: query.position,
        node: query.node,
        actions: list(query.actions.as_deref()),
        table: Table {
            stake: query.stake.unwrap_or(default.stake),
            bonus_per_point: query.bonus_per_point.unwrap_or(default.bonus_per_point),
        },
        players: list(query.players.as_deref()),
        date_from: date(query.date_from, "date_from")?,
        date_to: date(query.date_to, "date_to")?,
        rating_min: rating(query.rating_min, "rating_min")?,
        rating_max: rating(query.rating_max, "rating_max")?,
        time_limit: Some(settings.explorer_filter_time),
    };
    if let (Some(low), Some(high)) = (lookup.rating_min, lookup.rating_max)
        && low > high
    {
        return Err(Problem::new(
            ProblemKind::BadParameter,
            format!("rating_min ({low}) is above rating_max ({high})"),
        )
        .field("rating_min"));
    }
    super::parse::game_kind(&lookup.game)?;
    let ratings = settings.ratings.clone();
    if lookup.filtering() {
        // Walking games: on a slot of its own, never holding up the unfiltered requests.
        let explored = settings
            .explorer_slots
            .run(Peer::of(&req), move |_| {
                store.explore(&lookup, &ratings).map_err(problem)
            })
            .await?;
        return Ok(web::Json(explored));
    }
    let explored = settings
        .explorer_reads
        .run(move || store.explore(&lookup, &ratings))
        .await;
    explored.map(web::Json).map_err(problem)
}

fn problem(e: ExploreError) -> Problem {
    match e {
        ExploreError::Game(e) => {
            Problem::new(ProblemKind::UnknownGame, e.to_string()).field("game")
        }
        ExploreError::Ruleset(e) => super::parse::ruleset_problem(e),
        ExploreError::Position(NoPosition::Position(e)) => super::parse::position_problem(e),
        ExploreError::Position(e @ NoPosition::NoCommonStart(_)) => {
            Problem::new(ProblemKind::InvalidPosition, e.to_string()).field("position")
        }
        e @ ExploreError::Action { place, .. } => Problem {
            ply: Some(place),
            ..Problem::new(ProblemKind::MalformedAction, e.to_string()).field("actions")
        },
        e @ ExploreError::Illegal { place, code, .. } => Problem {
            ply: Some(place),
            ..Problem::new(ProblemKind::IllegalAction, e.to_string())
                .field("actions")
                .code(code)
        },
        e @ ExploreError::Node(_) => {
            Problem::new(ProblemKind::BadParameter, e.to_string()).field("node")
        }
        e @ ExploreError::Busy { .. } => {
            Problem::new(ProblemKind::ExplorerBusy, e.to_string()).retry_after(1)
        }
        ExploreError::Store(e) => {
            tracing::error!(error = %e, "record store");
            Problem::new(ProblemKind::StoreUnavailable, e.to_string())
        }
    }
}
