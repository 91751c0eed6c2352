//! Ratings from the store, for apps: a leaderboard per game and preset, and a player's page,
//! fitted from the `meetings` counts by the same model as `anqi report`'s ratings
//! ([`crate::rating`]): one meaning of "rating" whichever way it is read.
//!
//! Why a batch fit and not an online rating (Glicko-2, Weng–Lin): an online rating depends on
//! the order in which games arrive (an import of an old log in another order, or two instances
//! storing at once, give other numbers for the same games), has no term for the first move
//! (it would credit a player with the seat's advantage), and would differ from the report's.
//! The fit is a function of the counts: the same games give the same ratings. Its cost is a
//! fit per change of a game and preset's counts, kept here until the counts change again.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use serde::Serialize;

use super::{CountsVersion, GameRow, Store, StoreError};
use crate::core::Seat;
use crate::rating::{self, Estimate, Model, RatedGroup, Ratings};

/// Fits of each game and preset, each kept until its counts change. Concurrent requests for
/// the same game and preset wait for one fit.
#[derive(Default)]
pub struct RatingsCache {
    fits: Mutex<HashMap<(String, String), Slot>>,
}

/// One game and preset's fit, locked while it is made.
type Slot = Arc<Mutex<Option<Fitted>>>;

struct Fitted {
    version: CountsVersion,
    ratings: Option<Arc<Ratings>>,
}

impl RatingsCache {
    /// The ratings of `game` and `preset` as the store's counts stand now (None when no game
    /// between named players can be fitted).
    pub fn ratings(
        &self,
        store: &Store,
        game: &str,
        preset: &str,
    ) -> Result<Option<Arc<Ratings>>, StoreError> {
        let slot = self
            .fits
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entry((game.to_owned(), preset.to_owned()))
            .or_default()
            .clone();
        let mut slot = slot.lock().unwrap_or_else(PoisonError::into_inner);
        let version = store.meetings_version(game, preset)?;
        if let Some(fitted) = slot.as_ref().filter(|f| f.version == version) {
            return Ok(fitted.ratings.clone());
        }
        let meetings = store.meetings(game, preset)?;
        let ratings = rating::fit(&meetings, &Model::default()).map(Arc::new);
        *slot = Some(Fitted {
            version,
            ratings: ratings.clone(),
        });
        Ok(ratings)
    }

    /// A page of the leaderboard of `game` and `preset`: `limit` players from rank
    /// `offset + 1`.
    pub fn leaderboard(
        &self,
        store: &Store,
        game: &str,
        preset: &str,
        offset: usize,
        limit: usize,
    ) -> Result<Leaderboard, StoreError> {
        let ratings = self.ratings(store, game, preset)?;
        let ranking = ratings.as_ref().map_or_else(Vec::new, |r| {
            r.players
                .iter()
                .skip(offset)
                .take(limit)
                .map(|p| Ranked {
                    rank: p.rank,
                    group: p.group + 1,
                    provisional: p.provisional,
                    name: p.name.clone(),
                    rating: p.rating,
                    games: p.games,
                    score: p.score / p.games.max(1) as f64,
                })
                .collect()
        });
        let rated = ratings.as_ref().map_or(0, |r| r.players.len());
        Ok(Leaderboard {
            game: game.to_owned(),
            preset: preset.to_owned(),
            games: ratings.as_ref().map_or(0, |r| r.games),
            self_play: ratings.as_ref().map_or(0, |r| r.self_play),
            rated,
            groups: ratings.as_ref().map_or_else(Vec::new, |r| r.groups.clone()),
            provisional_games: ratings
                .as_ref()
                .map_or(rating::PROVISIONAL_GAMES, |r| r.provisional_games),
            seat_terms: ratings
                .as_ref()
                .map_or_else(Vec::new, |r| r.seat_terms.clone()),
            first_seat: ratings.as_ref().and_then(|r| r.first_seat),
            seats_confounded: ratings.as_ref().is_some_and(|r| r.seats_confounded),
            left_out: ratings.as_ref().map_or(LeftOut::default(), |r| LeftOut {
                games: r.left_out,
                players: r.players_left_out,
            }),
            next: (offset + ranking.len() < rated && !ranking.is_empty())
                .then_some(offset + ranking.len()),
            ranking,
        })
    }

    /// What the store knows of `name`: results and rating by game and preset, and the latest
    /// `recent` games. None when no stored game names the player.
    pub fn player(
        &self,
        store: &Store,
        name: &str,
        recent: i64,
    ) -> Result<Option<PlayerPage>, StoreError> {
        let (recent, games) = store.games_of(name, recent)?;
        if games == 0 {
            return Ok(None);
        }
        let mut by_preset: Vec<PresetResults> = Vec::new();
        for played in store.meetings_of(name)? {
            let m = &played.meeting;
            let seats = m.players.len();
            if by_preset
                .last()
                .is_none_or(|r| (&r.game, &r.preset) != (&played.game, &played.preset))
            {
                by_preset.push(PresetResults::new(&played.game, &played.preset, seats));
            }
            let results = by_preset.last_mut().expect("pushed");
            if m.players.iter().all(|p| p == &m.players[0]) {
                results.self_play += m.games;
                continue;
            }
            for (seat, player) in Seat::all(seats as u8).zip(&m.players) {
                if player == name {
                    results.add(m.outcome, seat, m.games);
                }
            }
        }
        for results in &mut by_preset {
            let ratings = self.ratings(store, &results.game, &results.preset)?;
            if let Some(r) = ratings {
                results.rated_players = r.players.len();
                if let Some(p) = r.players.iter().find(|p| p.name == name) {
                    results.rank = p.rank;
                    results.group = Some(p.group + 1);
                    results.provisional = p.provisional;
                    results.rating = Some(p.rating);
                }
            }
            results.score /= results.games.max(1) as f64;
        }
        Ok(Some(PlayerPage {
            name: name.to_owned(),
            games,
            presets: by_preset,
            recent,
        }))
    }
}

