//! The information-set search's speed for Three Kingdoms, Luzhanqi (dark) and xiangqi-3g:
//! 20,000 plies searched (tree and playouts) from mid-game positions of three random games,
//! on one core (throughput: plies per second).
//!
//! `cargo bench -p records --bench ismcts`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use records::core::analysis::{Limits, Search};
use records::core::replay::final_match;
use records::core::rules::Rules;
use records::games::luzhanqi::Luzhanqi;
use records::games::three_kingdoms::ThreeKingdoms;
use records::games::xiangqi::Xiangqi3g;

fn search<G: Rules + Search>(c: &mut Criterion, name: &str) {
    let matches: Vec<G::Match> = (0..3)
        .map(|seed| {
            let record = records::core::play::random_record::<G>(&G::PRESETS[0], seed, 40);
            final_match::<G>(&record).unwrap()
        })
        .collect();
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let run = || {
        matches
            .iter()
            .map(|m| G::analyze(m, None, &limits).unwrap().nodes)
            .sum::<u64>()
    };
    let mut group = c.benchmark_group("ismcts");
    group.throughput(Throughput::Elements(run()));
    group.sample_size(10);
    group.bench_function(name, |b| b.iter(run));
    group.finish();
}

fn searches(c: &mut Criterion) {
    search::<ThreeKingdoms>(c, "three_kingdoms_3_positions_20000_plies");
    search::<Luzhanqi>(c, "luzhanqi_dark_3_positions_20000_plies");
    search::<Xiangqi3g>(c, "xiangqi_3g_3_positions_20000_plies");
}

criterion_group!(benches, searches);
criterion_main!(benches);
