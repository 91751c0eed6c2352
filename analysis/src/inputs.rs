//! Finding and reading record files.

use std::io::BufRead;
use std::path::{Path, PathBuf};

use indicatif::ProgressBar;
use records::core::Record;
use records::formats::{Format, LoadError, Unparsed, read_unparsed};

/// One game read from a file: where it came from and the record, or why it could not be read.
pub struct Entry {
    /// The file, with `#n` (1-based) when the file holds several games.
    pub source: String,
    pub record: Result<Record, LoadError>,
}

/// Every file under `paths` (directories recursively, in name order; `-` is standard input).
pub fn files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        walk(p, &mut out).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    Ok(out)
}

fn walk(path: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if path.as_os_str() == STDIN {
        out.push(path.to_owned());
    } else if path.is_dir() {
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

/// One game as read, not yet parsed: [`Raw::parse`] makes it an [`Entry`] on any thread.
pub struct Raw {
    pub source: String,
    unparsed: Unparsed,
}

impl Raw {
    pub fn parse(self) -> Entry {
        Entry {
            source: self.source,
            record: self.unparsed.parse(),
        }
    }
}

/// The name that stands for standard input.
pub const STDIN: &str = "-";

/// Reads the games of one file (or of standard input, for `-`) as they are found, giving
/// each to `each` in order: memory holds one game at a time, whatever the file's size.
/// `progress` counts the bytes read.
pub fn each(path: &Path, progress: Option<&ProgressBar>, mut each: impl FnMut(Raw)) {
    let stdin = path.as_os_str() == STDIN;
    let name = if stdin {
        "stdin".to_owned()
    } else {
        path.display().to_string()
    };
    let unreadable = |message: String| Raw {
        source: name.clone(),
        unparsed: Unparsed::Read(Err(LoadError {
            line: None,
            message,
        })),
    };
    if !stdin && is_sqlite(path) {
        return each(unreadable(format!(
            "a SQLite database (a record store?), not a record file: `anqi report` and \
             `anqi export` read a store (sqlite:{})",
            path.display()
        )));
    }
    let input: Box<dyn std::io::Read> = if stdin {
        Box::new(std::io::stdin().lock())
    } else {
        match std::fs::File::open(path) {
            Ok(f) => Box::new(f),
            Err(e) => return each(unreadable(e.to_string())),
        }
    };
    let input: Box<dyn std::io::Read> = match progress {
        Some(bar) => Box::new(bar.wrap_read(input)),
        None => input,
    };
    let mut input = std::io::BufReader::with_capacity(1 << 16, input);
    let format = if stdin {
        match sniff(&mut input) {
            Ok(format) => format,
            Err(e) => return each(unreadable(e.to_string())),
        }
    } else {
        Format::from_path(path)
    };
    // A game of a file that holds several is named `file#n`: the first waits until a
    // second shows whether there are several.
    let mut first = None;
    let mut n = 0;
    let read = read_unparsed(input, format, |unparsed| {
        n += 1;
        match n {
            1 => first = Some(unparsed),
            2 => {
                let unparsed1 = first.take().expect("the first game");
                each(Raw {
                    source: format!("{name}#1"),
                    unparsed: unparsed1,
                });
                each(Raw {
                    source: format!("{name}#2"),
                    unparsed,
                });
            }
            _ => each(Raw {
                source: format!("{name}#{n}"),
                unparsed,
            }),
        }
    });
    if let Some(unparsed) = first {
        each(Raw {
            source: name.clone(),
            unparsed,
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

/// Whether the file at `path` is a SQLite database (its first 16 bytes say so).
pub fn is_sqlite(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 16];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| &head == b"SQLite format 3\0")
}

/// Standard input has no name to tell its format: its first character does. `[` is a JSON
/// array, `{` JSON Lines (a record per line, what a pipe carries), anything else TCGA.
fn sniff(input: &mut impl BufRead) -> std::io::Result<Format> {
    loop {
        let buffer = input.fill_buf()?;
        let Some(&first) = buffer.iter().find(|b| !b.is_ascii_whitespace()) else {
            if buffer.is_empty() {
                return Ok(Format::text());
            }
            let len = buffer.len();
            input.consume(len);
            continue;
        };
        return Ok(match first {
            b'[' => Format::Json,
            b'{' => Format::JsonLines,
            _ => Format::text(),
        });
    }
}

/// Game `n` (1-based) of the file at `path`; memory holds one game at a time while the file
/// is read.
pub fn nth_record(path: &Path, n: usize) -> Result<records::core::Record, Failure> {
    if n == 0 {
        return Err(Failure::Cannot("--index counts from 1".into()));
    }
    let (mut seen, mut found) = (0, None);
    each(path, None, |raw| {
        seen += 1;
        if seen == n {
            found = Some(raw.parse());
        }
    });
    let entry = found.ok_or_else(|| {
        Failure::Cannot(format!(
            "{}: holds {seen} game(s); --index {n} is not one",
            path.display()
        ))
    })?;
    entry
        .record
        .map_err(|e| Failure::Refused(format!("{}: unreadable: {e}", entry.source)))
}

/// Why a command stopped, which its exit code says (docs/analysis.md, "Exit codes"): every
/// command exits 1 when a record it was given is refused (unreadable, or it does not replay),
/// and 2 when it cannot run (its arguments, a file or a database it cannot use).
pub enum Failure {
    /// A record was refused (exit 1).
    Refused(String),
    /// The command cannot run (exit 2).
    Cannot(String),
    /// The inputs hold no game at all (exit 3).
    NoGame(String),
}

impl Failure {
    /// Says why on standard error, as `anqi <command>: why`, and gives the exit code.
    pub fn exit(self, command: &str) -> std::process::ExitCode {
        let (code, why) = match self {
            Failure::Refused(why) => (1, why),
            Failure::Cannot(why) => (2, why),
            Failure::NoGame(why) => (3, why),
        };
        eprintln!("anqi {command}: {why}");
        std::process::ExitCode::from(code)
    }
}

/// The games of `files`, read on a thread of their own and handed on in batches of `size`,
/// in order: the reader stays `ahead` batches in front of the caller, no further, so memory
/// holds a few batches whatever the inputs' size.
pub fn batches(
    files: Vec<PathBuf>,
    size: usize,
    ahead: usize,
    progress: Option<ProgressBar>,
) -> impl Iterator<Item = Vec<Raw>> {
    let size = size.max(1);
    let (send, receive) = std::sync::mpsc::sync_channel::<Vec<Raw>>(ahead);
    let reader = std::thread::Builder::new().name("anqi-reader".into());
    let spawned = reader.spawn(move || {
        let mut batch = Vec::with_capacity(size);
        for file in &files {
            let mut gone = false;
            each(file, progress.as_ref(), |raw| {
                if gone {
                    return;
                }
                batch.push(raw);
                if batch.len() == size {
                    let full = std::mem::replace(&mut batch, Vec::with_capacity(size));
                    // The caller stopped (an error): read no further.
                    gone = send.send(full).is_err();
                }
            });
            if gone {
                return;
            }
        }
        if !batch.is_empty() {
            let _ = send.send(batch);
        }
    });
    spawned.expect("a thread for the reader");
    receive.into_iter()
}

/// The bytes `files` hold (standard input counts none).
pub fn size(files: &[PathBuf]) -> u64 {
    files
        .iter()
        .filter_map(|f| std::fs::metadata(f).ok())
        .map(|m| m.len())
        .sum()
}

/// A progress bar over `bytes` of input: the rate and the ETA hold for one large file as for
/// many small ones. Its message is for [`rate`]. Drawn on standard error when it is a terminal.
pub fn progress(bytes: u64, verb: &str) -> ProgressBar {
    let bar = ProgressBar::new(bytes).with_style(
        indicatif::ProgressStyle::with_template(&format!(
            "{{spinner}} {verb} [{{bar:40}}] {{binary_bytes}}/{{binary_total_bytes}}, {{msg}}, eta {{eta}}"
        ))
        .expect("a valid template")
        .progress_chars("=> "),
    );
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    bar
}

/// `games` so far and their rate since `started`, for a progress bar's message.
pub fn rate(games: usize, started: std::time::Instant) -> String {
    let seconds = started.elapsed().as_secs_f64().max(1e-3);
    format!("{games} games, {:.0} games/s", games as f64 / seconds)
}