/// A page of a game and preset's leaderboard.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Leaderboard {
    pub game: String,
    pub preset: String,
    /// Finished games between named players fitted, self-play included.
    pub games: u64,
    /// Of them, games in which a name played itself: they count for the seats' terms only.
    pub self_play: u64,
    /// Players rated in all (the page holds some of them).
    pub rated: usize,
    /// The groups of players who met (directly or through others), most games first: group
    /// 1 is the first. No game joins one group to another, so each is rated about its own
    /// mean and ranked on its own: a rating says nothing against another group's.
    pub groups: Vec<RatedGroup>,
    /// Players with fewer games than this are provisional: rated, listed after their group's
    /// ranked players, without a rank.
    pub provisional_games: u64,
    /// The seats' own advantage in Elo, with 95% intervals: two seats, the first move's; three
    /// seats, seat 2's and seat 3's against seat 1's.
    pub seat_terms: Vec<Estimate>,
    /// Between equal players: two seats, the first mover's expected score (a win 1, a draw ½);
    /// three seats, the chance that seat 1 places first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_seat: Option<Estimate>,
    /// The games cannot tell the seats' advantage from the players' strengths (every player
    /// kept to its seat against the others): no seat terms are fitted, and the ratings hold
    /// the seats' advantage too.
    pub seats_confounded: bool,
    /// What the fit left out: players beyond the most active [`rating::MAX_PLAYERS`] and their games.
    pub left_out: LeftOut,
    /// By group, and in each the ranked players best first, then the provisional ones.
    pub ranking: Vec<Ranked>,
    /// Pass as `offset` for the next page; absent on the last page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next: Option<usize>,
}

/// Players and games a fit left out.
#[derive(Clone, Copy, Debug, Default, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LeftOut {
    pub games: u64,
    pub players: usize,
}

/// One player of a leaderboard.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Ranked {
    /// 1 for the best of its group; absent for a provisional player.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rank: Option<usize>,
    /// The group of players who met that the player is rated in (1 the one with most games).
    pub group: usize,
    /// Fewer games than `provisional_games`: not ranked.
    pub provisional: bool,
    pub name: String,
    /// Elo points about the mean of the player's group (0), with the 95% interval: a
    /// difference d predicts an expected score of 1 / (1 + 10^(−d/400)).
    pub rating: Estimate,
    /// Games rated (self-play left out).
    pub games: u64,
    /// The player's mean score in them: a win 1, a draw ½ (three seats: the share of the other
    /// seats placed behind, a tie half).
    pub score: f64,
}

/// What the store knows of a player.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlayerPage {
    pub name: String,
    /// Stored games with a seat that names the player, finished or not.
    pub games: i64,
    /// Results and rating by game and preset: finished games against named players.
    pub presets: Vec<PresetResults>,
    /// The latest stored games (highest ids first).
    pub recent: Vec<GameRow>,
}

/// A player's results under one game and preset.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PresetResults {
    pub game: String,
    pub preset: String,
    /// Finished games against other named players.
    pub games: u64,
    /// Two seats: won, drawn, lost.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wins: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draws: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub losses: Option<u64>,
    /// Three seats: games placed 1st, 2nd and 3rd (a tie counts at the place shared).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub places: Option<Vec<u64>>,
    /// The mean score (as the leaderboard's).
    pub score: f64,
    /// Games the name played against itself: not in the results.
    pub self_play: u64,
    /// The rating with its 95% interval; absent when the fit left the player out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<Estimate>,
    /// The rank in the player's group; absent when provisional or not rated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rank: Option<usize>,
    /// The group of players who met the player is rated in (1 the one with most games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<usize>,
    /// Fewer games than the leaderboard's `provisional_games`: not ranked.
    pub provisional: bool,
    /// Players on the leaderboard.
    pub rated_players: usize,
}

impl PresetResults {
    fn new(game: &str, preset: &str, seats: usize) -> PresetResults {
        let two = seats == 2;
        PresetResults {
            game: game.to_owned(),
            preset: preset.to_owned(),
            games: 0,
            wins: two.then_some(0),
            draws: two.then_some(0),
            losses: two.then_some(0),
            places: (!two).then(|| vec![0; seats]),
            score: 0.0,
            self_play: 0,
            rating: None,
            rank: None,
            group: None,
            provisional: false,
            rated_players: 0,
        }
    }

    /// Adds `games` in which the player sat at `seat` and the game ended in `outcome`.
    fn add(&mut self, outcome: crate::core::Outcome, seat: Seat, games: u64) {
        self.games += games;
        self.score += outcome.score(seat) * games as f64;
        if let Some(places) = &mut self.places {
            let place = usize::from(outcome.place(seat)).clamp(1, places.len());
            places[place - 1] += games;
            return;
        }
        let slot = if outcome.is_draw() {
            &mut self.draws
        } else if outcome.winner() == Some(seat) {
            &mut self.wins
        } else {
            &mut self.losses
        };
        *slot.get_or_insert(0) += games;
    }
}
