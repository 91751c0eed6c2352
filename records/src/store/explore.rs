//! An explorer request answered: the position it names (a public position, a node the
//! explorer gave, and the actions every seat saw from there), the actions the stored games
//! played from it and how they scored for the side to move, with intervals. Unfiltered: the
//! position's rows, or its few games' lines (`grow.rs`). Filtered by players, dates or a rating
//! range: the games that pass the filters and went on from the position, each one's step read
//! from its line: the position's own games when it has few, else every game that passes the
//! filters; within a time limit ([`Lookup::time_limit`]: the service's is [`FILTER_TIME`], and
//! it runs them on slots of their own), so that filtered requests never hold up the others.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use diesel::prelude::*;
use serde::{Deserialize, Serialize};

use super::schema::{games, seats};
use super::{ExplorerRow, RatingsCache, Store, StoreError, with_connection};
use crate::core::Table;
use crate::core::explorer::{NoPosition, Node, root};
use crate::core::replay::{ReplayError, replay_with};
use crate::core::rules::Rules;
use crate::core::rules::{RulesetError, ruleset};
use crate::core::stats::{corrected_z, wilson};
use crate::games::{GameKind, UnknownGame};

/// How long a filtered request of the service may walk games before it gives up
/// ([`ExploreError::Busy`]; [`Lookup::time_limit`]).
pub const FILTER_TIME: Duration = Duration::from_millis(100);

/// Games' ids and lines, as a filtered request reads them.
type IdsAndLines = Vec<(i64, Option<Vec<u8>>)>;

/// Games read per statement while a filtered request walks them: the time limit is looked
/// at between two (5,000 a statement overshot 150 ms by up to 86 ms under load).
const FILTER_CHUNK: i64 = 1_000;

/// What an explorer request names.
#[derive(Clone, Debug, Default)]
pub struct Lookup {
    pub game: String,
    pub preset: Option<String>,
    /// Options over the preset's (a record's `options`).
    pub options: serde_json::Map<String, serde_json::Value>,
    /// A public position (as every seat sees it); None: the start (or `node`).
    pub position: Option<String>,
    /// A node the explorer gave (16 hex digits), instead of a position.
    pub node: Option<String>,
    /// Actions from the position, as every seat saw them.
    pub actions: Vec<String>,
    /// The coin table to settle at (games played for coins).
    pub table: Table,
    /// Only games these players played (any seat).
    pub players: Vec<String>,
    pub date_from: Option<String>,
    pub date_to: Option<String>,
    /// Only games whose players' average rating (in this game and preset, as the store's
    /// leaderboard fits it now) is at least this; a game with a seat unnamed or unrated is
    /// left out when either bound is given.
    pub rating_min: Option<f64>,
    /// Only games whose players' average rating is at most this.
    pub rating_max: Option<f64>,
    /// How long a filtered request may walk games (None: as long as it takes).
    pub time_limit: Option<Duration>,
}

impl Lookup {
    fn rated(&self) -> bool {
        self.rating_min.is_some() || self.rating_max.is_some()
    }

    /// Whether players, dates or a rating range filter the games.
    pub fn filtering(&self) -> bool {
        !self.players.is_empty()
            || self.date_from.is_some()
            || self.date_to.is_some()
            || self.rated()
    }
}

