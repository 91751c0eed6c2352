//! The real `anqi-api` binary on an ephemeral port, spoken to over TCP.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

mod common;
use common::{Server, fresh_db, post_json, request, request_with};

fn start(args: &[&str]) -> Server {
    start_with_env(args, &[])
}

/// Starts the binary with `env` (a fresh SQLite store unless `env` names a `DATABASE_URL`).
fn start_with_env(args: &[&str], env: &[(&str, &str)]) -> Server {
    let mut command = Command::new(env!("CARGO_BIN_EXE_anqi-api"));
    command.env(
        "DATABASE_URL",
        fresh_db(&format!(
            "anqi-server-{}.db",
            COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        )),
    );
    for (k, v) in env {
        command.env(k, v);
    }
    command
        .args(args)
        .env("ANQI_PORT", "0")
        .env_remove("ANQI_TOKEN")
        .env_remove("ANQI_HOST")
        .env_remove("ANQI_SEAL_KEY_FILE")
        .stderr(Stdio::piped());
    Server::spawn(command)
}

#[test]
fn serves_the_api_over_tcp() {
    let server = start(&[]);
    let a = &server.addr;
    let (status, _, body) = request(a, "GET", "/v1/health", "text/plain", "");
    assert_eq!(status, 200);
    assert!(body.contains("\"ok\""), "{body}");
    let (status, _, body) = request(a, "GET", "/v1/presets", "text/plain", "");
    assert_eq!(status, 200);
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["presets"].as_array().unwrap().len(), 8);
    // A record with an illegal second ply.
    let (status, _, body) = request(
        a,
        "POST",
        "/v1/validate",
        "application/json",
        r#"{"actions": ["b8(G)", "b8-b7"]}"#,
    );
    assert_eq!(status, 200);
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        (v["valid"].as_bool(), v["error"]["ply"].as_u64()),
        (Some(false), Some(2))
    );
    // Errors are problems, even for routes that do not exist.
    let (status, ctype, body) = request(a, "GET", "/nowhere", "text/plain", "");
    assert_eq!(
        (status, ctype.as_str()),
        (404, "application/problem+json"),
        "{body}"
    );
    let (status, ctype, _) = request(a, "POST", "/v1/play", "application/json", "{not json");
    assert_eq!((status, ctype.as_str()), (400, "application/problem+json"));
    // Swagger UI, offline.
    let (status, ctype, _) = request(a, "GET", "/docs/", "text/plain", "");
    assert_eq!(status, 200);
    assert!(ctype.starts_with("text/html"));
}

#[test]
fn limits_come_from_flags_and_logs_are_json_lines() {
    let mut server = start(&["--max-body", "100", "--log-format", "json"]);
    let big = format!(r#"{{"actions": [{}]}}"#, vec!["\"a1\""; 50].join(","));
    let (status, ctype, _) = request(
        &server.addr,
        "POST",
        "/v1/validate",
        "application/json",
        &big,
    );
    assert_eq!((status, ctype.as_str()), (413, "application/problem+json"));
    // Stop it with SIGTERM: it shuts down gracefully and exits 0.
    let pid = server.child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    let status = server.child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    let mut logs = String::new();
    server
        .child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut logs)
        .unwrap();
    let lines: Vec<serde_json::Value> = logs
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|_| panic!("not JSON: {l}")))
        .collect();
    assert!(
        lines
            .iter()
            .any(|l| l["fields"]["status"] == 413 && l["fields"]["path"] == "/v1/validate"),
        "{logs}"
    );
    assert!(
        lines.iter().any(|l| l["fields"]["message"] == "stopped"),
        "{logs}"
    );
}

#[test]
fn help_lists_every_setting() {
    let out = Command::new(env!("CARGO_BIN_EXE_anqi-api"))
        .arg("--help")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    for flag in [
        "--host",
        "--port",
        "--max-body",
        "--max-json-depth",
        "--log-format",
        "ANQI_PORT",
        "--read-only",
        "--client-request-timeout",
        "--keep-alive",
        "--max-connections",
        "--max-plies",
        "--game-expiry",
    ] {
        assert!(text.contains(flag), "{flag} in {text}");
    }
}

