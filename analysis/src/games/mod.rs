//! What the batch tool adds to each game of the registry: its bots, how `anqi score` writes
//! a scored game, and its own part of a report. A new game implements [`Tool`] and adds its
//! report part to [`Part`].

use rand::rngs::SmallRng;
use records::core::{Outcome, Ply, Record, Rules, Scored, Seat};

use crate::report::facts::{Facts, SeatFacts};

pub mod banqi;
pub mod luzhanqi;
pub mod three_kingdoms;
pub mod xiangqi;

/// A game as the batch tool knows it.
pub trait Tool: Rules {
    /// The bots of `anqi simulate`, by name.
    const BOTS: &'static [&'static str];

    /// One of the legal actions of `m`, as `bot` (an index into [`Tool::BOTS`]) plays it;
    /// identities left open (the dealer fills them in). `buffer` is reused between calls.
    fn choose(
        bot: usize,
        m: &Self::Match,
        rng: &mut SmallRng,
        buffer: &mut Vec<Self::Action>,
    ) -> Self::Action;

    /// How a scored game ended (None while unfinished).
    fn outcome(score: &Self::Score) -> Option<Outcome>;
    /// What the game's settlement pays: payer, payee, coins; None when nothing is paid.
    fn payment(score: &Self::Score) -> Option<(Seat, Seat, u64)>;
    /// One line of `anqi score` for a scored game (tab-separated fields).
    fn score_text(score: &Self::Score) -> String;

    /// What the report part collects while a record replays.
    type Watch: Default;
    fn watch(watch: &mut Self::Watch, ply: &Ply<Self>);
    /// The game's own facts of a replayed record.
    fn part(watch: Self::Watch, record: &Record, scored: &Scored<Self>) -> Part;
}

/// A game's own facts of one record, for its part of the report.
#[derive(Clone, Debug)]
pub enum Part {
    Banqi(banqi::report::Facts),
    ThreeKingdoms(three_kingdoms::report::Facts),
    Luzhanqi(luzhanqi::report::Facts),
    Xiangqi(xiangqi::report::Facts),
}

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

/// What the report parts keep across games, in input order (Banqi: the settlement series
/// of each pair of players).
pub struct Books {
    banqi: records::games::banqi::settlement::SeriesBook,
}

impl Books {
    pub fn new(options: &PartOptions) -> Books {
        Books {
            banqi: records::games::banqi::settlement::SeriesBook::new(options.table),
        }
    }
}

impl Part {
    /// Settles what depends on the games before this one (called in input order).
    pub fn settle(&mut self, seats: &[SeatFacts], books: &mut Books) {
        match self {
            Part::Banqi(facts) => facts.settle(seats, &mut books.banqi),
            Part::ThreeKingdoms(_) | Part::Luzhanqi(_) | Part::Xiangqi(_) => {}
        }
    }
}

/// Writes the parts of one chunk (each game's own tables); gives the number of rows of the
/// games' detail tables (Banqi: flips).
pub fn write_parts(
    facts: &[Facts],
    data: &std::path::Path,
    part: &str,
) -> polars::prelude::PolarsResult<usize> {
    let mut banqi = Vec::new();
    let mut three_kingdoms = Vec::new();
    let mut luzhanqi = Vec::new();
    let mut xiangqi = Vec::new();
    for f in facts {
        match &f.part {
            Part::Banqi(p) => banqi.push((&f.game, p)),
            Part::ThreeKingdoms(p) => three_kingdoms.push((&f.game, p)),
            Part::Luzhanqi(p) => luzhanqi.push((&f.game, p)),
            Part::Xiangqi(p) => xiangqi.push((&f.game, p)),
        }
    }
    let mut details = 0;
    if !banqi.is_empty() {
        details += banqi::report::write(&banqi, data, part)?;
    }
    if !three_kingdoms.is_empty() {
        three_kingdoms::report::write(&three_kingdoms, data, part)?;
    }
    if !luzhanqi.is_empty() {
        luzhanqi::report::write(&luzhanqi, data, part)?;
    }
    if !xiangqi.is_empty() {
        xiangqi::report::write(&xiangqi, data, part)?;
    }
    Ok(details)
}

/// Every game's own tables, for the games in the dataset.
pub fn part_tables(
    data: &std::path::Path,
    options: &PartOptions,
) -> polars::prelude::PolarsResult<Vec<crate::report::table::Table>> {
    let mut tables = banqi::report::tables(data, options)?;
    tables.extend(three_kingdoms::report::tables(data)?);
    tables.extend(luzhanqi::report::tables(data)?);
    tables.extend(xiangqi::report::tables(data)?);
    Ok(tables)
}
