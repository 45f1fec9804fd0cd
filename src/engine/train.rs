//! Fitting the pattern evaluation ([`crate::engine::eval`]) to game positions.
//!
//! **Labels.** A game's positions with at most `exact_empties` empty squares are solved exactly
//! (empties to the winner). Every earlier position either takes the exact score of the game's
//! first position with at most `exact_empties` empties, turned to its own side to move (in strong
//! games the moves before that point are close to best, so that score is a fair estimate of the
//! earlier position's value; a game that ends sooner gives its final score), or is left pending:
//! [`fit`] labels it by a search on the phases already fitted. Games can also be [`branch`]ed:
//! played on from one of their positions with noisy moves, for positions unlike those of strong
//! games; a branch's earlier positions are always left pending. Positions where the side to move
//! must pass, and finished ones, are not used.
//!
//! **Fit.** Phase by phase from the end of the game, each on its own, as ridge-regularised least squares over its one-hot
//! features (one per pattern instance, the two mobility counts and the empty-square count),
//! solved by conjugate gradients on the normal equations with a diagonal preconditioner (the
//! number of times each weight occurs). No randomness and a fixed order of every sum: the same
//! samples give the same weights whatever the number of threads.

use std::sync::Arc;

use rayon::prelude::*;

use crate::core::bitboard::{Bits, flips, legal_moves};
use crate::core::{Color, Position, Rules, Setup, Square};
use crate::engine::eval::pattern::{
    EMPTIES_SLOTS, INSTANCES, MOBILITY_SLOTS, PatternSet, SOLVER_INSTANCES, layout, pext,
};
use crate::engine::eval::{Evaluator, PHASES, SCALE, phase};
use crate::engine::solve::{Counting, Limits, Solver};

/// A position from the side to move's view, with the margin it is fitted to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Sample {
    /// The side to move's discs.
    pub player: u64,
    /// The other side's discs.
    pub opponent: u64,
    /// The final margin for the side to move, empty squares to the winner.
    pub target: i8,
}

impl Sample {
    /// Empty squares.
    #[must_use]
    pub fn empties(&self) -> u32 {
        64 - (self.player | self.opponent).count_ones()
    }
}

/// A standard Othello position (empties to the winner) from the mover's view, for the solver.
fn position(rules: &Arc<Rules>, player: u64, opponent: u64) -> Position {
    let squares = |b: u64| Bits(b).map(Square::from_bit8).collect();
    let setup = Setup { black: squares(player), white: squares(opponent), side: Color::Black };
    Position::from_setup(rules.clone(), &setup).expect("disjoint 8x8 discs")
}

/// The labels of one game's positions: exact or carried back ([`Sample`]s), and the positions
/// left for the search to label ([`fit`] does it, phase by phase).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Labelled {
    /// Positions with their targets.
    pub samples: Vec<Sample>,
    /// Positions (side to move, other side) still to be labelled by a search.
    pub pending: Vec<(u64, u64)>,
}

