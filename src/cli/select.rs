//! Selecting records: the options every reading command shares (`--player`, `--year`,
//! `--opening`, `--games`, `--unique`, ...). The workers judge each game by its facts
//! ([`Selector::pick`]); the records' order decides the rest ([`Chooser::keep`]): their numbers,
//! counted over all the inputs, and which of duplicate games comes first.

use std::collections::HashSet;
use std::sync::Arc;

use super::records::Source;
use crate::core::{Game, Rules};
use crate::notation::Record;
use crate::notation::check::{self, Check, Status};
use crate::notation::format::Format;
use crate::notation::reader::RawRecord;
use crate::stats::select::{Bounds, Opening, Selection, Wanted};
use crate::stats::{DEFAULT_DEPTH, Facts, OpeningNames, Winner};

/// Options that choose which records a command handles. A record that does not read is reported
/// whatever they ask (it cannot be judged), unless `--games` leaves it out.
#[derive(clap::Args, Debug, Clone, Default)]
#[command(next_help_heading = "Selecting records")]
pub struct SelectArgs {
    /// Only these records, numbered from 1 over all the inputs in order (`5`, `1-100`,
    /// `3,10-20,500-`).
    #[arg(long, value_name = "RANGES", value_delimiter = ',', allow_hyphen_values = true, value_parser = parse_numbers)]
    pub games: Vec<Bounds<u64>>,
    /// Games one of whose players' names holds TEXT, whatever the case (repeat for any of several).
    #[arg(long, value_name = "TEXT")]
    pub player: Vec<String>,
    /// Games whose black player's name holds TEXT.
    #[arg(long, value_name = "TEXT")]
    pub black: Vec<String>,
    /// Games whose white player's name holds TEXT.
    #[arg(long, value_name = "TEXT")]
    pub white: Vec<String>,
    /// Games whose event or tournament holds TEXT.
    #[arg(long, value_name = "TEXT")]
    pub event: Vec<String>,
    /// Games of these years (`2004`, `2000-2009`, `2010-`, `-1990`; any of several with commas),
    /// from the date's first run of exactly four digits between 1800 and 2100 (`2004.05.01`,
    /// `01/05/2004`; not `20040501`).
    #[arg(long, value_name = "YEARS", value_delimiter = ',', allow_hyphen_values = true, value_parser = parse_years)]
    pub year: Vec<Bounds<u16>>,
    /// Games of so many discs placed (`60`, `20-40`, `-30`; any of several with commas), up to the
    /// first illegal move.
    #[arg(long, value_name = "N", value_delimiter = ',', allow_hyphen_values = true, value_parser = Bounds::<usize>::parse)]
    pub moves: Vec<Bounds<usize>>,
    /// Finished games won by this side, or drawn (`black`, `white`, `draw`; several with commas).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub winner: Vec<WinnerArg>,
    /// Records of this verdict (`ok`, `illegal`, `unfinished`, `result_mismatch`, `parse_error`;
    /// several with commas), as `kifu validate` gives it.
    #[arg(long, value_enum, value_delimiter = ',')]
    pub status: Vec<StatusArg>,
    /// Games that begin with these moves (`f5d6c3`): through the same positions, each up to the
    /// board's symmetries (so `e6f4c3` too); any of several with commas or repeated.
    #[arg(long, value_name = "MOVES", value_delimiter = ',', value_parser = Opening::parse)]
    pub opening: Vec<Opening>,
    /// Games that follow a named line of standard Othello whose name holds TEXT (`tiger`, `rose`;
    /// the names `kifu stats` gives).
    #[arg(long, value_name = "TEXT")]
    pub opening_name: Vec<String>,
    /// Games that pass through this position (a board string: `---...OX... X`), or one a
    /// symmetry of the board makes of it; with the side to move it gives, else either side. Any
    /// of several, repeated.
    #[arg(long, value_name = "BOARD", allow_hyphen_values = true, value_parser = Wanted::parse)]
    pub position: Vec<Wanted>,
    /// Keep the games these criteria refuse instead (not `--games` or `--unique`).
    #[arg(long)]
    pub invert: bool,
    /// Keep only the first of games that are the same game from the same start, position after
    /// position up to the board's symmetries (the duplicates `kifu stats` lists; a game that
    /// stops before its end, between the same two players too), over all the records before,
    /// those `--games` leaves out too; a game with an illegal move or with no moves is always
    /// kept.
    #[arg(long)]
    pub unique: bool,
}

/// A record number range, from 1.
fn parse_numbers(text: &str) -> Result<Bounds<u64>, String> {
    let bounds = Bounds::<u64>::parse(text)?;
    if bounds.min == Some(0) || bounds.max == Some(0) {
        return Err("records are numbered from 1".into());
    }
    Ok(bounds)
}

