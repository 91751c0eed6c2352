//! Benchmarks of the Banqi rules core: random playouts and corpus replay.
//!
//! `cargo bench -p records --bench banqi`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use records::core::Record;
use records::games::banqi::{Layout, Ruleset, random_playout};
use records::games::validate;

/// Plies played by 1,000 seeded random games under `tcga`, to size the throughput.
fn playout_plies(games: u64) -> u64 {
    let rules = Ruleset::TCGA;
    let mut buffer = Vec::with_capacity(256);
    let mut plies = 0;
    for seed in 0..games {
        let mut rng = SmallRng::seed_from_u64(seed);
        let layout = Layout::shuffled(&mut rng);
        let (game, _) = random_playout(&rules, &layout, &mut rng, u32::MAX, &mut buffer, |_, _| {});
        plies += game.position().ply() as u64;
    }
    plies
}

fn playouts(c: &mut Criterion) {
    const GAMES: u64 = 1000;
    let plies = playout_plies(GAMES);
    let mut group = c.benchmark_group("playout");
    group.throughput(Throughput::Elements(plies));
    group.sample_size(20);
    group.bench_function("tcga_1000_games_plies", |b| b.iter(|| playout_plies(GAMES)));
    group.finish();
}

#[path = "../tests/common/mod.rs"]
mod common;

fn corpus() -> Vec<Record> {
    common::corpus_records()
        .into_iter()
        .map(|(_, r)| r)
        .collect()
}

fn replay(c: &mut Criterion) {
    let records = corpus();
    let plies: usize = records.iter().map(|r| r.actions.len()).sum();
    let mut group = c.benchmark_group("replay");
    group.throughput(Throughput::Elements(plies as u64));
    group.sample_size(10);
    group.bench_function("tcga_corpus_2338_games_validate", |b| {
        b.iter(|| records.iter().filter(|r| validate(r).valid).count())
    });
    group.finish();
}

criterion_group!(benches, playouts, replay);
criterion_main!(benches);
