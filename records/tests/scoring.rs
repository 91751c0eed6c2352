//! Scoring and settlement on hand-checked positions and records (RULES.md §5).

use records::core::{Outcome, Reason, Record, Seat, StatedOutcome, StatedResult};
use records::games::banqi::scoring::{GameScore, material, player_points, score_record};
use records::games::banqi::settlement::{Series, SettleSeries as _, Table};
use records::games::banqi::{Color, Position};

mod common;

/// The seed's example position: red (player 1, "A") has captured 士象卒卒 = 13 points, black
/// (player 2, "B") has captured 帥相相炮兵兵兵兵兵 = 24 points.
const SEED_EXAMPLE: &str = "kgmr/rnnc/cppp/4/4/GGRR/NNC1/4 r - 0 10";

fn record(start: &str, actions: &[&str], result: Option<(StatedOutcome, Reason)>) -> Record {
    let mut r = Record::new(
        "banqi",
        "taiwan-full",
        actions.iter().map(|a| a.to_string()).collect(),
    );
    r.start = Some(start.to_owned());
    r.players = vec!["A".into(), "B".into()];
    r.result = result.map(|(outcome, reason)| StatedResult {
        outcome,
        reason: Some(reason),
        period: None,
    });
    r
}

fn score(r: &Record) -> GameScore {
    score_record(r).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn material_of_the_seed_example() {
    let pos: Position = SEED_EXAMPLE.parse().unwrap();
    let m = material(&pos);
    assert_eq!(m.red.revealed, "GGRRNNC");
    assert_eq!(m.red.captured, "KMMCPPPPP");
    assert_eq!((m.red.points_lost, m.red.points_alive), (24, 26));
    assert_eq!(m.black.captured, "gmpp");
    assert_eq!((m.black.points_lost, m.black.points_alive), (13, 37));
    assert_eq!((m.red.alive, m.black.alive), (7, 12));
    assert_eq!(m.points_at_stake, 63);
    assert_eq!(m.red.covered, "");
    // Player 1 is to move at an even ply with red: player 1 is red.
    assert_eq!(pos.color_of(Seat::FIRST), Some(Color::Red));
    assert_eq!(player_points(&pos), [13, 24]);
}

#[test]
fn covered_pieces_are_alive_and_at_stake() {
    let start: Position = Position::start();
    let m = material(&start);
    assert_eq!(m.red.covered, "KGGMMRRNNCCPPPPP");
    assert_eq!(m.black.captured, "");
    assert_eq!((m.red.points_alive, m.black.points_alive), (50, 50));
    assert_eq!(m.points_at_stake, 100);
    assert_eq!(player_points(&start), [0, 0]);
}

#[test]
fn the_seed_examples_from_a_record() {
    let table = Table::default();
    // B wins: A pays 155.
    let b_wins = score(&record(
        SEED_EXAMPLE,
        &[],
        Some((
            StatedOutcome::Ended(Outcome::win(Seat::SECOND, 2)),
            Reason::TIMEOUT,
        )),
    ));
    assert_eq!(b_wins.points(), [13, 24]);
    assert_eq!(b_wins.players[1].captured, "KMMCPPPPP");
    let mut series = Series::new(table);
    let s = series.settle(&b_wins).unwrap().unwrap();
    assert_eq!((s.payer, s.amount), (Some(Seat::FIRST), 155));
    // A wins: B pays 100.
    let a_wins = score(&record(
        SEED_EXAMPLE,
        &[],
        Some((
            StatedOutcome::Ended(Outcome::win(Seat::FIRST, 2)),
            Reason::RESIGNATION,
        )),
    ));
    assert_eq!(series.settle(&a_wins).unwrap().unwrap().amount, 100);
    // A draw, then B wins: A pays 255.
    let draw = score(&record(
        SEED_EXAMPLE,
        &[],
        Some((StatedOutcome::Ended(Outcome::draw(2)), Reason::AGREEMENT)),
    ));
    let d = series.settle(&draw).unwrap().unwrap();
    assert_eq!((d.amount, d.payer), (0, None));
    assert_eq!(series.draws, 1);
    let s = series.settle(&b_wins).unwrap().unwrap();
    assert_eq!((s.amount, s.carry, s.draws_carried), (255, 100, 1));
    assert_eq!(series.draws, 0, "a decided game clears the carry");
    // An unfinished game settles nothing and keeps the carry.
    series.draws = 2;
    let ongoing = score(&record(SEED_EXAMPLE, &[], None));
    assert!(ongoing.result.is_none());
    assert!(series.settle(&ongoing).is_none());
    assert_eq!(series.draws, 2);
}

#[test]
fn a_failed_dark_capture_credits_the_defender() {
    // Red's chariot on a1 attacks the covered piece on a2, which is black's general: the
    // chariot cannot beat it, is removed, and black's side is credited with 2 points.
    // Red has nothing left: black (player 2) wins by elimination.
    let r = record("4/4/4/4/4/4/X3/R3 r k1 0 2", &["a1-a2(k)"], None);
    let s = score(&r);
    let result = s.result.unwrap();
    assert_eq!(
        (result.outcome, result.reason),
        (Outcome::win(Seat::SECOND, 2), Some(Reason::ELIMINATION))
    );
    assert_eq!(
        s.players[1].captured.chars().filter(|&c| c == 'R').count(),
        2
    );
    assert_eq!(s.material.red.captured, "KGGMMRRNNCCPPPPP");
    assert_eq!(s.players[1].points, 50);
    // Black lost everything but its general before the start: 41 points to player 1.
    assert_eq!(s.players[0].points, 41);
    assert_eq!(s.material.black.revealed, "k");
    // 50 − 41 = 9 points of margin: 100 + 9 × 5.
    let paid = Series::new(Table::default()).settle(&s).unwrap().unwrap();
    assert_eq!(
        (paid.payee, paid.amount, paid.margin),
        (Some(Seat::SECOND), 145, 9)
    );
}

#[test]
fn the_last_soldier_takes_the_general() {
    // Red's only soldier takes black's general: 小兵立大功 for player 1.
    let s = score(&record("4/4/4/4/4/4/k3/P3 r - 0 2", &["a1-a2"], None));
    assert_eq!(s.players[0].soldier_took_general, 1);
    assert_eq!(s.players[1].soldier_took_general, 0);
    assert_eq!(s.result.unwrap().outcome, Outcome::win(Seat::FIRST, 2));
    // With another red soldier still covered, it is not the last one.
    let s = score(&record("4/4/4/4/4/4/k3/P2X r P1 0 2", &["a1-a2"], None));
    assert_eq!(s.players[0].soldier_took_general, 0);
}

/// What a table settles by (`core::coins::stakes`, any game played for coins, through the
/// rules' own hooks) is what Banqi's own scoring says, for the hand-made feat and for every
/// game of the TCGA corpus; a game not played for coins has none.
#[test]
fn a_tables_stakes_are_the_scorings() {
    use records::core::coins::stakes;
    use records::games::banqi::Banqi;
    let feat = record("4/4/4/4/4/4/k3/P3 r - 0 2", &["a1-a2"], None);
    let s = stakes::<Banqi>(&feat).unwrap().unwrap();
    assert_eq!((s.outcome, s.feats), (Outcome::win(Seat::FIRST, 2), [1, 0]));
    let mut finished = 0;
    for (source, r) in common::corpus_records() {
        let Ok(scored) = score_record(&r) else {
            continue;
        };
        let table = stakes::<Banqi>(&r).unwrap();
        match (scored.result, table) {
            (None, None) => {}
            (Some(result), Some(s)) => {
                finished += 1;
                assert_eq!(s.outcome, result.outcome, "{source}");
                assert_eq!(s.points, scored.points(), "{source}");
                assert_eq!(s.doubled, scored.doubled, "{source}");
                assert_eq!(
                    s.feats,
                    scored.players.map(|p| p.soldier_took_general),
                    "{source}"
                );
            }
            (a, b) => panic!("{source}: scoring {a:?}, stakes {b:?}"),
        }
    }
    assert!(finished > 2000, "{finished} finished corpus games");
    let luzhanqi = Record::new("luzhanqi", "open", vec![]);
    assert_eq!(
        stakes::<records::games::luzhanqi::Luzhanqi>(&luzhanqi).unwrap(),
        None
    );
}

#[test]
fn first_flips_double_the_game() {
    let mut same = Record::new("banqi", "tcga", vec!["b8(G)".into(), "d8(g)".into()]);
    let s = score(&same);
    assert_eq!(s.first_flips.as_deref(), Some("Gg"));
    assert!(s.doubled);
    assert_eq!(s.players[0].color, Some(Color::Red));
    same.actions[1] = "d8(c)".into();
    let s = score(&same);
    assert!(!s.doubled);
    assert_eq!(s.first_flips.as_deref(), Some("Gc"));
    // A game of one ply has no pair of first flips.
    let short = score(&Record::new("banqi", "tcga", vec!["b8(G)".into()]));
    assert_eq!((short.first_flips, short.doubled), (None, false));
}

#[test]
fn an_invalid_record_is_not_scored() {
    let bad = Record::new("banqi", "tcga", vec!["b8(G)".into(), "b8(g)".into()]);
    let error = score_record(&bad).unwrap_err();
    assert_eq!(error.code(), "not_covered");
}
