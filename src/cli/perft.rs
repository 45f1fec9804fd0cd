//! `kifu perft`: counts the leaves of the game tree from the start position, or from the
//! positions of records.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use serde::Serialize;

use super::progress::Progress;
use super::records::{self, DigitsArg, InputArgs, Source};
use super::{Format, Output, Status};
use crate::core::Position;
use crate::core::Rules;
use crate::core::perft::{self, PassCount};
use crate::notation::format::Format as RecordFormat;
use crate::notation::reader::{RawRecord, RecordError};

/// The deepest suite line checked unless `--max-depth` says otherwise.
const DEFAULT_MAX_DEPTH: u32 = 12;

/// Arguments of `kifu perft`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Standard counts (a pass uses a ply): 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, \
24571284, 212258800, 1939886636, 18429641748, 184042084512.")]
pub struct Args {
    /// Plies to count.
    #[arg(value_parser = clap::value_parser!(u32).range(0..=80), required_unless_present = "suite")]
    pub depth: Option<u32>,
    /// Count from the last position of each record of these files (board strings, OBF lines,
    /// diagrams, games: any format kifu reads; `-` is stdin) instead of the rules' start.
    pub inputs: Vec<PathBuf>,
    /// The inputs' format (default: recognised from each file's name and first bytes).
    #[arg(long, requires = "inputs", value_parser = records::FormatParser::ANY)]
    pub from: Option<RecordFormat>,
    /// Check a suite file of expected counts instead (`rules SPEC`, `position BOARD`,
    /// `passes ply|free` and `perft DEPTH COUNT` lines; see samples/perft.txt; `-` is stdin).
    /// Exit 1 if any count differs.
    #[arg(long, conflicts_with_all = ["depth", "divide", "all", "rules", "passes", "inputs"])]
    pub suite: Option<PathBuf>,
    /// With --suite: skip lines deeper than this (default 12).
    #[arg(long, requires = "suite")]
    pub max_depth: Option<u32>,
    /// The rules: PRESET[,key=value...] (see `kifu rules`; default: standard Othello, or with
    /// inputs each record's own).
    #[arg(long, short, value_parser = super::parse_rules)]
    pub rules: Option<Rules>,
    /// How a forced pass counts: `ply` (a pass uses a ply, as in the published counts) or
    /// `free` (the other side moves at the same depth).
    #[arg(long, value_enum, default_value_t = PassArg::Ply)]
    pub passes: PassArg,
    /// Also print the count below each first move.
    #[arg(long)]
    pub divide: bool,
    /// Print every depth from 1 up to DEPTH.
    #[arg(long)]
    pub all: bool,
    /// Worker threads (default: `RAYON_NUM_THREADS`, else every core).
    #[arg(long, short = 'j', value_parser = super::parse_threads)]
    pub threads: Option<usize>,
    /// Output format. [default: text, or what -o's name ends in]
    #[arg(long = "format", short = 'f', value_enum, value_name = "FORMAT")]
    pub format_given: Option<Format>,
    /// The output format: `--format`, else what `-o`'s name ends in, else text.
    #[arg(skip)]
    pub format: Format,
    /// Write here instead of stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// No summary of a `--suite` run on stderr (its rows still say which positions mismatched),
    /// and no progress bar over inputs.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `--passes` values.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum PassArg {
    /// A pass uses a ply.
    Ply,
    /// A forced pass uses no ply.
    Free,
}

/// One count; the field order is the documented column order (`source` and `index` only for
/// the positions of inputs).
#[derive(Serialize)]
struct Row {
    #[serde(skip_serializing_if = "Option::is_none")]
    source: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    index: Option<usize>,
    depth: u32,
    #[serde(rename = "move")]
    first_move: Option<String>,
    leaves: u64,
    seconds: f64,
}

