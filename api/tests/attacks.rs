//! The attacks of a cheating player's client on the referee (issue 20's table), each on the
//! real `anqi-api` binary over TCP, for every hidden game: the client holds its seat token
//! and sends anything. Each learns nothing and changes nothing. (That every answer holds only
//! what the seat may know is proven in general by `transcripts.rs`.)

use std::process::{Command, Stdio};

use serde_json::{Value, json};

mod common;
use common::{Server, request, request_with};

/// The hidden games, a preset each (two for Luzhanqi: dark and flip).
const GAMES: &[(&str, &str)] = &[
    ("banqi", "tcga"),
    ("three-kingdoms", "three-kingdoms"),
    ("luzhanqi", "dark"),
    ("luzhanqi", "flip"),
    ("xiangqi-3g", "xiangqi-3g"),
];

fn start(name: &str, env: &[(&str, &str)]) -> Server {
    let db = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("attacks-{name}.db"));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    let mut command = Command::new(env!("CARGO_BIN_EXE_anqi-api"));
    command
        .env("ANQI_PORT", "0")
        .env("DATABASE_URL", &db)
        .env("ANQI_LOG", "warn")
        .env_remove("ANQI_TOKEN")
        .env_remove("ANQI_HOST")
        .stderr(Stdio::null());
    for (k, v) in env {
        command.env(k, v);
    }
    Server::spawn(command)
}

fn post(addr: &str, path: &str, body: &Value) -> (u16, Value, String) {
    let (status, _, text) = request(addr, "POST", path, "application/json", &body.to_string());
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::Null),
        text,
    )
}

/// `/v1/validate` of `record` with a token in its header.
fn validate(addr: &str, record: &Value, token: &Value) -> (u16, Value, String) {
    let (status, _, text) = request_with(
        addr,
        "POST",
        "/v1/validate",
        "application/json",
        &format!("Anqi-Token: {}\r\n", token.as_str().unwrap()),
        &record.to_string(),
    );
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::Null),
        text,
    )
}

struct Game {
    name: &'static str,
    deal: Value,
}

impl Game {
    fn deal(addr: &str, name: &'static str, preset: &'static str) -> Game {
        let (status, deal, text) = post(addr, "/v1/deal", &json!({"game": name, "preset": preset}));
        assert_eq!(status, 200, "{text}");
        Game { name, deal }
    }

    fn seat(&self, seat: &str) -> Value {
        json!({"game": self.name, "game_id": self.deal["game_id"], "token": self.deal["seat_tokens"][seat]})
    }

    fn with(&self, seat: &str, extra: Value) -> Value {
        let mut body = self.seat(seat);
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        body
    }

    /// The legal actions `seat` is listed now, and the position it is told.
    fn listed(&self, addr: &str, seat: &str) -> (Vec<String>, String) {
        let (status, v, text) = post(addr, "/v1/actions", &self.seat(seat));
        assert_eq!(status, 200, "{text}");
        (
            serde_json::from_value(v["actions"].clone()).unwrap(),
            v["position"].as_str().unwrap().to_owned(),
        )
    }

    /// Committed plies, as the game's own token sees them.
    fn plies(&self, addr: &str) -> usize {
        let body = json!({"game": self.name, "game_id": self.deal["game_id"], "token": self.deal["token"]});
        let (status, v, text) = post(addr, "/v1/actions", &body);
        assert_eq!(status, 200, "{text}");
        v["ply"].as_u64().unwrap() as usize
    }
}

/// Whether `text` writes a piece in parentheses, as a revealing action does (`b6(K)`).
fn names_an_identity(text: &str) -> bool {
    text.as_bytes()
        .windows(3)
        .any(|w| w[0] == b'(' && w[1].is_ascii_alphabetic() && w[2] == b')')
}

fn problem_type(v: &Value) -> &str {
    v["type"]
        .as_str()
        .unwrap_or("")
        .trim_start_matches("/problems/")
}

