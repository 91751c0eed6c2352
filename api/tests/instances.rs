//! Live play across instances (issue 57), on the real binary: two processes on one SQLite
//! file, and two on one PostgreSQL database when `ANQI_TEST_POSTGRES_URL` names a server.
//!
//! - A game's end raced across instances: the instance that did not end it answers as before
//!   the end, never a 5xx, and the ply that ended it is answered 200 to its player.
//! - A stream opened while plies commit misses none of them.
//! - An engine seat survives the death of its instance, and is searched by one instance.
//! - An expired game's stream closes, and an abandoned game's engine task ends.
//! - The engine's moves wait for an analysis slot.
//! - A seat's streams are capped (429), a ticket opens one stream, and a stream of a long game
//!   replays from the start in pages.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

#[path = "common/mod.rs"]
mod common;
#[path = "common/sse.rs"]
mod sse;
use common::{Server, command, fresh_db, post_json};
use sse::{Sse, play_first as play, stream_url};

const KEY: &str = "instances:Rf3DJqo4m03Ie+lH7lbshEk42d0cJm1nHwrvfz8Saw8=";

/// The stores two instances share: a SQLite file, and a PostgreSQL database when there is a
/// server to make one on.
fn shared_stores(name: &str) -> Vec<String> {
    let mut stores = vec![fresh_db(&format!("{name}.db")).display().to_string()];
    match std::env::var("ANQI_TEST_POSTGRES_URL") {
        Ok(admin) => stores.push(
            records::store::scratch_postgres_database(&admin, &format!("anqi_{name}")).unwrap(),
        ),
        Err(_) => {
            assert!(
                std::env::var_os("ANQI_REQUIRE_POSTGRES").is_none(),
                "ANQI_REQUIRE_POSTGRES is set but ANQI_TEST_POSTGRES_URL is not"
            );
            eprintln!("note: ANQI_TEST_POSTGRES_URL is not set: PostgreSQL untested");
        }
    }
    stores
}

fn server(store: &str, env: &[(&str, &str)]) -> Server {
    let mut env = env.to_vec();
    env.push(("ANQI_SEAL_KEY", KEY));
    Server::spawn(command(std::path::Path::new(store), &[], &env))
}

/// The seat to move and its first listed action, asked with the game's token on `addr`.
fn next_action(addr: &str, deal: &Value) -> (String, Value, u64) {
    let (status, listed) = post_json(
        addr,
        "/v1/actions",
        &json!({"game_id": deal["game_id"], "token": deal["token"]}),
    );
    assert_eq!(status, 200, "{listed}");
    let seat = listed["to_move"].as_str().unwrap().to_owned();
    (
        seat,
        listed["actions"][0].clone(),
        listed["ply"].as_u64().unwrap(),
    )
}

fn view(addr: &str, deal: &Value, ply: u64) -> (u16, Value) {
    post_json(
        addr,
        "/v1/view",
        &json!({"game_id": deal["game_id"], "token": deal["seat_tokens"]["player1"],
                "player": "player1", "ply": ply}),
    )
}

