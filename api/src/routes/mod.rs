//! The routes, and the parsing every route shares (ruleset, position, action) with the
//! problem each failure maps to.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use records::core::{PositionProblem, Rules, RulesetError, Seat};
use records::games::GameKind;
use serde_json::{Map, Value};

use crate::problem::Problem;

pub mod games;
pub mod meta;
pub mod positions;
pub mod records_routes;
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
        // The document's options are any game's: being this game's is semantic (422).
        RulesetError::Malformed(_) => {
            Problem::new("invalid-ruleset", e.to_string()).field("options")
        }
        RulesetError::Invalid(_) => Problem::new("invalid-ruleset", e.to_string()).field("options"),
    })
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
            .map_err(|e| Problem::new("invalid-position", e).field("layout"));
    };
    let pos = parsed_position::<G>(text)?;
    G::position_fits(rules, &pos)
        .map_err(|e| Problem::new("invalid-position", e).field("position"))?;
    Ok(pos)
}

/// A position string, parsed and checked as a position (not against a ruleset).
pub(crate) fn parsed_position<G: Rules>(text: &str) -> Result<G::Position, Problem> {
    G::parse_position(text).map_err(|e| match e {
        PositionProblem::Malformed(e) => Problem::new("malformed-position", e).field("position"),
        PositionProblem::Impossible(e) => Problem::new("invalid-position", e).field("position"),
    })
}

/// An action in notation.
pub(crate) fn action<G: Rules>(text: &str, field: &str) -> Result<G::Action, Problem> {
    G::parse_action(text).map_err(|e| {
        Problem::new("malformed-action", e.detail)
            .field(field)
            .action(text)
    })
}

/// The hidden truth of a request, not yet checked against a position: opened from the
/// referee's sealed `token` (bound to the game, its preset and `game_id`), or taken from a
/// trusted caller's clear `layout`.
pub(crate) fn open_hidden<G: Rules>(
    keys: &records::seal::Keys,
    sealed: &Sealed,
    preset: Option<&str>,
    layout: Option<&Value>,
) -> Result<Option<G::Hidden>, Problem> {
    let Some(token) = &sealed.token else {
        return layout
            .map(|value| {
                G::parse_hidden(value)
                    .map_err(|e| Problem::new("malformed-layout", e).field("layout"))
            })
            .transpose();
    };
    if layout.is_some() {
        return Err(
            Problem::new("bad-parameter", "give either a token or a layout, not both")
                .field("layout"),
        );
    }
    open_token::<G>(keys, token, sealed, preset).map(|(hidden, _)| Some(hidden))
}

/// Opens a token: the game's own (no seat), or a seat token (bound to its seat too).
fn open_token<G: Rules>(
    keys: &records::seal::Keys,
    token: &str,
    sealed: &Sealed,
    preset: Option<&str>,
) -> Result<(G::Hidden, Option<Seat>), Problem> {
    let game_id = sealed.game_id.as_deref().ok_or_else(|| {
        Problem::new(
            "invalid-token",
            "a token opens only with the game_id its deal gave",
        )
        .field("game_id")
    })?;
    let preset = records::core::rules::find_preset(G::presets(), preset)
        .map_err(|e| Problem::new("unknown-preset", e.to_string()).field("preset"))?
        .name;
    let binding = |seat: Option<&'static str>| records::seal::Binding {
        game: G::NAME,
        preset,
        game_id,
        seat,
    };
    let game = keys.open::<G>(token, binding(None));
    if let Ok(hidden) = game {
        let _ = sealed.opened_seat.set(None);
        return Ok((hidden, None));
    }
    for seat in Seat::all(records::core::MAX_SEATS as u8) {
        if let Ok(hidden) = keys.open::<G>(token, binding(Some(seat.code()))) {
            let _ = sealed.opened_seat.set(Some(seat));
            return Ok((hidden, Some(seat)));
        }
    }
    Err(Problem::new("invalid-token", game.unwrap_err().to_string()).field("token"))
}

