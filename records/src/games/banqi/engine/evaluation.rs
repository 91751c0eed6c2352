//! The search's static value of a Banqi position: material by the capture relation, and the
//! pursuit that turns an advantage into captures.
//!
//! Scoring points (RULES.md §6) say what a piece is worth at the end of a game; during one a
//! piece is worth what it can still do. A piece's worth here is its base value scaled by the
//! share of its possible victims still in the game, plus a bonus while no enemy piece left
//! can take it (a general once the enemy soldiers and cannons are gone can no longer be
//! captured). Both sides' covered pieces count, at their worth, as what they will be: a flip
//! changes no material (the pool is public).
//!
//! Material alone cannot tell a quiet shuffle from a plan, and Banqi games between such
//! searches end drawn by the no-progress rule. So each revealed piece also earns a small
//! share of the best enemy piece it could take, by how near it stands: the side ahead then
//! closes in, and the search's horizon finds the capture. The weights are [`Weights`], tuned
//! by self-play (docs/engine.md says how to repeat the run).

use super::super::movegen::beats_by_rank;
use super::super::{CannonRule, Color, Position, Role, Ruleset};

/// The evaluation's parameters (one set, [`Weights::TUNED`], is the engine's).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Weights {
    /// Each role's worth with all its victims alive, in the engine's units (General, Advisor,
    /// Elephant, Chariot, Horse, Cannon, Soldier).
    pub base: [f64; 7],
    /// The share of a piece's base worth that depends on its victims still being alive
    /// (0: fixed values; 1: a piece with nothing left to take is worth nothing).
    pub victims: f64,
    /// The bonus, as a share of the base worth, of a piece no enemy piece left can take.
    pub untouchable: f64,
    /// The share of a victim's worth a revealed piece earns standing next to it (halved with
    /// each step further away).
    pub pursuit: f64,
    /// The share of the material ahead (at the root) that a draw costs the side ahead: it
    /// then avoids repeating and the no-progress clock, and the side behind seeks them.
    pub contempt: f64,
    /// What a draw costs the side to move at the root besides: it then takes a fair chance
    /// (a flip) rather than a sure draw.
    pub draw_cost: f64,
}

impl Weights {
    /// The engine's weights (docs/engine.md: the self-play run that chose them).
    pub const TUNED: Weights = Weights {
        victims: 0.4,
        ..Weights::START
    };

    /// The tuned weights without the draw's contempt, for analyses: a draw is 0 for both
    /// sides, so a position's score does not depend on which side would rather have it (the
    /// bots play with contempt, an evaluation bar shows this).
    pub const ANALYSIS: Weights = Weights {
        contempt: 0.0,
        draw_cost: 0.0,
        ..Weights::TUNED
    };

    /// Where `anqi tune` starts: chosen by hand (docs/engine.md).
    pub const START: Weights = Weights {
        base: [60.0, 40.0, 20.0, 12.0, 8.0, 30.0, 8.0],
        victims: 0.6,
        untouchable: 0.5,
        pursuit: 0.1,
        contempt: 0.3,
        draw_cost: 5.0,
    };

    /// Material at scoring points, nothing else: the first step's evaluation.
    pub const MATERIAL: Weights = Weights {
        base: [9.0, 8.0, 3.0, 2.0, 1.0, 4.0, 1.0],
        victims: 0.0,
        untouchable: 0.0,
        pursuit: 0.0,
        contempt: 0.0,
        draw_cost: 0.0,
    };

    /// The largest value an evaluation can take (for the search's bounds).
    pub fn bound(&self) -> f64 {
        let most = self.base.iter().copied().fold(0.0, f64::max);
        16.0 * most * (1.0 + self.untouchable + self.pursuit)
    }
}

/// Whether a `attacker` can ever capture a revealed `target` under `rules` (rank, or a
/// Taiwan cannon's jump, which takes anything).
fn beats(rules: &Ruleset, attacker: Role, target: Role) -> bool {
    (attacker == Role::Cannon && rules.cannon == CannonRule::Taiwan)
        || beats_by_rank(attacker, target)
}

