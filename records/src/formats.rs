//! Reading game records from text: a JSON record (or an array of them), JSON Lines, or TCGA.

use crate::core::Record;
use crate::games::banqi::tcga;

/// The ways records are written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// One JSON record, or a JSON array of records.
    Json,
    /// One JSON record per line (`.jsonl`, `.ndjson`).
    JsonLines,
    /// TCGA game text, one or more games.
    Tcga,
}

impl Format {
    /// The format a file name suggests: `.json`, `.jsonl`/`.ndjson`, anything else TCGA.
    pub fn from_path(path: &std::path::Path) -> Format {
        match path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("json") => Format::Json,
            Some("jsonl") | Some("ndjson") => Format::JsonLines,
            _ => Format::Tcga,
        }
    }
}

/// One entry of a text that could not be read as a record: where and why.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LoadError {
    /// 1-based line where the problem is, when known.
    pub line: Option<usize>,
    pub message: String,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(l) => write!(f, "line {l}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// Reads every record of `text`. A JSON Lines text yields one entry per non-empty line, so a
/// bad line does not hide the good ones; the other formats fail as a whole.
pub fn parse_records(text: &str, format: Format) -> Vec<Result<Record, LoadError>> {
    match format {
        Format::Json => {
            let value: Result<serde_json::Value, _> = serde_json::from_str(text);
            let parsed = match value {
                Ok(serde_json::Value::Array(items)) => {
                    return items
                        .into_iter()
                        .map(|v| serde_json::from_value(v).map_err(json_error(None)))
                        .collect();
                }
                Ok(v) => serde_json::from_value(v).map_err(json_error(None)),
                Err(e) => Err(LoadError {
                    line: Some(e.line()),
                    message: format!("not JSON: {e}"),
                }),
            };
            vec![parsed]
        }
        Format::JsonLines => text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, l)| serde_json::from_str::<Record>(l).map_err(json_error(Some(i + 1))))
            .collect(),
        Format::Tcga => match tcga::parse(text) {
            Ok(records) => records.into_iter().map(Ok).collect(),
            Err(e) => vec![Err(LoadError {
                line: Some(e.line),
                message: e.message,
            })],
        },
    }
}

fn json_error(line: Option<usize>) -> impl Fn(serde_json::Error) -> LoadError {
    move |e| LoadError {
        line: line.or(Some(e.line()).filter(|&l| l > 0)),
        message: format!("not a game record: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_each_format() {
        let one = r#"{"actions": ["b8(p)"]}"#;
        assert!(parse_records(one, Format::Json)[0].is_ok());
        let many = format!("[{one}, {one}]");
        assert_eq!(parse_records(&many, Format::Json).len(), 2);
        let lines = format!("{one}\n\n{{\"actions\": 3}}\n{one}\n");
        let got = parse_records(&lines, Format::JsonLines);
        assert_eq!(got.len(), 3);
        assert_eq!(got[1].as_ref().unwrap_err().line, Some(3));
        assert!(parse_records("INITIAL\n* x\n", Format::Tcga)[0].is_err());
        assert_eq!(Format::from_path("a/b.NDJSON".as_ref()), Format::JsonLines);
        assert_eq!(Format::from_path("a/b.txt".as_ref()), Format::Tcga);
    }
}
