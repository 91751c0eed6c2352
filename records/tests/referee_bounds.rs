//! The referee keeps every game (issue 40), on real SQLite and real PostgreSQL: a deal checked
//! whole before anything is written, every game ended by the service's cap, a game dealt by an
//! older version given one, and an ending the store would refuse never committed.
#![cfg(feature = "referee")]

use records::games::banqi::Banqi;
use records::referee::{DealOrder, RefereeError, Settings};
use records::store::{Store, test_databases};

#[path = "common/ledger.rs"]
mod ledger;
use ledger::{older_row, referee, referee_default, urls};

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
