//! `kifu show`: a position or a whole game (a kifu) drawn as text or SVG.

use std::io::{IsTerminal as _, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use anyhow::Context as _;

use super::records::{self, InputArgs, Source};
use super::{Output, Status};
use crate::core::{Color, Game, Move, Passes, Position};
use crate::engine::scores::{MoveScorer, ScoreError};
use crate::notation::Record;
use crate::notation::reader::{RawRecord, RecordError};
use crate::render::diagram::Diagram;
use crate::render::svg::Theme;

/// Arguments of `kifu show`.
#[derive(clap::Args, Debug)]
#[command(after_help = "A position: X black, O white, - empty, . a legal move, # a hole, the last move in \
brackets (plain text), or discs in colour on a terminal. --kifu draws the game with each move's number on its \
square. Plies count every move, passes included (0 is the start). Text is coloured on a terminal unless NO_COLOR \
is set. Exit 0 when every record shown is good, 1 otherwise, 2 for usage or I/O errors. See docs/output.md.")]
pub struct Args {
    /// What to read: game records, board strings or diagrams.
    #[command(flatten)]
    pub input: InputArgs,
    /// The record to show, 1-based, counted over all the inputs (default: the first).
    #[arg(long, short, conflicts_with = "all")]
    pub game: Option<usize>,
    /// Show every record; with -o, DIR gets one file per record (game-0001.svg, ...).
    #[arg(long)]
    pub all: bool,
    /// The position after this many plies (default: the end); with --kifu, the last move drawn.
    #[arg(long, short)]
    pub ply: Option<usize>,
    /// The game as one diagram with the move numbers on the squares.
    #[arg(long)]
    pub kifu: bool,
    /// With --kifu: start from the position after this many plies (its discs drawn, later moves
    /// numbered).
    #[arg(long, default_value_t = 0, requires = "kifu")]
    pub from_ply: usize,
    /// Scores of the legal moves on their squares (standard 8x8): exact with at most
    /// --exact-empties empty squares, else estimates from a search 10 moves ahead (shown as ~+4).
    #[arg(long, conflicts_with = "kifu")]
    pub annotate: bool,
    /// With --annotate: solve exactly up to this many empty squares.
    #[arg(long, default_value_t = 18, requires = "annotate")]
    pub exact_empties: u32,
    /// With --annotate: the solver's transposition table, in MiB.
    #[arg(long, default_value_t = 64, requires = "annotate")]
    pub hash_mb: usize,
    /// Output format.
    #[arg(long, short, value_enum, default_value_t = ShowFormat::Text)]
    pub format: ShowFormat,
    /// SVG colours: a green tournament board, or black and white for print.
    #[arg(long, value_enum, default_value_t = ThemeArg::Green)]
    pub theme: ThemeArg,
    /// Text colours: auto = Unicode discs in colour on a terminal without NO_COLOR, else ASCII.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Write here instead of stdout (with --all: a folder, one file per record).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

/// `--format` values.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum ShowFormat {
    /// Text: ASCII, or Unicode in colour on a terminal.
    Text,
    /// A standalone SVG picture.
    Svg,
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
    /// Colour when writing to a terminal and NO_COLOR is not set.
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
        }
    };
    let folder = match (&args.output, args.all) {
        (Some(dir), true) => {
            std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
            Some(dir.clone())
        }
        (None, true) if args.format == ShowFormat::Svg => {
            anyhow::bail!("--all --format svg writes one file per record: give a folder with -o DIR")
        }
        _ => None,
    };
    let mut out = match folder {
        Some(_) => None,
        None => Some(Output::open(args.output.as_deref())?),
    };
    let wanted = args.game.unwrap_or(1);
    if wanted == 0 {
        anyhow::bail!("--game counts from 1");
    }
    let mut scorer = args.annotate.then(|| MoveScorer::new(args.hash_mb, args.exact_empties));
    let (mut seen, mut shown, mut failed) = (0usize, 0usize, 0usize);
    records::scan(&args.input, |source, item| {
        seen += 1;
        if !args.all && seen != wanted {
            return Ok(ControlFlow::Continue(()));
        }
        match item.and_then(|raw| draw(source, &raw, &args, color, scorer.as_mut())) {
            Err(e) => {
                eprintln!("{e}");
                failed += 1;
            }
            Ok(text) => {
                match (&folder, &mut out) {
                    (Some(dir), _) => write_file(dir, seen, args.format, &text)?,
                    (None, Some(out)) => {
                        if shown > 0 {
                            writeln!(out)?;
                        }
                        out.write_all(text.as_bytes())?;
                    }
                    (None, None) => unreachable!("stdout or a file when there is no folder"),
                }
                shown += 1;
            }
        }
        Ok(if args.all { ControlFlow::Continue(()) } else { ControlFlow::Break(()) })
    })?;
    if !args.all && seen < wanted {
        anyhow::bail!("there is no record {wanted}: the input has {seen}");
    }
    if let Some(out) = out {
        out.finish()?;
    }
    Ok(if failed > 0 { Status::SomeInvalid } else { Status::Ok })
}

