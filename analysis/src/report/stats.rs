//! The statistics of RULES.md §6 for every game, computed with Polars (lazy scans of the
//! Parquet dataset, so only the columns a table needs are read) as count tables
//! ([`Table`]): the rates and intervals are derived from the counts.

use std::path::Path;

use polars::prelude::*;
use serde_json::{Value, json};

use super::table::{Derived, RESULT_COUNTS, Table, results_derived};
use crate::games::PartOptions;

/// The dataset table `name` (`games`, `seats`, a game's own), with `game` and `preset` from
/// the hive path.
pub fn scan(data: &Path, name: &str) -> PolarsResult<LazyFrame> {
    let glob = data.join(name).join("**").join("*.parquet");
    LazyFrame::scan_parquet(
        PlRefPath::new(glob.display().to_string()),
        ScanArgsParquet {
            hive_options: HiveOptions::new_enabled(),
            ..Default::default()
        },
    )
}

/// Whether the dataset has table `name`.
pub fn exists(data: &Path, name: &str) -> bool {
    data.join(name).is_dir()
}

/// A column as JSON strings (null stays null): the key columns.
fn strings(df: &DataFrame, name: &str) -> PolarsResult<Vec<Value>> {
    let s = df
        .column(name)?
        .as_materialized_series()
        .cast(&DataType::String)?;
    Ok(s.str()?
        .iter()
        .map(|v| v.map_or(Value::Null, Value::from))
        .collect())
}

/// A count column as JSON numbers: integers, or floats for a float column.
fn numbers(df: &DataFrame, name: &str) -> PolarsResult<Vec<Value>> {
    let c = df.column(name)?.as_materialized_series();
    if c.dtype().is_float() {
        let s = c.cast(&DataType::Float64)?;
        return Ok(s
            .f64()?
            .iter()
            .map(|v| super::table::round(v.unwrap_or(0.0)))
            .collect());
    }
    let s = c.cast(&DataType::Int64)?;
    Ok(s.i64()?.iter().map(|v| json!(v.unwrap_or(0))).collect())
}

/// Groups `lf` by `keys` with aggregations named as `counts`: a count table.
pub fn grouped(
    lf: LazyFrame,
    keys: &[&str],
    aggs: Vec<Expr>,
    counts: &[&str],
    derived: Vec<Derived>,
    name: &str,
    title: &str,
) -> PolarsResult<Table> {
    let df = lf
        .group_by(keys.iter().map(|k| col(*k)).collect::<Vec<_>>())
        .agg(aggs)
        .collect()?;
    let key_values: Vec<Vec<Value>> = keys
        .iter()
        .map(|k| strings(&df, k))
        .collect::<Result<_, _>>()?;
    let count_values: Vec<Vec<Value>> = counts
        .iter()
        .map(|c| numbers(&df, c))
        .collect::<Result<_, _>>()?;
    let rows = (0..df.height())
        .map(|i| {
            (
                key_values.iter().map(|v| v[i].clone()).collect(),
                count_values.iter().map(|v| v[i].clone()).collect(),
            )
        })
        .collect();
    Ok(Table::new(name, title, keys, counts, derived, rows))
}

/// How a results table reads a seat's result.
#[derive(Copy, Clone)]
pub enum Standing<'a> {
    /// A two-seat game's score column alone: 1 win, ½ draw, 0 loss, null unfinished.
    Score(&'a str),
    /// Any game: the place (1 first, null unfinished) and the score (1 alone in first
    /// place): a win is score 1, a draw a first place shared, a loss any other place.
    Place { place: &'a str, score: &'a str },
}

/// Win / draw / loss counts per group of `keys`, the scores summed: a results table.
pub fn results_table(
    lf: LazyFrame,
    keys: &[&str],
    standing: Standing,
    name: &str,
    title: &str,
    who: &str,
) -> PolarsResult<Table> {
    let (finished, wins, draws, losses, score) = match standing {
        Standing::Score(score) => {
            let s = || col(score).cast(DataType::Float64);
            (
                s().is_not_null(),
                s().eq(lit(1.0)),
                s().eq(lit(0.5)),
                s().eq(lit(0.0)),
                s(),
            )
        }
        Standing::Place { place, score } => {
            let s = || col(score).cast(DataType::Float64);
            (
                col(place).is_not_null(),
                s().eq(lit(1.0)),
                col(place).eq(lit(1u32)).and(s().lt(lit(1.0))),
                col(place).gt(lit(1u32)),
                s(),
            )
        }
    };
    grouped(
        lf,
        keys,
        vec![
            len().alias("games"),
            finished.sum().alias("finished"),
            wins.sum().alias("wins"),
            draws.sum().alias("draws"),
            losses.sum().alias("losses"),
            score.sum().alias("score_sum"),
        ],
        RESULT_COUNTS,
        results_derived(),
        name,
        &format!(
            "{title} ({who}: wins, draws, losses; rates of finished games with 95% Wilson intervals)"
        ),
    )
}

/// Games per group.
pub fn count_table(lf: LazyFrame, keys: &[&str], name: &str, title: &str) -> PolarsResult<Table> {
    grouped(
        lf,
        keys,
        vec![len().alias("games")],
        &["games"],
        Vec::new(),
        name,
        title,
    )
}

