//! `kifu convert`: reads records in any format and writes them in another.

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context as _;

use super::progress::Progress;
use super::records::{self, FormatParser, InputArgs, Source};
use super::select::{Pick, SelectArgs, Selector};
use super::{Output, Status};
use std::sync::Arc;

use crate::core::{Color, Position, Rules};
use crate::engine::solve::{Counting, Solver};
use crate::notation::format::{self, Format};
use crate::notation::reader::{RawRecord, RecordError};
use crate::notation::{MoveSyntax, Record, Resolved, Span, check, shape, wthor};

/// Arguments of `kifu convert`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Formats: transcript, kifu, board, obf, ggf, wthor, sgf, pgn, oq, playok, logbook, json. \
Each record is replayed under its rules; a record that does not parse or replay is reported on stderr \
(file:line:column, the line and a caret) and the others are still converted (exit 1).")]
pub struct Args {
    /// What to read.
    #[command(flatten)]
    pub input: InputArgs,
    /// Worker threads.
    #[command(flatten)]
    pub threads: super::ThreadsArgs,
    /// The format to write [default: what -o's name ends in: .pgn, .ggf, .sgf, .wtb, .obf,
    /// .gam, .kifu, .json or .jsonl, .txt (transcripts)].
    #[arg(long, short, value_parser = FormatParser::ANY, required_unless_present = "output")]
    pub to: Option<Format>,
    /// Write here instead of stdout. For `--to wthor` with names not from a WTHOR base, the
    /// names go to OUT's stem with .JOU and .TRN.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// `--to wthor`: add the games to the WTHOR base in this folder. Players and tournaments
    /// take the numbers its WTHOR.JOU and WTHOR.TRN give their names; new names are added at
    /// the end of those files (rewritten whole, every name they had kept at its number).
    #[arg(long, value_name = "DIR")]
    pub base: Option<PathBuf>,
    /// No progress bar and no summary.
    #[arg(long, short)]
    pub quiet: bool,
    /// Cut each game after this many plies (passes count; 0 is the start): `--to board` or
    /// `obf` then writes that position. Games shorter than that are left out.
    #[arg(long, conflicts_with = "empties")]
    pub ply: Option<usize>,
    /// Cut each game at its first position with this many empty squares (`--to obf --empties
    /// 20`: positions for the solver or a puzzle sheet). Games that end before are left out.
    #[arg(long, value_parser = super::parse_empty_count)]
    pub empties: Option<u32>,
    /// `--to wthor`: the year the file's header names [default: the first game's; else a year
    /// in the output's name, as WTH_2024.wtb].
    #[arg(long, value_name = "YEAR", value_parser = clap::value_parser!(u16).range(1..))]
    pub wthor_year: Option<u16>,
    /// `--to wthor`: the header's depth byte, the empty squares from which the theoretical
    /// scores are perfect play [default: that of the WTHOR input; else 0, the real results].
    #[arg(long, value_name = "EMPTIES", value_parser = clap::value_parser!(u8).range(0..=60))]
    pub wthor_depth: Option<u8>,
    /// Give each game its theoretical score: black's margin under perfect play from its first
    /// position with this many empty squares, solved exactly (a game that ends before gets
    /// its final margin); with `--to wthor` the header's depth too. 24 takes one to two seconds
    /// a game on one core.
    #[arg(long, value_name = "EMPTIES", value_parser = clap::value_parser!(u32).range(0..=30))]
    pub theoretical: Option<u32>,
    /// The result written for a finished game whose record states another (a stated result
    /// the board does not give is reported on stderr either way).
    #[arg(long, value_enum, default_value_t)]
    pub results: Results,
    /// Which records.
    #[command(flatten)]
    pub select: SelectArgs,
}

/// `--results`: what a finished game's record that states a result the board does not give is
/// written with.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, clap::ValueEnum)]
pub enum Results {
    /// The result as the record states it (exit 1, as `kifu validate` would).
    #[default]
    Stated,
    /// The result the final board gives, in place of the stated one.
    Board,
}

/// Where each game is cut (`--ply`, `--empties`).
#[derive(Clone, Copy, Debug)]
pub(super) enum Cut {
    Ply(usize),
    Empties(u32),
}

impl Cut {
    /// The cut `--ply` or `--empties` asks for, if either.
    pub(super) fn from_args(ply: Option<usize>, empties: Option<u32>) -> Option<Cut> {
        ply.map(Cut::Ply).or(empties.map(Cut::Empties))
    }

    /// `the game is shorter than 40 plies`, `the game is never at 20 empty squares`.
    pub(super) fn missed(self) -> String {
        match self {
            Cut::Ply(k) => format!("the game is shorter than {k} plies"),
            Cut::Empties(e) => format!("the game is never at {}", super::counted(u64::from(e), "empty square")),
        }
    }

    /// `3 games shorter than 40 plies`, `3 games never at 20 empty squares`.
    pub(super) fn missed_by(self, games: u64) -> String {
        let games = super::counted(games, "game");
        match self {
            Cut::Ply(k) => format!("{games} shorter than {k} plies"),
            Cut::Empties(e) => format!("{games} never at {}", super::counted(u64::from(e), "empty square")),
        }
    }
}

/// The tags that state a game's result.
const RESULT_TAGS: [&str; 3] = ["result", "score", "outcome"];

/// A converted record: text ready to write (with the rules spec it lost, when the format could
/// not hold it), a game for the WTHOR writer, or an error.
enum Converted {
    /// The text, the rules spec it cannot name, whether it lost the record's komi, whether it
    /// lost the players, event or date the record names (a format with no place for them), and
    /// what else it left out ([`shape::left_out`]).
    Text(String, Option<String>, bool, bool, Vec<String>),
    Wthor(Box<WthorGame>),
    Failed(RecordError),
    /// Left out by the selection (and not converted).
    Refused,
    /// Ends before the point `--ply` or `--empties` cuts it at (and is left out).
    Short,
}