/// Runs `kifu perft`.
pub fn run(mut args: Args) -> anyhow::Result<Status> {
    args.format = super::format_for(args.format_given, args.output.as_deref(), Format::Text);
    // (clap lets it through beside a DEPTH.)
    if args.max_depth.is_some() && args.suite.is_none() {
        anyhow::bail!("--max-depth skips the lines of a --suite file deeper than it: give --suite FILE");
    }
    let passes = match args.passes {
        PassArg::Ply => PassCount::Ply,
        PassArg::Free => PassCount::Free,
    };
    let threads = super::worker_threads(args.threads);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().context("starting worker threads")?;
    if let Some(path) = &args.suite {
        return pool.install(|| run_suite(path, &args, threads));
    }
    let target = args.depth.expect("clap requires a depth without --suite");
    let mut out = Output::open(args.output.as_deref())?;
    let mut counter = Counter { format: args.format, csv: (args.format == Format::Csv).then(Vec::new) };
    let depths = if args.all { 1..=target } else { target..=target };
    let status = if args.inputs.is_empty() {
        let start = Position::start(args.rules.clone().unwrap_or_else(Rules::othello).shared());
        for depth in depths {
            let rows = pool.install(|| count_rows(&start, depth, passes, args.divide, threads));
            counter.write(&mut out, &rows, None)?;
        }
        Status::Ok
    } else {
        pool.install(|| count_inputs(&args, depths, passes, threads, &mut counter, &mut out))?
    };
    if let Some(csv) = counter.csv {
        if csv.is_empty() {
            // No record counted: the header alone (the writer takes it from a first row).
            writeln!(out, "source,index,depth,move,leaves,seconds")?;
        }
        let mut w = csv::Writer::from_writer(Vec::new());
        for row in csv {
            w.serialize(row)?;
        }
        out.write_all(&w.into_inner().context("writing CSV")?)?;
    }
    out.finish()?;
    Ok(status)
}

/// Counts from the last position of every record of the inputs: a record that does not read is
/// reported and the others are still counted (exit 1).
fn count_inputs(
    args: &Args,
    depths: std::ops::RangeInclusive<u32>,
    passes: PassCount,
    threads: usize,
    counter: &mut Counter,
    out: &mut Output,
) -> anyhow::Result<Status> {
    let input = InputArgs {
        inputs: args.inputs.clone(),
        from: args.from,
        rules: args.rules.clone(),
        encoding: None,
        digits: DigitsArg::D01,
        players: None,
        tournaments: None,
        names_unused: true,
        records_wanted: None,
    };
    input.check(args.output.as_deref())?;
    let progress = Progress::new(args.quiet, "counting");
    let mut failed = 0u64;
    // One record at a time, each count on every thread.
    let problems = records::for_each_in_batches(
        &input,
        &progress,
        1,
        |source: &Source, raw: &RawRecord| -> Result<(String, Vec<Vec<Row>>), RecordError> {
            let (pos, _, unstated) = source.end_position(raw)?;
            if let Some(warning) = unstated {
                progress.suspend(|| stderr!("kifu perft: warning: {warning}"));
            }
            let label = format!("{}#{}", source.name, raw.index + 1);
            let rows = depths
                .clone()
                .map(|depth| {
                    let mut rows = count_rows(&pos, depth, passes, args.divide, threads);
                    for row in &mut rows {
                        (row.source, row.index) = (Some(source.name.to_owned()), Some(raw.index + 1));
                    }
                    rows
                })
                .collect();
            Ok((label, rows))
        },
        |_, result| {
            match result.and_then(|r| r) {
                Ok((label, rows)) => {
                    for rows in &rows {
                        progress.suspend(|| counter.write(out, rows, Some(&label)))?;
                    }
                    out.flush()?;
                }
                Err(e) => {
                    progress.suspend(|| stderr!("{e}"));
                    failed += 1;
                }
            }
            Ok(())
        },
    )?;
    progress.finish();
    let damaged = problems.warn("kifu perft");
    Ok(if failed + damaged > 0 { Status::SomeInvalid } else { Status::Ok })
}

