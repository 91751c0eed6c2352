//! The last pass over the OpenAPI document: what makes it an exact contract, applied to every
//! operation alike so that no route can forget it (tested by schemathesis in
//! `api/tests/contract.rs`).
//!
//! - every status an operation can answer is listed: 400 for a malformed body or parameter,
//!   413 and 415 for a body, 401/403/503 for the store, 403/404/409/503 for the referee's
//!   answers to a token;
//! - every integer has the bounds of its Rust type (`uint8` is 0–255, …);
//! - a union of the games' shapes is `anyOf` (a shape may fit more than one game's);
//! - a request's position strings, actions and layouts have patterns (the games' shapes: what
//!   depends on the game named in another field is in the text);
//! - an optional body is optional (`POST /v1/deal` deals from an empty body);
//! - every operation states its security: the writes (`POST /v1/deal`, `POST /v1/games`) the
//!   bearer token (required in the document a service with a token serves, [`served`]), every
//!   other operation none (`[{}]`: a referee's seat or game token travels in the body, or in
//!   the `anqi-token` header of `POST /v1/validate`, and is a capability for one game, not an
//!   identity).

use serde_json::{Value, json};

/// Applies the contract's passes to the document utoipa derives (`ApiDoc`).
pub fn apply(doc: &mut Value) {
    statuses(doc);
    integer_bounds(doc);
    unions(doc);
    record_fields(doc);
    patterns(doc);
    security(doc);
    if let Some(names) = doc.pointer_mut("/components/schemas/DealRequest/properties/players/items")
    {
        // What a deal takes of a name (records::referee::MAX_NAME_CHARS): 1–100 characters,
        // no control character, not all spaces.
        names["minLength"] = json!(1);
        names["maxLength"] = json!(records::referee::MAX_NAME_CHARS);
        names["pattern"] = json!(NAME);
    }
    if let Some(body) = doc.pointer_mut("/paths/~1v1~1deal/post/requestBody") {
        body["required"] = json!(false);
    }
}

/// Every operation's security stated: anonymous (`[{}]`) where the route declares none.
fn security(doc: &mut Value) {
    for op in operations(doc) {
        op.as_object_mut()
            .expect("an operation")
            .entry("security")
            .or_insert_with(|| json!([{}]));
    }
}

/// The document a service serves: with a write token configured, the writes require it
/// (`[{"bearer": []}]`; the reviewed document says "none, or the bearer token").
pub fn served(mut doc: Value, write_token: bool) -> Value {
    if write_token {
        for op in operations(&mut doc) {
            if op["security"] == json!([{}, {"bearer": []}]) {
                op["security"] = json!([{"bearer": []}]);
            }
        }
    }
    doc
}

/// Every operation of the document.
fn operations(doc: &mut Value) -> impl Iterator<Item = &mut Value> {
    doc.get_mut("paths")
        .and_then(Value::as_object_mut)
        .into_iter()
        .flat_map(|paths| paths.values_mut())
        .filter_map(Value::as_object_mut)
        .flat_map(|item| item.iter_mut())
        .filter(|(method, _)| {
            ["get", "put", "post", "delete", "options", "head", "patch"].contains(&method.as_str())
        })
        .map(|(_, op)| op)
}

/// A player's name in a deal: some character that is not a space, and no control character
/// (C0, DEL, C1: Rust's `char::is_control`).
const NAME: &str =
    "^[^\\x00-\\x1f\\x7f-\\x9f]*[^\\s\\x00-\\x1f\\x7f-\\x9f][^\\x00-\\x1f\\x7f-\\x9f]*$";

fn problem(description: &str) -> Value {
    json!({
        "description": description,
        "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
    })
}

/// The statuses every operation of a kind can answer, added where a route does not list them.
fn statuses(doc: &mut Value) {
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else {
        return;
    };
    for (path, item) in paths.iter_mut() {
        let Some(item) = item.as_object_mut() else {
            continue;
        };
        for (method, op) in item.iter_mut() {
            let mut add: Vec<(&str, &str)> = Vec::new();
            let has_params = op
                .get("parameters")
                .and_then(Value::as_array)
                .is_some_and(|p| !p.is_empty());
            if has_params {
                add.push(("400", "A malformed, unknown or out-of-range parameter."));
            }
            if op.get("requestBody").is_some() {
                add.push((
                    "400",
                    "Malformed JSON, or a field the schema does not allow.",
                ));
                add.push(("413", "Body too large (`--max-body`)."));
                add.push((
                    "415",
                    "A body that is not the media type the operation takes.",
                ));
            }
            if path.starts_with("/v1/games") {
                add.push((
                    "503",
                    "The record store cannot be reached, or the service runs without one.",
                ));
                if method == "post" {
                    add.push(("403", "The store is served read-only (`--read-only`)."));
                }
            }
            if ["/v1/play", "/v1/actions", "/v1/view", "/v1/validate"].contains(&path.as_str()) {
                add.push((
                    "403",
                    "A seat's token used for another seat, or out of its turn.",
                ));
                add.push((
                    "404",
                    "With a token: no such game in the referee's ledger (or it expired).",
                ));
                add.push((
                    "409",
                    "With a token: the request states another history, start or rules than the ledger's, or another action is already committed at its ply.",
                ));
                add.push((
                    "503",
                    "With a token: the referee's ledger (the record store) cannot be reached.",
                ));
            }
            if path == "/v1/render.png" || path == "/v1/replay.png" {
                add.push((
                    "503",
                    "Every picture slot is in use (`--picture-slots`): try again after `Retry-After`.",
                ));
            }
            if path == "/v1/presets/{name}" || path.starts_with("/v1/render") {
                add.push((
                    "422",
                    "An unknown game, or a position or preset it does not have.",
                ));
            }
            let responses = op["responses"]
                .as_object_mut()
                .expect("an operation answers");
            for (status, description) in add {
                responses
                    .entry(status)
                    .or_insert_with(|| problem(description));
            }
        }
    }
}

