//! `kifu merge`: joins the outputs of `kifu annotate --shard K/N` runs, given in shard order,
//! into the output of one run over all the games.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

use anyhow::Context as _;

use super::annotate::{self, OutFormat, PLAYERS_HEADING, PlayerRow, Table};
use super::{Output, Status};
use crate::engine::analysis::Tally;

/// Arguments of `kifu merge`.
#[derive(clap::Args, Debug)]
#[command(after_help = "The shards' outputs must be given in shard order (1/N first) and all be of one format \
and table; the format is recognised from their contents. docs/scaling.md shows whole recipes.")]
pub struct Args {
    /// The outputs of `kifu annotate --shard 1/N`, 2/N, ... N/N, in that order (`-` for one
    /// read from stdin).
    #[arg(required = true)]
    pub shards: Vec<PathBuf>,
    /// Write here instead of stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// The shards were annotated with a selection (`--player`, `--games`, ...): games missing
    /// between them are expected, so only their order is checked.
    #[arg(long)]
    pub selected: bool,
    /// Accepted as every command accepts it: merge writes nothing to stderr but errors.
    #[arg(long, short)]
    pub quiet: bool,
}

/// What a shard's output holds, recognised from its first line.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// CSV of the given table.
    Csv(Table),
    /// JSON Lines of the given table.
    Json(Table),
    /// Text tables ending with the players table.
    Text,
    /// Annotated games (GGF or PGN): just one after the other.
    Games,
}

impl Kind {
    /// What it is called in messages.
    fn name(self) -> &'static str {
        match self {
            Kind::Csv(Table::Plies) => "csv plies",
            Kind::Csv(Table::Games) => "csv games",
            Kind::Csv(Table::Players) => "csv players",
            Kind::Json(Table::Players) => "json players",
            Kind::Json(_) => "json plies or games",
            Kind::Text => "text",
            Kind::Games => "annotated games (GGF or PGN)",
        }
    }
}

/// A row's source file and game number.
type GameKey = (String, u64);

/// Checks that the shards' rows come in record order: within one source, a shard's first game
/// comes after the last game of the shard before (shards given out of order, or one twice,
/// would otherwise be joined without a word). The games table has a row for every record, so
/// there (`every_game`) a shard must also start right after the one before, or at the first
/// game of a source: a gap is a shard left out or cut short. (A missing last shard leaves no
/// gap to see.)
fn check_order(texts: &[String], paths: &[PathBuf], csv: bool, every_game: bool) -> anyhow::Result<()> {
    // The (source, game) of a shard's first and last rows.
    let ends = |text: &str| -> anyhow::Result<Option<(GameKey, GameKey)>> {
        let key = |line: &str| -> Option<GameKey> {
            if csv {
                let mut r = csv::ReaderBuilder::new().has_headers(false).from_reader(line.as_bytes());
                let row = r.records().next()?.ok()?;
                Some((row.get(0)?.to_owned(), row.get(1)?.parse().ok()?))
            } else {
                let v: serde_json::Value = serde_json::from_str(line).ok()?;
                Some((v["source"].as_str()?.to_owned(), v["game"].as_u64()?))
            }
        };
        let rows: Vec<&str> = text.lines().skip(usize::from(csv)).filter(|l| !l.trim().is_empty()).collect();
        let (Some(&first), Some(&last)) = (rows.first(), rows.last()) else { return Ok(None) };
        let bad = |line: &str| anyhow::anyhow!("not a row of kifu annotate: {line}");
        Ok(Some((key(first).ok_or_else(|| bad(first))?, key(last).ok_or_else(|| bad(last))?)))
    };
    let mut shards: Vec<((GameKey, GameKey), &PathBuf)> = Vec::new();
    for (text, path) in texts.iter().zip(paths) {
        if let Some(ends) = ends(text).with_context(|| format!("reading {}", path.display()))? {
            shards.push((ends, path));
        }
    }
    // Out of order or twice first: that says more than a gap.
    for pair in shards.windows(2) {
        let (((_, (source, game)), earlier), ((first, _), path)) = (&pair[0], &pair[1]);
        if *source == first.0 && first.1 <= *game {
            anyhow::bail!(
                "{} starts at game {} of {source}, not after {}'s last game ({game}): give the shards once each, in shard order",
                path.display(),
                first.1,
                earlier.display()
            );
        }
    }
    if every_game {
        for (i, ((first, _), path)) in shards.iter().enumerate() {
            let before = i.checked_sub(1).map(|j| (&shards[j].0.1, shards[j].1));
            let after = match before {
                Some(((source, game), _)) if *source == first.0 && first.1 == game + 1 => continue,
                Some(((source, game), earlier)) if *source == first.0 => {
                    format!("{}'s last game is {game}", earlier.display())
                }
                _ if first.1 == 1 => continue,
                _ => "no shard before it has the games before".to_owned(),
            };
            anyhow::bail!(
                "{} starts at game {} of {}, but {after}: a shard is missing or was cut short (shards annotated with a selection need --selected)",
                path.display(),
                first.1,
                first.0
            );
        }
    }
    Ok(())
}

