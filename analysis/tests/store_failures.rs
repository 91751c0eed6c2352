//! The record store when the disk fails it: `anqi import` onto a full disk and onto a
//! read-only database, as real processes. Each gets a clear error and exit code 2, loses
//! nothing committed before it (and nothing it reported stored), and once the disk is fixed a
//! re-run completes the set.
//!
//! The disk is real: a small tmpfs (full) or a read-only bind mount, made in a private mount
//! namespace (`unshare`, util-linux) so that nothing outlives the test. Where namespaces are
//! not allowed the SQLite tests say so and pass, unless `ANQI_REQUIRE_MOUNTS` is set (CI).

use std::path::{Path, PathBuf};
use std::process::Command;

use records::store::{Store, test_databases};

const FIRST: usize = 300;
const MANY: usize = 5_700;

fn dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("anqi-store-failures-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `first.jsonl` (300 games) and `many.jsonl` (5,700 more): one short Banqi game, copies told
/// apart (and fattened) by their metadata.
fn write_games(d: &Path) {
    let game = |i: usize| {
        serde_json::json!({"actions": ["b8(p)", "b6(R)", "c8(M)", "b5(p)"], "players": ["chan", "ai"],
            "preset": "tcga", "metadata": {"copy": i, "note": "x".repeat(200)}})
        .to_string()
    };
    let lines = |range: std::ops::Range<usize>| range.map(game).collect::<Vec<_>>().join("\n");
    std::fs::write(d.join("first.jsonl"), lines(0..FIRST)).unwrap();
    std::fs::write(d.join("many.jsonl"), lines(FIRST..FIRST + MANY)).unwrap();
}

/// Runs `script` (sh) in a private mount namespace with `$ANQI` and `$DIR` set; None when this
/// machine does not allow one.
fn in_private_mounts(d: &Path, script: &str) -> Option<std::process::Output> {
    let mut unshare = Command::new("unshare");
    // As root, a mount namespace; otherwise a user namespace that maps us to root in it.
    if !is_root() {
        unshare.args(["--user", "--map-root-user"]);
    }
    unshare.args(["--mount", "--propagation", "private"]);
    let probe = Command::new(unshare.get_program())
        .args(unshare.get_args())
        .args([
            "sh",
            "-c",
            "mount -t tmpfs tmpfs \"$0\"",
            d.to_str().unwrap(),
        ])
        .output();
    if !probe.is_ok_and(|o| o.status.success()) {
        assert!(
            std::env::var_os("ANQI_REQUIRE_MOUNTS").is_none(),
            "ANQI_REQUIRE_MOUNTS is set but this machine does not allow a private mount namespace"
        );
        eprintln!(
            "note: no private mount namespace here (unshare): the disk-failure test is skipped"
        );
        return None;
    }
    Some(
        unshare
            .args(["sh", "-c", script])
            .env("ANQI", env!("CARGO_BIN_EXE_anqi"))
            .env("DIR", d)
            .env_remove("DATABASE_URL")
            .output()
            .unwrap(),
    )
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0\n"))
}

fn read(d: &Path, name: &str) -> String {
    std::fs::read_to_string(d.join(name)).unwrap_or_default()
}

/// The ids a `--json` import reported stored.
fn reported_stored(report: &str) -> Vec<i64> {
    report
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["status"] == "stored")
        .map(|v| v["id"].as_i64().unwrap())
        .collect()
}

