//! The opening explorer's vocabulary, for any game: a **public position** (what every seat
//! sees, [`Truth::public`]) with the history its rules still read, hashed to a 64-bit
//! [`Node`]; a game's first plies as every seat saw them ([`Walk`], each a [`Step`] from a node
//! by a public action to the next node); and what one game credits the seat to move at each
//! step ([`Counts`]), counts that add up.
//!
//! A node is the hash of the variant (the game and its whole ruleset), the public position's
//! string, and the public positions since the last irreversible ply ([`Game::irreversible`]:
//! what a repetition rule can still count), as a set. Two flip orders that reach the same board
//! reach the same node; the same board reached after different back-and-forth moves does not,
//! since a repetition rule may treat them differently (docs/rules.md 58).
//!
//! Hashes are XXH3-64 of the texts: stable across builds and machines (the store keeps them).

use std::fmt;

use xxhash_rust::xxh3::Xxh3;

use super::outcome::Outcome;
use super::record::Record;
use super::replay::Ply;
use super::rules::{Game, Rules, Told, Truth, ruleset};
use super::seat::Seat;
use crate::core::Turn as _;

/// How many plies of every game the explorer follows unless the store is told otherwise.
pub const DEFAULT_DEPTH: u32 = 16;

/// The deepest the explorer may be asked to follow games.
pub const MAX_DEPTH: u32 = 64;

/// A public position with the history its rules read, as its 64-bit hash.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Node(pub u64);

impl fmt::Display for Node {
    /// Sixteen hex digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

impl std::str::FromStr for Node {
    type Err = std::num::ParseIntError;
    fn from_str(s: &str) -> Result<Node, Self::Err> {
        u64::from_str_radix(s, 16).map(Node)
    }
}

impl Node {
    /// As the store keeps it (a signed 64-bit column).
    pub fn stored(self) -> i64 {
        self.0 as i64
    }

