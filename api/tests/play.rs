//! The page `/play/` in a real browser (issues 43 and 57): the real `anqi-api` binary and
//! headless Chromium (Debian's, driven by Selenium: `tests/browser/play.py`). Two browser
//! sessions play a Banqi game dealt by the page's form with a friend's link, by clicks, each
//! seeing the other's plies arrive without reloading, across a restart of the service (the
//! script asks this test to stop and start it), and one resigns; a dark Luzhanqi game against the engine shows only the seat's knowledge at every
//! ply and ends stored; a clock runs out and ends a game; every game against the engine at a
//! desktop's and a phone's size, in English and in 繁體中文 (issue 60: one screen, the
//! coordinates, a refused click's words, the last move, the engine's answer to a draw offer,
//! the result from the player's side, the review link, no console error).
//!
//! `.ci/run` installs Chromium, chromedriver and Selenium and sets `ANQI_REQUIRE_BROWSER`;
//! elsewhere, without them, the test says so and passes.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

mod common;
use common::Server;

#[test]
fn people_play_on_the_page_by_clicks() {
    if let Some(why) = common::browser_missing() {
        assert!(
            std::env::var_os("ANQI_REQUIRE_BROWSER").is_none(),
            "ANQI_REQUIRE_BROWSER is set but {why}"
        );
        eprintln!("note: the browser test is skipped: {why}");
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-play");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // One port for the service's two lives: the pages reconnect to where they were.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
        .to_string();
    let start = || {
        let port = port.as_str();
        Server::spawn(common::command(
            &dir.join("store.db"),
            &[],
            &[("ANQI_PORT", port)],
        ))
    };
    let mut server = Some(start());
    let base = format!("http://{}", server.as_ref().unwrap().addr);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/browser/play.py");
    let mut child = Command::new("python3")
        .arg(script)
        .arg(&base)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run python3");
    let mut to_script = child.stdin.take().unwrap();
    let mut text = String::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        match line.as_str() {
            // The script asks for the service to stop (killed: nothing flushed) and start.
            "STOP" => {
                drop(server.take());
                writeln!(to_script, "stopped").unwrap();
            }
            "START" => {
                server = Some(start());
                writeln!(to_script, "started").unwrap();
            }
            _ => text += &(line + "\n"),
        }
    }
    let out = child.wait_with_output().unwrap();
    text += &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the browser test failed:\n{text}");
    for part in [
        "two friends",
        "across a restart",
        "dark Luzhanqi against the engine",
        "a clock runs out",
        "every game: banqi (tcga) at 1280×720 in en",
        "every game: xiangqi-3g (xiangqi-3g) at 390×844 in zh-TW",
    ] {
        assert!(text.contains(part), "{text}");
    }
    assert!(text.contains("You lost by time."), "{text}");
    assert_eq!(text.matches("every game: ").count(), 14, "{text}");
}
