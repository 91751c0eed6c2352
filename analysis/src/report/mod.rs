//! `anqi report`: from game logs to a statistics report (RULES.md §6).
//!
//! ```text
//! report/
//!   index.html            self-contained: charts inline, every table
//!   players/<name>.html   a page per rated player: results by opponent and seat, rating over time
//!   stats.json            every number: the summary and every table, as counts
//!   tables/<name>.csv     one CSV per table
//!   charts/<name>.png|svg the charts
//!   data/games/game=<g>/preset=<p>/part-*.parquet        one row per game (hive layout)
//!   data/seats/game=<g>/preset=<p>/part-*.parquet        one row per seat of a game
//!   data/banqi_games/…, data/banqi_flips/…               Banqi's own: openings, flips, coins
//!   invalid.csv           the games that could not be used, and why
//!   .anqi-report          what the report wrote (the next report replaces only that)
//! ```
//!
//! The directory is new, empty or an earlier report ([`output`]): the report is written beside
//! it and moved into place whole, and nothing the report did not write is ever deleted.
//!
//! Every table is counts ([`table::Table`]): reports of parts of a data set merge into the
//! report of the whole (`anqi report --merge`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use records::core::language::{Language, Phrases};
use serde_json::{Value, json};

use crate::games::PartOptions;
use crate::inputs::Failure;

pub mod adjusted;
pub mod charts;
pub mod contract;
pub mod draw;
pub mod facts;
pub mod headlines;
mod html;
pub mod ingest;
mod leaderboard;
pub mod output;
mod player_pages;
pub mod players;
pub mod said;
pub mod stats;
pub mod table;

pub use ingest::Input;
use table::Table;

pub struct Options {
    pub inputs: Vec<String>,
    pub output: PathBuf,
    pub parts: PartOptions,
    /// The inputs are reports to merge, not game logs.
    pub merge: bool,
    /// The language of the page, the charts and the players' pages (the CSV, JSON and
    /// Parquet keep their codes).
    pub language: Language,
}

