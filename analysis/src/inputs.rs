//! Finding and reading record files.

use std::path::{Path, PathBuf};

use records::core::Record;
use records::formats::{Format, LoadError, parse_records};

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

/// Reads every game of one file.
pub fn read(path: &Path) -> Vec<Entry> {
    let name = path.display().to_string();
    let text = match std::fs::read(path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(_) => {
                return vec![Entry {
                    source: name,
                    record: Err(LoadError {
                        line: None,
                        message: "not UTF-8 text".into(),
                    }),
                }];
            }
        },
        Err(e) => {
            return vec![Entry {
                source: name,
                record: Err(LoadError {
                    line: None,
                    message: e.to_string(),
                }),
            }];
        }
    };
    let records = parse_records(&text, Format::from_path(path));
    let several = records.len() > 1;
    records
        .into_iter()
        .enumerate()
        .map(|(i, record)| Entry {
            source: if several {
                format!("{name}#{}", i + 1)
            } else {
                name.clone()
            },
            record,
        })
        .collect()
}
