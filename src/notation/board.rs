//! Boards: one-line board strings, multi-line diagrams and OBF problem lines.
//!
//! A board string is `n * n` cells from a1 along rank 1, then rank 2, and so on (any size 4..16),
//! optionally followed by the side to move. Cells: black `X x B b * ●`, white `O o W w ○`,
//! empty `- . # _`. The digits `0` and `1` are black and white by default (as some programs
//! write them), but other programs write `0` for an empty cell, `1` for black and `2` for
//! white: [`Digits`] says which, and a `2` under the default reading is an error that says so.
//! The side to move is a cell letter (`X`, `O`, `B`, `W`, `*`), a word (`black`, `white`) or
//! a phrase (`X to move`).
//!
//! A diagram is one line per rank, with or without coordinates (`a b c ...` over the files,
//! rank numbers before or after each line; rank 8 on top as in old rule books is read from the
//! numbers), cells separated by spaces or not, and an optional side line (`black to move`).
//! Without numbers the first line is rank 1.
//!
//! An OBF line (`board side; G8:+18; H1:+12;`) is a board string with scored moves, kept in the
//! tag `scores` (`G8:+18; H1:+12`).

use super::{BoardSyntax, Record, Span, SyntaxError};
use crate::core::Color;

/// How the digits `0`, `1` and `2` read as cells.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Digits {
    /// `0` black, `1` white (no `2`).
    #[default]
    BlackWhite,
    /// `0` empty, `1` black, `2` white.
    EmptyBlackWhite,
}

/// A cell character read under `digits`: `Some(Some(color))` a disc, `Some(None)` empty,
/// `None` not a cell.
fn cell(c: char, digits: Digits) -> Option<Option<Color>> {
    match (c, digits) {
        ('X' | 'x' | 'B' | 'b' | '*' | '●', _) => Some(Some(Color::Black)),
        ('O' | 'o' | 'W' | 'w' | '○', _) => Some(Some(Color::White)),
        ('-' | '.' | '#' | '_', _) => Some(None),
        ('0', Digits::BlackWhite) | ('1', Digits::EmptyBlackWhite) => Some(Some(Color::Black)),
        ('1', Digits::BlackWhite) | ('2', Digits::EmptyBlackWhite) => Some(Some(Color::White)),
        ('0', Digits::EmptyBlackWhite) => Some(None),
        _ => None,
    }
}

/// Whether a line holds one disc and nothing else (`O`): under a diagram, the side to move.
pub(crate) fn is_lone_disc(line: &str) -> bool {
    let mut chars = line.trim().chars();
    matches!((chars.next(), chars.next()), (Some(c), None) if cell(c, Digits::default()).is_some_and(|v| v.is_some()))
}

/// Whether `c` is a cell under some reading of the digits (`0`, `1` and `2` included).
pub(crate) fn is_cell(c: char) -> bool {
    cell(c, Digits::BlackWhite).is_some() || c == '2'
}

/// How many cell characters (under any reading of the digits) `line` starts with: 16 or more
/// make a one-line board string.
pub(crate) fn leading_cells(line: &str) -> usize {
    line.chars().take_while(|&c| is_cell(c)).count()
}

/// Whether a line is text around a diagram (players, an event, the ply, the legal moves, as
/// `kifu show` writes them) rather than a rank: it has a word with two letters or more that are
/// not cells. (So a stray letter in a rank, even one written without spaces, stays an error.)
pub(crate) fn is_text_line(line: &str) -> bool {
    line.split_whitespace().any(|word| word.chars().filter(|&c| c.is_alphabetic() && !is_cell(c)).count() >= 2)
}

/// A caption over a one-line board: one to three text lines, then the board string
/// (`Exercise 3: black to play and win` over `---...OX... X`). The caption's lines joined with
/// ` / `, and the byte offset of the board's line.
pub(crate) fn caption_over_board(text: &str) -> Option<(String, usize)> {
    let mut caption = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let content = line.trim();
        if content.is_empty() {
            if caption.is_empty() {
                at += line.len();
                continue;
            }
            return None;
        }
        if leading_cells(content) >= 16 {
            return (!caption.is_empty()).then(|| (caption.join(" / "), at));
        }
        if caption.len() == 3 || !is_caption_line(content) {
            return None;
        }
        caption.push(content);
        at += line.len();
    }
    None
}

/// Whether a line reads as words (a caption), not moves: a text line with a word of three
/// letters in a row or more, and fewer than two squares (`f5d6c3` is a game's moves).
fn is_caption_line(line: &str) -> bool {
    let b = line.as_bytes();
    let squares = (0..b.len())
        .filter(|&i| {
            b[i].is_ascii_alphabetic()
                && b.get(i + 1).is_some_and(u8::is_ascii_digit)
                && (i == 0 || !b[i - 1].is_ascii_alphabetic())
        })
        .count();
    let worded = line.split(|c: char| !c.is_alphabetic()).any(|run| run.chars().count() >= 3);
    is_text_line(line) && worded && squares < 2
}

/// The line of players `kifu show` writes over a board: `Ann (black) - Bob (white)`.
pub(crate) fn write_players(black: &str, white: &str) -> String {
    format!("{black} (black) - {white} (white)")
}

/// The players a record names, as [`write_players`] takes them: black then white, `?` for one
/// it does not name (or names `?`), each on one line and printable; none when it names neither.
pub(crate) fn players_of(record: &Record) -> Option<[String; 2]> {
    let name = |tag: &str| {
        // (`?` and `???`, WTHOR's unknown, name no one.)
        let name = record.tag(tag).map(str::trim).filter(|v| !v.chars().all(|c| c == '?'));
        name.map(|v| super::printable(v).replace('\n', " "))
    };
    match (name("black"), name("white")) {
        (None, None) => None,
        (b, w) => Some([b.unwrap_or_else(|| "?".to_owned()), w.unwrap_or_else(|| "?".to_owned())]),
    }
}

