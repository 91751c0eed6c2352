//! How long explorer requests take on a store: `cargo run --release -p records --features
//! store --example explorer_latency -- <database> [requests] [game] [preset]`.
//!
//! Lines of play are drawn from the store itself (from the start, each action chosen in
//! proportion to its games, to a depth of 0 to 14 plies), then each is asked as a request
//! asks it (the actions from the start, the answer with its intervals), timed one by one;
//! prints the median, the 90th and 99th percentiles and the slowest, in milliseconds.

use std::time::Instant;

use records::store::{Lookup, Store};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let database = args
        .get(1)
        .expect("a database: SQLite path or postgres:// URL");
    let requests: usize = args.get(2).map_or(10_000, |n| n.parse().expect("a count"));
    let game = args.get(3).cloned().unwrap_or_else(|| "banqi".into());
    let preset = args.get(4).cloned();
    let store = Store::open(database).expect("the store opens");
    let ratings = records::store::RatingsCache::default();
    let lookup = |actions: Vec<String>| Lookup {
        game: game.clone(),
        preset: preset.clone(),
        actions,
        ..Lookup::default()
    };
    let start = store
        .explore(&lookup(Vec::new()), &ratings)
        .expect("the start");
    let root: records::core::explorer::Node = start.node.parse().expect("a node");
    let lines: Vec<Vec<String>> = store
        .sample_lines(root, requests, 14, 1)
        .expect("lines")
        .into_iter()
        .map(|(actions, _)| actions)
        .collect();
    let mut times: Vec<f64> = lines
        .into_iter()
        .map(|actions| {
            let asked = lookup(actions);
            let t = Instant::now();
            let answer = store.explore(&asked, &ratings).expect("an answer");
            let ms = t.elapsed().as_secs_f64() * 1000.0;
            assert_eq!(answer.followed, asked.actions.len(), "{:?}", asked.actions);
            ms
        })
        .collect();
    times.sort_by(|a, b| a.total_cmp(b));
    let at = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
    println!(
        "{} requests ({} games at the start): median {:.3} ms, 90% {:.3} ms, 99% {:.3} ms, slowest {:.3} ms",
        times.len(),
        start.games,
        at(0.5),
        at(0.9),
        at(0.99),
        times[times.len() - 1]
    );
}
