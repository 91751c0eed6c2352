//! A search for any game with hidden information: single-observer information-set Monte
//! Carlo tree search (SO-ISMCTS; Cowling, Powley and Whitehouse, "Information Set Monte Carlo
//! Tree Search", 2012), the engine of Three Kingdoms, Luzhanqi and xiangqi-3g
//! (docs/engine.md).
//!
//! The searching seat's knowledge is read from the match once ([`Worlds::knowledge`]); every
//! iteration draws a *world* from it (a match whose hidden identities are a guess the seat
//! cannot rule out, [`Worlds::world`]) and descends one tree of actions shared by all worlds:
//! a node's children are the actions played from it in any world, chosen by UCB among those
//! legal in this one (their *availability* counts how often they were). Identities an action
//! reveals are drawn when it is played ([`Worlds::chance`]). A playout of a few random plies
//! follows, then the game's evaluation ([`Worlds::value`]) scores the world for each seat.
//!
//! Each seat maximises its own reward (max-n): with three seats, the tree models each seat
//! playing for itself, which is how Three Kingdoms is played (paranoid search would have both
//! other seats gang up on the searcher, which they do only when it leads).
//!
//! Nothing here reads the match after [`Worlds::knowledge`]: two hidden truths that a seat
//! cannot tell apart give it the same knowledge, hence the same answer for the same limits
//! (the random draws are seeded; a time limit is the only source of variation).

use std::time::Instant;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::analysis::{Analysis, AnalysisError, Calibration, Limits, Score, ScoredAction};
use super::outcome::End;
use super::rules::{Engine as _, Rules, Turn as _};
use super::seat::{MAX_SEATS, Seat};

mod settle;

/// What the information-set search needs of a game besides its rules.
pub trait Worlds: Rules {
    /// What a seat knows of a match: all the search reads.
    type Knowledge;

    /// How the game's centipawns become chances.
    const CALIBRATION: Calibration;

    /// Random plies played after the tree before the evaluation.
    const PLAYOUT: u32 = 6;

    /// What `seat` knows of `m`: the only function that reads the match (which may hold the
    /// referee's hidden truth).
    fn knowledge(m: &Self::Match, seat: Seat) -> Self::Knowledge;

    /// A match drawn from `knowledge`: every identity the seat has not seen guessed at random
    /// among those it cannot rule out.
    fn world<R: RngExt + ?Sized>(knowledge: &Self::Knowledge, rng: &mut R) -> Self::Match;

    /// `action` (as [`Engine::legal_actions`](super::Engine::legal_actions) writes it) with
    /// what it reveals drawn at random from what `m` shows; unchanged when it reveals nothing
    /// or `m` knows it.
    fn chance<R: RngExt + ?Sized>(
        m: &Self::Match,
        action: &Self::Action,
        rng: &mut R,
    ) -> Self::Action;

    /// Whether `action` reveals an identity (the principal line stops after it).
    fn reveals(action: &Self::Action) -> bool;

    /// Each seat's expected share of the game at `m` (0 lost, 1 won), written to `out`; for
    /// a game cut short.
    fn value(m: &Self::Match, out: &mut [f64; MAX_SEATS]);

    /// Whether the search settles captures (xiangqi-3g): a node's children grow with its
    /// visits (the square root), captures first, largest first; a leaf is valued by a
    /// quiescence search (each side in turn may stand on the evaluation or capture) instead of
    /// random plies; and an action's score is read along the tree's line, without exploration
    /// (docs/engine.md, "The other games: scores"). For a two-seat game whose worlds hold every
    /// identity, so that a capture's value is known in a world; the others keep every action
    /// available at once and random plies.
    const SETTLES_CAPTURES: bool = false;

    /// What the legal `action` of `m` captures, as a gain (what it takes, less a tenth of what
    /// takes: the largest is tried first); None when it captures nothing. Only read when
    /// [`Self::SETTLES_CAPTURES`].
    fn gain(m: &Self::Match, action: &Self::Action) -> Option<f64> {
        let _ = (m, action);
        None
    }

    /// The centipawns of a share of the game for the side to move.
    fn centipawns(share: f64) -> i64 {
        let p = share.clamp(0.001, 0.999);
        (Self::CALIBRATION.scale * (p / (1.0 - p)).ln()).round() as i64
    }
}

/// The exploration constant of UCB (rewards are shares of a game, in 0..=1).
const EXPLORATION: f64 = 0.3;

