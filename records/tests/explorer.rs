//! The opening explorer against an independent count, for every game and preset, on SQLite
//! and (when configured) PostgreSQL: games dealt from a few seeds and played among the first
//! legal actions (so that openings are shared, and transpose), imported in chunks with
//! duplicates; the test walks the same records itself (public positions as strings, the
//! history as a set of strings, no hashing, no store) and every position's counts in the
//! store equal its own. Then transpositions by name, a new depth, and a store built from the
//! games it holds.
#![cfg(feature = "store")]

#[path = "common/explorer_count.rs"]
mod explorer_count;

use explorer_count::{count, counted, games_of};
use rand::SeedableRng;
use rand::rngs::StdRng;
use records::core::record::StatedResult;
use records::core::replay::replay_with;
use records::core::rules::parts::*;
use records::core::rules::ruleset;
use records::core::{Outcome, Reason, Record, Seat};
use records::store::{
    Explored, ImportSession, Imported, Incoming, Lookup, RatingsCache, Store, test_databases,
};

/// Blocks of 128 games (not 16,384): the stores here pack most of theirs (docs/rules.md 60).
fn small_blocks() {
    records::store::set_explorer_block_bits(7);
}

/// Imports the games in four chunks, the last repeating the third (duplicates count once):
/// the first, third and last as one import's transactions (one [`ImportSession`]), the second
/// by another writer between them (the import's writer then asks the store again), and
/// checks every position against the test's own count: asked along every way games came to
/// it, by its node, by its position string (when no history joins it), and with filters every
/// game passes.
fn check_game<G: Rules>(store: &Store, n: u64) -> usize {
    small_blocks();
    let (mut positions, mut transposed) = (0, 0);
    for preset in G::PRESETS {
        let records = games_of::<G>(preset, n);
        let incoming: Vec<Incoming> = records
            .iter()
            .map(|record| Incoming {
                record: record.clone(),
                source: "explorer-test".into(),
            })
            .collect();
        let (third, half) = (incoming.len() / 3, incoming.len() / 2);
        let mut valid = Vec::new();
        let mut session = ImportSession::default();
        let chunks = [
            &incoming[..third],
            &incoming[third..half],
            &incoming[half..],
            &incoming[half..],
        ];
        for (i, chunk) in chunks.iter().enumerate() {
            let outcomes = match i {
                1 => store.import(chunk),
                _ => store.import_in(&mut session, chunk),
            };
            for (incoming, outcome) in chunk.iter().zip(&outcomes.unwrap()) {
                match outcome {
                    Imported::Stored { .. } => valid.push(incoming.record.clone()),
                    Imported::Duplicate { .. } => assert_eq!(i, 3, "{:?}", incoming.record),
                    Imported::Invalid { error } => panic!("{} {}: {error}", G::NAME, preset.name),
                }
            }
        }
        let lookup = |position: Option<String>, actions: Vec<String>| Lookup {
            game: G::NAME.into(),
            preset: Some(preset.name.into()),
            position,
            actions,
            ..Lookup::default()
        };
        for ((position, history), (all, by_path)) in count::<G>(&valid, 16) {
            let at = format!("{} {} at {position} {history:?}", G::NAME, preset.name);
            let mut node = None;
            for (start, path) in by_path.keys() {
                let explored = explore(store, &lookup(Some(start.clone()), path.clone()));
                assert_eq!(explored.followed, path.len(), "{at} after {path:?}");
                // Every way to the position: every game that went on from it.
                assert_eq!(counted(&explored), all, "{at} after {path:?}");
                let node = node.get_or_insert_with(|| explored.node.clone());
                assert_eq!(&explored.node, node, "{at} after {path:?}");
                positions += 1;
            }
            transposed += usize::from(by_path.len() > 1);
            let node = node.expect("a way");
            let by_node = explore(
                store,
                &Lookup {
                    node: Some(node.clone()),
                    ..lookup(None, vec![])
                },
            );
            assert_eq!(
                (&by_node.node, counted(&by_node)),
                (&node, all.clone()),
                "{at}"
            );
            if history.is_empty() {
                let by_position = explore(store, &lookup(Some(position.clone()), vec![]));
                assert_eq!(by_position.node, node, "{at}");
                assert_eq!(counted(&by_position), all, "{at}");
            }
            // Filters every game passes: the same counts, every game walked.
            let everyone = explore(
                store,
                &Lookup {
                    node: Some(node.clone()),
                    players: vec!["ann".into(), "bo".into()],
                    date_from: Some("1900-01-01".into()),
                    ..lookup(None, vec![])
                },
            );
            assert_eq!(counted(&everyone), all, "{at}, filtered");
            assert_eq!(
                everyone.filtered.map(|f| f.walked),
                Some(all.values().map(|c| c[0]).sum::<i64>())
            );
        }
    }
    eprintln!(
        "{}: {positions} ways to positions checked, {transposed} positions reached several ways",
        G::NAME
    );
    positions
}

