//! The page `/play/` in a real browser (issue 43): the real `anqi-api` binary and headless
//! Chromium (Debian's, driven by Selenium: `tests/browser/play.py`). Two browser sessions play
//! a Banqi game by clicks, each seeing the other's plies arrive without reloading, and one
//! resigns; a dark Luzhanqi game against the engine shows only the seat's knowledge at every
//! ply and ends stored; a clock runs out and ends a game.
//!
//! `.ci/run` installs Chromium, chromedriver and Selenium and sets `ANQI_REQUIRE_BROWSER`;
//! elsewhere, without them, the test says so and passes.

use std::path::Path;
use std::process::Command;

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
    let server = Server::spawn(common::command(&dir.join("store.db"), &[], &[]));
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/browser/play.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(format!("http://{}", server.addr))
        .output()
        .expect("run python3");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the browser test failed:\n{text}");
    for part in [
        "two friends",
        "dark Luzhanqi against the engine",
        "a clock runs out",
    ] {
        assert!(text.contains(part), "{text}");
    }
    assert!(text.contains("won by time"), "{text}");
}