/// 60 rounds on each backend: a game of three plies (its cap) is played on one instance while
/// the other, which had the game open, answers views of ply 1, lists and streams. Nothing is
/// answered 5xx, the other instance's answers are what they were before the end, and the
/// ending ply is answered 200 to its player.
#[test]
fn a_games_end_raced_across_instances_answers_as_before() {
    for store in shared_stores("instances_end_race") {
        let (one, two) = (server(&store, &[]), server(&store, &[]));
        let (a, b) = (one.addr.clone(), two.addr.clone());
        for round in 0..60 {
            let (status, deal) = post_json(
                &a,
                "/v1/deal",
                &json!({"players": ["ann", "bo"], "seed": round, "options": {"max_plies": 3}}),
            );
            assert_eq!(status, 200, "{deal}");
            for _ in 0..2 {
                assert_eq!(play(&a, &deal).0, 200);
            }
            // The other instance opens the game in play, and keeps it.
            let (status, before) = view(&b, &deal, 1);
            assert_eq!(status, 200, "{before}");
            let url = stream_url(&b, &deal, &deal["seat_tokens"]["player2"]);
            let (seat, action, ply) = next_action(&a, &deal);
            std::thread::scope(|scope| {
                let ending = scope.spawn(|| {
                    post_json(
                        &a,
                        "/v1/play",
                        &json!({"game_id": deal["game_id"], "token": deal["seat_tokens"][&seat],
                                "action": action, "ply": ply}),
                    )
                });
                let (b, deal, before) = (&b, &deal, &before);
                let asking = scope.spawn(move || {
                    for _ in 0..4 {
                        let (status, after) = view(b, deal, 1);
                        assert_eq!(status, 200, "round {round}: {after}");
                        assert_eq!(
                            without_life(&after),
                            without_life(before),
                            "round {round}: ply 1 as before the end"
                        );
                        let (status, listed) = post_json(
                            b,
                            "/v1/actions",
                            &json!({"game_id": deal["game_id"], "token": deal["token"]}),
                        );
                        assert_eq!(status, 200, "round {round}: {listed}");
                    }
                });
                let mut stream = Sse::open(b, &url, "Last-Event-ID: 1.0\r\n")
                    .unwrap_or_else(|e| panic!("round {round}: the stream opens: {e:?}"));
                let first = stream.next().unwrap();
                assert_eq!((first.kind.as_str(), first.id.as_str()), ("ply", "2.0"));
                let (status, ended) = ending.join().unwrap();
                assert_eq!(status, 200, "round {round}: the ending ply: {ended}");
                assert_eq!(ended["end"]["reason"], "ply_limit", "{ended}");
                asking.join().unwrap();
                // The stream reaches the end and closes.
                let mut last = first;
                while let Some(event) = stream.next() {
                    last = event;
                }
                assert_eq!(last.id, "3.0", "round {round}");
                assert!(last.data["end"].is_object(), "{:?}", last.data);
            });
            // Both instances answer the ended game alike.
            for addr in [&a, &b] {
                let (status, after) = view(addr, &deal, 1);
                assert_eq!(status, 200, "round {round}: {after}");
                assert_eq!(without_life(&after), without_life(&before), "round {round}");
                assert_eq!(after["life"]["status"], "ended", "round {round}: {after}");
            }
        }
    }
}

/// A view without the game's life (its status, which the end changes).
fn without_life(view: &Value) -> Value {
    let mut view = view.clone();
    view.as_object_mut().unwrap().remove("life");
    view
}

/// 40 streams on each backend, each opened on one instance while the other commits plies as
/// fast as it can: every ply reaches every stream well before a heartbeat would (set to 30 s).
#[test]
fn a_stream_opened_while_plies_commit_misses_none() {
    for store in shared_stores("instances_wakeup") {
        let env = [("ANQI_STREAM_HEARTBEAT", "30")];
        let (one, two) = (server(&store, &env), server(&store, &env));
        let (a, b) = (one.addr.clone(), two.addr.clone());
        for round in 0..40 {
            let (status, deal) = post_json(&a, "/v1/deal", &json!({"seed": round}));
            assert_eq!(status, 200, "{deal}");
            let url = stream_url(&b, &deal, &deal["seat_tokens"]["player1"]);
            std::thread::scope(|scope| {
                let playing = scope.spawn(|| {
                    for _ in 0..6 {
                        assert_eq!(play(&a, &deal).0, 200);
                    }
                });
                let mut stream = Sse::open(&b, &url, "").unwrap();
                playing.join().unwrap();
                let done = Instant::now();
                let mut at = String::new();
                while at != "6.0" {
                    let event = stream.next().expect("the stream goes on");
                    at = event.id;
                }
                assert!(
                    done.elapsed() < Duration::from_secs(3),
                    "round {round}: the last ply came {:?} after it was committed",
                    done.elapsed()
                );
            });
        }
    }
}

