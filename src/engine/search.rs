//! The searches behind [`crate::engine::solve::Solver`]: the exact endgame search and the
//! depth-limited search on the evaluation, one thread's state each, sharing the table.
//!
//! - Exact: null-window probes at the root moving toward the value (MTD(f); after a selective
//!   pass, a narrow window around its value), null-window search below; enhanced
//!   transposition cut-offs; stability cut-offs (the opponent's stable discs bound the score); moves ordered by the table's move, then by the
//!   evaluation looking up to two moves ahead far from the end, and fastest-first (fewest and
//!   weakest replies for the opponent, least potential mobility for it and most for the mover,
//!   corners first and the squares next to an empty corner last; below
//!   `EVAL_ORDER_FROM` empties a move that leaves at most one reply is searched as soon as
//!   it is found, before the other keys are made, and each child reuses the replies its key
//!   counted as its own moves); no table and
//!   quadrant-parity ordering near the end, the last four empty squares played out without move
//!   generation; young-brothers-wait parallelism (rayon) far from the end. From
//!   `SELECTIVE_FROM` empties at the root, a selective pass comes first: the same search with
//!   ProbCut cut-offs (a shallow search on the evaluation predicting the final margin), whose
//!   entries are tagged with their selectivity level so that the exact pass takes only their
//!   moves and centres its window on their value.
//! - Depth-limited: principal-variation search on the pattern evaluation, with the same table
//!   (its entries carry their depth), handing over to the exact search where the depth reaches
//!   the end of the game. Its root's moves are split between threads so that nothing depends on
//!   timing (the others' searches on private table layers over the frozen shared table,
//!   `Search::split_children`): the same result for any number of threads.

use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use super::eval::{Evaluator, Features, SCALE};
use super::solve::{Cancel, Counting, Limits, SELECTIVITY};
use super::stability::stable_count_reaches;
use super::table::{
    EXACT, Entry, Layer, Layers, NEAR_EMPTIES, NO_MOVE, SELECTIVE_LEVELS, TableView, Tables, endgame_tag,
};
use crate::core::bitboard::{Bitboard, Bits, flips, last_flip_count, legal_moves};

const CORNERS: u64 = 0x8100_0000_0000_0081;
/// Empties at and below which the search drops the table and orders by parity only.
const SHALLOW: u32 = 5;
/// Empties from which a node looks its children up in the table before searching them
/// (enhanced transposition cut-offs).
const ETC_FROM: u32 = 8;
/// Empties from which the evaluation of each child joins the ordering.
const EVAL_ORDER_FROM: u32 = 12;
/// Empties from which that evaluation looks one move ahead.
const EVAL1_FROM: u32 = 15;
/// Empties from which it looks two moves ahead.
const EVAL2_FROM: u32 = 17;
/// Ordering-key bonus (fastest-first units, a reply is 20) of a move into a quadrant with an odd
/// number of empty squares, below [`EVAL_ORDER_FROM`].
const PARITY_BONUS: i32 = 8;
/// Ordering key of a move whose table entry shows it cannot reach the node's beta.
const PROVEN_SHORT: i32 = 100_000;
/// Depth of the estimate the root's first window is centred on.
const ASPIRATION_DEPTH: u32 = 4;
/// Half-width of that window, in discs.
const ASPIRATION: i32 = 3;
/// Evaluation units per ordering-key unit.
const EVAL_DIV: i32 = 3;
/// How far (evaluation units, in the child's view) an ordering estimate may fall behind the
/// best sibling's before it stops at a bound: 4 discs.
const ESTIMATE_MARGIN: i32 = 4 * SCALE;
/// Depth from which the depth-limited search splits its root's moves between threads.
const ROOT_SPLIT_FROM: u32 = 8;
/// Empties from which a null-window node checks the opponent's stable discs.
const STABILITY_FROM: u32 = 4;
/// Empties from which nodes split their moves between threads.
const SPLIT_FROM: u32 = 16;
/// Empties from which a node under a parallel split checks whether the split was cut.
const CUT_CHECK_FROM: u32 = 10;
/// The four quadrants, for parity.
const QUADRANTS: [u64; 4] =
    [0x0000_0000_0F0F_0F0F, 0x0000_0000_F0F0_F0F0, 0x0F0F_0F0F_0000_0000, 0xF0F0_F0F0_0000_0000];

/// The limits of one call, shared by its threads.
pub(crate) struct Stop {
    flag: AtomicBool,
    nodes: AtomicU64,
    node_limit: u64,
    deadline: Option<Instant>,
    /// The solver's [`Cancel`] flag, set from another thread.
    cancel: Option<Arc<AtomicBool>>,
}

impl Stop {
    pub(crate) fn new(limits: Limits, cancel: Option<&Cancel>) -> Stop {
        let cancel = cancel.map(|c| c.flag().clone());
        Stop {
            flag: AtomicBool::new(cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed))),
            nodes: AtomicU64::new(0),
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            deadline: limits.time.map(|t| Instant::now() + t),
            cancel,
        }
    }

    pub(crate) fn hit(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }

    /// Adds a thread's recent nodes and checks the limits.
    fn check(&self, recent: u64) -> bool {
        let total = self.nodes.fetch_add(recent, Ordering::Relaxed) + recent;
        if total >= self.node_limit
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed))
        {
            self.flag.store(true, Ordering::Relaxed);
        }
        self.hit()
    }
}

/// The final margin in discs of a finished game for `p` against `o`, counted as `counting` says.
pub(crate) fn final_margin(p: u64, o: u64, counting: Counting) -> i32 {
    let (mine, theirs) = (p.count_ones() as i32, o.count_ones() as i32);
    let diff = mine - theirs;
    if counting == Counting::Plain {
        return diff;
    }
    let empties = 64 - mine - theirs;
    match diff.cmp(&0) {
        std::cmp::Ordering::Greater => diff + empties,
        std::cmp::Ordering::Less => diff - empties,
        std::cmp::Ordering::Equal => 0,
    }
}

/// How often (in nodes) a thread reports to [`Stop`].
pub(crate) const POLL: u64 = 1 << 12;

/// One thread's search state.
pub(crate) struct Search<'a> {
    /// What the threads of this call share.
    pub(crate) cx: Context<'a>,
    /// The parts of the shared table this search uses: the main table and one near-the-end
    /// table (its thread's, or for a layered search the one of the search that split).
    pub(crate) table: TableView<'a>,
    /// The private table this search writes to and reads first, over a frozen shared table
    /// (none: it writes to the shared table).
    pub(crate) layer: Option<&'a Layer>,
    /// Whether nodes may split their moves between threads.
    pub(crate) parallel: bool,
    pub(crate) nodes: u64,
    /// `nodes` when the limits were last checked (the nodes since then are not yet in the
    /// shared count).
    polled: u64,
    /// Flags of the parallel splits this search works under: any set means its result is moot.
    pub(crate) cut: Vec<Arc<AtomicBool>>,
    /// Set once this search's result can no longer be trusted (a limit or a cut elsewhere).
    pub(crate) aborted: bool,
    /// The endgame search's selectivity level: an index into [`SELECTIVITY`] for a pass with
    /// ProbCut cut-offs, [`SELECTIVE_LEVELS`] for the exact search.
    pub(crate) level: u8,
}

/// What all the threads of one call share, copied into each thread's [`Search`].
#[derive(Clone, Copy)]
pub(crate) struct Context<'a> {
    /// The shared table: written by a search without a layer, only read by one with a layer.
    /// Each search uses the main table and one of the near-the-end tables (its `table`).
    pub(crate) table: &'a Tables,
    /// Where the root split of the depth-limited search takes its layers.
    pub(crate) layers: &'a Layers,
    pub(crate) eval: &'a Evaluator,
    pub(crate) counting: Counting,
    pub(crate) generation: u8,
    pub(crate) stop: &'a Stop,
    /// ProbCut in the depth-limited search: a node is cut when a shallow search predicts a
    /// fail outside the window by this many standard deviations (none: no selectivity).
    pub(crate) probcut: Option<f64>,
}