/// Why a request names no position of the explorer.
#[derive(Debug, thiserror::Error)]
pub enum ExploreError {
    #[error(transparent)]
    Game(#[from] UnknownGame),
    #[error(transparent)]
    Ruleset(#[from] RulesetError),
    #[error(transparent)]
    Position(#[from] NoPosition),
    /// An action asked is not written as an action of the game (its place in `actions`, 1
    /// the first).
    #[error("action {place} of the line, {action:?}, is not an action of the game: {why}")]
    Action {
        place: usize,
        action: String,
        why: String,
    },
    /// An action of the line is written right but cannot be played at its place (`place`, 1
    /// the first): `code` is the rules' reason.
    #[error("action {place} of the line, {action:?}, cannot be played there: {why}")]
    Illegal {
        place: usize,
        action: String,
        code: &'static str,
        why: String,
    },
    /// `node` is not 16 hex digits, or comes with a position.
    #[error("{0}")]
    Node(String),
    /// A filtered request walked games longer than its time limit (`limit`): the filters
    /// pass too many games that went on from the position. `months`: dates alone, in a store
    /// that keeps no counts by month, which would have answered them.
    #[error(
        "the filters pass more games that went on from the position than a request walks in {} ms; narrow them (players, dates){}",
        limit.as_millis(),
        if *months { ", or have the store keep counts by month, which answer dates without walking their games (anqi explore --months on)" } else { "" }
    )]
    Busy { limit: Duration, months: bool },
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl ExploreError {
    /// The machine-readable code of the problem.
    pub fn code(&self) -> &'static str {
        match self {
            ExploreError::Game(_) => "unknown_game",
            ExploreError::Ruleset(RulesetError::UnknownPreset { .. }) => "unknown_preset",
            ExploreError::Ruleset(_) => "invalid_ruleset",
            ExploreError::Position(NoPosition::Position(_)) => "invalid_position",
            ExploreError::Position(NoPosition::NoCommonStart(_)) => "position_required",
            ExploreError::Action { .. } => "malformed_action",
            ExploreError::Illegal { code, .. } => code,
            ExploreError::Node(_) => "invalid_node",
            ExploreError::Busy { .. } => "busy",
            ExploreError::Store(_) => "store_unavailable",
        }
    }
}

/// The explorer's answer for one position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Explored {
    pub game: String,
    pub preset: String,
    /// The position's node (16 hex digits): the public position with the history its rules
    /// read, in its variant.
    pub node: String,
    /// Of the actions asked, how many stored games played in turn; when fewer than all, no
    /// stored game went on with `actions[followed]` there, and nothing is listed.
    pub followed: usize,
    /// Games through this position (those that went on from it within the explorer's depth).
    pub games: i64,
    /// For the side to move: placed first alone, placed first with another, placed lower.
    pub wins: i64,
    pub draws: i64,
    pub losses: i64,
    /// The actions played from here, the most played first.
    pub moves: Vec<ExplorerMove>,
    /// Whether players or dates filtered the games, and how many were walked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filtered: Option<Filtered>,
    /// How deep the explorer follows games (plies).
    pub depth: u32,
}

/// A filtered request: the games walked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Filtered {
    /// Games that passed the filters and were walked: every one that went on from the
    /// position (a request that cannot walk them all is refused, not cut short).
    pub walked: i64,
    /// Games that passed the filters and were counted, not walked: the explorer's counts by
    /// month, for the months the dates cover whole, in a store that keeps them (`anqi explore
    /// --months on`). Left out when none were.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub counted: i64,
}

fn is_zero(n: &i64) -> bool {
    *n == 0
}

/// One action played from the position, and how it scored for the side that played it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ExplorerMove {
    /// As every seat saw it (a flip with the piece it revealed).
    pub action: String,
    pub games: i64,
    pub wins: i64,
    pub draws: i64,
    pub losses: i64,
    /// (wins + draws / 2) / games.
    pub score: f64,
    /// The score's Wilson interval at 95%, corrected for the number of actions listed
    /// (Bonferroni): what the games support.
    pub interval: [f64; 2],
    /// The mover's average points (Banqi: 棋點).
    pub average_points: f64,
    /// Games played for coins: the mover's average coins at the table asked (stake, bonus per
    /// point; draws carried from earlier games left out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub average_coins: Option<f64>,
    /// Stored games that played it (ids: the first and the last stored).
    pub examples: Vec<i64>,
    /// The node it leads to.
    pub next: String,
}

