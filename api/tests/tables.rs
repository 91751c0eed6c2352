//! 戲谷 tables over real HTTP (the `anqi-api` binary on a SQLite file, issue 61): a table
//! opened (with the write token when the service has one), each chair given only its own seat
//! token, a draw settled and carried by both answers, the next game dealt with the first move
//! swapped, a resignation settled with the carried stake, a restart that keeps it all, and the
//! refusals a cheating or confused client meets.

use serde_json::{Value, json};

#[path = "common/mod.rs"]
mod common;
use common::{Server, command, fresh_db, post_json, request_with};

fn open_body() -> Value {
    json!({"preset": "gametower", "players": ["ann", "bo"], "stake": 100, "bonus_per_point": 5,
        "scene_fee": 3, "time": {"move_ms": 30000, "bank_ms": 60000, "bank": "manual"}})
}

#[test]
fn a_table_over_http_settles_a_carried_draw_and_a_resignation_and_survives_a_restart() {
    let db = fresh_db("anqi-tables.db");
    let key = (
        "ANQI_SEAL_KEY",
        "tables:2wf2STv0BbmrJ8hFNEPn2EaHC745jihGIC/cB1lml10=",
    );
    let server = Server::spawn(command(&db, &[], &[key, ("ANQI_TOKEN", "secret")]));
    let addr = server.addr.clone();
    // Opening writes: the write token is needed.
    let (status, problem) = post_json(&addr, "/v1/tables", &open_body());
    assert_eq!(
        (status, problem["type"].as_str()),
        (401, Some("/problems/unauthorized"))
    );
    let (status, _, text) = request_with(
        &addr,
        "POST",
        "/v1/tables",
        "application/json",
        "Authorization: Bearer secret\r\n",
        &open_body().to_string(),
    );
    assert_eq!(status, 200, "{text}");
    let opened: Value = serde_json::from_str(&text).unwrap();
    let table_id = opened["table_id"].clone();
    let chair = |c: &str| opened["chair_tokens"][c].clone();
    let read = |token: &Value| {
        let (status, state) = post_json(
            &addr,
            "/v1/tables/state",
            &json!({"table_id": table_id, "token": token}),
        );
        assert_eq!(status, 200, "{state}");
        state
    };
    let (ann, bo) = (read(&chair("chair1")), read(&chair("chair2")));
    assert_eq!(
        (ann["chair"].as_u64(), bo["chair"].as_u64()),
        (Some(0), Some(1))
    );
    assert_ne!(ann["seat_token"], bo["seat_token"]);
    let game1 = ann["games"][0]["game_id"].clone();
    // Each chair's seat token speaks for its own seat only: bo cannot play ann's first move.
    let (_, listed) = post_json(
        &addr,
        "/v1/actions",
        &json!({"game_id": game1, "token": ann["seat_token"]}),
    );
    let first = listed["actions"][0].clone();
    let (status, problem) = post_json(
        &addr,
        "/v1/play",
        &json!({"game_id": game1, "token": bo["seat_token"], "action": first, "ply": 0}),
    );
    assert_eq!(
        (status, problem["code"].as_str()),
        (403, Some("wrong_seat")),
        "{problem}"
    );
    assert_eq!(problem["type"], "/problems/wrong-seat");
    // Game 1 drawn by agreement.
    for (state, action) in [(&ann, "offer_draw"), (&bo, "accept_draw")] {
        let (status, life) = post_json(
            &addr,
            "/v1/lifecycle",
            &json!({"game_id": game1, "token": state["seat_token"], "action": action}),
        );
        assert_eq!(status, 200, "{life}");
    }
    let drawn = read(&chair("chair1"));
    assert_eq!(drawn["coins"]["question"], json!([null, null]));
    assert!(drawn.get("seat_token").is_none(), "no game in play");
    // The table's own token answers for no chair; a chair answers once.
    let answer = |token: Value, go_on: bool| {
        post_json(
            &addr,
            "/v1/tables/answer",
            &json!({"table_id": table_id, "token": token, "go_on": go_on}),
        )
    };
    let (status, problem) = answer(opened["token"].clone(), true);
    assert_eq!(
        (status, problem["type"].as_str()),
        (403, Some("/problems/wrong-seat"))
    );
    assert_eq!(answer(chair("chair1"), true).0, 200);
    let (status, problem) = answer(chair("chair1"), false);
    assert_eq!((status, problem["code"].as_str()), (409, Some("answered")));
    let (status, both) = answer(chair("chair2"), true);
    assert_eq!(status, 200, "{both}");
    assert_eq!(both["coins"]["draws_carried"], 1);
    assert_eq!(both["games"][1]["chairs"], json!([1, 0]), "bo moves first");
    // Game 2: bo resigns; ann takes the stake and the carried one, less the scene's fee.
    let game2 = both["games"][1]["game_id"].clone();
    let (status, _) = post_json(
        &addr,
        "/v1/lifecycle",
        &json!({"game_id": game2, "token": both["seat_token"], "action": "resign"}),
    );
    assert_eq!(status, 200);
    let after = read(&chair("chair1"));
    let settled = &after["games"][1]["settlement"];
    assert_eq!(
        settled["settlement"]["formula"],
        "(100 + 0 × 5) × 1 + 100 = 200"
    );
    assert_eq!(
        (settled["winner"].as_u64(), settled["fee"].as_u64()),
        (Some(0), Some(3))
    );
    assert_eq!(after["coins"]["balances"], json!([197, -200]));
    assert_eq!(after["games"].as_array().unwrap().len(), 3);
    let (status, problem) = answer(chair("chair1"), true);
    assert_eq!(
        (status, problem["code"].as_str()),
        (409, Some("no-question"))
    );
    // A restart keeps the table whole.
    drop(server);
    let server = Server::spawn(command(&db, &[], &[key, ("ANQI_TOKEN", "secret")]));
    let (status, again) = post_json(
        &server.addr,
        "/v1/tables/state",
        &json!({"table_id": table_id, "token": chair("chair1")}),
    );
    assert_eq!(status, 200);
    assert_eq!(
        (&again["games"], &again["coins"]),
        (&after["games"], &after["coins"])
    );
    // Refusals: an unknown table, a token of another kind, a game not played for coins.
    let (status, problem) = post_json(
        &server.addr,
        "/v1/tables/state",
        &json!({"table_id": "0123456789abcdef0123456789abcdef", "token": chair("chair1")}),
    );
    assert_eq!(
        (status, problem["type"].as_str()),
        (404, Some("/problems/table-not-found"))
    );
    let (status, problem) = post_json(
        &server.addr,
        "/v1/tables/state",
        &json!({"table_id": table_id, "token": both["seat_token"]}),
    );
    assert_eq!(
        (status, problem["type"].as_str()),
        (422, Some("/problems/invalid-token"))
    );
    let mut luzhanqi = open_body();
    luzhanqi["game"] = json!("luzhanqi");
    luzhanqi["preset"] = json!("dark");
    let (status, _, text) = request_with(
        &server.addr,
        "POST",
        "/v1/tables",
        "application/json",
        "Authorization: Bearer secret\r\n",
        &luzhanqi.to_string(),
    );
    let problem: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        (status, problem["field"].as_str()),
        (422, Some("game")),
        "{problem}"
    );
}