impl<'a> Search<'a> {
    /// A search with no nodes yet on the parts `table` of the shared table, writing to `layer`
    /// (else to `table`), splitting nodes between threads when `parallel`, at selectivity
    /// `level`, under the splits `cut`.
    pub(crate) fn new(
        cx: Context<'a>,
        table: TableView<'a>,
        layer: Option<&'a Layer>,
        parallel: bool,
        level: u8,
        cut: Vec<Arc<AtomicBool>>,
    ) -> Search<'a> {
        Search { cx, table, layer, parallel, nodes: 0, polled: 0, cut, aborted: false, level }
    }
}

/// What the table knows of a child for its parent's null window ([`Search::child_entry`]).
enum Known {
    /// The child's entry decides the parent: this bound.
    Refutes(i32),
    /// The child cannot reach the parent's beta: the parent's score by it is at most this.
    Short(i32),
    Nothing,
}

/// The moves of one node, ready to search: at most one per square, so never full. Nothing is
/// written until a move is pushed (a node of the search makes one; clearing a whole array at
/// every node cost measurable time), and only the pushed moves can be seen.
struct Children {
    items: [MaybeUninit<Child>; 64],
    len: usize,
}

impl Children {
    fn new() -> Children {
        Children { items: [const { MaybeUninit::uninit() }; 64], len: 0 }
    }

    #[inline]
    fn push(&mut self, child: Child) {
        self.items[self.len].write(child);
        self.len += 1;
    }

    /// Keeps the moves for which `keep` holds, in their order.
    fn retain(&mut self, mut keep: impl FnMut(&Child) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            let child = self[i];
            if keep(&child) {
                self.items[kept].write(child);
                kept += 1;
            }
        }
        self.len = kept;
    }
}

impl std::ops::Deref for Children {
    type Target = [Child];

    #[inline]
    fn deref(&self) -> &[Child] {
        // SAFETY: the first `len` items were written by `push` or `retain` (`MaybeUninit<Child>`
        // has `Child`'s layout).
        unsafe { std::slice::from_raw_parts(self.items.as_ptr().cast::<Child>(), self.len) }
    }
}

impl std::ops::DerefMut for Children {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Child] {
        // SAFETY: as in `deref`.
        unsafe { std::slice::from_raw_parts_mut(self.items.as_mut_ptr().cast::<Child>(), self.len) }
    }
}

/// The node [`Search::order`] orders the moves of.
enum NodeKind<'b> {
    /// A principal-variation node: its table's move (or [`NO_MOVE`]) goes first.
    Principal { hash_move: u8 },
    /// A null-window node: the best value and move so far, which the moves left out join.
    NullWindow { skipped: &'b mut (i32, u8) },
}

/// One move of a node, ready to search.
#[derive(Clone, Copy)]
struct Child {
    key: i32,
    sq: u8,
    flipped: u64,
    /// The opponent's moves after this one (the endgame search only; the depth-limited
    /// search leaves it 0).
    replies: u64,
}

