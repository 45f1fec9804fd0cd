//! `kifu eval`: the static evaluation of positions (board strings, OBF lines, diagrams, or the
//! last position of any game record), or with `--check` its errors against exact scores.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use serde::Serialize;

use super::convert::{Cut, position_at};
use super::progress::Progress;
use super::records::{self, InputArgs, Source};
use super::select::{Chooser, Pick, SelectArgs, Selector};
use super::train::{game_boards, with_solver};
use super::{Format, Output, Status};
use crate::core::{Color, Position};
use crate::engine::eval::{Evaluator, SCALE};
use crate::engine::generic::GenericEval;
use crate::engine::solve::Solver;
use crate::engine::train::{self, ErrorTable, Sample};
use crate::notation::reader::{RawRecord, RecordError};

/// Arguments of `kifu eval`.
#[derive(clap::Args, Debug)]
#[command(after_help = "The evaluation is the expected final disc margin for the side to move (empty squares to \
the winner), from the pattern weights shipped with kifu or --weights; for other variants, the generic evaluation \
(mobility, corners, stable discs, frontier, parity, discs) under the variant's own scoring. With --check (standard 8x8 \
Othello only), \
positions are compared with exact scores: OBF lines with their first listed score; game records position by position \
(solved exactly at --exact-empties or fewer, earlier positions against the game's exact score at that point); other \
positions are solved when they have at most --exact-empties empties. See docs/eval.md.")]
pub struct Args {
    /// What to read.
    #[command(flatten)]
    pub input: InputArgs,
    /// Which records.
    #[command(flatten)]
    pub select: SelectArgs,
    /// Worker threads.
    #[command(flatten)]
    pub threads: super::ThreadsArgs,
    /// A weights file written by `kifu train` (default: the shipped weights).
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// Evaluate each game's position after this many plies (passes count; 0 is the start)
    /// instead of its last one; games shorter than that are left out.
    #[arg(long, conflicts_with_all = ["empties", "check"])]
    pub ply: Option<usize>,
    /// Evaluate each game's first position with this many empty squares instead of its last
    /// one; games that end before are left out.
    #[arg(long, conflicts_with = "check", value_parser = super::parse_empty_count)]
    pub empties: Option<u32>,
    /// Print the mean errors against exact scores by empty-square count instead of each position.
    #[arg(long)]
    pub check: bool,
    /// With --check: positions with at most this many empties are solved exactly.
    #[arg(long, default_value_t = 14, requires = "check")]
    pub exact_empties: u32,
    /// With --check: empty-square counts per line of the table.
    #[arg(long, default_value_t = 10, requires = "check", value_parser = clap::value_parser!(u32).range(1..=61))]
    pub bucket: u32,
    /// Solver transposition table per thread, in MiB (--check).
    #[arg(long, default_value_t = 16, value_parser = super::parse_hash_mb)]
    pub hash_mb: usize,
    /// Output format. [default: text, or what -o's name ends in]
    #[arg(long = "format", short = 'f', value_enum, value_name = "FORMAT")]
    pub format_given: Option<Format>,
    /// The output format: `--format`, else what `-o`'s name ends in, else text.
    #[arg(skip)]
    pub format: Format,
    /// Write here instead of stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// No progress bar and no summary.
    #[arg(long, short)]
    pub quiet: bool,
}

/// One evaluated position; the field order is the documented column order.
#[derive(Serialize, Debug)]
struct Row {
    source: String,
    index: usize,
    empties: u32,
    side: &'static str,
    eval: f64,
    /// For the text: the game is over, or the side to move must pass.
    #[serde(skip)]
    turn: Turn,
}

/// What the side to move can do, for the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Turn {
    Moves,
    Pass,
    Over,
}

/// One line of the `--check` table; the field order is the documented column order.
#[derive(Serialize, Debug)]
struct CheckRow {
    empties: String,
    positions: u64,
    mean_abs_error: f64,
    mean_error: f64,
    zero_abs_error: f64,
    target_sd: f64,
    correlation: Option<f64>,
}

/// Runs `kifu eval`.
pub fn run(mut args: Args) -> anyhow::Result<Status> {
    args.format = super::format_for(args.format_given, args.output.as_deref(), Format::Text);
    // Its output names no one: WTHOR names matter only to select by them.
    args.input.names_unused = !args.select.reads_names();
    args.threads.apply()?;
    let evaluator = match &args.weights {
        Some(path) => Arc::new(Evaluator::load(path)?),
        None => Evaluator::embedded().clone(),
    };
    args.input.check(args.output.as_deref())?;
    let mut out = Output::open(args.output.as_deref())?;
    let progress = Progress::new(args.quiet, if args.check { "checking" } else { "evaluating" });
    let (selector, mut chooser) = args.select.build();
    // Reading stops after the last record `--games` asks for.
    args.input.records_wanted = chooser.numbers().read_up_to();
    let status = if args.check {
        check(&args, &evaluator, &mut out, &progress, &selector, &mut chooser)?
    } else {
        evaluate(&args, &evaluator, &mut out, &progress, &selector, &mut chooser)?
    };
    progress.finish();
    chooser.warn_past_the_end("kifu eval");
    out.finish()?;
    Ok(status)
}

