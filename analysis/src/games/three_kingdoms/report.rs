//! Three Kingdoms' part of the report (RULES.md §6–7): results by the order in which seats
//! claimed their factions, which claim orders win, and the points each seat ends with per
//! ending, as the tables `three_kingdoms_games` and `three_kingdoms_seats`.

use records::core::language::Phrases;
use std::path::Path;

use polars::prelude::*;
use records::core::{Ply, Scored, Seat};
use records::games::three_kingdoms::{Effect, ThreeKingdoms};

use crate::report::facts::GameFacts;
use crate::report::headlines::{rows, said_standing, standing_out};
use crate::report::ingest::write_part;
use crate::report::stats::{Standing, count_table, exists, results_table, scan};
use crate::report::table::Table;

/// The seats in the order they claimed a faction (by a flip).
#[derive(Default)]
pub struct Watch {
    claims: Vec<Seat>,
}

pub fn watch(watch: &mut Watch, ply: &Ply<ThreeKingdoms>) {
    if let Effect::Flip { claimed: true, .. } = ply.effect {
        watch.claims.push(ply.mover);
    }
}

/// One seat's row of the part.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatPart {
    pub faction: Option<&'static str>,
    /// 1 claimed first, 2 second, 3 given the last faction; None without a faction.
    pub claim_rank: Option<u32>,
    pub captured_points: u32,
    /// Its final points: its faction's points − lost + captured.
    pub final_points: i64,
    pub place: Option<u32>,
    pub score: Option<f64>,
}

/// Three Kingdoms' facts of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct Facts {
    /// The factions in the order they were claimed: `red>generals>black`.
    pub claim_order: Option<String>,
    /// The faction of the seat alone in first place.
    pub winner_faction: Option<&'static str>,
    pub seats: Vec<SeatPart>,
}

pub fn facts(watch: Watch, scored: &Scored<ThreeKingdoms>) -> Facts {
    let last = &scored.last;
    let outcome = scored.result.map(|r| r.outcome);
    // Two claims seen: the third seat was given the last faction. Fewer (a record from a
    // position where factions were already claimed): the order is not known.
    let mut order = watch.claims.clone();
    if order.len() == 2
        && let Some(third) = Seat::all(3).find(|s| !order.contains(s))
        && last.faction_of(third).is_some()
    {
        order.push(third);
    }
    let name = |s: Seat| last.faction_of(s).map(|f| last.split().name(f));
    let seats = Seat::all(3)
        .map(|seat| SeatPart {
            faction: name(seat),
            claim_rank: (order.len() == 3)
                .then(|| order.iter().position(|s| *s == seat).map(|i| i as u32 + 1))
                .flatten(),
            captured_points: last.captured_points(seat),
            final_points: last.points_score(seat),
            place: outcome.map(|o| o.place(seat) as u32),
            score: outcome.map(|o| o.score(seat)),
        })
        .collect();
    Facts {
        claim_order: (order.len() == 3).then(|| {
            order
                .iter()
                .filter_map(|s| name(*s))
                .collect::<Vec<_>>()
                .join(">")
        }),
        winner_faction: outcome.and_then(|o| o.winner()).and_then(name),
        seats,
    }
}