#[test]
fn the_explorer_counts_what_an_independent_walk_counts_for_every_game() {
    for url in test_databases(&std::env::temp_dir().join("anqi-tests"), "explorer_counts") {
        let store = Store::open(&url).unwrap();
        let mut positions = 0;
        for kind in records::games::GameKind::ALL {
            positions += records::with_game!(*kind, G => check_game::<G>(&store, 90));
        }
        assert!(positions > 2000, "{positions} positions checked");
    }
}

/// A Banqi game of `actions` that player 1 won by resignation.
fn banqi(actions: &[&str], n: u64) -> Incoming {
    let mut record = Record::new(
        "banqi",
        "tcga",
        actions.iter().map(|a| a.to_string()).collect(),
    );
    record.result = Some(StatedResult::ended(
        Outcome::win(Seat::FIRST, 2),
        Reason::RESIGNATION,
        None,
    ));
    record.metadata.insert("n".into(), n.into());
    Incoming {
        record,
        source: "transposition".into(),
    }
}

/// The explorer's answer (no rating range: the ratings' cache is not read).
fn explore(store: &Store, lookup: &Lookup) -> Explored {
    store.explore(lookup, &RatingsCache::default()).unwrap()
}

fn banqi_lookup(actions: &[&str]) -> Lookup {
    Lookup {
        game: "banqi".into(),
        preset: Some("tcga".into()),
        actions: actions.iter().map(|a| a.to_string()).collect(),
        ..Lookup::default()
    }
}

#[test]
fn two_flip_orders_to_one_board_share_their_counts() {
    for url in test_databases(
        &std::env::temp_dir().join("anqi-tests"),
        "explorer_transpositions",
    ) {
        let store = Store::open(&url).unwrap();
        // 65 games each way: the ways are positions with rows (more than 64 games went on
        // from them, docs/rules.md 60).
        let one = ["a1(K)", "b1(k)", "c1(G)", "d1(g)", "a2(P)"];
        let other = ["c1(G)", "d1(g)", "a1(K)", "b1(k)", "a2(P)"];
        let games: Vec<Incoming> = (1..=130)
            .map(|n| banqi(if n <= 65 { &one } else { &other }, n))
            .collect();
        let outcomes = store.import(&games).unwrap();
        assert!(
            outcomes
                .iter()
                .all(|o| matches!(o, Imported::Stored { .. })),
            "{outcomes:?}"
        );
        let a = explore(&store, &banqi_lookup(&one[..4]));
        let b = explore(&store, &banqi_lookup(&other[..4]));
        assert_eq!(a, b, "one node, one answer");
        assert_eq!((a.followed, a.games), (4, 130));
        assert_eq!(a.moves.len(), 1);
        let played = &a.moves[0];
        assert_eq!((played.action.as_str(), played.games), ("a2(P)", 130));
        // Player 1 is to move and won them all: its score is 1, its interval short of 1 below.
        assert_eq!((played.wins, played.score), (130, 1.0));
        assert!(
            played.interval[0] < 0.99 && played.interval[1] == 1.0,
            "{:?}",
            played.interval
        );
        assert_eq!(played.examples, [1, 130]);
        // Before they meet, each order is its own line.
        let first = explore(&store, &banqi_lookup(&one[..2]));
        assert_eq!((first.games, first.moves[0].action.as_str()), (65, "c1(G)"));
        // A line no game played is followed as far as games went, and lists nothing.
        let unplayed = explore(&store, &banqi_lookup(&["a1(K)", "d8(p)"]));
        assert_eq!((unplayed.followed, unplayed.games), (1, 0));
        assert!(unplayed.moves.is_empty());
        // The start given as a position is the start.
        let start = explore(&store, &banqi_lookup(&[]));
        let mut given = banqi_lookup(&[]);
        given.position = Some(records::games::banqi::Position::start().to_string());
        assert_eq!(explore(&store, &given), start);
        assert_eq!(start.games, 130);

        // A lone game that meets the others' board by a third order: every way to the board
        // counts it (it was found only along its own way until issue 59).
        let third = ["a1(K)", "d1(g)", "c1(G)", "b1(k)", "a2(P)"];
        store.import(&[banqi(&third, 131)]).unwrap();
        for way in [&one, &other, &third] {
            let there = explore(&store, &banqi_lookup(&way[..4]));
            assert_eq!((there.node.as_str(), there.games), (a.node.as_str(), 131));
        }
    }
}

