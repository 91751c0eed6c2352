//! The engine's answer to a draw offer (issue 60, docs/engine.md): it accepts when it stands
//! worse or the game is all but drawn, and plays on otherwise, judged from what its seat knows
//! by a real search, whether or not its seat is to move.

use records::core::Seat;
use records::core::analysis::{Limits, Score, accepts_draw};
use records::core::rules::parts::*;
use records::games::banqi::Banqi;
use records::referee::engine_accepts_draw;

#[test]
fn the_threshold_is_the_documented_one() {
    let score = |win: f64, draw: f64| Score {
        centipawns: 0,
        forced_in: None,
        win,
        draw,
        loss: 1.0 - win - draw,
    };
    assert!(accepts_draw(score(0.2, 0.1)), "worse: expected 0.25");
    assert!(
        accepts_draw(score(0.35, 0.2)),
        "expected 0.45, the threshold"
    );
    assert!(!accepts_draw(score(0.4, 0.2)), "even: expected 0.5");
    assert!(accepts_draw(score(0.1, 0.85)), "all but drawn");
    assert!(!accepts_draw(score(0.9, 0.05)), "winning");
}

#[test]
fn the_engine_accepts_when_lost_and_declines_when_winning() {
    let rules = Banqi::PRESETS[0].ruleset;
    // Player 1 (red, to move at ply 10) has a soldier against black's general, advisor and
    // chariot.
    let pos = Banqi::parse_position("kgr1/4/4/4/4/4/4/3P r - 0 10").unwrap();
    let m = <Banqi as records::core::Game>::Match::from_position(rules, pos);
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let (red, black) = (Seat::FIRST, Seat::all(2).nth(1).unwrap());
    assert_eq!(m.position().to_move(), red);
    assert!(
        engine_accepts_draw::<Banqi>(&m, red, 2, &limits).unwrap(),
        "lost: accepts"
    );
    assert!(
        !engine_accepts_draw::<Banqi>(&m, black, 2, &limits).unwrap(),
        "winning, not to move: declines"
    );
}
