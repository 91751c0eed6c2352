//! `anqi validate` run as a real process on real files.

use std::path::{Path, PathBuf};
use std::process::Command;

mod tool;
use tool::anqi;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("anqi-cli-{name}"));
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
    // A game the referee aborted has no result, and says so.
    write(
        &dir,
        "d.json",
        r#"{"actions": ["a1(K)"], "result": {"outcome": "ongoing", "reason": "aborted"}}"#,
    );
    let (code, out) = anqi(&["validate", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("5 games: 5 valid, 0 invalid, 0 unreadable"),
        "{out}"
    );
    assert!(
        out.contains("d.json\tvalid\taborted after 1 plies (no result)"),
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

/// The seed's example position: A (player 1, red) has captured 13 points, B 24.
const SEED_EXAMPLE: &str = "kgmr/rnnc/cppp/4/4/GGRR/NNC1/4 r - 0 10";

fn seed_game(outcome: &str, reason: &str, first: &str, second: &str) -> String {
    serde_json::json!({
        "preset": "taiwan", "players": [first, second], "start": SEED_EXAMPLE, "actions": [],
        "result": {"outcome": outcome, "reason": reason}
    })
    .to_string()
}

#[test]
fn score_settles_a_series_with_a_carried_draw() {
    let dir = temp_dir("score");
    let series = [
        seed_game("player2", "timeout", "A", "B"),
        seed_game("player1", "resignation", "A", "B"),
        seed_game("draw", "agreement", "A", "B"),
        seed_game("player2", "timeout", "A", "B"),
    ]
    .join("\n");
    let file = write(&dir, "series.jsonl", &series);
    let (code, out) = anqi(&["score", &file, "--stake", "100", "--bonus", "5"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("table: stake 100 coins, bonus 5 per point"),
        "{out}"
    );
    // In words: the ending, the captures as pieces with their points.
    assert!(
        out.contains("A took black advisor, black elephant, 2 black soldiers (13 points) · B took"),
        "{out}"
    );
    assert!(out.contains("Black (B) won by time after"), "{out}");
    assert!(
        out.contains("A pays B 155 coins = (100 + 11 × 5) × 1 + 0 = 155"),
        "{out}"
    );
    assert!(
        out.contains("B pays A 100 coins = (100 + 0 × 5) × 1 + 0 = 100"),
        "{out}"
    );
    assert!(out.contains("drawn: nothing is paid"), "{out}");
    assert!(
        out.contains("A pays B 255 coins = (100 + 11 × 5) × 1 + 100 = 255"),
        "{out}"
    );
    // −155 + 100 − 255 for A.
    assert!(
        out.contains("series A vs B: 4 games, A -310, B +310"),
        "{out}"
    );
    assert!(out.contains("4 games: 4 scored, 0 not scored"), "{out}");

    // JSON: the terms and the running balances.
    let (code, out) = anqi(&["score", &file, "--json", "--bonus", "10"]);
    assert_eq!(code, 0, "{out}");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["settlement"]["amount"], 210);
    assert_eq!(lines[0]["settlement"]["bonus"], 110);
    assert_eq!(lines[0]["score"]["players"][1]["captured"], "KMMCPPPPP");
    assert_eq!(lines[0]["balances"]["B"], 210);
    assert_eq!(lines[3]["settlement"]["carry"], 100);
    assert_eq!(lines[4]["balances"]["A"], -(210 - 100 + 310));
    assert_eq!(lines[5]["summary"]["scored"], 4);

    // Seats swapped (B moves first) is the same series; an invalid game is reported, exit 1.
    let mixed = [
        seed_game("draw", "agreement", "A", "B"),
        seed_game("player1", "timeout", "B", "A"),
        r#"{"actions": ["b8(G)", "b8(g)"]}"#.to_owned(),
    ]
    .join("\n");
    let file = write(&dir, "mixed.jsonl", &mixed);
    let (code, out) = anqi(&["score", &file]);
    assert_eq!(code, 1, "{out}");
    // B (player 1, red) captured 13 points, A 24: B wins with fewer points after a draw.
    assert!(
        out.contains("A pays B 200 coins = (100 + 0 × 5) × 1 + 100 = 200"),
        "{out}"
    );
    assert!(
        out.contains("INVALID\tply 2 \"b8(g)\": not_covered"),
        "{out}"
    );
    assert!(
        out.contains("series A vs B: 2 games, A -200, B +200"),
        "{out}"
    );
}

/// Games without coins (Three Kingdoms, Luzhanqi, xiangqi-3g) are scored in words and say
/// nothing of stakes, coins, balances or series.
#[test]
fn score_speaks_of_coins_only_where_the_game_has_them() {
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/examples");
    for file in [
        "three-kingdoms-record.json",
        "xiangqi-3g-record.json",
        "luzhanqi-record.json",
    ] {
        let path = format!("{examples}/{file}");
        if !std::path::Path::new(&path).exists() {
            continue;
        }
        let (code, out) = anqi(&["score", &path]);
        assert_eq!(code, 0, "{file}: {out}");
        for word in ["stake", "coins", "series", "carried", "running", "pays"] {
            assert!(!out.contains(word), "{file}: {word:?} in {out}");
        }
        assert!(out.contains(" took "), "{file}: {out}");
        let codes: Vec<&str> = out
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| w.contains('_') || ["player1", "player2", "player3"].contains(w))
            .collect();
        assert!(codes.is_empty(), "{file}: codes {codes:?} in {out}");
    }
}

/// A review agrees with itself: the engine's own choice gives up nothing (it was read as a
/// 270-centipawn loss when the scores before and after were compared), what a flip revealed is
/// luck, not the mover's doing, and a forced result is never counted in centipawns.
#[test]
fn a_review_never_calls_the_engines_choice_a_loss() {
    let dir = temp_dir("review");
    let tcga = write(&dir, "game.txt", TCGA_GAME);
    let xiangqi = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../docs/examples/xiangqi-3g-record.json"
    );
    for file in [tcga.as_str(), xiangqi] {
        let (code, out) = anqi(&["analyze", file, "--nodes", "3000", "--json"]);
        assert_eq!(code, 0, "{out}");
        let lines: Vec<serde_json::Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let mut chosen = 0;
        for pair in lines.windows(2) {
            let (before, after) = (&pair[0], &pair[1]);
            let (best, played) = (
                before["best"].as_str().unwrap(),
                after["action"].as_str().unwrap(),
            );
            // The engine's choice, its revealed identity written out or not (`b8`, `b8(p)`).
            if played == best
                || played
                    .strip_prefix(best)
                    .is_some_and(|r| r.starts_with('('))
            {
                chosen += 1;
                // Nothing given up (nothing counted where a forced result is at stake).
                assert!(
                    after["lost"].as_i64().unwrap_or(0) == 0
                        && after["said"]
                            .as_str()
                            .is_some_and(|s| s.starts_with("the engine's choice")),
                    "{file}: {after}"
                );
            }
            if played != best && played.contains('(') {
                assert!(
                    after["luck"].is_i64() || after["said"].is_string(),
                    "{after}"
                );
            }
            if let Some(lost) = after["lost"].as_i64() {
                assert!(
                    (0..10_000).contains(&lost),
                    "{file}: a forced result counted: {after}"
                );
            }
        }
        assert!(
            chosen > 0,
            "{file}: the engine's choice was played somewhere"
        );
    }
    // Three seats: each position scored for the side to move, never turned into one seat's
    // (a seat whose recall had locked first place read as 40% to win); no chart of one seat.
    let three = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../docs/examples/three-kingdoms-record.json"
    );
    let (code, out) = anqi(&["analyze", three, "--nodes", "2000", "--json"]);
    assert_eq!(code, 0, "{out}");
    for line in out
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
    {
        assert!(
            line["player1"].is_null() && line["score"]["win"].is_f64(),
            "{line}"
        );
    }
    let chart = dir.join("three.svg").display().to_string();
    let (code, out) = anqi(&["analyze", three, "--nodes", "2000", "--chart", &chart]);
    assert_eq!(code, 1, "{out}");
}

