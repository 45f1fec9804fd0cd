//! `kifu validate`: replays every record, names the first illegal move and why, checks stored
//! results, and suggests the likely intended move.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use serde::Serialize;

use super::progress::Progress;
use super::records::{self, InputArgs, Source, Unread};
use super::select::{Pick, SelectArgs, Selector};
use super::{Format, Output, Status};
use crate::notation::check::{self, Check, Status as Verdict};
use crate::notation::format::Format as RecordFormat;
use crate::notation::reader::{Body, Location, RawRecord, RecordError};

/// Arguments of `kifu validate`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Statuses: ok, illegal, unfinished, result_mismatch, parse_error. Text output lists the \
records that are not ok (the line, a caret under the bad move, the reason, the suggestion); csv and json \
(JSON Lines) give one row per record, fields as in docs/output.md. A file that disagrees with itself (a WTHOR \
header's game count) is listed in text output and warned of on stderr with csv and json. Exit 0 when every \
record is ok and no file disagrees with itself, 1 otherwise, 2 for usage or I/O errors.")]
pub struct Args {
    /// What to read.
    #[command(flatten)]
    pub input: InputArgs,
    /// Worker threads.
    #[command(flatten)]
    pub threads: super::ThreadsArgs,
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
    /// Which records.
    #[command(flatten)]
    pub select: SelectArgs,
}

/// The csv header: [`Row`]'s fields, written first even when no record follows.
const CSV_HEADER: [&str; 18] = [
    "source",
    "game",
    "status",
    "plies",
    "black",
    "white",
    "winner",
    "error_ply",
    "error_move",
    "reason",
    "suggestion",
    "margin",
    "passes",
    "empties",
    "stored_result",
    "line",
    "column",
    "byte",
];

/// One output row; the field order is the documented column order ([`CSV_HEADER`]).
#[derive(Serialize, Debug, Default)]
struct Row {
    source: String,
    game: usize,
    status: &'static str,
    /// Counts of the replay: none for a record that did not parse.
    plies: Option<usize>,
    black: Option<u32>,
    white: Option<u32>,
    winner: &'static str,
    error_ply: Option<usize>,
    error_move: String,
    reason: String,
    suggestion: String,
    margin: Option<i32>,
    passes: Option<u32>,
    empties: Option<u32>,
    stored_result: String,
    line: Option<usize>,
    column: Option<usize>,
    byte: Option<u64>,
}

/// Where rows go: text or JSON lines, or a CSV writer.
enum Sink {
    Lines(Output, Format),
    Csv(Box<csv::Writer<Output>>),
}

/// A record's verdict with where it is, ready to print.
struct Checked {
    row: Row,
    /// The located error message, for text output.
    located: Option<RecordError>,
    /// What the selection found (none when it did not judge the record).
    pick: Option<Pick>,
    /// A finished game the record gives to the other player on time or by forfeit.
    overruled: bool,
}

/// Runs `kifu validate`.
pub fn run(mut args: Args) -> anyhow::Result<Status> {
    args.format = super::format_for(args.format_given, args.output.as_deref(), Format::Text);
    // Its output names no one: WTHOR names matter only to select by them.
    args.input.names_unused = !args.select.reads_names();
    args.threads.apply()?;
    let started = Instant::now();
    args.input.check(args.output.as_deref())?;
    let out = Output::open(args.output.as_deref())?;
    let progress = Progress::new(args.quiet, "validating");
    let mut counts = [0u64; 5];
    // Records read from a position format (board strings, OBF): the summary says positions.
    let mut positions = 0u64;
    // Games that stop before their end, the record saying who resigned or lost on time.
    let mut ended_early = 0u64;
    // Finished games the record gives to the other player on time or by forfeit.
    let mut overruled = 0u64;
    let mut sink = match args.format {
        Format::Csv => {
            let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(out);
            w.write_record(CSV_HEADER)?;
            Sink::Csv(Box::new(w))
        }
        format => Sink::Lines(out, format),
    };
    let (selector, mut chooser) = args.select.build();
    // Reading stops after the last record `--games` asks for.
    args.input.records_wanted = chooser.numbers().read_up_to();
    let work = |source: &Source, raw: &RawRecord| validate(source, raw, &selector);
    let keep = |sink: &mut Sink, source: &Source, result: Result<Checked, RecordError>| {
        let checked = result.unwrap_or_else(|e| unreadable(source, Unread::bare(e)));
        if !chooser.keep(checked.pick) {
            return Ok(());
        }
        counts[status_index(checked.row.status)] += 1;
        positions += u64::from(source.format.is_position());
        ended_early +=
            u64::from(checked.row.status == "ok" && checked.row.winner.is_empty() && !source.format.is_position());
        overruled += u64::from(checked.overruled);
        match sink {
            Sink::Lines(out, Format::Json) => writeln!(out, "{}", serde_json::to_string(&checked.row)?)?,
            Sink::Lines(out, _) if checked.row.status != "ok" => writeln!(out, "{}", text(&checked))?,
            Sink::Lines(..) => {}
            Sink::Csv(w) => w.serialize(&checked.row)?,
        }
        Ok(())
    };
    let flush = |sink: &mut Sink| match sink {
        Sink::Lines(out, _) => Ok(out.flush()?),
        Sink::Csv(w) => Ok(w.flush()?),
    };
    let problems = records::for_each_with(&args.input, &progress, &mut sink, work, keep, flush)?;
    progress.finish();
    // A file that disagrees with itself: listed with the records' problems in text, a warning
    // beside the rows of csv and json.
    let file_problems = problems.0.len();
    match &mut sink {
        Sink::Lines(out, Format::Text) => {
            for problem in &problems.0 {
                writeln!(out, "{problem}")?;
            }
        }
        _ => {
            let _ = problems.warn("kifu validate");
        }
    }
    let out = match sink {
        Sink::Lines(out, _) => out,
        Sink::Csv(w) => w.into_inner().map_err(|e| anyhow::Error::from(e.into_error()).context("writing CSV"))?,
    };
    out.finish()?;
    let total: u64 = counts.iter().sum();
    chooser.warn_past_the_end("kifu validate");
    if !args.quiet {
        stderr!(
            "kifu validate: {}: {} ok{}, {} illegal, {} unfinished, {}, {}{}{} ({:.2} s)",
            super::counted(
                total,
                match positions {
                    0 => "game",
                    n if n == total => "position",
                    _ => "record",
                }
            ),
            counts[0],
            match (ended_early, overruled) {
                (0, 0) => String::new(),
                (n, 0) => format!(" ({n} ended by resignation, on time or by forfeit)"),
                (0, m) => format!(" ({m} won on time or by forfeit against the board's result)"),
                (n, m) => format!(
                    " ({n} ended by resignation, on time or by forfeit; {m} won on time or by forfeit against the board's result)"
                ),
            },
            counts[1],
            counts[2],
            if counts[3] == 1 { "1 result mismatch".to_owned() } else { format!("{} result mismatches", counts[3]) },
            super::counted(counts[4], "parse error"),
            match file_problems {
                0 => String::new(),
                1 => "; 1 file problem".to_owned(),
                n => format!("; {n} file problems"),
            },
            chooser.summary(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(if counts[0] == total && file_problems == 0 { Status::Ok } else { Status::SomeInvalid })
}

fn status_index(status: &str) -> usize {
    ["ok", "illegal", "unfinished", "result_mismatch", "parse_error"].iter().position(|&s| s == status).unwrap_or(4)
}

/// Checks one record (and judges it, when records are selected).
fn validate(source: &Source, raw: &RawRecord, selector: &Selector) -> Checked {
    // Plain transcript lines that replay cleanly are judged without building a record (unless
    // the selection needs its facts).
    if let (Body::Text(text), RecordFormat::Transcript | RecordFormat::Logbook) = (&raw.body, source.format)
        && !selector.judging()
        && let Some(check) = check::check_plain_line(text, &source.untagged_rules(), source.format)
    {
        let located = source.problem(raw, &check);
        let place = position(located.as_ref(), raw);
        return Checked { row: row(source.name, raw.index + 1, &check, place), located, pick: None, overruled: false };
    }
    let (record, rules) = match source.read_partly(raw) {
        Ok(read) => read,
        Err(unread) => return unreadable(source, *unread),
    };
    let check = check::check(&record, &rules, source.format);
    let pick = selector.pick_checked(&record, &rules, &check);
    let located = source.problem(raw, &check);
    let place = position(located.as_ref(), raw);
    let overruled = check.status == Verdict::Ok && check::overruled_board(&record, &check);
    Checked { row: row(source.name, raw.index + 1, &check, place), located, pick, overruled }
}

/// Where a record or its problem is: a line and column of text, or a byte of a binary file.
#[derive(Clone, Copy, Default)]
struct Place {
    line: Option<usize>,
    column: Option<usize>,
    byte: Option<u64>,
}

impl Place {
    fn of(location: &Location) -> Place {
        match location {
            Location::Text { line, column, .. } => Place { line: Some(*line), column: Some(*column), byte: None },
            Location::Byte(byte) => Place { byte: Some(*byte), ..Place::default() },
        }
    }
}

/// Where a record (or its problem) is.
fn position(located: Option<&RecordError>, raw: &RawRecord) -> Place {
    match located {
        Some(e) => Place::of(&e.location),
        None if raw.line > 0 => Place { line: Some(raw.line), column: Some(raw.column), byte: None },
        None => Place { byte: Some(raw.offset), ..Place::default() },
    }
}

fn row(source: &str, game: usize, check: &Check, place: Place) -> Row {
    let problem = check.problem.as_ref();
    // A record whose start could not be set up was never replayed: no counts, as for one that
    // could not be read.
    let replayed = check.status != Verdict::ParseError;
    Row {
        source: source.to_owned(),
        game,
        status: check.status.name(),
        plies: Some(check.plies).filter(|_| replayed),
        black: Some(check.black).filter(|_| replayed),
        white: Some(check.white).filter(|_| replayed),
        winner: if replayed { check.winner() } else { "" },
        error_ply: problem.map(|p| p.ply).filter(|&p| p > 0),
        error_move: problem.map(|p| p.mv.clone()).unwrap_or_default(),
        reason: problem.map(|p| p.reason.clone()).unwrap_or_default(),
        suggestion: check.suggestion.clone().unwrap_or_default(),
        margin: check.margin().filter(|_| replayed),
        passes: Some(check.passes).filter(|_| replayed),
        empties: Some(check.empties).filter(|_| replayed),
        stored_result: check.stored.clone().unwrap_or_default(),
        line: place.line,
        column: place.column,
        byte: place.byte,
    }
}

/// A record that could not be read: where it goes wrong, and for a token that is no move, its
/// ply and the move it likely meant.
fn unreadable(source: &Source, unread: Unread) -> Checked {
    let Unread { error: e, fix, token, ply, .. } = unread;
    let place = Place::of(&e.location);
    // A token like a move after the moves that read is the next ply's.
    let at_move = fix.is_some() || check::move_like(&token) || check::short_letters(&token);
    let error_ply = ply.filter(|_| at_move);
    let row = Row {
        source: source.name.to_owned(),
        game: e.record,
        status: Verdict::ParseError.name(),
        plies: None,
        black: None,
        white: None,
        winner: "",
        error_ply,
        error_move: if error_ply.is_some() { token } else { String::new() },
        reason: e.message.clone(),
        suggestion: fix.unwrap_or_default(),
        margin: None,
        passes: None,
        empties: None,
        stored_result: String::new(),
        line: place.line,
        column: place.column,
        byte: place.byte,
    };
    Checked { row, located: Some(e), pick: None, overruled: false }
}

/// The text report of a record that is not ok.
fn text(checked: &Checked) -> String {
    let r = &checked.row;
    let mut s = match &checked.located {
        Some(e) => e.to_string(),
        None => {
            let at = match (r.line, r.column) {
                (Some(line), Some(column)) => format!(":{line}:{column}"),
                (Some(line), None) => format!(":{line}"),
                _ => String::new(),
            };
            format!("{}{at}: record {}: {}: {}", r.source, r.game, r.status, r.reason)
        }
    };
    if let (Some(plies), Some(black), Some(white)) = (r.plies, r.black, r.white) {
        s.push_str(&format!("\n  = {} replayed; black {black}, white {white}", super::counted(plies as u64, "move")));
    }
    if !r.suggestion.is_empty() {
        s.push_str(&format!("\n  = suggestion: {}", r.suggestion));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The header written up front is the one serde would write for the rows.
    #[test]
    fn csv_header_names_the_row_fields() {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(Row::default()).unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        assert_eq!(text.lines().next(), Some(CSV_HEADER.join(",").as_str()));
    }
}