/// Labels the positions of one game (see the module documentation).
///
/// `boards` are the positions before each move, passes included, then the last position, each
/// as (side to move, other side) discs: consecutive boards alternate the side to move. Positions
/// with more than `exact_empties` empties carry the game's exact score at that point when `carry`
/// (a game that is not over and never comes down to `exact_empties` then gives nothing), and are
/// left pending otherwise. `solver` must count empties to the winner.
pub fn label_game(boards: &[(u64, u64)], exact_empties: u32, carry: bool, solver: &mut Solver) -> Labelled {
    let rules = Rules::othello().shared();
    let empties = |&(p, o): &(u64, u64)| 64 - (p | o).count_ones();
    let Some(last) = boards.last() else { return Labelled::default() };
    let anchor = boards.iter().position(|b| empties(b) <= exact_empties).unwrap_or(boards.len() - 1);
    let over = |&(p, o): &(u64, u64)| legal_moves(p, o) == 0 && legal_moves(o, p) == 0;
    if carry && empties(&boards[anchor]) > exact_empties && !over(last) {
        return Labelled::default();
    }
    let mut out = Labelled { samples: Vec::with_capacity(boards.len()), pending: Vec::new() };
    let mut solve = |&(p, o): &(u64, u64)| {
        let solution = solver.solve(&position(&rules, p, o)).expect("standard 8x8 Othello");
        i8::try_from(solution.score).expect("a margin fits in i8")
    };
    let anchor_score = if carry { solve(&boards[anchor]) } else { 0 };
    for (i, &(p, o)) in boards.iter().enumerate() {
        if legal_moves(p, o) == 0 {
            continue;
        }
        let target = if !carry {
            if empties(&(p, o)) > exact_empties {
                out.pending.push((p, o));
                continue;
            }
            solve(&(p, o))
        } else if i < anchor {
            if (anchor - i) % 2 == 0 { anchor_score } else { -anchor_score }
        } else if i == anchor {
            anchor_score
        } else {
            solve(&(p, o))
        };
        out.samples.push(Sample { player: p, opponent: o, target });
    }
    out
}

/// A noisy game branching off `boards` (as for [`label_game`]): from the position before move
/// `cut`, each move is a uniformly random legal one with probability `noise`, else the one that
/// leaves the opponent the fewest legal moves (ties broken at random), to the end of the game.
/// Gives the boards from the cut on, in the same form; `seed` decides every choice.
#[must_use]
pub fn branch(boards: &[(u64, u64)], cut: usize, noise: f64, seed: u64) -> Vec<(u64, u64)> {
    let Some(&(mut p, mut o)) = boards.get(cut) else { return Vec::new() };
    let mut s = seed;
    let mut next = || {
        s = crate::core::splitmix64(s);
        s
    };
    let mut out = vec![(p, o)];
    loop {
        let moves = legal_moves(p, o);
        if moves == 0 {
            if legal_moves(o, p) == 0 {
                return out;
            }
        } else {
            let count = u64::from(moves.count_ones());
            let sq = if ((next() >> 11) as f64 / (1u64 << 53) as f64) < noise {
                Bits(moves).nth((next() % count) as usize).expect("in range")
            } else {
                // The fewest replies, then a random key among equals.
                Bits(moves)
                    .min_by_key(|&sq| {
                        let f = flips(sq, p, o);
                        (legal_moves(o & !f, p | f | 1 << sq).count_ones(), next())
                    })
                    .expect("a legal move")
            };
            let f = flips(sq, p, o);
            (p, o) = (p | f | 1 << sq, o & !f);
        }
        (p, o) = (o, p);
        out.push((p, o));
    }
}

/// Mean errors of an evaluation, by empty-square count, with what is needed to read them: the
/// spread of the targets, the error of answering zero everywhere, and the correlation.
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorTable {
    slots: [Sums; EMPTIES_SLOTS],
}

/// The running sums of one empty-square count.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Sums {
    count: u64,
    abs: f64,
    signed: f64,
    target_abs: f64,
    target: f64,
    target_sq: f64,
    value: f64,
    value_sq: f64,
    product: f64,
}

impl Sums {
    fn merge(&mut self, o: &Sums) {
        self.count += o.count;
        self.abs += o.abs;
        self.signed += o.signed;
        self.target_abs += o.target_abs;
        self.target += o.target;
        self.target_sq += o.target_sq;
        self.value += o.value;
        self.value_sq += o.value_sq;
        self.product += o.product;
    }
}

impl Default for ErrorTable {
    fn default() -> ErrorTable {
        ErrorTable { slots: [Sums::default(); EMPTIES_SLOTS] }
    }
}

