//! Small all-revealed endgames, solved exactly on demand and cached (issue 26).
//!
//! Once no piece is covered and at most [`MAX_PIECES`] stand on the board, nothing is left to
//! chance and the position space is small: a table per set of pieces (a *signature*) holds,
//! for every placement and side to move, whether the side to move wins, loses or draws, in
//! how many plies the next capture (or the end) comes (the distance to zeroing, *DTZ*), and
//! how many plies the game lasts when the winner plays the table's moves.
//!
//! Why DTZ: the no-progress rule draws a game after N plies without a capture, so a win is a
//! win only if the winner can force the next capture in time. With DTZ that is exact for any
//! clock: from a position `c` plies into its no-progress count, a table win (or loss) of
//! distance `d` is one under the rule exactly when `d ≤ N − c` (the winner's fastest forced
//! capture is `d` plies away and the loser can delay it that long; a capture's position starts
//! a fresh count, so a capture leading to a sub-table's win of distance above N leads to a
//! draw). A position with no legal action is lost even when the count is up (RULES.md checks
//! "no legal action" before "no progress"), which the same inequality gives for `d = 0`.
//!
//! Solved by retrograde analysis: every position's captures are looked up in the smaller
//! tables (solved first, recursively); then, distance by distance, a lost position makes each
//! position that can move into it won, and a position all of whose moves lead to won ones
//! becomes lost. Quiet moves are reversible in every ruleset (a step, a horse's diagonal step
//! or a chariot's rush along an empty line can be played back), so a position's predecessors
//! are the quiet moves of the side that just moved.
//!
//! Not covered: long chase (a ruleset with it gets no tables: whether a move is legal then
//! depends on the history) and repetition with positions before the table's position (a
//! forced line never repeats its own positions: along it the distance only falls).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use super::super::{Action, Color, Piece, Position, Ruleset, Square, legal_moves, targets};
use super::super::{Bitboard, Pool};

/// The most pieces a table holds.
pub const MAX_PIECES: usize = 4;
/// Tables of up to this many pieces are solved wherever the search meets them (a few
/// milliseconds each); a larger one (up to [`MAX_PIECES`]) is readied by [`prepare`] when
/// the game comes within a capture of it.
pub const SOLVED_IN_SEARCH: usize = 3;
/// A search with at least this much time (or no time limit) waits for its position's own
/// table.
pub const WAIT_MILLIS: u64 = 1_000;
/// What the cache may hold (bytes) before it is emptied.
const CACHE_BYTES: usize = 256 << 20;

/// The exact result of a position for the side to move, under the ruleset's no-progress rule.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Solved {
    /// Won, and over within `plies` plies whatever the loser does, playing the table's moves.
    Won {
        plies: u32,
    },
    /// Lost; the winner playing the table's moves ends it within `plies` plies.
    Lost {
        plies: u32,
    },
    Drawn,
}

/// The pieces of a table by index, in index order (a duplicate piece appears twice), the
/// rest [`NONE`].
type Signature = [u8; MAX_PIECES];
const NONE: u8 = u8::MAX;

/// One solved signature under one ruleset.
pub struct Table {
    pieces: Vec<Piece>,
    /// Per index: 0 drawn; `d + 1` won at distance `d`; `-(d + 1)` lost at distance `d`.
    value: Vec<i16>,
    /// Per index: plies to the game's end with the table's moves (won or lost positions).
    length: Vec<u16>,
}

/// An index: bit 0 the side to move (its colour index), then five bits per piece, its square.
fn square_of(index: usize, i: usize) -> usize {
    (index >> (1 + 5 * i)) & 31
}

fn with_square(index: usize, i: usize, square: usize) -> usize {
    (index & !(31 << (1 + 5 * i))) | (square << (1 + 5 * i))
}

impl Table {
    /// The position of `index`, None when two pieces share a square.
    fn position(&self, index: usize) -> Option<Position> {
        let mut pos = Position {
            cells: [0; 32],
            covered: Bitboard::EMPTY,
            revealed: [Bitboard::EMPTY; 2],
            pool: Pool::default(),
            turn: Some(Color::ALL[index & 1]),
            no_progress: 0,
            ply: 0,
        };
        for (i, piece) in self.pieces.iter().enumerate() {
            let sq = Square::new(square_of(index, i) as u8).expect("five bits");
            if pos.cells[sq.index()] != 0 {
                return None;
            }
            pos.put_piece(sq, *piece);
        }
        Some(pos)
    }