/// Finished games between named players, by the players in seat order and the outcome: what
/// the ratings are fitted from (`records::rating`; the report's `ratings`). Counts, so that
/// reports of parts add up to the whole's and Spark and DuckDB count the same
/// (analysis/sql/meetings.sql). With `by_period`, also by when they were played
/// (`meetings_by_period`: the players' ratings over time): a month adds up across parts; an
/// undated game's hundred is its place in the input read, so separate inputs merged add their
/// own hundreds.
fn meetings(games: LazyFrame, seats: LazyFrame, by_period: bool) -> PolarsResult<Table> {
    let keys = [col("game"), col("preset"), col("source")];
    let per_game = seats.group_by(keys.clone()).agg([
        player(1),
        player(2),
        player(3),
        col("named").cast(DataType::UInt32).min().alias("named"),
    ]);
    let outcomes = games.select([
        col("game"),
        col("preset"),
        col("source"),
        col("outcome"),
        col("period"),
    ]);
    let joined = per_game
        .join(outcomes, keys.clone(), keys, JoinArgs::new(JoinType::Inner))
        .filter(col("named").eq(lit(1u32)).and(col("outcome").is_not_null()));
    if by_period {
        return count_table(
            joined,
            &[
                "game", "preset", "period", "player1", "player2", "player3", "outcome",
            ],
            "meetings_by_period",
            "Finished games between named players, by when they were played (the month, or undated the game's hundred in the input), seat order and outcome (the ratings over time)",
        );
    }
    count_table(
        joined,
        &["game", "preset", "player1", "player2", "player3", "outcome"],
        "meetings",
        "Finished games between named players, by seat order and outcome (the ratings' counts)",
    )
}

/// The name at `seat` of a game's `seats` rows, as `player<seat>` (aggregated per game).
fn player(seat: u32) -> Expr {
    col("name")
        .filter(col("seat").eq(lit(seat)))
        .first()
        .alias(format!("player{seat}"))
}

/// The named players of each two-seat game (`game`, `preset`, `source`, `player1`,
/// `player2`): a game with a seat its record does not name is left out. What a finding
/// adjusted for who played is counted within ([`super::adjusted`]).
pub fn named_pairs(seats: LazyFrame) -> LazyFrame {
    seats
        .group_by([col("game"), col("preset"), col("source")])
        .agg([
            player(1),
            player(2),
            col("named").cast(DataType::UInt32).min().alias("named"),
            len().alias("seats"),
        ])
        .filter(col("named").eq(lit(1u32)).and(col("seats").eq(lit(2u32))))
        .select([
            col("game"),
            col("preset"),
            col("source"),
            col("player1"),
            col("player2"),
        ])
}

/// `lf` (with `game`, `preset` and `source` columns) joined to its games' named players.
pub fn with_named_pairs(lf: LazyFrame, seats: LazyFrame) -> LazyFrame {
    let keys = [col("game"), col("preset"), col("source")];
    lf.join(
        named_pairs(seats),
        keys.clone(),
        keys,
        JoinArgs::new(JoinType::Inner),
    )
}

/// A seat's result in the `seats` table.
const SEAT: Standing = Standing::Place {
    place: "place",
    score: "score",
};

/// Every table of the report: the tables of every game, then each game's own.
pub fn tables(data: &Path, options: &PartOptions) -> PolarsResult<Vec<Table>> {
    let games = scan(data, "games")?;
    let seats = scan(data, "seats")?;
    let first = || seats.clone().filter(col("seat").eq(lit(1u32)));
    let mut out = vec![
        results_table(
            first(),
            &["game", "preset"],
            SEAT,
            "by_preset",
            "Results by preset",
            "player 1",
        )?,
        results_table(
            first(),
            &["game", "variant"],
            SEAT,
            "by_variant",
            "Results by variant (preset and option overrides)",
            "player 1",
        )?,
        results_table(
            seats.clone(),
            &["game", "preset", "seat"],
            SEAT,
            "by_seat",
            "Results by seat: first, second (and third) mover",
            "each seat",
        )?,
        results_table(
            seats.clone().filter(col("side").is_not_null()),
            &["game", "variant", "side"],
            SEAT,
            "by_side",
            "Results by side (the colour or faction a seat played)",
            "each side",
        )?,
        count_table(
            games.clone().with_column(
                ((col("plies") / lit(20)) * lit(20))
                    .cast(DataType::Int64)
                    .alias("plies_from"),
            ),
            &["game", "preset", "plies_from"],
            "length",
            "Game length in plies, in bins of 20 (each from its first length to 19 more)",
        )?,
        count_table(
            games
                .clone()
                .with_column(col("reason").fill_null(lit("unfinished")))
                .with_column(col("outcome").fill_null(lit("ongoing"))),
            &["game", "preset", "reason", "outcome"],
            "endings",
            "How games end",
        )?,
        grouped(
            games.clone(),
            &["game", "preset"],
            vec![
                len().alias("games"),
                col("outcome").is_not_null().sum().alias("finished"),
                col("plies").cast(DataType::Int64).sum().alias("plies_sum"),
                col("plies").cast(DataType::Int64).max().alias("max_plies"),
            ],
            &["games", "finished", "plies_sum", "max_plies"],
            vec![
                Derived::Rate {
                    name: "finished".into(),
                    k: "finished".into(),
                    n: "games".into(),
                },
                Derived::Mean {
                    name: "mean_plies".into(),
                    sum: "plies_sum".into(),
                    n: "games".into(),
                },
            ],
            "overview",
            "Per game and preset: games, how many finished, game length",
        )?,
        meetings(games.clone(), seats.clone(), false)?,
        meetings(games.clone(), seats.clone(), true)?,
    ];
    if exists(data, "explorer") {
        // The start of every variant whose games share one: the explorer's first level, a
        // table of bounded size (the whole walk is the dataset's `explorer` table).
        out.push(results_table(
            scan(data, "explorer")?.filter(col("ply").eq(lit(0u32)).and(col("shared_start"))),
            &["game", "variant", "action"],
            Standing::Score("score"),
            "explorer",
            "The opening explorer at the start: the first actions as every seat saw them",
            "the side to move",
        )?);
    }
    out.extend(crate::games::part_tables(data, options)?);
    Ok(out)
}