/// Runs `kifu convert`.
pub fn run(mut args: Args) -> anyhow::Result<Status> {
    let to = match (args.to, args.output.as_deref()) {
        (Some(to), _) => to,
        (None, Some(path)) if path.as_os_str() == "-" => {
            anyhow::bail!("-o - (stdout) has no name to say a format: give --to")
        }
        (None, Some(path)) => super::record_format_named(path)
            .with_context(|| format!("-o {}: its name does not say a format; give --to", path.display()))?,
        (None, None) => unreachable!("clap requires --to without -o"),
    };
    args.threads.apply()?;
    // The inputs that are the -o file: a WTHOR file is written whole at the end (atomically),
    // so it may be one, which is how games are added to it.
    let own: HashSet<String> = match args.output.as_deref() {
        Some(out) if to == Format::Wthor => args
            .input
            .inputs
            .iter()
            .filter(|i| records::same_file(i, out))
            .map(|i| i.to_string_lossy().into_owned())
            .collect(),
        _ => HashSet::new(),
    };
    if to == Format::Wthor {
        args.input.check_readable()?;
        // A base's file that is not an input is replaced, which is said.
        if let Some(path) = args.output.as_deref().filter(|_| args.base.is_some() && own.is_empty()) {
            warn_replaced(path);
        }
        // Its own games must all come back whole: nothing may leave them out or cut them.
        if let Some(path) = args.output.as_deref().filter(|_| !own.is_empty()) {
            let option = if args.select.chooses() {
                Some("--games or a selection")
            } else if args.ply.is_some() || args.empties.is_some() {
                Some("--ply or --empties")
            } else {
                None
            };
            if let Some(option) = option {
                anyhow::bail!(
                    "-o {} is also an input: {option} would leave out or cut its games; write elsewhere, then move it",
                    path.display()
                );
            }
        }
    } else {
        args.input.check(args.output.as_deref())?;
    }
    if to != Format::Wthor && (args.wthor_year.is_some() || args.wthor_depth.is_some()) {
        anyhow::bail!("--wthor-year and --wthor-depth are for --to wthor");
    }
    if let (Some(depth), Some(empties)) = (args.wthor_depth, args.theoretical)
        && u32::from(depth) != empties
    {
        anyhow::bail!(
            "--wthor-depth {depth} with --theoretical {empties}: the header's depth is that of the scores solved"
        );
    }
    let base = match &args.base {
        Some(_) if to != Format::Wthor => anyhow::bail!("--base is for --to wthor"),
        Some(dir) => Some(Base::open(dir)?),
        None => None,
    };
    let mut out = Output::open(args.output.as_deref())?;
    let mut sink = Sink::new(to, base);
    sink.header = (args.wthor_year, args.wthor_depth.or(args.theoretical.map(|e| e as u8)));
    sink.solving = args.theoretical.is_some();
    let progress = Progress::new(args.quiet, "converting");
    let (mut converted, mut failed, mut short, mut mismatched) = (0u64, 0u64, 0u64, 0u64);
    let cut = Cut::from_args(args.ply, args.empties);
    let plan = Plan { to, cut, results: args.results, theoretical: args.theoretical };
    let results = plan.results;
    let (selector, mut chooser) = args.select.build();
    // Reading stops after the last record `--games` asks for.
    args.input.records_wanted = chooser.numbers().read_up_to();
    let work = |source: &Source, raw: &RawRecord| convert(source, raw, plan, &selector);
    let (numbers, ahead) = (chooser.numbers(), chooser.judged_ahead());
    // Each result in input order, with its record's number.
    let mut take =
        |out: &mut Output, source: &Source, index: u64, result: Result<Done, RecordError>| -> anyhow::Result<()> {
            match source.header {
                Some(h) => {
                    sink.depth = sink.depth.or(Some(h.depth));
                    sink.depths.insert(h.depth);
                    sink.created.insert(h.created);
                }
                None => sink.not_wthor = true,
            }
            let (pick, done, mismatch) = result.unwrap_or_else(|e| (None, Converted::Failed(e), None));
            // The -o file's own games, when it is an input, all stay (`--unique` leaves out
            // only the other inputs' games that repeat an earlier one).
            if !chooser.keep_numbered(index, pick) {
                if !own.contains(source.name) {
                    return Ok(());
                }
                chooser.refused -= 1;
            }
            if let Some(e) = mismatch {
                progress.suspend(|| stderr!("{e}"));
                mismatched += 1;
            }
            match done {
                Converted::Refused => {}
                Converted::Short => short += 1,
                Converted::Failed(e) => {
                    progress.suspend(|| stderr!("{e}"));
                    failed += 1;
                }
                Converted::Text(text, lost, komi, unnamed, left) => {
                    sink.write_text(&text, out)?;
                    if let Some(spec) = lost {
                        sink.lost_rules.add(spec);
                    }
                    sink.komi_games += usize::from(komi);
                    sink.unnamed += usize::from(unnamed);
                    sink.count_left_out(left);
                    converted += 1;
                }
                Converted::Wthor(game) => {
                    sink.push_wthor(*game);
                    converted += 1;
                }
            }
            Ok(())
        };
    let problems = if plan.theoretical.is_some() {
        // Solving is slow: records one at a time to the free worker, those --games leaves out
        // passed over unread (and counted).
        let unnumbered = std::sync::atomic::AtomicU64::new(0);
        let wanted = |index: u64| {
            let wanted = numbers.contains(index) || index < ahead;
            unnumbered.fetch_add(u64::from(!wanted), std::sync::atomic::Ordering::Relaxed);
            wanted
        };
        let mut workers = vec![(); super::worker_threads(args.threads.threads)];
        let problems = records::for_each_ordered(
            &args.input,
            &mut workers,
            wanted,
            |_, s, index, r| {
                if numbers.contains(index) {
                    work(s, r)
                } else {
                    // Read for --unique only.
                    (selector.judge_only(s, r), Converted::Refused, None)
                }
            },
            |s, i, r| {
                progress.inc();
                take(&mut out, s, i, r)
            },
        )?;
        chooser.refused += unnumbered.into_inner();
        problems
    } else {
        // (What is written goes out whenever no record is ready: a record piped in alone is
        // answered at once.)
        let mut index = 0u64;
        records::for_each_to(&args.input, &progress, &mut out, work, |out, source, result| {
            index += 1;
            take(out, source, index - 1, result)
        })?
    };
    progress.finish();
    let damaged = problems.warn("kifu convert");
    // Rules given with --rules are known to the user; rules read from the records may be news.
    if args.input.rules.is_none() {
        sink.lost_rules.warn("kifu convert", to);
    }
    if sink.komi_games > 0 {
        stderr!(
            "kifu convert: warning: {} a komi, which {} cannot hold: the board's result is written (a finished \
                 game's winner may differ from the one after the komi)",
            games_have(sink.komi_games),
            to
        );
    }
    if sink.unnamed > 0 {
        stderr!(
            "kifu convert: warning: {} players, an event or a date, which {to} has no place for: they are left out \
             (pgn, ggf, sgf, kifu and json keep them)",
            counted_then(sink.unnamed, "record", ("names", "name"))
        );
    }
    if sink.left_records > 0 {
        let mut left: Vec<(&String, &usize)> = sink.left_out.iter().collect();
        left.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
        let left: Vec<String> = left.into_iter().map(|(what, n)| format!("{what} ({n})")).collect();
        let keeps =
            if to == Format::Wthor { " (WTHOR keeps the players, the event, the year and the result)" } else { "" };
        stderr!(
            "kifu convert: warning: {to} has no place for some of what {}{keeps}, left out (records): {}",
            counted_then(sink.left_records, "record", ("says", "say")),
            left.join(", ")
        );
    }
    // A run that converted nothing, every record failing, leaves no file (an existing one as it
    // was): an empty base would pass for the games.
    let to_file = args.output.as_deref().is_some_and(|o| o.as_os_str() != "-");
    // A WTHOR file that is also an input is replaced only when every record converts: the
    // others would be lost with it.
    if converted == 0 && failed + damaged > 0 && to_file {
        stderr!("kifu convert: nothing is written: no record converted");
    } else if !own.is_empty() && failed + damaged > 0 {
        stderr!(
            "kifu convert: nothing is written: -o {} is also an input, and records that do not convert would be \
             lost with it; write elsewhere",
            args.output.as_deref().map(|o| o.display().to_string()).unwrap_or_default()
        );
    } else {
        sink.finish(&mut out, args.output.as_deref())?;
        out.finish()?;
    }
    chooser.warn_past_the_end("kifu convert");
    if !args.quiet {
        let short = match (short, cut) {
            (0, _) | (_, None) => String::new(),
            (n, Some(cut)) => format!(", {}", cut.missed_by(n)),
        };
        let mismatched = match (mismatched, results) {
            (0, _) => String::new(),
            (n, Results::Stated) => format!(
                ", {} stating a result the board does not give (written as stated; `--results board` writes the \
                 board's)",
                super::counted(n, "record")
            ),
            (n, Results::Board) => format!(", {} written with the board's result", super::counted(n, "record")),
        };
        stderr!(
            "kifu convert: {} converted to {}, {failed} with errors{short}{mismatched}{}",
            super::counted(converted, "record"),
            to,
            chooser.summary()
        );
    }
    let wrong_results = if results == Results::Stated { mismatched } else { 0 };
    Ok(if failed + damaged + wrong_results > 0 { Status::SomeInvalid } else { Status::Ok })
}