/// Writes one record's diagram as `DIR/game-NNNN.svg` (or `.txt`), atomically.
fn write_file(dir: &Path, index: usize, format: ShowFormat, text: &str) -> anyhow::Result<()> {
    let ext = match format {
        ShowFormat::Text => "txt",
        ShowFormat::Svg => "svg",
    };
    let mut file = Output::open(Some(&dir.join(format!("game-{index:04}.{ext}"))))?;
    file.write_all(text.as_bytes())?;
    file.finish()
}

/// One record drawn as asked: replayed by the core, the position or kifu picked, then rendered.
fn draw(
    source: &Source,
    raw: &RawRecord,
    args: &Args,
    color: bool,
    scorer: Option<&mut MoveScorer>,
) -> Result<String, RecordError> {
    let fail = |message: String| raw.error(source.name, Default::default(), message);
    let (record, rules) = source.read(raw)?;
    let resolved = record.resolve(rules.clone()).map_err(|e| raw.error(source.name, e.span, e.message))?;
    let moves = resolved.record.moves_under(&rules).map_err(|i| fail(format!("move {} is off the board", i + 1)))?;
    // Every ply: the position before it and the move.
    let mut plies: Vec<(Position, Move)> = Vec::with_capacity(moves.len());
    let end = Game::from_position(resolved.start.clone())
        .with_moves(moves)
        .replay_with(Passes::Explicit, |before, mv, _| plies.push((before.clone(), mv)))
        .map_err(|e| fail(e.to_string()))?
        .position;
    let at = |ply: usize| plies.get(ply).map_or(&end, |p| &p.0);
    let total = plies.len();
    let to = args.ply.unwrap_or(total);
    if to > total {
        return Err(fail(format!("--ply {to} is past the end: the record has {total} plies")));
    }
    let mut diagram = if args.kifu {
        let from = args.from_ply;
        if from > to {
            return Err(fail(format!("--from-ply {from} is after ply {to}")));
        }
        let first = 1 + plies[..from].iter().filter(|p| p.1 != Move::Pass).count() as u32;
        let moves: Vec<(Move, Color)> = plies[from..to].iter().map(|(p, mv)| (*mv, p.side_to_move())).collect();
        Diagram::kifu(at(from), &moves, first, at(to))
    } else {
        let position = at(to);
        let last = to.checked_sub(1).map(|i| (plies[i].1, plies[i].0.side_to_move()));
        let (scores, note) = match scorer.map(|s| s.score(position)) {
            None => (None, None),
            Some(Ok(scores)) => (Some(scores), None),
            Some(Err(ScoreError::GameOver)) => (None, None),
            Some(Err(e @ ScoreError::Unsupported)) => (None, Some(format!("no annotation: {e}"))),
        };
        let ply = (total > 0).then_some((to, total));
        let mut diagram = Diagram::position(position, ply, last, scores.as_deref());
        diagram.notes.extend(note);
        diagram
    };
    diagram.title = title(&resolved.record);
    Ok(match args.format {
        ShowFormat::Text => diagram.to_text(color),
        ShowFormat::Svg => diagram.to_svg(match args.theme {
            ThemeArg::Green => Theme::Green,
            ThemeArg::Print => Theme::Print,
        }),
    })
}

/// The lines over the board: the players (black first) and the event, date and round, from the
/// record's tags; nothing for a record without them.
fn title(record: &Record) -> Vec<String> {
    let known = |name: &str| record.tag(name).map(str::trim).filter(|v| !v.is_empty() && *v != "?");
    let mut lines = Vec::new();
    match (known("black"), known("white")) {
        (None, None) => {}
        (b, w) => lines.push(format!("{} (black) - {} (white)", b.unwrap_or("?"), w.unwrap_or("?"))),
    }
    let mut event: Vec<String> = [known("event"), known("date")].into_iter().flatten().map(str::to_owned).collect();
    event.extend(known("round").map(|r| format!("round {r}")));
    if !event.is_empty() {
        lines.push(event.join(", "));
    }
    lines
}
