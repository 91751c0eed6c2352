//! The viewer (`GET /view/`) in a real browser: the real `anqi-api` binary with a fresh record
//! store holding one game of each of the four games, and headless Chromium (Debian's, driven
//! through its chromedriver by Selenium: `tests/browser/viewer.py`) stepping through each game
//! with the arrow keys, the buttons and the ply list. The first screen's screenshot is compared
//! with the reviewed one in `docs/screenshots/viewer.png` (`UPDATE_PICTURES=1` writes it).
//!
//! `.ci/run` installs Chromium, chromedriver and Selenium and sets `ANQI_REQUIRE_BROWSER`;
//! elsewhere, without them, the test says so and passes.

use std::path::Path;
use std::process::Command;

use records::core::scoring::steps;
use records::games::GameKind;
use records::with_game;
use serde_json::json;

mod common;
use common::{Server, request};

const SCREENSHOT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../docs/screenshots/viewer.png"
);

/// A dark Luzhanqi game refereed by the service, two plies in, and what black's seat token
/// is told at each ply: the viewer opened with that token must show exactly these.
fn dark_luzhanqi_seat(server: &Server) -> serde_json::Value {
    use serde_json::Value;
    let post = |path: &str, body: Value| {
        let (status, _, text) = request(
            &server.addr,
            "POST",
            path,
            "application/json",
            &body.to_string(),
        );
        assert_eq!(status, 200, "{path}: {text}");
        serde_json::from_str::<Value>(&text).unwrap()
    };
    let red = "RTETR/C1E1J/DP1PT/E1G1J/LCMBP/LFLDB";
    let black = "lfldb/lcmbp/e1g1j/dp1pt/c1e1j/rtetr";
    let deal = post(
        "/v1/deal",
        json!({"game": "luzhanqi", "preset": "dark", "layout": {"red": red, "black": black}}),
    );
    let seat = |player: &str| json!({"game": "luzhanqi", "game_id": deal["game_id"], "token": deal["seat_tokens"][player]});
    let mut play = seat("player1");
    play["action"] = json!("a6-a7");
    post("/v1/play", play);
    let listed = post("/v1/actions", seat("player2"));
    let mut play = seat("player2");
    play["action"] = listed["actions"][0].clone();
    post("/v1/play", play);
    let positions: Vec<Value> = (0..=2)
        .map(|ply| {
            let mut view = seat("player2");
            view["player"] = json!("player2");
            view["ply"] = json!(ply);
            let told = post("/v1/view", view)["position"].clone();
            let board = told.as_str().unwrap().split(' ').next().unwrap().to_owned();
            assert!(board.contains('?'), "{told}");
            assert!(
                !board.chars().any(|c| "RTEJCDPGLMBF".contains(c)),
                "black is told no red identity: {told}"
            );
            told
        })
        .collect();
    let query = format!(
        "/view/?game=luzhanqi&game_id={}&token={}",
        deal["game_id"].as_str().unwrap(),
        deal["seat_tokens"]["player2"].as_str().unwrap()
    );
    json!({"path": query, "positions": positions})
}

/// Fraction of pixels that differ by more than 24 in a channel between two PNGs of one size.
fn differing(a: &[u8], b: &[u8]) -> f64 {
    let decode = |bytes: &[u8]| {
        let mut reader = png::Decoder::new(std::io::Cursor::new(bytes.to_vec()))
            .read_info()
            .unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        (info.width, info.height, info.color_type.samples(), buf)
    };
    let (wa, ha, ca, pa) = decode(a);
    let (wb, hb, cb, pb) = decode(b);
    assert_eq!((wa, ha), (wb, hb), "the screenshot's size");
    let total = (wa * ha) as usize;
    let off = (0..total)
        .filter(|i| (0..3).any(|c| pa[i * ca + c].abs_diff(pb[i * cb + c]) > 24))
        .count();
    off as f64 / total as f64
}

#[test]
fn the_viewer_steps_through_a_stored_game_of_every_game() {
    if let Some(why) = common::browser_missing() {
        assert!(
            std::env::var_os("ANQI_REQUIRE_BROWSER").is_none(),
            "ANQI_REQUIRE_BROWSER is set but {why}"
        );
        eprintln!("note: the browser test is skipped: {why}");
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-viewer");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let server = Server::spawn(common::command(&dir.join("store.db"), &[], &[]));
    let mut games = Vec::new();
    for (i, kind) in GameKind::ALL.iter().enumerate() {
        let (record, final_position, first) = with_game!(*kind, G => {
            let rules = &G::PRESETS[0].ruleset;
            let mut record = records::core::play::random_record::<G>(&G::PRESETS[0], 11 + i as u64, 14);
            record.players = (1..=G::seats(rules)).map(|i| format!("player {i}")).collect();
            // Finished (the explorer counts finished games): player 1 won by resignation.
            if steps::<G>(&record).verdict.derived == records::core::Status::Ongoing {
                record.result = Some(records::core::StatedResult::ended(
                    records::core::Outcome::win(records::core::Seat::FIRST, G::seats(rules)),
                    records::core::Reason::RESIGNATION,
                    None,
                ));
            }
            let steps = steps::<G>(&record);
            assert!(steps.verdict.valid, "{:?}", steps.verdict);
            (record, steps.positions.last().unwrap().clone(), steps.public_actions[..2].to_vec())
        });
        let body = serde_json::to_string(&record).unwrap();
        let (status, _, answer) =
            request(&server.addr, "POST", "/v1/games", "application/json", &body);
        assert_eq!(status, 201, "{answer}");
        let id =
            serde_json::from_str::<serde_json::Value>(&answer).unwrap()["results"][0]["id"].clone();
        games.push(
            json!({"id": id, "game": kind.name(), "plies": record.actions.len(),
            "final_position": final_position, "explored": first}),
        );
    }
    let seats = vec![dark_luzhanqi_seat(&server)];
    let games_file = dir.join("games.json");
    let plan = json!({"games": games, "seats": seats});
    std::fs::write(&games_file, plan.to_string()).unwrap();
    let shot = dir.join("viewer.png");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/browser/viewer.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(format!("http://{}", server.addr))
        .arg(&games_file)
        .arg(&shot)
        .output()
        .expect("run python3");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the browser test failed:\n{text}");
    for kind in GameKind::ALL {
        assert!(
            text.contains(&format!("{} (stored game", kind.name())),
            "{text}"
        );
    }
    let got = std::fs::read(&shot).unwrap();
    if std::env::var_os("UPDATE_PICTURES").is_some() {
        std::fs::write(SCREENSHOT, &got).unwrap();
    }
    let want = std::fs::read(SCREENSHOT)
        .expect("docs/screenshots/viewer.png (UPDATE_PICTURES=1 writes it)");
    let off = differing(&got, &want);
    assert!(
        off <= 0.01,
        "the viewer's first screen differs from docs/screenshots/viewer.png in {:.2}% of its pixels (saved: {})",
        off * 100.0,
        shot.display()
    );
}
