//! The report's directory: a report is written into a new or empty directory, or over an
//! earlier report, and then only what that report wrote is replaced. Nothing else is ever
//! deleted: a directory that is neither empty nor a report is refused.
//!
//! What a report wrote is in its manifest (`.anqi-report`, one path per line, relative to the
//! directory), besides the dataset's parts, which are named by the data contract
//! (`data/<table>/game=<g>/preset=<p>/part-*.parquet`, `data/schema.json`).

use std::path::{Path, PathBuf};

use super::contract;

/// The manifest: every file of the report but the dataset's parts.
pub const MANIFEST: &str = ".anqi-report";

/// The files a report writes at its top.
const TOP: [&str; 3] = ["index.html", "stats.json", "invalid.csv"];

/// Makes `out` ready for a report: created, or empty, or an earlier report whose files are
/// removed (its manifest's, and its dataset's parts). Refuses anything else, saying why.
pub fn prepare(out: &Path) -> Result<(), String> {
    let shown = out.display();
    if !out.exists() {
        return std::fs::create_dir_all(out).map_err(|e| format!("{shown}: {e}"));
    }
    if !out.is_dir() {
        return Err(format!("{shown} is a file, not a directory for a report"));
    }
    let mut entries = std::fs::read_dir(out).map_err(|e| format!("{shown}: {e}"))?;
    if entries.next().is_none() {
        return Ok(());
    }
    if !out.join("stats.json").is_file() {
        return Err(format!(
            "{shown} is not empty and holds no report (no stats.json): name a new or empty \
             directory, or an earlier report's (anqi never deletes what it did not write)"
        ));
    }
    let mut written: Vec<PathBuf> = match std::fs::read_to_string(out.join(MANIFEST)) {
        Ok(text) => text
            .lines()
            .filter(|l| !l.is_empty())
            .map(|l| out.join(l))
            .filter(|p| p.starts_with(out) && !p.components().any(|c| c.as_os_str() == ".."))
            .collect(),
        // A report of an earlier version, before manifests: its top files.
        Err(_) => TOP.iter().map(|name| out.join(name)).collect(),
    };
    written.push(out.join(MANIFEST));
    written.extend(dataset_parts(&out.join("data")));
    for file in &written {
        match std::fs::remove_file(file) {
            Ok(()) => prune(file.parent(), out),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(format!("{}: {e}", file.display())),
        }
    }
    Ok(())
}

/// Writes the manifest of a report made of `files` (paths under `out`).
pub fn record(out: &Path, files: &[PathBuf]) -> std::io::Result<()> {
    let mut lines: Vec<String> = files
        .iter()
        .filter_map(|f| f.strip_prefix(out).ok())
        .map(|f| f.to_string_lossy().into_owned())
        .collect();
    lines.extend(TOP.iter().map(|s| s.to_string()));
    lines.sort();
    lines.dedup();
    std::fs::write(out.join(MANIFEST), lines.join("\n") + "\n")
}

/// The dataset's files under `data`: its schema and the parts of the contract's tables, in
/// their hive directories. A file of another name is not the report's.
pub fn dataset_parts(data: &Path) -> Vec<PathBuf> {
    let mut parts = vec![data.join(contract::SCHEMA_FILE)];
    let dirs = |dir: &Path, prefix: &str| -> Vec<PathBuf> {
        std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.is_dir()
                    && p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.starts_with(prefix))
            })
            .collect()
    };
    for table in contract::tables() {
        for game in dirs(&data.join(table.name), "game=") {
            for preset in dirs(&game, "preset=") {
                parts.extend(
                    std::fs::read_dir(&preset)
                        .into_iter()
                        .flatten()
                        .flatten()
                        .map(|e| e.path())
                        .filter(|p| {
                            p.file_name()
                                .and_then(|n| n.to_str())
                                .is_some_and(|n| n.starts_with("part-") && n.ends_with(".parquet"))
                        }),
                );
            }
        }
    }
    parts
}

/// Removes `dir` and its parents up to `top` (not `top`) while they are empty.
fn prune(mut dir: Option<&Path>, top: &Path) {
    while let Some(d) = dir {
        if d == top || !d.starts_with(top) || std::fs::remove_dir(d).is_err() {
            return;
        }
        dir = d.parent();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("anqi-output-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn an_earlier_report_is_replaced_and_nothing_else() {
        let out = scratch("earlier");
        let part = out.join("data/games/game=banqi/preset=tcga/part-00000.parquet");
        std::fs::create_dir_all(part.parent().unwrap()).unwrap();
        std::fs::write(&part, "p").unwrap();
        std::fs::write(out.join("data/important.txt"), "mine").unwrap();
        std::fs::write(out.join("data/games/notes.md"), "mine").unwrap();
        std::fs::create_dir_all(out.join("charts")).unwrap();
        std::fs::write(out.join("charts/results-banqi.png"), "c").unwrap();
        std::fs::write(out.join("charts/mine.png"), "mine").unwrap();
        std::fs::write(out.join("stats.json"), "{}").unwrap();
        record(&out, &[out.join("charts/results-banqi.png")]).unwrap();
        prepare(&out).unwrap();
        for gone in ["stats.json", "charts/results-banqi.png", MANIFEST] {
            assert!(!out.join(gone).exists(), "{gone}");
        }
        assert!(!part.exists() && !out.join("data/games/game=banqi").exists());
        for kept in [
            "data/important.txt",
            "data/games/notes.md",
            "charts/mine.png",
        ] {
            assert!(out.join(kept).exists(), "{kept}");
        }
        let _ = std::fs::remove_dir_all(&out);
    }

    #[test]
    fn a_directory_that_is_not_a_report_is_refused() {
        let out = scratch("other");
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(out.join("thesis.tex"), "mine").unwrap();
        let e = prepare(&out).unwrap_err();
        assert!(e.contains("holds no report"), "{e}");
        assert!(out.join("thesis.tex").exists());
        // New and empty directories are fine.
        let new = scratch("new");
        prepare(&new).unwrap();
        prepare(&new).unwrap();
        let _ = std::fs::remove_dir_all(&out);
        let _ = std::fs::remove_dir_all(&new);
    }
}
