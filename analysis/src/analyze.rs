//! `anqi analyze`: the engine over a whole game, ply by ply (a post-game review), or on one
//! position. For a record: the score after every ply from player 1's side (centipawns and
//! its chances), the best action for the side to move there, and, in two-seat games, each
//! action judged against the actions the same search scored before it was played: what the
//! decision gave up (the best action's score less the played one's: never anything for the
//! engine's own choice), what chance gave or took when the action revealed something (a flip:
//! what came less what the flip was worth on average), and a word for it (docs/analysis.md
//! gives the thresholds); a forced result is said as one ("missed a forced win in 5"), never as
//! centipawns. As a table, or JSON lines, and a chart of player 1's expected score.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use plotters::prelude::*;
use records::core::analysis::{Analysis, Limits, Score};
use records::core::replay::{prepare, validate};
use records::core::rules::Rules;
use records::core::{Engine as _, Record, Seat, Turn as _};
use records::games::GameKind;
use records::with_game;
use serde::Serialize;

use crate::inputs::{self, Failure};

/// What to analyse, how long, and where the answers go (the command's options).
#[derive(clap::Args)]
pub struct Order {
    /// A record file (`-`: standard input), or a position string.
    pub input: String,
    /// Which record of the file, counting from 1.
    #[arg(long, default_value_t = 1)]
    pub index: usize,
    /// The kind of game of a position (records name theirs): banqi by default.
    #[arg(long)]
    pub game: Option<String>,
    /// The preset of a position (the game's first by default).
    #[arg(long)]
    pub preset: Option<String>,
    /// Milliseconds per position (100 unless --nodes or --depth is given).
    #[arg(long)]
    pub millis: Option<u64>,
    /// Positions searched per position: the same answers on every machine.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Plies ahead.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Print JSON lines instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Draw player 1's expected score over the game into this file (.svg or .png).
    #[arg(long)]
    pub chart: Option<PathBuf>,
}

impl Order {
    /// The search's limits: those given, or 100 ms when none is.
    fn limits(&self) -> Limits {
        let none = self.nodes.is_none() && self.depth.is_none();
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            millis: self.millis.or(none.then_some(100)),
        }
    }
}

/// One line of a review: the position after `ply` (0: the start).
#[derive(Serialize)]
struct Line {
    ply: usize,
    /// The action that made the position (none at the start).
    #[serde(skip_serializing_if = "Option::is_none")]
    action: Option<String>,
    to_move: Seat,
    /// The score for player 1 (the side to move's, turned when player 2 is to move).
    player1: Score,
    /// The engine's choice for the side to move (none once the game is over).
    #[serde(skip_serializing_if = "Option::is_none")]
    best: Option<String>,
    /// Centipawns the decision gave up: the best action's score less the played one's, both
    /// from the search before it (two seats; 0 for the engine's choice; absent where a forced
    /// result is at stake: `said` says it).
    #[serde(skip_serializing_if = "Option::is_none")]
    lost: Option<i64>,
    /// Centipawns chance gave the mover (taken when negative): the score after a revealing
    /// action less what the search expected of it.
    #[serde(skip_serializing_if = "Option::is_none")]
    luck: Option<i64>,
    /// The action judged in words: `the engine's choice`, `good`, `inaccuracy`, `mistake`,
    /// `blunder`, `missed a forced win in 5`, `walks into a forced loss in 3` ….
    #[serde(skip_serializing_if = "Option::is_none")]
    said: Option<String>,
    depth: u32,
    nodes: u64,
}

pub fn run(order: &Order) -> ExitCode {
    match analyze(order) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.exit("analyze"),
    }
}

fn analyze(order: &Order) -> Result<(), Failure> {
    let path = Path::new(&order.input);
    let record = if path.exists() || order.input == "-" {
        inputs::nth_record(path, order.index)?
    } else {
        // A position: a record with no action from it.
        let kind = order
            .game
            .clone()
            .unwrap_or_else(|| GameKind::DEFAULT.name().to_owned());
        let mut record = Record::new(&kind, order.preset.as_deref().unwrap_or(""), Vec::new());
        record.preset = order.preset.clone();
        record.start = Some(order.input.clone());
        record
    };
    let kind: GameKind = record
        .game
        .parse()
        .map_err(|e| Failure::Cannot(format!("{e}")))?;
    let lines =
        with_game!(kind, G => review::<G>(&record, &order.limits())).map_err(Failure::Refused)?;
    if order.json {
        for line in &lines {
            println!(
                "{}",
                serde_json::to_string(line).expect("a line serialises")
            );
        }
    } else {
        print_table(&lines);
    }
    if let Some(chart) = &order.chart {
        draw(&lines, chart).map_err(|e| Failure::Cannot(format!("{}: {e}", chart.display())))?;
        eprintln!(
            "{}: player 1's expected score over {} plies",
            chart.display(),
            lines.len() - 1
        );
    }
    Ok(())
}

