//! Board diagrams: what each square shows and the lines around the board, built from a position
//! (discs, last move, legal moves and their scores) or from a game (a kifu: move numbers on the
//! squares). [`text`](super::text) and [`svg`](super::svg) draw them.

use crate::core::{Color, Move, Position, Square};
use crate::engine::scores::MoveScore;

/// How the note listing the legal moves begins.
const LEGAL_MOVES: &str = "legal moves: ";
/// What the status note adds for a side to move that has no legal placement.
const MUST_PASS: &str = " and must pass";

/// A score shown on a legal move's square.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Score {
    /// The final disc margin for the side to move after this move.
    pub discs: i32,
    /// Exact (solved) rather than estimated.
    pub exact: bool,
    /// One of the best moves.
    pub best: bool,
}

impl Score {
    /// The label: `+4`, `-2`, `0`, with `~` before an estimate (`~+4`).
    #[must_use]
    pub fn label(&self) -> String {
        let number = if self.discs == 0 { "0".to_owned() } else { format!("{:+}", self.discs) };
        if self.exact { number } else { format!("~{number}") }
    }
}

/// What one square of a diagram shows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cell {
    /// Not part of the board's shape (the cut corners of the 8-stars board).
    Off,
    /// A hole: part of the board, but nobody may play there.
    Hole,
    /// An empty square.
    Empty,
    /// A disc; `last` marks the disc of the last move.
    Disc {
        /// Its colour.
        color: Color,
        /// Whether the last move put it there.
        last: bool,
    },
    /// An empty square where the side to move may play, with its score when annotated.
    Legal(Option<Score>),
    /// A move of a kifu: its number, on a disc of the colour that played it.
    Numbered {
        /// The move number (discs placed since the start of the game, this one included).
        number: u32,
        /// Who played it.
        color: Color,
    },
}

/// A board diagram: the squares row by row from the top-left, the rank names, and text lines
/// over and under the board.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Diagram {
    /// Squares per side.
    pub size: u8,
    /// The rank name of each row, from the top (rank numbering follows the rules).
    pub ranks: Vec<String>,
    /// `size * size` cells, row by row from the top-left.
    pub cells: Vec<Cell>,
    /// The players, black then white (`?` for one the record does not name).
    pub players: Option<[String; 2]>,
    /// Lines over the board, under the players (event, date, round).
    pub title: Vec<String>,
    /// Lines under the board (side to move, counts, passes, scores).
    pub notes: Vec<String>,
    /// A kifu: plain text draws it as a grid `kifu convert --from kifu` reads.
    pub kifu: bool,
}

impl Diagram {
    /// The board of `position` with no marks: holes, cut cells, empty squares and discs.
    fn board(position: &Position) -> Diagram {
        let rules = position.rules();
        let n = rules.size();
        let mut cells = Vec::with_capacity(usize::from(n) * usize::from(n));
        for row in 0..n {
            for file in 0..n {
                let sq = Square::new(file, row);
                cells.push(match position.disc(sq) {
                    Some(color) => Cell::Disc { color, last: false },
                    None if rules.playable().contains(sq) => Cell::Empty,
                    None if rules.holes().contains(&sq) => Cell::Hole,
                    None => Cell::Off,
                });
            }
        }
        let ranks = (0..n).map(|row| rules.square_name(Square::new(0, row))[1..].to_owned()).collect();
        Diagram { size: n, ranks, cells, players: None, title: Vec::new(), notes: Vec::new(), kifu: false }
    }

    /// Where `sq` is in [`Diagram::cells`]; `None` off the board.
    fn index(&self, sq: Square) -> Option<usize> {
        let on = sq.row() < self.size && sq.file() < self.size;
        on.then(|| usize::from(sq.row()) * usize::from(self.size) + usize::from(sq.file()))
    }

    /// The cell on `sq` to change; `None` off the board (a move there marks nothing).
    fn cell_mut(&mut self, sq: Square) -> Option<&mut Cell> {
        self.index(sq).map(|i| &mut self.cells[i])
    }

