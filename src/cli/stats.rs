//! `kifu stats`: totals, results, lengths, openings (named, merged under the start's
//! symmetries), players, tournaments, years and duplicates over a set of game records.

use std::fmt::Write as _;
use std::io::Write;

use anyhow::Context as _;
use std::path::PathBuf;
use std::time::Instant;

use serde_json::{Map, Value};
use unicode_width::UnicodeWidthStr;

use super::progress::Progress;
use super::records::{self, InputArgs, Source, Unread};
use super::select::{Pick, SelectArgs, Selector};
use super::{Format, Output, Status};
use crate::notation::check::{self, Status as Verdict};
use crate::notation::reader::{RawRecord, RecordError};
use crate::stats::book::{self, Book, Step};
use crate::stats::standings;
use crate::stats::{DEFAULT_DEPTH, Duplicate, Facts, Summary, Tally};

/// Arguments of `kifu stats`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Text gives the whole report, or with --by the table alone; csv and json (JSON \
Lines) give the rows of the --by table, columns as in docs/output.md. Openings are the first --depth moves, merged under the symmetries of \
the start position. Exit 0 when every record is ok, 1 otherwise, 2 for usage or I/O errors.")]
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
    /// The table to give (in text, alone instead of the whole report).
    #[arg(long, value_enum, default_value_t = By::Totals)]
    pub by: By,
    /// Moves that make an opening (and, with --by position, the moves whose positions the
    /// book holds).
    #[arg(long, default_value_t = DEFAULT_DEPTH, value_parser = parse_depth)]
    pub depth: usize,
    /// Rows of each ranked table (openings, names, players, tournaments): default 10 in text,
    /// all in csv and json.
    #[arg(long)]
    pub top: Option<usize>,
    /// Also write SVG charts into this folder: results.svg, margins.svg, lengths.svg,
    /// openings.svg.
    #[arg(long, value_name = "DIR")]
    pub plot: Option<PathBuf>,
    /// Write here instead of stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// For spreadsheets (csv): a UTF-8 byte-order mark first, so that Excel reads accents and
    /// Japanese right, and text a spreadsheet would run as a formula (starting with = + - @,
    /// and no number) written after a `'`.
    #[arg(long)]
    pub excel: bool,
    /// No progress bar and no summary.
    #[arg(long, short)]
    pub quiet: bool,
    /// Which records.
    #[command(flatten)]
    pub select: SelectArgs,
}

/// Parses `--depth`: a count of moves, 1 or more.
fn parse_depth(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("`{s}` is not a count of moves (1 or more)")),
    }
}

/// `--by` values.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum By {
    /// One row per statistic: name, value.
    Totals,
    /// One row per player.
    #[value(alias = "players")]
    Player,
    /// One row per tournament (event).
    #[value(alias = "tournaments")]
    Tournament,
    /// One row per year.
    Year,
    /// One row per opening (the first --depth moves, up to symmetry).
    Opening,
    /// One row per opening name (the deepest named line each game follows).
    Name,
    /// One row per finished game's black margin.
    Margin,
    /// One row per game length (discs placed).
    Length,
    /// One row per game in a group of duplicates.
    Duplicates,
    /// One row per position before each of the first --depth moves, up to symmetry, with the
    /// moves played from it (an opening book of the games).
    Position,
    /// One row per player of each tournament (event and year): points, discs, the opponents'
    /// points and the Brightwell quotient, ranked.
    Standings,
}

/// What the worker makes of one record.
enum Outcome {
    /// The record's facts, and its problem when it is invalid (counted all the same), and what
    /// the selection found.
    Facts(usize, Box<Facts>, Option<RecordError>, Option<Pick>, Vec<Step>),
    Failed(Verdict, Option<RecordError>),
}

