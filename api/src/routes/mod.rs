//! The routes, and the parsing every route shares (ruleset, position, action) with the
//! problem each failure maps to.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use records::core::{PositionProblem, Rules, RulesetError};
use records::games::GameKind;
use serde_json::{Map, Value};

use crate::problem::{Problem, ProblemKind};

pub mod games;
pub mod meta;
pub mod positions;
pub mod records_routes;
pub mod referee;
pub mod setups;

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
        .service(post("/v1/luzhanqi/setup", web::post().to(setups::check)))
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
        ProblemKind::MethodNotAllowed,
        format!("this endpoint takes {allow} only"),
    ));
    response
        .headers_mut()
        .insert(header::ALLOW, header::HeaderValue::from_static(allow));
    response
}

pub async fn not_found(req: HttpRequest) -> HttpResponse {
    actix_web::ResponseError::error_response(&Problem::new(
        ProblemKind::NotFound,
        format!(
            "there is no {} {} here; GET /v1/openapi.json lists the endpoints",
            req.method(),
            req.path()
        ),
    ))
}

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
        return G::start(rules, hidden)
            .map_err(|e| Problem::new(ProblemKind::InvalidPosition, e).field("layout"));
    };
    let pos = parsed_position::<G>(text)?;
    G::position_fits(rules, &pos)
        .map_err(|e| Problem::new(ProblemKind::InvalidPosition, e).field("position"))?;
    Ok(pos)
}

/// A position string, parsed and checked as a position (not against a ruleset).
pub(crate) fn parsed_position<G: Rules>(text: &str) -> Result<G::Position, Problem> {
    G::parse_position(text).map_err(|e| match e {
        PositionProblem::Malformed(e) => {
            Problem::new(ProblemKind::MalformedPosition, e).field("position")
        }
        PositionProblem::Impossible(e) => {
            Problem::new(ProblemKind::InvalidPosition, e).field("position")
        }
    })
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
            G::parse_hidden(value)
                .map_err(|e| Problem::new(ProblemKind::MalformedLayout, e).field("layout"))
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
        G::hidden_fits(hidden, &pos)
            .map_err(|e| Problem::new(ProblemKind::InvalidPosition, e).field("layout"))?;
    }
    Ok((pos, hidden))
}
