//! The OpenAPI document (served at `/v1/openapi.json`, shown by Swagger UI at `/docs/`).

use utoipa::OpenApi;

use utoipa::Modify;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};

use crate::routes::{games, meta, positions, records_routes};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Anqi",
        description = "Rules, validation, scoring and pictures for Banqi (暗棋, Chinese Dark Chess) \
            and its house rules, and Three Kingdoms Banqi (三國暗棋, three players): every request \
            names its `game` (default `banqi`). Stateless: every request carries the position or record it is about. \
            Errors are RFC 9457 problem details (application/problem+json): 400 malformed input, \
            422 well-formed but illegal, 404/405 unknown route or method, 413 too large, 415 wrong \
            media type; `GET /problems` lists the problem types.",
        license(name = "MIT OR Apache-2.0")
    ),
    paths(
        meta::health, meta::games, meta::presets, meta::preset, meta::options,
        records_routes::validate, records_routes::score, records_routes::score_position,
        positions::actions, positions::play, positions::deal, positions::view,
        positions::render, positions::render_get,
        games::create, games::get, games::list,
    ),
    modifiers(&BearerToken, &GameExamples),
    components(schemas(crate::problem::Problem)),
    tags(
        (name = "meta", description = "What the service knows: games, presets, options."),
        (name = "records", description = "Game records: validate, score."),
        (name = "positions", description = "Positions: legal actions, play, deal, player view, picture."),
        (name = "games", description = "The record store: store records (token when configured), fetch and list them."),
    )
)]
pub struct ApiDoc;

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
/// declares is Banqi's; this names it `banqi` and adds the other games' beside it.
struct GameExamples;

impl Modify for GameExamples {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::RefOr;
        use utoipa::openapi::example::ExampleBuilder;
        let named = |content: &mut utoipa::openapi::content::Content, game: &str, value| {
            if let Some(banqi) = content.example.take() {
                content.examples.insert(
                    "banqi".into(),
                    RefOr::T(
                        ExampleBuilder::new()
                            .summary("Banqi")
                            .value(Some(banqi))
                            .build(),
                    ),
                );
            }
            content.examples.insert(
                game.into(),
                RefOr::T(
                    ExampleBuilder::new()
                        .summary("Three Kingdoms Banqi")
                        .value(Some(value))
                        .build(),
                ),
            );
        };
        for (path, request, response) in crate::examples_tk::by_path() {
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
                        named(content, "three-kingdoms", request.clone());
                    }
                }
            }
            if let Some(RefOr::T(ok)) = op.responses.responses.get_mut("200") {
                for content in ok.content.values_mut() {
                    if let RefOr::T(content) = content {
                        named(content, "three-kingdoms", response.clone());
                    }
                }
            }
        }
    }
}
