//! Statistics over game records: the facts of one game ([`Facts`]), computed from its record,
//! its game and its check, and a mergeable accumulator over many games ([`Summary`]): totals,
//! openings merged under the start position's symmetries (with names from a shipped table of
//! opening lines), players, tournaments, years, and duplicate games and final positions.
//!
//! The opening names come from `src/stats/openings.txt` (see `src/stats/SOURCES.md`).

pub mod book;
mod groups;
pub mod select;
pub mod standings;

use std::collections::{BTreeMap, HashMap};
use std::io;
use std::sync::OnceLock;

use groups::Groups;
use standings::Standings;

use serde_json::Value;

use crate::core::{Color, Game, Move, Passes, Position, Rules, Symmetry, Variant, preserves_start};
use crate::notation::check::{Check, StatedResult, Status, stated_result};
use crate::notation::{Record, transcript};

/// How many moves make an opening unless told otherwise.
pub const DEFAULT_DEPTH: usize = 6;

/// The named opening lines shipped with kifu, one per line (`F5d6C3d3C4   Tiger`).
pub const OPENINGS_TXT: &str = include_str!("openings.txt");

/// The statuses in output order; [`Summary::status`] is indexed the same way.
pub const STATUSES: [Status; 5] =
    [Status::Ok, Status::Illegal, Status::Unfinished, Status::ResultMismatch, Status::ParseError];

/// A finished game's result.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Winner {
    /// Black won.
    Black,
    /// White won.
    White,
    /// A draw.
    Draw,
}

impl Winner {
    /// `black`, `white` or `draw`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Winner::Black => "black",
            Winner::White => "white",
            Winner::Draw => "draw",
        }
    }
}

/// A game's first moves, up to the board's symmetries at every move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Opening {
    /// What identifies the opening: a hash of the rules and start position, and the [`Trail`]'s
    /// hash after the moves (the positions they pass through, each up to symmetry).
    pub key: (u64, u64),
    /// The moves as a compact transcript, turned by a symmetry of the start so that the first
    /// move is `f5` when it can be.
    pub moves: String,
    /// The name of the deepest named line that is a prefix of these moves (standard Othello from
    /// the standard start only).
    pub name: Option<&'static str>,
}

/// The facts of one game.
#[derive(Clone, PartialEq, Debug)]
pub struct Facts {
    /// The record's verdict.
    pub status: Status,
    /// Discs placed (moves replayed, passes left out), up to the first illegal move.
    pub length: usize,
    /// Passes played, written or inferred.
    pub passes: u32,
    /// Black's discs at the end.
    pub black: u32,
    /// White's discs at the end.
    pub white: u32,
    /// Empty cells at the end.
    pub empties: u32,
    /// The result when the game is over (after the record's komi, if it has one).
    pub result: Option<Winner>,
    /// Black's margin under the rules' scoring when the game is over.
    pub margin: Option<i32>,
    /// The most discs one move flipped.
    pub max_flips: u32,
    /// Corners taken by black and by white.
    pub corners: [u32; 2],
    /// The 1-based ply (passes count) of the first move onto a corner.
    pub first_corner_ply: Option<usize>,
    /// Black's name (empty when the record gives none).
    pub black_player: String,
    /// White's name (empty when the record gives none).
    pub white_player: String,
    /// The event or tournament (empty when the record gives none).
    pub event: String,
    /// The round (PGN's `Round`; empty when the record gives none, or `?` or `-`).
    pub round: String,
    /// The year of the date ([`year`]).
    pub year: Option<u16>,
    /// The result the record states, read ([`stated_result`]).
    pub stated: Option<StatedResult>,
    /// The record gives the finished game to the other player (or a draw) on time or by
    /// forfeit (`B+T`, `W+F`, PGN's `Termination "time forfeit"`): its stated winner stands
    /// against the board's ([`check::overruled_board`](crate::notation::check::overruled_board)).
    pub overruled: bool,
    /// The canonical game hash of [`canonical_hash`](crate::export::canonical_hash): the [`Trail`]'s last (the same for games
    /// one another turned or mirrored, at the start or later, and with or without their passes
    /// written).
    pub game_hash: u64,
    /// A hash of the rules and the start position (games are only duplicates from the same start).
    pub start_hash: u64,
    /// The rules as a kifu spec.
    pub rules: String,
    /// A hash of the final position's canonical form (the smallest over the symmetries the board
    /// allows), its side to move and the rules.
    pub final_hash: u64,
    /// The first moves (up to the depth asked for).
    pub opening: Opening,
    /// The name of the deepest named line that is a prefix of the whole game.
    pub opening_name: Option<&'static str>,
    /// The positions the game passes through (up to its first illegal move).
    pub trail: Trail,
}

impl Facts {
    /// What makes two games the same game (`--unique`, `kifu stats --by duplicates`): the same
    /// start and rules and the same moves up to symmetry; for a game that stops before its end
    /// (given up, or cut short), the same two players too, in either colour, since players who
    /// resign after the same few moves play different games (games that name no players are
    /// between the same two, as in a list of openings; names are compared without case and
    /// accents). `None` for a game that is nobody's duplicate: one with no moves (a forfeit, a
    /// bye) or cut short by an illegal move (it would be one of every game that plays its legal
    /// beginning).
    #[must_use]
    pub fn same_game_key(&self) -> Option<(u64, u64)> {
        if self.length == 0 || self.status == Status::Illegal {
            return None;
        }
        if self.result.is_some() {
            return Some((self.start_hash, self.game_hash));
        }
        // Accents aside (`Inés` is `Ines`): one source's names often come without them.
        let key = |name: &str| crate::notation::without_accents(&standings::name_key(name));
        let mut names = [key(&self.black_player), key(&self.white_player)];
        names.sort();
        let mut hasher = std::hash::DefaultHasher::new();
        std::hash::Hash::hash(&names, &mut hasher);
        let names = std::hash::Hasher::finish(&hasher);
        Some((self.start_hash, crate::core::splitmix64(self.game_hash ^ names)))
    }

    /// The result as a tournament counts it: the board's when the game is over (unless the
    /// record gives the game to the other player on time or by forfeit), else the one its
    /// record states (a resignation, a loss on time); `true` when it is the record's.
    #[must_use]
    pub fn counted(&self) -> (Option<Winner>, bool) {
        match (self.result, self.stated) {
            (Some(result), _) if !self.overruled => (Some(result), false),
            // (Overruled only by a stated result.)
            (Some(result), None) => (Some(result), false),
            (_, Some(stated)) => {
                let winner = match stated.winner {
                    Some(Color::Black) => Winner::Black,
                    Some(Color::White) => Winner::White,
                    None => Winner::Draw,
                };
                (Some(winner), true)
            }
            (None, None) => (None, false),
        }
    }

