//! `kifu show`: a position or a whole game (a kifu) drawn as text or SVG.

use std::io::{IsTerminal as _, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use super::records::{self, InputArgs, Source, Unread};
use super::select::SelectArgs;
use super::{Output, Status};
use crate::core::{Color, Game, Move, Passes, Position};
use crate::engine::generic;
use crate::engine::scores::{MoveScorer, ScoreError, Settings};
use crate::engine::solve::probcut_for;
use crate::notation::format::Format;
use crate::notation::reader::{RawRecord, RecordError};
use crate::notation::{Record, check};
use crate::render::diagram::Diagram;
use crate::render::svg::Theme;

/// Arguments of `kifu show`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("engine").multiple(true).args(["annotate", "line"])))]
#[command(after_help = "A position: X black, O white, - empty, . a legal move, # a hole, the last move in \
brackets; on a terminal, discs in colour (unless NO_COLOR is set or --color never). --kifu draws the game with \
each move's number on its square, passes listed under the board. Plies count every move, passes included (0 is \
the start). Exit 0 when every record shown is good, 1 otherwise, 2 for usage or I/O errors. See docs/show.md.")]
pub struct Args {
    /// What to read: game records, board strings or diagrams.
    #[command(flatten)]
    pub input: InputArgs,
    /// The record to show, 1-based, counted over all the inputs (default: the first, or the
    /// first the selection keeps).
    #[arg(long, short, conflicts_with_all = ["all", "games"], value_parser = clap::value_parser!(u64).range(1..))]
    pub game: Option<u64>,
    /// Show every record; with -o, DIR gets one file per record (game-0001.svg, ...), or a
    /// NAME.txt all the text diagrams.
    #[arg(long)]
    pub all: bool,
    /// Every record's SVG diagram on printable pages of COLUMNSxROWS (`2x3`): -o NAME.svg, or
    /// NAME-1.svg, NAME-2.svg, ... for more than one page.
    #[arg(long, value_name = "COLUMNSxROWS", value_parser = parse_sheet, conflicts_with = "game")]
    pub sheet: Option<(usize, usize)>,
    /// With --number: the number of the first diagram (the second page of a sheet goes on).
    #[arg(long, value_name = "N", requires = "number", default_value_t = 1)]
    pub number_from: u64,
    /// The position after this many plies (default: the end of the record); with --kifu, where
    /// the kifu starts (default 0): the discs there drawn, the later moves numbered.
    #[arg(long, short)]
    pub ply: Option<usize>,
    /// The game's first position with this many empty squares (as `convert --empties` cuts
    /// it), in place of --ply.
    #[arg(long, conflicts_with = "ply", value_parser = super::parse_empty_count)]
    pub empties: Option<u32>,
    /// The position after the move numbered this on a kifu (passes are not numbered), in place
    /// of --ply: `--move 40` is the board after move 40.
    #[arg(long = "move", value_name = "N", conflicts_with_all = ["ply", "empties"])]
    pub after_move: Option<usize>,
    /// The game as one diagram with the move numbers on the squares, as in printed records.
    #[arg(long)]
    pub kifu: bool,
    /// The scores of the legal moves on their squares, as `kifu annotate` values moves: exact
    /// when the move leaves at most --exact-empties empty squares, else searched --depth moves
    /// ahead after it (shown as ~+4). Other variants than standard 8x8 are scored by the slower
    /// generic engine.
    #[arg(long, conflicts_with = "kifu")]
    pub annotate: bool,
    /// The best line from the position, its moves numbered on their squares (a puzzle's
    /// solution): solved exactly when the position has at most --exact-empties empty squares,
    /// else searched --depth moves ahead.
    #[arg(long, conflicts_with_all = ["kifu", "annotate"])]
    pub line: bool,
    /// No legal-move marks and no list of the legal moves: a position to solve, for a puzzle
    /// sheet.
    #[arg(long, conflicts_with_all = ["kifu", "annotate", "line"])]
    pub hide_moves: bool,
    /// Number the diagrams drawn (`Diagram 1`, `Diagram 2`, ... over each board, in the order
    /// drawn): for puzzle and exercise sheets, with --all.
    #[arg(long)]
    pub number: bool,
    /// The board alone, with its file letters and rank numbers and its marks, without the
    /// lines over and under it (players, event, counts, legal moves, notes): one size for every
    /// position of a game, as a stream overlay needs.
    #[arg(long, conflicts_with = "number")]
    pub board_only: bool,
    /// With --board-only: two status lines under the board (whose move it is, or the result, and
    /// a pass just played; the disc counts), so that every position of a game keeps one size.
    #[arg(long, requires = "board_only")]
    pub status_line: bool,
    /// SVG: no white background behind the board and its lines (for a video overlay).
    #[arg(long)]
    pub transparent: bool,
    /// With --annotate: solve exactly the moves that leave at most this many empty squares
    /// (with --line: the positions with at most this many) [default: 18, 24 with --line (the
    /// most `kifu puzzles` looks at, so that an answer sheet is exact); 14 for other variants].
    #[arg(long, requires = "engine")]
    pub exact_empties: Option<u32>,
    /// With --annotate: moves searched ahead after each move that leaves more empty squares
    /// (with --line: from the position) [default: 10; 6 for other variants].
    #[arg(long, requires = "engine", value_parser = clap::value_parser!(u32).range(1..))]
    pub depth: Option<u32>,
    /// With --annotate or --line: the depth-limited search's selectivity in percent (73, 87,
    /// 95, 98, 99; 100 for none).
    #[arg(long, default_value_t = 87, requires = "engine")]
    pub selectivity: u32,
    /// With --annotate or --line: the solver's transposition table, in MiB.
    #[arg(long, default_value_t = 64, requires = "engine", value_parser = super::parse_hash_mb)]
    pub hash_mb: usize,
    /// Output format [default: svg when -o names a .svg file, else text].
    #[arg(long, short, value_enum)]
    pub format: Option<ShowFormat>,
    /// SVG colours: a green tournament board, or black and white for print [default: green]
    /// (SVG is then the format unless --format says another, which it refuses).
    #[arg(long, value_enum)]
    pub theme: Option<ThemeArg>,
    /// Text colours: auto = Unicode discs in colour on a terminal without NO_COLOR, else ASCII.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Write here instead of stdout (with --all: a folder, one file per record).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// No warnings and no note of the pages written; errors are still shown.
    #[arg(long, short)]
    pub quiet: bool,
    /// Which records: the first one kept is shown, or with --all every one.
    #[command(flatten)]
    pub select: SelectArgs,
}

/// `--format` values.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum ShowFormat {
    /// Text: ASCII, or Unicode in colour on a terminal.
    Text,
    /// A standalone SVG picture.
    Svg,
    /// A listing in words for a screen reader: each colour's squares, the last move named, the
    /// legal moves; a kifu's moves in order.
    List,
}

