//! What the service knows: health, games, presets, options, and the problem types.

use actix_web::{HttpResponse, web};
use records::core::OptionInfo;
use records::games::{GameKind, PLANNED};
use records::with_game;
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::{IntoParams, ToSchema};

use crate::problem::{Problem, ProblemKind};

#[derive(Serialize, ToSchema)]
#[schema(example = health_example)]
pub struct Health {
    pub status: &'static str,
    pub version: &'static str,
    /// Live play on this instance now.
    pub live: Live,
}

/// What this instance holds of live play: each number falls back to 0 when nothing is open.
#[derive(Serialize, ToSchema)]
pub struct Live {
    /// Seats' event streams open (`GET /v1/stream`).
    pub streams: usize,
    /// Games with a stream or an engine task waiting for their commits.
    pub watched_games: usize,
    /// Games whose engine seats this instance plays now (it holds their lease, or is taking
    /// them up).
    pub engine_games: usize,
    /// Engine moves this instance has searched since it started.
    pub engine_searches: u64,
}

fn health_example() -> serde_json::Value {
    json!({"status": "ok", "version": "0.1.0",
           "live": {"streams": 0, "watched_games": 0, "engine_games": 0, "engine_searches": 0}})
}

/// Liveness, version, and what this instance holds of live play.
#[utoipa::path(get, path = "/v1/health", tag = "meta",
    responses((status = 200, description = "The service is up.", body = Health,
        example = health_example)))]
pub async fn health(settings: web::Data<crate::Settings>) -> web::Json<Health> {
    web::Json(Health {
        status: "ok",
        version: env!("CARGO_PKG_VERSION"),
        live: Live {
            streams: settings.hub.streams(),
            watched_games: settings.hub.games(),
            engine_games: settings.engines.driving(),
            engine_searches: settings.engines.searches(),
        },
    })
}

#[derive(Serialize, ToSchema)]
pub struct GameInfo {
    /// The `game` value of a record.
    pub game: &'static str,
    pub title: &'static str,
    /// `supported`, or `planned` for games the toolkit does not play yet.
    pub status: &'static str,
    /// The presets of a supported game.
    pub presets: Vec<&'static str>,
    /// How many seats play it (a supported game's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seats: Option<u8>,
    /// A supported game's pieces by their letter in its notation: each as its board writes
    /// it (`俥`) and in words (`red chariot`), for a page that writes actions for people.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub pieces: std::collections::BTreeMap<String, PieceWords>,
}

/// A piece as people read it.
#[derive(Serialize, ToSchema)]
pub struct PieceWords {
    pub glyph: &'static str,
    pub name: String,
}

/// Every piece of `G` by its letter.
fn pieces_of<G: records::core::Rules>() -> std::collections::BTreeMap<String, PieceWords> {
    ('A'..='Z')
        .chain('a'..='z')
        .filter_map(|c| {
            let words = PieceWords {
                glyph: G::glyph(c)?,
                name: G::piece(c)?,
            };
            Some((c.to_string(), words))
        })
        .collect()
}

/// The games of the toolkit and whether the service plays them yet.
#[utoipa::path(get, path = "/v1/game-types", tag = "meta",
    responses((status = 200, description = "Every game, with its presets.", body = Vec<GameInfo>,
        example = games_example)))]
pub async fn games() -> web::Json<Vec<GameInfo>> {
    web::Json(game_list())
}

fn games_example() -> serde_json::Value {
    serde_json::to_value(game_list()).expect("serialisable")
}

fn game_list() -> Vec<GameInfo> {
    let mut list: Vec<GameInfo> = GameKind::ALL
        .iter()
        .map(|kind| GameInfo {
            game: kind.name(),
            title: kind.title(),
            status: "supported",
            presets: with_game!(*kind, G => G::PRESETS.iter().map(|p| p.name).collect()),
            seats: Some(with_game!(*kind, G => G::seats(&G::PRESETS[0].ruleset))),
            pieces: with_game!(*kind, G => pieces_of::<G>()),
        })
        .collect();
    list.extend(PLANNED.iter().map(|(game, title)| GameInfo {
        game,
        title,
        status: "planned",
        presets: vec![],
        seats: None,
        pieces: Default::default(),
    }));
    list
}

/// Which game a meta request is about.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct GameQuery {
    /// The kind of game (default `banqi`).
    #[param(value_type = Option<GameKind>, example = records::games::GameKind::default_name)]
    #[serde(default)]
    pub game: Option<String>,
}

fn kind_of(query: &GameQuery) -> Result<GameKind, Problem> {
    match query.game.as_deref() {
        Some(name) => crate::routes::parse::game_kind(name),
        None => Ok(GameKind::DEFAULT),
    }
}

