//! The game viewer, `GET /view/`: one self-contained page (its style and script inline, no
//! other origin) that opens a record (a stored game's id, a file, pasted text, or the address:
//! `?id=`, `?record=`, or `?game=&game_id=&token=` for a seat's own view) and steps through it
//! with the service's own answers: `/v1/replay`, `/v1/render.svg`, `/v1/score`, `/v1/view`.

use actix_web::HttpResponse;
use actix_web::http::header;

const PAGE: &str = include_str!("viewer.html");

pub async fn page() -> HttpResponse {
    self_contained(PAGE)
}

/// One of the service's own pages: nothing but its inline script and style, and the service
/// itself (its content security policy); no referrer sent along.
pub fn self_contained(page: &'static str) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .insert_header((
            header::CONTENT_SECURITY_POLICY,
            "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self' data:",
        ))
        .insert_header((header::REFERRER_POLICY, "no-referrer"))
        .body(page)
}

/// `/view` without its slash.
pub async fn redirect() -> HttpResponse {
    HttpResponse::PermanentRedirect()
        .insert_header((header::LOCATION, "/view/"))
        .finish()
}
