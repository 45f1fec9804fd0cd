//! `kifu annotate`: for every move of every game, the best move, both values, the discs lost
//! and a mark; per-game and per-player summaries; whole databases in parallel, resumable and
//! shardable.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Seek, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::{Deserialize, Serialize};

use super::Status;
use super::convert::LostRules;
use super::engine_args::{Engine, EngineArgs};
use super::records::{self, InputArgs, Source, Unread};
use super::select::{Pick, SelectArgs, Selector};
use crate::core::{Color, Passes, Position};
use crate::engine::analysis::{self, Ply, Settings, SolverAnalyst, Summary, Tally, Thresholds};
use crate::engine::generic::{GenericAnalyst, GenericSearcher};
use crate::engine::solve::{Solver, SolverSet};
use crate::notation::check;
use crate::notation::format::{self, Format};
use crate::notation::reader::{RawRecord, RecordError};
use crate::notation::{MoveToken, Record, Resolved, shape};

/// Arguments of `kifu annotate`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Values are final disc margins from the mover's side (empties to the winner). Positions \
with at most --exact-empties empty squares are solved exactly; earlier ones are searched --depth moves ahead \
on the evaluation. Columns and marks: docs/annotate.md. Games of other variants are searched by the generic engine \
under their own scoring, without selective pruning.")]
pub struct Args {
    /// What to read.
    #[command(flatten)]
    pub input: InputArgs,
    /// How positions are searched.
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Losses (discs) from which a move is marked `?!`, `?` and `??`: three values, as
    /// `--marks 2,6,12` (one argument, so that a file name after it stays a file name).
    #[arg(long, value_delimiter = ',', num_args = 1, default_value = "2,6,12")]
    pub marks: Vec<i32>,
    /// Games annotated at once (default: `RAYON_NUM_THREADS`, else every core); each has its own search and table.
    #[arg(long, short = 'j', value_parser = super::parse_threads)]
    pub threads: Option<usize>,
    /// Transposition table per thread, in MiB (larger ones changed few of a game's values,
    /// and cost time to clear for each game).
    #[arg(long, default_value_t = 32, value_parser = super::parse_hash_mb)]
    pub hash_mb: usize,
    /// Output format: a table per game, CSV, JSON Lines, or the games with their annotations
    /// as GGF (values in the moves) or PGN-like (comments). [default: text, or what -o's name ends in]
    #[arg(long = "format", short = 'f', value_enum, value_name = "FORMAT")]
    pub format_given: Option<OutFormat>,
    /// The output format: `--format`, else what `-o`'s name ends in, else text.
    #[arg(skip)]
    pub format: OutFormat,
    /// The rows of csv and json: one per ply (the default), per game, or per player.
    #[arg(long, short, value_enum)]
    pub table: Option<Table>,
    /// Write here instead of stdout (written as it goes to OUT.partial, renamed when done).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Go on with an interrupted run to the same -o file: the games already written are kept.
    #[arg(long, requires = "output")]
    pub resume: bool,
    /// Annotate only share K of N (1-based): the K-th of N equal runs of consecutive games.
    /// `kifu merge` joins the shards' outputs.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<(u64, u64)>,
    /// No progress bar and no summary.
    #[arg(long, short)]
    pub quiet: bool,
    /// Which records.
    #[command(flatten)]
    pub select: SelectArgs,
}

/// `--format` values of `kifu annotate`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, clap::ValueEnum)]
pub enum OutFormat {
    /// A table per game and a table of players.
    #[default]
    Text,
    /// CSV with a header row.
    Csv,
    /// JSON Lines.
    Json,
    /// GGF games, each move's value in its evaluation field and the rest in comments.
    Ggf,
    /// PGN-like games with a comment after each move.
    Pgn,
}

impl OutFormat {
    /// The record format the games are written in (`ggf` and `pgn`); `None` for the tables.
    fn records(self) -> Option<Format> {
        match self {
            OutFormat::Ggf => Some(Format::Ggf),
            OutFormat::Pgn => Some(Format::Pgn),
            OutFormat::Text | OutFormat::Csv | OutFormat::Json => None,
        }
    }
}

/// `--table` values.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum Table {
    /// One row per ply.
    Plies,
    /// One row per game: each side's figures.
    Games,
    /// One row per player over all the games.
    Players,
}

fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let (k, n) = s.split_once('/').ok_or("a shard is K/N, like 2/8")?;
    let (k, n): (u64, u64) = (k.parse().map_err(|_| "K is a number")?, n.parse().map_err(|_| "N is a number")?);
    if n == 0 || k == 0 || k > n {
        return Err(format!("shard {k}/{n}: K must be from 1 to N"));
    }
    Ok((k, n))
}

/// One ply row; the field order is the documented column order.
#[derive(Serialize, Debug)]
struct PlyRow<'a> {
    source: &'a str,
    game: usize,
    ply: usize,
    color: &'static str,
    #[serde(rename = "move")]
    played: String,
    best_move: String,
    best_score: i32,
    played_score: i32,
    loss: i32,
    exact: bool,
    depth: u32,
    selectivity: u32,
    mark: &'static str,
    empties: u32,
    nodes: u64,
}

/// One game row; the field order is the documented column order.
#[derive(Serialize, Debug)]
struct GameRow<'a> {
    source: &'a str,
    game: usize,
    black_player: String,
    white_player: String,
    event: String,
    date: String,
    year: Option<u16>,
    plies: Option<usize>,
    margin: Option<i32>,
    black_moves: Option<u32>,
    black_loss: Option<i64>,
    black_avg_loss: Option<f64>,
    black_accuracy: Option<f64>,
    black_only: Option<u32>,
    black_dubious: Option<u32>,
    black_mistakes: Option<u32>,
    black_blunders: Option<u32>,
    white_moves: Option<u32>,
    white_loss: Option<i64>,
    white_avg_loss: Option<f64>,
    white_accuracy: Option<f64>,
    white_only: Option<u32>,
    white_dubious: Option<u32>,
    white_mistakes: Option<u32>,
    white_blunders: Option<u32>,
    decisive_ply: Option<usize>,
    decisive_color: &'static str,
    error: String,
}

/// One player's figures over every game; the field order is the documented column order.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct PlayerRow {
    /// The name as the records give it (`?` when none).
    pub player: String,
    /// Games played.
    pub games: u32,
    /// Moves chosen.
    pub moves: u32,
    /// Discs lost in total.
    pub loss: i64,
    /// Moves that lost nothing.
    pub best: u32,
    /// Discs lost per move (none without a move).
    pub avg_loss: Option<f64>,
    /// Share of moves that lost nothing, in percent (none without a move).
    pub accuracy: Option<f64>,
    /// Moves marked `!`.
    pub only: u32,
    /// Moves marked `?!`.
    pub dubious: u32,
    /// Moves marked `?`.
    pub mistakes: u32,
    /// Moves marked `??`.
    pub blunders: u32,
}

