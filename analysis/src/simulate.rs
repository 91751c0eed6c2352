//! `anqi simulate`: seeded self-play on all cores, written as JSON Lines records in game
//! order. Game i is dealt and played from its own seed (derived from the run's seed and i),
//! so the output does not depend on the number of threads.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressStyle};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use records::banqi::{Game, Layout, Overrides, Ruleset, reveal_from_layout};
use records::record::{Record, StatedOutcome, StatedResult};

use crate::bots::Bot;

pub struct Options {
    pub preset: String,
    pub games: u64,
    pub seed: u64,
    /// Player 1's and player 2's bots.
    pub bots: [Bot; 2],
    pub output: PathBuf,
    pub max_plies: u32,
    pub threads: usize,
}

/// The seed of game `index` of a run: a SplitMix64 step, so neighbouring games are unrelated.
pub fn game_seed(run: u64, index: u64) -> u64 {
    let mut z = run ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays game `index` of a run.
pub fn play(rules: &Ruleset, preset: &str, options: &Options, index: u64) -> Record {
    let seed = game_seed(options.seed, index);
    let mut rng = SmallRng::seed_from_u64(seed);
    let layout = Layout::shuffled(&mut rng);
    let mut game = Game::new(*rules);
    let mut actions = Vec::new();
    let mut buffer = Vec::with_capacity(64);
    let end = loop {
        if let Some(end) = game.end() {
            break Some(end);
        }
        if game.position().ply() >= options.max_plies {
            break None;
        }
        let bot = options.bots[game.position().player_to_move().index()];
        let mut action = bot.choose(&game, &mut rng, &mut buffer);
        reveal_from_layout(&game, &layout, &mut action);
        game.play(&action).expect("a bot plays a legal action");
        actions.push(action.to_string());
    };
    let mut record = Record::new(preset, actions);
    record.players = options.bots.iter().map(|b| b.name().to_owned()).collect();
    record.layout = Some(layout);
    record.result = Some(match end {
        Some(end) => StatedResult {
            outcome: StatedOutcome::from_outcome(end.outcome),
            reason: Some(end.reason),
            period: end.period,
        },
        None => StatedResult {
            outcome: StatedOutcome::Ongoing,
            reason: None,
            period: None,
        },
    });
    record
        .metadata
        .insert("seed".into(), serde_json::Value::from(seed));
    record
        .metadata
        .insert("game".into(), serde_json::Value::from(index));
    record
}

pub fn run(options: &Options) -> ExitCode {
    let rules = match Ruleset::from_preset(&options.preset, &Overrides::default()) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("anqi simulate: {e}");
            return ExitCode::from(2);
        }
    };
    let file = match std::fs::File::create(&options.output) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("anqi simulate: {}: {e}", options.output.display());
            return ExitCode::from(2);
        }
    };
    let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
    let bar = ProgressBar::new(options.games).with_style(
        ProgressStyle::with_template(
            "{spinner} simulating [{bar:40}] {pos}/{len} games, {per_sec}, eta {eta}",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads.max(1))
        .build()
    {
        Ok(pool) => pool,
        Err(e) => {
            eprintln!("anqi simulate: {e}");
            return ExitCode::from(2);
        }
    };
    // Rounds of games played on all threads, then written in game order.
    const ROUND: u64 = 4096;
    let mut next = 0u64;
    while next < options.games {
        let end = (next + ROUND).min(options.games);
        let texts: Vec<String> = pool.install(|| {
            use rayon::prelude::*;
            (next..end)
                .into_par_iter()
                .map(|i| {
                    let record = play(&rules, &options.preset, options, i);
                    bar.inc(1);
                    serde_json::to_string(&record).expect("serialisable") + "\n"
                })
                .collect()
        });
        for text in texts {
            if let Err(e) = out.write_all(text.as_bytes()) {
                eprintln!("anqi simulate: {}: {e}", options.output.display());
                return ExitCode::from(2);
            }
        }
        next = end;
    }
    if let Err(e) = out.flush() {
        eprintln!("anqi simulate: {}: {e}", options.output.display());
        return ExitCode::from(2);
    }
    bar.finish_and_clear();
    eprintln!(
        "{} games ({} vs {}, {}) written to {}",
        options.games,
        options.bots[0].name(),
        options.bots[1].name(),
        options.preset,
        options.output.display()
    );
    ExitCode::SUCCESS
}
