//! The routes, and the parsing every route shares (ruleset, position, action) with the
//! problem each failure maps to.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use records::core::{PositionProblem, Rules, RulesetError};
use records::games::GameKind;
use serde_json::{Map, Value};

use crate::problem::Problem;

pub mod games;
pub mod meta;
pub mod positions;
pub mod records_routes;

/// Registers every route. Each path answers its own methods; any other method gets 405 with
/// an `Allow` header.
pub fn configure(cfg: &mut web::ServiceConfig) {
    let get = |path: &str, route: actix_web::Route| {
        web::resource(path)
            .route(route)
            .default_service(web::to(|| method_not_allowed("GET")))
    };
    let post = |path: &str, route: actix_web::Route| {
        web::resource(path)
            .route(route)
            .default_service(web::to(|| method_not_allowed("POST")))
    };
    cfg.service(get("/v1/health", web::get().to(meta::health)))
        .service(get("/v1/game-types", web::get().to(meta::games)))
        .service(get("/v1/presets", web::get().to(meta::presets)))
        .service(get("/v1/presets/{name}", web::get().to(meta::preset)))
        .service(get("/v1/options", web::get().to(meta::options)))
        .service(get("/problems", web::get().to(meta::problems)))
        .service(get("/problems/{name}", web::get().to(meta::problem)))
        .service(post(
            "/v1/validate",
            web::post().to(records_routes::validate),
        ))
        .service(post("/v1/score", web::post().to(records_routes::score)))
        .service(post(
            "/v1/score/position",
            web::post().to(records_routes::score_position),
        ))
        .service(post("/v1/actions", web::post().to(positions::actions)))
        .service(post("/v1/play", web::post().to(positions::play)))
        .service(post("/v1/deal", web::post().to(positions::deal)))
        .service(post("/v1/view", web::post().to(positions::view)))
        .service(post("/v1/render", web::post().to(positions::render)))
        .service(get("/v1/render.svg", web::get().to(positions::render_get)))
        .service(
            web::resource("/v1/games")
                .route(web::get().to(games::list))
                .route(web::post().to(games::create))
                .default_service(web::to(|| method_not_allowed("GET, POST"))),
        )
        .service(get("/v1/games/{id}", web::get().to(games::get)));
}

async fn method_not_allowed(allow: &'static str) -> HttpResponse {
    let mut response = actix_web::ResponseError::error_response(&Problem::new(
        "method-not-allowed",
        format!("this endpoint takes {allow} only"),
    ));
    response
        .headers_mut()
        .insert(header::ALLOW, header::HeaderValue::from_static(allow));
    response
}

pub async fn not_found(req: HttpRequest) -> HttpResponse {
    actix_web::ResponseError::error_response(&Problem::new(
        "not-found",
        format!(
            "there is no {} {} here; GET /v1/openapi.json lists the endpoints",
            req.method(),
            req.path()
        ),
    ))
}

/// The kind of game a request names (`game`, default `banqi`).
pub(crate) fn game_kind(name: &str) -> Result<GameKind, Problem> {
    name.parse().map_err(|e: records::games::UnknownGame| {
        Problem::new("unknown-game", e.to_string()).field("game")
    })
}

pub(crate) fn default_game() -> String {
    "banqi".to_owned()
}

/// The ruleset a request names: a preset of the game (its first when absent) and options.
pub(crate) fn ruleset<G: Rules>(
    preset: Option<&str>,
    options: &Map<String, Value>,
) -> Result<G::Ruleset, Problem> {
    records::core::rules::ruleset::<G>(preset, options).map_err(|e| match e {
        RulesetError::UnknownPreset { .. } => {
            Problem::new("unknown-preset", e.to_string()).field("preset")
        }
        RulesetError::Malformed(_) => {
            Problem::new("malformed-json", e.to_string()).field("options")
        }
        RulesetError::Invalid(_) => Problem::new("invalid-ruleset", e.to_string()).field("options"),
    })
}

