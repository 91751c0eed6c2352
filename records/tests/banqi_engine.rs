//! Banqi's search (`records::games::banqi::engine`): forced wins found in hand-made
//! positions, chance nodes averaging exactly over the covered pool, the pruned search equal to
//! plain expectimax, determinism under a node limit, and its limits obeyed.

use records::core::Engine as _;
use records::core::replay::replay;
use records::games::banqi::engine::{
    self, HorizonFlips, Limits, QUIESCENCE_DEPTH, Root, WIN, Weights,
};
use records::games::banqi::{Action, Banqi, Match, Piece, Position, Ruleset, legal_actions};

/// The engine's weights without the draw's contempt, so that a draw is 0 as in the plain
/// reference below.
const FAIR: Weights = Weights::ANALYSIS;

fn position(text: &str) -> Position {
    text.parse().unwrap()
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

#[test]
fn a_soldier_takes_the_last_general() {
    // Red's soldier on a1 takes black's general on a2, its last piece.
    let pos = position("4/4/4/4/4/4/k3/P2K r - 0 10");
    let a = engine::analyze(&pos, &Ruleset::TCGA, &depth(2));
    assert_eq!(a.best.unwrap().to_string(), "a1-a2");
    assert_eq!(a.score, WIN - 1.0, "won at the next ply");
}

#[test]
fn a_player_finds_the_forced_win_through_its_reductions() {
    // The hunted general below, searched as a player (null windows at the root, late move
    // reductions, the history order) to depth 5, where the reductions act. Under long chase
    // (gametower) no table is used: the search itself must find the win at the third ply.
    let pos = position("k3/1P2/P3/4/4/4/4/3K r - 0 10");
    for rules in [Ruleset::TCGA, Ruleset::preset("gametower").unwrap()] {
        let root = Root {
            mode: engine::Mode::Play,
            ..Root::new(&pos, &rules)
        };
        let a = engine::analyze_root(&root, &depth(5));
        assert_eq!(a.score, WIN - 3.0, "{a:?}");
        let (next, _) = pos.play(&rules, &a.best.unwrap()).unwrap();
        let reply = engine::analyze(&next, &rules, &depth(4));
        assert_eq!(
            reply.score,
            -(WIN - 2.0),
            "black is lost after {}",
            a.best.unwrap()
        );
    }
}

#[test]
fn a_lone_general_is_hunted_down_by_two_soldiers() {
    // Black's general on a8 cannot take a soldier, and must move: to a7, next to the soldier
    // on a6, or to b8, next to the one on b7. Whatever red plays first that keeps both
    // soldiers where they are (a general's step) or closes in, black's move loses the general
    // at the third ply. Only moving a soldier away lets it out.
    let pos = position("k3/1P2/P3/4/4/4/4/3K r - 0 10");
    let a = engine::analyze(&pos, &Ruleset::TCGA, &depth(4));
    assert_eq!(a.score, WIN - 3.0, "won at the third ply: {a:?}");
    // The line as far as the table keeps it (the last capture is the quiescence search's).
    assert!(
        a.line.len() >= 2 && a.line[0] == a.best.unwrap(),
        "the forced line: {:?}",
        a.line
    );
    let value = |text: &str| {
        a.actions
            .iter()
            .find(|(action, _)| action.to_string() == text)
            .map(|x| x.1)
    };
    assert_eq!(value("d1-c1"), Some(WIN - 3.0), "a waiting move wins too");
    assert_eq!(value("a6-a7"), Some(WIN - 3.0));
    // Four pieces, none covered: a solved endgame, so the values are exact. A soldier
    // stepping away lets the general out for now: still won, but later.
    let away = value("b7-c7").unwrap();
    assert!(
        away > WIN - 1_000.0 && away < WIN - 3.0,
        "a soldier stepping away wins later: {away}"
    );
}

#[test]
fn a_cannon_jump_that_wins() {
    // Red's cannon on a1 jumps the covered a2 to take black's last revealed piece, the
    // chariot on a3. (With red's soldier on c1 the game stays out of the solved endgames,
    // where cannon and general against the soldier would be a known draw.)
    let pos = position("4/4/4/4/4/r3/X3/C1PK r p1 0 10");
    let a = engine::analyze(&pos, &Ruleset::TCGA, &depth(2));
    assert_eq!(a.best.unwrap().to_string(), "a1-a3");
    assert!(a.score > 0.0, "{a:?}");
}

#[test]
fn a_flip_is_the_average_over_the_covered_pool() {
    // Two covered squares; the pool holds black's general and a black soldier. Red to move.
    let pos = position("4/4/4/4/4/4/X2X/R2K r k1p1 0 10");
    let rules = Ruleset::TCGA;
    let root = Root {
        weights: &FAIR,
        ..Root::new(&pos, &rules)
    };
    let a = engine::analyze_root(&root, &depth(1));
    let flip = a
        .actions
        .iter()
        .find(|(action, _)| action.to_string() == "a2")
        .expect("flipping a2 is listed");
    let mut expected = 0.0;
    for (piece, p) in [("k", 0.5), ("p", 0.5)] {
        let filled: Action = format!("a2({piece})").parse().unwrap();
        let (next, _) = pos.play(&Ruleset::TCGA, &filled).unwrap();
        // After the flip black is to move: red's value is minus black's, past the horizon
        // its captures (black's general takes red's chariot where it can).
        let quiet = quiescence_reference(&next, &rules, 1, QUIESCENCE_DEPTH, &mut Memo::new());
        expected += p * -quiet;
    }
    assert!((flip.1 - expected).abs() < 1e-9, "{} vs {expected}", flip.1);
}

/// The value of a finished game for the side to move, `ply` plies from the root.
fn game_over(pos: &Position, rules: &Ruleset, ply: u32) -> Option<f64> {
    if let Some(me) = pos.turn() {
        if pos.alive(me) == 0 {
            return Some(-(WIN - ply as f64));
        }
        if pos.alive(me.other()) == 0 {
            return Some(WIN - ply as f64);
        }
    }
    let drawn = rules
        .no_progress
        .is_some_and(|n| pos.no_progress() >= n as u32);
    drawn.then_some(0.0)
}

/// Plain expectimax, no pruning, no table, plain quiescence: what the search must equal at
/// small depths (repetition needs four plies and captures never repeat, so none of these can
/// repeat a position).
fn reference(pos: &Position, rules: &Ruleset, depth: u32, ply: u32, memo: &mut Memo) -> f64 {
    reference_within(pos, rules, depth, ply, memo, Valuing::Analysis)
}

/// How plain expectimax values chance: as an analysis does, or as a player's search
/// ([`engine::Mode::Play`]) does, which counts an outcome's forced result as the best or worst
/// evaluation (±`bound`) and values a flip at the horizon as `flips` says.
#[derive(Clone, Copy)]
enum Valuing {
    Analysis,
    Play { bound: f64, flips: HorizonFlips },
}

fn reference_within(
    pos: &Position,
    rules: &Ruleset,
    depth: u32,
    ply: u32,
    memo: &mut Memo,
    valuing: Valuing,
) -> f64 {
    if let Some(v) = game_over(pos, rules, ply) {
        return v;
    }
    if depth == 0 {
        return quiescence_reference(pos, rules, ply, QUIESCENCE_DEPTH, memo);
    }
    let mut actions = Vec::new();
    legal_actions(pos, rules, &mut actions);
    if actions.is_empty() {
        return -(WIN - ply as f64);
    }
    actions
        .iter()
        .map(|a| action_reference_within(pos, rules, a, depth, ply, memo, valuing))
        .fold(f64::NEG_INFINITY, f64::max)
}

type Memo = std::collections::HashMap<(u64, u32, u32), f64>;

/// Captures past the horizon, plain minimax with standing pat: what the quiescence search
/// must equal. Capture sequences meet again in the same positions: each is valued once.
fn quiescence_reference(
    pos: &Position,
    rules: &Ruleset,
    ply: u32,
    left: u32,
    memo: &mut Memo,
) -> f64 {
    let key = (pos.repetition_key() ^ pos.no_progress() as u64, ply, left);
    if let Some(v) = memo.get(&key) {
        return *v;
    }
    let v = quiet_value(pos, rules, ply, left, memo);
    memo.insert(key, v);
    v
}

/// A quiescence node before its captures: its value if final (the game over, or no capture
/// left to follow: the evaluation), else the evaluation to stand on.
fn stand_pat(pos: &Position, rules: &Ruleset, ply: u32, left: u32) -> Result<f64, f64> {
    if let Some(v) = game_over(pos, rules, ply) {
        return Err(v);
    }
    let bound = FAIR.bound();
    let stand = engine::evaluate_with(pos, rules, &FAIR).clamp(-bound, bound);
    if left == 0 { Err(stand) } else { Ok(stand) }
}

fn quiet_value(pos: &Position, rules: &Ruleset, ply: u32, left: u32, memo: &mut Memo) -> f64 {
    let stand = match stand_pat(pos, rules, ply, left) {
        Ok(stand) => stand,
        Err(v) => return v,
    };
    let mut captures = Vec::new();
    engine::captures(pos, rules, &mut captures);
    captures
        .iter()
        .map(|a| {
            let (next, _) = pos.play(rules, a).unwrap();
            -quiescence_reference(&next, rules, ply + 1, left - 1, memo)
        })
        .fold(stand, f64::max)
}

fn action_reference_within(
    pos: &Position,
    rules: &Ruleset,
    action: &Action,
    depth: u32,
    ply: u32,
    memo: &mut Memo,
    valuing: Valuing,
) -> f64 {
    let outcome_bound = match valuing {
        Valuing::Analysis => WIN,
        Valuing::Play { bound, flips } => {
            let evaluated = flips == HorizonFlips::Evaluated;
            if evaluated && depth == 1 && matches!(action, Action::Flip { reveal: None, .. }) {
                return engine::evaluate_with(pos, rules, &FAIR).clamp(-bound, bound);
            }
            bound
        }
    };
    let open = match action {
        Action::Flip { reveal: None, .. } => true,
        Action::Move(path) => path.hops().iter().any(|h| pos.covered().contains(h.to())),
        _ => false,
    };
    if !open {
        let (next, _) = pos.play(rules, action).unwrap();
        return -reference_within(&next, rules, depth - 1, ply + 1, memo, valuing);
    }
    let total = pos.pool().total() as f64;
    let mut value = 0.0;
    for piece in Piece::all() {
        let n = pos.pool().count(piece);
        if n == 0 {
            continue;
        }
        let mut filled = *action;
        match &mut filled {
            Action::Flip { reveal, .. } => *reveal = Some(piece),
            Action::Move(path) => {
                let i = path
                    .hops()
                    .iter()
                    .position(|h| pos.covered().contains(h.to()))
                    .unwrap();
                path.hops_mut()[i].set_reveal(Some(piece));
            }
        }
        let (next, _) = pos.play(rules, &filled).unwrap();
        let v = -reference_within(&next, rules, depth - 1, ply + 1, memo, valuing);
        value += n as f64 / total * v.clamp(-outcome_bound, outcome_bound);
    }
    value
}

/// Positions from random games, a few plies apart, late enough for few covered pieces.
fn game_positions() -> Vec<Position> {
    let mut out = Vec::new();
    for seed in 0..3 {
        let record = records::core::play::random_record::<Banqi>(
            &records::games::banqi::PRESETS[0],
            seed,
            90,
        );
        let (positions, verdict) = replay::<Banqi>(&record);
        assert!(verdict.valid);
        // Early ones with many covered pieces, late ones with few.
        out.extend(positions.iter().skip(12).step_by(13).copied());
    }
    out
}

/// A player's search values only its best action (the others are bounds), with chance
/// outcomes within the evaluation's bound and flips at the horizon as `flips` says: the same
/// best value as plain expectimax valuing so, and an action of that value.
fn player_equals_plain_expectimax(
    pos: &Position,
    rules: &Ruleset,
    d: u32,
    flips: HorizonFlips,
    memo: &mut Memo,
) {
    let root = Root {
        weights: &FAIR,
        mode: engine::Mode::Play,
        horizon_flips: flips,
        ..Root::new(pos, rules)
    };
    let play = engine::analyze_root(&root, &depth(d));
    // (The memo holds quiescence values, which no chance node bounds.)
    let played = Valuing::Play {
        bound: FAIR.bound(),
        flips,
    };
    let want = reference_within(pos, rules, d, 0, memo, played);
    assert!(
        (play.score - want).abs() < 1e-6,
        "{pos} depth {d}: {} vs {want}",
        play.score
    );
    let chosen = action_reference_within(pos, rules, &play.best.unwrap(), d, 0, memo, played);
    assert!(
        (chosen - want).abs() < 1e-6,
        "{pos} depth {d}: {chosen} vs {want}"
    );
}

#[test]
fn the_pruned_search_equals_plain_expectimax() {
    let rules = Ruleset::TCGA;
    for pos in game_positions() {
        // Two plies where at most two pieces are covered (a chance node's fan-out is the pool;
        // plain expectimax with quiescence grows too fast for more); one table of quiet values
        // per position.
        let deepest = if pos.covered().count() <= 2 { 2 } else { 1 };
        let mut memo = Memo::new();
        for d in 1..=deepest {
            let root = Root {
                weights: &FAIR,
                ..Root::new(&pos, &rules)
            };
            let a = engine::analyze_root(&root, &depth(d));
            for (action, value) in &a.actions {
                let want = action_reference_within(
                    &pos,
                    &rules,
                    action,
                    d,
                    0,
                    &mut memo,
                    Valuing::Analysis,
                );
                assert!(
                    (value - want).abs() < 1e-6,
                    "{pos} depth {d}: {action} is {value}, plain expectimax {want}"
                );
            }
            let best = a
                .actions
                .iter()
                .map(|x| x.1)
                .fold(f64::NEG_INFINITY, f64::max);
            assert!((best - reference(&pos, &rules, d, 0, &mut memo)).abs() < 1e-6);
            for flips in [HorizonFlips::Played, HorizonFlips::Evaluated] {
                player_equals_plain_expectimax(&pos, &rules, d, flips, &mut memo);
            }
        }
    }
}

#[test]
fn a_node_limit_gives_the_same_answer_every_time() {
    let rules = Ruleset::TCGA;
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    for pos in game_positions().into_iter().take(3) {
        let first = engine::analyze(&pos, &rules, &limits);
        let again = engine::analyze(&pos, &rules, &limits);
        assert_eq!(first, again, "{pos}");
        assert!(first.nodes <= 20_000, "{}", first.nodes);
        assert!(first.best.is_some());
    }
}

#[test]
fn limits_are_obeyed() {
    let rules = Ruleset::TCGA;
    let pos = game_positions()[0];
    let a = engine::analyze(&pos, &rules, &depth(2));
    assert_eq!((a.depth, a.stopped), (2, false));
    // A node budget too small for depth 1: the answer so far, said to be partial.
    let tiny = engine::analyze(
        &pos,
        &rules,
        &Limits {
            nodes: Some(3),
            ..Limits::default()
        },
    );
    assert!(
        tiny.stopped && tiny.nodes <= 3 && tiny.best.is_some(),
        "{tiny:?}"
    );
    // A time limit stops a search that would run for ever (no depth limit).
    let started = std::time::Instant::now();
    let timed = engine::analyze(
        &Position::start(),
        &rules,
        &Limits {
            millis: Some(200),
            ..Limits::default()
        },
    );
    assert!(timed.best.is_some());
    assert!(
        started.elapsed().as_millis() < 5_000,
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn a_finished_game_has_no_action() {
    // Black has nothing left: red has won; the side to move (black) is lost.
    let pos = position("4/4/4/4/4/4/4/P2K b - 0 10");
    let a = engine::analyze(&pos, &Ruleset::TCGA, &depth(3));
    assert_eq!((a.best, a.score), (None, -WIN));
}

#[test]
fn the_evaluation_by_hand() {
    // Red's general on a1 against black's last piece, a soldier on d8. Weights chosen for
    // round numbers: base worths G 60 … S 8, 60% of a worth from its victims, +50% for a
    // piece nobody left can take, a tenth of a victim's worth for pursuit.
    let w = Weights {
        base: [60.0, 40.0, 20.0, 12.0, 8.0, 30.0, 8.0],
        victims: 0.6,
        untouchable: 0.5,
        pursuit: 0.1,
        contempt: 0.0,
        draw_cost: 0.0,
    };
    let pos = position("3p/4/4/4/4/4/4/K3 r - 0 10");
    // The general's possible victims (G A E R H C: 60+80+40+24+16+60 = 280) are all gone:
    // 60·0.4 = 24, and a soldier lives that can take it (no bonus). The soldier's victims
    // (the general and five soldiers: 100) hold 60: 8·(0.4 + 0.6·0.6) = 6.08, and no red
    // piece left can take it: +4. It pursues the general from 10 steps: 0.1·24/2⁹.
    let want = 24.0 - (6.08 + 4.0 + 0.1 * 24.0 / 512.0);
    let got = engine::evaluate_with(&pos, &Ruleset::TCGA, &w);
    assert!((got - want).abs() < 1e-9, "{got} vs {want}");
    // Black to move: the same value, negated.
    let black = position("3p/4/4/4/4/4/4/K3 b - 0 10");
    assert!((engine::evaluate_with(&black, &Ruleset::TCGA, &w) + want).abs() < 1e-9);
}

#[test]
fn a_piece_nobody_can_take_is_worth_more() {
    // Red's general against black's advisor: with a black soldier covered the general can
    // still be taken; with a black horse covered instead it cannot.
    let rules = Ruleset::TCGA;
    let hunted = position("3g/4/4/4/4/4/X3/K3 r p1 0 10");
    let safe = position("3g/4/4/4/4/4/X3/K3 r n1 0 10");
    let (h, s) = (
        engine::evaluate(&hunted, &rules),
        engine::evaluate(&safe, &rules),
    );
    assert!(s > h, "untouchable general {s}, hunted {h}");
}

#[test]
fn pursuit_draws_the_stronger_piece_nearer() {
    // Red's chariot and black's horse: the nearer the chariot, the better for red.
    let rules = Ruleset::TCGA;
    let far = engine::evaluate(&position("3n/4/4/4/4/4/4/R3 r - 0 10"), &rules);
    let near = engine::evaluate(&position("3n/3R/4/4/4/4/4/4 r - 0 10"), &rules);
    assert!(near > far, "near {near}, far {far}");
}

#[test]
fn a_flip_changes_no_material() {
    // Covered pieces count at their worth: the expected value over a flip's outcomes is
    // what the pool held (the pursuit aside, which needs revealed pieces: none here).
    let rules = Ruleset::TCGA;
    let w = Weights {
        pursuit: 0.0,
        ..Weights::TUNED
    };
    let pos = position("4/4/4/4/4/4/4/X3 r k1 0 10");
    let (after, _) = pos.play(&rules, &"a1(k)".parse().unwrap()).unwrap();
    // After the flip black is to move: its value is minus red's.
    let before = engine::evaluate_with(&pos, &rules, &w);
    let flipped = -engine::evaluate_with(&after, &rules, &w);
    assert!((before - flipped).abs() < 1e-9, "{before} vs {flipped}");
}

#[test]
fn returning_to_an_earlier_position_is_a_draw_the_side_ahead_avoids() {
    // Red (a chariot ahead) came from a2 to a1; the game's earlier positions include the one
    // with the chariot on a2 and black to move. Going back is valued as a draw: minus the
    // contempt (a share of red's advantage) and the draw's cost.
    let rules = Ruleset::TCGA;
    // (A covered piece keeps it out of the solved endgames, whose values are exact.)
    let pos = position("3n/4/4/4/4/4/4/R2X r P1 4 10");
    let back: Position = "3n/4/4/4/4/4/R3/3X b P1 5 11".parse().unwrap();
    let earlier = [back.repetition_key()];
    let w = Weights::TUNED;
    let root = Root {
        earlier: &earlier,
        ..Root::new(&pos, &rules)
    };
    let a = engine::analyze_root(&root, &depth(1));
    let value = |name: &str| {
        a.actions
            .iter()
            .find(|(x, _)| x.to_string() == name)
            .unwrap()
            .1
    };
    let draw = -(w.contempt * engine::evaluate(&pos, &rules) + w.draw_cost);
    assert!(
        (value("a1-a2") - draw).abs() < 1e-9,
        "{} vs {draw}",
        value("a1-a2")
    );
    assert!(value("a1-b1") > draw);
    assert_ne!(a.best.unwrap().to_string(), "a1-a2");
    // Without the history, a1-a2 is an ordinary move.
    let bare = engine::analyze(&pos, &rules, &depth(1));
    assert!(
        bare.actions
            .iter()
            .any(|(x, v)| x.to_string() == "a1-a2" && *v > draw)
    );
}

#[test]
fn a_match_knows_its_earlier_positions() {
    // Under both repetition rules, the positions passed since the last flip or capture, as
    // a replay saw them.
    for preset in ["tcga", "olympiad"] {
        let rules = Ruleset::preset(preset).unwrap();
        let mut m = Match::from_position(rules, position("3n/4/4/4/4/4/4/R3 r - 0 10"));
        let mut seen = vec![m.position().repetition_key()];
        for ply in ["a1-a2", "d8-c8", "a2-b2", "c8-d8", "b2-b1"] {
            m.play(&ply.parse().unwrap()).unwrap();
            let mut earlier = m.earlier_positions();
            earlier.sort_unstable();
            let mut want = seen.clone();
            want.sort_unstable();
            want.dedup();
            assert_eq!(earlier, want, "{preset} after {ply}");
            seen.push(m.position().repetition_key());
        }
    }
    // Repetition off: none.
    let off = Ruleset {
        repetition: records::games::banqi::Repetition::Off,
        ..Ruleset::TCGA
    };
    let mut m = Match::from_position(off, position("3n/4/4/4/4/4/4/R3 r - 0 10"));
    m.play(&"a1-a2".parse().unwrap()).unwrap();
    assert!(m.earlier_positions().is_empty());
}

#[test]
fn the_analysis_lists_exactly_the_legal_actions_under_every_preset() {
    use records::core::analysis::Search;
    // Positions of random games under every preset (long chase among them): what the
    // service shows is every action the match allows, and only those.
    for preset in records::games::banqi::PRESETS {
        for seed in 0..3 {
            let record = records::core::play::random_record::<Banqi>(preset, seed, 60);
            let m = records::core::replay::final_match::<Banqi>(&record).unwrap();
            let analysis = Banqi::analyze(&m, None, &depth(1)).unwrap();
            let mut legal = Vec::new();
            m.legal_actions(&mut legal);
            let mut want: Vec<String> = legal.iter().map(ToString::to_string).collect();
            let mut got: Vec<String> = analysis.actions.iter().map(|a| a.action.clone()).collect();
            want.sort();
            got.sort();
            assert_eq!(got, want, "{} seed {seed}", preset.name);
            if let Some(best) = &analysis.best {
                assert!(want.contains(best));
                assert_eq!(&analysis.line[0], best);
            }
        }
    }
}

#[test]
fn general_and_soldier_against_a_lone_general() {
    // Black's general alone in the a8 corner; red's soldier on b6, red's general on d7. Only
    // b6-b7 wins at once: both of the general's squares (a7, b8) are then next to the
    // soldier, which takes a general, and a general cannot take a soldier.
    let pos = position("k3/3K/1P2/4/4/4/4/4 r - 0 10");
    let a = engine::analyze(&pos, &Ruleset::TCGA, &depth(5));
    assert_eq!(a.best.unwrap().to_string(), "b6-b7", "{a:?}");
    assert_eq!(a.score, WIN - 3.0);
    let others: Vec<_> = a
        .actions
        .iter()
        .filter(|(x, _)| x.to_string() != "b6-b7")
        .collect();
    assert!(others.iter().all(|(_, v)| *v < WIN - 3.0), "{others:?}");
}

/// Plain minimax on a match without covered pieces (no chance node): the match's own legal
/// actions at every node, its long-chase rule and counts included, then quiescence on the
/// captures it allows. What the search must equal where the rule bites below the root (no
/// position can repeat within three plies and the captures after them).
fn match_reference(m: &Match, depth: u32, ply: u32) -> f64 {
    if let Some(v) = game_over(m.position(), m.rules(), ply) {
        return v;
    }
    if depth == 0 {
        return match_quiescence(m, ply, QUIESCENCE_DEPTH);
    }
    let mut actions = Vec::new();
    m.legal_actions(&mut actions);
    if actions.is_empty() {
        return -(WIN - ply as f64);
    }
    actions
        .iter()
        .map(|a| -match_reference(&played(m, a), depth - 1, ply + 1))
        .fold(f64::NEG_INFINITY, f64::max)
}

fn match_quiescence(m: &Match, ply: u32, left: u32) -> f64 {
    let (pos, rules) = (m.position(), m.rules());
    let stand = match stand_pat(pos, rules, ply, left) {
        Ok(stand) => stand,
        Err(v) => return v,
    };
    let (mut legal, mut captures) = (Vec::new(), Vec::new());
    m.legal_actions(&mut legal);
    engine::captures(pos, rules, &mut captures);
    captures
        .iter()
        .filter(|a| legal.contains(a))
        .map(|a| -match_quiescence(&played(m, a), ply + 1, left - 1))
        .fold(stand, f64::max)
}

fn played(m: &Match, action: &Action) -> Match {
    let mut next = m.clone();
    next.play(action).unwrap();
    next
}

/// The long-chase rule below the root (長捉禁手, RULES.md §1): red's chariot has chased the
/// black horse eight times in a row (the horse running between c7 and d7, as in the end
/// rules' test). A ninth chase is legal, the tenth is not: two plies below the root. Every
/// root action's value equals the match-played reference at depths 1–3, and the line the
/// engine expects plays on the match.
#[test]
fn the_search_keeps_the_long_chase_counts_below_the_root() {
    let gametower = Ruleset::preset("gametower").unwrap();
    let mut m = Match::from_position(gametower, position("k3/3n/4/3R/4/4/4/K3 r - 0 10"));
    let eight = "d5-d6 d7-c7 d6-c6 c7-d7 c6-d6 d7-c7 d6-c6 c7-d7 c6-d6 d7-c7 d6-c6 c7-d7 c6-d6 d7-c7 d6-c6 c7-d7";
    for a in eight.split(' ') {
        m.play(&a.parse().unwrap()).unwrap();
    }
    for d in 1..=3 {
        let answer = engine::analyze_match(&m, &FAIR, &depth(d));
        for (action, value) in &answer.actions {
            let expected = -match_reference(&played(&m, action), d - 1, 1);
            assert!(
                (value - expected).abs() < 1e-9,
                "depth {d}, {action}: {value} where the match gives {expected}"
            );
        }
        let mut line = m.clone();
        for a in &answer.line {
            line.play(a).unwrap();
        }
    }
}

/// How far the player-1 score moves from one position to the next where the ply between
/// reveals nothing (chance moves it by luck, which the review tells apart), over the review
/// of `record` at `nodes` positions a position; forced results left out.
fn steps_without_chance(record: &records::core::Record, nodes: u64) -> Vec<i64> {
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let plies = records::core::review::review::<Banqi>(record, &limits).unwrap();
    plies
        .windows(2)
        .filter(|w| w[1].luck.is_none())
        .filter_map(|w| {
            let (a, b) = (w[0].player1?, w[1].player1?);
            (a.forced_in.is_none() && b.forced_in.is_none())
                .then(|| (b.centipawns - a.centipawns).abs())
        })
        .collect()
}

#[test]
fn evaluations_hold_still_along_the_engines_own_games() {
    // Two games the engine played against itself at 20,000 positions a move (`anqi simulate
    // --games 2 --seed 31 --bot engine`), reviewed at the same budget. Where a ply reveals
    // nothing, the score after it is what the search before it expected, up to what one more
    // ply of depth shows: half of these steps move player 1's score by at most 10 centipawns
    // (a tenth of a soldier), nine in ten by at most 60. (Measured: median 3, nine in ten 38,
    // over ten games.) A score that swung with the side to move would fail both.
    let text = include_str!("data/banqi-engine-games.jsonl");
    let mut steps: Vec<i64> = text
        .lines()
        .flat_map(|line| steps_without_chance(&serde_json::from_str(line).unwrap(), 20_000))
        .collect();
    steps.sort();
    assert!(steps.len() > 100, "{} steps", steps.len());
    let at = |q: f64| steps[((steps.len() - 1) as f64 * q) as usize];
    assert!(at(0.5) <= 10, "median step {} cp: {steps:?}", at(0.5));
    assert!(
        at(0.9) <= 60,
        "nine in ten steps within {} cp: {steps:?}",
        at(0.9)
    );
}

#[test]
fn a_short_clock_plays_the_horizons_flips_a_long_one_values_them_as_they_stand() {
    let with = |millis, nodes| {
        HorizonFlips::for_move(&Limits {
            millis,
            nodes,
            ..Limits::default()
        })
    };
    assert_eq!(with(Some(10), None), HorizonFlips::Played);
    assert_eq!(with(Some(49), None), HorizonFlips::Played);
    assert_eq!(with(Some(50), None), HorizonFlips::Evaluated);
    assert_eq!(with(Some(100), None), HorizonFlips::Evaluated);
    // The bots' fixed budget (20,000 positions) and `anqi tune`'s are short.
    assert_eq!(with(None, Some(20_000)), HorizonFlips::Played);
    assert_eq!(with(None, Some(250_000)), HorizonFlips::Evaluated);
    assert_eq!(with(None, None), HorizonFlips::Played);
    // Valued as they stand, a flip with a ply left is one position, not fourteen outcomes
    // and their captures: a two-ply search of the start visits far fewer.
    let m = Match::new(Ruleset::TCGA);
    let nodes = |flips| {
        let root = Root {
            mode: engine::Mode::Play,
            horizon_flips: flips,
            ..Root::new(m.position(), m.rules())
        };
        engine::analyze_root(&root, &depth(2)).nodes
    };
    let (played, evaluated) = (nodes(HorizonFlips::Played), nodes(HorizonFlips::Evaluated));
    assert!(evaluated * 5 < played, "{evaluated} vs {played}");
}
