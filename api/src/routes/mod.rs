//! The route table: every path, its methods and its handler (the handlers are in the
//! modules below; what they all parse is in [`parse`]).

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};

use crate::problem::{Problem, ProblemKind};

pub mod analysis;
pub mod assets;
pub mod explorer;
pub mod games;
pub mod language;
pub mod lifecycle;
pub mod meta;
pub mod parse;
pub mod play;
pub mod players;
pub mod positions;
pub mod records_routes;
pub mod referee;
pub mod render;
pub mod stream;
pub mod tables;
pub mod viewer;

/// Registers every route. Each path answers its own methods; any other method gets 405 with
/// an `Allow` header.
pub fn configure(cfg: &mut web::ServiceConfig) {
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
        .service(post("/v1/replay", web::post().to(records_routes::replay)))
        .service(post("/v1/score", web::post().to(records_routes::score)))
        .service(post(
            "/v1/score/position",
            web::post().to(records_routes::score_position),
        ))
        .service(post("/v1/actions", web::post().to(positions::actions)))
        .service(post("/v1/play", web::post().to(positions::play)))
        .service(post("/v1/deal", web::post().to(positions::deal)))
        .service(post("/v1/view", web::post().to(positions::view)))
        .service(post("/v1/lifecycle", web::post().to(lifecycle::lifecycle)))
        .service(post("/v1/tables", web::post().to(tables::open)))
        .service(post("/v1/tables/state", web::post().to(tables::state)))
        .service(post("/v1/tables/answer", web::post().to(tables::answer)))
        .service(post("/v1/stream-ticket", web::post().to(stream::ticket)))
        .service(get("/v1/stream", web::get().to(stream::stream)))
        .service(post("/v1/analyze", web::post().to(analysis::analyze)))
        .service(post("/v1/review", web::post().to(analysis::review)))
        .service(post("/v1/render", web::post().to(render::render)))
        .service(get("/v1/render.svg", web::get().to(render::render_get)))
        .service(
            web::resource("/v1/render.png")
                .route(web::get().to(render::render_png_get))
                .route(web::post().to(render::render_png))
                .default_service(web::to(|| method_not_allowed("GET, POST"))),
        )
        .service(post("/v1/replay.png", web::post().to(render::replay_png)))
        .service(
            web::resource("/v1/games")
                .route(web::get().to(games::list))
                .route(web::post().to(games::create))
                .default_service(web::to(|| method_not_allowed("GET, POST"))),
        )
        .service(get("/v1/games/{id}", web::get().to(games::get)))
        .service(get("/v1/players", web::get().to(players::leaderboard)))
        .service(get("/v1/explorer", web::get().to(explorer::explorer)))
        .service(get("/v1/players/{name}", web::get().to(players::player)))
        .service(get("/view/", web::get().to(viewer::page)))
        .service(get("/view", web::get().to(viewer::redirect)))
        .service(get("/play/", web::get().to(play::page)))
        .service(get("/play", web::get().to(play::redirect)))
        .service(get("/favicon.svg", web::get().to(assets::favicon)))
        .service(get("/favicon.ico", web::get().to(assets::favicon_ico)))
        .service(get("/fonts/anqi-serif.otf", web::get().to(assets::font)));
    crate::games::routes(cfg);
}

/// A path that answers GET only.
pub fn get(path: &str, route: actix_web::Route) -> actix_web::Resource {
    web::resource(path)
        .route(route)
        .default_service(web::to(|| method_not_allowed("GET")))
}

/// A path that answers POST only.
pub fn post(path: &str, route: actix_web::Route) -> actix_web::Resource {
    web::resource(path)
        .route(route)
        .default_service(web::to(|| method_not_allowed("POST")))
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
