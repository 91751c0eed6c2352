//! Three Kingdoms Banqi in the batch tool: its bots, its `anqi score` line and its part of
//! the report.

use records::core::language::Phrases;
use records::core::words;
use std::path::Path;

use polars::prelude::PolarsResult;

use rand::RngExt;
use rand::rngs::SmallRng;
use records::core::{Outcome, Ply, Record, Scored, Seat};
use records::games::banqi::Cell;
use records::games::three_kingdoms::scoring::ScoreSheet;
use records::games::three_kingdoms::{Action, Match, ThreeKingdoms, piece_points};

use super::{BotSpec, ChartSpec, Part, PartOptions, Tool};
use crate::report::facts::GameFacts;
use crate::report::table::Table;

pub mod contract;
pub mod report;

/// The bots: uniform random, and a greedy one that takes the capture worth the most points
/// (recalling when it may: that finishes first), else plays at random.
const RANDOM: usize = 0;
const ENGINE: usize = 2;

impl Tool for ThreeKingdoms {
    const CHARTS: &'static [ChartSpec] = &[ChartSpec::Histogram {
        table: "tk_final_points",
        column: "final_points",
        file: "three-kingdoms-final-points",
    }];

    const TABLES: &'static [crate::report::contract::TableSpec] = contract::TABLES;

    const BOTS: &'static [&'static str] = &["random", "greedy", "engine"];
    const TIMED_BOTS: &'static [&'static str] = &["engine"];

    fn choose(bot: BotSpec, m: &Match, actions: &[Action], rng: &mut SmallRng) -> Action {
        if bot.index == RANDOM {
            return actions[rng.random_range(0..actions.len())];
        }
        if bot.index == ENGINE {
            return super::engine_choice::<Self>(m, actions, bot.millis);
        }
        let value = |a: &Action| match a {
            Action::Recall => 1000,
            Action::Move { to, .. } => match m.pos.cell(*to) {
                Cell::Revealed(p) => piece_points(p.role),
                _ => 0,
            },
            Action::Flip { .. } => 0,
        };
        let best = actions.iter().map(value).max().unwrap_or(0);
        let ties = actions.iter().filter(|a| value(a) == best).count();
        let pick = rng.random_range(0..ties);
        *actions
            .iter()
            .filter(|a| value(a) == best)
            .nth(pick)
            .expect("pick < ties")
    }

    fn outcome(sheet: &ScoreSheet) -> Option<Outcome> {
        sheet.result.map(|r| r.outcome)
    }

    /// Three Kingdoms is not played for coins.
    fn payment(_: &ScoreSheet) -> Option<(Seat, Seat, u64)> {
        None
    }

    fn score_text(sheet: &ScoreSheet) -> String {
        let seats: Vec<String> = sheet
            .seats
            .iter()
            .map(|s| {
                format!(
                    "{} {}: took {} ({} points), lost {} points, final points {}",
                    s.seat,
                    s.faction.unwrap_or("no faction"),
                    words::pieces::<ThreeKingdoms>(&s.captured),
                    s.captured_points,
                    s.lost_points,
                    s.final_points
                )
            })
            .collect();
        format!("{}\t{}\t{}", sheet.preset, sheet.summary, seats.join(" · "))
    }

    type Watch = report::Watch;

    fn watch(watch: &mut report::Watch, ply: &Ply<ThreeKingdoms>) {
        report::watch(watch, ply)
    }

    fn part(watch: report::Watch, _: &Record, scored: &Scored<ThreeKingdoms>) -> Part {
        Part::ThreeKingdoms(report::facts(watch, scored))
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

    /// The factions in the order they were claimed: `red, then generals, then black`.
    fn said(column: &str, code: &str, say: &Phrases) -> Option<String> {
        (column == "claim_order").then(|| {
            let factions: Vec<String> = code
                .split('>')
                .map(|f| crate::report::said::side(f, say))
                .collect();
            factions.join(&say.get("report.three-kingdoms.then"))
        })
    }
}