impl PlayerRow {
    /// A player's row from their figures.
    #[must_use]
    pub fn new(player: String, games: u32, t: &Tally) -> PlayerRow {
        PlayerRow {
            player,
            games,
            moves: t.moves,
            loss: t.loss,
            best: t.best,
            avg_loss: t.average_loss().map(round2),
            accuracy: t.accuracy().map(round2),
            only: t.only,
            dubious: t.dubious,
            mistakes: t.mistakes,
            blunders: t.blunders,
        }
    }

    /// The figures the row sums up.
    #[must_use]
    pub fn tally(&self) -> Tally {
        Tally {
            moves: self.moves,
            loss: self.loss,
            best: self.best,
            only: self.only,
            dubious: self.dubious,
            mistakes: self.mistakes,
            blunders: self.blunders,
        }
    }
}

/// A game's annotation as the workers make it.
struct Annotated {
    source: String,
    game: usize,
    record: Record,
    /// The position the record starts from.
    start: Position,
    /// The position the record's moves lead to (up to an illegal move).
    end: Position,
    plies: Vec<Ply>,
    summary: Summary,
    /// ProbCut's confidence in percent for the estimated plies (100: none).
    selectivity: u32,
    error: Option<String>,
    /// The illegal move the annotation stopped at, located in the record's text (for stderr).
    located: Option<RecordError>,
}

impl Annotated {
    /// Black's final margin under the rules' scoring, when the game is over.
    fn margin(&self) -> Option<i32> {
        self.end.outcome().map(|o| o.score(Color::Black))
    }

    /// The player's name (a WTHOR game's number when read without names), `?` for none.
    fn player(&self, color: Color) -> String {
        self.named(color).unwrap_or_else(|| "?".to_owned())
    }

    /// The player's name (a WTHOR game's number when read without names), if the record names
    /// one.
    fn named(&self, color: Color) -> Option<String> {
        self.record.name_or_number(if color == Color::Black { "black" } else { "white" })
    }
}

impl Args {
    /// The rows of csv and json (`--table`, one per ply by default).
    fn table(&self) -> Table {
        self.table.unwrap_or(Table::Plies)
    }
}

/// Runs `kifu annotate`.
pub fn run(mut args: Args) -> anyhow::Result<Status> {
    args.format = super::format_for(args.format_given, args.output.as_deref(), OutFormat::Text);
    let started = Instant::now();
    // (The text shows a table of plies per game: `--table plies` says nothing new there.)
    if let Some(table) = args.table.filter(|&t| t != Table::Plies)
        && !matches!(args.format, OutFormat::Csv | OutFormat::Json)
    {
        anyhow::bail!(
            "--table {} picks the rows of csv and json; --format {} has its own layout (docs/annotate.md)",
            value_name(&table),
            value_name(&args.format)
        );
    }
    let [dubious, mistake, blunder] = args.marks[..] else {
        anyhow::bail!("--marks takes three losses (for ?!, ? and ??), as 2,6,12; {} given", args.marks.len());
    };
    anyhow::ensure!(
        1 <= dubious && dubious <= mistake && mistake <= blunder,
        "--marks takes three losses from 1 disc up, each at least the one before (for ?!, ? and ??), as 2,6,12"
    );
    let thresholds = Thresholds { dubious, mistake, blunder };
    let Engine { settings, generic, probcut, evaluator } = args.engine.engine("kifu annotate", args.quiet)?;
    let threads = super::worker_threads(args.threads);
    // Files are counted first, for the progress bar's length and the shards.
    let total = if args.input.reads_stdin() {
        if args.shard.is_some() {
            anyhow::bail!("--shard needs input files (stdin cannot be counted first)");
        }
        None
    } else {
        Some(records::count(&args.input)?)
    };
    let range = match (args.shard, total) {
        (Some((k, n)), Some(t)) => (t * (k - 1) / n)..(t * k / n),
        _ => 0..u64::MAX,
    };
    args.input.check(args.output.as_deref())?;
    // A run resumed after it finished (a batch job run again) has nothing left to do.
    if args.resume
        && let Some(done) = args.output.as_deref().and_then(Sink::finished)
    {
        if !args.quiet {
            stderr!(
                "kifu annotate: nothing to resume: {} is complete (no {}); left as it is, whatever options made it",
                done.0.display(),
                done.1.display()
            );
        }
        return Ok(Status::Ok);
    }
    let mut sink = Sink::open(args.output.as_deref(), args.resume, &settings_text(&args))?;
    let resumed_from = sink.next;
    if sink.fresh {
        sink.begin(&header(args.format, args.table()))?;
    }
    // The records `--games` asks for among those this run reads (other criteria are known
    // only once a record is read).
    let (selector, mut chooser) = args.select.build();
    let asked = chooser.numbers();
    let planned = total.map(|t| asked.count_in(range.start.max(resumed_from)..range.end.min(t)));
    let bar = progress_bar(args.quiet, planned);
    let positions = AtomicU64::new(0);
    // Each worker keeps its solvers from game to game.
    let mut workers: Vec<Worker> = (0..threads)
        .map(|_| Worker { solvers: SolverSet::new(args.hash_mb, 1, probcut, evaluator.clone()), generic: None })
        .collect();
    let engines = Engines { settings, generic, selectivity: args.engine.selectivity.min(100), hash_mb: args.hash_mb };
    let (mut games, mut invalid) = (0u64, 0u64);
    let mut lost_rules = LostRules::default();
    let first = sink.next;
    // The games kept before this run's first record (by earlier shards, or before an
    // interruption) are the firsts of their duplicates for the rest too: judged again, in order.
    let before = first.max(range.start);
    if before > 0 && args.select.unique {
        let refused = chooser.refused;
        let mut index = 0u64;
        let _ = records::scan(&args.input, |source, item| {
            if index >= before {
                return Ok(ControlFlow::Break(()));
            }
            let read = item.ok().and_then(|raw| source.read(&raw).ok());
            let pick = read.and_then(|(record, rules)| selector.pick_record(&record, &rules, source.format));
            chooser.keep_numbered(index, pick);
            index += 1;
            Ok(ControlFlow::Continue(()))
        })?;
        chooser.refused = refused;
    }
    let (numbers, ahead) = (chooser.numbers(), chooser.judged_ahead());
    // Records --games leaves out are passed over unread, and counted here (but for those that
    // --unique judges).
    let unnumbered = AtomicU64::new(0);
    let wanted = |index: u64| {
        let handled = range.contains(&index) && index >= first;
        if handled && !numbers.contains(index) && index >= ahead {
            unnumbered.fetch_add(1, Ordering::Relaxed);
            return false;
        }
        handled
    };
    let problems = records::for_each_ordered(
        &args.input,
        &mut workers,
        wanted,
        |worker, source, index, raw| {
            if !numbers.contains(index) {
                // Read for --unique only.
                return Ok(Judged::Only(selector.judge_only(source, raw)));
            }
            annotate(worker, source, raw, engines, &thresholds, &selector, &|| {
                let n = positions.fetch_add(1, Ordering::Relaxed) + 1;
                let secs = started.elapsed().as_secs_f64().max(1e-3);
                bar.set_message(format!("{n} positions, {:.1}/s", n as f64 / secs));
            })
        },
        |_, index, result| {
            let result = result.and_then(|r| r);
            let pick = match &result {
                Ok(Judged::Refused) => Some(Pick::Refused),
                Ok(Judged::Annotated(_, pick) | Judged::Only(pick)) => *pick,
                Err(_) => None,
            };
            if numbers.contains(index) {
                bar.inc(1);
            }
            if !chooser.keep_numbered(index, pick) {
                // Noted done, so that --resume goes on after it.
                return sink.game(index, &[], Vec::new());
            }
            let (bytes, players) = match result.map(|judged| match judged {
                Judged::Annotated(game, _) => *game,
                Judged::Refused | Judged::Only(_) => unreachable!("a refused game is not kept"),
            }) {
                Err(e) => {
                    bar.suspend(|| stderr!("{e}"));
                    invalid += 1;
                    // The games table has a row for every record, the unreadable ones too.
                    let row = match (args.format, args.table()) {
                        (OutFormat::Csv | OutFormat::Json, Table::Games) => {
                            rows(&[unreadable_game_row(&e)], args.format == OutFormat::Csv)?
                        }
                        _ => Vec::new(),
                    };
                    (row, Vec::new())
                }
                Ok(game) => {
                    match (&game.located, &game.error) {
                        (Some(e), _) => bar.suspend(|| stderr!("{e}")),
                        (None, Some(e)) => bar.suspend(|| stderr!("{}: game {}: {e}", game.source, game.game)),
                        (None, None) => {}
                    }
                    invalid += u64::from(game.error.is_some());
                    games += 1;
                    // Both players of a game that was analysed, a player without a move too.
                    let players = [Color::Black, Color::White]
                        .map(|c| (game.player(c), game.summary.sides[c.index()]))
                        .into_iter()
                        .filter(|_| !game.plies.is_empty())
                        .collect();
                    let (bytes, lost) = render(&game, &args)?;
                    if let Some(spec) = lost {
                        lost_rules.add(spec);
                    }
                    (bytes, players)
                }
            };
            sink.game(index, &bytes, players)
        },
    )?;
    bar.finish_and_clear();
    chooser.refused += unnumbered.load(Ordering::Relaxed);
    let damaged = problems.warn("kifu annotate");
    // As `kifu convert` does: rules given with --rules are known to the user.
    if args.input.rules.is_none()
        && let Some(to) = args.format.records()
    {
        lost_rules.warn("kifu annotate", to);
    }
    let trailer = trailer(args.format, args.table(), &sink.players, args.shard.is_some());
    sink.finish(&trailer)?;
    // (A shard or a resumed run does not see every record.)
    if args.shard.is_none() && resumed_from == 0 {
        chooser.warn_past_the_end("kifu annotate");
    }
    if !args.quiet {
        stderr!(
            "kifu annotate: {} annotated, {invalid} with errors, {}{} ({:.2} s){}",
            super::counted(games, "game"),
            super::counted(positions.load(Ordering::Relaxed), "position"),
            chooser.summary(),
            started.elapsed().as_secs_f64(),
            if resumed_from > 0 { format!("; resumed after record {resumed_from}") } else { String::new() },
        );
    }
    Ok(if invalid + damaged > 0 { Status::SomeInvalid } else { Status::Ok })
}

