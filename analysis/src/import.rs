//! `anqi import`: validate game records and store the valid ones (SQLite by default,
//! PostgreSQL by URL), idempotently, in atomic batches, with a progress bar.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressStyle};
use records::store::{Imported, Incoming, Store};
use serde_json::json;

use crate::inputs;

pub struct Options {
    pub database: String,
    pub batch: usize,
    pub json: bool,
    pub verbose: bool,
}

pub fn run(paths: &[PathBuf], options: &Options) -> ExitCode {
    let files = match inputs::files(paths) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("anqi import: {e}");
            return ExitCode::from(2);
        }
    };
    let store = match Store::open(&options.database) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("anqi import: {e}");
            return ExitCode::from(2);
        }
    };
    // Read everything first: the progress bar then knows the total.
    let entries: Vec<inputs::Entry> = files.iter().flat_map(|f| inputs::read(f)).collect();
    let bar = ProgressBar::new(entries.len() as u64).with_style(
        ProgressStyle::with_template(
            "{spinner} importing [{bar:40}] {pos}/{len} games, {per_sec}, eta {eta}",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let (mut stored, mut duplicates, mut invalid, mut unreadable) =
        (0usize, 0usize, 0usize, 0usize);
    for batch in entries.chunks(options.batch.max(1)) {
        let mut incoming = Vec::with_capacity(batch.len());
        let mut sources = Vec::with_capacity(batch.len());
        for entry in batch {
            match &entry.record {
                Ok(record) => {
                    incoming.push(Incoming {
                        record: record.clone(),
                        source: entry.source.clone(),
                    });
                    sources.push(entry.source.as_str());
                }
                Err(e) => {
                    unreadable += 1;
                    let line = if options.json {
                        json!({"source": entry.source, "status": "unreadable", "error": e})
                            .to_string()
                    } else {
                        format!("{}\tUNREADABLE\t{e}", entry.source)
                    };
                    bar.suspend(|| {
                        let _ = writeln!(out, "{line}");
                    });
                }
            }
        }
        // One transaction per batch: after this returns, the batch is committed.
        let outcomes = match store.import(&incoming) {
            Ok(o) => o,
            Err(e) => {
                bar.abandon();
                let _ = out.flush();
                eprintln!(
                    "anqi import: {e}; {stored} games were stored before it (batches are all-or-nothing)"
                );
                return ExitCode::from(2);
            }
        };
        for (source, outcome) in sources.iter().zip(&outcomes) {
            let line = match outcome {
                Imported::Stored { id, .. } => {
                    stored += 1;
                    (options.verbose || options.json).then(|| {
                        if options.json {
                            json!({"source": source, "status": "stored", "id": id}).to_string()
                        } else {
                            format!("{source}\tstored\tid {id}")
                        }
                    })
                }
                Imported::Duplicate { id, .. } => {
                    duplicates += 1;
                    (options.verbose || options.json).then(|| {
                        if options.json {
                            json!({"source": source, "status": "duplicate", "id": id}).to_string()
                        } else {
                            format!("{source}\talready stored\tid {id}")
                        }
                    })
                }
                Imported::Invalid { error } => {
                    invalid += 1;
                    Some(if options.json {
                        json!({"source": source, "status": "invalid", "code": error.code(), "error": error}).to_string()
                    } else {
                        format!("{source}\tINVALID\t{error}")
                    })
                }
            };
            if let Some(line) = line {
                bar.suspend(|| {
                    let _ = writeln!(out, "{line}");
                });
            }
        }
        // Reported lines reach the terminal or pipe only after their batch committed.
        let _ = out.flush();
        bar.inc(batch.len() as u64);
    }
    bar.finish_and_clear();
    let total = stored + duplicates + invalid + unreadable;
    let _ = if options.json {
        writeln!(
            out,
            "{}",
            json!({"summary": {"games": total, "stored": stored, "duplicates": duplicates,
                   "invalid": invalid, "unreadable": unreadable, "database": store.backend()}})
        )
    } else {
        writeln!(
            out,
            "{total} games: {stored} stored, {duplicates} already stored, {invalid} invalid, {unreadable} unreadable ({} database)",
            store.backend()
        )
    };
    let _ = out.flush();
    if invalid + unreadable > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
