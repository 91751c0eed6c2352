//! Banqi's solved endgames (`engine::endgame`): hand-checked positions, the no-progress clock
//! read exactly, tables equal to a brute-force minimax under a short clock in several
//! rulesets, and the engine playing a won table position out to the win.

use std::collections::HashMap;

use rand::prelude::*;
use records::games::banqi::engine::endgame::{self, Solved};
use records::games::banqi::engine::{self, Limits, WIN};
use records::games::banqi::{Action, Color, Position, Ruleset, legal_moves};

fn position(text: &str) -> Position {
    text.parse().unwrap()
}

fn solve(text: &str, rules: &Ruleset) -> Solved {
    endgame::solve(&position(text), rules).expect("a table position")
}

#[test]
fn a_cannon_jump_ends_the_game() {
    // Red's cannon on a1 jumps its horse on a2 onto black's last piece on a3; the horse
    // cannot take a general.
    let text = "4/4/4/4/4/k3/N3/C3 r - 0 10";
    assert_eq!(solve(text, &Ruleset::TCGA), Solved::Won { plies: 1 });
    let a = engine::analyze(&position(text), &Ruleset::TCGA, &Limits::default());
    assert_eq!(a.best.unwrap().to_string(), "a1-a3");
    assert_eq!(a.score, WIN - 1.0);
    // Black, to move instead, steps away (a4 or b3) or takes nothing: no capture of the
    // cannon or horse is open to it, and it is not lost at once.
    assert_ne!(
        solve("4/4/4/4/4/k3/N3/C3 b - 0 10", &Ruleset::TCGA),
        Solved::Lost { plies: 1 }
    );
}

#[test]
fn a_cornered_general_is_lost_in_two_while_the_clock_allows() {
    // Black's general on a1 must step to a2 or b1, both next to red's soldier on b2, which
    // takes a general; a general cannot take a soldier, and red's general on d1 is out of
    // reach. Lost in two plies: black's step, the soldier's capture.
    let at = |clock: u32| format!("4/4/4/4/4/4/1P2/k2K b - {clock} 70");
    assert_eq!(solve(&at(0), &Ruleset::TCGA), Solved::Lost { plies: 2 });
    // TCGA draws after 60 plies without a capture: at 58 the capture comes at 59, in time;
    // at 59 black's step makes 60 and the game is drawn before red may take.
    assert_eq!(solve(&at(58), &Ruleset::TCGA), Solved::Lost { plies: 2 });
    assert_eq!(solve(&at(59), &Ruleset::TCGA), Solved::Drawn);
    // No no-progress rule: lost whatever the count.
    let endless = Ruleset {
        no_progress: None,
        ..Ruleset::TCGA
    };
    assert_eq!(solve(&at(59), &endless), Solved::Lost { plies: 2 });
}

#[test]
fn no_legal_action_loses_even_when_the_count_is_up() {
    // Black's general on a1 is walled in by two soldiers it cannot take. RULES.md checks "no
    // legal action" before "no progress", so at 60 plies black has lost, not drawn.
    let text = "4/4/4/4/4/4/P3/kP2 b - 60 70";
    assert_eq!(solve(text, &Ruleset::TCGA), Solved::Lost { plies: 0 });
}

#[test]
fn generals_take_each_other_and_the_one_cornered_loses() {
    // Generals take each other (equal rank). Red's general in the a1 corner, black's
    // diagonally next to it on b2: red's steps (a2, b1) both end next to black's general,
    // which takes it.
    assert_eq!(
        solve("4/4/4/4/4/4/1k2/K3 r - 0 10", &Ruleset::TCGA),
        Solved::Lost { plies: 2 }
    );
    // Side by side, the one to move takes.
    assert_eq!(
        solve("4/4/4/4/4/4/4/Kk2 r - 0 10", &Ruleset::TCGA),
        Solved::Won { plies: 1 }
    );
}