/// The rows of one position at one depth: with `divide` one per first move (each timed on its
/// own, with every thread on it), then the total.
fn count_rows(pos: &Position, depth: u32, passes: PassCount, divide: bool, threads: usize) -> Vec<Row> {
    let mut rows = Vec::new();
    let clock = Instant::now();
    let total = if divide {
        let mut total = 0;
        let children = perft::children(pos, depth, passes);
        let none = children.is_empty();
        for (mv, child, d) in children {
            let clock = Instant::now();
            let leaves = count(&child, d, passes, threads);
            total += leaves;
            let first_move = Some(pos.rules().move_name(mv));
            let seconds = clock.elapsed().as_secs_f64();
            rows.push(Row { source: None, index: None, depth, first_move, leaves, seconds });
        }
        if none { count(pos, depth, passes, threads) } else { total }
    } else {
        count(pos, depth, passes, threads)
    };
    let seconds = clock.elapsed().as_secs_f64();
    rows.push(Row { source: None, index: None, depth, first_move: None, leaves: total, seconds });
    rows
}

/// Writes counts as text or JSON lines at once, and keeps CSV rows for the end.
struct Counter {
    format: Format,
    csv: Option<Vec<Row>>,
}

impl Counter {
    /// Writes one depth's rows (`label` names the position counted from an input).
    fn write(&mut self, out: &mut Output, rows: &[Row], label: Option<&str>) -> anyhow::Result<()> {
        for row in rows {
            let rounded = Row {
                source: row.source.clone(),
                index: row.index,
                first_move: row.first_move.clone(),
                seconds: super::row_seconds(row.seconds),
                ..*row
            };
            match self.format {
                Format::Text => match &row.first_move {
                    Some(mv) => {
                        writeln!(out, "{}{mv} {}", label.map(|l| format!("{l}: ")).unwrap_or_default(), row.leaves)?
                    }
                    None => writeln!(
                        out,
                        "{}perft {} = {}  ({:.3} s, {:.1} M leaves/s)",
                        label.map(|l| format!("{l}: ")).unwrap_or_default(),
                        row.depth,
                        row.leaves,
                        row.seconds,
                        row.leaves as f64 / row.seconds.max(1e-9) / 1e6
                    )?,
                },
                Format::Csv => self.csv.as_mut().expect("csv rows").push(rounded),
                Format::Json => {
                    serde_json::to_writer(&mut *out, &rounded)?;
                    writeln!(out)?;
                }
            }
        }
        Ok(())
    }
}

fn count(pos: &Position, depth: u32, passes: PassCount, threads: usize) -> u64 {
    if threads > 1 { perft::perft_parallel(pos, depth, passes) } else { perft::perft(pos, depth, passes) }
}

/// One expected count of a suite file.
#[derive(Serialize)]
struct SuiteRow {
    line: usize,
    rules: String,
    passes: &'static str,
    depth: u32,
    expected: u64,
    leaves: Option<u64>,
    status: &'static str,
    seconds: f64,
    /// The board string of a `position` line counted from (empty: the rules' start).
    position: String,
}

