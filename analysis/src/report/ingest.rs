//! Streaming the inputs into the Parquet dataset: records are read a chunk at a time, replayed
//! on every core, settled in input order, and written as one Parquet part per chunk, game and
//! preset, in hive layout (`games/game=banqi/preset=tcga/part-00000.parquet`).

use std::path::{Path, PathBuf};

use indicatif::ProgressBar;
use polars::prelude::*;
use records::core::Record;

use super::facts::{Facts, GameFacts, SeatFacts, StepFacts, facts};
use super::table::Table;
use crate::games::{Books, PartOptions, write_parts};
use crate::inputs;

/// Games replayed per chunk: bounds the memory of a large input.
pub const CHUNK: usize = 10_000;

/// An input: a file or directory of records, or a record store.
pub enum Input {
    Files(PathBuf),
    Store(String),
}

impl Input {
    /// A progress bar over the bytes of every file among `inputs` (a store adds none).
    pub fn progress(inputs: &[Input], label: &str) -> ProgressBar {
        let files: Vec<PathBuf> = inputs
            .iter()
            .filter_map(|i| match i {
                Input::Files(path) => inputs::files(std::slice::from_ref(path)).ok(),
                Input::Store(_) => None,
            })
            .flatten()
            .collect();
        inputs::progress(inputs::size(&files), label)
    }

    pub fn parse(arg: &str) -> Input {
        if arg.starts_with("postgres://") || arg.starts_with("postgresql://") {
            Input::Store(arg.to_owned())
        } else if let Some(path) = arg.strip_prefix("sqlite:") {
            Input::Store(path.trim_start_matches("//").to_owned())
        } else if crate::inputs::is_sqlite(std::path::Path::new(arg)) {
            // A record store named by its file (`anqi.db`): read as the store it is.
            Input::Store(arg.to_owned())
        } else {
            Input::Files(PathBuf::from(arg))
        }
    }
}

/// A record that could not be used: where, and why.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Rejected {
    pub source: String,
    pub code: String,
    pub error: String,
}

/// What the ingest saw.
#[derive(Default)]
pub struct Ingested {
    pub games: usize,
    /// Rows of the games' detail tables (Banqi: flips).
    pub flips: usize,
    /// Every invalid or unreadable record is counted; the first 1,000 are kept for the list.
    pub rejected: usize,
    pub rejected_list: Vec<Rejected>,
    /// `game/preset` of every game reported.
    pub presets: Vec<String>,
    /// The report's tables: each chunk's counts, added up.
    pub tables: Vec<Table>,
}

/// Which records of the inputs an export takes, `--part K/N`: N machines given the same
/// inputs export each record once between them. A record goes to the share its players give
/// (a hash of their names, in name order): every game between the same players stays in one
/// share, in input order, so that what carries from game to game between them (Banqi's 戲谷
/// draws) is the same as in the whole. A record that cannot be read goes by its number in
/// the input (K − 1 modulo N).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Share {
    /// K − 1.
    pub index: usize,
    /// N.
    pub of: usize,
}

impl std::str::FromStr for Share {
    type Err = String;

    fn from_str(text: &str) -> Result<Share, String> {
        let wrong = || format!("a part is K/N with 1 <= K <= N (like 2/8), not {text:?}");
        let (k, n) = text.split_once('/').ok_or_else(wrong)?;
        let (k, n): (usize, usize) = (
            k.trim().parse().map_err(|_| wrong())?,
            n.trim().parse().map_err(|_| wrong())?,
        );
        if k == 0 || k > n {
            return Err(wrong());
        }
        Ok(Share {
            index: k - 1,
            of: n,
        })
    }
}

impl Share {
    /// Whether this share takes a game between these players (`record.player_name` of every
    /// seat, at least two): the first 8 bytes of the SHA-256 of their names in name order,
    /// each followed by a newline, as a big-endian number, modulo N. The same on every
    /// machine and in every version (docs/analysis.md).
    pub fn takes(&self, record: &Record) -> bool {
        use sha2::{Digest, Sha256};
        let mut names: Vec<String> = (0..record.players.len().max(2))
            .map(|i| record.player_name(i))
            .collect();
        names.sort();
        let mut hash = Sha256::new();
        for name in &names {
            hash.update(name.as_bytes());
            hash.update(b"\n");
        }
        let digest = hash.finalize();
        let first = u64::from_be_bytes(digest[..8].try_into().expect("8 bytes"));
        first % self.of as u64 == self.index as u64
    }