    /// The index of `pos`, whose pieces are this table's.
    fn index(&self, pos: &Position) -> usize {
        // (piece, square) pairs in order: the pieces come out in the signature's order.
        let mut placed = [(NONE, 0u8); MAX_PIECES];
        for (slot, sq) in placed.iter_mut().zip(pos.revealed_all()) {
            *slot = (pos.cells[sq.index()] - 2, sq.index() as u8);
        }
        placed.sort_unstable();
        let side = pos.turn().map_or(0, Color::index);
        placed
            .iter()
            .take(self.pieces.len())
            .enumerate()
            .fold(side, |index, (i, &(_, sq))| {
                index | ((sq as usize) << (1 + 5 * i))
            })
    }

    fn solved(&self, index: usize, no_progress: u32, limit: Option<u16>) -> Solved {
        let (v, plies) = (self.value[index], u32::from(self.length[index]));
        let in_time =
            |d: i16| limit.is_none_or(|n| i32::from(d) <= i32::from(n) - no_progress as i32);
        match v {
            v if v > 0 && in_time(v - 1) => Solved::Won { plies },
            v if v < 0 && in_time(-v - 1) => Solved::Lost { plies },
            _ => Solved::Drawn,
        }
    }

    fn bytes(&self) -> usize {
        self.value.len() * 4
    }

    /// How many of the table's positions (placements × side to move) are won, drawn and
    /// lost for the side to move at a fresh no-progress count.
    pub fn results(&self, rules: &Ruleset) -> [u64; 3] {
        let mut counts = [0; 3];
        for index in 0..self.value.len() {
            if self.position(index).is_some() {
                let i = match self.solved(index, 0, rules.no_progress) {
                    Solved::Won { .. } => 0,
                    Solved::Drawn => 1,
                    Solved::Lost { .. } => 2,
                };
                counts[i] += 1;
            }
        }
        counts
    }
}

/// The table of `pieces` (at most [`MAX_PIECES`], both colours) solved afresh, the smaller
/// tables it needs from the cache (what the benchmarks time, and the docs' counts).
pub fn solve_table(pieces: &[Piece], rules: &Ruleset) -> Table {
    assert!(pieces.len() <= MAX_PIECES, "at most {MAX_PIECES} pieces");
    let mut sorted = pieces.to_vec();
    sorted.sort_unstable_by_key(|p| p.index());
    build(&sorted, rules)
}

/// The signature of `pos`, an eligible position.
fn signature(pos: &Position) -> Signature {
    let mut pieces = [NONE; MAX_PIECES];
    for (slot, sq) in pieces.iter_mut().zip(pos.revealed_all()) {
        *slot = pos.cells[sq.index()] - 2;
    }
    pieces.sort_unstable();
    pieces
}

fn pieces_of(signature: &Signature) -> Vec<Piece> {
    signature
        .iter()
        .filter(|&&p| p != NONE)
        .map(|&p| Piece::from_index(p as usize))
        .collect()
}

/// Whether `pos` under `rules` is a table position: nothing covered, both colours on the
/// board with at most [`MAX_PIECES`] pieces, and no long-chase rule.
pub fn eligible(pos: &Position, rules: &Ruleset) -> bool {
    pos.covered().is_empty()
        && rules.long_chase.is_none()
        && pos.turn().is_some()
        && pos.revealed_all().count() as usize <= MAX_PIECES
        && !pos.revealed(Color::Red).is_empty()
        && !pos.revealed(Color::Black).is_empty()
}

/// The solved tables, shared by every search of the process.
#[derive(Default)]
struct Tables {
    tables: HashMap<(Ruleset, Signature), Arc<Table>>,
    bytes: usize,
    /// Whether a table is being solved in the background.
    solving: bool,
}

fn cache() -> &'static Mutex<Tables> {
    static CACHE: OnceLock<Mutex<Tables>> = OnceLock::new();
    CACHE.get_or_init(Mutex::default)
}

/// The table of `pieces` under `rules`: from the cache, or solved now (with the smaller
/// tables it needs) when `solve` allows.
fn table(pieces: &Signature, rules: &Ruleset, solve: bool) -> Option<Arc<Table>> {
    let key = (*rules, *pieces);
    if let Some(t) = cache().lock().expect("cache").tables.get(&key) {
        return Some(t.clone());
    }
    if !solve {
        return None;
    }
    // Solved without the lock held (solving asks for smaller tables); two searches may
    // solve the same table at once, and the second simply replaces the first.
    let solved = Arc::new(build(&pieces_of(pieces), rules));
    let mut cache = cache().lock().expect("cache");
    if cache.bytes + solved.bytes() > CACHE_BYTES {
        cache.tables.clear();
        cache.bytes = 0;
    }
    cache.bytes += solved.bytes();
    if let Some(old) = cache.tables.insert(key, solved.clone()) {
        cache.bytes -= old.bytes();
    }
    Some(solved)
}

