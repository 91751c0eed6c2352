//! The statistics of RULES.md §6, computed with Polars (lazy scans of the Parquet dataset,
//! so only the columns a table needs are read) and turned into plain tables; rates get Wilson
//! 95% confidence intervals.

use std::path::Path;

use polars::prelude::*;
use serde::Serialize;
use serde_json::{Value, json};

/// A table of the report: what the HTML shows, the JSON holds and a CSV file carries.
#[derive(Clone, Debug, Serialize)]
pub struct Table {
    pub name: &'static str,
    pub title: String,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Value>>,
}

impl Table {
    /// The values of one column.
    pub fn column(&self, name: &str) -> Vec<&Value> {
        let i = self
            .columns
            .iter()
            .position(|c| c == name)
            .unwrap_or_else(|| panic!("no column {name} in {}", self.name));
        self.rows.iter().map(|r| &r[i]).collect()
    }
}

/// The Wilson score interval at 95% for `k` successes in `n` trials.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (k, n, z) = (k as f64, n as f64, 1.959_963_984_540_054);
    let p = k / n;
    let denominator = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denominator;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denominator;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

fn round(x: f64) -> Value {
    json!((x * 10_000.0).round() / 10_000.0)
}

/// The dataset table `name` (`games` or `flips`), with `preset` from the hive path.
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

fn ints(df: &DataFrame, name: &str) -> PolarsResult<Vec<i64>> {
    let s = df
        .column(name)?
        .as_materialized_series()
        .cast(&DataType::Int64)?;
    Ok(s.i64()?.iter().map(|v| v.unwrap_or(0)).collect())
}

fn floats(df: &DataFrame, name: &str) -> PolarsResult<Vec<Option<f64>>> {
    let s = df
        .column(name)?
        .as_materialized_series()
        .cast(&DataType::Float64)?;
    Ok(s.f64()?.iter().collect())
}

/// Groups `lf` by `by`, aggregates, sorts by the keys; gives the frame and the key columns.
fn grouped(
    lf: LazyFrame,
    by: &[&str],
    aggs: Vec<Expr>,
) -> PolarsResult<(DataFrame, Vec<Vec<Value>>)> {
    let df = lf
        .group_by(by.iter().map(|k| col(*k)).collect::<Vec<_>>())
        .agg(aggs)
        .sort(by.to_vec(), SortMultipleOptions::default())
        .collect()?;
    let key_values = by
        .iter()
        .map(|k| strings(&df, k))
        .collect::<Result<_, _>>()?;
    Ok((df, key_values))
}

/// Win / draw / loss counts and rates (with intervals) of `score` (1, 0.5, 0; null = not
/// finished) per group of `by`.
fn results_table(
    lf: LazyFrame,
    by: &[&str],
    score: &str,
    name: &'static str,
    title: &str,
    who: &str,
) -> PolarsResult<Table> {
    let (df, key_values) = grouped(
        lf,
        by,
        vec![
            len().alias("games"),
            col(score).eq(lit(1.0)).sum().alias("wins"),
            col(score).eq(lit(0.5)).sum().alias("draws"),
            col(score).eq(lit(0.0)).sum().alias("losses"),
        ],
    )?;
    let (games, wins, draws, losses) = (
        ints(&df, "games")?,
        ints(&df, "wins")?,
        ints(&df, "draws")?,
        ints(&df, "losses")?,
    );
    let mut columns: Vec<String> = by.iter().map(|s| s.to_string()).collect();
    for c in [
        "games",
        "finished",
        "wins",
        "draws",
        "losses",
        "win_rate",
        "win_low",
        "win_high",
        "draw_rate",
        "draw_low",
        "draw_high",
        "loss_rate",
        "loss_low",
        "loss_high",
        "score",
    ] {
        columns.push(c.to_owned());
    }
    let rows = (0..df.height())
        .map(|i| {
            let (w, d, l) = (wins[i] as u64, draws[i] as u64, losses[i] as u64);
            let n = w + d + l;
            let rate = |k: u64| if n == 0 { 0.0 } else { k as f64 / n as f64 };
            let mut row: Vec<Value> = key_values.iter().map(|v| v[i].clone()).collect();
            row.extend([json!(games[i]), json!(n), json!(w), json!(d), json!(l)]);
            for k in [w, d, l] {
                let (lo, hi) = wilson(k, n);
                row.extend([round(rate(k)), round(lo), round(hi)]);
            }
            row.push(round(if n == 0 {
                0.0
            } else {
                (w as f64 + d as f64 / 2.0) / n as f64
            }));
            row
        })
        .collect();
    Ok(Table {
        name,
        title: format!(
            "{title} ({who}: wins, draws, losses; rates of finished games with 95% Wilson intervals)"
        ),
        columns,
        rows,
    })
}

