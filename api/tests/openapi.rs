//! The OpenAPI document is a reviewed artefact: any change to it shows up as a diff of
//! `api/tests/openapi.snapshot.json` (regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p api`).

use serde_json::Value;

const SNAPSHOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/openapi.snapshot.json");

#[test]
fn the_document_matches_its_snapshot() {
    let doc = serde_json::to_string_pretty(&api::openapi::document()).unwrap() + "\n";
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(SNAPSHOT, &doc).unwrap();
    }
    let snapshot =
        std::fs::read_to_string(SNAPSHOT).expect("the snapshot (UPDATE_SNAPSHOTS=1 writes it)");
    assert!(
        doc == snapshot,
        "the OpenAPI document changed: review it and run UPDATE_SNAPSHOTS=1 cargo test -p api --test openapi"
    );
}

#[test]
fn every_operation_documents_its_errors_as_problems() {
    let doc = api::openapi::document();
    let mut operations = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            operations += 1;
            assert!(
                op["summary"].is_string() || op["description"].is_string(),
                "{method} {path}"
            );
            for (status, response) in op["responses"].as_object().unwrap() {
                if status.starts_with('4') {
                    assert!(
                        response["content"]["application/problem+json"].is_object(),
                        "{method} {path} {status}"
                    );
                }
            }
            if method == "post" {
                assert!(op["requestBody"]["content"].is_object(), "{method} {path}");
            }
            // A GET's request is its parameters: each has an example.
            for p in op["parameters"].as_array().into_iter().flatten() {
                assert!(
                    !p["example"].is_null() || !p["schema"]["example"].is_null(),
                    "{method} {path} {}",
                    p["name"]
                );
            }
        }
    }
    assert_eq!(operations, 33);
    let schemas: Vec<&String> = doc["components"]["schemas"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    for name in [
        "Problem",
        "Record",
        "Verdict",
        "GameScore",
        "Settlement",
        "PlayerView",
        "Layout",
        "Leaderboard",
        "PlayerPage",
    ] {
        assert!(schemas.iter().any(|s| *s == name), "{name} in {schemas:?}");
    }
    let _: Value = doc;
}

/// The document only gains: everything a client of the first published version could use
/// (`openapi.v1-baseline.json`) is still there. Every path, method, parameter and response
/// status; every property of every request and response object (followed through `$ref`s,
/// `allOf`, `oneOf`); every enum value still accepted.
#[test]
fn the_document_keeps_everything_of_the_first_version() {
    let new = api::openapi::document();
    let old: Value = serde_json::from_str(include_str!("openapi.v1-baseline.json")).unwrap();
    let mut missing = Vec::new();
    for (path, item) in old["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let at = format!("{method} {path}");
            let Some(new_op) = new["paths"][path].get(method) else {
                missing.push(format!("{at}: the operation"));
                continue;
            };
            for p in op["parameters"].as_array().into_iter().flatten() {
                let found = new_op["parameters"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|q| q["name"] == p["name"] && q["in"] == p["in"]);
                if !found {
                    missing.push(format!("{at}: parameter {}", p["name"]));
                }
            }
            for (media, content) in op["requestBody"]["content"]
                .as_object()
                .into_iter()
                .flatten()
            {
                let new_schema = &new_op["requestBody"]["content"][media]["schema"];
                compare(
                    &old,
                    &new,
                    &content["schema"],
                    new_schema,
                    &format!("{at} request {media}"),
                    &mut missing,
                    0,
                );
            }
            for (status, response) in op["responses"].as_object().unwrap() {
                let Some(new_response) = new_op["responses"].get(status) else {
                    missing.push(format!("{at}: response {status}"));
                    continue;
                };
                for (media, content) in response["content"].as_object().into_iter().flatten() {
                    let new_schema = &new_response["content"][media]["schema"];
                    compare(
                        &old,
                        &new,
                        &content["schema"],
                        new_schema,
                        &format!("{at} {status} {media}"),
                        &mut missing,
                        0,
                    );
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "the document lost:\n{}",
        missing.join("\n")
    );
}

/// What the document changed on purpose since the first version, each with its reason: a
/// property every answer had and that some answers now leave out.
const NO_LONGER_REQUIRED: &[(&str, &str, &str)] = &[
    (
        "DealResponse",
        "layout",
        "issue 11: a deal gives the layout in clear only with `include_layout`",
    ),
    (
        "DealResponse",
        "position",
        "issue 13: a dark Luzhanqi game's start (both setups) is the referee's secret",
    ),
    (
        "DealResponse",
        "seed",
        "issue 20: a random deal is drawn from the operating system's generator and has no \
         seed (answering it gave the layout away); a seed the caller gave is public and answered",
    ),
];

/// Every property the first version always answered that may now be absent is one of the
/// recorded changes, and every recorded change is real.
#[test]
fn a_property_no_longer_required_is_a_recorded_change() {
    let new = api::openapi::document();
    let old: Value = serde_json::from_str(include_str!("openapi.v1-baseline.json")).unwrap();
    let mut changed = Vec::new();
    for (name, schema) in old["components"]["schemas"].as_object().unwrap() {
        // A schema now under another name (a union of the games' shapes) is followed from
        // its operations by the test above.
        if new["components"]["schemas"].get(name).is_none() {
            continue;
        }
        let now: Vec<&Value> = new["components"]["schemas"][name]["required"]
            .as_array()
            .into_iter()
            .flatten()
            .collect();
        for field in schema["required"].as_array().into_iter().flatten() {
            if !now.contains(&field) {
                changed.push((name.as_str(), field.as_str().unwrap()));
            }
        }
    }
    changed.sort();
    let mut recorded: Vec<(&str, &str)> = NO_LONGER_REQUIRED
        .iter()
        .map(|(s, f, _)| (*s, *f))
        .collect();
    recorded.sort();
    assert_eq!(
        changed, recorded,
        "record each change with its reason (and the changelog)"
    );
}

/// A schema with its `$ref` followed.
fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match schema["$ref"].as_str() {
        Some(r) => {
            let name = r.rsplit('/').next().unwrap();
            resolve(doc, &doc["components"]["schemas"][name])
        }
        None => schema,
    }
}

/// Every property a schema has, through `allOf`, `oneOf` and `anyOf`.
fn properties<'a>(doc: &'a Value, schema: &'a Value, out: &mut Vec<(&'a String, &'a Value)>) {
    let schema = resolve(doc, schema);
    out.extend(schema["properties"].as_object().into_iter().flatten());
    for key in ["allOf", "oneOf", "anyOf"] {
        for branch in schema[key].as_array().into_iter().flatten() {
            properties(doc, branch, out);
        }
    }
    if let Some(items) = schema.get("items") {
        properties(doc, items, out);
    }
}

