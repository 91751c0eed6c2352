//! Hand-checked games for the end rules and the history rules of RULES.md §1: elimination,
//! no legal action, no progress, both repetition rules, long chase, colours, layouts.

use records::core::Engine as _;
use records::core::{Outcome, Reason, Seat, Violation};
use records::games::banqi::{Color, Match};

mod common;
use common::banqi::{play_all, pos, rules};

#[test]
fn a_failed_dark_capture_can_eliminate_the_mover() {
    let full = rules("taiwan-full", "{}");
    let mut game = Match::from_position(full, pos("4/4/4/4/4/1X2/1R2/4 r k1 0 10"));
    game.play(&"b2-b3(k)".parse().unwrap()).unwrap();
    let end = game.end().unwrap();
    assert_eq!(
        (end.outcome, end.reason),
        (Outcome::win(Seat::SECOND, 2), Reason::ELIMINATION)
    );
}

#[test]
fn no_legal_action_loses() {
    let tcga = rules("tcga", "{}");
    let game = Match::from_position(tcga, pos("4/4/4/4/4/4/p3/Kp2 r - 0 10"));
    let end = game.end().unwrap();
    assert_eq!(
        (end.outcome, end.reason),
        (Outcome::win(Seat::SECOND, 2), Reason::NO_MOVE)
    );
    // Covered pieces can always be flipped.
    let game = Match::from_position(tcga, pos("4/4/4/4/4/4/p3/KpX1 r g1 0 10"));
    assert_eq!(game.end(), None);
}

#[test]
fn no_progress_draws_at_exactly_n() {
    let taiwan = rules("taiwan", "{}");
    let mut game = Match::from_position(taiwan, pos("k3/4/4/4/4/4/4/K3 r - 48 60"));
    play_all(&mut game, "a1-a2");
    assert_eq!(game.position().no_progress(), 49);
    assert_eq!(game.end(), None);
    play_all(&mut game, "a8-a7");
    let end = game.end().unwrap();
    assert_eq!(
        (end.outcome, end.reason),
        (Outcome::draw(2), Reason::NO_PROGRESS)
    );
    // A capture resets the counter.
    let mut game = Match::from_position(taiwan, pos("k3/4/4/4/4/4/p3/K3 r - 49 60"));
    assert!(
        Match::from_position(taiwan, pos("k3/4/4/4/4/4/p3/K3 r - 50 60"))
            .end()
            .is_some()
    );
    play_all(&mut game, "a1-b1");
    assert_eq!(game.end().unwrap().reason, Reason::NO_PROGRESS);
    let mut game = Match::from_position(taiwan, pos("k3/4/4/4/4/4/4/KP1p r - 49 60"));
    play_all(&mut game, "b1-c1");
    assert_eq!(game.end().unwrap().reason, Reason::NO_PROGRESS);
    let mut game = Match::from_position(taiwan, pos("k3/4/4/4/4/4/4/KPp1 r - 49 60"));
    play_all(&mut game, "b1-c1");
    assert_eq!(game.position().no_progress(), 0);
    assert_eq!(game.end(), None);
}

#[test]
fn cycle_repetition_draws_on_the_third_cycle() {
    let tcga = rules("tcga", "{}");
    let mut game = Match::from_position(tcga, pos("3k/4/4/4/4/4/4/K3 r - 0 10"));
    play_all(
        &mut game,
        "a1-a2 d8-d7 a2-a1 d7-d8  a1-a2 d8-d7 a2-a1 d7-d8  a1-a2 d8-d7 a2-a1",
    );
    assert_eq!(game.end(), None);
    play_all(&mut game, "d7-d8");
    let end = game.end().unwrap();
    assert_eq!(
        (end.outcome, end.reason, end.period),
        (Outcome::draw(2), Reason::REPETITION, Some(4))
    );
}

#[test]
fn position_repetition_draws_on_the_third_occurrence() {
    let olympiad = rules("olympiad", "{}");
    let mut game = Match::from_position(olympiad, pos("3k/4/4/4/4/4/4/K3 r - 0 10"));
    play_all(&mut game, "a1-a2 d8-d7 a2-a1 d7-d8  a1-a2 d8-d7 a2-a1");
    assert_eq!(game.end(), None);
    play_all(&mut game, "d7-d8");
    let end = game.end().unwrap();
    assert_eq!(
        (end.outcome, end.reason),
        (Outcome::draw(2), Reason::REPETITION)
    );
    // The same plies under tcga are only two cycles: no draw yet.
    let mut game = Match::from_position(rules("tcga", "{}"), pos("3k/4/4/4/4/4/4/K3 r - 0 10"));
    play_all(
        &mut game,
        "a1-a2 d8-d7 a2-a1 d7-d8  a1-a2 d8-d7 a2-a1 d7-d8",
    );
    assert_eq!(game.end(), None);
}