/// Runs `kifu stats`.
pub fn run(mut args: Args) -> anyhow::Result<Status> {
    args.format = super::format_for(args.format_given, args.output.as_deref(), Format::Text);
    if args.excel && args.format != Format::Csv {
        anyhow::bail!(
            "--excel is for CSV (a byte-order mark, formulas quoted): give --format csv, or leave --excel out"
        );
    }
    args.threads.apply()?;
    if let Some(dir) = &args.plot {
        super::output::create_folder(dir)?;
    }
    let started = Instant::now();
    let progress = Progress::new(args.quiet, "counting");
    let mut summary = Summary::new();
    if args.by == By::Standings {
        summary.standings = Some(standings::Standings::default());
    }
    let mut book = Book::new();
    let (selector, mut chooser) = args.select.build();
    // Reading stops after the last record `--games` asks for.
    args.input.records_wanted = chooser.numbers().read_up_to();
    // Positions are gathered only for their table: a book of deep positions takes memory.
    let book_depth = (args.by == By::Position).then_some(args.depth);
    let work = |source: &Source, raw: &RawRecord| facts(source, raw, args.depth, book_depth, &selector);
    let problems = records::for_each(&args.input, &progress, work, |source, result| {
        let outcome = result.unwrap_or_else(|e| Outcome::Failed(Verdict::ParseError, Some(e)));
        let pick = match &outcome {
            Outcome::Facts(_, _, _, pick, _) => *pick,
            Outcome::Failed(..) => None,
        };
        if !chooser.keep(pick) {
            return Ok(());
        }
        match outcome {
            Outcome::Facts(index, facts, problem, _, steps) => {
                if let Some(e) = problem {
                    progress.suspend(|| stderr!("{e}"));
                }
                summary.add(source.name, index, &facts).context("writing the duplicate keys to a temporary file")?;
                let (result, from_record) = facts.counted();
                book.add(&steps, result, from_record, facts.margin);
            }
            Outcome::Failed(status, error) => {
                if let Some(e) = error {
                    progress.suspend(|| stderr!("{e}"));
                }
                summary.add_failed(status);
            }
        }
        Ok(())
    })?;
    progress.finish();
    let damaged = problems.warn("kifu stats");
    if let Some(standings) = &mut summary.standings {
        standings.settle();
        warn_standings(standings);
    }
    args.input.check(args.output.as_deref())?;
    let mut out = Output::open(args.output.as_deref())?;
    match args.format {
        Format::Text if args.by == By::Totals => out.write_all(report(&summary, &args)?.as_bytes())?,
        // With --by, the table alone: the standings as the report gives them, the others
        // aligned (every row unless --top).
        Format::Text if args.by == By::Standings => {
            let mut text = String::new();
            standings_report(&mut text, &summary, args.top);
            out.write_all(text.trim_start_matches('\n').as_bytes())?;
        }
        Format::Text => {
            let (columns, rows) = table(&summary, &book, &args)?;
            let rows: Vec<Vec<Value>> = rows.collect();
            let mut text = String::new();
            aligned(&mut text, &columns, &rows);
            out.write_all(text.as_bytes())?;
        }
        format => {
            let (columns, rows) = table(&summary, &book, &args)?;
            write_rows(&mut out, format, &columns, rows, args.excel)?;
        }
    }
    // The charts before the report is in place: when they fail, nothing is replaced.
    if let Some(dir) = &args.plot {
        plot(&summary, dir, args.top.unwrap_or(10))?;
    }
    out.finish()?;
    chooser.warn_past_the_end("kifu stats");
    if !args.quiet {
        stderr!(
            "kifu stats: {}, {} not ok{} ({:.2} s)",
            super::counted(summary.games, "game"),
            summary.games - summary.status[0],
            chooser.summary(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(if summary.status[0] == summary.games && damaged == 0 { Status::Ok } else { Status::SomeInvalid })
}

/// Reads, replays and checks one record, gathers its facts and judges it (when records are
/// selected), and its positions for the book when `book_depth` is given.
fn facts(source: &Source, raw: &RawRecord, depth: usize, book_depth: Option<usize>, selector: &Selector) -> Outcome {
    let failed = |e: RecordError| Outcome::Failed(Verdict::ParseError, Some(e));
    // A record whose text goes wrong after its start (a token that is no move) counts as far as
    // it reads, as one with an illegal move does up to it: its players' standings get the result
    // it states.
    let (record, rules, unread) = match source.read_partly(raw) {
        Ok((record, rules)) => (record, rules, None),
        Err(unread) => match *unread {
            Unread { error, before: Some((record, rules)), .. } => (record, rules, Some(error)),
            Unread { error, before: None, .. } => return failed(error),
        },
    };
    let mut check = check::check(&record, &rules, source.format);
    let problem = match unread {
        Some(error) => {
            check.status = Verdict::ParseError;
            Some(error)
        }
        None if check.status.is_invalid() => source.problem(raw, &check),
        None => None,
    };
    // A move onto a square the board does not have is an illegal move: the game is the moves
    // before it, counted as `kifu validate` judges it.
    match record.game_before_bad_square(rules) {
        Ok((game, _)) => {
            let facts = Facts::new(&record, &game, &check, depth);
            let pick = selector.judging().then(|| selector.pick(&facts, &game));
            // (A refused game's positions are not needed.)
            let steps = match book_depth {
                Some(depth) if pick != Some(Pick::Refused) => book::steps(&game, depth),
                _ => Vec::new(),
            };
            Outcome::Facts(raw.index + 1, Box::new(facts), problem, pick, steps)
        }
        // A start board that does not fit the rules.
        Err(e) => Outcome::Failed(check.status, Some(raw.error(source.name, e.span, e.message))),
    }
}

/// A table: its column names and rows of values (made as they are written: a book's table
/// can have millions).
type Table<'a> = (Vec<&'static str>, Box<dyn Iterator<Item = Vec<Value>> + 'a>);

fn pct(tally: &Tally) -> [Value; 3] {
    tally.percentages().map_or([Value::Null, Value::Null, Value::Null], |p| p.map(round))
}

fn round(x: f64) -> Value {
    Value::from((x * 100.0).round() / 100.0)
}

fn opt(x: Option<f64>) -> Value {
    x.map_or(Value::Null, round)
}

fn tally_columns(first: &'static str) -> Vec<&'static str> {
    vec![
        first,
        "games",
        "black_wins",
        "white_wins",
        "draws",
        "no_result",
        "from_record",
        "black_pct",
        "white_pct",
        "draw_pct",
        "margin_mean",
        "abs_margin_mean",
    ]
}

fn tally_row(first: Value, t: &Tally) -> Vec<Value> {
    let mut row = vec![
        first,
        t.games.into(),
        t.black_wins.into(),
        t.white_wins.into(),
        t.draws.into(),
        t.no_result.into(),
        t.from_record.into(),
    ];
    row.extend(pct(t));
    row.push(opt(t.mean_margin()));
    row.push(opt(t.mean_abs_margin()));
    row
}

/// A position's moves for a table cell: `f5 120 (+2.1), d3 4 (-6.0)`, most played first, each
/// with its games and black's mean margin over the finished ones.
fn moves_cell(entry: &book::Entry) -> String {
    let moves: Vec<String> = entry
        .moves_ranked()
        .into_iter()
        .map(|(mv, t)| match t.mean_margin() {
            Some(m) => format!("{mv} {} ({m:+.1})", t.games),
            None => format!("{mv} {}", t.games),
        })
        .collect();
    moves.join(", ")
}

/// A position's moves for JSON: one object per move, most played first.
fn moves_json(entry: &book::Entry) -> Value {
    let moves = entry.moves_ranked().into_iter().map(|(mv, t)| {
        let row = tally_row(mv.to_string().into(), t);
        let object: Map<String, Value> = tally_columns("move").into_iter().map(str::to_owned).zip(row).collect();
        Value::Object(object)
    });
    Value::Array(moves.collect())
}

/// The `--by position` table, its rows made as they are written.
fn book_table(book: &Book, format: Format, top: usize) -> Table<'_> {
    let mut columns = tally_columns("board");
    columns.splice(1..1, ["rules", "side", "empties"]);
    columns.push("moves");
    let rows = book.ranked().into_iter().take(top).map(move |e| {
        let mut row = tally_row(e.board.as_ref().into(), &e.tally);
        row.splice(1..1, [e.rules.as_ref().into(), e.side.name().into(), e.empties.into()]);
        row.push(if format == Format::Json { moves_json(e) } else { moves_cell(e).into() });
        row
    });
    (columns, Box::new(rows))
}

/// The rows of the `--by` table.
fn table<'a>(s: &'a Summary, book: &'a Book, args: &'a Args) -> std::io::Result<Table<'a>> {
    let top = args.top.unwrap_or(usize::MAX);
    let (columns, rows): (Vec<&'static str>, Vec<Vec<Value>>) = match args.by {
        By::Totals => (vec!["name", "value"], s.totals()?.into_iter().map(|(k, v)| vec![k.into(), v]).collect()),
        By::Player => (
            vec!["player", "games", "wins", "draws", "losses", "no_result", "from_record", "margin_mean"],
            s.players_ranked()
                .into_iter()
                .take(top)
                .map(|(name, p)| {
                    vec![
                        name.into(),
                        p.games.into(),
                        p.wins.into(),
                        p.draws.into(),
                        p.losses.into(),
                        p.no_result.into(),
                        p.from_record.into(),
                        opt(p.mean_margin()),
                    ]
                })
                .collect(),
        ),
        // The games with no event or no year last, under an empty name.
        By::Tournament => (
            tally_columns("tournament"),
            s.tournaments_ranked()
                .into_iter()
                .map(|(name, t)| tally_row(name.into(), t))
                .chain((s.no_event.games > 0).then(|| tally_row(Value::Null, &s.no_event)))
                .take(top)
                .collect(),
        ),
        By::Year => (
            tally_columns("year"),
            s.years
                .iter()
                .map(|(y, t)| tally_row((*y).into(), t))
                .chain((s.no_year.games > 0).then(|| tally_row(Value::Null, &s.no_year)))
                .collect(),
        ),
        By::Opening => {
            let mut columns = tally_columns("opening");
            columns.insert(1, "name");
            // (Openings of other rules or starts are other rows.)
            columns.insert(2, "rules");
            let rows = s
                .openings_ranked()
                .into_iter()
                .take(top)
                .map(|o| {
                    let mut row = tally_row(o.moves.clone().into(), &o.tally);
                    row.insert(1, o.name.unwrap_or_default().into());
                    row.insert(2, o.rules.clone().into());
                    row
                })
                .collect();
            (columns, rows)
        }
        By::Name => (
            tally_columns("name"),
            s.named_ranked().into_iter().take(top).map(|(name, t)| tally_row(name.into(), t)).collect(),
        ),
        By::Margin => {
            (vec!["margin", "games"], s.margins.iter().map(|(m, k)| vec![(*m).into(), (*k).into()]).collect())
        }
        By::Length => {
            (vec!["length", "games"], s.lengths.iter().map(|(l, k)| vec![(*l).into(), (*k).into()]).collect())
        }
        By::Duplicates => {
            let mut rows = Vec::new();
            for (kind, groups) in [("game", s.duplicate_games()?), ("final_position", s.duplicate_finals()?)] {
                for (i, group) in groups.iter().enumerate() {
                    for (source, index) in &group.games {
                        rows.push(vec![
                            kind.into(),
                            (i + 1).into(),
                            format!("{:016x}", group.hash).into(),
                            source.clone().into(),
                            (*index).into(),
                        ]);
                    }
                }
            }
            (vec!["kind", "group", "hash", "source", "game"], rows)
        }
        By::Position => return Ok(book_table(book, args.format, top)),
        By::Standings => {
            let mut columns = vec!["tournament", "year"];
            columns.extend(STANDINGS_COLUMNS);
            let mut rows = Vec::new();
            for t in s.standings.iter().flat_map(standings::Standings::tables) {
                for line in t.top(top) {
                    let mut row = vec![t.event.into(), t.year.map_or(Value::Null, Value::from)];
                    row.extend(standing_row(line));
                    rows.push(row);
                }
            }
            (columns, rows)
        }
    };
    Ok((columns, Box::new(rows.into_iter())))
}

/// The columns of a standings line, after the tournament's.
const STANDINGS_COLUMNS: [&str; 13] = [
    "rank",
    "player",
    "points",
    "games",
    "wins",
    "draws",
    "losses",
    "discs",
    "opponents_points",
    "bq",
    "no_result",
    "from_record",
    "no_discs",
];

/// A standings line's values, in the order of [`STANDINGS_COLUMNS`].
fn standing_row(line: &standings::Line<'_>) -> Vec<Value> {
    let s = line.standing;
    vec![
        line.rank.into(),
        line.player.into(),
        halves(s.points2()),
        s.games.into(),
        s.wins.into(),
        s.draws.into(),
        s.losses.into(),
        halves(s.discs2),
        halves(line.opponents_points2),
        halves(line.bq2),
        s.no_result.into(),
        s.from_record.into(),
        s.no_discs.into(),
    ]
}

/// A value kept doubled, as a number: whole when it is, else with its half (`5.5`).
fn halves(doubled: i64) -> Value {
    if doubled % 2 == 0 { Value::from(doubled / 2) } else { Value::from(doubled as f64 / 2.0) }
}

/// Writes rows as CSV (with a header) or JSON Lines.
fn write_rows(
    out: &mut Output,
    format: Format,
    columns: &[&str],
    rows: impl Iterator<Item = Vec<Value>>,
    excel: bool,
) -> anyhow::Result<()> {
    if format == Format::Json {
        for row in rows {
            let object: Map<String, Value> = columns.iter().map(|c| (*c).to_owned()).zip(row).collect();
            serde_json::to_writer(&mut *out, &object)?;
            out.write_all(b"\n")?;
        }
        return Ok(());
    }
    if excel {
        out.write_all("\u{feff}".as_bytes())?;
    }
    let mut w = csv::Writer::from_writer(&mut *out);
    w.write_record(columns)?;
    for row in rows {
        w.write_record(row.iter().map(|v| match v {
            Value::String(_) if excel => super::output::for_spreadsheets(cell(v)),
            _ => cell(v),
        }))?;
    }
    w.flush()?;
    Ok(())
}

/// A value as a table cell: strings bare, null empty.
fn cell(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        // Names from the records, shown on a terminal: no control characters.
        Value::String(s) => crate::notation::printable(s).into_owned(),
        other => other.to_string(),
    }
}