fn kind(text: &str) -> Kind {
    let first = text.lines().next().unwrap_or("");
    if first == annotate::PLY_COLUMNS {
        Kind::Csv(Table::Plies)
    } else if first == annotate::GAME_COLUMNS {
        Kind::Csv(Table::Games)
    } else if first == annotate::PLAYER_COLUMNS {
        Kind::Csv(Table::Players)
    } else if first.starts_with("{\"player\"") {
        Kind::Json(Table::Players)
    } else if first.starts_with('{') {
        Kind::Json(Table::Plies)
    } else if first.starts_with("(;") || first.starts_with('[') {
        Kind::Games
    } else {
        Kind::Text
    }
}

/// Runs `kifu merge`.
pub fn run(args: Args) -> anyhow::Result<Status> {
    super::records::refuse_input_as_output(args.shards.iter().map(PathBuf::as_path), args.output.as_deref())?;
    let mut texts = Vec::new();
    for path in &args.shards {
        let text = if path.as_os_str() == "-" {
            std::io::read_to_string(std::io::stdin()).context("cannot read stdin")?
        } else {
            std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?
        };
        texts.push(text);
    }
    // An empty shard (no games, no header) says nothing about the kind.
    let kinds: Vec<Kind> = texts.iter().filter(|t| !t.is_empty()).map(|t| kind(t)).collect();
    let Some(&first) = kinds.first() else {
        Output::open(args.output.as_deref())?.finish()?;
        return Ok(Status::Ok);
    };
    // JSON plies and games rows are both passed through; players rows must not mix with them.
    if let Some(k) = kinds.iter().find(|&&k| k != first) {
        anyhow::bail!("the shards are not all of one kind ({} and {})", first.name(), k.name());
    }
    for (text, path) in texts.iter().zip(&args.shards) {
        // A CSV shard has its header even without a game: an empty file is a run that failed.
        if text.is_empty() && matches!(first, Kind::Csv(_)) {
            anyhow::bail!(
                "{} is empty: a CSV shard has its header even without a game (did that run fail?)",
                path.display()
            );
        }
        // A shard's text output always ends with its players table.
        if !text.is_empty() && first == Kind::Text && split_text(text).1.is_empty() {
            anyhow::bail!(
                "{} is not the output of kifu annotate --shard: it has no players table (a shard's text output ends with one)",
                path.display()
            );
        }
    }
    if matches!(first, Kind::Csv(Table::Plies | Table::Games) | Kind::Json(Table::Plies | Table::Games)) {
        // JSON games rows are told from plies rows by their fields.
        let every_game = first == Kind::Csv(Table::Games)
            || first == Kind::Json(Table::Plies)
                && texts.iter().find_map(|t| t.lines().next()).is_some_and(|l| l.contains("\"black_moves\":"));
        check_order(&texts, &args.shards, matches!(first, Kind::Csv(_)), every_game && !args.selected)?;
    }
    let mut out = Output::open(args.output.as_deref())?;
    let mut players: BTreeMap<String, (u32, Tally)> = BTreeMap::new();
    match first {
        Kind::Csv(Table::Players) | Kind::Json(Table::Players) => {
            let csv = matches!(first, Kind::Csv(_));
            for (text, path) in texts.iter().zip(&args.shards) {
                for row in player_rows(text, csv).with_context(|| format!("reading {}", path.display()))? {
                    add(&mut players, row);
                }
            }
            if csv {
                writeln!(out, "{}", annotate::PLAYER_COLUMNS)?;
            }
            let format = if csv { OutFormat::Csv } else { OutFormat::Json };
            out.write_all(&annotate::trailer(format, Table::Players, &players, false))?;
        }
        Kind::Csv(_) => {
            for (i, text) in texts.iter().enumerate() {
                let body = text.split_once('\n').map_or("", |(_, rest)| rest);
                if i == 0 || out_is_empty(&texts[..i]) {
                    out.write_all(text.as_bytes())?;
                } else {
                    out.write_all(body.as_bytes())?;
                }
            }
        }
        Kind::Json(_) | Kind::Games => {
            for text in &texts {
                out.write_all(text.as_bytes())?;
            }
        }
        Kind::Text => {
            for (text, path) in texts.iter().zip(&args.shards) {
                let (body, table) = split_text(text);
                out.write_all(body.as_bytes())?;
                for line in table.lines().skip(1) {
                    let row =
                        text_player(line).with_context(|| format!("{}: not a players line: {line}", path.display()))?;
                    add(&mut players, row);
                }
            }
            out.write_all(&annotate::trailer(OutFormat::Text, Table::Plies, &players, false))?;
        }
    }
    out.finish()?;
    Ok(Status::Ok)
}