    pub fn from_stored(value: i64) -> Node {
        Node(value as u64)
    }
}

/// The XXH3 hash of what `write` writes, into a buffer kept by the thread (a public position
/// is written for every ply the explorer walks: hashing each piece as it came, or allocating a
/// text each time, was most of a walk's time).
fn hash_of(write: impl FnOnce(&mut Vec<u8>)) -> u64 {
    thread_local! {
        static TEXT: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    TEXT.with(|text| {
        let mut text = text.borrow_mut();
        text.clear();
        write(&mut text);
        xxhash_rust::xxh3::xxh3_64(&text)
    })
}

/// The variant's hash: the game's name and its whole ruleset (a preset and the same options
/// written out are one variant), but for the ply cap (`max_plies`): a cap changes nothing
/// before it, and the referee caps every game it deals (docs/rules.md 58).
pub fn variant<G: Game>(rules: &G::Ruleset) -> u64 {
    let mut fields = serde_json::to_value(rules).expect("a ruleset serialises");
    if let Some(fields) = fields.as_object_mut() {
        fields.remove("max_plies");
    }
    let mut h = Xxh3::new();
    h.update(G::NAME.as_bytes());
    h.update(&[0]);
    h.update(fields.to_string().as_bytes());
    h.digest()
}

/// [`variant`] of `rules`, the ruleset `preset` and `options` name, remembered by the thread
/// (a variant is a serialisation of the whole ruleset, and an import walks many games of few).
fn named_variant<G: Game>(
    preset: Option<&str>,
    options: &serde_json::Map<String, serde_json::Value>,
    rules: &G::Ruleset,
) -> u64 {
    type Known = Vec<(
        &'static str,
        Option<String>,
        serde_json::Map<String, serde_json::Value>,
        u64,
    )>;
    thread_local! {
        static KNOWN: std::cell::RefCell<Known> = const { std::cell::RefCell::new(Vec::new()) };
    }
    KNOWN.with(|known| {
        let mut known = known.borrow_mut();
        let found = known
            .iter()
            .find(|(game, p, o, _)| *game == G::NAME && p.as_deref() == preset && o == options);
        if let Some(&(.., hash)) = found {
            return hash;
        }
        let hash = variant::<G>(rules);
        if known.len() >= 32 {
            known.clear();
        }
        known.push((G::NAME, preset.map(str::to_owned), options.clone(), hash));
        hash
    })
}

/// The hash of what every seat sees of a position (its text).
pub fn position_hash<G: Truth>(public: &Told<G>) -> u64 {
    hash_of(|out| {
        use std::io::Write as _;
        let _ = write!(out, "{public}");
    })
}

/// [`position_hash`] of what every seat sees of `pos` under `rules` ([`Truth::public`]),
/// written by [`Truth::write_public`].
pub fn public_hash<G: Truth>(rules: &G::Ruleset, pos: &G::Position) -> u64 {
    hash_of(|out| G::write_public(rules, pos, out))
}

/// The node of a public position (its hash) in `variant`, with the public positions since the
/// last irreversible ply (`since`, sorted).
pub fn node(variant: u64, position: u64, since: &[u64]) -> Node {
    // The words one after another, little-endian: hashed at once when they fit on the stack
    // (nearly always: a history is cleared by every flip and capture), else streamed (the
    // same value either way).
    const ON_STACK: usize = 32;
    let words = std::iter::once(variant)
        .chain(std::iter::once(position))
        .chain(since.iter().copied());
    if since.len() + 2 <= ON_STACK {
        let mut bytes = [0u8; ON_STACK * 8];
        let mut len = 0;
        for word in words {
            bytes[len..len + 8].copy_from_slice(&word.to_le_bytes());
            len += 8;
        }
        return Node(xxhash_rust::xxh3::xxh3_64(&bytes[..len]));
    }
    let mut h = Xxh3::new();
    for word in words {
        h.update(&word.to_le_bytes());
    }
    Node(h.digest())
}

/// One ply of a game's opening as every seat saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub node: Node,
    /// Plies played before it (the position's ply count).
    pub ply: u32,
    /// The seat that played it: the side to move at `node`.
    pub mover: Seat,
    /// The action as every seat saw it ([`Truth::public_action`]).
    pub action: String,
    pub next: Node,
}

/// A game's first plies as every seat saw them, fed ply by ply by a replay.
pub struct Walk<G: Rules> {
    rules: G::Ruleset,
    variant: u64,
    depth: u32,
    /// The public positions since the last irreversible ply, sorted.
    since: Vec<u64>,
    /// The public hash of the position after the last ply walked.
    last: Option<u64>,
    pub steps: Vec<Step>,
}

impl<G: Rules> Walk<G> {
    /// A walk of `record`'s first `depth` plies, under the ruleset its preset and options
    /// name (None when they name none: the replay says why).
    pub fn of_record(record: &Record, depth: u32) -> Option<Walk<G>> {
        let (preset, options) = (record.preset.as_deref(), &record.options);
        let rules = ruleset::<G>(preset, options).ok()?;
        let variant = named_variant::<G>(preset, options, &rules);
        Some(Walk {
            variant,
            rules,
            depth,
            since: Vec::new(),
            last: None,
            steps: Vec::with_capacity(depth as usize),
        })
    }

