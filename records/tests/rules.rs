//! Hand-checked positions for every rule and house rule of RULES.md §1–2.
//!
//! Each case is a position string, a ruleset, and what must (or must not) be legal from one
//! square, or what one action does. Boards read rank 8 first, files a→d.

use records::core::Engine as _;
use records::core::Violation;
use records::games::banqi::{Action, Effect, Match, Ruleset};

mod common;
use common::banqi::{moves_from, play, pos, rules};

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
            let mut game = Match::from_position(r, pos(case.position));
            let mut a: Action = text.parse().unwrap();
            if let Action::Move(path) = &mut a {
                let covered = pos(case.position).covered();
                let pool = *pos(case.position).pool();
                for hop in path.hops_mut() {
                    if covered.contains(hop.to()) {
                        let piece = records::games::banqi::Piece::all()
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
    let tcga = rules("tcga", "{}");
    let cases: &[(&str, &Ruleset, &str, Violation)] = &[
        (
            "4/4/4/4/4/1p2/1K2/4 r - 0 10",
            &tcga,
            "b2-b3",
            Violation::RANK_FORBIDS_CAPTURE,
        ),
        (
            "4/4/4/4/4/1c2/1P2/4 r - 0 10",
            &tcga,
            "b2-b3",
            Violation::RANK_FORBIDS_CAPTURE,
        ),
        (
            "4/4/4/4/4/1p2/1C2/4 r - 0 10",
            &tcga,
            "b2-b3",
            Violation::CANNON_NEEDS_ONE_SCREEN,
        ),
        (
            "4/4/1k2/1X2/1X2/1C2/4/4 r g1m1 0 10",
            &tcga,
            "b3-b6",
            Violation::CANNON_NEEDS_ONE_SCREEN,
        ),
        (
            "4/4/4/4/4/1k2/4/1C2 r - 0 10",
            &tcga,
            "b1-b3",
            Violation::CANNON_NEEDS_ONE_SCREEN,
        ),
        (
            "4/4/4/4/4/2k1/1C2/4 r - 0 10",
            &tcga,
            "b2-c3",
            Violation::UNREACHABLE,
        ),
        (
            "4/4/4/1k2/4/4/4/1R2 r - 0 10",
            &tcga,
            "b1-b5",
            Violation::UNREACHABLE,
        ),
        (
            "4/4/4/1k2/4/4/4/1R2 r - 0 10",
            &tcga,
            "b1-b3",
            Violation::UNREACHABLE,
        ),
        (
            "4/4/4/4/4/1X2/1R2/4 r p1 0 10",
            &tcga,
            "b2-b3(p)",
            Violation::COVERED_TARGET,
        ),
        (
            "4/4/4/4/4/1X2/1R2/4 r p1 0 10",
            &tcga,
            "b2-b3",
            Violation::COVERED_TARGET,
        ),
        (
            "4/4/4/4/4/1X2/1R2/4 r p1 0 10",
            &tcga,
            "b3-b4",
            Violation::PIECE_COVERED,
        ),
        (
            "4/4/4/4/4/1X2/1R2/4 r p1 0 10",
            &tcga,
            "a1-a2",
            Violation::NO_SUCH_PIECE,
        ),
        (
            "4/4/4/4/4/1X2/1r2/4 r p1 0 10",
            &tcga,
            "b2-b1",
            Violation::NOT_YOUR_PIECE,
        ),
        (
            "4/4/4/4/4/1X2/1R2/4 r p1 0 10",
            &tcga,
            "b2",
            Violation::NOT_COVERED,
        ),
        (
            "4/4/4/4/4/1X2/1R2/4 r p1 0 10",
            &tcga,
            "a1(p)",
            Violation::NOT_COVERED,
        ),
        (
            "4/4/4/4/4/1X2/1R2/4 r p1 0 10",
            &tcga,
            "b3",
            Violation::REVEAL_MISSING,
        ),
        (
            "4/4/4/4/4/1X2/1R2/4 r p1 0 10",
            &tcga,
            "b3(k)",
            Violation::REVEAL_IMPOSSIBLE,
        ),
        (
            "4/4/4/4/4/1X2/1R2/4 r p1 0 10",
            &tcga,
            "b2-c2(k)",
            Violation::REVEAL_UNEXPECTED,
        ),
        (
            "4/4/4/4/4/1X2/1RP1/4 r p1 0 10",
            &tcga,
            "b2-c2",
            Violation::OWN_PIECE,
        ),
        (
            "4/4/4/4/4/1X2/1R2/4 r p1 0 10",
            &tcga,
            "b2-b2",
            Violation::UNREACHABLE,
        ),
        (
            "4/4/4/4/1p2/1p2/1R2/4 r - 0 10",
            &tcga,
            "b2-b3-b4",
            Violation::CHAIN_NOT_ALLOWED,
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
        Violation::CHAIN_NEEDS_CAPTURE
    );
    assert_eq!(
        play("4/4/4/4/1p2/4/1R2/4 r - 0 10", &chain, "b2-b3-b4").unwrap_err(),
        Violation::CHAIN_NEEDS_CAPTURE
    );
    let rush = rules("taiwan", r#"{"chariot_rush": true}"#);
    assert_eq!(
        play("4/4/4/1k2/1X2/4/4/1R2 r g1 0 10", &rush, "b1-b5").unwrap_err(),
        Violation::BLOCKED
    );
    assert_eq!(
        play("4/4/4/1k2/1X2/4/4/1R2 r g1 0 10", &rush, "b1-b4").unwrap_err(),
        Violation::COVERED_TARGET
    );
    assert_eq!(
        play("4/4/4/4/4/4/1k2/1R2 r - 0 10", &rush, "b1-b2").unwrap_err(),
        Violation::RANK_FORBIDS_CAPTURE
    );

    let full = rules("taiwan-full", "{}");
    assert_eq!(
        play("4/4/4/4/1p2/1X2/1p2/1R2 r k1 0 10", &full, "b1-b2-b3(k)").unwrap_err(),
        Violation::DARK_LINK_NOT_ALLOWED
    );
    assert_eq!(
        play("4/4/4/4/1p2/1X2/1R2/4 r p1 0 10", &full, "b2-b3(p)-b4").unwrap_err(),
        Violation::DARK_LINK_NOT_ALLOWED
    );
    assert_eq!(
        play("4/4/4/4/1p2/1X2/1R2/4 r k1 0 10", &full, "b2-b3(k)-b4").unwrap_err(),
        Violation::TURN_ENDED
    );
    let dark_chain = rules("gametower-dark-chain", "{}");
    assert_eq!(
        play(
            "4/4/4/4/1p2/1X2/1R2/4 r k1 0 10",
            &dark_chain,
            "b2-b3(k)-b4"
        )
        .unwrap_err(),
        Violation::TURN_ENDED
    );
    assert_eq!(
        play(
            "4/4/4/4/1p2/1X2/1R2/4 r P1 0 10",
            &dark_chain,
            "b2-b3(P)-b4"
        )
        .unwrap_err(),
        Violation::TURN_ENDED
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
