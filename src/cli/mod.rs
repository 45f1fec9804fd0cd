//! The `kifu` command line: one module per subcommand, each with its clap `Args` and a `run`.
//!
//! Conventions shared by every subcommand: inputs are paths or `-` (stdin); `-o/--output`
//! defaults to stdout and a file is written atomically; `--format text|csv|json` (json = JSON
//! Lines; `show` draws `text|svg`); exit 0 when all is good, 1 when some records are invalid, 2
//! for usage or I/O errors.

/// `eprintln!` that ignores a closed or failing stderr: a diagnostic never aborts a run (and
/// `kifu ... 2>&1 | head` never panics).
macro_rules! stderr {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod annotate;
mod completions;
mod convert;
mod engine_args;
mod eval;
mod export;
mod merge;
mod output;
mod perft;
mod play;
mod progress;
mod puzzles;
mod records;
mod rules;
mod select;
mod show;
mod solve;
mod stats;
mod train;
mod validate;

use clap::{Parser, Subcommand, ValueEnum};

pub use output::{INTERRUPTED, Output};

/// kifu: read, check, analyse and draw Reversi/Othello game records.
#[derive(Parser, Debug)]
#[command(name = "kifu", version, about, long_about = None, propagate_version = true, after_help = "\
Exit status: 0 all good; 1 some records invalid (or a check found a difference); 2 a usage or I/O error; 130 \
interrupted. A closed output pipe (kifu ... | head) is not an error.
Environment: NO_COLOR (or TERM=dumb) turns off kifu show's colours unless --color always; RAYON_NUM_THREADS sets the worker \
threads of every command that takes --threads when it is not given (else every core).
Manual pages: kifu man COMMAND, or kifu man --dir DIR for every page. Documentation: README.md and docs/.")]
pub struct Cli {
    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count the leaves of the game tree from the start position (move-generator check).
    Perft(perft::Args),
    /// Convert game records between formats (transcript, kifu, board, obf, ggf, wthor, sgf, pgn,
    /// oq, playok, logbook, json).
    Convert(convert::Args),
    /// Replay every record: the first illegal move and why, stored results checked, the likely
    /// intended move suggested.
    Validate(validate::Args),
    /// Every game, move or position as CSV or JSON Lines rows.
    Export(export::Args),
    /// Statistics: totals, results, lengths, named openings (merged under symmetry), players,
    /// tournaments (and their standings), years, duplicate games and an opening book.
    Stats(stats::Args),
    /// The exact result of positions: best move, score, principal variation (any variant).
    Solve(solve::Args),
    /// For every move of every game: the best move, both values, the discs lost and a mark;
    /// per-game and per-player summaries (any variant).
    Annotate(annotate::Args),
    /// Positions from games to set as puzzles, solved exactly: one move alone wins (or saves the
    /// draw), or the move played lost many discs (any variant).
    Puzzles(puzzles::Args),
    /// Join the outputs of `kifu annotate --shard K/N` runs into the output of one run.
    Merge(merge::Args),
    /// The static evaluation of positions (expected final margin), or its errors against exact
    /// scores with --check (standard 8x8 for --check).
    Eval(eval::Args),
    /// Draw a position (discs, last move, legal moves, scores with --annotate) or a whole game
    /// as a kifu (move numbers on the squares), as text or SVG.
    Show(show::Args),
    /// Games kifu plays against itself, from openings or the start position (random moves first
    /// if asked), in any game format: test sets and training data.
    Play(play::Args),
    /// Fit the evaluation's weights to game records labelled by the exact solver.
    Train(train::Args),
    /// List the rules presets and keys, or show the rules a spec resolves to.
    Rules(rules::Args),
    /// Print a shell completion script.
    Completions(completions::CompletionArgs),
    /// Print the man page (roff).
    Man(completions::ManArgs),
}

/// How a run ended, as the process exit code.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Status {
    /// Everything was good (exit 0).
    Ok,
    /// Some records were invalid (exit 1).
    SomeInvalid,
    /// A usage or I/O error (exit 2).
    Error,
}

impl Status {
    /// The process exit code.
    #[must_use]
    pub fn code(self) -> u8 {
        match self {
            Status::Ok => 0,
            Status::SomeInvalid => 1,
            Status::Error => 2,
        }
    }
}