/// One line of an [`ErrorTable`]: positions with `lo..=hi` empty squares.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ErrorRow {
    /// The fewest empty squares of the line.
    pub lo: u32,
    /// The most.
    pub hi: u32,
    /// Positions.
    pub count: u64,
    /// Mean absolute error, in discs.
    pub mean_abs: f64,
    /// Mean signed error (evaluation minus target), in discs.
    pub mean: f64,
    /// Mean absolute target: the error of answering zero everywhere, in discs.
    pub zero_abs: f64,
    /// Standard deviation of the targets, in discs.
    pub target_sd: f64,
    /// Correlation of the evaluation with the targets; none when either is constant (one
    /// position, say), where it is undefined.
    pub correlation: Option<f64>,
}

impl ErrorTable {
    /// Counts one position: its empty squares, the evaluation and the target, in discs.
    pub fn add(&mut self, empties: u32, value: f64, target: f64) {
        let s = &mut self.slots[(empties as usize).min(EMPTIES_SLOTS - 1)];
        let error = value - target;
        s.count += 1;
        s.abs += error.abs();
        s.signed += error;
        s.target_abs += target.abs();
        s.target += target;
        s.target_sq += target * target;
        s.value += value;
        s.value_sq += value * value;
        s.product += value * target;
    }

    /// The errors of `evaluator` on `samples`, by its static value ([`Evaluator::value`]).
    #[must_use]
    pub fn of(evaluator: &Evaluator, samples: &[Sample]) -> ErrorTable {
        let mut table = ErrorTable::default();
        for s in samples {
            let value = f64::from(evaluator.value(s.player, s.opponent)) / f64::from(SCALE);
            table.add(s.empties(), value, f64::from(s.target));
        }
        table
    }

    /// Adds another table's counts.
    pub fn merge(&mut self, other: &ErrorTable) {
        for (mine, theirs) in self.slots.iter_mut().zip(&other.slots) {
            mine.merge(theirs);
        }
    }

    /// The lines for empties `0..width`, `width..2*width`, ... up to 60 (the evaluation's phases
    /// for a width of 4; 60 joins the line of 59), then the total unless one line is all;
    /// lines may count nothing.
    #[must_use]
    pub fn rows(&self, width: u32) -> Vec<ErrorRow> {
        let width = width.max(1);
        let mut rows = Vec::new();
        let mut lo = 0;
        while lo <= 60 {
            let mut hi = (lo + width - 1).min(60);
            if hi == 59 {
                // 60 empties is the start position alone: it joins the line before.
                hi = 60;
            }
            rows.push(self.row(lo, hi));
            lo = hi + 1;
        }
        if rows.len() > 1 {
            rows.push(self.row(0, 60));
        }
        rows
    }

    fn row(&self, lo: u32, hi: u32) -> ErrorRow {
        let mut s = Sums::default();
        for slot in &self.slots[lo as usize..=hi as usize] {
            s.merge(slot);
        }
        let n = s.count.max(1) as f64;
        let target_var = (s.target_sq / n - (s.target / n).powi(2)).max(0.0);
        let value_var = (s.value_sq / n - (s.value / n).powi(2)).max(0.0);
        let covariance = s.product / n - (s.value / n) * (s.target / n);
        let spread = (target_var * value_var).sqrt();
        ErrorRow {
            lo,
            hi,
            count: s.count,
            mean_abs: s.abs / n,
            mean: s.signed / n,
            zero_abs: s.target_abs / n,
            target_sd: target_var.sqrt(),
            correlation: (spread > 1e-12).then(|| covariance / spread),
        }
    }
}

/// How [`fit`] works.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitOptions {
    /// Conjugate-gradient iterations per phase.
    pub iterations: usize,
    /// Ridge penalty on every weight (in squared discs).
    pub ridge: f64,
    /// Moves the search looks ahead to label a pending position.
    pub depth: u32,
    /// A phase is also fitted to the labelled positions up to this many empty squares outside
    /// it (neighbouring phases share data; each count of empties keeps its own bias).
    pub overlap: u32,
    /// The weights are for the first this many pattern shapes, one of [`FitOptions::SHAPES`].
    pub shapes: usize,
}

