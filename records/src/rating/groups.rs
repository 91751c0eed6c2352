//! Who met whom: the players split into groups that played each other (directly or through
//! others), and whether the games tell the seats' own terms from the players' strengths.
//!
//! Ratings compare only players joined by games: two groups that never met have no common
//! scale (the games say nothing of how one group's mean stands against the other's), so each
//! group is rated about its own mean, and its intervals are what its own games say.

use super::Meeting;

/// Each player's group (`None` for a name seen only playing itself), the groups numbered
/// from 0 by games played in them, most first (then by their first player's index); and each
/// group's games.
pub(super) fn connected(
    kept: &[(Vec<usize>, &Meeting)],
    players: usize,
) -> (Vec<Option<usize>>, Vec<u64>) {
    let mut parent: Vec<usize> = (0..players).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut playing = vec![false; players];
    for (ids, m) in kept {
        if m.games == 0 || ids.iter().all(|&i| i == ids[0]) {
            continue;
        }
        for &i in ids {
            playing[i] = true;
            let (a, b) = (root(&mut parent, ids[0]), root(&mut parent, i));
            parent[a.max(b)] = a.min(b);
        }
    }
    // Games per root, counted once per game (not per seat).
    let mut games = vec![0u64; players];
    for (ids, m) in kept {
        if ids.iter().all(|&i| i == ids[0]) {
            continue;
        }
        let r = root(&mut parent, ids[0]);
        games[r] += m.games;
    }
    let mut roots: Vec<usize> = (0..players)
        .filter(|&i| playing[i] && root(&mut parent, i) == i)
        .collect();
    roots.sort_by(|&a, &b| games[b].cmp(&games[a]).then(a.cmp(&b)));
    let mut number = vec![None; players];
    for (k, &r) in roots.iter().enumerate() {
        number[r] = Some(k);
    }
    let group = (0..players)
        .map(|i| {
            if !playing[i] {
                return None;
            }
            let r = root(&mut parent, i);
            number[r]
        })
        .collect();
    (group, roots.iter().map(|&r| games[r]).collect())
}

/// Whether the games tell the seats' own terms apart from the players' strengths. They do not
/// when strengths alone could account for any seat terms: when there are potentials φ, one per
/// player, and seat terms c ≠ 0 with φ(p) + c(seat) the same for every seat of every game (for
/// two seats, φ(second) − φ(first) = h in every game: greedy always first against random).
/// Walking each group of players that met, each potential is the group's first one's plus a
/// combination of the seat terms; a game that closes a loop says one combination is 0 (a
/// self-play game closes one at once: c(seat) − c(other seat) = 0); the terms are told apart
/// when those combinations span all of them.
pub(super) fn seats_told_apart(
    kept: &[(Vec<usize>, &Meeting)],
    players: usize,
    seats: usize,
) -> bool {
    // The seat terms as coordinates: two seats, the first move's (on seat 1); three, seats 2
    // and 3 against seat 1.
    let terms = seats - 1;
    let term = |seat: usize| -> [f64; 2] {
        let mut v = [0.0; 2];
        match seats {
            2 if seat == 0 => v[0] = 1.0,
            3 if seat > 0 => v[seat - 1] = 1.0,
            _ => {}
        }
        v
    };
    let sub = |a: [f64; 2], b: [f64; 2]| [a[0] - b[0], a[1] - b[1]];
    let add = |a: [f64; 2], b: [f64; 2]| [a[0] + b[0], a[1] + b[1]];
    // φ(p_s) = φ(p_0) + (c_0 − c_s): an edge from the first seat's player to each other's.
    let mut edges: Vec<Vec<(usize, [f64; 2])>> = vec![Vec::new(); players];
    for (ids, _) in kept.iter().filter(|(_, m)| m.games > 0) {
        for s in 1..ids.len() {
            let step = sub(term(0), term(s));
            edges[ids[0]].push((ids[s], step));
            edges[ids[s]].push((ids[0], [-step[0], -step[1]]));
        }
    }
    let mut at: Vec<Option<[f64; 2]>> = vec![None; players];
    let mut loops: Vec<[f64; 2]> = Vec::new();
    for root in 0..players {
        if at[root].is_some() {
            continue;
        }
        at[root] = Some([0.0; 2]);
        let mut stack = vec![root];
        while let Some(u) = stack.pop() {
            let here = at[u].expect("visited");
            for &(v, step) in &edges[u] {
                let there = add(here, step);
                match at[v] {
                    None => {
                        at[v] = Some(there);
                        stack.push(v);
                    }
                    Some(known) => {
                        let said = sub(there, known);
                        if said[0] != 0.0 || said[1] != 0.0 {
                            loops.push(said);
                        }
                    }
                }
            }
        }
    }
    match terms {
        1 => !loops.is_empty(),
        _ => loops.iter().any(|a| {
            loops
                .iter()
                .any(|b| (a[0] * b[1] - a[1] * b[0]).abs() > 1e-9)
        }),
    }
}
