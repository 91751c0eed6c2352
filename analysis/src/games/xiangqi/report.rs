//! Third-generation xiangqi's part of the report (RULES.md §6, §9): which flips were made, how
//! often, and how often each transformation decided a game (the games won by the side that
//! made it), as the table `xiangqi_flips`.

use std::path::Path;

use polars::prelude::*;
use records::core::{Ply, Scored, Seat};
use records::games::xiangqi::Xiangqi3g;
use records::games::xiangqi::scoring::flip_code;

use crate::report::facts::GameFacts;
use crate::report::headlines::{rows, said_standing, standing_out};
use crate::report::ingest::write_part;
use crate::report::stats::{Standing, count_table, exists, results_table, scan};
use crate::report::table::Table;

/// The flips of a game: by whom, which.
#[derive(Default)]
pub struct Watch {
    flips: Vec<(Seat, String)>,
}

pub fn watch(watch: &mut Watch, ply: &Ply<Xiangqi3g>) {
    if let Some(code) = flip_code(&ply.effect) {
        watch.flips.push((ply.mover, code));
    }
}

/// One flip of a game, with how the game went for its maker.
#[derive(Clone, Debug, PartialEq)]
pub struct Flip {
    pub seat: u32,
    pub flip: String,
    /// The maker's score in the game: 1 win, ½ draw, 0 loss; None unfinished.
    pub score: Option<f64>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Facts {
    pub flips: Vec<Flip>,
}

pub fn facts(watch: Watch, scored: &Scored<Xiangqi3g>) -> Facts {
    let outcome = scored.result.map(|r| r.outcome);
    // Each kind of flip once per seat and game: "a game where red made a soldier flip to R".
    let mut flips: Vec<Flip> = Vec::new();
    for (seat, code) in watch.flips {
        let seat_no = seat.index() as u32 + 1;
        if flips.iter().any(|f| f.seat == seat_no && f.flip == code) {
            continue;
        }
        flips.push(Flip {
            seat: seat_no,
            flip: code,
            score: outcome.map(|o| o.score(seat)),
        });
    }
    Facts { flips }
}

/// Writes the game's rows of one chunk, per preset; it has no detail table (0 rows).
pub fn write(facts: &[(&GameFacts, &Facts)], data: &Path, part: &str) -> PolarsResult<usize> {
    let mut presets: Vec<&str> = facts.iter().map(|(g, _)| g.preset).collect();
    presets.sort();
    presets.dedup();
    let s = |name: &str| PlSmallStr::from(name);
    for preset in presets {
        let rows: Vec<(&GameFacts, &Flip)> = facts
            .iter()
            .filter(|(g, _)| g.preset == preset)
            .flat_map(|(g, f)| f.flips.iter().map(move |x| (*g, x)))
            .collect();
        if rows.is_empty() {
            continue;
        }
        let mut df = DataFrame::new_infer_height(vec![
            Column::new(
                s("variant"),
                rows.iter()
                    .map(|(g, _)| g.variant.as_str())
                    .collect::<Vec<_>>(),
            ),
            Column::new(
                s("seat"),
                rows.iter().map(|(_, f)| f.seat).collect::<Vec<_>>(),
            ),
            Column::new(
                s("flip"),
                rows.iter()
                    .map(|(_, f)| f.flip.as_str())
                    .collect::<Vec<_>>(),
            ),
            Column::new(
                s("score"),
                rows.iter().map(|(_, f)| f.score).collect::<Vec<_>>(),
            ),
        ])?;
        write_part(data, "xiangqi_flips", "xiangqi-3g", preset, part, &mut df)?;
    }
    Ok(0)
}

pub fn tables(data: &Path, _: &crate::games::PartOptions) -> PolarsResult<Vec<Table>> {
    if !exists(data, "xiangqi_flips") {
        return Ok(Vec::new());
    }
    let flips = scan(data, "xiangqi_flips")?;
    Ok(vec![
        count_table(
            flips.clone(),
            &["preset", "flip"],
            "xq_flips",
            "Third-generation xiangqi: games in which a side made each kind of flip (a soldier's flip to its back, on its point or a wrong one, a transformation, a double flip …)",
        )?,
        results_table(
            flips,
            &["preset", "flip"],
            Standing::Score("score"),
            "xq_flip_results",
            "Third-generation xiangqi: how the games went for the side that made each kind of flip (how often it decided a game)",
            "the flipper",
        )?,
    ])
}

pub fn headlines(tables: &[Table], preset: &str) -> Vec<String> {
    let Some(flips) = rows(tables, "xq_flip_results") else {
        return Vec::new();
    };
    let kinds = flips.matching(&[("preset", preset)]);
    let tried = kinds
        .iter()
        .filter(|r| flips.num(r, "finished") > 0.0)
        .count();
    if tried == 0 {
        return Vec::new();
    }
    // Against an even game: a flip that goes with winning scores above ½ for its maker.
    let standing = standing_out(&flips, kinds, 0.5);
    if standing.is_empty() {
        return vec![format!(
            "No kind of flip goes with winning or losing more than chance allows over the {tried} \
             kinds made."
        )];
    }
    vec![format!(
        "Flips whose maker's score stands out from an even game, intervals corrected for {tried} \
         kinds: {}.",
        said_standing(&flips, &standing, "flip")
    )]
}