    /// Walks one ply (replay's order); plies past the depth are ignored.
    pub fn ply(&mut self, ply: &Ply<G>) {
        if ply.number as u32 > self.depth {
            return;
        }
        let before = match self.last {
            Some(hash) => hash,
            None => public_hash::<G>(&self.rules, ply.before),
        };
        let from = match self.steps.last() {
            Some(step) => step.next,
            None => node(self.variant, before, &[]),
        };
        if G::irreversible(&ply.effect) {
            self.since.clear();
        } else if let Err(at) = self.since.binary_search(&before) {
            self.since.insert(at, before);
        }
        let after = public_hash::<G>(&self.rules, ply.after);
        self.last = Some(after);
        self.steps.push(Step {
            node: from,
            ply: ply.before.ply(),
            mover: ply.mover,
            action: G::public_action(&self.rules, ply.action, &ply.effect, ply.after),
            next: node(self.variant, after, &self.since),
        });
    }
}

impl<G: Rules> Walk<G> {
    /// Whether every game of this walk's variant starts from the same public position (then
    /// the first step's node is the variant's start; open Luzhanqi's setups are not):
    /// remembered per variant by the thread.
    pub fn shared_start(&self) -> bool {
        thread_local! {
            static KNOWN: std::cell::RefCell<std::collections::HashMap<u64, bool>> =
                std::cell::RefCell::new(std::collections::HashMap::new());
        }
        let known = KNOWN.with(|k| k.borrow().get(&self.variant).copied());
        known.unwrap_or_else(|| {
            let shared = common_start::<G>(&self.rules).is_some();
            KNOWN.with(|k| k.borrow_mut().insert(self.variant, shared));
            shared
        })
    }
}

/// What each of a game's `steps` credits the seat that played it, once the game has its
/// `outcome` (none before): [`Counts::of`] with the seats' `points`, and the coin terms when
/// the game is played for coins (`doubled`: the opening doubled the stake).
pub fn credits<'a>(
    steps: &'a [Step],
    outcome: Option<Outcome>,
    points: Vec<i64>,
    coins: bool,
    doubled: bool,
) -> impl Iterator<Item = (&'a Step, Counts)> + 'a {
    steps.iter().filter_map(move |step| {
        let counts = Counts::of(outcome?, step.mover, &points, coins, doubled);
        Some((step, counts))
    })
}

/// Why a request names no position of the explorer.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
pub enum NoPosition {
    /// The position string is not one of the game's (as a seat is told it).
    #[error("position: {0}")]
    Position(super::rules::PositionProblem),
    /// The game's games start from positions every seat sees and which differ from game to
    /// game (open Luzhanqi's setups): the start must be given.
    #[error(
        "every {0} game starts from its own public position (the setups): give position= (the start as every seat sees it)"
    )]
    NoCommonStart(&'static str),
}

/// The node a request names: `position` as every seat sees it (history none), or the game's
/// start when every game under `rules` starts from the same public position.
pub fn root<G: Rules>(rules: &G::Ruleset, position: Option<&str>) -> Result<Node, NoPosition> {
    let variant = variant::<G>(rules);
    let public = match position {
        Some(text) => Told::<G>::parse(text.trim()).map_err(NoPosition::Position)?,
        None => common_start::<G>(rules).ok_or(NoPosition::NoCommonStart(G::TITLE))?,
    };
    Ok(node(variant, position_hash(&public), &[]))
}

/// Whether every game under `rules` starts from the same position as every seat sees it (the
/// explorer is then asked by a line alone; open Luzhanqi's games each start from their own).
pub fn has_common_start<G: Rules>(rules: &G::Ruleset) -> bool {
    common_start::<G>(rules).is_some()
}

/// The start every game under `rules` has as every seat sees it, if they all have the same:
/// two deals' starts compared (a start that depends on the deal, as open Luzhanqi's setups, is
/// different in two deals).
fn common_start<G: Rules>(rules: &G::Ruleset) -> Option<Told<G>> {
    use rand::SeedableRng;
    let start = |seed: u64| {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let hidden = G::deal(rules, &mut rng);
        G::start(rules, Some(&hidden))
            .ok()
            .map(|pos| G::public(rules, &pos))
    };
    let (a, b) = (start(1)?, start(2)?);
    (a.to_string() == b.to_string()).then_some(a)
}

/// What one game credits a seat: counts that add up over games and merge across stores.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub games: i64,
    /// Placed first alone.
    pub wins: i64,
    /// Placed first with another seat (every seat, in a two-seat game).
    pub draws: i64,
    pub losses: i64,
    /// The seat's points (Banqi: 棋點).
    pub points: i64,
    /// Games played for coins: the stakes won (+1, +2 when doubled) or paid (−1, −2).
    pub coin_stakes: i64,
    /// Games played for coins: the winner's point margin (never below 0) times the double,
    /// won (+) or paid (−). At a table of stake S and bonus B a seat's coins are
    /// `S × coin_stakes + B × coin_margins` (without draws carried from earlier games).
    pub coin_margins: i64,
}

