//! The report's page as a person reads it: `anqi report` on the real TCGA corpus (2,338 games,
//! `tests/data/tcga-ntu2021.tar.gz`), read in headless Chromium (`tests/browser/report.py`,
//! Debian's Chromium through its chromedriver with Selenium) at 1,000 and 800 pixels wide:
//! every chart text is at least 12 pixels as drawn, every heatmap label reads against its
//! square (WCAG contrast 4.5 to 1 at least), the page has no code, and the only first-flip
//! finding it states is one its adjusted, corrected interval supports, with 30 games compared
//! at least. The same report in 繁體中文 (`--lang zh-Hant`) is read too: the page's own font
//! loads, the charts read as well, the findings are said in Chinese. The screenshots are
//! `docs/screenshots/report-tcga*.png` (`UPDATE_PICTURES=1`
//! writes them).
//!
//! `.ci/run` installs Chromium, chromedriver and Selenium and sets `ANQI_REQUIRE_BROWSER`;
//! elsewhere, without them, the test says so and passes.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

mod tool;
use tool::{anqi, python};

fn browser_missing() -> Option<String> {
    for tool in ["/usr/bin/chromium", "/usr/bin/chromedriver"] {
        if !Path::new(tool).exists() {
            return Some(format!(
                "{tool} is not installed (Debian: chromium chromium-driver)"
            ));
        }
    }
    let selenium = Command::new(python())
        .args(["-c", "import selenium"])
        .status()
        .is_ok_and(|s| s.success());
    (!selenium)
        .then(|| "Selenium is not installed (pip: api/tests/browser/requirements.txt)".into())
}

/// The corpus's files, unpacked into `dir`.
fn unpack_corpus(dir: &Path) {
    let archive = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/tcga-ntu2021.tar.gz"
    );
    let file = std::fs::File::open(archive).unwrap();
    tar::Archive::new(flate2::read::GzDecoder::new(file))
        .unpack(dir)
        .unwrap();
}

/// The page's codes a person should not meet (as `the_page_has_words_not_codes`'s).
const CODES: [&str; 12] = [
    "player1",
    "player2",
    "NoMove",
    "no_move",
    "no_progress",
    "`",
    "null",
    "plies_from",
    "score_sum",
    "-0 ",
    "(-0",
    "transform:",
];

