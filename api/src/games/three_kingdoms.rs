//! Three Kingdoms' examples in the OpenAPI document: each operation that takes a game shows
//! one for every game, named by the game. Real like the others: the tests send each request
//! and compare the answer.

use serde_json::{Value, json};

/// Seat 1 red (俥 e3, 相 e2, 傌 i1), seat 2 generals (將 a5, 兵 c3, a covered 卒 on a1),
/// seat 3 black (包 g3, 士 i5).
pub const PIECES: &str = "k7g/9/2P1R1c2/4M4/X7N rgb 1 p1 -/-/- --- 0 10";

/// A points game one capture from its end.
pub const POINTS_END: &str = "9/9/9/9/R7c rgb 1 - k1/R1r1/- -3- 0 50";

/// A dealt layout: the piece under each start point (a1 b1 c1 d1 f1 … i5).
pub const LAYOUT: &str = "RPPCpgPrGMCPpnnpMPKrkgpGNcRmmcNp";

fn parse(text: &str) -> Value {
    serde_json::from_str(text).expect("an example is JSON")
}

/// The examples, by path: (request, response).
pub fn by_path() -> Vec<(&'static str, Value, Value)> {
    vec![
        (
            "/v1/validate",
            json!({"game": "three-kingdoms", "players": ["Wei", "Shu", "Wu"], "actions": ["b2(M)", "d4(r)", "a4(M)", "i4(G)", "c2(C)", "f1(p)", "g5(c)", "i1(r)", "g4(g)", "f5(m)", "g4-f3"]}),
            parse(r#"{"valid":true,"plies":11,"derived":{"status":"ongoing"},"final_position":"XXXX1mcXX/MXXr1X1XG/5g3/XMCX1XXXX/XXXX1pXXr rbg 3 K1G1R2N2C1P5k1g1m1n2c1p4 -/-/- --- 1 11"}"#),
        ),
        (
            "/v1/score",
            json!({"record": {"game": "three-kingdoms", "preset": "three-kingdoms-points", "players": ["Wei", "Shu", "Wu"], "start": POINTS_END, "actions": ["a1-i1"]}}),
            parse(r#"{"summary":"1st: generals (Shu), 2nd: red (Wei), 3rd: black (Wu), by points after 1 ply. red (Wei) took black general, black cannon; generals (Shu) took red chariot, black chariot; black (Wu) took nothing.","preset":"three-kingdoms-points","result":{"outcome":"player2>player1>player3","reason":"points"},"seats":[{"seat":"player1","faction":"red","captured":"kc","captured_points":90,"lost_points":50,"final_points":360,"place":2},{"seat":"player2","faction":"generals","captured":"Rr","captured_points":100,"lost_points":50,"final_points":370,"place":1},{"seat":"player3","faction":"black","captured":"","captured_points":0,"lost_points":90,"final_points":230,"place":3}]}"#),
        ),
        (
            "/v1/score/position",
            json!({"game": "three-kingdoms", "position": POINTS_END}),
            parse(r#"{"seats":[{"seat":"player1","faction":"red","captured":"k","captured_points":50,"lost_points":50,"final_points":320},{"seat":"player2","faction":"generals","captured":"Rr","captured_points":100,"lost_points":50,"final_points":370,"place":3},{"seat":"player3","faction":"black","captured":"","captured_points":0,"lost_points":50,"final_points":270}]}"#),
        ),
        (
            "/v1/actions",
            json!({"game": "three-kingdoms", "position": PIECES}),
            parse(r#"{"position":"k7g/9/2P1R1c2/4M4/X7N rgb 1 p1 -/-/- --- 0 10","to_move":"player1","actions":["a1","i1-g2","i1-h3","e2-c4","e2-g4","e3-c3","e3-d3","e3-f3","e3-g3","e3-e4","e3-e5"],"count":11}"#),
        ),
        (
            "/v1/play",
            json!({"game": "three-kingdoms", "position": PIECES, "action": "e3-g3"}),
            parse(r#"{"action":"e3-g3","effect":"capture","position":"k7g/9/2P3R2/4M4/X7N rgb 2 p1 c1/-/- --- 0 11"}"#),
        ),
        (
            "/v1/deal",
            json!({"game": "three-kingdoms", "preset": "three-kingdoms-recall", "seed": 42, "players": ["Wei", "Shu", "Wu"]}),
            parse(r#"{"seed":42,"game_id":"014bd90d28df00754814660066a5b0bf","token":"v1.ephemeral.ZX3Okyu37iudkxGWTM8BwY9EOb7CA9jBjjNanlmS7VA6wk-eWSao5dQs9uuhY5leD-3DEpBrt38xoabkreL7EtqIOAzdrOd-9DI","seat_tokens":{"player1":"v1.ephemeral.kQ3fN0y8bX2cR7uE1tW9mZ5aL4sD6hJ0pV8gY2nC3xB7qK1rT5wE9uI4oP6aS2dF8gH3jK7lZ1xC5vB9nM4qW2eR6tY0uI3oP","player2":"v1.ephemeral.kQ3fN0y8bX2cR7uE1tW9mZ5aL4sD6hJ0pV8gY2nC3xB7qK1rT5wE9uI4oP6aS2dF8gH3jK7lZ1xC5vB9nM4qW2eR6tY0uI3oP","player3":"v1.ephemeral.kQ3fN0y8bX2cR7uE1tW9mZ5aL4sD6hJ0pV8gY2nC3xB7qK1rT5wE9uI4oP6aS2dF8gH3jK7lZ1xC5vB9nM4qW2eR6tY0uI3oP"},"position":"XXXX1XXXX/XXXX1XXXX/9/XXXX1XXXX/XXXX1XXXX --- 1 K1G2M2R2N2C2P5k1g2m2r2n2c2p5 -/-/- --- 0 0","record":{"game":"three-kingdoms","preset":"three-kingdoms-recall","players":["Wei","Shu","Wu"],"actions":[],"metadata":{"game_id":"014bd90d28df00754814660066a5b0bf","seed":42}}}"#),
        ),
        (
            "/v1/view",
            json!({"game": "three-kingdoms", "player": "player3", "record": {"game": "three-kingdoms", "layout": LAYOUT, "actions": ["b2", "d4", "a4"]}}),
            parse(r#"{"player":"player3","faction":"generals","to_move":"player1","your_turn":false,"position":"XXXX1XXXX/MXXr1XXXX/9/XMXX1XXXX/XXXX1XXXX rbg 1 K1G2R2N2C2P5k1g2m2r1n2c2p5 -/-/- --- 0 3","board":["XXXX-XXXX","MXXr-XXXX","---------","XMXX-XXXX","XXXX-XXXX"],"covered":"KGGRRNNCCPPPPPkggmmrnnccppppp","actions":[]}"#),
        ),
        (
            "/v1/render",
            json!({"game": "three-kingdoms", "position": PIECES, "last_action": "e3-g3"}),
            Value::String("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 618 396\" width=\"618\" height=\"396\" font-family=\"'Noto Serif CJK TC','Noto Serif TC','Songti TC','SimSun',serif\"><title>k7g/9/2P1R1c2/4M4/X7N rgb 1 p1 -/-/- --- 0 10</title><rect x=\"0\" y=\"0\" width=\"618\" height=\"396\" fill=\"#f3e3c0\"/>…".to_owned()),
        ),
    ]
}

/// What the service adds to the game: its examples.
pub struct Edge;

impl super::Edge for Edge {
    fn examples() -> Vec<(&'static str, Value, Value)> {
        by_path()
    }
}