/// `--theme` values.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum ThemeArg {
    /// A green board with black and white discs.
    Green,
    /// Black and white only.
    Print,
}

/// `--color` values.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum ColorChoice {
    /// Colour when writing to a terminal, NO_COLOR is not set and TERM is not `dumb`.
    Auto,
    /// Always colour (and Unicode discs).
    Always,
    /// Plain ASCII.
    Never,
}

/// Runs `kifu show`.
pub fn run(args: Args) -> anyhow::Result<Status> {
    let color = match args.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            args.output.is_none()
                && std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
        }
    };
    let probcut = probcut_for(args.selectivity).map_err(anyhow::Error::msg)?;
    // The output's name before a `.gz` (written gzipped).
    let named = args.output.as_deref().map(|o| {
        let name = o.to_string_lossy().to_ascii_lowercase();
        name.strip_suffix(".gz").unwrap_or(&name).to_owned()
    });
    let svg_named = named.as_deref().is_some_and(|name| name.ends_with(".svg") || name.ends_with(".svgz"));
    let all = args.all || args.sheet.is_some();
    // SVG's own options ask for SVG.
    let svg_asked = args.theme.is_some() || args.transparent;
    let format = args.format.unwrap_or(if (svg_named && !all) || args.sheet.is_some() || svg_asked {
        ShowFormat::Svg
    } else {
        ShowFormat::Text
    });
    if svg_asked && format != ShowFormat::Svg {
        let option = if args.theme.is_some() { "--theme" } else { "--transparent" };
        let given = if format == ShowFormat::List { "list" } else { "text" };
        anyhow::bail!("{option} is for SVG: it cannot be used with --format {given}");
    }
    if let Some(output) = args.output.as_deref().filter(|o| o.as_os_str() != "-" && args.sheet.is_some() && !svg_named)
    {
        anyhow::bail!("--sheet writes SVG pages: give -o NAME.svg, not {}", output.display());
    }
    if args.sheet.is_some() && format != ShowFormat::Svg {
        let given = if format == ShowFormat::List { "list" } else { "text" };
        anyhow::bail!("--sheet lays out SVG diagrams: it cannot be used with --format {given}");
    }
    if let Some(kind) = named.as_deref().and_then(|name| name.rsplit_once('.')).map(|(_, ext)| ext.to_owned())
        && ["png", "jpg", "jpeg", "gif", "webp", "pdf", "bmp", "tif", "tiff"].contains(&kind.as_str())
        && !all
    {
        anyhow::bail!(
            "kifu show writes text or SVG, not .{kind}: give -o NAME.svg (and convert the SVG, e.g. with rsvg-convert)"
        );
    }
    let text_named = named.as_deref().is_some_and(|name| name.ends_with(".txt"));
    let mut sink = match args.output.as_deref().filter(|o| o.as_os_str() != "-") {
        _ if args.sheet.is_some() => Sink::Sheet(Vec::new()),
        // Text diagrams into one text file, as on stdout.
        Some(file) if all && format != ShowFormat::Svg && text_named && !file.is_dir() => {
            Sink::One(Output::open(Some(file))?)
        }
        Some(dir) if all => {
            if (svg_named || text_named) && !dir.is_dir() {
                let hint = if format == ShowFormat::Svg { "" } else { " --format svg" };
                anyhow::bail!(
                    "with --all, -o names a folder (one file per record), not an SVG file: for SVG files give{hint} -o \
                     FOLDER"
                );
            }
            if dir.exists() && !dir.is_dir() {
                anyhow::bail!("with --all, -o names a folder (one file per record); {} is a file", dir.display());
            }
            super::output::create_folder(dir)?;
            Sink::Folder(dir.to_path_buf())
        }
        None if all && format == ShowFormat::Svg => {
            anyhow::bail!(
                "--all --format svg writes one file per record: give a folder with -o DIR (or --sheet 2x3 -o NAME.svg \
                 for pages of diagrams)"
            )
        }
        output => Sink::One(Output::open(output)?),
    };
    // `--game N` is `--games N`: the first record kept is shown.
    let mut select = args.select.clone();
    if let Some(n) = args.game {
        select.games = vec![crate::stats::select::Bounds { min: Some(n), max: Some(n) }];
    }
    let (selector, mut chooser) = select.build();
    // A line is one solve: exact as far as puzzles go, so that an answer sheet of them is.
    let exact_empties = args.exact_empties.unwrap_or(if args.line { super::puzzles::MOST_EMPTIES } else { 18 });
    let settings = Settings { exact_empties, depth: args.depth.unwrap_or(10), probcut };
    let mut scorer = (args.annotate || args.line).then(|| {
        MoveScorer::new(args.hash_mb, settings).with_generic(
            args.exact_empties.unwrap_or(generic::DEFAULT_EXACT_EMPTIES),
            args.depth.unwrap_or(generic::DEFAULT_DEPTH),
        )
    });
    let (mut seen, mut shown, mut failed) = (0u64, 0u64, 0u64);
    // Without --all, --game or a selection, the transcript lines after the one drawn are
    // counted, so that moves typed a line each (each line a game) do not pass for one game
    // unsaid. (A database's other games are no surprise.)
    let count_rest = !all && args.game.is_none() && !select.any();
    // (clap's `requires` does not hold when --number, which --board-only conflicts with, is given.)
    if args.status_line && !args.board_only {
        anyhow::bail!("--status-line is for --board-only");
    }
    let mut not_drawn = 0u64;
    // Sound records without the position asked for (`--ply` past their end; a record cut
    // short by a fault is invalid data, not a wrong request).
    let mut short = 0u64;
    let problems = records::scan(&args.input, |source, item| {
        if count_rest && shown + failed > 0 {
            if source.format != Format::Transcript {
                return Ok(ControlFlow::Break(()));
            }
            not_drawn += 1;
            return Ok(ControlFlow::Continue(()));
        }
        seen += 1;
        let pick = match &item {
            Ok(raw) if selector.judging() => {
                source.read(raw).ok().and_then(|(record, rules)| selector.pick_record(&record, &rules, source.format))
            }
            _ => None,
        };
        if !chooser.keep(pick) {
            return Ok(ControlFlow::Continue(()));
        }
        let number = args.number.then_some(args.number_from + shown);
        let mut beyond = false;
        match item.and_then(|raw| draw(source, &raw, &args, (format, color), scorer.as_mut(), number, &mut beyond)) {
            Err(e) => {
                stderr!("{e}");
                failed += 1;
                short += u64::from(beyond);
            }
            Ok((text, fault)) => {
                if let Some(e) = fault {
                    stderr!("{e}");
                    failed += 1;
                }
                match &mut sink {
                    Sink::Sheet(diagrams) => diagrams.push(text),
                    Sink::Folder(dir) => write_file(dir, seen, format, &text)?,
                    Sink::One(out) => {
                        if shown > 0 {
                            writeln!(out)?;
                        }
                        out.write_all(text.as_bytes())?;
                        // Each diagram goes out whole as soon as it is drawn (a program piping
                        // positions in one by one waits for it).
                        out.flush()?;
                    }
                }
                shown += 1;
            }
        }
        Ok(if all || count_rest { ControlFlow::Continue(()) } else { ControlFlow::Break(()) })
    })?;
    let damaged = problems.warn("kifu show");
    if not_drawn > 0 && !args.quiet {
        stderr!(
            "kifu show: warning: {not_drawn} more transcript {} after the one drawn {} not drawn: each line of a \
             transcript is a game, its moves on that line (--game N draws another, --all every one)",
            if not_drawn == 1 { "record" } else { "records" },
            if not_drawn == 1 { "is" } else { "are" }
        );
    }
    if let Some(wanted) = args.game.filter(|&n| seen < n) {
        anyhow::bail!("there is no record {wanted}: the input has {seen}");
    }
    if seen == 0 {
        anyhow::bail!("there is no record to draw: the input holds none");
    }
    if shown + failed == 0 && select.any() {
        anyhow::bail!("no record is selected: {} read", super::counted(seen, "record"));
    }
    // An output file is only put in place when something was drawn.
    match (sink, shown > 0) {
        (Sink::One(out), true) => out.finish()?,
        (Sink::Sheet(diagrams), true) => {
            let (columns, rows) = args.sheet.unwrap_or((1, 1));
            let written = write_sheet(&diagrams, columns, rows, args.output.as_deref(), args.transparent)?;
            if !args.quiet
                && let Some(note) = written
            {
                stderr!("{note}");
            }
        }
        _ => {}
    }
    Ok(if shown == 0 && short > 0 && short == failed {
        // Nothing drawn, the position asked for being in no record: the asking was wrong, as
        // with `--game N` past the last record.
        Status::Error
    } else if failed + damaged > 0 {
        Status::SomeInvalid
    } else {
        Status::Ok
    })
}