/// `n` games each way by two flip orders to one board, and on to a whole line of 16 plies:
/// every position of the lines answers the same asked by either line, by its node, by its
/// board (after flips no history joins it), and with filters (every game passes; half of
/// them: one player's, one month's).
fn transposed_lines(store: &Store, n: u64) {
    small_blocks();
    let one = ["a1(K)", "b1(k)", "c1(G)", "d1(g)"];
    let other = ["c1(G)", "d1(g)", "a1(K)", "b1(k)"];
    // Then on together, to 16 plies.
    let on = [
        "a2(P)", "b2(p)", "c2(P)", "d2(p)", "a3(P)", "b3(p)", "c3(P)", "d3(p)", "a4(M)", "b4(m)",
        "c4(M)", "d4(m)",
    ];
    let games: Vec<Incoming> = (0..2 * n)
        .map(|i| {
            let first = if i < n { &one } else { &other };
            let actions: Vec<&str> = first.iter().chain(&on).copied().collect();
            let mut game = banqi(&actions, 1000 * n + i);
            let players = if i % 2 == 0 {
                ["ann", "bo"]
            } else {
                ["cy", "bo"]
            };
            game.record.players = players.map(String::from).to_vec();
            let date = if i % 2 == 0 {
                "2026-01-15"
            } else {
                "2026-02-15"
            };
            game.record.metadata.insert("date".into(), date.into());
            game
        })
        .collect();
    let outcomes = store.import(&games).unwrap();
    assert!(
        outcomes
            .iter()
            .all(|o| matches!(o, Imported::Stored { .. }))
    );
    let full: Vec<&str> = one.iter().chain(&on).copied().collect();
    for ply in 0..=16 {
        let line = |first: [&'static str; 4]| -> Vec<&'static str> {
            first.iter().chain(&on).copied().take(ply).collect()
        };
        let (a, b) = (line(one), line(other));
        let by_one = explore(store, &banqi_lookup(&a));
        let by_other = explore(store, &banqi_lookup(&b));
        let at = format!("{n} games each way, ply {ply}");
        assert_eq!(by_one.followed, ply, "{at}");
        let played = if ply < 16 { 1 } else { 0 };
        if ply == 0 || ply >= 4 {
            // The start, and the shared board on: one position, all the games.
            assert_eq!(by_one, by_other, "{at}");
            assert_eq!(by_one.games, 2 * n as i64 * played, "{at}");
        } else {
            assert_eq!(by_one.games, n as i64, "{at}");
        }
        let node = Lookup {
            node: Some(by_one.node.clone()),
            ..banqi_lookup(&[])
        };
        let same = |e: Explored| Explored { followed: ply, ..e };
        assert_eq!(same(explore(store, &node)), by_one, "{at}, by node");
        if ply >= 4
            && let Some(next) = full.get(ply)
        {
            assert_eq!(by_one.moves[0].action, *next, "{at}");
        }
        // By position: the board every seat sees (flips only: no history joins it).
        if ply > 0 {
            use records::games::banqi::Banqi;
            let record = Record::new("banqi", "tcga", a.iter().map(|s| s.to_string()).collect());
            let rules = Banqi::PRESETS[0].ruleset;
            let mut board = String::new();
            replay_with::<Banqi>(&record, |p| {
                board = Banqi::public(&rules, p.after).to_string()
            });
            let given = Lookup {
                position: Some(board),
                ..banqi_lookup(&[])
            };
            assert_eq!(same(explore(store, &given)), by_one, "{at}, by position");
        }
        // Filters: every game, then ann's (half), then January's (the same half).
        let filtered = |players: &[&str], to: Option<&str>| {
            let lookup = Lookup {
                players: players.iter().map(|p| p.to_string()).collect(),
                date_to: to.map(String::from),
                ..banqi_lookup(&b)
            };
            explore(store, &lookup)
        };
        let everyone = filtered(&["ann", "bo"], None);
        assert_eq!(everyone.moves, by_other.moves, "{at}, filtered");
        let ann = filtered(&["ann"], None);
        let january = filtered(&[], Some("2026-01-31"));
        assert_eq!(ann.moves, january.moves, "{at}");
        let half = if ply == 0 || ply >= 4 { n } else { n / 2 };
        assert_eq!(ann.games, half as i64 * played, "{at}, ann's");
    }
}

#[test]
fn transpositions_merge_with_one_ten_and_a_hundred_games_each_way() {
    for n in [1, 10, 100] {
        for url in test_databases(
            &std::env::temp_dir().join("anqi-tests"),
            &format!("explorer_transposed_{n}"),
        ) {
            transposed_lines(&Store::open(&url).unwrap(), n);
        }
    }
}

#[test]
fn a_new_depth_walks_the_stored_games_again_and_a_store_builds_what_it_holds() {
    for url in test_databases(&std::env::temp_dir().join("anqi-tests"), "explorer_depth") {
        let store = Store::open(&url).unwrap();
        assert_eq!(store.explorer_depth().unwrap(), 16);
        let one = ["a1(K)", "b1(k)", "c1(G)", "d1(g)", "a2(P)"];
        store.import(&[banqi(&one, 1)]).unwrap();
        store.set_explorer_depth(2).unwrap();
        assert_eq!(store.explorer_depth().unwrap(), 2);
        let at = |n: usize| explore(&store, &banqi_lookup(&one[..n]));
        assert_eq!((at(1).games, at(2).games), (1, 0), "two plies followed");
        // Games stored at depth 2 are walked to 2.
        store.import(&[banqi(&one, 2)]).unwrap();
        assert_eq!((at(1).games, at(2).games), (2, 0));
        store.set_explorer_depth(16).unwrap();
        assert_eq!((at(1).games, at(4).games), (2, 2));
        assert!(store.set_explorer_depth(65).is_err());
        // Off: nothing kept, nothing added.
        store.set_explorer_depth(0).unwrap();
        store.import(&[banqi(&one, 3)]).unwrap();
        assert_eq!(at(0).games, 0);
        store.set_explorer_depth(16).unwrap();
        assert_eq!(at(0).games, 3);
        // A store whose explorer was never built (one migrated from before it) builds it when
        // opened.
        drop(store);
        unbuild(&url);
        let store = Store::open(&url).unwrap();
        assert_eq!(explore(&store, &banqi_lookup(&one[..4])).games, 3);
    }
}

/// Empties the explorer and marks it unbuilt, as the migration leaves a store that held games.
fn unbuild(url: &str) {
    use diesel::Connection;
    use diesel::connection::SimpleConnection;
    let sql = "DELETE FROM explorer; UPDATE explorer_settings SET built = FALSE;";
    if url.starts_with("postgres") {
        diesel::PgConnection::establish(url)
            .unwrap()
            .batch_execute(sql)
            .unwrap();
    } else {
        diesel::SqliteConnection::establish(url)
            .unwrap()
            .batch_execute(sql)
            .unwrap();
    }
}

/// What every seat sees of each position and each action of a game, as the explorer keys
/// them.
fn public_line<G: Rules>(record: &Record) -> Vec<String> {
    let rules = ruleset::<G>(record.preset.as_deref(), &record.options).unwrap();
    let steps = records::core::scoring::steps::<G>(record);
    assert!(steps.verdict.valid, "{:?}", steps.verdict);
    let mut line: Vec<String> = steps
        .positions
        .iter()
        .map(|p| G::public(&rules, &G::parse_position(p).unwrap()).to_string())
        .collect();
    line.extend(steps.public_actions);
    line
}

/// A public position holds nothing any seat may not see: under another hidden truth that a
/// seat cannot tell from the game's (`Truth::disguise`), every public position and action of
/// the game is the same, for every game, preset and seat.
#[test]
fn public_positions_and_actions_are_the_same_under_a_truth_no_seat_can_tell_apart() {
    fn check<G: Rules>() -> usize {
        let mut differed = 0;
        for preset in G::PRESETS {
            for seed in 0..6u64 {
                let record = records::core::play::random_record::<G>(preset, seed, 40);
                let Some(layout) = &record.layout else {
                    continue;
                };
                let hidden = G::parse_hidden(layout).unwrap();
                let m = records::core::replay::run::<G>(&record, |_| {})
                    .1
                    .unwrap()
                    .m;
                let line = public_line::<G>(&record);
                let mut rng = StdRng::seed_from_u64(seed);
                for seat in Seat::all(G::seats(&preset.ruleset)) {
                    let other = G::disguise(&hidden, &m, seat, &mut rng);
                    differed += usize::from(other != hidden);
                    let mut disguised = record.clone();
                    disguised.layout = Some(G::hidden_value(&other));
                    assert_eq!(
                        public_line::<G>(&disguised),
                        line,
                        "{} {} seed {seed}, {seat:?}'s disguise",
                        G::NAME,
                        preset.name
                    );
                }
            }
        }
        differed
    }
    let mut differed = 0;
    for kind in records::games::GameKind::ALL {
        differed += records::with_game!(*kind, G => check::<G>());
    }
    // The disguises changed something (else the test says nothing).
    assert!(differed > 20, "{differed} disguises differed");
}

/// A dark Luzhanqi attack is public as the referee announced it, and nothing else of it is.
#[test]
fn a_dark_luzhanqi_attack_is_public_as_announced() {
    use records::games::luzhanqi::Luzhanqi;
    let text = include_str!("data/luzhanqi-dark-engine-games.jsonl");
    let mut attacks = 0;
    for line in text.lines() {
        let record: Record = serde_json::from_str(line).unwrap();
        let steps = records::core::scoring::steps::<Luzhanqi>(&record);
        let m = records::core::replay::run::<Luzhanqi>(&record, |_| {})
            .1
            .unwrap()
            .m;
        for (i, public) in steps.public_actions.iter().enumerate() {
            let said = m.announcements.iter().find(|a| a.ply as usize == i + 1);
            match said {
                Some(a) => {
                    attacks += 1;
                    let announced = format!("{}:{}", a.action, a.result);
                    // Then, for each flag a 司令's death showed, where it was shown.
                    let rest = public
                        .strip_prefix(&announced)
                        .unwrap_or_else(|| panic!("ply {}: {public} against {announced}", i + 1));
                    for shown in rest.split(":flag@").skip(1) {
                        assert!(
                            shown.parse::<records::games::luzhanqi::Point>().is_ok(),
                            "ply {}: {public}",
                            i + 1
                        );
                    }
                    assert!(
                        rest.is_empty() || rest.starts_with(":flag@"),
                        "ply {}: {public}",
                        i + 1
                    );
                }
                None => assert_eq!(public, &steps.actions[i], "ply {}", i + 1),
            }
            assert!(!public.contains('('), "no identity: {public}");
        }
    }
    assert!(attacks > 5, "{attacks} attacks");
}

#[test]
fn a_rating_range_counts_the_games_whose_players_average_is_in_it() {
    for url in test_databases(&std::env::temp_dir().join("anqi-tests"), "explorer_ratings") {
        let store = Store::open(&url).unwrap();
        // Four players in a ring of meetings; the stronger (earlier) wins but for an upset in
        // four.
        let names = ["ann", "bo", "cy", "di"];
        let mut games = Vec::new();
        for n in 0..48u64 {
            let (a, b) = match n % 4 {
                0 => (0, 1),
                1 => (1, 2),
                2 => (2, 3),
                _ => (0, 3),
            };
            // Seats taken in turn; the stronger seated first in half the games.
            let (first, second) = if n / 4 % 2 == 0 { (a, b) } else { (b, a) };
            let upset = n / 8 % 4 == 3;
            let winner = if (first < second) != upset {
                Seat::FIRST
            } else {
                Seat::SECOND
            };
            let mut game = banqi(&["a1(K)", "b1(k)", "c1(G)"], n);
            game.record.players = vec![names[first].into(), names[second].into()];
            game.record.result = Some(StatedResult::ended(
                Outcome::win(winner, 2),
                Reason::RESIGNATION,
                None,
            ));
            games.push(game);
        }
        // A game with an unnamed seat, which no rating range counts.
        let mut unnamed = banqi(&["a1(K)", "b1(k)", "c1(G)"], 99);
        unnamed.record.players = vec!["ann".into()];
        games.push(unnamed);
        store.import(&games).unwrap();
        let ratings = RatingsCache::default();
        let board = ratings.leaderboard(&store, "banqi", "tcga", 0, 10).unwrap();
        let rating = |name: &str| {
            board
                .ranking
                .iter()
                .find(|r| r.name == name)
                .unwrap()
                .rating
                .value
        };
        assert!(rating("ann") > rating("di"), "{:?}", board.ranking);
        // Each game's average, counted independently of the store's filter.
        let averages: Vec<f64> = games
            .iter()
            .filter(|g| g.record.players.len() == 2)
            .map(|g| (rating(&g.record.players[0]) + rating(&g.record.players[1])) / 2.0)
            .collect();
        let mut sorted = averages.clone();
        sorted.sort_by(f64::total_cmp);
        let (low, high) = (sorted[10], sorted[30]);
        let expected = averages
            .iter()
            .filter(|a| (low..=high).contains(*a))
            .count() as i64;
        assert!(0 < expected && expected < 48, "{expected}");
        let mut asked = banqi_lookup(&["a1(K)"]);
        asked.rating_min = Some(low);
        asked.rating_max = Some(high);
        let rated = store.explore(&asked, &ratings).unwrap();
        assert_eq!(rated.games, expected);
        assert_eq!(rated.filtered.as_ref().map(|f| f.walked), Some(expected));
        assert_eq!(rated.moves[0].games, expected);
        // One bound; and a range nobody's average is in.
        asked.rating_max = None;
        let above = averages.iter().filter(|a| **a >= low).count() as i64;
        assert_eq!(store.explore(&asked, &ratings).unwrap().games, above);
        asked.rating_min = Some(sorted[47] + 1.0);
        assert_eq!(store.explore(&asked, &ratings).unwrap().games, 0);
        // Unfiltered, every game (the unnamed seat's too).
        assert_eq!(explore(&store, &banqi_lookup(&["a1(K)"])).games, 49);
    }
}

/// A transaction of an import that fails before it commits (rolled back) leaves nothing in
/// what the import's writer knows: the import's next transaction finds the store as it is,
/// and the counts are those of a store that imported the same games in one go.
#[test]
fn a_rolled_back_transaction_is_forgotten_by_its_import() {
    use records::games::banqi::Banqi;
    let records = games_of::<Banqi>(&Banqi::PRESETS[0], 150);
    let incoming: Vec<Incoming> = records
        .iter()
        .map(|record| Incoming {
            record: record.clone(),
            source: "rollback".into(),
        })
        .collect();
    let dir = std::env::temp_dir().join("anqi-tests");
    let urls = test_databases(&dir, "explorer_rollback")
        .into_iter()
        .zip(test_databases(&dir, "explorer_rollback_reference"));
    for (url, reference_url) in urls {
        let (store, reference) = (
            Store::open(&url).unwrap(),
            Store::open(&reference_url).unwrap(),
        );
        reference.import(&incoming).unwrap();
        let mut session = ImportSession::default();
        store.import_in(&mut session, &incoming[..50]).unwrap();
        // The next 50 are written, then the transaction fails before it commits.
        let prepared = incoming[50..100]
            .iter()
            .map(|i| records::store::NewGame::from_record(&i.record, &i.source, "now", 16))
            .collect();
        let mut once = Some((prepared, ()));
        let failed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            store.write_chunks(&mut session, || once.take(), |_, ()| panic!("no commit"))
        }));
        assert!(failed.is_err());
        let outcomes = store.import_in(&mut session, &incoming[50..]).unwrap();
        assert!(
            outcomes
                .iter()
                .all(|o| matches!(o, Imported::Stored { .. }))
        );
        // Every prefix of every game's line: the same games, wins, draws and losses.
        let counts = |store: &Store, actions: &[String]| {
            let explored = explore(
                store,
                &Lookup {
                    game: "banqi".into(),
                    preset: Some(Banqi::PRESETS[0].name.into()),
                    actions: actions.to_vec(),
                    ..Lookup::default()
                },
            );
            let moves: Vec<_> = explored
                .moves
                .iter()
                .map(|m| (m.action.clone(), m.games, m.wins, m.draws, m.losses))
                .collect();
            (explored.followed, explored.games, moves)
        };
        let mut asked = 0;
        for record in &records {
            let actions = records::core::scoring::steps::<Banqi>(record).public_actions;
            for n in 0..=actions.len().min(16) {
                assert_eq!(
                    counts(&store, &actions[..n]),
                    counts(&reference, &actions[..n]),
                    "{url} after {:?}",
                    &actions[..n]
                );
                asked += 1;
            }
        }
        assert!(asked > 500, "{asked}");
    }
}

