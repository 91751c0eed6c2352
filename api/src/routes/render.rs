//! Pictures: a position (or a seat's masked view) as SVG, by POST or as an `<img src>`.

use actix_web::{HttpResponse, web};
use records::core::{Rules, Told};
use records::games::GameKind;
use records::with_game;
use serde::Deserialize;
use serde_json::Map;
use utoipa::{IntoParams, ToSchema};

use crate::body::{GameBody, GameJson};
use crate::examples;
use crate::problem::Problem;
use crate::routes::parse::{action, default_game, game_kind, position, position_problem, ruleset};

#[derive(Deserialize, ToSchema, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct RenderRequest {
    /// The kind of game (default `banqi`).
    #[serde(default = "default_game")]
    #[param(value_type = GameKind, example = records::games::GameKind::default_name)]
    #[schema(value_type = GameKind, default = records::games::GameKind::default_name)]
    pub game: String,
    /// A position string; the start when absent.
    #[serde(default)]
    #[param(example = "k3/4/4/4/4/4/1p2/P2X r C1 5 30")]
    pub position: Option<String>,
    /// The last action, whose squares are highlighted.
    #[param(example = "a2-a1")]
    #[serde(default)]
    pub last_action: Option<String>,
}

/// A position as an SVG picture: the 4×8 board (rank 8 at the top), pieces as Chinese
/// characters (red 帥仕相俥傌炮兵, black 將士象車馬包卒), covered pieces as backs, and the
/// squares of the last action highlighted.
#[utoipa::path(post, path = "/v1/render", tag = "positions",
    request_body(content = RenderRequest, example = examples::render_request),
    responses(
        (status = 200, description = "The picture.", content_type = "image/svg+xml", body = String,
            example = examples::render_response),
        (status = 400, description = "Malformed position or action.", body = Problem, content_type = "application/problem+json")))]
pub async fn render(
    GameJson {
        kind,
        body: request,
    }: GameJson<RenderRequest>,
) -> Result<HttpResponse, Problem> {
    render_svg(kind, &request)
}

/// The same picture for an `<img src>`: position and last action in the query string.
#[utoipa::path(get, path = "/v1/render.svg", tag = "positions",
    params(RenderRequest),
    responses(
        (status = 200, description = "The picture.", content_type = "image/svg+xml", body = String,
            example = examples::render_response),
        (status = 400, description = "Malformed position or action.", body = Problem, content_type = "application/problem+json")))]
pub async fn render_get(query: web::Query<RenderRequest>) -> Result<HttpResponse, Problem> {
    render_svg(game_kind(&query.game)?, &query)
}

fn render_svg(kind: GameKind, request: &RenderRequest) -> Result<HttpResponse, Problem> {
    let svg = with_game!(kind, G => svg_of::<G>(request))?;
    Ok(HttpResponse::Ok().content_type("image/svg+xml").body(svg))
}

fn svg_of<G: Rules>(request: &RenderRequest) -> Result<String, Problem> {
    let last = match &request.last_action {
        Some(text) => Some(action::<G>(text, "last_action")?),
        None => None,
    };
    let told = match request.position.as_deref() {
        Some(text) => Told::<G>::parse(text).map_err(position_problem)?,
        None => {
            let rules = ruleset::<G>(None, &Map::new())?;
            Told::Position(position::<G>(None, &rules, None)?)
        }
    };
    Ok(told.svg(last.as_ref()))
}

impl GameBody for RenderRequest {
    fn game(&self) -> &str {
        &self.game
    }
}
