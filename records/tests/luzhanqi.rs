//! Luzhanqi (RULES.md §8), hand-checked: every movement and combat rule, each ruleset option,
//! the flip game's flag rules, setups and their violations, the dark view.

use records::core::rules::parts::*;
use records::core::{Reason, Seat, Violation};
use records::games::luzhanqi::{
    Action, Combat, Effect, Layout, Luzhanqi, Match, MineRule, Mode, Mountains, PRESETS, Piece,
    Point, Position, Railway, Ruleset, Side, SideSetup,
};

fn rules(mode: Mode) -> Ruleset {
    Ruleset {
        mode,
        ..Ruleset::DARK
    }
}

/// A position from pieces on points (`("c6", 'C')`), `turn` r or b, the rest of the fields
/// given after the board.
fn position(pieces: &[(&str, char)], tail: &str) -> Position {
    let mut cells = [['1'; 5]; 12];
    let mut mountains = ['-', '-'];
    for (p, c) in pieces {
        let point: Point = p.parse().unwrap();
        if point.is_mountain() {
            mountains[point.index() - 60] = *c;
        } else {
            cells[point.rank() as usize][point.file() as usize] = *c;
        }
    }
    let board: Vec<String> = (0..12)
        .rev()
        .map(|r| {
            let mut s = String::new();
            let mut empty = 0;
            for c in cells[r] {
                if c == '1' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(c);
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            s
        })
        .collect();
    let text = format!(
        "{} {}{} {tail}",
        board.join("/"),
        mountains[0],
        mountains[1]
    );
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The destinations of the piece on `from`, sorted.
fn targets(pos: &Position, rules: &Ruleset, from: &str) -> Vec<String> {
    let from: Point = from.parse().unwrap();
    let reach = pos.reach(rules, from);
    let mut v: Vec<String> = (reach.moves | reach.attacks)
        .map(|p| p.to_string())
        .collect();
    v.sort();
    v
}

fn play(pos: &mut Position, rules: &Ruleset, action: &str) -> Result<Effect, Violation> {
    pos.play(rules, &action.parse::<Action>().unwrap())
        .map_err(|e| e.reason)
}

const RED: &str = "r - - 0 10";

#[test]
fn a_rail_run_stops_at_the_first_enemy_and_never_turns() {
    // A colonel on a2 runs up file a and along rank 2; black pieces on a6 and d2.
    let r = rules(Mode::Open);
    let pos = position(
        &[
            ("a2", 'C'),
            ("a6", 'p'),
            ("d2", 't'),
            ("a12", 'f'),
            ("e1", 'F'),
        ],
        RED,
    );
    assert_eq!(
        targets(&pos, &r, "a2"),
        ["a1", "a3", "a4", "a5", "a6", "b2", "b3", "c2", "d2"],
        "straight up to a6 (attack) and along rank 2 to d2 (attack); b3 is a camp diagonal… not from a2"
    );
}

#[test]
fn engineers_turn_on_the_railway() {
    let r = rules(Mode::Open);
    // An engineer on a2: around the corner to e2…e11 and up file a, through empty stations,
    // attacking the first enemy met (b11).
    let pos = position(
        &[("a2", 'E'), ("b11", 'p'), ("a12", 'F'), ("b12", 'f')],
        RED,
    );
    let t = targets(&pos, &r, "a2");
    for p in ["e11", "d11", "c11", "b11", "a11", "e6", "d7", "c6", "c7"] {
        assert!(t.contains(&p.to_string()), "{p} in {t:?}");
    }
    assert!(!t.contains(&"a12".to_string()), "a12 is not on the railway");
    // A colonel in the same place does not turn.
    let pos = position(
        &[("a2", 'C'), ("b11", 'p'), ("a12", 'F'), ("b12", 'f')],
        RED,
    );
    assert!(!targets(&pos, &r, "a2").contains(&"e11".to_string()));
    // With the three-station rule a colonel turns, at most three stations away.
    let three = Ruleset {
        railway: Railway::ThreeWithTurns,
        ..r
    };
    let t = targets(&pos, &three, "a2");
    assert!(t.contains(&"c2".to_string()) && t.contains(&"a5".to_string()));
    assert!(!t.contains(&"a6".to_string()) && !t.contains(&"e2".to_string()));
}

#[test]
fn camps_protect_and_occupied_camps_are_closed() {
    let r = rules(Mode::Open);
    // Red colonel on c3; black piece in the camp c4, red piece in the camp b3.
    let mut pos = position(
        &[
            ("c3", 'C'),
            ("c4", 'p'),
            ("b3", 'T'),
            ("a12", 'F'),
            ("b12", 'f'),
        ],
        RED,
    );
    assert_eq!(
        play(&mut pos.clone(), &r, "c3-c4"),
        Err(Violation::CAMP_PROTECTED)
    );
    assert_eq!(
        play(&mut pos.clone(), &r, "c3-b3"),
        Err(Violation::OWN_PIECE)
    );
    // The piece in the camp moves out along a diagonal.
    let t = targets(&pos, &r, "b3");
    assert_eq!(t, ["a2", "a3", "a4", "b2", "b4", "c2"]);
    assert_eq!(play(&mut pos, &r, "c3-d3"), Ok(Effect::Move));
}

#[test]
fn a_piece_in_a_headquarters_stays_there_except_in_flip_games() {
    let open = rules(Mode::Open);
    let pos = position(&[("b1", 'G'), ("d1", 'F'), ("b12", 'f')], RED);
    assert_eq!(
        play(&mut pos.clone(), &open, "b1-b2"),
        Err(Violation::FROZEN_IN_HEADQUARTERS)
    );
    // Red has no other piece that moves: it has lost.
    let end = pos.end(&open).unwrap();
    assert_eq!(
        (end.reason, end.outcome.winner()),
        (Reason::NO_MOVE, Some(Seat::SECOND))
    );
    let flip = rules(Mode::Flip);
    assert_eq!(play(&mut pos.clone(), &flip, "b1-b2"), Ok(Effect::Move));
}

#[test]
fn mines_and_the_flag_never_move() {
    let r = rules(Mode::Open);
    let pos = position(&[("a1", 'L'), ("b1", 'F'), ("c2", 'E'), ("b12", 'f')], RED);
    assert_eq!(
        play(&mut pos.clone(), &r, "a1-a2"),
        Err(Violation::IMMOBILE)
    );
    assert_eq!(
        play(&mut pos.clone(), &r, "b1-b2"),
        Err(Violation::IMMOBILE)
    );
}

#[test]
fn every_row_of_the_combat_table() {
    let r = rules(Mode::Open);
    let both = Ruleset {
        mine: MineRule::BothDie,
        ..r
    };
    // (attacker, defender, ruleset, outcome, what stands on c7 after)
    let rows: &[(char, char, &Ruleset, Combat, Option<char>)] = &[
        ('G', 'd', &r, Combat::Win, Some('G')),
        ('T', 'p', &r, Combat::Loss, Some('p')),
        ('C', 'c', &r, Combat::Both, None),
        ('B', 'm', &r, Combat::Both, None),
        ('M', 'b', &r, Combat::Both, None),
        ('E', 'l', &r, Combat::Win, Some('E')),
        ('B', 'l', &r, Combat::Both, None),
        ('M', 'l', &r, Combat::Loss, Some('l')),
        ('M', 'l', &both, Combat::Both, None),
    ];
    for (attacker, defender, rules, combat, after) in rows {
        let mut pos = position(
            &[
                ("c6", *attacker),
                ("c7", *defender),
                ("a1", 'F'),
                ("a12", 'f'),
            ],
            RED,
        );
        let effect = play(&mut pos, rules, "c6-c7").unwrap();
        assert!(
            matches!(effect, Effect::Attack { combat: c, .. } if c == *combat),
            "{attacker} on {defender}: {effect:?}"
        );
        let there = pos.piece("c7".parse().unwrap()).map(|p| p.char());
        assert_eq!(there, *after, "{attacker} on {defender}");
    }
}

#[test]
fn capturing_the_flag_wins_and_a_bomb_may_do_it() {
    let r = rules(Mode::Dark);
    for attacker in ['E', 'B'] {
        let mut pos = position(
            &[("c6", attacker), ("c7", 'f'), ("b1", 'F'), ("e12", 'p')],
            RED,
        );
        play(&mut pos, &r, "c6-c7").unwrap();
        let end = pos.end(&r).unwrap();
        assert_eq!(
            (end.reason, end.outcome.winner()),
            (Reason::FLAG_CAPTURED, Some(Seat::FIRST))
        );
    }
}

#[test]
fn the_mountains_open_by_option() {
    let closed = rules(Mode::Open);
    let engineers = Ruleset {
        mountains: Mountains::Engineers,
        ..closed
    };
    let any = Ruleset {
        mountains: Mountains::Any,
        ..closed
    };
    let pos = position(&[("b6", 'E'), ("a6", 'C'), ("b1", 'F'), ("b12", 'f')], RED);
    assert!(!targets(&pos, &closed, "b6").contains(&"bm".to_string()));
    assert!(targets(&pos, &engineers, "b6").contains(&"bm".to_string()));
    assert!(!targets(&pos, &engineers, "a6").contains(&"bm".to_string()));
    assert!(targets(&pos, &any, "a6").contains(&"bm".to_string()));
    // From the mountain: any empty station around it, no attack; nobody attacks it.
    let mut pos = position(&[("bm", 'C'), ("a7", 'p'), ("b1", 'F'), ("b12", 'f')], RED);
    assert_eq!(targets(&pos, &any, "bm"), ["a6", "b6", "b7", "c6", "c7"]);
    let mut black = position(
        &[("bm", 'C'), ("a7", 'p'), ("b1", 'F'), ("b12", 'f')],
        "b - - 0 9",
    );
    assert_eq!(
        play(&mut black, &any, "a7-bm"),
        Err(Violation::CAMP_PROTECTED)
    );
    assert_eq!(play(&mut pos, &any, "bm-b7"), Ok(Effect::Move));
}

/// A legal red setup (ranks 6 down to 1) and its mirror for black (ranks 12 down to 7).
const RED_SETUP: &str = "RTETR/C1E1J/DP1PT/E1G1J/LCMBP/LFLDB";
const BLACK_SETUP: &str = "lfldb/lcmbp/e1g1j/dp1pt/c1e1j/rtetr";

#[test]
fn setups_are_checked_with_a_reason_each() {
    let red = SideSetup::parse(Side::Red, RED_SETUP).expect("legal");
    assert_eq!(red.to_string(), RED_SETUP, "a setup round-trips");
    let black = SideSetup::parse(Side::Black, BLACK_SETUP).expect("legal");
    assert_eq!(black.to_string(), BLACK_SETUP);
    let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(1);
    for _ in 0..200 {
        for side in [Side::Red, Side::Black] {
            let random = SideSetup::random(side, &mut rng);
            assert_eq!(SideSetup::parse(side, &random.to_string()), Ok(random));
        }
    }
    // One rule broken at a time.
    let broken = [
        (
            "RTETR/C1E1J/DP1PT/E1G1J/LCMBP/LFLDB/X",
            "malformed_setup",
            "",
        ),
        ("RTETR/C1E1J/DP1PT/E1G1J/LCMBP/LFLD", "malformed_setup", ""),
        ("RTETR/C1E1J/DP1PT/E1G1J/LCMBP/LFLDQ", "malformed_setup", ""),
        ("RTETR/C1E1J/DP1PT/E1G1J/LCMBP/LPLDB", "wrong_count", ""),
        ("RTETR/CE2J/DP1PT/E1G1J/LCMBP/LFLDB", "piece_in_camp", "b5"),
        (
            "RTETR/C1E1J/DP1PT/E1G1J/LCMBP/FLLDB",
            "flag_not_in_headquarters",
            "a1",
        ),
        (
            "RTLTR/C1E1J/DP1PT/E1G1J/ECMBP/LFLDB",
            "mine_off_back_ranks",
            "c6",
        ),
        (
            "RTBTR/C1E1J/DP1PT/E1G1J/LCMBP/LFLDE",
            "bomb_on_front_rank",
            "c6",
        ),
    ];
    for (text, code, point) in broken {
        let e = SideSetup::parse(Side::Red, text).unwrap_err();
        assert_eq!(e.code, code, "{text}: {e}");
        if !point.is_empty() {
            assert_eq!(e.point.as_deref(), Some(point), "{text}");
        }
    }
    // Black's rules are mirrored: its back ranks are 11 and 12, its front rank 7.
    let e = SideSetup::parse(Side::Black, "lfldb/lcmbp/e1g1j/dp1pt/c1e1j/rtbtr").unwrap_err();
    assert_eq!(e.code, "wrong_count");
    let e = SideSetup::parse(Side::Black, "lfldb/ecmbp/e1g1j/dp1pt/c1e1j/rtltr").unwrap_err();
    assert_eq!(
        (e.code, e.point.as_deref()),
        ("mine_off_back_ranks", Some("c7"))
    );
}

#[test]
fn a_dark_game_starts_from_the_setups_and_hides_the_enemy() {
    let red = SideSetup::parse(Side::Red, RED_SETUP).unwrap();
    let black = SideSetup::parse(Side::Black, BLACK_SETUP).unwrap();
    let layout = Layout::Setups { red, black };
    let start = Luzhanqi::start(&PRESETS[0].ruleset, Some(&layout)).unwrap();
    assert_eq!(
        start.to_string(),
        "lfldb/lcmbp/e1g1j/dp1pt/c1e1j/rtetr/RTETR/C1E1J/DP1PT/E1G1J/LCMBP/LFLDB -- r - - 0 0"
    );
    assert!(Luzhanqi::start(&PRESETS[0].ruleset, None).is_err());
    let m = Match::from_position(PRESETS[0].ruleset, start);
    let view = serde_json::to_string(&Luzhanqi::view(&m, Seat::FIRST)).unwrap();
    assert!(view.contains("\"side\":\"red\""), "{view}");
    let seen = Luzhanqi::view(&m, Seat::FIRST);
    assert_eq!(seen.board[0], "?????");
    assert_eq!(seen.board[11], "LFLDB");
    assert_eq!(seen.board[6], "RTETR");
    assert!(
        !seen.position.contains('f'),
        "no black identity: {}",
        seen.position
    );
}

#[test]
fn a_dead_marshal_shows_its_flag_in_a_dark_game() {
    let dark = rules(Mode::Dark);
    // Red bomb on c6 takes black's marshal on c7 (both die); black's flag on b12 is shown.
    let pos = position(
        &[
            ("c6", 'B'),
            ("c7", 'm'),
            ("b12", 'f'),
            ("e12", 'p'),
            ("b1", 'F'),
            ("e1", 'P'),
        ],
        RED,
    );
    let mut m = Match::from_position(dark, pos);
    let before = Luzhanqi::view(&m, Seat::FIRST);
    assert_eq!(before.board[0], "-?--?");
    m.play(&"c6-c7".parse().unwrap()).unwrap();
    let after = Luzhanqi::view(&m, Seat::FIRST);
    assert_eq!(after.board[0], "-f--?", "the flag, and only the flag");
    assert_eq!(after.announcements.len(), 1);
    assert_eq!(after.announcements[0].result, "both_die");
    let no_reveal = Ruleset {
        flag_reveal: false,
        ..dark
    };
    let mut m = Match::from_position(
        no_reveal,
        position(
            &[
                ("c6", 'B'),
                ("c7", 'm'),
                ("b12", 'f'),
                ("e12", 'p'),
                ("b1", 'F'),
                ("e1", 'P'),
            ],
            RED,
        ),
    );
    m.play(&"c6-c7".parse().unwrap()).unwrap();
    assert_eq!(Luzhanqi::view(&m, Seat::FIRST).board[0], "-?--?");
    // Black sees all its own pieces and none of red's.
    assert_eq!(Luzhanqi::view(&m, Seat::SECOND).board[11], "-?--?");
}

fn flip_pos(pieces: &[(&str, char)], tail: &str) -> Position {
    position(pieces, tail)
}

#[test]
fn flip_games_colours_come_from_the_first_flip() {
    let r = rules(Mode::Flip);
    let mut pos: Position = records::games::luzhanqi::FLIP_START.parse().unwrap();
    assert_eq!(pos.turn(), None);
    assert_eq!(
        play(&mut pos, &r, "c6(p)"),
        Ok(Effect::Flip {
            piece: Piece::from_char('p').unwrap()
        })
    );
    // Player 1 turned up a black piece: it plays black; red (player 2) is to move.
    assert_eq!(pos.turn(), Some(Side::Red));
    assert_eq!(pos.side_of(Seat::FIRST), Some(Side::Black));
    assert_eq!(
        play(&mut pos.clone(), &r, "c6-c5"),
        Err(Violation::NOT_YOUR_PIECE)
    );
    assert_eq!(
        play(&mut pos.clone(), &r, "c5"),
        Err(Violation::REVEAL_MISSING)
    );
}

#[test]
fn flip_games_attack_face_down_pieces() {
    let r = rules(Mode::Flip);
    // Red colonel on c5 next to face-down pieces on c6, b6 (railway) and d6.
    let base = flip_pos(
        &[
            ("c5", 'C'),
            ("c6", 'X'),
            ("b6", 'X'),
            ("d6", 'X'),
            ("a1", 'X'),
        ],
        "r P1t1l1f1 - 0 10",
    );
    let mut pos = base;
    // An own piece is simply turned up; the attacker stays.
    assert_eq!(
        play(&mut pos, &r, "c5-c6(P)"),
        Ok(Effect::Reveal {
            piece: Piece::from_char('P').unwrap()
        })
    );
    assert_eq!(
        pos.piece("c5".parse().unwrap()).map(|p| p.char()),
        Some('C')
    );
    // An enemy is fought: the colonel beats a lieutenant.
    let mut pos = base;
    assert!(matches!(
        play(&mut pos, &r, "c5-c6(t)"),
        Ok(Effect::Attack {
            combat: Combat::Win,
            revealed: true,
            ..
        })
    ));
    // A face-down mine kills a colonel (the mine option), a face-down flag is only shown.
    let mut pos = base;
    assert!(matches!(
        play(&mut pos, &r, "c5-c6(l)"),
        Ok(Effect::Attack {
            combat: Combat::Loss,
            ..
        })
    ));
    let mut pos = base;
    assert!(matches!(
        play(&mut pos, &r, "c5-c6(f)"),
        Ok(Effect::Reveal { .. })
    ));
    // Face up, the mine is untouchable but to an engineer or a bomb.
    assert_eq!(play(&mut pos, &r, "a1(l)").map(|_| ()), Ok(()));
    let mut pos = flip_pos(&[("c5", 'C'), ("c6", 'l'), ("b1", 'F'), ("b12", 'f')], RED);
    assert_eq!(
        play(&mut pos, &r, "c5-c6"),
        Err(Violation::MINE_UNTOUCHABLE)
    );
}

#[test]
fn flip_games_carry_the_flag_home() {
    let r = rules(Mode::Flip);
    // Black has no mine left; red's lowest face-up piece is the lieutenant on c10 next to
    // black's flag on c11; the captain on a10 may not carry it.
    let start = flip_pos(
        &[
            ("c10", 'T'),
            ("b11", 'P'),
            ("c11", 'f'),
            ("e12", 'c'),
            ("b1", 'F'),
            ("e1", 'C'),
        ],
        RED,
    );
    let mut pos = start;
    assert_eq!(
        play(&mut pos.clone(), &r, "b11-c11"),
        Err(Violation::FLAG_NOT_CARRIABLE)
    );
    assert_eq!(play(&mut pos, &r, "c10-c11"), Ok(Effect::Pickup));
    assert_eq!(pos.to_string().split(' ').nth(4), Some("f^c11"));
    // It carries the flag as it moves…
    play(&mut pos, &r, "e12-d12").unwrap();
    assert_eq!(play(&mut pos, &r, "c11-c10"), Ok(Effect::Move));
    assert_eq!(pos.flag_point(Side::Black), Some("c10".parse().unwrap()));
    assert_eq!(
        pos.cell("c11".parse().unwrap()),
        records::games::luzhanqi::Cell::Empty,
        "carried, not left behind"
    );
    assert_eq!(
        pos.to_string().parse::<Position>(),
        Ok(pos),
        "one black flag"
    );
    // …drops it at will (a ply), and the flag lies on its point when it leaves.
    play(&mut pos, &r, "d12-c12").unwrap();
    assert_eq!(play(&mut pos, &r, "drop"), Ok(Effect::Drop));
    play(&mut pos, &r, "c12-d12").unwrap();
    play(&mut pos, &r, "c10-c9").unwrap();
    assert_eq!(
        pos.piece("c10".parse().unwrap()).map(|p| p.char()),
        Some('f')
    );
    // With mines left, nobody carries.
    let mined = flip_pos(
        &[
            ("c10", 'T'),
            ("c11", 'f'),
            ("a12", 'l'),
            ("e12", 'c'),
            ("b1", 'F'),
            ("e1", 'C'),
        ],
        RED,
    );
    assert_eq!(
        play(&mut mined.clone(), &r, "c10-c11"),
        Err(Violation::FLAG_NOT_CARRIABLE)
    );
    // Carried into its own headquarters, the flag wins.
    let mut home = flip_pos(
        &[("b2", 'T'), ("e12", 'c'), ("d1", 'F'), ("e1", 'C')],
        "r - f^b2 0 30",
    );
    play(&mut home, &r, "b2-b1").unwrap();
    let end = home.end(&r).unwrap();
    assert_eq!(
        (end.reason, end.outcome.winner()),
        (Reason::FLAG_CARRIED, Some(Seat::FIRST))
    );
}

/// Issue 21 (RULES.md §8's settled points): a flag lying alone in a camp does not block a
/// piece allowed to carry it: that piece moves there and picks it up; any other is told why.
#[test]
fn a_flag_dropped_in_a_camp_is_picked_up_again() {
    let r = rules(Mode::Flip);
    // Black's flag lies alone in black's camp b10; red's lieutenant on b11 is its lowest
    // face-up piece; the captain on a10 is not.
    let start = flip_pos(
        &[
            ("b11", 'T'),
            ("a10", 'P'),
            ("b10", 'f'),
            ("e12", 'c'),
            ("b1", 'F'),
            ("e1", 'C'),
        ],
        RED,
    );
    assert_eq!(
        play(&mut start.clone(), &r, "a10-b10"),
        Err(Violation::FLAG_NOT_CARRIABLE)
    );
    let mut pos = start;
    let mut listed = Vec::new();
    pos.legal_actions(&r, &mut listed);
    assert!(
        listed.iter().any(|a| a.to_string() == "b11-b10"),
        "{listed:?}"
    );
    assert_eq!(play(&mut pos, &r, "b11-b10"), Ok(Effect::Pickup));
    assert_eq!(pos.to_string().split(' ').nth(4), Some("f^b10"));
}

#[test]
fn a_carrier_drops_the_flag_to_attack_and_its_captor_cannot_move_it() {
    let r = rules(Mode::Flip);
    // Red's lieutenant on c9 carries black's flag; it attacks the engineer on c8 and wins:
    // the flag stays on c9.
    let mut pos = flip_pos(
        &[
            ("c9", 'T'),
            ("c8", 'e'),
            ("e12", 'c'),
            ("b1", 'F'),
            ("e1", 'C'),
        ],
        "r - f^c9 0 30",
    );
    assert!(matches!(
        play(&mut pos, &r, "c9-c8"),
        Ok(Effect::Attack {
            combat: Combat::Win,
            ..
        })
    ));
    assert_eq!(
        pos.piece("c9".parse().unwrap()).map(|p| p.char()),
        Some('f')
    );
    // Black's colonel captures a carrier: the flag lies under it, and stays when it leaves.
    let mut pos = flip_pos(
        &[
            ("c7", 'T'),
            ("c8", 'c'),
            ("e12", 'c'),
            ("b1", 'F'),
            ("e1", 'C'),
        ],
        "b - f^c7 0 31",
    );
    assert!(matches!(
        play(&mut pos, &r, "c8-c7"),
        Ok(Effect::Attack {
            combat: Combat::Win,
            ..
        })
    ));
    assert_eq!(pos.to_string().split(' ').nth(4), Some("f@c7"));
    play(&mut pos, &r, "e1-e2").unwrap();
    play(&mut pos, &r, "c7-c6").unwrap();
    assert_eq!(
        pos.piece("c7".parse().unwrap()).map(|p| p.char()),
        Some('f')
    );
    assert_eq!(
        pos.piece("c6".parse().unwrap()).map(|p| p.char()),
        Some('c')
    );
}

#[test]
fn position_strings_and_actions_round_trip_and_errors_are_typed() {
    for text in [
        records::games::luzhanqi::FLIP_START,
        "lfldb/lcmbp/e1g1j/dp1pt/c1e1j/rtetr/RTETR/C1E1J/DP1PT/E1G1J/LCMBP/LFLDB -- r - - 0 0",
        "5/5/5/5/5/5/5/5/5/5/1T3/1F2C C- r - f^b2 3 30",
    ] {
        let pos: Position = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(pos.to_string(), text);
    }
    for bad in [
        "5/5/5 -- r - - 0 0",
        "5/5/5/5/5/5/5/5/5/5/5/5 -- x - - 0 0",
        "5/5/5/5/5/5/5/5/5/5/5/6 -- r - - 0 0",
        "5/5/5/5/5/5/5/5/5/5/5/5 -- r - f^zz 0 0",
        "5/5/5/5/5/5/5/5/5/5/5/5 -- r - - 5 1",
        "X4/5/5/5/5/5/5/5/5/5/5/5 -- r - - 0 0",
        "5/5/5/5/5/5/5/5/5/5/5/MMM2 -- r - - 0 0",
    ] {
        assert!(bad.parse::<Position>().is_err(), "{bad}");
    }
    for text in [
        "c5(M)", "c5", "a2-a3", "a2-a3(g)", "drop", "b6-bm", "bm-c7", "e11-e12",
    ] {
        assert_eq!(text.parse::<Action>().unwrap().to_string(), text);
    }
    for bad in [
        "",
        "a2-a2",
        "a2-",
        "f1",
        "c5(Q)",
        "a2-a3(gg)",
        "a13",
        "drop!",
    ] {
        assert!(bad.parse::<Action>().is_err(), "{bad:?}");
    }
}

#[test]
fn no_error_names_a_piece_its_mover_may_not_know() {
    // Red tries to move or attack with black's pieces and into black's camp: the errors say
    // why without naming a black piece.
    let dark = rules(Mode::Dark);
    let pos = position(
        &[
            ("c6", 'C'),
            ("c7", 'm'),
            ("c9", 'g'),
            ("c8", 'T'),
            ("b12", 'f'),
            ("b1", 'F'),
        ],
        RED,
    );
    for (action, code) in [
        ("c7-c6", Violation::NOT_YOUR_PIECE),
        ("c8-c9", Violation::CAMP_PROTECTED),
        ("c6-c9", Violation::UNREACHABLE),
    ] {
        let e = pos
            .clone()
            .play(&dark, &action.parse().unwrap())
            .unwrap_err();
        assert_eq!(e.reason, code, "{action}");
        for black in ["m", "g", "f", "司令", "軍長"] {
            for shown in [
                format!("{black} on"),
                format!(" {black} "),
                format!("{black}'s"),
            ] {
                assert!(!e.detail.contains(&shown), "{action}: {}", e.detail);
            }
        }
    }
}

#[test]
fn the_draw_limits_end_quiet_games() {
    // Two colonels walk; after `no_progress` quiet plies the game is drawn; an attack resets
    // the count; the ply cap draws whatever happens.
    let quiet = Ruleset {
        no_progress: Some(4),
        max_plies: None,
        ..rules(Mode::Open)
    };
    let mut pos = position(
        &[("c3", 'C'), ("c10", 'c'), ("b1", 'F'), ("b12", 'f')],
        "r - - 0 0",
    );
    for action in ["c3-c2", "c10-c11", "c2-c3"] {
        play(&mut pos, &quiet, action).unwrap();
        assert!(pos.end(&quiet).is_none());
    }
    play(&mut pos, &quiet, "c11-c10").unwrap();
    let end = pos.end(&quiet).unwrap();
    assert_eq!(
        (end.reason, end.outcome.is_draw()),
        (Reason::NO_PROGRESS, true)
    );
    let off = Ruleset {
        no_progress: None,
        ..quiet
    };
    assert!(pos.end(&off).is_none());
    // An attack resets the count.
    let mut pos = position(
        &[
            ("c6", 'C'),
            ("c7", 't'),
            ("a7", 'p'),
            ("b1", 'F'),
            ("b12", 'f'),
        ],
        "r - - 3 13",
    );
    play(&mut pos, &quiet, "c6-c7").unwrap();
    assert_eq!(pos.no_progress(), 0);
    // The ply cap.
    let capped = Ruleset {
        max_plies: Some(14),
        ..off
    };
    play(&mut pos, &capped, "a7-a6").unwrap();
    let end = pos.end(&capped).unwrap();
    assert_eq!(end.reason, Reason::PLY_LIMIT);
}

#[test]
fn a_position_fits_its_mode() {
    let open = rules(Mode::Open);
    let flip = rules(Mode::Flip);
    let red_even = position(&[("c3", 'C'), ("b1", 'F'), ("b12", 'f')], "r - - 0 10");
    assert!(Luzhanqi::position_fits(&open, &red_even).is_ok());
    // Player 1 is red in open and dark games: black cannot move at an even ply.
    let black_even = position(&[("c3", 'C'), ("b1", 'F'), ("b12", 'f')], "b - - 0 10");
    assert!(Luzhanqi::position_fits(&open, &black_even).is_err());
    assert!(Luzhanqi::position_fits(&flip, &black_even).is_ok());
    // Face-down pieces belong to flip games.
    let start: Position = records::games::luzhanqi::FLIP_START.parse().unwrap();
    assert!(Luzhanqi::position_fits(&open, &start).is_err());
    let mut record = records::core::Record::new("luzhanqi", "open", vec![]);
    record.start = Some(black_even.to_string());
    assert_eq!(
        records::games::validate(&record).error.unwrap().code(),
        "invalid_start"
    );
}
