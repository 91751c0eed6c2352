//! A game's line for the explorer, as its `games` row keeps it (`opening_line`): its first
//! plies as every seat saw them and what each credits the seat that played it, in a few
//! hundred bytes. Written with the row (the games table grows in id order: no random write),
//! read back when a second game comes to the game's tail and when a filtered request walks
//! games: no replay.
//!
//! ```text
//! version u8 = 1 · steps u8 · first node i64
//! each step: next i64 · ply u16 · place u8 (0 win, 1 draw, 2 loss) · points i32
//!            · coin stakes i8 · coin margins i32 · action length u8 · action (UTF-8)
//! ```
//! Little-endian. A line that does not read is no line (the game counts nowhere below its
//! tail): a store writes only lines it wrote with this code.

use super::explorer_row::ExplorerRow;
use crate::core::explorer::{Counts, Step};

const VERSION: u8 = 1;

/// One game's steps and what each credits its mover (in ply order, [`Summary::credits`]) as
/// its row keeps them; None for no steps.
///
/// [`Summary::credits`]: crate::core::scoring::Summary::credits
pub fn encode<'a>(mut credits: impl Iterator<Item = (&'a Step, Counts)>) -> Option<Vec<u8>> {
    let (first, counts) = credits.next()?;
    let mut out = Vec::with_capacity(10 + 16 * 28);
    out.push(VERSION);
    out.push(0); // the number of steps, set at the end
    out.extend_from_slice(&first.node.stored().to_le_bytes());
    let mut steps = 0u8;
    for (step, counts) in std::iter::once((first, counts)).chain(credits) {
        out.extend_from_slice(&step.next.stored().to_le_bytes());
        out.extend_from_slice(&(step.ply as u16).to_le_bytes());
        out.push(if counts.wins > 0 {
            0
        } else if counts.draws > 0 {
            1
        } else {
            2
        });
        out.extend_from_slice(&(counts.points as i32).to_le_bytes());
        out.push(counts.coin_stakes as i8 as u8);
        out.extend_from_slice(&(counts.coin_margins as i32).to_le_bytes());
        let action = step.action.as_bytes();
        let len = action.len().min(u8::MAX as usize);
        out.push(len as u8);
        out.extend_from_slice(&action[..len]);
        steps += 1;
        if steps == u8::MAX {
            break;
        }
    }
    out[1] = steps;
    Some(out)
}

/// The rows of the line `bytes` of stored game `id` (of `game` under `preset`).
pub fn decode(bytes: &[u8], game: &str, preset: &str, id: i64) -> Vec<ExplorerRow> {
    let mut rows = Vec::new();
    let mut at = first(bytes);
    while let Some(here) = at {
        let Some((step, next)) = step(bytes, here) else {
            // Cut short: no line.
            return Vec::new();
        };
        rows.push(step.row(game, preset, id));
        at = next;
    }
    rows
}

/// One step of a line, read in place.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LineStep<'a> {
    pub node: i64,
    pub next: i64,
    pub ply: u16,
    /// 0 won, 1 drawn, 2 lost.
    pub place: u8,
    pub points: i32,
    pub coin_stakes: i8,
    pub coin_margins: i32,
    pub action: &'a str,
}

impl LineStep<'_> {
    /// The step as a row of one game.
    pub(crate) fn row(&self, game: &str, preset: &str, id: i64) -> ExplorerRow {
        ExplorerRow {
            node: self.node,
            action: self.action.to_owned(),
            next: self.next,
            game: game.to_owned(),
            preset: preset.to_owned(),
            ply: i32::from(self.ply),
            games: 1,
            wins: i64::from(self.place == 0),
            draws: i64::from(self.place == 1),
            losses: i64::from(self.place == 2),
            points: i64::from(self.points),
            coin_stakes: i64::from(self.coin_stakes),
            coin_margins: i64::from(self.coin_margins),
            first_game: id,
            last_game: id,
        }
    }
}

impl LineStep<'_> {
    /// Adds the step, of game `id`, to the row of its position and action.
    pub(crate) fn add_to(&self, row: &mut ExplorerRow, id: i64) {
        row.games += 1;
        row.wins += i64::from(self.place == 0);
        row.draws += i64::from(self.place == 1);
        row.losses += i64::from(self.place == 2);
        row.points += i64::from(self.points);
        row.coin_stakes += i64::from(self.coin_stakes);
        row.coin_margins += i64::from(self.coin_margins);
        row.first_game = row.first_game.min(id);
        row.last_game = row.last_game.max(id);
    }
}

