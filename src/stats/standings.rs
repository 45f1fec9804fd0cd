//! Tournament standings from the games of each tournament: points (a win 1, a draw ½), discs,
//! the opponents' points and the Brightwell quotient, ranked as the World Othello
//! Championship's rules rank a Swiss tournament (points, then the quotient, then discs).
//!
//! Values that can be halves (points, discs on a board of an odd number of squares) are kept
//! doubled, as whole numbers, so that sums are exact and merges do not depend on the order.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::{Facts, Winner};
use crate::core::Color;

/// The weight of the opponents' points in the Brightwell quotient: the WOC rules take a
/// player's discs plus six times the sum of the points their opponents scored.
pub const BQ_FACTOR: i64 = 6;

/// A tournament: its event name as compared ([`name_key`]; empty when the games give none)
/// and its year (`None` when they give no date).
pub type Tournament = (String, Option<u16>);

/// A name as standings compare names: as kifu tidies names ([`tidy_name`]), in lower case, so
/// that `Anna Berg` and `anna  berg` are one player (and one event).
///
/// [`tidy_name`]: crate::notation::tidy_name
#[must_use]
pub fn name_key(name: &str) -> String {
    crate::notation::tidy_name(name).to_lowercase()
}

/// The ways one name was written, with how often.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Spellings(BTreeMap<String, u64>);

impl Spellings {
    pub(crate) fn add(&mut self, name: &str, times: u64) {
        *self.0.entry(name.to_owned()).or_default() += times;
    }

    pub(crate) fn merge(&mut self, other: &Spellings) {
        for (name, times) in &other.0 {
            self.add(name, *times);
        }
    }

    /// The spelling shown: the most used (ties: the first in byte order, capitals first).
    #[must_use]
    pub fn shown(&self) -> &str {
        self.0.iter().max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0))).map_or("", |(name, _)| name)
    }

    /// The other spellings, in byte order.
    pub fn others(&self) -> impl Iterator<Item = &str> {
        let shown = self.shown();
        self.0.keys().map(String::as_str).filter(move |name| *name != shown)
    }
}

/// One player's games in one tournament.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    /// Games with a result: the board's when the game is over, else the one the record states.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
    /// Games with no result: not over on the board, and none stated.
    pub no_result: u64,
    /// Games whose result came from the record because the board gives none (a move is
    /// illegal, or the game stops before its end: a resignation, a loss on time, or a
    /// transcript cut short).
    pub from_record: u64,
    /// Games with a winner but no disc count (`1-0`, a resignation): points, but no discs.
    pub no_discs: u64,
    /// Twice the discs over the games with a disc count: the board's squares plus the
    /// player's margin, per game (the empty squares go to the winner).
    pub discs2: i64,
    /// Games with a result against each opponent (by [`name_key`]).
    opponents: HashMap<String, u64>,
    /// How the player's name was written.
    pub spellings: Spellings,
}

impl Standing {
    /// Twice the points: two for a win, one for a draw.
    #[must_use]
    pub fn points2(&self) -> i64 {
        (2 * self.wins + self.draws) as i64
    }

    fn merge(&mut self, other: &Standing) {
        self.games += other.games;
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        self.no_result += other.no_result;
        self.from_record += other.from_record;
        self.no_discs += other.no_discs;
        self.discs2 += other.discs2;
        for (name, games) in &other.opponents {
            *self.opponents.entry(name.clone()).or_default() += games;
        }
        self.spellings.merge(&other.spellings);
    }
}

/// One line of a tournament's standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line<'a> {
    /// The place: 1 for the first; players equal in points, quotient and discs share one.
    pub rank: usize,
    /// The player's name.
    pub player: &'a str,
    /// Their games.
    pub standing: &'a Standing,
    /// Twice the sum, over their games with a result, of the points each opponent scored in
    /// the tournament.
    pub opponents_points2: i64,
    /// Twice the Brightwell quotient: discs plus [`BQ_FACTOR`] times the opponents' points.
    pub bq2: i64,
}

