//! `anqi import`: validate game records and store the valid ones (SQLite by default,
//! PostgreSQL by URL), idempotently, in atomic batches, with a progress bar.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use indicatif::ProgressBar;
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
    let depth = match store.explorer_depth() {
        Ok(depth) => depth,
        Err(e) => {
            eprintln!("anqi import: {e}");
            return ExitCode::from(2);
        }
    };
    // Read on a thread of its own, parsed and replayed on every core, written on a thread of
    // its own while the next chunks are replayed: memory holds a few chunks ([`AHEAD`]),
    // whatever the inputs' size or the batch size. The bar counts bytes read (its rate and ETA hold for one large file).
    let bar = inputs::progress(inputs::size(&files), "importing");
    let (to_writer, chunks) = std::sync::mpsc::sync_channel::<Chunk>(AHEAD);
    let writer = {
        let (store, bar) = (store.clone(), bar.clone());
        let (json, verbose) = (options.json, options.verbose);
        std::thread::Builder::new()
            .name("anqi-writer".into())
            .spawn(move || write_batches(&store, chunks, json || verbose, json, &bar))
            .expect("a thread for the writer")
    };
    // A batch (one transaction) is replayed and written in chunks: memory holds a few
    // chunks, whatever the batch size.
    let batch = options.batch.max(1);
    let mut left_in_batch = batch;
    'read: for mut games in inputs::batches(files, batch.min(CHUNK), 1, Some(bar.clone())) {
        while !games.is_empty() {
            let rest = games.split_off(games.len().min(left_in_batch));
            left_in_batch -= games.len();
            let ends_batch = left_in_batch == 0;
            if ends_batch {
                left_in_batch = batch;
            }
            let chunk = Chunk {
                games: prepare(games, depth),
                ends_batch,
            };
            if to_writer.send(chunk).is_err() {
                break 'read; // the writer stopped on an error: it says which
            }
            games = rest;
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

/// Games replayed and written together, at most: a batch larger than this is written in
/// chunks of it, in one transaction.
const CHUNK: usize = 1000;

/// Chunks replayed ahead of the writer. The writer pauses at each commit (SQLite copies its
/// log into the database then, and waits for the disk): with one chunk ahead the replay
/// workers stopped too; with more they go on. A million games, `--batch 50000`: 8 ahead
/// 33.4-33.7 s (247-250 MB), 16 ahead 30.4-31.0 s (277 MB), 24 ahead 30.8-32.1 s (315 MB,
/// past the 300 MB the tool keeps under).
const AHEAD: usize = 16;

/// Consecutive games of one batch, ready to write; the last chunk of a batch ends it.
struct Chunk {
    games: Vec<Prepared>,
    ends_batch: bool,
}

/// A game ready to write: its source, and its rows (or why it is invalid, or unreadable).
struct Prepared {
    source: String,
    game: Result<Result<NewGame, ReplayError>, LoadError>,
}

/// Parses, validates and scores a batch on every core, keeping its order, each game walked
/// to the explorer's `depth`.
fn prepare(batch: Vec<inputs::Raw>, depth: u32) -> Vec<Prepared> {
    use rayon::prelude::*;
    let now = now_rfc3339();
    batch
        .into_par_iter()
        .map(|raw| {
            let entry = raw.parse();
            let game = entry
                .record
                .map(|record| NewGame::from_record(&record, &entry.source, &now, depth));
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
        inputs::rate(games, self.started.unwrap_or_else(std::time::Instant::now))
    }
}

/// Writes each batch in one transaction, chunk by chunk, and reports each game's outcome, in
/// input order, once its batch committed. Stops at the first batch that cannot be written.
fn write_batches(
    store: &Store,
    chunks: std::sync::mpsc::Receiver<Chunk>,
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
    let mut ended = false;
    let mut session = match store.import_session() {
        Ok(session) => session,
        Err(e) => return (tally, Some(e)),
    };
    while !ended {
        // The batch's lines, and its counts, wait for its commit.
        let mut lines: Vec<String> = Vec::new();
        let mut counted = Tally::default();
        let mut batch_ended = false;
        let written = store.write_chunks(
            &mut session,
            || {
                if batch_ended {
                    return None;
                }
                let Ok(chunk) = chunks.recv() else {
                    ended = true;
                    return None;
                };
                batch_ended = chunk.ends_batch;
                // The unreadable keep their place; the others are written together.
                let mut sources = Vec::with_capacity(chunk.games.len());
                let mut games = Vec::with_capacity(chunk.games.len());
                for p in chunk.games {
                    match p.game {
                        Ok(game) => {
                            games.push(game);
                            sources.push((p.source, None));
                        }
                        Err(e) => sources.push((p.source, Some(e))),
                    }
                }
                Some((games, sources))
            },
            |outcomes, sources: Vec<(String, Option<LoadError>)>| {
                let mut outcomes = outcomes.into_iter();
                for (source, unreadable) in sources {
                    let outcome = match unreadable {
                        Some(e) => Err(e),
                        None => Ok(outcomes.next().expect("an outcome for every game written")),
                    };
                    lines.extend(describe(&source, outcome, list, json, &mut counted));
                }
            },
        );
        if let Err(e) = written {
            let _ = out.flush();
            return (tally, Some(e));
        }
        // Committed: the batch's games are reported, and reach the terminal or pipe now.
        bar.suspend(|| {
            for line in &lines {
                let _ = writeln!(out, "{line}");
            }
            let _ = out.flush();
        });
        tally.stored += counted.stored;
        tally.duplicates += counted.duplicates;
        tally.invalid += counted.invalid;
        tally.unreadable += counted.unreadable;
        bar.set_message(tally.rate());
    }
    (tally, None)
}

/// Counts one game's outcome and gives its line, if it is to be listed.
fn describe(
    source: &str,
    outcome: Result<Imported, LoadError>,
    list: bool,
    json: bool,
    tally: &mut Tally,
) -> Option<String> {
    match outcome {
        Err(e) => {
            tally.unreadable += 1;
            Some(if json {
                json!({"source": source, "status": "unreadable", "error": e}).to_string()
            } else {
                format!("{source}\tUNREADABLE\t{e}")
            })
        }
        Ok(Imported::Stored { id, .. } | Imported::Duplicate { id, .. }) => {
            let (status, text) = if matches!(outcome, Ok(Imported::Stored { .. })) {
                tally.stored += 1;
                ("stored", "stored")
            } else {
                tally.duplicates += 1;
                ("duplicate", "already stored")
            };
            list.then(|| {
                if json {
                    json!({"source": source, "status": status, "id": id}).to_string()
                } else {
                    format!("{source}\t{text}\tid {id}")
                }
            })
        }
        Ok(Imported::Invalid { error }) => {
            tally.invalid += 1;
            Some(if json {
                json!({"source": source, "status": "invalid", "code": error.code(), "error": error})
                    .to_string()
            } else {
                format!("{source}\tINVALID\t{error}")
            })
        }
    }
}