/// Every listed action played at the same ply: the first is the game's, the rest are refused
/// without playing them (the referee's answer names only the committed action), and nothing
/// else was committed. Three attacks in dark Luzhanqi, 32 flips in Banqi: one is played.
#[test]
fn every_action_at_one_ply_plays_one() {
    let server = start("one-ply", &[]);
    let a = &server.addr;
    for &(name, preset) in GAMES {
        let game = Game::deal(a, name, preset);
        let (listed, _) = game.listed(a, "player1");
        assert!(listed.len() > 3, "{name}: {listed:?}");
        let (status, first, text) = post(
            a,
            "/v1/play",
            &game.with("player1", json!({"action": listed[0], "ply": 0})),
        );
        assert_eq!(status, 200, "{name}: {text}");
        let committed = first["action"].as_str().unwrap().to_owned();
        for other in &listed[1..] {
            let (status, v, text) = post(
                a,
                "/v1/play",
                &game.with("player1", json!({"action": other, "ply": 0})),
            );
            assert_eq!(
                (status, problem_type(&v)),
                (409, "already-played"),
                "{name}: {text}"
            );
            assert_eq!(v["detail"], format!("ply 1 is already played: {committed}"));
        }
        // The same action again: the same answer.
        let (status, again, _) = post(
            a,
            "/v1/play",
            &game.with("player1", json!({"action": listed[0], "ply": 0})),
        );
        assert_eq!((status, &again), (200, &first));
        // Without `ply`, the seat's next play is out of its turn.
        let (status, v, text) = post(
            a,
            "/v1/play",
            &game.with("player1", json!({"action": listed[1]})),
        );
        assert_eq!(
            (status, problem_type(&v)),
            (403, "wrong-seat"),
            "{name}: {text}"
        );
        assert_eq!(game.plies(a), 1, "{name}: one ply committed");
    }
}

/// A made-up record (every listed action, the opponent's plies included) to every endpoint
/// that takes one: refused, the layout not replayed into any answer.
#[test]
fn a_made_up_record_is_refused() {
    let server = start("made-up", &[]);
    let a = &server.addr;
    for &(name, preset) in GAMES {
        let game = Game::deal(a, name, preset);
        let (listed, _) = game.listed(a, "player1");
        let record = json!({"game": name, "preset": preset, "actions": listed, "metadata": {"game_id": game.deal["game_id"]}});
        for (path, body) in [
            (
                "/v1/actions",
                game.with("player1", json!({"record": record})),
            ),
            (
                "/v1/view",
                game.with("player1", json!({"record": record, "player": "player1"})),
            ),
            (
                "/v1/play",
                game.with("player1", json!({"record": record, "action": listed[0]})),
            ),
        ] {
            let (status, v, text) = post(a, path, &body);
            assert_eq!(
                (status, problem_type(&v)),
                (409, "ledger-conflict"),
                "{name} {path}: {text}"
            );
            assert_eq!(v["field"], "record.actions");
            assert!(!names_an_identity(&text), "{name} {path}: {text}");
        }
        let (status, v, text) = validate(a, &record, &game.deal["seat_tokens"]["player1"]);
        assert_eq!(
            (status, v["field"].as_str()),
            (409, Some("record.actions")),
            "{name}: {text}"
        );
        assert_eq!(game.plies(a), 0, "{name}: nothing committed");
    }
}

/// An illegal first ply: the problem shows the seat's own position, never the referee's (a
/// dark Luzhanqi game's setups, xiangqi-3g's backs).
#[test]
fn an_illegal_action_shows_the_seats_position() {
    let server = start("illegal", &[]);
    let a = &server.addr;
    for &(name, preset) in GAMES {
        let game = Game::deal(a, name, preset);
        let (listed, told) = game.listed(a, "player1");
        for wild in ["a1-a2", "a6-a7", "e3e4", "a0a1", "b1-b3", "c5-c6"] {
            if listed.iter().any(|l| l == wild) {
                continue;
            }
            let (status, v, text) = post(
                a,
                "/v1/play",
                &game.with("player1", json!({"action": wild})),
            );
            assert!(status == 400 || status == 422, "{name} {wild}: {text}");
            if status == 422 {
                assert_eq!(v["position"].as_str(), Some(told.as_str()), "{name} {wild}");
            }
        }
        assert_eq!(game.plies(a), 0, "{name}");
    }
}

/// Guessing what a flip reveals: the answer is the same for every guess, right or wrong, and
/// nothing is played (xiangqi-3g's backs: the old answer named the back).
#[test]
fn a_guessed_identity_is_never_judged() {
    let server = start("guess", &[]);
    let a = &server.addr;
    for &(name, preset) in GAMES {
        let game = Game::deal(a, name, preset);
        let (listed, _) = game.listed(a, "player1");
        for action in listed.iter().take(4) {
            let mut answers = std::collections::BTreeSet::new();
            for letter in "KGAMEBRNCPkgamebrncpTFJLDS".chars() {
                let guess = format!("{action}({letter})");
                let (status, mut v, text) = post(
                    a,
                    "/v1/play",
                    &game.with("player1", json!({"action": guess})),
                );
                assert!(status == 400 || status == 422, "{name} {guess}: {text}");
                v.as_object_mut().unwrap().remove("action");
                answers.insert(v.to_string().replace(&guess, "GUESS"));
            }
            // Malformed letters aside, one answer for every guess.
            let well_formed: Vec<&String> = answers
                .iter()
                .filter(|a| !a.contains("malformed"))
                .collect();
            assert!(well_formed.len() <= 1, "{name} {action}: {well_formed:#?}");
        }
        assert_eq!(game.plies(a), 0, "{name}");
    }
}