fn progress_bar(quiet: bool, total: Option<u64>) -> ProgressBar {
    if quiet || !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        return ProgressBar::with_draw_target(total, ProgressDrawTarget::hidden());
    }
    let (bar, template) = match total {
        Some(n) => (
            ProgressBar::new(n),
            "{bar:30} {human_pos}/{human_len} games ({rate}), {msg}, {elapsed} elapsed, ETA {eta}",
        ),
        None => (ProgressBar::new_spinner(), "{spinner} {human_pos} games ({rate}), {msg}, {elapsed}"),
    };
    // Games a second with one decimal (indicatif's own rate shows four).
    let rate = |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
        let _ = write!(w, "{:.1}/s", state.per_sec());
    };
    // No estimate before the first game is done (indicatif would say 0s).
    let eta = |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
        let _ = match state.pos() {
            0 => write!(w, "-"),
            _ => write!(w, "{:#}", indicatif::HumanDuration(state.eta())),
        };
    };
    let style = ProgressStyle::with_template(template).map(|s| s.with_key("rate", rate).with_key("eta", eta));
    bar.set_style(style.unwrap_or_else(|_| ProgressStyle::default_bar()));
    bar.set_message("0 positions");
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// One annotating thread's engines, kept from game to game: the 8x8 solvers, and the generic
/// searcher for other variants (made on first use).
struct Worker {
    solvers: SolverSet,
    generic: Option<GenericSearcher>,
}

/// How each engine searches.
#[derive(Clone, Copy)]
struct Engines {
    /// The 8x8 engine's settings.
    settings: Settings,
    /// The generic engine's settings.
    generic: Settings,
    /// The 8x8 engine's ProbCut confidence in percent.
    selectivity: u32,
    /// Table size per engine, in MiB.
    hash_mb: usize,
}

/// A record the selection judged: annotated (with what the selection found, when it judged
/// it), or refused and left alone.
enum Judged {
    Annotated(Box<Annotated>, Option<Pick>),
    Refused,
    /// Not asked for by `--games`, only judged for `--unique`: how it was picked.
    Only(Option<Pick>),
}