impl Store {
    /// Answers an explorer request (`ratings`: the fits a rating range reads).
    pub fn explore(
        &self,
        lookup: &Lookup,
        ratings: &RatingsCache,
    ) -> Result<Explored, ExploreError> {
        let kind: GameKind = lookup.game.parse()?;
        let (start, preset, coins) = crate::with_game!(kind, G => {
            let rules = ruleset::<G>(lookup.preset.as_deref(), &lookup.options)?;
            let preset = crate::core::rules::find_preset(G::PRESETS, lookup.preset.as_deref())?;
            // A typo is an error, not a line no game played.
            for (i, action) in lookup.actions.iter().enumerate() {
                G::check_public_action(&rules, action.trim()).map_err(|why| ExploreError::Action {
                    place: i + 1,
                    action: action.clone(),
                    why,
                })?;
            }
            check_line::<G>(&rules, preset.name, lookup)?;
            let start = match &lookup.node {
                Some(_) if lookup.position.is_some() => {
                    return Err(ExploreError::Node(
                        "give a node or a position, not both".to_owned(),
                    ));
                }
                Some(text) => parse_node(text)?,
                None => root::<G>(&rules, lookup.position.as_deref())?,
            };
            (start, preset.name, G::COINS)
        });
        let line = self.explorer_line(start, &lookup.actions)?;
        let (node, followed, depth) = (line.node, line.followed, line.depth);
        let (rows, filtered) = if followed < lookup.actions.len() {
            (Vec::new(), None)
        } else if lookup.filtering() {
            let (rows, filtered) = self.filtered_rows(kind, preset, lookup, node, ratings)?;
            (rows, Some(filtered))
        } else {
            (line.rows, None)
        };
        let table = coins.then_some(lookup.table);
        Ok(answer(
            kind, preset, node, followed, depth, &rows, table, filtered,
        ))
    }