/// An engine seat whose instance dies is taken over by the other instance within seconds, and
/// while both live only one of them plays it (the moves come one a ply, no ply refused).
#[test]
fn an_engine_seat_survives_the_death_of_its_instance() {
    for store in shared_stores("instances_engine") {
        let one = server(&store, &[]);
        let two = server(&store, &[]);
        let (status, deal) = post_json(
            &one.addr,
            "/v1/deal",
            &json!({"players": ["Anqi engine", "ann"], "engines": {"player1": 50}}),
        );
        assert_eq!(status, 200, "{deal}");
        let wait_for = |addr: &str, ply: u64, within: Duration| {
            let started = Instant::now();
            loop {
                let (status, listed) = post_json(
                    addr,
                    "/v1/actions",
                    &json!({"game_id": deal["game_id"], "token": deal["seat_tokens"]["player2"]}),
                );
                assert_eq!(status, 200, "{listed}");
                if listed["ply"].as_u64() == Some(ply) {
                    return listed;
                }
                assert!(
                    started.elapsed() < within,
                    "the engine did not play ply {ply}: {listed}"
                );
                std::thread::sleep(Duration::from_millis(50));
            }
        };
        let reply = |addr: &str, listed: &Value| {
            let (status, played) = post_json(
                addr,
                "/v1/play",
                &json!({"game_id": deal["game_id"], "token": deal["seat_tokens"]["player2"],
                        "action": listed["actions"][0], "ply": listed["ply"]}),
            );
            assert_eq!(status, 200, "{played}");
        };
        // Both instances live: the engine plays each of its plies once.
        for ply in [1, 3, 5] {
            let listed = wait_for(&two.addr, ply, Duration::from_secs(10));
            reply(&two.addr, &listed);
        }
        wait_for(&two.addr, 7, Duration::from_secs(10));
        let searches = |addr: &str| live(addr)["engine_searches"].as_u64().unwrap();
        assert_eq!(
            searches(&one.addr) + searches(&two.addr),
            4,
            "each of the engine's 4 moves searched by one instance"
        );
        // The dealing instance dies (killed: its lease is left to run out).
        drop(one);
        let listed = wait_for(&two.addr, 7, Duration::from_secs(1));
        reply(&two.addr, &listed);
        let died = Instant::now();
        wait_for(&two.addr, 9, Duration::from_secs(15));
        eprintln!("the engine's seat was taken over in {:?}", died.elapsed());
        assert!(
            searches(&two.addr) >= 1,
            "the other instance searched the 9th ply"
        );
        let events = records_of_plies(&two.addr, &deal);
        assert_eq!(events, 9, "one action a ply, none refused or doubled");
    }
}

/// What an instance holds of live play (`GET /v1/health`).
fn live(addr: &str) -> Value {
    let (status, _, text) = common::request(addr, "GET", "/v1/health", "application/json", "");
    assert_eq!(status, 200, "{text}");
    serde_json::from_str::<Value>(&text).unwrap()["live"].clone()
}

/// The plies of a game as the game's token lists them.
fn records_of_plies(addr: &str, deal: &Value) -> u64 {
    let (_, listed) = post_json(
        addr,
        "/v1/actions",
        &json!({"game_id": deal["game_id"], "token": deal["token"]}),
    );
    listed["ply"].as_u64().unwrap()
}

/// A game left unplayed past `--game-expiry` closes its streams, and the instance forgets it
/// (on each backend).
#[test]
fn an_expired_games_stream_closes() {
    for store in shared_stores("instances_expiry") {
        let server = Server::spawn(command(
            std::path::Path::new(&store),
            &["--game-expiry", "2"],
            &[("ANQI_SEAL_KEY", KEY), ("ANQI_STREAM_HEARTBEAT", "1")],
        ));
        let a = &server.addr;
        let (status, deal) = post_json(a, "/v1/deal", &json!({}));
        assert_eq!(status, 200, "{deal}");
        let url = stream_url(a, &deal, &deal["seat_tokens"]["player1"]);
        let mut stream = Sse::open(a, &url, "").unwrap();
        assert_eq!(stream.next().unwrap().kind, "state");
        let started = Instant::now();
        assert_eq!(live(a)["streams"], 1);
        assert!(stream.next().is_none(), "the stream closes");
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
        // Nothing of it is kept: the hub forgot the game.
        std::thread::sleep(Duration::from_millis(100));
        assert_eq!(
            live(a),
            json!({"streams": 0, "watched_games": 0, "engine_games": 0, "engine_searches": 0})
        );
    }
}

