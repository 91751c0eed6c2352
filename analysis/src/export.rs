//! `anqi export`: the report's dataset alone (docs/analysis.md, "The data contract"), written
//! as the inputs stream by, for other engines (Spark, DuckDB) to count. Several exports may
//! write into one directory: each names its parts after its own run (and its share, with
//! `--part K/N`), so that no two parts share a name.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use rand::{RngExt, SeedableRng};

use crate::games::PartOptions;
use crate::report::contract::{SCHEMA_FILE, SCHEMA_VERSION, write_schema};
use crate::report::ingest::{self, Input, Plan, Share};

pub struct Options {
    pub inputs: Vec<String>,
    pub output: PathBuf,
    pub share: Option<Share>,
    pub parts: PartOptions,
}

pub fn run(options: &Options) -> ExitCode {
    match export(options) {
        Ok((summary, rejected)) => {
            eprintln!("{summary}");
            if rejected > 0 {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            eprintln!("anqi export: {e}");
            ExitCode::from(2)
        }
    }
}

fn export(options: &Options) -> Result<(String, usize), String> {
    let out = &options.output;
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    check_schema(out)?;
    let run = run_name(options.share);
    let inputs: Vec<Input> = options.inputs.iter().map(|i| Input::parse(i)).collect();
    let bar = Input::progress(&inputs, "exporting");
    let plan = Plan {
        count: false,
        names: format!("{run}-"),
        share: options.share,
    };
    let ingested = ingest::ingest(&inputs, out, &options.parts, &bar, &plan)?;
    bar.finish_and_clear();
    write_schema(out).map_err(|e| format!("{}: {e}", out.display()))?;
    if !ingested.rejected_list.is_empty() {
        let path = out.join(format!("invalid-{run}.csv"));
        write_rejected(&path, &ingested.rejected_list)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let share = options
        .share
        .map_or_else(String::new, |s| format!(" (part {s})"));
    Ok((
        format!(
            "{} games exported{share}, {} rejected{}; parts part-{run}-*.parquet in {}",
            ingested.games,
            ingested.rejected,
            if ingested.rejected > 0 {
                format!(" (listed in invalid-{run}.csv)")
            } else {
                String::new()
            },
            out.display()
        ),
        ingested.rejected,
    ))
}

/// The name of this run's parts: its share (`k2of8`) when it has one, and 64 random bits,
/// so that runs on several machines, or one after another, never write the same file.
fn run_name(share: Option<Share>) -> String {
    let mut rng = rand::rngs::StdRng::try_from_rng(&mut rand::rngs::SysRng)
        .expect("the operating system's random generator");
    let id: u64 = rng.random();
    match share {
        Some(s) => format!("k{}of{}-{id:016x}", s.index + 1, s.of),
        None => format!("{id:016x}"),
    }
}

/// A directory that holds data of another schema version is not written into: its tables
/// would mix two meanings of a column.
fn check_schema(out: &Path) -> Result<(), String> {
    let path = out.join(SCHEMA_FILE);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(());
    };
    let found = serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| v["schema_version"].as_u64());
    match found {
        Some(v) if v == u64::from(SCHEMA_VERSION) => Ok(()),
        Some(v) => Err(format!(
            "{} holds data of schema version {v}; this anqi writes version {SCHEMA_VERSION} (export into another directory)",
            out.display()
        )),
        None => Err(format!("{}: not a schema file of anqi's", path.display())),
    }
}

fn write_rejected(path: &Path, rejected: &[ingest::Rejected]) -> Result<(), csv::Error> {
    let mut w = csv::Writer::from_path(path)?;
    w.write_record(["source", "code", "error"])?;
    for r in rejected {
        w.write_record([&r.source, &r.code, &r.error])?;
    }
    w.flush()?;
    Ok(())
}
