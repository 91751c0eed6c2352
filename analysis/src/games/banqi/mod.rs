//! Banqi in the batch tool: its bots, its `anqi score` line with the 戲谷 coin settlement, and
//! its part of the report.

use records::core::language::Phrases;
use records::core::words;
use std::path::Path;

use polars::prelude::PolarsResult;

use rand::rngs::SmallRng;
use records::core::{Outcome, Ply, Record, Scored, Seat};
use records::games::banqi::scoring::ScoreSheet;
use records::games::banqi::{Action, Banqi, Match};

use records::games::banqi::settlement::SeriesBook;

use super::{BotSpec, ChartSpec, Part, PartOptions, Tool, TuneOptions};
use crate::report::facts::{GameFacts, SeatFacts};
use crate::report::table::Table;

pub mod bots;
pub mod contract;
mod misty;
pub mod report;
mod tune;

use bots::Bot;

impl Tool for Banqi {
    const TABLES: &'static [crate::report::contract::TableSpec] = contract::TABLES;

    const CHARTS: &'static [ChartSpec] = &[
        ChartSpec::Heatmap {
            table: "first_square",
            square: "first_square",
            files: 4,
            ranks: 8,
            file: "heatmaps",
        },
        ChartSpec::Histogram {
            table: "margin",
            column: "margin",
            file: "margins",
        },
        ChartSpec::Histogram {
            table: "settlement",
            column: "settlement",
            file: "settlements",
        },
    ];

    const BOTS: &'static [&'static str] = Bot::NAMES;
    const TIMED_BOTS: &'static [&'static str] = Bot::TIMED;

    fn tune(options: &TuneOptions) -> Result<(), String> {
        tune::tune(records::games::banqi::engine::Weights::START, options);
        Ok(())
    }

    fn choose(bot: BotSpec, m: &Match, actions: &[Action], rng: &mut SmallRng) -> Action {
        Bot::ALL[bot.index].choose(m, actions, bot.millis, rng)
    }

    fn outcome(sheet: &ScoreSheet) -> Option<Outcome> {
        sheet.score.result.map(|r| r.outcome)
    }

    fn payment(sheet: &ScoreSheet) -> Option<(Seat, Seat, u64)> {
        let s = sheet.settlement.as_ref()?;
        Some((s.payer?, s.payee?, s.amount))
    }

    fn score_text(sheet: &ScoreSheet) -> String {
        let score = &sheet.score;
        let [p1, p2] = &score.players;
        let flips = match &score.first_flips {
            Some(f) if score.doubled => format!("first flips {f}: doubled (門棋加倍)"),
            Some(f) => format!("first flips {f}"),
            None => "no first flips".to_owned(),
        };
        let coins = match &sheet.settlement {
            None => "not settled (unfinished)".to_owned(),
            Some(s) => match (s.payer, s.payee) {
                (Some(payer), Some(payee)) => format!(
                    "{} pays {} {} coins = {}",
                    score.players[payer.index()].name,
                    score.players[payee.index()].name,
                    s.amount,
                    s.formula
                ),
                _ => s.formula.clone(),
            },
        };
        let heroes: String = score
            .players
            .iter()
            .filter(|p| p.soldier_took_general > 0)
            .map(|p| format!("\t小兵立大功: {}", p.name))
            .collect();
        let took = |p: &records::games::banqi::scoring::PlayerScore| {
            format!(
                "{} took {} ({} points)",
                p.name,
                words::pieces::<Banqi>(&p.captured),
                p.points
            )
        };
        format!(
            "{} vs {}\t{}\t{} · {}\t{flips}\t{coins}{heroes}",
            p1.name,
            p2.name,
            sheet.summary,
            took(p1),
            took(p2)
        )
    }

    type Watch = report::Watch;

    fn watch(watch: &mut report::Watch, ply: &Ply<Banqi>) {
        report::watch(watch, ply)
    }

    type Facts = report::Facts;
    type Book = SeriesBook;

    fn book(options: &PartOptions) -> SeriesBook {
        SeriesBook::new(options.table)
    }

    fn settle(facts: &mut report::Facts, seats: &[SeatFacts], book: &mut SeriesBook) {
        facts.settle(seats, book)
    }

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

    /// The coins' table and the flip statistics' depth.
    fn settings(summary: &serde_json::Value, say: &Phrases) -> Option<String> {
        let n = |k: &str| summary[k].as_u64().unwrap_or(0).to_string();
        Some(say.fill(
            "report.banqi.settings",
            &[
                ("stake", &n("stake")),
                ("bonus", &n("bonus_per_point")),
                ("depth", &n("flip_depth")),
                (
                    "flips",
                    &crate::report::draw::thousands(summary["flips"].as_u64().unwrap_or(0)),
                ),
            ],
        ))
    }
    fn part(watch: report::Watch, record: &Record, scored: &Scored<Banqi>) -> Part {
        Part::Banqi(report::facts(watch, record, scored))
    }
}
