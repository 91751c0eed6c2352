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
    // Records are read as the batches need them: memory holds one batch, whatever the input's
    // size; the bar counts bytes read (so its rate and ETA hold for one large file too).
    let total_bytes: u64 = files
        .iter()
        .filter_map(|f| std::fs::metadata(f).ok())
        .map(|m| m.len())
        .sum();
    let bar = ProgressBar::new(total_bytes).with_style(
        ProgressStyle::with_template(
            "{spinner} importing [{bar:40}] {binary_bytes}/{binary_total_bytes}, {msg}, eta {eta}",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    let started = std::time::Instant::now();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut tally = Tally::default();
    let mut batch: Vec<inputs::Entry> = Vec::with_capacity(options.batch.max(1));
    let mut failed = None;
    for file in &files {
        inputs::each(file, Some(&bar), |entry| {
            if failed.is_some() {
                return;
            }
            batch.push(entry);
            if batch.len() >= options.batch.max(1) {
                failed =
                    import_batch(&store, &mut batch, options, &mut tally, &bar, &mut out).err();
                bar.set_message(tally.rate(started));
            }
        });
        if failed.is_some() {
            break;
        }
    }
    if failed.is_none() {
        failed = import_batch(&store, &mut batch, options, &mut tally, &bar, &mut out).err();
    }
    if let Some(e) = failed {
        bar.abandon();
        let _ = out.flush();
        eprintln!(
            "anqi import: {e}; {} games were stored before it (batches are all-or-nothing)",
            tally.stored
        );
        return ExitCode::from(2);
    }
    let Tally {
        stored,
        duplicates,
        invalid,
        unreadable,
    } = tally;
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

#[derive(Default)]
struct Tally {
    stored: usize,
    duplicates: usize,
    invalid: usize,
    unreadable: usize,
}

impl Tally {
    /// Games so far and games per second, for the progress bar.
    fn rate(&self, started: std::time::Instant) -> String {
        let games = self.stored + self.duplicates + self.invalid + self.unreadable;
        let seconds = started.elapsed().as_secs_f64().max(1e-3);
        format!("{games} games, {:.0} games/s", games as f64 / seconds)
    }
}

/// Imports one batch in one transaction and reports each game's outcome once it committed.
fn import_batch(
    store: &Store,
    batch: &mut Vec<inputs::Entry>,
    options: &Options,
    tally: &mut Tally,
    bar: &ProgressBar,
    out: &mut impl Write,
) -> Result<(), records::store::StoreError> {
    let mut incoming = Vec::with_capacity(batch.len());
    let mut sources = Vec::with_capacity(batch.len());
    for entry in batch.drain(..) {
        match entry.record {
            Ok(record) => {
                incoming.push(Incoming {
                    record,
                    source: entry.source.clone(),
                });
                sources.push(entry.source);
            }
            Err(e) => {
                tally.unreadable += 1;
                let line = if options.json {
                    json!({"source": entry.source, "status": "unreadable", "error": e}).to_string()
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
    let outcomes = store.import(&incoming)?;
    for (source, outcome) in sources.iter().zip(&outcomes) {
        let line = match outcome {
            Imported::Stored { id, .. } => {
                tally.stored += 1;
                (options.verbose || options.json).then(|| {
                    if options.json {
                        json!({"source": source, "status": "stored", "id": id}).to_string()
                    } else {
                        format!("{source}\tstored\tid {id}")
                    }
                })
            }
            Imported::Duplicate { id, .. } => {
                tally.duplicates += 1;
                (options.verbose || options.json).then(|| {
                    if options.json {
                        json!({"source": source, "status": "duplicate", "id": id}).to_string()
                    } else {
                        format!("{source}\talready stored\tid {id}")
                    }
                })
            }
            Imported::Invalid { error } => {
                tally.invalid += 1;
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
    Ok(())
}