#[test]
fn stores_records_with_a_token_from_the_environment() {
    let db = fresh_db("anqi-server-token.db");
    let mut command = Command::new(env!("CARGO_BIN_EXE_anqi-api"));
    command
        .env("ANQI_PORT", "0")
        .env("DATABASE_URL", &db)
        .env("ANQI_TOKEN", "t0ken")
        .stderr(Stdio::null());
    let server = Server::spawn(command);
    let record = r#"{"actions": ["b8(G)", "d8(g)"]}"#;
    let (status, ctype, _) = request(
        &server.addr,
        "POST",
        "/v1/games",
        "application/json",
        record,
    );
    assert_eq!((status, ctype.as_str()), (401, "application/problem+json"));
    // With the token (a raw request: the helper sends no Authorization header).
    let mut s = TcpStream::connect(&server.addr).unwrap();
    write!(
        s,
        "POST /v1/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer t0ken\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{record}",
        record.len()
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    assert!(text.starts_with("HTTP/1.1 201"), "{text}");
    let (status, _, body) = request(&server.addr, "GET", "/v1/games/1", "text/plain", "");
    assert_eq!(status, 200);
    assert!(body.contains("\"d8(g)\""), "{body}");
    drop(server);
    // The SQLite file is where DATABASE_URL said.
    assert!(db.exists());
}

/// The referee on the real binary: a whole Banqi game dealt, viewed, listed and played with
/// the game's token only, then validated with the token; a second instance on the same
/// ledger (the same SQLite file, the same key) answers about the same game, and the finished
/// game is in the store.
#[test]
fn a_whole_game_refereed_with_tokens_only() {
    let db = fresh_db("anqi-server-shared-ledger.db");
    let db = db.display().to_string();
    // Request logs off: nobody reads the server's stderr here, and a full pipe would stall it.
    let env = [
        (
            "ANQI_SEAL_KEY",
            "e2e:0E76kD+Md5acKsFHOsUp4e1SCKz2Eh9/Q9VaX8R5a+w=",
        ),
        ("ANQI_LOG", "warn"),
        ("DATABASE_URL", db.as_str()),
    ];
    let server = start_with_env(&[], &env);
    let a = server.addr.clone();
    let post = |path: &str, body: serde_json::Value| {
        let (status, _, text) = request(&a, "POST", path, "application/json", &body.to_string());
        assert_eq!(status, 200, "{path}: {text}");
        serde_json::from_str::<serde_json::Value>(&text).unwrap()
    };
    let deal = post(
        "/v1/deal",
        serde_json::json!({"seed": 2026, "players": ["east", "west"]}),
    );
    assert!(deal.get("layout").is_none(), "no layout in clear");
    let (token, game_id) = (deal["token"].clone(), deal["game_id"].clone());
    let mut position = deal["position"].clone();
    let mut sent = Vec::new();
    let mut end = serde_json::Value::Null;
    while end.is_null() && sent.len() < 1000 {
        // The game so far: the referee replays it, so the draw and chase rules see it all.
        let mut so_far = deal["record"].clone();
        so_far["actions"] = serde_json::json!(sent);
        let sealed = serde_json::json!({"record": so_far, "token": token, "game_id": game_id});
        let actions = post("/v1/actions", sealed.clone());
        assert_eq!(actions["position"], position);
        let seat = actions["to_move"].as_str().unwrap().to_owned();
        let mut view_request = sealed.clone();
        view_request["player"] = serde_json::json!(seat);
        let view = post("/v1/view", view_request);
        assert_eq!(view["your_turn"], true);
        let list = view["actions"].as_array().unwrap();
        let choice = list[sent.len() * 7 % list.len()].clone();
        let mut play = sealed;
        play["action"] = choice.clone();
        let played = post("/v1/play", play);
        position = played["position"].clone();
        end = played
            .get("end")
            .cloned()
            .unwrap_or(serde_json::Value::Null);
        sent.push(choice);
    }
    assert!(!end.is_null(), "the game ended by the rules");
    let mut record = deal["record"].clone();
    record["actions"] = serde_json::json!(sent);
    let validate = |addr: &str| {
        request_with(
            addr,
            "POST",
            "/v1/validate",
            "application/json",
            &format!("Anqi-Token: {}\r\n", token.as_str().unwrap()),
            &record.to_string(),
        )
    };
    let (status, _, text) = validate(&a);
    assert_eq!(status, 200, "{text}");
    let verdict: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(verdict["valid"], true, "{verdict}");
    assert_eq!(verdict["final_position"], position);
    assert_eq!(verdict["derived"]["reason"], end["reason"]);
    assert_eq!(verdict["derived"]["outcome"], end["outcome"]);
    // A second instance with the same key and ledger answers about the same game.
    let other = start_with_env(&[], &env);
    let (status, _, text) = validate(&other.addr);
    assert_eq!(status, 200, "{text}");
    assert!(text.contains("\"valid\":true"), "{text}");
    // The finished game is stored, with its layout (public now) and its players.
    let (status, _, text) = request(&a, "GET", "/v1/games?game=banqi", "application/json", "");
    assert_eq!(status, 200, "{text}");
    let listed: serde_json::Value = serde_json::from_str(&text).unwrap();
    let stored = &listed["games"][0];
    assert_eq!(stored["seats"][0]["name"], "east", "{text}");
    assert_eq!(stored["plies"], serde_json::json!(sent.len()), "{text}");
    let (status, _, text) = request(
        &a,
        "GET",
        &format!("/v1/games/{}", stored["id"]),
        "application/json",
        "",
    );
    assert_eq!(status, 200, "{text}");
    let fetched: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert!(fetched["record"]["layout"].is_string(), "{text}");
    assert_eq!(fetched["record"]["metadata"]["game_id"], game_id, "{text}");
}

/// Two instances of the real binary sharing one ledger (a SQLite file, and a PostgreSQL
/// database when `ANQI_TEST_POSTGRES_URL` names a server) referee one game alternately: each
/// ply is played on the other instance, each sees every ply the other committed, and a ply
/// already committed on one is refused on the other.
#[test]
fn two_instances_referee_one_game_alternately() {
    use serde_json::{Value, json};
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-two-instances");
    for url in records::store::test_databases(&dir, "two_instances") {
        let env = [
            (
                "ANQI_SEAL_KEY",
                "pair:LP34eCLlsx2tej0Qn5yZBy7BEqeDHMHp34xyo9Zzesc=",
            ),
            ("ANQI_LOG", "warn"),
            ("DATABASE_URL", url.as_str()),
        ];
        let servers = [start_with_env(&[], &env), start_with_env(&[], &env)];
        let post = |server: &Server, path: &str, body: &Value| post_json(&server.addr, path, body);
        let (status, deal) = post(&servers[0], "/v1/deal", &json!({"players": ["a", "b"]}));
        assert_eq!(status, 200, "{url}: {deal}");
        let seat = |ply: usize| json!({"game_id": deal["game_id"], "token": deal["seat_tokens"][["player1", "player2"][ply % 2]]});
        for ply in 0..30usize {
            let here = &servers[ply % 2];
            let (status, listed) = post(here, "/v1/actions", &seat(ply));
            assert_eq!(
                (status, &listed["ply"]),
                (200, &json!(ply)),
                "{url}: {listed}"
            );
            if listed.get("end").is_some() {
                break;
            }
            let action =
                listed["actions"][ply * 7 % listed["count"].as_u64().unwrap() as usize].clone();
            let mut play = seat(ply);
            play["action"] = action;
            play["ply"] = json!(ply);
            let (status, played) = post(here, "/v1/play", &play);
            assert_eq!(status, 200, "{url}: {played}");
            // The other instance refuses another action at that ply, and answers the same one alike.
            let other = &servers[(ply + 1) % 2];
            let (status, again) = post(other, "/v1/play", &play);
            assert_eq!((status, &again), (200, &played), "{url}");
            let mut fork = seat(ply);
            fork["ply"] = json!(ply);
            fork["action"] = listed["actions"]
                .as_array()
                .unwrap()
                .iter()
                .find(|a| **a != play["action"])
                .cloned()
                .unwrap_or(play["action"].clone());
            if fork["action"] != play["action"] {
                let (status, refused) = post(other, "/v1/play", &fork);
                assert_eq!(status, 409, "{url}: {refused}");
            }
        }
    }
}

/// A dark Luzhanqi game refereed over TCP: each side's setup checked, both sealed by a deal,
/// then the players, holding only the token, are told announcements and masked positions.
#[test]
fn referees_a_dark_luzhanqi_game_over_tcp() {
    use serde_json::{Value, json};
    let server = start(&[]);
    let a = &server.addr;
    let post = |path: &str, body: Value| {
        let (status, _, text) = request(a, "POST", path, "application/json", &body.to_string());
        (
            status,
            serde_json::from_str::<Value>(&text).unwrap_or(Value::Null),
            text,
        )
    };
    let red = "RTETR/C1E1J/DP1PT/E1G1J/LCMBP/LFLDB";
    let black = "lfldb/lcmbp/e1g1j/dp1pt/c1e1j/rtetr";
    let (status, v, _) = post("/v1/luzhanqi/setup", json!({"side": "red", "setup": red}));
    assert_eq!((status, v["valid"].as_bool()), (200, Some(true)));
    let (status, v, _) = post(
        "/v1/luzhanqi/setup",
        json!({"side": "black", "setup": "lfldb/lcmbp/e1g1j/dp1pt/c1e1j/rtbtr"}),
    );
    assert_eq!((status, v["valid"].as_bool()), (200, Some(false)));
    assert_eq!(v["error"]["code"], "wrong_count");
    let (status, deal, text) = post(
        "/v1/deal",
        json!({"game": "luzhanqi", "preset": "dark", "layout": {"red": red, "black": black}}),
    );
    assert_eq!(status, 200, "{text}");
    assert!(
        deal["position"].is_null() && deal["layout"].is_null(),
        "{text}"
    );
    assert!(!text.contains(red) && !text.contains(black), "{text}");
    let mut record = deal["record"].clone();
    record["actions"] = json!([]);
    let sealed = |record: &Value| json!({"game": "luzhanqi", "record": record, "token": deal["token"], "game_id": deal["game_id"]});
    // Red's brigadier on a6 attacks black's brigadier on a7: both die, and that
    // is all either player is told.
    let mut play = sealed(&record);
    play["action"] = json!("a6-a7");
    let (status, played, text) = post("/v1/play", play);
    assert_eq!(status, 200, "{text}");
    assert_eq!(played["effect"], "both_died");
    assert!(
        played["position"].as_str().unwrap().starts_with("?????/"),
        "{text}"
    );
    assert!(!text.contains("rtetr") && !text.contains("1tetr"), "{text}");
    record["actions"] = json!(["a6-a7"]);
    let mut view = sealed(&record);
    view["player"] = json!("player2");
    let (status, seen, text) = post("/v1/view", view);
    assert_eq!(status, 200, "{text}");
    assert_eq!(seen["announcements"][0]["result"], "both_die");
    assert_eq!(seen["board"][5], "-tetr", "black sees its own pieces");
    assert_eq!(seen["board"][6], "-????", "and none of red's");
    // The masked position renders: red's pieces as backs.
    let (status, ctype, svg) = request(
        a,
        "POST",
        "/v1/render",
        "application/json",
        &json!({"game": "luzhanqi", "position": seen["position"], "last_action": "a6-a7"})
            .to_string(),
    );
    assert_eq!((status, ctype.as_str()), (200, "image/svg+xml"), "{svg}");
    assert_eq!(svg.matches(r#"class="unknown""#).count(), 24);
    // A bad setup in a deal is the caller's problem, said precisely.
    let (status, v, _) = post(
        "/v1/deal",
        json!({"game": "luzhanqi", "layout": {"red": "RTBTR/C1E1J/DP1PT/E1G1J/LCMBP/LFLDE", "black": black}}),
    );
    assert_eq!(
        (
            status,
            v["type"].as_str().map(|t| t.ends_with("malformed-layout"))
        ),
        (400, Some(true)),
        "{v}"
    );
    assert!(v["detail"].as_str().unwrap().contains("bomb"), "{v}");
}

/// Writes are protected by default: on a non-loopback address, a writable store without a
/// token refuses to start and says how to set one; read-only it starts, and refuses writes.
#[test]
fn an_open_address_needs_a_token_or_read_only() {
    let db = fresh_db("anqi-server-open.db");
    let output = Command::new(env!("CARGO_BIN_EXE_anqi-api"))
        .args(["--host", "0.0.0.0", "--port", "0"])
        .env("DATABASE_URL", &db)
        .env_remove("ANQI_TOKEN")
        .env_remove("ANQI_HOST")
        .env_remove("ANQI_READ_ONLY")
        .output()
        .expect("run anqi-api");
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.contains("ANQI_TOKEN") && err.contains("--read-only"),
        "{err}"
    );
    // Read-only on the same address: it serves, and refuses to store.
    let server = start_with_env(&["--host", "0.0.0.0", "--read-only"], &[]);
    let port = server.addr.rsplit(':').next().unwrap();
    let local = format!("127.0.0.1:{port}");
    let (status, ctype, body) = request(
        &local,
        "POST",
        "/v1/games",
        "application/json",
        r#"{"actions": ["b8(G)"]}"#,
    );
    assert_eq!(
        (status, ctype.as_str()),
        (403, "application/problem+json"),
        "{body}"
    );
    assert!(body.contains("read-only"), "{body}");
    let (status, _, _) = request(&local, "GET", "/v1/games", "text/plain", "");
    assert_eq!(status, 200, "reads still work");
}

/// A client too slow to send its request's head is answered 408 and dropped: it holds no
/// worker (the timeout is configurable).
#[test]
fn a_slow_client_times_out() {
    // Long enough for a loaded test machine to read a whole request, short enough to wait for.
    let server = start(&["--client-request-timeout", "1500"]);
    let mut s = TcpStream::connect(&server.addr).unwrap();
    write!(s, "GET /v1/health HTTP/1.1\r\nHost: x\r\n").unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(5)))
        .unwrap();
    let mut text = String::new();
    let _ = s.read_to_string(&mut text);
    assert!(text.starts_with("HTTP/1.1 408"), "{text:?}");
    // The server still answers others.
    let (status, _, _) = request(&server.addr, "GET", "/v1/health", "text/plain", "");
    assert_eq!(status, 200);
}

