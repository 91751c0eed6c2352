//! A search that evaluates Banqi positions and suggests actions (issue 26, first step).
//!
//! Expectimax: the side to move picks the action that maximises its value (negamax with
//! alpha-beta between deterministic actions), and a flip or a dark capture is a chance node
//! whose value is the average over the pieces still covered, each weighted by how many of it
//! the pool holds. Such a node's children are searched with Star1 bounds (Ballard 1983): the
//! values already known and the evaluation's bounds say when the average can no longer reach
//! the window, and the node is cut. Iterative deepening with a transposition table keyed by the
//! position's Zobrist hash (board, covered pool, side to move), captures first, the previous
//! iteration's best action first; repetition of a position on the search path and the
//! ruleset's no-progress limit are draws.
//!
//! The search reads only the position: in Banqi a covered piece is a pool entry, never an
//! identity, so no hidden truth can reach it.
//!
//! Past the horizon a quiescence search follows captures of revealed pieces (standing pat on
//! the evaluation) until the position is quiet.
//!
//! The value at the horizon is [`evaluation`]'s: material by the capture relation and the
//! pursuit of what can be taken. A draw costs the side ahead a share of its advantage
//! (contempt), and the positions of the game since its last flip or capture count as
//! repetitions, so that the side ahead plays for progress.
//!
//! Once nothing is covered and at most four pieces are left, [`endgame`]'s tables give the
//! exact result (solved on demand, cached for the process).
//!
//! Long chase (長捉禁手, a ruleset's `long_chase`) is kept along every line the search reads:
//! each node knows both players' consecutive chases ([`LongChase`], the game's own at the
//! root), and where a count is one short of the limit the forbidden moves are not searched.
//! Such a node is neither stored in nor read from the transposition table, whose key (the
//! position) does not hold the counts.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use super::{Action, Color, Effect, LongChase, Piece, Position, Ruleset, legal_actions};
use crate::core::Turn as _;
use endgame::Solved;
pub use ordering::captures;
use ordering::{History, Open, is_quiet, open_identity, order_in_place, ordered};

mod answer;
pub mod endgame;
pub mod evaluation;
mod ordering;
mod search;
pub use answer::{CALIBRATION, analyze_match, play_match, score};
pub use evaluation::{Weights, evaluate, evaluate_with};

/// The value of a won game for the side to move (less the plies it takes).
pub const WIN: f64 = 10_000.0;
/// The deepest search (in plies) when no limit stops it sooner.
pub const MAX_DEPTH: u32 = 64;
/// How many captures in a row the quiescence search follows past the horizon.
pub const QUIESCENCE_DEPTH: u32 = 8;
/// Late move reductions: from this depth, after this many actions.
const LMR_DEPTH: u32 = 3;
const LMR_AFTER: usize = 3;
/// The width of a null window: whether an action beats a value, not by how much.
const NULL_WINDOW: f64 = 1e-6;

/// What stops a search: the first limit reached (at least one iteration of depth 1 runs to
/// its end unless `nodes` or `millis` stop it first).
pub use crate::core::analysis::Limits;

/// A search's answer, in the game's types ([`crate::core::analysis::Analysis`] is what the
/// service and the batch tool show).
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The action to play (a flip or dark capture without its identity); None when the game
    /// is over at the position.
    pub best: Option<Action>,
    /// The value for the side to move: material points ahead (positive: ahead), or ±(WIN −
    /// plies) for a result the search sees forced.
    pub score: f64,
    /// The expected line from the best action, as far as no chance node interrupts it.
    pub line: Vec<Action>,
    /// Every root action with its value at the deepest completed depth, best first. In
    /// [`Mode::Play`] only the first is a value: the others are bounds it beats.
    pub actions: Vec<(Action, f64)>,
    /// The deepest iteration completed.
    pub depth: u32,
    pub nodes: u64,
    /// Whether a limit stopped an iteration midway (its partial result used only when no
    /// iteration completed).
    pub stopped: bool,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Copy, Clone, Debug)]
struct Entry {
    depth: u32,
    value: f64,
    bound: Bound,
    best: Option<Action>,
}

/// What to search: a position, its ruleset, the game's positions before it and the
/// evaluation's weights.
#[derive(Copy, Clone, Debug)]
pub struct Root<'a> {
    pub position: &'a Position,
    pub rules: &'a Ruleset,
    /// The repetition keys ([`Position::repetition_key`]) of the game's positions since its
    /// last flip or capture, the current one excluded ([`super::Match::earlier_positions`]):
    /// returning to one of them is valued as a draw. Empty for a bare position.
    pub earlier: &'a [u64],
    /// Both players' consecutive chases at the position ([`super::Match::long_chase_counts`]),
    /// for a ruleset with the long-chase rule. All zero for a bare position.
    pub chases: LongChase,
    pub weights: &'a Weights,
    /// What the search is for: an analysis, or a move under a clock.
    pub mode: Mode,
    /// How a player's search values a flip at its horizon (an analysis always plays its
    /// outcomes).
    pub horizon_flips: HorizonFlips,
    /// Whether a player's search probes a chance node's outcomes before searching them
    /// (Star2, Ballard 1983): each outcome's value is bounded by the opponent's first reply
    /// alone, and a flip whose bounds already average below what the search has is cut
    /// without searching an outcome in full. It changes no value, only how many positions
    /// are visited; on unless a measurement turns it off.
    pub star2: bool,
}

