//! The connection under the HTTP/1 server. It passes every byte through, but one answer:
//! actix-http's own 431, to a request whose line and headers overflow its read buffer
//! (128 KiB) or hold more than 96 headers. actix-http writes that answer itself, with an
//! empty body, before any of the app runs, and has no setting or hook for it (its
//! `MAX_BUFFER_SIZE` and the answer are fixed in `h1/dispatcher.rs`). So that it is a problem
//! like every other error (`request-too-large`), the connection swaps its head for one with a
//! problem+json body as it is written. The app itself never answers 431, so a 431 head with
//! an empty body is actix-http's.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use actix_web::rt::net::TcpStream;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::problem::{PROBLEM_JSON, Problem, ProblemKind};

/// How actix-http's 431 begins, after `HTTP/1.x`.
const STATUS_431: &[u8] = b" 431 Request Header Fields Too Large\r\n";

/// A client's TCP connection, as the HTTP/1 server reads and writes it.
pub struct Connection {
    stream: TcpStream,
    /// An answer written in place of actix-http's 431 head, while it is being written.
    swap: Option<Swap>,
}

struct Swap {
    /// The answer with its problem.
    bytes: Vec<u8>,
    written: usize,
    /// The bytes of actix-http's answer it stands for.
    replaces: usize,
}

impl Connection {
    pub fn new(stream: TcpStream) -> Connection {
        Connection { stream, swap: None }
    }

    /// The socket (for [`crate::slots::remember_peer`]).
    pub fn stream(&self) -> &TcpStream {
        &self.stream
    }
}

/// Where actix-http's empty 431 begins in `written`, and where its head ends (after its blank
/// line); the head's end is `None` when `written` holds only a part of it. actix-http writes
/// nothing after it (it closes the connection), so a head followed by more bytes is someone
/// else's text (a body that quotes one), left alone.
fn find_431(written: &[u8]) -> Option<(usize, Option<usize>)> {
    let mut from = 0;
    while let Some(at) = memchr::memmem::find(&written[from..], STATUS_431) {
        let status = from + at;
        from = status + STATUS_431.len();
        let Some(start) = status.checked_sub(b"HTTP/1.1".len()) else {
            continue;
        };
        if !matches!(&written[start..status], b"HTTP/1.1" | b"HTTP/1.0") {
            continue;
        }
        let end = memchr::memmem::find(&written[status..], b"\r\n\r\n").map(|e| status + e + 4);
        if end.is_some_and(|end| end < written.len()) {
            continue;
        }
        let empty = end.is_none_or(|end| {
            written[start..end]
                .split(|&b| b == b'\n')
                .any(|line| line.eq_ignore_ascii_case(b"content-length: 0\r"))
        });
        if empty {
            return Some((start, end));
        }
    }
    None
}

/// The answer that stands for actix-http's 431 `head`: its own headers but the body's, and
/// the problem.
fn problem_answer(head: &[u8]) -> Vec<u8> {
    let problem = Problem::new(
        ProblemKind::RequestTooLarge,
        "the request's line and headers are larger than the service reads (128 KiB), or it has \
         more than 96 headers; a long list of actions belongs in a shorter line (a node the \
         explorer gave, `node=`) or in a body",
    );
    let body = serde_json::to_vec(&problem).expect("a problem serialises");
    let mut lines = head.split(|&b| b == b'\n');
    let status = lines.next().unwrap_or_default();
    let mut answer = Vec::with_capacity(head.len() + body.len() + 100);
    answer.extend_from_slice(status);
    answer.push(b'\n');
    answer.extend_from_slice(
        format!(
            "content-type: {PROBLEM_JSON}\r\ncontent-length: {}\r\n",
            body.len()
        )
        .as_bytes(),
    );
    for line in lines {
        let name = line.split(|&b| b == b':').next().unwrap_or_default();
        if line.is_empty()
            || line == b"\r"
            || name.eq_ignore_ascii_case(b"content-length")
            || name.eq_ignore_ascii_case(b"content-type")
        {
            continue;
        }
        answer.extend_from_slice(line);
        answer.push(b'\n');
    }
    answer.extend_from_slice(b"\r\n");
    answer.extend_from_slice(&body);
    answer
}

impl AsyncRead for Connection {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Connection {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.swap.is_none() {
            match find_431(buf) {
                // What comes before it goes as it is; the caller then writes the rest.
                Some((at, _)) if at > 0 => {
                    return Pin::new(&mut this.stream).poll_write(cx, &buf[..at]);
                }
                Some((_, Some(end))) => {
                    this.swap = Some(Swap {
                        bytes: problem_answer(&buf[..end]),
                        written: 0,
                        replaces: end,
                    });
                }
                // None, or a head cut short (actix-http writes its answers whole): as it is.
                _ => return Pin::new(&mut this.stream).poll_write(cx, buf),
            }
        }
        // The caller writes the same bytes again until it is told they are written: the swap
        // goes on from where it was.
        let swap = this.swap.as_mut().expect("a swap under way");
        while swap.written < swap.bytes.len() {
            let n = ready!(Pin::new(&mut this.stream).poll_write(cx, &swap.bytes[swap.written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            swap.written += n;
        }
        let replaces = swap.replaces;
        this.swap = None;
        Poll::Ready(Ok(replaces))
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &[u8] = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\nconnection: close\r\ndate: Sun, 29 Nov 2026 02:00:00 GMT\r\n\r\n";

    #[test]
    fn finds_actix_https_empty_431_only() {
        assert_eq!(find_431(HEAD), Some((0, Some(HEAD.len()))));
        let mut after = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}".to_vec();
        let at = after.len();
        after.extend_from_slice(HEAD);
        assert_eq!(find_431(&after), Some((at, Some(after.len()))));
        // A 431 with a body, or the words inside a body, are left alone.
        let with_body =
            b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 2\r\n\r\n{}";
        assert_eq!(find_431(with_body), None);
        assert_eq!(
            find_431(b"\"detail\": \" 431 Request Header Fields Too Large\r\n\""),
            None
        );
        let mut quoted = HEAD.to_vec();
        quoted.extend_from_slice(b"and more of a body");
        assert_eq!(find_431(&quoted), None);
        assert_eq!(find_431(&HEAD[..30]), None);
        assert_eq!(find_431(&HEAD[..60]), Some((0, None)));
    }

    #[test]
    fn the_answer_keeps_actix_https_headers_and_carries_a_problem() {
        let answer = problem_answer(HEAD);
        let text = String::from_utf8(answer).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"));
        assert!(head.contains("\r\nconnection: close"), "{head}");
        assert!(head.contains("\r\ndate: Sun, 29 Nov 2026"), "{head}");
        assert!(head.contains(&format!("\r\ncontent-type: {PROBLEM_JSON}")));
        assert!(head.contains(&format!("\r\ncontent-length: {}", body.len())));
        assert!(!head.contains("content-length: 0"));
        let problem: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(problem["type"], "/problems/request-too-large");
        assert_eq!(problem["status"], 431);
    }
}