/// Parses, judges (when records are selected), replays, shapes and (for text formats) writes
/// one record; with it, the error that a finished game's stated result is not the board's.
fn convert(source: &Source, raw: &RawRecord, plan: Plan, selector: &Selector) -> Done {
    let (mut record, rules) = match source.read(raw) {
        Ok(read) => read,
        Err(e) => return (None, Converted::Failed(e), None),
    };
    let pick = selector.pick_record(&record, &rules, source.format);
    if pick == Some(Pick::Refused) {
        return (pick, Converted::Refused, None);
    }
    // A cut game loses its result anyway.
    let mismatch = if plan.cut.is_none() { wrong_result(source, raw, &record, &rules) } else { None };
    if mismatch.is_some() && plan.results == Results::Board {
        record.tags.retain(|(k, _)| !RESULT_TAGS.iter().any(|t| k.eq_ignore_ascii_case(t)));
    }
    let converted = convert_read(source, raw, &record, rules, plan);
    let mismatch = mismatch.filter(|_| matches!(converted, Converted::Text(..) | Converted::Wthor(_)));
    (pick, converted, mismatch)
}

/// The error that `record`, a finished game, states a result its board does not give; `None`
/// when it states none, or the right one, or the game does not replay (reported as that).
fn wrong_result(source: &Source, raw: &RawRecord, record: &Record, rules: &Arc<Rules>) -> Option<RecordError> {
    let stated = RESULT_TAGS.iter().any(|t| record.tag(t).is_some());
    let check = stated.then(|| check::check(record, rules, source.format))?;
    (check.status == check::Status::ResultMismatch).then(|| source.problem(raw, &check)).flatten()
}

/// The record cut after the plies `cut` asks for (its result, which is the whole game's,
/// left out), or `None` when the game ends before.
pub(super) fn cut_record(resolved: &Resolved, cut: Cut) -> Option<Record> {
    let moves = &resolved.record.moves;
    let plies = match cut {
        Cut::Ply(k) => (k <= moves.len()).then_some(k)?,
        Cut::Empties(n) => {
            // Each placement fills one square; a pass fills none.
            let placements = resolved.start.empties().checked_sub(n)? as usize;
            let mut placed = 0;
            match placements {
                0 => 0,
                _ => {
                    let last = moves.iter().position(|t| {
                        placed += usize::from(t.mv != MoveSyntax::Pass);
                        placed == placements
                    })?;
                    last + 1
                }
            }
        }
    };
    let mut record = resolved.record.clone();
    record.moves.truncate(plies);
    record
        .tags
        .retain(|(k, _)| !["result", "score", "outcome", "theoretical"].iter().any(|t| k.eq_ignore_ascii_case(t)));
    Some(record)
}

/// The position a record's game reaches at `cut` (`--ply`, `--empties`); `None` for a game
/// that ends before.
pub(super) fn position_at(source: &Source, raw: &RawRecord, cut: Cut) -> Result<Option<Position>, RecordError> {
    let (record, rules) = source.read(raw)?;
    let resolve =
        |record: &Record| record.resolve(rules.clone()).map_err(|e| raw.error(source.name, e.span, e.message));
    let Some(cut) = cut_record(&resolve(&record)?, cut) else { return Ok(None) };
    Ok(Some(resolve(&cut)?.end))
}

/// Replays, cuts, shapes and (for text formats) writes a record that was read.
fn convert_read(source: &Source, raw: &RawRecord, record: &Record, rules: Arc<Rules>, plan: Plan) -> Converted {
    let Plan { to, cut, theoretical, .. } = plan;
    // A kifu grid's board no game under the rules reaches (a grid read the other way up, its
    // centre left empty) is no game to write, as `validate` says. (A PGN or GGF setup is a
    // start of its own: written back as it is.)
    if source.format == Format::Kifu
        && record.start.is_some()
        && let Ok(game) = record.game(rules.clone())
        && let Some(why) = game.start().unreachable()
    {
        let mut message = check::unreachable(&rules, why);
        records::add_suggestion(&mut message, check::check(record, &rules, source.format).suggestion);
        return Converted::Failed(raw.error(source.name, Span::default(), message));
    }
    let mut resolved = match record.resolve(rules.clone()) {
        Ok(r) => r,
        Err(e) => return Converted::Failed(raw.error(source.name, e.span, e.message)),
    };
    if let Some(empties) = theoretical {
        match perfect_play(&resolved, empties) {
            Ok(Some(margin)) => resolved.record.set_tag("theoretical", wthor::signed(margin)),
            Ok(None) => {}
            Err(why) => return Converted::Failed(raw.error(source.name, Span::default(), why)),
        }
    }
    if let Some(cut) = cut {
        let Some(record) = cut_record(&resolved, cut) else { return Converted::Short };
        resolved = match record.resolve(rules) {
            Ok(r) => r,
            Err(e) => return Converted::Failed(raw.error(source.name, e.span, e.message)),
        };
    }
    if source.format == Format::Logbook {
        shape::from_logbook(&mut resolved.record, &resolved.end);
    }
    let black = resolved.end.count(Color::Black);
    let unfinished = !resolved.end.is_game_over()
        && ["result", "outcome", "score"].iter().all(|tag| resolved.record.tag(tag).is_none());
    let variant = resolved.start.rules().variant().clone();
    let end = resolved.end.clone();
    // A winner stated without a margin (a win on time, `1-0`) is a WTHOR game of 64 discs to 0.
    let stated = ["result", "outcome"].iter().find_map(|tag| resolved.record.tag(tag));
    let no_margin = stated.and_then(|s| check::stated_result(s, 64)).is_some_and(|s| s.margin.is_none());
    let overruled = to == Format::Wthor && check::overruled_at(&resolved.record, &resolved.end);
    let record = match shape::for_format(resolved, to) {
        Ok(record) => record,
        Err(e) => return Converted::Failed(raw.error(source.name, Span::default(), e.to_string())),
    };
    if to != Format::Wthor {
        let text = format::write(to, &record);
        let lost = (!shape::rules_kept(&variant, to, &text)).then(|| variant.spec());
        let komi = shape::drops_komi(to) && shape::has_komi(&record);
        let mut left = shape::left_out(&record, &end, to, &text);
        // (What the warnings of names and komi tell already.)
        left.retain(|what| {
            !(drops_names(to) && ["black", "white", "event", "date"].contains(&what.as_str())
                || shape::drops_komi(to) && what == "komi")
        });
        return Converted::Text(text, lost, komi, drops_names(to) && names_someone(&record), left);
    }
    match wthor::write_game(&record, [0; 3], black as u8) {
        Ok(bytes) => {
            let mut game = WthorGame::new(&record, bytes);
            game.from_wthor = source.format == Format::Wthor;
            game.unfinished = unfinished;
            if no_margin {
                game.dropped.push("wins stated without a margin, stored as 64-0 or 0-64".to_owned());
            }
            if overruled {
                game.dropped.push(
                    "wins on time or by forfeit against a finished board's result (WTHOR keeps the score \
                     but not why: read back, the board's result counts)"
                        .to_owned(),
                );
            }
            Converted::Wthor(Box::new(game))
        }
        Err(message) => Converted::Failed(raw.error(source.name, Span::default(), message)),
    }
}