#[test]
fn the_tcga_report_reads_in_a_browser() {
    if let Some(why) = browser_missing() {
        assert!(
            std::env::var_os("ANQI_REQUIRE_BROWSER").is_none(),
            "ANQI_REQUIRE_BROWSER is set but {why}"
        );
        eprintln!("note: the report's browser test is skipped: {why}");
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-report-page");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    unpack_corpus(&dir.join("corpus"));
    let out = dir.join("report");
    let (code, text) = anqi(&[
        "report",
        dir.join("corpus").to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{text}");
    let shots = dir.join("screenshots");
    let read = read_in_browser(&out, &shots, "report-tcga");
    charts_read_well(&read);
    let page = read["text"].as_str().unwrap();
    for code in CODES {
        assert!(!page.contains(code), "the page says {code:?}");
    }
    // The groups that never met, and the provisional players apart.
    assert!(
        page.contains("The players fall into 4 groups that never met"),
        "{page}"
    );
    assert!(page.contains("Provisional (fewer than 20 games), not ranked"));
    // The first flip: only what the adjusted, corrected interval supports, with 30 games.
    let flips: Vec<&str> = page
        .lines()
        .filter(|l| {
            [
                "Player 1's first flip",
                "No first square",
                "The squares go with",
            ]
            .iter()
            .any(|start| l.starts_with(start))
        })
        .collect();
    assert_eq!(flips.len(), 1, "{flips:?}");
    let sentence = flips[0];
    assert!(
        sentence.contains("against the same players' other first flips in the same seats"),
        "{sentence}"
    );
    for named in sentence.split(" points, ").skip(1) {
        // `+9.3 to +17.4, 639 games)`: the interval excludes 0, on 30 games at least.
        let (interval, rest) = named.split_once(", ").unwrap();
        let (low, high) = interval.split_once(" to ").unwrap();
        let number = |s: &str| s.replace('−', "-").replace('+', "").parse::<f64>().unwrap();
        let (low, high) = (number(low), number(high));
        assert!(low > 0.0 || high < 0.0, "{sentence}");
        let games: u64 = rest
            .split(' ')
            .next()
            .unwrap()
            .replace(',', "")
            .parse()
            .unwrap();
        assert!(games >= 30, "{sentence}");
    }
    for name in ["report-tcga.png", "report-tcga-players.png"] {
        screenshot_kept(&shots, name);
    }
    // The same report in 繁體中文 (`--lang zh-Hant`), read in a Chromium without CJK fonts:
    // the page's own font loads, the charts' Chinese is as large as their English, and the
    // findings are the same numbers in Chinese words.
    let zh = dir.join("report-zh-Hant");
    let (code, text) = anqi(&[
        "report",
        dir.join("corpus").to_str().unwrap(),
        "-o",
        zh.to_str().unwrap(),
        "--lang",
        "zh-Hant",
    ]);
    assert_eq!(code, 0, "{text}");
    let read = read_in_browser(&zh, &shots, "report-tcga-zh-Hant");
    assert_eq!(read["font"], "loaded", "the embedded font");
    charts_read_well(&read);
    let page = read["text"].as_str().unwrap();
    for code in CODES.iter().chain(&["[missing: "]) {
        assert!(!page.contains(code), "the page says {code:?}");
    }
    assert!(
        page.contains("棋手分成 4 組，組與組之間不曾直接或間接交手"),
        "{page}"
    );
    assert!(page.contains("暫定（少於 20 局），不排名"), "{page}");
    assert!(page.contains("1 號首翻的位置有影響：") || page.contains("沒有任何首翻位置突出"));
    for name in ["report-tcga-zh-Hant.png", "report-tcga-zh-Hant-players.png"] {
        screenshot_kept(&shots, name);
    }
}

/// `report.py`'s reading of the report in `out` (screenshots named `name` in `shots`).
fn read_in_browser(out: &Path, shots: &Path, name: &str) -> Value {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/browser/report.py");
    let output = Command::new(python())
        .args([
            script,
            out.join("index.html").to_str().unwrap(),
            shots.to_str().unwrap(),
            name,
        ])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

/// Every chart's text is 12 pixels at least as drawn, at both widths, and every heatmap
/// label reads against its square.
fn charts_read_well(read: &Value) {
    for (width, charts) in read["widths"].as_object().unwrap() {
        let charts = charts.as_array().unwrap();
        assert!(
            charts.len() >= 5,
            "{width}: every chart measured: {charts:?}"
        );
        for chart in charts {
            let smallest = &chart["smallest"];
            let px = smallest[1].as_f64().unwrap();
            assert!(
                px >= 11.99,
                "{width} px wide, {}: {:?} drawn at {px:.2} px",
                chart["chart"],
                smallest[0]
            );
            if let Some(worst) = chart["worst_contrast"].as_array() {
                let ratio = worst[1].as_f64().unwrap();
                assert!(
                    ratio >= 4.5,
                    "{width} px wide, {}: {worst:?}",
                    chart["chart"]
                );
            }
        }
        let heatmap = charts
            .iter()
            .find(|c| c["labels"].as_u64().unwrap_or(0) > 0)
            .expect("the heatmap's labels measured");
        assert!(heatmap["labels"].as_u64().unwrap() >= 20, "{heatmap}");
    }
}

/// A screenshot taken, and kept in docs/screenshots (`UPDATE_PICTURES=1` writes it).
fn screenshot_kept(shots: &Path, name: &str) {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/screenshots");
    let taken = shots.join(name);
    assert!(std::fs::metadata(&taken).unwrap().len() > 10_000, "{name}");
    if std::env::var_os("UPDATE_PICTURES").is_some() {
        std::fs::copy(&taken, docs.join(name)).unwrap();
    }
    assert!(docs.join(name).exists(), "docs/screenshots/{name}");
}
