//! Finding and reading record files.

use std::path::{Path, PathBuf};

use indicatif::ProgressBar;
use records::core::Record;
use records::formats::{Format, LoadError, read_each};

/// One game read from a file: where it came from and the record, or why it could not be read.
pub struct Entry {
    /// The file, with `#n` (1-based) when the file holds several games.
    pub source: String,
    pub record: Result<Record, LoadError>,
}

/// Every file under `paths` (directories recursively, in name order).
pub fn files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        walk(p, &mut out).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    Ok(out)
}

fn walk(path: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if path.is_dir() {
        let mut children: Vec<PathBuf> = std::fs::read_dir(path)?
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()?;
        children.sort();
        for c in children {
            // Skip hidden files and the corpus READMEs.
            let name = c.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name.starts_with('.') || name.eq_ignore_ascii_case("README.md") {
                continue;
            }
            walk(&c, out)?;
        }
    } else {
        std::fs::metadata(path)?;
        out.push(path.to_owned());
    }
    Ok(())
}

/// Reads every game of one file (for the tools that keep a file's games together).
pub fn read(path: &Path) -> Vec<Entry> {
    let mut out = Vec::new();
    each(path, None, |entry| out.push(entry));
    out
}

/// Reads the games of one file as they are parsed, giving each to `each` in order: memory
/// holds one game at a time, whatever the file's size. `progress` counts the bytes read.
pub fn each(path: &Path, progress: Option<&ProgressBar>, mut each: impl FnMut(Entry)) {
    let name = path.display().to_string();
    let unreadable = |message: String| Entry {
        source: name.clone(),
        record: Err(LoadError {
            line: None,
            message,
        }),
    };
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) => return each(unreadable(e.to_string())),
    };
    let input: Box<dyn std::io::Read> = match progress {
        Some(bar) => Box::new(bar.wrap_read(file)),
        None => Box::new(file),
    };
    let input = std::io::BufReader::with_capacity(1 << 16, input);
    // A game of a file that holds several is named `file#n`: the first waits until a
    // second shows whether there are several.
    let mut first = None;
    let mut n = 0;
    let read = read_each(input, Format::from_path(path), |record| {
        n += 1;
        match n {
            1 => first = Some(record),
            2 => {
                let record1 = first.take().expect("the first game");
                each(Entry {
                    source: format!("{name}#1"),
                    record: record1,
                });
                each(Entry {
                    source: format!("{name}#2"),
                    record,
                });
            }
            _ => each(Entry {
                source: format!("{name}#{n}"),
                record,
            }),
        }
    });
    if let Some(record) = first {
        each(Entry {
            source: name.clone(),
            record,
        });
    }
    if let Err(e) = read {
        let message = if e.kind() == std::io::ErrorKind::InvalidData {
            "not UTF-8 text".to_owned()
        } else {
            e.to_string()
        };
        each(unreadable(message));
    }
}
