//! Luzhanqi's part of the report (RULES.md §6, §8): results by mode and by the first mover's
//! side, with intervals, and which piece took the flag (captured it, or carried it home), as
//! the table `luzhanqi_games`.

use records::core::language::Phrases;
use std::path::Path;

use polars::prelude::*;
use records::core::{Ply, Reason, Record, Scored, Seat};
use records::games::luzhanqi::{Effect, FlagState, Luzhanqi, Piece, Role, Side};

use crate::report::draw::thousands;
use crate::report::facts::GameFacts;
use crate::report::headlines::rows;
use crate::report::ingest::write_part;
use crate::report::stats::{Standing, count_table, exists, results_table, scan};
use crate::report::table::Table;

/// The piece that attacked a flag, if one did.
#[derive(Default)]
pub struct Watch {
    flag_taker: Option<Piece>,
}

pub fn watch(watch: &mut Watch, ply: &Ply<Luzhanqi>) {
    if let Effect::Attack {
        attacker, defender, ..
    } = ply.effect
        && defender.role == Role::Flag
    {
        watch.flag_taker = Some(attacker);
    }
}

/// Luzhanqi's facts of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct Facts {
    /// `open`, `dark` or `flip`.
    pub mode: &'static str,
    /// The side of the first mover (player 1): red in open and dark games, its first flip's
    /// colour in a flip game.
    pub first_side: Option<&'static str>,
    /// Player 1's score: 1 win, ½ draw, 0 loss; None unfinished.
    pub first_score: Option<f64>,
    /// The role of the piece that captured the flag or carried it home (`engineer` …).
    pub flag_taken_by: Option<&'static str>,
}

pub fn facts(watch: Watch, record: &Record, scored: &Scored<Luzhanqi>) -> Facts {
    let last = &scored.last;
    // The record replayed, so its ruleset reads.
    let mode = records::core::rules::ruleset::<Luzhanqi>(record.preset.as_deref(), &record.options)
        .map_or("unknown", |r| r.mode.code());
    let mut taker = watch.flag_taker;
    if scored.verdict.derived.end().map(|e| e.reason) == Some(Reason::FLAG_CARRIED) {
        taker = Side::ALL.iter().find_map(|s| match last.flag_state(*s) {
            FlagState::Carried(p) => last.piece(p),
            _ => None,
        });
    }
    Facts {
        mode,
        first_side: last.side_of(Seat::FIRST).map(Side::name),
        first_score: scored.result.map(|r| r.outcome.score(Seat::FIRST)),
        flag_taken_by: taker.map(|p| p.role.name()),
    }
}

/// Writes the games' rows of one chunk, per preset.
/// Writes the game's rows of one chunk, per preset; it has no detail table (0 rows).
pub fn write(facts: &[(&GameFacts, &Facts)], data: &Path, part: &str) -> PolarsResult<usize> {
    let mut presets: Vec<&str> = facts.iter().map(|(g, _)| g.preset).collect();
    presets.sort();
    presets.dedup();
    let s = |name: &str| PlSmallStr::from(name);
    for preset in presets {
        let here: Vec<&(&GameFacts, &Facts)> =
            facts.iter().filter(|(g, _)| g.preset == preset).collect();
        let mut games = DataFrame::new_infer_height(vec![
            Column::new(
                s("variant"),
                here.iter()
                    .map(|(g, _)| g.variant.as_str())
                    .collect::<Vec<_>>(),
            ),
            Column::new(
                s("mode"),
                here.iter().map(|(_, f)| f.mode).collect::<Vec<_>>(),
            ),
            Column::new(
                s("first_side"),
                here.iter().map(|(_, f)| f.first_side).collect::<Vec<_>>(),
            ),
            Column::new(
                s("first_score"),
                here.iter().map(|(_, f)| f.first_score).collect::<Vec<_>>(),
            ),
            Column::new(
                s("flag_taken_by"),
                here.iter()
                    .map(|(_, f)| f.flag_taken_by)
                    .collect::<Vec<_>>(),
            ),
            Column::new(
                s("reason"),
                here.iter().map(|(g, _)| g.reason).collect::<Vec<_>>(),
            ),
        ])?;
        write_part(data, "luzhanqi_games", "luzhanqi", preset, part, &mut games)?;
    }
    Ok(0)
}

/// Luzhanqi's tables.
pub fn tables(data: &Path, _: &crate::games::PartOptions) -> PolarsResult<Vec<Table>> {
    if !exists(data, "luzhanqi_games") {
        return Ok(Vec::new());
    }
    let games = scan(data, "luzhanqi_games")?;
    Ok(vec![
        results_table(
            games.clone(),
            &["mode", "preset"],
            Standing::Score("first_score"),
            "lz_by_mode",
            "Luzhanqi: the first mover's results by mode (preset)",
            "player 1",
        )?,
        results_table(
            games.clone().filter(col("first_side").is_not_null()),
            &["mode", "first_side"],
            Standing::Score("first_score"),
            "lz_by_first_side",
            "Luzhanqi: the first mover's results by mode and the side it played (a flip game's first flip decides it)",
            "player 1",
        )?,
        count_table(
            games.filter(col("flag_taken_by").is_not_null()),
            &["mode", "reason", "flag_taken_by"],
            "lz_flag_taken_by",
            "Luzhanqi: which piece took the flag (captured it in open and dark games, carried it home in flip games)",
        )?,
    ])
}

pub fn headline(tables: &[Table], say: &Phrases) -> Option<String> {
    let flags = rows(tables, "lz_flag_taken_by")?;
    let mut by_piece: Vec<(String, f64)> = Vec::new();
    for r in &flags.t.rows {
        let piece = flags.text(r, "flag_taken_by");
        let n = flags.num(r, "games");
        match by_piece.iter_mut().find(|(k, _)| *k == piece) {
            Some(x) => x.1 += n,
            None => by_piece.push((piece, n)),
        }
    }
    let total: f64 = by_piece.iter().map(|p| p.1).sum();
    by_piece.sort_by(|a, b| b.1.total_cmp(&a.1));
    let (piece, n) = by_piece.first()?;
    Some(say.fill(
        "report.luzhanqi.flag",
        &[
            ("piece", &super::role(piece, say)),
            ("n", &thousands(*n as u64)),
            ("total", &thousands(total as u64)),
            ("share", &crate::report::headlines::share(n / total)),
        ],
    ))
}
