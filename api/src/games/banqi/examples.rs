//! The request and response examples of the OpenAPI document's operations: Banqi's, the
//! default game's (`crate::examples`). They are real: the tests send every request example to
//! the service and compare the answer with the response example.

use serde_json::{Value, json};

/// The layout `POST /v1/deal` gives for seed 42.
pub const LAYOUT_42: &str = "PppcPmGrpRpCrmGpgMPRNPKnCcgnPNkM";

/// The seed's scoring example: red (A, player 1) has captured 13 points, black (B) 24.
pub const SEED_EXAMPLE: &str = "kgmr/rnnc/cppp/4/4/GGRR/NNC1/4 r - 0 10";

pub fn validate_request() -> Value {
    json!({"preset": "tcga", "players": ["chan", "ai"], "actions": ["b8(p)", "b6(R)", "c8(M)", "b5(p)"]})
}

pub fn replay_response() -> Value {
    parse(
        r#"{"summary":"Going on after 4 plies. black (chan) took nothing; red (ai) took nothing.","positions": ["XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - K1G2M2R2N2C2P5k1g2m2r2n2c2p5 0 0", "XpXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX r K1G2M2R2N2C2P5k1g2m2r2n2c2p4 0 1", "XpXX/XXXX/XRXX/XXXX/XXXX/XXXX/XXXX/XXXX b K1G2M2R1N2C2P5k1g2m2r2n2c2p4 0 2", "XpMX/XXXX/XRXX/XXXX/XXXX/XXXX/XXXX/XXXX r K1G2M1R1N2C2P5k1g2m2r2n2c2p4 0 3", "XpMX/XXXX/XRXX/XpXX/XXXX/XXXX/XXXX/XXXX b K1G2M1R1N2C2P5k1g2m2r2n2c2p3 0 4"],
            "actions": ["b8(p)", "b6(R)", "c8(M)", "b5(p)"], "movers": ["player1", "player2", "player1", "player2"],
            "public_actions": ["b8(p)", "b6(R)", "c8(M)", "b5(p)"],
            "taken": [{"seat": "player1", "letters": "", "glyphs": [], "names": []}, {"seat": "player2", "letters": "", "glyphs": [], "names": []}],
            "verdict": {"valid": true, "plies": 4, "derived": {"status": "ongoing"}, "final_position": "XpMX/XXXX/XRXX/XpXX/XXXX/XXXX/XXXX/XXXX b K1G2M1R1N2C2P5k1g2m2r2n2c2p3 0 4"}}"#,
    )
}

pub fn tcga_text() -> Value {
    Value::String(
        "INITIAL\n* 10:49am Jan 10, 2022\n* chan vs ai\n* 1 2 2 2 2 2 5 1 2 2 2 2 2 5\n* X X X X\n* X X X X\n* X X X X\n* X X X X\n* X X X X\n* X X X X\n* X X X X\n* X X X X\n* first 1\n* time 900\n* 1. b8(p) b6(R)\n* 2. c8(M) b5(p)\n".into(),
    )
}

pub fn validate_response() -> Value {
    parse(
        r#"{"valid": true, "plies": 4, "derived": {"status": "ongoing"}, "final_position": "XpMX/XXXX/XRXX/XpXX/XXXX/XXXX/XXXX/XXXX b K1G2M1R1N2C2P5k1g2m2r2n2c2p3 0 4"}"#,
    )
}

pub fn malformed_json() -> Value {
    parse(
        r#"{"type":"/problems/malformed-json","title":"Malformed JSON","status":400,"detail":"EOF while parsing a value at line 1 column 21","code":"malformed_json","line":1,"column":21}"#,
    )
}

pub fn score_request() -> Value {
    json!({"record": {"preset": "taiwan", "players": ["A", "B"], "start": SEED_EXAMPLE, "actions": [],
                      "result": {"outcome": "player2", "reason": "timeout"}},
           "stake": 100, "bonus": 5, "draws_carried": 1})
}

pub fn score_response() -> Value {
    parse(
        r#"{"summary":"Black (B) won by time after 0 plies. red (A) took black advisor, black elephant, 2 black soldiers; black (B) took red general, 2 red elephants, red cannon, 5 red soldiers. A pays B (100 + 11 × 5) × 1 + 100 = 255 coins.","score": {"plies": 0, "result": {"outcome": "player2", "reason": "timeout"}, "players": [{"player": "player1", "name": "A", "color": "red", "points": 13, "captured": "gmpp", "soldier_took_general": 0}, {"player": "player2", "name": "B", "color": "black", "points": 24, "captured": "KMMCPPPPP", "soldier_took_general": 0}], "doubled": false, "material": {"red": {"color": "red", "revealed": "GGRRNNC", "covered": "", "captured": "KMMCPPPPP", "alive": 7, "points_alive": 26, "points_lost": 24}, "black": {"color": "black", "revealed": "kgmrrnnccppp", "covered": "", "captured": "gmpp", "alive": 12, "points_alive": 37, "points_lost": 13}, "points_at_stake": 63}}, "settlement": {"payer": "player1", "payee": "player2", "amount": 255, "stake": 100, "margin": 11, "bonus": 55, "double": 1, "draws_carried": 1, "carry": 100, "formula": "(100 + 11 × 5) × 1 + 100 = 255"}}"#,
    )
}

