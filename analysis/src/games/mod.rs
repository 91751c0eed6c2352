//! What the batch tool adds to each game of the registry: its bots, how `anqi score` writes
//! a scored game, and its own part of a report. A new game implements [`Tool`] in its module
//! here; [`Part`], [`Books`] and the parts' writing and tables follow from the registry
//! (`records::for_each_game!`).

use rand::rngs::SmallRng;
use records::core::language::Phrases;
use records::core::{Engine as _, Outcome, Ply, Record, Rules, Scored, Seat, Turn as _};
use records::games::GameKind;
use records::with_game;

use std::path::Path;

use polars::prelude::PolarsResult;

use crate::report::facts::{Facts, GameFacts, SeatFacts};
use crate::report::table::Table;

pub mod banqi;
pub mod luzhanqi;
pub mod three_kingdoms;
pub mod xiangqi;

/// A game as the batch tool knows it.
pub trait Tool: Rules {
    /// The bots of `anqi simulate`, by name.
    const BOTS: &'static [&'static str];

    /// The bots of [`Tool::BOTS`] that think for a given time when named `name:<millis>`.
    const TIMED_BOTS: &'static [&'static str] = &[];

    /// The action `bot` plays among `actions`, the legal actions of `m` (never empty;
    /// identities left open: the dealer fills them in).
    fn choose(
        bot: BotSpec,
        m: &Self::Match,
        actions: &[Self::Action],
        rng: &mut SmallRng,
    ) -> Self::Action;

    /// `anqi tune`: tunes the game's engine by self-play, printing each match and the
    /// weights found; an error for a game whose engine has no weights to tune.
    fn tune(options: &TuneOptions) -> Result<(), String> {
        let _ = options;
        Err(format!(
            "the engine of {} has no weights to tune yet",
            Self::NAME
        ))
    }

    /// `anqi perft`'s move counts, for a game whose move generator has published ones to
    /// match (xiangqi-3g: plain xiangqi's, from a FEN); None for the others.
    const PERFT: Option<Perft> = None;

    /// The game's own tables in the data contract.
    const TABLES: &'static [crate::report::contract::TableSpec];

    /// The charts of the game's own tables in the report.
    const CHARTS: &'static [ChartSpec] = &[];

    /// How a scored game ended (None while unfinished).
    fn outcome(score: &Self::Score) -> Option<Outcome>;
    /// What the game's settlement pays: payer, payee, coins; None when nothing is paid.
    fn payment(score: &Self::Score) -> Option<(Seat, Seat, u64)>;
    /// One line of `anqi score` for a scored game (tab-separated fields).
    fn score_text(score: &Self::Score) -> String;

    /// What the report part collects while a record replays.
    type Watch: Default;
    fn watch(watch: &mut Self::Watch, ply: &Ply<Self>);
    /// The game's own facts of one record (its part of the report).
    type Facts: Clone + std::fmt::Debug;
    /// The game's own facts of a replayed record, as its variant of [`Part`].
    fn part(watch: Self::Watch, record: &Record, scored: &Scored<Self>) -> Part;

    /// What the game's part keeps across games, in input order (Banqi: the settlement series
    /// of each pair of players).
    type Book: Default;
    fn book(_options: &PartOptions) -> Self::Book {
        Self::Book::default()
    }
    /// Settles what depends on the games before this one (called in input order).
    fn settle(_facts: &mut Self::Facts, _seats: &[SeatFacts], _book: &mut Self::Book) {}

    /// Writes the game's own rows of one chunk; gives the number of rows of its detail
    /// tables (Banqi: flips; 0 for a game without).
    fn write(facts: &[(&GameFacts, &Self::Facts)], data: &Path, part: &str) -> PolarsResult<usize>;
    /// The game's own tables, when the dataset has its games.
    fn tables(data: &Path, options: &PartOptions) -> PolarsResult<Vec<Table>>;

    /// The report's sentences on the game's own question for `preset`, after the sentences
    /// every game has (`report::headlines` has the helpers).
    fn headlines(_tables: &[Table], _preset: &str, _say: &Phrases) -> Vec<String> {
        Vec::new()
    }
    /// A sentence of the report on the whole game (from a table not kept by preset).
    fn headline(_tables: &[Table], _say: &Phrases) -> Option<String> {
        None
    }
    /// The report's sentence on the settings that apply to the game (from the summary).
    fn settings(_summary: &serde_json::Value, _say: &Phrases) -> Option<String> {
        None
    }
    /// A code of the game's own that its tables key on (`column`), in words for the page
    /// (None: not one of its codes).
    fn said(_column: &str, _code: &str, _say: &Phrases) -> Option<String> {
        None
    }
}