/// The best line from `position` drawn on it, its moves numbered from 1, with its score: a
/// puzzle's solution.
fn line_diagram(position: &Position, scorer: &mut MoveScorer) -> Result<Diagram, String> {
    let found = match scorer.line(position) {
        Ok(found) => found,
        Err(ScoreError::GameOver) => {
            let mut diagram = Diagram::position(position, None, None, None);
            diagram.notes.push("the game is over: no line".to_owned());
            return Ok(diagram);
        }
        Err(ScoreError::Engine(e)) => return Err(format!("no line: {e}")),
    };
    let mut end = position.clone();
    let mut moves = Vec::with_capacity(found.pv.len());
    for &mv in &found.pv {
        moves.push((mv, end.side_to_move()));
        end = end.play(mv).map_err(|e| format!("the line's {mv} does not play: {e}"))?;
    }
    let mut diagram = Diagram::kifu(position, &moves, 1, &end);
    // (A kifu grid's `white first` says who opened a game; the note below names the side that
    // begins the line.)
    diagram.notes.retain(|note| note != "white first");
    let how = if found.exact { "exact".to_owned() } else { format!("estimated at depth {}", found.depth) };
    let names: Vec<String> = found.pv.iter().map(|&mv| position.rules().move_name(mv)).collect();
    diagram.notes.push(format!(
        "best line for {}: {} (score {:+}, {how})",
        position.side_to_move().name(),
        names.join(" "),
        found.score
    ));
    Ok(diagram)
}