/// What a search is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// An analysis (the service, a review): every root action is valued, and the solved
    /// endgames the game is near are readied on a thread of their own for the requests that
    /// follow.
    Analysis,
    /// A player's move under a clock (the bots): all of the move's work is done on the
    /// caller's thread within its limits, so that a time per move is the time the move
    /// took, whatever the machine runs beside it. No thread is started: a table the search
    /// needs is solved in the move's own time or not used.
    Play,
}

/// How a player's search values a flip with one ply left: the average over its outcomes, each
/// followed by the captures it allows, or the evaluation as it stands (a flip takes nothing).
/// Valued so, a flip costs one node where its outcomes cost some fourteen quiescence searches:
/// in the opening the search goes a ply deeper in the same time. With a move's time short
/// that is a loss (the reply's flips are the threats a two-ply search must see: 61.0% against
/// 66.2% with outcomes played, at 10 ms a move against MistyBanqi on the same 400 games); with
/// time for three plies it is a gain (63.2% against 53.0% at 100 ms on the same 200).
/// docs/engine.md has the measurements.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum HorizonFlips {
    Played,
    Evaluated,
}

impl HorizonFlips {
    /// The move's time (or positions) from which a player values its horizon's flips by the
    /// evaluation: 50 ms a move, or 250,000 positions (about 50 ms at this machine's 5
    /// million a second).
    pub const EVALUATED_FROM_MILLIS: u64 = 50;
    pub const EVALUATED_FROM_NODES: u64 = 250_000;

    /// The valuation for a move searched within `limits`.
    pub fn for_move(limits: &Limits) -> HorizonFlips {
        let deep = limits
            .millis
            .is_some_and(|ms| ms >= Self::EVALUATED_FROM_MILLIS)
            || limits
                .nodes
                .is_some_and(|n| n >= Self::EVALUATED_FROM_NODES);
        if deep {
            HorizonFlips::Evaluated
        } else {
            HorizonFlips::Played
        }
    }
}

impl<'a> Root<'a> {
    /// A bare position (no history) with the engine's weights, analysed.
    pub fn new(position: &'a Position, rules: &'a Ruleset) -> Root<'a> {
        Root {
            position,
            rules,
            earlier: &[],
            chases: LongChase::default(),
            weights: &Weights::TUNED,
            mode: Mode::Analysis,
            horizon_flips: HorizonFlips::Played,
            star2: true,
        }
    }
}

struct Search<'a> {
    rules: &'a Ruleset,
    evaluator: evaluation::Evaluator<'a>,
    /// The evaluation's bound (Star1 needs the values' range).
    bound: f64,
    /// A player's search ([`Mode::Play`]).
    play: bool,
    /// A player's search that values a flip at its horizon by the evaluation
    /// ([`HorizonFlips::Evaluated`]).
    flips_evaluated: bool,
    /// A player's search that probes chance nodes ([`Root::star2`]).
    star2: bool,
    /// The quiet actions that cut the search off (a player's search orders by them; an
    /// analysis keeps the generator's order, so that its every action's value comes the same
    /// way whatever was searched before).
    history: Box<History>,
    /// The side to move at the root and what a draw is worth to it (minus the contempt).
    root: Option<Color>,
    draw: f64,
    nodes: u64,
    max_nodes: u64,
    deadline: Option<Instant>,
    stopped: bool,
    /// The positions on the path from the root (repetition).
    path: Vec<u64>,
    /// The long-chase counts at each ply of the path (kept only under a ruleset with it).
    chases: Vec<LongChase>,
    table: HashMap<u64, Entry>,
    /// One action buffer per ply: the search allocates only while it goes deeper than before.
    buffers: Vec<Vec<Action>>,
    /// The solved endgames met so far.
    endgames: endgame::Probe,
}

/// Searches `pos` under `rules` within `limits` (none given: depth 4), as a bare position
/// with the engine's weights.
pub fn analyze(pos: &Position, rules: &Ruleset, limits: &Limits) -> Answer {
    analyze_root(&Root::new(pos, rules), limits)
}