/// [`Tool::said`] of the game `kind`.
pub fn said(kind: GameKind, column: &str, code: &str, say: &Phrases) -> Option<String> {
    with_game!(kind, G => <G as Tool>::said(column, code, say))
}

/// [`Tool::headlines`] of the game `kind`.
pub fn headlines(kind: GameKind, tables: &[Table], preset: &str, say: &Phrases) -> Vec<String> {
    with_game!(kind, G => <G as Tool>::headlines(tables, preset, say))
}

/// [`Tool::headline`] of the game `kind`.
pub fn headline(kind: GameKind, tables: &[Table], say: &Phrases) -> Option<String> {
    with_game!(kind, G => <G as Tool>::headline(tables, say))
}

/// [`Tool::settings`] of the game `kind`.
pub fn settings(kind: GameKind, summary: &serde_json::Value, say: &Phrases) -> Option<String> {
    with_game!(kind, G => <G as Tool>::settings(summary, say))
}

/// A chart of a game's own table in the report.
#[derive(Copy, Clone, Debug)]
pub enum ChartSpec {
    /// A histogram of `column` of `table`, pooled over the variants.
    Histogram {
        table: &'static str,
        column: &'static str,
        /// The chart's file name; its title and axis are the words `report.chart.<file>`
        /// and `report.chart.<file>.axis`.
        file: &'static str,
    },
    /// Per preset, a board of `files` × `ranks` squares (named like `a1` in column `square`),
    /// side by side, each square coloured by player 1's score on one scale for all, squares
    /// with few finished games grey.
    Heatmap {
        table: &'static str,
        square: &'static str,
        files: u8,
        ranks: u8,
        /// The chart's file name; its title is the words `report.chart.<file>`.
        file: &'static str,
    },
    /// Bars of `count` of `table` summed by `key`.
    Bars {
        table: &'static str,
        key: &'static str,
        count: &'static str,
        /// The chart's file name; its title is the words `report.chart.<file>`.
        file: &'static str,
    },
}

/// A game's perft: the position it counts from by default; the leaves `depth` plies ahead of
/// a position; the same under each legal move (its move in notation, `depth` ≥ 1).
#[derive(Copy, Clone)]
pub struct Perft {
    pub start: &'static str,
    pub count: fn(position: &str, depth: u32) -> Result<u64, String>,
    pub divide: fn(position: &str, depth: u32) -> Result<Vec<(String, u64)>, String>,
}

macro_rules! define_parts {
    (() $($Kind:ident => $module:ident :: $G:ident,)+) => {
        /// A game's own facts of one record, for its part of the report.
        #[derive(Clone, Debug)]
        pub enum Part {
            $($Kind(<records::games::$module::$G as Tool>::Facts),)+
        }

        /// What the report parts keep across games, in input order.
        #[allow(non_snake_case)]
        pub struct Books {
            $($Kind: <records::games::$module::$G as Tool>::Book,)+
        }

        impl Books {
            pub fn new(options: &PartOptions) -> Books {
                Books {
                    $($Kind: <records::games::$module::$G as Tool>::book(options),)+
                }
            }
        }

        impl Part {
            /// Settles what depends on the games before this one (called in input order).
            pub fn settle(&mut self, seats: &[SeatFacts], books: &mut Books) {
                match self {
                    $(Part::$Kind(facts) => {
                        <records::games::$module::$G as Tool>::settle(facts, seats, &mut books.$Kind)
                    })+
                }
            }
        }

        /// Writes the parts of one chunk (each game's own tables); gives the number of rows of
        /// the games' detail tables (Banqi: flips).
        #[allow(non_snake_case)]
        pub fn write_parts(facts: &[Facts], data: &Path, part: &str) -> PolarsResult<usize> {
            $(let mut $Kind = Vec::new();)+
            for f in facts {
                match &f.part {
                    $(Part::$Kind(p) => $Kind.push((&f.game, p)),)+
                }
            }
            let mut details = 0;
            $(if !$Kind.is_empty() {
                details += <records::games::$module::$G as Tool>::write(&$Kind, data, part)?;
            })+
            Ok(details)
        }

        /// Every game's own tables, for the games in the dataset.
        pub fn part_tables(data: &Path, options: &PartOptions) -> PolarsResult<Vec<Table>> {
            let mut tables = Vec::new();
            $(tables.extend(
                <records::games::$module::$G as Tool>::tables(data, options)?
                    .into_iter()
                    .map(|mut t| {
                        t.game = Some(<records::games::$module::$G as records::core::Game>::NAME.to_owned());
                        t
                    }),
            );)+
            Ok(tables)
        }

        /// Every game's own charts with the game's name, in the registry's order.
        pub fn charts() -> impl Iterator<Item = (&'static str, ChartSpec)> {
            std::iter::empty()
                $(.chain(<records::games::$module::$G as Tool>::CHARTS.iter().map(|c| {
                    (<records::games::$module::$G as records::core::Game>::NAME, *c)
                })))+
        }

        /// Every game's own tables in the data contract, in the registry's order.
        pub fn tables() -> impl Iterator<Item = &'static crate::report::contract::TableSpec> {
            std::iter::empty()
                $(.chain(<records::games::$module::$G as Tool>::TABLES.iter()))+
        }
    };
}

