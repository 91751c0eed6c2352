//! The information-set engine of Three Kingdoms, Luzhanqi and xiangqi-3g
//! (`records::core::ismcts`, docs/engine.md): hand-made wins found, the flag taken in two
//! whether its holder is seen or only worked out, answers the same for the same node limit,
//! limits obeyed, a finished game answered without an action, draws only from what the seat
//! may know (the views test checks the answers under disguised truths for every game).

use records::core::analysis::{Analysis, Limits, Search};
use records::core::rules::parts::*;
use records::core::{Reason, Seat};
use records::games::GameKind;
use records::games::luzhanqi::{self, Luzhanqi, Mode};
use records::games::three_kingdoms::{self, ThreeKingdoms};
use records::games::xiangqi::{self, Xiangqi3g};
use records::with_game;

fn nodes(n: u64) -> Limits {
    Limits {
        nodes: Some(n),
        ..Limits::default()
    }
}

#[test]
fn a_chariot_mates_in_one() {
    // Black's general on d9; the chariot on a8 holds rank 8, b0-b9 closes rank 9.
    let pos: xiangqi::Position = "3k5/R8/9/9/9/9/9/9/9/1R3K3 w - - 0 1".parse().unwrap();
    let m = xiangqi::Match::from_position(xiangqi::Ruleset::THIRD_GENERATION, pos);
    let answer = Xiangqi3g::analyze(&m, None, &nodes(20_000)).unwrap();
    // b0b9 mates; b0e0, a8e8 and f0e0 leave black no legal move, which loses too.
    let wins = ["b0b9", "b0e0", "a8e8", "f0e0"];
    assert!(
        wins.contains(&answer.best.as_deref().unwrap()),
        "{answer:?}"
    );
    assert_eq!(answer.score.forced_in, Some(1), "{:?}", answer.score);
    let forced: Vec<&str> = answer
        .actions
        .iter()
        .filter(|a| a.score.forced_in == Some(1))
        .map(|a| a.action.as_str())
        .collect();
    assert_eq!(forced.len(), wins.len(), "{forced:?}");
}

/// A Luzhanqi position: red's 司令 on c11 next to black's back rank, black's flag on b12, a
/// black 排長 far away on a7; red's flag on b1.
fn flag_in_two(mode: Mode) -> luzhanqi::Match {
    let pos: luzhanqi::Position = "1f3/2M2/5/5/5/t4/5/5/5/5/5/1F3 -- r - - 0 10"
        .parse()
        .unwrap_or_else(|e| panic!("{e}"));
    let rules = luzhanqi::Ruleset {
        mode,
        ..luzhanqi::Ruleset::DARK
    };
    luzhanqi::Match::from_position(rules, pos)
}

#[test]
fn an_enemy_piece_next_to_the_flag_is_a_danger_the_evaluation_sees() {
    use records::core::MAX_SEATS;
    use records::core::ismcts::Worlds;
    // Red's share by the evaluation of the playouts' leaves: the same material, black's 排長
    // next to red's flag (b2) or far from it (a7); red or black to move.
    let share = |board: &str, turn: char| {
        // Red (player 1) moves at even plies.
        let ply = if turn == 'r' { 10 } else { 11 };
        let pos: luzhanqi::Position = format!("{board} -- {turn} - - 0 {ply}").parse().unwrap();
        let rules = luzhanqi::Ruleset {
            mode: Mode::Open,
            ..luzhanqi::Ruleset::DARK
        };
        let mut out = [0.0; MAX_SEATS];
        <Luzhanqi as Worlds>::value(&luzhanqi::Match::from_position(rules, pos), &mut out);
        out[0]
    };
    let far = "1f3/2M2/5/5/5/t4/5/5/5/5/5/1F3";
    let near = "1f3/2M2/5/5/5/5/5/5/5/5/1t3/1F3";
    assert!(
        share(near, 'r') < share(far, 'r') - 0.1,
        "a piece next to the flag"
    );
    assert!(
        share(near, 'b') < share(near, 'r') - 0.1,
        "and worse when it is black's move: {} vs {}",
        share(near, 'b'),
        share(near, 'r')
    );
}

