//! `anqi score`: piece points per game and the 戲谷 coin settlement, running over the games
//! of each file (a file holding a series of games between the same players carries draws).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use records::record::Record;
use records::scoring::{GameScore, score_record};
use records::settlement::{SeriesBook, Settlement, Table};
use serde_json::json;

use crate::inputs;

/// The settlement state of one file: a series per pair of players, and their balances.
struct Ledger {
    book: SeriesBook,
    balances: BTreeMap<String, i128>,
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
    if !json {
        let _ = writeln!(
            out,
            "table: stake {} coins, bonus {} per point",
            table.stake, table.bonus_per_point
        );
    }
    let (mut scored, mut failed) = (0usize, 0usize);
    for file in &files {
        let mut ledger = Ledger {
            book: SeriesBook::new(table),
            balances: BTreeMap::new(),
        };
        for entry in inputs::read(file) {
            let line = match &entry.record {
                Err(e) => {
                    failed += 1;
                    if json {
                        json!({"source": entry.source, "unreadable": e}).to_string()
                    } else {
                        format!("{}\tUNREADABLE\t{e}", entry.source)
                    }
                }
                Ok(record) => match score_record(record) {
                    Err(e) => {
                        failed += 1;
                        if json {
                            json!({"source": entry.source, "invalid": e, "code": e.code()})
                                .to_string()
                        } else {
                            format!("{}\tINVALID\t{e}", entry.source)
                        }
                    }
                    Ok(score) => {
                        let settled = ledger.settle(record, &score);
                        match settled {
                            Err(e) => {
                                failed += 1;
                                format!("{}\tCANNOT SETTLE\t{e}", entry.source)
                            }
                            Ok(settlement) => {
                                scored += 1;
                                if json {
                                    json!({
                                        "source": entry.source,
                                        "score": score,
                                        "settlement": settlement,
                                        "balances": ledger.balances,
                                    })
                                    .to_string()
                                } else {
                                    let [a, b] = [&score.players[0].name, &score.players[1].name];
                                    format!(
                                        "{}\trunning: {a} {} · {b} {}",
                                        describe(&entry.source, &score, settlement.as_ref()),
                                        signed(ledger.balances[a]),
                                        signed(ledger.balances[b])
                                    )
                                }
                            }
                        }
                    }
                },
            };
            let _ = writeln!(out, "{line}");
        }
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
        "{} games: {scored} scored, {failed} not scored",
        scored + failed
    );
    let _ = if json {
        writeln!(
            out,
            "{}",
            json!({"summary": {"games": scored + failed, "scored": scored, "not_scored": failed}})
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
    /// Settles the game in its pair's series; None for an unfinished game.
    fn settle(
        &mut self,
        record: &Record,
        score: &GameScore,
    ) -> Result<Option<Settlement>, records::settlement::SettlementError> {
        let names = [record.player_name(0), record.player_name(1)];
        for name in &names {
            self.balances.entry(name.clone()).or_insert(0);
        }
        let series = self.book.series(&names[0], &names[1]);
        let Some(settlement) = series.settle(score).transpose()? else {
            return Ok(None);
        };
        if let (Some(payer), Some(payee)) = (settlement.payer, settlement.payee) {
            let amount = settlement.amount as i128;
            *self
                .balances
                .get_mut(&names[payer.index()])
                .expect("entered") -= amount;
            *self
                .balances
                .get_mut(&names[payee.index()])
                .expect("entered") += amount;
        }
        Ok(Some(settlement))
    }
}

fn signed(n: i128) -> String {
    if n > 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

fn describe(source: &str, score: &GameScore, settlement: Option<&Settlement>) -> String {
    let [p1, p2] = &score.players;
    let result = match score.result {
        None => format!("unfinished after {} plies", score.plies),
        Some(r) => {
            let who = match r.outcome.winner() {
                Some(w) => format!("{} won", score.players[w.index()].name),
                None => "drawn".to_owned(),
            };
            let why = r
                .reason
                .map_or(String::new(), |r| format!(" by {}", r.code()));
            format!("{who}{why} after {} plies", score.plies)
        }
    };
    let flips = match &score.first_flips {
        Some(f) if score.doubled => format!("first flips {f}: doubled (門棋加倍)"),
        Some(f) => format!("first flips {f}"),
        None => "no first flips".to_owned(),
    };
    let coins = match settlement {
        None => "not settled (unfinished)".to_owned(),
        Some(s) => match (s.payer, s.payee) {
            (Some(payer), Some(payee)) => format!(
                "{} pays {} {} = {}",
                score.players[payer.index()].name,
                score.players[payee.index()].name,
                s.amount,
                s.formula
            ),
            _ => s.formula.clone(),
        },
    };
    let heroes: String = score
        .players
        .iter()
        .filter(|p| p.soldier_took_general > 0)
        .map(|p| format!("\t小兵立大功: {}", p.name))
        .collect();
    format!(
        "{source}\t{} vs {}\t{result}\tpoints {} {} · {} {}\t{flips}\t{coins}{heroes}",
        p1.name, p2.name, p1.name, p1.points, p2.name, p2.points
    )
}