/// Whether a cell reads as a number (`12`, `-0.5`, `+7.2`, `52.0%`) or is empty.
fn number_like(cell: &str) -> bool {
    cell.is_empty() || cell.trim_start_matches('+').trim_end_matches('%').parse::<f64>().is_ok()
}

/// Lays out a table with aligned columns: text columns to the left, numbers to the right.
fn aligned(out: &mut String, columns: &[&str], rows: &[Vec<Value>]) {
    let cells: Vec<Vec<String>> = rows.iter().map(|r| r.iter().map(cell).collect()).collect();
    let numeric: Vec<bool> =
        (0..columns.len()).map(|c| !cells.is_empty() && cells.iter().all(|r| number_like(&r[c]))).collect();
    // Columns as a terminal shows them: a CJK character takes two.
    let width: Vec<usize> = (0..columns.len())
        .map(|c| cells.iter().map(|r| r[c].width()).chain([columns[c].len()]).max().unwrap_or(0))
        .collect();
    let line = |out: &mut String, row: &[String]| {
        let mut text = String::from("  ");
        for (c, value) in row.iter().enumerate() {
            let pad = " ".repeat(width[c] - value.width());
            if c > 0 {
                text.push_str("  ");
            }
            if numeric[c] {
                text.push_str(&pad);
                text.push_str(value);
            } else {
                text.push_str(value);
                text.push_str(&pad);
            }
        }
        out.push_str(text.trim_end());
        out.push('\n');
    };
    line(out, &columns.iter().map(|c| (*c).to_owned()).collect::<Vec<_>>());
    for row in &cells {
        line(out, row);
    }
}

