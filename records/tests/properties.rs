//! Property tests: random games under every preset are deterministic, every generated action
//! is accepted, position strings round-trip, and the covered pool always matches the board.

use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::StdRng;
use records::core::Engine as _;
use records::core::{Record, Status};
use records::games::banqi::{
    Action, Banqi, Layout, Match, PRESETS, Piece, Position, SingleHopActions, random_playout,
    reveal_from_layout,
};

fn replay(record: &Record) -> (Vec<Position>, records::core::Verdict) {
    records::core::replay::replay::<Banqi>(record)
}

/// Plays a seeded random game and writes it as a record with its layout.
fn random_record(preset_index: usize, seed: u64) -> (Record, Vec<Position>) {
    let preset = &PRESETS[preset_index % PRESETS.len()];
    let mut rng = StdRng::seed_from_u64(seed);
    let layout = Layout::shuffled(&mut rng);
    let mut actions = Vec::new();
    let mut positions = Vec::new();
    let mut buffer = Vec::new();
    let (game, _) = random_playout(
        &preset.ruleset,
        &layout,
        &mut rng,
        400,
        &mut buffer,
        |_, a| actions.push(a.to_string()),
    );
    // Rebuild the positions by replaying the actions on a fresh game.
    let mut again = Match::new(preset.ruleset);
    for a in &actions {
        again.play(&a.parse().unwrap()).unwrap();
        positions.push(*again.position());
    }
    assert_eq!(again.position(), game.position());
    let mut record = Record::new("banqi", preset.name, actions);
    record.layout = Some(layout.into());
    (record, positions)
}

