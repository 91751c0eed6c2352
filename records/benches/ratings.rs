//! Benchmark of a rating fit (`records::rating::fit`) as the service's leaderboards run it:
//! players of graded strength, each meeting twenty others about ten times in both seats, with
//! draws. A fit's Newton steps solve a dense system of one row per player, so its cost grows
//! as the cube of the players: what `records::rating::MAX_PLAYERS` is chosen from.
//!
//! `cargo bench -p records --features rating --bench ratings`

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use rand::{RngExt, SeedableRng, rngs::StdRng};
use records::core::{Outcome, Seat};
use records::rating::{Meeting, Model, fit};

fn meetings(players: usize) -> Vec<Meeting> {
    let mut rng = StdRng::seed_from_u64(players as u64);
    let strength = |i: usize| i as f64 * 4.0 / players as f64;
    let mut out = Vec::new();
    for i in 0..players {
        for k in 1..=10 {
            let j = (i + k * 7) % players;
            if i == j {
                continue;
            }
            let p = 1.0 / (1.0 + (strength(j) - strength(i) - 0.2).exp());
            for (outcome, games) in [
                (Outcome::win(Seat::FIRST, 2), (p * 8.0).round() as u64),
                (
                    Outcome::win(Seat::SECOND, 2),
                    ((1.0 - p) * 8.0).round() as u64,
                ),
                (Outcome::draw(2), rng.random_range(0..3)),
            ] {
                out.push(Meeting {
                    players: vec![format!("p{i}"), format!("p{j}")],
                    outcome,
                    games,
                });
            }
        }
    }
    out
}

fn fits(c: &mut Criterion) {
    let mut group = c.benchmark_group("fit");
    group.sample_size(10);
    for players in [100, 300, 500, 1000] {
        if std::env::var("ANQI_BENCH_PLAYERS").is_ok_and(|only| only != players.to_string()) {
            continue;
        }
        let m = meetings(players);
        let model = Model {
            max_players: players,
            ..Model::default()
        };
        group.bench_with_input(BenchmarkId::new("players", players), &m, |b, m| {
            b.iter(|| fit(m, &model).expect("a fit"))
        });
        // The model before 2026-11-28 (Davidson's draws, one group, no dispersion), side by
        // side: what Elo's scale and the groups cost.
        let davidson = Model {
            draws: true,
            ..model
        };
        group.bench_with_input(BenchmarkId::new("davidson", players), &m, |b, m| {
            b.iter(|| fit(m, &davidson).expect("a fit"))
        });
    }
    group.finish();
}

criterion_group!(benches, fits);
criterion_main!(benches);
