//! The pages' languages (issue 60): one table of words per language (`i18n/*.json`), the same
//! keys in each, every key a page asks for present; the language chosen by `?lang=`, the
//! switch's cookie, `Accept-Language`, English; the font the pages' Chinese is drawn with.

use std::collections::BTreeSet;

use actix_web::test as actix_test;
use serde_json::{Map, Value};

fn table(code: &str) -> Map<String, Value> {
    let path = format!("{}/../i18n/{code}.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

const LANGUAGES: [&str; 3] = ["en", "zh-Hant", "zh-Hans"];
const PAGES: [&str; 3] = [
    "src/routes/play.html",
    "src/routes/viewer.html",
    "src/routes/pages.js",
];

/// The keys a page names literally: `t("key"` (a call of `t`, not of `split`) and
/// `data-t="key"` (and its `-title`, `-placeholder` kin).
fn keys_named(page: &str) -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    for opener in [
        r#"t(""#,
        r#"data-t=""#,
        r#"data-t-title=""#,
        r#"data-t-placeholder=""#,
    ] {
        let mut at = 0;
        while let Some(found) = page[at..].find(opener) {
            let start = at + found;
            at = start + opener.len();
            let before = page[..start].chars().next_back();
            if opener.starts_with('t')
                && before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
            {
                continue;
            }
            let rest = &page[at..];
            let key = &rest[..rest.find('"').unwrap()];
            if !key.is_empty() && !key.contains('$') {
                keys.insert(key.to_owned());
            }
        }
    }
    keys
}

#[test]
fn every_language_has_every_word_a_page_asks_for() {
    let english = table("en");
    for code in LANGUAGES {
        let words = table(code);
        let (have, want): (BTreeSet<_>, BTreeSet<_>) =
            (words.keys().collect(), english.keys().collect());
        assert_eq!(
            have.symmetric_difference(&want).collect::<Vec<_>>(),
            Vec::<&&String>::new(),
            "{code}: keys not in both it and en.json"
        );
        for (key, value) in &words {
            let text = value
                .as_str()
                .unwrap_or_else(|| panic!("{code} {key}: not text"));
            assert!(!text.trim().is_empty(), "{code} {key}: empty");
            // The same slots as English's.
            let slots = |s: &str| -> BTreeSet<String> {
                s.split('{')
                    .skip(1)
                    .map(|p| p[..p.find('}').unwrap()].to_owned())
                    .collect()
            };
            assert_eq!(
                slots(text),
                slots(english[key].as_str().unwrap()),
                "{code} {key}"
            );
        }
    }
    for page in PAGES {
        let text =
            std::fs::read_to_string(format!("{}/{page}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        for key in keys_named(&text) {
            assert!(
                english.contains_key(&key),
                "{page} asks for {key:?}, which en.json lacks"
            );
        }
    }
    // The keys the pages build: every ending, side, game, place and attack outcome.
    let built = [
        "ending.resignation",
        "ending.timeout",
        "ending.checkmate",
        "ending.flag_captured",
        "side.red",
        "side.black",
        "side.generals",
        "place.1",
        "place.3",
        "outcome.both",
        "game.banqi",
        "game.three-kingdoms",
        "game.luzhanqi",
        "game.xiangqi-3g",
    ];
    for key in built {
        assert!(english.contains_key(key), "{key}");
    }
    for who in ["mine", "theirs"] {
        for outcome in ["win", "loss", "both"] {
            assert!(english.contains_key(&format!("said.attack.{who}.{outcome}")));
        }
    }
}

/// English keeps the service's own preset titles: a table that lagged behind a renamed preset
/// fails here.
#[actix_web::test]
async fn english_preset_titles_are_the_services() {
    let app = actix_test::init_service(api::app(api::Settings::default())).await;
    let english = table("en");
    for game in ["banqi", "three-kingdoms", "luzhanqi", "xiangqi-3g"] {
        let req = actix_test::TestRequest::get()
            .uri(&format!("/v1/presets?game={game}"))
            .to_request();
        let presets: Value = actix_test::call_and_read_body_json(&app, req).await;
        for p in presets["presets"].as_array().unwrap() {
            let key = format!("preset.{game}.{}", p["name"].as_str().unwrap());
            assert_eq!(english.get(&key), Some(&p["title"]), "{key}");
        }
    }
}

#[actix_web::test]
async fn a_page_speaks_the_language_asked_for() {
    let app = actix_test::init_service(api::app(api::Settings::default())).await;
    let hant = table("zh-Hant")["play.title"].as_str().unwrap().to_owned();
    let hans = table("zh-Hans")["play.title"].as_str().unwrap().to_owned();
    let english = table("en")["play.title"].as_str().unwrap().to_owned();
    for (uri, headers, lang, word) in [
        ("/play/", vec![], "en", &english),
        (
            "/play/",
            vec![("accept-language", "zh-TW,zh;q=0.9,en;q=0.8")],
            "zh-Hant",
            &hant,
        ),
        (
            "/play/",
            vec![("accept-language", "zh-CN")],
            "zh-Hans",
            &hans,
        ),
        (
            "/play/",
            vec![
                ("accept-language", "zh-CN"),
                ("cookie", "a=b; anqi_lang=zh-Hant"),
            ],
            "zh-Hant",
            &hant,
        ),
        (
            "/play/?lang=en",
            vec![
                ("accept-language", "zh-TW"),
                ("cookie", "anqi_lang=zh-Hans"),
            ],
            "en",
            &english,
        ),
        (
            "/view/",
            vec![("accept-language", "zh-HK")],
            "zh-Hant",
            &hant,
        ),
    ] {
        let mut req = actix_test::TestRequest::get().uri(uri);
        for h in headers {
            req = req.insert_header(h);
        }
        let res = actix_test::call_service(&app, req.to_request()).await;
        assert_eq!(res.status(), 200);
        assert_eq!(
            res.headers().get("content-language").unwrap(),
            lang,
            "{uri}"
        );
        assert!(
            res.headers()
                .get("vary")
                .unwrap()
                .to_str()
                .unwrap()
                .contains("Accept-Language")
        );
        let body = String::from_utf8(actix_test::read_body(res).await.to_vec()).unwrap();
        assert!(
            body.contains(&format!(r#"<html lang="{lang}">"#)),
            "{uri} {lang}"
        );
        assert!(
            body.contains(word.as_str()),
            "{uri}: {lang}'s words inlined"
        );
        assert!(
            !body.contains("/*WORDS*/") && !body.contains("/*COMMON*/"),
            "{uri}"
        );
        assert!(
            body.contains("function applyWords("),
            "{uri}: the shared script inlined"
        );
        // The report's words (`report.*`, the same tables) are not sent to a page.
        assert!(
            !body.contains("\"report.title\"") && body.contains("\"play.title\""),
            "{uri}: the page's words only"
        );
    }
    // The font the pages' Chinese is drawn with, and the icon.
    for (uri, ctype) in [
        ("/fonts/anqi-serif.otf", "font/otf"),
        ("/favicon.svg", "image/svg+xml"),
    ] {
        let res =
            actix_test::call_service(&app, actix_test::TestRequest::get().uri(uri).to_request())
                .await;
        assert_eq!(res.status(), 200, "{uri}");
        assert_eq!(res.headers().get("content-type").unwrap(), ctype, "{uri}");
    }
}

/// Each game's pieces by letter, as the board writes them and in words: the page writes a
/// flip's revealed piece with them (`a1(g)` → `a1 士`).
#[actix_web::test]
async fn each_game_lists_its_pieces_for_people() {
    let app = actix_test::init_service(api::app(api::Settings::default())).await;
    let req = actix_test::TestRequest::get()
        .uri("/v1/game-types")
        .to_request();
    let kinds: Value = actix_test::call_and_read_body_json(&app, req).await;
    let of = |game: &str| {
        kinds
            .as_array()
            .unwrap()
            .iter()
            .find(|k| k["game"] == game)
            .unwrap()["pieces"]
            .clone()
    };
    assert_eq!(
        of("banqi")["R"],
        serde_json::json!({"glyph": "俥", "name": "red chariot"})
    );
    assert_eq!(of("banqi")["c"]["glyph"], "包");
    assert_eq!(of("banqi").as_object().unwrap().len(), 14);
    assert_eq!(of("three-kingdoms").as_object().unwrap().len(), 14);
    for game in ["luzhanqi", "xiangqi-3g"] {
        assert!(of(game).as_object().unwrap().len() >= 14, "{game}");
    }
}
