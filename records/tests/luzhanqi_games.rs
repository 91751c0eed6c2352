//! Luzhanqi, many random games per mode: no panic, deterministic replay through the
//! generic core, notation round trips, and every game ends by a rule.

use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::StdRng;
use records::core::Record;
use records::core::play::random_playout;
use records::core::replay::{Status, validate};
use records::core::rules::parts::*;
use records::games::luzhanqi::{Layout, Luzhanqi, PRESETS, Position};

fn record_of(preset: usize, seed: u64, max_plies: u32) -> (Record, Position) {
    let preset = &PRESETS[preset % PRESETS.len()];
    let mut rng = StdRng::seed_from_u64(seed);
    let layout = Luzhanqi::deal(&preset.ruleset, &mut rng);
    let mut actions = Vec::new();
    let mut buffer = Vec::new();
    let last = random_playout::<Luzhanqi, _>(
        preset.ruleset,
        &layout,
        &mut rng,
        max_plies,
        &mut buffer,
        |m, a| {
            let pos = &m.pos;
            let text = a.to_string();
            assert_eq!(
                text.parse::<records::games::luzhanqi::Action>().unwrap(),
                *a
            );
            let back: Position = pos.to_string().parse().expect("a played position parses");
            assert_eq!(back, *pos, "position string round trip");
            actions.push(text);
        },
    );
    let mut record = Record::new("luzhanqi", preset.name, actions);
    record.layout = Some(Layout::to_value(&layout));
    (record, last.pos)
}

#[test]
fn ten_thousand_random_games_per_mode() {
    for (i, preset) in PRESETS.iter().enumerate() {
        let rules = preset.ruleset;
        let mut ended = 0;
        let mut buffer = Vec::new();
        let mut rng = StdRng::seed_from_u64(i as u64);
        for _ in 0..10_000 {
            let layout = Luzhanqi::deal(&rules, &mut rng);
            let last = random_playout::<Luzhanqi, _>(
                rules,
                &layout,
                &mut rng,
                5_000,
                &mut buffer,
                |_, _| {},
            );
            if last.end().is_some() {
                ended += 1;
            }
        }
        assert_eq!(ended, 10_000, "{}: every game ends by a rule", preset.name);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    #[test]
    fn records_replay_to_the_same_end(preset in 0usize..4, seed in any::<u64>()) {
        let (record, last) = record_of(preset, seed, 3_000);
        let verdict = validate::<Luzhanqi>(&record);
        prop_assert!(verdict.valid, "{:?}", verdict.error);
        prop_assert_eq!(verdict.final_position, last.to_string());
        let rules = PRESETS[preset % PRESETS.len()].ruleset;
        match (verdict.derived, last.end(&rules)) {
            (Status::Ended { end, .. }, Some(e)) => prop_assert_eq!(end, e),
            (Status::Ongoing, None) => {}
            (d, e) => prop_assert!(false, "{:?} vs {:?}", d, e),
        }
    }
}
