//! `kifu train`: fits the pattern evaluation to the positions of game records, labelled by the
//! exact solver, and writes the weights file.

use std::cell::RefCell;
use std::io::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context as _;

use super::progress::Progress;
use super::records::{self, InputArgs, Source};
use super::{Output, Status};
use crate::core::bitboard::legal_moves;
use crate::core::{Color, Move, Passes, Position};
use crate::engine::solve::{Counting, Solver};
use crate::engine::train::{self, ErrorTable, FitOptions, Labelled};
use crate::notation::reader::{RawRecord, RecordError};

/// Arguments of `kifu train`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Positions with at most --exact-empties empty squares are solved exactly (empties to the \
winner); earlier positions of a game take the exact score of its first position with that few empties, from their \
own side to move's view (with --search-labels: a search's value instead). --branches adds noisy games played on from \
the games' positions; their positions above --exact-empties are labelled by a search --depth moves ahead on the \
phases fitted so far. Each phase (four empty-square counts) is fitted by ridge least squares, from the end of the \
game. The same inputs and options give the same file byte for byte, whatever the number of threads. See \
docs/eval.md.")]
pub struct Args {
    /// Game records to learn from.
    #[command(flatten)]
    pub input: InputArgs,
    /// Worker threads.
    #[command(flatten)]
    pub threads: super::ThreadsArgs,
    /// Positions with at most this many empty squares are solved exactly.
    #[arg(long, default_value_t = 14)]
    pub exact_empties: u32,
    /// Seed of the game sample and of the held-out split.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Fraction of the games used (each game is kept or not by a hash of its moves and the seed).
    #[arg(long, default_value_t = 1.0)]
    pub sample: f64,
    /// Fraction of the used games held out to measure the fit.
    #[arg(long, default_value_t = 0.05)]
    pub held_out: f64,
    /// Noisy games branched off each game, on average: each starts from a position of the game
    /// chosen at random and plays on to the end (see --noise); their positions above
    /// --exact-empties are labelled by a search (see --depth).
    #[arg(long, default_value_t = 0.0)]
    pub branches: f64,
    /// The share of random moves in a branch; the others leave the opponent the fewest replies.
    #[arg(long, default_value_t = 0.5)]
    pub noise: f64,
    /// Label the games' own positions above --exact-empties by a search too, instead of with the
    /// game's exact score at --exact-empties.
    #[arg(long)]
    pub search_labels: bool,
    /// Moves the labelling search looks ahead, on the phases fitted so far (at least 4).
    #[arg(long, default_value_t = FitOptions::default().depth)]
    pub depth: u32,
    /// Fit each phase to the labelled positions up to this many empty squares outside it too.
    #[arg(long, default_value_t = FitOptions::default().overlap)]
    pub overlap: u32,
    /// Conjugate-gradient iterations per phase.
    #[arg(long, default_value_t = FitOptions::default().iterations)]
    pub iterations: usize,
    /// Ridge penalty on every weight.
    #[arg(long, default_value_t = FitOptions::default().ridge)]
    pub ridge: f64,
    /// Fit the first this many pattern shapes: 11 (the Logistello / Edax set, that of the
    /// solver's shipped weights) or 16 (all, that of the evaluation's); see docs/eval.md.
    #[arg(long, default_value_t = FitOptions::default().shapes, value_parser = shape_count)]
    pub shapes: usize,
    /// Solver transposition table per thread, in MiB.
    #[arg(long, default_value_t = 16, value_parser = super::parse_hash_mb)]
    pub hash_mb: usize,
    /// The weights file to write.
    #[arg(long, short, required_unless_present = "list_held_out")]
    pub output: Option<PathBuf>,
    /// Print the games drawn for the held-out set (by --seed, --sample and --held-out) as CSV
    /// rows `source,record` (records numbered from 1 in each file) and stop: no labels, no fit.
    #[arg(long)]
    pub list_held_out: bool,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// A `--shapes` value: one of [`FitOptions::SHAPES`].
fn shape_count(text: &str) -> Result<usize, String> {
    text.parse().ok().filter(|n| FitOptions::SHAPES.contains(n)).ok_or_else(|| {
        let counts: Vec<String> = FitOptions::SHAPES.iter().map(usize::to_string).collect();
        format!("the fit has {} shapes", counts.join(" or "))
    })
}

thread_local! {
    /// Each worker's solver, kept across games for its transposition table.
    static SOLVER: RefCell<Option<Solver>> = const { RefCell::new(None) };
}

/// Runs `f` with this thread's solver (empties to the winner), made on first use.
pub(super) fn with_solver<R>(hash_mb: usize, f: impl FnOnce(&mut Solver) -> R) -> R {
    SOLVER.with(|cell| f(cell.borrow_mut().get_or_insert_with(|| Solver::new(hash_mb, Counting::EmptiesToWinner))))
}

/// The boards of a record's game from each side to move's view: before every move (passes
/// included), then the last one. `Ok(None)` for rules the evaluation does not cover.
pub(super) fn game_boards(source: &Source, raw: &RawRecord) -> Result<Option<Vec<(u64, u64)>>, RecordError> {
    let (record, rules) = source.read(raw)?;
    let game = record.game(rules).map_err(|e| raw.error(source.name, e.span, e.message))?;
    if Solver::counting_for(game.start()).is_none() || game.start().bitboards().is_none() {
        return Ok(None);
    }
    let view = |pos: &Position| {
        let [black, white] = pos.bitboards().expect("8x8");
        if pos.side_to_move() == Color::Black { (black, white) } else { (white, black) }
    };
    let mut boards = Vec::with_capacity(64);
    let replay =
        game.replay_with(Passes::Implicit, |before: &Position, _: Move, _| boards.push(view(before))).map_err(|e| {
            let e = record.illegal(e);
            raw.error(source.name, e.span, e.message)
        })?;
    boards.push(view(&replay.position));
    Ok(Some(boards))
}

/// A number in `[0, 1)` from a game's boards and a seed and salt.
fn game_hash(boards: &[(u64, u64)], seed: u64, salt: u64) -> f64 {
    let h = boards.iter().fold(crate::core::splitmix64(seed ^ salt), |h, &(p, o)| {
        crate::core::splitmix64(h ^ p).wrapping_add(crate::core::splitmix64(o))
    });
    (crate::core::splitmix64(h) >> 11) as f64 / (1u64 << 53) as f64
}

/// What one record gave.
enum Outcome {
    /// The labels of a used game and its branches, and whether it is held out.
    Used(Labelled, bool),
    /// Left out by the sample.
    Skipped,
    /// Not standard Othello, or not finished and too short.
    Unusable,
    /// Drawn for the held-out set, with its record number (`--list-held-out`).
    HeldOut(usize),
}

/// Runs `kifu train`.
pub fn run(args: Args) -> anyhow::Result<Status> {
    args.threads.apply()?;
    anyhow::ensure!((0.0..=1.0).contains(&args.sample), "--sample must be between 0 and 1");
    anyhow::ensure!((0.0..1.0).contains(&args.held_out), "--held-out must be at least 0 and below 1");
    anyhow::ensure!((0.0..=1000.0).contains(&args.branches), "--branches must be between 0 and 1000");
    anyhow::ensure!(
        args.ridge.is_finite() && args.ridge >= 0.0,
        "--ridge must be a number of squared discs, 0 or more"
    );
    anyhow::ensure!((0.0..=1.0).contains(&args.noise), "--noise must be between 0 and 1");
    anyhow::ensure!(args.depth >= 4, "--depth must be at least 4 (the search must reach fitted phases)");
    let started = Instant::now();
    let progress = Progress::new(args.quiet, "labelling");
    let (mut training, mut held_out) = (Labelled::default(), Labelled::default());
    let (mut used, mut skipped, mut unusable, mut bad) = (0u64, 0u64, 0u64, 0u64);
    let mut held = Vec::new();
    let problems = records::for_each(
        &args.input,
        &progress,
        |source, raw| -> Result<Outcome, RecordError> {
            let Some(boards) = game_boards(source, raw)? else { return Ok(Outcome::Unusable) };
            if game_hash(&boards, args.seed, 0) >= args.sample {
                return Ok(Outcome::Skipped);
            }
            let held = game_hash(&boards, args.seed, 1) < args.held_out;
            if args.list_held_out {
                return Ok(if held { Outcome::HeldOut(raw.index + 1) } else { Outcome::Skipped });
            }
            let labels = with_solver(args.hash_mb, |solver| {
                let mut labels = train::label_game(&boards, args.exact_empties, !args.search_labels, solver);
                let moves = boards.len() - 1;
                let (&(p, o), whole) = (boards.last().expect("a start"), args.branches.floor() as u64);
                let over = legal_moves(p, o) == 0 && legal_moves(o, p) == 0;
                let extra = game_hash(&boards, args.seed, 2) < args.branches.fract();
                for b in 0..whole + u64::from(extra) {
                    let key = game_hash(&boards, args.seed, 3 + b);
                    // Finished games branch off any position but the last; others off their last.
                    let cut = if over { (key * moves as f64) as usize } else { moves };
                    let line = train::branch(&boards, cut, args.noise, (key * (1u64 << 53) as f64) as u64);
                    // The branch's first position is the game's own.
                    let more = train::label_game(&line[1..], args.exact_empties, false, solver);
                    labels.samples.extend(more.samples);
                    labels.pending.extend(more.pending);
                }
                labels
            });
            if labels.samples.is_empty() && labels.pending.is_empty() {
                return Ok(Outcome::Unusable);
            }
            Ok(Outcome::Used(labels, held))
        },
        |source, result| {
            match result.and_then(|r| r) {
                Err(e) => {
                    progress.suspend(|| stderr!("{e}"));
                    bad += 1;
                }
                Ok(Outcome::Used(labels, out)) => {
                    used += 1;
                    let set = if out { &mut held_out } else { &mut training };
                    set.samples.extend(labels.samples);
                    set.pending.extend(labels.pending);
                }
                Ok(Outcome::Skipped) => skipped += 1,
                Ok(Outcome::Unusable) => unusable += 1,
                Ok(Outcome::HeldOut(record)) => {
                    held.push((source.name.to_owned(), record));
                }
            }
            Ok(())
        },
    )?;
    progress.finish();
    let bad = bad + problems.warn("kifu train");
    if args.list_held_out {
        return list_held_out(&held, bad);
    }
    println!(
        "kifu train: {used} games used ({skipped} left out by --sample, {unusable} unusable, {bad} unreadable); \
         {} training and {} held-out positions labelled in {:.1} s, {} and {} left to the search",
        training.samples.len(),
        held_out.samples.len(),
        started.elapsed().as_secs_f64(),
        training.pending.len(),
        held_out.pending.len(),
    );
    anyhow::ensure!(!training.samples.is_empty() || !training.pending.is_empty(), "no training positions");
    let fitting = Instant::now();
    let options = FitOptions {
        iterations: args.iterations,
        ridge: args.ridge,
        depth: args.depth,
        overlap: args.overlap,
        shapes: args.shapes,
    };
    let evaluator = train::fit(&mut training, &mut held_out, options, &mut |line| println!("  {line}"));
    println!("fitted in {:.1} s", fitting.elapsed().as_secs_f64());
    let (train_errors, held_errors) =
        (ErrorTable::of(&evaluator, &training.samples), ErrorTable::of(&evaluator, &held_out.samples));
    println!("mean absolute error in discs (shipped integer weights), by phase:");
    println!("  empties   training (n, error)   held out (n, error)");
    for (t, h) in train_errors.rows(4).iter().zip(held_errors.rows(4)) {
        let what = if (t.lo, t.hi) == (0, 60) { "all".to_owned() } else { format!("{:2}-{:2}", t.lo, t.hi) };
        // No positions, no error to print.
        let error = |n: u64, e: f64| if n == 0 { "-".to_owned() } else { format!("{e:.2}") };
        println!(
            "  {what:>5}   {:>9} {:>7}    {:>9} {:>7}",
            t.count,
            error(t.count, t.mean_abs),
            h.count,
            error(h.count, h.mean_abs)
        );
    }
    let bytes = evaluator.to_bytes();
    let path = args.output.as_ref().context("no weights file to write (-o)")?;
    let mut out = Output::open(Some(path))?;
    out.write_all(&bytes).with_context(|| format!("writing {}", path.display()))?;
    out.finish()?;
    println!("wrote {} ({} bytes) in {:.1} s in all", path.display(), bytes.len(), started.elapsed().as_secs_f64());
    Ok(if bad > 0 { Status::SomeInvalid } else { Status::Ok })
}

/// Prints the held-out games of `--list-held-out` as CSV rows on stdout.
fn list_held_out(held: &[(String, usize)], bad: u64) -> anyhow::Result<Status> {
    let mut rows = csv::Writer::from_writer(Vec::new());
    rows.write_record(["source", "record"])?;
    for (source, record) in held {
        rows.write_record([source.as_str(), &record.to_string()])?;
    }
    let mut out = Output::open(None)?;
    out.write_all(&rows.into_inner().context("formatting the rows")?).context("writing to stdout")?;
    out.finish()?;
    Ok(if bad > 0 { Status::SomeInvalid } else { Status::Ok })
}
