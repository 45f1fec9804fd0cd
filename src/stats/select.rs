//! Choosing games: criteria over a game's [`Facts`] and moves (players, event, year, result,
//! length, status, first moves up to the start's symmetries, named opening), all of which must
//! hold. The command line adds what depends on the order of the records (their numbers, and
//! keeping the first of duplicate games).

use super::{Facts, OpeningNames, Trail, Winner};
use crate::core::{Color, Game, Passes, Position};
use crate::notation::board::{self, Digits};
use crate::notation::check::Status;
use crate::notation::{BoardSyntax, Record, transcript};

/// An inclusive range with either end open (`2000-2009`, `40-`, `-20`, or one value).
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct Bounds<T> {
    /// The smallest value kept.
    pub min: Option<T>,
    /// The largest value kept.
    pub max: Option<T>,
}

impl<T: std::fmt::Display + PartialEq> std::fmt::Debug for Bounds<T> {
    /// As the command line writes it (`2004`, `2000-2009`, `40-`, `-20`): what `annotate
    /// --resume` compares and shows.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let end = |v: &Option<T>| v.as_ref().map_or_else(String::new, ToString::to_string);
        match (&self.min, &self.max) {
            (Some(a), Some(b)) if a == b => write!(f, "{a}"),
            (min, max) => write!(f, "{}-{}", end(min), end(max)),
        }
    }
}

impl<T: Copy + PartialOrd + std::str::FromStr> Bounds<T> {
    /// Reads `A`, `A-B`, `A-` or `-B`.
    ///
    /// # Errors
    /// What is wrong, for a value that is no number or a range whose end is below its start.
    pub fn parse(text: &str) -> Result<Bounds<T>, String> {
        let number = |s: &str| -> Result<Option<T>, String> {
            let s = s.trim();
            if s.is_empty() {
                return Ok(None);
            }
            s.parse::<T>().map(Some).map_err(|_| format!("`{s}` is not a number"))
        };
        let bounds = match text.split_once(['-', '\u{2013}']) {
            Some((a, b)) => match (number(a)?, number(b)?) {
                (None, None) => return Err("a range with neither end: give A, A-B, A- or -B".into()),
                (min, max) => Bounds { min, max },
            },
            None => {
                let one = number(text)?;
                if one.is_none() {
                    return Err("an empty range: give A, A-B, A- or -B".into());
                }
                Bounds { min: one, max: one }
            }
        };
        if let (Some(a), Some(b)) = (bounds.min, bounds.max)
            && b < a
        {
            return Err(format!("`{}`: the range ends before it begins", text.trim()));
        }
        Ok(bounds)
    }

    /// Whether `value` is within.
    pub fn contains(&self, value: T) -> bool {
        self.min.is_none_or(|m| value >= m) && self.max.is_none_or(|m| value <= m)
    }
}

/// Criteria a game must meet to be kept; an empty list asks nothing. Names and events match a
/// part of the record's text, whatever the case; several given for one criterion match any of
/// them.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// A player of either colour.
    pub players: Vec<String>,
    /// The black player.
    pub black: Vec<String>,
    /// The white player.
    pub white: Vec<String>,
    /// The event or tournament.
    pub events: Vec<String>,
    /// The year of the date.
    pub years: Vec<Bounds<u16>>,
    /// Discs placed (passes left out), up to the first illegal move.
    pub moves: Vec<Bounds<usize>>,
    /// The result of a finished game.
    pub winners: Vec<Winner>,
    /// The record's verdict.
    pub statuses: Vec<Status>,
    /// First moves the game begins with, up to the symmetries of its start.
    pub openings: Vec<Opening>,
    /// A part of the name of a named line the game follows (standard Othello), whatever the case.
    pub opening_names: Vec<String>,
    /// A position the game passes through, up to the board's symmetries.
    pub positions: Vec<Wanted>,
    /// Keep the games the criteria refuse instead.
    pub invert: bool,
}

/// The first moves asked for, as written (squares are named under each game's rules).
#[derive(Clone)]
pub struct Opening {
    text: String,
    record: Record,
}

impl std::fmt::Debug for Opening {
    /// The moves as given (what `annotate --resume` compares and shows).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.text)
    }
}