impl Counts {
    /// What a finished game credits `seat`: its place in `outcome`, its `points` (every seat's,
    /// in seat order), and, when the game is played for coins, the settlement's terms
    /// (`doubled`: the opening doubled the stake).
    pub fn of(outcome: Outcome, seat: Seat, points: &[i64], coins: bool, doubled: bool) -> Counts {
        let first = Seat::all(outcome.seats())
            .filter(|s| outcome.place(*s) == 1)
            .count();
        let place = outcome.place(seat);
        let (wins, draws, losses) = match (place, first) {
            (1, 1) => (1, 0, 0),
            (1, _) => (0, 1, 0),
            _ => (0, 0, 1),
        };
        let own = points.get(seat.index()).copied().unwrap_or(0);
        let (mut coin_stakes, mut coin_margins) = (0, 0);
        if coins && let Some(winner) = outcome.winner() {
            let double = if doubled { 2 } else { 1 };
            let best_other = |s: Seat| {
                Seat::all(outcome.seats())
                    .filter(|o| *o != s)
                    .map(|o| points.get(o.index()).copied().unwrap_or(0))
                    .max()
                    .unwrap_or(0)
            };
            let winner_points = points.get(winner.index()).copied().unwrap_or(0);
            let margin = (winner_points - best_other(winner)).max(0);
            let sign = if winner == seat { 1 } else { -1 };
            coin_stakes = sign * double;
            coin_margins = sign * double * margin;
        }
        Counts {
            games: 1,
            wins,
            draws,
            losses,
            points: own,
            coin_stakes,
            coin_margins,
        }
    }

    pub fn add(&mut self, other: &Counts) {
        self.games += other.games;
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        self.points += other.points;
        self.coin_stakes += other.coin_stakes;
        self.coin_margins += other.coin_margins;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_read_back_and_differ_by_history() {
        let n = node(1, 2, &[]);
        assert_eq!(n.to_string().parse::<Node>(), Ok(n));
        assert_eq!(Node::from_stored(n.stored()), n);
        assert_ne!(node(1, 2, &[3]), n);
        assert_ne!(node(2, 2, &[]), n);
        // XXH3 is a published function: the store's keys do not change with the build.
        assert_eq!(
            hash_of(|out| out.extend_from_slice(b"banqi")),
            xxhash_rust::xxh3::xxh3_64(b"banqi")
        );
        // A long history (hashed streaming) gives what the same words hashed at once give.
        let since: Vec<u64> = (0..40).collect();
        let mut h = Xxh3::new();
        for word in [1, 2].iter().chain(&since) {
            h.update(&word.to_le_bytes());
        }
        assert_eq!(node(1, 2, &since), Node(h.digest()));
        let short: Vec<u8> = [1u64, 2, 7].iter().flat_map(|w| w.to_le_bytes()).collect();
        assert_eq!(node(1, 2, &[7]), Node(xxhash_rust::xxh3::xxh3_64(&short)));
    }

    #[test]
    fn credits_by_place_and_coins() {
        let won = Outcome::win(Seat::FIRST, 2);
        let points = [20, 9];
        let winner = Counts::of(won, Seat::FIRST, &points, true, true);
        assert_eq!(
            (
                winner.wins,
                winner.points,
                winner.coin_stakes,
                winner.coin_margins
            ),
            (1, 20, 2, 22)
        );
        let loser = Counts::of(won, Seat::SECOND, &points, true, true);
        assert_eq!(
            (loser.losses, loser.coin_stakes, loser.coin_margins),
            (1, -2, -22)
        );
        let drawn = Counts::of(Outcome::draw(2), Seat::SECOND, &points, true, false);
        assert_eq!((drawn.draws, drawn.coin_stakes), (1, 0));
        let plain = Counts::of(won, Seat::FIRST, &points, false, true);
        assert_eq!((plain.coin_stakes, plain.coin_margins), (0, 0));
    }
}
