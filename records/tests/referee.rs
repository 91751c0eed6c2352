//! The referee's ledger on real SQLite and real PostgreSQL: one action per ply under
//! concurrency, two instances sharing one ledger, the truth sealed at rest, finished games
//! stored and compacted, abandoned games expiring.
#![cfg(feature = "referee")]

use records::core::Seat;
use records::core::rules::parts::*;
use records::games::banqi::Banqi;
use records::referee::{DealOrder, Referee, RefereeError, Settings, Stated};
use records::seal::Keys;
use records::store::{Store, test_databases};

const KEY: &str = "ledger:2wf2STv0BbmrJ8hFNEPn2EaHC745jihGIC/cB1lml10=";

fn urls(name: &str) -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-referee-tests");
    test_databases(&dir, name)
}

fn referee(url: &str, settings: Settings) -> Referee {
    let store = Store::open(url).unwrap_or_else(|e| panic!("{e}"));
    Referee::new(store, Keys::parse(KEY).unwrap(), settings)
}

fn referee_default(url: &str) -> Referee {
    referee(url, Settings::default())
}

fn deal(referee: &Referee, seed: Option<u64>, include_layout: bool) -> records::referee::Dealt {
    referee
        .deal::<Banqi>(DealOrder {
            seed,
            players: vec!["east".into(), "west".into()],
            include_layout,
            ..DealOrder::default()
        })
        .unwrap()
}

