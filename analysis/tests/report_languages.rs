//! `anqi report --lang`: the page, its charts and the players' pages in English, 繁體中文 and
//! 简体中文, from one table of words per language (`i18n/<code>.json`, the `report.*` keys).
//! The data (stats.json, the CSV tables) is the same whatever the language; no key is
//! missing from any language; the Chinese pages read without an English word of the
//! report's own; the English table titles on the page are the titles the data carries.

use std::path::{Path, PathBuf};

use serde_json::Value;

mod tool;
use tool::{anqi, simulated_logs};

/// Logs of every game (two Luzhanqi modes, Banqi between two named bots so that the
/// ratings, groups and findings are said), simulated once for all the tests here.
fn logs(dir: &Path) -> PathBuf {
    simulated_logs(
        dir,
        &[
            &["--games", "60", "--seed", "5", "--bot", "greedy,random"],
            &["--games", "20", "--seed", "6"],
            &["--game", "three-kingdoms", "--games", "30", "--seed", "7"],
            &[
                "--game", "luzhanqi", "--mode", "dark", "--games", "30", "--seed", "8",
            ],
            &[
                "--game", "luzhanqi", "--mode", "flip", "--games", "20", "--seed", "9",
            ],
            &["--game", "xiangqi-3g", "--games", "40", "--seed", "10"],
        ],
    )
}

fn report(logs: &Path, out: &Path, lang: &str) {
    let (code, text) = anqi(&[
        "report",
        logs.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--lang",
        lang,
    ]);
    assert_eq!(code, 0, "{lang}: {text}");
}

/// Every page a report writes for people: index.html, the players' pages, the charts' SVG.
fn pages(out: &Path) -> Vec<(PathBuf, String)> {
    let mut files = vec![out.join("index.html")];
    for dir in ["players", "charts"] {
        for entry in std::fs::read_dir(out.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("html" | "svg")
            ) {
                files.push(path);
            }
        }
    }
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (p, text)
        })
        .collect()
}

/// The words of a page as read: tags, styles, the embedded font and code spans left out.
fn words(html: &str) -> String {
    let body = html.split("</style>").last().unwrap();
    let mut out = String::new();
    let (mut inside, mut code) = (false, false);
    let mut tag = String::new();
    for c in body.chars() {
        match c {
            '<' => {
                inside = true;
                tag.clear();
            }
            '>' if inside => {
                inside = false;
                if tag.starts_with("code") {
                    code = true;
                } else if tag.starts_with("/code") {
                    code = false;
                }
                // A run of Chinese is marked by a span, inside a sentence.
                if !tag.starts_with("span") && !tag.starts_with("/span") {
                    out.push(' ');
                }
            }
            _ if inside => tag.push(c),
            _ if !code => out.push(c),
            _ => {}
        }
    }
    out
}

