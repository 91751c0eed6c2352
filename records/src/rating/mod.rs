//! Ratings fitted from the games between named players, with the seats' own advantage fitted
//! beside them, so that who played is told apart from where they sat.
//!
//! - **Two seats**: Bradley–Terry with a first-move term, on Elo's scale: for a game of player
//!   i moving first against player j, with strengths rᵢ, rⱼ and the first move's term h, i's
//!   expected score (a win 1, a draw ½) is 1 / (1 + e^−(rᵢ + h − rⱼ)), that is, in Elo,
//!   1 / (1 + 10^(−d/400)) for a difference d: how people read a rating. A draw counts as half
//!   a win each way, and the intervals are those of the score's own variance (a draw varies
//!   less than a win or a loss: the quasi-likelihood's dispersion, Σ (s − p)² / Σ p(1 − p)
//!   over the games). Davidson's model, which makes a draw an outcome of its own (P(i wins) ∝
//!   e^(rᵢ+h), P(j wins) ∝ e^(rⱼ), P(draw) ∝ e^(δ + (rᵢ+h+rⱼ)/2)), is there by
//!   [`Model::draws`]: its r is the win/loss log-odds with the draws set aside, not Elo (40
//!   wins, 24 losses and 36 draws, a 58% score, read +88 there and +56 on Elo's scale).
//! - **Three seats**: Plackett–Luce on the places, with seat terms: the first place is chosen
//!   among the three with odds e^(r + s_seat), then the second among the two left (s₁ = 0).
//!   A tie is read as every order it allows, each with an equal share of the game. The chance
//!   that i places ahead of j is e^rᵢ / (e^rᵢ + e^rⱼ) whoever the third is: Elo's scale too.
//!
//! **Groups.** Only players joined by games can be compared: the players split into groups
//! that met (directly or through others, [`groups`]), and each group is rated about its own
//! mean with the intervals its own games give, as if fitted alone (the seat terms are shared).
//! A player with fewer than [`PROVISIONAL_GAMES`] games is rated but **provisional**: listed
//! apart and not ranked, since a handful of games says little (two wins put a player at the
//! top at +430, ±535).
//!
//! The fit maximises the log-likelihood less α Σ r², a Gaussian prior on the players'
//! strengths (α = [`PRIOR`]: a standard deviation of 400 Elo about the mean), which keeps the
//! rating of a player who never lost finite; the seat and draw terms have none. A strength's
//! interval is ±1.96 standard deviations of the fit's Gaussian approximation (the inverse of
//! the negative Hessian at the maximum). Ratings are on Elo's scale (400 / ln 10 per unit of
//! r: 400 points is odds of 10 to 1) about the players' mean (0).
//!
//! A game in which a name plays itself (self-play of one bot) tells nothing of that name's
//! strength (its r cancels out of every odds): it counts for the seat terms only.

mod fit;
mod groups;

use std::collections::BTreeMap;

use crate::core::{Outcome, Seat};
use fit::{Choice, Terms};

/// Elo points per unit of natural log-odds.
pub const ELO: f64 = 400.0 / std::f64::consts::LN_10;

/// The prior's strength α: a standard deviation of 400 Elo (ln 10 in natural units), α =
/// 1 / (2 σ²).
pub const PRIOR: f64 = 1.0 / (2.0 * std::f64::consts::LN_10 * std::f64::consts::LN_10);

/// The most players a fit rates: the most active ones; games with anyone else are left out,
/// and the fit says how many. A fit's Newton steps solve a dense system of a row per player,
/// so its cost grows as the cube of the players: 140 ms for 500 players here, 0.73 s for
/// 1,000 (`cargo bench -p records --features rating --bench ratings`). The report and the
/// service's leaderboards rate the same players.
pub const MAX_PLAYERS: usize = 500;

/// Fewer games than this make a player's rating provisional: listed apart, not ranked. At 20
/// games a rating's interval is about ±150 Elo against a field of settled players.
pub const PROVISIONAL_GAMES: u64 = 20;

