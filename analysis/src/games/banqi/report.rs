//! Banqi's part of the report (RULES.md §5–6): flip openings, 門棋加倍, point margins and the
//! 戲谷 coin settlement, as the tables `banqi_games` and `banqi_flips` and their statistics.

use records::core::language::Phrases;
use records::core::rules::parts::*;
use std::path::Path;

use polars::prelude::*;
use records::core::{Outcome, Ply, Record, Scored, Seat};
use records::games::banqi::settlement::{SeriesBook, SettleSeries as _};
use records::games::banqi::{Action, Banqi, Effect, Square};

use crate::games::PartOptions;
use crate::report::adjusted::{self, Cell, Scores};
use crate::report::facts::{GameFacts, SeatFacts};
use crate::report::headlines::rows;
use crate::report::ingest::write_part;
use crate::report::stats::{
    Standing, count_table, exists, grouped, results_table, scan, with_named_pairs,
};
use crate::report::table::{Derived, Table};

/// Square names by index (a1 b1 … d8): static, as there are millions of flips to describe.
pub const SQUARES: [&str; 32] = [
    "a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2", "a3", "b3", "c3", "d3", "a4", "b4", "c4", "d4",
    "a5", "b5", "c5", "d5", "a6", "b6", "c6", "d6", "a7", "b7", "c7", "d7", "a8", "b8", "c8", "d8",
];

/// Piece letters by piece index (K G M R N C P k g m r n c p).
pub const PIECES: [&str; 14] = [
    "K", "G", "M", "R", "N", "C", "P", "k", "g", "m", "r", "n", "c", "p",
];

/// The flips seen while a record replays: (ply, square, piece, next to a revealed piece).
#[derive(Default)]
pub struct Watch {
    flips: Vec<(u32, &'static str, &'static str, bool)>,
}

/// One flip's row (dark captures count as reveals, not flips).
#[derive(Clone, Debug, PartialEq)]
pub struct Flip {
    /// The flip's number in its game, 1-based.
    pub number: u32,
    pub ply: u32,
    /// 1 or 2.
    pub player: u32,
    pub square: &'static str,
    pub piece: &'static str,
    /// Whether a revealed piece stood orthogonally next to the flipped square.
    pub adjacent: bool,
    /// The flipper's score in the game (1, ½, 0); None while unfinished.
    pub score: Option<f64>,
}

/// Banqi's facts of one game (its source, preset, variant and players are the game's and
/// seats' facts).
#[derive(Clone, Debug, PartialEq)]
pub struct Facts {
    pub outcome: Option<Outcome>,
    /// Player 1's score (1 win, ½ draw, 0 loss).
    pub p1_score: Option<f64>,
    pub p1_color: Option<&'static str>,
    pub points: [u32; 2],
    /// Winner's points − loser's points (decided games).
    pub margin: Option<i32>,
    pub first_square: Option<&'static str>,
    pub first_piece: Option<&'static str>,
    pub second_square: Option<&'static str>,
    pub second_piece: Option<&'static str>,
    pub doubled: bool,
    /// Filled in by [`Facts::settle`], in input order (和棋續盤 runs between the same players).
    pub draws_carried: u32,
    pub bonus: Option<u64>,
    pub settlement: Option<u64>,
    pub flips: Vec<Flip>,
}

pub fn watch(watch: &mut Watch, ply: &Ply<Banqi>) {
    if let (Action::Flip { square, .. }, Effect::Flip(piece)) = (ply.action, ply.effect) {
        let adjacent = neighbours(*square).any(|s| ply.before.piece_at(s).is_some());
        watch.flips.push((
            ply.number as u32,
            SQUARES[square.index()],
            PIECES[piece.index()],
            adjacent,
        ));
    }
}

fn neighbours(sq: Square) -> impl Iterator<Item = Square> {
    [(0i8, 1i8), (1, 0), (0, -1), (-1, 0)]
        .into_iter()
        .filter_map(move |(df, dr)| sq.offset(df, dr))
}

pub fn facts(watch: Watch, record: &Record, scored: &Scored<Banqi>) -> Facts {
    let outcome = scored.result.map(|r| r.outcome);
    let points = [
        scored.tally.points(Seat::FIRST),
        scored.tally.points(Seat::SECOND),
    ];
    let margin = outcome
        .and_then(|o| o.winner())
        .map(|w| points[w.index()] as i32 - points[w.other().index()] as i32);
    // The first two plies are flips when they exist.
    let first = watch.flips.iter().find(|f| f.0 == 1);
    let second = watch.flips.iter().find(|f| f.0 == 2);
    let flips = watch
        .flips
        .iter()
        .enumerate()
        .map(|(i, &(ply, square, piece, adjacent))| {
            let seat = Seat::at_ply(ply - 1, 2);
            Flip {
                number: i as u32 + 1,
                ply,
                player: seat.index() as u32 + 1,
                square,
                piece,
                adjacent,
                score: outcome.map(|o| o.score(seat)),
            }
        })
        .collect();
    Facts {
        outcome,
        p1_score: outcome.map(|o| o.score(Seat::FIRST)),
        p1_color: Banqi::side(&scored.last, Seat::FIRST),
        points,
        margin,
        first_square: first.map(|f| f.1),
        first_piece: first.map(|f| f.2),
        second_square: second.map(|f| f.1),
        second_piece: second.map(|f| f.2),
        doubled: Banqi::opening(record, &scored.first_plies).doubles_stake,
        draws_carried: 0,
        bonus: None,
        settlement: None,
        flips,
    }
}

