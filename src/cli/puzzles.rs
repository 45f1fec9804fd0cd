//! `kifu puzzles`: positions from real games worth setting as puzzles, solved exactly: where one
//! move alone wins (or saves the draw), or where the player to move went wrong by many discs.

use std::io::Write as _;
use std::time::Instant;

use serde::Serialize;

use super::output::Output;
use super::progress::Progress;
use super::records::{self, InputArgs, Source};
use super::select::{Pick, SelectArgs, Selector};
use super::{Status, counted};
use crate::core::{Color, Move, Passes, Position};
use crate::engine::analysis::{result_sign, tie_taker};
use crate::engine::scores::{MoveScore, MoveScorer, Settings};
use crate::notation::reader::{RawRecord, RecordError};

/// Arguments of `kifu puzzles`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  kifu puzzles games.wtb --player kashiwabara --empties 10-16
  kifu puzzles games.pgn --kind only -o puzzles.obf
  kifu show puzzles.obf --sheet 2x3 --hide-moves --number --theme print -o sheet.svg
  kifu show puzzles.obf --sheet 2x3 --line --number --theme print -o answers.svg")]
pub struct Args {
    /// Input records.
    #[command(flatten)]
    pub input: InputArgs,
    /// Which records.
    #[command(flatten)]
    pub select: SelectArgs,
    /// The positions looked at: those with this many empty squares (`14`) or a range (`10-16`;
    /// at most 24, as each is solved exactly).
    #[arg(long, default_value = "10-16", value_parser = parse_empties)]
    pub empties: (u32, u32),
    /// Which puzzles: `only` (one move alone wins, or alone saves a draw), `mistake` (the move
    /// played lost at least --min-loss discs) or `any` (either).
    #[arg(long, value_enum, default_value_t = Kind::Any)]
    pub kind: Kind,
    /// The discs the move played must lose to make a `mistake` puzzle.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(i32).range(1..=128))]
    pub min_loss: i32,
    /// At most this many puzzles from one game: its first ones that no earlier game set.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub per_game: Option<u32>,
    /// Worker threads (default: every core; RAYON_NUM_THREADS when set).
    #[arg(long, short = 'j', value_parser = super::parse_threads)]
    pub threads: Option<usize>,
    /// Transposition table size per thread, in MiB.
    #[arg(long, default_value_t = 16, value_parser = super::parse_hash_mb)]
    pub hash_mb: usize,
    /// Output format (default: text, or what the -o file's name ends in): text, csv, json (JSON
    /// Lines) or obf (each puzzle's board, side and every move's exact score, which `kifu show`
    /// and `kifu solve` read).
    #[arg(long = "format", short = 'f', value_enum, value_name = "FORMAT")]
    pub format_given: Option<PuzzleFormat>,
    /// The format used.
    #[arg(skip)]
    pub format: PuzzleFormat,
    /// Write here instead of stdout.
    #[arg(long, short)]
    pub output: Option<std::path::PathBuf>,
    /// No progress and no summary on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `--kind` values.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum Kind {
    /// One move alone wins, or alone saves a draw.
    Only,
    /// The move played lost at least --min-loss discs.
    Mistake,
    /// Either.
    Any,
}

/// `--format` values of `kifu puzzles`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, clap::ValueEnum)]
pub enum PuzzleFormat {
    /// One line a puzzle, and its players.
    #[default]
    Text,
    /// CSV with a header row.
    Csv,
    /// JSON Lines: one object per line.
    Json,
    /// OBF lines: board, side and every move's exact score.
    Obf,
}

/// The most empty squares a puzzle position may have (each is solved exactly, every move).
pub(crate) const MOST_EMPTIES: u32 = 24;

/// `10-16` or `14`: the empties looked at, at most [`MOST_EMPTIES`] (each position is solved
/// exactly).
fn parse_empties(text: &str) -> Result<(u32, u32), String> {
    let number =
        |s: &str| s.trim().parse::<u32>().map_err(|_| format!("`{text}` is no count of empty squares (14, or 10-16)"));
    let (low, high) = match text.split_once('-') {
        Some((low, high)) => (number(low)?, number(high)?),
        None => (number(text)?, number(text)?),
    };
    if low > high {
        return Err(format!("`{text}`: the range goes from the smaller count to the larger (10-16)"));
    }
    if high > MOST_EMPTIES {
        return Err(format!(
            "`{text}`: at most {MOST_EMPTIES} empty squares (every move of each position is solved exactly)"
        ));
    }
    if low == 0 {
        return Err(format!("`{text}`: a position with no empty square has no move to find (at least 1)"));
    }
    Ok((low, high))
}