/// The text report.
fn report(s: &Summary, args: &Args) -> std::io::Result<String> {
    let top = args.top.unwrap_or(10);
    let totals: Vec<(&str, Value)> = s.totals()?;
    // A figure with no value (no games to take a mean of) is shown as `-`.
    let get = |name: &str| {
        let value = totals.iter().find(|(k, _)| *k == name).map_or(String::new(), |(_, v)| cell(v));
        if value.is_empty() { "-".to_owned() } else { value }
    };
    let mut out = String::new();
    let section = |out: &mut String, title: String| {
        let _ = writeln!(out, "\n{title}\n{}", "-".repeat(title.chars().count()));
    };
    out.push_str("Games\n-----\n");
    let rows: Vec<Vec<Value>> = ["games", "ok", "illegal", "unfinished", "result_mismatch", "parse_error"]
        .iter()
        .map(|k| vec![Value::from(*k), totals.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone()).unwrap_or_default()])
        .collect();
    aligned(&mut out, &["status", "games"], &rows);

    section(&mut out, "Results".to_owned());
    let t = &s.results;
    let share = |k: u64, of: u64| if of > 0 { format!("{:.1}%", 100.0 * k as f64 / of as f64) } else { String::new() };
    let rows: Vec<Vec<Value>> =
        [("black wins", t.black_wins), ("white wins", t.white_wins), ("draws", t.draws), ("no result", t.no_result)]
            .iter()
            .map(|&(k, v)| {
                let of_results = if k == "no result" { String::new() } else { share(v, t.finished()) };
                vec![Value::from(k), Value::from(v), Value::from(share(v, t.games)), Value::from(of_results)]
            })
            .collect();
    aligned(&mut out, &["result", "games", "of all", "of results"], &rows);
    if t.from_record > 0 {
        let _ = writeln!(
            out,
            "  {} of the results from the records, the board giving none (resignations, losses on time, games stopped early)",
            t.from_record
        );
    }
    let _ = writeln!(
        out,
        "  black's margin over the games over on the board: mean {}, median {}; mean absolute margin {}",
        get("margin_mean"),
        get("margin_median"),
        get("abs_margin_mean")
    );
    let buckets: [(&str, i32, i32); 7] = [
        ("white by 33+", -64, -33),
        ("white by 17-32", -32, -17),
        ("white by 1-16", -16, -1),
        ("level (0)", 0, 0),
        ("black by 1-16", 1, 16),
        ("black by 17-32", 17, 32),
        ("black by 33+", 33, 64),
    ];
    let rows: Vec<Vec<Value>> = buckets
        .iter()
        .map(|(label, lo, hi)| {
            let k: u64 = s.margins.iter().filter(|(m, _)| (*lo..=*hi).contains(*m)).map(|(_, k)| k).sum();
            vec![Value::from(*label), Value::from(k)]
        })
        .collect();
    aligned(&mut out, &["margin", "games"], &rows);

    section(&mut out, "Length".to_owned());
    let _ = writeln!(
        out,
        "  discs placed: min {}, median {}, mean {}, max {}",
        get("length_min"),
        get("length_median"),
        get("length_mean"),
        get("length_max")
    );
    let _ = writeln!(out, "  passes: {} in {} games", get("passes"), get("games_with_passes"));
    let _ = writeln!(
        out,
        "  finished games with empty cells left: {} (mean empties {})",
        get("finished_with_empties"),
        get("empties_mean")
    );
    let _ = writeln!(
        out,
        "  most discs flipped by one move: {} (mean per game {}); corners per game: black {}, white {}; first corner at ply {} on average",
        get("max_flips"),
        get("max_flips_mean"),
        get("corners_black_mean"),
        get("corners_white_mean"),
        get("first_corner_ply_mean")
    );

    let pct_cells = |t: &Tally| -> Vec<Value> {
        // From the shares themselves, rounded once (not from the CSV's two decimals).
        t.percentages()
            .map_or_else(|| vec![Value::from(""); 3], |p| p.iter().map(|x| Value::from(format!("{x:.1}"))).collect())
    };
    section(&mut out, format!("Openings (first {} moves, {})", args.depth, ranked(top, s.openings.len())));
    let rows: Vec<Vec<Value>> = s
        .openings_ranked()
        .into_iter()
        .take(top)
        .map(|o| {
            let mut row = vec![o.moves.clone().into(), o.name.unwrap_or("").into(), o.tally.games.into()];
            row.extend(pct_cells(&o.tally));
            row
        })
        .collect();
    aligned(&mut out, &["moves", "name", "games", "black%", "white%", "draw%"], &rows);

    section(&mut out, format!("Named openings (deepest named line, {})", ranked(top, s.named.len())));
    let rows: Vec<Vec<Value>> = s
        .named_ranked()
        .into_iter()
        .take(top)
        .map(|(name, t)| {
            let mut row = vec![name.into(), t.games.into()];
            row.extend(pct_cells(t));
            row
        })
        .collect();
    aligned(&mut out, &["name", "games", "black%", "white%", "draw%"], &rows);

    section(&mut out, format!("Players ({})", ranked(top, s.players.len())));
    let rows: Vec<Vec<Value>> = s
        .players_ranked()
        .into_iter()
        .take(top)
        .map(|(name, p)| {
            let mean = p.mean_margin().map_or(String::new(), |m| format!("{m:+.1}"));
            vec![name.into(), p.games.into(), p.wins.into(), p.draws.into(), p.losses.into(), mean.into()]
        })
        .collect();
    aligned(&mut out, &["player", "games", "wins", "draws", "losses", "margin"], &rows);

    let tally_cells = |first: Value, t: &Tally| -> Vec<Value> {
        let mut row = vec![first, t.games.into()];
        row.extend(pct_cells(t));
        row
    };
    section(&mut out, format!("Tournaments ({})", ranked(top, s.tournaments.len())));
    let rows: Vec<Vec<Value>> = s
        .tournaments_ranked()
        .into_iter()
        .map(|(name, t)| tally_cells(name.into(), t))
        .chain((s.no_event.games > 0).then(|| tally_cells("(no event)".into(), &s.no_event)))
        .take(top)
        .collect();
    aligned(&mut out, &["tournament", "games", "black%", "white%", "draw%"], &rows);

    section(&mut out, format!("Years ({})", s.years.len()));
    let rows: Vec<Vec<Value>> = s
        .years
        .iter()
        .map(|(y, t)| tally_cells(Value::from(*y), t))
        .chain((s.no_year.games > 0).then(|| tally_cells("(no year)".into(), &s.no_year)))
        .collect();
    aligned(&mut out, &["year", "games", "black%", "white%", "draw%"], &rows);

    let groups = |out: &mut String, title: &str, groups: &[Duplicate]| {
        section(out, format!("{title} ({})", super::counted(groups.len() as u64, "group")));
        for g in groups {
            let games: Vec<String> = g.games.iter().map(|(src, i)| format!("{src}#{i}")).collect();
            let _ = writeln!(out, "  {:016x}  {}", g.hash, games.join(", "));
        }
    };
    groups(&mut out, "Duplicate games (same game up to symmetry)", &s.duplicate_games()?);
    groups(&mut out, "Same final position (different games, up to symmetry)", &s.duplicate_finals()?);
    Ok(out)
}

