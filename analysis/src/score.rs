//! `anqi score`: each game in words, its points, and, in a game played for coins (Banqi), its
//! coin settlement (as 戲谷 settles it), running over the games of each file (a file holding a
//! series of games between the same players carries draws). Games without coins say nothing
//! of stakes, balances or series.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use records::core::scoring::SeriesBook;
use records::core::{Record, ScoreError, Table};
use records::games::GameKind;
use records::with_game;
use serde_json::json;

use crate::games::Tool;
use crate::inputs;

/// The settlement state of one file: a series per group of players (the draws carried),
/// and their balances.
struct Ledger {
    book: SeriesBook,
    balances: BTreeMap<String, i128>,
}

/// One scored game: its line (text or JSON), and the players' names when it settles coins.
struct Scored {
    text: String,
    json: serde_json::Value,
    coins: Option<Vec<String>>,
}

pub fn run(paths: &[PathBuf], table: Table, json: bool) -> ExitCode {
    let files = match inputs::files(paths) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("anqi score: {e}");
            return ExitCode::from(2);
        }
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    // The table is said once, before the first game it settles.
    let mut table_said = json;
    let (mut scored_games, mut failed) = (0usize, 0usize);
    for file in &files {
        let mut ledger = Ledger {
            book: SeriesBook::new(table),
            balances: BTreeMap::new(),
        };
        // Game by game as the file is read: a series' draws carry, so a file's games are
        // scored in order; memory holds one game and the balances.
        inputs::each(file, None, |raw| {
            let entry = raw.parse();
            let line = match &entry.record {
                Err(e) => {
                    failed += 1;
                    if json {
                        json!({"source": entry.source, "unreadable": e}).to_string()
                    } else {
                        format!("{}\tUNREADABLE\t{e}", entry.source)
                    }
                }
                Ok(record) => match ledger.score(record, &table) {
                    Err(e) => {
                        failed += 1;
                        let code = match &e {
                            ScoreError::Replay(r) => r.code(),
                            ScoreError::Settlement(_) => "settlement_overflow",
                        };
                        if json {
                            json!({"source": entry.source, "invalid": e.to_string(), "code": code})
                                .to_string()
                        } else {
                            format!("{}\tINVALID\t{e}", entry.source)
                        }
                    }
                    Ok(scored) => {
                        scored_games += 1;
                        if scored.coins.is_some() && !table_said {
                            table_said = true;
                            let _ = writeln!(
                                out,
                                "table: stake {} coins, bonus {} per point",
                                table.stake, table.bonus_per_point
                            );
                        }
                        match (json, &scored.coins) {
                            (true, coins) => {
                                let mut line = scored.json;
                                line["source"] = json!(entry.source);
                                if coins.is_some() {
                                    line["balances"] = json!(ledger.balances);
                                }
                                line.to_string()
                            }
                            (false, Some(names)) => {
                                let running: Vec<String> = names
                                    .iter()
                                    .map(|n| format!("{n} {}", signed(ledger.balances[n])))
                                    .collect();
                                format!(
                                    "{}\t{}\trunning: {} coins",
                                    entry.source,
                                    scored.text,
                                    running.join(" · ")
                                )
                            }
                            (false, None) => format!("{}\t{}", entry.source, scored.text),
                        }
                    }
                },
            };
            let _ = writeln!(out, "{line}");
        });
        for ((a, b), series) in ledger.book.iter() {
            let games = series.games;
            let (ba, bb) = (ledger.balances[a], ledger.balances[b]);
            let _ = if json {
                writeln!(
                    out,
                    "{}",
                    json!({"source": file.display().to_string(), "series": [a, b], "games": games,
                           "balances": {a: ba, b: bb}, "draws_carried": series.draws})
                )
            } else {
                writeln!(
                    out,
                    "{}\tseries {a} vs {b}: {games} games, {a} {}, {b} {}{}",
                    file.display(),
                    signed(ba),
                    signed(bb),
                    if series.draws > 0 {
                        format!(", {} drawn games still carried", series.draws)
                    } else {
                        String::new()
                    }
                )
            };
        }
    }
    let summary = format!(
        "{} games: {scored_games} scored, {failed} not scored",
        scored_games + failed
    );
    let _ = if json {
        writeln!(
            out,
            "{}",
            json!({"summary": {"games": scored_games + failed, "scored": scored_games, "not_scored": failed}})
        )
    } else {
        writeln!(out, "{summary}")
    };
    let _ = out.flush();
    if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

impl Ledger {
    /// Scores a record of any game and settles it in its players' series.
    fn score(&mut self, record: &Record, table: &Table) -> Result<Scored, ScoreError> {
        let kind = GameKind::of(record)?;
        with_game!(kind, G => self.score_game::<G>(record, table))
    }

    fn score_game<G: Tool>(
        &mut self,
        record: &Record,
        table: &Table,
    ) -> Result<Scored, ScoreError> {
        let rules = records::core::rules::ruleset::<G>(record.preset.as_deref(), &record.options)
            .map_err(|e| {
            ScoreError::Replay(records::core::ReplayError::invalid(
                records::core::RecordProblem::InvalidRuleset,
                e.to_string(),
            ))
        })?;
        let names: Vec<String> = (0..G::seats(&rules) as usize)
            .map(|i| record.player_name(i))
            .collect();
        if !G::COINS {
            let sheet = G::score(record, table, 0)?;
            return Ok(Scored {
                text: G::score_text(&sheet),
                json: serde_json::to_value(&sheet).expect("a score serialises"),
                coins: None,
            });
        }
        for name in &names {
            self.balances.entry(name.clone()).or_insert(0);
        }
        // Two-seat games settle in a series per pair; the draws carried come from it.
        let series = self
            .book
            .series(&names[0], names.get(1).map_or("", String::as_str));
        let sheet = G::score(record, table, series.draws)?;
        series.carry(G::outcome(&sheet));
        if let Some((payer, payee, amount)) = G::payment(&sheet) {
            *self
                .balances
                .get_mut(&names[payer.index()])
                .expect("entered") -= amount as i128;
            *self
                .balances
                .get_mut(&names[payee.index()])
                .expect("entered") += amount as i128;
        }
        Ok(Scored {
            text: G::score_text(&sheet),
            json: serde_json::to_value(&sheet).expect("a score serialises"),
            coins: Some(names),
        })
    }
}

fn signed(n: i128) -> String {
    if n > 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}
