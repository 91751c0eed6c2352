//! The pages' languages: English, 繁體中文 and 简体中文. Each language's words are one table,
//! `i18n/<code>.json` at the repository's root (the pages' and the report's), a flat map of
//! keys to text with `{name}` slots. A page is served with its language's table inlined (no
//! request more, nothing shown in the wrong language first), chosen by the address's
//! `?lang=`, else the `anqi_lang` cookie the page's switch sets, else `Accept-Language`, else
//! English.

use actix_web::HttpRequest;
use actix_web::http::header;

/// A language the pages speak.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Language {
    English,
    Traditional,
    Simplified,
}

impl Language {
    pub const ALL: [Language; 3] = [
        Language::English,
        Language::Traditional,
        Language::Simplified,
    ];

    /// Its BCP 47 tag: `en`, `zh-Hant`, `zh-Hans`.
    pub const fn code(self) -> &'static str {
        match self {
            Language::English => "en",
            Language::Traditional => "zh-Hant",
            Language::Simplified => "zh-Hans",
        }
    }

    /// Its table of words (JSON).
    pub const fn words(self) -> &'static str {
        match self {
            Language::English => include_str!("../../../i18n/en.json"),
            Language::Traditional => include_str!("../../../i18n/zh-Hant.json"),
            Language::Simplified => include_str!("../../../i18n/zh-Hans.json"),
        }
    }

    /// The language a tag asks for, if the pages speak it: `zh-TW`, `zh-HK`, `zh-MO` and
    /// `zh-Hant…` are traditional; `zh`, `zh-CN`, `zh-SG` and `zh-Hans…` simplified; `en…`
    /// English.
    pub fn of_tag(tag: &str) -> Option<Language> {
        let tag = tag.trim().to_ascii_lowercase();
        let mut parts = tag.split(['-', '_']);
        match parts.next()? {
            "en" => Some(Language::English),
            "zh" => {
                let rest: Vec<&str> = parts.collect();
                let traditional = rest
                    .iter()
                    .any(|p| matches!(*p, "hant" | "tw" | "hk" | "mo"));
                Some(if traditional {
                    Language::Traditional
                } else {
                    Language::Simplified
                })
            }
            _ => None,
        }
    }

    /// The language `Accept-Language` prefers among the pages' (by its weights, then its
    /// order), if any.
    pub fn of_accept(header: &str) -> Option<Language> {
        let mut asked: Vec<(f32, usize, Language)> = header
            .split(',')
            .enumerate()
            .filter_map(|(i, item)| {
                let mut parts = item.split(';');
                let language = Language::of_tag(parts.next()?)?;
                let q = parts
                    .find_map(|p| p.trim().strip_prefix("q=")?.parse::<f32>().ok())
                    .unwrap_or(1.0);
                (q > 0.0).then_some((q, i, language))
            })
            .collect();
        asked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        asked.first().map(|(_, _, language)| *language)
    }

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
        .replacen("/*WORDS*/", language.words().trim(), 1)
        .replacen("/*COMMON*/", COMMON, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_language_picks_the_script() {
        let of = |h: &str| Language::of_accept(h).map(Language::code);
        assert_eq!(of("zh-TW,zh;q=0.9,en;q=0.8"), Some("zh-Hant"));
        assert_eq!(of("zh-HK"), Some("zh-Hant"));
        assert_eq!(of("zh-Hant-TW"), Some("zh-Hant"));
        assert_eq!(of("zh-CN,zh;q=0.9"), Some("zh-Hans"));
        assert_eq!(of("zh"), Some("zh-Hans"));
        assert_eq!(
            of("fr-FR,en;q=0.5,zh-TW;q=0.7"),
            Some("zh-Hant"),
            "by weight"
        );
        assert_eq!(of("en-GB,zh-TW"), Some("en"), "by order at equal weight");
        assert_eq!(of("fr,de"), None);
        assert_eq!(of("zh-TW;q=0,en"), Some("en"), "q=0 is not wanted");
    }
}
