//! Luzhanqi's examples in the OpenAPI document, named `luzhanqi` beside the other games'.
//! Real like the others: the tests send each request and compare the answer.

use serde_json::{Value, json};

/// Red's setup, ranks 6 down to 1 (flag on b1, mines on a1 c1 a2, bombs on e1 d2).
pub const RED: &str = "RTETR/C1E1J/DP1PT/E1G1J/LCMBP/LFLDB";
/// Black's, its mirror: ranks 12 down to 7.
pub const BLACK: &str = "lfldb/lcmbp/e1g1j/dp1pt/c1e1j/rtetr";

/// Red's engineer on c6 faces black's flag on c7 (an open game).
pub const FLAG_IN_REACH: &str = "5/5/5/5/5/2f2/2E2/5/5/5/5/1F2p -- r - - 4 40";

fn parse(text: &str) -> Value {
    serde_json::from_str(text).expect("an example is JSON")
}

fn dark_record(actions: &[&str]) -> Value {
    json!({"game": "luzhanqi", "preset": "dark", "players": ["Lin", "Zhao"],
        "layout": {"red": RED, "black": BLACK}, "actions": actions})
}

/// The examples, by path: (request, response).
pub fn by_path() -> Vec<(&'static str, Value, Value)> {
    vec![
        (
            "/v1/validate",
            dark_record(&["a6-a7", "e7-e6", "c6-c7", "c8-c7"]),
            parse(VALIDATE),
        ),
        (
            "/v1/score",
            json!({"record": {"game": "luzhanqi", "preset": "open", "players": ["Lin", "Zhao"], "start": FLAG_IN_REACH, "actions": ["c6-c7"]}}),
            parse(SCORE),
        ),
        (
            "/v1/score/position",
            json!({"game": "luzhanqi", "position": FLAG_IN_REACH}),
            parse(POSITION_SCORE),
        ),
        (
            "/v1/actions",
            json!({"game": "luzhanqi", "preset": "open", "position": FLAG_IN_REACH}),
            parse(ACTIONS),
        ),
        (
            "/v1/play",
            json!({"game": "luzhanqi", "preset": "open", "position": FLAG_IN_REACH, "action": "c6-c7"}),
            parse(PLAY),
        ),
        (
            "/v1/deal",
            json!({"game": "luzhanqi", "preset": "dark", "seed": 42, "players": ["Lin", "Zhao"], "layout": {"red": RED, "black": BLACK}}),
            parse(DEAL),
        ),
        (
            "/v1/view",
            json!({"game": "luzhanqi", "player": "player1", "record": dark_record(&["a6-a7", "e7-e6", "c6-c7", "c8-c7"])}),
            parse(VIEW),
        ),
        (
            "/v1/render",
            json!({"game": "luzhanqi", "position": FLAG_IN_REACH, "last_action": "c6-c7"}),
            Value::String(RENDER.to_owned()),
        ),
    ]
}

