//! The reference test of the `tcga` preset: every game of the TCGA NTU 2021 corpus imports
//! and replays to exactly its recorded ending (RULES.md §4).

use records::core::Reason;
use records::core::Status;
use records::games::banqi::tcga;
use records::games::validate;

mod common;
use common::corpus_texts as corpus;

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
            (Some(Reason::TIMEOUT), Status::Ongoing) => {}
            (Some(reason), Status::Ended { end, ply }) => {
                // TCGA writes an elimination as NoMove (the eliminated side cannot move).
                let derived = if end.reason == Reason::ELIMINATION {
                    Reason::NO_MOVE
                } else {
                    end.reason
                };
                assert_eq!(derived, reason, "{name}");
                assert_eq!(ply as usize, record.actions.len(), "{name}");
            }
            other => panic!("{name}: {other:?}"),
        }
        *endings
            .entry(stated.reason.unwrap().code().to_owned())
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
            "no_move 1889",
            "no_progress 190",
            "repetition 248",
            "timeout 11"
        ]
    );
}