/// The analysis of the start and of the position after every ply of a valid record.
fn review<G: Rules>(record: &Record, limits: &Limits) -> Result<Vec<Line>, String> {
    let mut checked = record.clone();
    // The review goes as far as the record's plies; its stated result is not its business.
    checked.result = None;
    let verdict = validate::<G>(&checked);
    if let Some(e) = verdict.error {
        return Err(e.to_string());
    }
    let prepared = prepare::<G>(record).map_err(|e| e.to_string())?;
    let two_seats = G::seats(&prepared.rules) == 2;
    let mut m = G::Match::from_position(prepared.rules, prepared.start);
    let mut lines = Vec::with_capacity(record.actions.len() + 1);
    let mut before: Option<Analysis> = None;
    for ply in 0..=record.actions.len() {
        let mut action = None;
        // The played action among those the search before it scored, and whether it revealed
        // something (its notation then says what: `b8(G)` for the scored `b8`).
        let mut played: Option<(Score, bool)> = None;
        if ply > 0 {
            let text = &record.actions[ply - 1];
            let hidden = prepared.hidden.as_ref();
            let reveal =
                |text: &str| G::parse_action(text).and_then(|a| G::reveal(a, m.position(), hidden));
            let parsed = reveal(text).map_err(|e| format!("ply {ply}: {e}"))?;
            // The same action once revealed; or, when the record has no hidden truth to reveal
            // with, written the same but for what it revealed (`b8` for `b8(p)`).
            let same = |scored: &str| {
                reveal(scored).is_ok_and(|a| a == parsed)
                    || text
                        .strip_prefix(scored)
                        .is_some_and(|rest| rest.starts_with('('))
            };
            played = before.as_ref().and_then(|b| {
                b.actions
                    .iter()
                    .find(|s| same(&s.action))
                    .map(|s| (s.score, s.action != *text))
            });
            m.play(&parsed).map_err(|e| format!("ply {ply}: {e}"))?;
            action = Some(text.clone());
        }
        let analysis = G::analyze(&m, None, limits).map_err(|e| e.to_string())?;
        let to_move = m.position().to_move();
        let judged = match (&before, played, two_seats) {
            (Some(b), Some((score, chance)), true) => {
                let best = b.actions.first().map_or(b.score, |a| a.score);
                let chosen = b.best.as_deref().is_some_and(|best| {
                    let text = record.actions[ply - 1].as_str();
                    text == best || text.strip_prefix(best).is_some_and(|r| r.starts_with('('))
                });
                let came = turned(analysis.score);
                Some(judge(best, score, came, chance, chosen))
            }
            _ => None,
        };
        let (lost, luck, said) = judged.unwrap_or_default();
        lines.push(Line {
            ply,
            action,
            to_move,
            player1: if to_move == Seat::FIRST {
                analysis.score
            } else {
                turned(analysis.score)
            },
            best: analysis.best.clone(),
            lost,
            luck,
            said,
            depth: analysis.depth,
            nodes: analysis.nodes,
        });
        before = Some(analysis);
    }
    Ok(lines)
}

/// The expected score of a score's chances: a win 1, a draw ½.
fn expected(s: Score) -> f64 {
    s.win + s.draw / 2.0
}

/// How much worse than the best an action may be, in expected score (a win 1, a draw ½),
/// and still be called good, an inaccuracy, a mistake: lichess's steps of winning chances
/// (0.1, 0.2, 0.3 on a scale of −1 to 1) halved to expected score.
const INACCURACY: f64 = 0.05;
const MISTAKE: f64 = 0.10;
const BLUNDER: f64 = 0.15;

