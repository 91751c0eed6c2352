//! Pictures over HTTP: `/v1/render.png` (POST and GET, a width within limits, every game, a
//! seat's masked view), `/v1/render.svg?width=`, and `/v1/replay.png`, a record's replay as an
//! animated PNG. The PNGs are checked by their bytes: the signature, the size in the header,
//! and an animation's frame count.

use actix_web::test;
use serde_json::{Value, json};

mod common;

/// Status, content type and body bytes.
async fn call(method: &str, uri: &str, body: Option<Value>) -> (u16, String, Vec<u8>) {
    let app = test::init_service(api::app(common::with_store(api::Limits::default()))).await;
    let mut req = match method {
        "GET" => test::TestRequest::get(),
        _ => test::TestRequest::post(),
    }
    .uri(uri);
    if let Some(body) = body {
        req = req
            .insert_header(("content-type", "application/json"))
            .set_payload(body.to_string());
    }
    let res = test::call_service(&app, req.to_request()).await;
    let status = res.status().as_u16();
    let ctype = res
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    (status, ctype, test::read_body(res).await.to_vec())
}

/// A PNG's width and height from its header (IHDR, the first chunk).
fn png_size(png: &[u8]) -> (u32, u32) {
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG");
    assert_eq!(&png[12..16], b"IHDR");
    let be = |i: usize| u32::from_be_bytes(png[i..i + 4].try_into().unwrap());
    (be(16), be(20))
}

/// An APNG's frame count (its acTL chunk), None for a still picture.
fn frame_count(png: &[u8]) -> Option<u32> {
    let at = png.windows(4).position(|w| w == b"acTL")?;
    Some(u32::from_be_bytes(png[at + 4..at + 8].try_into().unwrap()))
}

fn problem(body: &[u8]) -> Value {
    serde_json::from_slice(body).unwrap()
}

