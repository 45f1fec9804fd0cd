//! The search for every variant: the 8x8 depth-limited search's algorithm (principal-variation
//! search, iterative deepening with a two-disc aspiration window, a transposition table whose
//! entries carry their depth) over the general rules core, exact where the depth reaches the
//! end of the game.
//!
//! On boards of up to 8x8 whose moves are plain captures, both the search to the end and the
//! search short of it run on 64-bit boards with the 8x8 kernels (`narrow`); elsewhere they go
//! through [`Position`].
//!
//! Depth counts placements: a pass (forced, or voluntary where the rules allow it) costs none.
//! Every placement fills one empty cell, so a search whose depth is at least the empty cells
//! never calls the evaluation and its value is the exact final margin under the variant's
//! scoring ([`crate::core::Outcome::score`]).

use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::Instant;

use super::eval::GenericEval;
use super::narrow;
use crate::core::{Color, Move, Position, Square};
use crate::engine::analysis::{Analyst, Found, Settings};
use crate::engine::eval::{SCALE, to_discs};
use crate::engine::search::{around, proven_bounds};
use crate::engine::solve::{Estimate, Limits, SolveError};

/// A depth that reaches the end of any game (boards have at most 256 cells).
const TO_THE_END: u32 = 1 << 16;
/// The depth stored for an exact entry.
const EXACT: u8 = u8::MAX;
/// Above every value (the largest board has 256 cells).
const INFINITY: i32 = SCALE * 300;
/// Move codes in the table: a square's dense index, or these.
const NO_MOVE: u16 = u16::MAX;
const PASS: u16 = 256;
/// Depth from which a node orders its moves by the evaluation of each child.
const ORDER_FROM: u32 = 2;
/// How often (in nodes, a power of two) the limits are checked.
const POLL: u64 = 1 << 10;

/// One stored position: the bounds of its value, the depth they hold for and the best move.
#[derive(Clone, Copy, Debug)]
struct Slot {
    key: u64,
    lower: i32,
    upper: i32,
    depth: u8,
    best: u16,
}

const EMPTY_SLOT: Slot = Slot { key: 0, lower: 0, upper: 0, depth: 0, best: NO_MOVE };

/// A transposition table of one slot per hash index, always replaced.
struct Table {
    slots: Vec<Slot>,
}

impl Table {
    fn new(hash_mb: usize) -> Table {
        let wanted = (hash_mb.max(1) << 20) / std::mem::size_of::<Slot>();
        let len = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        Table { slots: vec![EMPTY_SLOT; len] }
    }

    fn index(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 1)
    }

    fn probe(&self, key: u64) -> Option<Slot> {
        let slot = self.slots[self.index(key)];
        (slot.key == key && slot.best != NO_MOVE).then_some(slot)
    }

    fn store(&mut self, slot: Slot) {
        let i = self.index(slot.key);
        self.slots[i] = slot;
    }

    fn clear(&mut self) {
        self.slots.fill(EMPTY_SLOT);
    }
}

fn code(mv: Move) -> u16 {
    match mv {
        Move::Pass => PASS,
        Move::Place(sq) => u16::from(sq.index()),
    }
}

fn decode(code: u16) -> Option<Move> {
    match code {
        PASS => Some(Move::Pass),
        NO_MOVE => None,
        c => Some(Move::Place(Square::from_index(c as u8))),
    }
}

/// A searcher for positions of any variant, with its transposition table (kept from one call to
/// the next; positions of different rules never share an entry).
///
/// Searches to the end of the game on boards of up to 8x8 whose moves are plain captures (no
/// non-capturing placement, no voluntary pass, no player short of discs) go to a fast path on the
/// 8x8 kernels with a table of its own, made on first use; searches of such positions that stop
/// short of the end run on the same kernels with the evaluation on 64-bit boards (the same values
/// as over the general rules core, several times faster) and the general table.
pub struct GenericSearcher {
    table: Table,
    nodes: u64,
    hash_mb: usize,
    narrow: Option<narrow::Table>,
}

/// What a fast-path search may spend: a node limit and a deadline. Before the general search
/// takes over ([`Share::of`]), half of a node, time or deepening budget (none without one).
#[derive(Clone, Copy)]
struct Share {
    nodes: u64,
    deadline: Option<Instant>,
}

impl Share {
    fn of(limits: Limits, started: Instant) -> Share {
        let nodes = [limits.nodes, limits.deepening_nodes].into_iter().flatten().min().map_or(u64::MAX, |n| n / 2);
        Share { nodes, deadline: limits.time.map(|t| started + t / 2) }
    }
}

/// A search by the fast path: the exact value for the side to move in discs and a line of
/// perfect play, or the positions it searched before a limit stopped it.
type Fast = Result<(i32, Vec<Move>, u64), u64>;

/// One call's search state.
struct Run<'a> {
    table: &'a mut Table,
    eval: GenericEval,
    /// Mixed into every key: the rules.
    salt: u64,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    stopped: bool,
    /// The fast path's evaluation when it takes the rules: searches that stop short of the end
    /// run there ([`Run::deep`]), on the same table.
    narrow: Option<narrow::Evaluation>,
}