/// A named ruleset of a game.
#[derive(Serialize, ToSchema)]
pub struct Preset {
    pub name: &'static str,
    pub title: &'static str,
    /// Whether every game under the preset starts from one position as every seat sees it (the
    /// opening explorer is then asked by a line alone); false where each game starts from its
    /// own (open Luzhanqi's setups, face up: ask the explorer with the game's start).
    pub common_start: bool,
    /// The complete ruleset (the game's own fields).
    #[schema(value_type = records::games::AnyRuleset)]
    pub ruleset: serde_json::Value,
}

fn presets_of(kind: GameKind) -> Vec<Preset> {
    with_game!(kind, G => G::PRESETS
        .iter()
        .map(|p| Preset {
            name: p.name,
            title: p.title,
            common_start: records::core::explorer::has_common_start::<G>(&p.ruleset),
            ruleset: serde_json::to_value(p.ruleset).expect("a ruleset serialises"),
        })
        .collect())
}

#[derive(Serialize, ToSchema)]
pub struct Presets {
    pub game: &'static str,
    pub presets: Vec<Preset>,
}

fn presets_example() -> serde_json::Value {
    json!({"game": GameKind::DEFAULT.name(), "presets": presets_of(GameKind::DEFAULT)})
}

/// Every preset of a game with its full ruleset (Banqi: RULES §3).
#[utoipa::path(get, path = "/v1/presets", tag = "meta",
    params(GameQuery),
    responses(
        (status = 200, description = "The presets.", body = Presets, example = presets_example),
        (status = 422, description = "No such game.", body = Problem, content_type = "application/problem+json")))]
pub async fn presets(query: web::Query<GameQuery>) -> Result<web::Json<Presets>, Problem> {
    let kind = kind_of(&query)?;
    Ok(web::Json(Presets {
        game: kind.name(),
        presets: presets_of(kind),
    }))
}

fn preset_example() -> serde_json::Value {
    json!(
        presets_of(GameKind::DEFAULT)
            .iter()
            .find(|p| p.name == "gametower")
    )
}

/// One preset of a game by name.
#[utoipa::path(get, path = "/v1/presets/{name}", tag = "meta",
    params(("name" = String, Path, description = "A preset name", example = "gametower"), GameQuery),
    responses(
        (status = 200, description = "The preset.", body = Preset,
            example = preset_example),
        (status = 404, description = "No such preset.", body = Problem, content_type = "application/problem+json",
            example = json!({"type": "/problems/not-found", "title": "Not found", "status": 404,
                "detail": "unknown preset \"blitz\"; GET /v1/presets lists them", "code": "not_found", "field": "name"}))))]
pub async fn preset(
    name: web::Path<String>,
    query: web::Query<GameQuery>,
) -> Result<web::Json<Preset>, Problem> {
    let kind = kind_of(&query)?;
    presets_of(kind)
        .into_iter()
        .find(|p| p.name == name.as_str())
        .map(web::Json)
        .ok_or_else(|| {
            Problem::new(
                ProblemKind::NotFound,
                format!(
                    "unknown preset {:?}; GET /v1/presets lists them",
                    name.as_str()
                ),
            )
            .field("name")
        })
}

fn options_example() -> serde_json::Value {
    json!(with_game!(GameKind::DEFAULT, G => G::options()))
}

/// Every ruleset option of a game: what it means and where it comes from.
#[utoipa::path(get, path = "/v1/options", tag = "meta",
    params(GameQuery),
    responses(
        (status = 200, description = "The options of the game's rulesets (the default game's in the example).", body = Vec<OptionInfo>,
            example = options_example),
        (status = 422, description = "No such game.", body = Problem, content_type = "application/problem+json")))]
pub async fn options(
    query: web::Query<GameQuery>,
) -> Result<web::Json<&'static [OptionInfo]>, Problem> {
    let kind = kind_of(&query)?;
    Ok(web::Json(with_game!(kind, G => G::options())))
}

/// The problem types as a JSON list (RFC 9457 `type` values resolve here).
pub async fn problems() -> HttpResponse {
    let list: Vec<_> = ProblemKind::ALL.iter().map(|k| described(*k)).collect();
    HttpResponse::Ok().json(list)
}

fn described(kind: ProblemKind) -> serde_json::Value {
    json!({"type": format!("/problems/{}", kind.name()), "title": kind.title(),
           "status": kind.status(), "description": kind.description()})
}

/// One problem type's description.
pub async fn problem(name: web::Path<String>) -> Result<HttpResponse, Problem> {
    let kind = ProblemKind::named(&name).ok_or_else(|| {
        Problem::new(
            ProblemKind::NotFound,
            format!("no problem type {:?}", name.as_str()),
        )
    })?;
    Ok(HttpResponse::Ok().json(described(kind)))
}
