//! An exact endgame solver for 8x8 positions.
//!
//! Principal-variation search at the root and along the principal line, null-window search
//! everywhere else, over bitboards:
//! - a lock-free transposition table shared by every thread and kept across calls, with
//!   enhanced transposition cut-offs;
//! - stability cut-offs (the opponent's stable discs bound the score);
//! - fastest-first move ordering: fewest and weakest replies for the opponent, least potential
//!   mobility, corners first, the table's move before all;
//! - no table and quadrant-parity ordering near the end, with the last four empty squares
//!   played out without move generation;
//! - young-brothers-wait parallelism: with more than one thread, the moves after the first at
//!   nodes far from the end are searched in parallel (rayon); the scores are exact whatever the
//!   thread count.
//!
//! Scores are the final disc margin from the side to move, with the empty squares going to the
//! winner (the official rule), or plain disc counts when asked.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::eval::{Evaluator, SCALE};
use super::stability::stable_discs;
use super::table::{Entry, NO_MOVE, Table};
use crate::core::bitboard::{Bitboard, Bits, flips, legal_moves};
use crate::core::{Color, Move, Position, Scoring, Square};

/// The solver's answer for a position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Solution {
    /// The exact final margin for the side to move under perfect play (with
    /// [`Target::WinLossDraw`]: 1, 0 or -1).
    pub score: i32,
    /// The best move (a pass when the side to move must pass; none when the game is over).
    pub best: Option<Move>,
    /// The principal variation, from the transposition table (exact searches only).
    pub pv: Vec<Move>,
    /// Positions searched.
    pub nodes: u64,
}

/// How final positions are scored.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Counting {
    /// Empty squares go to the winner (the official rule).
    #[default]
    EmptiesToWinner,
    /// Plain disc difference.
    Plain,
}

/// What a search establishes.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Target {
    /// The exact final margin.
    #[default]
    Exact,
    /// Only whether the side to move wins, draws or loses (faster).
    WinLossDraw,
}

/// Bounds on one search; a search that reaches one stops with [`SolveError::Stopped`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Stop after about this many positions.
    pub nodes: Option<u64>,
    /// Stop after about this long.
    pub time: Option<Duration>,
    /// Decline positions with more empty squares than this.
    pub empties: Option<u32>,
}

/// Why a search gave no answer.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum SolveError {
    /// The position is not standard 8x8 Othello.
    #[error("the solver plays standard 8x8 Othello only")]
    Unsupported,
    /// The position has more empty squares than [`Limits::empties`] allows.
    #[error("{empties} empty squares is more than the limit of {limit}")]
    TooManyEmpties {
        /// The position's empty squares.
        empties: u32,
        /// The limit.
        limit: u32,
    },
    /// A node or time limit ended the search first.
    #[error("stopped by a limit after {nodes} nodes")]
    Stopped {
        /// Positions searched before stopping.
        nodes: u64,
    },
}

/// An exact solver: its transposition table (kept between calls), threads and scoring.
pub struct Solver {
    table: Table,
    counting: Counting,
    threads: usize,
    generation: u8,
    nodes: u64,
}

const CORNERS: u64 = 0x8100_0000_0000_0081;
/// Empties at and below which the search drops the table and orders by parity only.
const SHALLOW: u32 = 6;
/// Empties from which a node looks its children up in the table before searching them
/// (enhanced transposition cut-offs).
const ETC_FROM: u32 = 10;
/// Empties from which the evaluation of each child joins the ordering.
const EVAL_ORDER_FROM: u32 = 12;
/// Empties from which that evaluation looks one move ahead.
const EVAL1_FROM: u32 = 14;
/// Empties from which it looks two moves ahead.
const EVAL2_FROM: u32 = 18;
/// Depth of the estimate the root's first window is centred on.
const ASPIRATION_DEPTH: u32 = 4;
/// Half-width of that window, in discs.
const ASPIRATION: i32 = 3;
/// Evaluation units per ordering-key unit.
const EVAL_DIV: i32 = 2;
/// Empties from which a null-window node checks the opponent's stable discs.
const STABILITY_FROM: u32 = 8;
/// Empties from which nodes split their moves between threads.
const SPLIT_FROM: u32 = 16;
/// Empties from which a node under a parallel split checks whether the split was cut.
const CUT_CHECK_FROM: u32 = 10;
/// The four quadrants, for parity.
const QUADRANTS: [u64; 4] =
    [0x0000_0000_0F0F_0F0F, 0x0000_0000_F0F0_F0F0, 0x0F0F_0F0F_0000_0000, 0xF0F0_F0F0_0000_0000];

