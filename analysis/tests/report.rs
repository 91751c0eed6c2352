//! `anqi report` on a small hand-made set whose statistics are computed by hand.

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

mod tool;

fn game(preset: &str, actions: &[&str], result: Option<(&str, &str)>) -> String {
    let mut g = json!({"preset": preset, "actions": actions});
    if let Some((outcome, reason)) = result {
        g["result"] = json!({"outcome": outcome, "reason": reason});
    }
    g.to_string()
}

/// The rows of the count table `table`, as column → value.
fn rows(stats: &Value, table: &str) -> Vec<serde_json::Map<String, Value>> {
    tool::table_rows(stats, "tables", table)
}

fn row(stats: &Value, table: &str, keys: &[(&str, Value)]) -> serde_json::Map<String, Value> {
    rows(stats, table)
        .into_iter()
        .find(|r| keys.iter().all(|(k, v)| &r[*k] == v))
        .unwrap_or_else(|| panic!("{table} row {keys:?}"))
}

#[test]
fn statistics_of_a_hand_made_set() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-report");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // A: both first flips generals (doubled), player 1 (red) resigns the opponent: p1 wins.
    // B: a draw. C: player 2 wins, after B's draw (carry 1). D: invalid. E: another preset,
    // unfinished.
    let lines = [
        game(
            "tcga",
            &["a1(K)", "b1(k)"],
            Some(("player1", "resignation")),
        ),
        game("tcga", &["a1(P)", "b1(c)"], Some(("draw", "agreement"))),
        game("tcga", &["a1(P)", "c1(c)"], Some(("player2", "timeout"))),
        game("tcga", &["a1(P)", "a1(p)"], None),
        game("taiwan", &["d8(G)"], None),
    ];
    let input = dir.join("games.jsonl");
    std::fs::write(&input, lines.join("\n")).unwrap();
    let out = dir.join("report");
    let status = Command::new(env!("CARGO_BIN_EXE_anqi"))
        .args([
            "report",
            input.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ])
        .status()
        .unwrap();
    // The report of the valid games is written; the refused one makes it exit 1, as
    // validate, import and export do.
    assert_eq!(status.code(), Some(1));
    let stats: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("stats.json")).unwrap()).unwrap();
    assert_eq!(stats["summary"]["games"], 4);
    assert_eq!(stats["summary"]["rejected"], 1);
    assert_eq!(stats["summary"]["flips"], 7);

    // By preset: 1 win, 1 draw, 1 loss of 3; Wilson(1, 3) = [0.0615, 0.7923].
    let tcga = row(&stats, "by_preset", &[("preset", json!("tcga"))]);
    assert_eq!(
        (tcga["games"].as_u64(), tcga["finished"].as_u64()),
        (Some(3), Some(3))
    );
    assert_eq!(
        (
            tcga["wins"].as_u64(),
            tcga["draws"].as_u64(),
            tcga["losses"].as_u64()
        ),
        (Some(1), Some(1), Some(1))
    );
    assert_eq!(tcga["win_rate"], json!(0.3333));
    assert_eq!(tcga["win_low"], json!(0.0615));
    assert_eq!(tcga["win_high"], json!(0.7923));
    assert_eq!(tcga["score"], json!(0.5));
    let taiwan = row(&stats, "by_preset", &[("preset", json!("taiwan"))]);
    assert_eq!(
        (taiwan["games"].as_u64(), taiwan["finished"].as_u64()),
        (Some(1), Some(0))
    );
    // Red was player 1 in all three: red won, drew and lost once.
    let red = row(
        &stats,
        "by_side",
        &[("variant", json!("tcga")), ("side", json!("red"))],
    );
    assert_eq!(
        (
            red["wins"].as_u64(),
            red["draws"].as_u64(),
            red["losses"].as_u64()
        ),
        (Some(1), Some(1), Some(1))
    );
    // Flip openings.
    let a1 = row(
        &stats,
        "first_square",
        &[("preset", json!("tcga")), ("first_square", json!("a1"))],
    );
    assert_eq!(a1["games"], 3);
    let king = row(&stats, "first_piece", &[("first_piece", json!("K"))]);
    assert_eq!(
        (king["games"].as_u64(), king["wins"].as_u64()),
        (Some(1), Some(1))
    );
    let soldier = row(&stats, "first_piece", &[("first_piece", json!("P"))]);
    assert_eq!(
        (soldier["draws"].as_u64(), soldier["losses"].as_u64()),
        (Some(1), Some(1))
    );
    let pair = row(
        &stats,
        "first_pair",
        &[("first_piece", json!("P")), ("second_piece", json!("c"))],
    );
    assert_eq!(pair["games"], 2);
    // Second flips: b1 next to a1 in A and B (player 2 lost and drew), c1 alone in C (won).
    let next_to = row(
        &stats,
        "flips_adjacent",
        &[("number", json!("2")), ("adjacent", json!("true"))],
    );
    assert_eq!(
        (
            next_to["games"].as_u64(),
            next_to["draws"].as_u64(),
            next_to["losses"].as_u64()
        ),
        (Some(2), Some(1), Some(1))
    );
    let alone = row(
        &stats,
        "flips_adjacent",
        &[("number", json!("2")), ("adjacent", json!("false"))],
    );
    assert_eq!(
        (alone["games"].as_u64(), alone["wins"].as_u64()),
        (Some(1), Some(1))
    );
    // Money: A is doubled, (100 + 0) × 2 = 200; C carries B's draw, 100 + 100 = 200.
    let settled = row(
        &stats,
        "settlement",
        &[("preset", json!("tcga")), ("settlement", json!("200"))],
    );
    assert_eq!(settled["games"], 2);
    let margin = row(
        &stats,
        "margin",
        &[("preset", json!("tcga")), ("margin", json!("0"))],
    );
    assert_eq!(margin["games"], 2);
    let banqi = row(&stats, "banqi_overview", &[("preset", json!("tcga"))]);
    assert_eq!(
        (
            banqi["doubled"].as_u64(),
            banqi["decided"].as_u64(),
            banqi["carried"].as_u64()
        ),
        (Some(1), Some(2), Some(1))
    );
    assert_eq!(banqi["carried_rate"], json!(0.5));
    // Mean settlement of the decided games: (200 + 200) / 2.
    assert_eq!(banqi["mean_settlement"], json!(200.0));
    let overview = row(&stats, "overview", &[("preset", json!("tcga"))]);
    assert_eq!(overview["mean_plies"], json!(2.0));
    assert_eq!(
        (overview["games"].as_u64(), overview["finished"].as_u64()),
        (Some(3), Some(3))
    );
    // Every seat: player 2 won, drew and lost once too.
    let second = row(
        &stats,
        "by_seat",
        &[("preset", json!("tcga")), ("seat", json!("2"))],
    );
    assert_eq!(
        (
            second["wins"].as_u64(),
            second["draws"].as_u64(),
            second["losses"].as_u64()
        ),
        (Some(1), Some(1), Some(1))
    );
    let endings = rows(&stats, "endings");
    assert!(
        endings
            .iter()
            .any(|r| r["reason"] == "unfinished" && r["preset"] == "taiwan")
    );
    assert!(
        endings
            .iter()
            .any(|r| r["reason"] == "timeout" && r["outcome"] == "player2")
    );

    // The files: HTML with inline charts and the rejected game, CSV, PNG, Parquet in hive layout.
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(html.contains("<svg") && html.contains("first_pair") && html.contains("not_covered"));
    assert!(
        std::fs::read_to_string(out.join("invalid.csv"))
            .unwrap()
            .contains("games.jsonl#4,not_covered")
    );
    assert!(
        std::fs::read_to_string(out.join("tables/by_preset.csv"))
            .unwrap()
            .starts_with("game,preset,games,finished")
    );
    for chart in [
        "heatmaps",
        "results-banqi",
        "margins",
        "settlements",
        "lengths-banqi",
        "endings-banqi",
    ] {
        let png = std::fs::read(out.join(format!("charts/{chart}.png"))).unwrap();
        assert_eq!(&png[..4], b"\x89PNG", "{chart}");
        let svg = std::fs::read_to_string(out.join(format!("charts/{chart}.svg"))).unwrap();
        assert!(svg.contains("<svg"), "{chart}");
        // Whole numbers on the axes of counts and lengths: no `20.0`.
        assert!(!svg.contains(".0<"), "{chart}: a label like 20.0");
    }
    // Each heatmap board on its own scale, said in its title (or why it has none).
    let heatmaps = std::fs::read_to_string(out.join("charts/heatmaps.svg")).unwrap();
    assert!(
        heatmaps.contains("tcga: ") && heatmaps.contains("taiwan: "),
        "each board's scale in its title"
    );
    assert!(
        html.contains("a1 50%"),
        "the heatmap names a1 and its score"
    );
    // The page is for people: a contents list, a section per game with sentences, rates
    // with their intervals, and no raw keys (they are in stats.json).
    assert!(html.contains(r##"<a href="#banqi">"##) && html.contains(r#"<section id="banqi">"#));
    // The players are not named: the seats are compared, and the page says what that mixes.
    assert!(
        html.contains("seats are all the report can compare: the first mover scores "),
        "the first mover's score with its interval"
    );
    assert!(html.contains("it mixes who played with where they sat"));
    assert!(html.contains("Banqi's coins are settled at a stake of 100"));
    for raw in [
        "bonus_per_point",
        "flip_depth",
        "rejected_listed",
        "win_low",
        "score_sum",
    ] {
        assert!(!html.contains(raw), "{raw} is for stats.json only");
    }
    assert!(
        html.contains("@font-face") && html.contains("Anqi Serif"),
        "the page's own glyphs"
    );
    // Table cells speak the game's words: no seat, outcome or ending codes (the CSV has them;
    // the rejected games' table names each error by its code beside its sentence).
    let statistics = &html[..html.find(r#"id="rejected""#).unwrap()];
    for cell in statistics.split("<td>").skip(1) {
        let cell = &cell[..cell.find("</td>").unwrap()];
        assert!(
            !cell.contains("player1") && !cell.contains("player2") && !cell.contains('_'),
            "a code where people read: {cell:?}"
        );
    }
    assert!(html.contains("<td>player 2 won</td>") && html.contains("<td>time</td>"));
    for (table, preset, n) in [
        ("games", "tcga", 3),
        ("games", "taiwan", 1),
        ("seats", "tcga", 6),
        ("banqi_games", "tcga", 3),
        ("banqi_flips", "tcga", 6),
    ] {
        let part = out.join(format!(
            "data/{table}/game=banqi/preset={preset}/part-00000.parquet"
        ));
        assert_eq!(parquet_rows(&part), n, "{table} {preset}");
    }
}

#[test]
fn the_record_store_is_an_input() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-report-store");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("games.jsonl");
    std::fs::write(
        &input,
        [
            game(
                "tcga",
                &["a1(K)", "b1(k)"],
                Some(("player1", "resignation")),
            ),
            game("olympiad", &["a1(P)", "b1(c)"], Some(("draw", "agreement"))),
        ]
        .join("\n"),
    )
    .unwrap();
    let db = dir.join("games.db");
    let anqi = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_anqi"))
            .args(args)
            .env_remove("DATABASE_URL")
            .status()
            .unwrap()
    };
    assert!(
        anqi(&[
            "import",
            input.to_str().unwrap(),
            "--database",
            db.to_str().unwrap()
        ])
        .success()
    );
    let out = dir.join("report");
    let store = format!("sqlite:{}", db.display());
    assert!(anqi(&["report", &store, "-o", out.to_str().unwrap()]).success());
    let stats: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("stats.json")).unwrap()).unwrap();
    assert_eq!(stats["summary"]["games"], 2);
    assert_eq!(
        stats["summary"]["presets"],
        json!(["banqi/olympiad", "banqi/tcga"])
    );
    // The store named by its file is read as the store it is.
    let by_file = dir.join("report-by-file");
    assert!(
        anqi(&[
            "report",
            db.to_str().unwrap(),
            "-o",
            by_file.to_str().unwrap()
        ])
        .success()
    );
    let stats: Value =
        serde_json::from_str(&std::fs::read_to_string(by_file.join("stats.json")).unwrap())
            .unwrap();
    assert_eq!(stats["summary"]["games"], 2);
    // An input with no valid game is refused, not an empty report, and says why.
    std::fs::write(dir.join("bad.jsonl"), "{not json\n").unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_anqi"))
        .args([
            "report",
            dir.join("bad.jsonl").to_str().unwrap(),
            "-o",
            dir.join("report-bad").to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains("bad.jsonl: ") && said.contains("1 refused"),
        "{said}"
    );
}

