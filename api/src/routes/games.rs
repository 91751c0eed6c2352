//! The record store over HTTP: store records, fetch one (JSON or TCGA), list with filters.
//! Writes need the bearer token when the service has one; reads are open.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use records::core::Record;
use records::store::{GameFilter, GameRow, Imported, Incoming, Store};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::Settings;
use crate::body;
use crate::examples;
use crate::problem::{Problem, ProblemKind};

pub(crate) fn store(settings: &Settings) -> Result<Store, Problem> {
    settings.store.clone().ok_or_else(|| {
        Problem::new(
            ProblemKind::StoreUnavailable,
            "this service runs without a record store",
        )
    })
}

/// Checks that a write may be done: the store is writable, and the request shows the
/// service's token when it has one; `what` is what needs it, for the problem's words.
pub(crate) fn authorize_write(
    req: &HttpRequest,
    settings: &Settings,
    what: &str,
) -> Result<(), Problem> {
    writable(settings)?;
    authorize_token(req, settings, what)
}

/// Refuses a write to a store served read-only.
pub(crate) fn writable(settings: &Settings) -> Result<(), Problem> {
    if settings.read_only {
        return Err(Problem::new(
            ProblemKind::ReadOnly,
            "this service serves its record store read-only (--read-only)",
        ));
    }
    Ok(())
}

/// Checks `Authorization: Bearer <token>` when the service has a token; `what` is what needs
/// it, for the problem's words.
pub(crate) fn authorize_token(
    req: &HttpRequest,
    settings: &Settings,
    what: &str,
) -> Result<(), Problem> {
    let Some(token) = &settings.token else {
        return Ok(());
    };
    let given = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    match given {
        // In constant time (subtle): timing does not tell how much matched.
        Some(g)
            if bool::from(subtle::ConstantTimeEq::ct_eq(
                g.as_bytes(),
                token.as_bytes(),
            )) =>
        {
            Ok(())
        }
        Some(_) => Err(Problem::new(
            ProblemKind::Unauthorized,
            "the bearer token is not the service's token",
        )),
        None => Err(Problem::new(
            ProblemKind::Unauthorized,
            format!("{what} needs `Authorization: Bearer <token>`"),
        )),
    }
}

pub(crate) async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, records::store::StoreError> + Send + 'static,
) -> Result<T, Problem> {
    web::block(work)
        .await
        .map_err(|e| Problem::new(ProblemKind::Internal, e.to_string()))?
        .map_err(|e| {
            tracing::error!(error = %e, "record store");
            Problem::new(ProblemKind::StoreUnavailable, e.to_string())
        })
}

/// What happened to one record of a request.
#[derive(Serialize, ToSchema)]
pub struct StoredResult {
    /// The 1-based line of an NDJSON body (1 for a single record).
    pub line: usize,
    /// `stored`, `duplicate` (already stored: the id is the stored one), `invalid` or
    /// `unreadable`.
    pub status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hash: Option<String>,
    /// Why the record was not stored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<Problem>,
}

#[derive(Serialize, ToSchema)]
pub struct StoreSummary {
    pub stored: usize,
    pub duplicates: usize,
    pub invalid: usize,
    pub unreadable: usize,
}

#[derive(Serialize, ToSchema)]
pub struct StoreResponse {
    pub results: Vec<StoredResult>,
    pub summary: StoreSummary,
}

