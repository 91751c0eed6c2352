//! `anqi validate`: one verdict per game, a summary, a non-zero exit on any invalid record.

use records::core::words;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use records::core::{StatedOutcome, StatedResult, Status, Verdict};
use records::formats::LoadError;
use records::games::validate;

use crate::inputs;

/// Games validated together on every core; memory holds one such chunk at a time.
const CHUNK: usize = 512;

pub fn run(paths: &[PathBuf], json: bool, quiet: bool) -> ExitCode {
    let files = match inputs::files(paths) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("anqi validate: {e}");
            return ExitCode::from(2);
        }
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut counts = Counts::default();
    // Read on a thread of its own, parsed and replayed on every core, printed here in order.
    let bar = inputs::progress(inputs::size(&files), "validating");
    let started = std::time::Instant::now();
    for chunk in inputs::batches(files, CHUNK, 2, Some(bar.clone())) {
        bar.suspend(|| report(chunk, json, quiet, &mut counts, &mut out));
        let games = counts.valid + counts.invalid + counts.unreadable;
        bar.set_message(inputs::rate(games, started));
    }
    bar.finish_and_clear();
    let Counts {
        valid,
        invalid,
        unreadable,
    } = counts;
    let total = valid + invalid + unreadable;
    let summary =
        format!("{total} games: {valid} valid, {invalid} invalid, {unreadable} unreadable");
    if json {
        let _ = writeln!(
            out,
            "{}",
            serde_json::json!({"summary": {"games": total, "valid": valid, "invalid": invalid, "unreadable": unreadable}})
        );
    } else {
        let _ = writeln!(out, "{summary}");
    }
    let _ = out.flush();
    if invalid + unreadable > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

#[derive(Default)]
struct Counts {
    valid: usize,
    invalid: usize,
    unreadable: usize,
}

/// Validates a chunk of games on every core and prints their verdicts in input order.
fn report(
    chunk: Vec<inputs::Raw>,
    json: bool,
    quiet: bool,
    counts: &mut Counts,
    out: &mut impl Write,
) {
    use rayon::prelude::*;
    // A record is dropped where it was parsed: freeing its strings on another thread (an
    // action each) cost a third more time.
    let validated: Vec<(String, Result<Validated, LoadError>)> = chunk
        .into_par_iter()
        .map(|raw| {
            let entry = raw.parse();
            let validated = entry.record.map(|record| Validated {
                verdict: validate(&record),
                stated: record.result,
                kind: record.game.parse().ok(),
            });
            (entry.source, validated)
        })
        .collect();
    for (source, validated) in validated {
        let line = match validated {
            Err(e) => {
                counts.unreadable += 1;
                if json {
                    serde_json::json!({"source": source, "valid": false, "unreadable": e})
                        .to_string()
                } else {
                    format!("{source}\tUNREADABLE\t{e}")
                }
            }
            Ok(Validated {
                verdict,
                stated,
                kind,
            }) => {
                if verdict.valid {
                    counts.valid += 1;
                    if quiet {
                        continue;
                    }
                } else {
                    counts.invalid += 1;
                }
                if json {
                    serde_json::json!({"source": source, "verdict": verdict}).to_string()
                } else {
                    format!("{source}\t{}", describe(&verdict, stated, kind))
                }
            }
        };
        let _ = writeln!(out, "{line}");
    }
}

/// A game's verdict, and the result its record stated.
struct Validated {
    verdict: Verdict,
    stated: Option<StatedResult>,
    kind: Option<records::games::GameKind>,
}

/// A verdict in the game's words (`player 2 won by checkmate at ply 20`).
fn describe(
    v: &Verdict,
    stated: Option<StatedResult>,
    kind: Option<records::games::GameKind>,
) -> String {
    let ending = |code: &str| {
        kind.and_then(|k| records::games::ending_words(k, code))
            .unwrap_or(code)
            .to_owned()
    };
    let state = match v.derived {
        Status::Ongoing => match stated.filter(|s| s.outcome != StatedOutcome::Ongoing) {
            Some(s) => format!(
                "{} by {} after {} plies (stated)",
                s.outcome.outcome().map_or_else(
                    || s.outcome.code(),
                    |o| words::outcome(o, |s| s.to_string())
                ),
                s.reason
                    .map_or("an unstated reason".to_owned(), |r| ending(r.code())),
                v.plies
            ),
            None if stated.and_then(|s| s.reason) == Some(records::core::Reason::ABORTED) => {
                format!("aborted after {} plies (no result)", v.plies)
            }
            None => format!("ongoing after {} plies", v.plies),
        },
        Status::Ended { end, ply } => match kind {
            Some(kind) => format!("{} at ply {ply}", records::games::end_words(kind, end)),
            None => format!("{} by {} at ply {ply}", end.outcome.describe(), end.reason),
        },
    };
    match &v.error {
        None => format!("valid\t{state}"),
        Some(e) => format!("INVALID\t{e}"),
    }
}
