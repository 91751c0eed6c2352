//! The report's directory. A report is written into a directory of its own beside the output
//! (`.<name>.anqi-partial-<pid>`) and moved into place only when it is whole: a report that
//! fails leaves nothing behind, and the output is untouched until the new report is complete.
//! The output is a new or empty directory, or an earlier report, of which only what that report
//! wrote is replaced; a directory that is neither is refused, and nothing else is ever deleted.
//!
//! A directory is a report's when its manifest (`.anqi-report`, one path per line, relative to
//! the directory) says so: it lists every file the report wrote, besides the dataset's parts,
//! which are named by the data contract (`data/<table>/game=<g>/preset=<p>/part-*.parquet`,
//! `data/schema.json`). A `stats.json` alone proves nothing: it may be the user's.

use std::path::{Path, PathBuf};

use super::contract;

/// The manifest: every file of the report but the dataset's parts.
pub const MANIFEST: &str = ".anqi-report";

/// The files a report writes at its top.
const TOP: [&str; 3] = ["index.html", "stats.json", "invalid.csv"];

/// What the output is before a report is written into it.
enum Found {
    /// Not there yet.
    New,
    /// An empty directory.
    Empty,
    /// An earlier report (its manifest).
    Report,
}

/// Whether a report may be written to `out`, and what is there; refuses anything else,
/// saying why.
fn check(out: &Path) -> Result<Found, String> {
    let shown = out.display();
    if !out.exists() {
        return Ok(Found::New);
    }
    if !out.is_dir() {
        return Err(format!("{shown} is a file, not a directory for a report"));
    }
    let mut entries = std::fs::read_dir(out).map_err(|e| format!("{shown}: {e}"))?;
    if entries.next().is_none() {
        return Ok(Found::Empty);
    }
    if !out.join(MANIFEST).is_file() {
        return Err(format!(
            "{shown} is not empty and holds no report (no {MANIFEST} manifest): name a new or \
             empty directory, or an earlier report's (anqi never deletes what it did not write)"
        ));
    }
    Ok(Found::Report)
}

/// A report being written: the directory it is written into, beside the output, removed
/// with everything in it unless [`Staging::finish`] moves it into place.
pub struct Staging {
    out: PathBuf,
    dir: PathBuf,
}

impl Staging {
    /// Checks that a report may be written to `out` and makes the directory it is written
    /// into (beside it: moving it into place is a rename). Partial directories that runs of
    /// this command left when they were killed are removed first.
    pub fn begin(out: &Path) -> Result<Staging, String> {
        check(out)?;
        let parent = match out.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = out
            .file_name()
            .ok_or_else(|| format!("{} names no directory", out.display()))?
            .to_string_lossy()
            .into_owned();
        std::fs::create_dir_all(&parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        remove_abandoned(&parent, &name);
        let dir = parent.join(format!(".{name}.anqi-partial-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        Ok(Staging {
            out: out.to_path_buf(),
            dir,
        })
    }

    /// Where the report is written.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Moves the whole report into place: the output, or, over an earlier report, its files
    /// (the earlier report's files removed first; nothing else in the directory is touched).
    pub fn finish(self) -> Result<(), String> {
        let moved = match check(&self.out)? {
            Found::New => std::fs::rename(&self.dir, &self.out),
            Found::Empty => {
                std::fs::remove_dir(&self.out).and_then(|()| std::fs::rename(&self.dir, &self.out))
            }
            Found::Report => {
                remove_report(&self.out)?;
                move_into(&self.dir, &self.out)
            }
        };
        moved.map_err(|e| format!("{}: {e}", self.out.display()))
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        // Gone already when the report was moved into place whole.
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Removes the partial directories of reports to `<parent>/<name>` whose run has ended (its
/// process is gone: killed before it could clean up).
fn remove_abandoned(parent: &Path, name: &str) {
    let prefix = format!(".{name}.anqi-partial-");
    for entry in std::fs::read_dir(parent).into_iter().flatten().flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = file
            .strip_prefix(&prefix)
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        let alive = Path::new(&format!("/proc/{pid}")).exists() || !Path::new("/proc").exists();
        if !alive && entry.path().is_dir() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Moves every file under `from` to the same place under `to` (directories made as needed):
/// a report into place, and each chunk's dataset parts into the dataset.
pub(crate) fn move_into(from: &Path, to: &Path) -> std::io::Result<()> {
    for entry in std::fs::read_dir(from)? {
        let path = entry?.path();
        let target = to.join(path.file_name().expect("a directory entry"));
        if path.is_dir() {
            std::fs::create_dir_all(&target)?;
            move_into(&path, &target)?;
        } else {
            std::fs::rename(&path, &target)?;
        }
    }
    Ok(())
}

/// Removes an earlier report's files from `out`: its manifest's, its dataset's parts, the
/// manifest itself, and the directories they leave empty.
fn remove_report(out: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(out.join(MANIFEST))
        .map_err(|e| format!("{}: {e}", out.join(MANIFEST).display()))?;
    let mut written: Vec<PathBuf> = text
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| out.join(l))
        .filter(|p| p.starts_with(out) && !p.components().any(|c| c.as_os_str() == ".."))
        .collect();
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
        // The new report: only its manifest and page.
        let staging = Staging::begin(&out).unwrap();
        std::fs::write(staging.dir().join("index.html"), "new").unwrap();
        record(staging.dir(), &[]).unwrap();
        let partial = staging.dir().to_path_buf();
        staging.finish().unwrap();
        for gone in ["stats.json", "charts/results-banqi.png"] {
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
        assert_eq!(
            std::fs::read_to_string(out.join("index.html")).unwrap(),
            "new"
        );
        assert!(out.join(MANIFEST).exists() && !partial.exists());
        let _ = std::fs::remove_dir_all(&out);
    }

    #[test]
    fn a_directory_that_is_not_a_report_is_refused() {
        let out = scratch("other");
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(out.join("thesis.tex"), "mine").unwrap();
        // A stats.json of the user's own makes no report.
        std::fs::write(out.join("stats.json"), "{\"mine\": 1}").unwrap();
        let e = Staging::begin(&out).err().unwrap();
        assert!(e.contains("holds no report"), "{e}");
        assert!(out.join("thesis.tex").exists() && out.join("stats.json").exists());
        // New and empty directories are fine.
        let new = scratch("new");
        Staging::begin(&new).unwrap().finish().unwrap();
        Staging::begin(&new).unwrap().finish().unwrap();
        assert!(new.is_dir());
        let _ = std::fs::remove_dir_all(&out);
        let _ = std::fs::remove_dir_all(&new);
    }

    #[test]
    fn a_report_dropped_before_it_is_whole_leaves_nothing() {
        let out = scratch("failed");
        let staging = Staging::begin(&out).unwrap();
        std::fs::create_dir_all(staging.dir().join("data")).unwrap();
        std::fs::write(staging.dir().join("data/x"), "half").unwrap();
        let partial = staging.dir().to_path_buf();
        drop(staging);
        assert!(!out.exists() && !partial.exists());
    }
}
