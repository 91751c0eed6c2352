//! `anqi perft`: the number of leaf positions a given number of plies ahead, the move
//! generator's reference test (RULES.md §9: 44, 1,920, 79,666, 3,290,240 from the start).

use std::process::ExitCode;
use std::time::Instant;

use records::games::xiangqi::{Position, START_FEN};

pub fn run(game: &str, position: Option<&str>, depth: u32, divide: bool) -> ExitCode {
    if game != "xiangqi" {
        eprintln!("anqi perft: perft counts xiangqi moves (--game xiangqi); {game:?} has none");
        return ExitCode::from(2);
    }
    let fen = position.unwrap_or(START_FEN);
    let pos: Position = match fen.parse() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("anqi perft: {fen:?}: {e}");
            return ExitCode::from(2);
        }
    };
    let started = Instant::now();
    let nodes = if divide {
        let mut total = 0;
        for (m, n) in pos.divide(depth) {
            println!("{m}: {n}");
            total += n;
        }
        println!();
        total
    } else {
        pos.perft(depth)
    };
    let seconds = started.elapsed().as_secs_f64();
    println!("{nodes}");
    eprintln!(
        "depth {depth}: {nodes} nodes in {seconds:.3} s ({:.1} M nodes/s)",
        nodes as f64 / seconds.max(1e-9) / 1e6
    );
    ExitCode::SUCCESS
}
