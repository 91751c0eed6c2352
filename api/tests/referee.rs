//! The stateless referee: deal → (view, actions, play)* → validate with the sealed token only,
//! and what a player's client can read. One service (one key) for a whole game.

use actix_web::test as actix_test;
use proptest::prelude::*;
use serde_json::{Value, json};

/// The service under test: one key, and the referee's ledger in a SQLite file shared by the
/// tests of this binary (made fresh once per run).
fn settings() -> api::Settings {
    static STORE: std::sync::OnceLock<records::store::Store> = std::sync::OnceLock::new();
    let store = STORE.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-referee");
        let url = records::store::test_databases(&dir, "referee").remove(0);
        records::store::Store::open(&url).unwrap()
    });
    api::Settings {
        keys: records::seal::Keys::parse("test:02YeMbWhpDAqKqT2IIMT60810YyBnWTXE5f/vqPiv8A=")
            .unwrap(),
        store: Some(store.clone()),
        ..api::Settings::default()
    }
}

/// Sends `body` (JSON) to `uri` on `app`, with extra headers; gives status and body.
macro_rules! post {
    ($app:expr, $uri:expr, $body:expr $(, $header:expr)*) => {{
        let req = actix_test::TestRequest::post()
            .uri($uri)
            .insert_header(("content-type", "application/json"))
            $(.insert_header($header))*
            .set_payload($body.to_string())
            .to_request();
        let res = actix_test::call_service(&$app, req).await;
        let status = res.status().as_u16();
        let text = String::from_utf8(actix_test::read_body(res).await.to_vec()).unwrap();
        (status, text)
    }};
}

/// The pieces under the covered squares of `position` in `layout`, as `square(piece)`: what
/// no answer to a player may contain.
fn secrets(game: &str, position: &str, layout: &str) -> Vec<String> {
    use records::games::{banqi, three_kingdoms};
    if game == "three-kingdoms" {
        let pos: three_kingdoms::Position = position.parse().unwrap();
        let layout: three_kingdoms::Layout = layout.parse().unwrap();
        return pos
            .covered()
            .map(|p| format!("{p}({})", layout.piece(p).unwrap()))
            .collect();
    }
    let pos: banqi::Position = position.parse().unwrap();
    let layout: banqi::Layout = layout.parse().unwrap();
    pos.covered()
        .map(|sq| format!("{sq}({})", layout.piece(sq)))
        .collect()
}

fn assert_hidden(game: &str, text: &str, position: &str, layout: &str) {
    assert!(!text.contains(layout), "the layout leaked: {text}");
    for s in secrets(game, position, layout) {
        assert!(!text.contains(&s), "{s} leaked: {text}");
    }
}

