//! The self-play bots of `anqi simulate`: uniform random, a greedy capturer that avoids obvious
//! losses, and a shallow expectimax search that treats flips as chance events.

use rand::RngExt;
use rand::rngs::SmallRng;
use records::core::Engine as _;
use records::games::banqi::{Action, Color, Match, Piece, Position, Role, Ruleset, engine};

/// A bot's name on the command line and in the records it plays.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bot {
    /// Uniform over all legal actions, flips included.
    Random,
    /// Takes the capture that wins the most points net of what the capturing piece then risks;
    /// without a profitable capture, a safe move or a flip at random.
    Greedy,
    /// Two-ply expectimax on material: its own action (a flip averaged over the pieces still
    /// covered), then the opponent's best capture.
    Search,
    /// The search of `records::games::banqi::engine` (expectimax with Star1 cuts, iterative
    /// deepening), 20,000 positions a move (deterministic, whatever the machine), or the
    /// given milliseconds a move (`engine:100`).
    Engine,
    /// MistyBanqi (`peers/misty`, MIT) as its author ships it, the open engine Anqi's is
    /// measured against: 20,000 positions a move, or the given milliseconds (`misty:100`).
    Misty,
    /// MistyBanqi in the weaker configuration measured before (`misty-735`: features 735, its
    /// built-in value table).
    Misty735,
}

/// The engine bot's budget per move, in positions searched.
pub const ENGINE_NODES: u64 = 20_000;

impl Bot {
    /// Every bot, in the order of their names in [`Bot::NAMES`].
    pub const ALL: [Bot; 6] = [
        Bot::Random,
        Bot::Greedy,
        Bot::Search,
        Bot::Engine,
        Bot::Misty,
        Bot::Misty735,
    ];
    pub const NAMES: &'static [&'static str] =
        &["random", "greedy", "search", "engine", "misty", "misty-735"];
    /// The bots that take a time per move (`engine:100`).
    pub const TIMED: &'static [&'static str] = &["engine", "misty", "misty-735"];

    /// Picks one of `actions`, the game's legal actions (never empty; identities of flips
    /// and dark captures left open: the dealer fills them in).
    pub fn choose(
        self,
        game: &Match,
        actions: &[Action],
        millis: Option<u64>,
        rng: &mut SmallRng,
    ) -> Action {
        match self {
            Bot::Random => actions[rng.random_range(0..actions.len())],
            Bot::Greedy => best_by(actions, rng, |a| greedy_value(game, a)),
            Bot::Search => best_by(actions, rng, |a| {
                expectimax(game.position(), game.rules(), a)
            }),
            Bot::Engine => {
                let limits = match millis {
                    Some(ms) => engine::Limits {
                        millis: Some(ms),
                        ..engine::Limits::default()
                    },
                    None => engine::Limits {
                        nodes: Some(ENGINE_NODES),
                        ..engine::Limits::default()
                    },
                };
                engine::play_match(game, &engine::Weights::TUNED, &limits)
                    .best
                    .unwrap_or_else(|| actions[rng.random_range(0..actions.len())])
            }
            Bot::Misty | Bot::Misty735 => {
                let config = match self {
                    Bot::Misty => &super::misty::SHIPPED,
                    _ => &super::misty::FEATURES_735,
                };
                super::misty::choose(config, game, actions, millis)
                    .unwrap_or_else(|| actions[rng.random_range(0..actions.len())])
            }
        }
    }
}

/// The action with the highest value; ties broken at random.
fn best_by(actions: &[Action], rng: &mut SmallRng, value: impl Fn(&Action) -> f64) -> Action {
    let mut best = Vec::new();
    let mut best_value = f64::NEG_INFINITY;
    for a in actions {
        let v = value(a);
        if v > best_value + 1e-9 {
            best_value = v;
            best.clear();
            best.push(*a);
        } else if (v - best_value).abs() <= 1e-9 {
            best.push(*a);
        }
    }
    best[rng.random_range(0..best.len())]
}

/// Points of the pieces of `color` still in the game (revealed or covered).
fn material(pos: &Position, color: Color) -> f64 {
    let revealed: u32 = pos
        .revealed(color)
        .map(|s| pos.piece_at(s).expect("revealed").role.points())
        .sum();
    let covered: u32 = Role::ALL
        .iter()
        .map(|r| r.points() * pos.pool().count(Piece::new(color, *r)) as u32)
        .sum();
    (revealed + covered) as f64
}

