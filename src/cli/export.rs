//! `kifu export`: every game, move or position as CSV or JSON Lines rows.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use serde::Serialize;

use super::progress::Progress;
use super::records::{self, InputArgs, Source, Unread};
use super::select::{Pick, SelectArgs, Selector};
use super::{Output, Status};
use crate::export::{self, GameRow};
use crate::notation::check;
use crate::notation::reader::{RawRecord, RecordError};

/// Arguments of `kifu export`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Columns are listed in docs/output.md. Invalid records (illegal moves, unreadable records, \
wrong stored results) are included with their status by default; moves and positions stop at the first \
illegal move.")]
pub struct Args {
    /// What to read.
    #[command(flatten)]
    pub input: InputArgs,
    /// Worker threads.
    #[command(flatten)]
    pub threads: super::ThreadsArgs,
    /// The table: one row per game, per move, or per position.
    #[arg(long, short, value_enum)]
    pub table: Table,
    /// Output format: csv (with a header row) or json (JSON Lines). [default: csv, or what -o's name ends in]
    #[arg(long = "format", short = 'f', value_enum, value_name = "FORMAT")]
    pub format_given: Option<TableFormat>,
    /// The output format: `--format`, else what `-o`'s name ends in, else csv.
    #[arg(skip)]
    pub format: TableFormat,
    /// Only these columns, in this order (comma-separated names).
    #[arg(long, value_delimiter = ',')]
    pub columns: Vec<String>,
    /// For spreadsheets (csv): a UTF-8 byte-order mark first, so that Excel reads accents and
    /// Japanese right, and text a spreadsheet would run as a formula (starting with = + - @,
    /// and no number) written after a `'`.
    #[arg(long)]
    pub excel: bool,
    /// What to do with invalid records: include them (with their status), skip them, or stop
    /// at the first one.
    #[arg(long, value_enum, default_value_t = Invalid::Include)]
    pub invalid: Invalid,
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

/// `--table` values.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum Table {
    /// One row per game.
    Games,
    /// One row per move (passes included).
    Moves,
    /// One row per position (before each move, and the last one).
    Positions,
}

/// `--format` values for tables.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, clap::ValueEnum)]
pub enum TableFormat {
    /// CSV with a header row.
    #[default]
    Csv,
    /// JSON Lines.
    Json,
}

/// `--invalid` values.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum Invalid {
    /// Rows for invalid records too, with their status.
    Include,
    /// No rows for invalid records.
    Skip,
    /// Stop at the first invalid record (exit 1; an -o file is not written).
    Fail,
}

/// One record's rows, rendered, and what was wrong with it.
struct Rendered {
    text: Vec<u8>,
    rows: usize,
    invalid: bool,
    error: Option<RecordError>,
    /// What the selection found (none when it did not judge the record).
    pick: Option<Pick>,
}