/// `--winner` values.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum WinnerArg {
    /// Black won.
    Black,
    /// White won.
    White,
    /// A draw.
    Draw,
}

/// `--status` values.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum StatusArg {
    /// Every move legal, the game over, its stored result right.
    Ok,
    /// A move is illegal.
    Illegal,
    /// Every move legal but the game is not over.
    Unfinished,
    /// The stored result disagrees with the board.
    #[value(name = "result_mismatch", alias = "result-mismatch")]
    ResultMismatch,
    /// The record does not read (it is reported, and other records are left out).
    #[value(name = "parse_error", alias = "parse-error")]
    ParseError,
}

impl SelectArgs {
    /// Whether any criterion reads the players' or the event's names.
    #[must_use]
    pub fn reads_names(&self) -> bool {
        [&self.player, &self.black, &self.white, &self.event].iter().any(|v| !v.is_empty())
    }

    /// Whether any record may be left out (a criterion, `--games` or `--unique` given).
    #[must_use]
    pub fn any(&self) -> bool {
        !self.selection().is_empty() || self.unique || !self.games.is_empty()
    }

    /// The criteria, for the workers, and the chooser that keeps records in order; criteria
    /// that can keep nothing, or change nothing, are warned of on stderr.
    #[must_use]
    pub fn build(&self) -> (Selector, Chooser) {
        let selection = self.selection();
        for warning in warnings(&selection) {
            stderr!("kifu: warning: {warning}");
        }
        let judging = !selection.is_empty() || self.unique;
        let chooser = Chooser {
            games: self.games.clone(),
            unique: self.unique,
            seen: HashSet::new(),
            next: 0,
            refused: 0,
            asked_seen: false,
        };
        (Selector { selection, judging }, chooser)
    }

    /// Whether anything but `--unique` may leave a record out (`--games` or a criterion).
    #[must_use]
    pub fn chooses(&self) -> bool {
        !self.selection().is_empty() || !self.games.is_empty()
    }

    fn selection(&self) -> Selection {
        Selection {
            players: self.player.clone(),
            black: self.black.clone(),
            white: self.white.clone(),
            events: self.event.clone(),
            years: self.year.clone(),
            moves: self.moves.clone(),
            winners: self
                .winner
                .iter()
                .map(|w| match w {
                    WinnerArg::Black => Winner::Black,
                    WinnerArg::White => Winner::White,
                    WinnerArg::Draw => Winner::Draw,
                })
                .collect(),
            statuses: self
                .status
                .iter()
                .map(|s| match s {
                    StatusArg::Ok => Status::Ok,
                    StatusArg::Illegal => Status::Illegal,
                    StatusArg::Unfinished => Status::Unfinished,
                    StatusArg::ResultMismatch => Status::ResultMismatch,
                    StatusArg::ParseError => Status::ParseError,
                })
                .collect(),
            openings: self.opening.clone(),
            opening_names: self.opening_name.clone(),
            positions: self.position.clone(),
            invert: self.invert,
        }
    }
}

/// What is odd about the criteria: a beginning standard Othello cannot play, an opening name
/// the table does not have, `--invert` with nothing to invert.
fn warnings(selection: &Selection) -> Vec<String> {
    let mut warnings = Vec::new();
    for opening in selection.openings.iter().filter(|o| !o.plays_in_standard_othello()) {
        warnings.push(format!(
            "--opening {}: not a beginning of standard Othello from its start: only games of other rules or starts can match",
            opening.text()
        ));
    }
    for name in &selection.opening_names {
        let names = OpeningNames::builtin();
        if !names.has_name_holding(name) {
            let like = names.names_like(name, 5);
            let hint = if like.is_empty() {
                "`kifu stats --by name` lists the names games follow".to_owned()
            } else {
                format!("names like it: {}", like.join(", "))
            };
            warnings.push(format!("--opening-name {name}: no named line holds it ({hint}): no game matches"));
        }
    }
    if selection.invert && selection.is_empty() {
        warnings.push("--invert with no criteria to invert changes nothing".to_owned());
    }
    warnings
}

/// What makes two games the same game: the start's hash and the game's canonical hash.
pub type GameKey = (u64, u64);

/// What the criteria say of one game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Pick {
    /// It meets them; duplicates share the key (none for a game with an illegal move, which
    /// is nobody's duplicate: `--unique` must not hide its error).
    Kept(Option<GameKey>),
    /// It does not.
    Refused,
}

/// The criteria, shared by the workers.
#[derive(Debug)]
pub struct Selector {
    selection: Selection,
    /// Whether games are judged at all (criteria given, or `--unique`).
    judging: bool,
}

impl Selector {
    /// Whether games are judged at all: without criteria or `--unique`, a command need not
    /// gather any facts.
    #[must_use]
    pub fn judging(&self) -> bool {
        self.judging
    }