/// Judges one record (when records are selected) and annotates it.
fn annotate(
    worker: &mut Worker,
    source: &Source,
    raw: &RawRecord,
    Engines { settings, generic, selectivity, hash_mb }: Engines,
    thresholds: &Thresholds,
    selector: &Selector,
    done: &(dyn Fn() + Sync),
) -> Result<Judged, RecordError> {
    // A record whose text goes wrong after its start (a token that is no move, a square off the
    // board) is annotated up to the fault, as one with an illegal move is.
    let (mut error, mut located) = (None, None);
    let (mut record, rules) = match source.read_partly(raw) {
        Ok(read) => read,
        Err(unread) => match *unread {
            Unread { error: mut e, before: Some((record, rules)), fix, .. } => {
                let ply = record.moves.len() + 1;
                error = Some(format!("annotated up to ply {ply}, which does not read: {}", e.message));
                e.message = format!("annotated up to move {ply}, which does not read: {}", e.message);
                records::add_suggestion(&mut e.message, fix);
                located = Some(e);
                (record, rules)
            }
            Unread { error, before: None, .. } => return Err(error),
        },
    };
    let pick = if error.is_some() { None } else { selector.pick_record(&record, &rules, source.format) };
    if pick == Some(Pick::Refused) {
        return Ok(Judged::Refused);
    }
    let (game, bad) =
        record.game_before_bad_square(rules.clone()).map_err(|e| raw.error(source.name, e.span, e.message))?;
    if let Some(token) = bad.and_then(|i| record.moves.get(i)) {
        let ply = bad.unwrap_or_default() + 1;
        error = Some(format!("annotated up to ply {ply}: {} is off the board", token.mv));
        let mut message = format!("annotated up to move {ply}, {}, which is off the board", token.mv);
        records::add_suggestion(&mut message, check::check(&record, &rules, source.format).suggestion);
        located = Some(raw.error(source.name, token.span, message));
    }
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    let replay = game.replay_with(Passes::Implicit, |before, mv, _| {
        positions.push(before.clone());
        moves.push(mv);
    });
    match replay {
        Ok(r) => positions.push(r.position),
        Err(e) => {
            let named = rules.move_name(e.mv);
            error = Some(format!("annotated up to the illegal move: ply {}: {named} is illegal: {}", e.ply, e.reason));
            located = record.moves.get(e.ply - 1).map(|token| {
                let mut message =
                    format!("annotated up to move {}, {}, which is illegal: {}", e.ply, token.mv, e.reason);
                records::add_suggestion(&mut message, check::check(&record, &rules, source.format).suggestion);
                raw.error(source.name, token.span, message)
            });
            positions.push(*e.position);
        }
    }
    if source.format == Format::Logbook {
        // As `kifu convert` reads it: the logbook's plain difference as the rules' margin.
        shape::from_logbook(&mut record, positions.last().expect("the start at least"));
    }
    let mut annotated = Annotated {
        source: source.name.to_owned(),
        game: raw.index + 1,
        start: positions[0].clone(),
        end: positions.last().expect("the start at least").clone(),
        record,
        plies: Vec::new(),
        summary: Summary::default(),
        selectivity,
        error,
        located,
    };
    // Each game starts from an empty table, so that its values do not depend on the games the
    // same thread did before (the output is the same for any thread count and any shards).
    let analysed = match Solver::counting_for(&positions[0]) {
        Some(counting) => {
            let solver = worker.solvers.get(counting);
            solver.clear();
            analysis::analyse(&mut SolverAnalyst { solver, settings }, &positions, &moves, thresholds, done)
        }
        None => {
            // The generic search does not prune selectively.
            annotated.selectivity = 100;
            let searcher = worker.generic.get_or_insert_with(|| GenericSearcher::new(hash_mb));
            searcher.clear();
            analysis::analyse(&mut GenericAnalyst { searcher, settings: generic }, &positions, &moves, thresholds, done)
        }
    };
    match analysed {
        Ok(plies) => {
            // A game that stops before its end ended as its record says (a resignation).
            let last = positions.last().expect("the start at least");
            let stated = (!last.is_game_over()).then(|| stated_winner(&annotated.record, last)).flatten();
            annotated.summary = Summary::of(&plies, analysis::tie_taker(&positions[0]), stated);
            annotated.plies = plies;
        }
        Err(e) => annotated.error = Some(e.to_string()),
    }
    Ok(Judged::Annotated(Box::new(annotated), pick))
}

/// The header of an output (the CSV header row), or nothing.
fn header(format: OutFormat, table: Table) -> Vec<u8> {
    if format != OutFormat::Csv {
        return Vec::new();
    }
    format!("{}\n", columns(table)).into_bytes()
}

/// The columns of a table's rows (csv's header; json's fields).
fn columns(table: Table) -> &'static str {
    match table {
        Table::Plies => PLY_COLUMNS,
        Table::Games => GAME_COLUMNS,
        Table::Players => PLAYER_COLUMNS,
    }
}

pub(crate) const PLY_COLUMNS: &str =
    "source,game,ply,color,move,best_move,best_score,played_score,loss,exact,depth,selectivity,mark,empties,nodes";
pub(crate) const GAME_COLUMNS: &str = "source,game,black_player,white_player,event,date,year,plies,margin,black_moves,black_loss,\
black_avg_loss,black_accuracy,black_only,black_dubious,black_mistakes,black_blunders,white_moves,white_loss,\
white_avg_loss,white_accuracy,white_only,white_dubious,white_mistakes,white_blunders,decisive_ply,decisive_color,error";
/// The winner (`None` a draw) the record of a game states, if it states one it can be read as.
fn stated_winner(record: &Record, position: &Position) -> Option<Option<Color>> {
    let cells = (position.count(Color::Black) + position.count(Color::White) + position.empties()) as i32;
    ["score", "result", "outcome"]
        .iter()
        .find_map(|tag| record.tag(tag).and_then(|text| crate::notation::check::stated_result(text, cells)))
        .map(|stated| stated.winner)
}

/// The line that starts the text players table.
pub const PLAYERS_HEADING: &str = "players\n";

pub(crate) const PLAYER_COLUMNS: &str = "player,games,moves,loss,best,avg_loss,accuracy,only,dubious,mistakes,blunders";

/// Rows as CSV without a header, or as JSON Lines.
pub(crate) fn rows<T: Serialize>(rows: &[T], csv: bool) -> anyhow::Result<Vec<u8>> {
    if csv {
        let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
        for row in rows {
            w.serialize(row)?;
        }
        return w.into_inner().map_err(|e| anyhow::Error::from(e.into_error()));
    }
    let mut out = Vec::new();
    for row in rows {
        serde_json::to_writer(&mut out, row)?;
        out.push(b'\n');
    }
    Ok(out)
}

/// One game's output, and the rules spec it was written without (a record format that cannot
/// name the game's rules).
fn render(game: &Annotated, args: &Args) -> anyhow::Result<(Vec<u8>, Option<String>)> {
    let (format, table, selectivity) = (args.format, args.table(), game.selectivity);
    let csv = format == OutFormat::Csv;
    if let Some(to) = format.records() {
        let (text, lost) = annotated_record(game, to, selectivity);
        return Ok((text.into_bytes(), lost));
    }
    let bytes = match (format, table) {
        (OutFormat::Text, _) => text(game, selectivity).into_bytes(),
        (_, Table::Plies) => rows(&ply_rows(game, selectivity), csv)?,
        (_, Table::Games) => rows(&[game_row(game)], csv)?,
        (_, Table::Players) => Vec::new(),
    };
    Ok((bytes, None))
}

fn ply_rows(game: &Annotated, selectivity: u32) -> Vec<PlyRow<'_>> {
    let rules = game.start.rules();
    game.plies
        .iter()
        .map(|p| PlyRow {
            source: &game.source,
            game: game.game,
            ply: p.ply,
            color: p.color.name(),
            played: rules.move_name(p.played),
            best_move: rules.move_name(p.best),
            best_score: p.best_score,
            played_score: p.played_score,
            loss: p.loss,
            exact: p.exact,
            depth: p.depth,
            selectivity: if p.exact { 100 } else { selectivity },
            mark: p.mark.symbol(),
            empties: p.empties,
            nodes: p.nodes,
        })
        .collect()
}