    /// The facts of a game, from its record (for the names), the game (replayed up to its first
    /// illegal move) and its check (status, counts, result); the opening is the first `depth`
    /// moves.
    #[must_use]
    pub fn new(record: &Record, game: &Game, check: &Check, depth: usize) -> Facts {
        let rules = game.rules();
        let corner_cells = rules.corners();
        let (mut ply, mut max_flips, mut corners, mut first_corner_ply) = (0usize, 0u32, [0u32; 2], None);
        let mut placed: Vec<Move> = Vec::with_capacity(game.moves().len());
        let mut passes = 0u32;
        let visit = |before: &Position, mv: Move, flipped: u32| {
            ply += 1;
            match mv {
                Move::Pass => passes += 1,
                Move::Place(sq) => {
                    placed.push(mv);
                    max_flips = max_flips.max(flipped);
                    if corner_cells.contains(sq) {
                        corners[before.side_to_move().index()] += 1;
                        first_corner_ply.get_or_insert(ply);
                    }
                }
            }
        };
        let end = match game.replay_with(Passes::Implicit, visit) {
            Ok(replay) => replay.position,
            Err(e) => *e.position,
        };
        let symmetries = start_symmetries(game);
        let spec = rules_spec(rules);
        let start_hash = fnv(
            FNV_START,
            [
                spec.as_bytes(),
                game.start().board_string_from_top().as_bytes(),
                game.start().side_to_move().name().as_bytes(),
            ],
        );
        let (canonical_end, _) = end.canonical();
        let final_hash = fnv(
            FNV_START,
            [
                spec.as_bytes(),
                canonical_end.board_string_from_top().as_bytes(),
                canonical_end.side_to_move().name().as_bytes(),
            ],
        );
        let standard = spec == "othello" && symmetries.len() == STANDARD_SYMMETRIES;
        let names = OpeningNames::builtin();
        let prefix = &placed[..depth.min(placed.len())];
        let trail = Trail::of(game);
        let opening_trail = trail.cut(depth);
        let opening = Opening {
            key: (start_hash, opening_trail.last()),
            moves: display(prefix, &symmetries, rules.size()),
            name: if standard { names.name(&opening_trail) } else { None },
        };
        Facts {
            status: check.status,
            length: placed.len(),
            passes,
            black: check.black,
            white: check.white,
            empties: check.empties,
            // A game with komi is won after its komi (GGS's komi games).
            result: check.over.then_some(
                match crate::notation::check::final_winner(
                    &check.score,
                    crate::notation::check::komi_of(record).flatten().unwrap_or(0.0),
                ) {
                    Some(Color::Black) => Winner::Black,
                    Some(Color::White) => Winner::White,
                    None => Winner::Draw,
                },
            ),
            margin: check.margin(),
            max_flips,
            corners,
            first_corner_ply,
            black_player: record.name_or_number("black").unwrap_or_default(),
            white_player: record.name_or_number("white").unwrap_or_default(),
            event: record.name_or_number("event").unwrap_or_default(),
            round: record
                .tag("round")
                .map(crate::notation::tidy_name)
                .filter(|r| !r.chars().all(|c| matches!(c, '?' | '-')))
                .unwrap_or_default(),
            year: record.tag("date").and_then(year),
            stated: check
                .stored
                .as_deref()
                .and_then(|text| stated_result(text, (check.black + check.white + check.empties) as i32)),
            overruled: crate::notation::check::overruled_board(record, check),
            game_hash: trail.last(),
            start_hash,
            rules: rules.variant().spec(),
            final_hash,
            opening,
            opening_name: if standard { names.name(&trail) } else { None },
            trail,
        }
    }
}

/// The rules as the hashes name them: the spec, with rank 1 on top (the row numbering only
/// names squares: a game is the same game under either); standard rules need no search for it.
fn rules_spec(rules: &Rules) -> String {
    let variant = rules.variant().with_rows_from_top();
    if variant == Variant::default() { "othello".to_owned() } else { variant.spec() }
}

/// The first run of exactly four digits in a date that is a year of 1800-2100 (`2004`,
/// `2004.05.01`, `01/05/2004`, `２００４年`; not `20040501`), or the year of GGS's seconds since
/// 1970.
#[must_use]
pub fn year(date: &str) -> Option<u16> {
    // Full-width digits as ASCII ones (`２０２３年３月５日`).
    let date: String = date.trim().chars().map(crate::notation::narrow).collect();
    let date = date.as_str();
    // GGS writes seconds since 1970 (`DT[940607137]`).
    if let Some((year, _, _)) = crate::notation::ggs_date(date) {
        return Some(year);
    }
    let bytes = date.as_bytes();
    bytes.windows(4).enumerate().find_map(|(i, w)| {
        let alone = (i == 0 || !bytes[i - 1].is_ascii_digit()) && bytes.get(i + 4).is_none_or(|b| !b.is_ascii_digit());
        let year: Option<u16> =
            (alone && w.iter().all(u8::is_ascii_digit)).then(|| date[i..i + 4].parse().ok()).flatten();
        year.filter(|y| (1800..=2100).contains(y))
    })
}

/// The symmetries of the standard start: the identity, the half turn and the two diagonal mirrors.
const STANDARD_SYMMETRIES: usize = 4;

/// The symmetries that keep a game's start position (the identity alone for a start the record
/// sets up itself, which kifu does not try to match).
fn start_symmetries(game: &Game) -> Vec<Symmetry> {
    let rules = game.rules();
    if *game.start() == Position::start(rules.clone()) {
        Symmetry::ALL.into_iter().filter(|&s| preserves_start(s, rules)).collect()
    } else {
        vec![Symmetry::Identity]
    }
}

/// A move as one byte: the square's index under the symmetry, 255 for a pass.
fn code(mv: Move, sym: Symmetry, size: u8) -> u8 {
    match mv {
        Move::Pass => 255,
        Move::Place(sq) => sym.apply(sq, size).index(),
    }
}

/// The word that tells a board other than the plain 8x8 one apart in a hash: its size and its
/// number of cells (so that a 4x4 position is not a 6x6 one whose discs read the same).
fn board_word(rules: &Rules) -> Option<u64> {
    let cells = rules.playable().0.iter().map(|w| u64::from(w.count_ones())).sum::<u64>();
    (rules.size() != 8 || cells != 64).then(|| u64::from(rules.size()) << 32 | cells)
}

/// `h` with the position's canonical form (its board's [`board_word`], discs and side to move)
/// multiplied in, each word with the high bits folded down so that every square reaches every
/// bit.
fn hash_on(h: u64, board: Option<u64>, p: &Position) -> u64 {
    let words = board.into_iter().chain(p.canonical_words()).chain([p.side_to_move().index() as u64]);
    words.fold(h, |h, w| {
        let h = (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        h ^ (h >> 29)
    })
}

/// A hash of the position up to the board's symmetries, with its side to move: the same for
/// positions that are one another turned or mirrored, whatever game reached them (a
/// [`Trail`]'s first entry is its start's).
#[must_use]
pub fn canonical_position_hash(p: &Position) -> u64 {
    hash_on(FNV_START, board_word(p.rules()), p)
}

/// The positions a game passes through, each up to the board's symmetries, hashed in turn:
/// entry `k` hashes the canonical forms (discs and side to move) of the start and of the
/// positions after each of the first `k` moves. A forced pass, written or not, is no move here
/// (a voluntary one is), so games written with and without their passes, or turned or mirrored
/// at the start or at any later move (after `f5f6e6`, `d6` is `f4` mirrored), have one trail.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Trail {
    hashes: Vec<u64>,
}

