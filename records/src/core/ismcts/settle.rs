//! How a game that settles its captures ([`Worlds::SETTLES_CAPTURES`]) values a leaf (a
//! quiescence search on the world) and reads its actions' scores (along the tree's line,
//! without exploration): docs/engine.md, "The other games: scores".

use rand::RngExt;

use super::{QUIESCENCE_PLIES, READING_VISITS, READING_WORLDS, Tree, Worlds, result};
use crate::core::rules::{Engine as _, Turn as _};
use crate::core::seat::MAX_SEATS;

impl<G: Worlds> Tree<G> {
    /// The side to move's share of `world` once captures are settled: it may stand on the
    /// evaluation or capture, the other side likewise after each capture (alpha-beta on the
    /// shares of a two-seat game), at most [`QUIESCENCE_PLIES`] captures deep (`ply` counts
    /// from 1).
    pub(super) fn quiesce<R: RngExt + ?Sized>(
        &mut self,
        world: &G::Match,
        mut alpha: f64,
        beta: f64,
        ply: usize,
        rng: &mut R,
    ) -> f64 {
        let mover = world.position().to_move().index();
        let mut values = [0.5; MAX_SEATS];
        if let Some(end) = world.end() {
            result(&end, &mut values);
            return values[mover];
        }
        G::value(world, &mut values);
        let stand = values[mover];
        if ply > QUIESCENCE_PLIES || stand >= beta {
            return stand;
        }
        alpha = alpha.max(stand);
        // The leaf's legal actions are not needed once the descent is over.
        world.legal_actions(&mut self.legal);
        let mut captures = std::mem::take(&mut self.captures[ply]);
        captures.clear();
        captures.extend(
            (self.legal.iter()).filter_map(|a| G::gain(world, a).map(|gain| (gain, a.clone()))),
        );
        captures.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut best = stand;
        for (_, action) in &captures {
            let mut next = world.clone();
            self.play(&mut next, action, rng);
            let share = 1.0 - self.quiesce(&next, 1.0 - beta, 1.0 - alpha, ply + 1, rng);
            if share > best {
                best = share;
                alpha = alpha.max(share);
                if share >= beta {
                    break;
                }
            }
        }
        self.captures[ply] = captures;
        best
    }

    /// Every root action's score read along the tree's line (an action tried too seldom to
    /// have one: the action, then the leaf): the means lean toward the side to move (a node's
    /// mean counts the opponent's exploring replies, the bad ones included), the line does
    /// not. Every action is read alike, so that a review weighs the played one against the
    /// best on one scale.
    pub(super) fn read_lines<R: RngExt + ?Sized>(&mut self, knowledge: &G::Knowledge, rng: &mut R) {
        for i in 0..self.nodes[0].children.len() {
            let child = self.nodes[0].children[i];
            let share = self.read_line(knowledge, child as usize, rng);
            self.readings.push((child, share));
        }
    }

    /// The share of `child`'s mover when `child`'s action is played in fresh worlds and then
    /// the tree's actions (among those of at least [`READING_VISITS`] legal in the world: the
    /// mover's most visited, the opponent's drawn by visits cubed) until the tree ends, then
    /// the leaf: the value of the line the search would play, without its exploration.
    fn read_line<R: RngExt + ?Sized>(
        &mut self,
        knowledge: &G::Knowledge,
        child: usize,
        rng: &mut R,
    ) -> f64 {
        let mover = self.nodes[child].mover;
        let first = self.nodes[child]
            .action
            .clone()
            .expect("a child has an action");
        let (mut sum, mut worlds) = (0.0, 0u32);
        // An action the tree barely tried has no line beyond it: a few worlds value its leaf.
        let worlds_read = if self.nodes[child].visits >= READING_VISITS {
            READING_WORLDS
        } else {
            READING_WORLDS / 4
        };
        for _ in 0..worlds_read {
            let mut world = G::world(knowledge, rng);
            world.legal_actions(&mut self.legal);
            if !self.legal.contains(&first) {
                continue;
            }
            self.play(&mut world, &first, rng);
            let mut node = child;
            let mut values = [0.5; MAX_SEATS];
            loop {
                if let Some(end) = world.end() {
                    result(&end, &mut values);
                    break;
                }
                world.legal_actions(&mut self.legal);
                let (nodes, legal) = (&self.nodes, &self.legal);
                let on_line = |c: &usize| {
                    nodes[*c].visits >= READING_VISITS
                        && legal.contains(nodes[*c].action.as_ref().expect("a child"))
                };
                let children = || nodes[node].children.iter().map(|&c| c as usize);
                let theirs = children()
                    .find(on_line)
                    .is_some_and(|c| nodes[c].mover != mover);
                // The reader plays its most visited action; an opponent, who sees other worlds,
                // any of its actions the tree believes in, drawn by visits cubed. Measured: a
                // seat's consecutive scores move half as much as with the opponent's most
                // visited reply alone (median 41 centipawns against 83); drawn by visits alone,
                // its exploring replies count again and the start leans (+103).
                let weight = |c: usize| (nodes[c].visits as f64).powi(3);
                let next = if theirs {
                    let total: f64 = children().filter(on_line).map(weight).sum();
                    let mut draw = rng.random_range(0.0..total);
                    children()
                        .filter(on_line)
                        .find(|&c| {
                            draw -= weight(c);
                            draw < 0.0
                        })
                        .or_else(|| children().rfind(on_line))
                } else {
                    children().filter(on_line).max_by_key(|&c| nodes[c].visits)
                };
                let Some(next) = next else {
                    self.playout(&mut world, &mut values, rng);
                    break;
                };
                let action = self.nodes[next].action.clone().expect("a child");
                self.play(&mut world, &action, rng);
                node = next;
            }
            sum += values[mover.index()];
            worlds += 1;
        }
        if worlds == 0 {
            self.nodes[child].mean()
        } else {
            sum / worlds as f64
        }
    }
}