/// One puzzle; the field order is the documented column order.
#[derive(Serialize, Debug, Clone, PartialEq)]
struct Row {
    source: String,
    game: usize,
    /// The ply about to be played (1-based; passes count, as in `kifu annotate`).
    ply: usize,
    /// The number the move would have on a kifu diagram (passes do not count).
    move_number: usize,
    empties: u32,
    side: &'static str,
    /// `only`, `mistake` or `only+mistake`.
    kind: &'static str,
    board: String,
    best_moves: String,
    best_score: i32,
    played: String,
    played_score: i32,
    loss: i32,
    /// Every legal move with its exact score, best first (`g8:+18 h1:-4`).
    moves: String,
    black_player: String,
    white_player: String,
    event: String,
    date: String,
    /// The rules as a kifu spec (`othello` for standard Othello).
    rules: String,
    /// The position up to the board's symmetries and its side to move (with `rules`): an
    /// earlier game's puzzle at the same position is not given again.
    #[serde(skip)]
    position_key: ([u64; 8], Color),
}

/// What became of one record.
enum Found {
    /// The selection leaves it out.
    Refused,
    /// Its puzzles (none, maybe), the positions solved, and how it was picked.
    Puzzles(Vec<Row>, u64, Option<Pick>),
    /// Not asked for by `--games`, only judged for `--unique`: how it was picked.
    Judged(Option<Pick>),
}

/// Runs `kifu puzzles`.
pub fn run(mut args: Args) -> anyhow::Result<Status> {
    args.format = super::format_for(args.format_given, args.output.as_deref(), PuzzleFormat::Text);
    let started = Instant::now();
    args.input.check(args.output.as_deref())?;
    let mut out = Output::open(args.output.as_deref())?;
    let threads = super::worker_threads(args.threads);
    let (high, hash_mb) = (args.empties.1, args.hash_mb);
    let settings = Settings { exact_empties: high, depth: 0, probcut: None };
    let mut workers: Vec<MoveScorer> =
        (0..threads).map(|_| MoveScorer::new(hash_mb, settings).with_generic(high, 0)).collect();
    let (selector, mut chooser) = args.select.build();
    // Reading stops after the last record `--games` asks for.
    args.input.records_wanted = chooser.numbers().read_up_to();
    let (numbers, ahead) = (chooser.numbers(), chooser.judged_ahead());
    let progress = Progress::new(args.quiet, "finding puzzles");
    if args.format == PuzzleFormat::Csv {
        writeln!(out, "{}", CSV_HEADER)?;
    }
    let (mut games, mut invalid, mut solved) = (0u64, 0u64, 0u64);
    let (mut only, mut mistakes, mut puzzles, mut repeated) = (0u64, 0u64, 0u64, 0u64);
    let mut given = std::collections::HashSet::new();
    let problems = records::for_each_ordered(
        &args.input,
        &mut workers,
        |index| numbers.contains(index) || index < ahead,
        |scorer, source, index, raw| {
            if numbers.contains(index) {
                find(scorer, source, raw, &args, &selector)
            } else {
                // Read for --unique only.
                Ok(Found::Judged(selector.judge_only(source, raw)))
            }
        },
        |_, index, result| {
            progress.inc();
            let result = result.and_then(|r| r);
            let pick = match &result {
                Ok(Found::Refused) => Some(Pick::Refused),
                Ok(Found::Puzzles(_, _, pick) | Found::Judged(pick)) => *pick,
                Err(_) => None,
            };
            if !chooser.keep_numbered(index, pick) {
                return Ok(());
            }
            match result {
                Err(e) => {
                    progress.suspend(|| stderr!("{e}"));
                    invalid += 1;
                }
                Ok(Found::Refused | Found::Judged(_)) => unreachable!("a refused game is not kept"),
                Ok(Found::Puzzles(rows, positions, _)) => {
                    games += 1;
                    solved += positions;
                    // The first --per-game puzzles of the game that no earlier game set.
                    let mut taken = 0;
                    for row in rows {
                        if args.per_game.is_some_and(|n| taken >= n) {
                            break;
                        }
                        if !given.insert((row.position_key, row.rules.clone())) {
                            repeated += 1;
                            continue;
                        }
                        taken += 1;
                        puzzles += 1;
                        only += u64::from(row.kind.starts_with("only"));
                        mistakes += u64::from(row.kind.ends_with("mistake"));
                        write_row(&mut out, &row, args.format)?;
                    }
                    progress.suspend(|| out.flush())?;
                }
            }
            Ok(())
        },
    )?;
    progress.finish();
    let damaged = problems.warn("kifu puzzles");
    out.finish()?;
    chooser.warn_past_the_end("kifu puzzles");
    if !args.quiet {
        let (low, high) = args.empties;
        let empties = if low == high { format!("{low} empties") } else { format!("{low}-{high} empties") };
        let repeats = match repeated {
            0 => String::new(),
            n => format!(", {} left out as an earlier game's (the same position up to symmetry)", counted(n, "puzzle")),
        };
        stderr!(
            "kifu puzzles: {} ({only} with an only move, {mistakes} after a mistake) in {}, {} at {empties} solved{repeats}{} ({:.2} s)",
            counted(puzzles, "puzzle"),
            counted(games, "game"),
            counted(solved, "position"),
            if invalid > 0 { format!(", {}", counted(invalid, "invalid record")) } else { String::new() },
            started.elapsed().as_secs_f64()
        );
    }
    Ok(if invalid + damaged > 0 { Status::SomeInvalid } else { Status::Ok })
}