/// Stores game records: one JSON record (`application/json`), or many as NDJSON
/// (`application/x-ndjson`, one record per line), in one transaction. Every record is
/// replayed; invalid ones are reported and not stored; a record stored before is reported as
/// a duplicate with its id (imports are idempotent). One record: 201 with `Location` when
/// stored, 200 when already stored, 422 when invalid. NDJSON: 200 with a result per line.
#[utoipa::path(post, path = "/v1/games", tag = "games",
    request_body(description = "A JSON record, or NDJSON records.", content(
        (Record = "application/json", example = examples::store_request),
        (String = "application/x-ndjson", example = examples::store_ndjson))),
    responses(
        (status = 201, description = "Stored.", body = StoreResponse, example = examples::store_response),
        (status = 200, description = "Already stored (one record), or the results of NDJSON.", body = StoreResponse),
        (status = 400, description = "Malformed JSON.", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "A token is configured and the request lacks it.", body = Problem,
            content_type = "application/problem+json", example = examples::unauthorized),
        (status = 413, description = "Body too large.", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Neither JSON nor NDJSON.", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The record does not replay.", body = Problem, content_type = "application/problem+json")),
    security((), ("bearer" = [])))]
pub async fn create(
    req: HttpRequest,
    bytes: web::Bytes,
    settings: web::Data<Settings>,
) -> Result<HttpResponse, Problem> {
    authorize_write(&req, &settings, "storing records")?;
    let limits = &settings.limits;
    let store = store(&settings)?;
    let media = body::media_type(&req);
    let ndjson = media == "application/x-ndjson" || media == "application/jsonl";
    // (line, record or why it could not be read)
    let mut parsed: Vec<(usize, Result<Record, Problem>)> = Vec::new();
    if ndjson {
        let text = std::str::from_utf8(&bytes)
            .map_err(|_| Problem::new(ProblemKind::MalformedJson, "the body is not UTF-8 text"))?;
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let record = body::parse_json::<Record>(line.as_bytes(), limits)
                .and_then(|r| limits.plies(&r).map(|()| r));
            parsed.push((i + 1, record));
        }
    } else {
        let record: Record = body::json(&req, &bytes, limits)?;
        limits.plies(&record)?;
        parsed.push((1, Ok(record)));
    }
    let incoming: Vec<Incoming> = parsed
        .iter()
        .filter_map(|(_, r)| r.as_ref().ok())
        .map(|record| Incoming {
            record: record.clone(),
            source: "http".into(),
        })
        .collect();
    let outcomes = blocking(move || store.import(&incoming)).await?;
    let mut outcomes = outcomes.into_iter();
    let mut summary = StoreSummary {
        stored: 0,
        duplicates: 0,
        invalid: 0,
        unreadable: 0,
    };
    let results: Vec<StoredResult> = parsed
        .into_iter()
        .map(|(line, r)| {
            let result = |status, id, hash, error| StoredResult {
                line,
                status,
                id,
                hash,
                error,
            };
            match r {
                Err(problem) => {
                    summary.unreadable += 1;
                    result("unreadable", None, None, Some(problem))
                }
                Ok(_) => match outcomes.next().expect("one outcome per record") {
                    Imported::Stored { id, hash } => {
                        summary.stored += 1;
                        result("stored", Some(id), Some(hash), None)
                    }
                    Imported::Duplicate { id, hash } => {
                        summary.duplicates += 1;
                        result("duplicate", Some(id), Some(hash), None)
                    }
                    Imported::Invalid { error } => {
                        summary.invalid += 1;
                        result("invalid", None, None, Some(Problem::from_replay(&error)))
                    }
                },
            }
        })
        .collect();
    if !ndjson {
        let first = &results[0];
        if let (Some(error), "invalid") = (&first.error, first.status) {
            return Err(error.clone());
        }
        let id = first.id.expect("stored or duplicate");
        let mut response = if first.status == "stored" {
            HttpResponse::Created()
        } else {
            HttpResponse::Ok()
        };
        response.insert_header((header::LOCATION, format!("/v1/games/{id}")));
        return Ok(response.json(StoreResponse { results, summary }));
    }
    Ok(HttpResponse::Ok().json(StoreResponse { results, summary }))
}

#[derive(Serialize, ToSchema)]
pub struct StoredGame {
    #[serde(flatten)]
    pub row: GameRow,
    pub record: Record,
}

