//! Benchmark of the record store: import the TCGA corpus (2,338 games, parsed beforehand)
//! into an empty database: SQLite always, PostgreSQL when `ANQI_TEST_POSTGRES_URL` is set.
//!
//! `cargo bench -p records --features store --bench store`

use std::io::Read;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use records::banqi::tcga;
use records::store::{Incoming, Store, scratch_postgres_database};

fn corpus() -> Vec<Incoming> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/tcga-ntu2021.tar.gz"
    );
    let file = std::fs::File::open(path).expect("tests/data/tcga-ntu2021.tar.gz");
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(file));
    let mut out = Vec::new();
    for entry in archive.entries().unwrap() {
        let mut entry = entry.unwrap();
        let name = entry.path().unwrap().to_string_lossy().into_owned();
        if !name.ends_with(".txt") {
            continue;
        }
        let mut text = String::new();
        entry.read_to_string(&mut text).unwrap();
        for record in tcga::parse(&text).unwrap() {
            out.push(Incoming {
                record,
                source: name.clone(),
            });
        }
    }
    out
}

fn import(c: &mut Criterion) {
    let games = corpus();
    let mut group = c.benchmark_group("import");
    group.throughput(Throughput::Elements(games.len() as u64));
    group.sample_size(10);
    let dir = std::env::temp_dir().join(format!("anqi-bench-{}", std::process::id()));
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

criterion_group!(benches, import);
criterion_main!(benches);