    /// Judges a game by the facts the command gathered.
    #[must_use]
    pub fn pick(&self, facts: &Facts, game: &Game) -> Pick {
        if self.selection.matches(facts, game) { Pick::Kept(facts.same_game_key()) } else { Pick::Refused }
    }

    /// Judges a record that is read only so that `--unique` knows the games before those asked
    /// for ([`Chooser::judged_ahead`]): `None` when it does not read.
    #[must_use]
    pub fn judge_only(&self, source: &Source, raw: &RawRecord) -> Option<Pick> {
        let (record, rules) = source.read(raw).ok()?;
        self.pick_record(&record, &rules, source.format)
    }

    /// Judges a record read from a file of `format` under `rules`: `None` when no game is judged
    /// or its game cannot be set up (a square off the board: the command reports it).
    #[must_use]
    pub fn pick_record(&self, record: &Record, rules: &Arc<Rules>, format: Format) -> Option<Pick> {
        if !self.judging {
            return None;
        }
        self.pick_checked(record, rules, &check::check(record, rules, format))
    }

    /// [`Selector::pick_record`] for a record the command has checked.
    #[must_use]
    pub fn pick_checked(&self, record: &Record, rules: &Arc<Rules>, check: &Check) -> Option<Pick> {
        if !self.judging {
            return None;
        }
        // A move onto a square the board does not have is an illegal move: the game is the moves
        // before it, as `kifu validate` judges it.
        let (game, _) = record.game_before_bad_square(rules.clone()).ok()?;
        Some(self.pick(&Facts::new(record, &game, check, DEFAULT_DEPTH), &game))
    }
}

/// The record numbers `--games` asks for (all when it is not given).
#[derive(Clone, Debug)]
pub struct Numbers(Vec<Bounds<u64>>);

impl Numbers {
    /// Whether the record with this 0-based number over all the inputs is asked for.
    #[must_use]
    pub fn contains(&self, index: u64) -> bool {
        Numbers::contains_in(&self.0, index)
    }

    fn contains_in(games: &[Bounds<u64>], index: u64) -> bool {
        games.is_empty() || games.iter().any(|b| b.contains(index + 1))
    }

    /// How many records are read to find every one asked for (the last number asked), when
    /// the numbers end somewhere.
    #[must_use]
    pub fn read_up_to(&self) -> Option<u64> {
        self.0.iter().map(|b| b.max).collect::<Option<Vec<u64>>>()?.into_iter().max()
    }

    /// How many of the 0-based record numbers in `range` are asked for.
    #[must_use]
    pub fn count_in(&self, range: std::ops::Range<u64>) -> u64 {
        if self.0.is_empty() {
            return range.end.saturating_sub(range.start);
        }
        // The asked numbers as 0-based half-open intervals, merged, each cut to `range`.
        let mut spans: Vec<(u64, u64)> = self
            .0
            .iter()
            .map(|b| (b.min.unwrap_or(1).saturating_sub(1), b.max.unwrap_or(u64::MAX)))
            .filter(|(from, to)| from < to)
            .collect();
        spans.sort_unstable();
        let (mut counted, mut reached) = (0, range.start);
        for (from, to) in spans {
            let (from, to) = (from.max(reached), to.min(range.end));
            if from < to {
                counted += to - from;
                reached = to;
            }
        }
        counted
    }
}

/// Keeps records in input order: those `--games` names, the games the workers kept, the first
/// of duplicates with `--unique`; and counts the others.
#[derive(Debug)]
pub struct Chooser {
    games: Vec<Bounds<u64>>,
    unique: bool,
    seen: HashSet<GameKey>,
    next: u64,
    /// Records left out so far.
    pub refused: u64,
    /// Whether a record `--games` asks for was seen.
    asked_seen: bool,
}

impl Chooser {
    /// The record numbers `--games` asks for.
    #[must_use]
    pub fn numbers(&self) -> Numbers {
        Numbers(self.games.clone())
    }

    /// How many records from the first are read for `--unique` whatever `--games` asks: a
    /// game asked for is a duplicate when it repeats any record before it, so the records
    /// before the last number asked are judged too (see [`Selector::judge_only`]).
    #[must_use]
    pub fn judged_ahead(&self) -> u64 {
        if !self.unique {
            return 0;
        }
        self.games.iter().filter_map(|b| b.min).max().map_or(0, |min| min - 1)
    }

    /// Whether the next record in input order is kept, given what its worker found (`None` for a
    /// record not judged: one that did not read, or every record when nothing is asked).
    pub fn keep(&mut self, pick: Option<Pick>) -> bool {
        let index = self.next;
        self.next += 1;
        self.keep_numbered(index, pick)
    }

