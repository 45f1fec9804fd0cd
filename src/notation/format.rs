//! The formats by name, how a file's format is recognised, and one entry point to parse or
//! write a record in any of them.

use std::fmt;
use std::str::FromStr;

use super::board::{self, Digits};
use super::{MoveSyntax, Record, SyntaxError};
use super::{ggf, json, kifu, oq, pgn, playok, sgf, transcript};
use crate::core::Color;

/// A record format.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Format {
    /// One transcript a line (`f5d6c3...`, numbered, signed, with passes).
    Transcript,
    /// Kifu grids: move numbers on a drawn board.
    Kifu,
    /// Board strings (one a line) or diagrams (blank-line separated).
    Board,
    /// OBF problem lines (`board side; A2:+38; ...`).
    Obf,
    /// GGF games (`(;GM[Othello]...;)`).
    Ggf,
    /// WTHOR `.wtb` databases.
    Wthor,
    /// SGF games (`GM[2]`).
    Sgf,
    /// PGN-like exports.
    Pgn,
    /// Othello Quest game JSON.
    Oq,
    /// PlayOK downloads.
    Playok,
    /// Logistello's logbook (`+d3-c3...: -04 10`).
    Logbook,
    /// kifu's own JSON, one record a line.
    Json,
}

impl Format {
    /// Every format, in the order `--help` lists them.
    pub const ALL: [Format; 12] = [
        Format::Transcript,
        Format::Kifu,
        Format::Board,
        Format::Obf,
        Format::Ggf,
        Format::Wthor,
        Format::Sgf,
        Format::Pgn,
        Format::Oq,
        Format::Playok,
        Format::Logbook,
        Format::Json,
    ];

    /// The name used by `--from` and `--to`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Format::Transcript => "transcript",
            Format::Kifu => "kifu",
            Format::Board => "board",
            Format::Obf => "obf",
            Format::Ggf => "ggf",
            Format::Wthor => "wthor",
            Format::Sgf => "sgf",
            Format::Pgn => "pgn",
            Format::Oq => "oq",
            Format::Playok => "playok",
            Format::Logbook => "logbook",
            Format::Json => "json",
        }
    }

    /// Whether records are binary (WTHOR) rather than text.
    #[must_use]
    pub fn is_binary(self) -> bool {
        self == Format::Wthor
    }

    /// Whether a written record spans several lines (records are then separated by a blank line).
    #[must_use]
    pub fn is_multiline(self) -> bool {
        matches!(self, Format::Kifu | Format::Pgn | Format::Playok)
    }

    /// Whether the format writes passes; the others leave them for replay to infer.
    #[must_use]
    pub fn writes_passes(self) -> bool {
        matches!(self, Format::Ggf | Format::Sgf | Format::Pgn | Format::Playok | Format::Oq | Format::Json)
    }

    /// Whether the format holds a position rather than a game (a game is written as its last
    /// position).
    #[must_use]
    pub fn is_position(self) -> bool {
        matches!(self, Format::Board | Format::Obf)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no format's (nor an alias's: `wtb`, `gam`, `txt`, `jsonl`); its message lists
/// the formats.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct UnknownFormat(String);

impl FromStr for Format {
    type Err = UnknownFormat;
    /// A format by its name or an alias, in any case.
    fn from_str(s: &str) -> Result<Format, UnknownFormat> {
        let lower = s.to_ascii_lowercase();
        let alias = match lower.as_str() {
            "wtb" => "wthor",
            "gam" => "logbook",
            "txt" => "transcript",
            "jsonl" => "json",
            other => other,
        };
        Format::ALL.into_iter().find(|f| f.name() == alias).ok_or_else(|| {
            let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
            UnknownFormat(format!("unknown format `{s}` (one of {})", names.join(", ")))
        })
    }
}

/// Options that change how text is read.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct ReadOptions {
    /// What the digits `0`, `1`, `2` mean on boards.
    pub digits: Digits,
}