/// Plays a whole game through the referee with tokens only; checks every answer for leaks.
async fn referee_game(game: &str, seed: u64, preset: &str, max_plies: usize) {
    let seats: &[&str] = if game == "three-kingdoms" {
        &["player1", "player2", "player3"]
    } else {
        &["player1", "player2"]
    };
    let app = actix_test::init_service(api::app(settings())).await;
    // The trusted server's view, to know what must stay hidden (a client never asks this).
    let (_, truth) = post!(
        app,
        "/v1/deal",
        json!({"game": game, "seed": seed, "preset": preset, "include_layout": true})
    );
    let layout = serde_json::from_str::<Value>(&truth).unwrap()["layout"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, text) = post!(
        app,
        "/v1/deal",
        json!({"game": game, "seed": seed, "preset": preset, "players": seats})
    );
    assert_eq!(status, 200, "{text}");
    let deal: Value = serde_json::from_str(&text).unwrap();
    assert_hidden(game, &text, deal["position"].as_str().unwrap(), &layout);
    let (token, game_id) = (deal["token"].clone(), deal["game_id"].clone());
    let mut position = deal["position"].as_str().unwrap().to_owned();
    let mut sent: Vec<String> = Vec::new();
    let mut rng = seed;
    let mut end = Value::Null;
    while sent.len() < max_plies && end.is_null() {
        // The game so far: the referee replays it, so the draw and chase rules see it all.
        let mut so_far = deal["record"].clone();
        so_far["actions"] = json!(sent);
        let common = json!({"game": game, "record": so_far, "token": token, "game_id": game_id});
        let (status, text) = post!(app, "/v1/actions", common);
        assert_eq!(status, 200, "{text}");
        assert_hidden(game, &text, &position, &layout);
        let actions: Value = serde_json::from_str(&text).unwrap();
        let to_move = actions["to_move"].clone();
        for seat in seats {
            let mut request = common.clone();
            request["player"] = json!(seat);
            let (status, text) = post!(app, "/v1/view", request);
            assert_eq!(status, 200, "{text}");
            assert_hidden(game, &text, &position, &layout);
            let view: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(view["your_turn"], json!(to_move == json!(seat)));
            if to_move == json!(seat) {
                assert_eq!(view["actions"], actions["actions"]);
            }
        }
        let list = actions["actions"].as_array().unwrap();
        assert!(
            !list.is_empty(),
            "a game that has not ended has a legal action"
        );
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let choice = list[(rng >> 33) as usize % list.len()]
            .as_str()
            .unwrap()
            .to_owned();
        let mut request = common.clone();
        request["action"] = json!(choice);
        let (status, text) = post!(app, "/v1/play", request);
        assert_eq!(status, 200, "{choice}: {text}");
        // A retry of the same action at the same ply gets the same answer, and commits
        // nothing more.
        let (status, again) = post!(app, "/v1/play", request);
        assert_eq!((status, &again), (200, &text), "a retry");
        // The token answers as the clear layout does (and says which ply is next).
        let mut clear = request.clone();
        clear.as_object_mut().unwrap().remove("token");
        clear.as_object_mut().unwrap().remove("game_id");
        clear["layout"] = json!(layout);
        let (_, with_layout) = post!(app, "/v1/play", clear);
        let mut answered: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(answered["ply"], json!(sent.len() + 1));
        answered.as_object_mut().unwrap().remove("ply");
        // And the game's life, which a bare position has none of.
        let life = answered.as_object_mut().unwrap().remove("life").unwrap();
        assert!(
            ["playing", "ended"].contains(&life["status"].as_str().unwrap()),
            "{life}"
        );
        assert_eq!(
            answered,
            serde_json::from_str::<Value>(&with_layout).unwrap(),
            "token and layout answer alike"
        );
        let played: Value = serde_json::from_str(&text).unwrap();
        position = played["position"].as_str().unwrap().to_owned();
        assert_hidden(game, &text, &position, &layout);
        end = played.get("end").cloned().unwrap_or(Value::Null);
        sent.push(choice);
    }
    // The client's record: the deal's, with the actions as sent (flips without identity).
    let mut record = deal["record"].clone();
    record["actions"] = json!(sent);
    let header = ("anqi-token", token.as_str().unwrap().to_owned());
    let (status, text) = post!(app, "/v1/validate", record, header);
    assert_eq!(status, 200, "{text}");
    assert_hidden(game, &text, &position, &layout);
    let verdict: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(verdict["valid"], true, "{verdict}");
    assert_eq!(verdict["final_position"], json!(position));
    if !end.is_null() {
        assert_eq!(verdict["derived"]["reason"], end["reason"]);
    }
    // Without the token the same record cannot be validated: its flips name no piece.
    let (_, text) = post!(app, "/v1/validate", record);
    assert!(text.contains("reveal_missing") || sent.is_empty(), "{text}");
}

#[actix_web::test]
async fn a_whole_game_with_tokens_only() {
    referee_game("banqi", 42, "tcga", 400).await;
    referee_game("banqi", 7, "taiwan-full", 400).await;
    referee_game("three-kingdoms", 42, "three-kingdoms-recall", 400).await;
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, .. ProptestConfig::default() })]

    /// No answer a player's client can get holds a hidden identity, for random deals and
    /// random games under every preset.
    #[test]
    fn no_answer_leaks_a_covered_identity(seed in any::<u64>(), preset in 0usize..8, plies in 1usize..120) {
        let banqi = records::games::banqi::PRESETS[preset].name;
        actix_web::rt::System::new().block_on(referee_game("banqi", seed, banqi, plies));
        let three = records::games::three_kingdoms::PRESETS[preset % 4].name;
        actix_web::rt::System::new().block_on(referee_game("three-kingdoms", seed, three, plies));
    }
}

