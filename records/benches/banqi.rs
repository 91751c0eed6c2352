//! Benchmarks of the Banqi rules core: random playouts, corpus replay and the search.
//!
//! `cargo bench -p records --bench banqi`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use records::core::Record;
use records::core::{Engine as _, Turn as _};
use records::games::banqi::{Layout, random_playout};
use records::games::validate;

/// Plies played by `games` seeded random games under `preset`, to size the throughput.
fn playout_plies(preset: &str, games: u64) -> u64 {
    let rules = records::games::banqi::PRESETS
        .iter()
        .find(|p| p.name == preset)
        .unwrap()
        .ruleset;
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
    let mut group = c.benchmark_group("playout");
    group.sample_size(20);
    // tcga counts cycles of plies; olympiad counts occurrences of positions.
    for preset in ["tcga", "olympiad"] {
        group.throughput(Throughput::Elements(playout_plies(preset, GAMES)));
        group.bench_function(format!("{preset}_1000_games_plies"), |b| {
            b.iter(|| playout_plies(preset, GAMES))
        });
    }
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

/// The search's speed: 20,000 positions searched from mid-game positions of three random
/// games (throughput: positions per second, on one core).
fn search(c: &mut Criterion) {
    use records::games::banqi::engine::{self, Limits};
    use records::games::banqi::{Banqi, PRESETS, Ruleset};
    let positions: Vec<_> = (0..3)
        .map(|seed| {
            let record = records::core::play::random_record::<Banqi>(&PRESETS[0], seed, 40);
            *records::core::replay::final_match::<Banqi>(&record)
                .unwrap()
                .position()
        })
        .collect();
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let nodes: u64 = positions
        .iter()
        .map(|p| engine::analyze(p, &Ruleset::TCGA, &limits).nodes)
        .sum();
    let mut group = c.benchmark_group("search");
    group.throughput(Throughput::Elements(nodes));
    group.sample_size(10);
    group.bench_function("tcga_3_positions_20000_nodes", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| engine::analyze(p, &Ruleset::TCGA, &limits).nodes)
                .sum::<u64>()
        })
    });
    group.finish();
}

/// A move's search to depth 3 (the horizon's flips valued as they stand, as at 100 ms a move)
/// from every third position of the engine's two test games, with Star1 alone and with Star2's
/// probes: the two side by side in one run.
fn star2(c: &mut Criterion) {
    use records::games::banqi::engine::{self, HorizonFlips, Limits, Mode, Root};
    use records::games::banqi::{Banqi, Ruleset};
    let positions: Vec<_> = include_str!("../tests/data/banqi-engine-games.jsonl")
        .lines()
        .flat_map(|line| {
            let record: Record = serde_json::from_str(line).unwrap();
            let (positions, _) = records::core::replay::replay::<Banqi>(&record);
            positions.into_iter().step_by(3).collect::<Vec<_>>()
        })
        .collect();
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let mut group = c.benchmark_group("move_search_depth_3");
    group.sample_size(10);
    for (name, star2) in [("star1", false), ("star2", true)] {
        group.bench_function(format!("{}_positions_{name}", positions.len()), |b| {
            b.iter(|| {
                (positions.iter())
                    .map(|p| {
                        let root = Root {
                            mode: Mode::Play,
                            horizon_flips: HorizonFlips::Evaluated,
                            star2,
                            ..Root::new(p, &Ruleset::TCGA)
                        };
                        engine::analyze_root(&root, &limits).nodes
                    })
                    .sum::<u64>()
            })
        });
    }
    group.finish();
}

/// Solving an endgame table afresh (its smaller tables cached after the first run).
fn endgames(c: &mut Criterion) {
    use records::games::banqi::engine::endgame::solve_table;
    use records::games::banqi::{Piece, Ruleset};
    let rules = Ruleset::TCGA;
    let pieces =
        |text: &str| -> Vec<Piece> { text.chars().map(|c| Piece::from_char(c).unwrap()).collect() };
    let mut group = c.benchmark_group("endgame");
    group.sample_size(10);
    for signature in ["KPk", "KPkg", "RCnp"] {
        let p = pieces(signature);
        group.bench_function(format!("solve_{signature}"), |b| {
            b.iter(|| solve_table(&p, &rules))
        });
    }
    group.finish();
}

criterion_group!(benches, playouts, replay, search, star2, endgames);
criterion_main!(benches);