/// A request too large for actix-http to read (a line of 200 KB, or 100 headers) is answered
/// 431 with a problem like every other error, also after an answer on the same connection.
#[test]
fn a_request_too_large_is_a_problem() {
    let server = start(&[]);
    let answer = |request: &[u8]| {
        let mut s = TcpStream::connect(&server.addr).unwrap();
        s.set_read_timeout(Some(std::time::Duration::from_secs(10)))
            .unwrap();
        // The server stops reading at 128 KiB: a write past that may fail.
        let _ = s.write_all(request);
        let mut text = Vec::new();
        let _ = s.read_to_end(&mut text);
        String::from_utf8(text).unwrap()
    };
    let problem = |text: &str| -> serde_json::Value {
        let at = text
            .rfind("HTTP/1.1 431 ")
            .unwrap_or_else(|| panic!("{text:.300}"));
        let (head, body) = text[at..].split_once("\r\n\r\n").unwrap();
        assert!(
            head.contains("\r\ncontent-type: application/problem+json\r\n"),
            "{head}"
        );
        assert!(head.contains(&format!("\r\ncontent-length: {}\r\n", body.len())));
        serde_json::from_str(body).unwrap()
    };
    let actions = vec!["a1(K)"; 40_000].join(",");
    let long = format!("GET /v1/explorer?game=banqi&actions={actions} HTTP/1.1\r\nHost: x\r\n\r\n");
    assert!(long.len() > 200_000);
    let p = problem(&answer(long.as_bytes()));
    assert_eq!(p["type"], "/problems/request-too-large");
    assert_eq!(p["status"], 431);
    assert_eq!(p["code"], "request_too_large");
    assert!(p["detail"].as_str().unwrap().contains("128 KiB"), "{p}");
    // Too many headers.
    let headers: String = (0..100).map(|i| format!("X-Header-{i}: {i}\r\n")).collect();
    let many = format!("GET /v1/health HTTP/1.1\r\nHost: x\r\n{headers}\r\n");
    assert_eq!(problem(&answer(many.as_bytes()))["status"], 431);
    // After an answer on a kept-alive connection: the first answer as it was, then the problem.
    let both = format!("GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n{long}");
    let text = answer(both.as_bytes());
    assert!(text.starts_with("HTTP/1.1 200 OK\r\n"), "{text:.300}");
    assert_eq!(problem(&text)["type"], "/problems/request-too-large");
    // A long line the service reads (under 128 KiB) is answered by the app as before.
    let (status, _, body) = request(
        &server.addr,
        "GET",
        &format!(
            "/v1/explorer?game=banqi&actions={}",
            vec!["a1(K)"; 10_000].join(",")
        ),
        "text/plain",
        "",
    );
    assert_eq!(status, 422, "{body:.300}");
    let (status, _, _) = request(&server.addr, "GET", "/v1/health", "text/plain", "");
    assert_eq!(status, 200);
}