/// The CSV header: [`Row`]'s fields.
const CSV_HEADER: &str = "source,game,ply,move_number,empties,side,kind,board,best_moves,best_score,played,\
                          played_score,loss,moves,black_player,white_player,event,date,rules";

/// Writes one puzzle in `format`.
fn write_row(out: &mut Output, row: &Row, format: PuzzleFormat) -> anyhow::Result<()> {
    match format {
        PuzzleFormat::Csv => {
            let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
            w.serialize(row)?;
            out.write_all(&w.into_inner().map_err(|e| anyhow::Error::from(e.into_error()))?)?;
        }
        PuzzleFormat::Json => writeln!(out, "{}", serde_json::to_string(row)?)?,
        PuzzleFormat::Obf => {
            let mut line = format!("{};", row.board);
            for entry in row.moves.split_whitespace() {
                line.push_str(&format!(" {};", entry.to_uppercase()));
            }
            writeln!(out, "{line}")?;
        }
        PuzzleFormat::Text => writeln!(out, "{}", text(row))?,
    }
    Ok(())
}

/// A puzzle as text: where it is, what the solution is, what was played; then the players.
fn text(row: &Row) -> String {
    let side = if row.side == "black" { "Black" } else { "White" };
    let best = row.best_moves.replace(' ', " or ");
    let solution = match row.kind {
        "mistake" => format!("best {best} ({:+})", row.best_score),
        _ if row.best_score > 0 || row.best_moves.is_empty() => {
            format!("only winning move {best} ({:+})", row.best_score)
        }
        _ => format!("only move that keeps the result {best} ({:+})", row.best_score),
    };
    let played = if row.loss > 0 {
        format!("{} was played ({:+}, {} lost)", row.played, row.played_score, row.loss)
    } else {
        format!("{} was played", row.played)
    };
    let mut line = format!(
        "{} game {}, move {} ({} empties): {side} to move, {solution}; {played}\n  {}",
        row.source, row.game, row.move_number, row.empties, row.board
    );
    if row.rules != "othello" {
        line.push_str(&format!("  (rules {})", row.rules));
    }
    let players = [&row.black_player, &row.white_player].iter().any(|n| !n.is_empty()).then(|| {
        let name = |n: &str| if n.is_empty() { "?".to_owned() } else { n.to_owned() };
        format!("{} - {}", name(&row.black_player), name(&row.white_player))
    });
    let about: Vec<&str> = [players.as_deref(), Some(row.event.as_str()), Some(row.date.as_str())]
        .into_iter()
        .flatten()
        .filter(|s| !s.is_empty())
        .collect();
    if !about.is_empty() {
        line.push_str(&format!("\n  {}", about.join(", ")));
    }
    line
}