impl Trail {
    /// The trail of a game, up to its first illegal move.
    #[must_use]
    pub fn of(game: &Game) -> Trail {
        let board = board_word(game.rules());
        let step = |h: u64, p: &Position| hash_on(h, board, p);
        let mut hashes = vec![step(FNV_START, game.start())];
        // A move's position is hashed when the next move (or the end) shows it.
        let mut pending = false;
        let end = match game.replay_with(Passes::Implicit, |before, mv, _| {
            if std::mem::take(&mut pending) {
                hashes.push(step(*hashes.last().expect("the start's"), before));
            }
            pending = mv != Move::Pass || before.has_placement();
        }) {
            Ok(replay) => replay.position,
            Err(e) => *e.position,
        };
        if pending {
            hashes.push(step(*hashes.last().expect("the start's"), &end));
        }
        Trail { hashes }
    }

    /// The moves it counts (placements and voluntary passes).
    #[must_use]
    pub fn moves(&self) -> usize {
        self.hashes.len() - 1
    }

    /// The hash after the first `k` moves, if the game has so many.
    #[must_use]
    pub fn at(&self, k: usize) -> Option<u64> {
        self.hashes.get(k).copied()
    }

    /// The hash after every move.
    #[must_use]
    pub fn last(&self) -> u64 {
        *self.hashes.last().expect("a trail has its start")
    }

    /// The trail of the first `k` moves.
    #[must_use]
    pub fn cut(&self, k: usize) -> Trail {
        Trail { hashes: self.hashes[..=k.min(self.moves())].to_vec() }
    }
}

/// The moves as a compact transcript with rank 1 on top (games of either row numbering share
/// openings), turned by the symmetry that makes the first move `f5` (else the one giving the
/// smallest codes).
fn display(moves: &[Move], symmetries: &[Symmetry], size: u8) -> String {
    let name = |m: Move| m.to_string();
    let sym = symmetries
        .iter()
        .copied()
        .min_by_key(|&sym| {
            let first = moves.first().map(|&m| name(sym.apply_move(m, size)));
            (first.as_deref() != Some("f5"), moves.iter().map(|&m| code(m, sym, size)).collect::<Vec<u8>>())
        })
        .unwrap_or(Symmetry::Identity);
    moves.iter().map(|&m| name(sym.apply_move(m, size))).collect()
}

const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a over byte strings, each followed by a zero byte.
fn fnv<'a>(start: u64, parts: impl IntoIterator<Item = &'a [u8]>) -> u64 {
    parts.into_iter().fold(start, |h, part| {
        part.iter().chain(std::iter::once(&0)).fold(h, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
    })
}

/// A table of named opening lines, matched up to the symmetries of the standard start.
#[derive(Clone, Debug, Default)]
pub struct OpeningNames {
    /// The [`Trail`] hash of each line (from the standard start), and its name.
    lines: HashMap<u64, String>,
    /// The distinct line lengths, longest first.
    lengths: Vec<usize>,
}

impl OpeningNames {
    /// Reads a table: one line per opening, the moves as a transcript then the name after two
    /// spaces or a tab (one space is accepted too); blank lines and `//` comments are skipped.
    ///
    /// # Errors
    /// The 1-based line number and what is wrong, for a line whose moves do not read or are not
    /// legal from the standard start, or that has no name.
    pub fn parse(text: &str) -> Result<OpeningNames, String> {
        let rules = Rules::othello().shared();
        let mut table = OpeningNames::default();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with("//") {
                continue;
            }
            let at = |message: String| format!("line {}: {message}", i + 1);
            // The grammar takes a name after two spaces; a name after one space is split off here.
            let (record, name) = match transcript::parse(line) {
                Ok(r) if r.tag("name").is_some() => {
                    let name = r.tag("name").unwrap_or_default().to_owned();
                    (r, name)
                }
                _ => {
                    let (moves, name) = line.split_once(char::is_whitespace).ok_or_else(|| at("no name".into()))?;
                    (transcript::parse(moves).map_err(|e| at(e.message))?, name.trim().to_owned())
                }
            };
            let moves = record.moves_under(&rules).map_err(|k| at(format!("move {} is not a square", k + 1)))?;
            let game = Game::new(rules.clone()).with_moves(moves.iter().copied());
            game.replay(Passes::Explicit).map_err(|e| at(format!("move {} is illegal: {}", e.ply, e.reason)))?;
            if !table.lengths.contains(&moves.len()) {
                table.lengths.push(moves.len());
            }
            table.lines.entry(Trail::of(&game).last()).or_insert(name);
        }
        table.lengths.sort_unstable_by(|a, b| b.cmp(a));
        Ok(table)
    }

    /// The table shipped with kifu (`src/stats/openings.txt`).
    ///
    /// # Panics
    /// Never: the shipped table is checked by the tests.
    #[must_use]
    pub fn builtin() -> &'static OpeningNames {
        static TABLE: OnceLock<OpeningNames> = OnceLock::new();
        TABLE.get_or_init(|| OpeningNames::parse(OPENINGS_TXT).expect("the shipped opening table reads"))
    }

    /// How many named lines (distinct up to symmetry) the table has.
    #[must_use]
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Whether the table is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The name of the deepest line a game's [`trail`](Trail) follows (standard Othello from
    /// the standard start; transpositions are other lines).
    #[must_use]
    pub fn name(&self, trail: &Trail) -> Option<&str> {
        self.lengths.iter().find_map(|&n| self.lines.get(&trail.at(n)?)).map(String::as_str)
    }

    /// Whether a line's name holds `part`, whatever the case.
    #[must_use]
    pub fn has_name_holding(&self, part: &str) -> bool {
        let part = part.to_lowercase();
        self.lines.values().any(|name| name.to_lowercase().contains(&part))
    }

    /// Up to `k` names (sorted) that hold the first three letters of `part`, whatever the case:
    /// what a misspelt name (`tigre`) likely meant.
    #[must_use]
    pub fn names_like(&self, part: &str, k: usize) -> Vec<&str> {
        let start: String = part.to_lowercase().chars().take(3).collect();
        let mut names: Vec<&str> =
            self.lines.values().filter(|name| name.to_lowercase().contains(&start)).map(String::as_str).collect();
        names.sort_unstable();
        names.dedup();
        names.truncate(k);
        names
    }

    /// The names of every line the trail follows, deepest first.
    pub fn names_along<'a>(&'a self, trail: &'a Trail) -> impl Iterator<Item = &'a str> + 'a {
        self.lengths.iter().filter_map(move |&n| self.lines.get(&trail.at(n)?)).map(String::as_str)
    }
}