/// Runs `kifu export`.
pub fn run(mut args: Args) -> anyhow::Result<Status> {
    args.format = super::format_for(args.format_given, args.output.as_deref(), TableFormat::Csv);
    args.threads.apply()?;
    let started = Instant::now();
    let mut columns = check_columns(args.table, &args.columns)?;
    if args.excel && args.format != TableFormat::Csv {
        anyhow::bail!(
            "--excel is for CSV (a byte-order mark, formulas quoted): give --format csv, or leave --excel out"
        );
    }
    let excel = args.excel;
    if excel && columns.is_empty() {
        // Every cell is looked at: all the columns, by name.
        columns = names(args.table).iter().map(|&c| c.to_owned()).collect();
    }
    args.input.check(args.output.as_deref())?;
    let mut out = Output::open(args.output.as_deref())?;
    if args.format == TableFormat::Csv {
        if excel {
            out.write_all("\u{feff}".as_bytes())?;
        }
        out.write_all(header(args.table, &columns).as_bytes())?;
    }
    let progress = Progress::new(args.quiet, "exporting");
    let (mut games, mut rows, mut invalid) = (0u64, 0u64, 0u64);
    let mut stop = None;
    let (selector, mut chooser) = args.select.build();
    // Reading stops after the last record `--games` asks for.
    args.input.records_wanted = chooser.numbers().read_up_to();
    let render = |source: &Source, raw: &RawRecord| render(source, raw, &args, &columns, &selector);
    let problems = records::for_each_to(&args.input, &progress, &mut out, render, |out, _, result| {
        if stop.is_some() {
            return Ok(());
        }
        let r = result.unwrap_or_else(|e| unreadable(e, &args, &columns));
        if !chooser.keep(r.pick) {
            return Ok(());
        }
        games += 1;
        if let Some(e) = &r.error {
            progress.suspend(|| stderr!("{e}"));
        }
        if r.invalid {
            invalid += 1;
            match args.invalid {
                Invalid::Fail => {
                    stop = Some(
                        r.error
                            .map_or_else(|| format!("record {games}"), |e| format!("{}: record {}", e.file, e.record)),
                    );
                    return Ok(());
                }
                Invalid::Skip => return Ok(()),
                Invalid::Include => {}
            }
        }
        rows += r.rows as u64;
        out.write_all(&r.text)?;
        Ok(())
    })?;
    progress.finish();
    let damaged = problems.warn("kifu export");
    if let Some(at) = stop {
        // Dropping the output unfinished leaves no -o file behind.
        let left = match args.output.as_deref().filter(|o| o.as_os_str() != "-") {
            Some(path) => format!("{} not written", path.display()),
            None => "the rows before it written".to_owned(),
        };
        stderr!("kifu export: {at} is invalid and --invalid fail was given: stopped, {left}");
        return Ok(Status::SomeInvalid);
    }
    out.finish()?;
    chooser.warn_past_the_end("kifu export");
    if !args.quiet {
        stderr!(
            "kifu export: {}, {}, {}{} ({:.2} s)",
            super::counted(games, "game"),
            super::counted(rows, "row"),
            super::counted(invalid, "invalid record"),
            chooser.summary(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(if invalid + damaged > 0 { Status::SomeInvalid } else { Status::Ok })
}

/// The names of a table's columns.
fn names(table: Table) -> &'static [&'static str] {
    match table {
        Table::Games => &[
            "source",
            "game",
            "event",
            "date",
            "black_player",
            "white_player",
            "rules",
            "moves",
            "plies",
            "passes",
            "black",
            "white",
            "winner",
            "margin",
            "max_flipped",
            "corners_black",
            "corners_white",
            "first_corner_ply",
            "stored_result",
            "stated_winner",
            "theoretical",
            "status",
            "opening",
            "canonical_hash",
            "place",
            "round",
            "black_rating",
            "white_rating",
            "time_control",
            "komi",
            "year",
        ],
        Table::Moves => &[
            "source",
            "game",
            "ply",
            "color",
            "move",
            "flipped",
            "black",
            "white",
            "mobility_black",
            "mobility_white",
            "empties",
            "is_corner",
            "status",
        ],
        Table::Positions => {
            &["source", "game", "ply", "board", "side", "empties", "move", "final_margin", "status", "canonical_hash"]
        }
    }
}

/// The `--columns` asked for, checked against the table (empty = all, in order).
fn check_columns(table: Table, asked: &[String]) -> anyhow::Result<Vec<String>> {
    let known = names(table);
    // (`game, status` as typed: the names without the spaces around them.)
    let asked: Vec<String> = asked.iter().map(|c| c.trim().to_owned()).collect();
    for (i, c) in asked.iter().enumerate() {
        if !known.contains(&c.as_str()) {
            anyhow::bail!("--columns: no column `{c}` in the {table:?} table (columns: {})", known.join(", "));
        }
        // A JSON object cannot hold a key twice, so CSV must not either.
        if asked[..i].contains(c) {
            anyhow::bail!("--columns: `{c}` is asked for twice");
        }
    }
    Ok(asked)
}

fn header(table: Table, columns: &[String]) -> String {
    let all: Vec<&str> = names(table).to_vec();
    let chosen: Vec<&str> = if columns.is_empty() { all } else { columns.iter().map(String::as_str).collect() };
    format!("{}\n", chosen.join(","))
}

/// A record that could not be read: a `parse_error` row in the games table, no rows in the others.
fn unreadable(e: RecordError, args: &Args, columns: &[String]) -> Rendered {
    let mut text = Vec::new();
    let rows = match args.table {
        Table::Games => {
            write_rows(&mut text, &[export::unreadable_row(&e.file, e.record)], args.format, columns, args.excel)
        }
        Table::Moves | Table::Positions => 0,
    };
    Rendered { text, rows, invalid: true, error: Some(e), pick: None }
}

/// Checks one record, judges it (when records are selected) and renders its rows.
fn render(source: &Source, raw: &RawRecord, args: &Args, columns: &[String], selector: &Selector) -> Rendered {
    let failed = |e: RecordError| unreadable(e, args, columns);
    // A record whose text goes wrong after its start (a token that is no move) gives the rows
    // of what reads before the fault, as one with an illegal move does up to it.
    let (record, rules, unread) = match source.read_partly(raw) {
        Ok((record, rules)) => (record, rules, None),
        Err(unread) => match *unread {
            Unread { error, before: Some((record, rules)), .. } => (record, rules, Some(error)),
            Unread { error, before: None, .. } => return failed(error),
        },
    };
    // Moves and positions go up to the first illegal move, a square off the board included.
    let game = match record.game_before_bad_square(rules.clone()) {
        Ok((g, _)) => g,
        Err(e) => return failed(raw.error(source.name, e.span, e.message)),
    };
    let check = check::check(&record, &rules, source.format);
    let pick = if unread.is_some() { None } else { selector.pick_checked(&record, &rules, &check) };
    if pick == Some(Pick::Refused) {
        return Rendered { text: Vec::new(), rows: 0, invalid: false, error: None, pick };
    }
    let invalid = unread.is_some() || check.status.is_invalid();
    let status = if unread.is_some() { check::Status::ParseError.name() } else { check.status.name() };
    let index = raw.index + 1;
    let mut text = Vec::new();
    let rows = match args.table {
        Table::Games => {
            let row = GameRow { status, ..export::game_row(source.name, index, &record, &game, &check) };
            write_rows(&mut text, std::slice::from_ref(&row), args.format, columns, args.excel)
        }
        Table::Moves => {
            let rows = export::move_rows(source.name, index, &game, status);
            write_rows(&mut text, &rows, args.format, columns, args.excel)
        }
        Table::Positions => {
            let rows = export::position_rows(source.name, index, &game, status);
            write_rows(&mut text, &rows, args.format, columns, args.excel)
        }
    };
    // An invalid record's problem is reported at its place, as `validate` reports it.
    let error = match unread {
        Some(error) => Some(error),
        None if invalid => source.problem(raw, &check),
        None => None,
    };
    Rendered { text, rows, invalid, error, pick }
}

/// Renders rows as CSV (no header) or JSON Lines, keeping only `columns` when given (`excel`:
/// CSV text cells as [`super::output::for_spreadsheets`] writes them).
fn write_rows<R: Serialize>(
    out: &mut Vec<u8>,
    rows: &[R],
    format: TableFormat,
    columns: &[String],
    excel: bool,
) -> usize {
    for row in rows {
        let value = if columns.is_empty() {
            None
        } else {
            let serde_json::Value::Object(all) = serde_json::to_value(row).expect("rows serialise") else {
                unreachable!("rows are structs")
            };
            Some(columns.iter().map(|c| all.get(c).cloned().unwrap_or(serde_json::Value::Null)).collect::<Vec<_>>())
        };
        match (format, value) {
            (TableFormat::Json, None) => {
                serde_json::to_writer(&mut *out, row).expect("rows serialise");
            }
            (TableFormat::Json, Some(values)) => {
                let object: serde_json::Map<String, serde_json::Value> = columns.iter().cloned().zip(values).collect();
                serde_json::to_writer(&mut *out, &object).expect("rows serialise");
            }
            (TableFormat::Csv, None) => {
                let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(&mut *out);
                w.serialize(row).expect("rows serialise");
                w.flush().expect("writing to memory");
                continue;
            }
            (TableFormat::Csv, Some(values)) => {
                let fields: Vec<String> = values
                    .into_iter()
                    .map(|v| match v {
                        serde_json::Value::Null => String::new(),
                        serde_json::Value::String(s) if excel => super::output::for_spreadsheets(s),
                        serde_json::Value::String(s) => s,
                        other => other.to_string(),
                    })
                    .collect();
                let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(&mut *out);
                w.write_record(&fields).expect("writing to memory");
                w.flush().expect("writing to memory");
                continue;
            }
        }
        out.push(b'\n');
    }
    rows.len()
}