/// The CSV tables and stats.json of a report, by name.
fn data(out: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files = vec![(
        "stats.json".to_owned(),
        std::fs::read(out.join("stats.json")).unwrap(),
    )];
    let mut tables: Vec<PathBuf> = std::fs::read_dir(out.join("tables"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    tables.sort();
    for t in tables {
        files.push((
            t.file_name().unwrap().to_string_lossy().into_owned(),
            std::fs::read(&t).unwrap(),
        ));
    }
    files
}

fn words_table(code: &str) -> serde_json::Map<String, Value> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../i18n/{code}.json"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn the_report_speaks_english_and_both_chineses_from_the_same_numbers() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-report-languages");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let logs = logs(&dir);
    // `zh-TW` and `zh-CN` are read as the scripts they are written in.
    let runs = [("en", "en"), ("zh-TW", "zh-Hant"), ("zh-CN", "zh-Hans")];
    for (asked, _) in runs {
        report(&logs, &dir.join(asked), asked);
    }
    let english_data = data(&dir.join("en"));
    for (asked, code) in runs {
        let out = dir.join(asked);
        // The numbers do not depend on the language: the same bytes.
        assert_eq!(
            data(&out),
            english_data,
            "{asked}: the data differs from English"
        );
        let index = std::fs::read_to_string(out.join("index.html")).unwrap();
        assert!(
            index.contains(&format!("<html lang=\"{code}\">")),
            "{asked}"
        );
        let players = std::fs::read_dir(out.join("players")).unwrap().count();
        assert!(players >= 3, "{asked}: the players' pages (and their font)");
        for (path, text) in pages(&out) {
            assert!(
                !text.contains("[missing: "),
                "{}: a key missing from i18n/{code}.json: {}",
                path.display(),
                &text[text.find("[missing: ").unwrap()..][..60]
            );
            if code == "en" {
                continue;
            }
            // Chinese pages say nothing in the report's English (player names, notation and
            // code spans aside).
            let read = words(&text);
            for english in [
                " games", "finished", "Results", " rate", "seat", "plies", "preset", "player 1",
                "Rating", "Charts", " by ", " of ", "the ",
            ] {
                assert!(
                    !read.contains(english),
                    "{}: {english:?} in {}",
                    path.display(),
                    &read[read.find(english).unwrap().saturating_sub(80)..]
                        [..160.min(read.len() - read.find(english).unwrap().saturating_sub(80))]
                );
            }
        }
    }
    let hant = words(&std::fs::read_to_string(dir.join("zh-TW/index.html")).unwrap());
    for said in [
        "暗棋統計報告",
        "完賽對局的結束方式",
        "三國暗棋",
        "陸戰棋",
        "番兵象棋",
        "等級分採 Elo 量尺",
        "TCGA 競賽規則",
    ] {
        assert!(hant.contains(said), "zh-Hant: {said}");
    }
    let hans = words(&std::fs::read_to_string(dir.join("zh-CN/index.html")).unwrap());
    for said in ["暗棋统计报告", "完赛对局的结束方式", "等级分采 Elo 量尺"] {
        assert!(hans.contains(said), "zh-Hans: {said}");
    }
    // A piece is said as its board writes it, with its side: 紅帥 … 黑卒.
    assert!(
        ["紅", "黑"].iter().any(|side| {
            [
                "帥", "仕", "相", "俥", "傌", "炮", "兵", "將", "士", "象", "車", "馬", "包", "卒",
            ]
            .iter()
            .any(|glyph| hant.contains(&format!("{side}{glyph}")))
        }),
        "zh-Hant: the first flips' pieces"
    );
    // The English page's table titles are the titles the data carries (stats.json).
    let en = words_table("en");
    let stats: Value =
        serde_json::from_slice(&std::fs::read(dir.join("en/stats.json")).unwrap()).unwrap();
    let mut titled = 0;
    for section in ["tables", "players"] {
        for t in stats[section].as_array().unwrap() {
            let key = format!("report.table.{}", t["name"].as_str().unwrap());
            assert_eq!(
                en.get(&key).and_then(Value::as_str),
                t["title"].as_str(),
                "{key} in i18n/en.json and the table's own title"
            );
            titled += 1;
        }
    }
    assert!(titled >= 30, "{titled} tables");
    // Merged reports speak the language asked too.
    let merged = dir.join("merged");
    let (code, text) = anqi(&[
        "report",
        "--merge",
        dir.join("en").to_str().unwrap(),
        "-o",
        merged.to_str().unwrap(),
        "--lang",
        "zh-Hans",
    ]);
    assert_eq!(code, 0, "{text}");
    let page = std::fs::read_to_string(merged.join("index.html")).unwrap();
    assert!(page.contains("<html lang=\"zh-Hans\">") && page.contains("暗棋统计报告"));
    assert!(!page.contains("[missing: "));
}

#[test]
fn a_language_anqi_does_not_speak_is_refused_before_anything_is_read() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-report-no-language");
    let _ = std::fs::remove_dir_all(&dir);
    let (code, text) = anqi(&[
        "report",
        "no-such-input.jsonl",
        "-o",
        dir.to_str().unwrap(),
        "--lang",
        "fr",
    ]);
    assert_eq!(code, 2, "{text}");
    assert!(
        text.contains("no words in \"fr\": the languages are en, zh-Hant and zh-Hans"),
        "{text}"
    );
    assert!(!dir.exists(), "nothing written");
}

/// Every key of every language's table, and the same keys in each: a key added to English
/// and forgotten in Chinese fails here (the pages' test checks the same of their keys).
#[test]
fn every_report_key_is_in_every_language() {
    let en = words_table("en");
    let report: Vec<&String> = en.keys().filter(|k| k.starts_with("report.")).collect();
    assert!(report.len() > 200, "{} report keys", report.len());
    for code in ["zh-Hant", "zh-Hans"] {
        let table = words_table(code);
        for key in &report {
            let (english, said) = (en[*key].as_str().unwrap(), table[*key].as_str());
            let said = said.unwrap_or_else(|| panic!("{key} missing from i18n/{code}.json"));
            // The same slots, each filled in every language.
            let slots = |s: &str| {
                let mut v: Vec<String> = s
                    .split('{')
                    .skip(1)
                    .filter_map(|p| p.split_once('}').map(|(slot, _)| slot.to_owned()))
                    .collect();
                v.sort();
                v.dedup();
                v
            };
            assert_eq!(slots(english), slots(said), "{code}: {key}");
        }
    }
}