/// `anqi report input -o out`, its output.
fn report_into(input: &Path, out: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_anqi"))
        .args([
            "report",
            input.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap()
}

/// A report is written into a new or empty directory, or over an earlier report, of which
/// only what the report wrote is replaced; a directory holding anything else is refused.
#[test]
fn a_report_never_deletes_what_it_did_not_write() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-report-careful");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("games.jsonl");
    std::fs::write(&input, game("tcga", &["a1(K)", "b1(k)"], None)).unwrap();
    let run = |out: &std::path::Path| report_into(&input, out);
    // Over an earlier report: the user's files in it stay.
    let out = dir.join("report");
    assert!(run(&out).status.success());
    std::fs::write(out.join("data/important.txt"), "mine").unwrap();
    std::fs::write(out.join("charts/mine.png"), "mine").unwrap();
    assert!(run(&out).status.success());
    assert_eq!(
        std::fs::read_to_string(out.join("data/important.txt")).unwrap(),
        "mine"
    );
    assert!(out.join("charts/mine.png").exists());
    assert!(out.join("index.html").exists() && out.join(".anqi-report").exists());
    // A directory that is not a report: refused, untouched.
    let other = dir.join("thesis");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("chapter1.tex"), "mine").unwrap();
    let output = run(&other);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("holds no report"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(std::fs::read_dir(&other).unwrap().count(), 1);
    // A directory of the user's own that happens to hold a stats.json (an index.html, a CSV):
    // not a report (no manifest), refused, every file as it was.
    let theirs = dir.join("theirs");
    std::fs::create_dir_all(&theirs).unwrap();
    for (name, text) in [
        ("stats.json", "{\"mine\": true}"),
        ("index.html", "<p>mine</p>"),
        ("results.csv", "a,b\n1,2\n"),
    ] {
        std::fs::write(theirs.join(name), text).unwrap();
    }
    let output = run(&theirs);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        std::fs::read_to_string(theirs.join("stats.json")).unwrap(),
        "{\"mine\": true}"
    );
    assert_eq!(std::fs::read_dir(&theirs).unwrap().count(), 3);
    // Nothing is left beside the outputs either.
    let partial = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains("anqi-partial"))
        .count();
    assert_eq!(partial, 0);
}