/// Parses one text record of `format` (WTHOR records go through [`super::wthor`]).
pub fn parse(format: Format, text: &str, options: ReadOptions) -> Result<Record, SyntaxError> {
    match format {
        Format::Transcript | Format::Logbook => transcript::parse(text),
        Format::Kifu => kifu::parse(text),
        Format::Board | Format::Obf => board::parse(text, options.digits),
        Format::Ggf => ggf::parse(text),
        Format::Sgf => sgf::parse(text),
        Format::Pgn => pgn::parse(text),
        Format::Playok => playok::parse(text),
        Format::Oq => oq::parse(text),
        Format::Json => json::parse(text),
        Format::Wthor => Err(SyntaxError {
            span: super::Span::default(),
            message: "WTHOR records are binary; read them with notation::wthor".into(),
        }),
    }
}

/// Writes one record as text in `format`, without a trailing newline, as the record is: formats
/// that hold a position write the record's start board (`start`), transcripts every move token
/// (passes too). A replayed record ([`super::Record::resolve`]) is made ready for a format by
/// [`super::shape::for_format`] first: the position it reaches for a position format, passes
/// as the format writes them, the variant's tags. WTHOR is binary and written by
/// [`super::wthor::write_game`].
#[must_use]
pub fn write(format: Format, record: &Record) -> String {
    match format {
        Format::Transcript => {
            // The moves, passes only where shaping kept them (voluntary ones, `PA`), and a result
            // where shaping kept one (a game given up before its end: `f5d6c3: B+R`).
            let moves = record.moves.iter().map(|t| super::MoveToken::new(t.mv)).collect();
            let tags = record.tag("result").map(|r| vec![("result".to_owned(), r.to_owned())]).unwrap_or_default();
            transcript::write(&Record { moves, tags, ..Record::default() }, transcript::Style::Compact)
        }
        Format::Logbook => write_logbook(record),
        Format::Kifu => kifu::write(record).trim_end().to_owned(),
        Format::Board => record.start.as_ref().map(board::write_string).unwrap_or_default(),
        Format::Obf => board::write_obf(record),
        Format::Ggf => ggf::write(record),
        Format::Sgf => sgf::write(record),
        Format::Pgn => pgn::write(record).trim_end().to_owned(),
        Format::Playok => playok::write(record).trim_end().to_owned(),
        Format::Oq => oq::write(record),
        Format::Json => json::write(record),
        Format::Wthor => String::new(),
    }
}

/// `+d3-c3+c4...: -04`: placements signed by colour, the plain score with two digits, and the
/// logbook's extra field when the record has one.
fn write_logbook(record: &Record) -> String {
    let mut out = String::new();
    for t in &record.moves {
        if let MoveSyntax::Square { .. } = t.mv {
            out.push(if t.color == Some(Color::White) { '-' } else { '+' });
            out.push_str(&t.mv.to_string());
        }
    }
    if let Some(margin) = record.tag("result").and_then(|r| r.trim_start_matches('+').parse::<f64>().ok()) {
        out.push_str(&format!(": {:+03}", margin.round() as i32));
        if let Some(extra) = record.tag("extra") {
            out.push(' ');
            out.push_str(extra);
        }
    }
    out
}

/// Whether 16 bytes can be a WTHOR database header: a creation date (century, year, month,
/// day), a board-size byte of 0, 8 or 10 and a game-type byte of 0 or 1. Text with stray NUL
/// bytes is not taken for WTHOR.
fn looks_like_wthor_header(h: &[u8]) -> bool {
    h[0] <= 99 && h[1] <= 99 && h[2] <= 12 && h[3] <= 31 && matches!(h[12], 0 | 8 | 10) && h[13] <= 1
}