/// Where diagrams go: one output (stdout or a file), a folder with a file per record, or the
/// pages of a sheet (the diagrams kept until all are drawn).
enum Sink {
    One(Output),
    Folder(PathBuf),
    Sheet(Vec<String>),
}

/// `2x3`: a sheet's columns and rows.
fn parse_sheet(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("`{text}` is no sheet layout: give COLUMNSxROWS, like 2x3");
    let (columns, rows) = text
        .to_ascii_lowercase()
        .split_once('x')
        .map(|(c, r)| (c.trim().to_owned(), r.trim().to_owned()))
        .ok_or_else(bad)?;
    let (columns, rows): (usize, usize) = (columns.parse().map_err(|_| bad())?, rows.parse().map_err(|_| bad())?);
    if !(1..=20).contains(&columns) || !(1..=20).contains(&rows) {
        return Err(format!("`{text}`: from 1 to 20 columns and rows"));
    }
    Ok((columns, rows))
}

/// Writes the diagrams as pages of `columns` x `rows`: to `output` (stdout without one) when
/// they fill one page, else to `NAME-1.svg`, `NAME-2.svg`, ... beside it (stdout cannot take
/// several pages); the note of the pages written, for several.
fn write_sheet(
    diagrams: &[String],
    columns: usize,
    rows: usize,
    output: Option<&Path>,
    transparent: bool,
) -> anyhow::Result<Option<String>> {
    let pages: Vec<String> =
        diagrams.chunks(columns * rows).map(|page| crate::render::sheet::page(page, columns, transparent)).collect();
    let output = output.filter(|o| o.as_os_str() != "-");
    if pages.len() == 1 {
        let mut out = Output::open(output)?;
        out.write_all(pages[0].as_bytes())?;
        return out.finish().map(|()| None);
    }
    let Some(path) = output else {
        anyhow::bail!(
            "{} diagrams make {} pages of {columns}x{rows}: give -o NAME.svg (written as NAME-1.svg, NAME-2.svg, ...)",
            diagrams.len(),
            pages.len()
        );
    };
    // `sheet.svg` gives `sheet-1.svg`; `sheet.svg.gz`, `sheet-1.svg.gz`.
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let (stem, ext) = match name.to_ascii_lowercase().find(".svg") {
        Some(at) => (name[..at].to_owned(), name[at..].to_owned()),
        None => (name.clone(), String::new()),
    };
    let mut written = Vec::new();
    // (Numbers of one width, so that the pages sort in order: NAME-01.svg ... NAME-12.svg.)
    let width = pages.len().to_string().len();
    for (i, page) in pages.iter().enumerate() {
        let file = path.with_file_name(format!("{stem}-{:0width$}{ext}", i + 1));
        let mut out = Output::open(Some(&file))?;
        out.write_all(page.as_bytes())?;
        out.finish()?;
        written.push(file.display().to_string());
    }
    Ok(Some(format!("kifu show: {} pages: {}", pages.len(), written.join(", "))))
}

