//! The ply cap (`max_plies`, an option of every game; docs/rules.md): a game ends at exactly
//! that many plies, a draw by `ply_limit` (Three Kingdoms: the seats still playing ranked by
//! points), unless the rules end it otherwise on that ply; a record replays to the same end;
//! and `Game::longest` says how long the rules let a game last.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use records::core::Engine as _;
use records::core::play::deal;
use records::core::replay::{ReplayError, Status, validate};
use records::core::rules::parts::*;
use records::core::rules::ruleset;
use records::core::{Outcome, Reason, Seat, Violation};
use records::games::banqi::{Banqi, Match};
use records::games::luzhanqi::Luzhanqi;
use records::games::three_kingdoms::ThreeKingdoms;
use records::games::xiangqi::Xiangqi3g;
use serde_json::{Map, Value, json};

mod common;
use common::banqi::{play_all, pos, rules};

#[test]
fn a_banqi_game_is_drawn_at_the_cap() {
    // No other rule can end these games: no no-progress limit, no repetition rule.
    let capped = rules(
        "taiwan",
        r#"{"no_progress": null, "repetition": {"kind": "off"}, "max_plies": 300}"#,
    );
    let mut game = Match::from_position(capped, pos("k3/4/4/4/4/4/4/K3 r - 120 298"));
    play_all(&mut game, "a1-a2");
    assert_eq!(game.end(), None, "ply 299");
    play_all(&mut game, "a8-a7");
    let end = game.end().unwrap();
    assert_eq!(
        (end.outcome, end.reason),
        (Outcome::draw(2), Reason::PLY_LIMIT)
    );
    // A rules ending on the cap's ply stands: the last black piece taken there (by player 2,
    // red: the 300th ply is the second player's).
    let mut game = Match::from_position(capped, pos("4/4/4/4/4/4/4/Kr2 r - 3 299"));
    play_all(&mut game, "a1-b1");
    let end = game.end().unwrap();
    assert_eq!(
        (end.outcome, end.reason),
        (Outcome::win(Seat::SECOND, 2), Reason::ELIMINATION)
    );
    // Without the cap the same game goes on.
    let uncapped = rules(
        "taiwan",
        r#"{"no_progress": null, "repetition": {"kind": "off"}}"#,
    );
    let mut game = Match::from_position(uncapped, pos("k3/4/4/4/4/4/4/K3 r - 120 298"));
    play_all(&mut game, "a1-a2 a8-a7 a2-a1");
    assert_eq!(game.end(), None);
}

/// Every game, every preset: random games under a cap of `cap` plies end at the cap (or
/// before, by their own rules), and the record replays to the same ending; one ply more is
/// `game_over`.
fn capped_games<G: Rules>(cap: u16, games: u64) -> usize {
    let mut at_cap = 0;
    for (i, preset) in G::PRESETS.iter().enumerate() {
        let mut options = Map::new();
        options.insert("max_plies".into(), json!(cap));
        for seed in 0..games {
            let dealt = deal::<G>(Some(preset.name), &options, Vec::new(), Some(seed), None)
                .unwrap_or_else(|e| panic!("{}: {e}", preset.name));
            let rules = ruleset::<G>(Some(preset.name), &options).unwrap();
            let mut m = G::Match::from_position(rules, dealt.start.clone());
            let mut rng = StdRng::seed_from_u64(seed * 31 + i as u64);
            let mut record = dealt.record.clone();
            let mut legal = Vec::new();
            while m.end().is_none() {
                m.legal_actions(&mut legal);
                let pick = legal[rng.random_range(0..legal.len())].clone();
                let action = G::reveal(pick, m.position(), Some(&dealt.hidden)).unwrap();
                m.play(&action).unwrap();
                record.actions.push(action.to_string());
            }
            let end = m.end().unwrap();
            let plies = record.actions.len() as u32;
            assert!(plies <= cap as u32, "{}: {plies} plies", preset.name);
            if end.reason == Reason::PLY_LIMIT {
                at_cap += 1;
                assert_eq!(plies, cap as u32, "{}", preset.name);
                if G::seats(&rules) == 2 {
                    assert_eq!(end.outcome, Outcome::draw(2), "{}", preset.name);
                }
            }
            let verdict = validate::<G>(&record);
            assert_eq!(verdict.error, None, "{}", preset.name);
            assert_eq!(verdict.derived, Status::Ended { end, ply: plies });
            let mut longer = record.clone();
            longer.actions.push(record.actions[0].clone());
            match validate::<G>(&longer).error {
                Some(ReplayError::IllegalPly { reason, ply, .. }) => {
                    assert_eq!((reason, ply), (Violation::GAME_OVER, plies as usize + 1))
                }
                other => panic!("{}: {other:?}", preset.name),
            }
        }
    }
    at_cap
}