impl Facts {
    /// The coin settlement of the game, with the draws carried between its players (the
    /// seats' names): called in input order.
    pub fn settle(&mut self, seats: &[SeatFacts], book: &mut SeriesBook) {
        let series = book.series(&seats[0].name, &seats[1].name);
        self.draws_carried = series.draws;
        let Some(outcome) = self.outcome else { return };
        if let Ok(s) = series.settle_game(outcome, self.points, self.doubled)
            && s.payer.is_some()
        {
            self.bonus = Some(s.bonus);
            self.settlement = Some(s.amount);
        }
    }
}

/// Writes the games' and flips' rows of one chunk, per preset; gives the number of flips.
pub fn write(facts: &[(&GameFacts, &Facts)], data: &Path, part: &str) -> PolarsResult<usize> {
    let mut presets: Vec<&str> = facts.iter().map(|(g, _)| g.preset).collect();
    presets.sort();
    presets.dedup();
    let mut flips = 0;
    for preset in presets {
        let here: Vec<&(&GameFacts, &Facts)> =
            facts.iter().filter(|(g, _)| g.preset == preset).collect();
        let g: Vec<&Facts> = here.iter().map(|(_, f)| *f).collect();
        let f: Vec<&Flip> = g.iter().flat_map(|x| &x.flips).collect();
        flips += f.len();
        let s = |name: &str| PlSmallStr::from(name);
        let mut games = DataFrame::new_infer_height(vec![
            Column::new(
                s("source"),
                here.iter()
                    .map(|(x, _)| x.source.as_str())
                    .collect::<Vec<_>>(),
            ),
            Column::new(
                s("variant"),
                here.iter()
                    .map(|(x, _)| x.variant.as_str())
                    .collect::<Vec<_>>(),
            ),
            Column::new(
                s("p1_score"),
                g.iter().map(|x| x.p1_score).collect::<Vec<_>>(),
            ),
            Column::new(
                s("p1_color"),
                g.iter().map(|x| x.p1_color).collect::<Vec<_>>(),
            ),
            Column::new(
                s("points1"),
                g.iter().map(|x| x.points[0]).collect::<Vec<_>>(),
            ),
            Column::new(
                s("points2"),
                g.iter().map(|x| x.points[1]).collect::<Vec<_>>(),
            ),
            Column::new(s("margin"), g.iter().map(|x| x.margin).collect::<Vec<_>>()),
            Column::new(
                s("first_square"),
                g.iter().map(|x| x.first_square).collect::<Vec<_>>(),
            ),
            Column::new(
                s("first_piece"),
                g.iter().map(|x| x.first_piece).collect::<Vec<_>>(),
            ),
            Column::new(
                s("second_square"),
                g.iter().map(|x| x.second_square).collect::<Vec<_>>(),
            ),
            Column::new(
                s("second_piece"),
                g.iter().map(|x| x.second_piece).collect::<Vec<_>>(),
            ),
            Column::new(
                s("doubled"),
                g.iter().map(|x| x.doubled).collect::<Vec<_>>(),
            ),
            Column::new(
                s("draws_carried"),
                g.iter().map(|x| x.draws_carried).collect::<Vec<_>>(),
            ),
            Column::new(s("bonus"), g.iter().map(|x| x.bonus).collect::<Vec<_>>()),
            Column::new(
                s("settlement"),
                g.iter().map(|x| x.settlement).collect::<Vec<_>>(),
            ),
        ])?;
        let mut flip_rows = DataFrame::new_infer_height(vec![
            Column::new(s("number"), f.iter().map(|x| x.number).collect::<Vec<_>>()),
            Column::new(s("ply"), f.iter().map(|x| x.ply).collect::<Vec<_>>()),
            Column::new(s("player"), f.iter().map(|x| x.player).collect::<Vec<_>>()),
            Column::new(s("square"), f.iter().map(|x| x.square).collect::<Vec<_>>()),
            Column::new(s("piece"), f.iter().map(|x| x.piece).collect::<Vec<_>>()),
            Column::new(
                s("adjacent"),
                f.iter().map(|x| x.adjacent).collect::<Vec<_>>(),
            ),
            Column::new(s("score"), f.iter().map(|x| x.score).collect::<Vec<_>>()),
        ])?;
        write_part(data, "banqi_games", "banqi", preset, part, &mut games)?;
        write_part(data, "banqi_flips", "banqi", preset, part, &mut flip_rows)?;
    }
    Ok(flips)
}