impl Solver {
    /// A single-threaded solver with a table of about `hash_mb` MiB.
    #[must_use]
    pub fn new(hash_mb: usize, counting: Counting) -> Solver {
        Solver { table: Table::new(hash_mb), counting, threads: 1, generation: 0, nodes: 0 }
    }

    /// Searches with `threads` threads (rayon's global pool, or the pool the call runs in).
    #[must_use]
    pub fn with_threads(mut self, threads: usize) -> Solver {
        self.threads = threads.max(1);
        self
    }

    /// How this solver scores final positions.
    #[must_use]
    pub fn counting(&self) -> Counting {
        self.counting
    }

    /// Forgets every stored position (the next search starts afresh).
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// The scoring a position's rules call for, when the solver can play them (standard 8x8
    /// Othello captures and forced passes; either scoring).
    #[must_use]
    pub fn counting_for(position: &Position) -> Option<Counting> {
        let v = position.rules().variant();
        let standard = crate::core::Variant { scoring: v.scoring, ties: v.ties, ..crate::core::Variant::default() };
        if *v != standard {
            return None;
        }
        match v.scoring {
            Scoring::EmptiesToWinner => Some(Counting::EmptiesToWinner),
            Scoring::Plain => Some(Counting::Plain),
            Scoring::Anti => None,
        }
    }

    /// Solves a position of standard 8x8 Othello exactly, without limits; `None` for other
    /// rules or boards.
    pub fn solve(&mut self, position: &Position) -> Option<Solution> {
        self.solve_with(position, Target::Exact, Limits::default()).ok()
    }

    /// Solves a position for `target` within `limits`.
    pub fn solve_with(&mut self, position: &Position, target: Target, limits: Limits) -> Result<Solution, SolveError> {
        let (p, o) = self.sides(position, limits)?;
        let (alpha, beta) = match target {
            Target::Exact => (-64, 64),
            Target::WinLossDraw => (-1, 1),
        };
        let stop = Stop::new(limits);
        let (score, nodes) = self.run(&stop, |s| s.aspiration(p, o, alpha, beta));
        self.nodes = nodes;
        if stop.hit() {
            return Err(SolveError::Stopped { nodes });
        }
        let pv = self.principal_variation(p, o, target, &stop);
        if stop.hit() {
            return Err(SolveError::Stopped { nodes: self.nodes });
        }
        let score = if target == Target::WinLossDraw { score.signum() } else { score };
        Ok(Solution { score, best: pv.first().copied(), pv, nodes: self.nodes })
    }

    /// Solves every legal move of a position: the move and its exact score for the side to
    /// move, best first (ties keep board order).
    pub fn solve_moves(&mut self, position: &Position) -> Option<Vec<(Move, i32)>> {
        self.solve_moves_with(position, Limits::default()).ok()
    }

    /// [`Solver::solve_moves`] within `limits` (shared by all the moves).
    pub fn solve_moves_with(&mut self, position: &Position, limits: Limits) -> Result<Vec<(Move, i32)>, SolveError> {
        let (p, o) = self.sides(position, limits)?;
        let stop = Stop::new(limits);
        let mut moves = legal_moves(p, o);
        let mut out = Vec::new();
        let mut nodes = 0;
        if moves == 0 && legal_moves(o, p) != 0 {
            let (score, n) = self.run(&stop, |s| -s.pvs(o, p, -64, 64, true));
            out.push((Move::Pass, score));
            nodes += n;
        }
        while moves != 0 {
            let sq = moves.trailing_zeros();
            moves &= moves - 1;
            let f = flips(sq, p, o);
            let (score, n) = self.run(&stop, |s| -s.pvs(o & !f, p | f | (1 << sq), -64, 64, false));
            out.push((Move::Place(Square::from_bit8(sq)), score));
            nodes += n;
        }
        self.nodes = nodes;
        if stop.hit() {
            return Err(SolveError::Stopped { nodes });
        }
        out.sort_by_key(|m| std::cmp::Reverse(m.1));
        Ok(out)
    }