#[test]
fn every_game_ends_at_its_cap_and_replays_to_it() {
    // Short caps: random play reaches them long before any other ending, mostly.
    let banqi = capped_games::<Banqi>(40, 6);
    let three = capped_games::<ThreeKingdoms>(45, 6);
    let luzhanqi = capped_games::<Luzhanqi>(40, 6);
    let xiangqi = capped_games::<Xiangqi3g>(40, 6);
    for (game, n) in [
        ("banqi", banqi),
        ("three-kingdoms", three),
        ("luzhanqi", luzhanqi),
        ("xiangqi-3g", xiangqi),
    ] {
        assert!(n >= 6, "{game}: {n} games reached the cap");
    }
}

#[test]
fn longest_is_what_the_rules_allow() {
    let r = |options: Value| -> Map<String, Value> { options.as_object().unwrap().clone() };
    // Banqi: 64 progress plies (32 flips, 32 captures), runs of at most 60 quiet plies.
    let tcga = ruleset::<Banqi>(Some("tcga"), &Map::new()).unwrap();
    assert_eq!(Banqi::longest(&tcga), Some(64 + 65 * 60));
    let unbounded = ruleset::<Banqi>(Some("tcga"), &r(json!({"no_progress": null}))).unwrap();
    assert_eq!(Banqi::longest(&unbounded), None);
    let capped = ruleset::<Banqi>(
        Some("tcga"),
        &r(json!({"no_progress": null, "max_plies": 500})),
    )
    .unwrap();
    assert_eq!(Banqi::longest(&capped), Some(500));
    let both = ruleset::<Banqi>(Some("tcga"), &r(json!({"max_plies": 9000}))).unwrap();
    assert_eq!(Banqi::longest(&both), Some(64 + 65 * 60));
    // xiangqi: captures only reset its limit.
    let x = ruleset::<Xiangqi3g>(Some("xiangqi-3g"), &Map::new()).unwrap();
    assert_eq!(Xiangqi3g::longest(&x), Some(32 + 33 * 120));
    let x = ruleset::<Xiangqi3g>(
        Some("xiangqi-3g"),
        &r(json!({"no_capture": null, "repetition": false})),
    )
    .unwrap();
    assert_eq!(Xiangqi3g::longest(&x), None);
    // Luzhanqi's presets cap their games at 2,000 plies already.
    let l = ruleset::<Luzhanqi>(Some("dark"), &r(json!({"no_progress": null}))).unwrap();
    assert_eq!(Luzhanqi::longest(&l), Some(2000));
    let t = ruleset::<ThreeKingdoms>(Some("three-kingdoms"), &Map::new()).unwrap();
    assert_eq!(ThreeKingdoms::longest(&t), Some(93 + 94 * 90));
    // A cap of 0 is no ruleset.
    assert!(ruleset::<Banqi>(Some("tcga"), &r(json!({"max_plies": 0}))).is_err());
    assert!(ruleset::<ThreeKingdoms>(None, &r(json!({"max_plies": 0}))).is_err());
    assert!(ruleset::<Xiangqi3g>(None, &r(json!({"max_plies": 0}))).is_err());
}