/// The revealed pieces `pos`'s side to move could capture now, as their best value.
fn best_capture(pos: &Position, rules: &Ruleset) -> f64 {
    let Some(us) = pos.turn() else { return 0.0 };
    let mut best = 0.0f64;
    for from in pos.revealed(us) {
        let piece = pos.piece_at(from).expect("revealed");
        for to in records::games::banqi::targets(pos, rules, from, piece) {
            if let Some(victim) = pos.piece_at(to)
                && victim.side != us
            {
                best = best.max(victim.role.points() as f64);
            }
        }
    }
    best
}

/// The outcomes of an action whose identities are open: (probability, action with them
/// filled in). A flip or dark capture is averaged over the pieces still covered.
fn outcomes(pos: &Position, action: &Action) -> Vec<(f64, Action)> {
    let covered_targets: Vec<usize> = match action {
        Action::Flip { .. } => vec![0],
        Action::Move(path) => path
            .hops()
            .iter()
            .enumerate()
            .filter(|(_, h)| pos.covered().contains(h.to()))
            .map(|(i, _)| i)
            .collect(),
    };
    if covered_targets.is_empty() {
        return vec![(1.0, *action)];
    }
    // Listed actions have at most one open identity (a listed chain ends at its dark link).
    let total = pos.pool().total() as f64;
    Piece::all()
        .filter(|p| pos.pool().count(*p) > 0)
        .map(|p| {
            let mut a = *action;
            match &mut a {
                Action::Flip { reveal, .. } => *reveal = Some(p),
                Action::Move(path) => {
                    let i = covered_targets[0];
                    path.hops_mut()[i].set_reveal(Some(p));
                }
            }
            (pos.pool().count(p) as f64 / total, a)
        })
        .collect()
}

/// Material balance for `me` after `action`, minus what the moved piece then risks.
fn greedy_value(game: &Match, action: &Action) -> f64 {
    let pos = game.position();
    let Some(me) = pos.turn() else { return 0.0 };
    let before = material(pos, me.other());
    let mut value = 0.0;
    for (p, a) in outcomes(pos, action) {
        let Ok((next, _)) = pos.play(game.rules(), &a) else {
            continue;
        };
        let gain = before - material(&next, me.other()) - (material(pos, me) - material(&next, me));
        // An obvious loss: after a move, the opponent can capture something of ours.
        let risk = match a {
            Action::Flip { .. } => 0.0,
            Action::Move(_) => best_capture(&next, game.rules()),
        };
        value += p * (gain - risk);
    }
    value
}

/// Two plies: our action (chance over open identities), then the opponent's best capture.
fn expectimax(pos: &Position, rules: &Ruleset, action: &Action) -> f64 {
    let Some(me) = pos.turn() else { return 0.0 };
    let mut value = 0.0;
    for (p, a) in outcomes(pos, action) {
        let Ok((next, _)) = pos.play(rules, &a) else {
            continue;
        };
        let balance = material(&next, me) - material(&next, me.other());
        value += p * (balance - best_capture(&next, rules));
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn game(position: &str) -> Match {
        Match::from_position(Ruleset::TCGA, position.parse().unwrap())
    }

    #[test]
    fn greedy_takes_the_general_and_search_too() {
        // Red's soldier on a1 can take black's general on a2 or move away; black has a covered
        // soldier left. (With a revealed black soldier on a3 instead, red is lost whatever it
        // plays, a solved endgame, and the engine picks the longest defence.)
        let g = game("3X/4/4/4/4/4/k3/P2K r p1 0 10");
        let mut rng = SmallRng::seed_from_u64(1);
        let mut actions = Vec::new();
        g.legal_actions(&mut actions);
        for bot in [
            Bot::Greedy,
            Bot::Search,
            Bot::Engine,
            Bot::Misty,
            Bot::Misty735,
        ] {
            assert_eq!(
                bot.choose(&g, &actions, None, &mut rng).to_string(),
                "a1-a2",
                "{bot:?}"
            );
        }
    }

    #[test]
    fn greedy_avoids_an_obvious_loss() {
        // Red's advisor on b1 may step to b2 (next to black's general on b3: lost) or a1.
        let g = game("4/4/4/4/4/1k2/4/1G2 r - 0 10");
        let mut rng = SmallRng::seed_from_u64(2);
        let mut actions = Vec::new();
        g.legal_actions(&mut actions);
        for _ in 0..20 {
            let a = Bot::Greedy.choose(&g, &actions, None, &mut rng).to_string();
            assert_ne!(a, "b1-b2");
        }
    }
}