/// What a worker gives back for a record: what the selection needs to judge it, the record
/// converted, and the error that its stated result is not the board's.
type Done = (Option<Pick>, Converted, Option<RecordError>);

/// What `kifu convert` does to each record: the format, the cut, the results written, the
/// theoretical scores solved.
#[derive(Clone, Copy)]
struct Plan {
    to: Format,
    cut: Option<Cut>,
    results: Results,
    theoretical: Option<u32>,
}

/// Black's margin under perfect play from the game's first position with `empties` empty
/// squares, solved exactly; the final margin of a game over before; `None` for a game
/// unfinished before it. An error for rules the solver does not play.
fn perfect_play(resolved: &Resolved, empties: u32) -> Result<Option<i32>, String> {
    if resolved.end.empties() > empties {
        return Ok(resolved.end.outcome().map(|o| o.score(Color::Black)));
    }
    let at = cut_record(resolved, Cut::Empties(empties)).and_then(|r| r.resolve(resolved.start.rules().clone()).ok());
    let position = at.map_or_else(|| resolved.start.clone(), |r| r.end);
    if Solver::counting_for(&position) != Some(Counting::EmptiesToWinner) {
        return Err(format!(
            "--theoretical: the solver plays standard Othello only, not {}",
            position.rules().variant().spec()
        ));
    }
    let solution = super::train::with_solver(64, |solver| solver.solve(&position))
        .ok_or_else(|| "--theoretical: the position could not be solved".to_owned())?;
    let mover = position.side_to_move();
    Ok(Some(if mover == Color::Black { solution.score } else { -solution.score }))
}

/// Writes records in the target format: text as it comes, WTHOR games gathered until the
/// header (which counts them) can be written.
struct Sink {
    to: Format,
    written: usize,
    depth: Option<u8>,
    /// The depths of the WTHOR inputs' headers.
    depths: std::collections::BTreeSet<u8>,
    /// The creation dates of the WTHOR inputs' headers.
    created: std::collections::BTreeSet<(u16, u8, u8)>,
    /// Whether a record came from another format than WTHOR.
    not_wthor: bool,
    /// `--wthor-year` and `--wthor-depth`.
    header: (Option<u16>, Option<u8>),
    /// Games with no theoretical score, and games with one from no WTHOR file.
    unscored: usize,
    scored_elsewhere: usize,
    /// Games whose theoretical score is their WTHOR input's (not solved again).
    scored_in_wthor: usize,
    /// Whether the theoretical scores are solved (`--theoretical`).
    solving: bool,
    /// Games with a komi, stored with their board's result.
    komi_games: usize,
    /// Games not over that state no result, stored with their discs as they stand.
    unfinished: usize,
    /// Records whose players, event or date the format has no place for ([`drops_names`]).
    unnamed: usize,
    /// Records that lose something else ([`shape::left_out`]).
    left_records: usize,
    /// What they lose, with how many records lose it.
    left_out: std::collections::BTreeMap<String, usize>,
    /// Games that name a player or their tournament only by a WTHOR number (read without the
    /// names files), which means nothing once the ids are not kept.
    numbered_only: usize,
    games: Vec<[u8; wthor::RECORD_LEN]>,
    kept_ids: Vec<Option<[u16; 3]>>,
    new_ids: Vec<[u16; 3]>,
    players: Names,
    tournaments: Names,
    /// The base whose names the output extends (`--base`).
    base: Option<Base>,
    year: u16,
    /// Every year the games name (a WTHOR file holds one).
    years: std::collections::BTreeSet<u16>,
    /// The records written without their rules (the format has no place for them).
    lost_rules: LostRules,
}

/// Records written in a format that cannot name their rules, counted by rules spec.
#[derive(Default)]
pub(super) struct LostRules(std::collections::BTreeMap<String, u64>);

impl LostRules {
    /// Counts a record of the rules `spec` written without them.
    pub(super) fn add(&mut self, spec: String) {
        *self.0.entry(spec).or_default() += 1;
    }

    /// Warns, as `command`, of the records written to `to` without their rules: read back, they
    /// replay under other rules unless `--rules` gives theirs again.
    pub(super) fn warn(&self, command: &str, to: Format) {
        let records: u64 = self.0.values().sum();
        if records == 0 {
            return;
        }
        let specs: Vec<&str> = self.0.keys().map(String::as_str).collect();
        let how = match specs.as_slice() {
            [spec] => format!("read {} back with --rules {spec}", if records == 1 { "it" } else { "them" }),
            _ => format!("read each back with its --rules ({})", specs.join("; ")),
        };
        stderr!("{command}: warning: {} of other rules than {to} can name: {how}", super::counted(records, "record"));
    }
}

/// A game encoded for WTHOR, with what the database files need to number it.
struct WthorGame {
    bytes: [u8; wthor::RECORD_LEN],
    ids: Option<[u16; 3]>,
    event: Option<String>,
    black: Option<String>,
    white: Option<String>,
    year: u16,
    /// Whether the record states a theoretical score (else its real result stands for one).
    theoretical: bool,
    /// Whether it was read from a WTHOR file (whose header says the scores' depth).
    from_wthor: bool,
    /// Whether the record has a komi (which WTHOR cannot hold).
    komi: bool,
    /// Whether the game is not over and states no result (stored as its discs as they stand).
    unfinished: bool,
    /// What the record says that WTHOR cannot hold ([`more_than_wthor`]).
    dropped: Vec<String>,
}

/// Whether `to` writes games but has no place for their players, event and date: a transcript
/// line, the logbook. (A board or OBF line is a position, whose game no one expects to keep.)
fn drops_names(to: Format) -> bool {
    matches!(to, Format::Transcript | Format::Logbook)
}

/// Whether a record names a player, its event or its date (placeholders such as `?` name none).
fn names_someone(record: &Record) -> bool {
    ["black", "white", "event", "date"]
        .iter()
        .any(|tag| record.tag(tag).is_some_and(|v| !v.trim().is_empty() && !v.trim().chars().all(|c| c == '?')))
}

/// What a record says that a WTHOR game cannot hold: its tags but the players, the event, the
/// date's year, the result, the theoretical score, the WTHOR ids and the rules (placeholders
/// such as `?` and `-` say nothing), a date's month and day, and its moves' comments,
/// evaluations and times.
fn more_than_wthor(record: &Record) -> Vec<String> {
    const KEPT: [&str; 12] = [
        "black",
        "white",
        "event",
        "date",
        "result",
        "outcome",
        "score",
        "theoretical",
        "rules",
        "wthor_tournament",
        "wthor_black",
        "wthor_white",
    ];
    let mut lost: Vec<String> = Vec::new();
    for (tag, value) in &record.tags {
        // (A komi has a warning of its own.)
        if shape::says_something(value) && !KEPT.contains(&tag.as_str()) && tag != "komi" && !lost.contains(tag) {
            lost.push(tag.clone());
        }
    }
    if record.tag("date").is_some_and(|d| {
        let digits = d.chars().filter(char::is_ascii_digit).count();
        digits > 4 && d.chars().filter(|c| *c == '?').count() < 2
    }) {
        lost.push("the date's month and day".to_owned());
    }
    lost.extend(shape::move_notes(record).into_iter().filter(|&(_, n)| n > 0).map(|(what, _)| what.to_owned()));
    lost
}