#[actix_web::test]
async fn a_token_opens_only_for_its_own_game() {
    let app = actix_test::init_service(api::app(settings())).await;
    let (_, a) = post!(app, "/v1/deal", json!({"seed": 1}));
    let (_, b) = post!(app, "/v1/deal", json!({"seed": 2}));
    let (a, b): (Value, Value) = (
        serde_json::from_str(&a).unwrap(),
        serde_json::from_str(&b).unwrap(),
    );
    let play = |token: &Value, game_id: &Value| json!({"position": a["position"], "action": "a1", "token": token, "game_id": game_id});
    let (status, text) = post!(app, "/v1/play", play(&a["token"], &a["game_id"]));
    assert_eq!(status, 200, "{text}");
    // The game has moved on: the deal's position is no longer the ledger's.
    let mut actions = play(&a["token"], &a["game_id"]);
    actions.as_object_mut().unwrap().remove("action");
    let (status, text) = post!(app, "/v1/actions", actions);
    assert_eq!(status, 409, "{text}");
    assert!(text.contains(r#""field":"position""#), "{text}");
    // A's token for B's game, B's for A's: refused.
    for request in [
        play(&a["token"], &b["game_id"]),
        play(&b["token"], &a["game_id"]),
    ] {
        let (status, text) = post!(app, "/v1/play", request);
        assert_eq!(status, 422, "{text}");
        assert!(text.contains("invalid-token"), "{text}");
    }
    // Another preset than the deal's: a conflict with the ledger, nothing played.
    let mut other = play(&a["token"], &a["game_id"]);
    other["preset"] = json!("olympiad");
    let (status, text) = post!(app, "/v1/play", other);
    assert_eq!(status, 409, "{text}");
    assert!(text.contains("/problems/ledger-conflict"), "{text}");
    // Altered or cut tokens: 422, never a 500 or an answer.
    let token = a["token"].as_str().unwrap();
    // One character of the sealed part changed (to another: the tokens are random, and the
    // last character may carry unused bits, so change one in the middle).
    let mid = token.len() * 3 / 4;
    let other = if &token[mid..mid + 1] == "A" {
        "B"
    } else {
        "A"
    };
    for bad in [
        format!("{}{other}{}", &token[..mid], &token[mid + 1..]),
        token[..token.len() / 2].to_owned(),
        format!("v2{}", &token[2..]),
        "garbage".to_owned(),
    ] {
        let (status, text) = post!(app, "/v1/play", play(&json!(bad), &a["game_id"]));
        assert_eq!(status, 422, "{bad}: {text}");
    }
    // On /v1/validate the token comes as a header: a bad one is a 422 too.
    let mut record = a["record"].clone();
    record["actions"] = json!(["a1"]);
    let (status, text) = post!(app, "/v1/validate", record, ("anqi-token", "v1.test.AAAA"));
    assert_eq!(status, 422, "{text}");
    let (status, text) = post!(
        app,
        "/v1/validate",
        record,
        ("anqi-token", a["token"].as_str().unwrap())
    );
    assert_eq!(status, 200, "{text}");
    assert!(text.contains("\"valid\":true"), "{text}");
    // Another service's key cannot open it (the same ledger, another key).
    let other_app = actix_test::init_service(api::app(api::Settings {
        keys: records::seal::Keys::random(),
        ..settings()
    }))
    .await;
    let (status, text) = post!(other_app, "/v1/play", play(&a["token"], &a["game_id"]));
    assert_eq!(status, 422, "{text}");
    // A service without a store has no referee.
    let no_store = actix_test::init_service(api::app(api::Settings::default())).await;
    let (status, text) = post!(no_store, "/v1/play", play(&a["token"], &a["game_id"]));
    assert_eq!(status, 503, "{text}");
    let (status, text) = post!(no_store, "/v1/deal", json!({}));
    assert_eq!(status, 503, "{text}");
    // A token opens only with its game id (422 like any token that does not open), and is
    // not given with a layout.
    let (status, text) = post!(
        app,
        "/v1/play",
        json!({"action": "a1", "token": a["token"]})
    );
    assert_eq!(status, 422, "{text}");
    assert!(text.contains("/problems/invalid-token"), "{text}");
    let (status, text) = post!(
        app,
        "/v1/play",
        json!({"action": "a1", "token": a["token"], "game_id": a["game_id"],
        "layout": "KGGMMRRNNCCPPPPPkggmmrrnnccppppp"})
    );
    assert_eq!(status, 400, "{text}");
}

/// What a Luzhanqi answer to `seat` may not hold: in a flip game the identity of any face-down
/// piece (`c5(M)` with the truth); in a dark game any enemy identity but a shown flag, the
/// referee's position and either setup.
fn assert_luzhanqi_hidden(
    text: &str,
    referee: &records::games::luzhanqi::Position,
    layout: &Value,
    seat: Option<usize>,
) {
    use records::games::luzhanqi::{Layout, Role, Side};
    let parsed = Layout::from_value(layout).unwrap();
    match &parsed {
        Layout::Shuffle(_) => {
            assert!(
                !text.contains(layout.as_str().unwrap()),
                "the layout leaked: {text}"
            );
            for p in referee.covered() {
                let s = format!("{p}({})", parsed.piece(p).unwrap());
                assert!(!text.contains(&s), "{s} leaked: {text}");
            }
        }
        Layout::Setups { red, black } => {
            assert!(
                !text.contains(&referee.to_string()),
                "the referee's position leaked: {text}"
            );
            // A seat knows its own setup; nobody is told the other's.
            let secret: Vec<String> = match seat {
                None => vec![red.to_string(), black.to_string()],
                Some(0) => vec![black.to_string()],
                Some(_) => vec![red.to_string()],
            };
            for setup in secret {
                assert!(!text.contains(&setup), "a setup leaked: {text}");
            }
            // Every board a seat is shown names no enemy piece but the flag.
            let value: Value = serde_json::from_str(text).unwrap();
            let (Some(seat), Some(board)) = (seat, value["board"].as_array()) else {
                return;
            };
            let enemy = if seat == 0 { Side::Black } else { Side::Red };
            for c in board.iter().flat_map(|r| r.as_str().unwrap().chars()) {
                if let Some(p) = records::games::luzhanqi::Piece::from_char(c) {
                    assert!(
                        p.side != enemy || p.role == Role::Flag,
                        "{c} shown to seat {seat}: {text}"
                    );
                }
            }
        }
    }
}

/// A whole Luzhanqi game through the referee with tokens only (dark or flip), every answer
/// checked for what its seat may not know.
async fn referee_luzhanqi(seed: u64, preset: &str, max_plies: usize) {
    use records::core::rules::parts::*;
    use records::games::luzhanqi::{Luzhanqi, Match};
    let app = actix_test::init_service(api::app(settings())).await;
    let game = "luzhanqi";
    let (_, truth) = post!(
        app,
        "/v1/deal",
        json!({"game": game, "seed": seed, "preset": preset, "include_layout": true})
    );
    let truth: Value = serde_json::from_str(&truth).unwrap();
    let layout = truth["layout"].clone();
    let rules =
        records::core::rules::ruleset::<Luzhanqi>(Some(preset), &Default::default()).unwrap();
    let hidden = Luzhanqi::parse_hidden(&layout).unwrap();
    let mut referee = Match::from_position(rules, Luzhanqi::start(&rules, Some(&hidden)).unwrap());
    let (status, text) = post!(
        app,
        "/v1/deal",
        json!({"game": game, "seed": seed, "preset": preset, "players": ["A", "B"]})
    );
    assert_eq!(status, 200, "{text}");
    assert_luzhanqi_hidden(&text, &referee.pos, &layout, None);
    let deal: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        deal["position"].is_null(),
        preset != "flip",
        "a dark start is the referee's"
    );
    let (token, game_id) = (deal["token"].clone(), deal["game_id"].clone());
    let mut sent: Vec<String> = Vec::new();
    let mut rng = seed;
    let mut end = Value::Null;
    while sent.len() < max_plies && end.is_null() {
        let mut so_far = deal["record"].clone();
        so_far["actions"] = json!(sent);
        let mover = referee.pos.to_move().index();
        let names = ["player1", "player2"];
        // Each player's client holds its own seat token.
        let as_seat = |i: usize| json!({"game": game, "record": so_far, "token": deal["seat_tokens"][names[i]], "game_id": game_id});
        let common = as_seat(mover);
        let (status, text) = post!(app, "/v1/actions", common);
        assert_eq!(status, 200, "{text}");
        assert_luzhanqi_hidden(&text, &referee.pos, &layout, Some(mover));
        let actions: Value = serde_json::from_str(&text).unwrap();
        // The other player asks too: no actions (not its turn), its own masked position.
        let (status, text) = post!(app, "/v1/actions", as_seat(1 - mover));
        assert_eq!(status, 200, "{text}");
        assert_luzhanqi_hidden(&text, &referee.pos, &layout, Some(1 - mover));
        assert_eq!(
            serde_json::from_str::<Value>(&text).unwrap()["count"],
            0,
            "{text}"
        );
        for (i, seat) in names.iter().enumerate() {
            let mut request = as_seat(i);
            request["player"] = json!(seat);
            let (status, text) = post!(app, "/v1/view", request);
            assert_eq!(status, 200, "{text}");
            assert_luzhanqi_hidden(&text, &referee.pos, &layout, Some(i));
            let view: Value = serde_json::from_str(&text).unwrap();
            if i == mover {
                assert_eq!(view["actions"], actions["actions"]);
                assert_eq!(
                    view["position"], actions["position"],
                    "the mover is told its view"
                );
            }
        }
        let list = actions["actions"].as_array().unwrap();
        assert!(
            !list.is_empty(),
            "a game that has not ended has a legal action"
        );
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let choice = list[(rng >> 33) as usize % list.len()]
            .as_str()
            .unwrap()
            .to_owned();
        let mut request = common.clone();
        request["action"] = json!(choice);
        // Out of turn, the other seat's token may not play it.
        let mut out_of_turn = as_seat(1 - mover);
        out_of_turn["action"] = json!(choice);
        let (status, text) = post!(app, "/v1/play", out_of_turn);
        assert_eq!(status, 403, "{text}");
        let (status, text) = post!(app, "/v1/play", request);
        assert_eq!(status, 200, "{choice}: {text}");
        let action =
            Luzhanqi::reveal(choice.parse().unwrap(), &referee.pos, Some(&hidden)).unwrap();
        referee.play(&action).unwrap();
        assert_luzhanqi_hidden(&text, &referee.pos, &layout, Some(mover));
        let played: Value = serde_json::from_str(&text).unwrap();
        end = played.get("end").cloned().unwrap_or(Value::Null);
        sent.push(choice);
    }
    let mut record = deal["record"].clone();
    record["actions"] = json!(sent);
    let header = ("anqi-token", token.as_str().unwrap().to_owned());
    let (status, text) = post!(app, "/v1/validate", record, header);
    assert_eq!(status, 200, "{text}");
    // The game's own token speaks for every seat: its verdict's position is the one the seat
    // to move is told (its own setup, where its pieces have not moved, may show in it).
    let to_move = referee.pos.to_move().index();
    assert_luzhanqi_hidden(&text, &referee.pos, &layout, Some(to_move));
    let verdict: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(verdict["valid"], true, "{verdict}");
    if !end.is_null() {
        assert_eq!(verdict["derived"]["reason"], end["reason"]);
    }
}

#[actix_web::test]
async fn whole_luzhanqi_games_with_tokens_only() {
    referee_luzhanqi(42, "dark", 300).await;
    referee_luzhanqi(7, "flip", 300).await;
    referee_luzhanqi(9, "dark-house", 300).await;
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, .. ProptestConfig::default() })]

    /// No answer to a Luzhanqi player names an enemy identity it may not know (dark) or a
    /// face-down piece (flip).
    #[test]
    fn no_luzhanqi_answer_leaks(seed in any::<u64>(), flip in any::<bool>(), plies in 1usize..150) {
        let preset = if flip { "flip" } else { "dark" };
        actix_web::rt::System::new().block_on(referee_luzhanqi(seed, preset, plies));
    }
}

