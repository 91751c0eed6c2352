//! The referee's cost per request against the game's length (issue 40): committed plays per
//! second on a game at ply 20 and on one at ply 5,000, side by side in one run, on a real
//! SQLite ledger (PostgreSQL too when `ANQI_TEST_POSTGRES_URL` names a server).
//!
//! `cargo bench -p records --features referee --bench referee`
//!
//! Each play is what `POST /v1/play` does with a seat token, less HTTP: the game opened with
//! the seat's token (its ledger row read, the token checked), the request addressed, the
//! action judged and committed in one transaction, the answer built. The game is xiangqi-3g
//! without its draw rules (`repetition: false, no_capture: null`, capped at 20,000 plies):
//! the horses go out and back, so a game reaches any length. Rounds of 200 plays alternate
//! between a fresh game (plies 20 → 220) and one long game (5,000 → 5,200, then on); the
//! figure is each side's median round. `replayed` does the same with one kept game for two
//! games in turn, so that every request replays its game from the ledger: what every request
//! cost before games were kept.

use std::time::Instant;

use records::games::xiangqi::Xiangqi3g;
use records::referee::{DealOrder, Dealt, Referee, Settings};
use records::seal::Keys;
use records::store::{Store, scratch_postgres_database};

const CYCLE: [&str; 4] = ["b0c2", "b9c7", "c2b0", "c7b9"];
const ROUND: u32 = 200;
const ROUNDS: usize = 9;

fn deal(referee: &Referee) -> Dealt {
    referee
        .deal::<Xiangqi3g>(DealOrder {
            options: serde_json::from_str(r#"{"repetition": false, "no_capture": null}"#).unwrap(),
            players: vec!["red".into(), "black".into()],
            ..DealOrder::default()
        })
        .unwrap()
}

/// Plays plies `from..to` of `game` with its seats' tokens.
fn play(referee: &Referee, game: &Dealt, from: u32, to: u32) {
    for ply in from..to {
        let seat = ["player1", "player2"][ply as usize % 2];
        referee
            .open::<Xiangqi3g, _>(&game.game_id, &game.seat_tokens[seat], |g| {
                let at = g.address(&Default::default())?;
                assert_eq!(at, ply);
                g.play(CYCLE[ply as usize % 4], at)
            })
            .unwrap();
    }
}

fn median(mut rates: Vec<f64>) -> f64 {
    rates.sort_by(f64::total_cmp);
    rates[rates.len() / 2]
}

/// Plays per second in a round of `ROUND` plays from `from`.
fn round(referee: &Referee, game: &Dealt, from: u32) -> f64 {
    let started = Instant::now();
    play(referee, game, from, from + ROUND);
    ROUND as f64 / started.elapsed().as_secs_f64()
}

fn compare(name: &str, url: &str, kept_games: usize) {
    let store = Store::open(url).unwrap();
    let keys = Keys::parse("bench:LP34eCLlsx2tej0Qn5yZBy7BEqeDHMHp34xyo9Zzesc=").unwrap();
    let referee = Referee::new(
        store,
        keys,
        Settings {
            kept_games,
            ..Settings::default()
        },
    );
    let long = deal(&referee);
    play(&referee, &long, 0, 5000);
    let (mut short_rates, mut long_rates) = (Vec::new(), Vec::new());
    let mut long_at = 5000;
    for _ in 0..ROUNDS {
        let short = deal(&referee);
        play(&referee, &short, 0, 20);
        if kept_games == 1 {
            // One kept place for two games in turn: each request replays its game.
            let (mut short_time, mut long_time) = (0.0, 0.0);
            for i in 0..ROUND / 2 {
                let t = Instant::now();
                play(&referee, &short, 20 + i, 21 + i);
                short_time += t.elapsed().as_secs_f64();
                let t = Instant::now();
                play(&referee, &long, long_at, long_at + 1);
                long_time += t.elapsed().as_secs_f64();
                long_at += 1;
            }
            short_rates.push((ROUND / 2) as f64 / short_time);
            long_rates.push((ROUND / 2) as f64 / long_time);
        } else {
            short_rates.push(round(&referee, &short, 20));
            long_rates.push(round(&referee, &long, long_at));
            long_at += ROUND;
        }
    }
    let (short, long) = (median(short_rates), median(long_rates));
    println!(
        "{name:<24} ply 20: {short:>8.0} plays/s   ply 5,000: {long:>8.0} plays/s   ratio {:.2}",
        long / short
    );
}

fn main() {
    // `cargo test --benches` runs this with `--bench` absent: a quick smoke run is not worth
    // 5,000 plies of setup.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-referee-bench");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let sqlite = |n: &str| dir.join(format!("{n}.db")).display().to_string();
    println!("committed plays per second (median of {ROUNDS} rounds of {ROUND} plays)");
    compare("sqlite, kept games", &sqlite("kept"), 4096);
    compare("sqlite, replayed", &sqlite("replayed"), 1);
    if let Ok(admin) = std::env::var("ANQI_TEST_POSTGRES_URL") {
        compare(
            "postgres, kept games",
            &scratch_postgres_database(&admin, "anqi_bench_referee").unwrap(),
            4096,
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
