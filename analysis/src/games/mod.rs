//! What the batch tool adds to each game of the registry: its bots, how `anqi score` writes
//! a scored game, and its own part of a report. A new game implements [`Tool`] in its module
//! here; [`Part`], [`Books`] and the parts' writing and tables follow from the registry
//! (`records::for_each_game!`).

use rand::rngs::SmallRng;
use records::core::{Outcome, Ply, Record, Rules, Scored, Seat};
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

    /// The action `bot` (an index into [`Tool::BOTS`]) plays among `actions`, the legal
    /// actions of `m` (never empty; identities left open: the dealer fills them in).
    fn choose(
        bot: usize,
        m: &Self::Match,
        actions: &[Self::Action],
        rng: &mut SmallRng,
    ) -> Self::Action;

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
    fn headlines(_tables: &[Table], _preset: &str) -> Vec<String> {
        Vec::new()
    }
    /// A sentence of the report on the whole game (from a table not kept by preset).
    fn headline(_tables: &[Table]) -> Option<String> {
        None
    }
    /// The report's sentence on the settings that apply to the game (from the summary).
    fn settings(_summary: &serde_json::Value) -> Option<String> {
        None
    }
}

/// [`Tool::headlines`] of the game `kind`.
pub fn headlines(kind: GameKind, tables: &[Table], preset: &str) -> Vec<String> {
    with_game!(kind, G => <G as Tool>::headlines(tables, preset))
}

/// [`Tool::headline`] of the game `kind`.
pub fn headline(kind: GameKind, tables: &[Table]) -> Option<String> {
    with_game!(kind, G => <G as Tool>::headline(tables))
}

/// [`Tool::settings`] of the game `kind`.
pub fn settings(kind: GameKind, summary: &serde_json::Value) -> Option<String> {
    with_game!(kind, G => <G as Tool>::settings(summary))
}

/// A chart of a game's own table in the report.
#[derive(Copy, Clone, Debug)]
pub enum ChartSpec {
    /// A histogram of `column` of `table`, pooled over the variants.
    Histogram {
        table: &'static str,
        column: &'static str,
        file: &'static str,
        title: &'static str,
        x_label: &'static str,
    },
    /// Per preset, a board of `files` × `ranks` squares (named like `a1` in column `square`),
    /// side by side, each square coloured by player 1's score on one scale for all, squares
    /// with few finished games grey.
    Heatmap {
        table: &'static str,
        square: &'static str,
        files: u8,
        ranks: u8,
        file: &'static str,
        title: &'static str,
    },
    /// Bars of `count` of `table` summed by `key`.
    Bars {
        table: &'static str,
        key: &'static str,
        count: &'static str,
        file: &'static str,
        title: &'static str,
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

/// The bot named `name` of game `G`, as an index into its [`Tool::BOTS`].
pub fn bot_index<G: Tool>(name: &str) -> Result<usize, String> {
    G::BOTS.iter().position(|b| *b == name).ok_or_else(|| {
        format!(
            "unknown bot {name:?} for {}: {}",
            G::NAME,
            G::BOTS.join(", ")
        )
    })
}

/// The settings of the games' report parts.
#[derive(Clone, Debug)]
pub struct PartOptions {
    /// Banqi: the coin table of the 戲谷 settlement.
    pub table: records::core::Table,
    /// Banqi: how many first flips of each game the flip table looks at.
    pub flip_depth: u32,
}