impl Run<'_> {
    fn key(&self, position: &Position) -> u64 {
        let mut h = DefaultHasher::new();
        self.salt.hash(&mut h);
        position.hash(&mut h);
        h.finish()
    }

    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes & (POLL - 1) == 0
            && (self.nodes >= self.node_limit || self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.stopped = true;
        }
    }

    /// The value of `position` for its side to move, `depth` placements ahead, in evaluation
    /// units, in the window (`alpha`, `beta`) (fail-soft); exact when `depth` reaches the end.
    fn search(&mut self, position: &Position, depth: u32, mut alpha: i32, mut beta: i32) -> i32 {
        self.count_node();
        if self.stopped {
            return 0;
        }
        if let Some(outcome) = position.outcome() {
            return outcome.score(position.side_to_move()) * SCALE;
        }
        let exact = depth >= position.empties();
        if depth == 0 {
            return self.eval.evaluate(position);
        }
        let key = self.key(position);
        let mut hash_move = NO_MOVE;
        if let Some(e) = self.table.probe(key) {
            if e.depth == EXACT || (!exact && u32::from(e.depth) >= depth) {
                if e.lower >= beta || e.lower == e.upper {
                    return e.lower;
                }
                if e.upper <= alpha {
                    return e.upper;
                }
                alpha = alpha.max(e.lower);
                beta = beta.min(e.upper);
            }
            hash_move = e.best;
        }
        let mut children: Vec<(i32, Move, Position)> = position
            .legal_moves()
            .into_iter()
            .map(|mv| {
                let child = position.clone().play(mv).expect("a legal move plays");
                let order = if code(mv) == hash_move {
                    i32::MIN
                } else if depth >= ORDER_FROM {
                    // The child's value for the opponent: lowest first.
                    self.eval.evaluate(&child)
                } else {
                    0
                };
                (order, mv, child)
            })
            .collect();
        // Stable: equal keys keep board order, so the search does not depend on anything else.
        children.sort_by_key(|c| c.0);
        let original = (alpha, beta);
        let mut best = -INFINITY;
        let mut best_move = NO_MOVE;
        for (i, (_, mv, child)) in children.iter().enumerate() {
            let d = if *mv == Move::Pass { depth } else { depth - 1 };
            let score = if i == 0 {
                -self.search(child, d, -beta, -alpha)
            } else {
                let probe = -self.search(child, d, -alpha - 1, -alpha);
                if probe > alpha && probe < beta && !self.stopped {
                    -self.search(child, d, -beta, -alpha)
                } else {
                    probe
                }
            };
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = code(*mv);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let (lower, upper) = proven_bounds(best, original, INFINITY);
        let depth = if exact { EXACT } else { depth.min(u32::from(EXACT) - 1) as u8 };
        self.table.store(Slot { key, lower, upper, depth, best: best_move });
        best
    }

    /// The boards of `position` (the side to move's first) when a search `depth` placements
    /// ahead goes to the fast path: under rules it takes, short of the end of the game.
    fn narrow_at(&self, position: &Position, depth: u32) -> Option<(u64, u64)> {
        self.narrow.as_ref()?;
        if depth >= position.empties() {
            return None;
        }
        let [black, white] = position.bitboards()?;
        Some(match position.side_to_move() {
            Color::Black => (black, white),
            Color::White => (white, black),
        })
    }

    /// The value of `position` `depth` placements ahead in the window (`alpha`, `beta`), as
    /// [`Run::search`] gives it: by [`Run::deep`] where the fast path takes the search.
    fn value(&mut self, position: &Position, depth: u32, alpha: i32, beta: i32) -> i32 {
        match self.narrow_at(position, depth) {
            Some((p, o)) => self.deep(p, o, depth, alpha, beta),
            None => self.search(position, depth, alpha, beta),
        }
    }

    /// The table key of the fast path's position with discs `p` for the side to move and `o`.
    fn deep_key(&self, p: u64, o: u64) -> u64 {
        let mut x = p.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ o.rotate_left(32).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        x ^= self.salt ^ x >> 31;
        x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x ^ x >> 29
    }

    /// [`Run::search`] short of the end on the fast path's boards (discs `p` for the side to
    /// move, `o`): the same value, from the same evaluation ([`narrow::Evaluation`]), many
    /// times faster.
    fn deep(&mut self, p: u64, o: u64, depth: u32, mut alpha: i32, mut beta: i32) -> i32 {
        self.count_node();
        if self.stopped {
            return 0;
        }
        let Some(eval) = &self.narrow else { unreachable!("deep runs on the fast path's boards") };
        let board = eval.board;
        let moves = board.moves(p, o);
        if moves == 0 && board.moves(o, p) == 0 {
            return board.final_score(p, o) * SCALE;
        }
        if depth == 0 {
            return eval.evaluate(p, o);
        }
        if moves == 0 {
            return -self.deep(o, p, depth, -beta, -alpha);
        }
        let key = self.deep_key(p, o);
        let mut hash_move = NO_MOVE;
        if let Some(e) = self.table.probe(key) {
            if e.depth == EXACT || u32::from(e.depth) >= depth {
                if e.lower >= beta || e.lower == e.upper {
                    return e.lower;
                }
                if e.upper <= alpha {
                    return e.upper;
                }
                alpha = alpha.max(e.lower);
                beta = beta.min(e.upper);
            }
            hash_move = e.best;
        }
        let mut children = [(0i32, 0u16, 0u64, 0u64); 64];
        let mut count = 0;
        let mut rest = moves;
        while rest != 0 {
            let bit = rest.trailing_zeros();
            rest &= rest - 1;
            let (cp, co) = narrow::play(p, o, bit);
            let mv = code(Move::Place(Square::from_bit8(bit)));
            let order = if mv == hash_move {
                i32::MIN
            } else if depth >= ORDER_FROM {
                // The child's value for the opponent: lowest first.
                eval.evaluate(cp, co)
            } else {
                // The opponent's replies: fewest first.
                board.moves(cp, co).count_ones() as i32
            };
            children[count] = (order, mv, cp, co);
            count += 1;
        }
        let children = &mut children[..count];
        children.sort_by_key(|c| c.0);
        let original = (alpha, beta);
        let mut best = -INFINITY;
        let mut best_move = NO_MOVE;
        for (i, &(_, mv, cp, co)) in children.iter().enumerate() {
            let d = depth - 1;
            let score = if i == 0 {
                -self.deep(cp, co, d, -beta, -alpha)
            } else {
                let probe = -self.deep(cp, co, d, -alpha - 1, -alpha);
                if probe > alpha && probe < beta && !self.stopped {
                    -self.deep(cp, co, d, -beta, -alpha)
                } else {
                    probe
                }
            };
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = mv;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let (lower, upper) = proven_bounds(best, original, INFINITY);
        let depth = depth.min(u32::from(EXACT) - 1) as u8;
        self.table.store(Slot { key, lower, upper, depth, best: best_move });
        best
    }

    /// The principal variation from `position`, `depth` placements deep (to the end of the game
    /// when that far): at each step the table's move, once the table holds the position's value
    /// itself (not just a bound); else the position is searched again first (a slot may have been
    /// taken by another position since).
    fn principal_line(&mut self, position: &Position, mut depth: u32) -> Vec<Move> {
        let mut line = Vec::new();
        let mut pos = position.clone();
        while depth > 0 && !pos.is_game_over() && !self.stopped {
            // A forced pass is the only move (the fast path's search stores no entry for it).
            if pos.legal_moves() == [Move::Pass] {
                line.push(Move::Pass);
                pos = pos.play(Move::Pass).expect("a forced pass plays");
                continue;
            }
            let key = match self.narrow_at(&pos, depth) {
                Some((p, o)) => self.deep_key(p, o),
                None => self.key(&pos),
            };
            // The value at this depth, as `search` would take it from the table.
            let exact = depth >= pos.empties();
            let valued = |e: &Slot| e.lower == e.upper && (e.depth == EXACT || (!exact && u32::from(e.depth) >= depth));
            if !self.table.probe(key).is_some_and(|e| valued(&e)) {
                self.value(&pos, depth, -INFINITY, INFINITY);
            }
            let Some(mv) = self.table.probe(key).and_then(|e| decode(e.best)) else { break };
            let Ok(next) = pos.clone().play(mv) else { break };
            line.push(mv);
            if mv != Move::Pass {
                depth -= 1;
            }
            pos = next;
        }
        line
    }
}

impl GenericSearcher {
    /// A searcher with a table of about `hash_mb` MiB.
    #[must_use]
    pub fn new(hash_mb: usize) -> GenericSearcher {
        GenericSearcher { table: Table::new(hash_mb), nodes: 0, hash_mb, narrow: None }
    }

    /// Forgets every stored position (the next search starts afresh).
    pub fn clear(&mut self) {
        self.table.clear();
        if let Some(table) = &mut self.narrow {
            table.clear();
        }
    }

    /// The fast path's search of `position` to the end within `share`, `None` when its rules
    /// (or a finished game) take the general search.
    fn fast(&mut self, position: &Position, share: Share) -> Option<Fast> {
        let (board, p, o) = narrow::Board::of(position)?;
        let mut exact = self.exact(board, share);
        let solved = exact.solve(p, o);
        Some(solved.map(|(value, line)| (value, line, exact.nodes)).ok_or(exact.nodes))
    }

    /// A fast-path search of `board`'s positions within `share`, on the fast path's table (made
    /// on first use).
    fn exact(&mut self, board: narrow::Board, share: Share) -> narrow::Exact<'_> {
        let hash_mb = self.hash_mb;
        let table = self.narrow.get_or_insert_with(|| narrow::Table::new(hash_mb));
        narrow::Exact::new(board, table, share.nodes, share.deadline)
    }

    /// The value of playing `mv` (leading to `child`) by the fast path, as
    /// [`GenericSearcher::search_moves_with`] gives it at `depth`, when the child is searched to
    /// the end there; the rules must be the fast path's (a finished child is scored as it
    /// stands).
    fn fast_child(&mut self, mv: Move, child: &Position, depth: u32, share: Share) -> Option<Result<Estimate, u64>> {
        let child_depth = if mv == Move::Pass { depth } else { depth - 1 };
        if child_depth < child.empties() {
            return None;
        }
        let found = match child.outcome() {
            Some(outcome) => Ok((outcome.score(child.side_to_move()), Vec::new(), 1)),
            None => self.fast(child, share)?,
        };
        Some(found.map(|(value, line, nodes)| {
            let score = -value;
            let pv = std::iter::once(mv).chain(line).collect();
            Estimate { score, units: score * SCALE, exact: true, depth, best: Some(mv), pv, nodes }
        }))
    }

    /// Positions searched by the last call.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The state of one call on `position`, within `limits` counted from `started`, `spent`
    /// positions already searched by the fast path.
    fn run(&mut self, position: &Position, limits: Limits, started: Instant, spent: u64) -> Run<'_> {
        let mut h = DefaultHasher::new();
        position.rules().to_string().hash(&mut h);
        Run {
            table: &mut self.table,
            eval: GenericEval::new(position.rules()),
            salt: h.finish(),
            nodes: spent,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            deadline: limits.time.map(|t| started + t),
            stopped: false,
            narrow: narrow::Board::of(position).map(|(board, ..)| narrow::Evaluation::new(board, position.rules())),
        }
    }

    /// Searches `position` `depth` placements ahead, deepening one at a time (each iteration in
    /// a window of two discs around the last value, widened on the side that fails); when the
    /// depth reaches the end of the game the value is exact. A node or time limit ends the search
    /// with the last finished depth (depth 1 always finishes, whatever the limits: an estimate
    /// rather than none); [`Limits::deepening_nodes`] ends it before a depth it cannot afford.
    ///
    /// A search to the end that the fast path can take (see [`GenericSearcher`]) goes there
    /// directly, with half of any budget; if that stops it, the deepening search above runs
    /// within what is left, to one depth short of the end at most, and then the fast path again
    /// with whatever remains (its table keeps what the first try found).
    ///
    /// # Errors
    /// [`SolveError::TooManyEmpties`] over [`Limits::empties`]; [`SolveError::Stopped`].
    pub fn search_with(&mut self, position: &Position, depth: u32, limits: Limits) -> Result<Estimate, SolveError> {
        let empties = admit(position, limits)?;
        let started = Instant::now();
        let mut spent = 0;
        if depth >= empties {
            match self.fast(position, Share::of(limits, started)) {
                Some(Ok((score, pv, nodes))) => {
                    self.nodes = nodes;
                    return Ok(solved(score, pv, empties, nodes));
                }
                Some(Err(nodes)) => spent = nodes,
                None => {}
            }
        }
        let mut run = self.run(position, limits, started, spent);
        // Where the fast path could not finish the exact search, the deepening search stops a
        // depth short of it, and the fast path tries again with what is left.
        let retry = run.narrow.is_some() && depth >= empties;
        let deepest = if retry { empties - 1 } else { depth.min(empties) };
        // The last finished depth, its value and its line (read from the table as it stands
        // then, before a deeper iteration the limits may stop overwrites it).
        let mut done: Option<(u32, i32, Vec<Move>)> = None;
        // The positions searched for the last depth and the one before.
        let (mut last, mut before) = (0, 0);
        for d in 1..=deepest.max(1) {
            if done.is_some() && !limits.may_deepen(run.nodes, last, before) {
                break;
            }
            let start = run.nodes;
            // Depth 1 runs free of the limits, which hold again from depth 2.
            let limits_held = (run.node_limit, run.deadline);
            if d == 1 {
                (run.node_limit, run.deadline) = (u64::MAX, None);
            }
            let value = match &done {
                Some((_, guess, _)) => around(*guess, |low, high| (run.value(position, d, low, high), run.stopped)),
                None => run.value(position, d, -INFINITY, INFINITY),
            };
            (run.node_limit, run.deadline) = limits_held;
            if run.stopped {
                break;
            }
            let line = run.principal_line(position, d);
            done = Some((d, value, line));
            (last, before) = (run.nodes - start, last);
        }
        let Some((depth, units, line)) = done else {
            self.nodes = run.nodes;
            return Err(SolveError::Stopped { nodes: self.nodes });
        };
        let exact = depth >= empties || position.is_game_over();
        // A search stopped by a limit gives the last finished iteration's line.
        let stopped = run.stopped;
        let pv = if stopped { line } else { run.principal_line(position, if exact { TO_THE_END } else { depth }) };
        let mut nodes = run.nodes;
        if retry && !stopped {
            // The fast path's table still holds what its first try found.
            let budget = [limits.nodes, limits.deepening_nodes].into_iter().flatten().min();
            let left = Share {
                nodes: budget.map_or(u64::MAX, |n| n.saturating_sub(nodes)),
                deadline: limits.time.map(|t| started + t),
            };
            match self.fast(position, left) {
                Some(Ok((score, pv, more))) => {
                    self.nodes = nodes + more;
                    return Ok(solved(score, pv, empties, self.nodes));
                }
                Some(Err(more)) => nodes += more,
                None => {}
            }
        }
        self.nodes = nodes;
        Ok(Estimate { score: to_discs(units), units, exact, depth, best: pv.first().copied(), pv, nodes })
    }

    /// The final margin of `position` for the side to move under perfect play: the search to
    /// the end of the game, exact ([`Estimate::exact`]) unless a node or time limit stopped it,
    /// when it is the last finished depth's estimate, as [`GenericSearcher::search_with`] gives
    /// (the 8x8 [`Solver::solve_with`](crate::engine::solve::Solver::solve_with) answers
    /// [`SolveError::Stopped`] there instead): check `exact`.
    ///
    /// # Errors
    /// As [`GenericSearcher::search_with`].
    pub fn solve_with(&mut self, position: &Position, limits: Limits) -> Result<Estimate, SolveError> {
        self.search_with(position, position.empties(), limits)
    }

    /// The value of playing `mv`, searched `depth` placements ahead (the move counting as one
    /// when it is a placement).
    ///
    /// # Errors
    /// [`SolveError::IllegalMove`], and as [`GenericSearcher::search_with`].
    pub fn search_move_with(
        &mut self,
        position: &Position,
        mv: Move,
        depth: u32,
        limits: Limits,
    ) -> Result<Estimate, SolveError> {
        let child = position.clone().play(mv).map_err(|_| SolveError::IllegalMove(mv))?;
        admit(position, limits)?;
        let (started, depth) = (Instant::now(), depth.max(1));
        let mut spent = 0;
        let fast =
            narrow::Board::of(position).and_then(|_| self.fast_child(mv, &child, depth, Share::of(limits, started)));
        match fast {
            Some(Ok(found)) => {
                self.nodes = found.nodes;
                return Ok(found);
            }
            Some(Err(nodes)) => spent = nodes,
            None => {}
        }
        let mut run = self.run(position, limits, started, spent);
        let mut found = search_child(&mut run, mv, &child, depth);
        found.nodes += spent;
        let stopped = run.stopped;
        self.nodes = found.nodes;
        if stopped {
            return Err(SolveError::Stopped { nodes: self.nodes });
        }
        Ok(found)
    }

    /// Every legal move's value `depth` placements ahead (the move counting as one), best first
    /// (equal values in the order of the legal moves), within `limits` shared by the moves.
    ///
    /// Without a node, time or deepening budget the moves are searched at `depth` at once.
    /// With one, all the moves are searched one depth after another (1, 2, ... up to `depth`),
    /// and a limit reached gives every move's value at the last depth finished for all of them,
    /// as [`GenericSearcher::search_with`] does for the position (depth 1 always finishes);
    /// each [`Estimate::depth`] says how deep. Searches to the end go to the fast path first,
    /// as in [`GenericSearcher::search_with`].
    ///
    /// # Errors
    /// As [`GenericSearcher::search_with`].
    pub fn search_moves_with(
        &mut self,
        position: &Position,
        depth: u32,
        limits: Limits,
    ) -> Result<Vec<(Move, Estimate)>, SolveError> {
        admit(position, limits)?;
        let children: Vec<(Move, Position)> = position
            .legal_moves()
            .into_iter()
            .map(|mv| (mv, position.clone().play(mv).expect("a legal move plays")))
            .collect();
        let depth = depth.max(1);
        // Deeper than the end of the game, every move's search is the same exact one.
        let deepest = depth.min(position.empties()).max(1);
        let started = Instant::now();
        let share = Share::of(limits, started);
        let mut spent = 0;
        let mut fast = Vec::with_capacity(children.len());
        let narrow = narrow::Board::of(position).is_some();
        for (mv, child) in children.iter().filter(|_| narrow) {
            // The moves share the budget.
            let left = Share { nodes: share.nodes.saturating_sub(spent), ..share };
            match self.fast_child(*mv, child, deepest, left) {
                Some(Ok(found)) => {
                    spent += found.nodes;
                    fast.push((*mv, found));
                }
                Some(Err(nodes)) => {
                    spent += nodes;
                    break;
                }
                None => break,
            }
        }
        if narrow && fast.len() == children.len() {
            fast.sort_by_key(|(_, e)| std::cmp::Reverse(e.units));
            self.nodes = spent;
            return Ok(fast);
        }
        let mut run = self.run(position, limits, started, spent);
        // As in `search_with`: a depth short of the end where the fast path did not finish.
        let deepest = if narrow && deepest >= position.empties() { deepest - 1 } else { deepest }.max(1);
        let budgeted = limits.budgeted();
        let mut done: Option<Vec<(Move, Estimate)>> = None;
        // The positions searched for the last depth and the one before.
        let (mut last, mut before) = (0, 0);
        for d in if budgeted { 1 } else { deepest }..=deepest {
            if done.is_some() && !limits.may_deepen(run.nodes, last, before) {
                break;
            }
            let start = run.nodes;
            // Depth 1 runs free of the limits, which hold again from depth 2.
            let limits_held = (run.node_limit, run.deadline);
            if budgeted && d == 1 {
                (run.node_limit, run.deadline) = (u64::MAX, None);
            }
            let mut out = Vec::with_capacity(children.len());
            for (mv, child) in &children {
                let found = search_child(&mut run, *mv, child, d);
                if run.stopped {
                    break;
                }
                out.push((*mv, found));
            }
            (run.node_limit, run.deadline) = limits_held;
            if run.stopped {
                break;
            }
            out.sort_by_key(|(_, e)| std::cmp::Reverse(e.units));
            done = Some(out);
            (last, before) = (run.nodes - start, last);
        }
        self.nodes = run.nodes;
        done.ok_or(SolveError::Stopped { nodes: self.nodes })
    }

    /// Whether playing `mv` gives the side to move a final margin of at least `bound` under
    /// perfect play (a null-window search to the end).
    ///
    /// # Errors
    /// [`SolveError::IllegalMove`]; [`SolveError::Stopped`].
    pub fn move_reaches(
        &mut self,
        position: &Position,
        mv: Move,
        bound: i32,
        limits: Limits,
    ) -> Result<bool, SolveError> {
        let child = position.clone().play(mv).map_err(|_| SolveError::IllegalMove(mv))?;
        admit(position, limits)?;
        if let Some((board, p, o)) = narrow::Board::of(&child) {
            // All of the limits: the general search could not do better with what is left.
            let all =
                Share { nodes: limits.nodes.unwrap_or(u64::MAX), deadline: limits.time.map(|t| Instant::now() + t) };
            let mut exact = self.exact(board, all);
            // The child reaches at most -bound for its side to move.
            let reached = exact.reaches(p, o, -bound + 1).map(|beyond| !beyond);
            self.nodes = exact.nodes;
            return reached.ok_or(SolveError::Stopped { nodes: self.nodes });
        }
        let mut run = self.run(position, limits, Instant::now(), 0);
        let value = -run.search(&child, TO_THE_END, -bound * SCALE, -bound * SCALE + 1);
        let stopped = run.stopped;
        self.nodes = run.nodes;
        if stopped {
            return Err(SolveError::Stopped { nodes: self.nodes });
        }
        Ok(value >= bound * SCALE)
    }
}

