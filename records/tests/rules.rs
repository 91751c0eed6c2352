//! Hand-checked positions for every rule and house rule of RULES.md §1–2.
//!
//! Each case is a position string, a ruleset, and what must (or must not) be legal from one
//! square, or what one action does. Boards read rank 8 first, files a→d.

use records::banqi::{
    Action, Effect, Game, Outcome, Overrides, Position, Reason, Ruleset, Violation, legal_actions,
};

fn rules(preset: &str, overrides: &str) -> Ruleset {
    let o: Overrides = serde_json::from_str(overrides).unwrap();
    Ruleset::from_preset(preset, &o).unwrap()
}

fn pos(s: &str) -> Position {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// The legal actions from `from`, as sorted notation.
fn moves_from(position: &str, rules: &Ruleset, from: &str) -> Vec<String> {
    let mut out = Vec::new();
    legal_actions(&pos(position), rules, &mut out);
    let mut v: Vec<String> = out
        .iter()
        .map(|a| a.to_string())
        .filter(|a| a.starts_with(from) && a.len() > 2 && a.as_bytes()[2] == b'-')
        .collect();
    v.sort();
    v
}

fn play(position: &str, rules: &Ruleset, action: &str) -> Result<(String, Effect), Violation> {
    let a: Action = action.parse().unwrap();
    pos(position)
        .play(rules, &a)
        .map(|(p, e)| (p.to_string(), e))
        .map_err(|e| e.reason)
}

/// A data-driven case: position, preset, overrides, square, expected actions from it.
struct MoveCase {
    what: &'static str,
    position: &'static str,
    preset: &'static str,
    overrides: &'static str,
    from: &'static str,
    expected: &'static [&'static str],
}

