//! The OpenAPI document is a reviewed artefact: any change to it shows up as a diff of
//! `api/tests/openapi.snapshot.json` (regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p api`).

use serde_json::Value;
use utoipa::OpenApi;

const SNAPSHOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/openapi.snapshot.json");

#[test]
fn the_document_matches_its_snapshot() {
    let doc = serde_json::to_string_pretty(&api::openapi::ApiDoc::openapi()).unwrap() + "\n";
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
    let doc = serde_json::to_value(api::openapi::ApiDoc::openapi()).unwrap();
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
    assert_eq!(operations, 17);
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
    ] {
        assert!(schemas.iter().any(|s| *s == name), "{name} in {schemas:?}");
    }
    let _: Value = doc;
}
