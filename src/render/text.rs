//! Diagrams as text: plain ASCII (`X` black, `O` white, `-` empty, `.` a legal move, `#` a hole
//! or a cell off the board, the last move in brackets; in a kifu, `.` a cell off the board, so
//! that the grid reads back),
//! or Unicode discs on a green board in ANSI colours for a terminal (`●` black, `○` white).

use super::diagram::{Cell, Diagram};
use crate::core::Color;
use crate::notation::{board, kifu};

/// ANSI styles of the coloured board.
const RESET: &str = "\x1b[0m";
const BOARD: &str = "\x1b[42m";
const ON_BOARD_BLACK: &str = "\x1b[42;30m";
const ON_BOARD_WHITE: &str = "\x1b[42;97m";
const LAST_BLACK: &str = "\x1b[41;30m";
const LAST_WHITE: &str = "\x1b[41;97m";
const HOLE: &str = "\x1b[100m";
const NUMBER_BLACK: &str = "\x1b[40;97m";
const NUMBER_WHITE: &str = "\x1b[107;30m";
const BEST: &str = "\x1b[42;1;93m";

impl Diagram {
    /// The diagram as text: file letters over the columns, rank names on the left, the players
    /// and title lines first and the notes after. `color`: Unicode discs in ANSI colours; else plain ASCII.
    #[must_use]
    pub fn to_text(&self, color: bool) -> String {
        let n = usize::from(self.size);
        let width = self.cells.iter().map(|c| plain(c, self.kifu).len()).max().unwrap_or(1);
        let gutter = self.ranks.iter().map(String::len).max().unwrap_or(1);
        let mut out = String::new();
        if let Some([black, white]) = &self.players {
            out.push_str(&board::write_players(black, white));
            out.push('\n');
        }
        for line in &self.title {
            out.push_str(line);
            out.push('\n');
        }
        let mut header = " ".repeat(gutter);
        for file in 0..n {
            header.push_str(&format!(" {:>width$}", (b'a' + file as u8) as char));
        }
        out.push_str(header.trim_end());
        out.push('\n');
        for (row, rank) in self.ranks.iter().enumerate() {
            let cells = &self.cells[row * n..(row + 1) * n];
            let mut line = format!("{rank:>gutter$}");
            if color {
                for cell in cells {
                    let (style, text) = styled(cell);
                    let pad = " ".repeat(width.saturating_sub(text.chars().count()));
                    match cell {
                        Cell::Off => line.push_str(&format!(" {pad}{text}")),
                        _ => line.push_str(&format!("{BOARD} {style}{pad}{text}{RESET}")),
                    }
                }
                if cells.last().is_some_and(|c| *c != Cell::Off) {
                    line.push_str(&format!("{BOARD} {RESET}"));
                }
            } else {
                // Each cell is a space and its text right-aligned; the last move's text gets a
                // bracket on each side, in the padding when there is room, else in place of the
                // spaces next to it.
                let mut row = String::new();
                for cell in cells {
                    let text = plain(cell, self.kifu);
                    let pad = " ".repeat(width - text.len());
                    if matches!(cell, Cell::Disc { last: true, .. }) {
                        if width > text.len() {
                            row.push_str(&format!("{}[{text}]", &pad[1..]));
                        } else {
                            row.push_str(&format!("{pad}[{text}]"));
                        }
                    } else if row.ends_with(']') && width == 1 {
                        row.push_str(&format!("{pad}{text}"));
                    } else {
                        row.push_str(&format!(" {pad}{text}"));
                    }
                }
                line.push_str(&row);
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        for line in &self.notes {
            out.push_str(line);
            out.push('\n');
        }
        out
    }
}

/// A cell in plain ASCII; in a kifu (`in_kifu`), a cell off the board is a kifu grid's blank (a space
/// would not read back).
fn plain(cell: &Cell, in_kifu: bool) -> String {
    match cell {
        Cell::Off if in_kifu => kifu::BLANK.into(),
        Cell::Off => kifu::HOLE.into(),
        Cell::Hole => kifu::HOLE.into(),
        Cell::Empty => "-".into(),
        Cell::Disc { color: Color::Black, .. } => "X".into(),
        Cell::Disc { color: Color::White, .. } => "O".into(),
        Cell::Legal(None) => ".".into(),
        Cell::Legal(Some(score)) => score.label(),
        Cell::Numbered { number, .. } => number.to_string(),
    }
}

/// A cell on the coloured board: its style and its text.
fn styled(cell: &Cell) -> (&'static str, String) {
    match cell {
        Cell::Off => ("", " ".into()),
        Cell::Hole => (HOLE, " ".into()),
        Cell::Empty => (BOARD, " ".into()),
        Cell::Disc { color, last } => {
            let style = match (color, last) {
                (Color::Black, false) => ON_BOARD_BLACK,
                (Color::White, false) => ON_BOARD_WHITE,
                (Color::Black, true) => LAST_BLACK,
                (Color::White, true) => LAST_WHITE,
            };
            // (Two shapes, so that the colours are not the only difference.)
            (style, if *color == Color::Black { "●" } else { "○" }.into())
        }
        Cell::Legal(None) => (ON_BOARD_BLACK, "·".into()),
        Cell::Legal(Some(score)) => (if score.best { BEST } else { ON_BOARD_WHITE }, score.label()),
        Cell::Numbered { number, color: Color::Black } => (NUMBER_BLACK, number.to_string()),
        Cell::Numbered { number, color: Color::White } => (NUMBER_WHITE, number.to_string()),
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
    fn plain_text_is_ascii_with_the_last_move_in_brackets() {
        let pos = Position::start(Rules::othello().shared()).play(Move::Place(sq("f5"))).unwrap();
        let text = Diagram::position(&pos, None, Some((Move::Place(sq("f5")), Color::Black)), None).to_text(false);
        assert!(text.is_ascii());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "  a b c d e f g h");
        assert_eq!(lines[4], "4 - - - O X . - -");
        assert_eq!(lines[5], "5 - - - X X[X]- -");
        assert_eq!(lines[6], "6 - - - . - . - -");
    }

    #[test]
    fn cells_off_the_board_are_blanks_in_a_kifu_and_hashes_in_a_position() {
        let rules = "8stars,holes=e3".parse::<Rules>().unwrap().shared();
        let start = Position::start(rules.clone());
        let text = Diagram::kifu(&start, &[], 1, &start).to_text(false);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1], " 1 . . - - - - - - . .");
        assert_eq!(lines[3], " 3 - - - - # - - - - -");
        assert_eq!(lines.last(), Some(&"rules 8stars,holes=e3"));
        let position = Diagram::position(&start, None, None, None).to_text(false);
        assert!(position.lines().nth(1).is_some_and(|l| l.starts_with(" 1 # # - ")), "{position}");
    }

    #[test]
    fn coloured_text_has_unicode_discs_and_no_plain_letters() {
        let pos = Position::start(Rules::othello().shared());
        let text = Diagram::position(&pos, None, None, None).to_text(true);
        assert_eq!((text.matches('●').count(), text.matches('○').count()), (2, 2));
        assert_eq!(text.matches('·').count(), 4);
        assert!(text.contains("\x1b[42m"));
        let board: String = text.lines().skip(1).take(8).collect();
        assert!(!board.contains('X') && !board.contains('O'));
    }
}
