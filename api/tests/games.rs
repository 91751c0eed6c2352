//! The record store over HTTP, in process, on SQLite and (when configured) PostgreSQL.

use actix_web::test;
use serde_json::{Value, json};

fn settings(name: &str, token: Option<&str>) -> Vec<api::Settings> {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-api-games");
    records::store::test_databases(&dir, name)
        .into_iter()
        .map(|url| api::Settings {
            store: Some(records::store::Store::open(&url).unwrap()),
            token: token.map(str::to_owned),
            ..api::Settings::default()
        })
        .collect()
}

struct Reply {
    status: u16,
    headers: actix_web::http::header::HeaderMap,
    text: String,
}

impl Reply {
    fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or_else(|_| panic!("not JSON: {}", self.text))
    }
}

async fn send(
    app: &impl actix_web::dev::Service<
        actix_http::Request,
        Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>,
        Error = actix_web::Error,
    >,
    req: test::TestRequest,
) -> Reply {
    let res = test::call_service(app, req.to_request()).await;
    let status = res.status().as_u16();
    let headers = res.headers().clone();
    let body = test::read_body(res).await;
    Reply {
        status,
        headers,
        text: String::from_utf8(body.to_vec()).unwrap(),
    }
}

fn post_json(body: &Value) -> test::TestRequest {
    test::TestRequest::post()
        .uri("/v1/games")
        .insert_header(("content-type", "application/json"))
        .set_payload(body.to_string())
}

fn game(actions: &[&str], player: &str, date: &str) -> Value {
    json!({"preset": "tcga", "players": [player, "ai"], "actions": actions, "metadata": {"date": date}})
}