const VALIDATE: &str = r#"{"valid":true,"plies":4,"derived":{"status":"ongoing"},"final_position":"lfldb/lcmbp/e1g1j/dp1pt/c3j/1tet1/1T1T1/C1E1J/DP1PT/E1G1J/LCMBP/LFLDB -- r - - 1 4"}"#;
const SCORE: &str = r#"{"summary":"Red (Lin) won by capturing the flag after 1 ply. red (Lin) took black flag; black (Zhao) took nothing.","preset":"open","mode":"open","result":{"outcome":"player1","reason":"flag_captured"},"flag_taken_by":"E","seats":[{"seat":"player1","side":"red","removed":"f","remaining":2},{"seat":"player2","side":"black","removed":"","remaining":1}]}"#;
const POSITION_SCORE: &str = r#"{"seats":[{"seat":"player1","side":"red","removed":"","remaining":2},{"seat":"player2","side":"black","removed":"","remaining":2}]}"#;
const ACTIONS: &str = r#"{"position":"5/5/5/5/5/2f2/2E2/5/5/5/5/1F2p -- r - - 4 40","to_move":"player1","actions":["c6-a2","c6-b2","c6-c2","c6-d2","c6-e2","c6-a3","c6-e3","c6-a4","c6-e4","c6-a5","c6-b5","c6-c5","c6-d5","c6-e5","c6-a6","c6-b6","c6-d6","c6-e6","c6-a7","c6-b7","c6-c7","c6-d7","c6-e7","c6-a8","c6-e8","c6-a9","c6-e9","c6-a10","c6-e10","c6-a11","c6-b11","c6-c11","c6-d11","c6-e11"],"count":34}"#;
const PLAY: &str = r#"{"action":"c6-c7","effect":"attack_won","position":"5/5/5/5/5/2E2/5/5/5/5/5/1F2p -- b - - 0 41","end":{"outcome":"player1","reason":"flag_captured"}}"#;
const DEAL: &str = r#"{"seed":42,"game_id":"b6e80519d5aa180e6d65f5f96d874bff","token":"v1.ephemeral.yJ8b0UoxHEm2HQEYQOTKjWIpigcJBN9I-H74rNn6abpY4caDqmykC19ZDI73sBAmfh8o44nX22sXWg-FTQHFML1Vf4ESBjisSDqRxcCbLIrsmcTeEsPKKs9NjNEktSvD1SW_F_QZf4OdySCGBaRCRbFNgksUg7mI3F1DkvtrYkr89sA","seat_tokens":{"player1":"v1.ephemeral.kQ3fN0y8bX2cR7uE1tW9mZ5aL4sD6hJ0pV8gY2nC3xB7qK1rT5wE9uI4oP6aS2dF8gH3jK7lZ1xC5vB9nM4qW2eR6tY0uI3oP","player2":"v1.ephemeral.kQ3fN0y8bX2cR7uE1tW9mZ5aL4sD6hJ0pV8gY2nC3xB7qK1rT5wE9uI4oP6aS2dF8gH3jK7lZ1xC5vB9nM4qW2eR6tY0uI3oP"},"record":{"game":"luzhanqi","preset":"dark","players":["Lin","Zhao"],"actions":[],"metadata":{"game_id":"b6e80519d5aa180e6d65f5f96d874bff","seed":42}}}"#;
const VIEW: &str = r#"{"player":"player1","mode":"dark","side":"red","to_move":"player1","your_turn":true,"position":"?????/?????/?1?1?/??1??/?3?/1???1/1T1T1/C1E1J/DP1PT/E1G1J/LCMBP/LFLDB -- r - - 1 4","board":["?????","?????","?-?-?","??-??","?---?","-???-","-T-T-","C-E-J","DP-PT","E-G-J","LCMBP","LFLDB"],"mountains":"--","covered":"-","enemy_touched":["c7"],"announcements":[{"ply":1,"side":"red","action":"a6-a7","result":"both_die"},{"ply":2,"side":"black","action":"e7-e6","result":"both_die"},{"ply":3,"side":"red","action":"c6-c7","result":"both_die"}],"actions":["b2-b3","c2-b3","c2-d3","d2-d3","e2-d3","a3-b3","c3-b3","c3-d3","c3-c4","e3-d3","a4-b3","a4-b5","b4-b3","b4-c4","b4-b5","d4-d3","d4-c4","d4-d5","e4-d3","e4-d5","a5-b5","a5-a6","a5-a7","a5-a8","c5-c4","c5-b5","c5-d5","c5-c6","e5-d5","e5-e6","e5-e7","e5-e8","b6-b5","b6-a6","b6-c6","d6-d5","d6-c6","d6-e6"]}"#;
const RENDER: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 436 716" width="436" height="716" font-family="'Noto Serif CJK TC','Noto Serif TC','Songti TC','SimSun',serif"><title>5/5/5/5/5/2f2/2E2/5/5/5/5/1F2p -- r - - 4 40</title><rect x="0" y="0" width="436" height="716" fill="#e9dcb8"/><line x1="76" y1="652" x2="156" y2="652" stroke="#6b5330" stroke-width="1.5" class="road"/><line x1="76" y1="652" x2="76" y2="600" stroke=…"##;