/// Whether the pattern evaluation covers the position (standard 8x8 Othello, either scoring).
fn standard(pos: &Position) -> bool {
    Solver::counting_for(pos).is_some() && pos.bitboards().is_some()
}

/// The static evaluation in discs: the pattern evaluation for standard Othello, the generic one
/// for other variants (held to +-64 discs); a finished game's final margin under its rules.
fn static_eval(evaluator: &Evaluator, pos: &Position) -> f64 {
    if pos.is_game_over() {
        return f64::from(pos.score().score(pos.side_to_move()));
    }
    let units = if standard(pos) {
        let (p, o) = view(pos);
        evaluator.value(p, o)
    } else {
        GenericEval::new(pos.rules()).evaluate(pos)
    };
    f64::from(units) / f64::from(SCALE)
}

/// The side to move's and the other side's discs.
fn view(pos: &Position) -> (u64, u64) {
    let [black, white] = pos.bitboards().expect("checked 8x8");
    if pos.side_to_move() == Color::Black { (black, white) } else { (white, black) }
}

/// How the selection judges a record (`None` when nothing is asked of it, or it does not read:
/// the command reports it then).
fn judge(selector: &Selector, source: &Source, raw: &RawRecord) -> Option<Pick> {
    if !selector.judging() {
        return None;
    }
    let (record, rules) = source.read(raw).ok()?;
    selector.pick_record(&record, &rules, source.format)
}

/// What a worker found of a record (how the selection judged it, and its result), or the
/// reader's error for a record it could not cut out.
type Judged<T> = Result<(Option<Pick>, Result<T, RecordError>), RecordError>;

/// A record's result when the chooser keeps the record (one the reader could not cut out is
/// not judged: kept unless `--games` leaves it out).
fn kept<T>(chooser: &mut Chooser, result: Judged<T>) -> Option<Result<T, RecordError>> {
    let (pick, result) = match result {
        Ok((pick, result)) => (pick, result),
        Err(e) => (None, Err(e)),
    };
    chooser.keep(pick).then_some(result)
}

fn evaluate(
    args: &Args,
    evaluator: &Evaluator,
    out: &mut Output,
    progress: &Progress,
    selector: &Selector,
    chooser: &mut Chooser,
) -> anyhow::Result<Status> {
    let (mut failed, mut short) = (0u64, 0u64);
    if args.format == Format::Csv {
        writeln!(out, "source,index,empties,side,eval")?;
    }
    let problems = records::for_each_to(
        &args.input,
        progress,
        out,
        |source, raw| {
            let pick = judge(selector, source, raw);
            if pick == Some(Pick::Refused) {
                return (pick, Ok(None));
            }
            (pick, evaluate_one(args, evaluator, progress, source, raw))
        },
        |out, _, result| {
            let Some(result) = kept(chooser, result) else { return Ok(()) };
            match result {
                Err(e) => {
                    progress.suspend(|| stderr!("{e}"));
                    failed += 1;
                }
                Ok(None) => short += 1,
                Ok(Some(row)) => write_row(out, args.format, &row, || {
                    let (source, index, empties, side, eval) =
                        (&row.source, row.index, row.empties, row.side, row.eval);
                    match row.turn {
                        Turn::Over => format!("{source}#{index}: {empties} empties, game over: {eval:+.2} for {side}"),
                        Turn::Pass => {
                            format!("{source}#{index}: {empties} empties, {side} to move (must pass): {eval:+.2}")
                        }
                        Turn::Moves => format!("{source}#{index}: {empties} empties, {side} to move: {eval:+.2}"),
                    }
                })?,
            }
            Ok(())
        },
    )?;
    let damaged = progress.suspend(|| problems.warn("kifu eval"));
    if let Some(cut) = Cut::from_args(args.ply, args.empties).filter(|_| short > 0 && !args.quiet) {
        stderr!("kifu eval: {}, left out", cut.missed_by(short));
    }
    Ok(if failed + damaged > 0 { Status::SomeInvalid } else { Status::Ok })
}

/// One record's row: its last position's evaluation, or the one `--ply`/`--empties` cuts at
/// (none when the game ends before).
fn evaluate_one(
    args: &Args,
    evaluator: &Evaluator,
    progress: &Progress,
    source: &Source,
    raw: &RawRecord,
) -> Result<Option<Row>, RecordError> {
    let pos = match Cut::from_args(args.ply, args.empties) {
        Some(cut) => match position_at(source, raw, cut)? {
            Some(pos) => pos,
            None => return Ok(None),
        },
        None => {
            let (pos, _, unstated) = source.end_position(raw)?;
            for warning in unstated.into_iter().chain(source.unreachable(raw, &pos)) {
                progress.suspend(|| stderr!("kifu eval: warning: {warning}"));
            }
            pos
        }
    };

    Ok(Some(Row {
        source: source.name.to_owned(),
        index: raw.index + 1,
        empties: pos.empties(),
        side: pos.side_to_move().name(),
        eval: static_eval(evaluator, &pos),
        turn: if pos.is_game_over() {
            Turn::Over
        } else if pos.legal_moves().contains(&crate::core::Move::Pass) {
            Turn::Pass
        } else {
            Turn::Moves
        },
    }))
}