/// A played action judged against the best of the same search (both the mover's scores from
/// the position before it), with what came of it (`came`: the search's score after it, the
/// mover's): the centipawns the decision gave up, chance's centipawns when the action revealed
/// something (`chance`), and the word. The engine's own choice (`chosen`) gives up nothing;
/// forced results are said, not counted; a forced result the search after the action found
/// and the one before did not is the action's own when no chance came between.
fn judge(
    best: Score,
    played: Score,
    came: Score,
    chance: bool,
    chosen: bool,
) -> (Option<i64>, Option<i64>, Option<String>) {
    let played = if !chance && came.forced_in.is_some() && played.forced_in.is_none() {
        came
    } else {
        played
    };
    let wins = |s: Score| s.forced_in.filter(|&n| n > 0);
    let loses = |s: Score| s.forced_in.filter(|&n| n < 0).map(|n| -n);
    let luck = (chance && came.forced_in.is_none() && played.forced_in.is_none())
        .then(|| came.centipawns - played.centipawns);
    let forced = match (wins(best), wins(played), loses(played), loses(best)) {
        (Some(_), Some(n), _, _) => Some(format!("wins by force in {n}")),
        (Some(n), None, _, _) if !chosen => Some(format!("missed a forced win in {n}")),
        (_, _, Some(_), Some(_)) => Some("lost whatever is played".to_owned()),
        (_, _, Some(n), None) if !chosen => Some(format!("walks into a forced loss in {n}")),
        _ => None,
    };
    if let Some(said) = forced {
        let said = if chosen {
            format!("the engine's choice: {said}")
        } else {
            said
        };
        return (None, luck, Some(said));
    }
    if best.forced_in.is_some() || played.forced_in.is_some() {
        return (None, luck, chosen.then(|| "the engine's choice".to_owned()));
    }
    let lost = if chosen {
        0
    } else {
        (best.centipawns - played.centipawns).max(0)
    };
    let drop = expected(best) - expected(played);
    let said = if lost == 0 {
        "the engine's choice"
    } else if drop >= BLUNDER {
        "blunder"
    } else if drop >= MISTAKE {
        "mistake"
    } else if drop >= INACCURACY {
        "inaccuracy"
    } else {
        "good"
    };
    (Some(lost), luck, Some(said.to_owned()))
}

/// A score for the other side of a two-seat game.
fn turned(s: Score) -> Score {
    Score {
        centipawns: -s.centipawns,
        forced_in: s.forced_in.map(|p| -p),
        win: s.loss,
        draw: s.draw,
        loss: s.win,
    }
}

fn print_table(lines: &[Line]) {
    println!(
        "{:>5}  {:<14} {:<9} {:>12} {:>6} {:>6} {:>6}  {:<14} {:>6} {:>6}  judged",
        "ply", "action", "to move", "player 1", "win", "draw", "loss", "best", "lost", "luck"
    );
    for l in lines {
        // A forced result as one: player 1 wins (or loses) by force in so many plies.
        let won = l.player1.win > l.player1.loss;
        let score = match (l.player1.forced_in, won) {
            (Some(0), true) => "won".to_owned(),
            (Some(0), false) => "lost".to_owned(),
            (Some(p), true) => format!("wins in {}", p.abs()),
            (Some(p), false) => format!("loses in {}", p.abs()),
            (None, _) => format!("{:+}", l.player1.centipawns),
        };
        println!(
            "{:>5}  {:<14} {:<9} {:>12} {:>5.1}% {:>5.1}% {:>5.1}%  {:<14} {:>6} {:>6}  {}",
            l.ply,
            l.action.as_deref().unwrap_or("(start)"),
            l.to_move.to_string(),
            score,
            l.player1.win * 100.0,
            l.player1.draw * 100.0,
            l.player1.loss * 100.0,
            l.best.as_deref().unwrap_or("-"),
            l.lost.map_or(String::new(), |c| c.to_string()),
            l.luck.map_or(String::new(), |c| format!("{c:+}")),
            l.said.as_deref().unwrap_or(""),
        );
    }
}

/// Player 1's expected score (win + half a draw) after every ply, as an SVG or PNG chart.
fn draw(lines: &[Line], path: &Path) -> Result<(), Box<dyn std::error::Error>> {
    crate::report::charts::register_font();
    let points: Vec<(f64, f64)> = lines
        .iter()
        .map(|l| (l.ply as f64, l.player1.win + l.player1.draw / 2.0))
        .collect();
    let plies = (lines.len().max(2) - 1) as f64;
    let size = (900, 360);
    let png = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    macro_rules! chart {
        ($area:expr) => {{
            let area = $area.into_drawing_area();
            area.fill(&WHITE)?;
            let mut chart = ChartBuilder::on(&area)
                .caption(
                    "Player 1's expected score after each ply",
                    ("sans-serif", 20),
                )
                .margin(12)
                .x_label_area_size(40)
                .y_label_area_size(50)
                .build_cartesian_2d(0f64..plies, 0f64..1f64)?;
            chart
                .configure_mesh()
                .x_desc("ply")
                .y_desc("expected score")
                .x_label_formatter(&|x| format!("{x:.0}"))
                .label_style(("sans-serif", 13))
                .draw()?;
            chart.draw_series(LineSeries::new([(0.0, 0.5), (plies, 0.5)], &BLACK.mix(0.3)))?;
            chart.draw_series(LineSeries::new(
                points.iter().copied(),
                RGBColor(70, 110, 170).stroke_width(2),
            ))?;
            area.present()?;
        }};
    }
    if png {
        chart!(BitMapBackend::new(path, size));
    } else {
        chart!(SVGBackend::new(path, size));
    }
    Ok(())
}