/// Writes the report; exits 1 when records were refused (the report of the others is written,
/// and `invalid.csv` lists them; with none left, no report), 2 when it cannot run, 3 when the
/// inputs hold no game at all (no report).
pub fn run(options: &Options) -> ExitCode {
    match build(options) {
        Ok((summary, rejected)) => {
            eprintln!("{summary}");
            if rejected > 0 {
                eprintln!("anqi report: {rejected} records refused (invalid.csv lists them)");
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(Refusal::Records(why)) => Failure::Refused(why).exit("report"),
        Err(Refusal::Cannot(why)) => Failure::Cannot(why).exit("report"),
        Err(Refusal::NoGame(why)) => Failure::NoGame(why).exit("report"),
    }
}

/// Why there is no report.
enum Refusal {
    /// Every record was refused.
    Records(String),
    /// The report cannot be made (arguments, files).
    Cannot(String),
    /// The inputs hold no game at all.
    NoGame(String),
}

impl From<String> for Refusal {
    fn from(why: String) -> Refusal {
        Refusal::Cannot(why)
    }
}

/// The report, and how many records were refused.
fn build(options: &Options) -> Result<(String, u64), Refusal> {
    if options.merge {
        // The output is written over: it cannot be one of the reports merged.
        let out = std::fs::canonicalize(&options.output).ok();
        if let Some(input) = options
            .inputs
            .iter()
            .find(|i| out.is_some() && std::fs::canonicalize(i).ok() == out)
        {
            return Err(Refusal::Cannot(format!(
                "{input} is both a report to merge and the output: name another output"
            )));
        }
    }
    // Written beside the output and moved into place whole: a failed report leaves nothing,
    // and an earlier report's files are replaced only then (stale Parquet parts would be
    // counted); nothing else is touched.
    let staging = output::Staging::begin(&options.output)?;
    let (summary, rejected) = if options.merge {
        merge(options, staging.dir())?
    } else {
        report(options, staging.dir())?
    };
    staging.finish()?;
    Ok((
        format!("{summary}; {}", options.output.join("index.html").display()),
        rejected,
    ))
}

/// The report of the game logs, written into `out`.
fn report(options: &Options, out: &Path) -> Result<(String, u64), Refusal> {
    let data = out.join("data");
    std::fs::create_dir_all(&data).map_err(|e| format!("{}: {e}", data.display()))?;
    let inputs: Vec<Input> = options.inputs.iter().map(|i| Input::parse(i)).collect();
    let bar = Input::progress(&inputs, "replaying");
    let plan = ingest::Plan {
        count: true,
        ..ingest::Plan::default()
    };
    let ingested = ingest::ingest(&inputs, &data, &options.parts, &bar, &plan)?;
    contract::write_schema(&data).map_err(|e| format!("{}: {e}", data.display()))?;
    bar.finish_and_clear();
    if ingested.games == 0 && ingested.rejected == 0 {
        return Err(Refusal::NoGame(format!(
            "no game in the inputs ({}): nothing to report",
            options.inputs.join(", ")
        )));
    }
    if ingested.games == 0 {
        // Why the first were refused: the reader can act on it.
        let why: Vec<String> = ingested
            .rejected_list
            .iter()
            .take(3)
            .map(|r| format!("{}: {}", r.source, r.error))
            .collect();
        return Err(Refusal::Records(format!(
            "no valid game in the inputs ({} refused{}{})",
            ingested.rejected,
            if why.is_empty() { "" } else { ": " },
            why.join("; ")
        )));
    }
    let tables = ingested.tables;
    let summary = json!({
        "games": ingested.games,
        "flips": ingested.flips,
        "rejected": ingested.rejected,
        "rejected_listed": ingested.rejected_list.len(),
        "presets": ingested.presets,
        "stake": options.parts.table.stake,
        "bonus_per_point": options.parts.table.bonus_per_point,
        "flip_depth": options.parts.flip_depth,
    });
    let text = write_report(
        out,
        summary,
        &tables,
        &ingested.rejected_list,
        Phrases::of(options.language),
    )?;
    Ok((text, ingested.rejected as u64))
}

/// Writes everything but the dataset: charts, CSV tables, stats.json, invalid.csv, the page.
fn write_report(
    out: &Path,
    summary: Value,
    tables: &[Table],
    rejected: &[ingest::Rejected],
    say: &Phrases,
) -> Result<String, String> {
    let chart_dir = out.join("charts");
    let charts = charts::draw_all(tables, &chart_dir, say).map_err(|e| format!("charts: {e}"))?;
    // The players' tables derive from the counts (the meetings): fitted again here, whether
    // the counts are this report's, merged reports' or Spark's.
    let (player_tables, fits) = players::tables(tables);
    let all: Vec<Table> = tables.iter().chain(&player_tables).cloned().collect();
    let mut written = write_tables(out, &all).map_err(|e| format!("tables: {e}"))?;
    written.extend(charts.iter().flat_map(|c| [c.png.clone(), c.svg.clone()]));
    written.extend(
        player_pages::write(out, &all, &fits, say).map_err(|e| format!("players' pages: {e}"))?,
    );
    let mut invalid = csv::Writer::from_path(out.join("invalid.csv")).map_err(|e| e.to_string())?;
    invalid
        .write_record(["source", "code", "error"])
        .map_err(|e| e.to_string())?;
    for r in rejected {
        invalid
            .write_record([&r.source, &r.code, &r.error])
            .map_err(|e| e.to_string())?;
    }
    invalid.flush().map_err(|e| e.to_string())?;
    let stats = json!({
        "summary": summary,
        "tables": tables,
        "players": player_tables,
        "rejected": rejected,
    });
    std::fs::write(
        out.join("stats.json"),
        serde_json::to_string_pretty(&stats).expect("serialisable"),
    )
    .map_err(|e| e.to_string())?;
    let page = html::page(&summary, &all, &fits, &charts, rejected, out, say)
        .map_err(|e| format!("HTML: {e}"))?;
    std::fs::write(out.join("index.html"), page).map_err(|e| e.to_string())?;
    output::record(out, &written).map_err(|e| format!("{}: {e}", out.display()))?;
    Ok(format!(
        "{} games and {} flips reported, {} rejected",
        summary["games"], summary["flips"], summary["rejected"],
    ))
}

/// Merges reports of parts of a data set: their tables' counts added row by row, their
/// summaries added, their rejected games listed together, their Parquet parts copied; written
/// into `out`.
fn merge(options: &Options, out: &Path) -> Result<(String, u64), Refusal> {
    let data = out.join("data");
    std::fs::create_dir_all(&data).map_err(|e| format!("{}: {e}", data.display()))?;
    contract::write_schema(&data).map_err(|e| format!("{}: {e}", data.display()))?;
    let mut tables: Vec<Table> = Vec::new();
    let mut summary =
        json!({"games": 0, "flips": 0, "rejected": 0, "rejected_listed": 0, "presets": []});
    let mut rejected: Vec<ingest::Rejected> = Vec::new();
    for (i, input) in options.inputs.iter().enumerate() {
        let dir = Path::new(input);
        let text = std::fs::read_to_string(dir.join("stats.json"))
            .map_err(|e| format!("{input}: not a report ({e})"))?;
        let stats: Value =
            serde_json::from_str(&text).map_err(|e| format!("{input}/stats.json: {e}"))?;
        let part: Vec<Table> = serde_json::from_value(stats["tables"].clone())
            .map_err(|e| format!("{input}/stats.json: {e}"))?;
        for t in part {
            match tables.iter_mut().find(|m| m.name == t.name) {
                Some(m) => *m = m.merge(&t)?,
                None => tables.push(t),
            }
        }
        let s = &stats["summary"];
        for key in ["games", "flips", "rejected", "rejected_listed"] {
            summary[key] = json!(summary[key].as_u64().unwrap_or(0) + s[key].as_u64().unwrap_or(0));
        }
        let mut presets: Vec<Value> = summary["presets"].as_array().cloned().unwrap_or_default();
        presets.extend(s["presets"].as_array().cloned().unwrap_or_default());
        presets.sort_by_key(|v| v.to_string());
        presets.dedup();
        summary["presets"] = json!(presets);
        for key in ["stake", "bonus_per_point", "flip_depth"] {
            summary[key] = s[key].clone();
        }
        rejected.extend(
            serde_json::from_value::<Vec<ingest::Rejected>>(stats["rejected"].clone())
                .unwrap_or_default(),
        );
        copy_parts(&dir.join("data"), &data, &format!("m{i}-"))
            .map_err(|e| format!("{input}/data: {e}"))?;
    }
    // The parts' refusals were each part's to report: the merge refuses nothing.
    Ok((
        write_report(
            out,
            summary,
            &tables,
            &rejected,
            Phrases::of(options.language),
        )?,
        0,
    ))
}

/// Copies every Parquet part under `from` to the same place under `to`, its file name
/// prefixed (parts of two reports have the same names).
fn copy_parts(from: &Path, to: &Path, prefix: &str) -> std::io::Result<()> {
    if !from.is_dir() {
        return Ok(());
    }
    for entry in std::fs::read_dir(from)? {
        let path = entry?.path();
        let name = path
            .file_name()
            .expect("a directory entry")
            .to_string_lossy()
            .into_owned();
        if path.is_dir() {
            let sub = to.join(&name);
            std::fs::create_dir_all(&sub)?;
            copy_parts(&path, &sub, prefix)?;
        } else if name.ends_with(".parquet") {
            std::fs::copy(&path, to.join(format!("{prefix}{name}")))?;
        }
    }
    Ok(())
}

/// Writes one CSV per table; gives their paths.
fn write_tables(out: &Path, tables: &[Table]) -> Result<Vec<PathBuf>, Box<dyn std::error::Error>> {
    let dir = out.join("tables");
    std::fs::create_dir_all(&dir)?;
    let mut written = Vec::new();
    for t in tables {
        let path = dir.join(format!("{}.csv", t.name));
        let mut w = csv::Writer::from_path(&path)?;
        written.push(path);
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
    Ok(written)
}