impl WthorGame {
    fn new(record: &Record, bytes: [u8; wthor::RECORD_LEN]) -> WthorGame {
        let id = |tag: &str| record.tag(tag).and_then(|v| v.parse::<u16>().ok());
        let ids = match (id("wthor_tournament"), id("wthor_black"), id("wthor_white")) {
            (Some(t), Some(b), Some(w)) => Some([t, b, w]),
            _ => None,
        };
        let name = |tag: &str| record.tag(tag).map(str::to_owned);
        WthorGame {
            bytes,
            ids,
            event: name("event"),
            black: name("black"),
            white: name("white"),
            // Any date form kifu reads (`2004.05.01`, GGS's seconds since 1970, ...).
            year: record.tag("date").and_then(crate::stats::year).unwrap_or(0),
            theoretical: record.tag("theoretical").is_some(),
            from_wthor: false,
            komi: crate::notation::shape::has_komi(record),
            unfinished: false,
            dropped: more_than_wthor(record),
        }
    }
}

/// Names numbered in order of first appearance, after id 0: WTHOR's unknown, `???` in its
/// names files, for a record that names nobody (or `?`). Names are told apart as the names
/// file will store them ([`wthor::stored_name`]).
struct Names {
    /// The field width in the names file.
    width: usize,
    /// Ids by name as stored, the first of equal names.
    ids: HashMap<String, u16>,
    /// Ids by [`name_key`], the first of names equal but for their case.
    folded: HashMap<String, u16>,
    /// Every name by id, as stored.
    list: Vec<String>,
    /// Names a base already had: the first ids.
    known: usize,
    /// The names of the records ([`crate::notation::tidy_name`]), each once, with how it is
    /// stored.
    written: Vec<(String, String)>,
    /// Names of the records taken as a name of another case that came first (the base's, or
    /// an earlier record's), each once, with that name's id.
    recased: Vec<(String, u16)>,
}

/// The key that tells names apart: their case does not count (`tastet marc` is `Tastet Marc`,
/// as `kifu stats` counts players).
fn name_key(stored: &str) -> String {
    stored.to_lowercase()
}

impl Names {
    /// No names yet but the unknown one.
    fn new(width: usize) -> Names {
        Names::with(width, vec!["???".into()])
    }

    /// The names of a base's names file, which keep their ids.
    fn with(width: usize, list: Vec<String>) -> Names {
        let mut ids = HashMap::from([(String::new(), 0), ("?".into(), 0), ("???".into(), 0)]);
        let mut folded = HashMap::new();
        for (id, name) in list.iter().enumerate().rev() {
            ids.insert(name.clone(), id as u16);
            folded.insert(name_key(name), id as u16);
        }
        Names { width, ids, folded, known: list.len(), list, written: Vec::new(), recased: Vec::new() }
    }

    fn id(&mut self, name: Option<&str>) -> u16 {
        // One name however it was spaced or its accents typed, as everywhere else.
        let written = crate::notation::tidy_name(name.unwrap_or(""));
        let stored = wthor::stored_name(&written, self.width);
        if !matches!(written.as_str(), "" | "?" | "???") && !self.written.iter().any(|(w, _)| *w == written) {
            self.written.push((written, stored.clone()));
        }
        if no_one(&stored) {
            return 0;
        }
        // The name itself first (a base holding two names that differ only by case keeps
        // both numbers), else one in another case.
        if let Some(&id) = self.ids.get(&stored) {
            return id;
        }
        if let Some(&id) = self.folded.get(&name_key(&stored)) {
            if !self.recased.iter().any(|(w, _)| *w == stored) {
                self.recased.push((stored, id));
            }
            return id;
        }
        let id = self.list.len() as u16;
        self.ids.insert(stored.clone(), id);
        self.folded.insert(name_key(&stored), id);
        self.list.push(stored);
        id
    }

    /// Warns of the names stored otherwise than the records have them (cut to the field,
    /// characters Latin-1 lacks; the names are tidied first, so accents typed as combining
    /// marks, stored composed, lose nothing), of names that became one: two of the records', or one of them and
    /// another name of the base, and of new names that are a base's name in another word order.
    fn warn(&self, what: &str) {
        let lossy = |written: &str, stored: &str| stored != written;
        // Why names are stored otherwise: cut, or characters Windows-1252 lacks.
        let why = |group: &[&str]| {
            let composed: Vec<String> = group.iter().map(|w| crate::notation::compose_accents(w)).collect();
            let replaced = composed.iter().any(|w| w.chars().any(|c| wthor::cp1252_byte(c).is_none()));
            let cut = composed.iter().any(|w| w.chars().count() > self.width - 1);
            let keeps = format!("a WTHOR names file keeps {} bytes", self.width - 1);
            let only = "Western European letters only, as Windows-1252 has them";
            match (cut, replaced) {
                (true, true) => format!("{keeps}, {only}"),
                (false, true) => format!("a WTHOR names file holds {only}"),
                _ => keeps,
            }
        };
        let mut done: Vec<&str> = Vec::new();
        for (written, stored) in &self.written {
            if done.contains(&stored.as_str()) {
                continue;
            }
            done.push(stored);
            let group: Vec<&str> = self.written.iter().filter(|(_, s)| s == stored).map(|(w, _)| w.as_str()).collect();
            let shown: Vec<String> = group.iter().map(|w| format!("`{}`", crate::notation::printable(w))).collect();
            // A base's name that a cut or replaced name of the records now stands for.
            let base = self.ids.get(stored).filter(|&&id| usize::from(id) < self.known && id > 0);
            let base = base.filter(|_| group.iter().any(|w| lossy(w, stored)));
            // A name Latin-1 has none of: stored as WTHOR's unknown player, no one.
            if no_one(stored) {
                let (whom, verb) = if group.len() == 1 { (what.to_owned(), "is") } else { (format!("{what}s"), "are") };
                stderr!(
                    "kifu convert: warning: the {whom} {} {verb} stored as `???`, WTHOR's unknown {what}: no one in the file",
                    shown.join(", ")
                );
                continue;
            }
            let keeps = why(&group);
            let line = match (shown.as_slice(), base) {
                ([one], None) if lossy(written, stored) => {
                    format!("the {what} {one} is stored as `{stored}` ({keeps})")
                }
                ([one], Some(id)) => format!(
                    "the {what} {one} is stored as `{stored}` ({keeps}), the name of {what} #{id} of the base: one \
                     {what} in the file"
                ),
                ([_], None) => continue,
                (many, base) => format!(
                    "the {what}s {} are all stored as `{stored}` ({keeps}){}: one {what} in the file",
                    many.join(", "),
                    base.map_or(String::new(), |id| format!(", the name of {what} #{id} of the base"))
                ),
            };
            stderr!("kifu convert: warning: {line}");
        }
        for (name, id) in &self.recased {
            let of_base = if usize::from(*id) < self.known { " of the base" } else { "" };
            stderr!(
                "kifu convert: warning: the {what} `{}` is stored as `{}` (#{id}{of_base}), the same name in \
                 another case: one {what} in the file",
                crate::notation::printable(name),
                crate::notation::printable(&self.list[usize::from(*id)])
            );
        }
        // A new name that is a base's name in another order (`Marc Tastet` where the base
        // has `Tastet Marc`, WTHOR's files writing the surname first): likely one person;
        // every such name of the base is named, the oldest first.
        if self.known > 1 {
            let mut base: HashMap<Vec<String>, Vec<(usize, &String)>> = HashMap::new();
            for (i, name) in self.list[1..self.known].iter().enumerate() {
                base.entry(crate::stats::standings::name_words(name)).or_default().push((i + 1, name));
            }
            for name in &self.list[self.known..] {
                let words = crate::stats::standings::name_words(name);
                // A tournament named with its year (`Championnat de France 2022`, or cut to
                // `... 202`): WTHOR's names leave the year out, the file's header having it.
                // (As written too: a cut may have taken the end of a name that began with one.)
                let as_written = self.written.iter().filter(|(_, stored)| stored == name).map(|(w, _)| w.as_str());
                let with_year = || {
                    std::iter::once(name.as_str()).chain(as_written).filter_map(without_year).find_map(|plain| {
                        base.get(&crate::stats::standings::name_words(&plain)).and_then(|known| known.first())
                    })
                };
                if what == "tournament"
                    && !base.contains_key(&words)
                    && let Some(&(id, known)) = with_year()
                {
                    stderr!(
                        "kifu convert: warning: the tournament `{}` is new to the base, which has `{}` (#{id}): the \
                         same tournament with its year? (WTHOR's tournament names leave the year out: the file's \
                         header holds it)",
                        crate::notation::printable(name),
                        crate::notation::printable(known)
                    );
                    continue;
                }
                if let Some(&[(id, known), ref others @ ..]) = base.get(&words).map(Vec::as_slice) {
                    // The words in order, for telling another order from another spelling.
                    let words = |n: &str| -> Vec<String> {
                        let plain = crate::notation::without_accents(n).to_lowercase();
                        plain
                            .split(|c: char| !c.is_alphanumeric())
                            .filter(|w| !w.is_empty())
                            .map(str::to_owned)
                            .collect()
                    };
                    let how = if words(name) == words(known) {
                        "written another way (accents or punctuation)".to_owned()
                    } else {
                        let why = if what == "player" { " (WTHOR's files write the surname first)" } else { "" };
                        format!("with the words in another order{why}")
                    };
                    let also: String =
                        others.iter().map(|(id, n)| format!(", `{}` (#{id})", crate::notation::printable(n))).collect();
                    stderr!(
                        "kifu convert: warning: the {what} `{}` is new to the base, which has `{}` (#{id}){also}: one \
                         {what} {how}?",
                        crate::notation::printable(name),
                        crate::notation::printable(known)
                    );
                }
            }
        }
    }
}