pub fn invalid_record() -> Value {
    parse(
        r#"{"type":"/problems/invalid-record","title":"Invalid record","status":422,"detail":"ply 2 \"b8(g)\": not_covered: b8 holds G, already revealed","code":"not_covered","ply":2,"action":"b8(g)","position":"XGXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX b K1G1M2R2N2C2P5k1g2m2r2n2c2p5 0 1"}"#,
    )
}

pub fn position_score_request() -> Value {
    json!({"position": SEED_EXAMPLE})
}

pub fn position_score_response() -> Value {
    parse(
        r#"{"points": {"player1": 13, "player2": 24}, "material": {"red": {"color": "red", "revealed": "GGRRNNC", "covered": "", "captured": "KMMCPPPPP", "alive": 7, "points_alive": 26, "points_lost": 24}, "black": {"color": "black", "revealed": "kgmrrnnccppp", "covered": "", "captured": "gmpp", "alive": 12, "points_alive": 37, "points_lost": 13}, "points_at_stake": 63}}"#,
    )
}

pub fn malformed_position() -> Value {
    parse(
        r#"{"type":"/problems/malformed-position","title":"Malformed position","status":400,"detail":"a position string has 5 fields separated by single spaces (board, to-move, covered, no-progress, ply); found 2","code":"malformed_position","field":"position"}"#,
    )
}

pub fn actions_request() -> Value {
    json!({"preset": "tcga", "position": "k3/4/4/4/4/4/1p2/P2X r C1 5 30"})
}

pub fn actions_response() -> Value {
    parse(
        r#"{"position": "k3/4/4/4/4/4/1p2/P2X r C1 5 30", "to_move": "player1", "actions": ["d1", "a1-b1", "a1-a2"], "count": 3}"#,
    )
}

pub fn unknown_preset() -> Value {
    parse(
        r#"{"type":"/problems/unknown-preset","title":"Unknown preset","status":422,"detail":"unknown preset \"blitz\"; known presets: tcga, olympiad, taiwan, taiwan-full, mainland, gametower, gametower-chain, gametower-dark-chain","code":"unknown_preset","field":"preset"}"#,
    )
}

pub fn play_request() -> Value {
    json!({"preset": "tcga", "layout": LAYOUT_42, "action": "b6"})
}

pub fn play_response() -> Value {
    parse(
        r#"{"action": "b6(P)", "effect": "flip", "position": "XXXX/XXXX/XPXX/XXXX/XXXX/XXXX/XXXX/XXXX b K1G2M2R2N2C2P4k1g2m2r2n2c2p5 0 1"}"#,
    )
}

pub fn malformed_action() -> Value {
    parse(
        r#"{"type":"/problems/malformed-action","title":"Malformed action","status":400,"detail":"malformed action \"b9\": squares are a1 … d8","code":"malformed_action","action":"b9","field":"action"}"#,
    )
}

pub fn illegal_action() -> Value {
    parse(
        r#"{"type":"/problems/illegal-action","title":"Illegal action","status":422,"detail":"b6-b7: a soldier cannot capture a chariot","code":"rank_forbids_capture","action":"b6-b7","position":"4/1r2/1P2/4/4/4/4/4 r - 3 40"}"#,
    )
}

pub fn deal_request() -> Value {
    json!({"seed": 42, "preset": "tcga", "players": ["Alice", "Bob"], "clock": {"base_ms": 300000, "increment_ms": 2000}})
}

pub fn deal_response() -> Value {
    parse(
        r#"{"seed": 42, "game_id": "9f2c4e1a7b3d5f60a1b2c3d4e5f60718", "token": "v1.ephemeral.csN4G1tWF_BIVh3cKisSE1MaOQuNW3vFAxF2sHNxArqSKRVpI8EUdQkOVSi2ZU9MP8HXTNiE12TBXBZCStY42fHoJlI5q2kEuFc", "seat_tokens": {"player1": "v1.ephemeral.kQ3fN0y8bX2cR7uE1tW9mZ5aL4sD6hJ0pV8gY2nC3xB7qK1rT5wE9uI4oP6aS2dF8gH3jK7lZ1xC5vB9nM4qW2eR6tY0uI3oP", "player2": "v1.ephemeral.kQ3fN0y8bX2cR7uE1tW9mZ5aL4sD6hJ0pV8gY2nC3xB7qK1rT5wE9uI4oP6aS2dF8gH3jK7lZ1xC5vB9nM4qW2eR6tY0uI3oP"}, "position": "XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - K1G2M2R2N2C2P5k1g2m2r2n2c2p5 0 0", "record": {"game": "banqi", "preset": "tcga", "players": ["Alice", "Bob"], "actions": [], "metadata": {"seed": 42, "game_id": "9f2c4e1a7b3d5f60a1b2c3d4e5f60718"}}}"#,
    )
}