impl FitOptions {
    /// The shape counts a fit can use: 11 (those of the Logistello / Edax family, the solver's
    /// set) and 16 (all, the evaluation's set).
    pub const SHAPES: [usize; 2] = PatternSet::COUNTS;
}

impl Default for FitOptions {
    fn default() -> FitOptions {
        FitOptions { iterations: 60, ridge: 4.0, depth: 4, overlap: 0, shapes: PatternSet::ALL }
    }
}

/// Pending positions labelled by one solver, in parallel.
const LABEL_CHUNK: usize = 256;

/// Labels `positions` by a search `depth` moves ahead on `eval` (exact where it reaches the end),
/// each from an empty table: a label does not depend on the other positions or the threads.
fn search_labels(positions: &[(u64, u64)], eval: &Arc<Evaluator>, depth: u32) -> Vec<Sample> {
    let rules = Rules::othello().shared();
    let chunks: Vec<Vec<Sample>> = positions
        .par_chunks(LABEL_CHUNK)
        .map(|chunk| {
            let mut solver = Solver::new(1, Counting::EmptiesToWinner).with_evaluator(eval.clone());
            chunk
                .iter()
                .map(|&(p, o)| {
                    solver.clear();
                    let estimate =
                        solver.search_with(&position(&rules, p, o), depth, Limits::default()).expect("no limits");
                    Sample { player: p, opponent: o, target: estimate.score.clamp(-64, 64) as i8 }
                })
                .collect()
        })
        .collect();
    chunks.into_iter().flatten().collect()
}

/// The compact weight indices of `set` (see the evaluation's layout) active in a position, one
/// per feature (an index appears twice when two instances share an orbit slot): the set's
/// pattern instances, two mobility counts, the empty-square bias (`ROW` is the set's instances
/// plus 3).
fn features<const ROW: usize>(set: &PatternSet, player: u64, opponent: u64) -> [u32; ROW] {
    debug_assert_eq!(ROW, set.instances + 3);
    let layout = layout();
    let mut row = [0u32; ROW];
    for (slot, inst) in row.iter_mut().zip(&layout.instances[..ROW - 3]) {
        let shape = &layout.shapes[usize::from(inst.shape)];
        *slot = (shape.compact_offset + shape.slot_of[layout.raw_index(inst, player, opponent, pext)] as usize) as u32;
    }
    let mine = (legal_moves(player, opponent).count_ones() as usize).min(MOBILITY_SLOTS - 1);
    let theirs = (legal_moves(opponent, player).count_ones() as usize).min(MOBILITY_SLOTS - 1);
    let empties = (64 - (player | opponent).count_ones() as usize).min(EMPTIES_SLOTS - 1);
    row[ROW - 3] = (set.compact_mobility + mine) as u32;
    row[ROW - 2] = (set.compact_mobility + MOBILITY_SLOTS + theirs) as u32;
    row[ROW - 1] = (set.compact_bias + empties) as u32;
    row
}