/// Warns that the WTHOR file at `path`, if there is one, is replaced by this run's games.
fn warn_replaced(path: &Path) {
    let mut header = [0u8; wthor::HEADER_LEN];
    let read = std::fs::File::open(path).and_then(|mut f| std::io::Read::read_exact(&mut f, &mut header));
    let length = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    let games = wthor::Header::parse(&header).games;
    // (A file of another kind, or gzipped, is not counted.)
    if read.is_ok() && length == (wthor::HEADER_LEN + wthor::RECORD_LEN * games as usize) as u64 {
        stderr!(
            "kifu convert: warning: -o {} holds {}, which this run replaces (to add games to a WTHOR file, give it \
             as an input too)",
            crate::notation::printable(&path.display().to_string()),
            super::counted(u64::from(games), "game")
        );
    }
}

/// A tournament's name without the year it begins or ends with (`2022 Open`, `Open 2022`, or
/// the `202` a cut left of it), if it has one.
fn without_year(name: &str) -> Option<String> {
    let words: Vec<&str> = name.split_whitespace().collect();
    let digits = |w: &str, lengths: std::ops::RangeInclusive<usize>| {
        lengths.contains(&w.len()) && w.bytes().all(|b| b.is_ascii_digit())
    };
    let (first, last) = (words.first()?, words.last()?);
    let kept = if words.len() > 1 && digits(last, 2..=4) {
        &words[..words.len() - 1]
    } else if words.len() > 1 && digits(first, 4..=4) {
        &words[1..]
    } else {
        return None;
    };
    Some(kept.join(" "))
}

/// Whether a name as a names file stores it has nothing left but `?` (a name Latin-1 has
/// none of the characters of, `山田 太郎`): WTHOR's unknown, id 0, rather than one made-up
/// name every such name of its length would share.
fn no_one(stored: &str) -> bool {
    stored.chars().all(|c| c == '?' || c.is_whitespace())
}

/// `1 game has`, `5 games have`.
fn games_have(n: usize) -> String {
    counted_then(n, "game", ("has", "have"))
}

/// `n` and a noun (in the plural but for one), then a verb agreeing with it (`(one, many)`):
/// `1 game has`, `2 records name`.
fn counted_then(n: usize, noun: &str, (one, many): (&str, &str)) -> String {
    format!("{} {}", super::counted(n as u64, noun), if n == 1 { one } else { many })
}

/// A WTHOR base's names files (`--base`), which the output's names extend.
struct Base {
    /// The players' and the tournaments' files: where they are, their bytes and their names.
    files: [(PathBuf, Vec<u8>, Vec<String>); 2],
}

/// The names files of a WTHOR base, with their field widths.
const BASE_FILES: [(&str, usize); 2] = [("WTHOR.JOU", wthor::PLAYER_LEN), ("WTHOR.TRN", wthor::TOURNAMENT_LEN)];

impl Base {
    /// The names files of the base in `dir` (their names in any case, as reading finds them).
    fn open(dir: &Path) -> anyhow::Result<Base> {
        let read = |(name, width): (&str, usize)| -> anyhow::Result<(PathBuf, Vec<u8>, Vec<String>)> {
            let path =
                records::find_any_case(dir, name).with_context(|| format!("--base: no {name} in {}", dir.display()))?;
            let bytes = std::fs::read(&path).with_context(|| format!("--base: cannot read {}", path.display()))?;
            let names = wthor::parse_names(&bytes, width).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            Ok((path, bytes, names))
        };
        Ok(Base { files: [read(BASE_FILES[0])?, read(BASE_FILES[1])?] })
    }

    /// Rewrites each names file that `names` (the players', the tournaments') has added to:
    /// its bytes as they were, the count in its header, the new names after.
    fn extend(&self, names: [&Names; 2], created: (u16, u8, u8)) -> anyhow::Result<()> {
        for ((path, bytes, _), names) in self.files.iter().zip(names) {
            if names.list.len() == names.known {
                continue;
            }
            let mut header = wthor::Header::parse(bytes[..wthor::HEADER_LEN].try_into().expect("read whole"));
            header.names = names.list.len() as u16;
            header.created = created;
            let mut out = Output::open(Some(path))?;
            out.write_all(&header.to_bytes())?;
            out.write_all(&bytes[wthor::HEADER_LEN..])?;
            for name in &names.list[names.known..] {
                out.write_all(&wthor::encode_name(name, names.width))?;
            }
            out.finish()?;
        }
        Ok(())
    }
}