/// Checks every `perft` line of a suite file up to `--max-depth`.
fn run_suite(path: &std::path::Path, args: &Args, threads: usize) -> anyhow::Result<Status> {
    // `-` is stdin, as for every input.
    let text = if path.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin()).context("cannot read stdin")?
    } else {
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?
    };
    let mut rules = Rules::othello().shared();
    // The position counted from, and its board string when a `position` line gave it.
    let mut start = (Position::start(rules.clone()), String::new());
    let mut passes = PassCount::Ply;
    let mut rows = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        let at = || format!("{}:{}", path.display(), i + 1);
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [] => {}
            ["rules", spec] => {
                rules = spec.parse::<Rules>().with_context(|| format!("{}: bad rules", at()))?.shared();
                start = (Position::start(rules.clone()), String::new());
            }
            ["position", ..] => {
                let board = line["position".len()..].trim();
                let record = crate::notation::board::parse(board, crate::notation::board::Digits::BlackWhite)
                    .map_err(|e| anyhow::anyhow!("{}: `{board}` is not a board: {}", at(), e.message))?;
                if !record.moves.is_empty() || record.start.is_none() {
                    anyhow::bail!("{}: `{board}` is not a board (a board string with its side to move)", at());
                }
                let resolved = record
                    .resolve(rules.clone())
                    .map_err(|e| anyhow::anyhow!("{}: `{board}` under {rules}: {}", at(), e.message))?;
                start = (resolved.end, board.to_owned());
            }
            ["passes", "ply"] => passes = PassCount::Ply,
            ["passes", "free"] => passes = PassCount::Free,
            ["perft", depth, expected] => {
                let depth: u32 = depth.parse().with_context(|| format!("{}: bad depth `{depth}`", at()))?;
                let expected: u64 = expected.parse().with_context(|| format!("{}: bad count `{expected}`", at()))?;
                let mut row = SuiteRow {
                    line: i + 1,
                    rules: rules.to_string(),
                    passes: if passes == PassCount::Ply { "ply" } else { "free" },
                    depth,
                    expected,
                    leaves: None,
                    status: "skipped",
                    seconds: 0.0,
                    position: start.1.clone(),
                };
                if depth <= args.max_depth.unwrap_or(DEFAULT_MAX_DEPTH) {
                    let clock = Instant::now();
                    let leaves = count(&start.0, depth, passes, threads);
                    // (Rounded as every command's seconds are: never in exponent form.)
                    row.seconds = super::row_seconds(clock.elapsed().as_secs_f64());
                    row.leaves = Some(leaves);
                    row.status = if leaves == expected { "ok" } else { "mismatch" };
                }
                rows.push(row);
            }
            _ => anyhow::bail!(
                "{}: expected `rules SPEC`, `position BOARD`, `passes ply|free` or `perft DEPTH COUNT`, found `{line}`",
                at()
            ),
        }
    }
    if rows.is_empty() {
        // Nothing checked is no pass: most likely the wrong file.
        anyhow::bail!("{}: no `perft DEPTH COUNT` line to check", path.display());
    }
    let mut out = Output::open(args.output.as_deref())?;
    match args.format {
        Format::Text => {
            for r in &rows {
                if let Some(leaves) = r.leaves {
                    let tail = if r.status == "ok" { String::new() } else { format!("  expected {}", r.expected) };
                    writeln!(
                        out,
                        "{:<8} {:<34} {:<4} perft {:>2} = {leaves}{tail}  ({:.3} s){}",
                        r.status,
                        r.rules,
                        r.passes,
                        r.depth,
                        r.seconds,
                        if r.position.is_empty() { String::new() } else { format!("  from {}", r.position) }
                    )?;
                }
            }
        }
        Format::Csv => {
            let mut w = csv::Writer::from_writer(Vec::new());
            for r in &rows {
                w.serialize(r)?;
            }
            out.write_all(&w.into_inner().context("writing CSV")?)?;
        }
        Format::Json => {
            for r in &rows {
                serde_json::to_writer(&mut out, r)?;
                writeln!(out)?;
            }
        }
    }
    out.finish()?;
    let bad = rows.iter().filter(|r| r.status == "mismatch").count();
    let ok = rows.iter().filter(|r| r.status == "ok").count();
    let skipped = rows.len() - ok - bad;
    if !args.quiet {
        stderr!(
            "{ok} ok, {bad} mismatched, {skipped} skipped (deeper than --max-depth {})",
            args.max_depth.unwrap_or(DEFAULT_MAX_DEPTH)
        );
    }
    Ok(if bad == 0 { Status::Ok } else { Status::SomeInvalid })
}