/// The position a request gives (the game's start when absent).
pub(crate) fn position<G: Rules>(
    text: Option<&str>,
    rules: &G::Ruleset,
) -> Result<G::Position, Problem> {
    let Some(text) = text else {
        return Ok(G::start(rules));
    };
    let pos = G::parse_position(text).map_err(|e| match e {
        PositionProblem::Malformed(e) => Problem::new("malformed-position", e).field("position"),
        PositionProblem::Impossible(e) => Problem::new("invalid-position", e).field("position"),
    })?;
    G::position_fits(rules, &pos)
        .map_err(|e| Problem::new("invalid-position", e).field("position"))?;
    Ok(pos)
}

/// An action in notation.
pub(crate) fn action<G: Rules>(text: &str, field: &str) -> Result<G::Action, Problem> {
    G::parse_action(text).map_err(|e| {
        Problem::new("malformed-action", e.detail)
            .field(field)
            .action(text)
    })
}

/// The hidden truth a trusted caller gives (`layout`), checked against `pos`.
pub(crate) fn hidden<G: Rules>(
    value: Option<&Value>,
    pos: &G::Position,
) -> Result<Option<G::Hidden>, Problem> {
    let Some(value) = value else {
        return Ok(None);
    };
    let hidden =
        G::parse_hidden(value).map_err(|e| Problem::new("malformed-layout", e).field("layout"))?;
    G::hidden_fits(&hidden, pos)
        .map_err(|e| Problem::new("invalid-position", e).field("layout"))?;
    Ok(Some(hidden))
}

/// The hidden truth of a request: opened from the referee's sealed `token` (bound to the
/// game, its preset and `game_id`), or taken from a trusted caller's clear `layout`; checked
/// against `pos`.
pub(crate) fn hidden_truth<G: Rules>(
    keys: &records::seal::Keys,
    sealed: &Sealed,
    preset: Option<&str>,
    layout: Option<&Value>,
    pos: &G::Position,
) -> Result<Option<G::Hidden>, Problem> {
    let Some(token) = &sealed.token else {
        return hidden::<G>(layout, pos);
    };
    if layout.is_some() {
        return Err(
            Problem::new("bad-parameter", "give either a token or a layout, not both")
                .field("layout"),
        );
    }
    let game_id = sealed.game_id.as_deref().ok_or_else(|| {
        Problem::new("bad-parameter", "a token needs the game_id its deal gave").field("game_id")
    })?;
    let preset = records::core::rules::find_preset(G::presets(), preset)
        .map_err(|e| Problem::new("unknown-preset", e.to_string()).field("preset"))?
        .name;
    let binding = records::seal::Binding {
        game: G::NAME,
        preset,
        game_id,
    };
    let hidden = keys
        .open::<G>(token, binding)
        .map_err(|e| Problem::new("invalid-token", e.to_string()).field("token"))?;
    G::hidden_fits(&hidden, pos).map_err(|_| {
        Problem::new(
            "invalid-token",
            "the token's game does not fit this position: it belongs to another game",
        )
        .field("token")
    })?;
    Ok(Some(hidden))
}

/// Completes `record` with the hidden truth a sealed token holds (as a layout would), and
/// gives that truth (or the record's own layout, when there is no token).
pub(crate) fn unseal_record<G: Rules>(
    record: &mut records::core::Record,
    sealed: &Sealed,
    keys: &records::seal::Keys,
) -> Result<Option<G::Hidden>, Problem> {
    let rules = ruleset::<G>(None, &Map::new())?;
    let start = position::<G>(record.start.as_deref(), &rules)?;
    let hidden = hidden_truth::<G>(
        keys,
        sealed,
        record.preset.as_deref(),
        record.layout.as_ref(),
        &start,
    )?;
    if sealed.token.is_some() {
        record.layout = hidden.as_ref().map(G::hidden_value);
    }
    Ok(hidden)
}

/// The referee's sealed state a request carries (its `token` and `game_id` fields).
#[derive(Default, Clone)]
pub(crate) struct Sealed {
    pub token: Option<String>,
    pub game_id: Option<String>,
}
