//! Luzhanqi at the edge: its examples, and its own route, the check of one side's setup
//! (`POST /v1/luzhanqi/setup`).

use actix_web::web;
use serde_json::Value;
use utoipa::OpenApi;

pub mod examples;
pub mod setup;

/// What the service adds to the game: its examples and the setup check.
pub struct Edge;

#[derive(OpenApi)]
#[openapi(paths(setup::check))]
struct Paths;

impl super::Edge for Edge {
    fn examples() -> Vec<(&'static str, Value, Value)> {
        examples::by_path()
    }

    fn routes(cfg: &mut web::ServiceConfig) {
        cfg.service(crate::routes::post(
            "/v1/luzhanqi/setup",
            web::post().to(setup::check),
        ));
    }

    fn openapi() -> Option<utoipa::openapi::OpenApi> {
        Some(Paths::openapi())
    }
}
