//! Reading game records from text: a JSON record (or an array of them), JSON Lines, or a
//! game's own text format (Banqi's TCGA, found through the registry).

use std::io::BufRead;

use serde::Deserializer as _;

use crate::core::Record;
use crate::core::text::TextFormat;

/// The ways records are written.
#[derive(Copy, Clone, Debug)]
pub enum Format {
    /// One JSON record, or a JSON array of records.
    Json,
    /// One JSON record per line (`.jsonl`, `.ndjson`).
    JsonLines,
    /// A game's own text format (TCGA), one or more games.
    Text(&'static TextFormat),
}

impl PartialEq for Format {
    fn eq(&self, other: &Format) -> bool {
        match (self, other) {
            (Format::Text(a), Format::Text(b)) => a.name == b.name,
            (Format::Json, Format::Json) | (Format::JsonLines, Format::JsonLines) => true,
            _ => false,
        }
    }
}

impl Eq for Format {}

impl Format {
    /// The text format of a text that is not JSON: the first the games declare (TCGA).
    pub fn text() -> Format {
        Format::Text(crate::games::default_text_format())
    }

    /// The format a file name suggests: `.json`, `.jsonl`/`.ndjson`, a text format's name
    /// (`.tcga`), anything else [`Format::text`].
    pub fn from_path(path: &std::path::Path) -> Format {
        match path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("json") => Format::Json,
            Some("jsonl") | Some("ndjson") => Format::JsonLines,
            Some(other) => crate::games::text_format(other).map_or_else(Format::text, Format::Text),
            None => Format::text(),
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
/// bad line does not hide the good ones; a TCGA text one entry per game; a JSON text fails as a
/// whole unless it is an array, whose elements are read one by one.
pub fn parse_records(text: &str, format: Format) -> Vec<Result<Record, LoadError>> {
    let mut out = Vec::new();
    read_each(text.as_bytes(), format, |r| out.push(r)).expect("reading from memory");
    out
}

/// Reads the records of `input` as its text arrives, giving each to `each` in order: memory
/// holds one record (and, for TCGA, one game's text) at a time, whatever the input's size.
/// Entries are as [`parse_records`] gives them; an error reading `input` itself is returned.
pub fn read_each(
    input: impl BufRead,
    format: Format,
    mut each: impl FnMut(Result<Record, LoadError>),
) -> std::io::Result<()> {
    read_unparsed(input, format, |unparsed| each(unparsed.parse()))
}

/// One game of an input as the reader found it, not yet made a record: a JSON line, an
/// element of a JSON array, or (TCGA, a malformed text) already read. Making it a record is
/// most of the cost of reading, and is done by [`Unparsed::parse`], on any thread: a reader
/// that hands these on keeps up with every core parsing them.
#[derive(Debug)]
pub enum Unparsed {
    /// A line of JSON Lines and its 1-based number.
    Line {
        number: usize,
        text: String,
    },
    /// An element of a JSON array, or a JSON file's one record.
    Value(serde_json::Value),
    Read(Result<Record, LoadError>),
}

impl Unparsed {
    pub fn parse(self) -> Result<Record, LoadError> {
        match self {
            Unparsed::Line { number, text } => {
                serde_json::from_str::<Record>(&text).map_err(json_error(Some(number)))
            }
            Unparsed::Value(value) => serde_json::from_value(value).map_err(json_error(None)),
            Unparsed::Read(read) => read,
        }
    }
}

/// As [`read_each`], giving each game unparsed.
pub fn read_unparsed(
    mut input: impl BufRead,
    format: Format,
    mut each: impl FnMut(Unparsed),
) -> std::io::Result<()> {
    match format {
        Format::Json => {
            let mut de = serde_json::Deserializer::from_reader(&mut input);
            let read = de
                .deserialize_any(EachRecord(&mut each))
                .and_then(|()| de.end());
            if let Err(e) = read {
                if e.is_io() {
                    return Err(std::io::Error::other(e));
                }
                each(Unparsed::Read(Err(LoadError {
                    line: Some(e.line()).filter(|&l| l > 0),
                    message: format!("not JSON: {e}"),
                })));
            }
        }
        Format::JsonLines => {
            let mut number = 0;
            loop {
                let mut text = String::new();
                if input.read_line(&mut text)? == 0 {
                    break;
                }
                number += 1;
                if text.trim().is_empty() {
                    continue;
                }
                each(Unparsed::Line { number, text });
            }
        }
        Format::Text(format) => {
            // A game runs from its first line (TCGA: `INITIAL`) to the next game's: each is
            // parsed on its own.
            let mut game = String::new();
            let (mut first, mut number, mut games) = (1, 0, 0);
            let mut line = String::new();
            let mut flush = |game: &mut String, first: usize| {
                if game.trim().is_empty() {
                    return;
                }
                games += 1;
                match (format.parse)(game) {
                    Ok(records) => records
                        .into_iter()
                        .for_each(|r| each(Unparsed::Read(Ok(r)))),
                    Err(e) => each(Unparsed::Read(Err(LoadError {
                        line: Some(e.line + first - 1),
                        message: e.message,
                    }))),
                }
                game.clear();
            };
            loop {
                line.clear();
                if input.read_line(&mut line)? == 0 {
                    break;
                }
                number += 1;
                if line.trim() == format.game_starts && !game.trim().is_empty() {
                    flush(&mut game, first);
                }
                if game.is_empty() {
                    first = number;
                }
                game.push_str(&line);
            }
            flush(&mut game, first);
            if games == 0 {
                // As the format's parser says of a text with no game.
                if let Err(e) = (format.parse)("") {
                    each(Unparsed::Read(Err(LoadError {
                        line: Some(e.line),
                        message: e.message,
                    })));
                }
            }
        }
    }
    Ok(())
}

fn json_error(line: Option<usize>) -> impl Fn(serde_json::Error) -> LoadError {
    move |e| LoadError {
        line: line.or(Some(e.line()).filter(|&l| l > 0)),
        message: format!("not a game record: {e}"),
    }
}

/// A JSON text's records as they are read: one record, or each element of an array.
struct EachRecord<'f, F: FnMut(Unparsed)>(&'f mut F);

impl<'de, F: FnMut(Unparsed)> serde::de::Visitor<'de> for EachRecord<'_, F> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a game record or an array of them")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        // Each element is read whole, then made a record: a bad one does not hide the others.
        while let Some(value) = seq.next_element::<serde_json::Value>()? {
            (self.0)(Unparsed::Value(value));
        }
        Ok(())
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        use serde::Deserialize;
        let value =
            serde_json::Value::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
        (self.0)(Unparsed::Value(value));
        Ok(())
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
        assert!(parse_records("INITIAL\n* x\n", Format::text())[0].is_err());
        assert_eq!(Format::from_path("a/b.NDJSON".as_ref()), Format::JsonLines);
        assert_eq!(Format::from_path("a/b.txt".as_ref()), Format::text());
    }