/// The exact range of each integer format (utoipa's `non_strict_integers` names them).
fn range(format: &str) -> Option<(Value, Value)> {
    Some(match format {
        "int8" => (json!(i8::MIN), json!(i8::MAX)),
        "int16" => (json!(i16::MIN), json!(i16::MAX)),
        "int32" => (json!(i32::MIN), json!(i32::MAX)),
        "int64" => (json!(i64::MIN), json!(i64::MAX)),
        "uint8" => (json!(0), json!(u8::MAX)),
        "uint16" => (json!(0), json!(u16::MAX)),
        "uint32" => (json!(0), json!(u32::MAX)),
        "uint64" => (json!(0), json!(u64::MAX)),
        _ => return None,
    })
}

/// Bounds an integer by its type where the route set none tighter.
fn integer_bounds(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if let Some(format) = map.get("format").and_then(Value::as_str) {
                // utoipa writes `u-int32`: the usual name is `uint32`.
                let format = format.replace("u-int", "uint");
                if let Some((min, max)) = range(&format) {
                    map.entry("minimum").or_insert(min);
                    map.entry("maximum").or_insert(max);
                    map.insert("format".into(), Value::String(format));
                }
            }
            map.values_mut().for_each(integer_bounds);
        }
        Value::Array(items) => items.iter_mut().for_each(integer_bounds),
        _ => {}
    }
}

/// The games' unions: a value may fit more than one game's shape, so `anyOf`, not `oneOf`.
fn unions(doc: &mut Value) {
    let Some(schemas) = doc
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    for (name, schema) in schemas.iter_mut() {
        if !name.starts_with("Any") {
            continue;
        }
        if let Some(map) = schema.as_object_mut()
            && let Some(items) = map.remove("oneOf")
        {
            map.insert("anyOf".into(), items);
        }
    }
}

/// The record's `options` are any game's (never `null`: an absent field is the default). Its
/// `game` stays a string: a record from the wild may name a game the service does not play
/// (`POST /v1/validate` answers that verdict). The record type lives in `records`, which knows no union of
/// the games' options.
fn record_fields(doc: &mut Value) {
    let Some(properties) = doc.pointer_mut("/components/schemas/Record/properties") else {
        return;
    };
    properties["options"] = json!({
        "$ref": "#/components/schemas/AnyOverrides",
        "description": "Options that override the preset's, as the game defines them."
    });
}

/// A position string: fields of printable ASCII separated by single spaces (each game's own
/// grammar is in docs/notation.md).
const POSITION: &str = "^[!-~]+( [!-~]+)*$";
/// An action: one token of printable ASCII (`b6(K)`, `a2-a3(k)-a4`, `e0=d0(K)`, `drop`).
const ACTION: &str = "^[!-~]+$";
/// A Luzhanqi setup (six ranks of five points) or a xiangqi-3g side's 16 backs.
const SIDE: &str = "^([A-Za-z]{16}|[A-Za-z1-5]{1,5}(/[A-Za-z1-5]{1,5}){5})$";

/// Patterns on the request fields that carry notation, and the layout of every game. (Not on
/// `POST /v1/luzhanqi/setup`'s `setup`: that operation's answer to a malformed setup is a
/// verdict saying why, like `POST /v1/validate`'s to a record.)
fn patterns(doc: &mut Value) {
    let Some(schemas) = doc
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    for (name, schema) in schemas.iter_mut() {
        if !(name.ends_with("Request") || name == "Record") {
            continue;
        }
        let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut) else {
            continue;
        };
        for (field, property) in properties.iter_mut() {
            let (pattern, semantics) = match field.as_str() {
                "position" | "start" => (
                    POSITION,
                    "The pattern checks the fields; each game's grammar (ranks, pieces, counts) \
                     is in docs/notation.md, and a position that breaks it is refused \
                     (`malformed-position`, or `invalid-position` when it cannot occur).",
                ),
                "action" | "last_action" => (
                    ACTION,
                    "The pattern checks the token; which forms exist is the game's \
                     (docs/notation.md), and whether an action is legal is the rules' \
                     (`malformed-action`, `illegal-action`).",
                ),
                _ => continue,
            };
            property["pattern"] = json!(pattern);
            let text = property["description"].as_str().unwrap_or_default();
            property["description"] = json!(format!("{text} {semantics}").trim().to_owned());
        }
    }
    schemas.insert(
        "Layout".into(),
        json!({
            "description": "The hidden truth of a game, as the game writes it (docs/notation.md): \
                a piece letter per start point (32, or 50 for a flip game's non-camp points), or \
                both sides' setups or backs (`red`, `black`). Piece counts are the game's.",
            "anyOf": [
                {"type": "string", "pattern": "^([A-Za-z]{32}|[A-Za-z]{50})$"},
                {
                    "type": "object",
                    "required": ["red", "black"],
                    "additionalProperties": false,
                    "properties": {
                        "red": {"type": "string", "pattern": SIDE},
                        "black": {"type": "string", "pattern": SIDE}
                    }
                }
            ],
            "examples": ["PppcPmGrpRpCrmGpgMPRNPKnCcgnPNkM"]
        }),
    );
}
