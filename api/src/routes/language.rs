//! The pages' languages: English, 繁體中文 and 简体中文. Each language's words are one table,
//! `i18n/<code>.json` at the repository's root (the pages' and the report's), a flat map of
//! keys to text with `{name}` slots. A page is served with its language's table inlined (no
//! request more, nothing shown in the wrong language first), chosen by the address's
//! `?lang=`, else the `anqi_lang` cookie the page's switch sets, else `Accept-Language`, else
//! English.

use actix_web::HttpRequest;
use actix_web::http::header;

pub use records::core::language::Language;

/// The language a page is asked in: `?lang=`, the `anqi_lang` cookie, `Accept-Language`,
/// English.
pub fn of_request(req: &HttpRequest) -> Language {
    let query = req.query_string().split('&').find_map(|p| {
        let value = p.strip_prefix("lang=")?;
        Language::of_tag(value)
    });
    let cookie = || {
        let cookies = req.headers().get(header::COOKIE)?.to_str().ok()?;
        cookies.split(';').find_map(|c| {
            let value = c.trim().strip_prefix("anqi_lang=")?;
            Language::of_tag(value)
        })
    };
    let accept = || {
        let value = req.headers().get(header::ACCEPT_LANGUAGE)?.to_str().ok()?;
        Language::of_accept(value)
    };
    query
        .or_else(cookie)
        .or_else(accept)
        .unwrap_or(Language::English)
}

/// The script the pages share (their words' function, the language switch).
const COMMON: &str = include_str!("pages.js");

/// A page template in `language`: its `<html lang>` set, its words inlined where the template
/// says `/*WORDS*/` and the pages' shared script where it says `/*COMMON*/`.
pub fn page_in(template: &str, language: Language) -> String {
    template
        .replacen(
            r#"<html lang="en">"#,
            &format!(r#"<html lang="{}">"#, language.code()),
            1,
        )
        .replacen("/*WORDS*/", page_words(language), 1)
        .replacen("/*COMMON*/", COMMON, 1)
}

/// A language's words for the pages: its table without the report's (`report.*`), which no
/// page asks for.
fn page_words(language: Language) -> &'static str {
    static WORDS: [std::sync::OnceLock<String>; 3] = [const { std::sync::OnceLock::new() }; 3];
    let index = Language::ALL
        .iter()
        .position(|l| *l == language)
        .unwrap_or(0);
    WORDS[index].get_or_init(|| {
        let table: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(language.words()).expect("the words are a JSON map");
        let pages: serde_json::Map<String, serde_json::Value> = table
            .into_iter()
            .filter(|(key, _)| !key.starts_with("report."))
            .collect();
        serde_json::to_string(&pages).expect("a map serialises")
    })
}
