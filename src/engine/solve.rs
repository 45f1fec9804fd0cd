//! An exact endgame solver for 8x8 positions.
//!
//! Null-window probes at the root moving toward the value (MTD(f); after a selective pass, a
//! narrow window around its value), null-window search below, principal-variation search for
//! the line once the value is known, over bitboards:
//! - a lock-free transposition table shared by every thread and kept across calls, with
//!   enhanced transposition cut-offs; positions near the end in a small table of their own
//!   that stays in the processor's cache;
//! - stability cut-offs (the opponent's stable discs bound the score);
//! - fastest-first move ordering: fewest and weakest replies for the opponent, least potential
//!   mobility, corners first, the table's move before all;
//! - no table and quadrant-parity ordering near the end, with the last four empty squares
//!   played out without move generation;
//! - from 24 empties, a selective pass (endgame ProbCut at 73%) before the exact one, leaving
//!   best moves in the table; only the exact pass's bounds decide the score;
//! - young-brothers-wait parallelism: with more than one thread, the moves after the first at
//!   nodes far from the end are searched in parallel (rayon); the scores are exact whatever the
//!   thread count.
//!
//! Scores are the final disc margin from the side to move, with the empty squares going to the
//! winner (the official rule), or plain disc counts when asked.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::eval::{Evaluator, SCALE, to_discs};
use super::search::{Context, Search, Stop, around, final_margin};
use super::table::{Layers, NO_MOVE, SELECTIVE_LEVELS, Tables};
use crate::core::bitboard::{Bits, flips, legal_moves};
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

/// A depth-limited search's answer ([`Solver::search_with`]).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Estimate {
    /// The value for the side to move, in discs (rounded): the exact final margin when
    /// `exact`, else the evaluation's expectation.
    pub score: i32,
    /// The same in evaluation units ([`crate::engine::eval::SCALE`] per disc).
    pub units: i32,
    /// Whether the search reached the end of the game on every line.
    pub exact: bool,
    /// Moves searched ahead by the last finished iteration.
    pub depth: u32,
    /// The best move found (a pass when the side to move must pass; none when the game is over).
    pub best: Option<Move>,
    /// The principal variation, from the transposition table.
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

impl Target {
    /// The root window that settles this target: the whole range, or (-1, 1) around a draw.
    fn window(self) -> (i32, i32) {
        match self {
            Target::Exact => (-64, 64),
            Target::WinLossDraw => (-1, 1),
        }
    }

    /// A value found in [`Target::window`] as reported: the margin, or its sign.
    fn reported(self, score: i32) -> i32 {
        match self {
            Target::Exact => score,
            Target::WinLossDraw => score.signum(),
        }
    }
}

/// How close to the end (in moves) a depth-limited search meant to reach the end goes on to the
/// exact search: from 20 to 22 empties, the exact solve costs about what depth 12 to 14 does
/// (FFO #20-24 and #40-42, one thread; docs/BENCHMARKS.md).
pub const EXACT_GAP: u32 = 8;

/// How many moves ahead a position of a principal line that the table holds no move for is
/// searched for one ([`Solver`]'s lines): a few thousand positions at most.
const LINE_SEARCH_DEPTH: u32 = 4;

/// Bounds on one search; a search that reaches one stops with [`SolveError::Stopped`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Stop after about this many positions: each thread counts its positions and checks the
    /// limits every 4,096 of them, so a search may pass the limit by up to that many per thread
    /// (a limit under 4,096 stops it at its first check).
    pub nodes: Option<u64>,
    /// Stop after about this long (checked as `nodes` is, every 4,096 positions a thread).
    pub time: Option<Duration>,
    /// Decline positions with more empty squares than this.
    pub empties: Option<u32>,
    /// Searches that deepen one move at a time: start another depth only while the positions
    /// searched so far and those the next depth is expected to take (the last depth's, times
    /// its growth over the one before) stay within this. A depth once started is finished, so
    /// unlike [`Limits::nodes`] and [`Limits::time`] the result depends only on the position
    /// and this budget, never on the threads or the machine. The first depth is always
    /// searched.
    pub deepening_nodes: Option<u64>,
}

impl Limits {
    /// Whether the limits bound a search's effort (a node, time or deepening budget), not only
    /// the positions it takes.
    #[must_use]
    pub fn budgeted(&self) -> bool {
        self.nodes.is_some() || self.time.is_some() || self.deepening_nodes.is_some()
    }

    /// Whether a deepening search may start another depth, having searched `spent` positions
    /// in all, `last` of them for its last depth and `before` for the depth before that (0
    /// when there was none).
    #[must_use]
    pub fn may_deepen(&self, spent: u64, last: u64, before: u64) -> bool {
        self.deepening_nodes.is_none_or(|budget| {
            // Without a depth before, assume the next costs twice the last.
            let growth = if before == 0 { 2.0 } else { (last as f64 / before as f64).max(1.0) };
            spent as f64 + last as f64 * growth <= budget as f64
        })
    }

    /// Whether a deepening search may go on to the exact solve from a depth [`EXACT_GAP`]
    /// or fewer moves from the end, as [`Limits::may_deepen`] with the exact solve taken to
    /// cost what five more depths would (at 14 empties, 8 moves from the end, it costs up to
    /// about that: FFO #1-5; nearer 20 empties, about what two more do).
    #[must_use]
    pub fn may_solve(&self, spent: u64, last: u64, before: u64) -> bool {
        self.deepening_nodes.is_none_or(|budget| {
            let growth = if before == 0 { 2.0 } else { (last as f64 / before as f64).max(1.0) };
            spent as f64 + last as f64 * growth.powi(5) <= budget as f64
        })
    }
}

/// Why a search gave no answer.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum SolveError {
    /// The position is not standard 8x8 Othello.
    #[error("the solver plays standard 8x8 Othello only")]
    Unsupported,
    /// The position's rules score the end otherwise than the solver was made for (a solver of
    /// [`Counting::EmptiesToWinner`] given a position under `scoring=plain`): make it with
    /// [`Solver::counting_for`] of the position.
    #[error(
        "the position's rules count the final discs {rules:?}, the solver {solver:?}: make it with Solver::counting_for"
    )]
    OtherCounting {
        /// How the position's rules count.
        rules: Counting,
        /// How the solver counts.
        solver: Counting,
    },
    /// The position has more empty squares than [`Limits::empties`] allows.
    #[error("{empties} empty squares is more than the limit of {limit}")]
    TooManyEmpties {
        /// The position's empty squares.
        empties: u32,
        /// The limit.
        limit: u32,
    },
    /// The move asked about is not legal in the position.
    #[error("{0} is not a legal move here")]
    IllegalMove(Move),
    /// A node or time limit, or a [`Cancel`], ended the search first.
    #[error("stopped by a limit after {nodes} nodes")]
    Stopped {
        /// Positions searched before stopping.
        nodes: u64,
    },
}