/// Writes one record's diagram as `DIR/game-NNNN.svg` (or `.txt`), atomically.
fn write_file(dir: &Path, index: u64, format: ShowFormat, text: &str) -> anyhow::Result<()> {
    let ext = match format {
        ShowFormat::Text | ShowFormat::List => "txt",
        ShowFormat::Svg => "svg",
    };
    let mut file = Output::open(Some(&dir.join(format!("game-{index:04}.{ext}"))))?;
    file.write_all(text.as_bytes())?;
    file.finish()
}

/// One record drawn as asked: replayed by the core, the position or kifu picked, then rendered,
/// under its number when it has one; with the record's fault, if it has one (an illegal move,
/// a square off the board or a token that is no move: the drawing stops before it; a stated
/// result the board does not give). `beyond` is set when a sound record lacks the position
/// asked for (`--ply` past its end).
fn draw(
    source: &Source,
    raw: &RawRecord,
    args: &Args,
    (format, color): (ShowFormat, bool),
    mut scorer: Option<&mut MoveScorer>,
    number: Option<u64>,
    beyond: &mut bool,
) -> Result<(String, Option<RecordError>), RecordError> {
    let fail = |message: String| raw.error(source.name, Default::default(), message);
    // A record with an illegal move, a square off the board or a token that is no move is
    // drawn up to it (where a hand-typed game went wrong), the fault reported all the same.
    let mut fault = None;
    let (mut record, rules) = match source.read_partly(raw) {
        Ok(read) => read,
        Err(unread) => match *unread {
            Unread { mut error, before: Some((record, rules)), fix, .. } => {
                error.message.push_str("; drawn up to it");
                records::add_suggestion(&mut error.message, fix);
                fault = Some((record.moves.len() + 1, error, "does not read"));
                (record, rules)
            }
            Unread { error, before: None, .. } => return Err(error),
        },
    };
    // (A square off the board is found before an illegal move earlier in the game: cut at
    // each fault found until the moves replay; the earliest is the one reported.)
    // The likely fix, found on the whole record (as validate gives it).
    let mut fix: Option<Option<String>> = None;
    let resolved = loop {
        let e = match record.resolve(rules.clone()) {
            Ok(resolved) => break resolved,
            Err(e) => e,
        };
        fix.get_or_insert_with(|| check::check(&record, &rules, source.format).suggestion);
        let (at, why) = match &e.illegal {
            Some(bad) => (bad.ply - 1, "is illegal"),
            None => (record.moves.iter().position(|t| t.span == e.span).unwrap_or(usize::MAX), "is off the board"),
        };
        if at >= record.moves.len() {
            return Err(raw.error(source.name, e.span, e.message));
        }
        fault = Some((at + 1, raw.error(source.name, e.span, format!("{}; drawn up to it", e.message)), why));
        record.moves.truncate(at);
    };
    if let (Some((_, error, _)), Some(fix)) = (&mut fault, fix) {
        records::add_suggestion(&mut error.message, fix);
    }
    if let Some(warning) = source.unstated_side(raw, &record, &resolved.end).filter(|_| !args.quiet) {
        stderr!("kifu show: warning: {warning}");
    }
    if let Some(warning) = source.unreachable(raw, &resolved.start).filter(|_| !args.quiet) {
        stderr!("kifu show: warning: {warning}");
    }
    let moves = resolved.record.moves_under(&rules).map_err(|i| fail(format!("move {} is off the board", i + 1)))?;
    // Every ply: the position before it and the move.
    let mut plies: Vec<(Position, Move)> = Vec::with_capacity(moves.len());
    let end = Game::from_position(resolved.start.clone())
        .with_moves(moves)
        .replay_with(Passes::Explicit, |before, mv, _| plies.push((before.clone(), mv)))
        .map_err(|e| fail(e.to_string()))?
        .position;
    let at = |ply: usize| plies.get(ply).map_or(&end, |p| &p.0);
    // What the drawing stops before, for the messages about plies it does not reach.
    let short_of = |fault: &Option<(usize, RecordError, &str)>| {
        fault.as_ref().map_or(String::new(), |(ply, error, why)| {
            // The fault's likely fix (`--rules othello,size=6`) goes with it.
            let fix = error.message.find("; suggestion: ").map_or("", |at| &error.message[at..]);
            format!(" before its move {ply}, which {why}{fix}")
        })
    };
    let total = plies.len();
    // `--empties N`: the ply of the first position with N empty squares.
    let placements = plies.iter().filter(|p| p.1 != Move::Pass).count();
    let ply = match args.empties {
        None if let Some(n) = args.after_move => {
            if n > placements {
                let before = short_of(&fault);
                *beyond = fault.is_none();
                return Err(fail(format!("--move {n} is past the end: the record has {placements} moves{before}")));
            }
            // The ply just after the n-th placement (the start for 0).
            let nth_placed = |i| plies.iter().enumerate().filter(|(_, p)| p.1 != Move::Pass).nth(i);
            Some(n.checked_sub(1).and_then(nth_placed).map_or(0, |(k, _)| k + 1))
        }
        None => args.ply,
        Some(n) => match (0..=total).find(|&k| at(k).empties() == n) {
            Some(k) => Some(k),
            None => {
                let before = short_of(&fault);
                *beyond = fault.is_none();
                return Err(fail(format!("--empties {n}: the game never has {n} empty squares{before}")));
            }
        },
    };
    if let Some(ply) = ply.filter(|&p| p > total) {
        let before = short_of(&fault);
        *beyond = fault.is_none();
        return Err(fail(format!("--ply {ply} is past the end: the record has {total} plies{before}")));
    }
    // The status line (--status-line) of the position drawn, a kifu's end.
    let told;
    let mut diagram = if let (true, Some(scorer)) = (args.line, scorer.as_mut()) {
        let to = ply.unwrap_or(total);
        let last = to.checked_sub(1).map(|i| (plies[i].1, plies[i].0.side_to_move()));
        told = Some(status_line(at(to), last));
        line_diagram(at(ply.unwrap_or(total)), scorer).map_err(fail)?
    } else if args.kifu {
        let from = ply.unwrap_or(0);
        let first = 1 + plies[..from].iter().filter(|p| p.1 != Move::Pass).count() as u32;
        let moves: Vec<(Move, Color)> = plies[from..].iter().map(|(p, mv)| (*mv, p.side_to_move())).collect();
        told = Some(status_line(&end, plies.last().map(|(p, mv)| (*mv, p.side_to_move()))));
        let mut diagram = Diagram::kifu(at(from), &moves, first, &end);
        // A game that stops before its end (a resignation, a loss on time) shows the result its
        // record states, as a kifu grid writes it (and reads it back), under the count.
        if end.outcome().is_none()
            && let Some(result) = crate::notation::kifu::written_result(&resolved.record)
            && let Some(count) = diagram.notes.iter().position(|n| n.starts_with("black "))
        {
            diagram.notes.insert(count + 1, format!("Result: {result}"));
        }
        diagram
    } else {
        let to = ply.unwrap_or(total);
        let position = at(to);
        let last = to.checked_sub(1).map(|i| (plies[i].1, plies[i].0.side_to_move()));
        told = Some(status_line(position, last));
        let (scores, note) = match scorer.map(|s| s.score(position)) {
            None | Some(Err(ScoreError::GameOver)) => (None, None),
            Some(Ok(scores)) => (Some(scores), None),
            Some(Err(ScoreError::Engine(e))) => (None, Some(format!("no annotation: {e}"))),
        };
        let ply = (total > 0).then_some((to, total));
        let mut diagram = Diagram::position(position, ply, last, scores.as_deref());
        diagram.notes.extend(note);
        if args.hide_moves {
            diagram.hide_legal_moves();
        }
        diagram
    };
    (diagram.players, diagram.title) = heading(&resolved.record);
    if let Some(n) = number {
        diagram.title.insert(0, format!("Diagram {n}"));
    }
    if let Some((ply, _, why)) = &fault {
        diagram.notes.push(format!("the record's move {ply} {why}: drawn up to it"));
    }
    // A stated result the board does not give is reported (exit 1) and noted under the board
    // (not under a text kifu grid, whose count line reads back as its result: the note's
    // counts would contradict it).
    let check = fault.is_none().then(|| check::check(&record, &rules, source.format));
    if let Some(check) = check.filter(|c| c.status == check::Status::ResultMismatch)
        && let (Some(problem), Some(error)) = (&check.problem, source.problem(raw, &check))
    {
        if !(args.kifu && format == ShowFormat::Text) {
            diagram.notes.push(problem.reason.clone());
        }
        fault = Some((0, error, ""));
    }
    if args.board_only {
        (diagram.players, diagram.title, diagram.notes) = (None, Vec::new(), Vec::new());
        if args.status_line {
            diagram.notes.extend(told.into_iter().flatten());
        }
    }
    let text = match format {
        ShowFormat::Text => diagram.to_text(color),
        ShowFormat::List => diagram.to_listing(),
        ShowFormat::Svg => {
            let theme = match args.theme.unwrap_or(ThemeArg::Green) {
                ThemeArg::Green => Theme::Green,
                ThemeArg::Print => Theme::Print,
            };
            diagram.to_svg_with(theme, !args.transparent)
        }
    };
    Ok((text, fault.map(|(_, e, _)| e)))
}

