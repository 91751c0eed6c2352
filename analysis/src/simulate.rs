//! `anqi simulate`: seeded self-play on all cores, written as JSON Lines records in game
//! order. Game i is dealt and played from its own seed (derived from the run's seed and i),
//! so the output does not depend on the number of threads.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressStyle};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use records::core::Record;
use records::core::play::stated_result;
use records::games::GameKind;
use records::with_game;
use serde_json::Map;

use crate::clock::{self, Moves};
use crate::games::{BotSpec, Tool, bot_spec};
use records::core::{Engine as _, Turn as _};

pub struct Options {
    pub game: GameKind,
    /// The game's preset (its first when absent).
    pub preset: Option<String>,
    /// Options overriding the preset's (Luzhanqi's `--mode` is `{"mode": …}`).
    pub options: Map<String, serde_json::Value>,
    pub games: u64,
    pub seed: u64,
    /// The bots by name: one for every seat, or one per seat in turn order.
    pub bots: Vec<String>,
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

/// Plays game `index` of a run: deals the hidden truth from the game's seed, lets the
/// seats' bots choose, fills in what each action reveals from the deal. Also what the moves
/// of each bot of `bots` took.
pub fn play<G: Tool>(
    rules: &G::Ruleset,
    preset: &str,
    bots: &[BotSpec],
    options: &Options,
    index: u64,
) -> (Record, Vec<Moves>) {
    let seed = game_seed(options.seed, index);
    let mut rng = SmallRng::seed_from_u64(seed);
    let hidden = G::deal(rules, &mut rng);
    let start = G::start(rules, Some(&hidden)).expect("a dealt truth sets up a start");
    let mut actions = Vec::new();
    let mut buffer = Vec::with_capacity(64);
    let mut clocks = vec![Moves::default(); bots.len()];
    let choose = |m: &G::Match| {
        let i = m.position().to_move().index() % bots.len();
        m.legal_actions(&mut buffer);
        (!buffer.is_empty()).then(|| clocks[i].time(|| G::choose(bots[i], m, &buffer, &mut rng)))
    };
    let (_, end) = records::core::play::play_out::<G>(
        G::Match::from_position(*rules, start),
        Some(&hidden),
        options.max_plies,
        choose,
        |_, action| actions.push(action.to_string()),
    );
    let mut record = Record::new(G::NAME, preset, actions);
    record.options = options.options.clone();
    record.players = (0..G::seats(rules) as usize)
        .map(|i| options.bots[i % options.bots.len()].clone())
        .collect();
    record.layout = G::visibility(rules)
        .has_hidden()
        .then(|| G::hidden_value(&hidden));
    record.result = Some(stated_result(end));
    record
        .metadata
        .insert("seed".into(), serde_json::Value::from(seed));
    record
        .metadata
        .insert("game".into(), serde_json::Value::from(index));
    (record, clocks)
}

pub fn run(options: &Options) -> ExitCode {
    with_game!(options.game, G => run_game::<G>(options))
}

fn run_game<G: Tool>(options: &Options) -> ExitCode {
    let rules =
        match records::core::rules::ruleset::<G>(options.preset.as_deref(), &options.options) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("anqi simulate: {e}");
                return ExitCode::from(2);
            }
        };
    let preset = options
        .preset
        .clone()
        .unwrap_or_else(|| G::PRESETS[0].name.to_owned());
    let bots: Result<Vec<BotSpec>, String> =
        options.bots.iter().map(|b| bot_spec::<G>(b)).collect();
    let bots = match bots {
        Ok(b) if b.len() == 1 || b.len() == G::seats(&rules) as usize => b,
        Ok(_) => {
            eprintln!(
                "anqi simulate: --bot takes one bot, or {} separated by commas (one per seat)",
                G::seats(&rules)
            );
            return ExitCode::from(2);
        }
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
    let mut clocks = vec![Moves::default(); bots.len()];
    let process = clock::process_cpu();
    while next < options.games {
        let end = (next + ROUND).min(options.games);
        let played: Vec<(String, Vec<Moves>)> = pool.install(|| {
            use rayon::prelude::*;
            (next..end)
                .into_par_iter()
                .map(|i| {
                    let (record, clocks) = play::<G>(&rules, &preset, &bots, options, i);
                    bar.inc(1);
                    let text = serde_json::to_string(&record).expect("serialisable") + "\n";
                    (text, clocks)
                })
                .collect()
        });
        for (text, game_clocks) in played {
            for (total, game) in clocks.iter_mut().zip(&game_clocks) {
                total.merge(game);
            }
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
        "{} {} games ({}, {preset}) written to {}",
        options.games,
        G::NAME,
        options.bots.join(" vs "),
        options.output.display()
    );
    say_clocks(&options.bots, &clocks, clock::process_cpu() - process);
    ExitCode::SUCCESS
}

/// What each bot's moves took, and whether they account for the process's CPU time: work
/// done beside the moves (a thread a bot left running) would make the process's exceed the
/// moves' threads'.
fn say_clocks(names: &[String], clocks: &[Moves], process: std::time::Duration) {
    let mut by_name: Vec<(&str, Moves)> = Vec::new();
    for (name, moves) in names.iter().zip(clocks) {
        match by_name.iter_mut().find(|(n, _)| n == name) {
            Some((_, total)) => total.merge(moves),
            None => by_name.push((name, *moves)),
        }
    }
    for (name, moves) in &by_name {
        eprintln!("{name}: {}", moves.said());
    }
    let moves: f64 = clocks.iter().map(|m| m.cpu.as_secs_f64()).sum();
    eprintln!(
        "CPU time: the moves' threads {moves:.1} s, the whole process {:.1} s",
        process.as_secs_f64()
    );
}
