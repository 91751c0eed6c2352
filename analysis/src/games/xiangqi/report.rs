//! Third-generation xiangqi's part of the report (RULES.md §6, §9): which flips were made, how
//! often, and how often each transformation decided a game (the games won by the side that
//! made it), as the table `xiangqi_flips`.

use records::core::language::Phrases;
use std::path::Path;

use polars::prelude::*;
use std::collections::BTreeMap;

use records::core::{Game as _, Outcome, Ply, Scored, Seat};
use records::games::xiangqi::Xiangqi3g;
use records::games::xiangqi::scoring::flip_code;

use crate::report::adjusted::{self, Cell, Scores};
use crate::report::facts::GameFacts;
use crate::report::headlines::rows;
use crate::report::ingest::write_part;
use crate::report::said;
use crate::report::stats::{Standing, count_table, exists, results_table, scan, with_named_pairs};
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
                s("source"),
                rows.iter()
                    .map(|(g, _)| g.source.as_str())
                    .collect::<Vec<_>>(),
            ),
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
            flips.clone(),
            &["preset", "flip"],
            Standing::Score("score"),
            "xq_flip_results",
            "Third-generation xiangqi: how the games went for the side that made each kind of flip (how often it decided a game)",
            "the flipper",
        )?,
        results_table(
            with_named_pairs(flips.clone(), scan(data, "seats")?),
            &["preset", "player1", "player2", "seat", "flip"],
            Standing::Score("score"),
            "xq_flip_players",
            "Third-generation xiangqi by who played: the flipper's results by kind of flip, per pair of named players in their seats and the flipper's seat (what the flips' findings compare within)",
            "the flipper",
        )?,
    ])
}

/// Which kinds of flip change how the game goes for their maker, adjusted for who played:
/// each kind against the same players' games without it, the maker in the same seat
/// ([`adjusted`]); the games without it are the stratum's games (`meetings`) less those with.
pub fn headlines(tables: &[Table], preset: &str, say: &Phrases) -> Vec<String> {
    let game = Xiangqi3g::NAME;
    let Some(flips) = rows(tables, "xq_flip_results") else {
        return Vec::new();
    };
    if flips.matching(&[("preset", preset)]).is_empty() {
        return Vec::new();
    }
    let cells: Vec<Cell> = rows(tables, "xq_flip_players")
        .map(|t| {
            t.matching(&[("preset", preset)])
                .into_iter()
                .map(|r| Cell {
                    stratum: vec![
                        t.code(r, "player1"),
                        t.code(r, "player2"),
                        t.code(r, "seat"),
                    ],
                    flip: t.code(r, "flip"),
                    with: Scores::of(t.num(r, "wins"), t.num(r, "draws"), t.num(r, "losses")),
                })
                .collect()
        })
        .unwrap_or_default();
    if cells.is_empty() {
        return vec![say.get("report.xiangqi-3g.unnamed")];
    }
    // Each stratum's games from the maker's side: the pair's games in that seat order.
    let mut totals: BTreeMap<Vec<String>, Scores> = BTreeMap::new();
    if let Some(m) = rows(tables, "meetings") {
        for r in m.matching(&[("game", game), ("preset", preset)]) {
            let Ok(outcome) = m.code(r, "outcome").parse::<Outcome>() else {
                continue;
            };
            let n = m.num(r, "games");
            for seat in Seat::all(2) {
                let score = outcome.score(seat);
                let key = vec![
                    m.code(r, "player1"),
                    m.code(r, "player2"),
                    (seat.index() + 1).to_string(),
                ];
                let e = totals.entry(key).or_default();
                e.n += n;
                e.sum += score * n;
                e.squares += score * score * n;
            }
        }
    }
    let found = adjusted::findings(&adjusted::effects(&cells, Some(&totals)));
    adjusted::sentences(
        &found,
        &adjusted::Words {
            key: "report.xiangqi-3g.flip",
            name: &|code| said::cell(game, "flip", code, say).unwrap_or_else(|| code.to_owned()),
        },
        say,
    )
}
