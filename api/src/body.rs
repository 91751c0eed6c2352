//! Reading request bodies: media type, size and nesting limits, and JSON errors that say
//! where the body went wrong.

use actix_web::HttpRequest;
use actix_web::http::header;
use records::core::record::Object;
use serde::de::DeserializeOwned;

use crate::problem::{Problem, ProblemKind};

/// Limits on what a request may send.
#[derive(Copy, Clone, Debug)]
pub struct Limits {
    /// Largest body in bytes (larger ones get 413).
    pub max_body: usize,
    /// Deepest nesting of JSON arrays and objects (deeper ones get 400).
    pub max_json_depth: usize,
    /// Most plies of a record replayed in one request (longer ones get 413).
    pub max_plies: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_body: 1 << 20,
            max_json_depth: 32,
            max_plies: 20_000,
        }
    }
}

impl Limits {
    /// Refuses a record longer than one request replays (`--max-plies`): replay is linear in
    /// a record's length, and this bounds what one request costs.
    pub fn plies(&self, record: &records::core::Record) -> Result<(), Problem> {
        let plies = record.actions.len();
        if plies <= self.max_plies {
            return Ok(());
        }
        Err(Problem::new(
            ProblemKind::TooManyPlies,
            format!(
                "the record has {plies} plies; this service replays at most {} in one request \
                 (--max-plies)",
                self.max_plies
            ),
        )
        .field("actions"))
    }
}

/// The media type of the request, lower case, without parameters ("" when absent).
pub fn media_type(req: &HttpRequest) -> String {
    req.headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| {
            v.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase()
        })
        .unwrap_or_default()
}

pub fn is_json(media_type: &str) -> bool {
    media_type == "application/json" || media_type.ends_with("+json")
}

/// Parses a JSON body after checking its media type and nesting depth.
pub fn json<T: DeserializeOwned>(
    req: &HttpRequest,
    body: &[u8],
    limits: &Limits,
) -> Result<T, Problem> {
    let media = media_type(req);
    if !is_json(&media) {
        return Err(Problem::new(
            ProblemKind::UnsupportedMediaType,
            format!(
                "this endpoint takes application/json, not {}",
                if media.is_empty() {
                    "a body without Content-Type"
                } else {
                    &media
                }
            ),
        ));
    }
    parse_json(body, limits)
}

/// Parses a JSON object (every body is one: serde alone would read a struct from an array
/// too) after checking its nesting depth.
pub fn parse_json<T: DeserializeOwned>(body: &[u8], limits: &Limits) -> Result<T, Problem> {
    check_depth(body, limits.max_json_depth)?;
    serde_json::from_slice::<Object<T>>(body)
        .map(|Object(t)| t)
        .map_err(|e| {
            let mut p = Problem::new(ProblemKind::MalformedJson, e.to_string());
            if e.line() > 0 {
                p.line = Some(e.line());
                p.column = Some(e.column());
            }
            p
        })
}

/// Rejects JSON nested deeper than `max` before parsing it, so that no body can make the
/// parser recurse far. Brackets inside strings are skipped.
fn check_depth(body: &[u8], max: usize) -> Result<(), Problem> {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for &b in body {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > max {
                    return Err(Problem::new(
                        ProblemKind::JsonTooDeep,
                        format!("the body nests arrays and objects deeper than {max} levels"),
                    ));
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_counts_brackets_outside_strings() {
        assert!(check_depth(br#"{"a": [[1]]}"#, 3).is_ok());
        assert!(check_depth(br#"{"a": [[1]]}"#, 2).is_err());
        assert!(check_depth(br#"{"a": "[[[[[\"[["}"#, 1).is_ok());
    }
}

/// What the request extractor [`GameJson`] reads from a body besides its shape: the game it
/// names and the record it carries.
pub trait GameBody: DeserializeOwned {
    /// The `game` the request is about.
    fn game(&self) -> &str;
    /// The record the request carries, if any (held to `--max-plies`).
    fn record(&self) -> Option<&records::core::Record> {
        None
    }
    /// The request an empty body means, when the endpoint takes one (`POST /v1/deal`).
    fn when_empty() -> Option<Self> {
        None
    }
}

/// A JSON request about a game, read once for every endpoint that takes one: the body's
/// size (`--max-body`), media type, nesting depth (`--max-json-depth`) and shape, its record's
/// length (`--max-plies`), and the game it names, checked in that order (the first failure is
/// the answer).
pub struct GameJson<T> {
    pub kind: records::games::GameKind,
    pub body: T,
}

impl<T: GameBody + 'static> actix_web::FromRequest for GameJson<T> {
    type Error = actix_web::Error;
    type Future =
        std::pin::Pin<Box<dyn std::future::Future<Output = Result<Self, actix_web::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut actix_web::dev::Payload) -> Self::Future {
        let req = req.clone();
        let bytes = actix_web::web::Bytes::from_request(&req, payload);
        Box::pin(async move {
            let bytes = bytes.await?;
            let settings = req
                .app_data::<actix_web::web::Data<crate::Settings>>()
                .expect("the application's settings");
            let limits = &settings.limits;
            let body: T = match T::when_empty() {
                Some(empty) if bytes.iter().all(u8::is_ascii_whitespace) => empty,
                _ => json(&req, &bytes, limits)?,
            };
            if let Some(record) = body.record() {
                limits.plies(record)?;
            }
            let kind = crate::routes::parse::game_kind(body.game())?;
            Ok(GameJson { kind, body })
        })
    }
}