#[actix_web::test]
async fn a_position_is_drawn_as_png_at_the_width_asked() {
    let request =
        json!({"position": "4/4/4/4/4/4/X3/R2p r k1 0 2", "last_action": "a1-a2", "width": 300});
    let (status, ctype, png) = call("POST", "/v1/render.png", Some(request)).await;
    assert_eq!((status, ctype.as_str()), (200, "image/png"));
    let (w, h) = png_size(&png);
    assert_eq!(w, 300);
    // Banqi's board is 276 × 516: the height follows.
    assert_eq!(h, (516.0 * 300.0 / 276.0f64).round() as u32);
    assert_eq!(frame_count(&png), None);
    let (status, _, get) = call(
        "GET",
        "/v1/render.png?position=4%2F4%2F4%2F4%2F4%2F4%2FX3%2FR2p%20r%20k1%200%202&last_action=a1-a2&width=300",
        None,
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(get, png, "GET and POST draw the same picture");
    // The board's own width by default.
    let (_, _, own) = call("GET", "/v1/render.png", None).await;
    assert_eq!(png_size(&own), (276, 516));
    for width in [0, 63, 2049] {
        let (status, ctype, body) =
            call("GET", &format!("/v1/render.png?width={width}"), None).await;
        assert_eq!((status, ctype.as_str()), (400, "application/problem+json"));
        let p = problem(&body);
        assert_eq!(
            (p["type"].as_str(), p["field"].as_str()),
            (Some("/problems/bad-parameter"), Some("width")),
            "{p}"
        );
    }
}

#[actix_web::test]
async fn every_game_is_drawn_as_png() {
    // Luzhanqi has no start without the players' setups: its flip game's start.
    let flip = records::games::luzhanqi::FLIP_START
        .replace(' ', "%20")
        .replace('/', "%2F");
    for (game, position) in [
        ("banqi", String::new()),
        ("three-kingdoms", String::new()),
        ("luzhanqi", format!("&position={flip}")),
        ("xiangqi-3g", String::new()),
    ] {
        let (status, ctype, png) = call(
            "GET",
            &format!("/v1/render.png?game={game}&width=200{position}"),
            None,
        )
        .await;
        assert_eq!((status, ctype.as_str()), (200, "image/png"), "{game}");
        assert_eq!(png_size(&png).0, 200, "{game}");
    }
}

#[actix_web::test]
async fn a_seat_s_masked_view_is_drawn_as_png() {
    // A dark Luzhanqi seat's position: the enemy's pieces are `?`.
    let view = "?????/?????/?1?1?/??1??/?1?1?/?????/lfldf/jtbtd/c1e1j/mp1pt/e1g1j/lcrbp -- r 0 1";
    let (status, ctype, png) = call(
        "POST",
        "/v1/render.png",
        Some(json!({"game": "luzhanqi", "position": view, "width": 240})),
    )
    .await;
    assert_eq!(
        (status, ctype.as_str()),
        (200, "image/png"),
        "{}",
        String::from_utf8_lossy(&png)
    );
    assert_eq!(png_size(&png).0, 240);
}

#[actix_web::test]
async fn an_svg_is_scaled_to_the_width_asked() {
    let (status, _, svg) = call("GET", "/v1/render.svg?width=138", None).await;
    assert_eq!(status, 200);
    let svg = String::from_utf8(svg).unwrap();
    assert!(
        svg.contains(r#"viewBox="0 0 276 516" width="138" height="258""#),
        "{svg}"
    );
}

#[actix_web::test]
async fn a_record_is_animated_one_frame_per_ply() {
    let record = json!({"preset": "tcga", "actions": ["b8(p)", "b6(R)", "c8(M)"]});
    let (status, ctype, png) = call(
        "POST",
        "/v1/replay.png",
        Some(json!({"record": record, "width": 160, "frame_ms": 500})),
    )
    .await;
    assert_eq!(
        (status, ctype.as_str()),
        (200, "image/png"),
        "{}",
        String::from_utf8_lossy(&png)
    );
    assert_eq!(png_size(&png).0, 160);
    assert_eq!(frame_count(&png), Some(4), "the start and three plies");
    // An illegal ply: 422 naming it, as /v1/validate does.
    let bad = json!({"preset": "tcga", "actions": ["b8(p)", "b8-b7"]});
    let (status, _, body) = call("POST", "/v1/replay.png", Some(json!({"record": bad}))).await;
    let p = problem(&body);
    assert_eq!(
        (status, p["type"].as_str(), p["ply"].as_u64()),
        (422, Some("/problems/invalid-record"), Some(2)),
        "{p}"
    );
    for (field, value) in [("width", 10), ("frame_ms", 20)] {
        let (status, _, body) = call(
            "POST",
            "/v1/replay.png",
            Some(json!({"record": record, field: value})),
        )
        .await;
        let p = problem(&body);
        assert_eq!((status, p["field"].as_str()), (400, Some(field)), "{p}");
    }
}

/// A cheating client with a seat token: the picture and replay endpoints are stateless, they
/// never open the referee's ledger. A token sent to them is refused as an unknown field, and
/// the seat's own record of a dark game (no layout: a player is never given one) replays to
/// nothing it did not send.
#[actix_web::test]
async fn the_stateless_pictures_know_nothing_of_the_ledger() {
    let red = "RTETR/C1E1J/DP1PT/E1G1J/LCMBP/LFLDB";
    let black = "lfldb/lcmbp/e1g1j/dp1pt/c1e1j/rtetr";
    let (status, _, body) = call(
        "POST",
        "/v1/deal",
        Some(json!({"game": "luzhanqi", "preset": "dark", "layout": {"red": red, "black": black}})),
    )
    .await;
    assert_eq!(status, 200);
    let deal = problem(&body);
    let seat = deal["seat_tokens"]["player2"].clone();
    let record = deal["record"].clone();
    assert!(record["layout"].is_null());
    for (path, request) in [
        (
            "/v1/replay.png",
            json!({"record": record, "token": seat, "game_id": deal["game_id"]}),
        ),
        (
            "/v1/render.png",
            json!({"game": "luzhanqi", "token": seat, "game_id": deal["game_id"]}),
        ),
    ] {
        let (status, _, body) = call("POST", path, Some(request)).await;
        let p = problem(&body);
        assert_eq!(
            (status, p["type"].as_str()),
            (400, Some("/problems/malformed-json")),
            "{path}: {p}"
        );
    }
    // The seat's record as it holds it: without the setups there is no start to replay from,
    // and the answer names no piece of either setup.
    let (status, _, body) = call("POST", "/v1/replay", Some(record)).await;
    let text = String::from_utf8(body).unwrap();
    assert_eq!(status, 200, "{text}");
    let steps: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(steps["positions"], json!([]), "{text}");
    assert_eq!(steps["verdict"]["valid"], false, "{text}");
    assert!(!text.contains(red) && !text.contains(black), "{text}");
}

/// The pages' icon is the service's own (no page's first request fails on `/favicon.ico`).
#[actix_web::test]
async fn the_icon_is_served() {
    let (status, ctype, svg) = call("GET", "/favicon.svg", None).await;
    assert_eq!((status, ctype.as_str()), (200, "image/svg+xml"));
    let svg = String::from_utf8(svg).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("<path id="),
        "{svg}"
    );
    let (status, _, _) = call("GET", "/favicon.ico", None).await;
    assert_eq!(status, 308);
}
