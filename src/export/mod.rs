//! Rows for data work: one per game, one per move, one per position, as serde structs whose
//! field order is the documented column order (docs/output.md).

use serde::Serialize;

use crate::core::{Color, Game, Move, Passes, Position, Variant};
use crate::notation::Record;
use crate::notation::check::{Check, stated_result};
use crate::stats::{OpeningNames, Trail};

/// One game.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct GameRow {
    /// The file name as given.
    pub source: String,
    /// The 1-based record index in that file.
    pub game: usize,
    /// The event or tournament.
    pub event: String,
    /// The date (or year) as the record gives it.
    pub date: String,
    /// Black's name.
    pub black_player: String,
    /// White's name.
    pub white_player: String,
    /// The rules as a kifu spec.
    pub rules: String,
    /// The moves as a compact transcript (passes left out, but for those chosen under the
    /// voluntary-pass rule, as `PA`).
    pub moves: String,
    /// Moves and passes played (passes a record leaves out too): the game's rows in the moves
    /// table; none for a record that could not be read.
    pub plies: Option<usize>,
    /// Passes played, written or inferred (none for a record that could not be read).
    pub passes: Option<u32>,
    /// Black's discs as replayed (none for a record that could not be read).
    pub black: Option<u32>,
    /// White's discs as replayed (none for a record that could not be read).
    pub white: Option<u32>,
    /// `black`, `white`, `draw`, or empty when the game is not over.
    pub winner: &'static str,
    /// Black's margin under the rules' scoring when the game is over.
    pub margin: Option<i32>,
    /// The most discs one move flipped (none for a record that could not be read).
    pub max_flipped: Option<u32>,
    /// Corners black took (none for a record that could not be read).
    pub corners_black: Option<u32>,
    /// Corners white took (none for a record that could not be read).
    pub corners_white: Option<u32>,
    /// The 1-based ply of the first corner move (passes count), if any.
    pub first_corner_ply: Option<usize>,
    /// The result the record states.
    pub stored_result: String,
    /// The winner that result names (`black`, `white`, `draw`; a resignation or a loss on time
    /// names one too), empty when it names none.
    pub stated_winner: &'static str,
    /// WTHOR's theoretical score (black's margin), when the record gives one as a number.
    pub theoretical: Option<i32>,
    /// The validation status.
    pub status: &'static str,
    /// The name of the deepest named opening line the game follows (standard Othello from the
    /// standard start), up to the start's symmetries.
    pub opening: String,
    /// A hash of the moves up to the symmetries of the start position (equal for games that are
    /// the same game turned or mirrored), 16 hex digits.
    pub canonical_hash: String,
    /// Where the game was played (PGN's `Site`, GGF's `PC`).
    pub place: String,
    /// The round.
    pub round: String,
    /// Black's rating, when the record gives one as a number.
    #[serde(serialize_with = "whole_as_integer")]
    pub black_rating: Option<f64>,
    /// White's rating, when the record gives one as a number.
    #[serde(serialize_with = "whole_as_integer")]
    pub white_rating: Option<f64>,
    /// The time control as written (GGF's `TI`, PGN's `TimeControl`).
    pub time_control: String,
    /// The komi, when the record gives one as a number.
    #[serde(serialize_with = "whole_as_integer")]
    pub komi: Option<f64>,
    /// The year of the date, as `kifu stats` counts years (to join its `--by year` table).
    pub year: Option<u16>,
}

/// A number written as an integer when it is whole (a rating `1500`, not `1500.0`, which
/// `int()` in Python refuses), else as it is (`1720.35`).
fn whole_as_integer<S: serde::Serializer>(value: &Option<f64>, serializer: S) -> Result<S::Ok, S::Error> {
    match *value {
        Some(v) if v.fract() == 0.0 && v.abs() < 9.0e15 => serializer.serialize_some(&(v as i64)),
        Some(v) => serializer.serialize_some(&v),
        None => serializer.serialize_none(),
    }
}