/// Captures deep at most, in a leaf's quiescence.
const QUIESCENCE_PLIES: usize = 8;

/// Worlds in which an action's line is played to read its score, and the visits a node needs
/// to be on the line (fewer: its mean is too young to say which action the tree prefers).
const READING_WORLDS: u32 = 16;
const READING_VISITS: u32 = 8;

/// Plies searched when a request sets no limit (some 2,000 iterations).
const DEFAULT_PLIES: u64 = 20_000;

/// The seed of the search's draws: fixed, so a node limit gives one answer.
const SEED: u64 = 0x616e_7169_2026;

struct Node<A> {
    /// The action that led here (None at the root), and the seat that chose it.
    action: Option<A>,
    mover: Seat,
    visits: u32,
    available: u32,
    /// The mover's summed reward.
    reward: f64,
    /// Visits in which the game ended at once after the action, the mover first, or last.
    won_at_once: u32,
    lost_at_once: u32,
    children: Vec<u32>,
}

impl<A> Node<A> {
    /// Whether the action won the game at once in every world it was tried in.
    fn wins_at_once(&self) -> bool {
        self.visits > 0 && self.won_at_once == self.visits
    }

    /// Whether the action lost the game at once in every world it was tried in.
    fn loses_at_once(&self) -> bool {
        self.visits > 0 && self.lost_at_once == self.visits
    }

    fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.5
        } else {
            self.reward / self.visits as f64
        }
    }
}

/// Searches the match `m` for its side to move, reading only what `seat` knows (None: the side
/// to move), within `limits` (nodes: plies played in tree, leaves and readings; depth: plies of
/// tree): a game's [`Search::analyze`](super::analysis::Search::analyze) through its
/// [`Worlds`].
pub fn analyze<G: Worlds>(
    m: &G::Match,
    seat: Option<Seat>,
    limits: &Limits,
) -> Result<Analysis, AnalysisError> {
    search::<G>(m, seat, limits, true, SEED)
}

/// [`analyze`] with the search's draws from another `seed`: how much of a score is the
/// search's own noise (the stability tests weigh a seat's steps from one reading to the next
/// against the difference between two readings of one position).
pub fn analyze_from_seed<G: Worlds>(
    m: &G::Match,
    seat: Option<Seat>,
    limits: &Limits,
    seed: u64,
) -> Result<Analysis, AnalysisError> {
    search::<G>(m, seat, limits, true, SEED ^ seed)
}

/// The action a player in `seat` chooses at `m` within `limits`: [`analyze`]'s best, without
/// reading the actions' scores along the line (a move needs the choice only).
pub fn decide<G: Worlds>(
    m: &G::Match,
    seat: Option<Seat>,
    limits: &Limits,
) -> Result<Option<String>, AnalysisError> {
    Ok(search::<G>(m, seat, limits, false, SEED)?.best)
}

fn search<G: Worlds>(
    m: &G::Match,
    seat: Option<Seat>,
    limits: &Limits,
    read: bool,
    seed: u64,
) -> Result<Analysis, AnalysisError> {
    let started = Instant::now();
    let to_move = m.position().to_move();
    if let Some(end) = m.end() {
        return Ok(Analysis::finished(end.outcome, to_move));
    }
    let knowledge = G::knowledge(m, seat.unwrap_or(to_move));
    let mut search = Tree::<G>::new(to_move);
    let mut rng = StdRng::seed_from_u64(seed);
    let node_limit = limits.nodes.unwrap_or(if limits.millis.is_none() {
        DEFAULT_PLIES
    } else {
        u64::MAX
    });
    let depth_limit = limits.depth.unwrap_or(u32::MAX);
    // The reading along the line comes after the search: a time limit leaves it a fifth.
    let reads = read && G::SETTLES_CAPTURES;
    let millis = limits.millis.map(|ms| if reads { ms - ms / 5 } else { ms });
    let mut stopped = false;
    let mut iterations = 0u64;
    while search.plies < node_limit {
        if iterations.is_multiple_of(32)
            && let Some(ms) = millis
            && started.elapsed().as_millis() as u64 >= ms
        {
            stopped = true;
            break;
        }
        search.iterate(&knowledge, depth_limit, &mut rng);
        iterations += 1;
    }
    if reads {
        search.read_lines(&knowledge, &mut rng);
    }
    Ok(search.answer(started, stopped))
}

