//! The opening explorer under load (issue 59): one instance of the real service (release
//! build) on a store given by path, `--clients` (16) connections asking unfiltered requests
//! one after another for `--seconds` (20), while `--filtered` (2) more ask filtered ones (a
//! player's games at a position; `--filter month`: one month of 2025, as a whole month;
//! `--filter days`: 10 to 40 days of 2025 from a day within a month); each request timed from
//! sending it to its whole answer. A refused request (503) waits as its `Retry-After` says
//! before the client asks again; with `--flood`, it asks again at once.
//!
//!     cargo build --release -p api
//!     cargo run --release -p api --example explorer_load -- <store.db> [--clients 16] \
//!         [--filtered 2] [--seconds 20] [--players 2000] [--filter players|month|days] [--flood]
//!
//! The requests are drawn from the store first (from the start, each action chosen in
//! proportion to its games, 0 to 14 plies deep): half asked by their line (`actions=`), half
//! by the node the line leads to (`node=`). The filtered ones name one of `p0` … `p<players>`
//! (the names the bench's games were given, docs/performance.md) at one of those nodes.
//! Prints, for each kind, the requests answered, the median, 90th and 99th percentile and the
//! slowest in milliseconds, and how many were refused (503).

#[path = "common/mod.rs"]
mod common;
use common::{arg, service_binary, start_service};

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use records::core::explorer::Node;
use records::store::{Lookup, RatingsCache, Store};