/// A report that fails (every record refused, or no game at all) leaves nothing behind, and
/// the next report into the same directory is written; an input with no game at all is its
/// own error (exit 3).
#[test]
fn a_failed_report_leaves_nothing_and_blocks_nothing() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-report-failed");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("games.jsonl");
    std::fs::write(&good, game("tcga", &["a1(K)", "b1(k)"], None)).unwrap();
    let garbage = dir.join("garbage.jsonl");
    std::fs::write(&garbage, "{not json\n").unwrap();
    let empty = dir.join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let out = dir.join("report");
    let run = |input: &std::path::Path| report_into(input, &out);
    let output = run(&garbage);
    assert_eq!(output.status.code(), Some(1));
    assert!(!out.exists(), "a failed report leaves no directory");
    let output = run(&empty);
    assert_eq!(output.status.code(), Some(3));
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("no game in the inputs"), "{said}");
    assert!(!said.contains("refused"), "{said}");
    assert!(!out.exists());
    let output = run(&good);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(out.join("index.html").exists() && out.join(".anqi-report").exists());
    // A failed report over an earlier one leaves the earlier one whole.
    let page = std::fs::read(out.join("index.html")).unwrap();
    assert_eq!(run(&garbage).status.code(), Some(1));
    assert_eq!(std::fs::read(out.join("index.html")).unwrap(), page);
    let entries: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        entries.iter().all(|e| !e.contains("anqi-partial")),
        "{entries:?}"
    );
}