/// A tournament's standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table<'a> {
    /// The event's name (empty when the games give none).
    pub event: &'a str,
    /// The year.
    pub year: Option<u16>,
    /// Games with two named players.
    pub games: u64,
    /// The players, first place first (ties by name).
    pub lines: Vec<Line<'a>>,
    /// Games given more than once (the same players and moves, up to symmetry), counted once.
    pub repeated: u64,
    /// Games with no year joined to the event's one dated year.
    pub undated: u64,
    /// For an event's undated games: the years of its dated games when there are several (the
    /// undated ones are then a tournament of their own).
    pub other_years: Vec<u16>,
    /// Games with one player's name on both sides (written two ways that are one name).
    pub self_play: u64,
    /// Pairs of players whose games name the same round more than once: the round, the two
    /// players and how many games (a scoresheet given twice with other moves, cut short or
    /// mistyped, counts each time), most games first.
    pub same_round_pairings: Vec<(&'a str, &'a str, &'a str, u64)>,
    /// How the event's name was written (the others than [`Table::event`] were merged into it).
    pub spellings: &'a Spellings,
}

impl Table<'_> {
    /// The tournament as text shows it: its name and year (`(no event)` for none), the year
    /// left out when the name ends with it (`Spring Open 2024`), control characters shown as
    /// U+FFFD.
    #[must_use]
    pub fn title(&self) -> String {
        let event = if self.event.is_empty() { "(no event)" } else { self.event };
        let event = crate::notation::printable(event);
        match self.year {
            Some(year) if event.split_whitespace().last().is_none_or(|w| w != year.to_string()) => {
                format!("{event} {year}")
            }
            _ => event.into_owned(),
        }
    }

    /// Pairs of players whose names may name one person, counted apart: the same words in
    /// another order, case, punctuation or accents (`Rossi, Luca` and `Luca Rossi`, `Inês` and
    /// `Ines`), or a word given by its initial (`H. Tanaka` and `Hiro Tanaka`). Initials are
    /// compared in tournaments of at most 1,000 players.
    #[must_use]
    pub fn perhaps_one(&self) -> Vec<(&str, &str)> {
        let words: Vec<Vec<String>> = self.lines.iter().map(|l| name_words(l.player)).collect();
        let mut pairs = Vec::new();
        let mut by_words: HashMap<&[String], usize> = HashMap::new();
        for (i, w) in words.iter().enumerate() {
            if let Some(&j) = by_words.get(w.as_slice()) {
                pairs.push((self.lines[j].player, self.lines[i].player));
            } else {
                by_words.insert(w, i);
            }
        }
        if self.lines.len() <= 1000 {
            for i in 0..words.len() {
                for j in i + 1..words.len() {
                    if words[i] != words[j] && initials_match(&words[i], &words[j]) {
                        pairs.push((self.lines[i].player, self.lines[j].player));
                    }
                }
            }
        }
        pairs
    }

    /// The first `k` lines, and any after them that share the k-th one's rank (a prize list
    /// does not split a tie).
    #[must_use]
    pub fn top(&self, k: usize) -> &[Line<'_>] {
        let Some(last) = k.checked_sub(1).and_then(|i| self.lines.get(i)) else {
            return &self.lines[..k.min(self.lines.len())];
        };
        let end = self.lines.iter().position(|l| l.rank > last.rank).unwrap_or(self.lines.len());
        &self.lines[..end]
    }
}

/// A name's words, to compare names: lower case, without accents or punctuation, sorted.
pub(crate) fn name_words(name: &str) -> Vec<String> {
    // (An apostrophe joins: `O'Brien` is `OBrien`.)
    let plain: String = crate::notation::without_accents(name)
        .to_lowercase()
        .chars()
        .filter(|c| !matches!(c, '\'' | '’' | '`'))
        .collect();
    let mut words: Vec<String> =
        plain.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_owned).collect();
    words.sort();
    words
}

/// Whether two names' words (as [`name_words`] gives them, as many in each) match one for one,
/// some of them by an initial only (`h` for `hiro`), at least one word being whole in both.
fn initials_match(a: &[String], b: &[String]) -> bool {
    if a.len() != b.len() || a.len() < 2 {
        return false;
    }
    let mut rest: Vec<&String> = b.iter().collect();
    let mut whole = 0;
    // Whole words first, then initials.
    let mut initials = Vec::new();
    for word in a {
        match rest.iter().position(|w| *w == word) {
            Some(k) => {
                rest.remove(k);
                whole += 1;
            }
            None => initials.push(word),
        }
    }
    for word in initials {
        let fits = |w: &&String| {
            let (short, long) = if w.chars().count() <= word.chars().count() { (*w, word) } else { (word, *w) };
            short.chars().count() == 1 && long.starts_with(short.as_str())
        };
        match rest.iter().position(fits) {
            Some(k) => {
                rest.remove(k);
            }
            None => return false,
        }
    }
    whole > 0
}