    /// [`Chooser::keep`] for a record whose 0-based number the command knows (records it passed
    /// over unread are not seen here).
    pub fn keep_numbered(&mut self, index: u64, pick: Option<Pick>) -> bool {
        let asked = Numbers::contains_in(&self.games, index);
        self.asked_seen |= asked;
        // A game repeating one of the records before is a duplicate whatever `--games` asks.
        let kept = match pick {
            None => asked,
            Some(Pick::Refused) => false,
            Some(Pick::Kept(key)) => (!self.unique || key.is_none_or(|key| self.seen.insert(key))) && asked,
        };
        self.refused += u64::from(!kept);
        kept
    }

    /// Warns on stderr (as `command`) when `--games` asks only for numbers past the inputs'
    /// records: a slice off the end keeps nothing, and a script should hear of it.
    pub fn warn_past_the_end(&self, command: &str) {
        if !self.games.is_empty() && !self.asked_seen {
            stderr!("{command}: warning: --games asks for no record the inputs hold: they hold fewer");
        }
    }

    /// `, N not selected` for a summary line, or nothing when every record was kept.
    #[must_use]
    pub fn summary(&self) -> String {
        match self.refused {
            0 => String::new(),
            n => format!(", {n} not selected"),
        }
    }
}

/// Parses `--year`: bounds as [`Bounds::parse`] reads them, each a year kifu can find in a
/// date (four digits, 1800 to 2100): `88` or `1700` would keep no game.
fn parse_years(text: &str) -> Result<Bounds<u16>, String> {
    let bounds = Bounds::<u16>::parse(text)?;
    for year in [bounds.min, bounds.max].into_iter().flatten() {
        if !(1800..=2100).contains(&year) {
            return Err(format!(
                "`{year}` is no year a date gives (four digits, 1800 to 2100: `1988`, not `88`), so it would keep no game"
            ));
        }
    }
    Ok(bounds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_year_is_one_a_date_gives() {
        assert!(parse_years("1988").is_ok() && parse_years("2000-").is_ok() && parse_years("-1990").is_ok());
        assert!(parse_years("88").unwrap_err().contains("`1988`, not `88`"));
        assert!(parse_years("1700-1800").is_err());
    }

    #[test]
    fn numbers_are_counted_in_a_range() {
        let bounds =
            |list: &[(Option<u64>, Option<u64>)]| Numbers(list.iter().map(|&(min, max)| Bounds { min, max }).collect());
        assert_eq!(bounds(&[]).count_in(10..25), 15);
        // Records 1-30 and 20-40 (overlapping), 0-based 0..40; and 100 on.
        let asked = bounds(&[(Some(20), Some(40)), (Some(1), Some(30)), (Some(100), None)]);
        assert_eq!(asked.count_in(0..320), 40 + 221);
        assert_eq!(asked.count_in(35..120), 5 + 21);
        assert_eq!(asked.count_in(40..99), 0);
        for i in 0..130 {
            assert_eq!(asked.count_in(i..i + 1), u64::from(asked.contains(i)), "{i}");
        }
    }

    #[test]
    fn numbers_duplicates_and_refusals_are_kept_in_order() {
        let args = SelectArgs {
            games: vec![Bounds { min: Some(2), max: Some(4) }, Bounds { min: Some(6), max: None }],
            unique: true,
            ..SelectArgs::default()
        };
        let (selector, mut chooser) = args.build();
        assert!(selector.judging());
        // Records 1 and 5 are not asked for, but read: the games asked for that repeat them
        // are duplicates.
        assert_eq!(chooser.judged_ahead(), 5);
        let picks = [
            Some(Pick::Kept(Some((1, 9)))), // 1: not among the numbers
            Some(Pick::Kept(Some((1, 1)))), // 2: the first of its game
            Some(Pick::Kept(Some((1, 1)))), // 3: a duplicate
            None,                           // 4: did not read: reported
            Some(Pick::Kept(Some((1, 2)))), // 5: not among the numbers
            Some(Pick::Refused),            // 6
            Some(Pick::Kept(Some((1, 2)))), // 7: repeats 5
            Some(Pick::Kept(Some((1, 9)))), // 8: repeats 1
            Some(Pick::Kept(Some((1, 3)))), // 9
        ];
        let kept: Vec<bool> = picks.into_iter().map(|p| chooser.keep(p)).collect();
        assert_eq!(kept, [false, true, false, true, false, false, false, false, true]);
        assert_eq!(chooser.refused, 6);
        assert_eq!(chooser.summary(), ", 6 not selected");
        assert!(parse_numbers("0-3").is_err());
    }

    #[test]
    fn nothing_asked_judges_nothing() {
        let (selector, mut chooser) = SelectArgs::default().build();
        assert!(!selector.judging());
        assert!(chooser.keep(None));
        assert_eq!(chooser.summary(), "");
    }
}