/// z of a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// Games between the same named players in the same seats with the same outcome: a row of the
/// count table a fit reads (it adds up over parts of a data set).
#[derive(Clone, Debug, PartialEq)]
pub struct Meeting {
    /// The players' names in seat order: two, or three.
    pub players: Vec<String>,
    pub outcome: Outcome,
    pub games: u64,
}

/// What the fit models.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Model {
    /// Seat terms: the first move's advantage (seats 2 and 3 against seat 1 for three).
    pub seats: bool,
    /// Draws as an outcome of their own (Davidson's model; two seats, when the games have
    /// some). Off (the default), a draw is half a win each way: Elo's scale.
    pub draws: bool,
    /// The prior's strength α (natural units).
    pub prior: f64,
    /// The most players fitted: the most active ones; games with any other are left out.
    pub max_players: usize,
    /// Fewer games than this make a rating provisional.
    pub provisional_games: u64,
}

impl Default for Model {
    fn default() -> Model {
        Model {
            seats: true,
            draws: false,
            prior: PRIOR,
            max_players: MAX_PLAYERS,
            provisional_games: PROVISIONAL_GAMES,
        }
    }
}

/// A value with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Estimate {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

impl Estimate {
    fn normal(value: f64, variance: f64) -> Estimate {
        let half = Z95 * variance.max(0.0).sqrt();
        Estimate {
            value,
            low: value - half,
            high: value + half,
        }
    }

    fn scaled(self, by: f64) -> Estimate {
        Estimate {
            value: self.value * by,
            low: self.low * by,
            high: self.high * by,
        }
    }

    /// Whether the interval excludes `baseline`.
    pub fn excludes(&self, baseline: f64) -> bool {
        self.low > baseline || self.high < baseline
    }
}

/// One player's rating.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Rated {
    pub name: String,
    /// Elo points about the mean of the player's group.
    pub rating: Estimate,
    /// The group of players who met (0 the one with the most games).
    pub group: usize,
    /// The rank in the group among its players who are not provisional (1 the best); None
    /// for a provisional player.
    pub rank: Option<usize>,
    /// Fewer games than the model's `provisional_games`: rated, listed apart, not ranked.
    pub provisional: bool,
    /// Games fitted (self-play left out).
    pub games: u64,
    /// The player's score in them: 1 a win, ½ a draw (shares of places beaten for three).
    pub score: f64,
}

/// A fit.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Ratings {
    pub seats: u8,
    /// By group, then the ranked before the provisional, best first.
    pub players: Vec<Rated>,
    /// The groups of players who met, most games first: no game joins one to another, so
    /// their ratings are not comparable.
    pub groups: Vec<RatedGroup>,
    /// Fewer games than this make a rating provisional.
    pub provisional_games: u64,
    /// The seat terms in Elo: two seats, the first move's advantage; three seats, seat 2's
    /// and seat 3's against seat 1. None without seat terms.
    pub seat_terms: Vec<Estimate>,
    /// Between players of equal strength: two seats, the first mover's expected score (a win
    /// 1, a draw ½); three seats, the chance that seat 1 places first.
    pub first_seat: Option<Estimate>,
    /// Games fitted, and of them self-play (seat terms only).
    pub games: u64,
    pub self_play: u64,
    /// Games left out: with a player beyond `max_players`.
    pub left_out: u64,
    /// Players beyond `max_players`.
    pub players_left_out: usize,
    /// The games cannot tell the seats' own advantage from the players' strengths (greedy
    /// always moved first against random: its wins are its own or the first move's, nobody
    /// can say): the fit has no seat terms, and the ratings hold the seats' advantage too.
    pub seats_confounded: bool,
}

/// A group of players who met, directly or through others.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RatedGroup {
    /// Players rated in the group (provisional ones included).
    pub players: usize,
    /// Games between them (self-play left out).
    pub games: u64,
}