/// Results over a set of games.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Tally {
    /// Games.
    pub games: u64,
    /// Games black won.
    pub black_wins: u64,
    /// Games white won.
    pub white_wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games with no result: not over on the board (unfinished or stopped at an illegal move)
    /// and none written, or unreadable.
    pub no_result: u64,
    /// Games whose result is the record's, the board giving none (a resignation, a loss on
    /// time): counted in the wins and draws.
    pub from_record: u64,
    /// The sum of black's margins over the games over on the board.
    pub margin_sum: i64,
    /// The sum of the margins' sizes over the games over on the board.
    pub abs_margin_sum: u64,
    /// The games over on the board (the games with a margin).
    pub margins: u64,
}

impl Tally {
    /// Adds a game: `result` as [`Facts::counted`] gives it (the board's, else the record's,
    /// `from_record` saying which), `margin` black's on the board when the game is over there.
    fn add(&mut self, result: Option<Winner>, from_record: bool, margin: Option<i32>) {
        self.games += 1;
        match result {
            Some(Winner::Black) => self.black_wins += 1,
            Some(Winner::White) => self.white_wins += 1,
            Some(Winner::Draw) => self.draws += 1,
            None => self.no_result += 1,
        }
        self.from_record += u64::from(result.is_some() && from_record);
        if let Some(m) = margin {
            self.margin_sum += i64::from(m);
            self.abs_margin_sum += u64::from(m.unsigned_abs());
            self.margins += 1;
        }
    }

    fn merge(&mut self, other: &Tally) {
        self.games += other.games;
        self.black_wins += other.black_wins;
        self.white_wins += other.white_wins;
        self.draws += other.draws;
        self.no_result += other.no_result;
        self.from_record += other.from_record;
        self.margin_sum += other.margin_sum;
        self.abs_margin_sum += other.abs_margin_sum;
        self.margins += other.margins;
    }

    /// Games with a result (on the board or from the record).
    #[must_use]
    pub fn finished(&self) -> u64 {
        self.black_wins + self.white_wins + self.draws
    }

    /// Black's average margin over the games over on the board.
    #[must_use]
    pub fn mean_margin(&self) -> Option<f64> {
        ratio(self.margin_sum as f64, self.margins)
    }

    /// The average size of the margin over the games over on the board.
    #[must_use]
    pub fn mean_abs_margin(&self) -> Option<f64> {
        ratio(self.abs_margin_sum as f64, self.margins)
    }

    /// Black wins, white wins and draws as percentages of the games with a result.
    #[must_use]
    pub fn percentages(&self) -> Option<[f64; 3]> {
        let n = self.finished();
        (n > 0).then(|| [self.black_wins, self.white_wins, self.draws].map(|k| 100.0 * k as f64 / n as f64))
    }
}

/// One player's record over the games they played (either colour).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct PlayerTally {
    /// How the name was written (names equal but for case and spaces are one player).
    pub spellings: standings::Spellings,
    /// Games.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
    /// Games with no result: not over on the board, and none written.
    pub no_result: u64,
    /// Games whose result is the record's, the board giving none (a resignation, a loss on
    /// time, a game stopped early with its result written): counted in the wins, draws and
    /// losses.
    pub from_record: u64,
    /// The sum of the margins, from the player's side, over the games with one.
    pub margin_sum: i64,
    /// The games with a margin: over on the board.
    pub margins: u64,
}

impl PlayerTally {
    /// Adds a game the player played with `color`: its result on the board when the game is
    /// over, else the one its record states, as a tournament counts it; its margin when it is
    /// over on the board.
    fn add(&mut self, color: Color, facts: &Facts) {
        self.games += 1;
        let (result, from_record) = facts.counted();
        self.from_record += u64::from(from_record);
        let margin = facts.margin;
        match (result, color) {
            (None, _) => self.no_result += 1,
            (Some(Winner::Draw), _) => self.draws += 1,
            (Some(Winner::Black), Color::Black) | (Some(Winner::White), Color::White) => self.wins += 1,
            _ => self.losses += 1,
        }
        if let Some(m) = margin {
            self.margin_sum += i64::from(if color == Color::Black { m } else { -m });
            self.margins += 1;
        }
    }

    fn merge(&mut self, other: &PlayerTally) {
        self.spellings.merge(&other.spellings);
        self.games += other.games;
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        self.no_result += other.no_result;
        self.from_record += other.from_record;
        self.margin_sum += other.margin_sum;
        self.margins += other.margins;
    }

    /// The average margin from the player's side over the games with one.
    #[must_use]
    pub fn mean_margin(&self) -> Option<f64> {
        ratio(self.margin_sum as f64, self.margins)
    }
}

/// An opening's games and results.
#[derive(Clone, PartialEq, Debug)]
pub struct OpeningTally {
    /// The moves, as [`Opening::moves`] gives them for the first game seen.
    pub moves: String,
    /// The opening's name, if named.
    pub name: Option<&'static str>,
    /// The rules of its games, as a kifu spec (one opening's games share their rules and start).
    pub rules: String,
    /// The results.
    pub tally: Tally,
}

/// Where a game is: its source and 1-based index there.
pub type Location = (String, usize);

/// Games that are the same game, or reach the same final position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Duplicate {
    /// The canonical game hash, or the final position's hash.
    pub hash: u64,
    /// The games, in input order.
    pub games: Vec<Location>,
}

/// A game's place in a run: the index of its source in [`Summary`]'s list, and its index.
type Loc = (u32, usize);

/// One word for what makes two games the same game (the start's hash and the canonical game
/// hash), to tell whether games reaching one final position are one game.
fn game_word(start_hash: u64, game_hash: u64) -> u64 {
    crate::core::splitmix64(start_hash ^ crate::core::splitmix64(game_hash))
}

/// Statistics accumulated over games; [`Summary::merge`] combines summaries of separate runs
/// or threads. Memory does not grow with the number of games: the keys that find duplicate
/// games are spilled to temporary files past about 40 MB. What grows is what is reported: the
/// distinct openings, players, tournaments and years, the lists of duplicates, and the
/// standings when asked for (a tournament's players and their opponents).
#[derive(Debug, Default)]
pub struct Summary {
    sources: Vec<String>,
    /// Games seen, readable or not.
    pub games: u64,
    /// Games per status, in the order of [`STATUSES`].
    pub status: [u64; 5],
    /// Results over every game.
    pub results: Tally,
    /// Finished games per black margin.
    pub margins: BTreeMap<i32, u64>,
    /// Readable games per length (discs placed).
    pub lengths: BTreeMap<usize, u64>,
    /// Finished games per count of empty cells at the end.
    pub empties: BTreeMap<u32, u64>,
    /// Passes over all games.
    pub passes: u64,
    /// Games with at least one pass.
    pub games_with_passes: u64,
    /// The most discs one move flipped, over all games.
    pub max_flips: u32,
    /// The sum over games of each game's most discs flipped by one move.
    pub max_flips_sum: u64,
    /// Corners taken by black and by white, over all games.
    pub corners: [u64; 2],
    /// The sum of the first corner plies, and the games with a corner move.
    pub first_corner: (u64, u64),
    /// Games per opening key.
    pub openings: HashMap<(u64, u64), OpeningTally>,
    /// Games per name of the deepest named line each game follows.
    pub named: HashMap<&'static str, Tally>,
    /// Games per player, by [`standings::name_key`] (names equal but for case and spaces).
    pub players: HashMap<String, PlayerTally>,
    /// Games per event, by [`standings::name_key`] (names equal but for case and spaces), with
    /// how the name was written.
    pub tournaments: HashMap<String, (standings::Spellings, Tally)>,
    /// Games per year.
    pub years: BTreeMap<u16, Tally>,
    /// The games with no event, and those with no year (their rows in the tournament and year
    /// tables, so that the rows add up to every game read).
    pub no_event: Tally,
    /// See `no_event`.
    pub no_year: Tally,
    /// Each tournament's standings, when asked for (`Some` before the games are added: they
    /// take memory with every game of two named players).
    pub standings: Option<Standings>,
    /// Games by (start hash, canonical game hash).
    same_game: Groups,
    /// Finished games by final position hash, with their [`game_word`].
    same_final: Groups,
}