/// Percent-encodes what a query value may not hold as it is.
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b',' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// One GET on a kept-alive connection: the status, and the Retry-After header's seconds.
fn get(reader: &mut BufReader<TcpStream>, addr: &str, path: &str) -> (u16, u64) {
    // One write: a request in pieces waits for the server's delayed ACK of the first (40 ms).
    let request =
        format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept: application/json\r\n\r\n");
    reader.get_mut().write_all(request.as_bytes()).unwrap();
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    let status: u16 = line.split(' ').nth(1).unwrap().parse().unwrap();
    let (mut length, mut retry) = (0, 0);
    loop {
        line.clear();
        reader.read_line(&mut line).unwrap();
        if line == "\r\n" {
            break;
        }
        let header = line.to_ascii_lowercase();
        if let Some(v) = header.strip_prefix("content-length:") {
            length = v.trim().parse().unwrap();
        }
        if let Some(v) = header.strip_prefix("retry-after:") {
            retry = v.trim().parse().unwrap();
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    (status, retry)
}

/// Median, 90%, 99% and slowest of `times` (ms).
fn summary(mut times: Vec<f64>) -> String {
    if times.is_empty() {
        return "none".into();
    }
    times.sort_by(|a, b| a.total_cmp(b));
    let at = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
    format!(
        "{} answered: median {:.2} ms, 90% {:.2} ms, 99% {:.2} ms, slowest {:.2} ms",
        times.len(),
        at(0.5),
        at(0.9),
        at(0.99),
        times[times.len() - 1]
    )
}

fn main() {
    let database = std::env::args()
        .nth(1)
        .filter(|a| !a.starts_with("--"))
        .expect("a store: a SQLite path");
    let (clients, filtered) = (arg("--clients", 16), arg("--filtered", 2));
    let seconds = arg("--seconds", 20);
    let flood = std::env::args().any(|a| a == "--flood");
    let players = arg("--players", 2000);
    let filter = std::env::args()
        .skip_while(|a| a != "--filter")
        .nth(1)
        .unwrap_or_else(|| "players".into());
    assert!(
        ["players", "month", "days"].contains(&filter.as_str()),
        "--filter players, month or days"
    );
    // The requests, drawn from the store.
    let store = Store::open(&database).expect("the store opens");
    let ratings = RatingsCache::default();
    let start = store
        .explore(
            &Lookup {
                game: "banqi".into(),
                ..Lookup::default()
            },
            &ratings,
        )
        .expect("the start");
    let root: Node = start.node.parse().unwrap();
    let (mut paths, mut nodes) = (Vec::new(), Vec::new());
    for (actions, node) in store.sample_lines(root, 10_000, 14, 1).unwrap() {
        paths.push(if paths.len() % 2 == 0 {
            format!("/v1/explorer?actions={}", encode(&actions.join(",")))
        } else {
            format!("/v1/explorer?node={node}")
        });
        nodes.push(node);
    }
    drop(store);
    let dir = std::env::temp_dir().join(format!("anqi-explorer-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mut child, addr) = start_service(
        &service_binary(),
        &dir,
        &[
            ("DATABASE_URL", database.as_str()),
            ("ANQI_READ_ONLY", "true"),
        ],
        None,
    );
    let until = Instant::now() + Duration::from_secs(seconds);
    let run = |i: u64, filtered: bool| {
        let (addr, paths, nodes) = (addr.clone(), paths.clone(), nodes.clone());
        let filter = filter.clone();
        std::thread::spawn(move || {
            let mut rng = StdRng::seed_from_u64(100 + i);
            let stream = TcpStream::connect(&addr).unwrap();
            stream.set_nodelay(true).unwrap();
            let mut reader = BufReader::new(stream);
            let (mut times, mut refused) = (Vec::new(), 0);
            while Instant::now() < until {
                let path = if filtered {
                    let node = nodes[rng.random_range(0..nodes.len())];
                    let month: usize = rng.random_range(1..=12);
                    match filter.as_str() {
                        "month" => {
                            let last = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
                            format!(
                                "/v1/explorer?node={node}&date_from=2025-{month:02}-01&date_to=2025-{month:02}-{last}"
                            )
                        }
                        "days" => {
                            // From a day within a month, 10 to 40 days (the bench's games are
                            // dated on days 1 to 28 of each month of 2025).
                            let day = rng.random_range(2..=28);
                            let days = rng.random_range(10..=40);
                            let (mut to_month, mut to_day) = (month, day + days);
                            while to_day > 28 {
                                to_day -= 28;
                                to_month += 1;
                            }
                            let to = if to_month > 12 {
                                "2025-12-31".to_owned()
                            } else {
                                format!("2025-{to_month:02}-{to_day:02}")
                            };
                            format!(
                                "/v1/explorer?node={node}&date_from=2025-{month:02}-{day:02}&date_to={to}"
                            )
                        }
                        _ => {
                            let player = rng.random_range(0..players);
                            format!("/v1/explorer?node={node}&players=p{player}")
                        }
                    }
                } else {
                    paths[rng.random_range(0..paths.len())].clone()
                };
                let t = Instant::now();
                match get(&mut reader, &addr, &path) {
                    (200, _) => times.push(t.elapsed().as_secs_f64() * 1000.0),
                    (503, retry) => {
                        refused += 1;
                        // A client does as it is asked; `--flood` asks again at once.
                        if !flood {
                            std::thread::sleep(Duration::from_secs(retry));
                        }
                    }
                    (status, _) => panic!("{path}: {status}"),
                }
            }
            (times, refused)
        })
    };
    let plain: Vec<_> = (0..clients).map(|i| run(i, false)).collect();
    let walking: Vec<_> = (0..filtered).map(|i| run(1000 + i, true)).collect();
    let gather = |threads: Vec<std::thread::JoinHandle<(Vec<f64>, u64)>>| {
        let (mut all, mut refused) = (Vec::new(), 0);
        for t in threads {
            let (times, r) = t.join().unwrap();
            all.extend(times);
            refused += r;
        }
        (all, refused)
    };
    let (plain, plain_refused) = gather(plain);
    let (walked, walked_refused) = gather(walking);
    let _ = child.kill();
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "{} games at the start; {clients} clients unfiltered for {seconds} s: {}, {plain_refused} refused ({:.0} requests/s)",
        start.games,
        summary(plain.clone()),
        plain.len() as f64 / seconds as f64
    );
    println!(
        "{filtered} clients filtered ({filter} at a node): {}, {walked_refused} refused",
        summary(walked)
    );
}
