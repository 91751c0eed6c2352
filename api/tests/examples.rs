//! The examples of the OpenAPI document are real: every operation's request example, sent to
//! the service, gets exactly its response example; and every operation has both.

use actix_web::test;
use serde_json::Value;
use utoipa::OpenApi;

fn spec() -> Value {
    serde_json::to_value(api::openapi::ApiDoc::openapi()).unwrap()
}

/// (method, path, request content type, request example, 200 response content type and example)
fn operations(spec: &Value) -> Vec<(String, String, Option<(String, Value)>, (String, Value))> {
    let mut out = Vec::new();
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let request = op["requestBody"]["content"].as_object().map(|c| {
                let (ct, media) = c.iter().next().unwrap();
                (ct.clone(), media["example"].clone())
            });
            // The first success response: 201 for a store, else 200.
            let success = ["201", "200"]
                .iter()
                .find_map(|s| op["responses"][*s]["content"].as_object())
                .unwrap_or_else(|| panic!("{method} {path}: no success content"));
            let (ct, media) = success.iter().next().unwrap();
            out.push((
                method.clone(),
                path.clone(),
                request,
                (ct.clone(), media["example"].clone()),
            ));
        }
    }
    out
}

#[actix_web::test]
async fn every_example_is_what_the_service_answers() {
    let dir = std::env::temp_dir().join(format!("anqi-examples-{}", std::process::id()));
    let url = records::store::test_databases(&dir, "examples").remove(0);
    let settings = api::Settings {
        store: Some(records::store::Store::open(&url).unwrap()),
        ..api::Settings::default()
    };
    let app = test::init_service(api::app(settings)).await;
    let spec = spec();
    let mut ops = operations(&spec);
    assert!(ops.len() >= 17, "{}", ops.len());
    // Store first, so that the game examples find game 1.
    ops.sort_by_key(|(method, path, ..)| !(method == "post" && path == "/v1/games"));
    let print = std::env::var("ANQI_PRINT_EXAMPLES").is_ok();
    for (method, path, request, (response_type, expected)) in ops {
        let mut uri = path.replace("{name}", "gametower").replace("{id}", "1");
        if path == "/v1/render.svg" {
            uri = "/v1/render.svg?position=k3%2F4%2F4%2F4%2F4%2F4%2F1p2%2FP2X%20r%20C1%205%2030&last_action=a2-a1".into();
        }
        let mut req = if method == "get" {
            test::TestRequest::get()
        } else {
            test::TestRequest::post()
        }
        .uri(&uri);
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
                if k == "imported_at" || k == "game_id" || k == "token" {
                    if k == "token" {
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
