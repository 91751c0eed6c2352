//! Third-generation xiangqi's examples in the OpenAPI document, named `xiangqi-3g` beside the
//! other games'. Real like the others: the tests send each request and compare the answer.

use serde_json::{Value, json};

/// Red's backs: chariots 助 (a0) 輔 (i0), horses 妃 骉, elephants 駝 騾, advisors 帥 (d0) 臣
/// (f0), the general 仕, cannons 抛 石, soldiers 車 馬 炮 相 仕 (a3 c3 e3 g3 i3).
pub const RED: &str = "ZQTKAMLXFOSRNCBA";
/// Black's, the mirror.
pub const BLACK: &str = "zqtkamlxfosrncba";

fn parse(text: &str) -> Value {
    serde_json::from_str(text).expect("an example is JSON")
}

fn record(actions: &[&str]) -> Value {
    json!({"game": "xiangqi-3g", "players": ["Zhang", "Li"],
        "layout": {"red": RED, "black": BLACK}, "actions": actions})
}

pub fn by_path() -> Vec<(&'static str, Value, Value)> {
    vec![
        (
            "/v1/validate",
            record(&["h2e2", "h9g7", "e2e6"]),
            parse(VALIDATE),
        ),
        (
            "/v1/score",
            json!({"record": record(&["h2e2", "h9g7", "e2e6"])}),
            parse(SCORE),
        ),
        (
            "/v1/score/position",
            json!({"game": "xiangqi-3g", "position": "rnbakabnr/9/1c5c1/p1p1C1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR b - - 0 2"}),
            parse(POSITION_SCORE),
        ),
        (
            "/v1/actions",
            json!({"game": "xiangqi-3g", "preset": "xiangqi", "position": "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"}),
            parse(ACTIONS),
        ),
        (
            "/v1/play",
            json!({"game": "xiangqi-3g", "preset": "xiangqi", "position": "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", "action": "h2e2"}),
            parse(PLAY),
        ),
        (
            "/v1/deal",
            json!({"game": "xiangqi-3g", "seed": 42, "players": ["Zhang", "Li"], "layout": {"red": RED, "black": BLACK}}),
            parse(DEAL),
        ),
        (
            "/v1/view",
            json!({"game": "xiangqi-3g", "player": "player2", "record": record(&["h2e2", "h9g7", "e2e6"])}),
            parse(VIEW),
        ),
        (
            "/v1/render",
            json!({"game": "xiangqi-3g", "position": "rnbakabnr/9/1c5c1/p1p1C1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR b - - 0 2", "last_action": "e2e6"}),
            Value::String(RENDER.to_owned()),
        ),
    ]
}

const VALIDATE: &str = r#"{"valid":true,"plies":3,"derived":{"status":"ongoing"},"final_position":"rnbakab1r/9/1c4nc1/p1p1C1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR b zqtkaml1f/9/1o4xs1/r1n1S1b1a/9/9/R1N1C1B1A/1O7/9/ZQTKAMLXF - e6C/g7N -- 0 2"}"#;
const SCORE: &str = r#"{"summary":"Going on after 3 plies. red (Zhang) took black soldier; black (Li) took nothing.","preset":"xiangqi-3g","seats":[{"seat":"player1","side":"red","captured":"p","flips":[]},{"seat":"player2","side":"black","captured":"","flips":[]}]}"#;
const POSITION_SCORE: &str = r#"{"red":"KAABBRRNNCCPPPPP","black":"kaabbrrnnccpppp"}"#;
const ACTIONS: &str = r#"{"position":"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1","to_move":"player1","actions":["a0a1","a0a2","b0a2","b0c2","c0a2","c0e2","d0e1","e0e1","f0e1","g0e2","g0i2","h0g2","h0i2","i0i1","i0i2","b2b1","b2a2","b2c2","b2d2","b2e2","b2f2","b2g2","b2b3","b2b4","b2b5","b2b6","b2b9","h2h1","h2c2","h2d2","h2e2","h2f2","h2g2","h2i2","h2h3","h2h4","h2h5","h2h6","h2h9","a3a4","c3c4","e3e4","g3g4","i3i4"],"count":44}"#;
const PLAY: &str = r#"{"action":"h2e2","effect":"move","position":"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"}"#;
const DEAL: &str = r#"{"seed":42,"game_id":"7cd63d14015bbc8a8630700aff9c99a1","token":"v1.ephemeral.XL9VleC0hTIl4f38ozSPZVfz9BqBOKFdxexnyumSt2U0oHouuWIF-i2QWM5o-AJ5J1gHm6KYcCDao4515HxlYaCwCBl9mKIdoCmTiS-FN_Fa0vDXEZh8s1AjQoTs","seat_tokens":{"player1":"v1.ephemeral.kQ3fN0y8bX2cR7uE1tW9mZ5aL4sD6hJ0pV8gY2nC3xB7qK1rT5wE9uI4oP6aS2dF8gH3jK7lZ1xC5vB9nM4qW2eR6tY0uI3oP","player2":"v1.ephemeral.kQ3fN0y8bX2cR7uE1tW9mZ5aL4sD6hJ0pV8gY2nC3xB7qK1rT5wE9uI4oP6aS2dF8gH3jK7lZ1xC5vB9nM4qW2eR6tY0uI3oP"},"record":{"game":"xiangqi-3g","preset":"xiangqi-3g","players":["Zhang","Li"],"actions":[],"metadata":{"game_id":"7cd63d14015bbc8a8630700aff9c99a1","seed":42}}}"#;
const VIEW: &str = r#"{"player":"player2","side":"black","to_move":"player2","your_turn":true,"in_check":false,"position":"rnbakab1r/9/1c4nc1/p1p1C1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR b zqtkaml1f/9/1o4xs1/r1n1?1b1a/9/9/?1?1?1?1?/1?7/9/????????? - e6C/g7N -- 0 2","board":["rnbakab-r","---------","-c----nc-","p-p-C-p-p","---------","---------","P-P-P-P-P","-C-------","---------","RNBAKABNR"],"backs":["zqtkaml-f","---------","-o----xs-","r-n-?-b-a","---------","---------","?-?-?-?-?","-?-------","---------","?????????"],"actions":["a6a5","c6c5","g6g5","i6i5","b7b0","b7b3","b7b4","b7b5","b7b6","b7a7","b7c7","b7d7","b7f7","b7b8","g7e6","g7h9","h7h1","h7h2","h7h3","h7h4","h7h5","h7h6","h7i7","h7h8","h7h9","a9a7","a9a8","b9a7","b9c7","c9a7","e9e8","g9i7","i9i7","i9i8","i9h9"]}"#;
const RENDER: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 552 606" width="552" height="606" font-family="'Noto Serif CJK TC','Noto Serif TC','Songti TC','SimSun',serif"><title>rnbakabnr/9/1c5c1/p1p1C1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR b - - 0 2</title><rect x="0" y="0" width="552" height="606" fill="#f0d9a8"/><line x1="64" y1="544" x2="512" y2="544" stroke="#5a4020" stroke-width="1.5"/><line x1="64" y1=…"##;

/// What the service adds to the game: its examples.
pub struct Edge;

impl super::Edge for Edge {
    fn examples() -> Vec<(&'static str, Value, Value)> {
        by_path()
    }
}
