//! The reference test of the `tcga` preset: every game of the TCGA NTU 2021 corpus imports
//! and replays to exactly its recorded ending (RULES.md §4).

use std::io::Read;

use records::banqi::{Reason, tcga};
use records::replay::{Status, validate};

fn corpus() -> Vec<(String, String)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/tcga-ntu2021.tar.gz"
    );
    let file = std::fs::File::open(path).expect("tests/data/tcga-ntu2021.tar.gz");
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(file));
    let mut games = Vec::new();
    for entry in archive.entries().unwrap() {
        let mut entry = entry.unwrap();
        let name = entry.path().unwrap().to_string_lossy().into_owned();
        if !name.ends_with(".txt") {
            continue;
        }
        let mut text = String::new();
        entry.read_to_string(&mut text).unwrap();
        games.push((name, text));
    }
    games
}

#[test]
fn every_corpus_game_replays_to_its_recorded_ending() {
    let games = corpus();
    assert_eq!(games.len(), 2338);
    let mut failures = Vec::new();
    let mut endings = std::collections::BTreeMap::<String, usize>::new();
    for (name, text) in &games {
        let records = tcga::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(records.len(), 1, "{name}");
        let record = &records[0];
        let verdict = validate(record);
        if !verdict.valid {
            failures.push(format!("{name}: {}", verdict.error.unwrap()));
            continue;
        }
        // Every game must be legal to its last ply, and end exactly as recorded: a rules
        // ending right after the last ply, a timeout with the game still going on.
        let stated = record.result.expect("every corpus game states a result");
        match (stated.reason, verdict.derived) {
            (Some(Reason::Timeout), Status::Ongoing) => {}
            (Some(reason), Status::Ended { end, ply }) => {
                // TCGA writes an elimination as NoMove (the eliminated side cannot move).
                let derived = if end.reason == Reason::Elimination {
                    Reason::NoMove
                } else {
                    end.reason
                };
                assert_eq!(derived, reason, "{name}");
                assert_eq!(ply as usize, record.actions.len(), "{name}");
            }
            other => panic!("{name}: {other:?}"),
        }
        *endings
            .entry(format!("{:?}", stated.reason.unwrap()))
            .or_default() += 1;
        // And the export writes the same text back.
        assert_eq!(
            tcga::export(record).unwrap().trim_end(),
            text.trim_end(),
            "{name}"
        );
    }
    assert!(
        failures.is_empty(),
        "{} of {} games fail:\n{}",
        failures.len(),
        games.len(),
        failures[..failures.len().min(20)].join("\n")
    );
    let endings: Vec<String> = endings.iter().map(|(k, v)| format!("{k} {v}")).collect();
    assert_eq!(
        endings,
        [
            "NoMove 1889",
            "NoProgress 190",
            "Repetition 248",
            "Timeout 11"
        ]
    );
}