impl Summary {
    /// An empty summary.
    #[must_use]
    pub fn new() -> Summary {
        Summary::default()
    }

    fn source_id(&mut self, source: &str) -> u32 {
        match self.sources.iter().rposition(|s| s == source) {
            Some(i) => i as u32,
            None => {
                self.sources.push(source.to_owned());
                (self.sources.len() - 1) as u32
            }
        }
    }

    /// Adds a game: `index` is its 1-based index in `source`. The error is the temporary file
    /// the duplicate keys spill to.
    pub fn add(&mut self, source: &str, index: usize, facts: &Facts) -> io::Result<()> {
        let loc = (self.source_id(source), index);
        self.games += 1;
        self.status[status_index(facts.status)] += 1;
        let (result, from_record) = facts.counted();
        // (Margins are the board's, of the games over on it, whoever the record says won.)
        let margin = facts.margin;
        self.results.add(result, from_record, margin);
        if let Some(m) = margin {
            *self.margins.entry(m).or_default() += 1;
            *self.empties.entry(facts.empties).or_default() += 1;
        }
        *self.lengths.entry(facts.length).or_default() += 1;
        self.passes += u64::from(facts.passes);
        self.games_with_passes += u64::from(facts.passes > 0);
        self.max_flips = self.max_flips.max(facts.max_flips);
        self.max_flips_sum += u64::from(facts.max_flips);
        self.corners[0] += u64::from(facts.corners[0]);
        self.corners[1] += u64::from(facts.corners[1]);
        if let Some(p) = facts.first_corner_ply {
            self.first_corner.0 += p as u64;
            self.first_corner.1 += 1;
        }
        let opening = self.openings.entry(facts.opening.key).or_insert_with(|| OpeningTally {
            moves: facts.opening.moves.clone(),
            name: facts.opening.name,
            rules: facts.rules.clone(),
            tally: Tally::default(),
        });
        opening.tally.add(result, from_record, margin);
        if let Some(name) = facts.opening_name {
            self.named.entry(name).or_default().add(result, from_record, margin);
        }
        for (name, color) in [(&facts.black_player, Color::Black), (&facts.white_player, Color::White)] {
            if !name.is_empty() {
                let tally = self.players.entry(standings::name_key(name)).or_default();
                tally.spellings.add(name, 1);
                tally.add(color, facts);
            }
        }
        if facts.event.is_empty() {
            self.no_event.add(result, from_record, margin);
        } else {
            let (spellings, tally) = self.tournaments.entry(standings::name_key(&facts.event)).or_default();
            spellings.add(&facts.event, 1);
            tally.add(result, from_record, margin);
        }
        match facts.year {
            Some(y) => self.years.entry(y).or_default().add(result, from_record, margin),
            None => self.no_year.add(result, from_record, margin),
        }
        if let Some(standings) = &mut self.standings {
            standings.add(facts);
        }
        if facts.length > 0 {
            let (source, index) = (u64::from(loc.0), loc.1 as u64);
            // (Grouped by the key; the group shown by the game's canonical hash.)
            if let Some((start, game)) = facts.same_game_key() {
                self.same_game.push([start, game, source, index, facts.game_hash])?;
            }
            if facts.result.is_some() {
                let word = game_word(facts.start_hash, facts.game_hash);
                self.same_final.push([facts.final_hash, 0, source, index, word])?;
            }
        }
        Ok(())
    }

    /// Counts a game that could not be replayed (unreadable, or naming a square the board does
    /// not have) under its status.
    pub fn add_failed(&mut self, status: Status) {
        self.games += 1;
        self.status[status_index(status)] += 1;
        self.results.add(None, false, None);
        self.no_event.add(None, false, None);
        self.no_year.add(None, false, None);
    }

    /// Adds another summary's games to this one.
    pub fn merge(&mut self, other: Summary) -> io::Result<()> {
        let ids: Vec<u32> = other.sources.iter().map(|s| self.source_id(s)).collect();
        self.games += other.games;
        for (a, b) in self.status.iter_mut().zip(other.status) {
            *a += b;
        }
        self.results.merge(&other.results);
        for (k, v) in other.margins {
            *self.margins.entry(k).or_default() += v;
        }
        for (k, v) in other.lengths {
            *self.lengths.entry(k).or_default() += v;
        }
        for (k, v) in other.empties {
            *self.empties.entry(k).or_default() += v;
        }
        self.passes += other.passes;
        self.games_with_passes += other.games_with_passes;
        self.max_flips = self.max_flips.max(other.max_flips);
        self.max_flips_sum += other.max_flips_sum;
        self.corners[0] += other.corners[0];
        self.corners[1] += other.corners[1];
        self.first_corner.0 += other.first_corner.0;
        self.first_corner.1 += other.first_corner.1;
        for (k, v) in other.openings {
            match self.openings.get_mut(&k) {
                Some(mine) => mine.tally.merge(&v.tally),
                None => {
                    self.openings.insert(k, v);
                }
            }
        }
        for (k, v) in other.named {
            self.named.entry(k).or_default().merge(&v);
        }
        for (k, v) in other.players {
            self.players.entry(k).or_default().merge(&v);
        }
        for (k, (spellings, tally)) in other.tournaments {
            let (mine, mine_tally) = self.tournaments.entry(k).or_default();
            mine.merge(&spellings);
            mine_tally.merge(&tally);
        }
        for (k, v) in other.years {
            self.years.entry(k).or_default().merge(&v);
        }
        self.no_event.merge(&other.no_event);
        self.no_year.merge(&other.no_year);
        match (&mut self.standings, &other.standings) {
            (Some(mine), Some(theirs)) => mine.merge(theirs),
            (None, Some(theirs)) => self.standings = Some(theirs.clone()),
            _ => {}
        }
        let remap = |mut e: groups::Entry| {
            e[2] = u64::from(ids[e[2] as usize]);
            e
        };
        self.same_game.extend_from(&other.same_game, remap)?;
        self.same_final.extend_from(&other.same_final, remap)
    }