/// The puzzles of one record: every position of the game with as many empty squares as asked,
/// a choice of two moves or more, and a move played from it, solved move by move.
fn find(
    scorer: &mut MoveScorer,
    source: &Source,
    raw: &RawRecord,
    args: &Args,
    selector: &Selector,
) -> Result<Found, RecordError> {
    let (record, rules) = source.read(raw)?;
    let pick = selector.pick_record(&record, &rules, source.format);
    if pick == Some(Pick::Refused) {
        return Ok(Found::Refused);
    }
    let game = record.game(rules.clone()).map_err(|e| raw.error(source.name, e.span, e.message))?;
    let mut steps: Vec<(Position, Move)> = Vec::new();
    game.replay_with(Passes::Implicit, |before, mv, _| steps.push((before.clone(), mv))).map_err(|e| {
        let message = format!("ply {}: {} is illegal: {}", e.ply, rules.move_name(e.mv), e.reason);
        let span = record.moves.get(e.ply - 1).map(|t| t.span).unwrap_or_default();
        raw.error(source.name, span, message)
    })?;
    let (low, high) = args.empties;
    let names = |tag: &str| record.name_or_number(tag).unwrap_or_default();
    let (black, white) = (names("black"), names("white"));
    let event = record.name_or_number("event").unwrap_or_default();
    let date = crate::notation::date::Date::iso_or_as_written(record.tag("date").unwrap_or_default());
    let (mut rows, mut positions, mut placements) = (Vec::new(), 0u64, 0usize);
    for (ply, (position, played)) in steps.iter().enumerate() {
        if *played != Move::Pass {
            placements += 1;
        }
        let empties = position.empties();
        let choices = position.legal_moves().into_iter().filter(|&m| m != Move::Pass).count();
        if !(low..=high).contains(&empties) || choices < 2 {
            continue;
        }
        let scores = scorer.score(position).map_err(|e| raw.error(source.name, Default::default(), e.to_string()))?;
        positions += 1;
        if let Some(mut row) = puzzle(position, *played, &scores, args) {
            row.source = source.name.to_owned();
            row.game = raw.index + 1;
            row.ply = ply + 1;
            row.move_number = placements;
            (row.black_player, row.white_player, row.event, row.date) =
                (black.clone(), white.clone(), event.clone(), date.clone());
            rows.push(row);
        }
    }
    Ok(Found::Puzzles(rows, positions, pick))
}

/// The puzzle a position makes, if it makes one of the kind asked: every score exact, and one
/// move alone keeping the best result (a win or a draw), or the move played losing at least
/// `--min-loss` discs.
fn puzzle(position: &Position, played: Move, scores: &[MoveScore], args: &Args) -> Option<Row> {
    if scores.iter().any(|s| !s.exact) {
        return None;
    }
    let mover = position.side_to_move();
    let taker = tie_taker(position);
    let best = scores.iter().map(|s| s.score).max()?;
    let result = |score: i32| result_sign(score, mover, taker);
    let keeping = scores.iter().filter(|s| result(s.score) == result(best)).count();
    let only = result(best) >= 0 && keeping == 1;
    let played_score = scores.iter().find(|s| s.mv == played)?.score;
    let mistake = best - played_score >= args.min_loss;
    let kind = match (only, mistake, args.kind) {
        (true, true, Kind::Any) => "only+mistake",
        (true, _, Kind::Any | Kind::Only) => "only",
        (_, true, Kind::Any | Kind::Mistake) => "mistake",
        _ => return None,
    };
    let rules = position.rules();
    let name = |mv: Move| rules.move_name(mv).to_string();
    let best_moves: Vec<String> = scores.iter().filter(|s| s.score == best).map(|s| name(s.mv)).collect();
    let moves: Vec<String> = scores.iter().map(|s| format!("{}:{:+}", name(s.mv), s.score)).collect();
    Some(Row {
        source: String::new(),
        game: 0,
        ply: 0,
        move_number: 0,
        empties: position.empties(),
        side: if mover == Color::Black { "black" } else { "white" },
        kind,
        board: format!("{} {}", position.board_string(), if mover == Color::Black { 'X' } else { 'O' }),
        position_key: (position.canonical_words(), mover),
        best_moves: best_moves.join(" "),
        best_score: best,
        played: name(played),
        played_score,
        loss: best - played_score,
        moves: moves.join(" "),
        black_player: String::new(),
        white_player: String::new(),
        event: String::new(),
        date: String::new(),
        rules: rules.variant().spec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empties_are_one_count_or_a_range() {
        assert_eq!(parse_empties("14"), Ok((14, 14)));
        assert_eq!(parse_empties("10-16"), Ok((10, 16)));
        assert!(parse_empties("16-10").unwrap_err().contains("smaller count"));
        assert!(parse_empties("10-30").unwrap_err().contains("at most 24"));
        assert!(parse_empties("x").unwrap_err().contains("no count"));
        assert!(parse_empties("0").unwrap_err().contains("at least 1"));
    }
}
