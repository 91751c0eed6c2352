//! Three Kingdoms Banqi (RULES.md §7), hand-checked positions: every piece's moves and
//! captures, the precise reason of illegal actions, faction claiming (with the automatic
//! third), passing, skipping seats that are out, each ending and the no-progress limit.
//!
//! Positions are written in the notation of docs/notation.md:
//! `<board rank 5…1> <factions> <to-move> <covered> <captured> <places> <no-progress> <ply>`.

use records::core::{Engine as _, Turn as _};
use records::core::{Reason, Violation};
use records::games::three_kingdoms::{Action, Ending, PRESETS, Position, Ruleset, START};

fn rules(ending: Ending) -> Ruleset {
    PRESETS
        .iter()
        .find(|p| p.ruleset.ending == ending)
        .unwrap()
        .ruleset
}

fn pos(text: &str) -> Position {
    text.parse()
        .unwrap_or_else(|e| panic!("{text:?} does not parse: {e}"))
}

fn actions(p: &Position, r: &Ruleset) -> Vec<String> {
    let mut out = Vec::new();
    p.legal_actions(r, &mut out);
    let mut names: Vec<String> = out.iter().map(|a| a.to_string()).collect();
    names.sort();
    names
}

fn sorted(names: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// Plays `moves` in order from `text`; the position string after them.
fn after(text: &str, r: &Ruleset, moves: &[&str]) -> Position {
    let mut p = pos(text);
    for m in moves {
        let action: Action = m.parse().unwrap();
        p.play(r, &action)
            .unwrap_or_else(|e| panic!("{m} at {p}: {e}"));
    }
    p
}

fn refused(text: &str, r: &Ruleset, action: &str) -> Violation {
    let mut p = pos(text);
    p.play(r, &action.parse().unwrap()).unwrap_err().reason
}

/// Seat 1 red (俥 e3, 相 e2, 傌 i1), seat 2 generals (將 a5, 兵 c3, a covered 卒 on a1),
/// seat 3 black (包 g3, 士 i5).
const PIECES: &str = "k7g/9/2P1R1c2/4M4/X7N rgb 1 p1 -/-/- --- 0 10";

#[test]
fn every_piece_moves_and_captures_as_the_seed_says() {
    let r = rules(Ending::Annihilation);
    // 俥 slides until a piece: up to e5, left to d3 then captures 兵 c3 (another faction),
    // right to f3 then captures 包 g3; down is its own 相. 相 jumps two diagonally: c4, g4.
    // 傌 the L from the corner: g2, h3. And the covered a1 can be flipped.
    assert_eq!(
        actions(&pos(PIECES), &r),
        sorted(&[
            "a1", "e3-e4", "e3-e5", "e3-d3", "e3-c3", "e3-f3", "e3-g3", "e2-c4", "e2-g4", "i1-g2",
            "i1-h3"
        ])
    );
    // 將 slides like a chariot: down to a2 (the covered a1 stops it: never captured), right
    // along rank 5 to h5 and captures 士 i5. 兵 steps one point orthogonally, any direction.
    let seat2 = PIECES.replace(" 1 p1", " 2 p1");
    assert_eq!(
        actions(&pos(&seat2), &r),
        sorted(&[
            "a1", "a5-a4", "a5-a3", "a5-a2", "a5-b5", "a5-c5", "a5-d5", "a5-e5", "a5-f5", "a5-g5",
            "a5-h5", "a5-i5", "c3-c2", "c3-c4", "c3-b3", "c3-d3"
        ])
    );
    // 包 slides to move, and captures 兵 c3 by jumping the one screen 俥 e3 (d3 empty
    // between). 士 one step diagonally: h4.
    let seat3 = PIECES.replace(" 1 p1", " 3 p1");
    assert_eq!(
        actions(&pos(&seat3), &r),
        sorted(&[
            "a1", "g3-f3", "g3-h3", "g3-i3", "g3-g4", "g3-g5", "g3-g2", "g3-g1", "g3-c3", "i5-h4"
        ])
    );
    // A capture: the piece leaves the board, is credited to the capturer, no-progress resets.
    let p = after(PIECES, &r, &["e3-g3"]);
    assert_eq!(
        p.to_string(),
        "k7g/9/2P3R2/4M4/X7N rgb 2 p1 c1/-/- --- 0 11"
    );
    assert_eq!(p.captured_points(records::core::Seat::FIRST), 40);
}

#[test]
fn illegal_actions_say_why() {
    let r = rules(Ending::Annihilation);
    let seat2 = PIECES.replace(" 1 p1", " 2 p1");
    let seat3 = PIECES.replace(" 1 p1", " 3 p1");
    let cases = [
        (PIECES, "e3-e2", Violation::OWN_PIECE),
        (PIECES, "e3-a3", Violation::BLOCKED),
        (PIECES, "e3-d4", Violation::UNREACHABLE),
        (PIECES, "e2-e4", Violation::UNREACHABLE),
        (PIECES, "c3-c4", Violation::NOT_YOUR_PIECE),
        (PIECES, "f3-f4", Violation::NO_SUCH_PIECE),
        (PIECES, "a1-a2", Violation::PIECE_COVERED),
        (PIECES, "e3(R)", Violation::NOT_COVERED),
        (PIECES, "a1", Violation::REVEAL_MISSING),
        (PIECES, "a1(K)", Violation::REVEAL_IMPOSSIBLE),
        (PIECES, "recall", Violation::RECALL_NOT_ALLOWED),
        (&seat2, "a5-a1", Violation::COVERED_TARGET),
        // 包 g3 to e3: the 俥 is two points away with nothing between: no screen.
        (&seat3, "g3-e3", Violation::CANNON_NEEDS_ONE_SCREEN),
        // To move (a3 is empty) a cannon slides: the pieces between block it.
        (&seat3, "g3-a3", Violation::BLOCKED),
    ];
    for (text, action, reason) in cases {
        assert_eq!(refused(text, &r, action), reason, "{action} at {text}");
    }
}

#[test]
fn flips_claim_factions_and_the_third_gets_the_last() {
    let r = rules(Ending::Annihilation);
    // Player 1 flips a 俥: the red faction is its.
    let p = after(START, &r, &["a1(R)"]);
    assert!(p.to_string().contains(" r-- 2 "), "{p}");
    // Player 2 flips a red 相: red is claimed, so player 2 stays without a faction, and can
    // only flip.
    let p = after(START, &r, &["a1(R)", "b1(M)"]);
    assert!(p.to_string().contains(" r-- 3 "), "{p}");
    let mut stuck = p;
    assert_eq!(
        stuck
            .play(&r, &"b1-b2".parse().unwrap())
            .unwrap_err()
            .reason,
        Violation::NO_FACTION
    );
    // Player 3 flips a 兵: generals. Two seats have factions: player 2 gets black at once.
    let p = after(START, &r, &["a1(R)", "b1(M)", "c1(P)"]);
    assert!(p.to_string().contains(" rbg 1 "), "{p}");
    // While only red is claimed, a revealed piece of another faction is nobody's.
    let p = after(
        START,
        &r,
        &["a1(R)", "b1(R)", "c1(M)", "d1(k)", "f1(G)", "g1(G)"],
    );
    assert!(p.to_string().contains(" r-- 1 "), "{p}");
    let mut q = p;
    assert_eq!(
        q.play(&r, &"d1-d2".parse().unwrap()).unwrap_err().reason,
        Violation::FACTION_UNCLAIMED
    );
}

#[test]
fn the_last_faction_given_with_no_piece_left_is_out_at_once() {
    let r = rules(Ending::Annihilation);
    // Player 1 (generals) captured the black faction's last piece before anyone claimed it.
    // Player 2 claims red with the last flip; player 3 gets black, which has nothing: out,
    // third. The turn skips it.
    let p = after("X8/9/9/9/K8 g-- 2 M1 m1/-/- --- 0 20", &r, &["a5(M)"]);
    assert_eq!(p.to_string(), "M8/9/9/9/K8 grb 1 - m1/-/- --3 0 21");
    assert!(p.end(&r).is_none());
}

#[test]
fn seats_without_a_faction_are_out_once_nothing_is_covered() {
    let r = rules(Ending::Annihilation);
    // Player 2 flips the last covered piece, a generals' 兵 (player 1's): players 2 and 3 can
    // never have a faction. Both are out, tied second; player 1 wins.
    let p = after("X8/9/9/9/K3r4 g-- 2 P1 -/-/- --- 3 30", &r, &["a5(P)"]);
    assert_eq!(p.to_string(), "P8/9/9/9/K3r4 g-- 1 - -/-/- -22 0 31");
    let end = p.end(&r).unwrap();
    assert_eq!(
        (end.outcome.to_string(), end.reason),
        ("player1>player2=player3".to_owned(), Reason::ELIMINATION)
    );
}

#[test]
fn a_seat_with_no_legal_action_passes() {
    // From a random game: player 3's 包 g4-i4 walls in player 1's only piece, the 炮 on i5
    // (h5 and i4 occupied, nothing beyond either screen). Player 1 passes: player 2 is next.
    let r = rules(Ending::Annihilation);
    let before = "7rC/2P3c2/9/9/1P7 rgb 3 - K1P1m2n2c1p1/G1M1R1N1C1g2r1/G1M1R1N1P2k1p4 --- 20 188";
    let p = after(before, &r, &["g4-i4"]);
    assert_eq!(
        p.to_string(),
        "7rC/2P5c/9/9/1P7 rgb 2 - K1P1m2n2c1p1/G1M1R1N1C1g2r1/G1M1R1N1P2k1p4 --- 21 189"
    );
    assert!(!p.has_action(&r, records::core::Seat::FIRST));
    // A position string that names a seat without an action to move is played on from the
    // next seat that has one, as play would have passed.
    let m = records::games::three_kingdoms::Match::from_position(
        r,
        pos("7rC/2P5c/9/9/1P7 rgb 1 - K1P1m2n2c1p1/G1M1R1N1C1g2r1/G1M1R1N1P2k1p4 --- 21 189"),
    );
    assert_eq!(m.pos.to_move(), records::core::Seat::SECOND);
}

#[test]
fn eliminated_seats_are_skipped_and_the_last_faction_standing_wins() {
    let r = rules(Ending::Annihilation);
    // 俥 a1 takes the generals' last piece, 將 c1: player 2 is out, third; player 3 is next.
    let p = after("8c/9/9/9/R1k6 rgb 1 - -/-/- --- 5 40", &r, &["a1-c1"]);
    assert_eq!(p.to_string(), "8c/9/9/9/2R6 rgb 3 - k1/-/- -3- 0 41");
    // After player 3, player 1 again: player 2 is skipped.
    let p = after(&p.to_string(), &r, &["i5-i4"]);
    assert_eq!(p.to_string(), "9/8c/9/9/2R6 rgb 1 - k1/-/- -3- 1 42");
    assert!(p.end(&r).is_none());
    // 俥 takes black's last piece: red stands alone.
    let p = after("9/9/9/9/R7c rgb 1 - k1/-/- -3- 0 50", &r, &["a1-i1"]);
    let end = p.end(&r).unwrap();
    assert_eq!(
        (end.outcome.to_string(), end.reason),
        ("player1>player3>player2".to_owned(), Reason::ELIMINATION)
    );
}

#[test]
fn recall_finishes_first_when_earned() {
    let r = rules(Ending::Recall);
    // Player 1 (red: 俥 a1, 相 b2 on the board, none covered) captured two 卒: it may recall.
    let at = "X8/9/9/1M7/R1Pc5 rgb 1 k1 p2/-/- --- 4 30";
    assert!(actions(&pos(at), &r).contains(&"recall".to_owned()));
    let p = after(at, &r, &["recall"]);
    assert_eq!(p.to_string(), "X8/9/9/9/2Pc5 rgb 2 k1 p2/-/- 1-- 0 31");
    assert!(p.end(&r).is_none(), "the other two play on");
    // Player 2's 兵 takes black's last piece: player 2 is second, player 3 third.
    let p = after(&p.to_string(), &r, &["c1-d1"]);
    let end = p.end(&r).unwrap();
    assert_eq!(
        (end.outcome.to_string(), end.reason),
        ("player1>player2>player3".to_owned(), Reason::RECALL)
    );
    // One capture is fewer than two pieces on the board.
    assert_eq!(
        refused("X8/9/9/1M7/R1Pc5 rgb 1 k1 p1/-/- --- 4 30", &r, "recall"),
        Violation::RECALL_NOT_EARNED
    );
    // A red piece still face down: nobody can tell it is player 1's.
    assert_eq!(
        refused("X8/9/9/1M7/R1Pc5 rgb 1 M1 p2/-/- --- 4 30", &r, "recall"),
        Violation::RECALL_COVERED
    );
    assert!(
        !actions(&pos("X8/9/9/1M7/R1Pc5 rgb 1 M1 p2/-/- --- 4 30"), &r)
            .contains(&"recall".to_owned())
    );
}

#[test]
fn the_points_ending_ranks_by_320_minus_lost_plus_captured() {
    // Player 2 (generals) captured 俥 and 車 (100); player 1 (red) captured 將 (50) and
    // takes 包 (40). Red 320 − 50 + 90 = 360, generals 320 − 50 + 100 = 370,
    // black 320 − 90 + 0 = 230.
    let at = "9/9/9/9/R7c rgb 1 - k1/R1r1/- -3- 0 50";
    let points = after(at, &rules(Ending::Points), &["a1-i1"]);
    let end = points.end(&rules(Ending::Points)).unwrap();
    assert_eq!(
        (end.outcome.to_string(), end.reason),
        ("player2>player1>player3".to_owned(), Reason::POINTS)
    );
    assert_eq!(
        [0, 1, 2].map(|i| points.points_score(records::core::Seat::new(i).unwrap())),
        [360, 370, 230]
    );
    // The same game under annihilation: the order of elimination decides.
    let annihilation = after(at, &rules(Ending::Annihilation), &["a1-i1"]);
    let end = annihilation.end(&rules(Ending::Annihilation)).unwrap();
    assert_eq!(end.outcome.to_string(), "player1>player3>player2");
}

#[test]
fn the_race_ends_at_200_captured_points() {
    let r = rules(Ending::Race);
    // Player 1 has 將 車 車 馬 = 180; 包 makes 220.
    let at = "8m/9/4P4/9/R7c rgb 1 - k1r2n1/-/- --- 0 50";
    assert!(pos(at).end(&r).is_none());
    let p = after(at, &r, &["a1-i1"]);
    let end = p.end(&r).unwrap();
    assert_eq!(
        (end.outcome.to_string(), end.reason),
        ("player1>player2=player3".to_owned(), Reason::RACE)
    );
    // The two others place by the points they captured (RULES.md §7, settled in issue 21;
    // they used to tie second): player 3 took a soldier (22), player 2 nothing.
    let at3 = "8m/9/4P4/9/R7c rgb 1 - k1r2n1/-/P1 --- 0 50";
    let end = after(at3, &r, &["a1-i1"]).end(&r).unwrap();
    assert_eq!(
        (end.outcome.to_string(), end.reason),
        ("player1>player3>player2".to_owned(), Reason::RACE)
    );
    // Not a race: the game goes on.
    assert!(
        after(at, &rules(Ending::Annihilation), &["a1-i1"])
            .end(&rules(Ending::Annihilation))
            .is_none()
    );
}

#[test]
fn the_no_progress_limit_ranks_the_seats_still_playing_by_points() {
    let r = rules(Ending::Annihilation);
    assert_eq!(r.no_progress, Some(90));
    // Player 3 captured the 帥 (black 370, red 320, generals 270). The 90th quiet ply ends it.
    let at = "8m/9/4P4/9/R7c rgb 1 - -/-/K1 --- 89 120";
    let p = after(at, &r, &["a1-a2"]);
    let end = p.end(&r).unwrap();
    assert_eq!(
        (end.outcome.to_string(), end.reason),
        ("player3>player1>player2".to_owned(), Reason::NO_PROGRESS)
    );
    // A flip or a capture resets the count: after a capture the game goes on.
    let p = after(at, &r, &["a1-i1"]);
    assert_eq!(p.no_progress(), 0);
    assert!(p.end(&r).is_none());
    // Under the race ending the seats still playing place by points captured (RULES.md §7,
    // settled in issue 21), not by score: player 2 took a 俥 (50), player 1 a 馬 (30), player
    // 3 a 仕 (20). By score (320 − lost + captured) it would be 370, 310 (player 3), 280.
    let race = rules(Ending::Race);
    let at = "8m/9/4P4/9/R7c rgb 1 - n1/R1/G1 --- 89 120";
    let end = after(at, &race, &["a1-a2"]).end(&race).unwrap();
    assert_eq!(
        (end.outcome.to_string(), end.reason),
        ("player2>player1>player3".to_owned(), Reason::NO_PROGRESS)
    );
}

#[test]
fn a_ruleset_and_a_position_must_agree_on_the_split() {
    use records::core::rules::parts::*;
    use records::games::three_kingdoms::{Split, ThreeKingdoms};
    let second = Ruleset {
        split: Split::Soldiers,
        ..rules(Ending::Annihilation)
    };
    // `rgb` are the first split's letters.
    assert!(ThreeKingdoms::position_fits(&second, &pos(PIECES)).is_err());
    assert!(ThreeKingdoms::position_fits(&rules(Ending::Annihilation), &pos(PIECES)).is_ok());
    // Under the second split a 俥 belongs to the armies (`a`), a 將 to the commanders (`c`).
    let mut p = records::games::three_kingdoms::Match::from_position(second, pos(START)).pos;
    for m in ["a1(R)", "b1(k)"] {
        p.play(&second, &m.parse().unwrap()).unwrap();
    }
    assert!(p.to_string().contains(" acs 3 "), "{p}");
}