    /// Whether this share takes the unreadable record numbered `number` (0-based).
    fn takes_number(&self, number: usize) -> bool {
        number % self.of == self.index
    }
}

impl std::fmt::Display for Share {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.of)
    }
}

/// What an ingest does beside writing the dataset.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// Count the report's tables, chunk by chunk (the report does; an export does not).
    pub count: bool,
    /// The start of every part's file name after `part-` (the report: none; an export: its
    /// run, so that parts of several exports into one dataset never share a name).
    pub names: String,
    /// The records taken; all when None.
    pub share: Option<Share>,
}

/// Reads `inputs`, writes the dataset's tables under `out`.
pub fn ingest(
    inputs: &[Input],
    out: &Path,
    options: &PartOptions,
    bar: &ProgressBar,
    plan: &Plan,
) -> Result<Ingested, String> {
    let mut state = State {
        out: out.to_owned(),
        options: options.clone(),
        plan: plan.clone(),
        books: Books::new(options),
        part: 0,
        read: 0,
        ingested: Ingested::default(),
        pending: Vec::with_capacity(CHUNK),
        started: std::time::Instant::now(),
    };
    for input in inputs {
        match input {
            Input::Store(url) => {
                let store = records::store::Store::open(url).map_err(|e| e.to_string())?;
                // A game's source names the store, never its password (the data is shared).
                let name = records::store::redact(url);
                let mut after = 0;
                loop {
                    let page = store.records(after, 10_000).map_err(|e| e.to_string())?;
                    let Some(last) = page.last() else { break };
                    after = last.0;
                    for (id, source, record) in page {
                        state.push(
                            format!("{name}#{id} ({source})"),
                            Pending::Record(Box::new(record)),
                            bar,
                        )?;
                    }
                }
            }
            Input::Files(path) => {
                // Game by game as they are read (standard input for `-`), parsed by the
                // replay workers on every core.
                let mut failed = None;
                for file in inputs::files(std::slice::from_ref(path))? {
                    inputs::each(&file, Some(bar), |raw| {
                        if failed.is_none() {
                            let source = raw.source.clone();
                            failed = state.push(source, Pending::Raw(raw), bar).err();
                        }
                    });
                    if let Some(e) = failed {
                        return Err(e);
                    }
                }
            }
        }
    }
    state.flush(bar)?;
    let mut ingested = state.ingested;
    ingested.presets.sort();
    ingested.presets.dedup();
    Ok(ingested)
}

struct State {
    out: PathBuf,
    options: PartOptions,
    plan: Plan,
    /// Records read so far, taken or not (the share counts them).
    read: usize,
    /// What the games' parts keep across games, in input order.
    books: Books,
    part: usize,
    ingested: Ingested,
    /// Each record's number in the input, source, and record.
    pending: Vec<(usize, String, Pending)>,
    started: std::time::Instant,
}

/// A game waiting for its replay: a stored record, or a game read from a file, still to parse.
enum Pending {
    Record(Box<Record>),
    Raw(inputs::Raw),
}

impl State {
    fn push(&mut self, source: String, record: Pending, bar: &ProgressBar) -> Result<(), String> {
        self.pending.push((self.read, source, record));
        self.read += 1;
        if self.pending.len() >= CHUNK {
            self.flush(bar)?;
        }
        Ok(())
    }

    fn reject(&mut self, source: String, code: &str, error: String) {
        self.ingested.rejected += 1;
        if self.ingested.rejected_list.len() < 1000 {
            self.ingested.rejected_list.push(Rejected {
                source,
                code: code.to_owned(),
                error,
            });
        }
    }

