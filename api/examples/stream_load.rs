//! The event streams under load (issue 43): one instance of the real service (release build,
//! SQLite store), `--games` Banqi games with both seats' streams open (2,000 streams for the
//! default 1,000 games), while plies are committed at `--rate` a second (500) spread over the
//! games; for each ply, the time from sending it (`POST /v1/play`) to its `ply` event arriving
//! on each seat's stream — an upper bound of commit-to-delivery, since it includes the play's
//! own request — and the service's memory before and after the streams opened.
//!
//!     cargo build --release -p api
//!     cargo run --release -p api --example stream_load -- [--games 1000] [--rate 500] [--seconds 20]
//!
//! The plies are chosen here from each game's own match (dealt with the layout, so no request
//! asks which actions are legal): one request a ply, played with the game's own token.

#[path = "common/mod.rs"]
mod common;
use common::{arg, rss_kib, service_binary, start_service};

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use records::core::rules::parts::*;
use records::games::banqi::Banqi;
use serde_json::{Value, json};

fn post(addr: &str, path: &str, body: &Value) -> Value {
    let mut s = TcpStream::connect(addr).unwrap();
    let body = body.to_string();
    write!(
        s,
        "POST {path} HTTP/1.0\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let (_, body) = text.split_once("\r\n\r\n").unwrap();
    serde_json::from_str(body).unwrap_or(Value::Null)
}

type Sent = Arc<Mutex<HashMap<(usize, u32), Instant>>>;

fn main() {
    let games = arg("--games", 1000) as usize;
    let rate = arg("--rate", 500);
    let seconds = arg("--seconds", 20);
    let bin = service_binary();
    let dir = std::env::temp_dir().join(format!("anqi-stream-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mut child, addr) = start_service(&bin, &dir, &[], None);
    let pid = child.id();
    println!(
        "service {addr} (pid {pid}); {games} games, {} streams, {rate} plies/s for {seconds} s",
        games * 2
    );

    // Deal, with the layouts (the driver plays from its own copy of each match).
    let mut dealt = Vec::new();
    let mut matches = Vec::new();
    for i in 0..games {
        let d = post(
            &addr,
            "/v1/deal",
            &json!({"seed": i, "include_layout": true}),
        );
        let record: records::core::Record = serde_json::from_value(d["record"].clone()).unwrap();
        let prepared = records::core::replay::prepare::<Banqi>(&record).unwrap();
        matches.push((
            <Banqi as records::core::rules::Game>::Match::from_position(
                prepared.rules,
                prepared.start,
            ),
            prepared.hidden.unwrap(),
        ));
        dealt.push(d);
    }
    std::thread::sleep(Duration::from_millis(500));
    let before = rss_kib(pid);

    // Open both seats' streams, each read on a thread of its own.
    let sent: Sent = Arc::default();
    let latencies = Arc::new(Mutex::new(Vec::<f64>::new()));
    let mut readers = Vec::new();
    for (g, d) in dealt.iter().enumerate() {
        for seat in ["player1", "player2"] {
            let ticket = post(
                &addr,
                "/v1/stream-ticket",
                &json!({"game_id": d["game_id"], "token": d["seat_tokens"][seat]}),
            );
            let url = ticket["url"].as_str().unwrap().to_owned();
            let (addr, sent, latencies) = (addr.clone(), sent.clone(), latencies.clone());
            let reader = std::thread::Builder::new()
                .stack_size(64 * 1024)
                .spawn(move || {
                    let mut s = TcpStream::connect(&addr).unwrap();
                    write!(s, "GET {url} HTTP/1.0\r\nHost: {addr}\r\n\r\n").unwrap();
                    for line in BufReader::new(s).lines() {
                        let Ok(line) = line else { return };
                        let Some(id) = line.strip_prefix("id: ") else {
                            continue;
                        };
                        let arrived = Instant::now();
                        let Some((ply, _)) = id.split_once('.') else {
                            continue;
                        };
                        let ply: u32 = ply.parse().unwrap();
                        if let Some(at) = sent.lock().unwrap().get(&(g, ply)) {
                            let ms = arrived.saturating_duration_since(*at).as_secs_f64() * 1e3;
                            latencies.lock().unwrap().push(ms);
                        }
                    }
                })
                .unwrap();
            readers.push(reader);
        }
    }
    std::thread::sleep(Duration::from_secs(2));
    let open = rss_kib(pid);
    println!(
        "memory: {} MiB before the streams, {} MiB with {} open: {:.1} KiB a stream",
        before / 1024,
        open / 1024,
        games * 2,
        (open.saturating_sub(before)) as f64 / (games * 2) as f64
    );

    // Commit plies at `rate` a second, round the games, from a few driver threads.
    let drivers = 4;
    let started = Instant::now();
    let total = (rate * seconds) as usize;
    let matches = Arc::new(Mutex::new(matches));
    let dealt = Arc::new(dealt);
    let handles: Vec<_> = (0..drivers)
        .map(|k| {
            let (addr, sent, matches, dealt) =
                (addr.clone(), sent.clone(), matches.clone(), dealt.clone());
            std::thread::spawn(move || {
                let mut played = 0;
                for n in (k..total).step_by(drivers) {
                    let due = started + Duration::from_secs_f64(n as f64 / rate as f64);
                    if let Some(wait) = due.checked_duration_since(Instant::now()) {
                        std::thread::sleep(wait);
                    }
                    let g = n % games;
                    let (action, ply) = {
                        let mut all = matches.lock().unwrap();
                        let (m, hidden) = &mut all[g];
                        if m.end().is_some() {
                            continue;
                        }
                        let mut legal = Vec::new();
                        m.legal_actions(&mut legal);
                        let a = legal[n % legal.len()];
                        let a = Banqi::reveal(a, m.position(), Some(hidden)).unwrap();
                        m.play(&a).unwrap();
                        (a.to_string(), m.position().ply())
                    };
                    sent.lock().unwrap().insert((g, ply), Instant::now());
                    let answer = post(
                        &addr,
                        "/v1/play",
                        &json!({"game_id": dealt[g]["game_id"], "token": dealt[g]["token"],
                                "action": action, "ply": ply - 1}),
                    );
                    assert!(answer.get("position").is_some(), "{answer}");
                    played += 1;
                }
                played
            })
        })
        .collect();
    let played: usize = handles.into_iter().map(|h| h.join().unwrap()).sum();
    let took = started.elapsed().as_secs_f64();
    std::thread::sleep(Duration::from_secs(1));
    let mut l = latencies.lock().unwrap().clone();
    l.sort_by(f64::total_cmp);
    let at = |q: f64| l[((l.len() - 1) as f64 * q) as usize];
    println!(
        "{played} plies in {took:.1} s ({:.0} a second); {} deliveries: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms (from sending the ply to its event)",
        played as f64 / took,
        l.len(),
        at(0.5),
        at(0.99),
        l[l.len() - 1]
    );
    println!("memory at the end: {} MiB", rss_kib(pid) / 1024);
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
}