/// An exact solver: its transposition table (kept between calls), threads and scoring.
///
/// Exact scores never depend on what the table holds, but the estimates of the depth-limited
/// search do, a little: its cut-offs take the bounds earlier searches stored, so the same
/// position at the same depth may be a disc or so apart after other searches. Call
/// [`Solver::clear`] first for an estimate that depends only on the position and the depth (as
/// `kifu annotate` does for each game). [`Solver::cancel_handle`] stops a search from another
/// thread.
pub struct Solver {
    table: Tables,
    /// The private tables of the depth-limited search's root split.
    layers: Layers,
    /// The weights of the depth-limited search.
    eval: Arc<Evaluator>,
    /// The weights that order the exact search's moves.
    solver_eval: Arc<Evaluator>,
    counting: Counting,
    threads: usize,
    generation: u8,
    nodes: u64,
    probcut: Option<f64>,
    /// Stops its searches from another thread.
    cancel: Cancel,
}

/// A handle that stops a [`Solver`]'s searches from another thread (a "stop thinking"
/// button, a request given up): once [`Cancel::cancel`] is called, the search running stops
/// within a few thousand positions with [`SolveError::Stopped`], and so does every search
/// started after, until [`Cancel::reset`]. Clones share the flag.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A handle not cancelled.
    #[must_use]
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Stops the searches of the solvers holding this handle, the one running and those to come.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Lets searches run again.
    pub fn reset(&self) {
        self.0.store(false, Ordering::Relaxed);
    }

    /// Whether [`Cancel::cancel`] was called since the last reset.
    #[must_use]
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    pub(crate) fn flag(&self) -> &Arc<AtomicBool> {
        &self.0
    }
}

/// The selectivity levels of the depth-limited search: the percent confidence with which a
/// ProbCut cut is taken, and the standard deviations that makes.
pub const SELECTIVITY: [(u32, f64); 5] = [(73, 1.1), (87, 1.5), (95, 2.0), (98, 2.6), (99, 3.3)];

/// Solvers made on first use, one per scoring, all by the same recipe: table size, threads,
/// ProbCut width and evaluator. Each keeps its table from one call to the next.
pub struct SolverSet {
    hash_mb: usize,
    threads: usize,
    probcut: Option<f64>,
    eval: Option<Arc<Evaluator>>,
    solvers: Vec<Solver>,
    /// Stops every solver's searches.
    cancel: Cancel,
}

impl SolverSet {
    /// No solver yet; each will have a table of about `hash_mb` MiB, `threads` threads, this
    /// ProbCut width ([`probcut_for`]) and these weights (none: the shipped ones).
    #[must_use]
    pub fn new(hash_mb: usize, threads: usize, probcut: Option<f64>, eval: Option<Arc<Evaluator>>) -> SolverSet {
        SolverSet { hash_mb, threads, probcut, eval, solvers: Vec::new(), cancel: Cancel::new() }
    }

    /// A handle that stops the searches of every solver of the set ([`Cancel`]).
    #[must_use]
    pub fn cancel_handle(&self) -> Cancel {
        self.cancel.clone()
    }

    /// The solver for this scoring.
    pub fn get(&mut self, counting: Counting) -> &mut Solver {
        let index = match self.solvers.iter().position(|s| s.counting() == counting) {
            Some(i) => i,
            None => {
                let mut solver = Solver::new(self.hash_mb, counting)
                    .with_threads(self.threads)
                    .with_probcut(self.probcut)
                    .with_cancel(self.cancel.clone());
                if let Some(eval) = &self.eval {
                    solver = solver.with_evaluator(eval.clone());
                }
                self.solvers.push(solver);
                self.solvers.len() - 1
            }
        };
        &mut self.solvers[index]
    }
}

/// The ProbCut width for a selectivity level in percent (one of [`SELECTIVITY`], or 100 for no
/// pruning).
///
/// # Errors
/// A percent that is not a level.
pub fn probcut_for(percent: u32) -> Result<Option<f64>, String> {
    if percent == 100 {
        return Ok(None);
    }
    match SELECTIVITY.iter().find(|(p, _)| *p == percent) {
        Some((_, t)) => Ok(Some(*t)),
        None => {
            let levels: Vec<String> = SELECTIVITY.iter().map(|(p, _)| p.to_string()).collect();
            Err(format!("selectivity {percent}: the levels are {}, 100", levels.join(", ")))
        }
    }
}

impl Solver {
    /// A single-threaded solver with a table of about `hash_mb` MiB.
    #[must_use]
    pub fn new(hash_mb: usize, counting: Counting) -> Solver {
        Solver {
            table: Tables::new(hash_mb),
            layers: Layers::new((hash_mb / 4).clamp(1, 64)),
            eval: Evaluator::embedded().clone(),
            solver_eval: Evaluator::embedded_for_solver().clone(),
            counting,
            threads: 1,
            generation: 0,
            nodes: 0,
            probcut: None,
            cancel: Cancel::new(),
        }
    }

    /// A handle that stops this solver's searches from another thread ([`Cancel`]).
    #[must_use]
    pub fn cancel_handle(&self) -> Cancel {
        self.cancel.clone()
    }

    /// Stops on this handle instead of its own (one handle for several solvers).
    #[must_use]
    pub fn with_cancel(mut self, cancel: Cancel) -> Solver {
        self.cancel = cancel;
        self
    }

    /// Searches with `threads` threads (rayon's global pool, or the pool the call runs in).
    #[must_use]
    pub fn with_threads(mut self, threads: usize) -> Solver {
        self.threads = threads.max(1);
        self.table.set_threads(self.threads);
        self
    }

    /// Orders moves and estimates positions with these weights instead of the shipped ones
    /// (both the depth-limited search's and the exact search's).
    #[must_use]
    pub fn with_evaluator(mut self, eval: Arc<Evaluator>) -> Solver {
        self.solver_eval = eval.clone();
        self.eval = eval;
        self
    }