/// Each seat's share of a finished game.
fn result(end: &End, values: &mut [f64; MAX_SEATS]) {
    for seat in Seat::all(end.outcome.seats()) {
        values[seat.index()] = end.outcome.score(seat);
    }
}

struct Tree<G: Worlds> {
    nodes: Vec<Node<G::Action>>,
    legal: Vec<G::Action>,
    path: Vec<u32>,
    plies: u64,
    depth: u32,
    /// Captures and their gains, one buffer per ply of a quiescence (a world is cloned per
    /// capture tried: a match is played, never taken back).
    captures: Vec<Vec<(f64, G::Action)>>,
    /// Root children whose score was read along the line: (node, share for its mover).
    readings: Vec<(u32, f64)>,
}

impl<G: Worlds> Tree<G> {
    fn new(to_move: Seat) -> Tree<G> {
        Tree {
            nodes: vec![Node {
                action: None,
                mover: to_move,
                visits: 0,
                available: 0,
                reward: 0.0,
                won_at_once: 0,
                lost_at_once: 0,
                children: Vec::new(),
            }],
            legal: Vec::with_capacity(128),
            path: Vec::with_capacity(64),
            plies: 0,
            depth: 0,
            captures: (0..=QUIESCENCE_PLIES).map(|_| Vec::new()).collect(),
            readings: Vec::new(),
        }
    }

    /// One iteration: a world, a descent (expanding one node), a playout, the rewards.
    fn iterate<R: RngExt + ?Sized>(&mut self, knowledge: &G::Knowledge, depth: u32, rng: &mut R) {
        let mut world = G::world(knowledge, rng);
        self.path.clear();
        self.path.push(0);
        let mut node = 0usize;
        let mut values = [0.5; MAX_SEATS];
        let mut ended = false;
        loop {
            if let Some(end) = world.end() {
                result(&end, &mut values);
                ended = true;
                let last = &mut self.nodes[node];
                if node != 0 && !end.outcome.is_draw() {
                    match end.outcome.place(last.mover) {
                        1 => last.won_at_once += 1,
                        p if p == end.outcome.seats() => last.lost_at_once += 1,
                        _ => {}
                    }
                }
                break;
            }
            world.legal_actions(&mut self.legal);
            if self.legal.is_empty() || self.path.len() as u32 > depth {
                break;
            }
            let mover = world.position().to_move();
            // An action of this world not yet in the tree: expand it and stop descending.
            let (nodes, children) = (&self.nodes, &self.nodes[node].children);
            let in_tree = |a: &G::Action| {
                children
                    .iter()
                    .any(|&c| nodes[c as usize].action.as_ref() == Some(a))
            };
            let untried = self.legal.iter().filter(|a| !in_tree(a)).count();
            // A game that settles captures widens a node below the root as it is visited,
            // captures first, so that a capture's answer is in the tree before every quiet
            // reply has been tried. The root tries every action (each is scored).
            let available = self.legal.len() - untried;
            let room = !G::SETTLES_CAPTURES
                || node == 0
                || available == 0
                || (available as f64) < ((self.nodes[node].visits + 1) as f64).sqrt().ceil();
            if untried > 0 && room {
                let capture = if G::SETTLES_CAPTURES {
                    (self.legal.iter())
                        .filter(|a| !in_tree(a))
                        .filter_map(|a| G::gain(&world, a).map(|gain| (gain, a)))
                        .max_by(|a, b| a.0.total_cmp(&b.0))
                        .map(|(_, a)| a.clone())
                } else {
                    None
                };
                let action = capture.unwrap_or_else(|| {
                    let k = rng.random_range(0..untried);
                    self.legal
                        .iter()
                        .filter(|a| !in_tree(a))
                        .nth(k)
                        .expect("k < untried")
                        .clone()
                });
                let child = self.nodes.len() as u32;
                self.nodes.push(Node {
                    action: Some(action.clone()),
                    mover,
                    visits: 0,
                    available: 1,
                    reward: 0.0,
                    won_at_once: 0,
                    lost_at_once: 0,
                    children: Vec::new(),
                });
                self.nodes[node].children.push(child);
                self.play(&mut world, &action, rng);
                self.path.push(child);
                node = child as usize;
                if world.end().is_some() {
                    continue;
                }
                break;
            }
            // Every legal action is in the tree: UCB among the available ones.
            let mut best = (f64::NEG_INFINITY, 0u32);
            for &c in &self.nodes[node].children {
                let child = &self.nodes[c as usize];
                let action = child.action.as_ref().expect("a child has an action");
                if !self.legal.contains(action) {
                    continue;
                }
                let ucb = child.mean()
                    + EXPLORATION
                        * ((child.available.max(1) as f64).ln() / child.visits.max(1) as f64)
                            .sqrt();
                if ucb > best.0 {
                    best = (ucb, c);
                }
            }
            for i in 0..self.nodes[node].children.len() {
                let c = self.nodes[node].children[i] as usize;
                let action = self.nodes[c]
                    .action
                    .as_ref()
                    .expect("a child has an action");
                if self.legal.contains(action) {
                    self.nodes[c].available += 1;
                }
            }
            let action = self.nodes[best.1 as usize]
                .action
                .clone()
                .expect("a child has an action");
            self.play(&mut world, &action, rng);
            node = best.1 as usize;
            self.path.push(best.1);
        }
        self.depth = self.depth.max(self.path.len() as u32 - 1);
        if !ended {
            self.playout(&mut world, &mut values, rng);
        }
        for &n in &self.path {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            node.reward += values[node.mover.index()];
        }
    }