/// The exact estimate of a position with `empties` empty cells whose value is `score` discs,
/// reached by `pv`, found in `nodes` positions.
fn solved(score: i32, pv: Vec<Move>, empties: u32, nodes: u64) -> Estimate {
    Estimate { score, units: score * SCALE, exact: true, depth: empties, best: pv.first().copied(), pv, nodes }
}

/// The empty cells of `position`, or the error of a position with more than
/// [`Limits::empties`].
fn admit(position: &Position, limits: Limits) -> Result<u32, SolveError> {
    let empties = position.empties();
    match limits.empties.filter(|&l| empties > l) {
        Some(limit) => Err(SolveError::TooManyEmpties { empties, limit }),
        None => Ok(empties),
    }
}

/// One move's value `depth` placements ahead, from the position it leads to.
fn search_child(run: &mut Run<'_>, mv: Move, child: &Position, depth: u32) -> Estimate {
    let start = run.nodes;
    let child_depth = if mv == Move::Pass { depth } else { depth - 1 };
    let exact = child_depth >= child.empties();
    let units = -run.value(child, child_depth, -INFINITY, INFINITY);
    let mut pv = vec![mv];
    pv.extend(run.principal_line(child, if exact { TO_THE_END } else { child_depth }));
    Estimate { score: to_discs(units), units, exact, depth, best: Some(mv), pv, nodes: run.nodes - start }
}

