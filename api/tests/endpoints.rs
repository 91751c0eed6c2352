//! Every endpoint and every kind of error, in process.

use actix_web::http::StatusCode;
use actix_web::test;
use serde_json::{Value, json};

use api::examples::{LAYOUT_42, PROBLEM_REQUESTS, problem};

mod common;

async fn call(
    limits: api::Limits,
    method: &str,
    uri: &str,
    content_type: Option<&str>,
    body: &str,
) -> (
    StatusCode,
    String,
    actix_web::http::header::HeaderMap,
    String,
) {
    let app = test::init_service(api::app(common::with_store(limits))).await;
    let mut req = match method {
        "GET" => test::TestRequest::get(),
        "POST" => test::TestRequest::post(),
        "PUT" => test::TestRequest::put(),
        "DELETE" => test::TestRequest::delete(),
        _ => unreachable!(),
    }
    .uri(uri);
    if let Some(ct) = content_type {
        req = req.insert_header(("content-type", ct));
    }
    let res = test::call_service(&app, req.set_payload(body.to_owned()).to_request()).await;
    let status = res.status();
    let headers = res.headers().clone();
    let ctype = headers
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    let body = String::from_utf8(test::read_body(res).await.to_vec()).unwrap();
    (status, ctype, headers, body)
}