/// Fits ratings to `meetings` (all of one kind of game and preset: two seats or three). None
/// when no game can be fitted.
pub fn fit(meetings: &[Meeting], model: &Model) -> Option<Ratings> {
    let seats = meetings.first()?.players.len();
    if !(2..=3).contains(&seats) || meetings.iter().any(|m| m.players.len() != seats) {
        return None;
    }
    // The most active players: games counted once per player and game.
    let mut activity: BTreeMap<&str, u64> = BTreeMap::new();
    for m in meetings {
        let mut names: Vec<&str> = m.players.iter().map(String::as_str).collect();
        names.sort_unstable();
        names.dedup();
        for name in names {
            *activity.entry(name).or_default() += m.games;
        }
    }
    let mut ranked: Vec<(&str, u64)> = activity.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let players_left_out = ranked.len().saturating_sub(model.max_players);
    ranked.truncate(model.max_players);
    let index: BTreeMap<&str, usize> = ranked
        .iter()
        .enumerate()
        .map(|(i, (name, _))| (*name, i))
        .collect();
    let n = index.len();
    let (mut kept, mut left_out) = (Vec::new(), 0);
    for m in meetings {
        match m
            .players
            .iter()
            .map(|p| index.get(p.as_str()).copied())
            .collect::<Option<Vec<usize>>>()
        {
            Some(ids) => kept.push((ids, m)),
            None => left_out += m.games,
        }
    }
    let seats_confounded = model.seats && !groups::seats_told_apart(&kept, n, seats);
    let model = &Model {
        seats: model.seats && !seats_confounded,
        ..*model
    };
    let layout = Layout::new(n, seats, model, &kept);
    let choices: Vec<Choice> = kept
        .iter()
        .flat_map(|(ids, m)| layout.choices(ids, m))
        .collect();
    let mut with_prior = vec![false; layout.params];
    with_prior[..n].fill(true);
    let mut maximum = fit::maximise(layout.params, &with_prior, model.prior, &choices)?;
    if layout.draws_halved {
        maximum.covariance *= dispersion(&layout, &kept, &maximum.theta);
    }
    let (theta, cov) = (&maximum.theta, &maximum.covariance);
    let (group_of, group_games) = groups::connected(&kept, n);
    let mut players: Vec<Rated> = ranked
        .iter()
        .enumerate()
        .map(|(i, (name, _))| Rated {
            name: name.to_string(),
            rating: Estimate::normal(theta[i], 0.0),
            group: group_of[i].unwrap_or(usize::MAX),
            rank: None,
            provisional: false,
            games: 0,
            score: 0.0,
        })
        .collect();
    let (mut games, mut self_play) = (0, 0);
    for (ids, m) in &kept {
        games += m.games;
        if ids.iter().all(|&i| i == ids[0]) {
            self_play += m.games;
            continue;
        }
        for (seat, &i) in Seat::all(seats as u8).zip(ids) {
            players[i].games += m.games;
            players[i].score += m.outcome.score(seat) * m.games as f64;
        }
    }
    // The rated: a name only ever seen playing itself has a strength the games do not touch
    // (the prior's alone), and is neither rated nor part of the mean the ratings are about.
    // Each group about its own mean: nothing joins one group's scale to another's.
    let mut groups = vec![
        RatedGroup {
            players: 0,
            games: 0
        };
        group_games.len()
    ];
    for (g, group) in groups.iter_mut().enumerate() {
        let rated: Vec<usize> = (0..n)
            .filter(|&i| players[i].games > 0 && players[i].group == g)
            .collect();
        for (i, variance) in rated.iter().zip(centred_variances(cov, &rated)) {
            players[*i].rating = Estimate::normal(theta[*i], variance).scaled(ELO);
        }
        *group = RatedGroup {
            players: rated.len(),
            games: group_games[g],
        };
    }
    players.retain(|p| p.games > 0);
    for p in &mut players {
        p.provisional = p.games < model.provisional_games;
    }
    players.sort_by(|a, b| {
        (a.group, a.provisional)
            .cmp(&(b.group, b.provisional))
            .then(b.rating.value.total_cmp(&a.rating.value))
            .then(a.name.cmp(&b.name))
    });
    let mut next_rank = vec![1; groups.len()];
    for p in players.iter_mut().filter(|p| !p.provisional) {
        p.rank = Some(next_rank[p.group]);
        next_rank[p.group] += 1;
    }
    let seat_terms: Vec<Estimate> = layout
        .seat_params()
        .map(|k| Estimate::normal(theta[k], cov[(k, k)]).scaled(ELO))
        .collect();
    let first_seat = layout.first_seat(theta, cov);
    Some(Ratings {
        seats: seats as u8,
        players,
        groups,
        provisional_games: model.provisional_games,
        seat_terms,
        first_seat,
        games,
        self_play,
        left_out,
        players_left_out,
        seats_confounded,
    })
}

