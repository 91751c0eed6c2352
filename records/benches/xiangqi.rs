//! Benchmarks of third-generation xiangqi on one core: perft from xiangqi's start (the move
//! generator), and random playouts under each preset (the whole rules, flips included).
//!
//! And the replay of one long capture-free record (two chariots and the generals wandering,
//! no position three times, the no-capture draw off): repetition is counted incrementally,
//! so validating it is linear in its length (it was quadratic: a 130,000-ply record took
//! 38–42 s).
//!
//! `cargo bench -p records --bench xiangqi`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use records::core::Turn as _;
use records::core::play::random_playout;
use records::games::xiangqi::{Backs, PRESETS, Position, Xiangqi3g};

fn perft(c: &mut Criterion) {
    let start = Position::start();
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    group.throughput(Throughput::Elements(3_290_240));
    group.bench_function("start_depth_4_nodes", |b| b.iter(|| start.perft(4)));
    group.finish();
}

/// Plies played by `games` seeded random games under `preset`.
fn playout_plies(preset: usize, games: u64) -> u64 {
    let rules = PRESETS[preset].ruleset;
    let mut buffer = Vec::with_capacity(128);
    let mut plies = 0;
    for seed in 0..games {
        let mut rng = SmallRng::seed_from_u64(seed);
        let backs = Backs::random(&mut rng);
        let m = random_playout::<Xiangqi3g, _>(
            rules,
            &backs,
            &mut rng,
            u32::MAX,
            &mut buffer,
            |_, _| {},
        );
        plies += m.pos.ply() as u64;
    }
    plies
}

fn playouts(c: &mut Criterion) {
    const GAMES: u64 = 100;
    let mut group = c.benchmark_group("playout");
    group.sample_size(10);
    for (preset, name) in [
        (0, "xiangqi_3g_100_games_plies"),
        (2, "xiangqi_100_games_plies"),
    ] {
        group.throughput(Throughput::Elements(playout_plies(preset, GAMES)));
        group.bench_function(name, |b| b.iter(|| playout_plies(preset, GAMES)));
    }
    group.finish();
}

/// A legal capture-free record of `plies` plies of plain xiangqi with the no-capture draw off:
/// random quiet moves that never make a position the third time.
fn long_record(plies: usize) -> records::core::Record {
    use records::core::rules::parts::*;
    use records::games::xiangqi::Xiangqi3g;
    use std::collections::HashMap;
    let options: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(r#"{"no_capture": null}"#).unwrap();
    let rules = records::core::rules::ruleset::<Xiangqi3g>(Some("xiangqi"), &options).unwrap();
    let start = "1n1k1a1n1/r8/9/9/9/9/9/9/R8/1N1AKA1N1 w - - 0 1";
    let mut pos: Position = start.parse().unwrap();
    let mut seen: HashMap<String, u8> = HashMap::new();
    let mut rng = SmallRng::seed_from_u64(130);
    let mut actions = Vec::with_capacity(plies);
    let mut list = Vec::new();
    while actions.len() < plies {
        pos.legal_actions(&mut list);
        let first = rand::RngExt::random_range(&mut rng, 0..list.len());
        let next = (0..list.len()).find_map(|i| {
            let action = list[(first + i) % list.len()];
            let mut next = pos.clone();
            let effect = next.play(&rules, &action).ok()?;
            let quiet = !matches!(
                effect,
                records::games::xiangqi::Effect::Move { captured: Some(_) }
            );
            // No checks: a checked side may have nothing but a capture left.
            let check = next.in_check(records::games::xiangqi::Side::Red)
                || next.in_check(records::games::xiangqi::Side::Black);
            let board: String = next.to_string().split(' ').take(2).collect();
            (quiet && !check && seen.get(&board).copied().unwrap_or(0) < 2)
                .then_some((action, next, board))
        });
        let (action, next, board) =
            next.unwrap_or_else(|| panic!("stuck at {} after {}: {list:?}", pos, actions.len()));
        *seen.entry(board).or_default() += 1;
        actions.push(action.to_string());
        pos = next;
    }
    let mut record = records::core::Record::new(Xiangqi3g::NAME, "xiangqi", actions);
    record.options = options;
    record.start = Some(start.to_owned());
    record
}

fn long_records(c: &mut Criterion) {
    let mut group = c.benchmark_group("validate_capture_free");
    group.sample_size(10);
    for plies in [16_000, 32_000, 130_000] {
        let record = long_record(plies);
        let verdict = records::games::validate(&record);
        assert!(verdict.valid && verdict.plies == plies, "{verdict:?}");
        group.throughput(Throughput::Elements(plies as u64));
        group.bench_function(format!("{plies}_plies"), |b| {
            b.iter(|| records::games::validate(&record))
        });
    }
    group.finish();
}

criterion_group!(benches, perft, playouts, long_records);
criterion_main!(benches);