/// One move.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct MoveRow {
    /// The file name as given.
    pub source: String,
    /// The 1-based record index.
    pub game: usize,
    /// The 1-based ply (passes, written or inferred, count).
    pub ply: usize,
    /// The colour that moved.
    pub color: &'static str,
    /// The square, or `pass`.
    #[serde(rename = "move")]
    pub mv: String,
    /// Discs flipped.
    pub flipped: u32,
    /// Black's discs after the move.
    pub black: u32,
    /// White's discs after the move.
    pub white: u32,
    /// Black's legal placements before the move.
    pub mobility_black: u32,
    /// White's legal placements before the move.
    pub mobility_white: u32,
    /// Empty cells after the move.
    pub empties: u32,
    /// Whether the move takes a corner.
    pub is_corner: bool,
    /// The game's validation status, as `kifu validate` gives it.
    pub status: &'static str,
}

/// One position (before each move, and the last one).
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct PositionRow {
    /// The file name as given.
    pub source: String,
    /// The 1-based record index.
    pub game: usize,
    /// Moves played before this position.
    pub ply: usize,
    /// The board: cells from a1 rank by rank, `X` black, `O` white, `-` empty, `#` no cell.
    pub board: String,
    /// The side to move.
    pub side: &'static str,
    /// Empty cells.
    pub empties: u32,
    /// The move played from this position (a square, or `pass`); empty for the last position.
    #[serde(rename = "move")]
    pub mv: String,
    /// The game's final margin (under the rules' scoring) from the side to move's view, when the
    /// game is over.
    pub final_margin: Option<i32>,
    /// The game's validation status, as `kifu validate` gives it.
    pub status: &'static str,
    /// The position up to the board's symmetries, with its side to move, as 16 hex digits
    /// ([`crate::stats::canonical_position_hash`]).
    pub canonical_hash: String,
}

/// The per-game row of a checked record.
#[must_use]
pub fn game_row(source: &str, index: usize, record: &Record, game: &Game, check: &Check) -> GameRow {
    let tag = |name: &str| record.tag(name).unwrap_or_default().to_owned();
    let rules = game.rules();
    // Passes chosen under the voluntary-pass rule stay (`PA`): a replay cannot infer them.
    let voluntary = rules.variant().pass == crate::core::PassRule::Voluntary;
    let moves: String = game.moves()[..check.plies.min(game.moves().len())]
        .iter()
        .filter_map(|m| match m.square() {
            Some(sq) => Some(rules.square_name(sq)),
            None => voluntary.then(|| "PA".to_owned()),
        })
        .collect();
    let (mut max_flipped, mut corners, mut first_corner_ply, mut ply) = (0, [0u32; 2], None, 0usize);
    let corner_cells = rules.corners();
    let trail = Trail::of(game);
    let _ = game.replay_with(Passes::Implicit, |before, mv, flipped| {
        ply += 1;
        max_flipped = max_flipped.max(flipped);
        if mv.square().is_some_and(|sq| corner_cells.contains(sq)) {
            corners[before.side_to_move().index()] += 1;
            first_corner_ply.get_or_insert(ply);
        }
    });
    GameRow {
        source: source.to_owned(),
        game: index,
        event: record.name_or_number("event").unwrap_or_default(),
        // ISO dates, whatever the record wrote (`2003.12.21`, GGS's seconds since 1970).
        date: crate::notation::date::Date::iso_or_as_written(&tag("date")),
        year: crate::stats::year(&tag("date")),
        black_player: record.name_or_number("black").unwrap_or_default(),
        white_player: record.name_or_number("white").unwrap_or_default(),
        rules: rules.variant().spec(),
        moves,
        // Moves and passes played, those a transcript leaves out too: a row each in the moves
        // table, whatever the format wrote.
        plies: Some(ply),
        passes: Some(check.passes),
        black: Some(check.black),
        white: Some(check.white),
        winner: check.winner(),
        margin: check.margin(),
        max_flipped: Some(max_flipped),
        corners_black: Some(corners[0]),
        corners_white: Some(corners[1]),
        first_corner_ply,
        // As validate shows it: PGN's disc counts as written, else the result, else the winner
        // stated alone (`1-0`).
        stored_result: check.stored.clone().unwrap_or_default(),
        stated_winner: check
            .stored
            .as_deref()
            .and_then(|text| stated_result(text, (check.black + check.white + check.empties) as i32))
            .map_or("", |stated| match stated.winner {
                Some(Color::Black) => "black",
                Some(Color::White) => "white",
                None => "draw",
            }),
        theoretical: tag("theoretical").trim().trim_start_matches('+').parse().ok(),
        status: check.status.name(),
        opening: opening_name(game, &trail),
        canonical_hash: format!("{:016x}", trail.last()),
        place: tag("place"),
        round: tag("round"),
        black_rating: number(&tag("black_rating")),
        white_rating: number(&tag("white_rating")),
        time_control: tag("time"),
        komi: crate::notation::check::komi_of(record).flatten(),
    }
}

