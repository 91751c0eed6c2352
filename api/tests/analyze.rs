//! `POST /v1/analyze`: the engine over HTTP. A forced win found with its line, the top actions,
//! a record's history, the service's caps (a request over them gets the best answer within
//! them, said so), bad limits and games without an engine refused precisely, a seat token's
//! analysis from the ledger (and refused when it states something else); over TCP, the slots:
//! one analysis too many is refused while the rest of the service answers.

use std::process::{Command, Stdio};

use actix_web::test as actix_test;
use serde_json::{Value, json};

mod common;
use common::{Server, request};

async fn call_with(settings: api::Settings, body: Value) -> (u16, Value) {
    let app = actix_test::init_service(api::app(settings)).await;
    let req = actix_test::TestRequest::post()
        .uri("/v1/analyze")
        .insert_header(("content-type", "application/json"))
        .set_payload(body.to_string())
        .to_request();
    let res = actix_test::call_service(&app, req).await;
    let status = res.status().as_u16();
    let body: Value = serde_json::from_slice(&actix_test::read_body(res).await).unwrap();
    (status, body)
}

async fn call(body: Value) -> (u16, Value) {
    call_with(common::with_store(api::Limits::default()), body).await
}

#[actix_web::test]
async fn a_forced_win_is_found_with_its_line() {
    // Black's general on a8 is shut in by red's soldiers on b7 and a6: whatever red plays,
    // the general steps out and a soldier takes it, the win at the third ply.
    let (status, body) = call(json!({
        "position": "k3/1P2/P3/4/4/4/4/3K r - 0 10",
        "limits": {"depth": 6},
        "top": 2
    }))
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["score"]["forced_in"], 3, "{body}");
    assert_eq!(body["score"]["win"], 1.0);
    assert_eq!(body["score"]["centipawns"], 99_997);
    assert_eq!(body["actions"].as_array().unwrap().len(), 2);
    assert_eq!(body["line"][0], body["best"]);
    assert_eq!(body["capped"], false);
    assert_eq!(body["limits"]["depth"], 6);
}

#[actix_web::test]
async fn a_lost_position_and_a_finished_game() {
    // Black to move with the same cage: lost in two (its move, then the capture).
    let (status, body) =
        call(json!({"position": "k3/1P2/P3/4/4/4/4/3K b - 0 10", "limits": {"depth": 4}})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["score"]["forced_in"], -2, "{body}");
    assert_eq!(body["score"]["loss"], 1.0);
    // Black has nothing left: the game is over, no action, lost now.
    let (status, body) = call(json!({"position": "4/4/4/4/4/4/4/P2K b - 0 10"})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["best"], Value::Null);
    assert_eq!(body["score"]["forced_in"], 0);
    assert_eq!(body["score"]["centipawns"], -100_000);
}