#[test]
fn only_small_revealed_positions_under_rules_without_history_are_tables() {
    let rules = Ruleset::TCGA;
    let covered = position("4/4/4/4/4/4/X3/k2K r P1 0 10");
    assert!(!endgame::eligible(&covered, &rules), "a covered piece");
    let five = position("4/4/4/4/4/4/PP2/kPPK r - 0 10");
    assert!(!endgame::eligible(&five, &rules), "five pieces");
    let four = position("4/4/4/4/4/4/1P2/kP1K r - 0 10");
    assert!(endgame::eligible(&four, &rules));
    let chase = Ruleset::preset("gametower").unwrap();
    assert!(
        !endgame::eligible(&four, &chase),
        "long chase needs the history"
    );
}

/// The exact result under the clock by plain minimax: +1 won, 0 drawn, −1 lost for the side
/// to move, with the plies to the end (the winner's fastest, the loser's slowest). Checked
/// in RULES.md's order: elimination, no legal action, no progress.
fn brute(pos: &Position, rules: &Ruleset, memo: &mut HashMap<(u64, u32), (i8, u32)>) -> (i8, u32) {
    let key = (pos.repetition_key(), pos.no_progress());
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let me = pos.turn().unwrap();
    let mut moves = Vec::new();
    legal_moves(pos, rules, &mut moves);
    let value = if pos.alive(me) == 0 || moves.is_empty() {
        (-1, 0)
    } else if rules
        .no_progress
        .is_some_and(|n| pos.no_progress() >= u32::from(n))
    {
        (0, 0)
    } else {
        let mut best = (-2i8, 0u32);
        for m in &moves {
            let (next, _) = pos.play(rules, m).unwrap();
            let (v, len) = brute(&next, rules, memo);
            let (v, len) = (-v, len + 1);
            let better = v > best.0
                || (v == best.0 && v > 0 && len < best.1)
                || (v == best.0 && v < 0 && len > best.1);
            if better {
                best = (v, len);
            }
        }
        if best.0 == 0 { (0, 0) } else { best }
    };
    memo.insert(key, value);
    value
}

/// A random table position of `pieces` close together, `clock` plies into its no-progress
/// count.
fn random_position(pieces: &[&str], rng: &mut StdRng, clock: u32) -> Position {
    // Near each other (within three steps of the first), where most positions are decided.
    let first = rng.random_range(0..32usize);
    let near = |sq: &usize| (sq % 4).abs_diff(first % 4) + (sq / 4).abs_diff(first / 4) <= 3;
    let mut squares: Vec<usize> = (0..32).filter(|sq| *sq != first && near(sq)).collect();
    squares.shuffle(rng);
    squares.insert(0, first);
    let mut cells = ['-'; 32];
    for (p, &sq) in pieces.iter().zip(&squares) {
        cells[sq] = p.chars().next().unwrap();
    }
    let ranks: Vec<String> = (0..8)
        .rev()
        .map(|r| {
            let row: String = cells[r * 4..r * 4 + 4].iter().collect();
            row.replace("----", "4")
                .replace("---", "3")
                .replace("--", "2")
                .replace('-', "1")
        })
        .collect();
    let side = if rng.random_bool(0.5) { 'r' } else { 'b' };
    position(&format!("{} {side} - {clock} 100", ranks.join("/")))
}

#[test]
fn tables_equal_brute_force_minimax_under_a_short_clock() {
    let short = |r: Ruleset| Ruleset {
        no_progress: Some(8),
        ..r
    };
    let full = Ruleset::preset("taiwan-full").unwrap();
    let rulesets = [
        ("tcga", short(Ruleset::TCGA)),
        ("mainland", short(Ruleset::preset("mainland").unwrap())),
        ("rush, horse diagonal, chains", short(full)),
        (
            "charge",
            short(Ruleset {
                chariot_charge: true,
                ..Ruleset::TCGA
            }),
        ),
    ];
    let signatures: [&[&str]; 5] = [
        &["K", "P", "k"],
        &["C", "N", "k"],
        &["R", "c", "p"],
        &["N", "G", "g"],
        &["R", "P", "k", "c"],
    ];
    let mut rng = StdRng::seed_from_u64(26);
    let mut checked = [0u32; 3];
    for (name, rules) in &rulesets {
        let mut memo = HashMap::new();
        for pieces in signatures {
            let samples = if pieces.len() == 4 { 60 } else { 300 };
            for _ in 0..samples {
                let clock = rng.random_range(0..=8);
                let pos = random_position(pieces, &mut rng, clock);
                let (v, dtm) = brute(&pos, rules, &mut memo);
                let solved = endgame::solve(&pos, rules).unwrap();
                let ok = match solved {
                    Solved::Won { plies } => v == 1 && dtm <= plies,
                    Solved::Lost { plies } => v == -1 && dtm <= plies,
                    Solved::Drawn => v == 0,
                };
                assert!(ok, "{name}: {pos}: table {solved:?}, minimax {v} in {dtm}");
                checked[(v + 1) as usize] += 1;
            }
        }
    }
    // The sample holds every result, so the comparison could fail each way.
    assert!(
        checked.iter().all(|&n| n > 40),
        "lost/drawn/won {checked:?}"
    );
}

