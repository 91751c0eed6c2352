//! Benchmark of the record store: import the TCGA corpus (2,338 games, parsed beforehand)
//! into an empty database: SQLite always, PostgreSQL when `ANQI_TEST_POSTGRES_URL` is set.
//!
//! `cargo bench -p records --features store --bench store`
//!
//! Also what an import costs per game before it writes (`prepare`), with the opening
//! explorer's walk and without.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use records::store::{Incoming, Store, scratch_postgres_database};

#[path = "../tests/common/mod.rs"]
mod common;

fn corpus() -> Vec<Incoming> {
    common::corpus_records()
        .into_iter()
        .map(|(source, record)| Incoming { record, source })
        .collect()
}

fn import(c: &mut Criterion) {
    let games = corpus();
    let mut group = c.benchmark_group("import");
    group.throughput(Throughput::Elements(games.len() as u64));
    group.sample_size(10);
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-bench");
    std::fs::create_dir_all(&dir).unwrap();
    let mut n = 0;
    group.bench_function("sqlite_tcga_corpus_games", |b| {
        b.iter_batched(
            || {
                n += 1;
                Store::open(&dir.join(format!("bench-{n}.db")).display().to_string()).unwrap()
            },
            |store| store.import(&games).unwrap(),
            BatchSize::PerIteration,
        )
    });
    if let Ok(admin) = std::env::var("ANQI_TEST_POSTGRES_URL") {
        group.bench_function("postgres_tcga_corpus_games", |b| {
            b.iter_batched(
                || Store::open(&scratch_postgres_database(&admin, "anqi_bench").unwrap()).unwrap(),
                |store| store.import(&games).unwrap(),
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

/// What an import does per game before writing, on one core: read the JSON line, then
/// validate (replay), or prepare the row (replay, score, canonical JSON and its hash, the
/// stored JSON). Two cores cannot import faster than twice this rate.
fn prepare(c: &mut Criterion) {
    let lines: Vec<String> = corpus()
        .iter()
        .map(|g| serde_json::to_string(&g.record).unwrap())
        .collect();
    let parse = |line: &String| serde_json::from_str::<records::core::Record>(line).unwrap();
    let mut group = c.benchmark_group("prepare");
    group.throughput(Throughput::Elements(lines.len() as u64));
    group.sample_size(10);
    group.bench_function("parse_tcga_corpus_games", |b| {
        b.iter(|| {
            lines
                .iter()
                .map(parse)
                .map(|r| r.actions.len())
                .sum::<usize>()
        })
    });
    group.bench_function("parse_and_validate_tcga_corpus_games", |b| {
        b.iter(|| {
            lines
                .iter()
                .filter(|l| records::games::validate(&parse(l)).valid)
                .count()
        })
    });
    // With the opening explorer's walk (16 plies, the default) and without it (0): the
    // difference is what the explorer costs a game before it is written.
    for (name, depth) in [
        ("parse_and_prepare_tcga_corpus_games", 16),
        ("parse_and_prepare_tcga_corpus_games_explorer_off", 0),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                lines
                    .iter()
                    .filter(|l| {
                        records::store::NewGame::from_record(&parse(l), "bench", "now", depth)
                            .is_ok()
                    })
                    .count()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, import, prepare);
criterion_main!(benches);
