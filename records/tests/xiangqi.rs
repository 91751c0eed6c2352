//! Third-generation xiangqi (RULES.md §9), hand-checked: each second identity's moves, the
//! soldier flips, the double flip, 臣, the transformations, check by every piece, perpetual
//! check; the backs and their violations; notation round trips. Board diagrams are FEN, rank 9
//! first; backs fields likewise.

use records::core::rules::parts::*;
use records::core::{Reason, Seat, Violation};
use records::games::xiangqi::{
    Action, Back, Backs, Effect, Kind, Match, Position, Ruleset, Side, SideBacks, Xiangqi3g,
};

fn pos(text: &str) -> Position {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The legal destinations of the piece on `from`, sorted.
fn targets(p: &Position, from: &str) -> Vec<String> {
    let mut out = Vec::new();
    p.legal_actions(&mut out);
    let mut v: Vec<String> = out
        .iter()
        .filter_map(|a| match a {
            Action::Move(m) if m.from.to_string() == from => Some(m.to.to_string()),
            _ => None,
        })
        .collect();
    v.sort();
    v
}

fn play(p: &mut Position, action: &str) -> Result<Effect, Violation> {
    p.play(&Ruleset::THIRD_GENERATION, &action.parse().unwrap())
        .map_err(|e| e.reason)
}

fn legal(p: &Position) -> Vec<String> {
    let mut out = Vec::new();
    p.legal_actions(&mut out);
    out.iter().map(|a| a.to_string()).collect()
}

/// Backs field with one back letter on one point (all else none).
fn one_back(point: &str, letter: char) -> String {
    let file = point.as_bytes()[0] - b'a';
    let rank: usize = point[1..].parse().unwrap();
    let mut ranks = vec!["9".to_owned(); 10];
    let row = 9 - rank;
    let before = file;
    let after = 8 - file;
    let mut s = String::new();
    if before > 0 {
        s.push_str(&before.to_string());
    }
    s.push(letter);
    if after > 0 {
        s.push_str(&after.to_string());
    }
    ranks[row] = s;
    ranks.join("/")
}

#[test]
fn a_soldier_flip_takes_effect_on_its_matching_point() {
    // Red soldier on a9 with a chariot back: a 兵車, a chariot for the rest of the game.
    let mut p = pos(&format!(
        "P2k5/9/9/9/9/9/9/9/9/4K4 w {} - - -- 0 30",
        one_back("a9", 'R')
    ));
    assert!(legal(&p).contains(&"a9".to_owned()));
    assert_eq!(
        play(&mut p, "a9"),
        Ok(Effect::SoldierFlip {
            back: Kind::Chariot,
            effective: true
        })
    );
    let a9 = p.piece("a9".parse().unwrap()).unwrap();
    assert_eq!(
        (a9.kind, a9.soldier_born, a9.back),
        (Kind::Chariot, true, Back::None)
    );
    play(&mut p, "d9d8").unwrap();
    assert!(
        targets(&p, "a9").contains(&"a0".to_owned()),
        "it slides like a chariot"
    );
    // A soldier not on the enemy back rank does not flip.
    let mut p = pos(&format!(
        "3k5/P8/9/9/9/9/9/9/9/4K4 w {} - - -- 0 30",
        one_back("a8", 'R')
    ));
    assert_eq!(play(&mut p, "a8"), Err(Violation::NO_FLIP));
}

#[test]
fn a_wrong_flip_shows_the_back_and_must_be_flipped_back() {
    // The chariot back on b9 (a horse's point): the back shows, the piece is frozen, and red's
    // next action must flip it back.
    let mut p = pos(&format!(
        "1P1k5/9/9/9/9/9/9/9/9/4K4 w {} - - -- 0 30",
        one_back("b9", 'R')
    ));
    assert_eq!(
        play(&mut p, "b9"),
        Ok(Effect::SoldierFlip {
            back: Kind::Chariot,
            effective: false
        })
    );
    let b9 = p.piece("b9".parse().unwrap()).unwrap();
    assert!(b9.pending && b9.back_public && b9.kind == Kind::Soldier);
    play(&mut p, "d9d8").unwrap();
    assert_eq!(legal(&p), ["b9"], "only the flip back");
    assert_eq!(play(&mut p.clone(), "e0e1"), Err(Violation::MUST_FLIP_BACK));
    assert_eq!(play(&mut p, "b9(P)"), Ok(Effect::FlipBack));
    // Flipped back, it keeps its known back and may try again on a chariot point.
    let b9 = p.piece("b9".parse().unwrap()).unwrap();
    assert!(!b9.pending && b9.back == Back::Known(Kind::Chariot) && b9.back_public);
    play(&mut p, "d8d9").unwrap();
    play(&mut p, "b9a9").unwrap();
    play(&mut p, "d9d8").unwrap();
    assert_eq!(
        play(&mut p, "a9"),
        Ok(Effect::SoldierFlip {
            back: Kind::Chariot,
            effective: true
        })
    );
}

#[test]
fn must_flip_back_while_in_check_has_no_legal_move_and_loses() {
    // Red's soldier on b9 must flip back, and black's chariot checks red's general.
    let p = pos(&format!(
        "1P1k5/9/9/9/9/9/9/9/4r4/3K5 w {} b9swp - -- 0 30",
        one_back("b9", 'R')
    ));
    let p = {
        // b9 is a pending soldier: mark it as such (a soldier, its back shown).
        let text = p.to_string().replace("b9swp", "b9wp");
        pos(&text)
    };
    assert!(legal(&p).is_empty());
    let end = p.end(None).unwrap();
    assert_eq!(
        (end.reason, end.outcome.winner()),
        (Reason::CHECKMATE, Some(Seat::SECOND))
    );
}

#[test]
fn no_legal_move_out_of_check_is_stalemate_and_loses_too() {
    // Red's lone general on d0, not in check: d1 is the a1 chariot's, e0 the e5 chariot's.
    let p = pos("5k3/9/9/9/4r4/9/9/9/r8/3K5 w - - - -- 0 30");
    assert!(legal(&p).is_empty());
    let end = p.end(None).unwrap();
    assert_eq!(
        (end.reason, end.outcome.winner()),
        (Reason::STALEMATE, Some(Seat::SECOND))
    );
}

#[test]
fn soldier_born_advisors_and_elephants_keep_to_the_enemy_side() {
    // 兵仕 on d9 keeps to black's palace; 兵相 on c9 never crosses back over the river.
    let p = pos("2BA2k2/9/9/9/9/9/9/9/9/4K4 w - c9s,d9s - -- 0 30");
    assert_eq!(targets(&p, "d9"), ["e8"]);
    assert_eq!(targets(&p, "c9"), ["a7", "e7"]);
    // With the optional rule (flip anywhere) a soldier's flip takes effect on any back-rank
    // point, and a 兵仕 made so roams the enemy half (marked `r`).
    let anywhere = Ruleset {
        soldier_flip_anywhere: true,
        ..Ruleset::THIRD_GENERATION
    };
    let mut m = Match::from_position(
        anywhere,
        pos(&format!(
            "1P1k5/9/9/9/9/9/9/9/9/4K4 w {} - - -- 0 30",
            one_back("b9", 'A')
        )),
    );
    assert_eq!(
        m.play(&"b9".parse().unwrap()),
        Ok(Effect::SoldierFlip {
            back: Kind::Advisor,
            effective: true
        })
    );
    assert!(m.pos.to_string().contains(" b9sr "), "{}", m.pos);
    let roaming = pos("3A1k3/9/9/9/9/9/9/9/9/4K4 w - d9sr - -- 0 30");
    assert_eq!(targets(&roaming, "d9"), ["c8", "e8"]);
    assert_eq!(pos(&roaming.to_string()), roaming);
}

/// Red: general e0 (back 仕), advisors d0 (back 帥) and f0 (back 臣); black: a chariot on e5
/// giving check, general f9.
fn double_flip_position(checks: &str) -> Position {
    pos(&format!(
        "5k3/9/9/9/4r4/9/9/9/9/3AKA3 w 9/9/9/9/9/9/9/9/9/3KAM3 - - {checks} 0 30"
    ))
}

#[test]
fn the_double_flip_answers_a_first_check() {
    let mut p = double_flip_position("--");
    assert!(p.in_check(Side::Red));
    assert!(legal(&p).contains(&"e0=d0".to_owned()));
    assert_eq!(
        play(&mut p, "e0=d0"),
        Ok(Effect::DoubleFlip { correct: true })
    );
    let (d0, e0) = (
        p.piece("d0".parse().unwrap()).unwrap(),
        p.piece("e0".parse().unwrap()).unwrap(),
    );
    assert_eq!(
        (d0.kind, d0.back),
        (Kind::General, Back::Known(Kind::Advisor))
    );
    assert_eq!(
        (e0.kind, e0.back),
        (Kind::Advisor, Back::Known(Kind::General))
    );
    assert!(!p.in_check(Side::Red));
    // The general turned advisor, on e0 (off the palace diagonals), steps diagonally.
    play(&mut p, "e5e6").unwrap();
    assert_eq!(targets(&p, "e0"), ["d1", "f1"]);
}

#[test]
fn no_double_flip_in_a_run_of_checks_and_the_wrong_advisor_loses() {
    let p = double_flip_position("+-");
    assert!(!legal(&p).iter().any(|a| a.contains('=')));
    assert_eq!(
        play(&mut p.clone(), "e0=d0"),
        Err(Violation::DOUBLE_FLIP_NOT_ALLOWED)
    );
    let mut p = double_flip_position("--");
    assert_eq!(
        play(&mut p, "e0=f0"),
        Ok(Effect::DoubleFlip { correct: false })
    );
    let end = p.end(None).unwrap();
    assert_eq!(
        (end.reason, end.outcome.winner()),
        (Reason::WRONG_DOUBLE_FLIP, Some(Seat::SECOND))
    );
    assert!(p.to_string().contains(" !- "), "{p}");
    // Without the backs, the double flip says what the advisor showed.
    let mut p = pos("5k3/9/9/9/4r4/9/9/9/9/3AKA3 w 9/9/9/9/9/9/9/9/9/3???3 - - -- 0 30");
    assert_eq!(
        play(&mut p.clone(), "e0=d0"),
        Err(Violation::REVEAL_MISSING)
    );
    assert_eq!(
        play(&mut p, "e0=d0(K)"),
        Ok(Effect::DoubleFlip { correct: true })
    );
}

#[test]
fn the_minister_moves_diagonally_never_returns_and_wins_on_the_enemy_generals_point() {
    // f0's back is 臣 and no other advisor is left: it may flip.
    let mut p = pos("3k5/9/9/9/9/9/9/9/9/4KA3 w 9/9/9/9/9/9/9/9/9/5M3 - - -- 0 30");
    assert!(legal(&p).contains(&"f0".to_owned()));
    assert_eq!(
        play(&mut p, "f0"),
        Ok(Effect::Transform {
            from: Kind::Advisor,
            to: Kind::Minister
        })
    );
    play(&mut p, "d9d8").unwrap();
    assert_eq!(targets(&p, "f0"), ["e1", "g1"]);
    play(&mut p, "f0g1").unwrap();
    play(&mut p, "d8d9").unwrap();
    // Out of its palace it never returns (f2 is a palace point).
    assert_eq!(targets(&p, "g1"), ["h0", "h2"]);
    // Across the river, never back; on e9 it wins.
    let p = pos("3k5/4M4/9/9/9/9/9/9/9/4K4 w - - - -- 0 40");
    assert_eq!(targets(&p, "e8"), ["d7", "f7", "f9"]);
    let p = pos("3k1M3/9/9/9/9/9/9/9/9/4K4 b - - - -- 0 40");
    assert!(p.end(None).is_none());
    let mut p = pos("3k5/5M3/9/9/9/9/9/9/9/4K4 w - - - -- 0 40");
    play(&mut p, "f8e9").unwrap();
    let end = p.end(None).unwrap();
    assert_eq!(
        (end.reason, end.outcome.winner()),
        (Reason::MINISTER_HOME, Some(Seat::FIRST))
    );
}

#[test]
fn a_minister_never_captures_never_checks_and_falls_only_to_two_attackers() {
    // A black 臣 on e1 next to red's general: no check, no capture.
    let p = pos("5k3/9/9/9/9/9/9/9/4m4/3K5 w - - - -- 0 40");
    assert!(!p.in_check(Side::Red));
    // Red's chariot alone attacks the 臣 on e5: it may not take it; with a horse also
    // attacking, it may.
    let mut alone = pos("3k5/9/9/9/R3m4/9/9/9/9/4K4 w - - - -- 0 40");
    assert_eq!(play(&mut alone, "a5e5"), Err(Violation::MINISTER_NEEDS_TWO));
    let mut two = pos("3k5/9/9/9/R3m4/9/5N3/9/9/4K4 w - - - -- 0 40");
    assert!(matches!(
        play(&mut two, "a5e5"),
        Ok(Effect::Move {
            captured: Some(Kind::Minister)
        })
    ));
}

#[test]
fn the_last_elephant_becomes_a_camel_or_a_mule() {
    // Red's last elephant on c0 (back 駝) flips; a second elephant forbids it.
    let mut p = pos("3k5/9/9/9/9/9/9/9/9/2B1K4 w 9/9/9/9/9/9/9/9/9/2T6 - - -- 0 30");
    assert_eq!(
        play(&mut p, "c0"),
        Ok(Effect::Transform {
            from: Kind::Elephant,
            to: Kind::Camel
        })
    );
    let mut two = pos("3k5/9/9/9/9/9/9/9/9/2B1K1B2 w 9/9/9/9/9/9/9/9/9/2T3L2 - - -- 0 30");
    assert_eq!(play(&mut two, "c0"), Err(Violation::NO_FLIP));
    // 駝 leaps (2,3) and (3,2), blocked on the diagonal point next to it.
    let p = pos("3k5/9/9/9/9/4T4/9/9/9/4K4 w - - - -- 0 40");
    assert_eq!(
        targets(&p, "e4"),
        ["b2", "b6", "c1", "c7", "g1", "g7", "h2", "h6"]
    );
    let blocked = pos("3k5/9/9/9/5P3/4T4/9/9/9/4K4 w - - - -- 0 40");
    assert!(!targets(&blocked, "e4").contains(&"g7".to_owned()));
    assert!(!targets(&blocked, "e4").contains(&"h6".to_owned()));
    // 騾 leaps (1,3) and (3,1), blocked like a horse.
    let p = pos("3k5/9/9/9/9/4L4/9/9/9/4K4 w - - - -- 0 40");
    assert_eq!(
        targets(&p, "e4"),
        ["b3", "b5", "d1", "d7", "f1", "f7", "h3", "h5"]
    );
    let blocked = pos("3k5/9/9/9/4P4/4L4/9/9/9/4K4 w - - - -- 0 40");
    let t = targets(&blocked, "e4");
    assert!(!t.contains(&"d7".to_owned()) && !t.contains(&"f7".to_owned()));
}

#[test]
fn the_chariots_backs() {
    // 助: one or two points diagonally, not jumping.
    let p = pos("3k5/9/9/9/9/4Z4/5P3/9/9/4K4 w - - - -- 0 40");
    assert_eq!(
        targets(&p, "e4"),
        ["c2", "c6", "d3", "d5", "f5", "g6"],
        "f3 blocks g2"
    );
    // 輔: a chariot along the rank, a cannon along the file.
    let p = pos("5k3/4p4/9/9/9/r3F2P1/9/9/9/3K5 w - - - -- 0 40");
    let t = targets(&p, "e4");
    assert!(
        t.contains(&"a4".to_owned()),
        "takes along the rank like a chariot"
    );
    assert!(!t.contains(&"h4".to_owned()));
    assert!(t.contains(&"e5".to_owned()) && t.contains(&"e0".to_owned()));
    assert!(
        !t.contains(&"e8".to_owned()),
        "no screen on the file: no capture"
    );
    let p = pos("5k3/4p4/9/4P4/9/4F4/9/9/9/3K5 w - - - -- 0 40");
    assert!(
        targets(&p, "e4").contains(&"e8".to_owned()),
        "over one screen along the file"
    );
}

#[test]
fn the_horses_backs() {
    // 妃: moves like a chess knight, no leg; takes only by jumping a piece one knight step
    // away onto the enemy two steps away.
    let p = pos("3k5/9/9/9/4P4/4Q4/9/9/9/4K4 w - - - -- 0 40");
    let t = targets(&p, "e4");
    assert!(t.contains(&"f6".to_owned()), "no leg to block");
    let p = pos("3k5/9/9/6p2/9/4Q4/9/9/9/4K4 w - - - -- 0 40");
    assert!(
        !targets(&p, "e4").contains(&"g6".to_owned()),
        "a knight step onto an enemy is no capture"
    );
    let p = pos("3k5/6p2/9/5P3/9/4Q4/9/9/9/4K4 w - - - -- 0 40");
    assert!(
        targets(&p, "e4").contains(&"g8".to_owned()),
        "jumps f6 onto g8"
    );
    // 骉 borrows the rule of the piece the opponent moved last, and may not take it.
    let mut p = pos("3k5/9/9/9/9/4X4/9/9/r8/4K4 b - - - -- 0 41");
    play(&mut p, "a1a2").unwrap();
    let t = targets(&p, "e4");
    assert!(
        t.contains(&"e8".to_owned()) && t.contains(&"a4".to_owned()),
        "a chariot now"
    );
    let mut p = pos("3k5/9/9/9/9/4X4/9/9/9/r3K4 b - - - -- 0 41");
    play(&mut p, "a0a4").unwrap();
    assert!(
        !targets(&p, "e4").contains(&"a4".to_owned()),
        "not the piece just moved"
    );
    // After a flip no piece moved: the 骉 stays.
    let mut p = pos("3k5/9/9/9/9/4X4/9/9/9/2b1K4 b 9/9/9/9/9/9/9/9/9/2t6 - - -- 0 41");
    play(&mut p, "c0").unwrap();
    assert!(targets(&p, "e4").is_empty());
}

#[test]
fn the_cannons_backs() {
    // 抛: moves like a cannon, takes diagonally over an adjacent screen.
    let p = pos("3k5/9/9/9/6p2/5P3/4O4/9/9/4K4 w - - - -- 0 40");
    let t = targets(&p, "e3");
    assert!(t.contains(&"g5".to_owned()), "over f4 onto g5");
    assert!(t.contains(&"a3".to_owned()) && t.contains(&"e8".to_owned()));
    // 石: passes the pieces before the first empty point, crosses it, and takes any enemy
    // before the next empty point.
    let p = pos("3k5/9/9/9/9/9/4S1Pp1/9/9/4K4 w - - - -- 0 40");
    assert!(
        targets(&p, "e3").contains(&"h3".to_owned()),
        "f3 empty, then g3 (own), h3 (enemy)"
    );
    let p = pos("3k5/9/9/9/9/9/4SPp2/9/9/4K4 w - - - -- 0 40");
    assert!(
        !targets(&p, "e3").contains(&"g3".to_owned()),
        "no empty point crossed before g3"
    );
}

#[test]
fn every_face_up_piece_gives_check() {
    // A black 騾 on e3 checks red's general on d0 (e3 → d0 is (−1,−3), leg e2 empty).
    let p = pos("4k4/9/9/9/9/9/4l4/9/9/3K5 w - - - -- 0 40");
    assert!(p.in_check(Side::Red));
    // A 兵仕 in red's palace checks too.
    let p = pos("4k4/9/9/9/9/9/9/9/4a4/3K5 w - e1s - -- 0 40");
    assert!(p.in_check(Side::Red));
}

#[test]
fn perpetual_check_loses_repetition_draws() {
    // Red's chariot checks from d9/e9-style shuttles: red checks with every move.
    let start = pos("4k4/9/R8/9/9/9/9/9/9/5K3 w - - - -- 0 40");
    let rules = Ruleset {
        backs: false,
        ..Ruleset::THIRD_GENERATION
    };
    let mut m = Match::from_position(rules, start);
    for a in [
        "a7e7", "e9d9", "e7d7", "d9e9", "d7e7", "e9d9", "e7d7", "d9e9", "d7e7",
    ] {
        assert!(m.end().is_none(), "before {a}");
        m.play(&a.parse().unwrap())
            .unwrap_or_else(|e| panic!("{a}: {e:?}"));
    }
    let end = m.end().expect("the third occurrence");
    assert_eq!(
        (end.reason, end.outcome.winner()),
        (Reason::PERPETUAL_CHECK, Some(Seat::SECOND))
    );
    // Quiet shuttles repeat to a draw.
    let mut m = Match::from_position(rules, pos("4k4/9/9/9/9/9/9/9/9/R2K5 w - - - -- 0 40"));
    for a in [
        "a0a1", "e9e8", "a1a0", "e8e9", "a0a1", "e9e8", "a1a0", "e8e9",
    ] {
        m.play(&a.parse().unwrap()).unwrap();
    }
    assert_eq!(m.end().unwrap().reason, Reason::REPETITION);
}

#[test]
fn backs_are_checked_with_a_reason_each() {
    assert!(SideBacks::parse(Side::Red, "ZQTKAMLXFOSRNCBA").is_ok());
    for (text, code) in [
        ("ZQTKAMLXFOSRNCB", "malformed_backs"),
        ("ZQTKAMLXFOSRNCBW", "malformed_backs"),
        ("ZQTKKMLXFOSRNCBA", "general_back"),
        ("ZQTKAKLXFOSRNCBA", "advisor_backs"),
        ("ZQTKAMTXFOSRNCBA", "elephant_backs"),
        ("ZQTKAMLXZOSRNCBA", "chariot_backs"),
        ("ZQTKAMLQFOSRNCBA", "horse_backs"),
        ("ZQTKAMLXFOORNCBA", "cannon_backs"),
        ("ZQTKAMLXFOSRRCBA", "soldier_backs"),
    ] {
        assert_eq!(
            SideBacks::parse(Side::Red, text).unwrap_err().code,
            code,
            "{text}"
        );
    }
    let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(3);
    for _ in 0..100 {
        let b = Backs::random(&mut rng);
        assert_eq!(Backs::from_value(&b.to_value()), Ok(b));
    }
    // A record's backs set up its start; without them every back is unknown.
    let backs = Backs::from_value(
        &serde_json::json!({"red": "ZQTKAMLXFOSRNCBA", "black": "zqtkamlxfosrncba"}),
    )
    .unwrap();
    let start = Xiangqi3g::start(&Ruleset::THIRD_GENERATION, Some(&backs)).unwrap();
    assert_eq!(
        start.to_string(),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w zqtkamlxf/9/1o5s1/r1n1c1b1a/9/9/R1N1C1B1A/1O5S1/9/ZQTKAMLXF - - -- 0 1"
    );
    let unknown = Xiangqi3g::start(&Ruleset::THIRD_GENERATION, None).unwrap();
    assert!(unknown.to_string().contains("?????????/9/1?5?1/?1?1?1?1?"));
}

#[test]
fn notation_round_trips_and_errors_are_typed() {
    for text in ["h2e2", "a9(R)", "a9", "e0=d0(K)", "e0=d0", "c0(T)", "b9(P)"] {
        assert_eq!(text.parse::<Action>().unwrap().to_string(), text);
    }
    for bad in [
        "", "h2h2", "h2e", "a9(r)", "a9(RR)", "e0=e0", "j0a0", "h2e2(R)", "a10",
    ] {
        assert!(bad.parse::<Action>().is_err(), "{bad:?}");
    }
    for text in [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "3k5/9/9/9/9/4X4/9/9/9/4K4 b 9/9/9/9/9/9/9/9/9/9 c9sp a1R +- 7 41",
    ] {
        let _ = text;
    }
    let p = pos("2BA2k2/9/9/9/9/9/9/9/9/4K4 w - c9s,d9s e5N +- 3 30");
    assert_eq!(pos(&p.to_string()), p);
    for bad in [
        "rnbakabnr/9 w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x - - 0 1",
        "4k4/9/9/9/9/9/9/9/9/4K4 w 9/9/9/9/9/9/9/9/9/R8 - - -- 0 1",
        "4k4/9/9/9/9/9/9/9/9/4K4 w - a0s - -- 0 1",
        "4k4/9/9/9/9/9/9/9/9/4K4 w - - e5 -- 0 1",
        "4k4/9/9/9/9/9/9/9/9/4K4 w - - - x- 0 1",
        // Found by fuzzing: a piece past the rank's last point was dropped silently, and a
        // long run of digits wrapped round (u8) to a rank's width.
        "rnbakabnr/9p/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        &format!("4k4/9/9/9/9/9/9/9/9/4K4{}1 w - - 0 1", "5".repeat(51)),
        &format!(
            "4k4/9/9/9/9/9/9/9/9/4K4 w 9/9/9/9/9/9/9/9/9/4{}A4 - - -- 0 1",
            "9".repeat(28)
        ),
    ] {
        assert!(bad.parse::<Position>().is_err(), "{bad}");
    }
}

#[test]
fn a_flip_answers_a_check_given_by_a_biao_alone() {
    // Black's 骉 on e3 borrows red's most recent move (a chariot's, to a0: `-/a0R`, black's
    // own last move not said): it checks red's general on e0 along the file. A flip moves no
    // piece: the 骉 has no rule after it, and the check is gone.
    let p = pos("3k5/9/9/9/9/9/4x4/9/9/R1B1K4 w 9/9/9/9/9/9/9/9/9/2T6 - -/a0R -- 0 30");
    assert!(p.in_check(Side::Red));
    let actions = legal(&p);
    assert!(actions.contains(&"c0".to_owned()), "{actions:?}");
    let mut after = p;
    assert!(matches!(
        play(&mut after, "c0"),
        Ok(Effect::Transform { .. })
    ));
    assert!(!after.in_check(Side::Red));
}

#[test]
fn without_the_backs_each_soldier_back_is_shown_once() {
    // Two red soldiers on the black back rank, backs unknown: the first shows 車; the second
    // may not show 車 too.
    let mut p = pos("P1P1k4/9/9/9/9/9/9/9/9/3K5 w ?1?6/9/9/9/9/9/9/9/9/9 - - -- 0 30");
    assert_eq!(play(&mut p, "a9(R)").map(|_| ()), Ok(()));
    play(&mut p, "e9e8").unwrap();
    assert_eq!(
        play(&mut p.clone(), "c9(R)"),
        Err(Violation::REVEAL_IMPOSSIBLE)
    );
    assert!(matches!(
        play(&mut p, "c9(B)"),
        Ok(Effect::SoldierFlip {
            back: Kind::Elephant,
            effective: true
        })
    ));
}

/// Issue 21: the enemy 骉 is judged with its opponent's most recent move (RULES.md §9, Check),
/// never with its owner's own last move. Each position is one the referee comparison found.
#[test]
fn an_enemy_biao_borrows_the_side_to_moves_own_previous_move() {
    // Black's 骉 on e5; black's own last move was a chariot's (a9R), red's is not said. Read
    // as a chariot, the 骉 would check down the e-file and red could double-flip; it borrows
    // red's move, none here: red is not in check, and neither double flip is legal.
    let p = pos("r4k3/9/9/9/4x4/9/9/9/9/3AKA3 w f4a3/9/9/9/9/9/9/9/9/3KAM3 - a9R -- 10 30");
    assert!(!p.in_check(Side::Red));
    let actions = legal(&p);
    assert!(!actions.iter().any(|a| a.starts_with("e0=")), "{actions:?}");
    // A random game's position: black may not double-flip e9=f9.
    let p = pos(
        "2bXkab2/9/1c7/p1p1p1p1p/9/P8/2P3P2/9/9/2RK2B2 b 2l1akt2/9/1o7/b1a1n1c1r/9/A8/2C3B2/9/9/2FA2L2 - c0R -- 0 11",
    );
    let actions = legal(&p);
    assert!(!actions.iter().any(|a| a.starts_with("e9=")), "{actions:?}");
    // Black's previous action was a flip (its own last move not said): red's 骉 on e3 is
    // inert, black is not in check, and the flip back c0(P) is legal: no wrong game end.
    let p = pos(
        "3a2bn1/3T5/b3k1n2/5R3/9/6p2/6p2/3AX4/4A4/2p2K3 b 3k2lx1/9/t3a1q2/5F3/9/6b2/6a2/3K5/4M4/2n2A3 c0wp f6R -+ 6 95",
    );
    assert!(!p.in_check(Side::Black));
    assert!(p.has_action());
    assert!(legal(&p).contains(&"c0".to_owned()), "{:?}", legal(&p));
    let mut m = Match::from_position(Ruleset::THIRD_GENERATION, p);
    assert!(m.end().is_none());
    m.play(&"c0(P)".parse().unwrap()).unwrap();
}

/// Issue 21: both sides' last moves are in the position string, and each 骉 borrows its
/// opponent's: a move leaving the mover in check is judged with that move; at a side's turn
/// the enemy 骉 borrows that side's own previous move (kept after `/`).
#[test]
fn each_side_keeps_its_own_last_move() {
    let mut p = pos("3k5/9/9/9/9/9/4x4/9/9/R1B1K4 w 9/9/9/9/9/9/9/9/9/2T6 - - -- 0 30");
    assert!(!p.in_check(Side::Red), "nothing to borrow yet");
    // Black's 骉 on e3 would borrow this chariot move and check down the e-file.
    assert_eq!(
        play(&mut p.clone(), "a0a1"),
        Err(Violation::new("general_in_check"))
    );
    play(&mut p, "e0f0").unwrap();
    assert_eq!(
        p.last_move().map(|(s, k)| format!("{s}{}", k.letter())),
        Some("f0K".into())
    );
    play(&mut p, "d9e9").unwrap();
    // Black's own move is not written: red has no horse that could be a 骉 to borrow it.
    assert!(p.to_string().contains(" -/f0K "), "{p}");
    // Red's own previous move was a general's: from e3 the 骉 reaches no general.
    assert!(!p.in_check(Side::Red), "{p}");
    let back: Position = p.to_string().parse().unwrap();
    assert_eq!(back, p);
}

/// Issue 21: a position repeats only with the same borrowed rule when the side to move has a
/// 骉; without one, the last move does not count, and the third occurrence comes a ply sooner.
#[test]
fn the_borrowed_rule_counts_for_repetition_only_with_a_biao_to_move() {
    let start = pos("5k3/9/9/9/9/9/9/3K5/9/5A1X1 b 5a3/9/9/9/9/9/9/3A5/9/5K3 - - -- 0 1");
    let mut m = Match::from_position(Ruleset::THIRD_GENERATION, start);
    let line = [
        "f9f8", "d2d1", "f8f9", "d1d2", "f9f8", "h0h1", "f8f9", "h1h0",
    ];
    for (i, a) in line.iter().enumerate() {
        assert!(m.end().is_none(), "before ply {} ({a})", i + 1);
        m.play(&a.parse().unwrap())
            .unwrap_or_else(|e| panic!("{a}: {e:?}"));
    }
    assert_eq!(m.end().map(|e| e.reason), Some(Reason::REPETITION));
}

/// A record that states `no_move` (written before checkmate and stalemate were told apart)
/// still validates: it names either.
#[test]
fn a_stated_no_move_names_checkmate_or_stalemate() {
    let text = include_str!("../../docs/examples/xiangqi-3g-record.json")
        .replace("\"reason\": \"checkmate\"", "\"reason\": \"no_move\"");
    let record: records::core::Record = serde_json::from_str(&text).unwrap();
    assert!(text.contains("no_move"));
    let verdict = records::games::validate(&record);
    assert!(verdict.valid, "{verdict:?}");
    let wrong = text.replace("\"reason\": \"no_move\"", "\"reason\": \"stalemate\"");
    let record: records::core::Record = serde_json::from_str(&wrong).unwrap();
    assert!(!records::games::validate(&record).valid, "it was checkmate");
}