records::for_each_game!(define_parts);

/// An `anqi tune` run's settings (its command-line options).
#[derive(Clone, Debug, clap::Args)]
pub struct TuneOptions {
    /// Deals per match (each played twice, colours swapped).
    #[arg(long, default_value_t = 100)]
    pub deals: u64,
    /// The run's seed (the deals).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Positions searched per move.
    #[arg(long, default_value_t = 10_000)]
    pub nodes: u64,
    /// Passes over the weights.
    #[arg(long, default_value_t = 1)]
    pub rounds: u32,
    /// Stop a game after this many plies (counted as a draw).
    #[arg(long, default_value_t = 1000)]
    pub max_plies: u32,
}

/// `anqi tune` for the game named `game` (the default game when None).
pub fn tune(
    game: Option<&str>,
    options: &TuneOptions,
    threads: Option<usize>,
) -> std::process::ExitCode {
    let game = match game.map_or(Ok(records::games::GameKind::DEFAULT), str::parse) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("anqi tune: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    if let Some(n) = threads {
        // Only the first pool set wins; the run has not started one.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global();
    }
    match records::with_game!(game, G => G::tune(options)) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("anqi tune: {e}");
            std::process::ExitCode::from(2)
        }
    }
}

/// The budget per action of the `engine` bot of a game searched by information sets when no
/// time is given: plies played in the search (the same answer on every machine).
pub const ENGINE_PLIES: u64 = 20_000;

/// The action the game's engine chooses among `actions` (the legal actions of `m`) for the
/// side to move, thinking `millis` per action or [`ENGINE_PLIES`]. `m` is the dealer's match
/// and may hold the hidden truth: the engine reads only what the side to move may know.
pub fn engine_choice<G: Tool>(
    m: &G::Match,
    actions: &[G::Action],
    millis: Option<u64>,
) -> G::Action {
    let limits = match millis {
        Some(ms) => records::core::analysis::Limits {
            millis: Some(ms),
            ..Default::default()
        },
        None => records::core::analysis::Limits {
            nodes: Some(ENGINE_PLIES),
            ..Default::default()
        },
    };
    let seat = m.position().to_move();
    let best = G::decide(m, Some(seat), &limits).ok().flatten();
    best.and_then(|best| actions.iter().find(|a| a.to_string() == best).cloned())
        .unwrap_or_else(|| actions[0].clone())
}

/// A bot of `anqi simulate`: which of its game's [`Tool::BOTS`], and for a timed one the
/// time it may think per action (`engine:100`: 100 ms).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BotSpec {
    pub index: usize,
    pub millis: Option<u64>,
}

/// The bot named `text` of game `G`: a name of [`Tool::BOTS`], with `:<millis>` for one of
/// [`Tool::TIMED_BOTS`].
pub fn bot_spec<G: Tool>(text: &str) -> Result<BotSpec, String> {
    let (name, millis) = match text.split_once(':') {
        Some((name, ms)) => {
            if !G::TIMED_BOTS.contains(&name) {
                return Err(format!(
                    "bot {name:?} of {} takes no time (timed bots: {})",
                    G::NAME,
                    if G::TIMED_BOTS.is_empty() {
                        "none".to_owned()
                    } else {
                        G::TIMED_BOTS.join(", ")
                    }
                ));
            }
            match ms.parse::<u64>() {
                Ok(ms) if (1..=600_000).contains(&ms) => (name, Some(ms)),
                _ => {
                    return Err(format!(
                        "bot {text:?}: the time after ':' is milliseconds per action, 1 to 600000"
                    ));
                }
            }
        }
        None => (text, None),
    };
    let index = G::BOTS.iter().position(|b| *b == name).ok_or_else(|| {
        format!(
            "unknown bot {name:?} for {}: {}",
            G::NAME,
            G::BOTS.join(", ")
        )
    })?;
    Ok(BotSpec { index, millis })
}

/// The settings of the games' report parts.
#[derive(Clone, Debug)]
pub struct PartOptions {
    /// Banqi: the coin table of the 戲谷 settlement.
    pub table: records::core::Table,
    /// Banqi: how many first flips of each game the flip table looks at.
    pub flip_depth: u32,
}