#[test]
fn every_command_has_help() {
    // The commands `anqi --help` lists (a new one is covered without a change here).
    let (code, top) = anqi(&["--help"]);
    assert_eq!(code, 0);
    let commands: Vec<&str> = top
        .split("Commands:")
        .nth(1)
        .and_then(|rest| rest.split("Options:").next())
        .expect("a command list")
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    for expected in [
        "validate", "score", "import", "simulate", "perft", "report", "export", "render", "tune",
        "analyze", "explore",
    ] {
        assert!(commands.contains(&expected), "{expected} in {commands:?}");
        // The tool's one line names every command.
        assert!(top.lines().next().unwrap().contains(expected), "{top}");
    }
    for command in commands {
        let (code, out) = anqi(&[command, "--help"]);
        assert_eq!(code, 0, "{command}");
        assert!(out.contains(&format!("Usage: anqi {command}")), "{out}");
    }
}

#[test]
fn simulate_is_reproducible_and_its_records_replay() {
    let dir = temp_dir("simulate");
    let one = dir.join("one.jsonl").display().to_string();
    let two = dir.join("two.jsonl").display().to_string();
    let (code, out) = anqi(&[
        "simulate",
        "--games",
        "300",
        "--seed",
        "9",
        "--bot",
        "greedy,random",
        "-o",
        &one,
        "--threads",
        "1",
    ]);
    assert_eq!(code, 0, "{out}");
    let (code, _) = anqi(&[
        "simulate",
        "--games",
        "300",
        "--seed",
        "9",
        "--bot",
        "greedy,random",
        "-o",
        &two,
        "--threads",
        "2",
    ]);
    assert_eq!(code, 0);
    let a = std::fs::read_to_string(&one).unwrap();
    assert_eq!(
        a,
        std::fs::read_to_string(&two).unwrap(),
        "threads do not change the games"
    );
    assert_eq!(a.lines().count(), 300);
    let first: serde_json::Value = serde_json::from_str(a.lines().next().unwrap()).unwrap();
    assert_eq!(first["players"], serde_json::json!(["greedy", "random"]));
    assert!(first["layout"].is_string());
    // Every record replays to its stated result.
    let (code, out) = anqi(&["validate", &one, "-q"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("300 games: 300 valid"), "{out}");
    // Another seed, other games; every bot and preset plays legal games.
    for (bot, preset) in [
        ("search", "taiwan-full"),
        ("random", "gametower-dark-chain"),
        ("greedy", "mainland"),
    ] {
        let (code, out) = anqi(&[
            "simulate", "--games", "40", "--seed", "10", "--bot", bot, "--preset", preset, "-o",
            &two,
        ]);
        assert_eq!(code, 0, "{out}");
        let (code, out) = anqi(&["validate", &two, "-q"]);
        assert!(
            code == 0 && out.contains("40 games: 40 valid"),
            "{bot} {preset}: {out}"
        );
    }
    assert_ne!(a, std::fs::read_to_string(&two).unwrap());
    let (code, out) = anqi(&["simulate", "--bot", "clever", "-o", &two]);
    assert_eq!(code, 2);
    assert!(out.contains("unknown bot"), "{out}");
    // The engine under a ruleset with dark captures, the timed engine against MistyBanqi:
    // legal games, and the players named as given.
    for (bots, preset, games) in [
        ("engine", "gametower-dark-chain", "6"),
        ("engine:5,misty:5", "tcga", "4"),
    ] {
        let (code, out) = anqi(&[
            "simulate",
            "--games",
            games,
            "--seed",
            "3",
            "--bot",
            bots,
            "--preset",
            preset,
            "--max-plies",
            "300",
            "-o",
            &two,
        ]);
        assert_eq!(code, 0, "{out}");
        let (code, out) = anqi(&["validate", &two, "-q"]);
        assert!(code == 0, "{bots} {preset}: {out}");
        let first: serde_json::Value = serde_json::from_str(
            std::fs::read_to_string(&two)
                .unwrap()
                .lines()
                .next()
                .unwrap(),
        )
        .unwrap();
        let names: Vec<&str> = bots.split(',').collect();
        assert_eq!(first["players"][0], names[0]);
    }
    // Every game's engine, deterministic without a time: legal games, the same twice.
    for (game, bots) in [
        ("three-kingdoms", "engine,greedy,random"),
        ("luzhanqi", "engine,greedy"),
        ("xiangqi-3g", "greedy,engine"),
    ] {
        let args = [
            "simulate",
            "--game",
            game,
            "--games",
            "2",
            "--seed",
            "5",
            "--bot",
            bots,
            "--max-plies",
            "80",
            "-o",
            &two,
        ];
        let (code, out) = anqi(&args);
        assert_eq!(code, 0, "{game}: {out}");
        let first = std::fs::read_to_string(&two).unwrap();
        let (code, out) = anqi(&["validate", &two, "-q"]);
        assert!(
            code == 0 && out.contains("2 games: 2 valid"),
            "{game}: {out}"
        );
        anqi(&args);
        assert_eq!(first, std::fs::read_to_string(&two).unwrap(), "{game}");
    }
    for (bot, says) in [
        ("random:10", "takes no time"),
        ("engine:0", "milliseconds per action"),
        ("engine:soon", "milliseconds per action"),
    ] {
        let (code, out) = anqi(&["simulate", "--bot", bot, "-o", &two]);
        assert_eq!(code, 2, "{bot}");
        assert!(out.contains(says), "{bot}: {out}");
    }
}

#[test]
fn tune_plays_its_matches_and_prints_the_weights() {
    let (code, out) = anqi(&[
        "tune",
        "--deals",
        "1",
        "--nodes",
        "100",
        "--max-plies",
        "120",
        "--threads",
        "2",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("start: Weights {"), "{out}");
    // Every weight tried (one step each way unless the first is kept), then the result.
    assert!(out.contains("round 1 victims"), "{out}");
    assert!(out.contains("round 1 soldier"), "{out}");
    assert!(
        out.lines().last().unwrap().starts_with("tuned: Weights {"),
        "{out}"
    );
    let (code, out) = anqi(&["tune", "--game", "luzhanqi"]);
    assert_eq!(code, 2);
    assert!(out.contains("no weights to tune"), "{out}");
}

#[test]
fn simulate_plays_luzhanqi_in_every_mode() {
    let dir = temp_dir("simulate-luzhanqi");
    for mode in ["open", "dark", "flip"] {
        let out_file = dir.join(format!("{mode}.jsonl")).display().to_string();
        let (code, out) = anqi(&[
            "simulate",
            "--game",
            "luzhanqi",
            "--mode",
            mode,
            "--games",
            "60",
            "--seed",
            "3",
            "--bot",
            "greedy,random",
            "-o",
            &out_file,
        ]);
        assert_eq!(code, 0, "{out}");
        let text = std::fs::read_to_string(&out_file).unwrap();
        let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        assert_eq!(first["preset"], mode);
        // Open and dark games keep both setups, flip games the 50-letter layout.
        assert_eq!(first["layout"].is_object(), mode != "flip", "{first}");
        let (code, out) = anqi(&["validate", &out_file, "-q"]);
        assert!(
            code == 0 && out.contains("60 games: 60 valid"),
            "{mode}: {out}"
        );
    }
    // A mode over another preset is an option; --mode is Luzhanqi's alone.
    let out_file = dir.join("house.jsonl").display().to_string();
    let (code, out) = anqi(&[
        "simulate",
        "--game",
        "luzhanqi",
        "--preset",
        "dark-house",
        "--mode",
        "open",
        "--games",
        "5",
        "-o",
        &out_file,
    ]);
    assert_eq!(code, 0, "{out}");
    let text = std::fs::read_to_string(&out_file).unwrap();
    assert!(text.contains(r#""options":{"mode":"open"}"#), "{text}");
    let (code, out) = anqi(&["simulate", "--mode", "open", "-o", &out_file]);
    assert_eq!(code, 2);
    assert!(out.contains("--mode is the ruleset option `mode`"), "{out}");
}

#[test]
fn perft_counts_xiangqi_moves() {
    let (code, out) = anqi(&["perft", "--depth", "3"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.lines().any(|l| l == "79666"), "{out}");
    let (code, out) = anqi(&[
        "perft",
        "--depth",
        "2",
        "--divide",
        "--position",
        "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("e7d7: 1") && out.lines().any(|l| l == "424"),
        "{out}"
    );
    let (code, out) = anqi(&["perft", "--depth", "1", "--position", "nonsense"]);
    assert_eq!(code, 2, "{out}");
    let (code, _) = anqi(&["perft", "--game", "banqi", "--depth", "1"]);
    assert_eq!(code, 2);
    // Plain xiangqi by its name.
    let (code, out) = anqi(&["perft", "--game", "xiangqi", "--depth", "2"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.lines().any(|l| l == "1920"), "{out}");
}

#[test]
fn simulate_plays_xiangqi_3g() {
    let dir = temp_dir("simulate-xiangqi");
    for preset in ["xiangqi-3g", "xiangqi"] {
        let out_file = dir.join(format!("{preset}.jsonl")).display().to_string();
        let (code, out) = anqi(&[
            "simulate",
            "--game",
            "xiangqi-3g",
            "--preset",
            preset,
            "--games",
            "40",
            "--seed",
            "2",
            "--bot",
            "greedy,random",
            "-o",
            &out_file,
        ]);
        assert_eq!(code, 0, "{out}");
        let text = std::fs::read_to_string(&out_file).unwrap();
        let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        assert_eq!(
            first["layout"].is_object(),
            preset == "xiangqi-3g",
            "{first}"
        );
        let (code, out) = anqi(&["validate", &out_file, "-q"]);
        assert!(
            code == 0 && out.contains("40 games: 40 valid"),
            "{preset}: {out}"
        );
    }
}

/// Runs anqi with `input` on its standard input.
fn anqi_with_stdin(args: &[&str], input: &[u8]) -> (i32, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_anqi"))
        .args(args)
        .env_remove("DATABASE_URL")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run anqi");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap() + &String::from_utf8(out.stderr).unwrap(),
    )
}

/// `-` reads standard input, its format told by its first character: JSON Lines, a JSON
/// array, TCGA; every command that reads records takes it.
#[test]
fn standard_input_is_read_in_every_format() {
    let one = r#"{"actions": ["b8(p)", "b6(R)"]}"#;
    let bad = r#"{"actions": ["b8(p)", "b8(p)"]}"#;
    let lines = format!("{one}\n\n{bad}\n{one}\n");
    let (code, out) = anqi_with_stdin(&["validate", "-"], lines.as_bytes());
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("stdin#1\tvalid"), "{out}");
    assert!(
        out.contains("stdin#2\tINVALID\tply 2 \"b8(p)\": not_covered"),
        "{out}"
    );
    assert!(
        out.contains("3 games: 2 valid, 1 invalid, 0 unreadable"),
        "{out}"
    );
    let array = format!("  [{one}, {one}]");
    let (code, out) = anqi_with_stdin(&["validate", "--quiet", "-"], array.as_bytes());
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("2 games: 2 valid"), "{out}");
    let (code, out) = anqi_with_stdin(&["validate", "-"], TCGA_GAME.as_bytes());
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("stdin\tvalid"), "{out}");
    let (code, out) = anqi_with_stdin(&["score", "-"], lines.as_bytes());
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("3 games: 2 scored, 1 not scored"), "{out}");
    let dir = temp_dir("stdin");
    let db = dir.join("s.db").display().to_string();
    let (code, out) = anqi_with_stdin(&["import", "-", "--database", &db], lines.as_bytes());
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("3 games: 1 stored, 1 already stored, 1 invalid"),
        "{out}"
    );
    // Nothing on standard input is no game, not a hang.
    let (code, out) = anqi_with_stdin(&["validate", "-"], b"");
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("1 unreadable"), "{out}");
}

