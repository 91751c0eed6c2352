//! Streaming the inputs into the Parquet dataset: records are read a chunk at a time, replayed
//! on every core, settled in input order, and written as one Parquet part per chunk and
//! preset, in hive layout (`games/preset=tcga/part-00000.parquet`).

use std::io::BufRead;
use std::path::{Path, PathBuf};

use indicatif::ProgressBar;
use polars::prelude::*;
use records::banqi::Outcome;
use records::formats::Format;
use records::record::Record;
use records::settlement::{SeriesBook, Table};

use super::facts::{FlipFacts, GameFacts, facts};
use crate::inputs;

/// Games replayed per chunk: bounds the memory of a large input.
pub const CHUNK: usize = 50_000;

/// An input: a file or directory of records, or a record store.
pub enum Input {
    Files(PathBuf),
    Store(String),
}

impl Input {
    pub fn parse(arg: &str) -> Input {
        if arg.starts_with("postgres://") || arg.starts_with("postgresql://") {
            Input::Store(arg.to_owned())
        } else if let Some(path) = arg.strip_prefix("sqlite:") {
            Input::Store(path.trim_start_matches("//").to_owned())
        } else {
            Input::Files(PathBuf::from(arg))
        }
    }
}

/// A record that could not be used: where, and why.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Rejected {
    pub source: String,
    pub code: String,
    pub error: String,
}

/// What the ingest saw.
#[derive(Default)]
pub struct Ingested {
    pub games: usize,
    pub flips: usize,
    /// Every invalid or unreadable record is counted; the first 1,000 are kept for the list.
    pub rejected: usize,
    pub rejected_list: Vec<Rejected>,
    pub presets: Vec<String>,
}