fn game_row(game: &Annotated) -> GameRow<'_> {
    let [b, w] = &game.summary.sides;
    let decisive = game.summary.decisive;
    GameRow {
        source: &game.source,
        game: game.game,
        // (Empty for none, as `kifu export` writes it.)
        black_player: game.named(Color::Black).unwrap_or_default(),
        white_player: game.named(Color::White).unwrap_or_default(),
        // (As `kifu export` writes them, to group by tournament or era without a join.)
        event: game.record.name_or_number("event").unwrap_or_default(),
        date: crate::notation::date::Date::iso_or_as_written(game.record.tag("date").unwrap_or_default()),
        year: crate::stats::year(game.record.tag("date").unwrap_or_default()),
        plies: Some(game.plies.len()),
        margin: game.margin(),
        black_moves: Some(b.moves),
        black_loss: Some(b.loss),
        black_avg_loss: b.average_loss().map(round2),
        black_accuracy: b.accuracy().map(round2),
        black_only: Some(b.only),
        black_dubious: Some(b.dubious),
        black_mistakes: Some(b.mistakes),
        black_blunders: Some(b.blunders),
        white_moves: Some(w.moves),
        white_loss: Some(w.loss),
        white_avg_loss: w.average_loss().map(round2),
        white_accuracy: w.accuracy().map(round2),
        white_only: Some(w.only),
        white_dubious: Some(w.dubious),
        white_mistakes: Some(w.mistakes),
        white_blunders: Some(w.blunders),
        decisive_ply: decisive,
        decisive_color: decisive.map_or("", |ply| game.plies[ply - 1].color.name()),
        error: game.error.clone().unwrap_or_default(),
    }
}

/// The games-table row of a record that could not be read or replayed: its place and why, no
/// figures.
fn unreadable_game_row(e: &RecordError) -> GameRow<'_> {
    GameRow {
        source: &e.file,
        game: e.record,
        black_player: String::new(),
        white_player: String::new(),
        event: String::new(),
        date: String::new(),
        year: None,
        plies: None,
        margin: None,
        black_moves: None,
        black_loss: None,
        black_avg_loss: None,
        black_accuracy: None,
        black_only: None,
        black_dubious: None,
        black_mistakes: None,
        black_blunders: None,
        white_moves: None,
        white_loss: None,
        white_avg_loss: None,
        white_accuracy: None,
        white_only: None,
        white_dubious: None,
        white_mistakes: None,
        white_blunders: None,
        decisive_ply: None,
        decisive_color: "",
        error: e.message.clone(),
    }
}

pub(crate) fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// How a ply was searched: `exact`, `depth 8`, `depth 8 @87%`.
fn searched(p: &Ply, selectivity: u32) -> String {
    match (p.exact, selectivity) {
        (true, _) => "exact".to_owned(),
        (false, 100) => format!("depth {}", p.depth),
        (false, s) => format!("depth {} @{s}%", p.depth),
    }
}

/// A value with its sign, and `~` before an estimate.
fn value(score: i32, exact: bool) -> String {
    format!("{}{score:+}", if exact { "" } else { "~" })
}

/// A move's comment without the parts `kifu annotate` wrote (`?! ~+5, best d3 ~+8, loss 3
/// (depth 10 @87%)`, `+2 (exact)`), which the record keeps from an earlier run; none when
/// nothing else is left.
fn without_analysis(comment: &str) -> Option<String> {
    let analysis = |part: &str| -> bool {
        let Some((said, how)) = part.trim().strip_suffix(')').and_then(|p| p.rsplit_once(" (")) else {
            return false;
        };
        let depth = |d: &str| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit());
        let how_ok = how == "exact"
            || how.strip_prefix("depth ").is_some_and(|rest| match rest.split_once(" @") {
                Some((d, pct)) => depth(d) && pct.strip_suffix('%').is_some_and(depth),
                None => depth(rest),
            });
        let mut words = said.split_whitespace();
        let first = words.next().unwrap_or_default();
        let value = if ["!", "?!", "?", "??"].contains(&first) { words.next().unwrap_or_default() } else { first };
        let value_ok = value.trim_end_matches(',').trim_start_matches('~').strip_prefix(['+', '-']).is_some_and(depth);
        how_ok && value_ok
    };
    let kept: Vec<&str> = comment.split("; ").filter(|part| !analysis(part)).collect();
    let kept = kept.join("; ");
    (!kept.trim().is_empty()).then_some(kept)
}

/// The game with each move's annotation (its value, for GGF in the move, and a comment) in
/// `to`, shaped as `kifu convert` shapes records for it (the rules and the result filled in, the
/// start board, GGF's type and margins, PGN's date and score), and the rules spec the text was
/// written without when `to` cannot name the game's rules.
fn annotated_record(game: &Annotated, to: Format, selectivity: u32) -> (String, Option<String>) {
    let rules = game.start.rules();
    let mut record = Record { tags: game.record.tags.clone(), start: game.record.start.clone(), moves: Vec::new() };
    // The record's own tokens, for their comments and times (passes it left unwritten have none).
    let mut written = game.record.moves.iter().peekable();
    for p in &game.plies {
        let mut token = MoveToken::of_move(rules, p.played);
        let own = written.next_if(|t| t.mv == token.mv);
        token.color = Some(p.color);
        token.time = own.and_then(|t| t.time);
        // An earlier run's analysis is not the record's own: this run's replaces it.
        token.comment = own.and_then(|t| t.comment.as_deref()).and_then(without_analysis);
        if !p.forced {
            let how = searched(p, selectivity);
            let mut comment = format!("{} {}", p.mark.symbol(), value(p.played_score, p.exact)).trim_start().to_owned();
            if p.loss > 0 {
                comment.push_str(&format!(
                    ", best {} {}, loss {}",
                    rules.move_name(p.best),
                    value(p.best_score, p.exact),
                    p.loss
                ));
            }
            comment.push_str(&format!(" ({how})"));
            // The record's own comment first, then the analysis.
            token.comment = Some(match token.comment.take() {
                Some(own) if !own.is_empty() => format!("{own}; {comment}"),
                _ => comment,
            });
            token.eval = Some(f64::from(p.played_score));
        }
        record.moves.push(token);
    }
    if let Some(e) = &game.error {
        record.set_tag("comment", format!("kifu annotate: {e}"));
    }
    // The position the written moves lead to: none are written when the analysis failed.
    let end = if game.plies.is_empty() { &game.start } else { &game.end };
    record.fill_in(end);
    // GGF and PGN hold any start board, passes and rules: every game fits them (`shape::fits`).
    let resolved = Resolved { record, start: game.start.clone(), end: end.clone() };
    let mut text = format::write(to, &shape::shape(resolved, to));
    let variant = game.start.rules().variant();
    let lost = (!shape::rules_kept(variant, to, &text)).then(|| variant.spec());
    text.push('\n');
    if to == Format::Pgn {
        text.push('\n');
    }
    (text, lost)
}