/// Manhattan distance between squares by index (4 files, 8 ranks).
const DISTANCE: [[u8; 32]; 32] = {
    let mut t = [[0u8; 32]; 32];
    let mut a = 0;
    while a < 32 {
        let mut b = 0;
        while b < 32 {
            let df = (a % 4) as i32 - (b % 4) as i32;
            let dr = (a / 4) as i32 - (b / 4) as i32;
            t[a][b] = (df.abs() + dr.abs()) as u8;
            b += 1;
        }
        a += 1;
    }
    t
};

/// What one evaluation knows of the material: each role's worth for each colour now.
struct Worths {
    worth: [[f64; 7]; 2],
}

impl Worths {
    fn new(pos: &Position, rules: &Ruleset, w: &Weights) -> Worths {
        // Pieces alive per colour and role, revealed or covered.
        let census = pos.census();
        let alive = |c: usize, r: usize| census[c * 7 + r] as f64;
        let mut worth = [[0.0; 7]; 2];
        for (c, row) in worth.iter_mut().enumerate() {
            let enemy = 1 - c;
            for (r, cell) in row.iter_mut().enumerate() {
                let role = Role::ALL[r];
                let (mut victims, mut all_victims, mut hunters) = (0.0, 0.0, 0.0);
                for (t, &target) in Role::ALL.iter().enumerate() {
                    if beats(rules, role, target) {
                        victims += alive(enemy, t) * w.base[t];
                        all_victims += target.count() as f64 * w.base[t];
                    }
                    if beats(rules, target, role) {
                        hunters += alive(enemy, t);
                    }
                }
                let share = if all_victims > 0.0 {
                    victims / all_victims
                } else {
                    0.0
                };
                let base = w.base[r];
                *cell = base * (1.0 - w.victims + w.victims * share)
                    + if hunters == 0.0 {
                        base * w.untouchable
                    } else {
                        0.0
                    };
            }
        }
        Worths { worth }
    }

    fn material(&self, pos: &Position, color: Color) -> f64 {
        let c = color.index();
        let mut sum = 0.0;
        for s in pos.revealed(color) {
            sum += self.worth[c][pos.piece_at(s).expect("revealed").role.index()];
        }
        for (r, &v) in self.worth[c].iter().enumerate() {
            sum += v * pos
                .pool()
                .count(super::super::Piece::new(color, Role::ALL[r])) as f64;
        }
        sum
    }

    /// The pursuit term of `color`: for each revealed piece, a share of the best enemy piece
    /// it could take, halved per step of distance beyond the first.
    fn pursuit(&self, pos: &Position, rules: &Ruleset, color: Color, w: &Weights) -> f64 {
        let enemy = color.other();
        let mut sum = 0.0;
        for s in pos.revealed(color) {
            let role = pos.piece_at(s).expect("revealed").role;
            let mut best: f64 = 0.0;
            for t in pos.revealed(enemy) {
                let target = pos.piece_at(t).expect("revealed").role;
                if !beats(rules, role, target) {
                    continue;
                }
                let d = DISTANCE[s.index()][t.index()].max(1) as i32;
                let v = self.worth[enemy.index()][target.index()] / f64::from(1u32 << (d - 1));
                best = best.max(v);
            }
            sum += best;
        }
        sum * w.pursuit
    }
}

/// The value of `pos` for the side to move under `weights` (0 before colours are known).
pub fn evaluate_with(pos: &Position, rules: &Ruleset, weights: &Weights) -> f64 {
    let Some(me) = pos.turn() else { return 0.0 };
    let worths = Worths::new(pos, rules, weights);
    let mut v = worths.material(pos, me) - worths.material(pos, me.other());
    if weights.pursuit != 0.0 {
        v += worths.pursuit(pos, rules, me, weights)
            - worths.pursuit(pos, rules, me.other(), weights);
    }
    v
}

/// The engine's value of `pos` for the side to move ([`Weights::TUNED`]).
pub fn evaluate(pos: &Position, rules: &Ruleset) -> f64 {
    evaluate_with(pos, rules, &Weights::TUNED)
}