    /// The cell on `sq`; `None` for a square off the board.
    #[must_use]
    pub fn cell(&self, sq: Square) -> Option<Cell> {
        self.index(sq).map(|i| self.cells[i])
    }

    /// The position without its hints, for a puzzle: the legal moves neither marked on their
    /// squares nor listed, a side to move that must pass not told so, and no ply count (the
    /// game's length); the last move stays.
    pub fn hide_legal_moves(&mut self) {
        for cell in &mut self.cells {
            if matches!(cell, Cell::Legal(_)) {
                *cell = Cell::Empty;
            }
        }
        self.notes.retain(|note| !note.starts_with(LEGAL_MOVES));
        let told = format!(" to move{MUST_PASS};");
        for note in &mut self.notes {
            *note = note.replacen(&told, " to move;", 1);
        }
        // The game's length gives away how it goes on; the last move stays.
        self.notes.retain_mut(|note| match note.strip_prefix("ply ") {
            Some(rest) => match rest.split_once(", ") {
                Some((_, last)) => {
                    *note = last.to_owned();
                    true
                }
                None => false,
            },
            None => true,
        });
    }

    /// A position: its discs with the last move marked (`last`: the move and who played it),
    /// its legal moves marked, with their scores when given, and notes on the side to move, the
    /// disc counts, the ply (`ply`: the plies played and the game's plies), the last move and
    /// the moves.
    #[must_use]
    pub fn position(
        position: &Position,
        ply: Option<(usize, usize)>,
        last: Option<(Move, Color)>,
        scores: Option<&[MoveScore]>,
    ) -> Diagram {
        let rules = position.rules().clone();
        let name = |mv: Move| rules.move_name(mv);
        let mut diagram = Diagram::board(position);
        if let Some((Move::Place(sq), _)) = last
            && let Some(Cell::Disc { last, .. }) = diagram.cell_mut(sq)
        {
            *last = true;
        }
        let side = position.side_to_move();
        let over = position.is_game_over();
        if !over {
            for sq in position.legal_placements() {
                if let Some(cell) = diagram.cell_mut(sq) {
                    *cell = Cell::Legal(None);
                }
            }
        }
        let best = scores.and_then(|s| s.iter().map(|m| m.score).max());
        for m in scores.unwrap_or_default() {
            if let Move::Place(sq) = m.mv {
                let score = Score { discs: m.score, exact: m.exact, best: Some(m.score) == best };
                if let Some(cell) = diagram.cell_mut(sq) {
                    *cell = Cell::Legal(Some(score));
                }
            }
        }
        let (black, white) = (position.count(Color::Black), position.count(Color::White));
        let status = if over {
            let outcome = position.score();
            match outcome.winner {
                Some(w) => format!("game over: {w} wins by {}", outcome.margin),
                None => "game over: a draw".to_owned(),
            }
        } else if position.has_placement() {
            format!("{side} to move")
        } else {
            format!("{side} to move{MUST_PASS}")
        };
        diagram.notes.push(format!("{status}; black {black}, white {white}, {} empty", position.empties()));
        let last = last.map(|(mv, color)| match mv {
            Move::Place(sq) => format!("last move {} by {color}", rules.square_name(sq)),
            Move::Pass => format!("{color} passed"),
        });
        match (ply, last) {
            (Some((ply, total)), Some(last)) => diagram.notes.push(format!("ply {ply} of {total}, {last}")),
            (Some((ply, total)), None) => diagram.notes.push(format!("ply {ply} of {total}")),
            (None, Some(last)) => diagram.notes.push(last),
            (None, None) => {}
        }
        match scores {
            Some(scores) if !scores.is_empty() => {
                let kind = match scores.iter().filter(|s| !s.exact).map(|s| s.depth).max() {
                    None => "exact scores".to_owned(),
                    Some(depth) if scores.iter().all(|s| !s.exact) => {
                        format!("scores searched {depth} moves ahead (~)")
                    }
                    Some(depth) => format!("scores searched {depth} moves ahead (~) or exact"),
                };
                let list: Vec<String> = scores
                    .iter()
                    // `+0` as annotate and solve write it (a cell's label is `0`, for room).
                    .map(|m| format!("{} {}{:+}", name(m.mv), if m.exact { "" } else { "~" }, m.score))
                    .collect();
                diagram.notes.push(format!("{kind} for {side}: {}", list.join(", ")));
            }
            _ if !over && position.has_placement() => {
                let mut moves: Vec<String> =
                    position.legal_placements().into_iter().map(|sq| rules.square_name(sq)).collect();
                // Under the voluntary-pass rule a pass is one of the choices.
                if position.legal_moves().contains(&crate::core::Move::Pass) {
                    moves.push("pass".into());
                }
                diagram.notes.push(format!("{LEGAL_MOVES}{}", moves.join(" ")));
            }
            _ => {}
        }
        // Another variant's rules, so that the diagram reads back as this position.
        diagram.notes.extend(crate::notation::kifu::footer(None, variant_spec(position).as_deref()));
        diagram
    }

