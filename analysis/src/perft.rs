//! `anqi perft`: the number of leaf positions a given number of plies ahead, the move
//! generator's reference test, for a game whose counts are published (xiangqi: RULES.md §9,
//! 44, 1,920, 79,666, 3,290,240 from the start). The game provides its count ([`Tool::PERFT`]).

use std::process::ExitCode;
use std::time::Instant;

use records::games::GameKind;
use records::with_game;

use crate::games::{Perft, Tool};

fn perft_of(kind: GameKind) -> Option<Perft> {
    with_game!(kind, G => <G as Tool>::PERFT)
}

/// Counts `depth` plies ahead of `position` (the game's start by default) for `game` (by
/// default the first game with a perft).
pub fn run(game: Option<&str>, position: Option<&str>, depth: u32, divide: bool) -> ExitCode {
    let with_perft: Vec<GameKind> = GameKind::ALL
        .iter()
        .copied()
        .filter(|k| perft_of(*k).is_some())
        .collect();
    let names: Vec<&str> = with_perft.iter().map(|k| k.name()).collect();
    // A game played as a preset of another (plain xiangqi, the base of xiangqi-3g, whose
    // counts are published) is named by its preset too.
    let preset_of = |name: &str| {
        GameKind::ALL
            .iter()
            .copied()
            .find(|k| with_game!(*k, G => G::PRESETS.iter().any(|p| p.name == name)))
    };
    let parsed = game.map(|g| match preset_of(g) {
        Some(kind) if g.parse::<GameKind>().is_err() => Ok(kind),
        _ => g.parse::<GameKind>(),
    });
    let kind = match parsed {
        None => with_perft[0],
        Some(Ok(kind)) => kind,
        Some(Err(e)) => {
            eprintln!("anqi perft: {e}");
            return ExitCode::from(2);
        }
    };
    let Some(perft) = perft_of(kind) else {
        eprintln!(
            "anqi perft: {kind} has no perft; perft counts the moves of {}",
            names.join(", ")
        );
        return ExitCode::from(2);
    };
    let position = position.unwrap_or(perft.start);
    let started = Instant::now();
    let counted = if divide && depth > 0 {
        (perft.divide)(position, depth).map(|moves| {
            for (m, n) in &moves {
                println!("{m}: {n}");
            }
            println!();
            moves.iter().map(|(_, n)| n).sum()
        })
    } else {
        (perft.count)(position, depth)
    };
    let nodes: u64 = match counted {
        Ok(n) => n,
        Err(e) => {
            eprintln!("anqi perft: {e}");
            return ExitCode::from(2);
        }
    };
    let seconds = started.elapsed().as_secs_f64();
    println!("{nodes}");
    eprintln!(
        "depth {depth}: {nodes} nodes in {seconds:.3} s ({:.1} M nodes/s)",
        nodes as f64 / seconds.max(1e-9) / 1e6
    );
    ExitCode::SUCCESS
}
