//! `anqi`: the Anqi batch tool.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod analyze;
mod clock;
mod explore;
mod export;
mod games;
mod import;
mod inputs;
mod perft;
mod render;
mod report;
mod score;
mod simulate;
mod validate;

// Replay allocates small strings by the million (an action per ply): mimalloc serves them in
// a fraction of the system allocator's time (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "anqi",
    version,
    about = "Anqi (暗棋) batch tool for every game of the toolkit: validate, score, import, explore, export, report, analyze, render, simulate, tune and perft",
    after_help = "Exit codes: 0 done; 1 a record given was refused (unreadable, or it does not replay: the rest is done and the refused ones are listed); 2 the command cannot run (its arguments, a file or a database). `anqi <command> --help` tells more."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Draw a game record as an animated PNG, or one position as PNG or SVG.
    ///
    /// Its replay as an animated PNG (the start, then one frame per ply with the action
    /// marked; browsers and chat apps play it), or with --ply the position after one ply as
    /// PNG or SVG. Reads JSON, JSON Lines and TCGA files (--index picks one of a file's
    /// records) and prints where the picture went.
    #[command(display_order = 7)]
    Render(render::Order),
    /// The opening explorer: what games played from a position, and how it scored.
    ///
    /// For a game, a preset (or options) and a public position (the start, a position string,
    /// or the actions every seat saw from it), the actions played next with their games, wins,
    /// draws and losses for the side to move, the score with its 95% interval corrected for the
    /// number of actions listed, average points (and coins), and example game ids. Reads a
    /// record store (--database), or files, imported first into a temporary store.
    #[command(display_order = 4)]
    Explore(explore::Order),
    /// Count the positions N plies ahead (perft), the move generator's reference test.
    ///
    /// From xiangqi's start, 44, 1,920, 79,666 and 3,290,240 for depths 1–4. Prints the count
    /// (with --divide, first the count under each legal move) and the speed on stderr.
    #[command(display_order = 10)]
    Perft {
        /// The game whose moves are counted: plain xiangqi (`xiangqi`, the default, the only
        /// game with published counts; the base of xiangqi-3g, whose name is taken too).
        #[arg(long)]
        game: Option<String>,
        /// A FEN (xqbase: `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`);
        /// the start position by default.
        #[arg(long)]
        position: Option<String>,
        /// Plies ahead.
        #[arg(long)]
        depth: u32,
        /// Also print the count under each legal move (ICCS).
        #[arg(long)]
        divide: bool,
    },
    /// Replay and validate game records: one verdict per game.
    ///
    /// Reads JSON (.json), JSON Lines (.jsonl, .ndjson) and TCGA files (anything else);
    /// directories are read recursively. Prints one verdict per game and a summary; exits
    /// with 1 when any record is invalid or unreadable.
    #[command(display_order = 1)]
    Validate {
        /// Files or directories to read (JSON, JSON Lines, TCGA; directories recursively);
        /// `-` reads standard input (JSON Lines, a JSON array or TCGA, told by its first character).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Print one JSON verdict per line instead of text.
        #[arg(long)]
        json: bool,
        /// Print only the invalid games and the summary.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Score game records: points per player, and Banqi's 戲谷 coin settlement.
    ///
    /// Banqi: piece points (棋點) per player, first flips and 門棋加倍, and the 戲谷 coin
    /// settlement. The games of one file are settled as a series: draws between the same two
    /// players carry their stake into the next decided game (和棋續盤), and each file ends
    /// with the players' running balances. Exits with 1 when any record cannot be scored
    /// (unreadable or invalid).
    #[command(display_order = 2)]
    Score {
        /// Files or directories to read (JSON, JSON Lines, TCGA; directories recursively);
        /// `-` reads standard input (JSON Lines, a JSON array or TCGA, told by its first character).
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
    /// Import game records into the record store (SQLite or PostgreSQL).
    ///
    /// Every record is replayed; valid ones are stored (once: a record already stored is
    /// reported as such), invalid ones are reported with the reason and not stored. Games are
    /// committed in batches, each all-or-nothing; a game is reported stored only after its
    /// batch committed. Exits with 1 when any record is invalid or unreadable.
    #[command(display_order = 3)]
    Import {
        /// Files or directories to read (JSON, JSON Lines, TCGA; directories recursively);
        /// `-` reads standard input (JSON Lines, a JSON array or TCGA, told by its first character).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// The database: a SQLite file, or postgres://user:password@host/db.
        #[arg(long, env = "DATABASE_URL", default_value = "anqi.db")]
        database: String,
        /// Games per transaction: each batch is stored whole or not at all. Memory does not
        /// grow with it (a batch is replayed and written a thousand games at a time); larger
        /// batches import faster (each commit rewrites the index pages it touched) and hold
        /// the database's write lock longer (50,000 games: one to two seconds).
        #[arg(long, default_value_t = 50_000)]
        batch: usize,
        /// One JSON line per game (stored, duplicate, invalid) and a JSON summary.
        #[arg(long)]
        json: bool,
        /// Also list the stored and duplicate games (invalid ones are always listed).
        #[arg(long, short)]
        verbose: bool,
    },
    /// Self-play: deal N games from a seed and let bots play them.
    ///
    /// On all cores, writing JSON Lines records (with the hidden truth, every action and the
    /// result). The same seed gives the same games, whatever the number of threads.
    #[command(display_order = 8)]
    Simulate {
        /// The game: banqi (the default), three-kingdoms, luzhanqi or xiangqi-3g.
        #[arg(long)]
        game: Option<String>,
        /// The preset the games are played under (the game's first preset by default: Banqi's
        /// tcga, Luzhanqi's dark).
        #[arg(long)]
        preset: Option<String>,
        /// Luzhanqi: the mode, open, dark or flip (the option `mode` over the preset's);
        /// every legal setup is equally likely in open and dark games.
        #[arg(long)]
        mode: Option<String>,
        /// How many games.
        #[arg(long, default_value_t = 1000)]
        games: u64,
        /// The run's seed; game i is dealt and played from a seed derived from it.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// The bots: one for every seat, or one per seat in turn order separated by commas
        /// (every game: random, greedy, engine; Banqi also search, misty — MistyBanqi as its
        /// author ships it — and misty-735, its older, weaker configuration). A searching bot
        /// takes a time per action as `engine:100` (100 ms, all of it on the thread that plays
        /// the move; the run ends by saying what each bot's moves took; without it a fixed
        /// number of positions, the same games on every machine). The engine of a game with
        /// hidden identities chooses from what its seat may know, never the dealt truth.
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
    /// Review a game with the engine, ply by ply, or analyse one position.
    ///
    /// The score after every ply from player 1's side (centipawns, where 100 is a soldier at
    /// the start, and the chances of a win, draw and loss), the engine's best action there,
    /// and the centipawns
    /// each action played gave up against the best it saw; with --chart, player 1's expected
    /// score over the game. Or one position. Reads JSON, JSON Lines and TCGA files.
    #[command(display_order = 6)]
    Analyze(analyze::Order),
    /// Tune a game's engine by self-play.
    ///
    /// From its documented start weights, each weight in
    /// turn one step up and down plays the current weights over the same deals (each twice,
    /// colours swapped, a fixed number of positions searched per move: the same run on every
    /// machine); a candidate scoring 53% or more replaces them. Prints every match and, last,
    /// the weights found (docs/engine.md shows the run that chose the engine's).
    #[command(display_order = 9)]
    Tune {
        /// The game whose engine is tuned (Banqi, the default: the only one with weights yet).
        #[arg(long)]
        game: Option<String>,
        #[command(flatten)]
        options: games::TuneOptions,
        /// Worker threads (default: one per core).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Write a statistics report of game logs: tables, charts and an HTML page.
    ///
    /// Replays game logs of any game into Polars tables (Parquet, hive layout by game and
    /// preset) and writes a statistics report: results by preset, variant, seat and side, game
    /// length, endings, and each game's own tables (Banqi: flip openings, point margins,
    /// bonuses and settlements; Three Kingdoms: results by claim order, points by place per
    /// ending; Luzhanqi: results by mode and first mover's side, which piece took the flag);
    /// each rate with a 95% interval; charts (PNG and SVG), a
    /// self-contained HTML page, the numbers as JSON and CSV. Invalid games are counted and
    /// listed, not dropped silently (exit 1 then; exit 3 when the inputs hold no game at
    /// all). Every table is counts: `--merge` adds up reports of parts of a data set into the
    /// report of the whole. The output is a new or empty directory, or an earlier report (its
    /// manifest `.anqi-report` says so), of which only what the report wrote is replaced; the
    /// report is written beside it and moved into place whole, so a failed report leaves
    /// nothing.
    #[command(display_order = 5)]
    Report {
        /// JSON Lines, JSON or TCGA files or directories, and record stores (a SQLite file,
        /// `sqlite:path/to/anqi.db` or `postgres://…`); `-` reads standard input; with
        /// `--merge`, report directories.
        #[arg(required = true)]
        inputs: Vec<String>,
        /// Merge reports (their stats.json and data/) instead of reading game logs.
        #[arg(long)]
        merge: bool,
        /// The inputs are statistics already counted: the output of analysis/spark/anqi_sql.py
        /// (Spark or DuckDB; its stats.json), or reports. Draws the report from them (merged,
        /// when there are several): the same page, charts and CSVs.
        #[arg(long, conflicts_with = "merge")]
        from_tables: bool,
        /// The report directory: new, empty, or an earlier report (only what that report
        /// wrote is replaced; anything else there is left alone, and a directory that is
        /// neither is refused).
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
        /// The language of the page, its charts and the players' pages: en, zh-Hant
        /// (繁體中文) or zh-Hans (简体中文); zh-TW, zh-CN and the like are read as one of these.
        /// The CSV, JSON and Parquet keep their codes whatever the language.
        #[arg(long, default_value = "en", value_name = "LANGUAGE")]
        lang: records::core::language::Language,
    },
    /// Write the report's dataset alone (Parquet), for Spark or DuckDB.
    ///
    /// Replays game records into the report's dataset (Parquet, hive layout by game and
    /// preset; docs/analysis.md, "The data contract"), streaming. Several exports may write
    /// into one directory (their parts never share a name, and nothing there is deleted): N
    /// machines given the same inputs each run `--part K/N` and export their share of the
    /// games. Exits 1 when some records were invalid (listed in invalid-<run>.csv, the first
    /// 1,000).
    #[command(display_order = 4)]
    Export {
        /// JSON Lines, JSON or TCGA files or directories, and record stores (a SQLite file,
        /// `sqlite:path/to/anqi.db` or `postgres://…`); `-` reads standard input.
        #[arg(required = true)]
        inputs: Vec<String>,
        /// The dataset directory (created; parts are added to what it holds).
        #[arg(long, short)]
        output: PathBuf,
        /// This machine's share, K/N: the games whose players' names hash to K-1 modulo N
        /// (every game between the same players in one share, in input order; a record
        /// that cannot be read goes by its number, K-1 modulo N).
        #[arg(long, value_name = "K/N")]
        part: Option<report::ingest::Share>,
        /// Stake S of the coin settlement (Banqi's `settlement` column).
        #[arg(long, default_value_t = 100)]
        stake: u64,
        /// Points bonus B of the coin settlement (Banqi's `bonus` column).
        #[arg(long, default_value_t = 5)]
        bonus: u64,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Validate { paths, json, quiet } => validate::run(&paths, json, quiet),
        Command::Analyze(order) => analyze::run(&order),
        Command::Explore(order) => explore::run(&order),
        Command::Tune {
            game,
            options,
            threads,
        } => games::tune(game.as_deref(), &options, threads),
        Command::Perft {
            game,
            position,
            depth,
            divide,
        } => perft::run(game.as_deref(), position.as_deref(), depth, divide),
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
            game,
            preset,
            mode,
            games,
            seed,
            bot,
            output,
            max_plies,
            threads,
        } => {
            let game = match game.map_or(Ok(records::games::GameKind::DEFAULT), |g| g.parse()) {
                Ok(g) => g,
                Err(e) => {
                    eprintln!("anqi simulate: {e}");
                    return ExitCode::from(2);
                }
            };
            // `--mode` is the ruleset option `mode`, for a game whose rulesets have one.
            let (has_mode, presets): (bool, Vec<&str>) = records::with_game!(game, G => (
                G::options().iter().any(|o| o.name == "mode"),
                G::PRESETS.iter().map(|p| p.name).collect(),
            ));
            if mode.is_some() && !has_mode {
                eprintln!(
                    "anqi simulate: --mode is the ruleset option `mode` (open, dark, flip); {game} has no such option: it has presets"
                );
                return ExitCode::from(2);
            }
            // `--mode open` alone plays the preset of that name; with a preset, it overrides the
            // preset's mode.
            let mut options = serde_json::Map::new();
            let mut preset = preset;
            if let Some(mode) = mode {
                if preset.is_none() && presets.contains(&mode.as_str()) {
                    preset = Some(mode);
                } else {
                    options.insert("mode".into(), serde_json::Value::from(mode));
                }
            }
            simulate::run(&simulate::Options {
                game,
                preset,
                options,
                games,
                seed,
                bots: bot.split(',').map(str::to_owned).collect(),
                output,
                max_plies,
                threads: threads
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
            })
        }
        Command::Report {
            inputs,
            merge,
            from_tables,
            output,
            stake,
            bonus,
            flips,
            lang,
        } => report::run(&report::Options {
            inputs,
            output,
            language: lang,
            // Counted tables make a report as reports' tables merge: the same reading.
            merge: merge || from_tables,
            parts: games::PartOptions {
                table: records::core::Table {
                    stake,
                    bonus_per_point: bonus,
                },
                flip_depth: flips,
            },
        }),
        Command::Export {
            inputs,
            output,
            part,
            stake,
            bonus,
        } => export::run(&export::Options {
            inputs,
            output,
            share: part,
            parts: games::PartOptions {
                table: records::core::Table {
                    stake,
                    bonus_per_point: bonus,
                },
                flip_depth: 2,
            },
        }),
        Command::Render(order) => render::run(&order),
        Command::Score {
            paths,
            stake,
            bonus,
            json,
        } => score::run(
            &paths,
            records::core::Table {
                stake,
                bonus_per_point: bonus,
            },
            json,
        ),
    }
}