/// Counts per group.
fn count_table(lf: LazyFrame, by: &[&str], name: &'static str, title: &str) -> PolarsResult<Table> {
    let (df, key_values) = grouped(lf, by, vec![len().alias("games")])?;
    let counts = ints(&df, "games")?;
    let mut columns: Vec<String> = by.iter().map(|s| s.to_string()).collect();
    columns.push("games".into());
    let rows = (0..df.height())
        .map(|i| {
            let mut row: Vec<Value> = key_values.iter().map(|v| v[i].clone()).collect();
            row.push(json!(counts[i]));
            row
        })
        .collect();
    Ok(Table {
        name,
        title: title.to_owned(),
        columns,
        rows,
    })
}

/// Every table of the report.
pub fn tables(data: &Path, flip_depth: u32) -> PolarsResult<Vec<Table>> {
    let games = scan(data, "games")?;
    let flips = scan(data, "flips")?;
    let decided = || games.clone().filter(col("margin").is_not_null());
    let mut out = vec![
        results_table(
            games.clone(),
            &["preset"],
            "p1_score",
            "by_preset",
            "Results by preset",
            "player 1",
        )?,
        results_table(
            games.clone(),
            &["variant"],
            "p1_score",
            "by_variant",
            "Results by variant (preset and option overrides)",
            "player 1",
        )?,
        results_table(
            games.clone().with_column(
                when(col("red_result").eq(lit("win")))
                    .then(lit(1.0))
                    .when(col("red_result").eq(lit("draw")))
                    .then(lit(0.5))
                    .when(col("red_result").eq(lit("loss")))
                    .then(lit(0.0))
                    .otherwise(lit(NULL).cast(DataType::Float64))
                    .alias("red_score"),
            ),
            &["variant"],
            "red_score",
            "by_colour",
            "Results by colour: red's results (black's are the mirror)",
            "red",
        )?,
        results_table(
            games.clone().filter(col("first_square").is_not_null()),
            &["preset", "first_square"],
            "p1_score",
            "first_square",
            "Flip opening: player 1's results by the square of the first flip",
            "player 1",
        )?,
        results_table(
            games.clone().filter(col("first_piece").is_not_null()),
            &["preset", "first_piece"],
            "p1_score",
            "first_piece",
            "Flip opening: player 1's results by the piece of the first flip",
            "player 1",
        )?,
        results_table(
            games.clone().filter(col("second_piece").is_not_null()),
            &["preset", "first_piece", "second_piece"],
            "p1_score",
            "first_pair",
            "Flip opening: player 1's results by both players' first flips",
            "player 1",
        )?,
        results_table(
            flips.clone().filter(col("number").lt_eq(lit(flip_depth))),
            &["preset", "number", "adjacent"],
            "score",
            "flips_adjacent",
            &format!(
                "The first {flip_depth} flips of a game: the flipper's results by flip number and whether the flip was next to a revealed piece"
            ),
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
        count_table(
            games.clone().with_column(
                ((col("plies") / lit(20)) * lit(20))
                    .cast(DataType::Int64)
                    .alias("plies_from"),
            ),
            &["preset", "plies_from"],
            "length",
            "Game length in plies (bins of 20: plies_from … plies_from + 19)",
        )?,
        count_table(
            games
                .clone()
                .with_column(col("reason").fill_null(lit("unfinished"))),
            &["preset", "reason", "outcome"],
            "endings",
            "How games end",
        )?,
    ];
    out.push(extras(&games)?);
    Ok(out)
}

/// Per preset: game length figures, 門棋加倍 and 和棋續盤 frequencies.
fn extras(games: &LazyFrame) -> PolarsResult<Table> {
    let df = games
        .clone()
        .group_by([col("preset")])
        .agg([
            len().alias("games"),
            col("plies").mean().alias("mean_plies"),
            col("plies").median().alias("median_plies"),
            col("plies").max().alias("max_plies"),
            col("doubled").sum().alias("doubled"),
            col("margin").is_not_null().sum().alias("decided"),
            (col("margin")
                .is_not_null()
                .and(col("draws_carried").gt(lit(0))))
            .sum()
            .alias("carried"),
            col("margin").mean().alias("mean_margin"),
            col("settlement").mean().alias("mean_settlement"),
        ])
        .sort(["preset"], SortMultipleOptions::default())
        .collect()?;
    let presets = strings(&df, "preset")?;
    let (games_n, doubled, decided, carried) = (
        ints(&df, "games")?,
        ints(&df, "doubled")?,
        ints(&df, "decided")?,
        ints(&df, "carried")?,
    );
    let (mean, median, max) = (
        floats(&df, "mean_plies")?,
        floats(&df, "median_plies")?,
        ints(&df, "max_plies")?,
    );
    let (mean_margin, mean_settlement) =
        (floats(&df, "mean_margin")?, floats(&df, "mean_settlement")?);
    let columns = [
        "preset",
        "games",
        "mean_plies",
        "median_plies",
        "max_plies",
        "doubled",
        "doubled_rate",
        "doubled_low",
        "doubled_high",
        "decided",
        "carried",
        "carried_rate",
        "carried_low",
        "carried_high",
        "mean_margin",
        "mean_settlement",
    ]
    .map(String::from)
    .to_vec();
    let opt = |x: Option<f64>| x.map_or(Value::Null, round);
    let rows = (0..df.height())
        .map(|i| {
            let (n, d, dec, c) = (
                games_n[i] as u64,
                doubled[i] as u64,
                decided[i] as u64,
                carried[i] as u64,
            );
            let (dl, dh) = wilson(d, n);
            let (cl, ch) = wilson(c, dec);
            vec![
                presets[i].clone(),
                json!(n),
                opt(mean[i]),
                opt(median[i]),
                json!(max[i]),
                json!(d),
                round(if n == 0 { 0.0 } else { d as f64 / n as f64 }),
                round(dl),
                round(dh),
                json!(dec),
                json!(c),
                round(if dec == 0 { 0.0 } else { c as f64 / dec as f64 }),
                round(cl),
                round(ch),
                opt(mean_margin[i]),
                opt(mean_settlement[i]),
            ]
        })
        .collect();
    Ok(Table {
        name: "overview",
        title: "Per preset: game length, 門棋加倍 (doubled) and 和棋續盤 (decided games that carried draws), with 95% intervals".into(),
        columns,
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_hand_computed_values() {
        // 7 of 10: centre (0.7 + 0.19208) / 1.38415 = 0.64448, half 0.24775.
        let (lo, hi) = wilson(7, 10);
        assert!((lo - 0.3968).abs() < 1e-4, "{lo}");
        assert!((hi - 0.8922).abs() < 1e-4, "{hi}");
        assert_eq!(wilson(0, 0), (0.0, 1.0));
        let (lo, hi) = wilson(0, 5);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.4345).abs() < 1e-4, "{hi}");
    }
}
