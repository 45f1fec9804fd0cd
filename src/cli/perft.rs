//! `kifu perft`: counts the leaves of the game tree from the start position.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use serde::Serialize;

use super::{Format, Output, Status};
use crate::core::Rules;
use crate::core::perft::{self, PassCount};
use crate::core::{Move, Position};

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
    /// Check a suite file of expected counts instead (`rules SPEC`, `passes ply|free` and
    /// `perft DEPTH COUNT` lines; see samples/perft.txt; `-` is stdin). Exit 1 if any count differs.
    #[arg(long, conflicts_with_all = ["depth", "divide", "all", "rules", "passes"])]
    pub suite: Option<PathBuf>,
    /// With --suite: skip lines deeper than this (default 12).
    #[arg(long, requires = "suite")]
    pub max_depth: Option<u32>,
    /// The rules: PRESET[,key=value...] (see `kifu rules`).
    #[arg(long, short, default_value = "othello", value_parser = super::parse_rules)]
    pub rules: Rules,
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
    /// Output format.
    #[arg(long, short, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Write here instead of stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// No summary of a `--suite` run on stderr (its rows still say which positions mismatched).
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

#[derive(Serialize)]
struct Row {
    depth: u32,
    #[serde(rename = "move")]
    first_move: Option<String>,
    leaves: u64,
    seconds: f64,
}

/// Runs `kifu perft`.
pub fn run(args: Args) -> anyhow::Result<Status> {
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
    let rules = args.rules.shared();
    let start = Position::start(rules.clone());
    let mut out = Output::open(args.output.as_deref())?;
    let mut csv = (args.format == Format::Csv).then(|| csv::Writer::from_writer(Vec::new()));
    let depths = if args.all { 1..=target } else { target..=target };
    for depth in depths {
        let mut rows = Vec::new();
        let clock = Instant::now();
        let total = if args.divide {
            // Each first move timed on its own (with every thread on it).
            let split: Vec<(Move, u64, f64)> = pool.install(|| {
                perft::children(&start, depth, passes)
                    .into_iter()
                    .map(|(mv, child, d)| {
                        let clock = Instant::now();
                        let leaves = count(&child, d, passes, threads);
                        (mv, leaves, clock.elapsed().as_secs_f64())
                    })
                    .collect()
            });
            for &(mv, leaves, seconds) in &split {
                rows.push(Row { depth, first_move: Some(rules.move_name(mv)), leaves, seconds });
            }
            if split.is_empty() { 1 } else { split.iter().map(|s| s.1).sum() }
        } else {
            pool.install(|| count(&start, depth, passes, threads))
        };
        let seconds = clock.elapsed().as_secs_f64();
        rows.push(Row { depth, first_move: None, leaves: total, seconds });
        for row in rows {
            match args.format {
                Format::Text => match &row.first_move {
                    Some(mv) => writeln!(out, "{mv} {}", row.leaves)?,
                    None => writeln!(
                        out,
                        "perft {depth} = {}  ({:.3} s, {:.1} M leaves/s)",
                        row.leaves,
                        seconds,
                        row.leaves as f64 / seconds.max(1e-9) / 1e6
                    )?,
                },
                Format::Csv => csv
                    .as_mut()
                    .expect("csv writer")
                    .serialize(Row { seconds: super::row_seconds(row.seconds), ..row })?,
                Format::Json => {
                    serde_json::to_writer(&mut out, &Row { seconds: super::row_seconds(row.seconds), ..row })?;
                    writeln!(out)?;
                }
            }
        }
    }
    if let Some(csv) = csv {
        out.write_all(&csv.into_inner().context("writing CSV")?)?;
    }
    out.finish()?;
    Ok(Status::Ok)
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
    let mut passes = PassCount::Ply;
    let mut rows = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        let at = || format!("{}:{}", path.display(), i + 1);
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [] => {}
            ["rules", spec] => rules = spec.parse::<Rules>().with_context(|| format!("{}: bad rules", at()))?.shared(),
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
                };
                if depth <= args.max_depth.unwrap_or(DEFAULT_MAX_DEPTH) {
                    let clock = Instant::now();
                    let leaves = count(&Position::start(rules.clone()), depth, passes, threads);
                    // (Rounded as every command's seconds are: never in exponent form.)
                    row.seconds = super::row_seconds(clock.elapsed().as_secs_f64());
                    row.leaves = Some(leaves);
                    row.status = if leaves == expected { "ok" } else { "mismatch" };
                }
                rows.push(row);
            }
            _ => anyhow::bail!(
                "{}: expected `rules SPEC`, `passes ply|free` or `perft DEPTH COUNT`, found `{line}`",
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
                        "{:<8} {:<34} {:<4} perft {:>2} = {leaves}{tail}  ({:.3} s)",
                        r.status, r.rules, r.passes, r.depth, r.seconds
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
