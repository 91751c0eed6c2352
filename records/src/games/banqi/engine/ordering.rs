//! The search's move ordering and the actions whose identity is left open (a flip, a dark
//! capture): what the search needs of an action besides playing it.

use super::super::{Action, Piece, Position, Ruleset};

/// The captures of revealed pieces at `pos` (no dark capture), the most valuable victim
/// first, written to `out` (cleared first).
pub fn captures(pos: &Position, rules: &Ruleset, out: &mut Vec<Action>) {
    super::super::legal_moves(pos, rules, out);
    out.retain(|a| match a {
        Action::Move(path) => {
            open_identity(pos, a).is_none() && pos.piece_at(path.last().to()).is_some()
        }
        Action::Flip { .. } => false,
    });
    order_in_place(pos, out, None, None);
}

/// `actions` in the search's order (see [`order_in_place`]).
pub(super) fn ordered(pos: &Position, actions: &[Action]) -> Vec<Action> {
    let mut out = actions.to_vec();
    order_in_place(pos, &mut out, None, None);
    out
}

/// How often each quiet action (a move, or a flip as from = to) cut a search off, weighted by
/// the depth it cut at (the history heuristic: an action that refuted one position often
/// refutes its neighbours in the tree).
pub(super) struct History([[u32; 32]; 32]);

impl History {
    pub(super) fn new() -> History {
        History([[0; 32]; 32])
    }

    fn squares(action: &Action) -> (usize, usize) {
        match action {
            Action::Flip { square, .. } => (square.index(), square.index()),
            Action::Move(path) => (path.from.index(), path.last().to().index()),
        }
    }

    fn of(&self, action: &Action) -> u32 {
        let (from, to) = History::squares(action);
        self.0[from][to]
    }

    /// `action` cut the search off `depth` plies above the horizon.
    pub(super) fn cut(&mut self, action: &Action, depth: u32) {
        let (from, to) = History::squares(action);
        let h = &mut self.0[from][to];
        *h = h.saturating_add(depth * depth);
    }
}

/// Captures first (the most valuable victim first), then moves, then flips, moves and flips
/// each by `history` when given; the table's best action before all. Stable: the
/// generator's order breaks ties.
pub(super) fn order_in_place(
    pos: &Position,
    actions: &mut [Action],
    first: Option<Action>,
    history: Option<&History>,
) {
    actions.sort_by_key(|a| {
        if Some(*a) == first {
            return (i32::MIN, 0);
        }
        let class = match a {
            Action::Flip { .. } => 0,
            Action::Move(path) => match pos.piece_at(path.last().to()) {
                Some(victim) => 100 + victim.role.points() as i32,
                None if pos.covered().contains(path.last().to()) => 50,
                None => 10,
            },
        };
        let quiet = class <= 10;
        let cuts = match history {
            Some(h) if quiet => h.of(a),
            _ => 0,
        };
        (-class, u32::MAX - cuts)
    });
}

/// Whether `action` is quiet at `pos` (no capture): what the history heuristic counts.
pub(super) fn is_quiet(pos: &Position, action: &Action) -> bool {
    match action {
        Action::Flip { .. } => true,
        Action::Move(path) => {
            let to = path.last().to();
            pos.piece_at(to).is_none() && !pos.covered().contains(to)
        }
    }
}

/// Where an action leaves an identity open: a flip, or the hop of a move onto a covered
/// square (listed chains end at their first dark link).
#[derive(Copy, Clone, Debug)]
pub(super) enum Open {
    Flip,
    Hop(usize),
}

impl Open {
    /// `action` with the open identity filled in as `piece`.
    pub(super) fn fill(self, mut action: Action, piece: Piece) -> Action {
        match (&mut action, self) {
            (Action::Flip { reveal, .. }, Open::Flip) => *reveal = Some(piece),
            (Action::Move(path), Open::Hop(i)) => path.hops_mut()[i].set_reveal(Some(piece)),
            _ => {}
        }
        action
    }
}

pub(super) fn open_identity(pos: &Position, action: &Action) -> Option<Open> {
    match action {
        Action::Flip { reveal: None, .. } => Some(Open::Flip),
        Action::Flip { .. } => None,
        Action::Move(path) => path
            .hops()
            .iter()
            .position(|h| pos.covered().contains(h.to()))
            .map(Open::Hop),
    }
}