#[test]
fn the_flag_is_taken_in_two_seen_or_worked_out() {
    // Open: the flag is seen. Dark: red sees two black pieces; the one on a7 stands off the
    // headquarters and has never moved, so only the one on b12 can be the flag.
    for mode in [Mode::Open, Mode::Dark] {
        let mut m = flag_in_two(mode);
        let mut played = Vec::new();
        for _ in 0..3 {
            if m.end().is_some() {
                break;
            }
            let seat = m.position().to_move();
            let action = Luzhanqi::analyze(&m, Some(seat), &nodes(20_000))
                .unwrap()
                .best
                .unwrap();
            played.push(action.clone());
            m.play(&action.parse().unwrap()).unwrap();
        }
        let end = m.end().unwrap_or_else(|| panic!("{mode:?}: {played:?}"));
        assert_eq!(
            (end.reason, end.outcome.winner()),
            (Reason::FLAG_CAPTURED, Some(Seat::FIRST)),
            "{mode:?}: {played:?}"
        );
        assert_eq!(played.len(), 3, "{mode:?}: red's second action: {played:?}");
    }
}

#[test]
fn a_node_limit_gives_the_same_answer_every_time() {
    for kind in GameKind::ALL {
        with_game!(*kind, G => {
            let record = records::core::play::random_record::<G>(&G::PRESETS[0], 3, 20);
            let m = records::core::replay::final_match::<G>(&record).unwrap();
            let once = G::analyze(&m, None, &nodes(3_000)).unwrap();
            let again = G::analyze(&m, None, &nodes(3_000)).unwrap();
            assert_eq!(Analysis { millis: 0, ..once }, Analysis { millis: 0, ..again }, "{}", G::NAME);
        });
    }
}

#[test]
fn limits_are_obeyed() {
    let m = three_kingdoms::Match::from_position(
        three_kingdoms::PRESETS[0].ruleset,
        three_kingdoms::Position::start(three_kingdoms::PRESETS[0].ruleset.split),
    );
    // Nodes: the plies played, a few over for the iteration under way.
    let a = ThreeKingdoms::analyze(&m, None, &nodes(5_000)).unwrap();
    assert!((5_000..5_100).contains(&a.nodes), "{}", a.nodes);
    // Depth: plies of tree.
    let d = Limits {
        depth: Some(2),
        nodes: Some(20_000),
        ..Limits::default()
    };
    assert!(ThreeKingdoms::analyze(&m, None, &d).unwrap().depth <= 2);
    // Time.
    let t = Limits {
        millis: Some(50),
        ..Limits::default()
    };
    let a = ThreeKingdoms::analyze(&m, None, &t).unwrap();
    assert!(a.stopped && a.millis < 500, "{} ms", a.millis);
    // Every action of the root is listed, and only legal ones.
    let mut legal = Vec::new();
    m.legal_actions(&mut legal);
    let legal: Vec<String> = legal.iter().map(ToString::to_string).collect();
    let a = ThreeKingdoms::analyze(&m, None, &nodes(20_000)).unwrap();
    assert_eq!(a.actions.len(), legal.len());
    assert!(a.actions.iter().all(|s| legal.contains(&s.action)));
}

#[test]
fn a_finished_game_has_no_action() {
    let mut m = flag_in_two(Mode::Open);
    for a in ["c11-c12", "a7-a6", "c12-b12"] {
        m.play(&a.parse().unwrap()).unwrap();
    }
    let a = Luzhanqi::analyze(&m, None, &nodes(1_000)).unwrap();
    assert_eq!(a.best, None);
    assert_eq!(a.score.loss, 1.0, "black, to move, has lost");
}

#[test]
fn an_action_that_loses_at_once_is_scored_lost() {
    // From an engine's self-play game: red's general on e0 is in check and cannot move; its
    // one legal action is a double flip naming d2, whose back is 臣 (the wrong advisor: the
    // game is lost at once, RULES.md §9).
    let record: records::core::Record =
        serde_json::from_str(include_str!("data/xiangqi-3g-lost-in-check.json")).unwrap();
    let m = records::core::replay::final_match::<Xiangqi3g>(&record).unwrap();
    let a = Xiangqi3g::analyze(&m, None, &nodes(2_000)).unwrap();
    assert_eq!(a.actions.len(), 1, "{a:?}");
    assert_eq!(a.best.as_deref(), Some("e0=d2"));
    assert_eq!(a.score.forced_in, Some(-1), "{:?}", a.score);
    assert_eq!(a.score.loss, 1.0);
}
