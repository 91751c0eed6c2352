//! The real `anqi-api` binary as the end-to-end tests start it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

/// A running server, killed when dropped.
pub struct Server {
    pub child: Child,
    /// `host:port`, as the server printed it.
    pub addr: String,
}

impl Server {
    /// Starts `command` (the binary, configured) and waits for the line that says where it
    /// listens (the first on stdout; with `ANQI_PORT=0` the port is the system's choice).
    pub fn spawn(mut command: Command) -> Server {
        let mut child = command
            .stdout(Stdio::piped())
            .spawn()
            .expect("start anqi-api");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line.trim().rsplit("http://").next().unwrap().to_owned();
        Server { child, addr }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A fresh SQLite file for one server of a test binary (under cargo's scratch directory, so
/// that runs do not pile files up in the system's temporary directory). Its key file, if an
/// earlier run left one, stays: it is the store's key, and a fresh store may keep it.
pub fn fresh_db(name: &str) -> std::path::PathBuf {
    let db = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    db
}

/// In-process settings whose referee keeps its ledger in a SQLite file shared by this test
/// binary's tests (made fresh once per run, under cargo's scratch directory).
pub fn with_store(limits: api::Limits) -> api::Settings {
    static STORE: std::sync::OnceLock<records::store::Store> = std::sync::OnceLock::new();
    let store = STORE.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-ledgers");
        let _ = std::fs::create_dir_all(&dir);
        let name = std::env::current_exe()
            .ok()
            .and_then(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
            .unwrap_or_else(|| "tests".into());
        let db = dir.join(format!("{name}.db"));
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
        }
        records::store::Store::open(&db.display().to_string()).unwrap()
    });
    api::Settings {
        limits,
        store: Some(store.clone()),
        ..api::Settings::default()
    }
}

/// A JSON POST: (status, the answer as JSON, or null when it is not).
pub fn post_json(addr: &str, path: &str, body: &serde_json::Value) -> (u16, serde_json::Value) {
    let (status, _, text) = request(addr, "POST", path, "application/json", &body.to_string());
    (
        status,
        serde_json::from_str(&text).unwrap_or(serde_json::Value::Null),
    )
}

/// One HTTP/1.1 exchange: (status, content type, body).
pub fn request(
    addr: &str,
    method: &str,
    path: &str,
    content_type: &str,
    body: &str,
) -> (u16, String, String) {
    request_with(addr, method, path, content_type, "", body)
}

/// [`request`] with extra header lines (each ending in CRLF).
pub fn request_with(
    addr: &str,
    method: &str,
    path: &str,
    content_type: &str,
    headers: &str,
    body: &str,
) -> (u16, String, String) {
    let (status, head, body) = exchange(addr, method, path, content_type, headers, body);
    let ctype = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-type: ")
                .map(str::to_owned)
        })
        .unwrap_or_default();
    (status, ctype, body)
}

/// One HTTP/1.1 exchange with extra header lines: (status, the answer's head, its body).
pub fn exchange(
    addr: &str,
    method: &str,
    path: &str,
    content_type: &str,
    headers: &str,
    body: &str,
) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: {content_type}\r\n{headers}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let status = text[9..12].parse().unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    (status, head.to_owned(), body.to_owned())
}

/// Plays `game` on (its seats' tokens, each on its turn, the `k`-th legal action by a fixed
/// rule) until it ends or `until` plies are committed. Gives how it ended, if it did.
pub fn play_on(
    addr: &str,
    game: &serde_json::Value,
    deal: &serde_json::Value,
    until: u64,
) -> Option<serde_json::Value> {
    loop {
        // The game's own token lists the seat to move and its actions.
        let (status, listed) = post_json(
            addr,
            "/v1/actions",
            &serde_json::json!({"game": game, "game_id": deal["game_id"], "token": deal["token"]}),
        );
        assert_eq!(status, 200, "{listed}");
        if let Some(end) = listed.get("end") {
            return Some(end.clone());
        }
        let ply = listed["ply"].as_u64().unwrap();
        if ply >= until {
            return None;
        }
        let seat = listed["to_move"].as_str().unwrap();
        let actions = listed["actions"].as_array().unwrap();
        let action = &actions[(ply as usize * 7 + 3) % actions.len()];
        let (status, played) = post_json(
            addr,
            "/v1/play",
            &serde_json::json!({"game": game, "game_id": deal["game_id"], "token": deal["seat_tokens"][seat],
                    "action": action, "ply": ply}),
        );
        assert_eq!(status, 200, "{game} ply {ply}: {played}");
    }
}

/// The binary on `db` with `args` and `env` (no key configured unless `env` sets one).
pub fn command(db: &std::path::Path, args: &[&str], env: &[(&str, &str)]) -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_anqi-api"));
    command
        .args(args)
        .env("ANQI_PORT", "0")
        .env("DATABASE_URL", db)
        .env("ANQI_LOG", "warn")
        .env_remove("ANQI_TOKEN")
        .env_remove("ANQI_HOST")
        .env_remove("ANQI_SEAL_KEY")
        .env_remove("ANQI_SEAL_KEY_FILE")
        .stderr(std::process::Stdio::null());
    for (k, v) in env {
        command.env(k, v);
    }
    command
}

/// Why a browser test cannot run here, if it cannot: Debian's Chromium and chromedriver, and
/// Selenium (`api/tests/browser/requirements.txt`).
pub fn browser_missing() -> Option<String> {
    for tool in ["/usr/bin/chromium", "/usr/bin/chromedriver"] {
        if !std::path::Path::new(tool).exists() {
            return Some(format!(
                "{tool} is not installed (Debian: chromium chromium-driver)"
            ));
        }
    }
    let selenium = Command::new("python3")
        .args(["-c", "import selenium"])
        .status()
        .is_ok_and(|s| s.success());
    (!selenium)
        .then(|| "Selenium is not installed (pip: api/tests/browser/requirements.txt)".into())
}