/// No answer to a xiangqi-3g seat names a back of the opponent's that no flip has shown:
/// every position string it gets is checked piece by piece.
fn assert_backs_hidden(text: &str, seat: Option<usize>, layout: &Value) {
    use records::games::xiangqi::{Back, Position, Side};
    let value: Value = serde_json::from_str(text).unwrap_or(Value::Null);
    for side in ["red", "black"] {
        let backs = layout[side].as_str().unwrap();
        let own = match seat {
            Some(0) => "red",
            Some(_) => "black",
            None => "",
        };
        if side != own {
            assert!(!text.contains(backs), "{side}'s backs leaked: {text}");
        }
    }
    let Some(seat) = seat else {
        return;
    };
    let enemy = if seat == 0 { Side::Black } else { Side::Red };
    for field in ["position", "final_position"] {
        let Some(written) = value[field].as_str().filter(|s| !s.is_empty()) else {
            continue;
        };
        let pos: Position = written.parse().unwrap_or_else(|e| panic!("{written}: {e}"));
        for s in pos.side_pieces(enemy) {
            let p = pos.piece(s).unwrap();
            assert!(
                !matches!(p.back, Back::Known(_)) || p.back_public,
                "seat {seat} was told the back on {s}: {written}"
            );
        }
    }
}