/// The format a file's name says, by its ending (before a `.gz`): `.wtb`, `.ggf`, `.sgf`,
/// `.pgn`, `.obf`, `.gam`, `.jsonl`, `.kifu`; `None` for other names.
#[must_use]
pub fn by_extension(name: &str) -> Option<Format> {
    let lower = name.to_ascii_lowercase();
    let stem = lower.strip_suffix(".gz").unwrap_or(&lower);
    [
        (".wtb", Format::Wthor),
        (".ggf", Format::Ggf),
        (".sgf", Format::Sgf),
        (".pgn", Format::Pgn),
        (".obf", Format::Obf),
        (".gam", Format::Logbook),
        (".jsonl", Format::Json),
        (".kifu", Format::Kifu),
    ]
    .into_iter()
    .find_map(|(ext, format)| stem.ends_with(ext).then_some(format))
}

/// Recognises a format from a file name and its first bytes (up to a few KiB).
#[must_use]
pub fn sniff(name: &str, head: &[u8]) -> Format {
    if let Some(format) = by_extension(name) {
        return format;
    }
    if head.len() >= super::wthor::HEADER_LEN
        && head[..head.len().min(4096)].contains(&0)
        && looks_like_wthor_header(&head[..super::wthor::HEADER_LEN])
    {
        return Format::Wthor;
    }
    // (Decoded as the reader decodes lines: Shift_JIS is text, not replacement characters.)
    let text = super::reader::head_text(head);
    let mut text = text.trim_start_matches('\u{feff}').trim_start();
    // Comment lines first (`% my suite`, `# positions from ...`) say nothing of the format.
    while super::reader::is_block_comment(text.lines().next().unwrap_or_default()) {
        text = text.split_once('\n').map_or("", |(_, rest)| rest).trim_start();
    }
    if text.starts_with('{') || text.starts_with('[') && text[1..].trim_start().starts_with('{') {
        return if text.contains("\"players\"") && text.contains("\"position\"") { Format::Oq } else { Format::Json };
    }
    if let Some(at) = text.find("(;") {
        let game = &text[at..];
        let sgf_marker = game.find("GM[2]").unwrap_or(usize::MAX);
        let ggf_marker = game.find("GM[Othello]").unwrap_or(usize::MAX);
        return if sgf_marker < ggf_marker { Format::Sgf } else { Format::Ggf };
    }
    if text.starts_with('[') {
        let playok = ["[Site \"PlayOK\"]", "[Site \"kurnik\"]"].iter().any(|m| text.contains(m));
        return if playok { Format::Playok } else { Format::Pgn };
    }
    let first = text.lines().next().unwrap_or("").trim();
    let b = first.as_bytes();
    if b.len() >= 3 && (b[0] == b'+' || b[0] == b'-') && b[1].is_ascii_alphabetic() && b[2].is_ascii_digit() {
        return Format::Logbook;
    }
    // Grids and boards are recognised by their shape, not by parsing, so that a bad one is
    // still read as what it is (and its errors make sense).
    if board::leading_cells(first) >= 16 || board::is_mistyped_board(first) || board::ungrouped(first).is_some() {
        return if first.contains(';') { Format::Obf } else { Format::Board };
    }
    // A caption over a one-line board (`Exercise 3: black to play and win`).
    if board::caption_over_board(text).is_some() {
        return Format::Board;
    }
    // A bare diagram (ranks of cells alone, as many as each has cells): its empty ranks
    // (`------`) would pass for borders below.
    let ranks: Vec<&str> = text
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .filter(|l| !is_side_line(l) && !board::is_lone_disc(l) && !is_rules_line(l))
        .collect();
    let cells = |l: &str| l.chars().filter(|&c| !board::is_cell_separator(c)).count();
    if ranks.len() >= 4 && ranks.iter().all(|l| is_diagram_line(l) && cells(l) == ranks.len()) {
        return Format::Board;
    }
    // One with a rank too many or too few, or a cell: still a diagram, for its parser to say
    // what is wrong (not a list of moves that are no moves).
    let counts = ranks.iter().map(|l| cells(l));
    let (fewest, most) = (counts.clone().min().unwrap_or(0), counts.max().unwrap_or(0));
    let discs = ranks.iter().any(|l| l.chars().any(|c| matches!(c, 'X' | 'x' | 'O' | 'o' | '*' | '●' | '○')));
    if ranks.len() >= 6
        && discs
        && most - fewest <= 1
        && most.abs_diff(ranks.len()) <= 1
        && ranks.iter().all(|l| is_diagram_line(l) && !l.trim().starts_with(|c: char| c.is_ascii_digit()))
    {
        return Format::Board;
    }
    let block: Vec<&str> = text
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .filter(|l| {
            !is_file_letters(l)
                && !is_side_line(l)
                && !board::is_lone_disc(l)
                && !is_rules_line(l)
                && !board::is_text_line(l)
                && !kifu::is_border(l)
                && !kifu::is_text(l)
        })
        .collect();
    if block.len() >= 4 && is_kifu_grid(&block) {
        return Format::Kifu;
    }
    // A diagram, perhaps with a bad cell or two (the board's parser names them).
    let diagram_lines = block.iter().filter(|l| is_diagram_line(l)).count();
    if block.len() >= 4 && diagram_lines * 4 >= block.len() * 3 {
        return Format::Board;
    }
    Format::Transcript
}