/// Fits the weights phase by phase, from the end of the game: before a phase is fitted, the
/// pending positions of that phase (in both sets) are labelled by a search `options.depth` moves
/// ahead on the phases fitted so far ([`FitOptions::depth`] of 4 or more reaches earlier
/// phases from anywhere in a phase), and join the samples. The result does not depend on the
/// thread count. `log` gets one line per phase.
pub fn fit(
    training: &mut Labelled,
    held_out: &mut Labelled,
    options: FitOptions,
    log: &mut dyn FnMut(String),
) -> Evaluator {
    assert!(FitOptions::SHAPES.contains(&options.shapes), "{} shapes", options.shapes);
    let set = layout().set(options.shapes);
    let len = set.compact_len;
    let mut values = vec![0i16; PHASES * len];
    let of_phase = |ph: usize| move |&(p, o): &(u64, u64)| phase(64 - (p | o).count_ones()) == ph;
    for ph in 0..PHASES {
        let started = std::time::Instant::now();
        let mut searched = 0;
        if training.pending.iter().chain(&held_out.pending).any(of_phase(ph)) {
            let eval = Arc::new(Evaluator::from_compact(set, &values));
            for labelled in [&mut *training, &mut *held_out] {
                let (mine, rest): (Vec<_>, Vec<_>) = labelled.pending.iter().partition(|b| of_phase(ph)(b));
                searched += mine.len();
                labelled.samples.extend(search_labels(&mine, &eval, options.depth));
                labelled.pending = rest;
            }
        }
        let (lo, hi) = ((ph as u32 * 4).saturating_sub(options.overlap), ph as u32 * 4 + 3 + options.overlap);
        let hi = if ph == PHASES - 1 { 60 } else { hi };
        let mine: Vec<&Sample> = training.samples.iter().filter(|s| (lo..=hi).contains(&s.empties())).collect();
        let weights = fit_phase(&mine, &set, options);
        for (v, w) in values[ph * len..][..len].iter_mut().zip(weights) {
            *v = (w * f64::from(SCALE)).round().clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i16;
        }
        log(format!(
            "phase {ph:2} (empties {:2}-{:2}): {:>9} samples ({searched} labelled by search), {} iterations, {:.1} s",
            ph * 4,
            if ph == PHASES - 1 { 60 } else { ph * 4 + 3 },
            mine.len(),
            options.iterations,
            started.elapsed().as_secs_f64()
        ));
    }
    Evaluator::from_compact(set, &values)
}

/// Preconditioned conjugate gradients on `(AᵀA + ridge I) x = Aᵀy` for one phase; weights in
/// discs. The rows' length is fixed at compile time for each set of [`FitOptions::SHAPES`].
fn fit_phase(samples: &[&Sample], set: &PatternSet, options: FitOptions) -> Vec<f64> {
    match set.instances {
        INSTANCES => fit_rows::<{ INSTANCES + 3 }>(samples, set, options),
        SOLVER_INSTANCES => fit_rows::<{ SOLVER_INSTANCES + 3 }>(samples, set, options),
        n => panic!("no fit for {n} instances"),
    }
}