fn parquet_rows(path: &Path) -> usize {
    use polars::prelude::*;
    let file = std::fs::File::open(path).unwrap();
    ParquetReader::new(file).finish().unwrap().height()
}

/// Statistics are counts that add up: two halves of a data set reported separately and
/// merged give the report of the whole, table for table, row for row.
#[test]
fn two_halves_merged_are_the_whole() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-report-merge");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let anqi = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_anqi"))
            .args(args)
            .output()
            .unwrap();
        // Written: 1 says that the one invalid record of the set was refused.
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let path = |name: &str| dir.join(name).display().to_string();
    anqi(&[
        "simulate",
        "--games",
        "150",
        "--seed",
        "5",
        "-o",
        &path("a.jsonl"),
    ]);
    anqi(&[
        "simulate",
        "--preset",
        "taiwan-full",
        "--games",
        "150",
        "--seed",
        "6",
        "--bot",
        "greedy,random",
        "-o",
        &path("b.jsonl"),
    ]);
    let mut lines: Vec<String> = std::fs::read_to_string(path("a.jsonl"))
        .unwrap()
        .lines()
        .chain(std::fs::read_to_string(path("b.jsonl")).unwrap().lines())
        .map(str::to_owned)
        .collect();
    // A record that does not replay, to be counted in the half it is in.
    lines.insert(40, game("tcga", &["a1(P)", "a1(p)"], None));
    // Split inside the second run, after a decided game: no draw carries across the split
    // (the 戲谷 carry runs in input order, so a carry across it would differ).
    let split = (200..lines.len())
        .find(|&i| !lines[i - 1].contains("\"outcome\":\"draw\""))
        .unwrap();
    std::fs::write(path("whole.jsonl"), lines.join("\n")).unwrap();
    std::fs::write(path("first.jsonl"), lines[..split].join("\n")).unwrap();
    std::fs::write(path("second.jsonl"), lines[split..].join("\n")).unwrap();
    for part in ["whole", "first", "second"] {
        anqi(&["report", &path(&format!("{part}.jsonl")), "-o", &path(part)]);
    }
    anqi(&[
        "report",
        "--merge",
        &path("first"),
        &path("second"),
        "-o",
        &path("merged"),
    ]);
    let stats = |name: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join(name).join("stats.json")).unwrap())
            .unwrap()
    };
    let (whole, merged) = (stats("whole"), stats("merged"));
    let tables = whole["tables"].as_array().unwrap();
    assert!(tables.len() >= 15, "every table is compared");
    for table in tables {
        let name = table["name"].as_str().unwrap();
        let other = merged["tables"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name)
            .unwrap_or_else(|| panic!("{name} in the merged report"));
        if name == "meetings_by_period" {
            // Undated games' hundreds are each input's (docs/analysis.md): the halves' rows
            // fall in other hundreds, but add up to the same games.
            let total = |t: &Value| -> u64 {
                t["rows"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| r.as_array().unwrap().last().unwrap().as_u64().unwrap())
                    .sum()
            };
            assert_eq!(total(table), total(other), "{name}");
            continue;
        }
        assert_eq!(table, other, "{name}");
    }
    for key in ["games", "flips", "rejected", "presets"] {
        assert_eq!(whole["summary"][key], merged["summary"][key], "{key}");
    }
    assert_eq!(whole["summary"]["games"], 300);
    // And the merged report carries the whole dataset.
    let merged_rows: usize =
        std::fs::read_dir(dir.join("merged/data/games/game=banqi/preset=tcga"))
            .unwrap()
            .map(|e| parquet_rows(&e.unwrap().path()))
            .sum();
    assert_eq!(merged_rows, 150);
}

