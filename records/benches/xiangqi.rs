//! Benchmark of the xiangqi move generator: perft from the start position on one core.
//!
//! `cargo bench -p records --bench xiangqi`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use records::games::xiangqi::Position;

fn perft(c: &mut Criterion) {
    let start = Position::start();
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    group.throughput(Throughput::Elements(3_290_240));
    group.bench_function("start_depth_4_nodes", |b| b.iter(|| start.perft(4)));
    group.finish();
}

criterion_group!(benches, perft);
criterion_main!(benches);