/// [`fit_phase`] with rows of `ROW` features.
fn fit_rows<const ROW: usize>(samples: &[&Sample], set: &PatternSet, options: FitOptions) -> Vec<f64> {
    let len = set.compact_len;
    let rows: Vec<[u32; ROW]> = samples.iter().map(|s| features(set, s.player, s.opponent)).collect();
    let mut diag = vec![options.ridge; len];
    let mut r = vec![0.0; len];
    for (row, s) in rows.iter().zip(samples) {
        for &j in row {
            diag[j as usize] += 1.0;
            r[j as usize] += f64::from(s.target);
        }
    }
    let mut x = vec![0.0; len];
    let mut z: Vec<f64> = r.iter().zip(&diag).map(|(r, d)| r / d).collect();
    let mut p = z.clone();
    let mut rz: f64 = r.iter().zip(&z).map(|(a, b)| a * b).sum();
    let mut q = vec![0.0; len];
    for _ in 0..options.iterations {
        if rz == 0.0 {
            break;
        }
        for (q, p) in q.iter_mut().zip(&p) {
            *q = options.ridge * p;
        }
        for row in &rows {
            let s: f64 = row.iter().map(|&j| p[j as usize]).sum();
            for &j in row {
                q[j as usize] += s;
            }
        }
        let pq: f64 = p.iter().zip(&q).map(|(a, b)| a * b).sum();
        let alpha = rz / pq;
        for j in 0..len {
            x[j] += alpha * p[j];
            r[j] -= alpha * q[j];
            z[j] = r[j] / diag[j];
        }
        let next: f64 = r.iter().zip(&z).map(|(a, b)| a * b).sum();
        let beta = next / rz;
        rz = next;
        for (p, z) in p.iter_mut().zip(&z) {
            *p = z + beta * *p;
        }
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::solve::Counting;

    /// The boards of a random game from the start, passes included, then the last one.
    fn random_game(seed: u64) -> Vec<(u64, u64)> {
        let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
        let mut s = seed;
        let mut boards = vec![(p, o)];
        loop {
            let moves = legal_moves(p, o);
            if moves == 0 {
                if legal_moves(o, p) == 0 {
                    return boards;
                }
            } else {
                s = crate::core::splitmix64(s);
                let sq = Bits(moves).nth((s % u64::from(moves.count_ones())) as usize).expect("in range");
                let f = crate::core::bitboard::flips(sq, p, o);
                p |= f | 1 << sq;
                o &= !f;
            }
            (p, o) = (o, p);
            boards.push((p, o));
        }
    }

    #[test]
    fn labels_are_exact_at_the_end_and_carried_back() {
        let mut solver = Solver::new(1, Counting::EmptiesToWinner);
        let boards = random_game(5);
        let samples = label_game(&boards, 8, true, &mut solver).samples;
        let rules = Rules::othello().shared();
        for s in &samples {
            if s.empties() <= 8 {
                let exact = solver.solve(&position(&rules, s.player, s.opponent)).unwrap().score;
                assert_eq!(i32::from(s.target), exact);
            }
        }
        // The earlier positions carry the anchor's score, sign by side to move.
        let anchor = boards.iter().position(|&(p, o)| 64 - (p | o).count_ones() <= 8).unwrap();
        let (ap, ao) = boards[anchor];
        let anchor_score = solver.solve(&position(&rules, ap, ao)).unwrap().score;
        for (i, &(p, o)) in boards[..anchor].iter().enumerate() {
            if legal_moves(p, o) == 0 {
                continue;
            }
            let s = samples.iter().find(|s| (s.player, s.opponent) == (p, o)).unwrap();
            let expected = if (anchor - i) % 2 == 0 { anchor_score } else { -anchor_score };
            assert_eq!(i32::from(s.target), expected);
        }
        // An unfinished game that stops early gives nothing.
        assert_eq!(label_game(&boards[..20], 8, true, &mut solver), Labelled::default());
        // Without carrying, the same exact labels and every earlier position left pending.
        let open = label_game(&boards, 8, false, &mut solver);
        let exact: Vec<&Sample> = samples.iter().filter(|s| s.empties() <= 8).collect();
        assert_eq!(open.samples.iter().collect::<Vec<_>>(), exact);
        let movers = boards.iter().filter(|&&(p, o)| legal_moves(p, o) != 0);
        let early: Vec<(u64, u64)> = movers.filter(|&&(p, o)| 64 - (p | o).count_ones() > 8).copied().collect();
        assert_eq!(open.pending, early);
        let short = label_game(&boards[..20], 8, false, &mut solver);
        assert!(short.samples.is_empty() && short.pending.len() >= 19, "{short:?}");
    }

    #[test]
    fn branches_are_legal_games_to_the_end() {
        let boards = random_game(9);
        for (cut, noise) in [(0, 0.0), (10, 0.5), (30, 1.0)] {
            let line = branch(&boards, cut, noise, 77);
            assert_eq!(line[0], boards[cut]);
            assert_eq!(line, branch(&boards, cut, noise, 77), "the seed decides everything");
            for pair in line.windows(2) {
                let ((p, o), (np, no)) = (pair[0], pair[1]);
                let moves = legal_moves(p, o);
                if moves == 0 {
                    assert_eq!((np, no), (o, p), "a pass");
                } else {
                    let played = Bits(moves).find(|&sq| {
                        let f = flips(sq, p, o);
                        (no, np) == (p | f | 1 << sq, o & !f)
                    });
                    assert!(played.is_some(), "a legal move");
                }
            }
            let &(p, o) = line.last().unwrap();
            assert!(legal_moves(p, o) == 0 && legal_moves(o, p) == 0, "played to the end");
        }
        // Without noise, every move leaves the fewest replies.
        let line = branch(&boards, 0, 0.0, 5);
        for pair in line.windows(2) {
            let ((p, o), (_, no)) = (pair[0], pair[1]);
            let moves = legal_moves(p, o);
            if moves != 0 {
                let replies = |sq: u32| {
                    let f = flips(sq, p, o);
                    legal_moves(o & !f, p | f | 1 << sq).count_ones()
                };
                let fewest = Bits(moves).map(replies).min().unwrap();
                assert_eq!(legal_moves(pair[1].0, no).count_ones(), fewest);
            }
        }
        assert!(branch(&boards, boards.len(), 0.5, 1).is_empty());
    }

    fn tiny_set() -> Vec<Sample> {
        let mut solver = Solver::new(1, Counting::EmptiesToWinner);
        (0..60).flat_map(|seed| label_game(&random_game(seed), 6, true, &mut solver).samples).collect()
    }

    #[test]
    fn fitting_is_deterministic_and_lowers_the_error() {
        let samples = tiny_set();
        let set = layout().set(PatternSet::ALL);
        let zero = Evaluator::from_compact(set, &vec![0; PHASES * set.compact_len]);
        let total = |e: &Evaluator| ErrorTable::of(e, &samples).rows(60).last().unwrap().mean_abs;
        let options = FitOptions { iterations: 20, ridge: 1.0, depth: 4, overlap: 0, shapes: PatternSet::ALL };
        let set = Labelled { samples: samples.clone(), pending: Vec::new() };
        let fitted = fit(&mut set.clone(), &mut Labelled::default(), options, &mut |_| {});
        assert!(total(&fitted) < 0.5 * total(&zero), "{} vs {}", total(&fitted), total(&zero));
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let again = pool.install(|| fit(&mut set.clone(), &mut Labelled::default(), options, &mut |_| {}));
        assert_eq!(again.to_bytes(), fitted.to_bytes());
    }

    /// A fingerprint of a weights file's bytes.
    fn fingerprint(bytes: &[u8]) -> u64 {
        bytes.iter().fold(0, |h, &b| crate::core::splitmix64(h ^ u64::from(b)))
    }

    /// The fit of a tiny fixed set gives the weights recorded when this test was written (with
    /// both sets of shapes): a guard against any change of what the fit computes. A change
    /// meant to alter the fit must record the new fingerprints, and say so in docs/eval.md,
    /// since the shipped weights' documented commands then write other files.
    #[test]
    fn fitting_a_tiny_fixed_set_gives_the_known_weights() {
        let samples = tiny_set();
        // And positions of 13 to 16 empties for the fit's search to label.
        let mut solver = Solver::new(1, Counting::EmptiesToWinner);
        let pending: Vec<(u64, u64)> = (60..70)
            .flat_map(|seed| label_game(&random_game(seed), 10, false, &mut solver).pending)
            .filter(|&(p, o)| (p | o).count_ones() >= 48)
            .collect();
        assert!(!pending.is_empty());
        for (shapes, known) in
            [(PatternSet::SOLVER, 10_280_551_646_724_502_482), (PatternSet::ALL, 17_926_090_351_790_446_382)]
        {
            let options = FitOptions { iterations: 20, ridge: 1.0, depth: 4, overlap: 2, shapes };
            let mut set = Labelled { samples: samples.clone(), pending: pending.clone() };
            let fitted = fit(&mut set, &mut Labelled::default(), options, &mut |_| {});
            assert_eq!(fingerprint(&fitted.to_bytes()), known, "{shapes} shapes");
        }
    }

    #[test]
    fn pending_positions_are_labelled_by_search_on_the_fitted_phases() {
        let mut solver = Solver::new(1, Counting::EmptiesToWinner);
        let mut training = Labelled::default();
        for seed in 0..80 {
            let labels = label_game(&random_game(seed), 10, false, &mut solver);
            training.samples.extend(labels.samples);
            training.pending.extend(labels.pending.into_iter().filter(|&(p, o)| (p | o).count_ones() >= 48));
        }
        let mut held_out = Labelled { samples: Vec::new(), pending: training.pending.split_off(200) };
        let (exact, pending, held) = (training.samples.clone(), training.pending.clone(), held_out.pending.clone());
        let options = FitOptions { iterations: 20, ridge: 1.0, depth: 4, overlap: 0, shapes: PatternSet::ALL };
        let mut lines = Vec::new();
        let fitted = fit(&mut training, &mut held_out, options, &mut |line| lines.push(line));
        assert_eq!(lines.len(), PHASES);
        assert!(training.pending.is_empty() && held_out.pending.is_empty());
        assert_eq!(held_out.samples.len(), held.len());
        // A search on the fitted weights gives the labels: the positions have 13 to 16 empties,
        // so its leaves are in phases 0-2, fitted before and unchanged since.
        let rules = Rules::othello().shared();
        let mut search = Solver::new(1, Counting::EmptiesToWinner).with_evaluator(Arc::new(fitted.clone()));
        for s in training.samples.iter().filter(|s| pending.contains(&(s.player, s.opponent))).take(20) {
            search.clear();
            let estimate = search.search_with(&position(&rules, s.player, s.opponent), 4, Limits::default()).unwrap();
            assert_eq!(i32::from(s.target), estimate.score);
        }
        // The same labels and weights with another thread count.
        let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
        let mut again = Labelled { samples: exact, pending };
        let refit = pool.install(|| fit(&mut again, &mut Labelled::default(), options, &mut |_| {}));
        assert_eq!(refit.to_bytes(), fitted.to_bytes());
    }

    #[test]
    fn error_rows_group_by_width() {
        let mut t = ErrorTable::default();
        // Errors +2 and -4 against targets 0 and 6; +1 against -1.
        t.add(0, 2.0, 0.0);
        t.add(9, 2.0, 6.0);
        t.add(60, 0.0, -1.0);
        let rows = t.rows(10);
        assert_eq!((rows[0].lo, rows[0].hi, rows[0].count, rows[0].mean_abs, rows[0].mean), (0, 9, 2, 3.0, -1.0));
        assert_eq!((rows[0].zero_abs, rows[0].target_sd, rows[0].correlation), (3.0, 3.0, None));
        assert_eq!((rows[1].lo, rows[1].hi, rows[1].count), (10, 19, 0));
        assert_eq!((rows[5].lo, rows[5].hi, rows[5].count), (50, 60, 1));
        assert_eq!((rows[6].lo, rows[6].hi, rows[6].count), (0, 60, 3));
        let phases = t.rows(4);
        assert_eq!(phases.len(), PHASES + 1);
        assert_eq!((phases[PHASES - 1].lo, phases[PHASES - 1].hi), (56, 60));
    }

    #[test]
    fn error_rows_give_the_baseline_and_the_correlation() {
        let mut t = ErrorTable::default();
        for (value, target) in [(1.0, 2.0), (2.0, 4.0), (3.0, 6.0)] {
            t.add(20, value, target);
        }
        t.add(30, 5.0, -5.0);
        let line = &t.rows(10)[2];
        assert_eq!((line.count, line.mean_abs, line.zero_abs), (3, 2.0, 4.0));
        assert!(line.correlation.is_some_and(|c| (c - 1.0).abs() < 1e-12), "{:?}", line.correlation);
        assert!((line.target_sd - (8.0f64 / 3.0).sqrt()).abs() < 1e-12, "{}", line.target_sd);
        let all = t.rows(10).pop().unwrap();
        assert_eq!((all.count, all.zero_abs), (4, 4.25));
        assert!(all.correlation.is_some_and(|c| c < 0.0), "{:?}", all.correlation);
    }
}
