//! Requests filtered by dates, in a store that keeps the explorer's counts by month: at every
//! position, every range of dates (whole months, days at either end, one bound, no whole
//! month) answers what an independent count of the games played in the range says, the same
//! as a store without months, whether months were on before the games came or turned on after.
//! At a position with rows the whole months are counted, not walked.
#![cfg(feature = "store")]

#[path = "common/explorer_count.rs"]
mod explorer_count;

use explorer_count::{count, counted, games_of};
use records::core::Game;
use records::core::Record;
use records::games::banqi::Banqi;
use records::store::{Explored, Incoming, Lookup, RatingsCache, Store, test_databases};

/// The ranges asked: (from, to).
const RANGES: [(Option<&str>, Option<&str>); 6] = [
    // Whole months only.
    (Some("2026-03-01"), Some("2026-05-31")),
    // Days at both ends around two whole months.
    (Some("2026-02-10"), Some("2026-06-15")),
    // One bound each.
    (Some("2026-09-01"), None),
    (None, Some("2026-04-20")),
    // No whole month: walked as without months.
    (Some("2026-07-05"), Some("2026-07-20")),
    // A whole year past every game's.
    (Some("2027-01-01"), Some("2027-12-31")),
];

fn played_in(record: &Record, (from, to): (Option<&str>, Option<&str>)) -> bool {
    let date = record.metadata["date"].as_str().unwrap();
    from.is_none_or(|f| date >= f) && to.is_none_or(|t| date <= t)
}

fn explore(store: &Store, lookup: &Lookup) -> Explored {
    store.explore(lookup, &RatingsCache::default()).unwrap()
}

fn import(store: &Store, records: &[Record]) {
    let incoming: Vec<Incoming> = records
        .iter()
        .map(|record| Incoming {
            record: record.clone(),
            source: "months-test".into(),
        })
        .collect();
    // Three transactions: positions get rows between them.
    for part in incoming.chunks(incoming.len() / 3 + 1) {
        store.import(part).unwrap();
    }
}

#[test]
fn date_filters_count_whole_months_and_walk_the_ends() {
    records::store::set_explorer_block_bits(7);
    for url in test_databases(&std::env::temp_dir().join("anqi-tests"), "explorer_months") {
        // Games dated over 2026, a day a game (`games_of`: month 1 + n % 12).
        let records = games_of::<Banqi>(&Banqi::PRESETS[0], 600);
        let preset = records[0].preset.clone().unwrap();
        let store = Store::open(&url).unwrap();
        assert!(!store.explorer_months().unwrap(), "off by default");
        store.set_explorer_months(true).unwrap();
        assert!(store.explorer_months().unwrap());
        import(&store, &records);
        let lookup = |node: &str, range: (Option<&str>, Option<&str>)| Lookup {
            game: "banqi".into(),
            preset: Some(preset.clone()),
            node: Some(node.to_owned()),
            date_from: range.0.map(str::to_owned),
            date_to: range.1.map(str::to_owned),
            ..Lookup::default()
        };
        let all = count::<Banqi>(&records, 16);
        let ranged: Vec<_> = RANGES
            .iter()
            .map(|&range| {
                let kept: Vec<Record> = (records.iter())
                    .filter(|r| played_in(r, range))
                    .cloned()
                    .collect();
                count::<Banqi>(&kept, 16)
            })
            .collect();
        let answers = |store: &Store| {
            let mut answers = Vec::new();
            let (mut counted_positions, mut checked) = (0, 0);
            for (key, (_, ways)) in &all {
                // The node, by the first way a game came.
                let (start, path) = ways.keys().next().unwrap();
                let by_line = explore(
                    store,
                    &Lookup {
                        game: "banqi".into(),
                        preset: Some(preset.clone()),
                        position: Some(start.clone()),
                        actions: path.clone(),
                        ..Lookup::default()
                    },
                );
                for (range, count) in RANGES.iter().zip(&ranged) {
                    let answer = explore(store, &lookup(&by_line.node, *range));
                    let expected = count.get(key).map(|c| c.0.clone()).unwrap_or_default();
                    assert_eq!(counted(&answer), expected, "{key:?} {range:?}");
                    let filtered = answer.filtered.clone().unwrap();
                    let games: i64 = expected.values().map(|c| c[0]).sum();
                    assert_eq!(
                        filtered.walked + filtered.counted,
                        games,
                        "{key:?} {range:?}"
                    );
                    counted_positions += usize::from(filtered.counted > 0);
                    checked += 1;
                    answers.push(answer);
                }
            }
            (answers, counted_positions, checked)
        };
        let (with_months, counted_positions, checked) = answers(&store);
        assert!(checked > 1_000, "{checked} answers checked");
        eprintln!("{checked} answers checked, {counted_positions} counted by month");
        assert!(
            counted_positions >= 20,
            "{counted_positions} answers counted by month"
        );
        // The root has rows: a range of whole months walks nothing, and one with days at the
        // ends walks only those days' games.
        let start = Lookup {
            game: "banqi".into(),
            preset: Some(preset.clone()),
            ..Lookup::default()
        };
        let root = explore(&store, &start).node;
        assert_eq!(explore(&store, &start).games, 600);
        let root = explore(&store, &lookup(&root, RANGES[0]));
        let months = root.filtered.unwrap();
        assert_eq!(months.walked, 0);
        let in_range = |r| records.iter().filter(|g| played_in(g, r)).count() as i64;
        assert_eq!(months.counted, in_range(RANGES[0]));
        let ends = explore(&store, &lookup(&root.node, RANGES[1]))
            .filtered
            .unwrap();
        let end_days = in_range((Some("2026-02-10"), Some("2026-02-28")))
            + in_range((Some("2026-06-01"), Some("2026-06-15")));
        assert_eq!(
            (ends.walked, ends.counted),
            (end_days, in_range(RANGES[1]) - end_days)
        );

        // Off: every answer the same, every game walked.
        store.set_explorer_months(false).unwrap();
        // A request that cannot walk its dates says what would answer them; one with players
        // does not (no count holds a player's games).
        let hurried = |players: Vec<String>| {
            let lookup = Lookup {
                time_limit: Some(std::time::Duration::ZERO),
                players,
                ..lookup(&root.node, RANGES[0])
            };
            match store.explore(&lookup, &RatingsCache::default()) {
                Err(e @ records::store::ExploreError::Busy { .. }) => e.to_string(),
                other => panic!("{other:?}"),
            }
        };
        assert!(
            hurried(vec![]).contains("(anqi explore --months on)"),
            "{}",
            hurried(vec![])
        );
        assert!(!hurried(vec!["ann".into()]).contains("--months"));
        let (without, counted_positions, _) = answers(&store);
        assert_eq!(counted_positions, 0);
        let strip = |answers: &[Explored]| -> Vec<Explored> {
            answers
                .iter()
                .map(|a| Explored {
                    filtered: None,
                    ..a.clone()
                })
                .collect()
        };
        assert_eq!(strip(&without), strip(&with_months));
        // Turned on over stored games: walked again into months, the same answers.
        store.set_explorer_months(true).unwrap();
        let (rebuilt, counted_again, _) = answers(&store);
        assert_eq!(rebuilt, with_months);
        assert_eq!(counted_again, counted_positions_of(&with_months));
        // Kept when the store is opened again.
        drop(store);
        assert!(Store::open(&url).unwrap().explorer_months().unwrap());
    }
}

fn counted_positions_of(answers: &[Explored]) -> usize {
    answers
        .iter()
        .filter(|a| a.filtered.as_ref().is_some_and(|f| f.counted > 0))
        .count()
}