/// Writes the games' and seats' rows of one chunk, per preset.
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
                s("claim_order"),
                here.iter()
                    .map(|(_, f)| f.claim_order.clone())
                    .collect::<Vec<_>>(),
            ),
            Column::new(
                s("winner_faction"),
                here.iter()
                    .map(|(_, f)| f.winner_faction)
                    .collect::<Vec<_>>(),
            ),
        ])?;
        let rows: Vec<(&GameFacts, u32, &SeatPart)> = here
            .iter()
            .flat_map(|(g, f)| {
                f.seats
                    .iter()
                    .enumerate()
                    .map(move |(i, p)| (*g, i as u32 + 1, p))
            })
            .collect();
        let mut seats = DataFrame::new_infer_height(vec![
            Column::new(
                s("variant"),
                rows.iter()
                    .map(|(g, _, _)| g.variant.as_str())
                    .collect::<Vec<_>>(),
            ),
            Column::new(
                s("seat"),
                rows.iter().map(|(_, i, _)| *i).collect::<Vec<_>>(),
            ),
            Column::new(
                s("faction"),
                rows.iter().map(|(_, _, p)| p.faction).collect::<Vec<_>>(),
            ),
            Column::new(
                s("claim_rank"),
                rows.iter()
                    .map(|(_, _, p)| p.claim_rank)
                    .collect::<Vec<_>>(),
            ),
            Column::new(
                s("captured_points"),
                rows.iter()
                    .map(|(_, _, p)| p.captured_points)
                    .collect::<Vec<_>>(),
            ),
            Column::new(
                s("final_points"),
                rows.iter()
                    .map(|(_, _, p)| p.final_points)
                    .collect::<Vec<_>>(),
            ),
            Column::new(
                s("place"),
                rows.iter().map(|(_, _, p)| p.place).collect::<Vec<_>>(),
            ),
            Column::new(
                s("score"),
                rows.iter().map(|(_, _, p)| p.score).collect::<Vec<_>>(),
            ),
        ])?;
        write_part(
            data,
            "three_kingdoms_games",
            "three-kingdoms",
            preset,
            part,
            &mut games,
        )?;
        write_part(
            data,
            "three_kingdoms_seats",
            "three-kingdoms",
            preset,
            part,
            &mut seats,
        )?;
    }
    Ok(0)
}

/// Three Kingdoms' tables.
pub fn tables(data: &Path, _: &crate::games::PartOptions) -> PolarsResult<Vec<Table>> {
    if !exists(data, "three_kingdoms_games") {
        return Ok(Vec::new());
    }
    let games = scan(data, "three_kingdoms_games")?;
    let seats = scan(data, "three_kingdoms_seats")?;
    let finished = || seats.clone().filter(col("place").is_not_null());
    Ok(vec![
        results_table(
            seats.clone().filter(col("claim_rank").is_not_null()),
            &["preset", "claim_rank"],
            Standing::Place {
                place: "place",
                score: "score",
            },
            "tk_claim_rank",
            "Three Kingdoms: results by the order a seat got its faction (1 claimed first, 3 was given the last)",
            "each seat",
        )?,
        count_table(
            games.filter(col("claim_order").is_not_null()),
            &["preset", "claim_order", "winner_faction"],
            "tk_claim_order",
            "Three Kingdoms: games by the order the factions were claimed, and the faction alone in first place (none: a shared first place, or an unfinished game)",
        )?,
        count_table(
            finished(),
            &["preset", "place", "final_points"],
            "tk_final_points",
            "Three Kingdoms: each seat's final points (its faction's points − lost + captured) by place, per ending (preset), finished games",
        )?,
        count_table(
            finished(),
            &["preset", "place", "captured_points"],
            "tk_captured",
            "Three Kingdoms: the points each seat captured, by place, per ending (preset), finished games",
        )?,
    ])
}

pub fn headlines(tables: &[Table], preset: &str, say: &Phrases) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(sides) = rows(tables, "by_side") {
        let mut factions = sides.matching(&[
            (
                "game",
                <records::games::three_kingdoms::ThreeKingdoms as records::core::Game>::NAME,
            ),
            ("variant", preset),
        ]);
        factions.retain(|r| sides.text(r, "side") != "none");
        let tried = factions.len();
        // An even share of places beaten is ½.
        let standing = standing_out(&sides, factions, 0.5);
        let tried = tried.to_string();
        out.push(if standing.is_empty() {
            say.fill("report.three-kingdoms.no_faction", &[("tried", &tried)])
        } else {
            say.fill(
                "report.three-kingdoms.factions",
                &[
                    ("tried", &tried),
                    ("list", &said_standing(&sides, &standing, "side", say)),
                ],
            )
        });
    }
    if let Some(ranks) = rows(tables, "tk_claim_rank")
        && let Some(first) = ranks
            .matching(&[("preset", preset), ("claim_rank", "1")])
            .first()
    {
        out.push(say.fill(
            "report.three-kingdoms.first_claimer",
            &[("rate", &ranks.rate(first, "win", say))],
        ));
    }
    out
}