/// Output formats shared by the subcommands.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, ValueEnum)]
pub enum Format {
    /// Human-readable text.
    #[default]
    Text,
    /// CSV with a header row.
    Csv,
    /// JSON Lines: one object per line.
    Json,
}

/// `--format` as given, else the format an output file's name ends in, when the command writes
/// it (`-o moves.csv`: csv; `.json`, `.jsonl`, `.ndjson`: json; `.txt`: text; `.pgn`, `.ggf`,
/// `.obf` where the command writes those), else `default`.
pub(crate) fn format_for<T: clap::ValueEnum>(given: Option<T>, output: Option<&std::path::Path>, default: T) -> T {
    if let Some(given) = given {
        return given;
    }
    let named = output.and_then(|path| {
        let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
        // (`rows.csv.gz` is csv, gzipped.)
        let name = name.strip_suffix(".gz").unwrap_or(&name);
        let extension = match name.rsplit_once('.')?.1 {
            "jsonl" | "ndjson" => "json",
            "txt" => "text",
            other => other,
        };
        T::from_str(extension, true).ok()
    });
    named.unwrap_or(default)
}

/// The record format a file's name says (`games.pgn`, `out.json`, `games.txt` for
/// transcripts; a `.gz` after it), for `-o` without `--to`.
pub(crate) fn record_format_named(path: &std::path::Path) -> Option<crate::notation::format::Format> {
    use crate::notation::format::{Format, by_extension};
    let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    by_extension(name).or_else(|| match name.rsplit_once('.')?.1 {
        "json" | "ndjson" => Some(Format::Json),
        "txt" => Some(Format::Transcript),
        _ => None,
    })
}

/// `--threads`: the worker threads of a command that handles records in parallel.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct ThreadsArgs {
    /// Worker threads (default: every core). The output is the same for any number.
    #[arg(long, short = 'j', value_name = "N", value_parser = parse_threads)]
    pub threads: Option<usize>,
}

impl ThreadsArgs {
    /// Sizes the worker pool the record loops run on: `--threads` when given, else rayon's
    /// default (`RAYON_NUM_THREADS`, else every core). The pool is made once per process.
    pub fn apply(self) -> anyhow::Result<()> {
        // `RAYON_NUM_THREADS` (which rayon reads itself) is held to the same bound as `--threads`.
        let from_env = std::env::var("RAYON_NUM_THREADS").ok().and_then(|n| n.trim().parse::<usize>().ok());
        let n = match self.threads {
            Some(n) => n,
            None if from_env.is_some_and(|n| n > most_threads()) => most_threads(),
            None => return Ok(()),
        };
        rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build_global()
            .map_err(|e| anyhow::anyhow!("cannot start {n} worker threads: {e}"))
    }
}

/// The threads a command that sizes its own pool uses: `--threads` when given, else
/// `RAYON_NUM_THREADS` (a number from 1), else every core.
#[must_use]
pub fn worker_threads(threads: Option<usize>) -> usize {
    threads
        .or_else(|| std::env::var("RAYON_NUM_THREADS").ok()?.trim().parse().ok().filter(|&n| n > 0))
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
        .clamp(1, most_threads())
}

/// The most threads a command takes: more than cores only share them (and each search thread
/// has its tables), so four per core, and 64 on any machine, are plenty.
#[must_use]
pub fn most_threads() -> usize {
    (4 * std::thread::available_parallelism().map_or(1, usize::from)).max(64)
}

/// Runs a parsed command line.
pub fn run(mut cli: Cli) -> anyhow::Result<Status> {
    output::handle_interrupts();
    let input = match &mut cli.command {
        Command::Convert(args) => Some(&mut args.input),
        Command::Validate(args) => Some(&mut args.input),
        Command::Export(args) => Some(&mut args.input),
        Command::Solve(args) => Some(&mut args.input),
        Command::Stats(args) => Some(&mut args.input),
        Command::Annotate(args) => Some(&mut args.input),
        Command::Puzzles(args) => Some(&mut args.input),
        Command::Eval(args) => Some(&mut args.input),
        Command::Play(args) => Some(&mut args.input),
        Command::Train(args) => Some(&mut args.input),
        Command::Show(args) => Some(&mut args.input),
        _ => None,
    };
    if let Some(input) = input {
        input.expand_folders()?;
    }
    match cli.command {
        Command::Perft(args) => perft::run(args),
        Command::Rules(args) => rules::run(args),
        Command::Convert(args) => convert::run(args),
        Command::Validate(args) => validate::run(args),
        Command::Export(args) => export::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Stats(args) => stats::run(args),
        Command::Annotate(args) => annotate::run(args),
        Command::Puzzles(args) => puzzles::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Eval(args) => eval::run(args),
        Command::Play(args) => play::run(args),
        Command::Train(args) => train::run(args),
        Command::Show(args) => show::run(args),
        Command::Completions(args) => completions::run_completions(args),
        Command::Man(args) => completions::run_man(args),
    }
}