/// The seat a request's token speaks for: a seat token's seat; none for the game's own token
/// or no token.
pub(crate) fn token_seat<G: Rules>(
    keys: &records::seal::Keys,
    sealed: &Sealed,
    preset: Option<&str>,
) -> Result<Option<Seat>, Problem> {
    if let Some(seat) = sealed.opened_seat.get() {
        return Ok(*seat);
    }
    match &sealed.token {
        None => Ok(None),
        Some(token) => open_token::<G>(keys, token, sealed, preset).map(|(_, seat)| seat),
    }
}

/// Refuses a seat token used for another seat: a player acts and looks for its own seat only.
pub(crate) fn same_seat(token: Option<Seat>, asked: Seat, what: &str) -> Result<(), Problem> {
    match token {
        Some(seat) if seat != asked => Err(Problem::new(
            "wrong-seat",
            format!(
                "this token is {}'s: it may not {what} for {}",
                seat.code(),
                asked.code()
            ),
        )
        .field("token")),
        _ => Ok(()),
    }
}

/// Whether the hidden truth a request gave fits `pos`.
pub(crate) fn check_hidden<G: Rules>(
    hidden: Option<&G::Hidden>,
    pos: &G::Position,
    sealed: &Sealed,
) -> Result<(), Problem> {
    let Some(hidden) = hidden else {
        return Ok(());
    };
    G::hidden_fits(hidden, pos).map_err(|e| {
        if sealed.token.is_some() {
            Problem::new(
                "invalid-token",
                "the token's game does not fit this position: it belongs to another game",
            )
            .field("token")
        } else {
            Problem::new("invalid-position", e).field("layout")
        }
    })
}

/// The position a request is about (its `position`, or the start) and the hidden truth from
/// its token or clear layout, checked against each other.
pub(crate) fn hidden_truth<G: Rules>(
    keys: &records::seal::Keys,
    sealed: &Sealed,
    preset: Option<&str>,
    layout: Option<&Value>,
    at: Option<&str>,
    rules: &G::Ruleset,
) -> Result<(G::Position, Option<G::Hidden>), Problem> {
    let hidden = open_hidden::<G>(keys, sealed, preset, layout)?;
    let pos = position::<G>(at, rules, hidden.as_ref())?;
    check_hidden::<G>(hidden.as_ref(), &pos, sealed)?;
    Ok((pos, hidden))
}

/// Completes `record` with the hidden truth a sealed token holds (as a layout would), and
/// gives that truth (or the record's own layout, when there is no token).
pub(crate) fn unseal_record<G: Rules>(
    record: &mut records::core::Record,
    sealed: &Sealed,
    keys: &records::seal::Keys,
) -> Result<Option<G::Hidden>, Problem> {
    let hidden = open_hidden::<G>(
        keys,
        sealed,
        record.preset.as_deref(),
        record.layout.as_ref(),
    )?;
    // A token that opens but belongs to another start is refused here; any other problem of
    // the record (its ruleset, its start) is the replay's to report.
    if sealed.token.is_some()
        && let Ok(rules) =
            records::core::rules::ruleset::<G>(record.preset.as_deref(), &record.options)
        && let Ok(start) = position::<G>(record.start.as_deref(), &rules, hidden.as_ref())
    {
        check_hidden::<G>(hidden.as_ref(), &start, sealed)?;
    }
    if sealed.token.is_some() {
        record.layout = hidden.as_ref().map(G::hidden_value);
    }
    Ok(hidden)
}

/// The referee's sealed state a request carries (its `token` and `game_id` fields), and the
/// seat the token turned out to be bound to once opened (a token is opened once per request).
#[derive(Default, Clone)]
pub(crate) struct Sealed {
    pub token: Option<String>,
    pub game_id: Option<String>,
    pub opened_seat: std::cell::OnceCell<Option<Seat>>,
}
