//! `kifu play`: games that kifu plays against itself, from openings (any records: each game
//! goes on from a record's last position) or from the start position, with random moves first
//! if asked; written in any game format. For test sets with a known spread and for training data.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};

use anyhow::Context as _;

use super::engine_args::{Engine, EngineArgs};
use super::progress::Progress;
use super::records::{self, FormatParser, InputArgs};
use super::{Output, Status};
use crate::core::{Move, Position, Rules, splitmix64};
use crate::engine::analysis::{Analyst, Settings, SolverAnalyst};
use crate::engine::eval::Evaluator;
use crate::engine::generic::{GenericAnalyst, GenericSearcher};
use crate::engine::solve::{Solver, SolverSet};
use crate::notation::format::{self, Format};
use crate::notation::{MoveToken, Record, Resolved, shape};

/// The text format an output's name says (`.json` and `.jsonl` are JSON Lines), transcript for
/// any other name; a WTHOR name is refused (`kifu play` writes text).
fn format_of(path: &std::path::Path) -> anyhow::Result<Format> {
    match super::record_format_named(path).unwrap_or(Format::Transcript) {
        Format::Wthor => {
            anyhow::bail!("kifu play writes text formats: give --to, or -o another name than {}", path.display())
        }
        format => Ok(format),
    }
}

/// Arguments of `kifu play`.
#[derive(clap::Args, Debug)]
#[command(mut_arg("inputs", |a| a.help("Openings: game records or positions (`-` is stdin); without any, the start position")))]
#[command(after_help = "Without input files the games start from the start position of --rules (standard \
Othello by default); with files, game K starts from the last position of opening K (taken in turn when there \
are fewer openings than games), its moves kept. --random plays that many uniformly random moves first; then \
kifu plays both sides: positions with at most --exact-empties empty squares perfectly, earlier ones by a \
--depth search. Each game's random moves follow from --seed and its number, and each game starts from an empty \
table, so the games are the same for any --threads (not with --time). Each move's value (discs, for the side \
that moved; exact or searched) is written where the format holds it (GGF, SGF, PGN, JSON). See docs/output.md.")]
pub struct Args {
    /// Openings (default: none, the start position; `-` is stdin).
    #[command(flatten)]
    pub input: InputArgs,
    /// Games to play [default: one per opening; 1 without openings].
    #[arg(long, short = 'n')]
    pub games: Option<usize>,
    /// Uniformly random moves played after the opening, before kifu's own.
    #[arg(long, default_value_t = 0, value_name = "PLIES")]
    pub random: u32,
    /// The seed of the random moves.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// How kifu chooses its moves (`--exact-empties`: play perfectly from there).
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Games played at once (default: `RAYON_NUM_THREADS`, else every core).
    #[arg(long, short = 'j', value_parser = super::parse_threads)]
    pub threads: Option<usize>,
    /// Transposition table per thread, in MiB.
    #[arg(long, default_value_t = 64, value_parser = super::parse_hash_mb)]
    pub hash_mb: usize,
    /// The format to write the games in [default: the one -o's name says (`games.pgn`,
    /// `games.json`, `.ggf`, `.sgf`, `.gam`, `.obf`), else transcript].
    #[arg(long, short, value_parser = FormatParser::TEXT)]
    pub to: Option<Format>,
    /// Write here instead of stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// No progress bar and no summary.
    #[arg(long, short)]
    pub quiet: bool,
}

/// How the games are played.
struct Plan {
    openings: Vec<Resolved>,
    random: u32,
    seed: u64,
    settings: Settings,
    generic: Settings,
    probcut: Option<f64>,
    evaluator: Option<Arc<Evaluator>>,
    hash_mb: usize,
    to: Format,
}