#[test]
fn a_full_disk_is_a_clear_error_and_loses_nothing() {
    let d = dir("full");
    write_games(&d);
    for sub in ["mnt", "after-full", "after-rerun"] {
        std::fs::create_dir_all(d.join(sub)).unwrap();
    }
    // A 3 MB disk holds the first 300 games and some of the next 5,700, not all of them.
    let script = r#"
        mount -t tmpfs -o size=3m tmpfs "$DIR/mnt" || exit 90
        "$ANQI" import "$DIR/first.jsonl" --database "$DIR/mnt/games.db" > "$DIR/first.txt" 2>&1
        echo $? > "$DIR/first.code"
        "$ANQI" import "$DIR/many.jsonl" --database "$DIR/mnt/games.db" --batch 100 --json \
            > "$DIR/full.txt" 2> "$DIR/full.err"
        echo $? > "$DIR/full.code"
        cp "$DIR"/mnt/games.db* "$DIR/after-full/"
        mount -o remount,size=64m "$DIR/mnt" || exit 91
        "$ANQI" import "$DIR/many.jsonl" --database "$DIR/mnt/games.db" > "$DIR/rerun.txt" 2>&1
        echo $? > "$DIR/rerun.code"
        cp "$DIR"/mnt/games.db* "$DIR/after-rerun/"
    "#;
    let Some(output) = in_private_mounts(&d, script) else {
        return;
    };
    assert!(output.status.success(), "{output:?}");
    assert_eq!(
        read(&d, "first.code").trim(),
        "0",
        "{}",
        read(&d, "first.txt")
    );
    // The full disk: exit 2, SQLite's own words and how much was stored before it.
    let err = read(&d, "full.err");
    assert_eq!(read(&d, "full.code").trim(), "2", "{err}");
    assert!(err.contains("database or disk is full"), "{err}");
    assert!(err.contains("games were stored before it"), "{err}");
    // Nothing committed is lost: the first 300, and every game reported stored, in whole
    // batches; the database opens and reads.
    let reported = reported_stored(&read(&d, "full.txt"));
    assert!(reported.len() < MANY, "the disk filled up");
    let after = Store::open(d.join("after-full/games.db").to_str().unwrap()).unwrap();
    assert_eq!(after.count().unwrap(), (FIRST + reported.len()) as i64);
    assert_eq!(reported.len() % 100, 0, "whole batches");
    for id in reported.iter().chain(&[1]) {
        assert!(after.get(*id).unwrap().is_some(), "game {id} lost");
    }
    // With room again, the same import completes the set.
    assert_eq!(
        read(&d, "rerun.code").trim(),
        "0",
        "{}",
        read(&d, "rerun.txt")
    );
    let rerun = read(&d, "rerun.txt");
    assert!(
        rerun.contains(&format!(
            "{} stored, {} already stored",
            MANY - reported.len(),
            reported.len()
        )),
        "{rerun}"
    );
    let done = Store::open(d.join("after-rerun/games.db").to_str().unwrap()).unwrap();
    assert_eq!(done.count().unwrap(), (FIRST + MANY) as i64);
}

#[test]
fn a_read_only_database_is_a_clear_error_and_loses_nothing() {
    let d = dir("read-only");
    write_games(&d);
    std::fs::create_dir_all(d.join("ro")).unwrap();
    let db = d.join("ro/games.db");
    let db = db.to_str().unwrap();
    let first = d.join("first.jsonl");
    let many = d.join("many.jsonl");
    let anqi = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_anqi"))
            .args(args)
            .env_remove("DATABASE_URL")
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    // SQLite: the file on a read-only file system.
    let (code, err) = anqi(&["import", first.to_str().unwrap(), "--database", db]);
    assert_eq!(code, Some(0), "{err}");
    let script = r#"
        mount --bind "$DIR/ro" "$DIR/ro" && mount -o remount,bind,ro "$DIR/ro" || exit 90
        "$ANQI" import "$DIR/many.jsonl" --database "$DIR/ro/games.db" > "$DIR/ro.txt" 2> "$DIR/ro.err"
        echo $? > "$DIR/ro.code"
    "#;
    if let Some(output) = in_private_mounts(&d, script) {
        assert!(output.status.success(), "{output:?}");
        let err = read(&d, "ro.err");
        assert_eq!(read(&d, "ro.code").trim(), "2", "{err}");
        assert!(err.contains("cannot open the database"), "{err}");
        assert!(err.contains("read-only?"), "{err}");
        assert_eq!(Store::open(db).unwrap().count().unwrap(), FIRST as i64);
        let (code, err) = anqi(&["import", many.to_str().unwrap(), "--database", db]);
        assert_eq!(code, Some(0), "{err}");
        assert_eq!(
            Store::open(db).unwrap().count().unwrap(),
            (FIRST + MANY) as i64
        );
    }
    // PostgreSQL: a database whose sessions are read-only (what a replica or a locked-down
    // role gives).
    for url in test_databases(&d, "read_only").into_iter().skip(1) {
        let (code, err) = anqi(&["import", first.to_str().unwrap(), "--database", &url]);
        assert_eq!(code, Some(0), "{err}");
        // Each `-c` its own transaction: the first makes the session writable again.
        let psql = |sql: &str| {
            let out = Command::new("psql")
                .args([url.as_str(), "-qAt", "-c"])
                .args(["SET default_transaction_read_only = off", "-c", sql])
                .output()
                .expect("psql (PostgreSQL's client) runs");
            assert!(out.status.success(), "{out:?}");
        };
        psql("ALTER DATABASE anqi_read_only SET default_transaction_read_only = on");
        let (code, err) = anqi(&["import", many.to_str().unwrap(), "--database", &url]);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains("read-only transaction"), "{err}");
        psql("ALTER DATABASE anqi_read_only SET default_transaction_read_only = off");
        assert_eq!(Store::open(&url).unwrap().count().unwrap(), FIRST as i64);
        let (code, err) = anqi(&["import", many.to_str().unwrap(), "--database", &url]);
        assert_eq!(code, Some(0), "{err}");
        assert_eq!(
            Store::open(&url).unwrap().count().unwrap(),
            (FIRST + MANY) as i64
        );
    }
}
