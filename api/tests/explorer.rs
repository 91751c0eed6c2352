//! `GET /v1/explorer` on the real `anqi-api` binary over TCP: games imported over HTTP are
//! counted by the actions every seat saw, transpositions share their counts, filters walk the
//! matching games, a refereed game counts once it ends, and bad requests get their problems.
//! Hidden information: a dark Luzhanqi position is asked as every seat sees it, and the
//! answer holds only announced results.

use serde_json::{Value, json};

mod common;
use common::{Server, command, exchange, fresh_db, play_on, post_json, request};

fn get(addr: &str, path: &str) -> (u16, Value) {
    let (status, _, text) = request(addr, "GET", path, "application/json", "");
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

fn banqi(actions: &[&str], players: [&str; 2], outcome: &str, date: &str) -> Value {
    json!({
        "game": "banqi", "preset": "tcga", "players": players, "actions": actions,
        "result": {"outcome": outcome, "reason": if outcome == "draw" { "agreement" } else { "resignation" }},
        "metadata": {"date": date}
    })
}

/// Percent-encodes what a query value may not hold as it is.
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b',' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[test]
fn the_explorer_answers_from_the_stored_games() {
    let db = fresh_db("explorer.db");
    let server = Server::spawn(command(&db, &[], &[]));
    let addr = &server.addr;
    let one = ["a1(K)", "b1(k)", "c1(G)", "d1(g)", "a2(P)"];
    let other = ["c1(G)", "d1(g)", "a1(K)", "b1(k)", "a2(P)"];
    // 65 games each way (a position with rows: more than 64, docs/rules.md 60): five
    // of named players each way, then sixty more each way (dated before the others).
    let mut log = Vec::new();
    for (n, players) in [
        ["ann", "bo"],
        ["ann", "cy"],
        ["ed", "fu"],
        ["gu", "hu"],
        ["io", "ju"],
    ]
    .into_iter()
    .enumerate()
    {
        log.push(banqi(
            &one,
            players,
            "player1",
            &format!("2022-0{}-10", n + 1),
        ));
    }
    for (n, players) in [
        ["cy", "bo"],
        ["di", "bo"],
        ["ka", "lu"],
        ["mo", "nu"],
        ["oz", "pa"],
    ]
    .into_iter()
    .enumerate()
    {
        log.push(banqi(
            &other,
            players,
            "player2",
            &format!("2023-05-0{}", n + 1),
        ));
    }
    log.push(banqi(
        &["a1(K)", "b2(p)"],
        ["ann", "cy"],
        "draw",
        "2023-06-01",
    ));
    for n in 0..60 {
        let (x, y) = (format!("x{n}"), format!("y{n}"));
        let date = format!("2021-0{}-01", n % 9 + 1);
        log.push(banqi(&one, [&x, &y], "player1", &date));
        log.push(banqi(&other, [&y, &x], "player2", &date));
    }
    let ndjson: String = log.iter().map(|r| format!("{r}\n")).collect();
    let (status, _, text) = request(addr, "POST", "/v1/games", "application/x-ndjson", &ndjson);
    assert_eq!(status, 200, "{text}");

    // The start: two first flips, the most played first.
    let (status, start) = get(addr, "/v1/explorer?game=banqi&preset=tcga");
    assert_eq!(status, 200, "{start}");
    assert_eq!(
        (start["games"].as_i64(), start["depth"].as_i64()),
        (Some(131), Some(16))
    );
    assert_eq!(start["moves"][0]["action"], "a1(K)");
    assert_eq!(start["moves"][0]["games"], 66);
    assert_eq!(start["moves"][0]["wins"], 65, "player 1 won 65, drew one");
    assert_eq!(start["moves"][0]["draws"], 1);
    assert_eq!(start["moves"][1]["action"], "c1(G)");

    // Two orders, one board: one answer, all 130 games.
    let (_, a) = get(addr, "/v1/explorer?actions=a1(K),b1(k),c1(G),d1(g)");
    let (_, b) = get(addr, "/v1/explorer?actions=c1(G),d1(g),a1(K),b1(k)");
    assert_eq!(a, b);
    assert_eq!(
        (a["followed"].as_i64(), a["games"].as_i64()),
        (Some(4), Some(130))
    );
    assert_eq!(a["moves"][0]["examples"], json!([1, 131]));
    // The same position by its node, by the `next` of the move before, and by its board.
    let node = a["node"].as_str().unwrap();
    let (status, by_node) = get(addr, &format!("/v1/explorer?node={node}"));
    assert_eq!(status, 200, "{by_node}");
    assert_eq!(
        (&by_node["games"], &by_node["moves"]),
        (&a["games"], &a["moves"])
    );
    let (_, before) = get(addr, "/v1/explorer?actions=c1(G),d1(g),a1(K)");
    assert_eq!(before["moves"][0]["next"], node);
    let board =
        "position=".to_owned() + &encode(&board_after(&["a1(K)", "b1(k)", "c1(G)", "d1(g)"]));
    let (status, by_board) = get(addr, &format!("/v1/explorer?{board}"));
    assert_eq!(status, 200, "{by_board}");
    assert_eq!(
        (&by_board["node"], &by_board["moves"]),
        (&a["node"], &a["moves"])
    );
    // A node and actions from it: the line goes on from there.
    let (_, on) = get(addr, &format!("/v1/explorer?node={node}&actions=a2(P)"));
    assert_eq!(
        (on["followed"].as_i64(), on["games"].as_i64()),
        (Some(1), Some(0))
    );
    // A filter every game passes changes nothing.
    let (_, everyone) = get(
        addr,
        &format!("/v1/explorer?node={node}&date_from=2000-01-01"),
    );
    assert_eq!(everyone["moves"], a["moves"], "{everyone}");
    assert_eq!(everyone["filtered"], json!({"walked": 130}));

    // Filters walk the matching games.
    let (_, ann) = get(addr, "/v1/explorer?players=ann");
    assert_eq!(ann["games"], 3);
    assert_eq!(ann["filtered"], json!({"walked": 3}));
    let (_, recent) = get(addr, "/v1/explorer?date_from=2023-01-01&date_to=2023-05-31");
    assert_eq!(
        (
            recent["games"].as_i64(),
            recent["moves"][0]["action"].as_str()
        ),
        (Some(5), Some("c1(G)"))
    );

    // A rating range: the games whose players are both on the leaderboard and whose average
    // is in it (here every rated player's: a range wider than any rating).
    let (_, board) = get(addr, "/v1/players?game=banqi&preset=tcga&limit=200");
    let rated: Vec<&str> = board["ranking"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    let both_rated = log
        .iter()
        .filter(|r| {
            r["players"]
                .as_array()
                .unwrap()
                .iter()
                .all(|p| rated.contains(&p.as_str().unwrap()))
        })
        .count();
    assert!(both_rated > 0, "{board}");
    let (status, wide) = get(addr, "/v1/explorer?rating_min=-100000&rating_max=100000");
    assert_eq!(status, 200, "{wide}");
    assert_eq!(wide["games"], both_rated, "{wide} {board}");
    let (_, narrow) = get(addr, "/v1/explorer?rating_min=100000");
    assert_eq!(
        (
            narrow["games"].as_i64(),
            narrow["filtered"]["walked"].as_i64()
        ),
        (Some(0), Some(0))
    );

    // Coins at the table asked: of the 130 games through this board, player 1 (to move) won
    // 65 and lost 65, each doubled (both first flips a general, or an advisor), no piece
    // captured: the stakes cancel at any stake.
    let (_, coins) = get(
        addr,
        "/v1/explorer?actions=a1(K),b1(k),c1(G),d1(g)&stake=300",
    );
    assert_eq!(coins["moves"][0]["average_coins"], 0.0, "{coins}");

    assert_eq!(recent["filtered"], json!({"walked": 5}));
    // The store keeps its counts by month (as `anqi explore --months on` sets it, here while
    // the service runs): whole months are counted, the days at the ends walked, and the
    // answers stay the same.
    let store = records::store::Store::open(&db.display().to_string()).unwrap();
    store.set_explorer_months(true).unwrap();
    let (_, by_months) = get(addr, "/v1/explorer?date_from=2023-01-01&date_to=2023-05-31");
    assert_eq!(by_months["moves"], recent["moves"], "{by_months}");
    assert_eq!(by_months["filtered"], json!({"walked": 0, "counted": 5}));
    // Days at the ends are walked (none played from December 20th).
    let (_, ends) = get(addr, "/v1/explorer?date_from=2022-12-20&date_to=2023-05-31");
    assert_eq!(
        (&ends["moves"], &ends["filtered"]),
        (&recent["moves"], &json!({"walked": 0, "counted": 5}))
    );
    let (_, everyone_counted) = get(
        addr,
        &format!("/v1/explorer?node={node}&date_from=2000-01-01"),
    );
    assert_eq!(everyone_counted["moves"], a["moves"], "{everyone_counted}");
    assert_eq!(
        everyone_counted["filtered"],
        json!({"walked": 0, "counted": 130})
    );
    store.set_explorer_months(false).unwrap();

    // A line no stored game played.
    let (status, none) = get(addr, "/v1/explorer?actions=d8(p)");
    assert_eq!(
        (status, none["followed"].as_i64(), none["games"].as_i64()),
        (200, Some(0), Some(0))
    );

    // Problems.
    for (path, kind, field) in [
        ("/v1/explorer?game=chess", "unknown-game", "game"),
        ("/v1/explorer?preset=nope", "unknown-preset", "preset"),
        ("/v1/explorer?options=%7B", "bad-parameter", "options"),
        (
            "/v1/explorer?options=%7B%22x%22%3A1%7D",
            "invalid-ruleset",
            "options",
        ),
        (
            "/v1/explorer?position=zzz",
            "malformed-position",
            "position",
        ),
        (
            "/v1/explorer?date_from=2022-13-45",
            "bad-parameter",
            "date_from",
        ),
        (
            "/v1/explorer?date_to=2026-02-31",
            "bad-parameter",
            "date_to",
        ),
        (
            "/v1/explorer?actions=a1(K),zz9(Q)",
            "malformed-action",
            "actions",
        ),
        (
            "/v1/explorer?game=luzhanqi&preset=dark&actions=a6-a7:wim",
            "malformed-action",
            "actions",
        ),
        (
            "/v1/explorer?game=luzhanqi&preset=open",
            "invalid-position",
            "position",
        ),
        ("/v1/explorer?depth=3", "malformed-query", ""),
        ("/v1/explorer?rating_min=abc", "malformed-query", ""),
        (
            "/v1/explorer?rating_min=300&rating_max=200",
            "bad-parameter",
            "rating_min",
        ),
        (
            "/v1/explorer?actions=a1(K),a1(k)",
            "illegal-action",
            "actions",
        ),
        (
            "/v1/explorer?actions=a1(K),b1(K)",
            "illegal-action",
            "actions",
        ),
        ("/v1/explorer?node=xyz", "bad-parameter", "node"),
        ("/v1/explorer?node=12345", "bad-parameter", "node"),
        (
            "/v1/explorer?node=ff92efbc4d07c093&position=zzz",
            "bad-parameter",
            "node",
        ),
    ] {
        let (status, problem) = get(addr, path);
        assert!(status == 400 || status == 422, "{path}: {status} {problem}");
        if field.is_empty() {
            continue;
        }
        assert_eq!(
            problem["type"],
            format!("/problems/{kind}"),
            "{path}: {problem}"
        );
        assert_eq!(problem["field"], field, "{path}: {problem}");
    }
    // Which action of the line is not one, by its place.
    let (_, problem) = get(addr, "/v1/explorer?actions=a1(K),zz9(Q)");
    assert_eq!(problem["ply"], 2, "{problem}");
    assert!(
        problem["detail"].as_str().unwrap().contains("\"zz9(Q)\""),
        "{problem}"
    );
    // An action written right that cannot be played at its place, by the rules: which one
    // and why (a square already flipped; a second general, which the set does not have).
    for (path, code) in [
        ("/v1/explorer?actions=a1(K),a1(k)", "not_covered"),
        ("/v1/explorer?actions=a1(K),b1(K)", "reveal_impossible"),
    ] {
        let (status, problem) = get(addr, path);
        assert_eq!((status, &problem["ply"]), (422, &json!(2)), "{problem}");
        assert_eq!(problem["code"], code, "{problem}");
    }
    // A line written right that no game played is still an answer: nothing played it.
    let (status, answer) = get(addr, "/v1/explorer?actions=d1(p)");
    assert_eq!(
        (status, answer["followed"].as_u64()),
        (200, Some(0)),
        "{answer}"
    );
}

/// The public board after Banqi flips `actions` (from the start), as every seat sees it.
fn board_after(actions: &[&str]) -> String {
    use records::core::{Game as _, Truth as _};
    use records::games::banqi::{Banqi, Position};
    let rules = Banqi::PRESETS[0].ruleset;
    let mut position = Position::start();
    for action in actions {
        position = position.play(&rules, &action.parse().unwrap()).unwrap().0;
    }
    Banqi::public(&rules, &position).to_string()
}

/// A filtered request that walks longer than the service lets it (`--explorer-filter-ms 0`)
/// is refused with a problem and Retry-After; unfiltered ones are answered as ever.
#[test]
fn a_filtered_request_that_walks_too_long_is_refused_not_cut_short() {
    let db = fresh_db("explorer-busy.db");
    let server = Server::spawn(command(&db, &["--explorer-filter-ms", "0"], &[]));
    let addr = &server.addr;
    let games: String = (0..80)
        .map(|n| {
            let date = format!("2022-{:02}-{:02}", n % 12 + 1, n / 12 + 1);
            format!(
                "{}\n",
                banqi(&["a1(K)", "b1(k)"], ["ann", "bo"], "player1", &date)
            )
        })
        .collect();
    let (status, _, text) = request(addr, "POST", "/v1/games", "application/x-ndjson", &games);
    assert_eq!(status, 200, "{text}");
    let (status, headers, text) = exchange(
        addr,
        "GET",
        "/v1/explorer?players=ann",
        "application/json",
        "",
        "",
    );
    assert_eq!(status, 503, "{text}");
    let problem: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(problem["type"], "/problems/explorer-busy", "{problem}");
    assert!(
        headers.to_ascii_lowercase().contains("retry-after: 1"),
        "{headers}"
    );
    let (status, start) = get(addr, "/v1/explorer");
    assert_eq!((status, start["games"].as_i64()), (200, Some(80)));
}

/// A dark Luzhanqi game the referee deals and plays: once it ends it is in the explorer, its
/// first move as every seat saw it, asked from the start as every seat sees it (the pieces'
/// places and sides, no identity).
#[test]
fn a_refereed_dark_game_counts_once_it_ends_and_says_only_what_was_announced() {
    let server = Server::spawn(command(&fresh_db("explorer-referee.db"), &[], &[]));
    let addr = &server.addr;
    let game = json!("luzhanqi");
    let (status, deal) = post_json(
        addr,
        "/v1/deal",
        &json!({"game": "luzhanqi", "preset": "dark", "seed": 5, "options": {"max_plies": 8}}),
    );
    assert_eq!(status, 200, "{deal}");
    let (_, empty) = get(addr, "/v1/explorer?game=luzhanqi&preset=dark");
    assert_eq!(empty["games"], 0);
    play_on(addr, &game, &deal, u64::MAX).expect("the cap ends it");
    let (status, start) = get(addr, "/v1/explorer?game=luzhanqi&preset=dark");
    assert_eq!(status, 200, "{start}");
    assert_eq!(start["games"], 1);
    let first = start["moves"][0]["action"].as_str().unwrap().to_owned();
    assert!(
        !first.contains('('),
        "no identity in a dark game's action: {first}"
    );
    let (_, followed) = get(
        addr,
        &format!(
            "/v1/explorer?game=luzhanqi&preset=dark&actions={}",
            encode(&first)
        ),
    );
    assert_eq!(
        (followed["followed"].as_i64(), followed["games"].as_i64()),
        (Some(1), Some(1))
    );
}
