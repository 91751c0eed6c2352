//! `anqi explore`: the opening explorer from the command line, over a record store or over
//! files (imported first into a store of their own, in a temporary directory removed after).

use std::path::PathBuf;
use std::process::ExitCode;

use records::core::Table;
use records::games::GameKind;
use records::store::{Explored, Lookup, Store};

/// What to explore, as the command line gives it.
#[derive(clap::Args, Debug)]
pub struct Order {
    /// Files or directories of records to explore (JSON, JSON Lines, TCGA); none: the store
    /// at --database.
    pub paths: Vec<PathBuf>,
    /// The record store (SQLite path or postgres:// URL) when no files are given.
    #[arg(long, env = "DATABASE_URL", default_value = "anqi.db")]
    pub database: String,
    /// The kind of game (default the first of `GET /v1/game-types`).
    #[arg(long)]
    pub game: Option<String>,
    /// A preset of the game (default its first).
    #[arg(long)]
    pub preset: Option<String>,
    /// Options over the preset's, as a JSON object (the variant).
    #[arg(long)]
    pub options: Option<String>,
    /// The position as every seat sees it; default the start.
    #[arg(long)]
    pub position: Option<String>,
    /// A node the explorer gave (16 hex digits: an answer's node, or a move's next), instead
    /// of a position.
    #[arg(long, conflicts_with = "position")]
    pub node: Option<String>,
    /// Actions from the position as every seat saw them, comma-separated (`a1(K),b1(k)`).
    #[arg(long, default_value = "")]
    pub actions: String,
    /// Only games these players played (comma-separated).
    #[arg(long, default_value = "")]
    pub players: String,
    /// Only games played on or after this date (YYYY-MM-DD).
    #[arg(long)]
    pub date_from: Option<String>,
    /// Only games played on or before this date (YYYY-MM-DD).
    #[arg(long)]
    pub date_to: Option<String>,
    /// Only games whose players' average rating (the store's leaderboard for this game and
    /// preset) is at least this; games with a seat unnamed or unrated are left out.
    #[arg(long, allow_hyphen_values = true)]
    pub rating_min: Option<f64>,
    /// Only games whose players' average rating is at most this.
    #[arg(long, allow_hyphen_values = true)]
    pub rating_max: Option<f64>,
    /// Games played for coins: the table's stake.
    #[arg(long, default_value_t = 100)]
    pub stake: u64,
    /// Games played for coins: coins per point of margin.
    #[arg(long, default_value_t = 5)]
    pub bonus_per_point: u64,
    /// Set the store's explorer depth first (plies; 0 turns the explorer off): the stored
    /// games are walked again.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Keep the explorer's counts by month too (on), or stop (off, the default), first: with
    /// them, requests filtered by dates count the months they cover whole instead of walking
    /// their games, and each import writes a row per position, action and month (5-8% of its
    /// time, docs/performance.md). The stored games are walked again.
    #[arg(long, value_enum)]
    pub months: Option<Switch>,
    /// Print the answer as JSON (as `GET /v1/explorer` gives it).
    #[arg(long)]
    pub json: bool,
}

/// A store setting turned on or off.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Switch {
    On,
    Off,
}

fn list(text: &str) -> Vec<String> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

pub fn run(order: &Order) -> ExitCode {
    match explore(order) {
        Ok(text) => {
            println!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("anqi explore: {e}");
            ExitCode::from(2)
        }
    }
}

