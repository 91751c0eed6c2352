//! The languages people read Anqi in: English, 繁體中文 and 简体中文. Each language's words
//! are one table, `i18n/<code>.json` at the repository's root, a flat map of keys to text with
//! `{name}` slots, shared by the service's pages (`play.*`, `viewer.*` …) and the report
//! (`report.*`). A key a table lacks reads as `[missing: key]`, so that a missing translation shows
//! (the tests look for it) instead of falling back to another language unseen.

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

/// A language the pages and the report speak.
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
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A language tag Anqi does not speak.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no words in {0:?}: the languages are en, zh-Hant and zh-Hans")]
pub struct UnknownLanguage(pub String);

impl FromStr for Language {
    type Err = UnknownLanguage;

    /// A BCP 47 tag as [`Language::of_tag`] reads it (`en`, `zh-Hant`, `zh-TW`, `zh-CN` …).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Language::of_tag(s).ok_or_else(|| UnknownLanguage(s.to_owned()))
    }
}

/// A language's table of words, read once.
#[derive(Debug)]
pub struct Phrases {
    language: Language,
    table: HashMap<String, String>,
}

impl Phrases {
    /// The table of `language` (parsed on first use, then shared).
    pub fn of(language: Language) -> &'static Phrases {
        static TABLES: [OnceLock<Phrases>; 3] = [const { OnceLock::new() }; 3];
        let index = Language::ALL
            .iter()
            .position(|l| *l == language)
            .unwrap_or(0);
        TABLES[index].get_or_init(|| Phrases {
            language,
            table: serde_json::from_str(language.words()).unwrap_or_else(|e| {
                panic!("i18n/{}.json is a flat map of text: {e}", language.code())
            }),
        })
    }

    pub fn language(&self) -> Language {
        self.language
    }

    /// Whether the table has `key`.
    pub fn has(&self, key: &str) -> bool {
        self.table.contains_key(key)
    }

    /// The text of `key`; `[missing: key]` when the table lacks it.
    pub fn get(&self, key: &str) -> String {
        self.table
            .get(key)
            .cloned()
            .unwrap_or_else(|| format!("[missing: {key}]"))
    }

    /// The text of `key` with each `{slot}` filled (`fill("viewer.plies", &[("n", "12")])`).
    pub fn fill(&self, key: &str, slots: &[(&str, &str)]) -> String {
        let mut text = self.get(key);
        for (slot, value) in slots {
            text = text.replace(&format!("{{{slot}}}"), value);
        }
        text
    }

    /// A list in the language's own way: `a, b, c` in English, `a、b、c` in Chinese.
    pub fn list(&self, items: &[String]) -> String {
        items.join(&self.get("report.list_separator"))
    }

    /// Whether the language is one of the Chinese ones (no spaces between words).
    pub fn is_chinese(&self) -> bool {
        self.language != Language::English
    }
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

    #[test]
    fn a_missing_key_shows_and_slots_fill() {
        let en = Phrases::of(Language::English);
        assert_eq!(en.get("no.such.key"), "[missing: no.such.key]");
        assert_eq!(en.fill("viewer.plies", &[("n", "12")]), "12 plies");
        assert_eq!("zh-TW".parse::<Language>(), Ok(Language::Traditional));
        assert!("fr".parse::<Language>().is_err());
    }
}