/// Writes one row as CSV (no header), a JSON line or the given text.
fn write_row<T: Serialize>(out: &mut Output, format: Format, row: &T, text: impl Fn() -> String) -> anyhow::Result<()> {
    match format {
        Format::Csv => {
            let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
            w.serialize(row)?;
            out.write_all(&w.into_inner().map_err(|e| anyhow::Error::from(e.into_error()))?)?;
        }
        Format::Json => writeln!(out, "{}", serde_json::to_string(row)?)?,
        Format::Text => writeln!(out, "{}", text())?,
    }
    Ok(())
}

/// The exactly scored positions of a record (see the `--check` help).
fn labelled(source: &Source, raw: &RawRecord, args: &Args) -> Result<Vec<Sample>, RecordError> {
    let (record, _) = source.read(raw)?;
    if record.moves.is_empty() {
        let (pos, _, _) = source.end_position(raw)?;
        if !standard(&pos) {
            return Err(raw.error(source.name, Default::default(), "--check covers standard 8x8 Othello only"));
        }
        let (player, opponent) = view(&pos);
        let listed = record.tag("scores").and_then(|s| s.split(';').next()).and_then(|m| m.split(':').nth(1));
        let target = match listed {
            Some(score) => score
                .trim()
                .parse::<i8>()
                .map_err(|_| raw.error(source.name, Default::default(), format!("score `{score}` is not a margin")))?,
            None if pos.empties() <= args.exact_empties => {
                with_solver(args.hash_mb, |s| s.solve(&pos)).expect("checked standard 8x8").score as i8
            }
            None => return Ok(Vec::new()),
        };
        return Ok(vec![Sample { player, opponent, target }]);
    }
    match game_boards(source, raw)? {
        Some(boards) => {
            Ok(with_solver(args.hash_mb, |s| train::label_game(&boards, args.exact_empties, true, s).samples))
        }
        None => Err(raw.error(source.name, Default::default(), "--check covers standard 8x8 Othello only")),
    }
}

fn check(
    args: &Args,
    evaluator: &Evaluator,
    out: &mut Output,
    progress: &Progress,
    selector: &Selector,
    chooser: &mut Chooser,
) -> anyhow::Result<Status> {
    let mut failed = 0u64;
    let mut table = ErrorTable::default();
    let problems = records::for_each(
        &args.input,
        progress,
        |source, raw| {
            let pick = judge(selector, source, raw);
            if pick == Some(Pick::Refused) {
                return (pick, Ok(ErrorTable::default()));
            }
            (pick, labelled(source, raw, args).map(|samples| ErrorTable::of(evaluator, &samples)))
        },
        |_, result| {
            let Some(result) = kept(chooser, result) else { return Ok(()) };
            match result {
                Err(e) => {
                    progress.suspend(|| stderr!("{e}"));
                    failed += 1;
                }
                Ok(t) => table.merge(&t),
            }
            Ok(())
        },
    )?;
    let damaged = progress.suspend(|| problems.warn("kifu eval"));
    if args.format == Format::Csv {
        writeln!(out, "empties,positions,mean_abs_error,mean_error,zero_abs_error,target_sd,correlation")?;
    }
    if args.format == Format::Text {
        writeln!(out, "empties  positions  mean |error|  mean error  zero's |error|  target sd  correlation  (discs)")?;
    }
    for r in table.rows(args.bucket).into_iter().filter(|r| r.count > 0) {
        let empties = if (r.lo, r.hi) == (0, 60) { "all".to_owned() } else { format!("{}-{}", r.lo, r.hi) };
        let row = CheckRow {
            empties,
            positions: r.count,
            mean_abs_error: r.mean_abs,
            mean_error: r.mean,
            zero_abs_error: r.zero_abs,
            target_sd: r.target_sd,
            correlation: r.correlation,
        };
        write_row(out, args.format, &row, || {
            format!(
                "{:>7}  {:>9}  {:>12.2}  {:>+10.2}  {:>14.2}  {:>9.2}  {:>11}",
                row.empties,
                row.positions,
                row.mean_abs_error,
                row.mean_error,
                row.zero_abs_error,
                row.target_sd,
                row.correlation.map_or_else(|| "-".to_owned(), |c| format!("{c:.2}"))
            )
        })?;
    }
    Ok(if failed + damaged > 0 { Status::SomeInvalid } else { Status::Ok })
}