    fn play<R: RngExt + ?Sized>(&mut self, world: &mut G::Match, action: &G::Action, rng: &mut R) {
        let action = G::chance(world, action, rng);
        world
            .play(&action)
            .expect("a legal action with its identities drawn plays");
        self.plies += 1;
    }

    /// A few random plies, then the evaluation (or the result, when the game ends).
    fn playout<R: RngExt + ?Sized>(
        &mut self,
        world: &mut G::Match,
        values: &mut [f64; MAX_SEATS],
        rng: &mut R,
    ) {
        if G::SETTLES_CAPTURES {
            let mover = world.position().to_move();
            let share = self.quiesce(world, 0.0, 1.0, 1, rng);
            for seat in Seat::all(2) {
                values[seat.index()] = if seat == mover { share } else { 1.0 - share };
            }
            return;
        }
        let mut end = world.end();
        for _ in 0..G::PLAYOUT {
            if end.is_some() {
                break;
            }
            world.legal_actions(&mut self.legal);
            if self.legal.is_empty() {
                break;
            }
            let action = self.legal[rng.random_range(0..self.legal.len())].clone();
            self.play(world, &action, rng);
            end = world.end();
        }
        match end {
            Some(end) => result(&end, values),
            None => G::value(world, values),
        }
    }

    /// The root's actions by visits, the line of most visits.
    fn answer(&self, started: Instant, stopped: bool) -> Analysis {
        let score = |share: f64| Score::new(G::centipawns(share), &G::CALIBRATION);
        let mut ranked: Vec<u32> = self.nodes[0].children.clone();
        ranked.sort_by(|a, b| {
            let (a, b) = (&self.nodes[*a as usize], &self.nodes[*b as usize]);
            // Certain wins first, certain immediate losses last (a lost game is resisted).
            b.wins_at_once()
                .cmp(&a.wins_at_once())
                .then(a.loses_at_once().cmp(&b.loses_at_once()))
                .then(b.visits.cmp(&a.visits))
                .then(b.mean().total_cmp(&a.mean()))
        });
        let actions: Vec<ScoredAction> = ranked
            .iter()
            .map(|&c| {
                let child = &self.nodes[c as usize];
                ScoredAction {
                    action: child.action.as_ref().expect("a child").to_string(),
                    score: if child.wins_at_once() {
                        Score::forced(true, 1)
                    } else if child.loses_at_once() {
                        Score::forced(false, 1)
                    } else {
                        let read = self.readings.iter().find(|(n, _)| *n == c);
                        score(read.map_or(child.mean(), |r| r.1))
                    },
                }
            })
            .collect();
        let mut line = Vec::new();
        let mut node = 0usize;
        while let Some(&next) = self.nodes[node]
            .children
            .iter()
            .max_by_key(|&&c| self.nodes[c as usize].visits)
        {
            let child = &self.nodes[next as usize];
            if child.visits < 8 {
                break;
            }
            let action = child.action.as_ref().expect("a child");
            line.push(action.to_string());
            if G::reveals(action) {
                break;
            }
            node = next as usize;
        }
        Analysis {
            best: actions.first().map(|a| a.action.clone()),
            score: actions.first().map_or(score(0.5), |a| a.score),
            line,
            actions,
            depth: self.depth,
            nodes: self.plies,
            millis: started.elapsed().as_millis() as u64,
            stopped,
        }
    }
}