    /// Positions searched by the last call.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The side to move's and the opponent's discs, when the solver can take the position.
    fn sides(&mut self, position: &Position, limits: Limits) -> Result<(u64, u64), SolveError> {
        let [black, white] = position.bitboards().ok_or(SolveError::Unsupported)?;
        if Solver::counting_for(position) != Some(self.counting) {
            return Err(SolveError::Unsupported);
        }
        let empties = position.empties();
        if let Some(limit) = limits.empties.filter(|&l| empties > l) {
            return Err(SolveError::TooManyEmpties { empties, limit });
        }
        self.generation = self.generation.wrapping_add(1);
        Ok(match position.side_to_move() {
            Color::Black => (black, white),
            Color::White => (white, black),
        })
    }

    /// Runs one search on this solver's table; returns its value and the positions searched.
    fn run(&self, stop: &Stop, f: impl FnOnce(&mut Search) -> i32) -> (i32, u64) {
        let mut search = Search {
            table: &self.table,
            eval: Evaluator::embedded(),
            counting: self.counting,
            generation: self.generation,
            parallel: self.threads > 1,
            nodes: 0,
            stop,
            cut: Vec::new(),
            aborted: false,
        };
        let score = f(&mut search);
        (score, search.nodes)
    }

    /// The moves the table holds as best from this position on, checked for legality and
    /// filled in by search where the table holds nothing (near the end).
    fn principal_variation(&mut self, mut p: u64, mut o: u64, target: Target, stop: &Stop) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut nodes = self.nodes;
        for _ in 0..64 {
            let moves = legal_moves(p, o);
            if moves == 0 {
                if legal_moves(o, p) == 0 {
                    break;
                }
                pv.push(Move::Pass);
                std::mem::swap(&mut p, &mut o);
                continue;
            }
            let known = self.table.probe(p, o).map(|e| e.best).filter(|&b| b != NO_MOVE && moves & (1u64 << b) != 0);
            let sq = match known {
                Some(b) if target == Target::Exact || pv.is_empty() => u32::from(b),
                _ if target == Target::WinLossDraw => break,
                _ => {
                    let (target_score, n) = self.run(stop, |s| s.pvs(p, o, -64, 64, false));
                    nodes += n;
                    let mut found = None;
                    for sq in Bits(moves) {
                        let f = flips(sq, p, o);
                        let (score, n) = self.run(stop, |s| -s.pvs(o & !f, p | f | (1 << sq), -64, 64, false));
                        nodes += n;
                        if score == target_score {
                            found = Some(sq);
                            break;
                        }
                    }
                    match found {
                        Some(sq) if !stop.hit() => sq,
                        _ => break,
                    }
                }
            };
            pv.push(Move::Place(Square::from_bit8(sq)));
            let f = flips(sq, p, o);
            (p, o) = (o & !f, p | f | (1 << sq));
            if target == Target::WinLossDraw {
                break;
            }
        }
        self.nodes = nodes;
        pv
    }
}

/// The limits of one call, shared by its threads.
struct Stop {
    flag: AtomicBool,
    nodes: AtomicU64,
    node_limit: u64,
    deadline: Option<Instant>,
}

impl Stop {
    fn new(limits: Limits) -> Stop {
        Stop {
            flag: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            deadline: limits.time.map(|t| Instant::now() + t),
        }
    }

    fn hit(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }

    /// Adds a thread's recent nodes and checks the limits.
    fn check(&self, recent: u64) -> bool {
        let total = self.nodes.fetch_add(recent, Ordering::Relaxed) + recent;
        if total >= self.node_limit || self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.flag.store(true, Ordering::Relaxed);
        }
        self.hit()
    }
}

/// How often (in nodes, a power of two) a thread reports to [`Stop`].
const POLL: u64 = 1 << 14;

/// One thread's search state.
struct Search<'a> {
    table: &'a Table,
    eval: &'static Evaluator,
    counting: Counting,
    generation: u8,
    parallel: bool,
    nodes: u64,
    stop: &'a Stop,
    /// Flags of the parallel splits this search works under: any set means its result is moot.
    cut: Vec<Arc<AtomicBool>>,
    /// Set once this search's result can no longer be trusted (a limit or a cut elsewhere).
    aborted: bool,
}

/// One move of a node, ready to search.
#[derive(Clone, Copy, Default)]
struct Child {
    key: i32,
    sq: u8,
    flipped: u64,
}

impl Search<'_> {
    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes & (POLL - 1) == 0 && (self.stop.check(POLL) || self.cut.iter().any(|c| c.load(Ordering::Relaxed)))
        {
            self.aborted = true;
        }
    }

    fn final_score(&self, p: u64, o: u64) -> i32 {
        let (mine, theirs) = (p.count_ones() as i32, o.count_ones() as i32);
        let diff = mine - theirs;
        if self.counting == Counting::Plain {
            return diff;
        }
        let empties = 64 - mine - theirs;
        match diff.cmp(&0) {
            std::cmp::Ordering::Greater => diff + empties,
            std::cmp::Ordering::Less => diff - empties,
            std::cmp::Ordering::Equal => 0,
        }
    }

    /// The moves of `p`, each with its flips and an ordering key (lower first); `None` when a
    /// child's table entry already refutes the node's `beta` (enhanced transposition cut-off),
    /// with that bound.
    fn order(&self, p: u64, o: u64, moves: u64, beta: i32, hash_move: u8, out: &mut [Child; 32]) -> Result<usize, i32> {
        let mut n = 0;
        let empties = 64 - (p | o).count_ones();
        let etc = empties >= ETC_FROM;
        let by_eval = empties >= EVAL_ORDER_FROM;
        for sq in Bits(moves) {
            let f = flips(sq, p, o);
            let (np, no) = (p | f | (1 << sq), o & !f);
            if etc
                && let Some(child) = self.table.probe(no, np)
                && -i32::from(child.upper) >= beta
            {
                return Err(-i32::from(child.upper));
            }
            let replies = legal_moves(no, np);
            let frontier = Bitboard(np).neighbours().0 & !(np | no);
            let mut key = (replies.count_ones() as i32) * 16
                + (replies & CORNERS).count_ones() as i32 * 32
                + frontier.count_ones() as i32 * 8;
            if (1u64 << sq) & CORNERS != 0 {
                key -= 40;
            }
            if by_eval {
                let depth = if empties >= EVAL2_FROM { 2 } else if empties >= EVAL1_FROM { 1 } else { 0 };
                key += self.estimate(no, np, depth, -SCALE * 64, SCALE * 64) / EVAL_DIV;
            }
            if sq as u8 == hash_move {
                key = -10_000;
            }
            out[n] = Child { key, sq: sq as u8, flipped: f };
            n += 1;
        }
        out[..n].sort_unstable_by_key(|c| c.key);
        Ok(n)
    }

    /// A quick estimate of the position for ordering: alpha-beta on the evaluation to `depth`
    /// moves, in evaluation units for the side to move.
    fn estimate(&self, p: u64, o: u64, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        if depth == 0 {
            return self.eval.evaluate(p, o);
        }
        let moves = legal_moves(p, o);
        if moves == 0 {
            if legal_moves(o, p) == 0 {
                return self.final_score(p, o) * SCALE;
            }
            return -self.estimate(o, p, depth, -beta, -alpha);
        }
        let mut best = -SCALE * 65;
        for sq in Bits(moves) {
            let f = flips(sq, p, o);
            let score = -self.estimate(o & !f, p | f | (1 << sq), depth - 1, -beta, -alpha);
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The value in (`alpha`, `beta`) by searches in a narrow window around an estimate,
    /// widened on the side that fails.
    fn aspiration(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
        let empties = 64 - (p | o).count_ones();
        if empties <= SHALLOW || beta - alpha <= 2 {
            return self.pvs(p, o, alpha, beta, false);
        }
        let guess = (self.estimate(p, o, ASPIRATION_DEPTH.min(empties), -SCALE * 64, SCALE * 64) / SCALE).clamp(alpha + 1, beta - 1);
        let (mut low, mut high) = ((guess - ASPIRATION).max(alpha), (guess + ASPIRATION).min(beta));
        loop {
            let score = self.pvs(p, o, low, high, false);
            if self.aborted {
                return score;
            }
            if score <= low && low > alpha {
                high = score + 1;
                low = (score - 4 * ASPIRATION).max(alpha);
            } else if score >= high && high < beta {
                low = score - 1;
                high = (score + 4 * ASPIRATION).min(beta);
            } else {
                return score;
            }
        }
    }

    /// Principal-variation search in the window (`alpha`, `beta`); `passed` says the opponent
    /// just passed.
    fn pvs(&mut self, p: u64, o: u64, mut alpha: i32, mut beta: i32, passed: bool) -> i32 {
        let empties = 64 - (p | o).count_ones();
        if empties <= SHALLOW || beta - alpha == 1 {
            // Null windows and the end: the fast path, widened by repeated probes if needed.
            if beta - alpha == 1 {
                return self.nws(p, o, alpha, passed);
            }
            return self.bounded(p, o, alpha, beta, passed);
        }
        self.count_node();
        let moves = legal_moves(p, o);
        if moves == 0 {
            if passed {
                return self.final_score(p, o);
            }
            return -self.pvs(o, p, -beta, -alpha, true);
        }
        let mut hash_move = NO_MOVE;
        if let Some(e) = self.table.probe(p, o) {
            let (lower, upper) = (i32::from(e.lower), i32::from(e.upper));
            if lower >= beta || lower == upper {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
            hash_move = e.best;
        }
        let original_alpha = alpha;
        let mut children = [Child::default(); 32];
        let n = match self.order(p, o, moves, beta, hash_move, &mut children) {
            Ok(n) => n,
            Err(bound) => return bound,
        };
        let mut best = -65;
        let mut best_move = NO_MOVE;
        for (i, c) in children[..n].iter().enumerate() {
            let (np, no) = (p | c.flipped | (1u64 << c.sq), o & !c.flipped);
            let score = if i == 0 {
                -self.pvs(no, np, -beta, -alpha, false)
            } else {
                let probe = -self.nws(no, np, -alpha - 1, false);
                if probe > alpha && probe < beta && !self.aborted {
                    -self.pvs(no, np, -beta, -probe, false)
                } else {
                    probe
                }
            };
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = c.sq;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.save(p, o, (original_alpha, beta), best, best_move, empties);
        best
    }

    /// The exact value in (`alpha`, `beta`) near the end, by null-window probes.
    fn bounded(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, passed: bool) -> i32 {
        // Each probe either fails low (the value is found) or raises alpha.
        loop {
            let score = self.nws(p, o, alpha, passed);
            if score <= alpha || score >= beta || self.aborted {
                return score;
            }
            alpha = score;
        }
    }

    fn save(&self, p: u64, o: u64, (alpha, beta): (i32, i32), best: i32, best_move: u8, empties: u32) {
        let (lower, upper) = if best <= alpha {
            (-64, best)
        } else if best >= beta {
            (best, 64)
        } else {
            (best, best)
        };
        let entry = Entry { lower: lower as i8, upper: upper as i8, best: best_move, empties: empties as u8 };
        self.table.store(p, o, entry, self.generation);
    }

    /// Null-window search: is the value above `alpha`? Returns a bound on the wrong side of the
    /// window or the value itself.
    fn nws(&mut self, p: u64, o: u64, alpha: i32, passed: bool) -> i32 {
        let empties = 64 - (p | o).count_ones();
        if empties <= SHALLOW {
            return self.nws_shallow(p, o, alpha, empties, passed);
        }
        self.count_node();
        if empties >= CUT_CHECK_FROM && self.cut.iter().any(|c| c.load(Ordering::Relaxed)) {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let moves = legal_moves(p, o);
        if moves == 0 {
            if passed {
                return self.final_score(p, o);
            }
            return -self.nws(o, p, -alpha - 1, true);
        }
        if empties >= STABILITY_FROM && alpha >= 2 * empties as i32 - 8 {
            // The opponent's stable discs cap the score.
            let upper = 64 - 2 * stable_discs(o, p).count_ones() as i32;
            if upper <= alpha {
                return upper;
            }
        }
        let mut hash_move = NO_MOVE;
        if let Some(e) = self.table.probe(p, o) {
            let (lower, upper) = (i32::from(e.lower), i32::from(e.upper));
            if lower > alpha {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            hash_move = e.best;
        }
        let mut children = [Child::default(); 32];
        let n = match self.order(p, o, moves, alpha + 1, hash_move, &mut children) {
            Ok(n) => n,
            Err(bound) => return bound,
        };
        let (best, best_move) = if self.parallel && empties >= SPLIT_FROM && n > 1 {
            self.nws_split(p, o, alpha, &children[..n])
        } else {
            let mut best = -65;
            let mut best_move = NO_MOVE;
            for c in &children[..n] {
                let score = -self.nws(o & !c.flipped, p | c.flipped | (1u64 << c.sq), -alpha - 1, false);
                if score > best {
                    best = score;
                    best_move = c.sq;
                    if score > alpha {
                        break;
                    }
                }
            }
            (best, best_move)
        };
        if self.aborted {
            return 0;
        }
        self.save(p, o, (alpha, alpha + 1), best, best_move, empties);
        best
    }

    /// The moves of a null-window node in parallel once the first has failed to cut: the
    /// young brothers wait for the eldest. A cut by any sets a flag the others watch.
    fn nws_split(&mut self, p: u64, o: u64, alpha: i32, children: &[Child]) -> (i32, u8) {
        let first = children[0];
        let mut best = -self.nws(o & !first.flipped, p | first.flipped | (1u64 << first.sq), -alpha - 1, false);
        if best > alpha || self.aborted {
            return (best, first.sq);
        }
        let cut = Arc::new(AtomicBool::new(false));
        let found = AtomicI32::new(best << 8 | i32::from(first.sq));
        let nodes = AtomicU64::new(0);
        let aborted = AtomicBool::new(false);
        let mut chain = self.cut.clone();
        chain.push(cut.clone());
        let (table, counting, generation, stop) = (self.table, self.counting, self.generation, self.stop);
        // First in, first out: the moves go in their order, the likeliest cuts first.
        rayon::scope_fifo(|scope| {
            for &c in &children[1..] {
                let (cut, found, nodes, aborted, chain) = (&cut, &found, &nodes, &aborted, chain.clone());
                scope.spawn_fifo(move |_| {
                    if cut.load(Ordering::Relaxed) {
                        return;
                    }
                    let mut s = Search {
                        table,
                        eval: Evaluator::embedded(),
                        counting,
                        generation,
                        parallel: true,
                        nodes: 0,
                        stop,
                        cut: chain,
                        aborted: false,
                    };
                    let score = -s.nws(o & !c.flipped, p | c.flipped | (1u64 << c.sq), -alpha - 1, false);
                    nodes.fetch_add(s.nodes, Ordering::Relaxed);
                    if s.aborted {
                        // Aborted by this split's own cut is fine; by anything else, not.
                        if !cut.load(Ordering::Relaxed) {
                            aborted.store(true, Ordering::Relaxed);
                        }
                        return;
                    }
                    found.fetch_max(score << 8 | i32::from(c.sq), Ordering::Relaxed);
                    if score > alpha {
                        cut.store(true, Ordering::Relaxed);
                    }
                });
            }
        });
        self.nodes += nodes.load(Ordering::Relaxed);
        let packed = found.load(Ordering::Relaxed);
        best = packed >> 8;
        if aborted.load(Ordering::Relaxed) && best <= alpha {
            self.aborted = true;
        }
        (best, (packed & 0xFF) as u8)
    }

    /// Null-window search without the table for the last few empties: moves in quadrants with
    /// an odd number of empty squares first (the last move of a region is worth having).
    fn nws_shallow(&mut self, p: u64, o: u64, alpha: i32, empties: u32, passed: bool) -> i32 {
        match empties {
            0 => return self.final_score(p, o),
            1 => return self.last_move(p, o),
            2 => return self.two_empties(p, o, alpha, passed),
            3 | 4 => return self.few_empties(p, o, alpha, passed),
            _ => {}
        }
        self.count_node();
        let moves = legal_moves(p, o);
        if moves == 0 {
            if passed {
                return self.final_score(p, o);
            }
            return -self.nws_shallow(o, p, -alpha - 1, empties, true);
        }
        let odd = odd_quadrants(!(p | o));
        let mut best = -65;
        for sq in Bits(moves & odd).chain(Bits(moves & !odd)) {
            let f = flips(sq, p, o);
            let score = -self.nws_shallow(o & !f, p | f | (1 << sq), -alpha - 1, empties - 1, false);
            if score > best {
                best = score;
                if score > alpha {
                    break;
                }
            }
        }
        best
    }

    /// Three or four empty squares: each square tried in parity order without generating the
    /// moves first; a side with no placement passes, and the game ends when neither has one.
    fn few_empties(&mut self, p: u64, o: u64, alpha: i32, passed: bool) -> i32 {
        self.nodes += 1;
        let empty = !(p | o);
        let odd = odd_quadrants(empty);
        let mut best = -65;
        for sq in Bits(empty & odd).chain(Bits(empty & !odd)) {
            let f = flips(sq, p, o);
            if f == 0 {
                continue;
            }
            let (np, no) = (o & !f, p | f | (1 << sq));
            let score = if empty.count_ones() == 4 {
                -self.few_empties(np, no, -alpha - 1, false)
            } else {
                -self.two_empties(np, no, -alpha - 1, false)
            };
            if score > best {
                best = score;
                if score > alpha {
                    return best;
                }
            }
        }
        if best > -65 {
            return best;
        }
        if passed {
            return self.final_score(p, o);
        }
        -self.few_empties(o, p, -alpha - 1, true)
    }

    /// Two empty squares: each placement is followed by [`Search::last_move`].
    fn two_empties(&mut self, p: u64, o: u64, alpha: i32, passed: bool) -> i32 {
        self.nodes += 1;
        let empty = !(p | o);
        let mut best = -65;
        for sq in Bits(empty) {
            let f = flips(sq, p, o);
            if f == 0 {
                continue;
            }
            let score = -self.last_move(o & !f, p | f | (1 << sq));
            if score > best {
                best = score;
                if best > alpha {
                    return best;
                }
            }
        }
        if best > -65 {
            return best;
        }
        if passed {
            return self.final_score(p, o);
        }
        -self.two_empties(o, p, -alpha - 1, true)
    }

    /// The score with one empty square: the side to move takes it if it flips something, else
    /// the opponent does if it can, else the game ends as it stands.
    fn last_move(&mut self, p: u64, o: u64) -> i32 {
        self.nodes += 1;
        let sq = (!(p | o)).trailing_zeros();
        let f = flips(sq, p, o);
        if f != 0 {
            return self.final_score(p | f | (1 << sq), o & !f);
        }
        let g = flips(sq, o, p);
        if g != 0 {
            return -self.final_score(o | g | (1 << sq), p & !g);
        }
        self.final_score(p, o)
    }
}

/// The quadrants holding an odd number of the `empty` squares.
#[inline]
fn odd_quadrants(empty: u64) -> u64 {
    QUADRANTS.iter().filter(|&&q| (empty & q).count_ones() % 2 == 1).fold(0, |acc, &q| acc | q)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Rules, splitmix64};
    use proptest::prelude::*;

    /// Plain minimax over the general rules: the slow twin.
    fn minimax(pos: &Position) -> i32 {
        if pos.is_game_over() {
            return pos.score().score(pos.side_to_move());
        }
        pos.legal_moves()
            .into_iter()
            .map(|mv| {
                let next = pos.clone().play(mv).unwrap();
                -minimax(&next)
            })
            .max()
            .unwrap()
    }

    fn random_position(seed: u64, plies: usize, spec: &str) -> Position {
        let mut pos = Position::start(spec.parse::<Rules>().unwrap().shared());
        let mut s = seed;
        for _ in 0..plies {
            if pos.is_game_over() {
                break;
            }
            let moves = pos.legal_moves();
            s = splitmix64(s);
            pos.play_mut(moves[(s % moves.len() as u64) as usize]).unwrap();
        }
        pos
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        /// On positions with few empties the solver equals plain minimax, for both scorings.
        #[test]
        fn equals_minimax(seed in any::<u64>(), plain in any::<bool>()) {
            let spec = if plain { "othello,scoring=plain" } else { "othello" };
            let pos = random_position(seed, 51, spec);
            let counting = Solver::counting_for(&pos).unwrap();
            let mut solver = Solver::new(1, counting);
            let solution = solver.solve(&pos).unwrap();
            let exact = minimax(&pos);
            prop_assert_eq!(solution.score, exact);
            let wld = solver.solve_with(&pos, Target::WinLossDraw, Limits::default()).unwrap();
            prop_assert_eq!(wld.score, exact.signum());
            // Every move's score too, and the best move's score is the position's.
            if let Some(moves) = solver.solve_moves(&pos) {
                for (mv, score) in &moves {
                    let next = pos.clone().play(*mv).unwrap();
                    prop_assert_eq!(*score, -minimax(&next));
                }
                if let Some(first) = moves.first() {
                    prop_assert_eq!(first.1, solution.score);
                }
            }
            // The principal variation is legal and ends where the score says.
            let mut p = pos.clone();
            for mv in &solution.pv {
                p = p.play(*mv).unwrap();
            }
            if !solution.pv.is_empty() {
                prop_assert!(p.is_game_over());
                let me = pos.side_to_move();
                prop_assert_eq!(p.score().score(me), solution.score);
            }
        }
    }

    #[test]
    fn threads_give_the_same_scores() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        for seed in 0..6 {
            let pos = random_position(seed, 44, "othello");
            let one = Solver::new(4, Counting::EmptiesToWinner).solve(&pos).unwrap();
            let two = pool.install(|| Solver::new(4, Counting::EmptiesToWinner).with_threads(2).solve(&pos).unwrap());
            assert_eq!(one.score, two.score, "seed {seed}");
        }
    }

    #[test]
    fn limits_stop_the_search() {
        let pos = random_position(3, 42, "othello");
        let mut solver = Solver::new(4, Counting::EmptiesToWinner);
        let limits = Limits { nodes: Some(20_000), ..Limits::default() };
        assert!(matches!(solver.solve_with(&pos, Target::Exact, limits), Err(SolveError::Stopped { .. })));
        let limits = Limits { empties: Some(12), ..Limits::default() };
        assert_eq!(
            solver.solve_with(&pos, Target::Exact, limits),
            Err(SolveError::TooManyEmpties { empties: pos.empties(), limit: 12 })
        );
        // A stopped search leaves nothing wrong behind: the full search still finds the value.
        let exact = Solver::new(4, Counting::EmptiesToWinner).solve(&pos).unwrap().score;
        assert_eq!(solver.solve(&pos).unwrap().score, exact);
    }

    #[test]
    fn other_rules_are_declined() {
        let pos = Position::start("othello,size=6".parse::<Rules>().unwrap().shared());
        assert!(Solver::new(1, Counting::default()).solve(&pos).is_none());
    }
}
