//! The service's engine in the seats a deal gave it (`engines`): one task per such game that
//! wakes on the game's commits (the hub) and plays when one of its seats is to move, through
//! the referee like any seat, the engine told only what its seat may know
//! (`records::referee::Referee::engine_turn`). A restarted service takes up the games in play
//! ([`resume`]).

use std::sync::Arc;
use std::time::Duration;

use actix_web::web;
use records::core::Rules;
use records::core::analysis::Limits;
use records::games::GameKind;
use records::referee::{EngineTurn, Referee};
use records::with_game;

use crate::hub::Hub;

/// Starts the engine of game `game_id` (of `kind`) on the current runtime.
pub fn drive(referee: Arc<Referee>, hub: Arc<Hub>, kind: GameKind, game_id: String) {
    with_game!(kind, G => {
        actix_web::rt::spawn(run::<G>(referee, hub, game_id));
    })
}

/// Starts the engines of every game in play that has one (after a restart).
pub fn resume(referee: &Arc<Referee>, store: &records::store::Store, hub: &Arc<Hub>) {
    let Ok(games) = store.ledger_engine_games() else {
        return;
    };
    for (game_id, game) in games {
        if let Ok(kind) = game.parse::<GameKind>() {
            drive(referee.clone(), hub.clone(), kind, game_id);
        }
    }
}

enum Step {
    Played,
    Wait,
    Over,
}

async fn run<G: Rules>(referee: Arc<Referee>, hub: Arc<Hub>, game_id: String) {
    let mut watch = hub.subscribe(&game_id);
    loop {
        let (r, id) = (referee.clone(), game_id.clone());
        match web::block(move || step::<G>(&r, &id)).await {
            Ok(Ok(Step::Played)) => continue,
            Ok(Ok(Step::Over)) => return,
            Ok(Ok(Step::Wait)) => {}
            // Refused (another commit came first) or the store is away: look again soon.
            _ => tokio::time::sleep(Duration::from_millis(200)).await,
        }
        // A commit wakes it; a notice lost to a store outage is caught within the minute.
        tokio::select! {
            changed = watch.changed() => if changed.is_err() { return },
            _ = tokio::time::sleep(Duration::from_secs(60)) => {}
        }
    }
}

/// Plays the engine's move if one of its seats is to move.
fn step<G: Rules>(referee: &Referee, game_id: &str) -> Result<Step, String> {
    match referee
        .engine_turn::<G>(game_id)
        .map_err(|e| e.to_string())?
    {
        EngineTurn::Over => Ok(Step::Over),
        EngineTurn::Wait => Ok(Step::Wait),
        EngineTurn::Move {
            seat,
            millis,
            m,
            ply,
        } => {
            let limits = Limits {
                millis: Some(millis),
                ..Limits::default()
            };
            let action = G::decide(&m, Some(seat), &limits)
                .map_err(|e| e.to_string())?
                .ok_or("no action")?;
            referee
                .engine_play::<G>(game_id, seat, &action, ply)
                .map_err(|e| e.to_string())?;
            Ok(Step::Played)
        }
    }
}