/// A tag's value as a number (a rating, `2100.7`), when it is one.
fn number(text: &str) -> Option<f64> {
    text.trim().parse::<f64>().ok().filter(|v| v.is_finite())
}

/// The row of a record that could not be read: its place and `parse_error`, nothing else.
#[must_use]
pub fn unreadable_row(source: &str, index: usize) -> GameRow {
    GameRow {
        source: source.to_owned(),
        game: index,
        event: String::new(),
        date: String::new(),
        year: None,
        black_player: String::new(),
        white_player: String::new(),
        rules: String::new(),
        moves: String::new(),
        plies: None,
        passes: None,
        black: None,
        white: None,
        winner: "",
        margin: None,
        max_flipped: None,
        corners_black: None,
        corners_white: None,
        first_corner_ply: None,
        stored_result: String::new(),
        stated_winner: "",
        theoretical: None,
        status: "parse_error",
        opening: String::new(),
        canonical_hash: String::new(),
        place: String::new(),
        round: String::new(),
        black_rating: None,
        white_rating: None,
        time_control: String::new(),
        komi: None,
    }
}

/// The opening name of a standard game from the standard start (empty otherwise or unnamed).
fn opening_name(game: &Game, trail: &Trail) -> String {
    let rules = game.rules();
    if rules.variant().with_rows_from_top() != Variant::default() || *game.start() != Position::start(rules.clone()) {
        return String::new();
    }
    OpeningNames::builtin().name(trail).unwrap_or_default().to_owned()
}

/// The canonical hash of a game: its [`Trail`]'s last, up to its first illegal move (the same
/// for games one another turned or mirrored at any move, and with or without their passes
/// written).
#[must_use]
pub fn canonical_hash(game: &Game) -> u64 {
    Trail::of(game).last()
}

/// The per-move rows of a game, up to its first illegal move; `status` is the game's.
#[must_use]
pub fn move_rows(source: &str, index: usize, game: &Game, status: &'static str) -> Vec<MoveRow> {
    let mut rows = Vec::with_capacity(game.moves().len() + 2);
    let rules = game.rules().clone();
    let corner_cells = rules.corners();
    let _ = game.replay_with(Passes::Implicit, |before, mv, flipped| {
        let mover = before.side_to_move();
        let mut after = before.clone();
        let _ = after.play_mut(mv);
        rows.push(MoveRow {
            source: source.to_owned(),
            game: index,
            ply: rows.len() + 1,
            color: mover.name(),
            mv: rules.move_name(mv),
            flipped,
            black: after.count(Color::Black),
            white: after.count(Color::White),
            mobility_black: before.mobility(Color::Black),
            mobility_white: before.mobility(Color::White),
            empties: after.empties(),
            is_corner: mv.square().is_some_and(|sq| corner_cells.contains(sq)),
            status,
        });
    });
    rows
}