/// The text table of one game.
fn text(game: &Annotated, selectivity: u32) -> String {
    let rules = game.start.rules();
    let mut s = format!(
        "{} game {}: {} (black) vs {} (white)",
        game.source,
        game.game,
        game.player(Color::Black),
        game.player(Color::White)
    );
    if let Some(event) = game.record.tag("event").filter(|v| !v.is_empty()) {
        s.push_str(&format!(", {event}"));
    }
    // Dates as `show` writes them (ISO), whatever form the record gave.
    if let Some(date) = game.record.tag("date").filter(|v| !v.is_empty()) {
        s.push_str(&format!(", {}", crate::notation::date::Date::iso_or_as_written(date)));
    }
    if let Some(m) = game.margin() {
        s.push_str(&format!(", black {m:+}"));
    }
    // Names and errors quote the record: no control characters on a terminal.
    let mut s = crate::notation::printable(&s).into_owned();
    s.push('\n');
    if let Some(e) = &game.error {
        s.push_str(&format!("  error: {}\n", crate::notation::printable(e)));
    }
    if !game.plies.is_empty() {
        s.push_str("   ply  color  played       best         loss  mark  searched\n");
    }
    for p in &game.plies {
        let how = searched(p, selectivity);
        s.push_str(&format!(
            "  {:>4}  {:<5}  {:<4} {:>6}  {:<4} {:>6}  {:>4}  {:<4}  {}\n",
            p.ply,
            p.color.name(),
            rules.move_name(p.played),
            format!("{:+}", p.played_score),
            if p.forced { String::new() } else { rules.move_name(p.best) },
            if p.forced { String::new() } else { format!("{:+}", p.best_score) },
            p.loss,
            p.mark.symbol(),
            how
        ));
    }
    for color in [Color::Black, Color::White] {
        let t = &game.summary.sides[color.index()];
        if t.moves > 0 {
            s.push_str(&format!("  {}: {}\n", color.name(), tally_text(t)));
        }
    }
    if let Some(ply) = game.summary.decisive {
        let p = &game.plies[ply - 1];
        s.push_str(&format!(
            "  decisive mistake: ply {ply}, {} {} ({} to {})\n",
            p.color.name(),
            rules.move_name(p.played),
            value(p.best_score, p.exact),
            value(p.played_score, p.exact)
        ));
    }
    // Each side's costliest move (the first of equal ones), where one lost discs.
    for color in [Color::Black, Color::White] {
        // (`max_by_key` keeps the last of equals: from the end, that is the first.)
        let own = game.plies.iter().filter(|p| p.color == color && p.loss > 0);
        let Some(p) = own.rev().max_by_key(|p| p.loss) else { continue };
        s.push_str(&format!(
            "  {}'s worst move: ply {}, {} ({} to {}, {} lost; best {})\n",
            color.name(),
            p.ply,
            rules.move_name(p.played),
            value(p.best_score, p.exact),
            value(p.played_score, p.exact),
            p.loss,
            rules.move_name(p.best)
        ));
    }
    s.push('\n');
    s
}

/// A per-move figure with `digits` decimals, `-` when there is none (no move).
fn figure(value: Option<f64>, digits: usize) -> String {
    value.map_or_else(|| "-".to_owned(), |v| format!("{v:.digits$}"))
}