/// The players of a line as [`write_players`] writes it: the `black` and `white` tags, leaving
/// out a name given as `?`.
pub(crate) fn players_line(line: &str) -> Vec<(String, String)> {
    let Some((black, white)) = line.trim().strip_suffix(" (white)").and_then(|l| l.split_once(" (black) - ")) else {
        return Vec::new();
    };
    [("black", black), ("white", white)]
        .into_iter()
        .filter(|(_, name)| !name.trim().chars().all(|c| c == '?'))
        .map(|(tag, name)| (tag.to_owned(), name.trim().to_owned()))
        .collect()
}

/// Whether `c` separates the cells of a diagram's rank: a space, `|`, or the brackets that
/// mark the last move (`.[O].`).
pub(crate) fn is_cell_separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, '|' | '[' | ']')
}

/// The side to move from what follows a board: `X`, `O`, `black`, `White to move`, ...
fn side(text: &str) -> Option<Color> {
    let word = text.trim().trim_end_matches(['.', ';']).split_whitespace().next()?.to_ascii_lowercase();
    match word.as_str() {
        "x" | "b" | "*" | "black" | "●" => Some(Color::Black),
        "o" | "w" | "white" | "○" => Some(Color::White),
        _ => None,
    }
}

/// The side a line under a diagram names, when that is all it says: a colour (`white`, `黒`,
/// `白番`) alone or among words about the turn (`side: white`, `to move: O`, `white's turn`,
/// `手番: 白`); a lone `X` or `O` is read as a rank of one cell here (the diagram decides: under
/// a whole board it is the side).
fn side_line(content: &str) -> Option<Color> {
    let words: Vec<String> = content
        .split(|c: char| {
            c.is_whitespace()
                || matches!(c, ':' | '：' | ',' | ';' | '.' | '、' | '。' | '(' | ')' | '[' | ']' | '（' | '）')
        })
        .filter(|w| !w.is_empty())
        .map(|w| w.to_lowercase().trim_end_matches("'s").to_owned())
        .collect();
    const TURN: [&str; 14] =
        ["side", "to", "move", "moves", "play", "plays", "turn", "next", "player", "it", "is", "its", "手番", "番"];
    let colour = |w: &str| {
        side(w).or(match w {
            "黒" | "黒番" | "先手" => Some(Color::Black),
            "白" | "白番" | "後手" => Some(Color::White),
            _ => None,
        })
    };
    let colours: Vec<(Color, bool)> =
        words.iter().filter_map(|w| colour(w).map(|c| (c, w.chars().count() > 1))).collect();
    let turn_words = words.iter().filter(|w| TURN.contains(&w.as_str())).count();
    match colours[..] {
        [(c, spelt)] if colours.len() + turn_words == words.len() && (spelt || turn_words > 0) => Some(c),
        _ => None,
    }
}

/// Why `cells` cells make no board kifu plays: not a square, or a square beyond 4x4 to 16x16.
fn no_board(cells: usize) -> String {
    match (1..=64usize).find(|n| n * n == cells) {
        Some(n) => format!("{cells} cells make a {n}x{n} board; kifu plays boards from 4x4 to 16x16"),
        None => format!("{cells} cells is not a square board (64 for 8x8, 36 for 6x6, 100 for 10x10)"),
    }
}

/// The size of a square board of `cells` cells, if it is one.
fn square_size(cells: usize) -> Option<u8> {
    (4..=16u8).find(|&n| usize::from(n) * usize::from(n) == cells)
}

/// Whether a line is a one-line board string with a character or a few that are no cells (a
/// typo early in it, before a run of 16 cells shows it is a board): its first word, or that
/// word but its last character (a side glued on), has as many characters as a square board
/// from 4x4 to 16x16 (16 at least), all cells but one to three.
pub(crate) fn is_mistyped_board(line: &str) -> bool {
    let Some(word) = line.split_whitespace().next() else { return false };
    let word = word.split(';').next().unwrap_or(word);
    let chars = word.chars().count();
    let bad = word.chars().filter(|&c| !is_cell(c)).count();
    (1..=3).contains(&bad) && [chars, chars.saturating_sub(1)].iter().any(|&n| n >= 16 && square_size(n).is_some())
}