/// Says on stderr what the standings did that a tournament director must know: games given
/// twice counted once, undated games joined to their event's year, and names written in more
/// than one way counted as one player.
fn warn_standings(standings: &standings::Standings) {
    if standings.nameless > 0 {
        stderr!(
            "kifu stats: warning: {} left out of the standings: a player's name is missing (`?` and WTHOR's `???` \
             name no one), so the game stands no one",
            super::counted(standings.nameless, "game")
        );
    }
    for t in standings.tables() {
        let at = t.title();
        let warn = |line: String| stderr!("kifu stats: warning: {at}: {line}");
        if t.repeated > 0 {
            warn(format!(
                "{} given again (the same players and moves, up to symmetry): each game counted once",
                super::counted(t.repeated, "game")
            ));
        }
        if let Some((round, a, b, times)) = t.same_round_pairings.first() {
            let more = match t.same_round_pairings.len() - 1 {
                0 => String::new(),
                n => format!(" (and {} more)", super::counted(n as u64, "pair")),
            };
            warn(format!(
                "{} games of {} and {} in round {}{more}: a scoresheet given twice with other moves (cut \
                 short, mistyped, the colours swapped) counts each time; check the games",
                times,
                crate::notation::printable(a),
                crate::notation::printable(b),
                crate::notation::printable(round)
            ));
        }
        if t.undated > 0 {
            warn(format!("{} with no date counted in its one year", super::counted(t.undated, "game")));
        }
        if !t.other_years.is_empty() {
            let years: Vec<String> = t.other_years.iter().map(u16::to_string).collect();
            warn(format!(
                "{} with no date, of an event of several years ({}): counted as a tournament of their own",
                super::counted(t.games, "game"),
                years.join(", ")
            ));
        }
        let others: Vec<String> = t.spellings.others().map(|n| format!("`{n}`")).collect();
        if !others.is_empty() {
            warn(format!("the event written {} counted as `{}`", others.join(", "), t.event));
        }
        if t.self_play > 0 {
            warn(format!(
                "{} with one player's name on both sides (written two ways that read as one): check the names",
                super::counted(t.self_play, "game")
            ));
        }
        for line in &t.lines {
            let others: Vec<String> = line.standing.spellings.others().map(|n| format!("`{n}`")).collect();
            if !others.is_empty() {
                warn(format!("{} counted as `{}`", others.join(", "), line.player));
            }
        }
        for (a, b) in t.perhaps_one() {
            warn(format!("`{a}` and `{b}` may be one player, counted as two (write the name one way)"));
        }
    }
}

