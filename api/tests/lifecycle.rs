//! `POST /v1/lifecycle` over HTTP (in process, a real SQLite ledger): a seat's token speaks for
//! its own seat only, the game's own token names the seat, refusals are 409 `refused` with a
//! code, the clock and the ending come back in every answer about the game.

use actix_web::test as actix_test;
use serde_json::{Value, json};

#[path = "common/mod.rs"]
mod common;

macro_rules! post {
    ($app:expr, $uri:expr, $body:expr) => {{
        let req = actix_test::TestRequest::post()
            .uri($uri)
            .insert_header(("content-type", "application/json"))
            .set_payload($body.to_string())
            .to_request();
        let res = actix_test::call_service(&$app, req).await;
        let status = res.status().as_u16();
        let body: Value = serde_json::from_slice(&actix_test::read_body(res).await).unwrap();
        (status, body)
    }};
}

#[actix_web::test]
async fn a_game_is_played_offered_refused_and_resigned_over_http() {
    let app = actix_test::init_service(api::app(common::with_store(api::Limits::default()))).await;
    let (status, dealt) = post!(
        app,
        "/v1/deal",
        json!({"seed": 9, "players": ["ann", "bo"], "clock": {"base_ms": 60000, "increment_ms": 1000}})
    );
    assert_eq!(status, 200, "{dealt}");
    let game_id = dealt["game_id"].clone();
    let seat = |s: &str| dealt["seat_tokens"][s].clone();
    let life =
        |token: Value, action: &str| json!({"game_id": game_id, "token": token, "action": action});
    // Before anything: the clocks stand, either seat may abort.
    let (_, listed) = post!(
        app,
        "/v1/actions",
        json!({"game_id": game_id, "token": seat("player1")})
    );
    assert_eq!(listed["life"]["status"], "playing");
    assert_eq!(listed["life"]["abortable"], true);
    assert_eq!(listed["life"]["clock"]["left_ms"], json!([60000, 60000]));
    assert!(listed["life"]["clock"].get("running").is_none());
    // Two plies.
    for (ply, s) in [(0, "player1"), (1, "player2")] {
        let (_, listed) = post!(
            app,
            "/v1/actions",
            json!({"game_id": game_id, "token": seat(s)})
        );
        let action = listed["actions"][0].clone();
        let (status, played) = post!(
            app,
            "/v1/play",
            json!({"game_id": game_id, "token": seat(s), "action": action, "ply": ply})
        );
        assert_eq!(status, 200, "{played}");
    }
    let (status, refused) = post!(app, "/v1/lifecycle", life(seat("player1"), "abort"));
    assert_eq!(
        (status, &refused["code"]),
        (409, &json!("not-abortable")),
        "{refused}"
    );
    assert_eq!(refused["type"], "/problems/refused");
    // The game's own token must name the seat; a seat's token speaks for its own only.
    let (status, problem) = post!(app, "/v1/lifecycle", life(dealt["token"].clone(), "resign"));
    assert_eq!(
        (status, &problem["field"]),
        (400, &json!("player")),
        "{problem}"
    );
    let mut other = life(seat("player1"), "resign");
    other["player"] = json!("player2");
    let (status, problem) = post!(app, "/v1/lifecycle", other);
    assert_eq!(status, 403, "{problem}");
    // Player 1 to move: its clock runs.
    let (status, offered) = post!(app, "/v1/lifecycle", life(seat("player2"), "offer_draw"));
    assert_eq!(status, 200, "{offered}");
    assert_eq!(offered["life"]["draw_offers"], json!(["player2"]));
    assert_eq!(offered["life"]["clock"]["running"], "player1");
    // A seat does not accept its own offer.
    let (status, problem) = post!(app, "/v1/lifecycle", life(seat("player2"), "accept_draw"));
    assert_eq!(
        (status, &problem["code"]),
        (409, &json!("no-draw-offer")),
        "{problem}"
    );
    let (status, declined) = post!(app, "/v1/lifecycle", life(seat("player1"), "decline_draw"));
    assert_eq!(
        (status, &declined["life"]["events"]),
        (200, &json!(2)),
        "{declined}"
    );
    // The app's server resigns for player 2.
    let mut resign = life(dealt["token"].clone(), "resign");
    resign["player"] = json!("player2");
    let (status, ended) = post!(app, "/v1/lifecycle", resign);
    assert_eq!(status, 200, "{ended}");
    assert_eq!(ended["life"]["status"], "ended");
    assert_eq!(
        ended["end"],
        json!({"outcome": "player1", "reason": "resignation"})
    );
    assert_eq!(ended["ply"], 2);
    assert!(
        ended["life"]["clock"].get("running").is_none(),
        "the clocks stop"
    );
    // The view says so too, and the stored game is in the store.
    let (_, view) = post!(
        app,
        "/v1/view",
        json!({"game_id": game_id, "token": seat("player1"), "player": "player1"})
    );
    assert_eq!(view["life"]["status"], "ended");
    let (status, problem) = post!(app, "/v1/lifecycle", life(seat("player1"), "offer_draw"));
    assert_eq!(
        (status, &problem["code"]),
        (409, &json!("game-over")),
        "{problem}"
    );
}