const MOVE_CASES: &[MoveCase] = &[
    MoveCase {
        what: "the general cannot take a soldier",
        position: "4/4/4/4/4/1p2/1K2/4 r - 0 10",
        preset: "tcga",
        overrides: "{}",
        from: "b2",
        expected: &["b2-a2", "b2-b1", "b2-c2"],
    },
    MoveCase {
        what: "a soldier takes the general",
        position: "4/4/4/4/4/1k2/1P2/4 r - 0 10",
        preset: "tcga",
        overrides: "{}",
        from: "b2",
        expected: &["b2-a2", "b2-b1", "b2-b3", "b2-c2"],
    },
    MoveCase {
        what: "a soldier cannot take a cannon; equal ranks take each other",
        position: "4/4/4/4/4/1c2/pP2/4 r - 0 10",
        preset: "tcga",
        overrides: "{}",
        from: "b2",
        expected: &["b2-a2", "b2-b1", "b2-c2"],
    },
    MoveCase {
        what: "higher rank takes lower, not the reverse",
        position: "4/4/4/4/4/1r2/nN1g/4 r - 0 10",
        preset: "tcga",
        overrides: "{}",
        from: "b2",
        expected: &["b2-a2", "b2-b1", "b2-c2"],
    },
    MoveCase {
        what: "Taiwan cannon jumps a covered screen, any rank, never adjacent",
        position: "4/4/4/1k2/1X2/pC2/4/4 r g1 0 10",
        preset: "tcga",
        overrides: "{}",
        from: "b3",
        expected: &["b3-b2", "b3-b5", "b3-c3"],
    },
    MoveCase {
        what: "Taiwan cannon: two screens block, the first piece beyond one screen is the target",
        position: "4/4/1k2/1X2/1X2/1C2/4/4 r g1m1 0 10",
        preset: "tcga",
        overrides: "{}",
        from: "b3",
        expected: &["b3-a3", "b3-b2", "b3-c3"],
    },
    MoveCase {
        what: "Taiwan cannon along a rank over an empty gap and a screen",
        position: "4/4/4/4/4/4/4/C1Pr r - 0 10",
        preset: "tcga",
        overrides: "{}",
        from: "a1",
        expected: &["a1-a2", "a1-b1", "a1-d1"],
    },
    MoveCase {
        what: "mainland cannon captures adjacent by rank (cannons and soldiers only)",
        position: "4/4/4/1k2/1X2/pCc1/1r2/4 r g1 0 10",
        preset: "mainland",
        overrides: "{}",
        from: "b3",
        expected: &["b3-a3", "b3-c3"],
    },
    MoveCase {
        what: "chariot without options: one square",
        position: "4/4/4/1k2/4/4/4/1R2 r - 0 10",
        preset: "tcga",
        overrides: "{}",
        from: "b1",
        expected: &["b1-a1", "b1-b2", "b1-c1"],
    },
    MoveCase {
        what: "chariot rush: slides, captures at distance 2+ ignoring rank",
        position: "4/4/4/1k2/4/4/4/1R2 r - 0 10",
        preset: "taiwan",
        overrides: r#"{"chariot_rush": true}"#,
        from: "b1",
        expected: &[
            "b1-a1", "b1-b2", "b1-b3", "b1-b4", "b1-b5", "b1-c1", "b1-d1",
        ],
    },
    MoveCase {
        what: "chariot rush: a capture at distance 1 uses the rank rule",
        position: "4/4/4/4/4/4/1k2/1R1g r - 0 10",
        preset: "taiwan",
        overrides: r#"{"chariot_rush": true}"#,
        from: "b1",
        expected: &["b1-a1", "b1-c1", "b1-d1"],
    },
    MoveCase {
        what: "chariot charge: plain moves one square, captures at range ignoring rank",
        position: "4/4/4/1k2/4/4/4/1R2 r - 0 10",
        preset: "gametower",
        overrides: r#"{"chariot_charge": true}"#,
        from: "b1",
        expected: &["b1-a1", "b1-b2", "b1-b5", "b1-c1"],
    },
    MoveCase {
        what: "chariot charge and rush together: rush wins",
        position: "4/4/4/1k2/4/4/4/1R2 r - 0 10",
        preset: "gametower",
        overrides: r#"{"chariot_charge": true, "chariot_rush": true}"#,
        from: "b1",
        expected: &[
            "b1-a1", "b1-b2", "b1-b3", "b1-b4", "b1-b5", "b1-c1", "b1-d1",
        ],
    },
    MoveCase {
        what: "chariot charge is blocked by a piece in between",
        position: "4/4/4/1k2/1X2/4/4/1R2 r g1 0 10",
        preset: "gametower",
        overrides: r#"{"chariot_charge": true}"#,
        from: "b1",
        expected: &["b1-a1", "b1-b2", "b1-c1"],
    },
    MoveCase {
        what: "horse diagonal: moves diagonally, a diagonal capture ignores rank",
        position: "4/4/4/4/4/1gm1/1N2/4 r - 0 10",
        preset: "taiwan",
        overrides: r#"{"horse_diagonal": true}"#,
        from: "b2",
        expected: &[
            "b2-a1", "b2-a2", "b2-a3", "b2-b1", "b2-c1", "b2-c2", "b2-c3",
        ],
    },
    MoveCase {
        what: "chain capture: every prefix, a cannon link needs a screen",
        position: "4/4/4/p3/X3/p3/X3/C3 r g1m1 0 10",
        preset: "tcga",
        overrides: r#"{"chain_capture": true}"#,
        from: "a1",
        expected: &["a1-a3", "a1-a3-a5", "a1-b1"],
    },
    MoveCase {
        what: "chain capture: branches and prefixes",
        position: "4/4/4/4/1p2/cpp1/1R2/4 r - 0 10",
        preset: "tcga",
        overrides: r#"{"chain_capture": true}"#,
        from: "b2",
        expected: &[
            "b2-a2", "b2-b1", "b2-b3", "b2-b3-a3", "b2-b3-b4", "b2-b3-c3", "b2-c2",
        ],
    },
    MoveCase {
        what: "dark capture: adjacent covered pieces may be attacked",
        position: "4/4/4/4/4/1X2/XR2/4 r k1p1 0 10",
        preset: "taiwan-full",
        overrides: "{}",
        from: "b2",
        expected: &["b2-a2", "b2-b1", "b2-b3", "b2-c2", "b2-d2"],
    },
    MoveCase {
        what: "dark chain (暗棋連吃): a listed chain ends at its first dark link",
        position: "4/4/4/4/1p2/1X2/1p2/1R2 r k1 0 10",
        preset: "gametower-dark-chain",
        overrides: "{}",
        from: "b1",
        expected: &["b1-a1", "b1-b2", "b1-b2-b3", "b1-c1"],
    },
    MoveCase {
        what: "taiwan-full: a dark capture is never a chain link",
        position: "4/4/4/4/1p2/1X2/1p2/1R2 r k1 0 10",
        preset: "taiwan-full",
        overrides: "{}",
        from: "b1",
        expected: &["b1-a1", "b1-b2", "b1-c1", "b1-d1"],
    },
];

