//! The examples in docs/ are real: every one validates, and says what the docs say it does.

use records::core::Status;
use records::formats::{Format, parse_records};
use records::games::validate;

fn example(name: &str) -> records::core::Record {
    let path = format!("{}/../docs/examples/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    parse_records(&text, Format::Json).remove(0).unwrap()
}

#[test]
fn the_taiwan_full_example_shows_an_own_reveal_and_a_dark_capture() {
    let verdict = validate(&example("taiwan-full-record.json"));
    assert!(verdict.valid, "{:?}", verdict.error);
    assert_eq!(verdict.derived, Status::Ongoing);
    assert_eq!(
        verdict.final_position,
        "XXXX/XXXX/XXXX/X1XX/XgXX/XXXX/XXXX/KGXX r G1M2R2N2C2P4k1g1m2r2n2c2p5 0 4"
    );
}

#[test]
fn the_override_example_ends_with_no_move() {
    let verdict = validate(&example("tcga-override-record.json"));
    assert!(verdict.valid, "{:?}", verdict.error);
    let Status::Ended { end, ply } = verdict.derived else {
        panic!()
    };
    assert_eq!((end.reason.code(), ply), ("no_move", 10));
}

#[test]
fn a_layout_contradiction_is_caught() {
    let mut r = example("taiwan-full-record.json");
    r.actions[1] = "b5(k)".into();
    let e = validate(&r).error.unwrap();
    assert_eq!(e.code(), "reveal_contradicts_layout");
}

#[test]
fn the_series_example_settles_as_the_seed_says() {
    use records::games::banqi::scoring::score_record;
    use records::games::banqi::settlement::{Series, SettleSeries as _, Table};
    let path = format!(
        "{}/../docs/examples/series.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let mut series = Series::new(Table::default());
    let amounts: Vec<u64> = parse_records(&text, Format::JsonLines)
        .into_iter()
        .map(|r| {
            let score = score_record(&r.unwrap()).unwrap();
            series.settle(&score).unwrap().unwrap().amount
        })
        .collect();
    assert_eq!(amounts, [155, 100, 0, 255]);
}

#[test]
fn the_three_kingdoms_example_ends_by_recall() {
    let record = example("three-kingdoms-record.json");
    let verdict = validate(&record);
    assert!(verdict.valid, "{:?}", verdict.error);
    let Status::Ended { end, ply } = verdict.derived else {
        panic!()
    };
    assert_eq!(
        (end.outcome.to_string(), end.reason.code(), ply),
        ("player1>player2>player3".to_owned(), "recall", 32)
    );
    // Stating another ranking is a mismatch.
    let mut wrong = record;
    wrong.result = Some(
        serde_json::from_str(r#"{"outcome": "player2>player1>player3", "reason": "recall"}"#)
            .unwrap(),
    );
    assert_eq!(validate(&wrong).error.unwrap().code(), "result_mismatch");
}

#[test]
fn the_luzhanqi_example_is_a_dark_game_won_by_the_flag() {
    use records::core::replay::final_match;
    use records::core::rules::parts::*;
    use records::games::luzhanqi::Luzhanqi;
    let record = example("luzhanqi-record.json");
    let verdict = validate(&record);
    assert!(verdict.valid, "{:?}", verdict.error);
    let Status::Ended { end, ply } = verdict.derived else {
        panic!()
    };
    assert_eq!(
        (end.outcome.to_string(), end.reason.code(), ply),
        ("player1".to_owned(), "flag_captured", 13)
    );
    // Each player's view of the record: its own pieces, the enemy's as `?`, the announced
    // attacks; never the other setup.
    let m = final_match::<Luzhanqi>(&record).unwrap();
    let black = record.layout.as_ref().unwrap()["black"].as_str().unwrap();
    let view = serde_json::to_string(&Luzhanqi::view(&m, records::core::Seat::FIRST)).unwrap();
    assert!(!view.contains(black), "{view}");
    assert!(view.contains("\"announcements\":[{"), "{view}");
    // Without the referee's setups the record cannot be replayed.
    let mut bare = record;
    bare.layout = None;
    assert_eq!(validate(&bare).error.unwrap().code(), "invalid_start");
}

#[test]
fn the_xiangqi_example_has_a_double_flip_a_transformation_and_a_mate() {
    use records::core::replay::final_match;
    use records::core::rules::parts::*;
    use records::games::xiangqi::Xiangqi3g;
    let record = example("xiangqi-3g-record.json");
    let verdict = validate(&record);
    assert!(verdict.valid, "{:?}", verdict.error);
    let Status::Ended { end, ply } = verdict.derived else {
        panic!()
    };
    assert_eq!(
        (end.outcome.to_string(), end.reason.code(), ply),
        ("player2".to_owned(), "checkmate", 20)
    );
    assert!(record.actions.contains(&"e0=f2(K)".to_owned()));
    // Black's view names none of red's backs still unseen.
    let m = final_match::<Xiangqi3g>(&record).unwrap();
    let red = record.layout.as_ref().unwrap()["red"].as_str().unwrap();
    let view = serde_json::to_string(&Xiangqi3g::view(&m, records::core::Seat::SECOND)).unwrap();
    assert!(!view.contains(red), "{view}");
    // Naming another back for the double flip contradicts the record's backs.
    let mut wrong = record;
    let i = wrong.actions.iter().position(|a| a == "e0=f2(K)").unwrap();
    wrong.actions[i] = "e0=f2(M)".into();
    assert_eq!(
        validate(&wrong).error.unwrap().code(),
        "reveal_contradicts_layout"
    );
}
