//! Luzhanqi in the batch tool: its bots, its `anqi score` line and its part of the report.

use records::core::language::Phrases;
use records::core::words;
use std::path::Path;

use polars::prelude::PolarsResult;

use rand::RngExt;
use rand::rngs::SmallRng;
use records::core::{Outcome, Ply, Record, Scored, Seat};
use records::games::luzhanqi::scoring::ScoreSheet;
use records::games::luzhanqi::{Action, Cell, Combat, Luzhanqi, Match, Mode, Piece, Role, combat};

use super::{BotSpec, ChartSpec, Part, PartOptions, Tool};
use crate::report::facts::GameFacts;
use crate::report::table::Table;

pub mod contract;
pub mod report;

const RANDOM: usize = 0;
const ENGINE: usize = 2;

/// What the greedy bot expects of an action, from what its side sees only (never a hidden
/// identity): taking a visible flag first, then a visible win by the value of what it takes,
/// then attacks on pieces it cannot see with its strongest pieces, then anything else.
fn value(m: &Match, action: &Action) -> i32 {
    let Action::Move { from, to, .. } = *action else {
        return 0;
    };
    let pos = &m.pos;
    let Some(attacker) = pos.piece(from) else {
        return 0;
    };
    let visible = |p: Piece| match m.rules.mode {
        Mode::Open | Mode::Flip => true,
        Mode::Dark => {
            p.role == Role::Flag
                && m.rules.flag_reveal
                && pos.remaining(Piece::new(p.side, Role::Marshal)) == 0
        }
    };
    match pos.cell(to) {
        Cell::Empty => 0,
        Cell::Piece(target) if target.role == Role::Flag && visible(target) => 1000,
        Cell::Piece(target) if visible(target) => match combat(attacker.role, target.role, false) {
            Combat::Win => 20 + target.role.rank().unwrap_or(5) as i32,
            Combat::Both => 10,
            Combat::Loss => -20,
        },
        // Unknown: a strong piece may try it, a weak one should not.
        _ => attacker.role.rank().map_or(-5, |r| r as i32 - 5),
    }
}

impl Tool for Luzhanqi {
    const CHARTS: &'static [ChartSpec] = &[ChartSpec::Bars {
        table: "lz_flag_taken_by",
        key: "flag_taken_by",
        count: "games",
        file: "luzhanqi-flag",
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
        let best = actions.iter().map(|a| value(m, a)).max().unwrap_or(0);
        let ties = actions.iter().filter(|a| value(m, a) == best).count();
        let pick = rng.random_range(0..ties);
        *actions
            .iter()
            .filter(|a| value(m, a) == best)
            .nth(pick)
            .expect("pick < ties")
    }

    fn outcome(sheet: &ScoreSheet) -> Option<Outcome> {
        sheet.result.map(|r| r.outcome)
    }

    /// Luzhanqi is not played for coins.
    fn payment(_: &ScoreSheet) -> Option<(Seat, Seat, u64)> {
        None
    }

    fn score_text(sheet: &ScoreSheet) -> String {
        let flag = sheet.flag_taken_by.map_or(String::new(), |c| {
            format!(
                ", the flag taken by the {}",
                words::pieces::<Luzhanqi>(&c.to_string())
            )
        });
        let seats: Vec<String> = sheet
            .seats
            .iter()
            .map(|s| {
                format!(
                    "{} {}: removed {}, {} left",
                    s.seat,
                    s.side.unwrap_or("no side"),
                    words::pieces::<Luzhanqi>(&s.removed),
                    s.remaining
                )
            })
            .collect();
        format!(
            "{} ({})\t{}{flag}\t{}",
            sheet.preset,
            sheet.mode,
            sheet.summary,
            seats.join(" · ")
        )
    }

    type Watch = report::Watch;

    fn watch(watch: &mut report::Watch, ply: &Ply<Luzhanqi>) {
        report::watch(watch, ply)
    }

    fn part(watch: report::Watch, record: &Record, scored: &Scored<Luzhanqi>) -> Part {
        Part::Luzhanqi(report::facts(watch, record, scored))
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

    fn headline(tables: &[Table], say: &Phrases) -> Option<String> {
        report::headline(tables, say)
    }

    /// A dark game's action with the attack's result the referee announced (`c6-c7, both
    /// die`); the piece that took the flag by its role (`marshal`, 司令).
    fn said(column: &str, code: &str, say: &Phrases) -> Option<String> {
        match column {
            "action" => {
                let mut parts = code.split(':');
                let mut said = parts.next()?.to_owned();
                for result in parts {
                    if !matches!(result, "win" | "loss" | "both_die" | "flag") {
                        return None;
                    }
                    said.push_str(&say.get(&format!("report.luzhanqi.attack.{result}")));
                }
                Some(said)
            }
            "flag_taken_by" => Some(role(code, say)),
            _ => None,
        }
    }
}

/// A role by its name (`marshal`) in the report's language: as named in English, as its
/// board writes it (司令) in Chinese.
pub fn role(name: &str, say: &Phrases) -> String {
    use records::games::luzhanqi::Role;
    match Role::ALL.iter().find(|r| r.name() == name) {
        Some(r) if say.is_chinese() => r.chinese().to_owned(),
        _ => name.to_owned(),
    }
}