/// A whole xiangqi-3g game through the referee with tokens only.
async fn referee_xiangqi(seed: u64, preset: &str, max_plies: usize) {
    let app = actix_test::init_service(api::app(settings())).await;
    let game = "xiangqi-3g";
    let (_, truth) = post!(
        app,
        "/v1/deal",
        json!({"game": game, "seed": seed, "preset": preset, "include_layout": true})
    );
    let layout = serde_json::from_str::<Value>(&truth).unwrap()["layout"].clone();
    let (status, text) = post!(
        app,
        "/v1/deal",
        json!({"game": game, "seed": seed, "preset": preset, "players": ["A", "B"]})
    );
    assert_eq!(status, 200, "{text}");
    assert_backs_hidden(&text, None, &layout);
    let deal: Value = serde_json::from_str(&text).unwrap();
    let (token, game_id) = (deal["token"].clone(), deal["game_id"].clone());
    let mut sent: Vec<String> = Vec::new();
    let mut rng = seed;
    let mut end = Value::Null;
    while sent.len() < max_plies && end.is_null() {
        let mut so_far = deal["record"].clone();
        so_far["actions"] = json!(sent);
        let names = ["player1", "player2"];
        let as_seat = |i: usize| json!({"game": game, "record": so_far, "token": deal["seat_tokens"][names[i]], "game_id": game_id});
        let mover = sent.len() % 2;
        let common = as_seat(mover);
        let (status, text) = post!(app, "/v1/actions", common);
        assert_eq!(status, 200, "{text}");
        let actions: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(actions["to_move"], names[mover]);
        assert_backs_hidden(&text, Some(mover), &layout);
        let (_, text) = post!(app, "/v1/actions", as_seat(1 - mover));
        assert_backs_hidden(&text, Some(1 - mover), &layout);
        assert_eq!(
            serde_json::from_str::<Value>(&text).unwrap()["count"],
            0,
            "{text}"
        );
        for (i, seat) in names.iter().enumerate() {
            let mut request = as_seat(i);
            request["player"] = json!(seat);
            let (status, text) = post!(app, "/v1/view", request);
            assert_eq!(status, 200, "{text}");
            assert_backs_hidden(&text, Some(i), &layout);
        }
        let list = actions["actions"].as_array().unwrap();
        assert!(
            !list.is_empty(),
            "a game that has not ended has a legal action"
        );
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let choice = list[(rng >> 33) as usize % list.len()]
            .as_str()
            .unwrap()
            .to_owned();
        let mut request = common.clone();
        request["action"] = json!(choice);
        let (status, text) = post!(app, "/v1/play", request);
        assert_eq!(status, 200, "{choice}: {text}");
        assert_backs_hidden(&text, Some(mover), &layout);
        let played: Value = serde_json::from_str(&text).unwrap();
        end = played.get("end").cloned().unwrap_or(Value::Null);
        sent.push(choice);
    }
    let mut record = deal["record"].clone();
    record["actions"] = json!(sent);
    let header = ("anqi-token", token.as_str().unwrap().to_owned());
    let (status, text) = post!(app, "/v1/validate", record, header);
    assert_eq!(status, 200, "{text}");
    assert_backs_hidden(&text, None, &layout);
    let verdict: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(verdict["valid"], true, "{verdict}");
}

