//! `anqi report`: from game logs to a statistics report (RULES.md §6).
//!
//! ```text
//! report/
//!   index.html            self-contained: charts inline, every table
//!   stats.json            every number: the summary and every table
//!   tables/<name>.csv     one CSV per table
//!   charts/<name>.png|svg the charts
//!   data/games/preset=<p>/part-*.parquet   one row per game (hive layout)
//!   data/flips/preset=<p>/part-*.parquet   one row per flip
//!   invalid.csv           the games that could not be used, and why
//! ```

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressStyle};
use records::settlement::Table as CoinTable;
use serde_json::json;

mod charts;
pub mod facts;
mod html;
mod ingest;
pub mod stats;

pub use ingest::Input;

pub struct Options {
    pub inputs: Vec<String>,
    pub output: PathBuf,
    pub table: CoinTable,
    /// How many first flips the flip table looks at.
    pub flip_depth: u32,
}

pub fn run(options: &Options) -> ExitCode {
    match build(options) {
        Ok(summary) => {
            eprintln!("{summary}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("anqi report: {e}");
            ExitCode::from(2)
        }
    }
}

fn build(options: &Options) -> Result<String, String> {
    let out = &options.output;
    let data = out.join("data");
    // A report directory is rebuilt from scratch: stale Parquet parts would be counted.
    if data.exists() {
        std::fs::remove_dir_all(&data).map_err(|e| format!("{}: {e}", data.display()))?;
    }
    std::fs::create_dir_all(&data).map_err(|e| format!("{}: {e}", data.display()))?;
    let inputs: Vec<Input> = options.inputs.iter().map(|i| Input::parse(i)).collect();
    let bar = ProgressBar::new_spinner().with_style(
        ProgressStyle::with_template("{spinner} replaying {pos} games, {per_sec}, {elapsed}")
            .expect("a valid template"),
    );
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    let ingested = ingest::ingest(&inputs, &data, options.table, &bar)?;
    bar.finish_and_clear();
    if ingested.games == 0 {
        return Err(format!(
            "no valid game in the inputs ({} rejected)",
            ingested.rejected
        ));
    }
    let tables =
        stats::tables(&data, options.flip_depth).map_err(|e| format!("statistics: {e}"))?;
    let charts =
        charts::draw_all(&tables, &out.join("charts")).map_err(|e| format!("charts: {e}"))?;
    write_tables(out, &tables).map_err(|e| format!("tables: {e}"))?;
    let mut invalid = csv::Writer::from_path(out.join("invalid.csv")).map_err(|e| e.to_string())?;
    invalid
        .write_record(["source", "code", "error"])
        .map_err(|e| e.to_string())?;
    for r in &ingested.rejected_list {
        invalid
            .write_record([&r.source, &r.code, &r.error])
            .map_err(|e| e.to_string())?;
    }
    invalid.flush().map_err(|e| e.to_string())?;
    let summary = json!({
        "games": ingested.games,
        "flips": ingested.flips,
        "rejected": ingested.rejected,
        "rejected_listed": ingested.rejected_list.len(),
        "presets": ingested.presets,
        "stake": options.table.stake,
        "bonus_per_point": options.table.bonus_per_point,
        "flip_depth": options.flip_depth,
    });
    let stats = json!({"summary": summary, "tables": tables});
    std::fs::write(
        out.join("stats.json"),
        serde_json::to_string_pretty(&stats).expect("serialisable"),
    )
    .map_err(|e| e.to_string())?;
    let page = html::page(&summary, &tables, &charts, &ingested.rejected_list, out)
        .map_err(|e| format!("HTML: {e}"))?;
    std::fs::write(out.join("index.html"), page).map_err(|e| e.to_string())?;
    Ok(format!(
        "{} games and {} flips reported, {} rejected; {}",
        ingested.games,
        ingested.flips,
        ingested.rejected,
        out.join("index.html").display()
    ))
}

fn write_tables(out: &Path, tables: &[stats::Table]) -> Result<(), Box<dyn std::error::Error>> {
    let dir = out.join("tables");
    std::fs::create_dir_all(&dir)?;
    for t in tables {
        let mut w = csv::Writer::from_path(dir.join(format!("{}.csv", t.name)))?;
        w.write_record(&t.columns)?;
        for row in &t.rows {
            w.write_record(row.iter().map(|v| match v {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Null => String::new(),
                other => other.to_string(),
            }))?;
        }
        w.flush()?;
    }
    Ok(())
}