/// The README's command keeps its games: with no key configured, the first start makes one
/// beside the SQLite store (mode 0600), and a restart on the same store opens the same tokens.
#[test]
fn a_restart_without_a_configured_key_keeps_the_tokens() {
    use serde_json::{Value, json};
    let db = fresh_db("anqi-server-restart-key.db");
    let key_file = std::path::PathBuf::from(format!("{}.seal-key", db.display()));
    let _ = std::fs::remove_file(&key_file);
    let env = [("DATABASE_URL", db.to_str().unwrap()), ("ANQI_LOG", "warn")];
    let post = |server: &Server, path: &str, body: &Value| post_json(&server.addr, path, body);
    let first = start_with_env(&[], &env);
    let (status, deal) = post(&first, "/v1/deal", &json!({"players": ["a", "b"]}));
    assert_eq!(status, 200, "{deal}");
    let seat = json!({"game_id": deal["game_id"], "token": deal["seat_tokens"]["player1"]});
    let (status, before) = post(&first, "/v1/actions", &seat);
    assert_eq!(status, 200, "{before}");
    drop(first);
    let text = std::fs::read_to_string(&key_file).expect("the key file beside the store");
    assert!(text.lines().any(|l| l.starts_with("auto-")), "{text}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&key_file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "{mode:o}");
    }
    let second = start_with_env(&[], &env);
    let (status, after) = post(&second, "/v1/actions", &seat);
    assert_eq!((status, &after), (200, &before));
    // A key configured later seals new games; the file's key still opens the old ones.
    let configured = [
        env[0],
        env[1],
        (
            "ANQI_SEAL_KEY",
            "k2027:QbB1dHIkYeexfsYq/M9UQ7vyBdXxZS2TNpCphnsR/f8=",
        ),
    ];
    drop(second);
    let third = start_with_env(&[], &configured);
    let (status, again) = post(&third, "/v1/actions", &seat);
    assert_eq!((status, &again), (200, &before));
    let (_, dealt) = post(&third, "/v1/deal", &json!({}));
    assert!(
        dealt["token"].as_str().unwrap().starts_with("v1.k2027."),
        "{dealt}"
    );
    assert_eq!(
        std::fs::read_to_string(&key_file).unwrap(),
        text,
        "the file is never rewritten"
    );
}