/// Whether `schema` still accepts the string `value`.
fn accepts(doc: &Value, schema: &Value, value: &Value) -> bool {
    let schema = resolve(doc, schema);
    let branches: Vec<&Value> = ["allOf", "oneOf", "anyOf"]
        .iter()
        .flat_map(|k| schema[*k].as_array().into_iter().flatten())
        .collect();
    if !branches.is_empty() {
        return branches.iter().any(|b| accepts(doc, b, value));
    }
    match schema["enum"].as_array() {
        Some(values) => values.contains(value),
        None => true,
    }
}

fn enums<'a>(doc: &'a Value, schema: &'a Value, out: &mut Vec<&'a Value>) {
    let schema = resolve(doc, schema);
    out.extend(schema["enum"].as_array().into_iter().flatten());
    for key in ["allOf", "oneOf", "anyOf"] {
        for branch in schema[key].as_array().into_iter().flatten() {
            enums(doc, branch, out);
        }
    }
}

fn compare(
    old_doc: &Value,
    new_doc: &Value,
    old: &Value,
    new: &Value,
    at: &str,
    missing: &mut Vec<String>,
    depth: usize,
) {
    if depth > 8 {
        return;
    }
    if new.is_null() {
        missing.push(format!("{at}: the schema"));
        return;
    }
    // Enum values, unless this is a union whose branches are compared property by property.
    let old_resolved = resolve(old_doc, old);
    if old_resolved["oneOf"].is_null() || old_resolved["enum"].is_array() {
        let mut old_values = Vec::new();
        enums(old_doc, old, &mut old_values);
        for v in old_values {
            if !accepts(new_doc, new, v) {
                missing.push(format!("{at}: value {v}"));
            }
        }
    }
    let (mut old_props, mut new_props) = (Vec::new(), Vec::new());
    properties(old_doc, old, &mut old_props);
    properties(new_doc, new, &mut new_props);
    for (name, old_prop) in old_props {
        // A property may appear in several branches (a tagged union): one must keep it all.
        let candidates: Vec<&Value> = new_props
            .iter()
            .filter(|(n, _)| *n == name)
            .map(|(_, v)| *v)
            .collect();
        if candidates.is_empty() {
            missing.push(format!("{at}: property {name}"));
            continue;
        }
        let mut best: Option<Vec<String>> = None;
        for new_prop in candidates {
            let mut lost = Vec::new();
            compare(
                old_doc,
                new_doc,
                old_prop,
                new_prop,
                &format!("{at}.{name}"),
                &mut lost,
                depth + 1,
            );
            if best.as_ref().is_none_or(|b| lost.len() < b.len()) {
                best = Some(lost);
            }
        }
        missing.extend(best.unwrap_or_default());
    }
}
