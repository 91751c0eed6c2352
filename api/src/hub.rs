//! Where a commit meets the streams waiting for it: one watch channel per game with a stream
//! open, poked after every commit this instance makes (the referee's `on_commit`) and every
//! commit another instance announces (PostgreSQL's NOTIFY, `records::store::listen`). A poke
//! carries nothing: each stream reads what its own seat may know from the referee.

use std::collections::HashMap;
use std::sync::Mutex;

use tokio::sync::watch;

#[derive(Default)]
pub struct Hub {
    games: Mutex<HashMap<String, watch::Sender<u64>>>,
}

impl Hub {
    /// A receiver that changes whenever `game_id` moves on.
    pub fn subscribe(&self, game_id: &str) -> watch::Receiver<u64> {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        games
            .entry(game_id.to_owned())
            .or_insert_with(|| watch::channel(0).0)
            .subscribe()
    }

    /// `game_id` moved on: its streams look. A game nobody watches any more is forgotten.
    pub fn notify(&self, game_id: &str) {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(sender) = games.get(game_id) {
            if sender.receiver_count() == 0 {
                games.remove(game_id);
            } else {
                sender.send_modify(|n| *n += 1);
            }
        }
    }
}