#[actix_web::test]
async fn a_record_gives_the_history() {
    // Red's chariot went a1-a2 and back while black's horse went d8-c8 and back: returning
    // to a2 would repeat a position. The record's analysis knows it; the bare position's not.
    // (The covered piece on d1 keeps the game out of the solved endgames, exact either way.)
    let record = json!({"game": "banqi", "preset": "tcga",
        "start": "3n/4/4/4/4/4/4/R2X r P1 0 10",
        "actions": ["a1-a2", "d8-c8", "a2-a1", "c8-d8"]});
    let (status, with_history) = call(json!({"record": record, "limits": {"depth": 1}})).await;
    assert_eq!(status, 200, "{with_history}");
    let (_, bare) =
        call(json!({"position": "3n/4/4/4/4/4/4/R2X r P1 4 14", "limits": {"depth": 1}})).await;
    let value = |body: &Value, action: &str| {
        body["actions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["action"] == action)
            .map(|a| a["score"]["centipawns"].as_i64().unwrap())
            .unwrap()
    };
    assert!(
        value(&with_history, "a1-a2") < value(&bare, "a1-a2"),
        "{with_history}\n{bare}"
    );
}

#[actix_web::test]
async fn the_caps_hold_and_say_so() {
    let mut settings = common::with_store(api::Limits::default());
    settings.analyses = api::routes::analysis::Analyses::new(
        records::core::analysis::Limits {
            depth: Some(3),
            nodes: Some(5_000),
            millis: Some(1_000),
        },
        1,
    );
    let (status, body) = call_with(
        settings.clone(),
        json!({"limits": {"nodes": 1_000_000, "depth": 9}}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["capped"], true);
    assert_eq!(
        body["limits"],
        json!({"depth": 3, "nodes": 5_000, "millis": 1_000})
    );
    assert!(body["nodes"].as_u64().unwrap() <= 5_000, "{body}");
    assert!(body["best"].is_string());
    // Within the caps: not capped; unstated limits are the caps.
    let (_, body) = call_with(settings, json!({"limits": {"nodes": 100}})).await;
    assert_eq!(body["capped"], false);
    assert_eq!(
        body["limits"],
        json!({"depth": 3, "nodes": 100, "millis": 1_000})
    );
}

#[actix_web::test]
async fn bad_limits_are_refused_and_every_game_has_an_engine() {
    for (field, limits) in [
        ("limits.depth", json!({"depth": 0})),
        ("limits.nodes", json!({"nodes": 0})),
        ("limits.millis", json!({"millis": 0})),
    ] {
        let (status, body) = call(json!({"limits": limits})).await;
        assert_eq!(
            (status, body["field"].as_str()),
            (400, Some(field)),
            "{body}"
        );
        assert_eq!(body["code"], "bad_parameter");
    }
    let (status, body) = call(json!({"limits": {"depth": -1}})).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("malformed_json")),
        "{body}"
    );
    let (status, body) = call(json!({"limits": {"plies": 3}})).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("malformed_json")),
        "{body}"
    );
    // Every game has an engine: the others' starts are analysed too (a dark Luzhanqi game
    // starts from setups only a referee holds: its flip game here).
    for (game, preset) in [
        ("three-kingdoms", "three-kingdoms"),
        ("luzhanqi", "flip"),
        ("xiangqi-3g", "xiangqi-3g"),
    ] {
        let record = json!({"game": game, "preset": preset, "actions": []});
        let (status, body) =
            call(json!({"game": game, "record": record, "limits": {"nodes": 2000}})).await;
        assert_eq!(status, 200, "{game}: {body}");
        assert!(body["best"].is_string(), "{game}: {body}");
        assert!(
            body["actions"].as_array().unwrap().len() > 1,
            "{game}: {body}"
        );
    }
    let (status, body) =
        call(json!({"position": "k3/1P2/P3/4/4/4/4/3K r - 0 10", "record": {"actions": []}})).await;
    assert_eq!(
        (status, body["field"].as_str()),
        (400, Some("record")),
        "{body}"
    );
}

/// A JSON POST to `uri`.
fn post(uri: &str, body: Value) -> actix_http::Request {
    actix_test::TestRequest::post()
        .uri(uri)
        .insert_header(("content-type", "application/json"))
        .set_payload(body.to_string())
        .to_request()
}

#[actix_web::test]
async fn a_seat_token_analyses_the_ledgers_game() {
    let settings = common::with_store(api::Limits::default());
    let app = actix_test::init_service(api::app(settings)).await;
    let res = actix_test::call_service(
        &app,
        post("/v1/deal", json!({"players": ["A", "B"], "seed": 7})),
    )
    .await;
    let deal: Value = serde_json::from_slice(&actix_test::read_body(res).await).unwrap();
    let (game_id, token) = (
        deal["game_id"].clone(),
        deal["seat_tokens"]["player1"].clone(),
    );
    let res = actix_test::call_service(
        &app,
        post(
            "/v1/play",
            json!({"game_id": game_id, "token": token, "action": "b6"}),
        ),
    )
    .await;
    assert_eq!(res.status().as_u16(), 200);
    // Either seat may ask; it is black's or red's turn as the ledger says.
    let ask = json!({"game_id": game_id, "token": deal["seat_tokens"]["player2"], "limits": {"nodes": 2_000}});
    let res = actix_test::call_service(&app, post("/v1/analyze", ask.clone())).await;
    let body: Value = serde_json::from_slice(&actix_test::read_body(res).await).unwrap();
    assert!(body["best"].is_string(), "{body}");
    // The ply before the flip: the start, every square a flip.
    let mut at_start = ask.clone();
    at_start["ply"] = json!(0);
    let res = actix_test::call_service(&app, post("/v1/analyze", at_start)).await;
    let body: Value = serde_json::from_slice(&actix_test::read_body(res).await).unwrap();
    assert_eq!(body["actions"].as_array().unwrap().len(), 32, "{body}");
    // A stated position other than the ledger's: 409, nothing analysed.
    let mut wrong = ask.clone();
    wrong["position"] = json!("k3/1P2/P3/4/4/4/4/3K r - 0 10");
    let res = actix_test::call_service(&app, post("/v1/analyze", wrong)).await;
    assert_eq!(res.status().as_u16(), 409);
    // A made-up record (the opponent's flips written out) or a ply not yet played: refused,
    // and the refusal names no hidden piece.
    let mut made_up = ask.clone();
    made_up["record"] = json!({"game": "banqi", "preset": "tcga", "actions": ["b6(K)", "a1(k)"]});
    let res = actix_test::call_service(&app, post("/v1/analyze", made_up)).await;
    assert_eq!(res.status().as_u16(), 409);
    let body = String::from_utf8(actix_test::read_body(res).await.to_vec()).unwrap();
    assert!(!body.contains("(k)") && !body.contains("a1("), "{body}");
    let mut ahead = ask.clone();
    ahead["ply"] = json!(5);
    let res = actix_test::call_service(&app, post("/v1/analyze", ahead)).await;
    assert_eq!(res.status().as_u16(), 409, "a ply not yet committed");
    // Another game's id with this token: the token does not open it.
    let mut other = ask;
    other["game_id"] = json!("0123456789abcdef0123456789abcdef");
    let res = actix_test::call_service(&app, post("/v1/analyze", other)).await;
    assert!(
        matches!(res.status().as_u16(), 404 | 422),
        "{}",
        res.status()
    );
}

