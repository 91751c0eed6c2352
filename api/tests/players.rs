//! `/v1/players` and `/v1/players/{name}` on the real `anqi-api` binary over TCP: a log
//! imported over HTTP is ranked strongest first, with the ratings of the same model fitted
//! here from counts made here; a player's page counts the player's games; a refereed game is
//! counted once it ends; bad parameters get their problems.

use std::collections::BTreeMap;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use records::core::Outcome;
use records::rating::{Meeting, Model, fit};
use serde_json::{Value, json};

mod common;
use common::{Server, command, fresh_db, play_on, post_json, request};

fn start(db: &std::path::Path) -> Server {
    Server::spawn(command(db, &[], &[]))
}

fn get(addr: &str, path: &str) -> (u16, Value) {
    let (status, _, text) = request(addr, "GET", path, "application/json", "");
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// Five players of graded strength (`p0` strongest), every ordered pair twenty times, the
/// outcomes drawn from Bradley–Terry odds with a first-move term; a bot's self-play.
fn log() -> Vec<Value> {
    let mut rng = StdRng::seed_from_u64(11);
    let mut uniform = || rng.random::<f64>();
    let mut out = Vec::new();
    for i in 0..5 {
        for j in 0..5 {
            for k in 0..20 {
                let (a, b) = if i == j {
                    ("bot".to_owned(), "bot".to_owned())
                } else {
                    (format!("p{i}"), format!("p{j}"))
                };
                let p = 1.0 / (1.0 + ((i as f64 - j as f64) * 0.7 - 0.2).exp());
                let outcome = if uniform() < 0.08 {
                    "draw"
                } else if uniform() < p {
                    "player1"
                } else {
                    "player2"
                };
                let reason = if outcome == "draw" {
                    "agreement"
                } else {
                    "resignation"
                };
                out.push(json!({
                    "game": "banqi", "preset": "tcga", "players": [a, b],
                    "actions": ["a1(K)", "b1(k)"],
                    "result": {"outcome": outcome, "reason": reason},
                    "metadata": {"round": format!("{i}-{j}-{k}")}
                }));
            }
        }
    }
    out
}

/// The log's meetings, counted here.
fn meetings(log: &[Value]) -> Vec<Meeting> {
    let mut counts: BTreeMap<(String, String, String), u64> = BTreeMap::new();
    for r in log {
        let key = (
            r["players"][0].as_str().unwrap().to_owned(),
            r["players"][1].as_str().unwrap().to_owned(),
            r["result"]["outcome"].as_str().unwrap().to_owned(),
        );
        *counts.entry(key).or_default() += 1;
    }
    counts
        .into_iter()
        .map(|((a, b, outcome), games)| Meeting {
            players: vec![a, b],
            outcome: outcome.parse::<Outcome>().unwrap(),
            games,
        })
        .collect()
}

#[test]
fn the_leaderboard_ranks_the_players_of_an_imported_log() {
    let server = start(&fresh_db("players-log.db"));
    let addr = &server.addr;
    let log = log();
    let ndjson: String = log.iter().map(|r| format!("{r}\n")).collect();
    let (status, _, text) = request(addr, "POST", "/v1/games", "application/x-ndjson", &ndjson);
    let summary = &serde_json::from_str::<Value>(&text).unwrap()["summary"];
    assert_eq!(
        (status, summary["stored"].as_u64()),
        (200, Some(500)),
        "{summary}"
    );

    let (status, board) = get(addr, "/v1/players?game=banqi&preset=tcga&limit=200");
    assert_eq!(status, 200, "{board}");
    let names: Vec<&str> = board["ranking"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["p0", "p1", "p2", "p3", "p4"], "strongest first");
    // The same model's fit of counts made here: the same numbers.
    let fitted = fit(&meetings(&log), &Model::default()).unwrap();
    for (ranked, rated) in board["ranking"]
        .as_array()
        .unwrap()
        .iter()
        .zip(&fitted.players)
    {
        assert_eq!(ranked["name"], rated.name);
        for (field, value) in [
            ("value", rated.rating.value),
            ("low", rated.rating.low),
            ("high", rated.rating.high),
        ] {
            let got = ranked["rating"][field].as_f64().unwrap();
            assert!((got - value).abs() < 1e-6, "{field}: {got} vs {value}");
        }
        assert_eq!(ranked["games"], rated.games);
    }
    assert_eq!(board["games"], 500);
    assert_eq!(board["self_play"], 100);
    assert_eq!(board["rated"], 5);
    let term = &board["seat_terms"][0];
    assert!(
        (term["value"].as_f64().unwrap() - fitted.seat_terms[0].value).abs() < 1e-6,
        "{term}"
    );
    // A page at a time.
    let (_, page) = get(addr, "/v1/players?limit=2&offset=2");
    let ranks: Vec<u64> = page["ranking"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["rank"].as_u64().unwrap())
        .collect();
    assert_eq!((ranks, page["next"].clone()), (vec![3, 4], json!(4)));

    // A player's page: results counted here, the leaderboard's rating and rank.
    let (status, p3) = get(addr, "/v1/players/p3?recent=3");
    assert_eq!(status, 200, "{p3}");
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for r in log.iter().filter(|r| r["players"][0] != r["players"][1]) {
        let Some(seat) = (0..2).find(|&s| r["players"][s] == "p3") else {
            continue;
        };
        match r["result"]["outcome"].as_str().unwrap() {
            "draw" => draws += 1,
            w if w == ["player1", "player2"][seat] => wins += 1,
            _ => losses += 1,
        }
    }
    let banqi = &p3["presets"][0];
    assert_eq!(
        (&banqi["wins"], &banqi["draws"], &banqi["losses"]),
        (&json!(wins), &json!(draws), &json!(losses))
    );
    assert_eq!(banqi["rank"], 4);
    assert_eq!(banqi["rating"], board["ranking"][3]["rating"]);
    assert_eq!(p3["games"], 160);
    assert_eq!(p3["recent"].as_array().unwrap().len(), 3);
    assert_eq!(p3["recent"][0]["seats"][0]["named"], true);

    // Bad parameters, each with its problem.
    for (path, status, field) in [
        ("/v1/players?game=chess", 422, "game"),
        ("/v1/players?preset=blitz", 422, "preset"),
        ("/v1/players?limit=0", 400, "limit"),
        ("/v1/players?limit=201", 400, "limit"),
        ("/v1/players?offset=-1", 400, ""),
        ("/v1/players?colour=red", 400, ""),
        ("/v1/players/nobody", 404, "name"),
        ("/v1/players/p1?recent=101", 400, "recent"),
    ] {
        let (got, problem) = get(addr, path);
        assert_eq!(got, status, "{path}: {problem}");
        if !field.is_empty() {
            assert_eq!(problem["field"], field, "{path}: {problem}");
        }
    }
}

/// A game the referee deals and plays to its end counts for its players at once.
#[test]
fn a_refereed_game_counts_once_it_ends() {
    let server = start(&fresh_db("players-referee.db"));
    let addr = &server.addr;
    let game = json!("banqi");
    let (status, deal) = post_json(
        addr,
        "/v1/deal",
        &json!({"players": ["east wind", "west wind"], "options": {"max_plies": 6}}),
    );
    assert_eq!(status, 200, "{deal}");
    assert_eq!(play_on(addr, &game, &deal, 3), None);
    // Not over yet: named in no stored game.
    let (status, _) = get(addr, "/v1/players/east%20wind");
    assert_eq!(status, 404);
    let end = play_on(addr, &game, &deal, u64::MAX).expect("the cap ends it");
    assert_eq!(end["reason"], "ply_limit", "{end}");
    let (status, east) = get(addr, "/v1/players/east%20wind");
    assert_eq!(status, 200, "{east}");
    assert_eq!(east["games"], 1);
    assert_eq!(east["presets"][0]["draws"], 1);
    let (_, board) = get(addr, "/v1/players");
    assert_eq!(board["games"], 1);
    assert_eq!(board["rated"], 2);
}

/// Players who never met are rated in groups, each about its own mean and ranked on its own;
/// a player with a handful of games is provisional: listed after its group's ranked players,
/// without a rank, however well it did. The player's page says the same.
#[test]
fn groups_that_never_met_and_provisional_players_are_said() {
    let server = start(&fresh_db("players-groups.db"));
    let addr = &server.addr;
    let mut log = log();
    // A second circle, q0 stronger than q1, that never met the first; and a newcomer who
    // beat q1 twice.
    let mut round = 0;
    let mut game = |a: &str, b: &str, outcome: &str| {
        round += 1;
        json!({
            "game": "banqi", "preset": "tcga", "players": [a, b],
            "actions": ["a1(K)", "b1(k)"],
            "result": {"outcome": outcome, "reason": if outcome == "draw" { "agreement" } else { "resignation" }},
            "metadata": {"round": format!("q-{round}")}
        })
    };
    for (a, b, outcome, n) in [
        ("q0", "q1", "player1", 18),
        ("q0", "q1", "player2", 7),
        ("q1", "q0", "player1", 9),
        ("q1", "q0", "player2", 16),
        ("newcomer", "q1", "player1", 1),
        ("q1", "newcomer", "player2", 1),
    ] {
        for _ in 0..n {
            log.push(game(a, b, outcome));
        }
    }
    let ndjson: String = log.iter().map(|r| format!("{r}\n")).collect();
    let (status, _, text) = request(addr, "POST", "/v1/games", "application/x-ndjson", &ndjson);
    assert_eq!(status, 200, "{text}");

    let (status, board) = get(addr, "/v1/players?limit=200");
    assert_eq!(status, 200, "{board}");
    let groups = board["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 2, "{board}");
    assert_eq!(
        (&groups[0]["players"], &groups[0]["games"]),
        (&json!(5), &json!(400))
    );
    assert_eq!(
        (&groups[1]["players"], &groups[1]["games"]),
        (&json!(3), &json!(52))
    );
    assert_eq!(
        board["provisional_games"],
        records::rating::PROVISIONAL_GAMES
    );
    let rows: Vec<(String, u64, Option<u64>, bool)> = board["ranking"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["name"].as_str().unwrap().to_owned(),
                r["group"].as_u64().unwrap(),
                r["rank"].as_u64(),
                r["provisional"].as_bool().unwrap(),
            )
        })
        .collect();
    let expected: Vec<(String, u64, Option<u64>, bool)> = [
        ("p0", 1, Some(1), false),
        ("p1", 1, Some(2), false),
        ("p2", 1, Some(3), false),
        ("p3", 1, Some(4), false),
        ("p4", 1, Some(5), false),
        ("q0", 2, Some(1), false),
        ("q1", 2, Some(2), false),
        ("newcomer", 2, None, true),
    ]
    .iter()
    .map(|&(n, g, r, p)| (n.to_owned(), g, r, p))
    .collect();
    assert_eq!(rows, expected);
    // Each group about its own mean.
    for g in [1, 2] {
        let sum: f64 = board["ranking"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["group"] == g)
            .map(|r| r["rating"]["value"].as_f64().unwrap())
            .sum();
        assert!(sum.abs() < 1e-6, "group {g}: {sum}");
    }
    let (_, newcomer) = get(addr, "/v1/players/newcomer");
    let banqi = &newcomer["presets"][0];
    assert_eq!(
        (&banqi["group"], &banqi["provisional"], banqi.get("rank")),
        (&json!(2), &json!(true), None),
        "{newcomer}"
    );
}