/// Reads `inputs`, writes `data/games` and `data/flips` under `out`.
pub fn ingest(
    inputs: &[Input],
    out: &Path,
    table: Table,
    bar: &ProgressBar,
) -> Result<Ingested, String> {
    let mut state = State {
        out: out.to_owned(),
        book: SeriesBook::new(table),
        part: 0,
        ingested: Ingested::default(),
        pending: Vec::with_capacity(CHUNK),
    };
    for input in inputs {
        match input {
            Input::Store(url) => {
                let store = records::store::Store::open(url).map_err(|e| e.to_string())?;
                let mut after = 0;
                loop {
                    let page = store.records(after, 10_000).map_err(|e| e.to_string())?;
                    let Some(last) = page.last() else { break };
                    after = last.0;
                    for (id, source, record) in page {
                        state.push(
                            format!("{url}#{id} ({source})"),
                            Pending::Record(Ok(record)),
                            bar,
                        )?;
                    }
                }
            }
            Input::Files(path) => {
                for file in inputs::files(std::slice::from_ref(path))? {
                    if Format::from_path(&file) == Format::JsonLines {
                        // Line by line: a JSON Lines file may be larger than memory.
                        let reader = std::fs::File::open(&file)
                            .map(std::io::BufReader::new)
                            .map_err(|e| format!("{}: {e}", file.display()))?;
                        for (i, line) in reader.lines().enumerate() {
                            let line = line.map_err(|e| format!("{}: {e}", file.display()))?;
                            if line.trim().is_empty() {
                                continue;
                            }
                            // Parsed by the replay workers, on every core.
                            state.push(
                                format!("{}#{}", file.display(), i + 1),
                                Pending::Line(line),
                                bar,
                            )?;
                        }
                    } else {
                        for entry in inputs::read(&file) {
                            let record = entry.record.map_err(|e| e.to_string());
                            state.push(entry.source, Pending::Record(record), bar)?;
                        }
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
    /// The settlement series per pair of players, in input order.
    book: SeriesBook,
    part: usize,
    ingested: Ingested,
    pending: Vec<(String, Pending)>,
}

/// A game waiting for its replay: a record, or a JSON line still to parse.
enum Pending {
    Record(Result<Record, String>),
    Line(String),
}

impl State {
    fn push(&mut self, source: String, record: Pending, bar: &ProgressBar) -> Result<(), String> {
        self.pending.push((source, record));
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
        let replayed = replay_all(&pending, bar);
        let mut games = Vec::with_capacity(replayed.len());
        let mut flips = Vec::new();
        for ((source, _), result) in pending.into_iter().zip(replayed) {
            match result {
                Ok((mut game, game_flips)) => {
                    self.settle(&mut game);
                    games.push(game);
                    flips.extend(game_flips);
                }
                Err((code, error)) => self.reject(source, &code, error),
            }
        }
        self.ingested.games += games.len();
        self.ingested.flips += flips.len();
        self.write(&games, &flips)
            .map_err(|e| format!("writing Parquet: {e}"))?;
        self.part += 1;
        Ok(())
    }

    /// The coin settlement of the game, with the draws carried between its players.
    fn settle(&mut self, game: &mut GameFacts) {
        let series = self.book.series(&game.player1, &game.player2);
        game.draws_carried = series.draws;
        let Some(outcome) = game.outcome else { return };
        if let Ok(s) = series.settle_game(outcome, [game.points1, game.points2], game.doubled)
            && s.payer.is_some()
        {
            game.bonus = Some(s.bonus);
            game.settlement = Some(s.amount);
        }
    }

    fn write(&mut self, games: &[GameFacts], flips: &[FlipFacts]) -> PolarsResult<()> {
        let mut presets: Vec<&str> = games.iter().map(|g| g.preset.as_str()).collect();
        presets.sort();
        presets.dedup();
        for preset in presets {
            self.ingested.presets.push(preset.to_owned());
            let g: Vec<&GameFacts> = games.iter().filter(|g| g.preset == preset).collect();
            let f: Vec<&FlipFacts> = flips.iter().filter(|f| f.preset == preset).collect();
            write_part(&self.out, "games", preset, self.part, &mut games_frame(&g)?)?;
            write_part(&self.out, "flips", preset, self.part, &mut flips_frame(&f)?)?;
        }
        Ok(())
    }
}

/// Replays every pending record on all cores, keeping the order.
#[allow(clippy::type_complexity)]
fn replay_all(
    pending: &[(String, Pending)],
    bar: &ProgressBar,
) -> Vec<Result<(GameFacts, Vec<FlipFacts>), (String, String)>> {
    use rayon::prelude::*;
    pending
        .par_iter()
        .map(|(source, pending)| {
            let parsed;
            let record = match pending {
                Pending::Record(r) => r.as_ref().map_err(|e| e.clone()),
                Pending::Line(line) => {
                    parsed = serde_json::from_str::<Record>(line).map_err(|e| e.to_string());
                    parsed.as_ref().map_err(|e| e.clone())
                }
            };
            let result = match record {
                Err(e) => Err(("unreadable".to_owned(), e)),
                Ok(r) => facts(r, source).map_err(|e| (e.code().to_owned(), e.to_string())),
            };
            bar.inc(1);
            result
        })
        .collect()
}

fn write_part(
    out: &Path,
    table: &str,
    preset: &str,
    part: usize,
    df: &mut DataFrame,
) -> PolarsResult<()> {
    let dir = out.join(table).join(format!("preset={preset}"));
    std::fs::create_dir_all(&dir)?;
    let file = std::fs::File::create(dir.join(format!("part-{part:05}.parquet")))?;
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
        Column::new(
            s("player1"),
            g.iter().map(|x| x.player1.as_str()).collect::<Vec<_>>(),
        ),
        Column::new(
            s("player2"),
            g.iter().map(|x| x.player2.as_str()).collect::<Vec<_>>(),
        ),
        Column::new(
            s("outcome"),
            g.iter()
                .map(|x| x.outcome.map_or("ongoing", Outcome::code))
                .collect::<Vec<_>>(),
        ),
        Column::new(s("reason"), g.iter().map(|x| x.reason).collect::<Vec<_>>()),
        Column::new(s("plies"), g.iter().map(|x| x.plies).collect::<Vec<_>>()),
        Column::new(
            s("p1_color"),
            g.iter().map(|x| x.p1_color).collect::<Vec<_>>(),
        ),
        Column::new(
            s("p1_score"),
            g.iter().map(|x| x.p1_score).collect::<Vec<_>>(),
        ),
        Column::new(
            s("red_result"),
            g.iter().map(|x| x.red_result).collect::<Vec<_>>(),
        ),
        Column::new(
            s("points1"),
            g.iter().map(|x| x.points1).collect::<Vec<_>>(),
        ),
        Column::new(
            s("points2"),
            g.iter().map(|x| x.points2).collect::<Vec<_>>(),
        ),
        Column::new(s("margin"), g.iter().map(|x| x.margin).collect::<Vec<_>>()),
        Column::new(
            s("first_square"),
            g.iter().map(|x| x.first_square).collect::<Vec<_>>(),
        ),
        Column::new(
            s("first_piece"),
            g.iter().map(|x| x.first_piece).collect::<Vec<_>>(),
        ),
        Column::new(
            s("second_square"),
            g.iter().map(|x| x.second_square).collect::<Vec<_>>(),
        ),
        Column::new(
            s("second_piece"),
            g.iter().map(|x| x.second_piece).collect::<Vec<_>>(),
        ),
        Column::new(
            s("doubled"),
            g.iter().map(|x| x.doubled).collect::<Vec<_>>(),
        ),
        Column::new(
            s("draws_carried"),
            g.iter().map(|x| x.draws_carried).collect::<Vec<_>>(),
        ),
        Column::new(s("bonus"), g.iter().map(|x| x.bonus).collect::<Vec<_>>()),
        Column::new(
            s("settlement"),
            g.iter().map(|x| x.settlement).collect::<Vec<_>>(),
        ),
    ])
}

fn flips_frame(f: &[&FlipFacts]) -> PolarsResult<DataFrame> {
    let s = |name: &str| PlSmallStr::from(name);
    DataFrame::new_infer_height(vec![
        Column::new(s("number"), f.iter().map(|x| x.number).collect::<Vec<_>>()),
        Column::new(s("ply"), f.iter().map(|x| x.ply).collect::<Vec<_>>()),
        Column::new(s("player"), f.iter().map(|x| x.player).collect::<Vec<_>>()),
        Column::new(s("square"), f.iter().map(|x| x.square).collect::<Vec<_>>()),
        Column::new(s("piece"), f.iter().map(|x| x.piece).collect::<Vec<_>>()),
        Column::new(
            s("adjacent"),
            f.iter().map(|x| x.adjacent).collect::<Vec<_>>(),
        ),
        Column::new(s("score"), f.iter().map(|x| x.score).collect::<Vec<_>>()),
    ])
}