async fn post(uri: &str, body: Value) -> (u16, Value) {
    let (status, _, _, text) = call(
        api::Limits::default(),
        "POST",
        uri,
        Some("application/json"),
        &body.to_string(),
    )
    .await;
    (
        status.as_u16(),
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// Asserts a problem response: status, problem+json, and the `type`.
async fn expect_problem(
    limits: api::Limits,
    method: &str,
    uri: &str,
    content_type: Option<&str>,
    body: &str,
    status: u16,
    kind: &str,
) -> Value {
    let (s, ctype, _, text) = call(limits, method, uri, content_type, body).await;
    assert_eq!(s.as_u16(), status, "{method} {uri}: {text}");
    assert_eq!(ctype, "application/problem+json", "{method} {uri}: {text}");
    let p: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(p["type"], format!("/problems/{kind}"), "{text}");
    assert_eq!(p["status"], status);
    assert!(!p["detail"].as_str().unwrap().is_empty());
    p
}

/// Every body, the record it carries and a record's result are JSON objects: serde would read
/// a struct from an array (its fields in order), so `[]` was a request with every field
/// defaulted (found by the contract test).
#[actix_web::test]
async fn structs_are_objects_never_arrays() {
    let cases = [
        ("/v1/render", "[]"),
        ("/v1/deal", "[]"),
        ("/v1/score", r#"{"record": []}"#),
        ("/v1/view", r#"{"player": "player1", "record": []}"#),
        ("/v1/validate", r#"{"actions": [], "result": ["draw"]}"#),
    ];
    for (uri, body) in cases {
        let p = expect_problem(
            api::Limits::default(),
            "POST",
            uri,
            Some("application/json"),
            body,
            400,
            "malformed-json",
        )
        .await;
        assert!(
            p["detail"].as_str().unwrap().contains("a JSON object"),
            "{uri}: {p}"
        );
    }
    // The objects themselves still read.
    let (status, _) = post(
        "/v1/validate",
        json!({"actions": [], "result": {"outcome": "draw"}}),
    )
    .await;
    assert_eq!(status, 200);
}

#[actix_web::test]
async fn the_problem_examples_are_real() {
    for (name, path, body) in PROBLEM_REQUESTS {
        let (status, ctype, _, text) = call(
            api::Limits::default(),
            "POST",
            path,
            Some("application/json"),
            body,
        )
        .await;
        assert_eq!(ctype, "application/problem+json");
        let actual: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(actual, problem(name), "{name}");
        assert_eq!(actual["status"], status.as_u16());
    }
}

#[actix_web::test]
async fn http_level_errors_are_problems() {
    let d = api::Limits::default;
    // Unknown route and unknown method.
    expect_problem(d(), "GET", "/v2/nothing", None, "", 404, "not-found").await;
    let (status, ctype, headers, _) = call(d(), "DELETE", "/v1/play", None, "").await;
    assert_eq!(status, 405);
    assert_eq!(ctype, "application/problem+json");
    assert_eq!(headers.get("allow").unwrap(), "POST");
    let (status, _, headers, _) = call(d(), "POST", "/v1/health", None, "").await;
    assert_eq!(
        (
            status.as_u16(),
            headers.get("allow").unwrap().to_str().unwrap()
        ),
        (405, "GET")
    );
    // Wrong media types.
    let p = expect_problem(
        d(),
        "POST",
        "/v1/play",
        Some("text/plain"),
        "{}",
        415,
        "unsupported-media-type",
    )
    .await;
    assert!(p["detail"].as_str().unwrap().contains("application/json"));
    expect_problem(
        d(),
        "POST",
        "/v1/play",
        None,
        r#"{"action":"a1"}"#,
        415,
        "unsupported-media-type",
    )
    .await;
    expect_problem(
        d(),
        "POST",
        "/v1/validate",
        Some("application/x-www-form-urlencoded"),
        "a=1",
        415,
        "unsupported-media-type",
    )
    .await;
    // Too large.
    let small = api::Limits {
        max_body: 64,
        ..api::Limits::default()
    };
    let big = json!({"action": "a1", "position": "x".repeat(200)}).to_string();
    expect_problem(
        small,
        "POST",
        "/v1/play",
        Some("application/json"),
        &big,
        413,
        "payload-too-large",
    )
    .await;
    // Too deep.
    let deep = format!("{}{}", "[".repeat(40), "]".repeat(40));
    let p = expect_problem(
        d(),
        "POST",
        "/v1/play",
        Some("application/json"),
        &deep,
        400,
        "json-too-deep",
    )
    .await;
    assert!(p["detail"].as_str().unwrap().contains("32"));
    let shallow = api::Limits {
        max_json_depth: 1,
        ..api::Limits::default()
    };
    expect_problem(
        shallow,
        "POST",
        "/v1/score",
        Some("application/json"),
        r#"{"record": {"actions": []}}"#,
        400,
        "json-too-deep",
    )
    .await;
    // Too many plies to replay in one request, on every endpoint that takes a record.
    let short = api::Limits {
        max_plies: 3,
        ..api::Limits::default()
    };
    let record = json!({"actions": ["a1", "b1", "c1", "d1"]});
    for (path, body) in [
        ("/v1/validate", record.clone()),
        ("/v1/score", json!({"record": record})),
        ("/v1/actions", json!({"record": record})),
        ("/v1/play", json!({"record": record, "action": "a2"})),
        ("/v1/view", json!({"record": record, "player": "player1"})),
    ] {
        let p = expect_problem(
            short,
            "POST",
            path,
            Some("application/json"),
            &body.to_string(),
            413,
            "too-many-plies",
        )
        .await;
        assert_eq!(p["field"], "actions", "{path}");
    }
    // Wrong JSON shapes: unknown field, missing field, wrong type.
    let p = expect_problem(
        d(),
        "POST",
        "/v1/play",
        Some("application/json"),
        r#"{"action": "a1", "colour": "red"}"#,
        400,
        "malformed-json",
    )
    .await;
    assert!(p["detail"].as_str().unwrap().contains("colour"));
    expect_problem(
        d(),
        "POST",
        "/v1/play",
        Some("application/json"),
        r#"{}"#,
        400,
        "malformed-json",
    )
    .await;
    expect_problem(
        d(),
        "POST",
        "/v1/deal",
        Some("application/json"),
        r#"{"seed": "x"}"#,
        400,
        "malformed-json",
    )
    .await;
    // Bad query: an unknown parameter.
    expect_problem(
        d(),
        "GET",
        "/v1/render.svg?colour=red",
        None,
        "",
        400,
        "bad-parameter",
    )
    .await;
    expect_problem(
        d(),
        "GET",
        "/v1/render.svg?position=XXXX",
        None,
        "",
        400,
        "malformed-position",
    )
    .await;
    // Unknown preset by path; unknown problem type.
    expect_problem(d(), "GET", "/v1/presets/blitz", None, "", 404, "not-found").await;
    expect_problem(d(), "GET", "/problems/nothing", None, "", 404, "not-found").await;
}

#[actix_web::test]
async fn meta_endpoints() {
    let (status, _, _, text) = call(
        api::Limits::default(),
        "GET",
        "/v1/presets/taiwan-full",
        None,
        "",
    )
    .await;
    assert_eq!(status, 200);
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["ruleset"]["chariot_rush"], true);
    let (_, _, _, text) = call(api::Limits::default(), "GET", "/problems", None, "").await;
    let list: Vec<Value> = serde_json::from_str(&text).unwrap();
    assert!(
        list.iter()
            .any(|p| p["type"] == "/problems/illegal-action" && p["status"] == 422)
    );
    let (status, _, _, text) = call(
        api::Limits::default(),
        "GET",
        "/problems/json-too-deep",
        None,
        "",
    )
    .await;
    assert_eq!(status, 200);
    assert!(text.contains("max-json-depth"));
}

#[actix_web::test]
async fn validate_takes_json_and_tcga() {
    // An illegal ply is a verdict, not an error.
    let (status, v) = post("/v1/validate", json!({"actions": ["b8(G)", "b8-b7"]})).await;
    assert_eq!(status, 200);
    assert_eq!(v["valid"], false);
    assert_eq!(v["error"]["ply"], 2);
    assert_eq!(v["error"]["reason"], "not_your_piece");
    assert_eq!(
        v["error"]["position"],
        "XGXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX b K1G1M2R2N2C2P5k1g2m2r2n2c2p5 0 1"
    );
    // A wrong stated result.
    let (_, v) = post(
        "/v1/validate",
        json!({"actions": ["b8(G)"], "result": {"outcome": "player1", "reason": "no_move"}}),
    )
    .await;
    assert_eq!(v["error"]["kind"], "result_mismatch");
    // TCGA text.
    let tcga = api::examples::tcga_text();
    let (status, _, _, text) = call(
        api::Limits::default(),
        "POST",
        "/v1/validate",
        Some("text/plain; charset=utf-8"),
        tcga.as_str().unwrap(),
    )
    .await;
    assert_eq!(status, 200, "{text}");
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        (v["valid"].as_bool(), v["plies"].as_u64()),
        (Some(true), Some(4))
    );
    // Malformed TCGA: the line is named.
    let broken = tcga
        .as_str()
        .unwrap()
        .replace("* 2. c8(M) b5(p)", "* 2. c8(M) b5(p) zz");
    let p = expect_problem(
        api::Limits::default(),
        "POST",
        "/v1/validate",
        Some("text/plain"),
        &broken,
        400,
        "malformed-record",
    )
    .await;
    assert_eq!(p["line"], 16);
    // Two games in one text.
    let two = format!("{}{}", tcga.as_str().unwrap(), tcga.as_str().unwrap());
    let p = expect_problem(
        api::Limits::default(),
        "POST",
        "/v1/validate",
        Some("text/plain"),
        &two,
        400,
        "malformed-record",
    )
    .await;
    assert!(p["detail"].as_str().unwrap().contains("holds 2"));
    // An unknown preset is part of the verdict too.
    let (_, v) = post("/v1/validate", json!({"preset": "blitz", "actions": []})).await;
    assert_eq!(v["error"]["reason"], "unknown_preset");
}

#[actix_web::test]
async fn actions_and_play() {
    // Chains are listed with every prefix under chain capture.
    let (status, v) = post(
        "/v1/actions",
        json!({"preset": "gametower-chain", "position": "4/4/4/4/4/p3/p3/R3 r - 0 10"}),
    )
    .await;
    assert_eq!(status, 200);
    let actions: Vec<&str> = v["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert!(
        actions.contains(&"a1-a2") && actions.contains(&"a1-a2-a3"),
        "{actions:?}"
    );
    assert!(actions.contains(&"a1-b1"));
    assert_eq!(v["count"], actions.len());
    // A finished game has no actions, and says how it ended.
    let (_, v) = post(
        "/v1/actions",
        json!({"position": "4/4/4/4/4/4/p3/Kp2 r - 0 10"}),
    )
    .await;
    assert_eq!(v["actions"], json!([]));
    assert_eq!(v["end"], json!({"outcome": "player2", "reason": "no_move"}));
    // The start: 32 flips.
    let (_, v) = post("/v1/actions", json!({})).await;
    assert_eq!(v["count"], 32);

    // A flip without identity needs a layout.
    let (status, v) = post("/v1/play", json!({"action": "b6"})).await;
    assert_eq!((status, v["code"].as_str()), (422, Some("reveal_missing")));
    // With one, it is filled in; a wrong identity contradicts it.
    let (_, v) = post("/v1/play", json!({"action": "c6", "layout": LAYOUT_42})).await;
    assert_eq!(v["action"], "c6(K)");
    let (status, v) = post("/v1/play", json!({"action": "c6(k)", "layout": LAYOUT_42})).await;
    assert_eq!(
        (status, v["code"].as_str()),
        (422, Some("reveal_contradicts_layout"))
    );
    // A layout that disagrees with the position.
    let (status, v) = post(
        "/v1/play",
        json!({"action": "a1", "position": "4/4/4/4/4/4/4/X2K r k1 0 4", "layout": LAYOUT_42}),
    )
    .await;
    assert_eq!(
        (status, v["type"].as_str()),
        (422, Some("/problems/invalid-position"))
    );
    // A dark capture under taiwan-full: the covered black general beats the red chariot.
    let (status, v) = post("/v1/play", json!({"preset": "taiwan-full", "position": "4/4/4/4/4/4/X3/R2p r k1 0 2", "action": "a1-a2(k)"})).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["effect"], "dark_failed");
    assert_eq!(v["position"], "4/4/4/4/4/4/k3/3p b - 0 3");
    assert_eq!(
        v["end"],
        json!({"outcome": "player2", "reason": "elimination"})
    );
    // Playing on after the end.
    let (status, v) = post(
        "/v1/play",
        json!({"position": "4/4/4/4/4/4/k3/3p b - 0 3", "action": "a2-a3"}),
    )
    .await;
    assert_eq!((status, v["code"].as_str()), (422, Some("game_over")));
    // An impossible position is a 422, a malformed one a 400.
    let (status, v) = post(
        "/v1/play",
        json!({"position": "KK2/4/4/4/4/4/4/4 r - 0 2", "action": "a8-a7"}),
    )
    .await;
    assert_eq!(
        (status, v["type"].as_str()),
        (422, Some("/problems/invalid-position"))
    );
    let (status, _) = post(
        "/v1/play",
        json!({"position": "KK2/4/4/4/4/4/4 r - 0 2", "action": "a8-a7"}),
    )
    .await;
    assert_eq!(status, 400);
    // Options override the preset; options that are not the game's (a wrong type, another
    // game's option) are an invalid ruleset: the document's options are any game's.
    let (status, v) = post("/v1/actions", json!({"options": {"no_progress": "many"}})).await;
    assert_eq!(
        (status, v["type"].as_str(), v["field"].as_str()),
        (422, Some("/problems/invalid-ruleset"), Some("options"))
    );
}

#[actix_web::test]
async fn score_records_and_positions() {
    // Unfinished: points, no settlement.
    let (status, v) = post(
        "/v1/score",
        json!({"record": {"actions": ["b8(G)", "d8(g)"]}}),
    )
    .await;
    assert_eq!(status, 200);
    assert!(v.get("settlement").is_none());
    assert_eq!(v["score"]["doubled"], true);
    assert_eq!(v["score"]["first_flips"], "Gg");
    // Doubled with a carry: (100 + 0) × 2 + 200.
    let (_, v) = post("/v1/score", json!({"record": {"actions": ["b8(G)", "d8(g)"], "result": {"outcome": "player1", "reason": "resignation"}}, "draws_carried": 2})).await;
    assert_eq!(v["settlement"]["amount"], 400);
    assert_eq!(v["settlement"]["formula"], "(100 + 0 × 5) × 2 + 200 = 400");
    // Overflow is a 422.
    let (status, v) = post("/v1/score", json!({"record": {"actions": [], "result": {"outcome": "player1", "reason": "timeout"}}, "stake": u64::MAX, "draws_carried": 2})).await;
    assert_eq!(
        (status, v["type"].as_str()),
        (422, Some("/problems/settlement-overflow"))
    );
    // A position before any flip: nobody has points.
    let (_, v) = post("/v1/score/position", json!({"position": "XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - K1G2M2R2N2C2P5k1g2m2r2n2c2p5 0 0"})).await;
    assert_eq!(v["points"], json!({"player1": 0, "player2": 0}));
    assert_eq!(v["material"]["points_at_stake"], 100);
}

#[actix_web::test]
async fn deal_is_seeded_and_random_without_a_seed() {
    let (_, a) = post("/v1/deal", json!({"seed": 7, "include_layout": true})).await;
    let (_, b) = post(
        "/v1/deal",
        json!({"seed": 7, "preset": "olympiad", "include_layout": true}),
    )
    .await;
    assert_eq!(a["layout"], b["layout"]);
    assert!(a["layout"].is_string() && a["record"]["layout"] == a["layout"]);
    // Without include_layout the deal shows no layout: only the sealed token.
    let (_, sealed) = post("/v1/deal", json!({"seed": 7})).await;
    assert!(sealed.get("layout").is_none() && sealed["record"].get("layout").is_none());
    assert!(!sealed.to_string().contains(a["layout"].as_str().unwrap()));
    assert!(sealed["token"].as_str().unwrap().starts_with("v1."));
    assert_eq!(sealed["record"]["metadata"]["game_id"], sealed["game_id"]);
    assert_eq!(b["record"]["preset"], "olympiad");
    // A given seed is public: the answer and the record say it.
    assert_eq!(a["seed"], 7);
    assert_eq!(a["record"]["metadata"]["seed"], 7);
    // An empty body deals a random game from the operating system's generator: no seed is
    // answered (none exists), so nobody can deal it again.
    let (status, _, _, text) = call(api::Limits::default(), "POST", "/v1/deal", None, "").await;
    assert_eq!(status, 200, "{text}");
    let c: Value = serde_json::from_str(&text).unwrap();
    assert!(
        c.get("seed").is_none() && c["record"]["metadata"].get("seed").is_none(),
        "{c}"
    );
    assert!(!text.contains("seed"), "{text}");
    let (_, c) = post("/v1/deal", json!({"include_layout": true})).await;
    let (_, d) = post("/v1/deal", json!({"include_layout": true})).await;
    assert_ne!(c["layout"], d["layout"], "two random deals");
    // The record it gives replays.
    let mut record = a["record"].clone();
    record["actions"] = json!(["a1", "b1"]);
    let (_, v) = post("/v1/validate", record).await;
    assert_eq!(v["valid"], true, "{v}");
}

#[actix_web::test]
async fn a_player_view_never_shows_covered_identities() {
    // The record's layout and a separately given one are both hidden.
    for request in [
        json!({"player": "player1", "record": {"layout": LAYOUT_42, "actions": ["b6", "c6"]}}),
        json!({"player": "player1", "record": {"actions": ["b6", "c6"]}, "layout": LAYOUT_42}),
    ] {
        let (status, v) = post("/v1/view", request).await;
        assert_eq!(status, 200, "{v}");
        let text = v.to_string();
        assert!(!text.contains(LAYOUT_42));
        assert!(!text.contains("layout"));
        assert_eq!(v["board"][2], "XPKX");
        assert_eq!(
            v["board"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r.as_str().unwrap().matches('X').count())
                .sum::<usize>(),
            30
        );
        // Player 1 flipped red: it is red, to move, with 30 flips and its moves.
        assert_eq!(
            (v["color"].as_str(), v["your_turn"].as_bool()),
            (Some("red"), Some(true))
        );
        let actions = v["actions"].as_array().unwrap();
        assert!(
            actions.iter().all(|a| !a.as_str().unwrap().contains('(')),
            "no identity in a listed flip"
        );
        // Every neighbour of its two pieces is covered: flips only.
        assert_eq!(actions.len(), 30);
    }
    // Both a position and a record: a 400.
    let (status, _) = post("/v1/view", json!({"player": "player1", "position": "4/4/4/4/4/4/4/K2k r - 0 2", "record": {"actions": []}})).await;
    assert_eq!(status, 400);
    // An invalid record: a 422 naming the ply.
    let (status, v) = post(
        "/v1/view",
        json!({"player": "player2", "record": {"actions": ["b6"]}}),
    )
    .await;
    assert_eq!((status, v["ply"].as_u64()), (422, Some(1)));
}

#[actix_web::test]
async fn render_draws_svg() {
    let (status, ctype, _, svg) = call(
        api::Limits::default(),
        "POST",
        "/v1/render",
        Some("application/json"),
        &json!({"position": "4/4/4/4/4/4/X3/R2p r k1 0 2", "last_action": "a1-a2"}).to_string(),
    )
    .await;
    assert_eq!((status.as_u16(), ctype.as_str()), (200, "image/svg+xml"));
    assert!(svg.contains("俥") && svg.contains("卒"));
    assert_eq!(svg.matches(r#"class="covered""#).count(), 1);
    let (status, ctype, _, get_svg) = call(api::Limits::default(), "GET",
        "/v1/render.svg?position=4%2F4%2F4%2F4%2F4%2F4%2FX3%2FR2p%20r%20k1%200%202&last_action=a1-a2", None, "").await;
    assert_eq!((status.as_u16(), ctype.as_str()), (200, "image/svg+xml"));
    assert_eq!(get_svg, svg);
    expect_problem(
        api::Limits::default(),
        "POST",
        "/v1/render",
        Some("application/json"),
        r#"{"last_action": "x"}"#,
        400,
        "malformed-action",
    )
    .await;
}

#[actix_web::test]
async fn swagger_ui_and_the_document_are_served_offline() {
    let (status, ctype, _, html) = call(api::Limits::default(), "GET", "/docs/", None, "").await;
    assert_eq!(status, 200);
    assert!(ctype.starts_with("text/html"), "{ctype}");
    assert!(html.contains("swagger"), "{html}");
    let (status, _, _, js) = call(
        api::Limits::default(),
        "GET",
        "/docs/swagger-ui-bundle.js",
        None,
        "",
    )
    .await;
    assert_eq!(status, 200);
    assert!(js.len() > 100_000, "the bundle is vendored");
    let (status, _, _, doc) =
        call(api::Limits::default(), "GET", "/v1/openapi.json", None, "").await;
    assert_eq!(status, 200);
    let doc: Value = serde_json::from_str(&doc).unwrap();
    assert_eq!(doc["info"]["title"], "Anqi");
}