/// The two lines of `--status-line`: whose move it is (or the result) with a pass just played
/// (`last`), then the disc counts: `white to move (black passed)`, `black 30, white 20`. (Two
/// short lines, so that no board is too narrow for them: the same height for every position.)
fn status_line(position: &Position, last: Option<(Move, Color)>) -> [String; 2] {
    let state = match position.outcome() {
        Some(outcome) => match outcome.winner {
            Some(winner) => format!("game over: {winner} wins by {}", outcome.margin),
            None => "game over: a draw".to_owned(),
        },
        None if position.has_placement() => format!("{} to move", position.side_to_move()),
        None => format!("{} to move, must pass", position.side_to_move()),
    };
    let passed = match last {
        Some((Move::Pass, color)) => format!(" ({color} passed)"),
        _ => String::new(),
    };
    let (black, white) = (position.count(Color::Black), position.count(Color::White));
    [format!("{state}{passed}"), format!("black {black}, white {white}")]
}

/// What goes over the board, from the record's tags: the players (black first), and a line
/// with the event, date and round; nothing for a record without them.
fn heading(record: &Record) -> (Option<[String; 2]>, Vec<String>) {
    let known = |name: &str| {
        record
            .tag(name)
            .map(str::trim)
            .filter(|v| !v.chars().all(|c| c == '?'))
            .map(|v| crate::notation::printable(v).into_owned())
    };
    let players = crate::notation::board::players_of(record);
    // Dates as ISO writes them (GGS's seconds since 1970 are no date to read).
    let date = known("date").map(|d| crate::notation::date::Date::iso_or_as_written(&d));
    // A line of a date alone gets words, so that it reads back as text, not as a rank.
    let (event_name, round) = (known("event"), known("round"));
    let date = date.map(|d| if event_name.is_none() && round.is_none() { format!("played on {d}") } else { d });
    let mut event: Vec<String> = [event_name, date].into_iter().flatten().collect();
    event.extend(round.map(|r| format!("round {r}")));
    // A caption typed over a board (`Exercise 3: black to play and win`) first.
    let mut title: Vec<String> = known("caption").into_iter().collect();
    title.extend((!event.is_empty()).then(|| event.join(", ")));
    (players, title)
}
