//! The examples of the OpenAPI document are real: every operation's request example, sent to
//! the service, gets exactly its response example; and every operation has both.

use actix_web::test;
use serde_json::{Value, json};

fn spec() -> Value {
    api::openapi::document()
}

/// One example exchange: method, path, the request (content type, example) and the 200
/// response (content type, example).
type Exchange = (String, String, Option<(String, Value)>, (String, Value));

/// A media type's examples by name: its `example` as `""`, or each of its named `examples`.
fn named(media: &Value) -> Vec<(String, Value)> {
    match media["examples"].as_object() {
        Some(examples) => examples
            .iter()
            .map(|(name, e)| (name.clone(), e["value"].clone()))
            .collect(),
        None => vec![(String::new(), media["example"].clone())],
    }
}

/// Every operation's example exchanges: a request example and the response example of the
/// same name (an operation that takes a game has one per game).
fn operations(spec: &Value) -> Vec<Exchange> {
    let mut out = Vec::new();
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            // The first success response: 201 for a store, else 200.
            let success = ["201", "200"]
                .iter()
                .find_map(|s| op["responses"][*s]["content"].as_object())
                .unwrap_or_else(|| panic!("{method} {path}: no success content"));
            let (response_type, response) = success.iter().next().unwrap();
            let responses = named(response);
            let Some(request) = op["requestBody"]["content"].as_object() else {
                for (_, example) in responses {
                    out.push((
                        method.clone(),
                        path.clone(),
                        None,
                        (response_type.clone(), example),
                    ));
                }
                continue;
            };
            let (request_type, request) = request.iter().next().unwrap();
            let requests = named(request);
            assert_eq!(
                requests.len(),
                responses.len(),
                "{method} {path}: examples pair by name"
            );
            for (name, example) in requests {
                let (_, answer) = responses
                    .iter()
                    .find(|(n, _)| *n == name)
                    .unwrap_or_else(|| panic!("{method} {path}: no response example {name:?}"));
                out.push((
                    method.clone(),
                    path.clone(),
                    Some((request_type.clone(), example)),
                    (response_type.clone(), answer.clone()),
                ));
            }
        }
    }
    out
}