#[test]
fn the_tenth_consecutive_chase_is_illegal() {
    let gametower = rules("gametower", "{}");
    let start = "k3/3n/4/3R/4/4/4/K3 r - 0 10";
    // Red's chariot chases the black horse nine times; the horse runs between c7 and d7.
    let nine = "d5-d6 d7-c7 d6-c6 c7-d7 c6-d6 d7-c7 d6-c6 c7-d7 c6-d6 d7-c7 d6-c6 c7-d7 c6-d6 d7-c7 d6-c6 c7-d7 c6-d6 d7-c7";
    let mut game = Match::from_position(gametower, pos(start));
    play_all(&mut game, nine);
    let err = game.play(&"d6-c6".parse().unwrap()).unwrap_err();
    assert_eq!(err.reason, Violation::LONG_CHASE);
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    let legal: Vec<String> = legal.iter().map(|a| a.to_string()).collect();
    assert!(
        !legal.contains(&"d6-c6".to_owned()) && legal.contains(&"d6-d5".to_owned()),
        "{legal:?}"
    );
    // Without the rule the tenth chase is fine; and a bare position starts at zero.
    let mut free = Match::from_position(rules("taiwan", "{}"), pos(start));
    play_all(&mut free, &format!("{nine} d6-c6"));
    let fresh = Match::from_position(gametower, *game.position());
    fresh.clone().play(&"d6-c6".parse().unwrap()).unwrap();
    // A turn that chases nothing resets the count: chase 4 times, rest, then 9 more.
    let mut game = Match::from_position(gametower, pos(start));
    play_all(
        &mut game,
        "d5-d6 d7-c7 d6-c6 c7-d7 c6-d6 d7-c7 d6-c6 c7-d7 a1-a2 a8-b8",
    );
    play_all(
        &mut game,
        "c6-d6 d7-c7 d6-c6 c7-d7 c6-d6 d7-c7 d6-c6 c7-d7 c6-d6 d7-c7 d6-c6 c7-d7 c6-d6 d7-c7 d6-c6 c7-d7 c6-d6 d7-c7",
    );
    assert_eq!(
        game.play(&"d6-c6".parse().unwrap()).unwrap_err().reason,
        Violation::LONG_CHASE
    );
}

#[test]
fn first_flip_assigns_colours() {
    let tcga = rules("tcga", "{}");
    let mut game = Match::new(tcga);
    play_all(&mut game, "b8(p)");
    let p = game.position();
    assert_eq!(p.color_of(Seat::FIRST), Some(Color::Black));
    assert_eq!(p.turn(), Some(Color::Red));
    assert_eq!(
        p.to_string(),
        "XpXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX r K1G2M2R2N2C2P5k1g2m2r2n2c2p4 0 1"
    );
    // Player 2 may flip a black piece: only its own pieces matter for moving.
    play_all(&mut game, "a8(k) c8(R)");
    assert_eq!(
        game.play(&"b7-b6".parse().unwrap()).unwrap_err().reason,
        Violation::PIECE_COVERED
    );
    assert_eq!(
        game.play(&"a8-a7".parse().unwrap()).unwrap_err().reason,
        Violation::NOT_YOUR_PIECE
    );
    assert_eq!(
        game.play(&"c8-c7".parse().unwrap()).unwrap_err().reason,
        Violation::COVERED_TARGET
    );
}

#[test]
fn a_layout_must_fit_the_start_position() {
    use records::core::Record;
    use records::games::banqi::{Layout, Piece, Position};
    // One covered piece, a black general: a layout with anything else on a1 cannot be true.
    let start: Position = "4/4/4/4/4/4/4/X2K r k1 0 4".parse().unwrap();
    let mut letters: Vec<char> = "KGGMMRRNNCCPPPPPkggmmrrnnccppppp".chars().collect();
    let layout: Layout = letters.iter().collect::<String>().parse().unwrap();
    let mismatch = layout.fits(&start).unwrap_err();
    assert_eq!(
        (mismatch.square.to_string(), mismatch.piece),
        ("a1".into(), Piece::from_char('K').unwrap())
    );
    letters.swap(0, 16);
    let fitting: Layout = letters.iter().collect::<String>().parse().unwrap();
    assert_eq!(fitting.fits(&start), Ok(()));
    // In a record: an invalid record, before any ply.
    let mut record = Record::new("banqi", "tcga", vec![]);
    record.start = Some(start.to_string());
    record.layout = Some(layout.into());
    let verdict = records::games::validate(&record);
    assert_eq!(verdict.error.unwrap().code(), "layout_mismatch");
    record.layout = Some(fitting.into());
    assert!(records::games::validate(&record).valid);
}

