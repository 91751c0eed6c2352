//! `anqi render` run as a real process on real files: a record's replay as an animated PNG,
//! one ply as PNG or SVG, from every game's simulated records, and its refusals.

use std::path::PathBuf;

mod tool;
use tool::{anqi, simulated_logs};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("anqi-render-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A PNG's width (its header) and an APNG's frame count (its acTL chunk).
fn png_facts(png: &[u8]) -> (u32, Option<u32>) {
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG");
    let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let frames = png
        .windows(4)
        .position(|w| w == b"acTL")
        .map(|at| u32::from_be_bytes(png[at + 4..at + 8].try_into().unwrap()));
    (width, frames)
}

#[test]
fn every_game_s_record_is_animated_and_drawn() {
    let dir = temp_dir("games");
    for game in ["banqi", "three-kingdoms", "luzhanqi", "xiangqi-3g"] {
        let logs = simulated_logs(
            &dir.join(game),
            &[&[
                "--game",
                game,
                "--games",
                "2",
                "--seed",
                "3",
                "--max-plies",
                "12",
            ]],
        );
        let log = logs.join("0.jsonl");
        let log = log.to_str().unwrap();
        let plies = std::fs::read_to_string(log)
            .unwrap()
            .lines()
            .nth(1)
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).unwrap()["actions"]
                    .as_array()
                    .unwrap()
                    .len()
            })
            .unwrap();
        let out = dir.join(format!("{game}.png"));
        let (code, text) = anqi(&[
            "render",
            log,
            "--index",
            "2",
            "--width",
            "200",
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{game}: {text}");
        assert!(
            text.contains(&format!("{} frames", plies + 1)),
            "{game}: {text}"
        );
        let (width, frames) = png_facts(&std::fs::read(&out).unwrap());
        assert_eq!((width, frames), (200, Some(plies as u32 + 1)), "{game}");
        // One ply, as SVG and as PNG.
        let svg = dir.join(format!("{game}.svg"));
        let (code, text) = anqi(&["render", log, "--ply", "2", "-o", svg.to_str().unwrap()]);
        assert_eq!(code, 0, "{game}: {text}");
        assert!(
            std::fs::read_to_string(&svg).unwrap().starts_with("<svg"),
            "{game}"
        );
        let still = dir.join(format!("{game}-still.png"));
        let (code, text) = anqi(&[
            "render",
            log,
            "--ply",
            "0",
            "--width",
            "120",
            "-o",
            still.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{game}: {text}");
        assert_eq!(
            png_facts(&std::fs::read(&still).unwrap()),
            (120, None),
            "{game}"
        );
    }
}

#[test]
fn what_cannot_be_drawn_is_refused_with_the_reason() {
    let dir = temp_dir("refusals");
    let file = dir.join("bad.json");
    std::fs::write(
        &file,
        r#"{"game": "banqi", "preset": "tcga", "actions": ["b8(p)", "b8-b7"]}"#,
    )
    .unwrap();
    let file = file.to_str().unwrap();
    let out = dir.join("bad.png");
    let out = out.to_str().unwrap();
    let (code, text) = anqi(&["render", file, "-o", out]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("ply 2 \"b8-b7\""), "{text}");
    // What the command was asked for, not the record, is what is refused: exit 2.
    let cases: [(&[&str], &str); 5] = [
        (&["--width", "10"], "width 10 is outside 64..=2048"),
        (&["--frame-ms", "5"], "a frame shows 5 ms"),
        (&["--ply", "9"], "--ply 9 is not one"),
        (&["--index", "2"], "--index 2 is not one"),
        (&["-o", "x.svg"], "an animation is a PNG"),
    ];
    for (args, says) in cases {
        let mut all = vec!["render", file];
        all.extend_from_slice(args);
        if !args.contains(&"-o") {
            all.extend_from_slice(&["-o", out]);
        }
        let (code, text) = anqi(&all);
        assert_eq!(code, 2, "{args:?}: {text}");
        assert!(text.contains(says), "{args:?}: {text}");
    }
}