#[actix_web::test]
async fn every_example_is_what_the_service_answers() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-examples");
    let url = records::store::test_databases(&dir, "examples").remove(0);
    let settings = api::Settings {
        store: Some(records::store::Store::open(&url).unwrap()),
        ..api::Settings::default()
    };
    let app = test::init_service(api::app(settings)).await;
    let spec = spec();
    let mut ops = operations(&spec);
    assert!(ops.len() >= 17 + 8, "{}", ops.len());
    // Every game has its examples.
    for game in ["three-kingdoms", "luzhanqi", "xiangqi-3g"] {
        let n = ops
            .iter()
            .filter(|(_, _, r, _)| {
                r.as_ref()
                    .is_some_and(|(_, v)| v["game"] == game || v["record"]["game"] == game)
            })
            .count();
        assert!(n >= 8, "{game}: {n} examples");
    }
    // Store first, so that the game examples find game 1.
    // The explorer then: it stores games of its own. The tables last: a drawn table game
    // is stored too.
    ops.sort_by_key(|(method, path, ..)| {
        (
            !(method == "post" && path == "/v1/games"),
            path.starts_with("/v1/tables"),
            path == "/v1/explorer",
        )
    });
    let print = std::env::var("ANQI_PRINT_EXAMPLES").is_ok();
    // The table's opening.
    let ops_tables = (ops.iter())
        .filter(|(method, path, ..)| method == "post" && path == "/v1/tables")
        .find_map(|(_, _, request, _)| request.clone());
    // Banqi's deal (a request without `game`).
    let deal_request = (ops.iter())
        .filter(|(method, path, ..)| method == "post" && path == "/v1/deal")
        .filter_map(|(_, _, request, _)| request.clone())
        .find(|(_, body)| body.get("game").is_none());
    for (method, path, request, (response_type, expected)) in ops {
        // The stored example game's first player, or a preset.
        let name = if path.starts_with("/v1/players/") {
            "chan"
        } else {
            "gametower"
        };
        let mut uri = path.replace("{name}", name).replace("{id}", "1");
        if path == "/v1/render.svg" || (path == "/v1/render.png" && method == "get") {
            uri = format!(
                "{path}?position=k3%2F4%2F4%2F4%2F4%2F4%2F1p2%2FP2X%20r%20C1%205%2030&last_action=a2-a1"
            );
        }
        let mut req = if method == "get" {
            test::TestRequest::get()
        } else {
            test::TestRequest::post()
        }
        .uri(&uri);
        if path == "/v1/explorer" {
            // The explorer's example counts two finished games (the stored example game is
            // going on: the explorer counts finished games only).
            let games = [
                r#"{"game":"banqi","preset":"tcga","players":["chan","ai"],"actions":["a1(K)","b1(k)"],"result":{"outcome":"player1","reason":"resignation"}}"#,
                r#"{"game":"banqi","preset":"tcga","players":["ai","chan"],"actions":["a1(K)","c1(p)"],"result":{"outcome":"player2","reason":"resignation"}}"#,
            ];
            let stored = test::TestRequest::post()
                .uri("/v1/games")
                .insert_header(("content-type", "application/x-ndjson"))
                .set_payload(games.join("\n"))
                .to_request();
            assert!(test::call_service(&app, stored).await.status().is_success());
        }
        if path == "/v1/stream" {
            // A live stream, never done: api/tests/streams.rs reads it, and checks that the
            // documented example's event has the keys the service sends.
            continue;
        }
        let mut request = request;
        if path == "/v1/lifecycle" || path == "/v1/stream-ticket" {
            // A game's life is a ledger game's: deal one (the deal's example) and ask about it
            // with its first seat's token.
            let (_, deal_example) = deal_request.clone().expect("the deal has an example");
            let dealt = test::TestRequest::post()
                .uri("/v1/deal")
                .insert_header(("content-type", "application/json"))
                .set_payload(deal_example.to_string())
                .to_request();
            let dealt: Value = test::call_and_read_body_json(&app, dealt).await;
            if let Some((_, example)) = &mut request {
                example["game_id"] = dealt["game_id"].clone();
                example["token"] = dealt["seat_tokens"]["player1"].clone();
            }
        }
        if path == "/v1/tables/state" || path == "/v1/tables/answer" {
            // A table's: open one (the table's example) and read it as its first chair; for
            // the answer, its first game drawn first (offered and accepted).
            let (_, open_example) = (ops_tables.clone()).expect("the table has an example");
            let opened = test::TestRequest::post()
                .uri("/v1/tables")
                .insert_header(("content-type", "application/json"))
                .set_payload(open_example.to_string())
                .to_request();
            let opened: Value = test::call_and_read_body_json(&app, opened).await;
            let table_id = opened["table_id"].clone();
            let chair = |c: &str| opened["chair_tokens"][c].clone();
            if path == "/v1/tables/answer" {
                for (c, action) in [("chair1", "offer_draw"), ("chair2", "accept_draw")] {
                    let read = test::TestRequest::post()
                        .uri("/v1/tables/state")
                        .insert_header(("content-type", "application/json"))
                        .set_payload(json!({"table_id": table_id, "token": chair(c)}).to_string())
                        .to_request();
                    let read: Value = test::call_and_read_body_json(&app, read).await;
                    let ask = test::TestRequest::post()
                        .uri("/v1/lifecycle")
                        .insert_header(("content-type", "application/json"))
                        .set_payload(
                            json!({"game_id": read["games"][0]["game_id"], "token": read["seat_token"], "action": action})
                                .to_string(),
                        )
                        .to_request();
                    assert!(test::call_service(&app, ask).await.status().is_success());
                }
            }
            if let Some((_, example)) = &mut request {
                example["table_id"] = table_id;
                example["token"] = chair("chair1");
            }
        }
        if let Some((ct, example)) = &request {
            assert!(!example.is_null(), "{method} {path}: no request example");
            let body = match example {
                Value::String(s) if ct == "text/plain" => s.clone(),
                v => v.to_string(),
            };
            req = req
                .insert_header(("content-type", ct.as_str()))
                .set_payload(body);
        }
        let res = test::call_service(&app, req.to_request()).await;
        let status = res.status().as_u16();
        let body = test::read_body(res).await;
        if response_type == "image/png" {
            // A picture: its example is the PNG signature.
            assert_eq!(status, 200, "{method} {path}");
            assert!(body.starts_with(b"\x89PNG\r\n\x1a\n"), "{method} {path}");
            assert_eq!(expected, "\u{89}PNG\r\n\u{1a}\n…", "{method} {path}");
            continue;
        }
        let text = String::from_utf8(body.to_vec()).unwrap();
        if print {
            println!("=== {method} {path} {status}\n{text}");
            continue;
        }
        assert!(status == 200 || status == 201, "{method} {path}: {text}");
        assert!(!expected.is_null(), "{method} {path}: no response example");
        if response_type == "application/json" {
            let mut actual: Value = serde_json::from_str(&text).unwrap();
            normalise_import_times(&mut actual, &expected);
            if path == "/v1/analyze" {
                // The time a search took is the clock's.
                assert!(actual["millis"].is_u64());
                actual["millis"] = expected["millis"].clone();
            }
            if path == "/v1/stream-ticket" {
                // A ticket is sealed with a fresh nonce, and expires a minute from now.
                for key in ["ticket", "url", "expires_at_ms"] {
                    assert!(!actual[key].is_null(), "{key}");
                    actual[key] = expected[key].clone();
                }
            }
            if path == "/v1/lifecycle" {
                // When the clocks were read is the clock's.
                assert!(actual["life"]["clock"]["at_ms"].is_u64());
                actual["life"]["clock"]["at_ms"] = expected["life"]["clock"]["at_ms"].clone();
            }
            assert_eq!(actual, expected, "{method} {path}");
        } else {
            let expected = expected.as_str().unwrap().trim_end_matches('…');
            assert!(text.starts_with(expected), "{method} {path}: {text}");
        }
    }
}

