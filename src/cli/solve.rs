//! `kifu solve`: the exact result of positions (board strings, OBF lines, diagrams, or the last
//! position of any game record).

use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use serde::Serialize;

use super::convert::{Cut, position_at};
use super::progress::Progress;
use super::records::{self, InputArgs, Source};
use super::select::{Chooser, SelectArgs, Selector};
use super::{Output, Status};
use crate::core::{Move, Position, Rules};
use crate::engine::generic::GenericSearcher;
use crate::engine::solve::{Estimate, Limits, SolveError, Solver, SolverSet, Target};
use crate::notation::Span;
use crate::notation::check::is_square_name;
use crate::notation::reader::{Body, RawRecord, RecordError};

/// Arguments of `kifu solve`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Scores are the final disc margin for the side to move under perfect play, the empty \
squares going to the winner (the official rule); --plain counts discs only. Positions of other variants (board \
sizes, shapes, holes, anti-reversi, ...) are searched by the generic engine under their own scoring, on one thread and \
without selective pruning (docs/variants.md).")]
pub struct Args {
    /// What to read.
    #[command(flatten)]
    pub input: InputArgs,
    /// Which records to solve (judged by the whole game, before any `--empties` or `--ply` cut).
    #[command(flatten)]
    pub select: SelectArgs,
    /// The exact final margin (the default).
    #[arg(long, conflicts_with_all = ["wld", "depth"])]
    pub exact: bool,
    /// Only win, loss or draw (faster): the score is 1, 0 or -1 and the pv only the best move.
    #[arg(long)]
    pub wld: bool,
    /// Also give the exact score of every legal move (with --wld: 1, 0 or -1 for each).
    #[arg(long)]
    pub all_moves: bool,
    /// Also list every move as good as the best (`best_moves`): one move when the answer is
    /// unique, as a puzzle's must be. From the moves' scores with --all-moves, else by a
    /// null-window solve of each other move (cheaper); with --depth, from every move's
    /// estimate.
    #[arg(long)]
    pub best_moves: bool,
    /// Score plain disc counts instead of giving the empty squares to the winner (anti-reversi's
    /// scores are plain already: fewer discs wins).
    #[arg(long)]
    pub plain: bool,
    /// Compare each result with the move scores its record stores (OBF's `G8:+18;`): the moves'
    /// legality, the best score, and with --all-moves every stored move's score; a difference
    /// is reported (exit 1).
    #[arg(long, conflicts_with_all = ["empties", "ply"])]
    pub check: bool,
    /// Search this many moves ahead on the evaluation instead of solving (exact where the depth
    /// reaches the end).
    #[arg(long, conflicts_with = "wld", value_parser = clap::value_parser!(u32).range(1..))]
    pub depth: Option<u32>,
    /// With --depth: solve exactly the positions with at most this many empty squares instead
    /// (as `annotate` and `show --annotate` do), so that a score goes exact near the end.
    #[arg(long, requires = "depth")]
    pub exact_empties: Option<u32>,
    /// Search as deep as this many seconds allow, going on to the exact solve 8 moves from the
    /// end (with --depth: at most that deep; --all-moves and --best-moves then search every
    /// move to the depth reached, beyond the time); with --exact or --wld: solve exactly or
    /// give up after this many seconds.
    #[arg(long, value_parser = super::parse_seconds)]
    pub time: Option<f64>,
    /// Like --time with nodes instead of seconds: search as deep as about this many nodes allow
    /// (a depth is started only when the budget is expected to cover it, and then finished), so
    /// on one thread the output is the same on every machine; with --exact or --wld:
    /// solve exactly or give up after about this many nodes (every thread's counted together).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// With --depth or --time: prune selectively (ProbCut), taking a cut with this confidence in
    /// percent: 73, 87, 95, 98, 99, or 100 for none.
    #[arg(long, default_value_t = 100)]
    pub selectivity: u32,
    /// Order moves and estimate positions with this weights file (written by `kifu train`)
    /// instead of the shipped weights (both the depth-limited search's and the exact solver's).
    #[arg(long, visible_alias = "eval")]
    pub weights: Option<PathBuf>,
    /// Threads per search (default: `RAYON_NUM_THREADS`, else every core); positions are solved
    /// one after the other.
    #[arg(long, short = 'j', value_parser = super::parse_threads)]
    pub threads: Option<usize>,
    /// Transposition table size, in MiB (one table shared by the threads and kept from one
    /// position to the next; positions of 10 empties or fewer use another table per thread, of
    /// half the core's second-level cache and at most 1 MiB). Other variants: one table of this
    /// size, and on boards of up to 8x8 with plain captures a second one for the searches to
    /// the end.
    #[arg(long, default_value_t = 64, value_parser = super::parse_hash_mb)]
    pub hash_mb: usize,
    /// Solve each game's first position with this many empty squares instead of where it
    /// ends (games that never have that many are left out and counted); rows keep the game's
    /// own index, so they join to its record.
    #[arg(long, conflicts_with = "ply", value_parser = super::parse_empty_count)]
    pub empties: Option<u32>,
    /// Solve each game's position after this many plies (passes count; 0 is the start) instead
    /// of where it ends (shorter games are left out and counted).
    #[arg(long)]
    pub ply: Option<usize>,
    /// Output format. [default: text, or what -o's name ends in]
    #[arg(long = "format", short = 'f', value_enum, value_name = "FORMAT")]
    pub format_given: Option<SolveFormat>,
    /// The output format: `--format`, else what `-o`'s name ends in, else text.
    #[arg(skip)]
    pub format: SolveFormat,
    /// Write here instead of stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Also write a row for each record not solved (it does not read, a move is illegal, a limit
    /// stopped the solve, the game never reaches --empties or --ply), with the reason in a last
    /// column `error`, empty on solved rows: one row for every record asked for, for programs
    /// that send a position and wait for its answer (not with --format obf).
    #[arg(long)]
    pub error_rows: bool,
    /// No progress bar and no summary.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `--format` values of `kifu solve`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, clap::ValueEnum)]
pub enum SolveFormat {
    /// Human-readable text.
    #[default]
    Text,
    /// CSV with a header row.
    Csv,
    /// JSON Lines: one object per line.
    Json,
    /// OBF, as the FFO test suite: each position's board and side, then its best move's exact
    /// score, or every move's with --all-moves (exact scores only).
    Obf,
}

impl Args {
    /// Whether a position with `empties` empty squares gets the depth-limited search: a depth
    /// short of the end (and more empty squares than --exact-empties), or a time or node budget
    /// without --exact or --wld.
    fn by_depth(&self, empties: u32) -> bool {
        let budget = self.time.is_some() || self.nodes.is_some();
        let exact_here = self.exact_empties.is_some_and(|n| empties <= n);
        !exact_here && ((budget && !self.exact && !self.wld) || self.depth.is_some_and(|d| d < empties))
    }