/// The per-position rows of a game (before each move and the last position), up to its first
/// illegal move, each with the move played from it and the final margin from its side to move
/// when the game is over; `status` is the game's.
#[must_use]
pub fn position_rows(source: &str, index: usize, game: &Game, status: &'static str) -> Vec<PositionRow> {
    let mut positions: Vec<(Position, Option<Move>)> = Vec::with_capacity(game.moves().len() + 2);
    let end = match game.replay_with(Passes::Implicit, |before, mv, _| positions.push((before.clone(), Some(mv)))) {
        Ok(replay) => replay.position,
        Err(e) => *e.position,
    };
    let final_black = end.outcome().map(|o| o.score(Color::Black));
    positions.push((end, None));
    let rules = game.rules();
    positions
        .iter()
        .enumerate()
        .map(|(ply, (pos, mv))| {
            let side = pos.side_to_move();
            PositionRow {
                source: source.to_owned(),
                game: index,
                ply,
                board: pos.board_string(),
                side: side.name(),
                empties: pos.empties(),
                mv: mv.map(|m| rules.move_name(m)).unwrap_or_default(),
                final_margin: final_black.map(|m| if side == Color::Black { m } else { -m }),
                status,
                canonical_hash: format!("{:016x}", crate::stats::canonical_position_hash(pos)),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rules;
    use crate::notation::{check, format::Format, transcript};

    fn game(text: &str) -> (Record, Game, Check) {
        let record = transcript::parse(text).unwrap();
        let rules = Rules::othello().shared();
        let game = record.game(rules.clone()).unwrap();
        let c = check::check(&record, &rules, Format::Transcript);
        (record, game, c)
    }

    const GAME: &str = "f5f6e6f4e3c5g5g4g3d6e7f3e2d7c4d3f7c6c8f2b5b6c7d1a6b4a3h3b3a5c3a4d2e1c2h6g6e8f8g8h5h4c1h7d8b8b7b1b2a1a2a8a7g7h8h2g2h1g1f1";

    #[test]
    fn game_rows_carry_the_counts() {
        let (record, g, c) = game(GAME);
        let row = game_row("x", 1, &record, &g, &c);
        assert_eq!((row.black, row.white, row.winner, row.margin), (Some(41), Some(23), "black", Some(18)));
        assert_eq!(row.moves, GAME);
        assert_eq!(row.passes, Some(1));
        assert_eq!(
            (row.corners_black, row.corners_white, row.first_corner_ply),
            (Some(2), Some(2), Some(50)),
            "a1 at move 50"
        );
        assert!(row.max_flipped >= Some(1));
        // The table writes the Bat `F5f6E6d6C5e3E7`: after f5f6e6 the board is symmetric, and
        // f4 e3 c5 g5 is d6 c5 e3 e7 mirrored.
        assert_eq!(row.opening, "Bat, Cow Bat, Cambridge");
    }

    #[test]
    fn symmetric_games_share_a_hash() {
        // f5d6c3 under the four symmetries of the start: itself, its two diagonal mirrors, a half turn.
        let hashes: Vec<String> = ["f5d6c3", "e6f4c3", "d3c5f6", "c4e3f6"]
            .iter()
            .map(|t| {
                let (r, g, c) = game(t);
                game_row("x", 1, &r, &g, &c).canonical_hash
            })
            .collect();
        assert!(hashes.iter().all(|h| *h == hashes[0]), "{hashes:?}");
        let (r, g, c) = game("f5f6e6");
        assert_ne!(game_row("x", 1, &r, &g, &c).canonical_hash, hashes[0]);
    }

    #[test]
    fn move_and_position_rows_follow_the_game() {
        let (_, g, _) = game(GAME);
        let moves = move_rows("x", 1, &g, "ok");
        assert_eq!(moves.len(), 61, "60 placements and an inferred pass");
        assert_eq!((moves[0].mv.as_str(), moves[0].flipped, moves[0].mobility_black), ("f5", 1, 4));
        assert_eq!((moves[0].black, moves[0].white, moves[0].empties), (4, 1, 59));
        assert!(moves.iter().any(|m| m.mv == "pass"));
        assert_eq!(moves.iter().filter(|m| m.is_corner).count(), 4);
        let last = moves.last().unwrap();
        assert_eq!((last.black, last.white), (41, 23));
        let positions = position_rows("x", 1, &g, "ok");
        assert_eq!(positions.len(), 62);
        assert_eq!((positions[0].mv.as_str(), positions[0].empties, positions[61].mv.as_str()), ("f5", 60, ""));
        assert!(positions.iter().any(|p| p.mv == "pass"));
        assert_eq!(positions[0].final_margin, Some(18));
        assert_eq!(positions[1].final_margin, Some(-18), "white to move");
        assert_eq!(positions[0].board, Position::start(Rules::othello().shared()).board_string());
    }
}