/// The generic searcher as an [`Analyst`] for [`crate::engine::analysis::analyse`]: exact at
/// [`Settings::exact_empties`] or fewer empty cells, searched [`Settings::depth`] ahead before.
pub struct GenericAnalyst<'a> {
    /// The searcher (its table is kept from one position to the next).
    pub searcher: &'a mut GenericSearcher,
    /// How to search.
    pub settings: Settings,
}

impl Analyst for GenericAnalyst<'_> {
    fn exact_at(&self, position: &Position) -> bool {
        position.empties() <= self.settings.exact_empties
    }

    fn position(&mut self, position: &Position) -> Result<Found, SolveError> {
        let exact = self.exact_at(position);
        let e = if exact {
            self.searcher.solve_with(position, Limits::default())?
        } else {
            self.searcher.search_with(position, self.settings.depth, self.settings.limits())?
        };
        Ok(Found { best: e.best, score: e.score, exact: e.exact, depth: e.depth, nodes: e.nodes })
    }

    fn reaches(&mut self, position: &Position, mv: Move, bound: i32) -> Result<bool, SolveError> {
        self.searcher.move_reaches(position, mv, bound, Limits::default())
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::core::{Rules, splitmix64};

    /// Plain minimax over the general rules: the slow twin.
    pub(in crate::engine::generic) fn minimax(pos: &Position) -> i32 {
        if let Some(outcome) = pos.outcome() {
            return outcome.score(pos.side_to_move());
        }
        pos.legal_moves().into_iter().map(|mv| -minimax(&pos.clone().play(mv).unwrap())).max().unwrap()
    }

    /// Plain negamax on the evaluation, `depth` placements ahead.
    fn negamax(pos: &Position, eval: &GenericEval, depth: u32) -> i32 {
        if let Some(outcome) = pos.outcome() {
            return outcome.score(pos.side_to_move()) * SCALE;
        }
        if depth == 0 {
            return eval.evaluate(pos);
        }
        pos.legal_moves()
            .into_iter()
            .map(|mv| -negamax(&pos.clone().play(mv).unwrap(), eval, if mv == Move::Pass { depth } else { depth - 1 }))
            .max()
            .unwrap()
    }

    /// A position of `spec` with `empties` empty cells (or over), after random placements from
    /// the start (a pass only when forced).
    pub(in crate::engine::generic) fn random_position(spec: &str, seed: u64, empties: u32) -> Position {
        let mut pos = Position::start(spec.parse::<Rules>().unwrap().shared());
        let mut s = seed;
        while pos.empties() > empties && !pos.is_game_over() {
            // Placements only, unless a pass is forced.
            let mut moves = pos.legal_moves();
            if moves.len() > 1 {
                moves.retain(|&m| m != Move::Pass);
            }
            s = splitmix64(s);
            pos.play_mut(moves[(s % moves.len() as u64) as usize]).unwrap();
        }
        pos
    }

    const SPECS: [&str; 8] = [
        "othello,size=4",
        "othello,size=6",
        "anti,size=6",
        "othello,size=6,holes=b2/e5",
        "othello,size=6,shape=8stars",
        "othello,size=6,pass=voluntary",
        "reversi-1880,size=6",
        "italian,size=6",
    ];

    #[test]
    fn a_search_to_the_end_equals_minimax() {
        for spec in SPECS {
            for seed in 0..6 {
                let pos = random_position(spec, seed, 8);
                let exact = minimax(&pos);
                let mut searcher = GenericSearcher::new(1);
                let found = searcher.search_with(&pos, 20, Limits::default()).unwrap();
                assert!(found.exact, "{spec} seed {seed}");
                assert_eq!(found.score, exact, "{spec} seed {seed}");
                assert_eq!(found.units, exact * SCALE);
                // Every move's value, and the line ends where the score says.
                for (mv, e) in searcher.search_moves_with(&pos, 20, Limits::default()).unwrap() {
                    assert_eq!(e.score, -minimax(&pos.clone().play(mv).unwrap()), "{spec} seed {seed} {mv}");
                    assert!(e.exact);
                }
                let mut end = pos.clone();
                for mv in &found.pv {
                    end = end.play(*mv).unwrap();
                }
                if !pos.is_game_over() {
                    assert!(end.is_game_over(), "{spec} seed {seed}: pv {:?} from {pos:?} to {end:?}", found.pv);
                    assert_eq!(end.score().score(pos.side_to_move()), exact, "{spec} seed {seed}");
                }
            }
        }
    }

    #[test]
    fn a_line_from_an_iterative_search_reaches_its_score() {
        // Early positions of small boards: the deepening search leaves shallower values in the
        // table, and the line must follow the moves of the search to the end.
        for spec in ["brainking,size=4", "othello,size=4", "anti,size=4", "othello,size=4,start=empty"] {
            // One searcher for all: the table keeps other positions' values between solves.
            let mut searcher = GenericSearcher::new(1);
            for seed in 0..12 {
                let pos = random_position(spec, seed, 15);
                let found = searcher.solve_with(&pos, Limits::default()).unwrap();
                assert_eq!(found.score, minimax(&pos), "{spec} seed {seed}");
                let mut end = pos.clone();
                for mv in &found.pv {
                    end = end.play(*mv).unwrap();
                }
                let reached = end.outcome().map(|o| o.score(pos.side_to_move()));
                assert_eq!(reached, Some(found.score), "{spec} seed {seed}: pv {:?}", found.pv);
            }
        }
    }

    #[test]
    fn the_fast_path_equals_the_general_search_to_the_end() {
        // Rules the fast path takes; the general search is reached through `Run` directly.
        for spec in ["othello,size=6", "anti,size=6", "othello,holes=d3/e6", "8stars,size=8", "ravensburger,size=6"] {
            for seed in 0..4 {
                let pos = random_position(spec, seed, 12);
                if pos.is_game_over() {
                    continue;
                }
                assert!(super::narrow::Board::of(&pos).is_some(), "{spec}");
                let mut searcher = GenericSearcher::new(1);
                let mut general = |p: &Position| {
                    let mut run = searcher.run(p, Limits::default(), Instant::now(), 0);
                    run.search(p, TO_THE_END, -INFINITY, INFINITY)
                };
                let value = general(&pos);
                let children: Vec<(Move, i32)> =
                    pos.legal_moves().into_iter().map(|mv| (mv, -general(&pos.clone().play(mv).unwrap()))).collect();
                let found = searcher.solve_with(&pos, Limits::default()).unwrap();
                assert_eq!((found.units, found.exact, found.depth), (value, true, 12), "{spec} seed {seed}");
                let mut end = pos.clone();
                for mv in &found.pv {
                    end = end.play(*mv).unwrap();
                }
                assert_eq!(
                    end.outcome().map(|o| o.score(pos.side_to_move()) * SCALE),
                    Some(value),
                    "{spec} seed {seed}"
                );
                let moves = searcher.search_moves_with(&pos, 12, Limits::default()).unwrap();
                assert_eq!(moves.len(), children.len());
                for (mv, e) in moves {
                    let (_, want) = children.iter().find(|(m, _)| *m == mv).unwrap();
                    assert_eq!((e.units, e.exact, e.pv[0]), (*want, true, mv), "{spec} seed {seed} {mv}");
                    let alone = searcher.search_move_with(&pos, mv, 12, Limits::default()).unwrap();
                    assert_eq!(alone.units, *want, "{spec} seed {seed} {mv}");
                    let bound = want / SCALE;
                    assert!(searcher.move_reaches(&pos, mv, bound, Limits::default()).unwrap());
                    assert!(!searcher.move_reaches(&pos, mv, bound + 1, Limits::default()).unwrap());
                }
            }
        }
    }

    #[test]
    fn the_fast_path_short_of_the_end_equals_the_general_search() {
        for spec in
            ["othello,size=6", "anti,size=6", "othello,holes=d3/e6", "8stars,size=8", "othello,size=6,first=white"]
        {
            for seed in 0..3 {
                let pos = random_position(spec, seed, 20);
                for depth in [1, 4, 7] {
                    let fast = GenericSearcher::new(1).search_with(&pos, depth, Limits::default()).unwrap();
                    let mut searcher = GenericSearcher::new(1);
                    let mut run = searcher.run(&pos, Limits::default(), Instant::now(), 0);
                    assert!(run.narrow.is_some(), "{spec}");
                    run.narrow = None;
                    let general = run.search(&pos, depth, -INFINITY, INFINITY);
                    assert_eq!((fast.units, fast.exact, fast.depth), (general, false, depth), "{spec} seed {seed}");
                    // The line is legal and `depth` placements long.
                    let mut end = pos.clone();
                    for mv in &fast.pv {
                        end = end.play(*mv).unwrap();
                    }
                    assert_eq!(pos.empties() - end.empties(), depth, "{spec} seed {seed}: {:?}", fast.pv);
                }
                // Near the end, where passes come: the line goes on through them.
                let near = random_position(spec, seed + 10, 9);
                let found = GenericSearcher::new(1).search_with(&near, 6, Limits::default()).unwrap();
                let mut end = near.clone();
                for mv in &found.pv {
                    end = end.play(*mv).unwrap();
                }
                assert!(
                    end.is_game_over() || near.empties() - end.empties() == 6,
                    "{spec} seed {seed}: {:?}",
                    found.pv
                );
            }
        }
    }

    #[test]
    fn the_same_discs_under_other_rules_are_searched_afresh() {
        use crate::core::{Color, Setup};
        let pos = random_position("othello,size=6", 5, 12);
        let setup = |color: Color| pos.discs_of(color).squares().collect::<Vec<_>>();
        let setup = Setup { black: setup(Color::Black), white: setup(Color::White), side: pos.side_to_move() };
        // A hole on an empty cell, other scorings: the same discs, other values.
        let hole = pos.rules().playable().squares().find(|&sq| pos.disc(sq).is_none()).unwrap();
        let hole = format!("othello,size=6,holes={}", pos.rules().square_name(hole));
        let mut searcher = GenericSearcher::new(1);
        for spec in ["othello,size=6", "anti,size=6", "othello,size=6,scoring=plain", &hole, "othello,size=6"] {
            let other = Position::from_setup(spec.parse::<Rules>().unwrap().shared(), &setup).unwrap();
            let fresh = GenericSearcher::new(1).solve_with(&other, Limits::default()).unwrap();
            let kept = searcher.solve_with(&other, Limits::default()).unwrap();
            assert_eq!((kept.units, &kept.pv), (fresh.units, &fresh.pv), "{spec}");
            let moves = searcher.search_moves_with(&other, 12, Limits::default()).unwrap();
            assert_eq!(moves[0].1.units, fresh.units, "{spec}");
        }
    }

    #[test]
    fn a_fast_search_stopped_by_a_budget_leaves_the_rest_to_the_deepening_search() {
        let pos = random_position("othello,size=6", 3, 24);
        let mut searcher = GenericSearcher::new(1);
        for limits in [
            Limits { nodes: Some(20_000), ..Limits::default() },
            Limits { deepening_nodes: Some(20_000), ..Limits::default() },
        ] {
            let found = searcher.solve_with(&pos, limits).unwrap();
            assert!(!found.exact && found.depth >= 1 && found.depth < 24, "{found:?}");
            // The budget covers both searches (a limit is checked every few thousand nodes).
            assert!(found.nodes < 40_000, "{found:?}");
            let moves = searcher.search_moves_with(&pos, 24, limits).unwrap();
            assert_eq!(moves.len(), pos.legal_moves().len());
            assert!(moves.iter().all(|(_, e)| !e.exact && e.depth == moves[0].1.depth), "{moves:?}");
        }
        // A budget the fast path needs only part of gives the exact value.
        let near = random_position("othello,size=6", 3, 10);
        let exact = searcher.solve_with(&near, Limits::default()).unwrap();
        let budgeted = searcher.solve_with(&near, Limits { nodes: Some(10_000_000), ..Limits::default() }).unwrap();
        assert!(budgeted.exact);
        assert_eq!(budgeted.units, exact.units);
    }

    #[test]
    fn a_depth_limited_search_equals_negamax_on_the_evaluation() {
        for spec in ["othello,size=6", "anti,size=6", "grand", "8stars"] {
            for seed in 0..4 {
                let pos = random_position(spec, seed, if spec.ends_with("6") { 24 } else { 80 });
                let eval = GenericEval::new(pos.rules());
                for depth in 1..=3 {
                    let found = GenericSearcher::new(1).search_with(&pos, depth, Limits::default()).unwrap();
                    assert_eq!(found.units, negamax(&pos, &eval, depth), "{spec} seed {seed} depth {depth}");
                    assert!(!found.exact);
                    assert_eq!(found.depth, depth);
                }
            }
        }
    }

    #[test]
    fn the_only_move_test_and_limits() {
        let pos = random_position("othello,size=6", 7, 10);
        let mut searcher = GenericSearcher::new(1);
        let exact = searcher.solve_with(&pos, Limits::default()).unwrap().score;
        let best = searcher.search_moves_with(&pos, 10, Limits::default()).unwrap()[0].0;
        assert!(searcher.move_reaches(&pos, best, exact, Limits::default()).unwrap());
        assert!(!searcher.move_reaches(&pos, best, exact + 1, Limits::default()).unwrap());
        let limits = Limits { empties: Some(8), ..Limits::default() };
        assert_eq!(searcher.search_with(&pos, 4, limits), Err(SolveError::TooManyEmpties { empties: 10, limit: 8 }));
        let pos = random_position("grand", 1, 80);
        let limits = Limits { nodes: Some(100), ..Limits::default() };
        let stopped = searcher.search_with(&pos, 12, limits).unwrap();
        assert!(stopped.depth < 12 && stopped.pv.len() as u32 == stopped.depth, "{stopped:?}");
        // Every move at the last depth finished for all of them.
        let moves = searcher.search_moves_with(&pos, 12, limits).unwrap();
        assert_eq!(moves.len(), pos.legal_moves().len());
        let depth = moves[0].1.depth;
        assert!(depth < 12 && moves.iter().all(|(_, e)| e.depth == depth && !e.exact), "{moves:?}");
        let budget = Limits { deepening_nodes: Some(20_000), ..Limits::default() };
        let moves = searcher.search_moves_with(&pos, 12, budget).unwrap();
        assert!(moves.iter().all(|(_, e)| e.depth == moves[0].1.depth && e.depth > depth), "{moves:?}");
    }
}