impl Sink {
    fn new(to: Format, base: Option<Base>) -> Sink {
        let names = |i: usize| match &base {
            Some(base) => Names::with(BASE_FILES[i].1, base.files[i].2.clone()),
            None => Names::new(BASE_FILES[i].1),
        };
        Sink {
            to,
            written: 0,
            depth: None,
            depths: std::collections::BTreeSet::new(),
            created: std::collections::BTreeSet::new(),
            not_wthor: false,
            header: (None, None),
            unscored: 0,
            scored_elsewhere: 0,
            scored_in_wthor: 0,
            solving: false,
            komi_games: 0,
            unfinished: 0,
            numbered_only: 0,
            unnamed: 0,
            left_records: 0,
            left_out: std::collections::BTreeMap::new(),
            games: Vec::new(),
            kept_ids: Vec::new(),
            new_ids: Vec::new(),
            players: names(0),
            tournaments: names(1),
            base,
            year: 0,
            years: std::collections::BTreeSet::new(),
            lost_rules: LostRules::default(),
        }
    }

    /// Settles the header's year and depth (`--wthor-year`, `--wthor-depth`, else from the games
    /// and the WTHOR inputs), warning where they cannot be trusted.
    fn header_facts(&mut self, target: Option<&Path>) {
        let warn = |line: String| stderr!("kifu convert: warning: {line}");
        if let Some(year) = self.header.0 {
            self.year = year;
        } else if self.year == 0 && !self.games.is_empty() {
            // A year in the output's name (`WTH_2024.wtb`), as the federation names its files.
            let named = target.and_then(Path::file_stem).map(|s| s.to_string_lossy().into_owned()).and_then(|stem| {
                let digits: Vec<&str> = stem.split(|c: char| !c.is_ascii_digit()).filter(|d| d.len() == 4).collect();
                digits.first().and_then(|d| d.parse::<u16>().ok()).filter(|y| (1900..=2999).contains(y))
            });
            match named {
                Some(year) => self.year = year,
                None => warn(
                    "no game says its year, and the header's year is 0 (WTHOR's readers file the games under it): \
                     give --wthor-year"
                        .to_owned(),
                ),
            }
        }
        let given = self.header.1;
        let depth = given.or(self.depth).unwrap_or(0);
        self.depth = Some(depth);
        let whose = if given.is_some() { "given" } else { "the WTHOR input's" };
        if self.unfinished > 0 {
            warn(format!(
                "{}: WTHOR has no such result, and stores black's discs as they stand, which read back as a \
                 finished game's count (black's discs against the rest of the board: 3-3 becomes a 3-61 win \
                 for white)",
                if self.unfinished == 1 {
                    "1 game is not over and states no result".to_owned()
                } else {
                    format!("{} games are not over and state no result", self.unfinished)
                }
            ));
        }
        if depth > 0 && self.unscored > 0 {
            warn(format!(
                "{} no theoretical score: the real result is stored as one, though the header's depth \
                 byte, {depth} ({whose}), says perfect play from {depth} empty squares{}",
                games_have(self.unscored),
                if given.is_some() { "" } else { " (--wthor-depth sets it)" }
            ));
        }
        if let Some(given) = given {
            // Scores kept from WTHOR inputs of another depth are not of the depth the header
            // now gives.
            let others: Vec<String> = self.depths.iter().filter(|&&d| d != given).map(u8::to_string).collect();
            if !self.solving && self.scored_in_wthor > 0 && !others.is_empty() {
                warn(format!(
                    "--wthor-depth {given}: {} the theoretical score of a WTHOR input of depth {}, which the header \
                     now says is of depth {given} (--theoretical {given} solves them at that depth)",
                    games_have(self.scored_in_wthor),
                    others.join(", ")
                ));
            }
            return;
        }
        if self.depths.len() > 1 {
            let depths: Vec<String> = self.depths.iter().map(u8::to_string).collect();
            warn(format!(
                "the WTHOR inputs' theoretical scores are of depths {}: the header says {depth}, the first's \
                 (--wthor-depth sets it)",
                depths.join(", ")
            ));
        }
        if depth == 0 && self.scored_elsewhere > 0 {
            warn(format!(
                "{} a theoretical score from no WTHOR file, of a depth kifu cannot know: the header's depth byte \
                 is 0 (--wthor-depth gives it: that of the base the scores came from)",
                games_have(self.scored_elsewhere)
            ));
        }
    }

    /// Writes one text record (multi-line formats get a blank line between records).
    fn write_text(&mut self, text: &str, out: &mut Output) -> anyhow::Result<()> {
        if self.written > 0 && self.to.is_multiline() {
            out.write_all(b"\n")?;
        }
        out.write_all(text.as_bytes())?;
        out.write_all(b"\n")?;
        self.written += 1;
        Ok(())
    }

    /// Counts a record's losses ([`shape::left_out`], [`more_than_wthor`]) for the warning.
    fn count_left_out(&mut self, left: Vec<String>) {
        self.left_records += usize::from(!left.is_empty());
        for what in left {
            *self.left_out.entry(what).or_default() += 1;
        }
    }

    fn push_wthor(&mut self, game: WthorGame) {
        let new = [
            self.tournaments.id(game.event.as_deref()),
            self.players.id(game.black.as_deref()),
            self.players.id(game.white.as_deref()),
        ];
        if self.year == 0 {
            self.year = game.year;
        }
        if game.year != 0 {
            self.years.insert(game.year);
        }
        self.unscored += usize::from(!game.theoretical);
        self.scored_elsewhere += usize::from(game.theoretical && !game.from_wthor);
        self.scored_in_wthor += usize::from(game.theoretical && game.from_wthor);
        self.komi_games += usize::from(game.komi);
        self.count_left_out(game.dropped);
        self.unfinished += usize::from(game.unfinished);
        if let Some(ids) = game.ids {
            let names = [&game.event, &game.black, &game.white];
            self.numbered_only += usize::from(ids.iter().zip(names).any(|(&id, name)| id != 0 && name.is_none()));
        }
        self.games.push(game.bytes);
        self.kept_ids.push(game.ids);
        self.new_ids.push(new);
    }