pub fn view_request() -> Value {
    json!({"player": "player2", "record": {"preset": "tcga", "layout": LAYOUT_42, "actions": ["b6", "c6"]}})
}

pub fn view_response() -> Value {
    parse(
        r#"{"player": "player2", "color": "black", "to_move": "player1", "your_turn": false, "position": "XXXX/XXXX/XPKX/XXXX/XXXX/XXXX/XXXX/XXXX r G2M2R2N2C2P4k1g2m2r2n2c2p5 0 2", "board": ["XXXX", "XXXX", "XPKX", "XXXX", "XXXX", "XXXX", "XXXX", "XXXX"], "covered": "GGMMRRNNCCPPPPkggmmrrnnccppppp", "actions": []}"#,
    )
}

pub fn render_request() -> Value {
    json!({"position": "k3/4/4/4/4/4/1p2/P2X r C1 5 30", "last_action": "a2-a1"})
}

pub fn render_png_request() -> Value {
    json!({"position": "k3/4/4/4/4/4/1p2/P2X r C1 5 30", "last_action": "a2-a1", "width": 480})
}

/// A PNG's first bytes (its signature), then the picture.
pub fn png_response() -> Value {
    Value::String("\u{89}PNG\r\n\u{1a}\n…".into())
}

/// A short game to animate (three plies: four frames).
pub fn replay_png_request() -> Value {
    json!({"record": {"preset": "tcga", "players": ["chan", "ai"], "actions": ["b8(p)", "b6(R)", "c8(M)"]},
           "width": 240, "frame_ms": 800})
}

/// The picture starts like this (the whole SVG is a few kilobytes).
const RENDER_PREFIX: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 276 516" width="276" height="516" font-family="'Noto Serif CJK TC','Noto Serif TC','Songti TC','SimSun',serif"><title>k3/4/4/4/4/4/1p2/P2X r C1 5 30</title><rect x="0" y="0" width="276" height="516" fill="#f3e3c0"/>"##;

pub fn render_response() -> Value {
    Value::String(format!("{RENDER_PREFIX}…"))
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).expect("a JSON example")
}