/// A line of file letters over a grid or diagram: `a b c d ...` or `abcd...`.
fn is_file_letters(line: &str) -> bool {
    let letters: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).map(super::narrow).collect();
    letters.len() >= 4 && letters.iter().enumerate().all(|(i, c)| c.to_ascii_lowercase() == char::from(b'a' + i as u8))
}

/// A last line saying who moves (`black to move`) or who opened (`white first`).
fn is_side_line(line: &str) -> bool {
    let lower = line.trim().to_ascii_lowercase();
    lower.contains("to move") || lower.contains("to play") || lower.ends_with("first")
}

/// A kifu grid's last line naming its rules (`rules 8stars`).
fn is_rules_line(line: &str) -> bool {
    line.trim().to_ascii_lowercase().starts_with("rules ")
}

/// Whether the lines are a kifu grid: every token a number or a single cell (`.`, `X`, `--`,
/// ...), but for one or two misread ones among many moves, with some number that is a move
/// rather than a rank label. A rank label (16 at most) is
/// at an end of a line that has more tokens than the grid has ranks, one label per extra token;
/// any other number is a move. A grid with `0` cells needs a move beyond 2, since a digit board
/// (`0 1 2`) is not a grid.
fn is_kifu_grid(lines: &[&str]) -> bool {
    let ranks = lines.len();
    let (mut moves, mut highest, mut zeros, mut bad) = (0, 0, false, 0);
    // Rank labels on every line, in order from either end (`1 ... 8` or `8 ... 1`), even where a
    // rank lacks a cell.
    let first_words: Vec<Option<usize>> =
        lines.iter().map(|l| kifu::grid_words(l).first().and_then(|(w, _)| w.parse().ok())).collect();
    let labelled =
        (0..ranks).all(|i| first_words[i] == Some(i + 1)) || (0..ranks).all(|i| first_words[i] == Some(ranks - i));
    for line in lines {
        let words = kifu::grid_words(line);
        let mut labels = words.len().saturating_sub(ranks);
        for (i, (word, _)) in words.iter().enumerate() {
            if labelled && i == 0 {
                labels = labels.saturating_sub(1);
                continue;
            }
            zeros |= word.bytes().all(|b| b == b'0');
            // (A cell misread, `3O` or `?`, is the grid parser's to name.)
            let Some(number) = kifu::grid_cell(word) else {
                bad += 1;
                continue;
            };
            let Some(number) = number else { continue };
            let at_an_end = i == 0 || i == words.len() - 1;
            if at_an_end && number <= 16 && labels > 0 {
                labels -= 1;
            } else {
                moves += 1;
                highest = highest.max(number);
            }
        }
    }
    moves > 0 && (!zeros || highest > 2) && (bad == 0 || bad <= 2 && moves >= 16 * bad)
}