#[test]
fn analyze_reviews_a_game_and_a_position() {
    let dir = temp_dir("analyze");
    let file = write(&dir, "game.txt", TCGA_GAME);
    // JSON lines: the start and one line per ply, player 1's score, the best action, what
    // each action gave up; the same on every run under a node limit.
    let (code, out) = anqi(&["analyze", &file, "--nodes", "2000", "--json"]);
    assert_eq!(code, 0, "{out}");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert_eq!(lines[0]["ply"], 0);
    assert_eq!(lines[1]["action"], "b8(p)");
    for line in &lines {
        let s = &line["player1"];
        let total =
            s["win"].as_f64().unwrap() + s["draw"].as_f64().unwrap() + s["loss"].as_f64().unwrap();
        assert!((total - 1.0).abs() < 0.002, "{line}");
        assert!(line["best"].is_string(), "{line}");
    }
    assert!(lines[1]["lost"].as_i64().unwrap() >= 0);
    assert_eq!(
        anqi(&["analyze", &file, "--nodes", "2000", "--json"]).1,
        out
    );
    // The table and the chart.
    let chart = dir.join("score.svg").display().to_string();
    let (code, out) = anqi(&["analyze", &file, "--nodes", "500", "--chart", &chart]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("start: player 1 to move") && out.contains("b8(p)"),
        "{out}"
    );
    // Each row is about its move, from the side that made it: movers alternate, and the
    // evaluation after one move is the next mover's before it, turned.
    let rows: Vec<Vec<&str>> = out
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("ply"))
        .skip(1)
        .take_while(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .map(|l| {
            l.split("  ")
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .collect()
        })
        .collect();
    assert_eq!(rows.len(), 4, "{out}");
    let evaluations = |row: &[&str]| -> Vec<String> {
        row.iter()
            .filter(|c| c.ends_with("%)") || c.starts_with("wins") || c.starts_with("loses"))
            .map(|c| c.to_string())
            .collect()
    };
    let turned = |e: &str| -> String {
        match e.split_once(' ') {
            Some(("wins", n)) => format!("loses {n}"),
            Some(("loses", n)) => format!("wins {n}"),
            _ => {
                let (cp, pct) = e.split_once(" (").unwrap();
                let cp: i64 = cp.parse().unwrap();
                let pct: f64 = pct.trim_end_matches("%)").parse().unwrap();
                format!("{:+} ({:.1}%)", -cp, 100.0 - pct)
            }
        }
    };
    for (k, pair) in rows.windows(2).enumerate() {
        let movers = [pair[0][1], pair[1][1]];
        let want = if k % 2 == 0 {
            ["player 1", "player 2"]
        } else {
            ["player 2", "player 1"]
        };
        assert_eq!(movers, want, "{out}");
        let (after, before) = (&evaluations(&pair[0])[1], &evaluations(&pair[1])[0]);
        // The centipawns exactly (the expected scores are rounded apart).
        let (want, got) = (turned(after), before.clone());
        assert_eq!(want.split(' ').next(), got.split(' ').next(), "{out}");
    }
    let svg = std::fs::read_to_string(&chart).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("expected score"),
        "{svg}"
    );
    // A position: a forced win in three plies.
    let (code, out) = anqi(&["analyze", "k3/1P2/P3/4/4/4/4/3K r - 0 10", "--depth", "4"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("wins in 3"), "{out}");
    // An illegal record names its ply; every game has an engine.
    let bad = write(
        &dir,
        "bad.json",
        r#"{"game": "banqi", "preset": "tcga", "actions": ["b8(p)", "b8-b7"]}"#,
    );
    let (code, out) = anqi(&["analyze", &bad]);
    assert_eq!(code, 1, "a refused record, as in every command");
    assert!(out.contains("ply 2"), "{out}");
    let (code, out) = anqi(&[
        "analyze",
        "--game",
        "xiangqi-3g",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("start: player 1 to move"), "{out}");
}

/// A Banqi game of `actions` with `outcome` by resignation (or an agreed draw).
fn explored_game(actions: &[&str], outcome: &str, n: usize) -> String {
    let reason = if outcome == "draw" {
        "agreement"
    } else {
        "resignation"
    };
    serde_json::json!({
        "game": "banqi", "preset": "tcga", "players": ["ann", "bo"], "actions": actions,
        "result": {"outcome": outcome, "reason": reason}, "metadata": {"n": n}
    })
    .to_string()
}

#[test]
fn explore_answers_over_files_and_over_a_store() {
    let dir = temp_dir("explore");
    let lines = [
        explored_game(&["a1(K)", "b1(k)"], "player1", 1),
        explored_game(&["a1(K)", "b1(k)"], "player2", 2),
        explored_game(&["a1(K)", "c1(p)"], "draw", 3),
        explored_game(&["d8(G)", "b1(k)"], "player1", 4),
    ];
    let log = write(&dir, "games.jsonl", &(lines.join("\n") + "\n"));
    // Over files: imported into a store of its own, which is gone after.
    let scratch = |dir: &Path| {
        std::fs::read_dir(dir)
            .unwrap()
            .filter(|e| {
                let name = e.as_ref().unwrap().file_name();
                name.to_string_lossy().starts_with("anqi-explore-")
            })
            .count()
    };
    let before = scratch(&std::env::temp_dir());
    let (code, out) = anqi(&["explore", &log, "--actions", "a1(K)"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("Banqi (暗棋"), "the game's name: {out}");
    assert!(out.contains("after a1(K)"), "{out}");
    assert!(out.contains("3 games"), "{out}");
    let b1 = out
        .lines()
        .find(|l| l.starts_with("b1(k)"))
        .expect("b1(k) listed");
    // Two games, the side to move (player 2) won one and lost one.
    assert_eq!(
        b1.split_whitespace().take(5).collect::<Vec<_>>(),
        ["b1(k)", "2", "1", "0", "1"]
    );
    assert!(out.contains("c1(p)"), "{out}");
    assert_eq!(
        scratch(&std::env::temp_dir()),
        before,
        "the temporary store is removed"
    );
    // JSON, as the service gives it.
    let (code, out) = anqi(&["explore", &log, "--json"]);
    assert_eq!(code, 0, "{out}");
    let json_start = out.find('{').unwrap();
    let answer: serde_json::Value = serde_json::from_str(&out[json_start..]).unwrap();
    assert_eq!(answer["games"], 4);
    assert_eq!(answer["moves"][0]["action"], "a1(K)");
    // Over a store, filtered.
    let db = dir.join("store.db").display().to_string();
    let (code, out) = anqi(&["import", &log, "--database", &db]);
    assert_eq!(code, 0, "{out}");
    let (code, out) = anqi(&["explore", "--database", &db, "--actions", "a1(K),b1(k)"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("No stored game went on from here."), "{out}");
    let (code, out) = anqi(&["explore", "--database", &db, "--players", "nobody"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("0 games"), "{out}");
    // A line no game played, and bad input.
    let (code, out) = anqi(&["explore", "--database", &db, "--actions", "d1(p)"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("No stored game played d1(p)"), "{out}");
    let (code, out) = anqi(&["explore", "--database", &db, "--options", "{"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("--options"), "{out}");
    let (code, out) = anqi(&["explore", "--database", &db, "--game", "chess"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("unknown game"), "{out}");
    // A mistyped action is an error, not a line no game played (issue 59).
    let (code, out) = anqi(&["explore", "--database", &db, "--actions", "a1(K),zz9(Q)"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("action 2 of the line, \"zz9(Q)\""), "{out}");
    // A mistyped store is refused, not made anew and answered from (issue 59).
    let typo = format!("{db}.typo");
    let (code, out) = anqi(&["explore", "--database", &typo]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("no record store at"), "{out}");
    assert!(
        !std::path::Path::new(&typo).exists(),
        "nothing made at {typo}"
    );
    // A new depth walks the stored games again.
    let (code, out) = anqi(&[
        "explore",
        "--database",
        &db,
        "--depth",
        "1",
        "--actions",
        "a1(K)",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("explored to 1 ply)"), "{out}");

    // Counts by month: 70 games at the start (it gets rows), 40 in March and 30 in April.
    let dated: Vec<String> = (0..70)
        .map(|n| {
            let mut game: serde_json::Value =
                serde_json::from_str(&explored_game(&["a1(K)", "b1(k)"], "player1", n)).unwrap();
            let month = if n < 40 { 3 } else { 4 };
            game["metadata"]["date"] = format!("2025-{month:02}-{:02}", n % 28 + 1).into();
            game.to_string()
        })
        .collect();
    let log = write(&dir, "dated.jsonl", &(dated.join("\n") + "\n"));
    let db = dir.join("months.db").display().to_string();
    let (code, out) = anqi(&["import", &log, "--database", &db]);
    assert_eq!(code, 0, "{out}");
    let march = ["--date-from", "2025-03-01", "--date-to", "2025-03-31"];
    // Off by default: the month's games walked.
    let (code, walked) = anqi(&[&["explore", "--database", &db][..], &march].concat());
    assert_eq!(code, 0, "{walked}");
    assert!(
        walked.contains("Filtered: 40 games passed the filters\n"),
        "{walked}"
    );
    let (code, counted) = anqi(
        &[
            &["explore", "--database", &db, "--months", "on"][..],
            &march,
        ]
        .concat(),
    );
    assert_eq!(code, 0, "{counted}");
    assert!(
        counted.contains(
            "Filtered: 40 games passed the filters (40 counted by month, 0 walked one by one)"
        ),
        "{counted}"
    );
    // The same answer, line for line, but for how it was found.
    let listed = |out: &str| {
        out.lines()
            .skip_while(|l| !l.starts_with("action"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(listed(&walked), listed(&counted));
    // Days at the ends are walked: March 20 to April 10.
    let (code, out) = anqi(&[
        "explore",
        "--database",
        &db,
        "--date-from",
        "2025-03-20",
        "--date-to",
        "2025-04-10",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("passed the filters\n"),
        "no whole month, every game walked: {out}"
    );
    let (code, out) = anqi(&["explore", "--months", "maybe", "--database", &db]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("possible values: on, off"), "{out}");
}
