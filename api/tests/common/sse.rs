//! A seat's event stream read off the wire, as the stream tests read it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::{Value, json};

/// One event of a stream: its id, kind and data.
#[derive(Debug)]
pub struct Event {
    pub id: String,
    pub kind: String,
    pub data: Value,
}

/// A stream read off the wire: HTTP/1.1 chunks, then SSE's blank-line-separated events.
pub struct Sse {
    reader: BufReader<TcpStream>,
    text: String,
    ended: bool,
    /// Heartbeats (comment lines) read so far.
    pub heartbeats: usize,
}

impl Sse {
    /// Opens `path` on `addr` with extra header lines; gives the status and, on 200, the
    /// stream (else the body as text).
    pub fn open(addr: &str, path: &str, headers: &str) -> Result<Sse, (u16, String)> {
        let mut s = TcpStream::connect(addr).unwrap();
        write!(
            s,
            "GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n{headers}\r\n"
        )
        .unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let mut reader = BufReader::new(s);
        let mut status = String::new();
        reader.read_line(&mut status).unwrap();
        let code: u16 = status[9..12].parse().unwrap();
        let mut chunked = false;
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            if line.trim().is_empty() {
                break;
            }
            let lower = line.to_ascii_lowercase();
            chunked |= lower.starts_with("transfer-encoding: chunked");
            if code == 200 {
                assert!(
                    !lower.starts_with("content-type:") || lower.contains("text/event-stream"),
                    "{line}"
                );
            }
        }
        let mut sse = Sse {
            reader,
            text: String::new(),
            ended: false,
            heartbeats: 0,
        };
        if code != 200 {
            let mut body = String::new();
            let _ = sse.reader.read_to_string(&mut body);
            return Err((code, body));
        }
        assert!(chunked, "a stream is sent in chunks");
        Ok(sse)
    }

    /// The next event (heartbeats skipped), or None once the stream has ended.
    pub fn next(&mut self) -> Option<Event> {
        loop {
            if let Some(at) = self.text.find("\n\n") {
                let block: String = self.text.drain(..at + 2).collect();
                let (mut id, mut kind, mut data) = (String::new(), String::new(), String::new());
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("id: ") {
                        id = v.to_owned();
                    } else if let Some(v) = line.strip_prefix("event: ") {
                        kind = v.to_owned();
                    } else if let Some(v) = line.strip_prefix("data: ") {
                        data = v.to_owned();
                    }
                }
                if kind.is_empty() {
                    self.heartbeats += block
                        .lines()
                        .filter(|l| l.starts_with(": heartbeat"))
                        .count();
                    continue;
                }
                return Some(Event {
                    id,
                    kind,
                    data: serde_json::from_str(&data).unwrap(),
                });
            }
            if self.ended {
                return None;
            }
            let mut size = String::new();
            self.reader.read_line(&mut size).unwrap();
            let size = usize::from_str_radix(size.trim(), 16).unwrap();
            if size == 0 {
                self.ended = true;
                continue;
            }
            let mut chunk = vec![0; size + 2];
            self.reader.read_exact(&mut chunk).unwrap();
            self.text
                .push_str(std::str::from_utf8(&chunk[..size]).unwrap());
        }
    }
}

/// A ticket's stream URL for `token` of Banqi game `deal`, asked of `addr`.
pub fn stream_url(addr: &str, deal: &Value, token: &Value) -> String {
    let (status, ticket) = super::common::post_json(
        addr,
        "/v1/stream-ticket",
        &json!({"game_id": deal["game_id"], "token": token}),
    );
    assert_eq!(status, 200, "{ticket}");
    ticket["url"].as_str().unwrap().to_owned()
}

/// Plays the seat to move's first listed action in Banqi game `deal` on `addr` (asked with the
/// game's token); gives the answer's status and body.
pub fn play_first(addr: &str, deal: &Value) -> (u16, Value) {
    let (status, listed) = super::common::post_json(
        addr,
        "/v1/actions",
        &json!({"game_id": deal["game_id"], "token": deal["token"]}),
    );
    assert_eq!(status, 200, "{listed}");
    let seat = listed["to_move"].as_str().unwrap();
    super::common::post_json(
        addr,
        "/v1/play",
        &json!({"game_id": deal["game_id"], "token": deal["seat_tokens"][seat],
                "action": listed["actions"][0], "ply": listed["ply"]}),
    )
}