impl Opening {
    /// Reads a transcript of first moves (`f5d6c3`, `F5 d6 C3`, `1. f5 d6`).
    ///
    /// # Errors
    /// Where the moves do not read, or that none is given.
    pub fn parse(text: &str) -> Result<Opening, String> {
        let record = transcript::parse(text).map_err(|e| format!("`{text}`: {}", e.message))?;
        if record.moves.is_empty() {
            return Err(format!("`{text}` has no moves"));
        }
        Ok(Opening { text: text.trim().to_owned(), record })
    }

    /// The moves as given.
    #[must_use]
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether the moves replay in standard Othello from its start.
    #[must_use]
    pub fn plays_in_standard_othello(&self) -> bool {
        let rules = crate::core::Rules::othello().shared();
        self.record
            .moves_under(&rules)
            .is_ok_and(|moves| Game::new(rules.clone()).with_moves(moves).replay(Passes::Implicit).is_ok())
    }

    /// Whether `game` (whose trail is `trail`) begins with these moves: passes through the same
    /// positions, each up to the board's symmetries (turned or mirrored at the start, or later
    /// where the position allows it).
    fn begins(&self, game: &Game, trail: &Trail) -> bool {
        let rules = game.rules();
        let Ok(wanted) = self.record.moves_under(rules) else { return false };
        let line = Game::from_position(game.start().clone()).with_moves(wanted);
        // Moves that do not replay from the game's start begin no game of it.
        if line.replay(Passes::Implicit).is_err() {
            return false;
        }
        let line = Trail::of(&line);
        trail.at(line.moves()) == Some(line.last())
    }
}

/// A position asked for: a board (with the side to move, or either side when it gives none).
#[derive(Clone)]
pub struct Wanted {
    text: String,
    board: BoardSyntax,
}

impl std::fmt::Debug for Wanted {
    /// The board as given (what `annotate --resume` compares and shows).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.text)
    }
}

impl Wanted {
    /// Reads a one-line board string (`---...OX--- X`, 0/1 digits or X/O letters), or a diagram.
    ///
    /// # Errors
    /// Where the board does not read.
    pub fn parse(text: &str) -> Result<Wanted, String> {
        if text.contains(',') {
            return Err(format!(
                "`{}`: a board holds no comma (for several positions, repeat --position)",
                text.trim()
            ));
        }
        let record = board::parse(text, Digits::BlackWhite).map_err(|e| format!("`{}`: {}", text.trim(), e.message))?;
        let board = record.start.ok_or_else(|| format!("`{}` is not a board", text.trim()))?;
        Ok(Wanted { text: text.trim().to_owned(), board })
    }

    /// Whether `game` passes through the position (before a move, or at its end, up to its
    /// first illegal move), or one the board's symmetries make of it, with the side to move
    /// the board gives.
    fn reached(&self, game: &Game) -> bool {
        let rules = game.rules();
        if rules.size() != self.board.size {
            return false;
        }
        let record = Record { start: Some(self.board.clone()), ..Record::default() };
        let Ok(setup) = record.game(rules.clone()) else { return false };
        let key = Position::canonical_words;
        let discs = |p: &Position| p.count(Color::Black) + p.count(Color::White);
        let target = (discs(setup.start()), key(setup.start()));
        let side = self.board.side;
        let hit =
            |p: &Position| discs(p) == target.0 && side.is_none_or(|s| p.side_to_move() == s) && key(p) == target.1;
        let mut found = false;
        let end = match game.replay_with(Passes::Implicit, |before, _, _| found = found || hit(before)) {
            Ok(replay) => replay.position,
            Err(e) => *e.position,
        };
        found || hit(&end)
    }
}

/// Whether `text` holds one of `parts`, whatever the case and Latin-1's accents (`Pretendants`
/// finds `Prétendants`; true for no parts). The parts are read as names are
/// ([`crate::notation::tidy_name`]).
fn holds_any(text: &str, parts: &[String]) -> bool {
    if parts.is_empty() {
        return true;
    }
    let plain = |t: &str| crate::notation::without_accents(&t.to_lowercase());
    let text = plain(text);
    parts.iter().any(|p| text.contains(&plain(&crate::notation::tidy_name(p))))
}