#[test]
fn move_generation_cases() {
    for case in MOVE_CASES {
        let r = rules(case.preset, case.overrides);
        let got = moves_from(case.position, &r, case.from);
        assert_eq!(got, case.expected, "{}: {}", case.what, case.position);
        // Every listed action is accepted by the checker (dark links given a piece).
        for text in &got {
            let mut game = Game::from_position(r, pos(case.position));
            let mut a: Action = text.parse().unwrap();
            if let Action::Move(path) = &mut a {
                let covered = pos(case.position).covered();
                let pool = *pos(case.position).pool();
                for hop in path.hops_mut() {
                    if covered.contains(hop.to()) {
                        let piece = records::banqi::Piece::all()
                            .find(|p| pool.count(*p) > 0)
                            .unwrap();
                        hop.set_reveal(Some(piece));
                    }
                }
            }
            game.play(&a)
                .unwrap_or_else(|e| panic!("{}: {text}: {e}", case.what));
        }
    }
}

#[test]
fn illegal_actions_have_precise_reasons() {
    use Violation::*;
    let tcga = rules("tcga", "{}");
    let cases: &[(&str, &Ruleset, &str, Violation)] = &[
        (
            "4/4/4/4/4/1p2/1K2/4 r - 0 10",
            &tcga,
            "b2-b3",
            RankForbidsCapture,
        ),
        (
            "4/4/4/4/4/1c2/1P2/4 r - 0 10",
            &tcga,
            "b2-b3",
            RankForbidsCapture,
        ),
        (
            "4/4/4/4/4/1p2/1C2/4 r - 0 10",
            &tcga,
            "b2-b3",
            CannonNeedsOneScreen,
        ),
        (
            "4/4/1k2/1X2/1X2/1C2/4/4 r g1m1 0 10",
            &tcga,
            "b3-b6",
            CannonNeedsOneScreen,
        ),
        (
            "4/4/4/4/4/1k2/4/1C2 r - 0 10",
            &tcga,
            "b1-b3",
            CannonNeedsOneScreen,
        ),
        ("4/4/4/4/4/2k1/1C2/4 r - 0 10", &tcga, "b2-c3", Unreachable),
        ("4/4/4/1k2/4/4/4/1R2 r - 0 10", &tcga, "b1-b5", Unreachable),
        ("4/4/4/1k2/4/4/4/1R2 r - 0 10", &tcga, "b1-b3", Unreachable),
        (
            "4/4/4/4/4/1X2/1R2/4 r p1 0 10",
            &tcga,
            "b2-b3(p)",
            CoveredTarget,
        ),
        (
            "4/4/4/4/4/1X2/1R2/4 r p1 0 10",
            &tcga,
            "b2-b3",
            CoveredTarget,
        ),
        (
            "4/4/4/4/4/1X2/1R2/4 r p1 0 10",
            &tcga,
            "b3-b4",
            PieceCovered,
        ),
        ("4/4/4/4/4/1X2/1R2/4 r p1 0 10", &tcga, "a1-a2", NoSuchPiece),
        (
            "4/4/4/4/4/1X2/1r2/4 r p1 0 10",
            &tcga,
            "b2-b1",
            NotYourPiece,
        ),
        ("4/4/4/4/4/1X2/1R2/4 r p1 0 10", &tcga, "b2", NotCovered),
        ("4/4/4/4/4/1X2/1R2/4 r p1 0 10", &tcga, "a1(p)", NotCovered),
        ("4/4/4/4/4/1X2/1R2/4 r p1 0 10", &tcga, "b3", RevealMissing),
        (
            "4/4/4/4/4/1X2/1R2/4 r p1 0 10",
            &tcga,
            "b3(k)",
            RevealImpossible,
        ),
        (
            "4/4/4/4/4/1X2/1R2/4 r p1 0 10",
            &tcga,
            "b2-c2(k)",
            RevealUnexpected,
        ),
        ("4/4/4/4/4/1X2/1RP1/4 r p1 0 10", &tcga, "b2-c2", OwnPiece),
        ("4/4/4/4/4/1X2/1R2/4 r p1 0 10", &tcga, "b2-b2", Unreachable),
        (
            "4/4/4/4/1p2/1p2/1R2/4 r - 0 10",
            &tcga,
            "b2-b3-b4",
            ChainNotAllowed,
        ),
    ];
    for (position, r, action, expected) in cases {
        assert_eq!(
            play(position, r, action).map(|_| ()),
            Err(*expected),
            "{action} in {position}"
        );
    }

    let chain = rules("tcga", r#"{"chain_capture": true}"#);
    assert_eq!(
        play("4/4/4/4/4/1p2/1R2/4 r - 0 10", &chain, "b2-c2-c3").unwrap_err(),
        ChainNeedsCapture
    );
    assert_eq!(
        play("4/4/4/4/1p2/4/1R2/4 r - 0 10", &chain, "b2-b3-b4").unwrap_err(),
        ChainNeedsCapture
    );
    let rush = rules("taiwan", r#"{"chariot_rush": true}"#);
    assert_eq!(
        play("4/4/4/1k2/1X2/4/4/1R2 r g1 0 10", &rush, "b1-b5").unwrap_err(),
        Blocked
    );
    assert_eq!(
        play("4/4/4/1k2/1X2/4/4/1R2 r g1 0 10", &rush, "b1-b4").unwrap_err(),
        CoveredTarget
    );
    assert_eq!(
        play("4/4/4/4/4/4/1k2/1R2 r - 0 10", &rush, "b1-b2").unwrap_err(),
        RankForbidsCapture
    );

    let full = rules("taiwan-full", "{}");
    assert_eq!(
        play("4/4/4/4/1p2/1X2/1p2/1R2 r k1 0 10", &full, "b1-b2-b3(k)").unwrap_err(),
        DarkLinkNotAllowed
    );
    assert_eq!(
        play("4/4/4/4/1p2/1X2/1R2/4 r p1 0 10", &full, "b2-b3(p)-b4").unwrap_err(),
        DarkLinkNotAllowed
    );
    assert_eq!(
        play("4/4/4/4/1p2/1X2/1R2/4 r k1 0 10", &full, "b2-b3(k)-b4").unwrap_err(),
        TurnEnded
    );
    let dark_chain = rules("gametower-dark-chain", "{}");
    assert_eq!(
        play(
            "4/4/4/4/1p2/1X2/1R2/4 r k1 0 10",
            &dark_chain,
            "b2-b3(k)-b4"
        )
        .unwrap_err(),
        TurnEnded
    );
    assert_eq!(
        play(
            "4/4/4/4/1p2/1X2/1R2/4 r P1 0 10",
            &dark_chain,
            "b2-b3(P)-b4"
        )
        .unwrap_err(),
        TurnEnded
    );
}

#[test]
fn dark_capture_outcomes() {
    let full = rules("taiwan-full", "{}");
    // Success: an enemy the chariot beats by rank is captured, the chariot moves in.
    let (after, effect) = play("4/4/4/4/4/1X2/1R2/k3 r p1 0 10", &full, "b2-b3(p)").unwrap();
    assert_eq!(after, "4/4/4/4/4/1R2/4/k3 b - 0 11");
    assert!(matches!(effect, Effect::Capture { .. }));
    // Failure: a stronger enemy survives revealed, the attacker is removed.
    let (after, effect) = play("4/4/4/4/4/1X2/1R2/m2P r k1 0 10", &full, "b2-b3(k)").unwrap();
    assert_eq!(after, "4/4/4/4/4/1k2/4/m2P b - 0 11");
    assert!(matches!(effect, Effect::DarkFailed { .. }));
    // Own piece: simply revealed, the attacker stays; it counts as a flip.
    let (after, effect) = play("4/4/4/4/4/1X2/1R2/k3 r P1 0 10", &full, "b2-b3(P)").unwrap();
    assert_eq!(after, "4/4/4/4/4/1P2/1R2/k3 b - 0 11");
    assert!(matches!(effect, Effect::OwnReveal { .. }));
    // A chariot rushing two squares ignores rank, in the dark too.
    let (after, _) = play("4/4/4/4/1X2/4/1R2/m3 r k1 0 10", &full, "b2-b4(k)").unwrap();
    assert_eq!(after, "4/4/4/4/1R2/4/4/m3 b - 0 11");
    // A horse's diagonal dark capture ignores rank; orthogonally the rank rule applies.
    let (after, _) = play("4/4/4/4/4/2X1/1N2/k3 r g1 0 10", &full, "b2-c3(g)").unwrap();
    assert_eq!(after, "4/4/4/4/4/2N1/4/k3 b - 0 11");
    let (after, _) = play("4/4/4/4/4/1X2/1N2/k3 r g1 0 10", &full, "b2-b3(g)").unwrap();
    assert_eq!(after, "4/4/4/4/4/1g2/4/k3 b - 0 11");
    // A Taiwan cannon's dark capture over a screen always wins against an enemy.
    let (after, _) = play("4/4/4/4/1X2/1X2/1C2/m3 r k1g1 0 10", &full, "b2-b4(k)").unwrap();
    assert_eq!(after, "4/4/4/4/1C2/1X2/4/m3 b g1 0 11");
    // Dark chain: a successful dark link may be followed by more captures.
    let dark_chain = rules("gametower-dark-chain", "{}");
    let (after, _) = play(
        "4/4/4/4/1p2/1X2/1p2/1R2 r k1 0 10",
        &dark_chain,
        "b1-b2-b3(k)",
    )
    .unwrap();
    assert_eq!(after, "4/4/4/4/1p2/1k2/4/4 b - 0 11");
    let (after, _) = play(
        "k3/4/4/4/1p2/1X2/1R2/4 r p1 0 10",
        &dark_chain,
        "b2-b3(p)-b4",
    )
    .unwrap();
    assert_eq!(after, "k3/4/4/4/1R2/4/4/4 b - 0 11");
}

#[test]
fn a_failed_dark_capture_can_eliminate_the_mover() {
    let full = rules("taiwan-full", "{}");
    let mut game = Game::from_position(full, pos("4/4/4/4/4/1X2/1R2/4 r k1 0 10"));
    game.play(&"b2-b3(k)".parse().unwrap()).unwrap();
    let end = game.end().unwrap();
    assert_eq!(
        (end.outcome, end.reason),
        (Outcome::Player2, Reason::Elimination)
    );
}

#[test]
fn no_legal_action_loses() {
    let tcga = rules("tcga", "{}");
    let game = Game::from_position(tcga, pos("4/4/4/4/4/4/p3/Kp2 r - 0 10"));
    let end = game.end().unwrap();
    assert_eq!(
        (end.outcome, end.reason),
        (Outcome::Player2, Reason::NoMove)
    );
    // Covered pieces can always be flipped.
    let game = Game::from_position(tcga, pos("4/4/4/4/4/4/p3/KpX1 r g1 0 10"));
    assert_eq!(game.end(), None);
}

fn play_all(game: &mut Game, actions: &str) {
    for a in actions.split_whitespace() {
        assert_eq!(game.end(), None, "game ended before {a}");
        game.play(&a.parse().unwrap())
            .unwrap_or_else(|e| panic!("{a}: {e}"));
    }
}

#[test]
fn no_progress_draws_at_exactly_n() {
    let taiwan = rules("taiwan", "{}");
    let mut game = Game::from_position(taiwan, pos("k3/4/4/4/4/4/4/K3 r - 48 60"));
    play_all(&mut game, "a1-a2");
    assert_eq!(game.position().no_progress(), 49);
    assert_eq!(game.end(), None);
    play_all(&mut game, "a8-a7");
    let end = game.end().unwrap();
    assert_eq!(
        (end.outcome, end.reason),
        (Outcome::Draw, Reason::NoProgress)
    );
    // A capture resets the counter.
    let mut game = Game::from_position(taiwan, pos("k3/4/4/4/4/4/p3/K3 r - 49 60"));
    assert!(
        Game::from_position(taiwan, pos("k3/4/4/4/4/4/p3/K3 r - 50 60"))
            .end()
            .is_some()
    );
    play_all(&mut game, "a1-b1");
    assert_eq!(game.end().unwrap().reason, Reason::NoProgress);
    let mut game = Game::from_position(taiwan, pos("k3/4/4/4/4/4/4/KP1p r - 49 60"));
    play_all(&mut game, "b1-c1");
    assert_eq!(game.end().unwrap().reason, Reason::NoProgress);
    let mut game = Game::from_position(taiwan, pos("k3/4/4/4/4/4/4/KPp1 r - 49 60"));
    play_all(&mut game, "b1-c1");
    assert_eq!(game.position().no_progress(), 0);
    assert_eq!(game.end(), None);
}

#[test]
fn cycle_repetition_draws_on_the_third_cycle() {
    let tcga = rules("tcga", "{}");
    let mut game = Game::from_position(tcga, pos("3k/4/4/4/4/4/4/K3 r - 0 10"));
    play_all(
        &mut game,
        "a1-a2 d8-d7 a2-a1 d7-d8  a1-a2 d8-d7 a2-a1 d7-d8  a1-a2 d8-d7 a2-a1",
    );
    assert_eq!(game.end(), None);
    play_all(&mut game, "d7-d8");
    let end = game.end().unwrap();
    assert_eq!(
        (end.outcome, end.reason, end.period),
        (Outcome::Draw, Reason::Repetition, Some(4))
    );
}

#[test]
fn position_repetition_draws_on_the_third_occurrence() {
    let olympiad = rules("olympiad", "{}");
    let mut game = Game::from_position(olympiad, pos("3k/4/4/4/4/4/4/K3 r - 0 10"));
    play_all(&mut game, "a1-a2 d8-d7 a2-a1 d7-d8  a1-a2 d8-d7 a2-a1");
    assert_eq!(game.end(), None);
    play_all(&mut game, "d7-d8");
    let end = game.end().unwrap();
    assert_eq!(
        (end.outcome, end.reason),
        (Outcome::Draw, Reason::Repetition)
    );
    // The same plies under tcga are only two cycles: no draw yet.
    let mut game = Game::from_position(rules("tcga", "{}"), pos("3k/4/4/4/4/4/4/K3 r - 0 10"));
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
    let mut game = Game::from_position(gametower, pos(start));
    play_all(&mut game, nine);
    let err = game.play(&"d6-c6".parse().unwrap()).unwrap_err();
    assert_eq!(err.reason, Violation::LongChase);
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    let legal: Vec<String> = legal.iter().map(|a| a.to_string()).collect();
    assert!(
        !legal.contains(&"d6-c6".to_owned()) && legal.contains(&"d6-d5".to_owned()),
        "{legal:?}"
    );
    // Without the rule the tenth chase is fine; and a bare position starts at zero.
    let mut free = Game::from_position(rules("taiwan", "{}"), pos(start));
    play_all(&mut free, &format!("{nine} d6-c6"));
    let fresh = Game::from_position(gametower, *game.position());
    fresh.clone().play(&"d6-c6".parse().unwrap()).unwrap();
    // A turn that chases nothing resets the count: chase 4 times, rest, then 9 more.
    let mut game = Game::from_position(gametower, pos(start));
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
        Violation::LongChase
    );
}

#[test]
fn first_flip_assigns_colours() {
    let tcga = rules("tcga", "{}");
    let mut game = Game::new(tcga);
    play_all(&mut game, "b8(p)");
    let p = game.position();
    assert_eq!(
        p.color_of(records::banqi::Player::One),
        Some(records::banqi::Color::Black)
    );
    assert_eq!(p.turn(), Some(records::banqi::Color::Red));
    assert_eq!(
        p.to_string(),
        "XpXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX r K1G2M2R2N2C2P5k1g2m2r2n2c2p4 0 1"
    );
    // Player 2 may flip a black piece: only its own pieces matter for moving.
    play_all(&mut game, "a8(k) c8(R)");
    assert_eq!(
        game.play(&"b7-b6".parse().unwrap()).unwrap_err().reason,
        Violation::PieceCovered
    );
    assert_eq!(
        game.play(&"a8-a7".parse().unwrap()).unwrap_err().reason,
        Violation::NotYourPiece
    );
    assert_eq!(
        game.play(&"c8-c7".parse().unwrap()).unwrap_err().reason,
        Violation::CoveredTarget
    );
}

#[test]
fn a_layout_must_fit_the_start_position() {
    use records::banqi::{Layout, Piece, Position};
    use records::record::Record;
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
    let mut record = Record::new("tcga", vec![]);
    record.start = Some(start.to_string());
    record.layout = Some(layout);
    let verdict = records::replay::validate(&record);
    assert_eq!(verdict.error.unwrap().code(), "layout_mismatch");
    record.layout = Some(fitting);
    assert!(records::replay::validate(&record).valid);
}
