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
    order_in_place(pos, out, None);
}

/// `actions` in the search's order (see [`order_in_place`]).
pub(super) fn ordered(pos: &Position, actions: &[Action]) -> Vec<Action> {
    let mut out = actions.to_vec();
    order_in_place(pos, &mut out, None);
    out
}

/// Captures first (the most valuable victim first), then moves, then flips; the table's
/// best action before all. Stable: the generator's order breaks ties.
pub(super) fn order_in_place(pos: &Position, actions: &mut [Action], first: Option<Action>) {
    actions.sort_by_key(|a| {
        if Some(*a) == first {
            return i32::MIN;
        }
        -match a {
            Action::Flip { .. } => 0,
            Action::Move(path) => match pos.piece_at(path.last().to()) {
                Some(victim) => 100 + victim.role.points() as i32,
                None if pos.covered().contains(path.last().to()) => 50,
                None => 10,
            },
        }
    });
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