/// How much less a score varies than a win-or-loss would (two seats, draws read as half a win
/// each way): Σ (s − p)² / Σ p(1 − p) over the games, s the first mover's score and p its
/// expected score at the fit. The binomial likelihood's covariance, times this, is the
/// quasi-likelihood's: the intervals the scores themselves give (36% draws narrow them by a
/// fifth).
fn dispersion(
    layout: &Layout,
    kept: &[(Vec<usize>, &Meeting)],
    theta: &nalgebra::DVector<f64>,
) -> f64 {
    let (mut squares, mut binomial) = (0.0, 0.0);
    for (ids, m) in kept {
        let choice = &layout.choices(ids, m)[0];
        let eta = |terms: &Terms| terms.iter().map(|&(k, c)| c * theta[k]).sum::<f64>();
        let p = 1.0 / (1.0 + (eta(&choice.alternatives[1]) - eta(&choice.alternatives[0])).exp());
        let s = m.outcome.score(Seat::FIRST);
        let games = m.games as f64;
        squares += games * (s - p) * (s - p);
        binomial += games * p * (1.0 - p);
    }
    if binomial > 0.0 {
        squares / binomial
    } else {
        1.0
    }
}

/// The variance of each of the parameters `rated` less their mean (rᵢ − r̄): what a rating
/// "about the players' mean" is. The games say nothing of a shift of every strength at once
/// (it cancels out of every odds), so only the prior bounds r̄: its variance (σ²/n) is in every
/// rᵢ's own variance, and would widen every interval by it (±350 Elo for five players, however
/// many games). The centred one is cᵀ Σ c with c = eᵢ − 1/n over the rated, that is Σᵢᵢ less
/// twice mean(Σᵢ·) plus mean(Σ··). The values need no centring: the prior puts the maximum at Σ rᵢ = 0 (a name
/// seen only playing itself sits at 0, its strength untouched by the games).
fn centred_variances(cov: &nalgebra::DMatrix<f64>, rated: &[usize]) -> Vec<f64> {
    let n = rated.len() as f64;
    let row_means: Vec<f64> = rated
        .iter()
        .map(|&i| rated.iter().map(|&j| cov[(i, j)]).sum::<f64>() / n)
        .collect();
    let mean = row_means.iter().sum::<f64>() / n;
    rated
        .iter()
        .zip(&row_means)
        .map(|(&i, row)| cov[(i, i)] - 2.0 * row + mean)
        .collect()
}

/// Where each parameter is: the players' strengths first, then the seat terms, then the draw
/// term (two seats, when there are draws).
struct Layout {
    players: usize,
    seats: usize,
    seat_terms: bool,
    draw: Option<usize>,
    /// Two seats with draws, each read as half a win each way (no draw term).
    draws_halved: bool,
    params: usize,
}

impl Layout {
    fn new(players: usize, seats: usize, model: &Model, kept: &[(Vec<usize>, &Meeting)]) -> Self {
        let seat_params = if model.seats { seats - 1 } else { 0 };
        let any_draw = seats == 2 && kept.iter().any(|(_, m)| m.games > 0 && m.outcome.is_draw());
        let draws = any_draw && model.draws;
        let draw = draws.then_some(players + seat_params);
        Layout {
            players,
            seats,
            seat_terms: model.seats,
            draw,
            draws_halved: any_draw && !model.draws,
            params: players + seat_params + usize::from(draws),
        }
    }

    /// The parameters of the seat terms.
    fn seat_params(&self) -> impl Iterator<Item = usize> {
        let count = if self.seat_terms { self.seats - 1 } else { 0 };
        self.players..self.players + count
    }