#[test]
fn the_engine_plays_a_won_table_position_out_to_the_win() {
    // General and soldier against a lone general, from random placements the table calls
    // won: the engine (moving for red) wins within the table's plies whatever black plays.
    let rules = Ruleset::TCGA;
    let mut rng = StdRng::seed_from_u64(7);
    let mut played = 0;
    while played < 12 {
        let start = random_position(&["K", "P", "k"], &mut rng, 0);
        let Some(Solved::Won { plies }) = endgame::solve(&start, &rules) else {
            continue;
        };
        if start.turn() != Some(Color::Red) {
            continue;
        }
        played += 1;
        let mut pos = start;
        let mut moves = Vec::new();
        for ply in 0.. {
            assert!(ply <= plies, "{start}: not over within {plies} plies");
            if pos.alive(Color::Black) == 0 {
                break;
            }
            legal_moves(&pos, &rules, &mut moves);
            if moves.is_empty() {
                assert_eq!(
                    pos.turn(),
                    Some(Color::Black),
                    "{start}: red stuck at {pos}"
                );
                break;
            }
            let action: Action = if pos.turn() == Some(Color::Red) {
                let a = engine::analyze(&pos, &rules, &Limits::default());
                assert!(
                    a.score > WIN - 1_000.0,
                    "{start}: the win lost at {pos}: {a:?}"
                );
                a.best.unwrap()
            } else {
                *moves.choose(&mut rng).unwrap()
            };
            pos = pos.play(&rules, &action).unwrap().0;
            assert!(pos.no_progress() < 60, "{start}: the clock ran out");
        }
    }
}

/// Whether the process has solved the table of `pos` (read from the cache only).
fn cached(pos: &Position, rules: &Ruleset) -> bool {
    endgame::Probe::new(pos, rules, true)
        .probe(pos, rules)
        .is_some()
}

#[test]
fn a_player_on_a_clock_starts_no_thread_an_analysis_readies_the_next_tables() {
    // Five pieces, nothing covered: red's horse (a2) may take black's soldier (b2), leaving a
    // four-piece table, too big to be solved inside a search. A ruleset of this test's own, so
    // that no other test has solved its tables in this process.
    let rules = Ruleset {
        no_progress: Some(61),
        ..Ruleset::TCGA
    };
    let pos = position("4/4/4/4/4/k3/Np2/C2P r - 0 10");
    let (next, _) = pos.play(&rules, &"a2-b2".parse().unwrap()).unwrap();
    assert_eq!(next.revealed_all().count(), 4);
    let limits = Limits {
        millis: Some(20),
        ..Limits::default()
    };
    let root = engine::Root {
        mode: engine::Mode::Play,
        ..engine::Root::new(&pos, &rules)
    };
    engine::analyze_root(&root, &limits);
    // A background thread would have solved it by now (0.3 s).
    std::thread::sleep(std::time::Duration::from_millis(1_500));
    assert!(
        !cached(&next, &rules),
        "a move on a clock worked beside its thread"
    );
    // An analysis readies it on a thread of its own, for the requests that follow (one table
    // at a time, the others when a later request asks again).
    let solved = (0..100).any(|_| {
        engine::analyze_root(&engine::Root::new(&pos, &rules), &limits);
        std::thread::sleep(std::time::Duration::from_millis(100));
        cached(&next, &rules)
    });
    assert!(solved, "an analysis readies the tables one capture away");
}