/// `n` and a noun, in the plural but for one (`1 move`, `2 moves`).
fn count(n: impl Into<i64>, noun: &str) -> String {
    let n = n.into();
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

fn tally_text(t: &Tally) -> String {
    format!(
        "{}, {} lost ({} a move), {} best ({}%), {} (!), {} dubious (?!), {} (?), {} (??)",
        count(t.moves, "move"),
        count(t.loss, "disc"),
        figure(t.average_loss(), 2),
        t.best,
        figure(t.accuracy(), 0),
        count(t.only, "only move"),
        t.dubious,
        count(t.mistakes, "mistake"),
        count(t.blunders, "blunder")
    )
}

/// Each player's figures from the per-game tallies: (name, games, tally), by name.
pub fn player_rows(players: &BTreeMap<String, (u32, Tally)>) -> Vec<PlayerRow> {
    players.iter().map(|(name, (games, t))| PlayerRow::new(name.clone(), *games, t)).collect()
}

/// What follows the games: the players table (text, and the `players` table of csv/json). Text
/// has it for more than one game, and always in a shard (for `kifu merge`).
pub fn trailer(format: OutFormat, table: Table, players: &BTreeMap<String, (u32, Tally)>, shard: bool) -> Vec<u8> {
    match (format, table) {
        (OutFormat::Csv | OutFormat::Json, Table::Players) => {
            rows(&player_rows(players), format == OutFormat::Csv).unwrap_or_default()
        }
        // A single game's sides are in its own table already (more than one game: more than two
        // sides, or a player, `?` say, in two games).
        (OutFormat::Text, _)
            if shard || players.values().map(|p| p.0).sum::<u32>() > 2 || players.values().any(|p| p.0 > 1) =>
        {
            let mut s = String::from(PLAYERS_HEADING);
            for row in player_rows(players) {
                s.push_str(&format!(
                    "  {}: {}, {}, {} lost ({} a move), {} best ({}%), {} (!), {} dubious (?!), {} (?), {} (??)\n",
                    crate::notation::printable(&row.player),
                    count(row.games, "game"),
                    count(row.moves, "move"),
                    count(row.loss, "disc"),
                    figure(row.avg_loss, 2),
                    row.best,
                    figure(row.accuracy, 0),
                    count(row.only, "only move"),
                    row.dubious,
                    count(row.mistakes, "mistake"),
                    count(row.blunders, "blunder")
                ));
            }
            s.into_bytes()
        }
        _ => Vec::new(),
    }
}

/// How the moves' values are found, in the journal's first line: a run begun by a build that
/// found them otherwise (before session 39 the played line inherited deeper searches) is not
/// resumed into a mix of the two.
const VALUES: &str = "each move by a search of the position it leads to";

/// Everything a run's output depends on, as the first line of its journal: `--resume` goes on
/// only with the same (the thread count aside: the output does not depend on it).
fn settings_text(args: &Args) -> String {
    let text = format!(
        "kifu {}; {:?}; {:?}; marks: {:?}; hash: {} MiB; format: {}; table: {}; shard: {:?}; values: {VALUES}",
        env!("CARGO_PKG_VERSION"),
        args.input,
        args.engine,
        args.marks,
        args.hash_mb,
        value_name(&args.format),
        value_name(&args.table()),
        args.shard
    );
    // Rows of csv and json are not resumed under other columns (`event`, `date` and `year`
    // came to the games table in session 55).
    let text = match args.format {
        OutFormat::Csv | OutFormat::Json => format!("{text}; columns: {}", columns(args.table()).replace(',', " ")),
        _ => text,
    };
    // (A run that selects nothing reads as before selections came, and resumes one.)
    if args.select.any() { format!("{text}; {:?}", args.select) } else { text }
}

/// An option's value as the command line writes it (`csv`, `plies`).
fn value_name(value: &impl clap::ValueEnum) -> String {
    value.to_possible_value().map_or_else(String::new, |v| v.get_name().to_owned())
}

/// The parts of two [`settings_text`]s that differ, one line each (`  depth: then 8, now 4`):
/// the fields of the settings' structures, found by splitting at the commas and semicolons
/// outside brackets, and matched by name. A field only one run has (the selection of a run
/// that selected records) counts when it holds a value; a journal of another kifu is shown
/// whole.
fn settings_differences(then: &str, now: &str) -> String {
    fn parts(text: &str) -> Vec<String> {
        let (mut out, mut part, mut open) = (Vec::new(), String::new(), Vec::new());
        for c in text.chars() {
            // A top-level structure's braces and commas separate its fields; any other bracket
            // keeps what it holds together.
            let top = open.is_empty() || open == ['{'];
            let split = match c {
                '(' | '[' | '{' => {
                    open.push(c);
                    c == '{' && open.len() == 1
                }
                ')' | ']' | '}' => {
                    open.pop();
                    c == '}' && open.is_empty()
                }
                ',' | ';' => top,
                _ => false,
            };
            if split {
                out.push(std::mem::take(&mut part).trim().to_owned());
            } else {
                part.push(c);
            }
        }
        out.push(part.trim().to_owned());
        out.retain(|p| !p.is_empty());
        out
    }
    /// `name: value` fields (a part without a name is its own name), each name numbered by
    /// its occurrence so that two structures' fields of one name stay apart.
    fn fields(parts: &[String]) -> Vec<((String, usize), String)> {
        let mut seen: HashMap<String, usize> = HashMap::new();
        parts
            .iter()
            .map(|p| {
                let (name, value) = p.split_once(": ").unwrap_or((p, ""));
                let n = seen.entry(name.to_owned()).or_default();
                *n += 1;
                ((name.to_owned(), *n), value.to_owned())
            })
            .collect()
    }
    /// A value as a user reads it: `8` for `Some(8)`, `none` for `None`, or the default an
    /// engine option not given stands for.
    fn shown(name: &str, value: Option<&String>) -> String {
        match value.map(String::as_str) {
            None | Some("None" | "[]" | "") => match name {
                "depth" => "the default (10; 6 for other variants)".to_owned(),
                "exact_empties" => "the default (18; 14 for other variants)".to_owned(),
                _ => "none".to_owned(),
            },
            Some(v) => v.strip_prefix("Some(").and_then(|v| v.strip_suffix(')')).unwrap_or(v).to_owned(),
        }
    }
    /// Whether a field one run lacks holds only its default there (an option not given).
    fn unset(value: Option<&String>) -> bool {
        value.is_none_or(|v| matches!(v.as_str(), "None" | "[]" | "false" | ""))
    }
    let (then_parts, now_parts) = (parts(then), parts(now));
    let raw = format!("  then: {then}\n  now:  {now}");
    if then_parts.first() != now_parts.first() {
        return raw;
    }
    let (then_fields, now_fields) = (fields(&then_parts), fields(&now_parts));
    let then_map: HashMap<_, _> = then_fields.iter().cloned().collect();
    let now_map: HashMap<_, _> = now_fields.iter().cloned().collect();
    let mut names: Vec<&(String, usize)> = now_fields.iter().map(|(k, _)| k).collect();
    names.extend(then_fields.iter().map(|(k, _)| k).filter(|k| !now_map.contains_key(*k)));
    let lines: Vec<String> = names
        .into_iter()
        .filter_map(|key| {
            let (then, now) = (then_map.get(key), now_map.get(key));
            if (then.is_none() || now.is_none()) && unset(then) && unset(now) {
                return None;
            }
            let (a, b) = (shown(&key.0, then), shown(&key.0, now));
            (a != b).then(|| format!("  {}: then {a}, now {b}", key.0))
        })
        .collect();
    if lines.is_empty() { raw } else { lines.join("\n") }
}

/// The journal's first line: the run's settings ([`settings_text`]).
#[derive(Serialize, Deserialize)]
struct RunSettings {
    settings: String,
}

/// A game's line in the journal: the next record to do, the output's length, the players'
/// figures.
#[derive(Serialize, Deserialize)]
struct Entry {
    next: u64,
    bytes: u64,
    players: Vec<(String, Tally)>,
}

/// Where the games go: stdout, or `OUT.partial` with a journal `OUT.partial.log` of the games
/// done, renamed to OUT at the end. A run stopped at any moment leaves the journal naming the
/// games whose output is complete; `--resume` cuts the partial file back to that and goes on.
struct Sink {
    out: Box<dyn Write>,
    /// Where `out` goes, for errors (`to stdout`, a path).
    place: String,
    file: Option<Files>,
    /// The first record not done yet.
    next: u64,
    /// Whether nothing has been written yet (the header is due).
    fresh: bool,
    bytes: u64,
    players: BTreeMap<String, (u32, Tally)>,
}

struct Files {
    partial: PathBuf,
    journal_path: PathBuf,
    journal: File,
    target: PathBuf,
}

impl Sink {
    /// The output file `-o` names and its journal, when the file is there and the journal is
    /// not: a run that finished.
    fn finished(given: &Path) -> Option<(PathBuf, PathBuf)> {
        let super::output::Target::Replace(real) = super::output::target(given).ok()? else { return None };
        let mut journal = real.as_os_str().to_owned();
        journal.push(".partial.log");
        let journal = PathBuf::from(journal);
        (real.is_file() && !journal.exists()).then_some((real, journal))
    }

    fn open(target: Option<&Path>, resume: bool, settings: &str) -> anyhow::Result<Sink> {
        let stream = |out: Box<dyn Write>, place: String| Sink {
            out,
            place,
            file: None,
            next: 0,
            fresh: true,
            bytes: 0,
            players: BTreeMap::new(),
        };
        let given = match target {
            Some(p) if p.as_os_str() != "-" => p,
            _ => return Ok(stream(Box::new(BufWriter::new(std::io::stdout())), "to stdout".to_owned())),
        };
        // Written as it goes, game by game, to be resumed: not gzipped.
        if given.to_string_lossy().to_ascii_lowercase().ends_with(".gz") {
            anyhow::bail!(
                "-o {}: kifu annotate writes its output as it goes (for --resume) and does not gzip it; write it unzipped, then gzip it",
                given.display()
            );
        }
        // A regular file (through a symlink, its target) gets OUT.partial and its journal beside
        // it; a device or FIFO is written as it goes, since renaming over it would replace it.
        let real = match super::output::target(given)? {
            super::output::Target::Replace(real) => real,
            super::output::Target::Through if resume => {
                anyhow::bail!("--resume needs -o to name a regular file, not {}", given.display())
            }
            super::output::Target::Through => {
                let out = Box::new(BufWriter::new(super::output::open_through(given)?));
                return Ok(stream(out, given.display().to_string()));
            }
        };
        let target = real.as_path();
        let mut partial = target.as_os_str().to_owned();
        partial.push(".partial");
        let partial = PathBuf::from(partial);
        let mut journal_path = partial.clone().into_os_string();
        journal_path.push(".log");
        let journal_path = PathBuf::from(journal_path);
        let mut sink = stream(Box::new(std::io::sink()), partial.display().to_string());
        let mut entries = Vec::new();
        if resume {
            match File::open(&journal_path) {
                Ok(f) => {
                    // Only whole lines count: a line cut short by the interruption is dropped.
                    let mut reader = BufReader::new(f);
                    let mut line = String::new();
                    reader.read_line(&mut line)?;
                    match serde_json::from_str::<RunSettings>(&line) {
                        Ok(then) if then.settings != settings => anyhow::bail!(
                            "cannot resume: {} was written with other options (or another kifu):\n{}",
                            partial.display(),
                            settings_differences(&then.settings, settings)
                        ),
                        Ok(_) => line.clear(),
                        // A journal of a kifu that wrote no settings line: its first entry.
                        Err(_) => {}
                    }
                    while reader.read_line(&mut line)? > 0 {
                        if !line.ends_with('\n') {
                            break;
                        }
                        match serde_json::from_str::<Entry>(&line) {
                            Ok(e) => entries.push(e),
                            Err(_) => break,
                        }
                        line.clear();
                    }
                }
                // (A finished run was told apart by [`Sink::finished`].)
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(e).with_context(|| format!("cannot read {}", journal_path.display())),
            }
        }
        // The journal is locked before anything is cut: a second run on the same output (a
        // job started again while the first still runs) is refused, not let to spoil it.
        let mut journal = std::fs::OpenOptions::new()
            .create(true)
            .write(true)
            .truncate(false)
            .open(&journal_path)
            .with_context(|| format!("cannot create {}", journal_path.display()))?;
        if !lock(&journal) {
            anyhow::bail!(
                "another kifu is writing {} (its journal {} is locked): wait for it, or stop it first",
                target.display(),
                journal_path.display()
            );
        }
        if entries.is_empty() {
            journal.set_len(0)?;
        }
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .write(true)
            .read(true)
            .truncate(entries.is_empty())
            .open(&partial)
            .with_context(|| format!("cannot create {}", partial.display()))?;
        let settings_line = serde_json::to_string(&RunSettings { settings: settings.to_owned() })? + "\n";
        if entries.is_empty() {
            journal.write_all(settings_line.as_bytes())?;
        }
        if let Some(last) = entries.last() {
            let length = file.metadata()?.len();
            anyhow::ensure!(
                length >= last.bytes,
                "cannot resume: {} is shorter than its journal says",
                partial.display()
            );
            file.set_len(last.bytes)?;
            file.seek(std::io::SeekFrom::End(0))?;
            // The journal, rewritten without a cut line.
            let mut text = settings_line;
            for e in &entries {
                text.push_str(&serde_json::to_string(e)?);
                text.push('\n');
            }
            journal.set_len(0)?;
            journal.write_all(text.as_bytes())?;
            sink.next = last.next;
            sink.bytes = last.bytes;
            sink.fresh = false;
            for e in &entries {
                sink.add_players(&e.players);
            }
        }
        sink.out = Box::new(BufWriter::new(file));
        super::output::on_interrupt(format!(
            "{} and its journal are kept: the same command with --resume goes on from the last whole game",
            partial.display()
        ));
        sink.file = Some(Files { partial, journal_path, journal, target: target.to_path_buf() });
        Ok(sink)
    }

    /// Adds one game's players: a name on both sides (`?` for two unnamed players) counts the
    /// game once.
    fn add_players(&mut self, players: &[(String, Tally)]) {
        for (i, (name, tally)) in players.iter().enumerate() {
            let entry = self.players.entry(name.clone()).or_default();
            entry.0 += u32::from(players[..i].iter().all(|(other, _)| other != name));
            entry.1.merge(tally);
        }
    }

    /// Writes the header (a fresh output only).
    fn begin(&mut self, header: &[u8]) -> anyhow::Result<()> {
        self.record(self.next, header, Vec::new())
    }

    /// Writes one record's output (`index` is its number) and notes it done.
    fn game(&mut self, index: u64, bytes: &[u8], players: Vec<(String, Tally)>) -> anyhow::Result<()> {
        self.record(index + 1, bytes, players)
    }

    fn record(&mut self, next: u64, bytes: &[u8], players: Vec<(String, Tally)>) -> anyhow::Result<()> {
        self.out.write_all(bytes).and_then(|()| self.out.flush()).with_context(|| format!("writing {}", self.place))?;
        self.bytes += bytes.len() as u64;
        self.next = next;
        self.add_players(&players);
        if let Some(files) = &mut self.file {
            let entry = Entry { next, bytes: self.bytes, players };
            let mut line = serde_json::to_string(&entry)?;
            line.push('\n');
            files.journal.write_all(line.as_bytes())?;
        }
        Ok(())
    }

    /// Writes the trailer and moves the file into place.
    fn finish(mut self, trailer: &[u8]) -> anyhow::Result<()> {
        self.out
            .write_all(trailer)
            .and_then(|()| self.out.flush())
            .with_context(|| format!("writing {}", self.place))?;
        drop(self.out);
        if let Some(files) = self.file {
            // (Gone when another run writing the same output finished first.)
            File::open(&files.partial).and_then(|f| f.sync_all()).with_context(|| {
                format!("cannot finish {} (did another run write this output?)", files.partial.display())
            })?;
            super::output::finishing(|| {
                std::fs::rename(&files.partial, &files.target)
                    .with_context(|| format!("cannot move output to {}", files.target.display()))?;
                drop(files.journal);
                let _ = std::fs::remove_file(&files.journal_path);
                anyhow::Ok(())
            })?;
        }
        Ok(())
    }
}

/// Takes an exclusive lock on `file` for as long as it is open, without waiting: `false` when
/// another process holds one. (Linux only; elsewhere no lock is taken.)
#[cfg(target_os = "linux")]
fn lock(file: &File) -> bool {
    use std::os::fd::AsRawFd;
    // SAFETY: flock only reads the descriptor, which `file` keeps open for the call.
    unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0 }
}

/// See the Linux one: no lock is taken here.
#[cfg(not(target_os = "linux"))]
fn lock(_file: &File) -> bool {
    true
}
