//! Pictures: a position (or a seat's masked view) as SVG, by POST or as an `<img src>`.

use actix_web::{HttpRequest, HttpResponse, web};
use records::core::Record;
use records::core::raster::{self, Animation, RasterError};
use records::core::{Rules, Told};
use records::games::GameKind;
use records::with_game;
use serde::Deserialize;
use serde_json::Map;
use utoipa::{IntoParams, ToSchema};

use crate::Settings;
use crate::body::{GameBody, GameJson};
use crate::examples;
use crate::problem::{Problem, ProblemKind};
use crate::routes::parse::{action, default_game, game_kind, position, position_problem, ruleset};
use crate::slots::Peer;

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
    /// The picture's width in pixels (64–2048; the board's own width by default), its height
    /// in proportion.
    #[param(example = 480, minimum = 64, maximum = 2048)]
    #[schema(minimum = 64, maximum = 2048)]
    #[serde(default)]
    pub width: Option<u32>,
    /// SVG only: also lay an invisible circle over every point of the board, named as actions
    /// write it (`<circle data-point="b6" …>`), for a page to take clicks on (`/play/`).
    #[param(example = false)]
    #[serde(default)]
    pub points: bool,
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

/// The same picture as PNG, for chat bots and e-mail: drawn by the service (resvg, with the
/// project's own glyphs: no fonts are needed to show it), `width` pixels wide. A seat's masked
/// view (a dark Luzhanqi seat's `?`s) is drawn as its view.
#[utoipa::path(post, path = "/v1/render.png", tag = "positions",
    request_body(content = RenderRequest, example = examples::render_png_request),
    responses(
        (status = 200, description = "The picture.", content_type = "image/png", body = Png,
            example = examples::png_response),
        (status = 400, description = "Malformed position or action, or a width outside 64–2048.", body = Problem, content_type = "application/problem+json")))]
pub async fn render_png(
    GameJson {
        kind,
        body: request,
    }: GameJson<RenderRequest>,
    settings: web::Data<Settings>,
) -> Result<HttpResponse, Problem> {
    png_of(kind, &request, &settings).await
}

/// The PNG picture for an `<img src>`: position, last action and width in the query string.
#[utoipa::path(get, path = "/v1/render.png", tag = "positions",
    params(RenderRequest),
    responses(
        (status = 200, description = "The picture.", content_type = "image/png", body = Png,
            example = examples::png_response),
        (status = 400, description = "Malformed position or action, or a width outside 64–2048.", body = Problem, content_type = "application/problem+json")))]
pub async fn render_png_get(
    query: web::Query<RenderRequest>,
    settings: web::Data<Settings>,
) -> Result<HttpResponse, Problem> {
    png_of(game_kind(&query.game)?, &query, &settings).await
}

/// A record's replay as an animated PNG (APNG, which browsers, chat apps and image viewers
/// play; others show the first frame), for sharing a game: the start, then the position after
/// every ply with that ply's action marked, each shown `frame_ms` (the last three times as
/// long), once. At most 1,000 frames (a record of 999 plies); the record must replay (else 422
/// naming the ply, as `/v1/validate` says it).
#[utoipa::path(post, path = "/v1/replay.png", tag = "records",
    request_body(content = ReplayPictureRequest, example = examples::replay_png_request),
    responses(
        (status = 200, description = "The animation.", content_type = "image/png", body = Png,
            example = examples::png_response),
        (status = 400, description = "Malformed JSON, or a width or frame time out of range.", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "More plies than one animation draws.", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The record does not replay.", body = Problem,
            content_type = "application/problem+json", example = examples::invalid_record)))]