/// Dark Luzhanqi's public position keeps every unknown piece's side (`U` red, `u` black):
/// an attack the attacker won and one it lost lead to different public positions, and every
/// node of the engine games holds one public position text only (issue 59: written `?` for
/// both sides, `a6-a7:win` and `a6-a7:loss` shared a node). A seat's view keeps its `?`s.
#[test]
fn dark_luzhanqi_public_positions_keep_the_sides() {
    use records::core::{Told, Truth};
    use records::games::luzhanqi::Luzhanqi;
    let text = include_str!("data/luzhanqi-dark-engine-games.jsonl");
    let mut texts: std::collections::HashMap<u64, String> = std::collections::HashMap::new();
    let mut positions = 0;
    for line in text.lines() {
        let record: Record = serde_json::from_str(line).unwrap();
        let rules =
            records::core::rules::ruleset::<Luzhanqi>(record.preset.as_deref(), &record.options)
                .unwrap();
        records::core::replay::run::<Luzhanqi>(&record, |ply| {
            let public = Luzhanqi::public(&rules, &ply.after);
            let written = public.to_string();
            let board = written.split(' ').next().unwrap();
            assert!(!board.contains('?'), "{written}");
            assert!(board.contains('U') && board.contains('u'), "{written}");
            // Read back: the same position.
            let Told::Masked(masked) = &public else {
                panic!("a dark game's public position is masked")
            };
            let Told::Masked(again) = Told::<Luzhanqi>::parse(&written).unwrap() else {
                panic!("read back as a masked position: {written}")
            };
            assert_eq!(&again, masked, "{written}");
            let hash = records::core::explorer::position_hash::<Luzhanqi>(&public);
            let known = texts.entry(hash).or_insert_with(|| written.clone());
            assert_eq!(known, &written, "one hash, one public position");
            positions += 1;
        })
        .1
        .unwrap();
    }
    assert!(positions > 100, "{positions}");
    // The sides tell apart what `?` merged: the same squares, one piece of each side swapped.
    let read = |text: &str| Told::<Luzhanqi>::parse(text).unwrap();
    let win = read("uuuuu/uuuuu/uuuuu/uuuuu/uuuuu/uuuu1/U4/UUUUU/UUUUU/UUUUU/UUUUU/UUUUU -- r 0 1");
    let loss = read("uuuuu/uuuuu/uuuuu/uuuuu/uuuuu/uuuuu/5/UUUUU/UUUUU/UUUUU/UUUUU/UUUUU -- r 0 1");
    assert_ne!(
        records::core::explorer::position_hash::<Luzhanqi>(&win),
        records::core::explorer::position_hash::<Luzhanqi>(&loss)
    );
    // Mixed notations are refused.
    assert!(
        Told::<Luzhanqi>::parse(
            "uuuuu/uuuuu/uuuuu/uuuuu/uuuuu/uuuu?/5/UUUUU/UUUUU/UUUUU/UUUUU/UUUUU -- r 0 1"
        )
        .is_err()
    );
}

