//! The referee's ledger on real SQLite and real PostgreSQL: one action per ply under
//! concurrency, two instances sharing one ledger, the truth sealed at rest, finished games
//! stored and compacted, abandoned games expiring.
#![cfg(feature = "referee")]

use records::core::Seat;
use records::core::rules::parts::*;
use records::games::banqi::Banqi;
use records::referee::{Referee, RefereeError, Settings, Stated};
use records::seal::Keys;
use records::store::{Store, test_databases};

#[path = "common/ledger.rs"]
mod ledger;
use ledger::{deal, referee, urls};

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