/// `n` and the noun for it, singular for one (`1 game`, `3 games`), for the summaries.
#[must_use]
pub fn counted(n: u64, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

/// A `--threads` value: a whole number of at least 1 (leaving the option out takes every core).
pub fn parse_threads(text: &str) -> Result<usize, String> {
    let most = most_threads();
    match text.trim().parse::<usize>() {
        Ok(0) => Err("at least 1 thread (leave -j out to use every core)".into()),
        Ok(n) if n > most => Err(format!("at most {most} threads on this machine (four per core, at least 64)")),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("`{text}` is not a number of threads")),
    }
}

/// A `--time` value: seconds, from 0 to a billion (about 31 years); not a number, an infinity
/// or a negative is a usage error (a duration cannot hold them).
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if (0.0..=1e9).contains(&s) => Ok(s),
        _ => Err(format!("`{text}` is not a number of seconds from 0 to 1e9")),
    }
}

/// A `--hash-mb` value: at least 1, and no more than the machine's memory (a table that large
/// cannot be allocated, and the failure would abort the run without naming the option).
pub fn parse_hash_mb(text: &str) -> Result<usize, String> {
    let mib: usize = text.trim().parse().map_err(|_| format!("`{text}` is not a number of MiB"))?;
    if mib == 0 {
        return Err("the table needs at least 1 MiB".into());
    }
    match physical_mib() {
        Some(total) if mib > total => Err(format!("{mib} MiB is more than this machine's memory ({total} MiB)")),
        _ => Ok(mib),
    }
}

/// `--empties N` where one position is taken from each game (convert, eval, show, solve): a
/// single count, with a pointer to `kifu puzzles` for a range.
pub fn parse_empty_count(text: &str) -> Result<u32, String> {
    text.trim().parse().map_err(|_| {
        if text.trim().get(1..).is_some_and(|rest| rest.contains('-')) {
            format!("`{text}`: one count of empty squares here, the position taken from each game (`kifu puzzles --empties 10-16` looks at a range)")
        } else {
            format!("`{text}` is not a count of empty squares")
        }
    })
}

/// The machine's memory in MiB, where the system says.
fn physical_mib() -> Option<usize> {
    #[cfg(unix)]
    {
        // SAFETY: sysconf reads system values and has no preconditions.
        let (pages, page) = unsafe { (libc::sysconf(libc::_SC_PHYS_PAGES), libc::sysconf(libc::_SC_PAGESIZE)) };
        let bytes = u128::try_from(pages).ok()? * u128::try_from(page).ok()?;
        usize::try_from(bytes >> 20).ok().filter(|&m| m > 0)
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Seconds for a csv or json row: to a tenth of a millisecond, so that they are written as
/// decimals (`0.0003`), never in exponent form (`3.1e-6`), which some tools do not read; 0 for
/// a row with no timing of its own.
#[must_use]
pub fn row_seconds(seconds: f64) -> f64 {
    if seconds.is_finite() { (seconds * 1e4).round() / 1e4 } else { 0.0 }
}

/// Whether an error is a closed pipe on output (`kifu ... | head`), which is not a failure.
#[must_use]
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    let broken = |io: &std::io::Error| io.kind() == std::io::ErrorKind::BrokenPipe;
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>().is_some_and(broken)
            // The csv writer wraps the error of the output it writes to.
            || e.downcast_ref::<csv::Error>().is_some_and(|c| matches!(c.kind(), csv::ErrorKind::Io(io) if broken(io)))
    })
}

/// Parses a `--rules` spec for clap.
pub fn parse_rules(spec: &str) -> Result<crate::core::Rules, String> {
    spec.parse().map_err(|e: crate::core::RulesError| e.to_string())
}