    /// The seat term of `seat` (0-based), relative to seat 1 for three seats; for two seats,
    /// the first move's term belongs to seat 1.
    fn seat_term(&self, seat: usize) -> Option<usize> {
        if !self.seat_terms {
            return None;
        }
        match self.seats {
            2 => (seat == 0).then_some(self.players),
            _ => (seat > 0).then(|| self.players + seat - 1),
        }
    }

    /// The choices a meeting is read as.
    fn choices(&self, ids: &[usize], m: &Meeting) -> Vec<Choice> {
        let games = m.games as f64;
        let strength = |seat: usize| -> Terms {
            let mut t = vec![(ids[seat], 1.0)];
            t.extend(self.seat_term(seat).map(|k| (k, 1.0)));
            t
        };
        if self.seats == 2 {
            let first = strength(0);
            let second = strength(1);
            let mut alternatives = vec![first.clone(), second.clone()];
            let mut taken = vec![0.0, 0.0];
            match m.outcome.winner() {
                Some(Seat::FIRST) => taken[0] = games,
                Some(_) => taken[1] = games,
                None => {}
            }
            match self.draw {
                Some(d) => {
                    let mut draw: Terms = vec![(d, 1.0)];
                    draw.extend(first.iter().chain(&second).map(|&(k, c)| (k, c / 2.0)));
                    alternatives.push(draw);
                    taken.push(if m.outcome.is_draw() { games } else { 0.0 });
                }
                // Without a draw term a draw is half a win each way.
                None if m.outcome.is_draw() => taken = vec![games / 2.0, games / 2.0],
                None => {}
            }
            return vec![Choice {
                alternatives,
                taken,
            }];
        }
        // Plackett–Luce: every order of the seats the places allow, each an equal share.
        let orders: Vec<[usize; 3]> = PERMUTATIONS
            .iter()
            .copied()
            .filter(|order| {
                order.windows(2).all(|w| {
                    let place = |s: usize| m.outcome.place(Seat::new(s).expect("a seat"));
                    place(w[0]) <= place(w[1])
                })
            })
            .collect();
        let share = games / orders.len() as f64;
        let mut choices = Vec::new();
        for order in orders {
            for stage in 0..2 {
                let left = &order[stage..];
                choices.push(Choice {
                    alternatives: left.iter().map(|&s| strength(s)).collect(),
                    taken: left
                        .iter()
                        .map(|&s| if s == order[stage] { share } else { 0.0 })
                        .collect(),
                });
            }
        }
        choices
    }

    /// Between equal players: two seats, the first mover's expected score; three seats, the
    /// chance seat 1 places first. Its interval: the seat terms at their interval's ends
    /// (the draw term held at its value).
    fn first_seat(
        &self,
        theta: &nalgebra::DVector<f64>,
        cov: &nalgebra::DMatrix<f64>,
    ) -> Option<Estimate> {
        let terms: Vec<Estimate> = self
            .seat_params()
            .map(|k| Estimate::normal(theta[k], cov[(k, k)]))
            .collect();
        if terms.is_empty() {
            return None;
        }
        Some(if self.seats == 2 {
            let delta = self.draw.map(|d| theta[d]);
            let score = |h: f64| {
                let (a, b) = (h.exp(), 1.0);
                let d = delta.map_or(0.0, |delta| (delta + h / 2.0).exp());
                (a + d / 2.0) / (a + b + d)
            };
            let h = terms[0];
            Estimate {
                value: score(h.value),
                low: score(h.low),
                high: score(h.high),
            }
        } else {
            let first = |s2: f64, s3: f64| 1.0 / (1.0 + s2.exp() + s3.exp());
            let (s2, s3) = (terms[0], terms[1]);
            Estimate {
                value: first(s2.value, s3.value),
                low: first(s2.high, s3.high),
                high: first(s2.low, s3.low),
            }
        })
    }
}

/// Every order of three seats.
const PERMUTATIONS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

#[cfg(test)]
mod tests;
