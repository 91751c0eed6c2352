//! Players, not seats, are credited for what players did (issue 41): a report on mirrored
//! `greedy,random` / `random,greedy` games rates greedy far above random, and fits the first
//! move a value that games of equal players (`random,random`) show, within the intervals;
//! nowhere does it say that player 1 wins for moving first.

use serde_json::Value;

mod tool;
use tool::{anqi, simulated_logs};

fn report(dir: &std::path::Path, runs: &[&[&str]]) -> (Value, String) {
    let logs = simulated_logs(dir, runs);
    let out = dir.join("report");
    let (code, text) = anqi(&[
        "report",
        logs.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{text}");
    let stats =
        serde_json::from_str(&std::fs::read_to_string(out.join("stats.json")).unwrap()).unwrap();
    (
        stats,
        std::fs::read_to_string(out.join("index.html")).unwrap(),
    )
}

/// The rows of the players' table `name`, as column → value maps.
fn rows(stats: &Value, name: &str) -> Vec<serde_json::Map<String, Value>> {
    tool::table_rows(stats, "players", name)
}

fn num(row: &serde_json::Map<String, Value>, column: &str) -> f64 {
    row[column].as_f64().unwrap()
}

#[test]
fn mirrored_games_credit_the_players_and_value_the_first_move() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-players");
    let _ = std::fs::remove_dir_all(&dir);
    let (mirrored, page) = report(
        &dir.join("mirrored"),
        &[
            &["--games", "300", "--seed", "1", "--bot", "greedy,random"],
            &["--games", "300", "--seed", "2", "--bot", "random,greedy"],
        ],
    );
    let ratings = rows(&mirrored, "ratings");
    let (greedy, random) = (&ratings[0], &ratings[1]);
    assert_eq!(
        (greedy["player"].as_str(), random["player"].as_str()),
        (Some("greedy"), Some("random"))
    );
    assert!(
        num(greedy, "rating_low") > num(random, "rating_high"),
        "greedy clearly above random: {ratings:?}"
    );
    // What the page says: of players, not of seats.
    let text = page.replace("&#39;", "'");
    assert!(
        text.contains("greedy rates highest"),
        "the page names the stronger player"
    );
    assert!(text.contains("clearly above random"));
    assert!(
        !text.contains("wins 97"),
        "no seat is credited with greedy's wins"
    );
    assert!(!text.contains("Player 1, who moves first, wins"));
    // The first move's value between equal players, fitted from the mirrored games, against
    // what games of equal players show by their seats.
    let terms = rows(&mirrored, "seat_terms");
    let fitted = &terms[0];
    let (equal, _) = report(
        &dir.join("equal"),
        &[&["--games", "600", "--seed", "3", "--bot", "random"]],
    );
    let seat_of_equals = &rows(&equal, "seat_terms")[0];
    let overlap = num(fitted, "equal_first_low") <= num(seat_of_equals, "equal_first_high")
        && num(seat_of_equals, "equal_first_low") <= num(fitted, "equal_first_high");
    assert!(overlap, "{fitted:?} against {seat_of_equals:?}");
    // Self-play counts for the seats only: nobody is rated from random against itself.
    assert!(rows(&equal, "ratings").is_empty());
    assert_eq!(
        num(seat_of_equals, "self_play"),
        num(seat_of_equals, "games")
    );
    let (by_player, head) = (
        rows(&mirrored, "by_player"),
        rows(&mirrored, "head_to_head"),
    );
    assert_eq!(num(&by_player[0], "games"), 600.0);
    assert_eq!(num(&head[0], "games"), 600.0);
}

/// A Banqi game between `a` (moving first) and `b`, won by `winner` (1, 2; 0 a draw), played
/// on `date` when given.
fn played(a: &str, b: &str, winner: u8, date: Option<&str>) -> Value {
    let (outcome, reason) = match winner {
        1 => ("player1", "resignation"),
        2 => ("player2", "resignation"),
        _ => ("draw", "agreement"),
    };
    let mut g = serde_json::json!({
        "game": "banqi", "preset": "tcga", "players": [a, b],
        "actions": ["a1(K)", "d8(k)"],
        "result": {"outcome": outcome, "reason": reason}
    });
    if let Some(d) = date {
        g["metadata"] = serde_json::json!({"date": d});
    }
    g
}

/// `anqi report` on `games` written as JSON Lines; the report's directory.
fn report_of(dir: &std::path::Path, games: &[Value]) -> std::path::PathBuf {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    let log = dir.join("games.jsonl");
    let lines: Vec<String> = games.iter().map(Value::to_string).collect();
    std::fs::write(&log, lines.join("\n")).unwrap();
    let out = dir.join("report");
    let (code, text) = anqi(&["report", log.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{text}");
    out
}

/// The cells of each row of the table after `heading` on `page`, tags stripped.
fn table_after(page: &str, heading: &str) -> Vec<Vec<String>> {
    let at = page.find(heading).unwrap_or_else(|| panic!("no {heading}"));
    let table = &page[at..];
    let table = &table[table.find("<table").unwrap()..table.find("</table>").unwrap()];
    table
        .split("<tr>")
        .skip(2)
        .map(|row| {
            row.split("<td>")
                .skip(1)
                .map(|cell| {
                    let cell = cell.split("</td>").next().unwrap();
                    let mut text = String::new();
                    let mut inside = false;
                    for c in cell.chars() {
                        match c {
                            '<' => inside = true,
                            '>' => inside = false,
                            c if !inside => text.push(c),
                            _ => {}
                        }
                    }
                    text
                })
                .collect()
        })
        .collect()
}

/// A page per player, linked from the leaderboard: results by opponent and by seat counted
/// here from the log, and the rating over time, by month for dated games and by a hundred
/// games of the input for undated ones; its last rating is the leaderboard's.
#[test]
fn a_page_per_player_with_its_rating_over_time() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-player-pages");
    let mut games = Vec::new();
    for (month, n) in [("2024-01", 30), ("2024-02", 30), ("2024-03", 40)] {
        for i in 0..n {
            let date = format!("{month}-{:02}", 1 + i % 28);
            // ann beats bo two games in three; bo and cy even; cy draws ann.
            games.push(played(
                "ann",
                "bo",
                if i % 3 == 2 { 2 } else { 1 },
                Some(&date),
            ));
            games.push(played("bo", "cy", 1 + (i % 2) as u8, Some(&date)));
            games.push(played(
                "cy",
                "ann",
                if i % 4 == 0 { 0 } else { 2 },
                Some(&date),
            ));
        }
    }
    let out = report_of(&dir.join("dated"), &games);
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(
        index.contains("href=\"players/ann.html\">ann</a>"),
        "linked"
    );
    let page = std::fs::read_to_string(out.join("players/ann.html")).unwrap();
    // By opponent, counted here: ann against bo, against cy.
    let count = |opponent: &str| {
        let (mut n, mut w, mut d, mut l) = (0, 0, 0, 0);
        for g in &games {
            let p = &g["players"];
            let seat = if p[0] == "ann" {
                0
            } else if p[1] == "ann" {
                1
            } else {
                continue;
            };
            if p[1 - seat] != opponent {
                continue;
            }
            n += 1;
            match g["result"]["outcome"].as_str().unwrap() {
                "draw" => d += 1,
                o if o == ["player1", "player2"][seat] => w += 1,
                _ => l += 1,
            }
        }
        [n, w, d, l].map(|x: u32| x.to_string())
    };
    let by_opponent = table_after(&page, "By opponent");
    for row in &by_opponent {
        assert_eq!(row[1..5], count(&row[0]), "{row:?}");
    }
    assert_eq!(by_opponent.len(), 2);
    let by_seat = table_after(&page, "By seat");
    assert_eq!(
        by_seat
            .iter()
            .map(|r| (r[0].as_str(), r[1].as_str()))
            .collect::<Vec<_>>(),
        [("player 1", "100"), ("player 2", "100")]
    );
    let over_time = table_after(&page, "Rating over time");
    assert_eq!(
        over_time
            .iter()
            .map(|r| (r[0].as_str(), r[1].as_str()))
            .collect::<Vec<_>>(),
        [("2024-01", "90"), ("2024-02", "180"), ("2024-03", "300")]
    );
    let board_rating = index
        .split("href=\"players/ann.html\">ann</a></td><td>")
        .nth(1)
        .unwrap()
        .split("</td>")
        .next()
        .unwrap()
        .to_owned();
    assert_eq!(over_time[2][2], board_rating);

    // Undated: by a hundred games of the input.
    let undated: Vec<Value> = (0..250)
        .map(|i| played("ann", "bo", 1 + (i % 3 == 0) as u8, None))
        .collect();
    let out = report_of(&dir.join("undated"), &undated);
    let page = std::fs::read_to_string(out.join("players/bo.html")).unwrap();
    let over_time = table_after(&page, "Rating over time");
    assert_eq!(
        over_time
            .iter()
            .map(|r| (r[0].as_str(), r[1].as_str()))
            .collect::<Vec<_>>(),
        [
            ("games 1–100", "100"),
            ("games 101–200", "200"),
            ("games 201–300", "250")
        ]
    );
}