/// Readies the tables a search from `pos` may meet beyond those it solves itself (up to
/// [`SOLVED_IN_SEARCH`] pieces): the position's own, and those one capture away. The
/// position's own is solved before this returns when `wait`, else like the others on a
/// thread of its own, for the searches that follow (a search with a short time limit cannot
/// wait for it: a four-piece table takes about 0.3 s). Without `background`, no thread is
/// started: only the position's own table, when `wait`.
pub fn prepare(pos: &Position, rules: &Ruleset, wait: bool, background: bool) {
    if !pos.covered().is_empty() || rules.long_chase.is_some() {
        return;
    }
    if eligible(pos, rules) {
        if wait {
            table(&signature(pos), rules, true);
        } else if background {
            solve_in_background(signature(pos), *rules);
        }
    }
    if !background {
        return;
    }
    let mut moves = Vec::new();
    legal_moves(pos, rules, &mut moves);
    for action in &moves {
        let Action::Move(path) = action else { continue };
        if pos.occupied().contains(path.first().to())
            && let Ok((next, _)) = pos.play(rules, action)
            && eligible(&next, rules)
            && next.revealed_all().count() as usize > SOLVED_IN_SEARCH
        {
            solve_in_background(signature(&next), *rules);
        }
    }
}

/// Solves a table on a thread of its own, one at a time: a table asked for while another is
/// being solved is left for a later search to ask again (so that a burst of requests naming
/// many rulesets cannot start a thread each).
fn solve_in_background(pieces: Signature, rules: Ruleset) {
    let key = (rules, pieces);
    {
        let mut cache = cache().lock().expect("cache");
        if cache.tables.contains_key(&key) || cache.solving {
            return;
        }
        cache.solving = true;
    }
    std::thread::spawn(move || {
        // Done, even if solving failed: the next table may be solved.
        struct Done;
        impl Drop for Done {
            fn drop(&mut self) {
                if let Ok(mut cache) = cache().lock() {
                    cache.solving = false;
                }
            }
        }
        let _done = Done;
        table(&pieces, &rules, true);
    });
}

/// A search's view of the tables: those it may use, looked up once each.
///
/// A search limited by depth or nodes answers the same every time, so it uses only the
/// tables it is sure to have: those it solves itself (up to [`SOLVED_IN_SEARCH`] pieces)
/// and its root's own (readied before it starts). One limited by time may use any table
/// the process has solved.
#[derive(Default)]
pub struct Probe {
    seen: HashMap<Signature, Option<Arc<Table>>>,
    root: Option<Signature>,
    any_solved: bool,
}

impl Probe {
    /// The view of a search from `root`: with `any_solved`, every table solved so far.
    pub fn new(root: &Position, rules: &Ruleset, any_solved: bool) -> Probe {
        Probe {
            seen: HashMap::new(),
            root: eligible(root, rules).then(|| signature(root)),
            any_solved,
        }
    }

    /// The exact result of `pos` when it is a table position whose table this view has
    /// (solving it now if it has up to [`SOLVED_IN_SEARCH`] pieces).
    pub fn probe(&mut self, pos: &Position, rules: &Ruleset) -> Option<Solved> {
        if !eligible(pos, rules) {
            return None;
        }
        let pieces = signature(pos);
        if !self.seen.contains_key(&pieces) {
            let small = pos.revealed_all().count() as usize <= SOLVED_IN_SEARCH;
            let t = if small || self.any_solved || self.root == Some(pieces) {
                table(&pieces, rules, small)
            } else {
                None
            };
            self.seen.insert(pieces, t);
        }
        let t = self.seen.get(&pieces)?.as_ref()?;
        Some(t.solved(t.index(pos), pos.no_progress(), rules.no_progress))
    }

    /// The table's action at `pos` (a table position whose table is solved): the fastest
    /// win, the longest defence, or one that keeps the draw.
    pub fn best(&mut self, pos: &Position, rules: &Ruleset) -> Option<Action> {
        self.probe(pos, rules)?;
        let mut moves = Vec::new();
        legal_moves(pos, rules, &mut moves);
        let mut best: Option<(i64, Action)> = None;
        for action in moves {
            let (next, _) = pos.play(rules, &action).ok()?;
            let after = if next.revealed(next.turn()?).is_empty() {
                Solved::Lost { plies: 0 }
            } else {
                self.probe(&next, rules)?
            };
            // For the mover: a win sooner, a loss later, is better.
            let value = match after {
                Solved::Lost { plies } => 100_000 - i64::from(plies),
                Solved::Won { plies } => i64::from(plies) - 100_000,
                Solved::Drawn => 0,
            };
            if best.is_none_or(|(v, _)| value > v) {
                best = Some((value, action));
            }
        }
        best.map(|(_, a)| a)
    }
}