/// Rules changed through `preset` or `options`, an invented start, an invented result:
/// refused or judged, never applied.
#[test]
fn rules_starts_and_results_are_the_ledgers() {
    let server = start("rules", &[]);
    let a = &server.addr;
    let dark = Game::deal(a, "luzhanqi", "dark");
    let (status, v, text) = post(
        a,
        "/v1/view",
        &dark.with(
            "player1",
            json!({"player": "player1", "options": {"mode": "open"}}),
        ),
    );
    assert_eq!(
        (status, v["field"].as_str()),
        (409, Some("options")),
        "{text}"
    );
    let record = json!({"game": "luzhanqi", "preset": "dark", "options": {"mode": "open"}, "actions": [], "metadata": {"game_id": dark.deal["game_id"]}});
    let (status, v, text) = validate(a, &record, &dark.deal["seat_tokens"]["player1"]);
    assert_eq!(
        (status, v["field"].as_str()),
        (409, Some("record.options")),
        "{text}"
    );
    let banqi = Game::deal(a, "banqi", "tcga");
    let (status, v, text) = post(
        a,
        "/v1/actions",
        &banqi.with("player1", json!({"options": {"dark_capture": true}})),
    );
    assert_eq!(
        (status, v["field"].as_str()),
        (409, Some("options")),
        "{text}"
    );
    for &(name, preset) in GAMES {
        let game = Game::deal(a, name, preset);
        // An invented start with a winning ply.
        let forged = json!({"game": name, "preset": preset, "start": "k3/4/4/4/4/4/1p2/P2X r C1 5 30", "actions": ["a2-a1"], "result": {"outcome": "player1"}, "metadata": {"game_id": game.deal["game_id"]}});
        let (status, v, text) = validate(a, &forged, &game.deal["seat_tokens"]["player1"]);
        assert_eq!(status, 409, "{name}: {text}");
        assert!(
            v["field"].as_str().unwrap().starts_with("record."),
            "{name}: {text}"
        );
        // The true (empty) history with an invented win: judged, not believed.
        let claimed = json!({"game": name, "preset": preset, "actions": [], "result": {"outcome": "player1", "reason": "elimination"}, "metadata": {"game_id": game.deal["game_id"]}});
        let (status, v, text) = validate(a, &claimed, &game.deal["seat_tokens"]["player1"]);
        assert_eq!(
            (status, v["valid"].as_bool()),
            (200, Some(false)),
            "{name}: {text}"
        );
        // An opponent's ply: not this seat's to play.
        let (listed, _) = game.listed(a, "player1");
        post(
            a,
            "/v1/play",
            &game.with("player1", json!({"action": listed[0], "ply": 0})),
        );
        let (status, v, text) = post(
            a,
            "/v1/play",
            &game.with("player1", json!({"action": listed[1], "ply": 1})),
        );
        assert_eq!(
            (status, problem_type(&v)),
            (403, "wrong-seat"),
            "{name}: {text}"
        );
        assert_eq!(game.plies(a), 1, "{name}");
    }
}

/// A deal gives away no seed: a random deal has none; and with the service's write token
/// configured, only its holder (the app's server) deals, the layout in clear included.
#[test]
fn a_deal_gives_no_seed_and_the_layout_only_to_the_app_server() {
    let server = start("deal", &[("ANQI_TOKEN", "s3cret")]);
    let a = &server.addr;
    let with_token = |body: &Value| {
        request_with(
            a,
            "POST",
            "/v1/deal",
            "application/json",
            "Authorization: Bearer s3cret\r\n",
            &body.to_string(),
        )
    };
    for &(name, preset) in GAMES {
        let (status, _, text) = with_token(&json!({"game": name, "preset": preset}));
        assert_eq!(status, 200, "{text}");
        assert!(!text.contains("seed"), "{name}: {text}");
        for order in [
            json!({"game": name, "preset": preset}),
            json!({"game": name, "preset": preset, "include_layout": true}),
        ] {
            let (status, v, text) = post(a, "/v1/deal", &order);
            assert_eq!(
                (status, problem_type(&v)),
                (401, "unauthorized"),
                "{name}: {text}"
            );
        }
        let (status, _, text) =
            with_token(&json!({"game": name, "preset": preset, "include_layout": true}));
        assert_eq!(status, 200, "{name}: {text}");
        assert!(text.contains("\"layout\""), "{name}: {text}");
    }
}
