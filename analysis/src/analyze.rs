//! `anqi analyze`: the engine over a whole game, ply by ply (a post-game review), or on one
//! position. For a record: the score after every ply from player 1's side (centipawns and
//! its chances), the best action for the side to move there, and what each action played
//! gave up against the best the engine saw (two-seat games); as a table, or JSON lines, and
//! a chart of player 1's expected score over the game.

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
    /// Centipawns the action played gave up against the best the engine saw before it
    /// (two seats; 0 when it was the best or better).
    #[serde(skip_serializing_if = "Option::is_none")]
    lost: Option<i64>,
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
        if ply > 0 {
            let text = &record.actions[ply - 1];
            let parsed = G::parse_action(text)
                .and_then(|a| G::reveal(a, m.position(), prepared.hidden.as_ref()))
                .map_err(|e| format!("ply {ply}: {e}"))?;
            m.play(&parsed).map_err(|e| format!("ply {ply}: {e}"))?;
            action = Some(text.clone());
        }
        let analysis = G::analyze(&m, None, limits).map_err(|e| e.to_string())?;
        let to_move = m.position().to_move();
        let lost = match (&before, two_seats) {
            (Some(b), true) => Some((b.score.centipawns + analysis.score.centipawns).max(0)),
            _ => None,
        };
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
            lost: lost.filter(|_| before.as_ref().is_some_and(|b| b.best.is_some())),
            depth: analysis.depth,
            nodes: analysis.nodes,
        });
        before = Some(analysis);
    }
    Ok(lines)
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
        "{:>5}  {:<14} {:<8} {:>9} {:>6} {:>6} {:>6}  {:<14} {:>6}",
        "ply", "action", "to move", "player 1", "win", "draw", "loss", "best", "lost"
    );
    for l in lines {
        let score = match l.player1.forced_in {
            Some(p) if p >= 0 => format!("+won {p}"),
            Some(p) => format!("-lost {}", -p),
            None => format!("{:+}", l.player1.centipawns),
        };
        println!(
            "{:>5}  {:<14} {:<8} {:>9} {:>5.1}% {:>5.1}% {:>5.1}%  {:<14} {:>6}",
            l.ply,
            l.action.as_deref().unwrap_or("(start)"),
            l.to_move.code(),
            score,
            l.player1.win * 100.0,
            l.player1.draw * 100.0,
            l.player1.loss * 100.0,
            l.best.as_deref().unwrap_or("-"),
            l.lost.map_or(String::new(), |c| c.to_string()),
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
