//! Diagrams as standalone SVG: the board with coordinates, discs, move numbers, marks and
//! scores, the title over it and the notes under it. Plain SVG 1.1, no scripts, no external
//! fonts or images (text uses the generic `sans-serif` family).

use std::fmt::Write as _;

use super::chart::escape;
use super::diagram::{Cell, Diagram};
use crate::core::Color;

/// The colours of an SVG diagram.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Theme {
    /// A green board with dark lines, as at tournaments.
    #[default]
    Green,
    /// Black and white only, for printing.
    Print,
}

/// The colours a theme draws with.
struct Palette {
    board: &'static str,
    line: &'static str,
    hole: &'static str,
    black: &'static str,
    white: &'static str,
    disc_edge: &'static str,
    mark: &'static str,
    last_on_black: &'static str,
    last_on_white: &'static str,
    score: &'static str,
    best: &'static str,
}

impl Theme {
    fn palette(self) -> Palette {
        match self {
            Theme::Green => Palette {
                board: "#23854a",
                line: "#0c3319",
                hole: "#0c3319",
                black: "#111111",
                white: "#f7f7f2",
                disc_edge: "#0c3319",
                mark: "#0c3319",
                last_on_black: "#e4302b",
                last_on_white: "#e4302b",
                score: "#ffffff",
                best: "#ffe14d",
            },
            Theme::Print => Palette {
                board: "#ffffff",
                line: "#000000",
                hole: "#000000",
                black: "#000000",
                white: "#ffffff",
                disc_edge: "#000000",
                mark: "#000000",
                last_on_black: "#ffffff",
                last_on_white: "#000000",
                score: "#000000",
                best: "#000000",
            },
        }
    }
}

/// The fonts asked for: common sans-serif faces by name first (renderers without a default for
/// the generic family, such as resvg, find one of them), then the generic family.
const FONTS: &str = "Helvetica, Arial, 'DejaVu Sans', 'Liberation Sans', sans-serif";
/// Margin around everything.
const PAD: f64 = 14.0;
/// Room for the file letters and rank names.
const LABEL: f64 = 22.0;
/// The players' line, over the title lines.
const PLAYERS_LINE: f64 = 26.0;
const PLAYERS_FONT: f64 = 16.0;
const TITLE_LINE: f64 = 20.0;
const TITLE_FONT: f64 = 13.0;
const NOTE_LINE: f64 = 18.0;
const NOTE_FONT: f64 = 13.0;

impl Diagram {
    /// The diagram as an SVG document in `theme`'s colours. Squares are 50 px on 8x8 (the board
    /// 400 px), between 30 and 60 px on other sizes.
    #[must_use]
    pub fn to_svg(&self, theme: Theme) -> String {
        self.to_svg_with(theme, true)
    }

