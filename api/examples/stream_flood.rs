//! A seat that floods its game with streams (issue 57): one instance of the real service
//! (release build, SQLite store) and one long game (xiangqi-3g without its draw rules, played
//! to `--plies` plies, 12,000 by default), whose player-1 seat opens `--streams` streams (300)
//! that follow it and `--replays` streams (30) that replay it from the start
//! (`Last-Event-ID: 0.0`). Measured, side by side in one run, phases alternating: the time a
//! play takes (`POST /v1/play`, sent to answered) with no stream open, and with the flood
//! open (the replays start with each flood phase); and the service's resident memory before
//! and at its peak during each flood phase, on this game and on a game a quarter as long (the
//! memory should not follow the game's length). Plays are sent one every `--interval-ms` (20:
//! fifty a second, far faster than people play, yet each play finds the streams done with the
//! last one; 0 sends each as soon as the last is answered, when the streams' work for earlier
//! plies is still queued and every play waits behind it). The service runs with
//! `--streams-per-seat` above the flood, so that every stream opens: the default cap (8) would
//! refuse all but 8 of them with 429 (shown at the end).
//!
//!     cargo build --release -p api
//!     cargo run --release -p api --example stream_flood -- [--plies 12000] [--streams 300] [--replays 30] [--rounds 2] [--plays 300] [--interval-ms 20]

#[path = "common/mod.rs"]
mod common;
use common::{arg, rss_kib, service_binary, start_service};

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// One request on a kept-alive connection: the status and the body.
struct Client {
    reader: BufReader<TcpStream>,
    addr: String,
}

impl Client {
    fn new(addr: &str) -> Client {
        let s = TcpStream::connect(addr).unwrap();
        s.set_nodelay(true).unwrap();
        Client {
            reader: BufReader::new(s),
            addr: addr.to_owned(),
        }
    }

    fn post(&mut self, path: &str, body: &Value) -> (u16, Value) {
        let body = body.to_string();
        write!(
            self.reader.get_mut(),
            "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        )
        .unwrap();
        let mut status = String::new();
        self.reader.read_line(&mut status).unwrap();
        let code: u16 = status[9..12].parse().unwrap();
        let mut length = 0;
        loop {
            let mut line = String::new();
            self.reader.read_line(&mut line).unwrap();
            if line.trim().is_empty() {
                break;
            }
            if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                length = v.trim().parse().unwrap();
            }
        }
        let mut body = vec![0; length];
        self.reader.read_exact(&mut body).unwrap();
        (code, serde_json::from_slice(&body).unwrap_or(Value::Null))
    }
}

const CYCLE: [&str; 4] = ["b0c2", "b9c7", "c2b0", "c7b9"];

/// A long xiangqi-3g game: its deal and its plies so far.
struct Game {
    deal: Value,
    plies: usize,
}

impl Game {
    fn deal(client: &mut Client) -> Game {
        let (status, deal) = client.post(
            "/v1/deal",
            &json!({"game": "xiangqi-3g", "options": {"repetition": false, "no_capture": null}}),
        );
        assert_eq!(status, 200, "{deal}");
        Game { deal, plies: 0 }
    }

    /// Plays the next ply; gives how long the request took.
    fn play(&mut self, client: &mut Client) -> Duration {
        let seat = ["player1", "player2"][self.plies % 2];
        let body = json!({"game": "xiangqi-3g", "game_id": self.deal["game_id"],
            "token": self.deal["seat_tokens"][seat], "action": CYCLE[self.plies % 4],
            "ply": self.plies});
        let started = Instant::now();
        let (status, played) = client.post("/v1/play", &body);
        let took = started.elapsed();
        assert_eq!(status, 200, "ply {}: {played}", self.plies);
        self.plies += 1;
        took
    }
}

/// Opens a stream of player 1's seat (from `resume`): the connection, once the service has
/// answered 200, else None.
fn open_stream(addr: &str, game: &Game, resume: Option<&str>) -> Option<TcpStream> {
    let (status, ticket) = Client::new(addr).post(
        "/v1/stream-ticket",
        &json!({"game": "xiangqi-3g", "game_id": game.deal["game_id"],
                "token": game.deal["seat_tokens"]["player1"]}),
    );
    assert_eq!(status, 200, "{ticket}");
    let url = ticket["url"].as_str().unwrap().to_owned();
    let mut s = TcpStream::connect(addr).unwrap();
    let resume = resume.map_or(String::new(), |id| format!("Last-Event-ID: {id}\r\n"));
    write!(s, "GET {url} HTTP/1.1\r\nHost: {addr}\r\n{resume}\r\n").unwrap();
    let mut head = [0u8; 12];
    s.read_exact(&mut head).unwrap();
    (&head[9..12] == b"200").then_some(s)
}

/// Reads (and drops) what `streams` receive, on one thread that waits on them all with
/// poll(2) (a thread per stream would cost the machine, which the service shares, a context
/// switch per stream and ply), until `stop`; counts the bytes into `read`.
fn drain(
    streams: Vec<TcpStream>,
    stop: Arc<AtomicBool>,
    read: Arc<AtomicU64>,
) -> std::thread::JoinHandle<()> {
    use std::os::fd::AsRawFd;
    std::thread::spawn(move || {
        let mut fds: Vec<libc::pollfd> = streams
            .iter()
            .map(|s| libc::pollfd {
                fd: s.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            })
            .collect();
        let mut buf = vec![0u8; 64 * 1024];
        while !stop.load(Ordering::Relaxed) {
            // SAFETY: `fds` is a live array of pollfd of the streams this thread owns.
            let ready = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, 50) };
            if ready <= 0 {
                continue;
            }
            for (fd, mut s) in fds.iter_mut().zip(&streams) {
                if fd.revents & libc::POLLIN != 0 {
                    match s.read(&mut buf) {
                        Ok(0) | Err(_) => fd.fd = -1,
                        Ok(n) => {
                            read.fetch_add(n as u64, Ordering::Relaxed);
                        }
                    }
                }
                fd.revents = 0;
            }
        }
    })
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * q) as usize]
}