    /// Streaming: each TCGA game is read on its own (a bad one among good ones is one entry,
    /// at its own line), and a JSON array's elements one by one.
    #[test]
    fn reads_game_by_game() {
        // A game of two flips (TCGA: date, players, the start's counts, the covered board,
        // the plies).
        let game = "INITIAL\n* 4:15pm Jan 13, 2022\n* east vs west\n* 1 2 2 2 2 2 5 1 2 2 2 2 2 5\n"
            .to_owned()
            + &"* X X X X\n".repeat(8)
            + "* first 0\n* time 900\n* 1. b8(G) d8(c)\n";
        assert!(parse_records(&game, Format::text())[0].is_ok(), "{game}");
        let text = format!("{game}INITIAL\n* bad\n{game}");
        let got = parse_records(&text, Format::text());
        assert_eq!(got.len(), 3);
        assert!(got[0].is_ok() && got[2].is_ok());
        // The bad game's line, counted in the whole text.
        assert!(
            got[1].as_ref().unwrap_err().line.unwrap() >= 16,
            "{:?}",
            got[1]
        );
    }

    #[test]
    fn a_json_array_is_read_element_by_element() {
        let one = r#"{"actions": ["b8(p)"]}"#;
        let text = format!("[{one}, {{\"actions\": 3}}, {one}]");
        let got = parse_records(&text, Format::Json);
        assert_eq!(got.len(), 3);
        assert!(got[0].is_ok() && got[1].is_err() && got[2].is_ok());
        let bad = parse_records("[{", Format::Json);
        assert!(bad.last().unwrap().is_err());
        assert!(parse_records("3", Format::Json)[0].is_err());
    }
}