/// Runs `kifu play`.
pub fn run(args: Args) -> anyhow::Result<Status> {
    let Engine { settings, generic, probcut, evaluator } = args.engine.engine("kifu play", args.quiet)?;
    let (openings, skipped) = openings(&args)?;
    let plan = Plan {
        openings,
        random: args.random,
        seed: args.seed,
        settings,
        generic,
        probcut,
        evaluator,
        hash_mb: args.hash_mb,
        to: match (args.to, args.output.as_deref()) {
            (Some(to), _) => to,
            (None, Some(path)) => format_of(path)?,
            (None, None) => Format::Transcript,
        },
    };
    if plan.openings.is_empty() {
        anyhow::bail!("no opening to play from: the input holds no record that replays");
    }
    if let Some(e) = plan.openings.iter().find_map(|o| shape::fits(o, plan.to).err()) {
        anyhow::bail!("an opening does not fit --to {}: {e}", plan.to);
    }
    let games = args.games.unwrap_or(if args.input.inputs.is_empty() { 1 } else { plan.openings.len() });
    let openings = plan.openings.len();
    if plan.random == 0 && games > openings && args.engine.time.is_none() && !args.quiet {
        stderr!(
            "kifu play: warning: {games} games from {} with --random 0: kifu plays the same moves from the same \
             opening, so game {} repeats game 1 and so on; --random PLIES varies them",
            super::counted(openings as u64, "opening"),
            openings + 1
        );
    }
    let threads = super::worker_threads(args.threads);
    let threads = threads.clamp(1, games.max(1));
    args.input.check(args.output.as_deref())?;
    let mut out = Output::open(args.output.as_deref())?;
    let progress = Progress::new(args.quiet, "playing");
    let next = AtomicUsize::new(0);
    let (send, receive) = mpsc::channel::<(usize, anyhow::Result<Played>)>();
    let mut failed = 0u64;
    let mut lost_rules = super::convert::LostRules::default();
    let written = std::thread::scope(|scope| -> anyhow::Result<usize> {
        for _ in 0..threads {
            let send = send.clone();
            let (plan, next) = (&plan, &next);
            scope.spawn(move || {
                let mut player = Player::new(plan);
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= games {
                        break;
                    }
                    if send.send((k, player.play(k))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        // The games are written in their order, whichever thread finishes first.
        let mut waiting = BTreeMap::new();
        // Games handed on so far (in order), and of those the ones written out.
        let (mut written, mut texts) = (0, 0);
        let mut result = Ok(());
        for (k, game) in receive {
            waiting.insert(k, game);
            while let Some(game) = waiting.remove(&written) {
                progress.inc();
                match game {
                    Ok(Played { text, lost }) if result.is_ok() => {
                        let gap = if texts > 0 && plan.to.is_multiline() { "\n" } else { "" };
                        result = std::io::Write::write_all(&mut out, format!("{gap}{text}\n").as_bytes());
                        texts += 1;
                        if let Some(spec) = lost {
                            lost_rules.add(spec);
                        }
                    }
                    Ok(_) => {}
                    Err(e) => {
                        progress.suspend(|| stderr!("kifu play: game {}: {e:#}", written + 1));
                        failed += 1;
                    }
                }
                written += 1;
            }
            if result.is_err() {
                // Stop the players: nothing more can be written.
                next.store(games, Ordering::Relaxed);
            }
        }
        result.context("writing the games")?;
        Ok(written)
    })?;
    progress.finish();
    out.finish()?;
    if !args.quiet {
        lost_rules.warn("kifu play", plan.to);
        let skipped = if skipped > 0 { format!(", {skipped} openings skipped") } else { String::new() };
        stderr!("kifu play: {} played, {failed} failed{skipped}", super::counted(written as u64 - failed, "game"));
    }
    Ok(if failed + skipped > 0 { Status::SomeInvalid } else { Status::Ok })
}

/// The openings: every record read, replayed (a bad one is reported and skipped), or the
/// start position of `--rules` without files; and how many were skipped.
fn openings(args: &Args) -> anyhow::Result<(Vec<Resolved>, u64)> {
    if args.input.inputs.is_empty() {
        let rules = args.input.rules.clone().unwrap_or_else(Rules::othello).shared();
        let record = Record { tags: Vec::new(), start: None, moves: Vec::new() };
        return Ok((vec![record.resolve(rules).map_err(|e| anyhow::anyhow!("{}", e.message))?], 0));
    }
    let (mut openings, mut skipped) = (Vec::new(), 0);
    let progress = Progress::new(true, "reading");
    let problems = records::for_each(
        &args.input,
        &progress,
        |source, raw| {
            let (record, rules) = source.read(raw)?;
            let mut resolved = record.resolve(rules).map_err(|e| raw.error(source.name, e.span, e.message))?;
            // The opening's moves and board only: its tags describe another game.
            resolved.record.tags.retain(|(k, _)| k.eq_ignore_ascii_case("rules"));
            Ok(resolved)
        },
        |_, result| {
            match result.and_then(|r| r) {
                Ok(resolved) => openings.push(resolved),
                Err(e) => {
                    stderr!("{e}");
                    skipped += 1;
                }
            }
            Ok(())
        },
    )?;
    // A damaged openings file counts as skipped openings (the run exits 1).
    skipped += problems.warn("kifu play");
    Ok((openings, skipped))
}

/// One thread's engines, kept from game to game.
struct Player<'a> {
    plan: &'a Plan,
    solvers: SolverSet,
    generic: Option<GenericSearcher>,
}

impl<'a> Player<'a> {
    fn new(plan: &'a Plan) -> Player<'a> {
        Player { plan, solvers: SolverSet::new(plan.hash_mb, 1, plan.probcut, plan.evaluator.clone()), generic: None }
    }

    /// Plays game `k` (0-based) and writes it in the plan's format.
    fn play(&mut self, k: usize) -> anyhow::Result<Played> {
        let plan = self.plan;
        let opening = &plan.openings[k % plan.openings.len()];
        let mut record = opening.record.clone();
        let mut position = opening.end.clone();
        let mut random = splitmix64(plan.seed ^ splitmix64(k as u64));
        for _ in 0..plan.random {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            random = splitmix64(random);
            let mv = moves[(random % moves.len() as u64) as usize];
            record.moves.push(token(&position, mv, None));
            position = position.play(mv)?;
        }
        // Each game from an empty table: its moves depend on nothing played before.
        let standard = Solver::counting_for(&position);
        if let Some(counting) = standard {
            self.solvers.get(counting).clear();
        } else {
            self.generic.get_or_insert_with(|| GenericSearcher::new(plan.hash_mb)).clear();
        }
        while !position.is_game_over() {
            let moves = position.legal_moves();
            let (mv, value) = if moves == [Move::Pass] {
                (Move::Pass, None)
            } else {
                let found = match standard {
                    Some(counting) => {
                        let solver = self.solvers.get(counting);
                        SolverAnalyst { solver, settings: plan.settings }.position(&position)
                    }
                    None => {
                        let searcher = self.generic.as_mut().expect("made above");
                        GenericAnalyst { searcher, settings: plan.generic }.position(&position)
                    }
                }
                .with_context(|| format!("searching the position after {} moves", record.moves.len()))?;
                (found.best.unwrap_or(moves[0]), Some(f64::from(found.score)))
            };
            record.moves.push(token(&position, mv, value));
            position = position.play(mv)?;
        }
        record.tags.insert(0, ("black".to_owned(), "kifu".to_owned()));
        record.tags.insert(1, ("white".to_owned(), "kifu".to_owned()));
        let resolved = record.resolve(opening.start.rules().clone()).map_err(|e| anyhow::anyhow!("{}", e.message))?;
        let shaped = shape::for_format(resolved, plan.to)?;
        let text = format::write(plan.to, &shaped);
        let variant = opening.start.rules().variant();
        let lost = (!shape::rules_kept(variant, plan.to, &text)).then(|| variant.spec());
        Ok(Played { text, lost })
    }
}

/// A game played and written: its text, and the rules spec the format could not name (read
/// back, the game needs `--rules` with it).
struct Played {
    text: String,
    lost: Option<String>,
}

/// The token of `mv` played in `position`, with its value for the side that moved.
fn token(position: &Position, mv: Move, value: Option<f64>) -> MoveToken {
    MoveToken { color: Some(position.side_to_move()), eval: value, ..MoveToken::of_move(position.rules(), mv) }
}