fn explore(order: &Order) -> Result<String, String> {
    let options = match &order.options {
        None => serde_json::Map::new(),
        Some(text) => serde_json::from_str(text).map_err(|e| format!("--options: {e}"))?,
    };
    let lookup = Lookup {
        game: order
            .game
            .clone()
            .unwrap_or_else(|| GameKind::DEFAULT.name().to_owned()),
        preset: order.preset.clone(),
        options,
        position: order.position.clone(),
        node: order.node.clone(),
        actions: list(&order.actions),
        table: Table {
            stake: order.stake,
            bonus_per_point: order.bonus_per_point,
        },
        players: list(&order.players),
        date_from: order.date_from.clone(),
        date_to: order.date_to.clone(),
        rating_min: order.rating_min,
        rating_max: order.rating_max,
        // A batch tool: it walks every game that passes the filters, however long it takes.
        time_limit: None,
    };
    if let (Some(low), Some(high)) = (lookup.rating_min, lookup.rating_max)
        && low > high
    {
        return Err(format!(
            "--rating-min ({low}) is above --rating-max ({high})"
        ));
    }
    let scratch = (!order.paths.is_empty())
        .then(|| std::env::temp_dir().join(format!("anqi-explore-{}", std::process::id())));
    let answer = (|| {
        let database = match &scratch {
            Some(dir) => {
                std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
                let db = dir.join("explore.db").display().to_string();
                let options = crate::import::Options {
                    database: db.clone(),
                    batch: 10_000,
                    json: false,
                    verbose: false,
                };
                // The import says what it read (stored, invalid, unreadable) on its own.
                let _ = crate::import::run(&order.paths, &options);
                db
            }
            None => {
                // A store to read, not to make: a mistyped path would otherwise be a new,
                // empty store that answers 0 games for everything.
                if let Some(path) = records::store::sqlite_path(&order.database)
                    && !path.exists()
                {
                    return Err(format!(
                        "no record store at {}: name an existing one with --database (or \
                         DATABASE_URL), or import games into it first (anqi import FILES \
                         --database {})",
                        path.display(),
                        path.display()
                    ));
                }
                order.database.clone()
            }
        };
        let store = Store::open(&database).map_err(|e| e.to_string())?;
        if let Some(depth) = order.depth {
            store.set_explorer_depth(depth).map_err(|e| e.to_string())?;
        }
        if let Some(months) = order.months {
            store
                .set_explorer_months(months == Switch::On)
                .map_err(|e| e.to_string())?;
        }
        let ratings = records::store::RatingsCache::default();
        store.explore(&lookup, &ratings).map_err(|e| e.to_string())
    })();
    if let Some(dir) = &scratch {
        // Only the directory this run made, with the store it wrote.
        let _ = std::fs::remove_dir_all(dir);
    }
    let explored = answer?;
    Ok(if order.json {
        serde_json::to_string_pretty(&explored).expect("an answer serialises")
    } else {
        words(&explored, &lookup)
    })
}

/// The answer for people: the game's title, the position, and a line per action.
fn words(e: &Explored, lookup: &Lookup) -> String {
    let kind = e.game.parse::<GameKind>().ok();
    let title = kind.map_or(e.game.as_str(), |k| k.title());
    // The preset by its title, for people.
    let preset = kind
        .and_then(|k| {
            records::with_game!(k, G => records::core::rules::find_preset(G::PRESETS, Some(&e.preset))
                .ok()
                .map(|p| p.title))
        })
        .unwrap_or(e.preset.as_str());
    let mut out = format!("{title}, {preset}");
    let asked = &lookup.actions;
    if asked.is_empty() {
        out += if lookup.position.is_some() {
            ", the position given"
        } else {
            ", the start"
        };
    } else {
        out += &format!(", after {}", asked.join(" "));
    }
    if e.followed < asked.len() {
        out += &format!(
            "\nNo stored game played {} after {}.",
            asked[e.followed],
            if e.followed == 0 {
                "the position".to_owned()
            } else {
                asked[..e.followed].join(" ")
            }
        );
        return out;
    }
    out += &format!(
        "\n{} games (explored to {} {}); the side to move won {}, drew {}, lost {}",
        e.games,
        e.depth,
        if e.depth == 1 { "ply" } else { "plies" },
        e.wins,
        e.draws,
        e.losses
    );
    if let Some(f) = &e.filtered {
        out += &format!(
            "\nFiltered: {} games passed the filters",
            f.walked + f.counted
        );
        if f.counted > 0 {
            out += &format!(
                " ({} counted by month, {} walked one by one)",
                f.counted, f.walked
            );
        }
    }
    if e.moves.is_empty() {
        return out + "\nNo stored game went on from here.";
    }
    out += &format!(
        "\n{:<16} {:>7} {:>6} {:>6} {:>6}  {:<22} {:>8} {:>8}  examples",
        "action", "games", "won", "drawn", "lost", "score (95%, corrected)", "points", "coins"
    );
    for m in &e.moves {
        let score = format!(
            "{:.1}% ({:.1}–{:.1})",
            100.0 * m.score,
            100.0 * m.interval[0],
            100.0 * m.interval[1]
        );
        let coins = m
            .average_coins
            .map_or("-".to_owned(), |c| format!("{c:.1}"));
        let examples: Vec<String> = m.examples.iter().map(|id| format!("#{id}")).collect();
        out += &format!(
            "\n{:<16} {:>7} {:>6} {:>6} {:>6}  {:<22} {:>8.1} {:>8}  {}",
            m.action,
            m.games,
            m.wins,
            m.draws,
            m.losses,
            score,
            m.average_points,
            coins,
            examples.join(", ")
        );
    }
    out
}