#[test]
fn fifty_concurrent_plays_at_one_ply_commit_exactly_one() {
    for url in urls("referee_concurrent") {
        let referee = referee(&url, Settings::default());
        let dealt = deal(&referee, Some(1), false);
        let token = &dealt.seat_tokens["player1"];
        let listed = referee
            .open::<Banqi, _>(&dealt.game_id, token, |game| game.actions(0))
            .unwrap()
            .actions;
        assert_eq!(listed.len(), 32);
        let answers: Vec<Result<String, String>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..50)
                .map(|i| {
                    let (referee, listed, dealt, url) = (&referee, &listed, &dealt, &url);
                    s.spawn(move || {
                        let played = referee.open::<Banqi, _>(&dealt.game_id, token, |game| {
                            game.play(&listed[i % 32], 0)
                        });
                        match played {
                            Ok(played) => Ok(played.action),
                            Err(RefereeError::AlreadyPlayed { ply: 0, detail }) => Err(detail),
                            Err(e) => panic!("{url}: {e}"),
                        }
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let committed: std::collections::BTreeSet<&String> =
            answers.iter().filter_map(|a| a.as_ref().ok()).collect();
        assert_eq!(
            committed.len(),
            1,
            "{url}: one action commits: {committed:?}"
        );
        let winner = committed.into_iter().next().unwrap();
        // Every refusal names the committed action; every success is that action.
        for refused in answers.iter().filter_map(|a| a.as_ref().err()) {
            assert!(refused.ends_with(winner.as_str()), "{refused}");
        }
        let plies = referee.open::<Banqi, _>(&dealt.game_id, token, |game| Ok(game.plies()));
        assert_eq!(plies.unwrap(), 1, "{url}");
        // The seat's second play at the next ply is out of its turn.
        assert!(matches!(
            referee.open::<Banqi, _>(&dealt.game_id, token, |game| game.play(&listed[0], 1)),
            Err(RefereeError::WrongSeat(_))
        ));
    }
}

#[test]
fn two_instances_referee_one_game_alternately() {
    for url in urls("referee_two_instances") {
        let (a, b) = (
            referee(&url, Settings::default()),
            referee(&url, Settings::default()),
        );
        let dealt = deal(&a, None, false);
        let tokens = [&dealt.seat_tokens["player1"], &dealt.seat_tokens["player2"]];
        let mut ended = false;
        for ply in 0..40u32 {
            let instance = if ply % 2 == 0 { &a } else { &b };
            let token = tokens[ply as usize % 2];
            let played = instance
                .open::<Banqi, _>(&dealt.game_id, token, |game| {
                    assert_eq!(
                        game.plies(),
                        ply,
                        "{url}: each instance sees the other's plies"
                    );
                    let listed = game.actions(ply)?;
                    if listed.end.is_some() {
                        return Ok(None);
                    }
                    let choice = &listed.actions[(ply as usize * 7) % listed.actions.len()];
                    game.play(choice, ply).map(Some)
                })
                .unwrap();
            let Some(played) = played else {
                ended = true;
                break;
            };
            assert_eq!(played.ply, ply + 1);
        }
        let plies = b.open::<Banqi, _>(&dealt.game_id, tokens[0], |game| Ok(game.plies()));
        assert!(ended || plies.unwrap() == 40, "{url}");
        // Each instance's view of the game is the same.
        let view = |r: &Referee| {
            r.open::<Banqi, _>(&dealt.game_id, tokens[0], |game| {
                Ok(serde_json::to_string(&game.view(Seat::FIRST, game.plies())?).unwrap())
            })
            .unwrap()
        };
        assert_eq!(view(&a), view(&b));
    }
}

#[test]
fn the_hidden_truth_is_sealed_at_rest() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-referee-tests");
    let url = test_databases(&dir, "referee_at_rest").remove(0);
    let referee = referee(&url, Settings::default());
    let dealt = deal(&referee, None, true);
    let layout = dealt.layout.clone().unwrap();
    let layout = layout.as_str().unwrap();
    assert!(dealt.seed.is_none() && !dealt.record.metadata.contains_key("seed"));
    let (row, _) = Store::open(&url)
        .unwrap()
        .ledger_game(&dealt.game_id)
        .unwrap()
        .unwrap();
    let sealed = row.sealed_truth.unwrap();
    assert!(sealed.starts_with("v1.ledger."), "{sealed}");
    assert!(!sealed.contains(layout));
    assert!(row.seed.is_none(), "a random deal has no seed to store");
    // Nothing of the database on disk holds the layout.
    for suffix in ["", "-wal"] {
        let bytes = std::fs::read(format!("{url}{suffix}")).unwrap_or_default();
        assert!(
            !bytes.windows(layout.len()).any(|w| w == layout.as_bytes()),
            "the layout is in {url}{suffix}"
        );
    }
    // A token is no sealed truth, and another key opens neither.
    let other = Referee::new(
        Store::open(&url).unwrap(),
        Keys::random(),
        Settings::default(),
    );
    assert!(matches!(
        other.open::<Banqi, _>(&dealt.game_id, &dealt.token, |_| Ok(())),
        Err(RefereeError::Token(_))
    ));
}

#[test]
fn a_finished_game_is_stored_and_its_ledger_compacted() {
    for url in urls("referee_finished") {
        let referee = referee(&url, Settings::default());
        let store = Store::open(&url).unwrap();
        let dealt = deal(&referee, Some(7), true);
        let mut plies = 0;
        let end = loop {
            let end = referee
                .open::<Banqi, _>(&dealt.game_id, &dealt.token, |game| {
                    let listed = game.actions(plies)?;
                    if listed.end.is_some() {
                        return Ok(listed.end);
                    }
                    let choice = &listed.actions[(plies as usize * 5 + 3) % listed.actions.len()];
                    game.play(choice, plies)?;
                    Ok(None)
                })
                .unwrap();
            if let Some(end) = end {
                break end;
            }
            plies += 1;
        };
        let (row, actions) = store.ledger_game(&dealt.game_id).unwrap().unwrap();
        assert!(
            actions.is_empty() && row.sealed_truth.is_none(),
            "{url}: compacted"
        );
        assert_eq!(
            row.result.as_deref(),
            Some(end.outcome.to_string().as_str())
        );
        let (stored, record) = store.get(row.stored_game.unwrap()).unwrap().unwrap();
        assert_eq!(stored.plies as u32, plies);
        assert_eq!(
            record.layout, dealt.layout,
            "the layout is public once the game ends"
        );
        assert_eq!(record.players, ["east", "west"]);
        assert_eq!(record.metadata["game_id"], dealt.game_id.as_str());
        // The game still answers its players, from the stored record.
        let err = referee
            .open::<Banqi, _>(&dealt.game_id, &dealt.seat_tokens["player2"], |game| {
                assert_eq!(game.plies(), plies);
                assert_eq!(game.actions(plies).unwrap().end, Some(end));
                let verdict = game.verdict(None, plies).unwrap();
                assert!(verdict.valid, "{verdict:?}");
                // Nothing more can be played.
                game.play("a1", plies)
            })
            .unwrap_err();
        assert!(
            matches!(
                &err,
                RefereeError::WrongSeat(_) | RefereeError::Illegal { .. }
            ),
            "{err}"
        );
    }
}

#[test]
fn abandoned_games_expire() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-referee-tests");
    let url = test_databases(&dir, "referee_expiry").remove(0);
    let keeping = referee(&url, Settings::default());
    let old = deal(&keeping, None, false);
    let open = |r: &Referee, d: &records::referee::Dealt| {
        r.open::<Banqi, _>(&d.game_id, &d.token, |_| Ok(()))
    };
    assert!(open(&keeping, &old).is_ok());
    // A referee that forgets games at once (every last action is "older" than 10 s ahead)
    // sweeps at its first deal.
    let forgetting = referee(
        &url,
        Settings {
            expiry_seconds: -10,
            ..Settings::default()
        },
    );
    let new = deal(&forgetting, None, false);
    assert!(matches!(
        open(&keeping, &old),
        Err(RefereeError::NotFound(_))
    ));
    assert!(open(&keeping, &new).is_ok());
}

#[test]
fn a_request_states_nothing_but_the_ledger() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-referee-tests");
    let url = test_databases(&dir, "referee_stated").remove(0);
    let referee = referee(&url, Settings::default());
    let dealt = deal(&referee, Some(3), false);
    let address = |stated: Stated| {
        referee.open::<Banqi, _>(&dealt.game_id, &dealt.seat_tokens["player1"], |game| {
            game.address(&stated)
        })
    };
    let field = |stated: Stated| match address(stated) {
        Err(RefereeError::Conflict { field, .. }) => field,
        other => panic!("{:?}", other.map(|_| ())),
    };
    let options: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(r#"{"dark_capture": true}"#).unwrap();
    assert_eq!(
        field(Stated {
            options: Some(&options),
            ..Stated::default()
        }),
        "options"
    );
    assert_eq!(
        field(Stated {
            preset: Some("olympiad"),
            ..Stated::default()
        }),
        "preset"
    );
    let mut record = records::core::Record::new("banqi", "tcga", vec!["a1".into()]);
    assert_eq!(
        field(Stated {
            record: Some(&record),
            ..Stated::default()
        }),
        "record.actions"
    );
    record.actions.clear();
    record.start = Some("k3/4/4/4/4/4/1p2/P2X r C1 5 30".into());
    assert_eq!(
        field(Stated {
            record: Some(&record),
            ..Stated::default()
        }),
        "record.start"
    );
    assert_eq!(
        field(Stated {
            ply: Some(1),
            ..Stated::default()
        }),
        "ply"
    );
    // What agrees with the ledger is fine: the same preset, options that make its ruleset.
    let same: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(r#"{"dark_capture": false}"#).unwrap();
    assert_eq!(
        address(Stated {
            preset: Some("tcga"),
            options: Some(&same),
            ..Stated::default()
        })
        .unwrap(),
        0
    );
    let _ = Banqi::NAME;
}

/// A deal is checked whole before anything is written: at most one name per seat, names of
/// bounded size without control characters, a cap the service allows.
#[test]
fn a_deal_is_checked_before_anything_is_written() {
    use records::games::three_kingdoms::ThreeKingdoms;
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-referee-tests");
    let url = test_databases(&dir, "referee_deal_checks").remove(0);
    let referee = referee(&url, Settings::default());
    let store = Store::open(&url).unwrap();
    let refused = |players: Vec<String>, options: &str| -> (&'static str, String) {
        let order = DealOrder {
            players,
            options: serde_json::from_str(options).unwrap(),
            ..DealOrder::default()
        };
        match referee.deal::<Banqi>(order.clone()) {
            Err(RefereeError::Deal { field, detail }) => (field, detail),
            other => panic!("{:?}", other.map(|d| d.game_id)),
        }
    };
    let names = |n: usize| (0..n).map(|i| format!("p{i}")).collect::<Vec<_>>();
    assert_eq!(refused(names(3), "{}").0, "players");
    assert!(
        refused(names(3), "{}")
            .1
            .contains("3 names for a game of 2 seats")
    );
    assert_eq!(refused(vec!["x".repeat(101)], "{}").0, "players");
    assert_eq!(refused(vec!["a\nb".into()], "{}").0, "players");
    assert_eq!(refused(vec!["  ".into()], "{}").0, "players");
    // A cap above the service's, or none on a game that could go on for ever.
    let (field, detail) = refused(vec![], r#"{"no_progress": null, "max_plies": 30000}"#);
    assert_eq!(field, "options.max_plies");
    assert!(detail.contains("20000"), "{detail}");
    assert_eq!(
        refused(vec![], r#"{"no_progress": null, "max_plies": null}"#).0,
        "options.max_plies"
    );
    // Three Kingdoms: three names, not four.
    let four = DealOrder {
        players: names(4),
        ..DealOrder::default()
    };
    assert!(matches!(
        referee.deal::<ThreeKingdoms>(four),
        Err(RefereeError::Deal {
            field: "players",
            ..
        })
    ));
    assert_eq!(store.ledger_len().unwrap(), 0, "nothing was written");
    // What fits is dealt: a name of 100 characters, in any script.
    let ok = DealOrder {
        players: vec!["棋".repeat(100), "b".into()],
        ..DealOrder::default()
    };
    assert!(referee.deal::<Banqi>(ok).is_ok());
    assert_eq!(store.ledger_len().unwrap(), 1);
}

/// A game its rules could let go on for ever is dealt with the service's cap, ends there as a
/// draw by `ply_limit`, and is stored like any ended game; a game its rules bound below the
/// cap is dealt as asked.
#[test]
fn every_refereed_game_ends_by_the_cap() {
    use records::games::xiangqi::Xiangqi3g;
    for url in urls("referee_cap") {
        let referee = referee(
            &url,
            Settings {
                max_plies: 60,
                ..Settings::default()
            },
        );
        let store = Store::open(&url).unwrap();
        let dealt = referee
            .deal::<Xiangqi3g>(DealOrder {
                options: serde_json::from_str(r#"{"repetition": false, "no_capture": null}"#)
                    .unwrap(),
                players: vec!["red".into(), "black".into()],
                ..DealOrder::default()
            })
            .unwrap();
        assert_eq!(dealt.record.options["max_plies"], 60, "{url}");
        // Horses out and back, for ever: the cap ends it.
        let cycle = ["b0c2", "b9c7", "c2b0", "c7b9"];
        let mut end = None;
        for ply in 0..60u32 {
            let played = referee
                .open::<Xiangqi3g, _>(&dealt.game_id, &dealt.token, |game| {
                    game.play(cycle[ply as usize % 4], ply)
                })
                .unwrap_or_else(|e| panic!("{url}: ply {ply}: {e}"));
            end = played.end;
        }
        let end = end.expect("ended at the cap");
        assert_eq!(
            (end.outcome.to_string(), end.reason.code()),
            ("draw".into(), "ply_limit")
        );
        let (row, _) = store.ledger_game(&dealt.game_id).unwrap().unwrap();
        let (stored, record) = store.get(row.stored_game.unwrap()).unwrap().unwrap();
        assert_eq!(
            (stored.plies, stored.reason.as_deref()),
            (60, Some("ply_limit"))
        );
        assert_eq!(record.options["max_plies"], 60);
        // The standard preset bounds its games itself (120 plies without a capture end it,
        // 3,992 plies at most): under the default cap (20,000) it is dealt as asked; under a
        // cap of 60 it gets that cap.
        let bounded = referee_default(&url).deal::<Xiangqi3g>(DealOrder::default());
        assert!(bounded.unwrap().record.options.is_empty());
        let capped = referee.deal::<Xiangqi3g>(DealOrder::default()).unwrap();
        assert_eq!(capped.record.options["max_plies"], 60);
    }
}

/// Two instances race to commit one ply of one game, each keeping the game in memory: one
/// action commits, the loser's kept game is replayed, and both then answer alike.
#[test]
fn two_instances_racing_keep_one_history() {
    for url in urls("referee_race") {
        let (a, b) = (
            referee(&url, Settings::default()),
            referee(&url, Settings::default()),
        );
        let dealt = deal(&a, Some(11), false);
        let token = &dealt.seat_tokens["player1"];
        // Both keep the game at ply 0.
        let listed = a
            .open::<Banqi, _>(&dealt.game_id, token, |g| g.actions(0))
            .unwrap()
            .actions;
        b.open::<Banqi, _>(&dealt.game_id, token, |g| g.actions(0))
            .unwrap();
        let answers: Vec<bool> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..16)
                .map(|i| {
                    let instance = if i % 2 == 0 { &a } else { &b };
                    let (listed, dealt) = (&listed, &dealt);
                    s.spawn(move || {
                        match instance.open::<Banqi, _>(&dealt.game_id, token, |g| {
                            g.play(&listed[i % listed.len()], 0)
                        }) {
                            Ok(_) => true,
                            Err(RefereeError::AlreadyPlayed { .. }) => false,
                            Err(e) => panic!("{e}"),
                        }
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(answers.iter().any(|ok| *ok), "{url}");
        let seen = |r: &Referee| {
            r.open::<Banqi, _>(&dealt.game_id, &dealt.seat_tokens["player2"], |g| {
                Ok((g.plies(), g.actions(1)?.position))
            })
            .unwrap()
        };
        assert_eq!(seen(&a), seen(&b), "{url}");
        assert_eq!(seen(&a).0, 1);
    }
}

/// A ledger row as an older version of the referee wrote it (no deal checks, no cap): game
/// `game_id` of `G` under `preset` and `options`, dealt from `seed`. Gives its game's token.
fn older_row<G: Rules>(
    store: &Store,
    game_id: &'static str,
    options: &str,
    players: &str,
    seed: u64,
) -> String {
    use records::core::play::deal as deal_game;
    use records::seal::Binding;
    use records::store::LedgerRow;
    let preset = G::PRESETS[0].name;
    let dealt = deal_game::<G>(
        None,
        &serde_json::from_str(options).unwrap(),
        vec![],
        Some(seed),
        None,
    )
    .unwrap();
    let binding = Binding {
        game: G::NAME,
        preset,
        game_id,
        seat: None,
    };
    let keys = Keys::parse(KEY).unwrap();
    store
        .ledger_insert(&LedgerRow {
            game_id: game_id.into(),
            game: G::NAME.into(),
            preset: preset.into(),
            options: options.into(),
            players: players.into(),
            sealed_truth: Some(keys.seal::<G>(binding, &dealt.hidden)),
            seed: None,
            plies: 0,
            result: None,
            stored_game: None,
            created_at: 0,
            updated_at: records::store::unix_now(),
        })
        .unwrap();
    keys.token(binding)
}

/// A game dealt before the referee capped its games (unbounded options in the ledger) gets
/// the cap when it is next opened, once, in the ledger; it then ends there and is stored.
#[test]
fn a_game_dealt_before_caps_gets_one() {
    use records::games::xiangqi::Xiangqi3g;
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-referee-tests");
    let url = test_databases(&dir, "referee_legacy_cap").remove(0);
    let referee = referee(
        &url,
        Settings {
            max_plies: 40,
            ..Settings::default()
        },
    );
    let store = Store::open(&url).unwrap();
    let game_id = "0123456789abcdef0123456789abcdef";
    let options = r#"{"no_capture":null,"repetition":false}"#;
    let token = older_row::<Xiangqi3g>(&store, game_id, options, "[]", 5);
    let cycle = ["b0c2", "b9c7", "c2b0", "c7b9"];
    let mut last = None;
    for ply in 0..40u32 {
        last = referee
            .open::<Xiangqi3g, _>(game_id, &token, |g| g.play(cycle[ply as usize % 4], ply))
            .unwrap()
            .end;
    }
    assert_eq!(last.unwrap().reason.code(), "ply_limit");
    let (row, _) = store.ledger_game(game_id).unwrap().unwrap();
    assert!(row.options.contains("\"max_plies\":40"), "{}", row.options);
    assert!(row.stored_game.is_some());
}

/// The referee never commits a ply whose game it then cannot store: a ledger row the store
/// would refuse (three names for two seats, written by a version that did not check deals)
/// is played to its end, and the ending ply is refused, not committed.
#[test]
fn an_ending_the_store_would_refuse_is_never_committed() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-referee-tests");
    let url = test_databases(&dir, "referee_unstorable").remove(0);
    let referee = referee(&url, Settings::default());
    let store = Store::open(&url).unwrap();
    let game_id = "fedcba9876543210fedcba9876543210";
    let token = older_row::<Banqi>(&store, game_id, "{}", r#"["a","b","c"]"#, 9);
    let mut ply = 0u32;
    let refused = loop {
        let step = referee.open::<Banqi, _>(game_id, &token, |g| {
            let listed = g.actions(ply)?;
            assert!(listed.end.is_none(), "the game never ends in the ledger");
            g.play(
                &listed.actions[(ply as usize * 5 + 3) % listed.actions.len()],
                ply,
            )
        });
        match step {
            Ok(played) => {
                assert!(played.end.is_none());
                ply += 1;
            }
            Err(e) => break e,
        }
    };
    assert!(matches!(refused, RefereeError::Corrupt(_)), "{refused}");
    let (row, _) = store.ledger_game(game_id).unwrap().unwrap();
    assert_eq!((row.plies as u32, row.result), (ply, None), "not committed");
    // The game is still there, at the ply before its end.
    let plies = referee.open::<Banqi, _>(game_id, &token, |g| Ok(g.plies()));
    assert_eq!(plies.unwrap(), ply);
}
