//! What the batch tool's tests share: running `anqi`, and simulated logs to feed it.
#![allow(dead_code)] // each test file uses part of it

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `anqi` with `args` (no `DATABASE_URL` from the environment): its exit code, and what
/// it wrote to standard output then standard error.
pub fn anqi(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_anqi"))
        .args(args)
        .env_remove("DATABASE_URL")
        .output()
        .expect("run anqi");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap() + &String::from_utf8(out.stderr).unwrap(),
    )
}

/// Simulates one log per entry of `runs` (`anqi simulate`'s options) into `dir/logs/`, and
/// gives that directory.
pub fn simulated_logs(dir: &Path, runs: &[&[&str]]) -> PathBuf {
    let logs = dir.join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    for (i, run) in runs.iter().enumerate() {
        let out = logs.join(format!("{i}.jsonl"));
        let mut args = vec!["simulate", "-o", out.to_str().unwrap()];
        args.extend_from_slice(run);
        let (code, text) = anqi(&args);
        assert_eq!(code, 0, "{text}");
    }
    logs
}