/// The exact result of `pos` (a table position), solving its table if need be; None when it
/// is not one ([`eligible`]).
pub fn solve(pos: &Position, rules: &Ruleset) -> Option<Solved> {
    prepare(pos, rules, true, true);
    Probe::new(pos, rules, false).probe(pos, rules)
}

/// Retrograde analysis of `pieces` under `rules` (module docs).
fn build(pieces: &[Piece], rules: &Ruleset) -> Table {
    let n = pieces.len();
    let size = 2usize << (5 * n);
    let mut t = Table {
        pieces: pieces.to_vec(),
        value: vec![0; size],
        length: vec![0; size],
    };
    let mut smaller: HashMap<Signature, Arc<Table>> = HashMap::new();
    // Per index: the quiet moves not yet known to lead to a won position (u8::MAX: no
    // position, or solved), whether a capture leads to a draw, the longest line so far.
    let mut open = vec![u8::MAX; size];
    let mut draw_exit = vec![false; size];
    let mut longest = vec![0u16; size];
    // The positions solved at each distance, in the order found.
    let mut at: Vec<Vec<u32>> = vec![Vec::new(), Vec::new()];
    let mut moves: Vec<Action> = Vec::new();
    for index in 0..size {
        let Some(pos) = t.position(index) else {
            continue;
        };
        legal_moves(&pos, rules, &mut moves);
        if moves.is_empty() {
            t.value[index] = -1;
            at[0].push(index as u32);
            continue;
        }
        let mut quiet = 0u8;
        let mut win: Option<u16> = None;
        for action in &moves {
            let Action::Move(path) = action else { continue };
            if !pos.occupied().contains(path.first().to()) {
                quiet += 1;
                continue;
            }
            let (next, _) = pos.play(rules, action).expect("a listed capture plays");
            match after_capture(&next, rules, &mut smaller) {
                Solved::Lost { plies } => {
                    let len = plies as u16 + 1;
                    win = Some(win.map_or(len, |w| w.min(len)));
                }
                Solved::Won { plies } => {
                    longest[index] = longest[index].max(plies as u16 + 1);
                }
                Solved::Drawn => draw_exit[index] = true,
            }
        }
        if let Some(len) = win {
            t.value[index] = 2;
            t.length[index] = len;
            at[1].push(index as u32);
        } else if quiet == 0 && !draw_exit[index] {
            t.value[index] = -2;
            t.length[index] = longest[index];
            at[1].push(index as u32);
        } else {
            open[index] = quiet;
        }
    }
    let mut d = 0;
    while d < at.len() {
        let level = std::mem::take(&mut at[d]);
        let mut next_level = Vec::new();
        for &p in &level {
            let p = p as usize;
            let pos = t.position(p).expect("a solved index is a position");
            let lost = t.value[p] < 0;
            let len = t.length[p].saturating_add(1);
            let mover = pos
                .turn()
                .expect("a table position has a side to move")
                .other();
            for (i, piece) in pieces.iter().enumerate() {
                if piece.side != mover {
                    continue;
                }
                let from = Square::new(square_of(p, i) as u8).expect("five bits");
                // The moves that piece can play back: its quiet moves here.
                for back in targets(&pos, rules, from, *piece) & !pos.occupied() {
                    let q = with_square(p, i, back.index()) ^ 1;
                    if lost {
                        if open[q] != u8::MAX {
                            open[q] = u8::MAX;
                            t.value[q] = d as i16 + 2;
                            t.length[q] = len;
                            next_level.push(q as u32);
                        } else if t.value[q] == d as i16 + 2 {
                            t.length[q] = t.length[q].min(len);
                        }
                    } else if open[q] != u8::MAX {
                        longest[q] = longest[q].max(len);
                        open[q] -= 1;
                        if open[q] == 0 && !draw_exit[q] {
                            open[q] = u8::MAX;
                            t.value[q] = -(d as i16 + 2);
                            t.length[q] = longest[q];
                            next_level.push(q as u32);
                        }
                    }
                }
            }
        }
        if !next_level.is_empty() {
            if at.len() <= d + 1 {
                at.push(Vec::new());
            }
            at[d + 1].extend(next_level);
        }
        d += 1;
    }
    t
}

/// What a capture leads to for the side to move after it, at a fresh no-progress count.
fn after_capture(
    next: &Position,
    rules: &Ruleset,
    smaller: &mut HashMap<Signature, Arc<Table>>,
) -> Solved {
    let to_move = next.turn().expect("a table position has a side to move");
    if next.revealed(to_move).is_empty() {
        return Solved::Lost { plies: 0 };
    }
    let pieces = signature(next);
    let t = smaller
        .entry(pieces)
        .or_insert_with(|| table(&pieces, rules, true).expect("solved on demand"));
    t.solved(t.index(next), 0, rules.no_progress)
}
