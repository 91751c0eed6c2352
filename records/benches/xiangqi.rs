//! Benchmarks of third-generation xiangqi on one core: perft from xiangqi's start (the move
//! generator), and random playouts under each preset (the whole rules, flips included).
//!
//! `cargo bench -p records --bench xiangqi`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use records::games::xiangqi::{Backs, PRESETS, Position, random_playout};

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
        let m = random_playout(
            &rules,
            Some(&backs),
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

criterion_group!(benches, perft, playouts);
criterion_main!(benches);