impl Search<'_> {
    /// What this search's layer, else the shared table, holds for `p` to move against `o`.
    #[inline]
    fn probe(&self, p: u64, o: u64) -> Option<Entry> {
        if let Some(found) = self.layer.and_then(|l| l.probe(p, o)) {
            return Some(found);
        }
        self.table.probe(p, o)
    }

    /// Records an entry in this search's layer, else in the shared table.
    #[inline]
    fn store(&self, p: u64, o: u64, entry: Entry) {
        match self.layer {
            Some(layer) => layer.store(p, o, entry, self.cx.generation),
            None => {
                self.table.store(p, o, entry, self.cx.generation);
            }
        }
    }

    /// Counts a node; every [`POLL`] nodes (the last empties' nodes included) adds them to
    /// the shared count and checks the limits and the splits above.
    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes - self.polled >= POLL {
            let recent = self.nodes - self.polled;
            self.polled = self.nodes;
            if self.cx.stop.check(recent) || self.cut.iter().any(|c| c.load(Ordering::Relaxed)) {
                self.aborted = true;
            }
        }
    }

    /// Takes in the nodes of searches on other threads, which counted them in the shared
    /// count themselves ([`Search::flush`]).
    fn add_counted(&mut self, nodes: u64) {
        self.nodes += nodes;
        self.polled += nodes;
    }

    /// At the end of a search: its nodes not yet in the shared count go there and the limits
    /// are checked, so that the searches after it under the same limits count them (a split's
    /// many short searches would otherwise never report).
    pub(crate) fn flush(&mut self) {
        self.cx.stop.check(self.nodes - self.polled);
        self.polled = self.nodes;
    }

    pub(crate) fn final_score(&self, p: u64, o: u64) -> i32 {
        final_margin(p, o, self.cx.counting)
    }

    /// The moves of `p` in `out`, each with its flips and an ordering key (lower first; left
    /// unsorted); `Err` with the bound when a child's table entry already refutes the node's
    /// `beta` (enhanced transposition cut-off). A move whose child's entry shows it cannot reach
    /// `beta` goes last in a principal-variation node; a null-window node only needs to know
    /// whether some move reaches `beta`, so there it is left out, its bound and square taken
    /// into the node's `skipped` as if it had been searched.
    fn order(&self, p: u64, o: u64, moves: u64, beta: i32, kind: NodeKind<'_>, out: &mut Children) -> Result<(), i32> {
        let (hash_move, mut skipped) = match kind {
            NodeKind::Principal { hash_move } => (hash_move, None),
            NodeKind::NullWindow { skipped } => (NO_MOVE, Some(skipped)),
        };
        let empties = 64 - (p | o).count_ones();
        let etc = empties >= ETC_FROM;
        for sq in Bits(moves) {
            let f = flips(sq, p, o);
            if etc {
                self.table.prefetch(o & !f, p | f | (1 << sq));
            }
            out.push(Child { key: 0, sq: sq as u8, flipped: f, replies: 0 });
        }
        let odd = odd_quadrants(!(p | o));
        // The fastest-first part of each key first: it gives the prefetches time to arrive.
        for c in out.iter_mut() {
            let (np, no) = (p | c.flipped | (1u64 << c.sq), o & !c.flipped);
            c.replies = legal_moves(no, np);
            c.key = fastest_first(c.sq, np, no, c.replies);
        }
        let mut proven_short = 0u64;
        if etc {
            // Every child's slots were asked for at once; now their entries.
            for c in out.iter() {
                let (np, no) = (p | c.flipped | (1u64 << c.sq), o & !c.flipped);
                match self.child_entry(np, no, beta) {
                    Known::Refutes(bound) => return Err(bound),
                    // Known not to reach beta: searched last, without an estimate, or left out.
                    Known::Short(bound) => {
                        proven_short |= 1 << c.sq;
                        if let Some(best) = skipped.as_deref_mut()
                            && bound > best.0
                        {
                            *best = (bound, c.sq);
                        }
                    }
                    Known::Nothing => {}
                }
            }
            if skipped.is_some() && proven_short != 0 {
                out.retain(|c| proven_short >> c.sq & 1 == 0);
            }
        }
        let eval_depth = match empties {
            _ if empties < EVAL_ORDER_FROM => None,
            _ if empties >= EVAL2_FROM => Some(2),
            _ if empties >= EVAL1_FROM => Some(1),
            _ => Some(0),
        };
        // An estimate only has to place a child among its siblings: once it is ESTIMATE_MARGIN
        // worse than the best so far, its bound will do. The likeliest moves by the key so far
        // go first, so that the best comes early.
        let mut best = SCALE * 64;
        if eval_depth.is_some_and(|depth| depth > 0) {
            out.sort_unstable_by_key(|c| c.key);
        }
        let features = eval_depth.map(|_| self.cx.eval.features(p, o));
        for c in out.iter_mut() {
            if proven_short >> c.sq & 1 != 0 {
                c.key = PROVEN_SHORT;
            } else if c.sq == hash_move {
                c.key = -10_000;
            } else if let (Some(depth), Some(features)) = (eval_depth, &features) {
                let (np, no) = (p | c.flipped | (1u64 << c.sq), o & !c.flipped);
                let child = features.play(u32::from(c.sq), c.flipped);
                let high = (best + ESTIMATE_MARGIN).min(SCALE * 64);
                let estimate = self.estimate_from(no, np, &child, depth, -SCALE * 64, high);
                best = best.min(estimate);
                c.key += estimate / EVAL_DIV;
            } else if (1u64 << c.sq) & odd != 0 {
                c.key -= PARITY_BONUS;
            }
        }
        Ok(())
    }

    /// A quick estimate of the position for ordering: alpha-beta on the evaluation to `depth`
    /// moves, in evaluation units for the side to move.
    pub(crate) fn estimate(&self, p: u64, o: u64, depth: u32, alpha: i32, beta: i32) -> i32 {
        if depth == 0 {
            return self.cx.eval.evaluate(p, o);
        }
        self.estimate_from(p, o, &self.cx.eval.features(p, o), depth, alpha, beta)
    }

    /// [`Search::estimate`] given the position's features, which each move updates.
    fn estimate_from(&self, p: u64, o: u64, features: &Features, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        if depth == 0 {
            return self.cx.eval.evaluate_features(p, o, features);
        }
        let moves = legal_moves(p, o);
        if moves == 0 {
            if legal_moves(o, p) == 0 {
                return self.final_score(p, o) * SCALE;
            }
            return -self.estimate_from(o, p, &features.passed(), depth, -beta, -alpha);
        }
        let mut best = -SCALE * 65;
        for sq in Bits(moves) {
            let f = flips(sq, p, o);
            let child = features.play(sq, f);
            let score = -self.estimate_from(o & !f, p | f | (1 << sq), &child, depth - 1, -beta, -alpha);
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

    /// The value in (`alpha`, `beta`) by null-window probes starting at an estimate
    /// ([`Search::probes`]). Far from the end ([`SELECTIVE_FROM`]), passes at increasing
    /// selectivity levels come first and every pass, the last one exact, searches in a narrow
    /// window around the one before's value instead ([`Search::windowed`]): each leaves best
    /// moves and its bounds in the table for the next; only the exact pass gives the value.
    pub(crate) fn aspiration(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
        let empties = 64 - (p | o).count_ones();
        if empties <= SHALLOW || beta - alpha <= 2 {
            return self.pvs(p, o, alpha, beta, false);
        }
        // (Centring it on a depth-limited search to 12 or 14 moves short of the end instead cost
        // more than it saved on FFO #20-39.)
        let estimate = self.estimate(p, o, ASPIRATION_DEPTH.min(empties), -SCALE * 64, SCALE * 64);
        let mut guess = (estimate / SCALE).clamp(alpha + 1, beta - 1);
        if empties >= SELECTIVE_FROM {
            for level in SELECTIVE_PASSES {
                self.level = level;
                let score = self.windowed(p, o, alpha, beta, guess);
                self.level = SELECTIVE_LEVELS;
                if self.aborted {
                    return score;
                }
                guess = score.clamp(alpha + 1, beta - 1);
            }
            // After a selective pass, a window around its value did better than probes (FFO
            // #56-57 took 20% longer by probes; docs/BENCHMARKS.md).
            return self.windowed(p, o, alpha, beta, guess);
        }
        self.probes(p, o, alpha, beta, guess)
    }

    /// The value in (`alpha`, `beta`) by null-window probes alone, starting at `guess`: each
    /// probe's bound moves the next one (MTD(f)), until the bounds meet or leave the window.
    /// With a good guess two probes settle it, which costs less than one search in a window
    /// around the guess (FFO #40-44 15% fewer nodes; docs/BENCHMARKS.md).
    fn probes(&mut self, p: u64, o: u64, alpha: i32, beta: i32, guess: i32) -> i32 {
        let (mut lower, mut upper) = (-65, 65);
        let mut g = guess;
        while lower < upper {
            // Is the value at least `test`?
            let test = if g == lower { g + 1 } else { g };
            g = self.nws(p, o, test - 1, false);
            if self.aborted {
                return g;
            }
            if g >= test {
                lower = g;
                if lower >= beta {
                    return lower;
                }
            } else {
                upper = g;
                if upper <= alpha {
                    return upper;
                }
            }
        }
        g
    }

    /// The value in (`alpha`, `beta`) by searches in a window of [`ASPIRATION`] discs around
    /// `guess`, widened on the side that fails. A selective pass, whose results need not agree
    /// from one window to the next, stops widening after a few windows.
    fn windowed(&mut self, p: u64, o: u64, alpha: i32, beta: i32, guess: i32) -> i32 {
        let (mut low, mut high) = ((guess - ASPIRATION).max(alpha), (guess + ASPIRATION).min(beta));
        for tries in 1.. {
            let score = self.pvs(p, o, low, high, false);
            if self.aborted || (self.level < SELECTIVE_LEVELS && tries >= 3) {
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
        unreachable!("the loop returns")
    }

    /// ProbCut in a selective pass of the endgame search (below [`SELECTIVE_LEVELS`]): a
    /// shallow depth-limited search predicts the final margin, and a prediction beyond the
    /// null window above `alpha` by the level's number of standard deviations
    /// ([`SELECTIVITY`], [`endcut_sigma`]) is taken as that side's bound.
    fn endcut(&mut self, p: u64, o: u64, alpha: i32, empties: u32) -> Option<i32> {
        let depth = endcut_depth(empties);
        let t = SELECTIVITY[usize::from(self.level)].1;
        let margin = (t * endcut_sigma(empties, depth) * f64::from(SCALE)).round() as i32;
        // One side only, the one the static evaluation leans to (both cost more than they cut).
        if self.cx.eval.evaluate(p, o) >= alpha * SCALE {
            let high = (alpha + 1) * SCALE + margin;
            if high < SCALE * 64 && self.midgame(p, o, depth, high - 1, high, false) >= high {
                return Some(alpha + 1);
            }
            return None;
        }
        let low = alpha * SCALE - margin;
        if low > -SCALE * 64 && self.midgame(p, o, depth, low, low + 1, false) <= low {
            return Some(alpha);
        }
        None
    }

    /// Principal-variation search in the window (`alpha`, `beta`); `passed` says the opponent
    /// just passed.
    pub(crate) fn pvs(&mut self, p: u64, o: u64, mut alpha: i32, mut beta: i32, passed: bool) -> i32 {
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
        if let Some(e) = self.probe(p, o) {
            if e.depth >= endgame_tag(self.level) {
                let (lower, upper) = (i32::from(e.lower), i32::from(e.upper));
                if lower >= beta || lower == upper {
                    return lower;
                }
                if upper <= alpha {
                    return upper;
                }
                alpha = alpha.max(lower);
                beta = beta.min(upper);
            }
            hash_move = e.best;
        }
        let original_alpha = alpha;
        let mut children = Children::new();
        if let Err(bound) = self.order(p, o, moves, beta, NodeKind::Principal { hash_move }, &mut children) {
            return bound;
        }
        children.sort_unstable_by_key(|c| c.key);
        let Some((best, best_move)) =
            self.principal_children(p, o, &children, alpha, beta, |s, _, p, o, a, b| s.pvs(p, o, a, b, false))
        else {
            return 0;
        };
        self.save(p, o, (original_alpha, beta), best, best_move, empties);
        best
    }

    /// The moves of a principal-variation node, in order: the first in the full window, the
    /// others in a null window first and again in the full one when they beat alpha. `search`
    /// gives a child's value for its side to move in a window (given the move, and the child
    /// position). The best value and move, or `None` when the search was aborted.
    fn principal_children(
        &mut self,
        p: u64,
        o: u64,
        children: &[Child],
        mut alpha: i32,
        beta: i32,
        mut search: impl FnMut(&mut Self, &Child, u64, u64, i32, i32) -> i32,
    ) -> Option<(i32, u8)> {
        let mut best = (i32::MIN, NO_MOVE);
        for (i, c) in children.iter().enumerate() {
            let (np, no) = (p | c.flipped | (1u64 << c.sq), o & !c.flipped);
            let score = if i == 0 {
                -search(self, c, no, np, -beta, -alpha)
            } else {
                let probe = -search(self, c, no, np, -alpha - 1, -alpha);
                if probe > alpha && probe < beta && !self.aborted {
                    -search(self, c, no, np, -beta, -probe)
                } else {
                    probe
                }
            };
            if self.aborted {
                return None;
            }
            if raise(&mut best, &mut alpha, beta, score, c.sq) {
                break;
            }
        }
        Some(best)
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
        let entry = Entry {
            lower: lower as i16,
            upper: upper as i16,
            best: best_move,
            depth: endgame_tag(self.level),
            cost: empties as u8,
        };
        self.store(p, o, entry);
    }

    /// Null-window search: is the value above `alpha`? Returns a bound on the wrong side of the
    /// window or the value itself.
    fn nws(&mut self, p: u64, o: u64, alpha: i32, passed: bool) -> i32 {
        self.nws_known(p, o, alpha, passed, None)
    }

    /// [`Search::nws`] given the moves of `p` when the caller has them.
    fn nws_known(&mut self, p: u64, o: u64, alpha: i32, passed: bool, moves: Option<u64>) -> i32 {
        let empties = 64 - (p | o).count_ones();
        if empties <= SHALLOW {
            if empties == SHALLOW
                && let Some(moves) = moves
            {
                return self.shallow_node(p, o, alpha, empties, passed, moves);
            }
            return self.nws_shallow(p, o, alpha, empties, passed);
        }
        // (The near-the-end table stays in the core's cache: no prefetch there.)
        if empties > NEAR_EMPTIES {
            self.table.prefetch(p, o);
        }
        self.count_node();
        if empties >= CUT_CHECK_FROM && self.cut.iter().any(|c| c.load(Ordering::Relaxed)) {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let moves = moves.unwrap_or_else(|| legal_moves(p, o));
        if moves == 0 {
            if passed {
                return self.final_score(p, o);
            }
            return -self.nws(o, p, -alpha - 1, true);
        }
        if let Some(upper) = stability_cut(p, o, alpha, empties) {
            return upper;
        }
        let mut hash_move = NO_MOVE;
        if let Some(e) = self.probe(p, o) {
            if e.depth >= endgame_tag(self.level) {
                let (lower, upper) = (i32::from(e.lower), i32::from(e.upper));
                if lower > alpha {
                    return lower;
                }
                if upper <= alpha {
                    return upper;
                }
            }
            hash_move = e.best;
        }
        if self.level < SELECTIVE_LEVELS && empties >= ENDCUT_FROM {
            if let Some(bound) = self.endcut(p, o, alpha, empties) {
                return bound;
            }
            if self.aborted {
                return 0;
            }
        }
        // The table's move first, before the others are ordered: it often cuts alone.
        let mut best = (-65, NO_MOVE);
        let mut rest = moves;
        if hash_move != NO_MOVE && moves >> hash_move & 1 != 0 {
            let f = flips(u32::from(hash_move), p, o);
            best = (-self.nws(o & !f, p | f | (1u64 << hash_move), -alpha - 1, false), hash_move);
            if self.aborted {
                return 0;
            }
            if best.0 > alpha {
                self.save(p, o, (alpha, alpha + 1), best.0, best.1, empties);
                return best.0;
            }
            rest &= !(1u64 << hash_move);
        }
        let mut children = Children::new();
        if empties < EVAL_ORDER_FROM {
            if let Err(value) = self.fastest_first_children(p, o, alpha, rest, &mut best, &mut children) {
                if best.0 > alpha && !self.aborted {
                    self.save(p, o, (alpha, alpha + 1), best.0, best.1, empties);
                }
                return value;
            }
        } else if let Err(bound) =
            self.order(p, o, rest, alpha + 1, NodeKind::NullWindow { skipped: &mut best }, &mut children)
        {
            return bound;
        }
        let n = children.len();
        let (mut best, mut best_move) = best;
        let (best, best_move) = if self.parallel && empties >= SPLIT_FROM && n > 1 {
            children.sort_unstable_by_key(|c| c.key);
            let (score, sq) = self.nws_split(p, o, alpha, &children, rest != moves);
            if score > best { (score, sq) } else { (best, best_move) }
        } else {
            // The best key next, found when needed: most nodes cut on their first move or two.
            for i in 0..n {
                let next = (i..n).min_by_key(|&j| children[j].key).unwrap_or(i);
                children.swap(i, next);
                let c = &children[i];
                let score =
                    -self.nws_known(o & !c.flipped, p | c.flipped | (1u64 << c.sq), -alpha - 1, false, Some(c.replies));
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

    /// The moves of a null-window node near the end (below [`EVAL_ORDER_FROM`] empties, no
    /// evaluation in the keys) other than its table's move, `moves`, made one by one: each
    /// child's table entry is looked at first (enhanced transposition cut-off, from
    /// [`ETC_FROM`] empties; a child whose entry shows it cannot reach beta is left out, its
    /// bound taken into `best`), a child that leaves the opponent at most one reply is searched
    /// at once (it often cuts, and then the other keys are never computed), and the others get
    /// their fastest-first key (with a parity bonus) in `out`, each with its replies, which its
    /// search reuses. `best` takes the children searched here. `Err` with the node's value
    /// bound once it is decided (by a child searched here, kept in `best`, or by a child's
    /// entry).
    fn fastest_first_children(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        moves: u64,
        best: &mut (i32, u8),
        out: &mut Children,
    ) -> Result<(), i32> {
        let empties = 64 - (p | o).count_ones();
        let odd = odd_quadrants(!(p | o));
        for sq in Bits(moves) {
            let f = flips(sq, p, o);
            let (np, no) = (p | f | (1u64 << sq), o & !f);
            let replies = legal_moves(no, np);
            if empties >= ETC_FROM {
                match self.child_entry(np, no, alpha + 1) {
                    Known::Refutes(bound) => return Err(bound),
                    Known::Short(bound) => {
                        // It cannot cut: its bound stands in for its search.
                        if bound > best.0 {
                            *best = (bound, sq as u8);
                        }
                        continue;
                    }
                    Known::Nothing => {}
                }
            }
            if replies & replies.wrapping_sub(1) == 0 {
                let score = -self.nws_known(no, np, -alpha - 1, false, Some(replies));
                if self.aborted {
                    return Err(0);
                }
                if score > best.0 {
                    *best = (score, sq as u8);
                    if score > alpha {
                        return Err(score);
                    }
                }
                continue;
            }
            let key = if (1u64 << sq) & odd != 0 {
                fastest_first(sq as u8, np, no, replies) - PARITY_BONUS
            } else {
                fastest_first(sq as u8, np, no, replies)
            };
            out.push(Child { key, sq: sq as u8, flipped: f, replies });
        }
        Ok(())
    }

    /// What the table knows of a child (`no` to move against `np`) for a node that needs
    /// `beta`: the node's bound when the child's entry refutes it, or that the child cannot
    /// reach it.
    #[inline]
    fn child_entry(&self, np: u64, no: u64, beta: i32) -> Known {
        match self.probe(no, np).filter(|c| c.depth >= endgame_tag(self.level)) {
            Some(child) if -i32::from(child.upper) >= beta => Known::Refutes(-i32::from(child.upper)),
            Some(child) if -i32::from(child.lower) < beta => Known::Short(-i32::from(child.lower)),
            _ => Known::Nothing,
        }
    }

    /// The moves of a null-window node in parallel once the first has failed to cut: the
    /// young brothers wait for the eldest (the table's move when `eldest_done`, already searched,
    /// else the first of `children`). A cut by any sets a flag the others watch.
    fn nws_split(&mut self, p: u64, o: u64, alpha: i32, children: &[Child], eldest_done: bool) -> (i32, u8) {
        let (mut best, young) = if eldest_done {
            (-65, children)
        } else {
            let first = children[0];
            let best = -self.nws(o & !first.flipped, p | first.flipped | (1u64 << first.sq), -alpha - 1, false);
            if best > alpha || self.aborted {
                return (best, first.sq);
            }
            (best, &children[1..])
        };
        let first_sq = if eldest_done { NO_MOVE } else { children[0].sq };
        let cut = Arc::new(AtomicBool::new(false));
        let found = AtomicI32::new(best << 8 | i32::from(first_sq));
        let nodes = AtomicU64::new(0);
        let aborted = AtomicBool::new(false);
        let mut chain = self.cut.clone();
        chain.push(cut.clone());
        // (A search on a layer never splits: its result must not depend on other threads.)
        debug_assert!(self.layer.is_none());
        let (cx, level) = (self.cx, self.level);
        // First in, first out: the moves go in their order, the likeliest cuts first.
        rayon::scope_fifo(|scope| {
            for &c in young {
                let (cut, found, nodes, aborted, chain) = (&cut, &found, &nodes, &aborted, chain.clone());
                scope.spawn_fifo(move |_| {
                    if cut.load(Ordering::Relaxed) {
                        return;
                    }
                    if cx.stop.hit() {
                        // A limit ended the search: this move goes unsearched.
                        aborted.store(true, Ordering::Relaxed);
                        return;
                    }
                    // Each thread on its own near-the-end table: they stay in its core's cache.
                    let mut s = Search::new(cx, cx.table.current_view(), None, true, level, chain);
                    let score = -s.nws(o & !c.flipped, p | c.flipped | (1u64 << c.sq), -alpha - 1, false);
                    s.flush();
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
        self.add_counted(nodes.load(Ordering::Relaxed));
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
            3 => return self.three_empties(p, o, alpha, passed),
            4 => return self.four_empties(p, o, alpha, passed),
            _ => {}
        }
        self.shallow_node(p, o, alpha, empties, passed, !(p | o))
    }

    /// [`Search::nws_shallow`] above four empties, trying the `candidates` squares (every empty
    /// one, or the moves of `p` when its parent counted them).
    fn shallow_node(&mut self, p: u64, o: u64, alpha: i32, empties: u32, passed: bool, candidates: u64) -> i32 {
        self.count_node();
        if let Some(upper) = stability_cut(p, o, alpha, empties) {
            return upper;
        }
        let best =
            self.parity_placements(p, o, candidates, alpha, |s, p, o, a| s.nws_shallow(p, o, a, empties - 1, false));
        if best > -65 {
            return best;
        }
        if passed {
            return self.final_score(p, o);
        }
        -self.nws_shallow(o, p, -alpha - 1, empties, true)
    }

    /// The best value for `p` of its placements, found without generating the moves: each empty
    /// square in parity order (the squares next to an empty corner last; odd quadrants first
    /// among those and among the others) is tried when it touches an opponent's disc and flips
    /// something; `child` gives a child's value for its side to move, in a null window. Stops at
    /// the first value above `alpha`; -65 when `p` has no placement.
    #[inline(always)]
    fn parity_placements(
        &mut self,
        p: u64,
        o: u64,
        candidates: u64,
        alpha: i32,
        mut child: impl FnMut(&mut Self, u64, u64, i32) -> i32,
    ) -> i32 {
        let empty = !(p | o);
        let odd = odd_quadrants(empty);
        // The squares next to an empty corner (they may give it away): last, odd quadrants
        // first among them too.
        let late = Bitboard(empty & CORNERS).neighbours().0;
        let classes =
            [candidates & odd & !late, candidates & !odd & !late, candidates & odd & late, candidates & !odd & late];
        let mut best = -65;
        let (mut class, mut squares) = (0, classes[0]);
        loop {
            if squares == 0 {
                class += 1;
                if class == classes.len() {
                    break;
                }
                squares = classes[class];
                continue;
            }
            let sq = squares.trailing_zeros();
            squares &= squares - 1;
            if o & NEIGHBOURS[sq as usize] == 0 {
                continue;
            }
            let f = flips(sq, p, o);
            if f == 0 {
                continue;
            }
            let score = -child(self, o & !f, p | f | (1 << sq), -alpha - 1);
            if score > best {
                best = score;
                if score > alpha {
                    break;
                }
            }
        }
        best
    }

    /// Four empty squares: the stability cut-off, then [`Search::parity_placements`] and
    /// [`Search::three_empties`]; a side with no placement passes, and the game ends when
    /// neither has one.
    fn four_empties(&mut self, p: u64, o: u64, alpha: i32, passed: bool) -> i32 {
        self.nodes += 1;
        if let Some(upper) = stability_cut(p, o, alpha, 4) {
            return upper;
        }
        let best = self.parity_placements(p, o, !(p | o), alpha, |s, p, o, a| s.three_empties(p, o, a, false));
        if best > -65 {
            return best;
        }
        if passed {
            return self.final_score(p, o);
        }
        -self.four_empties(o, p, -alpha - 1, true)
    }

    /// Three empty squares: each placement in parity order (a square alone in its quadrant
    /// first, else in square order) followed by [`Search::two_empties_on`] on the other two.
    #[inline(always)]
    fn three_empties(&mut self, p: u64, o: u64, alpha: i32, passed: bool) -> i32 {
        self.nodes += 1;
        let empty = !(p | o);
        let (a, c) = (empty.trailing_zeros(), 63 - empty.leading_zeros());
        let b = (empty & (empty - 1)).trailing_zeros();
        let quadrant = |sq: u32| (sq >> 2 & 1) | (sq >> 4 & 2);
        let (qa, qb, qc) = (quadrant(a), quadrant(b), quadrant(c));
        // Each move with the two squares left, in square order.
        let moves = if qa == qb && qb != qc {
            [(c, a, b), (a, b, c), (b, a, c)]
        } else if qa == qc && qb != qa {
            [(b, a, c), (a, b, c), (c, a, b)]
        } else {
            [(a, b, c), (b, a, c), (c, a, b)]
        };
        let mut best = -65;
        for (sq, x, y) in moves {
            if o & NEIGHBOURS[sq as usize] == 0 {
                continue;
            }
            let f = flips(sq, p, o);
            if f == 0 {
                continue;
            }
            let score = -self.two_empties_on(o & !f, p | f | (1 << sq), -alpha - 1, false, x, y);
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
        -self.three_empties(o, p, -alpha - 1, true)
    }

    /// Two empty squares: each placement is followed by [`Search::last_move`].
    fn two_empties(&mut self, p: u64, o: u64, alpha: i32, passed: bool) -> i32 {
        let empty = !(p | o);
        self.two_empties_on(p, o, alpha, passed, empty.trailing_zeros(), 63 - empty.leading_zeros())
    }

    /// [`Search::two_empties`] on the empty squares `a` and `b`.
    #[inline(always)]
    fn two_empties_on(&mut self, p: u64, o: u64, alpha: i32, passed: bool, a: u32, b: u32) -> i32 {
        if let Some(score) = self.two_moves(p, o, alpha, a, b) {
            return score;
        }
        if passed {
            return self.final_score(p, o);
        }
        self.two_empties_passing(p, o, alpha, a, b)
    }

    /// [`Search::two_empties`] when the side to move has no placement (rare: kept out of line).
    #[cold]
    #[inline(never)]
    fn two_empties_passing(&mut self, p: u64, o: u64, alpha: i32, a: u32, b: u32) -> i32 {
        match self.two_moves(o, p, -alpha - 1, a, b) {
            Some(score) => -score,
            None => self.final_score(p, o),
        }
    }

    /// The value of the better placement of `p` on the two empty squares, if it has one.
    #[inline(always)]
    fn two_moves(&mut self, p: u64, o: u64, alpha: i32, a: u32, b: u32) -> Option<i32> {
        self.nodes += 1;
        let mut best = None;
        if o & NEIGHBOURS[a as usize] != 0 {
            let f = flips(a, p, o);
            if f != 0 {
                let score = -self.last_move_on(b, o & !f, p | f | (1 << a));
                if score > alpha {
                    return Some(score);
                }
                best = Some(score);
            }
        }
        if o & NEIGHBOURS[b as usize] != 0 {
            let f = flips(b, p, o);
            if f != 0 {
                let score = -self.last_move_on(a, o & !f, p | f | (1 << b));
                return Some(best.map_or(score, |best: i32| best.max(score)));
            }
        }
        best
    }

    /// The score with one empty square: the side to move takes it if it flips something, else
    /// the opponent does if it can, else the game ends as it stands.
    fn last_move(&mut self, p: u64, o: u64) -> i32 {
        self.last_move_on((!(p | o)).trailing_zeros(), p, o)
    }

    /// [`Search::last_move`] with the empty square `sq` known: only the flips are counted, the
    /// board being full otherwise.
    #[inline(always)]
    fn last_move_on(&mut self, sq: u32, p: u64, o: u64) -> i32 {
        self.nodes += 1;
        // Discs of `p` now; the board holds 63.
        let mine = p.count_ones() as i32;
        let n = last_flip_count(sq, p) as i32;
        if n != 0 {
            return 2 * (mine + n) - 62;
        }
        let n = last_flip_count(sq, o) as i32;
        if n != 0 {
            return 2 * (mine - n) - 64;
        }
        self.final_score(p, o)
    }
}

/// For each square, the squares one step away.
static NEIGHBOURS: [u64; 64] = {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = Bitboard(1 << sq).neighbours().0;
        sq += 1;
    }
    table
};

/// Takes a move's `score` into a node's best value and move and its alpha; true when it
/// reaches `beta` (a cut).
#[inline]
fn raise(best: &mut (i32, u8), alpha: &mut i32, beta: i32, score: i32, sq: u8) -> bool {
    if score > best.0 {
        *best = (score, sq);
        if score > *alpha {
            *alpha = score;
            return score >= beta;
        }
    }
    false
}

/// The fastest-first part of the ordering key of the move on `sq` (lower first): the
/// opponent's replies in the child (`np`, `no` after the move), corners among them counting
/// more, the child's frontier (the empty squares next to the mover's discs: the opponent's
/// potential mobility) against the mover's own potential mobility; a corner move gets a bonus,
/// a move next to an empty corner a malus.
#[inline]
fn fastest_first(sq: u8, np: u64, no: u64, replies: u64) -> i32 {
    let empty = !(np | no);
    let frontier = Bitboard(np).neighbours().0 & empty;
    let own = Bitboard(no).neighbours().0 & empty;
    let mut key = (replies.count_ones() as i32) * 20
        + (replies & CORNERS).count_ones() as i32 * 16
        + frontier.count_ones() as i32 * 8
        - own.count_ones() as i32 * 2;
    if (1u64 << sq) & CORNERS != 0 {
        key -= 10;
    } else if NEIGHBOURS[usize::from(sq)] & CORNERS & empty != 0 {
        key += 8;
    }
    key
}

/// The stability cut-off of a null-window node: the opponent's stable discs cap the score of
/// `p`, and when that cap is at or below `alpha` it is the node's value bound. Tried only where
/// it can succeed: from [`STABILITY_FROM`] empties, with `alpha` high enough, and with the
/// opponent holding at least the discs the cap needs.
#[inline(always)]
fn stability_cut(p: u64, o: u64, alpha: i32, empties: u32) -> Option<i32> {
    if empties < STABILITY_FROM || alpha < 2 * empties as i32 - 8 || 2 * (o.count_ones() as i32) < 64 - alpha {
        return None;
    }
    stability_bound(p, o, alpha)
}

/// [`stability_cut`] past its guard: the cap from the opponent's stable discs, if at or below
/// `alpha`. Out of line, so that the nodes that never get here do not pay for its registers.
#[inline(never)]
fn stability_bound(p: u64, o: u64, alpha: i32) -> Option<i32> {
    // upper = 64 - 2 * stable <= alpha needs (64 - alpha) / 2 stable discs, rounded up.
    let need = (65 - alpha) / 2;
    stable_count_reaches(o, p, need as u32).map(|stable| 64 - 2 * stable as i32)
}

/// The quadrants holding an odd number of the `empty` squares.
#[inline]
fn odd_quadrants(empty: u64) -> u64 {
    QUADRANTS.iter().filter(|&&q| (empty & q).count_ones() % 2 == 1).fold(0, |acc, &q| acc | q)
}

/// The bounds a fail-soft search's value `best` in `window` proves: an upper bound at or below
/// its low end, a lower bound at or above its high end, else the value itself; the open side is
/// `infinity`.
#[inline]
pub(crate) fn proven_bounds(best: i32, window: (i32, i32), infinity: i32) -> (i32, i32) {
    if best <= window.0 {
        (-infinity, best)
    } else if best >= window.1 {
        (best, infinity)
    } else {
        (best, best)
    }
}

/// An iteration of a depth-limited search deepening one move at a time: `search(low, high)`
/// in a window of two discs around `guess` (the last iteration's value), widened by eight discs
/// past the side that fails, until the value falls inside or `search` says it was stopped.
pub(crate) fn around(guess: i32, mut search: impl FnMut(i32, i32) -> (i32, bool)) -> i32 {
    let (mut low, mut high) = (guess - 2 * SCALE, guess + 2 * SCALE);
    loop {
        let (v, stopped) = search(low, high);
        if stopped || (v > low && v < high) {
            return v;
        }
        if v <= low {
            low = v - 8 * SCALE;
        } else {
            high = v + 8 * SCALE;
        }
    }
}

/// Depth from which ProbCut applies.
const PROBCUT_FROM: u32 = 4;
/// Root empties from which the exact search is preceded by selective passes.
const SELECTIVE_FROM: u32 = 24;
/// The selectivity levels of those passes, in order (indices into [`SELECTIVITY`]): one pass at
/// 73% (more passes cost more than they saved on FFO #45-51).
const SELECTIVE_PASSES: [u8; 1] = [0];
/// Empties from which a node of a selective endgame pass tries a ProbCut cut-off.
const ENDCUT_FROM: u32 = 10;

/// The depth of the shallow search that predicts the final margin of a position with
/// `empties` empty squares in a selective endgame pass.
fn endcut_depth(empties: u32) -> u32 {
    match empties {
        0..=13 => 2,
        14..=19 => 3,
        _ => 4,
    }
}

/// The standard deviation, in discs, of the final margin less the value of a search `depth`
/// moves ahead, for positions with `empties` empty squares: fitted to kifu's own figures on
/// WTHOR positions solved exactly (docs/BENCHMARKS.md gives the commands).
fn endcut_sigma(empties: u32, depth: u32) -> f64 {
    7.68 + 0.073 * f64::from(empties) - 0.5 * f64::from(depth)
}

/// The depth of ProbCut's shallow search for a node searched `depth` ahead: about half as deep,
/// of the same parity (values at odd and even depths differ by about 3 discs on average).
#[must_use]
pub fn probcut_depth(depth: u32) -> u32 {
    depth / 2 + (depth / 2 + depth) % 2
}

/// The standard deviation, in discs, of the value `depth` moves ahead less the value
/// [`probcut_depth`] moves ahead, measured by kifu on positions of real games (docs/eval.md gives the command);
/// deeper than measured, the last figure.
fn probcut_sigma(depth: u32) -> f64 {
    const SIGMA: [f64; 11] = [0.0, 0.0, 0.0, 0.0, 2.97, 2.82, 2.18, 3.09, 2.27, 2.04, 2.11];
    SIGMA[(depth as usize).min(SIGMA.len() - 1)]
}

/// Depth of the estimate on the evaluation that orders the moves of a depth-limited node
/// searched `depth` ahead; none close to the limit, where the fastest-first key (the opponent's
/// replies and the frontier) orders about as well for a small part of the cost (the same
/// nodes within 0.5% at depth 8, a quarter less time at depth 10; docs/BENCHMARKS.md).
fn sort_depth(depth: u32) -> Option<u32> {
    match depth {
        0..=4 => None,
        5 => Some(0),
        6..=11 => Some(1),
        _ => Some(2),
    }
}

impl Search<'_> {
    /// Depth-limited principal-variation search on the evaluation: the value of `p` to move
    /// looking `depth` moves ahead, in evaluation units, in the window (`alpha`, `beta`). Where
    /// the depth reaches the end of the game the exact search takes over.
    pub(crate) fn midgame(&mut self, p: u64, o: u64, depth: u32, alpha: i32, beta: i32, passed: bool) -> i32 {
        self.midgame_node(p, o, None, depth, (alpha, beta), passed, false)
    }

    /// [`Search::midgame`] given the position's [`Features`] (its parent's, played on).
    fn midgame_from(
        &mut self,
        p: u64,
        o: u64,
        features: &Features,
        depth: u32,
        (alpha, beta): (i32, i32),
        passed: bool,
    ) -> i32 {
        self.midgame_node(p, o, Some(features), depth, (alpha, beta), passed, false)
    }

    /// [`Search::midgame`] at the root of a search, its moves after the first split between
    /// threads from [`ROOT_SPLIT_FROM`] moves ahead in a way that gives the same value and
    /// best move for any number of threads ([`Search::split_children`]).
    pub(crate) fn midgame_root(&mut self, p: u64, o: u64, depth: u32, alpha: i32, beta: i32, passed: bool) -> i32 {
        self.midgame_node(p, o, None, depth, (alpha, beta), passed, depth >= ROOT_SPLIT_FROM)
    }

    /// Whether the depth-limited search takes its shortcuts near the depth limit (a node one
    /// move from it goes without the table, [`Search::tabled`], and stops at the first child
    /// that reaches beta; nodes a few moves from it order by the fastest-first key,
    /// [`sort_depth`]): everywhere but inside a selective pass of the exact search, which takes
    /// its first moves from these nodes' entries (with the shortcuts FFO #45-49 took 22% more
    /// nodes, #53 4.6% more).
    fn shortcuts(&self) -> bool {
        self.level == SELECTIVE_LEVELS
    }

    /// Whether a depth-limited node searched `depth` moves ahead uses the table. One move from
    /// the limit, with the shortcuts, it does not: it costs less than its slot's trip from
    /// memory, and its entries would push deeper ones out (the line's last move comes from
    /// `Solver::table_line` instead).
    fn tabled(&self, depth: u32) -> bool {
        depth > 1 || !self.shortcuts()
    }

    /// The value of a position at the depth limit: its evaluation (held inside the margins), or
    /// its final margin when the game is over there.
    #[inline]
    fn leaf_value(&self, p: u64, o: u64, features: &Features) -> i32 {
        match self.cx.eval.evaluate_unless_over(p, o, features) {
            Some(value) => value.clamp(1 - SCALE * 64, SCALE * 64 - 1),
            None => self.final_score(p, o) * SCALE,
        }
    }

    /// [`Search::midgame`] with the position's features when the caller has them (else they
    /// are read from the bitboards where needed), the root's moves split between threads when
    /// `split`.
    #[allow(clippy::too_many_arguments)]
    fn midgame_node(
        &mut self,
        p: u64,
        o: u64,
        given: Option<&Features>,
        depth: u32,
        (mut alpha, mut beta): (i32, i32),
        passed: bool,
        split: bool,
    ) -> i32 {
        let empties = 64 - (p | o).count_ones();
        if depth >= empties {
            // Exact from here: the window in whole discs (rounded outward), the value back in
            // evaluation units.
            let low = alpha.div_euclid(SCALE).clamp(-65, 64);
            let high = (beta + SCALE - 1).div_euclid(SCALE).clamp(-64, 65);
            return self.pvs(p, o, low, high, passed) * SCALE;
        }
        if depth == 0 {
            return match given {
                Some(features) => self.leaf_value(p, o, features),
                None => self.leaf_value(p, o, &self.cx.eval.features(p, o)),
            };
        }
        self.count_node();
        if self.aborted {
            return 0;
        }
        let moves = legal_moves(p, o);
        if moves == 0 {
            if passed {
                return self.final_score(p, o) * SCALE;
            }
            return match given {
                Some(features) => -self.midgame_from(o, p, &features.passed(), depth, (-beta, -alpha), true),
                None => -self.midgame(o, p, depth, -beta, -alpha, true),
            };
        }
        let tabled = self.tabled(depth);
        let mut hash_move = NO_MOVE;
        if let Some(e) = if tabled { self.probe(p, o) } else { None } {
            let scale = if e.depth == EXACT { SCALE } else { 1 };
            // (Selective endgame bounds are not used here, only their moves.)
            if e.depth == EXACT || (!e.is_endgame() && u32::from(e.depth) >= depth) {
                let (lower, upper) = (i32::from(e.lower) * scale, i32::from(e.upper) * scale);
                if lower >= beta || lower == upper {
                    return lower;
                }
                if upper <= alpha {
                    return upper;
                }
                alpha = alpha.max(lower);
                beta = beta.min(upper);
            }
            hash_move = e.best;
        }
        let read;
        let features = match given {
            Some(features) => features,
            None => {
                read = self.cx.eval.features(p, o);
                &read
            }
        };
        if let Some(t) = self.cx.probcut
            && depth >= PROBCUT_FROM
        {
            // A shallow search that fails well outside the window predicts the deep one.
            let shallow = probcut_depth(depth);
            let margin = (t * probcut_sigma(depth) * f64::from(SCALE)) as i32;
            let high = beta + margin;
            if high < SCALE * 64 && self.midgame_from(p, o, features, shallow, (high - 1, high), passed) >= high {
                return beta;
            }
            let low = alpha - margin;
            if low > -SCALE * 64 && self.midgame_from(p, o, features, shallow, (low, low + 1), passed) <= low {
                return alpha;
            }
        }
        let original = (alpha, beta);
        let (best, best_move) = if depth == 1 {
            // The children's values are their evaluations, or their final margins where the game
            // ends (a side wiped out, or no move left for either). With the shortcuts, until one
            // reaches beta: corners first, the squares next to an empty corner last (the likeliest
            // to cut first, at no cost); else all of them in square order for the best.
            let cuts = self.shortcuts();
            let mut best = (i32::MIN, NO_MOVE);
            let (first, last) =
                if cuts { (moves & CORNERS, moves & Bitboard(!(p | o) & CORNERS).neighbours().0) } else { (0, 0) };
            for sq in Bits(first).chain(Bits(moves & !first & !last)).chain(Bits(last)) {
                let f = flips(sq, p, o);
                let child = features.play(sq, f);
                let score = -self.leaf_value(o & !f, p | f | (1 << sq), &child);
                if score > best.0 {
                    best = (score, sq as u8);
                    if cuts && score >= beta {
                        break;
                    }
                }
            }
            best
        } else {
            let Some(found) = self.midgame_children(p, o, features, moves, hash_move, depth, (alpha, beta), split)
            else {
                return 0;
            };
            found
        };
        let (lower, upper) = proven_bounds(best, original, SCALE * 64);
        if tabled {
            let entry = Entry {
                lower: lower as i16,
                upper: upper as i16,
                best: best_move,
                depth: depth as u8,
                cost: depth as u8,
            };
            self.store(p, o, entry);
        }
        best
    }

    /// The moves of a depth-limited node searched `depth` moves ahead, ordered as
    /// [`sort_depth`] says (the table's move first), in the window (`alpha`, `beta`): the best
    /// value and move, or `None` when the search was aborted.
    #[allow(clippy::too_many_arguments)]
    fn midgame_children(
        &mut self,
        p: u64,
        o: u64,
        features: &Features,
        moves: u64,
        hash_move: u8,
        depth: u32,
        (alpha, beta): (i32, i32),
        split: bool,
    ) -> Option<(i32, u8)> {
        let mut children = Children::new();
        // Without shortcuts the estimates order every node.
        let by = if self.shortcuts() { sort_depth(depth) } else { Some(sort_depth(depth).unwrap_or(0)) };
        // As in `order`: an estimate far behind the best sibling's stops at a bound.
        let mut best = SCALE * 64;
        let prefetch = self.tabled(depth - 1);
        for sq in Bits(moves) {
            let f = flips(sq, p, o);
            let (np, no) = (p | f | (1u64 << sq), o & !f);
            // The child's slot, asked for now (when it uses one): the keys give it time to arrive.
            if prefetch {
                self.table.prefetch(no, np);
            }
            let key = if sq as u8 == hash_move {
                i32::MIN
            } else if let Some(by) = by {
                let high = if by > 0 { (best + ESTIMATE_MARGIN).min(SCALE * 64) } else { SCALE * 64 };
                let estimate = self.estimate_from(no, np, &features.play(sq, f), by, -SCALE * 64, high);
                best = best.min(estimate);
                estimate
            } else {
                fastest_first(sq as u8, np, no, legal_moves(no, np))
            };
            children.push(Child { key, sq: sq as u8, flipped: f, replies: 0 });
        }
        children.sort_unstable_by_key(|c| c.key);
        if split && children.len() > 1 {
            self.split_children(p, o, features, &children, alpha, beta, depth - 1)
        } else {
            self.principal_children(p, o, &children, alpha, beta, |s, c, p, o, a, b| {
                s.midgame_from(p, o, &features.play(u32::from(c.sq), c.flipped), depth - 1, (a, b), false)
            })
        }
    }

    /// The moves of the depth-limited search's root, each searched `depth` moves ahead, with a
    /// value and best move that do not depend on the number of threads: the first move in the
    /// full window on the shared table; then every other move at once (in parallel, as many at
    /// a time as there are threads) in a null window above the first's value, each on an empty
    /// private [`Layer`] over the table as it stands, which nothing writes to meanwhile; then the
    /// layers go into the table in the moves' order, and the moves that beat the first are
    /// searched again in turn in the full window. The best value and move, or `None` when the
    /// search was aborted.
    #[allow(clippy::too_many_arguments)]
    fn split_children(
        &mut self,
        p: u64,
        o: u64,
        features: &Features,
        children: &[Child],
        mut alpha: i32,
        beta: i32,
        depth: u32,
    ) -> Option<(i32, u8)> {
        let child = |c: &Child| (p | c.flipped | (1u64 << c.sq), o & !c.flipped);
        let played = |c: &Child| features.play(u32::from(c.sq), c.flipped);
        let (np, no) = child(&children[0]);
        let first = -self.midgame_from(no, np, &played(&children[0]), depth, (-beta, -alpha), false);
        if self.aborted {
            return None;
        }
        let mut best = (i32::MIN, NO_MOVE);
        if raise(&mut best, &mut alpha, beta, first, children[0].sq) {
            return Some(best);
        }
        let probe_alpha = alpha;
        // The layers read what this search reads, whatever thread they run on.
        let (cx, table, level) = (self.cx, self.table, self.level);
        /// One move's null-window search on its layer, and what the layer was given.
        struct Probe {
            score: i32,
            nodes: u64,
            aborted: bool,
            entries: Vec<(u64, u64, Entry)>,
        }
        // First in, first out, each move taken by the next free thread: the moves likeliest to
        // be long come first. Each result goes to its move's place.
        let slots: Vec<Mutex<Option<Probe>>> = children[1..].iter().map(|_| Mutex::new(None)).collect();
        rayon::scope_fifo(|scope| {
            for (c, slot) in children[1..].iter().zip(&slots) {
                scope.spawn_fifo(move |_| {
                    if cx.stop.hit() {
                        // A limit ended the search: this move goes unsearched (a search started
                        // now would run until its first check of the limits).
                        *slot.lock().unwrap_or_else(PoisonError::into_inner) =
                            Some(Probe { score: 0, nodes: 0, aborted: true, entries: Vec::new() });
                        return;
                    }
                    let mut layer = cx.layers.take();
                    let mut s = Search::new(cx, table, Some(&layer), false, level, Vec::new());
                    let (np, no) = child(c);
                    let score = -s.midgame_from(no, np, &played(c), depth, (-probe_alpha - 1, -probe_alpha), false);
                    s.flush();
                    let (nodes, aborted) = (s.nodes, s.aborted);
                    let entries = layer.drain();
                    cx.layers.give(layer);
                    *slot.lock().unwrap_or_else(PoisonError::into_inner) =
                        Some(Probe { score, nodes, aborted, entries });
                });
            }
        });
        let probes: Vec<Probe> = slots
            .into_iter()
            .map(|s| s.into_inner().unwrap_or_else(PoisonError::into_inner).expect("searched"))
            .collect();
        for probe in &probes {
            self.add_counted(probe.nodes);
            self.aborted |= probe.aborted;
            for &(p, o, entry) in &probe.entries {
                self.table.store(p, o, entry, self.cx.generation);
            }
        }
        if self.aborted {
            return None;
        }
        for (c, &Probe { score: probe, .. }) in children[1..].iter().zip(&probes) {
            let score = if probe > probe_alpha && probe < beta {
                let (np, no) = child(c);
                -self.midgame_from(no, np, &played(c), depth, (-beta, -alpha.max(probe)), false)
            } else {
                probe
            };
            if self.aborted {
                return None;
            }
            if raise(&mut best, &mut alpha, beta, score, c.sq) {
                break;
            }
        }
        Some(best)
    }
}
