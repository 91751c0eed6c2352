//! The real `anqi-api` binary on an ephemeral port, spoken to over TCP.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

struct Server {
    child: Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(args: &[&str]) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_anqi-api"))
        .args(args)
        .env("ANQI_PORT", "0")
        .env(
            "DATABASE_URL",
            std::env::temp_dir().join(format!(
                "anqi-server-{}-{}.db",
                std::process::id(),
                COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            )),
        )
        .env_remove("ANQI_TOKEN")
        .env_remove("ANQI_HOST")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start anqi-api");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line.trim().rsplit("http://").next().unwrap().to_owned();
    Server { child, addr }
}

/// One HTTP/1.1 exchange: (status, content type, body).
fn request(
    addr: &str,
    method: &str,
    path: &str,
    content_type: &str,
    body: &str,
) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let status = text[9..12].parse().unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let ctype = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-type: ")
                .map(str::to_owned)
        })
        .unwrap_or_default();
    (status, ctype, body.to_owned())
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
    ] {
        assert!(text.contains(flag), "{flag} in {text}");
    }
}

#[test]
fn stores_records_with_a_token_from_the_environment() {
    let db = std::env::temp_dir().join(format!("anqi-server-token-{}.db", std::process::id()));
    let mut child = Command::new(env!("CARGO_BIN_EXE_anqi-api"))
        .env("ANQI_PORT", "0")
        .env("DATABASE_URL", &db)
        .env("ANQI_TOKEN", "t0ken")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let server = Server {
        child,
        addr: line.trim().rsplit("http://").next().unwrap().to_owned(),
    };
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
