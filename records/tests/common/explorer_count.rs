//! The explorer's independent count, shared by the explorer's tests: games dealt from a few
//! seeds and played among the first legal actions, and every record walked by public position
//! as strings (no hashing, no store). Included with `#[path]`.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use records::core::record::StatedResult;
use records::core::replay::replay_with;
use records::core::rules::parts::*;
use records::core::rules::ruleset;
use records::core::{Outcome, Reason, Record, Seat};
use records::store::Explored;

/// Games of `G` under `preset`: deals from three seeds, each ply one of the first two legal
/// actions, 1 to 16 plies (the explorer's depth), then a stated result (a resignation or an agreed draw).
pub fn games_of<G: Rules>(
    preset: &'static records::core::Preset<G::Ruleset>,
    n: u64,
) -> Vec<Record> {
    (0..n)
        .map(|i| {
            let mut rng = StdRng::seed_from_u64(i);
            let mut deal_rng = StdRng::seed_from_u64(i % 3);
            let rules = preset.ruleset;
            let hidden = G::deal(&rules, &mut deal_rng);
            let mut m = G::Match::from_position(rules, G::start(&rules, Some(&hidden)).unwrap());
            let (mut actions, mut legal) = (Vec::new(), Vec::new());
            let plies = rng.random_range(1..=16);
            while actions.len() < plies && m.end().is_none() {
                m.legal_actions(&mut legal);
                let pick = legal[rng.random_range(0..legal.len().min(2))].clone();
                let action = G::reveal(pick, m.position(), Some(&hidden)).unwrap();
                m.play(&action).unwrap();
                actions.push(action.to_string());
            }
            let mut record = Record::new(G::NAME, preset.name, actions);
            record.layout = G::visibility(&rules)
                .has_hidden()
                .then(|| G::hidden_value(&hidden));
            record.players = vec!["ann".into(), "bo".into(), "cy".into()];
            record.players.truncate(G::seats(&rules) as usize);
            let seats = G::seats(&rules);
            let result = match rng.random_range(0..4) {
                0 => StatedResult::ended(Outcome::draw(seats), Reason::AGREEMENT, None),
                k => {
                    let seat = Seat::new(k as usize % seats as usize).unwrap();
                    StatedResult::ended(Outcome::win(seat, seats), Reason::RESIGNATION, None)
                }
            };
            record.result = Some(result);
            record.metadata.insert("n".into(), i.into());
            let date = format!("2026-{:02}-{:02}", 1 + i % 12, 1 + i % 28);
            record.metadata.insert("date".into(), date.into());
            record
        })
        .collect()
}

/// A public position with its history, as the test keys it: strings, no hashing.
pub type Key = (String, BTreeSet<String>);

/// A way to a position: a public start and the actions from it.
pub type Path = (String, Vec<String>);

/// Per action played from a position: games, wins, draws, losses, points of the mover.
pub type Counts = BTreeMap<String, [i64; 5]>;

/// The independent count: per position, what every game played from it (`.0`), and what the
/// games that came by each way played (`.1`).
pub type Count = BTreeMap<Key, (Counts, BTreeMap<Path, Counts>)>;

/// Every record walked to `depth`, by public position and by the way each game came.
pub fn count<G: Rules>(records: &[Record], depth: usize) -> Count {
    let mut counts: Count = BTreeMap::new();
    for record in records {
        let rules = ruleset::<G>(record.preset.as_deref(), &record.options).unwrap();
        let summary = records::games::summarize(record).unwrap();
        let outcome = summary.result.unwrap().outcome;
        let mut since: BTreeSet<String> = BTreeSet::new();
        let mut key: Option<Key> = None;
        let mut path = Vec::new();
        let mut start: Option<String> = None;
        replay_with::<G>(record, |ply| {
            if ply.number > depth {
                return;
            }
            let before = G::public(&rules, ply.before).to_string();
            let here = key
                .take()
                .unwrap_or_else(|| (before.clone(), BTreeSet::new()));
            let start = start.get_or_insert_with(|| before.clone()).clone();
            let action = G::public_action(&rules, ply.action, &ply.effect, ply.after);
            let mover = ply.mover;
            let first = Seat::all(outcome.seats())
                .filter(|s| outcome.place(*s) == 1)
                .count();
            let add = |c: &mut [i64; 5]| {
                c[0] += 1;
                match (outcome.place(mover), first) {
                    (1, 1) => c[1] += 1,
                    (1, _) => c[2] += 1,
                    _ => c[3] += 1,
                }
                c[4] += summary.seats[mover.index()].points as i64;
            };
            let (all, by_path) = counts.entry(here).or_default();
            add(all.entry(action.clone()).or_default());
            let way = by_path.entry((start, path.clone())).or_default();
            add(way.entry(action.clone()).or_default());
            if G::irreversible(&ply.effect) {
                since.clear();
            } else {
                since.insert(before);
            }
            path.push(action);
            key = Some((G::public(&rules, ply.after).to_string(), since.clone()));
        });
    }
    counts
}

/// An answer's moves as the test counts them.
pub fn counted(explored: &Explored) -> Counts {
    explored
        .moves
        .iter()
        .map(|m| {
            let points = (m.average_points * m.games as f64).round() as i64;
            (
                m.action.clone(),
                [m.games, m.wins, m.draws, m.losses, points],
            )
        })
        .collect()
}