/// The engine's task of a game left unplayed ends at the game's expiry: nothing of the game is
/// kept, and no instance takes it up again (on each backend).
#[test]
fn an_abandoned_games_engine_task_ends_at_its_expiry() {
    for store in shared_stores("instances_engine_expiry") {
        let server = Server::spawn(command(
            std::path::Path::new(&store),
            &["--game-expiry", "2"],
            &[("ANQI_SEAL_KEY", KEY)],
        ));
        let a = &server.addr;
        let (status, deal) = post_json(
            a,
            "/v1/deal",
            &json!({"players": ["ann", "Anqi engine"], "engines": {"player2": 20}}),
        );
        assert_eq!(status, 200, "{deal}");
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(live(a)["engine_games"], 1, "the engine waits for player 1");
        assert_eq!(live(a)["watched_games"], 1);
        let started = Instant::now();
        while live(a)["engine_games"] != 0 {
            assert!(
                started.elapsed() < Duration::from_secs(6),
                "the engine's task outlived its game's expiry: {}",
                live(a)
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        assert_eq!(live(a)["watched_games"], 0, "{}", live(a));
        // The keeper does not take the expired game up again.
        std::thread::sleep(Duration::from_millis(2500));
        assert_eq!(live(a)["engine_games"], 0, "{}", live(a));
    }
}

/// The engine's moves are searched in the analysis slots: with one slot, six games whose
/// engine moves first (300 ms a move) get their moves one after another, not all at once.
#[test]
fn engine_moves_wait_for_an_analysis_slot() {
    let db = fresh_db("instances-engine-slots.db");
    let server = Server::spawn(command(
        &db,
        &["--analysis-slots", "1"],
        &[("ANQI_SEAL_KEY", KEY)],
    ));
    let a = &server.addr;
    let started = Instant::now();
    let deals: Vec<Value> = (0..6)
        .map(|_| {
            let (status, deal) = post_json(
                a,
                "/v1/deal",
                &json!({"players": ["Anqi engine", "ann"], "engines": {"player1": 300}}),
            );
            assert_eq!(status, 200, "{deal}");
            deal
        })
        .collect();
    let moved = || {
        deals
            .iter()
            .filter(|deal| records_of_plies(a, deal) >= 1)
            .count()
    };
    std::thread::sleep(Duration::from_millis(800).saturating_sub(started.elapsed()));
    let early = moved();
    assert!(
        early <= 3,
        "{early} of 6 engine moves done within 0.8 s with one slot"
    );
    while moved() < 6 {
        assert!(
            started.elapsed() < Duration::from_secs(15),
            "{} of 6 engine moves",
            moved()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(live(a)["engine_searches"], 6);
}

/// A seat may hold `--streams-per-seat` streams of a game open; one more is refused with 429
/// and Retry-After, and a ticket opens one stream only.
#[test]
fn a_seats_streams_are_capped_and_a_ticket_opens_one() {
    let db = fresh_db("instances-caps.db");
    let server = Server::spawn(command(
        &db,
        &[],
        &[("ANQI_SEAL_KEY", KEY), ("ANQI_STREAMS_PER_SEAT", "2")],
    ));
    let a = &server.addr;
    let (_, deal) = post_json(a, "/v1/deal", &json!({}));
    let token = &deal["seat_tokens"]["player1"];
    let url = stream_url(a, &deal, token);
    let first = Sse::open(a, &url, "").unwrap();
    let Err((status, body)) = Sse::open(a, &url, "Connection: close\r\n") else {
        panic!("a ticket opened a second stream");
    };
    assert_eq!(status, 422, "{body}");
    assert!(body.contains("opens one stream"), "{body}");
    let second = Sse::open(a, &stream_url(a, &deal, token), "").unwrap();
    let (status, head, body) =
        common::exchange(a, "GET", &stream_url(a, &deal, token), "text/plain", "", "");
    assert_eq!(status, 429, "{body}");
    assert!(
        head.to_ascii_lowercase().contains("retry-after: 5"),
        "{head}"
    );
    let problem: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(problem["type"], "/problems/too-many-streams");
    // The other seat has its own streams; one stream closed frees its place.
    let other = Sse::open(
        a,
        &stream_url(a, &deal, &deal["seat_tokens"]["player2"]),
        "",
    );
    assert!(other.is_ok());
    drop(first);
    // The server notices a closed stream when it next writes to it: a ply.
    let (seat, action, ply) = next_action(a, &deal);
    let (status, _) = post_json(
        a,
        "/v1/play",
        &json!({"game_id": deal["game_id"], "token": deal["seat_tokens"][&seat],
                "action": action, "ply": ply}),
    );
    assert_eq!(status, 200);
    std::thread::sleep(Duration::from_millis(300));
    assert!(Sse::open(a, &stream_url(a, &deal, token), "").is_ok());
    drop(second);
}

/// A stream resumed from the start of a long game is written in pages, every ply once and in
/// order, the last with the seat's actions, exactly as a stream that followed it (a
/// xiangqi-3g game without its draw rules: a hidden game, its flips revealed on the way).
#[test]
fn a_long_games_stream_replays_from_the_start() {
    let db = fresh_db("instances-replay.db");
    let server = server(db.to_str().unwrap(), &[]);
    let a = &server.addr;
    let game = json!("xiangqi-3g");
    let (status, deal) = post_json(
        a,
        "/v1/deal",
        &json!({"game": game, "options": {"repetition": false, "no_capture": null}}),
    );
    assert_eq!(status, 200, "{deal}");
    let token = &deal["seat_tokens"]["player1"];
    let ticket = |token: &Value| {
        let (status, ticket) = post_json(
            a,
            "/v1/stream-ticket",
            &json!({"game": game, "game_id": deal["game_id"], "token": token}),
        );
        assert_eq!(status, 200, "{ticket}");
        ticket["url"].as_str().unwrap().to_owned()
    };
    let mut following = Sse::open(a, &ticket(token), "").unwrap();
    following.next().unwrap();
    let plies = 2 * records::referee::REPLAY_PAGE as usize + 88;
    let cycle = ["b0c2", "b9c7", "c2b0", "c7b9"];
    for ply in 0..plies {
        let seat = ["player1", "player2"][ply % 2];
        let (status, played) = post_json(
            a,
            "/v1/play",
            &json!({"game": game, "game_id": deal["game_id"],
                    "token": deal["seat_tokens"][seat], "action": cycle[ply % 4], "ply": ply}),
        );
        assert_eq!(status, 200, "ply {ply}: {played}");
    }
    let read_plies = |stream: &mut Sse| {
        let mut plies_read = Vec::new();
        while plies_read.len() < plies {
            let event = stream.next().unwrap();
            if event.kind == "ply" {
                plies_read.push(event);
            }
        }
        plies_read
    };
    let followed = read_plies(&mut following);
    let mut stream = Sse::open(a, &ticket(token), "Last-Event-ID: 0.0\r\n").unwrap();
    let replayed = read_plies(&mut stream);
    for (n, (f, r)) in followed.iter().zip(&replayed).enumerate() {
        assert_eq!(f.id, r.id, "ply {}", n + 1);
        assert_eq!(f.id, format!("{}.0", n + 1));
        let (mut f, mut r) = (f.data.clone(), r.data.clone());
        // The life and the seat's actions come with a stream's last ply only.
        for data in [&mut f, &mut r] {
            data.as_object_mut().unwrap().remove("life");
            data.as_object_mut().unwrap().remove("actions");
        }
        assert_eq!(f, r, "ply {}", n + 1);
        // Each ply as every seat saw it: a xiangqi-3g move is public.
        assert_eq!(f["action"], cycle[n % 4], "ply {}", n + 1);
    }
    let last = &replayed.last().unwrap().data;
    assert!(
        last.get("life").is_some() && last.get("actions").is_some(),
        "{last}"
    );
}