    /// The steps played from `node` by the games that pass the filters, read from their
    /// lines: the node's own games when it keeps them, else every game that passes.
    fn filtered_rows(
        &self,
        kind: GameKind,
        preset: &str,
        lookup: &Lookup,
        node: Node,
        ratings: &RatingsCache,
    ) -> Result<(Vec<ExplorerRow>, Filtered), ExploreError> {
        let began = Instant::now();
        let own = self.node_games(node)?;
        // Dates alone at a position with rows, in a store that keeps months: the months they
        // cover whole are counted, and only the days at the ends walked.
        let mut dates = vec![(lookup.date_from.clone(), lookup.date_to.clone())];
        let (mut counted, mut counted_games) = (Vec::new(), 0);
        let mut months_would_help = false;
        if own.is_none() && lookup.players.is_empty() && !lookup.rated() {
            let cover =
                super::months::cover(lookup.date_from.as_deref(), lookup.date_to.as_deref());
            let months = self.explorer_months()?;
            months_would_help = cover.is_some() && !months;
            if let Some(cover) = cover.filter(|_| months) {
                (counted, counted_games) = self.month_counts(node, cover.first, cover.last)?;
                dates = (cover.ends.into_iter())
                    .map(|(from, to)| (Some(from), Some(to)))
                    .collect();
            }
        }
        // The games that may pass, from the indexes, when something narrows them: the
        // node's own games, the players' (by name), the dates' (by day). A query never scans
        // the table for them, so that the time limit holds between its chunks.
        // A position's own games are few: the filters are applied as they are read (reading a
        // month's ids from the index to keep a few of them took 30 ms on a million games).
        let own_only = own.is_some();
        let mut candidates = own;
        let mut narrow = |ids: Vec<i64>| {
            candidates = Some(match candidates.take() {
                None => ids,
                Some(kept) => {
                    let ids: std::collections::HashSet<i64> = ids.into_iter().collect();
                    kept.into_iter().filter(|id| ids.contains(id)).collect()
                }
            });
        };
        if !lookup.players.is_empty() && !own_only {
            narrow(self.games_of_players(&lookup.players)?);
        }
        if (lookup.date_from.is_some() || lookup.date_to.is_some()) && !own_only {
            let mut ids = Vec::new();
            for (from, to) in &dates {
                ids.extend(self.games_between(from, to)?);
            }
            narrow(ids);
        }
        if let Some(ids) = &mut candidates {
            ids.sort_unstable_by(|a, b| b.cmp(a));
            ids.dedup();
        }
        let mut found: Vec<(i64, Option<Vec<u8>>)> = Vec::new();
        let (mut below, mut next) = (i64::MAX, 0);
        loop {
            if let Some(limit) = lookup.time_limit
                && began.elapsed() > limit
            {
                return Err(ExploreError::Busy {
                    limit,
                    months: months_would_help,
                });
            }
            let part: Option<Vec<i64>> = match &candidates {
                Some(ids) if next >= ids.len() => break,
                Some(ids) => {
                    let part = ids[next..(next + FILTER_CHUNK as usize).min(ids.len())].to_vec();
                    next += part.len();
                    Some(part)
                }
                None => None,
            };
            let read = || -> Result<IdsAndLines, StoreError> {
                Ok(with_connection!(self, |conn| {
                    let mut query = games::table
                        .filter(games::game.eq(kind.name()))
                        .filter(games::preset.eq(preset))
                        .select((games::id, games::opening_line))
                        .into_boxed();
                    if own_only {
                        if let Some(from) = lookup.date_from.clone() {
                            query = query.filter(games::played_on.ge(from));
                        }
                        if let Some(to) = lookup.date_to.clone() {
                            query = query.filter(games::played_on.le(to));
                        }
                        if !lookup.players.is_empty() {
                            let named = seats::table
                                .filter(seats::name.eq_any(lookup.players.clone()))
                                .filter(seats::named.eq(true))
                                .select(seats::game_id);
                            query = query.filter(games::id.eq_any(named));
                        }
                    }
                    query = match part.clone() {
                        Some(ids) => query.filter(games::id.eq_any(ids)),
                        None => query
                            .filter(games::id.lt(below))
                            .order(games::id.desc())
                            .limit(FILTER_CHUNK),
                    };
                    query.load(conn)?
                }))
            };
            let chunk = read()?;
            if part.is_none() {
                let Some(&(last, _)) = chunk.last() else {
                    break;
                };
                below = last;
            }
            let whole = part.is_none() && (chunk.len() as i64) < FILTER_CHUNK;
            // Only the games that went on from the node are kept (their lines say so).
            found.extend(chunk.into_iter().filter(|(_, line)| {
                line.as_deref()
                    .is_some_and(|line| super::line::find(line, node.stored()).is_some())
            }));
            if whole {
                break;
            }
        }
        if lookup.rated() {
            let average = self.average_ratings(kind, preset, &found, ratings)?;
            let (low, high) = (
                lookup.rating_min.unwrap_or(f64::NEG_INFINITY),
                lookup.rating_max.unwrap_or(f64::INFINITY),
            );
            found.retain(|(id, _)| average.get(id).is_some_and(|r| (low..=high).contains(r)));
        }
        let walked = found.len() as i64;
        // Each game's step from the node, read in place from its line.
        let steps = found.iter().filter_map(|(id, line)| {
            let line = line.as_deref()?;
            let at = super::line::find(line, node.stored())?;
            let (step, _) = super::line::step(line, at)?;
            Some(step.row(kind.name(), preset, *id))
        });
        let mut rows = super::explorer_row::tally(steps.chain(counted));
        rows.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.action.cmp(&b.action)));
        let filtered = Filtered {
            walked,
            counted: counted_games,
        };
        Ok((rows, filtered))
    }

    /// The stored games these players played (any seat), by the seats' index of names.
    fn games_of_players(&self, players: &[String]) -> Result<Vec<i64>, StoreError> {
        Ok(with_connection!(self, |conn| seats::table
            .filter(seats::name.eq_any(players.to_vec()))
            .filter(seats::named.eq(true))
            .select(seats::game_id)
            .distinct()
            .load::<i64>(conn)?))
    }

    /// The stored games played within the dates, by the games' index of days.
    fn games_between(
        &self,
        from: &Option<String>,
        to: &Option<String>,
    ) -> Result<Vec<i64>, StoreError> {
        Ok(with_connection!(self, |conn| {
            let mut query = games::table
                .select(games::id)
                .filter(games::played_on.is_not_null())
                .into_boxed();
            if let Some(from) = from.clone() {
                query = query.filter(games::played_on.ge(from));
            }
            if let Some(to) = to.clone() {
                query = query.filter(games::played_on.le(to));
            }
            query.load::<i64>(conn)?
        }))
    }

    /// The average rating of the players of each of `games` whose every seat is a rated
    /// player (ratings of `kind` and `preset` as the store's counts stand now).
    fn average_ratings(
        &self,
        kind: GameKind,
        preset: &str,
        games: &[(i64, Option<Vec<u8>>)],
        ratings: &RatingsCache,
    ) -> Result<HashMap<i64, f64>, StoreError> {
        let Some(fitted) = ratings.ratings(self, kind.name(), preset)? else {
            return Ok(HashMap::new());
        };
        let rating: HashMap<&str, f64> = fitted
            .players
            .iter()
            .map(|p| (p.name.as_str(), p.rating.value))
            .collect();
        // (sum, seats) per game; None once a seat is unnamed or unrated.
        let mut sums: HashMap<i64, Option<(f64, u32)>> = HashMap::new();
        let ids: Vec<i64> = games.iter().map(|(id, _)| *id).collect();
        for part in ids.chunks(10_000) {
            let found: Vec<(i64, String, bool)> = with_connection!(self, |conn| seats::table
                .filter(seats::game_id.eq_any(part))
                .select((seats::game_id, seats::name, seats::named))
                .load(conn)?);
            for (id, name, named) in found {
                let seat = rating.get(name.as_str()).filter(|_| named);
                let sum = sums.entry(id).or_insert(Some((0.0, 0)));
                *sum = match (*sum, seat) {
                    (Some((total, seats)), Some(r)) => Some((total + r, seats + 1)),
                    _ => None,
                };
            }
        }
        Ok(sums
            .into_iter()
            .filter_map(|(id, sum)| sum.map(|(total, seats)| (id, total / f64::from(seats))))
            .collect())
    }
}

