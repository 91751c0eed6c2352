//! `anqi`: the Anqi batch tool.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod bots;
mod import;
mod inputs;
mod report;
mod score;
mod simulate;
mod validate;

#[derive(Parser)]
#[command(
    name = "anqi",
    version,
    about = "Anqi (暗棋) batch tool: validate, score, import, simulate and report on game records"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Replay and validate game records: JSON (.json), JSON Lines (.jsonl, .ndjson) and TCGA
    /// files (anything else); directories are read recursively. Prints one verdict per game
    /// and a summary; exits with 1 when any record is invalid or unreadable.
    Validate {
        /// Files or directories to read.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Print one JSON verdict per line instead of text.
        #[arg(long)]
        json: bool,
        /// Print only the invalid games and the summary.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Score game records: piece points (棋點) per player, first flips and 門棋加倍, and the
    /// 戲谷 coin settlement. The games of one file are settled as a series: draws between the
    /// same two players carry their stake into the next decided game (和棋續盤), and each
    /// file ends with the players' running balances. Exits with 1 when any record cannot be
    /// scored (unreadable or invalid).
    Score {
        /// Files or directories to read (JSON, JSON Lines, TCGA).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// The table's stake S (開局金幣), in coins.
        #[arg(long, default_value_t = 100)]
        stake: u64,
        /// The points bonus B (勝點加碼): coins per point of the winner's margin.
        #[arg(long, default_value_t = 5)]
        bonus: u64,
        /// Print one JSON object per game and per series instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Import game records into the record store: every record is replayed; valid ones are
    /// stored (once: a record already stored is reported as such), invalid ones are reported
    /// with the reason and not stored. Games are committed in batches, each all-or-nothing;
    /// a game is reported stored only after its batch committed. Exits with 1 when any
    /// record is invalid or unreadable.
    Import {
        /// Files or directories to read (JSON, JSON Lines, TCGA; directories recursively).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// The database: a SQLite file, or postgres://user:password@host/db.
        #[arg(long, env = "DATABASE_URL", default_value = "anqi.db")]
        database: String,
        /// Games per transaction.
        #[arg(long, default_value_t = 1000)]
        batch: usize,
        /// One JSON line per game (stored, duplicate, invalid) and a JSON summary.
        #[arg(long)]
        json: bool,
        /// Also list the stored and duplicate games (invalid ones are always listed).
        #[arg(long, short)]
        verbose: bool,
    },
    /// Self-play: deal N games from a seed and let bots play them, on all cores, writing
    /// JSON Lines records (with the layout, every action and the result). The same seed gives
    /// the same games, whatever the number of threads.
    Simulate {
        /// The preset the games are played under.
        #[arg(long, default_value = "tcga")]
        preset: String,
        /// How many games.
        #[arg(long, default_value_t = 1000)]
        games: u64,
        /// The run's seed; game i is dealt and played from a seed derived from it.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// The bots: one for both players, or player 1's and player 2's separated by a comma
        /// (random, greedy, search).
        #[arg(long, default_value = "random")]
        bot: String,
        /// The output file (JSON Lines).
        #[arg(long, short)]
        output: PathBuf,
        /// Stop a game after this many plies (it is then recorded as ongoing).
        #[arg(long, default_value_t = 2000)]
        max_plies: u32,
        /// Worker threads (default: one per core).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Replay game logs into Polars tables (Parquet, hive layout by preset) and write a
    /// statistics report: flip openings, win/draw rates by variant and colour, point margins,
    /// bonuses and settlements, game length, endings; each rate with a 95% interval; charts
    /// (PNG and SVG), a self-contained HTML page, the numbers as JSON and CSV. Invalid games
    /// are counted and listed, not dropped silently.
    Report {
        /// JSON Lines, JSON or TCGA files or directories, and record stores
        /// (`sqlite:path/to/anqi.db` or `postgres://…`).
        #[arg(required = true)]
        inputs: Vec<String>,
        /// The report directory (created; its data/ is rebuilt).
        #[arg(long, short, default_value = "report")]
        output: PathBuf,
        /// Stake S of the coin settlement.
        #[arg(long, default_value_t = 100)]
        stake: u64,
        /// Points bonus B of the coin settlement.
        #[arg(long, default_value_t = 5)]
        bonus: u64,
        /// How many first flips of each game the flip table looks at.
        #[arg(long, default_value_t = 2)]
        flips: u32,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Validate { paths, json, quiet } => validate::run(&paths, json, quiet),
        Command::Import {
            paths,
            database,
            batch,
            json,
            verbose,
        } => import::run(
            &paths,
            &import::Options {
                database,
                batch,
                json,
                verbose,
            },
        ),
        Command::Simulate {
            preset,
            games,
            seed,
            bot,
            output,
            max_plies,
            threads,
        } => {
            let bots: Result<Vec<bots::Bot>, String> = bot.split(',').map(str::parse).collect();
            let bots = match bots.as_deref() {
                Ok([one]) => [*one, *one],
                Ok([first, second]) => [*first, *second],
                Ok(_) => {
                    eprintln!("anqi simulate: --bot takes one bot, or two separated by a comma");
                    return ExitCode::from(2);
                }
                Err(e) => {
                    eprintln!("anqi simulate: {e}");
                    return ExitCode::from(2);
                }
            };
            simulate::run(&simulate::Options {
                preset,
                games,
                seed,
                bots,
                output,
                max_plies,
                threads: threads
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
            })
        }
        Command::Report {
            inputs,
            output,
            stake,
            bonus,
            flips,
        } => report::run(&report::Options {
            inputs,
            output,
            table: records::settlement::Table {
                stake,
                bonus_per_point: bonus,
            },
            flip_depth: flips,
        }),
        Command::Score {
            paths,
            stake,
            bonus,
            json,
        } => score::run(
            &paths,
            records::settlement::Table {
                stake,
                bonus_per_point: bonus,
            },
            json,
        ),
    }
}