pub async fn replay_png(
    req: HttpRequest,
    GameJson {
        kind,
        body: request,
    }: GameJson<ReplayPictureRequest>,
    settings: web::Data<Settings>,
) -> Result<HttpResponse, Problem> {
    let how = Animation {
        width: request.width,
        frame_millis: request
            .frame_ms
            .unwrap_or(Animation::default().frame_millis),
        ..Animation::default()
    };
    // Drawing takes milliseconds per frame: in a picture slot, off the HTTP workers, and
    // stopped between frames once the client has gone.
    let apng = settings
        .pictures
        .run(Peer::of(&req), move |waiting| {
            let drawn = with_game!(kind, G => raster::replay_apng_until::<G>(&request.record, &how, || waiting.gone()));
            if let Err(RasterError::Stopped) = drawn {
                tracing::info!("an animated picture stopped: its client went away");
            }
            drawn.map_err(raster_problem)
        })
        .await?;
    Ok(HttpResponse::Ok().content_type("image/png").body(apng))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReplayPictureRequest {
    #[serde(deserialize_with = "records::core::record::object")]
    pub record: Record,
    /// The picture's width in pixels (64–2048; the board's own width by default).
    #[schema(minimum = 64, maximum = 2048)]
    #[serde(default)]
    pub width: Option<u32>,
    /// How long each position shows, in milliseconds (100–10,000; default 1,000).
    #[schema(minimum = 100, maximum = 10000)]
    #[serde(default)]
    pub frame_ms: Option<u32>,
}

impl GameBody for ReplayPictureRequest {
    /// The record's game.
    fn game(&self) -> &str {
        &self.record.game
    }
    fn record(&self) -> Option<&Record> {
        Some(&self.record)
    }
}

/// A PNG image (documented only: the body is its bytes).
#[derive(ToSchema)]
#[schema(value_type = String, format = Binary)]
#[allow(dead_code)] // Never built: it names the body's schema.
pub struct Png(Vec<u8>);

async fn png_of(
    kind: GameKind,
    request: &RenderRequest,
    settings: &Settings,
) -> Result<HttpResponse, Problem> {
    let svg = with_game!(kind, G => svg_of::<G>(request))?;
    let width = request.width;
    // Drawing takes milliseconds per picture: in a picture slot, off the HTTP workers.
    let png = settings
        .pictures
        .run(None, move |_| {
            raster::png(&svg, width).map_err(raster_problem)
        })
        .await?;
    Ok(HttpResponse::Ok().content_type("image/png").body(png))
}

/// The problem of a picture that was not drawn.
pub(crate) fn raster_problem(e: RasterError) -> Problem {
    match &e {
        RasterError::Width(_) | RasterError::TooLarge { .. } => {
            Problem::new(ProblemKind::BadParameter, e.to_string()).field("width")
        }
        RasterError::FrameMillis(_) => {
            Problem::new(ProblemKind::BadParameter, e.to_string()).field("frame_ms")
        }
        RasterError::TooManyFrames { .. } => Problem::new(ProblemKind::TooManyPlies, e.to_string()),
        RasterError::Replay(replay) => Problem::from_replay(replay),
        RasterError::Draw(_) => Problem::new(ProblemKind::Internal, e.to_string()),
        // Nobody reads it: the client has gone.
        RasterError::Stopped => Problem::new(ProblemKind::PicturesBusy, e.to_string()),
    }
}

fn render_svg(kind: GameKind, request: &RenderRequest) -> Result<HttpResponse, Problem> {
    let mut svg = with_game!(kind, G => svg_of::<G>(request))?;
    if let Some(width) = request.width {
        svg = records::core::svg::scaled(&svg, width)
            .map_err(|e| raster_problem(RasterError::Width(e)))?;
    }
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
    let mut svg = told.svg(last.as_ref());
    if request.points
        && let Some(end) = svg.rfind("</svg>")
    {
        use std::fmt::Write;
        let mut layer = String::from(r#"<g class="points">"#);
        for (name, x, y, r) in G::points() {
            let _ = write!(
                layer,
                r##"<circle class="hit" data-point="{name}" cx="{x}" cy="{y}" r="{r}" fill="#000" fill-opacity="0" pointer-events="all"/>"##
            );
        }
        layer.push_str("</g>");
        svg.insert_str(end, &layer);
    }
    Ok(svg)
}

impl GameBody for RenderRequest {
    fn game(&self) -> &str {
        &self.game
    }
}
