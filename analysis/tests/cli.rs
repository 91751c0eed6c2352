//! `anqi validate` run as a real process on real files.

use std::path::{Path, PathBuf};
use std::process::Command;

fn anqi(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_anqi"))
        .args(args)
        .output()
        .expect("run anqi");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap() + &String::from_utf8(out.stderr).unwrap(),
    )
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("anqi-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

const TCGA_GAME: &str = "INITIAL
* 10:49am Jan 10, 2022
* chan vs ai
* 1 2 2 2 2 2 5 1 2 2 2 2 2 5
* X X X X
* X X X X
* X X X X
* X X X X
* X X X X
* X X X X
* X X X X
* X X X X
* first 1
* time 900
* 1. b8(p) b6(R)
* 2. c8(M) b5(p)
";

#[test]
fn valid_records_in_every_format_pass() {
    let dir = temp_dir("valid");
    write(&dir, "a.txt", TCGA_GAME);
    write(
        &dir,
        "sub/b.jsonl",
        "{\"actions\": [\"b8(p)\", \"b6(R)\"]}\n{\"preset\": \"taiwan\", \"actions\": []}\n",
    );
    write(
        &dir,
        "c.json",
        r#"{"preset": "olympiad", "actions": ["a1(K)"], "result": {"outcome": "ongoing"}}"#,
    );
    let (code, out) = anqi(&["validate", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("4 games: 4 valid, 0 invalid, 0 unreadable"),
        "{out}"
    );
    assert!(
        out.contains("b.jsonl#2\tvalid\tongoing after 0 plies"),
        "{out}"
    );
}

#[test]
fn an_illegal_ply_is_reported_with_its_index_action_and_reason() {
    let dir = temp_dir("invalid");
    let bad = TCGA_GAME.replace("* 2. c8(M) b5(p)", "* 2. c8(M) b6-b4");
    let path = write(&dir, "bad.txt", &bad);
    let (code, out) = anqi(&["validate", &path]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("INVALID\tply 4 \"b6-b4\": unreachable"),
        "{out}"
    );
    assert!(out.contains("1 games: 0 valid, 1 invalid"), "{out}");

    let (code, out) = anqi(&["validate", "--json", &path]);
    assert_eq!(code, 1);
    let first: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    let error = &first["verdict"]["error"];
    assert_eq!(error["kind"], "illegal_ply");
    assert_eq!(error["ply"], 4);
    assert_eq!(error["action"], "b6-b4");
    assert_eq!(error["reason"], "unreachable");
    assert_eq!(
        error["position"],
        "XpMX/XXXX/XRXX/XXXX/XXXX/XXXX/XXXX/XXXX r K1G2M1R1N2C2P5k1g2m2r2n2c2p4 0 3"
    );
}

#[test]
fn unreadable_files_and_wrong_results_fail() {
    let dir = temp_dir("unreadable");
    let a = write(&dir, "a.jsonl", "{\"actions\": [\"b8(p)\"]}\nnot json\n");
    let (code, out) = anqi(&["validate", &a]);
    assert_eq!(code, 1);
    assert!(out.contains("a.jsonl#2\tUNREADABLE\tline 2"), "{out}");
    let b = write(
        &dir,
        "b.json",
        r#"{"actions": ["b8(p)"], "result": {"outcome": "player1", "reason": "no_move"}}"#,
    );
    let (code, out) = anqi(&["validate", &b]);
    assert_eq!(code, 1);
    assert!(out.contains("result_mismatch"), "{out}");
    let (code, out) = anqi(&["validate", "/nonexistent/anqi"]);
    assert_eq!(code, 2, "{out}");
}

#[test]
fn help_describes_the_command() {
    let (code, out) = anqi(&["validate", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("JSON Lines"));
}
