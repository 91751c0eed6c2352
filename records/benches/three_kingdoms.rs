//! Benchmark of the Three Kingdoms rules core: random playouts on one core.
//!
//! `cargo bench -p records --bench three_kingdoms`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use records::core::play::random_playout;
use records::core::rules::parts::*;
use records::games::three_kingdoms::{Layout, PRESETS, ThreeKingdoms};

/// Plies played by `games` seeded random games under `preset`.
fn playout_plies(preset: usize, games: u64) -> u64 {
    let rules = PRESETS[preset].ruleset;
    let mut buffer = Vec::with_capacity(128);
    let mut plies = 0;
    for seed in 0..games {
        let mut rng = SmallRng::seed_from_u64(seed);
        let layout = Layout::shuffled(&mut rng);
        let m = random_playout::<ThreeKingdoms, _>(
            rules,
            &layout,
            &mut rng,
            u32::MAX,
            &mut buffer,
            |_, _| {},
        );
        plies += m.position().ply() as u64;
    }
    plies
}

fn playouts(c: &mut Criterion) {
    const GAMES: u64 = 1000;
    let mut group = c.benchmark_group("playout");
    group.sample_size(20);
    for (preset, name) in [
        (0, "annihilation_1000_games_plies"),
        (1, "recall_1000_games_plies"),
    ] {
        group.throughput(Throughput::Elements(playout_plies(preset, GAMES)));
        group.bench_function(name, |b| b.iter(|| playout_plies(preset, GAMES)));
    }
    group.finish();
}

criterion_group!(benches, playouts);
criterion_main!(benches);