/// Whether a line is a diagram's rank: cell characters, spaces, `|` and the last move's `[ ]`,
/// with optional rank numbers at either end.
fn is_diagram_line(line: &str) -> bool {
    let mut rest = line.trim();
    let lead = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if lead > 0 && rest[lead..].starts_with(board::is_cell_separator) {
        rest = &rest[lead..];
    }
    let trail = rest.len() - rest.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if trail > 0 && rest[..rest.len() - trail].ends_with(board::is_cell_separator) {
        rest = &rest[..rest.len() - trail];
    }
    let mut cells = 0;
    for c in rest.chars().filter(|&c| !board::is_cell_separator(c)) {
        if !board::is_cell(c) {
            return false;
        }
        cells += 1;
    }
    cells >= 4
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for f in Format::ALL {
            assert_eq!(f.name().parse::<Format>(), Ok(f));
        }
        assert_eq!("WTB".parse::<Format>(), Ok(Format::Wthor));
        assert!("xyz".parse::<Format>().unwrap_err().to_string().contains("transcript"));
    }

    /// A grid with a misread cell or two is still a grid (its parser names the cell), and a
    /// `.kifu` file is one whatever it holds.
    #[test]
    fn a_grid_with_a_misread_cell_is_a_grid() {
        let grid = include_str!("../../samples/kifu.txt");
        assert_eq!(sniff("", grid.as_bytes()), Format::Kifu);
        let misread = grid.replacen(" 31 ", " 3l ", 1).replacen(" 50", " ?", 1);
        assert_eq!(sniff("", misread.as_bytes()), Format::Kifu);
        let ruined = grid.replacen(" 31 ", " 3l ", 1).replacen(" 50", " ?", 1).replacen(" 44 ", " 4A ", 1);
        assert_eq!(sniff("", ruined.as_bytes()), Format::Transcript);
        assert_eq!(sniff("club.kifu", ruined.as_bytes()), Format::Kifu);
    }

    #[test]
    fn sniffs_every_format() {
        let cases: &[(&str, &str, Format)] = &[
            ("a.txt", "f5d6c3d3c4\nf5f6e6\n", Format::Transcript),
            ("a.txt", "1. f5 d6 2. c3\n", Format::Transcript),
            ("a.txt", "+d3-c3+c4: -04 10\n", Format::Logbook),
            ("a", "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;\n", Format::Obf),
            ("a", "---------------------------OX------XO--------------------------- X\n", Format::Board),
            ("a", "  a b c d\n1 . . . .\n2 . O X .\n3 . X O .\n4 . . . .\n", Format::Board),
            ("a", " . . . .\n . O X 2\n . X O 1\n . . . .\n", Format::Kifu),
            ("a", "1 (;GM[Othello]PC[GGS/os]TY[8];)\n", Format::Ggf),
            ("a", "(;FF[4]GM[2]SZ[8];B[fe])\n", Format::Sgf),
            ("a", "[Event \"x\"]\n[Site \"PlayOK\"]\n\n1. f5 d6\n", Format::Playok),
            ("a", "[Event \"x\"]\n\n1. f5 d6\n", Format::Pgn),
            ("a", "{\"tags\":{},\"moves\":[]}\n", Format::Json),
            ("a", "{\"players\":[],\"position\":{\"moves\":[]}}", Format::Oq),
            ("WTH_2004.wtb", "", Format::Wthor),
            ("x.wtb.gz", "", Format::Wthor),
            // Comment lines first say nothing of the format.
            (
                "a",
                "% my suite\n\n# from FFO\n--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;\n",
                Format::Obf,
            ),
            ("a", "# one board\n---------------------------OX------XO--------------------------- X\n", Format::Board),
            (
                "a",
                "Exercise 3: play and win\n---------------------------OX------XO--------------------------- X\n",
                Format::Board,
            ),
            (
                "a",
                "#\n# 2004\n--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;\n",
                Format::Obf,
            ),
            // The 8-stars board with its ranks apart is a board, not a comment.
            (
                "a",
                "##------##/#--------#/-------O--/----XXO---/----OO----/---OOX----/-----X----/----------/#--------#/##------## X\n",
                Format::Board,
            ),
        ];
        for &(name, head, want) in cases {
            assert_eq!(sniff(name, head.as_bytes()), want, "{head}");
        }
        let shapes: &[(&str, Format)] = &[
            // A bad board string (63 cells, a side that is no side) is still a board.
            ("---------------------------OX------XO-------------------------- X\n", Format::Board),
            ("---------------------------OX------XO--------------------------- Q\n", Format::Board),
            ("---------------------------OX------XO--------------------------- Q; G8:+1;\n", Format::Obf),
            // A grid with a repeated number, or a missing one, is still a grid.
            ("  a b c d\n1 . . . .\n2 . O X 1\n3 . X O 1\n4 . . . .\n", Format::Kifu),
            ("1 . . . .\n2 . O X 3\n3 . X O 1\n4 . . . .\n", Format::Kifu),
            // A bare diagram, whose empty ranks look like borders, is no list of passes.
            ("------\n------\n--OX--\n--XO--\n------\n------\nblack to move\n", Format::Board),
            ("----\n-OX-\n-XO-\n----\n", Format::Board),
            // A diagram as `kifu show` draws it with its side as a lone disc under it.
            ("  a b c d\n1 . . . .\n2 . O X .\n3 . X O .\n4 . . . .\nO\n", Format::Board),
            ("1 . . . .\n2 . O X .\n3 . X O .\n4 . . . .\nX\n", Format::Board),
            ("  a b c d\n1 . . . .\n2 . O X 1\n3 . X O 1\n4 . . . .\nrules anti,size=4\n", Format::Kifu),
            (". . . . 1\n. O X 2 2\n. X O . 3\n17 . . . 4\n", Format::Kifu),
            ("    a  b  c  d\n 1 .  .  .  .\n 2 .  O  X  2\n 3 .  X  O  1\n 4 .  .  .  5\nwhite first\n", Format::Kifu),
            // A diagram with a bad cell count, labels or digit cells is still a board.
            ("  a b c d\n1 . . . . 1\n2 . O X . . 2\n3 . X O . 3\n4 . . . . 4\nX to move\n", Format::Board),
            ("....\n.01.\n.10.\n....\n", Format::Board),
            ("- - - -\n- 0 1 -\n- 1 0 -\n- - - -\n", Format::Board),
            ("8 . . . .\n7 . O X .\n6 . X O .\n5 . . . .\n", Format::Board),
            // A labelled rank short of a cell; a bad cell in one rank.
            ("1 . . . .\n2 . O X\n3 . X O .\n4 . . . .\nblack to move\n", Format::Board),
            ("1 . . . .\n2 . O X .\n3 . X Q .\n4 . . . .\nblack to move\n", Format::Board),
            // `kifu show`'s diagram: the last move in brackets, lines of text around it.
            (
                "Ann (black) - Bob (white)\n  a b c d\n1 . . . .\n2 .[O]X .\n3 . X O .\n4 . . . .\nblack to move; black 2\nply 1 of 1, last move b2\n",
                Format::Board,
            ),
            // Transcripts are not grids.
            ("f5 d6 c3 d3\nf5 f6 e6 f4\nf5 d6 c3 d3\nf5 f6 e6 f4\n", Format::Transcript),
            ("1 2 3 4\n", Format::Transcript),
            // A diagram with a rank too few, too many, or a cell too many.
            ("--------\n--------\n--------\n---OX---\n---XO---\n--------\n--------\nX\n", Format::Board),
            ("------\n------\n--OX--\n--XO--\n------\n------\n------\nX\n", Format::Board),
            ("------\n------\n--OX--\n--XO--\n-------\n------\nX\n", Format::Board),
        ];
        for &(head, want) in shapes {
            assert_eq!(sniff("a", head.as_bytes()), want, "{head}");
        }
        let mut binary = vec![20u8, 4, 12, 31, 1, 0, 0, 0, 0, 0, 212, 7, 8, 0, 22, 0];
        binary.extend([0u8; 68]);
        assert_eq!(sniff("db", &binary), Format::Wthor);
    }
}
