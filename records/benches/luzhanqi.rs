//! Benchmark of the Luzhanqi rules core: random playouts per mode on one core (random legal
//! setups in open and dark games, a shuffled layout in flip games).
//!
//! `cargo bench -p records --bench luzhanqi`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use records::core::play::random_playout;
use records::core::rules::parts::*;
use records::games::luzhanqi::{Luzhanqi, PRESETS};

/// Plies played by `games` seeded random games under `preset`.
fn playout_plies(preset: usize, games: u64) -> u64 {
    let rules = PRESETS[preset].ruleset;
    let mut buffer = Vec::with_capacity(128);
    let mut plies = 0;
    for seed in 0..games {
        let mut rng = SmallRng::seed_from_u64(seed);
        let layout = Luzhanqi::deal(&rules, &mut rng);
        let m = random_playout::<Luzhanqi, _>(
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
    const GAMES: u64 = 200;
    let mut group = c.benchmark_group("playout");
    group.sample_size(20);
    for (preset, name) in [
        (0, "dark_200_games_plies"),
        (1, "open_200_games_plies"),
        (2, "flip_200_games_plies"),
        (3, "dark_house_200_games_plies"),
    ] {
        group.throughput(Throughput::Elements(playout_plies(preset, GAMES)));
        group.bench_function(name, |b| b.iter(|| playout_plies(preset, GAMES)));
    }
    group.finish();
}

criterion_group!(benches, playouts);
criterion_main!(benches);