/// One tournament's games so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Event {
    /// How the event's name was written.
    spellings: Spellings,
    /// The players, by [`name_key`].
    players: HashMap<String, Standing>,
    /// Games given again.
    repeated: u64,
    /// Undated games joined to this year.
    undated: u64,
    /// See [`Table::other_years`].
    other_years: Vec<u16>,
    /// Games with one player on both sides.
    self_play: u64,
    /// Games by round and pair of players (by [`name_key`], in order), for games that name
    /// their round.
    meetings: HashMap<(String, String, String), u64>,
}

impl Event {
    fn merge(&mut self, other: &Event) {
        self.spellings.merge(&other.spellings);
        for (name, standing) in &other.players {
            self.players.entry(name.clone()).or_default().merge(standing);
        }
        self.repeated += other.repeated;
        self.undated += other.undated;
        self.self_play += other.self_play;
        for (key, times) in &other.meetings {
            *self.meetings.entry(key.clone()).or_default() += times;
        }
    }
}

/// Standings accumulated over games; [`Standings::merge`] combines those of separate runs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Standings {
    tournaments: HashMap<Tournament, Event>,
    /// The games counted, by event (whatever the year), players and moves: a game given twice
    /// counts once.
    seen: HashSet<(String, String, String, u64)>,
    /// The games left out for a player's name missing (`?` and WTHOR's `???` are none).
    pub nameless: u64,
}

impl Standings {
    /// Adds a game to its tournament's standings (a game without both players' names is left
    /// out: it stands no one).
    pub fn add(&mut self, facts: &Facts) {
        if facts.black_player.is_empty() || facts.white_player.is_empty() {
            self.nameless += 1;
            return;
        }
        let cells = i64::from(facts.black + facts.white + facts.empties);
        // The board's result, else the record's (a loss on time or by forfeit stands against
        // the board), with the margin of the one that counts.
        let (counted, from_record) = facts.counted();
        let result = counted.map(|winner| {
            let winner = match winner {
                Winner::Black => Some(Color::Black),
                Winner::White => Some(Color::White),
                Winner::Draw => None,
            };
            let margin = if from_record { facts.stated.and_then(|s| s.margin) } else { facts.margin };
            (winner, margin, from_record)
        });
        let (black, white) = (name_key(&facts.black_player), name_key(&facts.white_player));
        let event_key = name_key(&facts.event);
        // A game given twice (both players handed in their sheet, one of them without its
        // date) counts once; games with no moves (a forfeit, a bye) are never the same game.
        let repeated =
            facts.length > 0 && !self.seen.insert((event_key.clone(), black.clone(), white.clone(), facts.game_hash));
        let event = self.tournaments.entry((event_key, facts.year)).or_default();
        event.spellings.add(&facts.event, 1);
        if repeated {
            event.repeated += 1;
            return;
        }
        event.self_play += u64::from(black == white);
        if !facts.round.is_empty() {
            let pair = if black <= white { (black.clone(), white.clone()) } else { (white.clone(), black.clone()) };
            *event.meetings.entry((facts.round.clone(), pair.0, pair.1)).or_default() += 1;
        }
        let players = &mut event.players;
        for (me, name, opponent, color) in
            [(&black, &facts.black_player, &white, Color::Black), (&white, &facts.white_player, &black, Color::White)]
        {
            let s = players.entry(me.clone()).or_default();
            s.spellings.add(name, 1);
            let Some((winner, margin, from_record)) = result else {
                s.no_result += 1;
                continue;
            };
            s.games += 1;
            match winner {
                None => s.draws += 1,
                Some(c) if c == color => s.wins += 1,
                Some(_) => s.losses += 1,
            }
            s.from_record += u64::from(from_record);
            match margin {
                Some(m) => s.discs2 += cells + i64::from(if color == Color::Black { m } else { -m }),
                None => s.no_discs += 1,
            }
            *s.opponents.entry(opponent.clone()).or_default() += 1;
        }
    }

