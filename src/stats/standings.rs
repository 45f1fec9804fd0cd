//! Tournament standings from the games of each tournament: points (a win 1, a draw ½), discs,
//! the opponents' points and the Brightwell quotient, ranked as the World Othello
//! Championship's rules rank a Swiss tournament (points, then the quotient, then discs).
//!
//! Values that can be halves (points, discs on a board of an odd number of squares) are kept
//! doubled, as whole numbers, so that sums are exact and merges do not depend on the order.

use std::collections::HashMap;

use super::{Facts, Winner};
use crate::core::Color;

/// The weight of the opponents' points in the Brightwell quotient: the WOC rules take a
/// player's discs plus six times the sum of the points their opponents scored.
pub const BQ_FACTOR: i64 = 6;

/// A tournament: its event name (empty when the games give none) and its year (`None` when
/// they give no date).
pub type Tournament = (String, Option<u16>);

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
    /// Games with a result against each opponent.
    opponents: HashMap<String, u64>,
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
}

impl Table<'_> {
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

/// Standings accumulated over games; [`Standings::merge`] combines those of separate runs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Standings {
    tournaments: HashMap<Tournament, HashMap<String, Standing>>,
}

impl Standings {
    /// Adds a game to its tournament's standings (a game without both players' names is left
    /// out: it stands no one).
    pub fn add(&mut self, facts: &Facts) {
        if facts.black_player.is_empty() || facts.white_player.is_empty() {
            return;
        }
        let cells = i64::from(facts.black + facts.white + facts.empties);
        let result = match (facts.result, facts.stated) {
            (Some(winner), _) => {
                let winner = match winner {
                    Winner::Black => Some(Color::Black),
                    Winner::White => Some(Color::White),
                    Winner::Draw => None,
                };
                Some((winner, facts.margin, false))
            }
            (None, Some(stated)) => Some((stated.winner, stated.margin, true)),
            (None, None) => None,
        };
        let players = self.tournaments.entry((facts.event.clone(), facts.year)).or_default();
        for (me, opponent, color) in [
            (&facts.black_player, &facts.white_player, Color::Black),
            (&facts.white_player, &facts.black_player, Color::White),
        ] {
            let s = players.entry(me.clone()).or_default();
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
        for (key, players) in &other.tournaments {
            let mine = self.tournaments.entry(key.clone()).or_default();
            for (name, standing) in players {
                mine.entry(name.clone()).or_default().merge(standing);
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
fn table<'a>(key: &'a Tournament, players: &'a HashMap<String, Standing>) -> Table<'a> {
    let mut lines: Vec<Line<'a>> = players
        .iter()
        .map(|(player, standing)| {
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
    Table { event: &key.0, year: key.1, games, lines }
}