/// Searches `root` within `limits` (none given: depth 4).
pub fn analyze_root(root_at: &Root, limits: &Limits) -> Answer {
    let (pos, rules) = (root_at.position, root_at.rules);
    let weights = root_at.weights;
    let play = root_at.mode == Mode::Play;
    let bound = weights.bound();
    let root_value = evaluate_with(pos, rules, weights);
    let no_limit = limits.depth.is_none() && limits.nodes.is_none() && limits.millis.is_none();
    let max_depth = if no_limit {
        4
    } else {
        limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH)
    };
    let mut search = Search {
        rules,
        evaluator: evaluation::Evaluator::new(rules, weights),
        bound,
        play,
        flips_evaluated: play && root_at.horizon_flips == HorizonFlips::Evaluated,
        star2: play && root_at.star2,
        history: Box::new(History::new()),
        root: pos.turn(),
        draw: -(weights.contempt * root_value + weights.draw_cost).clamp(-bound, bound),
        nodes: 0,
        max_nodes: limits.nodes.unwrap_or(u64::MAX),
        deadline: limits
            .millis
            .map(|ms| Instant::now() + Duration::from_millis(ms)),
        stopped: false,
        path: Vec::with_capacity(MAX_DEPTH as usize + 2),
        chases: vec![root_at.chases],
        table: HashMap::new(),
        buffers: Vec::new(),
        endgames: endgame::Probe::new(pos, rules, limits.millis.is_some()),
    };
    // The solved endgames this game is near (endgame::prepare; before the search's view of
    // them, which takes its root's own table when readied).
    endgame::prepare(
        pos,
        rules,
        limits.millis.is_none_or(|ms| ms >= endgame::WAIT_MILLIS),
        !play,
    );
    let mut root = Vec::new();
    legal_actions(pos, rules, &mut root);
    search.allowed(pos, 0, &mut root);
    let mut answer = Answer {
        best: None,
        score: 0.0,
        line: Vec::new(),
        actions: Vec::new(),
        depth: 0,
        nodes: 0,
        stopped: false,
    };
    // The game is over here: its value, no action.
    if let Some(v) = search.terminal(pos, 0) {
        answer.score = v;
        return answer;
    }
    if root.is_empty() {
        answer.score = -WIN;
        return answer;
    }
    for depth in 1..=max_depth {
        // The previous iteration's order: its best first.
        let order: Vec<Action> = if answer.actions.is_empty() {
            ordered(pos, &root)
        } else {
            answer.actions.iter().map(|(a, _)| *a).collect()
        };
        let mut scored = Vec::with_capacity(order.len());
        search.path.clear();
        search.path.extend_from_slice(root_at.earlier);
        search.path.push(pos.repetition_key());
        // An analysis values every root action; a player needs only the best, so after the
        // first each action is asked only whether it beats the best so far (a null window
        // around it), and searched in full only if it does.
        let mut alpha = -WIN - 1.0;
        for (i, action) in order.into_iter().enumerate() {
            let value = if play && i > 0 {
                let v = search.action_value(pos, &action, depth, alpha, alpha + NULL_WINDOW, 0);
                if v > alpha && !search.stopped {
                    search.action_value(pos, &action, depth, alpha, WIN + 1.0, 0)
                } else {
                    v
                }
            } else {
                search.action_value(pos, &action, depth, -WIN - 1.0, WIN + 1.0, 0)
            };
            if search.stopped {
                break;
            }
            scored.push((action, value));
            alpha = alpha.max(value);
        }
        if search.stopped {
            answer.stopped = true;
            // A player takes the best of the actions this iteration completed, the previous
            // best (searched first) among them: deeper, so better informed.
            if play && answer.depth > 0 && !scored.is_empty() {
                sort(&mut scored);
                answer.best = Some(scored[0].0);
                answer.score = scored[0].1;
            }
            // No completed iteration: the actions searched so far are the best answer, and
            // with none searched, the first in the search's order at the static value.
            if answer.depth == 0 {
                if scored.is_empty() {
                    let first = ordered(pos, &root)[0];
                    scored.push((first, root_value));
                }
                sort(&mut scored);
                answer.best = Some(scored[0].0);
                answer.score = scored[0].1;
                answer.actions = scored;
            }
            break;
        }
        sort(&mut scored);
        answer.best = Some(scored[0].0);
        answer.score = scored[0].1;
        answer.actions = scored;
        answer.depth = depth;
        // A forced result is final: deeper cannot change it.
        if answer.score.abs() > WIN - 1_000.0 {
            break;
        }
    }
    answer.nodes = search.nodes;
    if let Some(best) = answer.best {
        answer.line = search.line(pos, best);
    }
    answer
}

/// Best first; ties keep the order given (deterministic).
fn sort(scored: &mut [(Action, f64)]) {
    scored.sort_by(|a, b| b.1.total_cmp(&a.1));
}