/// Waits until the game has `ply` plies committed (the engine's move), asking with `token`.
async fn until_ply<S, B>(app: &S, game: &str, game_id: &Value, token: &Value, ply: u64) -> Value
where
    S: actix_web::dev::Service<
            actix_http::Request,
            Response = actix_web::dev::ServiceResponse<B>,
            Error = actix_web::Error,
        >,
    B: actix_web::body::MessageBody,
{
    let started = std::time::Instant::now();
    loop {
        let req = actix_test::TestRequest::post()
            .uri("/v1/actions")
            .insert_header(("content-type", "application/json"))
            .set_payload(json!({"game": game, "game_id": game_id, "token": token}).to_string())
            .to_request();
        let res = actix_test::call_service(app, req).await;
        let listed: Value = serde_json::from_slice(&actix_test::read_body(res).await).unwrap();
        if listed["ply"].as_u64() >= Some(ply) || listed.get("end").is_some() {
            return listed;
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(20),
            "the engine did not move: {listed}"
        );
        actix_web::rt::time::sleep(std::time::Duration::from_millis(10)).await;
    }
}

#[actix_web::test]
async fn the_engine_plays_its_seat_of_a_dark_luzhanqi_game() {
    let app = actix_test::init_service(api::app(common::with_store(api::Limits::default()))).await;
    let game = "luzhanqi";
    let (status, dealt) = post!(
        app,
        "/v1/deal",
        json!({"game": game, "players": ["ann", "Anqi engine"], "engines": {"player2": 20}})
    );
    assert_eq!(status, 200, "{dealt}");
    let game_id = dealt["game_id"].clone();
    let mine = dealt["seat_tokens"]["player1"].clone();
    // The engine's seat is not ann's to play, and a deal that gives it every seat is refused.
    let (status, refused) = post!(
        app,
        "/v1/deal",
        json!({"game": game, "engines": {"player1": 20, "player2": 20}})
    );
    assert_eq!(
        (status, &refused["field"]),
        (422, &json!("engines")),
        "{refused}"
    );
    for ply in (0..30).step_by(2) {
        let listed = until_ply(&app, game, &game_id, &mine, ply).await;
        if listed.get("end").is_some() {
            break;
        }
        assert_eq!(listed["to_move"], "player1", "{listed}");
        // Ann's position is masked: the engine's pieces are `?`.
        assert!(
            listed["position"].as_str().unwrap().contains('?'),
            "{listed}"
        );
        let action = listed["actions"]
            [(ply as usize * 7) % listed["count"].as_u64().unwrap() as usize]
            .clone();
        let (status, played) = post!(
            app,
            "/v1/play",
            json!({"game": game, "game_id": game_id, "token": mine, "action": action, "ply": ply})
        );
        assert_eq!(status, 200, "{played}");
        if played.get("end").is_some() {
            break;
        }
        // The engine answers.
        until_ply(&app, game, &game_id, &mine, ply + 2).await;
    }
    let (status, ended) = post!(
        app,
        "/v1/lifecycle",
        json!({"game": game, "game_id": game_id, "token": mine, "action": "resign"})
    );
    assert!(status == 200 || status == 409, "{ended}");
    // The game is stored, the engine's seat named as dealt.
    let (_, view) = post!(
        app,
        "/v1/view",
        json!({"game": game, "game_id": game_id, "token": mine, "player": "player1"})
    );
    assert_eq!(view["life"]["status"], "ended", "{view}");
}