/// Plays `n` plies, one every `every` (none: each as soon as the last is answered); gives
/// each play's time in milliseconds, sorted.
fn timed_plays(client: &mut Client, game: &mut Game, n: u64, every: Duration) -> Vec<f64> {
    let started = Instant::now();
    let mut times: Vec<f64> = (0..n as u32)
        .map(|k| {
            if let Some(wait) = (started + every * k).checked_duration_since(Instant::now()) {
                std::thread::sleep(wait);
            }
            game.play(client).as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times
}

fn main() {
    let plies = arg("--plies", 12_000) as usize;
    let streams = arg("--streams", 300) as usize;
    let replays = arg("--replays", 30) as usize;
    let rounds = arg("--rounds", 2);
    let plays = arg("--plays", 300);
    let every = Duration::from_millis(arg("--interval-ms", 20));
    let bin = service_binary();
    let dir = std::env::temp_dir().join(format!("anqi-stream-flood-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cap = (streams + replays + 10).to_string();
    // ANQI_FLOOD_LOG=file: the service's request log (each request's µs, as JSON) goes there.
    let log = std::env::var("ANQI_FLOOD_LOG").ok();
    let (mut child, addr) = start_service(
        &bin,
        &dir,
        &[("ANQI_STREAMS_PER_SEAT", &cap), ("ANQI_LOG_FORMAT", "json")],
        log.as_deref(),
    );
    let pid = child.id();
    let mut client = Client::new(&addr);
    let mut long = Game::deal(&mut client);
    let mut short = Game::deal(&mut client);
    for _ in 0..plies {
        long.play(&mut client);
    }
    for _ in 0..plies / 4 {
        short.play(&mut client);
    }
    println!(
        "service {addr} (pid {pid}); a xiangqi-3g game of {plies} plies and one of {}; \
         {streams} streams and {replays} replays from the start on one seat; a play every {} ms",
        plies / 4,
        every.as_millis()
    );
    println!("| phase | plays | p50 ms | p90 ms | p99 ms | memory before → peak |");
    println!("|---|---|---|---|---|---|");
    let mut quiet_p50 = Vec::new();
    let mut flood_p50 = Vec::new();
    for round in 0..rounds {
        for (name, game) in [("long", &mut long), ("short", &mut short)] {
            if name == "short" && round > 0 {
                continue;
            }
            let times = timed_plays(&mut client, game, plays, every);
            if name == "long" {
                quiet_p50.push(percentile(&times, 0.5));
            }
            println!(
                "| {name} game, no stream | {plays} | {:.3} | {:.3} | {:.3} | {} MiB |",
                percentile(&times, 0.5),
                percentile(&times, 0.9),
                percentile(&times, 0.99),
                rss_kib(pid) / 1024
            );
            let before = rss_kib(pid);
            let stop = Arc::new(AtomicBool::new(false));
            let read = Arc::new(AtomicU64::new(0));
            let peak = Arc::new(AtomicU64::new(before));
            let sampler = {
                let (stop, peak) = (stop.clone(), peak.clone());
                std::thread::spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        peak.fetch_max(rss_kib(pid), Ordering::Relaxed);
                        std::thread::sleep(Duration::from_millis(20));
                    }
                })
            };
            let mut open = Vec::new();
            for i in 0..streams + replays {
                let resume = (i >= streams).then_some("0.0");
                open.extend(open_stream(&addr, game, resume));
            }
            assert_eq!(open.len(), streams + replays, "every stream opened");
            let reader = drain(open, stop.clone(), read.clone());
            let times = timed_plays(&mut client, game, plays, every);
            if name == "long" {
                flood_p50.push(percentile(&times, 0.5));
            }
            stop.store(true, Ordering::Relaxed);
            reader.join().unwrap();
            sampler.join().unwrap();
            println!(
                "| {name} game, {streams} streams + {replays} replays | {plays} | {:.3} | {:.3} | {:.3} | {} → {} MiB ({:.1} MB streamed) |",
                percentile(&times, 0.5),
                percentile(&times, 0.9),
                percentile(&times, 0.99),
                before / 1024,
                peak.load(Ordering::Relaxed) / 1024,
                read.load(Ordering::Relaxed) as f64 / 1e6
            );
            // The streams close when the service next writes to them.
            std::thread::sleep(Duration::from_millis(300));
        }
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    println!(
        "a play's median: {:.3} ms with no stream, {:.3} ms with the flood: {:.2} times",
        mean(&quiet_p50),
        mean(&flood_p50),
        mean(&flood_p50) / mean(&quiet_p50)
    );
    // Without the raised cap: the ninth stream of a seat is refused.
    let mut refused = 0;
    let _ = child.kill();
    let _ = child.wait();
    let (mut child, addr) = start_service(&bin, &dir, &[], None);
    let mut opened = Vec::new();
    for _ in 0..20 {
        match open_stream(&addr, &long, None) {
            Some(s) => opened.push(s),
            None => refused += 1,
        }
    }
    println!(
        "with the default cap: {} of 20 streams of one seat opened, {refused} refused (429)",
        opened.len()
    );
    drop(opened);
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
}