/// RULES.md §1: a dark capture is judged as if it succeeded, even when the record's layout
/// shows it revealed an own piece. Red's chariot chases the black horse nine times (d7 ↔ d8
/// against c8 ↔ c7); the tenth chase is red's advisor attacking the covered b7, next to the
/// horse: were it an enemy piece, the advisor would stand on b7 chasing the horse. It is in
/// truth a red advisor (an own reveal, which resets the counts), yet the action is illegal.
#[test]
fn a_tenth_chase_by_a_dark_link_onto_an_own_piece_is_illegal() {
    use records::core::{Record, ReplayError};
    let start = "2n1/GX1R/4/4/4/4/4/K2k r G1 0 10";
    let mut letters: Vec<char> = "KGGMMRRNNCCPPPPPkggmmrrnnccppppp".chars().collect();
    letters.swap(1, 25); // a red advisor under b7
    let layout: String = letters.into_iter().collect();
    let nine = "d7-d8 c8-c7 d8-d7 c7-c8 d7-d8 c8-c7 d8-d7 c7-c8 d7-d8 c8-c7 d8-d7 c7-c8 d7-d8 c8-c7 d8-d7 c7-c8 d7-d8 c8-c7";
    let record = |tenth: &str| {
        let mut actions: Vec<String> = nine.split(' ').map(str::to_owned).collect();
        actions.push(tenth.to_owned());
        let mut r = Record::new("banqi", "gametower", actions);
        r.options = serde_json::from_str(r#"{"dark_capture": true}"#).unwrap();
        r.start = Some(start.to_owned());
        r.layout = Some(layout.clone().into());
        r
    };
    for tenth in ["a7-b7", "a7-b7(G)", "d8-d7"] {
        let verdict = records::games::validate(&record(tenth));
        let Some(ReplayError::IllegalPly { ply, reason, .. }) = verdict.error else {
            panic!("{tenth}: {verdict:?}");
        };
        assert_eq!((ply, reason), (19, Violation::LONG_CHASE), "{tenth}");
    }
    // The same dark capture is fine as a first chase: the rule, not the reveal, forbids it.
    let mut early = record("a7-b7");
    early.actions = vec!["a7-b7".into()];
    let verdict = records::games::validate(&early);
    assert!(verdict.valid, "{:?}", verdict.error);
    assert!(
        verdict.final_position.starts_with("2n1/GG1R/"),
        "an own reveal: the advisor stays"
    );
    // And the match lists neither tenth chase.
    let mut game =
        Match::from_position(rules("gametower", r#"{"dark_capture": true}"#), pos(start));
    play_all(&mut game, nine);
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    let legal: Vec<String> = legal.iter().map(|a| a.to_string()).collect();
    assert!(
        !legal.contains(&"a7-b7".to_owned()) && !legal.contains(&"d8-d7".to_owned()),
        "{legal:?}"
    );
    assert!(legal.contains(&"a7-a6".to_owned()), "{legal:?}");
}

/// Replay refuses a ply after the game ended with no legal action as `game_over` (not as the
/// ply's own fault): replay asks whether the side could move only when a ply is refused, so
/// this is the path that must still find the end. A refused ply in a game still going on
/// keeps its own reason; a ply after a no-progress draw is `game_over` too.
#[test]
fn a_ply_after_the_end_is_game_over_in_replay() {
    use records::core::{Record, ReplayError};
    let replay = |start: &str, preset: &str, actions: &[&str]| {
        let mut record = Record::new(
            "banqi",
            preset,
            actions.iter().map(|a| a.to_string()).collect(),
        );
        record.start = Some(start.to_owned());
        records::games::validate(&record)
    };
    let reason = |verdict: &records::core::Verdict| match &verdict.error {
        Some(ReplayError::IllegalPly { reason, ply, .. }) => (*ply, *reason),
        other => panic!("{other:?}"),
    };
    // Red's king is boxed in by pawns it may not take: no legal action.
    let stuck = replay("4/4/4/4/4/4/p3/Kp2 r - 0 10", "tcga", &["a1-b1"]);
    assert_eq!(reason(&stuck), (1, Violation::GAME_OVER));
    assert!(
        stuck
            .error
            .as_ref()
            .unwrap()
            .to_string()
            .contains("player 2 won by leaving no legal move"),
        "the ending in words: {stuck:?}"
    );
    // With a piece to flip, the same capture is refused for what it is.
    let going_on = replay("4/4/4/4/4/4/p3/KpX1 r g1 0 10", "tcga", &["a1-b1"]);
    assert_ne!(reason(&going_on).1, Violation::GAME_OVER);
    // A legal ply after a no-progress draw.
    let drawn = replay("k3/4/4/4/4/4/4/K3 r - 50 60", "taiwan", &["a1-a2"]);
    assert_eq!(reason(&drawn), (1, Violation::GAME_OVER));
}