#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct GetQuery {
    /// `json` (the default) or `tcga` (the TCGA text of a `tcga` record).
    #[param(example = "json", pattern = "^(json|tcga)$")]
    #[serde(default)]
    pub format: Option<String>,
}

/// One stored game: its summary row and its record (JSON), or the record as TCGA text with
/// `?format=tcga` or `Accept: text/plain`.
#[utoipa::path(get, path = "/v1/games/{id}", tag = "games",
    params(("id" = i64, Path, description = "The game's id", example = 1), GetQuery),
    responses(
        (status = 200, description = "The game: JSON, or TCGA text with `format=tcga`.", content(
            (StoredGame = "application/json", example = examples::stored_game),
            (String = "text/plain"))),
        (status = 404, description = "No such game.", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "TCGA asked for a game that is not under plain `tcga` rules.", body = Problem,
            content_type = "application/problem+json")))]
pub async fn get(
    req: HttpRequest,
    id: web::Path<i64>,
    query: web::Query<GetQuery>,
    settings: web::Data<Settings>,
) -> Result<HttpResponse, Problem> {
    let store = store(&settings)?;
    let id = id.into_inner();
    let found = blocking(move || store.get(id)).await?;
    let Some((row, record)) = found else {
        return Err(
            Problem::new(ProblemKind::NotFound, format!("no game {id} is stored")).field("id"),
        );
    };
    let accept_text = req
        .headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/plain"));
    let format = match query.format.as_deref() {
        None if accept_text => Some(records::games::default_text_format()),
        None | Some("json") => None,
        Some(name) => Some(records::games::text_format(name).ok_or_else(|| {
            let names: Vec<&str> = records::games::text_formats().map(|f| f.name).collect();
            Problem::new(
                ProblemKind::BadParameter,
                format!("format is json or {}, not {name:?}", names.join(" or ")),
            )
            .field("format")
        })?),
    };
    let Some(format) = format else {
        return Ok(HttpResponse::Ok().json(StoredGame { row, record }));
    };
    let text = (format.export)(&record)
        .map_err(|e| Problem::new(ProblemKind::NotExportable, e.to_string()).field("format"))?;
    Ok(HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        .body(text))
}

#[derive(Serialize, ToSchema)]
pub struct GameList {
    pub games: Vec<GameRow>,
    /// Pass as `after` for the next page (newest first: as `before`); absent on the last
    /// page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next: Option<i64>,
}

/// Stored games, newest ids last, filtered by preset, player (either seat), result and
/// date, a page at a time (`limit`, then `after` = the previous page's `next`), oldest or
/// newest (`order=newest`, then `before` = the previous page's `next`) first.
#[utoipa::path(get, path = "/v1/games", tag = "games",
    params(GameFilter),
    responses(
        (status = 200, description = "A page of games.", body = GameList, example = examples::game_list),
        (status = 400, description = "A bad filter.", body = Problem, content_type = "application/problem+json")))]
pub async fn list(
    query: web::Query<GameFilter>,
    settings: web::Data<Settings>,
) -> Result<web::Json<GameList>, Problem> {
    let store = store(&settings)?;
    let filter = query.into_inner();
    for (field, date) in [
        ("date_from", &filter.date_from),
        ("date_to", &filter.date_to),
    ] {
        if let Some(d) = date
            && records::store::iso_date(d).as_deref() != Some(d.as_str())
        {
            return Err(Problem::new(
                ProblemKind::BadParameter,
                format!("{field} is a date, YYYY-MM-DD, that the calendar has; {d:?} is not"),
            )
            .field(field));
        }
    }
    if !(1..=1000).contains(&filter.limit) {
        return Err(Problem::new(ProblemKind::BadParameter, "limit is 1 to 1000").field("limit"));
    }
    let limit = filter.limit as usize;
    let games = blocking(move || store.list(&filter)).await?;
    let next = (games.len() == limit)
        .then(|| games.last().map(|g| g.id))
        .flatten();
    Ok(web::Json(GameList { games, next }))
}
