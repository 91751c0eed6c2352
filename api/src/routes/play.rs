//! The page to play on, `GET /play/`: one self-contained page (its style and script inline, no
//! other origin) that deals a game (against the service's engine, or a friend with a link per
//! seat) and plays it for one seat with that seat's token only: its legal actions, clicks on
//! the board picture (`/v1/render.svg?points=true`), its event stream, its clocks and the
//! game's life (resign, draw, abort). The token travels in the address's `#fragment`, which
//! no request carries.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse};

const PAGE: &str = include_str!("play.html");

pub async fn page(req: HttpRequest) -> HttpResponse {
    super::viewer::self_contained(PAGE, super::language::of_request(&req))
}

/// `/play` without its slash.
pub async fn redirect() -> HttpResponse {
    HttpResponse::PermanentRedirect()
        .insert_header((header::LOCATION, "/play/"))
        .finish()
}
