//! `anqi render`: a game record as a picture to share: its replay as an animated PNG (one frame
//! per position, the last action marked), or the position after one ply as PNG or SVG. Any
//! game, any record format the other commands read.

use std::path::PathBuf;
use std::process::ExitCode;

use records::core::Record;
use records::core::raster::{self, Animation, RasterError};
use records::core::replay::replay_with;
use records::core::rules::Rules;
use records::games::GameKind;
use records::with_game;

use crate::inputs::{self, Failure};

/// What to draw and where (the command's options).
#[derive(clap::Args)]
pub struct Order {
    /// The record file (`-`: standard input).
    pub path: PathBuf,
    /// Which record of the file, counting from 1.
    #[arg(long, default_value_t = 1)]
    pub index: usize,
    /// The picture's file, `.png` or (with --ply) `.svg`; by default `<file>-<index>.png`
    /// in the current directory.
    #[arg(long, short)]
    pub out: Option<PathBuf>,
    /// Draw the position after this ply (0: the start) instead of the whole replay.
    #[arg(long)]
    pub ply: Option<usize>,
    /// The picture's width in pixels (64–2048; the board's own width by default).
    #[arg(long)]
    pub width: Option<u32>,
    /// How long each position of an animation shows, in milliseconds (100–10000; the last
    /// three times as long).
    #[arg(long, default_value_t = 1000)]
    pub frame_ms: u32,
}

pub fn run(order: &Order) -> ExitCode {
    match render(order) {
        Ok(message) => {
            eprintln!("{message}");
            ExitCode::SUCCESS
        }
        Err(failure) => failure.exit("render"),
    }
}

fn render(order: &Order) -> Result<String, Failure> {
    let record = inputs::nth_record(&order.path, order.index)?;
    let kind: GameKind = record
        .game
        .parse()
        .map_err(|e| Failure::Refused(format!("{e}")))?;
    let out = order.out.clone().unwrap_or_else(|| {
        let stem = order
            .path
            .file_stem()
            .and_then(|s| s.to_str())
            .filter(|s| *s != "-")
            .unwrap_or("game");
        let ply = order.ply.map(|p| format!("-ply{p}")).unwrap_or_default();
        PathBuf::from(format!("{stem}-{}{ply}.png", order.index))
    });
    let svg_out = out
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("svg"));
    let bytes = match order.ply {
        None if svg_out => {
            return Err(Failure::Cannot(
                "an animation is a PNG: name a .png file, or draw one --ply as SVG".into(),
            ));
        }
        None => {
            let how = Animation {
                width: order.width,
                frame_millis: order.frame_ms,
                ..Animation::default()
            };
            with_game!(kind, G => raster::replay_apng::<G>(&record, &how)).map_err(|e| match e {
                RasterError::Replay(_) => Failure::Refused(e.to_string()),
                _ => Failure::Cannot(e.to_string()),
            })?
        }
        Some(ply) => {
            let svg = with_game!(kind, G => position_svg::<G>(&record, ply))?;
            let cannot = |e: &dyn std::fmt::Display| Failure::Cannot(e.to_string());
            if svg_out {
                match order.width {
                    Some(w) => records::core::svg::scaled(&svg, w).map_err(|e| cannot(&e))?,
                    None => svg,
                }
                .into_bytes()
            } else {
                raster::png(&svg, order.width).map_err(|e| cannot(&e))?
            }
        }
    };
    std::fs::write(&out, &bytes).map_err(|e| Failure::Cannot(format!("{}: {e}", out.display())))?;
    let what = match order.ply {
        None => format!("{} frames", record.actions.len() + 1),
        Some(ply) => format!("the position after ply {ply}"),
    };
    Ok(format!(
        "{}: {what}, {} KB",
        out.display(),
        bytes.len().div_ceil(1024)
    ))
}

/// The picture of the position after `ply` (0: the start), that ply's action marked.
fn position_svg<G: Rules>(record: &Record, ply: usize) -> Result<String, Failure> {
    if ply > record.actions.len() {
        return Err(Failure::Cannot(format!(
            "the record has {} plies; --ply {ply} is not one",
            record.actions.len()
        )));
    }
    let start = records::core::replay::prepare::<G>(record)
        .map_err(|e| Failure::Refused(e.to_string()))?
        .start;
    let mut picture = (ply == 0).then(|| G::svg(&start, None));
    let verdict = replay_with::<G>(record, |p| {
        if p.number == ply {
            picture = Some(G::svg(p.after, Some(p.action)));
        }
    });
    match (picture, verdict.error) {
        (Some(svg), _) => Ok(svg),
        (None, Some(e)) => Err(Failure::Refused(e.to_string())),
        (None, None) => Err(Failure::Cannot(format!("ply {ply} was not replayed"))),
    }
}