/// A dark Luzhanqi game at the referee: red's seat token asks the engine, which answers one
/// of red's legal actions, and the same answer whatever black's setup (two games whose red
/// setups are the same and black's differ).
#[actix_web::test]
async fn a_dark_luzhanqi_seat_is_answered_from_what_it_knows() {
    let settings = common::with_store(api::Limits::default());
    let app = actix_test::init_service(api::app(settings)).await;
    let red = "RTETR/C1E1J/DP1PT/E1G1J/LCMBP/LFLDB";
    let mut answers = Vec::new();
    for black in [
        "lfldb/lcmbp/e1g1j/dp1pt/c1e1j/rtetr",
        "ldlfb/lcmbp/e1g1j/tp1pd/c1e1j/rtetr",
    ] {
        let deal = json!({"game": "luzhanqi", "preset": "dark", "players": ["A", "B"],
            "layout": {"red": red, "black": black}});
        let res = actix_test::call_service(&app, post("/v1/deal", deal)).await;
        let deal: Value = serde_json::from_slice(&actix_test::read_body(res).await).unwrap();
        let ask = json!({"game": "luzhanqi", "game_id": deal["game_id"], "token": deal["seat_tokens"]["player1"],
            "limits": {"nodes": 3_000}, "top": 5});
        let res = actix_test::call_service(&app, post("/v1/analyze", ask.clone())).await;
        assert_eq!(res.status().as_u16(), 200);
        let mut body: Value = serde_json::from_slice(&actix_test::read_body(res).await).unwrap();
        let view = json!({"game": "luzhanqi", "player": "player1", "game_id": deal["game_id"], "token": deal["seat_tokens"]["player1"]});
        let res = actix_test::call_service(&app, post("/v1/view", view)).await;
        let view: Value = serde_json::from_slice(&actix_test::read_body(res).await).unwrap();
        assert!(
            view["actions"].as_array().unwrap().contains(&body["best"]),
            "{body}\n{view}"
        );
        // A cheating client asks for its dark game as an open one (where every piece shows):
        // refused, and the refusal names no black piece.
        let mut open = ask.clone();
        open["options"] = json!({"mode": "open"});
        let res = actix_test::call_service(&app, post("/v1/analyze", open)).await;
        assert_eq!(res.status().as_u16(), 409);
        let refusal = String::from_utf8(actix_test::read_body(res).await.to_vec()).unwrap();
        assert!(!refusal.contains(black), "{refusal}");
        // A stated position (black's setup guessed, as an open game would show it) and a ply
        // not yet played: refused, naming nothing of black's.
        let mut guessed = ask.clone();
        guessed["position"] = json!(format!("{black}/{red} -- r - - 0 0"));
        let mut ahead = ask.clone();
        ahead["ply"] = json!(3);
        for attack in [guessed, ahead] {
            let res = actix_test::call_service(&app, post("/v1/analyze", attack)).await;
            let status = res.status().as_u16();
            let refusal = String::from_utf8(actix_test::read_body(res).await.to_vec()).unwrap();
            assert!(matches!(status, 400 | 409 | 422), "{status} {refusal}");
            assert!(!refusal.contains(black), "{refusal}");
        }
        body["millis"] = json!(0);
        answers.push(body);
    }
    assert_eq!(answers[0], answers[1], "the engine read black's setup");
}