    /// [`to_svg`](Diagram::to_svg), with a white background behind everything when `background`,
    /// else none (a transparent picture for a video overlay).
    #[must_use]
    pub fn to_svg_with(&self, theme: Theme, background: bool) -> String {
        let p = theme.palette();
        let n = usize::from(self.size);
        let cell = (400.0 / n as f64).clamp(30.0, 60.0).round();
        let board = cell * n as f64;
        let left = PAD + LABEL;
        let width = left + board + LABEL + PAD;
        // Text is wrapped to the width, at about 0.55 em per character of a sans-serif font.
        let fits = |size: f64| ((width - 2.0 * PAD) / (size * 0.55)) as usize;
        let title: Vec<String> = self.title.iter().flat_map(|line| wrap(line, fits(TITLE_FONT))).collect();
        let notes: Vec<String> = self.notes.iter().flat_map(|n| wrap(n, fits(NOTE_FONT))).collect();
        let players_height = if self.players.is_some() { PLAYERS_LINE } else { 0.0 };
        let top = PAD + players_height + TITLE_LINE * title.len() as f64 + LABEL;
        let height = top + board + 10.0 + NOTE_LINE * notes.len() as f64 + PAD;
        let mut svg = String::new();
        let _ = write!(
            svg,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="{FONTS}">"#
        );
        let description = match &self.players {
            Some([black, white]) => crate::notation::board::write_players(black, white),
            None => "Othello board".to_owned(),
        };
        let _ = write!(svg, "<title>{}</title>", escape(&description));
        if background {
            let _ = write!(svg, r##"<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>"##);
        }
        if let Some(players) = &self.players {
            players_line(&mut svg, players, width, &p);
        }
        for (i, line) in title.iter().enumerate() {
            let _ = write!(
                svg,
                r##"<text x="{:.1}" y="{:.1}" font-size="{TITLE_FONT}" text-anchor="middle" fill="#000000">{}</text>"##,
                width / 2.0,
                PAD + players_height + TITLE_LINE * i as f64 + 13.0,
                escape(line)
            );
        }
        // Coordinates, smaller on big boards.
        let coordinate = (cell * 0.45).min(14.0);
        for i in 0..n {
            let centre = left + cell * (i as f64 + 0.5);
            let _ = write!(
                svg,
                r##"<text x="{centre:.1}" y="{:.1}" font-size="{coordinate:.1}" text-anchor="middle" fill="#333333">{}</text>"##,
                top - 7.0,
                (b'a' + i as u8) as char
            );
            let _ = write!(
                svg,
                r##"<text x="{:.1}" y="{:.1}" font-size="{coordinate:.1}" text-anchor="middle" fill="#333333">{}</text>"##,
                left - LABEL / 2.0,
                top + cell * (i as f64 + 0.5) + coordinate * 0.36,
                escape(&self.ranks[i])
            );
        }
        // Squares: one outlined rectangle per cell of the board's shape.
        svg.push_str(&format!(r#"<g stroke="{}" stroke-width="1.5">"#, p.line));
        for (i, c) in self.cells.iter().enumerate() {
            let (x, y) = (left + cell * (i % n) as f64, top + cell * (i / n) as f64);
            match c {
                Cell::Off => {}
                Cell::Hole => {
                    let _ = write!(
                        svg,
                        r#"<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{}"/><path d="M{} {}L{} {}M{} {}L{} {}" stroke="{}"/>"#,
                        p.hole,
                        x + cell * 0.2,
                        y + cell * 0.2,
                        x + cell * 0.8,
                        y + cell * 0.8,
                        x + cell * 0.8,
                        y + cell * 0.2,
                        x + cell * 0.2,
                        y + cell * 0.8,
                        if theme == Theme::Print { "#ffffff" } else { p.board },
                    );
                }
                _ => {
                    let _ = write!(svg, r#"<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{}"/>"#, p.board);
                }
            }
        }
        svg.push_str("</g>");
        // Star points where the lines cross two squares in from each corner, on square boards.
        if n >= 8 && [0, n - 1, n * (n - 1), n * n - 1].iter().all(|&i| self.cells[i] != Cell::Off) {
            for (a, b) in [(2, 2), (2, n - 2), (n - 2, 2), (n - 2, n - 2)] {
                let _ = write!(
                    svg,
                    r#"<circle cx="{}" cy="{}" r="{:.1}" fill="{}"/>"#,
                    left + cell * a as f64,
                    top + cell * b as f64,
                    cell * 0.07,
                    p.line
                );
            }
        }
        // What stands on the squares.
        for (i, c) in self.cells.iter().enumerate() {
            let (cx, cy) = (left + cell * ((i % n) as f64 + 0.5), top + cell * ((i / n) as f64 + 0.5));
            let disc = |svg: &mut String, color: Color| {
                let fill = if color == Color::Black { p.black } else { p.white };
                let _ = write!(
                    svg,
                    r#"<circle cx="{cx}" cy="{cy}" r="{:.1}" fill="{fill}" stroke="{}" stroke-width="1.2"/>"#,
                    cell * 0.41,
                    p.disc_edge
                );
            };
            match *c {
                Cell::Off | Cell::Hole | Cell::Empty => {}
                Cell::Disc { color, last } => {
                    disc(&mut svg, color);
                    if last {
                        let mark = if color == Color::Black { p.last_on_black } else { p.last_on_white };
                        let _ = write!(svg, r#"<circle cx="{cx}" cy="{cy}" r="{:.1}" fill="{mark}"/>"#, cell * 0.1);
                    }
                }
                Cell::Legal(None) => {
                    let _ = write!(
                        svg,
                        r#"<circle cx="{cx}" cy="{cy}" r="{:.1}" fill="none" stroke="{}" stroke-width="1.5"/>"#,
                        cell * 0.09,
                        p.mark
                    );
                }
                Cell::Legal(Some(score)) => {
                    let label = score.label();
                    let size = if label.chars().count() > 3 { cell * 0.3 } else { cell * 0.36 };
                    let (fill, weight) = if score.best { (p.best, "bold") } else { (p.score, "normal") };
                    let _ = write!(
                        svg,
                        r#"<text x="{cx}" y="{:.1}" font-size="{size:.1}" font-weight="{weight}" text-anchor="middle" fill="{fill}">{}</text>"#,
                        cy + size * 0.36,
                        escape(&label)
                    );
                }
                Cell::Numbered { number, color } => {
                    disc(&mut svg, color);
                    let text = number.to_string();
                    let size = if text.len() > 2 { cell * 0.32 } else { cell * 0.42 };
                    let fill = if color == Color::Black { p.white } else { p.black };
                    let _ = write!(
                        svg,
                        r#"<text x="{cx}" y="{:.1}" font-size="{size:.1}" text-anchor="middle" fill="{fill}">{text}</text>"#,
                        cy + size * 0.36
                    );
                }
            }
        }
        for (i, line) in notes.iter().enumerate() {
            let _ = write!(
                svg,
                r##"<text x="{PAD}" y="{:.1}" font-size="{NOTE_FONT}" fill="#000000">{}</text>"##,
                top + board + 10.0 + NOTE_LINE * (i as f64 + 0.75),
                escape(line)
            );
        }
        svg.push_str("</svg>\n");
        svg
    }
}

/// The players' line: black's name, a black and a white disc in the middle, white's name;
/// the font shrinks for long names, and a name too long for its half even so is cut short
/// with `…` (not squeezed with `textLength`, which some renderers, librsvg among them, ignore).
fn players_line(svg: &mut String, [black, white]: &[String; 2], width: f64, p: &Palette) {
    let middle = width / 2.0;
    let y = PAD + 17.0;
    let room = middle - 20.0 - PAD;
    let longest = black.chars().count().max(white.chars().count()) as f64;
    let size = (room / (longest * 0.6)).clamp(10.0, PLAYERS_FONT).floor();
    // (A bold character is about 0.6 of the font size wide on average.)
    let fits = (room / (size * 0.6)).floor() as usize;
    let fit = |name: &str| -> String {
        if name.chars().count() <= fits {
            return name.to_owned();
        }
        let cut: String = name.chars().take(fits.saturating_sub(1)).collect();
        format!("{}…", cut.trim_end())
    };
    let _ = write!(
        svg,
        r##"<text x="{:.1}" y="{y}" font-size="{size}" font-weight="bold" text-anchor="end" fill="#000000">{}</text>"##,
        middle - 20.0,
        escape(&fit(black))
    );
    for (dx, fill) in [(-8.0, p.black), (8.0, p.white)] {
        let _ = write!(
            svg,
            r#"<circle cx="{:.1}" cy="{:.1}" r="6.5" fill="{fill}" stroke="{}" stroke-width="1.2"/>"#,
            middle + dx,
            y - 5.5,
            p.disc_edge
        );
    }
    let _ = write!(
        svg,
        r##"<text x="{:.1}" y="{y}" font-size="{size}" font-weight="bold" text-anchor="start" fill="#000000">{}</text>"##,
        middle + 20.0,
        escape(&fit(white))
    );
}

/// A line cut into lines of at most `width` characters: at a space after a `,` or `;` where it
/// can be (so `f1 +4` stays together), else at any space (a longer word stays whole); a label
/// (`legal moves:`) stays with what follows it.
fn wrap(line: &str, width: usize) -> Vec<String> {
    let mut pieces: Vec<String> = Vec::new();
    let mut piece = String::new();
    for word in line.split(' ') {
        if !piece.is_empty() {
            piece.push(' ');
        }
        piece.push_str(word);
        if word.ends_with([',', ';']) {
            pieces.push(std::mem::take(&mut piece));
        }
    }
    pieces.push(piece);
    let words = pieces
        .into_iter()
        .flat_map(|p| if p.chars().count() > width { p.split(' ').map(str::to_owned).collect() } else { vec![p] });
    let mut lines = Vec::new();
    let mut current = String::new();
    for word in words.filter(|w| !w.is_empty()) {
        if !current.is_empty() && current.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(&word);
    }
    lines.push(current);
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Move, Position, Rules};

    #[test]
    fn notes_wrap_at_spaces() {
        assert_eq!(wrap("a bb ccc dd", 6), ["a bb", "ccc dd"]);
        assert_eq!(wrap("abcdefgh", 3), ["abcdefgh"]);
        assert_eq!(wrap("legal moves: a1 b2 c3 d4", 16), ["legal moves: a1", "b2 c3 d4"]);
        assert_eq!(wrap("scores: f1 ~-19, e1 ~-21, b5 +2", 20), ["scores: f1 ~-19,", "e1 ~-21, b5 +2"]);
    }

    #[test]
    fn a_kifu_draws_a_disc_per_move_and_start_disc() {
        let start = Position::start(Rules::othello().shared());
        let f5 = Move::Place("f5".parse().unwrap());
        let end = start.clone().play(f5).unwrap();
        let svg = Diagram::kifu(&start, &[(f5, Color::Black)], 1, &end).to_svg(Theme::Print);
        assert_eq!(svg.matches(r#"r="20.5""#).count(), 5, "four start discs and one move");
        assert!(svg.contains(r##"fill="#ffffff">1</text>"##), "a white number on black's disc");
        assert!(!svg.contains("#23854a"), "print is black and white");
    }
}
