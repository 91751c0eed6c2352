//! Third-generation xiangqi in the batch tool: its bots, its `anqi score` line and its part of
//! the report.

use records::core::language::Phrases;
use records::core::words;
use std::path::Path;

use polars::prelude::PolarsResult;

use rand::RngExt;
use rand::rngs::SmallRng;
use records::core::{Outcome, Ply, Record, Scored, Seat};
use records::games::xiangqi::scoring::ScoreSheet;
use records::games::xiangqi::{Action, Back, Kind, Match, Xiangqi3g};

use super::{BotSpec, Part, PartOptions, Perft, Tool};
use crate::report::facts::GameFacts;
use crate::report::table::Table;

pub mod contract;
pub mod report;

const RANDOM: usize = 0;
const ENGINE: usize = 2;

/// A piece's value for the greedy bot (xiangqi's usual scale, the new kinds near their
/// cousins').
fn value(kind: Kind) -> i32 {
    match kind {
        Kind::General => 1000,
        Kind::Chariot | Kind::Fu => 9,
        Kind::Cannon | Kind::Pao | Kind::Shi => 5,
        Kind::Horse | Kind::Fei | Kind::Biao | Kind::Camel | Kind::Mule => 4,
        Kind::Zhu => 4,
        Kind::Advisor | Kind::Elephant | Kind::Minister => 2,
        Kind::Soldier => 1,
    }
}

/// The greedy bot: the capture worth the most; then an effective soldier flip or a
/// transformation; never a double flip naming an advisor it knows is wrong; else at random.
fn score(m: &Match, action: &Action) -> i32 {
    match *action {
        Action::Move(mv) => m.pos.piece(mv.to).map_or(0, |p| 10 * value(p.kind)),
        Action::Flip { at, .. } => {
            let Some(p) = m.pos.piece(at) else { return 0 };
            match (p.kind, p.back) {
                (Kind::Soldier, _) if p.pending => 0,
                (Kind::Soldier, Back::Known(k)) => {
                    // It knows its own back: flip only where it takes effect.
                    if k.soldier_flip_takes_effect_on(at.file()) || m.rules.soldier_flip_anywhere {
                        value(k) * 5
                    } else {
                        -50
                    }
                }
                _ => 1,
            }
        }
        Action::DoubleFlip { advisor, .. } => match m.pos.piece(advisor).map(|p| p.back) {
            Some(Back::Known(Kind::General)) => 500,
            _ => -1000,
        },
    }
}

/// A plain xiangqi position from its FEN, for perft.
fn fen_position(fen: &str) -> Result<records::games::xiangqi::Position, String> {
    fen.parse().map_err(|e| format!("{fen:?}: {e}"))
}

impl Tool for Xiangqi3g {
    const TABLES: &'static [crate::report::contract::TableSpec] = contract::TABLES;

    const PERFT: Option<Perft> = Some(Perft {
        start: records::games::xiangqi::START_FEN,
        count: |fen, depth| Ok(fen_position(fen)?.perft(depth)),
        divide: |fen, depth| {
            Ok(fen_position(fen)?
                .divide(depth)
                .into_iter()
                .map(|(m, n)| (m.to_string(), n))
                .collect())
        },
    });

    const BOTS: &'static [&'static str] = &["random", "greedy", "engine"];
    const TIMED_BOTS: &'static [&'static str] = &["engine"];

    fn choose(bot: BotSpec, m: &Match, actions: &[Action], rng: &mut SmallRng) -> Action {
        if bot.index == RANDOM {
            return actions[rng.random_range(0..actions.len())];
        }
        if bot.index == ENGINE {
            return super::engine_choice::<Self>(m, actions, bot.millis);
        }
        let best = actions.iter().map(|a| score(m, a)).max().unwrap_or(0);
        let ties = actions.iter().filter(|a| score(m, a) == best).count();
        let pick = rng.random_range(0..ties);
        *actions
            .iter()
            .filter(|a| score(m, a) == best)
            .nth(pick)
            .expect("pick < ties")
    }

    fn outcome(sheet: &ScoreSheet) -> Option<Outcome> {
        sheet.result.map(|r| r.outcome)
    }

    /// Xiangqi is not played for coins.
    fn payment(_: &ScoreSheet) -> Option<(Seat, Seat, u64)> {
        None
    }

    fn score_text(sheet: &ScoreSheet) -> String {
        let seats: Vec<String> = sheet
            .seats
            .iter()
            .map(|s| {
                format!(
                    "{} {}: took {}; flips: {}",
                    s.seat,
                    s.side,
                    words::pieces::<Xiangqi3g>(&s.captured),
                    if s.flips.is_empty() {
                        "none".to_owned()
                    } else {
                        let said: Vec<String> = s
                            .flips
                            .iter()
                            .map(|f| records::games::xiangqi::flip_words(f))
                            .collect();
                        said.join(", ")
                    }
                )
            })
            .collect();
        format!("{}\t{}\t{}", sheet.preset, sheet.summary, seats.join(" · "))
    }

    type Watch = report::Watch;

    fn watch(watch: &mut report::Watch, ply: &Ply<Xiangqi3g>) {
        report::watch(watch, ply)
    }

    fn part(watch: report::Watch, _: &Record, scored: &Scored<Xiangqi3g>) -> Part {
        Part::Xiangqi3g(report::facts(watch, scored))
    }

    type Facts = report::Facts;
    type Book = ();

    fn write(
        facts: &[(&GameFacts, &report::Facts)],
        data: &Path,
        part: &str,
    ) -> PolarsResult<usize> {
        report::write(facts, data, part)
    }

    fn tables(data: &Path, options: &PartOptions) -> PolarsResult<Vec<Table>> {
        report::tables(data, options)
    }

    fn headlines(tables: &[Table], preset: &str, say: &Phrases) -> Vec<String> {
        report::headlines(tables, preset, say)
    }
}
