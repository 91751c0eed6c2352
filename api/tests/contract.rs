//! The contract test: schemathesis (from PyPI, `api/tests/contract/requirements.txt`) against
//! the real `anqi-api` binary, every check on, a fixed seed and a bounded number of examples.
//!
//! It fails on a server error, an answer that violates its schema, an undocumented status or
//! content type, a schema-violating request accepted, and a schema-valid request refused for
//! any reason but the semantic constraints `api/tests/contract/hooks.py` lists (each with why
//! JSON Schema cannot express it). CI installs schemathesis (`.ci/run`) and sets
//! `ANQI_REQUIRE_CONTRACT`; elsewhere, without schemathesis, the test says so and passes.
//!
//! Run it alone: `cargo test -p api --test contract -- --nocapture`. Seed and examples:
//! `ANQI_CONTRACT_SEED`, `ANQI_CONTRACT_EXAMPLES` (default 1 and 20).

use std::path::Path;
use std::process::{Command, Stdio};

mod common;
use common::Server;

/// The schemathesis command: `ANQI_SCHEMATHESIS`, or `st` on the PATH.
fn schemathesis() -> Option<String> {
    let command = std::env::var("ANQI_SCHEMATHESIS").unwrap_or_else(|_| "st".into());
    Command::new(&command)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|_| command)
}

#[test]
fn the_service_keeps_its_openapi_contract() {
    let Some(st) = schemathesis() else {
        assert!(
            std::env::var_os("ANQI_REQUIRE_CONTRACT").is_none(),
            "ANQI_REQUIRE_CONTRACT is set but schemathesis is not installed \
             (pip install -r api/tests/contract/requirements.txt)"
        );
        eprintln!(
            "note: schemathesis is not installed: the contract test is skipped \
             (pip install -r api/tests/contract/requirements.txt)"
        );
        return;
    };
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("contract");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).unwrap();
    // A store with a write token, so that every operation (writes too) is exercised.
    let mut command = Command::new(env!("CARGO_BIN_EXE_anqi-api"));
    command
        .env("ANQI_PORT", "0")
        .env("DATABASE_URL", scratch.join("games.db"))
        .env("ANQI_TOKEN", "contract-token")
        // Analyses short and plenty of slots: schemathesis sends two requests at a time, and
        // a 503 for a busy slot is not what it tests.
        .env("ANQI_ANALYSIS_MILLIS", "50")
        .env("ANQI_ANALYSIS_SLOTS", "8")
        .env("ANQI_PICTURE_SLOTS", "8")
        .env_remove("ANQI_HOST")
        .env_remove("ANQI_READ_ONLY")
        .env_remove("ANQI_SEAL_KEY_FILE")
        .stderr(Stdio::null());
    let server = Server::spawn(command);
    let addr = &server.addr;
    let seed = std::env::var("ANQI_CONTRACT_SEED").unwrap_or_else(|_| "1".into());
    let examples = std::env::var("ANQI_CONTRACT_EXAMPLES").unwrap_or_else(|_| "20".into());
    let hooks = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/contract");
    let output = Command::new(st)
        .current_dir(&scratch)
        .env("PYTHONPATH", &hooks)
        .env("SCHEMATHESIS_HOOKS", "hooks")
        .args([
            "run",
            &format!("http://{addr}/v1/openapi.json"),
            "--checks",
            "all",
            // Replaced by hooks.py's `refusals_are_semantic`: the same check, with the listed
            // semantic refusals allowed.
            "--exclude-checks",
            "positive_data_acceptance",
            "--seed",
            &seed,
            "--max-examples",
            &examples,
            "--workers",
            "2",
            "--generation-database",
            "none",
            "--header",
            "Authorization: Bearer contract-token",
            "--no-color",
        ])
        .output()
        .expect("run schemathesis");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "schemathesis found the service breaking its contract:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // It tested every operation of the document: a run that tested nothing passes nothing.
    let after = |label: &str| {
        stdout
            .split(label)
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_default()
            .to_owned()
    };
    let operations = api::openapi::document()["paths"]
        .as_object()
        .unwrap()
        .values()
        .map(|item| item.as_object().unwrap().len())
        .sum::<usize>();
    assert_eq!(
        after("Selected:"),
        format!("{operations}/{operations}"),
        "{stdout}"
    );
    assert_eq!(after("Tested:"), operations.to_string(), "{stdout}");
}