    /// Prunes the depth-limited search selectively: ProbCut with cuts taken `t` standard
    /// deviations out ([`probcut_for`] gives `t` for a selectivity level; none: no pruning).
    /// The exact search is never selective.
    #[must_use]
    pub fn with_probcut(mut self, t: Option<f64>) -> Solver {
        self.probcut = t;
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
    /// Othello captures and forced passes; either scoring; ranks numbered either way).
    #[must_use]
    pub fn counting_for(position: &Position) -> Option<Counting> {
        let v = position.rules().variant();
        // Rows numbered from the bottom change the squares' names only, never the position.
        let standard =
            crate::core::Variant { scoring: v.scoring, ties: v.ties, rows: v.rows, ..crate::core::Variant::default() };
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
    /// rules or boards, and for rules that count the end otherwise than this solver
    /// ([`SolveError::OtherCounting`] from [`Solver::solve_with`]).
    pub fn solve(&mut self, position: &Position) -> Option<Solution> {
        self.solve_with(position, Target::Exact, Limits::default()).ok()
    }

    /// Solves a position for `target` within `limits`.
    pub fn solve_with(&mut self, position: &Position, target: Target, limits: Limits) -> Result<Solution, SolveError> {
        self.solve_line(position, target, limits, 64)
    }

    /// [`Solver::solve_with`] for the exact score and the best move only (the principal
    /// variation is just that move): less work when the line is not wanted.
    pub fn solve_best_with(&mut self, position: &Position, limits: Limits) -> Result<Solution, SolveError> {
        self.solve_line(position, Target::Exact, limits, 1)
    }

    /// Solves a position for `target`, with a principal variation of up to `length` moves.
    fn solve_line(
        &mut self,
        position: &Position,
        target: Target,
        limits: Limits,
        length: usize,
    ) -> Result<Solution, SolveError> {
        let (p, o) = self.sides(position, limits)?;
        let (alpha, beta) = target.window();
        let stop = Stop::new(limits, Some(&self.cancel));
        let (score, nodes) = self.run(&stop, true, |s| s.aspiration(p, o, alpha, beta));
        self.nodes = nodes;
        if stop.hit() {
            return Err(SolveError::Stopped { nodes });
        }
        let score = target.reported(score);
        let pv = self.principal_variation(p, o, score, target, &stop, length);
        if stop.hit() {
            return Err(SolveError::Stopped { nodes: self.nodes });
        }
        Ok(Solution { score, best: pv.first().copied(), pv, nodes: self.nodes })
    }

    /// Whether playing `mv` gives the side to move a final margin of at least `bound` under
    /// perfect play (a null-window search: cheaper than the exact score).
    pub fn move_reaches(
        &mut self,
        position: &Position,
        mv: Move,
        bound: i32,
        limits: Limits,
    ) -> Result<bool, SolveError> {
        Ok(self.solve_move_in(position, mv, bound - 1, bound, limits)? >= bound)
    }

    /// The exact final margin for the side to move after playing `mv`, under perfect play.
    pub fn solve_move_with(&mut self, position: &Position, mv: Move, limits: Limits) -> Result<i32, SolveError> {
        self.solve_move_in(position, mv, -64, 64, limits)
    }

    /// The exact value of playing `mv` searched in the window (`alpha`, `beta`) (fail-soft
    /// outside it), from the mover's side.
    fn solve_move_in(
        &mut self,
        position: &Position,
        mv: Move,
        alpha: i32,
        beta: i32,
        limits: Limits,
    ) -> Result<i32, SolveError> {
        let (p, o) = self.sides(position, limits)?;
        let (cp, co, passed) = child(p, o, mv)?;
        let stop = Stop::new(limits, Some(&self.cancel));
        let (value, nodes) = self.run(&stop, true, |s| -s.pvs(cp, co, -beta, -alpha, passed));
        self.nodes = nodes;
        if stop.hit() {
            return Err(SolveError::Stopped { nodes });
        }
        Ok(value)
    }

    /// The value of playing `mv`, searched `depth` moves ahead (the move counting as one), as
    /// each move of [`Solver::search_moves_with`] is.
    pub fn search_move_with(
        &mut self,
        position: &Position,
        mv: Move,
        depth: u32,
        limits: Limits,
    ) -> Result<Estimate, SolveError> {
        let (p, o) = self.sides(position, limits)?;
        let (cp, co, passed) = child(p, o, mv)?;
        let stop = Stop::new(limits, Some(&self.cancel));
        let found = self.search_child(&stop, mv, cp, co, passed, depth.max(1));
        self.nodes = found.nodes;
        if stop.hit() {
            return Err(SolveError::Stopped { nodes: found.nodes });
        }
        Ok(found)
    }

    /// One move's value `depth` moves ahead, from the child position (`cp` to move).
    fn search_child(&mut self, stop: &Stop, mv: Move, cp: u64, co: u64, passed: bool, depth: u32) -> Estimate {
        let child_depth = if passed { depth } else { depth - 1 };
        let child_empties = 64 - (cp | co).count_ones();
        let exact = child_depth >= child_empties;
        let (units, nodes) =
            self.run(stop, exact, |s| -s.midgame_root(cp, co, child_depth, -SCALE * 65, SCALE * 65, passed));
        let mut pv = vec![mv];
        pv.extend(self.table_line(cp, co, child_depth));
        // The depth searched: no more than the empty squares of the position the move is from.
        let depth = depth.min(child_empties + u32::from(!passed));
        Estimate { score: to_discs(units), units, exact, depth, best: Some(mv), pv, nodes }
    }

    /// Searches a position `depth` moves ahead on the evaluation, deepening one move at a time;
    /// when the depth reaches the end of the game, the last iteration is the exact solve. A node
    /// or time limit ends the search with the last finished depth (depth 1 always finishes,
    /// whatever the limits: a few nodes, and an estimate rather than none);
    /// [`Limits::deepening_nodes`] ends it before a depth it cannot afford.
    pub fn search_with(&mut self, position: &Position, depth: u32, limits: Limits) -> Result<Estimate, SolveError> {
        let (p, o) = self.sides(position, limits)?;
        let empties = position.empties();
        let stop = Stop::new(limits, Some(&self.cancel));
        let unlimited = Stop::new(Limits::default(), None);
        let mut nodes = 0;
        let mut done: Option<(u32, i32)> = None;
        let mut line = Vec::new();
        // The positions searched for the last depth and the one before.
        let (mut last, mut before) = (0, 0);
        // A finished game (a side wiped out, or no move for either) is its final margin, exact
        // at any depth.
        let over = legal_moves(p, o) == 0 && legal_moves(o, p) == 0;
        let (mut d, deepest) = if over { (empties, empties) } else { (1, depth.min(empties).max(1)) };
        while d <= deepest {
            if done.is_some() && !limits.may_deepen(nodes, last, before) {
                break;
            }
            // A search meant to reach the end solves exactly once the depths searched come
            // within [`EXACT_GAP`] of it: the exact search, with its own faster code, costs
            // no more there than the next few depths would.
            if depth >= empties
                && done.is_some_and(|(finished, _)| finished + EXACT_GAP >= empties)
                && limits.may_solve(nodes, last, before)
            {
                d = empties;
            }
            let guess = done.map(|(_, v)| v);
            let stop = if d == 1 { &unlimited } else { &stop };
            let (value, n) = self.run(stop, d >= empties, |s| match guess {
                // The last iteration reaches the end: the exact search, in whole discs.
                _ if d >= empties => s.aspiration(p, o, -64, 64) * SCALE,
                Some(g) => around(g, |low, high| (s.midgame_root(p, o, d, low, high, false), s.aborted)),
                None => s.midgame_root(p, o, d, -SCALE * 65, SCALE * 65, false),
            });
            nodes += n;
            if stop.hit() {
                break;
            }
            done = Some((d, value));
            // The line of this depth, read before a deeper one, which a limit may stop,
            // overwrites the table's entries with moves it had not finished weighing.
            if d < empties {
                line = self.table_line(p, o, d);
            }
            (last, before) = (n, last);
            d += 1;
        }
        self.nodes = nodes;
        let Some((depth, units)) = done else { return Err(SolveError::Stopped { nodes }) };
        let exact = depth >= empties;
        let pv = if exact {
            let pv =
                self.principal_variation(p, o, units / SCALE, Target::Exact, &Stop::new(Limits::default(), None), 64);
            nodes = self.nodes.max(nodes);
            pv
        } else {
            line
        };
        self.nodes = nodes;
        Ok(Estimate { score: to_discs(units), units, exact, depth, best: pv.first().copied(), pv, nodes })
    }

    /// Every legal move's value `depth` moves ahead (the move itself counting as one), best
    /// first, with whether it is exact; within `limits` (shared by the moves).
    ///
    /// Without a node, time or deepening budget the moves are searched at `depth` at once.
    /// With one, all the moves are searched one depth after another (1, 2, ... up to `depth`),
    /// and a limit reached, or a [`Cancel`], gives every move's value at the last depth finished
    /// for all of them, as [`Solver::search_with`] does for the position (depth 1 always
    /// finishes); each [`Estimate::depth`] says how deep.
    ///
    /// # Errors
    /// As [`Solver::search_with`]; [`SolveError::Stopped`] when a search without a budget is
    /// cancelled.
    pub fn search_moves_with(
        &mut self,
        position: &Position,
        depth: u32,
        limits: Limits,
    ) -> Result<Vec<(Move, Estimate)>, SolveError> {
        let (p, o) = self.sides(position, limits)?;
        let stop = Stop::new(limits, Some(&self.cancel));
        let unlimited = Stop::new(Limits::default(), None);
        let depth = depth.max(1);
        let mut children: Vec<(Move, u64, u64, bool)> = Bits(legal_moves(p, o))
            .map(|sq| {
                let f = flips(sq, p, o);
                (Move::Place(Square::from_bit8(sq)), o & !f, p | f | (1 << sq), false)
            })
            .collect();
        if children.is_empty() && legal_moves(o, p) != 0 {
            children.push((Move::Pass, o, p, true));
        }
        // Deeper than the end of the game, every move's search is the same exact one.
        let deepest = depth.min(position.empties()).max(1);
        let budgeted = limits.budgeted();
        let mut done: Option<Vec<(Move, Estimate)>> = None;
        // All the positions searched, those of the last depth and of the one before.
        let (mut total, mut last, mut before) = (0, 0, 0);
        for d in if budgeted { 1 } else { deepest }..=deepest {
            if done.is_some() && !limits.may_deepen(total, last, before) {
                break;
            }
            let stop = if budgeted && d == 1 { &unlimited } else { &stop };
            let mut out = Vec::with_capacity(children.len());
            let mut spent = 0;
            for &(mv, cp, co, passed) in &children {
                let found = self.search_child(stop, mv, cp, co, passed, d);
                spent += found.nodes;
                if stop.hit() {
                    break;
                }
                out.push((mv, found));
            }
            total += spent;
            if stop.hit() {
                break;
            }
            out.sort_by_key(|(_, e)| std::cmp::Reverse(e.units));
            done = Some(out);
            (last, before) = (spent, last);
        }
        self.nodes = total;
        done.ok_or(SolveError::Stopped { nodes: total })
    }

    /// Up to `length` moves the table holds as best from this position on, while legal. Where
    /// the table has no move for a position (the depth-limited search keeps no entries one move
    /// from its limit, and a position cut by ProbCut keeps none either), the move is the one a
    /// plain search of the moves left, at most [`LINE_SEARCH_DEPTH`] of them, finds best
    /// ([`Solver::best_by_search`]; one move from the end, the move whose position the
    /// evaluation likes best for the mover, as the search chose it). A line to the end of the
    /// game stops at such a position instead, unless the plain search reaches the end.
    fn table_line(&self, mut p: u64, mut o: u64, length: u32) -> Vec<Move> {
        // A line to the end of the game is the exact search's: a move is searched for only
        // where the search reaches the end (the last few empty squares), so that it stays exact.
        let exact = length >= 64 - (p | o).count_ones();
        let mut line = Vec::new();
        while line.len() < length as usize {
            let moves = legal_moves(p, o);
            if moves == 0 {
                if legal_moves(o, p) == 0 {
                    break;
                }
                line.push(Move::Pass);
                std::mem::swap(&mut p, &mut o);
                continue;
            }
            let left = length - line.len() as u32;
            let Some(sq) =
                self.table.probe(p, o).map(|e| e.best).filter(|&b| b != NO_MOVE && moves & (1u64 << b) != 0).or_else(
                    || {
                        (!exact || left <= LINE_SEARCH_DEPTH)
                            .then(|| self.best_by_search(p, o, moves, left.min(LINE_SEARCH_DEPTH)))
                    },
                )
            else {
                break;
            };
            line.push(Move::Place(Square::from_bit8(u32::from(sq))));
            let f = flips(u32::from(sq), p, o);
            (p, o) = (o & !f, p | f | (1 << sq));
        }
        line
    }

    /// The move of `p` (among its `moves`) whose value `depth` moves ahead (the move counting
    /// as one) is the best for `p`, the first in square order among equals: a plain alpha-beta
    /// search on the evaluation, without the table or pruning. At depth 1 it is the
    /// depth-limited search's own choice one move from its limit.
    fn best_by_search(&self, p: u64, o: u64, moves: u64, depth: u32) -> u8 {
        let mut best = (-SCALE * 65, NO_MOVE);
        for sq in Bits(moves) {
            let f = flips(sq, p, o);
            let score = -self.plain_search(o & !f, p | f | (1 << sq), depth - 1, -SCALE * 65, -best.0);
            if score > best.0 {
                best = (score, sq as u8);
            }
        }
        best.1
    }

    /// The value of `p` to move `depth` moves ahead in the window (`alpha`, `beta`), in
    /// evaluation units: the evaluation at the limit (held inside the margins), the final
    /// margin where the game ends.
    fn plain_search(&self, p: u64, o: u64, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        if depth == 0 {
            return self.eval.evaluate(p, o).clamp(1 - SCALE * 64, SCALE * 64 - 1);
        }
        let moves = legal_moves(p, o);
        if moves == 0 {
            if legal_moves(o, p) == 0 {
                return final_margin(p, o, self.counting) * SCALE;
            }
            // A pass moves no closer to the limit, as in the depth-limited search.
            return -self.plain_search(o, p, depth, -beta, -alpha);
        }
        let mut best = -SCALE * 65;
        for sq in Bits(moves) {
            let f = flips(sq, p, o);
            let score = -self.plain_search(o & !f, p | f | (1 << sq), depth - 1, -beta, -alpha);
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// Solves every legal move of a position: the move and its exact score for the side to
    /// move, best first (ties keep board order).
    pub fn solve_moves(&mut self, position: &Position) -> Option<Vec<(Move, i32)>> {
        self.solve_moves_with(position, Limits::default()).ok()
    }

    /// [`Solver::solve_moves`] within `limits` (shared by all the moves).
    pub fn solve_moves_with(&mut self, position: &Position, limits: Limits) -> Result<Vec<(Move, i32)>, SolveError> {
        self.solve_moves_for(position, Target::Exact, limits)
    }

    /// [`Solver::solve_moves_with`] for a target: with [`Target::WinLossDraw`] each move's
    /// value is 1, 0 or -1 (a win, draw or loss for the side to move), each found by a search
    /// in the window (-1, 1), cheaper than its exact score.
    pub fn solve_moves_for(
        &mut self,
        position: &Position,
        target: Target,
        limits: Limits,
    ) -> Result<Vec<(Move, i32)>, SolveError> {
        let (alpha, beta) = target.window();
        let (p, o) = self.sides(position, limits)?;
        let stop = Stop::new(limits, Some(&self.cancel));
        let mut moves = legal_moves(p, o);
        let mut out = Vec::new();
        let mut nodes = 0;
        if moves == 0 && legal_moves(o, p) != 0 {
            let (score, n) = self.run(&stop, true, |s| -s.pvs(o, p, -beta, -alpha, true));
            out.push((Move::Pass, target.reported(score)));
            nodes += n;
        }
        while moves != 0 {
            let sq = moves.trailing_zeros();
            moves &= moves - 1;
            let f = flips(sq, p, o);
            let (score, n) = self.run(&stop, true, |s| -s.pvs(o & !f, p | f | (1 << sq), -beta, -alpha, false));
            out.push((Move::Place(Square::from_bit8(sq)), target.reported(score)));
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
        match Solver::counting_for(position) {
            None => return Err(SolveError::Unsupported),
            Some(rules) if rules != self.counting => {
                return Err(SolveError::OtherCounting { rules, solver: self.counting });
            }
            Some(_) => {}
        }
        let empties = position.empties();
        if let Some(limit) = limits.empties.filter(|&l| empties > l) {
            return Err(SolveError::TooManyEmpties { empties, limit });
        }
        // Never zero: the table tells empty slots by it.
        self.generation = self.generation % 255 + 1;
        Ok(match position.side_to_move() {
            Color::Black => (black, white),
            Color::White => (white, black),
        })
    }

    /// Runs one search on this solver's table, with the exact search's weights when `exact`;
    /// returns its value and the positions searched.
    fn run(&self, stop: &Stop, exact: bool, f: impl FnOnce(&mut Search) -> i32) -> (i32, u64) {
        let cx = Context {
            table: &self.table,
            layers: &self.layers,
            eval: if exact { &self.solver_eval } else { &self.eval },
            counting: self.counting,
            generation: self.generation,
            stop,
            probcut: self.probcut,
        };
        let mut search =
            Search::new(cx, self.table.current_view(), None, self.threads > 1, SELECTIVE_LEVELS, Vec::new());
        let score = f(&mut search);
        search.flush();
        (score, search.nodes)
    }

    /// A line of best moves from this position, whose value is `score` (its sign for
    /// [`Target::WinLossDraw`], where the line is just the first move): at each step the table's
    /// move is tried first, and a move is taken only once a search confirms its value.
    fn principal_variation(
        &mut self,
        mut p: u64,
        mut o: u64,
        mut score: i32,
        target: Target,
        stop: &Stop,
        length: usize,
    ) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut nodes = self.nodes;
        let wld = target == Target::WinLossDraw;
        while pv.len() < length {
            let moves = legal_moves(p, o);
            if moves == 0 {
                if legal_moves(o, p) == 0 {
                    break;
                }
                pv.push(Move::Pass);
                std::mem::swap(&mut p, &mut o);
                score = -score;
                continue;
            }
            let hint = self.table.probe(p, o).map(|e| e.best).filter(|&b| b != NO_MOVE && moves & (1u64 << b) != 0);
            let candidates = hint.map(u32::from).into_iter().chain(Bits(moves).filter(|&sq| Some(sq as u8) != hint));
            let mut found = None;
            for sq in candidates {
                let f = flips(sq, p, o);
                let (np, no) = (o & !f, p | f | (1 << sq));
                let (value, n) = if wld {
                    self.run(stop, true, |s| -s.pvs(np, no, -1, 1, false).signum())
                } else {
                    self.run(stop, true, |s| -s.pvs(np, no, -score - 1, -score + 1, false))
                };
                nodes += n;
                if stop.hit() {
                    break;
                }
                if value == score {
                    found = Some(sq);
                    break;
                }
            }
            let Some(sq) = found else { break };
            pv.push(Move::Place(Square::from_bit8(sq)));
            let f = flips(sq, p, o);
            (p, o) = (o & !f, p | f | (1 << sq));
            score = -score;
            if wld {
                break;
            }
        }
        self.nodes = nodes;
        pv
    }
}

/// The position after the side to move (`p`) plays `mv`, as (to move, opponent, whether `mv`
/// was a pass).
fn child(p: u64, o: u64, mv: Move) -> Result<(u64, u64, bool), SolveError> {
    let moves = legal_moves(p, o);
    match mv {
        Move::Pass if moves == 0 && legal_moves(o, p) != 0 => Ok((o, p, true)),
        Move::Place(sq) => match sq.bit8() {
            Some(bit) if moves & (1u64 << bit) != 0 => {
                let f = flips(bit, p, o);
                Ok((o & !f, p | f | (1 << bit), false))
            }
            _ => Err(SolveError::IllegalMove(mv)),
        },
        Move::Pass => Err(SolveError::IllegalMove(mv)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Rules, splitmix64};
    use proptest::prelude::*;

    #[test]
    fn a_solver_of_another_counting_says_so() {
        let plain = "othello,scoring=plain".parse::<Rules>().unwrap().shared();
        let pos = Position::start(plain);
        let mut solver = Solver::new(1, Counting::EmptiesToWinner);
        let err =
            solver.solve_with(&pos, Target::Exact, Limits { empties: Some(20), ..Limits::default() }).unwrap_err();
        assert_eq!(err, SolveError::OtherCounting { rules: Counting::Plain, solver: Counting::EmptiesToWinner });
        assert_eq!(Solver::counting_for(&pos), Some(Counting::Plain));
    }

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

    /// Plain negamax on the evaluation to `depth` (a pass costs no depth): the slow twin of
    /// the depth-limited search.
    fn eval_negamax(p: u64, o: u64, depth: u32, passed: bool) -> i32 {
        let moves = legal_moves(p, o);
        if moves == 0 {
            if passed {
                let (a, b) = (p.count_ones() as i32, o.count_ones() as i32);
                let e = 64 - a - b;
                let diff = a - b;
                return SCALE
                    * if diff > 0 {
                        diff + e
                    } else if diff < 0 {
                        diff - e
                    } else {
                        0
                    };
            }
            return -eval_negamax(o, p, depth, true);
        }
        if depth == 0 {
            return Evaluator::embedded().evaluate(p, o).clamp(1 - SCALE * 64, SCALE * 64 - 1);
        }
        Bits(moves)
            .map(|sq| {
                let f = flips(sq, p, o);
                -eval_negamax(o & !f, p | f | (1 << sq), depth - 1, false)
            })
            .max()
            .unwrap()
    }

    #[test]
    fn depth_limited_search_equals_negamax_on_the_evaluation() {
        for seed in 0..12 {
            let pos = random_position(seed, 30, "othello");
            let [black, white] = pos.bitboards().unwrap();
            let (p, o) = if pos.side_to_move() == crate::core::Color::Black { (black, white) } else { (white, black) };
            for depth in 1..=3 {
                let mut solver = Solver::new(1, Counting::EmptiesToWinner);
                let found = solver.search_with(&pos, depth, Limits::default()).unwrap();
                assert_eq!(found.units, eval_negamax(p, o, depth, false), "seed {seed} depth {depth}");
                assert!(!found.exact);
                assert_eq!(found.depth, depth);
                assert!(found.pv.len() <= depth as usize && !found.pv.is_empty());
                if depth == 1 {
                    // A node one move from the limit keeps no entry: its move comes from the
                    // evaluation, the first in square order among the best children.
                    let best = Bits(legal_moves(p, o))
                        .map(|sq| {
                            let f = flips(sq, p, o);
                            (-eval_negamax(o & !f, p | f | (1 << sq), 0, false), sq)
                        })
                        .fold((i32::MIN, 0), |best, (v, sq)| if v > best.0 { (v, sq) } else { best });
                    assert_eq!(found.best, Some(Move::Place(Square::from_bit8(best.1))), "seed {seed}");
                }
            }
        }
    }

    #[test]
    fn the_root_split_finds_the_values_of_the_plain_search() {
        // Without ProbCut both are alpha-beta on the same evaluation: the same value.
        for seed in 0..4 {
            let pos = random_position(seed, 34, "othello");
            let [black, white] = pos.bitboards().unwrap();
            let (p, o) = if pos.side_to_move() == crate::core::Color::Black { (black, white) } else { (white, black) };
            let value = |split: bool| {
                let mut solver = Solver::new(4, Counting::EmptiesToWinner);
                solver.generation = 1;
                let stop = Stop::new(Limits::default(), None);
                solver.run(&stop, false, |s| {
                    if split {
                        s.midgame_root(p, o, 8, -SCALE * 65, SCALE * 65, false)
                    } else {
                        s.midgame(p, o, 8, -SCALE * 65, SCALE * 65, false)
                    }
                })
            };
            assert_eq!(value(true).0, value(false).0, "seed {seed}");
        }
    }

    #[test]
    fn the_depth_limited_search_and_the_exact_one_use_their_own_shipped_weights() {
        // The same nodes as a solver given that set of weights for both searches.
        let with = |eval: &Arc<Evaluator>| Solver::new(4, Counting::EmptiesToWinner).with_evaluator(eval.clone());
        // (And the two sets order differently, so the test tells them apart.)
        let (mut search_differs, mut solve_differs) = (false, false);
        for seed in 0..3 {
            let deep = random_position(seed, 30, "othello");
            let late = random_position(seed, 44, "othello");
            let searched = |mut s: Solver| s.search_with(&deep, 6, Limits::default()).unwrap().nodes;
            let solved = |mut s: Solver| s.solve_with(&late, Target::Exact, Limits::default()).unwrap().nodes;
            let default = || Solver::new(4, Counting::EmptiesToWinner);
            assert_eq!(searched(default()), searched(with(Evaluator::embedded())), "seed {seed}");
            assert_eq!(solved(default()), solved(with(Evaluator::embedded_for_solver())), "seed {seed}");
            search_differs |= searched(default()) != searched(with(Evaluator::embedded_for_solver()));
            solve_differs |= solved(default()) != solved(with(Evaluator::embedded()));
        }
        assert!(search_differs && solve_differs);
    }

    #[test]
    fn search_to_the_end_is_exact() {
        for seed in 0..6 {
            let pos = random_position(seed, 48, "othello");
            let mut solver = Solver::new(4, Counting::EmptiesToWinner);
            let exact = solver.solve(&pos).unwrap().score;
            let found = solver.search_with(&pos, 20, Limits::default()).unwrap();
            assert!(found.exact);
            assert_eq!(found.score, exact);
            let moves = solver.search_moves_with(&pos, 12, Limits::default()).unwrap();
            let solved = solver.solve_moves(&pos).unwrap();
            let mut a: Vec<(Move, i32)> = moves.iter().map(|(m, e)| (*m, e.score)).collect();
            let mut b = solved;
            a.sort_by_key(|m| format!("{:?}", m));
            b.sort_by_key(|m| format!("{:?}", m));
            assert_eq!(a, b, "seed {seed}");
            assert!(moves.iter().all(|(_, e)| e.exact));
        }
    }

    #[test]
    fn probcut_stays_near_the_full_search_and_never_touches_exact_results() {
        let mut total = 0;
        for seed in 0..8 {
            let pos = random_position(seed, 24, "othello");
            let mut full = Solver::new(4, Counting::EmptiesToWinner);
            let mut selective = Solver::new(4, Counting::EmptiesToWinner).with_probcut(probcut_for(73).unwrap());
            let a = full.search_with(&pos, 6, Limits::default()).unwrap();
            let b = selective.search_with(&pos, 6, Limits::default()).unwrap();
            total += (a.score - b.score).abs();
            // Where the depth reaches the end the search is exact, selective or not.
            let end = random_position(seed, 50, "othello");
            let exact = full.solve(&end).unwrap().score;
            let found = selective.search_with(&end, 20, Limits::default()).unwrap();
            assert!(found.exact);
            assert_eq!(found.score, exact, "seed {seed}");
        }
        // ProbCut at 73% errs sometimes, by a few discs at most on average.
        assert!(total <= 8 * 4, "total difference {total}");
    }

    #[test]
    fn selectivity_levels() {
        assert_eq!(probcut_for(100), Ok(None));
        assert_eq!(probcut_for(87), Ok(Some(1.5)));
        assert!(probcut_for(50).unwrap_err().contains("73, 87, 95, 98, 99, 100"));
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
    fn the_depth_limited_search_is_the_same_on_any_thread_count() {
        let single = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        for seed in 0..4 {
            let pos = random_position(seed, 36, "othello");
            let run = |threads: usize| {
                let mut solver =
                    Solver::new(4, Counting::EmptiesToWinner).with_threads(threads).with_probcut(Some(1.5));
                let best = solver.search_with(&pos, 9, Limits::default()).unwrap();
                let moves = solver.search_moves_with(&pos, 9, Limits::default()).unwrap();
                (best, moves)
            };
            let one = single.install(|| run(1));
            assert_eq!(one, pool.install(|| run(2)), "seed {seed}");
            assert_eq!(one, pool.install(|| run(2)), "seed {seed}, again");
        }
    }

    #[test]
    fn limits_stop_the_search() {
        let pos = random_position(3, 42, "othello");
        let mut solver = Solver::new(4, Counting::EmptiesToWinner);
        // Above the first check of the limits (every 4,096 nodes), so that any search is cut.
        let limits = Limits { nodes: Some(10_000), ..Limits::default() };
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
    fn a_cancel_handle_stops_a_search_from_another_thread() {
        // 40 empty squares: far too long to solve or search 30 moves deep before the cancel.
        let pos = random_position(7, 20, "othello");
        let mut solver = Solver::new(8, Counting::EmptiesToWinner);
        let cancel = solver.cancel_handle();
        cancel.cancel();
        assert!(matches!(solver.solve_with(&pos, Target::Exact, Limits::default()), Err(SolveError::Stopped { .. })));
        cancel.reset();
        let stopper = std::thread::spawn({
            let cancel = cancel.clone();
            move || {
                std::thread::sleep(std::time::Duration::from_millis(50));
                cancel.cancel();
            }
        });
        // A deepening search answers with its last finished depth, as at a time limit.
        let searched = solver.search_with(&pos, 30, Limits::default()).unwrap();
        stopper.join().unwrap();
        assert!(searched.depth < 30, "{searched:?}");
        assert!(cancel.is_cancelled());
        cancel.reset();
        assert!(solver.search_with(&pos, 2, Limits::default()).is_ok());
    }

    #[test]
    fn a_node_limit_stops_the_search_near_it() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        // 22 and 18 empties: far more than the limits take to solve.
        for (seed, plies) in [(3, 38), (5, 42)] {
            let pos = random_position(seed, plies, "othello");
            for limit in [40_000, 150_000] {
                let mut solver = Solver::new(4, Counting::EmptiesToWinner);
                let limits = Limits { nodes: Some(limit), ..Limits::default() };
                let Err(SolveError::Stopped { nodes }) = solver.solve_with(&pos, Target::Exact, limits) else {
                    panic!("seed {seed}: solved within {limit} nodes");
                };
                // Checked every POLL nodes, the last empties' nodes included.
                assert!((limit..limit + 2 * super::super::search::POLL).contains(&nodes), "{nodes} for {limit}");
                // Two threads: each polls, and each split's short searches report as they end.
                let mut solver = Solver::new(4, Counting::EmptiesToWinner).with_threads(2);
                let stopped = pool.install(|| solver.solve_with(&pos, Target::Exact, limits));
                let Err(SolveError::Stopped { nodes }) = stopped else {
                    panic!("seed {seed}: solved within {limit} nodes on two threads");
                };
                assert!(
                    (limit..limit + 4 * super::super::search::POLL).contains(&nodes),
                    "{nodes} for {limit}, two threads"
                );
            }
        }
    }

    #[test]
    fn a_node_limit_stops_the_depth_limited_search_near_it() {
        let single = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let poll = super::super::search::POLL;
        for seed in 0..4 {
            let pos = random_position(seed, 24, "othello");
            for limit in [50_000, 200_000] {
                let limits = Limits { nodes: Some(limit), ..Limits::default() };
                let mut solver = Solver::new(4, Counting::EmptiesToWinner);
                let found = single.install(|| solver.search_with(&pos, 30, limits)).unwrap();
                assert!(found.depth < 30, "seed {seed}: depth 30 within {limit} nodes");
                // The root's moves after the limit go unsearched: none runs on to its own first
                // check of the limits.
                assert!(found.nodes < limit + 2 * poll, "seed {seed}: {} for {limit}", found.nodes);
                let mut solver = Solver::new(4, Counting::EmptiesToWinner).with_threads(2);
                let found = pool.install(|| solver.search_with(&pos, 30, limits)).unwrap();
                assert!(found.nodes < limit + 4 * poll, "seed {seed}: {} for {limit}, two threads", found.nodes);
            }
        }
    }

    /// A search stopped inside a depth answers with the last finished one whole: its best move,
    /// value and line are those of a search to that depth.
    #[test]
    fn a_stopped_search_answers_with_its_last_finished_depth() {
        let single = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        for seed in 0..3 {
            let pos = random_position(seed, 30, "othello");
            for limit in [3_000, 20_000, 100_000] {
                let limits = Limits { nodes: Some(limit), ..Limits::default() };
                let mut solver = Solver::new(4, Counting::EmptiesToWinner);
                let stopped = single.install(|| solver.search_with(&pos, 30, limits)).unwrap();
                let mut solver = Solver::new(4, Counting::EmptiesToWinner);
                let whole = single.install(|| solver.search_with(&pos, stopped.depth, Limits::default())).unwrap();
                assert_eq!(
                    (stopped.best, stopped.units, &stopped.pv),
                    (whole.best, whole.units, &whole.pv),
                    "seed {seed}, {limit} nodes, depth {}",
                    stopped.depth
                );
            }
        }
    }

    #[test]
    fn a_deepening_budget_stops_at_a_depth_alike_on_any_thread_count() {
        let single = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        for seed in 0..3 {
            let pos = random_position(seed, 30, "othello");
            let run = |threads: usize, depth: u32, budget: Option<u64>| {
                let mut solver = Solver::new(4, Counting::EmptiesToWinner).with_threads(threads);
                solver.search_with(&pos, depth, Limits { deepening_nodes: budget, ..Limits::default() }).unwrap()
            };
            let small = single.install(|| run(1, 30, Some(30_000)));
            assert_eq!(small, pool.install(|| run(2, 30, Some(30_000))), "seed {seed}");
            let large = single.install(|| run(1, 30, Some(600_000)));
            assert!(small.depth < large.depth && large.depth < 30, "seed {seed}: {} {}", small.depth, large.depth);
            // The budget only chose the depth: the same search as one asked for that depth.
            assert_eq!(small, single.install(|| run(1, small.depth, None)), "seed {seed}");
            assert_eq!(large, pool.install(|| run(2, large.depth, None)), "seed {seed}");
        }
    }

    #[test]
    fn move_searches_within_a_budget_give_every_move_at_the_last_depth_finished() {
        let single = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        for seed in 0..3 {
            let pos = random_position(seed, 30, "othello");
            let sorted = |moves: Vec<Move>| {
                let mut names: Vec<String> = moves.iter().map(ToString::to_string).collect();
                names.sort();
                names
            };
            let legal = sorted(pos.legal_moves());
            let mut depths = Vec::new();
            for limits in [
                Limits { nodes: Some(3_000), ..Limits::default() },
                Limits { nodes: Some(200_000), ..Limits::default() },
                Limits { deepening_nodes: Some(400_000), ..Limits::default() },
            ] {
                let run = || Solver::new(4, Counting::EmptiesToWinner).search_moves_with(&pos, 30, limits).unwrap();
                let moves = single.install(run);
                assert_eq!(sorted(moves.iter().map(|(mv, _)| *mv).collect()), legal, "seed {seed}");
                let depth = moves[0].1.depth;
                assert!((1..30).contains(&depth), "seed {seed}: {depth}");
                assert!(moves.iter().all(|(_, e)| e.depth == depth && !e.exact), "seed {seed}: {moves:?}");
                assert!(moves.windows(2).all(|w| w[0].1.units >= w[1].1.units), "seed {seed}: best first");
                if limits.deepening_nodes.is_some() {
                    // A deepening budget chooses the depth by the positions searched alone.
                    assert_eq!(moves, single.install(run), "seed {seed}");
                }
                depths.push(depth);
            }
            assert!(depths[0] < depths[1], "seed {seed}: {depths:?}");
        }
        // A cancelled search within a budget still gives depth 1; without one, none.
        let pos = random_position(1, 30, "othello");
        let mut solver = Solver::new(4, Counting::EmptiesToWinner);
        solver.cancel_handle().cancel();
        let budget = Limits { time: Some(std::time::Duration::from_secs(60)), ..Limits::default() };
        let moves = solver.search_moves_with(&pos, 20, budget).unwrap();
        assert!(moves.iter().all(|(_, e)| e.depth == 1), "{moves:?}");
        assert!(matches!(solver.search_moves_with(&pos, 20, Limits::default()), Err(SolveError::Stopped { .. })));
    }

    #[test]
    fn a_depth_limited_line_holds_as_many_moves_as_the_depth() {
        for seed in 0..12 {
            let pos = random_position(seed, 20 + seed as usize, "othello");
            let mut solver = Solver::new(4, Counting::EmptiesToWinner);
            for depth in 2..=9 {
                let found = solver.search_with(&pos, depth, Limits::default()).unwrap();
                let mut end = pos.clone();
                for &mv in &found.pv {
                    end.play_mut(mv).unwrap();
                }
                assert!(
                    found.pv.len() == depth as usize || end.is_game_over(),
                    "seed {seed}, depth {depth}: {found:?}"
                );
                assert_eq!(found.best, found.pv.first().copied());
            }
        }
    }

    #[test]
    fn the_budget_of_a_depth_counts_its_growth() {
        let budget = Limits { deepening_nodes: Some(1_000), ..Limits::default() };
        // 700 spent, the last depth 200 after 100: the next is expected to take 400.
        assert!(!budget.may_deepen(700, 200, 100));
        // After 200 the same again: 200.
        assert!(budget.may_deepen(700, 200, 200));
        // Without a depth before, twice the last.
        assert!(budget.may_deepen(100, 100, 0));
        assert!(!budget.may_deepen(100, 500, 0));
        assert!(Limits::default().may_deepen(u64::MAX, u64::MAX, 1));
    }

    #[test]
    fn other_rules_are_declined() {
        let pos = Position::start("othello,size=6".parse::<Rules>().unwrap().shared());
        assert!(Solver::new(1, Counting::default()).solve(&pos).is_none());
    }
}
