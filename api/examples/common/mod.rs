//! What the service's load examples share: their arguments, the release service they start,
//! and its memory.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// The value of `--name N`, or `default`.
pub fn arg(name: &str, default: u64) -> u64 {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The service's binary: `ANQI_API_BIN`, or the workspace's release build.
pub fn service_binary() -> String {
    std::env::var("ANQI_API_BIN").unwrap_or_else(|_| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../target/release/anqi-api").to_owned()
    })
}

/// Starts `bin` on a SQLite store in `dir` on any free port, with `env` besides, its log
/// (at `ANQI_LOG`, else errors only) sent to `log` or nowhere: the process and its address.
pub fn start_service(
    bin: &str,
    dir: &std::path::Path,
    env: &[(&str, &str)],
    log: Option<&str>,
) -> (Child, String) {
    let mut command = Command::new(bin);
    command
        .env("ANQI_PORT", "0")
        .env("DATABASE_URL", dir.join("store.db"))
        .env("ANQI_LOG", if log.is_some() { "info" } else { "error" })
        .env("ANQI_MAX_CONNECTIONS", "25000")
        .stdout(Stdio::piped())
        .stderr(match log {
            Some(path) => Stdio::from(std::fs::File::create(path).unwrap()),
            None => Stdio::null(),
        });
    for (k, v) in env {
        command.env(k, v);
    }
    let mut child = command
        .spawn()
        .unwrap_or_else(|e| panic!("{bin}: {e} (cargo build --release -p api first)"));
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line.trim().rsplit("http://").next().unwrap().to_owned();
    (child, addr)
}

/// A process's resident memory, in KiB.
pub fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap()
}
