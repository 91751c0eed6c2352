//! `anqi import`: validate game records and store the valid ones (SQLite by default,
//! PostgreSQL by URL), idempotently, in atomic batches, with a progress bar.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressStyle};
use records::core::ReplayError;
use records::formats::LoadError;
use records::store::{Imported, NewGame, Store, StoreError, now_rfc3339};
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
    // Read on a thread of its own, parsed and replayed on every core, written on a thread of
    // its own while the next batch is replayed: memory holds a few batches, whatever the
    // inputs' size. The bar counts bytes read (its rate and ETA hold for one large file).
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
    let (to_writer, batches) = std::sync::mpsc::sync_channel::<Vec<Prepared>>(1);
    let writer = {
        let (store, bar) = (store.clone(), bar.clone());
        let (json, verbose) = (options.json, options.verbose);
        std::thread::spawn(move || write_batches(&store, batches, json || verbose, json, &bar))
    };
    for batch in inputs::batches(files, options.batch, 1, Some(bar.clone())) {
        let prepared = prepare(batch);
        if to_writer.send(prepared).is_err() {
            break; // the writer stopped on an error: it says which
        }
    }
    drop(to_writer);
    let (tally, failed) = writer.join().expect("the writer does not panic");
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if let Some(e) = failed {
        bar.abandon();
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
        ..
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

/// A game ready to write: its source, and its rows (or why it is invalid, or unreadable).
struct Prepared {
    source: String,
    game: Result<Result<NewGame, ReplayError>, LoadError>,
}

/// Parses, validates and scores a batch on every core, keeping its order.
fn prepare(batch: Vec<inputs::Raw>) -> Vec<Prepared> {
    use rayon::prelude::*;
    let now = now_rfc3339();
    batch
        .into_par_iter()
        .map(|raw| {
            let entry = raw.parse();
            let game = entry
                .record
                .map(|record| NewGame::from_record(&record, &entry.source, &now));
            Prepared {
                source: entry.source,
                game,
            }
        })
        .collect()
}

#[derive(Default)]
struct Tally {
    stored: usize,
    duplicates: usize,
    invalid: usize,
    unreadable: usize,
    started: Option<std::time::Instant>,
}

impl Tally {
    /// Games so far and games per second, for the progress bar.
    fn rate(&self) -> String {
        let games = self.stored + self.duplicates + self.invalid + self.unreadable;
        let seconds = self
            .started
            .map_or(0.0, |s| s.elapsed().as_secs_f64())
            .max(1e-3);
        format!("{games} games, {:.0} games/s", games as f64 / seconds)
    }
}

/// Writes each batch in one transaction and reports each game's outcome, in input order,
/// once its batch committed. Stops at the first batch that cannot be written.
fn write_batches(
    store: &Store,
    batches: std::sync::mpsc::Receiver<Vec<Prepared>>,
    list: bool,
    json: bool,
    bar: &ProgressBar,
) -> (Tally, Option<StoreError>) {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut tally = Tally {
        started: Some(std::time::Instant::now()),
        ..Tally::default()
    };
    for batch in batches {
        // The unreadable keep their place; the others are written together.
        let mut sources = Vec::with_capacity(batch.len());
        let mut games = Vec::with_capacity(batch.len());
        for p in batch {
            match p.game {
                Ok(game) => {
                    games.push(game);
                    sources.push((p.source, None));
                }
                Err(e) => sources.push((p.source, Some(e))),
            }
        }
        let mut outcomes = match store.write(games) {
            Ok(outcomes) => outcomes.into_iter(),
            Err(e) => {
                let _ = out.flush();
                return (tally, Some(e));
            }
        };
        for (source, unreadable) in sources {
            let line = match unreadable {
                Some(e) => {
                    tally.unreadable += 1;
                    Some(if json {
                        json!({"source": source, "status": "unreadable", "error": e}).to_string()
                    } else {
                        format!("{source}\tUNREADABLE\t{e}")
                    })
                }
                None => match outcomes.next().expect("an outcome for every game written") {
                    Imported::Stored { id, .. } => {
                        tally.stored += 1;
                        list.then(|| {
                            if json {
                                json!({"source": source, "status": "stored", "id": id}).to_string()
                            } else {
                                format!("{source}\tstored\tid {id}")
                            }
                        })
                    }
                    Imported::Duplicate { id, .. } => {
                        tally.duplicates += 1;
                        list.then(|| {
                            if json {
                                json!({"source": source, "status": "duplicate", "id": id})
                                    .to_string()
                            } else {
                                format!("{source}\talready stored\tid {id}")
                            }
                        })
                    }
                    Imported::Invalid { error } => {
                        tally.invalid += 1;
                        Some(if json {
                            json!({"source": source, "status": "invalid", "code": error.code(), "error": error}).to_string()
                        } else {
                            format!("{source}\tINVALID\t{error}")
                        })
                    }
                },
            };
            if let Some(line) = line {
                bar.suspend(|| {
                    let _ = writeln!(out, "{line}");
                });
            }
        }
        // Reported lines reach the terminal or pipe only after their batch committed.
        let _ = out.flush();
        bar.set_message(tally.rate());
    }
    (tally, None)
}