/// Three Kingdoms' part: claim order, results by claim rank, final points by place per ending.
/// `anqi report` on `lines` (JSON Lines) in a fresh directory named `name`: the report's
/// directory and its stats.json.
fn report_of(name: &str, lines: &[Value]) -> (std::path::PathBuf, Value) {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("anqi-report-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("games.jsonl");
    let text: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    std::fs::write(&input, text.join("\n")).unwrap();
    let out = dir.join("report");
    let status = Command::new(env!("CARGO_BIN_EXE_anqi"))
        .args([
            "report",
            input.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ])
        .status()
        .unwrap();
    assert!(status.success());
    let stats =
        serde_json::from_str(&std::fs::read_to_string(out.join("stats.json")).unwrap()).unwrap();
    (out, stats)
}

#[test]
fn three_kingdoms_statistics_of_a_hand_made_set() {
    // A: player 1 claims red, player 3 generals, player 2 is given black; player 3 is stated
    // first by a resignation, player 1 second. B: a points game from a position one capture
    // from its end (claims not seen): player 2 370, player 1 360, player 3 230.
    let lines = [
        json!({"game": "three-kingdoms", "players": ["Wei", "Shu", "Wu"],
               "actions": ["a1(R)", "b1(M)", "c1(P)"],
               "result": {"outcome": "player3>player1>player2", "reason": "resignation"}}),
        json!({"game": "three-kingdoms", "preset": "three-kingdoms-points",
               "start": "9/9/9/9/R7c rgb 1 - k1/R1r1/- -3- 0 50", "actions": ["a1-i1"]}),
    ];
    let (out, stats) = report_of("tk", &lines);
    assert_eq!(stats["summary"]["games"], 2);
    // A report without Banqi says nothing of Banqi's options; three seats are told as places.
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(
        !html.contains("stake") && !html.contains("Banqi's coins"),
        "no Banqi options"
    );
    assert!(
        html.contains("the first mover scores ") && html.contains("an even share (33.3%)"),
        "three seats' words"
    );
    assert!(!html.contains(r#"<section id="banqi">"#));
    let tk = json!("three-kingdoms");
    let rank = |r: u64| {
        row(
            &stats,
            "tk_claim_rank",
            &[("preset", tk.clone()), ("claim_rank", json!(r.to_string()))],
        )
    };
    assert_eq!(
        (rank(1)["wins"].as_u64(), rank(1)["losses"].as_u64()),
        (Some(0), Some(1))
    );
    assert_eq!(
        (rank(2)["wins"].as_u64(), rank(2)["losses"].as_u64()),
        (Some(1), Some(0))
    );
    assert_eq!(rank(3)["losses"].as_u64(), Some(1));
    assert_eq!(
        rows(&stats, "tk_claim_rank").len(),
        3,
        "game B's claims were not seen"
    );
    let order = row(
        &stats,
        "tk_claim_order",
        &[("claim_order", json!("red>generals>black"))],
    );
    assert_eq!(
        (order["winner_faction"].clone(), order["games"].as_u64()),
        (json!("generals"), Some(1))
    );
    let points = |place: u64, points: i64| {
        row(
            &stats,
            "tk_final_points",
            &[
                ("preset", json!("three-kingdoms-points")),
                ("place", json!(place.to_string())),
                ("final_points", json!(points.to_string())),
            ],
        )["games"]
            .as_u64()
    };
    assert_eq!(
        [points(1, 370), points(2, 360), points(3, 230)],
        [Some(1); 3]
    );
    // The game-generic tables count the three seats: by side, the factions (keys are text).
    let generals = row(
        &stats,
        "by_side",
        &[("variant", tk.clone()), ("side", json!("generals"))],
    );
    assert_eq!(
        (generals["games"].as_u64(), generals["wins"].as_u64()),
        (Some(1), Some(1))
    );
}

#[test]
fn luzhanqi_statistics_of_a_hand_made_set() {
    // A (open): red's engineer takes the flag. B (dark, from both setups): black wins by
    // resignation after three trades. C (flip): red's lieutenant carries black's flag home.
    let lines = [
        json!({"game": "luzhanqi", "preset": "open",
               "start": "5/5/5/5/5/2f2/2E2/5/5/5/5/1F2p -- r - - 4 40", "actions": ["c6-c7"]}),
        json!({"game": "luzhanqi", "preset": "dark",
               "layout": {"red": "RTETR/C1E1J/DP1PT/E1G1J/LCMBP/LFLDB", "black": "lfldb/lcmbp/e1g1j/dp1pt/c1e1j/rtetr"},
               "actions": ["a6-a7", "e7-e6", "c6-c7", "c8-c7"],
               "result": {"outcome": "player2", "reason": "resignation"}}),
        json!({"game": "luzhanqi", "preset": "flip",
               "start": "4c/5/5/5/5/5/5/5/5/5/1T3/3FC -- r - f^b2 0 30", "actions": ["b2-b1"]}),
    ];
    let (out, stats) = report_of("lz", &lines);
    assert_eq!(stats["summary"]["games"], 3);
    let mode = |m: &str| row(&stats, "lz_by_mode", &[("mode", json!(m))]);
    assert_eq!(
        (
            mode("open")["wins"].as_u64(),
            mode("open")["games"].as_u64()
        ),
        (Some(1), Some(1))
    );
    assert_eq!(mode("dark")["losses"].as_u64(), Some(1));
    assert_eq!(mode("flip")["wins"].as_u64(), Some(1));
    let side = row(
        &stats,
        "lz_by_first_side",
        &[("mode", json!("flip")), ("first_side", json!("red"))],
    );
    assert_eq!(side["wins"].as_u64(), Some(1));
    let taker = |m: &str, who: &str| {
        row(
            &stats,
            "lz_flag_taken_by",
            &[("mode", json!(m)), ("flag_taken_by", json!(who))],
        )["games"]
            .as_u64()
    };
    assert_eq!(taker("open", "engineer"), Some(1));
    assert_eq!(taker("flip", "lieutenant"), Some(1));
    assert_eq!(
        rows(&stats, "lz_flag_taken_by").len(),
        2,
        "B's flag was not taken"
    );
    assert!(out.join("charts").join("luzhanqi-flag.svg").exists());
}

#[test]
fn xiangqi_statistics_of_a_hand_made_set() {
    // A: red's soldier on a9 flips to its chariot back (effective) and red wins by
    // resignation. B: red names the wrong advisor in a double flip and loses. C: plain
    // xiangqi, a draw by agreement.
    let lines = [
        json!({"game": "xiangqi-3g", "start": "P2k5/9/9/9/9/9/9/9/9/4K4 w R8/9/9/9/9/9/9/9/9/9 - - -- 0 30",
               "actions": ["a9(R)"], "result": {"outcome": "player1", "reason": "resignation"}}),
        json!({"game": "xiangqi-3g", "start": "5k3/9/9/9/4r4/9/9/9/9/3AKA3 w 9/9/9/9/9/9/9/9/9/3KAM3 - - -- 0 30",
               "actions": ["e0=f0(M)"]}),
        json!({"game": "xiangqi-3g", "preset": "xiangqi", "actions": ["h2e2", "h9g7"],
               "result": {"outcome": "draw", "reason": "agreement"}}),
    ];
    let (_, stats) = report_of("xq", &lines);
    assert_eq!(stats["summary"]["games"], 3);
    let flip = |f: &str| row(&stats, "xq_flip_results", &[("flip", json!(f))]);
    assert_eq!(flip("soldier:R")["wins"].as_u64(), Some(1));
    assert_eq!(flip("wrong_double_flip")["losses"].as_u64(), Some(1));
    assert_eq!(
        rows(&stats, "xq_flips").len(),
        2,
        "the plain game made no flip"
    );
    let ending = row(
        &stats,
        "endings",
        &[
            ("preset", json!("xiangqi-3g")),
            ("reason", json!("wrong_double_flip")),
        ],
    );
    assert_eq!(ending["outcome"], json!("player2"));
}

/// The page of a report of every game speaks each game's words: no code a table keys on
/// (`player1`, `red>generals>black`, `c6-c7:both_die`, `transform:Z`), no column name in
/// backquotes, no `null`, no negative zero.
#[test]
fn the_page_has_words_not_codes() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-report-words");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut inputs = Vec::new();
    for (game, extra) in [
        ("banqi", vec!["--bot", "greedy,random"]),
        ("three-kingdoms", vec![]),
        ("luzhanqi", vec!["--mode", "dark"]),
        ("xiangqi-3g", vec![]),
    ] {
        let log = dir.join(format!("{game}.jsonl"));
        let mut args = vec!["simulate", "--game", game, "--games", "40", "--seed", "3"];
        args.extend(extra);
        args.extend(["-o", log.to_str().unwrap()]);
        let status = Command::new(env!("CARGO_BIN_EXE_anqi"))
            .args(&args)
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "{game}");
        inputs.push(log.to_str().unwrap().to_owned());
    }
    let out = dir.join("report");
    let mut args = vec!["report".to_owned()];
    args.extend(inputs);
    args.extend(["-o".to_owned(), out.to_str().unwrap().to_owned()]);
    let output = Command::new(env!("CARGO_BIN_EXE_anqi"))
        .args(&args)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    // The text people read: without the charts (their own test), styles and tags.
    let mut text = String::new();
    let mut rest = page.as_str();
    while let Some(at) = rest.find("<svg") {
        text.push_str(&rest[..at]);
        rest = rest[at..]
            .split_once("</svg>")
            .map_or("", |(_, after)| after);
    }
    text.push_str(rest);
    let text: String = {
        let mut words = String::new();
        let mut inside = false;
        for c in text.split("</style>").last().unwrap().chars() {
            match c {
                '<' => inside = true,
                '>' if inside => {
                    inside = false;
                    words.push(' ');
                }
                _ if !inside => words.push(c),
                _ => {}
            }
        }
        words.replace("&gt;", ">")
    };
    for code in [
        "player1",
        "player2",
        "player3",
        "red>",
        "black>",
        "generals>",
        ":both_die",
        ":win",
        ":loss",
        "transform:",
        "soldier:",
        "`",
        "null",
        "plies_from",
        "-0 ",
        "(-0",
    ] {
        assert!(!text.contains(code), "the page says {code:?}");
    }
}

/// Banqi games between named players: `n` games of `first` (player 1) against `second`,
/// opening on `square`, `wins` of them won by player 1 (the rest lost).
fn opened(first: &str, second: &str, square: &str, n: usize, wins: usize) -> Vec<Value> {
    (0..n)
        .map(|i| {
            let outcome = if i < wins { "player1" } else { "player2" };
            json!({
                "game": "banqi", "preset": "tcga", "players": [first, second],
                "actions": [format!("{square}(K)"), "d8(k)"],
                "result": {"outcome": outcome, "reason": "resignation"}
            })
        })
        .collect()
}

/// The page's sentences on the first flip (its "In short" list).
fn first_flip_sentences(out: &Path) -> Vec<String> {
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    page.split("<li>")
        .filter_map(|li| li.split("</li>").next())
        .filter(|s| s.contains("first flip") || s.contains("first square"))
        .map(|s| s.replace("&#39;", "'"))
        .collect()
}

/// Flip findings are adjusted for who played: greedy opens on file a and wins 85%, random
/// opens on files b and c and wins 15%. Raw, every a-file square "wins" (the page said so);
/// within the same players no square differs: no finding. Where each player always opens on
/// one square, flip and player cannot be told apart, and the page says so. A square that
/// helps whoever opens on it, within the same players, is still found.
#[test]
fn flip_findings_are_adjusted_for_who_played() {
    let mut habits = Vec::new();
    for square in ["a1", "a2", "a3", "a4"] {
        habits.extend(opened("greedy", "random", square, 40, 34));
    }
    for square in ["b2", "c3", "b4", "c5"] {
        habits.extend(opened("random", "greedy", square, 40, 6));
    }
    let (out, stats) = report_of("flips-habits", &habits);
    // The raw table still shows what the log holds: a1 for player 1 at 85%.
    let a1 = row(&stats, "first_square", &[("first_square", json!("a1"))]);
    assert_eq!(a1["score"], 0.85);
    let said = first_flip_sentences(&out);
    assert!(
        said.iter()
            .any(|s| s
                .starts_with("No first square stands out once who played is taken into account")),
        "{said:?}"
    );
    assert!(
        !said.iter().any(|s| s.contains("matters where")),
        "{said:?}"
    );

    let mut one_square = opened("greedy", "random", "a1", 160, 136);
    one_square.extend(opened("random", "greedy", "b5", 160, 24));
    let (out, _) = report_of("flips-one-square", &one_square);
    let said = first_flip_sentences(&out);
    assert!(
        said.iter()
            .any(|s| s.contains("so flip and player cannot be told apart (a1, b5)")),
        "{said:?}"
    );

    let mut real = Vec::new();
    for (p1, p2) in [("ann", "bo"), ("bo", "ann")] {
        real.extend(opened(p1, p2, "a1", 60, 45));
        real.extend(opened(p1, p2, "b2", 60, 27));
    }
    let (out, _) = report_of("flips-real", &real);
    let said = first_flip_sentences(&out);
    assert!(
        said.iter()
            .any(|s| s.starts_with("Player 1's first flip matters where it is a1 (+30.0 points, +15.8 to +44.2, 120 games), b2")),
        "{said:?}"
    );
}