    /// Adds another accumulation's games to this one.
    pub fn merge(&mut self, other: &Standings) {
        for (key, event) in &other.tournaments {
            self.tournaments.entry(key.clone()).or_default().merge(event);
        }
        // (A game in two runs' inputs is not known to be one: each run counted its own.)
        self.seen.extend(other.seen.iter().cloned());
        self.nameless += other.nameless;
    }

    /// Joins each event's games with no year to its games of a year, when the event has games
    /// of one year only (a game whose date was left off); call it once every game is added.
    pub fn settle(&mut self) {
        // (Games with neither an event nor a date are no one event's.)
        let undated: Vec<Tournament> =
            self.tournaments.keys().filter(|k| k.1.is_none() && !k.0.is_empty()).cloned().collect();
        for key in undated {
            let mut years: Vec<&Tournament> =
                self.tournaments.keys().filter(|k| k.0 == key.0 && k.1.is_some()).collect();
            years.sort();
            let dated = match years[..] {
                [one] => one.clone(),
                [] => continue,
                _ => {
                    let years = years.iter().filter_map(|k| k.1).collect();
                    if let Some(event) = self.tournaments.get_mut(&key) {
                        event.other_years = years;
                    }
                    continue;
                }
            };
            if let Some(event) = self.tournaments.remove(&key) {
                let games = event.players.values().map(|s| s.games + s.no_result).sum::<u64>() / 2;
                let target = self.tournaments.entry(dated).or_default();
                target.merge(&event);
                target.undated += games;
            }
        }
    }

    /// The number of tournaments.
    #[must_use]
    pub fn len(&self) -> usize {
        self.tournaments.len()
    }

    /// Whether no game had two named players.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.tournaments.is_empty()
    }

    /// Every tournament's standings, by year (undated last) and then by name.
    #[must_use]
    pub fn tables(&self) -> Vec<Table<'_>> {
        let mut keys: Vec<&Tournament> = self.tournaments.keys().collect();
        keys.sort_by(|a, b| (a.1.is_none(), a.1, &a.0).cmp(&(b.1.is_none(), b.1, &b.0)));
        keys.into_iter().map(|key| table(key, &self.tournaments[key])).collect()
    }
}

/// One tournament's standings, ranked.
fn table<'a>(key: &'a Tournament, event: &'a Event) -> Table<'a> {
    let players = &event.players;
    let mut lines: Vec<Line<'a>> = players
        .values()
        .map(|standing| {
            let player = standing.spellings.shown();
            let opponents_points2: i64 = standing
                .opponents
                .iter()
                .map(|(name, games)| *games as i64 * players.get(name).map_or(0, Standing::points2))
                .sum();
            Line { rank: 0, player, standing, opponents_points2, bq2: standing.discs2 + BQ_FACTOR * opponents_points2 }
        })
        .collect();
    let order = |l: &Line<'_>| (-l.standing.points2(), -l.bq2, -l.standing.discs2);
    lines.sort_by(|a, b| order(a).cmp(&order(b)).then_with(|| a.player.cmp(b.player)));
    for i in 0..lines.len() {
        lines[i].rank = if i > 0 && order(&lines[i]) == order(&lines[i - 1]) { lines[i - 1].rank } else { i + 1 };
    }
    let games = lines.iter().map(|l| l.standing.games + l.standing.no_result).sum::<u64>() / 2;
    let mut same_round_pairings: Vec<(&str, &str, &str, u64)> = Vec::new();
    for ((round, a, b), &times) in &event.meetings {
        if times > 1
            && let (Some(a), Some(b)) = (players.get(a), players.get(b))
        {
            same_round_pairings.push((round, a.spellings.shown(), b.spellings.shown(), times));
        }
    }
    same_round_pairings.sort_by(|a, b| b.3.cmp(&a.3).then_with(|| (a.0, a.1, a.2).cmp(&(b.0, b.1, b.2))));
    Table {
        event: event.spellings.shown(),
        year: key.1,
        games,
        lines,
        repeated: event.repeated,
        undated: event.undated,
        other_years: event.other_years.clone(),
        self_play: event.self_play,
        same_round_pairings,
        spellings: &event.spellings,
    }
}