/// Where a reader is in a line: a step's offset, the node it is played from, and how many
/// steps are left from it (this one included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct At {
    offset: usize,
    pub node: i64,
    left: u8,
}

/// The first step of the line `bytes`; None when it has none or is not a line.
pub(crate) fn first(bytes: &[u8]) -> Option<At> {
    if *bytes.first()? != VERSION {
        return None;
    }
    let left = *bytes.get(1)?;
    let node = i64::from_le_bytes(bytes.get(2..10)?.try_into().ok()?);
    (left > 0).then_some(At {
        offset: 10,
        node,
        left,
    })
}

/// The step at `at`, and where the next is (None after the last); None when the line is cut
/// short.
pub(crate) fn step(bytes: &[u8], at: At) -> Option<(LineStep<'_>, Option<At>)> {
    let mut offset = at.offset;
    let mut take = |n: usize| -> Option<&[u8]> {
        let part = bytes.get(offset..offset + n)?;
        offset += n;
        Some(part)
    };
    let next = i64::from_le_bytes(take(8)?.try_into().ok()?);
    let ply = u16::from_le_bytes(take(2)?.try_into().ok()?);
    let place = take(1)?[0];
    let points = i32::from_le_bytes(take(4)?.try_into().ok()?);
    let coin_stakes = take(1)?[0] as i8;
    let coin_margins = i32::from_le_bytes(take(4)?.try_into().ok()?);
    let len = take(1)?[0] as usize;
    let action = std::str::from_utf8(take(len)?).ok()?;
    let step = LineStep {
        node: at.node,
        next,
        ply,
        place,
        points,
        coin_stakes,
        coin_margins,
        action,
    };
    let after = (at.left > 1).then_some(At {
        offset,
        node: next,
        left: at.left - 1,
    });
    Some((step, after))
}

/// Where the line `bytes` plays from `node` (its first step from there).
pub(crate) fn find(bytes: &[u8], node: i64) -> Option<At> {
    let mut at = first(bytes);
    while let Some(here) = at {
        if here.node == node {
            return Some(here);
        }
        at = step(bytes, here)?.1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Seat;
    use crate::core::explorer::Node;

    fn row(node: i64, action: &str, next: i64, ply: i32, wins: i64, losses: i64) -> ExplorerRow {
        ExplorerRow {
            node,
            action: action.into(),
            next,
            game: "banqi".into(),
            preset: "tcga".into(),
            ply,
            games: 1,
            wins,
            draws: 0,
            losses,
            points: 11 * wins,
            coin_stakes: 2 * (wins - losses),
            coin_margins: -22 * losses,
            first_game: 7,
            last_game: 7,
        }
    }

    #[test]
    fn a_line_reads_back_as_written() {
        let rows = vec![
            row(-5, "a1(K)", 9, 0, 1, 0),
            row(9, "b1(k)", i64::MIN, 1, 0, 1),
            row(i64::MIN, "c6-c7:both_die:flag", 3, 2, 1, 0),
        ];
        let steps: Vec<(Step, Counts)> = rows
            .iter()
            .map(|row| {
                let step = Step {
                    node: Node::from_stored(row.node),
                    ply: row.ply as u32,
                    mover: Seat::FIRST,
                    action: row.action.clone(),
                    next: Node::from_stored(row.next),
                };
                (step, row.counts())
            })
            .collect();
        let bytes = encode(steps.iter().map(|(s, c)| (s, *c))).unwrap();
        assert_eq!(decode(&bytes, "banqi", "tcga", 7), rows);
        assert_eq!(encode(std::iter::empty()), None);
        // Cut short or of another version: no line.
        assert!(decode(&bytes[..bytes.len() - 1], "banqi", "tcga", 7).is_empty());
        let mut other = bytes.clone();
        other[0] = 2;
        assert!(decode(&other, "banqi", "tcga", 7).is_empty());
        // Read in place: from a node on.
        let at = find(&bytes, 9).unwrap();
        let (step, after) = step(&bytes, at).unwrap();
        assert_eq!((step.node, step.action, step.next), (9, "b1(k)", i64::MIN));
        assert_eq!(after.map(|a| a.node), Some(i64::MIN));
        assert_eq!(find(&bytes, 4), None);
    }
}