    fn flush(&mut self, bar: &ProgressBar) -> Result<(), String> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let pending = std::mem::take(&mut self.pending);
        let replayed = replay_all(pending, self.plan.share);
        let mut games = Vec::with_capacity(replayed.len());
        for (source, result) in replayed {
            match result {
                Ok(mut facts) => {
                    facts.part.settle(&facts.seats, &mut self.books);
                    games.push(facts);
                }
                Err((code, error)) => self.reject(source, &code, error),
            }
        }
        self.ingested.games += games.len();
        bar.set_message(crate::inputs::rate(
            self.ingested.games + self.ingested.rejected,
            self.started,
        ));
        if games.is_empty() {
            return Ok(());
        }
        // The chunk's parts are written apart, counted, then moved into the dataset: the
        // statistics are the chunks' counts added up (memory holds one chunk, whatever the
        // input's size), the same counts as the whole dataset's.
        let chunk = self.out.with_extension("chunk");
        let _ = std::fs::remove_dir_all(&chunk);
        self.write(&games, &chunk)
            .map_err(|e| format!("writing Parquet: {e}"))?;
        if self.plan.count {
            let tables = super::stats::tables(&chunk, &self.options)
                .map_err(|e| format!("statistics: {e}"))?;
            for t in tables {
                match self.ingested.tables.iter_mut().find(|m| m.name == t.name) {
                    Some(m) => *m = m.merge(&t)?,
                    None => self.ingested.tables.push(t),
                }
            }
        }
        super::output::move_into(&chunk, &self.out)
            .map_err(|e| format!("{}: {e}", self.out.display()))?;
        std::fs::remove_dir_all(&chunk).map_err(|e| format!("{}: {e}", chunk.display()))?;
        self.part += 1;
        Ok(())
    }

    fn write(&mut self, facts: &[Facts], out: &Path) -> PolarsResult<()> {
        let part = format!("{}{:05}", self.plan.names, self.part);
        let part = part.as_str();
        let mut groups: Vec<(&str, &str)> =
            facts.iter().map(|f| (f.game.game, f.game.preset)).collect();
        groups.sort();
        groups.dedup();
        for (game, preset) in groups {
            self.ingested.presets.push(format!("{game}/{preset}"));
            let here: Vec<&Facts> = facts
                .iter()
                .filter(|f| (f.game.game, f.game.preset) == (game, preset))
                .collect();
            let g: Vec<&GameFacts> = here.iter().map(|f| &f.game).collect();
            let s: Vec<(&GameFacts, &SeatFacts)> = here
                .iter()
                .flat_map(|f| f.seats.iter().map(move |s| (&f.game, s)))
                .collect();
            write_part(out, "games", game, preset, part, &mut games_frame(&g)?)?;
            write_part(out, "seats", game, preset, part, &mut seats_frame(&s)?)?;
            let steps: Vec<(&GameFacts, &StepFacts)> = here
                .iter()
                .flat_map(|f| f.steps.iter().map(move |x| (&f.game, x)))
                .collect();
            if !steps.is_empty() {
                write_part(
                    out,
                    "explorer",
                    game,
                    preset,
                    part,
                    &mut explorer_frame(&steps)?,
                )?;
            }
        }
        self.ingested.flips += write_parts(facts, out, part)?;
        Ok(())
    }
}

/// Replays every pending record the share takes (all without one) on all cores, keeping the
/// order.
#[allow(clippy::type_complexity)]
fn replay_all(
    pending: Vec<(usize, String, Pending)>,
    share: Option<Share>,
) -> Vec<(String, Result<Facts, (String, String)>)> {
    use rayon::prelude::*;
    pending
        .into_par_iter()
        .filter_map(|(number, source, pending)| {
            let record = match pending {
                Pending::Record(r) => Ok(*r),
                Pending::Raw(raw) => raw.parse().record.map_err(|e| e.to_string()),
            };
            let taken = match (&record, share) {
                (_, None) => true,
                (Ok(r), Some(share)) => share.takes(r),
                (Err(_), Some(share)) => share.takes_number(number),
            };
            if !taken {
                return None;
            }
            let result = match record {
                Err(e) => Err(("unreadable".to_owned(), e)),
                Ok(r) => {
                    facts(&r, &source, number).map_err(|e| (e.code().to_owned(), e.to_string()))
                }
            };
            Some((source, result))
        })
        .collect()
}

/// Writes one Parquet part of `table` for `game` and `preset`, in hive layout, named
/// `part-<part>.parquet`. The table must be one of the data contract's.
pub fn write_part(
    out: &Path,
    table: &str,
    game: &str,
    preset: &str,
    part: &str,
    df: &mut DataFrame,
) -> PolarsResult<()> {
    debug_assert!(
        super::contract::table(table).is_some(),
        "{table} is in the contract"
    );
    let dir = out
        .join(table)
        .join(format!("game={game}"))
        .join(format!("preset={preset}"));
    std::fs::create_dir_all(&dir)?;
    let file = std::fs::File::create(dir.join(format!("part-{part}.parquet")))?;
    ParquetWriter::new(file).finish(df)?;
    Ok(())
}