/// A one-line board written rank by rank, the ranks separated by spaces, as GGF's `BO` writes
/// it (`---OO--- --XOOO-- ... O`, or with the size first: `8 -------- ... *`), or by slashes
/// (`---OO---/--XOOO--/...`), or cell by cell with spaces between (`- - - O O - ...`, as
/// programs print a board on one line): the line with the cells in one run, and where (in the
/// new line) how many bytes were taken out.
pub(crate) fn ungrouped(line: &str) -> Option<(String, Vec<(usize, usize)>)> {
    // The words between spaces and slashes, with where each starts.
    let mut words = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices().chain(std::iter::once((line.len(), ' '))) {
        if c.is_whitespace() || c == '/' {
            if let Some(s) = start.take() {
                words.push((s, &line[s..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    let sized = words.first().and_then(|(_, w)| w.parse::<usize>().ok());
    let skip = usize::from(sized.is_some());
    let n = words.get(skip)?.1.chars().count();
    let ranks = if n == 1 {
        // Cell by cell: a square number of one-cell words, the side perhaps one more; from
        // 5x5 up, more cells than a rank of a diagram has (16 at most).
        let cells = words[skip..].iter().take_while(|(_, w)| w.chars().count() == 1 && w.chars().all(is_cell)).count();
        let size = (5..=16).find(|&s| s * s == cells || s * s + 1 == cells)?;
        if sized.is_some_and(|s| s != size) {
            return None;
        }
        &words[skip..skip + size * size]
    } else {
        if !(4..=16).contains(&n) || sized.is_some_and(|s| s != n) || words.len() < skip + n {
            return None;
        }
        &words[skip..skip + n]
    };
    if ranks.len() > 1 && !ranks.iter().all(|(_, w)| w.chars().count() == n && w.chars().all(is_cell)) {
        return None;
    }
    let mut joined = String::new();
    let mut removed = Vec::new();
    let mut from = 0;
    for (start, word) in ranks {
        removed.push((joined.len(), start - from));
        joined.push_str(word);
        from = start + word.len();
    }
    joined.push_str(&line[from..]);
    Some((joined, removed))
}

/// Parses a one-line board string (with optional side), a multi-line diagram or an OBF line.
pub fn parse(text: &str, digits: Digits) -> Result<Record, SyntaxError> {
    // A caption over a one-line board: the players when it names them as `kifu show` writes
    // them, else the record's `caption`.
    if let Some((caption, at)) = caption_over_board(text) {
        let mut record = parse(&text[at..], digits).map_err(|e| SyntaxError {
            span: Span { start: e.span.start + at, end: e.span.end + at },
            message: e.message,
        })?;
        let players = players_line(&caption);
        if players.is_empty() {
            record.tags.push(("caption".into(), caption));
        } else {
            record.tags.extend(players);
        }
        return Ok(record);
    }
    let trimmed = text.trim_start();
    let offset = text.len() - trimmed.len();
    let first_line = trimmed.lines().next().unwrap_or("");
    // A board written rank by rank on one line: read as its one run, errors placed in the text.
    if trimmed.trim_end().lines().count() == 1
        && let Some((joined, removed)) = ungrouped(first_line)
    {
        let place = |at: usize| {
            let at = at.saturating_sub(offset);
            offset + at + removed.iter().filter(|(from, _)| *from <= at).map(|(_, n)| n).sum::<usize>()
        };
        return parse(&joined, digits).map_err(|e| SyntaxError {
            span: Span { start: place(e.span.start), end: place(e.span.end) },
            message: e.message,
        });
    }
    let run = first_line.chars().take_while(|&c| cell(c, digits).is_some() || c == '2').count();
    // The side may follow the cells with no space (`...XO X` written `...XOX`, as Edax reads it).
    let last_is_side =
        first_line.chars().nth(run.saturating_sub(1)).is_some_and(|c| side(c.encode_utf8(&mut [0; 4])).is_some());
    let cells =
        [Some(run), last_is_side.then(|| run - 1)].into_iter().flatten().find(|&n| n >= 16 && square_size(n).is_some());
    if let Some(cells) = cells {
        let record = parse_string(first_line, offset, digits, cells)?;
        if !trimmed[first_line.len()..].trim().is_empty() {
            return Err(SyntaxError {
                span: Span { start: offset + first_line.len(), end: text.len() },
                message: "text after a one-line board".into(),
            });
        }
        return Ok(record);
    }
    // A one-line board with a cell too few or too many (`63 cells`) or a typo, not a one-rank
    // diagram.
    if (run >= 16 || is_mistyped_board(first_line)) && trimmed.trim_end().lines().count() == 1 {
        // Cut short by a character that is no cell, or by a space with more cells after it.
        let at = first_line.char_indices().nth(run);
        if let Some((i, c)) = at {
            let after = first_line[i..].trim_start();
            let more = after.chars().take_while(|&c| cell(c, digits).is_some()).count();
            let why = match c {
                c if !c.is_whitespace() && c != ';' => {
                    let c = crate::notation::printable(&c.to_string()).into_owned();
                    Some(format!("`{c}` after {run} cells is not a cell (X, O or -; B, W, * and . too)"))
                }
                c if c.is_whitespace() && more >= 2 => {
                    Some(format!("a space after {run} cells, inside the board: its cells are written in one run"))
                }
                _ => None,
            };
            if let Some(why) = why {
                return Err(SyntaxError {
                    span: Span { start: offset + i, end: offset + i + c.len_utf8() },
                    message: why,
                });
            }
        }
        return Err(SyntaxError {
            span: Span {
                start: offset,
                end: offset + first_line.char_indices().nth(run).map_or(first_line.len(), |(i, _)| i),
            },
            message: no_board(run),
        });
    }
    parse_diagram(text, digits)
}

/// A one-line board of `count` cells, then the side and OBF's scores.
fn parse_string(line: &str, offset: usize, digits: Digits, count: usize) -> Result<Record, SyntaxError> {
    let mut cells = Vec::new();
    let mut end = 0;
    let mut kinds = CellKinds::default();
    for (i, c) in line.char_indices().take(count) {
        kinds.see(c, offset + i)?;
        match cell(c, digits) {
            Some(v) => cells.push(v),
            None if c == '2' => return Err(two_error(offset + i)),
            None => break,
        }
        end = i + c.len_utf8();
    }
    let size = square_size(cells.len()).ok_or_else(|| SyntaxError {
        span: Span { start: offset, end: offset + end },
        message: no_board(cells.len()),
    })?;
    // The cells written `#`, in the board string's order.
    let unplayable = line.chars().take(cells.len()).enumerate().filter(|&(_, c)| c == '#').map(|(i, _)| i).collect();
    let mut record = Record::default();
    let rest = &line[end..];
    let (side_text, scores) = match rest.split_once(';') {
        Some((s, scores)) => (s, Some(scores)),
        None => (rest, None),
    };
    // A side alone (`X`, `white`) or in a phrase (`X to move`); after a side word, a comment
    // (`# ...`, `% ...`), a score or anything after a tab (columns of a data file) is left alone.
    let after_side = side_text.trim_start().split_once(char::is_whitespace).map(|(_, rest)| rest);
    let annotation = |rest: &str| {
        let rest = rest.trim_start();
        rest.starts_with(['#', '%', '+', '-']) || rest.starts_with(|c: char| c.is_ascii_digit())
    };
    let side_color = match side_text.split_whitespace().count() {
        1 => side(side_text),
        _ if side_text.to_ascii_lowercase().contains(" to ") => side(side_text).or_else(|| side_line(side_text)),
        _ if side_text.trim_start().contains('\t') || after_side.is_some_and(annotation) => side(side_text),
        _ => side_line(side_text),
    };
    if side_color.is_none() && !side_text.trim().is_empty() {
        // Cells run on past the board (`...-X X`, 65 cells): the count is what is wrong.
        let more = rest.chars().take_while(|&c| cell(c, digits).is_some()).count();
        if more > 0 && square_size(cells.len() + more).is_none() {
            return Err(SyntaxError {
                span: Span { start: offset, end: offset + end + more },
                message: no_board(cells.len() + more),
            });
        }
        let start = offset + end + (side_text.len() - side_text.trim_start().len());
        return Err(SyntaxError {
            span: Span { start, end: offset + end + side_text.trim_end().len() },
            message: format!(
                "`{}` is not a side to move (X, B, *, black for black; O, W, white for white; digit sides are not read)",
                side_text.trim()
            ),
        });
    }
    if let Some(scores) = scores {
        let list: Vec<&str> = scores.split(';').map(str::trim).filter(|s| !s.is_empty()).collect();
        record.tags.push(("scores".into(), list.join("; ")));
    }
    record.start = Some(BoardSyntax { size, cells, side: side_color, unplayable });
    Ok(record)
}

/// The first disc cell written as a digit and the first written as a letter, to tell a board
/// that mixes them (`00XXXXX00OOO...`: `0` would be a black disc, not an empty cell).
#[derive(Default)]
struct CellKinds {
    digit: Option<char>,
    letter: Option<char>,
}

impl CellKinds {
    /// Notes the cell `c` at byte `at`: an error if it is a digit among letters or the reverse.
    fn see(&mut self, c: char, at: usize) -> Result<(), SyntaxError> {
        let (mine, other) = match c {
            '0'..='2' => (&mut self.digit, self.letter),
            c if c.is_alphabetic() || matches!(c, '*' | '●' | '○') => (&mut self.letter, self.digit),
            _ => return Ok(()),
        };
        mine.get_or_insert(c);
        match other {
            Some(first) => Err(SyntaxError {
                span: Span { start: at, end: at + c.len_utf8() },
                message: format!(
                    "`{c}` after `{first}`: a board's cells are letters (X O -) or digits (--digits), not both"
                ),
            }),
            None => Ok(()),
        }
    }
}

fn two_error(at: usize) -> SyntaxError {
    SyntaxError {
        span: Span { start: at, end: at + 1 },
        message: "`2` is a cell only when digits mean 0 empty, 1 black, 2 white (--digits 012)".into(),
    }
}

/// A diagram: rank lines, optional coordinate lines and an optional side line.
fn parse_diagram(text: &str, digits: Digits) -> Result<Record, SyntaxError> {
    struct Row {
        label: Option<u8>,
        cells: Vec<Option<Color>>,
        /// The files of its cells written `#`.
        unplayable: Vec<usize>,
        start: usize,
        end: usize,
    }
    let mut rows: Vec<Row> = Vec::new();
    let mut tags = Vec::new();
    let mut side_color = None;
    let mut kinds = CellKinds::default();
    let mut pos = 0;
    for line in text.split_inclusive('\n') {
        let start = pos;
        pos += line.len();
        let body = line.trim_end();
        let content = body.trim();
        if content.is_empty() {
            continue;
        }
        let lower = content.to_ascii_lowercase();
        if lower.contains("to move") || lower.contains("to play") {
            // The word before `to move` (`black 4, white 1; white to move`), else the line's.
            let at = lower.find(" to move").or_else(|| lower.find(" to play")).unwrap_or(0);
            let before = content[..at].rsplit(|c: char| c.is_whitespace() || matches!(c, ',' | ';')).next();
            side_color = before.and_then(side).or_else(|| side_line(content)).or_else(|| side(content));
            if side_color.is_none() {
                return Err(SyntaxError {
                    span: Span { start, end: start + body.len() },
                    message: format!("`{content}` names no side to move (black to move, white to move)"),
                });
            }
            continue;
        }
        if let Some(color) = side_line(content) {
            side_color = Some(color);
            continue;
        }
        // The rules, as `kifu show` writes them under a diagram of another variant.
        if lower.starts_with("rules ") {
            tags.push(("rules".to_owned(), content["rules ".len()..].trim().to_owned()));
            continue;
        }
        // A kifu grid's `white first` under a grid without moves: the side to move.
        if lower == "white first" || lower == "black first" {
            side_color = side_color.or(side(content));
            continue;
        }
        // A coordinate line: file letters only.
        if content.chars().all(|c| c.is_whitespace() || c.is_ascii_lowercase() || c.is_ascii_uppercase())
            && content.split_whitespace().all(|w| w.len() == 1 || w.chars().all(|c| c.is_ascii_alphabetic()))
            && !content.chars().any(|c| cell(c, digits).is_some() && !c.is_ascii_alphabetic())
            && looks_like_files(content)
        {
            continue;
        }
        if is_text_line(content) {
            tags.extend(players_line(content));
            continue;
        }
        // Rank numbers at either end of the line.
        let mut rest = content;
        // Where `rest` starts in `content` (a trailing label shortens `rest` at its end only).
        let mut rest_at = 0;
        let mut label = None;
        let lead: String = rest.chars().take_while(char::is_ascii_digit).collect();
        let lead_is_label = !lead.is_empty()
            && rest[lead.len()..].starts_with(is_cell_separator)
            && (lead.len() > 1 || digits == Digits::EmptyBlackWhite || lead != "0" && lead != "1" || {
                // A `1` or `0` followed by a full row is a label, else a cell.
                rest[lead.len()..].chars().filter(|&c| cell(c, digits).is_some()).count() >= 4
            });
        if lead_is_label {
            label = lead.parse().ok();
            rest = &rest[lead.len()..];
            rest_at = lead.len();
        }
        let trail: String = rest.chars().rev().take_while(char::is_ascii_digit).collect();
        if !trail.is_empty() && label.is_some() && rest[..rest.len() - trail.len()].ends_with(is_cell_separator) {
            rest = &rest[..rest.len() - trail.len()];
        }
        let (mut cells, mut unplayable) = (Vec::new(), Vec::new());
        for (i, c) in rest.char_indices() {
            if is_cell_separator(c) {
                continue;
            }
            if c == '#' {
                unplayable.push(cells.len());
            }
            kinds.see(c, start + (line.len() - line.trim_start().len()) + rest_at + i)?;
            match cell(c, digits) {
                Some(v) => cells.push(v),
                None => {
                    let at = start + (line.len() - line.trim_start().len()) + rest_at + i;
                    if c == '2' {
                        return Err(two_error(at));
                    }
                    return Err(SyntaxError {
                        span: Span { start: at, end: at + c.len_utf8() },
                        message: format!("`{c}` is not a cell (X O - and their kin)"),
                    });
                }
            }
        }
        rows.push(Row { label, cells, unplayable, start, end: start + body.len() });
    }
    // A lone disc under a whole board (`O` on a line of its own): the side to move, not a rank
    // of one cell.
    if let [board @ .., last] = rows.as_slice()
        && last.label.is_none()
        && let [Some(color)] = last.cells[..]
        && board.len() >= 4
        && board.iter().all(|r| r.cells.len() == board[0].cells.len())
        && square_size(board[0].cells.len() * board[0].cells.len()).is_some()
    {
        side_color = side_color.or(Some(color));
        rows.pop();
    }
    let n = rows.len();
    // A rank of another width than most: that rank is wrong.
    let width_of = |w: usize| rows.iter().filter(|r| r.cells.len() == w).count();
    if let Some(most) = rows.iter().map(|r| r.cells.len()).max_by_key(|&w| (width_of(w), w == n))
        && width_of(most) * 2 > n
        && square_size(most * most).is_some()
        && let Some(odd) = rows.iter().find(|r| r.cells.len() != most)
    {
        return Err(SyntaxError {
            span: Span { start: odd.start, end: odd.end },
            message: format!("{} cells on this rank, where the others have {most}", odd.cells.len()),
        });
    }
    // Ranks of one width that is not their number: a rank left out or written twice.
    if let Some(width) = rows.first().map(|r| r.cells.len())
        && width != n
        && square_size(width * width).is_some()
        && rows.iter().all(|r| r.cells.len() == width)
    {
        let descending = rows[0].label == Some(width as u8);
        let expected = |i: usize| if descending { width - i } else { i + 1 };
        let gap = rows.iter().enumerate().find(|(i, r)| r.label.is_some_and(|l| usize::from(l) != expected(*i)));
        let (hint, span) = match gap {
            Some((i, r)) if n < width => {
                (format!(": rank {} is missing before this one", expected(i)), Span { start: r.start, end: r.end })
            }
            _ => (String::new(), Span { start: 0, end: text.trim_end().len() }),
        };
        return Err(SyntaxError {
            span,
            message: format!(
                "{n} ranks of {width} cells: {} board has {width} ranks{hint}",
                crate::core::a_board_size(width as u8)
            ),
        });
    }
    let Some(size) = square_size(n * n) else {
        return Err(SyntaxError {
            span: Span { start: 0, end: text.trim_end().len() },
            message: format!("a diagram of {n} rank lines is not a board of 4 to 16 ranks"),
        });
    };
    let mut board = BoardSyntax::empty(size);
    board.side = side_color;
    let descending = rows.first().and_then(|r| r.label) == Some(size);
    for (i, row) in rows.iter().enumerate() {
        if row.cells.len() != n {
            return Err(SyntaxError {
                span: Span { start: row.start, end: row.end },
                message: format!("{} cells on a rank of {} board", row.cells.len(), crate::core::a_board_size(size)),
            });
        }
        let rank = if descending { size - i as u8 } else { i as u8 + 1 };
        if let Some(label) = row.label.filter(|&l| l != rank) {
            return Err(SyntaxError {
                span: Span { start: row.start, end: row.end },
                message: format!("rank {label} where rank {rank} was expected"),
            });
        }
        let base = usize::from(rank - 1) * n;
        board.cells[base..base + n].copy_from_slice(&row.cells);
        board.unplayable.extend(row.unplayable.iter().map(|file| base + file));
    }
    board.unplayable.sort_unstable();
    Ok(Record { tags, start: Some(board), ..Record::default() })
}

/// Whether a line is file letters `a b c ...` in order.
fn looks_like_files(line: &str) -> bool {
    let letters: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).map(|c| c.to_ascii_lowercase()).collect();
    letters.len() >= 4 && letters.iter().enumerate().all(|(i, &c)| c == (b'a' + i as u8) as char)
}

fn side_char(side: Option<Color>) -> &'static str {
    match side {
        Some(Color::Black) => " X",
        Some(Color::White) => " O",
        None => "",
    }
}

/// A cell as board strings write it: `X` black, `O` white, `-` empty.
pub(crate) fn cell_char(c: Option<Color>) -> char {
    match c {
        Some(Color::Black) => 'X',
        Some(Color::White) => 'O',
        None => '-',
    }
}

/// The cell at `index` as written: [`cell_char`], or `#` where the board has it unplayable.
fn written_cell(board: &BoardSyntax, index: usize) -> char {
    if board.unplayable.contains(&index) { '#' } else { cell_char(board.cells[index]) }
}

/// Writes a board as one line: cells from a1 rank by rank, then the side (`X`/`O`).
#[must_use]
pub fn write_string(board: &BoardSyntax) -> String {
    let mut out: String = (0..board.cells.len()).map(|i| written_cell(board, i)).collect();
    out.push_str(side_char(board.side));
    out
}

/// Writes a diagram: files on top, rank 1 first, the side on a last line.
#[must_use]
pub fn write_diagram(board: &BoardSyntax) -> String {
    let n = usize::from(board.size);
    let mut out = String::from("  ");
    for file in 0..n {
        out.push(' ');
        out.push((b'a' + file as u8) as char);
    }
    out.push('\n');
    for rank in 0..n {
        out.push_str(&format!("{:>2}", rank + 1));
        for file in 0..n {
            out.push(' ');
            out.push(written_cell(board, rank * n + file));
        }
        out.push('\n');
    }
    if let Some(c) = board.side {
        out.push_str(&format!("{c} to move\n"));
    }
    out
}

/// Writes an OBF line: the board string, the side and the `scores` tag (its control
/// characters, line breaks among them, written as spaces: the record is one line).
#[must_use]
pub fn write_obf(record: &Record) -> String {
    let board = record.start.clone().unwrap_or_else(|| BoardSyntax::empty(8));
    let mut out = write_string(&board);
    out.push(';');
    if let Some(scores) = record.tag("scores") {
        let scores: String = scores.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
        for s in scores.split(';').map(str::trim).filter(|s| !s.is_empty()) {
            out.push(' ');
            out.push_str(s);
            out.push(';');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const START: &str = "---------------------------OX------XO--------------------------- X";

    /// A board string a cell short or a cell over is named by its count of cells.
    #[test]
    fn a_board_string_of_the_wrong_length_is_counted() {
        for (cells, side) in [(63, " X"), (65, " X"), (65, "")] {
            let text = format!("{}{side}", "-".repeat(cells));
            let err = parse(&text, Digits::default()).unwrap_err();
            assert!(err.message.starts_with(&format!("{cells} cells is not a square board")), "{cells}: {err:?}");
        }
        assert!(
            parse(&format!("{} X", "-".repeat(289)), Digits::default())
                .unwrap_err()
                .message
                .starts_with("289 cells make a 17x17 board")
        );
        // A character that is no cell, or a space inside the board, is pointed at.
        let err = parse(&START.replacen("OX", "OZ", 1), Digits::default()).unwrap_err();
        assert_eq!(
            (err.span.start, err.message.as_str()),
            (28, "`Z` after 28 cells is not a cell (X, O or -; B, W, * and . too)")
        );
        let err = parse(&format!("{} {}", &START[..20], &START[21..]), Digits::default()).unwrap_err();
        assert_eq!(err.span.start, 20);
        assert!(err.message.starts_with("a space after 20 cells, inside the board"), "{err:?}");
        // A typo in the first 16 cells is pointed at too, and the line is still a board.
        for at in [0, 10, 15] {
            let mut typo = START.to_owned();
            typo.replace_range(at..=at, "Q");
            let err = parse(&typo, Digits::default()).unwrap_err();
            assert_eq!(err.span.start, at, "{typo}: {err:?}");
            assert!(err.message.starts_with(&format!("`Q` after {at} cells is not a cell")), "{err:?}");
            assert_eq!(crate::notation::format::sniff("-", typo.as_bytes()), crate::notation::format::Format::Board);
        }
        // The side may follow the cells at once.
        let glued = START.replace(" X", "X");
        assert_eq!(parse(&glued, Digits::default()).unwrap().start, parse(START, Digits::default()).unwrap().start);
    }

    /// Text lines over a one-line board are its caption (or its players, as `kifu show` writes
    /// them); an error in the board is placed in the whole text.
    #[test]
    fn a_caption_over_a_board_string_is_kept() {
        let record = parse(&format!("Exercise 3: black to play and win\n{START}\n"), Digits::default()).unwrap();
        assert_eq!(record.tag("caption"), Some("Exercise 3: black to play and win"));
        assert_eq!(record.start, parse(START, Digits::default()).unwrap().start);
        let record = parse(&format!("Ann (black) - Bob (white)\n{START}"), Digits::default()).unwrap();
        assert_eq!((record.tag("black"), record.tag("white"), record.tag("caption")), (Some("Ann"), Some("Bob"), None));
        let text = format!("Exercise\n{}", START.replace(" X", " Q"));
        let err = parse(&text, Digits::default()).unwrap_err();
        assert_eq!(&text[err.span.start..err.span.end], "Q");
        // Not a caption: a rank, four text lines, or a blank line between.
        for text in [
            format!("X O X O\n{START}"),
            format!("Intro\nOne\nTwo\nThree\n{START}"),
            format!("Exercise\n\n{START}"),
            format!("f5d6c3\n{START}"),
            format!("f5 d6 pass c3\n{START}"),
        ] {
            assert!(caption_over_board(&text).is_none(), "{text}");
        }
    }

    /// A board written rank by rank (GGF's `BO`, with or without its size) reads as the one
    /// run; an error after it is placed in the text as written.
    #[test]
    fn a_board_written_rank_by_rank_is_read() {
        let ranks: Vec<&str> = (0..8).map(|r| &START[r * 8..r * 8 + 8]).collect();
        let want = parse(START, Digits::default()).unwrap().start;
        let cells: Vec<String> = START[..64].chars().map(String::from).collect();
        for text in [
            format!("{} X", ranks.join(" ")),
            format!("8 {} *", ranks.join(" ")),
            format!("{} X", ranks.join("/")),
            format!("{} X", cells.join(" ")),
            format!("{} X", cells.join("  ")),
        ] {
            assert_eq!(parse(&text, Digits::default()).unwrap().start, want, "{text}");
            assert_eq!(crate::notation::format::sniff("-", text.as_bytes()), crate::notation::format::Format::Board);
        }
        let text = format!("{} Z", ranks.join(" "));
        let err = parse(&text, Digits::default()).unwrap_err();
        assert_eq!(&text[err.span.start..err.span.end], "Z", "{err:?}");
        // Ranks of unequal lengths, or of a board below 4x4, are no board string.
        assert!(ungrouped("---- ----- ---- ----").is_none() && ungrouped("--- --- ---").is_none());
        // Cell by cell, an error is placed in the text too; 63 cells are no board.
        let text = format!("{} Z", cells.join(" "));
        let err = parse(&text, Digits::default()).unwrap_err();
        assert_eq!(&text[err.span.start..err.span.end], "Z", "{err:?}");
        assert!(ungrouped(&cells[..63].join(" ")).is_none());
        // A rank of a 16x16 diagram, spaced, is no 4x4 board string.
        assert!(ungrouped(&cells[..16].join(" ")).is_none());
    }

    /// Found by the round_trip fuzz target: a `scores` tag read from another format with a line
    /// break inside an entry made the OBF line two lines.
    #[test]
    fn obf_scores_with_line_breaks_stay_on_one_line() {
        let mut record = parse(START, Digits::default()).expect("the start");
        record.tags.push(("scores".into(), "\u{3}\0\0\0\0\n\0\0;;".into()));
        let line = write_obf(&record);
        assert!(!line.contains('\n') && !line.contains('\0'), "{line:?}");
        let back = parse(&line, Digits::default()).expect("reads back");
        assert_eq!(back.start, record.start);
    }

    #[test]
    fn reads_a_string_in_every_alphabet() {
        let r = parse(START, Digits::default()).unwrap();
        let b = r.start.unwrap();
        assert_eq!((b.size, b.side), (8, Some(Color::Black)));
        assert_eq!(b.get(3, 4), Some(Color::White), "d4");
        assert_eq!(b.get(4, 4), Some(Color::Black), "e4");
        let alt = START.replace('-', ".").replace('X', "*").replace('O', "o");
        assert_eq!(parse(&alt, Digits::default()).unwrap().start, Some(b.clone()));
        let digits = START.replace('-', "0").replace('X', "1").replace('O', "2");
        assert_eq!(parse(&digits.replace(" 1", " black"), Digits::EmptyBlackWhite).unwrap().start, Some(b.clone()));
        let err = parse(&digits, Digits::BlackWhite).unwrap_err();
        assert!(err.message.contains("--digits"), "{}", err.message);
        assert!(parse("XO-- X", Digits::default()).is_err());
        // The side right after the cells, no space between.
        let joined = START.replace(' ', "");
        assert_eq!(parse(&joined, Digits::default()).unwrap().start, Some(b.clone()));
        let white = parse(&START.replace(" X", "O;"), Digits::default()).unwrap().start.unwrap();
        assert_eq!(white.side, Some(Color::White));
    }

    #[test]
    fn a_kifu_grid_without_moves_gives_its_first_side_to_move() {
        let grid = "   a b c d\n1  - - - -\n2  - O X -\n3  - X O -\n4  - - - -\nwhite first\n";
        assert_eq!(parse(grid, Digits::default()).unwrap().start.unwrap().side, Some(Color::White));
        let both = grid.replace("white first\n", "white first\nblack to move\n");
        assert_eq!(parse(&both, Digits::default()).unwrap().start.unwrap().side, Some(Color::Black));
    }

    #[test]
    fn reads_obf_lines() {
        let line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6;";
        let r = parse(line, Digits::default()).unwrap();
        assert_eq!(r.tag("scores"), Some("G8:+18; H1:+12; H7:+6"));
        assert_eq!(write_obf(&r), line.replace(";  ", "; "));
        assert_eq!(parse(&write_obf(&r), Digits::default()).unwrap(), r);
    }

    #[test]
    fn reads_diagrams_either_way_up() {
        let top1 = "   a b c d e f g h\n 1 - - - - - - - -\n 2 - - - - - - - -\n 3 - - - - - - - -\n 4 - - - O X - - -\n 5 - - - X O - - -\n 6 - - - - - - - -\n 7 - - - - - - - -\n 8 - - - - - - - -\nblack to move\n";
        let want = parse(START, Digits::default()).unwrap().start;
        assert_eq!(parse(top1, Digits::default()).unwrap().start, want);
        let top8: String = {
            let lines: Vec<&str> = top1.lines().collect();
            let mut v = vec![lines[0]];
            v.extend(lines[1..9].iter().rev());
            v.push(lines[9]);
            v.join("\n")
        };
        assert_eq!(parse(&top8, Digits::default()).unwrap().start, want);
        let bare = "........\n........\n........\n...OX...\n...XO...\n........\n........\n........\nX to move";
        assert_eq!(parse(bare, Digits::default()).unwrap().start, want);
        assert_eq!(parse(&write_diagram(want.as_ref().unwrap()), Digits::default()).unwrap().start, want);
        let err = parse("....\n....\n.z..\n....", Digits::default()).unwrap_err();
        assert_eq!(err.span, Span { start: 11, end: 12 });
    }

    #[test]
    fn a_rank_left_out_is_named() {
        let text = "  a b c d\n1 . . . .\n3 . X O .\n4 . . . .\nblack to move\n";
        let e = parse(text, Digits::default()).unwrap_err();
        assert_eq!(e.message, "3 ranks of 4 cells: a 4x4 board has 4 ranks: rank 2 is missing before this one");
        assert_eq!(&text[e.span.start..e.span.end], "3 . X O .");
        // A bare diagram a rank short, its side as a lone disc under it; a rank a cell long.
        let short = "--------\n--------\n--------\n---OX---\n---XO---\n--------\n--------\nX\n";
        let e = parse(short, Digits::default()).unwrap_err();
        assert_eq!(e.message, "7 ranks of 8 cells: an 8x8 board has 8 ranks");
        let long = "--------\n--------\n--------\n---OX---\n---XO---\n--------\n--------\n---------\nX\n";
        let e = parse(long, Digits::default()).unwrap_err();
        assert_eq!(e.message, "9 cells on this rank, where the others have 8");
        assert_eq!(&long[e.span.start..e.span.end], "---------");
    }

    #[test]
    fn digits_and_letters_do_not_mix() {
        let mixed = "00XXXXX00OOOXX0O0OOOXXOX0OXOXOXXOXXXOXXX00XOXOXX0XXXOOO00OOOOO00 X";
        let e = parse(mixed, Digits::default()).unwrap_err();
        assert_eq!(e.message, "`X` after `0`: a board's cells are letters (X O -) or digits (--digits), not both");
        assert_eq!(e.span, Span { start: 2, end: 3 });
        let e = parse("....\n.OX.\n.X1.\n....\n", Digits::default()).unwrap_err();
        assert_eq!(e.span, Span { start: 12, end: 13 });
        // Empty marks go with either.
        assert!(
            parse(&format!("{}01{}10{} X", "-".repeat(27), "-".repeat(6), "-".repeat(27)), Digits::default()).is_ok()
        );
        // Nothing but the side after a board string.
        let e = parse(&format!("{}OX{}XO{} X extra", "-".repeat(27), "-".repeat(6), "-".repeat(27)), Digits::default())
            .unwrap_err();
        assert!(e.message.starts_with("`X extra` is not a side to move (X, B, *, black for black;"), "{}", e.message);
        // A comment or a score after the side is left alone.
        for after in [" # comment", " % note", "\t+12", " -4"] {
            let text = format!("{}OX{}XO{} O{after}", "-".repeat(27), "-".repeat(6), "-".repeat(27));
            assert_eq!(parse(&text, Digits::default()).unwrap().start.unwrap().side, Some(Color::White), "{after}");
        }
    }

    #[test]
    fn the_side_to_move_is_read_in_many_forms() {
        let board = "....\n.OX.\n.XO.\n....\n";
        let side = |line: &str| parse(&format!("{board}{line}\n"), Digits::default()).map(|r| r.start.unwrap().side);
        for line in [
            "white",
            "side: white",
            "to move: white",
            "White's turn",
            "手番: 白",
            "白番",
            "O to move",
            "black 4, white 1; white to move",
            "(White to move)",
            "[white to move]",
            "Side to move is white",
            "It is white's turn",
        ] {
            assert_eq!(side(line), Ok(Some(Color::White)), "{line}");
        }
        for line in ["Black", "next: black", "X to play", "X", "●"] {
            assert_eq!(side(line), Ok(Some(Color::Black)), "{line}");
        }
        // A lone disc under a whole board is the side; a rank of one cell is not the side.
        assert_eq!(side("O"), Ok(Some(Color::White)));
        assert!(parse("....\n.OX.\n.XO.\nO\n", Digits::default()).is_err(), "three ranks and a lone disc");
        // A players' line names no side.
        assert_eq!(side("Black: Ann  White: Bob"), Ok(None));
        let e = side("nobody to move").unwrap_err();
        assert_eq!(e.message, "`nobody to move` names no side to move (black to move, white to move)");
        assert_eq!(&format!("{board}nobody to move")[e.span.start..e.span.end], "nobody to move");
    }

    #[test]
    fn skips_text_lines_and_last_move_brackets() {
        let shown = "Ann (black) - Bob (white)\n  a b c d\n1 - - - -\n2 - O X -\n3 -[X]X -\n4 - . - -\nwhite to move; black 3, white 1, 12 empty\nply 1 of 1, last move b3 by black\nlegal moves: b4\n";
        let board = parse(shown, Digits::default()).unwrap().start.unwrap();
        assert_eq!(write_string(&board), "-----OX--XX----- O");
        // Rows of cell letters are ranks, not text; a stray letter in a rank is still an error.
        assert!(!is_text_line("1 bwbw") && !is_text_line("XO--") && is_text_line("legal moves: b4"));
        let err = parse("....\n.OX.\n.XOq\n....", Digits::default()).unwrap_err();
        assert_eq!(err.span, Span { start: 13, end: 14 });
    }

    #[test]
    fn errors_after_labels_on_both_sides_point_at_the_cell() {
        let text = "1 . . . . 1\n2 . . . . 2\n 3 . X z . 3\n4 . . . . 4\n";
        let err = parse(text, Digits::default()).unwrap_err();
        assert_eq!(&text[err.span.start..err.span.end], "z", "{err:?}");
        let text = "1 . . . . 1\n2 . . . . 2\n3 . X z . 13\n4 . . . . 4\n";
        let err = parse(text, Digits::default()).unwrap_err();
        assert_eq!(&text[err.span.start..err.span.end], "z", "{err:?}");
    }

    #[test]
    fn counts_leading_cells() {
        assert_eq!(leading_cells(START), 64);
        assert_eq!(leading_cells("0120XO-.#_*xobw\u{25cf}\u{25cb} X"), 17);
        assert_eq!(leading_cells("1 . . ."), 1);
    }

    #[test]
    fn reads_a_position_display() {
        use crate::core::{Position, Rules};
        for spec in ["othello", "othello,rows=bottom", "othello,size=6", "othello,size=10"] {
            let pos = Position::start(spec.parse::<Rules>().unwrap().shared());
            let r = parse(&pos.to_string(), Digits::default()).unwrap();
            assert_eq!(r.start, Some(BoardSyntax::of_position(&pos)), "{spec}");
        }
    }

    proptest! {
        #[test]
        fn strings_and_diagrams_round_trip(n in prop::sample::select(vec![4u8, 6, 8, 10, 16]), seed in any::<u64>(), side in 0u8..3) {
            let mut board = BoardSyntax::empty(n);
            let mut s = seed;
            for c in &mut board.cells {
                s = crate::core::splitmix64(s);
                *c = [None, Some(Color::Black), Some(Color::White)][(s % 3) as usize];
            }
            board.side = [None, Some(Color::Black), Some(Color::White)][usize::from(side)];
            prop_assert_eq!(parse(&write_string(&board), Digits::default()).unwrap().start, Some(board.clone()));
            prop_assert_eq!(parse(&write_diagram(&board), Digits::default()).unwrap().start, Some(board.clone()));
        }

        #[test]
        fn never_panics(text in "[-XO.xo01 a-h\n;:+]{0,200}") {
            let _ = parse(&text, Digits::default());
            let _ = parse(&text, Digits::EmptyBlackWhite);
        }
    }
}