impl Selection {
    /// Whether no criterion is given (every game is kept).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.players.is_empty()
            && self.black.is_empty()
            && self.white.is_empty()
            && self.events.is_empty()
            && self.years.is_empty()
            && self.moves.is_empty()
            && self.winners.is_empty()
            && self.statuses.is_empty()
            && self.openings.is_empty()
            && self.opening_names.is_empty()
            && self.positions.is_empty()
    }

    /// Whether the game meets every criterion (or, with `invert`, fails one); `facts` are the
    /// game's (see [`Facts::new`]).
    #[must_use]
    pub fn matches(&self, facts: &Facts, game: &Game) -> bool {
        // (No criteria: nothing to invert.)
        self.is_empty() || self.meets(facts, game) != self.invert
    }

    fn meets(&self, facts: &Facts, game: &Game) -> bool {
        let either = self.players.is_empty()
            || holds_any(&facts.black_player, &self.players)
            || holds_any(&facts.white_player, &self.players);
        either
            && holds_any(&facts.black_player, &self.black)
            && holds_any(&facts.white_player, &self.white)
            && holds_any(&facts.event, &self.events)
            && (self.years.is_empty() || facts.year.is_some_and(|y| self.years.iter().any(|b| b.contains(y))))
            && (self.moves.is_empty() || self.moves.iter().any(|b| b.contains(facts.length)))
            && (self.winners.is_empty() || facts.result.is_some_and(|w| self.winners.contains(&w)))
            && (self.statuses.is_empty() || self.statuses.contains(&facts.status))
            && (self.openings.is_empty() || self.openings.iter().any(|o| o.begins(game, &facts.trail)))
            && (self.opening_names.is_empty() || self.named(facts))
            && (self.positions.is_empty() || self.positions.iter().any(|p| p.reached(game)))
    }

    /// Whether a named line the game follows has one of the names asked for. Only games whose
    /// facts name a line (standard Othello from its start) have any.
    fn named(&self, facts: &Facts) -> bool {
        facts.opening_name.is_some()
            && OpeningNames::builtin().names_along(&facts.trail).any(|name| holds_any(name, &self.opening_names))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rules;
    use crate::notation::check;
    use crate::notation::format::Format;

    #[test]
    fn names_match_whatever_the_case_and_accents() {
        let parts = |p: &str| vec![p.to_owned()];
        assert!(holds_any("Prétendants (France)", &parts("pretendants")));
        assert!(holds_any("Pretendants", &parts("PRÉTENDANTS")));
        assert!(holds_any("Inês Souza", &parts("ines  souza")));
        assert!(!holds_any("Prétendants", &parts("pretendu")));
        assert!(holds_any("anything", &[]));
    }

    fn game(text: &str) -> (Facts, Game) {
        let record = crate::notation::pgn::parse(text).unwrap();
        let rules = Rules::othello().shared();
        let game = record.game(rules.clone()).unwrap();
        let check = check::check(&record, &rules, Format::Pgn);
        (Facts::new(&record, &game, &check, 6), game)
    }

    const TIGER: &str = "[Event \"Paris Open\"]\n[Date \"2004.05.01\"]\n[Black \"Tamenori, Hideshi\"]\n\
        [White \"Shaman, Brian\"]\n\n1. f5 d6 2. c3 d3 3. c4 f4 *\n";

    #[test]
    fn bounds_read_every_form() {
        assert_eq!(Bounds::<u16>::parse("2004"), Ok(Bounds { min: Some(2004), max: Some(2004) }));
        assert_eq!(Bounds::<u16>::parse("2000-2009"), Ok(Bounds { min: Some(2000), max: Some(2009) }));
        assert_eq!(Bounds::<u16>::parse("2000-"), Ok(Bounds { min: Some(2000), max: None }));
        assert_eq!(Bounds::<u16>::parse("-1990"), Ok(Bounds { min: None, max: Some(1990) }));
        assert!(Bounds::<u16>::parse("2009-2000").unwrap_err().contains("ends before it begins"));
        assert!(Bounds::<u16>::parse("20x4").unwrap_err().contains("not a number"));
        assert!(Bounds::<u16>::parse("").is_err());
        assert!(Bounds::<u16>::parse("-").unwrap_err().contains("neither end"));
        assert!(Bounds::<usize>::parse("40-").unwrap().contains(60));
        assert!(!Bounds::<usize>::parse("40-").unwrap().contains(39));
        for text in ["2004", "2000-2009", "2000-", "-1990"] {
            assert_eq!(format!("{:?}", Bounds::<u16>::parse(text).unwrap()), text);
        }
    }

    #[test]
    fn names_events_and_years_match_parts_whatever_the_case() {
        let (facts, game) = game(TIGER);
        let keeps = |s: Selection| s.matches(&facts, &game);
        assert!(keeps(Selection::default()));
        assert!(keeps(Selection { players: vec!["shaman".into()], ..Selection::default() }));
        assert!(keeps(Selection { players: vec!["nobody".into(), "TAMENORI".into()], ..Selection::default() }));
        assert!(!keeps(Selection { black: vec!["shaman".into()], ..Selection::default() }));
        assert!(keeps(Selection {
            white: vec!["shaman".into()],
            events: vec!["paris".into()],
            ..Selection::default()
        }));
        assert!(keeps(Selection { years: vec![Bounds { min: Some(2000), max: None }], ..Selection::default() }));
        assert!(!keeps(Selection { years: vec![Bounds { min: None, max: Some(2003) }], ..Selection::default() }));
        assert!(!keeps(Selection {
            winners: vec![Winner::Black, Winner::White, Winner::Draw],
            ..Selection::default()
        }));
        assert!(keeps(Selection { statuses: vec![Status::Unfinished], ..Selection::default() }));
        assert!(keeps(Selection { moves: vec![Bounds { min: Some(6), max: Some(6) }], ..Selection::default() }));
        assert!(!keeps(Selection { players: vec!["shaman".into()], invert: true, ..Selection::default() }));
    }

    #[test]
    fn openings_match_under_the_starts_symmetries() {
        let (facts, game) = game(TIGER);
        let opening = |text: &str| Selection { openings: vec![Opening::parse(text).unwrap()], ..Selection::default() };
        assert!(opening("f5d6c3").matches(&facts, &game));
        // The same line mirrored on the a1-h8 diagonal (c3 is on it).
        assert!(opening("e6 f4 c3").matches(&facts, &game));
        assert!(!opening("e6 f4 e3").matches(&facts, &game));
        assert!(opening("1. F5 d6 2. C3 d3 3. C4 f4").matches(&facts, &game));
        assert!(!opening("f5f6").matches(&facts, &game));
        assert!(!opening("f5d6c3d3c4f4f6").matches(&facts, &game), "longer than the game");
        assert!(Opening::parse("").is_err());
        let named = |name: &str| Selection { opening_names: vec![name.into()], ..Selection::default() };
        // The game follows the Perpendicular, then the Tiger; both names are along it.
        assert!(named("tiger").matches(&facts, &game));
        assert!(named("perpendicular").matches(&facts, &game));
        assert!(!named("cow").matches(&facts, &game));
    }

    #[test]
    fn positions_match_anywhere_in_the_game_up_to_symmetry() {
        let (facts, game) = game(TIGER);
        let at = |text: &str| Selection { positions: vec![Wanted::parse(text).unwrap()], ..Selection::default() };
        // After f5 d6 c3 (white to move), and that board under each of the eight symmetries.
        let record = crate::notation::transcript::parse("f5d6c3").unwrap();
        let after3 = record.resolve(crate::core::Rules::othello().shared()).unwrap().end;
        for sym in crate::core::Symmetry::ALL {
            let board = after3.transformed(sym).unwrap().board_string();
            assert!(at(&format!("{board} O")).matches(&facts, &game), "{sym:?}");
            assert!(at(&board).matches(&facts, &game), "either side when none is given");
            assert!(!at(&format!("{board} X")).matches(&facts, &game), "the other side to move");
        }
        // The start, and the end of the record.
        let start = game.start().board_string();
        assert!(at(&start).matches(&facts, &game));
        let end = game.replay(Passes::Implicit).unwrap().position.board_string();
        assert!(at(&end).matches(&facts, &game));
        // The start with one disc turned: no game of this record passes through it.
        assert!(!at(&start.replacen('X', "O", 1)).matches(&facts, &game));
        assert!(Wanted::parse("f5d6").is_err());
        assert!(Wanted::parse(&format!("{start},{start}")).unwrap_err().contains("repeat --position"));
    }
}