/// The real binary with one analysis slot: while a long analysis runs, a second is refused
/// (503 `analysis-busy`, with `Retry-After`) and validation answers; once it is done, a slot is free again.
#[test]
fn one_analysis_too_many_is_refused_while_the_rest_answers() {
    let db = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-analyze-slots.db");
    let _ = std::fs::remove_file(&db);
    let mut command = Command::new(env!("CARGO_BIN_EXE_anqi-api"));
    command
        .env("DATABASE_URL", &db)
        .env("ANQI_PORT", "0")
        .env_remove("ANQI_TOKEN")
        .env_remove("ANQI_HOST")
        .args(["--analysis-slots", "1", "--analysis-millis", "1500"])
        .stderr(Stdio::null());
    let server = Server::spawn(command);
    let addr = server.addr.clone();
    // The start position, unbounded but for the time cap: it thinks the full 1.5 s.
    // (Sent again should a probe below hold the slot at that moment.)
    let long = std::thread::spawn(move || {
        loop {
            let answer = request(&addr, "POST", "/v1/analyze", "application/json", "{}");
            if answer.0 != 503 {
                return answer;
            }
        }
    });
    // Wait until the slot is taken (a short analysis is refused), then ask for the rest.
    let mut refused = None;
    for _ in 0..200 {
        let (status, head, body) = common::exchange(
            &server.addr,
            "POST",
            "/v1/analyze",
            "application/json",
            "",
            r#"{"limits": {"nodes": 10}}"#,
        );
        if status == 503 {
            assert!(
                head.to_ascii_lowercase().contains("\r\nretry-after: 1"),
                "{head}"
            );
            refused = Some(body);
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let refused: Value =
        serde_json::from_str(&refused.expect("a second analysis refused")).unwrap();
    assert_eq!(refused["code"], "analysis_busy", "{refused}");
    let record = r#"{"game": "banqi", "preset": "tcga", "actions": ["b6(K)", "c6(p)"]}"#;
    for _ in 0..20 {
        let (status, _, body) = request(
            &server.addr,
            "POST",
            "/v1/validate",
            "application/json",
            record,
        );
        assert_eq!(status, 200, "{body}");
    }
    // Validation answered while the long analysis still ran (it answers after).
    assert!(!long.is_finished(), "the long analysis was still thinking");
    let (status, _, body) = long.join().unwrap();
    assert_eq!(status, 200, "{body}");
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(body["stopped"], true, "{body}");
    let (status, _, _) = request(
        &server.addr,
        "POST",
        "/v1/analyze",
        "application/json",
        r#"{"limits": {"nodes": 10}}"#,
    );
    assert_eq!(status, 200);
}

/// `POST /v1/review`: a whole game's review in one request, as `anqi analyze` gives it: a line
/// per position, the engine's own choice never a loss, an illegal record refused naming its
/// ply, the per-position limits held to the review's share of its time.
#[actix_web::test]
async fn a_whole_game_is_reviewed_in_one_request() {
    let app = actix_test::init_service(api::app(common::with_store(api::Limits::default()))).await;
    let post = |body: Value| {
        actix_test::TestRequest::post()
            .uri("/v1/review")
            .insert_header(("content-type", "application/json"))
            .set_payload(body.to_string())
            .to_request()
    };
    let record: Value =
        serde_json::from_str(include_str!("../../docs/examples/xiangqi-3g-record.json")).unwrap();
    let res = actix_test::call_service(
        &app,
        post(json!({"game": "xiangqi-3g", "record": record, "limits": {"nodes": 2000}})),
    )
    .await;
    assert_eq!(res.status().as_u16(), 200);
    let body: Value = serde_json::from_slice(&actix_test::read_body(res).await).unwrap();
    let plies = body["plies"].as_array().unwrap();
    assert_eq!(plies.len(), record["actions"].as_array().unwrap().len() + 1);
    let mut chosen = 0;
    for pair in plies.windows(2) {
        if pair[0]["best"] == pair[1]["action"] {
            chosen += 1;
            assert!(
                pair[1]["said"]
                    .as_str()
                    .is_some_and(|s| s.starts_with("the engine's choice"))
                    && pair[1]["lost"].as_i64().unwrap_or(0) == 0,
                "{}",
                pair[1]
            );
        }
    }
    assert!(chosen > 0, "the engine's choice was played somewhere");
    // Every position gets its share of the 30 s: 21 positions, at most 1,428 ms each.
    assert!(
        body["limits"]["millis"].as_u64().unwrap() <= 30_000 / 21,
        "{body}"
    );
    // An illegal record: refused, naming the ply.
    let mut bad = record.clone();
    bad["actions"][3] = json!("a0a9");
    let res =
        actix_test::call_service(&app, post(json!({"game": "xiangqi-3g", "record": bad}))).await;
    let status = res.status().as_u16();
    let problem: Value = serde_json::from_slice(&actix_test::read_body(res).await).unwrap();
    assert_eq!(
        (status, problem["ply"].as_u64()),
        (422, Some(4)),
        "{problem}"
    );
}
