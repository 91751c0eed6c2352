//! The game viewer, `GET /view/`: one self-contained page (its style and script inline, no
//! other origin) that opens a record (a stored game's id, a file, pasted text, or the address:
//! `?id=`, `?record=`, or `?game=&game_id=&token=` for a seat's own view) and steps through it
//! with the service's own answers: `/v1/replay`, `/v1/render.svg`, `/v1/score`, `/v1/view`.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse};

use super::language::{Language, page_in};

const PAGE: &str = include_str!("viewer.html");

pub async fn page(req: HttpRequest) -> HttpResponse {
    self_contained(PAGE, super::language::of_request(&req))
}

/// One of the service's own pages in `language`: nothing but its inline script and style, and
/// the service itself (its content security policy); no referrer sent along.
pub fn self_contained(template: &'static str, language: Language) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .insert_header((header::VARY, "Accept-Language, Cookie"))
        .insert_header((header::CONTENT_LANGUAGE, language.code()))
        .insert_header((
            header::CONTENT_SECURITY_POLICY,
            "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self' data:",
        ))
        .insert_header((header::REFERRER_POLICY, "no-referrer"))
        .body(page_in(template, language))
}

/// `/view` without its slash.
pub async fn redirect() -> HttpResponse {
    HttpResponse::PermanentRedirect()
        .insert_header((header::LOCATION, "/view/"))
        .finish()
}