fn check_pool_matches_board(p: &Position, layout: &Layout) {
    // The covered pool is exactly the layout's pieces under the covered squares.
    let mut from_layout = [0u8; 14];
    for sq in p.covered() {
        from_layout[layout.piece(sq).index()] += 1;
    }
    assert_eq!(&from_layout, p.pool().counts(), "{p}");
    // And no kind of piece exceeds its count.
    for piece in Piece::all() {
        let on_board = p
            .revealed(piece.side)
            .filter(|&s| p.piece_at(s) == Some(piece))
            .count() as u8;
        assert!(on_board + p.pool().count(piece) <= piece.role.count());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    #[test]
    fn random_games_replay_deterministically(preset in 0usize..8, seed in any::<u64>()) {
        let (record, positions) = random_record(preset, seed);
        let (replayed, verdict) = replay(&record);
        prop_assert!(verdict.valid, "{:?}", verdict.error);
        prop_assert_eq!(&replayed, &positions);
        // Same seed, same game.
        let (again, _) = random_record(preset, seed);
        prop_assert_eq!(&again, &record);
        let layout: Layout = record.layout.clone().unwrap().as_str().unwrap().parse().unwrap();
        for p in &positions {
            check_pool_matches_board(p, &layout);
            let text = p.to_string();
            prop_assert_eq!(text.parse::<Position>().unwrap(), *p);
        }
        // Identities omitted: the layout fills them in and the verdict is the same.
        let mut bare = record.clone();
        bare.actions = bare.actions.iter().map(|a| strip_reveals(a)).collect();
        let (bare_positions, bare_verdict) = replay(&bare);
        prop_assert!(bare_verdict.valid);
        prop_assert_eq!(bare_positions, positions);
        prop_assert_eq!(bare_verdict.derived, verdict.derived);
        if let Status::Ended { ply, .. } = verdict.derived {
            prop_assert_eq!(ply as usize, record.actions.len());
        }
    }

    #[test]
    fn every_generated_action_applies(preset in 0usize..8, seed in any::<u64>(), plies in 0usize..120) {
        let rules = PRESETS[preset].ruleset;
        let mut rng = StdRng::seed_from_u64(seed);
        let layout = Layout::shuffled(&mut rng);
        let mut buffer = Vec::new();
        let (game, _) = random_playout(&rules, &layout, &mut rng, plies as u32, &mut buffer, |_, _| {});
        let mut actions = Vec::new();
        game.legal_actions(&mut actions);
        for a in &actions {
            let mut a = *a;
            reveal_from_layout(&game, &layout, &mut a);
            let mut g = game.clone();
            prop_assert!(g.play(&a).is_ok(), "{} in {}", a, game.position());
            check_pool_matches_board(g.position(), &layout);
            // Notation round-trips.
            prop_assert_eq!(a.to_string().parse::<Action>().unwrap(), a);
        }
    }

    #[test]
    fn generator_and_checker_agree_on_single_hops(preset in 0usize..8, seed in any::<u64>(), plies in 0usize..150) {
        let rules = PRESETS[preset].ruleset;
        let mut rng = StdRng::seed_from_u64(seed);
        let layout = Layout::shuffled(&mut rng);
        let mut buffer = Vec::new();
        let (game, _) = random_playout(&rules, &layout, &mut rng, plies as u32, &mut buffer, |_, _| {});
        let mut listed = Vec::new();
        game.legal_actions(&mut listed);
        let listed: std::collections::HashSet<String> = listed.iter().map(|a| a.to_string()).collect();
        for from in records::games::banqi::Square::all() {
            for to in records::games::banqi::Square::all() {
                let mut a = Action::step(from, to);
                reveal_from_layout(&game, &layout, &mut a);
                let accepted = game.clone().play(&a).is_ok();
                prop_assert_eq!(accepted, listed.contains(&Action::step(from, to).to_string()), "{} in {}", a, game.position());
            }
        }
    }

    /// The playouts' counting picker enumerates exactly the listed legal actions (rulesets
    /// without chains, where it is used).
    #[test]
    fn counting_picker_matches_the_list(preset in 0usize..8, seed in any::<u64>(), plies in 0usize..150) {
        let rules = PRESETS[preset].ruleset;
        prop_assume!(!rules.allows_chain());
        let mut rng = StdRng::seed_from_u64(seed);
        let layout = Layout::shuffled(&mut rng);
        let mut buffer = Vec::new();
        let (game, _) = random_playout(&rules, &layout, &mut rng, plies as u32, &mut buffer, |_, _| {});
        let mut listed = Vec::new();
        records::games::banqi::legal_actions(game.position(), &rules, &mut listed);
        let picker = SingleHopActions::new(game.position(), &rules);
        let mut picked: Vec<String> = (0..picker.count).map(|k| picker.nth(k).to_string()).collect();
        let mut listed: Vec<String> = listed.iter().map(|a| a.to_string()).collect();
        picked.sort();
        listed.sort();
        prop_assert_eq!(picked, listed);
    }
}

fn strip_reveals(action: &str) -> String {
    let mut out = String::new();
    let mut skip = false;
    for c in action.chars() {
        match c {
            '(' => skip = true,
            ')' => skip = false,
            _ if !skip => out.push(c),
            _ => {}
        }
    }
    out
}

/// Random records (random presets, starts and actions, mostly nonsense) never panic the
/// validator or the scorer, and an error names a ply inside the record.
#[test]
fn any_record_gets_a_verdict_not_a_panic() {
    use rand::RngExt;
    const ACTIONS: &[&str] = &[
        "a1",
        "b8(G)",
        "a1(K)",
        "a1(k)",
        "d8(p)",
        "a1-a2",
        "a2-a1",
        "a1-a3",
        "b1-b2(k)",
        "a1-a2-a3",
        "a1-a2(P)-a3(p)",
        "c3",
        "c3(C)",
        "e9",
        "a1-",
        "x",
        "",
        "b2-b3",
        "a8-a1",
        "d1-d2(K)",
        "c1(M)",
    ];
    const STARTS: &[Option<&str>] = &[
        None,
        Some("4/4/4/4/4/4/X3/R2p r k1 0 2"),
        Some("k3/4/4/4/4/4/1p2/P2X r C1 5 30"),
        Some("4/4/4/4/4/4/4/4 r - 0 0"),
        Some("nonsense"),
    ];
    let mut rng = StdRng::seed_from_u64(7);
    for _ in 0..5000 {
        let preset = PRESETS[rng.random_range(0..PRESETS.len())].name;
        let n = rng.random_range(0..12);
        let actions: Vec<String> = (0..n)
            .map(|_| ACTIONS[rng.random_range(0..ACTIONS.len())].to_owned())
            .collect();
        let mut record = Record::new("banqi", preset, actions);
        record.start = STARTS[rng.random_range(0..STARTS.len())].map(str::to_owned);
        if rng.random_range(0..3) == 0 {
            record.layout = Some(Layout::shuffled(&mut rng).into());
        }
        let verdict = records::games::validate(&record);
        if let Some(records::core::ReplayError::IllegalPly { ply, .. }) = &verdict.error {
            assert!(*ply >= 1 && *ply <= record.actions.len(), "{record:?}");
        }
        assert_eq!(verdict.valid, verdict.error.is_none());
        let _ = records::games::banqi::scoring::score_record(&record);
    }
}
