//! `anqi`: the Anqi batch tool.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod inputs;
mod validate;

#[derive(Parser)]
#[command(
    name = "anqi",
    version,
    about = "Anqi (暗棋) batch tool: validate game records"
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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Validate { paths, json, quiet } => validate::run(&paths, json, quiet),
    }
}
