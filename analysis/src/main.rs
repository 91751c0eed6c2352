//! `anqi`: the Anqi batch tool.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod import;
mod inputs;
mod score;
mod validate;

#[derive(Parser)]
#[command(
    name = "anqi",
    version,
    about = "Anqi (暗棋) batch tool: validate, score and import game records"
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