/// The standings of every tournament, all their players unless `--top` says otherwise.
fn standings_report(out: &mut String, s: &Summary, top: Option<usize>) {
    let tables = s.standings.as_ref().map(standings::Standings::tables).unwrap_or_default();
    let title = format!("Standings ({})", super::counted(tables.len() as u64, "tournament"));
    let _ = writeln!(out, "\n{title}\n{}", "-".repeat(title.chars().count()));
    if tables.is_empty() {
        out.push_str("  no game names both players\n");
    }
    for t in &tables {
        let _ = writeln!(
            out,
            "\n  {}: {}, {}",
            t.title(),
            super::counted(t.lines.len() as u64, "player"),
            super::counted(t.games, "game")
        );
        let rows: Vec<Vec<Value>> = t.top(top.unwrap_or(usize::MAX)).iter().map(standing_row).collect();
        // The last three columns (games with no result, results from the record, results
        // without discs) only where some line counts one.
        let shown: Vec<usize> =
            (0..STANDINGS_COLUMNS.len()).filter(|&c| c < 10 || rows.iter().any(|row| row[c] != 0)).collect();
        let columns: Vec<&str> =
            shown.iter().map(|&c| if c == 8 { "opp_points" } else { STANDINGS_COLUMNS[c] }).collect();
        let rows: Vec<Vec<Value>> = rows.iter().map(|row| shown.iter().map(|&c| row[c].clone()).collect()).collect();
        aligned(out, &columns, &rows);
    }
}