/// An engine's seat without a name is named by the engine's time a move (issue 60), in the
/// game as dealt and in the stored record; a name given for it stays.
#[actix_web::test]
async fn the_engine_is_named_by_its_time_in_the_stored_game() {
    let app = actix_test::init_service(api::app(common::with_store(api::Limits::default()))).await;
    let (status, dealt) = post!(
        app,
        "/v1/deal",
        json!({"players": ["ann"], "engines": {"player2": 300}})
    );
    assert_eq!(status, 200, "{dealt}");
    assert_eq!(
        dealt["record"]["players"],
        json!(["ann", "engine 0.3 s"]),
        "{dealt}"
    );
    // While the game goes on, no stored game is named (its record is not public yet).
    let (_, during) = post!(
        app,
        "/v1/actions",
        json!({"game_id": dealt["game_id"], "token": dealt["seat_tokens"]["player1"]})
    );
    assert!(during.get("stored_game").is_none(), "{during}");
    assert_eq!(during["seat"], "player1", "{during}");
    let (status, ended) = post!(
        app,
        "/v1/lifecycle",
        json!({"game_id": dealt["game_id"], "token": dealt["seat_tokens"]["player1"], "action": "resign"})
    );
    assert_eq!(status, 200, "{ended}");
    let req = actix_test::TestRequest::get()
        .uri("/v1/games?limit=5")
        .to_request();
    let listed: Value = actix_test::call_and_read_body_json(&app, req).await;
    // The store is shared with the other tests here: this game by its source.
    let source = format!("referee:{}", dealt["game_id"].as_str().unwrap());
    let stored = listed["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["source"] == source);
    let names: Vec<&str> = stored.unwrap_or_else(|| panic!("{listed}"))["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["ann", "engine 0.3 s"], "{listed}");
    // The seat's answers name the stored game once it has ended (the page's review link).
    let (_, answer) = post!(
        app,
        "/v1/actions",
        json!({"game_id": dealt["game_id"], "token": dealt["seat_tokens"]["player1"]})
    );
    assert_eq!(answer["stored_game"], stored.unwrap()["id"], "{answer}");
    assert_eq!(answer["seat"], "player1", "{answer}");
    assert_eq!(
        answer["players"],
        json!(["ann", "engine 0.3 s"]),
        "{answer}"
    );
    // Whether a preset's games share a start (the viewer asks the explorer by line then).
    for (game, preset, common) in [
        ("banqi", "tcga", true),
        ("luzhanqi", "dark", true),
        ("luzhanqi", "open", false),
        ("luzhanqi", "flip", true),
    ] {
        let req = actix_test::TestRequest::get()
            .uri(&format!("/v1/presets?game={game}"))
            .to_request();
        let presets: Value = actix_test::call_and_read_body_json(&app, req).await;
        let p = presets["presets"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == preset)
            .unwrap();
        assert_eq!(p["common_start"], common, "{game} {preset}");
    }
}

/// The engine answers a draw offer (issue 60) instead of letting it lapse: at an even start it
/// declines at once (docs/engine.md: it accepts only when it stands worse or the game is all
/// but drawn), on its own, while the other seat is to move.
#[actix_web::test]
async fn the_engine_answers_a_draw_offer() {
    let app = actix_test::init_service(api::app(common::with_store(api::Limits::default()))).await;
    let (status, dealt) = post!(app, "/v1/deal", json!({"engines": {"player2": 50}}));
    assert_eq!(status, 200, "{dealt}");
    let mine = dealt["seat_tokens"]["player1"].clone();
    let (status, life) = post!(
        app,
        "/v1/lifecycle",
        json!({"game_id": dealt["game_id"], "token": mine, "action": "offer_draw"})
    );
    assert_eq!(status, 200, "{life}");
    assert_eq!(life["life"]["draw_offers"], json!(["player1"]), "{life}");
    let started = std::time::Instant::now();
    let listed = loop {
        let listed = until_ply(&app, "banqi", &dealt["game_id"], &mine, 0).await;
        if listed["life"]["draw_offers"] == json!([]) {
            break listed;
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(20),
            "the engine did not answer: {listed}"
        );
        actix_web::rt::time::sleep(std::time::Duration::from_millis(20)).await;
    };
    // Declined (two events: the offer, the decline), not lapsed: nobody has played.
    assert_eq!(listed["ply"], 0, "{listed}");
    assert_eq!(listed["life"]["events"], 2, "{listed}");
    assert_eq!(listed["life"]["status"], "playing", "{listed}");
}