/// Whether every earlier shard was empty (so this one's CSV header is the first).
fn out_is_empty(earlier: &[String]) -> bool {
    earlier.iter().all(String::is_empty)
}

fn add(players: &mut BTreeMap<String, (u32, Tally)>, row: PlayerRow) {
    let tally = row.tally();
    let entry = players.entry(row.player).or_default();
    entry.0 += row.games;
    entry.1.merge(&tally);
}

fn player_rows(text: &str, csv: bool) -> anyhow::Result<Vec<PlayerRow>> {
    if csv {
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        return reader.deserialize().collect::<Result<Vec<PlayerRow>, _>>().map_err(Into::into);
    }
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).map_err(Into::into)).collect()
}

/// A text output cut into its games and its players table (from the heading on).
fn split_text(text: &str) -> (&str, &str) {
    if let Some(rest) = text.strip_prefix(PLAYERS_HEADING) {
        return ("", &text[..PLAYERS_HEADING.len() + rest.len()]);
    }
    match text.find(&format!("\n{PLAYERS_HEADING}")) {
        Some(i) => text.split_at(i + 1),
        None => (text, ""),
    }
}

/// Reads a line of the text players table:
/// `  NAME: 2 games, 60 moves, 12 discs lost (0.20 a move), 50 best (83%), 1 !, 2 ?!, 0 ?, 0 ??`
/// (`-` for the figures of a player without a move).
fn text_player(line: &str) -> Option<PlayerRow> {
    let (name, figures) = line.trim_start().rsplit_once(": ")?;
    let numbers: Vec<&str> = figures
        .split([' ', ',', '(', ')', '%'])
        .filter(|t| *t == "-" || t.chars().next().is_some_and(|c| c.is_ascii_digit()))
        .collect();
    let [games, moves, loss, _avg, best, _accuracy, only, dubious, mistakes, blunders] = numbers[..] else {
        return None;
    };
    let tally = Tally {
        moves: moves.parse().ok()?,
        loss: loss.parse().ok()?,
        best: best.parse().ok()?,
        only: only.parse().ok()?,
        dubious: dubious.parse().ok()?,
        mistakes: mistakes.parse().ok()?,
        blunders: blunders.parse().ok()?,
    };
    Some(PlayerRow::new(name.to_owned(), games.parse().ok()?, &tally))
}
