//! Diagrams as a listing in words, for a screen reader or a braille display: each colour's
//! squares in reading order (the last move named), the empty squares, the holes and cut corners,
//! and for a kifu the moves in their order, then the diagram's notes; no grid to walk cell by
//! cell.

use super::diagram::{Cell, Diagram};
use crate::core::Color;

impl Diagram {
    /// The diagram as lines of words: the players and title lines, then `black 4: d5, e4, e5,
    /// f5 (last move)`, `white 1: d4` and `empty 59: a1, ...` (squares row by row from the top,
    /// as drawn), the holes and cut corners, for a kifu `moves: 1 f5 black, 2 d6 white, ...`,
    /// then the notes (the legal moves and their scores among them).
    #[must_use]
    pub fn to_listing(&self) -> String {
        let n = usize::from(self.size);
        let name = |i: usize| format!("{}{}", (b'a' + (i % n) as u8) as char, self.ranks[i / n]);
        let mut out = String::new();
        if let Some([black, white]) = &self.players {
            out.push_str(&format!("black: {black}; white: {white}\n"));
        }
        for line in &self.title {
            out.push_str(line);
            out.push('\n');
        }
        let mut numbered: Vec<(u32, usize, Color)> = Vec::new();
        let mut holes = Vec::new();
        let mut empty = Vec::new();
        let mut off = Vec::new();
        let mut discs: [Vec<String>; 2] = [Vec::new(), Vec::new()];
        for (i, cell) in self.cells.iter().enumerate() {
            match *cell {
                Cell::Disc { color, last } => {
                    let side = usize::from(color == Color::White);
                    discs[side].push(if last { format!("{} (last move)", name(i)) } else { name(i) });
                }
                Cell::Hole => holes.push(name(i)),
                Cell::Numbered { number, color } => numbered.push((number, i, color)),
                Cell::Empty | Cell::Legal(_) => empty.push(name(i)),
                Cell::Off => off.push(name(i)),
            }
        }
        let start = if self.kifu { " at the start" } else { "" };
        for (color, squares) in [Color::Black, Color::White].into_iter().zip(&discs) {
            let list = if squares.is_empty() { "none".to_owned() } else { squares.join(", ") };
            out.push_str(&format!("{color}{start} {}: {list}\n", squares.len()));
        }
        // A position's empty squares are the ones left to play; a kifu's, those its moves never
        // filled (a game that stopped before its end).
        if !self.kifu {
            let list = if empty.is_empty() { "none".to_owned() } else { empty.join(", ") };
            out.push_str(&format!("empty {}: {list}\n", empty.len()));
        } else if !empty.is_empty() {
            out.push_str(&format!("empty at the end {}: {}\n", empty.len(), empty.join(", ")));
        }
        // The cut corners of a board's shape (8-stars).
        if !off.is_empty() {
            out.push_str(&format!("not on the board: {}\n", off.join(", ")));
        }
        if !holes.is_empty() {
            out.push_str(&format!("holes: {}\n", holes.join(", ")));
        }
        // (The legal moves and their scores are in the notes, with what kind the scores are.)
        if !numbered.is_empty() {
            numbered.sort_unstable();
            let moves: Vec<String> =
                numbered.iter().map(|&(number, i, color)| format!("{number} {} {color}", name(i))).collect();
            out.push_str(&format!("moves: {}\n", moves.join(", ")));
        }
        for line in &self.notes {
            out.push_str(line);
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::core::{Color, Move, Position, Rules, Square};
    use crate::render::diagram::Diagram;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn a_position_lists_each_colours_squares_and_names_the_last_move() {
        let pos = Position::start(Rules::othello().shared()).play(Move::Place(sq("f5"))).unwrap();
        let text =
            Diagram::position(&pos, Some((1, 1)), Some((Move::Place(sq("f5")), Color::Black)), None).to_listing();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "black 4: e4, d5, e5, f5 (last move)");
        assert_eq!(lines[1], "white 1: d4");
        assert!(lines[2].starts_with("empty 59: a1, b1, "), "{text}");
        assert_eq!(lines[3], "white to move; black 4, white 1, 59 empty");
        assert!(lines.contains(&"legal moves: f4 d6 f6"), "{text}");
        assert!(text.is_ascii());
    }

    #[test]
    fn a_kifu_lists_its_moves_in_order_and_a_variant_its_holes() {
        let rules = "holes=e3".parse::<Rules>().unwrap().shared();
        let start = Position::start(rules);
        let f5 = start.clone().play(Move::Place(sq("f5"))).unwrap();
        let end = f5.play(Move::Place(sq("f6"))).unwrap();
        let moves = [(Move::Place(sq("f5")), Color::Black), (Move::Place(sq("f6")), Color::White)];
        let text = Diagram::kifu(&start, &moves, 1, &end).to_listing();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "black at the start 2: e4, d5");
        assert_eq!(lines[1], "white at the start 2: d4, e5");
        assert!(lines[2].starts_with("empty at the end 57: a1, b1, "), "{text}");
        assert_eq!(lines[3], "holes: e3");
        assert_eq!(lines[4], "moves: 1 f5 black, 2 f6 white");
        let stars = Position::start("8stars".parse::<Rules>().unwrap().shared());
        let text = Diagram::position(&stars, None, None, None).to_listing();
        assert!(text.contains("\nnot on the board: a1, b1, i1, j1, a2, j2, a9, j9, a10, b10, i10, j10\n"), "{text}");
    }
}