/// An action as every seat saw it fixes the public position it leads to, in every game's
/// engine games: from one node, one action has one next node (the explorer keeps one). Dark
/// Luzhanqi's `:flag` said no more than that a flag was shown, and three games that played
/// `a6-a7:both_die:flag` went to different positions (issue 59): it now says where.
#[test]
fn an_action_as_every_seat_saw_it_leads_to_one_position() {
    use records::core::explorer::{MAX_DEPTH, Node, Walk};
    fn check<G: records::core::rules::Rules>(text: &str) -> usize {
        let mut next: std::collections::HashMap<(Node, String), Node> =
            std::collections::HashMap::new();
        let mut flags = 0;
        for line in text.lines() {
            let record: Record = serde_json::from_str(line).unwrap();
            let Some(mut walk) = Walk::<G>::of_record(&record, MAX_DEPTH) else {
                continue;
            };
            records::core::replay::run::<G>(&record, |ply| walk.ply(ply))
                .1
                .unwrap();
            for step in &walk.steps {
                flags += usize::from(step.action.contains(":flag"));
                let known = next
                    .entry((step.node, step.action.clone()))
                    .or_insert(step.next);
                assert_eq!(*known, step.next, "{} from {:?}", step.action, step.node);
            }
        }
        flags
    }
    use records::games::xiangqi::Xiangqi3g;
    use records::games::{banqi::Banqi, luzhanqi::Luzhanqi, three_kingdoms::ThreeKingdoms};
    let flags = check::<Luzhanqi>(include_str!("data/luzhanqi-dark-engine-games.jsonl"));
    // Two 司令 meet at once, their flags in other headquarters from game to game: `:flag`
    // alone was one action to two positions.
    let marshals = |red: &str| {
        serde_json::json!({
            "game": "luzhanqi", "preset": "dark", "actions": ["a6-a7"],
            "layout": {"red": red, "black": "lfldb/lcrbp/e1g1j/dp1pt/c1e1j/mtetr"}
        })
        .to_string()
    };
    let both = [
        marshals("MTETR/C1E1J/DP1PT/E1G1J/LCRBP/LFLDB"),
        marshals("MTETR/C1E1J/DP1PT/E1G1J/LCRBP/LDLFB"),
    ]
    .join("\n");
    assert_eq!(check::<Luzhanqi>(&both), 2);
    check::<Luzhanqi>(include_str!("data/luzhanqi-open-engine-games.jsonl"));
    check::<Luzhanqi>(include_str!("data/luzhanqi-flip-engine-games.jsonl"));
    check::<Banqi>(include_str!("data/banqi-engine-games.jsonl"));
    check::<ThreeKingdoms>(include_str!("data/three-kingdoms-engine-games.jsonl"));
    check::<Xiangqi3g>(include_str!("data/xiangqi-3g-engine-games.jsonl"));
    assert!(flags > 0, "the dark games show a flag: {flags}");
}