/// How many rows a ranked table of the text report shows: `top 10 of 25`, or `all 3`.
fn ranked(top: usize, total: usize) -> String {
    if total <= top { format!("all {total}") } else { format!("top {top} of {total}") }
}

/// Writes the charts of `--plot`, each atomically.
fn plot(summary: &Summary, dir: &std::path::Path, top: usize) -> anyhow::Result<()> {
    use crate::render::chart::BarChart;
    let r = &summary.results;
    let charts = [
        (
            "results.svg",
            BarChart {
                title: format!("Results of {} games", summary.games),
                x_label: "result".into(),
                y_label: "games".into(),
                bars: vec![
                    ("black wins".into(), r.black_wins as f64),
                    ("draws".into(), r.draws as f64),
                    ("white wins".into(), r.white_wins as f64),
                    ("no result".into(), r.no_result as f64),
                ],
            },
        ),
        (
            "margins.svg",
            BarChart {
                title: "Black's final margin".into(),
                x_label: "margin (discs, black minus white)".into(),
                y_label: "finished games".into(),
                bars: summary.margins.iter().map(|(m, n)| (format!("{m:+}"), *n as f64)).collect(),
            },
        ),
        (
            "lengths.svg",
            BarChart {
                title: "Game length".into(),
                x_label: "discs placed".into(),
                y_label: "games".into(),
                bars: summary.lengths.iter().map(|(l, n)| (l.to_string(), *n as f64)).collect(),
            },
        ),
        (
            "openings.svg",
            BarChart {
                title: format!("The {} most played openings", summary.openings_ranked().len().min(top)),
                x_label: "opening".into(),
                y_label: "games".into(),
                bars: summary
                    .openings_ranked()
                    .into_iter()
                    .take(top)
                    .map(|o| {
                        let label = match o.name {
                            Some(name) => format!("{} {name}", o.moves),
                            None => o.moves.clone(),
                        };
                        (label, o.tally.games as f64)
                    })
                    .collect(),
            },
        ),
    ];
    for (file, chart) in charts {
        let mut out = Output::open(Some(&dir.join(file)))?;
        out.write_all(chart.to_svg().as_bytes())?;
        out.finish()?;
    }
    Ok(())
}