fn games_frame(g: &[&GameFacts]) -> PolarsResult<DataFrame> {
    let s = |name: &str| PlSmallStr::from(name);
    DataFrame::new_infer_height(vec![
        Column::new(
            s("source"),
            g.iter().map(|x| x.source.as_str()).collect::<Vec<_>>(),
        ),
        Column::new(
            s("variant"),
            g.iter().map(|x| x.variant.as_str()).collect::<Vec<_>>(),
        ),
        Column::new(s("seats"), g.iter().map(|x| x.seats).collect::<Vec<_>>()),
        Column::new(
            s("outcome"),
            g.iter().map(|x| x.outcome.as_deref()).collect::<Vec<_>>(),
        ),
        Column::new(s("reason"), g.iter().map(|x| x.reason).collect::<Vec<_>>()),
        Column::new(s("plies"), g.iter().map(|x| x.plies).collect::<Vec<_>>()),
        Column::new(
            s("date"),
            g.iter().map(|x| x.date.as_deref()).collect::<Vec<_>>(),
        ),
        Column::new(
            s("period"),
            g.iter().map(|x| x.period.as_str()).collect::<Vec<_>>(),
        ),
    ])
}

/// The `source` and `variant` columns of rows that belong to games.
fn game_columns<T>(rows: &[(&GameFacts, T)]) -> [Column; 2] {
    let of = |f: fn(&GameFacts) -> &str| rows.iter().map(|(g, _)| f(g)).collect::<Vec<_>>();
    [
        Column::new(PlSmallStr::from("source"), of(|g| &g.source)),
        Column::new(PlSmallStr::from("variant"), of(|g| &g.variant)),
    ]
}

fn seats_frame(rows: &[(&GameFacts, &SeatFacts)]) -> PolarsResult<DataFrame> {
    let s = |name: &str| PlSmallStr::from(name);
    let [source, variant] = game_columns(rows);
    DataFrame::new_infer_height(vec![
        source,
        variant,
        Column::new(
            s("seat"),
            rows.iter().map(|(_, x)| x.seat).collect::<Vec<_>>(),
        ),
        Column::new(
            s("name"),
            rows.iter()
                .map(|(_, x)| x.name.as_str())
                .collect::<Vec<_>>(),
        ),
        Column::new(
            s("side"),
            rows.iter().map(|(_, x)| x.side).collect::<Vec<_>>(),
        ),
        Column::new(
            s("points"),
            rows.iter().map(|(_, x)| x.points).collect::<Vec<_>>(),
        ),
        Column::new(
            s("place"),
            rows.iter().map(|(_, x)| x.place).collect::<Vec<_>>(),
        ),
        Column::new(
            s("score"),
            rows.iter().map(|(_, x)| x.score).collect::<Vec<_>>(),
        ),
        Column::new(
            s("named"),
            rows.iter().map(|(_, x)| x.named).collect::<Vec<_>>(),
        ),
    ])
}

/// The `explorer` table's rows: one per ply walked of a finished game.
fn explorer_frame(rows: &[(&GameFacts, &StepFacts)]) -> PolarsResult<DataFrame> {
    let s = |name: &str| PlSmallStr::from(name);
    let of = |f: fn(&StepFacts) -> &str| rows.iter().map(|(_, x)| f(x)).collect::<Vec<_>>();
    let int = |f: fn(&StepFacts) -> i64| rows.iter().map(|(_, x)| f(x)).collect::<Vec<_>>();
    let [source, variant] = game_columns(rows);
    DataFrame::new_infer_height(vec![
        source,
        variant,
        Column::new(
            s("ply"),
            rows.iter().map(|(_, x)| x.ply).collect::<Vec<_>>(),
        ),
        Column::new(
            s("seat"),
            rows.iter().map(|(_, x)| x.seat).collect::<Vec<_>>(),
        ),
        Column::new(s("node"), of(|x| &x.node)),
        Column::new(s("action"), of(|x| &x.action)),
        Column::new(s("next"), of(|x| &x.next)),
        Column::new(
            s("score"),
            rows.iter().map(|(_, x)| x.score).collect::<Vec<_>>(),
        ),
        Column::new(s("points"), int(|x| x.points)),
        Column::new(s("coin_stakes"), int(|x| x.coin_stakes)),
        Column::new(s("coin_margins"), int(|x| x.coin_margins)),
        Column::new(
            s("shared_start"),
            rows.iter().map(|(_, x)| x.shared_start).collect::<Vec<_>>(),
        ),
    ])
}
