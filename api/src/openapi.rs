//! The OpenAPI document (served at `/v1/openapi.json`, shown by Swagger UI at `/docs/`).

use utoipa::OpenApi;

use utoipa::Modify;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};

use crate::routes::{
    analysis, explorer, games, lifecycle, meta, players, positions, records_routes, render, stream,
    tables,
};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Anqi",
        license(name = "MIT OR Apache-2.0")
    ),
    paths(
        meta::health, meta::games, meta::presets, meta::preset, meta::options,
        records_routes::validate, records_routes::replay, records_routes::score, records_routes::score_position,
        positions::actions, positions::play, positions::deal, positions::view, lifecycle::lifecycle,
        tables::open, tables::state, tables::answer,
        stream::ticket, stream::stream,
        analysis::analyze,
        analysis::review,
        render::render, render::render_get, render::render_png, render::render_png_get,
        render::replay_png,
        games::create, games::get, games::list,
        players::leaderboard, players::player,
        explorer::explorer,
    ),
    modifiers(&Description, &BearerToken, &GameExamples),
    components(schemas(crate::problem::Problem, stream::StreamEventData)),
    tags(
        (name = "meta", description = "What the service knows: games, presets, options."),
        (name = "records", description = "Game records: validate, score."),
        (name = "positions", description = "Positions: legal actions, play, deal, player view, picture, the engine's analysis."),
        (name = "games", description = "The record store: store records (token when configured), fetch and list them."),
        (name = "players", description = "Players rated from the stored games: leaderboards per game and preset, a player's results and rating."),
    )
)]
pub struct ApiDoc;

/// The document the service serves at `/v1/openapi.json`: utoipa's, made an exact contract
/// ([`crate::contract`]).
pub fn document() -> serde_json::Value {
    let mut openapi = ApiDoc::openapi();
    for own in crate::games::openapi() {
        openapi.merge(own);
    }
    let mut doc = serde_json::to_value(openapi).expect("the document is JSON");
    crate::contract::apply(&mut doc);
    doc
}

/// The service's description: the games come from the registry.
struct Description;

impl Modify for Description {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use records::games::GameKind;
        let titles: Vec<&str> = GameKind::ALL.iter().map(|k| k.title()).collect();
        openapi.info.description = Some(format!(
            "Rules, validation, scoring and pictures for {}, with their house rules: every \
            request names its `game` (default `{}`; `GET /v1/game-types` lists them). Where a \
            game's positions hold what a seat may not see (a dark game's enemy pieces), a caller with \
            the referee's token (a player) is told positions masked to its seat, never the \
            referee's. Stateless: every request carries the position or record it is about. \
            Errors are RFC 9457 problem details (application/problem+json): 400 malformed input, \
            422 well-formed but illegal, 404/405 unknown route or method, 413 too large, 415 wrong \
            media type, 408 a request not sent in time (`--client-request-timeout`, any \
            operation), 431 a request's line and headers larger than 128 KiB or more than 96 \
            headers (any operation); `GET /problems` lists the problem types.",
            titles.join(", "),
            GameKind::DEFAULT.name(),
        ));
    }
}

/// The bearer token scheme of the write endpoints.
struct BearerToken;

impl Modify for BearerToken {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
        );
    }
}

/// Each game's examples of the operations that take a game: the `example` an operation
/// declares is the default game's; this names it by that game and adds the other games'
/// beside it.
struct GameExamples;

impl Modify for GameExamples {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::RefOr;
        use utoipa::openapi::example::ExampleBuilder;
        let default = records::games::GameKind::DEFAULT;
        let named =
            |content: &mut utoipa::openapi::content::Content, game: &str, title: &str, value| {
                if let Some(declared) = content.example.take() {
                    content.examples.insert(
                        default.name().into(),
                        RefOr::T(
                            ExampleBuilder::new()
                                .summary(default.title())
                                .value(Some(declared))
                                .build(),
                        ),
                    );
                }
                content.examples.insert(
                    game.into(),
                    RefOr::T(
                        ExampleBuilder::new()
                            .summary(title)
                            .value(Some(value))
                            .build(),
                    ),
                );
            };
        let games = crate::games::examples();
        for (game, title, examples) in games {
            for (path, request, response) in examples {
                let Some(op) = openapi
                    .paths
                    .paths
                    .get_mut(path)
                    .and_then(|item| item.post.as_mut())
                else {
                    panic!("no POST {path} for its example");
                };
                if let Some(RefOr::T(body)) = op.request_body.as_mut() {
                    for content in body.content.values_mut() {
                        if let RefOr::T(content) = content {
                            named(content, game, title, request.clone());
                        }
                    }
                }
                if let Some(RefOr::T(ok)) = op.responses.responses.get_mut("200") {
                    for content in ok.content.values_mut() {
                        if let RefOr::T(content) = content {
                            named(content, game, title, response.clone());
                        }
                    }
                }
            }
        }
    }
}