#[actix_web::test]
async fn store_fetch_and_list() {
    for s in settings("http_games", None) {
        let app = test::init_service(api::app(s)).await;
        // One record: 201 with Location, then 200 as a duplicate with the same id.
        let a = game(&["b8(G)", "d8(g)"], "alice", "2026-01-05");
        let r = send(&app, post_json(&a)).await;
        assert_eq!(r.status, 201, "{}", r.text);
        let id = r.json()["results"][0]["id"].as_i64().unwrap();
        assert_eq!(
            r.headers.get("location").unwrap().to_str().unwrap(),
            format!("/v1/games/{id}")
        );
        let r = send(&app, post_json(&a)).await;
        assert_eq!(
            (r.status, r.json()["results"][0]["status"].as_str()),
            (200, Some("duplicate"))
        );
        assert_eq!(r.json()["results"][0]["id"], id);
        // An invalid record: 422 naming the ply, nothing stored.
        let r = send(&app, post_json(&json!({"actions": ["b8(G)", "b8(g)"]}))).await;
        assert_eq!(r.status, 422);
        assert_eq!(
            (r.json()["code"].as_str(), r.json()["ply"].as_u64()),
            (Some("not_covered"), Some(2))
        );
        // NDJSON: a result per line.
        let lines = [
            game(&["a1(P)", "b1(p)"], "bob", "2026-02-10").to_string(),
            "{oops".to_owned(),
            json!({"actions": ["a1(K)", "a1-a2"]}).to_string(),
            a.to_string(),
            game(&["c3(M)", "c4(m)"], "alice", "2026-03-01").to_string(),
        ];
        let r = send(
            &app,
            test::TestRequest::post()
                .uri("/v1/games")
                .insert_header(("content-type", "application/x-ndjson"))
                .set_payload(lines.join("\n")),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.text);
        let v = r.json();
        let statuses: Vec<&str> = v["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["status"].as_str().unwrap())
            .collect();
        assert_eq!(
            statuses,
            ["stored", "unreadable", "invalid", "duplicate", "stored"]
        );
        assert_eq!(v["results"][1]["line"], 2);
        assert_eq!(v["results"][1]["error"]["type"], "/problems/malformed-json");
        assert_eq!(v["results"][2]["error"]["code"], "not_your_piece");
        assert_eq!(
            v["summary"],
            json!({"stored": 2, "duplicates": 1, "invalid": 1, "unreadable": 1})
        );

        // One game: JSON, TCGA by query or by Accept.
        let r = send(
            &app,
            test::TestRequest::get().uri(&format!("/v1/games/{id}")),
        )
        .await;
        assert_eq!(r.status, 200);
        let v = r.json();
        assert_eq!(
            (
                v["id"].as_i64(),
                v["player1"].as_str(),
                v["doubled"].as_bool()
            ),
            (Some(id), Some("alice"), Some(true))
        );
        assert_eq!(v["record"]["actions"], json!(["b8(G)", "d8(g)"]));
        let record: records::core::Record = serde_json::from_value(v["record"].clone()).unwrap();
        let tcga = records::games::banqi::tcga::export(&record).unwrap();
        let r = send(
            &app,
            test::TestRequest::get().uri(&format!("/v1/games/{id}?format=tcga")),
        )
        .await;
        assert_eq!((r.status, r.text.as_str()), (200, tcga.as_str()));
        assert!(
            r.headers
                .get("content-type")
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with("text/plain")
        );
        let r = send(
            &app,
            test::TestRequest::get()
                .uri(&format!("/v1/games/{id}"))
                .insert_header(("accept", "text/plain")),
        )
        .await;
        assert_eq!(r.text, tcga);
        let r = send(&app, test::TestRequest::get().uri("/v1/games/999999")).await;
        assert_eq!(
            (r.status, r.json()["type"].as_str()),
            (404, Some("/problems/not-found"))
        );
        let r = send(&app, test::TestRequest::get().uri("/v1/games/abc")).await;
        assert_eq!(
            (r.status, r.json()["type"].as_str()),
            (400, Some("/problems/bad-parameter"))
        );
        let r = send(
            &app,
            test::TestRequest::get().uri(&format!("/v1/games/{id}?format=pgn")),
        )
        .await;
        assert_eq!(r.status, 400);

        // Lists: filters and pages.
        let list = |q: &str| test::TestRequest::get().uri(&format!("/v1/games?{q}"));
        let r = send(&app, list("player=alice")).await;
        assert_eq!(r.json()["games"].as_array().unwrap().len(), 2);
        let r = send(&app, list("player=alice&date_from=2026-02-01")).await;
        assert_eq!(r.json()["games"][0]["played_on"], "2026-03-01");
        let r = send(&app, list("date_to=2026-01-31")).await;
        assert_eq!(r.json()["games"].as_array().unwrap().len(), 1);
        let r = send(&app, list("result=ongoing&preset=tcga&limit=2")).await;
        let v = r.json();
        assert_eq!(v["games"].as_array().unwrap().len(), 2);
        let next = v["next"].as_i64().unwrap();
        let r = send(&app, list(&format!("result=ongoing&limit=2&after={next}"))).await;
        let v = r.json();
        assert_eq!(v["games"].as_array().unwrap().len(), 1);
        assert!(v.get("next").is_none());
        let r = send(&app, list("result=draw")).await;
        assert_eq!(r.json()["games"], json!([]));
        for bad in [
            "date_from=yesterday",
            "limit=0",
            "limit=5000",
            "colour=red",
            "after=x",
        ] {
            let r = send(&app, list(bad)).await;
            assert_eq!(
                (r.status, r.json()["type"].as_str()),
                (400, Some("/problems/bad-parameter")),
                "{bad}"
            );
        }
        // A record under other rules has no TCGA text.
        let r = send(
            &app,
            post_json(&json!({"preset": "taiwan", "actions": ["a1(P)"]})),
        )
        .await;
        let other = r.json()["results"][0]["id"].as_i64().unwrap();
        let r = send(
            &app,
            test::TestRequest::get().uri(&format!("/v1/games/{other}?format=tcga")),
        )
        .await;
        assert_eq!(
            (r.status, r.json()["type"].as_str()),
            (422, Some("/problems/not-exportable"))
        );
    }
}

#[actix_web::test]
async fn writes_need_the_token_when_there_is_one() {
    for s in settings("http_token", Some("s3cret")) {
        let app = test::init_service(api::app(s)).await;
        let a = game(&["b8(G)"], "carol", "2026-01-01");
        let r = send(&app, post_json(&a)).await;
        assert_eq!(r.status, 401);
        assert_eq!(r.headers.get("www-authenticate").unwrap(), "Bearer");
        assert_eq!(r.json(), api::examples::unauthorized());
        let r = send(
            &app,
            post_json(&a).insert_header(("authorization", "Bearer s3cre7")),
        )
        .await;
        assert_eq!(r.status, 401);
        let r = send(
            &app,
            post_json(&a).insert_header(("authorization", "Bearer s3cret")),
        )
        .await;
        assert_eq!(r.status, 201, "{}", r.text);
        // Reads are open.
        let r = send(&app, test::TestRequest::get().uri("/v1/games")).await;
        assert_eq!(r.status, 200);
        assert_eq!(r.json()["games"].as_array().unwrap().len(), 1);
    }
}

#[actix_web::test]
async fn without_a_store_the_games_answer_503() {
    let app = test::init_service(api::app(api::Limits::default())).await;
    let r = send(&app, test::TestRequest::get().uri("/v1/games")).await;
    assert_eq!(
        (r.status, r.json()["type"].as_str()),
        (503, Some("/problems/store-unavailable"))
    );
}
