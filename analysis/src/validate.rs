//! `anqi validate`: one verdict per game, a summary, a non-zero exit on any invalid record.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use records::core::{StatedOutcome, StatedResult, Status, Verdict};
use records::games::validate;

use crate::inputs;

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
    let (mut valid, mut invalid, mut unreadable) = (0usize, 0usize, 0usize);
    for file in &files {
        for entry in inputs::read(file) {
            let line = match &entry.record {
                Err(e) => {
                    unreadable += 1;
                    if json {
                        serde_json::json!({"source": entry.source, "valid": false, "unreadable": e})
                            .to_string()
                    } else {
                        format!("{}\tUNREADABLE\t{e}", entry.source)
                    }
                }
                Ok(record) => {
                    let verdict = validate(record);
                    if verdict.valid {
                        valid += 1;
                        if quiet {
                            continue;
                        }
                    } else {
                        invalid += 1;
                    }
                    if json {
                        serde_json::json!({"source": entry.source, "verdict": verdict}).to_string()
                    } else {
                        format!("{}\t{}", entry.source, describe(&verdict, record.result))
                    }
                }
            };
            let _ = writeln!(out, "{line}");
        }
    }
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

fn describe(v: &Verdict, stated: Option<StatedResult>) -> String {
    let state = match v.derived {
        Status::Ongoing => match stated.filter(|s| s.outcome != StatedOutcome::Ongoing) {
            Some(s) => format!(
                "{} by {} after {} plies (stated)",
                s.outcome.code(),
                s.reason.map_or("an unstated reason", |r| r.code()),
                v.plies
            ),
            None => format!("ongoing after {} plies", v.plies),
        },
        Status::Ended { end, ply } => {
            let who = end.outcome.describe();
            format!("{who} by {} at ply {ply}", end.reason.code())
        }
    };
    match &v.error {
        None => format!("valid\t{state}"),
        Some(e) => format!("INVALID\t{e}"),
    }
}
