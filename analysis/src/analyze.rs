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
use records::core::Record;
use records::core::Seat;
use records::core::analysis::{Limits, Score};
use records::core::review::{ReviewedPly, review};
use records::games::GameKind;
use records::with_game;

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
    let lines = with_game!(kind, G => review::<G>(&record, &order.limits()))
        .map_err(|e| Failure::Refused(e.to_string()))?;
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
        if lines.iter().any(|l| l.player1.is_none()) {
            return Err(Failure::Refused(
                "--chart draws player 1's expected score, which a review of a three-seat game \
                 does not give (each position is scored for the side to move)"
                    .to_owned(),
            ));
        }
        draw(&lines, chart).map_err(|e| Failure::Cannot(format!("{}: {e}", chart.display())))?;
        eprintln!(
            "{}: player 1's expected score over {} plies",
            chart.display(),
            lines.len() - 1
        );
    }
    Ok(())
}

/// The review as a table for people, a row a ply, each about the move it names: who moved, the
/// move, what the engine would have played there, the position's evaluation before and after
/// the move from the mover's side, and the judgement of the move. The start is a line of its
/// own (nobody moved to it).
fn print_table(lines: &[ReviewedPly]) {
    let Some(start) = lines.first() else {
        return;
    };
    println!(
        "start: {} to move, {}{}",
        seat_words(start.to_move),
        evaluation(start.score),
        start
            .best
            .as_deref()
            .map_or(String::new(), |b| format!(", the engine's choice {b}"))
    );
    println!("each move's evaluations, before and after it, are from the side that made it");
    println!(
        "{:>5}  {:<9} {:<14} {:<15} {:>16} {:>16} {:>6} {:>6}  judged",
        "ply", "mover", "move", "engine's choice", "before", "after", "lost", "luck"
    );
    for pair in lines.windows(2) {
        let (before, now) = (&pair[0], &pair[1]);
        let mover = before.to_move;
        // Two seats: player 1's scores turned to the mover's side; three seats: the search
        // before the move scored it for the mover, the one after for the next seat only.
        let mover_side = |line: &ReviewedPly| {
            line.player1.map(|p1| {
                if mover == Seat::FIRST {
                    p1
                } else {
                    p1.turned()
                }
            })
        };
        let after = match mover_side(now) {
            Some(score) => evaluation(score),
            None => "—".to_owned(),
        };
        println!(
            "{:>5}  {:<9} {:<14} {:<15} {:>16} {:>16} {:>6} {:>6}  {}",
            now.ply,
            seat_words(mover),
            now.action.as_deref().unwrap_or(""),
            before.best.as_deref().unwrap_or("—"),
            evaluation(mover_side(before).unwrap_or(before.score)),
            after,
            now.lost.map_or(String::new(), |c| c.to_string()),
            now.luck.map_or(String::new(), |c| format!("{c:+}")),
            now.said.as_deref().unwrap_or(""),
        );
    }
}

/// A seat in words: `player 1`.
fn seat_words(seat: Seat) -> String {
    format!("player {}", seat.index() + 1)
}

/// An evaluation from one side: a forced result said as one (`wins in 5`, `lost`), else
/// centipawns and the expected score (`+35 (54.0%)`).
fn evaluation(score: Score) -> String {
    match score.forced_in {
        Some(0) if score.win > score.loss => "won".to_owned(),
        Some(0) => "lost".to_owned(),
        Some(p) if p > 0 => format!("wins in {p}"),
        Some(p) => format!("loses in {}", -p),
        None => format!("{:+} ({:.1}%)", score.centipawns, score.expected() * 100.0),
    }
}

/// Player 1's expected score (win + half a draw) after every ply, as an SVG or PNG chart.
fn draw(lines: &[ReviewedPly], path: &Path) -> Result<(), Box<dyn std::error::Error>> {
    crate::report::charts::register_font();
    let points: Vec<(f64, f64)> = lines
        .iter()
        .filter_map(|l| Some((l.ply as f64, l.player1?.win + l.player1?.draw / 2.0)))
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
