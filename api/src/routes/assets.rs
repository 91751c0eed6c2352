//! What the pages load besides themselves, all from the service: the icon (`/favicon.svg`,
//! and `/favicon.ico` for the browsers that ask for it whatever the page says), so that no
//! page's first request fails, and the project's font (`/fonts/anqi-serif.otf`: the subset of
//! Noto Serif CJK TC the boards are drawn with, which also holds every character of the pages'
//! Chinese words), so that Chinese reads on a machine without CJK fonts.

use std::sync::OnceLock;

use actix_web::HttpResponse;
use actix_web::http::header;
use records::core::glyphs::{Anchor, Glyphs};

/// The icon: a red general (帥) on a piece's disc, its glyph drawn as a path like the boards'.
fn icon() -> &'static str {
    static ICON: OnceLock<String> = OnceLock::new();
    ICON.get_or_init(|| {
        let mut glyphs = Glyphs::new();
        let text = glyphs.text(32.0, 44.0, 36.0, Anchor::Middle, "#b3121b", "帥");
        format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64"><circle cx="32" cy="32" r="30" fill="#fbf1da" stroke="#b3121b" stroke-width="3"/><circle cx="32" cy="32" r="25" fill="none" stroke="#b3121b" stroke-width="1.5"/>{text}{}</svg>"##,
            glyphs.defs()
        )
    })
}

pub async fn favicon() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("image/svg+xml")
        .insert_header((header::CACHE_CONTROL, "public, max-age=86400"))
        .body(icon())
}

/// `/favicon.ico`: the icon is an SVG.
pub async fn favicon_ico() -> HttpResponse {
    HttpResponse::PermanentRedirect()
        .insert_header((header::LOCATION, "/favicon.svg"))
        .finish()
}

/// `/fonts/anqi-serif.otf`: the project's font, as the pages' web font.
pub async fn font() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("font/otf")
        .insert_header((header::CACHE_CONTROL, "public, max-age=86400"))
        .body(records::core::glyphs::FONT)
}