/// The requests that get the problem examples: (name, path, JSON body). The tests send them.
pub const PROBLEM_REQUESTS: &[(&str, &str, &str)] = &[
    ("malformed_json", "/v1/validate", r#"{"actions": ["b8(p)","#),
    (
        "invalid_record",
        "/v1/score",
        r#"{"record": {"actions": ["b8(G)", "b8(g)"]}}"#,
    ),
    (
        "malformed_position",
        "/v1/score/position",
        r#"{"position": "XXXX/XXXX r"}"#,
    ),
    ("unknown_preset", "/v1/actions", r#"{"preset": "blitz"}"#),
    ("malformed_action", "/v1/play", r#"{"action": "b9"}"#),
    (
        "illegal_action",
        "/v1/play",
        r#"{"position": "4/1r2/1P2/4/4/4/4/4 r - 3 40", "action": "b6-b7"}"#,
    ),
];

/// The problem example by name.
pub fn problem(name: &str) -> Value {
    match name {
        "malformed_json" => malformed_json(),
        "invalid_record" => invalid_record(),
        "malformed_position" => malformed_position(),
        "unknown_preset" => unknown_preset(),
        "malformed_action" => malformed_action(),
        "illegal_action" => illegal_action(),
        _ => Value::Null,
    }
}

pub fn store_request() -> Value {
    validate_request()
}

pub fn store_ndjson() -> Value {
    Value::String(format!(
        "{}\n{}\n",
        validate_request(),
        json!({"preset": "tcga", "actions": ["b8(G)", "b8(g)"]})
    ))
}

pub fn store_response() -> Value {
    parse(
        r#"{"results":[{"line":1,"status":"stored","id":1,"hash":"35c9c36202028d02cc96e9c3162e48850d444f80600c4c6293713e191c70fbfc"}],"summary":{"stored":1,"duplicates":0,"invalid":0,"unreadable":0}}"#,
    )
}

pub fn unauthorized() -> Value {
    parse(
        r#"{"type":"/problems/unauthorized","title":"Unauthorized","status":401,"detail":"storing records needs `Authorization: Bearer <token>`","code":"unauthorized"}"#,
    )
}

pub fn stored_game() -> Value {
    parse(
        r#"{"id":1,"content_hash":"35c9c36202028d02cc96e9c3162e48850d444f80600c4c6293713e191c70fbfc","game":"banqi","preset":"tcga","seats":[{"seat":"player1","name":"chan","named":true,"side":"black","points":0},{"seat":"player2","name":"ai","named":true,"side":"red","points":0}],"player1":"chan","player2":"ai","plies":4,"result":"ongoing","reason":null,"derived_outcome":null,"derived_reason":null,"first_flips":"b8(p) b6(R)","doubled":false,"points1":0,"points2":0,"played_on":null,"source":"http","imported_at":"2026-11-22T06:59:58Z","record":{"game":"banqi","preset":"tcga","players":["chan","ai"],"actions":["b8(p)","b6(R)","c8(M)","b5(p)"]}}"#,
    )
}

pub fn game_list() -> Value {
    parse(
        r#"{"games":[{"id":1,"content_hash":"35c9c36202028d02cc96e9c3162e48850d444f80600c4c6293713e191c70fbfc","game":"banqi","preset":"tcga","seats":[{"seat":"player1","name":"chan","named":true,"side":"black","points":0},{"seat":"player2","name":"ai","named":true,"side":"red","points":0}],"player1":"chan","player2":"ai","plies":4,"result":"ongoing","reason":null,"derived_outcome":null,"derived_reason":null,"first_flips":"b8(p) b6(R)","doubled":false,"points1":0,"points2":0,"played_on":null,"source":"http","imported_at":"2026-11-22T06:59:58Z"}]}"#,
    )
}

pub fn review_request() -> Value {
    json!({"record": {"preset": "tcga", "players": ["chan", "ai"], "actions": ["b8(p)", "b6(R)", "c8(M)", "b5(p)"]}, "limits": {"nodes": 2000}})
}

pub fn review_response() -> Value {
    parse(
        r#"{"plies":[{"ply":0,"to_move":"player1","score":{"centipawns":0,"win":0.27,"draw":0.46,"loss":0.27},"player1":{"centipawns":0,"win":0.27,"draw":0.46,"loss":0.27},"best":"a1","depth":1,"nodes":2000},{"ply":1,"action":"b8(p)","to_move":"player2","score":{"centipawns":0,"win":0.27,"draw":0.46,"loss":0.27},"player1":{"centipawns":0,"win":0.27,"draw":0.46,"loss":0.27},"best":"b6","lost":0,"luck":0,"said":"as good as the engine's choice","depth":1,"nodes":2000},{"ply":2,"action":"b6(R)","to_move":"player1","score":{"centipawns":-4,"win":0.268,"draw":0.457,"loss":0.275},"player1":{"centipawns":-4,"win":0.268,"draw":0.457,"loss":0.275},"best":"b4","lost":0,"luck":4,"said":"the engine's choice","depth":1,"nodes":2000},{"ply":3,"action":"c8(M)","to_move":"player2","score":{"centipawns":43,"win":0.324,"draw":0.426,"loss":0.25},"player1":{"centipawns":-43,"win":0.25,"draw":0.426,"loss":0.324},"best":"c8-b8","lost":14,"luck":-25,"said":"good","depth":1,"nodes":2000},{"ply":4,"action":"b5(p)","to_move":"player1","score":{"centipawns":-55,"win":0.244,"draw":0.417,"loss":0.339},"player1":{"centipawns":-55,"win":0.244,"draw":0.417,"loss":0.339},"best":"d6","lost":39,"luck":51,"said":"good","depth":1,"nodes":2000}],"limits":{"depth":64,"nodes":2000,"millis":2000},"capped":false}"#,
    )
}

pub fn analyze_request() -> Value {
    json!({"preset": "tcga", "position": "k3/1P2/P3/4/4/4/4/3K r - 0 10", "limits": {"depth": 6, "millis": 200}, "top": 3})
}

pub fn analyze_response() -> Value {
    parse(
        r#"{"best": "a6-a7", "score": {"centipawns": 99997, "forced_in": 3, "win": 1.0, "draw": 0.0, "loss": 0.0}, "line": ["a6-a7", "a8-b8"], "actions": [{"action": "a6-a7", "score": {"centipawns": 99997, "forced_in": 3, "win": 1.0, "draw": 0.0, "loss": 0.0}}, {"action": "b7-b8", "score": {"centipawns": 99997, "forced_in": 3, "win": 1.0, "draw": 0.0, "loss": 0.0}}, {"action": "d1-c1", "score": {"centipawns": 99997, "forced_in": 3, "win": 1.0, "draw": 0.0, "loss": 0.0}}], "depth": 2, "nodes": 71, "millis": 0, "stopped": false, "limits": {"depth": 6, "nodes": 20000000, "millis": 200}, "capped": false}"#,
    )
}