    /// The openings, most played first (ties by moves).
    #[must_use]
    pub fn openings_ranked(&self) -> Vec<&OpeningTally> {
        let mut v: Vec<&OpeningTally> = self.openings.values().collect();
        v.sort_by(|a, b| b.tally.games.cmp(&a.tally.games).then_with(|| a.moves.cmp(&b.moves)));
        v
    }

    /// The opening names games follow (the deepest named line of each game), most played first.
    #[must_use]
    pub fn named_ranked(&self) -> Vec<(&'static str, &Tally)> {
        let mut v: Vec<(&'static str, &Tally)> = self.named.iter().map(|(k, t)| (*k, t)).collect();
        v.sort_by(|a, b| b.1.games.cmp(&a.1.games).then_with(|| a.0.cmp(b.0)));
        v
    }

    /// The players, most games first (ties by name).
    #[must_use]
    pub fn players_ranked(&self) -> Vec<(&str, &PlayerTally)> {
        let mut v: Vec<(&str, &PlayerTally)> = self.players.values().map(|t| (t.spellings.shown(), t)).collect();
        v.sort_by(|a, b| b.1.games.cmp(&a.1.games).then_with(|| a.0.cmp(b.0)));
        v
    }

    /// The tournaments, most games first (ties by name).
    #[must_use]
    pub fn tournaments_ranked(&self) -> Vec<(&str, &Tally)> {
        let mut v: Vec<(&str, &Tally)> = self.tournaments.values().map(|(names, t)| (names.shown(), t)).collect();
        v.sort_by(|a, b| b.1.games.cmp(&a.1.games).then_with(|| a.0.cmp(b.0)));
        v
    }

    fn duplicates(&self, groups: Vec<(u64, Vec<Loc>)>) -> Vec<Duplicate> {
        let mut groups = groups;
        groups.sort_by(|a, b| a.1[0].cmp(&b.1[0]));
        groups
            .into_iter()
            .map(|(hash, locs)| Duplicate {
                hash,
                games: locs.into_iter().map(|(s, i)| (self.sources[s as usize].clone(), i)).collect(),
            })
            .collect()
    }

    /// Groups of games that are the same game up to the start's symmetries (same rules and
    /// start), in input order of their first game; games with no move are left out. The error
    /// is the temporary file of the keys.
    pub fn duplicate_games(&self) -> io::Result<Vec<Duplicate>> {
        let mut found = Vec::new();
        self.same_game.for_each_group(|g| {
            if g.len() > 1 {
                found.push((g[0][4], g.iter().map(|e| (e[2] as u32, e[3] as usize)).collect()));
            }
        })?;
        Ok(self.duplicates(found))
    }

    /// Groups of finished games that reach the same final position up to the board's symmetries
    /// although they are not all the same game.
    pub fn duplicate_finals(&self) -> io::Result<Vec<Duplicate>> {
        let mut found = Vec::new();
        self.same_final.for_each_group(|g| {
            if g.iter().any(|e| e[4] != g[0][4]) {
                found.push((g[0][0], g.iter().map(|e| (e[2] as u32, e[3] as usize)).collect()));
            }
        })?;
        Ok(self.duplicates(found))
    }

    /// The totals as (name, value) pairs, in the documented order (docs/output.md); means and
    /// medians are `null` when there is nothing to average. The error is the temporary file of
    /// the duplicate keys.
    pub fn totals(&self) -> io::Result<Vec<(&'static str, Value)>> {
        let n = |v: u64| Value::from(v);
        let f = |v: Option<f64>| v.map_or(Value::Null, |x| Value::from((x * 100.0).round() / 100.0));
        // (Margins are the board's: over the games over on the board.)
        let finished = self.results.margins;
        let abs_sum: u64 = self.margins.iter().map(|(m, k)| u64::from(m.unsigned_abs()) * k).sum();
        let readable: u64 = self.lengths.values().sum();
        let length_sum: u64 = self.lengths.iter().map(|(l, k)| *l as u64 * k).sum();
        let empties_sum: u64 = self.empties.iter().map(|(e, k)| u64::from(*e) * k).sum();
        let dup_games: u64 = self.duplicate_games()?.iter().map(|d| d.games.len() as u64 - 1).sum();
        let dup_finals = self.duplicate_finals()?.len() as u64;
        Ok(vec![
            ("games", n(self.games)),
            ("ok", n(self.status[0])),
            ("illegal", n(self.status[1])),
            ("unfinished", n(self.status[2])),
            ("result_mismatch", n(self.status[3])),
            ("parse_error", n(self.status[4])),
            ("black_wins", n(self.results.black_wins)),
            ("white_wins", n(self.results.white_wins)),
            ("draws", n(self.results.draws)),
            ("no_result", n(self.results.no_result)),
            ("from_record", n(self.results.from_record)),
            ("black_win_pct", f(self.results.percentages().map(|p| p[0]))),
            ("white_win_pct", f(self.results.percentages().map(|p| p[1]))),
            ("draw_pct", f(self.results.percentages().map(|p| p[2]))),
            ("margin_mean", f(self.results.mean_margin())),
            ("margin_median", f(median(&self.margins, f64::from))),
            ("abs_margin_mean", f(ratio(abs_sum as f64, finished))),
            ("length_min", self.lengths.keys().next().map_or(Value::Null, |&l| Value::from(l))),
            ("length_median", f(median(&self.lengths, |l| l as f64))),
            ("length_mean", f(ratio(length_sum as f64, readable))),
            ("length_max", self.lengths.keys().next_back().map_or(Value::Null, |&l| Value::from(l))),
            ("passes", n(self.passes)),
            ("games_with_passes", n(self.games_with_passes)),
            ("finished_with_empties", n(self.empties.range(1..).map(|(_, k)| k).sum())),
            ("empties_mean", f(ratio(empties_sum as f64, finished))),
            ("max_flips", Value::from(self.max_flips)),
            ("max_flips_mean", f(ratio(self.max_flips_sum as f64, readable))),
            ("corners_black_mean", f(ratio(self.corners[0] as f64, readable))),
            ("corners_white_mean", f(ratio(self.corners[1] as f64, readable))),
            ("first_corner_ply_mean", f(ratio(self.first_corner.0 as f64, self.first_corner.1))),
            ("openings", n(self.openings.len() as u64)),
            ("players", n(self.players.len() as u64)),
            ("tournaments", n(self.tournaments.len() as u64)),
            ("years", n(self.years.len() as u64)),
            ("duplicate_games", n(dup_games)),
            ("duplicate_final_positions", n(dup_finals)),
        ])
    }
}

fn status_index(status: Status) -> usize {
    STATUSES.iter().position(|&s| s == status).unwrap_or(4)
}

fn ratio(sum: f64, count: u64) -> Option<f64> {
    (count > 0).then(|| sum / count as f64)
}

/// The median of a distribution (the mean of the two middle values for an even count).
fn median<K: Copy>(dist: &BTreeMap<K, u64>, value: impl Fn(K) -> f64) -> Option<f64> {
    let total: u64 = dist.values().sum();
    if total == 0 {
        return None;
    }
    let nth = |n: u64| {
        let mut seen = 0;
        dist.iter().find_map(|(&k, &c)| {
            seen += c;
            (seen > n).then(|| value(k))
        })
    };
    let (a, b) = (nth((total - 1) / 2)?, nth(total / 2)?);
    Some(f64::midpoint(a, b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{check, format::Format};

    fn facts(text: &str) -> Facts {
        let record = transcript::parse(text).unwrap();
        let rules = Rules::othello().shared();
        let game = record.game(rules.clone()).unwrap();
        let c = check::check(&record, &rules, Format::Transcript);
        Facts::new(&record, &game, &c, DEFAULT_DEPTH)
    }

    fn record_game(text: &str) -> Game {
        transcript::parse(text).unwrap().game(Rules::othello().shared()).unwrap()
    }

    const GAME: &str = "f5f6e6f4e3c5g5g4g3d6e7f3e2d7c4d3f7c6c8f2b5b6c7d1a6b4a3h3b3a5c3a4d2e1c2h6g6e8f8g8h5h4c1h7d8b8b7b1b2a1a2a8a7g7h8h2g2h1g1f1";

    #[test]
    fn the_shipped_table_reads_every_line() {
        let lines = OPENINGS_TXT.lines().filter(|l| !l.trim().is_empty() && !l.starts_with("//")).count();
        assert_eq!(lines, 86);
        assert_eq!(OpeningNames::builtin().len(), 86, "no two lines are one line under symmetry");
        // The line whose name follows one space only.
        let twenty = transcript::parse("F5d6C3d3C4f4C5b3C2b4E3e6C6f6A5a4B5a6D7c7").unwrap();
        let game = twenty.game(Rules::othello().shared()).unwrap();
        assert_eq!(OpeningNames::builtin().name(&Trail::of(&game)), Some("20-move opening"));
    }

    #[test]
    fn lines_match_by_the_positions_they_pass_through() {
        // The table writes the Buffalo `F5f6E6d6C3`; after f5f6e6 the board is symmetric in the
        // a1-h8 diagonal, so players (and WTHOR) write it f5f6e6f4c3, the rest mirrored.
        assert_eq!(facts("f5f6e6d6c3").opening_name, Some("Buffalo, Kenichi Variation"));
        assert_eq!(facts("f5f6e6f4c3").opening_name, Some("Buffalo, Kenichi Variation"));
        assert_eq!(facts("f5f6e6f4e3").opening_name, Some("Cow"));
        assert_eq!(facts("f5f6e6d6c5e3").opening.key, facts("f5f6e6f4e3c5").opening.key);
        assert_eq!(facts("f5f6e6d6c5e3").game_hash, facts("f5f6e6f4e3c5").game_hash);
        // A transposition is another line.
        assert_eq!(facts("f5d6c3d3c4").opening_name, Some("Tiger"));
        assert_ne!(facts("f5d6c4d3c3").opening_name, Some("Tiger"));
    }

    #[test]
    fn a_game_cut_short_by_an_illegal_move_is_no_duplicate() {
        let mut summary = Summary::new();
        for (i, text) in ["f5d6c3d3c4", "f5d6c3d3c4a1", "e6f4c3c4d3"].into_iter().enumerate() {
            summary.add("x", i + 1, &facts(text)).unwrap();
        }
        let groups = summary.duplicate_games().unwrap();
        assert_eq!(groups.len(), 1);
        assert_eq!(groups[0].games.len(), 2, "the legal game and its mirror, not the illegal one");
    }

    #[test]
    fn games_given_up_alike_are_duplicates_only_between_the_same_players() {
        let named = |text: &str, black: &str, white: &str| {
            let mut f = facts(text);
            (f.black_player, f.white_player) = (black.to_owned(), white.to_owned());
            f
        };
        let games = [
            named("f5d6", "Ann", "Bob"),
            named("f5d6", "bob", "ANN"), // the same sheet, the colours swapped
            named("f5d6", "Ánn", "Böb"), // from a source that keeps accents
            named("f5d6", "Cy", "Di"),   // another game resigned after the same moves
            named("", "Ann", "Bob"),     // forfeits
            named("", "Ann", "Bob"),
        ];
        let mut summary = Summary::new();
        for (i, f) in games.iter().enumerate() {
            summary.add("x", i + 1, f).unwrap();
        }
        let groups = summary.duplicate_games().unwrap();
        assert_eq!(groups.len(), 1);
        assert_eq!(groups[0].games.iter().map(|g| g.1).collect::<Vec<_>>(), [1, 2, 3]);
        assert_eq!(games[4].same_game_key(), None);
        // A finished game is the same game whoever is named.
        let whole = "e6f4e3f6g5d6e7f5c5"; // a wipe-out
        assert!(facts(whole).result.is_some());
        assert_eq!(named(whole, "Ann", "Bob").same_game_key(), named(whole, "Cy", "Di").same_game_key());
    }

    #[test]
    fn a_game_written_with_its_passes_has_the_trail_of_one_written_without() {
        let rules = Rules::othello().shared();
        let game = |text: &str| crate::notation::pgn::parse(text).unwrap().game(rules.clone()).unwrap();
        let (with, without) = (game(&format!("{PASSING} *")), game(&format!("{} *", PASSING.replace(" --", ""))));
        assert_ne!(with.moves().len(), without.moves().len(), "one writes its pass");
        assert_eq!(Trail::of(&with), Trail::of(&without));
        assert_eq!(Trail::of(&with).moves(), 60);
    }

    /// The first game of WTH_2004 with a pass (white's, after black's h8), as `kifu convert --to
    /// pgn` writes it.
    const PASSING: &str = "1. f5 f6 2. e6 f4 3. e3 c5 4. g5 g4 5. g3 d6 6. e7 f3 7. e2 d7 8. c4 d3 9. f7 \
        c6 10. c8 f2 11. b5 b6 12. c7 d1 13. a6 b4 14. a3 h3 15. b3 a5 16. c3 a4 17. d2 e1 18. c2 h6 19. g6 e8 \
        20. f8 g8 21. h5 h4 22. c1 h7 23. d8 b8 24. b7 b1 25. b2 a1 26. a2 a8 27. a7 g7 28. h8 -- 29. h2 g2 \
        30. h1 g1 31. f1";

    #[test]
    fn a_game_is_named_by_its_deepest_line_under_symmetry() {
        // `F5d6C3d3C4f4C6   Spencer` in the table; Tiger (F5d6C3d3C4) is a shorter prefix.
        let f = facts("f5d6c3d3c4f4c6");
        assert_eq!(f.opening_name, Some("Spencer"));
        // The same game mirrored in the a1-h8 diagonal.
        let mirrored: String = ["f5", "d6", "c3", "d3", "c4", "f4", "c6"]
            .iter()
            .map(|m| Symmetry::FlipDiagonal.apply(m.parse().unwrap(), 8).to_string())
            .collect();
        assert_eq!(mirrored, "e6f4c3c4d3d6f3");
        let g = facts(&mirrored);
        assert_eq!(g.opening_name, Some("Spencer"));
        assert_eq!(g.opening, f.opening);
        assert_eq!(g.opening.moves, "f5d6c3d3c4f4", "shown from f5");
        assert_eq!(g.opening.name, Some("Tiger"), "the first six moves are the Tiger");
        assert_eq!(facts("f5d6c3d3c4f4c6e3").opening_name, Some("Spencer"));
        assert_eq!(facts("f5d6c3d3c4f4c5b4").opening_name, Some("Grand Central"));
        assert_eq!(facts("f5d6c3d3c4").opening_name, Some("Tiger"));
        assert_eq!(facts("f5d6c3d3").opening_name, Some("Perpendicular"));
        assert_eq!(facts("f5").opening_name, None);
    }

    #[test]
    fn rows_numbered_from_the_bottom_are_the_same_game() {
        // The whole game with its ranks renamed (rank r is 9 - r with rank 1 at the bottom).
        let bottom: String =
            GAME.as_bytes().chunks(2).map(|m| format!("{}{}", m[0] as char, 9 - (m[1] - b'0'))).collect();
        let record = transcript::parse(&bottom).unwrap();
        let rules: Rules = "othello,rows=bottom".parse().unwrap();
        let rules = rules.shared();
        let game = record.game(rules.clone()).unwrap();
        let c = check::check(&record, &rules, Format::Transcript);
        let (b, f) = (Facts::new(&record, &game, &c, DEFAULT_DEPTH), facts(GAME));
        assert_eq!(b.status, Status::Ok);
        assert_eq!(
            (&b.opening.key, &b.opening.moves, b.opening_name),
            (&f.opening.key, &f.opening.moves, f.opening_name)
        );
        assert_eq!((b.game_hash, b.start_hash, b.final_hash), (f.game_hash, f.start_hash, f.final_hash));
    }

    #[test]
    fn facts_of_a_whole_game() {
        let f = facts(GAME);
        assert_eq!((f.status, f.length, f.passes), (Status::Ok, 60, 1));
        assert_eq!((f.black, f.white, f.empties, f.result, f.margin), (41, 23, 0, Some(Winner::Black), Some(18)));
        assert_eq!(f.corners[0] + f.corners[1], 4);
        // The first corner ply as the moves table gives it (passes counted).
        let rows = crate::export::move_rows("x", 1, &record_game(GAME), "ok");
        assert_eq!(f.first_corner_ply, rows.iter().find(|r| r.is_corner).map(|r| r.ply));
        assert_eq!(Some(f.max_flips), rows.iter().map(|r| r.flipped).max());
        let black_corners = rows.iter().filter(|r| r.is_corner && r.color == "black").count() as u32;
        assert_eq!(f.corners[0], black_corners);
        assert_eq!(f.year, None);
    }

    #[test]
    fn transpositions_reach_the_same_final_position() {
        // Games 2113 and 6517 of WTH_2004.wtb: the same final position after different orders.
        let a = "f5f6e6f4g5e7f7h5e3d3g4h4h3g6g3c6c5f3e2d2c4c2f2f1c7h2c3e1b1b3d1b4e8b6a6f8h7d7d6d8b5c1g1a5a2a7a4b7c8b8g7h8h6g8a8a3h1g2b2a1";
        let b = "f5f6e6f4g5e7f7h5e3d3g4h4h3g6g3c6c5f3e2d2c4c2f2f1c3h2c7e1b1b3d1b4e8b6a6f8h7d7d6d8b5c1g1a5a2a7a4b7c8b8g7h8h6g8h1g2a8a3b2a1";
        let mut s = Summary::new();
        s.add("w", 2113, &facts(a)).unwrap();
        s.add("w", 6517, &facts(b)).unwrap();
        s.add("w", 1, &facts(GAME)).unwrap();
        assert!(s.duplicate_games().unwrap().is_empty());
        let finals = s.duplicate_finals().unwrap();
        assert_eq!(finals.len(), 1);
        assert_eq!(finals[0].games, vec![("w".to_owned(), 2113), ("w".to_owned(), 6517)]);
        // The same game twice is a duplicate game, not a transposition.
        s.add("w", 7000, &facts(a)).unwrap();
        assert_eq!(s.duplicate_games().unwrap().len(), 1);
        assert_eq!(s.duplicate_finals().unwrap()[0].games.len(), 3);
    }

    #[test]
    fn years_are_the_first_four_digits_in_a_row() {
        assert_eq!(year("2004"), Some(2004));
        assert_eq!(year("2004.05.01"), Some(2004));
        assert_eq!(year("01/05/1998"), Some(1998));
        assert_eq!(year("２０２３年３月５日"), Some(2023));
        assert_eq!(year("12345"), None, "a longer run of digits is no year");
        assert_eq!(year("940607137"), Some(1999), "GGS dates are seconds since 1970");
        assert_eq!(year("0333"), None, "out of range");
        assert_eq!(year("?"), None);
    }

    #[test]
    fn summaries_merge_to_the_same_as_one_run() {
        let games = ["f5d6c3", "e6f4c3", GAME, "f5f6e6", GAME];
        // Named players, for the standings (the first two games, unfinished, between the same
        // two players: duplicates).
        let named = |i: usize, g: &str| {
            let mut f = facts(g);
            let names = [("Ann", "Bob"), ("Bob", "Ann"), ("Cid", "Bob"), ("Ann", "Cid"), ("Bob", "Cid")][i];
            (f.black_player, f.white_player) = (names.0.into(), names.1.into());
            f
        };
        let with_standings = || Summary { standings: Some(Standings::default()), ..Summary::new() };
        let mut one = with_standings();
        for (i, g) in games.iter().enumerate() {
            one.add("a", i + 1, &named(i, g)).unwrap();
        }
        let (mut left, mut right) = (with_standings(), with_standings());
        for (i, g) in games.iter().enumerate() {
            if i < 2 { &mut left } else { &mut right }.add("a", i + 1, &named(i, g)).unwrap();
        }
        left.merge(right).unwrap();
        assert_eq!(one.totals().unwrap(), left.totals().unwrap());
        assert_eq!(one.standings, left.standings);
        assert_eq!(one.standings.as_ref().unwrap().tables()[0].games, 5);
        assert_eq!(one.duplicate_games().unwrap(), left.duplicate_games().unwrap());
        let ranked = one.openings_ranked();
        assert_eq!((ranked[0].tally.games, ranked[0].moves.as_str()), (2, "f5d6c3"));
        let dup = one.duplicate_games().unwrap();
        assert_eq!(dup.len(), 2, "{dup:?}");
        assert_eq!(dup[0].games, vec![("a".to_owned(), 1), ("a".to_owned(), 2)]);
        assert_eq!(dup[1].games, vec![("a".to_owned(), 3), ("a".to_owned(), 5)]);
        assert_eq!(one.results.black_wins, 2);
        assert_eq!(one.results.no_result, 3);
    }
}