/// Whether the line's actions can be played in turn from its start, by the game's own rules:
/// for games whose positions every seat may be told (Banqi's, Three Kingdoms', open and flip
/// Luzhanqi's), where a public action is the action itself. A dark Luzhanqi or xiangqi-3g
/// action's legality turns on identities no public position holds: only how it is written is
/// checked. A line from a node is not replayed (a node is a hash, not a position).
fn check_line<G: Rules>(
    rules: &G::Ruleset,
    preset: &str,
    lookup: &Lookup,
) -> Result<(), ExploreError> {
    use crate::core::rules::Visibility;
    if G::visibility(rules) == Visibility::Secret
        || lookup.node.is_some()
        || lookup.actions.is_empty()
    {
        return Ok(());
    }
    let actions = lookup.actions.iter().map(|a| a.trim().to_owned()).collect();
    let mut record = crate::core::Record::new(G::NAME, preset, actions);
    record.options = lookup.options.clone();
    record.start = lookup.position.as_ref().map(|p| p.trim().to_owned());
    match replay_with::<G>(&record, |_| {}).error {
        Some(ReplayError::IllegalPly {
            ply,
            action,
            reason,
            detail,
            ..
        }) => Err(ExploreError::Illegal {
            place: ply,
            action,
            code: reason.code(),
            why: detail,
        }),
        // A start that is no position of the game is said by the root's own check.
        _ => Ok(()),
    }
}

/// A node as the explorer writes it: 16 hex digits.
fn parse_node(text: &str) -> Result<Node, ExploreError> {
    let text = text.trim();
    match text.parse::<Node>() {
        Ok(node) if text.len() == 16 => Ok(node),
        _ => Err(ExploreError::Node(format!(
            "node is 16 hex digits, as the explorer gives it (`node`, `next`); {text:?} is not"
        ))),
    }
}

#[allow(clippy::too_many_arguments)]
fn answer(
    kind: GameKind,
    preset: &str,
    node: Node,
    followed: usize,
    depth: u32,
    rows: &[ExplorerRow],
    table: Option<Table>,
    filtered: Option<Filtered>,
) -> Explored {
    let z = corrected_z(rows.len());
    let moves = rows
        .iter()
        .map(|row| {
            let games = row.games.max(1) as f64;
            let won = row.wins as f64 + row.draws as f64 / 2.0;
            let (low, high) = wilson(won, games, z);
            let mut examples = vec![row.first_game];
            if row.last_game != row.first_game {
                examples.push(row.last_game);
            }
            ExplorerMove {
                action: row.action.clone(),
                games: row.games,
                wins: row.wins,
                draws: row.draws,
                losses: row.losses,
                score: won / games,
                interval: [low, high],
                average_points: row.points as f64 / games,
                average_coins: table.map(|t| {
                    (t.stake as f64 * row.coin_stakes as f64
                        + t.bonus_per_point as f64 * row.coin_margins as f64)
                        / games
                }),
                examples,
                next: Node::from_stored(row.next).to_string(),
            }
        })
        .collect();
    let sum = |f: fn(&ExplorerRow) -> i64| rows.iter().map(f).sum::<i64>();
    Explored {
        game: kind.name().to_owned(),
        preset: preset.to_owned(),
        node: node.to_string(),
        followed,
        games: sum(|r| r.games),
        wins: sum(|r| r.wins),
        draws: sum(|r| r.draws),
        losses: sum(|r| r.losses),
        moves,
        filtered,
        depth,
    }
}