/// Import times, game ids and sealed tokens differ from run to run: take the example's
/// (a token is still checked to be one: `v1.<key id>.…`).
fn normalise_import_times(actual: &mut Value, expected: &Value) {
    match (actual, expected) {
        (Value::Object(a), Value::Object(e)) => {
            for (k, v) in a.iter_mut() {
                if (k == "seat_tokens" || k == "chair_tokens")
                    && let (Value::Object(tokens), Some(Value::Object(want))) = (&mut *v, e.get(k))
                {
                    assert_eq!(tokens.len(), want.len(), "a token per seat");
                    for (seat, t) in tokens.iter_mut() {
                        assert!(t.as_str().is_some_and(|t| t.starts_with("v1.")), "{t}");
                        if let Some(w) = want.get(seat) {
                            *t = w.clone();
                        }
                    }
                    continue;
                }
                if k == "imported_at"
                    || k == "game_id"
                    || k == "token"
                    || k == "table_id"
                    || k == "seat_token"
                {
                    if k == "token" || k == "seat_token" {
                        assert!(v.as_str().is_some_and(|t| t.starts_with("v1.")), "{v}");
                    }
                    if let Some(t) = e.get(k) {
                        *v = t.clone();
                    }
                } else if let Some(ev) = e.get(k) {
                    normalise_import_times(v, ev);
                }
            }
        }
        (Value::Array(a), Value::Array(e)) => {
            for (x, y) in a.iter_mut().zip(e) {
                normalise_import_times(x, y);
            }
        }
        _ => {}
    }
}