    /// A kifu: the discs of `start`, then each of `moves` (with the colour that played it) as
    /// its number on its square, numbers going on from `first_number`; passes are listed under
    /// the board, with the discs of `end` (the position after the moves) and the result, then
    /// the kifu grid's [`footer`](crate::notation::kifu::footer) (who moved first, the rules).
    #[must_use]
    pub fn kifu(start: &Position, moves: &[(Move, Color)], first_number: u32, end: &Position) -> Diagram {
        let mut diagram = Diagram::board(start);
        diagram.kifu = true;
        let mut number = first_number;
        let mut passes = Vec::new();
        for &(mv, color) in moves {
            match mv {
                Move::Place(sq) => {
                    if let Some(cell) = diagram.cell_mut(sq) {
                        *cell = Cell::Numbered { number, color };
                    }
                    number += 1;
                }
                Move::Pass => passes.push(crate::notation::kifu::pass_entry(&color.to_string(), number, first_number)),
            }
        }
        if first_number > 1 {
            let side = start.side_to_move();
            diagram.notes.push(format!("from move {first_number}, {side} to move; the discs before it are drawn"));
        }
        diagram.notes.extend(crate::notation::kifu::passes_line(&passes));
        let (black, white) = (end.count(Color::Black), end.count(Color::White));
        diagram.notes.push(match end.outcome() {
            Some(outcome) => match outcome.winner {
                Some(w) => format!("black {black}, white {white}: {w} wins by {}", outcome.margin),
                None => format!("black {black}, white {white}: a draw"),
            },
            None if number == 1 => format!("black {black}, white {white}; {} to move", end.side_to_move()),
            None => format!("black {black}, white {white} after move {}; {} to move", number - 1, end.side_to_move()),
        });
        // A kifu from a later move says who moves first in its `from move` line.
        let first = (first_number == 1).then(|| start.side_to_move());
        diagram.notes.extend(crate::notation::kifu::footer(first, variant_spec(start).as_deref()));
        diagram
    }
}