/// Keys that are not random are refused at start, and a PostgreSQL store without configured
/// keys refuses to start (instances sharing it must share keys): each says what to do.
#[test]
fn weak_keys_and_a_shared_store_without_keys_refuse_to_start() {
    let run = |env: &[(&str, &str)]| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_anqi-api"));
        command
            .args(["--port", "0"])
            .env("DATABASE_URL", fresh_db("anqi-server-weak.db"))
            .env_remove("ANQI_SEAL_KEY")
            .env_remove("ANQI_SEAL_KEY_FILE");
        for (k, v) in env {
            command.env(k, v);
        }
        let output = command.output().expect("run anqi-api");
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    for key in [
        "zeros:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
        "counter:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
    ] {
        let (code, err) = run(&[("ANQI_SEAL_KEY", key)]);
        assert_eq!(code, Some(2), "{key}: {err}");
        assert!(
            err.contains("not random enough") && err.contains("/dev/urandom"),
            "{err}"
        );
    }
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-weak-keys");
    if let Some(url) = records::store::test_databases(&dir, "no_keys").get(1) {
        let (code, err) = run(&[("DATABASE_URL", url)]);
        assert_eq!(code, Some(2), "{err}");
        assert!(
            err.contains("ANQI_SEAL_KEY") && err.contains("every instance"),
            "{err}"
        );
    }
}