    fn finish(&mut self, out: &mut Output, target: Option<&Path>) -> anyhow::Result<()> {
        if self.to != Format::Wthor {
            return Ok(());
        }
        self.header_facts(target);
        let years: Vec<String> = self.years.iter().map(u16::to_string).collect();
        if self.header.0.is_some() && self.years.iter().any(|&y| y != self.year) {
            stderr!(
                "kifu convert: warning: the header says {} (--wthor-year), and the games are of {}",
                self.year,
                years.join(", ")
            );
        } else if self.years.len() > 1 {
            stderr!(
                "kifu convert: warning: the games are of {} years ({}), and a WTHOR file names one: {} is written",
                years.len(),
                years.join(", "),
                self.year
            );
        }
        // A base numbers every game by its names; ids from another base mean nothing there.
        let keep = self.base.is_none() && self.kept_ids.iter().all(Option::is_some);
        if !keep && self.numbered_only > 0 {
            stderr!(
                "kifu convert: warning: {} a player or tournament by its WTHOR number alone (its base was read \
                 without names files), which {}: stored as unknown; read that base with --players and --tournaments \
                 to keep the names",
                counted_then(self.numbered_only, "game", ("names", "name")),
                if self.base.is_some() {
                    "means nothing in the --base"
                } else {
                    "these records' new numbering cannot keep"
                }
            );
        }
        let named = self.players.list.iter().chain(&self.tournaments.list).any(|n| n != "???");
        // Checked before a byte is written: no database without its names.
        let names_beside = match target.filter(|p| p.as_os_str() != "-") {
            _ if !named || self.base.is_some() => None,
            Some(target) => Some(target),
            // The ids stand for the names of the base the records came from.
            None if keep => {
                stderr!(
                    "kifu convert: warning: the games keep the WTHOR ids their records carry, and their names go to \
                     no file on stdout: they read back with the names files of the base they came from (-o FILE.wtb \
                     writes FILE.JOU and FILE.TRN)"
                );
                None
            }
            None => anyhow::bail!(
                "--to wthor: these records carry names but no WTHOR ids, so names files are written beside \
                 the output; give -o FILE.wtb (nothing was written)"
            ),
        };
        // The base's names, which every WTHOR file of the folder reads (found in any case).
        let dir = names_beside.and_then(Path::parent).unwrap_or(Path::new(""));
        if let Some(target) = names_beside
            && names_file(target, "").file_stem().is_some_and(|s| s.eq_ignore_ascii_case("wthor"))
            && let Some(found) = BASE_FILES.iter().find_map(|(file, _)| records::find_any_case(dir, file))
        {
            anyhow::bail!(
                "--to wthor: -o {} would write names files beside {}, the names every WTHOR file of that folder \
                 reads; add the games to that base with --base {} (its names keep their numbers), or name the \
                 output otherwise, as WTH_{}.wtb (nothing was written)",
                target.display(),
                found.display(),
                if dir.as_os_str().is_empty() { Path::new(".") } else { dir }.display(),
                if self.year == 0 { "YEAR".to_owned() } else { self.year.to_string() }
            );
        }
        if [&self.players, &self.tournaments].iter().any(|n| n.list.len() > usize::from(u16::MAX)) {
            anyhow::bail!("--to wthor: more than 65,535 players or tournaments (nothing was written)");
        }
        if !keep || names_beside.is_some() {
            self.players.warn("player");
            self.tournaments.warn("tournament");
        }
        // Kept ids get the names the records give them, at those ids.
        let lists = if keep {
            [self.kept_names(&[1, 2], "player"), self.kept_names(&[0], "tournament")]
        } else {
            [self.players.list.clone(), self.tournaments.list.clone()]
        };
        // WTHOR games from WTHOR files of one date keep it (a database written back is the same
        // bytes), unless the header's depth changes; anything else is made today.
        let same_depth = self.depths.iter().all(|&d| Some(d) == self.depth);
        let created = match (self.not_wthor, self.created.len()) {
            (false, 1) if same_depth => self.created.first().copied().unwrap_or_else(today),
            _ => today(),
        };
        let header = wthor::Header {
            created,
            games: self.games.len() as u32,
            names: 0,
            year: self.year,
            board_size: 8,
            kind: 0,
            depth: self.depth.unwrap_or(0),
        };
        out.write_all(&header.to_bytes())?;
        for (i, game) in self.games.iter_mut().enumerate() {
            let ids = if keep { self.kept_ids[i].expect("checked") } else { self.new_ids[i] };
            for (k, id) in ids.iter().enumerate() {
                game[2 * k..2 * k + 2].copy_from_slice(&id.to_le_bytes());
            }
            out.write_all(game)?;
        }
        if let Some(target) = names_beside {
            for (ext, names, width) in
                [("JOU", &lists[0], wthor::PLAYER_LEN), ("TRN", &lists[1], wthor::TOURNAMENT_LEN)]
            {
                let mut file = Output::open(Some(&names_file(target, ext)))?;
                file.write_all(&wthor::write_names(names, width, today()))?;
                file.finish()?;
            }
        }
        if let Some(base) = &self.base {
            base.extend([&self.players, &self.tournaments], today())?;
        }
        Ok(())
    }
}

impl Sink {
    /// The names the records give the WTHOR ids they keep, by id, for the games' fields
    /// `fields` (0 the tournament, 1 and 2 the players): as stored, empty for an id no record
    /// names, `???` at 0 unless a record names it. An id named two ways is warned of, and stored
    /// as first named.
    fn kept_names(&self, fields: &[usize], what: &str) -> Vec<String> {
        let list = |field: usize| if field == 0 { &self.tournaments.list } else { &self.players.list };
        let mut names: Vec<String> = vec!["???".into()];
        let mut warned: Vec<usize> = Vec::new();
        for (kept, new) in self.kept_ids.iter().zip(&self.new_ids) {
            let Some(kept) = kept else { continue };
            for &field in fields {
                let (id, name) = (usize::from(kept[field]), &list(field)[usize::from(new[field])]);
                if names.len() <= id {
                    names.resize(id + 1, String::new());
                }
                if name == "???" {
                    continue;
                }
                // (Id 0 is `???` until a record names it: WTHOR.TRN calls it `Diverses parties`.)
                if names[id].is_empty() || (id == 0 && names[0] == "???") {
                    names[id].clone_from(name);
                } else if names[id] != *name && !warned.contains(&id) {
                    warned.push(id);
                    stderr!(
                        "kifu convert: warning: the {what} of WTHOR id {id} is named both `{}` and `{}` by the records; \
                         the names file stores `{}`",
                        crate::notation::printable(&names[id]),
                        crate::notation::printable(name),
                        crate::notation::printable(&names[id])
                    );
                }
            }
        }
        names
    }
}

/// The names file with extension `ext` beside a WTHOR output: `club.JOU` for `club.wtb`, and
/// for `club.wtb.gz` too, as reading looks for it.
fn names_file(target: &Path, ext: &str) -> PathBuf {
    let name = target.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let name = name.strip_suffix(".gz").or_else(|| name.strip_suffix(".GZ")).unwrap_or(name);
    target.with_file_name(name).with_extension(ext)
}

/// Today's date (UTC) as year, month, day.
fn today() -> (u16, u8, u8) {
    let days = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() / 86_400);
    crate::notation::civil_date(days)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name keeps its own number; another case takes the first name equal but for its case.
    #[test]
    fn names_match_exactly_first_then_whatever_their_case() {
        let base = ["???", "Tastet Marc", "WILLIAM JOANNA", "William Joanna"].map(str::to_owned).to_vec();
        let mut names = Names::with(wthor::PLAYER_LEN, base);
        assert_eq!(names.id(Some("William Joanna")), 3);
        assert_eq!(names.id(Some("WILLIAM JOANNA")), 2);
        assert_eq!(names.id(Some("william joanna")), 2);
        assert_eq!(names.id(Some("tastet MARC")), 1);
        assert_eq!(names.id(Some("Ann Lee")), 4);
        assert_eq!(names.id(Some("ANN LEE")), 4);
        assert_eq!(names.list.len(), 5);
        let recased: Vec<u16> = names.recased.iter().map(|(_, id)| *id).collect();
        assert_eq!(recased, [2, 1, 4]);
    }

    /// A WTHOR game's year comes from any date form kifu reads: GGS writes seconds since 1970.
    #[test]
    fn wthor_years_from_any_date() {
        for (date, year) in [("940607137", 1999), ("2004.05.01", 2004), ("1977", 1977), ("?", 0)] {
            let record = Record { tags: vec![("date".into(), date.into())], ..Record::default() };
            assert_eq!(WthorGame::new(&record, [0; wthor::RECORD_LEN]).year, year, "{date}");
        }
    }
}