/// The rules spec of a position of another variant than standard Othello.
fn variant_spec(position: &Position) -> Option<String> {
    let variant = position.rules().variant();
    (*variant != crate::core::Variant::default()).then(|| variant.spec())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rules;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn a_position_marks_the_last_move_and_the_legal_moves() {
        let start = Position::start(Rules::othello().shared());
        let pos = start.play(Move::Place(sq("f5"))).unwrap();
        let d = Diagram::position(&pos, Some((1, 1)), Some((Move::Place(sq("f5")), Color::Black)), None);
        assert_eq!(d.cell(sq("f5")), Some(Cell::Disc { color: Color::Black, last: true }));
        assert_eq!(d.cell(sq("e5")), Some(Cell::Disc { color: Color::Black, last: false }));
        for m in ["d6", "f4", "f6"] {
            assert_eq!(d.cell(sq(m)), Some(Cell::Legal(None)), "{m}");
        }
        assert_eq!(d.cells.iter().filter(|c| matches!(c, Cell::Legal(_))).count(), 3);
        assert_eq!(d.ranks, ["1", "2", "3", "4", "5", "6", "7", "8"]);
        assert_eq!(
            d.notes,
            ["white to move; black 4, white 1, 59 empty", "ply 1 of 1, last move f5 by black", "legal moves: f4 d6 f6"]
        );
    }

    #[test]
    fn scores_go_on_their_squares_and_the_best_is_marked() {
        let pos = Position::start(Rules::othello().shared());
        let scores = [
            MoveScore { mv: Move::Place(sq("d3")), score: 2, exact: false, depth: 10 },
            MoveScore { mv: Move::Place(sq("c4")), score: 2, exact: false, depth: 10 },
            MoveScore { mv: Move::Place(sq("f5")), score: -4, exact: true, depth: 60 },
        ];
        let d = Diagram::position(&pos, None, None, Some(&scores));
        assert_eq!(d.cell(sq("d3")), Some(Cell::Legal(Some(Score { discs: 2, exact: false, best: true }))));
        assert_eq!(d.cell(sq("c4")), Some(Cell::Legal(Some(Score { discs: 2, exact: false, best: true }))));
        assert_eq!(d.cell(sq("f5")), Some(Cell::Legal(Some(Score { discs: -4, exact: true, best: false }))));
        assert_eq!(d.cell(sq("e6")), Some(Cell::Legal(None)), "a legal move without a score is still marked");
        assert_eq!(Score { discs: 0, exact: false, best: false }.label(), "~0");
        assert!(d.notes[1].ends_with("d3 ~+2, c4 ~+2, f5 -4"), "{:?}", d.notes);
    }

    #[test]
    fn variants_name_ranks_by_their_rules_and_show_holes_and_cut_corners() {
        let rules = "8stars,rows=bottom,holes=e3".parse::<Rules>().unwrap().shared();
        let d = Diagram::position(&Position::start(rules.clone()), None, None, None);
        assert_eq!(d.size, 10);
        assert_eq!(d.ranks.first().map(String::as_str), Some("10"));
        assert_eq!(d.ranks.last().map(String::as_str), Some("1"));
        assert_eq!(d.cell(Square::new(0, 0)), Some(Cell::Off));
        assert_eq!(d.cell(Square::new(1, 1)), Some(Cell::Empty));
        assert_eq!(d.cell(rules.parse_square("e3").unwrap()), Some(Cell::Hole));
        assert_eq!(d.cells.iter().filter(|c| **c == Cell::Off).count(), 12);
    }

    #[test]
    fn a_square_off_the_board_marks_nothing() {
        let pos = Position::start(Rules::othello().shared());
        let off = Square::new(15, 15);
        let d = Diagram::position(&pos, None, Some((Move::Place(off), Color::Black)), None);
        assert_eq!(d.cell(off), None);
        assert!(d.cells.iter().all(|c| !matches!(c, Cell::Disc { last: true, .. })));
        let k = Diagram::kifu(&pos, &[(Move::Place(off), Color::White)], 1, &pos);
        assert!(k.cells.iter().all(|c| !matches!(c, Cell::Numbered { .. })));
    }

    #[test]
    fn a_kifu_numbers_the_moves_and_lists_the_passes() {
        let rules = Rules::othello().shared();
        let start = Position::start(rules);
        let moves =
            [(Move::Place(sq("f5")), Color::Black), (Move::Pass, Color::White), (Move::Place(sq("f4")), Color::Black)];
        // Not a legal game (white can answer f5), but the diagram only draws what it is given.
        let d = Diagram::kifu(&start, &moves, 1, &start);
        assert_eq!(d.cell(sq("f5")), Some(Cell::Numbered { number: 1, color: Color::Black }));
        assert_eq!(d.cell(sq("f4")), Some(Cell::Numbered { number: 2, color: Color::Black }));
        assert_eq!(d.cell(sq("d4")), Some(Cell::Disc { color: Color::White, last: false }));
        assert_eq!(d.notes[0], "pass: white after 1");
    }
}