#[actix_web::test]
async fn whole_xiangqi_games_with_tokens_only() {
    referee_xiangqi(42, "xiangqi-3g", 250).await;
    referee_xiangqi(5, "xiangqi-3g-anywhere", 250).await;
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4, .. ProptestConfig::default() })]

    /// No answer to a xiangqi-3g player names an opponent's back it has not seen flipped.
    #[test]
    fn no_xiangqi_answer_leaks_a_back(seed in any::<u64>(), plies in 1usize..150) {
        actix_web::rt::System::new().block_on(referee_xiangqi(seed, "xiangqi-3g", plies));
    }
}

/// A seat token speaks for its seat only: not another seat's view, not a move out of turn; the
/// game's own token (the app server's) may do both.
#[actix_web::test]
async fn a_seat_token_acts_for_its_seat_only() {
    let app = actix_test::init_service(api::app(settings())).await;
    let (_, text) = post!(
        app,
        "/v1/deal",
        json!({"game": "luzhanqi", "preset": "dark", "seed": 3})
    );
    let deal: Value = serde_json::from_str(&text).unwrap();
    let tokens = &deal["seat_tokens"];
    assert_eq!(tokens.as_object().unwrap().len(), 2);
    assert_ne!(tokens["player1"], tokens["player2"]);
    assert_ne!(tokens["player1"], deal["token"]);
    let view = |token: &Value, player: &str| json!({"game": "luzhanqi", "player": player, "record": deal["record"], "token": token, "game_id": deal["game_id"]});
    let (status, _) = post!(app, "/v1/view", view(&tokens["player1"], "player1"));
    assert_eq!(status, 200);
    let (status, text) = post!(app, "/v1/view", view(&tokens["player1"], "player2"));
    assert_eq!(status, 403, "{text}");
    assert!(text.contains("wrong-seat"), "{text}");
    let (status, _) = post!(app, "/v1/view", view(&deal["token"], "player2"));
    assert_eq!(status, 200, "the game's token sees any seat");
    // A seat token opens for its own deal only: no such game, or another game's token.
    let mut other = view(&tokens["player1"], "player1");
    other["game_id"] = json!("00000000000000000000000000000000");
    let (status, _) = post!(app, "/v1/view", other);
    assert_eq!(status, 404);
    let (_, text) = post!(
        app,
        "/v1/deal",
        json!({"game": "luzhanqi", "preset": "dark", "seed": 4})
    );
    let mut other = view(&tokens["player1"], "player1");
    other["game_id"] = serde_json::from_str::<Value>(&text).unwrap()["game_id"].clone();
    other["record"] = Value::Null;
    let (status, text) = post!(app, "/v1/view", other);
    assert_eq!(status, 422, "{text}");
    // Player 2 may not play red's first move.
    let (_, actions) = post!(
        app,
        "/v1/actions",
        json!({"game": "luzhanqi", "record": deal["record"], "token": deal["token"], "game_id": deal["game_id"]})
    );
    let first = serde_json::from_str::<Value>(&actions).unwrap()["actions"][0].clone();
    let play = |token: &Value| json!({"game": "luzhanqi", "record": deal["record"], "token": token, "game_id": deal["game_id"], "action": first});
    let (status, text) = post!(app, "/v1/play", play(&tokens["player2"]));
    assert_eq!(status, 403, "{text}");
    let (status, text) = post!(app, "/v1/play", play(&tokens["player1"]));
    assert_eq!(status, 200, "{text}");
}