/// Banqi's tables.
pub fn tables(data: &Path, options: &PartOptions) -> PolarsResult<Vec<Table>> {
    if !exists(data, "banqi_games") {
        return Ok(Vec::new());
    }
    let games = scan(data, "banqi_games")?;
    let flips = scan(data, "banqi_flips")?;
    let decided = || games.clone().filter(col("margin").is_not_null());
    let p1 = |lf: LazyFrame, keys: &[&str], name: &str, title: &str| {
        results_table(
            lf,
            keys,
            Standing::Score("p1_score"),
            name,
            title,
            "player 1",
        )
    };
    Ok(vec![
        p1(
            games.clone().filter(col("first_square").is_not_null()),
            &["preset", "first_square"],
            "first_square",
            "Flip opening: player 1's results by the square of the first flip",
        )?,
        p1(
            with_named_pairs(
                games.clone().filter(col("first_square").is_not_null()),
                scan(data, "seats")?,
            ),
            &["preset", "player1", "player2", "first_square"],
            "first_square_players",
            "Flip opening by who played: player 1's results by the square of the first flip, per pair of named players in their seats (what the first flip's findings compare within)",
        )?,
        p1(
            games.clone().filter(col("first_piece").is_not_null()),
            &["preset", "first_piece"],
            "first_piece",
            "Flip opening: player 1's results by the piece of the first flip",
        )?,
        p1(
            games.clone().filter(col("second_piece").is_not_null()),
            &["preset", "first_piece", "second_piece"],
            "first_pair",
            "Flip opening: player 1's results by both players' first flips",
        )?,
        results_table(
            flips.filter(col("number").lt_eq(lit(options.flip_depth))),
            &["preset", "number", "adjacent"],
            Standing::Score("score"),
            "flips_adjacent",
            // The depth (`--flips`) is said once, in the report's settings sentence.
            "A game's first flips (as many as the report counts): the flipper's results by flip number and whether the flip was next to a revealed piece",
            "flipper",
        )?,
        count_table(
            decided(),
            &["preset", "margin"],
            "margin",
            "Winner's point margin (winner's points − loser's points), decided games",
        )?,
        count_table(
            decided(),
            &["preset", "bonus"],
            "bonus",
            "Points bonus paid (max(0, margin) × B), decided games",
        )?,
        count_table(
            decided(),
            &["preset", "settlement"],
            "settlement",
            "Coins settled ((S + bonus) × double + carry), decided games",
        )?,
        grouped(
            games.clone(),
            &["preset"],
            vec![
                len().alias("games"),
                col("doubled").sum().alias("doubled"),
                col("margin").is_not_null().sum().alias("decided"),
                (col("margin")
                    .is_not_null()
                    .and(col("draws_carried").gt(lit(0))))
                .sum()
                .alias("carried"),
                col("margin")
                    .cast(DataType::Int64)
                    .sum()
                    .alias("margin_sum"),
                col("settlement")
                    .cast(DataType::Int64)
                    .sum()
                    .alias("settlement_sum"),
            ],
            &[
                "games",
                "doubled",
                "decided",
                "carried",
                "margin_sum",
                "settlement_sum",
            ],
            vec![
                Derived::Rate {
                    name: "doubled".into(),
                    k: "doubled".into(),
                    n: "games".into(),
                },
                Derived::Rate {
                    name: "carried".into(),
                    k: "carried".into(),
                    n: "decided".into(),
                },
                Derived::Mean {
                    name: "mean_margin".into(),
                    sum: "margin_sum".into(),
                    n: "decided".into(),
                },
                Derived::Mean {
                    name: "mean_settlement".into(),
                    sum: "settlement_sum".into(),
                    n: "decided".into(),
                },
            ],
            "banqi_overview",
            "Banqi per preset: 門棋加倍 (doubled), and 和棋續盤 (decided games that carried draws), with 95% intervals; the mean margin and settlement of decided games",
        )?,
    ])
}

/// Whether the first flip's square matters, adjusted for who played: each square against the
/// same players' other first squares in the same seats ([`adjusted`]).
pub fn headlines(tables: &[Table], preset: &str, say: &Phrases) -> Vec<String> {
    let Some(sq) = rows(tables, "first_square") else {
        return Vec::new();
    };
    if sq.matching(&[("preset", preset)]).is_empty() {
        return Vec::new();
    }
    let cells: Vec<Cell> = rows(tables, "first_square_players")
        .map(|t| {
            t.matching(&[("preset", preset)])
                .into_iter()
                .map(|r| Cell {
                    stratum: vec![t.code(r, "player1"), t.code(r, "player2")],
                    flip: t.code(r, "first_square"),
                    with: Scores::of(t.num(r, "wins"), t.num(r, "draws"), t.num(r, "losses")),
                })
                .collect()
        })
        .unwrap_or_default();
    if cells.is_empty() {
        return vec![say.get("report.banqi.unnamed")];
    }
    let found = adjusted::findings(&adjusted::effects(&cells, None));
    adjusted::sentences(
        &found,
        &adjusted::Words {
            key: "report.banqi.square",
            name: &|square| square.to_owned(),
        },
        say,
    )
}