    /// The limits of one position's search by depth, or of its exact solve (`exact`): the
    /// time, and the nodes as a deepening budget or as a limit on the solve.
    fn limits(&self, exact: bool) -> Limits {
        let time = self.time.map(std::time::Duration::from_secs_f64);
        if exact {
            Limits { time, nodes: self.nodes, ..Limits::default() }
        } else {
            Limits { time, deepening_nodes: self.nodes, ..Limits::default() }
        }
    }
}

/// One solved position; the field order is the documented column order.
#[derive(Serialize, Debug)]
struct Row {
    source: String,
    index: usize,
    empties: u32,
    side: &'static str,
    best_move: String,
    score: i32,
    nodes: u64,
    seconds: f64,
    pv: String,
    moves: String,
    exact: bool,
    depth: u32,
    /// Every move as good as the best, space-separated (`--best-moves`).
    best_moves: String,
    /// The rules as a kifu spec (`othello` for standard Othello).
    rules: String,
    /// The position as a board string with its side (`--format obf`).
    #[serde(skip)]
    board: String,
    /// The legal moves' names (`--check`).
    #[serde(skip)]
    legal: Vec<String>,
    /// The player a level score goes to, where the rules give ties to one (text output).
    #[serde(skip)]
    tie_taker: Option<crate::core::Color>,
}

/// A row as a JSON line: `moves` as an array of `{"move", "score", "exact"}` objects, best
/// first (`null` without `--all-moves`), where CSV and text give `g8:+18 h1:~+12`.
fn json(row: &Row, args: &Args) -> serde_json::Result<String> {
    let mut value = serde_json::to_value(row)?;
    let moves: Option<Vec<serde_json::Value>> = args.all_moves.then(|| {
        row.moves
            .split_whitespace()
            .filter_map(|entry| entry.split_once(':'))
            .map(|(mv, score)| {
                let estimate = score.starts_with('~');
                let score: Option<i32> = score.trim_start_matches('~').trim_start_matches('+').parse().ok();
                serde_json::json!({ "move": mv, "score": score, "exact": !estimate })
            })
            .collect()
    });
    value["moves"] = serde_json::json!(moves);
    let best: Option<Vec<&str>> = args.best_moves.then(|| row.best_moves.split_whitespace().collect());
    value["best_moves"] = serde_json::json!(best);
    if args.error_rows {
        value["error"] = serde_json::Value::Null;
    }
    serde_json::to_string(&value)
}

/// Runs `kifu solve`.
pub fn run(mut args: Args) -> anyhow::Result<Status> {
    args.format = super::format_for(args.format_given, args.output.as_deref(), SolveFormat::Text);
    // Its output names no one: WTHOR names matter only to select by them.
    args.input.names_unused = !args.select.reads_names();
    let started = Instant::now();
    args.input.check(args.output.as_deref())?;
    let mut out = Output::open(args.output.as_deref())?;
    let progress = Progress::new(args.quiet, "solving");
    let (mut solved, mut failed, mut nodes) = (0u64, 0u64, 0u64);
    let (mut checked, mut differ, mut estimated, mut short, mut unread) = (0u64, 0u64, 0u64, 0u64, 0u64);
    // (clap's `requires` does not hold when --exact or --wld, which --depth conflicts with, is given.)
    if args.exact_empties.is_some() && args.depth.is_none() {
        anyhow::bail!("--exact-empties is for --depth");
    }
    if args.format == SolveFormat::Obf && args.error_rows {
        anyhow::bail!("--format obf holds solved positions only: it cannot be used with --error-rows");
    }
    if args.format == SolveFormat::Obf && args.wld {
        anyhow::bail!("--format obf holds exact scores: it cannot be used with --wld");
    }
    if args.format == SolveFormat::Obf && args.plain {
        anyhow::bail!(
            "--format obf holds scores with the empty squares to the winner, as engines read them: it cannot be used \
             with --plain"
        );
    }
    if args.check && args.plain {
        anyhow::bail!(
            "--check compares with stored scores, which OBF gives with the empty squares to the winner: it cannot be \
             used with --plain"
        );
    }
    let threads = super::worker_threads(args.threads);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    let probcut = crate::engine::solve::probcut_for(args.selectivity).map_err(anyhow::Error::msg)?;
    let evaluator = match &args.weights {
        Some(path) => Some(std::sync::Arc::new(crate::engine::eval::Evaluator::load(path)?)),
        None => None,
    };
    // The header once the options are known to be good.
    if args.format == SolveFormat::Csv {
        writeln!(
            out,
            "source,index,empties,side,best_move,score,nodes,seconds,pv,moves,exact,depth,best_moves,rules{}",
            if args.error_rows { ",error" } else { "" }
        )?;
    }
    let engines = Engines {
        solvers: Mutex::new(SolverSet::new(args.hash_mb, threads, probcut, evaluator)),
        generic: Mutex::new(None),
        stopped_nodes: AtomicU64::new(0),
    };
    let (selector, chooser) = args.select.build();
    // Reading stops after the last record `--games` asks for.
    args.input.records_wanted = chooser.numbers().read_up_to();
    let choosing = Choosing { selector, chooser: Mutex::new(chooser) };
    let problems = pool.install(|| {
        // One record at a time (each search has every thread), so the workers choose records
        // in input order, before solving them.
        records::for_each_in_batches(
            &args.input,
            &progress,
            1,
            |source, raw| solve(source, raw, &args, &engines, &choosing),
            |source, result| {
                let result = match result {
                    // A record the reader could not cut out: numbered all the same.
                    Err(_) if !choosing.keep(None) => Ok(Ok(Outcome::NotSelected)),
                    result => result,
                };
                match result.and_then(|r| r) {
                    Err(e) => {
                        progress.suspend(|| stderr!("{e}"));
                        failed += 1;
                        if args.error_rows {
                            let reason = e.to_string();
                            let reason = reason.lines().next().unwrap_or_default();
                            error_row(&mut out, args.format, &e.file, e.record, reason)?;
                            progress.suspend(|| out.flush())?;
                        }
                    }
                    Ok(Outcome::NotSelected) => {}
                    Ok(Outcome::Short(index)) => {
                        short += 1;
                        if args.error_rows
                            && let Some(cut) = Cut::from_args(args.ply, args.empties)
                        {
                            error_row(&mut out, args.format, source.name, index, &cut.missed())?;
                            progress.suspend(|| out.flush())?;
                        }
                    }
                    Ok(Outcome::Solved(solved_row)) => {
                        let Solved { row, check } = *solved_row;
                        match check {
                            Check::Nothing => {}
                            Check::Estimate(e) => {
                                progress.suspend(|| stderr!("{e}"));
                                estimated += 1;
                            }
                            Check::Agrees => checked += 1,
                            Check::Unread(e) => {
                                progress.suspend(|| stderr!("{e}"));
                                unread += 1;
                            }
                            Check::Differs(e) => {
                                progress.suspend(|| stderr!("{e}"));
                                checked += 1;
                                differ += 1;
                            }
                        }
                        solved += 1;
                        nodes += row.nodes;
                        match args.format {
                            SolveFormat::Csv => {
                                let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
                                w.serialize(&row)?;
                                let mut line = w.into_inner().map_err(|e| anyhow::Error::from(e.into_error()))?;
                                if args.error_rows {
                                    // The empty `error` cell.
                                    line.pop();
                                    line.extend_from_slice(b",\n");
                                }
                                out.write_all(&line)?;
                            }
                            SolveFormat::Json => writeln!(out, "{}", json(&row, &args)?)?,
                            SolveFormat::Text => writeln!(out, "{}", text(&row, args.wld))?,
                            SolveFormat::Obf => writeln!(out, "{}", obf(&row))?,
                        }
                        // Solving is slow: each answer goes out as soon as it is known (the
                        // progress line on a terminal cleared first, not left before it).
                        progress.suspend(|| out.flush())?;
                    }
                }
                Ok(())
            },
        )
    })?;
    progress.finish();
    let damaged = problems.warn("kifu solve");
    nodes += engines.stopped_nodes.load(Ordering::Relaxed);
    out.finish()?;
    if let Ok(chooser) = choosing.chooser.lock() {
        chooser.warn_past_the_end("kifu solve");
    }
    if !args.quiet {
        let checks = match (args.check, estimated) {
            (false, _) => String::new(),
            (true, 0) => format!(", {checked} checked against their stored scores, {differ} differ"),
            (true, _) => format!(
                ", {checked} checked against their stored scores, {differ} differ, {estimated} only estimated (not checked)"
            ),
        };
        let short = match (short, Cut::from_args(args.ply, args.empties)) {
            (0, _) | (_, None) => String::new(),
            (n, Some(cut)) => format!(", {}", cut.missed_by(n)),
        };
        let unread = match unread {
            0 => String::new(),
            n => format!(", {} whose stored scores do not read", super::counted(n, "record")),
        };
        stderr!(
            "kifu solve: {} solved, {failed} not{checks}{unread}{short}{} ({nodes} nodes, {:.2} s)",
            super::counted(solved, "position"),
            choosing.chooser.lock().map(|c| c.summary()).unwrap_or_default(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(if failed + damaged + differ + unread > 0 { Status::SomeInvalid } else { Status::Ok })
}

/// The row of a record not solved (`--error-rows`): its file and number, and why, the other
/// columns empty (`null` in JSON).
fn error_row(out: &mut Output, format: SolveFormat, source: &str, index: usize, reason: &str) -> anyhow::Result<()> {
    match format {
        SolveFormat::Csv => {
            let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
            let mut cells = vec![source.to_owned(), index.to_string()];
            cells.extend(std::iter::repeat_n(String::new(), 12));
            cells.push(reason.to_owned());
            w.write_record(&cells)?;
            out.write_all(&w.into_inner().map_err(|e| anyhow::Error::from(e.into_error()))?)?;
        }
        SolveFormat::Json => {
            let mut value = serde_json::json!({ "source": source, "index": index });
            for column in [
                "empties",
                "side",
                "best_move",
                "score",
                "nodes",
                "seconds",
                "pv",
                "moves",
                "exact",
                "depth",
                "best_moves",
                "rules",
            ] {
                value[column] = serde_json::Value::Null;
            }
            value["error"] = serde_json::json!(reason);
            writeln!(out, "{value}")?;
        }
        SolveFormat::Text => writeln!(out, "{source}#{index}: not solved: {reason}")?,
        SolveFormat::Obf => unreachable!("refused with --error-rows"),
    }
    Ok(())
}

/// A row as text; with `--wld` the score is named (`win`, `draw`, `loss`).
fn text(row: &Row, wld: bool) -> String {
    let how = if row.exact { String::new() } else { format!(" estimated at depth {},", row.depth) };
    // A tie the rules give to one side names the winner, so no side is named after it.
    let tie_taker = row.tie_taker.filter(|_| !wld && row.exact && row.score == 0);
    let score = match (wld, row.score.signum()) {
        (false, 0) if let Some(taker) = tie_taker => format!("score +0, a win for {taker} (ties go to {taker})"),
        (false, _) => format!("score {:+}", row.score),
        (true, 1) => "win (+1)".to_owned(),
        (true, 0) => "draw (0)".to_owned(),
        (true, _) => "loss (-1)".to_owned(),
    };
    // A finished position has no one to move: its score is the side's the row names.
    let mut s = if row.best_move.is_empty() {
        format!(
            "{}#{}: {} empties, game over: {score}{} ({} nodes, {:.3} s)",
            row.source,
            row.index,
            row.empties,
            if tie_taker.is_some() { String::new() } else { format!(" for {}", row.side) },
            row.nodes,
            row.seconds
        )
    } else {
        format!(
            "{}#{}: {} empties, {} to move: best {},{how} {score} ({} nodes, {:.3} s)",
            row.source, row.index, row.empties, row.side, row.best_move, row.nodes, row.seconds
        )
    };
    if row.rules != "othello" {
        s.push_str(&format!("\n  rules: {}", row.rules));
    }
    if !row.pv.is_empty() {
        s.push_str(&format!("\n  pv: {}", row.pv));
    }
    if !row.moves.is_empty() {
        s.push_str(&format!("\n  moves: {}", row.moves));
    }
    let estimated = if row.exact { "" } else { " by the estimates" };
    match row.best_moves.split_whitespace().count() {
        0 => {}
        1 if row.legal.len() == 1 => s.push_str(&format!("\n  best moves: {} (the only move)", row.best_moves)),
        1 => s.push_str(&format!("\n  best moves: {} (unique{estimated})", row.best_moves)),
        n => s.push_str(&format!("\n  best moves: {} ({n} tied{estimated})", row.best_moves)),
    }
    s
}

/// A solved position as an OBF line: the board and side, then the best move's score or, with
/// every move's, each of them (`G8:+18;`), squares in capitals as the FFO files write them.
fn obf(row: &Row) -> String {
    let mut line = format!("{};", row.board);
    let scored = if row.moves.is_empty() && !row.best_move.is_empty() {
        // Every move as good as the best (--best-moves) has the best's score.
        let tied: Vec<&str> = row.best_moves.split_whitespace().collect();
        let moves = if tied.is_empty() { vec![row.best_move.as_str()] } else { tied };
        moves.into_iter().map(|mv| format!("{mv}:{:+}", row.score)).collect::<Vec<String>>()
    } else {
        row.moves.split_whitespace().map(str::to_owned).collect()
    };
    for entry in scored {
        line.push(' ');
        line.push_str(&entry.to_uppercase());
        line.push(';');
    }
    line
}

/// What became of one record.
enum Outcome {
    /// The selection left it out.
    NotSelected,
    /// The game never reaches the `--empties` or `--ply` cut (its number in its file, from 1).
    Short(usize),
    /// Its position solved.
    Solved(Box<Solved>),
}

/// The selection, and the chooser the workers consult in input order.
struct Choosing {
    selector: Selector,
    chooser: Mutex<Chooser>,
}

impl Choosing {
    /// Whether the next record in input order is kept (see [`Chooser::keep`]).
    fn keep(&self, pick: Option<super::select::Pick>) -> bool {
        self.chooser.lock().map(|mut c| c.keep(pick)).unwrap_or(true)
    }
}

/// A solved position, and with `--check` how it compares with the scores its record stores.
struct Solved {
    row: Row,
    check: Check,
}

/// What `--check` found.
enum Check {
    /// Not asked for, or the record stores no scores.
    Nothing,
    /// The result is only an estimate: nothing to compare (the error says so).
    Estimate(RecordError),
    /// The stored scores agree with the solver's.
    Agrees,
    /// They differ: the error names the record and says how.
    Differs(RecordError),
    /// The stored scores do not read (checked or not): the error says where.
    Unread(RecordError),
}

/// What solves the positions of one run.
struct Engines {
    /// One solver per scoring, its table kept from one position to the next.
    solvers: Mutex<SolverSet>,
    /// The engine for other variants, made on first use.
    generic: Mutex<Option<GenericSearcher>>,
    /// The nodes of the searches that have no row (a limit stopped them, or `--format obf`
    /// refused their estimate), for the summary.
    stopped_nodes: AtomicU64,
}

/// Solves (or searches) one selected record's position: where it ends, or where `--empties` or
/// `--ply` cuts it; with `--check`, compares the result with the scores the record stores.
fn solve(
    source: &Source,
    raw: &RawRecord,
    args: &Args,
    engines: &Engines,
    choosing: &Choosing,
) -> Result<Outcome, RecordError> {
    // Judged before the (slow) solve; a record that does not read is reported unless --games
    // leaves it out.
    let read = choosing.selector.judging().then(|| source.read(raw));
    let pick = match &read {
        Some(Ok((record, rules))) => choosing.selector.pick_record(record, rules, source.format),
        _ => None,
    };
    if !choosing.keep(pick) {
        return Ok(Outcome::NotSelected);
    }
    if let Some(Err(e)) = read {
        return Err(e);
    }
    let cut = Cut::from_args(args.ply, args.empties);
    let (pos, stored) = match cut {
        None => {
            let (pos, record, unstated) = source.end_position(raw)?;
            if let Some(warning) = unstated {
                stderr!("kifu solve: warning: {warning}");
            }
            (pos, record.tag("scores").map(str::to_owned))
        }
        Some(cut) => {
            let Some(pos) = position_at(source, raw, cut)? else { return Ok(Outcome::Short(raw.index + 1)) };
            // Scores a record stores are for its own position, not this one.
            (pos, None)
        }
    };
    let rules = pos.rules().clone();
    let row = solve_row(source, raw, args, engines, pos)?;
    if args.format == SolveFormat::Obf && !row.exact {
        // Searched all the same: its nodes count in the summary.
        engines.stopped_nodes.fetch_add(row.nodes, Ordering::Relaxed);
        let how = format!("estimated at depth {}; OBF holds exact scores only", row.depth);
        return Err(raw.error(source.name, Default::default(), how));
    }
    let check = match stored.as_deref().map(|stored| stored_scores(stored, &rules)) {
        // A scores list that does not read is bad whether or not it is compared.
        Some(Err((how, mv))) => Check::Unread(raw.error(source.name, scores_span(raw, mv.as_deref()), how)),
        Some(Ok(given)) if args.check && !given.is_empty() => {
            if row.exact {
                match differences(&row, &given, args.wld) {
                    Ok(()) => Check::Agrees,
                    Err((how, mv)) => Check::Differs(raw.error(source.name, scores_span(raw, mv.as_deref()), how)),
                }
            } else {
                let how = format!("estimated at depth {}: its stored scores are not checked", row.depth);
                Check::Estimate(raw.error(source.name, scores_span(raw, None), how))
            }
        }
        _ => Check::Nothing,
    };
    Ok(Outcome::Solved(Box::new(Solved { row, check })))
}

/// Where `--check` points in an OBF record: the stored entry of `mv` if given and found, else
/// all the stored scores (after the `;` that ends the board and side); the record's start when
/// it has no such text.
fn scores_span(raw: &RawRecord, mv: Option<&str>) -> Span {
    let Body::Text(text) = &raw.body else { return Span::default() };
    let Some(semicolon) = text.find(';') else { return Span::default() };
    let mut entries = Vec::new();
    let mut start = semicolon + 1;
    for piece in text[semicolon + 1..].split(';') {
        let lead = piece.len() - piece.trim_start().len();
        let span = Span { start: start + lead, end: start + piece.trim_end().len() };
        if span.end > span.start {
            entries.push((piece.trim(), span));
        }
        start += piece.len() + 1;
    }
    // The entry of that move (a pass in any spelling), or the entry that is that text.
    let named = |entry: &str| {
        mv.is_some_and(|mv| {
            entry == mv || entry.split_once(':').is_some_and(|(m, _)| crate::notation::check::scored_move(m) == mv)
        })
    };
    match (entries.iter().find(|(entry, _)| named(entry)), entries.first(), entries.last()) {
        (Some(&(_, span)), _, _) => span,
        (None, Some(first), Some(last)) => Span { start: first.1.start, end: last.1.end },
        _ => Span::default(),
    }
}

/// Why stored scores do not read, and the move it concerns, if any.
type Unreadable = (String, Option<String>);

/// The moves and scores a record stores (`G8:+18; H1:+12;`, the moves in any case, a pass as
/// `PS` too), or what does not read: an entry that is not a move and its score, a move listed
/// twice (the error names the move, if any).
fn stored_scores(stored: &str, rules: &Rules) -> Result<Vec<(String, i32)>, Unreadable> {
    let mut given: Vec<(String, i32)> = Vec::new();
    for entry in stored.split(';').map(str::trim).filter(|e| !e.is_empty()) {
        let parsed = entry
            .split_once(':')
            .and_then(|(mv, score)| Some((crate::notation::check::scored_move(mv), score.trim().parse::<i32>().ok()?)));
        let Some((mv, score)) = parsed else {
            let how = format!("`{}` is not a move and its score (`G8:+18`)", crate::notation::printable(entry));
            return Err((how, Some(entry.to_owned())));
        };
        if !is_square_name(&mv, rules) {
            return Err((format!("the scores list {mv}, which is not a square of this board"), Some(mv)));
        }
        if given.iter().any(|(m, _)| *m == mv) {
            return Err((format!("the scores list {mv} twice"), Some(mv)));
        }
        given.push((mv, score));
    }
    Ok(given)
}

/// How a solved row differs from the scores its record stores (`G8:+18; H1:+12;`, the moves
/// in any case, not all of them needed): moves that are not legal, the best score, the score
/// the file gives the solver's best move, and with `--all-moves` every stored move's score
/// (with `--wld` their signs). The error names the first stored move it concerns, if any.
fn differences(row: &Row, given: &[(String, i32)], wld: bool) -> Result<(), (String, Option<String>)> {
    let given: Vec<(String, i32)> =
        given.iter().map(|(mv, score)| (mv.clone(), if wld { score.signum() } else { *score })).collect();
    let Some(best) = given.iter().map(|g| g.1).max() else { return Ok(()) };
    // Each problem, and the stored move it concerns.
    let mut problems: Vec<(String, Option<&str>)> = given
        .iter()
        .filter(|(mv, _)| !row.legal.contains(mv))
        .map(|(mv, _)| (format!("{mv} is not a legal move here"), Some(mv.as_str())))
        .collect();
    if row.score != best {
        problems.push((format!("the best score is {:+} in the file, {:+} by the solver", best, row.score), None));
    }
    // With --best-moves: every move the file scores is best exactly when the solver finds it
    // as good as the best (a puzzle file's claim of a unique answer).
    let tied: Vec<&str> = row.best_moves.split_whitespace().collect();
    if !tied.is_empty() && row.score == best {
        for mv in tied.iter().filter(|mv| !given.iter().any(|(g, _)| g == *mv)) {
            problems.push((
                format!("{mv} is as good as the best ({best:+}) by the solver, and the file does not score it"),
                None,
            ));
        }
        // (With --all-moves every stored score is compared below.)
        for (mv, score) in given.iter().filter(|_| row.moves.is_empty()) {
            match (tied.contains(&mv.as_str()), *score == best) {
                (true, false) => problems.push((
                    format!("{mv} is {score:+} in the file, as good as the best ({best:+}) by the solver"),
                    Some(mv.as_str()),
                )),
                (false, true) => problems
                    .push((format!("{mv} is best ({score:+}) in the file, worse by the solver"), Some(mv.as_str()))),
                _ => {}
            }
        }
    }
    if row.moves.is_empty() {
        if let Some((mv, score)) = given.iter().find(|(mv, _)| *mv == row.best_move)
            && *score != row.score
        {
            let how = format!("the solver's best move {mv} ({:+}) has {score:+} in the file", row.score);
            problems.push((how, Some(mv.as_str())));
        }
    } else {
        let solved: Vec<(&str, i32)> = row
            .moves
            .split_whitespace()
            .filter_map(|m| m.split_once(':'))
            .filter_map(|(mv, score)| Some((mv, score.parse().ok()?)))
            .collect();
        for (mv, score) in &given {
            if let Some((_, s)) = solved.iter().find(|(m, _)| m == mv)
                && s != score
            {
                problems.push((format!("{mv} is {score:+} in the file, {s:+} by the solver"), Some(mv.as_str())));
            }
        }
    }
    if problems.is_empty() {
        return Ok(());
    }
    let mv = problems.iter().find_map(|p| p.1).map(str::to_owned);
    Err((problems.into_iter().map(|p| p.0).collect::<Vec<_>>().join("; "), mv))
}

/// The row of one position, solved or searched as `args` ask.
fn solve_row(
    source: &Source,
    raw: &RawRecord,
    args: &Args,
    engines: &Engines,
    mut pos: Position,
) -> Result<Row, RecordError> {
    // Anti-reversi's margin is already the plain difference (fewer discs wins).
    if args.plain && pos.rules().variant().scoring == crate::core::Scoring::EmptiesToWinner {
        let mut variant = pos.rules().variant().clone();
        variant.scoring = crate::core::Scoring::Plain;
        let rules =
            crate::core::Rules::new(variant).map_err(|e| raw.error(source.name, Default::default(), e.to_string()))?;
        pos = Position::from_setup(
            rules.shared(),
            &crate::core::Setup {
                black: pos.discs_of(crate::core::Color::Black).squares().collect(),
                white: pos.discs_of(crate::core::Color::White).squares().collect(),
                side: pos.side_to_move(),
            },
        )
        .map_err(|e| raw.error(source.name, Default::default(), e.to_string()))?;
    }
    let fail = |e: SolveError| {
        if let SolveError::Stopped { nodes } = e {
            engines.stopped_nodes.fetch_add(nodes, Ordering::Relaxed);
        }
        raw.error(source.name, Default::default(), e.to_string())
    };
    // A board no game reaches (an empty board, a centre cell cleared): its score is no label.
    if let Some(warning) = source.unreachable(raw, &pos) {
        stderr!("kifu solve: warning: {warning}");
    }
    // An exact solve far from the end can run for hours: say so before it starts.
    let far = if Solver::counting_for(&pos).is_some() { 36 } else { 24 };
    let unlimited = args.depth.is_none() && args.time.is_none() && args.nodes.is_none();
    if unlimited && !args.quiet && pos.empties() > far && !pos.is_game_over() {
        stderr!(
            "kifu solve: warning: {}#{} has {} empty squares: an exact solve this far from the end can take \
             hours; --depth D or --time T searches instead",
            source.name,
            raw.index + 1,
            pos.empties()
        );
    }
    let Some(counting) = Solver::counting_for(&pos) else {
        let mut generic = engines.generic.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let searcher = generic.get_or_insert_with(|| GenericSearcher::new(args.hash_mb));
        return solve_generic(source, raw, args, &pos, searcher).map_err(fail);
    };
    let name = |mv: Move| pos.rules().move_name(mv);
    let target = if args.wld { Target::WinLossDraw } else { Target::Exact };
    let mut solvers = engines.solvers.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let solver = solvers.get(counting);
    // After the solver: the first position's time does not include making its table.
    let started = Instant::now();
    let empties = pos.empties();
    let (found, moves, best) = if args.by_depth(empties) {
        let depth = args.depth.unwrap_or(empties);
        let limits = args.limits(false);
        let mut found = solver.search_with(&pos, depth, limits).map_err(fail)?;
        let (mut moves, mut best) = (String::new(), String::new());
        if args.all_moves || args.best_moves {
            let all = solver.search_moves_with(&pos, found.depth, Limits::default()).map_err(fail)?;
            found.nodes += solver.nodes();
            headline_from_moves(&mut found, &all);
            if args.all_moves {
                moves = estimates_text(&pos, &all);
            }
            if args.best_moves {
                best = tied_best(&pos, all.iter().map(|(mv, e)| (*mv, e.score)));
            }
        }
        (found, moves, best)
    } else {
        // `--exact --time T` or `--nodes N`: the exact solve or nothing within the limit.
        let limits = args.limits(true);
        let solution = solver.solve_with(&pos, target, limits).map_err(fail)?;
        let wld = |score: i32| if args.wld { outcome_sign(&pos, score) } else { score };
        let (mut moves, mut best, mut extra) = (String::new(), String::new(), 0);
        if args.all_moves {
            // The moves' solves within the same limit again.
            let all = solver.solve_moves_for(&pos, target, limits).map_err(fail)?;
            extra += solver.nodes();
            moves =
                all.iter().map(|&(mv, score)| format!("{}:{:+}", name(mv), wld(score))).collect::<Vec<_>>().join(" ");
            if args.best_moves {
                best = tied_best(&pos, all.iter().map(|&(mv, score)| (mv, wld(score))));
            }
        } else if args.best_moves {
            // The other moves, each asked only whether it reaches the best result.
            let reported = wld(solution.score);
            let bound = if args.wld { (-64..=64).find(|&s| wld(s) >= reported).unwrap_or(64) } else { reported };
            let mut tied = Vec::new();
            for mv in pos.legal_moves() {
                if Some(mv) != solution.best {
                    let reaches = solver.move_reaches(&pos, mv, bound, limits).map_err(fail)?;
                    extra += solver.nodes();
                    if !reaches {
                        continue;
                    }
                }
                tied.push(mv);
            }
            best = names_in_board_order(&pos, tied);
        }
        let found = Estimate {
            score: wld(solution.score),
            units: 0,
            exact: true,
            depth: empties,
            best: solution.best,
            pv: solution.pv,
            nodes: solution.nodes + extra,
        };
        (found, moves, best)
    };
    Ok(row(source, raw, &pos, &found, (moves, best), found.nodes, started))
}

/// `--wld`'s value of a score for the side to move of `pos`: 1 a win, 0 a draw, -1 a loss.
/// Where the rules give ties to the second player (`ties=second`), an even score is no draw.
fn outcome_sign(pos: &Position, score: i32) -> i32 {
    crate::engine::analysis::result_sign(score, pos.side_to_move(), crate::engine::analysis::tie_taker(pos))
}

/// A position of another variant, by the generic engine: searched `--depth` ahead, or exactly
/// (`--wld` gives the sign of the exact score).
fn solve_generic(
    source: &Source,
    raw: &RawRecord,
    args: &Args,
    pos: &Position,
    searcher: &mut GenericSearcher,
) -> Result<Row, SolveError> {
    let started = Instant::now();
    let mut found = if args.by_depth(pos.empties()) {
        searcher.search_with(pos, args.depth.unwrap_or(pos.empties()), args.limits(false))?
    } else {
        let exact = searcher.solve_with(pos, args.limits(true))?;
        if !exact.exact {
            // A time or node limit ended the exact search early.
            return Err(SolveError::Stopped { nodes: exact.nodes });
        }
        exact
    };
    if args.wld {
        found.score = outcome_sign(pos, found.score);
        found.pv.truncate(1);
    }
    let mut nodes = found.nodes;
    let (mut moves, mut best) = (String::new(), String::new());
    if args.all_moves || args.best_moves {
        let mut all = searcher.search_moves_with(pos, found.depth, Limits::default())?;
        nodes += searcher.nodes();
        if args.wld {
            for (_, e) in &mut all {
                e.score = outcome_sign(pos, e.score);
            }
        }
        if !args.wld {
            headline_from_moves(&mut found, &all);
        }
        if args.all_moves {
            moves = estimates_text(pos, &all);
        }
        if args.best_moves {
            best = tied_best(pos, all.iter().map(|(mv, e)| (*mv, e.score)));
        }
    }
    Ok(row(source, raw, pos, &found, (moves, best), nodes, started))
}

/// Makes the headline the best of the moves' searches (`all`, best first), which can differ
/// from the first search's (its window and the table it met): one answer, not two that
/// disagree.
fn headline_from_moves(found: &mut Estimate, all: &[(Move, Estimate)]) {
    if let Some((_, top)) = all.first().filter(|(_, top)| top.exact == found.exact) {
        (found.best, found.score, found.units, found.pv) = (top.best, top.score, top.units, top.pv.clone());
    }
}

/// The moves whose value is the best of `scores`, named, in board order.
fn tied_best(pos: &Position, scores: impl Iterator<Item = (Move, i32)> + Clone) -> String {
    let Some(top) = scores.clone().map(|(_, s)| s).max() else { return String::new() };
    names_in_board_order(pos, scores.filter(|&(_, s)| s == top).map(|(mv, _)| mv).collect())
}

/// Moves named and space-separated in board order (a pass last).
fn names_in_board_order(pos: &Position, mut moves: Vec<Move>) -> String {
    moves.sort_by_key(|mv| mv.square().map_or(u16::MAX, |sq| u16::from(sq.index())));
    moves.into_iter().map(|mv| pos.rules().move_name(mv)).collect::<Vec<_>>().join(" ")
}

/// The output row of a solved or searched position; `moves` are the `moves` and `best_moves`
/// texts.
fn row(
    source: &Source,
    raw: &RawRecord,
    pos: &Position,
    found: &Estimate,
    (moves, best_moves): (String, String),
    nodes: u64,
    started: Instant,
) -> Row {
    let name = |mv: Move| pos.rules().move_name(mv);
    Row {
        source: source.name.to_owned(),
        index: raw.index + 1,
        empties: pos.empties(),
        side: pos.side_to_move().name(),
        best_move: found.best.map(name).unwrap_or_default(),
        score: found.score,
        nodes,
        seconds: super::row_seconds(started.elapsed().as_secs_f64()),
        pv: found.pv.iter().map(|&m| name(m)).collect::<Vec<_>>().join(" "),
        moves,
        exact: found.exact,
        depth: found.depth,
        best_moves,
        rules: pos.rules().variant().spec(),
        board: crate::notation::board::write_string(&crate::notation::BoardSyntax::of_position(pos)),
        legal: pos.legal_moves().into_iter().map(name).collect(),
        tie_taker: crate::engine::analysis::tie_taker(pos),
    }
}

/// Every move's estimate as `move:score`, `~` before a score that is not exact.
fn estimates_text(pos: &Position, all: &[(Move, Estimate)]) -> String {
    let text = |(mv, e): &(Move, Estimate)| {
        format!("{}:{}{:+}", pos.rules().move_name(*mv), if e.exact { "" } else { "~" }, e.score)
    };
    all.iter().map(text).collect::<Vec<_>>().join(" ")
}
